//! `sgf index build|add|compact|info|verify` and `sgf find`, run as a
//! child process on games written to a temporary folder: answers, damage
//! (exit status 2, never a count), concurrent writers, killed writers.

#![cfg(feature = "cli")]

use crate::common::TempDir;
use crate::index_damage::generated_games;
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

/// Writes `games` as files of 10 games each under `folder`.
fn write_generated(dir: &TempDir, folder: &str, games: &[String]) {
    for (i, chunk) in games.chunks(10).enumerate() {
        dir.write(&format!("{folder}/f{i:03}.sgf"), chunk.concat());
    }
}

/// Games found by `find INDEX --moves pd` (exit status 0 required).
fn games_at_pd(dir: &Path, index: &str) -> u64 {
    let out = ok(sgf(
        dir,
        &["find", index, "--moves", "pd", "--format", "json"],
    ));
    json(&out)["games"].as_u64().unwrap()
}

fn index_games(dir: &Path, index: &str) -> u64 {
    let info = stdout(&ok(sgf(dir, &["index", "info", index])));
    info.lines()
        .find_map(|l| l.strip_prefix("games: "))
        .unwrap()
        .replace(',', "")
        .parse()
        .unwrap()
}

#[test]
fn index_cli_damage_is_exit_2_never_a_count() {
    let dir = TempDir::new("index-cli-damage");
    write_generated(&dir, "g", &generated_games(11, 300));
    ok(sgf(&dir.0, &["index", "build", "g", "--out", "idx", "-q"]));
    let right = games_at_pd(&dir.0, "idx");
    assert!(right > 100, "{right}");
    let verified = stdout(&ok(sgf(&dir.0, &["index", "verify", "idx"])));
    assert!(
        verified.contains("games: 300\n") && verified.ends_with("sound\n"),
        "{verified}"
    );
    let run = dir.0.join("idx/run-000001.pos");
    let saved = std::fs::read(&run).unwrap();
    let info = stdout(&ok(sgf(&dir.0, &["index", "info", "idx"])));
    let rows: usize = info
        .lines()
        .find_map(|l| l.strip_prefix("positions: "))
        .unwrap()
        .replace(',', "")
        .parse()
        .unwrap();
    let mut zeroed = saved.clone();
    zeroed[32..32 + 16 * rows].fill(0);
    std::fs::write(&run, &zeroed).unwrap();
    let out = sgf(&dir.0, &["find", "idx", "--moves", "pd"]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("run-000001.pos block "),
        "{}",
        stderr(&out)
    );
    let out = sgf(&dir.0, &["index", "verify", "idx"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).contains("damaged"), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("run-000001.pos block 3"),
        "{}",
        stderr(&out)
    );
    // An add writes new runs and leaves the damaged one as it is: the
    // index still answers with an error, not a count.
    write_generated(&dir, "h", &generated_games(12, 10));
    ok(sgf(&dir.0, &["index", "add", "idx", "h", "-q"]));
    let out = sgf(&dir.0, &["find", "idx", "--moves", "pd"]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    std::fs::write(&run, &saved).unwrap();
    // A run listed twice in the manifest.
    let manifest = dir.0.join("idx/manifest");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let line = text.lines().find(|l| l.starts_with("run ")).unwrap();
    std::fs::write(&manifest, text.replace(line, &format!("{line}\n{line}"))).unwrap();
    let out = sgf(&dir.0, &["find", "idx", "--moves", "pd"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("manifest"), "{}", stderr(&out));
    std::fs::write(&manifest, &text).unwrap();
    let fresh = TempDir::new("index-cli-damage-fresh");
    write_generated(&fresh, "g", &generated_games(11, 300));
    write_generated(&fresh, "h", &generated_games(12, 10));
    ok(sgf(
        &fresh.0,
        &["index", "build", "g", "h", "--out", "idx", "-q"],
    ));
    assert_eq!(games_at_pd(&dir.0, "idx"), games_at_pd(&fresh.0, "idx"));
    assert!(games_at_pd(&dir.0, "idx") >= right);
}

#[test]
fn index_cli_concurrent_adds_lose_nothing() {
    let dir = TempDir::new("index-cli-concurrent");
    write_generated(&dir, "base", &generated_games(21, 10));
    write_generated(&dir, "a", &generated_games(22, 400));
    write_generated(&dir, "b", &generated_games(23, 400));
    for (wait, index) in [(false, "idx"), (true, "idx-wait")] {
        ok(sgf(
            &dir.0,
            &["index", "build", "base", "--out", index, "-q"],
        ));
        let spawn = |folder: &str| {
            let mut args = vec!["index", "add", index, folder, "-q"];
            if wait {
                args.push("--wait");
            }
            Command::new(env!("CARGO_BIN_EXE_sgf"))
                .args(&args)
                .current_dir(&dir.0)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("run sgf")
        };
        let (a, b) = (spawn("a"), spawn("b"));
        let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
        let mut expected = 10;
        for out in [&a, &b] {
            match out.status.code() {
                Some(0) => expected += 400,
                Some(2) if !wait => assert!(
                    stderr(out).contains("another writer is updating this index"),
                    "{}",
                    stderr(out)
                ),
                code => panic!("exit status {code:?}: {}", stderr(out)),
            }
        }
        assert!(expected > 10);
        if wait {
            assert_eq!(expected, 810);
        }
        assert_eq!(index_games(&dir.0, index), expected, "{index}");
        ok(sgf(&dir.0, &["index", "verify", index]));
        // What was refused is added afterwards, nothing twice.
        ok(sgf(&dir.0, &["index", "add", index, "a", "b", "-q"]));
        assert_eq!(index_games(&dir.0, index), 810);
    }
    assert_eq!(games_at_pd(&dir.0, "idx"), games_at_pd(&dir.0, "idx-wait"));
}

/// Copies the files of index folder `from` to `to`.
fn copy_index(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
    }
}

#[test]
fn index_cli_killed_adds_leave_the_old_or_the_new_index() {
    let dir = TempDir::new("index-cli-killed");
    write_generated(&dir, "base", &generated_games(31, 100));
    write_generated(&dir, "more", &generated_games(32, 300));
    ok(sgf(
        &dir.0,
        &["index", "build", "base", "--out", "old", "-q"],
    ));
    ok(sgf(
        &dir.0,
        &["index", "build", "base", "more", "--out", "new", "-q"],
    ));
    let (old, new) = (games_at_pd(&dir.0, "old"), games_at_pd(&dir.0, "new"));
    assert!(new > old);
    let mut outcomes = (0, 0);
    for (n, delay) in [0u64, 5, 10, 20, 40, 70, 100, 150, 250, 400, 700, 1200]
        .into_iter()
        .enumerate()
    {
        let index = format!("k{n}");
        copy_index(&dir.0.join("old"), &dir.0.join(&index));
        let mut child = Command::new(env!("CARGO_BIN_EXE_sgf"))
            .args(["index", "add", &index, "more", "-q"])
            .current_dir(&dir.0)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("run sgf");
        std::thread::sleep(std::time::Duration::from_millis(delay));
        let _ = child.kill();
        child.wait().unwrap();
        let out = sgf(&dir.0, &["index", "verify", &index]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "killed after {delay} ms: {}",
            stderr(&out)
        );
        let found = games_at_pd(&dir.0, &index);
        assert!(
            found == old || found == new,
            "killed after {delay} ms: {found}"
        );
        if found == old {
            outcomes.0 += 1;
            assert_eq!(index_games(&dir.0, &index), 100);
        } else {
            outcomes.1 += 1;
            assert_eq!(index_games(&dir.0, &index), 400);
        }
        // The next writer finds a consistent index and completes it.
        ok(sgf(&dir.0, &["index", "add", &index, "more", "-q"]));
        assert_eq!(games_at_pd(&dir.0, &index), new, "after {delay} ms");
        let verified = stdout(&ok(sgf(&dir.0, &["index", "verify", &index])));
        assert!(!verified.contains("not part of the index"), "{verified}");
    }
    println!(
        "killed adds: {} left the old index, {} the new",
        outcomes.0, outcomes.1
    );
    assert!(outcomes.0 > 0, "no add was killed before it committed");
}
