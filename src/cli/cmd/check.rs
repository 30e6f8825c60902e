//! `sgf check PATH...`: parse files and folders, print every warning and
//! error, then a summary with the totals and the parse throughput.
//!
//! The paths are expanded first (folders walked recursively for `*.sgf` in any
//! letter case; symbolic links to folders are not followed) and sorted, so the
//! output is the same from run to run. Then each file is read into one reused
//! buffer and parsed by one reused [`Parser`], so that a warm run allocates
//! almost nothing per file and the time goes to reading and parsing. Only
//! [`Parser::parse`] is timed for the MB/s figure.
//!
//! With `--format json` the output is JSON Lines: one object per file, then
//! one summary object. The field names are a stable interface.

use super::{write_dropped_note, write_error, write_headline, write_snippet, CliError, Status};
use crate::args::{CheckArgs, Format};
use sgf_grove::{Error, ParseOptions, Parser, Position, Warning};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Runs `sgf check`.
///
/// # Errors
///
/// A failed write to standard output. Unreadable files are not errors here:
/// they count as failed files.
pub fn run(args: &CheckArgs) -> Result<Status, CliError> {
    let started = Instant::now();
    let entries = collect(&args.paths);
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(64 * 1024, stdout.lock());
    let mut parser = Parser::with_options(ParseOptions::new().strict(args.strict));
    let mut buf = ReadBuffer::default();
    let mut totals = Totals::default();

    for entry in &entries {
        let name = entry.path.to_string_lossy();
        let read = match &entry.walk_error {
            Some(err) => Err(err.to_string()),
            None => buf.read_file(&entry.path).map_err(|err| err.to_string()),
        };
        let input = match read {
            Ok(input) => input,
            Err(message) => {
                totals.failed.push((name.to_string(), "io"));
                match args.format {
                    Format::Text => writeln!(out, "{name}: error[io]: {message}")?,
                    Format::Json => {
                        write_json_file(&mut out, &name, 0, Err(JsonError::Io(&message)))?
                    }
                }
                continue;
            }
        };

        let t = Instant::now();
        let result = parser.parse(input);
        totals.parse_time += t.elapsed();
        totals.bytes += input.len() as u64;
        match result {
            Ok(coll) => {
                let report = FileReport {
                    games: coll.len() as u64,
                    nodes: coll.node_count() as u64,
                    warnings: coll.warnings(),
                    dropped: coll.warnings_dropped() as u64,
                };
                totals.add(&report);
                match args.format {
                    Format::Text if args.quiet => {}
                    Format::Text => write_text_warnings(&mut out, &name, input, &report)?,
                    Format::Json => write_json_file(&mut out, &name, input.len(), Ok(&report))?,
                }
            }
            Err(err) => {
                totals.failed.push((name.to_string(), err.kind().code()));
                match args.format {
                    Format::Text => write_error(&mut out, &name, input, &err)?,
                    Format::Json => {
                        write_json_file(&mut out, &name, input.len(), Err(JsonError::Parse(&err)))?
                    }
                }
            }
        }
    }

    totals.files = entries.len() as u64;
    match args.format {
        Format::Text => write_text_summary(&mut out, &totals, started.elapsed())?,
        Format::Json => write_json_summary(&mut out, &totals)?,
    }
    out.flush()?;
    Ok(if totals.failed.is_empty() {
        Status::Ok
    } else {
        Status::Failed
    })
}

/// One input to check: a file path, or a folder that could not be walked.
struct Entry {
    path: PathBuf,
    walk_error: Option<io::Error>,
}

