//! Editing games: an owned, editable game tree, and a builder that records a
//! game from scratch.
//!
//! A parsed [`Document`](crate::Document) is read-only: its nodes are
//! records in pre-order and its values borrowed slices of the input, which
//! is what makes reading fast. An [`EditableGame`] is a game of its own: an
//! arena of nodes with explicit links (parent, children in order) and its
//! identifiers and values in one byte buffer it owns. Make one from a parsed
//! game ([`EditableGame::from_game`]) or from nothing
//! ([`EditableGame::new`], [`GameBuilder`]), edit it through [`EditId`]s,
//! read it back typed ([`EditNode::get`], with the crate's value decoders),
//! and write it ([`EditableGame::to_sgf`], or in any mode of the
//! [writer](crate::writer) with [`EditableGame::write_with`]). The read path
//! of a parse is untouched: nothing is copied until a game is made editable.
//!
//! - **Ids are stable.** A node keeps its [`EditId`] across every edit; a
//!   deleted node's id is never given to another node, and using it is an
//!   error of kind [`ErrorKind::NoSuchNode`].
//! - **What is written is read back.** Values given as raw bytes are
//!   checked ([`ErrorKind::InvalidRawValue`]);
//!   typed values ([`ToValue`](crate::value::ToValue)) are escaped and
//!   encoded in the game's charset; a node holding a property only a root
//!   may hold is never made the first node of a variation (a reader takes
//!   it for a new game). Parsing what [`EditableGame::to_sgf`] writes and
//!   making that editable gives the same tree, the fuzz target
//!   `edit_roundtrip` checks it.
//! - **Unedited, the bytes are the writer's.** A parsed game made editable
//!   and written gives what [`write_collection`](crate::write_collection)
//!   gives for it.
//! - **`SZ`, `GM` and `CA` are followed.** Setting the root's `SZ` changes
//!   the board that points and passes (`tt`) are read on, `GM` the game
//!   the catalogue is asked about, `CA` the charset of text (the bytes stay;
//!   a `CA` under which values would split differently is refused).
//!
//! Opening a game, promoting a variation, setting komi and writing:
//!
//! ```
//! use sgf_grove::edit::EditableGame;
//!
//! let doc = sgf_grove::parse(b"(;GM[1]SZ[19]KM[6.5];B[pd](;W[dd])(;W[dp]C[better]))")?;
//! let mut game = EditableGame::from_game(doc.games().next().unwrap());
//! let root = game.root();
//! let black = game.node(root)?.first_child().unwrap();
//! let better = game.node(black)?.children()[1];
//! game.promote(better)?;
//! game.set(root, "KM", 7.5)?;
//! game.append_comment(better, "promoted")?;
//! assert_eq!(game.to_sgf(), b"(;GM[1]SZ[19]KM[7.5];B[pd](;W[dp]C[better\npromoted])(;W[dd]))\n");
//! # Ok::<(), sgf_grove::Error>(())
//! ```

mod builder;
mod extract;
mod merge;
mod ops;
mod read;
mod replay;
mod write;

pub use builder::GameBuilder;
pub use extract::{Extract, ExtractError};
pub use merge::{merge_info, Conflict, GameCopy, MergeReport, Taken};

use crate::error::{Error, ErrorKind, Result};
use crate::events::Span32;
use crate::lexer::ValueMode;
use crate::text::Arena;
use crate::tree::GameTree;
use crate::value::{point_list_item, BoardSize, Color, FromValue, Move, Point, ValueContext};
use encoding_rs::{Encoding, UTF_8};
use std::num::NonZeroU32;

/// The properties only a root may hold: a node holding one that starts a
/// variation is read as a new game.
pub(crate) const ROOT_ONLY: [&str; 6] = ["GM", "FF", "CA", "AP", "ST", "SZ"];

/// Identifies a node of an [`EditableGame`]. Stable across edits; the id of
/// a deleted node is never reused.
///
/// In a game made by [`EditableGame::from_game`], the nodes are numbered as
/// the parsed game's, in pre-order: [`EditableGame::id_of`] finds a parsed
/// node's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EditId(NonZeroU32);

impl EditId {
    pub(crate) fn new(index: usize) -> EditId {
        let n = u32::try_from(index + 1).expect("fewer than 4 billion nodes");
        EditId(NonZeroU32::new(n).expect("index + 1 is not 0"))
    }

    /// The node's index in the game's arena (the root is 0; nodes made by
    /// edits come after those read).
    pub fn index(self) -> usize {
        self.0.get() as usize - 1
    }

