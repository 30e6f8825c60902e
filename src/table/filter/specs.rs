//! The value of each filter, parsed from the text a command line passes.

use super::FilterError;
use crate::game::{PartialDate, Rank, Rules};
use crate::table::row::ResultKind;
use crate::table::GameRow;
use crate::value::Color;
use std::str::FromStr;

/// A range of numbers, both ends included, either end open: `6.5..7.5`,
/// `..7` (at most 7), `6..` (at least 6), `2..=4` (the same as `2..4`), or
/// one number (exactly it).
///
/// ```
/// use sgf_grove::table::Bounds;
/// let komi: Bounds<f64> = "6.5..7.5".parse()?;
/// assert!(komi.contains(6.5) && komi.contains(7.5) && !komi.contains(8.0));
/// let moves: Bounds<u32> = "..50".parse()?;
/// assert!(moves.contains(0) && !moves.contains(51));
/// assert!("7..6".parse::<Bounds<u32>>().is_err());
/// assert!("x".parse::<Bounds<f64>>().is_err());
/// # Ok::<(), sgf_grove::table::FilterError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bounds<T> {
    /// The least value allowed, if any.
    pub min: Option<T>,
    /// The greatest value allowed, if any.
    pub max: Option<T>,
}

impl<T: PartialOrd + Copy> Bounds<T> {
    /// Whether `value` is within.
    pub fn contains(&self, value: T) -> bool {
        self.min.is_none_or(|min| value >= min) && self.max.is_none_or(|max| value <= max)
    }
}

/// Splits `a..b`, `a..=b`, `..b`, `a..` or `a` into its ends; each end is
/// parsed by `one`. The result is `(min, max)`, which must not both be
/// open nor be the wrong way round (checked by the caller, who can
/// compare).
fn split_range<T: Copy>(
    s: &str,
    mut one: impl FnMut(&str) -> Result<T, String>,
) -> Result<(Option<T>, Option<T>), String> {
    let s = s.trim();
    if s.is_empty() {
        return Err("empty".into());
    }
    let Some(at) = s.find("..") else {
        let v = one(s)?;
        return Ok((Some(v), Some(v)));
    };
    let lo = s[..at].trim();
    let hi = s[at + 2..].trim();
    let hi = hi.strip_prefix('=').unwrap_or(hi).trim();
    if lo.is_empty() && hi.is_empty() {
        return Err("a range needs at least one end".into());
    }
    let lo = (!lo.is_empty()).then(|| one(lo)).transpose()?;
    let hi = (!hi.is_empty()).then(|| one(hi)).transpose()?;
    Ok((lo, hi))
}

/// `(min, max)` as bounds, when not the wrong way round.
fn ordered<T: PartialOrd + Copy>((min, max): (Option<T>, Option<T>)) -> Result<Bounds<T>, String> {
    if let (Some(a), Some(b)) = (min, max)
        && a > b
    {
        return Err("the range is empty (its start is after its end)".into());
    }
    Ok(Bounds { min, max })
}

const RANGE_HINT: &str = "expected a number or a range such as `6..7`, `..7`, `6..`";

impl FromStr for Bounds<u32> {
    type Err = FilterError;
    fn from_str(s: &str) -> Result<Self, FilterError> {
        split_range(s, |t| {
            t.parse::<u32>()
                .map_err(|_| format!("`{t}` is no whole number of 0 or more; {RANGE_HINT}"))
        })
        .and_then(ordered)
        .map_err(|why| FilterError::new("range", s, why))
    }
}

impl FromStr for Bounds<f64> {
    type Err = FilterError;
    fn from_str(s: &str) -> Result<Self, FilterError> {
        split_range(s, |t| match t.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(format!("`{t}` is no number; {RANGE_HINT}")),
        })
        .and_then(ordered)
        .map_err(|why| FilterError::new("range", s, why))
    }
}

/// Board sizes, any of which a game may have: `19` (19×19), `19x13` or
/// `19:13` (19 columns, 13 rows), or several joined by commas
/// (`9,13,19`). Sizes go from 1 to 52.
///
/// ```
/// use sgf_grove::table::BoardSizes;
/// let sizes: BoardSizes = "9,19x13".parse()?;
/// assert!(sizes.contains(9, 9) && sizes.contains(19, 13) && !sizes.contains(13, 19));
/// assert!("0".parse::<BoardSizes>().is_err());
/// # Ok::<(), sgf_grove::table::FilterError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardSizes {
    sizes: Vec<(u8, u8)>,
}

