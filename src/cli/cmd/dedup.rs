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
//! turns the game as written into the common orientation.
//!
//! Memory: every game's moves are kept until the end (about 2 bytes a
//! move).

use super::{CliError, Status};
use crate::args::{DedupArgs, DedupFormat};
use crate::name::origin_name;
use crate::scan::Progress;
use sgf_grove::game::signature::{cluster, MoveSequence};
use sgf_grove::GameTree;
use std::io::{self, BufWriter, Write};

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
    let mut progress = Progress::new(&args.scan);
    // Where each game is, and its sequence and score, in the scan's order.
    let mut copies: Vec<(String, usize)> = Vec::new();
    let mut seqs: Vec<MoveSequence> = Vec::new();
    let mut scores: Vec<u64> = Vec::new();
    let mut failed = super::Failures::default();
    let stderr = io::stderr();
    args.scan
        .inputs()
        .par_scan_games(
            args.scan.options(),
            args.scan.jobs(),
            |game| {
                let tree = game.tree()?;
                if tree.game_type() != 1 {
                    return None;
                }
                let seq = MoveSequence::of(tree);
                if seq.moves.is_empty() {
                    // Positions (problems, setups) are not games to match.
                    return None;
                }
                let score = score(tree, seq.moves.len());
                Some(Copy {
                    source: origin_name(game.origin()),
                    index: game.index().unwrap_or(0),
                    seq,
                    score,
                })
            },
            |result| match result {
                Ok(None) => {}
                Ok(Some(copy)) => {
                    progress.game(copy.seq.moves.len() as u64);
                    copies.push((copy.source, copy.index));
                    seqs.push(copy.seq);
                    scores.push(copy.score);
                }
                Err(err) => {
                    failed.add_input(&err);
                    let _ = writeln!(stderr.lock(), "{}: {err}", origin_name(err.origin()));
                }
            },
        )
        .map_err(|e| CliError::io("cannot start the worker threads", io::Error::other(e)))?;
    progress.finish();
    let clusters = cluster(&seqs, &scores, args.min_prefix);
    let mut out = BufWriter::new(io::stdout().lock());
    for (n, c) in clusters.iter().enumerate() {
        let best = c.members.iter().position(|&m| m == c.best).unwrap_or(0);
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
                            "symmetry": seqs[m].symmetry.name(),
                        })
                    })
                    .collect();
                let line = serde_json::json!({"cluster": n + 1, "games": games, "best": best});
                writeln!(out, "{line}")?;
            }
            DedupFormat::Text => {
                writeln!(out, "cluster {}: {} copies", n + 1, c.members.len())?;
                for &m in &c.members {
                    writeln!(
                        out,
                        "  {} {} game {}: {} moves, {}",
                        if m == c.best { '*' } else { ' ' },
                        copies[m].0,
                        copies[m].1,
                        seqs[m].moves.len(),
                        seqs[m].symmetry
                    )?;
                }
            }
        }
    }
    out.flush()?;
    if !args.scan.quiet {
        let in_clusters: usize = clusters.iter().map(|c| c.members.len()).sum();
        let _ = writeln!(
            stderr.lock(),
            "dedup: {} games, {} clusters holding {in_clusters} games{}",
            seqs.len(),
            clusters.len(),
            failed.summary()
        );
    }
    Ok(failed.status())
}