    /// The id of the node at `index` in a game's arena, the inverse of
    /// [`EditId::index`]; `None` when no arena can hold that many nodes.
    /// Whether a game has that node (and has not deleted it) is for
    /// [`EditableGame::contains`] or [`EditableGame::node`] to say: a
    /// program that keeps nodes as numbers (bindings, a table) turns them
    /// back into ids this way.
    ///
    /// ```
    /// use sgf_grove::edit::{EditId, EditableGame};
    /// let doc = sgf_grove::parse(b"(;GM[1];B[aa];W[bb])")?;
    /// let mut game = EditableGame::from_game(doc.games().next().unwrap());
    /// let w = EditId::from_index(2).unwrap();
    /// assert_eq!(game.node(w)?.raw("W"), Some(&b"bb"[..]));
    /// game.delete(w)?;
    /// assert!(!game.contains(EditId::from_index(2).unwrap()));
    /// assert_eq!(EditId::from_index(u32::MAX as usize), None);
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    pub fn from_index(index: usize) -> Option<EditId> {
        let n = u32::try_from(index).ok()?.checked_add(1)?;
        NonZeroU32::new(n).map(EditId)
    }
}

/// One property: its identifier and values, as spans of
/// [`EditableGame::bytes`].
#[derive(Clone, Debug)]
pub(crate) struct Prop {
    pub(crate) ident: Span32,
    pub(crate) values: Vec<Span32>,
}

/// One node of the arena.
#[derive(Clone, Debug, Default)]
pub(crate) struct Slot {
    pub(crate) alive: bool,
    pub(crate) parent: Option<EditId>,
    pub(crate) children: Vec<EditId>,
    pub(crate) props: Vec<Prop>,
}

/// A game tree that can be edited, owning its nodes and values. See the
/// [module documentation](self).
pub struct EditableGame {
    pub(crate) nodes: Vec<Slot>,
    /// Identifiers and values; edits append, nothing moves.
    pub(crate) bytes: Vec<u8>,
    pub(crate) size: BoardSize,
    pub(crate) game_type: u32,
    /// The charset of text.
    pub(crate) encoding: &'static Encoding,
    /// Text decoded by the getters; emptied by every edit.
    pub(crate) arena: Arena,
}

impl Clone for EditableGame {
    fn clone(&self) -> Self {
        EditableGame {
            nodes: self.nodes.clone(),
            bytes: self.bytes.clone(),
            size: self.size,
            game_type: self.game_type,
            encoding: self.encoding,
            arena: Arena::new(),
        }
    }
}

impl std::fmt::Debug for EditableGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EditableGame")
            .field("nodes", &self.node_count())
            .field("size", &self.size)
            .field("charset", &self.encoding.name())
            .finish()
    }
}

impl EditableGame {
    /// A new Go game on a board of `size`: a root holding `GM[1]`, `FF[4]`,
    /// `CA[UTF-8]` and `SZ`.
    ///
    /// ```
    /// use sgf_grove::edit::EditableGame;
    /// use sgf_grove::value::BoardSize;
    /// let game = EditableGame::new(BoardSize::square(9));
    /// assert_eq!(game.to_sgf(), b"(;GM[1]FF[4]CA[UTF-8]SZ[9])\n");
    /// ```
    pub fn new(size: BoardSize) -> EditableGame {
        let mut game = EditableGame::empty(UTF_8);
        let root = game.root();
        let mut value = Vec::new();
        for (ident, raw) in [("GM", &b"1"[..]), ("FF", b"4"), ("CA", b"UTF-8")] {
            game.push_prop(root, ident.as_bytes(), &[raw]);
        }
        crate::value::ToValue::write_value(&size, &mut value).expect("a board size has digits");
        game.push_prop(root, b"SZ", &[&value]);
        game.size = size;
        game
    }

    /// A game of one empty root node whose text is in `encoding`.
    fn empty(encoding: &'static Encoding) -> EditableGame {
        EditableGame {
            nodes: vec![Slot {
                alive: true,
                ..Slot::default()
            }],
            bytes: Vec::new(),
            size: BoardSize::default(),
            game_type: 1,
            encoding,
            arena: Arena::new(),
        }
    }

