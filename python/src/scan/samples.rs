//! `samples()`: training samples (the library's `samples` module) of
//! every game a scan reads, shuffled, in batches of fixed-size records.
//!
//! A background thread runs the scan: the workers turn each game into
//! records ([`Encoder`]), and the scan thread, taking them in input
//! order, numbers the games, passes the records through a [`Shuffler`]
//! and sends batches of `batch_size` records through a bounded channel.
//! The Python thread takes a batch in `__next__` (waiting with the GIL
//! released) as one `bytes` object, which the Python package views as
//! NumPy arrays without a copy per sample. Memory: the window, two
//! batches in the channel, and the scan's own bounded window of games.
//!
//! The same inputs, options and seed give the same batches whatever the
//! number of workers (the order of a one-thread scan).

use super::iter::{panic_text, spawn_scan, Rejected, ScanMsg, ScanReport};
use super::options::{Args, Spec};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use sgf_grove::input::ScanGame;
use sgf_grove::samples::{
    set_game, Augment, Encoder, Extras, GameMeta, Layout, SampleOptions, Shuffler, Stop, COLUMNS,
    MAX_HISTORY,
};
use sgf_grove::table::GameRow;
use sgf_grove::value::BoardSize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

/// Batches the channel holds before the scan waits for Python.
const CHANNEL: usize = 2;
/// The most records a batch may be asked to hold.
const MAX_BATCH: usize = 1 << 20;
/// Games cut short that the report keeps (the rest are counted).
const MAX_CUT: usize = 1000;

/// What a worker made of one game.
enum Made {
    /// The game's records (its `game` column still 0).
    Samples {
        records: Vec<u8>,
        stop: Option<Stop>,
        source: String,
        index: u64,
        offset: u64,
    },
    /// Kept by the filters, but it gives no samples: a board of another
    /// size, or no move to learn from.
    Empty(Rejected),
    /// Left out by the filters.
    Filtered(Rejected),
}

/// What the scan thread sends.
enum Msg {
    Batch(Vec<u8>),
    End(Option<String>),
}

/// What the scan has read so far, shared by the scan thread and Python.
#[derive(Default)]
struct Tally {
    report: ScanReport,
    samples: u64,
    cut: Vec<Rejected>,
    cut_total: u64,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The text of a stop, for the report.
fn stop_words(stop: Stop) -> (&'static str, String) {
    match stop {
        Stop::Illegal(n) => ("illegal_move", format!("samples end at move {n}, illegal")),
        Stop::Unreadable(n) => ("bad_move", format!("samples end at move {n}, not a move")),
        Stop::Limit(n) => (
            "replay_limit",
            format!("samples end at move {n}, a replay limit"),
        ),
    }
}

/// The records of one game, on a worker.
fn make(game: ScanGame<'_>, spec: &Spec, layout: &Layout) -> Option<Made> {
    let tree = game.tree()?;
    let source = game.origin().escaped();
    let offset = game.offset().unwrap_or(0) as u64;
    let index = game.index().unwrap_or(0) as u64;
    let row = GameRow::from_game_without_moves(tree, &source, offset);
    if let Err(reason) = spec.filter.check(&row, tree) {
        return Some(Made::Filtered(Rejected::filtered(
            source, index, offset, reason,
        )));
    }
    if tree.game_type() != 1 {
        let message = format!("a game of GM[{}], not of Go", tree.game_type());
        return Some(Made::Empty(Rejected::game(
            source, index, offset, "not_go", message,
        )));
    }
    let size = tree.board_size();
    if size != layout.board() {
        let b = layout.board();
        let message = format!(
            "a {}x{} board, not the samples' {}x{}",
            size.cols, size.rows, b.cols, b.rows
        );
        return Some(Made::Empty(Rejected::game(
            source, index, offset, "board", message,
        )));
    }
    let mut records = Vec::new();
    let done = Encoder::new(layout).encode(tree, &GameMeta::of(&row), &mut records);
    if done.samples == 0 {
        let message = match done.stop {
            Some(stop) => stop_words(stop).1,
            None => "no move in its main line".to_owned(),
        };
        return Some(Made::Empty(Rejected::game(
            source, index, offset, "no_moves", message,
        )));
    }
    Some(Made::Samples {
        records,
        stop: done.stop,
        source,
        index,
        offset,
    })
}

/// The scan thread's end: numbers games, shuffles, batches.
struct Sender {
    layout: Layout,
    shuffler: Shuffler,
    batch: Vec<u8>,
    batch_bytes: usize,
    next_id: i64,
    tx: SyncSender<Msg>,
    tally: Arc<Mutex<Tally>>,
    /// Set when Python stopped the scan: its end is no finished scan.
    stop: Arc<AtomicBool>,
}

impl Sender {
    /// Sends the batch when it is full (`force`: when it holds anything);
    /// `false` once Python is gone.
    fn flush(batch: &mut Vec<u8>, batch_bytes: usize, tx: &SyncSender<Msg>, force: bool) -> bool {
        let full = batch.len() >= batch_bytes;
        let last = force && !batch.is_empty();
        if !full && !last {
            return true;
        }
        let full = std::mem::replace(batch, Vec::with_capacity(batch_bytes));
        tx.send(Msg::Batch(full)).is_ok()
    }

