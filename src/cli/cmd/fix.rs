//! `sgf fix PATH... --repair NAME,… | --all [--dry-run] [--in-place | --out
//! DIR | --out-file FILE]`: each game written back with the named repairs
//! of [`sgf_grove::repair`], each change reported as
//! `path:line:column: repair: what changed` (standard error, or standard
//! output with `--dry-run`; none with `-q`), then a summary: files, games,
//! and the changes per repair, and the games per source found (certain or
//! not). A game whose source is uncertain gets a `source:` line when a
//! repair of a source was asked for, saying why it was not made.
//!
//! Inputs are read and written as `fmt` reads and writes them
//! ([`rewrite`](super::rewrite)): files, folders, archives, compressed
//! files, `.sgfs` and standard input, on all cores with the output in the
//! order of the inputs; `--in-place` replaces a file only when a repair
//! changed something in it.

use super::rewrite::{Dest, GameOut};
use super::{CliError, Status};
use crate::args::FixArgs;
use sgf_grove::repair::{Fixer, Repair, Repairs, Source};
use sgf_grove::table::thousands;
use sgf_grove::writer::WriteOptions;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// What the run counted.
#[derive(Debug, Default)]
struct Tally {
    files: u64,
    changed_files: u64,
    games: usize,
    changes: BTreeMap<Repair, usize>,
    /// Games per detected source, and whether it was certain.
    sources: BTreeMap<(Source, bool), usize>,
}

/// What one game's repair counted.
#[derive(Debug, Default)]
struct Fixed {
    repaired: bool,
    changes: Vec<Repair>,
    source: Option<(Source, bool)>,
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
    let options = WriteOptions::new();
    let quiet = args.io.scan.quiet;
    let work = |game: sgf_grove::input::ScanGame<'_>, name: &str| {
        let mut out = GameOut::<Fixed>::new(game.origin());
        out.warnings(&game, name, quiet);
        let Some(tree) = game.tree() else {
            return out;
        };
        let mut fixer = Fixer::new(Vec::new(), repairs, options.clone());
        let repaired = match fixer.fix_game(tree) {
            Ok(repaired) => repaired,
            Err(err) => {
                let code = err.kind().code();
                let at = if err.has_position() {
                    format!("{name}:{}:{}", err.line(), err.column())
                } else {
                    let pos = tree.collection().position(tree.span().start);
                    format!("{name}:{}:{}", pos.line, pos.column)
                };
                out.fail(code, format!("{at}: error[{code}]: {}", err.kind()));
                return out;
            }
        };
        let detection = &repaired.source;
        out.extra.repaired = true;
        out.extra.source = detection.source.map(|s| (s, detection.certain));
        // Why a repair of a source did not run.
        let wanted = |s: Source| repairs.iter().any(|r| r.sources().contains(&s));
        if let Some(source) = detection
            .source
            .filter(|&s| !detection.certain && wanted(s))
        {
            let pos = tree.collection().position(tree.root().offset());
            out.report.push(format!(
                "{name}:{}:{}: source: {source} uncertain ({}); its repairs not made",
                pos.line,
                pos.column,
                detection.signals.join(", ")
            ));
        }
        for change in &repaired.changes {
            out.extra.changes.push(change.repair);
            out.report.push(format!("{name}:{change}"));
        }
        out.changed = !repaired.changes.is_empty();
        out.bytes = Some(fixer.into_inner());
        out
    };
    let mut tally = Tally::default();
    let dest = if args.dry_run {
        Dest::Nowhere
    } else {
        Dest::Args(&args.io)
    };
    let (status, counted) =
        super::rewrite::run("fix", &args.io.scan, dest, work, |fixed: Fixed| {
            if fixed.repaired {
                tally.games += 1;
            }
            if let Some(source) = fixed.source {
                *tally.sources.entry(source).or_default() += 1;
            }
            for repair in fixed.changes {
                *tally.changes.entry(repair).or_default() += 1;
            }
        })?;
    tally.files = counted.inputs;
    tally.changed_files = counted.changed_inputs;
    let summary = summary(&tally, repairs);
    if args.dry_run {
        let mut stdout = io::stdout().lock();
        stdout.write_all(summary.as_bytes())?;
        stdout.flush()?;
    } else {
        let _ = io::stderr().lock().write_all(summary.as_bytes());
    }
    Ok(status)
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
