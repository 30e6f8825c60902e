//! Typed values written as SGF: the other direction of [`FromValue`](super::FromValue).

use super::types::{BoardSize, Color, Double, Empty, Move, Point, SimpleText, Text};
use crate::error::{Error, ErrorKind, Result};
use crate::spec::ValueType;

/// A type that can be written as one SGF value: what
/// [`EditableGame::set`](crate::edit::EditableGame::set) takes.
///
/// The bytes are those between `[` and `]`, escaped, in UTF-8 (the editor
/// encodes text in the game's charset). Implemented for [`Number`](super::Number)
/// (`i64`, and `u32`, `i32`, `u8`), [`Real`](super::Real) (`f64`), [`Double`],
/// [`Color`], [`Point`], [`Move`] (a pass as `[]`), [`BoardSize`], [`Text`],
/// [`SimpleText`], `&str` and `String` (as text), [`Empty`], `(A, B)` for a
/// compose value `a:b`, and (implemented beside them, in
/// [`game`](crate::game)) the game-information types
/// [`Komi`](crate::game::Komi), [`Handicap`](crate::game::Handicap),
/// [`Rank`](crate::game::Rank), [`GameResult`](crate::game::GameResult)
/// and [`Rules`](crate::game::Rules).
///
/// ```
/// use sgf_grove::value::{BoardSize, Move, Point, ToValue};
/// let mut out = Vec::new();
/// Move::Play(Point { x: 15, y: 3 }).write_value(&mut out)?;
/// assert_eq!(out, b"pd");
/// out.clear();
/// "a ] and a \\".write_value(&mut out)?;
/// assert_eq!(out, br"a \] and a \\");
/// out.clear();
/// (Point { x: 0, y: 0 }, "A:1").write_value(&mut out)?; // a label
/// assert_eq!(out, br"aa:A\:1");
/// out.clear();
/// BoardSize { cols: 19, rows: 13 }.write_value(&mut out)?;
/// assert_eq!(out, b"19:13");
/// # Ok::<(), sgf_grove::Error>(())
/// ```
pub trait ToValue {
    /// Appends the value's bytes (escaped, without the brackets) to `out`.
    ///
    /// # Errors
    ///
    /// When the value has no SGF spelling: a point beyond 52×52
    /// ([`ErrorKind::PointOutOfRange`]), a real that is not finite
    /// ([`ErrorKind::InvalidValue`]).
    fn write_value(&self, out: &mut Vec<u8>) -> Result<()>;

    /// Appends the value as one half of a compose value: as
    /// [`ToValue::write_value`], with `:` escaped in text.
    ///
    /// # Errors
    ///
    /// As [`ToValue::write_value`].
    fn write_half(&self, out: &mut Vec<u8>) -> Result<()> {
        self.write_value(out)
    }
}

impl<T: ToValue + ?Sized> ToValue for &T {
    fn write_value(&self, out: &mut Vec<u8>) -> Result<()> {
        (**self).write_value(out)
    }
    fn write_half(&self, out: &mut Vec<u8>) -> Result<()> {
        (**self).write_half(out)
    }
}

/// Escapes `text` (bytes in the game's charset) for use as a new property
/// value: `\` and `]` get a `\` before them, and so does a `;` after `(`
/// (and spaces), which a reader could take for the start of a new game.
/// [`ToValue`] escapes text this way.
///
/// ```
/// let mut out = Vec::new();
/// sgf_grove::value::escape_value(br"a]b\c:d (;GM[1]", &mut out);
/// assert_eq!(out, br"a\]b\\c:d (\;GM[1\]");
/// ```
pub fn escape_value(text: &[u8], out: &mut Vec<u8>) {
    escape(text, false, out);
}

/// Escapes `text` as [`escape_value`] does, and `:` too: for one half of a
/// compose value (`LB[pd:A\:1]`).
///
/// ```
/// let mut out = Vec::new();
/// sgf_grove::value::escape_compose_half(b"A:1", &mut out);
/// assert_eq!(out, br"A\:1");
/// ```
pub fn escape_compose_half(text: &[u8], out: &mut Vec<u8>) {
    escape(text, true, out);
}

