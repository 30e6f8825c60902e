//! The main time limit (`TM`).

use super::helpers::simple_text;
use super::helpers::{leading_digits, parse_real};
use crate::error::{Error, Result};
use crate::value::{FromValue, ValueContext, ValueType};

/// The property this file reads, named in its errors.
const IDENT: &str = "TM";

/// The main time limit (`TM`, a Real in seconds).
///
/// Besides the FF\[4\] form (`TM[1800]`, `TM[60.5]`) these are read, with
/// [`TimeLimit::lenient`] set: clock forms `mm:ss` and `h:mm:ss`
/// (`TM[50:00]`, `TM[5:00:00]`), numbers with units (`1h`, `90 min`,
/// `1h30m`, `1 hr`, `30 seconds`), a decimal comma, and any of these followed
/// by a note on overtime in brackets or after `+` or `/` (and, after a clock
/// or a unit, after a space): `TM[10:00(5x1:00)]`, `TM[30:00+30:00/25]`,
/// `TM[1 hr/125 moves]`, `TM[600 (5x30)]`. Only the main time is read.
///
/// In the shared corpus all but 44 of the 47,072 `TM` values are read: the
/// rest are `TM[-]` (42) and `TM[1800,0,30,5]` (2).
///
/// ```
/// use sgf_grove::game::TimeLimit;
/// assert_eq!(TimeLimit::parse("1800")?, TimeLimit { seconds: 1800.0, lenient: false });
/// assert_eq!(TimeLimit::parse("10:00(5x1:00)")?.seconds, 600.0);
/// assert_eq!(TimeLimit::parse("1 hr/125 moves")?.seconds, 3600.0);
/// assert!(TimeLimit::parse("-").is_err());
/// # Ok::<(), sgf_grove::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeLimit {
    /// The main time, in seconds.
    pub seconds: f64,
    /// Whether the text was not a plain Real.
    pub lenient: bool,
}

impl TimeLimit {
    /// Reads a time limit.
    ///
    /// # Errors
    ///
    /// When no main time can be read (`-`, `none`, `unlimited`, empty), or it
    /// is negative.
    pub fn parse(s: &str) -> Result<TimeLimit> {
        let t = s.trim();
        if t.is_empty() {
            return Err(Error::game_info(IDENT, "empty", s));
        }
        if let Some((seconds, comma)) = parse_real(t) {
            if seconds < 0.0 {
                return Err(Error::game_info(IDENT, "negative", s));
            }
            return Ok(TimeLimit {
                seconds,
                lenient: comma || t.len() != s.len() || t.starts_with('+'),
            });
        }
        let (seconds, rest) = clock_time(t)
            .or_else(|| unit_time(t))
            .or_else(|| leading_real(t))
            .ok_or_else(|| Error::game_info(IDENT, "not a time", s))?;
        if !(rest.is_empty()
            || rest.starts_with(|c: char| "(+/,;".contains(c) || c.is_whitespace()))
        {
            return Err(Error::game_info(IDENT, "not a time", s));
        }
        Ok(TimeLimit {
            seconds,
            lenient: true,
        })
    }
}

/// `mm:ss` or `h:mm:ss` at the start of `t`; the seconds and the rest.
fn clock_time(t: &str) -> Option<(f64, &str)> {
    let mut fields = [0u32; 3];
    let mut n = 0;
    let mut rest = t;
    loop {
        let (digits, after) = leading_digits(rest);
        if digits.is_empty() || digits.len() > 6 || (n > 0 && digits.len() != 2) {
            return None;
        }
        fields[n] = digits.parse().ok()?;
        n += 1;
        rest = after;
        match rest.strip_prefix(':') {
            Some(r) if n < 3 => rest = r,
            _ => break,
        }
    }
    let seconds = match n {
        2 => fields[0] * 60 + fields[1],
        3 => fields[0] * 3600 + fields[1] * 60 + fields[2],
        _ => return None,
    };
    Some((f64::from(seconds), rest))
}

/// A plain number at the start of `t` followed by a note on overtime
/// (`600 (5x30)`, `1800+30/25`).
fn leading_real(t: &str) -> Option<(f64, &str)> {
    let end = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, rest) = t.split_at(end);
    let (value, _) = parse_real(number)?;
    rest.trim_start()
        .starts_with(['(', '+', '/'])
        .then_some((value, rest))
}

