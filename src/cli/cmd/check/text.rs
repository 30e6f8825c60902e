//! The report of `sgf check` for people: compiler-style diagnostics with
//! the line and a caret, written game by game as the input is read, then a
//! summary.

use super::segments::Segments;
use super::{source_name, Failure, FileReport, Totals};
use crate::cmd::{
    printable, utf16_message, write_dropped_note, write_error, write_headline,
    write_original_snippet, write_stream_snippet, UTF16_CODE,
};
use crate::name::origin_name;
use crate::read::Input;
use sgf_grove::input::{Content, SkipReason, Skipped, Special};
use sgf_grove::table::thousands;
use sgf_grove::{audit, Collection, Warning, WarningKind};
use std::io::{self, Write};
use std::time::Duration;

/// How many malformed values of a file the text output shows.
const VALUE_ERRORS_SHOWN: usize = 5;

/// How many unknown properties the summary lists.
const UNKNOWN_SHOWN: usize = 20;

/// Writes why an input failed: `name: error[code]: message`, or a parse
/// error with its line and caret.
pub(super) fn write_failure(
    out: &mut impl Write,
    name: &str,
    failure: &Failure<'_>,
) -> io::Result<()> {
    match failure {
        Failure::Plain(code, message) => writeln!(out, "{name}: error[{code}]: {message}"),
        Failure::Parse(input, err) => write_error(out, name, input, err),
    }
}

/// Writes that the file was UTF-16, decoded before parsing.
pub(super) fn write_utf16_note(
    out: &mut impl Write,
    name: &str,
    content: Content,
) -> io::Result<()> {
    writeln!(
        out,
        "{name}: warning[{UTF16_CODE}]: {}",
        utf16_message(content)
    )
}

/// Writes the warnings of one game of a file as it is read (those kept),
/// each with its line and caret, and its malformed values (`values`) while
/// fewer than [`VALUE_ERRORS_SHOWN`] of the file were shown (`shown`, the
/// file's malformed values before this game).
#[allow(clippy::too_many_arguments)]
pub(super) fn write_game(
    out: &mut Segments,
    name: &str,
    input: &Input<'_>,
    coll: &Collection<'_, '_>,
    warnings: &[Warning],
    values: &[audit::ValueError],
    shown: u64,
    filter: &mut Messages,
) -> io::Result<()> {
    let (window, base) = (coll.input(), coll.stream_offset(0));
    for w in warnings {
        if !filter.admit(w.kind.code()) {
            continue;
        }
        out.begin();
        write_headline(out, name, "warning", w.kind.code(), w.kind.message(), w.pos)?;
        if w.kind.is_foreign() {
            // Placed in the original record, not in the SGF it became.
            write_original_snippet(out, input, w.pos)?;
        } else {
            write_stream_snippet(out, input, window, base, w.pos)?;
        }
        if w.kind == WarningKind::UncertainCharset {
            write_charset_note(out, name, coll, w.pos.offset.saturating_sub(base))?;
        }
        out.end();
    }
    let room = VALUE_ERRORS_SHOWN.saturating_sub(usize::try_from(shown).unwrap_or(usize::MAX));
    for value_error in values.iter().take(room) {
        let err = value_error.error();
        if !filter.admit(err.kind().code()) {
            continue;
        }
        out.begin();
        write_headline(
            out,
            name,
            "warning",
            err.kind().code(),
            &value_error.message(),
            err.position(),
        )?;
        write_stream_snippet(out, input, window, base, err.position())?;
        out.end();
    }
    Ok(())
}

/// Writes what detection weighed for the game at `offset` of `coll`'s
/// input (an `uncertain_charset` warning's), and that `--charset` settles
/// it: `name: note: read as GBK (score 4.2 a character) rather than
/// EUC-KR (3.9); if its text reads wrong, name the charset with
/// --charset LABEL (e.g. --charset EUC-KR)`.
fn write_charset_note(
    out: &mut impl Write,
    name: &str,
    coll: &Collection<'_, '_>,
    offset: usize,
) -> io::Result<()> {
    let Some(game) = coll
        .games()
        .find(|g| g.span().start <= offset && offset < g.span().end.max(offset + 1))
    else {
        return Ok(());
    };
    let charset = game.charset();
    let weighed = match charset.weighed() {
        Some((runner_up, score, runner_score)) => format!(
            "read as {} (score {score:.1} a character) rather than {} ({runner_score:.1})",
            charset.name(),
            runner_up.name()
        ),
        None => format!("read as {}", charset.name()),
    };
    writeln!(
        out,
        "{name}: note: {weighed}; if its text reads wrong, name the charset with --charset LABEL \
         (e.g. --charset {})",
        charset
            .weighed()
            .map_or(charset.name(), |(runner_up, _, _)| runner_up.name())
    )
}

