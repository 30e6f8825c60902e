//! One error type and one warning type, each a kind plus a [`Position`].
//!
//! The parser recovers from every defect it knows (see [`WarningKind`]) and
//! reports each recovery as a [`Warning`]. In strict mode
//! ([`ParseOptions::strict`](crate::ParseOptions::strict)) the first such
//! defect is returned as an [`Error`] of kind [`ErrorKind::Strict`] instead.

use crate::span::Position;
use std::fmt;
use std::sync::Arc;

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Declares [`WarningKind`] from one table: each row is a variant with its
/// documentation, its code and its message. `ALL`, `COUNT`, `code`,
/// `from_code` and `message` all come from the same rows, so a new kind
/// is one row.
macro_rules! warning_kinds {
    ($( $(#[doc = $doc:literal])* $variant:ident = $code:literal, $message:literal; )*) => {
        /// What a warning forgave. Each variant's documentation shows the input it
        /// forgives and what the parser keeps.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum WarningKind {
            $( $(#[doc = $doc])* $variant, )*
        }

        impl WarningKind {
            /// The number of kinds.
            pub const COUNT: usize = WarningKind::ALL.len();

            /// Every kind, in declaration order.
            pub const ALL: &'static [WarningKind] = &[$(WarningKind::$variant),*];

            /// A stable `snake_case` code for the kind, as printed by the CLI
            /// (`warning[unescaped_bracket]`) and in its JSON output.
            pub fn code(self) -> &'static str {
                match self {
                    $(WarningKind::$variant => $code,)*
                }
            }

            /// The kind whose [`code`](WarningKind::code) is `code`, if any.
            ///
            /// ```
            /// use sgf_grove::WarningKind;
            /// assert_eq!(WarningKind::from_code("unclosed_value"), Some(WarningKind::UnclosedValue));
            /// assert_eq!(WarningKind::from_code("Unclosed_Value"), None);
            /// ```
            pub fn from_code(code: &str) -> Option<WarningKind> {
                match code {
                    $($code => Some(WarningKind::$variant),)*
                    _ => None,
                }
            }

            /// A lower-case sentence describing the defect, without position.
            pub fn message(self) -> &'static str {
                match self {
                    $(WarningKind::$variant => $message,)*
                }
            }
        }
    };
}

// The warning kinds: one row each, in the order of `WarningKind::ALL`.
// `variant = "code", "message";` with the variant's documentation above.
warning_kinds! {
    /// A UTF-8 byte order mark at the start of the input. It is skipped.
    Bom = "bom", "byte order mark skipped";
    /// Text before the first game tree (`Game record:\n(;GM[1])`).
    /// It is skipped.
    JunkBeforeGame = "junk_before_game", "text before the first game tree skipped";
    /// Text between or after game trees (`(;GM[1])\n---`). It is skipped.
    JunkAfterGame = "junk_after_game", "text outside any game tree skipped";
    /// Bytes that belong to no token inside a game (`;B[aa] ~ W[bb]`).
    /// They are skipped.
    UnexpectedByte = "unexpected_byte", "unexpected bytes between properties skipped";
    /// NUL bytes between tokens. They are skipped as whitespace; NUL bytes
    /// inside a value are kept.
    NulByte = "nul_byte", "NUL bytes skipped";
    /// An empty game tree `()` at the top level. It is skipped.
    EmptyGameTree = "empty_game_tree", "empty game tree `()` skipped";
    /// An empty variation `()` inside a game tree (`(;B[aa]())`). It is
    /// skipped.
    EmptyVariation = "empty_variation", "empty variation `()` skipped";
    /// A game tree or variation without the `;` that starts its first node
    /// (`(B[aa])`, an old dialect). The node is read as if the `;` were there.
    MissingSemicolon = "missing_semicolon", "missing `;` before the first node of a tree";
    /// A game that starts with `;` and no `(` (`;GM[1];B[aa])`). It is read as
    /// a game tree; a matching `)` closes it.
    MissingOpenParen = "missing_open_paren", "game tree starts with `;` and no `(`";
    /// Whitespace between the letters of a property identifier (`P B[x]`).
    /// The letters are joined (`PB`).
    WhitespaceInIdent = "whitespace_in_ident", "whitespace inside a property identifier";
    /// Lower-case letters in a property identifier (`CoPyright[x]`, old
    /// FF\[1\]–FF\[3\] files). They are dropped (`CP`); the original spelling stays
    /// available through [`Property::ident_raw`](crate::Property::ident_raw).
    LowercaseInIdent = "lowercase_in_ident", "lower-case letters in a property identifier dropped";
    /// A property identifier with no upper-case letter (`foo[x]`). The
    /// property is dropped.
    InvalidIdent = "invalid_ident", "property identifier without upper-case letters dropped";
    /// A property identifier followed by no value (`;B;W[aa]`). The
    /// identifier is dropped.
    MissingValue = "missing_value", "property identifier without a value dropped";
    /// A value with no property identifier before it (`;[aa]`). The value is
    /// dropped.
    ValueWithoutIdent = "value_without_ident", "value without a property identifier dropped";
    /// A property that appears twice in one node (`AB[aa]W[bb]AB[cc]`). The
    /// values are merged in file order (`AB[aa][cc]`).
    RepeatedProperty = "repeated_property", "property repeated in a node; values merged";
    /// An unescaped `]` inside a value, followed by something that does not
    /// look like SGF (`US[Matsuyama[3d]]`, `C[see [this] and that]`). The `]`
    /// is kept as part of the value.
    UnescapedBracket = "unescaped_bracket", "unescaped `]` inside a value kept as text";
    /// A value cut off by the end of the input (`C[abc`), or by the start of
    /// the next game (`W[dd(;GM[1]…`). The bytes up to the cut are kept as the
    /// value.
    UnclosedValue = "unclosed_value", "property value not closed";
    /// A game tree or variation that is still open at the end of the input
    /// (`(;GM[1];B[aa]`). The tree is closed there.
    UnclosedGameTree = "unclosed_game_tree", "game tree not closed at end of input";
    /// A new game starts inside one that is still open, as when a file cut
    /// off is followed by the next one (`;B[pd];W[d(;GM[1]…`,
    /// `;B[pd];(;GM[1]…`): the first node of a variation, or a node after
    /// variations, holds a property only a root may hold (`GM`, `FF`, `CA`,
    /// `AP`, `ST`, `SZ`), or, inside a value, `(;` is followed by such a
    /// property. The open tree is closed there (a value is cut) and the new
    /// game is read, so that one broken game never swallows the games after
    /// it. Reported where the open game was cut.
    GameResync = "game_resync", "unclosed game tree; resynchronised at the next game";
    /// A `)` with no open game tree (`(;B[aa]))`). It is skipped.
    ExtraCloseParen = "extra_close_paren", "unmatched `)` skipped";
    /// A node after the variations of a sequence (`(;a(;b)(;c);d)`). It is
    /// attached to the same parent as those variations, after them.
    NodeAfterVariation = "node_after_variation", "node after variations attached as another variation";
    /// A variation with no node before it in its game tree
    /// (`((;a)(;b))`), reported at its `(`. The first such variation's nodes
    /// make the game; each later one becomes a game tree of its own.
    DetachedVariation = "detached_variation", "variation without a parent node read as a game tree";
    /// A NUL byte inside a value (`C[a\0b]`), which no text holds: a sign
    /// of binary data or a damaged file. The value is kept as it is.
    NulInValue = "nul_in_value", "NUL byte inside a value";
    /// A root's `CA` names no charset known (`CA[Klingon]`). The game's text
    /// is read in the charset detected from its bytes.
    UnknownCharset = "unknown_charset", "CA names no known charset; charset detected instead";
    /// A root's `CA` names a charset the file cannot be in: one that is not
    /// byte-oriented ASCII-compatible text (`CA[UTF-16]`), or one whose
    /// characters hold `[`, `]` and `\` bytes the format cannot tell apart
    /// (`CA[ISO-2022-JP]`). The game's text is read in the charset detected
    /// from its bytes.
    UnusableCharset = "unusable_charset", "CA names a charset SGF text cannot be in; charset detected instead";
    /// A game without `CA` (and no charset override) whose bytes are not
    /// UTF-8 and whose text is detected as Shift_JIS, Big5 or GBK/GB18030:
    /// charsets where the second byte of a character can be `\` or `]`
    /// (`C[表]` in Shift_JIS is `C[\x95\x5c]`). Its values are read a
    /// character at a time in that charset from the game's start, as if its
    /// root said `CA[Shift_JIS]` (or `Big5`, `GB18030`), so that such a byte
    /// neither escapes nor closes a value; its
    /// [`charset`](crate::GameTree::charset) is the detected one. Reported at
    /// the game's start.
    DetectedCharset = "detected_charset", "no CA; text detected as Shift_JIS, Big5 or GBK and read a character at a time";
    /// A game without `CA` (and no charset override) whose bytes are not
    /// UTF-8 and whose charset was detected with a low confidence (see
    /// [`Charset::is_uncertain`](crate::text::Charset::is_uncertain)): too
    /// little text to tell, or two charsets reading it about equally well
    /// (`PB[\xb0\xa1]`, two bytes that are a common character in GBK and
    /// a syllable in EUC-KR). The game is read in the best guess, which
    /// may be wrong; [`GameTree::charset`](crate::GameTree::charset)'s
    /// [`weighed`](crate::text::Charset::weighed) names the runner-up and
    /// the shares both read. Naming the charset (`CA`, or the parse
    /// options' override) settles it. Reported at the game's start.
    UncertainCharset = "uncertain_charset", "no CA; charset detected with low confidence, the text may read wrong";
    /// A value read byte by byte (in a game whose charset keeps `\` and
    /// `]` out of its characters' second bytes, or not yet known) that
    /// holds a `\]` right after a byte outside ASCII and then what looks
    /// like SGF: a property (`CA[`, `PW[`) or a node (`;B[`). In
    /// Shift_JIS, Big5 and GBK the second byte of a character can be `\`
    /// (表 is `\x95\x5c` in Shift_JIS), which escaped the `]` that closed
    /// the value, so that the properties after it were swallowed into it:
    /// `PB[表]CA[Shift_JIS]` reads as one value `表]CA[Shift_JIS`. The
    /// value is kept as read; naming the charset settles it. Reported at
    /// the value.
    SwallowedProperty = "swallowed_property", "value holds `\\]` after a byte outside ASCII, then SGF: a Shift_JIS, Big5 or GBK character may have swallowed what follows";
    /// A line or value of a record of another server's format (Tygem
    /// `.gib`, WBaduk `.ngf`, Pandanet `.ugf`; see
    /// [`foreign`](crate::foreign)) that cannot be read: `FOO 1 2` among a
    /// `.gib`'s moves, `Size=abc`, an unknown `GRLT` result code, a move
    /// line without its colour. It is left out (a header value is kept in
    /// the root's `GC`). Placed in the original record, as every
    /// `foreign_` warning.
    ForeignUnreadable = "foreign_unreadable", "line or value of a converted record not understood; left out";
    /// A move of a converted record at a point off the board
    /// (`STO 0 5 1 19 3` on 19×19). It is written as a pass, so that the
    /// moves after it keep their numbers and colours.
    ForeignOffBoard = "foreign_off_board", "point off the board in a converted record; written as a pass";
    /// A converted record that ends early: a `.gib` without its `\GE`,
    /// an `.ngf` with fewer header lines or moves than it says, a `.ugf`
    /// without `[Data]`, a record over
    /// [`foreign::MAX_LEN`](crate::foreign::MAX_LEN). What was read is kept.
    ForeignTruncated = "foreign_truncated", "converted record cut short; what was read is kept";
    /// Text of a converted record with bytes its charset does not hold.
    /// They are replaced with U+FFFD.
    ForeignCharset = "foreign_charset", "text of a converted record not valid in its charset; replaced with U+FFFD";
}

impl WarningKind {
    /// Whether the warning comes from converting a record of another
    /// server's format ([`foreign`](crate::foreign)): its position is in
    /// the original record, not in the SGF the parser read.
    pub fn is_foreign(self) -> bool {
        matches!(
            self,
            WarningKind::ForeignUnreadable
                | WarningKind::ForeignOffBoard
                | WarningKind::ForeignTruncated
                | WarningKind::ForeignCharset
        )
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

/// Declares [`ErrorKind`] from one table: each row is a variant with its
/// documentation and fields, then `= [bindings] code, (message)`: the
/// fields the code and message use (`[limit]`, `[0: kind]` for a tuple
/// variant, `[]` for none), the code (an expression of them), and the
/// message's `format!` arguments. `code` and `Display` come from the same
/// rows, so a new kind is one row.
macro_rules! error_kinds {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident $({ $($named:tt)* })? $(( $($unnamed:tt)* ))?
            = [$($bind:tt)*] $code:expr_2021, ($($message:tt)*);
    )*) => {
        /// What went wrong.
        ///
        /// The enum is `#[non_exhaustive]`: kinds are added as the crate grows, so a
        /// `match` needs a `_` arm.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum ErrorKind {
            $( $(#[doc = $doc])* $variant $({ $($named)* })? $(( $($unnamed)* ))?, )*
        }

        impl ErrorKind {
            /// A stable `snake_case` code, as printed by the CLI.
            pub fn code(self) -> &'static str {
                match self {
                    $(
                        #[allow(unused_variables)]
                        ErrorKind::$variant { $($bind)* } => $code,
                    )*
                }
            }
        }

        impl fmt::Display for ErrorKind {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    $(ErrorKind::$variant { $($bind)* } => write!(f, $($message)*),)*
                }
            }
        }
    };
}

