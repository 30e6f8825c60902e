//! Looking for a [`Pattern`] in the moves files: every stored game is
//! replayed from its ops ([`super::moves`]: stones put on and taken off,
//! no rules to apply) and the pattern is checked incrementally.
//!
//! The pattern is compiled once per symmetry (and colour, with
//! [`Pattern::with_swapped_colors`]), the copies that are the same
//! dropped: per row, which columns must be black, which may not be, the
//! same for white, as bit masks, so that testing a placement is four
//! word operations per row against the board's rows (a `u64` per colour
//! and row). A placement that does not match can start to match only where
//! a point changes from a state its cell refuses to one it accepts; each
//! copy keeps, per change (empty → black, black → empty, …), the cells
//! where that happens, so after each node only the placements that put
//! such a cell on a changed point are tested. A game of the main line is
//! left at its first match.
//!
//! # Why a replay, and not hashes or an inverted index
//!
//! Measured on the shared corpus (48,881 games, 9,104,549 positions; `sgf
//! index build` of format 3, one thread): the moves files take 20.0 MB
//! (9.8 M ops of 2 bytes: moves, captures, setup, node marks) beside the
//! 153.2 MB of rows and games table, and a scan replays all of them and
//! answers a 6×6 corner pattern in 0.4 s, the same anywhere in 0.6 s, on
//! one core. The alternatives, on paper with the same counts:
//!
//! - Per-region hashes: a 6×6 window has 14 × 14 = 196 places on a 19×19
//!   board; a 16-byte row per window and position is 1.78 G rows, 28 GB
//!   (185 times the index). Rows only for the windows a move changes (at
//!   most 36 per move) still make 330 M rows, 5.2 GB (34 times), against a
//!   budget of 3 times. And a hash answers only exact windows of one size:
//!   not `?`, `x`, `o`, a 5×7 pattern, or a player to move.
//! - An inverted index of stones: one entry per stone's life (point,
//!   colour → game, first and last move), 9.8 M entries, about 80 MB
//!   (four times the moves files). A query intersects, for every
//!   placement and symmetry (1,568 for a 6×6 pattern anywhere), the lists
//!   of its stones (about 13,600 entries each on average) and must still
//!   check its empty points against every other list: hundreds of millions
//!   of steps for a pattern anywhere, where the replay takes 9.8 M ops
//!   and a few tests per change.
//!
//! The replay needs no more than the moves, answers every kind of cell,
//! anchor and player to move, and stays within both budgets.

use super::moves::{
    StoredGame, K_MOVE, K_NODE, K_ODD, K_PASS, K_POP, K_PUSH, K_SET, P_OFF, P_PASS,
};
use super::pattern::{Cell, Edges, Pattern};
use super::record::Winner;
use crate::game::Symmetry;
use crate::value::{BoardSize, Color, Point};
use std::fmt;

/// A move played after a match, in the pattern's own orientation (and
/// colours: with swapped colours, `B` is the colour of the pattern's `X`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PatternNext {
    /// A move inside the pattern's rectangle, at its point counted from its
    /// top left (`aa`), as SGF letters. Points that a symmetry of the
    /// pattern itself exchanges (`cd` and `dc` in a pattern symmetric
    /// about its diagonal) are one move, shown as the first of them row
    /// by row.
    Local(Color, Point),
    /// A move outside the rectangle ("tenuki", a move elsewhere; a move off
    /// the board counts as one).
    Tenuki(Color),
    /// A pass.
    Pass(Color),
}

impl PatternNext {
    /// Who played it.
    pub fn color(self) -> Color {
        match self {
            PatternNext::Local(c, _) | PatternNext::Tenuki(c) | PatternNext::Pass(c) => c,
        }
    }
}

impl fmt::Display for PatternNext {
    /// `B cd` (pattern-local), `W tenuki`, `B pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = match self.color() {
            Color::Black => 'B',
            Color::White => 'W',
        };
        match self {
            PatternNext::Local(_, p) => write!(f, "{c} {p}"),
            PatternNext::Tenuki(_) => write!(f, "{c} tenuki"),
            PatternNext::Pass(_) => write!(f, "{c} pass"),
        }
    }
}

