//! The subcommands, one module each, and what they share: the outcome and
//! error types, reading an input, and compiler-style diagnostics.

pub mod board;
pub mod check;
pub mod dedup;
pub mod diagram;
pub mod dump;
pub mod export;
pub mod extract;
pub mod find;
pub mod find_pattern;
pub mod fix;
pub mod fmt;
pub mod index;
mod one_line;
mod rewrite;
mod samples;
pub mod select;
mod sink;
pub mod split;
pub mod stats;
pub mod strip;
mod tables;
mod target;
pub mod transform;
pub mod tree;

use crate::args::Command;
pub use crate::name::display_name;
use crate::read::{Input, ReadError, Reader, Source};
use encoding_rs::Encoding;
use sgf_grove::input::Content;
use sgf_grove::{Collection, Error, ErrorKind, ParseOptions, Position, StreamParser};
use std::borrow::Cow;
use std::fmt as stdfmt;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
pub use tables::origin_key;

/// Runs one subcommand.
///
/// # Errors
///
/// A [`CliError`] for failures that are not about the input's content:
/// an unreadable position file for `find`, usage errors found after the
/// command line was read, and failed writes to the output.
pub fn run(mut command: Command) -> Result<Status, CliError> {
    let (unreadable, left) = drop_unreadable(&mut command);
    if unreadable && !left {
        return Ok(Status::Unreadable);
    }
    let status = dispatch(command)?;
    Ok(if unreadable {
        Status::Unreadable
    } else {
        status
    })
}

/// Runs the subcommand on what is left of its inputs.
fn dispatch(command: Command) -> Result<Status, CliError> {
    match command {
        Command::Board(args) => board::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Dedup(args) => dedup::run(&args),
        Command::Diagram(args) => diagram::run(&args),
        Command::Dump(args) => dump::run(&args),
        Command::Fmt(args) => fmt::run(&args),
        Command::Fix(args) => fix::run(&args),
        Command::Strip(args) => strip::run(&args),
        Command::Transform(args) => transform::run(&args),
        Command::Split(args) => split::run(&args),
        Command::Stats(args) => stats::run(&args),
        Command::Select(args) => select::run(&args),
        Command::Export(args) => export::run(&args),
        Command::Index(command) => index::run(&command),
        Command::Find(args) => find::run(&args),
        Command::Tree(args) => tree::run(&args),
        Command::Extract(args) => extract::run(&args),
    }
}

/// How a subcommand that ran to its end went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every input parsed (perhaps with warnings): exit status 0.
    Ok,
    /// At least one input failed: exit status 1.
    Failed,
    /// A path named on the command line does not exist or cannot be read
    /// (named on standard error; the other paths were still read): exit
    /// status 2.
    Unreadable,
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> ExitCode {
        match status {
            Status::Ok => ExitCode::SUCCESS,
            Status::Failed => ExitCode::from(1),
            Status::Unreadable => ExitCode::from(2),
        }
    }
}

/// Whether some input failed so far, for the exit status of a command
/// stopped early by a closed standard output (`sgf check … | head`): the
/// status of what it found before the pipe closed.
static FAILURE_SEEN: AtomicBool = AtomicBool::new(false);

/// Records that an input failed (see [`failure_seen`]).
pub fn note_failure() {
    FAILURE_SEEN.store(true, Ordering::Relaxed);
}

/// Inputs that failed, counted by reason (the error's code), for a
/// command's summary line and exit status.
#[derive(Debug, Default)]
pub struct Failures {
    counts: Vec<(&'static str, u64)>,
}

impl Failures {
    /// Counts one failed input (and notes it for [`failure_seen`]).
    pub fn add(&mut self, code: &'static str) {
        note_failure();
        match self.counts.iter_mut().find(|(c, _)| *c == code) {
            Some((_, n)) => *n += 1,
            None => self.counts.push((code, 1)),
        }
    }

