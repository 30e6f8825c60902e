//! Game information (`Game.info`): read from the root in one pass with the
//! library's parsers, handed to the `sgf_grove.GameInfo` dataclass.

use super::game::Game;
use super::values::Reading;
use super::view::View;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyType};
use sgf_grove::game::{GameInfo, GameResult, Player, Rank, WinBy, GAME_INFO_IDENTS};
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

fn fields(v: View<'_>) -> Fields {
    let reading = Reading::new(v);
    let mut pairs: Vec<(&str, Cow<'static, str>)> = Vec::new();
    for (ident, values) in v.properties(0) {
        if let Some(&(raw, _)) = values.first() {
            if GAME_INFO_IDENTS.contains(&ident) {
                let text = if ident == "GC" {
                    reading.text(raw)
                } else {
                    reading.simple_text(raw)
                };
                pairs.push((ident, Cow::Owned(text)));
            }
        }
    }
    let info = GameInfo::from_pairs(pairs);
    let text = |ident: &str| info.get(ident).map(str::to_owned);
    let names = [
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
    let size = v.size();
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
        texts: names.iter().map(|&(name, id)| (name, text(id))).collect(),
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

/// The game information of `game` as a `sgf_grove.GameInfo`.
pub(crate) fn game_info(py: Python<'_>, game: &Game) -> PyResult<Py<PyAny>> {
    let f = game.read(fields);
    let (info_cls, player_cls, result_cls) = classes(py)?;
    let player = |s: Side| -> PyResult<Py<PyAny>> {
        let kw = PyDict::new(py);
        kw.set_item("name", s.name)?;
        kw.set_item("rank", s.rank)?;
        kw.set_item("rank_normalised", s.rank_normalised)?;
        kw.set_item("team", s.team)?;
        Ok(player_cls.bind(py).call((), Some(&kw))?.unbind())
    };
    let kw = PyDict::new(py);
    kw.set_item("black", player(f.black)?)?;
    kw.set_item("white", player(f.white)?)?;
    kw.set_item("komi", f.komi)?;
    kw.set_item("handicap", f.handicap)?;
    let result = match f.result {
        Some(r) => {
            let rk = PyDict::new(py);
            rk.set_item("winner", r.winner)?;
            rk.set_item("margin", r.margin)?;
            rk.set_item("kind", r.kind)?;
            rk.set_item("text", r.text)?;
            rk.set_item("normalised", r.normalised)?;
            Some(result_cls.bind(py).call((), Some(&rk))?.unbind())
        }
        None => None,
    };
    kw.set_item("result", result)?;
    kw.set_item("dates", f.dates)?;
    kw.set_item("rules_name", f.rules_name)?;
    kw.set_item("size", f.size)?;
    kw.set_item("time_limit", f.time_limit)?;
    for (name, text) in f.texts {
        kw.set_item(name, text)?;
    }
    Ok(info_cls.bind(py).call((), Some(&kw))?.unbind())
}
