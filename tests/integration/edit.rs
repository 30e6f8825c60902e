//! Editing (`sgf_grove::edit`): every edit and its errors, stable ids, the
//! root's `SZ` and `CA` followed, the builder, writing in every mode,
//! transforms; then the real corpus: unedited games written as the writer
//! writes them, edits read back (the fuzz target's check), transforms undone
//! by their inverses.

use crate::corpus_pass::{Check, Corpus, File};
use sgf_grove::edit::{EditId, EditableGame, GameBuilder};
use sgf_grove::encoding_rs::{GBK, SHIFT_JIS, UTF_8};
use sgf_grove::game::{Komi, Symmetry, Transform};
use sgf_grove::value::{BoardSize, Color, Empty, Move, Point};
use sgf_grove::writer::{Target, WriteOptions};
use sgf_grove::ErrorKind;
use std::sync::atomic::{AtomicUsize, Ordering};

fn editable(input: &[u8]) -> EditableGame {
    let doc = sgf_grove::parse(input).expect("parses");
    EditableGame::from_game(doc.games().next().expect("a game"))
}

/// The ids in pre-order.
fn ids(game: &EditableGame) -> Vec<EditId> {
    game.nodes().collect()
}

#[track_caller]
fn assert_sgf(game: &EditableGame, want: &str) {
    assert_eq!(String::from_utf8_lossy(&game.to_sgf()), format!("{want}\n"));
}

fn pt(s: &str) -> Point {
    s.parse().unwrap()
}

#[test]
fn set_typed_values_and_read_them_back() {
    let mut game = EditableGame::new(BoardSize::square(19));
    let root = game.root();
    game.set(root, "KM", Komi::parse("6.50").unwrap()).unwrap();
    game.set(root, "PB", "Lee ] Sedol").unwrap();
    game.set(root, "HA", 2i64).unwrap();
    game.set_list(root, "AB", [pt("pd"), pt("dp")]).unwrap();
    game.set_list(root, "LB", [(pt("aa"), "A"), (pt("bb"), "x:y")])
        .unwrap();
    game.set(root, "VW", Empty).unwrap();
    let node = game.push_child(root).unwrap();
    game.set(node, "W", Move::Pass).unwrap();
    assert_sgf(
        &game,
        r"(;GM[1]FF[4]CA[UTF-8]SZ[19]KM[6.50]PB[Lee \] Sedol]HA[2]AB[pd][dp]LB[aa:A][bb:x\:y]VW[];W[])",
    );
    let r = game.node(root).unwrap();
    assert_eq!(r.get::<f64>("KM").unwrap(), Some(6.5));
    assert_eq!(r.text("PB"), Some("Lee ] Sedol"));
    assert_eq!(r.points("AB").unwrap(), [pt("pd"), pt("dp")]);
    assert_eq!(
        game.node(node).unwrap().played().unwrap(),
        Some((Color::White, Move::Pass))
    );
    // Setting again replaces, in place.
    game.set(root, "PB", "Cho").unwrap();
    assert_eq!(
        game.node(root)
            .unwrap()
            .properties()
            .nth(5)
            .unwrap()
            .ident(),
        "PB"
    );
    assert_eq!(game.node(root).unwrap().text("PB"), Some("Cho"));
}

#[test]
fn raw_values_are_checked() {
    let mut game = EditableGame::new(BoardSize::square(19));
    let root = game.root();
    game.set_raw(root, "C", br"escaped \] and \\ fine [too\]")
        .unwrap();
    for (raw, why) in [
        (&b"a ] b"[..], "an unescaped `]`"),
        (b"ends with \\", "a lone `\\` at the end of the value"),
        (
            b"quote (;GM[1] here",
            "`(;` and a root property: a reader starts a new game there",
        ),
    ] {
        let err = game.set_raw(root, "C", raw).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidRawValue);
        assert_eq!(err.reason(), Some(why));
    }
    let err = game.set_raw_values(root, "AB", &[]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidRawValue);
    for ident in ["", "b", "B1", "Ab"] {
        let err = game.set_raw(root, ident, b"x").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidIdent, "{ident:?}");
    }
    // Nothing refused reached the game.
    assert_eq!(
        game.node(root).unwrap().raw("C"),
        Some(&br"escaped \] and \\ fine [too\]"[..])
    );
    // Typed text is escaped, a quoted game start included.
    game.set(root, "C", "quote (;GM[1] here").unwrap();
    assert_eq!(
        game.node(root).unwrap().text("C"),
        Some("quote (;GM[1] here")
    );
    let sgf = game.to_sgf();
    let doc = sgf_grove::parse(&sgf).unwrap();
    assert_eq!(doc.collection().len(), 1);
}

