//! A shard as Parquet: one row group, `features` a fixed-size binary
//! column, the other columns typed; the layout in the file's metadata.

use super::folder::{Columns, FolderOptions};
use super::layout::{Dtype, Layout, COLUMNS};
use crate::atomic::Replace;
use arrow_array::{
    ArrayRef, BooleanArray, FixedSizeBinaryArray, Float32Array, Int16Array, Int32Array, Int64Array,
    Int8Array, RecordBatch, UInt8Array,
};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use std::collections::HashMap;
use std::io::{BufWriter, Write};
use std::sync::Arc;

/// Little-endian values of `width` bytes, read by `f`.
fn values<T, const N: usize>(bytes: &[u8], f: fn([u8; N]) -> T) -> Vec<T> {
    bytes
        .chunks_exact(N)
        .map(|c| f(c.try_into().expect("column width")))
        .collect()
}

/// Writes `columns` to `file`; returns the file and its bytes.
pub(super) fn write(
    file: Replace,
    layout: &Layout,
    options: &FolderOptions,
    columns: &Columns,
) -> Result<(Replace, u64), Box<dyn std::error::Error + Send + Sync>> {
    let width = columns.features.len() / columns.rows.max(1);
    let mut fields = vec![Field::new(
        "features",
        DataType::FixedSizeBinary(width as i32),
        false,
    )];
    let mut arrays: Vec<ArrayRef> = vec![Arc::new(FixedSizeBinaryArray::try_new(
        width as i32,
        columns.features.clone().into(),
        None,
    )?)];
    for (c, data) in COLUMNS.iter().zip(&columns.tail) {
        let (kind, array): (DataType, ArrayRef) = match c.dtype {
            Dtype::Bool => (
                DataType::Boolean,
                Arc::new(BooleanArray::from(
                    data.iter().map(|&b| b != 0).collect::<Vec<_>>(),
                )),
            ),
            Dtype::I8 => (
                DataType::Int8,
                Arc::new(Int8Array::from(values(data, i8::from_le_bytes))),
            ),
            Dtype::U8 => (DataType::UInt8, Arc::new(UInt8Array::from(data.clone()))),
            Dtype::I16 => (
                DataType::Int16,
                Arc::new(Int16Array::from(values(data, i16::from_le_bytes))),
            ),
            Dtype::I32 => (
                DataType::Int32,
                Arc::new(Int32Array::from(values(data, i32::from_le_bytes))),
            ),
            Dtype::I64 => (
                DataType::Int64,
                Arc::new(Int64Array::from(values(data, i64::from_le_bytes))),
            ),
            Dtype::F32 => (
                DataType::Float32,
                Arc::new(Float32Array::from(values(data, f32::from_le_bytes))),
            ),
        };
        fields.push(Field::new(c.name, kind, false));
        arrays.push(array);
    }
    let board = layout.board();
    let meta = serde_json::json!({
        "board": { "cols": board.cols, "rows": board.rows },
        "planes": layout.plane_names(),
        "packed": options.packed,
        "plane_bytes": if options.packed { layout.plane_bytes() } else { layout.points() },
    });
    let schema = Arc::new(Schema::new_with_metadata(
        fields,
        HashMap::from([("sgf_grove.samples".to_owned(), meta.to_string())]),
    ));
    let batch = RecordBatch::try_new(schema.clone(), arrays)?;
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_max_row_group_row_count(Some(columns.rows.max(1)))
        .build();
    let mut writer =
        ArrowWriter::try_new(BufWriter::with_capacity(1 << 20, file), schema, Some(props))?;
    writer.write(&batch)?;
    let mut out = writer.into_inner()?;
    out.flush()?;
    let file = out.into_inner().map_err(|e| e.into_error())?;
    let bytes = file
        .temp_path()
        .and_then(|p| std::fs::metadata(p).ok())
        .map_or(0, |m| m.len());
    Ok((file, bytes))
}
