//! One error type and one warning type, each a kind plus a [`Position`].
//!
//! The parser recovers from every defect it knows (see [`WarningKind`]) and
//! reports each recovery as a [`Warning`]. In strict mode
//! ([`ParseOptions::strict`](crate::ParseOptions::strict)) the first such
//! defect is returned as an [`Error`] of kind [`ErrorKind::Strict`] instead.

use crate::span::Position;
use std::fmt;

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What a warning forgave. Each variant's documentation shows the input it
/// forgives and what the parser keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum WarningKind {
    /// A UTF-8 byte order mark at the start of the input. It is skipped.
    Bom,
    /// Text before the first game tree (`Game record:\n(;GM[1])`).
    /// It is skipped.
    JunkBeforeGame,
    /// Text between or after game trees (`(;GM[1])\n---`). It is skipped.
    JunkAfterGame,
    /// Bytes that belong to no token inside a game (`;B[aa] ~ W[bb]`).
    /// They are skipped.
    UnexpectedByte,
    /// NUL bytes between tokens. They are skipped as whitespace; NUL bytes
    /// inside a value are kept.
    NulByte,
    /// An empty game tree `()` at the top level. It is skipped.
    EmptyGameTree,
    /// An empty variation `()` inside a game tree (`(;B[aa]())`). It is
    /// skipped.
    EmptyVariation,
    /// A game tree or variation without the `;` that starts its first node
    /// (`(B[aa])`, an old dialect). The node is read as if the `;` were there.
    MissingSemicolon,
    /// A game that starts with `;` and no `(` (`;GM[1];B[aa])`). It is read as
    /// a game tree; a matching `)` closes it.
    MissingOpenParen,
    /// Whitespace between the letters of a property identifier (`P B[x]`).
    /// The letters are joined (`PB`).
    WhitespaceInIdent,
    /// Lower-case letters in a property identifier (`CoPyright[x]`, old
    /// FF\[1\]–FF\[3\] files). They are dropped (`CP`); the original spelling stays
    /// available through [`Property::ident_raw`](crate::Property::ident_raw).
    LowercaseInIdent,
    /// A property identifier with no upper-case letter (`foo[x]`). The
    /// property is dropped.
    InvalidIdent,
    /// A property identifier followed by no value (`;B;W[aa]`). The
    /// identifier is dropped.
    MissingValue,
    /// A value with no property identifier before it (`;[aa]`). The value is
    /// dropped.
    ValueWithoutIdent,
    /// A property that appears twice in one node (`AB[aa]W[bb]AB[cc]`). The
    /// values are merged in file order (`AB[aa][cc]`).
    RepeatedProperty,
    /// An unescaped `]` inside a value, followed by something that does not
    /// look like SGF (`US[Matsuyama[3d]]`, `C[see [this] and that]`). The `]`
    /// is kept as part of the value.
    UnescapedBracket,
    /// A value cut off by the end of the input (`C[abc`), or by the start of
    /// the next game (`W[dd(;GM[1]…`). The bytes up to the cut are kept as the
    /// value.
    UnclosedValue,
    /// A game tree or variation that is still open at the end of the input
    /// (`(;GM[1];B[aa]`). The tree is closed there.
    UnclosedGameTree,
    /// A game tree left unbalanced, followed by `(;` and a root property
    /// (`FF` or `GM`) that starts a new game: at the start of a line, or
    /// anywhere inside a value (`W[dd(;GM[1]…`, a file cut off and the next
    /// one appended). The open tree is closed and parsing resumes with the
    /// new game, so that one broken game never swallows the games after it.
    /// (A comment that quotes `(;GM[` is cut there too.)
    GameResync,
    /// A `)` with no open game tree (`(;B[aa]))`). It is skipped.
    ExtraCloseParen,
    /// A node after the variations of a sequence (`(;a(;b)(;c);d)`). It is
    /// attached to the same parent as those variations, after them.
    NodeAfterVariation,
    /// A variation with no node before it in its game tree
    /// (`((;a)(;b))`), reported at its `(`. The first such variation's nodes
    /// make the game; each later one becomes a game tree of its own.
    DetachedVariation,
}

