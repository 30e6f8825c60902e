//! Replay for Python: the position after any node (`Game.board`,
//! `Game.boards`, `Game.line_array`), a cursor along a line (`Cursor`),
//! positions with captures, hashes and the 8 symmetries (`Board`).
//!
//! Bindings only: the replay is the library's
//! ([`sgf_grove::game::replay`], on its [`Board`](LibBoard)), read through
//! the library's read interface, so a parsed game and an edited one replay
//! the same way (setup, `PL`, the move; illegal moves reported, or the
//! first raised in strict mode). A Python `Cursor` keeps the library's
//! [`DetachedCursor`] between calls and reads the game as it is at each
//! move.

use crate::core::{each_form, Fail, Game, Node, View};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyTuple};
use sgf_grove::diagram::Diagram;
use sgf_grove::game::board::{Board as LibBoard, RuleSet};
use sgf_grove::game::replay::{self, Cursor as LibCursor, DetachedCursor};
use sgf_grove::game::{IllegalMove as LibIllegal, ReplayError, ReplayOptions, Rules, Symmetry};
use sgf_grove::value::{BoardSize, Color, Point};
use sgf_grove::{ReadGame, ReadNode};
use std::sync::{Arc, Mutex, MutexGuard};

fn illegal_fail(e: &LibIllegal) -> Fail {
    let point = e.point.map_or(String::new(), |p| format!(" {p}"));
    let mut message = format!(
        "illegal move {} {}{point}: {}",
        e.move_number,
        e.color.as_str(),
        e.reason
    );
    if let Some(p) = e.position {
        message.push_str(&format!(" at {}:{}", p.line, p.column));
    }
    Fail {
        kind: "illegal_move",
        message,
        pos: e.position,
    }
}

fn replay_fail(e: ReplayError) -> Fail {
    match e {
        ReplayError::Illegal(e) => illegal_fail(&e),
        ReplayError::Limit(e) => Fail {
            kind: "replay_limit",
            message: e.to_string(),
            pos: e.position,
        },
        other => Fail {
            kind: "replay_limit",
            message: other.to_string(),
            pos: None,
        },
    }
}

/// The replay options for `rules` (an `RU` value such as `"Japanese"`,
/// `"Chinese"`, `"AGA"`, `"NZ"`, `"Tromp-Taylor"`; the game's `RU` when
/// `None`) and `strict`. Every illegal move is kept.
fn options(rules: Option<&str>, strict: bool) -> PyResult<ReplayOptions> {
    let options = ReplayOptions::default()
        .strict(strict)
        .max_illegal(usize::MAX);
    let Some(name) = rules else {
        return Ok(options);
    };
    match Rules::parse(name) {
        Rules::Other(_) => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "unknown rules {name:?} (known: Japanese, Chinese, AGA, GOE, NZ, Korean, Tromp-Taylor)"
        ))),
        r => Ok(options.rules(RuleSet::for_rules(&r))),
    }
}

fn no_such_node() -> Fail {
    Fail {
        kind: "no_such_node",
        message: "no such node in this game (it was deleted, or never was)".into(),
        pos: None,
    }
}

fn not_a_child() -> Fail {
    Fail {
        kind: "not_a_child",
        message: "the node is not a child of the cursor's node".into(),
        pos: None,
    }
}

/// A node's key as Python's nodes hold it.
fn key32(key: usize) -> u32 {
    u32::try_from(key).unwrap_or(u32::MAX)
}

/// Replays the line from the root to node `key` of `game` (the end of the
/// main line when `None`), calling `each` after every node.
fn replay_line<'g, G: ReadGame<'g>>(
    game: G,
    key: Option<u32>,
    options: ReplayOptions,
    mut each: impl FnMut(&LibCursor<'g, G>),
) -> Result<LibCursor<'g, G>, Fail> {
    let end = match key {
        Some(k) => game.node_by_key(k as usize).ok_or_else(no_such_node)?,
        None => game.root().main_line().last().unwrap_or(game.root()),
    };
    let mut line: Vec<G::Node> = std::iter::successors(Some(end), |n| n.parent()).collect();
    line.reverse();
    let mut cursor = replay::cursor_with(game, options).map_err(replay_fail)?;
    each(&cursor);
    for node in line.into_iter().skip(1) {
        cursor.enter(node).map_err(replay_fail)?;
        each(&cursor);
    }
    Ok(cursor)
}

