//! Replaying a game: the position at any node, and a cursor that walks a
//! line of play forwards and back.
//!
//! A node is applied in the order the format gives: setup (`AE`, then `AB`
//! and `AW`, compressed rectangles expanded), the player to move (`PL`),
//! then its move (`B`, else `W`; a pass clears the ko). Illegal moves never
//! stop a replay. By default a move onto a stone or a suicide the rules
//! forbid is applied as setup (the stone put there, nothing captured), a
//! retaken ko or a repeated position is played all the same (the capture
//! is what happened on the board), and each is reported as an
//! [`IllegalMove`] with the node's position; a `B`/`W` value that is no
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

use super::board::{Board, Illegal, Mark, RuleSet};
use super::Rules;
use crate::edit::{EditNode, EditableGame};
use crate::span::Position;
use crate::tree::read::{ReadGame, ReadNode, ReadProperty};
use crate::tree::{GameTree, Node};
use crate::value::{point_list_item, Color, Move, Point};
use std::fmt;

/// How a game is replayed: the rules, strictness, and the limits that keep
/// the work and memory of one replay bounded.
///
/// A replay keeps, for every node of the line it is on, what that node
/// changed (so that [`Cursor::back`] undoes one node in the time that node
/// took): memory grows with the line's length and its changes, never with
/// their product. The limits stop a replay that would go beyond what any
/// real game needs; a cursor that reaches one returns
/// [`ReplayError::Limit`] and stays where it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayOptions {
    /// The rules; `None`: from the game's `RU` ([`RuleSet::for_rules`]).
    pub rules: Option<RuleSet>,
    /// Whether an illegal move is an error instead of being reported.
    pub strict: bool,
    /// The most nodes one cursor enters (the root included), over all the
    /// lines it walks. Default: [`ReplayOptions::MAX_NODES`].
    pub max_nodes: usize,
    /// The most nodes on the line from the root to the cursor (the root
    /// included). Default: [`ReplayOptions::MAX_DEPTH`].
    pub max_depth: usize,
    /// The most stones one cursor puts on or takes off the board (moves,
    /// captures, setup; what [`Cursor::back`] undoes still counts). Default:
    /// [`ReplayOptions::MAX_CHANGES`].
    pub max_changes: u64,
    /// The most illegal moves kept in [`Cursor::illegal`]; those beyond
    /// are counted ([`Cursor::illegal_count`]), not kept. Never an error.
    /// Default: [`ReplayOptions::MAX_ILLEGAL`].
    pub max_illegal: usize,
}

impl Default for ReplayOptions {
    fn default() -> Self {
        ReplayOptions {
            rules: None,
            strict: false,
            max_nodes: Self::MAX_NODES,
            max_depth: Self::MAX_DEPTH,
            max_changes: Self::MAX_CHANGES,
            max_illegal: Self::MAX_ILLEGAL,
        }
    }
}

impl ReplayOptions {
    /// Default of [`ReplayOptions::max_nodes`]: 2 million, 30 times the
    /// largest real record seen (a joseki dictionary of about 63,000
    /// nodes); a replay that far uses some 200 MB.
    pub const MAX_NODES: usize = 2_000_000;
    /// Default of [`ReplayOptions::max_depth`]: 2 million (real games end
    /// within a few thousand moves).
    pub const MAX_DEPTH: usize = 2_000_000;
    /// Default of [`ReplayOptions::max_changes`]: 4 million stones put on
    /// or taken off (a game of a million moves with its captures takes at
    /// most 2 million); the undo journal of that many changes stays in a
    /// few hundred MB.
    pub const MAX_CHANGES: u64 = 4_000_000;
    /// Default of [`ReplayOptions::max_illegal`]: 10,000 illegal moves
    /// kept.
    pub const MAX_ILLEGAL: usize = 10_000;

    /// No limits at all: memory and time still grow only linearly with
    /// the game (see [`ReplayOptions`]).
    #[must_use]
    pub fn unlimited(mut self) -> ReplayOptions {
        self.max_nodes = usize::MAX;
        self.max_depth = usize::MAX;
        self.max_changes = u64::MAX;
        self.max_illegal = usize::MAX;
        self
    }

    /// Replays under `rules` whatever `RU` says.
    #[must_use]
    pub fn rules(mut self, rules: RuleSet) -> ReplayOptions {
        self.rules = Some(rules);
        self
    }

