//! What `fmt`, `strip`, `transform`, `fix` and `dump` share: every input
//! read through [`sgf_grove::input::Inputs`] (files, folders, compressed
//! files, archives, `.sgfs`, standard input) on all cores
//! ([`Inputs::par_scan_games`](sgf_grove::input::Inputs::par_scan_games)),
//! each game turned into its output by the command's work function on a
//! worker thread, and the outputs written in the order of the inputs,
//! whatever `-j`: to standard output (one collection), to one file
//! (`--out-file`), to a file per input under a folder (`--out DIR`,
//! [`mirror`]) or over each file (`--in-place`).
//!
//! Every file is written through [`sgf_grove::atomic::Replace`]: a
//! temporary file beside it (`.<name>.<pid>-<n>.sgf-grove-tmp`, which
//! folder scans skip and report), given the file's owner, group and mode,
//! synced, and renamed over it only once the input ended without failure
//! and the file was seen unchanged: the file holds either its old bytes or
//! its new ones, whatever happens. A symbolic link is written through to
//! its target; a file with several hard links, or locked by another
//! rewrite, is refused. A process killed while writing can leave the
//! temporary file behind, never a damaged original; the next rewrite of the
//! file removes it. An `.sgfs` file stays one game per line ([`OneLine`]).
//!
//! An input fails when it cannot be read, is not SGF text, holds no game,
//! or one of its games fails (a defect in strict mode, a game the writer
//! refuses); the games before are written to standard output, while the
//! input's own file (`--in-place`, `--out DIR`) is left as it was. The run
//! exits 1 when more inputs fail than `--max-failures` allows. Warnings
//! and errors go to standard error, at most `--max-messages` of them.
//!
//! Memory: the games in flight (a few per worker thread, each with its
//! output), plus the names of the files written under `--out DIR` (two
//! inputs must not write the same file).

use super::one_line::{is_line_break, OneLine};
use super::target::{check_in_place, check_out_dir, mirror};
use super::{CliError, Status};
use crate::args::RewriteArgs;
use crate::failures::MaxFailures;
use crate::messages::Messages;
use crate::name::{display_name, origin_name};
use crate::scan::{Progress, ScanArgs};
use sgf_grove::atomic::{Hooks, Replace, ReplaceError, ReplaceErrorKind};
use sgf_grove::edit::EditableGame;
use sgf_grove::game::Transform;
use sgf_grove::input::{InputError, Origin, ScanGame, Special};
use sgf_grove::writer::WriteOptions;
use sgf_grove::{ErrorKind, Writer};
use std::collections::HashSet;
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// One diagnostic line of a game: its code (for `--max-messages`'s count
/// by kind) and its text.
#[derive(Debug)]
pub struct Diag {
    /// The warning's or error's code.
    pub code: &'static str,
    /// The whole line, without its line break.
    pub text: String,
}

/// What a worker made of one game (or of the warnings after a member's
/// last game).
#[derive(Debug)]
pub struct GameOut<X> {
    /// The member the game is in.
    pub origin: Origin,
    /// The output of the game; `None` when there is no game or it failed.
    pub bytes: Option<Vec<u8>>,
    /// Warnings and errors, for standard error.
    pub diags: Vec<Diag>,
    /// Report lines (`fix`: the changes), printed unless `-q`.
    pub report: Vec<String>,
    /// The game failed: its input fails.
    pub failed: Option<&'static str>,
    /// Where the game starts (its root), for errors the sink finds.
    pub at: Option<sgf_grove::Position>,
    /// The game changed (`fix`); `--in-place` replaces a file only when
    /// one of its games did.
    pub changed: bool,
    /// What the command counts besides.
    pub extra: X,
}

impl<X: Default> GameOut<X> {
    /// An empty output for a game of `origin`.
    pub fn new(origin: &Origin) -> GameOut<X> {
        GameOut {
            origin: origin.clone(),
            bytes: None,
            diags: Vec::new(),
            report: Vec::new(),
            failed: None,
            at: None,
            changed: true,
            extra: X::default(),
        }
    }

