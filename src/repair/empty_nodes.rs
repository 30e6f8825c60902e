//! `empty-nodes`: which children a node has in the output, the empty
//! nodes (and the nodes of handicap stones moved into the root) left out.

use super::plan::{Handicap, Planner};
use super::Repair;
use crate::tree::Node;

impl<'t, 'src> Planner<'t, 'src> {
    /// The children `node` has in the output (see [`Planner::out_kids`]),
    /// into `kids`; reports the empty nodes removed on the way.
    pub(crate) fn children(
        &mut self,
        node: Node<'t, 'src>,
        handicap: Option<&Handicap<'t, 'src>>,
        kids: &mut Vec<Node<'t, 'src>>,
    ) {
        kids.clear();
        let Some(first) = node.first_child() else {
            return;
        };
        // The common case: one child, written as it is.
        if first.next_sibling().is_none() && !self.droppable(first, handicap) {
            kids.push(first);
            return;
        }
        let (out, removed) = self.out_kids(node, handicap, 0);
        kids.extend(out);
        for empty in removed {
            self.report(
                Repair::EmptyNodes,
                empty.offset(),
                "empty node removed".to_owned(),
            );
        }
    }

    /// Whether `node` may be left out: it holds handicap stones moved
    /// into the root, or it is an empty node (not the root) and
    /// `empty-nodes` runs.
    fn droppable(&self, node: Node<'t, 'src>, handicap: Option<&Handicap<'t, 'src>>) -> bool {
        handicap.is_some_and(|h| h.drop.contains(&node.id()))
            || (self.on(Repair::EmptyNodes)
                && !node.is_root()
                && node.property_count() == 0
                && !self.shields_a_root_property(node))
    }

    /// Whether a child of the empty node `node`, as written, starts with a
    /// property only a root may hold (`CA`, `SZ`…): without the empty node
    /// before it, such a child may become the first node of a variation,
    /// which a reader takes for the root of a new game (a file cut off,
    /// the next one appended). The parser puts an empty node there for
    /// that reason; it stays. A child that `split-bw` splits writes its
    /// first move (and setup) first, and the rest after.
    fn shields_a_root_property(&self, node: Node<'t, 'src>) -> bool {
        let mut child = node.first_child();
        while let Some(c) = child {
            let split = self.on(Repair::SplitBw) && c.has("B") && c.has("W");
            if !split
                && c.properties()
                    .any(|p| crate::edit::ROOT_ONLY.contains(&p.ident()))
            {
                return true;
            }
            child = c.next_sibling();
        }
        false
    }

    /// The children `node` has in the output, and the empty nodes left out
    /// on the way (not those inside an empty node that stays: they are
    /// found when it is written). A node that may be left out gives way
    /// to the children it has in the output, decided on the list they
    /// land in, so that a second pass finds nothing more:
    ///
    /// - handicap stones' nodes always;
    /// - an empty node with one child in the output, or alone in the
    ///   list;
    /// - an empty node with no child in the output unless it is the first
    ///   of the list (it ends the main line there; without it the next
    ///   variation would become the main line);
    /// - an empty node with several children stays unless it is alone
    ///   (they would become variations of another move).
    ///
    /// Chains of single children are followed without recursion; empty
    /// nodes with several children within each other are looked into 64
    /// levels deep, and kept deeper.
    #[allow(clippy::type_complexity)]
    fn out_kids(
        &self,
        node: Node<'t, 'src>,
        handicap: Option<&Handicap<'t, 'src>>,
        depth: usize,
    ) -> (Vec<Node<'t, 'src>>, Vec<Node<'t, 'src>>) {
        enum Slot<'t, 'src> {
            Keep(Node<'t, 'src>),
            Maybe {
                node: Node<'t, 'src>,
                forced: bool,
                kids: Vec<Node<'t, 'src>>,
                removed: Vec<Node<'t, 'src>>,
            },
        }
        let mut slots = Vec::new();
        for child in node.children() {
            if !self.droppable(child, handicap) || depth >= 64 {
                slots.push(Slot::Keep(child));
                continue;
            }
            // A chain of droppable single children gives way to what the
            // last one keeps.
            let mut last = child;
            let mut removed = Vec::new();
            while let Some(next) = last.first_child() {
                if next.next_sibling().is_some() || !self.droppable(next, handicap) {
                    break;
                }
                if !handicap.is_some_and(|h| h.drop.contains(&next.id())) {
                    removed.push(next);
                }
                last = next;
            }
            let (kids, inner) = self.out_kids(last, handicap, depth + 1);
            removed.extend(inner);
            slots.push(Slot::Maybe {
                node: child,
                forced: handicap.is_some_and(|h| h.drop.contains(&child.id())),
                kids,
                removed,
            });
        }
        let mut out: Vec<Slot<'t, 'src>> = Vec::with_capacity(slots.len());
        let mut gone = Vec::new();
        for slot in slots {
            match slot {
                Slot::Maybe {
                    node,
                    forced,
                    kids,
                    removed,
                } if forced || kids.len() == 1 || (kids.is_empty() && !out.is_empty()) => {
                    if !forced {
                        gone.push(node);
                    }
                    gone.extend(removed);
                    out.extend(kids.into_iter().map(Slot::Keep));
                }
                slot => out.push(slot),
            }
        }
        if out.len() == 1
            && matches!(out[0], Slot::Maybe { .. })
            && let Some(Slot::Maybe {
                node,
                forced,
                kids,
                removed,
            }) = out.pop()
        {
            if !forced {
                gone.push(node);
            }
            gone.extend(removed);
            out.extend(kids.into_iter().map(Slot::Keep));
        }
        let kids = out
            .into_iter()
            .map(|slot| match slot {
                Slot::Keep(node) | Slot::Maybe { node, .. } => node,
            })
            .collect();
        (kids, gone)
    }
}
