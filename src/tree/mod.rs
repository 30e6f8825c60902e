//! Stage three: the tree builder and the arena tree it fills.
//!
//! [`Parser::parse`] runs the [event reader](crate::events) over the input
//! once and records, in pre-order, every node (two `u32` links, its
//! offset, its first property slot: 16 bytes), every property (one 8-byte
//! slot) and every value (a span of the input, still escaped). The read API
//! reads those records and never lexes again: the reader's decisions (the
//! charset switch after a root's `CA`, merged repeats, normalised
//! identifiers, cut values) are made once.
//!
//! Nearly every node of a game record is *plain*: each property an
//! upper-case identifier right before its `[` and one closed value. Its
//! slot is the value's span; the identifier is the letters just before the
//! `[`. Any other node is *rich*: its slots point to records that keep the
//! spelling, the normalised name, all values and the flags. On real
//! collections the arena is under four times the input.
//!
//! Handles ([`Collection`], [`GameTree`], [`Node`], [`Property`]) are `Copy`:
//! a reference to the arena and an index. Nothing is ever recursive: building,
//! walking, writing and dropping a tree of any depth uses constant stack.

mod build;
mod iter;
mod stream;
mod typed;

pub use stream::StreamParser;

pub use iter::{Ancestors, Children, Descendants, Games, MainLine, Nodes, Properties, Values};
pub use typed::{Points, Typed, TypedValues};

use crate::error::{Result, Warning, WarningKind};
pub(crate) use crate::events::Span32;
use crate::events::{flag, Buffers};
use crate::lexer::ValueMode;
use crate::span::{LineIndex, Position, Span};
use crate::text::Charset;
use std::num::NonZeroU32;
use std::ops::ControlFlow;
use std::sync::OnceLock;

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

/// A property of a rich node: one occurrence, as read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RichProp {
    /// The identifier as written.
    pub(crate) ident: Span32,
    /// The normalised identifier: in the input, or in [`Store::ident_text`]
    /// when [`flag::DIRTY`].
    pub(crate) name: Span32,
    /// Its first value in [`Store::values`], and how many.
    pub(crate) values: u32,
    pub(crate) count: u32,
    /// How many slots further on the next occurrence in the node is (0: none).
    pub(crate) next: u32,
    pub(crate) flags: u8,
}

impl RichProp {
    #[inline(always)]
    pub(crate) fn has(&self, f: u8) -> bool {
        self.flags & f != 0
    }
}

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
    pub(crate) lines: OnceLock<LineIndex>,
    /// Where the input starts in the stream it was read from.
    pub(crate) origin: stream::Origin,
    /// Text that changed when decoded.
    pub(crate) arena: crate::text::Arena,
}

impl Store {
    fn clear(&mut self) {
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
    fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        if std::env::var_os("SGF_ARENA_DEBUG").is_some() {
            eprintln!("nodes {}/{} slots {}/{} rich {}/{} values {}/{} text {} warnings {} bufs {} lines {}", self.nodes.len(), self.nodes.capacity(), self.slots.len(), self.slots.capacity(), self.rich.len(), self.rich.capacity(), self.values.len(), self.values.capacity(), self.ident_text.capacity(), self.warnings.capacity(), self.bufs.heap_bytes(), self.lines.get().map_or(0, LineIndex::heap_bytes));
        }
        self.nodes.capacity() * size_of::<NodeData>()
            + self.slots.capacity() * size_of::<Span32>()
            + self.rich.capacity() * size_of::<RichProp>()
            + self.values.capacity() * size_of::<Span32>()
            + self.ident_text.capacity()
            + self.games.capacity() * size_of::<GameData>()
            + self.warnings.capacity() * size_of::<Warning>()
            + self.bufs.heap_bytes()
            + self.charsets.capacity() * size_of::<OnceLock<Charset>>()
            + self.lines.get().map_or(0, LineIndex::heap_bytes)
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

/// How to parse: leniently or strictly, how many warnings to keep, and a
/// charset for every game whatever its `CA` says. Built by methods, each
/// saying its default.
///
/// ```
/// use sgf_grove::{ErrorKind, ParseOptions, Parser, WarningKind};
/// let mut parser = Parser::with_options(ParseOptions::new().strict(true));
/// let err = parser.parse(b"(;GM[1]CoPyright[x])").unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Strict(WarningKind::LowercaseInIdent));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseOptions {
    strict: bool,
    pub(crate) max_warnings: usize,
    pub(crate) charset: Option<&'static encoding_rs::Encoding>,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            strict: false,
            max_warnings: 10_000,
            charset: None,
        }
    }
}

