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
//! Then, unless `--structure-only`, a second pass over each parsed file
//! checks every value of every property of every node against its type
//! ([`Property::validate`](sgf_grove::Property::validate)) and finds
//! each game's charset ([`GameTree::charset`]). It reports malformed values
//! as warnings (`warning[invalid_value]`: they never fail a file), counts
//! them by property, counts unknown (private) properties, and counts games
//! by charset and by the `CA` label they declare. It is timed on its own.
//!
//! With `--format json` the output is JSON Lines: one object per file, then
//! one summary object. The field names are a stable interface.

use super::{
    parse_options, printable, value_error_message, write_dropped_note, write_error, write_headline,
    write_snippet, CliError, Status,
};
use crate::args::{CheckArgs, Format};
use sgf_grove::text::{Charset, CharsetSource};
use sgf_grove::{Collection, Error, GameTree, Parser, Position, Warning};
use std::collections::{BTreeMap, HashMap};
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
    let mut parser = Parser::with_options(parse_options(args.strict, args.charset));
    let mut buf = ReadBuffer::default();
    let mut totals = Totals::default();
    let full = !args.structure_only;
    let mut values = ValueReport::default();
    let mut warnings: Vec<sgf_grove::Warning> = Vec::new();

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
                    Format::Json => write_json_file(
                        &mut out,
                        &name,
                        0,
                        Err(JsonError::Io(&message)),
                        full.then_some(&ValueReport::default()),
                    )?,
                }
                continue;
            }
        };

        // One game at a time: the arena stays the size of the largest game
        // instead of growing (and being first touched) with the file.
        let t = Instant::now();
        warnings.clear();
        values.clear();
        let (mut nodes, mut dropped) = (0u64, 0u64);
        let mut value_time = Duration::ZERO;
        let result = parser.parse_each(input, |coll| {
            nodes += coll.node_count() as u64;
            dropped += coll.warnings_dropped() as u64;
            warnings.extend_from_slice(coll.warnings());
            if full {
                let t = Instant::now();
                values.read(&coll, &mut totals.values);
                value_time += t.elapsed();
            }
            std::ops::ControlFlow::<()>::Continue(())
        });
        totals.parse_time += t.elapsed().saturating_sub(value_time);
        totals.values.time += value_time;
        totals.bytes += input.len() as u64;
        match result.map(|flow| flow.continue_value().unwrap_or(0)) {
            Ok(games) => {
                let report = FileReport {
                    games: games as u64,
                    nodes,
                    warnings: &warnings,
                    dropped,
                };
                totals.add(&report);
                match args.format {
                    Format::Text if args.quiet => {}
                    Format::Text => {
                        write_text_warnings(&mut out, &name, input, &report)?;
                        write_text_value_errors(&mut out, &name, input, &values)?;
                    }
                    Format::Json => write_json_file(
                        &mut out,
                        &name,
                        input.len(),
                        Ok(&report),
                        full.then_some(&values),
                    )?,
                }
            }
            Err(err) => {
                totals.failed.push((name.to_string(), err.kind().code()));
                match args.format {
                    Format::Text => write_error(&mut out, &name, input, &err)?,
                    Format::Json => write_json_file(
                        &mut out,
                        &name,
                        input.len(),
                        Err(JsonError::Parse(&err)),
                        full.then_some(&ValueReport::default()),
                    )?,
                }
            }
        }
    }

    totals.files = entries.len() as u64;
    match args.format {
        Format::Text => write_text_summary(&mut out, &totals, full, started.elapsed())?,
        Format::Json => write_json_summary(&mut out, &totals, full)?,
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
    /// What the value pass found (empty with `--structure-only`).
    values: ValueTotals,
}

/// The running totals of the value pass.
#[derive(Default)]
struct ValueTotals {
    /// Time spent in the value pass.
    time: Duration,
    /// Games by charset name and source: how many, and the sum of their
    /// confidences.
    charsets: BTreeMap<(&'static str, &'static str), (u64, f64)>,
    /// Games by the `CA` label they declare, as written.
    declared_labels: HashMap<String, u64>,
    /// Malformed values by property identifier (one per property whose
    /// values do not read).
    errors: BTreeMap<String, u64>,
    /// Occurrences of properties the catalogue does not know, by identifier.
    unknown: HashMap<String, u64>,
}

impl ValueTotals {
    fn error_count(&self) -> u64 {
        self.errors.values().sum()
    }
}

/// Adds one to the count of `key` in `map`, allocating the key only the
/// first time.
fn bump(map: &mut HashMap<String, u64>, key: &str) {
    match map.get_mut(key) {
        Some(count) => *count += 1,
        None => {
            map.insert(key.to_owned(), 1);
        }
    }
}

/// The counts of `map`, largest first (ties by name).
fn by_count<K: Ord, V: Copy>(
    map: impl IntoIterator<Item = (K, V)>,
    count: impl Fn(&V) -> u64,
) -> Vec<(K, V)> {
    let mut entries: Vec<(K, V)> = map.into_iter().collect();
    entries.sort_by(|a, b| count(&b.1).cmp(&count(&a.1)).then_with(|| a.0.cmp(&b.0)));
    entries
}

