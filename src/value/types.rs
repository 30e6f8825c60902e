//! The value types and how each reads a raw value.

pub use super::context::ValueContext;
use super::ValueType;
use crate::error::{Error, ErrorKind, Result};
use std::fmt;
use std::str::FromStr;

/// A type a raw value can be read as, with [`Node::get`](crate::Node::get).
///
/// Implemented for [`Number`] (`i64`), [`Real`] (`f64`), [`Double`],
/// [`Color`], [`Point`], [`Move`], [`BoardSize`], [`SimpleText`], [`Text`],
/// [`Empty`] (the None type), `(A, B)` for a compose value `a:b`, and
/// `Option<T>`, which also accepts an empty value (as `None`); and for the
/// game-information types of [`game`](crate::game) ([`Komi`](crate::game::Komi),
/// [`Handicap`](crate::game::Handicap), [`Rank`](crate::game::Rank),
/// [`GameResult`](crate::game::GameResult), [`GameDates`](crate::game::GameDates),
/// [`Rules`](crate::game::Rules), [`TimeLimit`](crate::game::TimeLimit),
/// [`Application`](crate::game::Application)).
///
/// `'a` is how long the value's bytes and the context's arena live: text
/// types borrow from either.
pub trait FromValue<'a>: Sized {
    /// The value type this reads, named in errors.
    const TYPE: ValueType;

    /// Reads `raw` (the value as written, escapes and all), or `None` when it
    /// is malformed.
    fn from_value(raw: &'a [u8], ctx: &ValueContext<'a>) -> Option<Self>;

    /// Reads `raw` as [`FromValue::from_value`] does, with an [`Error`]
    /// that says what was wrong when it is malformed. The error has no
    /// position yet: [`Node::get`](crate::Node::get) gives it the value's.
    ///
    /// The default gives [`ErrorKind::InvalidValue`] of [`FromValue::TYPE`];
    /// types whose parsers can say more (the game-info types, with
    /// [`ErrorKind::InvalidGameInfo`]) override it.
    ///
    /// # Errors
    ///
    /// When the value is malformed for `Self`.
    fn try_from_value(raw: &'a [u8], ctx: &ValueContext<'a>) -> Result<Self> {
        Self::from_value(raw, ctx)
            .ok_or_else(|| Error::without_position(ErrorKind::InvalidValue(Self::TYPE)))
    }
}

/// An SGF Number.
pub type Number = i64;
/// An SGF Real.
pub type Real = f64;

/// Trims ASCII whitespace (including escaped line breaks' leftovers).
fn trim(raw: &[u8]) -> &[u8] {
    raw.trim_ascii()
}

/// Numbers: an optional sign and digits; surrounding whitespace is ignored.
impl<'a> FromValue<'a> for i64 {
    const TYPE: ValueType = ValueType::Number;
    fn from_value(raw: &'a [u8], _: &ValueContext<'a>) -> Option<i64> {
        parse_number(trim(raw))
    }
}

fn parse_number(s: &[u8]) -> Option<i64> {
    let (neg, digits) = match s {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut n: i64 = 0;
    for &d in digits {
        n = n.checked_mul(10)?.checked_add((d - b'0') as i64)?;
    }
    Some(if neg { -n } else { n })
}

/// Reals: an optional sign, digits, an optional fraction. Also accepted: a
/// decimal comma (`6,5`), a fraction without integer part (`.5`), and
/// surrounding whitespace.
impl<'a> FromValue<'a> for f64 {
    const TYPE: ValueType = ValueType::Real;
    fn from_value(raw: &'a [u8], _: &ValueContext<'a>) -> Option<f64> {
        parse_real(trim(raw))
    }
}

pub(crate) fn parse_real(s: &[u8]) -> Option<f64> {
    let body = match s {
        [b'-' | b'+', rest @ ..] => rest,
        _ => s,
    };
    let mut seen_digit = false;
    let mut seen_point = false;
    for &b in body {
        match b {
            b'0'..=b'9' => seen_digit = true,
            b'.' | b',' if !seen_point => seen_point = true,
            _ => return None,
        }
    }
    if !seen_digit {
        return None;
    }
    // Only ASCII digits, a sign and one separator are left: text. A decimal
    // comma becomes a point in a copy on the stack (longer ones, which no
    // real file has, on the heap).
    let real = match s.iter().position(|&b| b == b',') {
        None => std::str::from_utf8(s).ok()?.parse(),
        Some(comma) => {
            let mut small = [0u8; 64];
            let mut large = Vec::new();
            let copy = if s.len() <= small.len() {
                &mut small[..s.len()]
            } else {
                large.resize(s.len(), 0);
                &mut large[..]
            };
            copy.copy_from_slice(s);
            copy[comma] = b'.';
            std::str::from_utf8(copy).ok()?.parse()
        }
    };
    // Hundreds of digits would round to infinity: not a real anyone meant.
    real.ok().filter(|r: &f64| r.is_finite())
}

/// An SGF Double: `1` normal, `2` emphasized (`GB[2]`: very good for Black).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Double {
    /// `1`
    Normal = 1,
    /// `2`
    Emphasized = 2,
}

