//! The board and the rules of Go: stones, captures, prisoners, ko and
//! superko, suicide, and a Zobrist hash of every position.
//!
//! A [`Board`] is a flat array with a border around the playing area
//! (boards up to 52×52, rectangular too). Stones of one chain are linked in
//! a ring, each chain counts its *pseudo-liberties* (one per stone and empty
//! neighbour, so a chain is captured exactly when the count reaches zero),
//! and chains merge by relabelling the smaller one: a move costs a few
//! dozen memory accesses, captures a walk of the captured stones.
//!
//! ```
//! use sgf_grove::game::board::{Board, Illegal, RuleSet};
//! use sgf_grove::value::{BoardSize, Color, Point};
//!
//! let p = |x, y| Point { x, y };
//! let mut board = Board::new(BoardSize::square(9), RuleSet::JAPANESE);
//! // A white stone at the edge, surrounded by three black stones.
//! board.play(Color::White, p(4, 0))?;
//! for at in [p(3, 0), p(5, 0), p(4, 1)] {
//!     board.play(Color::Black, at)?;
//! }
//! assert_eq!(board.get(p(4, 0)), None, "captured");
//! assert_eq!(board.captures(Color::Black), 1);
//! // White cannot play back into the eye: suicide under Japanese rules.
//! assert_eq!(board.play(Color::White, p(4, 0)), Err(Illegal::Suicide));
//! # Ok::<(), Illegal>(())
//! ```

use super::{Rules, Symmetry};
use crate::events::node::KeyHasher;
use crate::value::{BoardSize, Color, Point};
use std::collections::HashSet;
use std::fmt;
use std::hash::BuildHasherDefault;

/// What repetition the rules forbid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KoRule {
    /// No repetition rule at all.
    None,
    /// The basic ko: a single stone may not retake a single stone at once.
    Simple,
    /// Positional superko: no position (stones alone) may repeat.
    Positional,
    /// Situational superko: no position may repeat with the same player to
    /// move.
    Situational,
}

/// The rules a board follows: what repeats are forbidden and whether
/// suicide is a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuleSet {
    /// The repetition rule.
    pub ko: KoRule,
    /// Whether a move that leaves its own chain without liberties is
    /// allowed (the chain is then taken off; its stones are the
    /// opponent's prisoners).
    pub suicide: bool,
}

impl RuleSet {
    /// Japanese and Korean rules: the basic ko, no suicide.
    pub const JAPANESE: RuleSet = RuleSet {
        ko: KoRule::Simple,
        suicide: false,
    };
    /// Chinese rules: positional superko, no suicide.
    pub const CHINESE: RuleSet = RuleSet {
        ko: KoRule::Positional,
        suicide: false,
    };
    /// AGA rules: situational superko, no suicide.
    pub const AGA: RuleSet = RuleSet {
        ko: KoRule::Situational,
        suicide: false,
    };
    /// New Zealand rules: situational superko, suicide allowed.
    pub const NEW_ZEALAND: RuleSet = RuleSet {
        ko: KoRule::Situational,
        suicide: true,
    };
    /// Ing rules: situational superko (the closest of these to Ing's ko
    /// rules), suicide of several stones allowed.
    pub const ING: RuleSet = RuleSet {
        ko: KoRule::Situational,
        suicide: true,
    };
    /// Tromp–Taylor rules: positional superko, suicide allowed.
    pub const TROMP_TAYLOR: RuleSet = RuleSet {
        ko: KoRule::Positional,
        suicide: true,
    };

    /// The rules a game's `RU` names; [`RuleSet::JAPANESE`] for anything
    /// else (what most records without `RU` follow).
    ///
    /// ```
    /// use sgf_grove::game::{board::RuleSet, Rules};
    /// assert_eq!(RuleSet::for_rules(&Rules::parse("NZ")), RuleSet::NEW_ZEALAND);
    /// assert_eq!(RuleSet::for_rules(&Rules::parse("Japanese")), RuleSet::JAPANESE);
    /// ```
    pub fn for_rules(rules: &Rules) -> RuleSet {
        match rules {
            Rules::Japanese | Rules::Korean | Rules::Other(_) => RuleSet::JAPANESE,
            Rules::Chinese => RuleSet::CHINESE,
            Rules::Aga => RuleSet::AGA,
            Rules::NewZealand => RuleSet::NEW_ZEALAND,
            Rules::Goe => RuleSet::ING,
            Rules::TrompTaylor => RuleSet::TROMP_TAYLOR,
        }
    }
}

impl Default for RuleSet {
    fn default() -> Self {
        RuleSet::JAPANESE
    }
}

/// Why a move was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Illegal {
    /// The point is not on the board.
    OffBoard,
    /// The point holds a stone.
    Occupied,
    /// The move leaves its own chain without liberties and the rules forbid
    /// suicide.
    Suicide,
    /// The move retakes a ko at once.
    Ko,
    /// The move repeats an earlier position (superko).
    Superko,
}

impl Illegal {
    /// A short name, stable for output (`occupied`, `suicide`, …).
    pub fn name(self) -> &'static str {
        match self {
            Illegal::OffBoard => "off_board",
            Illegal::Occupied => "occupied",
            Illegal::Suicide => "suicide",
            Illegal::Ko => "ko",
            Illegal::Superko => "superko",
        }
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Illegal::OffBoard => "the point is off the board",
            Illegal::Occupied => "the point is occupied",
            Illegal::Suicide => "suicide is not allowed",
            Illegal::Ko => "the ko cannot be retaken at once",
            Illegal::Superko => "the move repeats an earlier position",
        })
    }
}

