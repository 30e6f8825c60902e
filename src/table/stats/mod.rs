//! [`Stats`]: what `sgf stats` reports, accumulated game by game and
//! merged across threads.

mod report;
mod tally;
mod text;

pub use report::{CharsetSummary, Count, DateSummary, PropertyCount, StatsReport};
pub use text::thousands;

use super::filter::Reason;
use super::row::ResultKind;
use super::warnings::GameWarnings;
use super::GameRow;
use crate::error::{Warning, WarningKind};
use crate::game::PartialDate;
use crate::text::CharsetSource;
use crate::{Collection, GameTree};
use std::collections::BTreeMap;
use tally::PropertyTally;

/// How many players [`StatsReport::players`] lists unless told otherwise.
pub const DEFAULT_TOP_PLAYERS: usize = 20;

/// Statistics over a scan: counts of files, games, nodes, moves, bytes and
/// failures, and tallies of board sizes, rules, results, handicaps, komi,
/// dates, players, applications, charsets, properties, warnings and
/// rejections.
///
/// # Feeding it
///
/// The scan calls, for what it meets:
///
/// - [`Stats::add_file`] for each file or archive member read (its bytes);
/// - [`Stats::add_failure`] for each input or game that could not be read;
/// - [`Stats::add_game`] for each game kept, with its [`GameRow`]: the row
///   gives the game information and counts, the tree the properties and
///   the warnings by kind (see [`GameRow::warning_count`] for which
///   warnings are a game's). [`Stats::add_row`] takes the row alone, for
///   rows read back from elsewhere: it counts no properties and no
///   warnings by kind;
/// - [`Stats::add_stray_warnings`] for a collection that holds warnings but
///   no game (junk after a member's last game, handed out alone by a
///   stream);
/// - [`Stats::add_rejection`] for each game a [`Filter`](super::Filter)
///   left out (it is not added as a game);
/// - [`Stats::set_seconds`] once, with the scan's wall-clock time.
///
/// # Threads
///
/// Each thread fills a `Stats` of its own; [`Stats::merge`] adds one into
/// another. Every tally is a sum, a minimum or a maximum kept in ordered
/// maps (and seconds as whole nanoseconds), so merging is associative and
/// commutative, and the report is the same, byte for byte, whatever the
/// split of the games among threads and the order of the merges. Lists are
/// sorted when the report is made: by count, largest first, ties by name.
///
/// Memory grows with the number of distinct values (player names above
/// all), not with the number of games.
///
/// ```
/// use sgf_grove::table::{GameRow, Stats};
///
/// let input = b"(;SZ[19]PB[Lee]PW[Cho]RE[B+R];B[pd];W[dd])(;SZ[9]PB[Lee]RE[W+3.5];B[ee])";
/// let doc = sgf_grove::parse(input)?;
/// let (mut left, mut right) = (Stats::new(), Stats::new());
/// left.add_file(input.len() as u64);
/// for (i, game) in doc.games().enumerate() {
///     let row = GameRow::from_game(game, "a.sgf", 0);
///     if i == 0 { left.add_game(&row, game) } else { right.add_game(&row, game) }
/// }
/// left.merge(right);
/// let report = left.report();
/// assert_eq!((report.files, report.games, report.moves), (1, 2, 3));
/// assert_eq!(report.players[0].value, "Lee");
/// assert_eq!(report.players[0].count, 2);
/// assert!(left.to_json().starts_with("{\"files\":1,\"games\":2,"));
/// # Ok::<(), sgf_grove::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stats {
    top: usize,
    files: u64,
    games: u64,
    nodes: u64,
    moves: u64,
    invalid_moves: u64,
    variations: u64,
    bytes: u64,
    failed: u64,
    nanos: u64,
    failures: BTreeMap<String, u64>,
    skipped: BTreeMap<String, u64>,
    board_sizes: BTreeMap<(u8, u8), u64>,
    rules: BTreeMap<String, u64>,
    no_rules: u64,
    results: [u64; ResultKind::ALL.len()],
    no_result: u64,
    winners: [u64; 2],
    handicaps: BTreeMap<u32, u64>,
    no_handicap: u64,
    /// Komi in points, by the bits of the value.
    komi: BTreeMap<u64, u64>,
    /// Komi as written, by the bits of the value.
    komi_written: BTreeMap<u64, u64>,
    no_komi: u64,
    first_date: Option<PartialDate>,
    last_date: Option<PartialDate>,
    by_year: BTreeMap<i32, u64>,
    undated: u64,
    players: BTreeMap<String, u64>,
    applications: BTreeMap<String, u64>,
    charsets_declared: BTreeMap<String, u64>,
    charsets_used: BTreeMap<String, u64>,
    charset_sources: [u64; 3],
    properties: PropertyTally,
    warnings_total: u64,
    warnings: [u64; WarningKind::COUNT],
    rejections: [u64; Reason::COUNT],
}

