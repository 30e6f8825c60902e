//! Any bytes, parsed leniently (with the charset from `CA`/detection, and
//! again with a Shift_JIS and a Big5 override): every typed accessor on
//! every game, node, property and value never panics, and what it hands
//! out is consistent:
//!
//! - each game's board size is 1..=52 each way, its charset's confidence
//!   in 0..=1 (1 when declared or overridden), its source the override
//!   when there is one;
//! - every error is `InvalidValue` at the first byte of a value (just after
//!   its `[`), with the position `Position::locate` gives;
//! - points and moves handed out lie on the board; point lists are
//!   iterated to the end (at most `MAX_POINTS` points per input);
//! - decoded SimpleText holds no ASCII whitespace but spaces, decoded Text
//!   no CR; borrowed text points into the input;
//! - `typed_values` agrees with `points` on the point lists of Go games and
//!   is `None` exactly for properties the catalogue does not know.
//!
//! Accessors that look a property up by name (`get`, `text`, `points`, …)
//! are called on the first `LOOKUPS` properties of each node, to stay
//! linear; every value of every property is also read as every type
//! directly through `FromValue`.
//!
//! The checks live in `sgf_grove::oracle::typed`, shared with the replay of
//! `fuzz/regressions/` by `tests/integration/fuzz_regressions.rs`.

#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use sgf_grove::oracle::{typed::check_typed, MAX_INPUT};

fuzz_target!(|input: &[u8]| -> Corpus {
    if input.len() > MAX_INPUT {
        return Corpus::Reject;
    }
    check_typed(input);
    Corpus::Keep
});
