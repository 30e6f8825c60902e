//! The report of `sgf check --format json`: JSON Lines, one object per file
//! and a last `{"summary":{…}}` object, each line a `serde` struct. The field
//! names are a stable interface:
//!
//! ```text
//! file:       path bytes games nodes warnings[] warnings_dropped error
//!             (+ line_errors[] for an .sgfs file)
//!             (+ charsets{} value_errors[] value_errors_dropped unless --structure-only)
//!             (+ semantic[] semantic_dropped with --semantic)
//! diagnostic: kind offset line column message      (positions null when there is none)
//! finding:    kind severity node offset line column message   (a semantic finding)
//! summary:    files failed games nodes bytes seconds warnings{} warnings_dropped mode
//!             skipped skipped_paths[{path kind}] skipped_by_reason{} failed_lines
//!             (+ value_seconds charsets{} declared_labels{} value_errors{} unknown_properties{})
//!             (+ semantic_seconds semantic{} with --semantic: findings per code)
//! ```
//!
//! A "file" is an SGF member: a file, a decompressed file, or an archive
//! member (`path` is then `archive!member`). `skipped` counts all that was
//! skipped, the sum of `skipped_by_reason` (`not_sgf`, `unreadable`,
//! `not_regular_file`, `temporary_file`); `skipped_paths` lists what is not
//! a regular file.
//! `line_errors` lists the lines of an `.sgfs` file that the parser
//! stopped on (each cost only itself; `failed_lines` counts them all).
//!
//! Count maps (`warnings`, `charsets`, …) list the largest count first.
//! A file's line lists its first 10,000 warnings; `warnings_dropped` counts
//! the others (the summary's `warnings` counts every warning by kind, its
//! `warnings_dropped` those the parser did not keep, of unknown kind).
//!
//! Memory does not grow with the number of games in a file: a file's
//! `charsets` counts its games by charset (`{"UTF-8/declared": 3,
//! "gb18030/detected": 1}`, the keys of the summary's map) rather than
//! listing each game's, and its lists of diagnostics are capped (the rest
//! counted). A line is built in memory of a bounded size and written whole.

use super::{source_name, Failure, FileReport, FileState, Totals};
use crate::name::origin_name;
use serde::ser::{Serialize, Serializer};
use sgf_grove::audit;
use sgf_grove::input::Skipped;
use sgf_grove::Position;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// One file's line.
#[derive(serde::Serialize)]
struct FileLine<'a> {
    path: &'a str,
    bytes: u64,
    games: u64,
    nodes: u64,
    warnings: Vec<Diagnostic<'a>>,
    warnings_dropped: u64,
    error: Option<Diagnostic<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line_errors: Option<Vec<Diagnostic<'a>>>,
    #[serde(flatten)]
    values: Option<FileValues<'a>>,
    #[serde(flatten)]
    semantic: Option<FileSemantic<'a>>,
}

/// What the semantic pass found in one file.
#[derive(serde::Serialize)]
struct FileSemantic<'a> {
    semantic: Vec<FindingLine<'a>>,
    semantic_dropped: u64,
}

/// One semantic finding.
#[derive(serde::Serialize)]
struct FindingLine<'a> {
    kind: &'static str,
    severity: &'static str,
    node: usize,
    offset: Option<usize>,
    line: Option<u32>,
    column: Option<u32>,
    message: &'a str,
}

/// A warning or an error.
#[derive(serde::Serialize)]
struct Diagnostic<'a> {
    kind: &'a str,
    offset: Option<usize>,
    line: Option<u32>,
    column: Option<u32>,
    message: Cow<'a, str>,
}

impl<'a> Diagnostic<'a> {
    fn new(kind: &'a str, pos: Option<Position>, message: impl Into<Cow<'a, str>>) -> Self {
        Diagnostic {
            kind,
            offset: pos.map(|p| p.offset),
            line: pos.map(|p| p.line),
            column: pos.map(|p| p.column),
            message: message.into(),
        }
    }
}

/// What the value pass found in one file.
#[derive(serde::Serialize)]
struct FileValues<'a> {
    charsets: Counts<String>,
    value_errors: Vec<ValueErrorLine<'a>>,
    value_errors_dropped: u64,
}

/// One malformed value.
#[derive(serde::Serialize)]
struct ValueErrorLine<'a> {
    ident: &'a str,
    offset: usize,
    line: u32,
    column: u32,
    message: String,
}

/// Writes the JSON line of one file of `bytes` bytes; `full` unless
/// `--structure-only` (with the file's charsets and malformed values).
pub(super) fn write_file(
    out: &mut impl Write,
    name: &str,
    bytes: u64,
    result: Result<&FileReport<'_>, &Failure<'_>>,
    full: bool,
) -> io::Result<()> {
    let line_errors = match result {
        Ok(report) if report.sgfs => Some(
            report
                .file
                .line_errors
                .iter()
                .map(|err| {
                    Diagnostic::new(
                        err.kind().code(),
                        Some(err.position()),
                        err.kind().to_string(),
                    )
                })
                .collect(),
        ),
        _ => None,
    };
    let (games, nodes, warnings, warnings_dropped, error) = match result {
        Ok(report) => (
            report.games,
            report.file.nodes,
            report
                .diagnostics()
                .map(|(code, message, pos)| Diagnostic::new(code, pos, message))
                .collect(),
            report.file.dropped + report.file.unlisted,
            None,
        ),
        Err(failure) => (0, 0, Vec::new(), 0, Some(failure_diagnostic(failure))),
    };
    let values = full.then(|| match result {
        Ok(report) => file_values(report.file),
        Err(_) => FileValues {
            charsets: Counts(Vec::new()),
            value_errors: Vec::new(),
            value_errors_dropped: 0,
        },
    });
    let semantic = match result {
        Ok(report) => report.file.semantic.as_ref().map(|found| FileSemantic {
            semantic: found
                .kept
                .iter()
                .map(|f| FindingLine {
                    kind: f.check().code(),
                    severity: f.severity().name(),
                    node: f.key(),
                    offset: f.position().map(|p| p.offset),
                    line: f.position().map(|p| p.line),
                    column: f.position().map(|p| p.column),
                    message: f.message(),
                })
                .collect(),
            semantic_dropped: found.total() - found.kept.len() as u64,
        }),
        Err(_) => None,
    };
    let line = FileLine {
        path: name,
        bytes,
        games,
        nodes,
        warnings,
        warnings_dropped,
        error,
        line_errors,
        values,
        semantic,
    };
    write_line(out, &line)
}

