//! Stage two and three: the tree builder and the arena tree it fills.
//!
//! [`Parser::parse`] runs the lexer over the input once and records, for every
//! node, its byte offset and its parent, first-child and next-sibling links as
//! `u32` ids in one flat array. Properties and values are *not* stored: they
//! are borrowed slices of the input that the read API finds again, lazily, by
//! re-running the same lexer over the node's few bytes
//! ([`Node::properties`]). This keeps the arena at 16 bytes per node (about
//! twice the input size for real game records, where a node averages under 8
//! bytes) and a warm [`Parser`] free of heap allocations.
//!
//! The few facts the re-lexing cannot see cheaply are recorded at build time
//! in side tables: the normalised spelling of identifiers that were not
//! already upper-case (`CoPyright` → `CP`), and which nodes repeat a property.
//!
//! Handles ([`Collection`], [`GameTree`], [`Node`], [`Property`]) are `Copy`:
//! a reference to the arena and an index. Nothing is ever recursive: building,
//! walking, writing and dropping a tree of any depth uses constant stack.

mod build;
mod describe;
mod iter;

#[doc(hidden)]
pub use describe::describe;

pub use iter::{Ancestors, Children, Descendants, Games, MainLine, Properties, Values};

use crate::error::{Result, Warning, WarningKind};
use crate::lexer::{ident_matches, PropLexer, RawProp, ValueMode};
use crate::span::{LineIndex, Position, Span};
use crate::text::Charset;
use std::num::NonZeroU32;
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

/// One node in the arena: 16 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct NodeData {
    pub(crate) parent: u32,
    pub(crate) first_child: u32,
    pub(crate) next_sibling: u32,
    /// Offset of the node's `;`, or of its first identifier when the `;` is
    /// missing.
    pub(crate) start: u32,
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

/// A byte range in 8 bytes (offsets are below 4 GiB).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Span32 {
    pub(crate) start: u32,
    pub(crate) end: u32,
}

impl Span32 {
    pub(crate) fn new(start: usize, end: usize) -> Span32 {
        Span32 {
            start: start as u32,
            end: end as u32,
        }
    }
    pub(crate) fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
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

/// The normalised spelling of an identifier that was not all upper-case.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DirtyIdent {
    /// Offset of the raw identifier's first byte.
    pub(crate) offset: u32,
    /// Range of the normalised spelling in [`Store::ident_text`].
    pub(crate) text: (u32, u32),
}

/// Everything a parse produces. Owned by a [`Parser`] (and reused by it) or
/// by a [`Document`].
#[derive(Debug, Default)]
pub(crate) struct Store {
    pub(crate) nodes: Vec<NodeData>,
    pub(crate) games: Vec<GameData>,
    pub(crate) warnings: Vec<Warning>,
    pub(crate) warnings_dropped: usize,
    pub(crate) warning_counts: [u32; WarningKind::COUNT],
    /// Sorted by offset.
    pub(crate) dirty: Vec<DirtyIdent>,
    pub(crate) ident_text: String,
    /// One bit per node (by index): whether it repeats a property. Only as
    /// long as needed to hold the last such node.
    pub(crate) repeats: Vec<u64>,
    /// Identifier offsets of first occurrences that later ones merge into,
    /// sorted.
    pub(crate) repeat_heads: Vec<u32>,
    /// Identifier offsets of later occurrences, sorted.
    pub(crate) repeat_tails: Vec<u32>,
    // Scratch space of the builder, kept for its capacity.
    pub(crate) frames: Vec<build::Frame>,
    pub(crate) seen: Vec<(u64, RawProp)>,
    /// Whether some game's values are read a character at a time.
    pub(crate) any_chars: bool,
    /// Each game's charset, found on first use.
    pub(crate) charsets: Vec<OnceLock<Charset>>,
    /// The charset of every game, from the parse options.
    pub(crate) override_charset: Option<&'static encoding_rs::Encoding>,
    /// Checkpoints for positions in a large input, found on first use.
    pub(crate) lines: OnceLock<LineIndex>,
}

impl Store {
    fn clear(&mut self) {
        self.nodes.clear();
        self.games.clear();
        self.warnings.clear();
        self.warnings_dropped = 0;
        self.warning_counts = [0; WarningKind::COUNT];
        self.dirty.clear();
        self.ident_text.clear();
        self.repeats.clear();
        self.repeat_heads.clear();
        self.repeat_tails.clear();
        self.frames.clear();
        self.seen.clear();
        self.any_chars = false;
        self.charsets.clear();
        // `lines` belongs to the input, not to one chunk of it: the builder
        // drops it when it starts a new input.
    }