// The error kinds: one row each, with the variant's documentation above.
// `Strict` takes its code from the warning kind it refuses.
error_kinds! {
    /// The input holds no game tree at all: it is empty, all NUL bytes, or
    /// text without `(;`.
    NoGameTree = [] "no_game_tree", ("no SGF game tree found in the input");
    /// The input is larger than 4 GiB − 1 byte, the most a `u32` offset
    /// addresses.
    InputTooLarge = [] "input_too_large", ("input larger than 4 GiB");
    /// A line of an `.sgfs` stream (one game per line) is longer than the
    /// limit ([`SgfsLines::max_line`](crate::input::SgfsLines::max_line)):
    /// it is skipped to its end without being held, and the next line is
    /// read. The position is the line's start.
    LineTooLong {
        /// The limit, in bytes.
        limit: u64,
    } = [limit] "line_too_long", ("line longer than {limit} bytes; skipped");
    /// The input is not SGF text but, by its first bytes, something else:
    /// compressed data, an archive, an executable, binary data, or UTF-16
    /// text (decode it first, e.g. with [`input::decode_utf16`](crate::input::decode_utf16)),
    /// or, for the slice parser, a record of another server's format
    /// (`"Tygem .gib"`: convert it first with [`foreign::to_sgf`](crate::foreign::to_sgf),
    /// or read it with [`StreamParser`](crate::StreamParser), which does).
    /// See [`input::sniff`](crate::input::sniff).
    NotText {
        /// What the input is (`"gzip data"`, `"UTF-16LE text"`, …).
        what: &'static str,
    } = [what] "not_sgf_text", ("{what}; not SGF text");
    /// A defect that the lenient parser forgives, refused in strict mode.
    Strict(WarningKind) = [0: kind] kind.code(), ("{kind} (strict mode)");
    /// A value that a typed getter could not read as the type asked for
    /// (`B[z]` as a move, `KM[six]` as a real); the position is the value's.
    InvalidValue(crate::spec::ValueType) = [0: ty] "invalid_value", ("malformed value: expected {ty}");
    /// A game-information value its parser could not read (`KM[six]` as a
    /// [`Komi`](crate::game::Komi), `DT[1996-02-30]`, `TM[-]`).
    /// [`Error::reason`] says why and [`Error::value_text`] gives the text.
    /// Read through [`Node::get`](crate::Node::get), the position is the
    /// value's; from a parser called on a string
    /// ([`Komi::parse`](crate::game::Komi::parse), …) there is none.
    InvalidGameInfo {
        /// The property whose parser refused the text (`"KM"`, `"DT"`,
        /// `"TM"`).
        ident: &'static str,
    } = [ident] "invalid_game_info", ("malformed {ident} value");
    /// A point that SGF cannot write: a coordinate above 51, beyond the
    /// letters `a`–`z`, `A`–`Z` (see `Point::to_sgf` in the value module).
    /// Such an error has no position.
    PointOutOfRange {
        /// The column, from 0.
        x: u8,
        /// The row, from 0.
        y: u8,
    } = [x, y] "point_out_of_range", ("point ({x}, {y}) out of range: SGF letters reach 52×52");
    /// Reading or writing failed; [`std::error::Error::source`] gives the
    /// [`std::io::Error`]. Such an error has no position.
    Io = [] "io", ("I/O error");
    /// A character that the charset the writer transcodes to cannot
    /// represent (`€` in GBK); see
    /// [`WriteOptions::transcode`](crate::writer::WriteOptions::transcode).
    /// The position is the value's in the input, and
    /// [`Error::value_text`] gives the property's identifier.
    Unrepresentable {
        /// The character.
        ch: char,
        /// The charset's name (`"GBK"`).
        charset: &'static str,
    } = [ch, charset] "unrepresentable_character", (
        "character {ch:?} (U+{:04X}) cannot be written in {charset}, in property",
        u32::from(*ch)
    );
    /// An edit named a node that is not in the tree: deleted (ids of
    /// deleted nodes are never reused), or never of this tree. See
    /// [`EditableGame`](crate::edit::EditableGame).
    NoSuchNode = [] "no_such_node", ("no such node: deleted or not of this tree");
    /// An edit would move a node under itself or under one of its
    /// descendants.
    WouldCreateLoop = [] "would_create_loop", ("a node cannot move under itself or its descendants");
    /// A value given as raw bytes that a reader would not read back as one
    /// value: an unescaped `]`, a lone `\` at the end, `(;` followed by a
    /// root property (a new game to a reader), a character cut in half;
    /// or no value at all. [`Error::reason`] says which.
    InvalidRawValue = [] "invalid_raw_value", ("invalid raw value");
    /// A property identifier that is not one or more upper-case ASCII
    /// letters.
    InvalidIdent = [] "invalid_ident", ("property identifier must be upper-case ASCII letters");
    /// A child index past the end of a node's children.
    ChildIndexOutOfRange {
        /// The index asked for.
        index: usize,
        /// How many children there are (the largest index accepted for an
        /// insertion).
        len: usize,
    } = [index, len] "child_index_out_of_range", ("child index {index} out of range ({len} children)");
    /// An edit that a root cannot take: it cannot be deleted, moved,
    /// promoted or reordered among siblings (it has none).
    RootNode = [] "root_node", ("the root cannot be deleted, moved or placed among siblings");
    /// A property only a root may hold (`GM`, `FF`, `CA`, `AP`, `ST`, `SZ`)
    /// set outside the root, or a node holding one made the first node of
    /// a variation: a reader takes such a node for the start of a new game.
    RootPropertyOutsideRoot = [] "root_property_outside_root", (
        "a root property (GM, FF, CA, AP, ST, SZ) outside the root, or in a node that starts a variation"
    );
    /// A `CA` that names no charset usable for SGF text, or whose charset
    /// would split values differently (a `\` or `]` byte read as part of
    /// a character, or the other way round). [`Error::reason`] says which.
    UnusableCharset = [] "unusable_charset", ("unusable charset");
    /// A board transform asked of a game that is not Go (`GM` other than
    /// 1): its points mean something else.
    NotGo = [] "not_go", ("a board transform needs a Go game (GM[1])");
}

