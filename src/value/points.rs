//! One value of a point list: a point, or a compressed rectangle.

use super::types::{parse_point, split_compose, BoardSize, Point};

/// One value of a point list on a board of `size`: `Some(Some((from,
/// to)))` for the inclusive rectangle between two corners (given in either
/// order; a point is the rectangle from itself to itself), `Some(None)` for
/// an empty value, which adds no point, and `None` when malformed or off
/// the board.
#[inline]
pub(crate) fn parse_item(raw: &[u8], size: BoardSize) -> Option<Option<(Point, Point)>> {
    if raw.trim_ascii().is_empty() {
        return Some(None);
    }
    let on_board = |p: Point| size.contains(p).then_some(p);
    match split_compose(raw) {
        None => {
            let p = on_board(parse_point(raw)?)?;
            Some(Some((p, p)))
        }
        Some((a, b)) => {
            let a = on_board(parse_point(a)?)?;
            let b = on_board(parse_point(b)?)?;
            Some(Some((
                Point {
                    x: a.x.min(b.x),
                    y: a.y.min(b.y),
                },
                Point {
                    x: a.x.max(b.x),
                    y: a.y.max(b.y),
                },
            )))
        }
    }
}
