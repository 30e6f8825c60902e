//! Replacing a file so that it holds its old bytes or its new ones, never
//! half, never a mix, and never silently someone else's: [`Replace`]
//! (feature `atomic`). `sgf fmt`, `strip`, `transform` and `fix` write
//! `--in-place` and `--out` through it, and `sgf export` its files.
//!
//! The steps, for a file that exists:
//!
//! 1. The path is resolved: a symbolic link is written through to its
//!    target (the link stays a link). A file with more than one hard link
//!    is refused ([`ReplaceErrorKind::HardLinks`]): a rename would give
//!    this name new bytes and leave the other names the old ones.
//! 2. The file is opened and an advisory lock (`flock`) taken on it, so
//!    that a second rewrite of the same file fails at once
//!    ([`ReplaceErrorKind::Locked`]) instead of losing one of the two
//!    updates. Its identity (device, inode, size, modification and change
//!    times to the nanosecond) is noted.
//! 3. Temporary files of this file left by a writer that is gone (killed)
//!    are removed ([`Replace::removed`] lists them).
//! 4. The new bytes go to a temporary file beside the target, named
//!    `.<name>.<pid>-<n>.sgf-grove-tmp` ([`TEMP_SUFFIX`]; a lock is held
//!    on it while it is written). The folder walk of
//!    [`input::Inputs`](crate::input) skips such names and reports them
//!    ([`is_temporary`]), so a temporary file left by a crash is never
//!    read as games.
//! 5. [`Replace::commit`]: the temporary file gets the target's owner,
//!    group (`fchown`, when they differ from the writer's; refused when
//!    that fails, [`ReplaceErrorKind::Owner`]) and mode, is synced, the
//!    target's identity is checked again (a file changed since it was
//!    read is not overwritten, [`ReplaceErrorKind::Changed`]), the
//!    temporary file is renamed over the target, and the folder synced.
//!
//! Dropping a [`Replace`] without committing removes the temporary file
//! and leaves the target as it was.
//!
//! Many files written in one go (`--out DIR`) use [`Replace::batched`]:
//! the same steps without the two syncs of step 5 and without the search
//! for stale temporary files of each target in step 3. Against a killed
//! process each file is still old or new (the rename is atomic); against
//! a power loss the caller makes the whole batch durable at the end with
//! [`sync_batch`], and removes stale temporary files once per folder with
//! [`remove_stale_in`].
//!
//! ```
//! use sgf_grove::atomic::Replace;
//! use std::io::Write;
//!
//! let dir = std::env::temp_dir().join(format!("sgf-grove-doc-atomic-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let path = dir.join("game.sgf");
//! std::fs::write(&path, "(;GM[1])")?;
//!
//! let mut replace = Replace::new(&path)?;
//! replace.write_all(b"(;GM[1];B[aa])\n")?;
//! replace.commit()?;
//! assert_eq!(std::fs::read(&path)?, b"(;GM[1];B[aa])\n");
//!
//! // Dropped without a commit: nothing changes, nothing is left behind.
//! let mut replace = Replace::new(&path)?;
//! replace.write_all(b"half")?;
//! drop(replace);
//! assert_eq!(std::fs::read(&path)?, b"(;GM[1];B[aa])\n");
//! assert_eq!(std::fs::read_dir(&dir)?.count(), 1);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// How the name of every temporary file of a [`Replace`] ends. A folder
/// walk skips names that end so ([`is_temporary`]).
pub const TEMP_SUFFIX: &str = ".sgf-grove-tmp";

/// How many bytes of the target's name a temporary file's name repeats
/// (names are limited to 255 bytes on most file systems).
const NAME_KEPT: usize = 200;

/// Whether a file name is that of a [`Replace`]'s temporary file: it ends
/// with [`TEMP_SUFFIX`]. Such a file holds a rewrite that was not
/// finished (or not yet): never games to read.
///
/// ```
/// use sgf_grove::atomic::is_temporary;
/// use std::ffi::OsStr;
/// assert!(is_temporary(OsStr::new(".a.sgf.4242-0.sgf-grove-tmp")));
/// assert!(!is_temporary(OsStr::new("a.sgf")));
/// ```
pub fn is_temporary(name: &OsStr) -> bool {
    name.as_encoded_bytes().ends_with(TEMP_SUFFIX.as_bytes())
}

