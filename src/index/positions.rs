//! The rows of one game: every position of its main line (or of every
//! line), each with its canonical hash, the symmetry that turns the game's
//! position into the canonical one, the moves played to reach it and the
//! move played next (in the canonical orientation).
//!
//! A *position node* is the root, a node with a move, or a node with setup
//! (`AB`, `AW`, `AE`); other nodes (comments, `PL` alone) leave the stones
//! as they are and belong to the position before them. A position's
//! continuations are the first position nodes below it, one row each (a
//! leaf gives one row with no next move). The 8 symmetric hashes are kept
//! up to date node by node from the stones each node put on or took off
//! (one stone's 8 keys each), so a node costs what it changed, never the
//! board's area.

use super::games::GameMeta;
use super::moves::GameOps;
use super::record::{Record, Winner};
use crate::game::{GameResult, LimitExceeded, ReplayError, ReplayOptions, Symmetry, TreeCursor};
use crate::tree::{GameTree, Node};
use crate::value::{Color, Move};

/// One game ready to be added to an index: what the games table keeps of
/// it, and its position rows. Built on any thread ([`GameEntry::new`]),
/// added in order by [`IndexBuilder::push`](super::IndexBuilder::push).
#[derive(Clone, Debug)]
pub struct GameEntry {
    pub(crate) meta: GameMeta,
    /// Rows with game id 0, winner set.
    pub(crate) records: Vec<Record>,
    /// The game's lines for the moves file ([`super::moves`]).
    pub(crate) moves: Vec<u8>,
}

impl GameEntry {
    /// Replays `game` and collects its positions: those of the main line,
    /// or with `variations` of every line. `origin` names where the game
    /// is (a path, `archive!member`), `index` is its number among the
    /// games of that file; together they identify it in the index.
    ///
    /// Illegal moves are played as [`GameTree::cursor`] plays them (never
    /// fatal). No replay limit applies ([`ReplayOptions::unlimited`]): the
    /// time and memory grow linearly with the game; to bound them use
    /// [`GameEntry::with_options`].
    pub fn new(game: GameTree<'_, '_>, origin: &str, index: usize, variations: bool) -> GameEntry {
        let options = ReplayOptions::default().unlimited();
        match Self::with_options(game, origin, index, variations, options) {
            Ok(entry) => entry,
            // Unreachable without limits; an entry with no rows is what an
            // unreadable game gives.
            Err(_) => {
                let size = game.board_size();
                let moves = GameOps::new(size).encode(Winner::Unknown, false, size, 0);
                Self::build(game, origin, index, Vec::new(), 0, moves)
            }
        }
    }

    /// As [`GameEntry::new`], replayed with `options` (its rules and
    /// limits; a replay for the index is never strict).
    ///
    /// ```
    /// use sgf_grove::game::{Limit, ReplayOptions};
    /// use sgf_grove::index::GameEntry;
    /// let doc = sgf_grove::parse(b"(;SZ[9];B[aa];W[bb];B[cc])")?;
    /// let game = doc.games().next().unwrap();
    /// let options = ReplayOptions::default().max_depth(3);
    /// let skipped = GameEntry::with_options(game, "a.sgf", 0, false, options).unwrap_err();
    /// assert_eq!(skipped.limit, Limit::Depth);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The limit the replay reached: the game gives no entry.
    pub fn with_options(
        game: GameTree<'_, '_>,
        origin: &str,
        index: usize,
        variations: bool,
        options: ReplayOptions,
    ) -> Result<GameEntry, LimitExceeded> {
        let info = game.game_info();
        let winner = match info.result() {
            Some(GameResult::Win { winner, .. }) => match winner {
                Color::Black => Winner::Black,
                Color::White => Winner::White,
            },
            Some(GameResult::Draw) => Winner::Draw,
            _ => Winner::Unknown,
        };
        let mut records = Vec::new();
        let mut ops = GameOps::new(game.board_size());
        let (moves, root_moves) = walk(game, options, variations, winner, &mut records, &mut ops)?;
        let stored = ops.encode(winner, variations, game.board_size(), root_moves);
        Ok(Self::build(game, origin, index, records, moves, stored))
    }

    fn build(
        game: GameTree<'_, '_>,
        origin: &str,
        index: usize,
        records: Vec<Record>,
        moves: usize,
        stored: Vec<u8>,
    ) -> GameEntry {
        let info = game.game_info();
        let text = |s: Option<&str>| s.unwrap_or("").to_owned();
        let meta = GameMeta {
            origin: origin.to_owned(),
            index: u32::try_from(index).unwrap_or(u32::MAX),
            black: text(info.black().name),
            white: text(info.white().name),
            date: text(info.get("DT")),
            result: text(info.get("RE")),
            size: game.board_size(),
            moves: u32::try_from(moves).unwrap_or(u32::MAX),
        };
        GameEntry {
            meta,
            records,
            moves: stored,
        }
    }

