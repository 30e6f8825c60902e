//! `scan()`: games read on Rust threads, handed to Python one at a time.
//!
//! A background thread runs [`Inputs::par_scan_games`] (which starts the
//! workers) and sends its results, in the order of a one-thread scan,
//! through a bounded channel of [`BATCH`]-item batches. Each game is the
//! worker's parse of it, copied out of the worker's parser
//! ([`ScanGame::to_owned_game`]: records and bytes, no second parse), so
//! that the Python thread, which takes the batches in `__next__` (waiting
//! with the GIL released), only wraps each in a `Game`
//! (`core::game_from_scan`). Memory is the channel's [`CHANNEL`] batches
//! plus the scan's own bounded window.
//!
//! Dropping or closing the iterator sets the scan's cancel flag
//! ([`Inputs::cancel_flag`]) and drops the receiver: the reading stops at
//! the next game, and the threads end.

use super::options::{Args, Spec};
use crate::core::{game_from_scan, Source};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use sgf_grove::input::{InputError, Inputs, ScanGame};
use sgf_grove::table::{GameRow, Reason};
use sgf_grove::Warning;
use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Results sent at once (one channel operation, one wake-up of the Python
/// thread, per batch).
const BATCH: usize = 64;
/// Batches the channel holds before the scan waits for Python.
const CHANNEL: usize = 8;
/// Errors the report keeps (the rest are counted).
const MAX_ERRORS: usize = 1000;

/// One result of the scan, as the worker made it.
pub(crate) enum Item {
    /// A game that passed the filters, as the scan parsed it, and where
    /// it is.
    Game {
        source: Source,
        origin: String,
        offset: u64,
        index: usize,
        warnings: Vec<Warning>,
    },
    /// A game the filters left out, or an input or game that failed.
    Rejected(Rejected),
}

/// What the background thread sends.
enum Msg {
    Items(Vec<Item>),
    /// The scan is over: what it skipped, and why it stopped early if it
    /// did.
    End {
        skipped: Vec<(String, u64)>,
        error: Option<String>,
    },
}

/// A game left out of a scan, or an input that could not be read, in its
/// place in the scan's order.
///
/// ``reason`` is the first filter the game failed (``"size"``,
/// ``"komi"``, ``"rank"``, … as in ``select``) or the kind of failure
/// (``"parse"`` for a game the parser refused, ``"corrupt_input"``,
/// ``"not_sgf_text"``, ``"io"``, ``"no_sgf_files"`` …); ``message`` says
/// it in words, with a line and column for a parse error.
///
/// >>> import sgf_grove, tempfile, os
/// >>> d = tempfile.mkdtemp()
/// >>> _ = open(os.path.join(d, "a.sgf"), "w").write("(;SZ[9];B[ee])(;SZ[19];B[pd])")
/// >>> [r.reason for r in sgf_grove.scan(d, select={"size": 19}, rejected=True) if isinstance(r, sgf_grove.Rejected)]
/// ['size']
#[pyclass(module = "sgf_grove._native", frozen, get_all)]
#[derive(Clone, Debug)]
pub(crate) struct Rejected {
    /// Where: a file, or ``archive!member``, as the ``source`` column of
    /// the tables names it.
    source: String,
    /// The game's number in its source, from 0; ``None`` when a whole
    /// input failed.
    game: Option<u64>,
    /// The game's byte offset in its source; ``None`` when a whole input
    /// failed.
    offset: Option<u64>,
    /// Why, as a short code.
    reason: String,
    /// Why, in words.
    message: String,
}

#[pymethods]
impl Rejected {
    fn __repr__(&self) -> String {
        match self.game {
            Some(game) => format!(
                "Rejected(source={:?}, game={game}, reason={:?})",
                self.source, self.reason
            ),
            None => format!(
                "Rejected(source={:?}, reason={:?}, message={:?})",
                self.source, self.reason, self.message
            ),
        }
    }
}

impl Rejected {
    /// A game left out (or cut short) for `reason`, said in `message`.
    pub(crate) fn game(
        source: String,
        game: u64,
        offset: u64,
        reason: &str,
        message: String,
    ) -> Rejected {
        Rejected {
            source,
            game: Some(game),
            offset: Some(offset),
            reason: reason.to_owned(),
            message,
        }
    }

    /// A game the filter left out for `reason`.
    pub(crate) fn filtered(source: String, game: u64, offset: u64, reason: Reason) -> Rejected {
        Rejected {
            source,
            game: Some(game),
            offset: Some(offset),
            reason: reason.code().to_owned(),
            message: format!("left out by the {reason} filter"),
        }
    }

    /// An input or game that failed.
    pub(crate) fn of_error(err: &InputError) -> Rejected {
        Rejected {
            source: err.origin().escaped(),
            game: None,
            offset: None,
            reason: err.kind().code().to_owned(),
            message: err.to_string(),
        }
    }
}

/// What a scan has seen so far: the games it yielded, the games and
/// inputs it left out by reason, the first errors, and (once it is over)
/// what it skipped. Counts are of the results the iterator has handed
/// on (or passed over), so they are exact at any point of the iteration.
///
/// >>> import sgf_grove, tempfile, os
/// >>> d = tempfile.mkdtemp()
/// >>> _ = open(os.path.join(d, "a.sgf"), "w").write("(;SZ[9];B[ee])(;SZ[19];B[pd])")
/// >>> _ = open(os.path.join(d, "notes.txt"), "w").write("not a game")
/// >>> games = sgf_grove.scan(d, select={"size": 19})
/// >>> len(list(games))
/// 1
/// >>> r = games.report
/// >>> (r.games, r.rejected, r.skipped, r.finished)
/// (1, {'size': 1}, {'not_sgf': 1}, True)
#[pyclass(module = "sgf_grove._native")]
#[derive(Clone, Debug, Default)]
pub(crate) struct ScanReport {
    games: u64,
    rejected: BTreeMap<String, u64>,
    errors: Vec<Rejected>,
    errors_dropped: u64,
    skipped: Vec<(String, u64)>,
    finished: bool,
}

#[pymethods]
impl ScanReport {
    /// Games yielded (they passed the filters).
    #[getter]
    fn games(&self) -> u64 {
        self.games
    }

    /// Games left out and inputs that failed, by reason: ``{"komi": 3,
    /// "parse": 1}``.
    #[getter]
    fn rejected<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (reason, n) in &self.rejected {
            dict.set_item(reason, n)?;
        }
        Ok(dict)
    }

    /// All of :attr:`rejected` added up.
    #[getter]
    fn rejected_total(&self) -> u64 {
        self.rejected.values().sum()
    }

    /// The failures (not the games a filter left out), in order, as
    /// :class:`Rejected` items: the first 1,000; the rest are counted in
    /// :attr:`errors_dropped`.
    #[getter]
    fn errors(&self) -> Vec<Rejected> {
        self.errors.clone()
    }

    /// Failures past the first 1,000, counted only.
    #[getter]
    fn errors_dropped(&self) -> u64 {
        self.errors_dropped
    }

    /// What the scan passed over, by reason (``not_sgf``, ``unreadable``,
    /// ``not_regular``); known once the scan is over.
    #[getter]
    fn skipped<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (reason, n) in &self.skipped {
            dict.set_item(reason, n)?;
        }
        Ok(dict)
    }

    /// Whether the scan has read everything (it was not stopped early).
    #[getter]
    fn finished(&self) -> bool {
        self.finished
    }

    /// The report as plain data (picklable, JSON-ready): ``games``,
    /// ``rejected``, ``skipped`` (dicts of counts), ``errors`` (``[source,
    /// reason, message]`` lists), ``errors_dropped``, ``finished``.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("games", self.games)?;
        dict.set_item("rejected", self.rejected(py)?)?;
        dict.set_item("skipped", self.skipped(py)?)?;
        let errors: Vec<[&str; 3]> = self
            .errors
            .iter()
            .map(|e| [e.source.as_str(), e.reason.as_str(), e.message.as_str()])
            .collect();
        dict.set_item("errors", errors)?;
        dict.set_item("errors_dropped", self.errors_dropped)?;
        dict.set_item("finished", self.finished)?;
        Ok(dict)
    }

    fn __repr__(&self) -> String {
        format!(
            "ScanReport(games={}, rejected={:?}, skipped={:?}, finished={})",
            self.games,
            self.rejected,
            self.skipped.iter().cloned().collect::<BTreeMap<_, _>>(),
            self.finished
        )
    }
}