    /// Adds the scan's warnings of `game` (unless `quiet`), and notes
    /// where it starts. The first game of a plain file that was UTF-16
    /// gets a warning saying it was decoded.
    pub fn warnings(&mut self, game: &ScanGame<'_>, name: &str, quiet: bool) {
        if let Some(tree) = game.tree() {
            self.at = Some(game.collection().position(tree.root().offset()));
        }
        if quiet {
            return;
        }
        if game.index() == Some(0) && !game.origin().is_member() {
            if let Some(content) = game.origin().root_path().and_then(utf16_file) {
                self.diags.push(Diag {
                    code: super::UTF16_CODE,
                    text: format!(
                        "{name}: warning[{}]: {}",
                        super::UTF16_CODE,
                        super::utf16_message(content)
                    ),
                });
            }
        }
        for w in game.warnings() {
            self.diags.push(Diag {
                code: w.kind.code(),
                text: format!(
                    "{name}:{}:{}: warning[{}]: {}",
                    w.pos.line,
                    w.pos.column,
                    w.kind.code(),
                    w.kind.message()
                ),
            });
        }
    }
}

impl<X> GameOut<X> {
    /// Records that the game failed, with its error line.
    pub fn fail(&mut self, code: &'static str, text: String) {
        self.failed = Some(code);
        self.bytes = None;
        self.diags.push(Diag { code, text });
    }
}

/// How the outputs are put together on standard output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Joined {
    /// One after the other: an SGF collection.
    Sgf,
    /// Items of one JSON array, closed at the end when the run is within
    /// `--max-failures` (left open otherwise, so that it is not taken for
    /// the whole collection).
    JsonArray,
}

/// Where the outputs go.
#[derive(Debug)]
pub enum Dest<'a> {
    /// Standard output.
    Stdout(Joined),
    /// As `args` (`--out-file`, `--out`, `--in-place`) say, else standard
    /// output as SGF.
    Args(&'a RewriteArgs),
    /// Nowhere (`fix --dry-run`): the report goes to standard output.
    Nowhere,
}

/// What a run counted, for the command's summary.
#[derive(Debug, Default)]
pub struct Tally {
    /// Inputs read (members: files, archive members, standard input).
    pub inputs: u64,
    /// Games handed on.
    pub games: u64,
    /// Inputs with a changed game.
    pub changed_inputs: u64,
    /// Inputs that failed.
    pub failed_inputs: u64,
}

/// Reads every input of `scan` and writes each game as `work` makes it,
/// in the order of the inputs, to `dest`; `extra` gets what `work` counted
/// besides, in order. `command` names the command in the summary.
///
/// # Errors
///
/// `--in-place` on what cannot be replaced or `--out` inside an input
/// folder (before anything is read), a failed write of the output, or
/// worker threads that do not start.
pub fn run<X: Send>(
    command: &'static str,
    scan: &ScanArgs,
    dest: Dest<'_>,
    work: impl Fn(ScanGame<'_>, &str) -> GameOut<X> + Sync,
    mut extra: impl FnMut(X),
) -> Result<(Status, Tally), CliError> {
    let cancel = Arc::new(AtomicBool::new(false));
    let inputs = scan.inputs().cancel_flag(Arc::clone(&cancel));
    let mut sink = Sink::open(command, scan, dest, &inputs)?;
    let mut progress = Progress::new(scan);
    let quiet = scan.quiet;
    let skipped = inputs
        .par_scan_games(
            scan.options(),
            scan.jobs(),
            |game| work(game, &origin_name(game.origin())),
            |result| {
                if sink.fatal.is_some() {
                    return;
                }
                match result {
                    Ok(out) => {
                        if let Some(bytes) = &out.bytes {
                            progress.game(bytes.len() as u64);
                        }
                        sink.game(out, quiet, &mut extra);
                    }
                    Err(err) => sink.input_error(&err),
                }
                if sink.fatal.is_some() {
                    cancel.store(true, Ordering::Relaxed);
                }
            },
        )
        .map_err(|e| CliError::io("cannot start the worker threads", io::Error::other(e)))?;
    progress.finish();
    if let Some(err) = sink.fatal.take() {
        return Err(err);
    }
    sink.end_member()?;
    let mut err = io::stderr().lock();
    for item in skipped.listed() {
        if item.kind == Special::Temporary {
            let _ = writeln!(
                err,
                "{}: skipped: {} (not read)",
                origin_name(&item.origin),
                item.kind
            );
        }
    }
    drop(err);
    sink.finish()
}

/// The member being written.
struct Member {
    origin: Origin,
    name: String,
    /// Its own file (`--out DIR`, `--in-place`), opened at its first game.
    file: Option<Out>,
    /// Its file could not be opened: its games are not written.
    refused: bool,
    failed: Option<&'static str>,
    changed: bool,
}

/// A file being written: plain, or one game per line for `.sgfs`.
enum Out {
    Plain(Replace),
    Lines(OneLine<Replace>),
}

impl Out {
    fn new(replace: Replace) -> Out {
        if super::rewrite::is_sgfs(replace.target()) {
            Out::Lines(OneLine::new(replace))
        } else {
            Out::Plain(replace)
        }
    }

    fn write_game(&mut self, bytes: &[u8]) -> io::Result<()> {
        match self {
            Out::Plain(replace) => replace.write_all(bytes),
            Out::Lines(lines) => {
                let written = lines.write_all(bytes);
                if written.as_ref().is_err_and(is_line_break) {
                    lines.skip_game();
                }
                written
            }
        }
    }

    fn into_replace(self) -> Replace {
        match self {
            Out::Plain(replace) => replace,
            Out::Lines(lines) => lines.into_inner(),
        }
    }
}

/// Where the outputs go, and what was counted.
struct Sink<'a> {
    command: &'static str,
    max_failures: MaxFailures,
    mode: Mode,
    paths: &'a [PathBuf],
    stdout: BufWriter<io::StdoutLock<'static>>,
    /// Items written into the JSON array.
    items: u64,
    messages: Messages,
    current: Option<Member>,
    /// `--out DIR`: the files written so far.
    written: HashSet<PathBuf>,
    tally: Tally,
    failures: super::Failures,
    fatal: Option<CliError>,
    /// Where the game being written starts.
    at: Option<sgf_grove::Position>,
    /// `--max-failures` was given: the summary is said even for one input.
    limit_given: bool,
}

