//! [`GameRow`] and [`MoveRow`]: one game, and one move of its main line,
//! as owned table rows.

use super::line::Line;
use super::players::{is_bot_name, rated_from_texts, NameAliases};
use super::time_control::TimeControl;
use super::warnings::GameWarnings;
use crate::game::{GameResult, PartialDate, Rank, WinBy, GAME_INFO_IDENTS};
use crate::text::CharsetSource;
use crate::value::{Color, Move};
use crate::GameTree;
use std::fmt;

/// How a game ended, as [`GameRow::result_kind`] tells it: the kind of a
/// [`GameResult`], without the winner and margin (which have columns of
/// their own).
///
/// | kind | `RE` |
/// |---|---|
/// | [`Points`](ResultKind::Points) | `B+3.5`, `W+0.5` |
/// | [`Resignation`](ResultKind::Resignation) | `B+R`, `W+Resign` |
/// | [`Time`](ResultKind::Time) | `W+T`, `B+Time` |
/// | [`Forfeit`](ResultKind::Forfeit) | `B+F`, `W+Forfeit` |
/// | [`OtherWin`](ResultKind::OtherWin) | `B+` (no reason), `W+Illegal` (a reason FF\[4\] does not name) |
/// | [`Draw`](ResultKind::Draw) | `0`, `Draw`, `Jigo` |
/// | [`Void`](ResultKind::Void) | `Void`, `No result` |
/// | [`Unknown`](ResultKind::Unknown) | `?`, or text that is no known form |
///
/// A game without `RE` has no kind (`None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ResultKind {
    /// A win on points.
    Points,
    /// A win by resignation.
    Resignation,
    /// A win on time.
    Time,
    /// A win by forfeit.
    Forfeit,
    /// A win with no reason given, or a reason FF\[4\] does not name.
    OtherWin,
    /// A draw (jigo).
    Draw,
    /// No result.
    Void,
    /// Stated as unknown, or not readable.
    Unknown,
}

impl ResultKind {
    /// Every kind, in declaration order.
    pub const ALL: [ResultKind; 8] = [
        ResultKind::Points,
        ResultKind::Resignation,
        ResultKind::Time,
        ResultKind::Forfeit,
        ResultKind::OtherWin,
        ResultKind::Draw,
        ResultKind::Void,
        ResultKind::Unknown,
    ];

    /// The kind of a result.
    pub fn of(result: &GameResult) -> ResultKind {
        match result {
            GameResult::Win { by, .. } => match by {
                WinBy::Points(_) => ResultKind::Points,
                WinBy::Resignation => ResultKind::Resignation,
                WinBy::Time => ResultKind::Time,
                WinBy::Forfeit => ResultKind::Forfeit,
                WinBy::Unspecified | WinBy::Other(_) => ResultKind::OtherWin,
            },
            GameResult::Draw => ResultKind::Draw,
            GameResult::Void => ResultKind::Void,
            GameResult::Unknown | GameResult::Unparsed(_) => ResultKind::Unknown,
        }
    }

    /// A stable `snake_case` code: `points`, `resignation`, `time`,
    /// `forfeit`, `other`, `draw`, `void`, `unknown`.
    pub fn code(self) -> &'static str {
        match self {
            ResultKind::Points => "points",
            ResultKind::Resignation => "resignation",
            ResultKind::Time => "time",
            ResultKind::Forfeit => "forfeit",
            ResultKind::OtherWin => "other",
            ResultKind::Draw => "draw",
            ResultKind::Void => "void",
            ResultKind::Unknown => "unknown",
        }
    }
}

impl fmt::Display for ResultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The properties [`GameRow::info`] holds, in its order: `SZ`, then
/// [`GAME_INFO_IDENTS`].
pub const INFO_IDENTS: [&str; GAME_INFO_IDENTS.len() + 1] = {
    let mut all = [""; GAME_INFO_IDENTS.len() + 1];
    all[0] = "SZ";
    let mut i = 0;
    while i < GAME_INFO_IDENTS.len() {
        all[i + 1] = GAME_INFO_IDENTS[i];
        i += 1;
    }
    all
};

