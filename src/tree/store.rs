//! The records a parse fills: nodes, property slots, rich records, values
//! and games, in pre-order, with `u32` links.

use super::*;

/// Identifies a node in a parsed [`Collection`]: its index in the arena plus
/// one, so that `Option<NodeId>` takes no more room than a `u32`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(NonZeroU32);

impl NodeId {
    #[inline(always)]
    pub(crate) fn from_link(link: u32) -> Option<NodeId> {
        NonZeroU32::new(link).map(NodeId)
    }
    /// The node's index in the arena (nodes are numbered in pre-order, from 0).
    #[inline(always)]
    pub fn index(self) -> usize {
        self.0.get() as usize - 1
    }

    /// The id of the node at `index` in the arena, the inverse of
    /// [`NodeId::index`]; `None` when no arena can hold that many nodes.
    /// Whether a collection has that node is for
    /// [`Collection::try_node`](crate::Collection::try_node) to say: a
    /// program that keeps nodes as numbers (bindings, a table of node
    /// indexes) turns them back into handles this way.
    ///
    /// ```
    /// use sgf_grove::NodeId;
    /// let doc = sgf_grove::parse(b"(;GM[1];B[aa];W[bb])")?;
    /// let coll = doc.collection();
    /// let id = NodeId::from_index(2).unwrap();
    /// assert_eq!(coll.try_node(id).unwrap().raw("W"), Some(&b"bb"[..]));
    /// assert!(coll.try_node(NodeId::from_index(3).unwrap()).is_none());
    /// assert_eq!(NodeId::from_index(u32::MAX as usize), None);
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    pub fn from_index(index: usize) -> Option<NodeId> {
        let link = u32::try_from(index).ok()?.checked_add(1)?;
        NodeId::from_link(link)
    }
}

/// `0` stands for "no node" in the link fields.
pub(crate) const NONE: u32 = 0;

/// The top bit of [`NodeData::props`]: the node's slots point to
/// [`RichProp`] records.
pub(crate) const RICH: u32 = 1 << 31;

/// One node in the arena: 16 bytes.
///
/// There is no first-child link: nodes are in pre-order, so a node's first
/// child, when it has one, is the next node, whose parent it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct NodeData {
    pub(crate) parent: u32,
    pub(crate) next_sibling: u32,
    /// Offset of the node's `;`, or of its first identifier when the `;` is
    /// missing.
    pub(crate) start: u32,
    /// Index of its first slot in [`Store::slots`] (its slots run to the
    /// next node's), with [`RICH`] set when they point to rich records.
    pub(crate) props: u32,
}

/// A property of a rich node: one occurrence, as read, in the reader's own
/// shape; its name (when [`flag::DIRTY`]) points into
/// [`Store::ident_text`] and its values into [`Store::values`].
pub(crate) type RichProp = crate::events::PropTok;

impl Default for GameData {
    fn default() -> Self {
        GameData {
            root: NONE,
            start: 0,
            end: 0,
            size: crate::value::BoardSize::default(),
            game_type: 1,
            ca: Span32::default(),
            mode: ValueMode::Bytes,
            chars_from: 0,
        }
    }
}

/// One game tree: its root node, its span in the input, its root's `SZ` and
/// `GM` read, where its root's `CA` value is (empty when absent), and how
/// its values are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GameData {
    pub(crate) root: u32,
    pub(crate) start: u32,
    pub(crate) end: u32,
    /// The board size from `SZ` (19×19 when absent or malformed).
    pub(crate) size: crate::value::BoardSize,
    /// The game from `GM` (1, Go, when absent or malformed).
    pub(crate) game_type: u32,
    pub(crate) ca: Span32,
    /// How the game's values are read from `chars_from` on; before it (in
    /// the root, up to the end of its first `CA`) they are read byte by
    /// byte.
    pub(crate) mode: ValueMode,
    pub(crate) chars_from: u32,
}

/// Everything a parse produces. Owned by a [`Parser`] (and reused by it) or
/// by a [`Document`].
#[derive(Debug, Default)]
pub(crate) struct Store {
    pub(crate) nodes: Vec<NodeData>,
    /// One per property occurrence: a plain node's value span, or a rich
    /// node's index into `rich` (in `start`).
    pub(crate) slots: Vec<Span32>,
    pub(crate) rich: Vec<RichProp>,
    /// The values of rich properties.
    pub(crate) values: Vec<Span32>,
    /// Normalised spellings of identifiers that were not all upper-case.
    pub(crate) ident_text: Vec<u8>,
    pub(crate) games: Vec<GameData>,
    /// The index in the input of the first game here (one game at a time).
    pub(crate) game_base: usize,
    pub(crate) warnings: Vec<Warning>,
    pub(crate) warnings_dropped: usize,
    pub(crate) warning_counts: [u32; WarningKind::COUNT],
    // Scratch space of the reader, kept for its capacity.
    pub(crate) bufs: Buffers,
    /// Whether some game's values are read a character at a time.
    pub(crate) any_chars: bool,
    /// Each game's charset, found on first use.
    pub(crate) charsets: Vec<OnceLock<Charset>>,
    /// The charset of every game, from the parse options.
    pub(crate) override_charset: Option<&'static encoding_rs::Encoding>,
    /// Checkpoints for positions in a large input, found on first use.
    pub(crate) lines: std::cell::RefCell<LineIndex>,
    /// Where the input starts in the stream it was read from.
    pub(crate) origin: stream::Origin,
    /// Text that changed when decoded.
    pub(crate) arena: crate::text::Arena,
}