enum Mode {
    Stdout(Joined),
    File(Option<Box<Out>>, PathBuf),
    Dir(PathBuf),
    InPlace,
    Nowhere,
}

impl<'a> Sink<'a> {
    fn open(
        command: &'static str,
        scan: &'a ScanArgs,
        dest: Dest<'_>,
        inputs: &sgf_grove::input::Inputs,
    ) -> Result<Sink<'a>, CliError> {
        let usage = CliError::usage;
        let mode = match dest {
            Dest::Stdout(joined) => Mode::Stdout(joined),
            Dest::Nowhere => Mode::Nowhere,
            Dest::Args(args) => {
                if args.in_place {
                    check_in_place(inputs).map_err(usage)?;
                    Mode::InPlace
                } else if let Some(dir) = &args.out {
                    check_out_dir(dir, &scan.paths).map_err(usage)?;
                    Mode::Dir(dir.clone())
                } else if let Some(file) = &args.out_file {
                    match open_out(file) {
                        Ok(replace) => Mode::File(Some(Box::new(Out::new(replace))), file.clone()),
                        Err(err) if err.kind() == ReplaceErrorKind::Io => {
                            return Err(CliError::io(
                                format!("cannot write {}", display_name(file)),
                                err.into(),
                            ))
                        }
                        Err(err) => {
                            return Err(usage(format!(
                                "cannot write {}: {err}",
                                display_name(file)
                            )))
                        }
                    }
                } else {
                    Mode::Stdout(Joined::Sgf)
                }
            }
        };
        Ok(Sink {
            command,
            max_failures: scan.max_failures(),
            mode,
            paths: &scan.paths,
            stdout: BufWriter::with_capacity(64 * 1024, io::stdout().lock()),
            items: 0,
            messages: Messages::new(scan.max_messages),
            current: None,
            written: HashSet::new(),
            tally: Tally::default(),
            failures: super::Failures::default(),
            fatal: None,
            at: None,
            limit_given: scan.max_failures.is_some(),
        })
    }

    /// Prints a diagnostic line within `--max-messages`.
    fn say(&mut self, code: &str, text: &str) {
        self.messages.print(&mut io::stderr().lock(), code, text);
    }

    /// Starts the member of `origin` unless it is the current one.
    fn enter(&mut self, origin: &Origin) {
        if self.current.as_ref().is_some_and(|m| &m.origin == origin) {
            return;
        }
        if let Err(err) = self.end_member() {
            self.fatal = Some(err);
        }
        self.current = Some(Member {
            origin: origin.clone(),
            name: origin_name(origin),
            file: None,
            refused: false,
            failed: None,
            changed: false,
        });
    }

    /// One game's output, in order.
    fn game<X>(&mut self, out: GameOut<X>, quiet: bool, extra: &mut impl FnMut(X)) {
        self.enter(&out.origin);
        for diag in &out.diags {
            self.say(diag.code, &diag.text);
        }
        if !quiet {
            let report = out.report.join("\n");
            if !report.is_empty() {
                let written = match self.mode {
                    Mode::Nowhere => writeln!(self.stdout, "{report}"),
                    _ => writeln!(io::stderr().lock(), "{report}"),
                };
                if let Err(err) = written {
                    self.fatal = Some(err.into());
                    return;
                }
            }
        }
        extra(out.extra);
        let member = self.current.as_mut().expect("a member was entered");
        if let Some(code) = out.failed {
            member.failed.get_or_insert(code);
            return;
        }
        member.changed |= out.changed;
        let Some(bytes) = out.bytes else {
            return;
        };
        self.at = out.at;
        self.tally.games += 1;
        if let Err(err) = self.write(&bytes) {
            self.fatal = Some(err);
        }
    }

    /// Writes one game where it goes.
    fn write(&mut self, bytes: &[u8]) -> Result<(), CliError> {
        let written = match &mut self.mode {
            Mode::Nowhere => return Ok(()),
            Mode::Stdout(Joined::Sgf) => return Ok(self.stdout.write_all(bytes)?),
            Mode::Stdout(Joined::JsonArray) => {
                let sep: &[u8] = if self.items == 0 { b"[" } else { b"," };
                self.items += 1;
                self.stdout.write_all(sep)?;
                return Ok(self.stdout.write_all(bytes)?);
            }
            Mode::File(out, path) => match out.as_mut() {
                Some(out) => out.write_game(bytes).map_err(|e| (e, path.clone())),
                None => return Ok(()),
            },
            Mode::Dir(_) | Mode::InPlace => {
                if self.current.as_ref().expect("a member").refused {
                    return Ok(());
                }
                if self.current.as_ref().expect("a member").file.is_none() {
                    let Some(out) = self.open_member_file()? else {
                        return Ok(());
                    };
                    self.current.as_mut().expect("a member").file = Some(out);
                }
                let member = self.current.as_mut().expect("a member");
                let file = member.file.as_mut().expect("opened");
                let path = match file {
                    Out::Plain(r) => r.target().to_path_buf(),
                    Out::Lines(lines) => lines.get_ref().target().to_path_buf(),
                };
                file.write_game(bytes).map_err(|e| (e, path))
            }
        };
        match written {
            Ok(()) => Ok(()),
            Err((err, _)) if is_line_break(&err) => {
                let member = self.current.as_mut().expect("a member");
                member.failed.get_or_insert("sgfs_line_break");
                let at = self
                    .at
                    .map(|p| format!(":{}:{}", p.line, p.column))
                    .unwrap_or_default();
                let text = format!("{}{at}: error[sgfs_line_break]: {err}", member.name);
                self.say("sgfs_line_break", &text);
                Ok(())
            }
            Err((err, path)) => Err(CliError::io(
                format!("cannot write {}", display_name(&path)),
                err,
            )),
        }
    }

    /// Opens the current member's own file (`--out DIR`, `--in-place`);
    /// `None` when it is refused (said, and the member failed).
    fn open_member_file(&mut self) -> Result<Option<Out>, CliError> {
        let member = self.current.as_ref().expect("a member");
        let target = match &self.mode {
            Mode::Dir(dir) => mirror(dir, &member.origin, self.paths)
                .map_err(|why| ("bad_member_name", why))
                .and_then(|target| {
                    if self.written.contains(&target) {
                        return Err((
                            "output_collision",
                            format!(
                                "{} was written from another input of this run; left as it is",
                                display_name(&target)
                            ),
                        ));
                    }
                    let same = member
                        .origin
                        .root_path()
                        .filter(|_| !member.origin.is_member());
                    if same.is_some_and(|input| same_file(input, &target)) {
                        return Err((
                            "output_is_input",
                            format!(
                                "{} is the input itself (use --in-place)",
                                display_name(&target)
                            ),
                        ));
                    }
                    Ok(target)
                }),
            _ => match member.origin.root_path() {
                Some(path) if !member.origin.is_member() => Ok(path.to_path_buf()),
                _ => Err((
                    "not_in_place",
                    "an archive member or standard input cannot be rewritten in place".into(),
                )),
            },
        };
        let target = match target {
            Ok(target) => target,
            Err((code, why)) => {
                let text = format!("{}: error[{code}]: {why}", member.name);
                self.refuse(code, &text);
                return Ok(None);
            }
        };
        if matches!(self.mode, Mode::Dir(_)) {
            if let Some(parent) = target.parent() {
                fs::create_dir_all(parent).map_err(|e| {
                    CliError::io(format!("cannot create {}", display_name(parent)), e)
                })?;
            }
            self.written.insert(target.clone());
        }
        match open_out(&target) {
            Ok(replace) => {
                let name = self.current.as_ref().expect("a member").name.clone();
                for stale in replace.removed() {
                    let text = format!(
                        "{name}: note: removed {}, the temporary file of a rewrite that was killed",
                        display_name(stale)
                    );
                    self.say("stale_temporary", &text);
                }
                Ok(Some(Out::new(replace)))
            }
            Err(err) if err.kind() == ReplaceErrorKind::Io => Err(CliError::io(
                format!("cannot write {}", display_name(&target)),
                err.into(),
            )),
            Err(err) => {
                let text = format!("sgf: error[{}]: {err}", err.kind().code());
                self.refuse(err.kind().code(), &text);
                Ok(None)
            }
        }
    }

    /// The current member's file is refused: said, and the member fails.
    fn refuse(&mut self, code: &'static str, text: &str) {
        self.say(code, text);
        let member = self.current.as_mut().expect("a member");
        member.refused = true;
        member.failed.get_or_insert(code);
    }

    /// An input that failed as a whole or stopped (its games before were
    /// handed on).
    fn input_error(&mut self, err: &InputError) {
        self.enter(err.origin());
        let name = origin_name(err.origin());
        let (code, text) = match err.parse_error() {
            Some(parse) if parse.has_position() => {
                let mut text = format!(
                    "{name}:{}:{}: error[{}]: {}",
                    parse.line(),
                    parse.column(),
                    parse.kind().code(),
                    parse.kind()
                );
                if let Some(snippet) = snippet(err.origin(), parse.position()) {
                    text.push('\n');
                    text.push_str(snippet.trim_end());
                }
                (parse.kind().code(), text)
            }
            Some(parse) => (
                parse.kind().code(),
                format!("{name}: error[{}]: {err}", parse.kind().code()),
            ),
            None => (
                err.kind().code(),
                format!("{name}: error[{}]: {err}", err.kind().code()),
            ),
        };
        self.say(code, &text);
        let member = self.current.as_mut().expect("a member was entered");
        member.failed.get_or_insert(code);
    }

    /// Ends the current member: its file renamed into place when it did
    /// not fail (and, in place, when something changed), else dropped.
    fn end_member(&mut self) -> Result<(), CliError> {
        let Some(mut member) = self.current.take() else {
            return Ok(());
        };
        self.tally.inputs += 1;
        if let Some(file) = member.file.take() {
            let keep =
                member.failed.is_none() && (member.changed || !matches!(self.mode, Mode::InPlace));
            if keep {
                let replace = file.into_replace();
                let target = replace.target().to_path_buf();
                match replace.commit() {
                    Ok(()) => {}
                    Err(err) if err.kind() == ReplaceErrorKind::Io => {
                        return Err(CliError::io(
                            format!("cannot write {}", display_name(&target)),
                            err.into(),
                        ))
                    }
                    Err(err) => {
                        let code = err.kind().code();
                        self.say(code, &format!("sgf: error[{code}]: {err}"));
                        member.failed.get_or_insert(code);
                    }
                }
            }
        }
        if member.changed && member.failed.is_none() {
            self.tally.changed_inputs += 1;
        }
        if let Some(code) = member.failed {
            self.tally.failed_inputs += 1;
            self.failures.add(code);
        }
        Ok(())
    }

    /// Closes the output, prints the notes and the failures' summary.
    fn finish(mut self) -> Result<(Status, Tally), CliError> {
        let allowed = self
            .max_failures
            .allows(self.tally.failed_inputs, self.tally.inputs);
        match std::mem::replace(&mut self.mode, Mode::Nowhere) {
            Mode::Stdout(Joined::JsonArray) if allowed => {
                if self.items == 0 {
                    self.stdout.write_all(b"[")?;
                }
                self.stdout.write_all(b"]\n")?;
            }
            Mode::File(Some(out), path) if allowed => {
                if let Err(err) = out.into_replace().commit() {
                    match err.kind() {
                        ReplaceErrorKind::Io => {
                            return Err(CliError::io(
                                format!("cannot write {}", display_name(&path)),
                                err.into(),
                            ))
                        }
                        _ => {
                            let _ =
                                writeln!(io::stderr(), "sgf: error[{}]: {err}", err.kind().code());
                            return Ok((Status::Failed, self.tally));
                        }
                    }
                }
            }
            _ => {}
        }
        self.stdout.flush()?;
        let mut err = io::stderr().lock();
        let _ = self.messages.write_note(&mut err);
        let reasons = self.failures.reasons();
        let said = self.limit_given || self.tally.inputs > 1;
        if let Some(line) = said.then_some(()).and(self.max_failures.summary(
            self.command,
            self.tally.failed_inputs,
            self.tally.inputs,
            &reasons,
        )) {
            let _ = writeln!(err, "{line}");
        }
        let status = if allowed { Status::Ok } else { Status::Failed };
        Ok((status, self.tally))
    }
}