/// Writes the notes that end a parsed file's report: how many warnings
/// were not kept, how many malformed values not shown (`full`: unless
/// `--structure-only`).
pub(super) fn write_file_end(
    out: &mut impl Write,
    name: &str,
    report: &FileReport<'_>,
    full: bool,
) -> io::Result<()> {
    write_dropped_note(out, name, report.file.dropped as usize)?;
    let more = report
        .file
        .value_error_count
        .saturating_sub(VALUE_ERRORS_SHOWN as u64);
    if full && more > 0 {
        writeln!(out, "{name}: note: {more} more malformed values not shown")?;
    }
    Ok(())
}

/// Which warnings and malformed values are printed: `--warn-kind`,
/// `--ignore-kind`, `--max-messages`; what is left out is counted for the
/// summary.
///
/// A worker's filter ([`Messages::admit`]) takes a member's messages of
/// the kinds wanted, at most `max` of them (no member can print more);
/// the printing thread's ([`Messages::pass`]) lets through the first
/// `max` over all members, in their order. [`Messages::absorb`] adds a
/// worker's counts to the printing thread's.
#[derive(Debug, Default)]
pub(super) struct Messages {
    only: Vec<String>,
    ignore: Vec<String>,
    max: u64,
    printed: u64,
    /// Left out by kind.
    filtered: u64,
    /// Left out over the maximum.
    over: u64,
}

impl Messages {
    pub(super) fn new(only: &[String], ignore: &[String], max: u64) -> Messages {
        Messages {
            only: only.to_vec(),
            ignore: ignore.to_vec(),
            max,
            ..Messages::default()
        }
    }

    /// Starts a member: its own count of messages taken.
    pub(super) fn next_member(&mut self) {
        self.printed = 0;
    }

    /// Whether to take a message of kind `code` into the member's report;
    /// counts it either way.
    pub(super) fn admit(&mut self, code: &str) -> bool {
        let wanted = (self.only.is_empty() || self.only.iter().any(|c| c == code))
            && !self.ignore.iter().any(|c| c == code);
        if !wanted {
            self.filtered += 1;
            return false;
        }
        if self.printed >= self.max {
            self.over += 1;
            return false;
        }
        self.printed += 1;
        true
    }

    /// Whether a message taken by a worker is printed: while fewer than
    /// `max` were.
    pub(super) fn pass(&mut self) -> bool {
        if self.printed >= self.max {
            self.over += 1;
            return false;
        }
        self.printed += 1;
        true
    }

    /// Adds what a worker's filter left out.
    pub(super) fn absorb(&mut self, worker: &Messages) {
        self.filtered += worker.filtered;
        self.over += worker.over;
    }

    /// The summary line, when something was left out.
    pub(super) fn write_note(&self, out: &mut impl Write) -> io::Result<()> {
        if self.filtered + self.over == 0 {
            return Ok(());
        }
        let mut why = Vec::new();
        if self.filtered > 0 {
            why.push(format!(
                "{} by kind (--warn-kind, --ignore-kind)",
                thousands(self.filtered)
            ));
        }
        if self.over > 0 {
            why.push(format!(
                "{} over --max-messages {}",
                thousands(self.over),
                self.max
            ));
        }
        writeln!(
            out,
            "messages: {} printed, not printed: {}",
            thousands(self.printed),
            why.join(", ")
        )
    }
}

/// Megabytes per second.
fn mbps(bytes: u64, secs: f64) -> f64 {
    if secs > 0.0 {
        bytes as f64 / secs / 1e6
    } else {
        0.0
    }
}

