//! The `sgf` binary, run as a child process on small inputs written to a
//! temporary folder: exit statuses, the exact diagnostic and JSON formats,
//! the folder walk, `dump`'s JSON shape and charset decoding, `fmt`, standard
//! input, very deep trees and a closed output pipe.

#![cfg(feature = "cli")]

use serde_json::Value as Json;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::common::TempDir;

/// Runs `sgf args…` in `dir`, feeding `stdin` when given.
fn sgf(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sgf"))
        .args(args)
        .current_dir(dir)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sgf");
    let writer = stdin.map(|bytes| {
        let bytes = bytes.to_vec();
        let mut pipe = child.stdin.take().unwrap();
        // A thread, so that a large input cannot deadlock against the output.
        std::thread::spawn(move || pipe.write_all(&bytes))
    });
    let output = child.wait_with_output().expect("wait for sgf");
    if let Some(writer) = writer {
        writer.join().unwrap().unwrap();
    }
    output
}

fn code(output: &Output) -> i32 {
    output.status.code().expect("exited normally")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8")
}

/// Parses JSON Lines; fails the test on any line that is not JSON.
fn json_lines(output: &Output) -> Vec<Json> {
    stdout(output)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line:?}")))
        .collect()
}

// ---------------------------------------------------------------- check

/// A node repeating `B`: one `repeated_property` warning at 2:12.
const REPEATED: &str = "(;GM[1]\n;B[aa]W[bb]B[cc])\n";

#[test]
fn check_warning_line_format_and_exit_0() {
    let dir = TempDir::new("check-warning");
    dir.write("r.sgf", REPEATED);
    let out = sgf(&dir.0, &["check", "r.sgf"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..3],
        [
            "r.sgf:2:12: warning[repeated_property]: property repeated in a node; values merged",
            " 2 | ;B[aa]W[bb]B[cc])",
            "   |            ^",
        ]
    );
    assert!(text.contains("\nfiles:    1 (1 ok, 0 failed)\n"), "{text}");
    assert!(text.contains("\ngames:    1\n"), "{text}");
    assert!(text.contains("\nnodes:    2\n"), "{text}");
    assert!(
        text.contains(&format!("\nbytes:    {} ", REPEATED.len())),
        "{text}"
    );
    assert!(text.contains("MB/s"), "{text}");
    assert!(
        text.contains("\nwarnings: 1\n  repeated_property: 1\n"),
        "{text}"
    );
    assert!(!text.contains("failed:"), "{text}");
}

#[test]
fn check_no_game_tree_exits_1() {
    let dir = TempDir::new("check-nogame");
    dir.write("n.sgf", "just some text");
    dir.write("ok.sgf", "(;GM[1])");
    let out = sgf(&dir.0, &["check", "n.sgf", "ok.sgf"], None);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "n.sgf:1:15: error[no_game_tree]: no SGF game tree found in the input\n \
             1 | just some text\n   |               ^\n"
        ),
        "{text}"
    );
    assert!(text.contains("files:    2 (1 ok, 1 failed)"), "{text}");
    assert!(
        text.contains("failed:   1\n  n.sgf (no_game_tree)\n"),
        "{text}"
    );
}

#[test]
fn check_strict_fails_on_a_warning() {
    let dir = TempDir::new("check-strict");
    dir.write("r.sgf", REPEATED);
    let lenient = sgf(&dir.0, &["check", "r.sgf"], None);
    assert_eq!(code(&lenient), 0);
    let strict = sgf(&dir.0, &["check", "--strict", "r.sgf"], None);
    assert_eq!(code(&strict), 1);
    let text = stdout(&strict);
    assert!(
        text.starts_with(
            "r.sgf:2:12: error[repeated_property]: property repeated in a node; values merged \
             (strict mode)\n"
        ),
        "{text}"
    );
    assert!(text.contains("  r.sgf (repeated_property)"), "{text}");
}

#[test]
fn check_quiet_hides_warnings_not_errors() {
    let dir = TempDir::new("check-quiet");
    dir.write("r.sgf", REPEATED);
    dir.write("n.sgf", "nothing");
    let out = sgf(&dir.0, &["check", "-q", "r.sgf", "n.sgf"], None);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(!text.contains("warning["), "{text}");
    assert!(text.contains("n.sgf:1:8: error[no_game_tree]"), "{text}");
    // The warning is still counted.
    assert!(
        text.contains("warnings: 1\n  repeated_property: 1\n"),
        "{text}"
    );
}

#[test]
fn check_json_lines() {
    let dir = TempDir::new("check-json");
    let clean = "(;FF[4]GM[1]SZ[9];B[ee];W[ge])";
    dir.write("a.sgf", clean);
    dir.write("n.sgf", "no game");
    dir.write("r.sgf", REPEATED);
    let out = sgf(
        &dir.0,
        &[
            "check",
            "--format",
            "json",
            "r.sgf",
            "n.sgf",
            "missing.sgf",
            "a.sgf",
        ],
        None,
    );
    assert_eq!(code(&out), 2);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 5, "{}", stdout(&out));
    let paths: Vec<&str> = lines[..4]
        .iter()
        .map(|l| l["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["a.sgf", "missing.sgf", "n.sgf", "r.sgf"]);

    let a = &lines[0];
    assert_eq!(a["bytes"], clean.len());
    assert_eq!(a["games"], 1);
    assert_eq!(a["nodes"], 3);
    assert_eq!(a["warnings"], serde_json::json!([]));
    assert!(a["error"].is_null());

    let missing = &lines[1];
    assert_eq!(missing["games"], 0);
    assert_eq!(missing["error"]["kind"], "io");
    assert!(!missing["error"]["message"].as_str().unwrap().is_empty());

    let n = &lines[2];
    assert_eq!(n["bytes"], 7);
    assert_eq!(
        (n["games"].as_u64(), n["nodes"].as_u64()),
        (Some(0), Some(0))
    );
    assert_eq!(
        n["error"],
        serde_json::json!({
            "kind": "no_game_tree", "offset": 7, "line": 1, "column": 8,
            "message": "no SGF game tree found in the input"
        })
    );

    let r = &lines[3];
    assert_eq!(r["bytes"], REPEATED.len());
    assert_eq!(r["games"], 1);
    assert_eq!(r["nodes"], 2);
    assert!(r["error"].is_null());
    assert_eq!(
        r["warnings"],
        serde_json::json!([{
            "kind": "repeated_property", "offset": 19, "line": 2, "column": 12,
            "message": "property repeated in a node; values merged"
        }])
    );

    let summary = &lines[4]["summary"];
    assert_eq!(summary["files"], 4);
    assert_eq!(summary["failed"], 2);
    assert_eq!(summary["games"], 2);
    assert_eq!(summary["nodes"], 5);
    assert_eq!(summary["bytes"], clean.len() + 7 + REPEATED.len());
    assert!(summary["seconds"].as_f64().unwrap() >= 0.0);
    assert_eq!(
        summary["warnings"],
        serde_json::json!({ "repeated_property": 1 })
    );
}

/// `"` and `\` in a file name are not allowed everywhere. JSON escapes the
/// quote; the name escapes the backslash (`\\`), so that no name can spell
/// the escape of another (`a\xff.sgf`).
#[cfg(unix)]
#[test]
fn check_json_escapes_paths_and_counts_warning_kinds() {
    let dir = TempDir::new("check-json-kinds");
    dir.write("we\"ird\\name.sgf", "junk(;GM[1]B[aa]B[bb]);C[x]");
    let out = sgf(&dir.0, &["check", "--format", "json", "."], None);
    assert_eq!(code(&out), 0);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["path"], "./we\"ird\\\\name.sgf");
    let kinds: Vec<&str> = lines[0]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "junk_before_game",
            "repeated_property",
            "missing_open_paren",
            "unclosed_game_tree"
        ]
    );
    assert_eq!(lines[1]["summary"]["games"], 2);
    assert_eq!(
        lines[1]["summary"]["warnings"],
        serde_json::json!({
            "junk_before_game": 1, "missing_open_paren": 1,
            "repeated_property": 1, "unclosed_game_tree": 1
        })
    );
}

#[test]
fn check_walks_folders_recursively_in_sorted_order() {
    let dir = TempDir::new("check-walk");
    dir.write("games/z.sgf", "(;GM[1])");
    dir.write("games/sub/deeper/UPPER.SGF", "(;GM[1];B[aa])");
    dir.write("games/sub/mixed.Sgf", "(;GM[1];B[aa];W[bb])");
    dir.write("games/a.sgf", "(;GM[1])");
    // Not `.sgf`: skipped in folders (it would fail if checked)…
    dir.write("games/sub/notes.txt", "not sgf");
    dir.write("games/sgf", "not sgf either");
    // …but checked when named explicitly.
    dir.write("extra.txt", "(;GM[1])");
    let out = sgf(
        &dir.0,
        &["check", "--format", "json", "games", "extra.txt"],
        None,
    );
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let lines = json_lines(&out);
    let paths: Vec<String> = lines[..lines.len() - 1]
        .iter()
        .map(|l| l["path"].as_str().unwrap().replace('\\', "/"))
        .collect();
    assert_eq!(
        paths,
        [
            "extra.txt",
            "games/a.sgf",
            "games/sub/deeper/UPPER.SGF",
            "games/sub/mixed.Sgf",
            "games/z.sgf",
        ]
    );
    let summary = &lines[lines.len() - 1]["summary"];
    assert_eq!(summary["files"], 5);
    assert_eq!(summary["nodes"], 1 + 2 + 3 + 1 + 1);
    assert_eq!(summary["skipped_by_reason"]["not_sgf"], 2);

    // A file of another name is taken by its first bytes, unless
    // `--names-only`.
    dir.write("games/sub/dump.txt", "(;GM[1];B[aa])");
    let out = sgf(&dir.0, &["check", "--format", "json", "games"], None);
    assert_eq!(json_lines(&out).last().unwrap()["summary"]["files"], 5);
    let out = sgf(
        &dir.0,
        &["check", "--names-only", "--format", "json", "games"],
        None,
    );
    let lines = json_lines(&out);
    let summary = &lines[lines.len() - 1]["summary"];
    assert_eq!(summary["files"], 4);
    assert_eq!(summary["skipped_by_reason"]["not_sgf"], 3);

    // The explicit non-SGF file fails when named.
    let out = sgf(&dir.0, &["check", "games/sub/notes.txt"], None);
    assert_eq!(code(&out), 1);
}

#[test]
fn check_unreadable_file_fails_with_io_error() {
    let dir = TempDir::new("check-io");
    dir.write("ok.sgf", "(;GM[1])");
    let out = sgf(&dir.0, &["check", "missing.sgf", "ok.sgf"], None);
    // A path that cannot be read: exit 2, named on standard error too.
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("sgf: cannot read missing.sgf: "),
        "{}",
        stderr(&out)
    );
    let text = stdout(&out);
    assert!(text.starts_with("missing.sgf: error[io]: "), "{text}");
    assert!(text.contains("files:    2 (1 ok, 1 failed)"), "{text}");
    assert!(text.contains("  missing.sgf (io)"), "{text}");
}

#[test]
fn usage_errors_exit_2() {
    let dir = TempDir::new("usage");
    for args in [
        &["check"][..],
        &["frobnicate"],
        &["check", "--format", "xml", "x"],
        &[],
    ] {
        let out = sgf(&dir.0, args, None);
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let out = sgf(&dir.0, &["dump", "missing.sgf"], None);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).starts_with("sgf: cannot read missing.sgf: "),
        "{}",
        stderr(&out)
    );
    let out = sgf(&dir.0, &["--help"], None);
    assert_eq!(code(&out), 0);
    assert!(stdout(&out).contains("check"));
}

#[test]
fn check_snippet_cuts_long_lines_around_the_column() {
    let dir = TempDir::new("check-long");
    // One long line with a repeated property in the middle.
    let mut input = format!("(;GM[1]C[{}]", "x".repeat(1000));
    let at = input.len();
    input.push_str(&format!("GM[2]N[{}])", "y".repeat(1000)));
    dir.write("long.sgf", &input);
    let out = sgf(&dir.0, &["check", "long.sgf"], None);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        format!(
            "long.sgf:1:{}: warning[repeated_property]: property repeated in a node; values merged",
            at + 1
        )
    );
    let (source, caret) = (lines[1], lines[2]);
    assert!(source.len() < 140, "{source}");
    assert!(source.starts_with(" 1 | ..."), "{source}");
    assert!(source.ends_with("..."), "{source}");
    let col = caret.find('^').unwrap();
    assert_eq!(caret.len(), col + 1);
    assert_eq!(&source[col..col + 5], "GM[2]", "{source}\n{caret}");
}

