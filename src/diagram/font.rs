//! A small stroke font of our own: digits, capital letters (small letters
//! drawn as smaller capitals) and the few symbols labels use, each glyph a
//! few polylines on a grid 8 wide and 12 high (baseline at 12). Diagrams
//! draw their text as SVG paths stroked with this font, so a diagram looks
//! the same in every browser and renderer, with no font installed.
//!
//! A character the font lacks is drawn as an empty box.

use std::fmt::Write as _;

/// The glyph grid's height (the capitals' height, baseline to top).
pub(crate) const EM: f64 = 12.0;
/// The advance of every glyph, in grid units (8 wide, a gap of 3).
const ADVANCE: f64 = 11.0;
/// The width of a glyph's ink, in grid units.
const INK: f64 = 8.0;
/// Small letters: capitals scaled by this factor, sitting on the baseline.
const SMALL: f64 = 0.75;

/// The polylines of `c` (`x,y` points separated by spaces, polylines by
/// `|`), or `None` when the font lacks it.
fn glyph(c: char) -> Option<&'static str> {
    Some(match c {
        '0' => "2,0 6,0 8,3 8,9 6,12 2,12 0,9 0,3 2,0",
        '1' => "1.5,2.5 5,0 5,12|1.5,12 8,12",
        '2' => "0,2 2,0 6,0 8,2 8,4.5 0,12 8,12",
        '3' => "0,1.5 1.5,0 6.5,0 8,1.5 8,4.5 6.5,6 3,6|6.5,6 8,7.5 8,10.5 6.5,12 1.5,12 0,10.5",
        '4' => "6,12 6,0 0,8.5 8,8.5",
        '5' => "8,0 0.5,0 0,5.5 6,5.5 8,7.5 8,10 6,12 0,12",
        '6' => "7,0 3.5,0 0,4 0,10 2,12 6,12 8,10 8,7.5 6,5.5 0,5.5",
        '7' => "0,0 8,0 3,12",
        '8' => "2,0 6,0 7.5,1.5 7.5,4.5 6,6 2,6 0.5,4.5 0.5,1.5 2,0|2,6 6,6 8,8 8,10 6,12 2,12 0,10 0,8 2,6",
        '9' => "8,6.5 2,6.5 0,4.5 0,2 2,0 6,0 8,2 8,8 4.5,12 1,12",
        'A' => "0,12 4,0 8,12|1.4,8 6.6,8",
        'B' => "0,6 6,6 8,8 8,10 6,12 0,12 0,0 5.5,0 7.5,1.5 7.5,4.5 6,6",
        'C' => "8,2 6,0 2,0 0,2 0,10 2,12 6,12 8,10",
        'D' => "0,0 0,12 5,12 8,9 8,3 5,0 0,0",
        'E' => "8,0 0,0 0,12 8,12|0,6 6,6",
        'F' => "8,0 0,0 0,12|0,6 6,6",
        'G' => "8,2 6,0 2,0 0,2 0,10 2,12 6,12 8,10 8,7 5,7",
        'H' => "0,0 0,12|8,0 8,12|0,6 8,6",
        'I' => "2,0 6,0|4,0 4,12|2,12 6,12",
        'J' => "8,0 8,10 6,12 2,12 0,10",
        'K' => "0,0 0,12|8,0 0,7.5|2.8,5 8,12",
        'L' => "0,0 0,12 8,12",
        'M' => "0,12 0,0 4,7 8,0 8,12",
        'N' => "0,12 0,0 8,12 8,0",
        'O' => "2,0 6,0 8,2 8,10 6,12 2,12 0,10 0,2 2,0",
        'P' => "0,12 0,0 6,0 8,2 8,4 6,6 0,6",
        'Q' => "2,0 6,0 8,2 8,10 6,12 2,12 0,10 0,2 2,0|5,9 8,12.5",
        'R' => "0,12 0,0 6,0 8,2 8,4 6,6 0,6|4,6 8,12",
        'S' => "8,2 6,0 2,0 0,2 0,4 2,6 6,6 8,8 8,10 6,12 2,12 0,10",
        'T' => "0,0 8,0|4,0 4,12",
        'U' => "0,0 0,10 2,12 6,12 8,10 8,0",
        'V' => "0,0 4,12 8,0",
        'W' => "0,0 2,12 4,5 6,12 8,0",
        'X' => "0,0 8,12|8,0 0,12",
        'Y' => "0,0 4,6 8,0|4,6 4,12",
        'Z' => "0,0 8,0 0,12 8,12",
        '-' => "1.5,6.5 6.5,6.5",
        '+' => "4,3 4,10|0.5,6.5 7.5,6.5",
        '=' => "1,4.5 7,4.5|1,8.5 7,8.5",
        '.' => "4,11.8 4,12",
        ',' => "4.5,11 3.5,14",
        ':' => "4,3.8 4,4|4,11.8 4,12",
        ';' => "4,3.8 4,4|4.5,11 3.5,14",
        '!' => "4,0 4,8|4,11.8 4,12",
        '?' => "0,2 2,0 6,0 8,2 8,4 4,7 4,8.5|4,11.8 4,12",
        '\'' => "4,0 4,3",
        '"' => "2.5,0 2.5,3|5.5,0 5.5,3",
        '(' => "5.5,0 3,3 3,9 5.5,12",
        ')' => "2.5,0 5,3 5,9 2.5,12",
        '[' => "5.5,0 3,0 3,12 5.5,12",
        ']' => "2.5,0 5,0 5,12 2.5,12",
        '/' => "7,0 1,12",
        '\\' => "1,0 7,12",
        '*' => "4,2 4,10|0.8,4 7.2,8|0.8,8 7.2,4",
        '#' => "3,1 2,11|6,1 5,11|0.5,4 7.5,4|0.5,8 7.5,8",
        '%' => "7,1 1,11|1.5,1.5 2.5,1.5 2.5,3.5 1.5,3.5 1.5,1.5|5.5,8.5 6.5,8.5 6.5,10.5 5.5,10.5 5.5,8.5",
        '<' => "7,2 1,6.5 7,11",
        '>' => "1,2 7,6.5 1,11",
        '_' => "0,12 8,12",
        '&' => "8,12 1,4 1,2 3,0 5,0 6,2 6,3 0,8 0,10 2,12 5,12 8,8",
        '@' => "6,8 6,4 3,4 2,6 3,8 8,8 8,2 6,0 2,0 0,2 0,10 2,12 7,12",
        _ => return None,
    })
}

