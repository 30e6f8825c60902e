//! `sgf fmt` with its writer options and `sgf strip`, to standard output
//! and `--in-place`: the file is replaced whole with its permissions kept,
//! or left exactly as it was when its output fails.

#![cfg(feature = "cli")]

use crate::common::{sgf, stderr, stdout, TempDir};
use std::path::Path;

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
fn fmt_canonical_options_to_stdout() {
    let dir = TempDir::new("fmt-canonical");
    dir.write("a.sgf", "(;PB[b]GM[1]SZ[9]AB[aa][ba][ab][bb];B[tt])");
    dir.write("b.sgf", "(;C[x \\y]AP[p][q])");
    let out = sgf(&dir.0, &["fmt", "--canonical", "a.sgf", "b.sgf"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "(;GM[1]FF[4]SZ[9]PB[b]AB[aa][ba][ab][bb];B[])\n(;FF[4]AP[p]C[x y])\n"
    );
    let out = sgf(
        &dir.0,
        &[
            "fmt",
            "--canonical",
            "--points",
            "compress",
            "--tt-pass",
            "--wrap",
            "20",
            "a.sgf",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "(;GM[1]FF[4]SZ[9]\nPB[b]AB[aa:bb];B[tt])\n");
    // Raw mode by default, as before.
    let out = sgf(&dir.0, &["fmt", "b.sgf"]);
    assert_eq!(stdout(&out), "(;C[x \\y]AP[p][q])\n");
    // --points needs --canonical.
    let out = sgf(&dir.0, &["fmt", "--points", "expand", "a.sgf"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn fmt_utf8_in_place_keeps_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new("fmt-utf8");
    // 常昊 in GB2312.
    let path = dir.write("gb.sgf", b"(;CA[gb2312]PB[\xb3\xa3\xea\xbb];B[pd])");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
    let out = sgf(&dir.0, &["fmt", "--utf8", "--in-place", "gb.sgf"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "(;CA[UTF-8]PB[常昊];B[pd])\n"
    );
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    assert_eq!(listing(&dir.0), ["gb.sgf"], "no temporary file left");
}

#[test]
fn in_place_leaves_the_file_intact_when_the_output_fails() {
    let dir = TempDir::new("fmt-fail");
    let good = b"(;GM[1];B[aa])".to_vec();
    let bad = b"(;GM[1];B[aa]C[unclosed".to_vec();
    dir.write("good.sgf", &good);
    let bad_path = dir.write("bad.sgf", &bad);
    let out = sgf(
        &dir.0,
        &[
            "fmt",
            "--canonical",
            "--strict",
            "--in-place",
            "bad.sgf",
            "good.sgf",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(&bad_path).unwrap(),
        bad,
        "the failed file is untouched"
    );
    assert_eq!(
        std::fs::read_to_string(dir.0.join("good.sgf")).unwrap(),
        "(;GM[1]FF[4];B[aa])\n",
        "the other file is rewritten"
    );
    assert_eq!(listing(&dir.0), ["bad.sgf", "good.sgf"]);
    // Not SGF at all.
    let junk = dir.write("junk.sgf", b"\x7fELF\x02\x01\x01");
    let out = sgf(&dir.0, &["fmt", "--in-place", "junk.sgf"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read(&junk).unwrap(), b"\x7fELF\x02\x01\x01");
    // Standard input cannot be rewritten.
    let out = sgf(&dir.0, &["fmt", "--in-place", "-"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn in_place_in_a_read_only_folder_fails_and_keeps_the_file() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new("fmt-readonly");
    let sub = dir.0.join("ro");
    std::fs::create_dir(&sub).unwrap();
    let path = sub.join("a.sgf");
    std::fs::write(&path, "(;B[aa])").unwrap();
    std::fs::set_permissions(&sub, std::fs::Permissions::from_mode(0o555)).unwrap();
    let out = sgf(&dir.0, &["fmt", "--canonical", "--in-place", "ro/a.sgf"]);
    std::fs::set_permissions(&sub, std::fs::Permissions::from_mode(0o755)).unwrap();
    if std::fs::metadata(&sub).is_ok() && out.status.success() {
        // Running as root: the folder's permissions do not bind.
        return;
    }
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("temporary file"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "(;B[aa])");
}

#[test]
fn strip_props_and_presets() {
    let dir = TempDir::new("strip");
    dir.write(
        "a.sgf",
        "(;GM[1]C[hi];B[aa]LZ[x]TR[aa]BL[5];W[bb]C[c]SBKV[1])",
    );
    let out = sgf(&dir.0, &["strip", "--props", "C,LZ", "a.sgf"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "(;GM[1];B[aa]TR[aa]BL[5];W[bb]SBKV[1])\n");
    let out = sgf(
        &dir.0,
        &[
            "strip",
            "--preset",
            "markup,times",
            "--preset",
            "analysis",
            "a.sgf",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "(;GM[1]C[hi];B[aa];W[bb]C[c])\n");
    let out = sgf(
        &dir.0,
        &["strip", "--preset", "comments", "--in-place", "a.sgf"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(dir.0.join("a.sgf")).unwrap(),
        "(;GM[1];B[aa]LZ[x]TR[aa]BL[5];W[bb]SBKV[1])\n"
    );
    // Neither --props nor --preset; an unknown preset.
    assert_eq!(sgf(&dir.0, &["strip", "a.sgf"]).status.code(), Some(2));
    assert_eq!(
        sgf(&dir.0, &["strip", "--preset", "x", "a.sgf"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn fmt_reports_what_the_target_lacks() {
    // Through the library only UTF-8 is a CLI target, which holds every
    // character: a damaged byte sequence becomes U+FFFD, not an error.
    let dir = TempDir::new("fmt-damaged");
    dir.write("a.sgf", b"(;CA[UTF-8]C[ok \xff end])");
    let out = sgf(&dir.0, &["fmt", "--utf8", "a.sgf"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "(;CA[UTF-8]C[ok \u{fffd} end])\n");
}

#[test]
fn transform_to_stdout_out_and_in_place() {
    let dir = TempDir::new("transform");
    let input = "(;GM[1]SZ[19]PB[Lee]RE[B+R]AB[aa:bb];B[pd]LB[pd:A](;W[dd])(;W[tt]))\n(;GM[1]SZ[9:5];W[ab])\n";
    dir.write("a.sgf", input);
    let out = sgf(
        &dir.0,
        &["transform", "--rotate", "90", "--swap-colors", "a.sgf"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "(;GM[1]SZ[19]PW[Lee]RE[W+R]AW[ra:sb];W[pp]LB[pp:A](;B[pd])(;B[tt]))\n(;GM[1]SZ[5:9];B[da])\n"
    );
    // To a new file, then back with the inverse: the bytes of the input.
    let out = sgf(
        &dir.0,
        &[
            "transform",
            "--rotate",
            "270",
            "--flip",
            "a.sgf",
            "--out-file",
            "b.sgf",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    let out = sgf(
        &dir.0,
        &[
            "transform",
            "--rotate",
            "270",
            "--flip",
            "--in-place",
            "b.sgf",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(dir.0.join("b.sgf")).unwrap(), input);
    assert_eq!(listing(&dir.0), ["a.sgf", "b.sgf"]);
    // Not Go: written unchanged with a warning naming it, and the games
    // after it are still transformed (none is lost).
    dir.write(
        "c.sgf",
        "(;GM[1]SZ[9];B[aa])\n(;GM[3];B[aa])\n(;GM[1]SZ[9];B[bb])\n",
    );
    let out = sgf(
        &dir.0,
        &["transform", "--rotate", "90", "--in-place", "c.sgf"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("c.sgf:2:1: warning[not_go]"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read_to_string(dir.0.join("c.sgf")).unwrap(),
        "(;GM[1]SZ[9];B[ia])\n(;GM[3];B[aa])\n(;GM[1]SZ[9];B[hb])\n"
    );
    assert_eq!(listing(&dir.0), ["a.sgf", "b.sgf", "c.sgf"]);
    // `--out`, `--out-file` and `--in-place` do not go together.
    for (a, b) in [("--out", "d"), ("--out-file", "d.sgf")] {
        let out = sgf(&dir.0, &["transform", "--in-place", a, b, "a.sgf"]);
        assert_eq!(out.status.code(), Some(2));
    }
}