/// Numbers with units at the start of `t`: `1h`, `90 min`, `1h30m`, `1 hr`.
fn unit_time(t: &str) -> Option<(f64, &str)> {
    const UNITS: [(&str, f64); 14] = [
        ("hours", 3600.0),
        ("hour", 3600.0),
        ("hrs", 3600.0),
        ("hr", 3600.0),
        ("h", 3600.0),
        ("minutes", 60.0),
        ("minute", 60.0),
        ("mins", 60.0),
        ("min", 60.0),
        ("m", 60.0),
        ("seconds", 1.0),
        ("secs", 1.0),
        ("sec", 1.0),
        ("s", 1.0),
    ];
    let mut total = 0.0;
    let mut rest = t;
    let mut any = false;
    loop {
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        if end == 0 {
            break;
        }
        let (number, after) = rest.split_at(end);
        let Some((value, _)) = parse_real(number) else {
            break;
        };
        let after = after.trim_start();
        let word_end = after
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(after.len());
        let word = &after[..word_end];
        let Some(&(_, factor)) = UNITS.iter().find(|(u, _)| u.eq_ignore_ascii_case(word)) else {
            break;
        };
        total += value * factor;
        any = true;
        rest = after[word_end..].trim_start();
    }
    any.then_some((total, rest))
}

/// `TM` read from a node: decoded as SimpleText in the game's charset, then
/// [`TimeLimit::parse`].
///
/// ```
/// use sgf_grove::game::TimeLimit;
/// let doc = sgf_grove::parse(b"(;TM[1 hr/125 moves])")?;
/// let root = doc.games().next().unwrap().root();
/// assert_eq!(root.get::<TimeLimit>("TM")?.unwrap().seconds, 3600.0);
/// # Ok::<(), sgf_grove::Error>(())
/// ```
///
/// # Errors
///
/// As [`TimeLimit::parse`], at the value's position.
impl<'a> FromValue<'a> for TimeLimit {
    const TYPE: ValueType = ValueType::Real;

    fn from_value(raw: &'a [u8], ctx: &ValueContext<'a>) -> Option<Self> {
        Self::try_from_value(raw, ctx).ok()
    }

    fn try_from_value(raw: &'a [u8], ctx: &ValueContext<'a>) -> Result<Self> {
        TimeLimit::parse(simple_text(raw, ctx))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    #[test]
    fn time_limits() {
        for (text, seconds, lenient) in [
            ("60", 60.0, false),
            ("1800", 1800.0, false),
            ("0", 0.0, false),
            ("90.5", 90.5, false),
            ("90,5", 90.5, true),
            (" 600 ", 600.0, true),
            ("50:00", 3000.0, true),
            ("1:00:00", 3600.0, true),
            ("5:00:00(5x1:00)", 18000.0, true),
            ("10:00(5x1:00)", 600.0, true),
            ("30:00+30:00/25", 1800.0, true),
            ("1 hr/125 moves", 3600.0, true),
            ("1h", 3600.0, true),
            ("1h30m", 5400.0, true),
            ("1h 30m", 5400.0, true),
            ("90 min", 5400.0, true),
            ("90 minutes", 5400.0, true),
            ("2 hours", 7200.0, true),
            ("30 seconds", 30.0, true),
            ("1.5h", 5400.0, true),
            ("600 (byo-yomi 5x30)", 600.0, true),
            ("1800+30/25", 1800.0, true),
        ] {
            let t = TimeLimit::parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
            assert_eq!(t, TimeLimit { seconds, lenient }, "{text:?}");
        }
        for text in [
            "",
            "-",
            "none",
            "unlimited",
            "-60",
            "1:2",
            "1:00:00:00",
            "10x",
            "1 parsec",
            "60abc",
            "1800,0,30,5",
        ] {
            let err = TimeLimit::parse(text).unwrap_err();
            assert_eq!(err.value_text(), Some(text), "{text:?}");
            assert_eq!(err.kind(), ErrorKind::InvalidGameInfo { ident: "TM" });
        }
    }
}
