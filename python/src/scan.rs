//! Scans: every input kind the library reads (folders, collections,
//! `.sgfs`, tar, zip and 7z archives, gzip, bzip2, xz and zstd data), on
//! Rust threads, for Python.
//!
//! - [`iter`]: `scan()`, an iterator of games fed by a background thread
//!   through a bounded channel, with a live [`iter::ScanReport`];
//! - [`arrow`]: the games and moves tables as Arrow C streams
//!   (`to_arrow` in Python), and Parquet files (`to_parquet`, the
//!   cluster's `export_shard`);
//! - [`options`]: what every scan takes (paths, workers, `select`, parse
//!   options, the share of a cluster job);
//! - [`samples`]: training samples (`samples()` in Python), shuffled
//!   record batches from a background thread;
//! - [`plan`]: the sources of a scan with their sizes, for the cluster
//!   planner.
//!
//! Nothing here holds the GIL while Rust reads: scans run on threads of
//! their own, and the calling thread waits with the GIL released.

mod arrow;
mod iter;
mod options;
mod plan;
mod samples;

use pyo3::prelude::*;

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    iter::register(m)?;
    arrow::register(m)?;
    plan::register(m)?;
    samples::register(m)?;
    Ok(())
}
