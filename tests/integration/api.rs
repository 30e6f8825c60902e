//! The read API: navigation, properties, values, spans, identifiers.

use sgf_grove::{parse, Node, ParseOptions, Parser, Span, WarningKind};

const GAME: &[u8] = b"(;GM[1]FF[4]SZ[19]\n;B[pd]\n(;W[dd];B[pp])\n(;W[dp]C[x])\n(;W[qq]))";

fn moves<'t, 'src>(nodes: impl Iterator<Item = Node<'t, 'src>>) -> Vec<String>
where
    'src: 't,
{
    nodes
        .map(|n| {
            n.properties()
                .map(|p| format!("{}[{}]", p.ident(), String::from_utf8_lossy(p.raw())))
                .collect::<Vec<_>>()
                .join("")
        })
        .collect()
}

#[test]
fn navigation() {
    let doc = parse(GAME).unwrap();
    assert!(doc.warnings().is_empty());
    let coll = doc.collection();
    assert_eq!(coll.len(), 1);
    assert_eq!(coll.node_count(), 6);
    let root = coll.game(0).unwrap().root();
    assert!(root.is_root() && !root.is_leaf());
    assert_eq!(root.parent(), None);
    let b = root.first_child().unwrap();
    assert_eq!(b.parent(), Some(root));
    let kids: Vec<_> = b.children().collect();
    assert_eq!(moves(kids.iter().copied()), ["W[dd]", "W[dp]C[x]", "W[qq]"]);
    assert_eq!(kids[1].prev_sibling(), Some(kids[0]));
    assert_eq!(kids[0].prev_sibling(), None);
    assert_eq!(kids[0].next_sibling(), Some(kids[1]));
    assert_eq!(kids[2].next_sibling(), None);
    assert_eq!(moves(kids[0].following_siblings()), ["W[dp]C[x]", "W[qq]"]);
    assert!(kids[2].is_leaf());
    assert_eq!(kids[0].first_child().unwrap().depth(), 3);
    assert_eq!(
        moves(root.main_line()),
        ["GM[1]FF[4]SZ[19]", "B[pd]", "W[dd]", "B[pp]"]
    );
    assert_eq!(
        moves(root.descendants()),
        [
            "GM[1]FF[4]SZ[19]",
            "B[pd]",
            "W[dd]",
            "B[pp]",
            "W[dp]C[x]",
            "W[qq]"
        ]
    );
    // Descendants of an inner node stay inside its subtree.
    assert_eq!(moves(kids[0].descendants()), ["W[dd]", "B[pp]"]);
    assert_eq!(
        moves(kids[0].first_child().unwrap().ancestors()),
        ["W[dd]", "B[pd]", "GM[1]FF[4]SZ[19]"]
    );
    // Collection::nodes is pre-order too, and ids round-trip.
    let all: Vec<_> = coll.nodes().collect();
    assert_eq!(all.len(), 6);
    for n in &all {
        assert_eq!(coll.node(n.id()), *n);
    }
}

#[test]
fn spans_point_into_the_input() {
    let doc = parse(GAME).unwrap();
    let coll = doc.collection();
    let game = coll.game(0).unwrap();
    assert_eq!(game.span(), Span::new(0, GAME.len()));
    let root = game.root();
    assert_eq!(
        &GAME[root.span().start..root.span().end],
        b";GM[1]FF[4]SZ[19]"
    );
    let sz = root.property("SZ").unwrap();
    assert_eq!(&GAME[sz.span().start..sz.span().end], b"SZ[19]");
    let v = sz.values().next().unwrap();
    assert_eq!(&GAME[v.span().start..v.span().end], b"19");
    assert_eq!(v.raw(), b"19");
    let c = root.descendants().find(|n| n.has("C")).unwrap();
    assert_eq!(&GAME[c.span().start..c.span().end], b";W[dp]C[x]");
    assert_eq!(c.offset(), c.span().start);
}

#[test]
fn repeated_properties_merge_in_file_order() {
    let input = b"(;AB[aa]W[bb]AB[cc][dd]C[x]AB[ee])";
    let doc = parse(input).unwrap();
    let kinds: Vec<_> = doc.warnings().iter().map(|w| w.kind).collect();
    assert_eq!(
        kinds,
        [WarningKind::RepeatedProperty, WarningKind::RepeatedProperty]
    );
    let root = doc.games().next().unwrap().root();
    let idents: Vec<_> = root.properties().map(|p| p.ident()).collect();
    assert_eq!(idents, ["AB", "W", "C"]);
    let ab: Vec<_> = root.raw_values("AB").map(|v| v.raw()).collect();
    assert_eq!(ab, [&b"aa"[..], b"cc", b"dd", b"ee"]);
    assert_eq!(root.raw("AB"), Some(&b"aa"[..]));
    assert_eq!(root.raw_values("XX").count(), 0);
    assert!(root.has("C") && !root.has("B"));
}

