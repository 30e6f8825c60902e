//! Folders held open by a walk, so that the files found in them are opened
//! relative to the folder: the system looks up one name, not every part
//! of the path again (a folder of game records holds tens of thousands of
//! files, each opened once).
//!
//! A [`Held`] folder is shared by the sources found in it and closed when
//! the last of them is read. How many are open at once is bounded
//! ([`MAX_HELD`]): a walk far ahead of the readers, in a tree of many
//! small folders, gives the files of further folders no held folder, and
//! they are opened by their path as on other systems.

use std::ffi::OsStr;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt as _;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rustix::fs::{FileType, Mode, OFlags};

/// How many folders a walk holds open at once, at most.
pub(crate) const MAX_HELD: usize = 64;

/// A folder open for the files found in it.
#[derive(Debug)]
pub(crate) struct Held {
    fd: OwnedFd,
    /// How many folders of this walk are open (this one counted).
    open: Arc<AtomicUsize>,
}

impl Drop for Held {
    fn drop(&mut self) {
        self.open.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The folders a walk holds, counted.
#[derive(Debug, Default)]
pub(crate) struct Holder {
    open: Arc<AtomicUsize>,
}

impl Holder {
    /// `fd` held for the files of its folder, or `None` (closed) when the
    /// walk holds [`MAX_HELD`] folders already.
    pub(crate) fn hold(&self, fd: OwnedFd) -> Option<Arc<Held>> {
        if self.open.load(Ordering::Relaxed) >= MAX_HELD {
            return None;
        }
        self.open.fetch_add(1, Ordering::Relaxed);
        Some(Arc::new(Held {
            fd,
            open: Arc::clone(&self.open),
        }))
    }
}

/// The held folder of one source: taken away (and the folder closed once
/// no other source holds it) when the source has been read.
#[derive(Debug, Default)]
pub(crate) struct InFolder(Mutex<Option<Arc<Held>>>);

impl InFolder {
    pub(crate) fn new(held: Option<Arc<Held>>) -> InFolder {
        InFolder(Mutex::new(held))
    }

    /// Opens the file `name` of the held folder for reading; `None` when no
    /// folder is held (any more).
    pub(crate) fn open(&self, name: &OsStr) -> Option<io::Result<std::fs::File>> {
        let held = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let held = held.as_ref()?;
        let flags = OFlags::RDONLY | OFlags::CLOEXEC;
        Some(
            rustix::fs::openat(&held.fd, name.as_bytes(), flags, Mode::empty())
                .map(std::fs::File::from)
                .map_err(io::Error::from),
        )
    }

    /// Lets the folder go: this source has been read.
    pub(crate) fn release(&self) {
        let held = self.0.lock().unwrap_or_else(|p| p.into_inner()).take();
        drop(held);
    }
}

/// One entry of a folder: its name, what it is, and its size when it is
/// a regular file and sizes were asked for.
pub(crate) struct Listed {
    pub(crate) name: std::ffi::OsString,
    pub(crate) kind: io::Result<Kind>,
    pub(crate) size: Option<u64>,
}

/// What an entry of a folder is, as the folder says (no look at the entry
/// itself, unless the file system does not say).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    File,
    Dir,
    Symlink,
    Fifo,
    Socket,
    CharDevice,
    BlockDevice,
    Other,
}

impl From<FileType> for Kind {
    fn from(t: FileType) -> Kind {
        match t {
            FileType::RegularFile => Kind::File,
            FileType::Directory => Kind::Dir,
            FileType::Symlink => Kind::Symlink,
            FileType::Fifo => Kind::Fifo,
            FileType::Socket => Kind::Socket,
            FileType::CharacterDevice => Kind::CharDevice,
            FileType::BlockDevice => Kind::BlockDevice,
            FileType::Unknown => Kind::Other,
        }
    }
}

/// The folder at `path`, open, and its entries (without `.` and `..`), in
/// the order the system gives them, with the size of each regular file
/// when `sized` (a look at each); an error reading them ends the list
/// (the entries before it are kept).
pub(crate) fn list(
    path: &Path,
    sized: bool,
) -> io::Result<(OwnedFd, Vec<Listed>, Option<io::Error>)> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    let fd = rustix::fs::open(path, flags, Mode::empty())?;
    // A second descriptor for the reading (its position moves); the first
    // is the one held.
    let mut dir = rustix::fs::Dir::new(fd.try_clone()?)?;
    let mut entries = Vec::new();
    let mut error = None;
    while let Some(entry) = dir.read() {
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                error = Some(io::Error::from(err));
                break;
            }
        };
        let name = entry.file_name().to_bytes();
        if name == b"." || name == b".." {
            continue;
        }
        let kind = match entry.file_type() {
            // Not said by every file system: asked of the entry.
            FileType::Unknown => {
                rustix::fs::statat(&fd, name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW)
                    .map(|stat| Kind::from(FileType::from_raw_mode(stat.st_mode)))
                    .map_err(io::Error::from)
            }
            known => Ok(Kind::from(known)),
        };
        let size = match kind {
            Ok(Kind::File) if sized => {
                rustix::fs::statat(&fd, name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW)
                    .ok()
                    .map(|stat| stat.st_size as u64)
            }
            _ => None,
        };
        entries.push(Listed {
            name: OsStr::from_bytes(name).to_owned(),
            kind,
            size,
        });
    }
    Ok((fd, entries, error))
}

/// The device and inode of the open folder `fd`.
pub(crate) fn id_of(fd: impl AsFd) -> Option<(u64, u64)> {
    let stat = rustix::fs::fstat(fd).ok()?;
    #[allow(clippy::useless_conversion, clippy::unnecessary_cast)]
    Some((stat.st_dev as u64, stat.st_ino as u64))
}