impl ParseOptions {
    /// The default options: lenient, at most 10,000 warnings kept.
    pub fn new() -> ParseOptions {
        ParseOptions::default()
    }

    /// Refuse every defect the lenient parser forgives: the first one becomes
    /// an [`Error`](crate::Error) of kind [`ErrorKind::Strict`](crate::ErrorKind::Strict).
    ///
    /// Default: `false`, because real collections are full of harmless
    /// defects and one of them should not cost a game.
    #[must_use]
    pub fn strict(mut self, yes: bool) -> ParseOptions {
        self.strict = yes;
        self
    }

    /// Keep at most `max` warnings per parse; further ones are only counted
    /// ([`Collection::warnings_dropped`]).
    ///
    /// Default: 10,000, so that a hostile input cannot make the warning list
    /// larger than the tree.
    #[must_use]
    pub fn max_warnings(mut self, max: usize) -> ParseOptions {
        self.max_warnings = max;
        self
    }

    /// Read every game's text in `encoding`, whatever its `CA` says (or
    /// `None`: from `CA`, else detected; see [`charset`](crate::text::charset)).
    /// Values are then also split a character at a time when the encoding
    /// needs it (Shift_JIS, Big5, GBK).
    ///
    /// Default: `None`, because `CA` is right far more often than not.
    #[must_use]
    pub fn charset(mut self, encoding: Option<&'static encoding_rs::Encoding>) -> ParseOptions {
        self.charset = encoding;
        self
    }

    /// Whether strict mode is on.
    pub fn is_strict(&self) -> bool {
        self.strict
    }
}

/// A reusable parser. It keeps its arena between inputs, so that once warm it
/// parses without allocating.
///
/// ```
/// let mut parser = sgf_grove::Parser::new();
/// for input in [&b"(;GM[1];B[aa])"[..], b"(;GM[1];B[bb];W[cc])"] {
///     let collection = parser.parse(input)?;
///     let game = collection.games().next().unwrap();
///     assert!(game.root().main_line().count() >= 2);
/// }
/// # Ok::<(), sgf_grove::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct Parser {
    options: ParseOptions,
    store: Store,
}

impl Parser {
    /// A parser with default options.
    pub fn new() -> Parser {
        Parser::default()
    }

    /// A parser with the given options.
    pub fn with_options(options: ParseOptions) -> Parser {
        Parser {
            options,
            store: Store::default(),
        }
    }

    /// The options in use.
    pub fn options(&self) -> &ParseOptions {
        &self.options
    }

    /// Parses `input` into a [`Collection`] that borrows this parser's arena
    /// and the input. The previous collection's arena is reused.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NoGameTree`](crate::ErrorKind::NoGameTree) when the input
    /// holds no game tree at all; in strict mode, the first defect found.
    pub fn parse<'t, 'src>(&'t mut self, input: &'src [u8]) -> Result<Collection<'t, 'src>> {
        build::build(input, &self.options, &mut self.store)?;
        Ok(Collection {
            store: &self.store,
            input,
        })
    }