/// The first place where a pattern occurs in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatternHit {
    /// The game's id in the index ([`super::Index::game`]).
    pub game: u32,
    /// The moves played to reach the position (passes included).
    pub move_number: u32,
    /// The symmetry that turns the game's board into the pattern's
    /// orientation.
    pub symmetry: Symmetry,
    /// Whether it matched with black and white exchanged.
    pub swapped: bool,
    /// The column and row of the board where the pattern's rectangle (as
    /// turned by the symmetry) starts.
    pub at: Point,
    /// The move played next, in the pattern's orientation and colours;
    /// `None` at the end of the line or before setup.
    pub next: Option<PatternNext>,
    /// Who won the game.
    pub winner: Winner,
}

/// One row of a pattern's continuation table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatternContinuation {
    /// The move.
    pub next: PatternNext,
    /// How many games continued with it.
    pub count: u64,
    /// Of those, the games Black won.
    pub black_wins: u64,
    /// Of those, the games White won.
    pub white_wins: u64,
}

/// What a pattern search found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PatternSearch {
    /// The first occurrence in each game where the pattern occurs, by
    /// game id.
    pub hits: Vec<PatternHit>,
    /// The moves played next, most frequent first.
    pub continuations: Vec<PatternContinuation>,
    /// Games replayed (every game of the index).
    pub games_searched: u64,
}

/// One copy of the pattern: turned by `sym`, perhaps colour-swapped.
#[derive(Clone, Debug)]
pub(crate) struct Variant {
    sym: Symmetry,
    swap: bool,
    w: u8,
    h: u8,
    edges: Edges,
    to_move: Option<Color>,
    /// Per row: columns where black matters, and where it must be.
    care_b: Vec<u64>,
    req_b: Vec<u64>,
    care_w: Vec<u64>,
    req_w: Vec<u64>,
    /// `cand[old][new]`: cells (dx, dy) that refuse `old` and accept `new`
    /// (0 empty, 1 black, 2 white).
    cand: [[Vec<(u8, u8)>; 3]; 3],
}

fn state_code(s: Option<Color>) -> usize {
    match s {
        None => 0,
        Some(Color::Black) => 1,
        Some(Color::White) => 2,
    }
}

const STATES: [Option<Color>; 3] = [None, Some(Color::Black), Some(Color::White)];

impl Variant {
    fn new(p: &Pattern, sym: Symmetry, swap: bool) -> Variant {
        let t = p.transformed(sym, swap);
        let (w, h) = (t.width(), t.height());
        let mut v = Variant {
            sym,
            swap,
            w: w as u8,
            h: h as u8,
            edges: t.edges(),
            to_move: t.to_move(),
            care_b: vec![0; h],
            req_b: vec![0; h],
            care_w: vec![0; h],
            req_w: vec![0; h],
            cand: Default::default(),
        };
        for y in 0..h {
            for x in 0..w {
                let c = t.cell(x, y);
                let bit = 1u64 << x;
                match c {
                    Cell::Black => {
                        v.care_b[y] |= bit;
                        v.req_b[y] |= bit;
                    }
                    Cell::White => {
                        v.care_w[y] |= bit;
                        v.req_w[y] |= bit;
                    }
                    Cell::Empty => {
                        v.care_b[y] |= bit;
                        v.care_w[y] |= bit;
                    }
                    Cell::NotWhite => v.care_w[y] |= bit,
                    Cell::NotBlack => v.care_b[y] |= bit,
                    Cell::Any => {}
                }
                for (o, &old) in STATES.iter().enumerate() {
                    for (n, &new) in STATES.iter().enumerate() {
                        if !c.accepts(old) && c.accepts(new) {
                            v.cand[o][n].push((x as u8, y as u8));
                        }
                    }
                }
            }
        }
        v
    }

    /// The same test, the same placements, the same anchors.
    fn same_as(&self, o: &Variant) -> bool {
        self.w == o.w
            && self.h == o.h
            && self.edges == o.edges
            && self.to_move == o.to_move
            && self.care_b == o.care_b
            && self.req_b == o.req_b
            && self.care_w == o.care_w
            && self.req_w == o.req_w
    }

    fn requires_stone(&self) -> bool {
        self.req_b.iter().chain(&self.req_w).any(|&r| r != 0)
    }

