//! The dates a game was played on (`DT`).

use super::helpers::leading_digits;
use super::helpers::simple_text;
use crate::error::{Error, Result};
use crate::value::{FromValue, ValueContext, ValueType};
use std::fmt;

/// The property this file reads, named in its errors.
const IDENT: &str = "DT";

/// A date that may lack its day, or its month and day: `1996`, `1996-05`,
/// `1996-05-06`. Always valid (Gregorian calendar, leap years counted).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PartialDate {
    /// The year, 1 to 9999.
    pub year: i32,
    /// The month, 1 to 12.
    pub month: Option<u8>,
    /// The day of the month (only with a month).
    pub day: Option<u8>,
}

/// The number of days in `month` of `year`.
fn days_in_month(year: i32, month: u8) -> u8 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        _ => 31,
    }
}

impl PartialDate {
    /// A date, when valid: year 1–9999, month 1–12, day within the month
    /// (29 February only in leap years), and no day without a month.
    ///
    /// ```
    /// use sgf_grove::game::PartialDate;
    /// assert!(PartialDate::new(2000, Some(2), Some(29)).is_some());
    /// assert!(PartialDate::new(1900, Some(2), Some(29)).is_none());
    /// assert!(PartialDate::new(1996, None, Some(3)).is_none());
    /// ```
    pub fn new(year: i32, month: Option<u8>, day: Option<u8>) -> Option<PartialDate> {
        if !(1..=9999).contains(&year) {
            return None;
        }
        match (month, day) {
            (None, Some(_)) => return None,
            (Some(m), _) if !(1..=12).contains(&m) => return None,
            (Some(m), Some(d)) if d == 0 || d > days_in_month(year, m) => return None,
            _ => {}
        }
        Some(PartialDate { year, month, day })
    }

    fn from_parts(year: u32, month: Option<u32>, day: Option<u32>) -> Option<PartialDate> {
        let small = |v: Option<u32>| v.map(u8::try_from).transpose().ok();
        PartialDate::new(i32::try_from(year).ok()?, small(month)?, small(day)?)
    }
}

/// ISO form: `1996`, `1996-05`, `1996-05-06`.
impl fmt::Display for PartialDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}", self.year)?;
        if let Some(m) = self.month {
            write!(f, "-{m:02}")?;
        }
        if let Some(d) = self.day {
            write!(f, "-{d:02}")?;
        }
        Ok(())
    }
}

/// The dates a game was played on (`DT`, SimpleText).
///
/// # FF\[4\] form
///
/// ISO dates `YYYY-MM-DD`, or partial `YYYY-MM` and `YYYY`, separated by
/// commas. After a full date a later entry may be shortened to `MM-DD` or
/// `DD`, after a `YYYY-MM` to `MM`:
///
/// | text | dates |
/// |---|---|
/// | `1996-05-06,07,08` | 6, 7 and 8 May 1996 |
/// | `1996-05,06` | May and June 1996 |
/// | `1996,1997` | 1996 and 1997 |
/// | `1996-12-27,28,1997-01-03,04` | 27, 28 December 1996, 3, 4 January 1997 |
/// | `1996-05-06,06-01` | 6 May and 1 June 1996 |
///
/// # Lenient forms
///
/// Read with [`GameDates::non_standard`] set: one-digit months and days
/// (`2000-9-4`), spaces after commas or around the text, an empty entry
/// (`1996-05-06,`), `/` or `.` instead of `-` with the year first
/// (`2003/01/05`), the year last (`19.11.2002` day first; `12/31/2003`,
/// `31-12-2003` when the order of day and month is clear from a number above
/// 12, an error when it is not), `2019年10月14日`, and English month names
/// (`August 9, 2001`, `29th September 2012`, `Sep 2012`), with a range or
/// list of days of one month (`April 14-15, 1957` gives 14 and 15 April
/// 1957, as `1957-04-14,15` does; `14, 16 April 1957`). A time of day after
/// the date (`2019-10-14 18:34:05`, `2008-05-26T12:00`,
/// `2001/10/11 21:22:51 UT`) is dropped with [`GameDates::time_of_day`] set.
///
/// In the shared corpus, 47,630 of the 47,721 `DT` values are a single
/// `YYYY-MM-DD`; all the others are read here too, except `DT[]` (twice),
/// which [`GameInfo::dates`](super::GameInfo::dates) counts as absent.
///
/// ```
/// use sgf_grove::game::GameDates;
/// let d = GameDates::parse("1996-12-27,28,1997-01-03,04")?;
/// let text: Vec<String> = d.dates.iter().map(|d| d.to_string()).collect();
/// assert_eq!(text, ["1996-12-27", "1996-12-28", "1997-01-03", "1997-01-04"]);
/// assert!(!d.non_standard && !d.time_of_day);
/// let d = GameDates::parse("2019-10-14 18:34:05")?;
/// assert_eq!((d.first().to_string(), d.time_of_day), ("2019-10-14".to_string(), true));
/// assert!(GameDates::parse("1996-02-30").is_err());
/// # Ok::<(), sgf_grove::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameDates {
    /// The dates, in the order written; never empty.
    pub dates: Vec<PartialDate>,
    /// Whether a time of day followed the date and was dropped.
    pub time_of_day: bool,
    /// Whether the text was not in the FF\[4\] form (see the lenient forms).
    pub non_standard: bool,
}

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];
const WEEKDAYS: [&str; 7] = [
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];