impl ScanReport {
    fn count(&mut self, item: &Item) {
        match item {
            Item::Game { .. } => self.add_game(),
            Item::Rejected(r) => self.add_rejected(r),
        }
    }

    /// Counts a game kept.
    pub(crate) fn add_game(&mut self) {
        self.games += 1;
    }

    /// Counts a game left out or an input that failed (and keeps the
    /// first failures).
    pub(crate) fn add_rejected(&mut self, r: &Rejected) {
        *self.rejected.entry(r.reason.clone()).or_default() += 1;
        if r.game.is_none() || r.reason == "parse" {
            if self.errors.len() < MAX_ERRORS {
                self.errors.push(r.clone());
            } else {
                self.errors_dropped += 1;
            }
        }
    }

    /// The scan read everything; it skipped these.
    pub(crate) fn finish(&mut self, skipped: Vec<(String, u64)>) {
        self.skipped = skipped;
        self.finished = true;
    }
}

/// The Python thread's end of a scan.
struct State {
    rx: Option<Receiver<Msg>>,
    buffer: VecDeque<Item>,
    thread: Option<JoinHandle<()>>,
    /// The error the scan ended with, raised once its results are out.
    error: Option<String>,
    /// Whether the channel is done with (the end came, or `close()`);
    /// until then a missing receiver is one another Python thread is
    /// waiting on.
    ended: bool,
}

