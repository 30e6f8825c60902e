//! Editing and writing: new games, properties set (typed and raw) and
//! removed, nodes added, deleted, moved and promoted, comments appended,
//! the board transformed, and games written in every mode of the
//! library's writer.
//!
//! A parsed game becomes an editable copy of its own
//! ([`sgf_grove::edit::EditableGame`]) at its first edit; node numbers
//! stay. Python values are converted before the game's lock is taken (a
//! conversion may run Python code), following the catalogue type of the
//! property, as reading does.

use crate::core::{Fail, Game, Node, State};
use pyo3::exceptions::{PyKeyError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyFrozenSet, PyList, PySet, PyString, PyTuple};
use sgf_grove::edit::{EditId, EditableGame};
use sgf_grove::encoding_rs::Encoding;
use sgf_grove::game::{Symmetry, Transform};
use sgf_grove::value::{
    catalogue, Arity, BoardSize, Color, Double, Empty, Move, Point, PropInfo, ToValue, ValueType,
};
use sgf_grove::writer::{PointStyle, Preset, Target, WriteOptions, Writer};

/// A value to write, converted from Python.
#[derive(Clone, Debug)]
enum Val {
    Text(String),
    Int(i64),
    Real(f64),
    Color(Color),
    Double(Double),
    Move(Move),
    Point(Point),
    Size(BoardSize),
    Empty,
    Pair(Box<Val>, Box<Val>),
}

impl ToValue for Val {
    fn write_value(&self, out: &mut Vec<u8>) -> sgf_grove::Result<()> {
        match self {
            Val::Text(s) => s.write_value(out),
            Val::Int(n) => n.write_value(out),
            Val::Real(r) => r.write_value(out),
            Val::Color(c) => c.write_value(out),
            Val::Double(d) => d.write_value(out),
            Val::Move(m) => m.write_value(out),
            Val::Point(p) => p.write_value(out),
            Val::Size(s) => s.write_value(out),
            Val::Empty => Empty.write_value(out),
            Val::Pair(a, b) => (a.as_ref(), b.as_ref()).write_value(out),
        }
    }

    fn write_half(&self, out: &mut Vec<u8>) -> sgf_grove::Result<()> {
        match self {
            Val::Text(s) => s.write_half(out),
            other => other.write_value(out),
        }
    }
}

fn type_error(ident: &str, want: &str, got: &Bound<'_, PyAny>) -> PyErr {
    let ty = got
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default();
    PyTypeError::new_err(format!("{ident} takes {want}, not {ty}"))
}

/// A point from `(x, y)` or two SGF letters (`"pd"`).
fn to_point(ident: &str, v: &Bound<'_, PyAny>) -> PyResult<Point> {
    if let Ok(s) = v.cast::<PyString>() {
        return s
            .to_cow()?
            .parse::<Point>()
            .map_err(|e| PyValueError::new_err(format!("{ident}: {e}")));
    }
    let (x, y): (i64, i64) = v
        .extract()
        .map_err(|_| type_error(ident, "a point (x, y)", v))?;
    match (u8::try_from(x), u8::try_from(y)) {
        (Ok(x), Ok(y)) if x < 52 && y < 52 => Ok(Point { x, y }),
        _ => Err(PyValueError::new_err(format!(
            "{ident}: ({x}, {y}) is no point (0 to 51 each)"
        ))),
    }
}

/// `v` as a value of type `ty` (or `alt`) of property `ident`.
fn to_val(
    ident: &str,
    ty: ValueType,
    alt: Option<ValueType>,
    v: &Bound<'_, PyAny>,
) -> PyResult<Val> {
    let first = to_val_as(ident, ty, v);
    match (first, alt) {
        (Ok(val), _) => Ok(val),
        (Err(e), Some(alt)) => to_val_as(ident, alt, v).map_err(|_| e),
        (Err(e), None) => Err(e),
    }
}

