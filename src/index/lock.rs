//! One writer at a time: `INDEX/lock`, a file held with the system's
//! advisory lock ([`File::try_lock`]) by whoever adds to, compacts or
//! repairs the index, and released when that writer ends, however it ends
//! (the system drops the lock of a killed process). Readers take no lock:
//! they read the manifest that was last renamed into place, and a writer
//! never changes what that manifest lists.
//!
//! The file stays in the folder; it holds nothing.

use std::fs::{File, OpenOptions, TryLockError};
use std::io;
use std::path::Path;

/// Tries, 10 ms apart, before a writer is told the lock is held.
const GRACE_TRIES: u32 = 20;

/// The name of the lock file in an index folder.
pub(crate) const LOCK_FILE: &str = "lock";

/// The lock of an index folder, held while this lives.
#[derive(Debug)]
pub(crate) struct WriteLock {
    _file: File,
}

impl WriteLock {
    /// Takes the lock of the index in `dir`; with `wait`, waits for the
    /// writer that holds it to end.
    ///
    /// # Errors
    ///
    /// `WouldBlock` (without `wait`) when another writer holds it, with a
    /// message that says so; I/O errors.
    pub(crate) fn take(dir: &Path, wait: bool) -> io::Result<WriteLock> {
        let path = dir.join(LOCK_FILE);
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)?;
        if wait {
            file.lock()?;
        } else {
            // A lock just released may still be held for a moment by a
            // process forked from its owner before it runs another
            // program (it shares the open file until then): a little
            // patience before giving up.
            let mut tries = 0;
            loop {
                match file.try_lock() {
                    Err(TryLockError::WouldBlock) if tries < GRACE_TRIES => {
                        tries += 1;
                        std::thread::sleep(std::time::Duration::from_millis(10));
                    }
                    other => break other,
                }
            }
            .map_err(|e| match e {
                TryLockError::WouldBlock => io::Error::new(
                    io::ErrorKind::WouldBlock,
                    format!(
                        "another writer is updating this index (it holds {}); \
                         try again when it is done, or wait for it (`--wait`)",
                        path.display()
                    ),
                ),
                TryLockError::Error(e) => e,
            })?;
        }
        Ok(WriteLock { _file: file })
    }

    /// Whether a writer holds the lock of the index in `dir` right now
    /// (`false` when there is no lock file).
    pub(crate) fn is_held(dir: &Path) -> bool {
        let Ok(file) = OpenOptions::new().write(true).open(dir.join(LOCK_FILE)) else {
            return false;
        };
        matches!(file.try_lock(), Err(TryLockError::WouldBlock))
    }
}
