//! What every scan takes from Python: paths, workers, `select` (the
//! library's [`Filter`]), parse options, and a cluster share.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use sgf_grove::input::Inputs;
use sgf_grove::table::Filter;
use sgf_grove::ParseOptions;
use std::path::PathBuf;

/// A scan as Python asked for it.
pub(crate) struct Spec {
    pub(crate) inputs: Inputs,
    pub(crate) workers: usize,
    pub(crate) filter: Filter,
    pub(crate) options: ParseOptions,
}

/// The keyword arguments every scan function takes, read once.
#[derive(Clone, Copy)]
pub(crate) struct Args<'a, 'py> {
    pub(crate) paths: &'a Bound<'py, PyAny>,
    pub(crate) workers: Option<usize>,
    pub(crate) select: Option<&'a Bound<'py, PyAny>>,
    pub(crate) strict: bool,
    pub(crate) charset: Option<&'a str>,
    pub(crate) names_only: bool,
    pub(crate) sources: Option<(usize, usize)>,
    pub(crate) members: Option<(usize, usize)>,
}

impl Args<'_, '_> {
    /// The scan these arguments describe.
    pub(crate) fn spec(&self) -> PyResult<Spec> {
        let mut inputs = Inputs::new(paths(self.paths)?).by_content(!self.names_only);
        if let Some((start, end)) = self.sources {
            inputs = inputs.source_range(start..end);
        }
        if let Some((k, n)) = self.members {
            if n == 0 || k >= n {
                return Err(PyValueError::new_err(format!(
                    "members=({k}, {n}): k must be below n"
                )));
            }
            inputs = inputs.member_shard(k, n);
        }
        let charset = match self.charset {
            None => None,
            Some(label) => Some(
                sgf_grove::text::charset::for_label(label.as_bytes()).ok_or_else(|| {
                    PyValueError::new_err(format!("unknown charset label {label:?}"))
                })?,
            ),
        };
        let workers = match self.workers {
            Some(0) => return Err(PyValueError::new_err("workers must be at least 1")),
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        Ok(Spec {
            inputs,
            workers,
            filter: filter(self.select)?,
            options: ParseOptions::new().strict(self.strict).charset(charset),
        })
    }
}

/// One path (`str` or `os.PathLike`) or an iterable of them.
fn paths(obj: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    if let Ok(path) = obj.extract::<PathBuf>() {
        return Ok(vec![path]);
    }
    let mut out = Vec::new();
    let iter = obj.try_iter().map_err(|_| {
        PyTypeError::new_err("paths must be a path (str or os.PathLike) or an iterable of paths")
    })?;
    for item in iter {
        let item = item?;
        out.push(item.extract::<PathBuf>().map_err(|_| {
            PyTypeError::new_err(format!(
                "paths must be str or os.PathLike, got {}",
                item.get_type().name().map_or("?".into(), |n| n.to_string())
            ))
        })?);
    }
    if out.is_empty() {
        return Err(PyValueError::new_err("no paths given"));
    }
    Ok(out)
}

/// The library's filter from `select`: a mapping of filter names to
/// values, or an object with a `to_dict()` method (`sgf_grove.Filter`).
fn filter(select: Option<&Bound<'_, PyAny>>) -> PyResult<Filter> {
    let mut filter = Filter::new();
    let Some(select) = select.filter(|s| !s.is_none()) else {
        return Ok(filter);
    };
    let dict = if let Ok(dict) = select.cast::<PyDict>() {
        dict.clone()
    } else if select.hasattr("to_dict")? {
        select
            .call_method0("to_dict")?
            .cast_into::<PyDict>()
            .map_err(|_| PyTypeError::new_err("select.to_dict() must return a dict"))?
    } else {
        return Err(PyTypeError::new_err(
            "select must be a dict of filters or an sgf_grove.Filter",
        ));
    };
    for (name, value) in dict.iter() {
        let name: String = name
            .extract()
            .map_err(|_| PyTypeError::new_err("filter names must be str"))?;
        if value.is_none() {
            continue;
        }
        let many = (name == "has" || name == "lacks")
            && !value.is_instance_of::<PyString>()
            && value.try_iter().is_ok();
        let texts = if many {
            let mut texts = Vec::new();
            for item in value.try_iter()? {
                texts.push(text(&name, &item?)?);
            }
            texts
        } else {
            vec![text(&name, &value)?]
        };
        for t in texts {
            filter
                .set(&name, &t)
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
        }
    }
    Ok(filter)
}

/// A filter's value as the text a command line would pass: `19`,
/// `6.5`, a range `(lo, hi)` as `lo..hi` (`None` leaves a side open), a
/// list as `a,b,c`, a `datetime.date` in ISO form.
fn text(name: &str, value: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(tuple) = value.cast::<PyTuple>() {
        if tuple.len() != 2 {
            return Err(PyValueError::new_err(format!(
                "filter {name}: a range is a pair (low, high), got {} items",
                tuple.len()
            )));
        }
        let side = |v: Bound<'_, PyAny>| -> PyResult<String> {
            if v.is_none() {
                Ok(String::new())
            } else {
                scalar(name, &v)
            }
        };
        return Ok(format!(
            "{}..{}",
            side(tuple.get_item(0)?)?,
            side(tuple.get_item(1)?)?
        ));
    }
    if let Ok(list) = value.cast::<PyList>() {
        let items: PyResult<Vec<String>> = list.iter().map(|v| scalar(name, &v)).collect();
        return Ok(items?.join(","));
    }
    scalar(name, value)
}

fn scalar(name: &str, value: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = value.cast::<PyString>() {
        return Ok(s.to_cow()?.into_owned());
    }
    if value.is_instance_of::<pyo3::types::PyBool>() {
        if name == "rated" {
            return Ok(if value.is_truthy()? { "yes" } else { "no" }.to_owned());
        }
        return Err(PyTypeError::new_err(format!(
            "filter {name}: a bool is no filter value"
        )));
    }
    if let Ok(n) = value.extract::<i64>() {
        return Ok(n.to_string());
    }
    if let Ok(x) = value.extract::<f64>() {
        return Ok(x.to_string());
    }
    if value.hasattr("isoformat")? {
        return value.call_method0("isoformat")?.extract();
    }
    Err(PyTypeError::new_err(format!(
        "filter {name}: cannot read {} as a filter value",
        value.repr()?
    )))
}