fn to_val_as(ident: &str, ty: ValueType, v: &Bound<'_, PyAny>) -> PyResult<Val> {
    Ok(match ty {
        ValueType::None => {
            if v.is_none() || v.is_truthy()? {
                Val::Empty
            } else {
                return Err(PyValueError::new_err(format!(
                    "{ident} takes no value: set it to True (or remove it)"
                )));
            }
        }
        ValueType::Number => {
            if v.is_instance_of::<pyo3::types::PyBool>() {
                return Err(type_error(ident, "an int", v));
            }
            if ident == "SZ" {
                let n: i64 = v.extract().map_err(|_| type_error(ident, "an int", v))?;
                return size_val(ident, n, n);
            }
            Val::Int(v.extract().map_err(|_| type_error(ident, "an int", v))?)
        }
        ValueType::Real => Val::Real(v.extract().map_err(|_| type_error(ident, "a float", v))?),
        ValueType::Double => match v.extract::<i64>() {
            Ok(1) => Val::Double(Double::Normal),
            Ok(2) => Val::Double(Double::Emphasized),
            _ => return Err(PyValueError::new_err(format!("{ident} takes 1 or 2"))),
        },
        ValueType::Color => {
            let s: String = v
                .extract()
                .map_err(|_| type_error(ident, "'B' or 'W'", v))?;
            match s.as_str() {
                "B" | "b" => Val::Color(Color::Black),
                "W" | "w" => Val::Color(Color::White),
                _ => return Err(PyValueError::new_err(format!("{ident} takes 'B' or 'W'"))),
            }
        }
        ValueType::SimpleText | ValueType::Text => {
            Val::Text(v.extract().map_err(|_| type_error(ident, "a str", v))?)
        }
        ValueType::Point | ValueType::Stone => Val::Point(to_point(ident, v)?),
        ValueType::Move => {
            if v.is_none() {
                Val::Move(Move::Pass)
            } else {
                Val::Move(Move::Play(to_point(ident, v)?))
            }
        }
        ValueType::Compose(a, b) => {
            let t = v
                .cast::<PyTuple>()
                .map_err(|_| type_error(ident, "a pair (a, b)", v))?;
            if t.len() != 2 {
                return Err(PyValueError::new_err(format!(
                    "{ident} takes a pair (a, b)"
                )));
            }
            if ident == "SZ" {
                let (c, r): (i64, i64) = t.extract()?;
                return size_val(ident, c, r);
            }
            let x = to_val_as(ident, *a, &t.get_item(0)?)?;
            let y = to_val_as(ident, *b, &t.get_item(1)?)?;
            Val::Pair(Box::new(x), Box::new(y))
        }
    })
}

fn size_val(ident: &str, cols: i64, rows: i64) -> PyResult<Val> {
    match (u8::try_from(cols), u8::try_from(rows)) {
        (Ok(c), Ok(r)) if (1..=52).contains(&c) && (1..=52).contains(&r) => {
            Ok(Val::Size(BoardSize { cols: c, rows: r }))
        }
        _ => Err(PyValueError::new_err(format!(
            "{ident}: a board is 1 to 52 points a side, not {cols}x{rows}"
        ))),
    }
}

/// `v` as a value of a property the catalogue does not know.
fn untyped(ident: &str, v: &Bound<'_, PyAny>) -> PyResult<Val> {
    if let Ok(s) = v.cast::<PyString>() {
        Ok(Val::Text(s.to_cow()?.into_owned()))
    } else if v.is_instance_of::<pyo3::types::PyBool>() {
        Err(type_error(ident, "str, int or float", v))
    } else if let Ok(n) = v.extract::<i64>() {
        Ok(Val::Int(n))
    } else if let Ok(r) = v.extract::<f64>() {
        Ok(Val::Real(r))
    } else {
        Err(type_error(
            ident,
            "str, int or float (bytes for a raw value)",
            v,
        ))
    }
}

