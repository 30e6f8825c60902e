//! Records of other servers' formats through the `sgf` command: read from
//! files by name and by content, folders, archives and standard input by
//! every reading command, written as SGF by `fmt`, with the conversion's
//! warnings placed in the original file.
//!
//! The records are written here by hand, laid out as the `//!` of each
//! reader says (`src/foreign/gib.rs`, `ngf.rs`, `ugf.rs`): a Tygem `.gib`
//! (`\HS` header of `\[KEY=value\]` lines, `\GS` moves of `STO 0 n colour
//! x y`), a WBaduk `.ngf` (12 header lines then `PM` move lines, `B` the
//! first coordinate letter) and a Pandanet `.ugf` (`[Header]` `key=value`
//! lines, `[Data]` lines `PD,B1,1,0`, rows counted from the bottom).

#![cfg(feature = "cli")]

use crate::common::{gzip, sgf, stderr, stdout, tar, zip, TempDir};
use std::io::Write;
use std::process::{Command, Stdio};

/// A Tygem record in EUC-KR with a resignation, a handicap of 2 and a
/// move off the board on line 13.
fn gib() -> Vec<u8> {
    let name = encoding_rs::EUC_KR.encode("이창호 (9단)").0;
    let mut out = b"\\HS\r\n\\[GAMEBLACKNAME=".to_vec();
    out.extend_from_slice(&name);
    out.extend_from_slice(
        b"\\]\r\n\\[GAMEWHITENAME=Cho (9D)\\]\r\n\
          \\[GAMEINFOMAIN=GBKIND:3,GRLT:4,ZIPSU:0,GONGJE:5,\\]\r\n\
          \\[GAMETAG=C2003:07:11:10:00,W4,Z0,G5\\]\r\n\\HE\r\n\\GS\r\n2 1 0\r\n119 0 &4\r\n\
          INI 0 1 2 &4\r\nSTO 0 1 2 16 3\r\nSTO 0 2 1 15 16\r\nSTO 0 3 2 20 3\r\n\\GE\r\n",
    );
    out
}

/// A WBaduk record with a pass written `AA`.
const NGF: &str =
    "Game\r\n19\r\nKim 3D\r\nLee 1D\r\nwww\r\n0\r\n0\r\n6\r\n20200202 [1:00]\r\n1\r\n\
                   Black wins by 2.5\r\n3\r\nPMAABDD\r\nPMABWQQ\r\nPMACBAA\r\n";

/// A Pandanet record in Shift_JIS.
fn ugf() -> Vec<u8> {
    let text = "[Header]\r\nPlayerB=高尾,9p\r\nPlayerW=井山,9p\r\nSize=19\r\nHdcp=0,6.5\r\nWinner=W,C\r\n[Data]\r\nPD,B1,1,0\r\nDP,W2,2,0\r\n";
    encoding_rs::SHIFT_JIS.encode(text).0.into_owned()
}