/// The line of a plain SGF file (not compressed, not UTF-16, not `.sgfs`)
/// at `pos`, with a caret under its column, read again from the file.
fn snippet(origin: &Origin, pos: sgf_grove::Position) -> Option<String> {
    use std::io::{Read as _, Seek as _, SeekFrom};
    let path = origin.root_path().filter(|_| !origin.is_member())?;
    if is_sgfs(path) {
        return None;
    }
    let mut file = fs::File::open(path).ok()?;
    let mut head = Vec::new();
    (&mut file)
        .take(sgf_grove::input::SNIFF_LEN as u64)
        .read_to_end(&mut head)
        .ok()?;
    if !sgf_grove::input::sniff(&head).is_text() {
        return None;
    }
    let back = (pos.column as usize)
        .saturating_sub(1)
        .min(64)
        .min(pos.offset);
    let start = pos.offset - back;
    file.seek(SeekFrom::Start(start as u64)).ok()?;
    let mut bytes = Vec::new();
    file.take(back as u64 + 128).read_to_end(&mut bytes).ok()?;
    let mut out = Vec::new();
    let at = sgf_grove::Position {
        offset: back,
        ..pos
    };
    super::write_snippet(&mut out, &bytes, at).ok()?;
    String::from_utf8(out).ok()
}

