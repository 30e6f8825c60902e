//! Point lists, with compressed rectangles expanded on the fly.

use super::access::invalid;
use super::types::{parse_point, split_compose, BoardSize, Point};
use super::ValueType;
use crate::error::Result;
use crate::tree::Values;

/// One value of a point list: a point, or the inclusive rectangle between
/// two corners (given in either order).
fn parse_item(raw: &[u8], size: BoardSize) -> Option<Option<(Point, Point)>> {
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

/// The points of a point-list property, from
/// [`Node::points`](crate::Node::points): each value's point, or each point
/// of its rectangle row by row, in file order. Nothing is allocated.
#[derive(Clone, Debug)]
pub struct Points<'t, 'src: 't> {
    values: Values<'t, 'src>,
    size: BoardSize,
    /// The rectangle being expanded and the next point in it.
    rect: Option<(Point, Point, Point)>,
}

impl<'t, 'src: 't> Points<'t, 'src> {
    pub(crate) fn new(values: Values<'t, 'src>, size: BoardSize) -> Result<Points<'t, 'src>> {
        for value in values.clone() {
            if parse_item(value.raw(), size).is_none() {
                return Err(invalid(value, ValueType::Point, values.collection()));
            }
        }
        Ok(Points {
            values,
            size,
            rect: None,
        })
    }
}

impl Iterator for Points<'_, '_> {
    type Item = Point;
    fn next(&mut self) -> Option<Point> {
        loop {
            if let Some((from, to, at)) = self.rect {
                let mut next = Point {
                    x: at.x + 1,
                    y: at.y,
                };
                if next.x > to.x {
                    next = Point {
                        x: from.x,
                        y: at.y + 1,
                    };
                }
                self.rect = (next.y <= to.y).then_some((from, to, next));
                return Some(at);
            }
            let value = self.values.next()?;
            if let Some(Some((from, to))) = parse_item(value.raw(), self.size) {
                self.rect = Some((from, to, from));
            }
        }
    }
}

impl std::iter::FusedIterator for Points<'_, '_> {}
