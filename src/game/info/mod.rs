//! Game-information values: pure parsers on decoded text, one file per
//! kind of value, and [`GameInfo`], which collects them for one game.
//!
//! # One shape of accessor
//!
//! Every typed accessor of [`GameInfo`] returns `Option<T>`: the value when
//! the property is there and reads, `None` when it is absent or cannot be
//! read. The three whose text can fail to read, [`GameInfo::komi`],
//! [`GameInfo::dates`] and [`GameInfo::time_limit`], each have a second
//! method with `_checked` at the end of its name that tells the two cases
//! apart: `None` when absent, `Some(Err(e))` with the error (which names
//! the value, [`Error::value_text`](crate::Error::value_text)) when
//! unreadable. The text as written is [`GameInfo::get`].
//!
//! ```
//! let doc = sgf_grove::parse(b"(;KM[6.5]DT[April 14-15, 1957]TM[an hour])")?;
//! let info = doc.games().next().unwrap().game_info();
//! assert_eq!(info.komi().map(|k| k.value()), Some(6.5));
//! assert_eq!(info.dates().map(|d| d.dates.len()), Some(2));
//! // `TM[an hour]` does not read: `None`, and the error from the second
//! // method.
//! assert!(info.time_limit().is_none());
//! let err = info.time_limit_checked().unwrap().unwrap_err();
//! assert_eq!(err.value_text(), Some("an hour"));
//! assert!(info.handicap().is_none() && info.get("HA").is_none());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod application;
mod date;
mod handicap;
mod helpers;
mod komi;
mod rank;
mod result;
mod rules;
mod time;

pub use application::Application;
pub use date::{GameDates, PartialDate};
pub use handicap::Handicap;
pub use komi::{Komi, KomiScale};
pub use rank::{Certainty, Player, Rank};
pub use result::{GameResult, WinBy};
pub use rules::Rules;
pub use time::TimeLimit;

use crate::error::Result;
use crate::value::{Color, ValueContext};
use helpers::non_blank;
use std::borrow::Cow;

/// Declares the game-info properties [`GameInfo`] reads from one list of
/// identifiers: [`GAME_INFO_IDENTS`], a `usize` constant per identifier
/// (its slot in [`GameInfo`], used by the accessors), and [`slot`], which
/// maps an identifier to its slot. A new property is one more identifier
/// here (and its accessor).
macro_rules! game_info_idents {
    ($($ident:ident)*) => {
        /// The game-info properties [`GameInfo`] reads, in its order. (Board size,
        /// `SZ`, is a root property with its own getter,
        /// [`GameTree::board_size`](crate::GameTree::board_size).)
        pub const GAME_INFO_IDENTS: [&str; Slot::COUNT] = [$(stringify!($ident)),*];

        /// The slots of [`GameInfo::values`], one per identifier, in the
        /// order of [`GAME_INFO_IDENTS`].
        #[allow(clippy::upper_case_acronyms)]
        #[derive(Clone, Copy)]
        enum Slot {
            $($ident,)*
        }

        impl Slot {
            const COUNT: usize = [$(Slot::$ident),*].len();
        }

        $(const $ident: usize = Slot::$ident as usize;)*

        /// Each identifier's bytes, as patterns for [`slot`].
        mod ident_bytes {
            $(pub(super) const $ident: &[u8] = stringify!($ident).as_bytes();)*
        }

        /// The position of `ident` in [`GAME_INFO_IDENTS`]: one `match` on
        /// its bytes, no search.
        #[inline]
        fn slot(ident: &[u8]) -> Option<usize> {
            Some(match ident {
                $(ident_bytes::$ident => $ident,)*
                _ => return None,
            })
        }
    };
}

