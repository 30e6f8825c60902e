//! Expanding the paths of `sgf check` into the list of inputs.
//!
//! - `-` is standard input.
//! - A path named on the command line is checked whatever it is: a regular
//!   file (any extension), or a FIFO or device, read as a stream.
//! - A folder is walked recursively (with an explicit stack: depth is
//!   unbounded) for names ending in `.sgf` in any letter case. Only regular
//!   files are taken, directly or through a symbolic link. Anything else
//!   with such a name (a FIFO, a socket, a device, a link that leads
//!   nowhere or in a loop) is skipped and listed: reading a FIFO would wait
//!   for a writer for ever, and a link to `/dev/zero` never ends. Links to
//!   folders are not followed (no cycles).
//! - A folder that holds no `.sgf` file at all is an error of its own.
//!
//! The inputs are sorted and deduplicated, so the output is the same from
//! run to run.

use std::fs::{self, FileType};
use std::io;
use std::path::{Path, PathBuf};

/// One input to check.
#[derive(Debug)]
pub struct Entry {
    /// The path (`-` for standard input).
    pub path: PathBuf,
    /// What is known about it before reading.
    pub kind: EntryKind,
}

/// What is known about an [`Entry`] before reading.
#[derive(Debug)]
pub enum EntryKind {
    /// Standard input.
    Stdin,
    /// A file (or a FIFO or device named explicitly) to read.
    File,
    /// A path that failed before reading: the code and the message.
    Failed(&'static str, String),
}

/// Something under a folder with an `.sgf` name that is not a regular file.
#[derive(Debug)]
pub struct Skipped {
    /// Its path.
    pub path: PathBuf,
    /// What it is: `fifo`, `socket`, `character device`, `block device`,
    /// `broken symlink`, `symlink loop`, or `unresolvable symlink` (no
    /// access, say).
    pub kind: &'static str,
}

/// The result of [`collect`].
#[derive(Debug, Default)]
pub struct Walk {
    /// The inputs, sorted by path.
    pub entries: Vec<Entry>,
    /// What the folder walks skipped, sorted by path.
    pub skipped: Vec<Skipped>,
}

/// Expands `paths` into the inputs to check; see the module docs.
pub fn collect(paths: &[PathBuf]) -> Walk {
    let mut walk = Walk::default();
    for path in paths {
        if super::super::is_stdin(path) {
            walk.entries.push(Entry {
                path: path.clone(),
                kind: EntryKind::Stdin,
            });
            continue;
        }
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => walk_folder(path, &mut walk),
            // Regular or not: named explicitly, it is read.
            Ok(_) => walk.entries.push(Entry {
                path: path.clone(),
                kind: EntryKind::File,
            }),
            Err(err) => walk.entries.push(failed(path.clone(), &err)),
        }
    }
    walk.entries.sort_by(|a, b| a.path.cmp(&b.path));
    walk.entries.dedup_by(|a, b| a.path == b.path);
    walk.skipped.sort_by(|a, b| a.path.cmp(&b.path));
    walk.skipped.dedup_by(|a, b| a.path == b.path);
    walk
}

fn failed(path: PathBuf, err: &io::Error) -> Entry {
    Entry {
        path,
        kind: EntryKind::Failed("io", err.to_string()),
    }
}

/// Walks the folder `root`, adding its `.sgf` files to `walk`; a folder
/// with none becomes a failed entry.
fn walk_folder(root: &Path, walk: &mut Walk) {
    let before = walk.entries.len();
    let skipped_before = walk.skipped.len();
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let dir = match fs::read_dir(&folder) {
            Ok(dir) => dir,
            Err(err) => {
                walk.entries.push(failed(folder, &err));
                continue;
            }
        };
        for item in dir {
            let item = match item {
                Ok(item) => item,
                Err(err) => {
                    walk.entries.push(failed(folder.clone(), &err));
                    break;
                }
            };
            let path = item.path();
            let file_type = match item.file_type() {
                Ok(t) => t,
                Err(err) => {
                    walk.entries.push(failed(path, &err));
                    continue;
                }
            };
            if file_type.is_dir() {
                folders.push(path);
                continue;
            }
            if !has_sgf_extension(&path) {
                continue;
            }
            match classify(&path, file_type) {
                Ok(()) => walk.entries.push(Entry {
                    path,
                    kind: EntryKind::File,
                }),
                // A link to a folder is not followed, and not listed.
                Err(None) => {}
                Err(Some(kind)) => walk.skipped.push(Skipped { path, kind }),
            }
        }
    }
    if walk.entries.len() == before {
        let skipped = walk.skipped.len() - skipped_before;
        let message = if skipped > 0 {
            format!("no SGF files in this folder ({skipped} not regular files skipped)")
        } else {
            "no SGF files in this folder".to_owned()
        };
        walk.entries.push(Entry {
            path: root.to_path_buf(),
            kind: EntryKind::Failed("no_sgf_files", message),
        });
    }
}

/// `Ok` for a regular file (or a link to one); else what it is, or `None`
/// for a link to a folder.
fn classify(path: &Path, file_type: FileType) -> Result<(), Option<&'static str>> {
    if file_type.is_file() {
        return Ok(());
    }
    let file_type = if file_type.is_symlink() {
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => return Err(None),
            Ok(meta) if meta.is_file() => return Ok(()),
            Ok(meta) => meta.file_type(),
            Err(err) if err.kind() == io::ErrorKind::NotFound => {
                return Err(Some("broken symlink"))
            }
            Err(err) if is_loop(&err) => return Err(Some("symlink loop")),
            Err(_) => return Err(Some("unresolvable symlink")),
        }
    } else {
        file_type
    };
    Err(Some(special_kind(file_type)))
}

/// Whether `err` is `ELOOP`: too many levels of symbolic links. (Its
/// `io::ErrorKind` is not stable yet.)
fn is_loop(err: &io::Error) -> bool {
    const ELOOP: i32 = if cfg!(any(target_os = "linux", target_os = "android")) {
        40
    } else if cfg!(any(
        target_os = "macos",
        target_os = "ios",
        target_os = "freebsd",
        target_os = "openbsd",
        target_os = "netbsd"
    )) {
        62
    } else {
        -1
    };
    err.raw_os_error() == Some(ELOOP)
}

/// The name of a file type that is neither a regular file nor a folder.
fn special_kind(file_type: FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if file_type.is_fifo() {
            return "fifo";
        }
        if file_type.is_socket() {
            return "socket";
        }
        if file_type.is_char_device() {
            return "character device";
        }
        if file_type.is_block_device() {
            return "block device";
        }
    }
    let _ = file_type;
    "not a regular file"
}

/// Whether the file name ends in `.sgf`, in any letter case.
fn has_sgf_extension(path: &Path) -> bool {
    path.extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("sgf"))
}
