//! [`StatsReport`]: the tallies of [`Stats`] as sorted lists with stable
//! names, for JSON and text.

use super::Stats;
use crate::error::WarningKind;
use crate::table::filter::Reason;
use crate::table::row::ResultKind;
use crate::text::CharsetSource;
use serde::Serialize;
use std::collections::BTreeMap;

/// One value and how often it was seen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Count {
    /// The value: `19x19`, `Japanese`, `resignation`, `6.5`, a name …
    /// Absent values are `none` where they are listed.
    pub value: String,
    /// How many games (or failures, warnings …) had it.
    pub count: u64,
}

/// One property identifier: how many games hold it and how often it
/// occurs, as in the usage table of the 2016 update of the SGF
/// specification.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PropertyCount {
    /// The identifier (normalised: `CP` for an old `CoPyright`).
    pub ident: String,
    /// How many games hold it in some node.
    pub games: u64,
    /// In how many nodes it occurs (a property repeated in one node once).
    pub occurrences: u64,
}

/// The dates of the games: each game's first date.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DateSummary {
    /// The earliest, ISO (`1996-05-06`, or `1996` when that is all a game
    /// says).
    pub first: Option<String>,
    /// The latest.
    pub last: Option<String>,
    /// Games with no readable date.
    pub undated: u64,
    /// Games per year, by year.
    pub by_year: Vec<Count>,
}

/// Charsets: as declared, and as used to read the games' text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CharsetSummary {
    /// `CA` values as written.
    pub declared: Vec<Count>,
    /// The charsets the games' text was read in (`encoding_rs` names:
    /// `UTF-8`, `GBK`, …).
    pub used: Vec<Count>,
    /// Where those came from: `declared`, `detected`, `override`.
    pub sources: Vec<Count>,
}

/// The report of [`Stats`]: plain data with stable `snake_case` names,
/// serialised by [`Stats::to_json`] and printed by its `Display`.
///
/// Lists of counts are sorted by count, largest first, ties by value
/// (`by_year` by year). Lists hold every value seen, except `players`,
/// which holds the most frequent (see [`Stats::top_players`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct StatsReport {
    /// Files (and archive members, standard input) read.
    pub files: u64,
    /// Games counted (those a filter left out are not).
    pub games: u64,
    /// Nodes of those games.
    pub nodes: u64,
    /// Main-line moves of those games ([`GameRow::move_count`](crate::table::GameRow::move_count)).
    pub moves: u64,
    /// Bytes of the files.
    pub bytes: u64,
    /// Inputs or games that could not be read.
    pub failed: u64,
    /// Seconds the scan took, as the caller set them.
    pub seconds: f64,
    /// `B`/`W` values of main lines that are no move.
    pub invalid_moves: u64,
    /// Lines of play besides the main lines.
    pub variations: u64,
    /// Parser warnings.
    pub warnings: u64,
    /// Games a filter left out.
    pub rejected: u64,
    /// Failures by what went wrong.
    pub failures: Vec<Count>,
    /// What the scan left out, by reason (`not_sgf`, `unreadable`,
    /// `not_regular_file`).
    pub skipped: Vec<Count>,
    /// Board sizes, `19x19`.
    pub board_sizes: Vec<Count>,
    /// Rules, normalised (`Japanese`, `Chinese`, …), and `none`.
    pub rules: Vec<Count>,
    /// Results by kind ([`ResultKind::code`]), and `none` (no `RE`).
    pub results: Vec<Count>,
    /// Wins by colour: `B`, `W`.
    pub winners: Vec<Count>,
    /// Handicap stones, and `none` (absent or unreadable).
    pub handicaps: Vec<Count>,
    /// Komi in points (Fox's scaling undone), and `none`.
    pub komi: Vec<Count>,
    /// Komi as written (Fox's `650`), and `none`.
    pub komi_written: Vec<Count>,
    /// Dates.
    pub dates: DateSummary,
    /// How many different player names there are.
    pub distinct_players: u64,
    /// The most frequent player names, by games played (either colour).
    pub players: Vec<Count>,
    /// Applications by name (`AP` before its `:`).
    pub applications: Vec<Count>,
    /// Charsets.
    pub charsets: CharsetSummary,
    /// Properties, by the number of games holding them.
    pub properties: Vec<PropertyCount>,
    /// Warnings by kind ([`WarningKind::code`]).
    pub warnings_by_kind: Vec<Count>,
    /// Games left out by filters, by the first filter they failed
    /// ([`Reason::code`]).
    pub rejections: Vec<Count>,
}