    /// Counts one failed input by its error: a parse error by the
    /// parser's own code (`no_game_tree`, …).
    pub fn add_input(&mut self, err: &sgf_grove::input::InputError) {
        match err.parse_error() {
            Some(parse) => self.add(parse.kind().code()),
            None => self.add(err.kind().code()),
        }
    }

    /// How many inputs failed.
    pub fn total(&self) -> u64 {
        self.counts.iter().map(|(_, n)| n).sum()
    }

    /// The status of a run of `inputs` inputs under `limit`, and its
    /// summary tail: `"; 1 of 10 inputs failed (not_sgf_text 1); within
    /// --max-failures 10%"`, or nothing when none failed.
    pub fn limited(&self, limit: crate::failures::MaxFailures, inputs: u64) -> (Status, String) {
        let failed = self.total();
        let status = if limit.allows(failed, inputs) {
            Status::Ok
        } else {
            Status::Failed
        };
        if failed == 0 {
            return (status, String::new());
        }
        let word = if inputs == 1 { "input" } else { "inputs" };
        let verdict = if status == Status::Ok {
            "within"
        } else {
            "over"
        };
        let tail = format!(
            "; {} of {} {word} failed ({}); {verdict} --max-failures {limit}",
            sgf_grove::table::thousands(failed),
            sgf_grove::table::thousands(inputs),
            self.reasons()
        );
        (status, tail)
    }

    /// `"not_sgf_text 2, io 1"`: the reasons, the most frequent first.
    pub fn reasons(&self) -> String {
        let mut counts = self.counts.clone();
        counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        let reasons: Vec<String> = counts
            .iter()
            .map(|(c, n)| format!("{c} {}", sgf_grove::table::thousands(*n)))
            .collect();
        reasons.join(", ")
    }
}

/// Whether [`note_failure`] was called.
pub fn failure_seen() -> bool {
    FAILURE_SEEN.load(Ordering::Relaxed)
}

/// Names on standard error each path of `command`'s inputs that does not
/// exist or cannot be read, and takes it out of the command's list; says
/// whether there was one, and whether any input is left to read.
fn drop_unreadable(command: &mut Command) -> (bool, bool) {
    let mut unreadable = false;
    let mut keep = |path: &Path| match readable(path) {
        Ok(()) => true,
        Err(err) => {
            unreadable = true;
            let _ = writeln!(
                io::stderr(),
                "sgf: cannot read {}: {err}",
                display_name(path)
            );
            false
        }
    };
    let left = match command {
        Command::Board(args) => retain(&mut args.scan.paths, &mut keep),
        Command::Diagram(args) => retain(&mut args.scan.paths, &mut keep),
        Command::Dump(args) => retain(&mut args.scan.paths, &mut keep),
        // `check` reports an unreadable path in its own report too (as a
        // failed file of reason `io`).
        Command::Check(args) => {
            for path in &args.paths {
                let _ = keep(path);
            }
            true
        }
        Command::Fmt(args) => retain(&mut args.io.scan.paths, &mut keep),
        Command::Fix(args) => retain(&mut args.io.scan.paths, &mut keep),
        Command::Strip(args) => retain(&mut args.io.scan.paths, &mut keep),
        Command::Transform(args) => retain(&mut args.io.scan.paths, &mut keep),
        Command::Stats(args) => retain(&mut args.scan.paths, &mut keep),
        Command::Select(args) => retain(&mut args.scan.paths, &mut keep),
        Command::Export(args) => retain(&mut args.scan.paths, &mut keep),
        Command::Split(args) => retain(&mut args.scan.paths, &mut keep),
        Command::Dedup(args) => retain(&mut args.scan.paths, &mut keep),
        Command::Index(crate::args::IndexCommand::Build(args)) => {
            retain(&mut args.scan.paths, &mut keep)
        }
        Command::Index(crate::args::IndexCommand::Add(args)) => {
            retain(&mut args.scan.paths, &mut keep)
        }
        Command::Tree(args) => retain(&mut args.scan.paths, &mut keep),
        Command::Extract(args) => retain(&mut args.scan.paths, &mut keep),
        Command::Index(_) | Command::Find(_) => true,
    };
    (unreadable, left)
}

/// Keeps the paths `keep` accepts; whether any is left.
fn retain(paths: &mut Vec<std::path::PathBuf>, keep: &mut impl FnMut(&Path) -> bool) -> bool {
    paths.retain(|p| keep(p));
    !paths.is_empty()
}

/// Whether `path` can be read: standard input, a regular file that
/// opens, a folder that lists, anything else that exists (a FIFO or a
/// device is not opened here: opening a FIFO waits for its writer, and
/// closing it would end the writer's stream).
fn readable(path: &Path) -> io::Result<()> {
    if is_stdin(path) {
        return Ok(());
    }
    let meta = std::fs::metadata(path)?;
    if meta.is_dir() {
        std::fs::read_dir(path).map(drop)
    } else if meta.is_file() {
        std::fs::File::open(path).map(drop)
    } else {
        Ok(())
    }
}

/// A failure that stops a subcommand: an I/O error and what was being done.
/// Printed by `main` as `sgf: <context>: <error>`, with exit status 2.
#[derive(Debug)]
pub struct CliError {
    context: String,
    source: io::Error,
    /// A usage error: the context alone is the message.
    usage: bool,
}

impl CliError {
    /// An I/O error that happened while doing `context`.
    pub fn io(context: impl Into<String>, source: io::Error) -> CliError {
        CliError {
            context: context.into(),
            source,
            usage: false,
        }
    }