/// Expands `paths` into the sorted list of files to check. Paths named
/// explicitly are kept whatever their extension; folders contribute their
/// `*.sgf` files, recursively. A path that cannot be inspected becomes an
/// entry with its error, reported as a failed file.
fn collect(paths: &[PathBuf]) -> Vec<Entry> {
    let mut entries = Vec::new();
    let mut folders = Vec::new();
    for path in paths {
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => folders.push(path.clone()),
            Ok(_) => entries.push(Entry {
                path: path.clone(),
                walk_error: None,
            }),
            Err(err) => entries.push(Entry {
                path: path.clone(),
                walk_error: Some(err),
            }),
        }
    }
    // Walk with an explicit stack: folder depth is unbounded.
    while let Some(folder) = folders.pop() {
        let dir = match std::fs::read_dir(&folder) {
            Ok(dir) => dir,
            Err(err) => {
                entries.push(Entry {
                    path: folder,
                    walk_error: Some(err),
                });
                continue;
            }
        };
        for item in dir {
            let item = match item {
                Ok(item) => item,
                Err(err) => {
                    entries.push(Entry {
                        path: folder.clone(),
                        walk_error: Some(err),
                    });
                    break;
                }
            };
            let path = item.path();
            let is_dir = match item.file_type() {
                // Links to folders are not followed (no cycles); links to
                // files are.
                Ok(t) if t.is_symlink() => {
                    if std::fs::metadata(&path).is_ok_and(|m| m.is_dir()) {
                        continue;
                    }
                    false
                }
                Ok(t) => t.is_dir(),
                Err(err) => {
                    entries.push(Entry {
                        path,
                        walk_error: Some(err),
                    });
                    continue;
                }
            };
            if is_dir {
                folders.push(path);
            } else if has_sgf_extension(&path) {
                entries.push(Entry {
                    path,
                    walk_error: None,
                });
            }
        }
    }
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    entries.dedup_by(|a, b| a.path == b.path);
    entries
}

/// Whether the file name ends in `.sgf`, in any letter case.
fn has_sgf_extension(path: &Path) -> bool {
    path.extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("sgf"))
}

/// One read buffer for every file. Its bytes stay allocated and initialised
/// between files, and a file is read with plain `read` calls into them: unlike
/// `File::read_to_end`, this asks for no `statx` and `lseek` per file, which on
/// a folder of small files is a fifth of the system time.
#[derive(Default)]
struct ReadBuffer {
    bytes: Vec<u8>,
}

impl ReadBuffer {
    /// Reads the whole file at `path`; the bytes live until the next read.
    fn read_file(&mut self, path: &Path) -> io::Result<&[u8]> {
        let mut file = File::open(path)?;
        let mut len = 0;
        loop {
            if len == self.bytes.len() {
                let grown = (self.bytes.len() * 2).max(64 * 1024);
                self.bytes.resize(grown, 0);
            }
            match file.read(&mut self.bytes[len..]) {
                Ok(0) => break,
                Ok(n) => len += n,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => return Err(err),
            }
        }
        Ok(&self.bytes[..len])
    }
}

/// The facts about one parsed file.
struct FileReport<'a> {
    games: u64,
    nodes: u64,
    warnings: &'a [Warning],
    dropped: u64,
}

/// The running totals over all files.
#[derive(Default)]
struct Totals {
    files: u64,
    games: u64,
    nodes: u64,
    bytes: u64,
    parse_time: Duration,
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
        for w in report.warnings {
            *self.warnings.entry(w.kind.code()).or_default() += 1;
        }
    }

    fn warning_count(&self) -> u64 {
        self.warnings.values().sum::<u64>() + self.dropped
    }
}

/// Writes each warning with its line and caret.
fn write_text_warnings(
    out: &mut impl Write,
    name: &str,
    input: &[u8],
    report: &FileReport<'_>,
) -> io::Result<()> {
    for w in report.warnings {
        write_headline(out, name, "warning", w.kind.code(), w.kind.message(), w.pos)?;
        write_snippet(out, input, w.pos)?;
    }
    write_dropped_note(out, name, report.dropped as usize)
}

