//! [`Filter`]: which games `sgf select` (or any scan) keeps, and why it
//! leaves the others out.

mod specs;

pub use specs::{BoardSizes, Bounds, DateRange, RankRange, ResultSpec, RuleSet, TextMatch};

use super::GameRow;
use crate::GameTree;
use std::fmt;

/// Why a [`Filter`] left a game out: the first of its filters the game
/// failed, in the order of the variants (the order
/// [`Filter::check`] tries them in).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Reason {
    /// Not one of the board sizes.
    Size,
    /// Handicap outside the range.
    Handicap,
    /// Komi absent or outside the range.
    Komi,
    /// A player's rank absent, not a kyu, dan or pro rank, or outside the
    /// range.
    Rank,
    /// Date absent or not within the range.
    Date,
    /// No player's name holds the text.
    Player,
    /// Not one of the results.
    Result,
    /// Main-line move count outside the range.
    Moves,
    /// Rules absent or not one of the rule sets.
    Rules,
    /// Event absent or not holding the text.
    Event,
    /// A property that must be present is not.
    Has,
    /// A property that must be absent is present.
    Lacks,
    /// Not rated as asked, or not known to be.
    Rated,
    /// A bot where none is wanted, or no bot where one is.
    Bots,
    /// Not from one of the servers (or from none known).
    Server,
    /// Main time absent or outside the range.
    MainTime,
}

impl Reason {
    /// The number of reasons.
    pub const COUNT: usize = 16;

    /// Every reason, in the order filters are tried.
    pub const ALL: [Reason; Reason::COUNT] = [
        Reason::Size,
        Reason::Handicap,
        Reason::Komi,
        Reason::Rank,
        Reason::Date,
        Reason::Player,
        Reason::Result,
        Reason::Moves,
        Reason::Rules,
        Reason::Event,
        Reason::Has,
        Reason::Lacks,
        Reason::Rated,
        Reason::Bots,
        Reason::Server,
        Reason::MainTime,
    ];

    /// A stable `snake_case` code, the filter's name in [`Filter::set`]:
    /// `size`, `handicap`, `komi`, `rank`, `date`, `player`, `result`,
    /// `moves`, `rules`, `event`, `has`, `lacks`, `rated`, `bots`,
    /// `server`, `main_time`.
    pub fn code(self) -> &'static str {
        match self {
            Reason::Size => "size",
            Reason::Handicap => "handicap",
            Reason::Komi => "komi",
            Reason::Rank => "rank",
            Reason::Date => "date",
            Reason::Player => "player",
            Reason::Result => "result",
            Reason::Moves => "moves",
            Reason::Rules => "rules",
            Reason::Event => "event",
            Reason::Has => "has",
            Reason::Lacks => "lacks",
            Reason::Rated => "rated",
            Reason::Bots => "bots",
            Reason::Server => "server",
            Reason::MainTime => "main_time",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A filter's text that could not be read: which filter, the text, and
/// why. Displays as `invalid komi filter "6..x": `x` is no number; …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilterError {
    filter: &'static str,
    value: String,
    why: String,
}

impl FilterError {
    pub(crate) fn new(filter: &'static str, value: &str, why: String) -> FilterError {
        FilterError {
            filter,
            value: value.to_owned(),
            why,
        }
    }

    /// The same error, naming `filter`.
    fn named(mut self, filter: &'static str) -> FilterError {
        self.filter = filter;
        self
    }

    /// The filter's name (`komi`), or the kind of value (`range`) when the
    /// value was parsed on its own.
    pub fn filter(&self) -> &str {
        self.filter
    }

    /// The text that was given.
    pub fn value(&self) -> &str {
        &self.value
    }

    /// Why it could not be read.
    pub fn reason(&self) -> &str {
        &self.why
    }
}

impl fmt::Display for FilterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid {} filter {:?}: {}",
            self.filter, self.value, self.why
        )
    }
}

impl std::error::Error for FilterError {}

