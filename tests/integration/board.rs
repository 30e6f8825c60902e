//! The board and replay (`sgf_grove::game::board`, `game::replay`): the
//! rules on hand-made positions, and every Go game of `../shared/corpus`
//! replayed beside a second, deliberately simple implementation (flood
//! fill for liberties) written here.

use crate::corpus_pass::{Check, Corpus, File};
use sgf_grove::game::board::{Board, Illegal, KoRule, RuleSet};
use sgf_grove::game::{ReplayError, ReplayOptions};
use sgf_grove::value::{BoardSize, Color, Move, Point};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

fn p(x: u8, y: u8) -> Point {
    Point { x, y }
}

/// Plays the moves, panicking on an illegal one.
fn play_all(board: &mut Board, moves: &[(Color, Point)]) {
    for &(c, at) in moves {
        board
            .play(c, at)
            .unwrap_or_else(|e| panic!("{c:?} {at}: {e}\n{board:?}"));
    }
}

use Color::{Black as B, White as W};

#[test]
fn captures_of_several_groups_at_once() {
    let mut b = Board::new(BoardSize::square(9), RuleSet::JAPANESE);
    // Two white stones, each in atari, sharing their liberty (0, 0).
    play_all(
        &mut b,
        &[
            (W, p(1, 0)),
            (W, p(0, 1)),
            (B, p(2, 0)),
            (B, p(0, 2)),
            (B, p(1, 1)),
        ],
    );
    assert_eq!(b.get(p(1, 0)), Some(W));
    let played = b.play(B, p(0, 0)).unwrap();
    assert_eq!(played.captured, 2);
    assert_eq!(b.get(p(1, 0)), None);
    assert_eq!(b.get(p(0, 1)), None);
    assert_eq!(b.captures(B), 2);
    assert_eq!(b.ko(), None, "two stones taken: no ko");
}

#[test]
fn snapback() {
    // White: (2,0) (0,1) (1,1) (2,1), liberties (0,0) and (1,0), walled in
    // by black. Black throws in at (1,0); white takes that stone at (0,0),
    // which leaves white's five stones one liberty, (1,0): black takes
    // them back. White's capture is no ko (its stone joins a chain).
    let mut b = Board::new(BoardSize::square(5), RuleSet::JAPANESE);
    let wall = [p(3, 0), p(3, 1), p(0, 2), p(1, 2), p(2, 2), p(3, 2)];
    play_all(&mut b, &wall.map(|at| (B, at)));
    play_all(
        &mut b,
        &[(W, p(2, 0)), (W, p(0, 1)), (W, p(1, 1)), (W, p(2, 1))],
    );
    assert_eq!(b.play(B, p(1, 0)).unwrap().captured, 0);
    assert_eq!(b.play(W, p(0, 0)).unwrap().captured, 1);
    assert_eq!(b.ko(), None);
    assert_eq!(b.play(B, p(1, 0)).unwrap().captured, 5);
    assert_eq!(b.stones(W).count(), 0);
    assert_eq!((b.captures(B), b.captures(W)), (5, 1));
}

#[test]
fn basic_ko_forbids_the_immediate_retake_only() {
    let mut b = Board::new(BoardSize::square(5), RuleSet::JAPANESE);
    // A ko at (1, 1)/(2, 1).
    play_all(
        &mut b,
        &[
            (B, p(1, 0)),
            (B, p(0, 1)),
            (B, p(1, 2)),
            (W, p(2, 0)),
            (W, p(3, 1)),
            (W, p(2, 2)),
            (W, p(1, 1)),
        ],
    );
    assert_eq!(b.play(B, p(2, 1)).unwrap().captured, 1);
    assert_eq!(b.ko(), Some(p(1, 1)));
    assert_eq!(b.play(W, p(1, 1)), Err(Illegal::Ko));
    // The board is unchanged by the refused move.
    assert_eq!(b.get(p(1, 1)), None);
    // A move elsewhere, then the retake is fine.
    b.play(W, p(4, 4)).unwrap();
    b.play(B, p(4, 3)).unwrap();
    assert_eq!(b.play(W, p(1, 1)).unwrap().captured, 1);
    // A pass clears the ko too.
    assert_eq!(b.ko(), Some(p(2, 1)));
    b.pass(B);
    assert_eq!(b.ko(), None);
}