/// An error: a kind, a position, and for some kinds a reason, the text
/// that was refused, or the underlying I/O error.
///
/// ```
/// let err = sgf_grove::parse(b"just some text").unwrap_err();
/// assert_eq!(err.kind(), sgf_grove::ErrorKind::NoGameTree);
/// assert_eq!(err.to_string(), "no SGF game tree found in the input at 1:15");
/// ```
///
/// A game-info value keeps its text and the reason it was refused:
///
/// ```
/// use sgf_grove::game::Komi;
/// use sgf_grove::ErrorKind;
///
/// let err = Komi::parse("six").unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::InvalidGameInfo { ident: "KM" });
/// assert_eq!((err.value_text(), err.reason()), (Some("six"), Some("not a number")));
/// assert!(!err.has_position()); // a string, not a value in a file
/// assert_eq!(err.to_string(), r#"malformed KM value "six": not a number"#);
/// ```
///
/// The error is one pointer wide, so that `Result<T, Error>` stays small
/// on the hot path; the details live behind it.
///
/// Two errors are equal when their kind, position, reason and text are;
/// I/O errors compare by [`std::io::ErrorKind`] and message.
#[derive(Clone, PartialEq, Eq)]
pub struct Error(Box<Inner>);

#[derive(Clone, Debug)]
struct Inner {
    kind: ErrorKind,
    pos: Position,
    /// Why the value was refused, for [`ErrorKind::InvalidGameInfo`].
    reason: Option<&'static str>,
    /// The text refused, for [`ErrorKind::InvalidGameInfo`].
    text: Option<Box<str>>,
    /// The cause, for [`ErrorKind::Io`]. In an `Arc` so that the error
    /// stays `Clone`.
    source: Option<Arc<std::io::Error>>,
}