    /// A usage error found after the command line was read (`--in-place`
    /// on an archive, `--out` inside an input folder): `message` alone is
    /// printed, with exit status 2.
    pub fn usage(message: impl Into<String>) -> CliError {
        CliError {
            context: message.into(),
            source: io::Error::from(io::ErrorKind::InvalidInput),
            usage: true,
        }
    }

    /// Whether the error is a closed standard output, which ends the program
    /// quietly and successfully.
    pub fn is_broken_pipe(&self) -> bool {
        self.source.kind() == io::ErrorKind::BrokenPipe
    }
}

impl From<io::Error> for CliError {
    /// Errors raised by `?` on a write: a failed write of the output.
    fn from(source: io::Error) -> CliError {
        CliError::io("cannot write output", source)
    }
}

impl stdfmt::Display for CliError {
    fn fmt(&self, f: &mut stdfmt::Formatter<'_>) -> stdfmt::Result {
        if self.usage {
            return f.write_str(&self.context);
        }
        write!(f, "{}: {}", self.context, self.source)
    }
}

impl std::error::Error for CliError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// The parse options of `--strict` and `--charset`.
pub fn parse_options(strict: bool, charset: Option<&'static Encoding>) -> ParseOptions {
    ParseOptions::new().strict(strict).charset(charset)
}

/// The parse options for an input as read: an input decoded from UTF-16
/// is UTF-8 now, whatever its `CA` or `--charset` say.
pub fn input_parse_options(
    strict: bool,
    charset: Option<&'static Encoding>,
    decoded_from: Option<Content>,
) -> ParseOptions {
    match decoded_from {
        Some(_) => parse_options(strict, Some(encoding_rs::UTF_8)),
        None => parse_options(strict, charset),
    }
}

/// A raw value as text, the way the untyped `dump` shows it: decoded in
/// `encoding` first (in Shift_JIS, Big5 and GBK the second byte of a
/// character may be `\`), then SGF escapes removed (`\]` → `]`, `\` + line
/// break removed) with every other line break kept as it is. Bytes that do
/// not decode become U+FFFD.
pub fn raw_text<'a>(raw: &'a [u8], encoding: &'static Encoding) -> Cow<'a, str> {
    match encoding.decode_without_bom_handling(raw).0 {
        Cow::Borrowed(text) => unescape_str(text),
        Cow::Owned(text) => match unescape_str(&text) {
            Cow::Borrowed(_) => Cow::Owned(text),
            Cow::Owned(unescaped) => Cow::Owned(unescaped),
        },
    }
}

/// Removes SGF escapes from decoded text: `\x` becomes `x`, and `\`
/// followed by a line break (LF, CR, CRLF or LFCR) is removed. Borrows when
/// there is no `\`.
pub fn unescape_str(text: &str) -> Cow<'_, str> {
    let Some(first) = text.find('\\') else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..first]);
    let mut rest = &text[first..];
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        let mut chars = rest[i + 1..].chars();
        match chars.next() {
            None => {}
            Some(brk @ ('\n' | '\r')) => {
                let after = chars.as_str();
                rest = match after.as_bytes().first() {
                    Some(&next) if matches!(next, b'\n' | b'\r') && next != brk as u8 => {
                        &after[1..]
                    }
                    _ => after,
                };
                continue;
            }
            Some(escaped) => out.push(escaped),
        }
        rest = chars.as_str();
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// Whether `path` names standard input (`-`).
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// The code of the warning that says an input was decoded from UTF-16.
pub const UTF16_CODE: &str = "utf16_input";

