//! `sgf check PATH...`: parse files, folders, compressed files and
//! archives, print every warning and error, then a summary with the totals
//! and the parse throughput.
//!
//! The jobs, one file each:
//!
//! - [`Inputs`] (the library's `input` module) expands the paths into SGF
//!   members in sorted order: regular files in folders (SGF by name or by
//!   their first bytes), anything named explicitly, `-` for standard input,
//!   compressed files decompressed, archive members as `archive!member`; it
//!   counts what it skipped;
//! - this file opens each member ([`Reader::open_member`]: sniffed), reads
//!   it as a stream one game at a time ([`StreamParser`]: memory bounded by
//!   the largest game, whatever the input's length; an `.sgfs` member line
//!   by line, so that a bad line costs only itself), and, unless
//!   `--structure-only`, reads every value of every game with an [`Audit`];
//!   only parsing is timed for the MB/s figure (not reading or
//!   decompressing the input), the value pass on its own;
//! - `text.rs` writes the report for people, each game's warnings and
//!   malformed values as the game is read; `json.rs` the JSON Lines (one
//!   object per member, then one summary object; the field names are a
//!   stable interface), with the diagnostics of a member collected up to
//!   [`WARNINGS_KEPT`] and [`VALUE_ERRORS_KEPT`] (the rest counted).
//!
//! With `-j N` the members are checked on N threads
//! ([`Inputs::par_scan_members`]), each report written apart
//! ([`segments`]) and printed in the order of the inputs, with
//! `--max-messages` applied over them all: the output is the same whatever
//! N (the parse and value times are summed over the threads).
//!
//! A member that is not SGF text (binary data, an executable), in which
//! the parser finds no game, or in which it stops (a game too large; in
//! strict mode, the first defect; a compressed stream that breaks) fails,
//! like an unreadable input or a corrupt archive; a failed member counts no
//! games, nodes or warnings. UTF-16 text is decoded to UTF-8 first, with a
//! warning, and its text read as UTF-8.

mod json;
mod segments;
mod semantic;
mod text;

use super::{
    parse_options, utf16_message, write_error, CliError, Status, UTF16_CODE, WARNINGS_KEPT,
};
use crate::args::{CheckArgs, Format};
use crate::name::origin_name;
use crate::read::{Input, Reader};
use crate::scan::Progress;
use segments::Segments;
use sgf_grove::audit::{self, Audit, ValueError};
use sgf_grove::input::{Content, GameBudget, InputError, Inputs, Member, MemberKind, SgfsLines};
use sgf_grove::{Error, ErrorKind, ParseOptions, Position, StreamParser, Warning};
use std::collections::BTreeMap;
use std::io::{self, BufWriter, Read, Write};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How many malformed values of a file are kept with their position (for
/// the JSON output); further ones are only counted.
const VALUE_ERRORS_KEPT: usize = 1000;

/// Runs `sgf check`.
///
/// # Errors
///
/// A failed write to standard output. Unreadable files are not errors here:
/// they count as failed files.
pub fn run(args: &CheckArgs) -> Result<Status, CliError> {
    if let Some(code) = &args.explain {
        return semantic::explain(code);
    }
    let started = Instant::now();
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(64 * 1024, stdout.lock());
    let progress = Progress::with(&args.paths, args.quiet, args.progress);
    let inputs = args
        .limits
        .apply(Inputs::new(&args.paths).by_content(!args.names_only));
    let inputs = match args.shard {
        Some((k, n)) => inputs.shard(k, n),
        None => inputs,
    };
    // Each thread's checker, taken for a member and put back.
    let idle: Mutex<Vec<Checker<'_>>> = Mutex::new(Vec::new());
    let work = |item: Result<Member<'_>, InputError>| -> io::Result<Checked> {
        let taken = idle.lock().unwrap_or_else(PoisonError::into_inner).pop();
        let mut checker = taken.unwrap_or_else(|| Checker::new(args));
        checker.messages.next_member();
        checker.totals = Totals {
            files: 1,
            ..Totals::default()
        };
        let mut report = Segments::default();
        let done = match item {
            Ok(member) => checker.check(&mut report, member),
            Err(err) => {
                let name = origin_name(err.origin());
                let message = err.to_string();
                let failure = Failure::Plain(err.kind().code(), &message);
                fail(&mut report, args, &mut checker.totals, &name, 0, failure)
            }
        };
        let checked = Checked {
            report,
            totals: std::mem::take(&mut checker.totals),
            values: checker.audit.take_totals(),
        };
        idle.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(checker);
        done.map(|()| checked)
    };
    let mut totals = Totals::default();
    let mut values = audit::Totals::default();
    let mut messages = text::Messages::new(&args.warn_kind, &args.ignore_kind, args.max_messages);
    let sink = |checked: io::Result<Checked>| -> io::Result<()> {
        let checked = checked?;
        checked.report.print(&mut out, &mut messages)?;
        let key = totals.files;
        progress.input(key);
        if !checked.totals.failed.is_empty() {
            progress.failure(key);
        }
        progress.games(checked.totals.games, checked.totals.bytes);
        totals.merge(checked.totals);
        values.merge(checked.values);
        Ok(())
    };
    let jobs = jobs(args);
    let skipped = inputs
        .par_scan_members(jobs, work, sink)
        .map_err(|e| CliError::io("cannot start the worker threads", io::Error::other(e)))??;
    progress.finish();
    for checker in idle.into_inner().unwrap_or_else(PoisonError::into_inner) {
        messages.absorb(&checker.messages);
    }
    let full = !args.structure_only;
    let values = full.then_some(&values);
    match args.format {
        Format::Text => {
            text::write_summary(&mut out, &totals, values, &skipped, started.elapsed())?;
            if args.semantic {
                semantic::write_summary(&mut out, &totals.semantic)?;
            }
            messages.write_note(&mut out)?;
        }
        Format::Json => json::write_summary(&mut out, &totals, values, &skipped, args.semantic)?,
    }
    out.flush()?;
    let failed = totals.failed.len() as u64;
    let mut reasons = super::Failures::default();
    for (_, code) in &totals.failed {
        reasons.add(code);
    }
    let limit = args.max_failures.unwrap_or_default();
    let summary = limit.summary("check", failed, totals.files, &reasons.reasons());
    // Said when a limit was given or several inputs were read.
    if let Some(line) = summary.filter(|_| args.max_failures.is_some() || totals.files > 1) {
        let _ = writeln!(io::stderr(), "{line}");
    }
    Ok(if limit.allows(failed, totals.files) {
        Status::Ok
    } else {
        Status::Failed
    })
}

