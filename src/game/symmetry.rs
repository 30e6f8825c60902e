//! The 8 symmetries of a Go board (rotations and reflections), applied to
//! points and board sizes: one implementation for transforming trees,
//! hashing positions up to symmetry and matching rotated copies of a game.
//!
//! A symmetry is kept as three bits — swap the axes, then mirror x, then
//! mirror y — which compose and invert with a few exclusive-ors. On a
//! rectangular board the four symmetries that swap the axes also swap its
//! dimensions ([`Symmetry::board_size`]).
//!
//! ```
//! use sgf_grove::game::Symmetry;
//! use sgf_grove::value::{BoardSize, Point};
//!
//! let size = BoardSize::square(19);
//! let star = Point { x: 15, y: 3 }; // `pd`, the upper right star point
//! assert_eq!(Symmetry::Rotate90.apply(star, size), Point { x: 15, y: 15 });
//! assert_eq!(Symmetry::FlipX.apply(star, size), Point { x: 3, y: 3 });
//! // Every symmetry undone by its inverse.
//! for s in Symmetry::ALL {
//!     assert_eq!(s.inverse().apply(s.apply(star, size), s.board_size(size)), star);
//! }
//! ```

use crate::value::{BoardSize, Point};
use std::fmt;
use std::str::FromStr;

/// One of the 8 symmetries of the board. Rotations are clockwise as the
/// board is drawn (x to the right, y down, `aa` at the top left).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Symmetry {
    /// Every point stays.
    #[default]
    Identity,
    /// A quarter turn clockwise: `(x, y)` → `(rows − 1 − y, x)`.
    Rotate90,
    /// A half turn: `(x, y)` → `(cols − 1 − x, rows − 1 − y)`.
    Rotate180,
    /// A quarter turn counter-clockwise: `(x, y)` → `(y, cols − 1 − x)`.
    Rotate270,
    /// Left and right exchanged: `(x, y)` → `(cols − 1 − x, y)`.
    FlipX,
    /// Top and bottom exchanged: `(x, y)` → `(x, rows − 1 − y)`.
    FlipY,
    /// Reflection in the diagonal through `aa`: `(x, y)` → `(y, x)`.
    Transpose,
    /// Reflection in the other diagonal: `(x, y)` → `(rows − 1 − y, cols − 1 − x)`.
    AntiTranspose,
}

/// The three bits of a symmetry: swap the axes, then mirror x (in the
/// swapped board), then mirror y.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Bits {
    swap: bool,
    flip_x: bool,
    flip_y: bool,
}

impl Symmetry {
    /// All 8, [`Symmetry::Identity`] first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::FlipX,
        Symmetry::FlipY,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    const fn bits(self) -> Bits {
        let (swap, flip_x, flip_y) = match self {
            Symmetry::Identity => (false, false, false),
            Symmetry::Rotate90 => (true, true, false),
            Symmetry::Rotate180 => (false, true, true),
            Symmetry::Rotate270 => (true, false, true),
            Symmetry::FlipX => (false, true, false),
            Symmetry::FlipY => (false, false, true),
            Symmetry::Transpose => (true, false, false),
            Symmetry::AntiTranspose => (true, true, true),
        };
        Bits {
            swap,
            flip_x,
            flip_y,
        }
    }

    const fn from_bits(b: Bits) -> Symmetry {
        match (b.swap, b.flip_x, b.flip_y) {
            (false, false, false) => Symmetry::Identity,
            (true, true, false) => Symmetry::Rotate90,
            (false, true, true) => Symmetry::Rotate180,
            (true, false, true) => Symmetry::Rotate270,
            (false, true, false) => Symmetry::FlipX,
            (false, false, true) => Symmetry::FlipY,
            (true, false, false) => Symmetry::Transpose,
            (true, true, true) => Symmetry::AntiTranspose,
        }
    }

    /// Whether it exchanges the axes (and so the dimensions of a
    /// rectangular board).
    pub const fn swaps_axes(self) -> bool {
        self.bits().swap
    }

    /// The size of the board after it: `size`, or its dimensions exchanged.
    pub const fn board_size(self, size: BoardSize) -> BoardSize {
        if self.swaps_axes() {
            BoardSize {
                cols: size.rows,
                rows: size.cols,
            }
        } else {
            size
        }
    }

    /// Where `point` of a board of `size` goes. A point outside the board
    /// is mirrored about the board's edges all the same (no panic, no
    /// overflow): callers check [`BoardSize::contains`] first.
    pub const fn apply(self, point: Point, size: BoardSize) -> Point {
        let b = self.bits();
        let (mut x, mut y) = if b.swap {
            (point.y, point.x)
        } else {
            (point.x, point.y)
        };
        let to = self.board_size(size);
        if b.flip_x {
            x = to.cols.wrapping_sub(1).wrapping_sub(x);
        }
        if b.flip_y {
            y = to.rows.wrapping_sub(1).wrapping_sub(y);
        }
        Point { x, y }
    }

    /// The symmetry that undoes this one (on the board it produced).
    #[must_use]
    pub const fn inverse(self) -> Symmetry {
        let b = self.bits();
        if b.swap {
            Symmetry::from_bits(Bits {
                swap: true,
                flip_x: b.flip_y,
                flip_y: b.flip_x,
            })
        } else {
            self
        }
    }

    /// This symmetry, then `next`: `a.then(b).apply(p)` is
    /// `b.apply(a.apply(p))` (each on the board the one before produced).
    #[must_use]
    pub const fn then(self, next: Symmetry) -> Symmetry {
        let (a, b) = (self.bits(), next.bits());
        // Swapping after a mirror of x is a mirror of y after the swap.
        let (flip_x, flip_y) = if b.swap {
            (a.flip_y ^ b.flip_x, a.flip_x ^ b.flip_y)
        } else {
            (a.flip_x ^ b.flip_x, a.flip_y ^ b.flip_y)
        };
        Symmetry::from_bits(Bits {
            swap: a.swap ^ b.swap,
            flip_x,
            flip_y,
        })
    }

