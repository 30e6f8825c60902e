//! The games and moves tables for Python: as Arrow C streams (the
//! `__arrow_c_stream__` protocol: pyarrow, polars, DuckDB take them
//! without a copy and without a Python object per row), and as Parquet
//! files.
//!
//! The rows are the library's [`GameRow`]s, numbered in input order and
//! gathered by [`BatchBuilder`] or written by [`ParquetWriter`]: the
//! columns, ids and sources are those of `sgf export`, by construction.
//!
//! - `tables()` (Python's `to_arrow`) scans with the GIL released and
//!   keeps both tables' batches in memory, then hands them over as two
//!   streams;
//! - `batches()` streams one table with bounded memory: a scan thread
//!   fills a bounded channel of record batches and the stream's consumer
//!   (pyarrow, without the GIL) takes them as they come;
//! - `export_parquet()` (`to_parquet`, the cluster's `export_shard`)
//!   writes Parquet files as the scan goes, with the GIL released.

use super::iter::{panic_text, spawn_scan, Rejected, ScanMsg, ScanReport};
use super::options::{Args, Spec};
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{RecordBatch, RecordBatchIterator, RecordBatchReader};
use arrow_schema::{ArrowError, SchemaRef};
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyCapsule;
use sgf_grove::input::ScanGame;
use sgf_grove::table::{
    games_schema, moves_schema, BatchBuilder, GameRow, ParquetOptions, ParquetWriter, RowWriter,
};
use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

/// Games per record batch.
const GAME_BATCH: usize = 65_536;
/// Moves per record batch.
const MOVE_BATCH: usize = 1 << 20;

/// An Arrow C stream of record batches, to be read once: pass it to
/// ``pyarrow.table()``, ``pyarrow.RecordBatchReader.from_stream()``,
/// ``polars.from_arrow()`` or DuckDB, which take it through the Arrow
/// PyCapsule protocol (``__arrow_c_stream__``).
#[pyclass(module = "sgf_grove._native", frozen)]
pub(crate) struct ArrowStream {
    reader: Mutex<Option<Box<dyn RecordBatchReader + Send>>>,
    schema: SchemaRef,
}

#[pymethods]
impl ArrowStream {
    /// The stream as a PyCapsule named ``arrow_array_stream`` holding an
    /// ``ArrowArrayStream`` (the Arrow C stream interface). A second call
    /// raises: the batches are handed over once.
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        // The schema is fixed; a consumer that asked for another one
        // casts (the protocol lets a producer ignore the request).
        let _ = requested_schema;
        let reader = self
            .reader
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .ok_or_else(|| PyRuntimeError::new_err("this Arrow stream was read already"))?;
        let stream = FFI_ArrowArrayStream::new(reader);
        PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
    }

    /// The names of the columns.
    #[getter]
    fn column_names(&self) -> Vec<String> {
        self.schema
            .fields()
            .iter()
            .map(|f| f.name().clone())
            .collect()
    }
}

impl ArrowStream {
    fn new(reader: Box<dyn RecordBatchReader + Send>) -> ArrowStream {
        ArrowStream {
            schema: reader.schema(),
            reader: Mutex::new(Some(reader)),
        }
    }

    fn of_batches(schema: SchemaRef, batches: Vec<RecordBatch>) -> ArrowStream {
        let reader = RecordBatchIterator::new(batches.into_iter().map(Ok), schema);
        ArrowStream::new(Box::new(reader))
    }
}

/// The row of one scanned game (with its moves when `moves`), or why the
/// filters left it out; `None` for warnings alone.
fn row(game: ScanGame<'_>, spec: &Spec, moves: bool) -> Option<Result<GameRow, Rejected>> {
    let tree = game.tree()?;
    let origin = game.origin().escaped();
    let offset = game.offset().unwrap_or(0) as u64;
    let row = if moves {
        GameRow::from_game(tree, &origin, offset)
    } else {
        GameRow::from_game_without_moves(tree, &origin, offset)
    };
    Some(match spec.filter.check(&row, tree) {
        Ok(()) => Ok(row),
        Err(reason) => Err(Rejected::filtered(origin, row.game, offset, reason)),
    })
}

