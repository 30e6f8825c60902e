//! The lexer alone, as tokens (a test and benchmark surface).

use super::*;

/// What a [`Token`] is.
#[cfg(any(test, feature = "oracle"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum TokenKind {
    /// `(`
    Open,
    /// `)`
    Close,
    /// `;`
    Semicolon,
    /// A property identifier as written (letters, maybe whitespace).
    Ident,
    /// A property value's content, still escaped, without the brackets.
    Value,
    /// A `]` or `\` outside any value.
    Stray,
}

/// One token: a kind and the bytes it covers.
#[cfg(any(test, feature = "oracle"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Token {
    /// What the token is.
    pub(crate) kind: TokenKind,
    /// Where it is in the input.
    pub(crate) span: crate::Span,
}

/// The tokens of an input, without building a tree: the lexer alone.
///
/// Whitespace and bytes that belong to no token are skipped silently; the
/// tree builder is what reports them. An internal of the crate, for the
/// `lexer_diff` oracle, the unit tests (`tokens_of_a_small_game`) and the
/// lexer benches, reached from outside only through the `oracle` feature.
#[cfg(any(test, feature = "oracle"))]
#[derive(Clone, Debug)]
pub(crate) struct Tokens<'src> {
    scanner: Scanner<'src>,
    pos: usize,
    pending_value: Option<usize>,
}

#[cfg(any(test, feature = "oracle"))]
impl<'src> Tokens<'src> {
    /// Tokens of `input` from its start.
    pub(crate) fn new(input: &'src [u8]) -> Tokens<'src> {
        Tokens {
            scanner: Scanner::new(input, 0),
            pos: 0,
            pending_value: None,
        }
    }

    fn value(&mut self, open: usize) -> Token {
        let end = scan_value(&mut self.scanner, open, &mut NoSink);
        self.pos = end.resume;
        Token {
            kind: TokenKind::Value,
            span: crate::Span::new(open + 1, end.content_end),
        }
    }
}

#[cfg(any(test, feature = "oracle"))]
impl Iterator for Tokens<'_> {
    type Item = Token;

    #[inline]
    fn next(&mut self) -> Option<Token> {
        if let Some(open) = self.pending_value.take() {
            return Some(self.value(open));
        }
        let input = self.scanner.input();
        let at = self.scanner.next()?;
        let kind = match input[at] {
            b'(' => TokenKind::Open,
            b')' => TokenKind::Close,
            b';' => TokenKind::Semicolon,
            b'[' => {
                let gap = read_gap(input, self.pos, at, &mut NoSink);
                if let Some((s, e)) = gap.ident {
                    self.pending_value = Some(at);
                    self.pos = at + 1;
                    return Some(Token {
                        kind: TokenKind::Ident,
                        span: crate::Span::new(s, e),
                    });
                }
                return Some(self.value(at));
            }
            _ => TokenKind::Stray,
        };
        self.pos = at + 1;
        Some(Token {
            kind,
            span: crate::Span::new(at, at + 1),
        })
    }
}

#[cfg(any(test, feature = "oracle"))]
impl std::iter::FusedIterator for Tokens<'_> {}