impl WarningKind {
    /// The number of kinds.
    pub const COUNT: usize = 22;

    /// Every kind, in declaration order.
    pub const ALL: &'static [WarningKind] = &[
        WarningKind::Bom,
        WarningKind::JunkBeforeGame,
        WarningKind::JunkAfterGame,
        WarningKind::UnexpectedByte,
        WarningKind::NulByte,
        WarningKind::EmptyGameTree,
        WarningKind::EmptyVariation,
        WarningKind::MissingSemicolon,
        WarningKind::MissingOpenParen,
        WarningKind::WhitespaceInIdent,
        WarningKind::LowercaseInIdent,
        WarningKind::InvalidIdent,
        WarningKind::MissingValue,
        WarningKind::ValueWithoutIdent,
        WarningKind::RepeatedProperty,
        WarningKind::UnescapedBracket,
        WarningKind::UnclosedValue,
        WarningKind::UnclosedGameTree,
        WarningKind::GameResync,
        WarningKind::ExtraCloseParen,
        WarningKind::NodeAfterVariation,
        WarningKind::DetachedVariation,
    ];

    /// A stable `snake_case` code for the kind, as printed by the CLI
    /// (`warning[unescaped_bracket]`) and in its JSON output.
    pub fn code(self) -> &'static str {
        use WarningKind::*;
        match self {
            Bom => "bom",
            JunkBeforeGame => "junk_before_game",
            JunkAfterGame => "junk_after_game",
            UnexpectedByte => "unexpected_byte",
            NulByte => "nul_byte",
            EmptyGameTree => "empty_game_tree",
            EmptyVariation => "empty_variation",
            MissingSemicolon => "missing_semicolon",
            MissingOpenParen => "missing_open_paren",
            WhitespaceInIdent => "whitespace_in_ident",
            LowercaseInIdent => "lowercase_in_ident",
            InvalidIdent => "invalid_ident",
            MissingValue => "missing_value",
            ValueWithoutIdent => "value_without_ident",
            RepeatedProperty => "repeated_property",
            UnescapedBracket => "unescaped_bracket",
            UnclosedValue => "unclosed_value",
            UnclosedGameTree => "unclosed_game_tree",
            GameResync => "game_resync",
            ExtraCloseParen => "extra_close_paren",
            NodeAfterVariation => "node_after_variation",
            DetachedVariation => "detached_variation",
        }
    }

    /// A lower-case sentence describing the defect, without position.
    pub fn message(self) -> &'static str {
        use WarningKind::*;
        match self {
            Bom => "byte order mark skipped",
            JunkBeforeGame => "text before the first game tree skipped",
            JunkAfterGame => "text outside any game tree skipped",
            UnexpectedByte => "unexpected bytes between properties skipped",
            NulByte => "NUL bytes skipped",
            EmptyGameTree => "empty game tree `()` skipped",
            EmptyVariation => "empty variation `()` skipped",
            MissingSemicolon => "missing `;` before the first node of a tree",
            MissingOpenParen => "game tree starts with `;` and no `(`",
            WhitespaceInIdent => "whitespace inside a property identifier",
            LowercaseInIdent => "lower-case letters in a property identifier dropped",
            InvalidIdent => "property identifier without upper-case letters dropped",
            MissingValue => "property identifier without a value dropped",
            ValueWithoutIdent => "value without a property identifier dropped",
            RepeatedProperty => "property repeated in a node; values merged",
            UnescapedBracket => "unescaped `]` inside a value kept as text",
            UnclosedValue => "property value not closed",
            UnclosedGameTree => "game tree not closed at end of input",
            GameResync => "unclosed game tree; resynchronised at the next game",
            ExtraCloseParen => "unmatched `)` skipped",
            NodeAfterVariation => "node after variations attached as another variation",
            DetachedVariation => "variation without a parent node read as a game tree",
        }
    }
}

