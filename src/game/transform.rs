//! A board symmetry and the exchange of colours, applied to the values of a
//! Go game's properties: what `sgf transform` and data augmentation need.
//!
//! Point-valued properties are moved: moves (`B`, `W`; a pass stays a
//! pass), setup (`AB`, `AW`, `AE`), territory (`TB`, `TW`), markup (`CR`,
//! `SQ`, `TR`, `MA`, `SL`, `DD`, `VW`, labels `LB`, arrows `AR` and lines
//! `LN`), with compressed rectangles (`aa:cc`) kept as rectangles; `SZ`
//! follows a symmetry that exchanges the axes of a rectangular board.
//!
//! Exchanging colours turns each black stone, move and territory point
//! into white and back, and with them what belongs to a colour: the time
//! left (`BL`/`WL`, `OB`/`OW`), the player to move (`PL`), the players,
//! ranks and teams (`PB`/`PW`, `BR`/`WR`, `BT`/`WT`) and the winner in
//! `RE`. Komi and handicap are left as written.
//!
//! ```
//! use sgf_grove::game::{Symmetry, Transform};
//! use sgf_grove::value::BoardSize;
//!
//! let t = Transform { symmetry: Symmetry::Rotate90, swap_colors: true };
//! let size = BoardSize::square(19);
//! let mut out = Vec::new();
//! assert_eq!(t.ident("B"), "W");
//! t.write_value("B", b"pd", size, &mut out)?;
//! assert_eq!(out, b"pp");
//! out.clear();
//! t.write_value("AB", b"aa:cb", size, &mut out)?; // a rectangle stays one
//! assert_eq!(out, b"ra:sc");
//! # Ok::<(), sgf_grove::Error>(())
//! ```

use super::Symmetry;
use crate::error::Result;
use crate::value::catalogue::lookup_bytes;
use crate::value::{coord, BoardSize, Point, ValueType};

/// A symmetry of the board, and whether colours are exchanged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Transform {
    /// Where every point goes.
    pub symmetry: Symmetry,
    /// Whether black and white are exchanged.
    pub swap_colors: bool,
}

/// Pairs of identifiers exchanged with the colours.
const COLOR_PAIRS: [(&str, &str); 8] = [
    ("B", "W"),
    ("AB", "AW"),
    ("TB", "TW"),
    ("BL", "WL"),
    ("OB", "OW"),
    ("PB", "PW"),
    ("BR", "WR"),
    ("BT", "WT"),
];

impl Transform {
    /// Whether it changes nothing.
    pub fn is_identity(&self) -> bool {
        self.symmetry == Symmetry::Identity && !self.swap_colors
    }

