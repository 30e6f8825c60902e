//! `sgf check --semantic`: the library's semantic pass
//! ([`sgf_grove::audit::semantic`]) over every game, its findings printed
//! like the warnings (`path:line:column: severity[code]: message` with the
//! line and a caret), listed in the file's JSON line (`semantic`, the
//! first [`WARNINGS_KEPT`] of the file, `semantic_dropped` the rest),
//! and counted per code for the summary; and `sgf check --explain CODE`.
//!
//! Findings never change the exit status: a record with an illegal move or
//! a misplaced property is still a readable record, and `check` fails an
//! input only when it cannot be read.

use super::segments::Segments;
use super::text::{self, Messages};
use crate::cmd::{write_headline, write_stream_snippet, CliError, Status, WARNINGS_KEPT};
use crate::read::Input;
use sgf_grove::audit::semantic::{Check, Finding, Findings, Semantic};
use sgf_grove::audit::ValueError;
use sgf_grove::input::OwnedGame;
use sgf_grove::table::thousands;
use sgf_grove::{Collection, GameTree};
use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A member hands games to the helper thread once this many bytes of its
/// games were read: a folder's small files are checked a file per worker
/// already, and a copy and two messages a game would only cost there.
const HELPER_AFTER: u64 = 1 << 20;

/// Games at the helper at most; and games held in all (at the helper, or
/// checked here and waiting for an earlier one's findings): the memory of
/// the games in flight, a copy each.
const IN_FLIGHT: usize = 16;
const HELD: usize = 4 * IN_FLIGHT;

/// A copy kept for reuse holds at most this many heap bytes (one of a
/// huge game is let go once used).
const SPARE_COPY: usize = 4 << 20;

/// What the semantic pass found in one file: a count per check and the
/// first [`WARNINGS_KEPT`] findings (for the JSON output).
///
/// The pass costs about twice the parse and the value check together, so
/// a large member (one file of many games) shares it with a helper thread
/// when `check` has more than one job: a game goes to the helper (as a
/// copy) while fewer than [`IN_FLIGHT`] are there, else it is checked
/// here, and the findings are taken (and, in the text output, each game's
/// report written) in the games' order, whoever checked them.
pub(super) struct FileFindings {
    pass: Semantic,
    pub(super) counts: [u64; Check::COUNT],
    pub(super) kept: Vec<Finding>,
    /// Whether a helper may be used (`check` runs more than one job).
    parallel: bool,
    helper: Option<Helper>,
    /// The games not taken yet, in order.
    pending: VecDeque<Slot>,
    /// Copies done with, kept for their room (boxed as they travel: a
    /// job's findings hold a count per check, moved through two channels).
    #[allow(clippy::vec_box)]
    spare: Vec<Box<Job>>,
    /// Bytes of games of the member read so far.
    member_bytes: u64,
    /// Games at the helper.
    at_helper: usize,
}

/// A game whose findings are not taken yet: with its job once checked
/// (`None`: at the helper, which gives jobs back in the order it got them),
/// and what its text report needs.
struct Slot {
    job: Option<Box<Job>>,
    values: Vec<ValueError>,
    shown: u64,
}

/// A game to check: its copy, then its findings and the time they took.
struct Job {
    /// The copy (kept for its room when not `copied`).
    game: Option<OwnedGame>,
    /// Whether `game` is this job's game (else the findings alone count).
    copied: bool,
    findings: Findings,
    time: Duration,
}

/// The helper thread: a semantic pass of its own, fed jobs through a
/// bounded channel, giving them back in order.
struct Helper {
    to: Option<SyncSender<Box<Job>>>,
    from: Receiver<Box<Job>>,
    thread: Option<JoinHandle<()>>,
}

impl Helper {
    fn start(pass: Semantic) -> io::Result<Helper> {
        let (to, jobs) = mpsc::sync_channel::<Box<Job>>(IN_FLIGHT);
        let (done, from) = mpsc::sync_channel::<Box<Job>>(IN_FLIGHT);
        let thread = std::thread::Builder::new()
            .name("sgf check semantic".into())
            .spawn(move || {
                let mut pass = pass;
                for mut job in jobs {
                    let t = Instant::now();
                    if let Some(game) = job.game.as_ref().filter(|_| job.copied) {
                        job.findings = pass.check(game.tree());
                    }
                    job.time = t.elapsed();
                    if done.send(job).is_err() {
                        return;
                    }
                }
            })?;
        Ok(Helper {
            to: Some(to),
            from,
            thread: Some(thread),
        })
    }