// ---------------------------------------------------------------- dump

#[test]
fn dump_sequence() {
    let dir = TempDir::new("dump-seq");
    dir.write("a.sgf", "(;FF[4]GM[1]SZ[9];B[ee];W[ge])");
    let out = sgf(&dir.0, &["dump", "a.sgf"], None);
    assert_eq!(code(&out), 0);
    assert_eq!(
        stdout(&out),
        "[[[{\"FF\":[\"4\"],\"GM\":[\"1\"],\"SZ\":[\"9\"]},{\"B\":[\"ee\"]},{\"W\":[\"ge\"]}],[]]]\n"
    );
    assert!(out.stderr.is_empty());
}

#[test]
fn dump_variations() {
    let dir = TempDir::new("dump-var");
    dir.write("v.sgf", "(;GM[1];B[aa](;W[bb])(;W[cc];B[dd]))");
    let out = sgf(&dir.0, &["dump", "v.sgf"], None);
    assert_eq!(code(&out), 0);
    assert_eq!(
        stdout(&out),
        r#"[[[{"GM":["1"]},{"B":["aa"]}],[[[{"W":["bb"]}],[]],[[{"W":["cc"]},{"B":["dd"]}],[]]]]]"#
            .to_owned()
            + "\n"
    );

    // Variations inside variations, three children, two games.
    dir.write(
        "w.sgf",
        "(;GM[1](;B[aa](;W[bb])(;W[cc])(;W[dd];B[ee]))(;B[ff]))\n(;GM[1];B[gg])",
    );
    let out = sgf(&dir.0, &["dump", "w.sgf"], None);
    assert_eq!(code(&out), 0);
    let expected = r#"[
        [[{"GM":["1"]}],[
            [[{"B":["aa"]}],[
                [[{"W":["bb"]}],[]],
                [[{"W":["cc"]}],[]],
                [[{"W":["dd"]},{"B":["ee"]}],[]]
            ]],
            [[{"B":["ff"]}],[]]
        ]],
        [[{"GM":["1"]},{"B":["gg"]}],[]]
    ]"#;
    let expected: String = expected.split_whitespace().collect();
    assert_eq!(stdout(&out), expected + "\n");
}

#[test]
fn dump_values_unescaped_keys_in_file_order() {
    let dir = TempDir::new("dump-text");
    dir.write(
        "t.sgf",
        b"(;SZ[9]GM[1]AB[aa][bb]C[a\\]b]CoPyright[me]\
          N[soft \\\nbreak]GC[crlf \\\r\nsoft]PC[hard\r\nbreak]EV[tab\there \\\\ \"q\"]\
          B[]AB[cc])",
    );
    let out = sgf(&dir.0, &["dump", "t.sgf"], None);
    assert_eq!(code(&out), 0);
    assert_eq!(
        stdout(&out),
        concat!(
            r#"[[[{"SZ":["9"],"GM":["1"],"AB":["aa","bb","cc"],"C":["a]b"],"CP":["me"],"#,
            r#""N":["soft break"],"GC":["crlf soft"],"PC":["hard\r\nbreak"],"#,
            r#""EV":["tab\there \\ \"q\""],"B":[""]}],[]]]"#,
            "\n"
        )
    );
    // The warnings go to stderr, one line each.
    let err = stderr(&out);
    assert!(
        err.contains("t.sgf:1:30: warning[lowercase_in_ident]: lower-case letters in a property identifier dropped\n"),
        "{err}"
    );
    assert!(err.contains("warning[repeated_property]"), "{err}");
}

#[test]
fn dump_decodes_with_the_root_charset() {
    let dir = TempDir::new("dump-ca");
    // 中 is D6 D0 in GB2312; é is E9 in Latin-1.
    let mut input = b"(;CA[GB2312]C[\xD6\xD0];C[\xD6\xD0\xCE\xC4])".to_vec();
    input.extend_from_slice(b"(;C[\xD6\xD0])");
    input.extend_from_slice(b"(;CA[ISO-8859-1]PB[Ren\xE9])");
    input.extend_from_slice(b"(;CA[no-such-charset]PB[\xE4\xB8\xAD])");
    dir.write("ca.sgf", &input);
    let out = sgf(&dir.0, &["dump", "ca.sgf"], None);
    assert_eq!(code(&out), 0);
    let json: Json = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json[0][0][0]["C"][0], "中");
    assert_eq!(json[0][0][1]["C"][0], "中文");
    assert_eq!(json[0][0][0]["CA"][0], "GB2312");
    // No CA: the charset is detected from the game's bytes.
    assert_eq!(json[1][0][0]["C"][0], "中");
    assert_eq!(json[2][0][0]["PB"][0], "René");
    // An unknown charset falls back to UTF-8.
    assert_eq!(json[3][0][0]["PB"][0], "中");
}

/// The game of every value type `dump --typed` writes.
const TYPED: &str =
    "(;FF[4]GM[1]SZ[19:13]KM[6.5]HA[2]PL[W]AB[aa:ab]C[hi]DM[2]KO[]LB[dd:x];B[cd];W[])";