/// The node's key, checking that it belongs to `game`.
fn key_in(game: &Bound<'_, Game>, node: Option<&Bound<'_, Node>>) -> PyResult<Option<u32>> {
    match node {
        None => Ok(None),
        Some(n) => {
            let n = n.get();
            if n.game.as_ptr() != game.as_ptr() {
                return Err(pyo3::exceptions::PyValueError::new_err(
                    "the node belongs to another game",
                ));
            }
            Ok(Some(n.key))
        }
    }
}

/// An owned picture of the replay's position, for Python, whose illegal
/// moves are the first ones of `illegal` (a list that the positions of one
/// line share).
fn snapshot(
    line: &DetachedCursor,
    game: &Py<Game>,
    illegal: Arc<Vec<LibIllegal>>,
    py: Python<'_>,
) -> Board {
    let board = line.board();
    let mut cells = Vec::new();
    push_cells(board, &mut cells);
    let size = board.size();
    Board {
        cols: size.cols,
        rows: size.rows,
        cells,
        to_play: line.to_play(),
        move_number: line.moves(),
        captures: [board.captures(Color::Black), board.captures(Color::White)],
        ko: board.ko(),
        hash: board.hash(),
        situation_hash: line.hash(),
        rules: board.rules(),
        illegal,
        illegal_count: line.illegal().len(),
        game: Some(game.clone_ref(py)),
        key: key32(line.key()),
    }
}

/// [`snapshot`] with the replay's own illegal moves.
fn snapshot_own(line: &DetachedCursor, game: &Py<Game>, py: Python<'_>) -> Board {
    snapshot(line, game, Arc::new(line.illegal().to_vec()), py)
}

#[pymethods]
impl Game {
    /// The position after ``node`` (by default the last node of the main
    /// line), replayed from the root along the line that leads to it.
    ///
    /// ``rules`` (``"Japanese"``, ``"Chinese"``, ``"AGA"``, ``"NZ"``,
    /// ``"Korean"``, ``"Tromp-Taylor"``, ...) overrides the game's ``RU``
    /// (Japanese when absent): it says which repetitions (ko, superko) and
    /// whether suicide are illegal. Illegal moves are put down anyway and
    /// listed in :attr:`Board.illegal_moves`; with ``strict=True`` the
    /// first raises :class:`SgfError` (kind ``"illegal_move"``).
    ///
    /// >>> import sgf_grove
    /// >>> game = sgf_grove.parse(b"(;GM[1]SZ[9];B[ee];W[de];B[cc])")[0]
    /// >>> board = game.board()
    /// >>> board[4, 4], board[3, 4], board[0, 0], board.to_play
    /// (1, 2, 0, 'W')
    /// >>> game.board(game.root.first_child).move_number
    /// 1
    #[pyo3(signature = (node = None, *, rules = None, strict = false))]
    fn board(
        slf: &Bound<'_, Self>,
        node: Option<&Bound<'_, Node>>,
        rules: Option<&str>,
        strict: bool,
    ) -> PyResult<Board> {
        let options = options(rules, strict)?;
        let key = key_in(slf, node)?;
        let line = slf.get().read(|v| {
            each_form!(v, |g| replay_line(g, key, options, |_| {})
                .map(LibCursor::detach))
        })?;
        Ok(snapshot_own(&line, &slf.clone().unbind(), slf.py()))
    }

    /// The positions along the line from the root to ``node`` (by default
    /// the end of the main line), one :class:`Board` after each node, the
    /// root's first; one replay for them all. ``rules`` and ``strict`` as
    /// for :meth:`board`.
    ///
    /// >>> import sgf_grove
    /// >>> game = sgf_grove.parse(b"(;GM[1]SZ[9];B[ee];W[de])")[0]
    /// >>> [b.move_number for b in game.boards()]
    /// [0, 1, 2]
    #[pyo3(signature = (node = None, *, rules = None, strict = false))]
    fn boards(
        slf: &Bound<'_, Self>,
        node: Option<&Bound<'_, Node>>,
        rules: Option<&str>,
        strict: bool,
    ) -> PyResult<Vec<Board>> {
        let options = options(rules, strict)?;
        let key = key_in(slf, node)?;
        let py = slf.py();
        let owner = slf.clone().unbind();
        let mut out = Vec::new();
        let none = Arc::new(Vec::new());
        let last = slf.get().read(|v| {
            each_form!(v, |g| {
                replay_line(g, key, options, |c| {
                    out.push(snapshot(c.detached(), &owner, none.clone(), py))
                })
                .map(LibCursor::detach)
            })
        })?;
        // One list of illegal moves for the whole line, each board seeing
        // the ones met before it.
        let illegal = Arc::new(last.illegal().to_vec());
        for b in &mut out {
            b.illegal = illegal.clone();
        }
        Ok(out)
    }

