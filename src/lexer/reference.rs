//! The byte-at-a-time twin of the block scanner: the oracle that tests and
//! the `lexer_diff` fuzz target compare [`Scanner`](super::Scanner) and
//! [`Tokens`](super::Tokens) against.

use super::is_structural;

/// The offsets of every structural byte, found one byte at a time.
pub(crate) fn structural_offsets(input: &[u8]) -> Vec<usize> {
    input
        .iter()
        .enumerate()
        .filter(|&(_, &b)| is_structural(b))
        .map(|(i, _)| i)
        .collect()
}

/// The offsets of every structural byte, found with the block scanner.
pub(crate) fn structural_offsets_fast(input: &[u8]) -> Vec<usize> {
    let mut scanner = super::Scanner::new(input, 0);
    let mut out = Vec::new();
    while let Some(at) = scanner.next_structural() {
        out.push(at);
    }
    out
}
