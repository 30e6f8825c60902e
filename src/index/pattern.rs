//! A local pattern: a rectangle of points, each black, white, empty, any,
//! not black or not white, perhaps anchored to the board's edges, perhaps
//! with a player to move; written as text rows or as an SGF node.
//! [`Index::search_pattern`](super::Index::search_pattern) finds it.
//!
//! Its text and SGF forms are described on [`Pattern`].

use crate::game::Symmetry;
use crate::value::{BoardSize, Color, Point};
use std::fmt;

/// One point of a pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// A black stone (`X`).
    Black,
    /// A white stone (`O`).
    White,
    /// No stone (`.`).
    Empty,
    /// Anything (`?`).
    Any,
    /// Black or empty (`x`).
    NotWhite,
    /// White or empty (`o`).
    NotBlack,
}

impl Cell {
    /// Whether the point holding `stone` matches.
    pub fn accepts(self, stone: Option<Color>) -> bool {
        match (self, stone) {
            (Cell::Any, _) => true,
            (Cell::Black, s) => s == Some(Color::Black),
            (Cell::White, s) => s == Some(Color::White),
            (Cell::Empty, s) => s.is_none(),
            (Cell::NotWhite, s) => s != Some(Color::White),
            (Cell::NotBlack, s) => s != Some(Color::Black),
        }
    }

    /// The cell with black and white exchanged.
    #[must_use]
    pub fn swapped(self) -> Cell {
        match self {
            Cell::Black => Cell::White,
            Cell::White => Cell::Black,
            Cell::NotWhite => Cell::NotBlack,
            Cell::NotBlack => Cell::NotWhite,
            c => c,
        }
    }

    /// Its mark in the text form.
    pub fn mark(self) -> char {
        match self {
            Cell::Black => 'X',
            Cell::White => 'O',
            Cell::Empty => '.',
            Cell::Any => '?',
            Cell::NotWhite => 'x',
            Cell::NotBlack => 'o',
        }
    }

    fn from_mark(c: char) -> Option<Cell> {
        Some(match c {
            'X' => Cell::Black,
            'O' => Cell::White,
            '.' => Cell::Empty,
            '?' => Cell::Any,
            'x' => Cell::NotWhite,
            'o' => Cell::NotBlack,
            _ => return None,
        })
    }
}

/// The sides of a pattern that lie on the board's edges.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Edges {
    /// Its first column is the board's first.
    pub left: bool,
    /// Its last column is the board's last.
    pub right: bool,
    /// Its first row is the board's first.
    pub top: bool,
    /// Its last row is the board's last.
    pub bottom: bool,
}

impl Edges {
    /// Whether no side is anchored.
    pub fn is_none(self) -> bool {
        !(self.left || self.right || self.top || self.bottom)
    }

    /// The edges after `s` (of a rectangle).
    pub(crate) fn apply(self, s: Symmetry) -> Edges {
        // Each side as a point of a 3×3 board, turned with it.
        let three = BoardSize::square(3);
        let mut out = Edges::default();
        for (on, p) in [
            (self.left, Point { x: 0, y: 1 }),
            (self.right, Point { x: 2, y: 1 }),
            (self.top, Point { x: 1, y: 0 }),
            (self.bottom, Point { x: 1, y: 2 }),
        ] {
            if on {
                match s.apply(p, three) {
                    Point { x: 0, .. } => out.left = true,
                    Point { x: 2, .. } => out.right = true,
                    Point { y: 0, .. } => out.top = true,
                    _ => out.bottom = true,
                }
            }
        }
        out
    }
}

/// Where a pattern must lie (`--anchor`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Anchor {
    /// In a corner: the one its edge marks draw, or its top left corner.
    Corner,
    /// On an edge: the edges its marks draw, or its top row.
    Edge,
    /// Anywhere on the board (edge marks are dropped).
    Anywhere,
}

