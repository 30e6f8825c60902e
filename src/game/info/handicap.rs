//! Handicap (`HA`).

use super::helpers::simple_text;
use super::helpers::{cjk_number, leading_number, parse_real};
use crate::value::{FromValue, ValueContext, ValueType};

/// Handicap (`HA`, a Number): how many handicap stones Black was given.
///
/// FF\[4\] says `HA` is at least 2. Real files also write `HA[0]` (the Fox
/// server, in every even game: 21,459 of the 38,473 `HA` values in the
/// shared corpus) and `HA[1]` (326, mostly old servers); both mean that no
/// handicap stones were placed ([`Handicap::NoStones`]; `HA[1]` is
/// sometimes meant as "Black moves first without komi", which `KM` tells).
/// Text that is not a plain number but holds exactly one (`HA[3 stones]`,
/// `HA[two]`, `HA[让3子]`, `HA[三子]`) is read with a flag
/// ([`Handicap::Lenient`]); anything else is [`Handicap::Invalid`].
///
/// ```
/// use sgf_grove::game::Handicap;
/// assert_eq!(Handicap::parse("3"), Handicap::Stones(3));
/// assert_eq!(Handicap::parse("0").stones(), Some(0));
/// assert_eq!(Handicap::parse("3 stones").stones(), Some(3));
/// assert!(!Handicap::parse("two").is_conforming());
/// assert_eq!(Handicap::parse("many").stones(), None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Handicap {
    /// A number of at least 2, as FF\[4\] wants it.
    Stones(u32),
    /// `HA[0]` or `HA[1]`: no handicap stones. Holds the number written.
    NoStones(u32),
    /// A number read out of text that is not a plain number
    /// (`HA[3 stones]` → 3, `HA[two]` → 2). `stones` is as read (0 and 1 are
    /// possible); `raw` is the text.
    Lenient {
        /// The number read.
        stones: u32,
        /// The text as given.
        raw: String,
    },
    /// No number could be read (`HA[many]`, `HA[-2]`, `HA[2 or 3]`, `HA[]`).
    Invalid(String),
}

impl Handicap {
    /// Reads a handicap; never fails (see the variants).
    pub fn parse(s: &str) -> Handicap {
        let t = s.trim();
        if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
            return match t.parse::<u32>() {
                Ok(n) if n >= 2 => Handicap::Stones(n),
                Ok(n) => Handicap::NoStones(n),
                Err(_) => Handicap::Invalid(s.to_owned()),
            };
        }
        match Handicap::lenient_number(t) {
            Some(stones) => Handicap::Lenient {
                stones,
                raw: s.to_owned(),
            },
            None => Handicap::Invalid(s.to_owned()),
        }
    }

    /// The one number in `t`: a single run of digits (not negative), or a
    /// number word (English, or a CJK numeral).
    fn lenient_number(t: &str) -> Option<u32> {
        if t.starts_with('-') {
            return None;
        }
        // `2.0`, `2,0`: a whole Real.
        if let Some((v, _)) = parse_real(t) {
            return (v.fract() == 0.0 && v <= f64::from(u32::MAX)).then_some(v as u32);
        }
        // Exactly one run of digits (`3 stones`, `H3`); `2 or 3` is refused.
        let mut runs = t
            .split(|c: char| !c.is_ascii_digit())
            .filter(|r| !r.is_empty());
        if let Some(run) = runs.next() {
            return match runs.next() {
                None => run.parse().ok(),
                Some(_) => None,
            };
        }
        // Full-width digits (`９`).
        if let Some((n, "")) = leading_number(t) {
            return Some(n);
        }
        const WORDS: [&str; 10] = [
            "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
        ];
        let mut found = None;
        for word in t.split(|c: char| !c.is_alphabetic()) {
            let n = WORDS
                .iter()
                .position(|w| w.eq_ignore_ascii_case(word))
                .map(|n| n as u32)
                .or_else(|| {
                    let end = word
                        .char_indices()
                        .find(|&(_, c)| !"一二三四五六七八九十".contains(c))
                        .map_or(word.len(), |(i, _)| i);
                    (end > 0).then(|| cjk_number(&word[..end])).flatten()
                });
            if let Some(n) = n {
                if found.is_some() {
                    return None;
                }
                found = Some(n);
            }
        }
        found
    }

    /// The number of handicap stones: `0` for [`Handicap::NoStones`] and for
    /// a lenient 0 or 1, `None` for [`Handicap::Invalid`].
    pub fn stones(&self) -> Option<u32> {
        match self {
            Handicap::Stones(n) => Some(*n),
            Handicap::NoStones(_) => Some(0),
            Handicap::Lenient { stones, .. } => Some(if *stones < 2 { 0 } else { *stones }),
            Handicap::Invalid(_) => None,
        }
    }

    /// Whether the value is as FF\[4\] wants it (a plain number ≥ 2).
    pub fn is_conforming(&self) -> bool {
        matches!(self, Handicap::Stones(_))
    }
}

/// `HA` read from a node: decoded as SimpleText in the game's charset, then
/// [`Handicap::parse`]. Never fails.
///
/// ```
/// use sgf_grove::game::Handicap;
/// let doc = sgf_grove::parse(b"(;HA[3]AB[dd][pd][dp])")?;
/// let root = doc.games().next().unwrap().root();
/// assert_eq!(root.get::<Handicap>("HA")?, Some(Handicap::Stones(3)));
/// # Ok::<(), sgf_grove::Error>(())
/// ```
impl<'a> FromValue<'a> for Handicap {
    const TYPE: ValueType = ValueType::Number;

    fn from_value(raw: &'a [u8], ctx: &ValueContext<'a>) -> Option<Self> {
        Some(Handicap::parse(simple_text(raw, ctx)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handicaps() {
        let lenient = |stones, raw: &str| Handicap::Lenient {
            stones,
            raw: raw.to_owned(),
        };
        for (text, want, stones) in [
            ("2", Handicap::Stones(2), Some(2)),
            ("9", Handicap::Stones(9), Some(9)),
            ("13", Handicap::Stones(13), Some(13)),
            (" 3 ", Handicap::Stones(3), Some(3)),
            ("0", Handicap::NoStones(0), Some(0)),
            ("1", Handicap::NoStones(1), Some(0)),
            ("00", Handicap::NoStones(0), Some(0)),
            ("3 stones", lenient(3, "3 stones"), Some(3)),
            ("H3", lenient(3, "H3"), Some(3)),
            ("2.0", lenient(2, "2.0"), Some(2)),
            ("two", lenient(2, "two"), Some(2)),
            ("Four stones", lenient(4, "Four stones"), Some(4)),
            ("one", lenient(1, "one"), Some(0)),
            ("让3子", lenient(3, "让3子"), Some(3)),
            ("三子", lenient(3, "三子"), Some(3)),
            ("９", lenient(9, "９"), Some(9)),
            ("", Handicap::Invalid(String::new()), None),
            ("many", Handicap::Invalid("many".into()), None),
            ("-2", Handicap::Invalid("-2".into()), None),
            ("2 or 3", Handicap::Invalid("2 or 3".into()), None),
            (
                "two or three",
                Handicap::Invalid("two or three".into()),
                None,
            ),
            ("2.5", Handicap::Invalid("2.5".into()), None),
            ("99999999999", Handicap::Invalid("99999999999".into()), None),
        ] {
            let h = Handicap::parse(text);
            assert_eq!(h, want, "{text:?}");
            assert_eq!(h.stones(), stones, "{text:?}");
            assert_eq!(h.is_conforming(), matches!(want, Handicap::Stones(_)));
        }
    }
}