/// One game as a table row: where it is, its game information as written
/// and normalised, and counts. Owned, so it can leave the parser's arena
/// and the thread that read it.
///
/// Built by [`GameRow::from_game`]; the fields are public to read (and to
/// change, say the [`id`](GameRow::id)). Text is the game's text decoded in
/// its charset, trimmed; a property that is absent or blank is `None`.
/// The writers ([`JsonLinesWriter`](super::JsonLinesWriter),
/// [`CsvWriter`](super::CsvWriter), `ParquetWriter`) write these fields
/// under the same names; [`COLUMNS`](super::COLUMNS) lists them with their
/// types.
///
/// ```
/// use sgf_grove::table::{GameRow, ResultKind};
/// use sgf_grove::value::Color;
///
/// let doc = sgf_grove::parse(b"(;GM[1]SZ[19]PB[Lee Sedol]BR[9p]PW[AlphaGo]KM[7.5]RE[W+R]DT[2016-03-09];B[pd];W[dd])")?;
/// let game = doc.games().next().unwrap();
/// let row = GameRow::from_game(game, "match.sgf", 0).with_id(7);
/// assert_eq!((row.id, row.source.as_str(), row.game), (7, "match.sgf", 0));
/// assert_eq!((row.board_cols, row.komi, row.black_rank_value), (19, Some(7.5), Some(19)));
/// assert_eq!(row.result_winner, Some(Color::White));
/// assert_eq!(row.result_kind, Some(ResultKind::Resignation));
/// assert_eq!(row.date.as_deref(), Some("2016-03-09"));
/// assert_eq!((row.move_count, row.node_count, row.moves[1].game_id), (2, 3, 7));
/// # Ok::<(), sgf_grove::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct GameRow {
    /// The game's number in the scan that produced it, set by the caller
    /// ([`GameRow::with_id`], which numbers the moves too); 0 until then.
    /// The moves table refers to games by it.
    pub id: u64,
    /// Where the game comes from: a file, or `archive!member`, as the
    /// caller named it.
    pub source: String,
    /// The game's index among the games of its source, from 0
    /// ([`GameTree::index`]).
    pub game: u64,
    /// The game's byte offset in its source, as the caller gave it.
    pub offset: u64,
    /// The game (`GM`): 1 for Go, also when `GM` is absent or malformed.
    /// The moves of other games are not read (see
    /// [`GameRow::move_count`]).
    pub game_type: u32,
    /// Board columns (`SZ`; 19 when absent or malformed).
    pub board_cols: u8,
    /// Board rows (`SZ[19:13]` has 13; 19 when absent or malformed).
    pub board_rows: u8,
    /// Handicap stones (`HA`; `HA[0]` and `HA[1]` are 0); `None` when
    /// absent or unreadable.
    pub handicap: Option<u32>,
    /// Komi (`KM`) as written, as a number: Fox's `KM[650]` is 650. `None`
    /// when absent or unreadable.
    pub komi: Option<f64>,
    /// Komi in points, with the Fox server's ×100 and ×50 scaling undone
    /// ([`GameInfo::komi_points`](crate::game::GameInfo::komi_points)):
    /// Fox's `KM[650]` is 6.5, `KM[375]` with `RU[Chinese]` 7.5.
    pub komi_points: Option<f64>,
    /// Black's name (`PB`).
    pub black_name: Option<String>,
    /// Black's rank as written (`BR`).
    pub black_rank: Option<String>,
    /// Black's rank as a number ([`Rank::number`](crate::game::Rank::number)): −30 (30k) to 19 (9p).
    pub black_rank_value: Option<i8>,
    /// White's name (`PW`).
    pub white_name: Option<String>,
    /// White's rank as written (`WR`).
    pub white_rank: Option<String>,
    /// White's rank as a number ([`Rank::number`](crate::game::Rank::number)).
    pub white_rank_value: Option<i8>,
    /// The result as written (`RE`).
    pub result: Option<String>,
    /// The winner, for a win.
    pub result_winner: Option<Color>,
    /// The margin in points as written, for a win on points (Fox writes
    /// stones in Chinese-rules games; see [`WinBy::Points`]).
    pub result_margin: Option<f64>,
    /// How the game ended; `None` without `RE`.
    pub result_kind: Option<ResultKind>,
    /// The first date the game was played on (`DT`), ISO: `1996-05-06`,
    /// or `1996-05`, `1996` when that is all `DT` says.
    pub date: Option<String>,
    /// Every date of `DT`, ISO, in the order written; empty when `DT` is
    /// absent or unreadable.
    pub dates: Vec<String>,
    /// The rule set (`RU`), normalised: `Japanese`, `Chinese`, `AGA`,
    /// `GOE`, `NZ`, `Korean`, `Tromp-Taylor`, else as written.
    pub rules: Option<String>,
    /// The event (`EV`).
    pub event: Option<String>,
    /// The round (`RO`).
    pub round: Option<String>,
    /// The place (`PC`).
    pub place: Option<String>,
    /// The game name (`GN`).
    pub game_name: Option<String>,
    /// The application's name (`AP`, before its `:`).
    pub application: Option<String>,
    /// The application's version (`AP`, after its `:`).
    pub application_version: Option<String>,
    /// The root's `CA` as written (bytes that are not UTF-8 as U+FFFD).
    pub charset_declared: Option<String>,
    /// The charset the game's text was read in ([`GameTree::charset`]),
    /// as `encoding_rs` names it: `UTF-8`, `GBK`, `Shift_JIS`, ….
    pub charset: &'static str,
    /// Where that charset came from.
    pub charset_source: CharsetSource,
    /// The moves of the main line that are moves on the board (passes
    /// included): the rows of [`GameRow::moves`]. 0 for a game other than
    /// Go ([`GameRow::game_type`] not 1), whose moves are not Go points and
    /// are not read.
    pub move_count: u32,
    /// The `B`/`W` values of the main line that are no move on the board
    /// (`B[zz]` on 19×19, `W[a]`): counted here, not dropped silently; they
    /// have no move row, but keep their ply (see [`MoveRow::ply`]).
    pub invalid_move_count: u32,
    /// The nodes of the game tree, root included.
    pub node_count: u32,
    /// The lines of play besides the main line: the tree's leaves − 1
    /// (equally, the nodes that are not their parent's first child). 0 for
    /// a game without variations.
    pub variation_count: u32,
    /// The time control, as numbers (`TM`, `OT`, Fox's `TC`/`TT`, `LC`/`LT`;
    /// see [`TimeControl`]): the `time_*` columns.
    pub time: TimeControl,
    /// Whether the game was rated, when its name, event or game comment
    /// says so ([`rated_from_texts`](super::rated_from_texts)).
    pub rated: Option<bool>,
    /// Whether Black's name (or rank) is a program's
    /// ([`is_bot_name`](super::is_bot_name)).
    pub black_bot: bool,
    /// Whether White's name (or rank) is a program's.
    pub white_bot: bool,
    /// The server or database the game comes from, when its root says so
    /// beyond doubt ([`detect`](crate::repair::detect)'s certain source:
    /// `fox`, `kgs`, `ogs`, `gogod`, `go4go`).
    pub server: Option<&'static str>,
    /// Black's name normalised and through the alias table
    /// ([`NameAliases`](super::NameAliases): the built-in one, or the one
    /// given to [`GameRow::apply_aliases`]): one spelling per player.
    pub black_player: Option<String>,
    /// White's name normalised and through the alias table.
    pub white_player: Option<String>,
    /// The parser's warnings about this game: in a collection holding this
    /// game alone (a [`StreamParser`](crate::StreamParser) or
    /// [`Parser::parse_each`](crate::Parser::parse_each) game) all of the
    /// collection's, dropped ones included; in a collection of several
    /// games, those after the previous game's end up to this game's end,
    /// and for the last game also those after it and the dropped ones.
    pub warning_count: u32,
    /// The game-information properties as decoded text, in the order of
    /// [`INFO_IDENTS`] (`SZ` and [`GAME_INFO_IDENTS`]), those present only
    /// (blank ones too): what the JSON Lines `info` object holds.
    pub info: Vec<(&'static str, String)>,
    /// The moves of the main line, in order; empty for a row of
    /// [`GameRow::from_game_packed`], whose moves are packed
    /// ([`GameRow::move_rows`] reads either).
    pub moves: Vec<MoveRow>,
    /// The engine analysis of the main line, one row per record
    /// ([`GameRow::add_analysis`]; empty until then).
    pub analysis: Vec<super::AnalysisRow>,
    /// The analysis that did not decode ([`GameRow::add_analysis`]).
    pub analysis_warnings: Vec<crate::analysis::AnalysisWarning>,
    /// The moves of the main line, packed ([`GameRow::from_game_packed`]).
    pub(crate) line: Line,
    /// The first date, for filters.
    pub(crate) first_date: Option<PartialDate>,
    /// Whether `HA` was present (and not blank), for the handicap filter.
    pub(crate) has_handicap_text: bool,
}

