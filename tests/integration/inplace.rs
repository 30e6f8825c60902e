//! Writing files that loses nothing: `--in-place` killed half way, run
//! twice at once, on a file changed meanwhile, on a symbolic link, a hard
//! link, another user's file, an `.sgfs` file; `split --out` into a
//! folder that holds files; `export --out` through temporary files.

#![cfg(feature = "cli")]

use crate::common::{sgf, stderr, TempDir};
use std::fs;
use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The environment variable that pauses a rewrite before its rename.
const PAUSE: &str = "SGF_GROVE_TEST_PAUSE_BEFORE_RENAME_MS";

/// `sgf ARGS` started with a pause of `ms` before its rename.
fn spawn_paused(dir: &Path, args: &[&str], ms: u64) -> Child {
    Command::new(env!("CARGO_BIN_EXE_sgf"))
        .args(args)
        .current_dir(dir)
        .env(PAUSE, ms.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sgf")
}

/// The names in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn temporaries(dir: &Path) -> Vec<String> {
    listing(dir)
        .into_iter()
        .filter(|n| n.ends_with(".sgf-grove-tmp"))
        .collect()
}

/// Waits (up to 20 s) until a temporary file of a rewrite is in `dir` and
/// has reached `len` bytes: the rewrite is then paused before its rename.
fn wait_for_temporary(dir: &Path, len: u64) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(20) {
        for name in temporaries(dir) {
            if fs::metadata(dir.join(&name)).is_ok_and(|m| m.len() >= len) {
                return;
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("no temporary file appeared in {}", dir.display());
}

/// `n` games, each written as fmt writes it (one line each).
fn games(n: usize) -> String {
    (0..n)
        .map(|i| format!("(;GM[1]SZ[19]PB[p{i}];B[pd];W[dp])\n"))
        .collect()
}

#[test]
fn a_killed_rewrite_leaves_a_temporary_file_that_scans_skip_and_the_next_run_removes() {
    let dir = TempDir::new("inplace-killed");
    let big = games(20_000);
    // Written with spaces, so that fmt changes every byte's place.
    dir.write("a.sgf", big.replace(";B", " ;B"));
    dir.write("b.sgf", games(3));
    let mut child = spawn_paused(&dir.0, &["fmt", "--in-place", "a.sgf"], 20_000);
    wait_for_temporary(&dir.0, big.len() as u64);
    child.kill().unwrap();
    child.wait().unwrap();
    let stale = temporaries(&dir.0);
    assert_eq!(stale.len(), 1, "{:?}", listing(&dir.0));
    assert!(stale[0].starts_with(".a.sgf."), "{stale:?}");

    // Each game once: the temporary file's 20,000 are not read.
    let out = sgf(&dir.0, &["stats", "-q", "--format", "json", "."]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["games"], 20_003);
    assert_eq!(json["files"], 2);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("temporary_file"),
        "{json}"
    );
    let err = stderr(&out);
    assert!(
        err.contains(&stale[0]) && err.contains("temporary file of an unfinished rewrite"),
        "{err}"
    );
    // `check` lists it too.
    let out = sgf(&dir.0, &["check", "."]);
    assert!(String::from_utf8_lossy(&out.stdout).contains(&stale[0]));

    // The next rewrite of the file removes it, and says so.
    let out = sgf(&dir.0, &["fmt", "--in-place", "a.sgf"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("removed"), "{}", stderr(&out));
    assert_eq!(listing(&dir.0), ["a.sgf", "b.sgf"]);
    assert_eq!(fs::read_to_string(dir.0.join("a.sgf")).unwrap(), big);
}

#[test]
fn mode_owner_and_group_are_kept() {
    let dir = TempDir::new("inplace-owner");
    let path = dir.write("a.sgf", "(;GM[1] ;B[aa])");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
    let root = fs::metadata(&dir.0).unwrap().uid() == 0;
    if root {
        std::os::unix::fs::chown(&path, Some(1234), Some(1234)).unwrap();
    } else {
        println!("not root: the owner part of this test is skipped");
    }
    let out = sgf(&dir.0, &["fmt", "--in-place", "a.sgf"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(fs::read(&path).unwrap(), b"(;GM[1];B[aa])\n");
    let meta = fs::metadata(&path).unwrap();
    assert_eq!(meta.mode() & 0o7777, 0o640);
    if root {
        assert_eq!((meta.uid(), meta.gid()), (1234, 1234));
    }
}

#[test]
fn a_symbolic_link_is_written_through_and_stays_a_link() {
    let dir = TempDir::new("inplace-symlink");
    fs::create_dir(dir.0.join("real")).unwrap();
    let target = dir.write("real/a.sgf", "(;GM[1] ;B[aa])");
    std::os::unix::fs::symlink("real/a.sgf", dir.0.join("link.sgf")).unwrap();
    let out = sgf(&dir.0, &["fmt", "--in-place", "link.sgf"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let link = fs::symlink_metadata(dir.0.join("link.sgf")).unwrap();
    assert!(link.file_type().is_symlink());
    assert_eq!(fs::read(&target).unwrap(), b"(;GM[1];B[aa])\n");
    assert_eq!(listing(&dir.0.join("real")), ["a.sgf"]);
}

#[test]
fn a_file_with_hard_links_is_refused_and_both_names_kept() {
    let dir = TempDir::new("inplace-hardlink");
    let a = dir.write("a.sgf", "(;GM[1] ;B[aa])");
    fs::hard_link(&a, dir.0.join("b.sgf")).unwrap();
    for cmd in [
        &["fmt", "--in-place", "a.sgf"][..],
        &["fix", "--all", "--in-place", "a.sgf"],
    ] {
        let out = sgf(&dir.0, cmd);
        assert_eq!(out.status.code(), Some(1), "{cmd:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("hard links"), "{}", stderr(&out));
    }
    for name in ["a.sgf", "b.sgf"] {
        assert_eq!(fs::read(dir.0.join(name)).unwrap(), b"(;GM[1] ;B[aa])");
    }
    assert_eq!(fs::metadata(&a).unwrap().nlink(), 2);
    assert_eq!(listing(&dir.0), ["a.sgf", "b.sgf"]);
}

#[test]
fn a_file_changed_during_the_rewrite_is_not_overwritten() {
    let dir = TempDir::new("inplace-changed");
    let original = "(;GM[1] ;B[aa])";
    let path = dir.write("a.sgf", original);
    let child = spawn_paused(&dir.0, &["fmt", "--in-place", "a.sgf"], 1500);
    wait_for_temporary(&dir.0, 15);
    fs::write(&path, "(;GM[1];B[bb] ;W[cc])").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("changed on disk"), "{}", stderr(&out));
    assert_eq!(fs::read(&path).unwrap(), b"(;GM[1];B[bb] ;W[cc])");
    assert_eq!(listing(&dir.0), ["a.sgf"]);
}

#[test]
fn of_two_rewrites_at_once_the_second_is_refused_and_the_first_applied() {
    let dir = TempDir::new("inplace-concurrent");
    let path = dir.write("a.sgf", "(;GM[1] ;B[aa] ;W[bb])");
    let first = spawn_paused(
        &dir.0,
        &["transform", "--rotate", "90", "--in-place", "a.sgf"],
        1500,
    );
    wait_for_temporary(&dir.0, 10);
    let second = sgf(&dir.0, &["strip", "--props", "W", "--in-place", "a.sgf"]);
    assert_eq!(second.status.code(), Some(1), "{}", stderr(&second));
    assert!(
        stderr(&second).contains("being rewritten by another process"),
        "{}",
        stderr(&second)
    );
    let first = first.wait_with_output().unwrap();
    assert!(first.status.success(), "{}", stderr(&first));
    // The rotation is there (never silently lost), the strip was refused.
    let now = fs::read_to_string(&path).unwrap();
    assert!(now.contains("W["), "{now}");
    assert!(!now.contains("B[aa]"), "{now}");
    assert_eq!(listing(&dir.0), ["a.sgf"]);
    // Run one after the other, both apply.
    let out = sgf(&dir.0, &["strip", "--props", "W", "--in-place", "a.sgf"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!fs::read_to_string(&path).unwrap().contains("W["));
}

#[test]
fn an_sgfs_file_stays_one_game_per_line_or_is_left_as_it_was() {
    let dir = TempDir::new("inplace-sgfs");
    // Games with spaces and escapes, each on its line: rewritten one per line.
    let good = "(;GM[1] ;B[aa])\n\n(;GM[1]C[a\\]b \\\\ c];W[bb])\r\n";
    let path = dir.write("good.sgfs", good);
    let out = sgf(&dir.0, &["fmt", "--in-place", "good.sgfs"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        "(;GM[1];B[aa])\n(;GM[1]C[a\\]b \\\\ c];W[bb])\n"
    );
    // `--wrap` would break games across lines: refused.
    let out = sgf(&dir.0, &["fmt", "--wrap", "8", "--in-place", "good.sgfs"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("sgfs_line_break"), "{}", stderr(&out));
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        "(;GM[1];B[aa])\n(;GM[1]C[a\\]b \\\\ c];W[bb])\n"
    );

    // An `.sgfs` file is read as `check` reads it, one game per line: a
    // comment that spans lines breaks its line in two, which a strict
    // rewrite refuses (the file left as it was, the line named) and a
    // lenient one reports line by line.
    let bad = "(;GM[1];B[aa])\n(;GM[1]C[first line\nsecond line];W[bb])\n";
    let path = dir.write("bad.sgfs", bad);
    for cmd in [
        &["fmt", "--strict", "--in-place", "bad.sgfs"][..],
        &["transform", "--strict", "--flip", "--in-place", "bad.sgfs"],
    ] {
        let out = sgf(&dir.0, cmd);
        assert_eq!(out.status.code(), Some(1), "{cmd:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains("bad.sgfs:2:9: error[unclosed_value]"), "{err}");
        assert_eq!(fs::read_to_string(&path).unwrap(), bad);
    }
    let out = sgf(&dir.0, &["fmt", "bad.sgfs"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("bad.sgfs:2:9: warning[unclosed_value]"),
        "{err}"
    );
    assert!(
        err.contains("bad.sgfs:3:1: warning[junk_before_game]"),
        "{err}"
    );
    // A soft line break (`\` then a line break) splits its line as well.
    let soft = "(;GM[1]C[soft\\\nbreak])\n";
    let path = dir.write("soft.sgfs", soft);
    let out = sgf(&dir.0, &["fmt", "--strict", "--in-place", "soft.sgfs"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&path).unwrap(), soft);
    // The same comment in an .sgf file is fine.
    dir.write("ok.sgf", bad);
    let out = sgf(&dir.0, &["fmt", "--in-place", "ok.sgf"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(temporaries(&dir.0).is_empty());
}

#[test]
fn split_refuses_a_folder_that_holds_files_unless_forced() {
    let dir = TempDir::new("split-nonempty");
    dir.write("in/a.sgf", games(3));
    dir.write("out/old.sgf", games(40));
    let out = sgf(&dir.0, &["split", "-q", "in", "--out", "out"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("not empty"), "{}", stderr(&out));
    assert_eq!(listing(&dir.0.join("out")), ["old.sgf"]);
    let out = sgf(&dir.0, &["split", "-q", "in", "--out", "out", "--force"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        listing(&dir.0.join("out")),
        [
            "000001.sgf",
            "000002.sgf",
            "000003.sgf",
            "index.tsv",
            "old.sgf"
        ]
    );
    // A new or empty folder needs no --force.
    let out = sgf(&dir.0, &["split", "-q", "in", "--out", "new"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn export_files_appear_whole_under_their_names() {
    let dir = TempDir::new("export-staged");
    dir.write("in/a.sgf", games(5));
    let out = sgf(
        &dir.0,
        &[
            "export",
            "-q",
            "--format",
            "jsonl",
            "in",
            "--out",
            "games.jsonl",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = fs::read_to_string(dir.0.join("games.jsonl")).unwrap();
    assert_eq!(text.lines().count(), 5);
    for format in ["csv", "parquet"] {
        let out = sgf(
            &dir.0,
            &["export", "-q", "--format", format, "in", "--out", format],
        );
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(
            listing(&dir.0.join(format)),
            [format!("games.{format}"), format!("moves.{format}")]
        );
    }
    assert_eq!(listing(&dir.0), ["csv", "games.jsonl", "in", "parquet"]);
}

/// The `.sgf` files under `dir`, by their path relative to it, with their
/// bytes; the temporary files apart.
fn tree(dir: &Path) -> (Vec<(String, Vec<u8>)>, Vec<String>) {
    let (mut files, mut temps) = (Vec::new(), Vec::new());
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            let rel = path
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if path.is_dir() {
                stack.push(path);
            } else if rel.ends_with(".sgf-grove-tmp") {
                temps.push(rel);
            } else {
                files.push((rel, fs::read(&path).unwrap()));
            }
        }
    }
    files.sort();
    temps.sort();
    (files, temps)
}

#[test]
fn a_killed_fmt_out_dir_leaves_whole_files_and_the_next_run_removes_its_temporaries() {
    let dir = TempDir::new("out-dir-killed");
    for i in 0..60 {
        let folder = if i % 2 == 0 { "even" } else { "odd" };
        // Written with spaces, so that fmt changes every byte's place.
        dir.write(
            &format!("in/{folder}/{i:03}.sgf"),
            games(50 + i).replace(";B", " ;B"),
        );
    }
    let reference = sgf(&dir.0, &["fmt", "-j", "2", "in", "--out", "ref"]);
    assert!(reference.status.success(), "{}", stderr(&reference));
    let (expected, none) = tree(&dir.0.join("ref"));
    assert_eq!((expected.len(), none.len()), (60, 0));

    // Each file pauses 50 ms before its rename: killed after 5 files.
    let mut child = spawn_paused(&dir.0, &["fmt", "-j", "2", "in", "--out", "out"], 50);
    let out = dir.0.join("out");
    let start = Instant::now();
    while tree_len(&out) < 5 {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no output appeared"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let (written, temps) = tree(&out);
    assert!(written.len() < 60, "killed too late: {}", written.len());
    // Every file under its final name is whole: as the full run wrote it.
    for (name, bytes) in &written {
        let full = &expected.iter().find(|(n, _)| n == name).unwrap().1;
        assert_eq!(bytes, full, "{name} is not whole");
    }
    // Scans skip the temporary files.
    let check = sgf(&dir.0, &["stats", "-q", "--format", "json", "out"]);
    let json: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    assert_eq!(json["files"], written.len());

    // The next run removes them (saying so) and writes everything.
    let again = sgf(&dir.0, &["fmt", "-j", "2", "in", "--out", "out"]);
    assert!(again.status.success(), "{}", stderr(&again));
    for temp in &temps {
        let name = Path::new(temp).file_name().unwrap().to_string_lossy();
        assert!(
            stderr(&again).contains(&*name),
            "{temp}: {}",
            stderr(&again)
        );
    }
    assert_eq!(tree(&out), (expected, Vec::new()));
}

/// How many files (temporary or not) are under `dir`.
fn tree_len(dir: &Path) -> usize {
    if !dir.exists() {
        return 0;
    }
    let (files, temps) = tree(dir);
    files.len() + temps.len()
}