    /// Parses `input` one game tree at a time: `f` gets a [`Collection`]
    /// holding that game alone and the warnings found since the previous
    /// call, before the next game is read. The arena is reused, so memory
    /// stays that of the largest game, however large the input. Positions
    /// and spans are those of the whole input, and
    /// [`GameTree::index`] counts the games of the whole input.
    ///
    /// `f` returns [`ControlFlow::Continue`] to go on, or
    /// [`ControlFlow::Break`] with a value (an error of its own, say) to
    /// stop; the result is `Continue` with the number of games read, or the
    /// `Break` value.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// let mut parser = sgf_grove::Parser::new();
    /// let mut seen = Vec::new();
    /// let flow = parser.parse_each(b"(;B[aa])\n(;B[bb];W[cc])", |coll| {
    ///     let game = coll.games().next().unwrap();
    ///     seen.push((game.index(), game.span().start, coll.node_count()));
    ///     ControlFlow::<()>::Continue(())
    /// })?;
    /// assert_eq!(flow, ControlFlow::Continue(2));
    /// assert_eq!(seen, [(0, 0, 1), (1, 9, 2)]);
    ///
    /// // Stop at the first game with more than one node.
    /// let flow = parser.parse_each(b"(;B[aa])(;B[bb];W[cc])(;B[dd])", |coll| {
    ///     if coll.node_count() > 1 { ControlFlow::Break(coll.games().next().unwrap().index()) }
    ///     else { ControlFlow::Continue(()) }
    /// })?;
    /// assert_eq!(flow, ControlFlow::Break(1));
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Parser::parse`]; the games before the error have been handed
    /// to `f`.
    pub fn parse_each<'src, B>(
        &mut self,
        input: &'src [u8],
        mut f: impl FnMut(Collection<'_, 'src>) -> ControlFlow<B>,
    ) -> Result<ControlFlow<B, usize>> {
        let mut stop = None;
        let games =
            build::build_each(input, &self.options, &mut self.store, &mut |store| match f(
                Collection { store, input },
            ) {
                ControlFlow::Continue(()) => ControlFlow::Continue(()),
                ControlFlow::Break(b) => {
                    stop = Some(b);
                    ControlFlow::Break(())
                }
            })?;
        Ok(match stop {
            Some(b) => ControlFlow::Break(b),
            None => ControlFlow::Continue(games),
        })
    }

    /// Heap bytes the parser's arena holds now (capacity, not just use).
    pub fn arena_bytes(&self) -> usize {
        self.store.heap_bytes()
    }
}

/// A parsed input that owns its arena, as returned by [`parse`].
/// [`Document::collection`] gives the [`Collection`] view; the most used
/// methods are repeated here.
///
/// # Threads
///
/// A `Document` (like a [`Parser`]) can be sent to another thread, but not
/// shared between threads: it is `Send` and not `Sync`, and so the handles
/// that borrow it ([`Collection`], [`GameTree`], [`Node`], [`Property`])
/// are neither `Send` nor `Sync`. The reason is the [arena](crate::text::Arena)
/// that decoded text goes to (a `bumpalo` bump allocator, which hands out
/// `&str` through a shared borrow and is not `Sync`). Keeping `Sync` would
/// need unsafe code (which the crate forbids) or a lock and a pool of arenas
/// per decode; the way to use cores is one parser per thread (per file, or
/// per game with [`Parser::parse_each`]), which needs only `Send`.
///
/// ```compile_fail
/// fn shared<T: Sync>(_: &T) {}
/// let doc = sgf_grove::parse(b"(;B[aa])").unwrap();
/// shared(&doc); // not Sync
/// ```
#[derive(Debug)]
pub struct Document<'src> {
    store: Store,
    input: &'src [u8],
}

impl<'src> Document<'src> {
    /// Parses `input` with `options`.
    ///
    /// # Errors
    ///
    /// As [`Parser::parse`].
    pub fn parse_with(input: &'src [u8], options: &ParseOptions) -> Result<Document<'src>> {
        let mut store = Store::default();
        build::build(input, options, &mut store)?;
        Ok(Document { store, input })
    }

    /// The collection view of this document.
    #[inline]
    pub fn collection(&self) -> Collection<'_, 'src> {
        Collection {
            store: &self.store,
            input: self.input,
        }
    }

    /// The game trees, in file order.
    pub fn games(&self) -> Games<'_, 'src> {
        self.collection().games()
    }

    /// The warnings, in file order.
    pub fn warnings(&self) -> &[Warning] {
        &self.store.warnings
    }

    /// Heap bytes the arena holds (capacity, not just use).
    pub fn arena_bytes(&self) -> usize {
        self.store.heap_bytes()
    }
}

/// A parsed collection: the game trees of one input, and the warnings.
///
/// `'t` is the borrow of the arena, `'src` the borrow of the input.
#[derive(Clone, Copy)]
pub struct Collection<'t, 'src: 't> {
    pub(crate) store: &'t Store,
    pub(crate) input: &'src [u8],
}

impl std::fmt::Debug for Collection<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Collection")
            .field("games", &self.store.games.len())
            .field("nodes", &self.store.nodes.len())
            .field("warnings", &self.store.warnings.len())
            .finish()
    }
}

