//! One read interface for every form a game takes: parsed ([`GameTree`],
//! [`Node`], [`Property`], values borrowed from the input) and edited
//! ([`EditableGame`](crate::edit::EditableGame), which owns its nodes).
//!
//! Code written against [`ReadGame`], [`ReadNode`] and [`ReadProperty`]
//! reads both: the [writer](crate::writer) in every mode, the
//! [replay](crate::game::replay), the position hashes. The handles are
//! `Copy` and the calls compile to the same code as the concrete types'
//! own methods, so a parsed game read through the traits is read as fast.
//!
//! Nodes are named in their game by a *key* ([`ReadNode::key`]): the
//! node's number in pre-order for a parsed game, which an editable copy
//! keeps for every node it was made with
//! ([`EditId::index`](crate::edit::EditId::index)), so that a key found in
//! one form names the same node in the other.
//!
//! The main line's moves of a game, whatever its form:
//!
//! ```
//! use sgf_grove::{ReadGame, ReadNode};
//! use sgf_grove::edit::EditableGame;
//! use sgf_grove::value::{Color, Move};
//!
//! fn black_moves<'g>(game: impl ReadGame<'g>) -> sgf_grove::Result<usize> {
//!     let mut count = 0;
//!     for node in game.root().main_line() {
//!         if let Some((Color::Black, Move::Play(_))) = node.played()? {
//!             count += 1;
//!         }
//!     }
//!     Ok(count)
//! }
//!
//! let doc = sgf_grove::parse(b"(;SZ[9];B[ee];W[cc];B[gg])")?;
//! let parsed = doc.games().next().unwrap();
//! assert_eq!(black_moves(parsed)?, 2);
//! let mut edited = EditableGame::from_game(parsed);
//! let last = edited.nodes().last().unwrap();
//! edited.delete(last)?;
//! assert_eq!(black_moves(&edited)?, 1);
//! # Ok::<(), sgf_grove::Error>(())
//! ```

use super::{GameTree, Node, Property};
use crate::error::Result;
use crate::span::Position;
use crate::value::{BoardSize, Color, FromValue, Move, Point, ValueContext};
use encoding_rs::Encoding;

/// How the values of a property were cut from the text: a byte at a time,
/// or a character at a time, in a charset where a `\` or `]` byte can be
/// the second half of a character (Shift_JIS, Big5, GBK, GB18030).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReadMode {
    /// Every byte stands for itself.
    Bytes,
    /// A byte that starts a two-byte character takes the next byte with it.
    Characters,
}

/// A game to read, parsed or edited. See the [module documentation](self).
///
/// `'g` is how long what it gives lives: identifiers, raw values, decoded
/// text.
pub trait ReadGame<'g>: Copy {
    /// Its nodes.
    type Node: ReadNode<'g, Game = Self>;

    /// The root node.
    fn root(self) -> Self::Node;

    /// The node whose key ([`ReadNode::key`]) is `key`, if the game has it.
    fn node_by_key(self, key: usize) -> Option<Self::Node>;

    /// The board size, from the root's `SZ` (19×19 when absent or
    /// malformed).
    fn board_size(self) -> BoardSize;

    /// The game, from the root's `GM` (1, Go, when absent or malformed).
    fn game_type(self) -> u32;

    /// The charset of the game's text.
    fn encoding(self) -> &'static Encoding;

    /// What typed reads of this game's values need: the board, the
    /// charset, the arena for decoded text.
    fn value_context(self) -> ValueContext<'g>;

    /// The number of nodes.
    fn node_count(self) -> usize;

    /// The position of byte `offset` of the input the game was read from;
    /// `None` for a game that was not read from one.
    fn position(self, offset: usize) -> Option<Position>;

    /// The charset a writer records as the root's `CA` for this game to
    /// read back the same: the one its text was read in, when the root
    /// has no `CA` naming a usable charset and a reader could guess
    /// another. `None` when the root's `CA` says it.
    fn charset_to_record(self) -> Option<&'static Encoding>;

    /// The root's `CA` value as written, if any (whether or not it names a
    /// charset this crate knows).
    fn declared_charset(self) -> Option<&'g [u8]>;

    /// Every node, depth-first in pre-order from the root. Iterative: any
    /// depth is fine.
    fn nodes(self) -> Subtree<Self::Node> {
        self.root().subtree()
    }
}