/// Writes the summary; `values` is `None` with `--structure-only`.
pub(super) fn write_summary(
    out: &mut impl Write,
    totals: &Totals,
    values: Option<&audit::Totals>,
    skipped: &Skipped,
    wall: Duration,
) -> io::Result<()> {
    let secs = totals.parse_time.as_secs_f64();
    let mbps_parse = mbps(totals.bytes, secs);
    writeln!(out)?;
    writeln!(
        out,
        "files:    {} ({} ok, {} failed)",
        thousands(totals.files),
        thousands(totals.files - totals.failed.len() as u64),
        thousands(totals.failed.len())
    )?;
    write_skipped(out, skipped)?;
    writeln!(out, "games:    {}", thousands(totals.games))?;
    writeln!(out, "nodes:    {}", thousands(totals.nodes))?;
    writeln!(
        out,
        "bytes:    {} ({:.1} MB)",
        thousands(totals.bytes),
        totals.bytes as f64 / 1e6
    )?;
    if values.is_some() && !totals.semantic_time.is_zero() {
        let value_secs = totals.value_time.as_secs_f64();
        let semantic_secs = totals.semantic_time.as_secs_f64();
        writeln!(
            out,
            "time:     {secs:.3} s parsing ({mbps_parse:.1} MB/s) + {value_secs:.3} s reading values \
             + {semantic_secs:.3} s semantic = {:.1} MB/s full check, {:.3} s in all",
            mbps(totals.bytes, secs + value_secs + semantic_secs),
            wall.as_secs_f64()
        )?;
    } else if values.is_some() {
        let value_secs = totals.value_time.as_secs_f64();
        writeln!(
            out,
            "time:     {secs:.3} s parsing ({mbps_parse:.1} MB/s) + {value_secs:.3} s reading values \
             = {:.1} MB/s full check, {:.3} s in all",
            mbps(totals.bytes, secs + value_secs),
            wall.as_secs_f64()
        )?;
    } else {
        writeln!(
            out,
            "time:     {secs:.3} s parsing ({mbps_parse:.1} MB/s, structure only), {:.3} s in all",
            wall.as_secs_f64()
        )?;
    }
    writeln!(out, "warnings: {}", thousands(totals.warning_count()))?;
    for (code, n) in &totals.warnings {
        writeln!(out, "  {code}: {}", thousands(*n))?;
    }
    if totals.dropped > 0 {
        writeln!(
            out,
            "  (not kept over the per-file limit, kind unknown): {}",
            thousands(totals.dropped)
        )?;
    }
    if let Some(values) = values {
        write_values(out, values)?;
    }
    if !totals.failed.is_empty() {
        writeln!(out, "failed:   {}", thousands(totals.failed.len()))?;
        for (name, code) in &totals.failed {
            writeln!(out, "  {name} ({code})")?;
        }
    }
    if totals.failed_lines > 0 {
        writeln!(
            out,
            "bad lines: {} (of .sgfs files: each cost only itself)",
            thousands(totals.failed_lines)
        )?;
    }
    Ok(())
}

/// Writes what the scan skipped: what is not a regular file, listed, then
/// a count for each other reason.
fn write_skipped(out: &mut impl Write, skipped: &Skipped) -> io::Result<()> {
    let special = skipped.count(SkipReason::NotRegular);
    if special > 0 {
        writeln!(out, "skipped:  {} not regular files", thousands(special))?;
        for item in skipped.listed() {
            if item.kind != Special::Temporary {
                writeln!(out, "  {} ({})", origin_name(&item.origin), item.kind)?;
            }
        }
        let listed = skipped
            .listed()
            .iter()
            .filter(|i| i.kind != Special::Temporary)
            .count();
        let unlisted = special.saturating_sub(listed as u64);
        if unlisted > 0 {
            writeln!(out, "  ({} more not listed)", thousands(unlisted))?;
        }
    }
    for (reason, n) in skipped.counts() {
        if reason != SkipReason::NotRegular && n > 0 {
            writeln!(out, "skipped:  {} {reason}", thousands(n))?;
        }
        if reason == SkipReason::Temporary {
            for item in skipped.listed() {
                if item.kind == Special::Temporary {
                    writeln!(out, "  {} ({})", origin_name(&item.origin), item.kind)?;
                }
            }
        }
    }
    Ok(())
}

/// Writes the value pass's part of the summary.
fn write_values(out: &mut impl Write, values: &audit::Totals) -> io::Result<()> {
    writeln!(out, "charsets: {} games", thousands(values.games()))?;
    for tally in values.charsets() {
        let (name, source) = (tally.name, source_name(tally.source));
        if source == "detected" {
            writeln!(
                out,
                "  {name} {source} (mean confidence {:.2}): {}",
                tally.mean_confidence(),
                thousands(tally.games)
            )?;
        } else {
            writeln!(out, "  {name} {source}: {}", thousands(tally.games))?;
        }
    }
    writeln!(
        out,
        "declared: {} games with CA",
        thousands(values.declared_count())
    )?;
    for (label, count) in values.declared_labels() {
        writeln!(
            out,
            "  CA[{}]: {}",
            printable(label.as_bytes()),
            thousands(count)
        )?;
    }
    writeln!(
        out,
        "value errors: {}",
        thousands(values.value_error_count())
    )?;
    for (ident, count) in values.value_errors() {
        writeln!(out, "  {ident}: {}", thousands(count))?;
    }
    let ranked = values.unknown_properties();
    writeln!(
        out,
        "unknown properties: {} ({} identifiers)",
        thousands(values.unknown_count()),
        thousands(ranked.len())
    )?;
    for (ident, count) in ranked.iter().take(UNKNOWN_SHOWN) {
        writeln!(out, "  {ident}: {}", thousands(*count))?;
    }
    if ranked.len() > UNKNOWN_SHOWN {
        writeln!(
            out,
            "  ({} more identifiers)",
            thousands(ranked.len() - UNKNOWN_SHOWN)
        )?;
    }
    Ok(())
}
