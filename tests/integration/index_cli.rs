//! `sgf index build|add|compact|info` and `sgf find`, run as a child
//! process on games written to a temporary folder.

#![cfg(feature = "cli")]

use crate::common::TempDir;
use serde_json::Value as Json;
use std::path::Path;
use std::process::{Command, Output};

fn sgf(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sgf"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run sgf")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8")
}

fn ok(output: Output) -> Output {
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    output
}

fn json(output: &Output) -> Json {
    serde_json::from_str(stdout(output).trim()).expect("one JSON object")
}

/// Two games of one opening, the second turned a quarter (pd → pp, dd → pd,
/// pq → cp, dp → dd) and in a collection with a game of another size.
fn write_games(dir: &TempDir) {
    dir.write(
        "a/one.sgf",
        "(;GM[1]SZ[19]PB[Ann]PW[Bob]DT[2020-01-02]RE[B+R];B[pd];W[dd];B[pq];W[dp];B[qk])",
    );
    dir.write(
        "a/two.sgf",
        "(;GM[1]SZ[19]PB[Cy]PW[Di]RE[W+0.5];B[pp];W[pd];B[cp];W[dd];B[jj])\
         (;GM[1]SZ[9]PB[Ed]PW[Flo];B[ee])",
    );
}

#[test]
fn index_build_and_find_moves() {
    let dir = TempDir::new("index-cli");
    write_games(&dir);
    let out = ok(sgf(
        &dir.0,
        &["index", "build", "a", "--out", "idx", "-j", "2"],
    ));
    assert!(
        stderr(&out).contains("index: 3 games added (0 already there)"),
        "{}",
        stderr(&out)
    );
    let out = ok(sgf(
        &dir.0,
        &["find", "idx", "--moves", "pd dd pq dp", "--format", "json"],
    ));
    let found = json(&out);
    assert_eq!(found["games"], 2);
    assert_eq!(found["hits"], 2);
    assert_eq!(found["index_games"], 3);
    let first = &found["found"][0];
    assert!(first["source"].as_str().unwrap().ends_with("one.sgf"));
    assert_eq!(first["game"], 0);
    assert_eq!(first["black"], "Ann");
    assert_eq!(first["date"], "2020-01-02");
    assert_eq!(first["result"], "B+R");
    assert_eq!(first["move"], 4);
    assert_eq!(first["symmetry"], "identity");
    assert_eq!(first["next"], "B qk");
    let second = &found["found"][1];
    assert!(second["source"].as_str().unwrap().ends_with("two.sgf"));
    assert_eq!(second["symmetry"], "rot270");
    // two.sgf's B[jj] is the centre whatever the turn.
    assert_eq!(second["next"], "B jj");
    let table = found["continuations"].as_array().unwrap();
    assert_eq!(table.len(), 2);
    assert_eq!(table[0]["count"], 1);
    // The text form: counts, a line per occurrence, the table.
    let out = ok(sgf(&dir.0, &["find", "idx", "--moves", "pd dd pq dp"]));
    let text = stdout(&out);
    assert!(
        text.starts_with("2 games, 2 occurrences (of 3 games in the index)"),
        "{text}"
    );
    assert!(
        text.contains("move 4  Ann - Bob  2020-01-02  B+R  next B qk"),
        "{text}"
    );
    assert!(text.contains("B jj"), "{text}");
    // --limit lists fewer, counts all.
    let out = ok(sgf(
        &dir.0,
        &["find", "idx", "--moves", "pd dd pq dp", "--limit", "1"],
    ));
    assert!(
        stdout(&out).contains("… 1 more (--limit)"),
        "{}",
        stdout(&out)
    );
    // The 9×9 game by --size.
    let out = ok(sgf(
        &dir.0,
        &[
            "find", "idx", "--moves", "ee", "--size", "9", "--format", "json",
        ],
    ));
    assert_eq!(json(&out)["games"], 1);
}

