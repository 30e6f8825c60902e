//! The block scanner and the read API's byte scanner find the same
//! structural bytes as the byte-at-a-time reference, from the start and from
//! any position; the token iterator never
//! panics and hands out in-bounds, ordered spans of the right bytes.
//!
//! The checks live in `sgf_grove::oracle::lexer`, shared with the replay of
//! `fuzz/regressions/` by `tests/integration/fuzz_regressions.rs`.

#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use sgf_grove::oracle::{lexer::check_lexer, MAX_INPUT};

fuzz_target!(|input: &[u8]| -> Corpus {
    if input.len() > MAX_INPUT {
        return Corpus::Reject;
    }
    check_lexer(input);
    Corpus::Keep
});
