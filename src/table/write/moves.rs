//! [`MoveTable`]: the moves table's Parquet file, its pages encoded here
//! from the columns' plain vectors ([`pages`](super::pages)) and handed to
//! the parquet crate's page writer, the column chunks spliced into row
//! groups by its file writer (which also writes the footer, with the
//! same Arrow schema as the games table's `ArrowWriter`).
//!
//! Encodings, chosen by instruction counts and sizes of `sgf export
//! --format parquet` on the shared corpus (10.2 million moves):
//!
//! | column | Parquet type | encoding |
//! |---|---|---|
//! | `game_id` | `INT64` | `DELTA_BINARY_PACKED` (runs of one id pack to 0 bits) |
//! | `ply` | `INT32` | `DELTA_BINARY_PACKED` (a steady count packs to 0 bits) |
//! | `color` | `BYTE_ARRAY` (`STRING`) | `RLE_DICTIONARY`: the dictionary `B`, `W`, one bit a move |
//! | `x`, `y` | `INT32`, optional | `RLE_DICTIONARY`: the dictionary 0, 1, … up to the chunk's largest value, each value its own index (no hashing), 5 bits a move on 19×19 |
//! | `is_pass` | `BOOLEAN` | `PLAIN`, one bit a move |
//!
//! Pages are uncompressed (the encodings leave snappy little to find)
//! and Parquet format v1 data pages; `x` and `y` have definition levels
//! (a pass is null). `game_id` has its minimum and maximum per row
//! group; the other columns no statistics. The types, and so the values
//! as read back, are those of [`moves_schema`](super::moves_schema).

