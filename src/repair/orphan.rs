//! `drop-orphan-annotation`: move annotations and `KO` in a node without
//! a move dropped.

use super::plan::{Planner, Rewrite};
use super::Repair;
use crate::tree::Property;

/// What judges or forces a move.
const ANNOTATIONS: [&str; 5] = ["BM", "TE", "DO", "IT", "KO"];

impl<'t, 'src> Planner<'t, 'src> {
    /// `drop-orphan-annotation`: `prop` removed when it judges or forces
    /// a move and its node has none.
    pub(super) fn orphan(&mut self, prop: Property<'t, 'src>) -> Option<Rewrite<'t, 'src>> {
        let ident = prop.ident();
        let node = prop.node();
        if !ANNOTATIONS.contains(&ident) || node.has("B") || node.has("W") {
            return None;
        }
        let value = self.show(prop.raw());
        self.report(
            Repair::DropOrphanAnnotation,
            prop.ident_span().start,
            format!("{ident}[{value}] dropped: its node has no move"),
        );
        Some(Rewrite::Remove)
    }
}
