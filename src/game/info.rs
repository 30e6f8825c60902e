//! Game-information values: pure parsers on decoded text, and [`GameInfo`].

use crate::value::Color;
use std::borrow::Cow;
use std::fmt;

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

/// A game-info value that could not be read, with the text as it was given.
///
/// Returned by the parsers whose result has no natural "unknown" case
/// ([`Komi::parse`], [`GameDates::parse`], [`TimeLimit::parse`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InvalidValue {
    /// The text that was given, unchanged.
    pub raw: String,
    /// Why it was refused, in a few words (`"not a number"`).
    pub reason: &'static str,
}

impl InvalidValue {
    fn new(raw: &str, reason: &'static str) -> InvalidValue {
        InvalidValue {
            raw: raw.to_owned(),
            reason,
        }
    }
}

impl fmt::Display for InvalidValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid value {:?}: {}", self.raw, self.reason)
    }
}

impl std::error::Error for InvalidValue {}

// ---------------------------------------------------------------------------
// Small text helpers
// ---------------------------------------------------------------------------

/// `s` without the prefix `prefix`, ASCII letters compared case-insensitively.
fn strip_prefix_ci<'s>(s: &'s str, prefix: &str) -> Option<&'s str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &s[prefix.len()..])
}

/// Whether `s` contains `needle`, ASCII letters compared case-insensitively.
fn contains_ci(s: &str, needle: &str) -> bool {
    s.as_bytes()
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// Reads an SGF Real: optional sign, digits, optional `.` and digits (at
/// least one digit in all). Also accepts a `,` as the decimal separator,
/// reported by the flag. No exponents, no `inf`/`nan`.
fn parse_real(s: &str) -> Option<(f64, bool)> {
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
fn leading_digits(s: &str) -> (&str, &str) {
    let end = s
        .bytes()
        .position(|b| !b.is_ascii_digit())
        .unwrap_or(s.len());
    s.split_at(end)
}

/// The value of a CJK numeral from 1 to 39 (`一`, `九`, `十八`, `二十五`),
/// or of `初` (first: `初段` is 1 dan).
fn cjk_number(s: &str) -> Option<u32> {
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
fn leading_number(s: &str) -> Option<(u32, &str)> {
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

// ---------------------------------------------------------------------------
// Komi
// ---------------------------------------------------------------------------

/// How a komi value was written, as [`Komi::scale`] infers it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KomiScale {
    /// In points, as FF\[4\] says (`KM[6.5]`, `KM[-100.00]`, `KM[0]`).
    #[default]
    Points,
    /// Points × 100, as the Fox server writes them for territory-scoring
    /// games (`KM[650]` = 6.5 points).
    Times100,
    /// Stones × 100 (that is, points × 50), as the Fox server writes them for
    /// Chinese-rules games, where komi is counted in stones, 1 stone = 2
    /// points (`KM[375]` = 3¾ stones = 7.5 points).
    Times50,
}

impl KomiScale {
    /// What a value written in this scale is divided by to give points.
    pub fn divisor(self) -> f64 {
        match self {
            KomiScale::Points => 1.0,
            KomiScale::Times100 => 100.0,
            KomiScale::Times50 => 50.0,
        }
    }
}

/// Komi (`KM`, a Real): the value as written, as a number, and normalised
/// for the Fox server's scaled values.
///
/// # The Fox rule
///
/// The Fox server (foxwq) writes komi multiplied: in its records
/// (`../shared/corpus/fox-featurecat`, 28,430 files) `KM` takes exactly these
/// values: `0` (22,346), `650` (3,709), `750` (1,056), `375` (535), `325`
/// (297), `550` (258), `450` (200), `275` (19), `225` (2). Every value ending
/// in 50 comes with `RU[Japanese]` and is points × 100 (`650` = 6.5). Every
/// value ending in 25 or 75 comes with `RU[Chinese]` and is komi in *stones*
/// × 100 (`375` = 3¾ stones), which Chinese rules count at 2 points a stone:
/// `375` = 7.5 points, `325` = 6.5, `275` = 5.5, `225` = 4.5, the usual
/// Chinese komis. Other servers write points (`KM[6.50]`, `KM[0.50]`,
/// `KM[-100.00]` in KGS handicap-by-komi games).
///
/// A real komi in points lies within ±150 and is a multiple of 0.25 (almost
/// always of 0.5), so a value is taken as scaled when **it is written as an
/// integer, without a decimal point, its size is between 100 and 15,000, and
/// it is a multiple of 25**: then a multiple of 50 is ×100 (points), any other
/// multiple of 25 is ×50 (quarter stones). `KM[-100.00]` is not scaled (it
/// has a decimal point), nor is `KM[80]` (too small to tell: a scaled
/// `KM[50]` cannot be told from a real 50-point komi, and Fox writes no such
/// value). [`Komi::normalised_for`] can use the rules as a further hint.
///
/// ```
/// use sgf_grove::game::{Komi, KomiScale};
/// let k = Komi::parse("650")?;
/// assert_eq!((k.value(), k.scale(), k.normalised()), (650.0, KomiScale::Times100, 6.5));
/// let k = Komi::parse("375")?;
/// assert_eq!((k.scale(), k.normalised()), (KomiScale::Times50, 7.5));
/// let k = Komi::parse("6.50")?;
/// assert_eq!((k.raw(), k.value(), k.looks_scaled()), ("6.50", 6.5, false));
/// assert!(Komi::parse("six").is_err());
/// # Ok::<(), sgf_grove::game::InvalidValue>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Komi<'s> {
    raw: &'s str,
    value: f64,
    comma: bool,
}

impl<'s> Komi<'s> {
    /// Reads a komi. Accepts an SGF Real (`6.5`, `-3`, `+0.50`, `.5`) with
    /// whitespace around it, and a comma as decimal separator (`6,5`).
    ///
    /// # Errors
    ///
    /// When the text is empty or not such a number (`"six"`, `"6.5 pts"`,
    /// `"1e2"`, `"inf"`). An empty `KM[]` means "no komi stated";
    /// [`GameInfo::komi`] returns `None` for it.
    pub fn parse(s: &'s str) -> Result<Komi<'s>, InvalidValue> {
        let t = s.trim();
        if t.is_empty() {
            return Err(InvalidValue::new(s, "empty"));
        }
        let (value, comma) = parse_real(t).ok_or_else(|| InvalidValue::new(s, "not a number"))?;
        Ok(Komi {
            raw: s,
            value,
            comma,
        })
    }

    /// The text as given (`"6.50"` stays `"6.50"`).
    pub fn raw(&self) -> &'s str {
        self.raw
    }

    /// The value as written, as a number (`KM[650]` gives 650).
    pub fn value(&self) -> f64 {
        self.value
    }

    /// Whether the text was not a strict SGF Real (whitespace around it, or
    /// a decimal comma).
    pub fn is_lenient(&self) -> bool {
        self.comma || self.raw.trim().len() != self.raw.len()
    }

    /// How the value was written: in points, or scaled by the Fox server
    /// (see [the Fox rule](Komi#the-fox-rule)).
    pub fn scale(&self) -> KomiScale {
        let t = self.raw.trim();
        let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return KomiScale::Points;
        }
        let v = self.value.abs();
        if !(100.0..=15_000.0).contains(&v) || v % 25.0 != 0.0 {
            KomiScale::Points
        } else if v % 50.0 == 0.0 {
            KomiScale::Times100
        } else {
            KomiScale::Times50
        }
    }

    /// Whether the value looked scaled by the Fox server.
    pub fn looks_scaled(&self) -> bool {
        self.scale() != KomiScale::Points
    }

    /// The komi in points, undoing the Fox scaling the value alone shows
    /// (`650` → 6.5, `375` → 7.5, `6.5` → 6.5).
    pub fn normalised(&self) -> f64 {
        self.value / self.scale().divisor()
    }

    /// The komi in points, undoing the Fox scaling with the game's rules as
    /// a hint: a scaled value under [`Rules::Chinese`] is stones × 100 (÷ 50),
    /// under [`Rules::Japanese`] or [`Rules::Korean`] points × 100 (÷ 100),
    /// otherwise as [`Komi::normalised`]. (In the Fox corpus the hint and the
    /// value always agree; it matters for values such as `350`, 3.5 points
    /// or 3½ stones.)
    pub fn normalised_for(&self, rules: Option<&Rules>) -> f64 {
        let scale = match (self.scale(), rules) {
            (KomiScale::Points, _) => KomiScale::Points,
            (_, Some(Rules::Chinese)) => KomiScale::Times50,
            (_, Some(Rules::Japanese | Rules::Korean)) => KomiScale::Times100,
            (scale, _) => scale,
        };
        self.value / scale.divisor()
    }
}

// ---------------------------------------------------------------------------
// Handicap
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// Players and ranks
// ---------------------------------------------------------------------------

/// How sure a rank is, from its suffix: KGS and IGS write `5d?` for a rank
/// not yet settled and `5d*` for an established one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Certainty {
    /// No suffix.
    #[default]
    Unspecified,
    /// `?`: uncertain.
    Uncertain,
    /// `*`: established.
    Established,
}

impl Certainty {
    fn suffix(self) -> &'static str {
        match self {
            Certainty::Unspecified => "",
            Certainty::Uncertain => "?",
            Certainty::Established => "*",
        }
    }
}

