//! Board diagrams (feature `diagram`): the position at any node of a game
//! drawn as SVG, or as PNG through resvg.
//!
//! A [`Diagram`] is what is drawn: the stones, the move numbers of a range
//! of moves and their "N at M" notes, the last move, the node's markup
//! (`TR`, `SQ`, `CR`, `MA`, `SL`, `LB`, `AR`, `LN`, and the dimmed points
//! of `DD` in force there), the star points and, on request, the
//! coordinates. [`Diagram::at`] replays any game (parsed or edited: any
//! [`ReadGame`]) to a node and reads it; [`Diagram::to_svg`] draws it and
//! [`Diagram::to_png`] rasterises that drawing.
//!
//! ```
//! use sgf_grove::diagram::{Diagram, DiagramOptions};
//! use sgf_grove::value::{Color, Point};
//!
//! let doc = sgf_grove::parse(b"(;SZ[9];B[cc];W[gg];B[cg]TR[gg])")?;
//! let game = doc.games().next().unwrap();
//! let end = game.root().main_line().last().unwrap();
//! let diagram = Diagram::at(game, end, &DiagramOptions::new().numbers_from(Some(2)))?;
//! assert_eq!(diagram.stone(Point { x: 2, y: 2 }), Some(Color::Black));
//! assert_eq!(diagram.number(Point { x: 6, y: 6 }), Some(2));
//! let svg = diagram.to_svg();
//! assert!(svg.starts_with("<svg") && !svg.contains("<text"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Numbers
//!
//! With [`DiagramOptions::numbers_from`]`(Some(m))`, the moves from the
//! `m`-th to the node's are numbered, as in a printed figure: the position
//! before move `m` is drawn, then every move of the range on its point with
//! its number, stones captured in the range staying drawn. A move onto a
//! point that is already drawn (a stone numbered in the range, or a stone
//! that was there before it and was captured) is not drawn on the board
//! but listed below it: `12 at 5` (the number on that point), or `12 at
//! D4` (the point, when its stone has no number). A pass in the range is
//! listed as `12 pass`. Setup in the range (`AB`, `AW`, `AE`) is drawn
//! without a number.
//!
//! # Text
//!
//! Numbers, labels, coordinates and notes are drawn as paths of a small
//! stroke font of the crate's own (digits, letters, small letters as
//! smaller capitals, common symbols; any other character as an empty box),
//! never as SVG `<text>`: a diagram looks the same everywhere, with no font
//! installed.
//!
//! # Coordinates
//!
//! Columns are lettered as Go boards are, `A`–`Z` without `I`; past 25
//! columns two letters follow (`AA`, `AB`, …, `AZ`, `BA`, …, still without
//! `I`). Rows are numbered from the bottom (`1` at the bottom row).
//!
//! # Star points
//!
//! On each side, the third line from the edge on sides shorter than 13,
//! the fourth from 13 up, none on sides shorter than 7: the four corner
//! star points, the centre when both sides are odd, and the middle of each
//! star line when both sides are odd and 15 or more (9×9 and 13×13: 5
//! points; 19×19: 9), as `sgf board` marks them.

mod font;
mod png;
mod svg;
#[cfg(test)]
mod tests;

pub use png::PNG_MAX_SIDE;
pub use svg::{BOARD_COLOR, CELL};

use crate::game::board::Board;
use crate::game::replay::{self, ReplayError, ReplayOptions};
use crate::tree::read::{ReadGame, ReadNode, ReadProperty};
use crate::value::{point_list_item, BoardSize, Color, FromValue, Move, Point, SimpleText};
use std::fmt;

/// What [`Diagram::at`] draws besides the position: which moves are
/// numbered, the coordinates, the replay's options.
#[derive(Clone, Copy, Debug, Default)]
pub struct DiagramOptions {
    numbers_from: Option<usize>,
    coordinates: bool,
    replay: ReplayOptions,
}

impl DiagramOptions {
    /// The defaults: no numbers, no coordinates, a lenient replay.
    pub fn new() -> DiagramOptions {
        DiagramOptions::default()
    }

    /// Numbers the moves from the `from`-th (counted from 1, passes
    /// included, as [`Cursor::moves`](crate::game::Cursor::moves) counts
    /// them) to the node's last (see the module's docs). Default: `None`,
    /// no numbers, the last move marked.
    #[must_use]
    pub fn numbers_from(mut self, from: Option<usize>) -> DiagramOptions {
        self.numbers_from = from;
        self
    }

    /// Draws the coordinates on the top and left sides. Default: `false`,
    /// the board alone.
    #[must_use]
    pub fn coordinates(mut self, on: bool) -> DiagramOptions {
        self.coordinates = on;
        self
    }