/// A node of a [`ReadGame`]: a `Copy` handle.
pub trait ReadNode<'g>: Copy {
    /// The game it belongs to.
    type Game: ReadGame<'g, Node = Self>;
    /// Its properties.
    type Property: ReadProperty<'g>;

    /// The game.
    fn game(self) -> Self::Game;

    /// The node's number in its game: its pre-order number in a parsed
    /// game (the root is 0), kept by an editable copy for the nodes it was
    /// made with; nodes made by edits come after.
    fn key(self) -> usize;

    /// The parent, `None` for the root.
    fn parent(self) -> Option<Self>;

    /// The first child: the next node of the main line.
    fn first_child(self) -> Option<Self>;

    /// The next child of the parent.
    fn next_sibling(self) -> Option<Self>;

    /// The number of children.
    fn child_count(self) -> usize;

    /// The properties in order, a property repeated in the node once with
    /// every value.
    fn properties(self) -> impl Iterator<Item = Self::Property> + 'g;

    /// The property `ident`, if the node has it.
    fn property(self, ident: &str) -> Option<Self::Property>;

    /// The byte offset of the node's `;` in the input it was read from;
    /// `None` for a node that was not read from one.
    fn offset(self) -> Option<usize>;

    /// How the node's values after the root's `CA` were read.
    fn read_mode(self) -> ReadMode;

    /// The first value of `ident` read as `T`; `Ok(None)` when the node
    /// lacks it.
    ///
    /// # Errors
    ///
    /// A malformed value, as [`ErrorKind::InvalidValue`](crate::ErrorKind::InvalidValue)
    /// (with its position when the node was read from an input).
    fn get<T: FromValue<'g>>(self, ident: &str) -> Result<Option<T>>;

    /// The move the node plays: its `B` (else its `W`) read as a [`Move`].
    ///
    /// # Errors
    ///
    /// A malformed move, as [`ErrorKind::InvalidValue`](crate::ErrorKind::InvalidValue).
    fn played(self) -> Result<Option<(Color, Move)>>;

    /// Whether the node is the root.
    fn is_root(self) -> bool {
        self.parent().is_none()
    }

    /// Whether the node has property `ident`.
    fn has(self, ident: &str) -> bool {
        self.property(ident).is_some()
    }

    /// The first value of `ident`, raw (escaped, in the game's charset).
    fn raw(self, ident: &str) -> Option<&'g [u8]> {
        self.property(ident).and_then(|p| p.values().next())
    }

    /// The first value of `ident` as Text (see
    /// [`Text`](crate::value::Text)).
    fn text(self, ident: &str) -> Option<&'g str> {
        let raw = self.raw(ident)?;
        Some(self.game().value_context().text(raw))
    }

    /// The first value of `ident` as SimpleText (see
    /// [`SimpleText`](crate::value::SimpleText)).
    fn simple_text(self, ident: &str) -> Option<&'g str> {
        let raw = self.raw(ident)?;
        Some(self.game().value_context().simple_text(raw))
    }

    /// The children, in order; the first is the main line.
    fn children(self) -> Siblings<Self> {
        Siblings {
            next: self.first_child(),
        }
    }

    /// This node and the first children down from it.
    fn main_line(self) -> MainLine<Self> {
        MainLine { next: Some(self) }
    }

    /// The node's properties exactly as a raw writer writes them, when that
    /// is a slice of the input: for the writer's fast path.
    #[doc(hidden)]
    fn written_as_is(self) -> Option<&'g [u8]> {
        None
    }

    /// Whether a writer keeps repeated properties apart: a root whose `CA`
    /// switched to reading a character at a time, with repeats.
    #[doc(hidden)]
    fn keeps_occurrences(self) -> bool {
        false
    }

    /// The node's move when that is all the node holds: its only
    /// property, `B` or `W`, with one value that is a point of the board
    /// (`None` otherwise, and from the default): a walk's fast path over
    /// most nodes of most records, which then reads nothing else of them.
    #[doc(hidden)]
    fn lone_move(self) -> Option<(Color, Point)> {
        None
    }

    /// Every occurrence of every property in order, repeats not merged
    /// (as [`ReadNode::properties`] for a node that does not keep them).
    #[doc(hidden)]
    fn occurrences(self) -> impl Iterator<Item = Self::Property> + 'g {
        self.properties()
    }

    /// This node and every node under it, depth-first in pre-order.
    /// Iterative: any depth is fine.
    fn subtree(self) -> Subtree<Self> {
        Subtree { stack: vec![self] }
    }
}