/// A player's rank (`BR`, `WR`, SimpleText), read from the forms found in
/// real files.
///
/// | form | read as |
/// |---|---|
/// | `30k`…`1k`, `1d`…`9d`, `1p`…`9p`, any case, with `?` or `*` (`5d?`, `14k*`) | [`Rank::Kyu`], [`Rank::Dan`], [`Rank::Pro`] |
/// | `9 kyu`, `5 dan`, `5-dan`, `9 pro` | the same |
/// | Fox: `9段` (amateur dan), `P9段` (pro), `18级` (kyu) | the same |
/// | `初段`, `九段`, `业余5段`, `职业九段`, `5級`, `9단`, `3급`, `프로 9단` | the same |
/// | `1500*`, `2100` (CGOS Elo ratings: numbers of at least 100) | [`Rank::Rating`] |
/// | `NR`, `UR`, `-`, `?`, `unranked` | [`Rank::Unranked`] |
/// | anything else (`16.1k`, `15k* IGS`, `5d & 3d`) | [`Rank::Unknown`] with the text |
///
/// Kyu ranks go from 30k to 1k, dan and pro ranks from 1 to 9; other levels
/// are [`Rank::Unknown`]. An unprefixed `段` is read as an amateur dan: on
/// Fox, where almost all such ranks come from, pros are marked `P`
/// (in some Japanese sources a bare `九段` is a professional title).
///
/// ```
/// use sgf_grove::game::{Certainty, Rank};
/// assert_eq!(Rank::parse("5d?"), Rank::Dan { level: 5, certainty: Certainty::Uncertain });
/// assert_eq!(Rank::parse("P9段"), Rank::Pro { level: 9, certainty: Certainty::Unspecified });
/// assert_eq!(Rank::parse("18级").to_string(), "18k");
/// assert_eq!(Rank::parse("16.1k"), Rank::Unknown("16.1k".into()));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rank {
    /// An amateur kyu rank, 1 (strongest) to 30.
    Kyu {
        /// The number: 1 to 30.
        level: u8,
        /// The `?`/`*` suffix.
        certainty: Certainty,
    },
    /// An amateur dan rank, 1 to 9.
    Dan {
        /// The number: 1 to 9.
        level: u8,
        /// The `?`/`*` suffix.
        certainty: Certainty,
    },
    /// A professional dan rank, 1 to 9.
    Pro {
        /// The number: 1 to 9.
        level: u8,
        /// The `?`/`*` suffix.
        certainty: Certainty,
    },
    /// A rating number instead of a rank (`1500*`, as CGOS writes them).
    Rating {
        /// The rating.
        value: u32,
        /// The `?`/`*` suffix.
        certainty: Certainty,
    },
    /// Explicitly no rank: `NR`, `UR`, `-`, `?`.
    Unranked,
    /// Text that is not a known form, as given (trimmed).
    Unknown(String),
}

impl Rank {
    /// Reads a rank; never fails (see the table above).
    pub fn parse(s: &str) -> Rank {
        let t = s.trim();
        Rank::parse_trimmed(t).unwrap_or_else(|| Rank::Unknown(t.to_owned()))
    }

    fn parse_trimmed(t: &str) -> Option<Rank> {
        const UNRANKED: [&str; 7] = ["nr", "ur", "-", "?", "??", "unranked", "no rank"];
        if UNRANKED.iter().any(|u| u.eq_ignore_ascii_case(t)) || t == "无" || t == "無" {
            return Some(Rank::Unranked);
        }
        let (body, certainty) = if let Some(b) = t.strip_suffix('?') {
            (b, Certainty::Uncertain)
        } else if let Some(b) = t.strip_suffix('*') {
            (b, Certainty::Established)
        } else {
            (t, Certainty::Unspecified)
        };
        let mut rest = body.trim_end();
        let mut pro = false;
        for prefix in ["职业", "職業", "プロ", "프로"] {
            if let Some(r) = rest.strip_prefix(prefix) {
                rest = r.trim_start();
                pro = true;
            }
        }
        for prefix in ["业余", "業餘", "業余", "アマ", "아마"] {
            if let Some(r) = rest.strip_prefix(prefix) {
                rest = r.trim_start();
            }
        }
        if let Some(r) = rest.strip_prefix(['P', 'p']) {
            // Fox: `P9段`. Only when a number follows (not `pro`).
            if leading_number(r).is_some() {
                rest = r;
                pro = true;
            }
        }
        let (level, unit) = leading_number(rest)?;
        let unit = unit.trim_start();
        let unit = unit.strip_prefix('-').unwrap_or(unit).trim_start();
        enum Unit {
            Kyu,
            Dan,
            Pro,
            None,
        }
        let unit = match unit {
            "" => Unit::None,
            "级" | "級" | "급" => Unit::Kyu,
            "段" | "단" => Unit::Dan,
            u if ["k", "kyu", "kyū", "kyus"]
                .iter()
                .any(|w| w.eq_ignore_ascii_case(u)) =>
            {
                Unit::Kyu
            }
            u if ["d", "dan"].iter().any(|w| w.eq_ignore_ascii_case(u)) => Unit::Dan,
            u if ["p", "pro"].iter().any(|w| w.eq_ignore_ascii_case(u)) => Unit::Pro,
            _ => return None,
        };
        let small = |max: u32| (1..=max).contains(&level).then_some(level as u8);
        Some(match unit {
            Unit::Kyu if !pro => Rank::Kyu {
                level: small(30)?,
                certainty,
            },
            Unit::Kyu => return None,
            Unit::Dan if !pro => Rank::Dan {
                level: small(9)?,
                certainty,
            },
            Unit::Dan | Unit::Pro => Rank::Pro {
                level: small(9)?,
                certainty,
            },
            Unit::None if pro => Rank::Pro {
                level: small(9)?,
                certainty,
            },
            Unit::None if level >= 100 => Rank::Rating {
                value: level,
                certainty,
            },
            Unit::None => return None,
        })
    }

    /// The `?`/`*` suffix, for the ranks that have one.
    pub fn certainty(&self) -> Option<Certainty> {
        match self {
            Rank::Kyu { certainty, .. }
            | Rank::Dan { certainty, .. }
            | Rank::Pro { certainty, .. }
            | Rank::Rating { certainty, .. } => Some(*certainty),
            Rank::Unranked | Rank::Unknown(_) => None,
        }
    }

    /// Whether the rank was read ([`Rank::Unknown`] is not).
    pub fn is_known(&self) -> bool {
        !matches!(self, Rank::Unknown(_))
    }
}

/// The canonical short form: `5d?`, `18k`, `9p`, `1500*`, `NR`; the text for
/// [`Rank::Unknown`].
impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rank::Kyu { level, certainty } => write!(f, "{level}k{}", certainty.suffix()),
            Rank::Dan { level, certainty } => write!(f, "{level}d{}", certainty.suffix()),
            Rank::Pro { level, certainty } => write!(f, "{level}p{}", certainty.suffix()),
            Rank::Rating { value, certainty } => write!(f, "{value}{}", certainty.suffix()),
            Rank::Unranked => f.write_str("NR"),
            Rank::Unknown(raw) => f.write_str(raw),
        }
    }
}

/// One side's player: name (`PB`/`PW`), rank (`BR`/`WR`) and team
/// (`BT`/`WT`), as [`GameInfo::black`] and [`GameInfo::white`] give them.
/// Text is trimmed; empty text counts as absent.
///
/// In pair go, both partners share a side and FF\[4\] has them written in one
/// value joined by `&` (`PB[Alice & Bob]`): [`Player::names`] splits them.
///
/// ```
/// use sgf_grove::game::{Player, Rank};
/// let p = Player::new(Some("Alice & Bob"), Some("3d & 1k"), None);
/// assert_eq!(p.names().collect::<Vec<_>>(), ["Alice", "Bob"]);
/// assert!(p.is_pair());
/// assert_eq!(p.ranks().map(|r| r.to_string()).collect::<Vec<_>>(), ["3d", "1k"]);
/// assert!(matches!(p.rank, Some(Rank::Unknown(_))));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Player<'s> {
    /// The name, as written (trimmed).
    pub name: Option<&'s str>,
    /// The rank, read with [`Rank::parse`].
    pub rank: Option<Rank>,
    /// The rank text, as written (trimmed).
    pub rank_text: Option<&'s str>,
    /// The team, as written (trimmed).
    pub team: Option<&'s str>,
}

/// `s` trimmed, or `None` when that leaves nothing.
fn non_blank(s: Option<&str>) -> Option<&str> {
    s.map(str::trim).filter(|t| !t.is_empty())
}

impl<'s> Player<'s> {
    /// A player from the three texts (each trimmed; blank is absent).
    pub fn new(name: Option<&'s str>, rank: Option<&'s str>, team: Option<&'s str>) -> Self {
        let rank_text = non_blank(rank);
        Player {
            name: non_blank(name),
            rank: rank_text.map(Rank::parse),
            rank_text,
            team: non_blank(team),
        }
    }

    /// The names of the players on this side: the name split at every `&`,
    /// each part trimmed, empty parts skipped. One name for an ordinary game,
    /// none when there is no name.
    pub fn names(&self) -> impl Iterator<Item = &'s str> + Clone + 's {
        self.name
            .unwrap_or("")
            .split('&')
            .map(str::trim)
            .filter(|n| !n.is_empty())
    }

    /// Whether more than one name is given (pair go).
    pub fn is_pair(&self) -> bool {
        self.names().nth(1).is_some()
    }

    /// The ranks of the players on this side, the rank text split at `&`
    /// as [`Player::names`] splits the name.
    pub fn ranks(&self) -> impl Iterator<Item = Rank> + 's {
        self.rank_text
            .unwrap_or("")
            .split('&')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(Rank::parse)
    }
}

