//! `sgf check PATH...`: parse files and folders, print every warning and
//! error, then a summary with the totals and the parse throughput.
//!
//! The jobs, one file each:
//!
//! - `walk.rs` expands the paths into a sorted list of inputs (regular
//!   `.sgf` files in folders; anything named explicitly; `-` for standard
//!   input) and the list of what the walk skipped;
//! - this file reads each input ([`Reader::read`]: one reused buffer,
//!   sniffed, capped), parses it one game at a time with one reused
//!   [`Parser`], and, unless `--structure-only`, reads every value of every
//!   game with an [`Audit`]; only parsing is timed for the MB/s figure, the
//!   value pass on its own;
//! - `text.rs` writes the report for people, `json.rs` the JSON Lines (one
//!   object per file, then one summary object; the field names are a stable
//!   interface).
//!
//! An input that is not SGF text (compressed, an archive, binary), that is
//! too large, or in which the parser finds no game fails, like an
//! unreadable one. UTF-16 text is decoded to UTF-8 first, with a warning,
//! and its text read as UTF-8.

mod json;
mod text;
mod walk;

use super::{parse_options, utf16_message, CliError, Status, UTF16_CODE};
use crate::args::{CheckArgs, Format};
use crate::name::display_name;
use crate::read::{Reader, Source};
use sgf_grove::audit::{Audit, Report};
use sgf_grove::input::Content;
use sgf_grove::{Error, Parser, Position, Warning};
use std::collections::BTreeMap;
use std::io::{self, BufWriter, Write};
use std::time::{Duration, Instant};
use walk::EntryKind;

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
    let started = Instant::now();
    let walk = walk::collect(&args.paths);
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(64 * 1024, stdout.lock());
    let mut checker = Checker {
        args,
        parser: Parser::with_options(parse_options(args.strict, args.charset)),
        utf8_parser: None,
        reader: Reader::default(),
        audit: Audit::new().keep_errors(VALUE_ERRORS_KEPT),
        warnings: Vec::new(),
        totals: Totals::default(),
    };
    for entry in &walk.entries {
        let name = display_name(&entry.path);
        let source = match &entry.kind {
            EntryKind::Stdin => Source::Stdin,
            EntryKind::File => Source::Path(&entry.path),
            EntryKind::Failed(code, message) => {
                fail(
                    &mut out,
                    args,
                    &mut checker.totals,
                    &name,
                    0,
                    Failure::Plain(code, message),
                )?;
                continue;
            }
        };
        checker.check(&mut out, &name, source)?;
    }

    let Checker {
        mut totals, audit, ..
    } = checker;
    totals.files = walk.entries.len() as u64;
    let full = !args.structure_only;
    let values = full.then(|| audit.totals());
    match args.format {
        Format::Text => {
            text::write_summary(&mut out, &totals, values, &walk.skipped, started.elapsed())?
        }
        Format::Json => json::write_summary(&mut out, &totals, values, &walk.skipped)?,
    }
    out.flush()?;
    Ok(if totals.failed.is_empty() {
        Status::Ok
    } else {
        Status::Failed
    })
}

/// What `check` keeps from input to input.
struct Checker<'a> {
    args: &'a CheckArgs,
    parser: Parser,
    /// For inputs decoded from UTF-16: their text is UTF-8 now, whatever
    /// their `CA` says. Made on first use.
    utf8_parser: Option<Parser>,
    reader: Reader,
    audit: Audit,
    /// The current file's warnings.
    warnings: Vec<Warning>,
    totals: Totals,
}