/// A local pattern: a rectangle of cells ([`Cell`]), the board edges it
/// is anchored to ([`Edges`]), perhaps a player to move, perhaps colours
/// either way.
///
/// # Text
///
/// One row of marks per line: `X` black, `O` white, `.` empty, `?` any,
/// `x` not white (black or empty), `o` not black (white or empty); spaces
/// between marks and blank lines are ignored, and so are lines starting
/// with `#`. Board edges anchor the rectangle: a first or last line of
/// `-` (and `+` at its ends for a corner) is the top or bottom edge of the
/// board, a `|` before or after every row the left or right edge:
///
/// ```text
/// +--------
/// |. . . . .
/// |. . . X .
/// |. . O ? .
/// ```
///
/// # SGF node
///
/// The first node of the main line of the first game that has `VW` (the
/// root when none has): the region is the rectangle `VW` spans (the
/// bounding rectangle of its points; of the node's `AB`, `AW`, `AE`, `MA`,
/// `TR`, `SQ` points when there is no `VW`). In it, `AB` is black, `AW`
/// white, `MA` any, `TR` not white, `SQ` not black, and a point listed in
/// none of them (or in `AE`) empty. The sides of the region on the edges
/// of the board (`SZ`) anchor it there. `PL` gives the player to move.
///
/// ```
/// use sgf_grove::index::{Cell, Pattern};
/// let p = Pattern::parse("+---\n|.X\n|Ox\n")?;
/// assert_eq!((p.width(), p.height()), (2, 2));
/// assert_eq!(p.cell(1, 0), Cell::Black);
/// assert!(p.edges().top && p.edges().left);
/// assert_eq!(p.to_string(), "+--\n|.X\n|Ox\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    width: u8,
    height: u8,
    /// Row by row.
    cells: Vec<Cell>,
    edges: Edges,
    to_move: Option<Color>,
    swap_colors: bool,
}

/// What is wrong with a pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PatternErrorKind {
    /// A character that is no mark.
    UnknownMark(char),
    /// A row of another width than the first.
    RowWidth {
        /// The first row's width.
        expected: usize,
        /// This row's.
        found: usize,
    },
    /// An edge line that is neither the first nor the last.
    EdgeInside,
    /// Edge marks that do not agree (a `|` on some rows only, a `+`
    /// without its side edge).
    EdgesDisagree,
    /// No row of marks.
    Empty,
    /// More than 52 rows or columns.
    TooLarge,
    /// An SGF pattern that does not read (the reason).
    Sgf(String),
}

/// An error in a pattern, at a line and column of its text (1-based; the
/// column counts characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternError {
    /// What is wrong.
    pub kind: PatternErrorKind,
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1.
    pub column: u32,
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            PatternErrorKind::UnknownMark(c) => {
                write!(f, "`{c}` is no pattern mark (X O . ? x o, edges | - +)")?
            }
            PatternErrorKind::RowWidth { expected, found } => {
                write!(f, "a row of {found} points where the first has {expected}")?
            }
            PatternErrorKind::EdgeInside => {
                write!(f, "an edge line that is neither the first nor the last")?;
            }
            PatternErrorKind::EdgesDisagree => write!(f, "edge marks that do not agree")?,
            PatternErrorKind::Empty => write!(f, "no row of points")?,
            PatternErrorKind::TooLarge => write!(f, "more than 52 rows or columns")?,
            PatternErrorKind::Sgf(why) => write!(f, "{why}")?,
        }
        write!(f, " at {}:{}", self.line, self.column)
    }
}

impl std::error::Error for PatternError {}

fn error(kind: PatternErrorKind, line: usize, column: usize) -> PatternError {
    PatternError {
        kind,
        line: u32::try_from(line).unwrap_or(u32::MAX),
        column: u32::try_from(column).unwrap_or(u32::MAX),
    }
}

