//! One input pipeline for every command that reads SGF: `fmt`, `strip`,
//! `transform`, `fix`, `dump` and `board` read folders, archives,
//! compressed files, `.sgfs` and standard input as `check` does, write to
//! standard output, `--out DIR` (mirroring the inputs) or `--in-place`,
//! and share `-j`, `-q`, `--max-messages` and `--max-failures`.

#![cfg(feature = "cli")]

use crate::common::{gzip, sgf, stderr, stdout, tar, zip, TempDir};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Two games, the first with a repeated property (a warning, merged by
/// every writer; `single-value` repairs it) and a comment.
const GAMES: &str = "(;GM[1]SZ[19]C[x]C[y];B[pd];W[dp])\n(;GM[1]SZ[19]PB[a];B[dd]C[hi])\n";

/// The commands under test, with their options.
const COMMANDS: [&[&str]; 6] = [
    &["fmt"],
    &["strip", "--props", "C"],
    &["transform", "--rotate", "90"],
    &["fix", "--repair", "single-value"],
    &["dump"],
    &["board", "--game", "1"],
];

/// A tar archive of `(name, bytes)` entries, gzip-compressed.
fn tar_gz(entries: &[(&str, &[u8])]) -> Vec<u8> {
    gzip(&tar(entries))
}

/// Runs `sgf args…` in `dir` with `input` on standard input.
fn sgf_stdin(dir: &Path, args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sgf"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sgf");
    let mut stdin = child.stdin.take().unwrap();
    // The command may stop reading early; a closed pipe is no failure here.
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().unwrap()
}

/// `GAMES` as a folder, a tar.gz member, a zip member, a gzip file and an
/// `.sgfs` file (one game per line), beside the plain file `plain.sgf`.
fn inputs(dir: &TempDir) {
    dir.write("plain.sgf", GAMES);
    dir.write("folder/sub/g.sgf", GAMES);
    dir.write(
        "t.tar.gz",
        tar_gz(&[("x/y.sgf", GAMES.as_bytes()), ("notes.txt", b"not a game")]),
    );
    dir.write("z.zip", zip(&[("w.sgf", GAMES.as_bytes())]));
    dir.write("g.sgf.gz", gzip(GAMES.as_bytes()));
    dir.write("l.sgfs", GAMES);
}

/// Standard output with the input's name replaced by `NAME`, so that the
/// diagnostics of two inputs holding the same games compare.
fn named(out: &Output, name: &str) -> (String, String) {
    (
        stdout(out).replace(name, "NAME"),
        stderr(out).replace(name, "NAME"),
    )
}

#[test]
fn every_reading_command_takes_folders_archives_gz_sgfs_and_stdin() {
    let dir = TempDir::new("inputs-kinds");
    inputs(&dir);
    for command in COMMANDS {
        let run = |path: &str| {
            let mut args = command.to_vec();
            args.push(path);
            sgf(&dir.0, &args)
        };
        let plain = run("plain.sgf");
        assert_eq!(
            plain.status.code(),
            Some(0),
            "{command:?}: {}",
            stderr(&plain)
        );
        let (want, want_err) = named(&plain, "plain.sgf");
        assert!(!want.is_empty(), "{command:?} printed nothing");
        for (path, name) in [
            ("folder", "folder/sub/g.sgf"),
            ("t.tar.gz", "t.tar.gz!x/y.sgf"),
            ("z.zip", "z.zip!w.sgf"),
            ("g.sgf.gz", "g.sgf.gz"),
            ("l.sgfs", "l.sgfs"),
        ] {
            let out = run(path);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{command:?} {path}: {}",
                stderr(&out)
            );
            let (got, got_err) = named(&out, name);
            assert_eq!(got, want, "{command:?} {path}");
            if path != "l.sgfs" {
                // Positions in an .sgfs file are those of its lines.
                assert_eq!(got_err, want_err, "{command:?} {path}");
            }
        }
        let mut args = command.to_vec();
        args.push("-");
        let out = sgf_stdin(&dir.0, &args, GAMES.as_bytes());
        assert_eq!(
            out.status.code(),
            Some(0),
            "{command:?} -: {}",
            stderr(&out)
        );
        assert_eq!(named(&out, "<stdin>").0, want, "{command:?} -");
        // Compressed on standard input too.
        let out = sgf_stdin(&dir.0, &args, &gzip(GAMES.as_bytes()));
        assert_eq!(named(&out, "<stdin>").0, want, "{command:?} - (gzip)");
    }
}