    /// Whether the rectangle at (ox, oy) lies on a board of `size` as the
    /// anchors ask.
    fn fits(&self, ox: i32, oy: i32, size: BoardSize) -> bool {
        let (w, h) = (i32::from(self.w), i32::from(self.h));
        let (cols, rows) = (i32::from(size.cols), i32::from(size.rows));
        ox >= 0
            && oy >= 0
            && ox + w <= cols
            && oy + h <= rows
            && (!self.edges.left || ox == 0)
            && (!self.edges.top || oy == 0)
            && (!self.edges.right || ox + w == cols)
            && (!self.edges.bottom || oy + h == rows)
    }

    /// Whether the stones match at (ox, oy) (which [`Variant::fits`]).
    #[inline]
    fn test(&self, board: &Stones, ox: usize, oy: usize) -> bool {
        for r in 0..usize::from(self.h) {
            let b = board.black[oy + r] >> ox;
            let w = board.white[oy + r] >> ox;
            if b & self.care_b[r] != self.req_b[r] || w & self.care_w[r] != self.req_w[r] {
                return false;
            }
        }
        true
    }
}

/// A pattern ready to be looked for: its distinct copies.
#[derive(Clone, Debug)]
pub(crate) struct Compiled {
    variants: Vec<Variant>,
    requires_stone: bool,
    /// The symmetries that leave the pattern as it is: the next moves
    /// they exchange are one move.
    fixing: Vec<Symmetry>,
    /// The pattern's size.
    size: BoardSize,
}

impl Compiled {
    pub(crate) fn new(p: &Pattern) -> Compiled {
        let mut variants: Vec<Variant> = Vec::new();
        let swaps: &[bool] = if p.swaps_colors() {
            &[false, true]
        } else {
            &[false]
        };
        for &swap in swaps {
            for sym in Symmetry::ALL {
                let v = Variant::new(p, sym, swap);
                if !variants.iter().any(|o| o.same_as(&v)) {
                    variants.push(v);
                }
            }
        }
        let requires_stone = variants.iter().all(Variant::requires_stone);
        let identity = Variant::new(p, Symmetry::Identity, false);
        let fixing = Symmetry::ALL
            .into_iter()
            .filter(|&s| Variant::new(p, s, false).same_as(&identity))
            .collect();
        Compiled {
            variants,
            requires_stone,
            fixing,
            size: BoardSize {
                cols: p.width() as u8,
                rows: p.height() as u8,
            },
        }
    }
}

/// The board as rows of bits.
#[derive(Clone, Debug)]
struct Stones {
    black: [u64; 52],
    white: [u64; 52],
    stones: u32,
}

impl Stones {
    fn new() -> Stones {
        Stones {
            black: [0; 52],
            white: [0; 52],
            stones: 0,
        }
    }

    fn get(&self, x: usize, y: usize) -> Option<Color> {
        if self.black[y] >> x & 1 != 0 {
            Some(Color::Black)
        } else if self.white[y] >> x & 1 != 0 {
            Some(Color::White)
        } else {
            None
        }
    }

    /// Sets a point; returns what it held.
    fn set(&mut self, x: usize, y: usize, s: Option<Color>) -> Option<Color> {
        let old = self.get(x, y);
        let bit = 1u64 << x;
        self.black[y] &= !bit;
        self.white[y] &= !bit;
        match s {
            Some(Color::Black) => self.black[y] |= bit,
            Some(Color::White) => self.white[y] |= bit,
            None => {}
        }
        self.stones = self.stones + u32::from(s.is_some()) - u32::from(old.is_some());
        old
    }
}

/// A placement: (variant, x, y).
type Place = (u16, u8, u8);

/// The scan's state at a point of a line.
#[derive(Clone, Debug)]
struct Line {
    stones: Stones,
    moves: u32,
    /// The changes of the node not yet looked at: (x, y, old, new).
    changes: Vec<(u8, u8, u8, u8)>,
    /// Whether the position is the root's (every placement is tested).
    root: bool,
    /// The placements matching at the last position looked at.
    live: Vec<Place>,
}

/// The best hit of a game so far.
struct Best {
    hit: PatternHit,
}