#[test]
fn remove_properties() {
    let mut game = editable(b"(;GM[1]SZ[9]C[a];B[ee]C[b]TR[aa][bb])");
    let n = ids(&game);
    assert!(game.remove(n[1], "TR").unwrap());
    assert!(!game.remove(n[1], "TR").unwrap());
    assert!(game.remove(n[0], "SZ").unwrap());
    assert_eq!(game.board_size(), BoardSize::square(19));
    assert_sgf(&game, "(;GM[1]C[a];B[ee]C[b])");
}

#[test]
fn add_children_at_an_index() {
    let mut game = editable(b"(;GM[1];B[aa];W[bb])");
    let n = ids(&game);
    let first = game.add_child(n[1], 0).unwrap();
    game.set(first, "W", pt("cc")).unwrap();
    let last = game.push_child(n[1]).unwrap();
    game.set(last, "W", pt("dd")).unwrap();
    assert_sgf(&game, "(;GM[1];B[aa](;W[cc])(;W[bb])(;W[dd]))");
    let err = game.add_child(n[1], 4).unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::ChildIndexOutOfRange { index: 4, len: 3 }
    );
}

#[test]
fn delete_subtrees_and_their_ids_stay_invalid() {
    let mut game = editable(b"(;GM[1];B[aa](;W[bb];B[cc])(;W[dd]))");
    let n = ids(&game);
    game.delete(n[2]).unwrap();
    assert_sgf(&game, "(;GM[1];B[aa];W[dd])");
    for gone in [n[2], n[3]] {
        assert!(!game.contains(gone));
        assert_eq!(game.node(gone).unwrap_err().kind(), ErrorKind::NoSuchNode);
        assert_eq!(
            game.set(gone, "C", "x").unwrap_err().kind(),
            ErrorKind::NoSuchNode
        );
        assert_eq!(game.delete(gone).unwrap_err().kind(), ErrorKind::NoSuchNode);
        assert_eq!(
            game.move_to(n[4], gone, 0).unwrap_err().kind(),
            ErrorKind::NoSuchNode
        );
    }
    // A new node gets a new id, never a deleted one.
    let fresh = game.push_child(n[4]).unwrap();
    assert!(!n.contains(&fresh));
    assert_eq!(
        game.delete(game.root()).unwrap_err().kind(),
        ErrorKind::RootNode
    );
    assert_eq!(game.node_count(), 4);
}

#[test]
fn move_subtrees_and_refuse_loops() {
    let mut game = editable(b"(;GM[1];B[aa];W[bb];B[cc](;W[dd])(;W[ee]))");
    let n = ids(&game);
    // W[bb] and all below under the root, as its second child.
    game.move_to(n[2], n[0], 1).unwrap();
    assert_sgf(&game, "(;GM[1](;B[aa])(;W[bb];B[cc](;W[dd])(;W[ee])))");
    for (node, under) in [(n[2], n[2]), (n[2], n[3]), (n[2], n[5])] {
        let err = game.move_to(node, under, 0).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::WouldCreateLoop);
    }
    let err = game.move_to(n[0], n[1], 0).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::RootNode);
    // Among the same parent, the index counts without the node moved.
    game.move_to(n[5], n[3], 0).unwrap();
    assert_sgf(&game, "(;GM[1](;B[aa])(;W[bb];B[cc](;W[ee])(;W[dd])))");
    let err = game.move_to(n[5], n[3], 2).unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::ChildIndexOutOfRange { index: 2, len: 1 }
    );
    // Nothing refused moved anything.
    assert_sgf(&game, "(;GM[1](;B[aa])(;W[bb];B[cc](;W[ee])(;W[dd])))");
}

