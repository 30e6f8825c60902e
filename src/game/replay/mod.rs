//! Replaying a game: the position at any node, and a cursor that walks a
//! line of play forwards and back.
//!
//! A replay reads its game through the crate's read interface
//! ([`ReadGame`], [`ReadNode`]): a parsed [`GameTree`] and an
//! [`EditableGame`](crate::edit::EditableGame) replay the same way, with the same code ([`cursor`],
//! [`cursor_with`], [`position_at`], or the methods of the same names of
//! both). Illegal moves and limits name their node by its key
//! ([`ReadNode::key`]) and give its place in the input when the node was
//! read from one.
//!
//! A node is applied in the order the format gives: setup (`AE`, then `AB`
//! and `AW`, compressed rectangles expanded), the player to move (`PL`),
//! then its move (`B`, else `W`; a pass clears the ko). Illegal moves never
//! stop a replay. By default a move onto a stone or a suicide the rules
//! forbid is applied as setup (the stone put there, nothing captured), a
//! retaken ko or a repeated position is played all the same (the capture
//! is what happened on the board), and each is reported as an
//! [`IllegalMove`] with the node; a `B`/`W` value that is no
//! point of the board is reported and skipped. In strict mode
//! ([`ReplayOptions::strict`]) the first illegal move is an error.
//!
//! A node's cost is what it changes: the board journals every write, so
//! [`Cursor::back`] undoes one node in the time it took to apply, and
//! memory grows with the line's length and changes (never their
//! product). [`ReplayOptions`] bounds both with limits far above any real
//! game ([`ReplayError::Limit`] when one is reached).
//!
//! ```
//! use sgf_grove::value::{Color, Point};
//! let doc = sgf_grove::parse(b"(;SZ[9]AB[cc];W[cd];B[dd];W[ce](;B[be])(;B[de]))")?;
//! let game = doc.games().next().unwrap();
//! let mut cursor = game.cursor();
//! while cursor.next().is_some() {}
//! assert_eq!(cursor.board().get(Point { x: 2, y: 2 }), Some(Color::Black));
//! assert_eq!(cursor.to_play(), Color::White);
//! assert_eq!(cursor.moves(), 4);
//! cursor.back();
//! assert_eq!(cursor.board().get(Point { x: 1, y: 4 }), None);
//! # Ok::<(), sgf_grove::Error>(())
//! ```

mod detached;
mod errors;
mod options;

pub use detached::DetachedCursor;
pub(crate) use detached::{played_or_colour, NodeMoves};
pub use errors::{IllegalMove, Limit, LimitExceeded, ReplayError};
pub use options::ReplayOptions;

use super::board::{Board, RuleSet};
use super::Rules;
use crate::tree::read::{ReadGame, ReadNode};
use crate::tree::{GameTree, Node};
use crate::value::Color;
#[cfg(feature = "index")]
use crate::value::Point;
use errors::limit;
use std::fmt;

/// A cursor on a line of play of one game, parsed or edited (any
/// [`ReadGame`]): the position after its current node, moved forwards to a
/// child and back to the parent.
///
/// Each node entered keeps what it changed (the board's undo journal, see
/// [`ReplayOptions`]): [`Cursor::back`] undoes exactly one node in the
/// time that node took, and the superko history is one set, added to on
/// the way in and taken from on the way back.
///
/// Made by [`cursor`], [`cursor_with`] and [`position_at`], or the same
/// methods of [`GameTree`] and [`EditableGame`](crate::edit::EditableGame).
/// [`Cursor::detach`] lets
/// go of the game and keeps the replay ([`DetachedCursor`]).
#[derive(Clone)]
pub struct Cursor<'g, G: ReadGame<'g>> {
    game: G,
    /// The current node: the last of `line`'s path.
    node: G::Node,
    line: DetachedCursor,
}

/// A [`Cursor`] on a parsed game, named with the game's two lifetimes.
pub type TreeCursor<'t, 'src> = Cursor<'t, GameTree<'t, 'src>>;

impl<'g, G: ReadGame<'g>> fmt::Debug for Cursor<'g, G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cursor")
            .field("node", &self.node.key())
            .field("line", &self.line)
            .finish()
    }
}

