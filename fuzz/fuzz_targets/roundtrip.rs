//! Parse (lenient) → write (raw mode) → parse: the second parse succeeds and
//! gives the same games, tree shapes, identifiers and raw values; writing it
//! again gives the same bytes.
//!
//! The checks live in `sgf_grove::oracle::roundtrip`, shared with the replay of
//! `fuzz/regressions/` by `tests/integration/fuzz_regressions.rs`.

#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use sgf_grove::oracle::{roundtrip::check_roundtrip, MAX_INPUT};

fuzz_target!(|input: &[u8]| -> Corpus {
    if input.len() > MAX_INPUT {
        return Corpus::Reject;
    }
    check_roundtrip(input);
    Corpus::Keep
});