#[test]
fn reorder_and_promote_variations() {
    let mut game = editable(b"(;GM[1](;B[aa])(;B[bb](;W[cc])(;W[dd]))(;B[ee]))");
    let n = ids(&game);
    game.set_child_index(n[5], 0).unwrap();
    assert_sgf(&game, "(;GM[1](;B[ee])(;B[aa])(;B[bb](;W[cc])(;W[dd])))");
    // W[dd] and its parent B[bb] become the main line.
    game.promote(n[4]).unwrap();
    assert_sgf(&game, "(;GM[1](;B[bb](;W[dd])(;W[cc]))(;B[ee])(;B[aa]))");
    assert_eq!(
        game.moves().unwrap(),
        [
            (Color::Black, Move::Play(pt("bb"))),
            (Color::White, Move::Play(pt("dd")))
        ]
    );
    assert_eq!(game.promote(n[0]).unwrap_err().kind(), ErrorKind::RootNode);
    assert_eq!(
        game.set_child_index(n[0], 0).unwrap_err().kind(),
        ErrorKind::RootNode
    );
}

#[test]
fn append_to_comments() {
    let mut game = editable(b"(;GM[1]C[first];B[aa])");
    let n = ids(&game);
    game.append_comment(n[0], "second]").unwrap();
    game.append_comment(n[1], "new").unwrap();
    assert_sgf(
        &game,
        r"(;GM[1]C[first
second\]];B[aa]C[new])",
    );
}

#[test]
fn ids_stay_valid_across_edits() {
    let mut game = editable(b"(;GM[1];B[aa](;W[bb];B[cc])(;W[dd];B[ee]))");
    let n = ids(&game);
    let raw = |g: &EditableGame, id: EditId, ident: &str| {
        g.node(id).unwrap().raw(ident).map(<[u8]>::to_vec)
    };
    game.promote(n[4]).unwrap();
    game.move_to(n[3], n[0], 0).unwrap();
    let extra = game.add_child(n[1], 0).unwrap();
    game.set(extra, "W", pt("ff")).unwrap();
    game.delete(n[2]).unwrap();
    game.transform(Transform {
        symmetry: Symmetry::Identity,
        swap_colors: true,
    })
    .unwrap();
    assert_eq!(raw(&game, n[1], "W"), Some(b"aa".to_vec()));
    assert_eq!(raw(&game, n[3], "W"), Some(b"cc".to_vec()));
    assert_eq!(raw(&game, n[4], "B"), Some(b"dd".to_vec()));
    assert_eq!(raw(&game, n[5], "W"), Some(b"ee".to_vec()));
    assert_eq!(raw(&game, extra, "B"), Some(b"ff".to_vec()));
    assert_eq!(game.node(n[3]).unwrap().parent(), Some(n[0]));
    assert_eq!(game.node(n[5]).unwrap().parent(), Some(n[4]));
    // The ids of a parsed game are its nodes' in pre-order.
    let doc = sgf_grove::parse(b"(;GM[1];B[aa](;W[bb])(;W[cc]))").unwrap();
    let parsed = doc.games().next().unwrap();
    let game = EditableGame::from_game(parsed);
    for node in parsed.nodes() {
        let id = game.id_of(parsed, node).unwrap();
        assert_eq!(
            game.node(id)
                .unwrap()
                .properties()
                .map(|p| p.ident())
                .collect::<Vec<_>>(),
            node.properties().map(|p| p.ident()).collect::<Vec<_>>()
        );
    }
}

