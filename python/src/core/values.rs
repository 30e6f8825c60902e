//! Values between SGF and Python, typed by the property catalogue.
//!
//! | SGF type | Python |
//! |---|---|
//! | Number | `int` |
//! | Real | `float` |
//! | Double | `int` (1 or 2) |
//! | Color | `"B"` or `"W"` |
//! | SimpleText, Text | `str` |
//! | Point, Stone | `(x, y)`: column and row from the top-left corner, 0-based |
//! | Move | `(x, y)`, or `None` for a pass |
//! | None (`KO[]`) | `True` |
//! | compose `a:b` | `(a, b)` |
//! | a point list (`AB`, `TR`, …) | a list of `(x, y)`, rectangles expanded |
//!
//! Text is decoded with a scratch arena per call, so reading never grows
//! the memory a game holds.

use super::errors::raise;
use super::view::{RawAt, View};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use pyo3::IntoPyObjectExt;
use sgf_grove::text::Arena;
use sgf_grove::value::{
    catalogue, decode_as, split_compose, Arity, Color, Double, FromValue, Move, Point, PropInfo,
    TypedValue, ValueContext, ValueType,
};
use sgf_grove::Position;

/// A value read from a game, owned, to become a Python object once the
/// game's lock is released (no Python object is made while it is held).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    /// `None` (an absent property, a pass).
    Null,
    /// `True` (the None type).
    Flag,
    Int(i64),
    Float(f64),
    Str(String),
    Point(Point),
    Pair(Box<Value>, Box<Value>),
    List(Vec<Value>),
}

impl<'py> IntoPyObject<'py> for Value {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(match self {
            Value::Null => py.None().into_bound(py),
            Value::Flag => true.into_bound_py_any(py)?,
            Value::Int(n) => n.into_bound_py_any(py)?,
            Value::Float(f) => f.into_bound_py_any(py)?,
            Value::Str(s) => s.into_bound_py_any(py)?,
            Value::Point(p) => point(py, p)?.into_any(),
            Value::Pair(a, b) => PyTuple::new(py, [*a, *b])?.into_any(),
            Value::List(items) => PyList::new(py, items)?.into_any(),
        })
    }
}

impl From<Move> for Value {
    fn from(m: Move) -> Value {
        match m {
            Move::Play(p) => Value::Point(p),
            Move::Pass => Value::Null,
        }
    }
}

/// An error found while the lock is held, raised as [`SgfError`](super::errors::SgfError)
/// after.
#[derive(Clone, Debug)]
pub(crate) struct Fail {
    pub(crate) kind: &'static str,
    pub(crate) message: String,
    pub(crate) pos: Option<Position>,
}

impl From<Fail> for PyErr {
    fn from(f: Fail) -> PyErr {
        raise(f.kind, f.message, f.pos)
    }
}

impl Fail {
    /// A library error, with `pos` when it has no position of its own.
    pub(crate) fn from_error(err: &sgf_grove::Error, pos: Option<Position>) -> Fail {
        let own = err.has_position();
        let pos = if own { Some(err.position()) } else { pos };
        let message = match (own, pos) {
            (false, Some(p)) => format!("{err} at {p}"),
            _ => err.to_string(),
        };
        Fail {
            kind: err.kind().code(),
            message,
            pos,
        }
    }
}

/// What reading a property needs from its game: board, charset, game.
#[derive(Clone, Copy)]
pub(crate) struct Reading<'v> {
    view: View<'v>,
    go: bool,
    gm: u32,
}