    /// Makes an illegal move an error.
    #[must_use]
    pub fn strict(mut self, strict: bool) -> ReplayOptions {
        self.strict = strict;
        self
    }

    /// Sets [`ReplayOptions::max_nodes`].
    #[must_use]
    pub fn max_nodes(mut self, max: usize) -> ReplayOptions {
        self.max_nodes = max;
        self
    }

    /// Sets [`ReplayOptions::max_depth`].
    #[must_use]
    pub fn max_depth(mut self, max: usize) -> ReplayOptions {
        self.max_depth = max;
        self
    }

    /// Sets [`ReplayOptions::max_changes`].
    #[must_use]
    pub fn max_changes(mut self, max: u64) -> ReplayOptions {
        self.max_changes = max;
        self
    }

    /// Sets [`ReplayOptions::max_illegal`].
    #[must_use]
    pub fn max_illegal(mut self, max: usize) -> ReplayOptions {
        self.max_illegal = max;
        self
    }
}

/// A move the rules refused, where it is in the game and what the replay
/// did with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The node of the move: its key in its game ([`ReadNode::key`]).
    pub key: usize,
    /// Where the node is in the input; `None` for a node not read from
    /// one (a node of an [`EditableGame`](crate::edit::EditableGame)).
    pub position: Option<Position>,
    /// The move number (1 for the first move of the line).
    pub move_number: usize,
    /// Who played it.
    pub color: Color,
    /// Where (`None` for a value that is no point of the board).
    pub point: Option<Point>,
    /// Why it is illegal.
    pub reason: Illegal,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let color = match self.color {
            Color::Black => "B",
            Color::White => "W",
        };
        match self.point {
            Some(p) => write!(f, "move {} {color}[{p}]", self.move_number)?,
            None => write!(f, "move {} {color}", self.move_number)?,
        }
        if let Some(at) = self.position {
            write!(f, " at {at}")?;
        }
        write!(f, ": {}", self.reason)
    }
}

impl std::error::Error for IllegalMove {}

/// Which limit of [`ReplayOptions`] a replay reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Limit {
    /// [`ReplayOptions::max_nodes`].
    Nodes,
    /// [`ReplayOptions::max_depth`].
    Depth,
    /// [`ReplayOptions::max_changes`].
    Changes,
}

impl Limit {
    /// A short name, stable for output (`nodes`, `depth`, `changes`).
    pub fn name(self) -> &'static str {
        match self {
            Limit::Nodes => "nodes",
            Limit::Depth => "depth",
            Limit::Changes => "changes",
        }
    }
}

/// A replay stopped by one of its limits, at the node it would have
/// entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitExceeded {
    /// The limit reached.
    pub limit: Limit,
    /// Its value.
    pub max: u64,
    /// The node not entered: its key in its game ([`ReadNode::key`]).
    pub key: usize,
    /// Where that node is in the input; `None` for a node not read from
    /// one.
    pub position: Option<Position>,
}

impl fmt::Display for LimitExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.limit {
            Limit::Nodes => "nodes replayed",
            Limit::Depth => "nodes in one line",
            Limit::Changes => "stones put on or taken off",
        };
        write!(f, "replay limit: more than {} {what}", self.max)?;
        match self.position {
            Some(at) => write!(f, " (the node at {at})"),
            None => write!(f, " (node {})", self.key),
        }
    }
}

impl std::error::Error for LimitExceeded {}

/// Why a cursor could not enter a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReplayError {
    /// An illegal move, in strict mode.
    Illegal(IllegalMove),
    /// A limit of [`ReplayOptions`] reached.
    Limit(LimitExceeded),
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Illegal(e) => write!(f, "{e}"),
            ReplayError::Limit(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ReplayError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReplayError::Illegal(e) => Some(e),
            ReplayError::Limit(e) => Some(e),
        }
    }
}

impl From<IllegalMove> for ReplayError {
    fn from(e: IllegalMove) -> Self {
        ReplayError::Illegal(e)
    }
}

impl From<LimitExceeded> for ReplayError {
    fn from(e: LimitExceeded) -> Self {
        ReplayError::Limit(e)
    }
}

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
/// methods of [`GameTree`] and [`EditableGame`]. [`Cursor::detach`] lets
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

