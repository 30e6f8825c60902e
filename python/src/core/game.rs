//! `Game` and `Collection`, and the entry points `parse` and `read`.

use super::errors::{raise, to_py_err, ParseWarning};
use super::node::Node;
use super::source::Source;
use super::values::Value;
use super::view::View;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyByteArray;
use pyo3::types::{PyBytes, PyString};
use sgf_grove::edit::EditableGame;
use sgf_grove::game::{pack_main_line, pack_parsed_main_line};
use sgf_grove::ParseOptions;
use std::sync::{Mutex, MutexGuard};

/// The two forms of a game: read in place from its parsed input, or made
/// editable (an owned copy) by its first edit.
pub(crate) enum State {
    Parsed { source: Source, game: usize },
    Edited(Box<EditableGame>),
}

/// One game tree: its nodes, game information, warnings, replay, editing
/// and writing.
///
/// A game read by :func:`parse` or :func:`read` is read in place from the
/// parsed input (nothing is copied); its first edit makes it an editable
/// copy of its own, and from then on it no longer shares anything with the
/// input. Nodes are :class:`Node` handles: a game and a node number that
/// stays valid across edits.
///
/// ``Game(size)`` makes a new, empty game (see :meth:`Node.play` and
/// :meth:`Node.set` to fill it).
///
/// ``origin``, ``offset`` and ``index`` say where the game came from: the
/// path given to :func:`read` (``None`` for :func:`parse`; an archive
/// member as ``archive!member`` for scanned games), the byte offset of its
/// ``(`` there, and its number among the games of that input.
///
/// >>> import sgf_grove
/// >>> game = sgf_grove.parse(b"(;GM[1]SZ[9]PB[Cho];B[ee];W[cc])")[0]
/// >>> [node.move for node in game.main_line()]
/// [None, ('B', (4, 4)), ('W', (2, 2))]
/// >>> game.size, game.offset, game.index
/// ((9, 9), 0, 0)
/// >>> sgf_grove.Game((19, 13)).serialise()
/// b'(;GM[1]FF[4]CA[UTF-8]SZ[19:13])\n'
#[pyclass(frozen, module = "sgf_grove")]
pub struct Game {
    pub(crate) state: Mutex<State>,
    /// The path (or archive member) the game was read from.
    #[pyo3(get)]
    pub(crate) origin: Option<String>,
    /// The byte offset of the game's `(` in its input.
    #[pyo3(get)]
    pub(crate) offset: u64,
    /// The game's number among the games of its input, from 0.
    #[pyo3(get)]
    pub(crate) index: usize,
    pub(crate) warnings: Vec<ParseWarning>,
}

