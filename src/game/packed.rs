//! The main line's moves packed three bytes a move: one call fills a
//! buffer that a binding hands over whole (the Python package's
//! `Game.moves_array()`, a numpy array), instead of one object per move.

use crate::tree::read::{ReadGame, ReadNode};
use crate::value::{Color, Move};
use crate::Error;

/// What [`pack_main_line`] found besides the moves it packed.
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct PackedMoves {
    /// The moves packed.
    pub moves: usize,
    /// The `B`/`W` values of the main line that are no move on the board
    /// (`B[zz]` on 19×19): left out, counted here.
    pub invalid: usize,
    /// The first of those, with its position.
    pub first_invalid: Option<Error>,
}

/// The byte of a colour in a packed move: 1 for black, 2 for white (the
/// codes of a board's cells).
pub const PACKED_BLACK: i8 = 1;
/// See [`PACKED_BLACK`].
pub const PACKED_WHITE: i8 = 2;
/// The `x` and `y` bytes of a pass.
pub const PACKED_PASS: i8 = -1;

/// Appends the moves of `game`'s main line to `out`, in order, three
/// signed bytes a move: the colour ([`PACKED_BLACK`] or
/// [`PACKED_WHITE`]), then `x` and `y` from 0 (the column from the left,
/// the row from the top, as SGF writes them), both [`PACKED_PASS`] for a
/// pass. Nodes without a move add nothing; a move that is no point of the
/// board is left out and counted (the same moves, in the same order, as
/// [`ReadNode::played`] gives along [`ReadNode::main_line`]).
///
/// ```
/// use sgf_grove::game::pack_main_line;
/// let doc = sgf_grove::parse(b"(;SZ[19];B[pd];W[zz];B[];W[dc])")?;
/// let mut out = Vec::new();
/// let found = pack_main_line(doc.games().next().unwrap(), &mut out);
/// assert_eq!(out, [1, 15, 3, 1, -1, -1, 2, 3, 2]);
/// assert_eq!((found.moves, found.invalid), (3, 1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn pack_main_line<'g, G: ReadGame<'g>>(game: G, out: &mut Vec<i8>) -> PackedMoves {
    let mut found = PackedMoves::default();
    for node in game.root().main_line() {
        match node.played() {
            Ok(None) => {}
            Ok(Some((color, m))) => {
                let c = match color {
                    Color::Black => PACKED_BLACK,
                    Color::White => PACKED_WHITE,
                };
                let (x, y) = match m {
                    // Coordinates are below 52 (board sides are at most 52).
                    Move::Play(p) => (
                        i8::try_from(p.x).unwrap_or(i8::MAX),
                        i8::try_from(p.y).unwrap_or(i8::MAX),
                    ),
                    Move::Pass => (PACKED_PASS, PACKED_PASS),
                };
                out.extend_from_slice(&[c, x, y]);
                found.moves += 1;
            }
            Err(e) => {
                found.invalid += 1;
                if found.first_invalid.is_none() {
                    found.first_invalid = Some(e);
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packs_as_played_gives() {
        let text = b"(;GM[1]SZ[9];B[ee]C[x];W[tt];AB[aa];B[jj](;W[aa])(;W[bb]))";
        let doc = crate::parse(text).unwrap();
        let game = doc.games().next().unwrap();
        let mut out = Vec::new();
        let found = pack_main_line(game, &mut out);
        // W[tt] is a pass (up to 19×19); B[jj] is off a 9×9 board.
        assert_eq!(out, [1, 4, 4, 2, -1, -1, 2, 0, 0]);
        assert_eq!((found.moves, found.invalid), (3, 1));
        let first = found.first_invalid.unwrap();
        assert_eq!(first.position().line, 1);
        let played: Vec<_> = game
            .root()
            .main_line()
            .filter_map(|n| n.played().ok().flatten())
            .collect();
        assert_eq!(played.len(), found.moves);
    }

    #[test]
    fn appends() {
        let doc = crate::parse(b"(;B[aa])(;W[])").unwrap();
        let mut out = Vec::new();
        for game in doc.games() {
            pack_main_line(game, &mut out);
        }
        assert_eq!(out, [1, 0, 0, 2, -1, -1]);
    }
}