impl BoardSizes {
    /// Whether a board of `cols` × `rows` is one of them.
    pub fn contains(&self, cols: u8, rows: u8) -> bool {
        self.sizes.contains(&(cols, rows))
    }
}

impl FromStr for BoardSizes {
    type Err = FilterError;
    fn from_str(s: &str) -> Result<Self, FilterError> {
        let err = |why: String| FilterError::new("size", s, why);
        let side = |t: &str| match t.trim().parse::<u8>() {
            Ok(n @ 1..=52) => Ok(n),
            _ => Err(err(format!(
                "`{}` is no board side from 1 to 52; expected `19`, `19x13` or `9,13,19`",
                t.trim()
            ))),
        };
        let mut sizes = Vec::new();
        for part in s.split(',') {
            let part = part.trim();
            let (cols, rows) = match part.split_once(['x', 'X', ':', '×']) {
                Some((c, r)) => (side(c)?, side(r)?),
                None => {
                    let n = side(part)?;
                    (n, n)
                }
            };
            sizes.push((cols, rows));
        }
        Ok(BoardSizes { sizes })
    }
}

/// A range of ranks, applied to both players: `5d..9d`, `10k..1k`, `1p..`,
/// `..3k`, or one rank (`7d`). Ranks are read as `BR`/`WR` are
/// ([`Rank::parse`]: `5d`, `5 dan`, `P9段`, `18级` …) and compared as
/// [`Rank::number`]s, so every professional rank is above every amateur one
/// (`7d..2p` holds 7d, 8d, 9d, 1p and 2p).
///
/// ```
/// use sgf_grove::table::RankRange;
/// let r: RankRange = "10k..1k".parse()?;
/// assert!(r.contains(-10) && r.contains(-1) && !r.contains(1));
/// assert!("strong".parse::<RankRange>().is_err());
/// # Ok::<(), sgf_grove::table::FilterError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankRange {
    bounds: Bounds<i8>,
}

impl RankRange {
    /// Whether a [`Rank::number`] is within.
    pub fn contains(&self, value: i8) -> bool {
        self.bounds.contains(value)
    }
}

impl FromStr for RankRange {
    type Err = FilterError;
    fn from_str(s: &str) -> Result<Self, FilterError> {
        split_range(s, |t| {
            Rank::parse(t).number().ok_or_else(|| {
                format!(
                    "`{t}` is no kyu, dan or professional rank; expected a range such as \
                     `5d..9d`, `10k..1k`, `1p..`"
                )
            })
        })
        .and_then(ordered)
        .map(|bounds| RankRange { bounds })
        .map_err(|why| FilterError::new("rank", s, why))
    }
}

/// A day as (year, month, day), for comparing; a partial date's first day
/// puts 1 for what it lacks, its last day 12 and 31 (31 is after every
/// day of any month, so comparisons hold).
type Day = (i32, u8, u8);

fn first_day(d: PartialDate) -> Day {
    (d.year, d.month.unwrap_or(1), d.day.unwrap_or(1))
}

fn last_day(d: PartialDate) -> Day {
    (d.year, d.month.unwrap_or(12), d.day.unwrap_or(31))
}

/// A range of dates, both ends included, either open: `2010..2015` (from
/// 1 January 2010 to 31 December 2015), `2019-01-01..2019-06-30`,
/// `2019-03..`, `..1999`, or one date (`2019` is the whole year).
///
/// A game matches when all of its first date (`DT`'s first entry) lies
/// within: a game dated `2019-03` matches `2019-01-01..2019-06-30`, one
/// dated `2019` does not (it may be from December).
///
/// ```
/// use sgf_grove::game::PartialDate;
/// use sgf_grove::table::DateRange;
/// let r: DateRange = "2010..2015".parse()?;
/// let day = |y, m, d| PartialDate::new(y, Some(m), Some(d)).unwrap();
/// assert!(r.contains(day(2010, 1, 1)) && r.contains(day(2015, 12, 31)));
/// assert!(!r.contains(day(2016, 1, 1)));
/// assert!("2019-02-30..".parse::<DateRange>().is_err());
/// # Ok::<(), sgf_grove::table::FilterError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DateRange {
    from: Option<Day>,
    to: Option<Day>,
}