/// The box drawn for a character the font lacks.
const MISSING: &str = "0.5,0 7.5,0 7.5,12 0.5,12 0.5,0";

/// The width of `text` drawn `height` high (capitals' height).
pub(crate) fn width(text: &str, height: f64) -> f64 {
    let n = text.chars().count();
    if n == 0 {
        return 0.0;
    }
    (ADVANCE * (n - 1) as f64 + INK) * height / EM
}

/// Appends to `d` (an SVG path's data) the strokes of `text`, `height` high
/// (capitals' height), centred on `(cx, cy)` both ways.
pub(crate) fn path_centred(d: &mut String, text: &str, cx: f64, cy: f64, height: f64) {
    let x = cx - width(text, height) / 2.0;
    path(d, text, x, cy + height / 2.0, height);
}

/// Appends to `d` the strokes of `text`, `height` high, its left edge at
/// `x` and its baseline at `baseline`.
pub(crate) fn path(d: &mut String, text: &str, x: f64, baseline: f64, height: f64) {
    let scale = height / EM;
    for (i, c) in text.chars().enumerate() {
        if c == ' ' {
            continue;
        }
        let upper = c.to_ascii_uppercase();
        let (lines, small) = match glyph(upper) {
            Some(g) => (g, upper != c),
            None => (MISSING, false),
        };
        let left = x + ADVANCE * i as f64 * scale;
        let (k, dx) = if small {
            (scale * SMALL, INK * (1.0 - SMALL) / 2.0 * scale)
        } else {
            (scale, 0.0)
        };
        for line in lines.split('|') {
            for (j, xy) in line.split(' ').enumerate() {
                let (gx, gy) = xy.split_once(',').unwrap_or(("0", "0"));
                let gx: f64 = gx.parse().unwrap_or(0.0);
                let gy: f64 = gy.parse().unwrap_or(0.0);
                let px = left + dx + gx * k;
                let py = baseline - (EM - gy) * k;
                let _ = write!(
                    d,
                    "{}{} {}",
                    if j == 0 { 'M' } else { 'L' },
                    num(px),
                    num(py)
                );
            }
        }
    }
}

/// A coordinate written with at most two decimals, trailing zeros dropped.
pub(crate) fn num(v: f64) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_glyph_stays_on_its_grid() {
        let chars = ('0'..='9')
            .chain('A'..='Z')
            .chain("-+=.,:;!?'\"()[]/\\*#%<>_&@".chars());
        for c in chars {
            let g = glyph(c).unwrap_or_else(|| panic!("no glyph for {c:?}"));
            for line in g.split('|') {
                let points: Vec<_> = line.split(' ').collect();
                assert!(points.len() >= 2, "{c:?}: a polyline of one point");
                for xy in points {
                    let (x, y) = xy.split_once(',').expect("x,y");
                    let (x, y): (f64, f64) = (x.parse().unwrap(), y.parse().unwrap());
                    assert!((0.0..=INK).contains(&x), "{c:?}: x {x}");
                    assert!((0.0..=14.0).contains(&y), "{c:?}: y {y}");
                }
            }
        }
    }

    #[test]
    fn text_is_centred_and_sized() {
        let mut d = String::new();
        path_centred(&mut d, "1", 100.0, 50.0, 12.0);
        // `1`: from (1.5, 2.5) up to its top (5, 0), down its stem to the
        // baseline (56); the ink 8 wide from x 96.
        assert!(d.contains("M97.5 46.5L101 44L101 56"), "{d}");
        assert_eq!(width("10", 12.0), 19.0);
        assert_eq!(width("", 12.0), 0.0);
        // A small letter is a smaller capital on the same baseline.
        let (mut big, mut small) = (String::new(), String::new());
        path(&mut big, "T", 0.0, 12.0, 12.0);
        path(&mut small, "t", 0.0, 12.0, 12.0);
        assert_eq!(big, "M0 0L8 0M4 0L4 12");
        assert_eq!(small, "M1 3L7 3M4 3L4 12");
    }

    #[test]
    fn missing_characters_are_boxes() {
        let mut d = String::new();
        path(&mut d, "碁", 0.0, 12.0, 12.0);
        assert_eq!(d, "M0.5 0L7.5 0L7.5 12L0.5 12L0.5 0");
    }
}
