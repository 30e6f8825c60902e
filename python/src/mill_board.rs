//! The board behind `sgf_grove.sgfmill.boards.Board`: sgfmill's rules on
//! the library's board.
//!
//! sgfmill's `Board.play` places a stone, takes off the opponent's chains
//! left without liberties, takes off the player's own chain when it is left
//! without liberties (self-capture is a move), enforces no repetition rule,
//! and returns the point a simple ko forbids (one stone taken by a lone
//! stone left with that one liberty). Those are the library's
//! [`LibBoard::play`] rules with `RuleSet { ko: KoRule::None, suicide:
//! true }`, and its [`LibBoard::ko`] is that point: play is the library's.
//!
//! What sgfmill does that the library does not, and so is here: a setup
//! (`apply_setup`) that then takes off every chain without liberties and
//! tells whether there was one, and the area score of sgfmill (every stone
//! alive; an empty region counts for each colour that borders it).
//! Points are sgfmill's `(row, col)`, row 0 at the bottom; the library's
//! `(x, y)` has y 0 at the top.

use crate::core::Game;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use sgf_grove::game::board::{Board as LibBoard, KoRule, RuleSet};
use sgf_grove::value::{BoardSize, Color, Point};

/// sgfmill's rules: self-capture allowed, no repetition rule.
const MILL_RULES: RuleSet = RuleSet {
    ko: KoRule::None,
    suicide: true,
};

/// The largest side: the library's boards go up to 52 points.
const MAX_SIDE: i64 = 52;

/// A Go position with sgfmill's `Board` API (see `sgf_grove.sgfmill.boards`).
#[pyclass(subclass, module = "sgf_grove._native")]
pub struct MillBoard {
    side: u8,
    board: LibBoard,
}

fn colour_of(colour: &Bound<'_, PyAny>) -> PyResult<Color> {
    // `String`: the stable ABI lends no `&str`.
    match colour.extract::<String>().as_deref() {
        Ok("b") => Ok(Color::Black),
        Ok("w") => Ok(Color::White),
        _ => Err(PyValueError::new_err(format!("bad colour: {colour}"))),
    }
}

fn colour_name(c: Color) -> &'static str {
    match c {
        Color::Black => "b",
        Color::White => "w",
    }
}

impl MillBoard {
    /// The library's point of `(row, col)`, `IndexError` off the board.
    fn point(&self, row: i64, col: i64) -> PyResult<Point> {
        let side = i64::from(self.side);
        if !(0..side).contains(&row) || !(0..side).contains(&col) {
            return Err(PyIndexError::new_err(format!(
                "point ({row}, {col}) is off a board of size {side}"
            )));
        }
        Ok(Point {
            x: col as u8,
            y: (side - 1 - row) as u8,
        })
    }

    /// sgfmill's `(row, col)` of a library point.
    fn row_col(&self, p: Point) -> (u8, u8) {
        (self.side - 1 - p.y, p.x)
    }

    /// The stones, row by row from the top as the library numbers them
    /// (0 empty, 1 black, 2 white).
    fn grid(&self) -> Vec<u8> {
        let n = self.side as usize;
        let mut cells = vec![0u8; n * n];
        for (colour, code) in [(Color::Black, 1u8), (Color::White, 2u8)] {
            for p in self.board.stones(colour) {
                cells[p.y as usize * n + p.x as usize] = code;
            }
        }
        cells
    }

    fn points_of(&self, list: &Bound<'_, PyAny>) -> PyResult<Vec<Point>> {
        let mut out = Vec::new();
        for item in list.try_iter()? {
            let (row, col): (i64, i64) = item?.extract()?;
            out.push(self.point(row, col)?);
        }
        Ok(out)
    }
}

/// The regions of equal cells of `grid` (side `n`): for each cell, the
/// number of its region, and each region's cells.
fn regions(grid: &[u8], n: usize) -> (Vec<usize>, Vec<Vec<usize>>) {
    let mut region = vec![usize::MAX; grid.len()];
    let mut all: Vec<Vec<usize>> = Vec::new();
    let mut stack = Vec::new();
    for start in 0..grid.len() {
        if region[start] != usize::MAX {
            continue;
        }
        let id = all.len();
        let mut cells = Vec::new();
        region[start] = id;
        stack.push(start);
        while let Some(i) = stack.pop() {
            cells.push(i);
            let (x, y) = (i % n, i / n);
            let mut look = |j: usize| {
                if region[j] == usize::MAX && grid[j] == grid[i] {
                    region[j] = id;
                    stack.push(j);
                }
            };
            if x > 0 {
                look(i - 1);
            }
            if x + 1 < n {
                look(i + 1);
            }
            if y > 0 {
                look(i - n);
            }
            if y + 1 < n {
                look(i + n);
            }
        }
        all.push(cells);
    }
    (region, all)
}