/// Why a [`Replace`] failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ReplaceErrorKind {
    /// The file has more than one hard link: replacing this name would
    /// leave the other names with the old bytes.
    HardLinks,
    /// Another process (or another rewrite in this one) holds the file's
    /// lock: it is being rewritten.
    Locked,
    /// The file changed on disk since it was opened (another writer):
    /// its new content would lose that change.
    Changed,
    /// The temporary file could not be given the target's owner and
    /// group (a user who is not root rewriting another user's file).
    Owner,
    /// The path is not a regular file (a folder, a device).
    NotRegular,
    /// Any other I/O failure: opening, writing, syncing, renaming.
    Io,
}

impl ReplaceErrorKind {
    /// A stable `snake_case` code: `hard_links`, `locked`, `changed`,
    /// `owner`, `not_regular_file`, `io`.
    pub fn code(self) -> &'static str {
        match self {
            ReplaceErrorKind::HardLinks => "hard_links",
            ReplaceErrorKind::Locked => "locked",
            ReplaceErrorKind::Changed => "changed",
            ReplaceErrorKind::Owner => "owner",
            ReplaceErrorKind::NotRegular => "not_regular_file",
            ReplaceErrorKind::Io => "io",
        }
    }
}

/// A failed [`Replace`]: what went wrong, with which file, and the I/O
/// error behind it when there is one. Unless it says otherwise (a failed
/// sync of the folder after the rename), the file is as it was.
#[derive(Debug)]
pub struct ReplaceError {
    kind: ReplaceErrorKind,
    path: PathBuf,
    detail: String,
    source: Option<io::Error>,
}

impl ReplaceError {
    fn new(kind: ReplaceErrorKind, path: &Path, detail: impl Into<String>) -> ReplaceError {
        ReplaceError {
            kind,
            path: path.to_path_buf(),
            detail: detail.into(),
            source: None,
        }
    }

    fn io(path: &Path, detail: impl Into<String>, source: io::Error) -> ReplaceError {
        ReplaceError {
            kind: ReplaceErrorKind::Io,
            path: path.to_path_buf(),
            detail: detail.into(),
            source: Some(source),
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> ReplaceErrorKind {
        self.kind
    }

    /// The file being replaced (the target of a symbolic link).
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl fmt::Display for ReplaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.detail)?;
        if let Some(source) = &self.source {
            write!(f, ": {source}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ReplaceError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_ref().map(|e| e as _)
    }
}

impl From<ReplaceError> for io::Error {
    fn from(err: ReplaceError) -> io::Error {
        let kind = match &err.source {
            Some(source) => source.kind(),
            None => io::ErrorKind::Other,
        };
        io::Error::new(kind, err.to_string())
    }
}

/// A step of [`Replace`], for the fault injection of the `inplace` fuzz
/// target. Test surface, not API.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Creating the temporary file.
    Create,
    /// Writing the last buffered bytes to it.
    Write,
    /// Giving it the target's owner, group and mode.
    Owner,
    /// Syncing it.
    Sync,
    /// Renaming it over the target.
    Rename,
    /// Syncing the folder.
    SyncFolder,
}

impl Step {
    /// Every step, in order.
    pub const ALL: [Step; 6] = [
        Step::Create,
        Step::Write,
        Step::Owner,
        Step::Sync,
        Step::Rename,
        Step::SyncFolder,
    ];
}

/// Test hooks of a [`Replace`]: a failure injected before a step (an
/// error, or a crash that leaves the files as a killed process would),
/// and a pause before the target is checked and renamed. Test surface,
/// not API.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Hooks {
    /// Fail before this step.
    pub fail_before: Option<Step>,
    /// Fail as a crash: no clean-up, locks dropped.
    pub crash: bool,
    /// Sleep this long before the last check and the rename.
    pub pause_before_rename: Option<Duration>,
}