impl Default for Stats {
    fn default() -> Self {
        Stats {
            top: DEFAULT_TOP_PLAYERS,
            files: 0,
            games: 0,
            nodes: 0,
            moves: 0,
            invalid_moves: 0,
            variations: 0,
            bytes: 0,
            failed: 0,
            nanos: 0,
            failures: BTreeMap::new(),
            skipped: BTreeMap::new(),
            board_sizes: BTreeMap::new(),
            rules: BTreeMap::new(),
            no_rules: 0,
            results: [0; ResultKind::ALL.len()],
            no_result: 0,
            winners: [0; 2],
            handicaps: BTreeMap::new(),
            no_handicap: 0,
            komi: BTreeMap::new(),
            komi_written: BTreeMap::new(),
            no_komi: 0,
            first_date: None,
            last_date: None,
            by_year: BTreeMap::new(),
            undated: 0,
            players: BTreeMap::new(),
            applications: BTreeMap::new(),
            charsets_declared: BTreeMap::new(),
            charsets_used: BTreeMap::new(),
            charset_sources: [0; 3],
            properties: PropertyTally::default(),
            warnings_total: 0,
            warnings: [0; WarningKind::COUNT],
            rejections: [0; Reason::COUNT],
        }
    }
}

/// Adds one to `key`'s count, allocating the key only when it is new.
fn bump(map: &mut BTreeMap<String, u64>, key: &str) {
    match map.get_mut(key) {
        Some(n) => *n += 1,
        None => {
            map.insert(key.to_owned(), 1);
        }
    }
}

/// Adds `other`'s counts into `map`.
fn merge_map<K: Ord>(map: &mut BTreeMap<K, u64>, other: BTreeMap<K, u64>) {
    for (k, n) in other {
        *map.entry(k).or_default() += n;
    }
}