impl<'t, 'src: 't> Collection<'t, 'src> {
    /// The input this collection was parsed from.
    #[inline]
    pub fn input(&self) -> &'src [u8] {
        self.input
    }

    /// The line and column of byte `offset` of the input (clamped to its
    /// length), as [`Position::locate`] gives them. In an input over 1 KiB
    /// the first call indexes the line breaks (one pass; 24 bytes per KiB),
    /// so that each later call scans at most 1 KiB: the errors of the values
    /// of a large collection do not cost a pass over the input each.
    ///
    /// ```
    /// let doc = sgf_grove::parse(b"(;GM[1]\n;B[aa]\n;W[bb])")?;
    /// let coll = doc.collection();
    /// let w = coll.game(0).unwrap().root().main_line().nth(2).unwrap();
    /// let pos = coll.position(w.span().start);
    /// assert_eq!((pos.line, pos.column), (3, 1));
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    pub fn position(&self, offset: usize) -> Position {
        let local = if self.input.len() <= LineIndex::STRIDE {
            Position::locate(self.input, offset)
        } else {
            self.store
                .lines
                .get_or_init(|| LineIndex::new(self.input, LineIndex::STRIDE))
                .locate(self.input, offset)
        };
        self.store.origin.shift(local)
    }

    /// The game trees, in file order.
    #[inline]
    pub fn games(&self) -> Games<'t, 'src> {
        Games::new(*self)
    }

    /// The `index`th game tree, if there is one.
    pub fn game(&self, index: usize) -> Option<GameTree<'t, 'src>> {
        (index < self.store.games.len()).then_some(GameTree { coll: *self, index })
    }

    /// The number of game trees.
    #[inline]
    pub fn len(&self) -> usize {
        self.store.games.len()
    }

    /// Whether there is no game tree (never true for a successful parse).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.store.games.is_empty()
    }

    /// The number of nodes in all game trees.
    #[inline]
    pub fn node_count(&self) -> usize {
        self.store.nodes.len()
    }

    /// The node with id `id`.
    ///
    /// # Panics
    ///
    /// When `id` does not belong to this collection; see
    /// [`Collection::try_node`].
    pub fn node(&self, id: NodeId) -> Node<'t, 'src> {
        self.try_node(id).expect("node id out of range")
    }

    /// The node with id `id`, or `None` when it does not belong here.
    pub fn try_node(&self, id: NodeId) -> Option<Node<'t, 'src>> {
        (id.index() < self.store.nodes.len()).then(|| self.handle(id))
    }

    /// Every node of every game, in pre-order (file order for a parsed tree).
    pub fn nodes(&self) -> iter::Nodes<'t, 'src> {
        iter::Nodes::new(*self)
    }

    /// The warnings of the parse, in the order found (file order).
    #[inline]
    pub fn warnings(&self) -> &'t [Warning] {
        &self.store.warnings
    }

    /// How many warnings were counted but not kept because of
    /// [`ParseOptions::max_warnings`].
    pub fn warnings_dropped(&self) -> usize {
        self.store.warnings_dropped
    }

    /// How many warnings of `kind` the parse found, kept or dropped.
    ///
    /// ```
    /// use sgf_grove::{ParseOptions, Parser, WarningKind};
    /// let mut parser = Parser::with_options(ParseOptions::new().max_warnings(1));
    /// let coll = parser.parse(b"(;B[aa]))))")?;
    /// assert_eq!(coll.warnings().len(), 1);
    /// assert_eq!(coll.warning_count(WarningKind::ExtraCloseParen), 3);
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    pub fn warning_count(&self, kind: WarningKind) -> usize {
        self.store.warning_counts[kind as usize] as usize
    }

    #[inline(always)]
    pub(crate) fn data(&self, id: NodeId) -> &'t NodeData {
        &self.store.nodes[id.index()]
    }

    /// The index of the game the node with arena index `index` belongs to:
    /// games own consecutive runs of nodes, so a binary search over their
    /// roots finds it.
    pub(crate) fn game_of(&self, index: usize) -> u32 {
        let link = index as u32 + 1;
        self.store
            .games
            .partition_point(|g| g.root <= link)
            .saturating_sub(1) as u32
    }

    #[inline(always)]
    pub(crate) fn handle(&self, id: NodeId) -> Node<'t, 'src> {
        Node {
            coll: *self,
            id,
            game: self.game_of(id.index()),
        }
    }
}

/// One game tree of a collection.
#[derive(Clone, Copy)]
pub struct GameTree<'t, 'src: 't> {
    coll: Collection<'t, 'src>,
    index: usize,
}

impl std::fmt::Debug for GameTree<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameTree")
            .field("index", &self.index)
            .field("span", &self.span())
            .finish()
    }
}

impl<'t, 'src: 't> GameTree<'t, 'src> {
    #[inline]
    pub(crate) fn data(&self) -> &'t GameData {
        &self.coll.store.games[self.index]
    }

    /// The position of this tree among the game trees of the input, from 0.
    /// In a collection of [`Parser::parse_each`], which holds one game, this
    /// counts the games before it in the input.
    pub fn index(&self) -> usize {
        self.coll.store.game_base + self.index
    }

    /// The position of this tree in [`Store::games`].
    #[inline(always)]
    pub(crate) fn local_index(&self) -> usize {
        self.index
    }

    /// The root node: the first node of the tree, holding the root and
    /// game-info properties.
    pub fn root(&self) -> Node<'t, 'src> {
        Node {
            coll: self.coll,
            id: NodeId::from_link(self.data().root).expect("a game has a root"),
            game: self.index as u32,
        }
    }

    /// The bytes of the tree in the input, from its `(` (or first `;`) to just
    /// after its `)` (or the point where it was cut off).
    pub fn span(&self) -> Span {
        let d = self.data();
        Span::new(d.start as usize, d.end as usize)
    }

    /// The collection this tree belongs to.
    pub fn collection(&self) -> Collection<'t, 'src> {
        self.coll
    }

    /// Every node of the tree, depth-first in pre-order: the game's run of
    /// the arena, which the parser fills in that order.
    pub fn nodes(&self) -> Nodes<'t, 'src> {
        let games = &self.coll.store.games;
        let start = self.data().root - 1;
        let end = games
            .get(self.index + 1)
            .map_or(self.coll.store.nodes.len() as u32, |g| g.root - 1);
        Nodes::range(self.coll, start, end, self.index as u32)
    }
}

