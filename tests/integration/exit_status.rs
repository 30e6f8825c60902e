//! Exit statuses and the reports of what was left out: a path that cannot
//! be read, a closed standard output, failures counted by reason, values a
//! writer drops, games a transform cannot transform.

use crate::common::{sgf, stderr, TempDir};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

/// A path that does not exist is named on standard error and gives status
/// 2 in every command that reads inputs, whatever else was read.
#[test]
fn a_missing_path_is_named_and_gives_status_2_everywhere() {
    let dir = TempDir::new("exit-missing");
    dir.write("ok.sgf", "(;GM[1]SZ[9];B[aa])");
    let commands: [&[&str]; 12] = [
        &["stats", "-q"],
        &["check", "-q"],
        &["select", "-q"],
        &["export", "-q", "--format", "jsonl"],
        &["dedup", "-q"],
        &["fmt"],
        &["strip", "--props", "C"],
        &["transform", "--flip"],
        &["fix", "--all", "--dry-run"],
        &["dump"],
        &["board"],
        &["split", "-q", "--out", "parts"],
    ];
    for command in commands {
        let mut args = command.to_vec();
        args.push("missing.sgf");
        let single = matches!(command[0], "dump" | "board");
        if !single {
            args.push("ok.sgf");
        }
        let out = sgf(&dir.0, &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("sgf: cannot read missing.sgf: "),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    // `stats` still counts what it could read.
    let out = sgf(&dir.0, &["stats", "missing.sgf", "ok.sgf"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines()
            .any(|l| l.split_whitespace().eq(["games", "1"])),
        "{text}"
    );
}

/// `sgf check … | head`: the output closed early stops the command
/// quietly, with the status of what it had found (a failed file: 1).
#[test]
fn a_closed_output_keeps_the_status_of_what_was_found() {
    let dir = TempDir::new("exit-pipe");
    dir.write("games/a.sgf", b"\x7fELF not a game");
    for k in 0..3000 {
        // Each file has a warning, so that check writes a line for each.
        dir.write(&format!("games/b{k:04}.sgf"), "(;GM[1]B[aa]B[bb])");
    }
    for (args, expected) in [
        (&["check", "games"][..], 1),
        (&["check", "games/b0000.sgf", "games"][..], 1),
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sgf"))
            .args(args)
            .current_dir(&dir.0)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        // The reader is dropped: the pipe is closed.
        let status = child.wait().unwrap();
        assert_eq!(
            status.code(),
            Some(expected),
            "{args:?}: first line {first:?}"
        );
    }
    // With nothing failed, a closed output is a success.
    dir.write("clean/a.sgf", b"(;GM[1]B[aa]B[bb])");
    for k in 0..3000 {
        dir.write(&format!("clean/b{k:04}.sgf"), "(;GM[1]B[aa]B[bb])");
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_sgf"))
        .args(["check", "clean"])
        .current_dir(&dir.0)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(0));
}

/// The scanning commands end with failures counted by reason.
#[test]
fn summaries_count_failures_by_reason() {
    let dir = TempDir::new("exit-reasons");
    dir.write("a.sgf", "(;GM[1]SZ[9];B[aa])");
    dir.write("b.sgf", b"\x7fELF one");
    dir.write("c.sgf", b"\x7fELF two");
    dir.write("d.sgf", "no game here at all");
    let out = sgf(&dir.0, &["select", "a.sgf", "b.sgf", "c.sgf", "d.sgf"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(
            "; 3 of 4 inputs failed (not_sgf_text 2, no_game_tree 1); over --max-failures 0"
        ),
        "{err}"
    );
}

/// `fmt --canonical` keeps one value of a single-valued property: texts
/// joined, the rest named on standard error with their position.
#[test]
fn canonical_fmt_reports_every_value_it_drops() {
    let dir = TempDir::new("exit-dropped");
    dir.write("a.sgf", "(;GM[1]PW[a][b]KM[6.5][7]\nC[x][y];B[aa][bb])");
    let out = sgf(&dir.0, &["fmt", "--canonical", "a.sgf"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "(;GM[1]FF[4]PW[a\nb]KM[6.5]C[x\ny];B[aa])\n"
    );
    let err = stderr(&out);
    assert!(
        err.contains("a.sgf:1:24: warning[value_dropped]: KM[7] left out"),
        "{err}"
    );
    assert!(
        err.contains("a.sgf:2:15: warning[value_dropped]: B[bb] left out"),
        "{err}"
    );
}
