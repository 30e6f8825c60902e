//! Parse → make each game editable → a dozen edits drawn from the input's
//! hash → write → parse → make editable: the same tree, and the same bytes
//! written again; a refused edit changes nothing; unedited, the writer's
//! bytes.
//!
//! The checks live in `sgf_grove::oracle::edit`, shared with the replay of
//! `fuzz/regressions/` by `tests/integration/fuzz_regressions.rs`.

#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use sgf_grove::oracle::{edit::check_edit_roundtrip, MAX_INPUT};

fuzz_target!(|input: &[u8]| -> Corpus {
    if input.len() > MAX_INPUT {
        return Corpus::Reject;
    }
    check_edit_roundtrip(input);
    Corpus::Keep
});
