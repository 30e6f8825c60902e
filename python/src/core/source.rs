//! An input and the document parsed from it, owned together; or a game
//! of a scan, as the scan's worker parsed it.
//!
//! A [`Document`] borrows the bytes it was parsed from, and a Python object
//! cannot hold a borrow: [`Source`] keeps both in one value (`self_cell`),
//! behind a mutex because a document's text arena is not `Sync`. Every game
//! of one `parse()` shares its source; nothing is copied or parsed again
//! until a game is edited. A game of a scan is the worker's parse of it,
//! copied out of the worker's parser ([`OwnedGame`]): its text is not
//! parsed a second time.

use sgf_grove::input::OwnedGame;
use sgf_grove::{Collection, Document, GameTree, ParseOptions};
use std::sync::{Arc, Mutex, MutexGuard};

self_cell::self_cell!(
    /// The bytes and the document parsed from them.
    pub(crate) struct DocCell {
        owner: Vec<u8>,
        #[covariant]
        dependent: Document,
    }
);

/// What a source holds.
enum Held {
    /// An input given to `parse()` or `read()`, parsed.
    Doc(DocCell),
    /// One game of a scan.
    Scanned(OwnedGame),
}

/// A parsed input shared by the games read from it.
#[derive(Clone)]
pub(crate) struct Source(Arc<Mutex<Held>>);

impl Source {
    /// Parses `bytes` with `options`.
    pub(crate) fn parse(bytes: Vec<u8>, options: &ParseOptions) -> sgf_grove::Result<Source> {
        let cell = DocCell::try_new(bytes, |b| Document::parse_with(b, options))?;
        Ok(Source(Arc::new(Mutex::new(Held::Doc(cell)))))
    }

    /// A game of a scan: the source's one game, number 0.
    pub(crate) fn scanned(game: OwnedGame) -> Source {
        Source(Arc::new(Mutex::new(Held::Scanned(game))))
    }

    /// Runs `f` on the collection, locked. No Python code runs while it
    /// is held.
    pub(crate) fn with<R>(&self, f: impl FnOnce(Collection<'_, '_>) -> R) -> R {
        let held = self.lock();
        match &*held {
            Held::Doc(cell) => f(cell.borrow_dependent().collection()),
            Held::Scanned(game) => f(game.collection()),
        }
    }

    /// Runs `f` on game `index` of the source (locked, as for
    /// [`Source::with`]).
    pub(crate) fn with_game<R>(&self, index: usize, f: impl FnOnce(GameTree<'_, '_>) -> R) -> R {
        let held = self.lock();
        let game = match &*held {
            Held::Doc(cell) => cell.borrow_dependent().collection().game(index),
            Held::Scanned(game) => (index == 0).then(|| game.tree()),
        };
        match game {
            Some(g) => f(g),
            None => unreachable!("a parsed game's index is one of its source's"),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Held> {
        // A panic while holding the lock cannot leave the document half
        // changed (it is never changed): a poisoned lock is still usable.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}
