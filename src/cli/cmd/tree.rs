//! `sgf tree`: the opening tree of the inputs' games
//! ([`sgf_grove::game::opening`]).
//!
//! Every Go game of the inputs (every input kind `stats` reads, on all
//! cores) gives its first `--depth` main-line moves; the sink adds them to
//! one [`OpeningTree`] in the scan's order, so the output is the same
//! whatever `-j`. Games of different boards or handicap stones go in
//! different trees (one game of the collection each); games with another
//! setup, without moves or with an unreadable move are left out and
//! counted on standard error and in each root's comment.
//!
//! Output: the SGF collection on standard output, or with `--out FILE` in
//! FILE and its JSON Lines sidecar in `FILE.json` (both written whole or
//! not at all); `--json` prints the JSON Lines on standard output instead
//! of the SGF. One JSON object per node written, in the SGF's order:
//!
//! ```text
//! {"game": 0, "path": "0.1", "move": "W[dd]", "games": 120, "games_max": 120,
//!  "black_wins": 60, "white_wins": 55, "other": 5,
//!  "first_date": "1996-05-06", "last_date": "2019-10-14"}
//! ```
//!
//! `path` is the node's `--node` path in the SGF written (`sgf board
//! --node`, `sgf extract --node`); a root (`"path": ""`, `"move": null`)
//! also has `"size": [cols, rows]` and `"handicap": ["dd", …]`.
//!
//! Memory: the largest game on each worker thread, and the tree: at most
//! `--max-nodes` nodes of 40 bytes (see the library's docs for the
//! pruning and what it says).

use super::{CliError, Status};
use crate::args::TreeArgs;
use crate::name::origin_name;
use crate::scan::{counted, keyed, InputCount, Progress};
use sgf_grove::atomic::Replace;
use sgf_grove::game::opening::{LeftOut, OpeningLine, OpeningOptions, OpeningTree, Visit};
use sgf_grove::table::thousands;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

/// Runs `sgf tree`.
///
/// # Errors
///
/// A failed write of the output.
pub fn run(args: &TreeArgs) -> Result<Status, CliError> {
    let options = OpeningOptions::new()
        .depth(args.depth)
        .symmetry(args.symmetry)
        .max_nodes(args.max_nodes);
    let mut tree = OpeningTree::new(options.clone());
    let progress = Progress::new(&args.scan);
    let mut failed = super::Failures::default();
    let mut count = InputCount::default();
    let stderr = io::stderr();
    args.scan
        .inputs()
        .par_scan_games(
            args.scan.options(),
            args.scan.jobs(),
            keyed(|game| game.tree().map(|tree| OpeningLine::of(tree, &options))),
            counted(
                &mut count,
                &progress,
                |result: Result<
                    Option<Result<OpeningLine, LeftOut>>,
                    sgf_grove::input::InputError,
                >| {
                    match result {
                        Ok(None) => {}
                        Ok(Some(Err(why))) => tree.leave_out(why),
                        Ok(Some(Ok(line))) => {
                            progress.game(line.moves.len() as u64);
                            tree.add(&line);
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
    match &args.out {
        Some(path) => {
            let mut json_path = path.clone().into_os_string();
            json_path.push(".json");
            write_file(path, |out| tree.write_sgf(args.min_games, out))?;
            write_file(&PathBuf::from(json_path), |out| {
                write_json(&tree, args.min_games, out)
            })?;
        }
        None => {
            let mut out = BufWriter::new(io::stdout().lock());
            if args.json {
                write_json(&tree, args.min_games, &mut out)?;
            } else {
                tree.write_sgf(args.min_games, &mut out)?;
            }
            out.flush()?;
        }
    }
    let left: Vec<String> = tree
        .left_out()
        .filter(|(_, n)| *n > 0)
        .map(|(why, n)| format!("{} {why}", thousands(n)))
        .collect();
    let left = if left.is_empty() {
        String::new()
    } else {
        format!("; left out: {}", left.join(", "))
    };
    let pruned = if tree.prunings() == 0 {
        String::new()
    } else {
        format!(
            "; the node budget (--max-nodes {}) was reached {} times: counts of nodes made after \
             may be up to {} low (shown as ranges)",
            thousands(args.max_nodes),
            thousands(tree.prunings()),
            thousands(tree.undercount_bound())
        )
    };
    let _ = writeln!(
        stderr.lock(),
        "tree: {} games joined in {} trees, {} nodes{left}{pruned}{failures}",
        thousands(tree.games()),
        thousands(tree.starts().count()),
        thousands(tree.node_count()),
    );
    Ok(status)
}

/// Writes `path` whole or not at all.
fn write_file(
    path: &std::path::Path,
    write: impl FnOnce(&mut BufWriter<Replace>) -> io::Result<()>,
) -> Result<(), CliError> {
    let name = crate::name::display_name(path);
    let replace = Replace::create(path)
        .map_err(|e| CliError::io(format!("cannot write {name}"), io::Error::other(e)))?;
    let mut out = BufWriter::new(replace);
    write(&mut out).map_err(|e| CliError::io(format!("cannot write {name}"), e))?;
    let replace = out
        .into_inner()
        .map_err(|e| CliError::io(format!("cannot write {name}"), e.into_error()))?;
    replace
        .commit()
        .map_err(|e| CliError::io(format!("cannot write {name}"), io::Error::other(e)))
}

/// One JSON object per node written, in the SGF's order.
fn write_json(tree: &OpeningTree, min_games: u64, out: &mut impl Write) -> io::Result<()> {
    for visit in tree.walk(min_games) {
        writeln!(out, "{}", node_json(&visit))?;
    }
    Ok(())
}

fn node_json(visit: &Visit<'_>) -> serde_json::Value {
    let node = &visit.node;
    let path: Vec<String> = visit.path.iter().map(ToString::to_string).collect();
    let (first, last) = match node.dates() {
        Some((a, b)) => (Some(a.to_string()), Some(b.to_string())),
        None => (None, None),
    };
    let mut value = serde_json::json!({
        "game": visit.game,
        "path": path.join("."),
        "move": node.played().map(|_| node.move_text()),
        "games": node.games(),
        "games_max": node.games_max(),
        "black_wins": node.black_wins(),
        "white_wins": node.white_wins(),
        "other": node.other_results(),
        "first_date": first,
        "last_date": last,
    });
    if node.is_start() {
        let start = node.start();
        value["size"] = serde_json::json!([start.size.cols, start.size.rows]);
        value["handicap"] = start
            .handicap
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .into();
    }
    value
}
