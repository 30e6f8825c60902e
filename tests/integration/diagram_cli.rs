//! `sgf diagram`: the picture it writes is the library's drawing of the
//! node asked for (from a file, standard input, a gzip file), PNG to a
//! file and to a pipe, and each error a message with exit status 1 or 2.

use super::common::{self, TempDir};
use sgf_grove::diagram::{Diagram, DiagramOptions};
use std::io::Write;
use std::process::{Command, Stdio};

/// 1 B ba, 2 W aa, 3 B ab (takes 2), 4 W cc, 5 B aa, 6 W pass; a second
/// game of 13×7.
const GAMES: &[u8] = b"(;SZ[9];B[ba];W[aa];B[ab];W[cc]TR[cc];B[aa];W[])\n(;SZ[13:7];B[mg])";

/// The library's drawing of move `at` (`None`: the end) of game `game`.
fn expected(game: usize, at: Option<usize>, options: &DiagramOptions) -> Diagram {
    let doc = sgf_grove::parse(GAMES).unwrap();
    let tree = doc.games().nth(game).unwrap();
    let line: Vec<_> = tree.root().main_line().collect();
    let node = at.map_or(*line.last().unwrap(), |n| line[n]);
    Diagram::at(tree, node, options).unwrap()
}

#[test]
fn svg_on_standard_output_is_the_librarys_drawing() {
    let dir = TempDir::new("diagram-svg");
    dir.write("g.sgf", GAMES);
    let out = common::sgf(&dir.0, &["diagram", "g.sgf"]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let plain = expected(0, None, &DiagramOptions::new());
    assert_eq!(common::stdout(&out), plain.to_svg());
    // The mark of the last node is in it, and not in move 4's.
    let four = expected(0, Some(4), &DiagramOptions::new());
    assert_ne!(four.to_svg(), plain.to_svg());
    let out = common::sgf(&dir.0, &["diagram", "g.sgf", "--move", "4"]);
    assert_eq!(common::stdout(&out), four.to_svg());

    let options = DiagramOptions::new()
        .numbers_from(Some(2))
        .coordinates(true);
    let out = common::sgf(
        &dir.0,
        &[
            "diagram", "g.sgf", "--from", "2", "--to", "5", "--coords", "--size", "800",
        ],
    );
    assert!(out.status.success(), "{}", common::stderr(&out));
    let range = expected(0, Some(5), &options);
    assert_eq!(range.notes().len(), 1);
    assert_eq!(common::stdout(&out), range.to_svg_sized(800));
    // The note below the board makes it taller than wide: 800 high.
    assert!(common::stdout(&out).contains(r#"height="800" viewBox"#));

    // --to alone numbers from 1; --node names the same node by path.
    let out = common::sgf(&dir.0, &["diagram", "g.sgf", "--to", "3"]);
    let from1 = expected(0, Some(3), &DiagramOptions::new().numbers_from(Some(1)));
    assert_eq!(common::stdout(&out), from1.to_svg());
    let out = common::sgf(
        &dir.0,
        &["diagram", "g.sgf", "--node", "0.0.0", "--from", "1"],
    );
    assert_eq!(common::stdout(&out), from1.to_svg());

    // The second game, a rectangle.
    let out = common::sgf(&dir.0, &["diagram", "g.sgf", "--game", "1"]);
    let rect = expected(1, None, &DiagramOptions::new());
    assert_eq!(rect.size().cols, 13);
    assert_eq!(common::stdout(&out), rect.to_svg());
}

#[test]
fn standard_input_and_compressed_inputs() {
    let dir = TempDir::new("diagram-stdin");
    let mut child = Command::new(env!("CARGO_BIN_EXE_sgf"))
        .args(["diagram", "-", "--game", "1"])
        .current_dir(&dir.0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(GAMES).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", common::stderr(&out));
    assert_eq!(
        common::stdout(&out),
        expected(1, None, &DiagramOptions::new()).to_svg()
    );

    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(GAMES).unwrap();
    dir.write("g.sgf.gz", enc.finish().unwrap());
    let out = common::sgf(&dir.0, &["diagram", "g.sgf.gz"]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    assert_eq!(
        common::stdout(&out),
        expected(0, None, &DiagramOptions::new()).to_svg()
    );
}

#[test]
fn png_to_a_file_and_to_a_pipe() {
    let dir = TempDir::new("diagram-png");
    dir.write("g.sgf", GAMES);
    let out = common::sgf(
        &dir.0,
        &[
            "diagram", "g.sgf", "--format", "png", "--size", "300", "--out", "d.png",
        ],
    );
    assert!(out.status.success(), "{}", common::stderr(&out));
    assert!(out.stdout.is_empty());
    let file = std::fs::read(dir.0.join("d.png")).unwrap();
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&file).unwrap();
    assert_eq!((pixmap.width(), pixmap.height()), (300, 300));
    // The stone on `ba` (black, number-free) and an empty point off its
    // lines, at 300 / 230.4 pixels per unit.
    let d = expected(0, None, &DiagramOptions::new());
    let k = 300.0 / d.svg_size().0;
    let rgb = |x: f64, y: f64| {
        let p = pixmap.pixel((x * k) as u32, (y * k) as u32).unwrap();
        (p.red(), p.green(), p.blue())
    };
    let (bx, by) = d.centre(sgf_grove::value::Point { x: 1, y: 0 });
    assert_eq!(rgb(bx, by), (0, 0, 0));
    let (ex, ey) = d.centre(sgf_grove::value::Point { x: 5, y: 5 });
    assert_eq!(rgb(ex + 6.0, ey + 6.0), (0xdc, 0xb3, 0x5c));
    // Standard output here is a pipe: the PNG goes there, the same bytes.
    let piped = common::sgf(
        &dir.0,
        &["diagram", "g.sgf", "--format", "png", "--size", "300"],
    );
    assert!(piped.status.success());
    assert_eq!(piped.stdout, file);
    // Without --size: 24 pixels between lines.
    let natural = common::sgf(&dir.0, &["diagram", "g.sgf", "--format", "png"]);
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&natural.stdout).unwrap();
    assert_eq!(pixmap.width(), 230);
}

#[test]
fn errors_are_messages_with_a_failing_status() {
    let dir = TempDir::new("diagram-errors");
    dir.write("g.sgf", GAMES);
    let cases: &[(&[&str], &str)] = &[
        (
            &["--game", "5"],
            "no game 5 in the inputs (they hold 2 games)",
        ),
        (
            &["--move", "99"],
            "--move 99: the main line has 6 moves, not 99",
        ),
        (&["--to", "7"], "--to 7: the main line has 6 moves, not 7"),
        (&["--node", "0.3"], "--node 0.3: no child 3 there"),
        (
            &["--from", "9"],
            "--from 9: the line to the node has 6 moves",
        ),
        (
            &["--move", "2", "--from", "3"],
            "--from 3: the line to the node has 2 moves",
        ),
    ];
    for (args, message) in cases {
        let mut all = vec!["diagram", "g.sgf"];
        all.extend_from_slice(args);
        let out = common::sgf(&dir.0, &all);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(
            common::stderr(&out).contains(message),
            "{args:?}: {}",
            common::stderr(&out)
        );
    }
    // Usage errors: exit status 2.
    for args in [
        &["diagram", "g.sgf", "--size", "0"][..],
        &["diagram", "g.sgf", "--to", "2", "--move", "1"],
        &["diagram", "missing.sgf"],
    ] {
        let out = common::sgf(&dir.0, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    // A strict replay stops at an illegal move.
    dir.write("bad.sgf", b"(;SZ[9];B[aa];W[aa])");
    let out = common::sgf(&dir.0, &["diagram", "--strict", "bad.sgf"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        common::stderr(&out).contains("illegal"),
        "{}",
        common::stderr(&out)
    );
    let out = common::sgf(&dir.0, &["diagram", "bad.sgf"]);
    assert!(out.status.success());
    // Markup it cannot read is named.
    dir.write("mark.sgf", b"(;SZ[9];B[aa]TR[zz])");
    let out = common::sgf(&dir.0, &["diagram", "mark.sgf"]);
    assert!(out.status.success());
    assert!(common::stderr(&out).contains("1 markup values not drawn"));
}