/// The content of the file at `path` when it is UTF-16 text.
fn utf16_file(path: &Path) -> Option<sgf_grove::input::Content> {
    use std::io::Read as _;
    let mut head = Vec::new();
    fs::File::open(path)
        .ok()?
        .take(sgf_grove::input::SNIFF_LEN as u64)
        .read_to_end(&mut head)
        .ok()?;
    let content = sgf_grove::input::sniff(&head);
    content.is_utf16().then_some(content)
}

/// Whether `a` and `b` are the same existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// What is done to each game before it is written.
#[derive(Clone, Copy, Debug)]
pub enum Edit {
    /// Nothing: the game as parsed.
    None,
    /// The game made editable and transformed
    /// ([`EditableGame::transform`]).
    Transform(Transform),
}

/// Rewrites every input of `args`, each game edited as `edit` says and
/// written as `options` say: to standard output, to `--out-file`, under
/// `--out DIR` or in place.
///
/// # Errors
///
/// As [`run`].
pub fn rewrite(
    command: &'static str,
    args: &RewriteArgs,
    options: WriteOptions,
    edit: Edit,
) -> Result<Status, CliError> {
    let quiet = args.scan.quiet;
    let work = |game: ScanGame<'_>, name: &str| {
        let mut out = GameOut::<()>::new(game.origin());
        out.warnings(&game, name, quiet);
        if let Some(tree) = game.tree() {
            write_game(tree, &options, edit, name, quiet, &mut out);
        }
        out
    };
    let (status, _) = run(command, &args.scan, Dest::Args(args), work, |()| {})?;
    Ok(status)
}

