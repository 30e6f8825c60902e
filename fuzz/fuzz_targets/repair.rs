//! Parse → every named repair → parse: the output parses, holds as many
//! games, and repairing it again changes nothing.
//!
//! The checks live in `sgf_grove::oracle::repair`, shared with the replay
//! of `fuzz/regressions/` by `tests/integration/fuzz_regressions.rs`.

#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use sgf_grove::oracle::{repair::check_repair, MAX_INPUT};

fuzz_target!(|input: &[u8]| -> Corpus {
    if input.len() > MAX_INPUT {
        return Corpus::Reject;
    }
    check_repair(input);
    Corpus::Keep
});