impl<'a> FromValue<'a> for Double {
    const TYPE: ValueType = ValueType::Double;
    fn from_value(raw: &'a [u8], _: &ValueContext<'a>) -> Option<Double> {
        match trim(raw) {
            b"1" => Some(Double::Normal),
            b"2" => Some(Double::Emphasized),
            _ => None,
        }
    }
}

/// An SGF Color.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// `B`
    Black,
    /// `W`
    White,
}

impl Color {
    /// The other colour.
    #[must_use]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
    /// `"B"` or `"W"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Color::Black => "B",
            Color::White => "W",
        }
    }
}

/// Colours: `B` or `W`. Also accepted, because real files have them: lower
/// case, `1` and `2` (`PL[1]`, `PL[2]`), `Black` and `White` in any case, and
/// surrounding whitespace.
impl<'a> FromValue<'a> for Color {
    const TYPE: ValueType = ValueType::Color;
    fn from_value(raw: &'a [u8], _: &ValueContext<'a>) -> Option<Color> {
        let s = trim(raw);
        if s.eq_ignore_ascii_case(b"b") || s == b"1" || s.eq_ignore_ascii_case(b"black") {
            Some(Color::Black)
        } else if s.eq_ignore_ascii_case(b"w") || s == b"2" || s.eq_ignore_ascii_case(b"white") {
            Some(Color::White)
        } else {
            None
        }
    }
}

/// The SGF None type: an empty value (`KO[]`, `DO[]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Empty;

/// Empty values; whitespace only counts as empty too.
impl<'a> FromValue<'a> for Empty {
    const TYPE: ValueType = ValueType::None;
    fn from_value(raw: &'a [u8], _: &ValueContext<'a>) -> Option<Empty> {
        trim(raw).is_empty().then_some(Empty)
    }
}

/// An empty value reads as `None`, anything else as `T`: for properties
/// whose value may be left out (`KM[]`, `FG[]`).
impl<'a, T: FromValue<'a>> FromValue<'a> for Option<T> {
    const TYPE: ValueType = T::TYPE;
    fn from_value(raw: &'a [u8], ctx: &ValueContext<'a>) -> Option<Option<T>> {
        if trim(raw).is_empty() {
            Some(None)
        } else {
            T::from_value(raw, ctx).map(Some)
        }
    }
    fn try_from_value(raw: &'a [u8], ctx: &ValueContext<'a>) -> Result<Option<T>> {
        if trim(raw).is_empty() {
            Ok(None)
        } else {
            T::try_from_value(raw, ctx).map(Some)
        }
    }
}

/// A compose value `a:b`, split at the first unescaped `:`.
impl<'a, A: FromValue<'a>, B: FromValue<'a>> FromValue<'a> for (A, B) {
    const TYPE: ValueType = ValueType::Compose(&A::TYPE, &B::TYPE);
    fn from_value(raw: &'a [u8], ctx: &ValueContext<'a>) -> Option<(A, B)> {
        let (a, b) = split_compose(raw)?;
        Some((A::from_value(a, ctx)?, B::from_value(b, ctx)?))
    }
}

/// Splits a raw value at its first unescaped `:`.
pub fn split_compose(raw: &[u8]) -> Option<(&[u8], &[u8])> {
    let mut i = 0;
    while i < raw.len() {
        match raw[i] {
            b'\\' => i += 2,
            b':' => return Some((&raw[..i], &raw[i + 1..])),
            _ => i += 1,
        }
    }
    None
}

