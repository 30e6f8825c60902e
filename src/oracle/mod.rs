//! The checks the fuzz targets run, as functions, so that the targets and the
//! replay of their minimized crashes (`tests/integration/fuzz_regressions.rs`)
//! share one copy. Each panics with a paste-able reproducer when an invariant
//! fails (the semantic pass: [`semantic`]). Also the plain-text dump of a parse that the hand-written corpus
//! is checked against ([`describe`](describe::describe)). Test surface
//! behind the `oracle` feature, not API.

#![allow(missing_docs)]

pub mod describe;
pub mod edit;
pub mod events;
#[cfg(feature = "index")]
pub mod index;
pub mod inplace;
#[cfg(feature = "archives")]
pub mod inputs;
pub mod lexer;
pub mod parse;
pub mod repair;
pub mod replay;
pub mod roundtrip;
pub mod semantic;
pub mod typed;
pub mod write_modes;

/// The largest input the fuzz targets accept.
pub const MAX_INPUT: usize = 1 << 20;

/// A reproducer for a failing input, as a Rust byte string.
pub fn repro(input: &[u8]) -> String {
    format!("input: b\"{}\"", input.escape_ascii())
}