/// One move of a game's main line as a table row.
///
/// Coordinates are from 0, `x` the column from the left and `y` the row
/// from the top, as SGF writes them (`B[pd]` is x 15, y 3); a pass has
/// neither.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct MoveRow {
    /// The game's [`GameRow::id`].
    pub game_id: u64,
    /// The move's number in the main line, from 1. Every node of the main
    /// line with a `B` or `W` takes a number, also one whose value is no
    /// move on the board: that one has no row, so the numbers skip it (a
    /// game whose third move is `B[zz]` has plies 1, 2, 4, …) and
    /// [`GameRow::invalid_move_count`] counts it.
    pub ply: u32,
    /// Who played.
    pub color: Color,
    /// The column, from 0; `None` for a pass.
    pub x: Option<u8>,
    /// The row, from 0; `None` for a pass.
    pub y: Option<u8>,
    /// Whether the move is a pass (`B[]`, or `B[tt]` on boards up to 19×19).
    pub is_pass: bool,
}

impl MoveRow {
    /// The move as SGF writes it: two letters (`pd`), or the empty string
    /// for a pass.
    ///
    /// ```
    /// use sgf_grove::table::GameRow;
    /// let doc = sgf_grove::parse(b"(;SZ[19];B[pd];W[tt])")?;
    /// let row = GameRow::from_game(doc.games().next().unwrap(), "a.sgf", 0);
    /// assert_eq!(row.moves[0].coordinate(), "pd");
    /// assert_eq!(row.moves[1].coordinate(), "");
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    pub fn coordinate(&self) -> String {
        let mut buf = [0; 2];
        self.coordinate_in(&mut buf).to_owned()
    }