#[test]
fn identifiers_are_normalised_and_keep_their_spelling() {
    let doc = parse(b"(;GaMe[1]CoPyright[me]P B[x]MULTIGOGM[1])").unwrap();
    let root = doc.games().next().unwrap().root();
    let props: Vec<_> = root
        .properties()
        .map(|p| (p.ident().to_string(), p.ident_raw().to_vec()))
        .collect();
    assert_eq!(
        props,
        [
            ("GM".to_string(), b"GaMe".to_vec()),
            ("CP".to_string(), b"CoPyright".to_vec()),
            ("PB".to_string(), b"P B".to_vec()),
            ("MULTIGOGM".to_string(), b"MULTIGOGM".to_vec()),
        ]
    );
    assert_eq!(root.raw("CP"), Some(&b"me"[..]));
    assert_eq!(root.raw("PB"), Some(&b"x"[..]));
    // A query by the raw spelling finds nothing: lookups are normalised.
    assert_eq!(root.raw("CoPyright"), None);
}

#[test]
fn reused_parser_gives_independent_results() {
    let mut parser = Parser::new();
    let first = parser.parse(b"(;B[aa];W[bb])").unwrap().node_count();
    let coll = parser.parse(b"(;B[cc])(;B[dd])").unwrap();
    assert_eq!(first, 2);
    assert_eq!(coll.len(), 2);
    assert_eq!(coll.node_count(), 2);
    assert_eq!(coll.game(1).unwrap().root().raw("B"), Some(&b"dd"[..]));
    assert!(parser.parse(b"no sgf here").is_err());
    assert_eq!(parser.parse(b"(;B[ee])").unwrap().node_count(), 1);
}

#[test]
fn strict_mode_refuses_the_first_defect_with_its_position() {
    let mut parser = Parser::with_options(ParseOptions::new().strict(true));
    let err = parser.parse(b"(;GM[1]\n;B[aa]C[a [b] c])").unwrap_err();
    assert_eq!(
        err.kind(),
        sgf_grove::ErrorKind::Strict(WarningKind::UnescapedBracket)
    );
    assert_eq!((err.line(), err.column(), err.offset()), (2, 13, 20));
    assert_eq!(
        err.to_string(),
        "unescaped `]` inside a value kept as text (strict mode) at 2:13"
    );
    assert!(!err.is_eof());
    let err = parser.parse(b"(;GM[1];C[abc").unwrap_err();
    assert!(err.is_eof());
}

#[test]
fn warnings_are_capped_but_counted() {
    let mut input = b"(;".to_vec();
    for _ in 0..50 {
        input.extend_from_slice(b"B[aa]");
    }
    input.push(b')');
    let mut parser = Parser::with_options(ParseOptions::new().max_warnings(10));
    let coll = parser.parse(&input).unwrap();
    assert_eq!(coll.warnings().len(), 10);
    assert_eq!(coll.warnings_dropped(), 39);
    assert_eq!(coll.game(0).unwrap().root().raw_values("B").count(), 50);
}

/// Parsing one game at a time gives the same games, nodes and warnings
/// (kinds and positions) as parsing the whole input, for every hand-written
/// case and for all of them concatenated.
#[test]
fn parse_each_matches_parse() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut inputs = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "sgf") {
            inputs.push(std::fs::read(&path).unwrap());
        }
    }
    assert!(inputs.len() >= 40);
    let all: Vec<u8> = inputs.join(&b"\n"[..]);
    inputs.push(all);
    let mut whole = Parser::new();
    let mut each = Parser::new();
    for input in &inputs {
        let expected = whole.parse(input).map(|c| {
            let mut w: Vec<_> = c.warnings().to_vec();
            w.sort_by_key(|w| w.pos.offset);
            (c.len(), c.node_count(), w)
        });
        let mut nodes = 0;
        let mut warnings = Vec::new();
        let got = each
            .parse_each(input, |c| {
                nodes += c.node_count();
                warnings.extend_from_slice(c.warnings());
                std::ops::ControlFlow::<()>::Continue(())
            })
            .map(|flow| {
                let games = flow.continue_value().expect("never stopped");
                warnings.sort_by_key(|w| w.pos.offset);
                (games, nodes, warnings.clone())
            });
        match (&expected, &got) {
            (Ok(e), Ok(g)) => assert_eq!(e, g, "{}", String::from_utf8_lossy(input)),
            (Err(e), Err(g)) => assert_eq!(e.kind(), g.kind()),
            _ => panic!(
                "{expected:?} vs {got:?} for {}",
                String::from_utf8_lossy(input)
            ),
        }
    }
}

