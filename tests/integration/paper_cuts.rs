//! The paper cuts of the command line: `board` coordinates and star
//! points, `dedup` symmetries and its count of games not compared, the
//! `select` header, `split` file names, one style of counts in text and
//! one `skipped` count in JSON, `find` on a folder that is no index.

use crate::common::{sgf, stderr, stdout, TempDir};
use sgf_grove::game::{Symmetry, Transform};
use sgf_grove::value::BoardSize;

/// The diagram of `sgf board` for `text`, with `args` after the file.
fn diagram(dir: &TempDir, text: &str, args: &[&str]) -> String {
    dir.write("g.sgf", text);
    let mut all = vec!["board", "g.sgf"];
    all.extend_from_slice(args);
    let out = sgf(&dir.0, &all);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    stdout(&out)
}

/// The points marked `+` in a diagram with Go coordinates, as `D16`.
fn stars(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let columns: Vec<&str> = lines[0].split_whitespace().collect();
    let mut out = Vec::new();
    for line in &lines[1..] {
        // The last move's brackets stand where the spaces around it were.
        let line = line.replace(['[', ']'], " ");
        let mut cells = line.split_whitespace();
        let Some(row) = cells.next().filter(|r| r.parse::<u32>().is_ok()) else {
            continue;
        };
        for (x, cell) in cells.enumerate() {
            if cell == "+" {
                out.push(format!("{}{row}", columns[x]));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn board_prints_go_coordinates_and_star_points() {
    let dir = TempDir::new("board-coords");
    let text = diagram(&dir, "(;SZ[19];B[pd];W[dp];B[jj])", &[]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>().join(""),
        "ABCDEFGHJKLMNOPQRST",
        "columns without I: {text}"
    );
    // Rows from 19 at the top to 1 at the bottom; `pd` is Q16.
    assert!(lines[1].trim_start().starts_with("19 "), "{text}");
    assert!(lines[19].trim_start().starts_with("1 "), "{text}");
    let row16: Vec<&str> = lines[4].split_whitespace().collect();
    assert_eq!(row16[0], "16");
    assert_eq!(row16[16], "X", "Q16 holds the black stone: {text}");
    // Nine star points, less the two stones on D4 and Q16 and the last
    // move on K10 (`[X]`).
    assert_eq!(
        stars(&text),
        ["D10", "D16", "K16", "K4", "Q10", "Q4"],
        "{text}"
    );
    assert!(lines[10].contains("[X]"), "{text}");

    // Empty boards: 9×9 and 13×13 have five star points, 19×19 nine,
    // 5×5 none; the rule (third or fourth line, centre on odd sides)
    // gives the usual points.
    for (size, want) in [
        (9, &["C3", "C7", "E5", "G3", "G7"][..]),
        (13, &["D10", "D4", "G7", "K10", "K4"][..]),
        (
            19,
            &["D10", "D16", "D4", "K10", "K16", "K4", "Q10", "Q16", "Q4"][..],
        ),
        (5, &[][..]),
    ] {
        let text = diagram(&dir, &format!("(;SZ[{size}])"), &[]);
        assert_eq!(stars(&text), want, "{size}: {text}");
    }

    // Past 25 columns, two letters, still without I; a row label of two
    // digits; the ko and the last move named in Go coordinates.
    let text = diagram(&dir, "(;SZ[30];B[DD])", &[]);
    let columns: Vec<&str> = text.lines().next().unwrap().split_whitespace().collect();
    assert_eq!(columns.len(), 30);
    assert_eq!(&columns[23..], ["Y", "Z", "AA", "AB", "AC", "AD", "AE"]);
    assert!(!columns.iter().any(|c| c.contains('I')));
    // Cells as wide as the widest label, the stone under its last letter.
    assert!(text.lines().nth(30).unwrap().ends_with("  .[ X]"), "{text}");

    // --coords sgf: the SGF letters of each column and row.
    let text = diagram(&dir, "(;SZ[9];B[cc])", &["--coords", "sgf"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "   a b c d e f g h i");
    assert_eq!(lines[3], " c . .[X]. . . + . .");

    // A ko is named in the coordinates asked for.
    let ko = "(;SZ[9];B[ba];W[ca];B[ab];W[db];B[bc];W[cc];B[cb];W[bb])";
    let text = diagram(&dir, ko, &[]);
    assert!(text.contains("; ko at C8"), "{text}");
    let text = diagram(&dir, ko, &["--coords", "sgf"]);
    assert!(text.contains("; ko at cb"), "{text}");
}

/// A game of `len` moves (of a fixed 40-move line) drawn turned by `s`.
fn turned_game(s: Symmetry, root: &str, len: usize) -> String {
    let t = Transform {
        symmetry: s,
        swap_colors: false,
    };
    let mut text = format!("(;GM[1]SZ[19]{root}");
    for n in 0..len as u32 {
        let x = (b'a' + ((n * 7 + 3) % 19) as u8) as char;
        let y = (b'a' + ((n * 11 + 5) % 19) as u8) as char;
        let ident = if n % 2 == 0 { "B" } else { "W" };
        let mut out = Vec::new();
        t.write_value(
            ident,
            format!("{x}{y}").as_bytes(),
            BoardSize::square(19),
            &mut out,
        )
        .unwrap();
        text.push_str(&format!(";{ident}[{}]", String::from_utf8(out).unwrap()));
    }
    text.push(')');
    text
}

#[test]
fn dedup_symmetry_is_relative_to_the_best_copy() {
    let dir = TempDir::new("dedup-relative");
    // Three identical copies drawn turned (none in the canonical
    // orientation, whatever it is), the first with the most information.
    for (name, root) in [("a", "PB[A]PW[B]EV[x]"), ("b", "PB[A]"), ("c", "")] {
        dir.write(
            &format!("{name}.sgf"),
            turned_game(Symmetry::ALL[5], root, 40),
        );
    }
    let out = sgf(&dir.0, &["dedup", "-q", "--format", "json", "."]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let line: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let games = line["games"].as_array().unwrap();
    assert_eq!(games.len(), 3);
    for g in games {
        assert_eq!(g["symmetry"], "identity", "{line}");
    }

    // Copies drawn each its own way: each one's symmetry turns it into the
    // best copy (drawn as is), so it is the inverse of its own turn.
    let dir = TempDir::new("dedup-turned");
    dir.write("0.sgf", turned_game(Symmetry::Identity, "PB[A]PW[B]", 40));
    for (n, s) in Symmetry::ALL.into_iter().enumerate().skip(1) {
        dir.write(&format!("{n}.sgf"), turned_game(s, "", 40));
    }
    let out = sgf(&dir.0, &["dedup", "-q", "--format", "json", "."]);
    let line: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let games = line["games"].as_array().unwrap();
    assert_eq!(games.len(), 8);
    assert_eq!(
        games[line["best"].as_u64().unwrap() as usize]["source"],
        "./0.sgf"
    );
    for g in games {
        let n: usize = g["source"].as_str().unwrap()[2..3].parse().unwrap();
        let written = Symmetry::ALL[n];
        let said: Symmetry = g["symmetry"].as_str().unwrap().parse().unwrap();
        assert_eq!(written.then(said), Symmetry::Identity, "{g}");
    }
    // The text says the same.
    let out = sgf(&dir.0, &["dedup", "-q", "."]);
    let text = stdout(&out);
    assert!(text.starts_with("cluster 1: 8 copies\n"), "{text}");
    assert!(
        text.contains("* ./0.sgf game 0: 40 moves, identity"),
        "{text}"
    );
}

#[test]
fn dedup_counts_the_games_it_could_not_compare() {
    let dir = TempDir::new("dedup-skipped");
    dir.write("a.sgf", turned_game(Symmetry::Identity, "", 40));
    dir.write("b.sgf", turned_game(Symmetry::Identity, "", 40));
    dir.write("short.sgf", turned_game(Symmetry::Identity, "", 5));
    dir.write("short2.sgf", turned_game(Symmetry::Identity, "PB[x]", 9));
    dir.write("problem.sgf", "(;GM[1]SZ[19]AB[dd]AW[pp])");
    dir.write("chess.sgf", "(;GM[3];B[aa])");
    let out = sgf(&dir.0, &["dedup", "."]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(
            "dedup: 2 games compared, 1 clusters holding 2 games; 4 games not compared \
             (1 not Go, 1 without moves, 2 under 10 moves)"
        ),
        "{err}"
    );
    // A lower --min-prefix lets shorter games be compared.
    let out = sgf(&dir.0, &["dedup", ".", "--min-prefix", "5"]);
    let err = stderr(&out);
    assert!(
        err.contains("dedup: 4 games compared, 1 clusters holding 4 games; 2 games not compared (1 not Go, 1 without moves)"),
        "{err}"
    );
    // --help describes one output shape.
    let help = stdout(&sgf(&dir.0, &["dedup", "--help"]));
    assert!(help.contains("block of lines"), "{help}");
    assert!(!help.contains("one cluster per line"), "{help}");
    assert!(!help.contains("paragraph"), "{help}");
}

#[test]
fn select_header_and_documented_columns() {
    let dir = TempDir::new("select-header");
    dir.write("in/a.sgf", "(;GM[1]SZ[19];B[pd])(;GM[1]SZ[9];B[ee])");
    let out = sgf(&dir.0, &["select", "-q", "in", "--size", "19", "--header"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "source\tgame\toffset\nin/a.sgf\t0\t0\n");
    let out = sgf(&dir.0, &["select", "-q", "in", "--size", "9"]);
    assert_eq!(stdout(&out), "in/a.sgf\t1\t20\n");
    // No header before games.
    let out = sgf(
        &dir.0,
        &[
            "select", "-q", "in", "--size", "9", "--print", "games", "--header",
        ],
    );
    assert_eq!(stdout(&out), "(;GM[1]SZ[9];B[ee])\n");
    let help = stdout(&sgf(&dir.0, &["select", "--help"]));
    for word in [
        "--header",
        "`source`",
        "`game`",
        "`offset`",
        "tab-separated",
    ] {
        assert!(help.contains(word), "{word}: {help}");
    }
}

#[test]
fn split_names_sort_in_game_order() {
    let dir = TempDir::new("split-names");
    let games: String = (0..12).map(|n| format!("(;GM[1]C[{n}];B[aa])")).collect();
    dir.write("in/a.sgf", games);
    let out = sgf(&dir.0, &["split", "-q", "in", "--out", "out"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut names: Vec<String> = std::fs::read_dir(dir.0.join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".sgf"))
        .collect();
    names.sort();
    assert_eq!(names.len(), 12);
    assert_eq!(names[0], "000001.sgf");
    assert_eq!(names[11], "000012.sgf");
    // Sorted by name, the files are in game order.
    for (n, name) in names.iter().enumerate() {
        let text = std::fs::read_to_string(dir.0.join("out").join(name)).unwrap();
        assert!(text.contains(&format!("C[{n}]")), "{name}: {text}");
    }
    let index = std::fs::read_to_string(dir.0.join("out/index.tsv")).unwrap();
    let lines: Vec<&str> = index.lines().collect();
    assert_eq!(lines[0], "file\tsource\tgame\toffset");
    assert!(
        lines[12].starts_with("000012.sgf\tin/a.sgf\t11\t"),
        "{index}"
    );
}

#[test]
fn counts_in_text_have_separators_and_json_one_skipped_count() {
    let dir = TempDir::new("numbers");
    // 1,201 nodes in one game.
    let mut game = String::from("(;GM[1]SZ[19]");
    for n in 0..1200 {
        let (x, y) = (
            (b'a' + (n % 19) as u8) as char,
            (b'a' + (n / 19 % 19) as u8) as char,
        );
        game.push_str(&format!(";{}[{x}{y}]", if n % 2 == 0 { "B" } else { "W" }));
    }
    game.push(')');
    dir.write("in/a.sgf", &game);
    dir.write("in/notes.txt", "not a game record");
    let out = sgf(&dir.0, &["check", "--structure-only", "in"]);
    let text = stdout(&out);
    assert!(text.contains("nodes:    1,201\n"), "{text}");
    let bytes = game.len();
    assert!(bytes > 1000);
    let grouped = format!("{},{:03}", bytes / 1000, bytes % 1000);
    assert!(text.contains(&format!("bytes:    {grouped} (")), "{text}");
    // JSON: plain numbers, and `skipped` the sum of its reasons.
    let out = sgf(
        &dir.0,
        &["check", "--structure-only", "--format", "json", "in"],
    );
    let last: serde_json::Value =
        serde_json::from_str(stdout(&out).lines().last().unwrap()).unwrap();
    let summary = &last["summary"];
    assert_eq!(summary["nodes"], 1201);
    assert_eq!(summary["skipped_by_reason"]["not_sgf"], 1);
    assert_eq!(summary["skipped"], 1);
}

#[test]
fn find_on_a_folder_without_a_manifest() {
    let dir = TempDir::new("find-no-index");
    std::fs::create_dir_all(dir.0.join("empty")).unwrap();
    let out = sgf(&dir.0, &["find", "empty", "--moves", "pd"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("not an index: no manifest in empty"), "{err}");
    assert!(!err.contains("No such file"), "{err}");
    // A folder that is not there is still named as missing.
    let out = sgf(&dir.0, &["find", "missing", "--moves", "pd"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("missing"), "{}", stderr(&out));
}
