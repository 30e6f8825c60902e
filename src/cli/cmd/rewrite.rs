//! What `fmt` and `strip` share: each input read as a stream (one game in
//! memory at a time) and written by a [`Writer`] with the command's
//! [`WriteOptions`], to standard output or, with `--in-place`, over the
//! file.
//!
//! In place, the output goes to a temporary file in the file's folder
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
use sgf_grove::writer::WriteOptions;
use sgf_grove::{ErrorKind, Writer};
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::Path;

/// Rewrites every input of `args` as `options` say.
///
/// # Errors
///
/// An unreadable input, a failed write, or `--in-place` on standard input.
pub fn rewrite(args: &RewriteArgs, options: WriteOptions) -> Result<Status, CliError> {
    if args.in_place && args.paths.iter().any(|p| is_stdin(p)) {
        return Err(CliError::io(
            "--in-place",
            io::Error::new(io::ErrorKind::InvalidInput, "cannot rewrite standard input"),
        ));
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
            Some(writer) => write_one(args, path, writer)?,
            None => in_place(args, path, &options)?,
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

/// Rewrites the file at `path` through a temporary file renamed over it.
fn in_place(args: &RewriteArgs, path: &Path, options: &WriteOptions) -> Result<Status, CliError> {
    replace_file(path, |out| {
        let mut writer = Writer::with_options(out, options.clone());
        Ok((write_one(args, path, &mut writer)?, true))
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
/// `writer`. A character the target charset lacks is reported like a parse
/// error, and stops the output at the node that holds it.
fn write_one<W: Write>(
    args: &RewriteArgs,
    path: &Path,
    writer: &mut Writer<W>,
) -> Result<Status, CliError> {
    let name = display_name(path);
    let Some(mut input) = open_reporting(path, &name)? else {
        return Ok(Status::Failed);
    };
    let options = input_parse_options(args.strict, args.charset, input.decoded_from);
    let mut failed = false;
    let status = parse_streaming(&mut input, options, &name, |coll, err_out| {
        if failed {
            return Ok(());
        }
        match writer.write_collection(coll) {
            Ok(()) => Ok(()),
            Err(err) if err.kind() == ErrorKind::Io => {
                Err(super::io_error(&err).expect("an I/O error"))
            }
            Err(err) => {
                failed = true;
                let code = err.kind().code();
                let ident = err.value_text().unwrap_or_default();
                let _ = writeln!(
                    err_out,
                    "{name}:{}:{}: error[{code}]: {} {ident:?}",
                    err.line(),
                    err.column(),
                    err.kind()
                );
                Ok(())
            }
        }
    })?;
    Ok(if failed { Status::Failed } else { status })
}
