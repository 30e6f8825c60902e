//! Any bytes: the lenient and the strict parser never panic, every span and
//! position they hand out lies in the input, and strict mode fails exactly
//! when the lenient parse had something to forgive (with that first defect).
//!
//! The checks live in `sgf_grove::oracle::parse`, shared with the replay of
//! `fuzz/regressions/` by `tests/integration/fuzz_regressions.rs`.

#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use sgf_grove::oracle::{parse::check_parse, MAX_INPUT};

fuzz_target!(|input: &[u8]| -> Corpus {
    if input.len() > MAX_INPUT {
        return Corpus::Reject;
    }
    check_parse(input);
    Corpus::Keep
});