/// The message of that warning.
pub fn utf16_message(content: Content) -> String {
    format!("{content} decoded to UTF-8 before parsing; positions are in the decoded text")
}

/// How many warnings of one input `check --format json` lists; further
/// ones are only counted. (The parser keeps as many per game.)
pub const WARNINGS_KEPT: usize = 10_000;

/// Opens one SGF file (`find --position`; standard input for `-`). When it
/// is not SGF text, says so on standard error and returns `None` (exit
/// status 1); when it was UTF-16, says that it was decoded.
///
/// # Errors
///
/// A [`CliError`] naming the input when it cannot be read (exit status 2).
pub fn open_reporting(path: &Path, name: &str) -> Result<Option<Input<'static>>, CliError> {
    let source = if is_stdin(path) {
        Source::Stdin
    } else {
        Source::Path(path)
    };
    let mut err_out = io::stderr().lock();
    // Standard error may be closed; that must not change the outcome.
    match Reader::default().open(source) {
        Ok(input) => {
            if let Some(content) = input.decoded_from {
                let _ = writeln!(
                    err_out,
                    "{name}: warning[{UTF16_CODE}]: {}",
                    utf16_message(content)
                );
            }
            Ok(Some(input))
        }
        Err(ReadError::Io(err)) => Err(CliError::io(format!("cannot read {name}"), err)),
        Err(err) => {
            let _ = writeln!(err_out, "{name}: error[{}]: {err}", err.code());
            Ok(None)
        }
    }
}

/// The I/O error behind a parser's [`ErrorKind::Io`] error.
pub fn io_error(err: &Error) -> Option<io::Error> {
    if err.kind() != ErrorKind::Io {
        return None;
    }
    let source = std::error::Error::source(err);
    Some(match source.and_then(|s| s.downcast_ref::<io::Error>()) {
        Some(io) => io::Error::new(io.kind(), io.to_string()),
        None => io::Error::other(source.map_or_else(|| err.to_string(), |s| s.to_string())),
    })
}