    /// [`MoveRow::coordinate`] without allocating: written into `buf`.
    pub(crate) fn coordinate_in<'b>(&self, buf: &'b mut [u8; 2]) -> &'b str {
        match (self.x, self.y) {
            (Some(x), Some(y)) => {
                *buf = [letter(x), letter(y)];
                std::str::from_utf8(buf).unwrap_or("")
            }
            _ => "",
        }
    }
}

/// The SGF letter of coordinate `c`: `a`–`z`, then `A`–`Z`.
fn letter(c: u8) -> u8 {
    match c {
        0..=25 => b'a' + c,
        26..=51 => b'A' + c - 26,
        _ => b'?',
    }
}

/// Decoded text as an owned string, when it is not blank; trimmed.
/// What [`GameRow::build`] fills.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keep {
    /// Everything.
    All,
    /// All, the moves packed.
    Packed,
    /// All but the move rows.
    NoMoves,
    /// What statistics read ([`GameRow::for_stats`]).
    Stats,
}

fn owned(text: Option<&str>) -> Option<String> {
    text.map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
}

impl GameRow {
    /// The row of `game`: `source` names where it comes from (a file, or
    /// `archive!member`) and `offset` is its byte offset there, as the
    /// caller knows it (the input layer's offset of the game, or
    /// `game.collection().stream_offset(game.span().start)` for a game of
    /// a [`StreamParser`](crate::StreamParser) over the whole source).
    /// The [`id`](GameRow::id) is 0: number the rows with
    /// [`GameRow::with_id`].
    ///
    /// Reads the root's game information once, the main line's moves once
    /// (an invalid one is counted, see [`MoveRow::ply`]), and the tree's
    /// nodes once. Finds the game's charset (detecting it when `CA` does
    /// not name one). Never fails and never panics: what cannot be read is
    /// `None` or counted.
    pub fn from_game(game: GameTree<'_, '_>, source: &str, offset: u64) -> GameRow {
        GameRow::build(game, source, offset, Keep::All)
    }

