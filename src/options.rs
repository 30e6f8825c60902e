//! How to parse: [`ParseOptions`], taken by the event reader
//! ([`events::Reader`](crate::events::Reader)) and by everything built on
//! it (the tree builder, the stream parser, the inputs). It sits below
//! them all and imports nothing of the crate.

/// How to parse: leniently or strictly, how many warnings to keep, and a
/// charset for every game whatever its `CA` says. Built by methods, each
/// saying its default.
///
/// ```
/// use sgf_grove::{ErrorKind, ParseOptions, Parser, WarningKind};
/// let mut parser = Parser::with_options(ParseOptions::new().strict(true));
/// let err = parser.parse(b"(;GM[1]CoPyright[x])").unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Strict(WarningKind::LowercaseInIdent));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseOptions {
    pub(crate) strict: bool,
    pub(crate) max_warnings: usize,
    pub(crate) charset: Option<&'static encoding_rs::Encoding>,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            strict: false,
            max_warnings: 10_000,
            charset: None,
        }
    }
}

impl ParseOptions {
    /// The default options: lenient, at most 10,000 warnings kept.
    pub fn new() -> ParseOptions {
        ParseOptions::default()
    }

    /// Refuse every defect the lenient parser forgives: the first one becomes
    /// an [`Error`](crate::Error) of kind [`ErrorKind::Strict`](crate::ErrorKind::Strict).
    ///
    /// Default: `false`, because real collections are full of harmless
    /// defects and one of them should not cost a game.
    #[must_use]
    pub fn strict(mut self, yes: bool) -> ParseOptions {
        self.strict = yes;
        self
    }

    /// Keep at most `max` warnings per parse; further ones are only counted
    /// ([`Collection::warnings_dropped`](crate::Collection::warnings_dropped)).
    ///
    /// Default: 10,000, so that a hostile input cannot make the warning list
    /// larger than the tree.
    #[must_use]
    pub fn max_warnings(mut self, max: usize) -> ParseOptions {
        self.max_warnings = max;
        self
    }

    /// Read every game's text in `encoding`, whatever its `CA` says (or
    /// `None`: from `CA`, else detected; see [`charset`](crate::text::charset)).
    /// Values are then also split a character at a time when the encoding
    /// needs it (Shift_JIS, Big5, GBK).
    ///
    /// Default: `None`, because `CA` is right far more often than not.
    #[must_use]
    pub fn charset(mut self, encoding: Option<&'static encoding_rs::Encoding>) -> ParseOptions {
        self.charset = encoding;
        self
    }

    /// Whether strict mode is on.
    pub fn is_strict(&self) -> bool {
        self.strict
    }
}