impl Game {
    pub(crate) fn new(
        state: State,
        origin: Option<String>,
        offset: u64,
        index: usize,
        warnings: Vec<ParseWarning>,
    ) -> Game {
        Game {
            state: Mutex::new(state),
            origin,
            offset,
            index,
            warnings,
        }
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        // Nothing here leaves the state half changed on a panic.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `f` on the game as it is now. `f` must not run Python code that
    /// could come back to this game (the lock is not reentrant): convert
    /// arguments before, build results from what `f` returns.
    pub(crate) fn read<R>(&self, f: impl FnOnce(View<'_>) -> R) -> R {
        let state = self.lock();
        match &*state {
            State::Parsed { source, game } => source.with_game(*game, |g| f(View::Parsed(g))),
            State::Edited(e) => f(View::Edited(e)),
        }
    }

    /// Runs `f` on the game made editable (an owned copy of the parsed game
    /// on its first edit). The same rule as [`Game::read`] holds for `f`.
    pub(crate) fn edit<R>(&self, f: impl FnOnce(&mut EditableGame) -> R) -> R {
        let mut state = self.lock();
        if let State::Parsed { source, game } = &*state {
            let edited = source.with_game(*game, EditableGame::from_game);
            *state = State::Edited(Box::new(edited));
        }
        match &mut *state {
            State::Edited(e) => f(e),
            State::Parsed { .. } => unreachable!("made editable above"),
        }
    }

    /// Whether the game has been made editable.
    pub(crate) fn is_edited(&self) -> bool {
        matches!(&*self.lock(), State::Edited(_))
    }
}

#[pymethods]
impl Game {
    /// The root node.
    ///
    /// >>> import sgf_grove
    /// >>> sgf_grove.parse(b"(;GM[1]PB[Cho])")[0].root["PB"]
    /// 'Cho'
    #[getter]
    fn root(slf: &Bound<'_, Self>) -> Node {
        Node::new(slf.clone().unbind(), 0)
    }

    /// The node numbered ``id`` (see :attr:`Node.id`).
    ///
    /// Raises :class:`SgfError` (kind ``"no_such_node"``) when the game has
    /// no such node (or it was deleted).
    ///
    /// >>> import sgf_grove
    /// >>> game = sgf_grove.parse(b"(;GM[1];B[aa];W[bb])")[0]
    /// >>> game.node(2)["W"]
    /// (1, 1)
    fn node(slf: &Bound<'_, Self>, id: u32) -> PyResult<Node> {
        if slf.get().read(|v| v.contains(id)) {
            Ok(Node::new(slf.clone().unbind(), id))
        } else {
            Err(no_such_node())
        }
    }

    /// The main line: the root and each first child down to the end.
    ///
    /// >>> import sgf_grove
    /// >>> game = sgf_grove.parse(b"(;GM[1];B[aa](;W[bb])(;W[cc]))")[0]
    /// >>> [n.id for n in game.main_line()]
    /// [0, 1, 2]
    fn main_line(slf: &Bound<'_, Self>) -> Vec<Node> {
        Node::new(slf.clone().unbind(), 0).main_line_keys(slf.get())
    }

    /// The moves of the main line, in order, as ``(colour, point)`` pairs
    /// (``point`` ``None`` for a pass); nodes without a move are skipped,
    /// and so are moves that are no point of the board (``B[ta]`` on
    /// 19×19), counted by :meth:`invalid_moves`. With ``strict=True`` such
    /// a move raises :class:`SgfError` instead.
    ///
    /// >>> import sgf_grove
    /// >>> game = sgf_grove.parse(b"(;SZ[19];B[pd];W[ta];B[dd];W[])")[0]
    /// >>> game.moves()
    /// [('B', (15, 3)), ('B', (3, 3)), ('W', None)]
    /// >>> game.invalid_moves()
    /// 1
    #[pyo3(signature = (*, strict = false))]
    fn moves(slf: &Bound<'_, Self>, strict: bool) -> PyResult<Vec<(&'static str, Py<PyAny>)>> {
        let py = slf.py();
        let keys = slf.get().read(|v| {
            let mut keys = Vec::new();
            let mut at = v.contains(0).then_some(0);
            while let Some(k) = at {
                keys.push(k);
                at = v.first_child(k);
            }
            keys
        });
        let mut moves = Vec::with_capacity(keys.len());
        for key in keys {
            let played = match slf.get().read(|v| Node::played(v, key)) {
                Ok(played) => played,
                Err(fail) if strict => return Err(fail.into()),
                Err(_) => None,
            };
            if let Some((ident, m)) = played {
                moves.push((ident, Value::from(m).into_pyobject(py)?.unbind()));
            }
        }
        Ok(moves)
    }

    /// The moves of the main line as a numpy array of ``int8``, one row
    /// ``(colour, x, y)`` a move, made in one call (no Python object per
    /// move): the moves of :meth:`moves`, in the same order. ``colour`` is
    /// 1 for black and 2 for white (the codes of :meth:`board`'s cells);
    /// ``x`` and ``y`` count from 0 from the left and the top; a pass has
    /// ``x`` and ``y`` both -1. Moves that are no point of the board are
    /// left out and counted by :meth:`invalid_moves`; with
    /// ``strict=True`` the first raises :class:`SgfError` instead.
    ///
    /// Needs numpy (``pip install "sgf_grove[numpy]"``).
    ///
    /// >>> import sgf_grove
    /// >>> game = sgf_grove.parse(b"(;SZ[19];B[pd];W[ta];B[dd];W[])")[0]
    /// >>> game.moves_array().tolist()
    /// [[1, 15, 3], [1, 3, 3], [2, -1, -1]]
    /// >>> game.moves_array().shape, game.moves_array().dtype.name
    /// ((3, 3), 'int8')
    #[pyo3(signature = (*, strict = false))]
    fn moves_array(&self, py: Python<'_>, strict: bool) -> PyResult<Py<PyAny>> {
        let (buffer, first_invalid) = PACKED.with_borrow_mut(|out| {
            out.clear();
            let first_invalid = self.read(|v| {
                // Room for a move a node (no growing on the way).
                out.reserve(3 * v.node_count());
                // A parsed game's main line is read straight from its arena.
                let found = match v {
                    View::Parsed(g) => pack_parsed_main_line(g, out),
                    View::Edited(g) => pack_main_line(g, out),
                };
                found.first_invalid
            });
            // The bytes handed over before any Python code runs.
            let buffer = PyByteArray::new_with(py, out.len(), |bytes| {
                for (to, &from) in bytes.iter_mut().zip(out.iter()) {
                    *to = from as u8;
                }
                Ok(())
            });
            if out.capacity() > MAX_PACKED_ROOM {
                *out = Vec::new();
            }
            (buffer, first_invalid)
        });
        if strict {
            if let Some(e) = first_invalid {
                return Err(to_py_err(&e, None));
            }
        }
        moves_numpy(py, buffer?)
    }

    /// How many moves of the main line are no point of the board (left
    /// out by :meth:`moves`).
    ///
    /// >>> import sgf_grove
    /// >>> sgf_grove.parse(b"(;SZ[9];B[ee];W[zz])")[0].invalid_moves()
    /// 1
    fn invalid_moves(&self) -> usize {
        self.read(|v| {
            let mut count = 0;
            let mut at = v.contains(0).then_some(0);
            while let Some(k) = at {
                count += usize::from(Node::played(v, k).is_err());
                at = v.first_child(k);
            }
            count
        })
    }

    /// Every node in pre-order (depth first, the main line first).
    ///
    /// >>> import sgf_grove
    /// >>> game = sgf_grove.parse(b"(;GM[1];B[aa](;W[bb])(;W[cc]))")[0]
    /// >>> [n.id for n in game.nodes()]
    /// [0, 1, 2, 3]
    fn nodes(slf: &Bound<'_, Self>) -> Vec<Node> {
        let keys = slf.get().read(|v| v.subtree(0));
        let game = slf.clone().unbind();
        keys.into_iter()
            .map(|k| Node::new(game.clone_ref(slf.py()), k))
            .collect()
    }

    /// The number of nodes.
    fn __len__(&self) -> usize {
        self.read(|v| v.node_count())
    }

    /// The board size as ``(columns, rows)``, from the root's ``SZ``
    /// (``(19, 19)`` when it is absent or malformed).
    #[getter]
    fn size(&self) -> (u8, u8) {
        let s = self.read(|v| v.size());
        (s.cols, s.rows)
    }

    /// The charset the game's text is read in (``"UTF-8"``, ``"GBK"``,
    /// ``"Shift_JIS"``, ...): the root's ``CA``, else guessed from its bytes.
    #[getter]
    fn charset(&self) -> &'static str {
        self.read(|v| v.encoding().name())
    }

    /// The warnings the parser reported for this game's bytes.
    #[getter]
    fn warnings(&self) -> Vec<ParseWarning> {
        self.warnings.clone()
    }

    /// The game information (players, ranks, result, komi, handicap,
    /// dates, rules, size, ...), read from the root: a frozen
    /// :class:`sgf_grove.GameInfo` dataclass, made anew at each access.
    ///
    /// >>> import sgf_grove
    /// >>> info = sgf_grove.parse(b"(;GM[1]PB[Cho]PW[Go]HA[2]KM[0.5]RE[B+3.5])")[0].info
    /// >>> info.black.name, info.handicap, info.komi, info.result.margin
    /// ('Cho', 2, 0.5, 3.5)
    #[getter]
    fn info(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        super::info::game_info(py, self)
    }

    /// Whether the game has been edited (made an editable copy of its own).
    #[getter]
    fn edited(&self) -> bool {
        self.is_edited()
    }

    fn __repr__(&self) -> String {
        let (size, nodes) = self.read(|v| (v.size(), v.node_count()));
        let origin = match &self.origin {
            Some(o) => format!(" origin={o:?}"),
            None => String::new(),
        };
        format!(
            "<sgf_grove.Game {}x{} nodes={nodes} index={}{origin}>",
            size.cols, size.rows, self.index
        )
    }
}

thread_local! {
    /// The packed moves of the last `moves_array` of this thread, kept for
    /// their room (no allocation a game).
    static PACKED: std::cell::RefCell<Vec<i8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The room [`PACKED`] keeps at most between calls.
const MAX_PACKED_ROOM: usize = 1 << 20;

/// `numpy.frombuffer`, and the dtype of one packed move (three `int8`, a
/// sub-array dtype: `frombuffer` gives the `(n, 3)` shape itself), looked
/// up once.
static FROMBUFFER: PyOnceLock<(Py<PyAny>, Py<PyAny>)> = PyOnceLock::new();

/// Packed moves (three `int8` a move, in `buffer`) as a writable numpy
/// array of shape `(n, 3)` and dtype `int8` that owns its memory (the
/// `bytearray` viewed, no copy), made in one numpy call.
fn moves_numpy(py: Python<'_>, buffer: Bound<'_, PyByteArray>) -> PyResult<Py<PyAny>> {
    let (frombuffer, row) = FROMBUFFER.get_or_try_init(py, || {
        let np = py.import("numpy")?;
        let row = np.getattr("dtype")?.call1(((np.getattr("int8")?, 3),))?;
        Ok::<_, PyErr>((np.getattr("frombuffer")?.unbind(), row.unbind()))
    })?;
    Ok(frombuffer.bind(py).call1((buffer, row.bind(py)))?.unbind())
}

/// The error for a node number the game does not have.
pub(crate) fn no_such_node() -> PyErr {
    raise(
        "no_such_node",
        "no such node in this game (it was deleted, or never was)".into(),
        None,
    )
}

/// The games of one input and the warnings of its parse: a sequence of
/// :class:`Game` (``len``, indexing, iteration).
///
/// >>> import sgf_grove
/// >>> games = sgf_grove.parse(b"junk(;GM[1];B[aa])(;GM[1];B[bb])")
/// >>> len(games), games[1].root.children[0]["B"]
/// (2, (1, 1))
/// >>> [w.kind for w in games.warnings]
/// ['junk_before_game']
#[pyclass(frozen, sequence, module = "sgf_grove")]
pub struct Collection {
    games: Vec<Py<Game>>,
    warnings: Vec<ParseWarning>,
}

#[pymethods]
impl Collection {
    fn __len__(&self) -> usize {
        self.games.len()
    }

    fn __getitem__(&self, py: Python<'_>, index: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        if let Ok(slice) = index.cast::<pyo3::types::PySlice>() {
            let games = self.games(py);
            let list = pyo3::types::PyList::new(py, games)?;
            return Ok(list.as_any().get_item(slice)?.unbind());
        }
        let index: isize = index.extract()?;
        let n = self.games.len() as isize;
        let i = if index < 0 { index + n } else { index };
        if i < 0 || i >= n {
            return Err(pyo3::exceptions::PyIndexError::new_err(
                "game index out of range",
            ));
        }
        Ok(self.games[i as usize].clone_ref(py).into_any())
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let list = pyo3::types::PyList::new(py, self.games.iter().map(|g| g.clone_ref(py)))?;
        Ok(list.try_iter()?.into_any().unbind())
    }

    /// Every warning of the parse, in input order (those outside any game,
    /// such as junk before the first, included).
    #[getter]
    fn warnings(&self) -> Vec<ParseWarning> {
        self.warnings.clone()
    }

    /// The games, as a list.
    #[getter]
    fn games(&self, py: Python<'_>) -> Vec<Py<Game>> {
        self.games.iter().map(|g| g.clone_ref(py)).collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "<sgf_grove.Collection games={} warnings={}>",
            self.games.len(),
            self.warnings.len()
        )
    }
}

