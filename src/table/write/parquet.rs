//! [`ParquetWriter`]: the games and moves tables as Parquet files, through
//! the `arrow` and `parquet` crates.

use super::{RowWriter, TableError, TableErrorKind};
use crate::table::columns::{game_cells, Cell, Column, ColumnType, COLUMNS, MOVE_COLUMNS};
use crate::table::{GameRow, MoveRow};
use arrow_array::builder::{
    BooleanBuilder, Float64Builder, Int32Builder, Int64Builder, StringBuilder,
};
use arrow_array::{ArrayRef, BooleanArray, Int32Array, Int64Array, RecordBatch, StringArray};
use arrow_buffer::{
    ArrowNativeType, BooleanBuffer, BooleanBufferBuilder, Buffer, NullBuffer, OffsetBuffer,
    ScalarBuffer,
};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, Encoding};
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterPropertiesBuilder};
use parquet::schema::types::ColumnPath;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::Arc;

impl From<parquet::errors::ParquetError> for TableError {
    fn from(e: parquet::errors::ParquetError) -> Self {
        TableError::new(TableErrorKind::Parquet, e)
    }
}

impl From<arrow_schema::ArrowError> for TableError {
    fn from(e: arrow_schema::ArrowError) -> Self {
        TableError::new(TableErrorKind::Parquet, e)
    }
}

/// How a [`ParquetWriter`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParquetOptions {
    game_rows: usize,
    move_rows: usize,
    moves: bool,
}

impl Default for ParquetOptions {
    fn default() -> Self {
        ParquetOptions {
            game_rows: 65_536,
            move_rows: 1 << 20,
            moves: true,
        }
    }
}

impl ParquetOptions {
    /// The defaults: row groups of 65,536 games and 1,048,576 moves, and a
    /// moves table.
    pub fn new() -> ParquetOptions {
        ParquetOptions::default()
    }

    /// Games per row group of the games table (at least 1). The rows of a
    /// row group are held in memory, encoded, until it is full. Default:
    /// 65,536, a few MB for the games table's columns.
    #[must_use]
    pub fn game_row_group(mut self, rows: usize) -> ParquetOptions {
        self.game_rows = rows.max(1);
        self
    }

    /// Moves per row group of the moves table (at least 1). Default:
    /// 1,048,576 (about 4 MB encoded).
    #[must_use]
    pub fn move_row_group(mut self, rows: usize) -> ParquetOptions {
        self.move_rows = rows.max(1);
        self
    }

