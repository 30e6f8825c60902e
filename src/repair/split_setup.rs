//! `split-setup`: setup and a move in one node become two nodes.

use super::plan::{first_raw, item_offset, reads_alike_out_of_root, Planner};
use super::Repair;
use crate::tree::Node;
use crate::writer::Item;

/// Properties that go with the move, into the second node.
const MOVE_PROPS: [&str; 12] = [
    "B", "W", "KO", "MN", "BL", "WL", "OB", "OW", "BM", "DO", "IT", "TE",
];

/// Setup properties.
const SETUP: [&str; 3] = ["AB", "AW", "AE"];

impl<'t, 'src> Planner<'t, 'src> {
    /// `split-setup`: each node of `chain` (the nodes written for `node`)
    /// holding setup and a move split in two, the setup first (the order
    /// a replay applies them).
    pub(super) fn split_setup(
        &mut self,
        node: Node<'t, 'src>,
        root: bool,
        chain: &mut Vec<Vec<Item<'t, 'src>>>,
    ) {
        let mut k = 0;
        while k < chain.len() {
            let items = &chain[k];
            let setup = items.iter().find(|i| SETUP.contains(&i.ident()));
            let mv = items.iter().find(|i| matches!(i.ident(), "B" | "W"));
            let (Some(setup), Some(mv)) = (setup, mv) else {
                k += 1;
                continue;
            };
            if root
                && k == 0
                && !reads_alike_out_of_root(
                    node,
                    items.iter().filter(|i| MOVE_PROPS.contains(&i.ident())),
                )
            {
                k += 1;
                continue;
            }
            let message = format!(
                "{} and {}[{}] split into two nodes, the setup first",
                setup.ident(),
                mv.ident(),
                self.show(first_raw(mv))
            );
            let at = item_offset(setup);
            self.report(Repair::SplitSetup, at, message);
            let (moved, kept): (Vec<_>, Vec<_>) = chain[k]
                .drain(..)
                .partition(|i| MOVE_PROPS.contains(&i.ident()));
            chain.splice(k..=k, [kept, moved]);
            k += 2;
        }
    }
}
