//! Replays every minimized fuzz crash in `fuzz/regressions/` through the
//! checks of the `parse` and `roundtrip` fuzz targets, and names each one as
//! its own test (`fuzz_crash_<hash>`) with a sentence on what it exercises.
//!
//! The checks below mirror `fuzz/fuzz_targets/parse.rs` and
//! `fuzz/fuzz_targets/roundtrip.rs`; keep the three in step.

use sgf_grove::{
    Collection, Document, ErrorKind, ParseOptions, Parser, Position, Span, WarningKind,
};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::Duration;

fn regressions_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions")
}

/// Every check of both fuzz targets.
fn check(input: &[u8]) {
    check_parse(input);
    check_roundtrip(input);
}

/// How long one input may take: a fuzz-found hang must fail the test, not
/// stall the whole run.
const TIME_LIMIT: Duration = Duration::from_secs(20);

/// Runs [`check`] on another thread; `Err` with a reason when it panics or
/// takes longer than [`TIME_LIMIT`] (the thread is then left behind).
fn check_in_time(input: Vec<u8>) -> Result<(), String> {
    let (done, wait) = mpsc::channel();
    thread::spawn(move || {
        let result = catch_unwind(AssertUnwindSafe(|| check(&input)));
        let _ = done.send(result.is_ok());
    });
    match wait.recv_timeout(TIME_LIMIT) {
        Ok(true) => Ok(()),
        Ok(false) | Err(RecvTimeoutError::Disconnected) => Err("panicked".to_string()),
        Err(RecvTimeoutError::Timeout) => Err(format!("still running after {TIME_LIMIT:?}")),
    }
}

/// Runs the checks on `fuzz/regressions/<name>`.
fn replay(name: &str) {
    let path = regressions_dir().join(name);
    let input = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if let Err(why) = check_in_time(input) {
        panic!("{name}: {why}");
    }
}

/// The regression files, sorted; dot-files (`.gitkeep`) are not inputs.
fn regression_files() -> Vec<PathBuf> {
    let dir = regressions_dir();
    assert!(dir.is_dir(), "{} is missing", dir.display());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.is_file())
        .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .collect();
    files.sort();
    files
}

#[test]
fn replay_all_regressions() {
    let files = regression_files();
    let mut failed = Vec::new();
    for path in &files {
        let input = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if let Err(why) = check_in_time(input) {
            failed.push(format!(
                "{}: {why}",
                path.file_name().unwrap().to_string_lossy()
            ));
        }
    }
    println!("replayed {} fuzz regressions", files.len());
    assert!(failed.is_empty(), "fuzz regressions failing: {failed:#?}");
}

// One test per minimized crash.

/// `((;a))` nesting: a variation with only an inner variation must keep that node (f44da74).
#[test]
fn fuzz_crash_97d6dbc2() {
    replay("parse_97d6dbc2.sgf");
}

/// A variation whose first node starts with FF/GM, written `(;FF[`, must not re-parse as a game.
#[test]
fn fuzz_crash_c86c384a() {
    replay("roundtrip_c86c384a.sgf");
}

// The checks of fuzz/fuzz_targets/parse.rs.