#[test]
fn board_size_follows_sz() {
    let mut game = editable(b"(;GM[1]SZ[19];B[tt];W[ss])");
    let n = ids(&game);
    let played = |g: &EditableGame, id| g.node(id).unwrap().played().unwrap().unwrap().1;
    assert_eq!(played(&game, n[1]), Move::Pass);
    game.set(n[0], "SZ", BoardSize::square(21)).unwrap();
    assert_eq!(game.board_size(), BoardSize::square(21));
    assert_eq!(played(&game, n[1]), Move::Play(Point { x: 19, y: 19 }));
    game.set_raw(n[0], "SZ", b"9").unwrap();
    let err = game.node(n[2]).unwrap().played().unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::InvalidValue(sgf_grove::value::ValueType::Move)
    );
    game.set(n[0], "SZ", BoardSize { cols: 19, rows: 13 })
        .unwrap();
    assert_eq!(game.board_size(), BoardSize { cols: 19, rows: 13 });
    assert_sgf(&game, "(;GM[1]SZ[19:13];B[tt];W[ss])");
    // What is set is checked against the new board when read.
    assert!(game.node(n[2]).unwrap().get::<Point>("W").is_err());
}

#[test]
fn charset_follows_ca() {
    // GBK bytes in a game that says nothing: read as detected.
    let mut game = editable(b"(;GM[1]CA[UTF-8]C[\xc4\xe3\xba\xc3])");
    let root = game.root();
    assert_eq!(game.charset(), UTF_8);
    game.set_raw(root, "CA", b"GB2312").unwrap();
    assert_eq!(game.charset(), GBK);
    assert_eq!(game.node(root).unwrap().text("C"), Some("你好"));
    // New text is encoded in the game's charset.
    game.set(root, "PB", "常昊").unwrap();
    assert_eq!(
        game.node(root).unwrap().raw("PB"),
        Some(&b"\xb3\xa3\xea\xbb"[..])
    );
    let err = game.set(root, "PW", "😀").unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::Unrepresentable {
            ch: '😀',
            charset: "GBK"
        }
    );
    for label in [&b"klingon"[..], b"UTF-16"] {
        let err = game.set_raw(root, "CA", label).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnusableCharset);
    }
    // Transcoded on writing, through the writer.
    let utf8 = game
        .write_with(&WriteOptions::new().transcode(Target::Utf8))
        .unwrap();
    assert_eq!(
        String::from_utf8(utf8).unwrap(),
        "(;CA[UTF-8]GM[1]C[你好]PB[常昊])\n"
    );
    // `表` in Shift_JIS ends with a `\` byte: fine read a character at a
    // time, but a `CA` that reads the game byte by byte would split it.
    let mut game = editable(b"(;CA[Shift_JIS]C[\x95\x5c];B[aa])");
    assert_eq!(game.charset(), SHIFT_JIS);
    let root = game.root();
    let err = game.set_raw(root, "CA", b"UTF-8").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnusableCharset);
    assert_eq!(
        game.remove(root, "CA").unwrap_err().kind(),
        ErrorKind::UnusableCharset
    );
    assert_eq!(game.charset(), SHIFT_JIS);
    assert_eq!(game.node(root).unwrap().text("C"), Some("表"));
}

#[test]
fn root_properties_stay_in_the_root() {
    let mut game = editable(b"(;GM[1];B[aa])");
    let n = ids(&game);
    for ident in ["SZ", "GM", "CA", "FF", "AP", "ST"] {
        let err = game.set_raw(n[1], ident, b"9").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::RootPropertyOutsideRoot, "{ident}");
    }
    // A parsed node that holds one is never made to start a variation.
    let mut game = editable(b"(;GM[1];B[aa];AP[x:1]W[bb])");
    let n = ids(&game);
    let err = game.add_child(n[1], 1).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::RootPropertyOutsideRoot);
    let err = game.move_to(n[2], n[0], 1).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::RootPropertyOutsideRoot);
    assert_sgf(&game, "(;GM[1];B[aa];AP[x:1]W[bb])");
}

