//! Drawing a [`Diagram`] as SVG: the geometry (where each point's centre
//! is) and the elements, text as stroked paths of the crate's font.

use super::font::{self, num};
use super::{column_name, point_name, Diagram, Mark, NoteAt};
use crate::value::{Color, Point};
use std::fmt::Write as _;

/// The distance between two lines of the board, in SVG user units (the
/// drawing's pixels at its natural size).
pub const CELL: f64 = 24.0;
/// The board's colour.
pub const BOARD_COLOR: &str = "#dcb35c";
/// The border around the outer lines, in cells.
const MARGIN: f64 = 0.8;
/// The band of the coordinates, in cells.
const COORDS: f64 = 1.0;
/// A stone's radius, in cells.
const STONE: f64 = 0.47;
/// The width given to each note below the board, in cells.
const NOTE: f64 = 3.2;
/// The height of the text of numbers, labels and notes, in cells.
const TEXT: f64 = 0.42;

/// Where things are drawn.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Geometry {
    /// The centre of the top-left point.
    x0: f64,
    y0: f64,
    /// The whole drawing.
    pub(crate) width: f64,
    pub(crate) height: f64,
    /// The top of the notes, and how many fit on a line.
    notes_top: f64,
    per_line: usize,
}

impl Geometry {
    pub(crate) fn of(d: &Diagram) -> Geometry {
        let band = if d.coordinates { COORDS * CELL } else { 0.0 };
        let x0 = MARGIN * CELL + band;
        let y0 = MARGIN * CELL + band;
        let board_w = x0 + f64::from(d.size.cols.max(1) - 1) * CELL + MARGIN * CELL;
        let board_h = y0 + f64::from(d.size.rows.max(1) - 1) * CELL + MARGIN * CELL;
        let (mut width, mut height, mut per_line) = (board_w, board_h, 1);
        if !d.notes.is_empty() {
            width = width.max(NOTE * CELL + 2.0 * MARGIN * CELL);
            per_line = (((width - 2.0 * MARGIN * CELL) / (NOTE * CELL)) as usize).max(1);
            let lines = d.notes.len().div_ceil(per_line);
            height += lines as f64 * CELL + 0.3 * CELL;
        }
        Geometry {
            x0,
            y0,
            width,
            height,
            notes_top: board_h + 0.3 * CELL,
            per_line,
        }
    }

    /// The centre of point `p`.
    pub(crate) fn centre(&self, p: Point) -> (f64, f64) {
        (
            self.x0 + f64::from(p.x) * CELL,
            self.y0 + f64::from(p.y) * CELL,
        )
    }
}

/// The colour that shows on what lies on `p`: white on a black stone,
/// black elsewhere.
fn ink(stone: Option<Color>) -> &'static str {
    match stone {
        Some(Color::Black) => "#fff",
        _ => "#000",
    }
}

/// Writes `text` as one stroked path, `height` high, centred on `(x, y)`
/// and shrunk to fit `max_width`.
fn text(out: &mut String, s: &str, (x, y): (f64, f64), height: f64, max_width: f64, color: &str) {
    let w = font::width(s, height);
    let height = if w > max_width {
        height * max_width / w
    } else {
        height
    };
    let mut d = String::new();
    font::path_centred(&mut d, s, x, y, height);
    if d.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        r#"<path d="{d}" fill="none" stroke="{color}" stroke-width="{}" stroke-linecap="round" stroke-linejoin="round"/>"#,
        num(height * 0.13)
    );
}

/// Writes a stone of `color` centred on `(x, y)`, `r` its radius.
fn stone(out: &mut String, color: Color, (x, y): (f64, f64), r: f64) {
    let _ = match color {
        Color::Black => writeln!(
            out,
            r##"<circle cx="{}" cy="{}" r="{}" fill="#000"/>"##,
            num(x),
            num(y),
            num(r)
        ),
        Color::White => writeln!(
            out,
            r##"<circle cx="{}" cy="{}" r="{}" fill="#fff" stroke="#000" stroke-width="1"/>"##,
            num(x),
            num(y),
            num(r - 0.5)
        ),
    };
}

impl Diagram {
    /// The centre of point `p` in the SVG's user units (its pixels at its
    /// natural size, [`Diagram::svg_size`]): for tools that place things
    /// on the drawing, and for tests.
    pub fn centre(&self, p: Point) -> (f64, f64) {
        Geometry::of(self).centre(p)
    }

    /// The drawing's natural width and height, in SVG user units (24 for
    /// the distance between two lines).
    pub fn svg_size(&self) -> (f64, f64) {
        let g = Geometry::of(self);
        (g.width, g.height)
    }

    /// The diagram as an SVG document, at its natural size
    /// ([`Diagram::svg_size`]).
    pub fn to_svg(&self) -> String {
        self.svg(None)
    }

    /// The diagram as an SVG document whose longer side is `px` pixels (the
    /// drawing scaled, its `viewBox` unchanged).
    pub fn to_svg_sized(&self, px: u32) -> String {
        self.svg(Some(px))
    }

