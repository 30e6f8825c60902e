//! The command line of `sgf`, declared with clap's derive API.
//!
//! Each subcommand has its own argument struct, consumed by the module of the
//! same name under `cmd/`.

use clap::{Args, Parser, Subcommand, ValueEnum};
use encoding_rs::Encoding;
use sgf_grove::game::ReplayOptions;
use std::path::PathBuf;

/// `sgf`: check, dump and rewrite SGF game records.
#[derive(Debug, Parser)]
#[command(name = "sgf", version, about, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the position of a game at one of its nodes: a diagram, or
    /// JSON (`size`, `to_play`, `black`, `white`, `captures`, `ko`, `hash`,
    /// `illegal`, `illegal_count`). The diagram shows `X` for black, `O`
    /// for white, the last move in brackets and `+` on the empty star
    /// points, with Go coordinates (or the SGF letters, --coords sgf).
    ///
    /// Star points: on each side, the third line from the edge on sides
    /// shorter than 13, the fourth from 13 up (none on sides shorter than
    /// 7); the four corner points, the centre when both sides are odd,
    /// and the middle of each side's star line when both sides are odd and
    /// 15 or more (9×9 and 13×13: 5 points; 19×19: 9).
    ///
    /// The inputs are read as for `check` (files, folders, archives,
    /// compressed files, `.sgfs`, `-`) in order, one game at a time, up to
    /// the --game-th game of them all.
    ///
    /// Exit status: 0, 1 when the game or node does not exist, the replay
    /// reaches a limit (--max-nodes, --max-depth, --max-changes), (with
    /// --strict) a defect or an illegal move on the way, or more inputs
    /// read before the game failed than --max-failures allows; 2 on usage
    /// errors and when a path cannot be read.
    ///
    /// Memory: the game plus its replay, linear in the line replayed (an
    /// undo record per node and per stone changed, bounded by the
    /// --max-* limits: a few hundred MB at the defaults).
    Board(BoardArgs),
    /// Draw the position of a game at one of its nodes as a picture: SVG
    /// (the default, on standard output) or PNG. Stones, the last move
    /// marked, the node's markup (`TR`, `SQ`, `CR`, `MA`, `SL`, `LB`,
    /// `AR`, `LN`, `DD`), star points; with --from/--to the moves of a
    /// range numbered, a move played on a point already drawn listed
    /// below the board (`12 at 5`, `12 at D4`, `12 pass`); with --coords
    /// the coordinates (columns `A`–`Z` without `I`, then `AA`, `AB`, …;
    /// rows from the bottom). Text is drawn as paths (no fonts needed).
    ///
    /// The node: --node, --move, --end (the default) as for `sgf board`,
    /// or --to N (the node of move N). --from M numbers the moves from M
    /// to the node's.
    ///
    /// A PNG is written to --out FILE, or to standard output when that is
    /// not a terminal (`sgf diagram --format png game.sgf > game.png`).
    ///
    /// The inputs are read as for `check` (files, folders, archives,
    /// compressed files, `.sgfs`, `-`) in order, one game at a time, up to
    /// the --game-th game of them all.
    ///
    /// Exit status: 0; 1 when the game, node or move does not exist, the
    /// replay reaches a limit, or (with --strict) an illegal move on the
    /// way; 2 on usage errors (a PNG for a terminal) and when a path
    /// cannot be read or the output cannot be written.
    ///
    /// Memory: the game, its replay and the drawing (for a PNG, 4 bytes a
    /// pixel: --size is at most 16384).
    Diagram(DiagramArgs),
    /// Find the games that are the same game: the same main-line moves up
    /// to a rotation or reflection of the board, whatever the metadata; a
    /// truncated copy joins the full game. Prints each cluster as a block
    /// of lines, `cluster N: K copies` and then one line per copy (source,
    /// game, moves, symmetry), the copy that carries the most information
    /// marked `*`; with --format json, one JSON object per cluster and
    /// line. A copy's symmetry turns it into the best copy (`identity`
    /// when drawn the same way). The summary on standard error counts the
    /// games not compared: not Go, without moves, or too short to join
    /// another.
    ///
    /// Exit status: 0, 1 when an input failed, 2 on usage errors and
    /// unreadable paths.
    ///
    /// With --merge --out DIR, writes one record per cluster into DIR
    /// (`cluster-000001.sgf`, …): the copy with the most moves, its root's
    /// game information joined with every other copy's (values it lacks
    /// taken, the most precise date and result kept, every conflicting
    /// value written into the root's comment and reported); a copy that
    /// differs from another by one move (a mistyped move) joins the cluster
    /// and is noted. The inputs are read twice (standard input cannot be).
    /// --swap-colors also joins a copy recorded with Black and White
    /// exchanged.
    ///
    /// Memory: the largest game on each worker thread (-j), plus each
    /// game's main-line moves (two bytes a move) and source name until the
    /// clusters are printed: dedup compares every game with the others.
    /// With --merge, also the game information of the copies of each
    /// cluster whose last copy is not read yet, and its best copy.
    Dedup(DedupArgs),
    /// Build or extend a position index: every position of every main
    /// line (--variations: of every line) of the inputs' Go games, keyed
    /// by a hash that is the same under the 8 symmetries of the board,
    /// with the game, the move number and the move played next.
    ///
    /// Exit status: 0, 1 when an input failed or a game was skipped at a
    /// replay limit (the others are indexed), 2 on usage errors,
    /// unreadable paths, and I/O failures or damage of the index.
    ///
    /// Memory: the largest game (and its replay) on each worker thread
    /// (-j), the rows not yet written as a run (at most 32 Mi rows of 16
    /// bytes), and the source name of every game in the index (so that
    /// `add` skips what is there).
    #[command(subcommand)]
    Index(IndexCommand),
    /// Merge the first moves of the inputs' Go games into one SGF
    /// variation tree (an opening tree): each node says in its comment how
    /// many games reached it, the wins of each colour, the other results
    /// and the range of dates; the variations the most games first. Games
    /// of different boards or handicap stones make different trees (a game
    /// of the collection each); games with other setup, without moves or
    /// with an unreadable move are left out and counted (standard error
    /// and each root's comment). With --out FILE, the SGF goes to FILE and
    /// one JSON object per node to FILE.json (JSON Lines: `game`, `path`,
    /// `move`, `games`, `games_max`, `black_wins`, `white_wins`, `other`,
    /// `first_date`, `last_date`; roots also `size`, `handicap`).
    ///
    /// Exit status: 0, 1 when more inputs failed than --max-failures
    /// allows, 2 on usage errors, unreadable paths and failed writes.
    ///
    /// Memory: the largest game on each worker thread (-j) and the tree, at
    /// most --max-nodes nodes of 40 bytes. When a new node would pass that
    /// budget, the rarest nodes are pruned down to half of it; a node made
    /// after a pruning may have missed a few games, and says so (`games 12
    /// to 15` in the comment, `games_max` in the JSON; the summary gives
    /// the largest such gap).
    Tree(TreeArgs),
    /// Write a node's subtree of one game as a game of its own: with the
    /// line from the root kept as moves, or (--setup) with the node's
    /// position as setup in the root (`AB`, `AW`, `PL`; the prisoners and
    /// a ko in the root's comment; the original root's game information
    /// kept). With --variations, every line below the node (one per leaf)
    /// as a game of its own. The node is named as for `sgf board`.
    ///
    /// Exit status: 0, 1 when the game does not exist or the replay fails
    /// (a limit, or with --strict an illegal move), 2 when the node does
    /// not exist, on usage errors, unreadable paths and failed writes.
    ///
    /// Memory: the game, its editable copy and one extracted game.
    Extract(ExtractArgs),
    /// Find the games of an index where a position occurs, under any
    /// rotation or reflection, and what was played next (with counts and
    /// wins); or, with --pattern, a local pattern (a corner, an edge, a
    /// shape anywhere).
    ///
    /// Exit status: 0 (whether or not the position was found), 1 when the
    /// position or pattern file fails (a bad pattern is named with its
    /// line and column), 2 on usage errors and I/O failures (an index of
    /// format 2, which keeps no moves, asked for a pattern: rebuild it).
    ///
    /// Memory: the game of `--position` and its replay, 8 bytes per 512
    /// rows of the index (the runs' fences and block sums, read at open),
    /// and about 24 bytes per occurrence found (the empty board occurs in
    /// every game); the games table is read entry by entry.
    Find(FindArgs),
    /// Parse files and folders and report warnings, errors and throughput.
    ///
    /// Exit status: 0 when every file parsed (warnings allowed), 1 when any
    /// file failed, 2 on usage errors and when a path named cannot be read
    /// (it is also reported as a failed file).
    ///
    /// Memory: the largest game plus a constant (about 10 MB), whatever
    /// the length or shape of the inputs.
    Check(CheckArgs),
    /// Print the games of the inputs as one JSON array, in the shape
    /// SGFGrove.js uses: files, folders, archives, compressed files,
    /// `.sgfs` and `-` as for `check`, in the order of the inputs whatever
    /// -j.
    ///
    /// Exit status: 0, 1 when more inputs failed than --max-failures
    /// allows (the array is then left unclosed), 2 on usage errors and
    /// unreadable paths.
    ///
    /// Memory: the largest game on each worker thread (-j) plus the games
    /// in flight, whatever the length or shape of the inputs.
    Dump(DumpArgs),
    /// Write the games of the inputs back as SGF: raw (values as read) or
    /// canonical, optionally transcoded to UTF-8. The inputs are files,
    /// folders, archives, compressed files, `.sgfs` and `-`, as for
    /// `check`; the output goes to standard output as one collection (in
    /// the order of the inputs whatever -j), to --out-file FILE, to a file
    /// per input under --out DIR (mirroring the inputs), or --in-place
    /// (plain files only).
    ///
    /// An input fails when it cannot be read, is not SGF text, holds no
    /// game, or one of its games fails (a defect in strict mode, a
    /// character the target charset lacks: the game is named and the games
    /// after it are still written; the input's own file under --out or
    /// --in-place is then left as it was).
    ///
    /// Exit status: 0, 1 when more inputs failed than --max-failures allows
    /// (default: any), 2 on usage errors, unreadable paths and I/O
    /// failures.
    ///
    /// Memory: the largest game on each worker thread (-j) plus the games
    /// in flight, whatever the length or shape of the inputs; with --out,
    /// the name of each file written.
    Fmt(FmtArgs),
    /// Repair known defects of real files (named repairs, each opt-in),
    /// reporting each change as `path:line:column: repair: what` on
    /// standard error (standard output with --dry-run; none with -q), then
    /// a count per repair. The inputs are read and the games written (raw
    /// mode) as `fmt` does: standard output, --out-file, --out DIR, or
    /// --in-place (only files with a change are replaced).
    ///
    /// Exit status: 0, 1 when more inputs failed than --max-failures allows
    /// (not SGF, a defect in strict mode; a file written in place is then
    /// left as it was), 2 on usage errors, unreadable paths and I/O
    /// failures.
    ///
    /// Memory: as `fmt`.
    Fix(FixArgs),
    /// Write the parsed collections back without some properties (raw
    /// mode): comments, analysis, markup, times…, for archives.
    ///
    /// Exit status and memory: as `fmt`.
    Strip(StripArgs),
    /// Write the parsed collections back rotated, mirrored or with the
    /// colours exchanged: every point of every property moved (moves,
    /// setup, markup, labels, arrows, lines, VW, TB/TW; SZ on a rectangular
    /// board), black and white exchanged with their players, ranks, times
    /// and result.
    ///
    /// A game that is not Go (`GM` other than 1) is written unchanged, with
    /// a `not_go` warning naming it.
    ///
    /// Exit status and memory: as `fmt`.
    Transform(TransformArgs),
    /// Count what the inputs hold: files, games, nodes, moves, bytes,
    /// failures; board sizes, rules, results, handicaps, komi, dates,
    /// players, applications, charsets, properties by frequency, warnings
    /// and rejections by kind.
    ///
    /// Exit status: 0 (failed inputs are counted, not fatal), 2 on usage
    /// errors and when a path named cannot be read (named on standard
    /// error; the other paths are counted).
    ///
    /// Memory: the largest game on each worker thread (-j) plus a constant
    /// (about 100 MB with the games in flight), whatever the length or
    /// shape of the inputs.
    Stats(StatsArgs),
    /// Print the games that pass the filters: their sources, one line per
    /// game with three tab-separated columns, `source` (the file or
    /// `archive!member`), `game` (its index in the source, from 0) and
    /// `offset` (the byte offset of its `(`), in the order of the scan,
    /// with a header line naming them when --header is given; or, with
    /// --print games, the games themselves as one collection. The summary
    /// (`select: N of M games`, rejections by reason) goes to standard
    /// error.
    ///
    /// Exit status: 0, 1 when an input failed, 2 on usage errors and
    /// unreadable paths.
    ///
    /// Memory: the largest game on each worker thread (-j) plus a constant
    /// (about 100 MB with the games in flight), whatever the length or
    /// shape of the inputs.
    Select(SelectArgs),
    /// Write one record per game (and the main line's moves) as JSON Lines,
    /// CSV or Parquet.
    ///
    /// Exit status: 0, 1 when an input failed, 2 on usage errors and
    /// unreadable paths.
    ///
    /// Memory: the largest game on each worker thread (-j) plus a constant
    /// (about 100 MB with the games in flight and one row group per table for Parquet), whatever the length or
    /// shape of the inputs.
    Export(ExportArgs),
    /// Write every game to a file of its own: DIR/000001.sgf,
    /// DIR/000002.sgf, … in the order of the scan (six digits, so that the
    /// names sort in game order; more only past 999,999 games), and
    /// DIR/index.tsv (file, source, game, offset, with a header line).
    ///
    /// Exit status: 0 when every input was read, 1 when one failed, 2 on
    /// usage errors and unreadable paths.
    ///
    /// Memory: the largest game on each worker thread (-j) plus a constant
    /// (about 100 MB with the games in flight), whatever the length or
    /// shape of the inputs.
    Split(SplitArgs),
}