// ---------------------------------------------------------------------------
// Result
// ---------------------------------------------------------------------------

/// How a game was won.
#[derive(Clone, Debug, PartialEq)]
pub enum WinBy {
    /// By this many points, as written (`W+3.5`).
    ///
    /// Fox quirks: in Chinese-rules games the Fox server writes the margin
    /// in stones, 1 stone = 2 points (`B+0.75`, `W+1.25`). It also writes
    /// `+0.0`, `+0.02` and `+0.03` (2,476 games in the shared corpus) for
    /// games that did not end by counting, presumably time-outs or abandoned
    /// games: their median length is 79 to 151 moves, against 272 for Fox
    /// games with a real margin. All are kept as written.
    Points(f64),
    /// By resignation (`B+R`, `B+Resign`).
    Resignation,
    /// On time (`W+T`, `W+Time`, `W+Timeout`, `W+Time Over`).
    Time,
    /// By forfeit (`B+F`, `B+Forfeit`).
    Forfeit,
    /// Margin not stated (`B+`).
    Unspecified,
    /// A reason FF\[4\] does not name, as written after the `+`
    /// (`B+Illegal`, `W+Repetition`, from computer-go servers).
    Other(String),
}

/// The result of a game (`RE`, SimpleText), read per FF\[4\] and leniently.
///
/// | form | read as |
/// |---|---|
/// | `B+R`, `B+Resign`, `W+T`, `W+Time`, `B+F`, `B+Forfeit` | a win by [`WinBy::Resignation`], [`WinBy::Time`], [`WinBy::Forfeit`] |
/// | `W+3.5`, `B+0.25`, `W+0.0`, `B+12,5` | a win by [`WinBy::Points`] |
/// | `B+` | a win by [`WinBy::Unspecified`] |
/// | `0`, `Draw`, `Jigo`, `和棋`, `持碁`, `ジゴ`, `무승부` | [`GameResult::Draw`] |
/// | `Void`, `No result`, `无胜负`, `無勝負`; text saying `adjourned`, `suspended`, `打挂` | [`GameResult::Void`] |
/// | `?`, `Unknown` | [`GameResult::Unknown`] |
///
/// Also accepted: any case (`b+r`, `DRAW`), spaces (` W + R `), `Black` and
/// `White` for `B` and `W`, text after the reason (`W+Time Over`,
/// `W+R (disconnected)`, `B+3.5 points`), other reason words
/// (`B+Illegal` → [`WinBy::Other`]), `White resigns.`, `Black wins`,
/// `B wins by 3.5`, and Chinese, Japanese and Korean forms: `黑中盘胜`,
/// `白中押し勝ち`, `黒3目半勝ち`, `白超时胜`, `黑胜`, `흑 불계승`.
/// Anything else is [`GameResult::Unparsed`] with the text.
///
/// ```
/// use sgf_grove::game::{GameResult, WinBy};
/// use sgf_grove::value::Color;
/// assert_eq!(
///     GameResult::parse("W+3.5"),
///     GameResult::Win { winner: Color::White, by: WinBy::Points(3.5) }
/// );
/// assert_eq!(GameResult::parse("jigo"), GameResult::Draw);
/// assert_eq!(GameResult::parse("B+Resign").to_string(), "B+R");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum GameResult {
    /// One side won.
    Win {
        /// Who won.
        winner: Color,
        /// How.
        by: WinBy,
    },
    /// A draw (jigo).
    Draw,
    /// No result (suspended, or annulled).
    Void,
    /// Stated as unknown (`?`).
    Unknown,
    /// Text that is not a known form, as given (trimmed).
    Unparsed(String),
}

/// Draw forms, compared ASCII-case-insensitively.
const DRAWS: [&str; 12] = [
    "0",
    "0.0",
    "draw",
    "jigo",
    "ji-go",
    "tie",
    "和棋",
    "和局",
    "平局",
    "持碁",
    "ジゴ",
    "무승부",
];
const VOIDS: [&str; 5] = ["void", "no result", "无胜负", "無勝負", "無効"];
/// Suspended play, which FF\[4\] counts as `Void` (`RE[has adjourned.]`).
const ADJOURNED: [&str; 3] = ["adjourned", "suspended", "打挂"];
const UNKNOWNS: [&str; 4] = ["?", "??", "unknown", "unfinished"];

impl GameResult {
    /// Reads a result; never fails (see the table above).
    pub fn parse(s: &str) -> GameResult {
        let t = s.trim();
        let is = |list: &[&str]| list.iter().any(|w| w.eq_ignore_ascii_case(t));
        if is(&DRAWS) {
            return GameResult::Draw;
        }
        if is(&VOIDS) {
            return GameResult::Void;
        }
        if is(&UNKNOWNS) {
            return GameResult::Unknown;
        }
        if let Some(win) = GameResult::parse_win(t) {
            return win;
        }
        if ADJOURNED.iter().any(|w| contains_ci(t, w)) {
            return GameResult::Void;
        }
        GameResult::Unparsed(t.to_owned())
    }

    fn parse_win(t: &str) -> Option<GameResult> {
        const SIDES: [(&str, Color); 9] = [
            ("black", Color::Black),
            ("white", Color::White),
            ("b", Color::Black),
            ("w", Color::White),
            ("黑", Color::Black),
            ("黒", Color::Black),
            ("白", Color::White),
            ("흑", Color::Black),
            ("백", Color::White),
        ];
        let (side, rest) = SIDES
            .iter()
            .find_map(|&(word, side)| Some((side, strip_prefix_ci(t, word)?)))?;
        let rest = rest.trim_start();
        let win = |by| Some(GameResult::Win { winner: side, by });
        if let Some(after) = rest.strip_prefix('+') {
            return win(parse_win_by(after.trim_start())?);
        }
        // Words after the colour: `White resigns.`, `Black wins by 3.5`.
        let word_end = rest
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(rest.len());
        if word_end > 0 {
            let (word, after) = rest.split_at(word_end);
            let lower = word.to_ascii_lowercase();
            return match lower.as_str() {
                "resigns" | "resigned" | "resign" => Some(GameResult::Win {
                    winner: side.opponent(),
                    by: WinBy::Resignation,
                }),
                "wins" | "won" | "win" => {
                    let after = after.trim_start();
                    match strip_prefix_ci(after, "by") {
                        Some(reason)
                            if reason.is_empty() || reason.starts_with(char::is_whitespace) =>
                        {
                            win(parse_win_by(reason.trim_start())?)
                        }
                        _ if after.is_empty() || after.starts_with(['.', '!', ',']) => {
                            win(WinBy::Unspecified)
                        }
                        _ => None,
                    }
                }
                _ => None,
            };
        }
        // CJK: the reason follows the colour without a `+`.
        win(parse_cjk_win_by(rest)?)
    }

    /// The winner, for a win.
    pub fn winner(&self) -> Option<Color> {
        match self {
            GameResult::Win { winner, .. } => Some(*winner),
            _ => None,
        }
    }

    /// The margin in points as written, for a win on points.
    pub fn margin(&self) -> Option<f64> {
        match self {
            GameResult::Win {
                by: WinBy::Points(m),
                ..
            } => Some(*m),
            _ => None,
        }
    }

    /// Whether the text was read ([`GameResult::Unparsed`] was not).
    pub fn is_parsed(&self) -> bool {
        !matches!(self, GameResult::Unparsed(_))
    }
}

/// Reads what follows `B+`: a margin, a reason, or nothing.
fn parse_win_by(r: &str) -> Option<WinBy> {
    let Some(first) = r.chars().next() else {
        return Some(WinBy::Unspecified);
    };
    if first.is_ascii_digit() || first == '.' {
        // A margin, then nothing or text after a space or bracket.
        let end = r
            .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
            .unwrap_or(r.len());
        let (number, after) = r.split_at(end);
        let number = number.trim_end_matches(['.', ',']);
        if !(after.is_empty() || after.starts_with(|c: char| c.is_whitespace() || c == '(')) {
            return None;
        }
        let (margin, _) = parse_real(number)?;
        return Some(WinBy::Points(margin));
    }
    if first.is_ascii_alphabetic() {
        let end = r
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(r.len());
        let word = r[..end].to_ascii_lowercase();
        return Some(match word.as_str() {
            "r" | "res" | "resign" | "resigns" | "resigned" | "resignation" => WinBy::Resignation,
            "t" | "time" | "timeout" | "timeover" | "timed" => WinBy::Time,
            "f" | "forfeit" | "forfeited" | "forfeits" | "forfeiture" => WinBy::Forfeit,
            _ => WinBy::Other(r.trim_end().to_owned()),
        });
    }
    if let Some(by) = parse_cjk_win_by(r) {
        return Some(by);
    }
    if first.is_ascii_punctuation() && first != '-' && first != '+' {
        // `B+, human judge`, `B+?`: a win with a note.
        return Some(WinBy::Unspecified);
    }
    None
}

/// Reads a CJK reason (`中盘胜`, `中押し勝ち`, `3目半勝ち`, `超时胜`, `胜`,
/// `불계승`).
fn parse_cjk_win_by(r: &str) -> Option<WinBy> {
    let has = |words: &[&str]| words.iter().any(|w| r.contains(w));
    if has(&["中盘", "中盤", "中押", "불계"]) {
        return Some(WinBy::Resignation);
    }
    if has(&["超时", "超時", "時間切れ", "时间", "時間", "시간"]) {
        return Some(WinBy::Time);
    }
    if let Some((number, after)) = r.split_once(['目', '집']) {
        let (n, _) = parse_real(number.trim())?;
        let half = after.starts_with('半') || after.starts_with('반');
        return Some(WinBy::Points(if half { n + 0.5 } else { n }));
    }
    if has(&["胜", "勝", "승"]) {
        return Some(WinBy::Unspecified);
    }
    None
}

