//! `sgf export`: one record per game, as JSON Lines, CSV or Parquet.
//!
//! Files (`--out`) are written under temporary names and renamed to their
//! own at the end ([`Staged`]): a failed or killed export never leaves half
//! a table under a final name.

use super::tables;
use super::{CliError, Status};
use crate::args::{ExportArgs, TableFormat};
use crate::name::origin_name;
use crate::scan::{counted, keyed, InputCount, Progress};
use sgf_grove::table::thousands;
use sgf_grove::table::{
    CsvWriter, GameRow, JsonLinesWriter, NameAliases, ParquetOptions, ParquetWriter, RowWriter,
};
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// The alias table of `--aliases FILE` (the built-in one extended), or
/// `None` without the option.
///
/// # Errors
///
/// A file that cannot be read, or a line that is no alias.
pub(super) fn aliases(args: &ExportArgs) -> Result<Option<NameAliases>, CliError> {
    let Some(path) = &args.aliases else {
        return Ok(None);
    };
    let text = fs::read_to_string(path)
        .map_err(|e| CliError::io(format!("cannot read {}", path.display()), e))?;
    let mut table = NameAliases::builtin();
    table.add_text(&text).map_err(|e| {
        CliError::io(
            format!("{}", path.display()),
            io::Error::new(io::ErrorKind::InvalidData, e),
        )
    })?;
    Ok(Some(table))
}

/// Runs `sgf export`.
///
/// # Errors
///
/// When the output cannot be written or the worker threads started.
pub fn run(args: &ExportArgs) -> Result<Status, CliError> {
    if args.format == TableFormat::Samples {
        return super::samples::run(args);
    }
    let filter = tables::filter(&args.filter)
        .map_err(|e| CliError::io("bad filter", io::Error::new(io::ErrorKind::InvalidInput, e)))?;
    let moves = !args.no_moves;
    let analysis = args.analysis;
    let aliases = aliases(args)?;
    // Files are written under temporary names and renamed at the end.
    let mut staged = Staged::default();
    let mut writer: Box<dyn RowWriter> = match (args.format, &args.out) {
        (TableFormat::Jsonl, None) => Box::new(
            JsonLinesWriter::new(BufWriter::new(io::stdout()))
                .moves(moves)
                .analysis(analysis),
        ),
        (TableFormat::Jsonl, Some(path)) => Box::new(
            JsonLinesWriter::new(staged.create(path)?)
                .moves(moves)
                .analysis(analysis),
        ),
        (_, None) => {
            return Err(CliError::io(
                "--out DIR is needed for csv and parquet",
                io::Error::new(io::ErrorKind::InvalidInput, "no output folder"),
            ))
        }
        (format, Some(dir)) => {
            fs::create_dir_all(dir)
                .map_err(|e| CliError::io(format!("cannot create {}", dir.display()), e))?;
            match format {
                TableFormat::Csv => {
                    let games = staged.create(&dir.join("games.csv"))?;
                    let writer = if moves {
                        let moves = staged.create(&dir.join("moves.csv"))?;
                        CsvWriter::with_moves(games, moves)
                    } else {
                        CsvWriter::new(games)
                    };
                    if analysis {
                        Box::new(writer.analysis(staged.create(&dir.join("analysis.csv"))?))
                    } else {
                        Box::new(writer)
                    }
                }
                _ => {
                    let games = staged.create(&dir.join("games.parquet"))?;
                    let moves_file = match moves {
                        true => Some(staged.create(&dir.join("moves.parquet"))?),
                        false => None,
                    };
                    let options = ParquetOptions::new().moves(moves);
                    let mut writer =
                        ParquetWriter::new(games, moves_file, options).map_err(table_error)?;
                    if analysis {
                        let file = staged.create(&dir.join("analysis.parquet"))?;
                        writer = writer.analysis(file).map_err(table_error)?;
                    }
                    // With workers, the rows are gathered and encoded on a
                    // thread of their own (the same bytes): the thread that
                    // takes the rows in order only hands them on.
                    if args.scan.jobs() > 1 {
                        Box::new(writer.encode_on_thread().map_err(table_error)?)
                    } else {
                        Box::new(writer)
                    }
                }
            }
        }
    };
    let progress = Progress::new(&args.scan);
    let mut next_id = 0u64;
    let mut failed = super::Failures::default();
    let mut count = InputCount::default();
    let mut write_error = None;
    args.scan
        .inputs()
        .par_scan_games(
            args.scan.options(),
            args.scan.jobs(),
            keyed(|game| {
                let tree = game.tree()?;
                let origin = origin_name(game.origin());
                let offset = game.offset().unwrap_or(0) as u64;
                let mut row = if moves {
                    GameRow::from_game_packed(tree, &origin, offset)
                } else {
                    GameRow::from_game_without_moves(tree, &origin, offset)
                };
                if analysis {
                    row.add_analysis(tree);
                }
                if let Some(aliases) = &aliases {
                    row.apply_aliases(aliases);
                }
                filter.check(&row, tree).ok()?;
                // Boxed: the row is handed on from the worker to this
                // thread in several moves, each then a pointer's copy.
                Some((Box::new(row), tree.span().len() as u64))
            }),
            counted(
                &mut count,
                &progress,
                |result: Result<Option<(Box<GameRow>, u64)>, sgf_grove::input::InputError>| {
                    match result {
                        Ok(None) => {}
                        Ok(Some((mut row, bytes))) => {
                            progress.game(bytes);
                            for w in &row.analysis_warnings {
                                let _ = writeln!(
                                    io::stderr(),
                                    "{}: game {}: {w}",
                                    row.source,
                                    row.game
                                );
                            }
                            if write_error.is_none() {
                                row.set_id(next_id);
                                write_error = writer.write_owned_row(row).err();
                                next_id += 1;
                            }
                        }
                        Err(err) => {
                            failed.add_input(&err);
                            let _ = writeln!(io::stderr(), "{}: {err}", origin_name(err.origin()));
                        }
                    }
                },
            ),
        )
        .map_err(|e| CliError::io("cannot start the worker threads", io::Error::other(e)))?;
    progress.finish();
    let (status, failures) = failed.limited(args.scan.max_failures(), count.inputs);
    if let Some(err) = write_error {
        return Err(table_error(err));
    }
    writer.finish().map_err(table_error)?;
    drop(writer);
    staged.commit()?;
    // The summary: printed with -q too (-q leaves out only the progress
    // bar and the per-game lines).
    let _ = writeln!(
        io::stderr(),
        "export: {} games{}",
        thousands(next_id),
        failures
    );
    Ok(status)
}

