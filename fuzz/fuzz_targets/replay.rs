//! Any bytes, parsed leniently: every game is walked depth first with a
//! replay cursor under each rule set (`enter` into each child, `back` out
//! of it), and at every node the cursor's position equals a deliberately
//! naive replay from the root (a plain grid, flood-filled liberties,
//! superko as a list of grids, no undo): stones, prisoners, ko, player to
//! move, moves, illegal moves, and the legality of moves on the board.
//!
//! The checks live in `sgf_grove::oracle::replay`, shared with the replay
//! of `fuzz/regressions/` by `tests/integration/fuzz_regressions.rs`.

#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use sgf_grove::oracle::replay::{check_replay, MAX_REPLAY_INPUT};

fuzz_target!(|input: &[u8]| -> Corpus {
    if input.len() > MAX_REPLAY_INPUT {
        return Corpus::Reject;
    }
    check_replay(input);
    Corpus::Keep
});