    fn svg(&self, px: Option<u32>) -> String {
        let g = Geometry::of(self);
        let (w, h) = match px {
            Some(px) => {
                let k = f64::from(px) / g.width.max(g.height);
                (g.width * k, g.height * k)
            }
            None => (g.width, g.height),
        };
        let mut out = String::with_capacity(4096 + self.stones.len() * 64);
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}">"#,
            num(w),
            num(h),
            num(g.width),
            num(g.height)
        );
        let _ = writeln!(
            out,
            r#"<rect x="0" y="0" width="{}" height="{}" fill="{BOARD_COLOR}"/>"#,
            num(g.width),
            num(g.height)
        );
        self.grid(&mut out, &g);
        self.coordinates(&mut out, &g);
        for (i, s) in self.stones.iter().enumerate() {
            if let Some(c) = *s {
                stone(&mut out, c, g.centre(self.point(i)), STONE * CELL);
            }
        }
        self.dim(&mut out, &g);
        self.numbers_and_marks(&mut out, &g);
        self.draw_labels(&mut out, &g);
        self.arrows_and_lines(&mut out, &g);
        self.draw_notes(&mut out, &g);
        out.push_str("</svg>\n");
        out
    }

    fn point(&self, i: usize) -> Point {
        let cols = usize::from(self.size.cols);
        Point {
            x: (i % cols) as u8,
            y: (i / cols) as u8,
        }
    }

    /// The lines and the star points.
    fn grid(&self, out: &mut String, g: &Geometry) {
        let (cols, rows) = (self.size.cols, self.size.rows);
        let (left, top) = g.centre(Point { x: 0, y: 0 });
        let (right, bottom) = g.centre(Point {
            x: cols.saturating_sub(1),
            y: rows.saturating_sub(1),
        });
        let mut d = String::new();
        for x in 0..cols {
            let (cx, _) = g.centre(Point { x, y: 0 });
            let _ = write!(d, "M{} {}V{}", num(cx), num(top), num(bottom));
        }
        for y in 0..rows {
            let (_, cy) = g.centre(Point { x: 0, y });
            let _ = write!(d, "M{} {}H{}", num(left), num(cy), num(right));
        }
        let _ = writeln!(
            out,
            r##"<path d="{d}" fill="none" stroke="#000" stroke-width="1" stroke-linecap="square"/>"##
        );
        for p in self.star_points() {
            let (x, y) = g.centre(p);
            let _ = writeln!(
                out,
                r##"<circle cx="{}" cy="{}" r="{}" fill="#000"/>"##,
                num(x),
                num(y),
                num(0.1 * CELL)
            );
        }
    }

    fn coordinates(&self, out: &mut String, g: &Geometry) {
        if !self.coordinates {
            return;
        }
        let h = 0.36 * CELL;
        for x in 0..self.size.cols {
            let (cx, top) = g.centre(Point { x, y: 0 });
            text(
                out,
                &column_name(x),
                (cx, top - CELL),
                h,
                0.9 * CELL,
                "#000",
            );
        }
        for y in 0..self.size.rows {
            let (left, cy) = g.centre(Point { x: 0, y });
            let name = (self.size.rows - y).to_string();
            text(out, &name, (left - CELL, cy), h, 0.9 * CELL, "#000");
        }
    }

    /// `DD`: the board's colour, half opaque, over each dimmed point.
    fn dim(&self, out: &mut String, g: &Geometry) {
        for (i, _) in self.dimmed.iter().enumerate().filter(|(_, d)| **d) {
            let (x, y) = g.centre(self.point(i));
            let _ = writeln!(
                out,
                r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{BOARD_COLOR}" fill-opacity="0.6"/>"#,
                num(x - CELL / 2.0),
                num(y - CELL / 2.0),
                num(CELL),
                num(CELL)
            );
        }
    }

    fn numbers_and_marks(&self, out: &mut String, g: &Geometry) {
        for i in 0..self.stones.len() {
            let p = self.point(i);
            let c = g.centre(p);
            let under = self.stones[i];
            if let Some(n) = self.numbers[i] {
                text(out, &n.to_string(), c, TEXT * CELL, 0.8 * CELL, ink(under));
            } else if self.last == Some(p) {
                let _ = writeln!(
                    out,
                    r#"<circle cx="{}" cy="{}" r="{}" fill="none" stroke="{}" stroke-width="{}"/>"#,
                    num(c.0),
                    num(c.1),
                    num(0.22 * CELL),
                    ink(under),
                    num(0.08 * CELL)
                );
            }
            if let Some(m) = self.marks[i] {
                mark(out, m, c, ink(under));
            }
        }
    }

    fn draw_labels(&self, out: &mut String, g: &Geometry) {
        for (p, label) in &self.labels {
            let c = g.centre(*p);
            let under = self.stone(*p);
            if under.is_none() {
                // The lines under the label hidden.
                let _ = writeln!(
                    out,
                    r#"<circle cx="{}" cy="{}" r="{}" fill="{BOARD_COLOR}"/>"#,
                    num(c.0),
                    num(c.1),
                    num(0.42 * CELL)
                );
            }
            text(out, label, c, TEXT * CELL, 0.85 * CELL, ink(under));
        }
    }

    fn arrows_and_lines(&self, out: &mut String, g: &Geometry) {
        let w = 0.08 * CELL;
        let lines = self.lines.iter().map(|l| (l, false));
        for (&(a, b), head) in lines.chain(self.arrows.iter().map(|l| (l, true))) {
            let (ax, ay) = g.centre(a);
            let (bx, by) = g.centre(b);
            let _ = writeln!(
                out,
                r##"<path d="M{} {}L{} {}" stroke="#c00000" stroke-width="{}" stroke-linecap="round"/>"##,
                num(ax),
                num(ay),
                num(bx),
                num(by),
                num(w)
            );
            let len = (bx - ax).hypot(by - ay);
            if !head || len == 0.0 {
                continue;
            }
            // A head 0.35 cells long at `b`.
            let (ux, uy) = ((bx - ax) / len, (by - ay) / len);
            let (l, s) = (0.35 * CELL, 0.18 * CELL);
            let (px, py) = (bx - ux * l, by - uy * l);
            let _ = writeln!(
                out,
                r##"<path d="M{} {}L{} {}L{} {}Z" fill="#c00000"/>"##,
                num(bx),
                num(by),
                num(px - uy * s),
                num(py + ux * s),
                num(px + uy * s),
                num(py - ux * s)
            );
        }
    }

    /// The notes below the board: a small stone with the move's number,
    /// then `at`, then the stone it was played on (its number) or the
    /// point's name, or `pass`.
    fn draw_notes(&self, out: &mut String, g: &Geometry) {
        let r = 0.42 * CELL;
        for (k, note) in self.notes.iter().enumerate() {
            let x = MARGIN * CELL + (k % g.per_line) as f64 * NOTE * CELL + r;
            let y = g.notes_top + (k / g.per_line) as f64 * CELL + CELL / 2.0;
            stone(out, note.color, (x, y), r);
            let n = note.number.to_string();
            text(out, &n, (x, y), TEXT * CELL, 1.7 * r, ink(Some(note.color)));
            let word = if note.at == NoteAt::Pass {
                "pass"
            } else {
                "at"
            };
            let wx = x + r + 0.2 * CELL;
            let ww = font::width(word, TEXT * CELL);
            text(out, word, (wx + ww / 2.0, y), TEXT * CELL, ww, "#000");
            let tx = wx + ww + 0.2 * CELL;
            match note.at {
                NoteAt::Number(m) => {
                    let color = self.numbered_color(m).unwrap_or(Color::Black);
                    stone(out, color, (tx + r, y), r);
                    let m = m.to_string();
                    text(out, &m, (tx + r, y), TEXT * CELL, 1.7 * r, ink(Some(color)));
                }
                NoteAt::Point(p) => {
                    let name = point_name(p, self.size.rows);
                    let nw = font::width(&name, TEXT * CELL);
                    text(out, &name, (tx + nw / 2.0, y), TEXT * CELL, nw, "#000");
                }
                NoteAt::Pass => {}
            }
        }
    }

    /// The colour of the stone numbered `m`.
    fn numbered_color(&self, m: usize) -> Option<Color> {
        let i = self.numbers.iter().position(|&n| n == Some(m))?;
        self.stones[i]
    }
}