/// Arguments of `sgf split`.
#[derive(Debug, Args)]
pub struct SplitArgs {
    /// The inputs and how to read them.
    #[command(flatten)]
    pub scan: crate::scan::ScanArgs,

    /// The folder to write the games to (created when missing; one that
    /// holds anything is refused unless `--force`).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,

    /// Write into `--out` even when it is not empty: `000001.sgf`,
    /// `000002.sgf`, … and `index.tsv` are overwritten, other files left
    /// beside them.
    #[arg(long)]
    pub force: bool,
}

/// The subcommands of `sgf index`.
#[derive(Debug, Subcommand)]
pub enum IndexCommand {
    /// Index the games of the inputs into INDEX (a folder, created when
    /// missing; an existing index gets the games it lacks).
    Build(IndexBuildArgs),
    /// Add the games of the inputs to INDEX, without rebuilding it; a game
    /// already there (same file and index in it) is not added again.
    Add(IndexAddArgs),
    /// Merge the runs (sorted files) of INDEX into one.
    Compact(IndexCompactArgs),
    /// Print what INDEX holds: games, positions, runs, bytes.
    Info(IndexDirArg),
    /// Read all of INDEX and check every checksum and that its manifest
    /// and files hold together: exit status 0 when sound, 2 when damaged.
    Verify(IndexVerifyArgs),
}

