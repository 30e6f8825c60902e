//! Stage one: finding structure in the bytes.
//!
//! The input is classified 64 bytes at a time into a bitmask of the six
//! structural bytes `(` `)` `;` `[` `]` `\` ([`classify`]). The [`Scanner`]
//! walks the set bits of that mask, so that dense move sequences
//! (`;B[pd];W[dd]`, one structural byte in every two or three) cost a few
//! instructions per token and long comments are skipped a block at a time.
//!
//! On top of the scanner, `scan_value` finds where a value ends (byte by
//! byte, or a character at a time for Shift_JIS, Big5 and GBK) and
//! `read_gap` reads what stands between two structural bytes (an
//! identifier, junk). The [event reader](crate::events) drives them, once
//! per input; nothing reads the input again after it. Property values are
//! borrowed slices of the input, still escaped.
//!
//! The byte-at-a-time twin of the scanner lives in [`mod@reference`]; the two are
//! compared by unit tests and by the `lexer_diff` fuzz target.

mod check;
mod gap;
mod resync;
mod scan;
#[cfg(any(test, feature = "oracle"))]
mod tokens;
mod value;

pub(crate) use check::*;
pub(crate) use gap::*;
pub(crate) use resync::*;
pub(crate) use scan::*;
#[cfg(any(test, feature = "oracle"))]
pub(crate) use tokens::*;
pub(crate) use value::*;

#[cfg(any(test, feature = "oracle"))]
pub(crate) mod reference;

use crate::error::WarningKind;

/// Receives the defects a lexer forgives. The read API passes [`NoSink`],
/// which compiles to nothing.
pub(crate) trait Sink {
    /// Records that `kind` was forgiven at `offset`.
    fn warn(&mut self, kind: WarningKind, offset: usize);
}

/// A [`Sink`] that discards everything.
#[cfg(any(test, feature = "oracle"))]
pub(crate) struct NoSink;

#[cfg(any(test, feature = "oracle"))]
impl Sink for NoSink {
    #[inline(always)]
    fn warn(&mut self, _: WarningKind, _: usize) {}
}

#[cfg(test)]
mod tests;
