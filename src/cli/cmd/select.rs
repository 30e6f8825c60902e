//! `sgf select`: the games that pass the filters, as sources or as games.
//!
//! `--print paths` (the default) prints one line per game, tab-separated
//! (`\t` below):
//!
//! ```text
//! source\tgame\toffset
//! games/a.sgf\t0\t0
//! kgs.tar.gz!2019/b.sgf\t3\t1874
//! ```
//!
//! `source` is the file (or `archive!member`), `game` the game's index in
//! it (from 0), `offset` the byte offset of the game's `(` in the
//! (decompressed) source; the header line is printed with `--header`.
//! `--print games` writes the games as one collection (raw writer).

use super::tables;
use super::{CliError, Status};
use crate::args::{Print, SelectArgs};
use crate::name::origin_name;
use crate::scan::{counted, keyed, InputCount, Progress};
use sgf_grove::table::thousands;
use sgf_grove::table::{GameRow, Reason, Stats};
use sgf_grove::Writer;
use std::fs::File;
use std::io::{self, BufWriter, Write};

/// A game looked at: its text to print, or why the filter left it out.
type Selected = Result<Vec<u8>, Reason>;

/// Runs `sgf select`.
///
/// # Errors
///
/// When the output cannot be written or the worker threads started.
pub fn run(args: &SelectArgs) -> Result<Status, CliError> {
    let filter = tables::filter(&args.filter)
        .map_err(|e| CliError::io("bad filter", io::Error::new(io::ErrorKind::InvalidInput, e)))?;
    let jobs = args.scan.jobs();
    // Games left out, by reason (counted as results come, so that a piece
    // of input read again counts once).
    let mut rejected = Stats::new();
    let mut out: Box<dyn Write> = match &args.out {
        Some(path) => {
            Box::new(BufWriter::new(File::create(path).map_err(|e| {
                CliError::io(format!("cannot write {}", path.display()), e)
            })?))
        }
        None => Box::new(BufWriter::new(io::stdout().lock())),
    };
    if args.header && args.print == Print::Paths {
        out.write_all(b"source\tgame\toffset\n")?;
    }
    let progress = Progress::new(&args.scan);
    let (mut selected, mut seen) = (0u64, 0u64);
    let mut failed = super::Failures::default();
    let mut count = InputCount::default();
    let mut write_error = None;
    let print = args.print;
    args.scan
        .inputs()
        .par_scan_games(
            args.scan.options(),
            jobs,
            keyed(|game| {
                let tree = game.tree()?;
                let origin = origin_name(game.origin());
                let offset = game.offset().unwrap_or(0);
                let row = GameRow::from_game_without_moves(tree, &origin, offset as u64);
                if let Err(reason) = filter.check(&row, tree) {
                    return Some(Err(reason));
                }
                let text = match print {
                    Print::Paths => {
                        format!("{origin}\t{}\t{offset}\n", game.index().unwrap_or(0)).into_bytes()
                    }
                    Print::Games => {
                        let mut writer = Writer::new(Vec::new());
                        writer.write_game(tree).ok()?;
                        writer.into_inner()
                    }
                };
                Some(Ok(text))
            }),
            counted(
                &mut count,
                &progress,
                |result: Result<Option<Selected>, sgf_grove::input::InputError>| match result {
                    Ok(None) => {}
                    Ok(Some(found)) => {
                        seen += 1;
                        match found {
                            Ok(text) => {
                                selected += 1;
                                progress.game(text.len() as u64);
                                if write_error.is_none() {
                                    write_error = out.write_all(&text).err();
                                }
                            }
                            Err(reason) => rejected.add_rejection(reason),
                        }
                    }
                    Err(err) => {
                        failed.add_input(&err);
                        let _ = writeln!(io::stderr(), "{}: {err}", origin_name(err.origin()));
                    }
                },
            ),
        )
        .map_err(|e| CliError::io("cannot start the worker threads", io::Error::other(e)))?;
    progress.finish();
    let (status, failures) = failed.limited(args.scan.max_failures(), count.inputs);
    if let Some(err) = write_error {
        return Err(err.into());
    }
    out.flush()?;
    // The summary: printed with -q too (-q leaves out only the progress
    // bar and the per-game lines).
    let report = rejected.report();
    let reasons: Vec<String> = report
        .rejections
        .iter()
        .map(|r| format!("{} {}", thousands(r.count), r.value))
        .collect();
    let _ = writeln!(
        io::stderr(),
        "select: {} of {} games{}{}",
        thousands(selected),
        thousands(seen),
        if reasons.is_empty() {
            String::new()
        } else {
            format!(" (rejected: {})", reasons.join(", "))
        },
        failures
    );
    Ok(status)
}