/// Arguments of `sgf index compact`.
#[derive(Debug, Args)]
pub struct IndexCompactArgs {
    /// The index folder.
    #[arg(value_name = "INDEX")]
    pub index: PathBuf,

    /// Wait for another writer of the index to finish instead of failing.
    #[arg(long)]
    pub wait: bool,
}

/// Arguments of `sgf index verify`.
#[derive(Debug, Args)]
pub struct IndexVerifyArgs {
    /// The index folder.
    #[arg(value_name = "INDEX")]
    pub index: PathBuf,

    /// First remove what an interrupted writer left (run files the
    /// manifest does not list, temporary files).
    #[arg(long)]
    pub repair: bool,
}

/// Arguments of `sgf index build`.
#[derive(Debug, Args)]
pub struct IndexBuildArgs {
    /// The inputs and how to read them.
    #[command(flatten)]
    pub scan: crate::scan::ScanArgs,

    /// The index folder.
    #[arg(long, value_name = "INDEX")]
    pub out: PathBuf,

    /// Index the positions of every variation, not only the main line.
    #[arg(long)]
    pub variations: bool,

    /// Replay limits per game.
    #[command(flatten)]
    pub limits: ReplayLimitArgs,

    /// Wait for another writer of the index to finish instead of failing.
    #[arg(long)]
    pub wait: bool,
}

/// Arguments of `sgf index add`.
#[derive(Debug, Args)]
pub struct IndexAddArgs {
    /// The index folder.
    #[arg(value_name = "INDEX")]
    pub index: PathBuf,

    /// The inputs and how to read them.
    #[command(flatten)]
    pub scan: crate::scan::ScanArgs,

    /// Index the positions of every variation, not only the main line.
    #[arg(long)]
    pub variations: bool,

    /// Replay limits per game.
    #[command(flatten)]
    pub limits: ReplayLimitArgs,

    /// Wait for another writer of the index to finish instead of failing.
    #[arg(long)]
    pub wait: bool,
}

/// An index folder alone.
#[derive(Debug, Args)]
pub struct IndexDirArg {
    /// The index folder.
    #[arg(value_name = "INDEX")]
    pub index: PathBuf,
}

/// Arguments of `sgf find`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("query").required(true).args(["position", "moves", "pattern"])))]
pub struct FindArgs {
    /// The index folder.
    #[arg(value_name = "INDEX")]
    pub index: PathBuf,

    /// The position of a game in FILE: at the end of its main line, or
    /// FILE:N after the main line's N-th move (0: the root), or
    /// FILE:0.0.1 at the node of those child indexes from the root (as
    /// `sgf board --node`).
    #[arg(long, value_name = "FILE[:NODE]")]
    pub position: Option<String>,

    /// The game of FILE, counted from 0.
    #[arg(long, value_name = "N", default_value_t = 0, requires = "position")]
    pub game: usize,

    /// The position after these moves from the empty board, Black first:
    /// SGF points separated by spaces or commas (`"pd dp qq"`), `pass`.
    #[arg(long, value_name = "MOVES")]
    pub moves: Option<String>,

    /// The board of --moves.
    #[arg(long, value_name = "N", default_value_t = 19)]
    pub size: u8,

    /// List at most N occurrences and N next moves (0: all); the counts
    /// cover them all.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub limit: usize,

    /// Text, or one JSON object: `{"games", "hits", "found": [{"source",
    /// "game", "black", "white", "date", "result", "move", "symmetry",
    /// "next"}, …], "continuations": [{"move", "count", "black_wins",
    /// "white_wins"}, …]}`. With --pattern, JSON Lines: one object per
    /// game (`{"source", "game", "move", "symmetry", "swapped", "next",
    /// "black", "white", "date", "result"}`), then `{"games",
    /// "index_games", "continuations": […]}`.
    #[arg(long, value_enum, default_value_t = BoardFormat::Text)]
    pub format: BoardFormat,

    /// A local pattern to look for, from FILE (`-`: standard input): rows
    /// of `X` black, `O` white, `.` empty, `?` any, `x` not white, `o` not
    /// black, with `|` `-` `+` for the board's edges; or an SGF node
    /// (`AB`, `AW`, `AE`, `MA` any, `TR` not white, `SQ` not black, the
    /// region in `VW`, `PL` to move). Shown per game: the first move
    /// number where it occurs, the symmetry, the next move in the
    /// pattern's own letters (`cd` from its top left; `tenuki` outside).
    #[arg(long, value_name = "FILE")]
    pub pattern: Option<PathBuf>,

