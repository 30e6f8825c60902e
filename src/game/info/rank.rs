//! Players (`PB`, `PW`, `BT`, `WT`) and ranks (`BR`, `WR`).

use super::helpers::simple_text;
use super::helpers::{leading_number, non_blank};
use crate::value::{FromValue, ValueContext, ValueType};
use std::fmt;

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
    /// A rank as one signed number, so that ranks sort and compare:
    /// `30k` … `1k` are −30 … −1, `1d` … `9d` are 1 … 9, and `1p` … `9p` are
    /// 11 … 19 (every professional rank above every amateur one; 0 and 10 are
    /// never used). Ratings, `NR` and text that is no rank have no number.
    ///
    /// ```
    /// use sgf_grove::game::Rank;
    /// /// assert_eq!(Rank::parse("30k").number(), Some(-30));
    /// assert_eq!(Rank::parse("1k").number(), Some(-1));
    /// assert_eq!(Rank::parse("5d?").number(), Some(5));
    /// assert_eq!(Rank::parse("P9段").number(), Some(19));
    /// assert_eq!(Rank::parse("NR").number(), None);
    /// ```
    pub fn number(&self) -> Option<i8> {
        // The levels are checked by `Rank::parse` (kyu 1-30, dan and pro 1-9);
        // a rank built by hand may hold anything, so clamp rather than trust.
        match self {
            Rank::Kyu { level, .. } => Some(-((*level).clamp(1, 30) as i8)),
            Rank::Dan { level, .. } => Some((*level).clamp(1, 9) as i8),
            Rank::Pro { level, .. } => Some(10 + (*level).clamp(1, 9) as i8),
            Rank::Rating { .. } | Rank::Unranked | Rank::Unknown(_) => None,
        }
    }

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
/// (`BT`/`WT`), as [`GameInfo::black`](super::GameInfo::black) and
/// [`GameInfo::white`](super::GameInfo::white) give them.
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
    pub fn names(&self) -> impl Iterator<Item = &'s str> + Clone + 's + use<'s> {
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
    pub fn ranks(&self) -> impl Iterator<Item = Rank> + 's + use<'s> {
        self.rank_text
            .unwrap_or("")
            .split('&')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(Rank::parse)
    }
}

/// `BR` or `WR` read from a node: decoded as SimpleText in the game's
/// charset, then [`Rank::parse`]. Never fails.
///
/// ```
/// use sgf_grove::game::{Certainty, Rank};
/// let doc = sgf_grove::parse(b"(;BR[5d?]WR[9p])")?;
/// let root = doc.games().next().unwrap().root();
/// assert_eq!(
///     root.get::<Rank>("BR")?,
///     Some(Rank::Dan { level: 5, certainty: Certainty::Uncertain })
/// );
/// # Ok::<(), sgf_grove::Error>(())
/// ```
impl<'a> FromValue<'a> for Rank {
    const TYPE: ValueType = ValueType::SimpleText;

    fn from_value(raw: &'a [u8], ctx: &ValueContext<'a>) -> Option<Self> {
        Some(Rank::parse(simple_text(raw, ctx)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
