//! Signatures of games for finding copies of the same game: the main
//! line's moves in a canonical orientation (the same for a game and its
//! rotated or reflected copy, whatever the metadata), the clustering of
//! copies (a truncated copy joins the full game), and the Dyer signature
//! that game databases use.
//!
//! ```
//! use sgf_grove::game::signature::{dyer, MoveSequence};
//!
//! let a = sgf_grove::parse(b"(;PB[Lee]SZ[19];B[pd];W[dp];B[pp];W[dd])")?;
//! // The same game, mirrored left to right, other names, one move short.
//! let b = sgf_grove::parse(b"(;PB[Yi]SZ[19];B[dd];W[pp];B[dp])")?;
//! let a = MoveSequence::of(a.games().next().unwrap());
//! let b = MoveSequence::of(b.games().next().unwrap());
//! assert!(b.is_prefix_of(&a));
//! assert_eq!(dyer(sgf_grove::parse(b"(;B[aa])")?.games().next().unwrap()), "????????????");
//! # Ok::<(), sgf_grove::Error>(())
//! ```

use super::Symmetry;
use crate::error::Result;
use crate::tree::read::{ReadGame, ReadNode, ReadProperty};
use crate::value::{BoardSize, Color, FromValue, Move, Point};

/// A move of a canonical sequence: colour and point (`None`: a pass).
pub type SeqMove = (Color, Option<Point>);

/// A game's main-line moves turned by the symmetry that makes the sequence
/// smallest: equal for a game and its rotated or reflected copies.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MoveSequence {
    /// The stones of the root's setup (`AB`, `AW`: handicap stones, a
    /// problem's position), in the canonical orientation, sorted.
    pub setup: Vec<(Color, Point)>,
    /// The moves, in the canonical orientation.
    pub moves: Vec<SeqMove>,
    /// The symmetry that turns the game as written into `moves`.
    pub symmetry: Symmetry,
    /// The board (in the canonical orientation).
    pub size: BoardSize,
}

impl MoveSequence {
    /// The canonical sequence of `game`'s main line (values that are no
    /// move of the board are left out), parsed or edited.
    pub fn of<'g>(game: impl ReadGame<'g>) -> MoveSequence {
        let root = game.root();
        let ctx = game.value_context();
        let mut setup: Vec<(Color, Point)> = Vec::new();
        for (ident, color) in [("AB", Color::Black), ("AW", Color::White)] {
            if let Some(p) = root.property(ident) {
                let points = p.values().filter_map(|v| Point::from_value(v, &ctx));
                setup.extend(points.map(|p| (color, p)));
            }
        }
        let moves = main_line(game);
        MoveSequence::canonical(&setup, &moves, game.board_size())
    }

    /// The canonical form of a game of root setup `setup` and moves
    /// `moves` on a board of `size`: of the symmetries that keep the
    /// board's shape (all 8 on a square board), the one whose image of the
    /// setup, then of the moves, is smallest.
    pub fn canonical(setup: &[(Color, Point)], moves: &[SeqMove], size: BoardSize) -> MoveSequence {
        let turned = |s: Symmetry| {
            let mut stones: Vec<(Color, Point)> =
                setup.iter().map(|&(c, p)| (c, s.apply(p, size))).collect();
            stones.sort_unstable();
            let seq: Vec<SeqMove> = moves
                .iter()
                .map(|&(c, p)| (c, p.map(|p| s.apply(p, size))))
                .collect();
            MoveSequence {
                setup: stones,
                moves: seq,
                symmetry: s,
                size,
            }
        };
        let mut best = turned(Symmetry::Identity);
        for s in Symmetry::ALL.into_iter().skip(1) {
            if s.board_size(size) != size {
                continue;
            }
            let other = turned(s);
            if (&other.setup, &other.moves) < (&best.setup, &best.moves) {
                best = other;
            }
        }
        best
    }

    /// Whether this game's moves begin the other's (equal included), in
    /// the canonical orientation of both, on the same board.
    pub fn is_prefix_of(&self, other: &MoveSequence) -> bool {
        self.size == other.size && self.setup == other.setup && other.moves.starts_with(&self.moves)
    }
}