/// A parser and a document move to another thread (`Send`); the arena that
/// decoded text goes to keeps them from being shared (`!Sync`, see the
/// docs of `Document`).
#[test]
fn parser_and_document_are_send() {
    fn send<T: Send>(_: &T) {}
    let doc = sgf_grove::parse(b"(;C[a\\]b])").unwrap();
    send(&doc);
    send(&sgf_grove::Parser::new());
    let text = std::thread::scope(|s| {
        s.spawn(move || {
            doc.games()
                .next()
                .unwrap()
                .root()
                .text("C")
                .map(str::to_owned)
        })
        .join()
        .unwrap()
    });
    assert_eq!(text.as_deref(), Some("a]b"));
}

/// A game's nodes come from its run of the arena: the same nodes, in the
/// same order, as a depth-first walk of its links, whatever the shape
/// (variations, nodes after variations, detached variations, resyncs).
#[test]
fn game_nodes_are_the_depth_first_walk() {
    let inputs: &[&[u8]] = &[
        b"(;a[1](;B[aa];W[bb](;B[cc])(;B[dd];W[ee]))(;B[ff]);B[gg];W[hh])",
        b"(;GM[1](;B[aa](;W[bb])(;W[cc];B[dd](;W[ee])))(;B[ff]);B[gg](;W[hh])(;W[ii]))",
        b"((;B[aa];W[bb])(;B[cc](;W[dd])(;W[ee]));B[ff])",
        b"(;GM[1];B[aa](;W[bb];B[cc](;GM[1];B[dd]))(;W[ee]))",
        b"(;GM[1](((;B[aa]))(;B[bb])));W[cc]",
    ];
    let mut all: Vec<Vec<u8>> = inputs.iter().map(|i| i.to_vec()).collect();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "sgf") {
            all.push(std::fs::read(path).unwrap());
        }
    }
    for input in &all {
        let Ok(doc) = sgf_grove::parse(input) else {
            continue;
        };
        for game in doc.games() {
            let run: Vec<_> = game.nodes().map(|n| n.id()).collect();
            let walk: Vec<_> = game.root().descendants().map(|n| n.id()).collect();
            assert_eq!(run, walk, "{}", String::from_utf8_lossy(input));
            assert!(game.nodes().all(|n| n.game().index() == game.index()));
        }
    }
}

/// Bytes from a small generator (xorshift), as binary data is: every value,
/// about one byte in eight a control byte.
fn random_bytes(len: usize) -> Vec<u8> {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// Binary data with what looks like a game inside its first kilobyte (a
/// `(` is one byte in 256 of it) is refused as binary data, not read as
/// SGF after junk; a game whose comments hold a few control bytes still
/// parses, whether it starts the input or follows some text.
#[test]
fn binary_data_with_a_game_inside_is_not_text() {
    use sgf_grove::{Document, ErrorKind, ParseOptions};
    let mut bytes = random_bytes(8192);
    bytes[300..317].copy_from_slice(b"(;GM[1];B[aa]W[b]");
    for strict in [false, true] {
        let err = Document::parse_with(&bytes, &ParseOptions::new().strict(strict)).unwrap_err();
        assert_eq!(
            err.kind(),
            ErrorKind::NotText {
                what: "binary data"
            }
        );
        assert_eq!(err.to_string(), "binary data; not SGF text at 1:1");
    }
    let mut game = b"(;GM[1]C[a bell \x07 and a backspace \x08];B[aa]C[\x01\x02]".to_vec();
    for _ in 0..60 {
        game.extend_from_slice(b";W[bb];B[cc]");
    }
    game.push(b')');
    let doc = parse(&game).unwrap();
    assert_eq!(doc.collection().node_count(), 122);
    game.splice(0..0, b"Saved by some program\r\n".iter().copied());
    let doc = parse(&game).unwrap();
    assert_eq!(doc.collection().node_count(), 122);
    assert_eq!(
        doc.warnings()[0].kind,
        sgf_grove::WarningKind::JunkBeforeGame
    );
}