/// A node of a game tree: a `Copy` handle (the arena, an id and its game).
#[derive(Clone, Copy)]
pub struct Node<'t, 'src: 't> {
    pub(crate) coll: Collection<'t, 'src>,
    pub(crate) id: NodeId,
    /// The index of its game in the store.
    pub(crate) game: u32,
}

impl PartialEq for Node<'_, '_> {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id && std::ptr::eq(self.coll.store, other.coll.store)
    }
}

impl Eq for Node<'_, '_> {}

impl std::fmt::Debug for Node<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Node")
            .field("id", &self.id.index())
            .field("offset", &self.offset())
            .finish()
    }
}

impl<'t, 'src: 't> Node<'t, 'src> {
    #[inline(always)]
    fn link(&self, link: u32) -> Option<Node<'t, 'src>> {
        NodeId::from_link(link).map(|id| Node {
            coll: self.coll,
            id,
            game: self.game,
        })
    }

    #[inline(always)]
    fn data(&self) -> &'t NodeData {
        self.coll.data(self.id)
    }

    /// This node's id.
    #[inline]
    pub fn id(&self) -> NodeId {
        self.id
    }

    /// The collection this node belongs to.
    #[inline]
    pub fn collection(&self) -> Collection<'t, 'src> {
        self.coll
    }

    /// The parent node, or `None` for a root.
    #[inline]
    pub fn parent(&self) -> Option<Node<'t, 'src>> {
        self.link(self.data().parent)
    }

    /// The first child: the next move of the main line from here.
    #[inline]
    pub fn first_child(&self) -> Option<Node<'t, 'src>> {
        let next = self.id.index() + 1;
        match self.coll.store.nodes.get(next) {
            Some(n) if n.parent == next as u32 => self.link(next as u32 + 1),
            _ => None,
        }
    }

    /// The next sibling: the next variation at this point.
    #[inline]
    pub fn next_sibling(&self) -> Option<Node<'t, 'src>> {
        self.link(self.data().next_sibling)
    }

    /// The previous sibling. Costs a walk over the earlier siblings.
    pub fn prev_sibling(&self) -> Option<Node<'t, 'src>> {
        let mut child = self.parent()?.first_child()?;
        let mut prev = None;
        while child.id != self.id {
            prev = Some(child);
            child = child.next_sibling()?;
        }
        prev
    }

    /// The children in order; the first is the main line.
    #[inline]
    pub fn children(&self) -> Children<'t, 'src> {
        Children::new(self.first_child())
    }

    /// This node's siblings that come after it, in order.
    pub fn following_siblings(&self) -> Children<'t, 'src> {
        Children::new(self.next_sibling())
    }

    /// Whether the node has no children (the end of a line of play).
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.first_child().is_none()
    }

    /// Whether the node has no parent.
    #[inline]
    pub fn is_root(&self) -> bool {
        self.data().parent == NONE
    }

    /// This node and all below it, depth-first in pre-order. Iterative: any
    /// depth is fine.
    pub fn descendants(&self) -> Descendants<'t, 'src> {
        Descendants::new(*self)
    }

    /// This node, its first child, that child's first child, and so on: the
    /// main line from here.
    pub fn main_line(&self) -> MainLine<'t, 'src> {
        MainLine::new(*self)
    }

    /// The parent, its parent, and so on up to the root.
    pub fn ancestors(&self) -> Ancestors<'t, 'src> {
        Ancestors::new(self.parent())
    }

    /// The number of ancestors (0 for a root). Costs a walk to the root.
    pub fn depth(&self) -> usize {
        self.ancestors().count()
    }

    /// Offset of the node's `;` (or of its first identifier when the `;` is
    /// missing).
    #[inline]
    pub fn offset(&self) -> usize {
        self.data().start as usize
    }

    /// Where the node's properties start.
    #[inline]
    fn body(&self) -> usize {
        let start = self.offset();
        start + (self.coll.input.get(start) == Some(&b';')) as usize
    }

    /// How this game's values are read after its root's `CA` (per game: by
    /// its charset).
    #[inline]
    #[allow(dead_code)]
    pub(crate) fn mode(&self) -> ValueMode {
        if self.coll.store.any_chars {
            self.game_data().mode
        } else {
            ValueMode::Bytes
        }
    }

    #[inline]
    fn game_data(&self) -> &'t GameData {
        &self.coll.store.games[self.game as usize]
    }

    /// The game tree this node belongs to.
    #[inline]
    pub fn game(&self) -> GameTree<'t, 'src> {
        GameTree {
            coll: self.coll,
            index: self.game as usize,
        }
    }

    /// Whether the node's slots point to rich records.
    #[inline(always)]
    fn is_rich(&self) -> bool {
        self.data().props & RICH != 0
    }

    /// The node's slots.
    #[inline(always)]
    pub(crate) fn slots(&self) -> std::ops::Range<usize> {
        self.coll.store.slot_range(self.id.index())
    }

    /// Whether some property of the node occurs more than once.
    fn has_repeats(&self) -> bool {
        self.is_rich()
            && self.slots().any(|s| {
                let r = &self.coll.store.rich[self.coll.store.slots[s].start as usize];
                r.has(flag::REPEAT)
            })
    }

    #[inline(always)]
    fn prop_at(&self, slot: usize, merged: bool) -> Property<'t, 'src> {
        Property {
            node: *self,
            slot: slot as u32,
            merged,
        }
    }

    /// The bytes of the node: from its `;` to the end of its last value.
    pub fn span(&self) -> Span {
        let end = match self.slots().last() {
            Some(slot) => self.prop_at(slot, false).span().end,
            None => self.body(),
        };
        Span::new(self.offset(), end)
    }

    /// The node's properties exactly as the writer writes them, when that
    /// is a slice of the input: a plain node (no repeats, each property an
    /// upper-case identifier right before its `[` and one closed value)
    /// whose properties follow each other with nothing between them.
    /// `None` otherwise.
    pub(crate) fn written_as_is(&self) -> Option<&'src [u8]> {
        if self.is_rich() {
            return None;
        }
        let input = self.coll.input;
        let body = self.body();
        let mut end = body;
        for slot in self.slots() {
            let p = self.prop_at(slot, false);
            let ident = p.ident_span();
            let value = self.coll.store.slots[slot];
            if ident.start != end {
                return None;
            }
            end = value.end as usize + 1;
        }
        Some(&input[body..end])
    }

    /// Every occurrence of every property, in file order, repeats not
    /// merged: for the writer, which keeps a character-wise root's
    /// properties where they were.
    pub(crate) fn occurrences(&self) -> Properties<'t, 'src> {
        Properties::new(*self, false)
    }

    /// Whether the node is a root whose `CA` switched to reading a character
    /// at a time and whose properties repeat: the writer then keeps the
    /// occurrences apart.
    pub(crate) fn keeps_occurrences(&self) -> bool {
        self.is_root() && self.mode() != ValueMode::Bytes && self.has_repeats()
    }

    /// The properties in file order. A property repeated in the node appears
    /// once, at its first place, with the values of every occurrence.
    #[inline]
    pub fn properties(&self) -> Properties<'t, 'src> {
        Properties::new(*self, true)
    }

    /// The number of properties (a repeated one counted once).
    pub fn property_count(&self) -> usize {
        if self.is_rich() {
            self.properties().count()
        } else {
            self.slots().len()
        }
    }

    /// The property with the normalised identifier `ident` (`"B"`, `"AB"`,
    /// `"CP"` also for an old `CoPyright`), if present.
    #[inline]
    pub fn property(&self, ident: &str) -> Option<Property<'t, 'src>> {
        let store = self.coll.store;
        let want = ident.as_bytes();
        let slots = self.slots();
        if !self.is_rich() {
            let input = self.coll.input;
            let n = want.len();
            for slot in slots {
                // The identifier is the upper-case letters right before `[`.
                let open = store.slots[slot].start as usize - 1;
                if open >= n
                    && &input[open - n..open] == want
                    && (open == n || !input[open - n - 1].is_ascii_uppercase())
                {
                    return Some(self.prop_at(slot, false));
                }
            }
            return None;
        }
        for slot in slots {
            let r = &store.rich[store.slots[slot].start as usize];
            if !r.has(flag::REPEAT) && self.coll.rich_name(r) == want {
                return Some(self.prop_at(slot, r.has(flag::HEAD)));
            }
        }
        None
    }

    /// Whether the node has the property `ident`.
    pub fn has(&self, ident: &str) -> bool {
        self.property(ident).is_some()
    }

    /// The first value of property `ident`, raw (still escaped), or `None`
    /// when the node lacks it.
    ///
    /// ```
    /// let doc = sgf_grove::parse(br"(;C[a \] b]B[cd])")?;
    /// let root = doc.games().next().unwrap().root();
    /// assert_eq!(root.get_raw("B"), Some(&b"cd"[..]));
    /// assert_eq!(root.get_raw("C"), Some(&br"a \] b"[..]));
    /// assert_eq!(root.get_raw("W"), None);
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    #[inline]
    pub fn get_raw(&self, ident: &str) -> Option<&'src [u8]> {
        self.property(ident).map(|p| p.raw())
    }

    /// All raw values of property `ident` (merged over repeats); empty when
    /// the node lacks it.
    pub fn raw_values(&self, ident: &str) -> Values<'t, 'src> {
        match self.property(ident) {
            Some(p) => p.values(),
            None => Values::empty(self.coll),
        }
    }
}

