//! Games, nodes and typed values: `parse`, `read`, `Collection`, `Game`,
//! `Node`, `ParseWarning` and `SgfError`.
//!
//! # For the scan module: `game_from_scan`
//!
//! ```ignore
//! pub(crate) fn game_from_scan(
//!     py: Python<'_>,
//!     source: Source,                    // the game as the scan's worker parsed it
//!                                        // (`Source::scanned`, no second parse)
//!     origin: String,                    // where it was read: a path, `archive!member`
//!     offset: u64,                       // the byte offset of its `(` in `origin`
//!     index: usize,                      // its number among the games of `origin`, from 0
//!     warnings: Vec<sgf_grove::Warning>, // the scan's warnings for this game, as they are
//! ) -> PyResult<Py<Game>>
//! ```
//!
//! The `Game` it gives reads the game of `source` (shared by nothing
//! else) and exposes `origin`, `offset` and `index` as attributes and
//! `warnings` as [`ParseWarning`]s. Every position of the game is one in
//! `origin`, as the scan placed it: its warnings', its nodes'
//! (`Node.offset`, `Node.position`), its values' errors and its illegal
//! moves'.
//!
//! # How a game is held
//!
//! A parsed input is kept with its document ([`source::Source`], shared by
//! the games of one `parse`), and a game is read in place from it: parsing
//! the corpus of 49,264 files this way takes 0.33 s, while also copying
//! every game into an editable tree ([`sgf_grove::edit::EditableGame`])
//! takes 3.1 s (the copy allocates per node), so a game becomes editable
//! only on its first edit ([`game::State`]). Both forms are read through
//! one [`view::View`]; a node is named by its number in the game, which
//! the editable copy keeps.
//!
//! Locks: a `Game` holds its state in a mutex (a document is not `Sync`).
//! No Python object is made and no Python code runs while it is held
//! (values are read into [`values::Value`] and converted after), so it is
//! never contended and never taken twice.

mod errors;
mod game;
mod info;
mod node;
mod source;
mod values;
mod view;

pub(crate) use errors::to_py_err;
pub(crate) use game::game_from_scan;
pub(crate) use game::{Game, State};
pub(crate) use node::Node;
pub(crate) use source::Source;
pub(crate) use values::Fail;
pub(crate) use view::{each_form, View};

use pyo3::prelude::*;

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    game::register(m)?;
    m.add_class::<node::Node>()?;
    Ok(())
}