/// What `node.set(ident, value)` writes.
enum Plan {
    One(Val),
    List(Vec<Val>),
    Raw(Vec<Vec<u8>>),
    Remove,
}

fn is_collection(v: &Bound<'_, PyAny>) -> bool {
    v.is_instance_of::<PyList>() || v.is_instance_of::<PySet>() || v.is_instance_of::<PyFrozenSet>()
}

/// The items of a list, or of a set in reading order (points row by row:
/// a set has no order of its own).
fn items<'py>(v: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let mut out: Vec<Bound<'py, PyAny>> = v.try_iter()?.collect::<PyResult<_>>()?;
    if !v.is_instance_of::<PyList>() {
        let mut keyed = Vec::with_capacity(out.len());
        for item in out.drain(..) {
            let key: Option<(i64, i64)> = item.extract().ok().map(|(x, y): (i64, i64)| (y, x));
            keyed.push((key, item));
        }
        keyed.sort_by_key(|(k, _)| *k);
        out = keyed.into_iter().map(|(_, i)| i).collect();
    }
    Ok(out)
}

fn plan(ident: &str, info: Option<&PropInfo>, v: &Bound<'_, PyAny>) -> PyResult<Plan> {
    if let Ok(b) = v.cast::<PyBytes>() {
        return Ok(Plan::Raw(vec![b.as_bytes().to_vec()]));
    }
    match info {
        Some(info) if info.arity != Arity::One => {
            if is_collection(v) {
                let list = items(v)?;
                if list.is_empty() {
                    return Ok(match info.arity {
                        Arity::EList => Plan::One(Val::Empty),
                        _ => Plan::Remove,
                    });
                }
                if list.iter().all(|i| i.is_instance_of::<PyBytes>()) {
                    let raws = list
                        .iter()
                        .map(|i| Ok(i.cast::<PyBytes>()?.as_bytes().to_vec()))
                        .collect::<PyResult<_>>()?;
                    return Ok(Plan::Raw(raws));
                }
                let vals = list
                    .iter()
                    .map(|i| to_val(ident, info.ty, info.alt, i))
                    .collect::<PyResult<_>>()?;
                Ok(Plan::List(vals))
            } else {
                Ok(Plan::One(to_val(ident, info.ty, info.alt, v)?))
            }
        }
        Some(info) => Ok(Plan::One(to_val(ident, info.ty, info.alt, v)?)),
        None if is_collection(v) => {
            let list = items(v)?;
            if list.is_empty() {
                return Ok(Plan::Remove);
            }
            if list.iter().all(|i| i.is_instance_of::<PyBytes>()) {
                let raws = list
                    .iter()
                    .map(|i| Ok(i.cast::<PyBytes>()?.as_bytes().to_vec()))
                    .collect::<PyResult<_>>()?;
                return Ok(Plan::Raw(raws));
            }
            Ok(Plan::List(
                list.iter()
                    .map(|i| untyped(ident, i))
                    .collect::<PyResult<_>>()?,
            ))
        }
        None => Ok(Plan::One(untyped(ident, v)?)),
    }
}

/// The key as an edit id (checked by the game's methods).
fn id(key: u32) -> Result<EditId, Fail> {
    EditId::from_index(key as usize).ok_or_else(|| Fail {
        kind: "no_such_node",
        message: "no such node in this game".into(),
        pos: None,
    })
}

fn lib(err: sgf_grove::Error) -> Fail {
    Fail::from_error(&err, None)
}

/// Checks an identifier from Python: one or more upper-case letters.
fn check_ident(ident: &str) -> PyResult<()> {
    if !ident.is_empty() && ident.bytes().all(|b| b.is_ascii_uppercase()) {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "{ident:?} is no property identifier (upper-case letters)"
        )))
    }
}

impl Node {
    fn edit<R>(&self, f: impl FnOnce(&mut EditableGame, EditId) -> Result<R, Fail>) -> PyResult<R> {
        let key = self.key;
        Ok(self.game.get().edit(|g| f(g, id(key)?))?)
    }