    /// A copy of a parsed game that can be edited: every node, property and
    /// value (raw, as read; a property repeated in a node merged, as the
    /// writer writes it), numbered in pre-order as in `game`. Its charset is
    /// the game's; when the writer would record it in the root as `CA`
    /// (a charset detected from the bytes), the copy's root holds that `CA`,
    /// first.
    ///
    /// ```
    /// use sgf_grove::edit::EditableGame;
    /// let doc = sgf_grove::parse(b"(;PB[Jos\xe9];B[aa])")?; // Latin-1, no CA
    /// let game = EditableGame::from_game(doc.games().next().unwrap());
    /// let root = game.node(game.root())?;
    /// assert_eq!(root.raw("CA"), Some(&b"windows-1252"[..]));
    /// assert_eq!(root.text("PB"), Some("José"));
    /// assert_eq!(game.to_sgf(), sgf_grove::write_collection(doc.collection()));
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    pub fn from_game(game: GameTree<'_, '_>) -> EditableGame {
        let pin = game.charset_to_pin();
        let mut edit = EditableGame::empty(game.charset().encoding());
        edit.size = game.board_size();
        edit.game_type = game.game_type();
        let base = game.root().id().index();
        for node in game.nodes() {
            let index = node.id().index() - base;
            if index > 0 {
                let parent = node.parent().map(|p| EditId::new(p.id().index() - base));
                edit.nodes.push(Slot {
                    alive: true,
                    parent,
                    ..Slot::default()
                });
                if let Some(parent) = parent {
                    edit.nodes[parent.index()].children.push(EditId::new(index));
                }
            }
            let id = EditId::new(index);
            let mut skip_ca = false;
            if index == 0
                && let Some(encoding) = pin
            {
                edit.push_prop(id, b"CA", &[encoding.name().as_bytes()]);
                skip_ca = game.declared_charset().is_some();
            }
            let props = if node.keeps_occurrences() {
                node.occurrences()
            } else {
                node.properties()
            };
            let mut values = Vec::new();
            for prop in props {
                let ident = prop.ident_bytes();
                if skip_ca && ident == b"CA" {
                    continue;
                }
                values.clear();
                values.extend(prop.values().map(|v| v.raw()));
                edit.push_prop(id, ident, &values);
            }
        }
        edit
    }

    /// Appends a property to node `id` (no checks), its bytes to the buffer.
    pub(crate) fn push_prop(&mut self, id: EditId, ident: &[u8], values: &[&[u8]]) {
        let prop = self.new_prop(ident, values);
        self.nodes[id.index()].props.push(prop);
    }

    /// A property whose bytes are appended to the buffer.
    pub(crate) fn new_prop(&mut self, ident: &[u8], values: &[&[u8]]) -> Prop {
        let ident = self.store(ident);
        let values = values.iter().map(|v| self.store(v)).collect();
        Prop { ident, values }
    }

    /// Appends `bytes` to the buffer.
    pub(crate) fn store(&mut self, bytes: &[u8]) -> Span32 {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(bytes);
        Span32::new(start, self.bytes.len())
    }

    /// The root's id.
    pub fn root(&self) -> EditId {
        EditId::new(0)
    }

