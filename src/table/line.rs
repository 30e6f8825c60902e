//! [`Line`]: the main line's moves of a [`GameRow`](super::GameRow) as
//! columns, three bytes a move in one allocation, the way the writers
//! take them: what [`GameRow::from_game_packed`](super::GameRow::from_game_packed)
//! builds instead of a [`MoveRow`] (24 bytes) per move.

use super::MoveRow;
use crate::value::{Color, Move};
use crate::GameTree;
use std::cell::RefCell;

/// The `x` and `y` byte of a pass.
pub(crate) const PASS: u8 = u8::MAX;

/// A game's main line, packed: the colours (`B` or `W`) of its `n`
/// moves, then their `x`, then their `y` (both [`PASS`] for a pass), and
/// the plies that have no row (a `B`/`W` value that is no move).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Line {
    bytes: Vec<u8>,
    /// The plies of the values that are no move, increasing: the plies of
    /// the moves skip them. Empty nearly always (no allocation).
    skipped: Vec<u32>,
    /// How many of the moves are passes.
    passes: u32,
}

/// Each thread's columns of the line being read, kept for their room.
struct Scratch {
    color: Vec<u8>,
    x: Vec<u8>,
    y: Vec<u8>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = const {
        RefCell::new(Scratch { color: Vec::new(), x: Vec::new(), y: Vec::new() })
    };
}

impl Line {
    /// The main line of `game` (a Go game: the caller checks `GM`), and
    /// how many of its `B`/`W` values are no move.
    pub(crate) fn of(game: GameTree<'_, '_>, nodes: usize) -> (Line, u32) {
        SCRATCH.with(|scratch| {
            let mut guard = scratch.borrow_mut();
            let Scratch { color, x, y } = &mut *guard;
            // A move per node at most: the columns are sized once and
            // written by index, then cut to the moves found.
            color.clear();
            x.clear();
            y.clear();
            color.resize(nodes, 0);
            x.resize(nodes, 0);
            y.resize(nodes, 0);
            let mut skipped = Vec::new();
            let (mut ply, mut passes, mut n) = (0u32, 0u32, 0usize);
            for played in game.moves() {
                ply = ply.saturating_add(1);
                match played {
                    Ok((c, mv)) => {
                        let (px, py) = match mv {
                            Move::Play(p) => (p.x, p.y),
                            Move::Pass => {
                                passes += 1;
                                (PASS, PASS)
                            }
                        };
                        let c = match c {
                            Color::Black => b'B',
                            Color::White => b'W',
                        };
                        // A node has one move at most: `n` stays below
                        // `nodes` (were it not, the columns would grow).
                        match (color.get_mut(n), x.get_mut(n), y.get_mut(n)) {
                            (Some(cs), Some(xs), Some(ys)) => (*cs, *xs, *ys) = (c, px, py),
                            _ => {
                                color.push(c);
                                x.push(px);
                                y.push(py);
                            }
                        }
                        n += 1;
                    }
                    Err(_) => skipped.push(ply),
                }
            }
            color.truncate(n);
            x.truncate(n);
            y.truncate(n);
            let invalid = u32::try_from(skipped.len()).unwrap_or(u32::MAX);
            let mut bytes = Vec::with_capacity(3 * color.len());
            bytes.extend_from_slice(color);
            bytes.extend_from_slice(x);
            bytes.extend_from_slice(y);
            let line = Line {
                bytes,
                skipped,
                passes,
            };
            (line, invalid)
        })
    }

    /// How many moves.
    pub(crate) fn len(&self) -> usize {
        self.bytes.len() / 3
    }

    /// The colours, `B` or `W`.
    pub(crate) fn colors(&self) -> &[u8] {
        &self.bytes[..self.len()]
    }

    /// The columns, [`PASS`] for a pass.
    pub(crate) fn xs(&self) -> &[u8] {
        let n = self.len();
        &self.bytes[n..2 * n]
    }

    /// The rows, [`PASS`] for a pass.
    pub(crate) fn ys(&self) -> &[u8] {
        let n = self.len();
        &self.bytes[2 * n..]
    }

    /// How many moves are passes.
    pub(crate) fn passes(&self) -> u32 {
        self.passes
    }

    /// Whether every ply has a move (the plies are 1, 2, …).
    pub(crate) fn plies_are_steady(&self) -> bool {
        self.skipped.is_empty()
    }

    /// The plies of the moves, in order (skipping those of
    /// [`Line::skipped`]).
    pub(crate) fn plies(&self) -> impl Iterator<Item = u32> + '_ {
        let mut skipped = self.skipped.iter().peekable();
        let mut ply = 0u32;
        (0..self.len()).map(move |_| {
            ply = ply.saturating_add(1);
            while skipped.next_if(|&&s| s == ply).is_some() {
                ply = ply.saturating_add(1);
            }
            ply
        })
    }

    /// The moves as rows of game `game_id`.
    pub(crate) fn rows(&self, game_id: u64) -> impl Iterator<Item = MoveRow> + '_ {
        self.plies()
            .zip(self.colors())
            .zip(self.xs().iter().zip(self.ys()))
            .map(move |((ply, &c), (&x, &y))| {
                let pass = x == PASS;
                MoveRow {
                    game_id,
                    ply,
                    color: if c == b'B' {
                        Color::Black
                    } else {
                        Color::White
                    },
                    x: (!pass).then_some(x),
                    y: (!pass).then_some(y),
                    is_pass: pass,
                }
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::GameRow;

    /// The packed line gives the rows [`GameRow::from_game`] gives, on
    /// lines with passes, invalid values (plies skipped, one at the
    /// start, two in a row), variations and multi-property nodes.
    #[test]
    fn packed_rows_are_the_plain_rows() {
        let cases: &[&[u8]] = &[
            b"(;SZ[19];B[pd];W[dd];B[];W[tt];B[zz];W[a];B[pq])",
            b"(;SZ[9];B[zz];W[ee];B[];W[aa](;B[bb])(;B[cc]))",
            b"(;B[aa]W[bb];W[cc]B[dd];C[x];AW[ee];B[gg]BL[30])",
            b"(;SZ[52];B[ZZ];W[Za];B[aZ])",
            b"(;)",
        ];
        for text in cases {
            let doc = crate::parse(text).unwrap();
            let game = doc.games().next().unwrap();
            let plain = GameRow::from_game(game, "a", 0).with_id(9);
            let packed = GameRow::from_game_packed(game, "a", 0).with_id(9);
            let rows: Vec<MoveRow> = packed.move_rows().collect();
            assert_eq!(rows, plain.moves, "{}", String::from_utf8_lossy(text));
            assert_eq!(packed.move_count, plain.move_count);
            assert_eq!(packed.invalid_move_count, plain.invalid_move_count);
            assert!(packed.moves.is_empty());
        }
    }
}
