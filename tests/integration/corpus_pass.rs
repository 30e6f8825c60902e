//! The real corpus read and parsed once for every check over it.
//!
//! The modules that check something on every file of `../shared/corpus`
//! (round trips, replays, game info, rows, repairs, write modes, edits,
//! joins, charsets) each give a [`Check`]; [`real_corpus_checks_in_one_pass`]
//! reads the files once, parses each once on all cores, and hands every
//! check the file and its parse. A check that fails on a file fails that
//! file alone: the failure is kept with the check's name and the file's
//! path, the pass goes on, and the test fails at the end listing them all.
//! Checks that need all the files (joins, counts, an index built from a
//! sample) do that part in [`Check::finish`].
//!
//! With `SGF_GROVE_CORPUS` naming another folder, only the checks that hold
//! for any archive run ([`Check::any_archive`]); the others print a skip.
//!
//! Not here: `cli::check_real_corpus_sniffs_no_game_away` runs the `sgf`
//! binary over the corpus as a whole process (its walk of the folder, its
//! exit status and summary are what it checks), and
//! `archives::corpus_files_in_a_tar_gz_read_as_the_files` reads 200 files
//! through an archive it builds.

use sgf_grove::{Collection, Error, Parser};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// One file of the corpus as the checks see it.
pub struct File<'a> {
    /// Its number among the `.sgf` files, sorted by path (`n % 50 == 0`
    /// picks every 50th, as `step_by(50)` did).
    pub n: usize,
    /// The corpus's folder.
    pub dir: &'a Path,
    pub path: &'a Path,
    pub bytes: &'a [u8],
    /// The lenient parse with the default options (as `sgf_grove::parse`).
    pub parsed: Result<Collection<'a, 'a>, &'a Error>,
}

/// The whole corpus, for [`Check::finish`].
pub struct Corpus {
    pub dir: PathBuf,
    /// The shared corpus (its exact counts may be checked), not a folder
    /// named by `SGF_GROVE_CORPUS`.
    pub shared: bool,
    /// Every `.sgf` file (any letter case), sorted, and its bytes.
    pub files: Vec<PathBuf>,
    pub bytes: Vec<Vec<u8>>,
    /// The other files but the corpus's README, sorted, and their bytes.
    pub others: Vec<(PathBuf, Vec<u8>)>,
}

impl Corpus {
    /// Every `.sgf` file's bytes joined in order, each followed by `sep`.
    pub fn joined(&self, sep: &[u8]) -> Vec<u8> {
        let len = self.bytes.iter().map(|b| b.len() + sep.len()).sum();
        let mut out = Vec::with_capacity(len);
        for bytes in &self.bytes {
            out.extend_from_slice(bytes);
            out.extend_from_slice(sep);
        }
        out
    }
}

/// A check over every file of the corpus. It is shared by the threads of
/// the pass: what it counts across files sits behind a lock.
pub trait Check: Sync {
    /// The name its failures are listed under (the test it replaces).
    fn name(&self) -> &'static str;

    /// Holds for any folder of SGF files, not only the shared corpus.
    fn any_archive(&self) -> bool {
        false
    }

    /// Checks one file; a panic is this file's failure.
    fn file(&self, file: &File<'_>);

    /// Checks what the files added up to; a panic is a failure.
    fn finish(&self, corpus: &Corpus);
}

/// Failures listed per check, at most this many each (the rest counted).
const SHOWN: usize = 10;

/// What a panic said.
fn message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_else(|| "a panic without a message".to_owned())
}

/// The failures of each check: the first few in full, all counted.
struct Failures(Mutex<Vec<(usize, Vec<String>)>>);

impl Failures {
    fn new(checks: usize) -> Failures {
        Failures(Mutex::new(vec![(0, Vec::new()); checks]))
    }

    fn push(&self, check: usize, what: String) {
        let mut all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let (count, shown) = &mut all[check];
        *count += 1;
        if shown.len() < SHOWN {
            shown.push(what);
        }
    }
}

/// Reads the corpus: the `.sgf` files and the others, but its README.
fn load(dir: &Path, shared: bool) -> Corpus {
    let files = crate::common::sgf_files(dir);
    let bytes = files
        .iter()
        .map(|path| std::fs::read(path).expect("readable file"))
        .collect();
    let mut others = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("readable folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.file_name().is_some_and(|n| n != "README.md")
                && !path
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
            {
                let bytes = std::fs::read(&path).expect("readable file");
                others.push((path, bytes));
            }
        }
    }
    others.sort();
    Corpus {
        dir: dir.to_path_buf(),
        shared,
        files,
        bytes,
        others,
    }
}

