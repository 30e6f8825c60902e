//! `ki-km`: the integer komi `KI` of old Smart Game Board files, in half
//! points, written as `KM`.

use super::komi::points;
use super::plan::{Planner, Rewrite};
use super::Repair;
use crate::game::Komi;
use crate::tree::Property;
use crate::writer::Item;
use std::borrow::Cow;

impl<'t, 'src> Planner<'t, 'src> {
    /// `ki-km`: what becomes of `KI[raw]` (`prop`, its value at `offset`,
    /// the property at `pos`): `KM` in its place, or nothing when `KM`
    /// says the same; `None` to leave it.
    pub(super) fn ki_km(
        &mut self,
        prop: Property<'t, 'src>,
        raw: &[u8],
        offset: usize,
        pos: usize,
    ) -> Option<Rewrite<'t, 'src>> {
        let n = std::str::from_utf8(raw)
            .ok()
            .and_then(|s| s.trim().parse::<i64>().ok())?;
        let km = n as f64 / 2.0;
        match prop.node().raw("KM") {
            Some(have) => {
                let same = std::str::from_utf8(have)
                    .ok()
                    .and_then(|s| Komi::parse(s).ok())
                    .is_some_and(|k| k.value() == km);
                if same {
                    let message = format!(
                        "KI[{}] dropped: KM[{}] says the same (KI is in half points)",
                        self.show(raw),
                        self.show(have)
                    );
                    self.report(Repair::KiKm, pos, message);
                    return Some(Rewrite::Remove);
                }
                None
            }
            None => {
                let text = points(km);
                let message = format!("KI[{}] → KM[{text}] (KI is in half points)", self.show(raw));
                self.report(Repair::KiKm, pos, message);
                Some(Rewrite::Replace(Item::New {
                    ident: "KM",
                    values: vec![(Cow::Owned(text.into_bytes()), offset)],
                    context: prop,
                }))
            }
        }
    }
}
