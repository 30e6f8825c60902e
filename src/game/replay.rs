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
use crate::span::Position;
use crate::tree::{GameTree, Node, NodeId};
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

/// A move the rules refused, where it is in the file and what the replay
/// did with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The node of the move.
    pub node: NodeId,
    /// Where the node is in the input.
    pub position: Position,
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
        write!(f, " at {}: {}", self.position, self.reason)
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
    /// The node not entered.
    pub node: NodeId,
    /// Where that node is in the input.
    pub position: Position,
}

impl fmt::Display for LimitExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.limit {
            Limit::Nodes => "nodes replayed",
            Limit::Depth => "nodes in one line",
            Limit::Changes => "stones put on or taken off",
        };
        write!(
            f,
            "replay limit: more than {} {what} (the node at {})",
            self.max, self.position
        )
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

/// A cursor on a line of play of one game: the position after its current
/// node, moved forwards to a child and back to the parent.
///
/// Each node entered keeps what it changed (the board's undo journal, see
/// [`ReplayOptions`]): [`Cursor::back`] undoes exactly one node in the
/// time that node took, and the superko history is one set, added to on
/// the way in and taken from on the way back.
#[derive(Clone)]
pub struct Cursor<'t, 'src> {
    game: GameTree<'t, 'src>,
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
    node: NodeId,
    before: Mark,
    to_play: Color,
    moves: usize,
    illegal_count: usize,
}

impl fmt::Debug for Cursor<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cursor")
            .field("game", &self.game.index())
            .field("depth", &self.path.len())
            .field("moves", &self.state.moves)
            .field("board", &self.state.board)
            .finish()
    }
}

impl<'t, 'src: 't> GameTree<'t, 'src> {
    /// A cursor at this game's root, its setup applied, under the rules its
    /// `RU` names (the default [`ReplayOptions`]).
    pub fn cursor(&self) -> Cursor<'t, 'src> {
        let mut cursor = Cursor::empty(*self, ReplayOptions::default());
        // A lenient replay reports illegal moves instead of failing, and
        // the root is under every limit.
        let _ = cursor.apply_root();
        cursor
    }

    /// A cursor at this game's root with `options`.
    ///
    /// # Errors
    ///
    /// In strict mode, the first illegal move (of the root). The root is
    /// entered whatever the limits.
    pub fn cursor_with(&self, options: ReplayOptions) -> Result<Cursor<'t, 'src>, ReplayError> {
        let mut cursor = Cursor::empty(*self, options);
        cursor.apply_root()?;
        Ok(cursor)
    }

    /// The position after `node` (a node of this game), replayed from the
    /// root along the line that leads to it.
    ///
    /// # Errors
    ///
    /// In strict mode, the first illegal move on the way; a limit of
    /// `options` reached on the way.
    pub fn position_at(
        &self,
        node: Node<'t, 'src>,
        options: ReplayOptions,
    ) -> Result<Cursor<'t, 'src>, ReplayError> {
        let mut line: Vec<Node<'t, 'src>> = Vec::new();
        let mut at = Some(node);
        while let Some(n) = at {
            if line.len() >= options.max_depth {
                return Err(Cursor::limit(n, Limit::Depth, options.max_depth as u64).into());
            }
            line.push(n);
            at = n.parent();
        }
        line.reverse();
        let mut cursor = self.cursor_with(options)?;
        for n in line.into_iter().skip(1) {
            cursor.enter(n)?;
        }
        Ok(cursor)
    }
}

impl<'t, 'src: 't> Cursor<'t, 'src> {
    fn empty(game: GameTree<'t, 'src>, options: ReplayOptions) -> Self {
        let rules = options
            .rules
            .or_else(|| game.game_info().rules().map(|r| RuleSet::for_rules(&r)))
            .unwrap_or_default();
        let mut board = Board::new(game.board_size(), rules);
        board.keep_journal();
        Cursor {
            game,
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
        }
    }

    /// Applies the root, whatever the limits.
    fn apply_root(&mut self) -> Result<(), ReplayError> {
        let root = self.game.root();
        self.apply_step(root)
    }

    fn limit(node: Node<'_, '_>, limit: Limit, max: u64) -> LimitExceeded {
        LimitExceeded {
            limit,
            max,
            node: node.id(),
            position: node.collection().position(node.offset()),
        }
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

    /// The illegal moves met from the root to here: the first
    /// [`ReplayOptions::max_illegal`] of them (all of them:
    /// [`Cursor::illegal_count`]).
    pub fn illegal(&self) -> &[IllegalMove] {
        &self.state.illegal
    }

    /// How many illegal moves were met from the root to here, those not
    /// kept in [`Cursor::illegal`] included.
    pub fn illegal_count(&self) -> usize {
        self.state.illegal_count
    }

    /// The nodes from the root to here (the root included).
    pub fn depth(&self) -> usize {
        self.path.len()
    }

    /// The nodes this cursor entered so far, over every line it walked
    /// (what [`ReplayOptions::max_nodes`] limits).
    pub fn entered(&self) -> usize {
        self.entered
    }

    /// Calls `f(point, old, new)` for every stone the current node put on
    /// or took off, in order (a point may come more than once).
    #[cfg(feature = "index")]
    pub(crate) fn node_changes(&self, f: impl FnMut(Point, Option<Color>, Option<Color>)) {
        if let Some(step) = self.path.last() {
            self.state.board.cell_changes_since(&step.before, f);
        }
    }

    /// The current node.
    pub fn node(&self) -> Node<'t, 'src> {
        let id = self.path.last().expect("the root is always applied").node;
        self.game.collection().node(id)
    }

    /// The hash of the position with the player to move (see
    /// [`Board::hash_with`]).
    pub fn hash(&self) -> u64 {
        self.state.board.hash_with(self.state.to_play)
    }

    /// Moves to the first child (the main line); `None` at a leaf, or when
    /// the child cannot be entered (a strict cursor's illegal move, a
    /// limit; [`Cursor::enter`] says which).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<Node<'t, 'src>> {
        let child = self.node().first_child()?;
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
    pub fn enter(&mut self, child: Node<'t, 'src>) -> Result<(), ReplayError> {
        let at = self.path.last().map(|s| s.node);
        assert_eq!(
            child.parent().map(|p| p.id()),
            at,
            "Cursor::enter: not a child of the current node"
        );
        let o = &self.options;
        if self.path.len() >= o.max_depth {
            return Err(Self::limit(child, Limit::Depth, o.max_depth as u64).into());
        }
        if self.entered >= o.max_nodes {
            return Err(Self::limit(child, Limit::Nodes, o.max_nodes as u64).into());
        }
        self.apply_step(child)?;
        if self.state.board.changes() > self.options.max_changes {
            self.back();
            let max = self.options.max_changes;
            return Err(Self::limit(child, Limit::Changes, max).into());
        }
        Ok(())
    }

    /// Applies `node` and pushes it on the path; undone when it fails.
    fn apply_step(&mut self, node: Node<'t, 'src>) -> Result<(), ReplayError> {
        let step = Step {
            node: node.id(),
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
}

/// Applies one node to `state`.
fn apply(
    state: &mut State,
    node: Node<'_, '_>,
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
        node.raw_values(ident).filter_map(move |value| {
            let (from, to) = point_list_item(value.raw(), size)??;
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
        node: node.id(),
        position: node.collection().position(node.offset()),
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
