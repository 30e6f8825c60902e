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
use super::text::Messages;
use crate::cmd::{write_headline, write_stream_snippet, CliError, Status, WARNINGS_KEPT};
use crate::read::Input;
use sgf_grove::audit::semantic::{Check, Finding, Findings, Semantic};
use sgf_grove::table::thousands;
use sgf_grove::Collection;
use std::io::{self, Write};

/// What the semantic pass found in one file: a count per check and the
/// first [`WARNINGS_KEPT`] findings (for the JSON output).
#[derive(Debug)]
pub(super) struct FileFindings {
    pub(super) pass: Semantic,
    pub(super) counts: [u64; Check::COUNT],
    pub(super) kept: Vec<Finding>,
}

impl FileFindings {
    pub(super) fn new() -> FileFindings {
        FileFindings {
            // A game keeps as many as a file lists.
            pass: Semantic::new().keep(WARNINGS_KEPT),
            counts: [0; Check::COUNT],
            kept: Vec::new(),
        }
    }

    pub(super) fn clear(&mut self) {
        self.counts = [0; Check::COUNT];
        self.kept.clear();
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