    /// Where the pattern must lie: in a corner (the one its edges draw, or
    /// its top left), on an edge (its drawn edges, or its top row), or
    /// anywhere (its edge marks dropped). Default: as its edges draw.
    #[arg(long, value_enum, requires = "pattern")]
    pub anchor: Option<AnchorArg>,

    /// Also find the pattern with black and white exchanged (the next
    /// move is then shown in the pattern's colours).
    #[arg(long, requires = "pattern")]
    pub swap_colors: bool,

    /// Look in every line the index holds (an index built with
    /// --variations), not only the main lines.
    #[arg(long, requires = "pattern")]
    pub variations: bool,

    /// Only positions where this player played next (overrides the
    /// pattern's `PL`).
    #[arg(long, value_enum, requires = "pattern")]
    pub to_move: Option<ToMoveArg>,
}

/// `sgf find --anchor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AnchorArg {
    /// In a corner.
    Corner,
    /// On an edge.
    Edge,
    /// Anywhere.
    Anywhere,
}

/// `sgf find --to-move`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ToMoveArg {
    /// Black played next.
    #[value(alias = "B", alias = "b")]
    Black,
    /// White played next.
    #[value(alias = "W", alias = "w")]
    White,
}

/// Arguments of `sgf dedup`.
#[derive(Debug, Args)]
pub struct DedupArgs {
    /// The inputs and how to read them.
    #[command(flatten)]
    pub scan: crate::scan::ScanArgs,

    /// Text (a block of lines per cluster) or JSON Lines, one object per
    /// cluster: `{"cluster": n, "games": [{"source", "game", "moves",
    /// "symmetry"}, …], "best": i}`.
    #[arg(long, value_enum, default_value_t = DedupFormat::Text)]
    pub format: DedupFormat,

    /// The fewest moves a truncated copy must have to join a longer game:
    /// openings of 20 or 30 moves repeat between different games of
    /// strong players. Equal games join from 10 moves.
    #[arg(long, value_name = "N", default_value_t = 40)]
    pub min_prefix: usize,

    /// Write one merged record per cluster into --out DIR (see above);
    /// copies one move apart join the clusters (from --min-prefix moves).
    #[arg(long, requires = "out")]
    pub merge: bool,

    /// The folder of the merged records (created; it must be empty unless
    /// --force).
    #[arg(long, value_name = "DIR", requires = "merge")]
    pub out: Option<PathBuf>,

    /// Write into a --out folder that already holds files (a merged record
    /// of the same name is replaced).
    #[arg(long, requires = "out")]
    pub force: bool,

    /// Also join copies recorded with Black and White exchanged (their
    /// players, ranks and result are read the other way round).
    #[arg(long)]
    pub swap_colors: bool,
}

/// How `sgf dedup` prints clusters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DedupFormat {
    /// Readable text.
    Text,
    /// JSON Lines.
    Json,
}

/// Arguments of `sgf check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Files, folders and archives to check; `-` reads standard input.
    /// gzip, bzip2, xz and zstd data is decompressed and tar, zip and 7z
    /// archives are opened, found by their first bytes whatever their name;
    /// a member is named `archive!member`. Folders (walked recursively) and
    /// archives give the files named `.sgf` or `.sgfs` (any letter case,
    /// perhaps compressed: `.sgf.gz`), Tygem `.gib`, WBaduk `.ngf` and
    /// Pandanet `.ugf`/`.ugi` records (converted to SGF, their warnings
    /// placed in the record), and those whose first bytes are any of these;
    /// the rest is skipped and counted, and what is not a regular file (a
    /// FIFO, a device, a broken link) is listed. Files named here are
    /// checked whatever their name, and a FIFO or device named here is read
    /// to its end. An `.sgfs` file is read line by line (one game per
    /// line): a bad line costs only itself. Every input is read as a
    /// stream, one game at a time, whatever its length.
    #[arg(required_unless_present = "explain", value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Refuse every defect the lenient parser forgives: the first one fails
    /// the file.
    #[arg(long)]
    pub strict: bool,

    /// In folders and archives, take files by their name only (`.sgf`,
    /// `.sgfs`, perhaps compressed), not by their first bytes: a folder of
    /// games beside text dumps of them (`corpus/*.txt`) checks the games
    /// alone. Archives are still opened whatever their name.
    #[arg(long)]
    pub names_only: bool,

    /// Do not print a line per warning (errors are still printed).
    #[arg(short, long)]
    pub quiet: bool,

    /// Show progress even when standard error is not a terminal: a line
    /// every second with the inputs, games, bytes and failed inputs so
    /// far, and one at the end (as for `fmt`).
    #[arg(long, conflicts_with = "quiet")]
    pub progress: bool,

    /// Worker threads (default: one per core). The output is the same,
    /// in the order of the inputs, whatever the number (the parse and
    /// value times of the summary are summed over the threads).
    #[arg(short, long, value_name = "N")]
    pub jobs: Option<usize>,

    /// Print the warnings (and malformed values) of these kinds only, by
    /// code (`repeated_property`, `invalid_value`, …); repeat or separate
    /// with commas. The summary counts them all.
    #[arg(long, value_name = "CODE", value_delimiter = ',')]
    pub warn_kind: Vec<String>,

    /// Do not print the warnings (and malformed values) of these kinds, by
    /// code; repeat or separate with commas. The summary counts them all.
    #[arg(long, value_name = "CODE", value_delimiter = ',')]
    pub ignore_kind: Vec<String>,

    /// This machine's share of a cluster job: of the inputs in sorted
    /// order, the K-th of every N, counting from 0 (as for `stats`).
    #[arg(long, value_name = "K/N", value_parser = crate::scan::parse_shard)]
    pub shard: Option<(usize, usize)>,

    /// Print at most this many warnings, malformed values and bad `.sgfs`
    /// lines in all (the rest are counted in the summary); 0 prints none.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max_messages: u64,

    /// How many inputs may fail with exit status 0: a count (`3`) or a
    /// share of the inputs read (`5%`); see `sgf fmt --help`. Default 0:
    /// any failure exits 1.
    #[arg(long, value_name = "N|P%", value_parser = crate::failures::parse_max_failures)]
    pub max_failures: Option<crate::failures::MaxFailures>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    /// Only parse: skip the pass that reads every value as its type and
    /// finds each game's charset (faster; no value errors, charsets or
    /// unknown properties are reported).
    #[arg(long)]
    pub structure_only: bool,

    /// Read every game's text in this charset, whatever its `CA` says.
    #[arg(long, value_name = "LABEL", value_parser = parse_charset)]
    pub charset: Option<&'static Encoding>,

    /// Also run the semantic checks on every game (setup and moves mixed,
    /// misplaced root and game-info properties, annotations, setup without
    /// effect, moves onto stones, suicide, ko, colours, handicap, format
    /// versions, game types; `--explain CODE` says what each means),
    /// printed like the warnings and counted per code in the summary.
    /// `--warn-kind`/`--ignore-kind` select their codes too. Findings never
    /// change the exit status, whatever their severity: a record with an
    /// illegal move is still a readable one.
    #[arg(long, conflicts_with = "structure_only")]
    pub semantic: bool,

    /// Print what the semantic check of code CODE finds, why it matters,
    /// its repair and its SGFC message, and exit (status 2 for an unknown
    /// code, with the close ones).
    #[arg(long, value_name = "CODE")]
    pub explain: Option<String>,

    #[command(flatten)]
    pub limits: InputLimits,
}

