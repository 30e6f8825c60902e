//! `sgf check --semantic` and `sgf check --explain CODE`: the findings
//! printed like warnings and listed in the JSON line, the summary per
//! code, the kind filters, the exit status, and the same output for any
//! number of threads.

#![cfg(feature = "cli")]

use crate::common::{sgf, stderr, stdout, TempDir};

const PLANTED: &str = "(;GM[1]FF[4]SZ[9]HA[3]AB[cc][gg]
;AB[aa]AW[aa]
;W[ee]AW[ff]
;AE[ii]
;B[dd]GB[1]GW[1]
;BM[1]
;B[de]
;W[dd]
;PB[Later]SZ[9]L[ab]B[ef]TE[1]BM[1])";

#[test]
fn check_semantic_prints_findings_and_counts_them() {
    let dir = TempDir::new("semantic-text");
    dir.write("p.sgf", PLANTED);
    // Without --semantic: nothing to say about this file.
    let out = sgf(&dir.0, &["check", "p.sgf"]);
    assert!(out.status.success());
    assert!(!stdout(&out).contains("semantic"), "{}", stdout(&out));
    let out = sgf(&dir.0, &["check", "--semantic", "p.sgf"]);
    // Findings, errors included, leave the exit status at 0.
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("p.sgf:8:2: error[move_on_stone]: W[dd] is played onto a black stone (move 4)\n 8 | ;W[dd]\n   |  ^\n"),
        "{text}"
    );
    assert_eq!(text.matches("p.sgf:").count(), 12, "{text}");
    assert!(
        text.contains("semantic: 12 findings (2 errors, 10 warnings, 0 info)\n"),
        "{text}"
    );
    assert!(
        text.contains("  contradictory_annotations (warning): 2\n"),
        "{text}"
    );
    assert!(text.contains(" s semantic = "), "{text}");
    // The kind filters select codes; the summary still counts them all.
    let out = sgf(
        &dir.0,
        &[
            "check",
            "--semantic",
            "--warn-kind",
            "move_on_stone,handicap_mismatch",
            "p.sgf",
        ],
    );
    let text = stdout(&out);
    assert_eq!(text.matches("p.sgf:").count(), 2, "{text}");
    assert!(text.contains("semantic: 12 findings"), "{text}");
    let out = sgf(
        &dir.0,
        &[
            "check",
            "--semantic",
            "--ignore-kind",
            "contradictory_annotations",
            "p.sgf",
        ],
    );
    assert_eq!(stdout(&out).matches("p.sgf:").count(), 10);
    // --semantic and --structure-only exclude each other.
    let out = sgf(
        &dir.0,
        &["check", "--semantic", "--structure-only", "p.sgf"],
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn check_semantic_json_lists_findings_and_the_summary_counts() {
    let dir = TempDir::new("semantic-json");
    dir.write("p.sgf", PLANTED);
    let out = sgf(
        &dir.0,
        &["check", "--semantic", "--format", "json", "p.sgf"],
    );
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let file = &lines[0];
    let found = file["semantic"].as_array().unwrap();
    assert_eq!(found.len(), 12);
    assert_eq!(file["semantic_dropped"], 0);
    let stone = found.iter().find(|f| f["kind"] == "move_on_stone").unwrap();
    assert_eq!(stone["severity"], "error");
    assert_eq!(stone["node"], 7);
    assert_eq!(
        (stone["line"].as_u64(), stone["column"].as_u64()),
        (Some(8), Some(2))
    );
    assert_eq!(
        stone["message"],
        "W[dd] is played onto a black stone (move 4)"
    );
    let summary = &lines[1]["summary"];
    assert_eq!(summary["semantic"]["contradictory_annotations"], 2);
    assert_eq!(summary["semantic"]["move_on_stone"], 1);
    assert!(summary["semantic_seconds"].is_number());
    // Without --semantic, no such fields.
    let out = sgf(&dir.0, &["check", "--format", "json", "p.sgf"]);
    assert!(!stdout(&out).contains("semantic"));
}

/// The lines of `check`'s output without what differs from run to run:
/// the text summary's `time:` line, the JSON summary's seconds.
fn without_times(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| !l.starts_with("time:"))
        .map(|l| {
            if l.starts_with("{\"summary\"") {
                let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                let s = v["summary"].as_object_mut().unwrap();
                for k in ["seconds", "value_seconds", "semantic_seconds"] {
                    s.remove(k);
                }
                v.to_string()
            } else {
                l.to_owned()
            }
        })
        .collect()
}

#[test]
fn check_semantic_is_the_same_for_any_number_of_threads() {
    let dir = TempDir::new("semantic-jobs");
    for i in 0..12 {
        let game = match i % 3 {
            0 => PLANTED.to_owned(),
            1 => format!("(;GM[1];B[aa];B[bb])(;GM[1]HA[{}]AB[dd][pp];W[qd])", i),
            _ => "(;FF[3]GM[1]CA[UTF-8];B[aa]KO[];BM[1])".to_owned(),
        };
        dir.write(&format!("d/g{i:02}.sgf"), game);
    }
    for format in ["text", "json"] {
        let run = |jobs: &str| {
            let out = sgf(
                &dir.0,
                &["check", "--semantic", "--format", format, "-j", jobs, "d"],
            );
            assert!(out.status.success(), "{}", stderr(&out));
            without_times(&stdout(&out))
        };
        let one = run("1");
        assert!(
            one.iter().any(|l| l.contains("handicap_mismatch")),
            "{one:?}"
        );
        assert_eq!(run("2"), one, "{format}");
        assert_eq!(run("3"), one, "{format}");
    }
}