impl MoveSequence {
    /// The same game with Black and White exchanged (setup and moves), in
    /// its own canonical orientation: a copy recorded with the colours the
    /// other way round gives the sequence of the original. `symmetry` still
    /// turns the game as written into the new `moves`.
    ///
    /// ```
    /// use sgf_grove::game::signature::MoveSequence;
    /// let a = sgf_grove::parse(b"(;B[pd];W[dp];B[pp];W[dd])")?;
    /// let b = sgf_grove::parse(b"(;W[pd];B[dp];W[pp];B[dd])")?;
    /// let a = MoveSequence::of(a.games().next().unwrap());
    /// let b = MoveSequence::of(b.games().next().unwrap());
    /// assert_ne!(a.moves, b.moves);
    /// assert_eq!(a.moves, b.swapped_colors().moves);
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    #[must_use]
    pub fn swapped_colors(&self) -> MoveSequence {
        let setup: Vec<(Color, Point)> =
            self.setup.iter().map(|&(c, p)| (c.opponent(), p)).collect();
        let moves: Vec<SeqMove> = self.moves.iter().map(|&(c, p)| (c.opponent(), p)).collect();
        let turned = MoveSequence::canonical(&setup, &moves, self.size);
        MoveSequence {
            symmetry: self.symmetry.then(turned.symmetry),
            ..turned
        }
    }

    /// Where two games differ by one move: the index (from 0) of the only
    /// move in which they differ, the rest of the shorter being the longer's
    /// moves. `None` when they are equal, one begins the other, or they
    /// differ in their board, setup or more than one move.
    ///
    /// ```
    /// use sgf_grove::game::signature::MoveSequence;
    /// let a = sgf_grove::parse(b"(;B[pd];W[dp];B[pp];W[dd];B[fc])")?;
    /// let b = sgf_grove::parse(b"(;B[pd];W[dp];B[pq];W[dd];B[fc])")?;
    /// let a = MoveSequence::of(a.games().next().unwrap());
    /// let b = MoveSequence::of(b.games().next().unwrap());
    /// assert_eq!(a.one_move_apart(&b), Some(2));
    /// assert_eq!(a.one_move_apart(&a), None);
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    pub fn one_move_apart(&self, other: &MoveSequence) -> Option<usize> {
        if self.size != other.size || self.setup != other.setup {
            return None;
        }
        let mut apart = self
            .moves
            .iter()
            .zip(&other.moves)
            .enumerate()
            .filter(|(_, (a, b))| a != b);
        let (first, _) = apart.next()?;
        apart.next().is_none().then_some(first)
    }
}

/// Pairs of games that differ by one move ([`MoveSequence::one_move_apart`]),
/// each with the index of that move, among games of at least `min_moves`
/// moves: a copy with a mistyped move. Each game is compared with its
/// nearest neighbours in the order of the moves from the first (which
/// finds a difference late in the game) and from the last (one early in
/// games of equal length), so the cost is that of two sorts; a pair
/// separated in both orders by other games sharing as much is not found.
/// Pairs come as `(a, b, move)` with `a < b`, sorted.
pub fn near_copies(games: &[MoveSequence], min_moves: usize) -> Vec<(usize, usize, usize)> {
    /// Neighbours compared on each side.
    const WINDOW: usize = 3;
    let mut order: Vec<usize> = (0..games.len())
        .filter(|&i| games[i].moves.len() >= min_moves.max(1))
        .collect();
    let key = |g: &MoveSequence| (g.size.cols, g.size.rows);
    let mut pairs = Vec::new();
    let look = |order: &[usize], pairs: &mut Vec<(usize, usize, usize)>| {
        for (k, &a) in order.iter().enumerate() {
            for &b in order.iter().skip(k + 1).take(WINDOW) {
                if let Some(at) = games[a].one_move_apart(&games[b]) {
                    pairs.push((a.min(b), a.max(b), at));
                }
            }
        }
    };
    order.sort_by(|&a, &b| {
        let (x, y) = (&games[a], &games[b]);
        (key(x), &x.setup, &x.moves, a).cmp(&(key(y), &y.setup, &y.moves, b))
    });
    look(&order, &mut pairs);
    order.sort_by(|&a, &b| {
        let (x, y) = (&games[a], &games[b]);
        (
            key(x),
            &x.setup,
            x.moves.iter().rev().collect::<Vec<_>>(),
            a,
        )
            .cmp(&(
                key(y),
                &y.setup,
                y.moves.iter().rev().collect::<Vec<_>>(),
                b,
            ))
    });
    look(&order, &mut pairs);
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// Equal games join a cluster only from this many moves on.
pub const MIN_EQUAL: usize = 10;

/// A cluster of copies of one game, from [`cluster`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cluster {
    /// The members, as indexes into the slice given to [`cluster`], in
    /// that slice's order.
    pub members: Vec<usize>,
    /// The member with the most information (by the scores given), the
    /// first of them on a tie.
    pub best: usize,
}