    /// The replay's options (rules, strictness, limits). Default:
    /// [`ReplayOptions::default`], lenient under the rules the game's `RU`
    /// names.
    #[must_use]
    pub fn replay(mut self, options: ReplayOptions) -> DiagramOptions {
        self.replay = options;
        self
    }
}

/// A mark on a point, from the node's markup properties.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// `TR`: a triangle.
    Triangle,
    /// `SQ`: a square.
    Square,
    /// `CR`: a circle.
    Circle,
    /// `MA`: a cross.
    Cross,
    /// `SL`: a selected point, shaded.
    Selected,
}

/// Where a move listed below the board was played (see the module's docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoteAt {
    /// On the stone numbered so: `12 at 5`.
    Number(usize),
    /// On this point, whose stone has no number: `12 at D4`.
    Point(Point),
    /// A pass: `12 pass`.
    Pass,
}

/// A numbered move that is listed below the board instead of drawn on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Note {
    /// The move's number.
    pub number: usize,
    /// Who played it.
    pub color: Color,
    /// Where.
    pub at: NoteAt,
}

/// Why a diagram could not be made or rendered.
#[derive(Debug)]
#[non_exhaustive]
pub enum DiagramError {
    /// The replay to the node failed: an illegal move in strict mode, or a
    /// limit of its [`ReplayOptions`].
    Replay(ReplayError),
    /// [`DiagramOptions::numbers_from`] names a move past the node: the
    /// line to it has only `moves` moves.
    NumbersPastNode {
        /// The first move to number.
        from: usize,
        /// The moves played up to the node.
        moves: usize,
    },
    /// A PNG size of 0 or above [`PNG_MAX_SIDE`] pixels.
    PngSize(u32),
    /// The rasteriser refused the drawing (not expected: the SVG is the
    /// crate's own).
    Render(String),
}

impl fmt::Display for DiagramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiagramError::Replay(e) => write!(f, "replay failed: {e}"),
            DiagramError::NumbersPastNode { from, moves } => write!(
                f,
                "no move {from} to number: the line to the node has {moves} moves"
            ),
            DiagramError::PngSize(px) => write!(
                f,
                "a PNG of {px} pixels: the size must be from 1 to {PNG_MAX_SIDE}"
            ),
            DiagramError::Render(why) => write!(f, "rendering failed: {why}"),
        }
    }
}

