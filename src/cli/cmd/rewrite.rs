//! What `fmt`, `strip` and `transform` share: each input read as a stream
//! (one game in memory at a time), each game edited when the command says
//! so ([`Edit`]), and written by a [`Writer`] with the command's
//! [`WriteOptions`], to standard output, to a file (`--out`) or, with
//! `--in-place`, over the file.
//!
//! In place (and to `--out`), the output goes through
//! [`sgf_grove::atomic::Replace`]: a temporary file beside the file
//! (`.<name>.<pid>-<n>.sgf-grove-tmp`, which folder scans skip and
//! report), given the file's owner, group and mode, synced, and renamed
//! over the file only once every game was written and the file was seen
//! unchanged: the file holds either its old bytes or its new ones,
//! whatever happens. A symbolic link is written through to its target; a
//! file with several hard links, or locked by another rewrite, is refused.
//! A failed input (not SGF, a defect in strict mode, a character the
//! target charset lacks, a failed write) drops the temporary file and
//! leaves the file as it was. A process killed while writing can leave the
//! temporary file behind, never a damaged original; the next rewrite of the
//! file removes it. An `.sgfs` file stays one game per line
//! ([`OneLine`]).

use super::one_line::{is_line_break, OneLine};
use super::{display_name, input_parse_options, is_stdin, open_reporting, parse_streaming};
use super::{CliError, Status};
use crate::args::RewriteArgs;
use sgf_grove::atomic::{Hooks, Replace, ReplaceError, ReplaceErrorKind};
use sgf_grove::edit::EditableGame;
use sgf_grove::game::Transform;
use sgf_grove::writer::WriteOptions;
use sgf_grove::{ErrorKind, Writer};
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What is done to each game before it is written.
#[derive(Clone, Copy, Debug)]
pub enum Edit {
    /// Nothing: the game as parsed.
    None,
    /// The game made editable and transformed
    /// ([`EditableGame::transform`]).
    Transform(Transform),
}

/// Rewrites every input of `args` as `options` say.
///
/// # Errors
///
/// An unreadable input, a failed write, or `--in-place` on standard input.
pub fn rewrite(args: &RewriteArgs, options: WriteOptions) -> Result<Status, CliError> {
    rewrite_to(args, options, Edit::None, None)
}

/// Rewrites every input of `args`, each game edited as `edit` says and
/// written as `options` say: to standard output, in place, or all to the
/// file `out`.
///
/// # Errors
///
/// An unreadable input, a failed write, or `--in-place` on standard input.
pub fn rewrite_to(
    args: &RewriteArgs,
    options: WriteOptions,
    edit: Edit,
    out: Option<&Path>,
) -> Result<Status, CliError> {
    if args.in_place && args.paths.iter().any(|p| is_stdin(p)) {
        return Err(CliError::io(
            "--in-place",
            io::Error::new(io::ErrorKind::InvalidInput, "cannot rewrite standard input"),
        ));
    }
    if let Some(out) = out {
        return to_file(args, &args.paths, out, &options, edit);
    }
    let mut status = Status::Ok;
    let mut stdout = (!args.in_place).then(|| {
        Writer::with_options(
            BufWriter::with_capacity(64 * 1024, io::stdout().lock()),
            options.clone(),
        )
    });
    for path in &args.paths {
        let one = match &mut stdout {
            Some(writer) => write_one(args, path, writer, edit)?,
            None => to_file(args, std::slice::from_ref(path), path, &options, edit)?,
        };
        if one == Status::Failed {
            status = Status::Failed;
        }
    }
    if let Some(writer) = stdout {
        writer.into_inner().flush()?;
    }
    Ok(status)
}

/// Writes the inputs `paths` to the file `target` through a temporary file
/// renamed over it ([`replace_file`]; an existing `target` keeps its owner
/// and mode, a new one gets those a new file gets).
fn to_file(
    args: &RewriteArgs,
    paths: &[PathBuf],
    target: &Path,
    options: &WriteOptions,
    edit: Edit,
) -> Result<Status, CliError> {
    let name = display_name(target);
    let replace = match open_out(target) {
        Ok(replace) => replace,
        Err(err) => return refused(&name, err),
    };
    replace_with(replace, &name, |out| {
        let mut writer = Writer::with_options(out, options.clone());
        let mut status = Status::Ok;
        for path in paths {
            if write_one(args, path, &mut writer, edit)? == Status::Failed {
                status = Status::Failed;
            }
        }
        Ok((status, true))
    })
}

/// Replaces the file at `path` by what `write` writes, through
/// [`Replace`]: into a temporary file beside it (beside the target of a
/// symbolic link), renamed over it with its owner, group and mode once
/// `write` returns [`Status::Ok`] and `true` (keep). On
/// [`Status::Failed`], or `false`, the temporary file is removed and the
/// file stays as it was. An `.sgfs` file is written one game per line
/// ([`OneLine`]).
///
/// A file that cannot be replaced safely — several hard links, another
/// rewrite holding its lock, a change on disk meanwhile, an owner that
/// cannot be given back — is left as it was, said on standard error
/// (`sgf: error[CODE]: …`), and is [`Status::Failed`].
///
/// # Errors
///
/// What `write` returns, or a failure to create, write or rename the
/// temporary file.
pub fn replace_file(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<(Status, bool), CliError>,
) -> Result<Status, CliError> {
    let name = display_name(path);
    match Replace::with_hooks(path, test_hooks()) {
        Ok(replace) => replace_with(replace, &name, write),
        Err(err) => refused(&name, err),
    }
}

