//! Any bytes: the pull events (`sgf_grove::events::Reader`) and the tree
//! built by `sgf_grove::parse` agree, lenient, strict and with a charset
//! override: the same outcome (error kind and offset), the same warnings,
//! the same games, nodes (replayed from the events as the tree builder links
//! them), parents, children, properties (repeats merged), identifiers as
//! written, values, spans and cut flags; and `Reader::skip_game` after each
//! root gives the same roots and warnings.
//!
//! The checks live in `sgf_grove::oracle::events`, shared with the replay of
//! `corpus/` and `fuzz/regressions/` by `tests/integration/fuzz_regressions.rs`.

#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use sgf_grove::oracle::{events, MAX_INPUT};

fuzz_target!(|input: &[u8]| -> Corpus {
    if input.len() > MAX_INPUT {
        return Corpus::Reject;
    }
    events::check(input);
    Corpus::Keep
});