impl<'v> Reading<'v> {
    pub(crate) fn new(view: View<'v>) -> Reading<'v> {
        let gm = view.game_type();
        Reading {
            view,
            go: gm == 1,
            gm,
        }
    }

    fn ctx<'a>(&self, arena: &'a Arena) -> ValueContext<'a> {
        ValueContext::new(self.view.size(), self.view.encoding(), arena)
    }

    pub(crate) fn info(&self, ident: &str) -> Option<&'static PropInfo> {
        catalogue::lookup(self.gm, ident)
    }

    /// One raw value decoded as Text.
    pub(crate) fn text(&self, raw: &[u8]) -> String {
        let arena = Arena::new();
        self.ctx(&arena).text(raw).to_owned()
    }

    /// A raw move on this game's board (`tt` a pass up to 19×19).
    pub(crate) fn move_of(&self, raw: &[u8]) -> Option<Move> {
        let arena = Arena::new();
        Move::from_value(raw, &self.ctx(&arena))
    }

    /// A raw point list item: a point, or a rectangle `aa:cc` expanded.
    pub(crate) fn points_of(&self, raw: &[u8]) -> Option<Vec<Point>> {
        let arena = Arena::new();
        let ctx = self.ctx(&arena);
        if raw.trim_ascii().is_empty() {
            return Some(Vec::new());
        }
        if let Some(p) = Point::from_value(raw, &ctx) {
            return Some(vec![p]);
        }
        let (a, b) = split_compose(raw)?;
        let (a, b) = (Point::from_value(a, &ctx)?, Point::from_value(b, &ctx)?);
        let mut out = Vec::new();
        for y in a.y.min(b.y)..=a.y.max(b.y) {
            for x in a.x.min(b.x)..=a.x.max(b.x) {
                out.push(Point { x, y });
            }
        }
        Some(out)
    }

    /// The error for a malformed value of `ident`, at its place in the
    /// input when it has one.
    pub(crate) fn malformed(&self, ident: &str, value: RawAt<'_>) -> Fail {
        let pos = value.1.and_then(|o| self.view.position(o));
        let shown = String::from_utf8_lossy(value.0);
        let mut message = format!("malformed {ident} value {shown:?}");
        if let Some(p) = pos {
            message.push_str(&format!(" at {}:{}", p.line, p.column));
        }
        Fail {
            kind: "invalid_value",
            message,
            pos,
        }
    }

    /// Every value of a property, each typed as [`Reading::value`] types
    /// one (point lists expanded).
    pub(crate) fn all(&self, ident: &str, values: &[RawAt<'_>]) -> Result<Vec<Value>, Fail> {
        let info = self.info(ident);
        let mut list = Vec::with_capacity(values.len());
        for &value in values {
            match info {
                Some(info) if self.is_point_list(info) => {
                    let points = self
                        .points_of(value.0)
                        .ok_or_else(|| self.malformed(ident, value))?;
                    list.extend(points.into_iter().map(Value::Point));
                }
                Some(info) => match self.decode(value.0, info) {
                    Some(Some(v)) => list.push(v),
                    Some(None) => {}
                    None => return Err(self.malformed(ident, value)),
                },
                None => list.push(Value::Str(self.text(value.0))),
            }
        }
        Ok(list)
    }

    /// The typed value of a property: its first value for a property that
    /// takes one (and for a property the catalogue does not know, as text),
    /// the list of every value for one that takes a list.
    pub(crate) fn value(&self, ident: &str, values: &[RawAt<'_>]) -> Result<Value, Fail> {
        let Some(&first) = values.first() else {
            return Ok(Value::Null);
        };
        match self.info(ident) {
            None => Ok(Value::Str(self.text(first.0))),
            Some(info) if info.arity == Arity::One => match self.decode(first.0, info) {
                Some(Some(v)) => Ok(v),
                Some(None) => Ok(Value::Null),
                None => Err(self.malformed(ident, first)),
            },
            Some(_) => self.all(ident, values).map(Value::List),
        }
    }

    fn is_point_list(&self, info: &PropInfo) -> bool {
        self.go
            && info.arity != Arity::One
            && matches!(info.ty, ValueType::Point | ValueType::Stone)
    }

    /// One value as `info` types it: `Some(Some(v))`, `Some(None)` for an
    /// empty value a list skips, `None` when malformed.
    fn decode(&self, raw: &[u8], info: &PropInfo) -> Option<Option<Value>> {
        let arena = Arena::new();
        let ctx = self.ctx(&arena);
        let is_textual = matches!(
            info.ty,
            ValueType::SimpleText | ValueType::Text | ValueType::Move | ValueType::None
        );
        if !is_textual && raw.trim_ascii().is_empty() {
            return match info.arity {
                Arity::One => Some(Some(Value::Flag)),
                _ => Some(None),
            };
        }
        self.lenient(raw, info.ty, &ctx)
            .or_else(|| info.alt.and_then(|alt| self.lenient(raw, alt, &ctx)))
            .map(Some)
    }

    /// [`decode_as`] with the variants real files need: points and moves of
    /// other games as their text, a compose of two texts without `:` as the
    /// text and an empty second half (`AP[foxwq]`).
    fn lenient(&self, raw: &[u8], ty: ValueType, ctx: &ValueContext<'_>) -> Option<Value> {
        match ty {
            ValueType::Point | ValueType::Stone | ValueType::Move if !self.go => {
                Some(Value::Str(ctx.simple_text(raw).to_owned()))
            }
            ValueType::Compose(a, b) if split_compose(raw).is_none() => {
                let texts = |t: &ValueType| matches!(t, ValueType::SimpleText | ValueType::Text);
                if texts(a) && texts(b) {
                    let first = owned(decode_as(raw, *a, ctx)?);
                    Some(Value::Pair(
                        Box::new(first),
                        Box::new(Value::Str(String::new())),
                    ))
                } else {
                    None
                }
            }
            ValueType::Compose(a, b) => {
                // Each half read leniently too (a game-specific point).
                let (x, y) = split_compose(raw)?;
                let x = self.lenient(x, *a, ctx)?;
                let y = self.lenient(y, *b, ctx)?;
                Some(Value::Pair(Box::new(x), Box::new(y)))
            }
            _ => decode_as(raw, ty, ctx).map(owned),
        }
    }
}

/// A point as `(x, y)`.
pub(crate) fn point(py: Python<'_>, p: Point) -> PyResult<Bound<'_, PyTuple>> {
    PyTuple::new(py, [p.x, p.y])
}

/// `"B"` or `"W"`.
pub(crate) fn color_str(c: Color) -> &'static str {
    c.as_str()
}

fn owned(v: TypedValue<'_>) -> Value {
    match v {
        TypedValue::None => Value::Flag,
        TypedValue::Number(n) => Value::Int(n),
        TypedValue::Real(r) => Value::Float(r),
        TypedValue::Double(d) => Value::Int(match d {
            Double::Normal => 1,
            Double::Emphasized => 2,
        }),
        TypedValue::Color(c) => Value::Str(color_str(c).to_owned()),
        TypedValue::SimpleText(s) | TypedValue::Text(s) | TypedValue::GameSpecific(s) => {
            Value::Str(s.to_owned())
        }
        TypedValue::Point(p) => Value::Point(p),
        TypedValue::Move(m) => m.into(),
        TypedValue::Compose(a, b) => Value::Pair(Box::new(owned(*a)), Box::new(owned(*b))),
    }
}