/// The FF\[4\] form: `B+R`, `W+T`, `B+F`, `W+3.5`, `B+`, `Draw`, `Void`, `?`;
/// the text for [`GameResult::Unparsed`].
impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::Win { winner, by } => {
                write!(f, "{}+", winner.as_str())?;
                match by {
                    WinBy::Points(m) => write!(f, "{m}"),
                    WinBy::Resignation => f.write_str("R"),
                    WinBy::Time => f.write_str("T"),
                    WinBy::Forfeit => f.write_str("F"),
                    WinBy::Unspecified => Ok(()),
                    WinBy::Other(reason) => f.write_str(reason),
                }
            }
            GameResult::Draw => f.write_str("Draw"),
            GameResult::Void => f.write_str("Void"),
            GameResult::Unknown => f.write_str("?"),
            GameResult::Unparsed(raw) => f.write_str(raw),
        }
    }
}

// ---------------------------------------------------------------------------
// Dates
// ---------------------------------------------------------------------------

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
/// (`August 9, 2001`, `29th September 2012`, `Sep 2012`). A time of day after
/// the date (`2019-10-14 18:34:05`, `2008-05-26T12:00`,
/// `2001/10/11 21:22:51 UT`) is dropped with [`GameDates::time_of_day`] set.
///
/// In the shared corpus, 47,630 of the 47,721 `DT` values are a single
/// `YYYY-MM-DD`; all the others are read here too, except `DT[]` (twice),
/// which [`GameInfo::dates`] counts as absent.
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
/// # Ok::<(), sgf_grove::game::InvalidValue>(())
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
    pub fn parse(s: &str) -> Result<GameDates, InvalidValue> {
        let t = s.trim();
        if t.is_empty() {
            return Err(InvalidValue::new(s, "empty"));
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
            .map_err(|reason| InvalidValue::new(s, reason))?;
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
        if t.contains(sep) {
            if let Ok(list) = iso_list(t, sep, &mut ignored) {
                return Some(list);
            }
        }
    }
    year_last(t)
        .or_else(|| cjk_date(t))
        .or_else(|| english_date(t))
        .map(|d| vec![d])
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

/// `August 9, 2001`, `29th September 2012`, `9 Aug 2001`, `Sep 2012`,
/// `Fri, 3 May 2002`.
fn english_date(t: &str) -> Option<PartialDate> {
    let (mut year, mut month, mut day) = (None, None, None);
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
            let (digits, suffix) = leading_digits(token);
            if digits.len() > 2
                || !["", "st", "nd", "rd", "th"].contains(&&*suffix.to_ascii_lowercase())
            {
                return None;
            }
            if day.replace(digits.parse::<u32>().ok()?).is_some() {
                return None;
            }
        } else if let Some(m) = MONTHS.iter().position(|m| {
            lower.len() >= 3 && (m.starts_with(&lower) || (lower == "sept" && *m == "september"))
        }) {
            if month.replace(m as u32 + 1).is_some() {
                return None;
            }
        } else if lower == "of"
            || WEEKDAYS
                .iter()
                .any(|w| lower.len() >= 3 && w.starts_with(&lower))
        {
            continue;
        } else {
            return None;
        }
    }
    PartialDate::from_parts(year?, Some(month?), day)
}

// ---------------------------------------------------------------------------
// Rules, time, application
// ---------------------------------------------------------------------------

/// The rule set (`RU`, SimpleText). FF\[4\] names `AGA`, `GOE`, `Japanese` and
/// `NZ`; other common names are recognised as well, case-insensitively and
/// ignoring spaces, `-`, `_`, `/`, `'` and a trailing `rules`.
///
/// | variant | spellings |
/// |---|---|
/// | [`Rules::Japanese`] | `Japanese`, `Japan`, `JP`, `JPN`, `日本` |
/// | [`Rules::Chinese`] | `Chinese`, `China`, `CN`, `CHN`, `中国`, `中國` |
/// | [`Rules::Aga`] | `AGA`, `American` |
/// | [`Rules::Goe`] | `GOE`, `Ing`, `Ing's`, `SST`, `应氏`, `應氏` |
/// | [`Rules::NewZealand`] | `NZ`, `New Zealand` |
/// | [`Rules::Korean`] | `Korean`, `Korea`, `KR`, `KOR`, `韩国`, `韓國`, `한국` |
/// | [`Rules::TrompTaylor`] | `Tromp/Taylor`, `Tromp-Taylor`, `TT` |
///
/// In the shared corpus: `Japanese` 34,804, `Chinese` 1,084, `AGA` 49,
/// `NZ` 17, `Tromp/Taylor` 12, `TT--` 1 (read as Tromp–Taylor).
///
/// ```
/// use sgf_grove::game::Rules;
/// assert_eq!(Rules::parse("japanese"), Rules::Japanese);
/// assert_eq!(Rules::parse("Tromp/Taylor"), Rules::TrompTaylor);
/// assert_eq!(Rules::parse("Ing's rules"), Rules::Goe);
/// assert_eq!(Rules::parse("Lasker"), Rules::Other("Lasker".into()));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// Japanese (territory scoring).
    Japanese,
    /// Chinese (area scoring).
    Chinese,
    /// American Go Association.
    Aga,
    /// Ing's rules (Goe, SST).
    Goe,
    /// New Zealand.
    NewZealand,
    /// Korean.
    Korean,
    /// Tromp–Taylor (computer go).
    TrompTaylor,
    /// Anything else, as given (trimmed).
    Other(String),
}

