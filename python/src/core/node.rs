//! `Node`: a handle on one node of a [`Game`], and its read methods.

use super::game::{no_such_node, Game};
use super::values::{Fail, Reading, Value};
use super::view::View;
use pyo3::basic::CompareOp;
use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use sgf_grove::value::Move;

/// One node of a game: a handle (the game and the node's number), cheap to
/// make and compare. Reading it reads the game as it is now, edits
/// included.
///
/// Properties are read typed by the property catalogue of the FF[4]
/// specification (see :meth:`get`): points as ``(x, y)``, the column and
/// the row counted from the top-left corner from 0 (``"pd"`` is
/// ``(15, 3)``), a pass as ``None``, text decoded in the game's charset.
/// ``node[ident]`` is :meth:`get` that raises ``KeyError`` when the node
/// lacks the property; raw values (escaped, in the game's charset) are
/// :meth:`get_raw` and :meth:`get_raw_list`.
///
/// >>> import sgf_grove
/// >>> game = sgf_grove.parse(b"(;GM[1]SZ[19]AB[aa][bb]C[hi \\] there];B[pd]LB[pd:A];W[])")[0]
/// >>> root = game.root
/// >>> root["C"], root.get("AB"), root.get_raw("C")
/// ('hi ] there', [(0, 0), (1, 1)], b'hi \\] there')
/// >>> black = root.children[0]
/// >>> black.move, black["LB"], black.parent == root
/// (('B', (15, 3)), [((15, 3), 'A')], True)
/// >>> white = black.first_child
/// >>> white.get("W"), "W" in white, white.move
/// (None, True, ('W', None))
#[pyclass(frozen, module = "sgf_grove")]
pub struct Node {
    pub(crate) game: Py<Game>,
    pub(crate) key: u32,
}

impl Node {
    pub(crate) fn new(game: Py<Game>, key: u32) -> Node {
        Node { game, key }
    }

    pub(crate) fn at(&self, py: Python<'_>, key: u32) -> Node {
        Node::new(self.game.clone_ref(py), key)
    }

    /// Runs `f` on the game with this node's key; the node must exist.
    pub(crate) fn read<R>(&self, f: impl FnOnce(View<'_>, u32) -> R) -> PyResult<R> {
        let key = self.key;
        self.game
            .get()
            .read(|v| v.contains(key).then(|| f(v, key)))
            .ok_or_else(no_such_node)
    }

    /// The keys from this node down the first children.
    pub(crate) fn main_line_keys(&self, game: &Game) -> Vec<Node> {
        let keys = game.read(|v| {
            let mut keys = Vec::new();
            let mut at = v.contains(self.key).then_some(self.key);
            while let Some(k) = at {
                keys.push(k);
                at = v.first_child(k);
            }
            keys
        });
        Python::attach(|py| keys.into_iter().map(|k| self.at(py, k)).collect())
    }

    /// The move this node plays: `B`, else `W`.
    pub(crate) fn played(v: View<'_>, key: u32) -> Result<Option<(&'static str, Move)>, Fail> {
        let reading = Reading::new(v);
        for ident in ["B", "W"] {
            if let Some(value) = v.first(key, ident) {
                let m = reading
                    .move_of(value.0)
                    .ok_or_else(|| reading.malformed(ident, value))?;
                return Ok(Some((ident, m)));
            }
        }
        Ok(None)
    }
}

#[pymethods]
impl Node {
    /// The game this node belongs to.
    #[getter]
    fn game(&self, py: Python<'_>) -> Py<Game> {
        self.game.clone_ref(py)
    }

    /// The node's number in its game: the root is 0, nodes read from the
    /// input are numbered in pre-order (file order), nodes added by edits
    /// after them. It never changes, and a deleted node's number is never
    /// given to another node (:meth:`Game.node` finds a node by it).
    #[getter]
    fn id(&self) -> u32 {
        self.key
    }

    /// The parent, ``None`` for the root.
    #[getter]
    fn parent(&self, py: Python<'_>) -> PyResult<Option<Node>> {
        Ok(self.read(|v, k| v.parent(k))?.map(|p| self.at(py, p)))
    }

    /// The children in order: the first continues the main line, the
    /// others are variations.
    #[getter]
    fn children(&self, py: Python<'_>) -> PyResult<Vec<Node>> {
        let keys = self.read(|v, k| v.children(k))?;
        Ok(keys.into_iter().map(|c| self.at(py, c)).collect())
    }