/// Why a game's ops could not be replayed (a bug or damage that passed
/// the checksum): the game's id and the reason.
pub(crate) type Malformed = (u32, &'static str);

/// Looks for `c` in `game`; `variations` follows every line the game
/// stores. Returns the first hit.
pub(crate) fn search_game(
    c: &Compiled,
    game: &StoredGame<'_>,
    variations: bool,
) -> Result<Option<PatternHit>, Malformed> {
    let variations = variations && game.variations;
    let size = game.size;
    let cols = usize::from(size.cols);
    let cells = cols * usize::from(size.rows);
    let mut line = Line {
        stones: Stones::new(),
        moves: game.root_moves,
        changes: Vec::new(),
        root: true,
        live: Vec::new(),
    };
    let mut saved: Vec<Line> = Vec::new();
    let mut best: Option<Best> = None;
    let bad = |why| Err((game.id, why));
    let mut ops = game
        .ops
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]));
    loop {
        let op = ops.next();
        let (kind, point) = match op {
            Some(o) => (o >> 12, usize::from(o & 0x0fff)),
            None => (u16::MAX, 0),
        };
        // A node starts, a line ends: the position before is looked at,
        // with what comes next.
        let starts = kind < K_SET || kind == K_POP || op.is_none();
        if starts {
            let next = match kind {
                k if k == K_MOVE || k == K_MOVE + 1 || k == K_ODD || k == K_ODD + 1 => {
                    let color = if k & 1 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    Some((color, point))
                }
                k if k == K_PASS || k == K_PASS + 1 => {
                    let color = if k & 1 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    Some((color, usize::from(P_PASS)))
                }
                _ => None,
            };
            let better = best.as_ref().is_none_or(|b| line.moves < b.hit.move_number);
            if better {
                if let Some(hit) = look(c, &mut line, size, next, game) {
                    best = Some(Best { hit });
                    if !variations {
                        break;
                    }
                }
            } else {
                line.changes.clear();
                line.root = false;
            }
        }
        let Some(_) = op else { break };
        match kind {
            k if k == K_MOVE || k == K_MOVE + 1 => {
                if point >= cells {
                    return bad("a move off the board");
                }
                let color = if k & 1 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                line.moves += 1;
                change(&mut line, point % cols, point / cols, Some(color));
            }
            k if k == K_PASS || k == K_PASS + 1 => line.moves += 1,
            k if k == K_ODD || k == K_ODD + 1 => line.moves += 1,
            K_NODE => {}
            k if k == K_NODE + 1 => line.moves += 1,
            k if (K_SET..K_SET + 3).contains(&k) => {
                if point >= cells {
                    return bad("a stone off the board");
                }
                let s = STATES[[1, 2, 0][usize::from(k - K_SET)]];
                change(&mut line, point % cols, point / cols, s);
            }
            K_PUSH => {
                if !variations {
                    // The main line goes on inside the first variation.
                    continue;
                }
                saved.push(line.clone());
            }
            K_POP => {
                if !variations {
                    break;
                }
                match saved.pop() {
                    Some(l) => line = l,
                    None => return bad("a variation ends that never started"),
                }
            }
            _ => return bad("an op of no kind"),
        }
    }
    Ok(best.map(|b| b.hit))
}

/// Applies a change to the line's board and notes it.
fn change(line: &mut Line, x: usize, y: usize, new: Option<Color>) {
    let old = line.stones.set(x, y, new);
    if old != new {
        line.changes.push((
            x as u8,
            y as u8,
            state_code(old) as u8,
            state_code(new) as u8,
        ));
    }
}