    /// The node `id`, to read.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NoSuchNode`] when `id` was deleted or is not of this
    /// game.
    pub fn node(&self, id: EditId) -> Result<EditNode<'_>> {
        self.check(id)?;
        Ok(EditNode::unplaced(self, id))
    }

    /// Whether `id` names a node of this game (one not deleted).
    pub fn contains(&self, id: EditId) -> bool {
        self.nodes.get(id.index()).is_some_and(|s| s.alive)
    }

    pub(crate) fn check(&self, id: EditId) -> Result<()> {
        if self.contains(id) {
            Ok(())
        } else {
            Err(Error::without_position(ErrorKind::NoSuchNode))
        }
    }

    /// The id that the node `node` of the parsed game this one was made
    /// from ([`EditableGame::from_game`]) has here, when `node` belongs to
    /// that game (`game`) and was not deleted.
    pub fn id_of(&self, game: GameTree<'_, '_>, node: crate::Node<'_, '_>) -> Option<EditId> {
        let base = game.root().id().index();
        let index = node.id().index().checked_sub(base)?;
        let id = EditId::new(index);
        (node.game().index() == game.index() && self.contains(id)).then_some(id)
    }

    /// The number of nodes (deleted ones not counted).
    pub fn node_count(&self) -> usize {
        self.nodes.iter().filter(|s| s.alive).count()
    }

    /// The board size, from the root's `SZ` (19×19 when absent or malformed).
    pub fn board_size(&self) -> BoardSize {
        self.size
    }

    /// The game, from the root's `GM` (1, Go, when absent or malformed).
    pub fn game_type(&self) -> u32 {
        self.game_type
    }

    /// The charset of the game's text: the one it was read in, or the one
    /// its `CA` names since it was set.
    pub fn charset(&self) -> &'static Encoding {
        self.encoding
    }

    /// Every node, depth-first in pre-order from the root. Iterative: any
    /// depth is fine.
    pub fn nodes(&self) -> Descendants<'_> {
        self.descendants_of(self.root())
    }

    pub(crate) fn descendants_of(&self, id: EditId) -> Descendants<'_> {
        Descendants {
            game: self,
            stack: vec![id],
        }
    }

    /// The moves of the main line, as [`GameTree::moves`] gives them: the
    /// `B` (else `W`) of each node down the first children, read on the
    /// game's board.
    ///
    /// # Errors
    ///
    /// A malformed move, as [`ErrorKind::InvalidValue`].
    pub fn moves(&self) -> Result<Vec<(Color, Move)>> {
        let mut moves = Vec::new();
        let mut at = Some(self.root());
        while let Some(id) = at {
            let node = EditNode::unplaced(self, id);
            if let Some(played) = node.played()? {
                moves.push(played);
            }
            at = node.first_child();
        }
        Ok(moves)
    }

    /// How values of property `prop` of node `id` are read: byte by byte in
    /// the root up to and including a `CA` that names a usable charset (and
    /// everywhere without one), else as the charset wants.
    pub(crate) fn mode_at(&self, id: EditId, prop: usize) -> ValueMode {
        match self.declared_ca() {
            Some(ca) if id.index() != 0 || prop > ca => ValueMode::for_encoding(self.encoding),
            _ => ValueMode::Bytes,
        }
    }

    /// The place among the root's properties of its first `CA`, when that
    /// names a usable charset: the one a reader goes by.
    pub(crate) fn declared_ca(&self) -> Option<usize> {
        let props = &self.nodes[0].props;
        let at = props.iter().position(|p| self.ident_bytes(p) == b"CA")?;
        let value = props[at].values.first()?;
        crate::text::charset::for_label(&self.bytes[value.range()]).map(|_| at)
    }

    pub(crate) fn ident_bytes(&self, prop: &Prop) -> &[u8] {
        &self.bytes[prop.ident.range()]
    }

    pub(crate) fn value_context(&self) -> ValueContext<'_> {
        ValueContext::new(self.size, self.encoding, &self.arena)
    }
}

/// A node of an [`EditableGame`], to read: a `Copy` handle.
#[derive(Clone, Copy)]
pub struct EditNode<'g> {
    game: &'g EditableGame,
    id: EditId,
    /// Its place among its parent's children when known (reached from its
    /// parent or a sibling), else `u32::MAX`: a walk of the children reads
    /// the next one at once, not by a search.
    place: u32,
}

impl std::fmt::Debug for EditNode<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EditNode")
            .field("id", &self.id.index())
            .field("properties", &self.properties().collect::<Vec<_>>())
            .finish()
    }
}

impl<'g> EditNode<'g> {
    pub(crate) fn unplaced(game: &'g EditableGame, id: EditId) -> EditNode<'g> {
        EditNode {
            game,
            id,
            place: u32::MAX,
        }
    }

    fn slot(&self) -> &'g Slot {
        &self.game.nodes[self.id.index()]
    }

    /// This node's id.
    pub fn id(&self) -> EditId {
        self.id
    }

    /// The parent's id, `None` for the root.
    pub fn parent(&self) -> Option<EditId> {
        self.slot().parent
    }