impl GameDates {
    /// Reads a date list (see above).
    ///
    /// # Errors
    ///
    /// When the text is empty, in no form known here, ambiguous, or names a
    /// date that does not exist; the error keeps the text.
    pub fn parse(s: &str) -> Result<GameDates> {
        let t = s.trim();
        if t.is_empty() {
            return Err(Error::game_info(IDENT, "empty", s));
        }
        let mut dates = GameDates {
            dates: Vec::new(),
            time_of_day: false,
            non_standard: t.len() != s.len(),
        };
        let (date, time) = split_time(t);
        if time {
            dates.time_of_day = true;
        }
        let mut lenient = false;
        let parsed = iso_list(date, '-', &mut lenient)
            .or_else(|e| {
                lenient = true;
                other_forms(date).ok_or(e)
            })
            .map_err(|reason| Error::game_info(IDENT, reason, s))?;
        dates.dates = parsed;
        dates.non_standard |= lenient;
        Ok(dates)
    }

    /// The first date.
    pub fn first(&self) -> PartialDate {
        self.dates[0]
    }

    /// The last date.
    pub fn last(&self) -> PartialDate {
        self.dates[self.dates.len() - 1]
    }
}

/// Splits a time of day off a date: at the first space or `T` (after a digit)
/// followed by a digit and holding a `:`.
fn split_time(t: &str) -> (&str, bool) {
    for (i, c) in t.char_indices() {
        let at_t = c == 'T' && t[..i].ends_with(|p: char| p.is_ascii_digit());
        if c == ' ' || at_t {
            let rest = t[i + 1..].trim_start();
            if rest.starts_with(|d: char| d.is_ascii_digit()) && rest.contains(':') {
                return (t[..i].trim_end(), true);
            }
            if at_t {
                return (t, false);
            }
        }
    }
    (t, false)
}

/// Reads an FF\[4\] date list with `sep` between year, month and day; sets
/// `lenient` for one-digit fields, spaces and empty entries.
fn iso_list(t: &str, sep: char, lenient: &mut bool) -> Result<Vec<PartialDate>, &'static str> {
    let mut out = Vec::new();
    let mut prev: Option<PartialDate> = None;
    for entry in t.split(',') {
        let e = entry.trim();
        if e.len() != entry.len() {
            *lenient = true;
        }
        if e.is_empty() {
            *lenient = true;
            continue;
        }
        let mut parts = [0u32; 3];
        let mut lens = [0usize; 3];
        let mut n = 0;
        for p in e.split(sep) {
            if n == 3 {
                return Err("too many date fields");
            }
            if p.is_empty() || p.len() > 4 || !p.bytes().all(|b| b.is_ascii_digit()) {
                return Err("not a date");
            }
            parts[n] = p.parse().map_err(|_| "not a date")?;
            lens[n] = p.len();
            n += 1;
        }
        let date = if lens[0] == 4 {
            if lens[1..n].iter().any(|&l| l > 2) {
                return Err("not a date");
            }
            if lens[1..n].contains(&1) {
                *lenient = true;
            }
            PartialDate::from_parts(
                parts[0],
                (n > 1).then_some(parts[1]),
                (n > 2).then_some(parts[2]),
            )
        } else {
            let prev = prev.ok_or("a shortened date needs a full date before it")?;
            if lens[..n].iter().any(|&l| l > 2) {
                return Err("not a date");
            }
            if lens[..n].contains(&1) {
                *lenient = true;
            }
            let year = prev.year as u32;
            let month = prev.month.map(u32::from);
            match (month, prev.day, n) {
                (Some(m), Some(_), 1) => PartialDate::from_parts(year, Some(m), Some(parts[0])),
                (Some(_), Some(_), 2) => {
                    PartialDate::from_parts(year, Some(parts[0]), Some(parts[1]))
                }
                (Some(_), None, 1) => PartialDate::from_parts(year, Some(parts[0]), None),
                _ => return Err("a shortened date does not fit the date before it"),
            }
        }
        .ok_or("no such date")?;
        out.push(date);
        prev = Some(date);
    }
    if out.is_empty() {
        return Err("no date");
    }
    Ok(out)
}