impl fmt::Display for WarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

/// A defect the parser recovered from, and where it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Warning {
    /// What was forgiven.
    pub kind: WarningKind,
    /// Where, in the input.
    pub pos: Position,
}

impl Warning {
    /// The kind of defect.
    pub fn kind(&self) -> WarningKind {
        self.kind
    }
    /// Byte offset in the input.
    pub fn offset(&self) -> usize {
        self.pos.offset
    }
    /// 1-based line.
    pub fn line(&self) -> u32 {
        self.pos.line
    }
    /// 1-based column (in bytes).
    pub fn column(&self) -> u32 {
        self.pos.column
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}", self.kind, self.pos)
    }
}

/// Why parsing failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input holds no game tree at all: it is empty, all NUL bytes, or
    /// text without `(;`.
    NoGameTree,
    /// The input is larger than 4 GiB − 1 byte, the most a `u32` offset
    /// addresses.
    InputTooLarge,
    /// A defect that the lenient parser forgives, refused in strict mode.
    Strict(WarningKind),
    /// A value that a typed getter could not read as the type asked for
    /// (`B[z]` as a move, `KM[six]` as a real); the position is the value's.
    InvalidValue(crate::value::ValueType),
}

impl ErrorKind {
    /// A stable `snake_case` code, as printed by the CLI.
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::NoGameTree => "no_game_tree",
            ErrorKind::InputTooLarge => "input_too_large",
            ErrorKind::Strict(kind) => kind.code(),
            ErrorKind::InvalidValue(_) => "invalid_value",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::NoGameTree => f.write_str("no SGF game tree found in the input"),
            ErrorKind::InputTooLarge => f.write_str("input larger than 4 GiB"),
            ErrorKind::Strict(kind) => write!(f, "{kind} (strict mode)"),
            ErrorKind::InvalidValue(ty) => write!(f, "malformed value: expected {ty}"),
        }
    }
}

/// A parse failure: a kind and a position.
///
/// ```
/// let err = sgf_grove::parse(b"just some text").unwrap_err();
/// assert_eq!(err.kind(), sgf_grove::ErrorKind::NoGameTree);
/// assert_eq!(err.to_string(), "no SGF game tree found in the input at 1:15");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Error(Box<Inner>);

#[derive(Clone, PartialEq, Eq, Debug)]
struct Inner {
    kind: ErrorKind,
    pos: Position,
}

impl Error {
    #[cold]
    #[inline(never)]
    pub(crate) fn at(kind: ErrorKind, input: &[u8], offset: usize) -> Error {
        Error::new(kind, Position::locate(input, offset))
    }

    #[cold]
    #[inline(never)]
    pub(crate) fn new(kind: ErrorKind, pos: Position) -> Error {
        Error(Box::new(Inner { kind, pos }))
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.0.kind
    }
    /// Where: byte offset, line and column.
    pub fn position(&self) -> Position {
        self.0.pos
    }
    /// Byte offset in the input.
    pub fn offset(&self) -> usize {
        self.0.pos.offset
    }
    /// 1-based line.
    pub fn line(&self) -> u32 {
        self.0.pos.line
    }
    /// 1-based column (in bytes).
    pub fn column(&self) -> u32 {
        self.0.pos.column
    }
    /// Whether the error comes from input cut off too early (an unclosed value
    /// or tree in strict mode), rather than from bad bytes.
    pub fn is_eof(&self) -> bool {
        matches!(
            self.0.kind,
            ErrorKind::Strict(WarningKind::UnclosedValue | WarningKind::UnclosedGameTree)
        )
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.0.kind)
            .field("pos", &self.0.pos)
            .finish()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}", self.0.kind, self.0.pos)
    }
}

impl std::error::Error for Error {}
