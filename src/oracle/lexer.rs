//! The block scanner and the read API's byte scanner find the same
//! structural bytes as the byte-at-a-time reference, from the start and from
//! any position; the token iterator never
//! panics and hands out in-bounds, ordered spans of the right bytes.

use super::repro;
use crate::lexer::reference::{structural_offsets, structural_offsets_fast};
use crate::lexer::{ByteScanner, Scanner, Structurals, TokenKind, Tokens};

/// The number of tokens of `input`: the lexer alone, for the lexer benches
/// (the `lexer` module is private to the crate).
pub fn token_count(input: &[u8]) -> usize {
    Tokens::new(input).count()
}

/// The number of structural bytes of `input`, found by the bare block
/// scanner loop, for the lexer benches.
pub fn structural_count(input: &[u8]) -> usize {
    let mut scanner = Scanner::new(input, 0);
    let mut n = 0;
    while scanner.next_structural().is_some() {
        n += 1;
    }
    n
}

/// Runs the checks on `input`; panics with a reproducer on a violation.
pub fn check_lexer(input: &[u8]) {
    let reference = structural_offsets(input);
    assert_eq!(
        reference,
        structural_offsets_fast(input),
        "{}",
        repro(input)
    );
    check_seek(input, &reference);
    check_tokens(input);
}

/// A scanner started (or moved) anywhere reports the reference offsets at or
/// after that point.
fn check_seek(input: &[u8], reference: &[usize]) {
    let len = input.len();
    let pick = input.first().map_or(0, |&b| b as usize);
    for pos in [1, 63, 64, 65, 127, 128, len / 2, len * pick / 256, len] {
        if pos > len {
            continue;
        }
        let expected: Vec<usize> = reference.iter().copied().filter(|&o| o >= pos).collect();
        let mut scanner = Scanner::new(input, pos);
        let found: Vec<usize> = std::iter::from_fn(|| scanner.next_structural()).collect();
        assert_eq!(found, expected, "Scanner::new at {pos}\n{}", repro(input));
        // Back from the end to `pos`.
        scanner.rewind(pos);
        let found: Vec<usize> = std::iter::from_fn(|| scanner.next_structural()).collect();
        assert_eq!(
            found,
            expected,
            "Scanner::rewind to {pos}\n{}",
            repro(input)
        );
        // The byte-at-a-time scanner of the read API, through the trait.
        let mut bytes = ByteScanner::new(input, pos);
        let found: Vec<usize> = std::iter::from_fn(|| Structurals::next(&mut bytes)).collect();
        assert_eq!(
            found,
            expected,
            "ByteScanner::new at {pos}\n{}",
            repro(input)
        );
        Structurals::rewind(&mut bytes, pos);
        let found: Vec<usize> = std::iter::from_fn(|| Structurals::next(&mut bytes)).collect();
        assert_eq!(
            found,
            expected,
            "ByteScanner::rewind to {pos}\n{}",
            repro(input)
        );
    }
}

fn check_tokens(input: &[u8]) {
    let mut prev_end = 0;
    for token in Tokens::new(input) {
        let span = token.span;
        assert!(
            span.start <= span.end && span.end <= input.len(),
            "token {token:?} out of bounds (len {})\n{}",
            input.len(),
            repro(input)
        );
        assert!(
            span.start >= prev_end,
            "token {token:?} starts before the previous one ends ({prev_end})\n{}",
            repro(input)
        );
        prev_end = span.end;
        let bytes = &input[span.start..span.end];
        let ok = match token.kind {
            TokenKind::Open => bytes == b"(",
            TokenKind::Close => bytes == b")",
            TokenKind::Semicolon => bytes == b";",
            TokenKind::Stray => bytes == b"]" || bytes == b"\\",
            TokenKind::Ident => {
                bytes.first().is_some_and(u8::is_ascii_alphabetic)
                    && bytes.last().is_some_and(u8::is_ascii_alphabetic)
            }
            TokenKind::Value => span.start > 0 && input[span.start - 1] == b'[',
        };
        assert!(
            ok,
            "token {token:?} covers b\"{}\"\n{}",
            bytes.escape_ascii(),
            repro(input)
        );
    }
}
