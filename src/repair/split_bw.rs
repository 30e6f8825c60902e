//! `split-bw`: a node with both `B` and `W` becomes two nodes.

use super::plan::{first_raw, item_offset, reads_alike_out_of_root, Planner};
use super::Repair;
use crate::tree::Node;
use crate::writer::Item;

/// Setup, which goes with the first of two moves in `split-bw`.
const SETUP_PROPS: [&str; 4] = ["AB", "AW", "AE", "PL"];

impl<'t, 'src> Planner<'t, 'src> {
    /// `split-bw`: each node of `chain` (the nodes written for `node`)
    /// that holds both `B` and `W` split in two.
    pub(super) fn split_moves(
        &mut self,
        node: Node<'t, 'src>,
        root: bool,
        chain: &mut Vec<Vec<Item<'t, 'src>>>,
    ) {
        let mut k = 0;
        while k < chain.len() {
            // The root's second half goes to a node of its own.
            let root_node = (root && k == 0).then_some(node);
            if let Some((first, second)) = self.split_bw(&mut chain[k], root_node) {
                chain.splice(k..=k, [first, second]);
                k += 1;
            }
            k += 1;
        }
    }

    /// `items` split in two when they hold both `B` and `W`: the first
    /// move with its time and the setup, then the second with the rest;
    /// in the root, the second move and its time alone leave the root.
    #[allow(clippy::type_complexity)]
    fn split_bw(
        &mut self,
        items: &mut Vec<Item<'t, 'src>>,
        root: Option<Node<'t, 'src>>,
    ) -> Option<(Vec<Item<'t, 'src>>, Vec<Item<'t, 'src>>)> {
        let b = items.iter().position(|i| i.ident() == "B")?;
        let w = items.iter().position(|i| i.ident() == "W")?;
        let (first, second) = if b < w { (b, w) } else { (w, b) };
        let (side, other): ([&str; 3], [&str; 3]) = if b < w {
            (["B", "BL", "OB"], ["W", "WL", "OW"])
        } else {
            (["W", "WL", "OW"], ["B", "BL", "OB"])
        };
        // In the root, only the second move and its time leave: the root,
        // game-info and any other property stay in the root, as read
        // there (a root read after its `CA` keeps a repeated property's
        // occurrences apart, which a node of its own would merge).
        let in_root = root.is_some();
        let stays = |i: &Item<'t, 'src>| {
            if in_root {
                !other.contains(&i.ident())
            } else {
                side.contains(&i.ident()) || SETUP_PROPS.contains(&i.ident())
            }
        };
        if let Some(root) = root
            && !reads_alike_out_of_root(root, items.iter().filter(|i| !stays(i)))
        {
            return None;
        }
        let message = format!(
            "{}[{}] and {}[{}] split into two nodes",
            items[first].ident(),
            self.show(first_raw(&items[first])),
            items[second].ident(),
            self.show(first_raw(&items[second]))
        );
        self.report(Repair::SplitBw, item_offset(&items[second]), message);
        let (one, two) = items.drain(..).partition(|i| stays(i));
        Some((one, two))
    }
}