    /// Whether [`ParquetWriter::create_dir`] writes the moves table.
    /// Default: yes.
    #[must_use]
    pub fn moves(mut self, yes: bool) -> ParquetOptions {
        self.moves = yes;
        self
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
pub(crate) fn games_schema() -> SchemaRef {
    schema(&COLUMNS)
}

/// The Arrow schema of the moves table: [`MOVE_COLUMNS`] as Arrow fields.
pub(crate) fn moves_schema() -> SchemaRef {
    schema(&MOVE_COLUMNS)
}

/// A builder for one column of the games table.
enum Builder {
    I64(Int64Builder),
    I32(Int32Builder),
    F64(Float64Builder),
    Str(StringBuilder),
    Bool(BooleanBuilder),
}

impl Builder {
    fn new(ty: ColumnType) -> Builder {
        match ty {
            ColumnType::Int64 => Builder::I64(Int64Builder::new()),
            ColumnType::Int32 => Builder::I32(Int32Builder::new()),
            ColumnType::Float64 => Builder::F64(Float64Builder::new()),
            ColumnType::Utf8 => Builder::Str(StringBuilder::new()),
            ColumnType::Bool => Builder::Bool(BooleanBuilder::new()),
        }
    }

    fn append(&mut self, cell: &Cell<'_>) {
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

    fn finish(&mut self) -> ArrayRef {
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
/// validity bitmap for `x` and `y` in a batch without a pass. Once a
/// batch is written its vectors are taken back ([`MoveColumns::reclaim`]),
/// so that batches reuse one allocation (fresh ones for each batch cost
/// 40,000 page faults on the corpus).
struct MoveColumns {
    game_id: Vec<i64>,
    ply: Vec<i32>,
    /// `B` or `W`, one byte a move (every value is one byte long).
    color: Vec<u8>,
    /// The offsets of `color`, 0, 1, 2, … for a whole batch: sliced.
    color_offsets: OffsetBuffer<i32>,
    /// 0 for a pass (a null slot).
    x: Vec<i32>,
    y: Vec<i32>,
    is_pass: Vec<bool>,
    /// The rows whose `x` is null (passes).
    x_nulls: Vec<usize>,
    /// The rows whose `y` is null (passes).
    y_nulls: Vec<usize>,
}

/// The most moves a batch holds: [`MOVE_BATCH`], plus the moves of the
/// row that crosses it (a longer game makes the vectors grow).
const MOVE_ROOM: usize = MOVE_BATCH + 1024;

impl MoveColumns {
    /// Columns with room for a batch.
    fn new() -> MoveColumns {
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

    fn len(&self) -> usize {
        self.game_id.len()
    }

    /// Appends the moves of a row.
    fn push(&mut self, moves: &[MoveRow]) {
        for m in moves {
            if m.x.is_none() {
                self.x_nulls.push(self.x.len());
            }
            if m.y.is_none() {
                self.y_nulls.push(self.y.len());
            }
            self.game_id
                .push(i64::try_from(m.game_id).unwrap_or(i64::MAX));
            self.ply.push(i32::try_from(m.ply).unwrap_or(i32::MAX));
            self.color.push(m.color.as_str().as_bytes()[0]);
            self.x.push(m.x.map_or(0, i32::from));
            self.y.push(m.y.map_or(0, i32::from));
            self.is_pass.push(m.is_pass);
        }
    }

    /// The batch's arrays, in the order of [`MOVE_COLUMNS`]; the columns
    /// are left empty.
    fn finish(&mut self) -> Result<Vec<ArrayRef>, TableError> {
        let n = self.len();
        let offsets = if n < self.color_offsets.len() {
            self.color_offsets.slice(0, n)
        } else {
            OffsetBuffer::from_lengths(std::iter::repeat_n(1, n))
        };
        let color = StringArray::try_new(
            offsets,
            Buffer::from_vec(std::mem::take(&mut self.color)),
            None,
        )?;
        let is_pass = BooleanBuffer::from(self.is_pass.as_slice());
        self.is_pass.clear();
        let x_nulls = nulls(n, &self.x_nulls);
        let y_nulls = nulls(n, &self.y_nulls);
        self.x_nulls.clear();
        self.y_nulls.clear();
        Ok(vec![
            Arc::new(Int64Array::new(
                ScalarBuffer::from(std::mem::take(&mut self.game_id)),
                None,
            )),
            Arc::new(Int32Array::new(
                ScalarBuffer::from(std::mem::take(&mut self.ply)),
                None,
            )),
            Arc::new(color),
            Arc::new(Int32Array::new(
                ScalarBuffer::from(std::mem::take(&mut self.x)),
                x_nulls,
            )),
            Arc::new(Int32Array::new(
                ScalarBuffer::from(std::mem::take(&mut self.y)),
                y_nulls,
            )),
            Arc::new(BooleanArray::new(is_pass, None)),
        ])
    }

    /// Takes back the vectors of a written batch's arrays (from
    /// [`MoveColumns::finish`]) for the next batch; a vector that cannot
    /// be taken back (still shared) is allocated anew.
    fn reclaim(&mut self, columns: Vec<ArrayRef>) {
        let mut columns = columns.into_iter();
        self.game_id = take_back(columns.next(), 0);
        self.ply = take_back(columns.next(), 0);
        // A string array's buffers: offsets, then the bytes.
        self.color = take_back(columns.next(), 1);
        self.x = take_back(columns.next(), 0);
        self.y = take_back(columns.next(), 0);
    }
}

/// The values vector of buffer `index` of `array`, emptied, when `array`
/// is its only owner; else a new vector with room for a batch.
fn take_back<T: ArrowNativeType>(array: Option<ArrayRef>, index: usize) -> Vec<T> {
    let buffer = array.and_then(|array| {
        let data = array.to_data();
        drop(array);
        data.buffers().get(index).cloned()
    });
    match buffer.map(Buffer::into_vec::<T>) {
        Some(Ok(mut v)) => {
            v.clear();
            v
        }
        _ => Vec::with_capacity(MOVE_ROOM),
    }
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

/// An output: open, or finished and handed back.
enum Sink<W: Write + Send> {
    Open(Box<ArrowWriter<W>>),
    Done(W),
    Gone,
}

impl<W: Write + Send> Sink<W> {
    fn writer(&mut self) -> Result<&mut ArrowWriter<W>, TableError> {
        match self {
            Sink::Open(w) => Ok(w),
            _ => Err(TableError::new(
                TableErrorKind::Parquet,
                "the table was already finished",
            )),
        }
    }

    fn close(&mut self) -> Result<(), TableError> {
        if let Sink::Open(_) = self {
            if let Sink::Open(w) = std::mem::replace(self, Sink::Gone) {
                let mut out = w.into_inner()?;
                out.flush()?;
                *self = Sink::Done(out);
            }
        }
        Ok(())
    }

    fn into_inner(self) -> Option<W> {
        match self {
            Sink::Done(w) => Some(w),
            _ => None,
        }
    }
}

/// Rows of a batch handed to the Parquet writer at once (each batch's
/// columns are encoded into the current row group, so memory is the
/// row group's encoded bytes plus one batch).
const GAME_BATCH: usize = 4096;
const MOVE_BATCH: usize = 65_536;

/// Moves handed to the column encoders at a time (the parquet crate's
/// default is 1,024): fewer rounds of level, statistics and page-size
/// checks, with working buffers that stay small enough to be reused
/// rather than mapped anew (65,536 at a time: 0.5% fewer instructions
/// than this, but twice the page faults).
const MOVE_WRITE_BATCH: usize = 4096;

/// Writes the games table, and optionally the moves table, as Parquet
/// (snappy-compressed, dictionary-encoded where that pays), streaming:
/// rows are gathered in batches of a few thousand, each batch is encoded
/// into the current row group, and a row group is written out when it
/// holds [`ParquetOptions::game_row_group`] games (or
/// [`ParquetOptions::move_row_group`] moves). Memory stays that of one row
/// group, whatever the number of games.
///
/// # Schema
///
/// The games table has the columns of [`COLUMNS`] and the moves table
/// those of [`MOVE_COLUMNS`], in that order, with these types: `Int64` →
/// `INT64`, `Int32` → `INT32`, `Float64` → `DOUBLE`, `Utf8` → `BYTE_ARRAY`
/// (`STRING`, UTF-8), `Bool` → `BOOLEAN`; the nullable ones `OPTIONAL`,
/// the others `REQUIRED`. All types are signed and plain, so DuckDB,
/// Polars, pandas (pyarrow) and Spark read the files as they are. The
/// moves table refers to the games table by `game_id` = `id`.
///
/// ```
/// use sgf_grove::table::{GameRow, ParquetOptions, ParquetWriter, RowWriter};
/// let dir = std::env::temp_dir().join(format!("sgf-grove-doc-{}", std::process::id()));
/// let doc = sgf_grove::parse(b"(;SZ[19]KM[6.5];B[pd];W[dd])(;SZ[9];B[ee])")?;
/// let mut out = ParquetWriter::create_dir(&dir, ParquetOptions::new())?;
/// for (id, game) in doc.games().enumerate() {
///     out.write_row(&GameRow::from_game(game, "a.sgf", 0).with_id(id as u64))?;
/// }
/// out.finish()?;
/// assert!(dir.join("games.parquet").is_file() && dir.join("moves.parquet").is_file());
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ParquetWriter<W: Write + Send> {
    games: Sink<W>,
    moves: Option<Sink<W>>,
    game_builders: Vec<Builder>,
    game_len: usize,
    move_columns: MoveColumns,
    games_schema: SchemaRef,
    moves_schema: SchemaRef,
}

impl<W: Write + Send> std::fmt::Debug for ParquetWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParquetWriter")
            .field("moves", &self.moves.is_some())
            .field("buffered_games", &self.game_len)
            .field("buffered_moves", &self.move_columns.len())
            .finish_non_exhaustive()
    }
}

fn properties(rows: usize) -> WriterPropertiesBuilder {
    // Default encodings (dictionary, then plain), which every reader
    // knows; statistics per column chunk only (per page they cost time
    // and help little on these columns).
    WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_statistics_enabled(EnabledStatistics::Chunk)
        .set_max_row_group_row_count(Some(rows.max(1)))
        .set_created_by(concat!("sgf-grove ", env!("CARGO_PKG_VERSION")).to_owned())
}

/// The properties of the moves table, chosen by instruction counts of
/// `sgf export --format parquet` on the corpus (the encoders are most of
/// its time):
///
/// - `game_id` and `ply`: delta encoding, no dictionary (runs of one id,
///   and plies counting up by one, pack to a few bits).
/// - `x` and `y`: delta encoding too, uncompressed: 4% fewer instructions
///   than a dictionary (a hash lookup per value), for a moves table 3%
///   larger; snappy finds nothing in the packed deltas.
/// - `color`: lengths delta-encoded, then the bytes; a dictionary costs a
///   hash per value.
/// - No statistics for `ply`, `color`, `x`, `y` and `is_pass`: few values,
///   nothing a reader would skip a row group by, and the minimum and
///   maximum cost a comparison per value. `game_id` keeps them.
/// - Values handed to the encoders [`MOVE_WRITE_BATCH`] at a time.
fn move_properties(rows: usize) -> WriterProperties {
    let mut builder = properties(rows).set_write_batch_size(MOVE_WRITE_BATCH);
    for (column, encoding) in [
        ("game_id", Encoding::DELTA_BINARY_PACKED),
        ("ply", Encoding::DELTA_BINARY_PACKED),
        ("color", Encoding::DELTA_LENGTH_BYTE_ARRAY),
        ("x", Encoding::DELTA_BINARY_PACKED),
        ("y", Encoding::DELTA_BINARY_PACKED),
    ] {
        let path = ColumnPath::from(column);
        builder = builder
            .set_column_dictionary_enabled(path.clone(), false)
            .set_column_encoding(path, encoding);
    }
    for column in ["x", "y"] {
        builder =
            builder.set_column_compression(ColumnPath::from(column), Compression::UNCOMPRESSED);
    }
    for column in ["ply", "color", "x", "y", "is_pass"] {
        builder = builder
            .set_column_statistics_enabled(ColumnPath::from(column), EnabledStatistics::None);
    }
    builder.build()
}

/// The properties of the games table: the defaults, but `id`, `game` and
/// `offset` delta-encoded without a dictionary (numbers that count up,
/// nearly all distinct: a dictionary of them costs a hash per value and
/// then falls back to plain). The games table of the corpus: 1.65 MB →
/// 0.79 MB, 0.4% fewer instructions for the export.
fn game_properties(rows: usize) -> WriterProperties {
    let mut builder = properties(rows);
    for column in ["id", "game", "offset"] {
        let path = ColumnPath::from(column);
        builder = builder
            .set_column_dictionary_enabled(path.clone(), false)
            .set_column_encoding(path, Encoding::DELTA_BINARY_PACKED);
    }
    builder.build()
}

impl ParquetWriter<BufWriter<File>> {
    /// A writer of `dir/games.parquet` and, unless
    /// [`ParquetOptions::moves`] is off, `dir/moves.parquet`; `dir` is
    /// created if need be, the files replaced if they exist.
    ///
    /// # Errors
    ///
    /// When the folder or the files cannot be created.
    pub fn create_dir(
        dir: impl AsRef<Path>,
        options: ParquetOptions,
    ) -> Result<ParquetWriter<BufWriter<File>>, TableError> {
        let dir = dir.as_ref();
        std::fs::create_dir_all(dir)?;
        let games = BufWriter::new(File::create(dir.join("games.parquet"))?);
        let moves = match options.moves {
            true => Some(BufWriter::new(File::create(dir.join("moves.parquet"))?)),
            false => None,
        };
        ParquetWriter::new(games, moves, options)
    }
}

impl<W: Write + Send> ParquetWriter<W> {
    /// A writer of the games table to `games` and, when given, of the
    /// moves table to `moves` ([`ParquetOptions::moves`] is not looked at
    /// here).
    ///
    /// # Errors
    ///
    /// When the Parquet writer cannot start (writing the file's first
    /// bytes failed).
    pub fn new(
        games: W,
        moves: Option<W>,
        options: ParquetOptions,
    ) -> Result<ParquetWriter<W>, TableError> {
        let games_schema = games_schema();
        let moves_schema = moves_schema();
        let games = ArrowWriter::try_new(
            games,
            games_schema.clone(),
            Some(game_properties(options.game_rows)),
        )?;
        let moves = match moves {
            Some(m) => Some(Sink::Open(Box::new(ArrowWriter::try_new(
                m,
                moves_schema.clone(),
                Some(move_properties(options.move_rows)),
            )?))),
            None => None,
        };
        Ok(ParquetWriter {
            games: Sink::Open(Box::new(games)),
            moves,
            game_builders: COLUMNS.iter().map(|c| Builder::new(c.ty)).collect(),
            game_len: 0,
            move_columns: MoveColumns::new(),
            games_schema,
            moves_schema,
        })
    }

    fn flush_games(&mut self) -> Result<(), TableError> {
        if self.game_len == 0 {
            return Ok(());
        }
        let columns: Vec<ArrayRef> = self.game_builders.iter_mut().map(Builder::finish).collect();
        self.game_len = 0;
        let batch = RecordBatch::try_new(self.games_schema.clone(), columns)?;
        self.games.writer()?.write(&batch)?;
        Ok(())
    }

    fn flush_moves(&mut self) -> Result<(), TableError> {
        let Some(sink) = &mut self.moves else {
            return Ok(());
        };
        if self.move_columns.len() == 0 {
            return Ok(());
        }
        let columns = self.move_columns.finish()?;
        let batch = RecordBatch::try_new(self.moves_schema.clone(), columns.clone())?;
        sink.writer()?.write(&batch)?;
        drop(batch);
        self.move_columns.reclaim(columns);
        Ok(())
    }

    /// Finishes (if not done yet) and hands back the outputs: games, then
    /// moves.
    ///
    /// # Errors
    ///
    /// When the last rows or the footers cannot be written.
    pub fn into_inner(mut self) -> Result<(W, Option<W>), TableError> {
        self.finish()?;
        let gone = || TableError::new(TableErrorKind::Parquet, "a failed write lost the output");
        let games = std::mem::replace(&mut self.games, Sink::Gone)
            .into_inner()
            .ok_or_else(gone)?;
        let moves = match self.moves.take() {
            Some(m) => Some(m.into_inner().ok_or_else(gone)?),
            None => None,
        };
        Ok((games, moves))
    }
}

impl<W: Write + Send> RowWriter for ParquetWriter<W> {
    fn write_row(&mut self, row: &GameRow) -> Result<(), TableError> {
        self.games.writer()?;
        for (builder, cell) in self.game_builders.iter_mut().zip(game_cells(row).iter()) {
            builder.append(cell);
        }
        self.game_len += 1;
        if self.game_len >= GAME_BATCH {
            self.flush_games()?;
        }
        if self.moves.is_some() {
            self.move_columns.push(&row.moves);
            if self.move_columns.len() >= MOVE_BATCH {
                self.flush_moves()?;
            }
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<(), TableError> {
        if let Sink::Open(_) = self.games {
            self.flush_games()?;
            self.games.close()?;
        }
        if matches!(self.moves, Some(Sink::Open(_))) {
            self.flush_moves()?;
            if let Some(m) = &mut self.moves {
                m.close()?;
            }
        }
        Ok(())
    }
}
