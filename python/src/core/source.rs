//! An input and the document parsed from it, owned together.
//!
//! A [`Document`] borrows the bytes it was parsed from, and a Python object
//! cannot hold a borrow: [`Source`] keeps both in one value (`self_cell`),
//! behind a mutex because a document's text arena is not `Sync`. Every game
//! of one `parse()` shares its source; nothing is copied or parsed again
//! until a game is edited.

use sgf_grove::{Document, ParseOptions};
use std::sync::{Arc, Mutex, MutexGuard};

self_cell::self_cell!(
    /// The bytes and the document parsed from them.
    pub(crate) struct DocCell {
        owner: Vec<u8>,
        #[covariant]
        dependent: Document,
    }
);

/// A parsed input shared by the games read from it.
#[derive(Clone)]
pub(crate) struct Source(Arc<Mutex<DocCell>>);

impl Source {
    /// Parses `bytes` with `options`.
    pub(crate) fn parse(bytes: Vec<u8>, options: &ParseOptions) -> sgf_grove::Result<Source> {
        let cell = DocCell::try_new(bytes, |b| Document::parse_with(b, options))?;
        Ok(Source(Arc::new(Mutex::new(cell))))
    }

    /// The document, locked. No Python code runs while it is held.
    pub(crate) fn lock(&self) -> MutexGuard<'_, DocCell> {
        // A panic while holding the lock cannot leave the document half
        // changed (it is never changed): a poisoned lock is still usable.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}