fn add_arrays<const N: usize>(a: &mut [u64; N], b: &[u64; N]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

/// The key of a komi value: its bits, with −0 as 0.
fn komi_key(v: f64) -> u64 {
    if v == 0.0 {
        0.0f64.to_bits()
    } else {
        v.to_bits()
    }
}

fn source_index(source: CharsetSource) -> usize {
    match source {
        CharsetSource::Override => 0,
        CharsetSource::Declared => 1,
        CharsetSource::Detected => 2,
    }
}

impl Stats {
    /// Empty statistics.
    pub fn new() -> Stats {
        Stats::default()
    }

    /// The same, listing the `n` most frequent players in the report
    /// (default [`DEFAULT_TOP_PLAYERS`]). Every player is counted whatever
    /// `n` is; it only shortens the list.
    #[must_use]
    pub fn top_players(mut self, n: usize) -> Stats {
        self.top = n;
        self
    }

    /// Counts a file (or archive member, or standard input) of `bytes`
    /// bytes.
    pub fn add_file(&mut self, bytes: u64) {
        self.files += 1;
        self.bytes += bytes;
    }

    /// Counts a failure: an input or game that could not be read. `code`
    /// says what went wrong (an [`ErrorKind::code`](crate::ErrorKind::code),
    /// say); the report counts failures by it.
    pub fn add_failure(&mut self, code: &str) {
        self.failed += 1;
        bump(&mut self.failures, code);
    }

    /// Counts a game a filter left out, by the reason.
    pub fn add_rejection(&mut self, reason: Reason) {
        self.rejections[reason as usize] += 1;
    }

    /// Adds `seconds` to the time reported (negative and non-finite values
    /// count as 0). After a parallel scan, whose threads' times overlap,
    /// use [`Stats::set_seconds`] with the wall-clock time instead.
    pub fn add_seconds(&mut self, seconds: f64) {
        self.nanos = self.nanos.saturating_add(Self::to_nanos(seconds));
    }

    /// Sets the time reported.
    pub fn set_seconds(&mut self, seconds: f64) {
        self.nanos = Self::to_nanos(seconds);
    }

    fn to_nanos(seconds: f64) -> u64 {
        if seconds.is_finite() && seconds > 0.0 {
            (seconds * 1e9) as u64
        } else {
            0
        }
    }

    /// Counts a game from its row alone: everything but the properties and
    /// the warnings by kind (the row's warning count is added to the
    /// total).
    pub fn add_row(&mut self, row: &GameRow) {
        self.games += 1;
        self.nodes += row.node_count as u64;
        self.moves += row.move_count as u64;
        self.invalid_moves += row.invalid_move_count as u64;
        self.variations += row.variation_count as u64;
        *self
            .board_sizes
            .entry((row.board_cols, row.board_rows))
            .or_default() += 1;
        match &row.rules {
            Some(r) => bump(&mut self.rules, r),
            None => self.no_rules += 1,
        }
        match row.result_kind {
            Some(kind) => self.results[kind as usize] += 1,
            None => self.no_result += 1,
        }
        if let Some(winner) = row.result_winner {
            self.winners[winner as usize] += 1;
        }
        match row.handicap {
            Some(h) => *self.handicaps.entry(h).or_default() += 1,
            None => self.no_handicap += 1,
        }
        match (row.komi_points, row.komi) {
            (Some(points), Some(written)) if points.is_finite() && written.is_finite() => {
                *self.komi.entry(komi_key(points)).or_default() += 1;
                *self.komi_written.entry(komi_key(written)).or_default() += 1;
            }
            _ => self.no_komi += 1,
        }
        match row.first_date {
            Some(d) => {
                self.first_date = Some(self.first_date.map_or(d, |f| f.min(d)));
                self.last_date = Some(self.last_date.map_or(d, |l| l.max(d)));
                *self.by_year.entry(d.year).or_default() += 1;
            }
            None => self.undated += 1,
        }
        for name in [&row.black_name, &row.white_name].into_iter().flatten() {
            bump(&mut self.players, name);
        }
        if let Some(app) = &row.application {
            bump(&mut self.applications, app);
        }
        if let Some(ca) = &row.charset_declared {
            bump(&mut self.charsets_declared, ca);
        }
        bump(&mut self.charsets_used, row.charset);
        self.charset_sources[source_index(row.charset_source)] += 1;
        self.warnings_total += row.warning_count as u64;
    }

    /// Counts a game: [`Stats::add_row`], plus every property of every
    /// node (the games holding each identifier and its occurrences; a
    /// property repeated in one node is one occurrence) and the game's
    /// warnings by kind.
    pub fn add_game(&mut self, row: &GameRow, game: GameTree<'_, '_>) {
        self.add_row(row);
        self.add_properties(game);
        let warnings = GameWarnings::of(game);
        for (slot, n) in self.warnings.iter_mut().zip(warnings.by_kind) {
            *slot += n as u64;
        }
    }

    /// Counts a game of a scan that found its warnings itself
    /// ([`ScanGame::warnings`](crate::input::ScanGame::warnings), from
    /// the first reading of a stream): [`Stats::add_game`] with the
    /// warnings by kind, and their total, taken from `warnings` instead of
    /// the game's collection.
    pub fn add_scanned_game(
        &mut self,
        row: &GameRow,
        game: GameTree<'_, '_>,
        warnings: &[Warning],
    ) {
        self.add_row(row);
        self.warnings_total -= row.warning_count as u64;
        self.add_properties(game);
        self.add_warnings(warnings);
    }

    /// Counts a game of a scan with no filter: [`Stats::add_scanned_game`]
    /// with the row made here, holding only what the statistics read
    /// (faster than a whole [`GameRow`]).
    pub fn add_scanned_tree(&mut self, game: GameTree<'_, '_>, warnings: &[Warning]) {
        let row = GameRow::for_stats(game);
        self.add_row(&row);
        self.add_properties(game);
        self.add_warnings(warnings);
    }

    /// Counts every property of every node of `game`.
    fn add_properties(&mut self, game: GameTree<'_, '_>) {
        let props = &mut self.properties;
        game.for_each_ident(|ident| props.count(ident));
        props.end_game();
    }

    /// Counts warnings by kind (those of a scan that come with no game:
    /// junk after the last game of a member).
    pub fn add_warnings(&mut self, warnings: &[Warning]) {
        for w in warnings {
            self.warnings[w.kind as usize] += 1;
        }
        self.warnings_total += warnings.len() as u64;
    }

    /// Counts what a scan of inputs skipped, by reason
    /// ([`SkipReason::code`](crate::input::SkipReason::code)).
    #[cfg(feature = "archives")]
    pub fn add_skipped(&mut self, skipped: &crate::input::Skipped) {
        for (reason, n) in skipped.counts() {
            if n > 0 {
                *self.skipped.entry(reason.code().to_owned()).or_default() += n;
            }
        }
    }

    /// Counts the warnings of a collection that holds no game (junk after
    /// the last game of a stream, handed out alone), by kind, dropped ones
    /// included. A collection with games counts its warnings through
    /// [`Stats::add_game`] instead.
    pub fn add_stray_warnings(&mut self, coll: Collection<'_, '_>) {
        if !coll.is_empty() {
            return;
        }
        for &kind in WarningKind::ALL {
            let n = coll.warning_count(kind) as u64;
            self.warnings[kind as usize] += n;
            self.warnings_total += n;
        }
    }

    /// Adds `other` into `self`: the result is the same as if `self` had
    /// been fed everything `other` was, after its own. Associative and
    /// commutative. `self`'s number of listed players is kept.
    pub fn merge(&mut self, other: Stats) {
        self.files += other.files;
        self.games += other.games;
        self.nodes += other.nodes;
        self.moves += other.moves;
        self.invalid_moves += other.invalid_moves;
        self.variations += other.variations;
        self.bytes += other.bytes;
        self.failed += other.failed;
        self.nanos = self.nanos.saturating_add(other.nanos);
        merge_map(&mut self.failures, other.failures);
        merge_map(&mut self.skipped, other.skipped);
        merge_map(&mut self.board_sizes, other.board_sizes);
        merge_map(&mut self.rules, other.rules);
        self.no_rules += other.no_rules;
        add_arrays(&mut self.results, &other.results);
        self.no_result += other.no_result;
        add_arrays(&mut self.winners, &other.winners);
        merge_map(&mut self.handicaps, other.handicaps);
        self.no_handicap += other.no_handicap;
        merge_map(&mut self.komi, other.komi);
        merge_map(&mut self.komi_written, other.komi_written);
        self.no_komi += other.no_komi;
        self.first_date = match (self.first_date, other.first_date) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.last_date = match (self.last_date, other.last_date) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        merge_map(&mut self.by_year, other.by_year);
        self.undated += other.undated;
        merge_map(&mut self.players, other.players);
        merge_map(&mut self.applications, other.applications);
        merge_map(&mut self.charsets_declared, other.charsets_declared);
        merge_map(&mut self.charsets_used, other.charsets_used);
        add_arrays(&mut self.charset_sources, &other.charset_sources);
        self.properties.merge(other.properties);
        self.warnings_total += other.warnings_total;
        add_arrays(&mut self.warnings, &other.warnings);
        add_arrays(&mut self.rejections, &other.rejections);
    }

    /// The number of games counted.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The number of files counted.
    pub fn files(&self) -> u64 {
        self.files
    }

    /// The number of main-line moves counted.
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// The number of failures counted.
    pub fn failed(&self) -> u64 {
        self.failed
    }

    /// The number of games left out, for any reason.
    pub fn rejected(&self) -> u64 {
        self.rejections.iter().sum()
    }

    /// The report: every tally as sorted lists, ready to serialise or
    /// print.
    pub fn report(&self) -> StatsReport {
        report::build(self)
    }

    /// The report as one line of JSON, with the stable names of
    /// [`StatsReport`].
    pub fn to_json(&self) -> String {
        serde_json::to_string(&self.report()).unwrap_or_default()
    }

    /// The report as indented JSON.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(&self.report()).unwrap_or_default()
    }

    /// The report as text for a terminal; see [`StatsReport`]'s `Display`.
    pub fn render_text(&self) -> String {
        self.report().to_string()
    }
}