/// Sorted by count, largest first, ties by value; zero counts dropped.
fn sorted(mut counts: Vec<Count>) -> Vec<Count> {
    counts.retain(|c| c.count > 0);
    counts.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.value.cmp(&b.value)));
    counts
}

fn count(value: impl Into<String>, count: u64) -> Count {
    Count {
        value: value.into(),
        count,
    }
}

fn from_map(map: &BTreeMap<String, u64>) -> Vec<Count> {
    map.iter().map(|(k, &n)| count(k.clone(), n)).collect()
}

/// Komi values sorted by count, ties by value (numerically).
fn komi_counts(map: &BTreeMap<u64, u64>, none: u64) -> Vec<Count> {
    let mut values: Vec<(f64, u64)> = map.iter().map(|(&b, &n)| (f64::from_bits(b), n)).collect();
    values.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.total_cmp(&b.0)));
    let mut out: Vec<Count> = values
        .into_iter()
        .map(|(v, n)| count(v.to_string(), n))
        .collect();
    if none > 0 {
        out.push(count("none", none));
    }
    out
}

pub(super) fn build(s: &Stats) -> StatsReport {
    let with_none = |mut list: Vec<Count>, none: u64| {
        list.push(count("none", none));
        sorted(list)
    };
    let mut results: Vec<Count> = ResultKind::ALL
        .iter()
        .map(|k| count(k.code(), s.results[*k as usize]))
        .collect();
    results.push(count("none", s.no_result));

    let mut handicaps: Vec<(u32, u64)> = s.handicaps.iter().map(|(&h, &n)| (h, n)).collect();
    handicaps.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut handicap_list: Vec<Count> = handicaps
        .into_iter()
        .map(|(h, n)| count(h.to_string(), n))
        .collect();
    if s.no_handicap > 0 {
        handicap_list.push(count("none", s.no_handicap));
    }

    let mut sizes: Vec<((u8, u8), u64)> = s.board_sizes.iter().map(|(&k, &n)| (k, n)).collect();
    sizes.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));

    let mut players = sorted(from_map(&s.players));
    players.truncate(s.top);

    let mut properties: Vec<PropertyCount> = s
        .properties
        .entries()
        .into_iter()
        .map(|(ident, games, occurrences)| PropertyCount {
            ident,
            games,
            occurrences,
        })
        .collect();
    properties.sort_by(|a, b| {
        b.games
            .cmp(&a.games)
            .then(b.occurrences.cmp(&a.occurrences))
            .then_with(|| a.ident.cmp(&b.ident))
    });

    let sources = [
        CharsetSource::Override,
        CharsetSource::Declared,
        CharsetSource::Detected,
    ];

    StatsReport {
        files: s.files,
        games: s.games,
        nodes: s.nodes,
        moves: s.moves,
        bytes: s.bytes,
        failed: s.failed,
        seconds: s.nanos as f64 / 1e9,
        invalid_moves: s.invalid_moves,
        variations: s.variations,
        warnings: s.warnings_total,
        rejected: s.rejections.iter().sum(),
        failures: sorted(from_map(&s.failures)),
        skipped: sorted(from_map(&s.skipped)),
        board_sizes: sizes
            .into_iter()
            .map(|((c, r), n)| count(format!("{c}x{r}"), n))
            .collect(),
        rules: with_none(from_map(&s.rules), s.no_rules),
        results: sorted(results),
        winners: sorted(vec![count("B", s.winners[0]), count("W", s.winners[1])]),
        handicaps: handicap_list,
        komi: komi_counts(&s.komi, s.no_komi),
        komi_written: komi_counts(&s.komi_written, s.no_komi),
        dates: DateSummary {
            first: s.first_date.map(|d| d.to_string()),
            last: s.last_date.map(|d| d.to_string()),
            undated: s.undated,
            by_year: s
                .by_year
                .iter()
                .map(|(y, &n)| count(format!("{y:04}"), n))
                .collect(),
        },
        distinct_players: s.players.len() as u64,
        players,
        applications: sorted(from_map(&s.applications)),
        charsets: CharsetSummary {
            declared: sorted(from_map(&s.charsets_declared)),
            used: sorted(from_map(&s.charsets_used)),
            sources: sorted(
                sources
                    .iter()
                    .enumerate()
                    .map(|(i, &src)| count(src.code(), s.charset_sources[i]))
                    .collect(),
            ),
        },
        properties,
        warnings_by_kind: sorted(
            WarningKind::ALL
                .iter()
                .map(|&k| count(k.code(), s.warnings[k as usize]))
                .collect(),
        ),
        rejections: sorted(
            Reason::ALL
                .iter()
                .map(|&r| count(r.code(), s.rejections[r as usize]))
                .collect(),
        ),
    }
}
