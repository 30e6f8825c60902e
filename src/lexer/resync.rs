//! Where a new game starts inside one that is still open.

use super::*;

/// How far past the byte being decided on any decision of the lexer looks
/// (an identifier after a `]`, the node after a `(` inside a value): a
/// reader over a stream keeps this much beyond what it has read.
pub(crate) const LOOKAHEAD: usize = 4096;

/// Whether the `(` at `at`, met inside a value, starts a new game that the
/// open one must give way to (a file cut off mid-value, the next one
/// appended). The node it opens (`(;`) holds a property only a root may
/// hold ([`opens_root_node`]), and the `(` stands at the start of a line
/// (after spaces or tabs at most) or right after a byte that no SGF
/// structure puts before `(` — not `)`, `]`, `;` or whitespace
/// (`W[dd(;GM[1]…`), or after a space (`C[cut here (;GM[1]…`). A game lost
/// to a swallowing value costs more than a comment that quotes SGF cut in
/// two (`C[use (;FF[4\])]` is cut at its `(`, with a warning).
///
/// Between nodes, the event reader decides on the node a `(` opens: one
/// holding a property only a root may hold starts a new game.
pub(crate) fn resync_point(input: &[u8], at: usize) -> bool {
    let before = &input[..at];
    let indent = before
        .iter()
        .rev()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    let plausible = match before[..before.len() - indent].last() {
        None | Some(b'\n' | b'\r') => true,
        Some(_) if indent > 0 => true,
        Some(&b) => !matches!(b, b')' | b']' | b';') && !is_space(b),
    };
    plausible && opens_root_node(input, at)
}

/// Whether the `(` at `at` is followed by `;` and a property only a root
/// may hold (`GM`, `FF`, `CA`, `AP`, `ST`, `SZ`; the identifier normalised
/// as the lexer does) and its `[`, whitespace allowed between them. Only
/// the first property counts: deciding on bytes past the first `]` would
/// decide on what the writer may move (a value cut here or not must read
/// the same way when written back).
pub(crate) fn opens_root_node(input: &[u8], at: usize) -> bool {
    let limit = input.len().min(at + LOOKAHEAD);
    let mut i = skip_space(input, at + 1);
    if input.get(i) != Some(&b';') {
        return false;
    }
    i = skip_space(input, i + 1);
    let mut name = [0u8; 2];
    let mut len = 0usize;
    while i < limit && (input[i].is_ascii_alphabetic() || is_space(input[i])) {
        if input[i].is_ascii_uppercase() {
            if len < 2 {
                name[len] = input[i];
            }
            len += 1;
        }
        i += 1;
    }
    len == 2
        && input.get(i) == Some(&b'[')
        && matches!(&name, b"GM" | b"FF" | b"CA" | b"AP" | b"ST" | b"SZ")
}