/// Parses `input` one game at a time (`find --position`), reading it as a
/// stream ([`StreamParser`]), and hands each game to `each` together with
/// standard error (for warnings of its own) as soon as it is read, so that
/// output is written as reading goes. Warnings and the error go to standard
/// error as `name:line:column: …` lines, then a note of how many warnings
/// the parser did not keep, if any.
///
/// A stream is read once: an error (in strict mode the first defect; in
/// lenient mode no game at all, or a game too large) stops the output at
/// the game it is in, after the games before it were handed on, with
/// status [`Status::Failed`].
///
/// # Errors
///
/// The first error `each` returns (a failed write of the output), or a
/// failure to read the input.
pub fn parse_streaming(
    input: &mut Input<'_>,
    options: ParseOptions,
    name: &str,
    mut each: impl FnMut(Collection<'_, '_>, &mut dyn Write) -> io::Result<()>,
) -> Result<Status, CliError> {
    let mut err_out = io::BufWriter::new(io::stderr().lock());
    let reader = input.take_reader().expect("an input is parsed once");
    let mut parser = StreamParser::with_options(reader, options);
    let mut dropped = 0;
    let mut status = Status::Ok;
    while let Some(next) = parser.next_game() {
        let coll = match next {
            Ok(coll) => coll,
            Err(err) => {
                if let Some(io) = io_error(&err) {
                    let _ = err_out.flush();
                    return Err(CliError::io(format!("cannot read {name}"), io));
                }
                // Standard error may be closed; that must not change the
                // outcome.
                let _ = write_error(&mut err_out, name, input, &err);
                note_failure();
                status = Status::Failed;
                break;
            }
        };
        for w in coll.warnings() {
            let _ = write_headline(
                &mut err_out,
                name,
                "warning",
                w.kind.code(),
                w.kind.message(),
                w.pos,
            );
        }
        dropped += coll.warnings_dropped();
        if let Err(err) = each(coll, &mut err_out) {
            // A failed write (a closed pipe) ends the reading too.
            let _ = err_out.flush();
            return Err(err.into());
        }
    }
    let _ = write_dropped_note(&mut err_out, name, dropped);
    let _ = err_out.flush();
    Ok(status)
}

/// Writes `path: note: N more warnings not kept` when `dropped` is not 0.
///
/// # Errors
///
/// Any error of `out`.
pub fn write_dropped_note(out: &mut impl Write, name: &str, dropped: usize) -> io::Result<()> {
    if dropped > 0 {
        writeln!(
            out,
            "{name}: note: {} more warnings not kept (over the per-file limit)",
            sgf_grove::table::thousands(dropped)
        )?;
    }
    Ok(())
}

/// Writes a parse error as `path:line:column: error[code]: message`, then the
/// line of `input` it points into with a caret under the column when that
/// line is still at hand ([`Input::around`]); an error with no position
/// (I/O) as `path: error[code]: message`.
///
/// # Errors
///
/// Any error of `out`.
pub fn write_error(
    out: &mut impl Write,
    name: &str,
    input: &Input<'_>,
    err: &Error,
) -> io::Result<()> {
    let code = err.kind().code();
    if !err.has_position() {
        let message = match io_error(err) {
            Some(io) => io.to_string(),
            None => err.kind().to_string(),
        };
        return writeln!(out, "{name}: error[{code}]: {message}");
    }
    let pos = err.position();
    write_headline(out, name, "error", code, &err.kind().to_string(), pos)?;
    match input.around(pos) {
        Some((bytes, at)) => write_snippet(out, &bytes, at),
        None => Ok(()),
    }
}

/// Writes the line of `input` that `pos` falls on with a caret, from the
/// bytes as read ([`Input::around`]), not from what the parser holds: for
/// the warnings of a record converted to SGF (`foreign_*`), placed in the
/// record.
///
/// # Errors
///
/// Any error of `out`.
pub fn write_original_snippet(
    out: &mut impl Write,
    input: &Input<'_>,
    pos: Position,
) -> io::Result<()> {
    match input.around(pos) {
        Some((bytes, at)) => write_snippet(out, &bytes, at),
        None => Ok(()),
    }
}