/// Writes `game`, edited as `edit` says, into `out`: whole or not at all.
/// A game the writer refuses (a character the target charset lacks) fails
/// with its position; a game `edit` cannot transform (not Go) is written
/// unchanged, with a warning naming it.
fn write_game<X>(
    game: sgf_grove::GameTree<'_, '_>,
    options: &WriteOptions,
    edit: Edit,
    name: &str,
    quiet: bool,
    out: &mut GameOut<X>,
) {
    let coll = game.collection();
    let mut writer = Writer::with_options(Vec::new(), options.clone());
    let written = match edit {
        Edit::None => writer.write_game(game),
        Edit::Transform(t) => write_transformed(game, t, &mut writer, name, quiet, out),
    };
    match written {
        Ok(()) => {
            if !quiet {
                for d in writer.take_dropped() {
                    out.diags.push(Diag {
                        code: "value_dropped",
                        text: format!(
                            "{name}:{}:{}: warning[value_dropped]: {}[{}] left out: the property holds one value",
                            d.position.line,
                            d.position.column,
                            d.ident,
                            String::from_utf8_lossy(&d.value)
                        ),
                    });
                }
            }
            out.bytes = Some(writer.into_inner());
        }
        Err(err) => {
            let code = err.kind().code();
            let at = if err.has_position() {
                format!("{name}:{}:{}", err.line(), err.column())
            } else {
                let pos = coll.position(game.span().start);
                format!("{name}:{}:{}", pos.line, pos.column)
            };
            let ident = err
                .value_text()
                .map(|t| format!(" {t:?}"))
                .unwrap_or_default();
            out.fail(
                code,
                format!(
                    "{at}: error[{code}]: {}{ident}; the game is left out",
                    err.kind()
                ),
            );
        }
    }
}

