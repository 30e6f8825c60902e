//! Games as table rows: what `sgf stats`, `sgf select` and `sgf export`
//! are built on, usable from any source of games and from many threads.
//! Behind the `tables` feature (the Parquet writer behind `parquet`; the
//! `cli` feature turns both on).
//!
//! - **Rows.** [`GameRow::from_game`] turns a parsed game into an owned
//!   row: where it is (source, index, offset), its game information as
//!   written and normalised (board size, handicap, komi, players and ranks,
//!   result, dates, rules, event, application, charsets) and counts
//!   (moves, invalid moves, nodes, variations, warnings), with the main
//!   line's [`MoveRow`]s ([`GameRow::from_game_packed`] keeps them packed,
//!   three bytes a move, which the writers read faster). Rows own their
//!   text, so they can be sent to another thread and written in order
//!   there.
//! - **Filters.** A [`Filter`] combines filters on rows (and, for `has`
//!   and `lacks`, on the game tree) read from command-line text, and names
//!   the first one a game fails ([`Reason`]).
//! - **Statistics.** [`Stats`] tallies games, one per thread, and
//!   [`Stats::merge`] adds them up with the same result whatever the
//!   split; [`Stats::to_json`] and [`Stats::render_text`] print them.
//! - **Writers.** [`JsonLinesWriter`], [`CsvWriter`] and (feature
//!   `parquet`) `ParquetWriter` write rows as they come
//!   ([`RowWriter`]); their columns are [`COLUMNS`] and [`MOVE_COLUMNS`],
//!   and, on request, the engine analysis of each game's main line
//!   ([`GameRow::add_analysis`], [`ANALYSIS_COLUMNS`]).
//!   The Parquet writer can gather and encode on a thread of its own
//!   (`ParquetWriter::encode_on_thread`), writing the same bytes.
//! - **Arrow.** (feature `arrow`, which `parquet` turns on)
//!   `BatchBuilder` gathers rows into Arrow record batches of the same
//!   two tables, for programs that take Arrow in memory (the Python
//!   package's `to_arrow`); the Parquet writer encodes these batches.
//!
//! # Driving it
//!
//! Parse each source game by game (a [`StreamParser`](crate::StreamParser)
//! over a file or an archive member, [`Parser::parse_each`](crate::Parser::parse_each)
//! over bytes in memory); for each game build its row, filter it, feed the
//! statistics, and hand the row to a writer. Statistics and filters need
//! no move rows: [`GameRow::from_game_without_moves`] skips them. In a parallel scan each
//! worker keeps its own [`Stats`] and sends its rows, numbered in input
//! order ([`GameRow::with_id`]), to the one thread that writes them; the
//! statistics are merged at the end.
//!
//! # Example: every 19×19 game with komi 6.5 to 7.5, to JSON Lines
//!
//! ```
//! use sgf_grove::table::{Filter, GameRow, JsonLinesWriter, RowWriter, Stats};
//! use sgf_grove::StreamParser;
//!
//! let file = &b"(;GM[1]SZ[19]KM[6.5]PB[Lee]PW[Cho]RE[B+R];B[pd];W[dd])
//!               (;GM[1]SZ[9]KM[7]PB[Kim]PW[Park];B[ee])
//!               (;GM[1]SZ[19]KM[650]RU[Japanese]PB[Fox]PW[Wolf]RE[W+0.5];B[qd])
//!               (;GM[1]SZ[19]KM[0.5]HA[2];W[pd])"[..]; // a File or stdin works the same
//! let mut filter = Filter::new();
//! filter.set("size", "19")?;
//! filter.set("komi", "6.5..7.5")?; // komi in points: Fox's KM[650] is 6.5
//!
//! let mut out = JsonLinesWriter::new(Vec::new()); // a File, a pipe …
//! let mut stats = Stats::new();
//! let mut stream = StreamParser::new(file);
//! let mut next_id = 0;
//! while let Some(coll) = stream.next_game() {
//!     let coll = coll?;
//!     for game in coll.games() {
//!         let offset = coll.stream_offset(game.span().start) as u64;
//!         let row = GameRow::from_game(game, "games.sgf", offset);
//!         match filter.check(&row, game) {
//!             Ok(()) => {
//!                 stats.add_game(&row, game);
//!                 out.write_row(&row.with_id(next_id))?;
//!                 next_id += 1;
//!             }
//!             Err(reason) => stats.add_rejection(reason),
//!         }
//!     }
//! }
//! out.finish()?;
//!
//! let jsonl = String::from_utf8(out.into_inner()?)?;
//! assert_eq!(jsonl.lines().count(), 2);
//! assert!(jsonl.lines().nth(1).unwrap().contains(r#""komi":650.0,"komi_points":6.5"#));
//! let report = stats.report();
//! assert_eq!((report.games, report.rejected), (2, 2));
//! assert_eq!(report.rejections[0].value, "komi"); // the 0.5 komi game
//! assert_eq!(report.rejections[1].value, "size"); // the 9×9 game
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod analysis;
mod columns;
mod filter;
mod line;
mod players;
mod row;
mod stats;
mod time_control;
mod warnings;
mod write;

pub use analysis::AnalysisRow;
pub use columns::{Column, ColumnType, ANALYSIS_COLUMNS, COLUMNS, MOVE_COLUMNS};
pub use filter::{
    BoardSizes, Bounds, DateRange, Filter, FilterError, RankRange, Reason, ResultSpec, RuleSet,
    TextMatch,
};
pub use players::{is_bot_name, normalise_name, rated_from_texts, AliasError, NameAliases};
pub use row::{GameRow, MoveRow, ResultKind, INFO_IDENTS};
pub use stats::{
    thousands, CharsetSummary, Count, DateSummary, PropertyCount, Stats, StatsReport,
    DEFAULT_TOP_PLAYERS,
};
pub use time_control::{TimeControl, TimeSystem};
#[cfg(feature = "arrow")]
pub use write::{analysis_schema, games_schema, moves_schema, BatchBuilder};
pub use write::{CsvWriter, JsonLinesWriter, RowWriter, TableError, TableErrorKind};
#[cfg(feature = "parquet")]
pub use write::{ParquetOptions, ParquetWriter};