/// A property of a [`ReadNode`]: its identifier and raw values.
pub trait ReadProperty<'g>: Copy {
    /// The identifier (upper-case letters).
    fn ident(self) -> &'g str;

    /// The values, raw (escaped, in the game's charset), in order.
    fn values(self) -> impl Iterator<Item = &'g [u8]> + 'g;

    /// The values with the byte offset of each in the input the game was
    /// read from (`None` for a value not read from one).
    fn values_at(self) -> impl Iterator<Item = (&'g [u8], Option<usize>)> + 'g;

    /// How the values were cut from the text: a byte at a time in a root
    /// up to its `CA`, and in any game whose charset is read a byte at a
    /// time; else a character at a time.
    fn read_mode(self) -> ReadMode;

    /// The number of values.
    fn value_count(self) -> usize {
        self.values().count()
    }

    /// The byte offset of the identifier in the input the game was read
    /// from; `None` for a property not read from one.
    fn ident_offset(self) -> Option<usize> {
        None
    }

    /// The identifier's bytes.
    fn ident_bytes(self) -> &'g [u8] {
        self.ident().as_bytes()
    }

    /// Whether `other` is this property (the same occurrence of the same
    /// node): for a writer that keeps occurrences apart.
    #[doc(hidden)]
    fn is(self, other: Self) -> bool;
}

/// The children of a node, from [`ReadNode::children`].
#[derive(Clone, Debug)]
pub struct Siblings<N> {
    next: Option<N>,
}

impl<'g, N: ReadNode<'g>> Iterator for Siblings<N> {
    type Item = N;

    fn next(&mut self) -> Option<N> {
        let node = self.next?;
        self.next = node.next_sibling();
        Some(node)
    }
}

impl<'g, N: ReadNode<'g>> std::iter::FusedIterator for Siblings<N> {}

/// A node and the first children down from it, from
/// [`ReadNode::main_line`].
#[derive(Clone, Debug)]
pub struct MainLine<N> {
    next: Option<N>,
}

impl<'g, N: ReadNode<'g>> Iterator for MainLine<N> {
    type Item = N;

    fn next(&mut self) -> Option<N> {
        let node = self.next?;
        self.next = node.first_child();
        Some(node)
    }
}

impl<'g, N: ReadNode<'g>> std::iter::FusedIterator for MainLine<N> {}

/// A subtree in pre-order, from [`ReadNode::subtree`] and
/// [`ReadGame::nodes`].
#[derive(Clone, Debug)]
pub struct Subtree<N> {
    stack: Vec<N>,
}

impl<'g, N: ReadNode<'g>> Iterator for Subtree<N> {
    type Item = N;

    fn next(&mut self) -> Option<N> {
        let node = self.stack.pop()?;
        // Children pushed last first, so that the first is read next.
        let at = self.stack.len();
        self.stack.extend(node.children());
        self.stack[at..].reverse();
        Some(node)
    }
}

impl<'g, N: ReadNode<'g>> std::iter::FusedIterator for Subtree<N> {}

// The parsed game.

impl<'t, 'src: 't> ReadGame<'t> for GameTree<'t, 'src> {
    type Node = Node<'t, 'src>;

    #[inline]
    fn root(self) -> Node<'t, 'src> {
        GameTree::root(&self)
    }

    fn node_by_key(self, key: usize) -> Option<Node<'t, 'src>> {
        let root = GameTree::root(&self).id().index();
        let id = super::NodeId::from_index(root.checked_add(key)?)?;
        let node = self.collection().try_node(id)?;
        (node.game().index() == self.index()).then_some(node)
    }

    #[inline]
    fn board_size(self) -> BoardSize {
        GameTree::board_size(&self)
    }

    #[inline]
    fn game_type(self) -> u32 {
        GameTree::game_type(&self)
    }