    /// Its name in output and on the command line (`rot90`, `flip-x`, …).
    pub const fn name(self) -> &'static str {
        match self {
            Symmetry::Identity => "identity",
            Symmetry::Rotate90 => "rot90",
            Symmetry::Rotate180 => "rot180",
            Symmetry::Rotate270 => "rot270",
            Symmetry::FlipX => "flip-x",
            Symmetry::FlipY => "flip-y",
            Symmetry::Transpose => "transpose",
            Symmetry::AntiTranspose => "anti-transpose",
        }
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The name of no symmetry, from [`Symmetry::from_str`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownSymmetry(pub String);

impl fmt::Display for UnknownSymmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown symmetry `{}` (expected one of identity, rot90, rot180, rot270, \
             flip-x, flip-y, transpose, anti-transpose)",
            self.0
        )
    }
}

impl std::error::Error for UnknownSymmetry {}

impl FromStr for Symmetry {
    type Err = UnknownSymmetry;

    /// Reads [`Symmetry::name`]s.
    ///
    /// ```
    /// use sgf_grove::game::Symmetry;
    /// assert_eq!("rot270".parse(), Ok(Symmetry::Rotate270));
    /// assert!("rot45".parse::<Symmetry>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Symmetry, UnknownSymmetry> {
        Symmetry::ALL
            .into_iter()
            .find(|sym| sym.name() == s)
            .ok_or_else(|| UnknownSymmetry(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every point of a board, row by row.
    fn points(size: BoardSize) -> Vec<Point> {
        (0..size.rows)
            .flat_map(|y| (0..size.cols).map(move |x| Point { x, y }))
            .collect()
    }

    /// What the symmetry does to every point of a 5×3 board: a rectangular
    /// board tells all 8 apart.
    fn image(s: Symmetry, size: BoardSize) -> Vec<Point> {
        points(size).into_iter().map(|p| s.apply(p, size)).collect()
    }

    const RECT: BoardSize = BoardSize { cols: 5, rows: 3 };

    #[test]
    fn the_eight_are_distinct_bijections() {
        for size in [RECT, BoardSize::square(19), BoardSize::square(1)] {
            for s in Symmetry::ALL {
                let to = s.board_size(size);
                let mut seen = image(s, size);
                assert!(seen.iter().all(|&p| to.contains(p)), "{s} on {size:?}");
                seen.sort();
                let mut all = points(to);
                all.sort();
                assert_eq!(seen, all, "{s} is a bijection on {size:?}");
            }
        }
        let images: std::collections::HashSet<_> = Symmetry::ALL
            .iter()
            .map(|&s| (image(s, RECT), s.board_size(RECT)))
            .collect();
        assert_eq!(images.len(), 8);
    }

    #[test]
    fn named_formulas() {
        let size = RECT;
        let p = Point { x: 1, y: 2 };
        let (c, r) = (size.cols, size.rows);
        let cases = [
            (Symmetry::Identity, (1, 2)),
            (Symmetry::Rotate90, (r - 1 - 2, 1)),
            (Symmetry::Rotate180, (c - 1 - 1, r - 1 - 2)),
            (Symmetry::Rotate270, (2, c - 1 - 1)),
            (Symmetry::FlipX, (c - 1 - 1, 2)),
            (Symmetry::FlipY, (1, r - 1 - 2)),
            (Symmetry::Transpose, (2, 1)),
            (Symmetry::AntiTranspose, (r - 1 - 2, c - 1 - 1)),
        ];
        for (s, (x, y)) in cases {
            assert_eq!(s.apply(p, size), Point { x, y }, "{s}");
        }
        // Two quarter turns are a half turn; four are nothing.
        let r90 = Symmetry::Rotate90;
        assert_eq!(r90.then(r90), Symmetry::Rotate180);
        assert_eq!(r90.then(r90).then(r90), Symmetry::Rotate270);
        assert_eq!(r90.then(r90).then(r90).then(r90), Symmetry::Identity);
    }

    #[test]
    fn composition_and_inverse_agree_with_applying() {
        for a in Symmetry::ALL {
            for b in Symmetry::ALL {
                let mid = a.board_size(RECT);
                let by_steps: Vec<Point> = points(RECT)
                    .into_iter()
                    .map(|p| b.apply(a.apply(p, RECT), mid))
                    .collect();
                assert_eq!(image(a.then(b), RECT), by_steps, "{a} then {b}");
                assert_eq!(a.then(b).board_size(RECT), b.board_size(mid));
            }
            assert_eq!(a.then(a.inverse()), Symmetry::Identity, "{a}");
            assert_eq!(a.inverse().then(a), Symmetry::Identity, "{a}");
        }
    }

    #[test]
    fn names_round_trip() {
        for s in Symmetry::ALL {
            assert_eq!(s.name().parse(), Ok(s));
            assert_eq!(s.to_string(), s.name());
        }
        let err = "mirror".parse::<Symmetry>().unwrap_err();
        assert!(err.to_string().contains("`mirror`"));
    }

    #[test]
    fn points_off_the_board_do_not_panic() {
        let size = BoardSize::square(19);
        for s in Symmetry::ALL {
            let _ = s.apply(Point { x: 255, y: 200 }, size);
            let _ = s.apply(Point { x: 0, y: 0 }, BoardSize { cols: 0, rows: 0 });
        }
    }
}
