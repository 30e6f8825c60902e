//! The board against a deliberately simple one (a grid, chains found by
//! flood fill at every move, nothing incremental) on generated random
//! games: legality, captures, prisoners, ko, every point and the hash after
//! every move and setup, under each suicide and ko rule.

use super::*;

/// A small seeded generator (xorshift64*), so the games are the same in
/// every run.
struct Rng(u64);

impl Rng {
    fn step(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.step() % n as u64) as usize
    }
}

/// The simple board: a grid of `0` empty, `BLACK`, `WHITE`.
struct Grid {
    cols: usize,
    rows: usize,
    cells: Vec<u8>,
    prisoners: [u32; 2],
    ko: Option<(usize, u8)>,
}

impl Grid {
    fn new(cols: usize, rows: usize) -> Grid {
        Grid {
            cols,
            rows,
            cells: vec![EMPTY; cols * rows],
            prisoners: [0; 2],
            ko: None,
        }
    }

    fn neighbours(&self, i: usize) -> Vec<usize> {
        let (x, y) = (i % self.cols, i / self.cols);
        let mut out = Vec::new();
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

    /// The chain through `i` and its number of liberties (distinct).
    fn chain(&self, i: usize) -> (Vec<usize>, usize) {
        let color = self.cells[i];
        let mut seen = vec![false; self.cells.len()];
        let mut libs = vec![false; self.cells.len()];
        let mut stack = vec![i];
        let mut chain = Vec::new();
        seen[i] = true;
        while let Some(s) = stack.pop() {
            chain.push(s);
            for n in self.neighbours(s) {
                if self.cells[n] == EMPTY {
                    libs[n] = true;
                } else if self.cells[n] == color && !seen[n] {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        (chain, libs.iter().filter(|&&l| l).count())
    }

    /// `c` plays at `i` under `rules` (no superko): the reason it may not,
    /// or what it took.
    fn play(&mut self, i: usize, c: u8, rules: RuleSet) -> Result<Played, Illegal> {
        if self.cells[i] != EMPTY {
            return Err(Illegal::Occupied);
        }
        if rules.ko == KoRule::Simple && self.ko == Some((i, c)) {
            return Err(Illegal::Ko);
        }
        let before = self.cells.clone();
        self.cells[i] = c;
        let mut played = Played::default();
        let mut last = 0;
        for n in self.neighbours(i) {
            if self.cells[n] == opponent(c) {
                let (chain, libs) = self.chain(n);
                if libs == 0 {
                    played.captured += chain.len() as u32;
                    for s in chain {
                        self.cells[s] = EMPTY;
                        last = s;
                    }
                }
            }
        }
        let (own, libs) = self.chain(i);
        if libs == 0 {
            if !rules.suicide {
                self.cells = before;
                return Err(Illegal::Suicide);
            }
            played.suicided = own.len() as u32;
            for s in own {
                self.cells[s] = EMPTY;
            }
        }
        let me = c as usize - 1;
        self.prisoners[me] += played.captured;
        self.prisoners[1 - me] += played.suicided;
        self.ko = (played.captured == 1 && played.suicided == 0 && self.chain(i) == (vec![i], 1))
            .then_some((last, opponent(c)));
        Ok(played)
    }
}

/// The board's hash from its definition: every stone's key.
fn hash_of(grid: &Grid, stride: usize) -> u64 {
    let mut h = 0;
    for (k, &c) in grid.cells.iter().enumerate() {
        if c != EMPTY {
            let i = (k / grid.cols + 1) * stride + k % grid.cols + 1;
            h ^= KEYS[c as usize - 1][i];
        }
    }
    h
}

/// The chains' bookkeeping against the stones: every stone's head is a
/// head of its colour whose ring holds it, with the ring's stone count and
/// pseudo-liberties.
fn check_chains(board: &Board, at: &str) {
    for i in 0..board.cells.len() {
        let c = board.cells[i];
        if c != BLACK && c != WHITE {
            continue;
        }
        let h = board.links[i][HEAD] as usize;
        assert_eq!(board.links[h][HEAD] as usize, h, "{at}: head of {i}");
        for n in board.neighbours(i) {
            if board.cells[n] == c {
                assert_eq!(
                    board.links[n][HEAD] as usize, h,
                    "{at}: {i} and {n} apart\n{board:?}"
                );
            }
        }
        if h != i {
            continue;
        }
        let (mut s, mut stones, mut libs, mut has_i) = (h, 0, 0, false);
        loop {
            assert_eq!(board.cells[s], c, "{at}: ring of {h}");
            assert_eq!(board.links[s][HEAD] as usize, h, "{at}: ring of {h}");
            has_i |= s == i;
            stones += 1;
            libs += board
                .neighbours(s)
                .iter()
                .filter(|&&n| board.cells[n] == EMPTY)
                .count();
            s = board.links[s][NEXT] as usize;
            if s == h {
                break;
            }
        }
        assert!(has_i);
        assert_eq!(board.links[h][STONES], stones, "{at}: stones of {h}");
        assert_eq!(
            board.links[h][LIBS] as usize, libs,
            "{at}: liberties of {h}\n{board:?}"
        );
    }
}

fn compare(board: &Board, grid: &Grid, at: &str) {
    check_chains(board, at);
    for k in 0..grid.cells.len() {
        let p = Point {
            x: (k % grid.cols) as u8,
            y: (k / grid.cols) as u8,
        };
        let want = match grid.cells[k] {
            BLACK => Some(Color::Black),
            WHITE => Some(Color::White),
            _ => None,
        };
        assert_eq!(board.get(p), want, "{at}: point {p:?}\n{board:?}");
    }
    assert_eq!(board.prisoners, grid.prisoners, "{at}: prisoners");
    assert_eq!(
        board.ko.map(|(i, c)| (board.point(i as usize), c)),
        grid.ko.map(|(k, c)| (
            Point {
                x: (k % grid.cols) as u8,
                y: (k / grid.cols) as u8
            },
            c
        )),
        "{at}: ko"
    );
    assert_eq!(board.hash(), hash_of(grid, board.stride), "{at}: hash");
    // The row-major reads: stones, and each stone's chain's liberties
    // counted by flood fill.
    let mut codes = Vec::new();
    board.codes(&mut codes);
    assert_eq!(codes, grid.cells, "{at}: codes");
    let mut libs = Vec::new();
    board.liberty_counts(&mut libs);
    for (k, &l) in libs.iter().enumerate() {
        let want = match grid.cells[k] {
            EMPTY => 0,
            _ => grid.chain(k).1.min(255) as u8,
        };
        assert_eq!(l, want, "{at}: liberties at {k}\n{board:?}");
    }
}

/// One random game of `moves` moves and occasional setup on a board of
/// `cols`×`rows`, compared after each step.
fn random_game(rng: &mut Rng, cols: usize, rows: usize, moves: usize, rules: RuleSet) {
    let size = BoardSize {
        cols: cols as u8,
        rows: rows as u8,
    };
    random_game_on(&mut Board::new(size, rules), rng, cols, rows, moves, rules);
}

/// [`random_game`] on `board`, which is empty, of that size and rules.
fn random_game_on(
    board: &mut Board,
    rng: &mut Rng,
    cols: usize,
    rows: usize,
    moves: usize,
    rules: RuleSet,
) {
    let mut grid = Grid::new(cols, rows);
    let mut illegal = 0;
    for step in 0..moves {
        let k = rng.below(cols * rows);
        let p = Point {
            x: (k % cols) as u8,
            y: (k / cols) as u8,
        };
        let color = if rng.below(2) == 0 {
            Color::Black
        } else {
            Color::White
        };
        let at = format!("{cols}×{rows} {rules:?} step {step}");
        match rng.below(40) {
            0 => {
                board.pass(color);
                grid.ko = None;
            }
            1 => {
                let stone = [None, Some(Color::Black), Some(Color::White)][rng.below(3)];
                assert!(board.set(p, stone));
                grid.cells[k] = stone.map_or(EMPTY, code);
                grid.ko = None;
            }
            _ => {
                let want = grid.play(k, code(color), rules);
                illegal += usize::from(want.is_err());
                assert_eq!(board.check_play(color, p), want.map(|_| ()), "{at}");
                let before = format!("{board:?}");
                assert_eq!(
                    board.play(color, p),
                    want,
                    "{at} {color:?} {p:?}\n{before}\n{board:?}"
                );
            }
        }
        compare(board, &grid, &at);
    }
    assert!(illegal > 0 || moves < 50, "the games try illegal moves");
}

/// One board reset from game to game (of other sizes and rules, with and
/// without the journal) plays each as a new board does.
#[test]
fn a_reset_board_plays_as_a_new_one() {
    let mut rng = Rng(0x07e5_e7b0_a4d5);
    let rules = [
        RuleSet::JAPANESE,
        RuleSet {
            ko: KoRule::None,
            suicide: true,
        },
    ];
    let mut board = Board::new(BoardSize::square(52), RuleSet::CHINESE);
    for round in 0..60 {
        let (cols, rows) = match round % 4 {
            0 => (19, 19),
            1 => (52, 52),
            _ => (1 + rng.below(25), 1 + rng.below(25)),
        };
        let size = BoardSize {
            cols: cols as u8,
            rows: rows as u8,
        };
        let rules = rules[round % 2];
        board.set_journal(round % 3 == 0);
        board.reset(size, rules);
        assert_eq!(
            format!("{board:?}"),
            format!("{:?}", Board::new(size, rules))
        );
        let moves = (cols * rows * 3).min(1500);
        random_game_on(&mut board, &mut rng, cols, rows, moves, rules);
    }
}

/// The superko history goes with a reset: a position of the last game
/// is no repetition in the next.
#[test]
fn a_reset_forgets_the_positions_seen() {
    let size = BoardSize::square(5);
    let mut board = Board::new(size, RuleSet::CHINESE);
    let at = |x, y| Point { x, y };
    board.play(Color::Black, at(0, 0)).expect("legal");
    board.reset(size, RuleSet::CHINESE);
    // The empty board was seen before the first move, again.
    board
        .play(Color::Black, at(0, 0))
        .expect("legal after a reset");
    assert_eq!(board.get(at(0, 0)), Some(Color::Black));
    let mut fresh = Board::new(size, RuleSet::CHINESE);
    fresh.play(Color::Black, at(0, 0)).expect("legal");
    assert_eq!(board.hash(), fresh.hash());
}

#[test]
fn random_games_agree_with_a_simple_board() {
    let mut rng = Rng(0x05ee_d0fb_0a2d);
    let rules = [
        RuleSet::JAPANESE,
        RuleSet {
            ko: KoRule::None,
            suicide: false,
        },
        RuleSet {
            ko: KoRule::Simple,
            suicide: true,
        },
        RuleSet {
            ko: KoRule::None,
            suicide: true,
        },
    ];
    for round in 0..200 {
        // Small boards fill up and capture often; a few large and
        // rectangular ones.
        let (cols, rows) = match round % 10 {
            0 => (19, 19),
            1 => (52, 52),
            2 => (1 + rng.below(52), 1 + rng.below(52)),
            3 => (1, 1 + rng.below(8)),
            _ => (2 + rng.below(8), 2 + rng.below(8)),
        };
        let moves = (cols * rows * 3).min(2000);
        random_game(&mut rng, cols, rows, moves, rules[round % rules.len()]);
    }
}

/// The hash of a fixed position: the index stores hashes on disk, so the
/// keys must never change.
#[test]
fn hashes_stay_the_same() {
    let mut board = Board::new(BoardSize::square(19), RuleSet::JAPANESE);
    let moves = [(3, 3), (15, 15), (15, 3), (3, 15), (2, 5), (16, 13)];
    for (k, &(x, y)) in moves.iter().enumerate() {
        let color = if k % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        board.play(color, Point { x, y }).expect("legal");
    }
    assert_eq!(board.hash(), PINNED);
    assert_eq!(board.hash_with(Color::White), PINNED ^ WHITE_TO_PLAY);
    let mut rect = Board::new(BoardSize { cols: 52, rows: 7 }, RuleSet::JAPANESE);
    rect.play(Color::White, Point { x: 51, y: 6 })
        .expect("legal");
    assert_eq!(rect.hash(), PINNED_RECT);
}

const PINNED: u64 = 10269198859180900130;
const PINNED_RECT: u64 = 9916908337623129998;