impl std::error::Error for Illegal {}

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const EDGE: u8 = 3;

/// The largest board side.
const MAX_SIDE: usize = 52;
/// Cells of the largest board with its border.
const MAX_CELLS: usize = (MAX_SIDE + 2) * (MAX_SIDE + 2);

/// Random keys for every (cell, colour) of the largest board, and one for
/// White to move: fixed (a seeded generator), so hashes are the same in
/// every run and on every machine.
static KEYS: [[u64; MAX_CELLS]; 2] = keys();
const WHITE_TO_PLAY: u64 = 0x9e37_79b9_7f4a_7c15;

const fn keys() -> [[u64; MAX_CELLS]; 2] {
    let mut out = [[0u64; MAX_CELLS]; 2];
    let mut state = 0x5347_4620_4752_4f56u64; // "SGF GROV"
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < MAX_CELLS {
            // splitmix64
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            out[c][i] = z ^ (z >> 31);
            i += 1;
        }
        c += 1;
    }
    out
}

/// The key of a stone of colour code `c` (`BLACK` or `WHITE`) on cell `i`.
#[inline(always)]
fn key(c: u8, i: usize) -> u64 {
    // `c >> 1` is 0 for black, 1 for white: no bounds check on the colour.
    KEYS[usize::from(c >> 1)][i]
}

/// The part of a symmetric hash that says the board's size.
fn size_key(size: BoardSize) -> u64 {
    let mut z =
        (u64::from(size.cols) << 8 | u64::from(size.rows)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z ^ (z >> 27)
}

fn code(color: Color) -> u8 {
    match color {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

fn opponent(c: u8) -> u8 {
    c ^ 3
}

/// The superko history: position hashes, which are random already
/// (Zobrist keys), so the set's hasher only spreads them.
type Seen = HashSet<u64, BuildHasherDefault<KeyHasher>>;

/// A Go board with its stones, prisoners, ko point and position hash.
#[derive(Clone)]
pub struct Board {
    size: BoardSize,
    rules: RuleSet,
    /// `cols + 2`: the border column sits between rows.
    stride: usize,
    cells: Vec<u8>,
    /// Every cell's place in its chain (one array: a new board makes two
    /// allocations, and a cell's fields share a bounds check).
    links: Vec<Link>,
    /// The point the basic ko forbids, and to which colour.
    ko: Option<(u16, u8)>,
    prisoners: [u32; 2],
    hash: u64,
    /// Positions seen (for superko), hashes of stones alone or with the
    /// player to move.
    seen: Seen,
    /// What every change did, to undo it ([`Board::undo_to`]); `None`
    /// unless a replay asked for it.
    journal: Option<Journal>,
    /// The journal put aside by [`Board::set_journal`], kept for its
    /// buffers.
    spare: Option<Journal>,
    /// Stones put on or taken off since the board was made (undo does
    /// not lower it): the work a replay has done.
    changes: u64,
    /// Scratch space of [`Board::setup`] (empty until the first setup): the
    /// stamp of the last setup that touched each cell, and the colour that
    /// setup leaves there.
    stamp: Vec<u32>,
    target: Vec<u8>,
    /// The stamp of the last setup that took each chain (by its head)
    /// apart.
    dirty: Vec<u32>,
    epoch: u32,
}

/// A stone's place in its chain, indexed by the constants below (an
/// array, so that a new board's are a zeroed allocation).
type Link = [u16; 4];
/// The next stone of the chain (a ring).
const NEXT: usize = 0;
/// The chain's representative stone.
const HEAD: usize = 1;
/// At a chain's head: its pseudo-liberties and its stones.
const LIBS: usize = 2;
const STONES: usize = 3;

/// The undo journal of a board: the old value of every array cell written,
/// and the superko entries added, in order.
#[derive(Clone, Debug, Default)]
struct Journal {
    /// `array << 28 | cell << 16 | old value` (cells < 4096, see
    /// [`MAX_CELLS`]).
    writes: Vec<u32>,
    seen: Vec<u64>,
}

/// Which array a journal entry restores.
const J_CELLS: u32 = 0;
const J_NEXT: u32 = 1;
const J_HEAD: u32 = 2;
const J_LIBS: u32 = 3;
const J_STONES: u32 = 4;
#[cfg(feature = "index")]
const BLACK_U32: u32 = BLACK as u32;
#[cfg(feature = "index")]
const WHITE_U32: u32 = WHITE as u32;

/// A point in a board's history to go back to ([`Board::mark`],
/// [`Board::undo_to`]): what the journal held then, and the small state
/// that is saved whole.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mark {
    writes: usize,
    seen: usize,
    hash: u64,
    ko: Option<(u16, u8)>,
    prisoners: [u32; 2],
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Board {}×{}, hash {:016x}",
            self.size.cols, self.size.rows, self.hash
        )?;
        f.write_str(&self.diagram())
    }
}

/// The heads of the opponent chains a stone left without liberties (at
/// most its four neighbours').
#[derive(Clone, Copy, Default)]
struct Dead {
    heads: [usize; 4],
    len: usize,
}

/// What a legal move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Played {
    /// Opponent stones taken off.
    pub captured: u32,
    /// Own stones taken off (a suicide the rules allow).
    pub suicided: u32,
}

