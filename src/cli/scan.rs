//! What every command that reads SGF shares: the inputs and their options
//! ([`ScanArgs`], one clap struct flattened into each command), all
//! cores, the progress bar.

use crate::failures::MaxFailures;
use clap::Args;
use encoding_rs::Encoding;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sgf_grove::input::{InputError, Inputs, ScanGame};
use sgf_grove::ParseOptions;
use std::cell::Cell;
use std::io::{IsTerminal as _, Write as _};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The inputs of a scanning command and how to read them.
#[derive(Debug, Args)]
pub struct ScanArgs {
    /// Files, folders and archives; `-` reads standard input. Compressed
    /// files and tar, zip and 7z archives are opened whatever their name;
    /// folders and archives give their `.sgf`/`.sgfs` files, Tygem
    /// `.gib`, WBaduk `.ngf` and Pandanet `.ugf`/`.ugi` records (converted
    /// to SGF), and those that start like any of them (see `sgf check
    /// --help`).
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Worker threads (default: one per core). The output is the same,
    /// in the order of the inputs, whatever the number.
    #[arg(short, long, value_name = "N")]
    pub jobs: Option<usize>,

    /// This machine's share of a cluster job: of the inputs in sorted
    /// order, the K-th of every N, counting from 0 (`--shard 0/4` …
    /// `--shard 3/4` read each input once between them).
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<(usize, usize)>,

    /// In folders and archives, take files by their name only (`.sgf`,
    /// `.sgfs`, perhaps compressed), not by their first bytes.
    #[arg(long)]
    pub names_only: bool,

    /// Refuse every defect the lenient parser forgives: a game with one is
    /// a failure.
    #[arg(long)]
    pub strict: bool,

    /// Read every game's text in this charset, whatever its `CA` says.
    #[arg(long, value_name = "LABEL", value_parser = parse_charset)]
    pub charset: Option<&'static Encoding>,

    /// Quiet: no progress bar (there is none anyway when standard error
    /// is not a terminal) and no line per warning or per change; errors
    /// and the summary are still printed.
    #[arg(short, long)]
    pub quiet: bool,

    /// Show progress even when standard error is not a terminal (a log, a
    /// batch job): a line every second with the inputs, games, bytes and
    /// failed inputs so far, and one at the end. On a terminal the bar is
    /// shown anyway.
    #[arg(long, conflicts_with = "quiet")]
    pub progress: bool,

    /// Print at most N warning and error lines on standard error, then one
    /// line saying how many more were not printed, by kind (the summary
    /// counts them all).
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max_messages: u64,

    /// How many inputs may fail with exit status 0: a count (`3`) or a
    /// share of the inputs read (`5%`). An input fails when it cannot be
    /// read, is not SGF text, holds no game, is corrupt or over its
    /// budget, or when one of its games fails (a defect in strict mode, a
    /// game the writer refuses). The summary says how many failed and
    /// against which limit. Default 0: any failure exits 1 (`stats`
    /// counts failures and exits 0 unless this is given).
    #[arg(long, value_name = "N|P%", value_parser = crate::failures::parse_max_failures)]
    pub max_failures: Option<crate::failures::MaxFailures>,

    #[command(flatten)]
    pub limits: crate::args::InputLimits,
}

impl ScanArgs {
    /// The inputs, with `--shard` and `--names-only`.
    pub fn inputs(&self) -> Inputs {
        // Every command's work gives its result and nothing else (tallies
        // are sealed per piece, `par_scan_games_sealed`): a large input
        // is worked on as its chunks are parsed, with no copy of its games.
        let inputs = Inputs::new(self.paths.iter().cloned())
            .by_content(!self.names_only)
            .pure_work(true);
        let inputs = self.limits.apply(inputs);
        match self.shard {
            Some((k, n)) => inputs.shard(k, n),
            None => inputs,
        }
    }

