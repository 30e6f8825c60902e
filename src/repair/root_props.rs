//! `root-props`: root properties found outside the root moved into it.

use super::plan::{Planner, Rewrite};
use super::Repair;
use crate::tree::{GameTree, Property};

/// The root properties that may move: not `CA` or `FF`, which change how
/// the file is read.
const MOVABLE: [&str; 4] = ["SZ", "GM", "AP", "ST"];

/// The properties to move into the root of `game`: for each movable
/// identifier the root lacks, its first occurrence, when every occurrence
/// has the same values.
pub(super) fn plan<'t, 'src>(game: GameTree<'t, 'src>) -> Vec<Property<'t, 'src>> {
    let root = game.root();
    let mut seen: Vec<(Property<'t, 'src>, bool)> = Vec::new();
    for node in root.descendants().skip(1) {
        for prop in node.properties() {
            let ident = prop.ident();
            if !MOVABLE.contains(&ident) || root.has(ident) {
                continue;
            }
            let values =
                |p: Property<'_, '_>| p.values().map(|v| v.raw().to_vec()).collect::<Vec<_>>();
            match seen.iter_mut().find(|(p, _)| p.ident() == ident) {
                Some((first, agree)) => *agree &= values(*first) == values(prop),
                None => seen.push((prop, true)),
            }
        }
    }
    seen.into_iter()
        .filter(|&(_, agree)| agree)
        .map(|(p, _)| p)
        .collect()
}

impl<'t, 'src> Planner<'t, 'src> {
    /// `root-props`: `prop`, outside the root, removed when it is one of
    /// those moved into the root.
    pub(super) fn root_prop(&mut self, prop: Property<'t, 'src>) -> Option<Rewrite<'t, 'src>> {
        let ident = prop.ident();
        let moved = self.root_props.iter().find(|p| p.ident() == ident)?;
        let value = self.show(prop.raw());
        let message = if moved.ident_span() == prop.ident_span() {
            format!("{ident}[{value}] moved into the root")
        } else {
            format!("{ident}[{value}] dropped: the root has it now")
        };
        self.report(Repair::RootProps, prop.ident_span().start, message);
        Some(Rewrite::Remove)
    }
}