/// The limits on what one input may make a command read, shared by the
/// commands that read folders and archives.
#[derive(Debug, Args)]
pub struct InputLimits {
    /// The longest line of an `.sgfs` file (one game per line), in bytes:
    /// a longer line is an error naming it, skipped without being held,
    /// and the next line is read.
    #[arg(long, value_name = "BYTES", default_value_t = sgf_grove::input::DEFAULT_MAX_LINE)]
    pub max_line_bytes: u64,

    /// The most bytes one input (a file named or found in a folder,
    /// standard input) may expand to, its nested archives and compressed
    /// members all counted: past it, the input is an error and the next
    /// input is read. Bounds the work of an archive bomb.
    #[arg(long, value_name = "BYTES", default_value_t = sgf_grove::input::DEFAULT_MAX_INPUT_BYTES)]
    pub max_input_bytes: u64,

    /// The most games one input may hold, nested archives all counted:
    /// past it, the input is an error and the next input is read.
    #[arg(long, value_name = "N", default_value_t = sgf_grove::input::DEFAULT_MAX_INPUT_GAMES)]
    pub max_input_games: u64,
}

impl InputLimits {
    /// `inputs` with these limits.
    pub fn apply(&self, inputs: sgf_grove::input::Inputs) -> sgf_grove::input::Inputs {
        inputs
            .max_line(self.max_line_bytes)
            .max_input_bytes(self.max_input_bytes)
            .max_input_games(self.max_input_games)
    }
}

/// The output format of `sgf check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Compiler-style diagnostics and a summary, for people.
    Text,
    /// One JSON object per file, then one summary object (JSON Lines).
    Json,
}

/// Arguments of `sgf dump`.
#[derive(Debug, Args)]
pub struct DumpArgs {
    /// The inputs and how to read them. The games of every input go into
    /// one JSON array, in the order of the inputs, whatever `-j`. In strict
    /// mode a defect fails the input it is in (the games before it are
    /// written); when more inputs fail than `--max-failures` allows, the
    /// array is left unclosed and the exit status is 1.
    #[command(flatten)]
    pub scan: crate::scan::ScanArgs,

    /// Write each value as its type says (numbers, points as `[x, y]`,
    /// colours, …) instead of as a string.
    #[arg(long)]
    pub typed: bool,
}

/// Arguments of `sgf board`.
#[derive(Debug, Args)]
pub struct BoardArgs {
    /// The inputs and how to read them. With `--strict`, a defect of the
    /// file fails it, and so does an illegal move on the way to the node.
    #[command(flatten)]
    pub scan: crate::scan::ScanArgs,

    /// The game, counted from 0 over all the inputs in the order they are
    /// read (files sorted in folders, members in archive order): with
    /// `a.sgf` holding 2 games and `b.sgf` 3, `--game 3` is the second
    /// game of `b.sgf`.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub game: usize,

    /// The node: child indexes from the root, separated by dots
    /// (`0.0.1`: the root's first child, its first child, that one's
    /// second child); empty for the root.
    #[arg(long, value_name = "PATH", conflicts_with_all = ["move_number", "end"])]
    pub node: Option<String>,

    /// The node of the N-th move of the main line (0: the root).
    #[arg(long = "move", value_name = "N", conflicts_with = "end")]
    pub move_number: Option<usize>,

    /// The end of the main line (the default).
    #[arg(long)]
    pub end: bool,

    /// How to print the position.
    #[arg(long, value_enum, default_value_t = BoardFormat::Text)]
    pub format: BoardFormat,

    /// The coordinates around the diagram: `go`, columns `A`–`T` without
    /// `I` (past `Z`, two letters: `AA`, `AB`, …, still without `I`) and
    /// rows numbered from the bottom (`19` … `1`); `sgf`, the SGF letters
    /// of each column and row (`a` … `s`, from the top left). The JSON
    /// output always has 0-based `[x, y]` from the top left.
    #[arg(long, value_enum, default_value_t = Coords::Go)]
    pub coords: Coords,

    /// The rules, whatever the game's `RU` says: japanese, chinese, aga,
    /// nz, ing, korean, tromp-taylor (any spelling `RU` accepts).
    #[arg(long, value_name = "NAME")]
    pub rules: Option<String>,

    /// Replay limits.
    #[command(flatten)]
    pub limits: ReplayLimitArgs,
}

/// Arguments of `sgf diagram`.
#[derive(Debug, Args)]
pub struct DiagramArgs {
    /// The inputs and how to read them. With `--strict`, a defect of the
    /// file fails it, and so does an illegal move on the way to the node.
    #[command(flatten)]
    pub scan: crate::scan::ScanArgs,

    /// The game, counted from 0 over all the inputs (as for `sgf board`).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub game: usize,

    /// The node: child indexes from the root separated by dots (`0.0.1`);
    /// empty for the root.
    #[arg(long, value_name = "PATH", conflicts_with_all = ["move_number", "end", "to"])]
    pub node: Option<String>,

    /// The node of the N-th move of the main line (0: the root).
    #[arg(long = "move", value_name = "N", conflicts_with_all = ["end", "to"])]
    pub move_number: Option<usize>,

    /// The end of the main line (the default).
    #[arg(long, conflicts_with = "to")]
    pub end: bool,

    /// Number the moves from the M-th (from 1, passes included) to the
    /// node's.
    #[arg(long, value_name = "M")]
    pub from: Option<usize>,

    /// The node of the N-th move of the main line, the moves numbered up
    /// to it (from --from, else from 1).
    #[arg(long, value_name = "N")]
    pub to: Option<usize>,

    /// The picture's format.
    #[arg(long, value_enum, default_value_t = DiagramFormat::Svg)]
    pub format: DiagramFormat,

