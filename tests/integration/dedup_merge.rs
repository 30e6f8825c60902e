//! `sgf dedup --merge --out DIR`: one record per cluster, every value of
//! every copy kept (taken, or written beside the kept one), copies one
//! move apart and colour-swapped copies joined and noted.

use crate::common::{sgf, stderr, stdout, TempDir};
use sgf_grove::game::{Symmetry, Transform};
use sgf_grove::value::BoardSize;

/// 50 moves that never repeat a point.
fn moves() -> Vec<String> {
    (0..50u32)
        .map(|n| {
            let x = (b'a' + (n % 19) as u8) as char;
            let y = (b'a' + (n / 19 * 3 + 2) as u8) as char;
            format!("{x}{y}")
        })
        .collect()
}

/// A game of `moves` turned by `t`, with root properties `root`.
fn game(root: &str, moves: &[String], t: Transform) -> String {
    let mut text = format!("(;GM[1]SZ[19]{root}");
    for (n, m) in moves.iter().enumerate() {
        let ident = if (n % 2 == 0) != t.swap_colors {
            "B"
        } else {
            "W"
        };
        let mut out = Vec::new();
        t.write_value(ident, m.as_bytes(), BoardSize::square(19), &mut out)
            .unwrap();
        text.push_str(&format!(";{ident}[{}]", String::from_utf8(out).unwrap()));
    }
    text.push(')');
    text
}

fn turned(symmetry: Symmetry, swap_colors: bool) -> Transform {
    Transform {
        symmetry,
        swap_colors,
    }
}