fn check_parse(input: &[u8]) {
    let lenient = sgf_grove::parse(input);
    let strict = Document::parse_with(input, &ParseOptions::new().strict(true));

    if let Err(e) = &strict {
        check_position(input, e.position(), "strict error");
    }
    match &lenient {
        Ok(doc) => {
            let coll = doc.collection();
            check_collection(input, coll);
            check_reused_parser(input, coll);
            let first = coll.warnings().first();
            match (first, &strict) {
                (None, Ok(_)) => assert_eq!(coll.warnings_dropped(), 0, "{}", repro(input)),
                (None, Err(e)) => panic!(
                    "strict parse failed ({e}) but the lenient parse had no warning\n{}",
                    repro(input)
                ),
                (Some(w), Ok(_)) => panic!(
                    "strict parse succeeded but the lenient parse warned: {w}\n{}",
                    repro(input)
                ),
                (Some(_), Err(e)) => {
                    // Lenient warnings are sorted by offset, strict mode stops
                    // at the first defect found: that one must be in the list.
                    let Ok(kind) = strict_kind(e.kind()) else {
                        panic!("strict parse failed with {e}\n{}", repro(input))
                    };
                    assert!(
                        coll.warnings_dropped() > 0
                            || coll
                                .warnings()
                                .iter()
                                .any(|w| w.kind == kind && w.pos == e.position()),
                        "strict error {e} is not among the lenient warnings {:?}\n{}",
                        coll.warnings(),
                        repro(input)
                    );
                }
            }
        }
        Err(e) => {
            check_position(input, e.position(), "lenient error");
            assert!(
                matches!(e.kind(), ErrorKind::NoGameTree | ErrorKind::InputTooLarge),
                "lenient parse failed with {e}\n{}",
                repro(input)
            );
            assert!(
                strict.is_err(),
                "strict parse succeeded where the lenient one failed ({e})\n{}",
                repro(input)
            );
        }
    }
}

fn strict_kind(kind: ErrorKind) -> Result<WarningKind, ErrorKind> {
    match kind {
        ErrorKind::Strict(kind) => Ok(kind),
        other => Err(other),
    }
}

/// Walks every game, node, property and value, checking spans and links.
fn check_collection(input: &[u8], coll: Collection<'_, '_>) {
    let len = input.len();
    assert!(!coll.is_empty(), "Ok with no game\n{}", repro(input));
    let mut expected_index = 0;
    for game in coll.games() {
        let gspan = game.span();
        check_span(input, gspan, "game");
        let root = game.root();
        assert!(root.is_root(), "game root has a parent\n{}", repro(input));
        for node in root.descendants() {
            // Nodes are numbered in pre-order, games in file order.
            assert_eq!(
                node.id().index(),
                expected_index,
                "node ids are not in pre-order\n{}",
                repro(input)
            );
            expected_index += 1;
            let offset = node.offset();
            assert!(
                offset < len,
                "node offset {offset} >= {len}\n{}",
                repro(input)
            );
            assert!(
                input[offset] == b';' || input[offset].is_ascii_alphabetic(),
                "node offset {offset} is neither `;` nor a letter\n{}",
                repro(input)
            );
            let nspan = node.span();
            check_span(input, nspan, "node");
            assert_eq!(nspan.start, offset, "node span start\n{}", repro(input));
            assert!(
                gspan.start <= nspan.start && nspan.end <= gspan.end,
                "node span {nspan:?} outside its game {gspan:?}\n{}",
                repro(input)
            );
            for child in node.children() {
                assert!(
                    child.parent() == Some(node),
                    "child's parent is not the node\n{}",
                    repro(input)
                );
            }
            for (i, prop) in node.properties().enumerate() {
                let pspan = prop.span();
                check_span(input, pspan, "property");
                assert!(
                    nspan.start <= pspan.start && pspan.end <= nspan.end,
                    "property span {pspan:?} outside its node {nspan:?}\n{}",
                    repro(input)
                );
                let ident = prop.ident();
                assert!(
                    !ident.is_empty() && ident.bytes().all(|b| b.is_ascii_uppercase()),
                    "bad identifier {ident:?}\n{}",
                    repro(input)
                );
                let raw_ident = prop.ident_raw();
                assert_eq!(
                    raw_ident.as_ptr(),
                    input[pspan.start..].as_ptr(),
                    "raw identifier is not at the property's start\n{}",
                    repro(input)
                );
                // Looked up by name: only the first few, to stay linear.
                assert!(
                    i >= 8 || node.property(ident).is_some(),
                    "node.property({ident:?}) is None\n{}",
                    repro(input)
                );
                let mut values = 0;
                for value in prop.values() {
                    values += 1;
                    let vspan = value.span();
                    check_span(input, vspan, "value");
                    assert!(
                        nspan.start < vspan.start && vspan.end <= nspan.end,
                        "value span {vspan:?} outside its node {nspan:?}\n{}",
                        repro(input)
                    );
                    assert_eq!(
                        input[vspan.start - 1],
                        b'[',
                        "value does not follow `[`\n{}",
                        repro(input)
                    );
                    let raw = value.raw();
                    assert!(
                        raw.as_ptr() == input[vspan.start..].as_ptr() && raw.len() == vspan.len(),
                        "value raw slice is not input[{vspan:?}]\n{}",
                        repro(input)
                    );
                }
                assert!(
                    values > 0,
                    "property {ident} has no value\n{}",
                    repro(input)
                );
            }
        }
    }
    assert_eq!(
        expected_index,
        coll.node_count(),
        "games hold {expected_index} nodes, the arena {}\n{}",
        coll.node_count(),
        repro(input)
    );
    for w in coll.warnings() {
        check_position(input, w.pos, "warning");
    }
}