    fn same_game(&self, other: &Node) -> PyResult<()> {
        if self.game.as_ptr() == other.game.as_ptr() {
            Ok(())
        } else {
            Err(PyValueError::new_err("the nodes belong to different games"))
        }
    }
}

#[pymethods]
impl Node {
    /// Sets property ``ident`` to ``value``, typed as the catalogue types
    /// it (the types :meth:`get` gives back): a point ``(x, y)`` or
    /// ``"pd"``, a move (a point, or ``None`` for a pass), ``str`` for
    /// text, ``int``, ``float``, ``"B"``/``"W"``, ``True`` for ``KO[]``, a
    /// tuple for a compose value (``LB``: ``((x, y), "A")``; ``SZ``: ``19``
    /// or ``(19, 13)``), a list (or set) for a property that takes several
    /// values (an empty one removes the property). ``bytes`` (or a list of
    /// them) is written raw, as :meth:`set_raw` writes it. A property the
    /// catalogue does not know takes ``str``, ``int`` or ``float``.
    ///
    /// Text is escaped and written in the game's charset. An existing
    /// property keeps its place; a new one goes last.
    ///
    /// Raises ``TypeError``/``ValueError`` for a value of the wrong kind,
    /// :class:`SgfError` when the game refuses it (``SZ`` outside the root,
    /// a character the charset lacks, ...).
    ///
    /// >>> import sgf_grove
    /// >>> game = sgf_grove.Game(9)
    /// >>> root = game.root
    /// >>> root.set("KM", 6.5); root.set("PB", "Shin Jinseo"); root["AB"] = [(2, 2), (6, 6)]
    /// >>> root.add_child().set("B", (4, 4))
    /// >>> game.serialise()
    /// b'(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[6.5]PB[Shin Jinseo]AB[cc][gg];B[ee])\n'
    fn set(&self, ident: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        check_ident(ident)?;
        let gm = self.game.get().read(|v| v.game_type());
        let info = catalogue::lookup(gm, ident);
        let plan = plan(ident, info, value)?;
        self.edit(|g, id| {
            match plan {
                Plan::One(v) => g.set(id, ident, v),
                Plan::List(vs) => g.set_list(id, ident, vs),
                Plan::Raw(raws) => {
                    let raws: Vec<&[u8]> = raws.iter().map(Vec::as_slice).collect();
                    g.set_raw_values(id, ident, &raws)
                }
                Plan::Remove => g.remove(id, ident).map(drop),
            }
            .map_err(lib)
        })
    }

    fn __setitem__(&self, ident: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.set(ident, value)
    }

    /// Sets property ``ident`` to raw ``value``: ``bytes`` as in a file
    /// (escaped, in the game's charset, without the brackets), or a list of
    /// them for several values. Bytes a reader would not read back as the
    /// same values (an unescaped ``]``, a lone ``\`` at the end, ...) raise
    /// :class:`SgfError` (kind ``"invalid_raw_value"``).
    ///
    /// >>> import sgf_grove
    /// >>> root = sgf_grove.Game(19).root
    /// >>> root.set_raw("C", b"a \\] bracket"); root["C"]
    /// 'a ] bracket'
    /// >>> root.set_raw("C", b"a ] bracket")
    /// Traceback (most recent call last):
    ///   ...
    /// sgf_grove.SgfError: invalid raw value: an unescaped `]`
    fn set_raw(&self, ident: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        check_ident(ident)?;
        let raws: Vec<Vec<u8>> = if let Ok(b) = value.cast::<PyBytes>() {
            vec![b.as_bytes().to_vec()]
        } else {
            value
                .try_iter()?
                .map(|i| Ok(i?.cast::<PyBytes>()?.as_bytes().to_vec()))
                .collect::<PyResult<_>>()
                .map_err(|_| type_error(ident, "bytes or a list of bytes", value))?
        };
        self.edit(|g, id| {
            let raws: Vec<&[u8]> = raws.iter().map(Vec::as_slice).collect();
            g.set_raw_values(id, ident, &raws).map_err(lib)
        })
    }