    /// [`GameRow::from_game`] with the main line's moves packed, three
    /// bytes a move in one allocation, rather than a [`MoveRow`] of 24
    /// bytes each: [`moves`](GameRow::moves) is left empty and
    /// [`GameRow::move_rows`] gives the same rows. The writers
    /// ([`RowWriter`](super::RowWriter), `BatchBuilder`)
    /// read either form and write the same tables; this one is built and
    /// written faster (what `sgf export` builds). Rows of the two
    /// constructors are not equal (`==`) to each other.
    ///
    /// ```
    /// use sgf_grove::table::GameRow;
    /// let doc = sgf_grove::parse(b"(;SZ[19];B[pd];W[zz];B[])")?;
    /// let game = doc.games().next().unwrap();
    /// let row = GameRow::from_game_packed(game, "a.sgf", 0).with_id(3);
    /// assert!(row.moves.is_empty());
    /// let plain = GameRow::from_game(game, "a.sgf", 0).with_id(3);
    /// assert!(row.move_rows().eq(plain.moves.iter().copied()));
    /// assert_eq!(row.move_rows().nth(1).unwrap().ply, 3); // W[zz] is no move
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    pub fn from_game_packed(game: GameTree<'_, '_>, source: &str, offset: u64) -> GameRow {
        GameRow::build(game, source, offset, Keep::Packed)
    }

    /// [`GameRow::from_game`] without the [`moves`](GameRow::moves) (left
    /// empty; [`GameRow::move_count`] and
    /// [`GameRow::invalid_move_count`] are still counted): for statistics
    /// and filters, which need no move rows (a scan of the shared corpus is
    /// about 5% faster).
    ///
    /// ```
    /// use sgf_grove::table::GameRow;
    /// let doc = sgf_grove::parse(b"(;SZ[9];B[ee];W[cc])")?;
    /// let row = GameRow::from_game_without_moves(doc.games().next().unwrap(), "a.sgf", 0);
    /// assert_eq!((row.move_count, row.moves.len()), (2, 0));
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    pub fn from_game_without_moves(game: GameTree<'_, '_>, source: &str, offset: u64) -> GameRow {
        GameRow::build(game, source, offset, Keep::NoMoves)
    }

    /// The row with what [`Stats::add_row`](super::Stats::add_row) reads
    /// alone: no source, no move rows, no texts but the players' names,
    /// the rules, the application's name and the declared charset, no
    /// warning count.
    pub(crate) fn for_stats(game: GameTree<'_, '_>) -> GameRow {
        GameRow::build(game, "", 0, Keep::Stats)
    }

