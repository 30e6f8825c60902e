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
//! With `--swap-colors`, each game's sequence is also taken with Black and
//! White exchanged and the smaller of the two kept, so that a copy
//! recorded with the colours the other way round meets the original
//! (`"colors_swapped": true` in JSON, `swapped` in text, against the best
//! copy).
//!
//! With `--merge --out DIR` (`merge.rs`), copies one move apart
//! ([`near_copies`]) also join a cluster (`"differs_at": [k]` in JSON,
//! the move numbers from 1, against the best copy), the inputs are read a
//! second time, and each cluster's merged record is written into DIR; the
//! cluster's object then also has `"file"` and `"conflicts"` (one
//! `{"property", "kept", "others": [{"value", "copies"}]}` each).
//!
//! Memory: every game's moves are kept until the end (about 2 bytes a
//! move).

mod merge;

use super::{CliError, Status};
use crate::args::{DedupArgs, DedupFormat};
use crate::name::origin_name;
use crate::scan::{counted, keyed, InputCount, Progress};
use sgf_grove::game::signature::{cluster, near_copies, Cluster, MoveSequence, MIN_EQUAL};
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
    /// Whether `seq` is the game with its colours exchanged.
    swapped: bool,
    score: u64,
}

/// The sequence a game is compared by: its own, or with `swap` the smaller
/// of its own and that of its colours exchanged (and whether that one was
/// taken).
fn sequence_of(tree: GameTree<'_, '_>, swap: bool) -> (MoveSequence, bool) {
    let seq = MoveSequence::of(tree);
    if swap {
        let other = seq.swapped_colors();
        if (&other.setup, &other.moves) < (&seq.setup, &seq.moves) {
            return (other, true);
        }
    }
    (seq, false)
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
/// A failed write to standard output; with `--merge`, standard input among
/// the inputs, an `--out` folder that holds files (without `--force`) or
/// cannot be written.
pub fn run(args: &DedupArgs) -> Result<Status, CliError> {
    let out_dir = match &args.out {
        Some(dir) if args.merge => Some(merge::prepare(dir, args)?),
        _ => None,
    };
    let progress = Progress::new(&args.scan);
    // Where each game is, and its sequence and score, in the scan's order.
    let mut copies: Vec<(String, usize)> = Vec::new();
    let mut seqs: Vec<MoveSequence> = Vec::new();
    let mut swapped: Vec<bool> = Vec::new();
    let mut scores: Vec<u64> = Vec::new();
    // The scan's number of each compared game (every game read counts).
    let mut ordinals: Vec<u64> = Vec::new();
    let mut read = 0u64;
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
                let Some(tree) = game.tree() else {
                    return Err(None);
                };
                if tree.game_type() != 1 {
                    return Err(Some(Skip::NotGo));
                }
                let (seq, swapped) = sequence_of(tree, args.swap_colors);
                if seq.moves.is_empty() {
                    // Positions (problems, setups) are not games to match.
                    return Err(Some(Skip::NoMoves));
                }
                if seq.moves.len() < shortest {
                    return Err(Some(Skip::TooShort));
                }
                let score = score(tree, seq.moves.len());
                Ok(Copy {
                    source: origin_name(game.origin()),
                    index: game.index().unwrap_or(0),
                    seq,
                    swapped,
                    score,
                })
            }),
            counted(
                &mut count,
                &progress,
                |result: Result<Result<Copy, Option<Skip>>, sgf_grove::input::InputError>| {
                    match result {
                        Ok(Err(None)) => read += 1,
                        Ok(Err(Some(why))) => {
                            read += 1;
                            skipped.add(why);
                        }
                        Ok(Ok(copy)) => {
                            progress.game(copy.seq.moves.len() as u64);
                            copies.push((copy.source, copy.index));
                            seqs.push(copy.seq);
                            swapped.push(copy.swapped);
                            scores.push(copy.score);
                            ordinals.push(read);
                            read += 1;
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
    let (mut status, failures) = failed.limited(args.scan.max_failures(), count.inputs);
    let mut clusters = cluster(&seqs, &scores, args.min_prefix);
    if args.merge {
        clusters = with_near_copies(clusters, &seqs, &scores, args.min_prefix.max(MIN_EQUAL));
    }
    let games = Games {
        copies: &copies,
        seqs: &seqs,
        swapped: &swapped,
        ordinals: &ordinals,
    };
    let merged = match &out_dir {
        Some(dir) => {
            let done = merge::write(args, dir, &games, &clusters)?;
            if done.iter().any(|m| m.file.is_none()) {
                status = Status::Failed;
            }
            Some(done)
        }
        None => None,
    };
    let mut out = BufWriter::new(io::stdout().lock());
    for (n, c) in clusters.iter().enumerate() {
        let best = c.members.iter().position(|&m| m == c.best).unwrap_or(0);
        // Each copy's turn into the best copy: to the common orientation,
        // then back out of it as the best copy was drawn.
        let to_best = |m: usize| seqs[m].symmetry.then(seqs[c.best].symmetry.inverse());
        let merge = merged.as_ref().map(|all| &all[n]);
        match args.format {
            DedupFormat::Json => {
                let games: Vec<_> = c
                    .members
                    .iter()
                    .map(|&m| {
                        let mut game = serde_json::json!({
                            "source": copies[m].0,
                            "game": copies[m].1,
                            "moves": seqs[m].moves.len(),
                            "symmetry": to_best(m).name(),
                        });
                        if args.swap_colors {
                            game["colors_swapped"] = (swapped[m] != swapped[c.best]).into();
                        }
                        let at = differs_at(&seqs[m], &seqs[c.best]);
                        if !at.is_empty() {
                            game["differs_at"] = at.into();
                        }
                        game
                    })
                    .collect();
                let mut line = serde_json::json!({"cluster": n + 1, "games": games, "best": best});
                if let Some(m) = merge {
                    m.json(&mut line);
                }
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
                    let mut notes = String::new();
                    if args.swap_colors && swapped[m] != swapped[c.best] {
                        notes.push_str(", colours swapped");
                    }
                    let at = differs_at(&seqs[m], &seqs[c.best]);
                    if !at.is_empty() {
                        let at: Vec<String> = at.iter().map(usize::to_string).collect();
                        notes.push_str(&format!(", differs at move {}", at.join(", ")));
                    }
                    writeln!(
                        out,
                        "  {} {} game {}: {} moves, {}{notes}",
                        if m == c.best { '*' } else { ' ' },
                        copies[m].0,
                        copies[m].1,
                        seqs[m].moves.len(),
                        to_best(m)
                    )?;
                }
                if let Some(m) = merge {
                    writeln!(out, "  -> {}", m.text())?;
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
    let merged_line = match &merged {
        Some(all) => {
            let written = all.iter().filter(|m| m.file.is_some()).count();
            let conflicts: usize = all.iter().map(|m| m.conflicts.len()).sum();
            let mut line = format!(
                "; {} merged records written into {}, {} conflicting values",
                thousands(written),
                args.out
                    .as_deref()
                    .unwrap_or(std::path::Path::new("."))
                    .display(),
                thousands(conflicts)
            );
            if written < all.len() {
                line.push_str(&format!(
                    ", {} clusters not written (their inputs changed while read)",
                    thousands(all.len() - written)
                ));
            }
            line
        }
        None => String::new(),
    };
    let _ = writeln!(
        stderr.lock(),
        "dedup: {} games compared, {} clusters holding {} games{not_compared}{merged_line}{}",
        thousands(seqs.len()),
        thousands(clusters.len()),
        thousands(in_clusters),
        failures
    );
    Ok(status)
}

/// The compared games, as the first read found them: each one's source and
/// number in it, sequence, whether its colours were exchanged, and its
/// number among all the games read.
pub(super) struct Games<'a> {
    copies: &'a [(String, usize)],
    seqs: &'a [MoveSequence],
    swapped: &'a [bool],
    ordinals: &'a [u64],
}

/// The move numbers (from 1) at which `copy` differs from `best`, over the
/// moves both have (none for a copy that begins the other).
fn differs_at(copy: &MoveSequence, best: &MoveSequence) -> Vec<usize> {
    copy.moves
        .iter()
        .zip(&best.moves)
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .map(|(i, _)| i + 1)
        .collect()
}

/// The clusters joined with the copies one move apart from one of their
/// games (or from another such copy): each group of games linked by
/// a cluster or a pair of [`near_copies`] is one cluster, its best the
/// member of the highest score.
fn with_near_copies(
    clusters: Vec<Cluster>,
    seqs: &[MoveSequence],
    scores: &[u64],
    min_moves: usize,
) -> Vec<Cluster> {
    let pairs = near_copies(seqs, min_moves);
    if pairs.is_empty() {
        return clusters;
    }
    let mut parent: Vec<usize> = (0..seqs.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut join = |a: usize, b: usize| {
        let (x, y) = (root(&mut parent, a), root(&mut parent, b));
        if x != y {
            parent[x.max(y)] = x.min(y);
        }
    };
    for c in &clusters {
        for &m in &c.members[1..] {
            join(c.members[0], m);
        }
    }
    for &(a, b, _) in &pairs {
        join(a, b);
    }
    let mut groups: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for i in 0..seqs.len() {
        let r = root(&mut parent, i);
        groups.entry(r).or_default().push(i);
    }
    groups
        .into_values()
        .filter(|members| members.len() > 1)
        .map(|members| {
            let best = *members
                .iter()
                .max_by(|&&a, &&b| scores[a].cmp(&scores[b]).then(b.cmp(&a)))
                .expect("two or more members");
            Cluster { members, best }
        })
        .collect()
}
