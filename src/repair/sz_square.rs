//! `sz-square`: `SZ[19:19]` → `SZ[19]`.

use super::plan::{Planner, Values};
use super::Repair;
use crate::value::split_compose;
use std::borrow::Cow;

impl<'t, 'src> Planner<'t, 'src> {
    /// `sz-square`: the root's `SZ[n:n]` (`raw`, its property at `pos`)
    /// written `SZ[n]` in `values`; whether it was.
    pub(super) fn sz_square(&mut self, raw: &[u8], pos: usize, values: &mut Values<'src>) -> bool {
        let Some((a, b)) = split_compose(raw) else {
            return false;
        };
        let (a, b) = (a.trim_ascii(), b.trim_ascii());
        let n = std::str::from_utf8(a)
            .ok()
            .and_then(|a| a.parse::<u32>().ok());
        if a == b && n.is_some() {
            let message = format!("SZ[{}] → SZ[{}]", self.show(raw), self.show(a));
            self.report(Repair::SzSquare, pos, message);
            values[0].0 = Cow::Owned(a.to_vec());
            return true;
        }
        false
    }
}