    /// Removes property ``ident``; whether the node had it.
    ///
    /// >>> import sgf_grove
    /// >>> root = sgf_grove.parse(b"(;GM[1]C[x])")[0].root
    /// >>> root.remove("C"), root.remove("C"), "C" in root
    /// (True, False, False)
    fn remove(&self, ident: &str) -> PyResult<bool> {
        self.edit(|g, id| g.remove(id, ident).map_err(lib))
    }

    fn __delitem__(&self, ident: &str) -> PyResult<()> {
        if self.remove(ident)? {
            Ok(())
        } else {
            Err(PyKeyError::new_err(ident.to_owned()))
        }
    }

    /// Adds a new node without properties as child ``index`` of this one
    /// (``None``: the last; 0: the new main line) and returns it.
    ///
    /// >>> import sgf_grove
    /// >>> game = sgf_grove.parse(b"(;GM[1];B[aa])")[0]
    /// >>> game.root.add_child(0).set("B", (1, 1))
    /// >>> game.serialise()
    /// b'(;GM[1](;B[bb])(;B[aa]))\n'
    #[pyo3(signature = (index = None))]
    fn add_child(&self, py: Python<'_>, index: Option<usize>) -> PyResult<Node> {
        let new = self.edit(|g, id| {
            let at = index.unwrap_or_else(|| g.node(id).map_or(0, |n| n.children().len()));
            g.add_child(id, at).map_err(lib)
        })?;
        Ok(self.at(py, new.index() as u32))
    }

    /// Adds a child playing a move for ``colour`` (``"B"`` or ``"W"``) at
    /// ``point`` (``(x, y)``, ``"pd"``, or ``None`` for a pass), as the last
    /// child (a variation when there are children already), and returns it.
    ///
    /// >>> import sgf_grove
    /// >>> game = sgf_grove.Game(19)
    /// >>> game.root.play("B", (15, 3)).play("W", "dd").play("B", None).move
    /// ('B', None)
    /// >>> game.serialise()
    /// b'(;GM[1]FF[4]CA[UTF-8]SZ[19];B[pd];W[dd];B[])\n'
    fn play(&self, py: Python<'_>, colour: &str, point: &Bound<'_, PyAny>) -> PyResult<Node> {
        let ident = match colour {
            "B" | "b" => "B",
            "W" | "w" => "W",
            _ => {
                return Err(PyValueError::new_err(format!(
                    "colour must be 'B' or 'W', not {colour:?}"
                )))
            }
        };
        let mv = if point.is_none() {
            Move::Pass
        } else {
            Move::Play(to_point(ident, point)?)
        };
        let new = self.edit(|g, id| {
            let child = g.push_child(id).map_err(lib)?;
            g.set(child, ident, mv).map_err(lib)?;
            Ok(child)
        })?;
        Ok(self.at(py, new.index() as u32))
    }

    /// Deletes this node and everything below it. Their handles then raise
    /// :class:`SgfError` (kind ``"no_such_node"``); the root cannot be
    /// deleted (kind ``"root_node"``).
    fn delete(&self) -> PyResult<()> {
        self.edit(|g, id| g.delete(id).map_err(lib))
    }

    /// Moves this node and everything below it to be child ``index`` of
    /// ``parent`` (``None``: the last), a node of the same game. A move
    /// under itself raises :class:`SgfError` (kind ``"would_create_loop"``).
    ///
    /// >>> import sgf_grove
    /// >>> game = sgf_grove.parse(b"(;GM[1];B[aa];W[bb];B[cc])")[0]
    /// >>> root, b, w, _ = game.nodes()
    /// >>> w.move_to(root)
    /// >>> game.serialise()
    /// b'(;GM[1](;B[aa])(;W[bb];B[cc]))\n'
    #[pyo3(signature = (parent, index = None))]
    fn move_to(&self, parent: &Bound<'_, Node>, index: Option<usize>) -> PyResult<()> {
        let parent = parent.get();
        self.same_game(parent)?;
        let to = parent.key;
        self.edit(|g, id| {
            let to = self::id(to)?;
            let at = match index {
                Some(i) => i,
                None => {
                    let children = g.node(to).map_err(lib)?.children();
                    children.iter().filter(|&&c| c != id).count()
                }
            };
            g.move_to(id, to, at).map_err(lib)
        })
    }

