//! Replay: the position after any node (`Game.board`, `Game.boards`), a
//! cursor along a line (`Cursor`), positions as NumPy arrays, captures,
//! hashes and the 8 symmetries (`Board`).
//!
//! A node is applied as the library's replay (`sgf_grove::game::replay`)
//! applies one, on its `Board` (captures, ko, superko and suicide as the
//! rules say): setup (`AE`, then `AB`, `AW`, rectangles expanded), `PL`,
//! then the move (`B`, else `W`; a pass). An illegal move never stops a
//! replay: a move onto a stone or a forbidden suicide is put down as setup,
//! a retaken ko is played as it was, a move off the board is skipped, and
//! each is reported as an `IllegalMove`; in strict mode the first one
//! raises. The replay reads the game through the same view as every other
//! read, so it works on edited games too; a test replays the corpus's main
//! lines both ways and compares the hashes.

use crate::core::{Fail, Game, Node, Reading, View};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyTuple};
use sgf_grove::game::board::{Board as LibBoard, Illegal, RuleSet};
use sgf_grove::game::{Rules, Symmetry};
use sgf_grove::value::{BoardSize, Color, FromValue, Move, Point};
use sgf_grove::Position;
use std::sync::{Arc, Mutex, MutexGuard};

/// An illegal move met by a replay.
#[derive(Clone)]
struct IllegalRec {
    key: u32,
    move_number: usize,
    color: Color,
    point: Option<Point>,
    reason: Illegal,
    position: Option<Position>,
}

/// What a replay knows after a node.
#[derive(Clone)]
struct Replay {
    board: LibBoard,
    to_play: Color,
    moves: usize,
    illegal: Vec<IllegalRec>,
}

impl Replay {
    fn new(size: BoardSize, rules: RuleSet) -> Replay {
        Replay {
            board: LibBoard::new(size, rules),
            to_play: Color::Black,
            moves: 0,
            illegal: Vec::new(),
        }
    }

    /// Applies node `key` of `v`; in strict mode an illegal move is an
    /// error and leaves the replay as it was.
    fn apply(&mut self, v: View<'_>, key: u32, strict: bool) -> Result<(), IllegalRec> {
        if strict {
            let mut next = self.clone();
            next.apply_lenient(v, key, true)?;
            *self = next;
            Ok(())
        } else {
            self.apply_lenient(v, key, false)
        }
    }

    fn apply_lenient(&mut self, v: View<'_>, key: u32, strict: bool) -> Result<(), IllegalRec> {
        let reading = Reading::new(v);
        let setup = [
            ("AE", None),
            ("AB", Some(Color::Black)),
            ("AW", Some(Color::White)),
        ];
        // One change of position for superko, not a position per stone.
        let mut changes = Vec::new();
        for (ident, stone) in setup {
            for (raw, _) in v.values(key, ident).unwrap_or_default() {
                for p in reading.points_of(raw).unwrap_or_default() {
                    changes.push((p, stone));
                }
            }
        }
        self.board.setup(changes);
        if let Some((raw, _)) = v.first(key, "PL") {
            let arena = sgf_grove::text::Arena::new();
            let ctx = sgf_grove::value::ValueContext::new(v.size(), v.encoding(), &arena);
            if let Some(c) = Color::from_value(raw, &ctx) {
                self.to_play = c;
            }
        }
        let played = if let Some((raw, _)) = v.first(key, "B") {
            (Color::Black, reading.move_of(raw))
        } else if let Some((raw, _)) = v.first(key, "W") {
            (Color::White, reading.move_of(raw))
        } else {
            return Ok(());
        };
        self.moves += 1;
        let illegal = |moves, color, point, reason| IllegalRec {
            key,
            move_number: moves,
            color,
            point,
            reason,
            position: v.node_offset(key).and_then(|o| v.position(o)),
        };
        let (color, point) = match played {
            (color, None) => {
                let e = illegal(self.moves, color, None, Illegal::OffBoard);
                return self.report(e, strict, color);
            }
            (color, Some(Move::Pass)) => {
                self.board.pass(color);
                self.to_play = color.opponent();
                return Ok(());
            }
            (color, Some(Move::Play(p))) => (color, p),
        };
        match self.board.play(color, point) {
            Ok(_) => {
                self.to_play = color.opponent();
                Ok(())
            }
            Err(reason) => {
                let e = illegal(self.moves, color, Some(point), reason);
                if strict {
                    return Err(e);
                }
                match reason {
                    Illegal::Ko | Illegal::Superko => {
                        self.board.play_repeating(color, point);
                    }
                    _ => {
                        self.board.set(point, Some(color));
                    }
                }
                self.report(e, false, color)
            }
        }
    }

