//! `sgf dedup`: clusters of copies of the same game.
//!
//! Each Go game with moves of the inputs (every input kind `stats` reads, on all
//! cores, in the scan's order) is reduced to its main line's moves in the
//! orientation that makes the sequence smallest
//! ([`sgf_grove::game::signature::MoveSequence`]), so that a rotated or
//! reflected copy, with other names, dates or comments, gives the same
//! sequence; a copy that stops early is a prefix of it. The clusters
//! ([`sgf_grove::game::signature::cluster`]) are printed in the order of
//! their first game; in each, the best copy is the one with the most
//! information: moves, then game-information properties, then comments.
//!
//! With `--format json`, one object per cluster of two or more games:
//!
//! ```text
//! {"cluster": 1, "games": [{"source": "a.sgf", "game": 0, "moves": 211, "symmetry": "identity"}, …], "best": 0}
//! ```
//!
//! `cluster` counts from 1, `best` is an index into `games`, `symmetry`
//! turns the copy as written into the best copy as written: `identity` for
//! the best copy and for every copy drawn the same way.
//!
//! In text, each cluster is a block of lines: `cluster N: K copies`, then
//! one indented line per copy (source, game, moves, symmetry), the best
//! marked `*`.
//!
//! The summary on standard error counts the games compared and those that
//! could not be: not Go (`GM` other than 1), without moves (positions,
//! problems), and with fewer moves than any copy needs to join another
//! (under 10, or under `--min-prefix` when it is lower).
//!
//! Memory: every game's moves are kept until the end (about 2 bytes a
//! move).

use super::{CliError, Status};
use crate::args::{DedupArgs, DedupFormat};
use crate::name::origin_name;
use crate::scan::{counted, keyed, InputCount, Progress};
use sgf_grove::game::signature::{cluster, MoveSequence, MIN_EQUAL};
use sgf_grove::table::thousands;
use sgf_grove::GameTree;
use std::io::{self, BufWriter, Write};

/// Why a game is not compared with the others.
#[derive(Clone, Copy)]
enum Skip {
    /// Not a game of Go.
    NotGo,
    /// No move on its main line (a position, a problem).
    NoMoves,
    /// Fewer moves than a copy needs to join another.
    TooShort,
}

/// The games left out, by reason.
#[derive(Default)]
struct Skipped {
    not_go: u64,
    no_moves: u64,
    too_short: u64,
}

impl Skipped {
    fn add(&mut self, why: Skip) {
        match why {
            Skip::NotGo => self.not_go += 1,
            Skip::NoMoves => self.no_moves += 1,
            Skip::TooShort => self.too_short += 1,
        }
    }

    fn total(&self) -> u64 {
        self.not_go + self.no_moves + self.too_short
    }
}

/// What a worker hands back for one game.
struct Copy {
    source: String,
    index: usize,
    seq: MoveSequence,
    score: u64,
}

/// How much a copy carries: moves first, then game information, then
/// comments.
fn score(game: GameTree<'_, '_>, moves: usize) -> u64 {
    let info = game
        .root()
        .properties()
        .filter(|p| {
            p.info()
                .is_some_and(|i| i.kind == sgf_grove::value::PropKind::GameInfo)
        })
        .count() as u64;
    let comments = game.root().descendants().filter(|n| n.has("C")).count() as u64;
    (moves as u64) << 40 | info.min(0xff_ffff) << 16 | comments.min(0xffff)
}