    /// The positions along a line as one NumPy array of shape
    /// ``(len(line), rows, columns)``, ``uint8``: 0 empty, 1 black, 2 white;
    /// entry ``i`` is the position after the ``i``-th node of the line (the
    /// root is 0). The line and the options are those of :meth:`boards`.
    /// Needs NumPy.
    ///
    /// >>> import sgf_grove
    /// >>> a = sgf_grove.parse(b"(;GM[1]SZ[5:3];B[aa];W[ec])")[0].line_array()
    /// >>> a.shape, a.dtype.name, int(a[2, 2, 4]), int(a[1].sum())
    /// ((3, 3, 5), 'uint8', 2, 1)
    #[pyo3(signature = (node = None, *, rules = None, strict = false))]
    fn line_array(
        slf: &Bound<'_, Self>,
        node: Option<&Bound<'_, Node>>,
        rules: Option<&str>,
        strict: bool,
    ) -> PyResult<Py<PyAny>> {
        let options = options(rules, strict)?;
        let py = slf.py();
        let key = key_in(slf, node)?;
        let mut bytes = Vec::new();
        let mut count = 0usize;
        let size = slf.get().read(|v| {
            each_form!(v, |g| {
                replay_line(g, key, options, |c| {
                    count += 1;
                    push_cells(c.board(), &mut bytes);
                })
                .map(|c| c.board().size())
            })
        })?;
        let shape = (count, size.rows as usize, size.cols as usize);
        numpy_array(py, &bytes, shape.into_pyobject(py)?.into_any())
    }

    /// A cursor at ``node`` (by default the root): the position there, to
    /// move forwards to a child and back to the parent, one node at a time.
    /// ``rules`` and ``strict`` as for :meth:`board`.
    ///
    /// >>> import sgf_grove
    /// >>> game = sgf_grove.parse(b"(;GM[1]SZ[9];B[ee](;W[de])(;W[ef]))")[0]
    /// >>> c = game.cursor()
    /// >>> c.forward().move, c.board.move_number
    /// (('B', (4, 4)), 1)
    /// >>> c.enter(c.node.children[1]).move
    /// ('W', (4, 5))
    /// >>> c.back(), c.node.move
    /// (True, ('B', (4, 4)))
    #[pyo3(signature = (node = None, *, rules = None, strict = false))]
    fn cursor(
        slf: &Bound<'_, Self>,
        node: Option<&Bound<'_, Node>>,
        rules: Option<&str>,
        strict: bool,
    ) -> PyResult<Cursor> {
        let options = options(rules, strict)?;
        let key = key_in(slf, node)?.unwrap_or(0);
        let line = slf.get().read(|v| {
            each_form!(v, |g| replay_line(g, Some(key), options, |_| {})
                .map(LibCursor::detach))
        })?;
        Ok(Cursor {
            game: slf.clone().unbind(),
            line: Mutex::new(line),
        })
    }
}

/// Appends the cells of `board`, row by row, 0/1/2.
fn push_cells(board: &LibBoard, out: &mut Vec<u8>) {
    let size = board.size();
    let start = out.len();
    out.resize(start + size.cols as usize * size.rows as usize, 0);
    for (color, code) in [(Color::Black, 1u8), (Color::White, 2u8)] {
        for p in board.stones(color) {
            out[start + p.y as usize * size.cols as usize + p.x as usize] = code;
        }
    }
}

static NUMPY: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

/// `numpy.frombuffer(bytes, uint8).reshape(shape)`, a copy that owns its
/// memory and can be written to.
fn numpy_array(py: Python<'_>, bytes: &[u8], shape: Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let np = NUMPY.get_or_try_init(py, || py.import("numpy").map(Bound::unbind))?;
    let np = np.bind(py);
    let buffer = PyBytes::new(py, bytes);
    let array = np.call_method1("frombuffer", (buffer, np.getattr("uint8")?))?;
    Ok(array
        .call_method1("reshape", (shape,))?
        .call_method0("copy")?
        .unbind())
}