    fn report(&mut self, e: IllegalRec, strict: bool, color: Color) -> Result<(), IllegalRec> {
        if strict {
            return Err(e);
        }
        self.illegal.push(e);
        self.to_play = color.opponent();
        Ok(())
    }

    /// An owned picture of the position, for Python, with the illegal
    /// moves so far.
    fn snapshot(&self, game: &Py<Game>, key: u32) -> Board {
        self.snapshot_sharing(game, key, Arc::new(self.illegal.clone()))
    }

    /// [`Replay::snapshot`] whose illegal moves are the first ones of
    /// `illegal` (a list that later positions of the same line share).
    fn snapshot_sharing(&self, game: &Py<Game>, key: u32, illegal: Arc<Vec<IllegalRec>>) -> Board {
        let size = self.board.size();
        let mut cells = vec![0u8; size.cols as usize * size.rows as usize];
        for (color, code) in [(Color::Black, 1u8), (Color::White, 2u8)] {
            for p in self.board.stones(color) {
                cells[p.y as usize * size.cols as usize + p.x as usize] = code;
            }
        }
        Python::attach(|py| Board {
            cols: size.cols,
            rows: size.rows,
            cells,
            to_play: self.to_play,
            move_number: self.moves,
            captures: [
                self.board.captures(Color::Black),
                self.board.captures(Color::White),
            ],
            ko: self.board.ko(),
            hash: self.board.hash(),
            situation_hash: self.board.hash_with(self.to_play),
            rules: self.board.rules(),
            illegal,
            illegal_count: self.illegal.len(),
            game: Some(game.clone_ref(py)),
            key,
        })
    }
}

impl From<IllegalRec> for Fail {
    fn from(e: IllegalRec) -> Fail {
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
}

/// The rules to replay under: `name` (an `RU` value such as `"Japanese"`,
/// `"Chinese"`, `"AGA"`, `"NZ"`, `"Tromp-Taylor"`) when given, else the
/// game's `RU`, else Japanese.
fn rules_for(v: View<'_>, name: Option<&str>) -> RuleSet {
    let ru = match name {
        Some(n) => Some(Rules::parse(n)),
        None => v
            .first(0, "RU")
            .map(|(raw, _)| Rules::parse(&Reading::new(v).simple_text(raw))),
    };
    ru.map(|r| RuleSet::for_rules(&r)).unwrap_or_default()
}

/// Checks a rules name given from Python.
fn check_rules(name: Option<&str>) -> PyResult<()> {
    if let Some(n) = name {
        if let Rules::Other(_) = Rules::parse(n) {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "unknown rules {n:?} (known: Japanese, Chinese, AGA, GOE, NZ, Korean, Tromp-Taylor)"
            )));
        }
    }
    Ok(())
}

/// The keys from the root to `key`, both included.
fn line_to(v: View<'_>, key: u32) -> Vec<u32> {
    let mut line = vec![key];
    let mut at = v.parent(key);
    while let Some(p) = at {
        line.push(p);
        at = v.parent(p);
    }
    line.reverse();
    line
}

/// The last node of the main line.
fn main_line_end(v: View<'_>) -> u32 {
    let mut at = 0;
    while let Some(c) = v.first_child(at) {
        at = c;
    }
    at
}

/// Replays the line to `key` (the end of the main line when `None`),
/// calling `each` after every node.
fn replay_line(
    v: View<'_>,
    key: Option<u32>,
    rules: Option<&str>,
    strict: bool,
    mut each: impl FnMut(&Replay, u32),
) -> Result<Replay, Fail> {
    let end = key.unwrap_or_else(|| main_line_end(v));
    if !v.contains(end) {
        return Err(no_such_node());
    }
    let mut replay = Replay::new(v.size(), rules_for(v, rules));
    for k in line_to(v, end) {
        replay.apply(v, k, strict)?;
        each(&replay, k);
    }
    Ok(replay)
}