    fn build(game: GameTree<'_, '_>, source: &str, offset: u64, keep: Keep) -> GameRow {
        let keep_moves = keep == Keep::All;
        let full = keep != Keep::Stats;
        let info = game.game_info();
        let size = game.board_size();
        let black = info.black();
        let white = info.white();
        let result = info.result();
        let dates = info.dates();
        let application = info.application();
        let charset = game.charset();

        let nodes = game.nodes();
        let node_count = nodes.len();
        // The main line has at most one move per node.
        let mut moves = Vec::with_capacity(if keep_moves { node_count.min(1024) } else { 0 });
        let (mut ply, mut invalid, mut valid) = (0u32, 0u32, 0u32);
        let mut line = Line::default();
        // Other games' moves are no Go points: not read. Plain loops over
        // the moves (a flattened `Option` kept the iterator out of line).
        if game.game_type() == 1 && keep == Keep::Packed {
            (line, invalid) = Line::of(game, node_count);
            valid = line.len().try_into().unwrap_or(u32::MAX);
        } else if game.game_type() == 1 && keep_moves {
            for played in game.moves() {
                ply = ply.saturating_add(1);
                match played {
                    Ok((color, mv)) => moves.push(MoveRow {
                        game_id: 0,
                        ply,
                        color,
                        x: match mv {
                            Move::Play(p) => Some(p.x),
                            Move::Pass => None,
                        },
                        y: match mv {
                            Move::Play(p) => Some(p.y),
                            Move::Pass => None,
                        },
                        is_pass: mv == Move::Pass,
                    }),
                    Err(_) => invalid = invalid.saturating_add(1),
                }
            }
        } else if game.game_type() == 1 {
            for played in game.moves() {
                match played {
                    Ok(_) => valid = valid.saturating_add(1),
                    Err(_) => invalid = invalid.saturating_add(1),
                }
            }
        }
        let variation_count = game.variation_count();

        let time = TimeControl::of(game);
        let rated = rated_from_texts(&[
            info.game_name().unwrap_or(""),
            info.event().unwrap_or(""),
            info.get("GC").unwrap_or(""),
        ]);
        let black_bot = is_bot_name(black.name.unwrap_or(""), black.rank_text);
        let white_bot = is_bot_name(white.name.unwrap_or(""), white.rank_text);
        let server = crate::repair::detect(game.root())
            .certain_source()
            .map(|s| s.name());
        let aliases = NameAliases::builtin_shared();
        let black_player = black.name.and_then(|n| aliases.canonical(n));
        let white_player = white.name.and_then(|n| aliases.canonical(n));

        // The columns every row has; the texts a stats row does without
        // (it is made for counting, without allocating) are added below.
        let mut row = GameRow {
            id: 0,
            source: String::new(),
            game: game.index() as u64,
            offset,
            game_type: game.game_type(),
            board_cols: size.cols,
            board_rows: size.rows,
            handicap: info.handicap().and_then(|h| h.stones()),
            komi: info.komi().map(|k| k.value()),
            komi_points: info.komi_points(),
            black_name: owned(black.name),
            black_rank: None,
            black_rank_value: None,
            white_name: owned(white.name),
            white_rank: None,
            white_rank_value: None,
            result: None,
            result_winner: result.as_ref().and_then(GameResult::winner),
            result_margin: result.as_ref().and_then(GameResult::margin),
            result_kind: result.as_ref().map(ResultKind::of),
            date: None,
            dates: Vec::new(),
            rules: info.rules().map(|r| r.as_str().to_owned()),
            event: None,
            round: None,
            place: None,
            game_name: None,
            application: application.as_ref().and_then(|a| owned(Some(&a.name))),
            application_version: None,
            charset_declared: game
                .declared_charset()
                .and_then(|ca| owned(Some(&String::from_utf8_lossy(ca)))),
            charset: charset.name(),
            charset_source: charset.source(),
            move_count: if keep_moves {
                moves.len().try_into().unwrap_or(u32::MAX)
            } else {
                valid
            },
            invalid_move_count: invalid,
            node_count: node_count.try_into().unwrap_or(u32::MAX),
            variation_count: variation_count.try_into().unwrap_or(u32::MAX),
            warning_count: 0,
            time,
            rated,
            black_bot,
            white_bot,
            server,
            black_player,
            white_player,
            info: Vec::new(),
            moves,
            line,
            first_date: dates.as_ref().map(|d| d.first()),
            has_handicap_text: false,
            analysis: Vec::new(),
            analysis_warnings: Vec::new(),
        };
        if !full {
            return row;
        }
        // Room for every identifier: no regrowing as they are found.
        row.info.reserve_exact(INFO_IDENTS.len());
        if let Some(sz) = game.root().simple_text("SZ") {
            row.info.push(("SZ", sz.to_owned()));
        }
        for ident in GAME_INFO_IDENTS {
            if let Some(text) = info.get(ident) {
                row.info.push((ident, text.to_owned()));
            }
        }
        row.source = source.to_owned();
        row.black_rank = owned(black.rank_text);
        row.black_rank_value = black.rank.as_ref().and_then(Rank::number);
        row.white_rank = owned(white.rank_text);
        row.white_rank_value = white.rank.as_ref().and_then(Rank::number);
        row.result = owned(info.get("RE"));
        row.date = dates.as_ref().map(|d| d.first().to_string());
        row.dates = dates
            .as_ref()
            .map(|d| d.dates.iter().map(ToString::to_string).collect())
            .unwrap_or_default();
        row.event = owned(info.event());
        row.round = owned(info.round());
        row.place = owned(info.place());
        row.game_name = owned(info.game_name());
        row.application_version = application
            .as_ref()
            .and_then(|a| owned(a.version.as_deref()));
        row.warning_count = GameWarnings::of(game).total();
        row.has_handicap_text = info.get("HA").is_some_and(|t| !t.trim().is_empty());
        row
    }