    /// The children's ids, in order; the first is the main line.
    pub fn children(&self) -> &'g [EditId] {
        &self.slot().children
    }

    /// The first child: the next node of the main line.
    pub fn first_child(&self) -> Option<EditId> {
        self.children().first().copied()
    }

    /// Whether the node is the root.
    pub fn is_root(&self) -> bool {
        self.slot().parent.is_none()
    }

    /// The properties in order, as stored: a root read a character at a
    /// time whose properties repeat keeps each occurrence apart, as read
    /// (read through [`ReadNode::properties`](crate::ReadNode::properties),
    /// a repeated property comes once, with every value, as in a parsed
    /// node).
    pub fn properties(&self) -> impl ExactSizeIterator<Item = EditProperty<'g>> + 'g + use<'g> {
        let (game, node) = (self.game, self.id);
        self.slot()
            .props
            .iter()
            .enumerate()
            .map(move |(at, prop)| EditProperty {
                game,
                node,
                at,
                prop,
                merged: false,
            })
    }

    /// The property `ident`, if the node has it.
    pub fn property(&self, ident: &str) -> Option<EditProperty<'g>> {
        self.properties().find(|p| p.ident() == ident)
    }

    /// Whether the node has property `ident`.
    pub fn has(&self, ident: &str) -> bool {
        self.property(ident).is_some()
    }

    /// The first value of `ident`, raw (escaped, in the game's charset).
    pub fn raw(&self, ident: &str) -> Option<&'g [u8]> {
        self.property(ident).and_then(|p| p.values().next())
    }

    /// The first value of `ident` read as `T`, with the crate's value
    /// decoders ([`Node::get`](crate::Node::get) reads a parsed node the
    /// same way) on the game's board and in its charset.
    ///
    /// # Errors
    ///
    /// A malformed value, without a position (the value is in no file).
    pub fn get<T: FromValue<'g>>(&self, ident: &str) -> Result<Option<T>> {
        match self.raw(ident) {
            Some(raw) => T::try_from_value(raw, &self.game.value_context()).map(Some),
            None => Ok(None),
        }
    }

    /// Every value of `ident` read as `T`.
    ///
    /// # Errors
    ///
    /// The first malformed value.
    pub fn get_all<T: FromValue<'g>>(&self, ident: &str) -> Result<Vec<T>> {
        let ctx = self.game.value_context();
        match self.property(ident) {
            Some(p) => p.values().map(|raw| T::try_from_value(raw, &ctx)).collect(),
            None => Ok(Vec::new()),
        }
    }

    /// The first value of `ident` as Text (see [`Text`](crate::value::Text)).
    pub fn text(&self, ident: &str) -> Option<&'g str> {
        let raw = self.raw(ident)?;
        Some(self.game.value_context().text(raw))
    }

    /// The first value of `ident` as SimpleText (see
    /// [`SimpleText`](crate::value::SimpleText)).
    pub fn simple_text(&self, ident: &str) -> Option<&'g str> {
        let raw = self.raw(ident)?;
        Some(self.game.value_context().simple_text(raw))
    }

    /// The points of a point-list property, rectangles expanded.
    ///
    /// # Errors
    ///
    /// A malformed value or a point off the board, as
    /// [`ErrorKind::InvalidValue`].
    pub fn points(&self, ident: &str) -> Result<Vec<Point>> {
        let mut points = Vec::new();
        let Some(prop) = self.property(ident) else {
            return Ok(points);
        };
        for raw in prop.values() {
            match point_list_item(raw, self.game.size) {
                None => {
                    return Err(Error::without_position(ErrorKind::InvalidValue(
                        crate::spec::ValueType::Point,
                    )))
                }
                Some(None) => {}
                Some(Some((a, b))) => {
                    for y in a.y..=b.y {
                        for x in a.x..=b.x {
                            points.push(Point { x, y });
                        }
                    }
                }
            }
        }
        Ok(points)
    }

    /// The move this node plays: its `B` (else its `W`) read as a [`Move`]
    /// on the game's board (`tt` is a pass up to 19×19).
    ///
    /// # Errors
    ///
    /// A malformed move, as [`ErrorKind::InvalidValue`].
    pub fn played(&self) -> Result<Option<(Color, Move)>> {
        for (ident, color) in [("B", Color::Black), ("W", Color::White)] {
            if let Some(mv) = self.get::<Move>(ident)? {
                return Ok(Some((color, mv)));
            }
        }
        Ok(None)
    }
}

/// A property of an [`EditNode`]: its identifier and raw values.
#[derive(Clone, Copy)]
pub struct EditProperty<'g> {
    game: &'g EditableGame,
    /// The node, and the property's place among its properties.
    node: EditId,
    at: usize,
    prop: &'g Prop,
    /// Whether it stands for every occurrence of its identifier in the
    /// node (it is the first).
    merged: bool,
}

impl std::fmt::Debug for EditProperty<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EditProperty")
            .field("ident", &self.ident())
            .field(
                "values",
                &self
                    .values()
                    .map(|v| v.escape_ascii().to_string())
                    .collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl<'g> EditProperty<'g> {
    /// The identifier (upper-case letters).
    pub fn ident(&self) -> &'g str {
        std::str::from_utf8(self.game.ident_bytes(self.prop)).unwrap_or("")
    }

    /// The values, raw (escaped, in the game's charset), in order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &'g [u8]> + 'g + use<'g> {
        let bytes = &self.game.bytes;
        self.prop.values.iter().map(move |v| &bytes[v.range()])
    }
}

/// The nodes of a subtree in pre-order, from [`EditableGame::nodes`].
#[derive(Clone, Debug)]
pub struct Descendants<'g> {
    game: &'g EditableGame,
    stack: Vec<EditId>,
}

impl Iterator for Descendants<'_> {
    type Item = EditId;

    fn next(&mut self) -> Option<EditId> {
        let id = self.stack.pop()?;
        let children = &self.game.nodes[id.index()].children;
        self.stack.extend(children.iter().rev());
        Some(id)
    }
}

impl std::iter::FusedIterator for Descendants<'_> {}