/// The neighbours of cell `i` on a board of side `n`.
fn neighbours(i: usize, n: usize) -> impl Iterator<Item = usize> {
    let (x, y) = (i % n, i / n);
    [
        (x > 0).then(|| i.wrapping_sub(1)),
        (x + 1 < n).then_some(i + 1),
        (y > 0).then(|| i.wrapping_sub(n)),
        (y + 1 < n).then_some(i + n),
    ]
    .into_iter()
    .flatten()
}

#[pymethods]
impl MillBoard {
    #[new]
    fn new(side: i64) -> PyResult<MillBoard> {
        if !(2..=MAX_SIDE).contains(&side) {
            return Err(PyValueError::new_err(format!(
                "board size out of range: {side} (2 to {MAX_SIDE})"
            )));
        }
        let side = side as u8;
        Ok(MillBoard {
            side,
            board: LibBoard::new(BoardSize::square(side), MILL_RULES),
        })
    }

    /// The board's size (points on a side).
    #[getter]
    fn side(&self) -> u8 {
        self.side
    }

    /// `colour` (`'b'` or `'w'`) plays at `(row, col)`: captures, then a
    /// self-capture when the move's own chain has no liberty left; no ko
    /// rule. Returns the point the simple ko forbids next, or `None`.
    ///
    /// `IndexError` off the board, `ValueError` for a bad colour or an
    /// occupied point (the board is then unchanged).
    fn play(
        &mut self,
        row: i64,
        col: i64,
        colour: &Bound<'_, PyAny>,
    ) -> PyResult<Option<(u8, u8)>> {
        if row < 0 || col < 0 {
            return Err(PyIndexError::new_err("negative coordinate"));
        }
        let c = colour_of(colour)?;
        let p = self.point(row, col)?;
        match self.board.play(c, p) {
            Ok(_) => Ok(self.board.ko().map(|k| self.row_col(k))),
            Err(e) => Err(PyValueError::new_err(format!(
                "can't play at ({row}, {col}): {e}"
            ))),
        }
    }

    /// The colour at `(row, col)` (`'b'`, `'w'`), `None` when empty;
    /// `IndexError` off the board.
    fn get(&self, row: i64, col: i64) -> PyResult<Option<&'static str>> {
        let p = self.point(row, col)?;
        Ok(self.board.get(p).map(colour_name))
    }

    /// Whether no stone is on the board.
    fn is_empty(&self) -> bool {
        self.board.stones(Color::Black).next().is_none()
            && self.board.stones(Color::White).next().is_none()
    }

    /// Sets the stones of `black_points`, then `white_points`, then empties
    /// `empty_points` (each an iterable of `(row, col)`), then takes off
    /// every chain without liberties. Returns whether none had to be taken
    /// off; `IndexError` (and nothing changed) when a point is off the
    /// board.
    fn apply_setup(
        &mut self,
        black_points: &Bound<'_, PyAny>,
        white_points: &Bound<'_, PyAny>,
        empty_points: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let black = self.points_of(black_points)?;
        let white = self.points_of(white_points)?;
        let empty = self.points_of(empty_points)?;
        let changes = black
            .into_iter()
            .map(|p| (p, Some(Color::Black)))
            .chain(white.into_iter().map(|p| (p, Some(Color::White))))
            .chain(empty.into_iter().map(|p| (p, None)));
        self.board.setup(changes);
        let n = self.side as usize;
        let grid = self.grid();
        let (_, chains) = regions(&grid, n);
        let mut dead = Vec::new();
        for cells in &chains {
            if grid[cells[0]] == 0 {
                continue;
            }
            let breathes = cells
                .iter()
                .any(|&i| neighbours(i, n).any(|j| grid[j] == 0));
            if !breathes {
                dead.extend(cells.iter().map(|&i| {
                    (
                        Point {
                            x: (i % n) as u8,
                            y: (i / n) as u8,
                        },
                        None,
                    )
                }));
            }
        }
        let legal = dead.is_empty();
        if !legal {
            self.board.setup(dead);
        }
        Ok(legal)
    }

    /// Every stone as `(colour, (row, col))`, from row 0 (the bottom) up,
    /// each row from column 0.
    fn list_occupied_points(&self) -> Vec<(&'static str, (u8, u8))> {
        let n = self.side as usize;
        let grid = self.grid();
        let mut out = Vec::new();
        for row in 0..n {
            let y = n - 1 - row;
            for x in 0..n {
                match grid[y * n + x] {
                    1 => out.push(("b", (row as u8, x as u8))),
                    2 => out.push(("w", (row as u8, x as u8))),
                    _ => {}
                }
            }
        }
        out
    }

    /// Black's area minus White's, every stone taken as alive: stones,
    /// and each empty region for each colour that borders it. No komi.
    fn area_score(&self) -> i64 {
        let n = self.side as usize;
        let grid = self.grid();
        let (_, all) = regions(&grid, n);
        let mut score = 0i64;
        for cells in &all {
            let size = cells.len() as i64;
            match grid[cells[0]] {
                1 => score += size,
                2 => score -= size,
                _ => {
                    let mut near = [false; 3];
                    for &i in cells {
                        for j in neighbours(i, n) {
                            near[grid[j] as usize] = true;
                        }
                    }
                    if near[1] {
                        score += size;
                    }
                    if near[2] {
                        score -= size;
                    }
                }
            }
        }
        score
    }

    /// Makes this board hold `other`'s position (the two stay
    /// independent); `ValueError` when the sizes differ.
    fn _copy_from(&mut self, other: PyRef<'_, MillBoard>) -> PyResult<()> {
        if other.side != self.side {
            return Err(PyValueError::new_err("boards of different sizes"));
        }
        self.board = other.board.clone();
        Ok(())
    }
}