/// Writes the line of a diagnostic at `pos` (a position in the stream)
/// with a caret: from `window`, the part of the stream the parser holds,
/// which starts at stream offset `base`. When the line starts before the
/// window (a game that starts on the line where the previous one ends),
/// or `pos` itself is before it (junk the parser dropped as it went), the
/// bytes come from what `input` can give back ([`Input::around`]); when it
/// cannot (a pipe read far past them), the line is shown from the window's
/// start, marked `...` as cut, or not at all.
///
/// # Errors
///
/// Any error of `out`.
pub fn write_stream_snippet(
    out: &mut impl Write,
    input: &Input<'_>,
    window: &[u8],
    base: usize,
    pos: Position,
) -> io::Result<()> {
    let in_window = pos.offset.checked_sub(base);
    let line_in_window =
        in_window.is_some_and(|offset| offset >= (pos.column as usize).saturating_sub(1));
    if !line_in_window && let Some((bytes, at)) = input.around(pos) {
        return write_snippet(out, &bytes, at);
    }
    match in_window {
        Some(offset) => write_snippet(out, window, Position { offset, ..pos }),
        None => Ok(()),
    }
}

/// Writes `path:line:column: severity[code]: message`.
///
/// # Errors
///
/// Any error of `out`.
pub fn write_headline(
    out: &mut impl Write,
    name: &str,
    severity: &str,
    code: &str,
    message: &str,
    pos: Position,
) -> io::Result<()> {
    writeln!(
        out,
        "{name}:{}:{}: {severity}[{code}]: {message}",
        pos.line, pos.column
    )
}

/// How many bytes of a line a snippet shows at most; longer lines are cut
/// around the column and marked with `...`.
const SNIPPET_WIDTH: usize = 120;
/// How many of those bytes come before the column when the line is cut.
const SNIPPET_BEFORE: usize = 60;

/// Writes the line of `input` that `pos` falls on, and a caret under its
/// column, like a compiler:
///
/// ```text
///   3 | ;B[aa]C[a comment
///     |       ^
/// ```
///
/// `input` may be part of a longer text: `pos.offset` is the offset in
/// `input`, line and column those of the text. When the column says that
/// the line starts before `input`, the snippet starts at `input`'s start
/// (or later), marked `...` as cut.
///
/// Costs at most [`SNIPPET_WIDTH`] bytes of scanning, whatever the line's
/// length, so that thousands of diagnostics on a one-line file stay cheap.
///
/// # Errors
///
/// Any error of `out`.
pub fn write_snippet(out: &mut impl Write, input: &[u8], pos: Position) -> io::Result<()> {
    let offset = pos.offset.min(input.len());
    // `None` when the line starts before `input`.
    let line_start = offset.checked_sub((pos.column as usize).saturating_sub(1));

    // The window: at most SNIPPET_BEFORE bytes before the column…
    let mut start = line_start
        .unwrap_or(0)
        .max(offset.saturating_sub(SNIPPET_BEFORE));
    let cut_left = line_start.is_none_or(|line_start| start > line_start);
    if cut_left {
        // …starting on a UTF-8 character boundary when that is near.
        let mut n = 0;
        while n < 3 && start < offset && is_continuation(input[start]) {
            start += 1;
            n += 1;
        }
    }
    // …and ending at the line break or SNIPPET_WIDTH bytes after its start.
    let limit = input.len().min(start + SNIPPET_WIDTH).max(offset);
    let mut end = match memchr::memchr2(b'\n', b'\r', &input[offset..limit]) {
        Some(i) => offset + i,
        None => limit,
    };
    let cut_right = end < input.len() && !matches!(input[end], b'\n' | b'\r');
    if cut_right {
        let mut n = 0;
        while n < 3 && end > offset && is_continuation(input[end]) {
            end -= 1;
            n += 1;
        }
    }

    let marker = if cut_left { "..." } else { "" };
    let before = printable(&input[start..offset]);
    let after = printable(&input[offset..end]);
    let gutter = pos.line.to_string();
    let blank = " ".repeat(gutter.len());
    let mut pad = String::with_capacity(before.len() + marker.len());
    pad.push_str(&" ".repeat(marker.len()));
    for c in before.chars() {
        match c {
            '\t' => pad.push('\t'),
            c if is_wide(c) => pad.push_str("  "),
            _ => pad.push(' '),
        }
    }
    let tail = if cut_right { "..." } else { "" };
    writeln!(out, " {gutter} | {marker}{before}{after}{tail}")?;
    writeln!(out, " {blank} | {pad}^")
}

fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

/// `bytes` as lossy UTF-8 with control characters other than tab replaced
/// by U+FFFD, so that a snippet cannot move the terminal's cursor.
pub fn printable(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .chars()
        .map(|c| {
            if c.is_control() && c != '\t' {
                char::REPLACEMENT_CHARACTER
            } else {
                c
            }
        })
        .collect()
}

/// Whether a terminal shows `c` two columns wide (the common East Asian
/// wide ranges; enough to keep the caret aligned under CJK text).
fn is_wide(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x115F
        | 0x2E80..=0x303E
        | 0x3041..=0x33FF
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xA000..=0xA4CF
        | 0xAC00..=0xD7A3
        | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F
        | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6
        | 0x20000..=0x3FFFD)
}

/// The node at `path` below the root of `game`: child indices separated by
/// dots (`0.0.1`; empty steps skipped). Errors start with `label` (the
/// option that named the path).
pub fn node_at_path<'t, 'src>(
    game: sgf_grove::GameTree<'t, 'src>,
    path: &str,
    label: &str,
) -> Result<sgf_grove::Node<'t, 'src>, String> {
    let mut node = game.root();
    for step in path.split('.').filter(|s| !s.is_empty()) {
        let i: usize = step
            .parse()
            .map_err(|_| format!("{label} {path}: `{step}` is not a child index"))?;
        node = node
            .children()
            .nth(i)
            .ok_or_else(|| format!("{label} {path}: no child {i} there"))?;
    }
    Ok(node)
}

/// The node of the `want`-th move of `game`'s main line (0: the root), as
/// `sgf board --move` and `sgf extract --move` count them: a node with a
/// move value, readable or not, counts.
pub fn node_at_move<'t, 'src>(
    game: sgf_grove::GameTree<'t, 'src>,
    want: usize,
) -> Result<sgf_grove::Node<'t, 'src>, String> {
    let mut node = game.root();
    let mut moves = 0;
    while moves < want {
        node = node
            .first_child()
            .ok_or_else(|| format!("the main line has {moves} moves, not {want}"))?;
        if matches!(node.played(), Ok(Some(_)) | Err(_)) {
            moves += 1;
        }
    }
    Ok(node)
}

#[cfg(test)]
mod tests {
    use super::{raw_text, unescape_str};
    use encoding_rs::{SHIFT_JIS, UTF_8};
    use std::borrow::Cow;

    #[test]
    fn unescape_str_removes_escapes_and_soft_breaks_only() {
        assert_eq!(unescape_str(r"a\]b\\c\:d"), r"a]b\c:d");
        for brk in ["\n", "\r", "\r\n", "\n\r"] {
            assert_eq!(unescape_str(&format!("a\\{brk}b")), "ab", "{brk:?}");
            assert_eq!(
                unescape_str(&format!("a{brk}b")),
                format!("a{brk}b"),
                "{brk:?}"
            );
        }
        assert_eq!(unescape_str("a\\\n\nb"), "a\nb");
        assert_eq!(unescape_str("\\中\\"), "中");
        assert!(matches!(unescape_str("plain"), Cow::Borrowed("plain")));
    }

    #[test]
    fn raw_text_decodes_before_unescaping() {
        // 表 is 0x95 0x5C in Shift_JIS: its second byte is not an escape.
        assert_eq!(raw_text(b"\x95\x5c a\\]b", SHIFT_JIS), "表 a]b");
        assert_eq!(raw_text(b"caf\xc3\xa9\r\n\\\nx", UTF_8), "café\r\nx");
        assert_eq!(raw_text(b"\xff", UTF_8), "\u{FFFD}");
        assert!(matches!(
            raw_text(b"plain", SHIFT_JIS),
            Cow::Borrowed("plain")
        ));
    }
}
