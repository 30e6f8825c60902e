//! `single-value`: a single-valued property with several values keeps its
//! first non-empty one (within one occurrence, or across the occurrences a
//! root read a character at a time keeps apart).

use super::plan::{Planner, Values};
use super::Repair;
use crate::value::{catalogue, Arity, PropInfo, ValueType};
use crate::writer::Item;

impl<'t, 'src> Planner<'t, 'src> {
    /// For each single-valued property of several occurrences in `items`,
    /// the index of the occurrence holding the value `single-value` keeps
    /// (the first non-empty one, or the first value when an empty one
    /// counts).
    pub(super) fn keepers(&self, items: &[Item<'t, 'src>]) -> Vec<(&'t str, usize)> {
        let mut keepers: Vec<(&'t str, usize)> = Vec::new();
        for (k, item) in items.iter().enumerate() {
            let Item::Prop(prop) = item else { continue };
            let ident = prop.ident();
            let Some(info) = catalogue::lookup(self.gm, ident).filter(|i| i.arity == Arity::One)
            else {
                continue;
            };
            let occurrences = items
                .iter()
                .filter(|i| matches!(i, Item::Prop(p) if p.ident() == ident))
                .count();
            if occurrences < 2 || keepers.iter().any(|(id, _)| *id == ident) {
                continue;
            }
            let empty_is_value = matches!(info.ty, ValueType::Move | ValueType::None)
                || info.alt == Some(ValueType::None);
            let values = items.iter().filter_map(|i| match i {
                Item::Prop(p) if p.ident() == ident => Some(p.first_value().raw()),
                _ => None,
            });
            let real = catalogue::real_value(ident, values).and_then(|n| {
                items
                    .iter()
                    .enumerate()
                    .filter(|(_, i)| matches!(i, Item::Prop(p) if p.ident() == ident))
                    .nth(n)
                    .map(|(j, _)| j)
            });
            let keeper = real
                .or_else(|| {
                    items
                        .iter()
                        .enumerate()
                        .skip(k)
                        .find(|(_, i)| {
                            matches!(i, Item::Prop(p) if p.ident() == ident
                        && (empty_is_value || p.values().any(|v| !v.raw().trim_ascii().is_empty())))
                        })
                        .map(|(j, _)| j)
                })
                .unwrap_or(k);
            keepers.push((ident, keeper));
        }
        keepers
    }

    /// `single-value`: of the several `values` of the single-valued
    /// property `ident`, the first non-empty one kept (and reported).
    pub(super) fn single_value(&mut self, ident: &str, info: &PropInfo, values: &mut Values<'src>) {
        let empty_is_value = matches!(info.ty, ValueType::Move | ValueType::None)
            || info.alt == Some(ValueType::None);
        let keep = catalogue::real_value(ident, values.iter().map(|(v, _)| &v[..]))
            .or_else(|| {
                values
                    .iter()
                    .position(|(v, _)| empty_is_value || !v.trim_ascii().is_empty())
            })
            .unwrap_or(0);
        let dropped: Vec<String> = values
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != keep)
            .map(|(_, (v, _))| format!("[{}]", self.show(v)))
            .collect();
        let first_dropped = if keep == 0 { values[1].1 } else { values[0].1 };
        let message = format!(
            "{ident}: kept [{}], dropped {}",
            self.show(&values[keep].0),
            dropped.join("")
        );
        self.report(
            Repair::SingleValue,
            first_dropped.saturating_sub(1),
            message,
        );
        let kept = values.swap_remove(keep);
        *values = vec![kept];
    }
}