/// Runs a scan on the calling thread (call it with the GIL released):
/// each kept row, numbered from `first_id` in input order, goes to `keep`;
/// the report counts the rest.
fn scan_rows(
    spec: &Spec,
    moves: bool,
    first_id: u64,
    mut keep: impl FnMut(GameRow) -> Result<(), String>,
) -> Result<ScanReport, String> {
    let mut report = ScanReport::default();
    let mut next_id = first_id;
    let mut failure = None;
    let stop = Arc::new(AtomicBool::new(false));
    let inputs = spec.inputs.clone().cancel_flag(stop.clone());
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        inputs.par_scan_games(
            spec.options,
            spec.workers,
            |game| row(game, spec, moves),
            |result| match result {
                Ok(None) => {}
                Ok(Some(Ok(row))) => {
                    report.add_game();
                    if let Err(e) = keep(row.with_id(next_id)) {
                        failure = Some(e);
                        stop.store(true, Ordering::Relaxed);
                    }
                    next_id += 1;
                }
                Ok(Some(Err(rejected))) => report.add_rejected(&rejected),
                Err(err) => report.add_rejected(&Rejected::of_error(&err)),
            },
        )
    }));
    match outcome {
        Ok(Ok(skipped)) => {
            if let Some(e) = failure {
                return Err(e);
            }
            report.finish(
                skipped
                    .counts()
                    .filter(|&(_, n)| n > 0)
                    .map(|(reason, n)| (reason.code().to_owned(), n))
                    .collect(),
            );
            Ok(report)
        }
        Ok(Err(err)) => Err(format!("cannot start the worker threads: {err}")),
        Err(panic) => Err(format!(
            "the scan failed (a bug in sgf_grove): {}",
            panic_text(&panic)
        )),
    }
}

/// tables(paths, moves=True, workers=None, select=None, *, strict=False, charset=None, names_only=False, sources=None, members=None, id_base=0)
/// --
///
/// The games table and (with ``moves``) the moves table of every game
/// under ``paths`` as two :class:`ArrowStream` objects (``None`` for the
/// moves when not asked for), and the scan's :class:`ScanReport`. What
/// :func:`sgf_grove.to_arrow` is built on.
#[pyfunction]
#[pyo3(signature = (paths, moves=true, workers=None, select=None, *, strict=false, charset=None, names_only=false, sources=None, members=None, id_base=0))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn tables(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    moves: bool,
    workers: Option<usize>,
    select: Option<&Bound<'_, PyAny>>,
    strict: bool,
    charset: Option<&str>,
    names_only: bool,
    sources: Option<(usize, usize)>,
    members: Option<(usize, usize)>,
    id_base: u64,
) -> PyResult<(ArrowStream, Option<ArrowStream>, ScanReport)> {
    let spec = Args {
        paths,
        workers,
        select,
        strict,
        charset,
        names_only,
        sources,
        members,
    }
    .spec()?;
    let (report, games, move_batches) = py
        .detach(|| {
            let mut builder = BatchBuilder::new(moves);
            let (mut games, mut move_batches) = (Vec::new(), Vec::new());
            let report = scan_rows(&spec, moves, id_base, |row| {
                builder.push(&row);
                if builder.game_rows() >= GAME_BATCH {
                    games.push(builder.finish_games().map_err(|e| e.to_string())?);
                }
                if builder.move_rows() >= MOVE_BATCH {
                    move_batches.push(builder.finish_moves().map_err(|e| e.to_string())?);
                }
                Ok(())
            })?;
            if builder.game_rows() > 0 || games.is_empty() {
                games.push(builder.finish_games().map_err(|e| e.to_string())?);
            }
            if moves && (builder.move_rows() > 0 || move_batches.is_empty()) {
                move_batches.push(builder.finish_moves().map_err(|e| e.to_string())?);
            }
            Ok::<_, String>((report, games, move_batches))
        })
        .map_err(PyRuntimeError::new_err)?;
    Ok((
        ArrowStream::of_batches(games_schema(), games),
        moves.then(|| ArrowStream::of_batches(moves_schema(), move_batches)),
        report,
    ))
}

/// A table's record batches as a scan thread sends them.
struct LiveBatches {
    schema: SchemaRef,
    rx: mpsc::Receiver<Result<RecordBatch, String>>,
    stop: Arc<AtomicBool>,
}

impl Iterator for LiveBatches {
    type Item = Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.rx.recv() {
            Ok(Ok(batch)) => Some(Ok(batch)),
            Ok(Err(e)) => Some(Err(ArrowError::ExternalError(e.into()))),
            Err(_) => None,
        }
    }
}