/// Writes mark `m` centred on `(x, y)` in `color`.
fn mark(out: &mut String, m: Mark, (x, y): (f64, f64), color: &str) {
    let w = num(0.08 * CELL);
    let _ = match m {
        Mark::Triangle => {
            let r = 0.3 * CELL;
            let (dx, dy) = (r * 0.866, r * 0.5);
            writeln!(
                out,
                r#"<path d="M{} {}L{} {}L{} {}Z" fill="none" stroke="{color}" stroke-width="{w}" stroke-linejoin="round"/>"#,
                num(x),
                num(y - r),
                num(x + dx),
                num(y + dy),
                num(x - dx),
                num(y + dy)
            )
        }
        Mark::Square => {
            let s = 0.42 * CELL;
            writeln!(
                out,
                r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{color}" stroke-width="{w}"/>"#,
                num(x - s / 2.0),
                num(y - s / 2.0),
                num(s),
                num(s)
            )
        }
        Mark::Circle => writeln!(
            out,
            r#"<circle cx="{}" cy="{}" r="{}" fill="none" stroke="{color}" stroke-width="{w}"/>"#,
            num(x),
            num(y),
            num(0.25 * CELL)
        ),
        Mark::Cross => {
            let s = 0.2 * CELL;
            writeln!(
                out,
                r#"<path d="M{} {}L{} {}M{} {}L{} {}" stroke="{color}" stroke-width="{w}" stroke-linecap="round"/>"#,
                num(x - s),
                num(y - s),
                num(x + s),
                num(y + s),
                num(x + s),
                num(y - s),
                num(x - s),
                num(y + s)
            )
        }
        Mark::Selected => {
            let s = 0.5 * CELL;
            writeln!(
                out,
                r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#3060e0" fill-opacity="0.5"/>"##,
                num(x - s / 2.0),
                num(y - s / 2.0),
                num(s),
                num(s)
            )
        }
    };
}