/// Writes the human-readable summary.
fn write_text_summary(out: &mut impl Write, totals: &Totals, wall: Duration) -> io::Result<()> {
    let secs = totals.parse_time.as_secs_f64();
    let mbps = if secs > 0.0 {
        totals.bytes as f64 / secs / 1e6
    } else {
        0.0
    };
    writeln!(out)?;
    writeln!(
        out,
        "files:    {} ({} ok, {} failed)",
        totals.files,
        totals.files - totals.failed.len() as u64,
        totals.failed.len()
    )?;
    writeln!(out, "games:    {}", totals.games)?;
    writeln!(out, "nodes:    {}", totals.nodes)?;
    writeln!(
        out,
        "bytes:    {} ({:.1} MB)",
        totals.bytes,
        totals.bytes as f64 / 1e6
    )?;
    writeln!(
        out,
        "time:     {secs:.3} s parsing ({mbps:.1} MB/s), {:.3} s in all",
        wall.as_secs_f64()
    )?;
    writeln!(out, "warnings: {}", totals.warning_count())?;
    for (code, count) in &totals.warnings {
        writeln!(out, "  {code}: {count}")?;
    }
    if totals.dropped > 0 {
        writeln!(
            out,
            "  (not kept over the per-file limit, kind unknown): {}",
            totals.dropped
        )?;
    }
    if !totals.failed.is_empty() {
        writeln!(out, "failed:   {}", totals.failed.len())?;
        for (name, code) in &totals.failed {
            writeln!(out, "  {name} ({code})")?;
        }
    }
    Ok(())
}

/// The error of a failed file, for the JSON output.
enum JsonError<'a> {
    Io(&'a str),
    Parse(&'a Error),
}

/// Writes `value` as a JSON string (quoted and escaped).
fn json_str(out: &mut impl Write, value: &str) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value).map_err(io::Error::from)
}

/// Writes `{"kind":…,"offset":…,"line":…,"column":…,"message":…}`; the
/// position fields are `null` when there is none (an I/O error).
fn json_diagnostic(
    out: &mut impl Write,
    kind: &str,
    pos: Option<Position>,
    message: &str,
) -> io::Result<()> {
    out.write_all(b"{\"kind\":")?;
    json_str(out, kind)?;
    match pos {
        Some(p) => write!(
            out,
            ",\"offset\":{},\"line\":{},\"column\":{}",
            p.offset, p.line, p.column
        )?,
        None => out.write_all(b",\"offset\":null,\"line\":null,\"column\":null")?,
    }
    out.write_all(b",\"message\":")?;
    json_str(out, message)?;
    out.write_all(b"}")
}

/// Writes the JSON line of one file.
fn write_json_file(
    out: &mut impl Write,
    name: &str,
    bytes: usize,
    result: Result<&FileReport<'_>, JsonError<'_>>,
) -> io::Result<()> {
    out.write_all(b"{\"path\":")?;
    json_str(out, name)?;
    let (games, nodes) = match &result {
        Ok(r) => (r.games, r.nodes),
        Err(_) => (0, 0),
    };
    write!(
        out,
        ",\"bytes\":{bytes},\"games\":{games},\"nodes\":{nodes}"
    )?;
    out.write_all(b",\"warnings\":[")?;
    if let Ok(report) = &result {
        for (i, w) in report.warnings.iter().enumerate() {
            if i > 0 {
                out.write_all(b",")?;
            }
            json_diagnostic(out, w.kind.code(), Some(w.pos), w.kind.message())?;
        }
    }
    let dropped = result.as_ref().map_or(0, |r| r.dropped);
    write!(out, "],\"warnings_dropped\":{dropped},\"error\":")?;
    match result {
        Ok(_) => out.write_all(b"null")?,
        Err(JsonError::Io(message)) => json_diagnostic(out, "io", None, message)?,
        Err(JsonError::Parse(err)) => json_diagnostic(
            out,
            err.kind().code(),
            Some(err.position()),
            &err.kind().to_string(),
        )?,
    }
    out.write_all(b"}\n")
}

/// Writes the last JSON line, `{"summary":{…}}`.
fn write_json_summary(out: &mut impl Write, totals: &Totals) -> io::Result<()> {
    write!(
        out,
        "{{\"summary\":{{\"files\":{},\"failed\":{},\"games\":{},\"nodes\":{},\"bytes\":{},\"seconds\":",
        totals.files,
        totals.failed.len(),
        totals.games,
        totals.nodes,
        totals.bytes
    )?;
    serde_json::to_writer(&mut *out, &totals.parse_time.as_secs_f64()).map_err(io::Error::from)?;
    out.write_all(b",\"warnings\":{")?;
    for (i, (code, count)) in totals.warnings.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        json_str(out, code)?;
        write!(out, ":{count}")?;
    }
    writeln!(out, "}},\"warnings_dropped\":{}}}}}", totals.dropped)
}