/// A game of `moves` moves on distinct points of a 19×19 board, without
/// a finding.
fn clean_game(seed: usize, moves: usize) -> String {
    let mut text = String::from("(;GM[1]FF[4]SZ[19]RU[Japanese]");
    for m in 0..moves {
        // Distinct points: a stride coprime with 361.
        let i = (seed * 7 + m * 37) % 361;
        let (x, y) = (b'a' + (i % 19) as u8, b'a' + (i / 19) as u8);
        let colour = if m % 2 == 0 { 'B' } else { 'W' };
        text.push_str(&format!(";{colour}[{}{}]", x as char, y as char));
    }
    text.push(')');
    text
}

/// One file large enough that `check` shares its semantic pass with a
/// helper thread: findings, warnings and value errors spread over it, in
/// games of several sizes, rules and with variations. The output is the
/// one thread's, byte for byte, in every format and under a message
/// limit, and no finding is lost.
#[test]
fn check_semantic_of_one_large_file_is_the_same_with_a_helper_thread() {
    let dir = TempDir::new("semantic-large");
    let mut text = String::new();
    let mut planted = 0;
    let mut i = 0;
    while text.len() < 3 << 20 {
        match i % 60 {
            7 => {
                text.push_str(PLANTED);
                planted += 1;
            }
            // A warning (a repeated property) and a value error.
            19 => text.push_str("(;GM[1]SZ[13]KM[abc]C[a]C[b];B[aa];W[aa])"),
            // Superko rules, a variation, a 25×25 board with `tt`.
            31 => text.push_str("(;GM[1]SZ[9]RU[Chinese];B[aa](;W[bb];W[cc])(;B[dd];B[ee]))"),
            43 => text.push_str("(;GM[1]SZ[25];B[tt];W[tt])"),
            _ => text.push_str(&clean_game(i, 40 + i % 200)),
        }
        text.push('\n');
        i += 1;
    }
    dir.write("big.sgf", &text);
    let runs: [&[&str]; 4] = [
        &["check", "--semantic", "big.sgf"],
        &["check", "--semantic", "--max-messages", "150", "big.sgf"],
        &["check", "--semantic", "--format", "json", "big.sgf"],
        &["check", "--semantic", "-q", "big.sgf"],
    ];
    for args in runs {
        let run = |jobs: &str| {
            let mut all = vec!["-j", jobs];
            all.splice(0..0, args.iter().copied());
            // `-j` after the path: the subcommand takes it anywhere.
            let out = sgf(&dir.0, &all);
            assert!(out.status.success(), "{}", stderr(&out));
            without_times(&stdout(&out))
        };
        let one = run("1");
        let joined = one.join("\n");
        if args.contains(&"-q") {
            // Every finding counted: 12 in each planted game, and those of
            // the other planted kinds.
            let line = one
                .iter()
                .find(|l| l.starts_with("semantic:"))
                .expect("the summary's semantic line");
            let total: u64 = line
                .split_whitespace()
                .nth(1)
                .unwrap()
                .replace(',', "")
                .parse()
                .unwrap();
            assert!(total >= 12 * planted, "{line}: {planted} planted games");
            assert!(joined.contains("move_on_stone"), "{joined}");
            assert!(joined.contains("superko") || joined.contains("same_colour_twice"));
        } else if !args.contains(&"json") && !args.contains(&"--max-messages") {
            assert!(joined.contains("repeated_property"), "a warning is printed");
            assert!(joined.contains("tt_on_large_board"), "a finding is printed");
        }
        assert_eq!(run("2"), one, "{args:?}");
        assert_eq!(run("3"), one, "{args:?}");
    }
}

#[test]
fn check_explain_prints_the_entry_or_fails_with_close_codes() {
    let dir = TempDir::new("semantic-explain");
    let out = sgf(&dir.0, &["check", "--explain", "setup_and_move"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("setup_and_move (warning)\n"), "{text}");
    assert!(
        text.contains("repair: sgf fix --repair split-setup\n"),
        "{text}"
    );
    assert!(text.contains("SGFC: message 30\n"), "{text}");
    let out = sgf(&dir.0, &["check", "--explain", "suicide"]);
    assert!(stdout(&out).contains("repair: none"), "{}", stdout(&out));
    // An unknown code: exit 2, the close ones named.
    let out = sgf(&dir.0, &["check", "--explain", "move_on_stones"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("did you mean: move_on_stone"),
        "{}",
        stderr(&out)
    );
    let out = sgf(&dir.0, &["check", "--explain", "zzz"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("the codes are: setup_and_move, "),
        "{}",
        stderr(&out)
    );
    // check without paths or --explain is still a usage error.
    assert_eq!(sgf(&dir.0, &["check"]).status.code(), Some(2));
}

#[test]
fn fix_repairs_what_check_semantic_finds() {
    let dir = TempDir::new("semantic-fix");
    dir.write("a.sgf", "(;GM[1];B[aa]\n;AB[bb]W[cc];BM[1];AE[dd])");
    let out = sgf(
        &dir.0,
        &[
            "fix",
            "--repair",
            "split-setup,drop-orphan-annotation,drop-idle-setup",
            "a.sgf",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "(;GM[1];B[aa];AB[bb];W[cc];;)\n");
    let err = stderr(&out);
    assert!(err.contains("a.sgf:2:2: split-setup: "), "{err}");
    assert!(
        err.contains("a.sgf:2:14: drop-orphan-annotation: "),
        "{err}"
    );
    assert!(err.contains("a.sgf:2:22: drop-idle-setup: "), "{err}");
    dir.write("b.sgf", stdout(&out));
    let out = sgf(&dir.0, &["check", "--semantic", "b.sgf"]);
    assert!(
        stdout(&out).contains("semantic: 0 findings"),
        "{}",
        stdout(&out)
    );
}