impl Pattern {
    /// A pattern of `width` × `height` cells given row by row, anchored
    /// at `edges`, without a player to move.
    ///
    /// # Errors
    ///
    /// `Empty` or `TooLarge` for a size outside 1 to 52, `RowWidth` when
    /// `cells` is not `width × height` long (at 1:1).
    pub fn new(
        width: usize,
        height: usize,
        cells: Vec<Cell>,
        edges: Edges,
    ) -> Result<Pattern, PatternError> {
        if width == 0 || height == 0 {
            return Err(error(PatternErrorKind::Empty, 1, 1));
        }
        if width > 52 || height > 52 {
            return Err(error(PatternErrorKind::TooLarge, 1, 1));
        }
        if cells.len() != width * height {
            return Err(error(
                PatternErrorKind::RowWidth {
                    expected: width * height,
                    found: cells.len(),
                },
                1,
                1,
            ));
        }
        Ok(Pattern {
            width: width as u8,
            height: height as u8,
            cells,
            edges,
            to_move: None,
            swap_colors: false,
        })
    }

    /// Reads a pattern: an SGF node when the text starts with `(` (after
    /// blanks), text rows otherwise.
    ///
    /// # Errors
    ///
    /// A [`PatternError`] with the line and column of the fault.
    pub fn parse(text: &str) -> Result<Pattern, PatternError> {
        if text.trim_start().starts_with('(') {
            Pattern::from_sgf(text.as_bytes())
        } else {
            Pattern::from_text(text)
        }
    }

