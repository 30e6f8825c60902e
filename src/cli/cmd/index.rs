//! `sgf index build|add|compact|info|verify`: the position index of
//! [`sgf_grove::index`].
//!
//! One writer at a time: `build`, `add` and `compact` take the index's
//! lock and fail (exit status 2) while another writer holds it, or with
//! `--wait` wait for it. A damaged index is an error naming the file
//! (exit status 2), never a count; `verify` checks all of it, and with
//! `--repair` first removes the files an interrupted writer left (which
//! the next `build` or `add` removes too, saying so).
//!
//! `build` and `add` read every input kind `stats` reads, on all cores;
//! each Go game (`GM[1]` or no `GM`) is replayed on a worker
//! ([`GameEntry::new`]) and added in the scan's order, so the index is the
//! same whatever `--jobs`. A game is named by its origin with the input's
//! path made absolute (`/data/kgs.tar.gz!2019/a.sgf`) and its index in
//! that file: adding the same file again, from any folder, adds nothing
//! (a game the index has is not replayed).
//!
//! A game whose replay reaches a limit (`--max-nodes`, `--max-depth`,
//! `--max-changes`) is skipped with a line on standard error; the others
//! are indexed, the summary counts the skips per limit, and the exit
//! status is 1.

use super::{CliError, Status};
use crate::args::{IndexCommand, IndexDirArg, IndexVerifyArgs, ReplayLimitArgs};
use crate::name::origin_name;
use crate::scan::{counted, keyed, InputCount, Progress, ScanArgs};
use sgf_grove::game::{Limit, LimitExceeded, ReplayOptions};
use sgf_grove::index::{compact, repair, verify, GameEntry, Index, IndexBuilder};
use sgf_grove::input::{Origin, Root};
use sgf_grove::table::thousands;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Instant;

/// Runs `sgf index …`.
///
/// # Errors
///
/// I/O failures of the index or of standard output.
pub fn run(command: &IndexCommand) -> Result<Status, CliError> {
    match command {
        IndexCommand::Build(args) => add(
            &args.out,
            &args.scan,
            args.variations,
            &args.limits,
            args.wait,
        ),
        IndexCommand::Add(args) => add(
            &args.index,
            &args.scan,
            args.variations,
            &args.limits,
            args.wait,
        ),
        IndexCommand::Compact(args) => {
            let started = Instant::now();
            let rows = waiting(&args.index, args.wait, |d| compact(d))
                .map_err(|e| index_error(&args.index, e))?;
            eprintln!(
                "index: {rows} positions in one run ({:.2} s)",
                started.elapsed().as_secs_f64()
            );
            Ok(Status::Ok)
        }
        IndexCommand::Info(args) => info(args),
        IndexCommand::Verify(args) => verify_index(args),
    }
}

/// `open(dir)`, which takes the index's lock; with `wait`, tried again
/// every 200 ms (saying so once) while another writer holds it.
fn waiting<T>(dir: &Path, wait: bool, open: impl Fn(&Path) -> io::Result<T>) -> io::Result<T> {
    let mut said = false;
    loop {
        match open(dir) {
            Err(e) if wait && e.kind() == io::ErrorKind::WouldBlock => {
                if !said {
                    eprintln!(
                        "index: {} is being updated by another writer; waiting for it",
                        dir.display()
                    );
                    said = true;
                }
                std::thread::sleep(std::time::Duration::from_millis(200));
            }
            other => return other,
        }
    }
}

fn index_error(dir: &Path, e: io::Error) -> CliError {
    CliError::io(format!("index {}", dir.display()), e)
}

thread_local! {
    /// The last input path made absolute, and what it became (every game
    /// of a file, or of an archive, has the same).
    static ABSOLUTE: RefCell<Option<(PathBuf, PathBuf)>> = const { RefCell::new(None) };
}