impl Rules {
    /// Reads a rule set; never fails.
    pub fn parse(s: &str) -> Rules {
        let t = s.trim();
        let mut key: String = t
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '_' | '/' | '\'' | '.'))
            .collect::<String>()
            .to_lowercase();
        for suffix in ["rules", "rule", "规则", "規則", "ルール", "룰"] {
            if key.len() > suffix.len() && key.ends_with(suffix) {
                key.truncate(key.len() - suffix.len());
            }
        }
        let any = |words: &[&str]| words.contains(&key.as_str());
        let has = |words: &[&str]| words.iter().any(|w| key.contains(w));
        if any(&["japanese", "japan", "jp", "jpn"]) || has(&["日本"]) {
            Rules::Japanese
        } else if any(&["chinese", "china", "cn", "chn"]) || has(&["中国", "中國"]) {
            Rules::Chinese
        } else if any(&["aga", "american"]) {
            Rules::Aga
        } else if any(&["goe", "ing", "ings", "sst"]) || has(&["应氏", "應氏"]) {
            Rules::Goe
        } else if any(&["nz", "newzealand"]) {
            Rules::NewZealand
        } else if any(&["korean", "korea", "kr", "kor"]) || has(&["韩国", "韓國", "한국"]) {
            Rules::Korean
        } else if any(&["tromptaylor", "tt"]) {
            Rules::TrompTaylor
        } else {
            Rules::Other(t.to_owned())
        }
    }

    /// The usual spelling (FF\[4\]'s where it has one): `Japanese`,
    /// `Chinese`, `AGA`, `GOE`, `NZ`, `Korean`, `Tromp-Taylor`; the text for
    /// [`Rules::Other`].
    pub fn as_str(&self) -> &str {
        match self {
            Rules::Japanese => "Japanese",
            Rules::Chinese => "Chinese",
            Rules::Aga => "AGA",
            Rules::Goe => "GOE",
            Rules::NewZealand => "NZ",
            Rules::Korean => "Korean",
            Rules::TrompTaylor => "Tromp-Taylor",
            Rules::Other(s) => s,
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

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
/// # Ok::<(), sgf_grove::game::InvalidValue>(())
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
    pub fn parse(s: &str) -> Result<TimeLimit, InvalidValue> {
        let t = s.trim();
        if t.is_empty() {
            return Err(InvalidValue::new(s, "empty"));
        }
        if let Some((seconds, comma)) = parse_real(t) {
            if seconds < 0.0 {
                return Err(InvalidValue::new(s, "negative"));
            }
            return Ok(TimeLimit {
                seconds,
                lenient: comma || t.len() != s.len() || t.starts_with('+'),
            });
        }
        let (seconds, rest) = clock_time(t)
            .or_else(|| unit_time(t))
            .or_else(|| leading_real(t))
            .ok_or_else(|| InvalidValue::new(s, "not a time"))?;
        if !(rest.is_empty()
            || rest.starts_with(|c: char| "(+/,;".contains(c) || c.is_whitespace()))
        {
            return Err(InvalidValue::new(s, "not a time"));
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

/// The application that wrote the file (`AP`, Compose(SimpleText,
/// SimpleText)): `AP[CGoban:3]`, `AP[GNU Go:3.8]`.
///
/// ```
/// use sgf_grove::game::Application;
/// let ap = Application::parse("GNU Go:3.8");
/// assert_eq!((ap.name, ap.version), ("GNU Go", Some("3.8")));
/// assert_eq!(Application::parse("foxwq").version, None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Application<'s> {
    /// The name (trimmed).
    pub name: &'s str,
    /// The version (trimmed), when a `:` and some text follow the name.
    pub version: Option<&'s str>,
}

impl<'s> Application<'s> {
    /// Splits decoded text at its first `:`. (In the raw value an escaped
    /// `\:` belongs to the name; once decoded the two cannot be told apart,
    /// and names with a `:` are rare.)
    pub fn parse(s: &'s str) -> Application<'s> {
        match s.split_once(':') {
            Some((name, version)) => Application {
                name: name.trim(),
                version: Some(version.trim()).filter(|v| !v.is_empty()),
            },
            None => Application {
                name: s.trim(),
                version: None,
            },
        }
    }
}

// ---------------------------------------------------------------------------
// GameInfo
// ---------------------------------------------------------------------------

/// The game-info properties [`GameInfo`] reads, in its order. (Board size,
/// `SZ`, is a root property with its own getter,
/// [`GameTree::board_size`](crate::GameTree::board_size).)
pub const GAME_INFO_IDENTS: [&str; 24] = [
    "PB", "BR", "BT", "PW", "WR", "WT", "KM", "HA", "RE", "DT", "RU", "EV", "RO", "PC", "GN", "GC",
    "AP", "TM", "OT", "CP", "AN", "SO", "US", "ON",
];

const PB: usize = 0;
const BR: usize = 1;
const BT: usize = 2;
const PW: usize = 3;
const WR: usize = 4;
const WT: usize = 5;
const KM: usize = 6;
const HA: usize = 7;
const RE: usize = 8;
const DT: usize = 9;
const RU: usize = 10;
const EV: usize = 11;
const RO: usize = 12;
const PC: usize = 13;
const GN: usize = 14;
const GC: usize = 15;
const AP: usize = 16;
const TM: usize = 17;
const OT: usize = 18;
const CP: usize = 19;
const AN: usize = 20;
const SO: usize = 21;
const US: usize = 22;
const ON: usize = 23;

fn slot(ident: &str) -> Option<usize> {
    GAME_INFO_IDENTS.iter().position(|&i| i == ident)
}

/// The game information of one game: the decoded text of every property in
/// [`GAME_INFO_IDENTS`], with typed accessors.
///
/// # Reading
///
/// [`GameInfo::from_lookup`] asks a lookup function for each property
/// **once, eagerly**, and keeps the text ([`Cow`]: borrowed when the lookup
/// could borrow). The typed accessors parse that text on each call; parsing
/// is cheap and allocates only for lists of dates and for the fallbacks
/// that keep text. Eager reading was chosen because it leaves `GameInfo`
/// free of the lookup (no borrow of the tree or of a closure, so it can be
/// stored, sent to another thread, or made `'static` with
/// [`GameInfo::into_owned`]), and because looking a property up is the
/// costly step (a scan of the root node and charset decoding), which each
/// property then pays exactly once whatever the accessors are called.
/// [`GameInfo::from_pairs`] fills it from one pass over the properties
/// instead.
///
/// [`GameTree::info`](crate::GameTree::info) builds it for a parsed game.
///
/// # Accessors
///
/// Empty or whitespace-only text counts as absent everywhere (`KM[]` is "no
/// komi stated", and Fox writes `GN[]` in every file); SimpleText values
/// are trimmed. Typed accessors return `None` when the property is absent,
/// otherwise the parsed value (or its error or fallback).
///
/// ```
/// use sgf_grove::game::{GameInfo, Handicap, Rules};
/// use std::borrow::Cow;
///
/// let props = [("PB", "Honinbo Shusaku"), ("KM", "0"), ("HA", "0"), ("RU", "Japanese")];
/// let info = GameInfo::from_lookup(|ident| {
///     props.iter().find(|(i, _)| *i == ident).map(|(_, v)| Cow::Borrowed(*v))
/// });
/// assert_eq!(info.black().name, Some("Honinbo Shusaku"));
/// assert_eq!(info.handicap(), Some(Handicap::NoStones(0)));
/// assert_eq!(info.rules(), Some(Rules::Japanese));
/// assert_eq!(info.result(), None);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GameInfo<'a> {
    values: [Option<Cow<'a, str>>; GAME_INFO_IDENTS.len()],
}

impl<'a> GameInfo<'a> {
    /// Builds the game information by calling `lookup` once for each of
    /// [`GAME_INFO_IDENTS`], in that order. `lookup` returns the decoded
    /// text of the property (SimpleText; for `GC`, Text), or `None` when
    /// the game does not have it.
    pub fn from_lookup<F>(mut lookup: F) -> GameInfo<'a>
    where
        F: FnMut(&str) -> Option<Cow<'a, str>>,
    {
        GameInfo {
            values: GAME_INFO_IDENTS.map(&mut lookup),
        }
    }

    /// Builds the game information from `(identifier, text)` pairs, such
    /// as one pass over a root node's properties gives. Identifiers not in
    /// [`GAME_INFO_IDENTS`] are ignored; for one given twice the first text
    /// is kept (Fox files have `AP[GNU Go:3.8]…AP[foxwq]`).
    ///
    /// ```
    /// use sgf_grove::game::GameInfo;
    /// let info = GameInfo::from_pairs([("AP", "GNU Go:3.8".into()), ("AP", "foxwq".into())]);
    /// assert_eq!(info.application().unwrap().name, "GNU Go");
    /// ```
    pub fn from_pairs<I, K>(pairs: I) -> GameInfo<'a>
    where
        I: IntoIterator<Item = (K, Cow<'a, str>)>,
        K: AsRef<str>,
    {
        let mut info = GameInfo::default();
        for (ident, text) in pairs {
            if let Some(i) = slot(ident.as_ref()) {
                info.values[i].get_or_insert(text);
            }
        }
        info
    }

    /// The same information, owning its text.
    pub fn into_owned(self) -> GameInfo<'static> {
        GameInfo {
            values: self
                .values
                .map(|v| v.map(|text| Cow::Owned(text.into_owned()))),
        }
    }

    /// The text of property `ident` (one of [`GAME_INFO_IDENTS`]) exactly as
    /// the lookup gave it, empty text included; `None` when absent or when
    /// `ident` is not a game-info property read here.
    pub fn get(&self, ident: &str) -> Option<&str> {
        self.values[slot(ident)?].as_deref()
    }

    /// Text that is not blank, untrimmed.
    fn raw(&self, i: usize) -> Option<&str> {
        self.values[i].as_deref().filter(|t| !t.trim().is_empty())
    }

    /// Text that is not blank, trimmed.
    fn text(&self, i: usize) -> Option<&str> {
        non_blank(self.values[i].as_deref())
    }

    /// Black: `PB`, `BR`, `BT`.
    pub fn black(&self) -> Player<'_> {
        Player::new(self.text(PB), self.text(BR), self.text(BT))
    }

    /// White: `PW`, `WR`, `WT`.
    pub fn white(&self) -> Player<'_> {
        Player::new(self.text(PW), self.text(WR), self.text(WT))
    }

    /// The player of `color`.
    pub fn player(&self, color: Color) -> Player<'_> {
        match color {
            Color::Black => self.black(),
            Color::White => self.white(),
        }
    }

    /// Komi (`KM`); see [`Komi`].
    pub fn komi(&self) -> Option<Result<Komi<'_>, InvalidValue>> {
        self.raw(KM).map(Komi::parse)
    }

    /// Komi in points: [`Komi::normalised_for`] with the game's rules;
    /// `None` when absent or unreadable.
    pub fn komi_points(&self) -> Option<f64> {
        let komi = self.komi()?.ok()?;
        Some(komi.normalised_for(self.rules().as_ref()))
    }

    /// Handicap (`HA`); see [`Handicap`].
    pub fn handicap(&self) -> Option<Handicap> {
        self.raw(HA).map(Handicap::parse)
    }

    /// Result (`RE`); see [`GameResult`].
    pub fn result(&self) -> Option<GameResult> {
        self.raw(RE).map(GameResult::parse)
    }

    /// Dates (`DT`); see [`GameDates`].
    pub fn dates(&self) -> Option<Result<GameDates, InvalidValue>> {
        self.raw(DT).map(GameDates::parse)
    }

    /// Rules (`RU`); see [`Rules`].
    pub fn rules(&self) -> Option<Rules> {
        self.text(RU).map(Rules::parse)
    }

    /// Rules (`RU`) as written.
    pub fn rules_text(&self) -> Option<&str> {
        self.text(RU)
    }

    /// Time limit (`TM`); see [`TimeLimit`].
    pub fn time_limit(&self) -> Option<Result<TimeLimit, InvalidValue>> {
        self.raw(TM).map(TimeLimit::parse)
    }

    /// Overtime (`OT`), as written: `5x30 byo-yomi`, `25/300 Canadian`.
    pub fn overtime(&self) -> Option<&str> {
        self.text(OT)
    }

    /// Application (`AP`); see [`Application`].
    pub fn application(&self) -> Option<Application<'_>> {
        self.text(AP).map(Application::parse)
    }

    /// Event (`EV`): the tournament.
    pub fn event(&self) -> Option<&str> {
        self.text(EV)
    }

    /// Round (`RO`): `5 (final)`.
    pub fn round(&self) -> Option<&str> {
        self.text(RO)
    }

    /// Place (`PC`).
    pub fn place(&self) -> Option<&str> {
        self.text(PC)
    }

    /// Game name (`GN`).
    pub fn game_name(&self) -> Option<&str> {
        self.text(GN)
    }

    /// Game comment (`GC`, Text): background and summary. Not trimmed, so
    /// that its layout is kept.
    pub fn game_comment(&self) -> Option<&str> {
        self.raw(GC)
    }

    /// Copyright (`CP`).
    pub fn copyright(&self) -> Option<&str> {
        self.text(CP)
    }

    /// Annotator (`AN`).
    pub fn annotator(&self) -> Option<&str> {
        self.text(AN)
    }

    /// Source (`SO`).
    pub fn source(&self) -> Option<&str> {
        self.text(SO)
    }

    /// User (`US`): who entered the game.
    pub fn user(&self) -> Option<&str> {
        self.text(US)
    }

    /// Opening (`ON`).
    pub fn opening(&self) -> Option<&str> {
        self.text(ON)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const B: Color = Color::Black;
    const W: Color = Color::White;

    fn win(winner: Color, by: WinBy) -> GameResult {
        GameResult::Win { winner, by }
    }

    fn date(year: i32, month: Option<u8>, day: Option<u8>) -> PartialDate {
        PartialDate::new(year, month, day).expect("valid test date")
    }

    fn ymd(year: i32, month: u8, day: u8) -> PartialDate {
        date(year, Some(month), Some(day))
    }

    // -- helpers ------------------------------------------------------------

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

    // -- komi ---------------------------------------------------------------

    #[test]
    fn komi_values_and_scales() {
        use KomiScale::*;
        // (text, value, scale, normalised)
        for (text, value, scale, normalised) in [
            // Points, as FF[4] and most servers write them.
            ("6.5", 6.5, Points, 6.5),
            ("6.50", 6.5, Points, 6.5),
            ("0.50", 0.5, Points, 0.5),
            ("0", 0.0, Points, 0.0),
            ("0.00", 0.0, Points, 0.0),
            ("-4.50", -4.5, Points, -4.5),
            ("-100.00", -100.0, Points, -100.0),
            ("75.50", 75.5, Points, 75.5),
            ("60", 60.0, Points, 60.0),
            ("80", 80.0, Points, 80.0),
            ("7", 7.0, Points, 7.0),
            ("120", 120.0, Points, 120.0),
            ("20000", 20000.0, Points, 20000.0),
            // Fox, every value it writes.
            ("650", 650.0, Times100, 6.5),
            ("750", 750.0, Times100, 7.5),
            ("550", 550.0, Times100, 5.5),
            ("450", 450.0, Times100, 4.5),
            ("375", 375.0, Times50, 7.5),
            ("325", 325.0, Times50, 6.5),
            ("275", 275.0, Times50, 5.5),
            ("225", 225.0, Times50, 4.5),
            // Beyond the corpus.
            ("-650", -650.0, Times100, -6.5),
            ("100", 100.0, Times100, 1.0),
            ("+650", 650.0, Times100, 6.5),
        ] {
            let k = Komi::parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
            assert_eq!(k.raw(), text);
            assert_eq!(k.value(), value, "{text:?}");
            assert_eq!(k.scale(), scale, "{text:?}");
            assert_eq!(k.looks_scaled(), scale != Points, "{text:?}");
            assert_eq!(k.normalised(), normalised, "{text:?}");
            assert!(!k.is_lenient(), "{text:?}");
        }
    }

    #[test]
    fn komi_lenient_and_invalid() {
        let k = Komi::parse(" 6,5 ").unwrap();
        assert_eq!((k.value(), k.raw(), k.is_lenient()), (6.5, " 6,5 ", true));
        assert!(Komi::parse(" 650 ").unwrap().looks_scaled());
        for text in [
            "",
            "  ",
            "six",
            "6.5 points",
            "1e2",
            "inf",
            "nan",
            "6½",
            "--6",
        ] {
            let err = Komi::parse(text).unwrap_err();
            assert_eq!(err.raw, text);
        }
        assert_eq!(Komi::parse("").unwrap_err().reason, "empty");
    }

    #[test]
    fn komi_with_rules() {
        let chinese = Some(&Rules::Chinese);
        let japanese = Some(&Rules::Japanese);
        let k = Komi::parse("350").unwrap();
        assert_eq!(k.normalised(), 3.5);
        assert_eq!(k.normalised_for(chinese), 7.0);
        assert_eq!(k.normalised_for(japanese), 3.5);
        assert_eq!(k.normalised_for(None), 3.5);
        let k = Komi::parse("375").unwrap();
        assert_eq!(k.normalised_for(chinese), 7.5);
        assert_eq!(k.normalised_for(Some(&Rules::Aga)), 7.5);
        // Unscaled values ignore the rules.
        assert_eq!(Komi::parse("7.5").unwrap().normalised_for(chinese), 7.5);
    }

    // -- handicap -----------------------------------------------------------

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

    // -- ranks --------------------------------------------------------------

    #[test]
    fn ranks() {
        use Certainty::*;
        let kyu = |level, certainty| Rank::Kyu { level, certainty };
        let dan = |level, certainty| Rank::Dan { level, certainty };
        let pro = |level, certainty| Rank::Pro { level, certainty };
        for (text, want, display) in [
            // FF[4] / KGS / IGS.
            ("30k", kyu(30, Unspecified), "30k"),
            ("1k", kyu(1, Unspecified), "1k"),
            ("1d", dan(1, Unspecified), "1d"),
            ("9d", dan(9, Unspecified), "9d"),
            ("7d", dan(7, Unspecified), "7d"),
            ("1p", pro(1, Unspecified), "1p"),
            ("9p", pro(9, Unspecified), "9p"),
            ("5d?", dan(5, Uncertain), "5d?"),
            ("13k?", kyu(13, Uncertain), "13k?"),
            ("14k*", kyu(14, Established), "14k*"),
            ("2d*", dan(2, Established), "2d*"),
            ("17k ", kyu(17, Unspecified), "17k"),
            ("5D", dan(5, Unspecified), "5d"),
            ("9 kyu", kyu(9, Unspecified), "9k"),
            ("10 kyu", kyu(10, Unspecified), "10k"),
            ("5 dan", dan(5, Unspecified), "5d"),
            ("5-dan", dan(5, Unspecified), "5d"),
            ("9 pro", pro(9, Unspecified), "9p"),
            ("3 Dan?", dan(3, Uncertain), "3d?"),
            // Fox.
            ("9段", dan(9, Unspecified), "9d"),
            ("1段", dan(1, Unspecified), "1d"),
            ("P9段", pro(9, Unspecified), "9p"),
            ("P1段", pro(1, Unspecified), "1p"),
            ("18级", kyu(18, Unspecified), "18k"),
            ("1级", kyu(1, Unspecified), "1k"),
            // Other CJK forms.
            ("初段", dan(1, Unspecified), "1d"),
            ("九段", dan(9, Unspecified), "9d"),
            ("业余5段", dan(5, Unspecified), "5d"),
            ("职业九段", pro(9, Unspecified), "9p"),
            ("職業七段", pro(7, Unspecified), "7p"),
            ("5級", kyu(5, Unspecified), "5k"),
            ("十八级", kyu(18, Unspecified), "18k"),
            ("９段", dan(9, Unspecified), "9d"),
            ("9단", dan(9, Unspecified), "9d"),
            ("3급", kyu(3, Unspecified), "3k"),
            ("프로 9단", pro(9, Unspecified), "9p"),
            // Ratings, unranked.
            (
                "1500*",
                Rank::Rating {
                    value: 1500,
                    certainty: Established,
                },
                "1500*",
            ),
            (
                "2100",
                Rank::Rating {
                    value: 2100,
                    certainty: Unspecified,
                },
                "2100",
            ),
            (
                "1660?",
                Rank::Rating {
                    value: 1660,
                    certainty: Uncertain,
                },
                "1660?",
            ),
            ("NR", Rank::Unranked, "NR"),
            ("NR ", Rank::Unranked, "NR"),
            ("UR", Rank::Unranked, "NR"),
            ("-", Rank::Unranked, "NR"),
            ("?", Rank::Unranked, "NR"),
            ("unranked", Rank::Unranked, "NR"),
        ] {
            let rank = Rank::parse(text);
            assert_eq!(rank, want, "{text:?}");
            assert_eq!(rank.to_string(), display, "{text:?}");
            assert!(rank.is_known());
        }
    }

    #[test]
    fn ranks_unknown() {
        for text in [
            "",
            "16.1k",
            "13.0k",
            "15k* IGS",
            "0k",
            "31k",
            "10d",
            "10p",
            "0d",
            "9",
            "99",
            "P9级",
            "5d & 3d",
            "strong",
            "k",
            "d5",
            "p",
            "pro",
            "9段?!",
            "四十级",
        ] {
            let rank = Rank::parse(text);
            assert_eq!(rank, Rank::Unknown(text.trim().to_owned()), "{text:?}");
            assert_eq!(rank.to_string(), text.trim());
            assert!(!rank.is_known());
            assert_eq!(rank.certainty(), None);
        }
        assert_eq!(Rank::parse("5d*").certainty(), Some(Certainty::Established));
    }

    #[test]
    fn players() {
        let p = Player::new(Some(" Alice & Bob "), Some(" 5d "), Some("Team A"));
        assert_eq!(p.name, Some("Alice & Bob"));
        assert_eq!(p.names().collect::<Vec<_>>(), ["Alice", "Bob"]);
        assert!(p.is_pair());
        assert_eq!(p.rank_text, Some("5d"));
        assert_eq!(p.ranks().collect::<Vec<_>>(), vec![Rank::parse("5d")]);
        assert_eq!(p.team, Some("Team A"));

        let p = Player::new(Some("Lee Sedol"), None, Some("  "));
        assert_eq!(p.names().collect::<Vec<_>>(), ["Lee Sedol"]);
        assert!(!p.is_pair());
        assert_eq!((p.rank, p.team), (None, None));

        let p = Player::new(Some("&"), Some(""), None);
        assert_eq!(p.names().count(), 0);
        assert_eq!(p.rank, None);
        let p = Player::new(None, None, None);
        assert_eq!(p.names().count(), 0);
        assert!(!p.is_pair());
        let p = Player::new(Some("A&B&C"), Some("1d&2d&?"), None);
        assert_eq!(p.names().collect::<Vec<_>>(), ["A", "B", "C"]);
        assert_eq!(
            p.ranks().map(|r| r.to_string()).collect::<Vec<_>>(),
            ["1d", "2d", "NR"]
        );
    }

    // -- results ------------------------------------------------------------

    #[test]
    fn results_ff4() {
        use WinBy::*;
        for (text, want, display) in [
            ("0", GameResult::Draw, "Draw"),
            ("Draw", GameResult::Draw, "Draw"),
            ("Jigo", GameResult::Draw, "Draw"),
            ("B+R", win(B, Resignation), "B+R"),
            ("B+Resign", win(B, Resignation), "B+R"),
            ("W+T", win(W, Time), "W+T"),
            ("W+Time", win(W, Time), "W+T"),
            ("B+F", win(B, Forfeit), "B+F"),
            ("B+Forfeit", win(B, Forfeit), "B+F"),
            ("W+3.5", win(W, Points(3.5)), "W+3.5"),
            ("B+12", win(B, Points(12.0)), "B+12"),
            ("B+", win(B, Unspecified), "B+"),
            ("W+", win(W, Unspecified), "W+"),
            ("Void", GameResult::Void, "Void"),
            ("?", GameResult::Unknown, "?"),
        ] {
            let r = GameResult::parse(text);
            assert_eq!(r, want, "{text:?}");
            assert_eq!(r.to_string(), display, "{text:?}");
            assert!(r.is_parsed());
        }
    }

    #[test]
    fn results_lenient() {
        use WinBy::*;
        for (text, want) in [
            // Case, spaces.
            ("b+r", win(B, Resignation)),
            ("W+RESIGN", win(W, Resignation)),
            (" W + R ", win(W, Resignation)),
            ("draw", GameResult::Draw),
            ("DRAW", GameResult::Draw),
            ("jigo", GameResult::Draw),
            ("Ji-go", GameResult::Draw),
            ("0.0", GameResult::Draw),
            ("void", GameResult::Void),
            ("No result", GameResult::Void),
            ("unknown", GameResult::Unknown),
            // Fox margins, kept as written.
            ("B+0.25", win(B, Points(0.25))),
            ("W+0.0", win(W, Points(0.0))),
            ("W+0.02", win(W, Points(0.02))),
            ("B+0.75", win(B, Points(0.75))),
            ("B+0.50", win(B, Points(0.5))),
            ("W+12,5", win(W, Points(12.5))),
            ("B+3.5 points", win(B, Points(3.5))),
            ("B+3.5(counted)", win(B, Points(3.5))),
            ("B+1.5 ? W+timeout", win(B, Points(1.5))),
            ("B+5.", win(B, Points(5.0))),
            // Reasons with trailing text or other spellings.
            ("W+R ", win(W, Resignation)),
            ("W+R (disconnected)", win(W, Resignation)),
            ("B+Resignation", win(B, Resignation)),
            ("W+Resigned", win(W, Resignation)),
            ("W+time", win(W, Time)),
            ("B+time", win(B, Time)),
            ("W+Time Over", win(W, Time)),
            ("W+timeout", win(W, Time)),
            ("W+Time-out", win(W, Time)),
            ("B+Forfeited", win(B, Forfeit)),
            ("B+Illegal", win(B, Other("Illegal".into()))),
            ("W+Repetition", win(W, Other("Repetition".into()))),
            (
                "B+, human judge for communication error",
                win(B, Unspecified),
            ),
            (
                "B+, Goro crushed in his 126th move, and could not continue.",
                win(B, Unspecified),
            ),
            ("B+?", win(B, Unspecified)),
            // Colour words.
            ("Black+R", win(B, Resignation)),
            ("White+2.5", win(W, Points(2.5))),
            ("White resigns.", win(B, Resignation)),
            ("Black resigns. W 133.5 B 81.0", win(W, Resignation)),
            ("Black resigned", win(W, Resignation)),
            ("Black resigns by 5", win(W, Resignation)),
            ("Black wins", win(B, Unspecified)),
            ("White wins.", win(W, Unspecified)),
            ("W wins by 3.5", win(W, Points(3.5))),
            ("Black wins by resignation", win(B, Resignation)),
            ("White won by time", win(W, Time)),
            // CJK.
            ("黑中盘胜", win(B, Resignation)),
            ("白中盘胜", win(W, Resignation)),
            ("黒中押し勝ち", win(B, Resignation)),
            ("白中押し勝ち", win(W, Resignation)),
            ("黒3目半勝ち", win(B, Points(3.5))),
            ("白6目勝ち", win(W, Points(6.0))),
            ("白超时胜", win(W, Time)),
            ("黑胜", win(B, Unspecified)),
            ("흑 불계승", win(B, Resignation)),
            ("백 5집반승", win(W, Points(5.5))),
            ("B+中盘胜", win(B, Resignation)),
            ("和棋", GameResult::Draw),
            ("持碁", GameResult::Draw),
            ("ジゴ", GameResult::Draw),
            ("무승부", GameResult::Draw),
            ("无胜负", GameResult::Void),
            // Suspended play.
            ("has adjourned.", GameResult::Void),
            ("Game suspended", GameResult::Void),
        ] {
            assert_eq!(GameResult::parse(text), want, "{text:?}");
        }
    }

    #[test]
    fn results_unparsed() {
        for text in [
            "",
            "B",
            "W",
            "B-R",
            "B+-3",
            "B+3.5.5",
            "B+3x",
            "Bx+R",
            "X+R",
            "white is better",
            "1-0",
            "B++R",
        ] {
            let r = GameResult::parse(text);
            assert_eq!(r, GameResult::Unparsed(text.trim().to_owned()), "{text:?}");
            assert_eq!(r.to_string(), text.trim());
            assert!(!r.is_parsed());
            assert_eq!((r.winner(), r.margin()), (None, None));
        }
    }

    #[test]
    fn result_accessors() {
        let r = GameResult::parse("W+7.5");
        assert_eq!((r.winner(), r.margin()), (Some(W), Some(7.5)));
        let r = GameResult::parse("B+R");
        assert_eq!((r.winner(), r.margin()), (Some(B), None));
        assert_eq!(GameResult::parse("Draw").winner(), None);
        assert_eq!(GameResult::parse("B+Illegal").to_string(), "B+Illegal");
    }

    // -- dates --------------------------------------------------------------

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
            assert_eq!(err.raw, text, "{text:?}");
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

    // -- rules, time, application -------------------------------------------

    #[test]
    fn rules() {
        for (text, want) in [
            ("Japanese", Rules::Japanese),
            ("japanese", Rules::Japanese),
            ("JP", Rules::Japanese),
            ("Japanese rules", Rules::Japanese),
            ("日本规则", Rules::Japanese),
            ("Chinese", Rules::Chinese),
            ("chinese", Rules::Chinese),
            ("CN", Rules::Chinese),
            ("中国规则", Rules::Chinese),
            ("AGA", Rules::Aga),
            ("aga", Rules::Aga),
            ("AGA rules", Rules::Aga),
            ("GOE", Rules::Goe),
            ("Ing", Rules::Goe),
            ("Ing's", Rules::Goe),
            ("应氏规则", Rules::Goe),
            ("NZ", Rules::NewZealand),
            ("New Zealand", Rules::NewZealand),
            ("Korean", Rules::Korean),
            ("한국 룰", Rules::Korean),
            ("Tromp/Taylor", Rules::TrompTaylor),
            ("Tromp-Taylor", Rules::TrompTaylor),
            ("tt", Rules::TrompTaylor),
            (" Japanese ", Rules::Japanese),
            ("TT--", Rules::TrompTaylor),
            ("Lasker-Maas", Rules::Other("Lasker-Maas".into())),
            ("rules", Rules::Other("rules".into())),
        ] {
            assert_eq!(Rules::parse(text), want, "{text:?}");
        }
        assert_eq!(Rules::NewZealand.to_string(), "NZ");
        assert_eq!(Rules::Other("x".into()).as_str(), "x");
        assert_eq!(
            Rules::parse(Rules::TrompTaylor.as_str()),
            Rules::TrompTaylor
        );
    }

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
            assert_eq!(TimeLimit::parse(text).unwrap_err().raw, text, "{text:?}");
        }
    }

    #[test]
    fn applications() {
        for (text, name, version) in [
            ("GNU Go:3.8", "GNU Go", Some("3.8")),
            ("CGoban:3", "CGoban", Some("3")),
            ("foxwq", "foxwq", None),
            ("Aya 5.56", "Aya 5.56", None),
            ("HexGui:1.0.", "HexGui", Some("1.0.")),
            ("Drago:4.0:beta", "Drago", Some("4.0:beta")),
            ("name:", "name", None),
            (" Sabaki : 0.52 ", "Sabaki", Some("0.52")),
        ] {
            assert_eq!(
                Application::parse(text),
                Application { name, version },
                "{text:?}"
            );
        }
    }

    // -- GameInfo -----------------------------------------------------------

    fn info_of<'a>(props: &'a [(&'a str, &'a str)]) -> GameInfo<'a> {
        GameInfo::from_lookup(|ident| {
            props
                .iter()
                .find(|(i, _)| *i == ident)
                .map(|(_, v)| Cow::Borrowed(*v))
        })
    }

    #[test]
    fn game_info_fox_root() {
        // A Fox root node (names and GN as the exporter left them).
        let props = [
            ("GN", ""),
            ("DT", "2019-02-19"),
            ("PB", "相的佛陀"),
            ("PW", "zerobot"),
            ("BR", "9段"),
            ("WR", "P9段"),
            ("KM", "375"),
            ("HA", "0"),
            ("RU", "Chinese"),
            ("AP", "GNU Go:3.8"),
            ("RE", "W+R"),
            ("TM", "60"),
        ];
        let info = info_of(&props);
        assert_eq!(info.game_name(), None);
        assert_eq!(info.get("GN"), Some(""));
        assert_eq!(info.black().name, Some("相的佛陀"));
        assert_eq!(
            info.black().rank,
            Some(Rank::Dan {
                level: 9,
                certainty: Certainty::Unspecified
            })
        );
        assert_eq!(info.white().rank.unwrap().to_string(), "9p");
        let komi = info.komi().unwrap().unwrap();
        assert_eq!((komi.value(), komi.normalised()), (375.0, 7.5));
        assert_eq!(info.komi_points(), Some(7.5));
        assert_eq!(info.handicap(), Some(Handicap::NoStones(0)));
        assert_eq!(info.rules(), Some(Rules::Chinese));
        assert_eq!(info.rules_text(), Some("Chinese"));
        assert_eq!(info.result(), Some(win(W, WinBy::Resignation)));
        assert_eq!(info.dates().unwrap().unwrap().dates, [ymd(2019, 2, 19)]);
        assert_eq!(
            info.application(),
            Some(Application {
                name: "GNU Go",
                version: Some("3.8")
            })
        );
        assert_eq!(
            info.time_limit(),
            Some(Ok(TimeLimit {
                seconds: 60.0,
                lenient: false
            }))
        );
        assert_eq!(info.event(), None);
        assert_eq!(info.player(Color::White), info.white());
    }

    #[test]
    fn game_info_kgs_root() {
        // A KGS (CGoban 3) root node.
        let props = [
            ("RU", "Japanese"),
            ("KM", "0.50"),
            ("HA", "2"),
            ("TM", "300"),
            ("OT", "5x30 byo-yomi"),
            ("PW", "guxxan"),
            ("PB", "zchen"),
            ("WR", "7d"),
            ("BR", "5d?"),
            ("DT", "2017-01-01"),
            ("PC", "The KGS Go Server at http://www.gokgs.com/"),
            ("RE", "W+Resign"),
            ("GC", "  line one\nline two\n"),
            ("EV", "Tenth KGS Computer Go Tournament - Open division"),
            ("RO", "5 (final)"),
            ("CP", "Copyright KGS"),
            ("AN", "An"),
            ("SO", "So"),
            ("US", "Us"),
            ("ON", "Chinese fuseki"),
            ("BT", "Team B"),
            ("WT", "Team W"),
            ("GN", "zchen-guxxan"),
        ];
        let info = info_of(&props);
        assert_eq!(info.komi().unwrap().unwrap().normalised(), 0.5);
        assert_eq!(info.komi_points(), Some(0.5));
        assert_eq!(info.handicap().unwrap().stones(), Some(2));
        assert_eq!(info.overtime(), Some("5x30 byo-yomi"));
        assert_eq!(
            info.black().rank,
            Some(Rank::Dan {
                level: 5,
                certainty: Certainty::Uncertain
            })
        );
        assert_eq!(
            info.place(),
            Some("The KGS Go Server at http://www.gokgs.com/")
        );
        assert_eq!(info.game_comment(), Some("  line one\nline two\n"));
        assert_eq!(info.round(), Some("5 (final)"));
        assert_eq!(info.copyright(), Some("Copyright KGS"));
        assert_eq!(
            (info.annotator(), info.source(), info.user()),
            (Some("An"), Some("So"), Some("Us"))
        );
        assert_eq!(info.opening(), Some("Chinese fuseki"));
        assert_eq!(
            (info.black().team, info.white().team),
            (Some("Team B"), Some("Team W"))
        );
        assert_eq!(info.game_name(), Some("zchen-guxxan"));
        assert_eq!(
            info.event(),
            Some("Tenth KGS Computer Go Tournament - Open division")
        );
        let owned: GameInfo<'static> = info.clone().into_owned();
        assert_eq!(owned, info);
    }

    #[test]
    fn game_info_absent_blank_and_invalid() {
        let info = GameInfo::default();
        assert_eq!(info.komi(), None);
        assert_eq!(info.komi_points(), None);
        assert_eq!(info.handicap(), None);
        assert_eq!(info.result(), None);
        assert_eq!(info.dates(), None);
        assert_eq!(info.rules(), None);
        assert_eq!(info.time_limit(), None);
        assert_eq!(info.application(), None);
        assert_eq!(info.black(), Player::new(None, None, None));

        let props = [
            ("KM", ""),
            ("HA", " "),
            ("RE", ""),
            ("DT", ""),
            ("PB", "  "),
        ];
        let info = info_of(&props);
        assert_eq!(
            (info.komi(), info.handicap(), info.result(), info.dates()),
            (None, None, None, None)
        );
        assert_eq!(info.black().name, None);
        assert_eq!(info.get("KM"), Some(""));
        assert_eq!(info.get("SZ"), None);

        let props = [
            ("KM", "six"),
            ("HA", "two"),
            ("RE", "?!"),
            ("DT", "soon"),
            ("TM", "-"),
        ];
        let info = info_of(&props);
        assert_eq!(info.komi().unwrap().unwrap_err().raw, "six");
        assert_eq!(info.komi_points(), None);
        assert_eq!(info.handicap().unwrap().stones(), Some(2));
        assert_eq!(info.result(), Some(GameResult::Unparsed("?!".into())));
        assert_eq!(info.dates().unwrap().unwrap_err().raw, "soon");
        assert!(info.time_limit().unwrap().is_err());
    }

    #[test]
    fn game_info_lookup_once_each() {
        let mut asked = Vec::new();
        let _ = GameInfo::from_lookup(|ident| {
            asked.push(ident.to_owned());
            None
        });
        assert_eq!(asked, GAME_INFO_IDENTS);
    }

    #[test]
    fn game_info_from_pairs() {
        let info = GameInfo::from_pairs([
            ("AP", Cow::Borrowed("GNU Go:3.8")),
            ("SZ", Cow::Borrowed("19")),
            ("AP", Cow::Borrowed("foxwq")),
            ("KM", Cow::Owned("650".to_string())),
            ("RU", Cow::Borrowed("Japanese")),
        ]);
        assert_eq!(info.application().unwrap().name, "GNU Go");
        assert_eq!(info.komi_points(), Some(6.5));
        assert_eq!(info.get("SZ"), None);
    }

    #[test]
    fn real_corpus_values() {
        // Values as they occur in ../shared/corpus (counts from grep).
        assert_eq!(Komi::parse("650").unwrap().normalised(), 6.5); // 3,709 Fox files
        assert_eq!(Komi::parse("0.50").unwrap().normalised(), 0.5); // 12,585 KGS files
        assert_eq!(Komi::parse("-20.00").unwrap().normalised(), -20.0);
        assert_eq!(Handicap::parse("0").stones(), Some(0)); // 21,459
        assert_eq!(Rank::parse("P7段").to_string(), "7p"); // 1,068
        assert_eq!(Rank::parse("16级").to_string(), "16k");
        assert_eq!(Rank::parse("8k*").to_string(), "8k*");
        assert_eq!(GameResult::parse("W+R"), win(W, WinBy::Resignation)); // 12,886
        assert_eq!(GameResult::parse("W+Resign"), win(W, WinBy::Resignation));
        assert_eq!(GameResult::parse("B+Time"), win(B, WinBy::Time));
        assert_eq!(GameResult::parse("W+0.02"), win(W, WinBy::Points(0.02)));
        assert_eq!(GameResult::parse("draw"), GameResult::Draw); // 362 Fox
        assert_eq!(GameResult::parse("W+Forfeit"), win(W, WinBy::Forfeit));
        let d = GameDates::parse("2001/10/11 21:22:51 UT").unwrap();
        assert_eq!((d.first(), d.time_of_day), (ymd(2001, 10, 11), true));
        assert_eq!(TimeLimit::parse("30:00+30:00/25").unwrap().seconds, 1800.0);
        assert_eq!(Rules::parse("Tromp/Taylor"), Rules::TrompTaylor);
    }

    #[test]
    fn never_panics_on_odd_text() {
        let odd = [
            "",
            " ",
            "\u{0}",
            "ﾟ",
            "段",
            "P",
            "P段",
            "十",
            "十十",
            "+",
            "B+",
            "B+.",
            "B+,",
            "W+ ",
            "-",
            "--",
            ",",
            ",,",
            "1996-",
            "-05",
            "1996--05",
            "年",
            "年月日",
            "T",
            "1996T",
            "99999999999999999999",
            ":",
            "::",
            "1:",
            "h",
            "1h1",
            "\u{FFFD}\u{FFFD}",
            "黑",
            "白目",
            "白半目勝ち",
            "9999999999段",
        ];
        for text in odd {
            let _ = Komi::parse(text);
            let _ = Handicap::parse(text).stones();
            let _ = Rank::parse(text).to_string();
            let _ = GameResult::parse(text).to_string();
            let _ = GameDates::parse(text);
            let _ = Rules::parse(text);
            let _ = TimeLimit::parse(text);
            let _ = Application::parse(text);
            let _ = Player::new(Some(text), Some(text), Some(text))
                .ranks()
                .count();
        }
    }
}