impl RecordBatchReader for LiveBatches {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

impl Drop for LiveBatches {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// batches(paths, table="games", workers=None, select=None, *, batch_rows=65536, strict=False, charset=None, names_only=False, sources=None, members=None)
/// --
///
/// One table (``"games"`` or ``"moves"``) of every game under ``paths``
/// as an :class:`ArrowStream` read while the scan goes on: memory stays a
/// few batches, whatever the inputs' size. Dropping the stream (or the
/// reader made of it) stops the scan.
#[pyfunction]
#[pyo3(signature = (paths, table="games", workers=None, select=None, *, batch_rows=65_536, strict=false, charset=None, names_only=false, sources=None, members=None))]
#[allow(clippy::too_many_arguments)]
fn batches(
    paths: &Bound<'_, PyAny>,
    table: &str,
    workers: Option<usize>,
    select: Option<&Bound<'_, PyAny>>,
    batch_rows: usize,
    strict: bool,
    charset: Option<&str>,
    names_only: bool,
    sources: Option<(usize, usize)>,
    members: Option<(usize, usize)>,
) -> PyResult<ArrowStream> {
    let moves = match table {
        "games" => false,
        "moves" => true,
        other => {
            return Err(PyValueError::new_err(format!(
                "table must be \"games\" or \"moves\", not {other:?}"
            )))
        }
    };
    let batch_rows = batch_rows.max(1);
    let spec = Args {
        paths,
        workers,
        select,
        strict,
        charset,
        names_only,
        sources,
        members,
    }
    .spec()?;
    let (tx, rx) = mpsc::sync_channel::<Result<RecordBatch, String>>(2);
    let stop = Arc::new(AtomicBool::new(false));
    let mut builder = BatchBuilder::new(moves);
    let mut next_id = 0u64;
    let send = move |msg: ScanMsg<Result<GameRow, Rejected>>| -> bool {
        let full = |b: &BatchBuilder| {
            if moves {
                b.move_rows() >= batch_rows
            } else {
                b.game_rows() >= batch_rows
            }
        };
        let take = |b: &mut BatchBuilder| {
            let batch = if moves {
                b.finish_moves()
            } else {
                b.finish_games()
            };
            batch.map_err(|e| e.to_string())
        };
        match msg {
            ScanMsg::Result(Ok(row)) => {
                builder.push(&row.with_id(next_id));
                next_id += 1;
                if full(&builder) {
                    return tx.send(take(&mut builder)).is_ok();
                }
                true
            }
            ScanMsg::Result(Err(_)) | ScanMsg::Error(_) => true,
            ScanMsg::End { error: Some(e), .. } => tx.send(Err(e)).is_ok(),
            ScanMsg::End { error: None, .. } => {
                let rows = if moves {
                    builder.move_rows()
                } else {
                    builder.game_rows()
                };
                rows == 0 || tx.send(take(&mut builder)).is_ok()
            }
        }
    };
    spawn_scan(spec, stop.clone(), move |g, s| row(g, s, moves), send)?;
    Ok(ArrowStream::new(Box::new(LiveBatches {
        schema: if moves {
            moves_schema()
        } else {
            games_schema()
        },
        rx,
        stop,
    })))
}

/// export_parquet(paths, games_path, moves_path=None, workers=None, select=None, *, strict=False, charset=None, names_only=False, sources=None, members=None, id_base=0)
/// --
///
/// Writes the games table of every game under ``paths`` to the Parquet
/// file ``games_path`` and, when given, the moves table to
/// ``moves_path``, as ``sgf export --format parquet`` does (the same
/// columns, encodings and ids, the ids counted from ``id_base``).
/// Returns the scan's :class:`ScanReport`. What
/// :func:`sgf_grove.to_parquet` and the cluster's ``export_shard`` call.
#[pyfunction]
#[pyo3(signature = (paths, games_path, moves_path=None, workers=None, select=None, *, strict=false, charset=None, names_only=false, sources=None, members=None, id_base=0))]
#[allow(clippy::too_many_arguments)]
fn export_parquet(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    games_path: PathBuf,
    moves_path: Option<PathBuf>,
    workers: Option<usize>,
    select: Option<&Bound<'_, PyAny>>,
    strict: bool,
    charset: Option<&str>,
    names_only: bool,
    sources: Option<(usize, usize)>,
    members: Option<(usize, usize)>,
    id_base: u64,
) -> PyResult<ScanReport> {
    let spec = Args {
        paths,
        workers,
        select,
        strict,
        charset,
        names_only,
        sources,
        members,
    }
    .spec()?;
    let create = |path: &PathBuf| {
        File::create(path)
            .map(BufWriter::new)
            .map_err(|e| PyOSError::new_err(format!("cannot write {}: {e}", path.display())))
    };
    let games = create(&games_path)?;
    let moves = moves_path.as_ref().map(create).transpose()?;
    let with_moves = moves.is_some();
    let mut writer = ParquetWriter::new(games, moves, ParquetOptions::new().moves(with_moves))
        .map_err(|e| PyOSError::new_err(e.to_string()))?;
    py.detach(|| {
        let report = scan_rows(&spec, with_moves, id_base, |row| {
            writer.write_row(&row).map_err(|e| e.to_string())
        })?;
        writer.finish().map_err(|e| e.to_string())?;
        Ok::<_, String>(report)
    })
    .map_err(PyOSError::new_err)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<ArrowStream>()?;
    m.add_function(wrap_pyfunction!(tables, m)?)?;
    m.add_function(wrap_pyfunction!(batches, m)?)?;
    m.add_function(wrap_pyfunction!(export_parquet, m)?)?;
    Ok(())
}
