//! Training samples for Go programs (feature `samples`): every position
//! of every main line as feature planes with its targets, shuffled within
//! a window and written as shards of a fixed size.
//!
//! - **Planes** ([`Layout::plane_names`]): the stones of the player to
//!   move and of the other in the last N positions (default 8), optional
//!   extras ([`Extras`]: empty points, liberties 1/2/3+, the ko point),
//!   and the player to move. The defaults are AlphaGo Zero's 17 planes in
//!   its order. Planes are packed a bit a point ([`Layout`]).
//! - **Targets and labels** ([`COLUMNS`]): the move played (`policy`, a
//!   pass as `cols * rows`), the result for the player to move (`value`,
//!   `has_value`), the counted margin (`score`), and the game's komi,
//!   handicap, ranks, rules and time control; `game` joins the games
//!   table written beside the shards (source, players, server, …).
//! - **Augmentation** ([`Augment`]): none, all 8 symmetries, or one drawn
//!   per position, seeded.
//! - **Output** ([`SampleWriter`]): shards of [`FolderOptions::shard_size`]
//!   samples (`.npz` or Parquet) from a window of
//!   [`FolderOptions::window`] samples (memory: the window), deterministic
//!   for a seed and an input order, every file written whole, the
//!   manifest last.
//!
//! ```
//! use sgf_grove::samples::{Encoder, GameMeta, SampleOptions};
//! use sgf_grove::table::GameRow;
//!
//! let doc = sgf_grove::parse(b"(;SZ[19]KM[6.5]RE[W+2.5];B[pd];W[dd];B[])")?;
//! let game = doc.games().next().unwrap();
//! let row = GameRow::from_game_without_moves(game, "a.sgf", 0);
//! let layout = SampleOptions::new().layout(); // AlphaGo Zero's 17 planes
//! let mut records = Vec::new();
//! let done = Encoder::new(&layout).encode(game, &GameMeta::of(&row), &mut records);
//! assert_eq!(done.samples, 3); // one a move, the pass too
//! let second = layout.sample(&records[layout.record_len()..][..layout.record_len()]);
//! assert_eq!(second.policy(), 3 * 19 + 3); // W[dd]
//! assert_eq!((second.value(), second.score()), (1, 2.5)); // White to move, White won by 2.5
//! assert!(second.bit(layout.history(), 3 * 19 + 15)); // the opponent's stone at pd
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod encode;
mod folder;
mod layout;
mod npz;
#[cfg(feature = "parquet")]
mod parquet;
mod shuffle;

pub use encode::{set_game, Encoded, Encoder, GameMeta, Stop};
pub use folder::{
    FolderOptions, FolderSummary, SampleError, SampleWriter, ShardFormat, ShardInfo, MANIFEST,
};
pub use layout::{
    Augment, Column, Dtype, Extras, Layout, Sample, SampleOptions, COLUMNS, MAX_HISTORY, RULES,
};
pub use shuffle::Shuffler;

#[cfg(test)]
mod tests;
