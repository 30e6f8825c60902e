//! [`BatchBuilder`]: the games and moves tables as Arrow record batches,
//! built from [`GameRow`]s. The Parquet writer encodes these batches, and
//! a program that wants Arrow in memory (the Python package's
//! `to_arrow`, an engine that takes record batches) takes them as they
//! are: the columns are the same, by construction.

use super::TableError;
use crate::table::analysis::AnalysisRef;
use crate::table::columns::{
    analysis_cells, game_cells, Cell, Column, ColumnType, ANALYSIS_COLUMNS, COLUMNS, MOVE_COLUMNS,
};
use crate::table::line::{Line, PASS};
use crate::table::{GameRow, MoveRow};
use arrow_array::builder::{
    BooleanBuilder, Float64Builder, Int32Builder, Int64Builder, StringBuilder,
};
use arrow_array::{ArrayRef, BooleanArray, Int32Array, Int64Array, RecordBatch, StringArray};
use arrow_buffer::{
    BooleanBuffer, BooleanBufferBuilder, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer,
};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use std::sync::Arc;

impl From<arrow_schema::ArrowError> for TableError {
    fn from(e: arrow_schema::ArrowError) -> Self {
        TableError::new(super::TableErrorKind::Parquet, e)
    }
}

/// The Arrow type of a column.
fn data_type(ty: ColumnType) -> DataType {
    match ty {
        ColumnType::Int64 => DataType::Int64,
        ColumnType::Int32 => DataType::Int32,
        ColumnType::Float64 => DataType::Float64,
        ColumnType::Utf8 => DataType::Utf8,
        ColumnType::Bool => DataType::Boolean,
    }
}

/// The Arrow schema of a table.
fn schema(columns: &[Column]) -> SchemaRef {
    Arc::new(Schema::new(
        columns
            .iter()
            .map(|c| Field::new(c.name, data_type(c.ty), c.nullable))
            .collect::<Vec<_>>(),
    ))
}

/// The Arrow schema of the games table: [`COLUMNS`] as Arrow fields.
///
/// ```
/// let schema = sgf_grove::table::games_schema();
/// assert_eq!(schema.field(0).name(), "id");
/// assert_eq!(schema.fields().len(), sgf_grove::table::COLUMNS.len());
/// ```
pub fn games_schema() -> SchemaRef {
    schema(&COLUMNS)
}

/// The Arrow schema of the moves table: [`MOVE_COLUMNS`] as Arrow fields.
///
/// ```
/// let schema = sgf_grove::table::moves_schema();
/// let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
/// assert_eq!(names, ["game_id", "ply", "color", "x", "y", "is_pass"]);
/// ```
pub fn moves_schema() -> SchemaRef {
    schema(&MOVE_COLUMNS)
}

/// The Arrow schema of the analysis table: [`ANALYSIS_COLUMNS`] as Arrow
/// fields.
///
/// ```
/// let schema = sgf_grove::table::analysis_schema();
/// assert_eq!(schema.field(8).name(), "win_rate");
/// ```
pub fn analysis_schema() -> SchemaRef {
    schema(&ANALYSIS_COLUMNS)
}

/// A builder for one column of the games table.
pub(crate) enum Builder {
    I64(Int64Builder),
    I32(Int32Builder),
    F64(Float64Builder),
    Str(StringBuilder),
    Bool(BooleanBuilder),
}

impl Builder {
    pub(crate) fn new(ty: ColumnType) -> Builder {
        match ty {
            ColumnType::Int64 => Builder::I64(Int64Builder::new()),
            ColumnType::Int32 => Builder::I32(Int32Builder::new()),
            ColumnType::Float64 => Builder::F64(Float64Builder::new()),
            ColumnType::Utf8 => Builder::Str(StringBuilder::new()),
            ColumnType::Bool => Builder::Bool(BooleanBuilder::new()),
        }
    }

