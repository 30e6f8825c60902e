//! Points as engines write them (GTP): a column letter `A`–`Z` without
//! `I`, then the row counted from the bottom (`Q16`), or `pass`.

use crate::value::{BoardSize, Move, Point};

/// The move `text` names on a board of `size`, or `None` when it names
/// none (bad letters, a point off the board).
pub(crate) fn parse(text: &str, size: BoardSize) -> Option<Move> {
    if text.eq_ignore_ascii_case("pass") {
        return Some(Move::Pass);
    }
    let bytes = text.as_bytes();
    let letter = bytes.first()?.to_ascii_uppercase();
    let x = match letter {
        b'A'..=b'H' => letter - b'A',
        b'J'..=b'Z' => letter - b'A' - 1,
        _ => return None,
    };
    let digits = &text[1..];
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let row: u8 = digits.parse().ok()?;
    if x >= size.cols || row == 0 || row > size.rows {
        return None;
    }
    Some(Move::Play(Point {
        x,
        y: size.rows - row,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtp_points() {
        let size = BoardSize::square(19);
        let p = |x, y| Some(Move::Play(Point { x, y }));
        assert_eq!(parse("Q16", size), p(15, 3));
        assert_eq!(parse("D4", size), p(3, 15));
        assert_eq!(parse("A19", size), p(0, 0));
        assert_eq!(parse("T1", size), p(18, 18));
        assert_eq!(parse("j10", size), p(8, 9));
        assert_eq!(parse("PASS", size), Some(Move::Pass));
        for bad in ["I5", "U1", "A20", "A0", "Q", "", "Q1x", "Q123"] {
            assert_eq!(parse(bad, size), None, "{bad}");
        }
    }
}