    /// Reads text rows (see [`Pattern`]).
    ///
    /// ```
    /// use sgf_grove::index::Pattern;
    /// let e = Pattern::from_text("X.\nXZ\n").unwrap_err();
    /// assert_eq!(e.to_string(), "`Z` is no pattern mark (X O . ? x o, edges | - +) at 2:2");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A [`PatternError`] with the line and column of the fault.
    pub fn from_text(text: &str) -> Result<Pattern, PatternError> {
        // (line number, [(column, char)]) of each line that counts.
        let mut lines: Vec<(usize, Vec<(usize, char)>)> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let marks: Vec<(usize, char)> = line
                .chars()
                .enumerate()
                .filter(|(_, c)| !c.is_whitespace())
                .map(|(i, c)| (i + 1, c))
                .collect();
            if marks.is_empty() || marks[0].1 == '#' {
                continue;
            }
            lines.push((n + 1, marks));
        }
        let is_edge = |m: &[(usize, char)]| m.iter().all(|&(_, c)| c == '-' || c == '+');
        let mut edges = Edges::default();
        let mut edge_lines = Vec::new();
        let count = lines.len();
        let mut rows = Vec::new();
        for (i, (n, marks)) in lines.into_iter().enumerate() {
            if is_edge(&marks) {
                if i == 0 {
                    edges.top = true;
                } else if i + 1 == count {
                    edges.bottom = true;
                } else {
                    return Err(error(PatternErrorKind::EdgeInside, n, marks[0].0));
                }
                edge_lines.push((n, marks));
            } else {
                rows.push((n, marks));
            }
        }
        let Some((_, first)) = rows.first() else {
            let (n, c) = edge_lines.first().map_or((1, 1), |(n, m)| (*n, m[0].0));
            return Err(error(PatternErrorKind::Empty, n, c));
        };
        edges.left = first.first().is_some_and(|&(_, c)| c == '|');
        edges.right = first.len() > 1 && first.last().is_some_and(|&(_, c)| c == '|');
        let mut cells = Vec::new();
        let mut width = None;
        for (n, marks) in &rows {
            let left = marks.first().is_some_and(|&(_, c)| c == '|');
            let right = marks.len() > 1 && marks.last().is_some_and(|&(_, c)| c == '|');
            if left != edges.left || right != edges.right {
                let at = if left != edges.left {
                    marks[0].0
                } else {
                    marks[marks.len() - 1].0
                };
                return Err(error(PatternErrorKind::EdgesDisagree, *n, at));
            }
            let inner = &marks[usize::from(left)..marks.len() - usize::from(right)];
            for &(col, c) in inner {
                let cell = Cell::from_mark(c)
                    .ok_or_else(|| error(PatternErrorKind::UnknownMark(c), *n, col))?;
                cells.push(cell);
            }
            match width {
                None if inner.is_empty() => {
                    return Err(error(PatternErrorKind::Empty, *n, marks[0].0))
                }
                None => width = Some(inner.len()),
                Some(w) if w != inner.len() => {
                    return Err(error(
                        PatternErrorKind::RowWidth {
                            expected: w,
                            found: inner.len(),
                        },
                        *n,
                        marks[0].0,
                    ))
                }
                Some(_) => {}
            }
        }
        for (n, marks) in &edge_lines {
            let plus_first = marks[0].1 == '+';
            let plus_last = marks.len() > 1 && marks[marks.len() - 1].1 == '+';
            let inner_plus = marks[1..marks.len().saturating_sub(1).max(1)]
                .iter()
                .find(|&&(_, c)| c == '+');
            if let Some(&(col, _)) = inner_plus {
                return Err(error(PatternErrorKind::EdgesDisagree, *n, col));
            }
            if (plus_first && !edges.left) || (plus_last && !edges.right) {
                let col = if plus_first && !edges.left {
                    marks[0].0
                } else {
                    marks[marks.len() - 1].0
                };
                return Err(error(PatternErrorKind::EdgesDisagree, *n, col));
            }
        }
        let width = width.unwrap_or(0);
        let (n, c) = (rows[0].0, rows[0].1[0].0);
        if width > 52 || rows.len() > 52 {
            return Err(error(PatternErrorKind::TooLarge, n, c));
        }
        Pattern::new(width, rows.len(), cells, edges).map_err(|mut e| {
            e.line = n as u32;
            e.column = c as u32;
            e
        })
    }

    /// Reads an SGF pattern (see [`Pattern`]).
    ///
    /// ```
    /// use sgf_grove::index::{Cell, Pattern};
    /// let p = Pattern::from_sgf(b"(;SZ[19]PL[W]VW[aa:cb]AB[ba]AW[bb]MA[ab])")?;
    /// assert_eq!((p.width(), p.height()), (3, 2));
    /// assert_eq!(p.cell(1, 0), Cell::Black);
    /// assert_eq!(p.cell(0, 1), Cell::Any);
    /// assert_eq!(p.cell(2, 1), Cell::Empty);
    /// assert!(p.edges().top && p.edges().left && !p.edges().right);
    /// assert_eq!(p.to_move(), Some(sgf_grove::value::Color::White));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// `Sgf` with the position of the fault: text that does not parse, no
    /// game, a property of points that does not read, a point listed
    /// outside the region.
    pub fn from_sgf(bytes: &[u8]) -> Result<Pattern, PatternError> {
        let sgf = |why: String, line: u32, column: u32| PatternError {
            kind: PatternErrorKind::Sgf(why),
            line,
            column,
        };
        let doc =
            crate::parse(bytes).map_err(|e| sgf(e.kind().to_string(), e.line(), e.column()))?;
        let game = doc
            .games()
            .next()
            .ok_or_else(|| sgf("no game in the SGF pattern".into(), 1, 1))?;
        let node = game
            .root()
            .main_line()
            .find(|n| n.has("VW"))
            .unwrap_or(game.root());
        let size = game.board_size();
        let read = |ident: &str| -> Result<Vec<Point>, PatternError> {
            node.points(ident)
                .map(|ps| ps.collect())
                .map_err(|e| sgf(format!("{ident}: {}", e.kind()), e.line(), e.column()))
        };
        let marks = [
            ("AB", Cell::Black),
            ("AW", Cell::White),
            ("AE", Cell::Empty),
            ("MA", Cell::Any),
            ("TR", Cell::NotWhite),
            ("SQ", Cell::NotBlack),
        ];
        let mut listed = Vec::new();
        for (ident, cell) in marks {
            for p in read(ident)? {
                listed.push((p, cell));
            }
        }
        let region: Vec<Point> = if node.has("VW") {
            read("VW")?
        } else {
            listed.iter().map(|&(p, _)| p).collect()
        };
        let at = doc.collection().position(node.span().start);
        let (line, column) = (at.line, at.column);
        if region.is_empty() {
            return Err(sgf(
                "no region: VW, or points, are needed".into(),
                line,
                column,
            ));
        }
        let x0 = region.iter().map(|p| p.x).min().unwrap_or(0);
        let x1 = region.iter().map(|p| p.x).max().unwrap_or(0);
        let y0 = region.iter().map(|p| p.y).min().unwrap_or(0);
        let y1 = region.iter().map(|p| p.y).max().unwrap_or(0);
        let (w, h) = (usize::from(x1 - x0) + 1, usize::from(y1 - y0) + 1);
        let mut cells = vec![Cell::Empty; w * h];
        for (p, cell) in listed {
            if p.x < x0 || p.x > x1 || p.y < y0 || p.y > y1 {
                return Err(sgf(
                    format!("point {p} lies outside the region (VW)"),
                    line,
                    column,
                ));
            }
            cells[usize::from(p.y - y0) * w + usize::from(p.x - x0)] = cell;
        }
        let edges = Edges {
            left: x0 == 0,
            right: x1 + 1 == size.cols,
            top: y0 == 0,
            bottom: y1 + 1 == size.rows,
        };
        let mut p = Pattern::new(w, h, cells, edges).map_err(|mut e| {
            e.line = line;
            e.column = column;
            e
        })?;
        p.to_move = node.get::<Color>("PL").ok().flatten();
        Ok(p)
    }

    /// Columns.
    pub fn width(&self) -> usize {
        usize::from(self.width)
    }

    /// Rows.
    pub fn height(&self) -> usize {
        usize::from(self.height)
    }

    /// The cell at column `x`, row `y` (from 0, the top left).
    ///
    /// # Panics
    ///
    /// Outside the pattern.
    pub fn cell(&self, x: usize, y: usize) -> Cell {
        assert!(x < self.width() && y < self.height(), "outside the pattern");
        self.cells[y * self.width() + x]
    }

    /// The sides anchored to the board's edges.
    pub fn edges(&self) -> Edges {
        self.edges
    }

    /// The player to move it asks for, if any.
    pub fn to_move(&self) -> Option<Color> {
        self.to_move
    }

    /// Whether matches with black and white exchanged count too.
    pub fn swaps_colors(&self) -> bool {
        self.swap_colors
    }

    /// The pattern asking for `to_move` to play next (see
    /// [`Index::search_pattern`](super::Index::search_pattern)), or for
    /// either player.
    #[must_use]
    pub fn with_to_move(mut self, to_move: Option<Color>) -> Pattern {
        self.to_move = to_move;
        self
    }

    /// The pattern that also matches with black and white exchanged (and
    /// the player to move).
    #[must_use]
    pub fn with_swapped_colors(mut self, swap: bool) -> Pattern {
        self.swap_colors = swap;
        self
    }

    /// The pattern anchored as `anchor` says (see [`Anchor`]).
    #[must_use]
    pub fn with_anchor(mut self, anchor: Anchor) -> Pattern {
        let e = self.edges;
        match anchor {
            Anchor::Anywhere => self.edges = Edges::default(),
            Anchor::Edge if e.is_none() => self.edges.top = true,
            Anchor::Edge => {}
            Anchor::Corner if (e.left || e.right) && (e.top || e.bottom) => {}
            Anchor::Corner => {
                if !(e.top || e.bottom) {
                    self.edges.top = true;
                }
                if !(e.left || e.right) {
                    self.edges.left = true;
                }
            }
        }
        self
    }

    /// The pattern turned by `s`, colours exchanged with `swap`: its cell
    /// at `s.apply(p)` is this one's at `p`.
    #[must_use]
    pub fn transformed(&self, s: Symmetry, swap: bool) -> Pattern {
        let size = BoardSize {
            cols: self.width,
            rows: self.height,
        };
        let to = s.board_size(size);
        let mut cells = vec![Cell::Any; self.cells.len()];
        for y in 0..self.height {
            for x in 0..self.width {
                let q = s.apply(Point { x, y }, size);
                let c = self.cell(usize::from(x), usize::from(y));
                cells[usize::from(q.y) * usize::from(to.cols) + usize::from(q.x)] =
                    if swap { c.swapped() } else { c };
            }
        }
        Pattern {
            width: to.cols,
            height: to.rows,
            cells,
            edges: self.edges.apply(s),
            to_move: self.to_move.map(|c| if swap { c.opponent() } else { c }),
            swap_colors: self.swap_colors,
        }
    }
}