/// The non-FF\[4\] forms (see [`GameDates`]), one date or a list in the
/// `YYYY/MM/DD` form.
fn other_forms(t: &str) -> Option<Vec<PartialDate>> {
    let mut ignored = false;
    // Year first with `/` or `.`.
    for sep in ['/', '.'] {
        if t.contains(sep)
            && let Ok(list) = iso_list(t, sep, &mut ignored)
        {
            return Some(list);
        }
    }
    year_last(t)
        .or_else(|| cjk_date(t))
        .map(|d| vec![d])
        .or_else(|| english_dates(t))
}

/// `DD.MM.YYYY`; `MM/DD/YYYY`, `DD/MM/YYYY` and the same with `-` when the
/// order is clear.
fn year_last(t: &str) -> Option<PartialDate> {
    let sep = ['.', '/', '-'].into_iter().find(|&c| t.contains(c))?;
    let parts: Vec<&str> = t.split(sep).collect();
    let [a, b, y] = parts[..] else {
        return None;
    };
    let num = |p: &str, max_len: usize| {
        (!p.is_empty() && p.len() <= max_len && p.bytes().all(|b| b.is_ascii_digit()))
            .then(|| p.parse::<u32>().ok())
            .flatten()
    };
    let (a, b) = (num(a, 2)?, num(b, 2)?);
    if y.len() != 4 {
        return None;
    }
    let y = num(y, 4)?;
    let (day, month) = if sep == '.' || a == b || (a > 12 && b <= 12) {
        (a, b)
    } else if b > 12 && a <= 12 {
        (b, a)
    } else {
        return None;
    };
    PartialDate::from_parts(y, Some(month), Some(day))
}

/// `2019年10月14日`, `2019年10月`, `2019年`.
fn cjk_date(t: &str) -> Option<PartialDate> {
    let (year, rest) = t.split_once('年')?;
    let num = |p: &str| {
        let p = p.trim();
        (!p.is_empty() && p.len() <= 4 && p.bytes().all(|b| b.is_ascii_digit()))
            .then(|| p.parse::<u32>().ok())
            .flatten()
    };
    let year = num(year)?;
    if year < 1000 {
        return None;
    }
    let rest = rest.trim();
    if rest.is_empty() {
        return PartialDate::from_parts(year, None, None);
    }
    let (month, rest) = rest.split_once('月')?;
    let month = num(month)?;
    let rest = rest.trim();
    if rest.is_empty() {
        return PartialDate::from_parts(year, Some(month), None);
    }
    let day = num(rest.strip_suffix('日')?)?;
    PartialDate::from_parts(year, Some(month), Some(day))
}

/// A day of the month as written in English text: `9`, `09`, `29th`.
fn english_day(token: &str) -> Option<u32> {
    let (digits, suffix) = leading_digits(token);
    if digits.is_empty()
        || digits.len() > 2
        || !["", "st", "nd", "rd", "th"].contains(&&*suffix.to_ascii_lowercase())
    {
        return None;
    }
    digits.parse().ok()
}

