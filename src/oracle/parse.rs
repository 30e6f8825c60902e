//! Any bytes: the lenient and the strict parser never panic, every span and
//! position they hand out lies in the input, and strict mode fails exactly
//! when the lenient parse had something to forgive (with that first defect).
//!
//! Run by the fuzz target of the same name and, on `fuzz/regressions/`, by
//! `tests/integration/fuzz_regressions.rs`.

use super::repro;
use crate::{Collection, Document, ErrorKind, ParseOptions, Parser, Position, Span, WarningKind};

/// Runs the checks on `input`; panics with a reproducer on a violation.
pub fn check_parse(input: &[u8]) {
    let lenient = crate::parse(input);
    let strict = Document::parse_with(input, &ParseOptions::new().strict(true));

    if let Err(e) = &strict {
        check_position(input, e.position(), "strict error");
    }
    match &lenient {
        Ok(doc) => {
            let coll = doc.collection();
            check_collection(input, coll);
            check_reused_parser(input, coll);
            check_stream(input, coll);
            #[cfg(feature = "archives")]
            check_restart(input);
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
                matches!(
                    e.kind(),
                    ErrorKind::NoGameTree | ErrorKind::InputTooLarge | ErrorKind::NotText { .. }
                ),
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
        crate::write_collection(again),
        crate::write_collection(coll),
        "warm parser wrote differently\n{}",
        repro(input)
    );
}

/// The stream parser, which reads a game at a time and takes up the next
/// one in the state the last left, gives what the whole parse gives: the
/// same games (index, span in the stream, nodes, written text), and the
/// same warnings (each window's, together, ordered by offset). Unless the
/// whole parse reached its warning limit: each window has its own.
fn check_stream(input: &[u8], coll: Collection<'_, '_>) {
    type Game = (usize, usize, usize, usize, Vec<u8>);
    let describe = |c: Collection<'_, '_>| -> Vec<Game> {
        c.games()
            .map(|g| {
                let span = g.span();
                let (start, end) = (c.stream_offset(span.start), c.stream_offset(span.end));
                let mut text = Vec::new();
                crate::Writer::new(&mut text)
                    .write_game(g)
                    .expect("writing to a Vec cannot fail");
                (g.index(), start, end, g.nodes().count(), text)
            })
            .collect()
    };
    if coll.warnings_dropped() > 0 {
        return;
    }
    let key = |w: &crate::Warning| (w.pos.offset, w.kind as usize);
    let mut whole = coll.warnings().to_vec();
    whole.sort_by_key(key);
    // Read 1 MiB at a time (the whole input at once), then in small reads
    // so that games are decided across reads.
    for read_size in [usize::MAX, input.len() / 5 + 1] {
        let mut games = Vec::new();
        let mut warnings = Vec::new();
        let mut stream = crate::StreamParser::new(input);
        if read_size != usize::MAX {
            stream.read_size(read_size);
        }
        while let Some(next) = stream.next_game() {
            match next {
                Ok(c) => {
                    games.extend(describe(c));
                    warnings.extend_from_slice(c.warnings());
                }
                Err(e) => panic!(
                    "the stream failed ({e}) where the whole parse did not\n{}",
                    repro(input)
                ),
            }
        }
        assert_eq!(
            games,
            describe(coll),
            "the stream's games (reads of {read_size}) differ from the whole parse's\n{}",
            repro(input)
        );
        warnings.sort_by_key(key);
        assert_eq!(
            warnings,
            whole,
            "the stream's warnings (reads of {read_size}) differ from the whole parse's\n{}",
            repro(input)
        );
    }
}

/// A stream parser restarted where a game starts cleanly (what a worker
/// of a parallel scan does with a chunk, once its cut is checked: the game
/// starts exactly there, with no warning between the game before and it)
/// gives what the stream read from its start gives from there on: the
/// same games with the same indices and stream offsets, the same warnings
/// at the same positions, the same error.
#[cfg(feature = "archives")]
fn check_restart(input: &[u8]) {
    type Seen = (Option<(usize, usize, usize, usize)>, Vec<crate::Warning>);
    let seen = |coll: Collection<'_, '_>| -> Seen {
        let game = coll.games().next().map(|g| {
            let span = g.span();
            let (start, end) = (coll.stream_offset(span.start), coll.stream_offset(span.end));
            (g.index(), start, end, g.nodes().count())
        });
        (game, coll.warnings().to_vec())
    };
    let read = |from: usize, at: Position, base: usize| {
        let mut stream = crate::StreamParser::new(&input[from..]);
        stream.restart_at(at, base);
        let mut games = Vec::new();
        let mut error = None;
        while let Some(next) = stream.next_game() {
            match next {
                Ok(coll) => games.push(seen(coll)),
                Err(e) => error = Some((e.kind(), e.has_position().then(|| e.position()))),
            }
        }
        (games, error)
    };
    let start = Position::locate(input, 0);
    let (whole, error) = read(0, start, 0);
    // The first game past a third of the input that starts cleanly at a
    // likely game start (where a cut is made).
    let third = input.len() / 3;
    let likely = |i: usize| crate::input::likely::likely_start(input, i);
    let clean = whole.iter().enumerate().find(|(_, (game, warnings))| {
        game.is_some_and(|(_, start, _, _)| {
            start >= third && likely(start) && warnings.iter().all(|w| w.pos.offset >= start)
        })
    });
    let Some((k, (Some((index, from, _, _)), _))) = clean else {
        return;
    };
    let (rest, rest_error) = read(*from, Position::locate(input, *from), *index);
    assert_eq!(
        rest,
        whole[k..],
        "stream restarted at {from}\n{}",
        repro(input)
    );
    assert_eq!(
        rest_error,
        error,
        "stream restarted at {from}: error\n{}",
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