    /// Draw the coordinates on the top and left sides.
    #[arg(long)]
    pub coords: bool,

    /// The longer side in pixels (SVG: the drawing scaled; PNG: the
    /// image). Default: 24 pixels between two lines (480 for 19×19).
    #[arg(long, value_name = "PX", value_parser = clap::value_parser!(u32).range(1..=16384))]
    pub size: Option<u32>,

    /// Write the picture to FILE instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// The rules, whatever the game's `RU` says (as for `sgf board`).
    #[arg(long, value_name = "NAME")]
    pub rules: Option<String>,

    /// Replay limits.
    #[command(flatten)]
    pub limits: ReplayLimitArgs,
}

/// The picture `sgf diagram` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiagramFormat {
    /// SVG text.
    Svg,
    /// A PNG image.
    Png,
}

/// The limits of one game's replay (`sgf board`, `sgf index`); the
/// defaults are far above any real game and keep a replay's memory in a
/// few hundred MB.
#[derive(Debug, Args, Clone, Copy)]
pub struct ReplayLimitArgs {
    /// The most nodes replayed per game (over all its lines).
    #[arg(long, value_name = "N", default_value_t = ReplayOptions::MAX_NODES)]
    pub max_nodes: usize,

    /// The most nodes in one line of play (the root included).
    #[arg(long, value_name = "N", default_value_t = ReplayOptions::MAX_DEPTH)]
    pub max_depth: usize,

    /// The most stones put on or taken off per game (moves, captures,
    /// setup).
    #[arg(long, value_name = "N", default_value_t = ReplayOptions::MAX_CHANGES)]
    pub max_changes: u64,

    /// The most illegal moves listed; the others are counted.
    #[arg(long, value_name = "N", default_value_t = ReplayOptions::MAX_ILLEGAL)]
    pub max_illegal: usize,
}

impl ReplayLimitArgs {
    /// `options` with these limits.
    pub fn apply(&self, options: ReplayOptions) -> ReplayOptions {
        options
            .max_nodes(self.max_nodes)
            .max_depth(self.max_depth)
            .max_changes(self.max_changes)
            .max_illegal(self.max_illegal)
    }
}

/// The coordinates `sgf board` writes around its diagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Coords {
    /// Go players' coordinates: `A`–`T` without `I`, rows `19` … `1`.
    Go,
    /// The SGF letters of each column and row.
    Sgf,
}

/// How `sgf board` prints a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BoardFormat {
    /// A diagram with coordinates, the last move marked.
    Text,
    /// One JSON object.
    Json,
}

/// Arguments of `sgf fmt`.
#[derive(Debug, Args)]
pub struct FmtArgs {
    /// What to read and where to write.
    #[command(flatten)]
    pub io: RewriteArgs,

    /// Canonical mode: `FF[4]`, root and game-info properties first in a
    /// fixed order, single-valued properties with one value, escapes only
    /// where needed, passes as `[]`.
    #[arg(long)]
    pub canonical: bool,

    /// Transcode text to UTF-8 and record `CA[UTF-8]`.
    #[arg(long)]
    pub utf8: bool,

    /// Break lines before nodes and properties to stay within N bytes
    /// (never inside a value).
    #[arg(long, value_name = "N")]
    pub wrap: Option<usize>,

    /// With `--canonical`, write passes as `[tt]` on boards up to 19×19.
    #[arg(long, requires = "canonical")]
    pub tt_pass: bool,

    /// With `--canonical`, how to write point lists.
    #[arg(long, value_enum, value_name = "STYLE", requires = "canonical", default_value_t = PointsArg::AsWritten)]
    pub points: PointsArg,
}

/// How `sgf fmt --canonical` writes point lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PointsArg {
    /// Points and rectangles as in the input.
    AsWritten,
    /// Every point a value of its own.
    Expand,
    /// Rectangles where they fit.
    Compress,
}

/// Arguments of `sgf fix`.
#[derive(Debug, Args)]
pub struct FixArgs {
    /// What to read and where to write.
    #[command(flatten)]
    pub io: RewriteArgs,

    // The repairs to make: the help lists their names from the library
    // (`Repair::NAMES`), so that a new repair shows without an edit here.
    #[arg(
        long,
        help = format!("The repairs to make, comma-separated: {}", sgf_grove::repair::Repair::NAMES),
        value_name = "NAME",
        value_delimiter = ',',
        required_unless_present = "all",
        conflicts_with = "all"
    )]
    pub repair: Vec<sgf_grove::repair::Repair>,

    /// Make every repair.
    #[arg(long)]
    pub all: bool,

    /// Report what would change (on standard output) and write nothing.
    #[arg(long, conflicts_with_all = ["in_place", "out", "out_file"])]
    pub dry_run: bool,
}

/// Arguments of `sgf strip`.
#[derive(Debug, Args)]
pub struct StripArgs {
    /// What to read and where to write.
    #[command(flatten)]
    pub io: RewriteArgs,

    /// The properties to drop, comma-separated: `C,LZ,TR`.
    #[arg(
        long,
        value_name = "IDENTS",
        value_delimiter = ',',
        required_unless_present = "preset"
    )]
    pub props: Vec<String>,

    /// Named sets of properties to drop, comma-separated: comments (C),
    /// analysis (KT KTV LZ SBKV SBKS OGSC, and comments that are an
    /// engine's analysis and nothing else: KataGo self-play lines such as
    /// `0.40 0.60 0.00 -3.7 v=400`, `Black's win rate: 15.4% visits: 507`,
    /// Lizzie's `Black's winrate: 54.2%`; a comment with any other word or
    /// number is kept), markup (CR SQ TR MA LB AR LN DD SL), times (BL WL
    /// OB OW).
    #[arg(long, value_name = "NAME", value_delimiter = ',', value_parser = parse_preset)]
    pub preset: Vec<sgf_grove::writer::Preset>,
}

/// Arguments of `sgf transform`.
#[derive(Debug, Args)]
pub struct TransformArgs {
    /// What to read and where to write.
    #[command(flatten)]
    pub io: RewriteArgs,

    /// Rotate the board clockwise by this many degrees.
    #[arg(long, value_name = "DEGREES", value_parser = ["90", "180", "270"])]
    pub rotate: Option<String>,

    /// Mirror the board left to right (after the rotation).
    #[arg(long)]
    pub flip: bool,

    /// Exchange black and white.
    #[arg(long)]
    pub swap_colors: bool,
}