impl fmt::Display for Pattern {
    /// The text form, edges drawn.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = self.edges;
        let edge_line = |f: &mut fmt::Formatter<'_>| {
            let corner = |on| if on { "+" } else { "" };
            writeln!(
                f,
                "{}{}{}",
                corner(e.left),
                "-".repeat(self.width()),
                corner(e.right)
            )
        };
        if e.top {
            edge_line(f)?;
        }
        for y in 0..self.height() {
            if e.left {
                write!(f, "|")?;
            }
            for x in 0..self.width() {
                write!(f, "{}", self.cell(x, y).mark())?;
            }
            if e.right {
                write!(f, "|")?;
            }
            writeln!(f)?;
        }
        if e.bottom {
            edge_line(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_mark_and_edge() {
        let p =
            Pattern::from_text("# a corner\n+-------+\n|X O . ? x o|\n|. . . . . .|\n").unwrap();
        assert_eq!((p.width(), p.height()), (6, 2));
        let row: Vec<Cell> = (0..6).map(|x| p.cell(x, 0)).collect();
        use Cell::*;
        assert_eq!(row, [Black, White, Empty, Any, NotWhite, NotBlack]);
        assert_eq!(
            p.edges(),
            Edges {
                left: true,
                right: true,
                top: true,
                bottom: false
            }
        );
        let q = Pattern::from_text(".X\n--\n").unwrap();
        assert!(q.edges().bottom && !q.edges().top);
        assert_eq!(Pattern::from_text(&p.to_string()).unwrap(), p);
    }

    #[test]
    fn errors_name_line_and_column() {
        let at = |t: &str| {
            let e = Pattern::from_text(t).unwrap_err();
            (e.kind, e.line, e.column)
        };
        assert_eq!(
            at("XX\nX\n").0,
            PatternErrorKind::RowWidth {
                expected: 2,
                found: 1
            }
        );
        assert_eq!(at("XX\nX\n").1, 2);
        assert_eq!(at("X\n--\nX\n"), (PatternErrorKind::EdgeInside, 2, 1));
        assert_eq!(at("|X\nX\n"), (PatternErrorKind::EdgesDisagree, 2, 1));
        assert_eq!(at("+--\nX.\n"), (PatternErrorKind::EdgesDisagree, 1, 1));
        assert_eq!(at("\n\n  --\n"), (PatternErrorKind::Empty, 3, 3));
        assert_eq!(at(""), (PatternErrorKind::Empty, 1, 1));
        assert_eq!(at(". . W\n"), (PatternErrorKind::UnknownMark('W'), 1, 5));
        assert_eq!(at(&"X".repeat(53)).0, PatternErrorKind::TooLarge);
    }

    #[test]
    fn edges_turn_with_the_pattern() {
        let p = Pattern::from_text("+--\n|X.\n|..\n").unwrap();
        // The top left corner turned a quarter clockwise is the top right.
        let t = p.transformed(Symmetry::Rotate90, false);
        assert!(t.edges().top && t.edges().right && !t.edges().left);
        assert_eq!(t.cell(1, 0), Cell::Black);
        let s = p.transformed(Symmetry::Identity, true);
        assert_eq!(s.cell(0, 0), Cell::White);
    }

    #[test]
    fn anchors() {
        let p = Pattern::from_text("X.\n").unwrap();
        assert!(p.edges().is_none());
        let c = p.clone().with_anchor(Anchor::Corner).edges();
        assert!(c.top && c.left && !c.right && !c.bottom);
        let e = p.clone().with_anchor(Anchor::Edge).edges();
        assert!(e.top && !e.left);
        let drawn = Pattern::from_text("X.|\n--+\n").unwrap();
        assert_eq!(
            drawn.clone().with_anchor(Anchor::Corner).edges(),
            drawn.edges()
        );
        assert!(drawn.with_anchor(Anchor::Anywhere).edges().is_none());
    }
}