/// What a file looked like when it was opened; compared again before it
/// is replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Identity {
    dev: u64,
    ino: u64,
    len: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
    uid: u32,
    gid: u32,
    mode: u32,
}

impl Identity {
    #[cfg(unix)]
    fn of(meta: &fs::Metadata) -> Identity {
        use std::os::unix::fs::MetadataExt as _;
        Identity {
            dev: meta.dev(),
            ino: meta.ino(),
            len: meta.len(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
            uid: meta.uid(),
            gid: meta.gid(),
            mode: meta.mode(),
        }
    }

    #[cfg(not(unix))]
    fn of(meta: &fs::Metadata) -> Identity {
        let mtime = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or((0, 0), |d| {
                (d.as_secs() as i64, i64::from(d.subsec_nanos()))
            });
        Identity {
            dev: 0,
            ino: 0,
            len: meta.len(),
            mtime,
            ctime: (0, 0),
            uid: 0,
            gid: 0,
            mode: 0,
        }
    }
}

/// How many hard links `meta` says a file has (1 where that is unknown).
fn links(meta: &fs::Metadata) -> u64 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        meta.nlink()
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        1
    }
}

/// Takes the exclusive advisory lock of `file` without waiting: `false`
/// when another open file holds it.
fn try_lock(file: &File) -> io::Result<bool> {
    #[cfg(unix)]
    {
        use rustix::fs::{flock, FlockOperation};
        match flock(file, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => Ok(true),
            Err(e) if e == rustix::io::Errno::WOULDBLOCK => Ok(false),
            Err(e) => Err(e.into()),
        }
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        Ok(true)
    }
}

/// Numbers the temporary files of this process.
static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A file being replaced: write the new bytes to it ([`Write`]), then
/// [`Replace::commit`]. See the [module docs](self) for the steps and what
/// each guards against.
#[derive(Debug)]
pub struct Replace {
    /// The file replaced (a symbolic link resolved).
    target: PathBuf,
    /// Its folder.
    dir: PathBuf,
    /// The target, open and locked while this lives; `None` for a new file.
    locked: Option<File>,
    /// The target's identity when it was opened.
    identity: Option<Identity>,
    /// The temporary file and its path; `None` once renamed.
    temp: Option<(BufWriter<File>, PathBuf)>,
    /// Stale temporary files removed.
    removed: Vec<PathBuf>,
    hooks: Hooks,
    /// Committed without syncs ([`Replace::batched`]).
    batched: bool,
}

impl Replace {
    /// Starts replacing the existing file at `path` (steps 1 to 4 of the
    /// [module docs](self)).
    ///
    /// # Errors
    ///
    /// A [`ReplaceError`]: the file is missing or not a regular file, has
    /// several hard links, is locked by another rewrite, or the temporary
    /// file cannot be created. The file is left as it was.
    pub fn new(path: &Path) -> Result<Replace, ReplaceError> {
        Replace::with_hooks(path, Hooks::default())
    }

    /// [`Replace::new`] with test hooks. Test surface, not API.
    #[doc(hidden)]
    pub fn with_hooks(path: &Path, hooks: Hooks) -> Result<Replace, ReplaceError> {
        Replace::open(path, hooks, false)
    }

    /// A file of a batch written in one go, existing or not: as
    /// [`Replace::create`] (with `hooks`, a test surface), except that
    /// [`Replace::commit`] does not sync the file or its folder and that
    /// stale temporary files of the target are not looked for. The file
    /// is still old or new whatever happens to the process; the caller
    /// syncs the batch once at the end ([`sync_batch`]) and removes stale
    /// temporary files once per folder ([`remove_stale_in`]).
    ///
    /// # Errors
    ///
    /// As [`Replace::new`].
    pub fn batched(path: &Path, hooks: Hooks) -> Result<Replace, ReplaceError> {
        if fs::symlink_metadata(path).is_ok() {
            return Replace::open(path, hooks, true);
        }
        let mut replace = Replace::start(path.to_path_buf(), hooks, true)?;
        replace.create_temp()?;
        Ok(replace)
    }

