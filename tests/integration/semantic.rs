//! Semantic validation (`sgf_grove::audit::semantic`): the planted file of
//! issue 21 with its 12 findings and their places, each check on a bad
//! node and on the nearest good one, the same findings for an edited copy
//! of a game, and the pass over every game of the real corpus (counts per
//! code printed).

use crate::corpus_pass::{Check as CorpusCheck, Corpus, File};
use sgf_grove::audit::semantic::{self, Check, Findings, Semantic, Severity};
use sgf_grove::edit::EditableGame;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// The findings of the first game of `input`.
fn findings(input: &str) -> Findings {
    let doc = sgf_grove::parse(input.as_bytes()).expect("parses");
    semantic::check_game(doc.games().next().expect("a game"))
}

/// The codes found in the first game of `input`, in order.
fn codes(input: &str) -> Vec<&'static str> {
    findings(input)
        .list()
        .iter()
        .map(|f| f.check().code())
        .collect()
}

/// `(code, line, column, message)` of each finding.
fn placed(input: &str) -> Vec<(&'static str, u32, u32, String)> {
    findings(input)
        .list()
        .iter()
        .map(|f| {
            let at = f.position().expect("parsed");
            (f.check().code(), at.line, at.column, f.message().to_owned())
        })
        .collect()
}

/// The planted file of issue 21: 9 nodes, 12 defects, none of which the
/// parser or the value pass reports.
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
fn issue21_planted_file_has_its_12_findings() {
    let doc = sgf_grove::parse(PLANTED.as_bytes()).unwrap();
    assert!(doc.collection().warnings().is_empty());
    let got = placed(PLANTED);
    let want: Vec<(&str, u32, u32, &str)> = vec![
        ("setup_point_repeated", 2, 10, "point aa is in both AB and AW"),
        ("setup_and_move", 3, 7, "AW and the move W in one node"),
        (
            "handicap_mismatch",
            1,
            18,
            "HA[3], and 2 black stones are placed before the first move",
        ),
        ("setup_without_effect", 4, 4, "AE[ii] has no effect: empty already"),
        (
            "contradictory_annotations",
            5,
            13,
            "GB and GW exclude each other, in one node",
        ),
        (
            "annotation_without_move",
            6,
            2,
            "BM judges a move, and the node has none",
        ),
        (
            "same_colour_twice",
            7,
            2,
            "B[de] is the second black move in a row (move 3)",
        ),
        (
            "move_on_stone",
            8,
            2,
            "W[dd] is played onto a black stone (move 4)",
        ),
        (
            "game_info_repeated",
            9,
            2,
            "PB in a second game-info node of this line (the first at 1:2)",
        ),
        (
            "root_property_outside_root",
            9,
            11,
            "SZ[9] outside the root, where no reader looks for it",
        ),
        (
            "old_property_in_ff4",
            9,
            16,
            "L (Letters a, b, c… on points (now LB)) is an FF[1]-FF[3] property, in an FF[4] game",
        ),
        (
            "contradictory_annotations",
            9,
            31,
            "TE and BM exclude each other, in one node",
        ),
    ];
    let got_plain: Vec<(&str, u32, u32, &str)> = got
        .iter()
        .map(|(c, l, col, m)| (*c, *l, *col, m.as_str()))
        .collect();
    assert_eq!(got_plain, want);
    assert_eq!(findings(PLANTED).total(), 12);
}