/// Groups copies of the same game: games whose canonical sequences (root
/// setup and moves) are equal and have at least [`MIN_EQUAL`] moves (a
/// few moves, from the empty board or a handicap, are common to many
/// games), or one of which begins the other (a truncated copy joins the
/// full game) when the shorter has at least `min_prefix` moves. A prefix
/// that begins two different games joins the first of them in sorted
/// order. `scores[i]` is how much information game `i` carries (for
/// [`Cluster::best`]). Returns the clusters of two or more games, ordered
/// by their first member.
///
/// # Panics
///
/// When `scores` and `games` differ in length.
pub fn cluster(games: &[MoveSequence], scores: &[u64], min_prefix: usize) -> Vec<Cluster> {
    assert_eq!(games.len(), scores.len(), "one score per game");
    let mut order: Vec<usize> = (0..games.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&games[a], &games[b]);
        (x.size.cols, x.size.rows, &x.setup, &x.moves, a).cmp(&(
            y.size.cols,
            y.size.rows,
            &y.setup,
            &y.moves,
            b,
        ))
    });
    let mut clusters: Vec<Vec<usize>> = Vec::new();
    // The longest sequence of the current cluster.
    let mut head: Option<usize> = None;
    for &i in &order {
        let joins = head.is_some_and(|h| {
            let (short, long) = (&games[h], &games[i]);
            let n = short.moves.len();
            short.is_prefix_of(long)
                && n >= if n == long.moves.len() {
                    MIN_EQUAL
                } else {
                    min_prefix
                }
        });
        if joins {
            clusters.last_mut().expect("a head has a cluster").push(i);
        } else {
            clusters.push(vec![i]);
        }
        head = Some(i);
    }
    let mut out: Vec<Cluster> = clusters
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|mut members| {
            members.sort_unstable();
            let best = *members
                .iter()
                .max_by(|&&a, &&b| scores[a].cmp(&scores[b]).then(b.cmp(&a)))
                .expect("two or more members");
            Cluster { members, best }
        })
        .collect();
    out.sort_by_key(|c| c.members[0]);
    out
}

/// The Dyer signature of a game: the points of its main line's moves 20,
/// 40, 60, 31, 51 and 71, in that order, as SGF letters (`tt` for a pass,
/// `??` for a move the game does not have), as game databases store it.
pub fn dyer<'g>(game: impl ReadGame<'g>) -> String {
    let moves: Vec<SeqMove> = moves(game)
        .map(|m| match m {
            Ok((c, Move::Play(p))) => (c, Some(p)),
            Ok((c, Move::Pass)) => (c, None),
            Err(_) => (Color::Black, Some(Point { x: 60, y: 60 })),
        })
        .collect();
    dyer_of(&moves, game.board_size(), Symmetry::Identity)
}

/// The smallest [`dyer`] signature over the symmetries that keep the
/// board's shape: the same for a game and its rotated or reflected copy.
pub fn dyer_symmetric<'g>(game: impl ReadGame<'g>) -> String {
    let moves = main_line(game);
    let size = game.board_size();
    Symmetry::ALL
        .into_iter()
        .filter(|s| s.board_size(size) == size)
        .map(|s| dyer_of(&moves, size, s))
        .min()
        .unwrap_or_default()
}

/// The main line's moves (values that are no move of the board left out).
fn main_line<'g>(game: impl ReadGame<'g>) -> Vec<SeqMove> {
    moves(game)
        .filter_map(Result::ok)
        .map(|(c, m)| match m {
            Move::Play(p) => (c, Some(p)),
            Move::Pass => (c, None),
        })
        .collect()
}

/// The moves of the main line, in order (what [`ReadNode::played`] gives
/// for each node with a move).
fn moves<'g, G: ReadGame<'g>>(game: G) -> impl Iterator<Item = Result<(Color, Move)>> + use<'g, G> {
    game.root()
        .main_line()
        .filter_map(|node| node.played().transpose())
}

