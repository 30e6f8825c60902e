//! The folder walk: the files of a folder tree in the order of their
//! paths, with what is not a regular file skipped and listed.
//!
//! A file is known for one by what its folder says of it (the type of
//! each entry comes with the names on every common file system): the walk
//! asks nothing of the file itself unless sizes are wanted
//! ([`Inputs::sources`](super::Inputs::sources)), and a scan learns the
//! size as it reads the file whole. On Unix each folder is held open for
//! the files found in it ([`super::held`]), which a scan opens relative to
//! it.

use super::inputs::{Source, Sources};
use super::{Origin, Special};
#[cfg(not(unix))]
use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::rc::Rc;

#[cfg(unix)]
pub(crate) use super::held::Kind;

/// What an entry of a folder is, as the folder says.
#[cfg(not(unix))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    File,
    Dir,
    Symlink,
    Other,
}

/// What a walk looks at and keeps.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Walk {
    /// Asks each regular file its size ([`Source::size`]).
    pub(crate) sized: bool,
    /// Holds each folder open for its files (Unix).
    pub(crate) hold: bool,
}

/// Walks the folder `root` (with an explicit stack: depth is unbounded),
/// handing each source found to `emit`, in the order of their paths (the
/// walk stops when `emit` says false), and noting the folder and what was
/// skipped in `sources`. Regular files are taken, directly or through a symbolic
/// link; links to folders are followed, unless the folder is one the walk
/// is inside already (a loop: skipped and listed as one); anything else is
/// skipped and listed, and so are the temporary files of in-place rewrites
/// (names ending with [`TEMP_SUFFIX`](crate::atomic::TEMP_SUFFIX)).
pub(crate) fn walk_folder(
    root: &Path,
    sources: &mut Sources,
    emit: &mut dyn FnMut(Source) -> bool,
    how: Walk,
) {
    let folder = sources.add_folder(root);
    #[cfg(unix)]
    let holder = super::held::Holder::default();
    let mut stack = vec![Entry::Folder(root.to_path_buf(), None)];
    while let Some(entry) = stack.pop() {
        let (dir_path, parent) = match entry {
            Entry::Folder(path, parent) => (path, parent),
            Entry::File(file) => {
                let File {
                    path,
                    temporary,
                    kind,
                    size,
                    chain,
                    #[cfg(unix)]
                    held,
                } = file;
                // An in-place rewrite's temporary file holds another
                // file's games (or half of them): skipped by its name,
                // and listed.
                if temporary {
                    sources.skip_temporary(folder, &Origin::path(path));
                    continue;
                }
                match classify(&path, kind) {
                    Ok(()) => {
                        let found = Source::found(
                            path,
                            folder,
                            size,
                            #[cfg(unix)]
                            held,
                        );
                        if !emit(found) {
                            return;
                        }
                    }
                    // A link to a folder: followed (unless it leads to a
                    // folder the walk is inside, found once it is open).
                    Err(None) => stack.push(Entry::Folder(path, Some(chain))),
                    Err(Some(special)) => {
                        sources.skip_special(folder, &Origin::path(path), special);
                    }
                }
                continue;
            }
        };
        let listing = match list_folder(&dir_path, how.sized) {
            Ok(listing) => listing,
            Err(err) => {
                if !emit(Source::failed(dir_path, &err, Some(folder))) {
                    return;
                }
                continue;
            }
        };
        // A folder the walk is inside, reached again through a link
        // followed above it: it would never end.
        if let Some(parent) = &parent
            && listing.id.is_some()
            && parent.holds(listing.id.as_ref())
        {
            sources.skip_special(folder, &Origin::path(dir_path), Special::SymlinkLoop);
            continue;
        }
        let chain = Chain::new(listing.id, parent);
        #[cfg(unix)]
        let held = match listing.fd {
            Some(fd) if how.hold => holder.hold(fd),
            _ => None,
        };
        // Each folder's entries taken in the order of their names (the
        // first on top of the stack), depth first: the files come in the
        // order of their paths, which the sort of the sources then only
        // checks.
        let mut listed = listing.entries;
        listed.sort_unstable_by(|a, b| b.name.cmp(&a.name));
        for item in listed {
            let path = dir_path.join(&item.name);
            match item.kind {
                Ok(Kind::Dir) => stack.push(Entry::Folder(path, Some(chain.clone()))),
                Ok(kind) => stack.push(Entry::File(File {
                    temporary: crate::atomic::is_temporary(&item.name),
                    path,
                    kind,
                    size: item.size,
                    chain: chain.clone(),
                    #[cfg(unix)]
                    held: held.clone(),
                })),
                Err(err) => {
                    if !emit(Source::failed(path, &err, Some(folder))) {
                        return;
                    }
                }
            }
        }
        if let Some(err) = listing.error
            && !emit(Source::failed(dir_path, &err, Some(folder)))
        {
            return;
        }
    }
}

/// What a walk of a folder has yet to look at.
enum Entry {
    /// A folder, and the folders it is inside (none for the root).
    Folder(PathBuf, Option<Rc<Chain>>),
    /// Not a folder.
    File(File),
}