// The game-info properties, in the order of `GAME_INFO_IDENTS` (and of the
// `info` column of the tables). Each is also in the property catalogue,
// as a game-info property of Go (`AP`, a root property, aside); a test
// below checks both ways.
game_info_idents! {
    PB BR BT PW WR WT KM HA RE DT RU EV RO PC GN GC
    AP TM OT CP AN SO US ON
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
/// [`GameTree::game_info`](crate::GameTree::game_info) builds it for a
/// parsed game.
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
            if let Some(i) = slot(ident.as_ref().as_bytes()) {
                info.values[i].get_or_insert(text);
            }
        }
        info
    }

    /// Builds the game information from a root node's properties in file
    /// order, `(identifier, first raw value)`: one pass, each game-info
    /// value decoded (SimpleText; `GC` as Text) in `ctx` the first time its
    /// identifier comes, every other property skipped without decoding.
    pub(crate) fn from_root<'p, I>(props: I, ctx: &ValueContext<'a>) -> GameInfo<'a>
    where
        I: IntoIterator<Item = (&'p [u8], &'a [u8])>,
    {
        let mut info = GameInfo::default();
        for (ident, raw) in props {
            if let Some(i) = slot(ident)
                && info.values[i].is_none()
            {
                let text = if i == GC {
                    ctx.text(raw)
                } else {
                    ctx.simple_text(raw)
                };
                info.values[i] = Some(Cow::Borrowed(text));
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
        self.values[slot(ident.as_bytes())?].as_deref()
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

    /// Komi (`KM`); see [`Komi`]. `None` when absent or unreadable
    /// ([`GameInfo::komi_checked`] tells them apart).
    pub fn komi(&self) -> Option<Komi<'_>> {
        self.komi_checked()?.ok()
    }

    /// Komi (`KM`) with its error: `None` when absent, `Some(Err(_))` when
    /// unreadable.
    ///
    /// # Errors
    ///
    /// Inside the `Option`: [`Komi::parse`]'s, naming the value.
    pub fn komi_checked(&self) -> Option<Result<Komi<'_>>> {
        self.raw(KM).map(Komi::parse)
    }

    /// Komi in points: [`Komi::normalised_for`] with the game's rules;
    /// `None` when absent or unreadable.
    pub fn komi_points(&self) -> Option<f64> {
        let komi = self.komi()?;
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

    /// Dates (`DT`); see [`GameDates`]. `None` when absent or unreadable
    /// ([`GameInfo::dates_checked`] tells them apart).
    pub fn dates(&self) -> Option<GameDates> {
        self.dates_checked()?.ok()
    }

    /// Dates (`DT`) with their error: `None` when absent, `Some(Err(_))`
    /// when unreadable.
    ///
    /// # Errors
    ///
    /// Inside the `Option`: [`GameDates::parse`]'s, naming the value.
    pub fn dates_checked(&self) -> Option<Result<GameDates>> {
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

    /// Time limit (`TM`); see [`TimeLimit`]. `None` when absent or
    /// unreadable ([`GameInfo::time_limit_checked`] tells them apart).
    pub fn time_limit(&self) -> Option<TimeLimit> {
        self.time_limit_checked()?.ok()
    }

    /// Time limit (`TM`) with its error: `None` when absent,
    /// `Some(Err(_))` when unreadable.
    ///
    /// # Errors
    ///
    /// Inside the `Option`: [`TimeLimit::parse`]'s, naming the value.
    pub fn time_limit_checked(&self) -> Option<Result<TimeLimit>> {
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

    fn ymd(year: i32, month: u8, day: u8) -> PartialDate {
        PartialDate::new(year, Some(month), Some(day)).expect("valid test date")
    }

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
        let komi = info.komi().unwrap();
        assert_eq!((komi.value(), komi.normalised()), (375.0, 7.5));
        assert_eq!(info.komi_points(), Some(7.5));
        assert_eq!(info.handicap(), Some(Handicap::NoStones(0)));
        assert_eq!(info.rules(), Some(Rules::Chinese));
        assert_eq!(info.rules_text(), Some("Chinese"));
        assert_eq!(info.result(), Some(win(W, WinBy::Resignation)));
        assert_eq!(info.dates().unwrap().dates, [ymd(2019, 2, 19)]);
        assert_eq!(
            info.application(),
            Some(Application {
                name: "GNU Go".into(),
                version: Some("3.8".into())
            })
        );
        assert_eq!(
            info.time_limit(),
            Some(TimeLimit {
                seconds: 60.0,
                lenient: false
            })
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
        assert_eq!(info.komi().unwrap().normalised(), 0.5);
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
        assert_eq!(
            (
                info.komi_checked(),
                info.dates_checked(),
                info.time_limit_checked()
            ),
            (None, None, None)
        );
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
        // Unreadable: `None` from the accessor, the error from the
        // checked one.
        assert_eq!(
            (info.komi(), info.dates(), info.time_limit()),
            (None, None, None)
        );
        assert_eq!(
            info.komi_checked().unwrap().unwrap_err().value_text(),
            Some("six")
        );
        assert_eq!(info.komi_points(), None);
        assert_eq!(info.handicap().unwrap().stones(), Some(2));
        assert_eq!(info.result(), Some(GameResult::Unparsed("?!".into())));
        assert_eq!(
            info.dates_checked().unwrap().unwrap_err().value_text(),
            Some("soon")
        );
        assert!(info.time_limit_checked().unwrap().is_err());
    }

    /// The list of game-info identifiers and the catalogue agree: each
    /// identifier is a Go game-info property there (`AP` a root one), and
    /// each game-info property of the general and Go tables of FF[4] is
    /// read here; `slot` finds each at its position.
    #[test]
    fn game_info_idents_agree_with_the_catalogue() {
        use crate::value::catalogue::{lookup, GENERAL, GO};
        use crate::value::PropKind;
        for (i, ident) in GAME_INFO_IDENTS.iter().enumerate() {
            let info = lookup(1, ident).expect("in the catalogue");
            let want = if *ident == "AP" {
                PropKind::Root
            } else {
                PropKind::GameInfo
            };
            assert_eq!(info.kind, want, "{ident}");
            assert_eq!(slot(ident.as_bytes()), Some(i), "{ident}");
        }
        for info in GENERAL.iter().chain(GO) {
            if info.kind == PropKind::GameInfo {
                assert!(GAME_INFO_IDENTS.contains(&info.ident), "{}", info.ident);
            }
        }
        let mut sorted = GAME_INFO_IDENTS;
        sorted.sort_unstable();
        assert!(sorted.windows(2).all(|w| w[0] != w[1]), "no duplicate");
        for other in ["SZ", "P", "PBX", "pb", "", "GM"] {
            assert_eq!(slot(other.as_bytes()), None, "{other}");
        }
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