#[test]
fn builder_records_a_game_that_parses_back() {
    let mut b = GameBuilder::new(BoardSize::square(19));
    b.info("PB", "Black")
        .unwrap()
        .info("PW", "White")
        .unwrap()
        .info("KM", 6.5)
        .unwrap()
        .info("RE", sgf_grove::game::GameResult::parse("W+R"))
        .unwrap();
    b.play(Color::Black, pt("pd"))
        .unwrap()
        .comment("first")
        .unwrap();
    let fork = b.current();
    b.play(Color::White, pt("dp")).unwrap();
    b.pass(Color::Black).unwrap();
    b.go_to(fork).unwrap().play(Color::White, pt("dd")).unwrap();
    b.back().back().back();
    assert_eq!(b.current(), b.game().root());
    let game = b.finish();
    let sgf = game.to_sgf();
    assert_eq!(
        String::from_utf8_lossy(&sgf),
        "(;GM[1]FF[4]CA[UTF-8]SZ[19]PB[Black]PW[White]KM[6.5]RE[W+R];B[pd]C[first](;W[dp];B[])(;W[dd]))\n"
    );
    let doc = sgf_grove::parse(&sgf).unwrap();
    assert!(doc.warnings().is_empty());
    let parsed = doc.games().next().unwrap();
    assert_eq!(parsed.game_info().black().name, Some("Black"));
    assert_eq!(
        parsed.moves().collect::<Result<Vec<_>, _>>().unwrap(),
        game.moves().unwrap()
    );
    assert_eq!(EditableGame::from_game(parsed).to_sgf(), sgf);
}

#[test]
fn every_write_mode_on_an_edited_game() {
    let mut game = editable(b"(;FF[3]GM[1]SZ[9]C[x\\:y];B[tt]AB[aa][ab][ba][bb])");
    let root = game.root();
    game.set(root, "PB", "me").unwrap();
    let canonical = WriteOptions::new()
        .canonical(true)
        .points(sgf_grove::writer::PointStyle::Compress);
    assert_eq!(
        String::from_utf8(game.write_with(&canonical).unwrap()).unwrap(),
        "(;GM[1]FF[4]SZ[9]PB[me]C[x:y];B[]AB[aa:bb])\n"
    );
    let thin = WriteOptions::new().drop_props(["C"]);
    assert_eq!(
        String::from_utf8(game.write_with(&thin).unwrap()).unwrap(),
        "(;FF[3]GM[1]SZ[9]PB[me];B[tt]AB[aa][ab][ba][bb])\n"
    );
    assert_eq!(
        game.write_with(&WriteOptions::new()).unwrap(),
        game.to_sgf()
    );
}

#[test]
fn transform_a_whole_tree() {
    let input = b"(;GM[1]SZ[19:13]PB[b]PW[w]RE[B+R]AB[aa:bb]TB[sm]VW[aa:ci]\
        ;B[ab]LB[ab:x]AR[aa:cc]LN[ba:ca]CR[bb]MA[cc]SQ[dd]TR[ee]SL[ff]DD[]\
        ;W[]PL[B])";
    let mut game = editable(input);
    let t = Transform {
        symmetry: Symmetry::Rotate90,
        swap_colors: true,
    };
    game.transform(t).unwrap();
    assert_eq!(game.board_size(), BoardSize { cols: 13, rows: 19 });
    assert_sgf(
        &game,
        "(;GM[1]SZ[13:19]PW[b]PB[w]RE[W+R]AW[la:mb]TW[as]VW[ea:mc]\
        ;W[la]LB[la:x]AR[ma:kc]LN[mb:mc]CR[lb]MA[kc]SQ[jd]TR[ie]SL[hf]DD[]\
        ;B[]PL[W])",
    );
    let back = Transform {
        symmetry: t.symmetry.inverse(),
        swap_colors: true,
    };
    game.transform(back).unwrap();
    assert_eq!(game.to_sgf(), editable(input).to_sgf());
    // Not Go: points mean something else.
    let mut chess = editable(b"(;GM[3];B[aa])");
    assert_eq!(chess.transform(t).unwrap_err().kind(), ErrorKind::NotGo);
}

/// Every 5th file of the real corpus: a game copied into an
/// [`EditableGame`] and not edited is written as the writer writes it.
/// Checks of the one pass over the corpus (`corpus_pass.rs`), as are the
/// two after it.
pub struct UneditedWritten;