/// Every check of the corpus, the ones of enabled features.
fn checks() -> Vec<Box<dyn Check>> {
    let mut checks: Vec<Box<dyn Check>> = vec![
        Box::new(crate::real_corpus::RoundTrip::default()),
        Box::new(crate::real_corpus::Concatenated::default()),
        Box::new(crate::detected_corpus::Reencoded::default()),
        Box::new(crate::board::MainLines::default()),
        Box::new(crate::board::CursorBack::default()),
        Box::new(crate::board::Symmetric::default()),
        Box::new(crate::game_info::RealGameInfo::default()),
        Box::new(crate::stream::StreamedEqualsWhole),
        Box::new(crate::edit::UneditedWritten),
        Box::new(crate::edit::TransformsUndone::default()),
        Box::new(crate::repair::AllRepairs::default()),
        Box::new(crate::concat::Joined::default()),
        Box::new(crate::semantic::EveryGame::default()),
    ];
    #[cfg(feature = "tables")]
    checks.push(Box::new(crate::tables::EveryGameARow::default()));
    #[cfg(feature = "oracle")]
    {
        checks.push(Box::new(crate::edit::EditsReadBack));
        checks.push(Box::new(crate::write_modes::EveryMode::default()));
    }
    #[cfg(feature = "index")]
    checks.push(Box::new(crate::index::FoundAtMove30));
    checks
}

#[test]
fn real_corpus_checks_in_one_pass() {
    let Some((dir, shared)) = crate::common::any_corpus_dir() else {
        return;
    };
    let mut checks = checks();
    if !shared {
        let left: Vec<&str> = checks
            .iter()
            .filter(|c| !c.any_archive())
            .map(|c| c.name())
            .collect();
        crate::common::skipped(&format!(
            "{} checks of the shared corpus alone, on {}: {}",
            left.len(),
            dir.display(),
            left.join(", ")
        ));
        checks.retain(|c| c.any_archive());
    }
    let started = Instant::now();
    let corpus = load(&dir, shared);
    let read = started.elapsed();
    let failures = Failures::new(checks.len());
    // The time each check took, file by file and at the end (nanoseconds).
    let spent: Vec<AtomicU64> = checks.iter().map(|_| AtomicU64::new(0)).collect();
    let parsing = AtomicU64::new(0);
    // The files on all cores, each parsed once for every check.
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut parser = Parser::new();
                loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    let (Some(path), Some(bytes)) = (corpus.files.get(n), corpus.bytes.get(n))
                    else {
                        break;
                    };
                    let t = Instant::now();
                    let parsed = parser.parse(bytes);
                    parsing.fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
                    let file = File {
                        n,
                        dir: &corpus.dir,
                        path,
                        bytes,
                        parsed: parsed.as_ref().copied(),
                    };
                    for (c, check) in checks.iter().enumerate() {
                        let t = Instant::now();
                        if let Err(why) = catch_unwind(AssertUnwindSafe(|| check.file(&file))) {
                            failures.push(c, format!("{}: {}", path.display(), message(&*why)));
                        }
                        spent[c].fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    let per_file = started.elapsed();
    // What each check adds up: on all cores too (the joins parse 73 MB
    // each).
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let c = next.fetch_add(1, Ordering::Relaxed);
                let Some(check) = checks.get(c) else { break };
                let t = Instant::now();
                if let Err(why) = catch_unwind(AssertUnwindSafe(|| check.finish(&corpus))) {
                    failures.push(c, format!("at the end: {}", message(&*why)));
                }
                spent[c].fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
            });
        }
    });
    eprintln!(
        "{} files, {} checks: read in {:.1} s, checked file by file in {:.1} s, at the end in {:.1} s",
        corpus.files.len(),
        checks.len(),
        read.as_secs_f64(),
        (per_file - read).as_secs_f64(),
        (started.elapsed() - per_file).as_secs_f64()
    );
    let secs = |ns: &AtomicU64| ns.load(Ordering::Relaxed) as f64 / 1e9;
    let mut times = vec![format!("parsing {:.1} s", secs(&parsing))];
    times.extend(
        checks
            .iter()
            .zip(&spent)
            .map(|(check, ns)| format!("{} {:.1} s", check.name(), secs(ns))),
    );
    eprintln!("time on all threads: {}", times.join(", "));
    let failures = failures.0.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut report = String::new();
    for (check, (count, shown)) in checks.iter().zip(&failures) {
        if *count == 0 {
            continue;
        }
        report.push_str(&format!("\n{}: {count} failure(s)", check.name()));
        for what in shown {
            report.push_str(&format!("\n  {what}"));
        }
        if *count > shown.len() {
            report.push_str(&format!("\n  … and {} more", count - shown.len()));
        }
    }
    assert!(report.is_empty(), "failures over the real corpus:{report}");
}