    /// Steps 1 to 4 for an existing file; `batched` as [`Replace::batched`].
    fn open(path: &Path, hooks: Hooks, batched: bool) -> Result<Replace, ReplaceError> {
        let link = fs::symlink_metadata(path)
            .map_err(|e| ReplaceError::io(path, "cannot read the file", e))?;
        let target = if link.file_type().is_symlink() {
            fs::canonicalize(path)
                .map_err(|e| ReplaceError::io(path, "cannot follow the symbolic link", e))?
        } else {
            path.to_path_buf()
        };
        let file = File::open(&target)
            .map_err(|e| ReplaceError::io(&target, "cannot open the file", e))?;
        let meta = file
            .metadata()
            .map_err(|e| ReplaceError::io(&target, "cannot read the file", e))?;
        if !meta.is_file() {
            return Err(ReplaceError::new(
                ReplaceErrorKind::NotRegular,
                &target,
                "not a regular file; left as it was",
            ));
        }
        let n = links(&meta);
        if n > 1 {
            return Err(ReplaceError::new(
                ReplaceErrorKind::HardLinks,
                &target,
                format!(
                    "has {n} hard links; replacing it would split them \
                     (the other names would keep the old content), so it is left as it was"
                ),
            ));
        }
        if !try_lock(&file).map_err(|e| ReplaceError::io(&target, "cannot lock the file", e))? {
            return Err(ReplaceError::new(
                ReplaceErrorKind::Locked,
                &target,
                "is being rewritten by another process; left as it was",
            ));
        }
        let identity = Identity::of(&meta);
        // The name may have been given to another file between the open
        // and the lock.
        let now = fs::metadata(&target)
            .map_err(|e| ReplaceError::io(&target, "cannot read the file", e))?;
        if Identity::of(&now) != identity {
            return Err(changed(&target));
        }
        let mut replace = Replace::start(target, hooks, batched)?;
        replace.locked = Some(file);
        replace.identity = Some(identity);
        replace.create_temp()?;
        Ok(replace)
    }

    /// Starts writing a file at `path` that may not exist yet (the output
    /// of an export): when it exists, as [`Replace::new`]; when it does
    /// not, it appears whole on [`Replace::commit`], with the mode a new
    /// file gets.
    ///
    /// # Errors
    ///
    /// As [`Replace::new`].
    pub fn create(path: &Path) -> Result<Replace, ReplaceError> {
        if fs::symlink_metadata(path).is_ok() {
            return Replace::new(path);
        }
        let mut replace = Replace::start(path.to_path_buf(), Hooks::default(), false)?;
        replace.create_temp()?;
        Ok(replace)
    }

    /// The state before the temporary file: the folder found, stale
    /// temporary files of the target removed (unless `batched`).
    fn start(target: PathBuf, hooks: Hooks, batched: bool) -> Result<Replace, ReplaceError> {
        let dir = match target.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let mut replace = Replace {
            target,
            dir,
            locked: None,
            identity: None,
            temp: None,
            removed: Vec::new(),
            hooks,
            batched,
        };
        if !batched {
            replace.remove_stale();
        }
        Ok(replace)
    }

    /// The start of the name of this target's temporary files.
    fn temp_prefix(&self) -> OsString {
        let name = self
            .target
            .file_name()
            .map_or(&b"sgf"[..], OsStr::as_encoded_bytes);
        let kept = cut(name, NAME_KEPT);
        let mut prefix = OsString::from(".");
        // A cut on a character boundary of the encoded bytes (cut) keeps
        // the bytes a valid OsStr.
        prefix.push(OsStr::new(&String::from_utf8_lossy(kept).into_owned()));
        prefix.push(".");
        prefix
    }

    /// Removes temporary files of this target whose writer is gone.
    fn remove_stale(&mut self) {
        let prefix = self.temp_prefix();
        self.removed = remove_stale(&self.dir, prefix.as_encoded_bytes());
    }