/// A warm parser (arena reused from another input) gives the same result.
fn check_reused_parser(input: &[u8], coll: Collection<'_, '_>) {
    let mut parser = Parser::new();
    let _ = parser.parse(b"(;GM[1]CoPyright[x]AB[aa]AB[bb];B[cc](;W[dd])(;W[ee]))");
    let again = parser.parse(input).expect("lenient parse succeeded once");
    assert_eq!(again.node_count(), coll.node_count(), "{}", repro(input));
    assert_eq!(again.warnings(), coll.warnings(), "{}", repro(input));
    assert_eq!(
        sgf_grove::write_collection(again),
        sgf_grove::write_collection(coll),
        "warm parser wrote differently\n{}",
        repro(input)
    );
}

fn check_span(input: &[u8], span: Span, what: &str) {
    assert!(
        span.start <= span.end && span.end <= input.len(),
        "{what} span {span:?} out of bounds (len {})\n{}",
        input.len(),
        repro(input)
    );
}

fn check_position(input: &[u8], pos: Position, what: &str) {
    assert!(
        pos.offset <= input.len() && pos.line >= 1 && pos.column >= 1,
        "{what} position {pos:?} out of bounds (len {})\n{}",
        input.len(),
        repro(input)
    );
    assert_eq!(
        pos,
        Position::locate(input, pos.offset),
        "{what} position differs from Position::locate\n{}",
        repro(input)
    );
}

// The checks of fuzz/fuzz_targets/roundtrip.rs.

fn check_roundtrip(input: &[u8]) {
    let Ok(first) = sgf_grove::parse(input) else {
        return;
    };
    let written = sgf_grove::write_collection(first.collection());
    let second = match sgf_grove::parse(&written) {
        Ok(doc) => doc,
        Err(e) => panic!(
            "the written output does not parse: {e}\n{}\nwritten: b\"{}\"",
            repro(input),
            written.escape_ascii()
        ),
    };
    let before = outline(first.collection());
    let after = outline(second.collection());
    if before != after {
        panic!(
            "parse(write(parse(x))) differs from parse(x)\n{}\nwritten: b\"{}\"\n{}",
            repro(input),
            written.escape_ascii(),
            diff(&before, &after)
        );
    }
    let rewritten = sgf_grove::write_collection(second.collection());
    assert!(
        rewritten == written,
        "writing is not idempotent\n{}\nfirst:  b\"{}\"\nsecond: b\"{}\"",
        repro(input),
        written.escape_ascii(),
        rewritten.escape_ascii()
    );
}

/// One line per game and per node (pre-order): the node's depth, number of
/// children, and `IDENT[raw][raw]…` for each property.
fn outline(coll: Collection<'_, '_>) -> Vec<String> {
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
            for prop in node.properties() {
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

/// A paste-able reproducer.
fn repro(input: &[u8]) -> String {
    format!("input: b\"{}\"", input.escape_ascii())
}