/// An iterator over the games of a scan, in input order (the same for
/// any number of workers). Made by :func:`sgf_grove.scan`; see there.
#[pyclass(module = "sgf_grove._native")]
pub(crate) struct Scan {
    state: Mutex<State>,
    stop: Arc<AtomicBool>,
    report: Py<ScanReport>,
    yield_rejected: bool,
}

impl Drop for Scan {
    fn drop(&mut self) {
        // The thread sees the flag (or the closed channel) and ends.
        self.stop.store(true, Ordering::Relaxed);
    }
}

#[pymethods]
impl Scan {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(slf: PyRef<'_, Self>, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        loop {
            let next = lock(&slf.state).buffer.pop_front();
            if let Some(item) = next {
                slf.report.borrow_mut(py).count(&item);
                match item {
                    Item::Game {
                        source,
                        origin,
                        offset,
                        index,
                        warnings,
                    } => {
                        let game = game_from_scan(py, source, origin, offset, index, warnings)?;
                        return Ok(Some(game.into_any()));
                    }
                    Item::Rejected(r) if slf.yield_rejected => {
                        return Ok(Some(Py::new(py, r)?.into_any()));
                    }
                    Item::Rejected(_) => continue,
                }
            }
            let (rx, ended) = {
                let mut state = lock(&slf.state);
                (state.rx.take(), state.ended)
            };
            let Some(rx) = rx else {
                if !ended {
                    // Another thread waits on the channel: wait for what
                    // it brings in.
                    py.detach(|| std::thread::sleep(Duration::from_millis(2)));
                    py.check_signals()?;
                    continue;
                }
                let error = lock(&slf.state).error.take();
                return match error {
                    Some(e) => Err(PyRuntimeError::new_err(e)),
                    None => Ok(None),
                };
            };
            // Without waiting first; with the GIL released when it must.
            let got = match rx.try_recv() {
                Ok(msg) => {
                    lock(&slf.state).rx = Some(rx);
                    Ok(msg)
                }
                Err(TryRecvError::Disconnected) => Err(()),
                Err(TryRecvError::Empty) => {
                    let (rx, got) = py.detach(move || {
                        let got = rx.recv_timeout(Duration::from_millis(100));
                        (rx, got)
                    });
                    lock(&slf.state).rx = Some(rx);
                    match got {
                        Ok(msg) => Ok(msg),
                        Err(RecvTimeoutError::Timeout) => {
                            // Ctrl-C and other signals are seen while waiting.
                            py.check_signals()?;
                            continue;
                        }
                        Err(RecvTimeoutError::Disconnected) => Err(()),
                    }
                }
            };
            slf.receive(py, got);
        }
    }

    /// The report of the scan so far (live: it grows as the iteration
    /// goes on).
    #[getter]
    fn report(&self, py: Python<'_>) -> Py<ScanReport> {
        self.report.clone_ref(py)
    }

    /// Stops the scan: the Rust threads stop reading and end (this waits
    /// for them, with the GIL released). Iterating after it gives
    /// nothing. Called on leaving a ``with`` block, and (without the
    /// wait) when the iterator is dropped.
    fn close(&self, py: Python<'_>) {
        self.stop.store(true, Ordering::Relaxed);
        let (rx, thread) = {
            let mut state = lock(&self.state);
            state.buffer.clear();
            state.ended = true;
            (state.rx.take(), state.thread.take())
        };
        drop(rx);
        if let Some(thread) = thread {
            py.detach(move || {
                let _ = thread.join();
            });
        }
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, py: Python<'_>, _args: &Bound<'_, pyo3::types::PyTuple>) -> bool {
        self.close(py);
        false
    }
}