    /// The next job done, in the order sent; `None` when the helper died
    /// (a panic there, reported when it is joined).
    fn next(&mut self) -> Option<Box<Job>> {
        self.from.recv().ok()
    }
}

impl Drop for Helper {
    fn drop(&mut self) {
        self.to = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl std::fmt::Debug for FileFindings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileFindings")
            .field("counts", &self.counts)
            .field("kept", &self.kept.len())
            .field("pending", &self.pending.len())
            .finish()
    }
}

/// Where a game's text report goes, with what writing it needs.
pub(super) struct Report<'r, 'i> {
    pub(super) out: &'r mut Segments,
    pub(super) name: &'r str,
    pub(super) input: &'r Input<'i>,
    pub(super) messages: &'r mut Messages,
    /// Whether each game's report is written (text, not quiet).
    pub(super) text: bool,
    /// Whether findings are kept for the JSON output.
    pub(super) json: bool,
}

impl FileFindings {
    /// `parallel`: a helper thread may share the pass.
    pub(super) fn new(parallel: bool) -> FileFindings {
        FileFindings {
            // A game keeps as many as a file lists.
            pass: Semantic::new().keep(WARNINGS_KEPT),
            counts: [0; Check::COUNT],
            kept: Vec::new(),
            parallel,
            helper: None,
            pending: VecDeque::new(),
            spare: Vec::new(),
            member_bytes: 0,
            at_helper: 0,
        }
    }

    /// Starts a member (every game of the last one taken).
    pub(super) fn clear(&mut self) {
        debug_assert!(self.pending.is_empty());
        self.counts = [0; Check::COUNT];
        self.kept.clear();
        self.member_bytes = 0;
    }

    /// Checks the games of `coll` (one game, or none: warnings alone),
    /// whose value errors are `values` (`shown` shown before them), and
    /// writes its text report in order; returns the time of the pass
    /// spent here and on the helper for games taken now.
    pub(super) fn collection(
        &mut self,
        coll: &Collection<'_, '_>,
        values: &[ValueError],
        shown: u64,
        report: &mut Report<'_, '_>,
    ) -> io::Result<Duration> {
        let mut time = Duration::ZERO;
        let mut games = coll.games();
        let (Some(game), None) = (games.next(), games.next()) else {
            // Warnings alone (or, never from a stream, several games):
            // after every earlier game, checked here.
            time += self.finish(report)?;
            if report.text {
                write_report(report, coll, coll.warnings(), values, shown)?;
            }
            for game in coll.games() {
                let t = Instant::now();
                let findings = self.pass.check(game);
                time += t.elapsed();
                self.take(&findings, report, Some(coll))?;
            }
            return Ok(time);
        };
        self.member_bytes += game.span().len() as u64;
        if self.pending.is_empty() && !self.use_helper() {
            // Checked here and taken at once.
            if report.text {
                write_report(report, coll, coll.warnings(), values, shown)?;
            }
            let t = Instant::now();
            let findings = self.pass.check(game);
            time += t.elapsed();
            self.take(&findings, report, Some(coll))?;
            return Ok(time);
        }
        let mut job = self.spare.pop().unwrap_or_else(|| {
            Box::new(Job {
                game: None,
                copied: false,
                findings: Findings::default(),
                time: Duration::ZERO,
            })
        });
        let slot = Slot {
            job: None,
            values: if report.text {
                values.to_vec()
            } else {
                Vec::new()
            },
            shown,
        };
        let helper = self
            .helper
            .as_ref()
            .and_then(|h| h.to.as_ref())
            .filter(|_| self.at_helper < IN_FLIGHT);
        let slot = match helper {
            Some(to) => {
                copy(&mut job.game, game);
                job.copied = true;
                match to.try_send(job) {
                    Ok(()) => {
                        self.at_helper += 1;
                        slot
                    }
                    Err(mpsc::TrySendError::Full(job) | mpsc::TrySendError::Disconnected(job)) => {
                        self.here(slot, job, None)
                    }
                }
            }
            None if report.text => {
                // The report is written later, from a copy.
                copy(&mut job.game, game);
                job.copied = true;
                self.here(slot, job, None)
            }
            None => {
                // Only the findings are kept: no copy.
                job.copied = false;
                self.here(slot, job, Some(game))
            }
        };
        self.pending.push_back(slot);
        // Take what is done, in order; wait only when too many are held.
        while let Some(front) = self.pending.front() {
            let ready = front.job.is_some();
            if !ready && self.pending.len() < HELD {
                match self.helper.as_mut().map(|h| h.from.try_recv()) {
                    Some(Ok(job)) => {
                        self.at_helper -= 1;
                        let at = self.first_at_helper();
                        self.pending[at].job = Some(job);
                    }
                    _ => break,
                }
                continue;
            }
            time += self.take_front(report)?;
        }
        Ok(time)
    }