#[test]
fn dump_typed_writes_each_value_as_its_type() {
    let dir = TempDir::new("dump-typed");
    dir.write("t.sgf", TYPED);
    let out = sgf(&dir.0, &["dump", "--typed", "t.sgf"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
    assert_eq!(
        stdout(&out),
        concat!(
            r#"[[[{"FF":[4],"GM":[1],"SZ":[[19,13]],"KM":[6.5],"HA":[2],"PL":["W"],"#,
            r#""AB":[[0,0],[0,1]],"C":["hi"],"DM":[2],"KO":[null],"LB":[[[3,3],"x"]]},"#,
            r#"{"B":[[2,3]]},{"W":[null]}],[]]]"#,
            "\n"
        )
    );
    let json: Json = serde_json::from_str(&stdout(&out)).unwrap();
    let root = &json[0][0][0];
    assert_eq!(root["KM"][0].as_f64(), Some(6.5));
    assert!(root["HA"][0].is_u64());
    assert_eq!(root["SZ"][0], serde_json::json!([19, 13]));
    // `tt` is a pass up to 19x19 only.
    dir.write("big.sgf", "(;SZ[25];B[tt];W[])");
    let out = sgf(&dir.0, &["dump", "--typed", "big.sgf"], None);
    assert_eq!(
        stdout(&out),
        "[[[{\"SZ\":[25]},{\"B\":[[19,19]]},{\"W\":[null]}],[]]]\n"
    );
    // Without --typed, the same game is all strings.
    let out = sgf(&dir.0, &["dump", "t.sgf"], None);
    assert!(stdout(&out).starts_with(r#"[[[{"FF":["4"],"GM":["1"],"SZ":["19:13"],"KM":["6.5"]"#));
}

#[test]
fn dump_typed_square_board_integral_real_and_text() {
    let dir = TempDir::new("dump-typed-text");
    dir.write(
        "t.sgf",
        "(;SZ[9]KM[0]TR[aa][bb]VW[]C[a\\]b\\\nc\r\nd]PB[Lee\nSedol];B[tt]TM[+300])",
    );
    let out = sgf(&dir.0, &["dump", "--typed", "t.sgf"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        concat!(
            r#"[[[{"SZ":[9],"KM":[0],"TR":[[0,0],[1,1]],"VW":[],"C":["a]bc\nd"],"#,
            r#""PB":["Lee Sedol"]},{"B":[null],"TM":[300]}],[]]]"#,
            "\n"
        )
    );
}

#[test]
fn dump_typed_keeps_malformed_and_unknown_values_as_strings() {
    let dir = TempDir::new("dump-typed-bad");
    dir.write(
        "m.sgf",
        "(;GM[1]XX[a\\]b]\n;B[zz]C[x];W[dd]KM[abc]AB[aa][z9])",
    );
    let out = sgf(&dir.0, &["dump", "--typed", "m.sgf"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        concat!(
            r#"[[[{"GM":[1],"XX":["a]b"]},{"B":["zz"],"C":["x"]},"#,
            r#"{"W":[[3,3]],"KM":["abc"],"AB":["aa","z9"]}],[]]]"#,
            "\n"
        )
    );
    assert_eq!(
        stderr(&out),
        concat!(
            "m.sgf:2:4: warning[invalid_value]: malformed value for B: expected move\n",
            "m.sgf:2:20: warning[invalid_value]: malformed value for KM: expected real\n",
            "m.sgf:2:31: warning[invalid_value]: malformed value for AB: expected point\n",
        )
    );
}

/// `(;CA[Shift_JIS]C[表 a\]b])` in Shift_JIS: 表 is 0x95 0x5C, its second
/// byte a `\`.
const SHIFT_JIS_GAME: &[u8] = b"(;CA[Shift_JIS]C[\x95\x5c a\\]b]PB[\x95\x5c])";

#[test]
fn dump_decodes_shift_jis_before_unescaping() {
    let dir = TempDir::new("dump-sjis");
    dir.write("s.sgf", SHIFT_JIS_GAME);
    for args in [&["dump", "s.sgf"][..], &["dump", "--typed", "s.sgf"]] {
        let out = sgf(&dir.0, args, None);
        assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), "", "{args:?}");
        let json: Json = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(json[0][0][0]["C"][0], "表 a]b", "{args:?}");
        assert_eq!(json[0][0][0]["PB"][0], "表", "{args:?}");
    }
}

#[test]
fn dump_detects_gb2312_without_ca() {
    let dir = TempDir::new("dump-gb");
    // PB[中国]C[黑棋中盘胜] in GB2312, and no CA.
    dir.write(
        "g.sgf",
        b"(;GM[1]PB[\xd6\xd0\xb9\xfa]C[\xba\xda\xc6\xe5\xd6\xd0\xc5\xcc\xca\xa4];B[dd])",
    );
    for args in [&["dump", "g.sgf"][..], &["dump", "--typed", "g.sgf"]] {
        let out = sgf(&dir.0, args, None);
        assert_eq!(code(&out), 0, "{args:?}");
        let json: Json = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(json[0][0][0]["PB"][0], "中国", "{args:?}");
        assert_eq!(json[0][0][0]["C"][0], "黑棋中盘胜", "{args:?}");
    }
}

#[test]
fn charset_option_overrides_ca_and_detection() {
    let dir = TempDir::new("charset-option");
    // GB2312 bytes under a CA that says UTF-8.
    dir.write("g.sgf", b"(;GM[1]CA[UTF-8]PB[\xd6\xd0\xb9\xfa])");
    let out = sgf(&dir.0, &["dump", "g.sgf"], None);
    let json: Json = serde_json::from_str(&stdout(&out)).unwrap();
    assert_ne!(json[0][0][0]["PB"][0], "中国");
    for args in [
        &["dump", "--charset", "GB2312", "g.sgf"][..],
        &["dump", "--typed", "--charset", "gb2312", "g.sgf"],
    ] {
        let out = sgf(&dir.0, args, None);
        assert_eq!(code(&out), 0, "{args:?}");
        let json: Json = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(json[0][0][0]["PB"][0], "中国", "{args:?}");
    }
    let out = sgf(
        &dir.0,
        &["check", "--format", "json", "--charset", "GB2312", "g.sgf"],
        None,
    );
    assert_eq!(code(&out), 0);
    let lines = json_lines(&out);
    assert_eq!(lines[0]["charsets"], serde_json::json!({"GBK/override": 1}));
    assert_eq!(
        lines[1]["summary"]["charsets"],
        serde_json::json!({"GBK/override": 1})
    );
    assert_eq!(
        lines[1]["summary"]["declared_labels"],
        serde_json::json!({"UTF-8": 1})
    );

    // The override also decides how values split: 0x95 0x5C ends a
    // Shift_JIS character, not a `\]` escape; the written game records it.
    dir.write("s.sgf", b"(;C[\x95\x5c])");
    let out = sgf(&dir.0, &["fmt", "--charset", "Shift_JIS", "s.sgf"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(out.stdout, b"(;CA[Shift_JIS]C[\x95\x5c])\n");
    let out = sgf(&dir.0, &["dump", "--charset", "sjis", "s.sgf"], None);
    assert_eq!(stdout(&out), "[[[{\"C\":[\"表\"]}],[]]]\n");

    for cmd in ["dump", "fmt", "check"] {
        let out = sgf(&dir.0, &[cmd, "--charset", "klingon", "s.sgf"], None);
        assert_eq!(code(&out), 2, "{cmd}");
        assert!(out.stdout.is_empty(), "{cmd}");
        assert!(stderr(&out).contains("klingon"), "{cmd}: {}", stderr(&out));
    }
}

/// A folder with known charsets, value errors and unknown properties.
fn value_folder(name: &str) -> TempDir {
    let dir = TempDir::new(name);
    dir.write(
        "a.sgf",
        "(;FF[4]GM[1]CA[UTF-8]SZ[19]KM[six]XX[1]\n;B[dd];W[zz];B[ee]YY[2]XX[3])",
    );
    dir.write(
        "sub/b.sgf",
        b"(;GM[1]CA[ISO8859_1]PB[Ren\xe9]KM[6.5])\
          (;GM[1]PB[\xd6\xd0\xb9\xfa]C[\xba\xda\xc6\xe5\xd6\xd0\xc5\xcc\xca\xa4]KM[x])",
    );
    dir.write("c.sgf", "(;GM[1]CA[klingon]C[plain]TB[])");
    dir
}

#[test]
fn check_reports_charsets_value_errors_and_unknown_properties() {
    let dir = value_folder("check-values");
    let out = sgf(&dir.0, &["check", "--format", "json", "."], None);
    assert_eq!(code(&out), 0, "value errors are warnings");
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 4, "{}", stdout(&out));
    let a = &lines[0];
    assert_eq!(a["path"], Path::new(".").join("a.sgf").to_str().unwrap());
    assert_eq!(a["charsets"], serde_json::json!({"UTF-8/declared": 1}));
    assert_eq!(
        a["value_errors"],
        serde_json::json!([
            {"ident": "KM", "offset": 30, "line": 1, "column": 31,
             "message": "malformed value for KM: expected real"},
            {"ident": "W", "offset": 49, "line": 2, "column": 10,
             "message": "malformed value for W: expected move"},
        ])
    );
    assert_eq!(a["value_errors_dropped"], 0);
    let b = &lines[2];
    assert_eq!(b["games"], 2);
    // A count per charset, not a list per game.
    assert_eq!(
        b["charsets"],
        serde_json::json!({"gb18030/detected": 1, "windows-1252/declared": 1})
    );

    let summary = &lines[3]["summary"];
    assert_eq!(summary["mode"], "full");
    assert!(summary["value_seconds"].as_f64().unwrap() >= 0.0);
    assert_eq!(
        summary["charsets"],
        serde_json::json!({
            "UTF-8/declared": 1, "UTF-8/detected": 1,
            "gb18030/detected": 1, "windows-1252/declared": 1
        })
    );
    assert_eq!(
        summary["declared_labels"],
        serde_json::json!({"UTF-8": 1, "ISO8859_1": 1, "klingon": 1})
    );
    assert_eq!(
        summary["value_errors"],
        serde_json::json!({"KM": 2, "W": 1})
    );
    assert_eq!(
        summary["unknown_properties"],
        serde_json::json!({"XX": 2, "YY": 1})
    );

    // The text output: warnings with a caret, then the summary.
    let out = sgf(&dir.0, &["check", "."], None);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    let a = Path::new(".").join("a.sgf");
    let a = a.to_str().unwrap();
    assert!(
        text.starts_with(&format!(
            "{a}:1:31: warning[invalid_value]: malformed value for KM: expected real\n \
             1 | (;FF[4]GM[1]CA[UTF-8]SZ[19]KM[six]XX[1]\n   |                               ^\n\
             {a}:2:10: warning[invalid_value]: malformed value for W: expected move\n"
        )),
        "{text}"
    );
    for expected in [
        "\ncharsets: 4 games\n",
        "\n  UTF-8 declared: 1\n",
        "\n  windows-1252 declared: 1\n",
        "\n  CA[klingon]: 1\n",
        "\nvalue errors: 3\n  KM: 2\n  W: 1\n",
        "\nunknown properties: 3 (2 identifiers)\n  XX: 2\n  YY: 1\n",
    ] {
        assert!(text.contains(expected), "{expected:?} in {text}");
    }
    assert!(
        text.contains("gb18030 detected (mean confidence "),
        "{text}"
    );
    assert!(!text.contains("structure only"), "{text}");

    // -q hides the value warnings but still counts them.
    let out = sgf(&dir.0, &["check", "-q", "."], None);
    let text = stdout(&out);
    assert!(!text.contains("warning[invalid_value]"), "{text}");
    assert!(text.contains("\nvalue errors: 3\n"), "{text}");
}

#[test]
fn check_value_warnings_are_capped_per_file() {
    let dir = TempDir::new("check-values-cap");
    let moves: String = (0..8).map(|_| ";B[zz]").collect();
    dir.write("m.sgf", format!("(;GM[1]{moves})"));
    let out = sgf(&dir.0, &["check", "m.sgf"], None);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    assert_eq!(text.matches("warning[invalid_value]").count(), 5, "{text}");
    assert!(
        text.contains("m.sgf: note: 3 more malformed values not shown\n"),
        "{text}"
    );
    assert!(text.contains("\nvalue errors: 8\n  B: 8\n"), "{text}");
}

#[test]
fn check_structure_only_skips_the_value_pass() {
    let dir = value_folder("check-structure");
    let out = sgf(
        &dir.0,
        &["check", "--structure-only", "--format", "json", "."],
        None,
    );
    assert_eq!(code(&out), 0);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 4);
    for line in &lines[..3] {
        assert!(line.get("charsets").is_none(), "{line}");
        assert!(line.get("value_errors").is_none(), "{line}");
    }
    let summary = &lines[3]["summary"];
    assert_eq!(summary["mode"], "structure");
    assert_eq!(summary["games"], 4);
    for key in [
        "charsets",
        "declared_labels",
        "value_errors",
        "unknown_properties",
        "value_seconds",
    ] {
        assert!(summary.get(key).is_none(), "{key} in {summary}");
    }

    let out = sgf(&dir.0, &["check", "--structure-only", "."], None);
    let text = stdout(&out);
    assert!(!text.contains("invalid_value"), "{text}");
    assert!(!text.contains("charsets:"), "{text}");
    assert!(!text.contains("value errors:"), "{text}");
    assert!(text.contains("MB/s, structure only)"), "{text}");
    let out = sgf(&dir.0, &["check", "."], None);
    assert!(stdout(&out).contains("MB/s full check"));
}

#[test]
fn dump_and_fmt_read_stdin() {
    let dir = TempDir::new("stdin");
    let out = sgf(&dir.0, &["dump", "-"], Some(b"(;GM[1];B[aa])"));
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "[[[{\"GM\":[\"1\"]},{\"B\":[\"aa\"]}],[]]]\n");

    let out = sgf(&dir.0, &["fmt", "-"], Some(b"(;GM[1];B[aa]"));
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "(;GM[1];B[aa])\n");
    assert_eq!(
        stderr(&out),
        "<stdin>:1:14: warning[unclosed_game_tree]: game tree not closed at end of input\n"
    );
}

#[test]
fn dump_and_fmt_fail_with_exit_1_on_no_game() {
    let dir = TempDir::new("dump-fail");
    dir.write("n.sgf", "nothing here");
    for cmd in ["dump", "fmt"] {
        let out = sgf(&dir.0, &[cmd, "n.sgf"], None);
        assert_eq!(code(&out), 1, "{cmd}");
        assert!(out.stdout.is_empty(), "{cmd}");
        assert!(
            stderr(&out).starts_with(
                "n.sgf:1:13: error[no_game_tree]: no SGF game tree found in the input\n"
            ),
            "{cmd}: {}",
            stderr(&out)
        );
    }
    dir.write("r.sgf", REPEATED);
    let out = sgf(&dir.0, &["dump", "--strict", "r.sgf"], None);
    assert_eq!(code(&out), 1);
}

// ---------------------------------------------------------------- fmt

#[test]
fn fmt_writes_normalised_sgf() {
    let dir = TempDir::new("fmt");
    dir.write(
        "f.sgf",
        "header text\n(;GM[1]CoPyright[x]  AB[aa]AB[bb]\n;B[cc](;W[dd])(;W[ee]C[a\\]b]))(;GM[1])",
    );
    let out = sgf(&dir.0, &["fmt", "f.sgf"], None);
    assert_eq!(code(&out), 0);
    assert_eq!(
        stdout(&out),
        "(;GM[1]CP[x]AB[aa][bb];B[cc](;W[dd])(;W[ee]C[a\\]b]))\n(;GM[1])\n"
    );
    let err = stderr(&out);
    assert_eq!(
        err.lines().collect::<Vec<_>>(),
        [
            "f.sgf:1:1: warning[junk_before_game]: text before the first game tree skipped",
            "f.sgf:2:8: warning[lowercase_in_ident]: lower-case letters in a property identifier dropped",
            "f.sgf:2:28: warning[repeated_property]: property repeated in a node; values merged",
        ]
    );
}

// ---------------------------------------------------------------- depth, pipes

/// `(;GM[1](;B[aa])(;W[bb](;B[aa])(;W[bb]…)))`: variations nested `depth`
/// deep, each level with two children.
fn nested_variations(depth: usize) -> String {
    let mut s = String::from("(;GM[1]");
    for _ in 0..depth {
        s.push_str("(;B[aa])(;W[bb]");
    }
    s.push_str(&")".repeat(depth + 1));
    s
}

#[test]
fn deep_variations_through_dump_and_fmt() {
    const DEPTH: usize = 100_000;
    let dir = TempDir::new("deep");
    let input = nested_variations(DEPTH);
    dir.write("deep.sgf", &input);

    let out = sgf(&dir.0, &["fmt", "deep.sgf"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        out.stdout == format!("{input}\n").as_bytes(),
        "fmt output differs"
    );

    let out = sgf(&dir.0, &["dump", "deep.sgf"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let leaf_b = r#"[[{"B":["aa"]}],[]]"#;
    let mut expected = String::from(r#"[[[{"GM":["1"]}],["#);
    for _ in 0..DEPTH - 1 {
        expected.push_str(leaf_b);
        expected.push_str(r#",[[{"W":["bb"]}],["#);
    }
    expected.push_str(leaf_b);
    expected.push_str(r#",[[{"W":["bb"]}],[]]"#);
    expected.push_str(&"]]".repeat(DEPTH));
    expected.push_str("]\n");
    assert!(out.stdout == expected.as_bytes(), "dump output differs");

    // A single line of play as deep, through a pipe from stdin.
    let mut line = String::from("(;GM[1]");
    for _ in 0..DEPTH {
        line.push_str("(;B[aa]");
    }
    line.push_str(&")".repeat(DEPTH + 1));
    let out = sgf(&dir.0, &["dump", "-"], Some(line.as_bytes()));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let mut expected = String::from(r#"[[[{"GM":["1"]}"#);
    expected.push_str(&r#",{"B":["aa"]}"#.repeat(DEPTH));
    expected.push_str("],[]]]\n");
    assert!(
        out.stdout == expected.as_bytes(),
        "dump of a long line differs"
    );
}

#[test]
fn closed_stdout_exits_0_quietly() {
    let dir = TempDir::new("pipe");
    // Megabytes of output: far more than a pipe buffer holds.
    dir.write("deep.sgf", nested_variations(50_000));
    for cmd in ["dump", "fmt"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sgf"))
            .args([cmd, "deep.sgf"])
            .current_dir(&dir.0)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut head = [0u8; 10];
        child.stdout.take().unwrap().read_exact(&mut head).unwrap();
        // The read end is closed here, like `| head -c 10`.
        let out = child.wait_with_output().unwrap();
        assert_eq!(code(&out), 0, "{cmd}");
        assert!(out.stderr.is_empty(), "{cmd}: {}", stderr(&out));
        assert!(head.starts_with(if cmd == "dump" { b"[[[{" } else { b"(;GM[1](" }));
    }
}

// ---------------------------------------------------------------- features

/// The library alone is the default: depending on `sgf-grove` does not
/// build clap, serde or the binary.
#[test]
fn default_features_leave_the_cli_out() {
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
            .expect("Cargo.toml");
    let features = manifest
        .split("\n[features]\n")
        .nth(1)
        .expect("a [features] table");
    let default = features
        .lines()
        .find(|l| l.starts_with("default"))
        .expect("a default feature list");
    assert_eq!(default.replace(' ', ""), "default=[]", "{default}");
    let cli = features.lines().find(|l| l.starts_with("cli")).unwrap();
    for dep in ["dep:clap", "dep:serde", "dep:serde_json"] {
        assert!(cli.contains(dep), "{cli}");
    }
}

// ---------------------------------------------------------------- inputs

/// Runs `cmd` with its output sent to files, and fails the test (killing
/// the child) when it has not ended after `secs` seconds: the cases below
/// used to hang or to allocate without bound.
fn run_deadline(mut cmd: Command, scratch: &Path, secs: u64) -> Output {
    std::fs::create_dir_all(scratch).unwrap();
    let (out_path, err_path) = (scratch.join("stdout"), scratch.join("stderr"));
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .expect("run");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{cmd:?} still running after {secs} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    Output {
        status,
        stdout: std::fs::read(out_path).unwrap(),
        stderr: std::fs::read(err_path).unwrap(),
    }
}

/// `sgf args…` in `dir`, with a deadline.
fn sgf_deadline(dir: &Path, args: &[&str], secs: u64) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sgf"));
    cmd.args(args).current_dir(dir);
    run_deadline(cmd, &dir.join(".out"), secs)
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// A FIFO named `x.sgf` in a folder used to hang `check` for ever, and a
/// link to `/dev/zero` to abort it; both are skipped and listed now, as are
/// links that lead nowhere or in a loop.
#[cfg(unix)]
#[test]
fn check_folder_walk_skips_what_is_not_a_regular_file() {
    use std::os::unix::fs::symlink;
    let dir = TempDir::new("walk-special");
    dir.write("games/ok.sgf", "(;GM[1];B[aa])");
    // Outside the folder: in it, it would be taken by its first bytes.
    dir.write("other/real.txt", "(;GM[1];B[aa];W[bb])");
    mkfifo(&dir.0.join("games/x.sgf"));
    symlink("/dev/zero", dir.0.join("games/zero.sgf")).unwrap();
    symlink("loop.sgf", dir.0.join("games/loop.sgf")).unwrap();
    symlink("nowhere", dir.0.join("games/broken.sgf")).unwrap();
    // A link to a regular file is taken.
    symlink("../other/real.txt", dir.0.join("games/link.sgf")).unwrap();

    let out = sgf_deadline(&dir.0, &["check", "games"], 60);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.contains(
            "\nfiles:    2 (2 ok, 0 failed)\n\
             skipped:  4 not regular files\n  \
             games/broken.sgf (broken symlink)\n  \
             games/loop.sgf (symlink loop)\n  \
             games/x.sgf (fifo)\n  \
             games/zero.sgf (character device)\n\
             games:    2\n\
             nodes:    5\n"
        ),
        "{text}"
    );

    let out = sgf_deadline(&dir.0, &["check", "--format", "json", "games"], 60);
    assert_eq!(code(&out), 0);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 3);
    let summary = &lines[2]["summary"];
    assert_eq!(summary["files"], 2);
    assert_eq!(summary["skipped"], 4);
    assert_eq!(
        summary["skipped_paths"],
        serde_json::json!([
            {"path": "games/broken.sgf", "kind": "broken symlink"},
            {"path": "games/loop.sgf", "kind": "symlink loop"},
            {"path": "games/x.sgf", "kind": "fifo"},
            {"path": "games/zero.sgf", "kind": "character device"},
        ])
    );
}

/// Named on the command line, a device is read as a stream: `/dev/zero` is
/// refused after its first chunk instead of filling memory.
#[cfg(target_os = "linux")]
#[test]
fn named_dev_zero_is_refused_after_one_chunk() {
    let dir = TempDir::new("dev-zero");
    let out = sgf_deadline(&dir.0, &["check", "/dev/zero"], 60);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(
        text.starts_with("/dev/zero: error[not_sgf_text]: binary data; not SGF text\n"),
        "{text}"
    );
    assert!(text.contains("  /dev/zero (not_sgf_text)\n"), "{text}");
    for cmd in ["dump", "fmt"] {
        let out = sgf_deadline(&dir.0, &[cmd, "/dev/zero"], 60);
        assert_eq!(code(&out), 1, "{cmd}");
        assert!(out.stdout.is_empty(), "{cmd}");
        assert_eq!(
            stderr(&out),
            "/dev/zero: error[not_sgf_text]: binary data; not SGF text\n"
        );
    }
}

/// Named on the command line, a FIFO is read to its end like a pipe.
#[cfg(unix)]
#[test]
fn named_fifo_is_read_as_a_stream() {
    let dir = TempDir::new("named-fifo");
    let fifo = dir.0.join("live.sgf");
    mkfifo(&fifo);
    let writer = std::thread::spawn(move || {
        // Blocks until `sgf` opens the other end.
        let mut end = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
        end.write_all(b"(;GM[1];B[aa];W[bb])").unwrap();
    });
    let out = sgf_deadline(&dir.0, &["check", "--format", "json", "live.sgf"], 60);
    writer.join().unwrap();
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let lines = json_lines(&out);
    assert_eq!(lines[0]["path"], "live.sgf");
    assert_eq!(lines[0]["nodes"], 3);
}

/// `sgf check PATH` on a folder holding no SGF file says so and fails.
#[test]
fn check_folder_without_sgf_files_fails() {
    let dir = TempDir::new("empty-folder");
    std::fs::create_dir_all(dir.0.join("empty")).unwrap();
    dir.write("notes/readme.txt", "notes, no game");
    dir.write("games/a.sgf", "(;GM[1])");
    let out = sgf(&dir.0, &["check", "empty"], None);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(
        text.starts_with("empty: error[no_sgf_files]: no SGF files in this folder\n"),
        "{text}"
    );
    assert!(text.contains("  empty (no_sgf_files)\n"), "{text}");

    // With another folder that has games, the empty one still fails.
    let out = sgf(
        &dir.0,
        &["check", "--format", "json", "notes", "games"],
        None,
    );
    assert_eq!(code(&out), 1);
    let lines = json_lines(&out);
    assert_eq!(lines[0]["path"], "games/a.sgf");
    assert_eq!(lines[1]["path"], "notes");
    assert_eq!(lines[1]["error"]["kind"], "no_sgf_files");
    assert_eq!(lines[2]["summary"]["failed"], 1);
}

/// `-` is standard input for `check` too.
#[test]
fn check_reads_stdin() {
    let dir = TempDir::new("check-stdin");
    dir.write("a.sgf", "(;GM[1])");
    let out = sgf(
        &dir.0,
        &["check", "--format", "json", "-", "a.sgf"],
        Some(b"(;GM[1];B[aa]B[bb])"),
    );
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let lines = json_lines(&out);
    assert_eq!(lines[0]["path"], "<stdin>");
    assert_eq!(lines[0]["nodes"], 2);
    assert_eq!(lines[0]["warnings"][0]["kind"], "repeated_property");
    assert_eq!(lines[1]["path"], "a.sgf");
    assert_eq!(lines[2]["summary"]["files"], 2);

    let out = sgf(&dir.0, &["check", "-"], Some(b"no game"));
    assert_eq!(code(&out), 1);
    assert!(stdout(&out).starts_with("<stdin>:1:8: error[no_game_tree]"));
}

/// Runs `sgf args…` in `dir` with its address space limited to `kib`.
#[cfg(target_os = "linux")]
fn sgf_limited(dir: &Path, kib: u32, args: &[&str]) -> Output {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_sgf"))
        .args(args)
        .current_dir(dir);
    run_deadline(cmd, &dir.join(".out"), 300)
}

/// `dump --typed` of 2,000 rectangles `[aa:ZZ]` on a 52×52 board (5.4
/// million points) once collected every point before writing (170 MB and
/// more); it writes them as they are decoded now, within 100 MB of address
/// space.
#[cfg(target_os = "linux")]
#[test]
fn dump_typed_streams_a_huge_point_list() {
    let dir = TempDir::new("dump-rects");
    let input = format!("(;SZ[52]AB{})", "[aa:ZZ]".repeat(2000));
    dir.write("r.sgf", &input);
    let out = sgf_limited(&dir.0, 100_000, &["dump", "--typed", "r.sgf"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let points = 2000 * 52 * 52;
    assert!(out
        .stdout
        .starts_with(br#"[[[{"SZ":[52],"AB":[[0,0],[1,0],"#));
    assert!(out.stdout.ends_with(b"[50,51],[51,51]]}],[]]]\n"));
    let commas = out.stdout.iter().filter(|&&b| b == b',').count();
    // Two per point (inside and between), less the last, plus the node's.
    assert_eq!(commas, 2 * points - 1 + 1 + 1);
}

/// `fmt` of 500,000 games writes each as it is parsed: the arena holds one
/// game, and the whole run fits in 40 MB of address space (it took 64 MB of
/// memory when the collection was parsed whole).
#[cfg(target_os = "linux")]
#[test]
fn fmt_and_dump_write_game_by_game() {
    let dir = TempDir::new("fmt-many");
    let game = "(;GM[1];B[aa];W[bb])\n";
    dir.write("many.sgf", game.repeat(500_000));
    // One thread: each worker thread reserves address space of its own
    // (the bound of `-j N` is on resident memory, tests/integration/big_input.rs).
    let out = sgf_limited(&dir.0, 40_000, &["fmt", "-j", "1", "many.sgf"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(out.stdout == game.repeat(500_000).as_bytes());
    let out = sgf_limited(&dir.0, 40_000, &["dump", "-j", "1", "many.sgf"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let one = r#"[[{"GM":["1"]},{"B":["aa"]},{"W":["bb"]}],[]]"#;
    let expected = format!("[{}]\n", vec![one; 500_000].join(","));
    assert!(out.stdout == expected.as_bytes());
}

/// In strict mode a defect in a later game stops the output at that game:
/// the input is read once, as a stream, so the games before it are written
/// (they were held back until the whole input was checked when it was read
/// whole), and `dump` leaves its array unclosed.
#[test]
fn strict_fmt_and_dump_stop_at_the_game_that_fails() {
    let dir = TempDir::new("strict-later");
    let input = "(;GM[1];B[aa])\n(;GM[1];B[aa]B[bb])\n(;GM[1];W[cc])";
    dir.write("s.sgf", input);
    for (cmd, before) in [
        ("fmt", "(;GM[1];B[aa])\n"),
        ("dump", r#"[[[{"GM":["1"]},{"B":["aa"]}],[]]"#),
    ] {
        for out in [
            sgf(&dir.0, &[cmd, "--strict", "s.sgf"], None),
            sgf(&dir.0, &[cmd, "--strict", "-"], Some(input.as_bytes())),
        ] {
            assert_eq!(code(&out), 1, "{cmd}");
            assert_eq!(stdout(&out), before, "{cmd}");
            let err = stderr(&out);
            let (name, err) = err.split_once(':').unwrap();
            assert!(name == "s.sgf" || name == "<stdin>", "{cmd}: {name}");
            // The line is shown when it can be read again: from a plain
            // file, not from a pipe.
            let snippet = match name {
                "s.sgf" => " 2 | (;GM[1];B[aa]B[bb])\n   |              ^\n",
                _ => "",
            };
            assert_eq!(
                err,
                format!(
                    "2:14: error[repeated_property]: property repeated in a node; values merged \
                     (strict mode)\n{snippet}"
                ),
                "{cmd}"
            );
        }
        // A defect in the first game: nothing is written.
        let out = sgf(&dir.0, &[cmd, "--strict", "-"], Some(b"(;GM[1]B[aa]B[bb])"));
        assert_eq!(code(&out), 1, "{cmd}");
        assert!(out.stdout.is_empty(), "{cmd}: {}", stdout(&out));
        // Lenient, every game is written.
        let out = sgf(&dir.0, &[cmd, "s.sgf"], None);
        assert_eq!(code(&out), 0, "{cmd}");
        assert_eq!(stdout(&out).matches("GM").count(), 3, "{cmd}");
    }
    // A strict run with no defect writes it all.
    dir.write("ok.sgf", "(;GM[1];B[aa])(;GM[1];W[bb])");
    let out = sgf(&dir.0, &["dump", "--strict", "ok.sgf"], None);
    assert_eq!(code(&out), 0);
    assert_eq!(
        stdout(&out),
        "[[[{\"GM\":[\"1\"]},{\"B\":[\"aa\"]}],[]],[[{\"GM\":[\"1\"]},{\"W\":[\"bb\"]}],[]]]\n"
    );
}

/// Games with warnings and malformed values in several of them, junk
/// between them and after the last.
const MULTI: &str = "(;GM[1]KM[x];B[aa]B[bb])\njunk here\n(;GM[1];W[cc]W[dd])\n\
                     (;GM[1]\n;B[zz]XX[1];W[ee]W[ff]\n)  tail";

/// `check -` reads standard input as a stream, game by game: the same
/// counts, the same warning lines and the same JSON as `check FILE`.
#[test]
fn check_stdin_stream_reports_as_the_file() {
    let dir = TempDir::new("stdin-same");
    dir.write("m.sgf", MULTI);
    let file = sgf(&dir.0, &["check", "m.sgf"], None);
    let pipe = sgf(&dir.0, &["check", "-"], Some(MULTI.as_bytes()));
    assert_eq!(code(&file), 0);
    assert_eq!(code(&pipe), 0);
    let without_time = |out: &Output, name: &str| -> String {
        stdout(out)
            .lines()
            .filter(|l| !l.starts_with("time:"))
            .map(|l| l.replace(name, "NAME") + "\n")
            .collect()
    };
    let text = without_time(&file, "m.sgf");
    assert_eq!(text, without_time(&pipe, "<stdin>"));
    // Each game's warnings, then its malformed values, as the game is read.
    let headlines: Vec<&str> = text.lines().filter(|l| l.starts_with("NAME:")).collect();
    assert_eq!(
        headlines,
        [
            "NAME:1:19: warning[repeated_property]: property repeated in a node; values merged",
            "NAME:1:11: warning[invalid_value]: malformed value for KM: expected real",
            "NAME:2:1: warning[junk_after_game]: text outside any game tree skipped",
            "NAME:3:14: warning[repeated_property]: property repeated in a node; values merged",
            "NAME:5:18: warning[repeated_property]: property repeated in a node; values merged",
            "NAME:5:4: warning[invalid_value]: malformed value for B: expected move",
            "NAME:6:4: warning[junk_after_game]: text outside any game tree skipped",
        ]
    );
    // The junk after the last game: its line starts in the game before.
    assert!(text.contains("\n 6 | )  tail\n   |    ^\n"), "{text}");
    for expected in [
        "\ngames:    3\n",
        "\nnodes:    7\n",
        &format!("\nbytes:    {} ", MULTI.len()),
        "\nwarnings: 5\n  junk_after_game: 2\n  repeated_property: 3\n",
        "\nvalue errors: 2\n",
    ] {
        assert!(text.contains(expected), "{expected:?} in {text}");
    }

    let file = sgf(&dir.0, &["check", "--format", "json", "m.sgf"], None);
    let pipe = sgf(
        &dir.0,
        &["check", "--format", "json", "-"],
        Some(MULTI.as_bytes()),
    );
    let (mut file, mut pipe) = (json_lines(&file), json_lines(&pipe));
    assert_eq!(file[0]["path"], "m.sgf");
    assert_eq!(pipe[0]["path"], "<stdin>");
    for lines in [&mut file, &mut pipe] {
        lines[0]["path"] = Json::Null;
        for key in ["seconds", "value_seconds"] {
            lines[1]["summary"][key] = Json::Null;
        }
    }
    assert_eq!(file, pipe);
    let line = &file[0];
    assert_eq!(
        (line["games"].as_u64(), line["nodes"].as_u64()),
        (Some(3), Some(7))
    );
    assert_eq!(line["warnings"].as_array().unwrap().len(), 5);
    assert_eq!(line["warnings"][4]["offset"], MULTI.len() - 4);
    let games_by_charset: u64 = line["charsets"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(games_by_charset, 3);
    assert_eq!(line["value_errors"][1]["offset"], 66);
}

/// The JSON line of a file lists its first 10,000 warnings and counts the
/// rest as dropped; the text output prints the first 1,000 (all of them
/// with `--max-messages`) as they come, and the summary counts them all by
/// kind.
#[test]
fn check_json_lists_10000_warnings_of_a_file() {
    let dir = TempDir::new("warning-cap");
    dir.write("w.sgf", "(;GM[1]B[aa]B[bb])\n".repeat(12_000));
    let out = sgf(&dir.0, &["check", "--format", "json", "w.sgf"], None);
    assert_eq!(code(&out), 0);
    let lines = json_lines(&out);
    assert_eq!(lines[0]["games"], 12_000);
    assert_eq!(lines[0]["warnings"].as_array().unwrap().len(), 10_000);
    assert_eq!(lines[0]["warnings"][9_999]["line"], 10_000);
    assert_eq!(lines[0]["warnings_dropped"], 2_000);
    let summary = &lines[1]["summary"];
    assert_eq!(summary["warnings"]["repeated_property"], 12_000);
    assert_eq!(summary["warnings_dropped"], 0);

    // By default the text output stops at 1,000 messages and says so.
    let out = sgf(
        &dir.0,
        &["check", "-"],
        Some("(;GM[1]B[aa]B[bb])\n".repeat(12_000).as_bytes()),
    );
    let text = stdout(&out);
    assert_eq!(text.matches("warning[repeated_property]").count(), 1_000);
    assert!(text.contains("\nwarnings: 12,000\n  repeated_property: 12,000\n"));
    assert!(text.contains("messages: 1,000 printed, not printed: 11,000 over --max-messages 1000"));

    let out = sgf(
        &dir.0,
        &["check", "--max-messages", "100000", "-"],
        Some("(;GM[1]B[aa]B[bb])\n".repeat(12_000).as_bytes()),
    );
    let text = stdout(&out);
    assert_eq!(text.matches("warning[repeated_property]").count(), 12_000);
    assert!(
        text.contains("\n<stdin>:12000:13: warning[repeated_property]"),
        "{}",
        &text[text.len() - 600..]
    );
    assert!(text.contains("\nwarnings: 12,000\n  repeated_property: 12,000\n"));
    assert!(!text.contains("not kept"));
}

/// A warning in the third game of a stream whose first two games are
/// large: the parser holds only the third game by then, and the line,
/// column and offset are still those of the whole stream, the snippet
/// that game's line.
#[test]
fn check_positions_in_a_later_game_of_a_stream_are_the_streams() {
    let dir = TempDir::new("stream-pos");
    // Two games of 1.5 MB each, over many lines.
    let big = |player: &str| {
        let comment = "a comment line\n".repeat(100_000);
        format!("(;GM[1]PB[{player}]C[{comment}];B[aa])\n")
    };
    let mut input = big("one") + &big("two");
    let lines_before = input.matches('\n').count();
    input.push_str("(;GM[1]\n;B[dd]C[x]B[ee]\n;W[zz])\n");
    let offset = input.find("B[ee]").unwrap();
    dir.write("big.sgf", &input);
    let line = lines_before + 2;
    let headline = format!(
        "{line}:11: warning[repeated_property]: property repeated in a node; values merged"
    );
    let snippet = format!(
        " {line} | ;B[dd]C[x]B[ee]\n {} |           ^\n",
        " ".repeat(line.to_string().len())
    );
    for out in [
        sgf(&dir.0, &["check", "-"], Some(input.as_bytes())),
        sgf(&dir.0, &["check", "big.sgf"], None),
    ] {
        assert_eq!(code(&out), 0, "{}", stdout(&out));
        let text = stdout(&out);
        let (name, rest) = text.split_once(':').unwrap();
        assert!(name == "<stdin>" || name == "big.sgf", "{text}");
        assert!(
            rest.starts_with(&format!("{headline}\n{snippet}")),
            "{text}"
        );
        assert!(text.contains("\ngames:    3\n"), "{text}");
    }
    let out = sgf(
        &dir.0,
        &["check", "--format", "json", "-"],
        Some(input.as_bytes()),
    );
    let lines = json_lines(&out);
    let warning = &lines[0]["warnings"][0];
    assert_eq!(warning["offset"], offset);
    assert_eq!(warning["line"], line);
    assert_eq!(warning["column"], 11);
    assert_eq!(lines[0]["bytes"], input.len());
}

/// Games on one line: when the stream has moved past the start of the line
/// a warning is on, the line is shown from where the parser's window
/// starts (the game's start), marked `...`, with the caret still under the
/// column; a file is read again there and shows the bytes before.
#[test]
fn check_snippet_of_a_line_that_starts_before_the_window() {
    let dir = TempDir::new("stream-line");
    let first = format!("(;GM[1]C[{}])", "x".repeat(1_500_000));
    let third = format!("(;GM[1]B[aa]B[bb]C[{}])", "y".repeat(1_500_000));
    let input = format!("{first}(;GM[1]){third}\n");
    let column = first.len() + "(;GM[1])".len() + "(;GM[1]B[aa]".len() + 1;
    dir.write("line.sgf", &input);
    let headline = format!(
        "1:{column}: warning[repeated_property]: property repeated in a node; values merged\n"
    );
    let out = sgf(&dir.0, &["check", "-"], Some(input.as_bytes()));
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    // 120 bytes from the window's start; the caret under `B[bb]`.
    let shown = &third[..120];
    assert!(
        text.starts_with(&format!(
            "<stdin>:{headline} 1 | ...{shown}...\n   | {}^\n",
            " ".repeat(3 + "(;GM[1]B[aa]".len())
        )),
        "{}",
        &text[..text.len().min(600)]
    );
    let out = sgf(&dir.0, &["check", "line.sgf"], None);
    let text = stdout(&out);
    let before = format!("{}])(;GM[1])(;GM[1]B[aa]", "x".repeat(60 - 22));
    let after = format!("B[bb]C[{}", "y".repeat(120 - 60 - 7));
    assert!(
        text.starts_with(&format!(
            "line.sgf:{headline} 1 | ...{before}{after}...\n   | {}^\n",
            " ".repeat(63)
        )),
        "{}",
        &text[..text.len().min(600)]
    );
}

/// The first bytes of each kind of file that is not SGF text, written by
/// hand from each format's specification, each followed by a game that the
/// lenient parser would otherwise find.
fn not_sgf() -> Vec<(&'static str, Vec<u8>, &'static str)> {
    let mut tar = vec![0u8; 512];
    tar[..9].copy_from_slice(b"games.sgf");
    tar[257..263].copy_from_slice(b"ustar\0");
    let mut elf = b"\x7fELF\x02\x01\x01\x00".to_vec();
    elf.resize(64, 0);
    let mut binary = vec![0u8; 2048];
    binary[100..108].copy_from_slice(b"B[aa]C[x");
    // Random bytes with a game's start inside their first kilobyte.
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut random: Vec<u8> = (0..4096)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    random[200..214].copy_from_slice(b"(;GM[1];B[aa])");
    let files = [
        (
            "gz.sgf",
            b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03".to_vec(),
            "gzip data",
        ),
        ("bz2.sgf", b"BZh91AY&SY".to_vec(), "bzip2 data"),
        ("xz.sgf", b"\xfd7zXZ\x00\x00\x04".to_vec(), "xz data"),
        ("zst.sgf", b"\x28\xb5\x2f\xfd\x24\x00".to_vec(), "zstd data"),
        (
            "zip.sgf",
            b"PK\x03\x04\x14\x00\x00\x00".to_vec(),
            "zip archive",
        ),
        (
            "7z.sgf",
            b"7z\xbc\xaf\x27\x1c\x00\x04".to_vec(),
            "7z archive",
        ),
        ("tar.sgf", tar, "tar archive"),
        ("elf.sgf", elf, "ELF executable"),
        ("bin.sgf", binary, "binary data"),
        ("random.sgf", random, "binary data"),
    ];
    files
        .into_iter()
        .map(|(name, mut bytes, what)| {
            bytes.extend_from_slice(b"(;GM[1];B[aa])");
            (name, bytes, what)
        })
        .collect()
}

/// Compressed data and archives are read by their content whatever their
/// name (these are cut after their first bytes, so each fails as corrupt,
/// naming its format); executables and other binary data are refused by
/// name. `dump` and `fmt` read them as `check` does.
#[test]
fn check_opens_compressed_data_and_archives_and_refuses_binaries() {
    let dir = TempDir::new("not-sgf");
    let files = not_sgf();
    for (name, bytes, _) in &files {
        dir.write(&format!("in/{name}"), bytes);
    }
    let out = sgf(&dir.0, &["check", "--format", "json", "in"], None);
    assert_eq!(code(&out), 1);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), files.len() + 1);
    for line in &lines[..files.len()] {
        let path = line["path"].as_str().unwrap();
        let (_, _, what) = files
            .iter()
            .find(|(name, _, _)| path == format!("in/{name}"))
            .unwrap();
        let error = &line["error"];
        if matches!(*what, "ELF executable" | "binary data") {
            assert_eq!(
                *error,
                serde_json::json!({
                    "kind": "not_sgf_text", "offset": null, "line": null, "column": null,
                    "message": format!("{what}; not SGF text"),
                }),
                "{path}"
            );
        } else {
            assert_eq!(error["kind"], "corrupt_input", "{path}");
            let message = error["message"].as_str().unwrap();
            assert!(
                message.starts_with(&format!("corrupt {what}: ")),
                "{message}"
            );
        }
        assert_eq!(line["games"], 0);
    }
    assert_eq!(lines[files.len()]["summary"]["failed"], files.len());

    let out = sgf(&dir.0, &["check", "in/gz.sgf"], None);
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out).starts_with(
            "in/gz.sgf: error[corrupt_input]: corrupt gzip data: corrupt deflate stream\n"
        ),
        "{}",
        stdout(&out)
    );
    // `dump` and `fmt` read inputs as `check` does: the zip is opened,
    // and found cut short.
    for cmd in ["dump", "fmt"] {
        let out = sgf(&dir.0, &[cmd, "in/zip.sgf"], None);
        assert_eq!(code(&out), 1);
        assert!(out.stdout.is_empty());
        assert!(
            stderr(&out).starts_with("in/zip.sgf: error[corrupt_input]: corrupt zip archive"),
            "{}",
            stderr(&out)
        );
    }
}

/// `sgf check /usr/bin/ls` found a "game" in the executable and exited 0.
#[cfg(unix)]
#[test]
fn check_an_executable_fails() {
    let dir = TempDir::new("exe");
    let ls = Path::new("/usr/bin/ls");
    if !ls.exists() {
        crate::common::skipped("no /usr/bin/ls on this machine");
        return;
    }
    let out = sgf(&dir.0, &["check", "/usr/bin/ls"], None);
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out)
            .starts_with("/usr/bin/ls: error[not_sgf_text]: ELF executable; not SGF text\n"),
        "{}",
        stdout(&out)
    );
}

fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
    text.encode_utf16()
        .flat_map(|u| {
            if big_endian {
                u.to_be_bytes()
            } else {
                u.to_le_bytes()
            }
        })
        .collect()
}

/// UTF-16 input is decoded, said so, and parsed; its text is read as the
/// UTF-8 it has become, whatever its `CA`.
#[test]
fn utf16_input_is_decoded_with_a_warning() {
    let dir = TempDir::new("utf16");
    let game = "(;GM[1]CA[UTF-16]PB[李昌镐]C[中文];B[aa])";
    dir.write("le.sgf", utf16(&format!("\u{feff}{game}"), false));
    dir.write("be.sgf", utf16(game, true));
    let out = sgf(&dir.0, &["check", "le.sgf", "be.sgf"], None);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let text = stdout(&out);
    for (file, endian) in [("be.sgf", "BE"), ("le.sgf", "LE")] {
        assert!(
            text.contains(&format!(
                "{file}: warning[utf16_input]: UTF-16{endian} text decoded to UTF-8 before \
                 parsing; positions are in the decoded text\n\
                 {file}:1:11: warning[unusable_charset]: "
            )),
            "{text}"
        );
    }
    // `CA[UTF-16]` cannot be right for text the parser reads as bytes.
    assert!(
        text.contains("\nwarnings: 4\n  unusable_charset: 2\n  utf16_input: 2\n"),
        "{text}"
    );
    assert!(text.contains("\n  UTF-8 override: 2\n"), "{text}");

    let out = sgf(&dir.0, &["check", "--format", "json", "le.sgf"], None);
    let lines = json_lines(&out);
    assert_eq!(lines[0]["nodes"], 2);
    assert_eq!(lines[0]["warnings"][0]["kind"], "utf16_input");
    assert!(lines[0]["warnings"][0]["line"].is_null());

    for file in ["le.sgf", "be.sgf"] {
        let out = sgf(&dir.0, &["dump", file], None);
        assert_eq!(code(&out), 0);
        assert_eq!(
            stdout(&out),
            "[[[{\"GM\":[\"1\"],\"CA\":[\"UTF-16\"],\"PB\":[\"李昌镐\"],\"C\":[\"中文\"]},\
             {\"B\":[\"aa\"]}],[]]]\n"
        );
        assert!(stderr(&out).contains("warning[utf16_input]"));
        // Written as the UTF-8 it was read as: its `CA` says so.
        let out = sgf(&dir.0, &["fmt", file], None);
        assert_eq!(stdout(&out), "(;CA[UTF-8]GM[1]PB[李昌镐]C[中文];B[aa])\n");
    }

    // Odd length: not UTF-16 after all.
    let mut odd = utf16(&format!("\u{feff}{game}"), false);
    odd.push(b'x');
    dir.write("odd.sgf", odd);
    // Decoded as a stream: the text before the odd byte is read, then the
    // file fails where the text stops decoding.
    let out = sgf(&dir.0, &["check", "odd.sgf"], None);
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out)
            .contains("odd.sgf: error[io]: UTF-16LE text that does not decode at byte 74\n"),
        "{}",
        stdout(&out)
    );
}

/// Names that are not UTF-8 printed as `a\xff.sgf`, each differently (they
/// all printed as `a�.sgf`), and control characters escaped, in text and
/// JSON.
#[cfg(unix)]
#[test]
fn names_print_unambiguously() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt as _;
    let dir = TempDir::new("names");
    std::fs::create_dir_all(dir.0.join("n")).unwrap();
    for name in [
        &b"a\xff.sgf"[..],
        b"a\xfe.sgf",
        b"a\xfd.sgf",
        b"a\nb.sgf",
        b"a\\xff.sgf",
    ] {
        std::fs::write(dir.0.join("n").join(OsStr::from_bytes(name)), "x").unwrap();
    }
    let out = sgf(&dir.0, &["check", "-q", "n"], None);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    let failed: Vec<&str> = text
        .split("\nfailed:   5\n")
        .nth(1)
        .expect("a failed list")
        .lines()
        .collect();
    assert_eq!(
        failed,
        [
            r"  n/a\nb.sgf (no_game_tree)",
            r"  n/a\\xff.sgf (no_game_tree)",
            r"  n/a\xfd.sgf (no_game_tree)",
            r"  n/a\xfe.sgf (no_game_tree)",
            r"  n/a\xff.sgf (no_game_tree)",
        ]
    );
    assert!(
        text.starts_with("n/a\\nb.sgf:1:2: error[no_game_tree]"),
        "{text}"
    );

    let out = sgf(&dir.0, &["check", "--format", "json", "n"], None);
    let paths: Vec<String> = json_lines(&out)[..5]
        .iter()
        .map(|l| l["path"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        paths,
        [
            r"n/a\nb.sgf",
            r"n/a\\xff.sgf",
            r"n/a\xfd.sgf",
            r"n/a\xfe.sgf",
            r"n/a\xff.sgf"
        ]
    );
}

/// The field names of the JSON lines, all of them, in order.
#[test]
fn check_json_field_names_are_stable() {
    let dir = TempDir::new("json-fields");
    dir.write("a.sgf", "(;GM[1]KM[x];B[aa])");
    let keys = |v: &Json| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    let file_keys = [
        "path",
        "bytes",
        "games",
        "nodes",
        "warnings",
        "warnings_dropped",
        "error",
    ];
    let value_keys = ["charsets", "value_errors", "value_errors_dropped"];
    let summary_keys = [
        "files",
        "failed",
        "games",
        "nodes",
        "bytes",
        "seconds",
        "warnings",
        "warnings_dropped",
        "mode",
        "skipped",
        "skipped_paths",
        "skipped_by_reason",
        "failed_lines",
    ];
    let summary_value_keys = [
        "value_seconds",
        "charsets",
        "declared_labels",
        "value_errors",
        "unknown_properties",
    ];

    let out = sgf(&dir.0, &["check", "--format", "json", "a.sgf"], None);
    let lines = json_lines(&out);
    let sorted = |list: Vec<&str>| {
        let mut list: Vec<String> = list.into_iter().map(str::to_owned).collect();
        list.sort();
        list
    };
    // serde_json's map sorts keys unless `preserve_order`: compare sets.
    let mut got = keys(&lines[0]);
    got.sort();
    assert_eq!(got, sorted([&file_keys[..], &value_keys].concat()));
    assert_eq!(
        keys(&lines[0]["value_errors"][0]),
        sorted(vec!["ident", "offset", "line", "column", "message"])
    );
    // `charsets`: "name/source" → games.
    let charsets = lines[0]["charsets"].as_object().unwrap();
    assert!(!charsets.is_empty());
    for (key, n) in charsets {
        assert!(key.contains('/') && n.as_u64().is_some(), "{key}: {n}");
    }
    let mut got = keys(&lines[1]["summary"]);
    got.sort();
    assert_eq!(
        got,
        sorted([&summary_keys[..], &summary_value_keys].concat())
    );

    let out = sgf(
        &dir.0,
        &[
            "check",
            "--format",
            "json",
            "--structure-only",
            "a.sgf",
            "missing.sgf",
        ],
        None,
    );
    let lines = json_lines(&out);
    let mut got = keys(&lines[0]);
    got.sort();
    assert_eq!(got, sorted(file_keys.to_vec()));
    assert_eq!(
        keys(&lines[1]["error"]),
        sorted(vec!["kind", "offset", "line", "column", "message"])
    );
    let mut got = keys(&lines[2]["summary"]);
    got.sort();
    assert_eq!(got, sorted(summary_keys.to_vec()));
    // And the raw text keeps the order of the fields.
    let raw = stdout(&out);
    assert!(
        raw.starts_with(r#"{"path":"a.sgf","bytes":19,"games":1,"nodes":2,"warnings":[],"warnings_dropped":0,"error":null}"#),
        "{raw}"
    );
}

/// Over the real corpus, `check` refuses no file that has a game in it:
/// the nine files that have none fail, as before, and nothing is skipped
/// for not being a regular file (its README is skipped as not SGF).
#[test]
fn check_real_corpus_sniffs_no_game_away() {
    let Some(corpus) = crate::common::corpus_dir() else {
        return;
    };
    let out = sgf(
        &corpus,
        &["check", "-q", "--structure-only", "--format", "json", "."],
        None,
    );
    assert_eq!(code(&out), 1);
    let lines = json_lines(&out);
    let summary = &lines[lines.len() - 1]["summary"];
    assert_eq!(summary["skipped_by_reason"]["not_regular_file"], 0);
    // `skipped` is the sum of the reasons (the README among them).
    let by_reason: u64 = summary["skipped_by_reason"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(summary["skipped"], by_reason);
    let failed: Vec<(&str, &str)> = lines[..lines.len() - 1]
        .iter()
        .filter(|l| !l["error"].is_null())
        .map(|l| {
            (
                l["path"].as_str().unwrap(),
                l["error"]["kind"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(failed.len(), 9, "{failed:?}");
    for (path, kind) in failed {
        assert!(
            kind == "no_game_tree" || kind == "not_sgf_text",
            "{path}: {kind}"
        );
    }
}

// ---------------------------------------------------------------- archives

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

/// A tar archive of `files`, in this order.
fn tar(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for (name, data) in files {
        let mut header = tar::Header::new_gnu();
        header.set_mode(0o644);
        header.set_size(data.len() as u64);
        header.set_cksum();
        builder.append_data(&mut header, name, *data).unwrap();
    }
    builder.into_inner().unwrap()
}

/// `sgf check` on a tar.gz of three games in two members names each
/// member `archive!member`, in diagnostics and in the summary, and counts
/// what it skipped.
#[test]
fn check_tar_gz_prints_member_origins_and_counts() {
    let dir = TempDir::new("tar-gz");
    let archive = tar(&[
        ("games/a.sgf", b"(;GM[1];B[aa])"),
        ("games/b.sgf", REPEATED.as_bytes()),
        ("games/readme.txt", b"three games"),
        ("games/c.sgf", b"(;GM[1];B[aa];W[bb])\n(;GM[1])"),
    ]);
    dir.write("g.tar.gz", gzip(&archive));
    let out = sgf(&dir.0, &["check", "g.tar.gz"], None);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "g.tar.gz!games/b.sgf:2:12: warning[repeated_property]: property repeated in a node; values merged\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "\nfiles:    3 (3 ok, 0 failed)\n\
             skipped:  1 not SGF\n\
             games:    4\n\
             nodes:    8\n"
        ),
        "{text}"
    );

    let out = sgf(&dir.0, &["check", "--format", "json", "g.tar.gz"], None);
    let lines = json_lines(&out);
    let paths: Vec<&str> = lines[..3]
        .iter()
        .map(|l| l["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        [
            "g.tar.gz!games/a.sgf",
            "g.tar.gz!games/b.sgf",
            "g.tar.gz!games/c.sgf"
        ]
    );
    let games: Vec<u64> = lines[..3]
        .iter()
        .map(|l| l["games"].as_u64().unwrap())
        .collect();
    assert_eq!(games, [1, 1, 2]);
    let summary = &lines[3]["summary"];
    assert_eq!(summary["files"], 3);
    assert_eq!(summary["games"], 4);
    // One count, the sum of the reasons.
    assert_eq!(summary["skipped"], 1);
    assert_eq!(
        summary["skipped_by_reason"],
        serde_json::json!({"not_regular_file": 0, "not_sgf": 1, "temporary_file": 0, "unreadable": 0})
    );
}

/// Standard input is sniffed: gzip is decompressed, a zip is copied to a
/// temporary file and read.
#[test]
fn check_reads_compressed_and_zipped_stdin() {
    let dir = TempDir::new("stdin-gz");
    let out = sgf(
        &dir.0,
        &["check", "--format", "json", "-"],
        Some(&gzip(b"(;GM[1];B[aa])(;GM[1])")),
    );
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let lines = json_lines(&out);
    assert_eq!(lines[0]["path"], "<stdin>");
    assert_eq!(lines[0]["games"], 2);

    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    zip.start_file("in/x.sgf", zip::write::SimpleFileOptions::default())
        .unwrap();
    zip.write_all(b"(;GM[1];B[aa];W[bb])").unwrap();
    let zip = zip.finish().unwrap().into_inner();
    let out = sgf(&dir.0, &["check", "--format", "json", "-"], Some(&zip));
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let lines = json_lines(&out);
    assert_eq!(lines[0]["path"], "<stdin>!in/x.sgf");
    assert_eq!(lines[0]["nodes"], 3);
}

/// A corrupt gzip member fails with the games read before it reported; the
/// other inputs are read.
#[test]
fn check_corrupt_gzip_fails_that_file_only() {
    let dir = TempDir::new("corrupt-gz");
    let body: String = (0..3000)
        .map(|i| format!("(;GM[1]C[game {i}];B[aa])\n"))
        .collect();
    let gz = gzip(body.as_bytes());
    // Cut in the middle.
    dir.write("in/bad.sgf.gz", &gz[..gz.len() / 2]);
    dir.write("in/good.sgf", "(;GM[1])");
    let out = sgf(&dir.0, &["check", "in"], None);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    // The games before the cut are read (the last one cut short, with its
    // warnings), then the error.
    assert!(
        text.contains("\nin/bad.sgf.gz: error[corrupt_input]: corrupt gzip data: "),
        "{text}"
    );
    assert!(text.contains("warning[unclosed_game_tree]"), "{text}");
    assert!(text.contains("files:    2 (1 ok, 1 failed)"), "{text}");
    assert!(text.contains("  in/bad.sgf.gz (corrupt_input)"), "{text}");
}

/// In an `.sgfs` file a bad line is reported with its line number and costs
/// only itself.
#[test]
fn check_sgfs_bad_line_costs_only_that_line() {
    let dir = TempDir::new("sgfs");
    dir.write(
        "self.sgfs",
        "(;GM[1];B[aa])\n(;GM[1];B[bb]C[cut\nnot a game\n(;GM[1];W[cc])\n",
    );
    let out = sgf(&dir.0, &["check", "self.sgfs"], None);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.contains("self.sgfs:3:11: error[no_game_tree]: "),
        "{text}"
    );
    assert!(text.contains("games:    3\n"), "{text}");
    assert!(
        text.contains("bad lines: 1 (of .sgfs files: each cost only itself)"),
        "{text}"
    );
    let out = sgf(&dir.0, &["check", "--format", "json", "self.sgfs"], None);
    let lines = json_lines(&out);
    assert_eq!(lines[0]["games"], 3);
    assert_eq!(lines[0]["line_errors"][0]["kind"], "no_game_tree");
    assert_eq!(lines[0]["line_errors"][0]["line"], 3);
    assert_eq!(lines[1]["summary"]["failed_lines"], 1);
}

#[test]
fn split_writes_one_file_per_game_and_an_index_the_same_for_any_jobs() {
    let dir = TempDir::new("split");
    dir.write(
        "in/a.sgf",
        "(;GM[1]PB[a];B[aa])\n(;GM[1]PB[b];B[bb];W[cc])(;GM[1]PB[c]C[cut off];B[dd]",
    );
    dir.write("in/b/c.sgf", "(;GM[1]PB[d](;B[ee])(;B[ff]))");
    dir.write("in/zz.sgf", "no game here");
    let mut outputs = Vec::new();
    for jobs in ["1", "3"] {
        let out = format!("out{jobs}");
        let output = sgf(
            &dir.0,
            &["split", "-q", "-j", jobs, "in", "--out", &out],
            None,
        );
        // `zz.sgf` holds no game: reported, exit status 1.
        assert_eq!(code(&output), 1, "{}", stderr(&output));
        assert!(stderr(&output).contains("zz.sgf"), "{}", stderr(&output));
        let read = |name: &str| std::fs::read_to_string(dir.0.join(&out).join(name)).unwrap();
        let files: Vec<String> = (1..=4).map(|n| read(&format!("{n:06}.sgf"))).collect();
        assert_eq!(files[0], "(;GM[1]PB[a];B[aa])\n");
        assert_eq!(files[1], "(;GM[1]PB[b];B[bb];W[cc])\n");
        // The game cut off is written whole, its tree closed.
        assert_eq!(files[2], "(;GM[1]PB[c]C[cut off];B[dd])\n");
        assert_eq!(files[3], "(;GM[1]PB[d](;B[ee])(;B[ff]))\n");
        assert!(!dir.0.join(&out).join("000005.sgf").exists());
        let index = read("index.tsv");
        let lines: Vec<&str> = index.lines().collect();
        assert_eq!(lines[0], "file\tsource\tgame\toffset");
        assert_eq!(lines[1], "000001.sgf\tin/a.sgf\t0\t0");
        assert_eq!(lines[2], "000002.sgf\tin/a.sgf\t1\t20");
        assert_eq!(lines[3], "000003.sgf\tin/a.sgf\t2\t45");
        assert_eq!(lines[4], "000004.sgf\tin/b/c.sgf\t0\t0");
        outputs.push((files, index));
    }
    assert_eq!(outputs[0], outputs[1]);
}

#[test]
fn check_prints_the_kinds_asked_for_and_counts_what_it_left_out() {
    let dir = TempDir::new("kinds");
    // Three repeated properties, two lower-case identifiers.
    dir.write("a.sgf", "(;GM[1]AP[a]AP[b]AP[c]AP[d];bLack[aa];wHite[bb])");
    let count = |out: &str, code: &str| out.matches(&format!("warning[{code}]")).count();
    let all = sgf(&dir.0, &["check", "a.sgf"], None);
    let all_out = stdout(&all);
    assert_eq!(count(&all_out, "repeated_property"), 3, "{all_out}");
    assert_eq!(count(&all_out, "lowercase_in_ident"), 2, "{all_out}");
    assert!(!all_out.contains("messages:"), "{all_out}");

    let only = stdout(&sgf(
        &dir.0,
        &["check", "a.sgf", "--warn-kind", "lowercase_in_ident"],
        None,
    ));
    assert_eq!(count(&only, "repeated_property"), 0, "{only}");
    assert_eq!(count(&only, "lowercase_in_ident"), 2, "{only}");
    assert!(
        only.contains("messages: 2 printed, not printed: 3 by kind"),
        "{only}"
    );
    // The summary counts every warning whatever was printed.
    assert!(only.contains("repeated_property: 3"), "{only}");

    let ignored = stdout(&sgf(
        &dir.0,
        &[
            "check",
            "a.sgf",
            "--ignore-kind",
            "repeated_property,lowercase_in_ident",
        ],
        None,
    ));
    assert_eq!(
        count(&ignored, "repeated_property") + count(&ignored, "lowercase_in_ident"),
        0
    );
    assert!(ignored.contains("not printed: 5 by kind"), "{ignored}");

    let capped = stdout(&sgf(
        &dir.0,
        &["check", "a.sgf", "--max-messages", "1"],
        None,
    ));
    assert_eq!(capped.matches("warning[").count(), 1, "{capped}");
    assert!(
        capped.contains("messages: 1 printed, not printed: 4 over --max-messages 1"),
        "{capped}"
    );
}

/// Games for the table commands: sizes, komi, ranks, results and a
/// comment differ.
fn table_games(dir: &TempDir) {
    dir.write(
        "in/a.sgf",
        "(;GM[1]SZ[19]KM[6.5]PB[Lee]BR[9d]PW[Cho]WR[9d]RE[B+R]DT[2019-01-02];B[pd];W[dd];B[pp])\n\
         (;GM[1]SZ[9]KM[7]PB[Kim]PW[Park]RE[W+3.5];B[ee];W[cc])\n",
    );
    dir.write(
        "in/b/c.sgf",
        "(;GM[1]SZ[19]KM[650]PB[Fox]BR[5k]PW[Wolf]WR[3k]RE[W+T];B[qd]C[hi];W[dc])",
    );
    dir.write("in/d.sgf", "not a game");
}

#[test]
fn stats_json_is_the_same_for_any_jobs_and_counts_what_it_saw() {
    let dir = TempDir::new("stats");
    table_games(&dir);
    let mut seen = Vec::new();
    for jobs in ["1", "2", "4"] {
        let out = sgf(
            &dir.0,
            &["stats", "-q", "-j", jobs, "--format", "json", "in"],
            None,
        );
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let mut json: Json = serde_json::from_str(stdout(&out).trim()).unwrap();
        assert_eq!(json["files"], 3);
        assert_eq!(json["games"], 3);
        assert_eq!(json["moves"], 7);
        assert_eq!(json["failed"], 1);
        assert!(json["bytes"].as_u64().unwrap() > 100);
        assert!(json["seconds"].as_f64().unwrap() >= 0.0);
        json["seconds"] = Json::Null;
        json["speed"] = Json::Null;
        seen.push(json);
    }
    assert_eq!(seen[0], seen[1]);
    assert_eq!(seen[0], seen[2]);
    // Filters: the rejected games are counted by reason.
    let out = sgf(
        &dir.0,
        &["stats", "-q", "--format", "json", "--size", "19", "in"],
        None,
    );
    let json: Json = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(
        (json["games"].as_u64(), json["rejected"].as_u64()),
        (Some(2), Some(1))
    );
    // Usage error for a bad filter.
    assert_eq!(
        code(&sgf(&dir.0, &["stats", "--komi", "x..y", "in"], None)),
        2
    );
}

#[test]
fn select_prints_sources_or_games_that_pass_every_filter() {
    let dir = TempDir::new("select");
    table_games(&dir);
    let out = sgf(
        &dir.0,
        &["select", "-q", "in", "--size", "19", "--komi", "6..7"],
        None,
    );
    // `d.sgf` holds no game: exit status 1, the matches still printed.
    assert_eq!(code(&out), 1);
    // Fox's KM[650] is 6.5 points.
    assert_eq!(stdout(&out), "in/a.sgf\t0\t0\nin/b/c.sgf\t0\t0\n");
    let out = sgf(
        &dir.0,
        &["select", "-q", "in", "--has", "C", "--print", "games"],
        None,
    );
    assert_eq!(
        stdout(&out),
        "(;GM[1]SZ[19]KM[650]PB[Fox]BR[5k]PW[Wolf]WR[3k]RE[W+T];B[qd]C[hi];W[dc])\n"
    );
    let out = sgf(
        &dir.0,
        &["select", "in", "--result", "W+", "--rank", "10k..1k"],
        None,
    );
    assert_eq!(stdout(&out), "in/b/c.sgf\t0\t0\n");
    assert!(
        stderr(&out).contains("select: 1 of 3 games"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("rejected: "), "{}", stderr(&out));
    let out = sgf(
        &dir.0,
        &["select", "-q", "in", "--player", "KIM", "--out", "k.txt"],
        None,
    );
    assert_eq!(stdout(&out), "");
    assert_eq!(
        std::fs::read_to_string(dir.0.join("k.txt")).unwrap(),
        "in/a.sgf\t1\t87\n"
    );
}

#[test]
fn export_writes_json_lines_csv_and_parquet() {
    let dir = TempDir::new("export");
    table_games(&dir);
    let out = sgf(&dir.0, &["export", "-q", "--format", "jsonl", "in"], None);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["source"], "in/a.sgf");
    assert_eq!(
        (lines[1]["game"].as_u64(), lines[1]["offset"].as_u64()),
        (Some(1), Some(87))
    );
    assert_eq!(lines[0]["info"]["PB"], "Lee");
    assert_eq!(lines[2]["normalized"]["komi_points"], 6.5);
    assert_eq!(lines[0]["moves"][2], serde_json::json!(["B", "pp"]));
    // The same records whatever the number of threads.
    let again = sgf(
        &dir.0,
        &["export", "-q", "-j", "3", "--format", "jsonl", "in"],
        None,
    );
    assert_eq!(stdout(&again), stdout(&out));

    let csv = sgf(
        &dir.0,
        &["export", "-q", "--format", "csv", "--out", "csv", "in"],
        None,
    );
    assert_eq!(code(&csv), 1, "{}", stderr(&csv));
    let games = std::fs::read_to_string(dir.0.join("csv/games.csv")).unwrap();
    assert_eq!(games.lines().count(), 4, "{games}");
    let moves = std::fs::read_to_string(dir.0.join("csv/moves.csv")).unwrap();
    assert_eq!(moves.lines().count(), 8, "{moves}");

    let pq = sgf(
        &dir.0,
        &["export", "-q", "--format", "parquet", "--out", "pq", "in"],
        None,
    );
    assert_eq!(code(&pq), 1, "{}", stderr(&pq));
    for name in ["games.parquet", "moves.parquet"] {
        let bytes = std::fs::read(dir.0.join("pq").join(name)).unwrap();
        assert!(
            bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1"),
            "{name}"
        );
    }
    // CSV and Parquet need a folder.
    assert_eq!(
        code(&sgf(&dir.0, &["export", "--format", "csv", "in"], None)),
        2
    );
}

/// The moves table is written page by page from the rows as they come
/// (encoded on a thread of their own with more than one job): the files
/// are the same bytes whatever the number of threads, and hold every
/// move, across the writer's batches of 65,536 moves (the games here have
/// 80,000) and with passes and values that are no move (plies skipped)
/// among them. The CSV and JSON Lines outputs, built from the same
/// packed rows, too.
#[test]
fn export_parquet_is_the_same_bytes_for_any_jobs() {
    let dir = TempDir::new("export-pq-jobs");
    let letters = b"abcdefghijklmnopqrs";
    let mut moves = 0;
    for file in 0..8 {
        let mut text = Vec::new();
        for game in 0..40 {
            text.extend_from_slice(b"(;GM[1]SZ[19]KM[6.5]");
            for ply in 0..250usize {
                let color = if ply % 2 == 0 { "B" } else { "W" };
                let k = file * 7 + game * 13 + ply * 5;
                let (x, y) = (letters[k % 19] as char, letters[(k / 19) % 19] as char);
                if (ply + game) % 97 == 0 {
                    text.extend_from_slice(format!(";{color}[]").as_bytes());
                } else if (ply + game * 3) % 101 == 0 {
                    // No move on 19×19: counted, its ply skipped.
                    text.extend_from_slice(format!(";{color}[zz]").as_bytes());
                    moves -= 1;
                } else {
                    text.extend_from_slice(format!(";{color}[{x}{y}]").as_bytes());
                }
                moves += 1;
            }
            text.extend_from_slice(b")\n");
        }
        dir.write(&format!("in/{file}.sgf"), text);
    }
    for (format, names) in [
        ("parquet", ["games.parquet", "moves.parquet"]),
        ("csv", ["games.csv", "moves.csv"]),
    ] {
        let mut files = Vec::new();
        for jobs in ["1", "2", "3"] {
            let out = format!("{format}{jobs}");
            let run = sgf(
                &dir.0,
                &[
                    "export", "-q", "-j", jobs, "--format", format, "--out", &out, "in",
                ],
                None,
            );
            assert_eq!(code(&run), 0, "{}", stderr(&run));
            let read = |name: &str| std::fs::read(dir.0.join(&out).join(name)).unwrap();
            files.push((read(names[0]), read(names[1])));
        }
        assert!(
            files[0] == files[1],
            "{format}: -j 1 and -j 2 wrote different files"
        );
        assert!(
            files[0] == files[2],
            "{format}: -j 1 and -j 3 wrote different files"
        );
    }
    let jsonl: Vec<String> = ["1", "2", "3"]
        .iter()
        .map(|jobs| {
            let run = sgf(
                &dir.0,
                &["export", "-q", "-j", jobs, "--format", "jsonl", "in"],
                None,
            );
            assert_eq!(code(&run), 0, "{}", stderr(&run));
            stdout(&run)
        })
        .collect();
    assert!(
        jsonl[0] == jsonl[1] && jsonl[0] == jsonl[2],
        "JSON Lines differ"
    );
    assert_eq!(
        jsonl[0].matches("\"zz\"").count(),
        0,
        "no move has the coordinate of a value that is no move"
    );
    let csv_moves = std::fs::read_to_string(dir.0.join("csv1/moves.csv")).unwrap();
    assert_eq!(csv_moves.lines().count() as i64, moves + 1);
    let reader = parquet::file::reader::SerializedFileReader::new(
        std::fs::File::open(dir.0.join("parquet1/moves.parquet")).unwrap(),
    )
    .unwrap();
    let rows = parquet::file::reader::FileReader::metadata(&reader)
        .file_metadata()
        .num_rows();
    assert_eq!(rows, moves);
}

#[test]
fn board_prints_the_position_as_a_diagram_or_json() {
    let dir = TempDir::new("board");
    dir.write(
        "g.sgf",
        b"(;SZ[9]RU[Japanese]AB[cc];W[dc];B[dd];W[cd](;B[ec];W[bc])(;B[be];W[dd]))",
    );
    let out = sgf(&dir.0, &["board", "g.sgf"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    // Go coordinates by default; the empty star point at G7 shown `+`.
    assert_eq!(lines[0], "   A B C D E F G H J");
    assert_eq!(lines[3], " 7 .[O]X O X . + . .");
    assert_eq!(lines[10], "B to play, move 5; captures B 0 W 0");

    // The second variation: its last move is onto a stone, reported.
    let out = sgf(
        &dir.0,
        &["board", "g.sgf", "--node", "0.0.0.1.0", "--format", "json"],
        None,
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["size"], serde_json::json!([9, 9]));
    assert_eq!(v["to_play"], "B");
    assert_eq!(v["black"], serde_json::json!([[2, 2], [1, 4]]));
    assert_eq!(v["white"], serde_json::json!([[3, 2], [2, 3], [3, 3]]));
    assert_eq!(v["captures"], serde_json::json!({"B": 0, "W": 0}));
    assert_eq!(v["ko"], serde_json::Value::Null);
    assert_eq!(v["hash"].as_str().unwrap().len(), 16);
    assert_eq!(
        v["illegal"],
        serde_json::json!([{"move": 5, "reason": "occupied", "line": 1, "column": 65}])
    );
    // --strict refuses it.
    let out = sgf(
        &dir.0,
        &["board", "g.sgf", "--node", "0.0.0.1.0", "--strict"],
        None,
    );
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("illegal move 5 W[dd]"),
        "{}",
        stderr(&out)
    );

    // --move N: the position after the N-th move of the main line.
    let out = sgf(
        &dir.0,
        &["board", "g.sgf", "--move", "2", "--format", "json"],
        None,
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["black"], serde_json::json!([[2, 2], [3, 3]]));
    assert_eq!(v["to_play"], "W");

    for (args, why) in [
        (&["board", "g.sgf", "--game", "3"][..], "no game 3"),
        (&["board", "g.sgf", "--node", "0.5"][..], "no child 5"),
        (
            &["board", "g.sgf", "--move", "40"][..],
            "the main line has 5 moves",
        ),
    ] {
        let out = sgf(&dir.0, args, None);
        assert_eq!(code(&out), 1, "{args:?}");
        assert!(stderr(&out).contains(why), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn dedup_clusters_rotated_reflected_and_truncated_copies() {
    use sgf_grove::game::{Symmetry, Transform};
    use sgf_grove::value::BoardSize;
    // A game of 40 moves, and copies of it: turned by each symmetry, with
    // other metadata, some cut short; and another game.
    let moves: Vec<String> = (0..40u32)
        .map(|n| {
            let x = (b'a' + ((n * 7 + 3) % 19) as u8) as char;
            let y = (b'a' + ((n * 11 + 5) % 19) as u8) as char;
            format!("{x}{y}")
        })
        .collect();
    let game = |s: Symmetry, names: &str, len: usize| {
        let t = Transform {
            symmetry: s,
            swap_colors: false,
        };
        let mut text = format!("(;SZ[19]{names}");
        for (n, m) in moves.iter().take(len).enumerate() {
            let ident = if n % 2 == 0 { "B" } else { "W" };
            let mut out = Vec::new();
            t.write_value(ident, m.as_bytes(), BoardSize::square(19), &mut out)
                .unwrap();
            text.push_str(&format!(";{ident}[{}]", String::from_utf8(out).unwrap()));
        }
        text.push(')');
        text
    };
    let dir = TempDir::new("dedup");
    dir.write(
        "0.sgf",
        game(Symmetry::Identity, "PB[A]PW[B]", 40).as_bytes(),
    );
    for (n, s) in Symmetry::ALL.into_iter().enumerate().skip(1) {
        let len = if n % 2 == 0 { 40 } else { 30 };
        dir.write(
            &format!("{n}.sgf"),
            game(s, "PB[Other]C[a copy]", len).as_bytes(),
        );
    }
    dir.write("other.sgf", b"(;SZ[19];B[pd];W[dd];B[pp];W[dp])");
    let out = sgf(
        &dir.0,
        &["dedup", "-q", "--format", "json", "--min-prefix", "25", "."],
        None,
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1, "{}", stdout(&out));
    let games = lines[0]["games"].as_array().unwrap();
    assert_eq!(games.len(), 8);
    assert_eq!(lines[0]["cluster"], 1);
    // The best copy: all 40 moves, and the most game information.
    let best = &games[lines[0]["best"].as_u64().unwrap() as usize];
    assert_eq!(best["moves"], 40);
    assert_eq!(best["source"], "./0.sgf");
    let symmetries: std::collections::BTreeSet<&str> = games
        .iter()
        .map(|g| g["symmetry"].as_str().unwrap())
        .collect();
    assert_eq!(
        symmetries.len(),
        8,
        "each copy turned its own way: {symmetries:?}"
    );
    // By default (40) the copies cut at 30 moves do not join the full
    // game: the full copies are one cluster, the cut ones another.
    let out = sgf(&dir.0, &["dedup", "-q", "--format", "json", "."], None);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2, "{}", stdout(&out));
    for (line, moves) in lines.iter().zip([40, 30]) {
        let games = line["games"].as_array().unwrap();
        assert_eq!(games.len(), 4);
        assert!(games.iter().all(|g| g["moves"] == moves));
    }
}
