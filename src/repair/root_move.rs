//! `root-move`: a move in the root goes to a node of its own.

use super::plan::{first_raw, item_offset, reads_alike_out_of_root, Planner};
use super::Repair;
use crate::tree::Node;
use crate::writer::Item;

/// Properties that go with a move when `root-move` takes it out of the
/// root.
const MOVE_PROPS: [&str; 12] = [
    "B", "W", "KO", "MN", "BL", "WL", "OB", "OW", "BM", "DO", "IT", "TE",
];

impl<'t, 'src> Planner<'t, 'src> {
    /// `root-move`: the move in the root's items (`chain[0]`) and the
    /// properties that go with it moved to a node of their own after the
    /// root, when they read there as in the root.
    pub(super) fn root_move(&mut self, node: Node<'t, 'src>, chain: &mut Vec<Vec<Item<'t, 'src>>>) {
        if !reads_alike_out_of_root(
            node,
            chain[0].iter().filter(|i| MOVE_PROPS.contains(&i.ident())),
        ) {
            return;
        }
        if let Some(at) = chain[0].iter().position(|i| matches!(i.ident(), "B" | "W")) {
            let message = format!(
                "{}[{}] moved out of the root into a node of its own",
                chain[0][at].ident(),
                self.show(first_raw(&chain[0][at]))
            );
            self.report(Repair::RootMove, item_offset(&chain[0][at]), message);
            let (moved, kept) = chain[0]
                .drain(..)
                .partition(|i| MOVE_PROPS.contains(&i.ident()));
            *chain = vec![kept, moved];
        }
    }
}