/// The inputs of `fmt`, `strip`, `transform` and `fix` and where their
/// output goes: standard output (one collection, the default), one file
/// (`--out-file`), a folder mirroring the inputs (`--out`), or the files
/// themselves (`--in-place`). Every file is written through a temporary
/// file renamed over it, so that it holds its old bytes or its new ones,
/// never half of them.
#[derive(Debug, Args)]
pub struct RewriteArgs {
    /// The inputs and how to read them.
    #[command(flatten)]
    pub scan: crate::scan::ScanArgs,

    /// Replace each file by its output: written to a temporary file in the
    /// same folder (`.NAME.PID-N.sgf-grove-tmp`, which folder scans skip
    /// and report), then renamed over the file with its owner, group and
    /// mode, so that the file is never half-written, also when
    /// interrupted. A symbolic link is written through to its target. A
    /// file is left as it was when it fails (see --max-failures), when it
    /// has several hard links, when another rewrite holds its lock, or
    /// when it changed on disk meanwhile. An `.sgfs` file keeps one game
    /// per line: a game whose output would span lines fails. Plain files
    /// only: standard input, a compressed file or an archive among the
    /// inputs (also in a folder) is an error naming it, before anything is
    /// written (use --out DIR).
    #[arg(long, conflicts_with_all = ["out", "out_file"])]
    pub in_place: bool,

    /// Write each input to a file of its own under DIR, mirroring the
    /// inputs: a file found in a folder given as `a` (`a/b/c.sgf`) goes to
    /// `DIR/b/c.sgf`, a file named itself to `DIR/<its name>`, a member
    /// `a.tar.gz!x/y.sgf` to `DIR/a.tar.gz/x/y.sgf`, a compressed
    /// `x.sgf.gz` to `DIR/x.sgf` (written uncompressed), standard input to
    /// `DIR/stdin.sgf`. Each file appears whole (temporary file, then
    /// rename); an existing one is replaced, and an input that fails
    /// writes no file. DIR inside a folder given as input is refused (a
    /// second run would read the output as input), and so are two inputs
    /// that would write the same file, an input that would overwrite
    /// itself, and a member name with `..` (an absolute member name is put
    /// under DIR).
    #[arg(long, value_name = "DIR", conflicts_with = "out_file")]
    pub out: Option<PathBuf>,

    /// Write every game to FILE, one collection (as on standard output),
    /// through a temporary file renamed over it at the end: FILE appears
    /// whole, or (when more inputs fail than --max-failures allows) is
    /// left as it was.
    #[arg(long, value_name = "FILE")]
    pub out_file: Option<PathBuf>,
}

/// The preset a `--preset` name names.
fn parse_preset(name: &str) -> Result<sgf_grove::writer::Preset, String> {
    sgf_grove::writer::Preset::from_name(name)
        .ok_or_else(|| format!("unknown preset {name:?} (comments, analysis, markup, times)"))
}

/// The encoding a `--charset` label names (`UTF-8`, `GB2312`, `Shift_JIS`,
/// `ISO8859_1`, …), as [`sgf_grove::text::charset::for_label`] reads it.
fn parse_charset(label: &str) -> Result<&'static Encoding, String> {
    sgf_grove::text::charset::for_label(label.as_bytes())
        .ok_or_else(|| format!("unknown charset label {label:?}"))
}

/// Filters on games, combined with AND (see `sgf_grove::table::Filter`).
#[derive(Debug, Default, Args)]
pub struct FilterArgs {
    /// Board sizes: `19`, `19x13`, `9,13,19`.
    #[arg(long, value_name = "SIZES")]
    pub size: Option<String>,
    /// Handicap stones: `0`, `2..9`, `..1` (no `HA` counts as 0).
    #[arg(long, value_name = "RANGE")]
    pub handicap: Option<String>,
    /// Komi in points: `6.5..7.5`, `..7`, `6..` (Fox's `KM[650]` is 6.5).
    #[arg(long, value_name = "RANGE")]
    pub komi: Option<String>,
    /// Both players' ranks: `5d..9d`, `10k..1k`, `1p..`.
    #[arg(long, value_name = "RANGE")]
    pub rank: Option<String>,
    /// The first date: `2010..2015`, `2019-01-01..2019-06-30`.
    #[arg(long, value_name = "RANGE")]
    pub date: Option<String>,
    /// Either player's name holds this text (any letter case).
    #[arg(long, value_name = "TEXT")]
    pub player: Option<String>,
    /// Results: `B+R`, `W+`, `B+T`, `draw`, `void`; several with commas.
    #[arg(long, value_name = "RESULTS")]
    pub result: Option<String>,
    /// Main-line moves: `100..`, `50..300`.
    #[arg(long, value_name = "RANGE")]
    pub moves: Option<String>,
    /// Rules: `japanese`, `chinese,korean`.
    #[arg(long, value_name = "RULES")]
    pub rules: Option<String>,
    /// The event (`EV`) holds this text (any letter case).
    #[arg(long, value_name = "TEXT")]
    pub event: Option<String>,
    /// Some node holds this property (repeatable): `--has LB`.
    #[arg(long, value_name = "IDENT")]
    pub has: Vec<String>,
    /// No node holds this property (repeatable): `--lacks C`.
    #[arg(long, value_name = "IDENT")]
    pub lacks: Vec<String>,
    /// Rated (`yes`) or not (`no`), as the game name, event or game
    /// comment says; games that say neither fail both.
    #[arg(long, value_name = "yes|no")]
    pub rated: Option<String>,
    /// Bots among the players, told by their names and ranks: `none`,
    /// `any`, `both`.
    #[arg(long, value_name = "none|any|both")]
    pub bots: Option<String>,
    /// The server the game comes from, when its root says so beyond doubt:
    /// `fox`, `kgs`, `ogs`, `gogod`, `go4go`; several with commas.
    #[arg(long, value_name = "NAMES")]
    pub server: Option<String>,
    /// Main time in seconds (`TM`): `1800..`, `..600`.
    #[arg(long, value_name = "RANGE")]
    pub main_time: Option<String>,
}

/// Arguments of `sgf stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// The inputs and how to read them.
    #[command(flatten)]
    pub scan: crate::scan::ScanArgs,
    /// Count only the games that pass these filters (the others are
    /// counted as rejections, by reason).
    #[command(flatten)]
    pub filter: FilterArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// How many of the most frequent players to list.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub top: usize,
}

/// What `sgf select` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Print {
    /// One line per game, three tab-separated columns: `source` (the file,
    /// or `archive!member`), `game` (the game's index in it, from 0) and
    /// `offset` (the byte offset of the game's `(` in the decompressed
    /// source); `--header` puts a line with those names first.
    Paths,
    /// The games themselves, one collection (raw writer).
    Games,
}