impl<'t, 'src: 't> Collection<'t, 'src> {
    /// The normalised name of a rich property.
    #[inline(always)]
    pub(crate) fn rich_name(&self, r: &RichProp) -> &'t [u8] {
        if r.has(flag::DIRTY) {
            &self.store.ident_text[r.name.range()]
        } else {
            // The input outlives the store borrow.
            let input: &'t [u8] = self.input;
            &input[r.name.range()]
        }
    }
}

/// A property of a node: an identifier and one or more values.
#[derive(Clone, Copy)]
pub struct Property<'t, 'src: 't> {
    node: Node<'t, 'src>,
    /// Its slot in the store.
    slot: u32,
    /// Whether later occurrences in the node are merged in.
    merged: bool,
}

impl std::fmt::Debug for Property<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Property")
            .field("ident", &self.ident())
            .field(
                "values",
                &self.values().map(|v| v.raw()).collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl<'t, 'src: 't> Property<'t, 'src> {
    #[inline]
    pub(crate) fn new(node: Node<'t, 'src>, slot: usize, merged: bool) -> Self {
        Property {
            node,
            slot: slot as u32,
            merged,
        }
    }

    /// The rich record, when the node is rich.
    #[inline(always)]
    pub(crate) fn rich(&self) -> Option<&'t RichProp> {
        let store = self.node.coll.store;
        self.node
            .is_rich()
            .then(|| &store.rich[store.slots[self.slot as usize].start as usize])
    }

    /// The span of a plain property's identifier.
    #[inline(always)]
    fn plain_ident(&self) -> Span {
        let input = self.node.coll.input;
        let open = self.node.coll.store.slots[self.slot as usize].start as usize - 1;
        let mut start = open;
        while start > 0 && input[start - 1].is_ascii_uppercase() {
            start -= 1;
        }
        Span::new(start, open)
    }

    /// The normalised identifier: the upper-case letters of the raw one.
    #[inline]
    pub fn ident(&self) -> &'t str {
        let bytes: &'t [u8] = match self.rich() {
            Some(r) => self.node.coll.rich_name(r),
            None => {
                let input: &'t [u8] = self.node.coll.input;
                &input[{
                    let s = self.plain_ident();
                    s.start..s.end
                }]
            }
        };
        // Normalised identifiers are upper-case ASCII letters only.
        std::str::from_utf8(bytes).unwrap_or("")
    }

    /// Where the identifier as written is, at its first occurrence.
    pub fn ident_span(&self) -> Span {
        match self.rich() {
            Some(r) => r.ident.span(),
            None => self.plain_ident(),
        }
    }

    /// The identifier as written, at its first occurrence (`CoPyright`).
    #[inline]
    pub fn ident_raw(&self) -> &'src [u8] {
        &self.node.coll.input[{
            let s = self.ident_span();
            s.start..s.end
        }]
    }

    /// The node this property belongs to.
    pub fn node(&self) -> Node<'t, 'src> {
        self.node
    }

    /// The values in file order, merged over repeats of the property.
    #[inline]
    pub fn values(&self) -> Values<'t, 'src> {
        Values::new(*self)
    }

    /// The first value, raw (still escaped).
    #[inline]
    pub fn raw(&self) -> &'src [u8] {
        self.first_value().raw
    }

    /// Whether the property's last value (at this occurrence) was cut off by
    /// the end of the input or by the start of the next game, instead of
    /// closed by its `]`.
    pub fn is_cut(&self) -> bool {
        self.rich().is_some_and(|r| r.has(flag::CUT))
    }

    /// The bytes of the property's first occurrence: from the identifier to
    /// the end of its last value (past its `]` unless it was cut off).
    pub fn span(&self) -> Span {
        let store = self.node.coll.store;
        let start = self.ident_span().start;
        let end = match self.rich() {
            Some(r) => {
                let last = store.values[(r.values + r.count - 1) as usize];
                last.end as usize + (!r.has(flag::CUT)) as usize
            }
            None => store.slots[self.slot as usize].end as usize + 1,
        };
        Span::new(start, end)
    }

    /// How this occurrence's values were read: a character at a time for a
    /// charset that needs it, else byte by byte.
    #[allow(dead_code)]
    pub(crate) fn mode(&self) -> ValueMode {
        match self.rich() {
            Some(r) if r.has(flag::CHARS) => self.node.mode(),
            _ => ValueMode::Bytes,
        }
    }

    /// Whether later occurrences are merged into this one.
    pub(crate) fn is_merged(&self) -> bool {
        self.merged
    }

    /// The slot of this property.
    pub(crate) fn slot(&self) -> usize {
        self.slot as usize
    }

    /// The first value, with its span.
    #[inline]
    pub fn first_value(&self) -> RawValue<'src> {
        let store = self.node.coll.store;
        let (span, cut) = match self.rich() {
            Some(r) => (
                store.values[r.values as usize],
                r.has(flag::CUT) && r.count == 1,
            ),
            None => (store.slots[self.slot as usize], false),
        };
        RawValue::new(self.node.coll.input, span, cut)
    }
}

