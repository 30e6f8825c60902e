//! `sgf fix PATH... --repair NAME,… | --all [--dry-run] [--in-place | --out
//! FILE]`: each game written back with the named repairs of
//! [`sgf_grove::repair`], each change reported as
//! `path:line:column: repair: what changed` (standard error, or standard
//! output with `--dry-run`), then a summary: files, games, and the changes
//! per repair, and the games per source found (certain or not). A game
//! whose source is uncertain gets a `source:` line when a repair of a
//! source was asked for, saying why it was not made.
//!
//! Folders are walked for `.sgf` files (any letter case, sorted). Each
//! input is read as a stream, as `fmt` reads it; `--in-place` replaces a
//! file only when a repair changed something in it, through
//! [`replace_file`] (temporary file + rename), and leaves it as it was when
//! its input fails. `--out` is written through a temporary file too and
//! appears whole at the end.

use super::one_line::{is_line_break, OneLine};
use super::rewrite::{is_sgfs, open_out, refused, replace_file};
use super::{display_name, input_parse_options, is_stdin, open_reporting, parse_streaming};
use super::{CliError, Status};
use crate::args::FixArgs;
use sgf_grove::repair::{Fixer, Repair, Repairs, Source};
use sgf_grove::table::thousands;
use sgf_grove::writer::WriteOptions;
use sgf_grove::ErrorKind;
use std::collections::BTreeMap;
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// What the run counted.
#[derive(Debug, Default)]
struct Tally {
    files: usize,
    changed_files: usize,
    games: usize,
    changes: BTreeMap<Repair, usize>,
    /// Games per detected source, and whether it was certain.
    sources: BTreeMap<(Source, bool), usize>,
}

/// Runs `sgf fix`.
///
/// # Errors
///
/// An unreadable input, or a failed write.
pub fn run(args: &FixArgs) -> Result<Status, CliError> {
    let repairs: Repairs = if args.all {
        Repairs::all()
    } else {
        args.repair.iter().copied().collect()
    };
    let io_args = &args.io;
    if io_args.in_place && io_args.paths.iter().any(|p| is_stdin(p)) {
        return Err(CliError::io(
            "--in-place",
            io::Error::new(io::ErrorKind::InvalidInput, "cannot rewrite standard input"),
        ));
    }
    let mut files = Vec::new();
    for path in &io_args.paths {
        expand(path, &mut files)?;
    }
    let options = WriteOptions::new();
    let mut tally = Tally::default();
    let mut status = Status::Ok;
    // Reports go with the output's errors, or to standard output when
    // nothing else is written there.
    let mut stdout = args
        .dry_run
        .then(|| BufWriter::with_capacity(64 * 1024, io::stdout().lock()));
    // `--out`: written whole through a temporary file, renamed at the end.
    let mut out_file = match &args.out {
        Some(out) if !args.dry_run => match open_out(out) {
            Ok(replace) => Some(replace),
            Err(err) => return refused(&display_name(out), err),
        },
        _ => None,
    };
    let mut shared: Option<Fixer<Box<dyn Write + '_>>> = if args.dry_run {
        Some(Fixer::new(Box::new(io::sink()), repairs, options.clone()))
    } else if let (Some(out), Some(replace)) = (&args.out, out_file.as_mut()) {
        let out: Box<dyn Write + '_> = if is_sgfs(out) {
            Box::new(OneLine::new(replace))
        } else {
            Box::new(replace)
        };
        Some(Fixer::new(out, repairs, options.clone()))
    } else if !io_args.in_place {
        Some(Fixer::new(
            Box::new(BufWriter::with_capacity(64 * 1024, io::stdout())),
            repairs,
            options.clone(),
        ))
    } else {
        None
    };
    for path in &files {
        tally.files += 1;
        let report = stdout.as_mut().map(|s| s as &mut dyn Write);
        let (one, changes) = match &mut shared {
            Some(fixer) => fix_one(args, path, fixer, report, &mut tally)?,
            None => {
                let mut changes = 0;
                let one = replace_file(path, |out| {
                    let mut fixer = Fixer::new(out, repairs, options.clone());
                    let (one, n) = fix_one(args, path, &mut fixer, None, &mut tally)?;
                    changes = n;
                    Ok((one, n > 0))
                })?;
                (one, changes)
            }
        };
        if changes > 0 {
            tally.changed_files += 1;
        }
        if one == Status::Failed {
            status = Status::Failed;
        }
    }
    if let Some(fixer) = shared.take() {
        fixer.into_inner().flush()?;
    }
    drop(shared);
    if let (Some(out), Some(replace)) = (&args.out, out_file) {
        if refused_out(out, replace.commit())? == Status::Failed {
            status = Status::Failed;
        }
    }
    let summary = summary(&tally, repairs);
    match stdout.as_mut() {
        Some(stdout) => {
            stdout.write_all(summary.as_bytes())?;
            stdout.flush()?;
        }
        None => {
            let _ = io::stderr().lock().write_all(summary.as_bytes());
        }
    }
    Ok(status)
}

