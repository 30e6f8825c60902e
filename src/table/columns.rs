//! The columns of the games and moves tables: one list, read by every
//! writer, so that JSON Lines, CSV and Parquet agree on names and order.

use super::row::charset_source_code;
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

/// The number of columns of the games table.
pub(crate) const GAME_COLUMN_COUNT: usize = 37;

/// The games table: one row per game, in this order. The names are
/// [`GameRow`]'s field names; `dates` is the dates joined by commas
/// (`1996-12-27,1996-12-28`) in CSV and Parquet, and a list in JSON;
/// `result_winner` is `B` or `W`; `result_kind` is a
/// [`ResultKind::code`](super::ResultKind::code); `charset_source` is
/// `declared`, `detected` or `override`.
///
/// | column | type | null | holds |
/// |---|---|---|---|
/// | `id` | Int64 | no | the game's number in the scan |
/// | `source` | Utf8 | no | file, or archive!member |
/// | `game` | Int64 | no | index of the game in its source, from 0 |
/// | `offset` | Int64 | no | byte offset of the game in its source |
/// | `game_type` | Int64 | no | GM: 1 for Go |
/// | `board_cols` | Int32 | no | board columns |
/// | `board_rows` | Int32 | no | board rows |
/// | `handicap` | Int32 | yes | handicap stones |
/// | `komi` | Float64 | yes | komi as written (Fox: 650) |
/// | `komi_points` | Float64 | yes | komi in points (Fox: 6.5) |
/// | `black_name` | Utf8 | yes | PB |
/// | `black_rank` | Utf8 | yes | BR as written |
/// | `black_rank_value` | Int32 | yes | BR as a number: 30k = -30, 1k = -1, 1d = 1, 9d = 9, 1p = 11, 9p = 19 |
/// | `white_name` | Utf8 | yes | PW |
/// | `white_rank` | Utf8 | yes | WR as written |
/// | `white_rank_value` | Int32 | yes | WR as a number |
/// | `result` | Utf8 | yes | RE as written |
/// | `result_winner` | Utf8 | yes | B or W |
/// | `result_margin` | Float64 | yes | margin of a win on points |
/// | `result_kind` | Utf8 | yes | points, resignation, time, forfeit, other, draw, void, unknown |
/// | `date` | Utf8 | yes | first date, ISO |
/// | `dates` | Utf8 | yes | every date, ISO, joined by commas |
/// | `rules` | Utf8 | yes | RU, normalised |
/// | `event` | Utf8 | yes | EV |
/// | `round` | Utf8 | yes | RO |
/// | `place` | Utf8 | yes | PC |
/// | `game_name` | Utf8 | yes | GN |
/// | `application` | Utf8 | yes | AP name |
/// | `application_version` | Utf8 | yes | AP version |
/// | `charset_declared` | Utf8 | yes | CA as written |
/// | `charset` | Utf8 | no | charset the text was read in |
/// | `charset_source` | Utf8 | no | declared, detected or override |
/// | `move_count` | Int64 | no | main-line moves (rows of the moves table) |
/// | `invalid_move_count` | Int64 | no | main-line B/W values that are no move |
/// | `node_count` | Int64 | no | nodes |
/// | `variation_count` | Int64 | no | lines of play besides the main line (leaves - 1) |
/// | `warning_count` | Int64 | no | parser warnings |
pub const COLUMNS: [Column; GAME_COLUMN_COUNT] = [
    col("id", Int64, false, "the game's number in the scan"),
    col("source", Utf8, false, "file, or archive!member"),
    col(
        "game",
        Int64,
        false,
        "index of the game in its source, from 0",
    ),
    col(
        "offset",
        Int64,
        false,
        "byte offset of the game in its source",
    ),
    col("game_type", Int64, false, "GM: 1 for Go"),
    col("board_cols", Int32, false, "board columns"),
    col("board_rows", Int32, false, "board rows"),
    col("handicap", Int32, true, "handicap stones"),
    col("komi", Float64, true, "komi as written (Fox: 650)"),
    col("komi_points", Float64, true, "komi in points (Fox: 6.5)"),
    col("black_name", Utf8, true, "PB"),
    col("black_rank", Utf8, true, "BR as written"),
    col(
        "black_rank_value",
        Int32,
        true,
        "BR as a number: 30k = -30, 1k = -1, 1d = 1, 9d = 9, 1p = 11, 9p = 19",
    ),
    col("white_name", Utf8, true, "PW"),
    col("white_rank", Utf8, true, "WR as written"),
    col("white_rank_value", Int32, true, "WR as a number"),
    col("result", Utf8, true, "RE as written"),
    col("result_winner", Utf8, true, "B or W"),
    col("result_margin", Float64, true, "margin of a win on points"),
    col(
        "result_kind",
        Utf8,
        true,
        "points, resignation, time, forfeit, other, draw, void, unknown",
    ),
    col("date", Utf8, true, "first date, ISO"),
    col("dates", Utf8, true, "every date, ISO, joined by commas"),
    col("rules", Utf8, true, "RU, normalised"),
    col("event", Utf8, true, "EV"),
    col("round", Utf8, true, "RO"),
    col("place", Utf8, true, "PC"),
    col("game_name", Utf8, true, "GN"),
    col("application", Utf8, true, "AP name"),
    col("application_version", Utf8, true, "AP version"),
    col("charset_declared", Utf8, true, "CA as written"),
    col("charset", Utf8, false, "charset the text was read in"),
    col(
        "charset_source",
        Utf8,
        false,
        "declared, detected or override",
    ),
    col(
        "move_count",
        Int64,
        false,
        "main-line moves (rows of the moves table)",
    ),
    col(
        "invalid_move_count",
        Int64,
        false,
        "main-line B/W values that are no move",
    ),
    col("node_count", Int64, false, "nodes"),
    col(
        "variation_count",
        Int64,
        false,
        "lines of play besides the main line (leaves - 1)",
    ),
    col("warning_count", Int64, false, "parser warnings"),
];