/// Parse options from the Python keywords.
fn options(strict: bool, charset: Option<&str>) -> PyResult<ParseOptions> {
    let mut options = ParseOptions::new().strict(strict);
    if let Some(label) = charset {
        match sgf_grove::text::charset::for_label(label.as_bytes()) {
            Some(enc) => options = options.charset(Some(enc)),
            None => {
                return Err(pyo3::exceptions::PyLookupError::new_err(format!(
                    "unknown charset {label:?}"
                )))
            }
        }
    }
    Ok(options)
}

/// Parses `bytes` into a collection of games sharing one source.
pub(crate) fn parse_bytes(
    py: Python<'_>,
    bytes: Vec<u8>,
    options: &ParseOptions,
    origin: Option<String>,
) -> PyResult<Collection> {
    let source = Source::parse(bytes, options).map_err(|e| to_py_err(&e, None))?;
    let (spans, warnings) = source.with(|coll| {
        let spans: Vec<_> = coll.games().map(|g| g.span()).collect();
        let warnings: Vec<ParseWarning> = coll.warnings().iter().map(ParseWarning::from).collect();
        (spans, warnings)
    });
    let mut games = Vec::with_capacity(spans.len());
    for (i, span) in spans.iter().enumerate() {
        let own = warnings
            .iter()
            .filter(|w| span.start <= w.offset && w.offset <= span.end)
            .cloned()
            .collect();
        let state = State::Parsed {
            source: source.clone(),
            game: i,
        };
        let game = Game::new(state, origin.clone(), span.start as u64, i, own);
        games.push(Py::new(py, game)?);
    }
    Ok(Collection { games, warnings })
}