/// The size of the board: `SZ[19]` or `SZ[19:13]` (columns:rows), at most
/// 52 each way. Without `SZ`, 19×19.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoardSize {
    /// Columns (the x extent).
    pub cols: u8,
    /// Rows (the y extent).
    pub rows: u8,
}

impl BoardSize {
    /// A square board.
    pub const fn square(n: u8) -> BoardSize {
        BoardSize { cols: n, rows: n }
    }

    /// Whether `[tt]` means a pass on this board: boards up to 19×19.
    pub fn tt_is_pass(&self) -> bool {
        self.cols <= 19 && self.rows <= 19
    }

    /// Whether `point` lies on the board.
    pub fn contains(&self, point: Point) -> bool {
        point.x < self.cols && point.y < self.rows
    }
}

impl BoardSize {
    /// Reads a raw `SZ` value; 19×19 when empty or malformed.
    pub(crate) fn read_or_default(raw: &[u8]) -> BoardSize {
        if raw.is_empty() {
            return BoardSize::default();
        }
        BoardSize::parse(raw).unwrap_or_default()
    }

    /// Reads a raw `SZ` value: `19` or `19:13`, each 1 to 52.
    fn parse(raw: &[u8]) -> Option<BoardSize> {
        let dim =
            |s: &[u8]| parse_number(trim(s)).and_then(|n| (1..=52).contains(&n).then_some(n as u8));
        match split_compose(raw) {
            None => dim(raw).map(BoardSize::square),
            Some((c, r)) => Some(BoardSize {
                cols: dim(c)?,
                rows: dim(r)?,
            }),
        }
    }
}

/// Reads a raw `GM` value; 1 (Go) when empty or malformed.
pub(crate) fn read_game_type(raw: &[u8]) -> u32 {
    parse_number(trim(raw))
        .and_then(|n| u32::try_from(n).ok())
        .unwrap_or(1)
}

impl Default for BoardSize {
    fn default() -> Self {
        BoardSize::square(19)
    }
}

impl<'a> FromValue<'a> for BoardSize {
    const TYPE: ValueType = ValueType::Compose(&ValueType::Number, &ValueType::Number);
    fn from_value(raw: &'a [u8], _: &ValueContext<'a>) -> Option<BoardSize> {
        BoardSize::parse(raw)
    }
}

/// A point of the board, 0-based: `x` the column from the left, `y` the row
/// from the top. Written as two letters, `a`–`z` then `A`–`Z` (boards up to
/// 52×52): `[cd]` is x 2, y 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// Column, from 0 at the left.
    pub x: u8,
    /// Row, from 0 at the top.
    pub y: u8,
}

impl Point {
    /// The two letters that write this point in SGF (`pd`).
    ///
    /// ```
    /// use sgf_grove::value::Point;
    /// use sgf_grove::ErrorKind;
    /// assert_eq!(&Point { x: 15, y: 3 }.to_sgf()?, b"pd");
    /// assert_eq!(&Point { x: 51, y: 26 }.to_sgf()?, b"ZA");
    /// let far = Point { x: 52, y: 0 };
    /// assert_eq!(far.to_sgf().unwrap_err().kind(), ErrorKind::PointOutOfRange { x: 52, y: 0 });
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::PointOutOfRange`] when `x` or `y` is above 51: SGF has
    /// letters for boards up to 52×52 only.
    pub fn to_sgf(self) -> Result<[u8; 2]> {
        match (coord_letter(self.x), coord_letter(self.y)) {
            (Some(x), Some(y)) => Ok([x, y]),
            _ => Err(Error::without_position(ErrorKind::PointOutOfRange {
                x: self.x,
                y: self.y,
            })),
        }
    }
}

/// The SGF letters (`pd`). A point beyond 52×52, which has none, shows as
/// its coordinates, `(52, 0)`: never SGF, so it cannot be read back as
/// another point. Write SGF with [`Point::to_sgf`], which refuses it.
impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_sgf() {
            Ok([a, b]) => write!(f, "{}{}", a as char, b as char),
            Err(_) => write!(f, "({}, {})", self.x, self.y),
        }
    }
}

pub(crate) fn coord(b: u8) -> Option<u8> {
    match b {
        b'a'..=b'z' => Some(b - b'a'),
        b'A'..=b'Z' => Some(b - b'A' + 26),
        _ => None,
    }
}

/// The letter of coordinate `n`: `a`–`z` for 0–25, `A`–`Z` for 26–51,
/// none beyond.
fn coord_letter(n: u8) -> Option<u8> {
    match n {
        0..=25 => Some(b'a' + n),
        26..=51 => Some(b'A' + (n - 26)),
        _ => None,
    }
}

/// Two coordinate letters (`"pd"`), read without a board: any point of a
/// board up to 52×52. `"tt"` is the point x 19, y 19, since only the board
/// size tells whether it is a pass (see [`Move`]'s `FromStr`).
///
/// ```
/// use sgf_grove::value::Point;
/// assert_eq!("pd".parse::<Point>()?, Point { x: 15, y: 3 });
/// assert_eq!("tt".parse::<Point>()?, Point { x: 19, y: 19 });
/// assert_eq!("ZZ".parse::<Point>()?, Point { x: 51, y: 51 });
/// assert!("p".parse::<Point>().is_err());
/// # Ok::<(), sgf_grove::Error>(())
/// ```
///
/// # Errors
///
/// [`ErrorKind::InvalidValue`] of [`ValueType::Point`], without a position,
/// unless the text is exactly two letters `a`–`z`, `A`–`Z`.
impl FromStr for Point {
    type Err = Error;

