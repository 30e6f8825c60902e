//! Where the games of [`run`](super::rewrite::run) go, in the order of
//! the inputs: standard output, one file (`--out-file`), a file per input
//! under `--out DIR` ([`mirror`]) or each file itself (`--in-place`); and
//! what is counted on the way (inputs, failures by reason, messages within
//! `--max-messages`).
//!
//! Every file is written through [`Replace`]: a temporary file beside it,
//! renamed over it once its input ended without failure (and, in place,
//! once something changed), dropped otherwise. In place, each file is
//! synced before its rename and its folder after; under `--out DIR` the
//! files are a batch ([`Replace::batched`]): no sync per file, stale
//! temporary files removed once per folder, and one sync of the whole at
//! the end ([`sync_batch`]). A killed run leaves each file old or new
//! either way; only a power loss before the end can lose the new bytes of
//! `--out DIR`.

use super::one_line::{is_line_break, OneLine};
use super::rewrite::{Dest, GameOut, Joined, Tally};
use super::target::{check_in_place, check_out_dir, mirror};
use super::{CliError, Status};
use crate::failures::MaxFailures;
use crate::messages::Messages;
use crate::name::{display_name, origin_name};
use crate::scan::ScanArgs;
use sgf_grove::atomic::{
    remove_stale_in, sync_batch, Hooks, Replace, ReplaceError, ReplaceErrorKind,
};
use sgf_grove::input::{InputError, Origin};
use std::collections::HashSet;
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

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
        if is_sgfs(replace.target()) {
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
pub struct Sink<'a> {
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
    /// `--out DIR`: the folders whose stale temporary files were removed.
    cleaned: HashSet<PathBuf>,
    tally: Tally,
    failures: super::Failures,
    /// A failure that stops the run (a failed write).
    pub fatal: Option<CliError>,
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
    /// Where `dest` says, for a run over `inputs` with `scan`'s options;
    /// `--in-place` and `--out` are checked here, before anything is read.
    ///
    /// # Errors
    ///
    /// What `--in-place` or `--out` refuse, or `--out-file` that cannot be
    /// opened.
    pub fn open(
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
            cleaned: HashSet::new(),
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
    pub fn game<X>(&mut self, out: GameOut<X>, quiet: bool, extra: &mut impl FnMut(X)) {
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
        let batched = matches!(self.mode, Mode::Dir(_));
        let mut stale = Vec::new();
        if batched {
            if let Some(parent) = target.parent()
                && !self.cleaned.contains(parent)
            {
                fs::create_dir_all(parent).map_err(|e| {
                    CliError::io(format!("cannot create {}", display_name(parent)), e)
                })?;
                stale = remove_stale_in(parent);
                self.cleaned.insert(parent.to_path_buf());
            }
            self.written.insert(target.clone());
        }
        let opened = if batched {
            Replace::batched(&target, test_hooks())
        } else {
            open_out(&target)
        };
        match opened {
            Ok(replace) => {
                let name = self.current.as_ref().expect("a member").name.clone();
                for stale in stale.iter().chain(replace.removed()) {
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
    pub fn input_error(&mut self, err: &InputError) {
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
    pub fn end_member(&mut self) -> Result<(), CliError> {
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
    pub fn finish(mut self) -> Result<(Status, Tally), CliError> {
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
            Mode::Dir(dir) if !self.written.is_empty() => {
                let files: Vec<PathBuf> = self.written.iter().cloned().collect();
                sync_batch(&dir, &files).map_err(|e| {
                    CliError::io(
                        format!("cannot sync the files under {}", display_name(&dir)),
                        e,
                    )
                })?;
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

/// Whether `a` and `b` are the same existing file (by device and inode:
/// one look at each, where a comparison of canonical paths costs a look
/// at every folder of both).
#[cfg(unix)]
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    let Ok(b) = fs::metadata(b) else {
        return false;
    };
    fs::metadata(a).is_ok_and(|a| (a.dev(), a.ino()) == (b.dev(), b.ino()))
}

/// Whether `a` and `b` are the same existing file.
#[cfg(not(unix))]
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
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
