//! `sgf export --format samples`: training samples of every main line,
//! shuffled into shards in `--out DIR` (see `sgf_grove::samples`).
//!
//! Games are read and turned into records on every core, in input order;
//! one thread shuffles them through the window and writes the shards, so
//! the folder is the same for the same inputs and seed whatever `-j`.

use super::tables;
use super::{CliError, Status};
use crate::args::{ExportArgs, ShardFormatArg};
use crate::messages::Messages;
use crate::name::origin_name;
use crate::scan::{counted, keyed, InputCount, Progress};
use sgf_grove::samples::{
    Augment, Encoder, Extras, FolderOptions, GameMeta, SampleOptions, SampleWriter, ShardFormat,
    Stop,
};
use sgf_grove::table::{thousands, GameRow};
use sgf_grove::value::BoardSize;
use std::io::{self, Write};

/// A game read: its row and records, or why it gave none.
enum Made {
    Samples(Box<GameRow>, Vec<u8>, Option<Stop>),
    OtherSize,
    NotGo,
    NoMoves(Option<Stop>),
}

fn bad(what: impl Into<String>) -> CliError {
    CliError::io(
        what.into(),
        io::Error::new(io::ErrorKind::InvalidInput, "bad option"),
    )
}

/// Reads `19` or `13x9` (columns × rows), 1 to 52 each.
fn board(text: &str) -> Option<BoardSize> {
    let (c, r) = match text.split_once(['x', 'X', ':']) {
        Some((c, r)) => (c.trim().parse().ok()?, r.trim().parse().ok()?),
        None => {
            let n = text.trim().parse().ok()?;
            (n, n)
        }
    };
    ((1..=52).contains(&c) && (1..=52).contains(&r)).then_some(BoardSize { cols: c, rows: r })
}

/// Runs `sgf export --format samples`.
///
/// # Errors
///
/// Bad options, a folder that cannot be written, worker threads that
/// cannot start.
pub fn run(args: &ExportArgs) -> Result<Status, CliError> {
    let Some(dir) = &args.out else {
        return Err(bad("--out DIR is needed for samples"));
    };
    let filter = tables::filter(&args.filter)
        .map_err(|e| CliError::io("bad filter", io::Error::new(io::ErrorKind::InvalidInput, e)))?;
    let aliases = super::export::aliases(args)?;
    let s = &args.samples;
    let size =
        board(&s.board).ok_or_else(|| bad(format!("--board {}: not a board size", s.board)))?;
    let extras = Extras::parse(&s.planes).map_err(|e| bad(format!("--planes: {e}")))?;
    let augment = Augment::parse(&s.augment).map_err(|e| bad(format!("--augment: {e}")))?;
    let layout = SampleOptions::new()
        .board(size)
        .history(usize::from(s.history))
        .extras(extras)
        .augment(augment)
        .seed(s.seed)
        .layout();
    let format = match s.shard_format {
        ShardFormatArg::Npz => ShardFormat::Npz,
        ShardFormatArg::Parquet => ShardFormat::Parquet,
    };
    let options = FolderOptions::new()
        .shard_size(s.shard_size)
        .window(s.window)
        .format(format)
        .packed(!s.unpacked);
    let mut writer = SampleWriter::create(dir, &layout, options)
        .map_err(|e| CliError::io(e.to_string(), io::Error::other("samples")))?;
    let progress = Progress::new(&args.scan);
    let mut failed = super::Failures::default();
    let mut count = InputCount::default();
    let mut write_error = None;
    // Games cut short are told one a line, up to --max-messages (-q: none;
    // the summary counts them all).
    let mut messages = Messages::new(args.scan.max_messages);
    let (mut next_id, mut other_size, mut not_go, mut no_moves, mut cut) = (0u64, 0, 0, 0, 0u64);
    args.scan
        .inputs()
        .par_scan_games(
            args.scan.options(),
            args.scan.jobs(),
            keyed(|game| {
                let tree = game.tree()?;
                let origin = origin_name(game.origin());
                let offset = game.offset().unwrap_or(0) as u64;
                let mut row = GameRow::from_game_without_moves(tree, &origin, offset);
                if let Some(aliases) = &aliases {
                    row.apply_aliases(aliases);
                }
                filter.check(&row, tree).ok()?;
                if tree.game_type() != 1 {
                    return Some(Made::NotGo);
                }
                if tree.board_size() != size {
                    return Some(Made::OtherSize);
                }
                let mut records = Vec::new();
                let done = Encoder::new(&layout).encode(tree, &GameMeta::of(&row), &mut records);
                if done.samples == 0 {
                    return Some(Made::NoMoves(done.stop));
                }
                Some(Made::Samples(Box::new(row), records, done.stop))
            }),
            counted(
                &mut count,
                &progress,
                |result: Result<Option<Made>, sgf_grove::input::InputError>| match result {
                    Ok(None) => {}
                    Ok(Some(Made::OtherSize)) => other_size += 1,
                    Ok(Some(Made::NotGo)) => not_go += 1,
                    Ok(Some(Made::NoMoves(stop))) => {
                        no_moves += 1;
                        cut += u64::from(stop.is_some());
                    }
                    Ok(Some(Made::Samples(mut row, mut records, stop))) => {
                        progress.game(records.len() as u64);
                        if let Some(stop) = stop {
                            cut += 1;
                            if !args.scan.quiet {
                                let (code, why) = match stop {
                                    Stop::Illegal(n) => {
                                        ("samples_cut_illegal", format!("move {n}, illegal"))
                                    }
                                    Stop::Unreadable(n) => {
                                        ("samples_cut_unreadable", format!("move {n}, not a move"))
                                    }
                                    Stop::Limit(n) => {
                                        ("samples_cut_limit", format!("move {n}, a replay limit"))
                                    }
                                };
                                let text = format!(
                                    "{}: game {}: samples end at {why}",
                                    row.source, row.game
                                );
                                messages.print(&mut io::stderr(), code, &text);
                            }
                        }
                        if write_error.is_none() {
                            row.set_id(next_id);
                            write_error = writer.add_game(&row, &mut records).err();
                            next_id += 1;
                        }
                    }
                    Err(err) => {
                        failed.add_input(&err);
                        let code = err
                            .parse_error()
                            .map_or(err.kind().code(), |e| e.kind().code());
                        let text = format!("{}: error[{code}]: {err}", origin_name(err.origin()));
                        messages.print(&mut io::stderr(), code, &text);
                    }
                },
            ),
        )
        .map_err(|e| CliError::io("cannot start the worker threads", io::Error::other(e)))?;
    progress.finish();
    let _ = messages.write_note(&mut io::stderr());
    let (status, failures) = failed.limited(args.scan.max_failures(), count.inputs);
    if let Some(err) = write_error {
        return Err(sample_error(err));
    }
    let summary = writer.finish().map_err(sample_error)?;
    let _ = writeln!(
        io::stderr(),
        "samples: {} samples of {} games in {} shards (left out: {} of another size, {} not of Go, {} without moves; {} cut at a bad move){}",
        thousands(summary.samples),
        thousands(summary.games),
        summary.shards.len(),
        thousands(other_size),
        thousands(not_go),
        thousands(no_moves),
        thousands(cut),
        failures
    );
    Ok(status)
}

fn sample_error(err: sgf_grove::samples::SampleError) -> CliError {
    let kind = err.io_kind().unwrap_or(io::ErrorKind::Other);
    CliError::io(err.to_string(), io::Error::new(kind, "samples"))
}