fn dyer_of(moves: &[SeqMove], size: BoardSize, s: Symmetry) -> String {
    let mut out = String::with_capacity(12);
    for n in [20, 40, 60, 31, 51, 71] {
        match moves.get(n - 1) {
            Some((_, Some(p))) if size.contains(*p) => out.push_str(&s.apply(*p, size).to_string()),
            Some((_, None)) => out.push_str("tt"),
            _ => out.push_str("??"),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seq(text: &[u8]) -> MoveSequence {
        let doc = crate::parse(text).unwrap();
        let game = doc.games().next().unwrap();
        MoveSequence::of(game)
    }

    #[test]
    fn copies_cluster_and_others_do_not() {
        let games = [
            seq(b"(;B[pd];W[dp];B[pp];W[dd];B[fq])"),
            seq(b"(;B[dd];W[pp];B[pd];W[cq];B[ep])"), // another game
            seq(b"(;B[dp];W[pd];B[dd];W[pp])"),       // game 0 turned, one move short
            seq(b"(;B[qq])"),
            seq(b"(;B[cc])"),
        ];
        let scores = [5, 5, 4, 1, 1];
        let found = cluster(&games, &scores, 3);
        assert!(found
            .iter()
            .any(|c| c.members.contains(&0) && c.members.contains(&2)));
        // One move each, the same up to a half turn: too short to tell.
        assert!(found.iter().all(|c| !c.members.contains(&3)), "{found:?}");
        assert!(found.iter().all(|c| !c.members.contains(&1)), "{found:?}");
        let with0 = found.iter().find(|c| c.members.contains(&0)).unwrap();
        assert_eq!(with0.best, 0, "the longer copy has more");
        // Too short a prefix joins nothing.
        let found = cluster(&games, &scores, 10);
        assert!(found.iter().all(|c| !c.members.contains(&2)), "{found:?}");
    }

    #[test]
    fn setups_tell_positions_apart() {
        let moves = ";B[dd];W[ed];B[de];W[ee];B[fd];W[df];B[ff];W[gd];B[dg];W[gg]";
        let mirror = ";B[pd];W[od];B[pe];W[oe];B[nd];W[pf];B[nf];W[md];B[pg];W[mg]";
        let a = seq(format!("(;AB[cc]AW[dc]{moves})").as_bytes());
        let b = seq(format!("(;AB[qc]AW[pc]{mirror})").as_bytes()); // a mirror image
        let c = seq(format!("(;AB[cc]AW[ee]{moves})").as_bytes()); // another position
        assert_eq!(a.setup, b.setup);
        let found = cluster(&[a, b, c], &[1, 1, 1], 20);
        assert_eq!(
            found,
            [Cluster {
                members: vec![0, 1],
                best: 0
            }]
        );
    }

    #[test]
    fn dyer_takes_moves_20_40_60_31_51_71() {
        let mut sgf = b"(;SZ[19]".to_vec();
        for n in 1..=71u8 {
            let color = if n % 2 == 1 { "B" } else { "W" };
            let x = (b'a' + n % 19) as char;
            let y = (b'a' + n / 19) as char;
            sgf.extend_from_slice(format!(";{color}[{x}{y}]").as_bytes());
        }
        sgf.push(b')');
        let doc = crate::parse(&sgf).unwrap();
        let game = doc.games().next().unwrap();
        let expect: String = [20u8, 40, 60, 31, 51, 71]
            .iter()
            .map(|&n| format!("{}{}", (b'a' + n % 19) as char, (b'a' + n / 19) as char))
            .collect();
        assert_eq!(dyer(game), expect);
        assert_eq!(dyer_symmetric(game).len(), 12);
        assert!(dyer_symmetric(game) <= dyer(game));
    }

    #[test]
    fn a_mistyped_move_is_found_early_or_late() {
        let line = |moves: &[&str]| {
            let mut text = String::from("(;SZ[19]");
            for (i, m) in moves.iter().enumerate() {
                text.push_str(&format!(";{}[{m}]", if i % 2 == 0 { "B" } else { "W" }));
            }
            text.push(')');
            seq(text.as_bytes())
        };
        let base: Vec<String> = (0..30)
            .map(|i| format!("{}{}", (b'a' + i % 19) as char, (b'c' + i / 19) as char))
            .collect();
        let base: Vec<&str> = base.iter().map(String::as_str).collect();
        let mut early = base.clone();
        early[3] = "ss";
        let mut late = base.clone();
        late[27] = "ss";
        let mut two = base.clone();
        two[5] = "ss";
        two[20] = "sr";
        let games = [
            line(&base),
            line(&early),
            line(&late),
            line(&two),
            line(&base[..25]),
        ];
        let found = near_copies(&games, 20);
        let ats: Vec<(usize, usize)> = found.iter().map(|&(a, b, _)| (a, b)).collect();
        assert!(ats.contains(&(0, 1)), "{found:?}");
        assert!(ats.contains(&(0, 2)), "{found:?}");
        assert!(
            !ats.iter()
                .any(|&(a, b)| a == 3 && b == 0 || a == 0 && b == 3),
            "{found:?}"
        );
        // A prefix is a copy, not a mistyped one.
        assert!(!ats.contains(&(0, 4)), "{found:?}");
        // Too short to say.
        assert!(near_copies(&games, 31).is_empty());
    }

    #[test]
    fn swapped_colours_meet_the_original() {
        let a = seq(b"(;AB[dd]AW[pp];B[pd];W[dp];B[qq])");
        let b = seq(b"(;AW[dd]AB[pp];W[pd];B[dp];W[qq])");
        let s = b.swapped_colors();
        assert_eq!((&a.setup, &a.moves), (&s.setup, &s.moves));
        assert_eq!(s.swapped_colors().moves, b.moves);
    }
}
