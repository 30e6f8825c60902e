//! What `fmt`, `strip`, `transform`, `fix` and `dump` share: every input
//! read through [`sgf_grove::input::Inputs`] (files, folders, compressed
//! files, archives, `.sgfs`, standard input) on all cores
//! ([`Inputs::par_scan_games`](sgf_grove::input::Inputs::par_scan_games)),
//! each game turned into its output by the command's work function on a
//! worker thread, and the outputs written in the order of the inputs,
//! whatever `-j`: to standard output (one collection), to one file
//! (`--out-file`), to a file per input under a folder (`--out DIR`,
//! [`mirror`](super::target::mirror)) or over each file (`--in-place`).
//!
//! Every file is written through [`sgf_grove::atomic::Replace`]: a
//! temporary file beside it (`.<name>.<pid>-<n>.sgf-grove-tmp`, which
//! folder scans skip and report), given the file's owner, group and mode,
//! synced (`--in-place`; `--out DIR` syncs the whole batch once at the
//! end, [`sink`](super::sink)), and renamed over it only once the input ended without failure
//! and the file was seen unchanged: the file holds either its old bytes or
//! its new ones, whatever happens. A symbolic link is written through to
//! its target; a file with several hard links, or locked by another
//! rewrite, is refused. A process killed while writing can leave the
//! temporary file behind, never a damaged original; the next rewrite of the
//! file removes it. An `.sgfs` file stays one game per line
//! ([`OneLine`](super::one_line::OneLine)).
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

use super::sink::Sink;
use super::{CliError, Status};
use crate::args::RewriteArgs;
use crate::name::origin_name;
use crate::scan::{Progress, ScanArgs};
use sgf_grove::edit::EditableGame;
use sgf_grove::game::Transform;
use sgf_grove::input::{Origin, ScanGame, Special};
use sgf_grove::writer::WriteOptions;
use sgf_grove::{ErrorKind, Writer};
use std::fs;
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

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
        if game.index() == Some(0)
            && !game.origin().is_member()
            && let Some(content) = game.origin().root_path().and_then(utf16_file)
        {
            self.diags.push(Diag {
                code: super::UTF16_CODE,
                text: format!(
                    "{name}: warning[{}]: {}",
                    super::UTF16_CODE,
                    super::utf16_message(content)
                ),
            });
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
    let progress = Progress::new(scan);
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
                        let key = crate::cmd::origin_key(&out.origin);
                        progress.input(key);
                        if out.failed.is_some() {
                            progress.failure(key);
                        }
                        if let Some(bytes) = &out.bytes {
                            progress.game(bytes.len() as u64);
                        }
                        sink.game(out, quiet, &mut extra);
                    }
                    Err(err) => {
                        let key = crate::cmd::origin_key(err.origin());
                        progress.input(key);
                        progress.failure(key);
                        sink.input_error(&err);
                    }
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
                let gm = game.root().raw("GM").map(String::from_utf8_lossy);
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