impl Board {
    /// An empty board of `size` (sides above 52 are cut to 52).
    pub fn new(size: BoardSize, rules: RuleSet) -> Board {
        let mut board = Board {
            size,
            rules,
            stride: 0,
            cells: Vec::new(),
            links: Vec::new(),
            ko: None,
            prisoners: [0; 2],
            hash: 0,
            seen: Seen::default(),
            journal: None,
            spare: None,
            changes: 0,
            stamp: Vec::new(),
            target: Vec::new(),
            dirty: Vec::new(),
            epoch: 0,
        };
        board.reset(size, rules);
        board
    }

    /// Makes this board an empty one of `size` under `rules`, as
    /// [`Board::new`] would, keeping its allocations (and its journal, if
    /// kept, emptied): for a scan of many games.
    pub(crate) fn reset(&mut self, size: BoardSize, rules: RuleSet) {
        let size = BoardSize {
            cols: size.cols.min(MAX_SIDE as u8),
            rows: size.rows.min(MAX_SIDE as u8),
        };
        let stride = size.cols as usize + 2;
        let cells_len = stride * (size.rows as usize + 2);
        self.cells.resize(cells_len, EDGE);
        self.cells.fill(EDGE);
        for row in self
            .cells
            .chunks_exact_mut(stride)
            .skip(1)
            .take(size.rows as usize)
        {
            row[1..=size.cols as usize].fill(EMPTY);
        }
        self.links.resize(cells_len, [0; 4]);
        self.links.fill([0; 4]);
        self.size = size;
        self.rules = rules;
        self.stride = stride;
        self.ko = None;
        self.prisoners = [0; 2];
        self.hash = 0;
        // An empty set costs nothing to clear; a large one is let go.
        if self.seen.capacity() > 1 << 16 {
            self.seen = Seen::default();
        } else if !self.seen.is_empty() {
            self.seen.clear();
        }
        if let Some(j) = self.journal.as_mut() {
            j.writes.clear();
            j.seen.clear();
        }
        self.changes = 0;
        // `stamp`, `target` and `dirty` stay: a stamp of an earlier epoch
        // means nothing, and a board of another size makes them again.
        self.remember();
    }

    /// Starts keeping the undo journal (from the position as it is now).
    pub(crate) fn keep_journal(&mut self) {
        self.set_journal(true);
    }

    /// Keeps the undo journal from now on, or stops keeping it (its
    /// buffers put aside for the next time): a replay that will never go
    /// back (a game without variations) writes half as much.
    pub(crate) fn set_journal(&mut self, on: bool) {
        if on == self.journal.is_some() {
            return;
        }
        if on {
            let mut journal = self.spare.take().unwrap_or_default();
            journal.writes.clear();
            journal.seen.clear();
            self.journal = Some(journal);
        } else {
            self.spare = self.journal.take();
        }
    }

