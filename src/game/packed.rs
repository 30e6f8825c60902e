//! The main line's moves packed three bytes a move: one call fills a
//! buffer that a binding hands over whole (the Python package's
//! `Game.moves_array()`, a numpy array), instead of one object per move.

use crate::tree::read::{ReadGame, ReadNode};
use crate::value::{Color, Move};
use crate::{Error, GameTree};

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
            Ok(Some((color, m))) => push(&mut found, out, color, m),
            Err(e) => invalid(&mut found, e),
        }
    }
    found
}

/// [`pack_main_line`] for a parsed game: the same bytes and counts, the
/// main line read straight from the arena ([`GameTree::moves`], whose
/// common case is a node of one `B` or `W` property) rather than node by
/// node. The Python package's `Game.moves_array()` of a parsed game.
///
/// ```
/// use sgf_grove::game::{pack_main_line, pack_parsed_main_line};
/// let doc = sgf_grove::parse(b"(;SZ[19];B[pd];W[zz];B[];W[dc])")?;
/// let game = doc.games().next().unwrap();
/// let (mut fast, mut plain) = (Vec::new(), Vec::new());
/// let found = pack_parsed_main_line(game, &mut fast);
/// pack_main_line(game, &mut plain);
/// assert_eq!(fast, plain);
/// assert_eq!((found.moves, found.invalid), (3, 1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn pack_parsed_main_line(game: GameTree<'_, '_>, out: &mut Vec<i8>) -> PackedMoves {
    let mut found = PackedMoves::default();
    for played in game.moves() {
        match played {
            Ok((color, m)) => push(&mut found, out, color, m),
            Err(e) => invalid(&mut found, e),
        }
    }
    found
}

/// Packs one move.
#[inline]
fn push(found: &mut PackedMoves, out: &mut Vec<i8>, color: Color, m: Move) {
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

/// Counts a value that is no move, keeping the first.
#[cold]
fn invalid(found: &mut PackedMoves, e: Error) {
    found.invalid += 1;
    if found.first_invalid.is_none() {
        found.first_invalid = Some(e);
    }
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

    /// The fast path gives what the node-by-node path gives, on games of
    /// every shape: variations, setup, rich and multi-property nodes, both
    /// colours in one node, passes, invalid values, other board sizes.
    #[test]
    fn parsed_path_equals_node_by_node() {
        let cases: &[&[u8]] = &[
            b"(;GM[1]SZ[9];B[ee]C[x];W[tt];AB[aa];B[jj](;W[aa])(;W[bb]))",
            b"(;SZ[19];B[pd];W[dd];B[];W[tt];B[zz];W[a];B[pdx])",
            b"(;SZ[19:13];B[sm];W[am];B[an];W[sa])",
            b"(;SZ[25];B[yy];W[tt];B[zz])",
            b"(;B[aa]W[bb];W[cc]B[dd];C[only a comment];PL[B];AW[ee][ff];B[gg]BL[30])",
            b"(;GM[1];B[aa];W[bb](;B[cc];W[dd])(;B[ee]))(;W[qq];B[rr])",
            br"(;B[a\a];W[b\]b];B[cc]C[a]]B[dd])",
            b"(;SZ[52];B[ZZ];W[Za];B[aZ])",
            b"(;FF[3]GM[1];B[aa];;;W[bb];;B[])",
            b"(;GM[2]SZ[8];B[aa];W[zz];B[tt])",
            b"(;CA[Shift_JIS]SZ[19]C[\x95\x5c];B[pd];W[]C[x];B[tt])",
            b"(;)",
        ];
        for text in cases {
            let doc = crate::parse(text).unwrap();
            for game in doc.games() {
                let (mut fast, mut plain) = (Vec::new(), Vec::new());
                let a = pack_parsed_main_line(game, &mut fast);
                let b = pack_main_line(game, &mut plain);
                let text = String::from_utf8_lossy(text);
                assert_eq!(fast, plain, "{text}");
                assert_eq!((a.moves, a.invalid), (b.moves, b.invalid), "{text}");
                assert_eq!(
                    a.first_invalid.map(|e| e.position()),
                    b.first_invalid.map(|e| e.position()),
                    "{text}"
                );
            }
        }
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