impl PartialEq for Inner {
    fn eq(&self, other: &Inner) -> bool {
        let same_source = match (&self.source, &other.source) {
            (None, None) => true,
            (Some(a), Some(b)) => {
                Arc::ptr_eq(a, b) || (a.kind() == b.kind() && a.to_string() == b.to_string())
            }
            _ => false,
        };
        self.kind == other.kind
            && self.pos == other.pos
            && self.reason == other.reason
            && self.text == other.text
            && same_source
    }
}

impl Eq for Inner {}

impl Error {
    #[cold]
    #[inline(never)]
    pub(crate) fn at(kind: ErrorKind, input: &[u8], offset: usize) -> Error {
        Error::new(kind, Position::locate(input, offset))
    }

    #[cold]
    #[inline(never)]
    pub(crate) fn new(kind: ErrorKind, pos: Position) -> Error {
        Error(Box::new(Inner {
            kind,
            pos,
            reason: None,
            text: None,
            source: None,
        }))
    }

    /// An error of kind `kind` with no position (line 0).
    #[cold]
    #[inline(never)]
    pub(crate) fn without_position(kind: ErrorKind) -> Error {
        Error::new(kind, Position::default())
    }

    /// A game-info value `text` that the parser of property `ident` refused
    /// for `reason`, with no position.
    #[cold]
    #[inline(never)]
    pub(crate) fn game_info(ident: &'static str, reason: &'static str, text: &str) -> Error {
        let mut err = Error::without_position(ErrorKind::InvalidGameInfo { ident });
        err.0.reason = Some(reason);
        err.0.text = Some(text.into());
        err
    }