impl Check for UneditedWritten {
    fn name(&self) -> &'static str {
        "corpus_unedited_games_are_written_as_the_writer_writes_them"
    }

    fn file(&self, file: &File<'_>) {
        if !file.n.is_multiple_of(5) {
            return;
        }
        let Ok(coll) = file.parsed else {
            return;
        };
        for game in coll.games() {
            let mut want = Vec::new();
            sgf_grove::Writer::new(&mut want).write_game(game).unwrap();
            let got = EditableGame::from_game(game).to_sgf();
            assert!(
                got == want,
                "{}: game {}",
                file.path.display(),
                game.index()
            );
        }
    }

    fn finish(&self, _: &Corpus) {}
}

/// Every 7th file: each Go game transformed (a symmetry, colours swapped
/// or not) and transformed back is the game it was.
#[derive(Default)]
pub struct TransformsUndone(AtomicUsize);

impl Check for TransformsUndone {
    fn name(&self) -> &'static str {
        "corpus_transforms_undone_by_their_inverses"
    }

    fn file(&self, file: &File<'_>) {
        let path = file.path;
        if !file.n.is_multiple_of(7) {
            return;
        }
        let Ok(coll) = file.parsed else {
            return;
        };
        for (i, game) in coll.games().enumerate() {
            if game.game_type() != 1 {
                continue;
            }
            let original = EditableGame::from_game(game);
            let symmetry = Symmetry::ALL[(i + path.as_os_str().len()) % 8];
            let t = Transform {
                symmetry,
                swap_colors: i % 2 == 0,
            };
            let inverse = Transform {
                symmetry: symmetry.inverse(),
                swap_colors: t.swap_colors,
            };
            let mut edit = original.clone();
            edit.transform(t).unwrap();
            if edit.to_sgf() != original.to_sgf() {
                self.0.fetch_add(1, Ordering::Relaxed);
            }
            edit.transform(inverse).unwrap();
            assert!(
                edit.to_sgf() == original.to_sgf(),
                "{}: game {} by {symmetry}: b\"{}\"",
                path.display(),
                game.index(),
                edit.to_sgf().escape_ascii()
            );
        }
    }

    fn finish(&self, _: &Corpus) {
        assert!(self.0.load(Ordering::Relaxed) > 0);
    }
}

/// Every 25th file through the edit oracle: edits read back.
#[cfg(feature = "oracle")]
pub struct EditsReadBack;

#[cfg(feature = "oracle")]
impl Check for EditsReadBack {
    fn name(&self) -> &'static str {
        "corpus_edits_read_back"
    }

    fn file(&self, file: &File<'_>) {
        if file.n.is_multiple_of(25) {
            sgf_grove::oracle::edit::check_edit_roundtrip(file.bytes);
        }
    }

    fn finish(&self, _: &Corpus) {}
}

#[cfg(feature = "oracle")]
#[test]
fn hand_written_corpus_edits_read_back() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let files = crate::common::sgf_files(&dir);
    assert!(!files.is_empty());
    for path in files {
        let input = std::fs::read(&path).unwrap();
        sgf_grove::oracle::edit::check_edit_roundtrip(&input);
    }
}

#[test]
fn deep_trees_use_no_recursion() {
    const DEPTH: usize = 200_000;
    let mut b = GameBuilder::new(BoardSize::square(19));
    for i in 0..DEPTH {
        let color = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        b.play(color, Move::Pass).unwrap();
    }
    let mut game = b.finish();
    let sgf = game.to_sgf();
    let doc = sgf_grove::parse(&sgf).unwrap();
    let parsed = doc.games().next().unwrap();
    let copy = EditableGame::from_game(parsed);
    assert_eq!(copy.node_count(), DEPTH + 1);
    assert_eq!(copy.to_sgf(), sgf);
    // A variation at the bottom, promoted through every level.
    let last = game.nodes().last().unwrap();
    let parent = game.node(last).unwrap().parent().unwrap();
    let extra = game.push_child(parent).unwrap();
    game.promote(extra).unwrap();
    assert_eq!(game.node(parent).unwrap().first_child(), Some(extra));
    let first = game.node(game.root()).unwrap().first_child().unwrap();
    game.delete(first).unwrap();
    assert_eq!(game.node_count(), 1);
    assert_eq!(game.moves().unwrap(), []);
}