fn failure_diagnostic<'a>(failure: &Failure<'a>) -> Diagnostic<'a> {
    match *failure {
        Failure::Plain(code, message) => Diagnostic::new(code, None, message),
        Failure::Parse(_, err) => Diagnostic::new(
            err.kind().code(),
            Some(err.position()),
            err.kind().to_string(),
        ),
    }
}

fn file_values(file: &FileState) -> FileValues<'_> {
    FileValues {
        charsets: {
            let mut counts: Vec<(String, u64)> = file
                .charsets
                .iter()
                .map(|(&(name, source), &n)| (format!("{name}/{source}"), n))
                .collect();
            // The largest count first, then by name.
            counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            Counts(counts)
        },
        value_errors: file
            .value_errors
            .iter()
            .map(|e| {
                let p = e.error().position();
                ValueErrorLine {
                    ident: e.ident(),
                    offset: p.offset,
                    line: p.line,
                    column: p.column,
                    message: e.message(),
                }
            })
            .collect(),
        value_errors_dropped: file.value_error_count - file.value_errors.len() as u64,
    }
}

/// The last line.
#[derive(serde::Serialize)]
struct SummaryLine<'a> {
    summary: Summary<'a>,
}

#[derive(serde::Serialize)]
struct Summary<'a> {
    files: u64,
    failed: usize,
    games: u64,
    nodes: u64,
    bytes: u64,
    seconds: f64,
    warnings: &'a BTreeMap<&'static str, u64>,
    warnings_dropped: u64,
    mode: &'static str,
    skipped: u64,
    skipped_paths: Vec<SkippedLine>,
    skipped_by_reason: BTreeMap<&'static str, u64>,
    failed_lines: u64,
    #[serde(flatten)]
    values: Option<SummaryValues<'a>>,
    #[serde(flatten)]
    semantic: Option<SummarySemantic>,
}

/// The semantic pass's part of the summary.
#[derive(serde::Serialize)]
struct SummarySemantic {
    semantic_seconds: f64,
    semantic: Counts<&'static str>,
}

/// Something the scan skipped that is not a regular file.
#[derive(serde::Serialize)]
struct SkippedLine {
    path: String,
    kind: &'static str,
}

/// The value pass's part of the summary.
#[derive(serde::Serialize)]
struct SummaryValues<'a> {
    value_seconds: f64,
    charsets: Counts<String>,
    declared_labels: Counts<&'a str>,
    value_errors: Counts<&'a str>,
    unknown_properties: Counts<&'a str>,
}

/// `{"key": count, …}` in the order given.
struct Counts<K>(Vec<(K, u64)>);

impl<K: Serialize> Serialize for Counts<K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(k, n)| (k, n)))
    }
}

/// Writes the last JSON line, `{"summary":{…}}`; `values` is `None` with
/// `--structure-only`.
pub(super) fn write_summary(
    out: &mut impl Write,
    totals: &Totals,
    values: Option<&audit::Totals>,
    skipped: &Skipped,
    semantic: bool,
) -> io::Result<()> {
    let summary = Summary {
        files: totals.files,
        failed: totals.failed.len(),
        games: totals.games,
        nodes: totals.nodes,
        bytes: totals.bytes,
        seconds: totals.parse_time.as_secs_f64(),
        warnings: &totals.warnings,
        warnings_dropped: totals.dropped,
        mode: if values.is_some() {
            "full"
        } else {
            "structure"
        },
        skipped: skipped.total(),
        skipped_paths: skipped
            .listed()
            .iter()
            .map(|s| SkippedLine {
                path: origin_name(&s.origin),
                kind: s.kind.description(),
            })
            .collect(),
        skipped_by_reason: skipped.counts().map(|(r, n)| (r.code(), n)).collect(),
        failed_lines: totals.failed_lines,
        values: values.map(|v| SummaryValues {
            value_seconds: totals.value_time.as_secs_f64(),
            charsets: Counts(
                v.charsets()
                    .into_iter()
                    .map(|t| (format!("{}/{}", t.name, source_name(t.source)), t.games))
                    .collect(),
            ),
            declared_labels: Counts(v.declared_labels()),
            value_errors: Counts(v.value_errors()),
            unknown_properties: Counts(v.unknown_properties()),
        }),
        semantic: semantic.then(|| {
            let mut counts: Vec<(&'static str, u64)> = sgf_grove::audit::semantic::Check::ALL
                .into_iter()
                .map(|c| (c.code(), totals.semantic[c as usize]))
                .filter(|&(_, n)| n > 0)
                .collect();
            // The largest count first, then by code.
            counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
            SummarySemantic {
                semantic_seconds: totals.semantic_time.as_secs_f64(),
                semantic: Counts(counts),
            }
        }),
    };
    write_line(out, &SummaryLine { summary })
}

/// Writes `value` as one line of JSON.
fn write_line(out: &mut impl Write, value: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value).map_err(io::Error::from)?;
    out.write_all(b"\n")
}