    fn take(&mut self, msg: ScanMsg<Made>) -> bool {
        let (batch, batch_bytes, tx) = (&mut self.batch, self.batch_bytes, &self.tx);
        let emit = |record: &[u8]| {
            batch.extend_from_slice(record);
            if Sender::flush(batch, batch_bytes, tx, false) {
                Ok(())
            } else {
                Err(())
            }
        };
        match msg {
            ScanMsg::Result(Made::Samples {
                mut records,
                stop,
                source,
                index,
                offset,
            }) => {
                set_game(&self.layout, &mut records, self.next_id);
                self.next_id += 1;
                {
                    let mut tally = lock(&self.tally);
                    tally.report.add_game();
                    tally.samples += (records.len() / self.layout.record_len()) as u64;
                    if let Some(stop) = stop {
                        tally.cut_total += 1;
                        if tally.cut.len() < MAX_CUT {
                            let (reason, message) = stop_words(stop);
                            tally
                                .cut
                                .push(Rejected::game(source, index, offset, reason, message));
                        }
                    }
                }
                self.shuffler.push(&records, emit).is_ok()
            }
            ScanMsg::Result(Made::Empty(rejected)) => {
                // It has an id all the same: the ids are those of the
                // games table of `to_arrow` with the same paths and select.
                self.next_id += 1;
                lock(&self.tally).report.add_rejected(&rejected);
                true
            }
            ScanMsg::Result(Made::Filtered(rejected)) => {
                lock(&self.tally).report.add_rejected(&rejected);
                true
            }
            ScanMsg::Error(err) => {
                lock(&self.tally)
                    .report
                    .add_rejected(&Rejected::of_error(&err));
                true
            }
            ScanMsg::End { skipped, error } => {
                if self.stop.load(Ordering::Relaxed) {
                    return false;
                }
                if error.is_none() {
                    lock(&self.tally).report.finish(skipped);
                    if self.shuffler.finish(emit).is_err()
                        || !Sender::flush(&mut self.batch, batch_bytes, tx, true)
                    {
                        return false;
                    }
                }
                tx.send(Msg::End(error)).is_ok()
            }
        }
    }
}

/// Reads `board`: a side (`19`) or `(cols, rows)`, 1 to 52 each.
fn board_size(board: &Bound<'_, PyAny>) -> PyResult<BoardSize> {
    let (cols, rows) = if let Ok(n) = board.extract::<u32>() {
        (n, n)
    } else if let Ok(pair) = board.extract::<(u32, u32)>() {
        pair
    } else {
        return Err(PyValueError::new_err(
            "board must be a side (19) or a pair (columns, rows)",
        ));
    };
    let side = |n: u32| u8::try_from(n).ok().filter(|n| (1..=52).contains(n));
    match (side(cols), side(rows)) {
        (Some(cols), Some(rows)) => Ok(BoardSize { cols, rows }),
        _ => Err(PyValueError::new_err(format!(
            "board {cols}x{rows}: each side must be 1 to 52"
        ))),
    }
}

/// An iterator over batches of sample records: made by
/// :func:`sgf_grove.samples`, which turns each batch into NumPy arrays.
/// Each item is ``(records, n)``: ``n`` records of
/// ``layout["record_len"]`` bytes.
#[pyclass(module = "sgf_grove._native")]
pub(crate) struct SampleStream {
    rx: Mutex<Option<Receiver<Msg>>>,
    /// Whether the stream is over (its end came, or `close()`); until
    /// then a missing receiver is one another Python thread waits on.
    ended: AtomicBool,
    thread: Mutex<Option<JoinHandle<()>>>,
    stop: Arc<AtomicBool>,
    tally: Arc<Mutex<Tally>>,
    layout: Layout,
    /// Records handed to Python so far.
    yielded: Mutex<u64>,
}

impl Drop for SampleStream {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

#[pymethods]
impl SampleStream {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<(Bound<'py, PyBytes>, usize)>> {
        loop {
            // Taken out while waiting (with the GIL released), so that a
            // second Python thread finds none and ends instead of waiting.
            let Some(rx) = lock(&self.rx).take() else {
                if self.ended.load(Ordering::Acquire) {
                    return Ok(None);
                }
                // Another thread waits on the channel: wait for it.
                py.detach(|| std::thread::sleep(Duration::from_millis(2)));
                py.check_signals()?;
                continue;
            };
            let (rx, got) = py.detach(move || {
                let got = rx.recv_timeout(Duration::from_millis(100));
                (rx, got)
            });
            match got {
                Ok(Msg::Batch(records)) => {
                    *lock(&self.rx) = Some(rx);
                    let n = records.len() / self.layout.record_len();
                    *lock(&self.yielded) += n as u64;
                    return Ok(Some((PyBytes::new(py, &records), n)));
                }
                Ok(Msg::End(error)) => {
                    self.ended.store(true, Ordering::Release);
                    self.join(py);
                    return match error {
                        Some(e) => Err(PyRuntimeError::new_err(e)),
                        None => Ok(None),
                    };
                }
                Err(RecvTimeoutError::Timeout) => {
                    *lock(&self.rx) = Some(rx);
                    // Ctrl-C and other signals are seen while waiting.
                    py.check_signals()?;
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.ended.store(true, Ordering::Release);
                    self.join(py);
                    return if self.stop.load(Ordering::Relaxed) {
                        Ok(None)
                    } else {
                        Err(PyRuntimeError::new_err(
                            "the samples thread ended without a word",
                        ))
                    };
                }
            }
        }
    }