impl Checker<'_> {
    /// Reads, parses and reports one input.
    fn check(&mut self, out: &mut impl Write, name: &str, source: Source<'_>) -> io::Result<()> {
        let input = match self.reader.read(source) {
            Ok(input) => input,
            Err(err) => {
                let message = err.to_string();
                let failure = Failure::Plain(err.code(), &message);
                return fail(out, self.args, &mut self.totals, name, 0, failure);
            }
        };
        let full = !self.args.structure_only;
        let parser = match input.decoded_from {
            None => &mut self.parser,
            Some(_) => self.utf8_parser.get_or_insert_with(|| {
                Parser::with_options(parse_options(self.args.strict, Some(encoding_rs::UTF_8)))
            }),
        };

        // One game at a time: the arena stays the size of the largest game
        // instead of growing (and being first touched) with the file.
        let t = Instant::now();
        self.warnings.clear();
        self.audit.next_input();
        let (mut nodes, mut dropped) = (0u64, 0u64);
        let mut value_time = Duration::ZERO;
        let (warnings, audit) = (&mut self.warnings, &mut self.audit);
        let result = parser.parse_each(input.bytes, |coll| {
            nodes += coll.node_count() as u64;
            dropped += coll.warnings_dropped() as u64;
            warnings.extend_from_slice(coll.warnings());
            if full {
                let t = Instant::now();
                audit.read(coll);
                value_time += t.elapsed();
            }
            std::ops::ControlFlow::<()>::Continue(())
        });
        self.totals.parse_time += t.elapsed().saturating_sub(value_time);
        self.totals.value_time += value_time;
        self.totals.bytes += input.bytes.len() as u64;
        let bytes = input.bytes;
        match result.map(|flow| flow.continue_value().unwrap_or(0)) {
            Ok(games) => {
                let report = FileReport {
                    games: games as u64,
                    nodes,
                    decoded_from: input.decoded_from,
                    warnings: &self.warnings,
                    dropped,
                };
                self.totals.add(&report);
                let values = full.then(|| self.audit.report());
                match self.args.format {
                    Format::Text if self.args.quiet => Ok(()),
                    Format::Text => text::write_file(out, name, bytes, &report, values),
                    Format::Json => json::write_file(out, name, bytes.len(), Ok(&report), values),
                }
            }
            Err(err) => {
                let failure = Failure::Parse(bytes, &err);
                fail(out, self.args, &mut self.totals, name, bytes.len(), failure)
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
    bytes: usize,
    failure: Failure<'_>,
) -> io::Result<()> {
    totals.failed.push((name.to_owned(), failure.code()));
    match args.format {
        Format::Text => text::write_failure(out, name, &failure),
        Format::Json => {
            let empty = Report::default();
            let values = (!args.structure_only).then_some(&empty);
            json::write_file(out, name, bytes, Err(&failure), values)
        }
    }
}

/// Why an input failed.
enum Failure<'a> {
    /// Before parsing (unreadable, not text, too large, no SGF file in a
    /// folder): a code and a message, no position.
    Plain(&'static str, &'a str),
    /// The parser's error, in this input.
    Parse(&'a [u8], &'a Error),
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
    nodes: u64,
    /// Set when the file was UTF-16, decoded before parsing.
    decoded_from: Option<Content>,
    warnings: &'a [Warning],
    dropped: u64,
}

impl FileReport<'_> {
    /// The warnings of the file as `(code, message, position)`: first the
    /// one about UTF-16, if any, then the parser's.
    fn diagnostics(&self) -> impl Iterator<Item = (&'static str, String, Option<Position>)> + '_ {
        let utf16 = self
            .decoded_from
            .map(|content| (UTF16_CODE, utf16_message(content), None));
        utf16.into_iter().chain(
            self.warnings
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
    /// Warnings kept, by code.
    warnings: BTreeMap<&'static str, u64>,
    /// Warnings counted but not kept (over the per-file limit); their kind is
    /// unknown.
    dropped: u64,
    /// Failed files, with the code of their error.
    failed: Vec<(String, &'static str)>,
}

impl Totals {
    fn add(&mut self, report: &FileReport<'_>) {
        self.games += report.games;
        self.nodes += report.nodes;
        self.dropped += report.dropped;
        if report.decoded_from.is_some() {
            *self.warnings.entry(UTF16_CODE).or_default() += 1;
        }
        for w in report.warnings {
            *self.warnings.entry(w.kind.code()).or_default() += 1;
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