/// One value of a property as written: a borrowed, still-escaped slice of
/// the input with its span ([`Property::values`], [`Node::raw_values`]);
/// the typed getters ([`Node::get`]) decode it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawValue<'src> {
    raw: &'src [u8],
    span: Span,
    cut: bool,
}

impl<'src> RawValue<'src> {
    #[inline(always)]
    pub(crate) fn new(input: &'src [u8], span: Span32, cut: bool) -> RawValue<'src> {
        RawValue {
            raw: &input[span.range()],
            span: span.span(),
            cut,
        }
    }
    /// The value's bytes as written, escapes and all, without the brackets.
    #[inline]
    pub fn raw(&self) -> &'src [u8] {
        self.raw
    }
    /// Where the value's bytes are in the input (without the brackets).
    #[inline]
    pub fn span(&self) -> Span {
        self.span
    }
    /// Whether the value was cut off by the end of the input (or by the
    /// start of the next game) instead of closed by its `]`: its bytes are
    /// those before the cut.
    ///
    /// ```
    /// let doc = sgf_grove::parse(b"(;GM[1]C[a comment cut")?;
    /// let c = doc.games().next().unwrap().root().property("C").unwrap();
    /// assert!(c.first_value().is_cut());
    /// assert_eq!(c.raw(), b"a comment cut");
    /// // A value cut before any byte of it is no value: the property is dropped.
    /// let doc = sgf_grove::parse(b"(;GM[1];B[aa];W[")?;
    /// let last = doc.games().next().unwrap().root().main_line().last().unwrap();
    /// assert!(!last.has("W"));
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    #[inline]
    pub fn is_cut(&self) -> bool {
        self.cut
    }
}