/// Runs `sgf dedup`.
///
/// # Errors
///
/// A failed write to standard output.
pub fn run(args: &DedupArgs) -> Result<Status, CliError> {
    let progress = Progress::new(&args.scan);
    // Where each game is, and its sequence and score, in the scan's order.
    let mut copies: Vec<(String, usize)> = Vec::new();
    let mut seqs: Vec<MoveSequence> = Vec::new();
    let mut scores: Vec<u64> = Vec::new();
    let mut failed = super::Failures::default();
    let mut count = InputCount::default();
    let mut skipped = Skipped::default();
    // The fewest moves with which a game can join another.
    let shortest = MIN_EQUAL.min(args.min_prefix);
    let stderr = io::stderr();
    args.scan
        .inputs()
        .par_scan_games(
            args.scan.options(),
            args.scan.jobs(),
            keyed(|game| {
                let tree = game.tree()?;
                if tree.game_type() != 1 {
                    return Some(Err(Skip::NotGo));
                }
                let seq = MoveSequence::of(tree);
                if seq.moves.is_empty() {
                    // Positions (problems, setups) are not games to match.
                    return Some(Err(Skip::NoMoves));
                }
                if seq.moves.len() < shortest {
                    return Some(Err(Skip::TooShort));
                }
                let score = score(tree, seq.moves.len());
                Some(Ok(Copy {
                    source: origin_name(game.origin()),
                    index: game.index().unwrap_or(0),
                    seq,
                    score,
                }))
            }),
            counted(
                &mut count,
                &progress,
                |result: Result<Option<Result<Copy, Skip>>, sgf_grove::input::InputError>| {
                    match result {
                        Ok(None) => {}
                        Ok(Some(Err(why))) => skipped.add(why),
                        Ok(Some(Ok(copy))) => {
                            progress.game(copy.seq.moves.len() as u64);
                            copies.push((copy.source, copy.index));
                            seqs.push(copy.seq);
                            scores.push(copy.score);
                        }
                        Err(err) => {
                            failed.add_input(&err);
                            let _ = writeln!(stderr.lock(), "{}: {err}", origin_name(err.origin()));
                        }
                    }
                },
            ),
        )
        .map_err(|e| CliError::io("cannot start the worker threads", io::Error::other(e)))?;
    progress.finish();
    let (status, failures) = failed.limited(args.scan.max_failures(), count.inputs);
    let clusters = cluster(&seqs, &scores, args.min_prefix);
    let mut out = BufWriter::new(io::stdout().lock());
    for (n, c) in clusters.iter().enumerate() {
        let best = c.members.iter().position(|&m| m == c.best).unwrap_or(0);
        // Each copy's turn into the best copy: to the common orientation,
        // then back out of it as the best copy was drawn.
        let to_best = |m: usize| seqs[m].symmetry.then(seqs[c.best].symmetry.inverse());
        match args.format {
            DedupFormat::Json => {
                let games: Vec<_> = c
                    .members
                    .iter()
                    .map(|&m| {
                        serde_json::json!({
                            "source": copies[m].0,
                            "game": copies[m].1,
                            "moves": seqs[m].moves.len(),
                            "symmetry": to_best(m).name(),
                        })
                    })
                    .collect();
                let line = serde_json::json!({"cluster": n + 1, "games": games, "best": best});
                writeln!(out, "{line}")?;
            }
            DedupFormat::Text => {
                writeln!(
                    out,
                    "cluster {}: {} copies",
                    thousands(n + 1),
                    thousands(c.members.len())
                )?;
                for &m in &c.members {
                    writeln!(
                        out,
                        "  {} {} game {}: {} moves, {}",
                        if m == c.best { '*' } else { ' ' },
                        copies[m].0,
                        copies[m].1,
                        seqs[m].moves.len(),
                        to_best(m)
                    )?;
                }
            }
        }
    }
    out.flush()?;
    // The summary: printed with -q too (-q leaves out only the progress
    // bar and the per-game lines).
    let in_clusters: usize = clusters.iter().map(|c| c.members.len()).sum();
    let not_compared = if skipped.total() == 0 {
        String::new()
    } else {
        let reasons: Vec<String> = [
            (skipped.not_go, "not Go".to_owned()),
            (skipped.no_moves, "without moves".to_owned()),
            (skipped.too_short, format!("under {shortest} moves")),
        ]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, why)| format!("{} {why}", thousands(n)))
        .collect();
        format!(
            "; {} games not compared ({})",
            thousands(skipped.total()),
            reasons.join(", ")
        )
    };
    let _ = writeln!(
        stderr.lock(),
        "dedup: {} games compared, {} clusters holding {} games{not_compared}{}",
        thousands(seqs.len()),
        thousands(clusters.len()),
        thousands(in_clusters),
        failures
    );
    Ok(status)
}