/// Filters on games, combined with AND: a game is kept when it passes all
/// that are set. A filter that is not set lets every game through.
///
/// | name ([`Filter::set`]) | value | a game passes when | needs |
/// |---|---|---|---|
/// | `size` | [`BoardSizes`]: `19`, `19x13`, `9,13,19` | its board is one of them | row |
/// | `handicap` | [`Bounds<u32>`]: `2..9`, `0`, `..1` | its handicap is within (no `HA` counts as 0; an unreadable `HA` fails) | row |
/// | `komi` | [`Bounds<f64>`]: `6.5..7.5`, `..7`, `6..` | its komi **in points** ([`GameRow::komi_points`], Fox's `KM[650]` is 6.5) is within; no komi fails | row |
/// | `rank` | [`RankRange`]: `5d..9d`, `10k..1k`, `1p..` | **both** players' ranks are within; a missing or unreadable rank fails | row |
/// | `date` | [`DateRange`]: `2010..2015`, `2019-01-01..2019-06-30` | its first date lies wholly within; no date fails | row |
/// | `player` | [`TextMatch`]: `lee` | either player's name holds the text, ignoring case | row |
/// | `result` | [`ResultSpec`]: `B+R`, `W+`, `draw`, `B+R,W+T` | its result is one of them | row |
/// | `moves` | [`Bounds<u32>`]: `50..`, `100..300` | its main-line move count ([`GameRow::move_count`]) is within | row |
/// | `rules` | [`RuleSet`]: `japanese`, `chinese,korean` | its rules are one of them; no `RU` fails | row |
/// | `event` | [`TextMatch`]: `meijin` | its event (`EV`) holds the text, ignoring case | row |
/// | `has` (repeatable) | a property identifier: `LB` | some node of the game holds the property | game |
/// | `lacks` (repeatable) | a property identifier: `C` | no node of the game holds it | game |
/// | `rated` | `yes` or `no` | [`GameRow::rated`] says so (unknown fails both) | row |
/// | `bots` | `none`, `any`, `both` | no player, at least one, or both are bots ([`GameRow::black_bot`]) | row |
/// | `server` | names: `fox`, `kgs,ogs` | [`GameRow::server`] is one of them | row |
/// | `main_time` | [`Bounds<f64>`] in seconds: `1800..`, `..600` | [`GameRow::time`]'s main time is within; no `TM` fails | row |
///
/// The filters marked *row* look at a [`GameRow`] ([`Filter::matches`]);
/// `has` and `lacks` look at the game tree
/// ([`Filter::matches_game`]), whose every node they visit.
/// [`Filter::check`] runs both, rows first, and names the first filter a
/// game fails ([`Reason`]), so a summary can count rejections by reason.
///
/// ```
/// use sgf_grove::table::{Filter, GameRow, Reason};
///
/// let mut filter = Filter::new();
/// filter.set("size", "19")?;
/// filter.set("komi", "6.5..7.5")?;
/// filter.set("lacks", "C")?;
/// let doc = sgf_grove::parse(b"(;SZ[19]KM[650]RU[Japanese];B[pd])(;SZ[9]KM[7];B[ee])(;SZ[19]KM[7.5];B[dd]C[hi])")?;
/// let verdicts: Vec<_> = doc
///     .games()
///     .map(|game| filter.check(&GameRow::from_game(game, "a.sgf", 0), game))
///     .collect();
/// assert_eq!(verdicts, [Ok(()), Err(Reason::Size), Err(Reason::Lacks)]);
/// assert!(filter.set("komi", "6.5..x").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Filter {
    size: Option<BoardSizes>,
    handicap: Option<Bounds<u32>>,
    komi: Option<Bounds<f64>>,
    rank: Option<RankRange>,
    date: Option<DateRange>,
    player: Option<TextMatch>,
    result: Option<ResultSpec>,
    moves: Option<Bounds<u32>>,
    rules: Option<RuleSet>,
    event: Option<TextMatch>,
    has: Vec<String>,
    lacks: Vec<String>,
    rated: Option<bool>,
    bots: Option<Bots>,
    server: Option<Vec<String>>,
    main_time: Option<Bounds<f64>>,
}

/// The `bots` filter's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bots {
    None,
    Any,
    Both,
}

impl Filter {
    /// A filter that keeps every game.
    pub fn new() -> Filter {
        Filter::default()
    }

