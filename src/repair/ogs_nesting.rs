//! `ogs-nesting`: a variation that is its parent's only continuation
//! written as part of the sequence. The walk (in the module root) decides
//! where; the planner counts each run of them as one change.

use super::plan::Planner;
use super::Repair;

impl<'t, 'src> Planner<'t, 'src> {
    /// Records a variation opened by the `(` at `paren` flattened, as part
    /// of the run `run` when it continues one; returns its run.
    pub(crate) fn flattened(&mut self, paren: usize, run: Option<usize>) -> usize {
        if let Some(run) = run {
            self.runs[run].1 += 1;
            return run;
        }
        self.report(Repair::OgsNesting, paren, String::new());
        self.runs.push((self.changes.len() - 1, 1));
        self.runs.len() - 1
    }
}