    pub(crate) fn append(&mut self, cell: &Cell<'_>) {
        match (self, *cell) {
            (Builder::I64(b), Cell::Int(v)) => b.append_value(v),
            (Builder::I32(b), Cell::Int(v)) => {
                b.append_value(i32::try_from(v).unwrap_or(if v < 0 { i32::MIN } else { i32::MAX }))
            }
            (Builder::F64(b), Cell::Float(v)) => b.append_value(v),
            (Builder::Str(b), Cell::Str(v)) => b.append_value(v),
            (Builder::Str(b), Cell::List(items)) => b.append_value(items.join(",")),
            (Builder::Bool(b), Cell::Bool(v)) => b.append_value(v),
            (Builder::I64(b), _) => b.append_null(),
            (Builder::I32(b), _) => b.append_null(),
            (Builder::F64(b), _) => b.append_null(),
            (Builder::Str(b), _) => b.append_null(),
            (Builder::Bool(b), _) => b.append_null(),
        }
    }

    pub(crate) fn finish(&mut self) -> ArrayRef {
        match self {
            Builder::I64(b) => Arc::new(b.finish()),
            Builder::I32(b) => Arc::new(b.finish()),
            Builder::F64(b) => Arc::new(b.finish()),
            Builder::Str(b) => Arc::new(b.finish()),
            Builder::Bool(b) => Arc::new(b.finish()),
        }
    }
}

/// The columns of the moves table being filled, as plain vectors that
/// become Arrow arrays without a copy: no builder per value, and no
/// validity bitmap for `x` and `y` in a batch without a pass. The
/// Parquet writer encodes the vectors as they are
/// ([`MoveColumns::slices`]) and empties them for the next batch, so that
/// batches reuse one allocation (fresh ones for each batch cost 40,000
/// page faults on the corpus).
pub(crate) struct MoveColumns {
    game_id: Vec<i64>,
    ply: Vec<i32>,
    /// `B` or `W`, one byte a move (every value is one byte long).
    color: Vec<u8>,
    /// The offsets of `color`, 0, 1, 2, … for a whole batch: sliced.
    color_offsets: OffsetBuffer<i32>,
    /// 0 for a pass (a null slot); a byte (every coordinate of a
    /// [`MoveRow`] is one), widened to `Int32` in the Arrow arrays.
    x: Vec<u8>,
    y: Vec<u8>,
    is_pass: Vec<bool>,
    /// The rows whose `x` is null (passes).
    x_nulls: Vec<usize>,
    /// The rows whose `y` is null (passes).
    y_nulls: Vec<usize>,
}

/// The moves of a batch as plain slices, rows in order: `x` and `y` hold
/// 0 at the rows of `x_nulls` and `y_nulls` (the passes, in increasing
/// order).
#[cfg_attr(not(feature = "parquet"), allow(dead_code))]
pub(crate) struct MoveSlices<'a> {
    pub(crate) game_id: &'a [i64],
    pub(crate) ply: &'a [i32],
    /// `B` or `W`.
    pub(crate) color: &'a [u8],
    pub(crate) x: &'a [u8],
    pub(crate) y: &'a [u8],
    pub(crate) is_pass: &'a [bool],
    pub(crate) x_nulls: &'a [usize],
    pub(crate) y_nulls: &'a [usize],
}

/// The most moves a batch of the Parquet writer holds (its `MOVE_BATCH`), plus the moves of the
/// row that crosses it (a longer game makes the vectors grow).
const MOVE_ROOM: usize = MOVE_BATCH + 1024;

/// The moves a batch of the Parquet writer gathers before it is encoded.
pub(crate) const MOVE_BATCH: usize = 65_536;