fn json_lines(out: &std::process::Output) -> Vec<serde_json::Value> {
    stdout(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The copies: the full game, a turned and cut copy with more precise
/// information, a copy with one mistyped move, and one with the colours
/// exchanged (players, ranks and result too).
fn copies(dir: &TempDir) -> Vec<String> {
    let all = moves();
    let mut typo = all.clone();
    typo[29] = "ss".to_owned();
    let texts = vec![
        game(
            "PB[Cho Chikun]PW[Kato]DT[1979]RE[B+R]",
            &all,
            turned(Symmetry::Identity, false),
        ),
        game(
            "PB[Cho Chikun]BR[9p]PW[Kato Masao]DT[1979-11-12]RE[B+Resign]",
            &all[..45],
            turned(Symmetry::Rotate90, false),
        ),
        game(
            "PB[Cho  Chikun]PW[Kato]EV[Honinbo]",
            &typo,
            turned(Symmetry::Identity, false),
        ),
        game(
            "PB[Kato]PW[Cho Chikun]WR[9p]RE[W+R]",
            &all[..44],
            turned(Symmetry::Identity, true),
        ),
    ];
    for (n, t) in texts.iter().enumerate() {
        dir.write(&format!("in/{n}.sgf"), t.as_bytes());
    }
    texts
}

#[test]
fn merged_records_keep_every_value_and_note_every_difference() {
    let dir = TempDir::new("dedup-merge");
    let texts = copies(&dir);
    let out = sgf(
        &dir.0,
        &[
            "dedup", "-q", "--format", "json", "--merge", "--out", "merged", "in",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1, "{}", stdout(&out));
    let line = &lines[0];
    let games = line["games"].as_array().unwrap();
    // The colour-swapped copy joins only with --swap-colors.
    assert_eq!(games.len(), 3, "{line}");
    let typo = games.iter().find(|g| g["source"] == "in/2.sgf").unwrap();
    assert_eq!(typo["differs_at"], serde_json::json!([30]), "{line}");
    assert_eq!(line["file"], "cluster-000001.sgf");
    let merged = std::fs::read(dir.0.join("merged/cluster-000001.sgf")).unwrap();
    let doc = sgf_grove::parse(&merged).unwrap();
    let tree = doc.games().next().unwrap();
    let root = tree.root();
    // The moves of the longest copy, as it is drawn.
    assert_eq!(tree.moves().count(), 50);
    assert_eq!(root.text("PB"), Some("Cho Chikun"));
    assert_eq!(root.text("BR"), Some("9p"), "taken from copy 1");
    assert_eq!(root.text("DT"), Some("1979-11-12"), "the most precise");
    assert_eq!(root.text("EV"), Some("Honinbo"), "taken from copy 2");
    assert_eq!(root.text("RE"), Some("B+R"), "B+Resign is the same");
    assert_eq!(root.text("PW"), Some("Kato"), "kept: the base's");
    let comment = root.text("C").unwrap();
    assert!(
        comment.contains("\"Kato Masao\" in in/1.sgf game 0"),
        "{comment}"
    );
    assert!(
        comment.contains("in/2.sgf game 0 differs at move 30"),
        "{comment}"
    );
    let conflicts = line["conflicts"].as_array().unwrap();
    assert_eq!(conflicts.len(), 1, "{line}");
    assert_eq!(conflicts[0]["property"], "PW");
    assert_eq!(conflicts[0]["others"][0]["value"], "Kato Masao");
    // Every value of every merged copy is in the record.
    let merged_text = String::from_utf8(merged).unwrap();
    for text in &texts[..3] {
        let doc = sgf_grove::parse(text.as_bytes()).unwrap();
        let root = doc.games().next().unwrap().root();
        for p in root.properties() {
            if matches!(p.ident(), "PB" | "PW" | "BR" | "DT" | "EV") {
                let value = String::from_utf8_lossy(p.values().next().unwrap().raw()).into_owned();
                let squashed = value.split_whitespace().collect::<Vec<_>>().join(" ");
                assert!(
                    merged_text.contains(&squashed),
                    "{} {value:?} lost: {merged_text}",
                    p.ident()
                );
            }
        }
    }
    // The merged record is itself a copy of the game.
    let out = sgf(&dir.0, &["dedup", "-q", "--format", "json", "in", "merged"]);
    let lines = json_lines(&out);
    assert!(
        lines.iter().any(|l| l["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["source"] == "merged/cluster-000001.sgf")),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_colour_swapped_copy_joins_with_its_players_the_right_way_round() {
    let dir = TempDir::new("dedup-merge-swap");
    copies(&dir);
    let out = sgf(
        &dir.0,
        &[
            "dedup",
            "-q",
            "--format",
            "json",
            "--merge",
            "--swap-colors",
            "--out",
            "m",
            "in",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1, "{}", stdout(&out));
    let games = lines[0]["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    let swapped = games.iter().find(|g| g["source"] == "in/3.sgf").unwrap();
    assert_eq!(swapped["colors_swapped"], true);
    assert!(games
        .iter()
        .filter(|g| g["source"] != "in/3.sgf")
        .all(|g| g["colors_swapped"] == false));
    // Its PB[Kato]PW[Cho Chikun] are White and Black of the base: no new
    // conflict, and its WR is Black's rank.
    let conflicts: Vec<&str> = lines[0]["conflicts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["property"].as_str().unwrap())
        .collect();
    assert_eq!(conflicts, ["PW"]);
    let merged = std::fs::read(dir.0.join("m/cluster-000001.sgf")).unwrap();
    let doc = sgf_grove::parse(&merged).unwrap();
    let root = doc.games().next().unwrap().root();
    assert_eq!(root.text("BR"), Some("9p"));
    assert_eq!(root.text("RE"), Some("B+R"));
    // Text output names the swap.
    let dir2 = TempDir::new("dedup-merge-swap-text");
    copies(&dir2);
    let out = sgf(&dir2.0, &["dedup", "-q", "--swap-colors", "in"]);
    assert!(stdout(&out).contains("colours swapped"), "{}", stdout(&out));
}

#[test]
fn merge_refuses_what_it_cannot_do_safely() {
    let dir = TempDir::new("dedup-merge-refuse");
    copies(&dir);
    // Standard input cannot be read twice.
    let out = sgf(&dir.0, &["dedup", "--merge", "--out", "m", "-"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("standard input"), "{}", stderr(&out));
    // --merge needs --out, and --out needs --merge.
    let out = sgf(&dir.0, &["dedup", "--merge", "in"]);
    assert_eq!(out.status.code(), Some(2));
    let out = sgf(&dir.0, &["dedup", "--out", "m", "in"]);
    assert_eq!(out.status.code(), Some(2));
    // A folder that holds files is not written into without --force.
    dir.write("full/keep.txt", b"mine");
    let out = sgf(&dir.0, &["dedup", "-q", "--merge", "--out", "full", "in"]);
    assert_ne!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("not empty"), "{}", stderr(&out));
    assert!(!dir.0.join("full/cluster-000001.sgf").exists());
    let out = sgf(
        &dir.0,
        &["dedup", "-q", "--merge", "--force", "--out", "full", "in"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(dir.0.join("full/cluster-000001.sgf").exists());
    assert_eq!(std::fs::read(dir.0.join("full/keep.txt")).unwrap(), b"mine");
    // The summary counts what was written.
    assert!(
        stderr(&out).contains("1 merged records written"),
        "{}",
        stderr(&out)
    );
}