/// The threads `check` runs: `--jobs`, else one per core.
fn jobs(args: &CheckArgs) -> usize {
    args.jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// What a worker made of one member: its report, its counts.
struct Checked {
    report: Segments,
    totals: Totals,
    values: audit::Totals,
}

/// What `check` keeps from input to input on one thread.
struct Checker<'a> {
    args: &'a CheckArgs,
    reader: Reader,
    /// Reads the values of one game at a time: its report is that game's,
    /// the file's are kept in `file`.
    audit: Audit,
    /// The current file's counts and kept diagnostics (buffers reused).
    file: FileState,
    totals: Totals,
    /// The game-at-a-time reader between members, kept for its buffer and
    /// arena.
    idle: Option<StreamParser<io::Empty>>,
    /// Which warnings are printed.
    messages: text::Messages,
}

/// What is known about the file being read, game by game.
#[derive(Default)]
struct FileState {
    nodes: u64,
    /// The warnings the parser kept, by code.
    counts: BTreeMap<&'static str, u64>,
    /// Warnings the parser counted but did not keep (over its limit per
    /// game); their kind is unknown.
    dropped: u64,
    /// The first [`WARNINGS_KEPT`] warnings, for the JSON output only.
    warnings: Vec<Warning>,
    /// Warnings kept by the parser but not in `warnings`.
    unlisted: u64,
    /// How many games read with each charset (name, how it was found),
    /// for the JSON output only: a count, not a list, so that a file of
    /// millions of games costs no more memory than one of a single game.
    charsets: BTreeMap<(&'static str, &'static str), u64>,
    /// The first [`VALUE_ERRORS_KEPT`] malformed values, for the JSON
    /// output only.
    value_errors: Vec<ValueError>,
    /// Malformed values found.
    value_error_count: u64,
    /// Lines of an `.sgfs` file the parser stopped on.
    line_error_count: u64,
    /// The first [`WARNINGS_KEPT`] of them, for the JSON output only.
    line_errors: Vec<Error>,
    /// What the semantic pass found, with `--semantic`.
    semantic: Option<semantic::FileFindings>,
}

impl FileState {
    fn clear(&mut self) {
        self.nodes = 0;
        self.counts.clear();
        self.dropped = 0;
        self.warnings.clear();
        self.unlisted = 0;
        self.charsets.clear();
        self.value_errors.clear();
        self.value_error_count = 0;
        self.line_error_count = 0;
        self.line_errors.clear();
        if let Some(found) = &mut self.semantic {
            found.clear();
        }
    }
}