impl Store {
    pub(crate) fn clear(&mut self) {
        self.nodes.clear();
        self.slots.clear();
        self.rich.clear();
        self.values.clear();
        self.ident_text.clear();
        self.games.clear();
        self.warnings.clear();
        self.warnings_dropped = 0;
        self.warning_counts = [0; WarningKind::COUNT];
        self.any_chars = false;
        self.charsets.clear();
        self.arena.reset();
        // `lines` belongs to the input, not to one game of it: the builder
        // drops it when it starts a new input.
    }

    /// Heap bytes held by this store (its capacity, not just what is used).
    pub(crate) fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.nodes.capacity() * size_of::<NodeData>()
            + self.slots.capacity() * size_of::<Span32>()
            + self.rich.capacity() * size_of::<RichProp>()
            + self.values.capacity() * size_of::<Span32>()
            + self.ident_text.capacity()
            + self.games.capacity() * size_of::<GameData>()
            + self.warnings.capacity() * size_of::<Warning>()
            + self.bufs.heap_bytes()
            + self.charsets.capacity() * size_of::<OnceLock<Charset>>()
            + self.lines.borrow().heap_bytes()
            + self.arena.allocated_bytes()
    }

    /// The slots of node `index`.
    #[inline(always)]
    pub(crate) fn slot_range(&self, index: usize) -> std::ops::Range<usize> {
        let start = (self.nodes[index].props & !RICH) as usize;
        let end = self
            .nodes
            .get(index + 1)
            .map_or(self.slots.len(), |n| (n.props & !RICH) as usize);
        start..end
    }
}

/// A collection copied out of the parser that read it (a game of a stream,
/// handed to another thread while the parser reads on): its records and
/// the input they point into, owned. Text decoded, charsets and line
/// checkpoints are not copied: they are found again on first use.
#[cfg(all(feature = "archives", feature = "parallel"))]
#[derive(Debug, Default)]
pub(crate) struct OwnedCollection {
    store: Store,
    input: Vec<u8>,
}

#[cfg(all(feature = "archives", feature = "parallel"))]
impl OwnedCollection {
    /// The copy, to read.
    pub(crate) fn collection(&self) -> Collection<'_, '_> {
        Collection {
            store: &self.store,
            input: &self.input,
        }
    }

    /// The bytes of input it holds.
    pub(crate) fn input_len(&self) -> usize {
        self.input.len()
    }

    /// The heap bytes it holds (its room, not just what is used).
    pub(crate) fn heap_bytes(&self) -> usize {
        self.input.capacity() + self.store.heap_bytes()
    }
}

#[cfg(all(feature = "archives", feature = "parallel"))]
impl Collection<'_, '_> {
    /// Copies this collection into `out` (reusing its room), with as much
    /// of its input as its games take (none when it holds warnings alone).
    pub(crate) fn copy_into(&self, out: &mut OwnedCollection) {
        fn copy<T: Clone>(to: &mut Vec<T>, from: &[T]) {
            if to.capacity() < from.len() {
                // A new block (growing the old one would copy it first),
                // with room to spare: the copy is reused for other games.
                let mut new = Vec::with_capacity(from.len().next_power_of_two());
                new.extend_from_slice(from);
                *to = new;
            } else {
                to.clear();
                to.extend_from_slice(from);
            }
        }
        let s = self.store;
        let o = &mut out.store;
        o.clear();
        copy(&mut o.nodes, &s.nodes);
        copy(&mut o.slots, &s.slots);
        copy(&mut o.rich, &s.rich);
        copy(&mut o.values, &s.values);
        copy(&mut o.ident_text, &s.ident_text);
        copy(&mut o.games, &s.games);
        copy(&mut o.warnings, &s.warnings);
        o.game_base = s.game_base;
        o.warnings_dropped = s.warnings_dropped;
        o.warning_counts = s.warning_counts;
        o.any_chars = s.any_chars;
        o.charsets.resize_with(s.charsets.len(), OnceLock::new);
        o.override_charset = s.override_charset;
        o.origin = s.origin;
        o.lines.get_mut().reset();
        let upto = s.games.iter().map(|g| g.end as usize).max().unwrap_or(0);
        copy(&mut out.input, &self.input[..upto.min(self.input.len())]);
    }
}