/// Arguments of `sgf select`.
#[derive(Debug, Args)]
pub struct SelectArgs {
    /// The inputs and how to read them.
    #[command(flatten)]
    pub scan: crate::scan::ScanArgs,
    /// The filters.
    #[command(flatten)]
    pub filter: FilterArgs,
    /// What to print for each game that passes.
    #[arg(long, value_enum, default_value_t = Print::Paths)]
    pub print: Print,
    /// With `--print paths`: print the column names first
    /// (`source\tgame\toffset`).
    #[arg(long)]
    pub header: bool,
    /// Write to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// The table formats of `sgf export`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TableFormat {
    /// One JSON object per game and line (to `--out FILE` or standard
    /// output).
    Jsonl,
    /// `games.csv` and `moves.csv` in `--out DIR`.
    Csv,
    /// `games.parquet` and `moves.parquet` in `--out DIR`.
    Parquet,
    /// Training samples in `--out DIR`: a record for every move of every
    /// main line (feature planes, the move, the result), shuffled into
    /// shards, with `games.jsonl` (or `.parquet`) and `manifest.json`.
    Samples,
}

/// The shard format of `--format samples`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ShardFormatArg {
    /// NumPy `.npz` (`numpy.load`).
    Npz,
    /// Parquet.
    Parquet,
}

/// Arguments of `sgf export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The inputs and how to read them.
    #[command(flatten)]
    pub scan: crate::scan::ScanArgs,
    /// Export only the games that pass these filters.
    #[command(flatten)]
    pub filter: FilterArgs,
    /// The table format.
    #[arg(long, value_enum)]
    pub format: TableFormat,
    /// The output: a file for `jsonl` (standard output when absent), a
    /// folder for `csv` and `parquet` (required).
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// Leave out the moves (the `moves` member, the moves table).
    #[arg(long)]
    pub no_moves: bool,
    /// Also write the analysis table: one row per engine analysis of a
    /// main-line node (KaTrain KT, Lizzie LZ, Sabaki/Ogatak SBKV SBKS
    /// OGSC, KataGo self-play and review comments), in Black's view: the
    /// `analysis` member (jsonl), analysis.csv, analysis.parquet. Analysis
    /// that does not decode is reported on standard error with its place.
    #[arg(long)]
    pub analysis: bool,
    /// More player aliases for the `black_player` and `white_player`
    /// columns, on top of the built-in table: one player a line, `Name =
    /// alias, alias, …`, `#` starting a comment.
    #[arg(long, value_name = "FILE")]
    pub aliases: Option<PathBuf>,
    /// How training samples are made and written.
    #[command(flatten)]
    pub samples: SampleArgs,
}

/// Options of `sgf export --format samples`.
#[derive(Debug, Args)]
#[command(next_help_heading = "Samples (--format samples)")]
pub struct SampleArgs {
    /// The board size of the samples (N or COLSxROWS); games of other
    /// sizes are left out and counted.
    #[arg(long, value_name = "SIZE", default_value = "19")]
    pub board: String,
    /// Positions of history (own and opponent planes for each), 1 to 16.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u8).range(1..=16))]
    pub history: u8,
    /// Planes after the history: a list of empty, liberties, ko (or all,
    /// none). The default is AlphaGo Zero's 17 planes.
    #[arg(long, value_name = "LIST", default_value = "none")]
    pub planes: String,
    /// Symmetries: none, all (8 samples a position), random (one a
    /// position, seeded).
    #[arg(long, value_name = "HOW", default_value = "none")]
    pub augment: String,
    /// Samples per shard (the last shard holds the rest).
    #[arg(long, value_name = "N", default_value_t = 16_384)]
    pub shard_size: usize,
    /// Samples held to shuffle (memory: this many samples; 1 keeps the
    /// input order).
    #[arg(long, value_name = "N", default_value_t = 65_536)]
    pub window: usize,
    /// The seed of the shuffle and of random augmentation.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,
    /// The shards' format.
    #[arg(long, value_enum, default_value = "npz")]
    pub shard_format: ShardFormatArg,
    /// Planes a byte a point, shape (n, planes, rows, cols), instead of
    /// packed a bit a point.
    #[arg(long)]
    pub unpacked: bool,
}

/// Arguments of `sgf tree`.
#[derive(Debug, Args)]
pub struct TreeArgs {
    /// The inputs and how to read them.
    #[command(flatten)]
    pub scan: crate::scan::ScanArgs,

    /// How many moves of each game's main line (passes count).
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = parse_depth)]
    pub depth: usize,

    /// Leave out the variations seen in fewer than K games.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub min_games: u64,

    /// Turn each game to one orientation first, the one that makes its
    /// moves smallest move by move: games that agree up to a rotation or
    /// reflection share their branch.
    #[arg(long)]
    pub symmetry: bool,

    /// The most nodes the tree holds in memory (40 bytes each).
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    pub max_nodes: usize,

    /// Write the SGF to FILE and the JSON Lines to FILE.json (each whole
    /// or not at all) instead of the SGF to standard output.
    #[arg(long, value_name = "FILE", conflicts_with = "json")]
    pub out: Option<PathBuf>,

    /// Print the JSON Lines instead of the SGF on standard output.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `sgf extract`.
#[derive(Debug, Args)]
pub struct ExtractArgs {
    /// The inputs and how to read them. With --strict, an illegal move on
    /// the way to the node fails the extraction.
    #[command(flatten)]
    pub scan: crate::scan::ScanArgs,

    /// The game, counted from 0 over all the inputs in the order they are
    /// read, as for `sgf board --game`.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub game: usize,

    /// The node: child indexes from the root, separated by dots (`0.0.1`),
    /// as for `sgf board --node`; empty for the root (the default).
    #[arg(long, value_name = "PATH", conflicts_with = "move_number")]
    pub node: Option<String>,

    /// The node of the N-th move of the main line (0: the root), as for
    /// `sgf board --move`.
    #[arg(long = "move", value_name = "N")]
    pub move_number: Option<usize>,

    /// Start the new game at the node's position, as setup in its root,
    /// instead of keeping the moves that lead there.
    #[arg(long)]
    pub setup: bool,

    /// Write every line below the node (one per leaf) as a game of its
    /// own, instead of the node's whole subtree as one game.
    #[arg(long)]
    pub variations: bool,

    /// Write to a file instead of standard output; with --variations, to a
    /// folder, one file per variation (`<input name>-<k>.sgf`).
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,

    /// Replay limits (for --setup).
    #[command(flatten)]
    pub limits: ReplayLimitArgs,
}

/// A depth of `sgf tree`: 1 to 1000 moves.
fn parse_depth(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=1000).contains(&n) => Ok(n),
        _ => Err(format!("expected 1 to 1000 moves, got {s:?}")),
    }
}
