//! `sgf fix`: the report (`path:line:column: repair: what`) and summary,
//! `--dry-run` (nothing written), `--in-place` (only changed files
//! replaced, atomically, permissions kept; a failed input left as it was),
//! `--out`, folders, exit statuses, and a second run that changes nothing.

#![cfg(feature = "cli")]

use crate::common::{sgf, stderr, stdout, TempDir};
use std::path::Path;

const A: &str = "(;GM[1]SZ[19:19]KI[13]B[pd]\n;B[dd]W[pp];;C[a][b])";
const A_FIXED: &str = "(;GM[1]SZ[19]KM[6.5];B[pd];B[dd];W[pp];C[a])\n";
const A_REPORT: &str = "a.sgf:1:8: sz-square: SZ[19:19] → SZ[19]
a.sgf:1:17: ki-km: KI[13] → KM[6.5] (KI is in half points)
a.sgf:1:23: root-move: B[pd] moved out of the root into a node of its own
a.sgf:2:7: split-bw: B[dd] and W[pp] split into two nodes
a.sgf:2:12: empty-nodes: empty node removed
a.sgf:2:18: single-value: C: kept [a], dropped [b]
";

#[test]
fn fix_all_to_stdout_reports_on_stderr() {
    let dir = TempDir::new("fix-all");
    dir.write("a.sgf", A);
    let out = sgf(&dir.0, &["fix", "--all", "a.sgf"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), A_FIXED);
    let err = stderr(&out);
    assert!(err.starts_with(A_REPORT), "{err}");
    assert!(
        err.contains("fix: 1 files, 1 games, 1 files changed\n"),
        "{err}"
    );
    assert!(err.contains("  sz-square        1\n"), "{err}");
    assert!(err.contains("  fox-komi         0\n"), "{err}");
    // Only the repairs asked for.
    let out = sgf(&dir.0, &["fix", "--repair", "sz-square,ki-km", "a.sgf"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "(;GM[1]SZ[19]KM[6.5]B[pd];B[dd]W[pp];;C[a][b])\n"
    );
    let err = stderr(&out);
    assert_eq!(err.lines().filter(|l| l.starts_with("a.sgf:")).count(), 2);
    assert!(!err.contains("root-move"), "{err}");
}

#[test]
fn fix_dry_run_writes_nothing() {
    let dir = TempDir::new("fix-dry");
    let a = dir.write("a.sgf", A);
    let out = sgf(&dir.0, &["fix", "--all", "--dry-run", "a.sgf"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with(A_REPORT), "{text}");
    assert!(text.contains("fix: 1 files, 1 games, 1 files changed\n"));
    assert_eq!(std::fs::read_to_string(&a).unwrap(), A);
    assert_eq!(listing(&dir.0), ["a.sgf"]);
    // --dry-run with --in-place or --out is a usage error.
    for extra in [
        &["--in-place"][..],
        &["--out-file", "x.sgf"],
        &["--out", "x"],
    ] {
        let mut args = vec!["fix", "--all", "--dry-run", "a.sgf"];
        args.extend_from_slice(extra);
        assert_eq!(sgf(&dir.0, &args).status.code(), Some(2));
    }
    assert_eq!(listing(&dir.0), ["a.sgf"]);
}

#[test]
fn fix_in_place_replaces_changed_files_only() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new("fix-in-place");
    let a = dir.write("games/a.sgf", A);
    std::fs::set_permissions(&a, std::fs::Permissions::from_mode(0o640)).unwrap();
    // Nothing to repair, but the raw writer would rewrite it: left alone.
    let b_text = "junk before (;GM[1]  C[x];B[aa])\n\n";
    let b = dir.write("games/b.SGF", b_text);
    let out = sgf(&dir.0, &["fix", "--all", "--in-place", "games"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    assert!(
        stderr(&out).contains("fix: 2 files, 2 games, 1 files changed\n"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(&a).unwrap(), A_FIXED);
    let mode = std::fs::metadata(&a).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    assert_eq!(std::fs::read_to_string(&b).unwrap(), b_text);
    assert_eq!(listing(&dir.0.join("games")), ["a.sgf", "b.SGF"]);
    // A second run changes nothing.
    let out = sgf(&dir.0, &["fix", "--all", "--in-place", "games"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("fix: 2 files, 2 games, 0 files changed\n"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(&a).unwrap(), A_FIXED);
}

#[test]
fn fix_failed_input_is_left_as_it_was() {
    let dir = TempDir::new("fix-failed");
    let bad = dir.write("bad.sgf", "(;SZ[9:9]B[aa]C[unclosed");
    let out = sgf(
        &dir.0,
        &["fix", "--all", "--in-place", "--strict", "bad.sgf"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(&bad).unwrap(),
        "(;SZ[9:9]B[aa]C[unclosed"
    );
    assert_eq!(listing(&dir.0), ["bad.sgf"]);
    let none = dir.write("none.sgf", "no game here");
    let out = sgf(&dir.0, &["fix", "--all", "none.sgf"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&none).unwrap(), "no game here");
    // Usage errors: no repair named, an unknown one.
    assert_eq!(sgf(&dir.0, &["fix", "bad.sgf"]).status.code(), Some(2));
    let out = sgf(&dir.0, &["fix", "--repair", "nope", "bad.sgf"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unknown repair \"nope\""));
}

#[test]
fn fix_out_file_holds_every_game() {
    let dir = TempDir::new("fix-out");
    dir.write("a.sgf", A);
    dir.write("b.sgf", "(;GM[1](;B[aa](;W[bb])))");
    let out = sgf(
        &dir.0,
        &[
            "fix",
            "--repair",
            "ogs-nesting,sz-square",
            "--out-file",
            "all.sgf",
            "a.sgf",
            "b.sgf",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        std::fs::read_to_string(dir.0.join("all.sgf")).unwrap(),
        "(;GM[1]SZ[19]KI[13]B[pd];B[dd]W[pp];;C[a][b])\n(;GM[1];B[aa];W[bb])\n"
    );
    assert!(stderr(&out).contains(
        "b.sgf:1:8: ogs-nesting: 2 variations that were the only continuation flattened into the sequence\n"
    ));
}

/// The names in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn fix_says_why_a_source_repair_was_not_made() {
    let dir = TempDir::new("fix-source");
    // One Fox signal only: not certain, so its komi stays.
    dir.write("fox.sgf", "(;AP[foxwq]KM[650])");
    dir.write("sure.sgf", "(;AP[foxwq]TC[3]TT[30]KM[650])");
    let out = sgf(
        &dir.0,
        &[
            "fix",
            "--repair",
            "fox-komi",
            "--dry-run",
            "fox.sgf",
            "sure.sgf",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "fox.sgf:1:2: source: fox uncertain (AP[foxwq]); its repairs not made\n\
         sure.sgf:1:23: fox-komi: KM[650] → KM[6.5] (Fox: points × 100)\n"
        ),
        "{text}"
    );
    assert!(
        text.ends_with("  sources (games): fox 1 uncertain, fox 1 certain\n"),
        "{text}"
    );
}
