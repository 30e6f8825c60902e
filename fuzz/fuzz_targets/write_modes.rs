//! Parse (lenient) → write in each writer mode (raw, wrapped, thin,
//! canonical with each point style, UTF-8 transcoding) → parse: the same
//! games, shapes and property meanings (typed values, decoded text, point
//! sets, passes), dropped properties gone, writing idempotent.
//!
//! The checks live in `sgf_grove::oracle::write_modes`, shared with the
//! replay of `fuzz/regressions/` by `tests/integration/fuzz_regressions.rs`
//! and the real-corpus test `tests/integration/write_modes.rs`.

#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use sgf_grove::oracle::{write_modes::check_write_modes, MAX_INPUT};

fuzz_target!(|input: &[u8]| -> Corpus {
    if input.len() > MAX_INPUT {
        return Corpus::Reject;
    }
    check_write_modes(input);
    Corpus::Keep
});
