//! `drop-idle-setup`: setup values that change nothing dropped, as the
//! semantic check `setup_without_effect` finds them (replaying every line
//! of the game).

use super::plan::{Planner, Rewrite, Values};
use super::Repair;
use crate::audit::semantic::{Check, Semantic};
use crate::tree::{GameTree, Property};
use crate::writer::Item;
use std::borrow::Cow;

/// The offsets of the `[` of every setup value of `game` that changes
/// nothing, sorted.
pub(super) fn plan(game: GameTree<'_, '_>) -> Vec<usize> {
    let findings = Semantic::new().keep(usize::MAX).check(game);
    let mut at: Vec<usize> = findings
        .list()
        .iter()
        .filter(|f| f.check() == Check::SetupWithoutEffect)
        .filter_map(|f| f.offset())
        .collect();
    at.sort_unstable();
    at
}

impl<'t, 'src> Planner<'t, 'src> {
    /// `drop-idle-setup`: the values of `prop` (`AB`, `AW`, `AE`) that
    /// change nothing dropped; the property too when none is left.
    pub(super) fn idle_setup(&mut self, prop: Property<'t, 'src>) -> Option<Rewrite<'t, 'src>> {
        let ident = prop.ident();
        let is_idle = |start: usize| self.idle.binary_search(&start.saturating_sub(1)).is_ok();
        if !prop.values().any(|v| is_idle(v.span().start)) {
            return None;
        }
        let mut kept: Values<'src> = Vec::new();
        let mut dropped = Vec::new();
        for v in prop.values() {
            if is_idle(v.span().start) {
                dropped.push((v.raw(), v.span().start));
            } else {
                kept.push((Cow::Borrowed(v.raw()), v.span().start));
            }
        }
        for (raw, at) in dropped {
            let message = format!("{ident}[{}] dropped: it changes nothing", self.show(raw));
            self.report(Repair::DropIdleSetup, at.saturating_sub(1), message);
        }
        if kept.is_empty() {
            return Some(Rewrite::Remove);
        }
        Some(Rewrite::Replace(Item::New {
            ident,
            values: kept,
            context: prop,
        }))
    }
}