    /// The first child (the next node of the line), ``None`` at a leaf.
    #[getter]
    fn first_child(&self, py: Python<'_>) -> PyResult<Option<Node>> {
        Ok(self.read(|v, k| v.first_child(k))?.map(|c| self.at(py, c)))
    }

    /// The children after the first: the variations that start here.
    #[getter]
    fn variations(&self, py: Python<'_>) -> PyResult<Vec<Node>> {
        let keys = self.read(|v, k| v.children(k))?;
        Ok(keys.into_iter().skip(1).map(|c| self.at(py, c)).collect())
    }

    /// Whether this is the root.
    #[getter]
    fn is_root(&self) -> PyResult<bool> {
        self.read(|v, k| v.parent(k).is_none())
    }

    /// Whether the node has no children.
    #[getter]
    fn is_leaf(&self) -> PyResult<bool> {
        self.read(|v, k| v.child_count(k) == 0)
    }

    /// The number of nodes above this one (0 for the root).
    #[getter]
    fn depth(&self) -> PyResult<usize> {
        self.read(|v, k| {
            let mut depth = 0;
            let mut at = v.parent(k);
            while let Some(p) = at {
                depth += 1;
                at = v.parent(p);
            }
            depth
        })
    }

    /// This node and each first child below it, to the end of the line.
    ///
    /// >>> import sgf_grove
    /// >>> game = sgf_grove.parse(b"(;GM[1];B[aa](;W[bb];B[cc])(;W[dd]))")[0]
    /// >>> [n.move[1] for n in game.root.children[0].variations[0].main_line()]
    /// [(3, 3)]
    fn main_line(&self) -> Vec<Node> {
        self.main_line_keys(self.game.get())
    }

    /// The nodes above this one, from its parent up to the root.
    fn ancestors(&self, py: Python<'_>) -> PyResult<Vec<Node>> {
        let keys = self.read(|v, k| {
            let mut keys = Vec::new();
            let mut at = v.parent(k);
            while let Some(p) = at {
                keys.push(p);
                at = v.parent(p);
            }
            keys
        })?;
        Ok(keys.into_iter().map(|k| self.at(py, k)).collect())
    }

    /// The line from the root to this node, both included.
    fn line(&self, py: Python<'_>) -> PyResult<Vec<Node>> {
        let mut line = self.ancestors(py)?;
        line.reverse();
        line.push(self.at(py, self.key));
        Ok(line)
    }

    /// This node and every node below it, in pre-order.
    fn subtree(&self, py: Python<'_>) -> PyResult<Vec<Node>> {
        let keys = self.read(|v, k| v.subtree(k))?;
        Ok(keys.into_iter().map(|k| self.at(py, k)).collect())
    }

    /// The identifiers of the node's properties, in order.
    ///
    /// >>> import sgf_grove
    /// >>> sgf_grove.parse(b"(;GM[1]SZ[9]PB[x])")[0].root.properties()
    /// ['GM', 'SZ', 'PB']
    fn properties(&self) -> PyResult<Vec<String>> {
        self.read(|v, k| v.idents(k).into_iter().map(str::to_owned).collect())
    }

    /// Every property with its raw values (bytes as in the file: escaped,
    /// in the game's charset), in order.
    ///
    /// >>> import sgf_grove
    /// >>> sgf_grove.parse(b"(;GM[1]AB[aa][bb])")[0].root.raw_properties()
    /// {'GM': [b'1'], 'AB': [b'aa', b'bb']}
    fn raw_properties<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let props: Vec<(String, Vec<Vec<u8>>)> = self.read(|v, k| {
            v.properties(k)
                .into_iter()
                .map(|(ident, values)| {
                    (
                        ident.to_owned(),
                        values.into_iter().map(|(r, _)| r.to_vec()).collect(),
                    )
                })
                .collect()
        })?;
        let dict = PyDict::new(py);
        for (ident, values) in props {
            let values: Vec<Bound<'py, PyBytes>> =
                values.iter().map(|b| PyBytes::new(py, b)).collect();
            dict.set_item(ident, values)?;
        }
        Ok(dict)
    }

