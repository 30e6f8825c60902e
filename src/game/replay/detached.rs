//! A replay without its game: [`DetachedCursor`], and how one node is
//! applied.

use super::errors::{limit, position_of};
use super::{Cursor, IllegalMove, Limit, ReplayError, ReplayOptions};
use crate::game::board::{Board, Illegal, Mark, RuleSet};
use crate::tree::read::{ReadGame, ReadNode, ReadProperty};
use crate::value::{point_list_item, BoardSize, Color, Move, Point};
use std::fmt;

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

impl fmt::Debug for DetachedCursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DetachedCursor")
            .field("depth", &self.path.len())
            .field("moves", &self.state.moves)
            .field("board", &self.state.board)
            .finish()
    }
}

impl DetachedCursor {
    /// A replay on `board` before its root.
    pub(crate) fn new(options: ReplayOptions, board: Board) -> DetachedCursor {
        DetachedCursor {
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

    /// Starts over on an empty board of `size` under `rules` (before a
    /// root), keeping the buffers: the board's arrays, its journal and the
    /// path. Without `undo` the board keeps no journal, and
    /// [`DetachedCursor::back`] must not be called until the next reset.
    pub(super) fn reset(
        &mut self,
        options: ReplayOptions,
        size: BoardSize,
        rules: RuleSet,
        undo: bool,
    ) {
        self.options = options;
        let state = &mut self.state;
        state.board.reset(size, rules);
        state.board.set_journal(undo);
        state.to_play = Color::Black;
        state.moves = 0;
        state.illegal.clear();
        state.illegal_count = 0;
        self.path.clear();
        self.entered = 0;
    }

    /// Calls `f(point, old, new)` for every stone the current node put on
    /// or took off, in order.
    #[cfg(feature = "index")]
    pub(crate) fn node_changes(&self, f: impl FnMut(Point, Option<Color>, Option<Color>)) {
        if let Some(step) = self.path.last() {
            self.state.board.cell_changes_since(&step.before, f);
        }
    }

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
    pub(super) fn enter_child<'g, N: ReadNode<'g>>(&mut self, child: N) -> Result<(), ReplayError> {
        self.enter_read(child, child.key(), &NodeMoves::read(child))
    }

    /// [`DetachedCursor::enter_child`] with what applying `child` reads of
    /// it already read (by a caller that reads each node's properties once
    /// for checks of its own) and its key.
    #[inline]
    pub(crate) fn enter_read<'g, N: ReadNode<'g>>(
        &mut self,
        child: N,
        key: usize,
        moves: &NodeMoves<N::Property>,
    ) -> Result<(), ReplayError> {
        let o = &self.options;
        if self.path.len() >= o.max_depth {
            return Err(limit(child, Limit::Depth, o.max_depth as u64).into());
        }
        if self.entered >= o.max_nodes {
            return Err(limit(child, Limit::Nodes, o.max_nodes as u64).into());
        }
        self.apply_read(child, key, moves)?;
        if self.state.board.changes() > self.options.max_changes {
            self.back();
            let max = self.options.max_changes;
            return Err(limit(child, Limit::Changes, max).into());
        }
        Ok(())
    }

    /// Applies `node` and pushes it on the path; undone when it fails.
    #[inline]
    pub(super) fn apply_step<'g, N: ReadNode<'g>>(&mut self, node: N) -> Result<(), ReplayError> {
        self.apply_read(node, node.key(), &NodeMoves::read(node))
    }

    /// [`DetachedCursor::apply_step`] with what it reads of `node` read.
    #[inline]
    pub(super) fn apply_read<'g, N: ReadNode<'g>>(
        &mut self,
        node: N,
        key: usize,
        moves: &NodeMoves<N::Property>,
    ) -> Result<(), ReplayError> {
        let step = Step {
            key,
            before: self.state.board.mark(),
            to_play: self.state.to_play,
            moves: self.state.moves,
            illegal_count: self.state.illegal_count,
        };
        self.entered += 1;
        if let Err(e) = apply(&mut self.state, node, key, moves, &self.options) {
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

/// What applying a node reads of it: its setup lists (`AE`, `AB`, `AW`),
/// its `PL` and its move (`Err` with the colour: a malformed move).
#[derive(Clone, Copy, Debug)]
pub(crate) struct NodeMoves<P> {
    pub(crate) setup: [Option<P>; 3],
    pub(crate) pl: Option<Color>,
    pub(crate) played: Result<Option<(Color, Move)>, Color>,
}

/// The setup identifiers in the order of [`NodeMoves::setup`], each with
/// the stone it puts.
pub(crate) const SETUP: [(&str, Option<Color>); 3] = [
    ("AE", None),
    ("AB", Some(Color::Black)),
    ("AW", Some(Color::White)),
];

impl<'g, P: ReadProperty<'g>> NodeMoves<P> {
    /// Reads them from `node`, one lookup each.
    #[inline]
    pub(crate) fn read<N: ReadNode<'g, Property = P>>(node: N) -> NodeMoves<P> {
        NodeMoves {
            setup: SETUP.map(|(ident, _)| node.property(ident)),
            pl: node.get::<Color>("PL").ok().flatten(),
            played: played_or_colour(node),
        }
    }
}

/// The move of `node`, or the colour of its malformed one.
#[inline]
pub(crate) fn played_or_colour<'g, N: ReadNode<'g>>(
    node: N,
) -> Result<Option<(Color, Move)>, Color> {
    node.played().map_err(|_| {
        if node.has("B") {
            Color::Black
        } else {
            Color::White
        }
    })
}

/// Applies one node (`key`, read as `moves`) to `state`.
#[inline]
fn apply<'g, N: ReadNode<'g>>(
    state: &mut State,
    node: N,
    key: usize,
    moves: &NodeMoves<N::Property>,
    options: &ReplayOptions,
) -> Result<(), IllegalMove> {
    let strict = options.strict;
    // Most nodes have no setup: no iterator built, nothing copied.
    if moves.setup.iter().any(Option::is_some) {
        let size = node.game().board_size();
        // Each value a point or a rectangle (`AB[aa:cc]`); a malformed
        // value or one off the board adds nothing, the others still count.
        // The node's setup is one change of position (for superko).
        let changes =
            moves
                .setup
                .iter()
                .zip(SETUP)
                .flat_map(|(prop, (_, stone))| {
                    let values = prop.iter().flat_map(|p| p.values());
                    values.filter_map(move |value| {
                        let (from, to) = point_list_item(value, size)??;
                        Some((from.y..=to.y).flat_map(move |y| {
                            (from.x..=to.x).map(move |x| (Point { x, y }, stone))
                        }))
                    })
                });
        state.board.setup(changes.flatten());
    }
    if let Some(color) = moves.pl {
        state.to_play = color;
    }
    let played = match moves.played {
        Ok(None) => return Ok(()),
        Ok(Some(played)) => Ok(played),
        Err(color) => Err(color),
    };
    state.moves += 1;
    let illegal = |color, point, reason| IllegalMove {
        key,
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