/// A cursor at `game`'s root, its setup applied, under the rules its `RU`
/// names (the default [`ReplayOptions`]).
///
/// ```
/// use sgf_grove::edit::EditableGame;
/// use sgf_grove::game::replay;
///
/// let doc = sgf_grove::parse(b"(;SZ[9];B[ee];W[cc])")?;
/// let edited = EditableGame::from_game(doc.games().next().unwrap());
/// let mut cursor = replay::cursor(&edited);
/// while cursor.next().is_some() {}
/// assert_eq!(cursor.moves(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn cursor<'g, G: ReadGame<'g>>(game: G) -> Cursor<'g, G> {
    let mut cursor = Cursor::empty(game, ReplayOptions::default());
    // A lenient replay reports illegal moves instead of failing, and the
    // root is under every limit.
    let _ = cursor.apply_root();
    cursor
}

/// A cursor at `game`'s root with `options`.
///
/// # Errors
///
/// In strict mode, the first illegal move (of the root). The root is
/// entered whatever the limits.
pub fn cursor_with<'g, G: ReadGame<'g>>(
    game: G,
    options: ReplayOptions,
) -> Result<Cursor<'g, G>, ReplayError> {
    let mut cursor = Cursor::empty(game, options);
    cursor.apply_root()?;
    Ok(cursor)
}

/// The position after `node` (a node of `game`), replayed from the root
/// along the line that leads to it.
///
/// # Errors
///
/// In strict mode, the first illegal move on the way; a limit of `options`
/// reached on the way.
pub fn position_at<'g, G: ReadGame<'g>>(
    game: G,
    node: G::Node,
    options: ReplayOptions,
) -> Result<Cursor<'g, G>, ReplayError> {
    let mut line: Vec<G::Node> = Vec::new();
    let mut at = Some(node);
    while let Some(n) = at {
        if line.len() >= options.max_depth {
            return Err(limit(n, Limit::Depth, options.max_depth as u64).into());
        }
        line.push(n);
        at = n.parent();
    }
    line.reverse();
    let mut cursor = cursor_with(game, options)?;
    for n in line.into_iter().skip(1) {
        cursor.enter(n)?;
    }
    Ok(cursor)
}

impl<'t, 'src: 't> GameTree<'t, 'src> {
    /// A cursor at this game's root, its setup applied, under the rules its
    /// `RU` names (the default [`ReplayOptions`]). See [`cursor`].
    pub fn cursor(&self) -> TreeCursor<'t, 'src> {
        cursor(*self)
    }

    /// A cursor at this game's root with `options`. See [`cursor_with`].
    ///
    /// # Errors
    ///
    /// In strict mode, the first illegal move (of the root). The root is
    /// entered whatever the limits.
    pub fn cursor_with(&self, options: ReplayOptions) -> Result<TreeCursor<'t, 'src>, ReplayError> {
        cursor_with(*self, options)
    }

    /// The position after `node` (a node of this game), replayed from the
    /// root along the line that leads to it. See [`position_at`].
    ///
    /// # Errors
    ///
    /// In strict mode, the first illegal move on the way; a limit of
    /// `options` reached on the way.
    pub fn position_at(
        &self,
        node: Node<'t, 'src>,
        options: ReplayOptions,
    ) -> Result<TreeCursor<'t, 'src>, ReplayError> {
        position_at(*self, node, options)
    }
}

/// The rules a replay of `game` follows by default: those its root's `RU`
/// names ([`RuleSet::for_rules`]), Japanese when it names none.
pub fn rules_of<'g, G: ReadGame<'g>>(game: G) -> RuleSet {
    game.root()
        .simple_text("RU")
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| RuleSet::for_rules(&Rules::parse(t)))
        .unwrap_or_default()
}

impl DetachedCursor {
    /// Starts over on `game`, its root applied (read as `root` with its
    /// `key`: a caller that reads each node once), keeping this replay's
    /// buffers: for a scan of many games, as [`cursor_with`] makes one.
    /// Without `undo` (a caller that walks a game without variations) the
    /// board keeps no journal and [`DetachedCursor::back`] must not be
    /// called.
    ///
    /// # Errors
    ///
    /// In strict mode, the root's first illegal move.
    pub(crate) fn restart<'g, G: ReadGame<'g>>(
        &mut self,
        game: G,
        options: ReplayOptions,
        key: usize,
        root: &NodeMoves<<G::Node as ReadNode<'g>>::Property>,
        undo: bool,
    ) -> Result<(), ReplayError> {
        let rules = options.rules.unwrap_or_else(|| rules_of(game));
        self.reset(options, game.board_size(), rules, undo);
        self.apply_read(game.root(), key, root)
    }
}