#[test]
fn suicide_under_each_rule() {
    // A white move into black's one-point eye in the corner.
    let setup = |rules| {
        let mut b = Board::new(BoardSize::square(5), rules);
        play_all(&mut b, &[(B, p(1, 0)), (B, p(0, 1))]);
        b
    };
    let mut japanese = setup(RuleSet::JAPANESE);
    assert_eq!(japanese.play(W, p(0, 0)), Err(Illegal::Suicide));
    assert_eq!(japanese.get(p(0, 0)), None);
    let mut nz = setup(RuleSet::NEW_ZEALAND);
    let played = nz.play(W, p(0, 0)).unwrap();
    assert_eq!(played.suicided, 1);
    assert_eq!(nz.get(p(0, 0)), None);
    assert_eq!(nz.captures(B), 1, "the suicided stone is black's prisoner");
    // Suicide of two stones: allowed under New Zealand rules (black moves
    // next, a situation not seen before); under Tromp–Taylor the stones
    // would repeat the position before white's first stone: superko.
    let two = |rules| {
        let mut b = Board::new(BoardSize::square(5), rules);
        play_all(
            &mut b,
            &[(B, p(2, 0)), (B, p(0, 1)), (B, p(1, 1)), (W, p(0, 0))],
        );
        b
    };
    let mut nz = two(RuleSet::NEW_ZEALAND);
    assert_eq!(nz.play(W, p(1, 0)).unwrap().suicided, 2);
    assert_eq!(nz.stones(W).count(), 0);
    let mut tt = two(RuleSet::TROMP_TAYLOR);
    assert_eq!(tt.play(W, p(1, 0)), Err(Illegal::Superko));
    assert_eq!(tt.stones(W).count(), 1);
}

#[test]
fn superko_cycles() {
    // A ko taken, then both players pass: passes change no stone, so
    // retaking repeats the position before the capture.
    let ko_shape = |rules| {
        let mut b = Board::new(BoardSize::square(5), rules);
        play_all(
            &mut b,
            &[
                (B, p(1, 0)),
                (B, p(0, 1)),
                (B, p(1, 2)),
                (W, p(2, 0)),
                (W, p(3, 1)),
                (W, p(2, 2)),
                (W, p(1, 1)),
            ],
        );
        b.play(B, p(2, 1)).unwrap();
        b
    };
    // Positional superko: the retake recreates the position before black's
    // capture: refused (as Ko, which the basic rule already catches).
    let mut b = ko_shape(RuleSet::CHINESE);
    assert!(b.play(W, p(1, 1)).is_err());
    // After two passes (Japanese would allow the retake) positional
    // superko still refuses: the stones would repeat.
    b.pass(W);
    b.pass(B);
    assert_eq!(b.play(W, p(1, 1)), Err(Illegal::Superko));
    let mut j = ko_shape(RuleSet::JAPANESE);
    j.pass(W);
    j.pass(B);
    assert!(j.play(W, p(1, 1)).is_ok(), "basic ko: fine after passes");
    // No repetition rule at all.
    let mut none = ko_shape(RuleSet {
        ko: KoRule::None,
        suicide: false,
    });
    assert!(none.play(W, p(1, 1)).is_ok());
}

#[test]
fn setup_after_moves_and_large_boards() {
    let mut b = Board::new(BoardSize::square(52), RuleSet::JAPANESE);
    for at in [p(0, 0), p(51, 0), p(0, 51), p(51, 51)] {
        b.play(B, at).unwrap();
    }
    assert_eq!(b.play(B, p(52, 0)), Err(Illegal::OffBoard));
    // Corner stone captured by two white stones.
    play_all(&mut b, &[(W, p(50, 51)), (W, p(51, 50))]);
    assert_eq!(b.get(p(51, 51)), None);
    // Setup removes a stone from the middle of a chain and splits it.
    let mut s = Board::new(BoardSize { cols: 7, rows: 3 }, RuleSet::JAPANESE);
    for x in 0..5 {
        s.set(p(x, 1), Some(B));
    }
    s.set(p(2, 1), None);
    // The two halves are separate chains: surround the left one.
    play_all(
        &mut s,
        &[(W, p(0, 0)), (W, p(1, 0)), (W, p(0, 2)), (W, p(1, 2))],
    );
    assert_eq!(s.play(W, p(2, 1)).unwrap().captured, 2);
    assert_eq!(s.get(p(3, 1)), Some(B));
    // Hashes: the same stones give the same hash, whatever the order.
    let mut a = Board::new(BoardSize::square(9), RuleSet::JAPANESE);
    let mut c = Board::new(BoardSize::square(9), RuleSet::JAPANESE);
    play_all(&mut a, &[(B, p(2, 2)), (W, p(6, 6))]);
    c.set(p(6, 6), Some(W));
    c.set(p(2, 2), Some(B));
    assert_eq!(a.hash(), c.hash());
    assert_ne!(a.hash_with(B), a.hash_with(W));
}