/// The part of [`replace_file`] once the temporary file exists.
fn replace_with(
    mut replace: Replace,
    name: &str,
    write: impl FnOnce(&mut dyn Write) -> Result<(Status, bool), CliError>,
) -> Result<Status, CliError> {
    for stale in replace.removed() {
        let _ = writeln!(
            io::stderr(),
            "{name}: note: removed {}, the temporary file of a rewrite that was killed",
            display_name(stale)
        );
    }
    let (status, keep) = if is_sgfs(replace.target()) {
        write(&mut OneLine::new(&mut replace))?
    } else {
        write(&mut replace)?
    };
    if status == Status::Failed || !keep {
        // The temporary file is removed when dropped; the file stays.
        return Ok(status);
    }
    match replace.commit() {
        Ok(()) => Ok(Status::Ok),
        Err(err) => refused(name, err),
    }
}

/// The [`Replace`] of an output file `--out` names: an existing file is
/// replaced, a new one appears whole.
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

/// A file [`Replace`] refused: said on standard error and
/// [`Status::Failed`], the file as it was; a plain I/O failure is a
/// [`CliError`].
pub fn refused(name: &str, err: ReplaceError) -> Result<Status, CliError> {
    if err.kind() == ReplaceErrorKind::Io {
        return Err(CliError::io(format!("cannot write {name}"), err.into()));
    }
    let _ = writeln!(io::stderr(), "sgf: error[{}]: {err}", err.kind().code());
    Ok(Status::Failed)
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

/// Reads the input at `path` as a stream and writes each game with
/// `writer`, edited first as `edit` says. Each game is written whole or
/// not at all: a game the writer refuses (a character the target charset
/// lacks) is reported with its position and left out, and the games after
/// it are still written (status [`Status::Failed`], so that `--in-place`
/// leaves the file as it was). A game `edit` cannot transform (not Go) is
/// written unchanged, with a warning naming it.
fn write_one<W: Write>(
    args: &RewriteArgs,
    path: &Path,
    writer: &mut Writer<W>,
    edit: Edit,
) -> Result<Status, CliError> {
    let name = display_name(path);
    let Some(mut input) = open_reporting(path, &name)? else {
        return Ok(Status::Failed);
    };
    let options = input_parse_options(args.strict, args.charset, input.decoded_from);
    // One game at a time into `game_out`, handed to `writer`'s output once
    // it is whole.
    let mut game_out = Writer::with_options(Vec::new(), writer.options().clone());
    let mut failed = false;
    let status = parse_streaming(&mut input, options, &name, |coll, err_out| {
        for game in coll.games() {
            game_out.get_mut().clear();
            let written = match edit {
                Edit::None => game_out.write_game(game),
                Edit::Transform(t) => write_transformed(game, t, &mut game_out, &name, err_out),
            };
            match written {
                Ok(()) => {
                    if let Err(io) = writer.get_mut().write_all(game_out.get_mut()) {
                        if !is_line_break(&io) {
                            return Err(io);
                        }
                        // An `.sgfs` target: the game would span lines.
                        failed = true;
                        super::note_failure();
                        let pos = coll.position(game.root().offset());
                        let _ = writeln!(
                            err_out,
                            "{name}:{}:{}: error[sgfs_line_break]: {io}",
                            pos.line, pos.column
                        );
                        continue;
                    }
                    for d in game_out.take_dropped() {
                        let _ = writeln!(
                            err_out,
                            "{name}:{}:{}: warning[value_dropped]: {}[{}] left out: the property holds one value",
                            d.position.line,
                            d.position.column,
                            d.ident,
                            String::from_utf8_lossy(&d.value)
                        );
                    }
                }
                Err(err) if err.kind() == ErrorKind::Io => {
                    return Err(super::io_error(&err).expect("an I/O error"));
                }
                Err(err) => {
                    failed = true;
                    super::note_failure();
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
                    let _ = writeln!(
                        err_out,
                        "{at}: error[{code}]: {}{ident}; the game is left out",
                        err.kind()
                    );
                }
            }
        }
        Ok(())
    })?;
    Ok(if failed { Status::Failed } else { status })
}

/// Writes `game` transformed by `t` with `writer`; a game that is not Go
/// is written unchanged, with a warning on `err_out`.
fn write_transformed(
    game: sgf_grove::GameTree<'_, '_>,
    t: Transform,
    writer: &mut Writer<Vec<u8>>,
    name: &str,
    err_out: &mut dyn Write,
) -> sgf_grove::Result<()> {
    let mut edit = EditableGame::from_game(game);
    match edit.transform(t) {
        Ok(()) => {
            let bytes = edit.write_with(writer.options())?;
            writer.get_mut().write_all(&bytes)?;
            Ok(())
        }
        Err(err) if err.kind() == ErrorKind::NotGo => {
            let pos = game.collection().position(game.span().start);
            let gm = game.root().raw("GM").map(String::from_utf8_lossy);
            let _ = writeln!(
                err_out,
                "{name}:{}:{}: warning[not_go]: a game that is not Go (GM[{}]) is written untransformed",
                pos.line,
                pos.column,
                gm.as_deref().unwrap_or("")
            );
            writer.write_game(game)
        }
        Err(err) => Err(err),
    }
}
