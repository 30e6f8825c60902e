//! `sgf extract`: a node's subtree, or every variation, of one game as
//! games of their own ([`sgf_grove::edit::EditableGame::extract`],
//! [`sgf_grove::edit::EditableGame::variations`]).
//!
//! The game is the `--game`-th of the inputs (read in order, one game at a
//! time, as `sgf board` reads them); the node is named as `sgf board`
//! names it (`--node 0.0.1`, `--move N`, the root by default). Without
//! `--setup` the new game keeps the line from the root as moves; with it,
//! its root holds the node's position as `AB`/`AW`/`PL`, the prisoners and
//! a ko in its comment, and the original root's game information.
//!
//! Output: one game, or with `--variations` one game per leaf below the
//! node, each root's comment saying which variation (`variation 2 of 5,
//! node 0.1.0 of the original`); on standard output as one collection, or
//! in `--out`: a file (one game), a folder (`--variations`: `<stem>-<k>.sgf`
//! with `k` from 1, zero-padded to the same width, each written whole).
//!
//! Memory: the game, its editable copy, and one extracted game at a time.

use super::{CliError, Status};
use crate::args::ExtractArgs;
use crate::name::origin_name;
use sgf_grove::atomic::Replace;
use sgf_grove::edit::{EditableGame, Extract};
use sgf_grove::game::ReplayOptions;
use sgf_grove::GameTree;
use std::io::{self, Write};
use std::path::Path;

/// Why the scan stopped early.
enum Stop {
    /// The game was found and written (or failed with this).
    Done(Result<Status, CliError>),
}

/// Runs `sgf extract`.
///
/// # Errors
///
/// A bad node (usage, exit status 2); a failed write.
pub fn run(args: &ExtractArgs) -> Result<Status, CliError> {
    let scan = &args.scan;
    let mut seen = 0usize;
    let mut failed = super::Failures::default();
    // The inputs read (a new origin starts one), for --max-failures.
    let mut inputs = 0u64;
    let mut last: Option<String> = None;
    let mut enter = |name: &str| {
        if last.as_deref() != Some(name) {
            inputs += 1;
            last = Some(name.to_string());
        }
    };
    let mut err_out = io::stderr().lock();
    let scanned = scan.inputs().scan_games(scan.options(), |game| {
        let game = match game {
            Ok(game) => game,
            Err(err) => {
                enter(&origin_name(err.origin()));
                failed.add_input(&err);
                let _ = writeln!(err_out, "{}: {err}", origin_name(err.origin()));
                return Ok(());
            }
        };
        let name = origin_name(game.origin());
        enter(&name);
        for tree in game.collection().games() {
            if seen == args.game {
                return Err(Stop::Done(extract(tree, &name, args)));
            }
            seen += 1;
        }
        Ok(())
    });
    match scanned {
        Err(Stop::Done(result)) => {
            let status = result?;
            let within = scan.max_failures().allows(failed.total(), inputs);
            Ok(if within { status } else { Status::Failed })
        }
        Ok(_) => {
            let _ = writeln!(
                err_out,
                "sgf extract: no game {} in the inputs (they hold {seen} games)",
                args.game
            );
            Ok(Status::Failed)
        }
    }
}

/// Extracts from `tree` (of input `name`) and writes the result.
fn extract(tree: GameTree<'_, '_>, name: &str, args: &ExtractArgs) -> Result<Status, CliError> {
    let node = match (&args.node, args.move_number) {
        (Some(path), _) => super::node_at_path(tree, path, "--node"),
        (None, Some(n)) => super::node_at_move(tree, n),
        (None, None) => Ok(tree.root()),
    }
    .map_err(|why| CliError::usage(format!("{name}: game {}: {why}", args.game)))?;
    let game = EditableGame::from_game(tree);
    let id = game
        .id_of(tree, node)
        .ok_or_else(|| CliError::usage(format!("{name}: no such node")))?;
    let replay = args
        .limits
        .apply(ReplayOptions::default())
        .strict(args.scan.strict);
    let options = Extract::new().setup(args.setup).replay(replay);
    let fail = |e: sgf_grove::edit::ExtractError| {
        let _ = writeln!(io::stderr(), "{name}: game {}: {e}", args.game);
        Ok(Status::Failed)
    };
    if !args.variations {
        let part = match game.extract(id, &options) {
            Ok(part) => part,
            Err(e) => return fail(e),
        };
        let bytes = part.to_sgf();
        match &args.out {
            Some(path) => write_file(path, &bytes)?,
            None => {
                let mut out = io::stdout().lock();
                out.write_all(&bytes)?;
                out.flush()?;
            }
        }
        return Ok(Status::Ok);
    }
    let total = game.leaves(id).count();
    let width = total.to_string().len();
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).map_err(|e| {
            CliError::io(format!("cannot make {}", crate::name::display_name(dir)), e)
        })?;
    }
    let stem = file_stem(name);
    let mut stdout = io::stdout().lock();
    for (k, (leaf, part)) in game
        .leaves(id)
        .zip(game.variations(id, &options))
        .enumerate()
    {
        let mut part = match part {
            Ok(part) => part,
            Err(e) => return fail(e),
        };
        let path = game.path_of(leaf).unwrap_or_default();
        let path: Vec<String> = path.iter().map(ToString::to_string).collect();
        let root = part.root();
        let note = format!(
            "variation {} of {total}, node {} of the original",
            k + 1,
            path.join(".")
        );
        part.append_comment(root, &note)
            .map_err(|e| CliError::io("cannot write the comment", io::Error::other(e)))?;
        let bytes = part.to_sgf();
        match &args.out {
            Some(dir) => {
                let file = dir.join(format!("{stem}-{:0width$}.sgf", k + 1));
                write_file(&file, &bytes)?;
            }
            None => stdout.write_all(&bytes)?,
        }
    }
    stdout.flush()?;
    Ok(Status::Ok)
}

/// The name of an input without folders and extensions, for the files of
/// `--variations` (`game` when nothing is left).
fn file_stem(origin: &str) -> String {
    let last = origin.rsplit(['/', '\\', '!']).next().unwrap_or(origin);
    let stem = last.split('.').next().unwrap_or(last);
    let clean: String = stem
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_'))
        .collect();
    if clean.is_empty() {
        "game".to_string()
    } else {
        clean
    }
}

/// Writes `path` whole or not at all.
fn write_file(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let name = crate::name::display_name(path);
    let err = |e: sgf_grove::atomic::ReplaceError| {
        CliError::io(format!("cannot write {name}"), io::Error::other(e))
    };
    let mut replace = Replace::create(path).map_err(err)?;
    replace
        .write_all(bytes)
        .map_err(|e| CliError::io(format!("cannot write {name}"), e))?;
    replace.commit().map_err(err)
}