impl Scan {
    /// Takes in a message (or the end of the channel).
    fn receive(&self, py: Python<'_>, got: Result<Msg, ()>) {
        let mut state = lock(&self.state);
        match got {
            Ok(Msg::Items(items)) => state.buffer.extend(items),
            Ok(Msg::End { skipped, error }) => {
                state.rx = None;
                state.ended = true;
                if let Some(thread) = state.thread.take() {
                    drop(state);
                    py.detach(move || {
                        let _ = thread.join();
                    });
                    state = lock(&self.state);
                }
                state.error = error;
                let mut report = self.report.borrow_mut(py);
                report.skipped = skipped;
                report.finished = !self.stop.load(Ordering::Relaxed) && state.error.is_none();
            }
            Err(()) => {
                state.rx = None;
                state.ended = true;
                if !self.stop.load(Ordering::Relaxed) {
                    state.error = Some("the scan's thread ended without a word".to_owned());
                }
            }
        }
    }
}

fn lock(state: &Mutex<State>) -> std::sync::MutexGuard<'_, State> {
    state.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs a scan on a thread of its own: `work` turns each game into a
/// result on the workers, and the results go to `send` in input order
/// (`send` returning `false` stops the scan). Returns the thread, and the
/// flag that stops it.
pub(crate) fn spawn_scan<R, W>(
    spec: Spec,
    stop: Arc<AtomicBool>,
    work: W,
    mut send: impl FnMut(ScanMsg<R>) -> bool + Send + 'static,
) -> PyResult<JoinHandle<()>>
where
    R: Send + 'static,
    W: Fn(ScanGame<'_>, &Spec) -> Option<R> + Sync + Send + 'static,
{
    std::thread::Builder::new()
        .name("sgf-scan".to_owned())
        .spawn(move || {
            let inputs: Inputs = spec.inputs.clone().cancel_flag(stop.clone());
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                inputs.par_scan_games(
                    spec.options,
                    spec.workers,
                    |game| work(game, &spec),
                    |result| {
                        if stop.load(Ordering::Relaxed) {
                            return;
                        }
                        let msg = match result {
                            Ok(Some(r)) => ScanMsg::Result(r),
                            Ok(None) => return,
                            Err(err) => ScanMsg::Error(err),
                        };
                        if !send(msg) {
                            stop.store(true, Ordering::Relaxed);
                        }
                    },
                )
            }));
            let end = match outcome {
                Ok(Ok(skipped)) => ScanMsg::End {
                    skipped: skipped
                        .counts()
                        .filter(|&(_, n)| n > 0)
                        .map(|(reason, n)| (reason.code().to_owned(), n))
                        .collect(),
                    error: None,
                },
                Ok(Err(err)) => ScanMsg::End {
                    skipped: Vec::new(),
                    error: Some(format!("cannot start the worker threads: {err}")),
                },
                Err(panic) => ScanMsg::End {
                    skipped: Vec::new(),
                    error: Some(format!(
                        "the scan failed (a bug in sgf_grove): {}",
                        panic_text(&panic)
                    )),
                },
            };
            send(end);
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start the scan's thread: {e}")))
}