    fn from_str(s: &str) -> Result<Point> {
        let point = match *s.as_bytes() {
            [a, b] => coord(a).zip(coord(b)).map(|(x, y)| Point { x, y }),
            _ => None,
        };
        point.ok_or_else(|| Error::without_position(ErrorKind::InvalidValue(ValueType::Point)))
    }
}

/// Reads two letters as a point without checking the board.
pub(crate) fn parse_point(raw: &[u8]) -> Option<Point> {
    match trim(raw) {
        [a, b] => Some(Point {
            x: coord(*a)?,
            y: coord(*b)?,
        }),
        _ => None,
    }
}

/// Points must lie on the board (`[tt]` on 19×19 is not a point).
impl<'a> FromValue<'a> for Point {
    const TYPE: ValueType = ValueType::Point;
    fn from_value(raw: &'a [u8], ctx: &ValueContext<'a>) -> Option<Point> {
        parse_point(raw).filter(|&p| ctx.size().contains(p))
    }
}

/// A move: a point played, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A stone played at a point.
    Play(Point),
    /// A pass: `[]`, or `[tt]` on boards up to 19×19.
    Pass,
}

impl<'a> FromValue<'a> for Move {
    const TYPE: ValueType = ValueType::Move;
    #[inline]
    fn from_value(raw: &'a [u8], ctx: &ValueContext<'a>) -> Option<Move> {
        Move::read(raw, ctx.size())
    }
}

impl Move {
    /// Reads a raw move value on a board of `size`: a pass when empty (or
    /// `tt` on boards up to 19×19), else a point on the board.
    #[inline]
    pub(crate) fn read(raw: &[u8], size: BoardSize) -> Option<Move> {
        match *trim(raw) {
            [] => Some(Move::Pass),
            [b't', b't'] if size.tt_is_pass() => Some(Move::Pass),
            [a, b] => {
                let point = Point {
                    x: coord(a)?,
                    y: coord(b)?,
                };
                size.contains(point).then_some(Move::Play(point))
            }
            _ => None,
        }
    }
}

/// A move written as in a `B` or `W` value, read without a board: `""` is
/// a pass, two letters are a point played (see [`Point`]'s `FromStr`).
/// `"tt"` is the point x 19, y 19: it is a pass only on boards up to
/// 19×19, which the text does not tell, so check it with
/// [`Move::for_board`] once the board is known. (A move read from a node
/// with [`Node::get`](crate::Node::get) knows its board already.)
///
/// ```
/// use sgf_grove::value::{BoardSize, Move, Point};
/// assert_eq!("".parse::<Move>()?, Move::Pass);
/// assert_eq!("dp".parse::<Move>()?, Move::Play(Point { x: 3, y: 15 }));
/// let tt: Move = "tt".parse()?;
/// assert_eq!(tt, Move::Play(Point { x: 19, y: 19 }));
/// assert_eq!(tt.for_board(BoardSize::square(19)), Move::Pass);
/// # Ok::<(), sgf_grove::Error>(())
/// ```
///
/// # Errors
///
/// [`ErrorKind::InvalidValue`] of [`ValueType::Move`], without a position,
/// unless the text is empty or two letters.
impl FromStr for Move {
    type Err = Error;