    /// Heap bytes held by this store (its capacity, not just what is used).
    fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.nodes.capacity() * size_of::<NodeData>()
            + self.games.capacity() * size_of::<GameData>()
            + self.warnings.capacity() * size_of::<Warning>()
            + self.dirty.capacity() * size_of::<DirtyIdent>()
            + self.ident_text.capacity()
            + self.repeats.capacity() * size_of::<u64>()
            + (self.repeat_heads.capacity() + self.repeat_tails.capacity()) * size_of::<u32>()
            + self.frames.capacity() * size_of::<build::Frame>()
            + self.seen.capacity() * size_of::<(u64, RawProp)>()
            + self.charsets.capacity() * size_of::<OnceLock<Charset>>()
            + self.lines.get().map_or(0, LineIndex::heap_bytes)
    }
}

/// How to parse. Built with methods:
///
/// ```
/// use sgf_grove::{ParseOptions, Parser};
/// let mut parser = Parser::with_options(ParseOptions::new().strict(true));
/// assert!(parser.parse(b"(;B[aa])").is_ok());
/// assert!(parser.parse(b"(;B[aa]").is_err()); // unclosed game tree
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseOptions {
    strict: bool,
    max_warnings: usize,
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
    pub fn strict(mut self, yes: bool) -> ParseOptions {
        self.strict = yes;
        self
    }

    /// Keep at most `max` warnings per parse; further ones are only counted
    /// ([`Collection::warnings_dropped`]).
    ///
    /// Default: 10,000, so that a hostile input cannot make the warning list
    /// larger than the tree.
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
    /// holding that game alone (a split-off detached variation rides along)
    /// and the warnings found since the previous call, before the next game
    /// is read. The arena is reused, so memory stays that of the largest
    /// game, however large the input. Positions are those of the whole
    /// input. Returns the number of games.
    ///
    /// ```
    /// let mut parser = sgf_grove::Parser::new();
    /// let mut nodes = Vec::new();
    /// let games = parser.parse_each(b"(;B[aa])\n(;B[bb];W[cc])", |coll| nodes.push(coll.node_count()))?;
    /// assert_eq!((games, nodes), (2, vec![1, 2]));
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Parser::parse`]; the games before the error have been handed
    /// to `f`.
    pub fn parse_each<'src>(
        &mut self,
        input: &'src [u8],
        mut f: impl FnMut(Collection<'_, 'src>),
    ) -> Result<usize> {
        let mut chunk = build::Chunk {
            one_game: true,
            ..build::Chunk::default()
        };
        let mut games = 0;
        loop {
            let more = build::build_chunk(input, &self.options, &mut self.store, &mut chunk)?;
            games += self.store.games.len();
            if !self.store.games.is_empty() || !self.store.warnings.is_empty() {
                f(Collection {
                    store: &self.store,
                    input,
                });
            }
            if !more {
                return Ok(games);
            }
        }
    }

    /// Heap bytes the parser's arena holds now (capacity, not just use).
    pub fn arena_bytes(&self) -> usize {
        self.store.heap_bytes()
    }
}

/// A parsed input that owns its arena, as returned by [`parse`].
/// [`Document::collection`] gives the [`Collection`] view; the most used
/// methods are repeated here.
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
        if self.input.len() <= LineIndex::STRIDE {
            return Position::locate(self.input, offset);
        }
        self.store
            .lines
            .get_or_init(|| LineIndex::new(self.input, LineIndex::STRIDE))
            .locate(self.input, offset)
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
        (id.index() < self.store.nodes.len()).then_some(Node { coll: *self, id })
    }

    /// Every node of every game, in pre-order (file order for a parsed tree).
    pub fn nodes(&self) -> impl ExactSizeIterator<Item = Node<'t, 'src>> + 't {
        let coll = *self;
        (0..self.store.nodes.len() as u32).map(move |index| Node {
            coll,
            id: NodeId::from_link(index + 1).expect("non-zero"),
        })
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

    /// Whether the identifier at `offset` is the first of several
    /// occurrences in its node.
    #[inline]
    pub(crate) fn is_repeat_head(&self, offset: usize) -> bool {
        self.store
            .repeat_heads
            .binary_search(&(offset as u32))
            .is_ok()
    }

    /// Whether the identifier at `offset` repeats one earlier in its node.
    #[inline]
    pub(crate) fn is_repeat_tail(&self, offset: usize) -> bool {
        self.store
            .repeat_tails
            .binary_search(&(offset as u32))
            .is_ok()
    }

    /// The normalised spelling of the dirty identifier starting at `offset`.
    fn dirty_ident(&self, offset: usize) -> &'t str {
        let store = self.store;
        match store
            .dirty
            .binary_search_by_key(&(offset as u32), |d| d.offset)
        {
            Ok(i) => {
                let (s, e) = store.dirty[i].text;
                &store.ident_text[s as usize..e as usize]
            }
            Err(_) => "",
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

    /// The position of this tree in its collection, from 0.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The root node: the first node of the tree, holding the root and
    /// game-info properties.
    pub fn root(&self) -> Node<'t, 'src> {
        Node {
            coll: self.coll,
            id: NodeId::from_link(self.data().root).expect("a game has a root"),
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

    /// Every node of the tree, depth-first in pre-order.
    pub fn nodes(&self) -> Descendants<'t, 'src> {
        self.root().descendants()
    }
}

/// A node of a game tree: a `Copy` handle (the arena and an id).
#[derive(Clone, Copy)]
pub struct Node<'t, 'src: 't> {
    pub(crate) coll: Collection<'t, 'src>,
    pub(crate) id: NodeId,
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
        self.link(self.data().first_child)
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
        self.data().first_child == NONE
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

    #[inline]
    fn lexer(&self) -> PropLexer<'src> {
        self.lexer_at(self.body())
    }

    /// A lexer for the node's properties from `pos` on, reading each value
    /// in the mode it was read in when parsing (see [`GameData::mode`]).
    #[inline]
    pub(crate) fn lexer_at(&self, pos: usize) -> PropLexer<'src> {
        let input = self.coll.input;
        if !self.coll.store.any_chars {
            return PropLexer::new(input, pos, ValueMode::Bytes);
        }
        let game = self.game_data();
        PropLexer::new(input, pos, ValueMode::Bytes)
            .switching_at(game.chars_from as usize, game.mode)
    }

    /// How this game's values are read after its root's `CA` (per game: by
    /// its charset).
    #[inline]
    pub(crate) fn mode(&self) -> ValueMode {
        if self.coll.store.any_chars {
            self.game_data().mode
        } else {
            ValueMode::Bytes
        }
    }

    /// How a value of this node starting at `pos` was read: the game's
    /// mode from `chars_from` on, byte by byte before it.
    #[inline]
    fn mode_at(&self, pos: usize) -> ValueMode {
        if !self.coll.store.any_chars {
            return ValueMode::Bytes;
        }
        let game = self.game_data();
        if pos >= game.chars_from as usize {
            game.mode
        } else {
            ValueMode::Bytes
        }
    }

    #[inline]
    fn game_data(&self) -> &'t GameData {
        &self.coll.store.games[self.game_index()]
    }

    /// The index of the game this node belongs to: games own consecutive
    /// runs of node ids, so a binary search over their roots finds it.
    #[inline]
    pub(crate) fn game_index(&self) -> usize {
        let link = self.id.index() as u32 + 1;
        self.coll
            .store
            .games
            .partition_point(|g| g.root <= link)
            .saturating_sub(1)
    }

    /// The game tree this node belongs to.
    pub fn game(&self) -> GameTree<'t, 'src> {
        GameTree {
            coll: self.coll,
            index: self.game_index(),
        }
    }

    /// Whether the node repeats a property (recorded while parsing).
    #[inline]
    fn has_repeats(&self) -> bool {
        let index = self.id.index();
        self.coll
            .store
            .repeats
            .get(index / 64)
            .is_some_and(|word| word >> (index % 64) & 1 == 1)
    }

    /// The bytes of the node: from its `;` to the end of its last value.
    pub fn span(&self) -> Span {
        let mut lexer = self.lexer();
        let mut end = self.body();
        while let Some(p) = lexer.next_prop(&mut crate::lexer::NoSink) {
            end = p.end;
        }
        Span::new(self.offset(), end)
    }

    /// The node's properties exactly as the writer writes them, when that
    /// is a slice of the input: no repeats, and every property an
    /// upper-case identifier right after the previous property (no
    /// whitespace, junk or dropped bytes between), its `[` right after it,
    /// and one value closed by its `]`. `None` otherwise.
    pub(crate) fn written_as_is(&self) -> Option<&'src [u8]> {
        if self.has_repeats() {
            return None;
        }
        let input = self.coll.input;
        let body = self.body();
        let mut lexer = self.lexer();
        let mut end = body;
        while let Some(p) = lexer.next_prop(&mut crate::lexer::NoSink) {
            let as_is = p.clean
                && p.ident.0 == end
                && p.ident.1 == p.first_value
                && p.end == p.first_resume
                && p.end == p.first_end + 1
                && input[p.first_end] == b']';
            if !as_is {
                return None;
            }
            end = p.end;
        }
        Some(&input[body..end])
    }

    /// Every occurrence of every property, in file order, repeats not
    /// merged: for the writer, which keeps a character-wise root's
    /// properties where they were.
    pub(crate) fn occurrences(&self) -> Properties<'t, 'src> {
        Properties::new(*self, self.lexer(), false)
    }

    /// Whether the node is a root whose `CA` switched to reading a character
    /// at a time and whose properties repeat: the writer then keeps the
    /// occurrences apart.
    pub(crate) fn keeps_occurrences(&self) -> bool {
        self.is_root() && self.mode() != ValueMode::Bytes && self.has_repeats()
    }

    /// The properties in file order. A property repeated in the node appears
    /// once, at its first place, with the values of every occurrence.
    pub fn properties(&self) -> Properties<'t, 'src> {
        Properties::new(*self, self.lexer(), self.has_repeats())
    }

    /// The property with the normalised identifier `ident` (`"B"`, `"AB"`,
    /// `"CP"` also for an old `CoPyright`), if present.
    pub fn property(&self, ident: &str) -> Option<Property<'t, 'src>> {
        let mut lexer = self.lexer();
        let ident = ident.as_bytes();
        let input = self.coll.input;
        while let Some(raw) = lexer.next_prop(&mut crate::lexer::NoSink) {
            if ident_matches(&input[raw.ident.0..raw.ident.1], raw.clean, ident) {
                return Some(Property {
                    node: *self,
                    raw,
                    merged: self.has_repeats() && self.coll.is_repeat_head(raw.ident.0),
                });
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

/// A property of a node: an identifier and one or more values.
#[derive(Clone, Copy)]
pub struct Property<'t, 'src: 't> {
    node: Node<'t, 'src>,
    raw: RawProp,
    /// Whether later occurrences in the node must be merged in.
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
    /// The normalised identifier: the upper-case letters of the raw one.
    #[inline]
    pub fn ident(&self) -> &'t str {
        if self.raw.clean {
            let bytes = &self.node.coll.input[self.raw.ident.0..self.raw.ident.1];
            // Clean identifiers are ASCII upper-case letters only.
            std::str::from_utf8(bytes).unwrap_or("")
        } else {
            self.node.coll.dirty_ident(self.raw.ident.0)
        }
    }

    /// The identifier as written, at its first occurrence (`CoPyright`).
    #[inline]
    pub fn ident_raw(&self) -> &'src [u8] {
        &self.node.coll.input[self.raw.ident.0..self.raw.ident.1]
    }

    /// The node this property belongs to.
    pub fn node(&self) -> Node<'t, 'src> {
        self.node
    }

    /// The values in file order, merged over repeats of the property.
    pub fn values(&self) -> Values<'t, 'src> {
        Values::new(*self)
    }

    /// The first value, raw (still escaped).
    pub fn raw(&self) -> &'src [u8] {
        self.first_value().raw
    }

    /// The bytes of the property's first occurrence: from the identifier to
    /// the end of its last value.
    pub fn span(&self) -> Span {
        Span::new(self.raw.ident.0, self.raw.end)
    }

    /// Whether the identifier needed normalising.
    pub(crate) fn raw_prop(&self) -> RawProp {
        self.raw
    }

    /// How this occurrence's values were read: the game's mode, or byte by
    /// byte for a root property before the `CA` that switched it.
    pub(crate) fn mode(&self) -> ValueMode {
        self.node.mode_at(self.raw.first_value)
    }

    /// The first value, with its span, found without a second scan.
    pub fn first_value(&self) -> Value<'src> {
        let span = Span::new(self.raw.first_value + 1, self.raw.first_end);
        Value {
            raw: &self.node.coll.input[span.start..span.end],
            span,
        }
    }
}

/// One value of a property: a borrowed, still-escaped slice of the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value<'src> {
    raw: &'src [u8],
    span: Span,
}

impl<'src> Value<'src> {
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