/// Writes `game` transformed by `t` with `writer`; a game that is not Go
/// is written unchanged, with a warning.
fn write_transformed<X>(
    game: sgf_grove::GameTree<'_, '_>,
    t: Transform,
    writer: &mut Writer<Vec<u8>>,
    name: &str,
    quiet: bool,
    out: &mut GameOut<X>,
) -> sgf_grove::Result<()> {
    let mut edit = EditableGame::from_game(game);
    match edit.transform(t) {
        Ok(()) => {
            let bytes = edit.write_with(writer.options())?;
            writer.get_mut().write_all(&bytes)?;
            Ok(())
        }
        Err(err) if err.kind() == ErrorKind::NotGo => {
            if !quiet {
                let pos = game.collection().position(game.span().start);
                let gm = game.root().get_raw("GM").map(String::from_utf8_lossy);
                out.diags.push(Diag {
                    code: "not_go",
                    text: format!(
                        "{name}:{}:{}: warning[not_go]: a game that is not Go (GM[{}]) is written untransformed",
                        pos.line,
                        pos.column,
                        gm.as_deref().unwrap_or("")
                    ),
                });
            }
            writer.write_game(game)
        }
        Err(err) => Err(err),
    }
}

/// The [`Replace`] of an output file: an existing file is replaced, a new
/// one appears whole.
///
/// # Errors
///
/// What [`Replace::new`] refuses.
pub fn open_out(target: &Path) -> Result<Replace, ReplaceError> {
    if fs::symlink_metadata(target).is_ok() {
        Replace::with_hooks(target, test_hooks())
    } else {
        Replace::create(target)
    }
}

/// Whether `path` is an `.sgfs` file (one game per line), by its name.
pub fn is_sgfs(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("sgfs"))
}

/// The test hooks of [`Replace`] the integration tests set through the
/// environment: `SGF_GROVE_TEST_PAUSE_BEFORE_RENAME_MS` pauses before the
/// last check and the rename, so that a test can change the file, start
/// a second rewrite, or kill the process at that point. Not for users.
fn test_hooks() -> Hooks {
    let pause = std::env::var("SGF_GROVE_TEST_PAUSE_BEFORE_RENAME_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .map(Duration::from_millis);
    Hooks {
        pause_before_rename: pause,
        ..Hooks::default()
    }
}