/// A cursor on a line of play: the position after its current node, moved
/// forwards to a child (:meth:`forward`, :meth:`enter`) and back to the
/// parent (:meth:`back`), one node at a time. Made by :meth:`Game.cursor`.
///
/// It reads the game as it is when it moves: edit the game, then make a
/// new cursor.
#[pyclass(frozen, module = "sgf_grove")]
pub struct Cursor {
    game: Py<Game>,
    /// The library's cursor, kept without the game between calls.
    line: Mutex<DetachedCursor>,
}

impl Cursor {
    fn lock(&self) -> MutexGuard<'_, DetachedCursor> {
        self.line.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn here(&self, py: Python<'_>, key: u32) -> Node {
        Node::new(self.game.clone_ref(py), key)
    }

    /// Moves to the child of the current node that `pick` chooses (`None`:
    /// stay); its key.
    fn step<F>(&self, pick: F) -> Result<Option<u32>, Fail>
    where
        F: for<'g> FnOnce(View<'g>, usize) -> Result<Option<usize>, Fail>,
    {
        let mut line = self.lock();
        let at = line.key();
        self.game.get().read(|v| {
            let Some(child) = pick(v, at)? else {
                return Ok(None);
            };
            each_form!(v, |g| {
                let node = g.node_by_key(child).ok_or_else(not_a_child)?;
                if node.parent().map(|p| p.key()) != Some(at) {
                    return Err(not_a_child());
                }
                line.enter(node).map_err(replay_fail)?;
            });
            Ok(Some(key32(child)))
        })
    }
}

#[pymethods]
impl Cursor {
    /// The current node.
    #[getter]
    fn node(&self, py: Python<'_>) -> Node {
        let key = key32(self.lock().key());
        self.here(py, key)
    }

    /// The position after the current node.
    #[getter]
    fn board(&self, py: Python<'_>) -> Board {
        snapshot_own(&self.lock(), &self.game, py)
    }

    /// Who moves next: ``"B"`` or ``"W"``.
    #[getter]
    fn to_play(&self) -> &'static str {
        self.lock().to_play().as_str()
    }

    /// The moves played from the root to here (passes included).
    #[getter]
    fn move_number(&self) -> usize {
        self.lock().moves()
    }

    /// The position's hash with the player to move (see
    /// :attr:`Board.situation_hash`).
    #[getter]
    fn hash(&self) -> u64 {
        self.lock().hash()
    }

    /// Moves to the first child (the main line) and returns it; ``None`` at
    /// the end of the line (the cursor stays).
    ///
    /// Raises :class:`SgfError` in strict mode for an illegal move (the
    /// cursor stays).
    fn forward(&self, py: Python<'_>) -> PyResult<Option<Node>> {
        let first = |v: View<'_>, at: usize| {
            Ok(each_form!(v, |g| g
                .node_by_key(at)
                .and_then(|n| n.first_child())
                .map(|c| c.key())))
        };
        Ok(self.step(first)?.map(|key| self.here(py, key)))
    }

    /// Moves to ``child``, a child of the current node, and returns it.
    ///
    /// Raises :class:`SgfError` (kind ``"not_a_child"``) when it is not one,
    /// and in strict mode for an illegal move.
    fn enter(&self, py: Python<'_>, child: &Bound<'_, Node>) -> PyResult<Node> {
        let child = child.get();
        if child.game.as_ptr() != self.game.as_ptr() {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "the node belongs to another game",
            ));
        }
        let key = child.key as usize;
        self.step(|_, _| Ok(Some(key)))?;
        Ok(self.here(py, child.key))
    }

    /// Moves back to the parent, undoing the current node; ``False`` at the
    /// root.
    fn back(&self) -> bool {
        self.lock().back()
    }

    fn __repr__(&self) -> String {
        let line = self.lock();
        format!(
            "<sgf_grove.Cursor node={} move_number={}>",
            line.key(),
            line.moves()
        )
    }
}

