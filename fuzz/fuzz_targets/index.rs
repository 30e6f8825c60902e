//! The position index built from the games of arbitrary bytes answers as
//! a brute-force scan of their rows; damaged by fuzzer-chosen bytes, it
//! answers the same or fails, never otherwise.
//!
//! The checks live in `sgf_grove::oracle::index`, shared with the replay
//! of `fuzz/regressions/` by `tests/integration/fuzz_regressions.rs`.

#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use sgf_grove::oracle::index::check_index;

fuzz_target!(|input: &[u8]| -> Corpus {
    // Each input writes an index to disk: small ones keep the runs many.
    if input.len() > 1 << 16 {
        return Corpus::Reject;
    }
    check_index(input);
    Corpus::Keep
});