use super::arrow::MoveSlices;
use super::pages;
use super::TableError;
use bytes::Bytes;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, Encoding};
use parquet::column::page::{CompressedPage, Page, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::file::metadata::ColumnChunkMetaData;
use parquet::file::properties::WriterProperties;
use parquet::file::statistics::Statistics;
use parquet::file::writer::{SerializedFileWriter, SerializedPageWriter, TrackedWrite};
use parquet::schema::types::ColumnDescPtr;
use std::io::Write;

/// The columns, in the order of [`MOVE_COLUMNS`](crate::table::MOVE_COLUMNS)
/// (`is_pass` is the last).
const GAME_ID: usize = 0;
const PLY: usize = 1;
const COLOR: usize = 2;
const X: usize = 3;
const Y: usize = 4;
const COUNT: usize = 6;

/// One column chunk being written: its data pages, in memory until the
/// row group is closed.
struct Chunk {
    data: TrackedWrite<Vec<u8>>,
    /// Whether the pages are snappy-compressed.
    snappy: bool,
    /// The pages' bytes (headers included) before compression.
    uncompressed: usize,
    /// The largest value, for the dictionary of `x` and `y`.
    max: u8,
    /// The smallest and largest value, for the statistics of `game_id`.
    range: Option<(i64, i64)>,
}

impl Chunk {
    fn new(column: usize) -> Chunk {
        Chunk {
            data: TrackedWrite::new(Vec::new()),
            snappy: SNAPPY[column],
            uncompressed: 0,
            max: 0,
            range: None,
        }
    }

    /// Writes a data page of `rows` values (nulls included), `body`
    /// encoded in `encoding`.
    fn data_page(
        &mut self,
        body: Vec<u8>,
        rows: usize,
        encoding: Encoding,
    ) -> Result<(), TableError> {
        let len = body.len();
        let page = Page::DataPage {
            buf: self.compress(body)?,
            num_values: u32::try_from(rows).map_err(too_many)?,
            encoding,
            def_level_encoding: Encoding::RLE,
            rep_level_encoding: Encoding::RLE,
            statistics: None,
        };
        self.write(page, len)
    }

    /// The page's bytes, compressed if the column's are.
    fn compress(&self, body: Vec<u8>) -> Result<Bytes, TableError> {
        if !self.snappy {
            return Ok(Bytes::from(body));
        }
        let packed = snap::raw::Encoder::new()
            .compress_vec(&body)
            .map_err(|e| TableError::new(super::TableErrorKind::Parquet, e))?;
        Ok(Bytes::from(packed))
    }

    /// The chunk's bytes, with a dictionary page of `count` values
    /// (`values`, encoded `PLAIN`) in front of its data pages when one is
    /// given; the data pages' offset in them; their size before
    /// compression.
    fn finish(
        self,
        dictionary: Option<(Vec<u8>, usize)>,
    ) -> Result<(Vec<u8>, i64, usize), TableError> {
        let Some((values, count)) = dictionary else {
            let uncompressed = self.uncompressed;
            return Ok((self.data.into_inner()?, 0, uncompressed));
        };
        let mut front = Chunk {
            data: TrackedWrite::new(Vec::new()),
            snappy: self.snappy,
            uncompressed: 0,
            max: 0,
            range: None,
        };
        let len = values.len();
        let page = Page::DictionaryPage {
            buf: front.compress(values)?,
            num_values: u32::try_from(count).map_err(too_many)?,
            encoding: Encoding::PLAIN,
            is_sorted: true,
        };
        front.write(page, len)?;
        let uncompressed = front.uncompressed + self.uncompressed;
        let mut out = front.data.into_inner()?;
        let offset = out.len() as i64;
        out.extend_from_slice(&self.data.into_inner()?);
        Ok((out, offset, uncompressed))
    }

    /// Writes a page whose data was `len` bytes before compression.
    fn write(&mut self, page: Page, len: usize) -> Result<(), TableError> {
        let spec =
            SerializedPageWriter::new(&mut self.data).write_page(CompressedPage::new(page, len))?;
        self.uncompressed += spec.uncompressed_size;
        Ok(())
    }
}

/// Which columns' pages are snappy-compressed: those whose encoded
/// values repeat (the packed deltas of ids and plies within a game, the
/// colours' alternating bits, the rare passes), not the coordinates
/// (which snappy shrinks by 1% at the cost of a pass over them).
const SNAPPY: [bool; COUNT] = [true, true, true, false, false, true];

fn too_many(_: std::num::TryFromIntError) -> TableError {
    TableError::new(
        super::TableErrorKind::Parquet,
        "a page of more than 4 billion moves",
    )
}

/// The moves table's Parquet file, written a page at a time.
pub(crate) struct MoveTable<W: Write + Send> {
    file: SerializedFileWriter<W>,
    columns: Vec<ColumnDescPtr>,
    /// Moves per row group.
    group_rows: usize,
    /// Moves in the row group being written.
    rows: usize,
    chunks: [Chunk; COUNT],
}

impl<W: Write + Send> MoveTable<W> {
    /// A writer of the moves table to `out`, with row groups of
    /// `group_rows` moves, its footer carrying `props`' settings (the
    /// creator) and the Arrow schema.
    pub(crate) fn new(
        out: W,
        props: WriterProperties,
        group_rows: usize,
    ) -> Result<MoveTable<W>, TableError> {
        // The Arrow writer sets up the file (schema, Arrow metadata) as it
        // does for the games table; the pages are written here.
        let arrow = ArrowWriter::try_new(out, super::arrow::moves_schema(), Some(props))?;
        let (file, _) = arrow.into_serialized_writer()?;
        let columns = file.schema_descr().columns().to_vec();
        Ok(MoveTable {
            file,
            columns,
            group_rows: group_rows.max(1),
            rows: 0,
            chunks: std::array::from_fn(Chunk::new),
        })
    }

    /// Writes the moves of `cols` (all of them): as pages of the current
    /// row group, which is closed whenever it is full.
    pub(crate) fn write(&mut self, cols: &MoveSlices<'_>) -> Result<(), TableError> {
        let n = cols.game_id.len();
        let mut start = 0;
        while start < n {
            let take = (n - start).min(self.group_rows - self.rows);
            self.pages(cols, start, start + take)?;
            self.rows += take;
            start += take;
            if self.rows >= self.group_rows {
                self.close_group()?;
            }
        }
        Ok(())
    }

    /// One page per column of rows `start..end` of `cols`.
    fn pages(&mut self, cols: &MoveSlices<'_>, start: usize, end: usize) -> Result<(), TableError> {
        let rows = end - start;
        let [game_id, ply, color, x, y, is_pass] = &mut self.chunks;

        let ids = &cols.game_id[start..end];
        let (mut lo, mut hi) = game_id.range.unwrap_or((i64::MAX, i64::MIN));
        for &id in ids {
            lo = lo.min(id);
            hi = hi.max(id);
        }
        game_id.range = Some((lo, hi));
        let mut body = Vec::with_capacity(64 + rows / 4);
        pages::delta(ids, &mut body);
        game_id.data_page(body, rows, Encoding::DELTA_BINARY_PACKED)?;

        let mut body = Vec::with_capacity(64 + rows / 4);
        pages::delta32(&cols.ply[start..end], &mut body);
        ply.data_page(body, rows, Encoding::DELTA_BINARY_PACKED)?;

        // Indices into the dictionary `B`, `W`.
        let mut body = Vec::with_capacity(16 + rows / 8);
        body.push(1);
        // `B` is 0x42 and `W` 0x57: bit 0 is the index.
        pages::flag_run(&cols.color[start..end], &mut body);
        color.data_page(body, rows, Encoding::RLE_DICTIONARY)?;

        // The passes among these rows are the nulls of `x` and `y`.
        let mut values = Vec::with_capacity(rows);
        for (chunk, column, nulls) in [(x, cols.x, cols.x_nulls), (y, cols.y, cols.y_nulls)] {
            let nulls = {
                let from = nulls.partition_point(|&r| r < start);
                let to = nulls.partition_point(|&r| r < end);
                &nulls[from..to]
            };
            // The values are the rows but the passes: the rows between
            // two passes copied at once, or all of them read in place.
            let values = if nulls.is_empty() {
                &column[start..end]
            } else {
                values.clear();
                let mut from = start;
                for &null in nulls {
                    values.extend_from_slice(&column[from..null]);
                    from = null + 1;
                }
                values.extend_from_slice(&column[from..end]);
                &values[..]
            };
            let max = values.iter().copied().max().unwrap_or(0);
            chunk.max = chunk.max.max(max);
            let mut body = Vec::with_capacity(32 + rows);
            // Definition levels, their length first: 1 for a value, 0
            // for a pass.
            body.extend_from_slice(&[0; 4]);
            if nulls.is_empty() {
                pages::repeated_run(rows, 1, &mut body);
            } else {
                pages::ones_but(rows, nulls, start, &mut body);
            }
            let levels = u32::try_from(body.len() - 4).map_err(too_many)?;
            body[..4].copy_from_slice(&levels.to_le_bytes());
            // Indices, each value its own; at least 1 bit wide.
            let width = pages::width_of(max).max(1);
            body.push(width);
            pages::bit_packed_run(values, width, &mut body);
            chunk.data_page(body, rows, Encoding::RLE_DICTIONARY)?;
        }

        let mut body = Vec::with_capacity(rows / 8 + 1);
        pages::plain_bools(&cols.is_pass[start..end], &mut body);
        is_pass.data_page(body, rows, Encoding::PLAIN)?;
        Ok(())
    }

    /// Writes the row group's column chunks (if it has rows) and starts
    /// the next.
    fn close_group(&mut self) -> Result<(), TableError> {
        if self.rows == 0 {
            return Ok(());
        }
        let rows = std::mem::take(&mut self.rows) as u64;
        let chunks = std::mem::replace(&mut self.chunks, std::array::from_fn(Chunk::new));
        let mut group = self.file.next_row_group()?;
        for (i, chunk) in chunks.into_iter().enumerate() {
            let descr = self.columns[i].clone();
            let stats = match (i, chunk.range) {
                (GAME_ID, Some((lo, hi))) => {
                    Some(Statistics::int64(Some(lo), Some(hi), None, Some(0), false))
                }
                _ => None,
            };
            let snappy = chunk.snappy;
            let (bytes, data_offset, uncompressed) = match i {
                COLOR => chunk.finish(Some((b"\x01\0\0\0B\x01\0\0\0W".to_vec(), 2)))?,
                X | Y => {
                    let count = usize::from(chunk.max) + 1;
                    let values: Vec<u8> = (0..=chunk.max)
                        .flat_map(|v| i32::from(v).to_le_bytes())
                        .collect();
                    chunk.finish(Some((values, count)))?
                }
                _ => chunk.finish(None)?,
            };
            let dictionary = (data_offset > 0).then_some(0);
            let len = bytes.len() as i64;
            let encodings = match i {
                GAME_ID | PLY => vec![Encoding::DELTA_BINARY_PACKED],
                COLOR => vec![Encoding::PLAIN, Encoding::RLE_DICTIONARY],
                X | Y => vec![Encoding::PLAIN, Encoding::RLE, Encoding::RLE_DICTIONARY],
                _ => vec![Encoding::PLAIN],
            };
            let mut meta = ColumnChunkMetaData::builder(descr)
                .set_compression(match snappy {
                    true => Compression::SNAPPY,
                    false => Compression::UNCOMPRESSED,
                })
                .set_encodings(encodings)
                .set_total_compressed_size(len)
                .set_total_uncompressed_size(uncompressed as i64)
                .set_num_values(rows as i64)
                .set_data_page_offset(data_offset)
                .set_dictionary_page_offset(dictionary);
            if let Some(stats) = stats {
                meta = meta.set_statistics(stats);
            }
            let close = ColumnCloseResult {
                bytes_written: len as u64,
                rows_written: rows,
                metadata: meta.build()?,
                bloom_filter: None,
                column_index: None,
                offset_index: None,
            };
            group.append_column(&Bytes::from(bytes), close)?;
        }
        group.close()?;
        Ok(())
    }

    /// Writes the last row group and the footer, and hands back the
    /// output.
    pub(crate) fn into_inner(mut self) -> Result<W, TableError> {
        self.close_group()?;
        Ok(self.file.into_inner()?)
    }
}

#[cfg(test)]
mod tests {
    //! The moves table read back through the parquet crate's Arrow reader,
    //! value for value, for moves of every shape: the encodings of
    //! [`pages`] checked by an independent decoder.
    use crate::table::{GameRow, MoveRow, ParquetOptions, ParquetWriter, RowWriter};
    use crate::value::Color;
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Int32Type, Int64Type};
    use arrow_array::Array;
    use bytes::Bytes;
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

    /// Games whose moves cover the extremes: ids and plies that jump,
    /// wrap and saturate, every coordinate, runs of passes, a null `x`
    /// with a `y`.
    fn rows(games: usize) -> Vec<GameRow> {
        let doc = crate::parse(b"(;SZ[19];B[pd])").unwrap();
        let base = GameRow::from_game(doc.games().next().unwrap(), "t.sgf", 0);
        let mut lcg = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            lcg = lcg
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            lcg >> 17
        };
        let ids = [0, 1, 2, 1_000_000, 3, u64::MAX, 5, 1 << 40, 7];
        let mut out = Vec::new();
        for (g, &id) in ids.iter().cycle().take(games).enumerate() {
            let mut row = base.clone();
            let len = [0, 1, 31, 32, 33, 128, 129, 500, 3000][g % 9];
            row.moves = (0..len)
                .map(|i| {
                    let r = next();
                    let pass = r % 13 == 0 || (g % 5 == 1 && i < 40);
                    let x = (!pass).then_some((r >> 8) as u8 % if g % 7 == 0 { 255 } else { 19 });
                    let y = (!pass || r % 3 == 0).then_some((r >> 16) as u8 % 52);
                    MoveRow {
                        game_id: id,
                        ply: match g % 4 {
                            0 => i + 1,
                            1 => u32::MAX - i,
                            2 => (r % 1000) as u32,
                            _ => i * 2 + 1,
                        },
                        color: if r & 1 == 0 {
                            Color::Black
                        } else {
                            Color::White
                        },
                        x,
                        y,
                        is_pass: pass,
                    }
                })
                .collect();
            out.push(row);
        }
        out
    }

    fn check(options: ParquetOptions, games: usize) {
        let rows = rows(games);
        let mut out = ParquetWriter::new(Vec::new(), Some(Vec::new()), options).unwrap();
        for row in &rows {
            out.write_row(row).unwrap();
        }
        let (_, moves) = out.into_inner().unwrap();
        let reader = ParquetRecordBatchReaderBuilder::try_new(Bytes::from(moves.unwrap()))
            .unwrap()
            .build()
            .unwrap();
        let want: Vec<&MoveRow> = rows.iter().flat_map(|r| &r.moves).collect();
        let mut k = 0;
        for batch in reader {
            let batch = batch.unwrap();
            let id = batch.column(0).as_primitive::<Int64Type>();
            let ply = batch.column(1).as_primitive::<Int32Type>();
            let color = batch.column(2).as_string::<i32>();
            let x = batch.column(3).as_primitive::<Int32Type>();
            let y = batch.column(4).as_primitive::<Int32Type>();
            let pass = batch.column(5).as_boolean();
            for r in 0..batch.num_rows() {
                let m = want[k];
                let at = format!("move {k}: {m:?}");
                assert_eq!(
                    id.value(r),
                    i64::try_from(m.game_id).unwrap_or(i64::MAX),
                    "{at}"
                );
                assert_eq!(
                    ply.value(r),
                    i32::try_from(m.ply).unwrap_or(i32::MAX),
                    "{at}"
                );
                assert_eq!(color.value(r), m.color.as_str(), "{at}");
                assert_eq!(
                    (!x.is_null(r)).then(|| x.value(r)),
                    m.x.map(i32::from),
                    "{at}"
                );
                assert_eq!(
                    (!y.is_null(r)).then(|| y.value(r)),
                    m.y.map(i32::from),
                    "{at}"
                );
                assert_eq!(pass.value(r), m.is_pass, "{at}");
                k += 1;
            }
        }
        assert_eq!(k, want.len());
    }

    #[test]
    fn moves_read_back_value_for_value() {
        // Several batches of the writer (65,536 moves), each cut into
        // row groups, or several to a row group.
        check(ParquetOptions::new(), 300);
        check(ParquetOptions::new().move_row_group(100_000), 300);
        check(ParquetOptions::new().move_row_group(4096), 300);
        check(ParquetOptions::new().move_row_group(100), 40);
        check(ParquetOptions::new().move_row_group(1), 12);
    }

    #[test]
    fn no_moves_no_row_group() {
        let mut out =
            ParquetWriter::new(Vec::new(), Some(Vec::new()), ParquetOptions::new()).unwrap();
        out.finish().unwrap();
        let (_, moves) = out.into_inner().unwrap();
        let builder =
            ParquetRecordBatchReaderBuilder::try_new(Bytes::from(moves.unwrap())).unwrap();
        assert_eq!(builder.metadata().num_row_groups(), 0);
        assert_eq!(builder.schema().fields().len(), 6);
    }
}