    /// A character `ch` of a value of property `ident` at `pos` that
    /// `charset` cannot represent.
    #[cold]
    #[inline(never)]
    pub(crate) fn unrepresentable(
        ch: char,
        charset: &'static str,
        ident: &str,
        pos: Position,
    ) -> Error {
        let mut err = Error::new(ErrorKind::Unrepresentable { ch, charset }, pos);
        err.0.text = Some(ident.into());
        err
    }

    /// An error of kind `kind` with no position and `reason`.
    #[cold]
    #[inline(never)]
    pub(crate) fn because(kind: ErrorKind, reason: &'static str) -> Error {
        let mut err = Error::without_position(kind);
        err.0.reason = Some(reason);
        err
    }

    /// The same error at `pos`.
    #[cold]
    #[inline(never)]
    pub(crate) fn with_position(mut self, pos: Position) -> Error {
        self.0.pos = pos;
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.0.kind
    }
    /// Where: byte offset, line and column. All three are 0 when the error
    /// has no position in an input (see [`Error::has_position`]).
    pub fn position(&self) -> Position {
        self.0.pos
    }
    /// Whether the error points into an input. It does not when it comes
    /// from I/O, or from a game-info parser called on a string
    /// ([`Komi::parse`](crate::game::Komi::parse), …).
    pub fn has_position(&self) -> bool {
        self.0.pos.line != 0
    }
    /// Byte offset in the input.
    pub fn offset(&self) -> usize {
        self.0.pos.offset
    }
    /// 1-based line; 0 when the error has no position.
    pub fn line(&self) -> u32 {
        self.0.pos.line
    }
    /// 1-based column (in bytes); 0 when the error has no position.
    pub fn column(&self) -> u32 {
        self.0.pos.column
    }
    /// Why a value was refused, in a few words (`"not a number"`,
    /// `"no such date"`), for [`ErrorKind::InvalidGameInfo`].
    pub fn reason(&self) -> Option<&'static str> {
        self.0.reason
    }
    /// The text that was refused, as the parser was given it, for
    /// [`ErrorKind::InvalidGameInfo`]; the property's identifier for
    /// [`ErrorKind::Unrepresentable`].
    pub fn value_text(&self) -> Option<&str> {
        self.0.text.as_deref()
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

/// An [`ErrorKind::Io`] error, with `err` as its
/// [`source`](std::error::Error::source).
///
/// ```
/// use std::error::Error as _;
/// let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
/// let err = sgf_grove::Error::from(io);
/// assert_eq!(err.kind(), sgf_grove::ErrorKind::Io);
/// assert_eq!(err.source().unwrap().to_string(), "no such file");
/// assert_eq!(format!("{err:#}"), "I/O error: no such file");
/// ```
impl From<std::io::Error> for Error {
    #[cold]
    #[inline(never)]
    fn from(err: std::io::Error) -> Error {
        let mut error = Error::without_position(ErrorKind::Io);
        error.0.source = Some(Arc::new(err));
        error
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Error");
        d.field("kind", &self.0.kind).field("pos", &self.0.pos);
        if let Some(reason) = self.0.reason {
            d.field("reason", &reason);
        }
        if let Some(text) = &self.0.text {
            d.field("text", text);
        }
        if let Some(source) = &self.0.source {
            d.field("source", source);
        }
        d.finish()
    }
}

/// `kind "text": reason at line:column`, each part when the error has it.
/// The alternate form (`{:#}`) adds the chain of sources:
/// `I/O error: permission denied`.
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.kind)?;
        if let Some(text) = &self.0.text {
            write!(f, " {text:?}")?;
        }
        if let Some(reason) = self.0.reason {
            write!(f, ": {reason}")?;
        }
        if self.has_position() {
            write!(f, " at {}", self.0.pos)?;
        }
        if f.alternate() {
            let mut source = std::error::Error::source(self);
            while let Some(err) = source {
                write!(f, ": {err}")?;
                source = err.source();
            }
        }
        Ok(())
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0
            .source
            .as_deref()
            .map(|err| err as &(dyn std::error::Error + 'static))
    }
}

