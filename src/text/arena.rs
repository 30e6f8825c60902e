//! The arena decoded text lives in.

use bumpalo::Bump;
use std::cell::{Cell, OnceCell};

/// How many blocks an arena can have: the last one holds `FIRST << 31`
/// bytes, far beyond any input.
const LEVELS: usize = 32;

/// The size of the first block.
const FIRST: usize = 4096;

/// Where text that changed when it was decoded (escapes removed, line
/// breaks normalised, transcoded from GBK, Shift_JIS, …) is kept, so that
/// every text getter hands out a `&str`: borrowed from the input when
/// nothing changed, from here otherwise.
///
/// A [`Parser`](crate::Parser) and a [`Document`](crate::Document) own one
/// and empty it at each parse; a [`ValueContext`](crate::value::ValueContext)
/// built by hand borrows one of your own. Each decode that has to change the
/// text takes room here until the arena is emptied (decoding the same value
/// twice takes it twice), so keep a `&str` you need again rather than
/// decoding it again.
///
/// It is a series of blocks of doubling size (bump allocators of
/// [`bumpalo`], each fixed to the size it was created with): emptying
/// keeps every block, so the same work after a reset allocates nothing.
/// Like `bumpalo::Bump` it can be sent to another thread but not shared
/// between threads (`Send`, not `Sync`).
///
/// ```
/// use sgf_grove::text::Arena;
/// use sgf_grove::value::{BoardSize, Text, FromValue, ValueContext};
/// let arena = Arena::new();
/// let ctx = ValueContext::new(BoardSize::square(19), sgf_grove::encoding_rs::UTF_8, &arena);
/// let text = Text::from_value(br"a\]b", &ctx).unwrap();
/// assert_eq!(&*text, "a]b");
/// assert!(arena.allocated_bytes() > 0);
/// ```
#[derive(Default)]
pub struct Arena {
    /// Block `i` holds at least `FIRST << i` bytes; created on first use.
    blocks: [OnceCell<Bump>; LEVELS],
    /// The block allocations go to (the earlier ones are full enough).
    at: Cell<usize>,
}

impl std::fmt::Debug for Arena {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Arena")
            .field(
                "blocks",
                &self.blocks.iter().filter(|b| b.get().is_some()).count(),
            )
            .field("allocated_bytes", &self.allocated_bytes())
            .finish()
    }
}

impl Arena {
    /// An empty arena; it allocates nothing until text is put in it.
    pub fn new() -> Arena {
        Arena::default()
    }

    /// Bytes the arena holds from the heap (the capacity of its blocks).
    pub fn allocated_bytes(&self) -> usize {
        self.blocks
            .iter()
            .filter_map(OnceCell::get)
            .map(Bump::allocated_bytes)
            .sum()
    }

    /// Empties the arena, keeping its blocks.
    pub fn reset(&mut self) {
        for block in self.blocks.iter_mut().filter_map(OnceCell::get_mut) {
            block.reset();
        }
        self.at.set(0);
    }

    /// Runs `alloc` on the first block from the current one on that it
    /// succeeds in, creating blocks (of at least `need` bytes) as needed.
    fn with_block<'a, R>(
        &'a self,
        need: usize,
        alloc: impl Fn(&'a Bump) -> Result<R, bumpalo::AllocErr>,
    ) -> R {
        let mut i = self.at.get();
        loop {
            let last = i + 1 == LEVELS;
            let block = self.blocks[i].get_or_init(|| {
                let bump = Bump::with_capacity(FIRST.saturating_mul(1 << i).max(need));
                if !last {
                    // Fixed to its first chunk: a full block sends the
                    // allocation on to the next one instead of growing.
                    bump.set_allocation_limit(Some(bump.allocated_bytes()));
                }
                bump
            });
            match alloc(block) {
                Ok(r) => {
                    self.at.set(i);
                    return r;
                }
                // The last block has no limit, so it never fails (short of
                // running out of memory, which aborts as any allocation).
                Err(_) => i = (i + 1).min(LEVELS - 1),
            }
        }
    }

    /// `n` zeroed bytes.
    pub(crate) fn bytes(&self, n: usize) -> &mut [u8] {
        self.with_block(n, |b| b.try_alloc_slice_fill_copy(n, 0u8))
    }

    /// A copy of `s`.
    pub fn alloc_str(&self, s: &str) -> &str {
        self.with_block(s.len(), |b| b.try_alloc_str(s).map(|s| &*s))
    }

    /// `value`, moved into the arena. Only `Copy` types: the arena never
    /// runs `Drop`.
    pub(crate) fn alloc<T: Copy>(&self, value: T) -> &T {
        self.with_block(std::mem::size_of::<T>(), |b| {
            b.try_alloc(value).map(|v| &*v)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_kept_and_reused() {
        let mut arena = Arena::new();
        let run = |arena: &Arena| {
            let mut total = 0;
            for i in 0..2000 {
                total += arena.bytes(i % 97 + 1).len();
                total += arena.alloc_str("some text").len();
            }
            // One piece larger than any block so far.
            total += arena.bytes(1 << 20).len();
            total
        };
        let first = run(&arena);
        let held = arena.allocated_bytes();
        assert!(held >= first);
        for _ in 0..3 {
            arena.reset();
            assert_eq!(run(&arena), first);
            assert_eq!(arena.allocated_bytes(), held, "no block added");
        }
    }

    #[test]
    fn pieces_do_not_overlap() {
        let arena = Arena::new();
        let a = arena.alloc_str("first");
        let b = arena.bytes(10_000);
        b[0] = 1;
        let c = arena.alloc(7u64);
        assert_eq!((a, *c), ("first", 7));
    }
}