    /// The same row numbered `id`, its moves too.
    #[must_use]
    pub fn with_id(mut self, id: u64) -> GameRow {
        self.set_id(id);
        self
    }

    /// Numbers the row `id`, and its moves.
    pub fn set_id(&mut self, id: u64) {
        self.id = id;
        for m in &mut self.moves {
            m.game_id = id;
        }
    }

    /// The moves of the main line as rows: those of
    /// [`moves`](GameRow::moves), then the packed ones of a row of
    /// [`GameRow::from_game_packed`] (numbered with the row's
    /// [`id`](GameRow::id)).
    pub fn move_rows(&self) -> impl Iterator<Item = MoveRow> + '_ {
        self.moves.iter().copied().chain(self.line.rows(self.id))
    }

    /// Puts the players' names through `aliases` (on top of
    /// [`normalise_name`](super::normalise_name)) again:
    /// [`black_player`](GameRow::black_player) and
    /// [`white_player`](GameRow::white_player) from the names as written.
    /// The rows are built with the built-in table
    /// ([`NameAliases::builtin`]); a table of the user's (`sgf export
    /// --aliases FILE`) holds the built-in lines and theirs.
    ///
    /// ```
    /// use sgf_grove::table::{GameRow, NameAliases};
    /// let doc = sgf_grove::parse("(;PB[이세돌]PW[shin])".as_bytes())?;
    /// let mut row = GameRow::from_game(doc.games().next().unwrap(), "a.sgf", 0);
    /// assert_eq!(row.black_player.as_deref(), Some("Lee Sedol"));
    /// let mut aliases = NameAliases::builtin();
    /// aliases.add_text("Shin Jinseo = shin")?;
    /// row.apply_aliases(&aliases);
    /// assert_eq!(row.white_player.as_deref(), Some("Shin Jinseo"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn apply_aliases(&mut self, aliases: &NameAliases) {
        self.black_player = self
            .black_name
            .as_deref()
            .and_then(|n| aliases.canonical(n));
        self.white_player = self
            .white_name
            .as_deref()
            .and_then(|n| aliases.canonical(n));
    }

    /// The packed moves.
    pub(crate) fn line(&self) -> &Line {
        &self.line
    }

    /// The text of game-information property `ident` (one of
    /// [`INFO_IDENTS`]) as decoded, if the game has it.
    pub fn info(&self, ident: &str) -> Option<&str> {
        self.info
            .iter()
            .find(|(i, _)| *i == ident)
            .map(|(_, t)| t.as_str())
    }

    /// The first date, typed.
    pub fn first_date(&self) -> Option<PartialDate> {
        self.first_date
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_values_are_ordered() {
        for (text, want) in [
            ("30k", -30),
            ("10k", -10),
            ("1k", -1),
            ("1d", 1),
            ("9d", 9),
            ("1p", 11),
            ("9p", 19),
        ] {
            assert_eq!(Rank::number(&Rank::parse(text)), Some(want), "{text}");
        }
        let mut last = i8::MIN;
        for text in ["30k", "29k", "1k", "1d", "9d", "1p", "9p"] {
            let v = Rank::number(&Rank::parse(text)).unwrap();
            assert!(v > last, "{text}");
            last = v;
        }
        // Built by hand, out of range: clamped, never a panic.
        let odd = Rank::Kyu {
            level: 200,
            certainty: Default::default(),
        };
        assert_eq!(Rank::number(&odd), Some(-30));
    }

    #[test]
    fn info_idents_are_sz_then_game_info() {
        assert_eq!(INFO_IDENTS[0], "SZ");
        assert_eq!(&INFO_IDENTS[1..], &GAME_INFO_IDENTS[..]);
    }

    #[test]
    fn letters() {
        assert_eq!(letter(0), b'a');
        assert_eq!(letter(25), b'z');
        assert_eq!(letter(26), b'A');
        assert_eq!(letter(51), b'Z');
        assert_eq!(letter(52), b'?');
    }
}