    /// The layout of the records: ``plane_names``, ``planes``,
    /// ``plane_bytes``, ``features_len``, ``record_len``, ``cols``,
    /// ``rows``, and ``columns``: ``(name, numpy dtype, byte offset in
    /// the record, what it holds)`` for each column after the planes.
    #[getter]
    fn layout<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        layout_dict(py, &self.layout)
    }

    /// What the scan has read so far (live), as a :class:`ScanReport`:
    /// ``games`` gave samples; ``rejected`` counts the games left out by
    /// ``select``, inputs that failed, and games that gave none (reason
    /// ``"board"``: another board size; ``"not_go"``: another game than
    /// Go; ``"no_moves"``).
    #[getter]
    fn report(&self) -> ScanReport {
        lock(&self.tally).report.clone()
    }

    /// Samples made so far (some may still wait in the shuffling
    /// window).
    #[getter]
    fn samples_made(&self) -> u64 {
        lock(&self.tally).samples
    }

    /// Samples handed to Python so far.
    #[getter]
    fn samples_yielded(&self) -> u64 {
        *lock(&self.yielded)
    }

    /// The games whose samples stop before the end of the main line (an
    /// illegal move, a move that does not read, a replay limit), as
    /// :class:`Rejected` items with reason ``"illegal_move"``,
    /// ``"bad_move"`` or ``"replay_limit"``: the first 1,000; see
    /// :attr:`cut_total` for all.
    #[getter]
    fn cut(&self) -> Vec<Rejected> {
        lock(&self.tally).cut.clone()
    }

    /// Games cut short, all counted.
    #[getter]
    fn cut_total(&self) -> u64 {
        lock(&self.tally).cut_total
    }

