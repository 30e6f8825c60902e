//! `sgf split`: one file per game.
//!
//! Every game of the inputs is written to `DIR/<n>.sgf`, `n` counting from
//! 1 in the order of the scan (the same whatever `--jobs`) and written with
//! six digits (`000001.sgf`, `000002.sgf`, …; more digits only past
//! 999,999 games) so that the names sort in game order, with the raw
//! writer (values byte for byte as in the input, the tree well formed even
//! when the input's was cut off), and `DIR/index.tsv` says where each came
//! from: the file name, the source (`file` or `archive!member`), the
//! game's index in it and its byte offset. A folder that holds anything is refused
//! unless `--force`: the files of an earlier split would be read with the
//! new ones.

use super::{CliError, Status};
use crate::args::SplitArgs;
use crate::name::origin_name;
use crate::scan::{counted, keyed, InputCount, Progress};
use sgf_grove::table::thousands;
use sgf_grove::Writer;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};

/// What a worker hands back for one game.
struct Piece {
    source: String,
    index: usize,
    offset: usize,
    bytes: Vec<u8>,
}

/// The digits of a game's file name: names of the same width sort in game
/// order (a split of more games gets longer names from game 1,000,000 on).
const NAME_DIGITS: usize = 6;

/// The file name of the `n`-th game: `000001.sgf`.
fn file_name(n: u64) -> String {
    format!("{n:0NAME_DIGITS$}.sgf")
}

/// Runs `sgf split`.
///
/// # Errors
///
/// When the output folder or a file in it cannot be written.
pub fn run(args: &SplitArgs) -> Result<Status, CliError> {
    // Games of an earlier split left beside the new ones would read as
    // one set.
    let holds_something = fs::read_dir(&args.out).is_ok_and(|mut d| d.next().is_some());
    if holds_something && !args.force {
        return Err(CliError::io(
            format!("cannot split into {}", args.out.display()),
            io::Error::new(
                io::ErrorKind::AlreadyExists,
                "the folder is not empty (its files would mix with the new ones); \
                 use an empty folder, or --force to write over it",
            ),
        ));
    }
    fs::create_dir_all(&args.out)
        .map_err(|e| CliError::io(format!("cannot create {}", args.out.display()), e))?;
    let index_path = args.out.join("index.tsv");
    let mut index = BufWriter::new(
        File::create(&index_path)
            .map_err(|e| CliError::io(format!("cannot write {}", index_path.display()), e))?,
    );
    writeln!(index, "file\tsource\tgame\toffset")?;
    let progress = Progress::new(&args.scan);
    let mut written = 0u64;
    let mut failed = super::Failures::default();
    let mut count = InputCount::default();
    let mut first_error: Option<CliError> = None;
    let stderr = io::stderr();
    let skipped = args
        .scan
        .inputs()
        .par_scan_games(
            args.scan.options(),
            args.scan.jobs(),
            keyed(|game| {
                let tree = game.tree()?;
                let mut writer = Writer::new(Vec::with_capacity(tree.span().len() + 2));
                writer.write_game(tree).ok()?;
                // The writer ends the game with a line break.
                let bytes = writer.into_inner();
                Some(Piece {
                    source: origin_name(game.origin()),
                    index: game.index().unwrap_or(0),
                    offset: game.offset().unwrap_or(0),
                    bytes,
                })
            }),
            counted(
                &mut count,
                &progress,
                |result: Result<Option<Piece>, sgf_grove::input::InputError>| match result {
                    Ok(None) => {}
                    Ok(Some(piece)) => {
                        if first_error.is_some() {
                            return;
                        }
                        written += 1;
                        progress.game(piece.bytes.len() as u64);
                        let file = file_name(written);
                        let path = args.out.join(&file);
                        let line = writeln!(
                            index,
                            "{file}\t{}\t{}\t{}",
                            piece.source, piece.index, piece.offset
                        );
                        if let Err(e) = fs::write(&path, &piece.bytes).and(line) {
                            first_error =
                                Some(CliError::io(format!("cannot write {}", path.display()), e));
                        }
                    }
                    Err(err) => {
                        failed.add_input(&err);
                        let _ = writeln!(stderr.lock(), "{}: {err}", origin_name(err.origin()));
                    }
                },
            ),
        )
        .map_err(|e| CliError::io("cannot start the worker threads", io::Error::other(e)))?;
    progress.finish();
    let (status, failures) = failed.limited(args.scan.max_failures(), count.inputs);
    if let Some(err) = first_error {
        return Err(err);
    }
    index.flush()?;
    // The summary: printed with -q too (-q leaves out only the progress
    // bar and the per-game lines).
    let _ = writeln!(
        stderr.lock(),
        "split: {} games into {}{}{}",
        thousands(written),
        args.out.display(),
        failures,
        if skipped.total() > 0 {
            format!(", {} skipped", thousands(skipped.total()))
        } else {
            String::new()
        }
    );
    Ok(status)
}