    fn from_str(s: &str) -> Result<Move> {
        if s.is_empty() {
            return Ok(Move::Pass);
        }
        s.parse::<Point>()
            .map(Move::Play)
            .map_err(|_| Error::without_position(ErrorKind::InvalidValue(ValueType::Move)))
    }
}

impl Move {
    /// This move on a board of `size`: `tt` (x 19, y 19) is a pass on
    /// boards up to 19×19, as FF\[4\] has it; any other move is itself.
    #[must_use]
    pub fn for_board(self, size: BoardSize) -> Move {
        match self {
            Move::Play(Point { x: 19, y: 19 }) if size.tt_is_pass() => Move::Pass,
            other => other,
        }
    }
}

/// A stone (in Go, a point), as `AB`/`AW` list them.
pub type Stone = Point;

/// SimpleText: decoded in the game's charset, escapes removed, every line
/// break and other whitespace turned into a space. Borrowed from the input
/// when nothing had to change, else from the arena of the tree (or of the
/// [`ValueContext`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SimpleText<'a>(pub &'a str);

/// Text: decoded in the game's charset, escapes and soft line breaks
/// removed, line breaks normalised to `\n`, tabs and other whitespace
/// turned into spaces. Borrowed from the input when nothing had to change,
/// else from the arena of the tree (or of the [`ValueContext`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Text<'a>(pub &'a str);

macro_rules! text_type {
    ($name:ident, $ty:expr_2021, $decode:ident) => {
        impl<'a> FromValue<'a> for $name<'a> {
            const TYPE: ValueType = $ty;
            #[inline]
            fn from_value(raw: &'a [u8], ctx: &ValueContext<'a>) -> Option<Self> {
                Some($name(ctx.$decode(raw)))
            }
        }

        impl std::ops::Deref for $name<'_> {
            type Target = str;
            fn deref(&self) -> &str {
                self.0
            }
        }

        impl fmt::Display for $name<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.0)
            }
        }

        impl<'a> $name<'a> {
            /// The text, for as long as the tree (or arena) it was read
            /// from.
            pub fn as_str(self) -> &'a str {
                self.0
            }
        }
    };
}