/// An entry of a folder that is not a folder.
struct File {
    path: PathBuf,
    /// Whether its name is that of an in-place rewrite's temporary file.
    temporary: bool,
    kind: Kind,
    /// Its size, when it is a regular file and the walk asked for sizes.
    size: Option<u64>,
    /// The folders it is inside.
    chain: Rc<Chain>,
    /// Its folder, held open.
    #[cfg(unix)]
    held: Option<std::sync::Arc<super::held::Held>>,
}

/// The folders a walk is inside, innermost first, as they are on disk
/// (through the links followed to reach them): a link to one of them
/// would make the walk go round for ever.
struct Chain {
    id: Option<DirId>,
    parent: Option<Rc<Chain>>,
}

impl Chain {
    fn new(id: Option<DirId>, parent: Option<Rc<Chain>>) -> Rc<Chain> {
        Rc::new(Chain { id, parent })
    }

    /// Whether the folder `id` is this one or one it is inside.
    fn holds(&self, id: Option<&DirId>) -> bool {
        let mut at = Some(self);
        while let Some(chain) = at {
            if chain.id.is_some() && chain.id.as_ref() == id {
                return true;
            }
            at = chain.parent.as_deref();
        }
        false
    }
}

/// What tells one folder from another on disk: its device and inode.
#[cfg(unix)]
type DirId = (u64, u64);
/// What tells one folder from another on disk: its canonical path.
#[cfg(not(unix))]
type DirId = PathBuf;

/// A folder's entries, as [`list_folder`] read them.
struct Listing {
    /// The folder, open (Unix).
    #[cfg(unix)]
    fd: Option<std::os::fd::OwnedFd>,
    id: Option<DirId>,
    entries: Vec<Listed>,
    /// What stopped the reading of the entries before their end.
    error: Option<io::Error>,
}

#[cfg(unix)]
use super::held::Listed;

/// One entry of a folder: its name, what it is, and its size when it is
/// a regular file and sizes were asked for.
#[cfg(not(unix))]
struct Listed {
    name: OsString,
    kind: io::Result<Kind>,
    size: Option<u64>,
}

/// The entries of the folder at `path`, and what it is on disk.
#[cfg(unix)]
fn list_folder(path: &Path, sized: bool) -> io::Result<Listing> {
    let (fd, entries, error) = super::held::list(path, sized)?;
    Ok(Listing {
        id: super::held::id_of(&fd),
        fd: Some(fd),
        entries,
        error,
    })
}

/// The entries of the folder at `path`, and what it is on disk.
#[cfg(not(unix))]
fn list_folder(path: &Path, sized: bool) -> io::Result<Listing> {
    let dir = fs::read_dir(path)?;
    let mut entries = Vec::new();
    let mut error = None;
    for item in dir {
        let item = match item {
            Ok(item) => item,
            Err(err) => {
                error = Some(err);
                break;
            }
        };
        let kind = item.file_type().map(|t| {
            if t.is_file() {
                Kind::File
            } else if t.is_dir() {
                Kind::Dir
            } else if t.is_symlink() {
                Kind::Symlink
            } else {
                Kind::Other
            }
        });
        let size = match kind {
            Ok(Kind::File) if sized => item.metadata().ok().map(|m| m.len()),
            _ => None,
        };
        entries.push(Listed {
            name: item.file_name(),
            kind,
            size,
        });
    }
    Ok(Listing {
        id: fs::canonicalize(path).ok(),
        entries,
        error,
    })
}

/// `Ok` for a regular file (or a link to one); else what it is, or `None`
/// for a link to a folder.
fn classify(path: &Path, kind: Kind) -> Result<(), Option<Special>> {
    match kind {
        Kind::File => Ok(()),
        Kind::Symlink => match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => Err(None),
            Ok(meta) if meta.is_file() => Ok(()),
            Ok(meta) => Err(Some(special_kind(meta.file_type()))),
            Err(err) if err.kind() == io::ErrorKind::NotFound => Err(Some(Special::BrokenSymlink)),
            Err(err) if is_loop(&err) => Err(Some(Special::SymlinkLoop)),
            Err(_) => Err(Some(Special::UnresolvableSymlink)),
        },
        #[cfg(unix)]
        Kind::Fifo => Err(Some(Special::Fifo)),
        #[cfg(unix)]
        Kind::Socket => Err(Some(Special::Socket)),
        #[cfg(unix)]
        Kind::CharDevice => Err(Some(Special::CharDevice)),
        #[cfg(unix)]
        Kind::BlockDevice => Err(Some(Special::BlockDevice)),
        // A folder is walked, not classified.
        Kind::Dir | Kind::Other => Err(Some(Special::Other)),
    }
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

/// What a file type that is neither a regular file nor a folder is.
fn special_kind(file_type: fs::FileType) -> Special {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if file_type.is_fifo() {
            return Special::Fifo;
        }
        if file_type.is_socket() {
            return Special::Socket;
        }
        if file_type.is_char_device() {
            return Special::CharDevice;
        }
        if file_type.is_block_device() {
            return Special::BlockDevice;
        }
    }
    let _ = file_type;
    Special::Other
}