#[test]
fn replay_reports_illegal_moves_and_goes_back() {
    let input = b"(;SZ[5]RU[Japanese]AB[aa]AW[ba];B[ba];W[cc];B[zz];W[])";
    let doc = sgf_grove::parse(input).unwrap();
    let game = doc.games().next().unwrap();
    let mut cursor = game.cursor();
    while cursor.next().is_some() {}
    let illegal = cursor.illegal();
    assert_eq!(illegal.len(), 2, "{illegal:?}");
    assert_eq!(illegal[0].reason, Illegal::Occupied);
    assert_eq!(illegal[0].move_number, 1);
    assert_eq!(illegal[0].position.unwrap().line, 1);
    assert_eq!(illegal[0].position.unwrap().column, 32);
    // Applied as setup: the black stone replaced the white one.
    assert_eq!(cursor.board().get(p(1, 0)), Some(B));
    assert_eq!(illegal[1].reason, Illegal::OffBoard);
    assert_eq!(illegal[1].point, None);
    assert_eq!(cursor.moves(), 4);
    // Strict: the first illegal move is an error.
    let strict = game
        .position_at(cursor.node(), ReplayOptions::default().strict(true))
        .unwrap_err();
    let ReplayError::Illegal(strict) = strict else {
        panic!("{strict:?}")
    };
    assert_eq!(strict.reason, Illegal::Occupied);
    // Back to the root, one node at a time.
    let mut steps = 0;
    while cursor.back() {
        steps += 1;
    }
    assert_eq!(steps, 4);
    assert_eq!(cursor.board().get(p(1, 0)), Some(W));
    assert!(cursor.illegal().is_empty());
}

/// The second implementation: a plain grid, liberties by flood fill.
struct Simple {
    cols: usize,
    rows: usize,
    cells: Vec<Option<Color>>,
}

impl Simple {
    fn new(size: BoardSize) -> Simple {
        let (cols, rows) = (size.cols as usize, size.rows as usize);
        Simple {
            cols,
            rows,
            cells: vec![None; cols * rows],
        }
    }

    fn neighbours(&self, i: usize) -> Vec<usize> {
        let (x, y) = (i % self.cols, i / self.cols);
        let mut out = Vec::with_capacity(4);
        if x > 0 {
            out.push(i - 1);
        }
        if x + 1 < self.cols {
            out.push(i + 1);
        }
        if y > 0 {
            out.push(i - self.cols);
        }
        if y + 1 < self.rows {
            out.push(i + self.cols);
        }
        out
    }

