//! The read-only handles over a store: `Copy` references plus an index.

use super::*;

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
    /// the line breaks are indexed as far as the offsets asked for reach
    /// (24 bytes per KiB), so that each call scans at most 1 KiB beyond
    /// what was indexed: the errors of the values of a large collection do
    /// not cost a pass over the input each.
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
            self.store.lines.borrow_mut().locate(self.input, offset)
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
    pub(crate) coll: Collection<'t, 'src>,
    pub(crate) index: usize,
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
    #[inline]
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

    /// How many of its nodes have a next sibling: the variations that
    /// branch off, read straight from the records.
    #[cfg(feature = "tables")]
    pub(crate) fn variation_count(&self) -> usize {
        let store = self.coll.store;
        let start = (self.data().root - 1) as usize;
        let end = store
            .games
            .get(self.index + 1)
            .map_or(store.nodes.len(), |g| (g.root - 1) as usize);
        store.nodes[start..end]
            .iter()
            .filter(|n| n.next_sibling != NONE)
            .count()
    }

    /// Calls `f` with the normalised identifier of every property of every
    /// node, in pre-order (a property repeated in one node once): what
    /// walking [`GameTree::nodes`] and [`Node::properties`] gives, read
    /// straight from the records.
    #[cfg(feature = "tables")]
    pub(crate) fn for_each_ident(&self, mut f: impl FnMut(&'t [u8])) {
        let store: &'t Store = self.coll.store;
        let input: &'t [u8] = self.coll.input;
        let start = (self.data().root - 1) as usize;
        let end = store
            .games
            .get(self.index + 1)
            .map_or(store.nodes.len(), |g| (g.root - 1) as usize);
        for index in start..end {
            let slots = &store.slots[store.slot_range(index)];
            if store.nodes[index].props & RICH == 0 {
                for slot in slots {
                    // A plain property: the letters right before its `[`.
                    let open = slot.start as usize - 1;
                    let mut from = open;
                    while from > 0 && input[from - 1].is_ascii_uppercase() {
                        from -= 1;
                    }
                    f(&input[from..open]);
                }
            } else {
                for slot in slots {
                    let r = &store.rich[slot.start as usize];
                    if !r.has(flag::REPEAT) {
                        f(self.coll.rich_name(r));
                    }
                }
            }
        }
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
    pub(crate) fn link(&self, link: u32) -> Option<Node<'t, 'src>> {
        NodeId::from_link(link).map(|id| Node {
            coll: self.coll,
            id,
            game: self.game,
        })
    }

    #[inline(always)]
    pub(crate) fn data(&self) -> &'t NodeData {
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
    pub(crate) fn body(&self) -> usize {
        let start = self.offset();
        start + (self.coll.input.get(start) == Some(&b';')) as usize
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

    /// How the value at input offset `at` in this node was read: byte by
    /// byte in a root up to the end of its first `CA` ([`GameData::chars_from`]),
    /// else as [`Node::mode`] says.
    #[inline]
    pub(crate) fn mode_at(&self, at: usize) -> ValueMode {
        let mode = self.mode();
        if mode != ValueMode::Bytes && self.is_root() && at < self.game_data().chars_from as usize {
            ValueMode::Bytes
        } else {
            mode
        }
    }

    #[inline]
    pub(crate) fn game_data(&self) -> &'t GameData {
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
    pub(crate) fn is_rich(&self) -> bool {
        self.data().props & RICH != 0
    }

    /// The node's slots.
    #[inline(always)]
    pub(crate) fn slots(&self) -> std::ops::Range<usize> {
        self.coll.store.slot_range(self.id.index())
    }

    /// Whether some property of the node occurs more than once.
    #[inline]
    pub(crate) fn has_repeats(&self) -> bool {
        self.is_rich()
            && self.slots().any(|s| {
                let r = &self.coll.store.rich[self.coll.store.slots[s].start as usize];
                r.has(flag::REPEAT)
            })
    }

    #[inline(always)]
    pub(crate) fn prop_at(&self, slot: usize, merged: bool) -> Property<'t, 'src> {
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
    #[inline]
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
    #[inline]
    pub(crate) fn occurrences(&self) -> Properties<'t, 'src> {
        Properties::new(*self, false)
    }

    /// Whether the node is a root whose `CA` switched to reading a character
    /// at a time and whose properties repeat: the writer then keeps the
    /// occurrences apart.
    #[inline]
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
        let want = ident.as_bytes();
        match IdentKey::new(want) {
            Some(key) => self.property_by_key(key),
            None => self.property_long(want),
        }
    }

    /// [`Node::property`] for an identifier of one to eight letters: the
    /// letters compared as one integer, no call to compare bytes.
    #[inline(always)]
    fn property_by_key(&self, key: IdentKey) -> Option<Property<'t, 'src>> {
        let store = self.coll.store;
        let slots = self.slots();
        if !self.is_rich() {
            let input = self.coll.input;
            for slot in slots {
                // The identifier is the upper-case letters right before `[`.
                if key.ends_at(input, store.slots[slot].start as usize - 1) {
                    return Some(self.prop_at(slot, false));
                }
            }
            return None;
        }
        for slot in slots {
            let r = &store.rich[store.slots[slot].start as usize];
            if !r.has(flag::REPEAT) && key.is(self.coll.rich_name(r)) {
                return Some(self.prop_at(slot, r.has(flag::HEAD)));
            }
        }
        None
    }

    /// [`Node::property`] for any other identifier (longer than eight
    /// letters, or empty).
    #[cold]
    #[inline(never)]
    fn property_long(&self, want: &[u8]) -> Option<Property<'t, 'src>> {
        let store = self.coll.store;
        let slots = self.slots();
        if !self.is_rich() {
            let input = self.coll.input;
            let n = want.len();
            for slot in slots {
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
    #[inline]
    pub fn has(&self, ident: &str) -> bool {
        self.property(ident).is_some()
    }

    /// The first value of property `ident`, raw (still escaped), or `None`
    /// when the node lacks it.
    ///
    /// ```
    /// let doc = sgf_grove::parse(br"(;C[a \] b]B[cd])")?;
    /// let root = doc.games().next().unwrap().root();
    /// assert_eq!(root.raw("B"), Some(&b"cd"[..]));
    /// assert_eq!(root.raw("C"), Some(&br"a \] b"[..]));
    /// assert_eq!(root.raw("W"), None);
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    #[inline]
    pub fn raw(&self, ident: &str) -> Option<&'src [u8]> {
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

/// An identifier of one to eight letters packed into an integer (its
/// first letter in the low byte): what a lookup compares each property's
/// name with, in one comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct IdentKey {
    word: u64,
    len: usize,
}

impl IdentKey {
    /// The key of `name`; `None` when it is empty or longer than eight
    /// letters.
    #[inline(always)]
    pub(crate) fn new(name: &[u8]) -> Option<IdentKey> {
        (1..=8).contains(&name.len()).then(|| IdentKey {
            word: pack(name),
            len: name.len(),
        })
    }

    /// Whether `name` is this identifier.
    #[inline(always)]
    pub(crate) fn is(self, name: &[u8]) -> bool {
        name.len() == self.len && pack(name) == self.word
    }

    /// Whether the upper-case letters that end at `end` in `input` (a
    /// value's `[`) spell this identifier, and no other upper-case letter
    /// stands before them.
    #[inline(always)]
    pub(crate) fn ends_at(self, input: &[u8], end: usize) -> bool {
        let n = self.len;
        if end < n {
            return false;
        }
        let got = match input.get(end.wrapping_sub(8)..end) {
            // The eight bytes before `end`, the last `n` of them kept.
            Some(&[a, b, c, d, e, f, g, h]) => {
                u64::from_le_bytes([a, b, c, d, e, f, g, h]) >> (8 * (8 - n))
            }
            _ => pack(&input[end - n..end]),
        };
        got == self.word && (end == n || !input[end - n - 1].is_ascii_uppercase())
    }
}

/// Up to eight bytes as one integer, the first in the low byte.
#[inline(always)]
fn pack(name: &[u8]) -> u64 {
    let mut word = 0u64;
    for (i, &b) in name.iter().take(8).enumerate() {
        word |= (b as u64) << (8 * i);
    }
    word
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
    pub(crate) node: Node<'t, 'src>,
    /// Its slot in the store.
    pub(crate) slot: u32,
    /// Whether later occurrences in the node are merged in.
    pub(crate) merged: bool,
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
    pub(crate) fn plain_ident(&self) -> Span {
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
        // Normalised identifiers are upper-case ASCII letters only.
        std::str::from_utf8(self.ident_bytes()).unwrap_or("")
    }

    /// [`Property::ident`] as bytes.
    #[inline]
    pub(crate) fn ident_bytes(&self) -> &'t [u8] {
        match self.rich() {
            Some(r) => self.node.coll.rich_name(r),
            None => {
                let input: &'t [u8] = self.node.coll.input;
                &input[{
                    let s = self.plain_ident();
                    s.start..s.end
                }]
            }
        }
    }

    /// Where the identifier as written is, at its first occurrence.
    #[inline]
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
    #[inline]
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

    /// Whether later occurrences are merged into this one.
    #[inline]
    pub(crate) fn is_merged(&self) -> bool {
        self.merged
    }

    /// The slot of this property.
    #[inline]
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
    pub(crate) raw: &'src [u8],
    pub(crate) span: Span,
    pub(crate) cut: bool,
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

impl<'t, 'src: 't> Node<'t, 'src> {
    /// The rich record in `slot`, when the node is rich.
    #[inline(always)]
    pub(crate) fn rich_at(&self, slot: usize) -> Option<&'t RichProp> {
        let store = self.coll.store;
        self.is_rich()
            .then(|| &store.rich[store.slots[slot].start as usize])
    }
}

#[cfg(test)]
mod ident_key_tests {
    use super::IdentKey;

    /// What [`IdentKey::ends_at`] must answer, the plain way.
    fn ends_at_slowly(want: &[u8], input: &[u8], end: usize) -> bool {
        let n = want.len();
        end >= n
            && &input[end - n..end] == want
            && (end == n || !input[end - n - 1].is_ascii_uppercase())
    }

    #[test]
    fn ends_at_agrees_with_a_byte_comparison_at_every_offset() {
        let input = b"B[aa]AB[bb]xAB[cc]MULTIGO[1]LONGNAMES[2]C[x]aC[y]CA[UTF-8];W[";
        let names: [&[u8]; 10] = [
            b"B",
            b"AB",
            b"C",
            b"CA",
            b"A",
            b"MULTIGO",
            b"LONGNAME",
            b"ULTIGO",
            b"W",
            b"BA",
        ];
        let mut hits = 0;
        for want in names {
            let key = IdentKey::new(want).unwrap();
            for end in 0..=input.len() {
                let expected = ends_at_slowly(want, input, end);
                assert_eq!(
                    key.ends_at(input, end),
                    expected,
                    "{:?} at {end}",
                    std::str::from_utf8(want)
                );
                hits += expected as usize;
            }
            assert!(key.is(want));
            assert!(!key.is(&want[..want.len() - 1]));
        }
        assert!(
            hits >= 8,
            "the cases hit too rarely to test anything: {hits}"
        );
        assert_eq!(IdentKey::new(b""), None);
        assert_eq!(IdentKey::new(b"MULTIGOGM"), None);
    }

    #[test]
    fn lookups_of_short_and_long_names_in_plain_and_rich_nodes() {
        let doc = crate::parse(b"(;GM[1]MULTIGOGM[1]PB[x]B[aa];AB[cc]xB[dd];C[a]C[b]MULTIGOGM[2])")
            .unwrap();
        let root = doc.games().next().unwrap().root();
        assert_eq!(root.raw("MULTIGOGM"), Some(&b"1"[..]));
        assert_eq!(root.raw("B"), Some(&b"aa"[..]));
        assert_eq!(root.raw("GM"), Some(&b"1"[..]));
        assert_eq!(root.raw("M"), None);
        let second = root.children().next().unwrap();
        assert_eq!(second.raw("AB"), Some(&b"cc"[..]));
        // Lower-case letters of an identifier are dropped: `xB` is `B`.
        assert_eq!(second.raw("B"), Some(&b"dd"[..]));
        let third = second.children().next().unwrap();
        assert_eq!(
            third.raw_values("C").map(|v| v.raw()).collect::<Vec<_>>(),
            [&b"a"[..], b"b"]
        );
        assert_eq!(third.raw("MULTIGOGM"), Some(&b"2"[..]));
    }
}