impl DateRange {
    /// Whether all of `date` lies within.
    pub fn contains(&self, date: PartialDate) -> bool {
        self.from.is_none_or(|from| first_day(date) >= from)
            && self.to.is_none_or(|to| last_day(date) <= to)
    }
}

/// `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, a date that exists.
fn iso_date(t: &str) -> Result<PartialDate, String> {
    let bad = || format!("`{t}` is no date; expected `YYYY`, `YYYY-MM` or `YYYY-MM-DD`");
    let mut parts = t.split('-');
    let mut next = |max_len: usize| -> Result<Option<u32>, String> {
        match parts.next() {
            None => Ok(None),
            Some(p)
                if !p.is_empty() && p.len() <= max_len && p.bytes().all(|b| b.is_ascii_digit()) =>
            {
                p.parse().map(Some).map_err(|_| bad())
            }
            Some(_) => Err(bad()),
        }
    };
    let year = next(4)?.ok_or_else(bad)?;
    let month = next(2)?;
    let day = next(2)?;
    if parts.next().is_some() {
        return Err(bad());
    }
    let small = |v: Option<u32>| v.map(|v| v as u8);
    PartialDate::new(year as i32, small(month), small(day))
        .ok_or_else(|| format!("`{t}` is no date that exists"))
}

impl FromStr for DateRange {
    type Err = FilterError;
    fn from_str(s: &str) -> Result<Self, FilterError> {
        let (from, to) =
            split_range(s, iso_date).map_err(|why| FilterError::new("date", s, why))?;
        let (from, to) = (from.map(first_day), to.map(last_day));
        if let (Some(a), Some(b)) = (from, to)
            && a > b
        {
            return Err(FilterError::new(
                "date",
                s,
                "the range is empty (its start is after its end)".into(),
            ));
        }
        Ok(DateRange { from, to })
    }
}

/// Results, any of which a game may have, joined by commas. Each is one of
/// (letters in any case):
///
/// | term | a game whose result is |
/// |---|---|
/// | `B+`, `W+`, `B`, `W`, `black`, `white` | a win by that colour, any way |
/// | `B+R`, `B+Resign` · `B+T`, `B+Time` · `B+F`, `B+Forfeit` | a win by that colour by resignation · on time · by forfeit |
/// | `B+P`, `B+Points` · `B+3.5` | a win by that colour on points · by exactly 3.5 points |
/// | `resign`, `time`, `forfeit`, `points`, `other` | a win by either colour that way ([`ResultKind`]) |
/// | `draw`, `jigo`, `void`, `unknown` | a draw, no result, unknown or unreadable |
/// | `none` | no `RE` at all |
///
/// ```
/// use sgf_grove::table::ResultSpec;
/// assert!("B+R,W+T".parse::<ResultSpec>().is_ok());
/// assert!("draw".parse::<ResultSpec>().is_ok());
/// let err = "B+X".parse::<ResultSpec>().unwrap_err();
/// assert!(err.to_string().contains("B+X"));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ResultSpec {
    terms: Vec<ResultTerm>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct ResultTerm {
    /// `none`: no `RE`.
    absent: bool,
    winner: Option<Color>,
    kind: Option<ResultKind>,
    margin: Option<f64>,
}

impl ResultTerm {
    fn matches(&self, row: &GameRow) -> bool {
        if self.absent {
            return row.result_kind.is_none();
        }
        let Some(kind) = row.result_kind else {
            return false;
        };
        self.winner.is_none_or(|w| row.result_winner == Some(w))
            && self.kind.is_none_or(|k| k == kind)
            && self
                .margin
                .is_none_or(|m| row.result_margin.is_some_and(|r| (r - m).abs() < 1e-9))
    }
}

impl ResultSpec {
    /// Whether the row's result is one of them.
    pub fn matches(&self, row: &GameRow) -> bool {
        self.terms.iter().any(|t| t.matches(row))
    }
}

/// A reason word: `R`, `resign`, … as a kind.
fn reason(word: &str) -> Option<ResultKind> {
    let w = word.to_ascii_lowercase();
    Some(match w.as_str() {
        "r" | "resign" | "resigned" | "resignation" => ResultKind::Resignation,
        "t" | "time" | "timeout" => ResultKind::Time,
        "f" | "forfeit" => ResultKind::Forfeit,
        "p" | "points" | "score" => ResultKind::Points,
        "other" => ResultKind::OtherWin,
        _ => return None,
    })
}