/// The outcome of the commit of `--out`.
fn refused_out(
    out: &Path,
    committed: Result<(), sgf_grove::atomic::ReplaceError>,
) -> Result<Status, CliError> {
    match committed {
        Ok(()) => Ok(Status::Ok),
        Err(err) => refused(&display_name(out), err),
    }
}

/// Adds `path` to `files`: a file (or `-`) as it is, a folder's `.sgf`
/// files (any letter case, recursively, sorted).
fn expand(path: &Path, files: &mut Vec<PathBuf>) -> Result<(), CliError> {
    if is_stdin(path) || !path.is_dir() {
        files.push(path.to_path_buf());
        return Ok(());
    }
    let mut found = Vec::new();
    let mut stack = vec![path.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = fs::read_dir(&dir)
            .map_err(|e| CliError::io(format!("cannot read {}", display_name(&dir)), e))?;
        for entry in entries {
            let entry = entry
                .map_err(|e| CliError::io(format!("cannot read {}", display_name(&dir)), e))?;
            let p = entry.path();
            let kind = entry.file_type().ok();
            if kind.is_some_and(|k| k.is_dir()) {
                stack.push(p);
            } else if kind.is_some_and(|k| k.is_file())
                && p.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
            {
                found.push(p);
            }
        }
    }
    found.sort();
    files.extend(found);
    Ok(())
}

/// Repairs the games of the input at `path` into `fixer`, reporting each
/// change to `report` (or with the parse's diagnostics on standard error);
/// returns the input's status and its number of changes.
fn fix_one<W: Write>(
    args: &FixArgs,
    path: &Path,
    fixer: &mut Fixer<W>,
    mut report: Option<&mut dyn Write>,
    tally: &mut Tally,
) -> Result<(Status, usize), CliError> {
    let name = display_name(path);
    let Some(mut input) = open_reporting(path, &name)? else {
        return Ok((Status::Failed, 0));
    };
    let options = input_parse_options(args.io.strict, args.io.charset, input.decoded_from);
    let mut failed = false;
    let mut changes = 0;
    let status = parse_streaming(&mut input, options, &name, |coll, err_out| {
        // A game that fails is reported and the games after it are still
        // repaired (a file rewritten in place is then left as it was).
        for game in coll.games() {
            let repaired = match fixer.fix_game(game) {
                Ok(repaired) => repaired,
                Err(err) if err.kind() == ErrorKind::Io => {
                    let io = super::io_error(&err).expect("an I/O error");
                    if !is_line_break(&io) {
                        return Err(io);
                    }
                    failed = true;
                    let pos = coll.position(game.root().offset());
                    let _ = writeln!(
                        err_out,
                        "{name}:{}:{}: error[sgfs_line_break]: {io}",
                        pos.line, pos.column
                    );
                    return Ok(());
                }
                Err(err) => {
                    failed = true;
                    super::note_failure();
                    let code = err.kind().code();
                    let _ = writeln!(
                        err_out,
                        "{name}:{}:{}: error[{code}]: {}",
                        err.line(),
                        err.column(),
                        err.kind()
                    );
                    continue;
                }
            };
            tally.games += 1;
            let detection = &repaired.source;
            if let Some(source) = detection.source {
                *tally
                    .sources
                    .entry((source, detection.certain))
                    .or_default() += 1;
            }
            let out: &mut dyn Write = match report.as_deref_mut() {
                Some(out) => out,
                None => err_out,
            };
            // Why a repair of a source did not run.
            let wanted = |s: Source| fixer.repairs().iter().any(|r| r.sources().contains(&s));
            if let Some(source) = detection
                .source
                .filter(|&s| !detection.certain && wanted(s))
            {
                let pos = coll.position(game.root().offset());
                writeln!(
                    out,
                    "{name}:{}:{}: source: {source} uncertain ({}); its repairs not made",
                    pos.line,
                    pos.column,
                    detection.signals.join(", ")
                )?;
            }
            for change in &repaired.changes {
                changes += 1;
                *tally.changes.entry(change.repair).or_default() += 1;
                writeln!(out, "{name}:{change}")?;
            }
        }
        Ok(())
    })?;
    let status = if failed { Status::Failed } else { status };
    Ok((status, changes))
}

/// The summary: files and games read, files changed, the changes per
/// repair asked for, the games per certain source.
fn summary(tally: &Tally, repairs: Repairs) -> String {
    let mut out = format!(
        "fix: {} files, {} games, {} files changed\n",
        thousands(tally.files),
        thousands(tally.games),
        thousands(tally.changed_files)
    );
    for repair in repairs.iter() {
        let n = tally.changes.get(&repair).copied().unwrap_or(0);
        out.push_str(&format!("  {:<16} {}\n", repair.name(), thousands(n)));
    }
    if !tally.sources.is_empty() {
        let sources: Vec<String> = tally
            .sources
            .iter()
            .map(|((s, certain), n)| {
                let how = if *certain { "certain" } else { "uncertain" };
                format!("{s} {} {how}", thousands(*n))
            })
            .collect();
        out.push_str(&format!("  sources (games): {}\n", sources.join(", ")));
    }
    out
}