    /// The chain through `i` and whether it has a liberty.
    fn chain(&self, i: usize) -> (Vec<usize>, bool) {
        let color = self.cells[i];
        let mut seen = vec![false; self.cells.len()];
        let mut stack = vec![i];
        let mut chain = Vec::new();
        let mut free = false;
        seen[i] = true;
        while let Some(s) = stack.pop() {
            chain.push(s);
            for n in self.neighbours(s) {
                if self.cells[n].is_none() {
                    free = true;
                } else if self.cells[n] == color && !seen[n] {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        (chain, free)
    }

    /// Plays with captures and suicide, no repetition rule; an occupied
    /// point is overwritten (as setup).
    fn play(&mut self, color: Color, at: Point) {
        let i = at.y as usize * self.cols + at.x as usize;
        if self.cells[i].is_some() {
            self.cells[i] = Some(color);
            return;
        }
        self.cells[i] = Some(color);
        for n in self.neighbours(i) {
            if self.cells[n] == Some(color.opponent()) {
                let (chain, free) = self.chain(n);
                if !free {
                    for s in chain {
                        self.cells[s] = None;
                    }
                }
            }
        }
        let (chain, free) = self.chain(i);
        if !free {
            for s in chain {
                self.cells[s] = None;
            }
        }
    }
}

/// Every Go game of the corpus: its main line replayed by the board
/// (no repetition rule, suicide allowed: the capture machinery alone) and
/// by [`Simple`], the positions compared after every move. A check of the
/// one pass over the corpus (`corpus_pass.rs`).
#[derive(Default)]
pub struct MainLines(Mutex<(usize, usize)>);

impl Check for MainLines {
    fn name(&self) -> &'static str {
        "corpus_main_lines_agree_with_a_simple_board"
    }

    fn file(&self, file: &File<'_>) {
        let path = file.path;
        let rules = RuleSet {
            ko: KoRule::None,
            suicide: true,
        };
        let Ok(coll) = file.parsed else {
            return;
        };
        let (mut games, mut moves) = (0, 0);
        for game in coll.games() {
            if game.game_type() != 1 {
                continue;
            }
            let size = game.board_size();
            let mut board = Board::new(size, rules);
            let mut simple = Simple::new(size);
            games += 1;
            for node in game.root().main_line() {
                for (ident, stone) in [("AE", None), ("AB", Some(B)), ("AW", Some(W))] {
                    for at in node.get_all::<Point>(ident).flatten() {
                        board.set(at, stone);
                        simple.cells[at.y as usize * simple.cols + at.x as usize] = stone;
                    }
                }
                let Ok(Some((color, Move::Play(at)))) = node.played() else {
                    continue;
                };
                moves += 1;
                if board.play(color, at).is_err() {
                    // Occupied: overwritten in both.
                    board.set(at, Some(color));
                }
                simple.play(color, at);
                for y in 0..size.rows {
                    for x in 0..size.cols {
                        let here = simple.cells[y as usize * simple.cols + x as usize];
                        assert_eq!(
                            board.get(p(x, y)),
                            here,
                            "{} game {} move {moves}: ({x}, {y})\n{board:?}",
                            path.display(),
                            game.index()
                        );
                    }
                }
            }
        }
        let mut total = self.0.lock().unwrap();
        total.0 += games;
        total.1 += moves;
    }

    fn finish(&self, _: &Corpus) {
        let (games, moves) = *self.0.lock().unwrap();
        eprintln!("replayed {games} games, {moves} moves beside the simple board");
        assert!(
            games > 5_000 && moves > 900_000,
            "{games} games, {moves} moves"
        );
    }
}

/// Every 64th game of the corpus walked to the end of its main line by a
/// cursor, then back to the root: each position going back has the hash
/// it had going forward (snapshots and replays agree), and the position
/// of a node replayed from the root equals the cursor's.
#[derive(Default)]
pub struct CursorBack(AtomicUsize);

impl Check for CursorBack {
    fn name(&self) -> &'static str {
        "cursor_goes_back_to_the_positions_it_passed"
    }

    fn file(&self, file: &File<'_>) {
        let path = file.path;
        if !file.n.is_multiple_of(64) {
            return;
        }
        let Ok(coll) = file.parsed else {
            return;
        };
        for game in coll.games().filter(|g| g.game_type() == 1) {
            let mut cursor = game.cursor();
            let mut hashes = vec![(cursor.hash(), cursor.illegal().len())];
            while cursor.next().is_some() {
                hashes.push((cursor.hash(), cursor.illegal().len()));
            }
            let end = game
                .position_at(cursor.node(), ReplayOptions::default())
                .expect("lenient");
            assert_eq!(end.hash(), cursor.hash(), "{}", path.display());
            hashes.pop();
            while cursor.back() {
                let want = hashes.pop().expect("one per node");
                assert_eq!(
                    (cursor.hash(), cursor.illegal().len()),
                    want,
                    "{}",
                    path.display()
                );
            }
            assert!(hashes.is_empty());
            self.0.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn finish(&self, _: &Corpus) {
        let checked = self.0.load(Ordering::Relaxed);
        assert!(checked > 700, "{checked} games");
    }
}

/// Every 96th Go game of the corpus replayed as written and under each of
/// the 8 symmetries (every point of every move moved): at every position
/// the canonical hash is the same, and the symmetric hashes are the same
/// set.
#[derive(Default)]
pub struct Symmetric(AtomicUsize);

impl Check for Symmetric {
    fn name(&self) -> &'static str {
        "symmetric_copies_hash_the_same"
    }

    fn file(&self, file: &File<'_>) {
        use sgf_grove::game::Symmetry;
        let path = file.path;
        if !file.n.is_multiple_of(96) {
            return;
        }
        let Ok(coll) = file.parsed else {
            return;
        };
        for game in coll.games().filter(|g| g.game_type() == 1) {
            let size = game.board_size();
            let rules = RuleSet::JAPANESE;
            let mut boards: Vec<Board> = Symmetry::ALL
                .iter()
                .map(|s| Board::new(s.board_size(size), rules))
                .collect();
            for (n, m) in game.moves().filter_map(Result::ok).enumerate() {
                let (color, Move::Play(at)) = m else {
                    continue;
                };
                for (board, s) in boards.iter_mut().zip(Symmetry::ALL) {
                    let q = s.apply(at, size);
                    if board.play(color, q).is_err() {
                        board.set(q, Some(color));
                    }
                }
                if n % 8 == 0 {
                    let first = boards[0].canonical_hash().0;
                    let mut set = boards[0].symmetric_hashes();
                    set.sort_unstable();
                    for board in &boards[1..] {
                        assert_eq!(board.canonical_hash().0, first, "{}", path.display());
                        let mut other = board.symmetric_hashes();
                        other.sort_unstable();
                        assert_eq!(other, set);
                    }
                    self.0.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
    }

    fn finish(&self, _: &Corpus) {
        let positions = self.0.load(Ordering::Relaxed);
        assert!(positions > 3_000, "{positions} positions");
    }
}

/// Compressed point lists in setup are rectangles: `AB[aa:bb]` puts down
/// four stones, `AE[ab:bb]` takes two away (before, a replay read each
/// value as a single point and skipped the rectangles).
#[test]
fn setup_rectangles_are_expanded() {
    let doc = sgf_grove::parse(b"(;SZ[9]AB[aa:bb][ee]AW[cc][zz];AE[ab:bb])").unwrap();
    let game = doc.games().next().unwrap();
    let mut cursor = game.cursor();
    let board = cursor.board();
    assert_eq!(board.stones(B).count(), 5);
    assert_eq!(board.stones(W).collect::<Vec<_>>(), [p(2, 2)]);
    cursor.next().unwrap();
    let left: Vec<Point> = cursor.board().stones(B).collect();
    assert_eq!(left, [p(0, 0), p(1, 0), p(4, 4)]);
}

/// A node's setup is one change of position: the positions in between
/// (after some of its stones) were never on the board, and a move that
/// makes one of them again is no superko. Here Black's two-stone suicide
/// (allowed by New Zealand rules) gives back the position before the
/// setup's last stone.
#[test]
fn setup_in_between_positions_are_not_repetitions() {
    let stones = [
        (p(2, 0), Some(Color::White)),
        (p(0, 1), Some(Color::White)),
        (p(1, 1), Some(Color::White)),
        (p(8, 8), Some(Color::Black)),
        (p(0, 0), Some(Color::Black)),
    ];
    let mut board = Board::new(BoardSize::square(9), RuleSet::NEW_ZEALAND);
    assert_eq!(board.setup(stones), 5);
    let played = board.play(Color::Black, p(1, 0));
    assert!(played.is_ok(), "{played:?}");
    assert_eq!(board.get(p(0, 0)), None);
    assert_eq!(board.get(p(1, 0)), None);
    assert_eq!(board.get(p(8, 8)), Some(Color::Black));

    // Point by point, each position is remembered: the same move repeats
    // the one before the last stone.
    let mut board = Board::new(BoardSize::square(9), RuleSet::NEW_ZEALAND);
    for (point, stone) in stones {
        board.set(point, stone);
    }
    assert_eq!(
        board.play(Color::Black, p(1, 0)).unwrap_err(),
        Illegal::Superko
    );

    // Replayed from a record, the setup node is one change.
    let doc = sgf_grove::parse(b"(;GM[1]SZ[9]RU[NZ]AW[ca][ab][bb]AB[ii][aa];B[ba])").unwrap();
    let game = doc.games().next().unwrap();
    let mut cursor = game.cursor();
    while cursor.next().is_some() {}
    assert!(cursor.illegal().is_empty(), "{:?}", cursor.illegal());
}