    fn encoding(self) -> &'static Encoding {
        self.charset().encoding()
    }

    #[inline]
    fn value_context(self) -> ValueContext<'t> {
        GameTree::value_context(&self)
    }

    fn node_count(self) -> usize {
        GameTree::nodes(&self).len()
    }

    fn position(self, offset: usize) -> Option<Position> {
        Some(self.collection().position(offset))
    }

    fn charset_to_record(self) -> Option<&'static Encoding> {
        self.charset_to_pin()
    }

    fn declared_charset(self) -> Option<&'t [u8]> {
        GameTree::declared_charset(&self)
    }
}

impl<'t, 'src: 't> ReadNode<'t> for Node<'t, 'src> {
    type Game = GameTree<'t, 'src>;
    type Property = Property<'t, 'src>;

    #[inline]
    fn game(self) -> GameTree<'t, 'src> {
        Node::game(&self)
    }

    #[inline]
    fn key(self) -> usize {
        self.id().index() - Node::game(&self).root().id().index()
    }

    #[inline]
    fn parent(self) -> Option<Self> {
        Node::parent(&self)
    }

    #[inline]
    fn first_child(self) -> Option<Self> {
        Node::first_child(&self)
    }

    #[inline]
    fn next_sibling(self) -> Option<Self> {
        Node::next_sibling(&self)
    }

    fn child_count(self) -> usize {
        Node::children(&self).count()
    }

    #[inline]
    fn properties(self) -> impl Iterator<Item = Property<'t, 'src>> + 't {
        Node::properties(&self)
    }

    #[inline]
    fn property(self, ident: &str) -> Option<Property<'t, 'src>> {
        Node::property(&self, ident)
    }

    #[inline]
    fn offset(self) -> Option<usize> {
        Some(Node::offset(&self))
    }

    #[inline]
    fn read_mode(self) -> ReadMode {
        match self.mode() {
            crate::lexer::ValueMode::Bytes => ReadMode::Bytes,
            _ => ReadMode::Characters,
        }
    }

    #[inline]
    fn get<T: FromValue<'t>>(self, ident: &str) -> Result<Option<T>> {
        Node::get(&self, ident)
    }

    #[inline]
    fn played(self) -> Result<Option<(Color, Move)>> {
        Node::played(&self)
    }

    #[inline]
    fn is_root(self) -> bool {
        Node::is_root(&self)
    }

    #[inline]
    fn has(self, ident: &str) -> bool {
        Node::has(&self, ident)
    }

    #[inline]
    fn raw(self, ident: &str) -> Option<&'t [u8]> {
        Node::raw(&self, ident)
    }

    fn text(self, ident: &str) -> Option<&'t str> {
        Node::text(&self, ident)
    }

    #[inline]
    fn written_as_is(self) -> Option<&'t [u8]> {
        Node::written_as_is(&self)
    }

    #[inline]
    fn keeps_occurrences(self) -> bool {
        Node::keeps_occurrences(&self)
    }

    #[inline]
    fn lone_move(self) -> Option<(Color, Point)> {
        Node::lone_move(&self)
    }

    #[inline]
    fn occurrences(self) -> impl Iterator<Item = Property<'t, 'src>> + 't {
        Node::occurrences(&self)
    }

    fn simple_text(self, ident: &str) -> Option<&'t str> {
        Node::simple_text(&self, ident)
    }
}

impl<'t, 'src: 't> ReadProperty<'t> for Property<'t, 'src> {
    #[inline]
    fn ident(self) -> &'t str {
        Property::ident(&self)
    }

    #[inline]
    fn values(self) -> impl Iterator<Item = &'t [u8]> + 't {
        Property::values(&self).map(|v| v.raw())
    }

    #[inline]
    fn values_at(self) -> impl Iterator<Item = (&'t [u8], Option<usize>)> + 't {
        Property::values(&self).map(|v| (v.raw(), Some(v.span().start)))
    }

    fn value_count(self) -> usize {
        Property::values(&self).count()
    }

    #[inline]
    fn ident_offset(self) -> Option<usize> {
        Some(self.ident_span().start)
    }

    #[inline]
    fn read_mode(self) -> ReadMode {
        match self.node().mode_at(self.first_value().span().start) {
            crate::lexer::ValueMode::Bytes => ReadMode::Bytes,
            _ => ReadMode::Characters,
        }
    }

    #[inline]
    fn ident_bytes(self) -> &'t [u8] {
        Property::ident_bytes(&self)
    }

    fn is(self, other: Self) -> bool {
        self.node() == other.node() && self.span() == other.span()
    }
}