    /// The (normalised) identifier a property of identifier `ident` gets.
    pub fn ident<'a>(&self, ident: &'a str) -> &'a str {
        if self.swap_colors {
            for (black, white) in COLOR_PAIRS {
                if ident == black {
                    return white;
                }
                if ident == white {
                    return black;
                }
            }
        }
        ident
    }

    /// Writes one value of property `ident` (normalised, of a Go game on a
    /// board of `size`), transformed, to `out`: points moved, colours
    /// exchanged, anything else copied. A value that is not what its
    /// property holds (`B[zz]` on 19×19, `AB[a]`) is copied as it stands.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::PointOutOfRange`](crate::ErrorKind::PointOutOfRange)
    /// cannot happen for points on the board; none is returned today, the
    /// `Result` leaves room for checks to come.
    pub fn write_value(
        &self,
        ident: &str,
        raw: &[u8],
        size: BoardSize,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let sym = self.symmetry;
        match ident {
            "SZ" if sym.swaps_axes() => {
                let number = |s: &[u8]| {
                    let s = s.trim_ascii();
                    !s.is_empty() && s.iter().all(u8::is_ascii_digit)
                };
                let halves = split_colon(raw).filter(|&(c, r)| number(c) && number(r));
                if let Some((cols, rows)) = halves {
                    out.extend_from_slice(rows);
                    out.push(b':');
                    out.extend_from_slice(cols);
                    return Ok(());
                }
            }
            "PL" if self.swap_colors => {
                if let Some(other) = other_color(raw) {
                    out.push(other);
                    return Ok(());
                }
            }
            "RE" if self.swap_colors => {
                if let Some((&first, rest)) = raw.split_first()
                    && let (Some(other), Some(b'+')) = (other_color(&[first]), rest.first())
                {
                    out.push(other);
                    out.extend_from_slice(rest);
                    return Ok(());
                }
            }
            _ => {}
        }
        if sym == Symmetry::Identity {
            out.extend_from_slice(raw);
            return Ok(());
        }
        let ty = lookup_bytes(1, ident.as_bytes()).map(|info| info.ty);
        let moved = match ty {
            Some(ValueType::Move) => {
                // A pass (`[]`, or `tt` on boards up to 19×19) stays one.
                if raw.is_empty() || (raw == b"tt" && size.tt_is_pass()) {
                    None
                } else {
                    self.point(raw, size, out)
                }
            }
            Some(ValueType::Point | ValueType::Stone) => match split_colon(raw) {
                Some((a, b)) => self.rectangle(a, b, size, out),
                None => self.point(raw, size, out),
            },
            Some(ValueType::Compose(&ValueType::Point, &ValueType::Point)) => split_colon(raw)
                .and_then(|(a, b)| {
                    let (a, b) = (read(a, size)?, read(b, size)?);
                    put(sym.apply(a, size), out);
                    out.push(b':');
                    put(sym.apply(b, size), out);
                    Some(())
                }),
            Some(ValueType::Compose(&ValueType::Point, _)) => {
                split_colon(raw).and_then(|(a, text)| {
                    let a = read(a, size)?;
                    put(sym.apply(a, size), out);
                    out.push(b':');
                    out.extend_from_slice(text);
                    Some(())
                })
            }
            _ => None,
        };
        if moved.is_none() {
            out.extend_from_slice(raw);
        }
        Ok(())
    }

    /// Writes the point `raw` moved; `None` (nothing written) when `raw` is
    /// not a point of the board.
    fn point(&self, raw: &[u8], size: BoardSize, out: &mut Vec<u8>) -> Option<()> {
        let p = read(raw, size)?;
        put(self.symmetry.apply(p, size), out);
        Some(())
    }

    /// Writes the rectangle with corners `a` and `b` moved, as its top left
    /// and bottom right corners.
    fn rectangle(&self, a: &[u8], b: &[u8], size: BoardSize, out: &mut Vec<u8>) -> Option<()> {
        let (a, b) = (read(a, size)?, read(b, size)?);
        let (a, b) = (self.symmetry.apply(a, size), self.symmetry.apply(b, size));
        put(
            Point {
                x: a.x.min(b.x),
                y: a.y.min(b.y),
            },
            out,
        );
        out.push(b':');
        put(
            Point {
                x: a.x.max(b.x),
                y: a.y.max(b.y),
            },
            out,
        );
        Some(())
    }
}

/// `B` for `W` and back.
fn other_color(raw: &[u8]) -> Option<u8> {
    match raw {
        b"B" => Some(b'W'),
        b"W" => Some(b'B'),
        _ => None,
    }
}

/// The two halves of a compose value, at its first unescaped `:`.
fn split_colon(raw: &[u8]) -> Option<(&[u8], &[u8])> {
    let mut escaped = false;
    for (i, &b) in raw.iter().enumerate() {
        match b {
            b'\\' if !escaped => escaped = true,
            b':' if !escaped => return Some((&raw[..i], &raw[i + 1..])),
            _ => escaped = false,
        }
    }
    None
}

/// Two letters naming a point of the board.
fn read(raw: &[u8], size: BoardSize) -> Option<Point> {
    let &[a, b] = raw else {
        return None;
    };
    let p = Point {
        x: coord(a)?,
        y: coord(b)?,
    };
    size.contains(p).then_some(p)
}

