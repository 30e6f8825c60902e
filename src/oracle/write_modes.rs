//! Parse (lenient) → write (in each mode of [`modes`]) → parse: the second
//! parse succeeds and gives the same games and tree shapes, and every
//! property the same meaning: its typed values (decoded text equal after
//! transcoding, point lists equal as sets after expanding or compressing,
//! passes equal however written; in canonical mode a single-valued
//! property's first value, or its first values joined as the writer joins
//! free text, every value left out being one the writer reported as
//! dropped), or for unknown properties and malformed values the
//! decoded text of its values. Properties the mode drops are gone, and
//! writing the second parse in the same mode gives the same bytes.
//!
//! Run by the fuzz target `write_modes`, on `fuzz/regressions/` by
//! `tests/integration/fuzz_regressions.rs`, and on every file of the real
//! corpus by `tests/integration/write_modes.rs`.

use super::repro;
use crate::text::decode_text;
use crate::value::{Arity, ValueType};
use crate::writer::{DroppedValue, PointStyle, Preset, Target, WriteOptions, Writer};
use crate::{Collection, Node, Property};

/// The modes checked, each with a name for the reports.
pub fn modes() -> Vec<(&'static str, WriteOptions)> {
    let canonical = WriteOptions::new().canonical(true);
    let mut thin = WriteOptions::new();
    for preset in Preset::ALL {
        thin = thin.drop_preset(preset);
    }
    vec![
        ("raw", WriteOptions::new()),
        ("raw+wrap", WriteOptions::new().wrap(40)),
        ("thin", thin),
        ("canonical", canonical.clone()),
        (
            "canonical+expand+tt",
            canonical.clone().points(PointStyle::Expand).tt_pass(true),
        ),
        (
            "canonical+compress+wrap",
            canonical.clone().points(PointStyle::Compress).wrap(60),
        ),
        ("utf8", WriteOptions::new().transcode(Target::Utf8)),
        (
            "canonical+utf8+compress",
            canonical
                .points(PointStyle::Compress)
                .transcode(Target::Utf8),
        ),
    ]
}

/// Runs the checks on `input` in every mode; panics with a reproducer on a
/// violation.
///
/// An input whose raw round trip already fails is skipped: raw mode is the
/// `roundtrip` target's, and the other modes build on what it keeps.
pub fn check_write_modes(input: &[u8]) {
    if check_mode(input, &WriteOptions::new()).is_err() {
        return;
    }
    for (name, options) in modes() {
        if let Err(why) = check_mode(input, &options) {
            panic!("mode {name}: {why}\n{}", repro(input));
        }
    }
}

/// Runs the checks on `input` in one mode; `Err` says what failed.
pub fn check_mode(input: &[u8], options: &WriteOptions) -> Result<(), String> {
    let Ok(first) = crate::parse(input) else {
        return Ok(());
    };
    check_mode_of(first.collection(), options)
}

/// [`check_mode`] on an input already parsed (leniently, with the default
/// options), for a caller that checks every mode of one parse.
pub fn check_mode_of(first: Collection<'_, '_>, options: &WriteOptions) -> Result<(), String> {
    let (written, dropped) = match write(first, options) {
        Ok(written) => written,
        // Only UTF-8 targets are checked: every character is representable.
        Err(e) => return Err(format!("writing failed: {e}")),
    };
    let shown = || format!("written: b\"{}\"", written.escape_ascii());
    let second = crate::parse(&written)
        .map_err(|e| format!("the written output does not parse: {e}\n{}", shown()))?;
    same_meaning(first, second.collection(), options, &dropped)
        .map_err(|why| format!("{why}\n{}", shown()))?;
    let (rewritten, _) = write(second.collection(), options)
        .map_err(|e| format!("writing again failed: {e}\n{}", shown()))?;
    if rewritten != written {
        return Err(format!(
            "writing is not idempotent\n{}\nagain:   b\"{}\"",
            shown(),
            rewritten.escape_ascii()
        ));
    }
    Ok(())
}

/// `coll` written with `options`, and the values the writer reported as
/// left out.
fn write(
    coll: Collection<'_, '_>,
    options: &WriteOptions,
) -> crate::Result<(Vec<u8>, Vec<DroppedValue>)> {
    let mut writer = Writer::with_options(Vec::new(), options.clone());
    writer.write_collection(coll)?;
    let dropped = writer.take_dropped();
    Ok((writer.into_inner(), dropped))
}