fn result_term(t: &str) -> Result<ResultTerm, String> {
    let none = ResultTerm {
        absent: false,
        winner: None,
        kind: None,
        margin: None,
    };
    let lower = t.to_ascii_lowercase();
    let kind = |kind| {
        Ok(ResultTerm {
            kind: Some(kind),
            ..none
        })
    };
    match lower.as_str() {
        "draw" | "jigo" => return kind(ResultKind::Draw),
        "void" => return kind(ResultKind::Void),
        "unknown" | "?" => return kind(ResultKind::Unknown),
        "none" => {
            return Ok(ResultTerm {
                absent: true,
                ..none
            })
        }
        _ => {}
    }
    let color = |c: &str| match c.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::Black),
        "w" | "white" => Some(Color::White),
        _ => None,
    };
    let (who, why) = match t.split_once('+') {
        Some((who, why)) => (who.trim(), why.trim()),
        None => (t, ""),
    };
    if let Some(winner) = color(who) {
        let mut term = ResultTerm {
            winner: Some(winner),
            ..none
        };
        if !why.is_empty() {
            if let Some(k) = reason(why) {
                term.kind = Some(k);
            } else if let Some(m) = why.parse::<f64>().ok().filter(|m| m.is_finite()) {
                term.kind = Some(ResultKind::Points);
                term.margin = Some(m);
            } else {
                return Err(format!(
                    "`{why}` is no way to win; expected R, T, F, P or a margin such as 3.5"
                ));
            }
        }
        return Ok(term);
    }
    if !t.contains('+')
        && let Some(k) = reason(t).filter(|_| t.len() > 1)
    {
        return kind(k);
    }
    Err(format!(
        "`{t}` is no result; expected `B+`, `W+R`, `B+T`, `W+3.5`, `resign`, `time`, `draw`, \
         `void`, `unknown` or `none`, joined by commas"
    ))
}

impl FromStr for ResultSpec {
    type Err = FilterError;
    fn from_str(s: &str) -> Result<Self, FilterError> {
        let terms = s
            .split(',')
            .map(|t| result_term(t.trim()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|why| FilterError::new("result", s, why))?;
        Ok(ResultSpec { terms })
    }
}

/// Rule sets, any of which a game may have, joined by commas: names as
/// [`Rules::parse`] reads them (`japanese`, `Chinese`, `aga`, `tt`, …);
/// a game's `RU` is read the same way and compared.
///
/// ```
/// use sgf_grove::table::RuleSet;
/// let rules: RuleSet = "japanese,chinese".parse()?;
/// assert!(rules.contains("Japanese") && rules.contains("China") && !rules.contains("AGA"));
/// # Ok::<(), sgf_grove::table::FilterError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleSet {
    rules: Vec<Rules>,
}

impl RuleSet {
    /// Whether `RU` text names one of them.
    pub fn contains(&self, text: &str) -> bool {
        let rules = Rules::parse(text);
        self.rules
            .iter()
            .any(|r| r.as_str().eq_ignore_ascii_case(rules.as_str()))
    }
}

impl FromStr for RuleSet {
    type Err = FilterError;
    fn from_str(s: &str) -> Result<Self, FilterError> {
        let mut rules = Vec::new();
        for part in s.split(',') {
            let part = part.trim();
            if part.is_empty() {
                return Err(FilterError::new(
                    "rules",
                    s,
                    "empty rule name; expected names such as `japanese,chinese`".into(),
                ));
            }
            rules.push(Rules::parse(part));
        }
        Ok(RuleSet { rules })
    }
}

/// Text to look for, ignoring case (Unicode lower case), anywhere in a
/// name or event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextMatch {
    needle: String,
}

impl TextMatch {
    /// Whether `hay` holds the text, ignoring case.
    pub fn is_in(&self, hay: &str) -> bool {
        hay.to_lowercase().contains(&self.needle)
    }
}

impl FromStr for TextMatch {
    type Err = FilterError;
    fn from_str(s: &str) -> Result<Self, FilterError> {
        let needle = s.trim().to_lowercase();
        if needle.is_empty() {
            return Err(FilterError::new("text", s, "empty text".into()));
        }
        Ok(TextMatch { needle })
    }
}

