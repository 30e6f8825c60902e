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
    let want: Vec<(&str, u32, u32, &str)> =
        vec![
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
            12,
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

/// One case per check: `(check, a game where it fires, the nearest game
/// where it does not)`.
const CASES: &[(Check, &str, &str)] = &[
    (
        Check::SetupAndMove,
        "(;GM[1];AB[aa]B[bb])",
        "(;GM[1];AB[aa];B[bb])",
    ),
    (
        Check::RootPropertyOutsideRoot,
        "(;GM[1];B[aa]SZ[19])",
        "(;GM[1]SZ[19];B[aa])",
    ),
    (
        Check::GameInfoRepeated,
        "(;GM[1]PB[a];B[aa]PW[b])",
        "(;GM[1](;PB[a];B[aa])(;PB[b];B[bb]))",
    ),
    (
        Check::AnnotationWithoutMove,
        "(;GM[1];B[aa];TE[1])",
        "(;GM[1];B[aa]TE[1])",
    ),
    (
        Check::ContradictoryAnnotations,
        "(;GM[1];B[aa]GB[1]DM[1])",
        "(;GM[1];B[aa]GB[1];W[bb]GW[1])",
    ),
    (
        Check::SetupPointRepeated,
        "(;GM[1]AB[aa]AE[aa])",
        "(;GM[1]AB[aa]AW[bb])",
    ),
    (
        Check::SetupWithoutEffect,
        "(;GM[1]AB[aa];AB[aa])",
        "(;GM[1]AB[aa];AW[aa])",
    ),
    (
        Check::MoveOnStone,
        "(;GM[1];B[aa];W[aa])",
        "(;GM[1];B[aa];W[ab])",
    ),
    (
        Check::Suicide,
        "(;GM[1]SZ[9]AB[ba][ab];W[aa])",
        "(;GM[1]SZ[9]RU[NZ]AB[ba][ab];W[aa])",
    ),
    (
        Check::KoRetaken,
        "(;GM[1]SZ[9]AB[ba][ab][bc]AW[ca][bb][db][cc];B[cb];W[bb])",
        "(;GM[1]SZ[9]AB[ba][ab][bc]AW[ca][bb][db][cc];B[cb];W[ee];B[ff];W[bb])",
    ),
    (
        Check::Superko,
        "(;GM[1]SZ[9]RU[Chinese];B[aa];W[bb];AE[bb];W[bb])",
        "(;GM[1]SZ[9]RU[Japanese];B[aa];W[bb];AE[bb];W[bb])",
    ),
    (
        Check::SameColourTwice,
        "(;GM[1];B[aa];B[bb])",
        "(;GM[1];B[aa];W[bb])",
    ),
    (
        Check::SameColourTwicePl,
        "(;GM[1];B[aa];PL[B]B[bb])",
        "(;GM[1];B[aa];B[bb])",
    ),
    (
        Check::FirstMoveColour,
        "(;GM[1]HA[2]AB[dd][pp];B[qd])",
        "(;GM[1]HA[2]AB[dd][pp];W[qd])",
    ),
    (
        Check::HandicapMismatch,
        "(;GM[1]HA[3]AB[dd][pp];W[qd])",
        "(;GM[1]HA[2]AB[dd][pp];W[qd])",
    ),
    (Check::KoWithoutMove, "(;GM[1];KO[])", "(;GM[1];B[aa]KO[])"),
    (
        Check::OldPropertyInFf4,
        "(;FF[4]GM[1];B[aa]L[bb])",
        "(;FF[3]GM[1];B[aa]L[bb])",
    ),
    (
        Check::Ff4PropertyInOldFf,
        "(;FF[3]GM[1]CA[UTF-8])",
        "(;FF[4]GM[1]CA[UTF-8])",
    ),
    (
        Check::TtOnLargeBoard,
        "(;GM[1]SZ[21];B[tt])",
        "(;GM[1]SZ[19];B[tt])",
    ),
    (Check::PropertyOfOtherGame, "(;GM[6]HA[2])", "(;GM[1]HA[2])"),
];

#[test]
fn each_check_fires_on_its_case_and_not_on_the_nearest_good_one() {
    let mut covered: Vec<Check> = CASES.iter().map(|c| c.0).collect();
    covered.push(Check::ReplayLimit);
    covered.sort();
    assert_eq!(covered, Check::ALL, "a case for every check");
    for &(check, bad, good) in CASES {
        let found = findings(bad);
        assert_eq!(
            found.count(check),
            1,
            "{check} on {bad}: {:?}",
            found.list()
        );
        let f = found
            .list()
            .iter()
            .find(|f| f.check() == check)
            .expect("kept");
        assert_eq!(f.severity(), check.severity());
        assert!(f.position().is_some(), "{check}: a place");
        assert_eq!(findings(good).count(check), 0, "{check} on {good}");
    }
}

#[test]
fn more_cases_that_must_not_fire() {
    // HA[1] and HA[0] place no stones; Fox's byo-yomi `TC` beside `TT`;
    // a game without FF; Backgammon's own properties.
    for quiet in [
        "(;GM[1]HA[1];B[qd];W[dd])",
        "(;GM[1]HA[0]KM[6.5];B[qd])",
        "(;FF[4]GM[1]TC[3]TT[30];B[aa])",
        "(;GM[1]CA[UTF-8]AP[x:1];B[aa])",
        "(;GM[6]CO[b]CV[1];B[31hefe])",
        "(;GM[1];B[aa](;W[bb];B[cc])(;W[cc];B[bb]))",
    ] {
        assert!(
            findings(quiet).is_empty(),
            "{quiet}: {:?}",
            findings(quiet).list()
        );
    }
    // Another game's property in Go.
    assert_eq!(codes("(;GM[1]CO[b])"), ["property_of_other_game"]);
    // A point twice in one list is not "two of AB/AW/AE".
    assert_eq!(
        findings("(;GM[1]AB[aa][aa])").count(Check::SetupPointRepeated),
        0
    );
}

#[test]
fn replay_limit_is_a_finding_and_the_walk_stops() {
    use sgf_grove::game::replay::ReplayOptions;
    let doc = sgf_grove::parse(b"(;GM[1];B[aa];W[bb];B[aa];W[cc])").unwrap();
    let game = doc.games().next().unwrap();
    let options = ReplayOptions::default().max_nodes(3);
    let found = Semantic::new().replay(options).check(game);
    assert_eq!(found.count(Check::ReplayLimit), 1, "{:?}", found.list());
    // The move onto a stone at node 3 is past the limit: not checked.
    assert_eq!(found.count(Check::MoveOnStone), 0);
    assert!(found.list()[0].message().contains("replay limit"));
    let all = Semantic::new().check(game);
    assert_eq!(all.count(Check::MoveOnStone), 1);
}

#[test]
fn every_line_is_checked_and_lines_do_not_leak_into_each_other() {
    // The second variation repeats B: only there. The first variation's
    // stones are gone when the second is replayed.
    let game = "(;GM[1](;B[aa];W[bb];B[cc])(;B[bb];B[cc]))";
    let found = findings(game);
    assert_eq!(codes(game), ["same_colour_twice"]);
    assert_eq!(found.list()[0].key(), 5);
    // A game-info node in each of two variations is fine; a second on
    // one line is not.
    let game = "(;GM[1](;PB[a];B[aa];PW[x])(;PB[b];B[bb]))";
    assert_eq!(codes(game), ["game_info_repeated"]);
}

#[test]
fn keep_caps_the_list_not_the_counts() {
    let mut game = String::from("(;GM[1]");
    for _ in 0..50 {
        game.push_str(";B[aa]");
    }
    game.push(')');
    let doc = sgf_grove::parse(game.as_bytes()).unwrap();
    let found = Semantic::new().keep(5).check(doc.games().next().unwrap());
    assert_eq!(found.list().len(), 5);
    assert_eq!(found.count(Check::SameColourTwice), 49);
    assert_eq!(found.count(Check::MoveOnStone), 49);
    assert_eq!(found.dropped(), 98 - 5);
}

/// `(code, key, message)` of each finding: what a parsed game and its
/// edited copy share (the copy has no positions).
fn plain(found: &Findings) -> Vec<(&'static str, usize, String)> {
    found
        .list()
        .iter()
        .map(|f| (f.check().code(), f.key(), f.message().to_owned()))
        .collect()
}

#[test]
fn an_edited_copy_has_the_same_findings() {
    let mut inputs: Vec<&str> = CASES.iter().flat_map(|c| [c.1, c.2]).collect();
    inputs.push(PLANTED);
    for input in inputs {
        let doc = sgf_grove::parse(input.as_bytes()).unwrap();
        let game = doc.games().next().unwrap();
        let parsed = semantic::check_game(game);
        let edited = EditableGame::from_game(game);
        let copy = semantic::check_game(&edited);
        // Positions name the node or property only in the parsed game,
        // except in messages that name another place by its position.
        let strip = |v: Vec<(&'static str, usize, String)>| -> Vec<(&'static str, usize)> {
            v.into_iter().map(|(c, k, _)| (c, k)).collect()
        };
        assert_eq!(strip(plain(&copy)), strip(plain(&parsed)), "{input}");
        for (p, e) in parsed.list().iter().zip(copy.list()) {
            if p.check() != Check::GameInfoRepeated {
                assert_eq!(p.message(), e.message(), "{input}");
            }
            assert!(e.position().is_none());
        }
    }
}

#[test]
fn catalogue_repairs_are_repairs_of_sgf_fix() {
    use sgf_grove::repair::Repair;
    for check in Check::ALL {
        if let Some(name) = check.repair() {
            assert!(Repair::from_name(name).is_some(), "{check}: {name}");
        }
        assert!(!check.explanation().is_empty());
    }
    assert_eq!(Check::SetupPointRepeated.severity(), Severity::Error);
    assert_eq!(Check::MoveOnStone.sgfc(), Some(58));
}

/// `input` fixed with the repair named `repair`: the output and the
/// report lines.
fn fix(input: &str, repair: &str) -> (String, Vec<String>) {
    use sgf_grove::repair::{Fixer, Repair, Repairs};
    use sgf_grove::writer::WriteOptions;
    let doc = sgf_grove::parse(input.as_bytes()).unwrap();
    let repairs = Repairs::new().with(Repair::from_name(repair).unwrap());
    let mut fixer = Fixer::new(Vec::new(), repairs, WriteOptions::new());
    let mut report = Vec::new();
    for game in doc.games() {
        let repaired = fixer.fix_game(game).unwrap();
        report.extend(repaired.changes.iter().map(|c| c.to_string()));
    }
    (String::from_utf8(fixer.into_inner()).unwrap(), report)
}

/// Each repair of a check: the output, its report, the check no longer
/// firing on the output, and a second pass changing nothing.
#[test]
fn each_repair_mends_its_check() {
    let cases: &[(&str, Check, &str, &str, &[&str])] = &[
        (
            "split-setup",
            Check::SetupAndMove,
            "(;GM[1];B[aa]\n;AB[bb]W[cc]WL[30]C[x]TE[1])",
            "(;GM[1];B[aa];AB[bb]C[x];W[cc]WL[30]TE[1])\n",
            &["2:2: split-setup: AB and W[cc] split into two nodes, the setup first"],
        ),
        (
            "drop-orphan-annotation",
            Check::AnnotationWithoutMove,
            "(;GM[1];B[aa];BM[1]C[bad?];W[bb])",
            "(;GM[1];B[aa];C[bad?];W[bb])\n",
            &["1:15: drop-orphan-annotation: BM[1] dropped: its node has no move"],
        ),
        (
            "drop-orphan-annotation",
            Check::KoWithoutMove,
            "(;GM[1];B[aa];KO[]C[x])",
            "(;GM[1];B[aa];C[x])\n",
            &["1:15: drop-orphan-annotation: KO[] dropped: its node has no move"],
        ),
        (
            "root-props",
            Check::RootPropertyOutsideRoot,
            "(;GM[1];B[aa]SZ[9];W[bb]SZ[9])",
            "(;GM[1]SZ[9];B[aa];W[bb])\n",
            &[
                "1:14: root-props: SZ[9] moved into the root",
                "1:25: root-props: SZ[9] dropped: the root has it now",
            ],
        ),
        (
            "drop-idle-setup",
            Check::SetupWithoutEffect,
            "(;GM[1]AB[aa];B[cc];AE[dd][ee]AB[aa][bb];AW[ff])",
            "(;GM[1]AB[aa];B[cc];AB[bb];AW[ff])\n",
            &[
                "1:23: drop-idle-setup: AE[dd] dropped: it changes nothing",
                "1:27: drop-idle-setup: AE[ee] dropped: it changes nothing",
                "1:33: drop-idle-setup: AB[aa] dropped: it changes nothing",
            ],
        ),
    ];
    for &(repair, check, input, output, report) in cases {
        assert!(findings(input).count(check) > 0, "{repair}: {input}");
        let (out, got) = fix(input, repair);
        assert_eq!(out, output, "{repair}");
        assert_eq!(got, report, "{repair}");
        assert_eq!(findings(&out).count(check), 0, "{repair}: {out}");
        let (again, none) = fix(&out, repair);
        assert_eq!(again, out, "{repair} twice");
        assert!(none.is_empty(), "{repair} twice: {none:?}");
    }
}

#[test]
fn unsafe_cases_are_left_alone() {
    // Root properties that disagree, or one the root has: not moved.
    for input in ["(;GM[1];SZ[9];SZ[13])", "(;GM[1]SZ[19];B[aa]SZ[9])"] {
        let (out, report) = fix(input, "root-props");
        assert_eq!(out, format!("{input}\n"));
        assert!(report.is_empty());
    }
    // A rectangle with a point that changes something stays whole.
    let (out, report) = fix("(;GM[1]AB[aa];AB[aa:ab])", "drop-idle-setup");
    assert_eq!(out, "(;GM[1]AB[aa];AB[aa:ab])\n");
    assert!(report.is_empty());
}

/// The semantic pass over every game of the corpus: no panic, the same
/// findings for every 20th file's games as edited copies, and the count
/// per code printed. A check of the one pass over the corpus
/// (`corpus_pass.rs`).
#[derive(Default)]
pub struct EveryGame(Mutex<(u64, PerCode)>);

/// Per code: findings, and games with one.
type PerCode = BTreeMap<&'static str, (u64, u64)>;

impl CorpusCheck for EveryGame {
    fn name(&self) -> &'static str {
        "semantic_checks_on_the_real_corpus"
    }

    fn any_archive(&self) -> bool {
        true
    }

    fn file(&self, file: &File<'_>) {
        let Ok(coll) = file.parsed else {
            return;
        };
        let mut semantic = Semantic::new();
        let mut counts = PerCode::new();
        let mut games = 0;
        for game in coll.games() {
            games += 1;
            let found = semantic.check(game);
            for (check, n) in found.counts() {
                let entry = counts.entry(check.code()).or_default();
                entry.0 += n;
                entry.1 += 1;
            }
            if file.n.is_multiple_of(20) {
                let edited = EditableGame::from_game(game);
                let copy = semantic.check(&edited);
                let keys = |f: &Findings| -> Vec<(Check, usize)> {
                    f.list().iter().map(|x| (x.check(), x.key())).collect()
                };
                assert_eq!(keys(&copy), keys(&found), "{}", file.path.display());
            }
        }
        let mut total = self.0.lock().unwrap();
        total.0 += games;
        for (code, (n, g)) in counts {
            let entry = total.1.entry(code).or_default();
            entry.0 += n;
            entry.1 += g;
        }
    }

    fn finish(&self, corpus: &Corpus) {
        let (games, counts) = &*self.0.lock().unwrap();
        eprintln!("semantic checks over {games} games (code: findings in games):");
        for (code, (n, g)) in counts {
            eprintln!("  {code}: {n} in {g}");
        }
        if corpus.shared {
            assert!(*games > 49_000);
            // Fox's records: handicaps played or lost, repeated colours.
            assert!(counts["handicap_mismatch"].1 > 300, "{counts:?}");
            assert!(!counts.contains_key("setup_point_repeated"), "{counts:?}");
        }
    }
}