/// Whether `after` (the parse of `before` written with `options`, the
/// writer having reported `dropped` as left out) has the same games,
/// shapes and property meanings; `Err` names the first difference.
pub fn same_meaning(
    before: Collection<'_, '_>,
    after: Collection<'_, '_>,
    options: &WriteOptions,
    dropped: &[DroppedValue],
) -> Result<(), String> {
    if before.len() != after.len() {
        return Err(format!("{} games became {}", before.len(), after.len()));
    }
    for (a, b) in before.games().zip(after.games()) {
        let mut nodes_b = b.root().descendants();
        for x in a.root().descendants() {
            let y = nodes_b
                .next()
                .ok_or_else(|| format!("game {}: fewer nodes", a.index()))?;
            let (cx, cy) = (x.children().count(), y.children().count());
            if cx != cy {
                return Err(format!("node at {}: {cx} children became {cy}", x.offset()));
            }
            same_node(x, y, options, dropped)
                .map_err(|why| format!("node at {}: {why}", x.offset()))?;
        }
        if nodes_b.next().is_some() {
            return Err(format!("game {}: more nodes", a.index()));
        }
    }
    Ok(())
}

/// Whether a property is left out of the comparison: `CA` (which the
/// writer sets) and a canonical root's `FF` (always 4).
fn skipped(node: Node<'_, '_>, ident: &str, options: &WriteOptions) -> bool {
    ident == "CA" || (options.canonical && node.is_root() && ident == "FF")
}

fn same_node(
    x: Node<'_, '_>,
    y: Node<'_, '_>,
    options: &WriteOptions,
    dropped: &[DroppedValue],
) -> Result<(), String> {
    let mut expected = 0;
    for p in x.properties() {
        let ident = p.ident();
        if skipped(x, ident, options) {
            continue;
        }
        if options.drops(ident.as_bytes()) {
            if y.has(ident) {
                return Err(format!("{ident} was to be dropped"));
            }
            continue;
        }
        expected += 1;
        let q = y
            .property(ident)
            .ok_or_else(|| format!("{ident} is missing"))?;
        let (m, n) = (meaning(p, options), meaning(q, options));
        if m != n && !joined_first(p, options, &n, dropped) {
            return Err(format!("{ident}: {m:?} became {n:?}"));
        }
    }
    let got = y
        .properties()
        .filter(|q| !skipped(y, q.ident(), options))
        .count();
    if got != expected {
        return Err(format!("{expected} properties became {got}"));
    }
    Ok(())
}

/// Whether `written`, the meaning of the written copy of `p` (a text
/// property of one value given several, in canonical mode), is that of
/// its first values joined (a line break between them), every value after
/// them reported as `dropped`: the writer joins the values of one
/// occurrence, and in a root that keeps its occurrences apart (a `CA`
/// read a character at a time) leaves a later occurrence out, reported.
fn joined_first(
    p: Property<'_, '_>,
    options: &WriteOptions,
    written: &[String],
    dropped: &[DroppedValue],
) -> bool {
    let count = p.values().count();
    (2..=count).rev().any(|k| {
        joined_meaning(p, options, k).is_some_and(|j| j == written)
            && p.values().skip(k).all(|v| {
                dropped.iter().any(|d| {
                    d.ident == p.ident()
                        && d.value == v.raw()
                        && d.position.offset == v.span().start
                })
            })
    })
}

/// What a text property of one value given several means once canonical
/// mode joined its first `k` values (a line break between them), or
/// `None` when it does not join them.
fn joined_meaning(p: Property<'_, '_>, options: &WriteOptions, k: usize) -> Option<Vec<String>> {
    let info = p.info()?;
    let text = crate::writer::single::joins(p.ident_bytes(), info);
    if !options.canonical || info.arity != Arity::One || !text || p.values().nth(1).is_none() {
        return None;
    }
    let mut joined = Vec::new();
    for (i, v) in p.values().take(k).enumerate() {
        if i > 0 {
            joined.push(b'\n');
        }
        joined.extend_from_slice(v.raw());
    }
    let game = p.node().game();
    let ctx = game.value_context();
    let value = crate::value::decode_catalogued(&joined, info, game.game_type() == 1, &ctx)??;
    Some(vec![format!("{value:?}")])
}

/// What a property means: its typed values (a point list as a sorted set;
/// in canonical mode a single-valued property's first value only), or the
/// decoded text of its values where it is unknown or a value malformed.
fn meaning(p: Property<'_, '_>, options: &WriteOptions) -> Vec<String> {
    let encoding = p.node().game().charset().encoding();
    let info = p.info();
    let single = options.canonical && info.is_some_and(|i| i.arity == Arity::One);
    let take = if single { 1 } else { usize::MAX };
    let texts = || {
        p.values()
            .take(take)
            .map(|v| format!("text {:?}", decode_text(v.raw(), encoding)))
            .collect::<Vec<_>>()
    };
    let Ok(Some(typed)) = p.typed() else {
        return texts();
    };
    let mut items = Vec::new();
    let mut malformed = false;
    for item in typed.take(if single { 1 } else { usize::MAX }) {
        match item {
            Ok(value) => items.push(format!("{value:?}")),
            Err(_) => {
                malformed = true;
                items.push("malformed".to_string());
            }
        }
    }
    if malformed {
        items.extend(texts());
    }
    let list = info.is_some_and(|i| {
        matches!(i.ty, ValueType::Point | ValueType::Stone) && i.arity != Arity::One
    });
    if list {
        items.sort();
        items.dedup();
    }
    items
}