/// Time spent in the parser and in the value pass, for one file.
#[derive(Default)]
struct Clock {
    games: Duration,
    values: Duration,
    semantic: Duration,
}

impl<'a> Checker<'a> {
    /// A checker with nothing read yet.
    fn new(args: &'a CheckArgs) -> Checker<'a> {
        // A helper thread shares a large member's semantic pass when more
        // than one job is asked for.
        let parallel = jobs(args) > 1;
        Checker {
            args,
            reader: Reader::default(),
            audit: Audit::new().keep_errors(VALUE_ERRORS_KEPT),
            file: FileState {
                semantic: args.semantic.then(|| semantic::FileFindings::new(parallel)),
                ..FileState::default()
            },
            totals: Totals::default(),
            idle: None,
            messages: text::Messages::new(&args.warn_kind, &args.ignore_kind, args.max_messages),
        }
    }

    /// Opens, reads, parses and reports one member.
    fn check(&mut self, out: &mut Segments, member: Member<'_>) -> io::Result<()> {
        let origin = member.origin();
        let name = origin_name(origin);
        let kind = member.kind();
        let budget = member.game_budget();
        let mut input = match self.reader.open_member(member) {
            Ok(input) => input,
            Err(err) => {
                let message = err.to_string();
                let failure = Failure::Plain(err.code(), &message);
                return fail(out, self.args, &mut self.totals, &name, 0, failure);
            }
        };
        if self.args.format == Format::Text
            && !self.args.quiet
            && let Some(content) = input.decoded_from
        {
            text::write_utf16_note(out, &name, content)?;
        }
        let charset = match input.decoded_from {
            // Decoded from UTF-16: the text is UTF-8 now, whatever its `CA`.
            Some(_) => Some(encoding_rs::UTF_8),
            None => self.args.charset,
        };
        let options: ParseOptions = parse_options(self.args.strict, charset);
        let reader = input.take_reader().expect("an input is parsed once");
        let idle = self
            .idle
            .take()
            .unwrap_or_else(|| StreamParser::new(io::empty()));
        self.file.clear();

        // One game at a time: the buffer and arena stay the size of the
        // largest game, whatever the length of the stream.
        let mut clock = Clock::default();
        let (result, games, idle) = if kind == MemberKind::Sgfs {
            let lines = SgfsLines::new(reader).max_line(self.args.limits.max_line_bytes);
            let mut parser = idle.recycle(lines, options);
            let result = self.lines(out, &name, &input, budget, &mut parser, &mut clock);
            let games = parser.games() as u64;
            (result, games, parser.recycle(io::empty(), options))
        } else {
            let mut parser = idle.recycle(reader, options);
            let result = self.games(out, &name, &input, budget, &mut parser, &mut clock);
            let games = parser.games() as u64;
            (result, games, parser.recycle(io::empty(), options))
        };
        self.idle = Some(idle);
        let result = result?;
        let read_time = input.read_time();
        self.totals.parse_time += clock.games.saturating_sub(read_time);
        self.totals.value_time += clock.values;
        self.totals.semantic_time += clock.semantic;
        let bytes = input.bytes_read();
        self.totals.bytes += bytes;
        let full = !self.args.structure_only;
        match result {
            Ok(()) => {
                let report = FileReport {
                    games,
                    decoded_from: input.decoded_from,
                    sgfs: kind == MemberKind::Sgfs,
                    file: &self.file,
                };
                self.totals.add(&report);
                match self.args.format {
                    Format::Text if self.args.quiet => Ok(()),
                    Format::Text => text::write_file_end(out, &name, &report, full),
                    Format::Json => json::write_file(out, &name, bytes, Ok(&report), full),
                }
            }
            Err(err) => {
                let message;
                let failure = if err.kind() == ErrorKind::Io {
                    // A read or decompression error: `corrupt_input` when
                    // a decompressor said the data is bad.
                    let classified = InputError::parse(origin.clone(), err);
                    message = classified.to_string();
                    Failure::Plain(classified.kind().code(), &message)
                } else {
                    Failure::Parse(&input, &err)
                };
                fail(out, self.args, &mut self.totals, &name, bytes, failure)
            }
        }
    }

    /// Reads, reports and counts the games of `parser` to its end or its
    /// first error (returned inside), the semantic pass's last games taken
    /// either way.
    fn games<R: Read>(
        &mut self,
        out: &mut Segments,
        name: &str,
        input: &Input<'_>,
        budget: GameBudget<'_>,
        parser: &mut StreamParser<R>,
        clock: &mut Clock,
    ) -> io::Result<Result<(), Error>> {
        let result = self.games_read(out, name, input, budget, parser, clock);
        if let Some(found) = &mut self.file.semantic {
            let mut report = semantic::Report {
                out,
                name,
                input,
                messages: &mut self.messages,
                text: self.args.format == Format::Text && !self.args.quiet,
                json: self.args.format == Format::Json,
            };
            clock.semantic += found.finish(&mut report)?;
        }
        result
    }

    /// [`Checker::games`] but the last games of the semantic pass.
    fn games_read<R: Read>(
        &mut self,
        out: &mut Segments,
        name: &str,
        input: &Input<'_>,
        budget: GameBudget<'_>,
        parser: &mut StreamParser<R>,
        clock: &mut Clock,
    ) -> io::Result<Result<(), Error>> {
        let (text, json) = match self.args.format {
            Format::Text => (!self.args.quiet, false),
            Format::Json => (false, true),
        };
        let full = !self.args.structure_only;
        loop {
            let t = Instant::now();
            let Some(next) = parser.next_game() else {
                clock.games += t.elapsed();
                return Ok(Ok(()));
            };
            clock.games += t.elapsed();
            let coll = match next {
                Ok(coll) => coll,
                Err(err) => return Ok(Err(err)),
            };
            if coll.games().next().is_some() {
                // Over the input's budget: the input stops here.
                if let Err(over) = budget.count_game() {
                    return Ok(Err(Error::from(over)));
                }
            }
            let file = &mut self.file;
            file.nodes += coll.node_count() as u64;
            file.dropped += coll.warnings_dropped() as u64;
            let warnings = coll.warnings();
            for w in warnings {
                *file.counts.entry(w.kind.code()).or_default() += 1;
            }
            if json {
                let listed = warnings.len().min(WARNINGS_KEPT - file.warnings.len());
                file.warnings.extend_from_slice(&warnings[..listed]);
                file.unlisted += (warnings.len() - listed) as u64;
            }
            if full {
                let t = Instant::now();
                self.audit.next_input();
                self.audit.read(coll);
                clock.values += t.elapsed();
            }
            let report = self.audit.report();
            let shown = file.value_error_count;
            if full {
                file.value_error_count += report.value_error_count();
                if json {
                    for c in report.charsets() {
                        *file
                            .charsets
                            .entry((c.name(), source_name(c.source())))
                            .or_default() += 1;
                    }
                    let room = VALUE_ERRORS_KEPT.saturating_sub(file.value_errors.len());
                    let errors = report.value_errors();
                    file.value_errors
                        .extend_from_slice(&errors[..errors.len().min(room)]);
                }
            }
            let values = if full { report.value_errors() } else { &[] };
            match &mut self.file.semantic {
                Some(found) => {
                    let mut report = semantic::Report {
                        out: &mut *out,
                        name,
                        input,
                        messages: &mut self.messages,
                        text,
                        json,
                    };
                    clock.semantic += found.collection(&coll, values, shown, &mut report)?;
                }
                None if text => {
                    text::write_game(
                        out,
                        name,
                        input,
                        &coll,
                        warnings,
                        values,
                        shown,
                        &mut self.messages,
                    )?;
                }
                None => {}
            }
        }
    }

    /// Reads an `.sgfs` member line by line: a line the parser stops on
    /// is reported and counted, and the next line is read; an I/O error
    /// ends the member (returned inside).
    fn lines<R: Read>(
        &mut self,
        out: &mut Segments,
        name: &str,
        input: &Input<'_>,
        budget: GameBudget<'_>,
        parser: &mut StreamParser<SgfsLines<R>>,
        clock: &mut Clock,
    ) -> io::Result<Result<(), Error>> {
        loop {
            let t = Instant::now();
            let next = parser.get_mut().next_line();
            clock.games += t.elapsed();
            let at = match next {
                Ok(Some(at)) => at,
                Ok(None) => return Ok(Ok(())),
                Err(err) => return Ok(Err(Error::from(err))),
            };
            let games = parser.games();
            parser.restart_at(at, games);
            match self.games(out, name, input, budget, parser, clock)? {
                Ok(()) => {}
                Err(err) if err.kind() == ErrorKind::Io => return Ok(Err(err)),
                Err(err) => {
                    // This line alone.
                    self.file.line_error_count += 1;
                    match self.args.format {
                        Format::Json if self.file.line_errors.len() < WARNINGS_KEPT => {
                            self.file.line_errors.push(err);
                        }
                        Format::Json => {}
                        // A message like a warning: under --max-messages
                        // and the kind filters, so that a member of millions
                        // of bad lines holds at most that many.
                        Format::Text if self.messages.admit(err.kind().code()) => {
                            out.begin();
                            write_error(out, name, input, &err)?;
                            out.end();
                        }
                        Format::Text => {}
                    }
                }
            }
        }
    }
}

/// Counts and reports a failed input of `bytes` bytes.
fn fail(
    out: &mut impl Write,
    args: &CheckArgs,
    totals: &mut Totals,
    name: &str,
    bytes: u64,
    failure: Failure<'_>,
) -> io::Result<()> {
    totals.failed.push((name.to_owned(), failure.code()));
    super::note_failure();
    match args.format {
        Format::Text => text::write_failure(out, name, &failure),
        Format::Json => json::write_file(out, name, bytes, Err(&failure), !args.structure_only),
    }
}

/// Why an input failed.
enum Failure<'a> {
    /// Before parsing (unreadable, not text, too large, no SGF file in a
    /// folder): a code and a message, no position.
    Plain(&'static str, &'a str),
    /// The parser's error, in this input.
    Parse(&'a Input<'a>, &'a Error),
}

impl Failure<'_> {
    fn code(&self) -> &'static str {
        match self {
            Failure::Plain(code, _) => code,
            Failure::Parse(_, err) => err.kind().code(),
        }
    }
}