/// The name a game's origin has in the index: its path made absolute.
fn stored_origin(origin: &Origin) -> String {
    let Root::Path(path) = origin.root() else {
        return origin_name(origin);
    };
    let absolute = ABSOLUTE.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some((from, to)) = cache.as_ref()
            && from == path
        {
            return to.clone();
        }
        let to = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        *cache = Some((path.clone(), to.clone()));
        to
    });
    let mut named = Origin::path(absolute);
    for member in origin.members() {
        named.push_member(member);
    }
    origin_name(&named)
}

fn lock(builder: &Mutex<IndexBuilder>) -> MutexGuard<'_, IndexBuilder> {
    builder.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What a worker made of one game.
enum Replayed {
    /// Already in the index.
    Known,
    /// Ready to add.
    Entry(GameEntry),
    /// Over a replay limit: where, and why.
    Skipped(String, LimitExceeded),
}

/// `build` and `add`: the games of `scan`'s inputs into the index `dir`.
fn add(
    dir: &Path,
    scan: &ScanArgs,
    variations: bool,
    limits: &ReplayLimitArgs,
    wait: bool,
) -> Result<Status, CliError> {
    let started = Instant::now();
    let options = limits.apply(ReplayOptions::default());
    let mut skipped: BTreeMap<Limit, u64> = BTreeMap::new();
    let builder = waiting(dir, wait, |d| IndexBuilder::open(d)).map_err(|e| index_error(dir, e))?;
    if !builder.removed().is_empty() {
        eprintln!(
            "index: removed what an interrupted writer had left: {}",
            builder.removed().join(", ")
        );
    }
    if !builder.has_moves() && builder.games() > 0 {
        eprintln!(
            "index: format 2: the games added answer position queries, not `sgf find --pattern` (rebuild the index with `sgf index build` into a new folder for that)"
        );
    }
    // The workers ask it whether a game is known before replaying it; the
    // calling thread adds to it.
    let builder = Mutex::new(builder);
    let progress = Progress::new(scan);
    let mut failed = super::Failures::default();
    let mut count = InputCount::default();
    let mut write_error: Option<io::Error> = None;
    let stderr = io::stderr();
    scan.inputs()
        .par_scan_games(
            scan.options(),
            scan.jobs(),
            keyed(|game| {
                let tree = game.tree()?;
                if tree.game_type() != 1 {
                    return None;
                }
                let origin = stored_origin(game.origin());
                let index = game.index().unwrap_or(0);
                if lock(&builder).contains(&origin, index) {
                    return Some(Replayed::Known);
                }
                Some(
                    match GameEntry::with_options(tree, &origin, index, variations, options) {
                        Ok(entry) => Replayed::Entry(entry),
                        Err(e) => Replayed::Skipped(format!("{origin} game {index}"), e),
                    },
                )
            }),
            counted(&mut count, &progress, |result| match result {
                Ok(None) => {}
                Ok(Some(Replayed::Known)) => lock(&builder).skipped_duplicate(),
                Ok(Some(Replayed::Skipped(game, e))) => {
                    *skipped.entry(e.limit).or_default() += 1;
                    let _ = writeln!(stderr.lock(), "{game}: skipped: {e}");
                }
                Ok(Some(Replayed::Entry(entry))) => {
                    progress.game(entry.rows() as u64);
                    if write_error.is_none()
                        && let Err(e) = lock(&builder).push(entry)
                    {
                        write_error = Some(e);
                    }
                }
                Err(err) => {
                    failed.add_input(&err);
                    let _ = writeln!(stderr.lock(), "{}: {err}", origin_name(err.origin()));
                }
            }),
        )
        .map_err(|e| CliError::io("cannot start the worker threads", io::Error::other(e)))?;
    progress.finish();
    let (status, failures) = failed.limited(scan.max_failures(), count.inputs);
    if let Some(e) = write_error {
        return Err(index_error(dir, e));
    }
    let builder = builder.into_inner().unwrap_or_else(PoisonError::into_inner);
    let total = builder.games();
    let added = builder.finish().map_err(|e| index_error(dir, e))?;
    // The summary: printed with -q too (-q leaves out only the progress
    // bar and the per-game lines).
    let seconds = started.elapsed().as_secs_f64();
    let _ = writeln!(
        stderr.lock(),
        "index: {} games added ({} already there), {} positions, {} runs written; \
         {} games in the index; {seconds:.2} s, {} positions/s{}",
        thousands(added.games),
        thousands(added.duplicates),
        thousands(added.rows),
        thousands(added.runs),
        thousands(total),
        thousands((added.rows as f64 / seconds.max(1e-9)) as u64),
        failures,
    );
    let skips: u64 = skipped.values().sum();
    if skips > 0 {
        let per: Vec<String> = skipped
            .iter()
            .map(|(limit, n)| format!("{}: {}", limit.name(), thousands(*n)))
            .collect();
        let _ = writeln!(
            stderr.lock(),
            "index: {} games skipped at a replay limit ({})",
            thousands(skips),
            per.join(", ")
        );
    }
    Ok(if skips > 0 { Status::Failed } else { status })
}