#[test]
fn fmt_of_every_kind_writes_the_games_as_read() {
    let dir = TempDir::new("inputs-fmt");
    inputs(&dir);
    let out = sgf(&dir.0, &["fmt", "folder", "t.tar.gz", "g.sgf.gz"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let game = "(;GM[1]SZ[19]C[x][y];B[pd];W[dp])\n(;GM[1]SZ[19]PB[a];B[dd]C[hi])\n";
    assert_eq!(stdout(&out), game.repeat(3));
    // Each warning names its input.
    for name in ["folder/sub/g.sgf", "t.tar.gz!x/y.sgf", "g.sgf.gz"] {
        assert!(
            stderr(&out).contains(&format!("{name}:1:18: warning[repeated_property]")),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn board_counts_games_over_all_the_inputs() {
    let dir = TempDir::new("inputs-board");
    dir.write("a.sgf", "(;GM[1]SZ[9];B[aa])\n(;GM[1]SZ[9];B[bb])\n");
    dir.write("b.sgf", "(;GM[1]SZ[9];B[cc])\n");
    let json = |game: &str| {
        let out = sgf(
            &dir.0,
            &[
                "board", "--format", "json", "--game", game, "a.sgf", "b.sgf",
            ],
        );
        (out.status.code(), stdout(&out), stderr(&out))
    };
    assert!(json("0").1.contains("\"black\":[[0,0]]"), "{:?}", json("0"));
    assert!(json("1").1.contains("\"black\":[[1,1]]"), "{:?}", json("1"));
    assert!(json("2").1.contains("\"black\":[[2,2]]"), "{:?}", json("2"));
    let (code, out, err) = json("3");
    assert_eq!(code, Some(1));
    assert_eq!(out, "");
    assert!(
        err.contains("no game 3 in the inputs (they hold 3 games)"),
        "{err}"
    );
}

#[test]
fn out_dir_mirrors_folders_members_compressed_files_and_stdin() {
    let dir = TempDir::new("inputs-out");
    inputs(&dir);
    let out = sgf_stdin(
        &dir.0,
        &[
            "fmt", "folder", "t.tar.gz", "z.zip", "g.sgf.gz", "l.sgfs", "-", "--out", "o",
        ],
        b"(;GM[1]C[from stdin])",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    let game = "(;GM[1]SZ[19]C[x][y];B[pd];W[dp])\n(;GM[1]SZ[19]PB[a];B[dd]C[hi])\n";
    let o = dir.0.join("o");
    for file in [
        "sub/g.sgf",
        "t.tar.gz/x/y.sgf",
        "z.zip/w.sgf",
        "g.sgf",
        "l.sgfs",
    ] {
        assert_eq!(
            std::fs::read_to_string(o.join(file)).unwrap_or_default(),
            game,
            "{file}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(o.join("stdin.sgf")).unwrap(),
        "(;GM[1]C[from stdin])\n"
    );
    // Nothing else: no temporary file left, the archive's text file not
    // copied.
    let mut all = crate::common::sgf_files(&o);
    all.retain(|p| !p.ends_with("stdin.sgf"));
    assert_eq!(all.len(), 4, "{all:?}");
    // A second run replaces the files with the same bytes.
    let again = sgf(&dir.0, &["fmt", "t.tar.gz", "--out", "o"]);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert_eq!(
        std::fs::read_to_string(o.join("t.tar.gz/x/y.sgf")).unwrap(),
        game
    );
}

#[test]
fn out_dir_inside_an_input_folder_is_refused() {
    let dir = TempDir::new("inputs-out-inside");
    dir.write("games/a.sgf", "(;GM[1])");
    let out = sgf(&dir.0, &["fmt", "games", "--out", "games/fmt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--out games/fmt is inside the input folder games"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.0.join("games/fmt").exists());
    // The input file itself as the target: refused, the file as it was.
    dir.write("b.sgf", "(;GM[1]C[a]C[b])");
    let out = sgf(&dir.0, &["fmt", "b.sgf", "--out", "."]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("error[output_is_input]"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read_to_string(dir.0.join("b.sgf")).unwrap(),
        "(;GM[1]C[a]C[b])"
    );
}

#[test]
fn in_place_refuses_archives_and_stdin_before_writing_anything() {
    let dir = TempDir::new("inputs-in-place");
    let before = "(;GM[1]C[a]C[b])";
    dir.write("a.sgf", before);
    dir.write("t.tar.gz", tar_gz(&[("x.sgf", before.as_bytes())]));
    dir.write("d/b.sgf", before);
    dir.write("d/c.zip", zip(&[("y.sgf", before.as_bytes())]));
    for command in [
        &["fmt"][..],
        &["strip", "--props", "C"],
        &["transform", "--flip"],
        &["fix", "--all"],
    ] {
        for (paths, named) in [
            (&["a.sgf", "t.tar.gz"][..], "t.tar.gz"),
            (&["d"][..], "d/c.zip"),
            (&["a.sgf", "-"][..], "standard input"),
        ] {
            let mut args = command.to_vec();
            args.push("--in-place");
            args.extend_from_slice(paths);
            let out = sgf(&dir.0, &args);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
            assert!(stderr(&out).contains(named), "{args:?}: {}", stderr(&out));
            assert_eq!(
                std::fs::read_to_string(dir.0.join("a.sgf")).unwrap(),
                before
            );
            assert_eq!(
                std::fs::read_to_string(dir.0.join("d/b.sgf")).unwrap(),
                before
            );
        }
    }
    // Plain files alone are rewritten.
    let out = sgf(&dir.0, &["fmt", "--in-place", "a.sgf", "d/b.sgf"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(dir.0.join("a.sgf")).unwrap(),
        "(;GM[1]C[a][b])\n"
    );
}

/// Ten inputs, one of them not SGF.
fn one_bad_of_ten(dir: &TempDir) {
    for i in 0..9 {
        dir.write(
            &format!("in/{i}.sgf"),
            format!("(;GM[1]SZ[9];B[{}a])", (b'a' + i) as char),
        );
    }
    dir.write("in/9.sgf", "no game here");
}

#[test]
fn max_failures_accepts_a_count_or_a_share_of_the_inputs() {
    let dir = TempDir::new("inputs-max-failures");
    one_bad_of_ten(&dir);
    for command in [
        &["fmt"][..],
        &["strip", "--props", "C"],
        &["transform", "--flip"],
        &["fix", "--all"],
        &["dump"],
        &["check"],
    ] {
        for (limit, code, verdict) in [
            ("1", 0, "within --max-failures 1"),
            ("10%", 0, "within --max-failures 10%"),
            ("0", 1, "over --max-failures 0"),
            ("5%", 1, "over --max-failures 5%"),
        ] {
            let mut args = command.to_vec();
            args.extend_from_slice(&["--max-failures", limit, "in"]);
            let out = sgf(&dir.0, &args);
            assert_eq!(out.status.code(), Some(code), "{args:?}: {}", stderr(&out));
            let err = stderr(&out) + &stdout(&out);
            assert!(
                err.contains(&format!(
                    "1 of 10 inputs failed (no_game_tree 1); {verdict}"
                )),
                "{args:?}: {err}"
            );
        }
    }
    // The default accepts none; a run without failures says nothing.
    let out = sgf(&dir.0, &["fmt", "in/0.sgf", "in/1.sgf"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(!stderr(&out).contains("failed"), "{}", stderr(&out));
    let out = sgf(&dir.0, &["fmt", "--max-failures", "x", "in"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn dump_closes_its_array_only_within_max_failures() {
    let dir = TempDir::new("inputs-dump-failures");
    one_bad_of_ten(&dir);
    let within = sgf(&dir.0, &["dump", "--max-failures", "1", "in"]);
    let text = stdout(&within);
    assert!(text.starts_with("[[[{") && text.ends_with("]\n"), "{text}");
    let over = sgf(&dir.0, &["dump", "in"]);
    assert_eq!(over.status.code(), Some(1));
    assert_eq!(stdout(&over), text.strip_suffix("]\n").unwrap());
}

#[test]
fn max_messages_prints_n_lines_then_how_many_more_by_kind() {
    let dir = TempDir::new("inputs-max-messages");
    // Five repeated properties (warnings), then a file that is no game.
    dir.write(
        "a.sgf",
        "(;GM[1]C[1]C[2];C[3]C[4];C[5]C[6];C[7]C[8];C[9]C[0])",
    );
    dir.write("b.sgf", "nothing");
    for command in [
        &["fmt"][..],
        &["strip", "--props", "GM"],
        &["fix", "--all"],
        &["dump"],
    ] {
        let mut args = command.to_vec();
        args.extend_from_slice(&["--max-messages", "3", "a.sgf", "b.sgf"]);
        let out = sgf(&dir.0, &args);
        let err = stderr(&out);
        let diagnostics: Vec<&str> = err
            .lines()
            .filter(|l| l.contains(": warning[") || l.contains(": error["))
            .collect();
        assert_eq!(diagnostics.len(), 3, "{args:?}: {err}");
        assert!(
            err.contains(
                "sgf: 3 more messages not printed (over --max-messages 3): repeated_property 2, no_game_tree 1"
            ),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn jobs_do_not_change_the_output() {
    let dir = TempDir::new("inputs-jobs");
    for i in 0..60 {
        let moves: String = (0..(i % 7) + 1)
            .map(|m| {
                format!(
                    ";B[{}{}]C[c]C[d]",
                    (b'a' + m as u8) as char,
                    (b'a' + (i % 19) as u8) as char
                )
            })
            .collect();
        dir.write(
            &format!("in/{:02}.sgf", i),
            format!("(;GM[1]SZ[19]{moves})"),
        );
    }
    dir.write("in/zz.sgf", "junk");
    dir.write(
        "big.tar.gz",
        tar_gz(&[("a.sgf", GAMES.repeat(500).as_bytes())]),
    );
    for command in COMMANDS {
        let run = |jobs: &str| {
            let mut args = command.to_vec();
            args.extend_from_slice(&["-j", jobs, "--max-failures", "1", "in", "big.tar.gz"]);
            sgf(&dir.0, &args)
        };
        let (one, two) = (run("1"), run("2"));
        assert_eq!(one.status.code(), two.status.code(), "{command:?}");
        assert!(!one.stdout.is_empty(), "{command:?}");
        assert_eq!(stdout(&one), stdout(&two), "{command:?}");
        assert_eq!(stderr(&one), stderr(&two), "{command:?}");
    }
}

#[test]
fn fix_quiet_prints_the_summary_only() {
    let dir = TempDir::new("inputs-fix-quiet");
    dir.write("a.sgf", "(;GM[1]SZ[19:19]C[a]C[b])");
    let loud = sgf(&dir.0, &["fix", "--all", "a.sgf"]);
    assert!(stderr(&loud).contains("a.sgf:1:"), "{}", stderr(&loud));
    let quiet = sgf(&dir.0, &["fix", "--all", "-q", "a.sgf"]);
    assert_eq!(quiet.status.code(), Some(0));
    assert_eq!(stdout(&quiet), stdout(&loud));
    let err = stderr(&quiet);
    assert!(
        err.starts_with("fix: 1 files, 1 games, 1 files changed\n"),
        "{err}"
    );
    assert!(!err.contains("a.sgf"), "{err}");
    // Errors are still printed.
    dir.write("b.sgf", "nothing");
    let quiet = sgf(&dir.0, &["fix", "--all", "-q", "a.sgf", "b.sgf"]);
    assert_eq!(quiet.status.code(), Some(1));
    assert!(
        stderr(&quiet).contains("b.sgf:1:8: error[no_game_tree]"),
        "{}",
        stderr(&quiet)
    );
}

#[test]
fn check_takes_a_shard_like_the_other_commands() {
    let dir = TempDir::new("inputs-check-shard");
    for i in 0..5 {
        dir.write(&format!("in/{i}.sgf"), "(;GM[1])");
    }
    let paths = |shard: &str| -> Vec<String> {
        let out = sgf(
            &dir.0,
            &["check", "--format", "json", "--shard", shard, "in"],
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stdout(&out)
            .lines()
            .filter_map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                v["path"].as_str().map(String::from)
            })
            .collect()
    };
    let (a, b) = (paths("0/2"), paths("1/2"));
    assert!(!a.is_empty() && !b.is_empty(), "{a:?} {b:?}");
    let mut all: Vec<String> = a.iter().chain(&b).cloned().collect();
    all.sort();
    let want: Vec<String> = (0..5).map(|i| format!("in/{i}.sgf")).collect();
    assert_eq!(all, want);
}

/// `fmt`, `dump` and `fix` hold a few games per thread, whatever the input's
/// size: a gzip file of some 450 MB of games (the same chunk of 4,000
/// games compressed once and written 100 times, as gzip members joined),
/// read on two threads, the peak resident memory read from `/proc`.
#[cfg(target_os = "linux")]
#[test]
fn writing_commands_of_a_large_gz_stay_in_bounded_memory() {
    use crate::big_input::{chunk, gzip_member, run_watched, MAX_PEAK_KIB};
    let dir = TempDir::new("inputs-big");
    let chunk = chunk();
    let packed = gzip_member(&chunk);
    let mut file = std::fs::File::create(dir.0.join("big.sgf.gz")).unwrap();
    for _ in 0..100 {
        file.write_all(&packed).unwrap();
    }
    drop(file);
    let games = 100 * chunk.iter().filter(|&&b| b == b'\n').count();
    for args in [
        &["fmt", "-q", "-j", "2", "big.sgf.gz"][..],
        &["fix", "-q", "--all", "-j", "2", "big.sgf.gz"],
        &["dump", "-q", "-j", "2", "big.sgf.gz"],
    ] {
        let run = run_watched(&dir.0, args);
        eprintln!("{args:?}: peak {} KiB", run.peak_kib);
        assert!(
            run.peak_kib < MAX_PEAK_KIB,
            "{args:?}: peak {} KiB",
            run.peak_kib
        );
        if args[0] == "dump" {
            // One array on one line.
            assert_eq!(run.lines, 1, "{args:?}");
        } else {
            assert_eq!(run.lines, games, "{args:?}");
        }
    }
}

/// The last `progress:` line of `out`'s standard error.
fn last_progress(out: &Output) -> String {
    stderr(out)
        .lines()
        .rfind(|l| l.starts_with("progress: "))
        .unwrap_or_else(|| panic!("no progress line in {:?}", stderr(out)))
        .to_owned()
}

#[test]
fn progress_prints_lines_off_a_terminal_on_every_reading_command() {
    let dir = TempDir::new("progress-lines");
    dir.write("in/a.sgf", GAMES);
    dir.write("in/b.sgf", "(;GM[1];B[aa])");
    dir.write("in/c.sgf", "(;GM[1];B[aa]");
    dir.write("in/d.sgf", "not SGF at all, and no game in it\n");
    let commands: [&[&str]; 9] = [
        &["fmt"],
        &["strip", "--props", "C"],
        &["check"],
        &["stats"],
        &["select"],
        &["dedup"],
        &["export", "--format", "csv", "--out", "t.csv"],
        &["split", "--out", "pieces"],
        &["index", "build", "--out", "ix"],
    ];
    for command in commands {
        let mut args = command.to_vec();
        args.extend(["--progress", "--max-failures", "100%", "in"]);
        let out = sgf(&dir.0, &args);
        assert!(out.status.success(), "{command:?}: {}", stderr(&out));
        let line = last_progress(&out);
        // The truncated file's first game is handed on (read leniently);
        // d.sgf fails.
        assert!(
            line.starts_with("progress: 4 inputs, ") && line.contains(", 1 failed, "),
            "{command:?}: {line}"
        );
    }
    // Without --progress (standard error is not a terminal): no line.
    let out = sgf(&dir.0, &["stats", "--max-failures", "1", "in"]);
    assert!(!stderr(&out).contains("progress: "), "{}", stderr(&out));
    // fmt counts games and bytes of output.
    let out = sgf(&dir.0, &["fmt", "--progress", "in/a.sgf"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let line = last_progress(&out);
    let bytes = out.stdout.len();
    assert!(
        line.starts_with(&format!(
            "progress: 1 inputs, 2 games, {bytes} bytes, 0 failed, "
        )),
        "{line}"
    );
}

#[test]
fn progress_and_quiet_together_are_refused() {
    let dir = TempDir::new("progress-quiet");
    dir.write("a.sgf", GAMES);
    for command in [&["fmt"][..], &["stats"], &["check"], &["select"]] {
        let mut args = command.to_vec();
        args.extend(["-q", "--progress", "a.sgf"]);
        let out = sgf(&dir.0, &args);
        assert_eq!(out.status.code(), Some(2), "{command:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("cannot be used with"),
            "{}",
            stderr(&out)
        );
    }
}

/// `check`'s output without what depends on time: the text summary's
/// `time:` line, the JSON summary's seconds.
fn timeless(out: &Output) -> String {
    stdout(out)
        .lines()
        .filter(|l| !l.starts_with("time:"))
        .map(|l| match serde_json::from_str::<serde_json::Value>(l) {
            Ok(mut v) if v.get("summary").is_some() => {
                let summary = v["summary"].as_object_mut().unwrap();
                summary.remove("seconds");
                summary.remove("value_seconds");
                v.to_string()
            }
            _ => l.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn check_output_is_the_same_whatever_jobs() {
    let dir = TempDir::new("check-jobs");
    for i in 0..80 {
        let text = match i % 4 {
            0 => format!("(;GM[1]C[a]C[b]PB[p{i}];B[pd];W[xx])"),
            1 => format!("(;GM[1]SZ[19]PB[p{i}];B[pd];W[dp])(;GM[1];B[aa])"),
            2 => format!("(;GM[1]DT[not a date {i}];B[zz]"),
            _ => format!("(;GM[1]PB[p{i}];B[dd])\n"),
        };
        dir.write(&format!("in/{:02}/{i:03}.sgf", i % 7), text);
    }
    dir.write("in/bin.sgf", b"\x7fELF and more");
    dir.write("in/z.sgf.gz", gzip(b"(;GM[1]C[x]C[y];B[aa])"));
    // An archive of more members than a worker takes of one source.
    let names: Vec<String> = (0..300).map(|i| format!("m{i:03}.sgf")).collect();
    let members: Vec<(&str, &[u8])> = names
        .iter()
        .map(|n| (n.as_str(), &b"(;GM[1]C[a]C[b];B[aa])"[..]))
        .collect();
    dir.write("in/many.tar.gz", tar_gz(&members));
    // A file too large to be read whole by a worker.
    let big: String = (0..200_000)
        .map(|i| format!("(;GM[1]PB[p{i}]C[a]C[b];B[pd];W[dp];B[qq])\n"))
        .collect();
    assert!(big.len() > 8 << 20);
    dir.write("in/zz-big.sgf", big);
    for format in ["text", "json"] {
        for extra in [&[][..], &["--max-messages", "50"], &["-q"]] {
            let run = |jobs: &str| {
                let mut args = vec!["check", "-j", jobs, "--format", format];
                args.extend_from_slice(extra);
                args.push("in");
                sgf(&dir.0, &args)
            };
            let one = run("1");
            assert_eq!(one.status.code(), Some(1), "{}", stderr(&one));
            assert!(stdout(&one).contains("bin.sgf"), "{}", stdout(&one));
            for jobs in ["2", "3"] {
                let many = run(jobs);
                assert_eq!(many.status.code(), one.status.code());
                assert_eq!(stderr(&many), stderr(&one), "{format} {extra:?} -j {jobs}");
                assert!(
                    timeless(&many) == timeless(&one),
                    "{format} {extra:?} -j {jobs}: the outputs differ"
                );
            }
        }
    }
}

/// The `"seconds":…,` of `sgf stats --format json`, or nothing.
fn seconds(out: &Output) -> String {
    let text = stdout(out);
    let Some(at) = text.find("\"seconds\":") else {
        return String::new();
    };
    let end = text[at..].find(',').map_or(text.len(), |i| at + i + 1);
    text[at..end].to_owned()
}

/// Runs `sgf args…` in `dir` with `input` on standard input, written by
/// another thread (the output may fill its pipe before the input is read).
fn sgf_stdin_big(dir: &Path, args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sgf"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sgf");
    let mut stdin = child.stdin.take().unwrap();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let _ = stdin.write_all(input);
        });
        child.wait_with_output().unwrap()
    })
}

/// A file larger than a worker reads whole, given by name and on standard
/// input, is parsed in chunks cut at guessed game starts; comments that
/// quote a game start, games with no root property, junk and CR line
/// breaks make guesses wrong: the output of `-j 2` and `-j 3` is still
/// that of `-j 1`, byte for byte.
#[test]
fn a_large_file_or_stdin_read_in_chunks_gives_the_output_of_one_thread() {
    let dir = TempDir::new("inputs-chunks");
    let mut big = String::new();
    let mut i = 0;
    while big.len() < 10 << 20 {
        big.push_str(&format!(
            "(;GM[1]SZ[19]PB[p{i}]C[x]C[y];B[pd]C[see :)(;GM[1]FF[4];B[aa])]\n;W[dp])\n"
        ));
        match i % 7 {
            0 => big.push_str("(;B[aa];W[bb])junk\r\n"),
            3 => big.push_str("(;FF[4];B[cc]C[a\r(;SZ[9]:)(;GM[1]\\]]W[dd])\r"),
            _ => {}
        }
        i += 1;
    }
    dir.write("big.sgf", &big);
    let commands: [&[&str]; 2] = [&["dump"], &["stats", "--format", "json"]];
    for command in commands {
        for name in ["big.sgf", "-"] {
            let run = |jobs: &str| {
                let mut args = command.to_vec();
                args.extend_from_slice(&["-j", jobs, name]);
                if name == "-" {
                    sgf_stdin_big(&dir.0, &args, big.as_bytes())
                } else {
                    sgf(&dir.0, &args)
                }
            };
            let one = run("1");
            assert!(!one.stdout.is_empty(), "{command:?} {name}");
            for jobs in ["2", "3"] {
                let many = run(jobs);
                let what = format!("{command:?} {name} -j {jobs}");
                assert_eq!(one.status.code(), many.status.code(), "{what}");
                let timeless = |out: &Output| timeless(out).replace(&seconds(out), "");
                assert!(
                    timeless(&one) == timeless(&many),
                    "{what}: the outputs differ"
                );
                assert_eq!(stderr(&one), stderr(&many), "{what}");
            }
        }
    }
}

#[test]
fn a_folder_whose_file_is_also_named_is_not_empty() {
    let dir = TempDir::new("named-in-folder");
    dir.write("in/a.sgf", b"(;GM[1];B[aa])");
    for args in [["in", "in/a.sgf"], ["in/a.sgf", "in"]] {
        let out = sgf(&dir.0, &["check", "-q", args[0], args[1]]);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stdout(&out));
        assert!(!stdout(&out).contains("no_sgf_files"), "{}", stdout(&out));
        // The file is read once.
        let out = sgf(&dir.0, &["stats", "--format", "json", args[0], args[1]]);
        assert!(stdout(&out).contains("\"games\":1"), "{}", stdout(&out));
    }
    // A folder that is really empty still says so beside a named file.
    dir.write("other/b.sgf", b"(;GM[1];B[bb])");
    std::fs::create_dir_all(dir.0.join("empty")).unwrap();
    let out = sgf(&dir.0, &["check", "-q", "empty", "other/b.sgf"]);
    assert!(stdout(&out).contains("no_sgf_files"), "{}", stdout(&out));
}
