//! Errors and warnings as Python sees them: [`SgfError`] (a `ValueError`
//! with `kind`, `offset`, `line` and `column`) and [`ParseWarning`].

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use sgf_grove::{Error, Position, Warning};

pyo3::create_exception!(
    sgf_grove,
    SgfError,
    PyValueError,
    "Malformed SGF, a malformed value, or an edit the game refuses.\n\n\
     A ``ValueError`` with the library's error kind and, when the error\n\
     is about a place in the input, where it is:\n\n\
     - ``kind``: the kind of error, as a ``snake_case`` string\n\
       (``\"unclosed_value\"``, ``\"invalid_value\"``, ``\"no_such_node\"``, ...);\n\
     - ``offset``: the byte offset in the input, or ``None``;\n\
     - ``line``, ``column``: 1-based, the column in bytes, or ``None``.\n\n\
     >>> import sgf_grove\n\
     >>> try:\n\
     ...     sgf_grove.parse(b\"(;GM[1]C[unclosed\", strict=True)\n\
     ... except sgf_grove.SgfError as e:\n\
     ...     print(e.kind, e.line, e.column)\n\
     unclosed_value 1 9\n"
);

/// The Python exception for `err`, with `pos` as its position when the
/// error has none of its own (a value read from an edited game).
pub(crate) fn to_py_err(err: &Error, pos: Option<Position>) -> PyErr {
    super::values::Fail::from_error(err, pos).into()
}

/// An [`SgfError`] of kind `kind` (a `snake_case` code).
pub(crate) fn raise(kind: &str, message: String, pos: Option<Position>) -> PyErr {
    Python::attach(|py| {
        let err = SgfError::new_err(message);
        let value = err.value(py);
        let set = || -> PyResult<()> {
            value.setattr("kind", kind)?;
            value.setattr("offset", pos.map(|p| p.offset))?;
            value.setattr("line", pos.map(|p| p.line))?;
            value.setattr("column", pos.map(|p| p.column))?;
            Ok(())
        };
        match set() {
            Ok(()) => err,
            Err(e) => e,
        }
    })
}

/// A defect the parser recovered from, and where it is in the input.
///
/// ``kind`` is a ``snake_case`` code (``"lowercase_in_ident"``,
/// ``"unclosed_game_tree"``, ...), ``message`` says it in words, and
/// ``offset``, ``line`` and ``column`` (1-based, the column in bytes) say
/// where.
///
/// >>> import sgf_grove
/// >>> games = sgf_grove.parse(b"(;GM[1]CoPyright[x];B[aa]")
/// >>> w = games.warnings[0]
/// >>> (w.kind, w.line, w.column)
/// ('lowercase_in_ident', 1, 8)
/// >>> str(w)
/// 'lower-case letters in a property identifier dropped at 1:8'
#[pyclass(frozen, module = "sgf_grove", name = "ParseWarning", eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ParseWarning {
    /// The kind of defect, a ``snake_case`` code.
    #[pyo3(get)]
    pub(crate) kind: &'static str,
    /// What was forgiven, in words.
    #[pyo3(get)]
    pub(crate) message: &'static str,
    /// Byte offset in the input.
    #[pyo3(get)]
    pub(crate) offset: usize,
    /// 1-based line.
    #[pyo3(get)]
    pub(crate) line: u32,
    /// 1-based column, in bytes.
    #[pyo3(get)]
    pub(crate) column: u32,
}

impl From<&Warning> for ParseWarning {
    fn from(w: &Warning) -> ParseWarning {
        ParseWarning {
            kind: w.kind.code(),
            message: w.kind.message(),
            offset: w.pos.offset,
            line: w.pos.line,
            column: w.pos.column,
        }
    }
}

#[pymethods]
impl ParseWarning {
    fn __str__(&self) -> String {
        format!("{} at {}:{}", self.message, self.line, self.column)
    }

    fn __repr__(&self) -> String {
        format!(
            "ParseWarning(kind={:?}, line={}, column={}, offset={})",
            self.kind, self.line, self.column, self.offset
        )
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("SgfError", m.py().get_type::<SgfError>())?;
    m.add_class::<ParseWarning>()?;
    Ok(())
}