/// `sgf index info`.
fn info(args: &IndexDirArg) -> Result<Status, CliError> {
    let index = Index::open(&args.index).map_err(|e| index_error(&args.index, e))?;
    let bytes: u64 = std::fs::read_dir(&args.index)
        .and_then(|d| {
            d.map(|e| e.and_then(|e| e.metadata()).map(|m| m.len()))
                .sum::<io::Result<u64>>()
        })
        .map_err(|e| index_error(&args.index, e))?;
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "games: {}\npositions: {}\nruns: {}\nbytes: {}",
        thousands(index.games()),
        thousands(index.rows()),
        thousands(index.runs()),
        thousands(bytes)
    )?;
    if !index.has_moves() {
        writeln!(
            out,
            "format 2: no moves for `sgf find --pattern` (rebuild the index to add them)"
        )?;
    }
    out.flush()?;
    Ok(Status::Ok)
}

/// `sgf index verify`: a summary on standard output, each problem on
/// standard error; exit status 2 when damaged.
fn verify_index(args: &IndexVerifyArgs) -> Result<Status, CliError> {
    let dir = &args.index;
    if args.repair {
        let removed = repair(dir).map_err(|e| index_error(dir, e))?;
        if !removed.is_empty() {
            eprintln!(
                "index: removed what an interrupted writer had left: {}",
                removed.join(", ")
            );
        }
    }
    let report = verify(dir).map_err(|e| index_error(dir, e))?;
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "games: {}\npositions: {}\nruns: {}\nblocks checked: {}\nbytes: {}",
        thousands(report.games),
        thousands(report.rows),
        thousands(report.runs),
        thousands(report.blocks),
        thousands(report.bytes)
    )?;
    writeln!(
        out,
        "moves files: {} ({} blocks checked)",
        thousands(report.moves_files),
        thousands(report.moves_blocks)
    )?;
    if !report.leftovers.is_empty() {
        let why = if report.writer_active {
            "a writer is at work: its files until it commits"
        } else {
            "left by an interrupted writer, never read; `--repair` or the next writer removes them"
        };
        writeln!(
            out,
            "not part of the index ({why}): {}",
            report.leftovers.join(", ")
        )?;
    }
    if report.is_sound() {
        writeln!(out, "sound")?;
        out.flush()?;
        return Ok(Status::Ok);
    }
    writeln!(out, "damaged: {} problems", report.problems.len())?;
    out.flush()?;
    for problem in &report.problems {
        eprintln!("sgf index verify: {problem}");
    }
    Err(CliError::io(
        format!("index {}", dir.display()),
        io::Error::new(io::ErrorKind::InvalidData, "damaged (see above)"),
    ))
}
