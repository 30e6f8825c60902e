//! The native part of the `sgf_grove` Python package: games, nodes and
//! typed values ([`core`]), replay ([`board`]), editing and writing
//! ([`edit`]), sgfmill's board ([`mill_board`]), and scans over every input kind with Arrow output
//! ([`scan`]). The Python package (`sgf_grove/`) wraps these in its public
//! API.

use pyo3::prelude::*;

mod board;
mod core;
mod edit;
mod mill_board;
mod scan;

/// The extension module `sgf_grove._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    core::register(m)?;
    board::register(m)?;
    edit::register(m)?;
    mill_board::register(m)?;
    scan::register(m)?;
    Ok(())
}