/// A [`Cursor`] without its game: the position, the player to move, the
/// illegal moves and the path of node keys, with what undoes each node.
///
/// What needs no node to read works here ([`DetachedCursor::back`], the
/// position and its hash); [`DetachedCursor::attach`] gives it a game
/// again to move forwards. It owns everything it holds (it borrows no
/// game), so that a caller can keep it between two reads of a game.
#[derive(Clone)]
pub struct DetachedCursor {
    options: ReplayOptions,
    state: State,
    /// The nodes applied, from the root, each with what to restore to
    /// undo it.
    path: Vec<Step>,
    /// Nodes entered so far (never lowered by `back`).
    entered: usize,
}

/// What a replay knows after a node.
#[derive(Clone)]
struct State {
    board: Board,
    to_play: Color,
    moves: usize,
    /// The first `max_illegal` illegal moves of the line.
    illegal: Vec<IllegalMove>,
    /// All the illegal moves of the line.
    illegal_count: usize,
}

/// One node of the path and the state before it.
#[derive(Clone)]
struct Step {
    key: usize,
    before: Mark,
    to_play: Color,
    moves: usize,
    illegal_count: usize,
}

impl<'g, G: ReadGame<'g>> fmt::Debug for Cursor<'g, G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cursor")
            .field("node", &self.node.key())
            .field("line", &self.line)
            .finish()
    }
}

