//! Point lists expanded or compressed into rectangles, on a bit board
//! (52 rows of 52 bits: no heap).

use crate::value::{point_list_item, BoardSize, Point};

/// A set of points of a board up to 52×52: row `y` is `rows[y]`, bit `x`.
pub(crate) struct Board {
    rows: [u64; 52],
}

impl Board {
    pub(crate) fn new() -> Board {
        Board { rows: [0; 52] }
    }

    /// Reads the values `raws` of a point list on a board of `size` into
    /// `self`; `false` (and `self` in any state) when one is malformed or off
    /// the board.
    pub(crate) fn read<'a>(
        &mut self,
        raws: impl Iterator<Item = &'a [u8]>,
        size: BoardSize,
    ) -> bool {
        self.rows = [0; 52];
        for raw in raws {
            match point_list_item(raw, size) {
                None => return false,
                Some(None) => {}
                Some(Some((a, b))) => {
                    let mask = span_mask(a.x, b.x);
                    for row in &mut self.rows[a.y as usize..=b.y as usize] {
                        *row |= mask;
                    }
                }
            }
        }
        true
    }

    /// Whether the set is empty.
    pub(crate) fn is_empty(&self) -> bool {
        self.rows.iter().all(|&r| r == 0)
    }

    /// Calls `f` with each point of the values `raws` (already checked by
    /// [`Board::read`]) in the order written, rectangles row by row, each
    /// point once.
    pub(crate) fn expand<'a>(
        raws: impl Iterator<Item = &'a [u8]>,
        size: BoardSize,
        mut f: impl FnMut(Point),
    ) {
        let mut seen = Board::new();
        for raw in raws {
            if let Some(Some((a, b))) = point_list_item(raw, size) {
                for y in a.y..=b.y {
                    for x in a.x..=b.x {
                        let bit = 1u64 << x;
                        if seen.rows[y as usize] & bit == 0 {
                            seen.rows[y as usize] |= bit;
                            f(Point { x, y });
                        }
                    }
                }
            }
        }
    }

    /// Calls `f` with rectangles (corners top left, bottom right) covering
    /// the set exactly, without overlap: the first point left, from the top
    /// row down, left to right, starts a rectangle as wide as the row's run
    /// of points from it, as tall as the rows below hold that whole run.
    /// Empties `self`.
    pub(crate) fn compress(&mut self, mut f: impl FnMut(Point, Point)) {
        for y in 0..52 {
            while self.rows[y] != 0 {
                let row = self.rows[y];
                let x0 = row.trailing_zeros() as u8;
                // The run of set bits from x0.
                let run = (!(row >> x0)).trailing_zeros() as u8;
                let x1 = x0 + run - 1;
                let mask = span_mask(x0, x1);
                let mut y1 = y;
                while y1 + 1 < 52 && self.rows[y1 + 1] & mask == mask {
                    y1 += 1;
                }
                for r in &mut self.rows[y..=y1] {
                    *r &= !mask;
                }
                f(Point { x: x0, y: y as u8 }, Point { x: x1, y: y1 as u8 });
            }
        }
    }
}

/// Bits `from..=to`.
fn span_mask(from: u8, to: u8) -> u64 {
    let width = u32::from(to - from) + 1;
    let ones = if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    ones << from
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cover(points: &[(u8, u8)]) -> Vec<(Point, Point)> {
        let mut board = Board::new();
        for &(x, y) in points {
            board.rows[y as usize] |= 1 << x;
        }
        let mut rects = Vec::new();
        board.compress(|a, b| rects.push((a, b)));
        assert!(board.is_empty());
        rects
    }

    #[test]
    fn compress_covers_exactly() {
        let p = |x, y| Point { x, y };
        assert_eq!(cover(&[]), []);
        assert_eq!(cover(&[(0, 0)]), [(p(0, 0), p(0, 0))]);
        // A 3×3 square and a lone point.
        let sq: Vec<_> = (0..3)
            .flat_map(|y| (0..3).map(move |x| (x, y)))
            .chain([(5, 1)])
            .collect();
        assert_eq!(cover(&sq), [(p(0, 0), p(2, 2)), (p(5, 1), p(5, 1))]);
        // An L: the top row's run is wider than the rows below.
        assert_eq!(
            cover(&[(0, 0), (1, 0), (0, 1)]),
            [(p(0, 0), p(1, 0)), (p(0, 1), p(0, 1))]
        );
        // The whole 52×52 board is one rectangle.
        let all: Vec<_> = (0..52).flat_map(|y| (0..52).map(move |x| (x, y))).collect();
        assert_eq!(cover(&all), [(p(0, 0), p(51, 51))]);
    }
}