    /// The position now, to come back to with [`Board::undo_to`] (which
    /// needs the journal kept since then).
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            writes: self.journal.as_ref().map_or(0, |j| j.writes.len()),
            seen: self.journal.as_ref().map_or(0, |j| j.seen.len()),
            hash: self.hash,
            ko: self.ko,
            prisoners: self.prisoners,
        }
    }

    /// Undoes every change made since `mark`, in time proportional to
    /// those changes: stones, chains, liberties, superko history, ko,
    /// prisoners and hash are as they were then.
    pub(crate) fn undo_to(&mut self, mark: &Mark) {
        let Some(journal) = self.journal.as_mut() else {
            return;
        };
        for &entry in journal.writes[mark.writes..].iter().rev() {
            let i = (entry >> 16 & 0xfff) as usize;
            let old = (entry & 0xffff) as u16;
            match entry >> 28 {
                J_CELLS => self.cells[i] = (old & 0xff) as u8,
                J_NEXT => self.links[i][NEXT] = old,
                J_HEAD => self.links[i][HEAD] = old,
                J_LIBS => self.links[i][LIBS] = old,
                _ => self.links[i][STONES] = old,
            }
        }
        journal.writes.truncate(mark.writes);
        for h in journal.seen.drain(mark.seen..) {
            self.seen.remove(&h);
        }
        self.hash = mark.hash;
        self.ko = mark.ko;
        self.prisoners = mark.prisoners;
    }

    /// How many stones were put on or taken off since the board was made.
    pub(crate) fn changes(&self) -> u64 {
        self.changes
    }

    /// Records the old value of `array[i]` in the journal, if kept.
    #[inline(always)]
    fn log(&mut self, array: u32, i: usize, old: u16) {
        if let Some(j) = self.journal.as_mut() {
            j.writes
                .push(array << 28 | (i as u32) << 16 | u32::from(old));
        }
    }

    /// Writes cell `i`; its journal entry keeps the new value too (high
    /// byte), for [`Board::cell_changes_since`].
    #[inline]
    fn set_cell<const J: bool>(&mut self, i: usize, v: u8) {
        if J {
            self.log(J_CELLS, i, u16::from(v) << 8 | u16::from(self.cells[i]));
        }
        self.cells[i] = v;
    }

    /// Calls `f(point, old, new)` for every stone put on or taken off
    /// since `mark`, in order (`None`: empty). Needs the journal.
    #[cfg(feature = "index")]
    pub(crate) fn cell_changes_since(
        &self,
        mark: &Mark,
        mut f: impl FnMut(Point, Option<Color>, Option<Color>),
    ) {
        let Some(journal) = self.journal.as_ref() else {
            return;
        };
        let color = |c: u32| match c {
            BLACK_U32 => Some(Color::Black),
            WHITE_U32 => Some(Color::White),
            _ => None,
        };
        for &entry in &journal.writes[mark.writes..] {
            if entry >> 28 == J_CELLS {
                let i = (entry >> 16 & 0xfff) as usize;
                f(self.point(i), color(entry & 0xff), color(entry >> 8 & 0xff));
            }
        }
    }

    #[inline]
    fn set_next<const J: bool>(&mut self, i: usize, v: u16) {
        if J {
            self.log(J_NEXT, i, self.links[i][NEXT]);
        }
        self.links[i][NEXT] = v;
    }

    #[inline]
    fn set_head<const J: bool>(&mut self, i: usize, v: u16) {
        if J {
            self.log(J_HEAD, i, self.links[i][HEAD]);
        }
        self.links[i][HEAD] = v;
    }

    #[inline]
    fn set_libs<const J: bool>(&mut self, i: usize, v: u16) {
        if J {
            self.log(J_LIBS, i, self.links[i][LIBS]);
        }
        self.links[i][LIBS] = v;
    }

    #[inline]
    fn set_stones<const J: bool>(&mut self, i: usize, v: u16) {
        if J {
            self.log(J_STONES, i, self.links[i][STONES]);
        }
        self.links[i][STONES] = v;
    }

    /// Adds a position to the superko history (journalled when new).
    fn see(&mut self, h: u64) {
        if self.seen.insert(h)
            && let Some(j) = self.journal.as_mut()
        {
            j.seen.push(h);
        }
    }

    /// The board's size.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The rules it follows.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    #[inline]
    fn cell(&self, p: Point) -> Option<usize> {
        self.size
            .contains(p)
            .then(|| (p.y as usize + 1) * self.stride + p.x as usize + 1)
    }

    #[inline]
    fn point(&self, i: usize) -> Point {
        Point {
            x: (i % self.stride - 1) as u8,
            y: (i / self.stride - 1) as u8,
        }
    }

    #[inline]
    fn neighbours(&self, i: usize) -> [usize; 4] {
        [i - 1, i + 1, i - self.stride, i + self.stride]
    }

    /// The stone at `p`, if any (`None` off the board too).
    pub fn get(&self, p: Point) -> Option<Color> {
        match self.cells[self.cell(p)?] {
            BLACK => Some(Color::Black),
            WHITE => Some(Color::White),
            _ => None,
        }
    }

    /// Every stone of `color`, row by row.
    pub fn stones(&self, color: Color) -> impl Iterator<Item = Point> + '_ {
        let want = code(color);
        (0..self.cells.len())
            .filter(move |&i| self.cells[i] == want)
            .map(|i| self.point(i))
    }

    /// The prisoners `color` has taken (stones of the other colour
    /// captured, and the other side's own stones taken off by a suicide).
    pub fn captures(&self, color: Color) -> u32 {
        self.prisoners[code(color) as usize - 1]
    }

    /// The point the basic ko forbids to retake now (to the player whose
    /// stone was just taken), if any.
    pub fn ko(&self) -> Option<Point> {
        self.ko.map(|(i, _)| self.point(i as usize))
    }

    /// The Zobrist hash of the stones on the board.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash of the position with `to_play` to move (and the ko point,
    /// which changes what may be played): what situational rules compare.
    pub fn hash_with(&self, to_play: Color) -> u64 {
        let mut h = self.hash;
        if to_play == Color::White {
            h ^= WHITE_TO_PLAY;
        }
        if let Some((ko, forbidden)) = self.ko
            && forbidden == code(to_play)
        {
            h ^= KEYS[0][ko as usize].rotate_left(17);
        }
        h
    }

    /// The hash of the stones under each of the 8 symmetries (in the order
    /// of [`Symmetry::ALL`]), each on the board that symmetry gives (the
    /// size is part of the hash): a position and its rotated or reflected
    /// copy have the same 8 values, in another order. Computed from the
    /// stones (a few thousand operations on a full 19×19 board); not the
    /// same function as [`Board::hash`].
    pub fn symmetric_hashes(&self) -> [u64; 8] {
        let mut out = [0u64; 8];
        for (h, s) in out.iter_mut().zip(Symmetry::ALL) {
            let to = s.board_size(self.size);
            *h = size_key(to);
        }
        for i in 0..self.cells.len() {
            let c = self.cells[i];
            if c != BLACK && c != WHITE {
                continue;
            }
            let p = self.point(i);
            for (h, s) in out.iter_mut().zip(Symmetry::ALL) {
                let q = s.apply(p, self.size);
                *h ^= KEYS[c as usize - 1][(q.y as usize + 1) * (MAX_SIDE + 2) + q.x as usize + 1];
            }
        }
        out
    }

    /// What one stone of `color` at `p` adds (by exclusive or) to each of
    /// [`Board::symmetric_hashes`]: lets a replay keep the 8 hashes up to
    /// date move by move instead of computing them from every stone.
    #[cfg(feature = "index")]
    pub(crate) fn symmetric_stone_keys(&self, p: Point, color: Color) -> [u64; 8] {
        let mut out = [0u64; 8];
        let c = code(color) as usize - 1;
        for (h, s) in out.iter_mut().zip(Symmetry::ALL) {
            let q = s.apply(p, self.size);
            *h = KEYS[c][(q.y as usize + 1) * (MAX_SIDE + 2) + q.x as usize + 1];
        }
        out
    }

    /// The smallest of [`Board::symmetric_hashes`] and the symmetry that
    /// gives it: the same for every rotation and reflection of a position.
    ///
    /// ```
    /// use sgf_grove::game::board::{Board, RuleSet};
    /// use sgf_grove::value::{BoardSize, Color, Point};
    /// let size = BoardSize::square(19);
    /// let (mut a, mut b) = (Board::new(size, RuleSet::JAPANESE), Board::new(size, RuleSet::JAPANESE));
    /// a.play(Color::Black, Point { x: 15, y: 3 }).unwrap(); // pd
    /// b.play(Color::Black, Point { x: 3, y: 15 }).unwrap(); // dp
    /// assert_ne!(a.hash(), b.hash());
    /// assert_eq!(a.canonical_hash().0, b.canonical_hash().0);
    /// ```
    pub fn canonical_hash(&self) -> (u64, Symmetry) {
        let hashes = self.symmetric_hashes();
        let mut best = (hashes[0], Symmetry::Identity);
        for (h, s) in hashes.into_iter().zip(Symmetry::ALL).skip(1) {
            if h < best.0 {
                best = (h, s);
            }
        }
        best
    }

    /// Records the position for superko.
    fn remember(&mut self) {
        match self.rules.ko {
            KoRule::Positional => self.see(self.hash),
            KoRule::Situational => {
                // Remembered with the player who moves next, for each.
                self.see(self.hash);
                self.see(self.hash ^ WHITE_TO_PLAY);
            }
            _ => {}
        }
    }

    /// Puts `stone` on `p`, or empties it (setup: `AB`, `AW`, `AE`): no
    /// capture, no ko. Returns false when `p` is off the board. Under a
    /// superko rule the position is remembered; to set several points
    /// at once (one node's setup) use [`Board::setup`], which remembers
    /// only the position they make together.
    pub fn set(&mut self, p: Point, stone: Option<Color>) -> bool {
        self.setup([(p, stone)]) == 1
    }

    /// Sets every point of `changes` as [`Board::set`] does, then
    /// remembers for superko the one position they make together (not
    /// the positions in between, which were never on the board). Returns
    /// how many points were on the board.
    ///
    /// A point costs a few memory accesses when its stone stays as it was;
    /// the chains that lose a stone are taken apart and built again once,
    /// after all the points: the work is proportional to the points given
    /// and the stones of the chains they change.
    ///
    /// ```
    /// use sgf_grove::game::board::{Board, RuleSet};
    /// use sgf_grove::value::{BoardSize, Color, Point};
    /// let mut board = Board::new(BoardSize::square(9), RuleSet::NEW_ZEALAND);
    /// let stones = [(Point { x: 0, y: 0 }, Some(Color::Black)), (Point { x: 9, y: 9 }, None)];
    /// assert_eq!(board.setup(stones), 1);
    /// assert_eq!(board.get(Point { x: 0, y: 0 }), Some(Color::Black));
    /// ```
    pub fn setup<I>(&mut self, changes: I) -> usize
    where
        I: IntoIterator<Item = (Point, Option<Color>)>,
    {
        if self.stamp.len() != self.cells.len() {
            // Made at the first setup: most boards see moves alone.
            let len = self.cells.len();
            self.stamp = vec![0; len];
            self.target = vec![0; len];
            self.dirty = vec![0; len];
            self.epoch = 0;
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.fill(0);
            self.dirty.fill(0);
            self.epoch = 1;
        }
        let epoch = self.epoch;
        // The last value given for each cell, and the cells in the order
        // first given.
        let mut touched: Vec<usize> = Vec::new();
        let mut set = 0;
        for (p, stone) in changes {
            let Some(i) = self.cell(p) else { continue };
            set += 1;
            if self.stamp[i] != epoch {
                self.stamp[i] = epoch;
                touched.push(i);
            }
            self.target[i] = stone.map_or(EMPTY, code);
        }
        if set == 0 {
            return 0;
        }
        self.ko = None;
        if self.journal.is_some() {
            self.apply_setup::<true>(&touched);
        } else {
            self.apply_setup::<false>(&touched);
        }
        self.remember_setup();
        set
    }

    /// Gives each of `touched` its colour in `target`: the chains that lose
    /// or change a stone are lifted whole, then every stone that should be
    /// on their points is put back (chains and liberties built again), and
    /// the new stones placed.
    fn apply_setup<const J: bool>(&mut self, touched: &[usize]) {
        let epoch = self.epoch;
        let mut lifted: Vec<(usize, u8)> = Vec::new();
        for &i in touched {
            let now = self.cells[i];
            if now == self.target[i] || now == EMPTY {
                continue;
            }
            let h = self.links[i][HEAD] as usize;
            if self.dirty[h] == epoch {
                continue;
            }
            self.dirty[h] = epoch;
            let mut s = h;
            loop {
                lifted.push((s, now));
                s = self.links[s][NEXT] as usize;
                if s == h {
                    break;
                }
            }
        }
        for &(s, c) in &lifted {
            self.set_cell::<J>(s, EMPTY);
            self.hash ^= key(c, s);
        }
        self.changes += lifted.len() as u64;
        // The chains left give a liberty to each lifted neighbour.
        for &(s, _) in &lifted {
            for n in self.neighbours(s) {
                if matches!(self.cells[n], BLACK | WHITE) {
                    let h = self.links[n][HEAD] as usize;
                    self.set_libs::<J>(h, self.links[h][LIBS] + 1);
                }
            }
        }
        for &(s, c) in &lifted {
            let want = if self.stamp[s] == epoch {
                self.target[s]
            } else {
                c
            };
            if want != EMPTY {
                self.place::<J>(s, want);
            }
        }
        for &i in touched {
            let want = self.target[i];
            if want != EMPTY && self.cells[i] == EMPTY {
                self.place::<J>(i, want);
            }
        }
    }

    fn remember_setup(&mut self) {
        if self.rules.ko == KoRule::Positional || self.rules.ko == KoRule::Situational {
            self.remember();
        }
    }

    /// Puts colour `c` on empty cell `i`, joining it to its friendly
    /// neighbours' chains (the largest takes the stone and the others);
    /// captures nothing. Returns the opponent chains the stone took the
    /// last liberty of (each once: a count reaches zero once), by head.
    #[inline(always)]
    fn place<const J: bool>(&mut self, i: usize, c: u8) -> Dead {
        self.set_cell::<J>(i, c);
        self.changes += 1;
        self.hash ^= key(c, i);
        let mut libs = 0;
        let mut friends = [0usize; 4];
        let mut nf = 0;
        let mut dead = Dead::default();
        for n in self.neighbours(i) {
            let cell = self.cells[n];
            if !J {
                // Without branches on the neighbours' colours (hard to
                // predict): an empty or edge cell subtracts nothing from
                // whatever its stale head holds, and is not counted.
                let stone = u16::from((cell ^ cell >> 1) & 1);
                let h = self.links[n][HEAD] as usize;
                let left = self.links[h][LIBS] - stone;
                self.links[h][LIBS] = left;
                libs += u16::from(cell == EMPTY);
                friends[nf] = h;
                nf += usize::from(cell == c);
                dead.heads[dead.len] = h;
                dead.len += usize::from(cell == opponent(c) && left == 0);
                continue;
            }
            if cell == EMPTY {
                libs += 1;
            } else if cell != EDGE {
                let h = self.links[n][HEAD] as usize;
                let left = self.links[h][LIBS] - 1;
                self.set_libs::<J>(h, left);
                if cell == c {
                    friends[nf] = h;
                    nf += 1;
                } else if left == 0 {
                    dead.heads[dead.len] = h;
                    dead.len += 1;
                }
            }
        }
        if nf == 0 {
            self.set_head::<J>(i, i as u16);
            self.set_next::<J>(i, i as u16);
            self.set_stones::<J>(i, 1);
            self.set_libs::<J>(i, libs);
            return dead;
        }
        let mut big = friends[0];
        for &h in &friends[1..nf] {
            if self.links[h][STONES] > self.links[big][STONES] {
                big = h;
            }
        }
        self.set_head::<J>(i, big as u16);
        self.set_next::<J>(i, self.links[big][NEXT]);
        self.set_next::<J>(big, i as u16);
        self.set_stones::<J>(big, self.links[big][STONES] + 1);
        self.set_libs::<J>(big, self.links[big][LIBS] + libs);
        for &h in &friends[..nf] {
            // `big` itself, or joined already when reached twice.
            if self.links[h][HEAD] as usize != big {
                self.merge::<J>(big, h);
            }
        }
        dead
    }

    /// Merges the chains headed by `a` and `b`, relabelling the smaller.
    fn merge<const J: bool>(&mut self, a: usize, b: usize) {
        let (big, small) = if self.links[a][STONES] >= self.links[b][STONES] {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = small;
        loop {
            self.set_head::<J>(s, big as u16);
            s = self.links[s][NEXT] as usize;
            if s == small {
                break;
            }
        }
        let (nb, ns) = (self.links[big][NEXT], self.links[small][NEXT]);
        self.set_next::<J>(big, ns);
        self.set_next::<J>(small, nb);
        self.set_stones::<J>(big, self.links[big][STONES] + self.links[small][STONES]);
        self.set_libs::<J>(big, self.links[big][LIBS] + self.links[small][LIBS]);
    }

    /// Takes the chain headed by `h` off the board; returns its stones and
    /// the last one taken off.
    fn capture<const J: bool>(&mut self, h: usize) -> (u32, usize) {
        let c = self.cells[h];
        let count = self.links[h][STONES] as u32;
        self.changes += u64::from(count);
        let mut s = h;
        loop {
            let after = self.links[s][NEXT] as usize;
            self.set_cell::<J>(s, EMPTY);
            self.hash ^= key(c, s);
            s = after;
            if s == h {
                break;
            }
        }
        // Liberties for the neighbours, once the chain is gone.
        let mut s = h;
        loop {
            for n in self.neighbours(s) {
                if matches!(self.cells[n], BLACK | WHITE) {
                    let nh = self.links[n][HEAD] as usize;
                    self.set_libs::<J>(nh, self.links[nh][LIBS] + 1);
                }
            }
            s = self.links[s][NEXT] as usize;
            if s == h {
                break;
            }
        }
        (count, s)
    }

    /// The hash the board would have after `c` plays at empty cell `i`,
    /// with what it captures; used only by superko rules.
    fn hash_after(&self, i: usize, c: u8) -> u64 {
        let mut h = self.hash ^ key(c, i);
        let mut taken: [usize; 4] = [usize::MAX; 4];
        let mut any_capture = false;
        for (k, n) in self.neighbours(i).into_iter().enumerate() {
            if self.cells[n] != opponent(c) {
                continue;
            }
            let head = self.links[n][HEAD] as usize;
            if taken.contains(&head) {
                continue;
            }
            let touching = self
                .neighbours(i)
                .iter()
                .filter(|&&m| self.cells[m] != EMPTY && self.cells[m] != EDGE)
                .filter(|&&m| self.links[m][HEAD] as usize == head)
                .count() as u16;
            if self.links[head][LIBS] == touching {
                taken[k] = head;
                any_capture = true;
                let mut s = head;
                loop {
                    h ^= key(opponent(c), s);
                    s = self.links[s][NEXT] as usize;
                    if s == head {
                        break;
                    }
                }
            }
        }
        if !any_capture && self.rules.suicide && self.is_suicide(i, c) {
            // A suicide takes the new chain off: its stones, the new one
            // and the friendly chains it joins, if they have no other
            // liberty. Rare: the board is copied to find out.
            let mut copy = self.scratch_copy();
            let _ = copy.play_code::<false>(i, c);
            return copy.hash;
        }
        h
    }

    /// A copy of the stones to try a move on: no superko history, no
    /// journal, no repetition rule (cost: the arrays, never the history).
    fn scratch_copy(&self) -> Board {
        Board {
            size: self.size,
            rules: RuleSet {
                ko: KoRule::None,
                suicide: self.rules.suicide,
            },
            stride: self.stride,
            cells: self.cells.clone(),
            links: self.links.clone(),
            ko: self.ko,
            prisoners: self.prisoners,
            hash: self.hash,
            seen: Seen::default(),
            journal: None,
            spare: None,
            changes: 0,
            stamp: Vec::new(),
            target: Vec::new(),
            dirty: Vec::new(),
            epoch: 0,
        }
    }

    /// `color` plays at `p` under the board's rules.
    ///
    /// # Errors
    ///
    /// The [`Illegal`] reason, and the board is left as it was.
    pub fn play(&mut self, color: Color, p: Point) -> Result<Played, Illegal> {
        let i = self.cell(p).ok_or(Illegal::OffBoard)?;
        let c = code(color);
        match self.rules.ko {
            KoRule::Positional | KoRule::Situational => {}
            // The checks of `check_cell` without the superko history.
            ko => {
                if self.cells[i] != EMPTY {
                    return Err(Illegal::Occupied);
                }
                if ko == KoRule::Simple && self.ko == Some((i as u16, c)) {
                    return Err(Illegal::Ko);
                }
                if !self.rules.suicide && self.is_suicide(i, c) {
                    return Err(Illegal::Suicide);
                }
                return Ok(self.play_code_any(i, c));
            }
        }
        self.check_cell(i, c)?;
        let played = self.play_code_any(i, c);
        match self.rules.ko {
            KoRule::Situational => {
                let next = if color == Color::Black {
                    self.hash ^ WHITE_TO_PLAY
                } else {
                    self.hash
                };
                self.see(next);
            }
            _ => self.see(self.hash),
        }
        Ok(played)
    }

    /// Whether `color` may play at `p` now, as [`Board::play`] would
    /// decide, without playing.
    ///
    /// ```
    /// use sgf_grove::game::board::{Board, Illegal, RuleSet};
    /// use sgf_grove::value::{BoardSize, Color, Point};
    /// let mut board = Board::new(BoardSize::square(9), RuleSet::CHINESE);
    /// board.play(Color::Black, Point { x: 2, y: 2 })?;
    /// assert_eq!(board.check_play(Color::White, Point { x: 2, y: 2 }), Err(Illegal::Occupied));
    /// assert_eq!(board.check_play(Color::White, Point { x: 3, y: 2 }), Ok(()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The [`Illegal`] reason.
    pub fn check_play(&self, color: Color, p: Point) -> Result<(), Illegal> {
        let i = self.cell(p).ok_or(Illegal::OffBoard)?;
        self.check_cell(i, code(color))
    }

    /// The legality checks of a move of `c` at cell `i`, in order.
    fn check_cell(&self, i: usize, c: u8) -> Result<(), Illegal> {
        if self.cells[i] != EMPTY {
            return Err(Illegal::Occupied);
        }
        if self.ko == Some((i as u16, c)) && self.rules.ko != KoRule::None {
            return Err(Illegal::Ko);
        }
        if matches!(self.rules.ko, KoRule::Positional | KoRule::Situational) {
            let after = self.hash_after(i, c);
            let key = match self.rules.ko {
                KoRule::Situational if c == BLACK => after ^ WHITE_TO_PLAY,
                _ => after,
            };
            if self.seen.contains(&key) {
                return Err(Illegal::Superko);
            }
        }
        if !self.rules.suicide && self.is_suicide(i, c) {
            return Err(Illegal::Suicide);
        }
        Ok(())
    }

    /// `color` plays at empty point `p` with captures but without the
    /// repetition rule (a replay keeps a retaken ko that the record's rules
    /// allowed); nothing happens on an occupied or off-board point.
    pub fn play_repeating(&mut self, color: Color, p: Point) -> Played {
        match self.cell(p) {
            Some(i) if self.cells[i] == EMPTY => {
                let played = self.play_code_any(i, code(color));
                self.remember_setup();
                played
            }
            _ => Played::default(),
        }
    }

    /// Whether `c` at empty cell `i` would capture nothing and leave its
    /// chain without liberties.
    #[inline(always)]
    fn is_suicide(&self, i: usize, c: u8) -> bool {
        // Most moves have an empty neighbour: decided without the chains.
        let [a, b, d, e] = self.neighbours(i);
        let cells = &self.cells;
        if cells[a] == EMPTY || cells[b] == EMPTY || cells[d] == EMPTY || cells[e] == EMPTY {
            return false;
        }
        self.is_suicide_surrounded(i, c)
    }

    /// [`Board::is_suicide`] for a point without an empty neighbour.
    #[inline(never)]
    fn is_suicide_surrounded(&self, i: usize, c: u8) -> bool {
        let ns = self.neighbours(i);
        for n in ns {
            match self.cells[n] {
                EMPTY => return false,
                EDGE => {}
                cell => {
                    let head = self.links[n][HEAD] as usize;
                    let touching = ns
                        .iter()
                        .filter(|&&m| matches!(self.cells[m], BLACK | WHITE))
                        .filter(|&&m| self.links[m][HEAD] as usize == head)
                        .count() as u16;
                    // A friendly chain with a liberty elsewhere, or an
                    // opponent chain captured by the move.
                    if (cell == c) == (self.links[head][LIBS] > touching) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// [`Board::play_code`], journalled when the journal is kept (the two
    /// are compiled apart: a board without a journal pays nothing for it).
    #[inline(always)]
    fn play_code_any(&mut self, i: usize, c: u8) -> Played {
        if self.journal.is_some() {
            self.play_code::<true>(i, c)
        } else {
            self.play_code::<false>(i, c)
        }
    }

    /// Plays `c` at empty cell `i` with no legality check but the capture
    /// rules; a suicide takes its own chain off. `J`: keep the journal.
    #[inline(always)]
    fn play_code<const J: bool>(&mut self, i: usize, c: u8) -> Played {
        let dead = self.place::<J>(i, c);
        let mut played = Played::default();
        let mut last_taken = 0;
        for &h in &dead.heads[..dead.len] {
            let (count, at) = self.capture::<J>(h);
            played.captured += count;
            last_taken = at;
        }
        let me = c as usize - 1;
        self.prisoners[me] += played.captured;
        let h = self.links[i][HEAD] as usize;
        self.ko = None;
        if self.links[h][LIBS] == 0 {
            let (count, _) = self.capture::<J>(h);
            played.suicided = count;
            self.prisoners[1 - me] += count;
        } else if played.captured == 1 && self.links[h][STONES] == 1 && self.links[h][LIBS] == 1 {
            self.ko = Some((last_taken as u16, opponent(c)));
        }
        played
    }

    /// A pass by `color`: clears the ko.
    pub fn pass(&mut self, _color: Color) {
        self.ko = None;
    }

    /// Every point's stone, row by row (`y`, then `x`), into `out`: `0`
    /// empty, `1` black, `2` white. One pass over the board, for code that
    /// reads whole positions (feature planes, exports).
    pub fn codes(&self, out: &mut Vec<u8>) {
        let cols = usize::from(self.size.cols);
        out.clear();
        for y in 0..usize::from(self.size.rows) {
            let start = (y + 1) * self.stride + 1;
            out.extend_from_slice(&self.cells[start..start + cols]);
        }
    }

    /// Every point's count of liberties, row by row (`y`, then `x`), into
    /// `out`: for a stone, the empty points next to its chain (at most
    /// 255); `0` for an empty point. A chain without liberties (a setup may
    /// leave one) counts `0` too.
    pub fn liberty_counts(&self, out: &mut Vec<u8>) {
        let (cols, rows) = (usize::from(self.size.cols), usize::from(self.size.rows));
        out.clear();
        out.resize(cols * rows, 0);
        // Per cell: the chain that last counted it as a liberty (a stamp),
        // and at each chain's head, its count plus one once counted.
        let mut stamp = vec![0u16; self.cells.len()];
        let mut count = vec![0u16; self.cells.len()];
        let mut chain = 0u16;
        for y in 0..rows {
            for x in 0..cols {
                let i = (y + 1) * self.stride + x + 1;
                if !matches!(self.cells[i], BLACK | WHITE) {
                    continue;
                }
                let head = usize::from(self.links[i][HEAD]);
                if count[head] == 0 {
                    chain += 1;
                    let mut libs = 0u16;
                    let mut s = head;
                    loop {
                        for n in self.neighbours(s) {
                            if self.cells[n] == EMPTY && stamp[n] != chain {
                                stamp[n] = chain;
                                libs += 1;
                            }
                        }
                        s = usize::from(self.links[s][NEXT]);
                        if s == head {
                            break;
                        }
                    }
                    count[head] = libs + 1;
                }
                out[y * cols + x] = (count[head] - 1).min(255) as u8;
            }
        }
    }

    /// The position as text: `X` black, `O` white, `.` empty, one row per
    /// line.
    pub fn diagram(&self) -> String {
        let mut out = String::new();
        for y in 0..self.size.rows {
            for x in 0..self.size.cols {
                out.push(match self.get(Point { x, y }) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                });
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
#[path = "board_tests.rs"]
mod tests;
