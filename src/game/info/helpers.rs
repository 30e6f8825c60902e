//! Small text helpers the game-info parsers share.

use crate::value::ValueContext;
use std::borrow::Cow;

/// `s` without the prefix `prefix`, ASCII letters compared case-insensitively.
pub(super) fn strip_prefix_ci<'s>(s: &'s str, prefix: &str) -> Option<&'s str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &s[prefix.len()..])
}

/// Whether `s` contains `needle`, ASCII letters compared case-insensitively.
pub(super) fn contains_ci(s: &str, needle: &str) -> bool {
    s.as_bytes()
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// Reads an SGF Real: optional sign, digits, optional `.` and digits (at
/// least one digit in all). Also accepts a `,` as the decimal separator,
/// reported by the flag. No exponents, no `inf`/`nan`.
pub(super) fn parse_real(s: &str) -> Option<(f64, bool)> {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    let mut digits = 0;
    let mut separator = None;
    for (i, b) in body.bytes().enumerate() {
        match b {
            b'0'..=b'9' => digits += 1,
            b'.' | b',' if separator.is_none() => separator = Some((i, b)),
            _ => return None,
        }
    }
    if digits == 0 {
        return None;
    }
    let comma = matches!(separator, Some((_, b',')));
    let value: f64 = if comma {
        s.replacen(',', ".", 1).parse().ok()?
    } else {
        s.parse().ok()?
    };
    value.is_finite().then_some((value, comma))
}

/// Splits `s` into its leading ASCII digits and the rest.
pub(super) fn leading_digits(s: &str) -> (&str, &str) {
    let end = s
        .bytes()
        .position(|b| !b.is_ascii_digit())
        .unwrap_or(s.len());
    s.split_at(end)
}

/// The value of a CJK numeral from 1 to 39 (`一`, `九`, `十八`, `二十五`),
/// or of `初` (first: `初段` is 1 dan).
pub(super) fn cjk_number(s: &str) -> Option<u32> {
    fn digit(c: char) -> Option<u32> {
        Some(match c {
            '一' => 1,
            '二' => 2,
            '三' => 3,
            '四' => 4,
            '五' => 5,
            '六' => 6,
            '七' => 7,
            '八' => 8,
            '九' => 9,
            _ => return None,
        })
    }
    if s == "初" {
        return Some(1);
    }
    let mut chars = s.chars();
    let first = chars.next()?;
    match s.find('十') {
        None => {
            // A single digit.
            (chars.next().is_none()).then_some(())?;
            digit(first)
        }
        Some(at) => {
            let (tens, units) = (&s[..at], &s[at + '十'.len_utf8()..]);
            let tens = match tens {
                "" => 1,
                t => {
                    let mut c = t.chars();
                    let d = digit(c.next()?)?;
                    c.next().is_none().then_some(d)?
                }
            };
            let units = match units {
                "" => 0,
                u => {
                    let mut c = u.chars();
                    let d = digit(c.next()?)?;
                    c.next().is_none().then_some(d)?
                }
            };
            (tens <= 3).then_some(tens * 10 + units)
        }
    }
}

/// Splits a leading number written in ASCII digits, full-width digits or
/// CJK numerals off `s`.
pub(super) fn leading_number(s: &str) -> Option<(u32, &str)> {
    let (digits, rest) = leading_digits(s);
    if !digits.is_empty() {
        return (digits.len() <= 6).then(|| Some((digits.parse().ok()?, rest)))?;
    }
    // Full-width digits (U+FF10–U+FF19).
    let end = s
        .char_indices()
        .find(|&(_, c)| !('０'..='９').contains(&c))
        .map_or(s.len(), |(i, _)| i);
    if end > 0 {
        let value = s[..end].chars().try_fold(0u32, |acc, c| {
            acc.checked_mul(10)?.checked_add(c as u32 - '０' as u32)
        })?;
        return Some((value, &s[end..]));
    }
    let end = s
        .char_indices()
        .find(|&(_, c)| !"初一二三四五六七八九十".contains(c))
        .map_or(s.len(), |(i, _)| i);
    Some((cjk_number(&s[..end])?, &s[end..]))
}

/// `s` trimmed, or `None` when that leaves nothing.
pub(super) fn non_blank(s: Option<&str>) -> Option<&str> {
    s.map(str::trim).filter(|t| !t.is_empty())
}

/// `raw` decoded as SimpleText in the charset of `ctx`: borrowed from the
/// input when nothing had to change, else from the arena of `ctx`.
pub(super) fn simple_text<'a>(raw: &'a [u8], ctx: &ValueContext<'a>) -> &'a str {
    ctx.simple_text(raw)
}

/// `text` without leading and trailing whitespace, still borrowed when it
/// was.
pub(super) fn trim_cow(text: Cow<'_, str>) -> Cow<'_, str> {
    match text {
        Cow::Borrowed(s) => Cow::Borrowed(s.trim()),
        Cow::Owned(s) if s.trim().len() == s.len() => Cow::Owned(s),
        Cow::Owned(s) => Cow::Owned(s.trim().to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reals() {
        for (text, want) in [
            ("6.5", Some((6.5, false))),
            ("-3", Some((-3.0, false))),
            ("+0.50", Some((0.5, false))),
            (".5", Some((0.5, false))),
            ("5.", Some((5.0, false))),
            ("6,5", Some((6.5, true))),
            ("", None),
            ("-", None),
            (".", None),
            ("1e3", None),
            ("inf", None),
            ("NaN", None),
            ("6.5.1", None),
            ("6.5 ", None),
            ("--1", None),
        ] {
            assert_eq!(parse_real(text), want, "{text:?}");
        }
    }

    #[test]
    fn cjk_numerals() {
        for (text, want) in [
            ("初", Some(1)),
            ("一", Some(1)),
            ("九", Some(9)),
            ("十", Some(10)),
            ("十八", Some(18)),
            ("二十", Some(20)),
            ("二十五", Some(25)),
            ("三十", Some(30)),
            ("四十", None),
            ("九九", None),
            ("", None),
        ] {
            assert_eq!(cjk_number(text), want, "{text:?}");
        }
        assert_eq!(leading_number("１８级"), Some((18, "级")));
        assert_eq!(leading_number("12k"), Some((12, "k")));
        assert_eq!(leading_number("k"), None);
    }
}