/// `August 9, 2001`, `29th September 2012`, `9 Aug 2001`, `Sep 2012`,
/// `Fri, 3 May 2002`, and days of one month: a range (`April 14-15, 1957`,
/// `14 - 16 April 1957`, `14 to 16 April 1957`) or a list (`14, 15 April
/// 1957`, `April 14 and 16, 1957`), each day of a range listed.
fn english_dates(t: &str) -> Option<Vec<PartialDate>> {
    let (mut year, mut month) = (None, None);
    let mut days: Vec<u32> = Vec::new();
    // After `-` or `to`: the next day ends a range.
    let mut range_open = false;
    // The days from the last one listed to `to`, that one left out.
    let extend = |days: &mut Vec<u32>, to: u32| -> Option<()> {
        let from = *days.last()?;
        if to <= from {
            return None;
        }
        days.extend(from + 1..=to);
        Some(())
    };
    for token in t
        .split(|c: char| c.is_whitespace() || c == ',' || c == '.')
        .filter(|w| !w.is_empty())
    {
        let lower = token.to_ascii_lowercase();
        if token.len() == 4 && token.bytes().all(|b| b.is_ascii_digit()) {
            if year.replace(token.parse::<u32>().ok()?).is_some() {
                return None;
            }
        } else if token.starts_with(|c: char| c.is_ascii_digit()) {
            match token.split_once(['-', '\u{2013}']) {
                Some((first, last)) if !range_open => {
                    days.push(english_day(first)?);
                    extend(&mut days, english_day(last)?)?;
                }
                Some(_) => return None,
                None if range_open => {
                    extend(&mut days, english_day(token)?)?;
                    range_open = false;
                }
                None => days.push(english_day(token)?),
            }
        } else if matches!(&*lower, "-" | "\u{2013}" | "to") {
            if days.is_empty() || range_open {
                return None;
            }
            range_open = true;
        } else if let Some(m) = MONTHS.iter().position(|m| {
            lower.len() >= 3 && (m.starts_with(&lower) || (lower == "sept" && *m == "september"))
        }) {
            if month.replace(m as u32 + 1).is_some() {
                return None;
            }
        } else if matches!(&*lower, "of" | "and" | "&")
            || WEEKDAYS
                .iter()
                .any(|w| lower.len() >= 3 && w.starts_with(&lower))
        {
            continue;
        } else {
            return None;
        }
    }
    if range_open {
        return None;
    }
    let (year, month) = (year?, month?);
    if days.is_empty() {
        return Some(vec![PartialDate::from_parts(year, Some(month), None)?]);
    }
    // A list goes forward: a day written twice or out of order is no date
    // list known here.
    if days.windows(2).any(|w| w[1] <= w[0]) {
        return None;
    }
    days.into_iter()
        .map(|d| PartialDate::from_parts(year, Some(month), Some(d)))
        .collect()
}

/// `DT` read from a node: decoded as SimpleText in the game's charset, then
/// [`GameDates::parse`].
///
/// ```
/// use sgf_grove::game::GameDates;
/// use sgf_grove::ErrorKind;
/// let doc = sgf_grove::parse(b"(;DT[1996-05-06,07])(;DT[1996-02-30])")?;
/// let mut games = doc.games();
/// let dates = games.next().unwrap().root().get::<GameDates>("DT")?.unwrap();
/// assert_eq!(dates.last().to_string(), "1996-05-07");
/// let err = games.next().unwrap().root().get::<GameDates>("DT").unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::InvalidGameInfo { ident: "DT" });
/// assert_eq!((err.reason(), err.line(), err.column()), (Some("no such date"), 1, 26));
/// # Ok::<(), sgf_grove::Error>(())
/// ```
///
/// # Errors
///
/// As [`GameDates::parse`], at the value's position.
impl<'a> FromValue<'a> for GameDates {
    const TYPE: ValueType = ValueType::SimpleText;

    fn from_value(raw: &'a [u8], ctx: &ValueContext<'a>) -> Option<Self> {
        Self::try_from_value(raw, ctx).ok()
    }