/// Appends the letters of a point of a board of at most 52×52.
fn put(p: Point, out: &mut Vec<u8>) {
    // A point of the board has letters: the board is at most 52×52.
    if let Ok(letters) = p.to_sgf() {
        out.extend_from_slice(&letters);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(t: Transform, ident: &str, raw: &str, size: BoardSize) -> String {
        let mut out = Vec::new();
        t.write_value(ident, raw.as_bytes(), size, &mut out)
            .unwrap();
        String::from_utf8(out).unwrap()
    }

    const S19: BoardSize = BoardSize { cols: 19, rows: 19 };

    fn rot(s: Symmetry) -> Transform {
        Transform {
            symmetry: s,
            swap_colors: false,
        }
    }

    #[test]
    fn moves_passes_and_lists() {
        let t = rot(Symmetry::Rotate90);
        assert_eq!(write(t, "B", "pd", S19), "pp");
        assert_eq!(write(t, "W", "", S19), "");
        assert_eq!(write(t, "W", "tt", S19), "tt", "a pass stays a pass");
        let big = BoardSize::square(21);
        assert_eq!(write(t, "W", "tt", big), "bt", "tt is a point on 21×21");
        assert_eq!(write(t, "AB", "aa:cb", S19), "ra:sc");
        assert_eq!(write(t, "LB", "pd:A:b", S19), "pp:A:b");
        assert_eq!(write(t, "AR", "aa:pd", S19), "sa:pp");
        assert_eq!(write(t, "VW", "", S19), "");
        // Not a point of the board: copied.
        assert_eq!(write(t, "B", "zz", S19), "zz");
        assert_eq!(write(t, "C", "pd", S19), "pd");
        assert_eq!(write(t, "KM", "6.5", S19), "6.5");
    }

    #[test]
    fn rectangular_boards_swap_their_size() {
        let size = BoardSize { cols: 19, rows: 13 };
        let t = rot(Symmetry::Transpose);
        assert_eq!(write(t, "SZ", "19:13", size), "13:19");
        // Not two numbers: copied.
        assert_eq!(write(t, "SZ", "9x:ii]a[b", size), "9x:ii]a[b");
        assert_eq!(write(t, "B", "sa", size), "as");
        let t = rot(Symmetry::Rotate180);
        assert_eq!(write(t, "SZ", "19:13", size), "19:13");
        assert_eq!(write(t, "B", "aa", size), "sm");
    }

    #[test]
    fn colours_exchanged() {
        let t = Transform {
            symmetry: Symmetry::Identity,
            swap_colors: true,
        };
        for (a, b) in [
            ("B", "W"),
            ("AB", "AW"),
            ("TW", "TB"),
            ("BL", "WL"),
            ("PW", "PB"),
        ] {
            assert_eq!(t.ident(a), b);
            assert_eq!(t.ident(b), a);
        }
        assert_eq!(t.ident("BM"), "BM");
        assert_eq!(t.ident("C"), "C");
        assert_eq!(write(t, "PL", "B", S19), "W");
        assert_eq!(write(t, "RE", "B+R", S19), "W+R");
        assert_eq!(write(t, "RE", "Draw", S19), "Draw");
        assert_eq!(write(t, "B", "pd", S19), "pd");
        assert!(!t.is_identity());
        assert!(Transform::default().is_identity());
    }

    #[test]
    fn a_symmetry_then_its_inverse_gives_every_value_back() {
        let size = BoardSize { cols: 7, rows: 5 };
        let values = [
            ("B", "ab"),
            ("AB", "ab:dc"),
            ("LB", "ac:x"),
            ("LN", "aa:ge"),
            ("SZ", "7:5"),
        ];
        for s in Symmetry::ALL {
            for (ident, raw) in values {
                let there = write(rot(s), ident, raw, size);
                let back = write(rot(s.inverse()), ident, &there, s.board_size(size));
                assert_eq!(back, raw, "{s} on {ident}[{raw}]");
            }
        }
    }
}