impl std::error::Error for DiagramError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DiagramError::Replay(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ReplayError> for DiagramError {
    fn from(e: ReplayError) -> Self {
        DiagramError::Replay(e)
    }
}

/// A board diagram: what is drawn on each point and around the board.
/// Made by [`Diagram::at`] (a node of a game) or [`Diagram::from_board`]
/// (stones alone); drawn by [`Diagram::to_svg`] and [`Diagram::to_png`].
#[derive(Clone, Debug, PartialEq)]
pub struct Diagram {
    size: BoardSize,
    /// Per point, row by row.
    stones: Vec<Option<Color>>,
    numbers: Vec<Option<usize>>,
    marks: Vec<Option<Mark>>,
    dimmed: Vec<bool>,
    labels: Vec<(Point, String)>,
    arrows: Vec<(Point, Point)>,
    lines: Vec<(Point, Point)>,
    last: Option<Point>,
    notes: Vec<Note>,
    coordinates: bool,
    unreadable: usize,
}

impl Diagram {
    /// An empty board of `size`.
    pub fn empty(size: BoardSize) -> Diagram {
        let n = usize::from(size.cols) * usize::from(size.rows);
        Diagram {
            size,
            stones: vec![None; n],
            numbers: vec![None; n],
            marks: vec![None; n],
            dimmed: vec![false; n],
            labels: Vec::new(),
            arrows: Vec::new(),
            lines: Vec::new(),
            last: None,
            notes: Vec::new(),
            coordinates: false,
            unreadable: 0,
        }
    }

    /// The stones of `board`, nothing else (no last move, no markup).
    pub fn from_board(board: &Board) -> Diagram {
        let mut d = Diagram::empty(board.size());
        for color in [Color::Black, Color::White] {
            for p in board.stones(color) {
                let i = d.index(p);
                d.stones[i] = Some(color);
            }
        }
        d
    }

    /// The diagram of `node`, a node of `game`: the position there
    /// (replayed from the root along the line that leads to it), its move
    /// marked or the range of moves that `options` names numbered, and the
    /// node's markup. Markup values that cannot be read (malformed, off the
    /// board) are not drawn and are counted ([`Diagram::unreadable`]).
    ///
    /// # Errors
    ///
    /// The replay's ([`DiagramError::Replay`]: strict mode, limits), and
    /// [`DiagramError::NumbersPastNode`] when the first move to number
    /// comes after the node.
    pub fn at<'g, G: ReadGame<'g>>(
        game: G,
        node: G::Node,
        options: &DiagramOptions,
    ) -> Result<Diagram, DiagramError> {
        let size = game.board_size();
        let mut d = Diagram::empty(size);
        d.coordinates = options.coordinates;
        let mut line = Vec::new();
        let mut at = Some(node);
        while let Some(n) = at {
            line.push(n);
            at = n.parent();
        }
        line.reverse();
        let mut cursor = replay::cursor_with(game, options.replay)?;
        // The drawing of a numbered range: the stones and numbers drawn,
        // captures left on the board.
        let mut numbering = false;
        let mut dd = None;
        for (i, &n) in line.iter().enumerate() {
            let moved = n.played().ok().flatten();
            if let (Some(from), false, Some(_)) = (options.numbers_from, numbering, moved) {
                let before = if i == 0 { 0 } else { cursor.moves() };
                if before + 1 >= from {
                    numbering = true;
                    if i > 0 {
                        d.copy_stones(cursor.board());
                    }
                }
            }
            if i > 0 {
                cursor.enter(n)?;
            }
            if n.has("DD") {
                dd = Some(n);
            }
            if numbering {
                d.draw_node(n, moved, cursor.moves());
            }
        }
        match options.numbers_from {
            Some(from) if !numbering => {
                return Err(DiagramError::NumbersPastNode {
                    from,
                    moves: cursor.moves(),
                });
            }
            Some(_) => {}
            None => d.copy_stones(cursor.board()),
        }
        if let Ok(Some((_, Move::Play(p)))) = node.played() {
            d.last = Some(p);
        }
        if let Some(dd) = dd {
            let mut dimmed = std::mem::take(&mut d.dimmed);
            d.read_points(dd, "DD", |_, i| dimmed[i] = true);
            d.dimmed = dimmed;
        }
        d.read_markup(game, node);
        Ok(d)
    }

    /// The same diagram with the coordinates drawn or not.
    #[must_use]
    pub fn with_coordinates(mut self, on: bool) -> Diagram {
        self.coordinates = on;
        self
    }

    fn index(&self, p: Point) -> usize {
        usize::from(p.y) * usize::from(self.size.cols) + usize::from(p.x)
    }

    fn copy_stones(&mut self, board: &Board) {
        self.stones.fill(None);
        self.numbers.fill(None);
        for color in [Color::Black, Color::White] {
            for p in board.stones(color) {
                let i = self.index(p);
                self.stones[i] = Some(color);
            }
        }
    }

    /// Draws a node of the numbered range: its setup, then its move
    /// (number `number`) or its note.
    fn draw_node<'g, N: ReadNode<'g>>(
        &mut self,
        n: N,
        moved: Option<(Color, Move)>,
        number: usize,
    ) {
        for (ident, stone) in [
            ("AE", None),
            ("AB", Some(Color::Black)),
            ("AW", Some(Color::White)),
        ] {
            let mut changes = Vec::new();
            self.read_points(n, ident, |_, i| changes.push(i));
            for i in changes {
                self.stones[i] = stone;
                self.numbers[i] = None;
            }
        }
        let Some((color, mv)) = moved else { return };
        let at = match mv {
            Move::Pass => NoteAt::Pass,
            Move::Play(p) => {
                let i = self.index(p);
                if self.stones[i].is_none() {
                    self.stones[i] = Some(color);
                    self.numbers[i] = Some(number);
                    return;
                }
                self.numbers[i].map_or(NoteAt::Point(p), NoteAt::Number)
            }
        };
        self.notes.push(Note { number, color, at });
    }

    /// Calls `f(point, index)` for every point of `ident`'s values in
    /// `n` (compressed rectangles expanded); counts the unreadable values.
    fn read_points<'g, N: ReadNode<'g>>(
        &mut self,
        n: N,
        ident: &str,
        mut f: impl FnMut(Point, usize),
    ) {
        let size = self.size;
        if let Some(prop) = n.property(ident) {
            for value in prop.values() {
                match point_list_item(value, size) {
                    Some(Some((a, b))) => {
                        for y in a.y..=b.y {
                            for x in a.x..=b.x {
                                let p = Point { x, y };
                                f(p, self.index(p));
                            }
                        }
                    }
                    Some(None) => {}
                    None => self.unreadable += 1,
                }
            }
        }
    }

    /// Reads `node`'s marks, labels, arrows and lines.
    fn read_markup<'g, G: ReadGame<'g>>(&mut self, game: G, node: G::Node) {
        for (ident, mark) in [
            ("TR", Mark::Triangle),
            ("SQ", Mark::Square),
            ("CR", Mark::Circle),
            ("MA", Mark::Cross),
            ("SL", Mark::Selected),
        ] {
            let mut marks = std::mem::take(&mut self.marks);
            self.read_points(node, ident, |_, i| marks[i] = Some(mark));
            self.marks = marks;
        }
        let ctx = game.value_context();
        for prop in node.properties() {
            match prop.ident() {
                "LB" => {
                    for value in prop.values() {
                        match <(Point, SimpleText<'g>)>::from_value(value, &ctx) {
                            Some((p, text)) => self.labels.push((p, text.0.trim().to_string())),
                            None => self.unreadable += 1,
                        }
                    }
                }
                ident @ ("AR" | "LN") => {
                    for value in prop.values() {
                        match <(Point, Point)>::from_value(value, &ctx) {
                            Some(pair) if ident == "AR" => self.arrows.push(pair),
                            Some(pair) => self.lines.push(pair),
                            None => self.unreadable += 1,
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// The board's size.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The stone drawn on `p` (`None` off the board).
    pub fn stone(&self, p: Point) -> Option<Color> {
        self.size
            .contains(p)
            .then(|| self.stones[self.index(p)])
            .flatten()
    }

    /// The number drawn on `p`'s stone, in a numbered range.
    pub fn number(&self, p: Point) -> Option<usize> {
        self.size
            .contains(p)
            .then(|| self.numbers[self.index(p)])
            .flatten()
    }

    /// The mark on `p` (`TR`, `SQ`, `CR`, `MA`, `SL`; the last one read
    /// when a point has several).
    pub fn mark(&self, p: Point) -> Option<Mark> {
        self.size
            .contains(p)
            .then(|| self.marks[self.index(p)])
            .flatten()
    }

    /// Whether `p` is dimmed (`DD` in force at the node).
    pub fn is_dimmed(&self, p: Point) -> bool {
        self.size.contains(p) && self.dimmed[self.index(p)]
    }

    /// The labels (`LB`), in the order written.
    pub fn labels(&self) -> &[(Point, String)] {
        &self.labels
    }

    /// The arrows (`AR`), from the first point to the second.
    pub fn arrows(&self) -> &[(Point, Point)] {
        &self.arrows
    }

    /// The lines (`LN`).
    pub fn lines(&self) -> &[(Point, Point)] {
        &self.lines
    }

    /// The node's move, marked on the board (unless its stone carries a
    /// number).
    pub fn last_move(&self) -> Option<Point> {
        self.last
    }

    /// The moves listed below the board, in order.
    pub fn notes(&self) -> &[Note] {
        &self.notes
    }

    /// Whether the coordinates are drawn.
    pub fn has_coordinates(&self) -> bool {
        self.coordinates
    }

    /// How many markup values could not be read and are not drawn.
    pub fn unreadable(&self) -> usize {
        self.unreadable
    }

    /// The star points of the board (see the module's docs).
    pub fn star_points(&self) -> Vec<Point> {
        star_points(self.size)
    }
}

/// The star lines of one side of `n` points: the third line from each edge
/// below 13, the fourth from 13 up, none below 7; the middle line (odd
/// sides only) apart.
fn star_lines(n: u8) -> Option<([u8; 2], Option<u8>)> {
    if n < 7 {
        return None;
    }
    let d = if n < 13 { 2 } else { 3 };
    Some(([d, n - 1 - d], (n % 2 == 1).then_some(n / 2)))
}

/// The star points of a board of `size`, row by row.
pub fn star_points(size: BoardSize) -> Vec<Point> {
    let (Some((xs, xm)), Some((ys, ym))) = (star_lines(size.cols), star_lines(size.rows)) else {
        return Vec::new();
    };
    let sides = size.cols >= 15 && size.rows >= 15;
    let mut out = Vec::new();
    for y in 0..size.rows {
        for x in 0..size.cols {
            let (on_x, on_y) = (xs.contains(&x), ys.contains(&y));
            let (mid_x, mid_y) = (xm == Some(x), ym == Some(y));
            let both_odd = xm.is_some() && ym.is_some();
            if (on_x && on_y)
                || (both_odd && mid_x && mid_y)
                || (both_odd && sides && ((mid_x && on_y) || (on_x && mid_y)))
            {
                out.push(Point { x, y });
            }
        }
    }
    out
}

/// The Go coordinate of column `x`: `A`–`Z` without `I`, then two letters
/// (`AA`, `AB`, …, `AZ`, `BA`, …) still without `I`.
pub fn column_name(x: u8) -> String {
    const LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
    let x = usize::from(x);
    let n = LETTERS.len();
    if x < n {
        return char::from(LETTERS[x]).to_string();
    }
    let x = x - n;
    [LETTERS[(x / n) % n], LETTERS[x % n]]
        .iter()
        .map(|&b| char::from(b))
        .collect()
}

/// The Go coordinate of `p` on a board of `rows` rows: its column's letters
/// and its row counted from the bottom (`D4`).
pub fn point_name(p: Point, rows: u8) -> String {
    format!("{}{}", column_name(p.x), rows.saturating_sub(p.y))
}