/// A move a replay found illegal: where, who, and why.
///
/// ``reason`` is ``"occupied"``, ``"suicide"``, ``"ko"``, ``"superko"`` or
/// ``"off_board"`` (a ``B``/``W`` value that is no point of the board);
/// ``position`` is the node's ``(line, column)`` in the input, ``None`` for
/// an edited game.
#[pyclass(frozen, module = "sgf_grove", get_all)]
pub struct IllegalMove {
    /// The node of the move.
    node: Py<Node>,
    /// The move number (1 for the first move of the line).
    move_number: usize,
    /// ``"B"`` or ``"W"``.
    colour: &'static str,
    /// ``(x, y)``, ``None`` off the board.
    point: Option<(u8, u8)>,
    /// Why it is illegal.
    reason: &'static str,
    /// The node's ``(line, column)`` in the input.
    position: Option<(u32, u32)>,
}

#[pymethods]
impl IllegalMove {
    fn __repr__(&self) -> String {
        format!(
            "IllegalMove(move_number={}, colour={:?}, point={:?}, reason={:?}, position={:?})",
            self.move_number, self.colour, self.point, self.reason, self.position
        )
    }
}

/// A position on the board after a node, with what the replay knew there:
/// an owned picture (later edits of the game do not change it).
///
/// Stones are 0 (empty), 1 (black) or 2 (white); ``board[x, y]`` reads one
/// (``x`` the column, ``y`` the row from the top-left corner, from 0).
/// :attr:`array` is the whole position as a NumPy ``uint8`` array of shape
/// ``(rows, columns)``, so that ``board.array[y, x] == board[x, y]``;
/// :meth:`tobytes` the same cells without NumPy.
///
/// Hashes: :attr:`hash` is the Zobrist hash of the stones;
/// :attr:`situation_hash` adds the player to move and the ko point (what
/// situational superko compares); :meth:`symmetric_hashes` gives the hash
/// of the stones under each of the 8 symmetries, and :meth:`canonical_hash`
/// the smallest of them and its symmetry: the same for a position and its
/// rotations and reflections.
///
/// >>> import sgf_grove
/// >>> a = sgf_grove.parse(b"(;GM[1]SZ[19];B[pd];W[dp])")[0].board()
/// >>> b = sgf_grove.parse(b"(;GM[1]SZ[19];B[dd];W[pp])")[0].board()
/// >>> a.hash == b.hash, a.canonical_hash()[0] == b.canonical_hash()[0]
/// (False, True)
/// >>> a.transform("flip-x") == b
/// True
#[pyclass(frozen, module = "sgf_grove")]
pub struct Board {
    cols: u8,
    rows: u8,
    /// Row by row, 0/1/2.
    cells: Vec<u8>,
    to_play: Color,
    move_number: usize,
    /// Prisoners taken by Black, by White.
    captures: [u32; 2],
    ko: Option<Point>,
    hash: u64,
    situation_hash: u64,
    rules: RuleSet,
    /// The illegal moves of the line; the first `illegal_count` are this
    /// position's.
    illegal: Arc<Vec<LibIllegal>>,
    illegal_count: usize,
    game: Option<Py<Game>>,
    key: u32,
}

impl Board {
    fn board_size(&self) -> BoardSize {
        BoardSize {
            cols: self.cols,
            rows: self.rows,
        }
    }

    /// The library's board holding these stones (no history).
    fn rebuilt(&self) -> LibBoard {
        let mut b = LibBoard::new(self.board_size(), self.rules);
        let cols = self.cols;
        let stones = (0..self.rows).flat_map(|y| (0..cols).map(move |x| (x, y)));
        b.setup(stones.filter_map(|(x, y)| {
            let stone = match self.cells[y as usize * cols as usize + x as usize] {
                1 => Color::Black,
                2 => Color::White,
                _ => return None,
            };
            Some((Point { x, y }, Some(stone)))
        }));
        b
    }

    fn index(&self, x: i64, y: i64) -> PyResult<usize> {
        if x < 0 || y < 0 || x >= self.cols as i64 || y >= self.rows as i64 {
            return Err(pyo3::exceptions::PyIndexError::new_err(format!(
                "({x}, {y}) is not on a {}x{} board",
                self.cols, self.rows
            )));
        }
        Ok(y as usize * self.cols as usize + x as usize)
    }
}

fn symmetry_named(name: &str) -> PyResult<Symmetry> {
    name.parse::<Symmetry>()
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))
}

#[pymethods]
impl Board {
    /// ``(columns, rows)``.
    #[getter]
    fn size(&self) -> (u8, u8) {
        (self.cols, self.rows)
    }