    /// The number of worker threads.
    pub fn jobs(&self) -> usize {
        self.jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1)
    }

    /// The limit of `--max-failures` (0 when not given).
    pub fn max_failures(&self) -> MaxFailures {
        self.max_failures.unwrap_or_default()
    }

    /// The parse options of `--strict` and `--charset`.
    pub fn options(&self) -> ParseOptions {
        super::cmd::parse_options(self.strict, self.charset)
    }
}

/// Counts the inputs (members) of an ordered scan: a result of another
/// origin than the one before starts a new input.
#[derive(Debug, Default)]
pub struct InputCount {
    last: Option<u64>,
    /// Inputs seen so far.
    pub inputs: u64,
}

impl InputCount {
    /// Sees a result of the origin of key `key` ([`crate::cmd::origin_key`]).
    pub fn see_key(&mut self, key: u64) {
        if self.last != Some(key) {
            self.last = Some(key);
            self.inputs += 1;
        }
    }
}

/// `work` with the key of each game's origin beside its result, for an
/// [`InputCount`] in the sink ([`counted`]).
pub fn keyed<R>(
    work: impl Fn(ScanGame<'_>) -> R + Sync,
) -> impl Fn(ScanGame<'_>) -> (u64, R) + Sync {
    move |game| (crate::cmd::origin_key(game.origin()), work(game))
}

/// `sink` of the results of [`keyed`] work, counting the inputs in
/// `count` and telling `progress` of them (and of the inputs that fail).
pub fn counted<'a, R>(
    count: &'a mut InputCount,
    progress: &'a Progress,
    mut sink: impl FnMut(Result<R, InputError>) + 'a,
) -> impl FnMut(Result<(u64, R), InputError>) + 'a {
    move |result| match result {
        Ok((key, r)) => {
            count.see_key(key);
            progress.input(key);
            sink(Ok(r));
        }
        Err(err) => {
            let key = crate::cmd::origin_key(err.origin());
            count.see_key(key);
            progress.input(key);
            progress.failure(key);
            sink(Err(err));
        }
    }
}

/// `K/N` with `K < N`.
pub fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let (k, n) = s
        .split_once('/')
        .ok_or_else(|| format!("expected K/N (as in 0/4), got {s:?}"))?;
    let k: usize = k.trim().parse().map_err(|_| format!("bad K in {s:?}"))?;
    let n: usize = n.trim().parse().map_err(|_| format!("bad N in {s:?}"))?;
    if n == 0 || k >= n {
        return Err(format!("K must be below N, and N above 0: {s:?}"));
    }
    Ok((k, n))
}

fn parse_charset(label: &str) -> Result<&'static Encoding, String> {
    sgf_grove::text::charset::for_label(label.as_bytes())
        .ok_or_else(|| format!("unknown charset label {label:?}"))
}

/// Progress on standard error: on a terminal a bar (games, megabytes of
/// games and their rate, and the share done when the inputs are plain
/// files of known size); elsewhere, with `--progress`, a line every second
/// (inputs, games, bytes, failed inputs so far) and one at the end.
/// Nothing with `--quiet`, nor off a terminal without `--progress`.
///
/// The counts are cells, so that the sink of a scan and the wrapper that
/// counts its inputs ([`counted`]) can both tell it what they see.
#[derive(Debug)]
pub struct Progress {
    bar: Option<ProgressBar>,
    /// `--progress` off a terminal: when the last line was printed.
    lines: Option<Cell<Instant>>,
    started: Instant,
    games: Cell<u64>,
    bytes: Cell<u64>,
    inputs: Cell<u64>,
    last_input: Cell<Option<u64>>,
    failures: Cell<u64>,
    last_failure: Cell<Option<u64>>,
}

/// How often a progress line is printed.
const LINE_EVERY: Duration = Duration::from_secs(1);

impl Progress {
    /// Progress of a scan of `args`' inputs.
    pub fn new(args: &ScanArgs) -> Progress {
        Progress::with(&args.paths, args.quiet, args.progress)
    }