text_type!(SimpleText, ValueType::SimpleText, simple_text);
text_type!(Text, ValueType::Text, text);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::Arena;

    thread_local! {
        static ARENA: &'static Arena = Box::leak(Box::new(Arena::new()));
    }

    /// A context for 19×19 and UTF-8, with an arena that lives as long as
    /// the test.
    fn ctx_for(size: BoardSize) -> ValueContext<'static> {
        ValueContext::new(size, encoding_rs::UTF_8, ARENA.with(|a| *a))
    }

    fn ctx() -> ValueContext<'static> {
        ctx_for(BoardSize::default())
    }

    fn read<'a, T: FromValue<'a>>(raw: &'a [u8]) -> Option<T> {
        T::from_value(raw, &ctx())
    }

    #[test]
    fn numbers() {
        let cases: &[(&[u8], Option<i64>)] = &[
            (b"0", Some(0)),
            (b"42", Some(42)),
            (b"-3", Some(-3)),
            (b"+7", Some(7)),
            (b" 12 ", Some(12)),
            (b"", None),
            (b"1.5", None),
            (b"two", None),
            (b"-", None),
            (b"99999999999999999999", None),
        ];
        for &(raw, want) in cases {
            assert_eq!(read::<i64>(raw), want, "{raw:?}");
        }
    }

    #[test]
    fn reals() {
        let cases: &[(&[u8], Option<f64>)] = &[
            (b"6.5", Some(6.5)),
            (b"-0.5", Some(-0.5)),
            (b"0", Some(0.0)),
            (b"375", Some(375.0)),
            (b"6,5", Some(6.5)),
            (b".5", Some(0.5)),
            (b"+2.", Some(2.0)),
            (b"", None),
            (b"6.5.1", None),
            (b"six", None),
            (b"1e5", None),
        ];
        let huge = vec![b'9'; 400];
        assert_eq!(read::<f64>(&huge), None, "overflows to infinity");
        for &(raw, want) in cases {
            assert_eq!(read::<f64>(raw), want, "{raw:?}");
        }
        // KM[] is accepted as "no komi" through Option.
        assert_eq!(read::<Option<f64>>(b""), Some(None));
        assert_eq!(read::<Option<f64>>(b"0.5"), Some(Some(0.5)));
    }

    #[test]
    fn doubles_colors_empty() {
        assert_eq!(read::<Double>(b"1"), Some(Double::Normal));
        assert_eq!(read::<Double>(b"2"), Some(Double::Emphasized));
        assert_eq!(read::<Double>(b"3"), None);
        for (raw, want) in [
            (&b"B"[..], Some(Color::Black)),
            (b"W", Some(Color::White)),
            (b"b", Some(Color::Black)),
            (b"1", Some(Color::Black)),
            (b"2", Some(Color::White)),
            (b"Black", Some(Color::Black)),
            (b"WHITE", Some(Color::White)),
            (b"X", None),
            (b"", None),
        ] {
            assert_eq!(read::<Color>(raw), want, "{raw:?}");
        }
        assert_eq!(read::<Empty>(b""), Some(Empty));
        assert_eq!(read::<Empty>(b" "), Some(Empty));
        assert_eq!(read::<Empty>(b"x"), None);
    }

    #[test]
    fn points_and_moves() {
        assert_eq!(read::<Point>(b"cd"), Some(Point { x: 2, y: 3 }));
        assert_eq!(read::<Point>(b"ss"), Some(Point { x: 18, y: 18 }));
        assert_eq!(read::<Point>(b"tt"), None, "off a 19x19 board");
        assert_eq!(read::<Point>(b"c"), None);
        assert_eq!(read::<Point>(b"c1"), None);
        assert_eq!(read::<Move>(b"pd"), Some(Move::Play(Point { x: 15, y: 3 })));
        assert_eq!(read::<Move>(b""), Some(Move::Pass));
        assert_eq!(read::<Move>(b"tt"), Some(Move::Pass));
        assert_eq!(read::<Move>(b"zz"), None);
        let big = ctx_for(BoardSize::square(52));
        assert_eq!(
            Move::from_value(b"tt", &big),
            Some(Move::Play(Point { x: 19, y: 19 }))
        );
        assert_eq!(Point::from_value(b"ZZ", &big), Some(Point { x: 51, y: 51 }));
        assert_eq!(Point::from_value(b"Aa", &big), Some(Point { x: 26, y: 0 }));
        assert_eq!(Point { x: 26, y: 51 }.to_string(), "AZ");
        let wide = ctx_for(BoardSize { cols: 25, rows: 5 });
        assert_eq!(
            Move::from_value(b"tt", &wide),
            None,
            "tt is a point off this board"
        );
        assert_eq!(Point::from_value(b"xf", &wide), None);
        assert_eq!(Point::from_value(b"xd", &wide), Some(Point { x: 23, y: 3 }));
    }

    #[test]
    fn points_to_sgf() {
        let letters = |x, y| Point { x, y }.to_sgf();
        assert_eq!(letters(0, 25).unwrap(), *b"az");
        assert_eq!(letters(26, 51).unwrap(), *b"AZ");
        assert_eq!(letters(51, 0).unwrap(), *b"Za");
        for (x, y) in [(52, 0), (0, 52), (60, 2), (2, 60), (255, 255), (51, 255)] {
            let point = Point { x, y };
            let err = point.to_sgf().unwrap_err();
            assert_eq!(err.kind(), ErrorKind::PointOutOfRange { x, y }, "{point:?}");
            assert!(!err.has_position());
            assert_eq!(point.to_string(), format!("({x}, {y})"));
            // Nothing that reads as a point.
            assert!(point.to_string().parse::<Point>().is_err());
        }
        assert_eq!(Point { x: 51, y: 51 }.to_string(), "ZZ");
        assert_eq!(
            Point { x: 52, y: 3 }.to_sgf().unwrap_err().to_string(),
            "point (52, 3) out of range: SGF letters reach 52×52"
        );
    }

    #[test]
    fn points_from_str() {
        assert_eq!("aa".parse::<Point>().unwrap(), Point { x: 0, y: 0 });
        assert_eq!("Zz".parse::<Point>().unwrap(), Point { x: 51, y: 25 });
        assert_eq!("tt".parse::<Point>().unwrap(), Point { x: 19, y: 19 });
        for x in 0..52 {
            for y in 0..52 {
                let p = Point { x, y };
                assert_eq!(p.to_string().parse::<Point>().unwrap(), p);
            }
        }
        for text in ["", "a", "abc", " pd", "pd ", "p1", "é", "[a", "a["] {
            let err = text.parse::<Point>().unwrap_err();
            assert_eq!(
                err.kind(),
                ErrorKind::InvalidValue(ValueType::Point),
                "{text:?}"
            );
            assert!(!err.has_position());
        }
    }

    #[test]
    fn moves_from_str() {
        assert_eq!("".parse::<Move>().unwrap(), Move::Pass);
        assert_eq!(
            "pd".parse::<Move>().unwrap(),
            Move::Play(Point { x: 15, y: 3 })
        );
        let tt: Move = "tt".parse().unwrap();
        assert_eq!(tt, Move::Play(Point { x: 19, y: 19 }));
        assert_eq!(tt.for_board(BoardSize::square(19)), Move::Pass);
        assert_eq!(tt.for_board(BoardSize { cols: 19, rows: 9 }), Move::Pass);
        assert_eq!(tt.for_board(BoardSize::square(25)), tt);
        assert_eq!(Move::Pass.for_board(BoardSize::square(25)), Move::Pass);
        let ss = Move::Play(Point { x: 18, y: 18 });
        assert_eq!(ss.for_board(BoardSize::square(19)), ss);
        // The same as reading a value with the board known.
        for size in [
            BoardSize::square(9),
            BoardSize::square(19),
            BoardSize::square(52),
        ] {
            let ctx = ctx_for(size);
            for text in ["", "tt", "aa", "ss"] {
                let from_str = text.parse::<Move>().unwrap().for_board(size);
                let from_value = Move::from_value(text.as_bytes(), &ctx);
                if let Some(read) = from_value {
                    assert_eq!(from_str, read, "{text:?} on {size:?}");
                }
            }
        }
        for text in [" ", "t", "ttt", "1a", "pass"] {
            let err = text.parse::<Move>().unwrap_err();
            assert_eq!(
                err.kind(),
                ErrorKind::InvalidValue(ValueType::Move),
                "{text:?}"
            );
        }
    }

    #[test]
    fn board_sizes_and_compose() {
        assert_eq!(read::<BoardSize>(b"19"), Some(BoardSize::square(19)));
        assert_eq!(
            read::<BoardSize>(b"19:13"),
            Some(BoardSize { cols: 19, rows: 13 })
        );
        assert_eq!(read::<BoardSize>(b"52"), Some(BoardSize::square(52)));
        assert_eq!(read::<BoardSize>(b"53"), None);
        assert_eq!(read::<BoardSize>(b"0"), None);
        assert_eq!(read::<BoardSize>(b"x:9"), None);
        assert_eq!(
            read::<(Point, Point)>(b"aa:cc"),
            Some((Point { x: 0, y: 0 }, Point { x: 2, y: 2 }))
        );
        let (p, label) = read::<(Point, SimpleText)>(br"dd:a\:b").unwrap();
        assert_eq!((p, &*label), (Point { x: 3, y: 3 }, "a:b"));
        assert_eq!(read::<(Point, Point)>(b"aa"), None);
        assert_eq!(split_compose(br"a\:b:c"), Some((&br"a\:b"[..], &b"c"[..])));
        assert_eq!(
            <(Point, SimpleText)>::TYPE,
            ValueType::Compose(&ValueType::Point, &ValueType::SimpleText)
        );
    }

    #[test]
    fn texts() {
        assert_eq!(&*read::<Text>(b"a\\]b\r\nc").unwrap(), "a]b\nc");
        assert_eq!(&*read::<SimpleText>(b"a\\]b\r\nc").unwrap(), "a]b c");
        // Nothing to change: the value itself.
        let raw = b"plain";
        let text = read::<Text>(raw).unwrap().as_str();
        assert_eq!((text, text.as_ptr()), ("plain", raw.as_ptr()));
    }
}