    /// What the games table will keep of the game.
    pub fn meta(&self) -> &GameMeta {
        &self.meta
    }

    /// How many position rows the game gives.
    pub fn rows(&self) -> usize {
        self.records.len()
    }

    /// The rows' (hash, moves, packed next move), for the bench that
    /// writes the same rows to another store. Not API.
    #[doc(hidden)]
    pub fn row_keys(&self) -> impl Iterator<Item = (u64, u16, u16)> + '_ {
        self.records.iter().map(|r| (r.hash, r.moves, r.next))
    }
}

/// Whether a node changes the stones by more than its move would.
fn has_setup(node: Node<'_, '_>) -> bool {
    node.has("AB") || node.has("AW") || node.has("AE")
}

/// The move of a node, if it has a readable one.
fn move_of(node: Node<'_, '_>) -> Option<(Color, Move)> {
    node.played().ok().flatten()
}

fn is_position_node(node: Node<'_, '_>) -> bool {
    has_setup(node) || matches!(node.played(), Ok(Some(_)) | Err(_))
}

/// The canonical hash and its symmetry (the first of the smallest, in the
/// order of [`Symmetry::ALL`], as [`Board::canonical_hash`]).
pub(crate) fn canonical(hashes: &[u64; 8]) -> (u64, Symmetry) {
    let mut best = (hashes[0], Symmetry::Identity);
    for (&h, s) in hashes.iter().zip(Symmetry::ALL).skip(1) {
        if h < best.0 {
            best = (h, s);
        }
    }
    best
}

/// One position met on the walk.
struct Pos {
    hash: u64,
    symmetry: Symmetry,
    moves: usize,
    board: crate::value::BoardSize,
    /// Whether a row with a next move was written for it.
    continued: bool,
}

/// A stone put on or taken off: point, before, after.
type Change = (crate::value::Point, Option<Color>, Option<Color>);

/// Enters `child` and brings `hashes` up to date from the stones the node
/// put on or took off (one stone's 8 keys each); writes its ops to `ops`.
fn enter<'t, 'src>(
    cursor: &mut TreeCursor<'t, 'src>,
    child: Node<'t, 'src>,
    hashes: &mut [u64; 8],
    ops: &mut GameOps,
    changes: &mut Vec<Change>,
) -> Result<(), LimitExceeded> {
    let before = cursor.moves();
    match cursor.enter(child) {
        Ok(()) => {}
        Err(ReplayError::Limit(e)) => return Err(e),
        // A lenient cursor reports illegal moves instead.
        Err(_) => return Ok(()),
    }
    let board = cursor.board();
    changes.clear();
    cursor.node_changes(|p, old, new| {
        changes.push((p, old, new));
        for color in [old, new].into_iter().flatten() {
            for (h, k) in hashes.iter_mut().zip(board.symmetric_stone_keys(p, color)) {
                *h ^= k;
            }
        }
    });
    if is_position_node(child) {
        let shown = if has_setup(child) {
            None
        } else {
            move_of(child)
        };
        let counted = cursor.moves().saturating_sub(before);
        ops.node(shown, counted, changes, board.size());
    } else {
        for &(p, _, new) in changes.iter() {
            ops.set(p, new);
        }
    }
    Ok(())
}

/// Writes a row for position `pos` with `next` (in the game's orientation).
fn row(pos: &mut Pos, next: Option<(Color, Move)>, winner: Winner, out: &mut Vec<Record>) {
    let next = next.map(|(c, m)| match m {
        Move::Play(p) if pos.board.contains(p) => (c, Move::Play(pos.symmetry.apply(p, pos.board))),
        // A point off the board is no move to show.
        Move::Play(_) => (c, Move::Play(crate::value::Point { x: 255, y: 255 })),
        Move::Pass => (c, Move::Pass),
    });
    if next.is_some() {
        pos.continued = true;
    }
    out.push(Record::new(
        pos.hash,
        0,
        winner,
        pos.moves,
        pos.symmetry,
        next,
    ));
}