/// Parses SGF text: ``bytes`` as they are in a file (their charset is the
/// root's ``CA``, else guessed per game), or ``str`` (encoded as UTF-8).
///
/// Lenient by default: every defect real files have is recovered from and
/// reported as a :class:`ParseWarning` with its position
/// (``Collection.warnings``, ``Game.warnings``). With ``strict=True`` the
/// first of them raises :class:`SgfError` instead. ``charset`` (a label
/// such as ``"GB2312"``) reads every game's text in that charset, whatever
/// ``CA`` says.
///
/// Raises :class:`SgfError` when the input holds no game tree or is not
/// text (and in strict mode on any defect); ``LookupError`` for an unknown
/// charset label.
///
/// >>> import sgf_grove
/// >>> games = sgf_grove.parse("(;GM[1]SZ[19]KM[6.5]C[héllo];B[pd];W[])")
/// >>> root = games[0].root
/// >>> root["KM"], root["C"], root.children[0]["B"]
/// (6.5, 'héllo', (15, 3))
/// >>> sgf_grove.parse(b"(;B[aa]", strict=True)
/// Traceback (most recent call last):
///   ...
/// sgf_grove.SgfError: game tree not closed at end of input (strict mode) at 1:8
#[pyfunction]
#[pyo3(signature = (data, *, strict = false, charset = None))]
fn parse(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    strict: bool,
    charset: Option<&str>,
) -> PyResult<Collection> {
    let bytes = if let Ok(b) = data.cast::<PyBytes>() {
        b.as_bytes().to_vec()
    } else if let Ok(s) = data.cast::<PyString>() {
        s.extract::<String>()?.into_bytes()
    } else if let Ok(b) = data.extract::<Vec<u8>>() {
        b
    } else {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "parse() takes bytes or str",
        ));
    };
    parse_bytes(py, bytes, &options(strict, charset)?, None)
}