impl fmt::Debug for DetachedCursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DetachedCursor")
            .field("depth", &self.path.len())
            .field("moves", &self.state.moves)
            .field("board", &self.state.board)
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
    pub fn cursor_with(
        &self,
        options: ReplayOptions,
    ) -> Result<TreeCursor<'t, 'src>, ReplayError> {
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

impl EditableGame {
    /// A cursor at this game's root, its setup applied, under the rules its
    /// `RU` names (the default [`ReplayOptions`]). See [`cursor`].
    ///
    /// ```
    /// use sgf_grove::edit::EditableGame;
    /// use sgf_grove::value::{Color, Move, Point};
    ///
    /// let doc = sgf_grove::parse(b"(;SZ[9];B[ee])")?;
    /// let mut game = EditableGame::from_game(doc.games().next().unwrap());
    /// let last = game.nodes().last().unwrap();
    /// let added = game.push_child(last)?;
    /// game.set(added, "W", Move::Play(Point { x: 2, y: 2 }))?;
    /// let mut cursor = game.cursor();
    /// while cursor.next().is_some() {}
    /// assert_eq!(cursor.board().get(Point { x: 2, y: 2 }), Some(Color::White));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cursor(&self) -> Cursor<'_, &EditableGame> {
        cursor(self)
    }

    /// A cursor at this game's root with `options`. See [`cursor_with`].
    ///
    /// # Errors
    ///
    /// In strict mode, the first illegal move (of the root). The root is
    /// entered whatever the limits.
    pub fn cursor_with(
        &self,
        options: ReplayOptions,
    ) -> Result<Cursor<'_, &EditableGame>, ReplayError> {
        cursor_with(self, options)
    }

    /// The position after `node` (a node of this game, from
    /// [`EditableGame::node`]), replayed from the root along the line that
    /// leads to it. See [`position_at`].
    ///
    /// # Errors
    ///
    /// In strict mode, the first illegal move on the way; a limit of
    /// `options` reached on the way.
    pub fn position_at<'g>(
        &'g self,
        node: EditNode<'g>,
        options: ReplayOptions,
    ) -> Result<Cursor<'g, &'g EditableGame>, ReplayError> {
        position_at(self, node, options)
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

/// The limit `limit` reached at `node`.
fn limit<'g, N: ReadNode<'g>>(node: N, limit: Limit, max: u64) -> LimitExceeded {
    LimitExceeded {
        limit,
        max,
        key: node.key(),
        position: position_of(node),
    }
}

/// Where `node` is in the input it was read from.
#[cold]
fn position_of<'g, N: ReadNode<'g>>(node: N) -> Option<Position> {
    node.game().position(node.offset()?)
}

impl<'g, G: ReadGame<'g>> Cursor<'g, G> {
    fn empty(game: G, options: ReplayOptions) -> Self {
        let rules = options.rules.unwrap_or_else(|| rules_of(game));
        let mut board = Board::new(game.board_size(), rules);
        board.keep_journal();
        Cursor {
            game,
            node: game.root(),
            line: DetachedCursor {
                options,
                state: State {
                    board,
                    to_play: Color::Black,
                    moves: 0,
                    illegal: Vec::new(),
                    illegal_count: 0,
                },
                path: Vec::new(),
                entered: 0,
            },
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
        if let Some(step) = self.line.path.last() {
            self.line.state.board.cell_changes_since(&step.before, f);
        }
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

impl DetachedCursor {
    /// A cursor on `game` again, at the node of this replay's key: the
    /// game it was detached from, or an edited copy made since, whose
    /// nodes are read as they are now (what was replayed stays as it
    /// was). `Err` gives this replay back, boxed, when the game has no
    /// node of that key.
    ///
    /// ```
    /// let doc = sgf_grove::parse(b"(;SZ[9];B[ee];W[cc])")?;
    /// let game = doc.games().next().unwrap();
    /// let mut cursor = game.cursor();
    /// cursor.next();
    /// let detached = cursor.detach();
    /// assert_eq!(detached.moves(), 1);
    /// let mut cursor = detached.attach(game).expect("the node is there");
    /// cursor.next();
    /// assert_eq!(cursor.moves(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn attach<'g, G: ReadGame<'g>>(
        self,
        game: G,
    ) -> Result<Cursor<'g, G>, Box<DetachedCursor>> {
        match game.node_by_key(self.key()) {
            Some(node) => Ok(Cursor {
                game,
                node,
                line: self,
            }),
            None => Err(Box::new(self)),
        }
    }

    /// The key ([`ReadNode::key`]) of the current node.
    pub fn key(&self) -> usize {
        self.path.last().map_or(0, |s| s.key)
    }

    /// The keys of the nodes from the root to here.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = usize> + '_ {
        self.path.iter().map(|s| s.key)
    }

    /// The options replayed under.
    pub fn options(&self) -> &ReplayOptions {
        &self.options
    }

    /// The board after the current node.
    pub fn board(&self) -> &Board {
        &self.state.board
    }

    /// Who moves next: the other colour after a move, `PL` after setup,
    /// Black at the start.
    pub fn to_play(&self) -> Color {
        self.state.to_play
    }

    /// The moves played (passes included) from the root to here.
    pub fn moves(&self) -> usize {
        self.state.moves
    }

    /// The illegal moves met from the root to here (see
    /// [`Cursor::illegal`]).
    pub fn illegal(&self) -> &[IllegalMove] {
        &self.state.illegal
    }

    /// How many illegal moves were met from the root to here.
    pub fn illegal_count(&self) -> usize {
        self.state.illegal_count
    }

    /// The nodes from the root to here (the root included).
    pub fn depth(&self) -> usize {
        self.path.len()
    }

    /// The nodes entered so far, over every line walked.
    pub fn entered(&self) -> usize {
        self.entered
    }

    /// The hash of the position with the player to move (see
    /// [`Board::hash_with`]).
    pub fn hash(&self) -> u64 {
        self.state.board.hash_with(self.state.to_play)
    }

    /// Moves back to the parent (undoing the current node, in the time it
    /// took to apply); false at the root.
    pub fn back(&mut self) -> bool {
        if self.path.len() <= 1 {
            return false;
        }
        let step = self.path.pop().expect("more than the root");
        self.undo(&step);
        true
    }

    /// Moves to `child`, a child of the current node (read from the game
    /// as it is now), applying it: [`Cursor::enter`] without the cursor.
    ///
    /// # Errors
    ///
    /// As [`Cursor::enter`]; either way the cursor does not move.
    ///
    /// # Panics
    ///
    /// When `child` is not a child of the current node (its parent's key
    /// is not [`DetachedCursor::key`]).
    pub fn enter<'g, N: ReadNode<'g>>(&mut self, child: N) -> Result<(), ReplayError> {
        assert!(
            child.parent().map(|p| p.key()) == Some(self.key()),
            "DetachedCursor::enter: not a child of the current node"
        );
        self.enter_child(child)
    }

    /// Enters `child` (the caller checked that it is a child of the
    /// current node) under the limits.
    #[inline]
    fn enter_child<'g, N: ReadNode<'g>>(&mut self, child: N) -> Result<(), ReplayError> {
        let o = &self.options;
        if self.path.len() >= o.max_depth {
            return Err(limit(child, Limit::Depth, o.max_depth as u64).into());
        }
        if self.entered >= o.max_nodes {
            return Err(limit(child, Limit::Nodes, o.max_nodes as u64).into());
        }
        self.apply_step(child)?;
        if self.state.board.changes() > self.options.max_changes {
            self.back();
            let max = self.options.max_changes;
            return Err(limit(child, Limit::Changes, max).into());
        }
        Ok(())
    }

    /// Applies `node` and pushes it on the path; undone when it fails.
    #[inline]
    fn apply_step<'g, N: ReadNode<'g>>(&mut self, node: N) -> Result<(), ReplayError> {
        let step = Step {
            key: node.key(),
            before: self.state.board.mark(),
            to_play: self.state.to_play,
            moves: self.state.moves,
            illegal_count: self.state.illegal_count,
        };
        self.entered += 1;
        if let Err(e) = apply(&mut self.state, node, &self.options) {
            self.undo(&step);
            return Err(e.into());
        }
        self.path.push(step);
        Ok(())
    }

    /// Restores the state saved in `step`.
    fn undo(&mut self, step: &Step) {
        let state = &mut self.state;
        state.board.undo_to(&step.before);
        state.to_play = step.to_play;
        state.moves = step.moves;
        state.illegal_count = step.illegal_count;
        let kept = step.illegal_count.min(self.options.max_illegal);
        state.illegal.truncate(kept);
    }
}