impl MoveColumns {
    /// Columns with room for a batch.
    pub(crate) fn new() -> MoveColumns {
        let n = MOVE_ROOM;
        MoveColumns {
            game_id: Vec::with_capacity(n),
            ply: Vec::with_capacity(n),
            color: Vec::with_capacity(n),
            color_offsets: OffsetBuffer::from_lengths(std::iter::repeat_n(1, n)),
            x: Vec::with_capacity(n),
            y: Vec::with_capacity(n),
            is_pass: Vec::with_capacity(n),
            x_nulls: Vec::new(),
            y_nulls: Vec::new(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.game_id.len()
    }

    /// Appends the moves of a row: one pass per column, each an `extend`
    /// of known length (one capacity check per column and row, not one
    /// per value; the pushes one move at a time were 5% of `sgf export
    /// --format parquet`).
    pub(crate) fn push(&mut self, moves: &[MoveRow]) {
        let start = self.x.len();
        for (i, m) in moves.iter().enumerate() {
            // Passes are few: their rows are kept for the validity.
            if m.x.is_none() {
                self.x_nulls.push(start + i);
            }
            if m.y.is_none() {
                self.y_nulls.push(start + i);
            }
        }
        self.game_id.extend(
            moves
                .iter()
                .map(|m| i64::try_from(m.game_id).unwrap_or(i64::MAX)),
        );
        self.ply.extend(
            moves
                .iter()
                .map(|m| i32::try_from(m.ply).unwrap_or(i32::MAX)),
        );
        self.color
            .extend(moves.iter().map(|m| m.color.as_str().as_bytes()[0]));
        self.x.extend(moves.iter().map(|m| m.x.unwrap_or(0)));
        self.y.extend(moves.iter().map(|m| m.y.unwrap_or(0)));
        self.is_pass.extend(moves.iter().map(|m| m.is_pass));
    }

    /// Appends the packed moves of game `id`: the colours and, in a line
    /// without a pass, the coordinates copied as they are; the plies
    /// counted, or read where the line skips some.
    pub(crate) fn push_line(&mut self, id: u64, line: &Line) {
        let n = line.len();
        let start = self.x.len();
        let id = i64::try_from(id).unwrap_or(i64::MAX);
        self.game_id.resize(start + n, id);
        if line.plies_are_steady() {
            // 1, 2, …, n: n is below u32::MAX.
            let n = i32::try_from(n).unwrap_or(i32::MAX);
            self.ply.extend(1..=n);
        } else {
            self.ply
                .extend(line.plies().map(|p| i32::try_from(p).unwrap_or(i32::MAX)));
        }
        self.color.extend_from_slice(line.colors());
        if line.passes() == 0 {
            self.x.extend_from_slice(line.xs());
            self.y.extend_from_slice(line.ys());
            self.is_pass.resize(start + n, false);
            return;
        }
        for (i, &x) in line.xs().iter().enumerate() {
            if x == PASS {
                self.x_nulls.push(start + i);
                self.y_nulls.push(start + i);
            }
        }
        let coordinate = |&v: &u8| if v == PASS { 0 } else { v };
        self.x.extend(line.xs().iter().map(coordinate));
        self.y.extend(line.ys().iter().map(coordinate));
        self.is_pass.extend(line.xs().iter().map(|&x| x == PASS));
    }

    /// The batch's arrays, in the order of [`MOVE_COLUMNS`]; the columns
    /// are left empty.
    pub(crate) fn finish(&mut self) -> Result<Vec<ArrayRef>, TableError> {
        let n = self.len();
        if n >= self.color_offsets.len() {
            // Offsets for the largest batch so far, kept for the next.
            self.color_offsets = OffsetBuffer::from_lengths(std::iter::repeat_n(1, n));
        }
        let offsets = self.color_offsets.slice(0, n);
        // The next batch's vectors have the room of this one's: no
        // regrowing (each doubling a copy) as it fills.
        let color =
            StringArray::try_new(offsets, Buffer::from_vec(renew(&mut self.color, n)), None)?;
        let is_pass = BooleanBuffer::from(self.is_pass.as_slice());
        self.is_pass.clear();
        let x_nulls = nulls(n, &self.x_nulls);
        let y_nulls = nulls(n, &self.y_nulls);
        self.x_nulls.clear();
        self.y_nulls.clear();
        Ok(vec![
            Arc::new(Int64Array::new(
                ScalarBuffer::from(renew(&mut self.game_id, n)),
                None,
            )),
            Arc::new(Int32Array::new(
                ScalarBuffer::from(renew(&mut self.ply, n)),
                None,
            )),
            Arc::new(color),
            Arc::new(Int32Array::new(widen(&mut self.x), x_nulls)),
            Arc::new(Int32Array::new(widen(&mut self.y), y_nulls)),
            Arc::new(BooleanArray::new(is_pass, None)),
        ])
    }

    /// The columns as slices, for a writer that encodes them as they are
    /// (the moves table's Parquet pages); [`MoveColumns::clear`] then
    /// starts the next batch.
    #[cfg_attr(not(feature = "parquet"), allow(dead_code))]
    pub(crate) fn slices(&self) -> MoveSlices<'_> {
        MoveSlices {
            game_id: &self.game_id,
            ply: &self.ply,
            color: &self.color,
            x: &self.x,
            y: &self.y,
            is_pass: &self.is_pass,
            x_nulls: &self.x_nulls,
            y_nulls: &self.y_nulls,
        }
    }

    /// Empties the columns, keeping their room.
    #[cfg_attr(not(feature = "parquet"), allow(dead_code))]
    pub(crate) fn clear(&mut self) {
        self.game_id.clear();
        self.ply.clear();
        self.color.clear();
        self.x.clear();
        self.y.clear();
        self.is_pass.clear();
        self.x_nulls.clear();
        self.y_nulls.clear();
    }
}

/// The vector `v` holds, leaving in its place an empty one with room for
/// `n` values.
fn renew<T>(v: &mut Vec<T>, n: usize) -> Vec<T> {
    std::mem::replace(v, Vec::with_capacity(n))
}

/// The bytes of `v` as `Int32` values; `v` is left empty.
fn widen(v: &mut Vec<u8>) -> ScalarBuffer<i32> {
    let wide: Vec<i32> = v.iter().map(|&b| i32::from(b)).collect();
    v.clear();
    ScalarBuffer::from(wide)
}

/// The validity of `n` values whose nulls are at `rows`: none at all
/// when `rows` is empty (the Parquet writer then skips the levels).
fn nulls(n: usize, rows: &[usize]) -> Option<NullBuffer> {
    if rows.is_empty() {
        return None;
    }
    let mut valid = BooleanBufferBuilder::new(n);
    valid.append_n(n, true);
    for &row in rows {
        valid.set_bit(row, false);
    }
    Some(NullBuffer::new(valid.finish()))
}

/// Gathers [`GameRow`]s into Arrow record batches of the games table
/// ([`COLUMNS`], schema [`games_schema`]) and the moves table
/// ([`MOVE_COLUMNS`], schema [`moves_schema`]): the tables `sgf export
/// --format parquet` writes, column for column, before they are encoded.
/// The caller says when a batch ends ([`BatchBuilder::finish_games`],
/// [`BatchBuilder::finish_moves`]), so it chooses the batch size and with
/// it the memory (a few thousand games make a batch of a few MB).
///
/// The moves of a row go to the moves table under the row's
/// [`id`](GameRow::id): number the rows first ([`GameRow::with_id`]).
///
/// ```
/// use sgf_grove::table::{BatchBuilder, GameRow};
/// use sgf_grove::arrow_array::{cast::AsArray, types::Int32Type, Array};
///
/// let doc = sgf_grove::parse(b"(;SZ[19]KM[6.5];B[pd];W[])(;SZ[9];B[ee])")?;
/// let mut batches = BatchBuilder::new(true);
/// for (id, game) in doc.games().enumerate() {
///     batches.push(&GameRow::from_game(game, "a.sgf", 0).with_id(id as u64));
/// }
/// assert_eq!((batches.game_rows(), batches.move_rows()), (2, 3));
/// let games = batches.finish_games()?;
/// let moves = batches.finish_moves()?;
/// assert_eq!(games.num_rows(), 2);
/// assert_eq!(games.column_by_name("board_cols").unwrap().as_primitive::<Int32Type>().values(), &[19, 9]);
/// let x = moves.column_by_name("x").unwrap().as_primitive::<Int32Type>();
/// assert_eq!((x.value(0), x.is_null(1), x.value(2)), (15, true, 4)); // W[] is a pass
/// assert_eq!(batches.game_rows(), 0); // the next batch starts empty
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct BatchBuilder {
    games: Vec<Builder>,
    game_len: usize,
    moves: Option<MoveColumns>,
    /// The analysis table's columns, when gathered.
    analysis: Option<Vec<Builder>>,
    analysis_len: usize,
    games_schema: SchemaRef,
    moves_schema: SchemaRef,
}

impl std::fmt::Debug for BatchBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BatchBuilder")
            .field("game_rows", &self.game_len)
            .field("move_rows", &self.move_rows())
            .field("moves", &self.moves.is_some())
            .finish()
    }
}