    /// Checks `job` here, for `slot`: `game` itself, else the job's copy.
    fn here(&mut self, mut slot: Slot, mut job: Box<Job>, game: Option<GameTree<'_, '_>>) -> Slot {
        let t = Instant::now();
        match (game, &job.game) {
            (Some(game), _) => job.findings = self.pass.check(game),
            (None, Some(copy)) if job.copied => job.findings = self.pass.check(copy.tree()),
            (None, _) => {}
        }
        job.time = t.elapsed();
        slot.job = Some(job);
        slot
    }

    /// The place of the first game at the helper (its next job back).
    fn first_at_helper(&self) -> usize {
        self.pending
            .iter()
            .position(|s| s.job.is_none())
            .expect("a game at the helper")
    }

    /// Whether the next game goes to the helper, starting it when a
    /// member grew large enough.
    fn use_helper(&mut self) -> bool {
        if self.helper.is_none() && self.parallel && self.member_bytes >= HELPER_AFTER {
            // A helper that cannot start leaves the pass to this thread.
            self.helper = Helper::start(self.pass.clone()).ok();
            self.parallel = self.helper.is_some();
        }
        self.helper.is_some()
    }

    /// Takes the first pending game (waiting for the helper if it is
    /// there): its report, its findings.
    fn take_front(&mut self, report: &mut Report<'_, '_>) -> io::Result<Duration> {
        let Some(mut slot) = self.pending.pop_front() else {
            return Ok(Duration::ZERO);
        };
        let mut job = match slot.job.take() {
            Some(job) => job,
            None => match self.helper.as_mut().and_then(Helper::next) {
                Some(job) => {
                    self.at_helper -= 1;
                    job
                }
                None => {
                    // The helper died (a panic there): the findings of its
                    // games are lost, so the run stops with an error
                    // rather than print counts that miss them.
                    self.helper = None;
                    self.parallel = false;
                    self.at_helper = 0;
                    return Err(io::Error::other("the semantic helper thread stopped"));
                }
            },
        };
        let time = job.time;
        match job.game.as_ref().filter(|_| job.copied) {
            Some(game) => {
                let coll = game.collection();
                if report.text {
                    write_report(report, &coll, coll.warnings(), &slot.values, slot.shown)?;
                }
                self.take(&job.findings, report, Some(&coll))?;
            }
            // Checked here without a copy: no text report.
            None => self.take(&job.findings, report, None)?,
        }
        if job
            .game
            .as_ref()
            .is_some_and(|g| g.heap_bytes() > SPARE_COPY)
        {
            job.game = None;
        }
        self.spare.push(job);
        Ok(time)
    }

    /// Takes every pending game (at a member's end, or before warnings
    /// that come after them).
    pub(super) fn finish(&mut self, report: &mut Report<'_, '_>) -> io::Result<Duration> {
        let mut time = Duration::ZERO;
        while !self.pending.is_empty() {
            time += self.take_front(report)?;
        }
        Ok(time)
    }

    /// Adds one game's findings (read from `coll`, which the text report
    /// needs) and writes them.
    fn take(
        &mut self,
        found: &Findings,
        report: &mut Report<'_, '_>,
        coll: Option<&Collection<'_, '_>>,
    ) -> io::Result<()> {
        self.add(found, report.json);
        if report.text
            && let Some(coll) = coll
        {
            write_findings(
                report.out,
                report.name,
                report.input,
                coll,
                found.list(),
                report.messages,
            )?;
        }
        Ok(())
    }

