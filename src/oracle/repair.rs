//! Parse → every named repair → parse: the repaired output parses as
//! many games as the input held, and repairing it again changes nothing
//! (no change reported, the same bytes). A repair that cannot write a game
//! (an error of the writer) must say so, not panic.
//!
//! Run by the fuzz target of the same name and, on `fuzz/regressions/`, by
//! `tests/integration/fuzz_regressions.rs`.

use super::repro;
use crate::repair::{Fixer, Repairs};
use crate::writer::WriteOptions;

/// Repairs every game of `input` with every repair; the output and the
/// number of changes, or `None` when the input does not parse or a game
/// cannot be written.
fn fix_all(input: &[u8]) -> Option<(Vec<u8>, usize, usize)> {
    let doc = crate::parse(input).ok()?;
    let mut fixer = Fixer::new(Vec::new(), Repairs::all(), WriteOptions::new());
    let repaired = fixer.fix_collection(doc.collection()).ok()?;
    let changes = repaired.iter().map(|r| r.changes.len()).sum();
    Some((fixer.into_inner(), changes, doc.games().count()))
}

/// Runs the checks on `input`; panics with a reproducer on a violation.
pub fn check_repair(input: &[u8]) {
    let Some((fixed, _, games)) = fix_all(input) else {
        return;
    };
    let again = match crate::parse(&fixed) {
        Ok(doc) => doc,
        Err(e) => panic!(
            "the repaired output does not parse: {e}\n{}\nrepaired: b\"{}\"",
            repro(input),
            fixed.escape_ascii()
        ),
    };
    assert_eq!(
        again.games().count(),
        games,
        "the repaired output holds another number of games\n{}\nrepaired: b\"{}\"",
        repro(input),
        fixed.escape_ascii()
    );
    let Some((twice, changes, _)) = fix_all(&fixed) else {
        panic!(
            "the repaired output cannot be repaired again\n{}\nrepaired: b\"{}\"",
            repro(input),
            fixed.escape_ascii()
        );
    };
    assert!(
        changes == 0 && twice == fixed,
        "repairing twice changes more ({changes} changes)\n{}\nfirst:  b\"{}\"\nsecond: b\"{}\"",
        repro(input),
        fixed.escape_ascii(),
        twice.escape_ascii()
    );
}
