//! The sources of a scan with their sizes, for the cluster planner
//! (`sgf_grove.cluster.plan`), which cuts them into shards.

use super::options::Args;
use pyo3::prelude::*;

/// sources(paths, *, names_only=False)
/// --
///
/// The sources a scan of ``paths`` reads, in its order (a folder walk,
/// sorted): a list of ``(source, size)``, ``size`` in bytes or ``None``
/// when unknown (standard input, a FIFO, a path that failed). The number
/// of a source in this list is what a scan's ``sources=(start, end)``
/// range counts.
#[pyfunction]
#[pyo3(signature = (paths, *, names_only=false))]
fn sources(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    names_only: bool,
) -> PyResult<Vec<(String, Option<u64>)>> {
    let spec = Args {
        paths,
        workers: Some(1),
        select: None,
        strict: false,
        charset: None,
        names_only,
        sources: None,
        members: None,
    }
    .spec()?;
    Ok(py.detach(|| {
        spec.inputs
            .sources()
            .iter()
            .map(|s| (s.origin().escaped(), s.size()))
            .collect()
    }))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(sources, m)?)?;
    Ok(())
}