/// What [`spawn_scan`] hands on, in order.
pub(crate) enum ScanMsg<R> {
    /// A game's result.
    Result(R),
    /// An input or game that failed.
    Error(InputError),
    /// The end: what was skipped, and the error that ended the scan early.
    End {
        skipped: Vec<(String, u64)>,
        error: Option<String>,
    },
}

/// The text of a panic's payload.
pub(crate) fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".to_owned())
}

/// The item of one scanned game: the game, or why the filters left it
/// out; `None` for warnings alone after a member's last game.
fn item(game: ScanGame<'_>, spec: &Spec) -> Option<Item> {
    let tree = game.tree()?;
    let offset = game.offset().unwrap_or(0) as u64;
    let index = game.index().unwrap_or(0);
    if !spec.filter.is_empty() {
        let row = GameRow::from_game_without_moves(tree, "", offset);
        if let Err(reason) = spec.filter.check(&row, tree) {
            let source = game.origin().escaped();
            let rejected = Rejected::filtered(source, index as u64, offset, reason);
            return Some(Item::Rejected(rejected));
        }
    }
    // The worker's parse, copied out of its parser (not parsed again).
    Some(Item::Game {
        source: Source::scanned(game.to_owned_game()?),
        origin: game.origin().escaped(),
        offset,
        index,
        warnings: game.warnings().to_vec(),
    })
}

/// scan(paths, workers=None, select=None, *, rejected=False, strict=False, charset=None, names_only=False, sources=None, members=None)
/// --
///
/// The games under ``paths``, read on Rust threads: see
/// :func:`sgf_grove.scan`.
#[pyfunction]
#[pyo3(signature = (paths, workers=None, select=None, *, rejected=false, strict=false, charset=None, names_only=false, sources=None, members=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn scan(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    workers: Option<usize>,
    select: Option<&Bound<'_, PyAny>>,
    rejected: bool,
    strict: bool,
    charset: Option<&str>,
    names_only: bool,
    sources: Option<(usize, usize)>,
    members: Option<(usize, usize)>,
) -> PyResult<Scan> {
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
    let thread = spawn_scan(spec, stop.clone(), item, batcher(tx))?;
    Ok(Scan {
        state: Mutex::new(State {
            rx: Some(rx),
            buffer: VecDeque::new(),
            thread: Some(thread),
            error: None,
            ended: false,
        }),
        stop,
        report: Py::new(py, ScanReport::default())?,
        yield_rejected: rejected,
    })
}

/// Gathers the scan's results into batches for the channel; `false` once
/// the Python side is gone.
fn batcher(tx: SyncSender<Msg>) -> impl FnMut(ScanMsg<Item>) -> bool + Send + 'static {
    let mut batch = Vec::with_capacity(BATCH);
    move |msg| {
        let item = match msg {
            ScanMsg::Result(item) => item,
            ScanMsg::Error(err) => Item::Rejected(Rejected::of_error(&err)),
            ScanMsg::End { skipped, error } => {
                let items = std::mem::take(&mut batch);
                return (items.is_empty() || tx.send(Msg::Items(items)).is_ok())
                    && tx.send(Msg::End { skipped, error }).is_ok();
            }
        };
        batch.push(item);
        if batch.len() >= BATCH {
            let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
            return tx.send(Msg::Items(full)).is_ok();
        }
        true
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Scan>()?;
    m.add_class::<ScanReport>()?;
    m.add_class::<Rejected>()?;
    m.add_function(wrap_pyfunction!(scan, m)?)?;
    Ok(())
}