impl BatchBuilder {
    /// An empty builder; with `moves` false the moves of the rows are not
    /// gathered (and [`BatchBuilder::finish_moves`] gives empty batches).
    pub fn new(moves: bool) -> BatchBuilder {
        BatchBuilder {
            games: COLUMNS.iter().map(|c| Builder::new(c.ty)).collect(),
            game_len: 0,
            moves: moves.then(MoveColumns::new),
            analysis: None,
            analysis_len: 0,
            games_schema: games_schema(),
            moves_schema: moves_schema(),
        }
    }

    /// The same builder, gathering the rows' analysis
    /// ([`GameRow::analysis`]) into the analysis table too.
    ///
    /// ```
    /// use sgf_grove::table::{BatchBuilder, GameRow};
    /// let doc = sgf_grove::parse(b"(;SZ[19];B[pd]SBKV[55];W[dd]SBKV[52])")?;
    /// let game = doc.games().next().unwrap();
    /// let mut row = GameRow::from_game(game, "a.sgf", 0);
    /// row.add_analysis(game);
    /// let mut batches = BatchBuilder::new(false).analysis(true);
    /// batches.push(&row);
    /// assert_eq!(batches.analysis_rows(), 2);
    /// assert_eq!(batches.finish_analysis()?.num_rows(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn analysis(mut self, yes: bool) -> BatchBuilder {
        self.analysis = yes.then(|| {
            ANALYSIS_COLUMNS
                .iter()
                .map(|c| Builder::new(c.ty))
                .collect()
        });
        self
    }

    /// The analysis rows gathered since the last
    /// [`BatchBuilder::finish_analysis`].
    pub fn analysis_rows(&self) -> usize {
        self.analysis_len
    }

    /// The analysis rows gathered so far as one record batch (perhaps
    /// empty); the builder starts a new batch.
    ///
    /// # Errors
    ///
    /// As [`BatchBuilder::finish_games`].
    pub fn finish_analysis(&mut self) -> Result<RecordBatch, TableError> {
        let schema = analysis_schema();
        let Some(builders) = &mut self.analysis else {
            return Ok(RecordBatch::new_empty(schema));
        };
        let columns: Vec<ArrayRef> = builders.iter_mut().map(Builder::finish).collect();
        self.analysis_len = 0;
        Ok(RecordBatch::try_new(schema, columns)?)
    }

    /// Adds a game, and its moves when the builder gathers them.
    pub fn push(&mut self, row: &GameRow) {
        for (builder, cell) in self.games.iter_mut().zip(game_cells(row).iter()) {
            builder.append(cell);
        }
        self.game_len += 1;
        if let Some(builders) = &mut self.analysis {
            for a in &row.analysis {
                let cells = analysis_cells(AnalysisRef { game: row, row: a });
                for (builder, cell) in builders.iter_mut().zip(cells.iter()) {
                    builder.append(cell);
                }
                self.analysis_len += 1;
            }
        }
        if let Some(moves) = &mut self.moves {
            moves.push(&row.moves);
            if row.line().len() > 0 {
                moves.push_line(row.id, row.line());
            }
        }
    }

    /// The games gathered since the last [`BatchBuilder::finish_games`].
    pub fn game_rows(&self) -> usize {
        self.game_len
    }

    /// The moves gathered since the last [`BatchBuilder::finish_moves`].
    pub fn move_rows(&self) -> usize {
        self.moves.as_ref().map_or(0, MoveColumns::len)
    }

    /// The games gathered so far as one record batch (perhaps empty);
    /// the builder starts a new batch.
    ///
    /// # Errors
    ///
    /// Never for rows built by [`GameRow`]'s constructors (Arrow checks
    /// the batch's shape).
    pub fn finish_games(&mut self) -> Result<RecordBatch, TableError> {
        let columns: Vec<ArrayRef> = self.games.iter_mut().map(Builder::finish).collect();
        self.game_len = 0;
        Ok(RecordBatch::try_new(self.games_schema.clone(), columns)?)
    }

    /// The moves gathered so far as one record batch (perhaps empty);
    /// the builder starts a new batch.
    ///
    /// # Errors
    ///
    /// As [`BatchBuilder::finish_games`].
    pub fn finish_moves(&mut self) -> Result<RecordBatch, TableError> {
        match &mut self.moves {
            Some(moves) => Ok(RecordBatch::try_new(
                self.moves_schema.clone(),
                moves.finish()?,
            )?),
            None => Ok(RecordBatch::new_empty(self.moves_schema.clone())),
        }
    }

    /// The moves gathered so far, as columns (`None` when the builder
    /// gathers no moves).
    #[cfg_attr(not(feature = "parquet"), allow(dead_code))]
    pub(crate) fn move_columns_mut(&mut self) -> Option<&mut MoveColumns> {
        self.moves.as_mut()
    }
}
