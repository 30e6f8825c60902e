//! Any bytes, parsed leniently: the semantic pass on every game, kept from
//! game to game and fresh, and on an editable copy, gives the same
//! findings, each placed in the input.
//!
//! The checks live in `sgf_grove::oracle::semantic`, shared with the replay
//! of `fuzz/regressions/` by `tests/integration/fuzz_regressions.rs`.

#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use sgf_grove::oracle::semantic::{check_semantic, MAX_SEMANTIC_INPUT};

fuzz_target!(|input: &[u8]| -> Corpus {
    if input.len() > MAX_SEMANTIC_INPUT {
        return Corpus::Reject;
    }
    check_semantic(input);
    Corpus::Keep
});