/// Reads and parses the SGF file at ``path`` (a ``str`` or
/// ``os.PathLike``), as :func:`parse` parses bytes; each game's ``origin``
/// is the path.
///
/// Raises ``OSError`` when the file cannot be read, and what :func:`parse`
/// raises.
///
/// >>> import sgf_grove, tempfile, os
/// >>> path = os.path.join(tempfile.mkdtemp(), "a.sgf")
/// >>> _ = open(path, "wb").write(b"(;GM[1];B[aa])")
/// >>> game = sgf_grove.read(path)[0]
/// >>> game.origin == path, game.main_line()[1].move
/// (True, ('B', (0, 0)))
#[pyfunction]
#[pyo3(signature = (path, *, strict = false, charset = None))]
fn read(
    py: Python<'_>,
    path: std::path::PathBuf,
    strict: bool,
    charset: Option<&str>,
) -> PyResult<Collection> {
    let options = options(strict, charset)?;
    let bytes = std::fs::read(&path)?;
    let origin = path.to_string_lossy().into_owned();
    parse_bytes(py, bytes, &options, Some(origin))
}

/// A Python `Game` for one game found by a scan (see the top of
/// [`crate::core`]).
pub(crate) fn game_from_scan(
    py: Python<'_>,
    source: Source,
    origin: String,
    offset: u64,
    index: usize,
    warnings: Vec<sgf_grove::Warning>,
) -> PyResult<Py<Game>> {
    let warnings = warnings.iter().map(ParseWarning::from).collect();
    let state = State::Parsed { source, game: 0 };
    Py::new(py, Game::new(state, Some(origin), offset, index, warnings))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<Collection>()?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    Ok(())
}