/// A property identifier for `has`/`lacks`: letters, upper-cased
/// (`lb` is `LB`).
pub(super) fn ident(s: &str) -> Result<String, String> {
    let t = s.trim();
    if t.is_empty() || t.len() > 32 || !t.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(format!(
            "`{t}` is no property identifier; expected letters such as `LB` or `C`"
        ));
    }
    Ok(t.to_ascii_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_parse_with_open_and_closed_ends() {
        let b: Bounds<f64> = "6.5..7.5".parse().unwrap();
        assert_eq!((b.min, b.max), (Some(6.5), Some(7.5)));
        let b: Bounds<f64> = "..7".parse().unwrap();
        assert_eq!((b.min, b.max), (None, Some(7.0)));
        let b: Bounds<f64> = "6..".parse().unwrap();
        assert_eq!((b.min, b.max), (Some(6.0), None));
        let b: Bounds<f64> = "-3..-0.5".parse().unwrap();
        assert_eq!((b.min, b.max), (Some(-3.0), Some(-0.5)));
        let b: Bounds<u32> = "2..=4".parse().unwrap();
        assert_eq!((b.min, b.max), (Some(2), Some(4)));
        let b: Bounds<u32> = " 3 ".parse().unwrap();
        assert_eq!((b.min, b.max), (Some(3), Some(3)));
        assert!(b.contains(3) && !b.contains(2) && !b.contains(4));
        for bad in [
            "", "..", "a..b", "1..x", "5..4", "-1", "1.5", "nan", "inf..",
        ] {
            assert!(bad.parse::<Bounds<u32>>().is_err(), "{bad:?}");
        }
        for bad in ["", "..", "nan", "inf", "7.5..6.5", "6,5"] {
            assert!(bad.parse::<Bounds<f64>>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn date_ranges_are_whole_days() {
        let day = |y, m, d| PartialDate::new(y, Some(m), Some(d)).unwrap();
        let r: DateRange = "2019-01-01..2019-06-30".parse().unwrap();
        assert!(r.contains(day(2019, 1, 1)));
        assert!(r.contains(day(2019, 6, 30)));
        assert!(!r.contains(day(2019, 7, 1)));
        assert!(!r.contains(day(2018, 12, 31)));
        assert!(r.contains(PartialDate::new(2019, Some(3), None).unwrap()));
        assert!(!r.contains(PartialDate::new(2019, None, None).unwrap()));
        let r: DateRange = "2019".parse().unwrap();
        assert!(r.contains(day(2019, 12, 31)) && !r.contains(day(2020, 1, 1)));
        let r: DateRange = "..1999".parse().unwrap();
        assert!(r.contains(day(1, 1, 1)) && !r.contains(day(2000, 1, 1)));
        for bad in [
            "2019-13",
            "2019-02-29",
            "19x",
            "2020..2019",
            "2019/01/01",
            "..",
            "2019-1-1-1",
        ] {
            assert!(bad.parse::<DateRange>().is_err(), "{bad:?}");
        }
        assert!("2020-02-29".parse::<DateRange>().is_ok());
    }

    #[test]
    fn rank_ranges() {
        let r: RankRange = "5d..9d".parse().unwrap();
        assert!(r.contains(5) && r.contains(9) && !r.contains(4) && !r.contains(11));
        let r: RankRange = "1p..".parse().unwrap();
        assert!(r.contains(11) && r.contains(19) && !r.contains(9));
        let r: RankRange = "7d..2p".parse().unwrap();
        assert!(r.contains(9) && r.contains(12) && !r.contains(13));
        assert!("9d..5d".parse::<RankRange>().is_err());
        assert!("NR..".parse::<RankRange>().is_err());
        assert!("1500..".parse::<RankRange>().is_err());
    }

    #[test]
    fn result_terms() {
        assert!(result_term("B+R").unwrap().kind == Some(ResultKind::Resignation));
        assert!(result_term("w+time").unwrap().winner == Some(Color::White));
        let t = result_term("W+3.5").unwrap();
        assert_eq!((t.kind, t.margin), (Some(ResultKind::Points), Some(3.5)));
        assert_eq!(result_term("B+").unwrap().kind, None);
        assert_eq!(result_term("resign").unwrap().winner, None);
        assert!(result_term("none").unwrap().absent);
        for bad in ["", "X+R", "B+X", "R", "+R", "won"] {
            assert!(result_term(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn idents() {
        assert_eq!(ident("lb").unwrap(), "LB");
        assert_eq!(ident(" C ").unwrap(), "C");
        assert!(ident("L1").is_err());
        assert!(ident("").is_err());
    }
}
