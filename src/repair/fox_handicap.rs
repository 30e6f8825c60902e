//! `fox-handicap`: handicap stones outside the root, `HA` agreeing with
//! their number, moved into the root as `AB`.

use super::plan::{Handicap, Planner};
use super::Repair;
use crate::value::Move;
use crate::writer::Item;
use std::borrow::Cow;

impl<'t, 'src> Planner<'t, 'src> {
    /// The handicap stones to move into the root, if `fox-handicap` finds
    /// some (and reports it).
    pub(crate) fn handicap(&mut self) -> Option<Handicap<'t, 'src>> {
        let root = self.game.root();
        let ha = root.raw("HA")?;
        let ha: usize = std::str::from_utf8(ha).ok()?.trim().parse().ok()?;
        if ha < 2 || ["AB", "AW", "B", "W"].iter().any(|p| root.has(p)) {
            return None;
        }
        let first = root.first_child()?;
        if first.next_sibling().is_some() {
            return None;
        }
        // Fox: a node after the root with the stones as `AB`, and nothing
        // else.
        if first.property_count() == 1
            && let Some(ab) = first.property("AB")
        {
            let count = first.points("AB").ok()?.count();
            if count != ha {
                return None;
            }
            self.report(
                    Repair::FoxHandicap,
                    first.offset(),
                    format!("the {count} handicap stones of the node after the root moved into the root as AB (HA[{ha}] agrees)"),
                );
            return Some(Handicap {
                drop: vec![first.id()],
                stones: Item::Prop(ab),
            });
        }
        // `HA` leading black moves, each alone in its node, and no more
        // black moves after them.
        let size = self.game.board_size();
        let mut node = first;
        let mut drop = Vec::with_capacity(ha);
        let mut values = Vec::with_capacity(ha);
        let mut context = None;
        for k in 0..ha {
            if k > 0 {
                node = node.first_child()?;
                if node.next_sibling().is_some() {
                    return None;
                }
            }
            let b = node.property("B").filter(|_| node.property_count() == 1)?;
            let value = b.first_value();
            if b.values().nth(1).is_some()
                || !matches!(Move::read(value.raw(), size), Some(Move::Play(_)))
            {
                return None;
            }
            if k + 1 < ha
                && node
                    .first_child()
                    .is_none_or(|c| c.next_sibling().is_some())
            {
                return None;
            }
            context.get_or_insert(b);
            drop.push(node.id());
            values.push((Cow::Borrowed(value.raw()), value.span().start));
        }
        if let Some(next) = node.first_child()
            && next.has("B")
            && !next.has("W")
        {
            return None;
        }
        self.report(
            Repair::FoxHandicap,
            first.offset(),
            format!("{ha} leading black moves turned into AB in the root (HA[{ha}])"),
        );
        Some(Handicap {
            drop,
            stones: Item::New {
                ident: "AB",
                values,
                context: context?,
            },
        })
    }
}