/// The moves table: one row per move of a game's main line.
///
/// | column | type | null | holds |
/// |---|---|---|---|
/// | `game_id` | Int64 | no | the game's id |
/// | `ply` | Int32 | no | move number in the main line, from 1 |
/// | `color` | Utf8 | no | B or W |
/// | `x` | Int32 | yes | column from the left, from 0; null for a pass |
/// | `y` | Int32 | yes | row from the top, from 0; null for a pass |
/// | `is_pass` | Bool | no | whether the move is a pass |
pub const MOVE_COLUMNS: [Column; 6] = [
    col("game_id", Int64, false, "the game's id"),
    col("ply", Int32, false, "move number in the main line, from 1"),
    col("color", Utf8, false, "B or W"),
    col(
        "x",
        Int32,
        true,
        "column from the left, from 0; null for a pass",
    ),
    col(
        "y",
        Int32,
        true,
        "row from the top, from 0; null for a pass",
    ),
    col("is_pass", Bool, false, "whether the move is a pass"),
];

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

/// The row's values, in the order of [`COLUMNS`].
pub(crate) fn game_cells(row: &GameRow) -> [Cell<'_>; GAME_COLUMN_COUNT] {
    let big = |v: u64| Cell::Int(i64::try_from(v).unwrap_or(i64::MAX));
    [
        big(row.id),
        Cell::Str(&row.source),
        big(row.game),
        big(row.offset),
        Cell::Int(row.game_type.into()),
        Cell::Int(row.board_cols.into()),
        Cell::Int(row.board_rows.into()),
        row.handicap
            .map_or(Cell::Null, |h| Cell::Int(h.min(i32::MAX as u32).into())),
        float(row.komi),
        float(row.komi_points),
        text(&row.black_name),
        text(&row.black_rank),
        int(row.black_rank_value),
        text(&row.white_name),
        text(&row.white_rank),
        int(row.white_rank_value),
        text(&row.result),
        row.result_winner
            .map_or(Cell::Null, |c| Cell::Str(c.as_str())),
        float(row.result_margin),
        row.result_kind.map_or(Cell::Null, |k| Cell::Str(k.code())),
        text(&row.date),
        if row.dates.is_empty() {
            Cell::Null
        } else {
            Cell::List(&row.dates)
        },
        text(&row.rules),
        text(&row.event),
        text(&row.round),
        text(&row.place),
        text(&row.game_name),
        text(&row.application),
        text(&row.application_version),
        text(&row.charset_declared),
        Cell::Str(row.charset),
        Cell::Str(charset_source_code(row.charset_source)),
        Cell::Int(row.move_count.into()),
        Cell::Int(row.invalid_move_count.into()),
        Cell::Int(row.node_count.into()),
        Cell::Int(row.variation_count.into()),
        Cell::Int(row.warning_count.into()),
    ]
}

/// The move's values, in the order of [`MOVE_COLUMNS`].
pub(crate) fn move_cells(m: &MoveRow) -> [Cell<'static>; 6] {
    [
        Cell::Int(i64::try_from(m.game_id).unwrap_or(i64::MAX)),
        Cell::Int(m.ply.into()),
        Cell::Str(m.color.as_str()),
        int(m.x),
        int(m.y),
        Cell::Bool(m.is_pass),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables in the docs of `COLUMNS` and `MOVE_COLUMNS` list the
    /// columns in order, with their types and nullability.
    #[test]
    fn documented_tables_match_the_columns() {
        let source = include_str!("columns.rs");
        let documented: Vec<&str> = source
            .lines()
            .filter(|l| l.starts_with("/// | `"))
            .collect();
        let all: Vec<&Column> = COLUMNS.iter().chain(MOVE_COLUMNS.iter()).collect();
        assert_eq!(documented.len(), all.len());
        for (line, c) in documented.iter().zip(all) {
            let want = format!(
                "/// | `{}` | {:?} | {} | ",
                c.name,
                c.ty,
                if c.nullable { "yes" } else { "no" }
            );
            assert!(line.starts_with(&want), "{line} vs {want}");
        }
    }

    #[test]
    fn column_names_are_unique_snake_case() {
        let mut names: Vec<&str> = COLUMNS.iter().map(|c| c.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), COLUMNS.len());
        for c in COLUMNS.iter().chain(MOVE_COLUMNS.iter()) {
            assert!(c.name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'));
        }
    }
}