    /// Creates the temporary file (step 4), locked.
    fn create_temp(&mut self) -> Result<(), ReplaceError> {
        self.fault(Step::Create)?;
        let mut name = self.temp_prefix();
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        name.push(format!("{}-{n}{TEMP_SUFFIX}", std::process::id()));
        let path = self.dir.join(name);
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt as _;
            // Private until it gets the target's mode.
            if self.identity.is_some() {
                options.mode(0o600);
            }
        }
        let file = options.open(&path).map_err(|e| {
            ReplaceError::io(&self.target, "cannot create a temporary file beside it", e)
        })?;
        let _ = try_lock(&file);
        self.temp = Some((BufWriter::with_capacity(64 * 1024, file), path));
        Ok(())
    }

    /// The file replaced: the path given, or the target of the symbolic
    /// link it names.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// The temporary file's path, until the rename.
    pub fn temp_path(&self) -> Option<&Path> {
        self.temp.as_ref().map(|(_, p)| p.as_path())
    }

    /// Temporary files of this target left by writers that are gone (a
    /// process killed while rewriting it), removed when this started.
    pub fn removed(&self) -> &[PathBuf] {
        &self.removed
    }

    /// Fails as the hooks say, before `step`.
    fn fault(&mut self, step: Step) -> Result<(), ReplaceError> {
        if self.hooks.fail_before != Some(step) {
            return Ok(());
        }
        if self.hooks.crash {
            // As a killed process leaves things: files closed (locks
            // gone), nothing removed.
            if let Some((writer, _)) = self.temp.take() {
                let (file, _) = writer.into_parts();
                drop(file);
            }
            self.locked = None;
        }
        Err(ReplaceError::io(
            &self.target,
            format!("injected failure before {step:?}"),
            io::Error::other("injected"),
        ))
    }

    /// Finishes (step 5 of the [module docs](self)): owner, group and
    /// mode given, synced, the target checked unchanged, renamed over it,
    /// the folder synced.
    ///
    /// # Errors
    ///
    /// A [`ReplaceError`]; the target is then as it was and the temporary
    /// file removed, except when the sync of the folder after the rename
    /// failed (the target holds the new bytes, which a crash could still
    /// undo).
    pub fn commit(mut self) -> Result<(), ReplaceError> {
        self.fault(Step::Write)?;
        let target = self.target.clone();
        let Some((writer, _)) = self.temp.as_mut() else {
            return Err(ReplaceError::io(
                &target,
                "the temporary file is gone",
                io::Error::from(io::ErrorKind::NotFound),
            ));
        };
        writer
            .flush()
            .map_err(|e| ReplaceError::io(&target, "cannot write the temporary file", e))?;
        self.fault(Step::Owner)?;
        self.give_owner()?;
        self.fault(Step::Sync)?;
        if !self.batched {
            self.file()
                .sync_all()
                .map_err(|e| ReplaceError::io(&target, "cannot sync the temporary file", e))?;
        }
        if let Some(pause) = self.hooks.pause_before_rename {
            std::thread::sleep(pause);
        }
        match self.identity {
            Some(identity) => match fs::metadata(&target) {
                Ok(now) if Identity::of(&now) == identity => {}
                _ => return Err(changed(&target)),
            },
            None => {
                if fs::symlink_metadata(&target).is_ok() {
                    return Err(ReplaceError::new(
                        ReplaceErrorKind::Changed,
                        &target,
                        "was created by another process while it was written; left as it is",
                    ));
                }
            }
        }
        self.fault(Step::Rename)?;
        let temp_path = self
            .temp
            .as_ref()
            .map(|(_, p)| p.clone())
            .unwrap_or_default();
        fs::rename(&temp_path, &target).map_err(|e| {
            ReplaceError::io(&target, "cannot rename the temporary file over it", e)
        })?;
        self.temp = None;
        self.fault(Step::SyncFolder)?;
        if self.batched {
            return Ok(());
        }
        #[cfg(unix)]
        File::open(&self.dir)
            .and_then(|d| d.sync_all())
            .map_err(|e| {
                ReplaceError::io(&target, "rewritten, but its folder could not be synced", e)
            })?;
        Ok(())
    }

    /// The temporary file.
    fn file(&self) -> &File {
        self.temp
            .as_ref()
            .map(|(w, _)| w.get_ref())
            .expect("the temporary file exists until the rename")
    }

    /// Gives the temporary file the target's owner, group (when they are
    /// not the writer's) and mode.
    #[cfg(unix)]
    fn give_owner(&self) -> Result<(), ReplaceError> {
        use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
        let Some(identity) = self.identity else {
            return Ok(());
        };
        let file = self.file();
        let mine = file
            .metadata()
            .map_err(|e| ReplaceError::io(&self.target, "cannot read the temporary file", e))?;
        if (mine.uid(), mine.gid()) != (identity.uid, identity.gid) {
            std::os::unix::fs::fchown(file, Some(identity.uid), Some(identity.gid)).map_err(
                |e| ReplaceError {
                    kind: ReplaceErrorKind::Owner,
                    path: self.target.clone(),
                    detail: format!(
                        "cannot give the rewritten file the owner {}:{} of the original \
                         (rewrite it as its owner, or as root); left as it was",
                        identity.uid, identity.gid
                    ),
                    source: Some(e),
                },
            )?;
        }
        file.set_permissions(fs::Permissions::from_mode(identity.mode & 0o7777))
            .map_err(|e| {
                ReplaceError::io(&self.target, "cannot set the mode of the temporary file", e)
            })
    }

    #[cfg(not(unix))]
    fn give_owner(&self) -> Result<(), ReplaceError> {
        Ok(())
    }
}