    /// Moves this node to place ``index`` among its siblings (0: the main
    /// line), keeping the others in order.
    fn set_index(&self, index: usize) -> PyResult<()> {
        self.edit(|g, id| g.set_child_index(id, index).map_err(lib))
    }

    /// The node's place among its parent's children (0: the main line; 0
    /// for the root).
    #[getter]
    fn index(&self) -> PyResult<usize> {
        let key = self.key;
        let parent = self.read(|v, k| v.parent(k).map(|p| v.children(p)))?;
        Ok(parent
            .and_then(|c| c.iter().position(|&k| k == key))
            .unwrap_or(0))
    }

    /// Makes this node part of the main line: it and each of its ancestors
    /// become the first child of their parents.
    ///
    /// >>> import sgf_grove
    /// >>> game = sgf_grove.parse(b"(;GM[1];B[pd](;W[dd])(;W[dp]))")[0]
    /// >>> game.root.first_child.children[1].promote()
    /// >>> game.serialise()
    /// b'(;GM[1];B[pd](;W[dp])(;W[dd]))\n'
    fn promote(&self) -> PyResult<()> {
        self.edit(|g, id| g.promote(id).map_err(lib))
    }

    /// Appends ``text`` to the comment (``C``), on a new line when there is
    /// one already.
    ///
    /// >>> import sgf_grove
    /// >>> root = sgf_grove.parse(b"(;GM[1]C[first])")[0].root
    /// >>> root.append_comment("second"); root.comment
    /// 'first\nsecond'
    fn append_comment(&self, text: &str) -> PyResult<()> {
        self.edit(|g, id| g.append_comment(id, text).map_err(lib))
    }
}

/// Write options from the Python keywords.
#[allow(clippy::too_many_arguments)]
fn write_options(
    canonical: bool,
    utf8: bool,
    charset: Option<&str>,
    points: &str,
    tt_pass: bool,
    wrap: usize,
    drop: Vec<String>,
    drop_presets: Vec<String>,
) -> PyResult<WriteOptions> {
    let style = match points {
        "as_written" => PointStyle::AsWritten,
        "expand" => PointStyle::Expand,
        "compress" => PointStyle::Compress,
        other => {
            return Err(PyValueError::new_err(format!(
                "points must be 'as_written', 'expand' or 'compress', not {other:?}"
            )))
        }
    };
    let mut o = WriteOptions::new()
        .canonical(canonical)
        .tt_pass(tt_pass)
        .points(style)
        .wrap(wrap)
        .drop_props(drop);
    match (utf8, charset) {
        (true, Some(_)) => {
            return Err(PyValueError::new_err(
                "give utf8=True or charset=..., not both",
            ))
        }
        (true, None) => o = o.transcode(Target::Utf8),
        (false, Some(label)) => match Encoding::for_label(label.as_bytes()) {
            Some(enc) => o = o.transcode(Target::To(enc)),
            None => {
                return Err(pyo3::exceptions::PyLookupError::new_err(format!(
                    "unknown charset {label:?}"
                )))
            }
        },
        (false, None) => {}
    }
    for name in drop_presets {
        match Preset::from_name(&name) {
            Some(p) => o = o.drop_preset(p),
            None => {
                return Err(PyValueError::new_err(format!(
                    "unknown preset {name:?} (comments, analysis, markup, times)"
                )))
            }
        }
    }
    Ok(o)
}