/// Parses `input` with default options into a [`Document`] that owns its
/// arena.
///
/// ```
/// let doc = sgf_grove::parse(b"(;GM[1]SZ[9];B[ee];W[ge])")?;
/// let root = doc.games().next().unwrap().root();
/// assert_eq!(root.get_raw("SZ"), Some(&b"9"[..]));
/// assert_eq!(root.main_line().count(), 3);
/// # Ok::<(), sgf_grove::Error>(())
/// ```
///
/// # Errors
///
/// [`ErrorKind::NoGameTree`](crate::ErrorKind::NoGameTree) when the input
/// holds no game tree.
pub fn parse(input: &[u8]) -> Result<Document<'_>> {
    Document::parse_with(input, &ParseOptions::default())
}

impl<'t, 'src: 't> Node<'t, 'src> {
    /// The rich record in `slot`, when the node is rich.
    #[inline(always)]
    pub(crate) fn rich_at(&self, slot: usize) -> Option<&'t RichProp> {
        let store = self.coll.store;
        self.is_rich()
            .then(|| &store.rich[store.slots[slot].start as usize])
    }
}

impl<'t, 'src: 't> Node<'t, 'src> {
    /// The node `id` of this node's game.
    #[inline(always)]
    pub(crate) fn in_game(&self, id: NodeId) -> Node<'t, 'src> {
        Node {
            coll: self.coll,
            id,
            game: self.game,
        }
    }
}
