//! Parse (lenient) → write (raw mode) → parse: the second parse succeeds and
//! gives the same games, tree shapes, identifiers and raw values; writing it
//! again gives the same bytes.
//!
//! Run by the fuzz target of the same name and, on `fuzz/regressions/`, by
//! `tests/integration/fuzz_regressions.rs`.

use super::repro;
use crate::Collection;

/// Runs the checks on `input`; panics with a reproducer on a violation.
pub fn check_roundtrip(input: &[u8]) {
    let Ok(first) = crate::parse(input) else {
        return;
    };
    let written = crate::write_collection(first.collection());
    let second = match crate::parse(&written) {
        Ok(doc) => doc,
        Err(e) => panic!(
            "the written output does not parse: {e}\n{}\nwritten: b\"{}\"",
            repro(input),
            written.escape_ascii()
        ),
    };
    if let Err(why) = written_nodes_agree(first.collection()) {
        panic!("{why}\n{}", repro(input));
    }
    // The writer records in a root without `CA` the charset it was read in.
    let before = outline(first.collection(), true);
    let after = outline(second.collection(), false);
    if before != after {
        panic!(
            "parse(write(parse(x))) differs from parse(x)\n{}\nwritten: b\"{}\"\n{}",
            repro(input),
            written.escape_ascii(),
            diff(&before, &after)
        );
    }
    let rewritten = crate::write_collection(second.collection());
    assert!(
        rewritten == written,
        "writing is not idempotent\n{}\nfirst:  b\"{}\"\nsecond: b\"{}\"",
        repro(input),
        written.escape_ascii(),
        rewritten.escape_ascii()
    );
}

/// Whether every node the writer copies as it stands in the input
/// (`Node::written_as_is`) gets the bytes that writing it property by
/// property gives; `Err` names the first node that does not.
pub fn written_nodes_agree(coll: Collection<'_, '_>) -> Result<(), String> {
    let mut by_props = Vec::new();
    for game in coll.games() {
        for node in game.root().descendants() {
            let Some(as_is) = node.written_as_is() else {
                continue;
            };
            by_props.clear();
            crate::Writer::new(&mut by_props)
                .write_props(node)
                .expect("writing to a Vec cannot fail");
            if as_is != by_props {
                return Err(format!(
                    "the node at offset {} is copied as b\"{}\" but written property by property as b\"{}\"",
                    node.offset(),
                    as_is.escape_ascii(),
                    by_props.escape_ascii()
                ));
            }
        }
    }
    Ok(())
}

/// One line per game and per node (pre-order): the node's depth, number of
/// children, and `IDENT[raw][raw]…` for each property; with `pinned`, a root
/// gets first the `CA` that the writer adds to it.
fn outline(coll: Collection<'_, '_>, pinned: bool) -> Vec<String> {
    let mut lines = Vec::new();
    let mut depths = vec![0usize; coll.node_count()];
    for game in coll.games() {
        lines.push(format!("game {}", game.index()));
        for node in game.root().descendants() {
            // Pre-order: a parent's depth is known before its children's.
            let depth = node.parent().map_or(0, |p| depths[p.id().index()] + 1);
            depths[node.id().index()] = depth;
            let mut line = format!(
                "{}node children={} ",
                "  ".repeat(depth.min(40)),
                node.children().count()
            );
            let pin = game.charset_to_pin().filter(|_| pinned && depth == 0);
            if let Some(encoding) = pin {
                line.push_str(&format!("CA[{}]", encoding.name()));
            }
            for prop in node.properties() {
                if pin.is_some() && prop.ident() == "CA" {
                    // An unusable `CA` gives way to the pinned one.
                    continue;
                }
                line.push_str(prop.ident());
                for value in prop.values() {
                    line.push_str(&format!("[{}]", value.raw().escape_ascii()));
                }
            }
            lines.push(line);
        }
    }
    lines
}

/// The first line where `before` and `after` differ, with some context.
fn diff(before: &[String], after: &[String]) -> String {
    let at = before
        .iter()
        .zip(after)
        .position(|(a, b)| a != b)
        .unwrap_or(before.len().min(after.len()));
    let from = at.saturating_sub(3);
    let mut out = format!(
        "first difference at line {at} ({} lines before, {} after)\n",
        before.len(),
        after.len()
    );
    for (i, line) in before.iter().enumerate().skip(from).take(at + 4 - from) {
        out.push_str(&format!("- {i:4} {line}\n"));
    }
    for (i, line) in after.iter().enumerate().skip(from).take(at + 4 - from) {
        out.push_str(&format!("+ {i:4} {line}\n"));
    }
    out
}