    /// Who moves next: ``"B"`` or ``"W"`` (the other colour after a move,
    /// ``PL`` after setup, Black at the start).
    #[getter]
    fn to_play(&self) -> &'static str {
        self.to_play.as_str()
    }

    /// The moves played (passes included) from the root to the node.
    #[getter]
    fn move_number(&self) -> usize {
        self.move_number
    }

    /// The prisoners each side has taken, as ``(by_black, by_white)``.
    #[getter]
    fn captures(&self) -> (u32, u32) {
        (self.captures[0], self.captures[1])
    }

    /// The point the basic ko forbids to retake now, ``None`` if none.
    #[getter]
    fn ko(&self) -> Option<(u8, u8)> {
        self.ko.map(|p| (p.x, p.y))
    }

    /// The Zobrist hash of the stones (a 64-bit unsigned integer).
    #[getter]
    fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash of the stones, the player to move and the ko point.
    #[getter]
    fn situation_hash(&self) -> u64 {
        self.situation_hash
    }

    /// The illegal moves the replay met from the root to here.
    #[getter]
    fn illegal_moves(&self, py: Python<'_>) -> PyResult<Vec<IllegalMove>> {
        let Some(game) = &self.game else {
            return Ok(Vec::new());
        };
        self.illegal[..self.illegal_count]
            .iter()
            .map(|e| {
                Ok(IllegalMove {
                    node: Py::new(py, Node::new(game.clone_ref(py), key32(e.key)))?,
                    move_number: e.move_number,
                    colour: e.color.as_str(),
                    point: e.point.map(|p| (p.x, p.y)),
                    reason: e.reason.name(),
                    position: e.position.map(|p| (p.line, p.column)),
                })
            })
            .collect()
    }

    /// The node this is the position after (``None`` for a transformed
    /// board).
    #[getter]
    fn node(&self, py: Python<'_>) -> Option<Node> {
        self.game
            .as_ref()
            .map(|g| Node::new(g.clone_ref(py), self.key))
    }

    /// The position as a NumPy ``uint8`` array of shape ``(rows,
    /// columns)``: 0 empty, 1 black, 2 white (a new array at each access).
    /// Needs NumPy.
    #[getter]
    fn array(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let shape = PyTuple::new(py, [self.rows as usize, self.cols as usize])?;
        numpy_array(py, &self.cells, shape.into_any())
    }

    /// The cells row by row, one byte each: 0 empty, 1 black, 2 white.
    fn tobytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.cells)
    }

    fn __getitem__(&self, xy: (i64, i64)) -> PyResult<u8> {
        Ok(self.cells[self.index(xy.0, xy.1)?])
    }

    /// The points holding a stone of ``colour`` (``"B"`` or ``"W"``), row
    /// by row.
    fn stones(&self, colour: &str) -> PyResult<Vec<(u8, u8)>> {
        let code = match colour {
            "B" | "b" => 1,
            "W" | "w" => 2,
            _ => {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "colour must be 'B' or 'W', not {colour:?}"
                )))
            }
        };
        let mut out = Vec::new();
        for y in 0..self.rows {
            for x in 0..self.cols {
                if self.cells[y as usize * self.cols as usize + x as usize] == code {
                    out.push((x, y));
                }
            }
        }
        Ok(out)
    }

    /// The hash of the stones under each of the 8 symmetries, in the order
    /// of :data:`sgf_grove.SYMMETRIES`.
    fn symmetric_hashes(&self) -> Vec<u64> {
        self.rebuilt().symmetric_hashes().to_vec()
    }

    /// The smallest of :meth:`symmetric_hashes` and the name of the
    /// symmetry that gives it.
    fn canonical_hash(&self) -> (u64, &'static str) {
        let (h, s) = self.rebuilt().canonical_hash();
        (h, s.name())
    }

    /// This position under ``symmetry`` (a name of
    /// :data:`sgf_grove.SYMMETRIES`: ``"identity"``, ``"rot90"``,
    /// ``"rot180"``, ``"rot270"``, ``"flip-x"``, ``"flip-y"``,
    /// ``"transpose"``, ``"anti-transpose"``; rotations clockwise as the
    /// board is drawn), a board of its own: stones, ko point and size moved,
    /// the rest kept.
    ///
    /// >>> import sgf_grove
    /// >>> b = sgf_grove.parse(b"(;GM[1]SZ[19];B[pd])")[0].board()
    /// >>> b.transform("rot90").stones("B")
    /// [(15, 15)]
    fn transform(&self, symmetry: &str) -> PyResult<Board> {
        let s = symmetry_named(symmetry)?;
        let size = self.board_size();
        let to = s.board_size(size);
        let mut cells = vec![0u8; self.cells.len()];
        for y in 0..self.rows {
            for x in 0..self.cols {
                let c = self.cells[y as usize * self.cols as usize + x as usize];
                let q = s.apply(Point { x, y }, size);
                cells[q.y as usize * to.cols as usize + q.x as usize] = c;
            }
        }
        let mut board = Board {
            cols: to.cols,
            rows: to.rows,
            cells,
            to_play: self.to_play,
            move_number: self.move_number,
            captures: self.captures,
            ko: self.ko.map(|p| s.apply(p, size)),
            hash: 0,
            situation_hash: 0,
            rules: self.rules,
            illegal: Arc::new(Vec::new()),
            illegal_count: 0,
            game: None,
            key: 0,
        };
        let rebuilt = board.rebuilt();
        board.hash = rebuilt.hash();
        // The ko point is not known to the rebuilt board: the hash with the
        // player to move has no ko part here.
        board.situation_hash = rebuilt.hash_with(board.to_play);
        Ok(board)
    }

    /// The position drawn as text: ``X`` black, ``O`` white, ``.`` empty,
    /// one row a line.
    fn diagram(&self) -> String {
        self.rebuilt().diagram()
    }

    fn __str__(&self) -> String {
        self.diagram()
    }

    /// The position drawn as an SVG document (text drawn as paths, no font
    /// needed): the stones and the star points, with ``coords=True`` the
    /// coordinates (columns ``A``–``Z`` without ``I``, rows from the
    /// bottom); ``size`` the longer side in pixels (default 24 pixels
    /// between two lines). Numbers and markup of a node:
    /// ``sgf diagram``.
    ///
    /// >>> import sgf_grove
    /// >>> svg = sgf_grove.parse(b"(;GM[1]SZ[9];B[ee])")[0].board().svg()
    /// >>> svg.startswith("<svg") and "<text" not in svg
    /// True
    #[pyo3(signature = (coords = false, size = None))]
    fn svg(&self, coords: bool, size: Option<u32>) -> PyResult<String> {
        let d = Diagram::from_board(&self.rebuilt()).with_coordinates(coords);
        Ok(match size {
            Some(0) => {
                return Err(pyo3::exceptions::PyValueError::new_err(
                    "size must be at least 1 pixel",
                ))
            }
            Some(px) => d.to_svg_sized(px),
            None => d.to_svg(),
        })
    }

    /// The SVG drawing of :meth:`svg`, which Jupyter shows for a board.
    fn _repr_svg_(&self) -> PyResult<String> {
        self.svg(false, None)
    }

    /// Two boards are equal when they have the same size and stones.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<Board>() {
            Ok(o) => {
                let o = o.get();
                (o.cols, o.rows) == (self.cols, self.rows) && o.cells == self.cells
            }
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        self.hash
    }

    fn __repr__(&self) -> String {
        format!(
            "<sgf_grove.Board {}x{} move_number={} to_play={}>",
            self.cols,
            self.rows,
            self.move_number,
            self.to_play.as_str()
        )
    }
}

/// Test oracle (not API): the library's own replay (`GameTree::cursor`)
/// of each game's main line in `data`, as `(hash with the player to move,
/// move number, illegal moves so far)` after every node.
#[pyfunction]
fn _library_replay(data: &[u8]) -> PyResult<Vec<Vec<(u64, usize, usize)>>> {
    let doc = sgf_grove::parse(data).map_err(|e| crate::core::to_py_err(&e, None))?;
    let mut out = Vec::new();
    for game in doc.games() {
        let mut cursor = game.cursor();
        let mut line = vec![(cursor.hash(), cursor.moves(), cursor.illegal().len())];
        while cursor.next().is_some() {
            line.push((cursor.hash(), cursor.moves(), cursor.illegal().len()));
        }
        out.push(line);
    }
    Ok(out)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Board>()?;
    m.add_class::<Cursor>()?;
    m.add_class::<IllegalMove>()?;
    let names: Vec<&str> = Symmetry::ALL.iter().map(|&s| s.name()).collect();
    m.add("SYMMETRIES", PyTuple::new(m.py(), names)?)?;
    m.add_function(wrap_pyfunction!(_library_replay, m)?)?;
    Ok(())
}