/// How many malformed values of a file are kept with their position (for
/// the JSON output); further ones are only counted.
const VALUE_ERRORS_KEPT: usize = 1000;

/// How many malformed values of a file the text output shows.
const VALUE_ERRORS_SHOWN: usize = 5;

/// What the value pass found in one file.
#[derive(Default)]
struct ValueReport {
    /// The charset of each game.
    charsets: Vec<Charset>,
    /// The first malformed values: the property identifier and the error.
    errors: Vec<(String, Error)>,
    /// How many malformed values in all.
    error_count: u64,
}

impl ValueReport {
    fn clear(&mut self) {
        self.charsets.clear();
        self.errors.clear();
        self.error_count = 0;
    }

    /// Checks every value of `coll` and finds every game's charset, adding
    /// to `totals`.
    fn read(&mut self, coll: &Collection<'_, '_>, totals: &mut ValueTotals) {
        for game in coll.games() {
            self.read_game(game, totals);
        }
        // Every node of every game, in the arena's order (pre-order, game
        // after game): a linear walk.
        for node in coll.nodes() {
            for prop in node.properties() {
                // Checked without handing values out (nor decoding text,
                // which never fails).
                match prop.validate() {
                    Ok(Some(_)) => {}
                    Ok(None) => bump(&mut totals.unknown, prop.ident()),
                    Err(err) => {
                        let ident = prop.ident();
                        match totals.errors.get_mut(ident) {
                            Some(count) => *count += 1,
                            None => {
                                totals.errors.insert(ident.to_owned(), 1);
                            }
                        }
                        self.error_count += 1;
                        if self.errors.len() < VALUE_ERRORS_KEPT {
                            self.errors.push((ident.to_owned(), err));
                        }
                    }
                }
            }
        }
    }

    fn read_game(&mut self, game: GameTree<'_, '_>, totals: &mut ValueTotals) {
        let charset = game.charset();
        self.charsets.push(charset);
        let entry = totals
            .charsets
            .entry((charset.name(), source_name(charset.source())))
            .or_default();
        entry.0 += 1;
        entry.1 += f64::from(charset.confidence());
        if let Some(label) = game.declared_charset() {
            bump(&mut totals.declared_labels, &String::from_utf8_lossy(label));
        }
    }
}

/// `"override"`, `"declared"` or `"detected"`.
fn source_name(source: CharsetSource) -> &'static str {
    match source {
        CharsetSource::Override => "override",
        CharsetSource::Declared => "declared",
        CharsetSource::Detected => "detected",
    }
}

/// `n` with a comma every three digits: `18,171`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
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

/// Writes the first malformed values of a file, each with its line and
/// caret, and a note of how many more there were.
fn write_text_value_errors(
    out: &mut impl Write,
    name: &str,
    input: &[u8],
    values: &ValueReport,
) -> io::Result<()> {
    for (ident, err) in values.errors.iter().take(VALUE_ERRORS_SHOWN) {
        let message = value_error_message(ident, err);
        write_headline(
            out,
            name,
            "warning",
            err.kind().code(),
            &message,
            err.position(),
        )?;
        write_snippet(out, input, err.position())?;
    }
    let more = values.error_count.saturating_sub(VALUE_ERRORS_SHOWN as u64);
    if more > 0 {
        writeln!(out, "{name}: note: {more} more malformed values not shown")?;
    }
    Ok(())
}

/// Megabytes per second.
fn mbps(bytes: u64, secs: f64) -> f64 {
    if secs > 0.0 {
        bytes as f64 / secs / 1e6
    } else {
        0.0
    }
}