    /// The first raw value of ``ident`` (bytes as in the file: escaped, in
    /// the game's charset), or ``None`` when the node lacks it.
    fn get_raw<'py>(&self, py: Python<'py>, ident: &str) -> PyResult<Option<Bound<'py, PyBytes>>> {
        let raw = self.read(|v, k| v.first(k, ident).map(|(r, _)| r.to_vec()))?;
        Ok(raw.map(|r| PyBytes::new(py, &r)))
    }

    /// Every raw value of ``ident`` (empty when the node lacks it).
    fn get_raw_list<'py>(
        &self,
        py: Python<'py>,
        ident: &str,
    ) -> PyResult<Vec<Bound<'py, PyBytes>>> {
        let raws: Vec<Vec<u8>> = self.read(|v, k| {
            v.values(k, ident)
                .unwrap_or_default()
                .into_iter()
                .map(|(r, _)| r.to_vec())
                .collect()
        })?;
        Ok(raws.iter().map(|r| PyBytes::new(py, r)).collect())
    }

    /// The value of property ``ident``, typed as the FF[4] catalogue types
    /// it, or ``default`` when the node lacks it.
    ///
    /// - a property that takes one value gives that value: ``int``
    ///   (Number; Double as 1 or 2), ``float`` (Real), ``"B"``/``"W"``
    ///   (Color), ``str`` (text, decoded), ``(x, y)`` (point), ``(x, y)``
    ///   or ``None`` (move: ``None`` is a pass, so test ``ident in node``
    ///   to tell a pass from no move), ``True`` (``KO[]`` and other
    ///   properties of the None type), a tuple for a compose value;
    /// - a property that takes a list gives a list (point lists expanded:
    ///   ``AB[aa:bb]`` is four points);
    /// - a property the catalogue does not know gives its first value as
    ///   text.
    ///
    /// Raises :class:`SgfError` (kind ``"invalid_value"``, with the value's
    /// position) when the value is malformed.
    ///
    /// >>> import sgf_grove
    /// >>> root = sgf_grove.parse(b"(;GM[1]SZ[19]KM[6.5]HA[2]PL[W]AB[aa:ab]XX[private])")[0].root
    /// >>> root.get("KM"), root.get("HA"), root.get("PL"), root.get("AB"), root.get("XX")
    /// (6.5, 2, 'W', [(0, 0), (0, 1)], 'private')
    /// >>> root.get("PB", "nobody")
    /// 'nobody'
    #[pyo3(signature = (ident, default = None))]
    fn get(&self, py: Python<'_>, ident: &str, default: Option<Py<PyAny>>) -> PyResult<Py<PyAny>> {
        let value = self.read(|v, k| match v.values(k, ident) {
            Some(values) => Reading::new(v).value(ident, &values).map(Some),
            None => Ok(None),
        })??;
        match value {
            Some(value) => Ok(value.into_pyobject(py)?.unbind()),
            None => Ok(default.unwrap_or_else(|| py.None())),
        }
    }

    /// Every value of ``ident``, each typed as :meth:`get` types one
    /// (empty when the node lacks it).
    ///
    /// >>> import sgf_grove
    /// >>> sgf_grove.parse(b"(;GM[1]C[a][b])")[0].root.get_list("C")
    /// ['a', 'b']
    fn get_list(&self, py: Python<'_>, ident: &str) -> PyResult<Py<PyAny>> {
        let values = self.read(|v, k| match v.values(k, ident) {
            Some(values) => Reading::new(v).all(ident, &values),
            None => Ok(Vec::new()),
        })??;
        Ok(Value::List(values).into_pyobject(py)?.unbind())
    }

    fn __getitem__(&self, py: Python<'_>, ident: &str) -> PyResult<Py<PyAny>> {
        let value = self.read(|v, k| match v.values(k, ident) {
            Some(values) => Reading::new(v).value(ident, &values).map(Some),
            None => Ok(None),
        })??;
        match value {
            Some(value) => Ok(value.into_pyobject(py)?.unbind()),
            None => Err(PyKeyError::new_err(ident.to_owned())),
        }
    }

    fn __contains__(&self, ident: &str) -> PyResult<bool> {
        self.read(|v, k| v.has(k, ident))
    }

    fn __len__(&self) -> PyResult<usize> {
        self.read(|v, k| v.idents(k).len())
    }

    /// A node is always true, even one without properties (``len`` counts
    /// its properties).
    fn __bool__(&self) -> bool {
        true
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let list = pyo3::types::PyList::new(py, self.properties()?)?;
        Ok(list.try_iter()?.into_any().unbind())
    }

    /// The move the node plays, as ``(colour, point)``: colour ``"B"`` or
    /// ``"W"``, point ``(x, y)`` or ``None`` for a pass; ``None`` when the
    /// node plays no move, or its move is no point of the board
    /// (``B[ta]`` on 19×19: never raised, so that a scan loop goes on;
    /// :meth:`read_move` with ``strict=True`` raises instead). ``B`` wins
    /// when a node has both.
    ///
    /// >>> import sgf_grove
    /// >>> game = sgf_grove.parse(b"(;SZ[19];B[pd];W[ta];B[])")[0]
    /// >>> [n.move for n in game.main_line()[1:]]
    /// [('B', (15, 3)), None, ('B', None)]
    #[getter(r#move)]
    fn get_move(&self, py: Python<'_>) -> PyResult<Option<(&'static str, Py<PyAny>)>> {
        self.read_move(py, false)
    }

    /// The move the node plays, as :attr:`move` gives it; with
    /// ``strict=True`` a move that is no point of the board raises
    /// :class:`SgfError` (with its position) instead of reading as
    /// ``None``.
    ///
    /// >>> import sgf_grove
    /// >>> node = sgf_grove.parse(b"(;SZ[19];W[ta])")[0].main_line()[1]
    /// >>> node.read_move() is None
    /// True
    /// >>> try:
    /// ...     node.read_move(strict=True)
    /// ... except sgf_grove.SgfError as e:
    /// ...     print(e.kind)
    /// invalid_value
    #[pyo3(signature = (*, strict = false))]
    fn read_move(
        &self,
        py: Python<'_>,
        strict: bool,
    ) -> PyResult<Option<(&'static str, Py<PyAny>)>> {
        let played = match self.read(Node::played)? {
            Ok(played) => played,
            Err(fail) if strict => return Err(fail.into()),
            Err(_) => None,
        };
        match played {
            Some((ident, m)) => Ok(Some((ident, Value::from(m).into_pyobject(py)?.unbind()))),
            None => Ok(None),
        }
    }

    /// The comment (``C``) as text, ``None`` when there is none.
    #[getter]
    fn comment(&self) -> PyResult<Option<String>> {
        self.read(|v, k| v.first(k, "C").map(|(raw, _)| Reading::new(v).text(raw)))
    }

    /// The byte offset of the node's ``;`` in the input it was parsed
    /// from (for a game of :func:`scan`, in its ``origin``: the file or
    /// archive member, as :attr:`Game.offset`); ``None`` once its game is
    /// edited, and for nodes made by edits.
    #[getter]
    fn offset(&self) -> PyResult<Option<usize>> {
        self.read(|v, k| v.node_offset(k))
    }

    /// Where the node starts in its input, as ``(line, column)`` (1-based,
    /// the column in bytes); ``None`` as for :attr:`offset`.
    #[getter]
    fn position(&self) -> PyResult<Option<(u32, u32)>> {
        self.read(|v, k| {
            let p = v.node_position(k)?;
            Some((p.line, p.column))
        })
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let Ok(other) = other.cast::<Node>() else {
            return Ok(py.NotImplemented());
        };
        let other = other.get();
        let same = self.game.as_ptr() == other.game.as_ptr() && self.key == other.key;
        match op {
            CompareOp::Eq => Ok(same.into_pyobject(py)?.to_owned().into_any().unbind()),
            CompareOp::Ne => Ok((!same).into_pyobject(py)?.to_owned().into_any().unbind()),
            _ => Ok(py.NotImplemented()),
        }
    }

    fn __hash__(&self) -> u64 {
        (self.game.as_ptr() as usize as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ self.key as u64
    }

    fn __repr__(&self) -> String {
        let shown = self.read(|v, k| {
            let mut s = String::new();
            for (ident, values) in v.properties(k).into_iter().take(4) {
                s.push_str(ident);
                for (raw, _) in values.into_iter().take(2) {
                    let text = String::from_utf8_lossy(raw);
                    let text: String = text.chars().take(20).collect();
                    s.push('[');
                    s.push_str(&text);
                    s.push(']');
                }
            }
            s
        });
        match shown {
            Ok(s) => format!("<sgf_grove.Node {} {s}>", self.key),
            Err(_) => format!("<sgf_grove.Node {} (deleted)>", self.key),
        }
    }
}