impl Write for Replace {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.temp {
            Some((w, _)) => w.write(buf),
            None => Err(io::Error::from(io::ErrorKind::NotFound)),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.temp {
            Some((w, _)) => w.write_all(buf),
            None => Err(io::Error::from(io::ErrorKind::NotFound)),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.temp {
            Some((w, _)) => w.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for Replace {
    /// Not committed: the temporary file is removed; the target stays.
    fn drop(&mut self) {
        if let Some((writer, path)) = self.temp.take() {
            drop(writer.into_parts());
            let _ = fs::remove_file(path);
        }
    }
}

/// Removes the temporary files in `dir` whose name starts with `prefix`
/// (all of them when it is empty) and whose writer is gone: their lock is
/// free and their process (the pid in the name) no longer runs, or is
/// this one (whose live writers hold their locks). Returns their paths.
fn remove_stale(dir: &Path, prefix: &[u8]) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return removed;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let bytes = name.as_encoded_bytes();
        if !is_temporary(&name) || !bytes.starts_with(prefix) {
            continue;
        }
        let Some(pid) = temp_pid(bytes) else {
            continue;
        };
        if pid != std::process::id() && process_runs(pid) {
            continue;
        }
        let path = entry.path();
        let Ok(file) = File::open(&path) else {
            continue;
        };
        if try_lock(&file).unwrap_or(false) && fs::remove_file(&path).is_ok() {
            removed.push(path);
        }
    }
    removed
}

/// The pid in a temporary file's name `.<name>.<pid>-<n>.sgf-grove-tmp`.
fn temp_pid(name: &[u8]) -> Option<u32> {
    let middle = name.strip_suffix(TEMP_SUFFIX.as_bytes())?;
    let dot = middle.iter().rposition(|&b| b == b'.')?;
    let (pid, _) = std::str::from_utf8(&middle[dot + 1..])
        .ok()?
        .split_once('-')?;
    pid.parse().ok()
}

/// Removes the temporary files in the folder `dir` left by writers that
/// are gone (a process killed while writing), whatever file they were
/// for; returns their paths. The files of a batch ([`Replace::batched`])
/// leave this to their caller, once per folder.
pub fn remove_stale_in(dir: &Path) -> Vec<PathBuf> {
    remove_stale(dir, b".")
}

/// Makes the files of a batch ([`Replace::batched`]) under the folder
/// `dir` durable once they are all committed: on Linux one `syncfs` of the
/// file system `dir` is on (every file and folder renamed there), else a
/// sync of each of `files` and of each folder they are in.
///
/// # Errors
///
/// The first sync that fails; the files hold their new bytes, which a
/// power loss could still undo.
pub fn sync_batch(dir: &Path, files: &[PathBuf]) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        let _ = files;
        let folder = File::open(dir)?;
        rustix::fs::syncfs(&folder)?;
        Ok(())
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = dir;
        let mut folders = std::collections::BTreeSet::new();
        for file in files {
            File::open(file)?.sync_all()?;
            if let Some(parent) = file.parent() {
                folders.insert(parent.to_path_buf());
            }
        }
        #[cfg(unix)]
        for folder in folders {
            File::open(folder)?.sync_all()?;
        }
        Ok(())
    }
}