    /// How many findings in all.
    pub(super) fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Adds one game's findings; keeps them for the JSON output (`json`)
    /// while the file has room.
    pub(super) fn add(&mut self, found: &Findings, json: bool) {
        for (check, n) in found.counts() {
            self.counts[check as usize] += n;
        }
        if json {
            let room = WARNINGS_KEPT.saturating_sub(self.kept.len());
            let list = found.list();
            self.kept.extend_from_slice(&list[..list.len().min(room)]);
        }
    }
}

/// Makes `slot` a copy of `game`, reusing its room.
fn copy(slot: &mut Option<OwnedGame>, game: GameTree<'_, '_>) {
    match slot {
        Some(owned) => owned.copy_from(game),
        None => *slot = Some(OwnedGame::of(game)),
    }
}

/// Writes the report of one game's read: its warnings and value errors.
fn write_report(
    report: &mut Report<'_, '_>,
    coll: &Collection<'_, '_>,
    warnings: &[sgf_grove::Warning],
    values: &[ValueError],
    shown: u64,
) -> io::Result<()> {
    text::write_game(
        report.out,
        report.name,
        report.input,
        coll,
        warnings,
        values,
        shown,
        report.messages,
    )
}

/// Writes one game's findings, each admitted by `filter`, with its line
/// and a caret.
pub(super) fn write_findings(
    out: &mut Segments,
    name: &str,
    input: &Input<'_>,
    coll: &Collection<'_, '_>,
    found: &[Finding],
    filter: &mut Messages,
) -> io::Result<()> {
    let (window, base) = (coll.input(), coll.stream_offset(0));
    for f in found {
        let code = f.check().code();
        if !filter.admit(code) {
            continue;
        }
        out.begin();
        match f.position() {
            Some(pos) => {
                write_headline(out, name, f.severity().name(), code, f.message(), pos)?;
                write_stream_snippet(out, input, window, base, pos)?;
            }
            None => writeln!(out, "{name}: {}[{code}]: {}", f.severity(), f.message())?,
        }
        out.end();
    }
    Ok(())
}

/// The summary's part: `semantic: N findings (E errors, W warnings, I
/// info)` and a line per code found.
pub(super) fn write_summary(out: &mut impl Write, counts: &[u64; Check::COUNT]) -> io::Result<()> {
    let mut by_severity = [0u64; 3];
    for check in Check::ALL {
        by_severity[check.severity() as usize] += counts[check as usize];
    }
    let total: u64 = counts.iter().sum();
    writeln!(
        out,
        "semantic: {} findings ({} errors, {} warnings, {} info)",
        thousands(total),
        thousands(by_severity[0]),
        thousands(by_severity[1]),
        thousands(by_severity[2])
    )?;
    for check in Check::ALL {
        let n = counts[check as usize];
        if n > 0 {
            writeln!(
                out,
                "  {} ({}): {}",
                check.code(),
                check.severity(),
                thousands(n)
            )?;
        }
    }
    Ok(())
}

/// `sgf check --explain CODE`: the catalogue's entry for `code`.
///
/// # Errors
///
/// A usage error (exit status 2) for an unknown code, naming the close
/// ones.
pub(super) fn explain(code: &str) -> Result<Status, CliError> {
    let Some(check) = Check::from_code(code) else {
        let close = Check::close_to(code);
        let hint = if close.is_empty() {
            let all: Vec<&str> = Check::ALL.iter().map(|c| c.code()).collect();
            format!("the codes are: {}", all.join(", "))
        } else {
            format!("did you mean: {}", close.join(", "))
        };
        return Err(CliError::usage(format!(
            "no semantic check has the code {code:?}; {hint}"
        )));
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    writeln!(out, "{} ({})", check.code(), check.severity())?;
    writeln!(out, "  {}", check.meaning())?;
    writeln!(out)?;
    writeln!(out, "{}", wrap(check.explanation(), 76))?;
    writeln!(out)?;
    match check.repair() {
        Some(repair) => writeln!(out, "repair: sgf fix --repair {repair}")?,
        None => writeln!(out, "repair: none (not safe to make without a person)")?,
    }
    match check.sgfc() {
        Some(n) => writeln!(out, "SGFC: message {n}")?,
        None => writeln!(out, "SGFC: no message")?,
    }
    Ok(Status::Ok)
}

/// `text` cut into lines of at most `width` characters, at spaces.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in text.split(' ') {
        let len = word.chars().count();
        if line > 0 && line + 1 + len > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += len;
    }
    out
}
