//! The columns of the games, moves and analysis tables: one list each, read
//! by every writer, so that JSON Lines, CSV and Parquet agree on names and
//! order.

use super::analysis::AnalysisRef;
use super::{GameRow, MoveRow};
use serde::ser::{Serialize, SerializeSeq, Serializer};

/// The type of a column's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ColumnType {
    /// A signed 64-bit integer (Parquet `INT64`).
    Int64,
    /// A signed 32-bit integer (Parquet `INT32`).
    Int32,
    /// A 64-bit float (Parquet `DOUBLE`).
    Float64,
    /// UTF-8 text (Parquet `BYTE_ARRAY` annotated `STRING`).
    Utf8,
    /// A boolean (Parquet `BOOLEAN`).
    Bool,
}

/// One column of a table: its name, type, and whether it may be null
/// (empty in CSV, `null` in JSON, absent in Parquet).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    /// The name, `snake_case`, stable.
    pub name: &'static str,
    /// The type of its values.
    pub ty: ColumnType,
    /// Whether a value may be missing.
    pub nullable: bool,
    /// What it holds: the [`GameRow`] or [`MoveRow`] field of the same
    /// name.
    pub doc: &'static str,
}

const fn col(name: &'static str, ty: ColumnType, nullable: bool, doc: &'static str) -> Column {
    Column {
        name,
        ty,
        nullable,
        doc,
    }
}

use ColumnType::{Bool, Float64, Int32, Int64, Utf8};