fn no_such_node() -> Fail {
    Fail {
        kind: "no_such_node",
        message: "no such node in this game (it was deleted, or never was)".into(),
        pos: None,
    }
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
        check_rules(rules)?;
        let key = key_in(slf, node)?;
        let game = slf.get();
        let result = game.read(|v| {
            let end = key.unwrap_or_else(|| main_line_end(v));
            replay_line(v, Some(end), rules, strict, |_, _| {}).map(|r| (r, end))
        });
        let (replay, end) = result?;
        Ok(replay.snapshot(&slf.clone().unbind(), end))
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
        check_rules(rules)?;
        let key = key_in(slf, node)?;
        let game = slf.get();
        let owner = slf.clone().unbind();
        let mut out = Vec::new();
        let none = Arc::new(Vec::new());
        let last = game.read(|v| {
            replay_line(v, key, rules, strict, |r, k| {
                out.push(r.snapshot_sharing(&owner, k, none.clone()))
            })
        })?;
        // One list of illegal moves for the whole line, each board seeing
        // the ones met before it.
        let illegal = Arc::new(last.illegal);
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
        check_rules(rules)?;
        let py = slf.py();
        let key = key_in(slf, node)?;
        let game = slf.get();
        let mut bytes = Vec::new();
        let mut count = 0usize;
        let mut size = BoardSize::default();
        game.read(|v| {
            size = v.size();
            replay_line(v, key, rules, strict, |r, _| {
                count += 1;
                push_cells(&r.board, &mut bytes);
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
        check_rules(rules)?;
        let key = key_in(slf, node)?.unwrap_or(0);
        let game = slf.get();
        let mut path = Vec::new();
        let mut snapshots = Vec::new();
        let replay = game.read(|v| {
            replay_line(v, Some(key), rules, strict, |r, k| {
                if path.len().is_multiple_of(SNAPSHOT_EVERY) {
                    snapshots.push(Snap::of(r));
                }
                path.push(k);
            })
        })?;
        Ok(Cursor {
            game: slf.clone().unbind(),
            strict,
            state: Mutex::new(CursorState {
                replay,
                path,
                snapshots,
            }),
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

/// The cursor saves its state every this many nodes, to go back without
/// replaying from the root.
const SNAPSHOT_EVERY: usize = 32;

struct CursorState {
    replay: Replay,
    /// The nodes applied, from the root.
    path: Vec<u32>,
    /// `snapshots[i]`: the replay after `path[i * SNAPSHOT_EVERY]`.
    snapshots: Vec<Snap>,
}

/// A saved replay state; its illegal moves are the first `illegal` of the
/// cursor's (never copied: a long line with many illegal moves would make
/// the copies quadratic).
struct Snap {
    board: LibBoard,
    to_play: Color,
    moves: usize,
    illegal: usize,
}

impl Snap {
    fn of(r: &Replay) -> Snap {
        Snap {
            board: r.board.clone(),
            to_play: r.to_play,
            moves: r.moves,
            illegal: r.illegal.len(),
        }
    }
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
    strict: bool,
    state: Mutex<CursorState>,
}

impl Cursor {
    fn lock(&self) -> MutexGuard<'_, CursorState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn here(&self, py: Python<'_>, key: u32) -> Node {
        Node::new(self.game.clone_ref(py), key)
    }

    /// Applies `child` (a child of the current node).
    fn step(&self, child: u32) -> PyResult<()> {
        let mut st = self.lock();
        let game = self.game.get();
        let strict = self.strict;
        let at = *st.path.last().unwrap_or(&0);
        let st = &mut *st;
        game.read(|v| {
            if v.parent(child) != Some(at) {
                return Err(Fail {
                    kind: "not_a_child",
                    message: "the node is not a child of the cursor's node".into(),
                    pos: None,
                });
            }
            st.replay.apply(v, child, strict).map_err(Fail::from)
        })?;
        st.path.push(child);
        if (st.path.len() - 1).is_multiple_of(SNAPSHOT_EVERY) {
            let snap = Snap::of(&st.replay);
            st.snapshots.push(snap);
        }
        Ok(())
    }
}

#[pymethods]
impl Cursor {
    /// The current node.
    #[getter]
    fn node(&self, py: Python<'_>) -> Node {
        let key = *self.lock().path.last().unwrap_or(&0);
        self.here(py, key)
    }

    /// The position after the current node.
    #[getter]
    fn board(&self) -> Board {
        let st = self.lock();
        st.replay
            .snapshot(&self.game, *st.path.last().unwrap_or(&0))
    }

    /// Who moves next: ``"B"`` or ``"W"``.
    #[getter]
    fn to_play(&self) -> &'static str {
        self.lock().replay.to_play.as_str()
    }

    /// The moves played from the root to here (passes included).
    #[getter]
    fn move_number(&self) -> usize {
        self.lock().replay.moves
    }

    /// The position's hash with the player to move (see
    /// :attr:`Board.situation_hash`).
    #[getter]
    fn hash(&self) -> u64 {
        let st = self.lock();
        st.replay.board.hash_with(st.replay.to_play)
    }

    /// Moves to the first child (the main line) and returns it; ``None`` at
    /// the end of the line (the cursor stays).
    ///
    /// Raises :class:`SgfError` in strict mode for an illegal move (the
    /// cursor stays).
    fn forward(&self, py: Python<'_>) -> PyResult<Option<Node>> {
        let at = *self.lock().path.last().unwrap_or(&0);
        let Some(child) = self.game.get().read(|v| v.first_child(at)) else {
            return Ok(None);
        };
        self.step(child)?;
        Ok(Some(self.here(py, child)))
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
        self.step(child.key)?;
        Ok(self.here(py, child.key))
    }

    /// Moves back to the parent, undoing the current node; ``False`` at the
    /// root.
    fn back(&self) -> PyResult<bool> {
        let mut guard = self.lock();
        let st = &mut *guard;
        if st.path.len() <= 1 {
            return Ok(false);
        }
        st.path.pop();
        let keep = st.path.len();
        let snap = (keep - 1) / SNAPSHOT_EVERY;
        st.snapshots.truncate(snap + 1);
        let saved = &st.snapshots[snap];
        let mut illegal = std::mem::take(&mut st.replay.illegal);
        illegal.truncate(saved.illegal);
        let mut replay = Replay {
            board: saved.board.clone(),
            to_play: saved.to_play,
            moves: saved.moves,
            illegal,
        };
        let rest: Vec<u32> = st.path[snap * SNAPSHOT_EVERY + 1..].to_vec();
        self.game.get().read(|v| {
            for k in rest {
                // Replayed as before: a strict cursor holds legal nodes only.
                let _ = replay.apply(v, k, false);
            }
        });
        st.replay = replay;
        Ok(true)
    }

    fn __repr__(&self) -> String {
        let st = self.lock();
        format!(
            "<sgf_grove.Cursor node={} move_number={}>",
            st.path.last().unwrap_or(&0),
            st.replay.moves
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
    illegal: Arc<Vec<IllegalRec>>,
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
                    node: Py::new(py, Node::new(game.clone_ref(py), e.key))?,
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
        (h, symmetry_name(s))
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
        let mut s = String::new();
        for y in 0..self.rows {
            for x in 0..self.cols {
                s.push(
                    match self.cells[y as usize * self.cols as usize + x as usize] {
                        1 => 'X',
                        2 => 'O',
                        _ => '.',
                    },
                );
            }
            s.push('\n');
        }
        s
    }

    fn __str__(&self) -> String {
        self.diagram()
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

/// A symmetry's name as `FromStr` reads it.
fn symmetry_name(s: Symmetry) -> &'static str {
    match s {
        Symmetry::Identity => "identity",
        Symmetry::Rotate90 => "rot90",
        Symmetry::Rotate180 => "rot180",
        Symmetry::Rotate270 => "rot270",
        Symmetry::FlipX => "flip-x",
        Symmetry::FlipY => "flip-y",
        Symmetry::Transpose => "transpose",
        Symmetry::AntiTranspose => "anti-transpose",
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
    let names: Vec<&str> = Symmetry::ALL.iter().map(|&s| symmetry_name(s)).collect();
    m.add("SYMMETRIES", PyTuple::new(m.py(), names)?)?;
    m.add_function(wrap_pyfunction!(_library_replay, m)?)?;
    Ok(())
}