/// The facts about one parsed file.
struct FileReport<'a> {
    games: u64,
    /// Set when the file was UTF-16, decoded before parsing.
    decoded_from: Option<Content>,
    /// Whether it was read line by line (`.sgfs`).
    sgfs: bool,
    file: &'a FileState,
}

impl FileReport<'_> {
    /// The warnings of the file as `(code, message, position)`: first the
    /// one about UTF-16, if any, then the first [`WARNINGS_KEPT`] of the parser's.
    fn diagnostics(&self) -> impl Iterator<Item = (&'static str, String, Option<Position>)> + '_ {
        let utf16 = self
            .decoded_from
            .map(|content| (UTF16_CODE, utf16_message(content), None));
        utf16.into_iter().chain(
            self.file
                .warnings
                .iter()
                .map(|w| (w.kind.code(), w.kind.message().to_owned(), Some(w.pos))),
        )
    }
}

/// The running totals over all files.
#[derive(Default)]
struct Totals {
    files: u64,
    games: u64,
    nodes: u64,
    bytes: u64,
    parse_time: Duration,
    value_time: Duration,
    semantic_time: Duration,
    /// Semantic findings per check (by `Check as usize`), with
    /// `--semantic`.
    semantic: [u64; sgf_grove::audit::semantic::Check::COUNT],
    /// Warnings kept, by code.
    warnings: BTreeMap<&'static str, u64>,
    /// Warnings counted but not kept (over the per-file limit); their kind is
    /// unknown.
    dropped: u64,
    /// Failed files, with the code of their error.
    failed: Vec<(String, &'static str)>,
    /// Lines of `.sgfs` files the parser stopped on (each cost only
    /// itself).
    failed_lines: u64,
}

impl Totals {
    /// Adds the counts of `other` (of the inputs after these).
    fn merge(&mut self, other: Totals) {
        self.files += other.files;
        self.games += other.games;
        self.nodes += other.nodes;
        self.bytes += other.bytes;
        self.parse_time += other.parse_time;
        self.value_time += other.value_time;
        self.semantic_time += other.semantic_time;
        for (mine, theirs) in self.semantic.iter_mut().zip(other.semantic) {
            *mine += theirs;
        }
        for (code, n) in other.warnings {
            *self.warnings.entry(code).or_default() += n;
        }
        self.dropped += other.dropped;
        self.failed.extend(other.failed);
        self.failed_lines += other.failed_lines;
    }

    fn add(&mut self, report: &FileReport<'_>) {
        self.games += report.games;
        self.failed_lines += report.file.line_error_count;
        self.nodes += report.file.nodes;
        self.dropped += report.file.dropped;
        if report.decoded_from.is_some() {
            *self.warnings.entry(UTF16_CODE).or_default() += 1;
        }
        for (code, count) in &report.file.counts {
            *self.warnings.entry(code).or_default() += count;
        }
        if let Some(found) = &report.file.semantic {
            for (mine, theirs) in self.semantic.iter_mut().zip(found.counts) {
                *mine += theirs;
            }
        }
    }

    fn warning_count(&self) -> u64 {
        self.warnings.values().sum::<u64>() + self.dropped
    }
}

/// The name of a charset's source, as printed.
fn source_name(source: sgf_grove::text::CharsetSource) -> &'static str {
    use sgf_grove::text::CharsetSource;
    match source {
        CharsetSource::Override => "override",
        CharsetSource::Declared => "declared",
        CharsetSource::Detected => "detected",
    }
}