    /// Sets the filter `name` (see the table in [`Filter`]) from text as
    /// a command line passes it. Setting a filter again replaces it,
    /// except `has` and `lacks`, which add a property each time.
    ///
    /// # Errors
    ///
    /// When `name` is no filter, or `value` cannot be read for it; the
    /// error says which and why.
    pub fn set(&mut self, name: &str, value: &str) -> Result<&mut Filter, FilterError> {
        let named = |e: FilterError, n| e.named(n);
        match name {
            "size" => self.size = Some(value.parse().map_err(|e| named(e, "size"))?),
            "handicap" => self.handicap = Some(value.parse().map_err(|e| named(e, "handicap"))?),
            "komi" => self.komi = Some(value.parse().map_err(|e| named(e, "komi"))?),
            "rank" => self.rank = Some(value.parse().map_err(|e| named(e, "rank"))?),
            "date" => self.date = Some(value.parse().map_err(|e| named(e, "date"))?),
            "player" => self.player = Some(value.parse().map_err(|e| named(e, "player"))?),
            "result" => self.result = Some(value.parse().map_err(|e| named(e, "result"))?),
            "moves" => self.moves = Some(value.parse().map_err(|e| named(e, "moves"))?),
            "rules" => self.rules = Some(value.parse().map_err(|e| named(e, "rules"))?),
            "event" => self.event = Some(value.parse().map_err(|e| named(e, "event"))?),
            "has" => self
                .has
                .push(specs::ident(value).map_err(|why| FilterError::new("has", value, why))?),
            "lacks" => self
                .lacks
                .push(specs::ident(value).map_err(|why| FilterError::new("lacks", value, why))?),
            "rated" => {
                self.rated = Some(match value.trim().to_ascii_lowercase().as_str() {
                    "yes" | "true" | "rated" => true,
                    "no" | "false" | "unrated" => false,
                    _ => {
                        return Err(FilterError::new(
                            "rated",
                            value,
                            "neither yes nor no".into(),
                        ))
                    }
                })
            }
            "bots" => {
                self.bots = Some(match value.trim().to_ascii_lowercase().as_str() {
                    "none" | "no" => Bots::None,
                    "any" => Bots::Any,
                    "both" => Bots::Both,
                    _ => {
                        return Err(FilterError::new(
                            "bots",
                            value,
                            "none of none, any, both".into(),
                        ))
                    }
                })
            }
            "server" => {
                let names: Vec<String> = value
                    .split(',')
                    .map(|n| n.trim().to_ascii_lowercase())
                    .filter(|n| !n.is_empty())
                    .collect();
                if let Some(bad) = names.iter().find(|n| {
                    !crate::repair::Source::ALL
                        .iter()
                        .any(|s| s.name() == n.as_str())
                }) {
                    return Err(FilterError::new(
                        "server",
                        value,
                        format!("{bad:?} is no server known (fox, kgs, ogs, gogod, go4go)"),
                    ));
                }
                if names.is_empty() {
                    return Err(FilterError::new("server", value, "no server named".into()));
                }
                self.server = Some(names);
            }
            "main_time" | "main-time" => {
                self.main_time = Some(value.parse().map_err(|e| named(e, "main_time"))?)
            }
            _ => {
                return Err(FilterError::new(
                    "unknown",
                    name,
                    "no such filter; the filters are size, handicap, komi, rank, date, player, \
                     result, moves, rules, event, has, lacks, rated, bots, server, main_time"
                        .into(),
                ))
            }
        }
        Ok(self)
    }

    /// Keeps games on one of these boards.
    #[must_use]
    pub fn size(mut self, sizes: BoardSizes) -> Filter {
        self.size = Some(sizes);
        self
    }

    /// Keeps games whose handicap is within (no `HA` counts as 0).
    #[must_use]
    pub fn handicap(mut self, stones: Bounds<u32>) -> Filter {
        self.handicap = Some(stones);
        self
    }

    /// Keeps games whose komi in points is within.
    #[must_use]
    pub fn komi(mut self, points: Bounds<f64>) -> Filter {
        self.komi = Some(points);
        self
    }

    /// Keeps games where both players' ranks are within.
    #[must_use]
    pub fn rank(mut self, ranks: RankRange) -> Filter {
        self.rank = Some(ranks);
        self
    }

    /// Keeps games whose first date lies within.
    #[must_use]
    pub fn date(mut self, dates: DateRange) -> Filter {
        self.date = Some(dates);
        self
    }

    /// Keeps games where either player's name holds the text.
    #[must_use]
    pub fn player(mut self, name: TextMatch) -> Filter {
        self.player = Some(name);
        self
    }

    /// Keeps games with one of these results.
    #[must_use]
    pub fn result(mut self, results: ResultSpec) -> Filter {
        self.result = Some(results);
        self
    }

    /// Keeps games whose main line has this many moves.
    #[must_use]
    pub fn moves(mut self, count: Bounds<u32>) -> Filter {
        self.moves = Some(count);
        self
    }

    /// Keeps games played under one of these rule sets.
    #[must_use]
    pub fn rules(mut self, rules: RuleSet) -> Filter {
        self.rules = Some(rules);
        self
    }

    /// Keeps games whose event holds the text.
    #[must_use]
    pub fn event(mut self, event: TextMatch) -> Filter {
        self.event = Some(event);
        self
    }

    /// Whether some filter needs the game tree ([`Filter::matches_game`]):
    /// `has` or `lacks` is set.
    pub fn needs_game(&self) -> bool {
        !self.has.is_empty() || !self.lacks.is_empty()
    }

    /// Whether no filter is set.
    pub fn is_empty(&self) -> bool {
        *self == Filter::default()
    }