/// Declares a table's columns from one list: each row is
/// `name: type, null, "doc" => cell`, where `null` is `yes` or `no` and
/// `cell` the row's value (a [`Cell`]). The list gives the const array of
/// [`Column`]s (with the table of its documentation), the number of
/// columns, and the function that turns a row into its cells, in the same
/// order; the writers (JSON Lines, CSV, Arrow and Parquet) read both.
macro_rules! table_columns {
    (
        $(#[doc = $doc:literal])*
        const $columns:ident;
        const $count:ident;
        $(#[doc = $cells_doc:literal])*
        fn $cells:ident($row:ident: $row_ty:ty) -> $cell_ty:ty;
        $($name:ident: $ty:ident, $null:ident, $col_doc:literal => $cell:expr_2021;)*
    ) => {
        #[doc = concat!("The number of columns of [`", stringify!($columns), "`].")]
        pub(crate) const $count: usize = [$(stringify!($name)),*].len();

        $(#[doc = $doc])*
        ///
        /// | column | type | null | holds |
        /// |---|---|---|---|
        $(#[doc = concat!("| `", stringify!($name), "` | ", stringify!($ty), " | ", stringify!($null), " | ", $col_doc, " |")])*
        pub const $columns: [Column; $count] = [
            $(col(stringify!($name), $ty, nullable!($null), $col_doc),)*
        ];

        $(#[doc = $cells_doc])*
        pub(crate) fn $cells($row: $row_ty) -> [$cell_ty; $count] {
            [$($cell,)*]
        }
    };
}

/// `yes` or `no`, as a column's `nullable`.
macro_rules! nullable {
    (yes) => {
        true
    };
    (no) => {
        false
    };
}

table_columns! {
    /// The games table: one row per game, in this order. The names are
    /// [`GameRow`]'s field names; `dates` is the dates joined by commas
    /// (`1996-12-27,1996-12-28`) in CSV and Parquet, and a list in JSON;
    /// `result_winner` is `B` or `W`; `result_kind` is a
    /// [`ResultKind::code`](super::ResultKind::code); `charset_source` is
    /// `declared`, `detected` or `override`.
    const COLUMNS;
    const GAME_COLUMN_COUNT;
    /// The row's values, in the order of [`COLUMNS`].
    fn game_cells(row: &GameRow) -> Cell<'_>;
    id: Int64, no, "the game's number in the scan" => big(row.id);
    source: Utf8, no, "file, or archive!member" => Cell::Str(&row.source);
    game: Int64, no, "index of the game in its source, from 0" => big(row.game);
    offset: Int64, no, "byte offset of the game in its source" => big(row.offset);
    game_type: Int64, no, "GM: 1 for Go" => Cell::Int(row.game_type.into());
    board_cols: Int32, no, "board columns" => Cell::Int(row.board_cols.into());
    board_rows: Int32, no, "board rows" => Cell::Int(row.board_rows.into());
    handicap: Int32, yes, "handicap stones" => row.handicap.map_or(Cell::Null, |h| Cell::Int(h.min(i32::MAX as u32).into()));
    komi: Float64, yes, "komi as written (Fox: 650)" => float(row.komi);
    komi_points: Float64, yes, "komi in points (Fox: 6.5)" => float(row.komi_points);
    black_name: Utf8, yes, "PB" => text(&row.black_name);
    black_rank: Utf8, yes, "BR as written" => text(&row.black_rank);
    black_rank_value: Int32, yes, "BR as a number: 30k = -30, 1k = -1, 1d = 1, 9d = 9, 1p = 11, 9p = 19" => int(row.black_rank_value);
    white_name: Utf8, yes, "PW" => text(&row.white_name);
    white_rank: Utf8, yes, "WR as written" => text(&row.white_rank);
    white_rank_value: Int32, yes, "WR as a number" => int(row.white_rank_value);
    result: Utf8, yes, "RE as written" => text(&row.result);
    result_winner: Utf8, yes, "B or W" => row.result_winner.map_or(Cell::Null, |c| Cell::Str(c.as_str()));
    result_margin: Float64, yes, "margin of a win on points" => float(row.result_margin);
    result_kind: Utf8, yes, "points, resignation, time, forfeit, other, draw, void, unknown" => row.result_kind.map_or(Cell::Null, |k| Cell::Str(k.code()));
    date: Utf8, yes, "first date, ISO" => text(&row.date);
    dates: Utf8, yes, "every date, ISO, joined by commas" => if row.dates.is_empty() { Cell::Null } else { Cell::List(&row.dates) };
    rules: Utf8, yes, "RU, normalised" => text(&row.rules);
    event: Utf8, yes, "EV" => text(&row.event);
    round: Utf8, yes, "RO" => text(&row.round);
    place: Utf8, yes, "PC" => text(&row.place);
    game_name: Utf8, yes, "GN" => text(&row.game_name);
    application: Utf8, yes, "AP name" => text(&row.application);
    application_version: Utf8, yes, "AP version" => text(&row.application_version);
    charset_declared: Utf8, yes, "CA as written" => text(&row.charset_declared);
    charset: Utf8, no, "charset the text was read in" => Cell::Str(row.charset);
    charset_source: Utf8, no, "declared, detected or override" => Cell::Str(row.charset_source.code());
    move_count: Int64, no, "main-line moves (rows of the moves table)" => Cell::Int(row.move_count.into());
    invalid_move_count: Int64, no, "main-line B/W values that are no move" => Cell::Int(row.invalid_move_count.into());
    node_count: Int64, no, "nodes" => Cell::Int(row.node_count.into());
    variation_count: Int64, no, "lines of play besides the main line (leaves - 1)" => Cell::Int(row.variation_count.into());
    warning_count: Int64, no, "parser warnings" => Cell::Int(row.warning_count.into());
    time_main: Float64, yes, "main time in seconds (TM)" => float(row.time.main_seconds);
    time_system: Utf8, yes, "byo-yomi, canadian, fischer or absolute (OT, Fox TC/TT, LC/LT)" => row.time.system.map_or(Cell::Null, |s| Cell::Str(s.code()));
    time_periods: Int32, yes, "byo-yomi periods" => row.time.periods.map_or(Cell::Null, |p| Cell::Int(p.min(i32::MAX as u32).into()));
    time_period_seconds: Float64, yes, "seconds of a byo-yomi or Canadian period" => float(row.time.period_seconds);
    time_period_moves: Int32, yes, "moves of a Canadian period" => row.time.period_moves.map_or(Cell::Null, |p| Cell::Int(p.min(i32::MAX as u32).into()));
    time_increment: Float64, yes, "seconds added per move (Fischer)" => float(row.time.increment);
    rated: Bool, yes, "whether the game was rated, when GN, EV or GC says" => row.rated.map_or(Cell::Null, Cell::Bool);
    black_bot: Bool, no, "Black's name or rank is a program's" => Cell::Bool(row.black_bot);
    white_bot: Bool, no, "White's name or rank is a program's" => Cell::Bool(row.white_bot);
    server: Utf8, yes, "fox, kgs, ogs, gogod or go4go, when certain" => row.server.map_or(Cell::Null, Cell::Str);
    black_player: Utf8, yes, "PB normalised, through the alias table" => text(&row.black_player);
    white_player: Utf8, yes, "PW normalised, through the alias table" => text(&row.white_player);
}

table_columns! {
    /// The moves table: one row per move of a game's main line.
    const MOVE_COLUMNS;
    const MOVE_COLUMN_COUNT;
    /// The move's values, in the order of [`MOVE_COLUMNS`].
    fn move_cells(m: &MoveRow) -> Cell<'static>;
    game_id: Int64, no, "the game's id" => big(m.game_id);
    ply: Int32, no, "move number in the main line, from 1" => Cell::Int(m.ply.into());
    color: Utf8, no, "B or W" => Cell::Str(m.color.as_str());
    x: Int32, yes, "column from the left, from 0; null for a pass" => int(m.x);
    y: Int32, yes, "row from the top, from 0; null for a pass" => int(m.y);
    is_pass: Bool, no, "whether the move is a pass" => Cell::Bool(m.is_pass);
}

table_columns! {
    /// The analysis table: one row per engine analysis of a main-line
    /// node (see [`crate::analysis`] for the forms), in Black's view; the
    /// names are [`AnalysisRow`](super::AnalysisRow)'s fields, with
    /// `move` for `played`. In JSON Lines each game's rows are its
    /// `analysis` member, without `game_id`, `source` and `game`.
    const ANALYSIS_COLUMNS;
    const ANALYSIS_COLUMN_COUNT;
    /// The analysis row's values, in the order of [`ANALYSIS_COLUMNS`].
    fn analysis_cells(r: AnalysisRef<'_>) -> Cell<'_>;
    game_id: Int64, no, "the game's id" => big(r.game.id);
    source: Utf8, no, "file, or archive!member" => Cell::Str(&r.game.source);
    game: Int64, no, "index of the game in its source, from 0" => big(r.game.game);
    move_number: Int32, no, "moves played up to the node, from 1 (0: before the first)" => Cell::Int(r.row.move_number.into());
    color: Utf8, yes, "the node's move's colour, B or W" => r.row.color.map_or(Cell::Null, |c| Cell::Str(c.as_str()));
    move: Utf8, yes, "the node's move: SGF letters or pass" => text(&r.row.played);
    form: Utf8, no, "katrain, lizzie, sabaki, ogatak, katago-selfplay, ogs, lizzie-comment" => Cell::Str(r.row.form.code());
    before_move: Bool, no, "of the position before the node's move (KataGo self-play)" => Cell::Bool(r.row.before_move);
    win_rate: Float64, yes, "Black's chance to win, 0 to 1" => float(r.row.win_rate);
    score_lead: Float64, yes, "Black's lead in points" => float(r.row.score_lead);
    visits: Int64, yes, "visits of the search" => r.row.visits.map_or(Cell::Null, big);
    pv: Utf8, yes, "principal variation: SGF points and pass, by spaces" => if r.row.pv.is_empty() { Cell::Null } else { Cell::Str(&r.row.pv) };
    has_ownership: Bool, no, "ownership per point stored" => Cell::Bool(r.row.has_ownership);
    has_policy: Bool, no, "policy per point stored" => Cell::Bool(r.row.has_policy);
}

/// One value of a row, as the writers see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Cell<'a> {
    Null,
    Int(i64),
    Float(f64),
    Str(&'a str),
    Bool(bool),
    /// A list of texts (`dates`): joined by commas where a list does not
    /// fit.
    List(&'a [String]),
}

impl Serialize for Cell<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            Cell::Null => s.serialize_none(),
            Cell::Int(v) => s.serialize_i64(v),
            Cell::Float(v) => s.serialize_f64(v),
            Cell::Str(v) => s.serialize_str(v),
            Cell::Bool(v) => s.serialize_bool(v),
            Cell::List(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
        }
    }
}

fn text(v: &Option<String>) -> Cell<'_> {
    v.as_deref().map_or(Cell::Null, Cell::Str)
}

fn int<T: Into<i64>>(v: Option<T>) -> Cell<'static> {
    v.map_or(Cell::Null, |v| Cell::Int(v.into()))
}

fn float(v: Option<f64>) -> Cell<'static> {
    v.map_or(Cell::Null, Cell::Float)
}

/// A count as an `Int64` cell (the largest one past `i64::MAX`).
fn big(v: u64) -> Cell<'static> {
    Cell::Int(i64::try_from(v).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `cell` is a value of a column of type `ty` (`Null` only
    /// where the column is nullable).
    fn fits(cell: &Cell<'_>, column: &Column) -> bool {
        match cell {
            Cell::Null => column.nullable,
            Cell::Int(_) => matches!(column.ty, ColumnType::Int64 | ColumnType::Int32),
            Cell::Float(_) => column.ty == ColumnType::Float64,
            Cell::Str(_) | Cell::List(_) => column.ty == ColumnType::Utf8,
            Cell::Bool(_) => column.ty == ColumnType::Bool,
        }
    }

    /// Each cell a row gives has its column's type, for a game with every
    /// column filled and for one with as little as can be, and for a move
    /// and a pass.
    #[test]
    fn cells_fit_their_columns() {
        let full = b"(;GM[1]FF[4]CA[UTF-8]SZ[19]PB[a]BR[3d]PW[b]WR[2k]KM[6.5]HA[2]RE[B+3.5]\
            DT[2020-01-02,03]RU[Japanese]EV[e]RO[1]PC[The KGS Go Server]GN[g]GC[ranked]AP[CGoban:3]\
            TM[1800]OT[5x30 byo-yomi]AB[dd][pp];W[qd](;B[];W[dp])(;B[aa]))";
        let bare = b"(;)";
        for input in [&full[..], &bare[..]] {
            let doc = crate::parse(input).unwrap();
            let row = GameRow::from_game(doc.games().next().unwrap(), "t.sgf", 0);
            let cells = game_cells(&row);
            for (cell, column) in cells.iter().zip(&COLUMNS) {
                assert!(fits(cell, column), "{}: {cell:?}", column.name);
            }
            if input == &full[..] {
                // Every column filled but those of other time systems.
                let other_systems = ["time_period_moves", "time_increment"];
                for (cell, column) in cells.iter().zip(&COLUMNS) {
                    let null = *cell == Cell::Null;
                    assert_eq!(
                        null,
                        other_systems.contains(&column.name),
                        "{}: {cell:?}",
                        column.name
                    );
                }
                let moves: Vec<_> = row.moves.iter().map(move_cells).collect();
                assert_eq!(moves.len(), 3);
                assert!(moves.iter().any(|m| m[3] == Cell::Null), "a pass");
                for m in &moves {
                    for (cell, column) in m.iter().zip(&MOVE_COLUMNS) {
                        assert!(fits(cell, column), "{}: {cell:?}", column.name);
                    }
                }
            }
        }
    }

    #[test]
    fn column_names_are_unique_snake_case() {
        let mut names: Vec<&str> = COLUMNS.iter().map(|c| c.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), COLUMNS.len());
        for c in COLUMNS.iter().chain(&MOVE_COLUMNS).chain(&ANALYSIS_COLUMNS) {
            assert!(c.name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'));
        }
    }
}