/// The error [`SgfsLines`](crate::input::SgfsLines) reads give on a line
/// over its limit, which the [`StreamParser`](crate::StreamParser) turns
/// into [`ErrorKind::LineTooLong`] at `at`. It lives here, below both the
/// inputs that raise it and the stream parser that reads it.
#[derive(Debug)]
pub(crate) struct LineTooLong {
    pub(crate) at: Position,
    pub(crate) limit: u64,
}

impl std::fmt::Display for LineTooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {} longer than {} bytes; skipped",
            self.at.line, self.limit
        )
    }
}

impl std::error::Error for LineTooLong {}

impl LineTooLong {
    /// The line limit error that `err` carries, if it is one.
    pub(crate) fn of(err: &std::io::Error) -> Option<&LineTooLong> {
        err.get_ref()?.downcast_ref::<LineTooLong>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;
    use std::io;

    #[test]
    fn warning_codes_are_unique_snake_case_and_read_back() {
        let mut codes: Vec<&str> = WarningKind::ALL.iter().map(|k| k.code()).collect();
        for (kind, code) in WarningKind::ALL.iter().zip(&codes) {
            assert!(code.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'));
            assert_eq!(WarningKind::from_code(code), Some(*kind));
            assert!(!kind.message().is_empty());
            assert_eq!(kind.to_string(), kind.message());
        }
        assert_eq!(WarningKind::from_code("no_such_warning"), None);
        assert_eq!(WarningKind::ALL.len(), WarningKind::COUNT);
        assert_eq!(WarningKind::ALL[0], WarningKind::Bom);
        assert_eq!(WarningKind::ALL.last(), Some(&WarningKind::ForeignCharset));
        assert!(WarningKind::ALL.windows(2).all(|w| w[0] < w[1]));
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), WarningKind::COUNT);
    }