/// Looks at the line's position, `next` played after it ((colour, point
/// index or a pass/off-board code)): the placements that match now (the
/// last ones still matching, those a change may have made match), and a
/// hit when one is for the player to move.
fn look(
    c: &Compiled,
    line: &mut Line,
    size: BoardSize,
    next: Option<(Color, usize)>,
    game: &StoredGame<'_>,
) -> Option<PatternHit> {
    let mut found: Vec<Place> = Vec::new();
    for &(vi, ox, oy) in &line.live {
        if c.variants[usize::from(vi)].test(&line.stones, usize::from(ox), usize::from(oy)) {
            found.push((vi, ox, oy));
        }
    }
    if line.root {
        if line.stones.stones > 0 || !c.requires_stone {
            for (vi, v) in c.variants.iter().enumerate() {
                for oy in 0..size.rows {
                    for ox in 0..size.cols {
                        if v.fits(i32::from(ox), i32::from(oy), size)
                            && v.test(&line.stones, usize::from(ox), usize::from(oy))
                        {
                            found.push((vi as u16, ox, oy));
                        }
                    }
                }
            }
        }
        line.root = false;
    } else {
        for &(x, y, old, new) in &line.changes {
            for (vi, v) in c.variants.iter().enumerate() {
                for &(dx, dy) in &v.cand[usize::from(old)][usize::from(new)] {
                    let (ox, oy) = (i32::from(x) - i32::from(dx), i32::from(y) - i32::from(dy));
                    if v.fits(ox, oy, size) && v.test(&line.stones, ox as usize, oy as usize) {
                        found.push((vi as u16, ox as u8, oy as u8));
                    }
                }
            }
        }
    }
    line.changes.clear();
    if found.is_empty() {
        line.live.clear();
        return None;
    }
    found.sort_unstable();
    found.dedup();
    let to_move = next.map(|(color, _)| color);
    // The first by colours, symmetry, row, column.
    let key = |&(vi, ox, oy): &Place| {
        let v = &c.variants[usize::from(vi)];
        (v.swap, v.sym, oy, ox)
    };
    let chosen = found
        .iter()
        .filter(|&&(vi, _, _)| {
            let v = &c.variants[usize::from(vi)];
            v.to_move.is_none() || v.to_move == to_move
        })
        .min_by_key(|p| key(p))
        .copied();
    line.live = found;
    let (vi, ox, oy) = chosen?;
    let v = &c.variants[usize::from(vi)];
    let cols = usize::from(size.cols);
    let next = next.map(|(color, point)| {
        let color = if v.swap { color.opponent() } else { color };
        if point == usize::from(P_PASS) {
            return PatternNext::Pass(color);
        }
        if point == usize::from(P_OFF) {
            return PatternNext::Tenuki(color);
        }
        let (x, y) = ((point % cols) as i32, (point / cols) as i32);
        let (lx, ly) = (x - i32::from(ox), y - i32::from(oy));
        if lx < 0 || ly < 0 || lx >= i32::from(v.w) || ly >= i32::from(v.h) {
            return PatternNext::Tenuki(color);
        }
        let vsize = BoardSize {
            cols: v.w,
            rows: v.h,
        };
        let local = v.sym.inverse().apply(
            Point {
                x: lx as u8,
                y: ly as u8,
            },
            vsize,
        );
        // Of the points the pattern's own symmetries exchange, the
        // first row by row.
        let local = c
            .fixing
            .iter()
            .map(|s| s.apply(local, c.size))
            .min_by_key(|q| (q.y, q.x))
            .unwrap_or(local);
        PatternNext::Local(color, local)
    });
    Some(PatternHit {
        game: game.id,
        move_number: line.moves,
        symmetry: v.sym.inverse(),
        swapped: v.swap,
        at: Point { x: ox, y: oy },
        next,
        winner: game.winner,
    })
}

/// The continuation table of `hits`: one row per next move, most
/// frequent first, then Black first, row by row, tenuki and passes last.
pub(crate) fn continuations(hits: &[PatternHit]) -> Vec<PatternContinuation> {
    let mut table: std::collections::HashMap<PatternNext, PatternContinuation> =
        std::collections::HashMap::new();
    for h in hits {
        let Some(next) = h.next else { continue };
        let c = table.entry(next).or_insert(PatternContinuation {
            next,
            count: 0,
            black_wins: 0,
            white_wins: 0,
        });
        c.count += 1;
        c.black_wins += u64::from(h.winner == Winner::Black);
        c.white_wins += u64::from(h.winner == Winner::White);
    }
    let mut rows: Vec<PatternContinuation> = table.into_values().collect();
    rows.sort_by_key(|c| (std::cmp::Reverse(c.count), order(c.next)));
    rows
}

fn order(n: PatternNext) -> (bool, u8, u8, u8) {
    let white = n.color() == Color::White;
    match n {
        PatternNext::Local(_, p) => (white, 0, p.y, p.x),
        PatternNext::Tenuki(_) => (white, 1, 0, 0),
        PatternNext::Pass(_) => (white, 2, 0, 0),
    }
}