impl std::fmt::Display for Stats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.report(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lean row of a scan with no filter counts what the whole row
    /// counts: players, ranks, results, dates, rules, charsets, moves
    /// (an invalid one too), variations, properties (a long identifier,
    /// a repeat, a lower-case spelling) and warnings.
    #[test]
    fn scanned_tree_counts_as_scanned_game() {
        let input: &[u8] = b"junk (;GM[1]FF[4]CA[UTF-8]SZ[19]PB[Lee]BR[9p]PW[Cho]WR[1d]\
            KM[6.5]HA[2]RE[B+R]DT[2001-02-03,04]RU[Japanese]AP[CGoban:3]MULTIGOGM[1]\
            ;B[pd]C[a]C[b];W[zz](;B[dd];W[])(;B[cc]GaMe[1]))\
            (;SZ[9]PB[Lee]RE[W+3.5]KM[0];B[ee];W[tt])(;GM[2];B[aa])";
        let doc = crate::parse(input).unwrap();
        let (mut whole, mut lean) = (Stats::new(), Stats::new());
        for game in doc.games() {
            let warnings = doc.warnings();
            let row = GameRow::from_game_without_moves(game, "a.sgf", 0);
            whole.add_scanned_game(&row, game, warnings);
            lean.add_scanned_tree(game, warnings);
        }
        assert_eq!(whole, lean);
        assert_eq!(whole.to_json(), lean.to_json());
    }
}