    /// The code and message of a kind of each shape the table declares:
    /// unit, named fields, tuple, and a code taken from a field.
    #[test]
    fn error_kind_codes_and_messages() {
        let cases = [
            (
                ErrorKind::NoGameTree,
                "no_game_tree",
                "no SGF game tree found in the input",
            ),
            (
                ErrorKind::LineTooLong { limit: 9 },
                "line_too_long",
                "line longer than 9 bytes; skipped",
            ),
            (
                ErrorKind::Strict(WarningKind::UnclosedValue),
                "unclosed_value",
                "property value not closed (strict mode)",
            ),
            (
                ErrorKind::PointOutOfRange { x: 60, y: 1 },
                "point_out_of_range",
                "point (60, 1) out of range: SGF letters reach 52×52",
            ),
            (
                ErrorKind::Unrepresentable {
                    ch: '€',
                    charset: "GBK",
                },
                "unrepresentable_character",
                "character '€' (U+20AC) cannot be written in GBK, in property",
            ),
            (
                ErrorKind::ChildIndexOutOfRange { index: 3, len: 2 },
                "child_index_out_of_range",
                "child index 3 out of range (2 children)",
            ),
            (
                ErrorKind::NotGo,
                "not_go",
                "a board transform needs a Go game (GM[1])",
            ),
        ];
        for (kind, code, message) in cases {
            assert_eq!((kind.code(), kind.to_string().as_str()), (code, message));
        }
    }