/// One pass over many games (its replay, board and stacks kept from game
/// to game) finds in each what a fresh pass finds: games of other sizes,
/// rules, game types, with and without variations, one after another.
#[test]
fn a_pass_kept_across_games_finds_what_a_fresh_one_finds() {
    let games = [
        "(;GM[1]SZ[19]HA[2]AB[dd][pp];W[qd];W[dp](;B[cc];B[dd])(;W[ee]BM[1]))",
        "(;GM[1]SZ[9]RU[Chinese];B[ab];W[bb];B[ba];W[ca];B[aa];W[ba](;B[aa])(;B[cc]))",
        "(;GM[1]SZ[25];B[tt];W[tt];B[tt])",
        "(;GM[6]SZ[9];B[aa]BM[1])",
        "(;GM[1]SZ[13]PL[W];B[aa];W[aa];B[ab]AB[ac])",
        "(;GM[1]SZ[5];B[aa];W[ba];B[bb];W[ab];B[cc];W[ee];B[ac](;W[aa])(;W[dd];B[ab]))",
        "(;GM[1]SZ[19];B[pd];W[dp];B[pp];W[dd];B[pd])",
    ];
    let text: String = games.concat();
    let doc = sgf_grove::parse(text.as_bytes()).expect("parses");
    let mut kept = Semantic::new();
    let mut total = 0;
    // Twice round, so that every game follows every kind of game.
    for round in 0..2 {
        for (i, game) in doc.games().enumerate() {
            let reused = kept.check(game);
            let fresh = semantic::check_game(game);
            assert_eq!(reused, fresh, "round {round}, game {i}: {}", games[i]);
            total += fresh.total();
        }
    }
    assert!(total >= 10, "the games have findings: {total}");
}
