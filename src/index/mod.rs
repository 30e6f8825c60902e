//! A position index: every position of every game (main lines, or every
//! line), found again by position or by a sequence of moves under any of
//! the 8 symmetries of the board, with what was played next; and local
//! patterns (a corner shape, a shape anywhere: [`Pattern`],
//! [`Index::search_pattern`]) found by replaying the games' stored moves.
//!
//! Build with [`IndexBuilder`] (one [`GameEntry`] per game, made on any
//! thread), query with [`Index`]:
//!
//! ```
//! use sgf_grove::index::{GameEntry, Index, IndexBuilder};
//!
//! let dir = std::env::temp_dir().join(format!("sgf-grove-index-mod-{}", std::process::id()));
//! # let _ = std::fs::remove_dir_all(&dir);
//! let doc = sgf_grove::parse(b"(;PB[A]PW[B]RE[W+2.5];B[pd];W[dd];B[pq];W[dp])(;B[dp];W[pp];B[dd])")?;
//! let mut builder = IndexBuilder::open(&dir)?;
//! for game in doc.games() {
//!     builder.push(GameEntry::new(game, "two.sgf", game.index(), false))?;
//! }
//! let added = builder.finish()?;
//! assert_eq!(added.games, 2);
//!
//! let index = Index::open(&dir)?;
//! // One black stone on a 4-4 point: both games, whichever corner.
//! let search = index.search_moves(19, "pd")?;
//! assert_eq!(search.games, 2);
//! // White answered in the adjacent corner both times (dd, and pp for the
//! // game turned so that its first move is pd).
//! assert_eq!(search.continuations[0].count, 2);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What is stored
//!
//! A row per position and continuation: the position's *canonical hash*
//! (the smallest of the 8 [`Board::symmetric_hashes`], which include the
//! board's size; stones only, not the player to move), the game, the moves
//! played to reach it, the symmetry that turns the game's position into
//! the canonical one, and the next move in the canonical orientation (so a
//! search needs no game file: it turns each next move back into the
//! orientation of the question). 16 bytes, fixed width; the games table
//! keeps origin, index in the file, players, date, result, size and moves.
//!
//! Besides (format 3), each game's lines as the stones its nodes put on
//! and took off, 2 bytes a change, in moves files (`moves-NNNNNN.mov`, one
//! per build or add, in checksummed blocks): a local pattern cannot be
//! answered from hashes of whole positions, so [`Index::search_pattern`]
//! replays them (see `pattern_search.rs` for the alternatives measured).
//! On the shared corpus they add 20.0 MB to the 153.2 MB of rows and games
//! table (1.13×); a 6×6 corner pattern is answered in 0.4 s, the same
//! pattern anywhere in 0.6 s (one core).
//!
//! # The store: sorted runs
//!
//! An index is a folder: `manifest` (text), `games.dat` + `games.off`
//! (the games table, appended), moves files `moves-NNNNNN.mov` (format
//! 3), and runs `run-NNNNNN.pos`, immutable files
//! of rows sorted by hash with a fence per 512 rows held in memory while
//! open. Each build or add sorts its rows in memory (32 Mi rows at a time,
//! more make more runs) and writes new runs; nothing already written is
//! rewritten, and the manifest (replaced by a rename) commits games and
//! runs at once. A query reads one 8 KiB block per run for a rare
//! position, the rows in sequence for a common one. [`compact`] merges the
//! runs into one.
//!
//! # Trust (formats 2 and 3)
//!
//! Every byte a reader uses is checksummed: each 512-row block of a run
//! (checked when a query reads it, so a query checks only its blocks),
//! each block of a moves file (checked when a pattern search reads it;
//! the manifest keeps each file's length and checksum),
//! each run's fences and block sums (checked when it is opened; the
//! manifest lists the run with that sum), each games-table entry (its sum
//! in `games.off`), the games table as a whole and the manifest itself. A
//! damaged index, a run missing, listed twice, replaced or cut, gives an
//! `InvalidData` error naming the file (and block), never a wrong answer;
//! [`verify`] reads and checks everything. Indexes of format 1 (before
//! checksums) are refused with a message to rebuild them; those of format
//! 2 (before the moves files) answer position queries, stay at format 2
//! when games are added, and refuse a pattern search with a message to
//! rebuild them.
//!
//! One writer at a time holds `INDEX/lock` ([`IndexBuilder`], [`compact`],
//! [`repair`]); readers take no lock. A writer never writes over a file
//! (runs are created new, numbered past every run file present) and
//! commits by renaming a synced manifest into place, so a reader, or a
//! writer after a crash, finds the last committed index; what an
//! interrupted writer left is never read and is removed by the next one.
//!
//! This layout was chosen over redb (a B-tree store, pure Rust) by
//! measuring both on the shared corpus with the same rows (48,881 Go
//! games, 9,104,549 rows; `cargo bench --bench index --features index`,
//! 2 shared cores):
//!
//! | | sorted runs (this module) | redb, rows in game order | redb, rows sorted first |
//! |---|---|---|---|
//! | write the rows (replay excluded) | 1.0 s (9.0 M rows/s) | 59–68 s (0.15 M rows/s) | 16.4 s (0.6 M rows/s) |
//! | on disk | 152 MB (16.7 B/row, games table included) | 270 MB (29.7 B/row, rows only) | 540 MB (59.3 B/row) |
//! | common position (`pd dd`, 7,669 rows) | 0.47–0.67 ms (a whole search: rows, continuation table) | 0.67–0.91 ms (the range read alone) | |
//! | rare position (move 60 of a game, 1 row) | 3.1 µs | 3.6–4.9 µs | |
//!
//! Rows are written once and never updated, and a query is one key
//! range, so a B-tree's updates in place buy nothing here while its
//! pages and per-key overhead cost twice the disk and, inserted as games
//! come (keys all over the tree), 60 times the write time. Replaying the
//! games into rows (1.2–1.5 M positions/s on one thread, parsing
//! included) costs more than writing them. At hundreds of millions of rows a
//! run still costs 16 bytes a row plus 8 bytes of fence per 512 rows in
//! memory (20 MB for 10⁹ rows) and a query one read per run; [`compact`]
//! keeps the runs few.
//!
//! [`Board::symmetric_hashes`]: crate::game::board::Board::symmetric_hashes

mod builder;
mod checksum;
mod games;
mod lock;
mod manifest;
mod moves;
mod pattern;
mod pattern_search;
mod positions;
mod query;
mod record;
mod run;
mod verify;

pub use builder::{compact, BuildStats, IndexBuilder, DEFAULT_BUFFER_ROWS};
pub use games::GameMeta;
pub use pattern::{Anchor, Cell, Edges, Pattern, PatternError, PatternErrorKind};
pub use pattern_search::{PatternContinuation, PatternHit, PatternNext, PatternSearch};
pub use positions::GameEntry;
pub use query::{board_after, Continuation, Hit, Index, Next, Search};
pub use record::Winner;
pub use verify::{repair, verify, Verification};

#[cfg(feature = "oracle")]
pub(crate) use {positions::GameEntry as Entry, query::search_rows, record::Record};