/// The error of a target that changed since it was opened.
fn changed(target: &Path) -> ReplaceError {
    ReplaceError::new(
        ReplaceErrorKind::Changed,
        target,
        "changed on disk while it was being rewritten; the new content is dropped \
         and the file left as the other writer made it",
    )
}

/// `bytes` cut to at most `max` bytes, on a UTF-8 character boundary when
/// it is UTF-8.
fn cut(bytes: &[u8], max: usize) -> &[u8] {
    if bytes.len() <= max {
        return bytes;
    }
    let mut end = max;
    while end > 0 && (bytes[end] & 0xC0) == 0x80 {
        end -= 1;
    }
    &bytes[..end]
}

/// Whether the process `pid` runs (on Linux, `/proc/PID` exists); `true`
/// when that cannot be told, so that nothing is removed on a guess.
fn process_runs(pid: u32) -> bool {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return true;
    }
    proc.join(pid.to_string()).exists()
}

#[cfg(test)]
mod tests {
    use super::{is_temporary, Hooks, Replace, ReplaceErrorKind, Step};
    use std::fs;
    use std::io::Write as _;
    use std::path::PathBuf;

    fn dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("sgf-grove-atomic-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names(dir: &std::path::Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_second_replace_of_the_same_file_is_refused_while_the_first_runs() {
        let dir = dir("locked");
        let path = dir.join("a.sgf");
        fs::write(&path, "old").unwrap();
        let first = Replace::new(&path).unwrap();
        let err = Replace::new(&path).unwrap_err();
        assert_eq!(err.kind(), ReplaceErrorKind::Locked);
        drop(first);
        assert!(Replace::new(&path).is_ok());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_changed_while_written_is_left_as_the_other_writer_made_it() {
        let dir = dir("changed");
        let path = dir.join("a.sgf");
        fs::write(&path, "old").unwrap();
        let mut replace = Replace::new(&path).unwrap();
        replace.write_all(b"new").unwrap();
        fs::write(&path, "other writer").unwrap();
        assert_eq!(
            replace.commit().unwrap_err().kind(),
            ReplaceErrorKind::Changed
        );
        assert_eq!(fs::read(&path).unwrap(), b"other writer");
        assert_eq!(names(&dir), ["a.sgf"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_crash_leaves_a_temporary_file_the_next_replace_removes() {
        let dir = dir("crash");
        let path = dir.join("a.sgf");
        fs::write(&path, "old").unwrap();
        let hooks = Hooks {
            fail_before: Some(Step::Sync),
            crash: true,
            pause_before_rename: None,
        };
        let mut replace = Replace::with_hooks(&path, hooks).unwrap();
        replace.write_all(b"new").unwrap();
        assert!(replace.commit().is_err());
        let left = names(&dir);
        assert_eq!(left.len(), 2);
        assert!(is_temporary(left[0].as_ref()), "{left:?}");
        let replace = Replace::new(&path).unwrap();
        assert_eq!(replace.removed().len(), 1);
        drop(replace);
        assert_eq!(names(&dir), ["a.sgf"]);
        assert_eq!(fs::read(&path).unwrap(), b"old");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_long_name_gives_a_temporary_name_that_fits() {
        let dir = dir("long");
        let name = format!("{}.sgf", "é".repeat(120));
        let path = dir.join(&name);
        fs::write(&path, "old").unwrap();
        let mut replace = Replace::new(&path).unwrap();
        replace.write_all(b"new").unwrap();
        replace.commit().unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        fs::remove_dir_all(&dir).unwrap();
    }
}