    #[test]
    fn error_is_one_pointer() {
        assert_eq!(std::mem::size_of::<Error>(), std::mem::size_of::<usize>());
        assert_eq!(
            std::mem::size_of::<Result<()>>(),
            std::mem::size_of::<usize>()
        );
    }

    #[test]
    fn io_error_is_the_source() {
        let err = Error::from(io::Error::new(io::ErrorKind::PermissionDenied, "denied"));
        assert_eq!(err.kind(), ErrorKind::Io);
        assert_eq!(err.kind().code(), "io");
        assert!(!err.has_position());
        let source = err.source().expect("an I/O error has a source");
        let io = source.downcast_ref::<io::Error>().expect("an io::Error");
        assert_eq!(io.kind(), io::ErrorKind::PermissionDenied);
        assert_eq!(err.to_string(), "I/O error");
        assert_eq!(format!("{err:#}"), "I/O error: denied");
        assert!(format!("{err:?}").contains("PermissionDenied"));
    }

    #[test]
    fn io_errors_clone_and_compare() {
        let err = Error::from(io::Error::new(io::ErrorKind::NotFound, "gone"));
        assert_eq!(err.clone(), err);
        assert_eq!(
            err,
            Error::from(io::Error::new(io::ErrorKind::NotFound, "gone"))
        );
        assert_ne!(
            err,
            Error::from(io::Error::new(io::ErrorKind::NotFound, "elsewhere"))
        );
        assert_ne!(err, Error::from(io::Error::other("gone")));
        assert_ne!(err, Error::without_position(ErrorKind::Io));
    }

    #[test]
    fn other_kinds_have_no_source() {
        let err = Error::at(ErrorKind::NoGameTree, b"abc\ndef", 5);
        assert!(err.source().is_none());
        assert_eq!((err.line(), err.column()), (2, 2));
        assert!(err.has_position());
        assert_eq!(format!("{err:#}"), err.to_string());
        assert_eq!((err.reason(), err.value_text()), (None, None));
    }

    #[test]
    fn game_info_errors_keep_reason_text_and_position() {
        let err = Error::game_info("DT", "no such date", "1996-02-30");
        assert_eq!(err.kind(), ErrorKind::InvalidGameInfo { ident: "DT" });
        assert_eq!(err.kind().code(), "invalid_game_info");
        assert_eq!(err.reason(), Some("no such date"));
        assert_eq!(err.value_text(), Some("1996-02-30"));
        assert_eq!((err.line(), err.column()), (0, 0));
        assert_eq!(
            err.to_string(),
            r#"malformed DT value "1996-02-30": no such date"#
        );
        assert_ne!(err, Error::game_info("DT", "no such date", "1996-02-31"));
        assert_ne!(err, Error::game_info("DT", "not a date", "1996-02-30"));
        let placed = err.with_position(Position::locate(b"(;DT[1996-02-30])", 5));
        assert!(placed.has_position());
        assert_eq!(
            placed.to_string(),
            r#"malformed DT value "1996-02-30": no such date at 1:6"#
        );
        assert!(placed.source().is_none());
    }
}