/// Walks the game, writing rows to `out` and its lines to `ops`; returns
/// the main line's moves and the moves played at the root.
fn walk(
    game: GameTree<'_, '_>,
    options: ReplayOptions,
    variations: bool,
    winner: Winner,
    out: &mut Vec<Record>,
    ops: &mut GameOps,
) -> Result<(usize, usize), LimitExceeded> {
    let mut cursor = match game.cursor_with(options.strict(false)) {
        Ok(cursor) => cursor,
        Err(ReplayError::Limit(e)) => return Err(e),
        Err(_) => game.cursor(),
    };
    let size = game.board_size();
    let mut hashes = cursor.board().symmetric_hashes();
    let root_moves = cursor.moves();
    for color in [Color::Black, Color::White] {
        for p in cursor.board().stones(color) {
            ops.set(p, Some(color));
        }
    }
    let mut changes = Vec::new();
    let mut positions: Vec<Pos> = Vec::new();
    let new_pos = |hashes: &[u64; 8], cursor: &TreeCursor<'_, '_>| {
        let (hash, symmetry) = canonical(hashes);
        Pos {
            hash,
            symmetry,
            moves: cursor.moves(),
            board: size,
            continued: false,
        }
    };
    positions.push(new_pos(&hashes, &cursor));
    let mut main_moves = 0;
    if !variations {
        let mut at = 0;
        while let Some(child) = cursor.node().first_child() {
            enter(&mut cursor, child, &mut hashes, ops, &mut changes)?;
            if is_position_node(child) {
                let next = if has_setup(child) {
                    None
                } else {
                    move_of(child)
                };
                if next.is_some() {
                    row(&mut positions[at], next, winner, out);
                }
                positions.push(new_pos(&hashes, &cursor));
                at = positions.len() - 1;
            }
        }
        main_moves = cursor.moves();
    } else {
        // Depth first; each frame: the node entered, the position it
        // belongs to, the hashes after it, its next child to visit.
        struct Frame {
            pos: usize,
            hashes: [u64; 8],
            child: usize,
            /// Whether its node was entered as a variation (ops between
            /// a start and an end).
            grouped: bool,
        }
        let mut stack = vec![Frame {
            pos: 0,
            hashes,
            child: 0,
            grouped: false,
        }];
        let mut on_main = true;
        while let Some(top) = stack.last_mut() {
            let node = cursor.node();
            let Some(child) = node.children().nth(top.child) else {
                if on_main {
                    main_moves = cursor.moves();
                    on_main = false;
                }
                if stack.pop().is_some_and(|f| f.grouped) {
                    ops.pop();
                }
                cursor.back();
                continue;
            };
            if top.child > 0 {
                on_main = false;
            }
            top.child += 1;
            let grouped = node.children().nth(top.child).is_some();
            let (at, mut h) = (top.pos, top.hashes);
            if grouped {
                ops.push();
            }
            enter(&mut cursor, child, &mut h, ops, &mut changes)?;
            let pos = if is_position_node(child) {
                let next = if has_setup(child) {
                    None
                } else {
                    move_of(child)
                };
                if next.is_some() {
                    row(&mut positions[at], next, winner, out);
                }
                positions.push(new_pos(&h, &cursor));
                positions.len() - 1
            } else {
                at
            };
            stack.push(Frame {
                pos,
                hashes: h,
                child: 0,
                grouped,
            });
        }
    }
    for pos in &mut positions {
        if !pos.continued {
            row(pos, None, winner, out);
        }
    }
    // One row per distinct continuation of a position.
    out.sort_unstable();
    out.dedup();
    Ok((main_moves, root_moves))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// The hashes of the rows of `text`'s games, and those of every
    /// position of the same lines computed from all the stones at each
    /// node.
    fn compare(text: &[u8]) {
        let Ok(doc) = crate::parse(text) else { return };
        for game in doc.games() {
            for variations in [false, true] {
                let entry = GameEntry::new(game, "x", 0, variations);
                let rows: BTreeSet<(u64, u16)> =
                    entry.records.iter().map(|r| (r.hash, r.moves)).collect();
                let nodes: Vec<Node<'_, '_>> = if variations {
                    game.root().descendants().collect()
                } else {
                    game.root().main_line().collect()
                };
                let mut expect = BTreeSet::new();
                for node in nodes {
                    if node != game.root() && !is_position_node(node) {
                        continue;
                    }
                    let cursor = game.position_at(node, Default::default()).unwrap();
                    let (hash, _) = canonical(&cursor.board().symmetric_hashes());
                    expect.insert((hash, cursor.moves() as u16));
                }
                assert_eq!(
                    rows,
                    expect,
                    "variations {variations}: {}",
                    String::from_utf8_lossy(text)
                );
            }
        }
    }

    #[test]
    fn incremental_hashes_match_full_ones() {
        // Captures, a suicide played as setup, setup after moves, a pass,
        // an occupied point, a node without a move, variations.
        compare(b"(;SZ[5];B[bb];W[ab];B[ca];W[ba];B[ac];W[aa];B[ab]C[x];W[tt];AE[bb]AB[ee];W[bb](;B[cc])(;B[dd];W[dd]))");
        compare(
            b"(;SZ[9:7]AB[aa][bb]AW[cc]PL[W];W[ab];B[ba];W[da]C[c];;B[ca](;W[ac])(;W[bc];B[ad]))",
        );
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "sgf") {
                compare(&std::fs::read(&path).unwrap());
            }
        }
    }
}
