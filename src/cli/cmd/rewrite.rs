//! What `fmt`, `strip` and `transform` share: each input read as a stream
//! (one game in memory at a time), each game edited when the command says
//! so ([`Edit`]), and written by a [`Writer`] with the command's
//! [`WriteOptions`], to standard output, to a file (`--out`) or, with
//! `--in-place`, over the file.
//!
//! In place (and to `--out`), the output goes to a temporary file in the file's folder
//! (`.<name>.sgf-XXXXXX`), which gets the file's permissions, is synced, and
//! is renamed over the file only once every game was written: a rename
//! within a folder is atomic, so the file holds either its old bytes or
//! its new ones, whatever happens. A failed input (not SGF, a defect in
//! strict mode, a character the target charset lacks, a failed write)
//! drops the temporary file and leaves the file as it was. A process
//! killed while writing can leave the temporary file behind, never a
//! damaged original.

use super::{display_name, input_parse_options, is_stdin, open_reporting, parse_streaming};
use super::{CliError, Status};
use crate::args::RewriteArgs;
use sgf_grove::edit::EditableGame;
use sgf_grove::game::Transform;
use sgf_grove::writer::WriteOptions;
use sgf_grove::{ErrorKind, Writer};
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

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
/// renamed over it ([`replace_file`]; `target` keeps its permissions, a
/// new one gets those a new file gets).
fn to_file(
    args: &RewriteArgs,
    paths: &[PathBuf],
    target: &Path,
    options: &WriteOptions,
    edit: Edit,
) -> Result<Status, CliError> {
    if !target.exists() && !paths.iter().any(|p| p == target) {
        // A new file: created empty first, for the permissions it gets.
        fs::File::create(target)
            .map_err(|e| CliError::io(format!("cannot create {}", display_name(target)), e))?;
    }
    replace_file(target, |out| {
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

/// Replaces the file at `path` by what `write` writes: into a temporary
/// file in the same folder, renamed over the file (with its permissions)
/// once `write` returns [`Status::Ok`] and `true` (keep). On
/// [`Status::Failed`], or `false`, the temporary file is removed and the
/// file stays as it was.
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
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let permissions = fs::metadata(path)
        .map_err(|e| CliError::io(format!("cannot read {name}"), e))?
        .permissions();
    let file_name = path
        .file_name()
        .map_or_else(|| "sgf".into(), |n| n.to_string_lossy());
    let temp = tempfile::Builder::new()
        .prefix(&format!(".{file_name}.sgf-"))
        .tempfile_in(dir)
        .map_err(|e| CliError::io(format!("cannot create a temporary file beside {name}"), e))?;
    let mut out = BufWriter::with_capacity(64 * 1024, temp);
    let (status, keep) = write(&mut out)?;
    if status == Status::Failed || !keep {
        // The temporary file is removed when dropped; the file stays.
        return Ok(status);
    }
    let cannot = |e| CliError::io(format!("cannot write {name}"), e);
    let temp = out.into_inner().map_err(|e| cannot(e.into_error()))?;
    temp.as_file()
        .set_permissions(permissions)
        .map_err(cannot)?;
    temp.as_file().sync_all().map_err(cannot)?;
    temp.persist(path).map_err(|e| cannot(e.error))?;
    Ok(Status::Ok)
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
                    writer.get_mut().write_all(game_out.get_mut())?;
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
            let gm = game.root().get_raw("GM").map(String::from_utf8_lossy);
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
