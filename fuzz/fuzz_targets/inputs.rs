//! Bytes through `Inputs` as every kind of input (plain, `.sgfs`,
//! compressed, archive names) under low budgets, and the games cut from
//! them packed into valid containers (gzip, bzip2, zstd, tar, zip,
//! `.sgfs`, UTF-16): no panic, nothing past the budgets, and the games of
//! a valid container equal those of parsing the text it holds.
//!
//! The checks live in `sgf_grove::oracle::inputs`, shared with the replay
//! of `fuzz/regressions/` by `tests/integration/fuzz_regressions.rs`.

#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use sgf_grove::oracle::{inputs::check_inputs, MAX_INPUT};

fuzz_target!(|input: &[u8]| -> Corpus {
    // Smaller than the other targets: each input is written as a dozen
    // files and packed five ways.
    if input.len() > MAX_INPUT / 16 {
        return Corpus::Reject;
    }
    check_inputs(input);
    Corpus::Keep
});