    fn try_from_value(raw: &'a [u8], ctx: &ValueContext<'a>) -> Result<Self> {
        GameDates::parse(simple_text(raw, ctx))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    fn date(year: i32, month: Option<u8>, day: Option<u8>) -> PartialDate {
        PartialDate::new(year, month, day).expect("valid test date")
    }

    fn ymd(year: i32, month: u8, day: u8) -> PartialDate {
        date(year, Some(month), Some(day))
    }

    #[test]
    fn english_month_names_with_day_ranges_read_as_the_iso_form() {
        for (text, iso) in [
            ("April 14-15, 1957", "1957-04-14,15"),
            ("14-15 April 1957", "1957-04-14,15"),
            ("14 - 16 April 1957", "1957-04-14,15,16"),
            ("April 14 to 16, 1957", "1957-04-14,15,16"),
            ("14, 16 April 1957", "1957-04-14,16"),
            ("April 14 and 16, 1957", "1957-04-14,16"),
            ("14 April 1957", "1957-04-14"),
            ("Apr 14, 1957", "1957-04-14"),
            ("April 1957", "1957-04"),
            ("Sunday, 14th-15th April 1957", "1957-04-14,15"),
            ("April 14\u{2013}15, 1957", "1957-04-14,15"),
        ] {
            let read = GameDates::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            let want = GameDates::parse(iso).unwrap();
            assert_eq!(read.dates, want.dates, "{text}");
            assert!(read.non_standard, "{text}");
        }
        // A range backwards, a day that does not exist, two months, a
        // range left open: errors naming the value.
        for text in [
            "April 15-14, 1957",
            "April 30-31, 1957",
            "April 30 - May 1, 1957",
            "April 14 -, 1957",
            "April 14, 14, 1957",
        ] {
            let err = GameDates::parse(text).unwrap_err();
            assert_eq!(err.value_text(), Some(text), "{text}");
        }
    }

    #[test]
    fn dates_ff4() {
        for (text, want) in [
            ("1996-05-06", vec![ymd(1996, 5, 6)]),
            ("1996-05", vec![date(1996, Some(5), None)]),
            ("1996", vec![date(1996, None, None)]),
            (
                "1996-05-06,07,08",
                vec![ymd(1996, 5, 6), ymd(1996, 5, 7), ymd(1996, 5, 8)],
            ),
            (
                "1996-05,06",
                vec![date(1996, Some(5), None), date(1996, Some(6), None)],
            ),
            (
                "1996,1997",
                vec![date(1996, None, None), date(1997, None, None)],
            ),
            (
                "1996-12-27,28,1997-01-03,04",
                vec![
                    ymd(1996, 12, 27),
                    ymd(1996, 12, 28),
                    ymd(1997, 1, 3),
                    ymd(1997, 1, 4),
                ],
            ),
            (
                "1997-05-05,1997-05-06",
                vec![ymd(1997, 5, 5), ymd(1997, 5, 6)],
            ),
            ("1996-05-06,06-01", vec![ymd(1996, 5, 6), ymd(1996, 6, 1)]),
            ("1988-11-22,23", vec![ymd(1988, 11, 22), ymd(1988, 11, 23)]),
            (
                "1996-05-06,1996-06",
                vec![ymd(1996, 5, 6), date(1996, Some(6), None)],
            ),
            ("2000-02-29", vec![ymd(2000, 2, 29)]),
            ("2004-02-29", vec![ymd(2004, 2, 29)]),
            ("1846-09-11", vec![ymd(1846, 9, 11)]),
            ("0800", vec![date(800, None, None)]),
            // Real values from the corpus.
            ("2019-02-19", vec![ymd(2019, 2, 19)]),
            (
                "2003-11-05,2004-03-04,2004-03-31",
                vec![ymd(2003, 11, 5), ymd(2004, 3, 4), ymd(2004, 3, 31)],
            ),
            ("2002-10-23,24", vec![ymd(2002, 10, 23), ymd(2002, 10, 24)]),
        ] {
            let d = GameDates::parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
            assert_eq!(d.dates, want, "{text:?}");
            assert!(!d.non_standard && !d.time_of_day, "{text:?}");
            assert_eq!(d.first(), want[0]);
            assert_eq!(d.last(), want[want.len() - 1]);
        }
    }

    #[test]
    fn dates_lenient() {
        // (text, dates, time_of_day)
        for (text, want, time) in [
            ("2000-9-4", vec![ymd(2000, 9, 4)], false),
            (
                "2000-9-14,2000-9-21",
                vec![ymd(2000, 9, 14), ymd(2000, 9, 21)],
                false,
            ),
            (
                "1996-05-06,7",
                vec![ymd(1996, 5, 6), ymd(1996, 5, 7)],
                false,
            ),
            (" 1996-05-06 ", vec![ymd(1996, 5, 6)], false),
            (
                "1996-05-06, 07",
                vec![ymd(1996, 5, 6), ymd(1996, 5, 7)],
                false,
            ),
            ("1996-05-06,", vec![ymd(1996, 5, 6)], false),
            ("2019-10-14 18:34:05", vec![ymd(2019, 10, 14)], true),
            ("2008-05-26T12:00", vec![ymd(2008, 5, 26)], true),
            ("2008-05-26T12:00:00Z", vec![ymd(2008, 5, 26)], true),
            ("2004-10-27 16:01:54", vec![ymd(2004, 10, 27)], true),
            ("2001/10/11 21:22:51 UT", vec![ymd(2001, 10, 11)], true),
            ("2001/08/25 13:07:29", vec![ymd(2001, 8, 25)], true),
            ("2003/01/05", vec![ymd(2003, 1, 5)], false),
            ("2003.01.05", vec![ymd(2003, 1, 5)], false),
            (
                "2003/01/05,06",
                vec![ymd(2003, 1, 5), ymd(2003, 1, 6)],
                false,
            ),
            ("01.08.2001", vec![ymd(2001, 8, 1)], false),
            ("19.11.2002", vec![ymd(2002, 11, 19)], false),
            ("29.11.2012", vec![ymd(2012, 11, 29)], false),
            ("9-09-2000", vec![ymd(2000, 9, 9)], false),
            ("12/31/2003", vec![ymd(2003, 12, 31)], false),
            ("31/12/2003", vec![ymd(2003, 12, 31)], false),
            ("31-12-2003", vec![ymd(2003, 12, 31)], false),
            ("August 9, 2001", vec![ymd(2001, 8, 9)], false),
            ("August 1, 2001", vec![ymd(2001, 8, 1)], false),
            ("29th September 2012", vec![ymd(2012, 9, 29)], false),
            ("1st of May 2002", vec![ymd(2002, 5, 1)], false),
            ("Fri, 3 May 2002", vec![ymd(2002, 5, 3)], false),
            ("Sept 2012", vec![date(2012, Some(9), None)], false),
            ("Sep 3 2012", vec![ymd(2012, 9, 3)], false),
            ("2019年10月14日", vec![ymd(2019, 10, 14)], false),
            ("2019年10月", vec![date(2019, Some(10), None)], false),
            ("2019年", vec![date(2019, None, None)], false),
        ] {
            let d = GameDates::parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
            assert_eq!(d.dates, want, "{text:?}");
            assert_eq!(d.time_of_day, time, "{text:?}");
            // An ISO date with a time of day is standard apart from the
            // time; every other form here is not.
            let iso_with_time = matches!(
                text,
                "2019-10-14 18:34:05"
                    | "2008-05-26T12:00"
                    | "2008-05-26T12:00:00Z"
                    | "2004-10-27 16:01:54"
            );
            assert_eq!(d.non_standard, !iso_with_time, "{text:?}");
        }
    }

    #[test]
    fn dates_invalid() {
        for text in [
            "",
            "   ",
            "1996-02-30",
            "1900-02-29",
            "2001-02-29",
            "1996-13-01",
            "1996-00",
            "1996-05-00",
            "1996-04-31",
            "0000",
            "0000-00-00",
            "96-05-06",
            "05,1996",
            "1996,05",
            "1996-05,06-07",
            "1996-05-06,07-08-09",
            "1996-05-06-07",
            "1996-005-06",
            "19960506",
            "05/06/2003",
            "5.13.2003",
            "1996-05-06 morning",
            "unknown",
            "August 2001 2002",
            "Smarch 3, 2001",
            "2019年13月",
            "1996-05-6x",
        ] {
            let err = GameDates::parse(text).unwrap_err();
            assert_eq!(err.value_text(), Some(text), "{text:?}");
            assert_eq!(err.kind(), ErrorKind::InvalidGameInfo { ident: "DT" });
            assert!(err.reason().is_some() && !err.has_position());
        }
    }

    #[test]
    fn date_validation_and_display() {
        assert!(PartialDate::new(2000, Some(2), Some(29)).is_some());
        assert!(PartialDate::new(2100, Some(2), Some(29)).is_none());
        assert!(PartialDate::new(2024, Some(2), Some(29)).is_some());
        assert!(PartialDate::new(2023, Some(2), Some(29)).is_none());
        assert!(PartialDate::new(2023, Some(12), Some(31)).is_some());
        assert!(PartialDate::new(2023, Some(11), Some(31)).is_none());
        assert!(PartialDate::new(0, None, None).is_none());
        assert!(PartialDate::new(10000, None, None).is_none());
        assert!(PartialDate::new(2000, None, Some(1)).is_none());
        assert_eq!(ymd(1996, 5, 6).to_string(), "1996-05-06");
        assert_eq!(date(800, Some(1), None).to_string(), "0800-01");
        assert!(ymd(1996, 5, 6) < ymd(1996, 5, 7));
        assert!(date(1996, None, None) < date(1996, Some(1), None));
    }
}