/// Applies one node to `state`.
#[inline]
fn apply<'g, N: ReadNode<'g>>(
    state: &mut State,
    node: N,
    options: &ReplayOptions,
) -> Result<(), IllegalMove> {
    let strict = options.strict;
    let setup = [
        ("AE", None),
        ("AB", Some(Color::Black)),
        ("AW", Some(Color::White)),
    ];
    let size = node.game().board_size();
    // Each value a point or a rectangle (`AB[aa:cc]`); a malformed value
    // or one off the board adds nothing, the others still count. The
    // node's setup is one change of position (for superko).
    let changes = setup.into_iter().flat_map(|(ident, stone)| {
        let values = node.property(ident).into_iter().flat_map(|p| p.values());
        values.filter_map(move |value| {
            let (from, to) = point_list_item(value, size)??;
            Some(
                (from.y..=to.y)
                    .flat_map(move |y| (from.x..=to.x).map(move |x| (Point { x, y }, stone))),
            )
        })
    });
    state.board.setup(changes.flatten());
    if let Ok(Some(color)) = node.get::<Color>("PL") {
        state.to_play = color;
    }
    let played = match node.played() {
        Ok(None) => return Ok(()),
        Ok(Some(played)) => Ok(played),
        Err(_) => Err(if node.has("B") {
            Color::Black
        } else {
            Color::White
        }),
    };
    state.moves += 1;
    let illegal = |color, point, reason| IllegalMove {
        key: node.key(),
        position: position_of(node),
        move_number: state.moves,
        color,
        point,
        reason,
    };
    let (color, point) = match played {
        Err(color) => {
            let e = illegal(color, None, Illegal::OffBoard);
            return report(state, e, options, color);
        }
        Ok((color, Move::Pass)) => {
            state.board.pass(color);
            state.to_play = color.opponent();
            return Ok(());
        }
        Ok((color, Move::Play(p))) => (color, p),
    };
    match state.board.play(color, point) {
        Ok(_) => {
            state.to_play = color.opponent();
            Ok(())
        }
        Err(reason) => {
            let e = illegal(color, Some(point), reason);
            if strict {
                return Err(e);
            }
            match reason {
                Illegal::Ko | Illegal::Superko => {
                    // Played as it was on the board: the repetition rule
                    // of the record's game may differ from ours.
                    state.board.play_repeating(color, point);
                }
                _ => {
                    state.board.set(point, Some(color));
                }
            }
            report(state, e, options, color)
        }
    }
}

/// Records an illegal move (or returns it in strict mode); the other
/// player moves next.
fn report(
    state: &mut State,
    e: IllegalMove,
    options: &ReplayOptions,
    color: Color,
) -> Result<(), IllegalMove> {
    if options.strict {
        return Err(e);
    }
    if state.illegal.len() < options.max_illegal {
        state.illegal.push(e);
    }
    state.illegal_count += 1;
    state.to_play = color.opponent();
    Ok(())
}