#[test]
fn fmt_writes_a_gib_as_sgf_with_its_warnings_in_the_original() {
    let dir = TempDir::new("foreign-fmt");
    dir.write("game.gib", gib());
    let out = sgf(&dir.0, &["fmt", "game.gib"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let sgf_text = stdout(&out);
    for want in [
        "CA[UTF-8]",
        "SO[Tygem .gib]",
        "PB[이창호]",
        "BR[9단]",
        "PW[Cho]",
        "RE[W+R]",
        "KM[0.5]",
        "DT[2003-07-11]",
        "HA[2]",
        "AB[pd][dp]",
        ";W[qd];B[pq];W[]",
    ] {
        assert!(sgf_text.contains(want), "{want} not in {sgf_text}");
    }
    // Line 13 of the record, the `STO 0 3 2 20 3`.
    assert!(
        stderr(&out).contains("game.gib:13:1: warning[foreign_off_board]"),
        "{}",
        stderr(&out)
    );
    // `check` shows the record's own line under the warning.
    let check = sgf(&dir.0, &["check", "game.gib"]);
    let err = stdout(&check) + &stderr(&check);
    assert!(err.contains("STO 0 3 2 20 3"), "{err}");
    // The SGF written checks clean and replays.
    dir.write("out.sgf", &out.stdout);
    let again = sgf(&dir.0, &["check", "--semantic", "out.sgf"]);
    let text = stdout(&again) + &stderr(&again);
    assert_eq!(again.status.code(), Some(0), "{text}");
    assert!(!text.contains("warning["), "{text}");
}

#[test]
fn folders_archives_and_stdin_read_every_format_by_name_and_content() {
    let dir = TempDir::new("foreign-inputs");
    dir.write("f/a.gib", gib());
    dir.write("f/b.NGF", NGF);
    dir.write("f/c.ugi", ugf());
    // No name to go by: taken by its content.
    dir.write("f/tygem-download", gib());
    dir.write("f/notes.txt", "not a game");
    dir.write(
        "t.tar.gz",
        gzip(&tar(&[("x/a.gib", &gib()), ("x/b.ngf", NGF.as_bytes())])),
    );
    dir.write("z.zip", zip(&[("c.ugf", &ugf())]));
    dir.write("g.gib.gz", gzip(&gib()));
    for (path, games) in [("f", 4), ("t.tar.gz", 2), ("z.zip", 1), ("g.gib.gz", 1)] {
        for command in [
            &["stats"][..],
            &["export", "--format", "jsonl"],
            &["select", "--moves", "1..", "--print", "games"],
        ] {
            let mut args = command.to_vec();
            args.push(path);
            let out = sgf(&dir.0, &args);
            assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
            let text = stdout(&out);
            let found = match command[0] {
                "stats" => text.lines().find_map(|l| {
                    l.strip_prefix("games")
                        .map(|n| n.trim().parse::<usize>().unwrap())
                }),
                "export" => Some(text.lines().count()),
                _ => Some(text.matches("(;GM[1]").count()),
            };
            assert_eq!(found, Some(games), "{args:?}: {text}");
        }
    }
    let export = stdout(&sgf(&dir.0, &["export", "--format", "jsonl", "f"]));
    for want in ["\"PB\":\"이창호\"", "\"PW\":\"井山\"", "\"RE\":\"B+2.5\""] {
        assert!(
            export.contains(want) || export.contains(&want.replace("\"PB\"", "\"black\"")),
            "{want}: {export}"
        );
    }
    // Standard input.
    let mut child = Command::new(env!("CARGO_BIN_EXE_sgf"))
        .args(["fmt", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(NGF.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("SO[WBaduk .ngf]") && text.contains(";B[cc];W[pp];B[]"),
        "{text}"
    );
}

#[test]
fn in_place_refuses_a_record_and_out_dir_names_it_sgf() {
    let dir = TempDir::new("foreign-write");
    dir.write("in/g.gib", gib());
    let out = sgf(&dir.0, &["fmt", "--in-place", "in/g.gib"]);
    assert_ne!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("Tygem .gib"), "{}", stderr(&out));
    assert_eq!(std::fs::read(dir.0.join("in/g.gib")).unwrap(), gib());
    let out = sgf(&dir.0, &["fmt", "--out", "o", "in"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let written = std::fs::read_to_string(dir.0.join("o/g.gib.sgf")).unwrap();
    assert!(written.starts_with("(;GM[1]FF[4]CA[UTF-8]"), "{written}");
}

#[test]
fn the_slice_parser_refuses_a_record_by_name() {
    let err = sgf_grove::parse(&gib()).unwrap_err();
    assert_eq!(err.kind().code(), "not_sgf_text");
    assert!(err.to_string().contains("Tygem .gib"), "{err}");
    // The stream parser converts it.
    let record = gib();
    let mut stream = sgf_grove::StreamParser::new(&record[..]);
    let coll = stream.next_game().unwrap().unwrap();
    assert_eq!(coll.games().count(), 1);
    let w = coll.warnings();
    assert_eq!(w.len(), 1);
    assert_eq!(
        (w[0].kind.code(), w[0].pos.line, w[0].pos.column),
        ("foreign_off_board", 13, 1)
    );
    // Strict mode refuses what was forgiven.
    let strict = sgf_grove::ParseOptions::new().strict(true);
    let mut stream = sgf_grove::StreamParser::with_options(&record[..], strict);
    let err = stream.next_game().unwrap().unwrap_err();
    assert_eq!(err.kind().code(), "foreign_off_board");
}
