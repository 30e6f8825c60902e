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

use super::board::{Board, Illegal, RuleSet};
use crate::span::Position;
use crate::tree::{GameTree, Node, NodeId};
use crate::value::{point_list_item, Color, Move, Point};
use std::fmt;

/// How a game is replayed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReplayOptions {
    /// The rules; `None`: from the game's `RU` ([`RuleSet::for_rules`]).
    pub rules: Option<RuleSet>,
    /// Whether an illegal move is an error instead of being reported.
    pub strict: bool,
}

impl ReplayOptions {
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

/// A cursor on a line of play of one game: the position after its current
/// node, moved forwards to a child and back to the parent.
#[derive(Clone)]
pub struct Cursor<'t, 'src> {
    game: GameTree<'t, 'src>,
    strict: bool,
    state: State,
    /// The nodes applied, from the root.
    path: Vec<NodeId>,
    /// Copies of the state every [`SNAPSHOT_EVERY`] nodes of the path, to
    /// go back without replaying from the root.
    snapshots: Vec<State>,
}

/// What a replay knows after a node.
#[derive(Clone)]
struct State {
    board: Board,
    to_play: Color,
    moves: usize,
    illegal: Vec<IllegalMove>,
}

const SNAPSHOT_EVERY: usize = 32;

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
    /// `RU` names.
    pub fn cursor(&self) -> Cursor<'t, 'src> {
        Cursor::new(*self, ReplayOptions::default())
            .expect("a lenient replay reports illegal moves instead of failing")
    }

    /// A cursor at this game's root with `options`.
    ///
    /// # Errors
    ///
    /// In strict mode, the first illegal move (of the root).
    pub fn cursor_with(&self, options: ReplayOptions) -> Result<Cursor<'t, 'src>, IllegalMove> {
        Cursor::new(*self, options)
    }

    /// The position after `node` (a node of this game), replayed from the
    /// root along the line that leads to it.
    ///
    /// # Errors
    ///
    /// In strict mode, the first illegal move on the way.
    pub fn position_at(
        &self,
        node: Node<'t, 'src>,
        options: ReplayOptions,
    ) -> Result<Cursor<'t, 'src>, IllegalMove> {
        let mut line: Vec<Node<'t, 'src>> = node.ancestors().collect();
        line.reverse();
        line.push(node);
        let mut cursor = Cursor::new(*self, options)?;
        for n in line.into_iter().skip(1) {
            cursor.enter(n)?;
        }
        Ok(cursor)
    }
}

impl<'t, 'src: 't> Cursor<'t, 'src> {
    fn new(game: GameTree<'t, 'src>, options: ReplayOptions) -> Result<Self, IllegalMove> {
        let rules = options
            .rules
            .or_else(|| game.game_info().rules().map(|r| RuleSet::for_rules(&r)))
            .unwrap_or_default();
        let mut cursor = Cursor {
            game,
            strict: options.strict,
            state: State {
                board: Board::new(game.board_size(), rules),
                to_play: Color::Black,
                moves: 0,
                illegal: Vec::new(),
            },
            path: Vec::new(),
            snapshots: Vec::new(),
        };
        cursor.enter(game.root())?;
        Ok(cursor)
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

    /// The illegal moves met from the root to here.
    pub fn illegal(&self) -> &[IllegalMove] {
        &self.state.illegal
    }

    /// The current node.
    pub fn node(&self) -> Node<'t, 'src> {
        let id = *self.path.last().expect("the root is always applied");
        self.game.collection().node(id)
    }

    /// The hash of the position with the player to move (see
    /// [`Board::hash_with`]).
    pub fn hash(&self) -> u64 {
        self.state.board.hash_with(self.state.to_play)
    }

    /// Moves to the first child (the main line); `None` at a leaf.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<Node<'t, 'src>> {
        let child = self.node().first_child()?;
        // Lenient cursors never fail; a strict one stays where it was.
        self.enter(child).ok()?;
        Some(child)
    }

    /// Moves to `child`, a child of the current node, applying it.
    ///
    /// # Errors
    ///
    /// In strict mode, an illegal move of that node (the cursor does not
    /// move).
    ///
    /// # Panics
    ///
    /// When `child` is not a child of the current node (the root for a new
    /// cursor).
    pub fn enter(&mut self, child: Node<'t, 'src>) -> Result<(), IllegalMove> {
        if let Some(&at) = self.path.last() {
            assert_eq!(
                child.parent().map(|p| p.id()),
                Some(at),
                "Cursor::enter: not a child of the current node"
            );
        }
        if self.path.len().is_multiple_of(SNAPSHOT_EVERY) {
            let depth = self.path.len() / SNAPSHOT_EVERY;
            self.snapshots.truncate(depth);
            self.snapshots.push(self.state.clone());
        }
        let before = self.strict.then(|| self.state.clone());
        if let Err(e) = apply(&mut self.state, child, self.strict) {
            if let Some(state) = before {
                self.state = state;
            }
            return Err(e);
        }
        self.path.push(child.id());
        Ok(())
    }

    /// Moves back to the parent (undoing the current node); false at the
    /// root.
    pub fn back(&mut self) -> bool {
        if self.path.len() <= 1 {
            return false;
        }
        self.path.pop();
        // The state before path[k * SNAPSHOT_EVERY] was saved: restore the
        // last one at or before the new end, then replay the rest.
        let keep = self.path.len();
        let snap = (keep - 1) / SNAPSHOT_EVERY;
        self.snapshots.truncate(snap + 1);
        self.state = self.snapshots[snap].clone();
        let coll = self.game.collection();
        for &id in &self.path[snap * SNAPSHOT_EVERY..] {
            // Replayed as before: a strict cursor only holds legal nodes.
            let _ = apply(&mut self.state, coll.node(id), false);
        }
        true
    }
}

/// Applies one node to `state`.
fn apply(state: &mut State, node: Node<'_, '_>, strict: bool) -> Result<(), IllegalMove> {
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
            return report(state, e, strict, color);
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
            report(state, e, false, color)
        }
    }
}

/// Records an illegal move (or returns it in strict mode); the other
/// player moves next.
fn report(
    state: &mut State,
    e: IllegalMove,
    strict: bool,
    color: Color,
) -> Result<(), IllegalMove> {
    if strict {
        return Err(e);
    }
    state.illegal.push(e);
    state.to_play = color.opponent();
    Ok(())
}