/// The game written with `options`, one game tree and a line break.
fn write_game(game: &Game, options: &WriteOptions) -> Result<Vec<u8>, Fail> {
    let state = game.lock();
    match &*state {
        State::Parsed { source, game } => source.with_game(*game, |g| {
            let mut w = Writer::with_options(Vec::new(), options.clone());
            w.write_game(g).map_err(lib)?;
            Ok(w.into_inner())
        }),
        State::Edited(e) => e.write_with(options).map_err(lib),
    }
}

#[pymethods]
impl Game {
    /// A new, empty Go game on a board of ``size`` (an ``int`` for a
    /// square board, or ``(columns, rows)``): a root holding ``GM[1]``,
    /// ``FF[4]``, ``CA[UTF-8]`` and ``SZ``.
    ///
    /// >>> import sgf_grove
    /// >>> sgf_grove.Game((19, 13)).serialise()
    /// b'(;GM[1]FF[4]CA[UTF-8]SZ[19:13])\n'
    #[new]
    #[pyo3(signature = (size = None))]
    fn py_new(size: Option<&Bound<'_, PyAny>>) -> PyResult<Game> {
        let size = match size {
            None => BoardSize::square(19),
            Some(s) => {
                let (c, r) = match s.extract::<i64>() {
                    Ok(n) => (n, n),
                    Err(_) => s.extract::<(i64, i64)>()?,
                };
                match size_val("size", c, r)? {
                    Val::Size(b) => b,
                    _ => unreachable!("size_val gives a size"),
                }
            }
        };
        let game = EditableGame::new(size);
        Ok(Game::new(
            State::Edited(Box::new(game)),
            None,
            0,
            0,
            Vec::new(),
        ))
    }

    /// An independent copy (its edits do not touch this game); ``origin``,
    /// ``offset``, ``index`` and ``warnings`` are kept.
    fn copy(&self) -> Game {
        let state = match &*self.lock() {
            State::Parsed { source, game } => State::Parsed {
                source: source.clone(),
                game: *game,
            },
            State::Edited(e) => State::Edited(e.clone()),
        };
        Game::new(
            state,
            self.origin.clone(),
            self.offset,
            self.index,
            self.warnings.clone(),
        )
    }

    /// Applies a symmetry of the board to every property of the game
    /// (moves, setup, markup, labels, ...; ``SZ`` too on a rectangular
    /// board), and with ``swap_colors=True`` exchanges the colours (``B``
    /// and ``W``, ``AB`` and ``AW``, ``PB`` and ``PW``, ...). ``symmetry`` is
    /// a name of :data:`sgf_grove.SYMMETRIES`.
    ///
    /// >>> import sgf_grove
    /// >>> game = sgf_grove.parse(b"(;GM[1]SZ[19]PB[Lee]AB[aa:bb];B[pd]LB[pd:A])")[0]
    /// >>> game.transform("rot90", swap_colors=True)
    /// >>> game.serialise()
    /// b'(;GM[1]SZ[19]PW[Lee]AW[ra:sb];W[pp]LB[pp:A])\n'
    #[pyo3(signature = (symmetry = "identity", *, swap_colors = false))]
    fn transform(&self, symmetry: &str, swap_colors: bool) -> PyResult<()> {
        let symmetry = symmetry
            .parse::<Symmetry>()
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let t = Transform {
            symmetry,
            swap_colors,
        };
        Ok(self.edit(|g| g.transform(t).map_err(lib))?)
    }

