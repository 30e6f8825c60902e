//! Game information (`Game.info`): read from the root in one pass with the
//! library's parsers, handed to the `sgf_grove.GameInfo` dataclass.

use super::game::Game;
use super::view::{each_form, View};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyType};
use sgf_grove::game::{GameInfo, GameResult, Player, Rank, WinBy, GAME_INFO_IDENTS};
use sgf_grove::text::Arena;
use sgf_grove::value::ValueContext;
use sgf_grove::{ReadGame, ReadNode, ReadProperty};
use std::borrow::Cow;

/// One side, owned.
struct Side {
    name: Option<String>,
    rank: Option<String>,
    rank_normalised: Option<String>,
    team: Option<String>,
}

impl Side {
    fn of(p: Player<'_>) -> Side {
        Side {
            name: p.name.map(str::to_owned),
            rank: p.rank_text.map(str::to_owned),
            rank_normalised: p.rank.filter(Rank::is_known).map(|r| r.to_string()),
            team: p.team.map(str::to_owned),
        }
    }
}

/// A result, owned: winner, margin, kind, text as written, normalised.
struct Outcome {
    winner: Option<&'static str>,
    margin: Option<f64>,
    kind: &'static str,
    text: String,
    normalised: String,
}

/// Everything `GameInfo` gets, owned (read under the game's lock).
struct Fields {
    black: Side,
    white: Side,
    komi: Option<f64>,
    handicap: Option<u32>,
    result: Option<Outcome>,
    dates: Vec<(i32, Option<u8>, Option<u8>)>,
    rules_name: Option<String>,
    size: (u8, u8),
    texts: Vec<(&'static str, Option<String>)>,
    time_limit: Option<f64>,
}

fn outcome(text: &str, r: GameResult) -> Outcome {
    let (winner, margin) = (r.winner().map(|c| c.as_str()), r.margin());
    let kind = match &r {
        GameResult::Win { by, .. } => match by {
            WinBy::Points(_) => "points",
            WinBy::Resignation => "resignation",
            WinBy::Time => "time",
            WinBy::Forfeit => "forfeit",
            WinBy::Unspecified => "unspecified",
            WinBy::Other(_) => "other",
        },
        GameResult::Draw => "draw",
        GameResult::Void => "void",
        GameResult::Unknown => "unknown",
        GameResult::Unparsed(_) => "unparsed",
    };
    Outcome {
        winner,
        margin,
        kind,
        text: text.trim().to_owned(),
        normalised: r.to_string(),
    }
}

/// The text fields of `GameInfo` and their properties, in the order
/// `Fields::texts` holds them.
const TEXTS: [(&str, &str); 16] = [
    ("date", "DT"),
    ("rules", "RU"),
    ("event", "EV"),
    ("round", "RO"),
    ("place", "PC"),
    ("game_name", "GN"),
    ("game_comment", "GC"),
    ("application", "AP"),
    ("overtime", "OT"),
    ("copyright", "CP"),
    ("annotator", "AN"),
    ("source", "SO"),
    ("user", "US"),
    ("opening", "ON"),
    ("komi_text", "KM"),
    ("handicap_text", "HA"),
];

fn fields(v: View<'_>) -> Fields {
    // One charset and one arena for every value (the charset is found
    // once, not once a value), and no list of the root's properties.
    let arena = Arena::new();
    let size = v.size();
    let ctx = ValueContext::new(size, v.encoding(), &arena);
    let mut pairs: Vec<(&str, Cow<'_, str>)> = Vec::with_capacity(GAME_INFO_IDENTS.len());
    each_form!(v, |g| {
        for p in ReadGame::root(g).properties() {
            let ident = p.ident();
            if !GAME_INFO_IDENTS.contains(&ident) {
                continue;
            }
            if let Some(raw) = p.values().next() {
                let text = if ident == "GC" {
                    ctx.text(raw)
                } else {
                    ctx.simple_text(raw)
                };
                pairs.push((ident, Cow::Borrowed(text)));
            }
        }
    });
    let info = GameInfo::from_pairs(pairs);
    let text = |ident: &str| info.get(ident).map(str::to_owned);
    Fields {
        black: Side::of(info.black()),
        white: Side::of(info.white()),
        komi: info.komi_points(),
        handicap: info.handicap().and_then(|h| h.stones()),
        result: info
            .get("RE")
            .map(|t| outcome(t, info.result().unwrap_or(GameResult::Unknown))),
        dates: info.dates().map_or_else(Vec::new, |d| {
            d.dates.iter().map(|p| (p.year, p.month, p.day)).collect()
        }),
        rules_name: info.rules().map(|r| r.as_str().to_owned()),
        size: (size.cols, size.rows),
        texts: TEXTS.iter().map(|&(name, id)| (name, text(id))).collect(),
        time_limit: info.time_limit().map(|t| t.seconds),
    }
}

static CLASSES: PyOnceLock<(Py<PyType>, Py<PyType>, Py<PyType>)> = PyOnceLock::new();

/// `sgf_grove.info`'s `GameInfo`, `Player` and `Result`.
fn classes(py: Python<'_>) -> PyResult<&(Py<PyType>, Py<PyType>, Py<PyType>)> {
    CLASSES.get_or_try_init(py, || {
        let m = py.import("sgf_grove.info")?;
        let get = |name: &str| -> PyResult<Py<PyType>> {
            Ok(m.getattr(name)?.cast_into::<PyType>()?.unbind())
        };
        Ok((get("GameInfo")?, get("Player")?, get("Result")?))
    })
}

static OBJECT: PyOnceLock<(Py<PyAny>, Py<PyAny>)> = PyOnceLock::new();

/// An instance of the frozen dataclass `cls` whose fields are the items
/// of `fields` (every field, in the class's order): made as the class's
/// generated `__init__` makes it (an instance dict holding each field),
/// without running it. That `__init__` matches each keyword against its
/// parameters and sets each field through `object.__setattr__`, which was
/// most of the time of `Game.info`.
fn instance(py: Python<'_>, cls: &Py<PyType>, fields: Bound<'_, PyDict>) -> PyResult<Py<PyAny>> {
    let (new, setattr) = OBJECT.get_or_try_init(py, || {
        let object = py.import("builtins")?.getattr("object")?;
        Ok::<_, PyErr>((
            object.getattr("__new__")?.unbind(),
            object.getattr("__setattr__")?.unbind(),
        ))
    })?;
    let obj = new.bind(py).call1((cls.bind(py),))?;
    setattr
        .bind(py)
        .call1((&obj, intern!(py, "__dict__"), fields))?;
    Ok(obj.unbind())
}

/// Empty instance dicts of `GameInfo` and `Player`: every field, in the
/// class's order, `None`. An instance's dict is a copy of one with the
/// fields the game has set (most of a game's information is absent: one
/// dict copy instead of a `set_item` a field).
static TEMPLATES: PyOnceLock<(Py<PyDict>, Py<PyDict>)> = PyOnceLock::new();

fn templates(py: Python<'_>) -> PyResult<&(Py<PyDict>, Py<PyDict>)> {
    TEMPLATES.get_or_try_init(py, || {
        let (info_cls, player_cls, _) = classes(py)?;
        // The dataclass's own list of fields, in order.
        let empty = |cls: &Py<PyType>| -> PyResult<Py<PyDict>> {
            let d = PyDict::new(py);
            for name in cls
                .bind(py)
                .getattr(intern!(py, "__dataclass_fields__"))?
                .try_iter()?
            {
                d.set_item(name?, py.None())?;
            }
            Ok(d.unbind())
        };
        Ok((empty(info_cls)?, empty(player_cls)?))
    })
}

/// Sets `key` in `d` when `value` is there (the template holds `None`).
fn set<'py, T: IntoPyObject<'py>>(
    d: &Bound<'py, PyDict>,
    key: &Bound<'py, pyo3::types::PyString>,
    value: Option<T>,
) -> PyResult<()> {
    match value {
        Some(v) => d.set_item(key, v),
        None => Ok(()),
    }
}

/// The game information of `game` as a `sgf_grove.GameInfo`.
pub(crate) fn game_info(py: Python<'_>, game: &Game) -> PyResult<Py<PyAny>> {
    let f = game.read(fields);
    let (info_cls, player_cls, result_cls) = classes(py)?;
    let (info_empty, player_empty) = templates(py)?;
    let player = |s: Side| -> PyResult<Py<PyAny>> {
        let d = player_empty.bind(py).copy()?;
        set(&d, intern!(py, "name"), s.name)?;
        set(&d, intern!(py, "rank"), s.rank)?;
        set(&d, intern!(py, "rank_normalised"), s.rank_normalised)?;
        set(&d, intern!(py, "team"), s.team)?;
        instance(py, player_cls, d)
    };
    let result = match f.result {
        Some(r) => {
            let d = PyDict::new(py);
            d.set_item(intern!(py, "winner"), r.winner)?;
            d.set_item(intern!(py, "margin"), r.margin)?;
            d.set_item(intern!(py, "kind"), r.kind)?;
            d.set_item(intern!(py, "text"), r.text)?;
            d.set_item(intern!(py, "normalised"), r.normalised)?;
            Some(instance(py, result_cls, d)?)
        }
        None => None,
    };
    let mut texts = f.texts.into_iter();
    let mut text = || texts.next().and_then(|(_, t)| t);
    // `f.texts` in the order of `TEXTS`.
    let [date, rules, event, round, place, game_name, game_comment, application, overtime, copyright, annotator, source, user, opening, komi_text, handicap_text] =
        [(); TEXTS.len()].map(|()| text());
    let d = info_empty.bind(py).copy()?;
    // Every field is in the template already, in the class's order.
    d.set_item(intern!(py, "black"), player(f.black)?)?;
    d.set_item(intern!(py, "white"), player(f.white)?)?;
    set(&d, intern!(py, "komi"), f.komi)?;
    set(&d, intern!(py, "komi_text"), komi_text)?;
    set(&d, intern!(py, "handicap"), f.handicap)?;
    set(&d, intern!(py, "handicap_text"), handicap_text)?;
    set(&d, intern!(py, "result"), result)?;
    set(&d, intern!(py, "date"), date)?;
    // A list of its own for each instance.
    d.set_item(intern!(py, "dates"), f.dates)?;
    set(&d, intern!(py, "rules"), rules)?;
    set(&d, intern!(py, "rules_name"), f.rules_name)?;
    d.set_item(intern!(py, "size"), f.size)?;
    set(&d, intern!(py, "time_limit"), f.time_limit)?;
    set(&d, intern!(py, "overtime"), overtime)?;
    set(&d, intern!(py, "event"), event)?;
    set(&d, intern!(py, "round"), round)?;
    set(&d, intern!(py, "place"), place)?;
    set(&d, intern!(py, "game_name"), game_name)?;
    set(&d, intern!(py, "game_comment"), game_comment)?;
    set(&d, intern!(py, "application"), application)?;
    set(&d, intern!(py, "copyright"), copyright)?;
    set(&d, intern!(py, "annotator"), annotator)?;
    set(&d, intern!(py, "source"), source)?;
    set(&d, intern!(py, "user"), user)?;
    set(&d, intern!(py, "opening"), opening)?;
    instance(py, info_cls, d)
}