/// Writes the human-readable summary.
fn write_text_summary(
    out: &mut impl Write,
    totals: &Totals,
    full: bool,
    wall: Duration,
) -> io::Result<()> {
    let secs = totals.parse_time.as_secs_f64();
    let mbps_parse = mbps(totals.bytes, secs);
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
    if full {
        let value_secs = totals.values.time.as_secs_f64();
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
    if full {
        write_text_values(out, &totals.values)?;
    }
    if !totals.failed.is_empty() {
        writeln!(out, "failed:   {}", totals.failed.len())?;
        for (name, code) in &totals.failed {
            writeln!(out, "  {name} ({code})")?;
        }
    }
    Ok(())
}

/// How many unknown properties the text summary lists.
const UNKNOWN_SHOWN: usize = 20;

/// Writes the value pass's part of the summary.
fn write_text_values(out: &mut impl Write, values: &ValueTotals) -> io::Result<()> {
    let games: u64 = values.charsets.values().map(|&(n, _)| n).sum();
    writeln!(out, "charsets: {} games", thousands(games))?;
    for ((name, source), (count, confidence)) in by_count(&values.charsets, |&&(n, _)| n) {
        if *source == "detected" {
            let mean = confidence / (*count).max(1) as f64;
            writeln!(
                out,
                "  {name} {source} (mean confidence {mean:.2}): {}",
                thousands(*count)
            )?;
        } else {
            writeln!(out, "  {name} {source}: {}", thousands(*count))?;
        }
    }
    let declared: u64 = values.declared_labels.values().sum();
    writeln!(out, "declared: {} games with CA", thousands(declared))?;
    for (label, count) in by_count(&values.declared_labels, |&&n| n) {
        writeln!(
            out,
            "  CA[{}]: {}",
            printable(label.as_bytes()),
            thousands(*count)
        )?;
    }
    writeln!(out, "value errors: {}", thousands(values.error_count()))?;
    for (ident, count) in by_count(&values.errors, |&&n| n) {
        writeln!(out, "  {ident}: {}", thousands(*count))?;
    }
    let unknown: u64 = values.unknown.values().sum();
    writeln!(
        out,
        "unknown properties: {} ({} identifiers)",
        thousands(unknown),
        values.unknown.len()
    )?;
    let ranked = by_count(&values.unknown, |&&n| n);
    for (ident, count) in ranked.iter().take(UNKNOWN_SHOWN) {
        writeln!(out, "  {ident}: {}", thousands(**count))?;
    }
    if ranked.len() > UNKNOWN_SHOWN {
        writeln!(out, "  ({} more identifiers)", ranked.len() - UNKNOWN_SHOWN)?;
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

/// Writes the JSON line of one file; `values` is `None` with
/// `--structure-only`.
fn write_json_file(
    out: &mut impl Write,
    name: &str,
    bytes: usize,
    result: Result<&FileReport<'_>, JsonError<'_>>,
    values: Option<&ValueReport>,
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
    if let Some(values) = values {
        write_json_values(out, values)?;
    }
    out.write_all(b"}\n")
}

/// Writes `,"charsets":[…],"value_errors":[…],"value_errors_dropped":N`.
fn write_json_values(out: &mut impl Write, values: &ValueReport) -> io::Result<()> {
    out.write_all(b",\"charsets\":[")?;
    for (i, charset) in values.charsets.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        out.write_all(b"{\"name\":")?;
        json_str(out, charset.name())?;
        write!(
            out,
            ",\"source\":\"{}\",\"confidence\":",
            source_name(charset.source())
        )?;
        json_f64(out, confidence(charset.confidence()))?;
        out.write_all(b"}")?;
    }
    out.write_all(b"],\"value_errors\":[")?;
    for (i, (ident, err)) in values.errors.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        let p = err.position();
        out.write_all(b"{\"ident\":")?;
        json_str(out, ident)?;
        write!(
            out,
            ",\"offset\":{},\"line\":{},\"column\":{},\"message\":",
            p.offset, p.line, p.column
        )?;
        json_str(out, &value_error_message(ident, err))?;
        out.write_all(b"}")?;
    }
    let dropped = values.error_count - values.errors.len() as u64;
    write!(out, "],\"value_errors_dropped\":{dropped}")
}

/// A confidence rounded to four decimals, so that an `f32` prints short.
fn confidence(c: f32) -> f64 {
    (f64::from(c) * 1e4).round() / 1e4
}

/// Writes a float as JSON.
fn json_f64(out: &mut impl Write, x: f64) -> io::Result<()> {
    serde_json::to_writer(&mut *out, &x).map_err(io::Error::from)
}

/// Writes `{"key":count,…}`.
fn json_counts<'a>(
    out: &mut impl Write,
    counts: impl IntoIterator<Item = (&'a str, u64)>,
) -> io::Result<()> {
    out.write_all(b"{")?;
    for (i, (key, count)) in counts.into_iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        json_str(out, key)?;
        write!(out, ":{count}")?;
    }
    out.write_all(b"}")
}

/// Writes the last JSON line, `{"summary":{…}}`.
fn write_json_summary(out: &mut impl Write, totals: &Totals, full: bool) -> io::Result<()> {
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
    write!(out, "}},\"warnings_dropped\":{}", totals.dropped)?;
    let mode = if full { "full" } else { "structure" };
    write!(out, ",\"mode\":\"{mode}\"")?;
    if full {
        let values = &totals.values;
        out.write_all(b",\"value_seconds\":")?;
        json_f64(out, values.time.as_secs_f64())?;
        out.write_all(b",\"charsets\":")?;
        let charsets: Vec<(String, u64)> = by_count(&values.charsets, |&&(n, _)| n)
            .into_iter()
            .map(|((name, source), &(n, _))| (format!("{name}/{source}"), n))
            .collect();
        json_counts(out, charsets.iter().map(|(k, n)| (k.as_str(), *n)))?;
        out.write_all(b",\"declared_labels\":")?;
        json_counts(
            out,
            by_count(&values.declared_labels, |&&n| n)
                .into_iter()
                .map(|(k, &n)| (k.as_str(), n)),
        )?;
        out.write_all(b",\"value_errors\":")?;
        json_counts(
            out,
            by_count(&values.errors, |&&n| n)
                .into_iter()
                .map(|(k, &n)| (k.as_str(), n)),
        )?;
        out.write_all(b",\"unknown_properties\":")?;
        json_counts(
            out,
            by_count(&values.unknown, |&&n| n)
                .into_iter()
                .map(|(k, &n)| (k.as_str(), n)),
        )?;
    }
    writeln!(out, "}}}}")
}