fn escape(text: &[u8], colon: bool, out: &mut Vec<u8>) {
    let mut after_paren = false;
    for &b in text {
        if b == b']' || b == b'\\' || (colon && b == b':') || (after_paren && b == b';') {
            out.push(b'\\');
        }
        out.push(b);
        after_paren = b == b'(' || (after_paren && matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
    }
}

impl ToValue for str {
    fn write_value(&self, out: &mut Vec<u8>) -> Result<()> {
        escape_value(self.as_bytes(), out);
        Ok(())
    }
    fn write_half(&self, out: &mut Vec<u8>) -> Result<()> {
        escape_compose_half(self.as_bytes(), out);
        Ok(())
    }
}

impl ToValue for String {
    fn write_value(&self, out: &mut Vec<u8>) -> Result<()> {
        self.as_str().write_value(out)
    }
    fn write_half(&self, out: &mut Vec<u8>) -> Result<()> {
        self.as_str().write_half(out)
    }
}

impl ToValue for Text<'_> {
    fn write_value(&self, out: &mut Vec<u8>) -> Result<()> {
        self.0.write_value(out)
    }
    fn write_half(&self, out: &mut Vec<u8>) -> Result<()> {
        self.0.write_half(out)
    }
}

impl ToValue for SimpleText<'_> {
    fn write_value(&self, out: &mut Vec<u8>) -> Result<()> {
        self.0.write_value(out)
    }
    fn write_half(&self, out: &mut Vec<u8>) -> Result<()> {
        self.0.write_half(out)
    }
}

macro_rules! number {
    ($($ty:ty),*) => {$(
        impl ToValue for $ty {
            fn write_value(&self, out: &mut Vec<u8>) -> Result<()> {
                out.extend_from_slice(self.to_string().as_bytes());
                Ok(())
            }
        }
    )*};
}

number!(i64, i32, u32, u8);

/// The shortest decimal that reads back as the same `f64` (`6.5`, `7`,
/// `-0.5`); never an exponent.
impl ToValue for f64 {
    fn write_value(&self, out: &mut Vec<u8>) -> Result<()> {
        if !self.is_finite() {
            return Err(Error::without_position(ErrorKind::InvalidValue(
                ValueType::Real,
            )));
        }
        out.extend_from_slice(self.to_string().as_bytes());
        Ok(())
    }
}

impl ToValue for Double {
    fn write_value(&self, out: &mut Vec<u8>) -> Result<()> {
        out.push(match self {
            Double::Normal => b'1',
            Double::Emphasized => b'2',
        });
        Ok(())
    }
}

impl ToValue for Color {
    fn write_value(&self, out: &mut Vec<u8>) -> Result<()> {
        out.extend_from_slice(self.as_str().as_bytes());
        Ok(())
    }
}

impl ToValue for Point {
    fn write_value(&self, out: &mut Vec<u8>) -> Result<()> {
        out.extend_from_slice(&self.to_sgf()?);
        Ok(())
    }
}

/// A pass is the empty value (FF\[4\]).
impl ToValue for Move {
    fn write_value(&self, out: &mut Vec<u8>) -> Result<()> {
        match self {
            Move::Play(point) => point.write_value(out),
            Move::Pass => Ok(()),
        }
    }
}

/// `19`, or `19:13` for a rectangular board.
impl ToValue for BoardSize {
    fn write_value(&self, out: &mut Vec<u8>) -> Result<()> {
        if self.cols == self.rows {
            self.cols.write_value(out)
        } else {
            self.cols.write_value(out)?;
            out.push(b':');
            self.rows.write_value(out)
        }
    }
}

impl ToValue for Empty {
    fn write_value(&self, _: &mut Vec<u8>) -> Result<()> {
        Ok(())
    }
}

impl<A: ToValue, B: ToValue> ToValue for (A, B) {
    fn write_value(&self, out: &mut Vec<u8>) -> Result<()> {
        self.0.write_half(out)?;
        out.push(b':');
        self.1.write_half(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(v: impl ToValue) -> String {
        let mut out = Vec::new();
        v.write_value(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn values() {
        assert_eq!(written(6.5f64), "6.5");
        assert_eq!(written(7.0f64), "7");
        assert_eq!(written(1e20f64), "100000000000000000000");
        assert!(f64::NAN.write_value(&mut Vec::new()).is_err());
        assert_eq!(written(Move::Pass), "");
        assert_eq!(written(Color::White), "W");
        assert_eq!(written(Double::Emphasized), "2");
        assert_eq!(written("see (;GM[1]"), r"see (\;GM[1\]");
        assert_eq!(written(("a:b", 3i64)), r"a\:b:3");
        assert!(Point { x: 52, y: 0 }.write_value(&mut Vec::new()).is_err());
    }
}