    /// Progress of a scan of `paths`, with `--quiet` and `--progress` as
    /// given.
    pub fn with(paths: &[PathBuf], quiet: bool, lines: bool) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let mut progress = Progress {
            bar: None,
            lines: None,
            started: Instant::now(),
            games: Cell::new(0),
            bytes: Cell::new(0),
            inputs: Cell::new(0),
            last_input: Cell::new(None),
            failures: Cell::new(0),
            last_failure: Cell::new(None),
        };
        if quiet {
            return progress;
        }
        if !terminal {
            if lines {
                progress.lines = Some(Cell::new(progress.started));
            }
            return progress;
        }
        // The total is known when every path is a plain file.
        let total: Option<u64> = paths
            .iter()
            .map(|p| {
                std::fs::metadata(p)
                    .ok()
                    .filter(|m| m.is_file())
                    .map(|m| m.len())
            })
            .sum();
        let bar = match total {
            Some(total) => {
                let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
                bar.set_style(
                    ProgressStyle::with_template(
                        "{bar:30} {bytes}/{total_bytes} {binary_bytes_per_sec} ETA {eta} {msg}",
                    )
                    .expect("a valid template"),
                );
                bar
            }
            None => {
                let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
                bar.set_style(
                    ProgressStyle::with_template("{spinner} {bytes} {binary_bytes_per_sec} {msg}")
                        .expect("a valid template"),
                );
                bar
            }
        };
        bar.enable_steady_tick(Duration::from_millis(200));
        progress.bar = Some(bar);
        progress
    }

    /// Counts a game of `bytes` bytes.
    pub fn game(&self, bytes: u64) {
        self.games(1, bytes);
    }

    /// Counts `games` games of `bytes` bytes in all.
    pub fn games(&self, games: u64, bytes: u64) {
        let before = self.games.get();
        let games = before + games;
        self.games.set(games);
        self.bytes.set(self.bytes.get() + bytes);
        if let Some(bar) = &self.bar {
            bar.set_position(self.bytes.get());
            if games / 1024 != before / 1024 {
                bar.set_message(format!("{games} games"));
            }
        }
        self.tick();
    }

    /// Sees a result of the input of key `key` ([`crate::cmd::origin_key`]):
    /// a key other than the last one's starts a new input.
    pub fn input(&self, key: u64) {
        if self.last_input.get() != Some(key) {
            self.last_input.set(Some(key));
            self.inputs.set(self.inputs.get() + 1);
        }
    }

    /// The input of key `key` failed (counted once however many times
    /// it is said in a row).
    pub fn failure(&self, key: u64) {
        if self.last_failure.get() != Some(key) {
            self.last_failure.set(Some(key));
            self.failures.set(self.failures.get() + 1);
        }
        self.tick();
    }

    /// Prints a line when one is due.
    fn tick(&self) {
        let Some(last) = &self.lines else {
            return;
        };
        let now = Instant::now();
        if now.duration_since(last.get()) >= LINE_EVERY {
            last.set(now);
            self.line(now);
        }
    }

    /// The progress line.
    fn line(&self, now: Instant) {
        let _ = writeln!(
            std::io::stderr().lock(),
            "progress: {} inputs, {} games, {} bytes, {} failed, {:.1} s",
            self.inputs.get(),
            self.games.get(),
            self.bytes.get(),
            self.failures.get(),
            now.duration_since(self.started).as_secs_f64()
        );
    }

    /// Clears the bar, or prints the last line.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        if self.lines.is_some() {
            self.line(Instant::now());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_k_of_n() {
        assert_eq!(parse_shard("0/4"), Ok((0, 4)));
        assert_eq!(parse_shard(" 3 / 4 "), Ok((3, 4)));
        assert!(parse_shard("4/4").is_err());
        assert!(parse_shard("1/0").is_err());
        assert!(parse_shard("1").is_err());
        assert!(parse_shard("a/2").is_err());
    }
}