impl<'g, G: ReadGame<'g>> Cursor<'g, G> {
    fn empty(game: G, options: ReplayOptions) -> Self {
        let rules = options.rules.unwrap_or_else(|| rules_of(game));
        let mut board = Board::new(game.board_size(), rules);
        board.keep_journal();
        Cursor {
            game,
            node: game.root(),
            line: DetachedCursor::new(options, board),
        }
    }

    /// Applies the root, whatever the limits.
    fn apply_root(&mut self) -> Result<(), ReplayError> {
        let root = self.game.root();
        self.line.apply_step(root)
    }

    /// The game replayed.
    pub fn game(&self) -> G {
        self.game
    }

    /// The board after the current node.
    pub fn board(&self) -> &Board {
        self.line.board()
    }

    /// Who moves next: the other colour after a move, `PL` after setup,
    /// Black at the start.
    pub fn to_play(&self) -> Color {
        self.line.to_play()
    }

    /// The moves played (passes included) from the root to here.
    pub fn moves(&self) -> usize {
        self.line.moves()
    }

    /// The illegal moves met from the root to here: the first
    /// [`ReplayOptions::max_illegal`] of them (all of them:
    /// [`Cursor::illegal_count`]).
    pub fn illegal(&self) -> &[IllegalMove] {
        self.line.illegal()
    }

    /// How many illegal moves were met from the root to here, those not
    /// kept in [`Cursor::illegal`] included.
    pub fn illegal_count(&self) -> usize {
        self.line.illegal_count()
    }

    /// The nodes from the root to here (the root included).
    pub fn depth(&self) -> usize {
        self.line.depth()
    }

    /// The nodes this cursor entered so far, over every line it walked
    /// (what [`ReplayOptions::max_nodes`] limits).
    pub fn entered(&self) -> usize {
        self.line.entered()
    }

    /// Calls `f(point, old, new)` for every stone the current node put on
    /// or took off, in order (a point may come more than once).
    #[cfg(feature = "index")]
    pub(crate) fn node_changes(&self, f: impl FnMut(Point, Option<Color>, Option<Color>)) {
        self.line.node_changes(f);
    }

    /// The current node.
    #[inline]
    pub fn node(&self) -> G::Node {
        self.node
    }

    /// The hash of the position with the player to move (see
    /// [`Board::hash_with`]).
    pub fn hash(&self) -> u64 {
        self.line.hash()
    }

    /// Moves to the first child (the main line); `None` at a leaf, or when
    /// the child cannot be entered (a strict cursor's illegal move, a
    /// limit; [`Cursor::enter`] says which).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<G::Node> {
        let child = self.node.first_child()?;
        self.enter(child).ok()?;
        Some(child)
    }

    /// Moves to `child`, a child of the current node, applying it.
    ///
    /// # Errors
    ///
    /// In strict mode, an illegal move of that node; a limit of the
    /// cursor's [`ReplayOptions`] reached. Either way the cursor does not
    /// move.
    ///
    /// # Panics
    ///
    /// When `child` is not a child of the current node.
    pub fn enter(&mut self, child: G::Node) -> Result<(), ReplayError> {
        assert!(
            self.is_child(child),
            "Cursor::enter: not a child of the current node"
        );
        self.line.enter_child(child)?;
        self.node = child;
        Ok(())
    }

    /// Whether `node` is a child of the current node (what
    /// [`Cursor::enter`] takes).
    pub fn is_child(&self, node: G::Node) -> bool {
        node.parent().map(|p| p.key()) == Some(self.node.key())
    }

    /// Moves back to the parent (undoing the current node, in the time it
    /// took to apply); false at the root.
    pub fn back(&mut self) -> bool {
        if !self.line.back() {
            return false;
        }
        let key = self.line.key();
        if self.node.key() != key {
            self.node = match self.node.parent() {
                Some(p) if p.key() == key => p,
                _ => self.game.node_by_key(key).unwrap_or(self.node),
            };
        }
        true
    }

    /// Lets go of the game, keeping the replay: what
    /// [`DetachedCursor::attach`] takes back.
    pub fn detach(self) -> DetachedCursor {
        self.line
    }

    /// The replay without the game, borrowed.
    pub fn detached(&self) -> &DetachedCursor {
        &self.line
    }
}