    /// Stops the scan and waits for its threads (with the GIL released).
    fn close(&self, py: Python<'_>) {
        self.stop.store(true, Ordering::Relaxed);
        self.ended.store(true, Ordering::Release);
        drop(lock(&self.rx).take());
        self.join(py);
    }
}

impl SampleStream {
    fn join(&self, py: Python<'_>) {
        if let Some(thread) = lock(&self.thread).take() {
            py.detach(move || {
                let _ = thread.join();
            });
        }
    }
}

fn layout_dict<'py>(py: Python<'py>, layout: &Layout) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("plane_names", layout.plane_names())?;
    d.set_item("planes", layout.planes())?;
    d.set_item("plane_bytes", layout.plane_bytes())?;
    d.set_item("features_len", layout.features_len())?;
    d.set_item("record_len", layout.record_len())?;
    d.set_item("cols", layout.board().cols)?;
    d.set_item("rows", layout.board().rows)?;
    let mut at = layout.features_len();
    let mut columns = Vec::new();
    for c in COLUMNS {
        columns.push((c.name, c.dtype.numpy(), at, c.doc));
        at += c.dtype.size();
    }
    d.set_item("columns", columns)?;
    Ok(d)
}

/// sample_stream(paths, board=19, history=8, planes="none", augment="none", seed=0, batch_size=4096, window=65536, workers=None, select=None, *, strict=False, charset=None, names_only=False, sources=None, members=None)
/// --
///
/// The samples of every game under ``paths`` as a :class:`SampleStream`
/// of record batches: what :func:`sgf_grove.samples` is built on.
#[pyfunction]
#[pyo3(signature = (paths, board=None, history=8, planes="none", augment="none", seed=0, batch_size=4096, window=65_536, workers=None, select=None, *, strict=false, charset=None, names_only=false, sources=None, members=None))]
#[allow(clippy::too_many_arguments)]
fn sample_stream(
    paths: &Bound<'_, PyAny>,
    board: Option<&Bound<'_, PyAny>>,
    history: usize,
    planes: &str,
    augment: &str,
    seed: u64,
    batch_size: usize,
    window: usize,
    workers: Option<usize>,
    select: Option<&Bound<'_, PyAny>>,
    strict: bool,
    charset: Option<&str>,
    names_only: bool,
    sources: Option<(usize, usize)>,
    members: Option<(usize, usize)>,
) -> PyResult<SampleStream> {
    let size = match board {
        Some(b) if !b.is_none() => board_size(b)?,
        _ => BoardSize { cols: 19, rows: 19 },
    };
    if !(1..=MAX_HISTORY).contains(&history) {
        return Err(PyValueError::new_err(format!(
            "history must be 1 to {MAX_HISTORY}, not {history}"
        )));
    }
    if !(1..=MAX_BATCH).contains(&batch_size) {
        return Err(PyValueError::new_err(format!(
            "batch_size must be 1 to {MAX_BATCH}, not {batch_size}"
        )));
    }
    let extras = Extras::parse(planes).map_err(PyValueError::new_err)?;
    let augment = Augment::parse(augment).map_err(PyValueError::new_err)?;
    let layout = SampleOptions::new()
        .board(size)
        .history(history)
        .extras(extras)
        .augment(augment)
        .seed(seed)
        .layout();
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
    let (tx, rx) = mpsc::sync_channel::<Msg>(CHANNEL);
    let stop = Arc::new(AtomicBool::new(false));
    let tally = Arc::new(Mutex::new(Tally::default()));
    let record = layout.record_len();
    let mut sender = Sender {
        layout: layout.clone(),
        shuffler: Shuffler::new(record, window, seed),
        batch: Vec::new(),
        batch_bytes: batch_size * record,
        next_id: 0,
        tx,
        tally: tally.clone(),
        stop: stop.clone(),
    };
    let work_layout = layout.clone();
    let thread = spawn_scan(
        spec,
        stop.clone(),
        move |game, spec| make(game, spec, &work_layout),
        move |msg| {
            let outcome =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| sender.take(msg)));
            match outcome {
                Ok(going) => going,
                Err(panic) => {
                    let _ = sender.tx.send(Msg::End(Some(format!(
                        "the samples failed (a bug in sgf_grove): {}",
                        panic_text(&panic)
                    ))));
                    false
                }
            }
        },
    )?;
    Ok(SampleStream {
        rx: Mutex::new(Some(rx)),
        ended: AtomicBool::new(false),
        thread: Mutex::new(Some(thread)),
        stop,
        tally,
        layout,
        yielded: Mutex::new(0),
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<SampleStream>()?;
    m.add_function(wrap_pyfunction!(sample_stream, m)?)?;
    Ok(())
}