#[test]
fn index_find_position_of_a_file() {
    let dir = TempDir::new("index-cli-pos");
    write_games(&dir);
    ok(sgf(&dir.0, &["index", "build", "a", "--out", "idx", "-q"]));
    // two.sgf after 4 moves: both games; at its end (default): only it.
    let out = ok(sgf(
        &dir.0,
        &[
            "find",
            "idx",
            "--position",
            "a/two.sgf:4",
            "--format",
            "json",
        ],
    ));
    let found = json(&out);
    assert_eq!(found["games"], 2);
    // In two.sgf's orientation, one.sgf's B[qk] is turned.
    let moves: Vec<&str> = found["continuations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["move"].as_str().unwrap())
        .collect();
    assert!(moves.contains(&"B jj"), "{moves:?}");
    assert!(moves.contains(&"B iq"), "{moves:?}"); // qk turned a quarter
    let out = ok(sgf(
        &dir.0,
        &["find", "idx", "--position", "a/two.sgf", "--format", "json"],
    ));
    assert_eq!(json(&out)["games"], 1);
    // A node path: after the first three moves.
    let out = ok(sgf(
        &dir.0,
        &[
            "find",
            "idx",
            "--position",
            "a/two.sgf:0.0.0",
            "--format",
            "json",
        ],
    ));
    assert_eq!(json(&out)["found"][0]["move"], 3);
    // The second game of the file, after its first move.
    let out = ok(sgf(
        &dir.0,
        &[
            "find",
            "idx",
            "--position",
            "a/two.sgf:1",
            "--game",
            "1",
            "--format",
            "json",
        ],
    ));
    assert_eq!(json(&out)["found"][0]["black"], "Ed");
    // A node that is not there: exit status 1.
    let out = sgf(&dir.0, &["find", "idx", "--position", "a/two.sgf:40"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("not 40"), "{}", stderr(&out));
    // No index: exit status 2.
    let out = sgf(&dir.0, &["find", "nothing", "--moves", "pd"]);
    assert_eq!(out.status.code(), Some(2));
    // Neither --moves nor --position: a usage error.
    let out = sgf(&dir.0, &["find", "idx"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn index_add_is_incremental_and_adds_nothing_twice() {
    let dir = TempDir::new("index-cli-add");
    write_games(&dir);
    ok(sgf(
        &dir.0,
        &["index", "build", "a/one.sgf", "--out", "idx", "-q"],
    ));
    let out = ok(sgf(&dir.0, &["index", "add", "idx", "a"]));
    assert!(
        stderr(&out).contains("index: 2 games added (1 already there)"),
        "{}",
        stderr(&out)
    );
    // The same files named from elsewhere are the same games.
    let sub = dir.0.join("a");
    let out = ok(sgf(&sub, &["index", "add", "../idx", "."]));
    assert!(
        stderr(&out).contains("index: 0 games added (3 already there)"),
        "{}",
        stderr(&out)
    );
    let info = stdout(&ok(sgf(&dir.0, &["index", "info", "idx"])));
    assert!(info.contains("games: 3\n"), "{info}");
    assert!(info.contains("runs: 2\n"), "{info}");
    // Answers as one build of everything.
    ok(sgf(&dir.0, &["index", "build", "a", "--out", "full", "-q"]));
    for (moves, size) in [("", "19"), ("pd dd pq dp", "19"), ("ee", "9"), ("", "9")] {
        {
            let args = [
                "--moves", moves, "--size", size, "--format", "json", "--limit", "0",
            ];
            let a = stdout(&ok(sgf(&dir.0, &[&["find", "idx"][..], &args].concat())));
            let b = stdout(&ok(sgf(&dir.0, &[&["find", "full"][..], &args].concat())));
            let (a, b): (Json, Json) = (
                serde_json::from_str(&a).unwrap(),
                serde_json::from_str(&b).unwrap(),
            );
            assert_eq!(a["games"], b["games"], "{moves}");
            assert_eq!(a["continuations"], b["continuations"], "{moves}");
        }
    }
    ok(sgf(&dir.0, &["index", "compact", "idx"]));
    let info = stdout(&ok(sgf(&dir.0, &["index", "info", "idx"])));
    assert!(info.contains("runs: 1\n"), "{info}");
}