    /// The game as SGF ``bytes``, one game tree and a line break.
    ///
    /// By default raw: every value byte for byte as read (an unedited game
    /// is written as it was read, identifiers normalised). ``canonical``
    /// orders properties and escapes values the FF[4] way (``tt_pass``:
    /// passes as ``tt`` on small boards; ``points``: ``"as_written"``,
    /// ``"expand"`` or ``"compress"`` point lists). ``utf8`` writes text in
    /// UTF-8 and records ``CA[UTF-8]`` (``charset``: another charset
    /// instead); a character it lacks raises :class:`SgfError` (kind
    /// ``"unrepresentable_character"``). ``wrap`` breaks lines at that width (between
    /// nodes and properties), ``drop`` leaves properties out, and
    /// ``drop_presets`` sets of them (``"comments"``, ``"analysis"``,
    /// ``"markup"``, ``"times"``).
    ///
    /// >>> import sgf_grove
    /// >>> game = sgf_grove.parse(b"(;CA[GB2312]PB[\xb3\xa3\xea\xbb]C[x];B[pd])")[0]
    /// >>> game.serialise(utf8=True).decode()
    /// '(;CA[UTF-8]PB[常昊]C[x];B[pd])\n'
    /// >>> game.serialise(canonical=True, drop_presets=["comments"])
    /// b'(;FF[4]CA[GB2312]PB[\xb3\xa3\xea\xbb];B[pd])\n'
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (*, canonical = false, utf8 = false, charset = None, points = "as_written",
                        tt_pass = false, wrap = 0, drop = Vec::new(), drop_presets = Vec::new()))]
    fn serialise<'py>(
        &self,
        py: Python<'py>,
        canonical: bool,
        utf8: bool,
        charset: Option<&str>,
        points: &str,
        tt_pass: bool,
        wrap: usize,
        drop: Vec<String>,
        drop_presets: Vec<String>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let o = write_options(
            canonical,
            utf8,
            charset,
            points,
            tt_pass,
            wrap,
            drop,
            drop_presets,
        )?;
        let bytes = write_game(self, &o)?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Writes :meth:`serialise` (same options) to the file ``path``.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (path, *, canonical = false, utf8 = false, charset = None,
                        points = "as_written", tt_pass = false, wrap = 0, drop = Vec::new(),
                        drop_presets = Vec::new()))]
    fn write(
        &self,
        path: std::path::PathBuf,
        canonical: bool,
        utf8: bool,
        charset: Option<&str>,
        points: &str,
        tt_pass: bool,
        wrap: usize,
        drop: Vec<String>,
        drop_presets: Vec<String>,
    ) -> PyResult<()> {
        let o = write_options(
            canonical,
            utf8,
            charset,
            points,
            tt_pass,
            wrap,
            drop,
            drop_presets,
        )?;
        let bytes = write_game(self, &o)?;
        std::fs::write(path, bytes)?;
        Ok(())
    }
}

/// Writes several games, one after the other, in one file or buffer.
///
/// >>> import sgf_grove
/// >>> games = sgf_grove.parse(b"(;GM[1];B[aa])\n(;GM[1];W[bb])")
/// >>> games[1].root.first_child.set("C", "edited")
/// >>> sgf_grove.serialise(games)
/// b'(;GM[1];B[aa])\n(;GM[1];W[bb]C[edited])\n'
#[allow(clippy::too_many_arguments)]
#[pyfunction]
#[pyo3(signature = (games, *, canonical = false, utf8 = false, charset = None,
                    points = "as_written", tt_pass = false, wrap = 0, drop = Vec::new(),
                    drop_presets = Vec::new()))]
fn serialise<'py>(
    py: Python<'py>,
    games: &Bound<'py, PyAny>,
    canonical: bool,
    utf8: bool,
    charset: Option<&str>,
    points: &str,
    tt_pass: bool,
    wrap: usize,
    drop: Vec<String>,
    drop_presets: Vec<String>,
) -> PyResult<Bound<'py, PyBytes>> {
    let o = write_options(
        canonical,
        utf8,
        charset,
        points,
        tt_pass,
        wrap,
        drop,
        drop_presets,
    )?;
    let mut out = Vec::new();
    for g in games.try_iter()? {
        let g = g?;
        let g = g.cast::<Game>()?;
        out.extend(write_game(g.get(), &o)?);
    }
    Ok(PyBytes::new(py, &out))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(serialise, m)?)?;
    Ok(())
}