/// What one node of a main line holds for `get_setup_and_moves`.
enum LineNode {
    Setup,
    Move(&'static str, Option<(u8, u8)>),
    BadMove(Vec<u8>),
    Nothing,
}

/// sgfmill's reading of a Point/Move value on a board of `size`: `None`
/// for a pass (empty, or `tt` up to 19x19), `Err` when it is no point of
/// the board.
fn go_point(raw: &[u8], size: u8) -> Result<Option<(u8, u8)>, ()> {
    if raw.is_empty() || (size <= 19 && raw == b"tt") {
        return Ok(None);
    }
    let &[c, r] = raw else { return Err(()) };
    let col = i32::from(c) - i32::from(b'a');
    let row = i32::from(size) - 1 - (i32::from(r) - i32::from(b'a'));
    let side = i32::from(size);
    if (0..side).contains(&col) && (0..side).contains(&row) {
        Ok(Some((row as u8, col as u8)))
    } else {
        Err(())
    }
}

/// One play as sgfmill gives it: the colour and `(row, col)`, or `None`
/// for a pass.
type MillPlay = (&'static str, Option<(u8, u8)>);

/// The plays of `game`'s main line after its first `skip` nodes, as
/// sgfmill's `sgf_moves.get_setup_and_moves` reads them: `(colour, (row,
/// col))`, or `(colour, None)` for a pass, from each node's `B` (else
/// `W`). `ValueError` at the first node (in order) with setup (`AB`,
/// `AW`, `AE`) or a move that is no point of a board of `size` (1 to 26).
#[pyfunction]
fn _mill_plays(game: &Bound<'_, Game>, size: u8, skip: usize) -> PyResult<Vec<MillPlay>> {
    let nodes: Vec<LineNode> = game.get().read(|v| {
        let mut out = Vec::new();
        let mut at = v.contains(0).then_some(0);
        let mut index = 0;
        while let Some(k) = at {
            if index >= skip {
                out.push(if ["AB", "AW", "AE"].iter().any(|i| v.has(k, i)) {
                    LineNode::Setup
                } else if let Some((colour, (raw, _))) = v
                    .first(k, "B")
                    .map(|r| ("b", r))
                    .or_else(|| v.first(k, "W").map(|r| ("w", r)))
                {
                    match go_point(raw, size) {
                        Ok(point) => LineNode::Move(colour, point),
                        Err(()) => LineNode::BadMove(raw.to_vec()),
                    }
                } else {
                    LineNode::Nothing
                });
            }
            index += 1;
            at = v.first_child(k);
        }
        out
    });
    let mut plays = Vec::with_capacity(nodes.len());
    for node in nodes {
        match node {
            LineNode::Setup => {
                return Err(PyValueError::new_err(
                    "setup properties after the root node",
                ))
            }
            LineNode::BadMove(raw) => {
                return Err(PyValueError::new_err(format!(
                    "bad move: {:?}",
                    String::from_utf8_lossy(&raw)
                )))
            }
            LineNode::Move(colour, point) => plays.push((colour, point)),
            LineNode::Nothing => {}
        }
    }
    Ok(plays)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<MillBoard>()?;
    m.add_function(wrap_pyfunction!(_mill_plays, m)?)
}