/// Output files written under temporary names beside their final ones
/// (`.<name>.<pid>.sgf-grove-tmp`, which folder scans skip) and renamed
/// to them by [`Staged::commit`] once every row is written, so that no
/// final name ever holds half a table. Dropped without a commit, the
/// temporary files are removed.
#[derive(Debug, Default)]
pub(super) struct Staged {
    /// Each temporary file and its final name.
    files: Vec<(PathBuf, PathBuf)>,
}

impl Staged {
    /// A new temporary file for `path`.
    fn create(&mut self, path: &Path) -> Result<BufWriter<File>, CliError> {
        let name = path
            .file_name()
            .map_or_else(|| "export".into(), |n| n.to_string_lossy().into_owned());
        let temp = path.with_file_name(format!(
            ".{name}.{}{}",
            std::process::id(),
            sgf_grove::atomic::TEMP_SUFFIX
        ));
        let file = File::create(&temp)
            .map_err(|e| CliError::io(format!("cannot write {}", path.display()), e))?;
        self.files.push((temp, path.to_path_buf()));
        Ok(BufWriter::new(file))
    }

    /// Syncs every temporary file and renames it to its final name.
    fn commit(mut self) -> Result<(), CliError> {
        for (temp, path) in std::mem::take(&mut self.files) {
            let cannot = |e| CliError::io(format!("cannot write {}", path.display()), e);
            File::open(&temp)
                .and_then(|f| f.sync_all())
                .map_err(cannot)?;
            if let Err(e) = fs::rename(&temp, &path) {
                let _ = fs::remove_file(&temp);
                return Err(cannot(e));
            }
        }
        Ok(())
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        for (temp, _) in &self.files {
            let _ = fs::remove_file(temp);
        }
    }
}

/// A failed table write as a [`CliError`], keeping the kind of an I/O
/// error underneath (a closed pipe ends the program quietly).
pub(super) fn table_error(err: sgf_grove::table::TableError) -> CliError {
    use std::error::Error as _;
    let source = err.source();
    let kind = source
        .and_then(|s| s.downcast_ref::<io::Error>())
        .map(io::Error::kind)
        .or_else(|| {
            source
                .and_then(|s| s.downcast_ref::<serde_json::Error>())
                .and_then(serde_json::Error::io_error_kind)
        })
        .unwrap_or(io::ErrorKind::Other);
    CliError::io(
        "cannot write the table",
        io::Error::new(kind, err.to_string()),
    )
}