    /// Runs the filters that look at a row (all but `has` and `lacks`), in
    /// the order of [`Reason`]; the first one failed is the error.
    ///
    /// # Errors
    ///
    /// The [`Reason`] of the first filter the row fails.
    pub fn matches(&self, row: &GameRow) -> Result<(), Reason> {
        let pass = |ok: bool, reason| if ok { Ok(()) } else { Err(reason) };
        if let Some(sizes) = &self.size {
            pass(sizes.contains(row.board_cols, row.board_rows), Reason::Size)?;
        }
        if let Some(bounds) = &self.handicap {
            let stones = match row.handicap {
                Some(n) => Some(n),
                None if !row.has_handicap_text => Some(0),
                None => None,
            };
            pass(stones.is_some_and(|n| bounds.contains(n)), Reason::Handicap)?;
        }
        if let Some(bounds) = &self.komi {
            pass(
                row.komi_points.is_some_and(|k| bounds.contains(k)),
                Reason::Komi,
            )?;
        }
        if let Some(ranks) = &self.rank {
            let within = |r: Option<i8>| r.is_some_and(|r| ranks.contains(r));
            pass(
                within(row.black_rank_value) && within(row.white_rank_value),
                Reason::Rank,
            )?;
        }
        if let Some(dates) = &self.date {
            pass(
                row.first_date.is_some_and(|d| dates.contains(d)),
                Reason::Date,
            )?;
        }
        if let Some(name) = &self.player {
            let holds = |n: &Option<String>| n.as_deref().is_some_and(|n| name.is_in(n));
            pass(
                holds(&row.black_name) || holds(&row.white_name),
                Reason::Player,
            )?;
        }
        if let Some(results) = &self.result {
            pass(results.matches(row), Reason::Result)?;
        }
        if let Some(bounds) = &self.moves {
            pass(bounds.contains(row.move_count), Reason::Moves)?;
        }
        if let Some(rules) = &self.rules {
            pass(
                row.rules.as_deref().is_some_and(|r| rules.contains(r)),
                Reason::Rules,
            )?;
        }
        if let Some(event) = &self.event {
            pass(
                row.event.as_deref().is_some_and(|e| event.is_in(e)),
                Reason::Event,
            )?;
        }
        if let Some(rated) = self.rated {
            pass(row.rated == Some(rated), Reason::Rated)?;
        }
        if let Some(bots) = self.bots {
            let ok = match bots {
                Bots::None => !row.black_bot && !row.white_bot,
                Bots::Any => row.black_bot || row.white_bot,
                Bots::Both => row.black_bot && row.white_bot,
            };
            pass(ok, Reason::Bots)?;
        }
        if let Some(servers) = &self.server {
            pass(
                row.server.is_some_and(|s| servers.iter().any(|n| n == s)),
                Reason::Server,
            )?;
        }
        if let Some(bounds) = &self.main_time {
            pass(
                row.time.main_seconds.is_some_and(|t| bounds.contains(t)),
                Reason::MainTime,
            )?;
        }
        Ok(())
    }

    /// Runs the filters that look at the game tree, `has` then `lacks`:
    /// one walk over every property of every node, and only when one of
    /// them is set.
    ///
    /// # Errors
    ///
    /// [`Reason::Has`] when a property asked for is in no node,
    /// [`Reason::Lacks`] when a property ruled out is in some node.
    pub fn matches_game(&self, game: GameTree<'_, '_>) -> Result<(), Reason> {
        if !self.needs_game() {
            return Ok(());
        }
        let mut found_has = vec![false; self.has.len()];
        let mut found_lacks = false;
        'walk: for node in game.nodes() {
            for prop in node.properties() {
                let ident = prop.ident_bytes();
                for (i, want) in self.has.iter().enumerate() {
                    if want.as_bytes() == ident {
                        found_has[i] = true;
                    }
                }
                if self.lacks.iter().any(|l| l.as_bytes() == ident) {
                    found_lacks = true;
                    if found_has.iter().all(|&f| f) {
                        break 'walk;
                    }
                }
            }
        }
        if !found_has.iter().all(|&f| f) {
            return Err(Reason::Has);
        }
        if found_lacks {
            return Err(Reason::Lacks);
        }
        Ok(())
    }

    /// [`Filter::matches`], then [`Filter::matches_game`]: whether the game
    /// is kept, or the first filter it fails.
    ///
    /// # Errors
    ///
    /// The [`Reason`] of the first filter the game fails.
    pub fn check(&self, row: &GameRow, game: GameTree<'_, '_>) -> Result<(), Reason> {
        self.matches(row)?;
        self.matches_game(game)
    }
}
