//! One game's contribution to an opening tree: where it starts (board and
//! handicap stones), its first moves, who won and when it was played.

use super::super::signature::{MoveSequence, SeqMove};
use super::super::{GameInfo, PartialDate};
use super::OpeningOptions;
use crate::tree::read::{ReadGame, ReadNode, ReadProperty};
use crate::value::{point_list_item, BoardSize, Color, Move, Point};
use std::fmt;

/// The most handicap stones a start may hold: a root with more `AB`
/// stones is a set-up position, not a handicap game.
pub const MAX_HANDICAP: usize = 9;

/// Where the games of one opening tree start: the board, and the handicap
/// stones (the `AB` stones placed before the first move, sorted; in the canonical orientation with
/// [`OpeningOptions::symmetry`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Start {
    /// The board.
    pub size: BoardSize,
    /// The handicap stones, sorted; empty for an even game.
    pub handicap: Vec<Point>,
}

/// How a game ended, as far as the tree counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Black won (`RE[B+…]`).
    BlackWin,
    /// White won (`RE[W+…]`).
    WhiteWin,
    /// Anything else: a draw, no result, an unknown or unreadable result,
    /// no `RE`.
    Other,
}

/// Why a game is not in an opening tree. Every game left out is counted
/// by reason ([`OpeningTree::left_out`](super::OpeningTree::left_out)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LeftOut {
    /// Not a game of Go (`GM` other than 1).
    NotGo,
    /// No move on its main line (a position, a problem).
    NoMoves,
    /// A setup before the first move other than handicap stones: `AW` or
    /// `AE`, or more than [`MAX_HANDICAP`] `AB` stones (in the root, or in
    /// the nodes before the first move, where some servers put them).
    Setup,
    /// Setup (`AB`, `AW`, `AE`) in a main-line node after the first move,
    /// within the depth of the tree.
    SetupInLine,
    /// A move value within the depth that is no move of the board.
    BadMove,
    /// A start past the 65,535 the tree tells apart.
    TooManyStarts,
}

impl LeftOut {
    /// Every reason, in the order of the summaries.
    pub const ALL: [LeftOut; 6] = [
        LeftOut::NotGo,
        LeftOut::NoMoves,
        LeftOut::Setup,
        LeftOut::SetupInLine,
        LeftOut::BadMove,
        LeftOut::TooManyStarts,
    ];

    /// The reason as words (`not Go`, `without moves`, …).
    pub const fn describe(self) -> &'static str {
        match self {
            LeftOut::NotGo => "not Go",
            LeftOut::NoMoves => "without moves",
            LeftOut::Setup => "set-up position",
            LeftOut::SetupInLine => "setup in the line",
            LeftOut::BadMove => "unreadable move",
            LeftOut::TooManyStarts => "too many starts",
        }
    }
}

impl fmt::Display for LeftOut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// Adds the `AB` stones of `node` to `stones`; too many for a handicap is
/// [`LeftOut::Setup`].
fn add_stones<'g>(
    node: impl ReadNode<'g>,
    size: BoardSize,
    stones: &mut Vec<Point>,
) -> Result<(), LeftOut> {
    for value in node.property("AB").into_iter().flat_map(|p| p.values()) {
        let Some(Some((from, to))) = point_list_item(value, size) else {
            continue;
        };
        let n = (usize::from(to.x - from.x) + 1) * (usize::from(to.y - from.y) + 1);
        if stones.len() + n > MAX_HANDICAP {
            return Err(LeftOut::Setup);
        }
        for y in from.y..=to.y {
            stones.extend((from.x..=to.x).map(|x| Point { x, y }));
        }
    }
    Ok(())
}

/// One game as an opening tree takes it: its [`Start`], its first main-line
/// moves (passes included), its [`Outcome`] and its dates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningLine {
    /// Where it starts.
    pub start: Start,
    /// Its first moves, at most [`OpeningOptions::depth`] of them.
    pub moves: Vec<SeqMove>,
    /// Who won.
    pub outcome: Outcome,
    /// The first and last dates of its `DT`, when readable.
    pub dates: Option<(PartialDate, PartialDate)>,
}

impl OpeningLine {
    /// The line of `game` (parsed or edited) under `options`.
    ///
    /// ```
    /// use sgf_grove::game::opening::{OpeningLine, OpeningOptions, Outcome};
    /// let doc = sgf_grove::parse(b"(;SZ[19]RE[W+R]DT[2020-01-02];B[pd];W[dp];B[])")?;
    /// let game = doc.games().next().unwrap();
    /// let line = OpeningLine::of(game, &OpeningOptions::new().depth(2)).unwrap();
    /// assert_eq!(line.moves.len(), 2);
    /// assert_eq!(line.outcome, Outcome::WhiteWin);
    /// assert_eq!(line.dates.unwrap().0.to_string(), "2020-01-02");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Why the game is left out ([`LeftOut`]).
    pub fn of<'g>(
        game: impl ReadGame<'g>,
        options: &OpeningOptions,
    ) -> Result<OpeningLine, LeftOut> {
        if game.game_type() != 1 {
            return Err(LeftOut::NotGo);
        }
        let size = game.board_size();
        let mut handicap = Vec::new();
        let mut moves = Vec::new();
        for node in game.root().main_line() {
            if moves.len() >= options.depth {
                break;
            }
            let setup = node.has("AB") || node.has("AW") || node.has("AE");
            if setup && !moves.is_empty() {
                return Err(LeftOut::SetupInLine);
            }
            if setup {
                // Before the first move (the root, or a node of its own as
                // some servers write handicap stones): the start.
                if node.has("AW") || node.has("AE") {
                    return Err(LeftOut::Setup);
                }
                add_stones(node, size, &mut handicap)?;
            }
            match node.played() {
                Ok(Some((color, Move::Play(p)))) => moves.push((color, Some(p))),
                Ok(Some((color, Move::Pass))) => moves.push((color, None)),
                Ok(None) => {}
                Err(_) => return Err(LeftOut::BadMove),
            }
        }
        handicap.sort_unstable();
        handicap.dedup();
        if moves.is_empty() {
            return Err(LeftOut::NoMoves);
        }
        let (handicap, moves) = if options.symmetry {
            let setup: Vec<(Color, Point)> = handicap.iter().map(|&p| (Color::Black, p)).collect();
            let canonical = MoveSequence::canonical(&setup, &moves, size);
            let stones = canonical.setup.into_iter().map(|(_, p)| p).collect();
            (stones, canonical.moves)
        } else {
            (handicap, moves)
        };
        let info = GameInfo::of(game);
        let outcome = match info.result().and_then(|r| r.winner()) {
            Some(Color::Black) => Outcome::BlackWin,
            Some(Color::White) => Outcome::WhiteWin,
            None => Outcome::Other,
        };
        let dates = info.dates().and_then(|d| {
            let first = d.dates.iter().min()?;
            let last = d.dates.iter().max()?;
            Some((*first, *last))
        });
        Ok(OpeningLine {
            start: Start { size, handicap },
            moves,
            outcome,
            dates,
        })
    }
}
