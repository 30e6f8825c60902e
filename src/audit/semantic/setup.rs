//! The setup of one node against the position before it: a point named in
//! two of `AB`, `AW`, `AE` (`setup_point_repeated`), and values that change
//! nothing (`setup_without_effect`).

use super::{show, Check, Findings};
use crate::game::board::Board;
use crate::tree::read::{ReadGame, ReadNode, ReadProperty};
use crate::value::{point_list_item, BoardSize, Color, Point};

/// The setup properties, each with its bit and the stone it puts.
const SETUP: [(&str, u8, Option<Color>); 3] = [
    ("AE", 1, None),
    ("AB", 2, Some(Color::Black)),
    ("AW", 4, Some(Color::White)),
];

/// Set on a point once its repetition was reported.
const REPORTED: u8 = 0x80;

/// Which setup lists named each point of the board in the current node:
/// a mask per point, valid where its stamp is the node's epoch (so that
/// nothing is cleared between nodes).
#[derive(Clone, Debug, Default)]
pub(super) struct Scratch {
    stamp: Vec<u32>,
    mask: Vec<u8>,
    epoch: u32,
}

impl Scratch {
    /// Starts a node on a board of `cells` points.
    fn start(&mut self, cells: usize) {
        if self.stamp.len() < cells {
            self.stamp.resize(cells, 0);
            self.mask.resize(cells, 0);
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.fill(0);
            self.epoch = 1;
        }
    }

    fn mask(&mut self, i: usize) -> &mut u8 {
        if self.stamp[i] != self.epoch {
            self.stamp[i] = self.epoch;
            self.mask[i] = 0;
        }
        &mut self.mask[i]
    }
}

/// The points of one value of a point list: `None` when malformed, off
/// the board or empty (the value audit reports the first two).
fn rect(raw: &[u8], size: BoardSize) -> Option<impl Iterator<Item = Point>> {
    let (from, to) = point_list_item(raw, size)??;
    Some((from.y..=to.y).flat_map(move |y| (from.x..=to.x).map(move |x| Point { x, y })))
}

/// Checks the setup of `node` against `before` (the board before it;
/// `None`: the empty board before a root).
pub(super) fn check<'g, N: ReadNode<'g>>(
    node: N,
    key: usize,
    lists: &[Option<N::Property>; 3],
    before: Option<&Board>,
    scratch: &mut Scratch,
    findings: &mut Findings,
) {
    let game = node.game();
    let size = game.board_size();
    let cols = usize::from(size.cols);
    let cell = |p: Point| usize::from(p.y) * cols + usize::from(p.x);
    scratch.start(cols * usize::from(size.rows));
    let props: [_; 3] = std::array::from_fn(|i| {
        let (ident, bit, stone) = SETUP[i];
        (lists[i], ident, bit, stone)
    });
    // Which lists name each point; a point in two is reported once, at
    // the value that names it the second time.
    for &(prop, ident, bit, _) in &props {
        let Some(prop) = prop else { continue };
        for (raw, offset) in prop.values_at() {
            let Some(points) = rect(raw, size) else {
                continue;
            };
            for p in points {
                let mask = scratch.mask(cell(p));
                let others = *mask & !bit & 7;
                if others != 0 && *mask & REPORTED == 0 {
                    *mask |= REPORTED;
                    let first = SETUP.iter().find(|s| others & s.1 != 0).map_or("", |s| s.0);
                    findings.push(
                        game,
                        Check::SetupPointRepeated,
                        key,
                        offset.map(|o| o.saturating_sub(1)),
                        || format!("point {p} is in both {first} and {ident}"),
                    );
                }
                *mask |= bit;
            }
        }
    }
    // Values whose every point gets what it holds already (and is named by
    // no other list of the node).
    for &(prop, ident, bit, stone) in &props {
        let Some(prop) = prop else { continue };
        for (raw, offset) in prop.values_at() {
            let Some(mut points) = rect(raw, size) else {
                continue;
            };
            let idle = points.all(|p| {
                let held = before.and_then(|b| b.get(p));
                *scratch.mask(cell(p)) & 7 == bit && held == stone
            });
            if idle {
                findings.push(
                    game,
                    Check::SetupWithoutEffect,
                    key,
                    offset.map(|o| o.saturating_sub(1)),
                    || {
                        let what = match stone {
                            None => "empty",
                            Some(Color::Black) => "black",
                            Some(Color::White) => "white",
                        };
                        format!("{ident}[{}] has no effect: {what} already", show(raw))
                    },
                );
            }
        }
    }
}
