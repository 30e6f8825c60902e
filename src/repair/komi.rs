//! `fox-komi` and `komi-convention`: the root's komi written in points,
//! from Fox's scaled komi or from GoGoD's and go4go's komi in stones.

use super::plan::Planner;
use super::Repair;
use crate::game::{Komi, KomiScale, Rules};
use crate::tree::Property;

impl<'t, 'src> Planner<'t, 'src> {
    /// The komi `KM[raw]` of the root in points, when `fox-komi` or
    /// `komi-convention` rewrites it (and reports it).
    pub(super) fn komi(
        &mut self,
        prop: Property<'t, 'src>,
        raw: &[u8],
        pos: usize,
    ) -> Option<String> {
        let komi = Komi::parse(std::str::from_utf8(raw).ok()?).ok()?;
        let rules = prop
            .node()
            .raw("RU")
            .and_then(|r| std::str::from_utf8(r).ok())
            .map(Rules::parse);
        if self.on(Repair::FoxKomi) && komi.scale() != KomiScale::Points {
            let value = komi.normalised_for(rules.as_ref());
            let text = points(value);
            let how = if komi.value() / value == 50.0 {
                "stones × 100, 2 points a stone"
            } else {
                "points × 100"
            };
            let message = format!("KM[{}] → KM[{text}] (Fox: {how})", self.show(raw));
            self.report(Repair::FoxKomi, pos, message);
            return Some(text);
        }
        if self.on(Repair::KomiConvention)
            && rules == Some(Rules::Chinese)
            && [2.75, 3.25, 3.75, 4.25].contains(&komi.value())
        {
            let text = points(komi.value() * 2.0);
            let message = format!(
                "KM[{}] → KM[{text}] (komi in stones under Chinese rules, 2 points a stone)",
                self.show(raw)
            );
            self.report(Repair::KomiConvention, pos, message);
            return Some(text);
        }
        None
    }
}

/// A number of points as written in `KM`: `6.5`, `0`, `-3.5`.
pub(super) fn points(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{}", value as i64)
    } else {
        format!("{value}")
    }
}
