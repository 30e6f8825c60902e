//! A file replaced with a failure injected before each step (an error or
//! a crash): the old bytes or the new ones, never both or neither, and no
//! file left that a folder walk would read.
//!
//! The checks live in `sgf_grove::oracle::inplace`, shared with the replay
//! of `fuzz/regressions/` by `tests/integration/fuzz_regressions.rs`.

#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use sgf_grove::oracle::{inplace::check_inplace, MAX_INPUT};

fuzz_target!(|input: &[u8]| -> Corpus {
    if input.len() > MAX_INPUT {
        return Corpus::Reject;
    }
    check_inplace(input);
    Corpus::Keep
});
