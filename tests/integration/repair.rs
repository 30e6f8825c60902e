//! Named repairs (`sgf_grove::repair`): each on a hand-made game (the
//! bytes before and after, the report with its positions), the source
//! rules, idempotence, deep trees, writer modes, and `--all` over the real
//! corpus (the output parses back, as many games, the same main-line
//! moves, nothing changed where no repair applied, and a second pass
//! changes nothing).

use crate::common::sgf_files;
use crate::corpus_pass::{Check, Corpus, File};
use sgf_grove::repair::{repair_game, Fixer, Repair, Repairs, Source};
use sgf_grove::writer::{Target, WriteOptions};
use std::collections::BTreeMap;
use std::sync::Mutex;

/// `input` repaired with `repairs`: the output and the report lines.
fn fix(input: &[u8], repairs: Repairs) -> (String, Vec<String>) {
    let doc = sgf_grove::parse(input).expect("parses");
    let mut fixer = Fixer::new(Vec::new(), repairs, WriteOptions::new());
    let mut report = Vec::new();
    for game in doc.games() {
        let repaired = fixer.fix_game(game).expect("writes");
        report.extend(repaired.changes.iter().map(|c| c.to_string()));
    }
    let out = String::from_utf8(fixer.into_inner()).expect("UTF-8");
    (out, report)
}

fn only(repair: Repair) -> Repairs {
    Repairs::new().with(repair)
}

/// Checks one repair on `input`: its output, its report, and that fixing
/// the output again changes nothing.
fn case(repair: Repair, input: &str, output: &str, report: &[&str]) {
    let (out, got) = fix(input.as_bytes(), only(repair));
    assert_eq!(out, output, "{repair}: {input}");
    assert_eq!(got, report, "{repair}: {input}");
    let (again, none) = fix(out.as_bytes(), only(repair));
    assert_eq!(again, out, "{repair} twice: {input}");
    assert!(none.is_empty(), "{repair} twice: {none:?}");
    // Every repair at once changes nothing more either.
    let (_, none) = fix(out.as_bytes(), Repairs::all());
    assert!(
        none.iter().all(|c| !c.contains(repair.name())),
        "{repair} after --all: {none:?}"
    );
}

/// Root properties that make a game certainly Fox's.
const FOX: &str = "AP[GNU Go:3.8]BR[9段]WR[8段]TC[3]TT[30]AP[foxwq]";
/// The same as the raw writer writes them (repeats merged).
const FOX_OUT: &str = "AP[GNU Go:3.8][foxwq]BR[9段]WR[8段]TC[3]TT[30]";

#[test]
fn root_move() {
    case(
        Repair::RootMove,
        "(;GM[1]PB[a]\nB[pd]BL[30]C[hi];W[dd])",
        "(;GM[1]PB[a]C[hi];B[pd]BL[30];W[dd])\n",
        &["2:1: root-move: B[pd] moved out of the root into a node of its own"],
    );
    // With variations: they follow the move.
    case(
        Repair::RootMove,
        "(;W[aa](;B[bb])(;B[cc]))",
        "(;;W[aa](;B[bb])(;B[cc]))\n",
        &["1:3: root-move: W[aa] moved out of the root into a node of its own"],
    );
}

#[test]
fn split_bw() {
    case(
        Repair::SplitBw,
        "(;GM[1];W[dd]AB[aa]C[x]B[pp]WL[10];B[qq])",
        "(;GM[1];W[dd]AB[aa]WL[10];C[x]B[pp];B[qq])\n",
        &["1:24: split-bw: W[dd] and B[pp] split into two nodes"],
    );
    // Root and move split both, in order.
    let (out, report) = fix(b"(;SZ[9]B[aa]W[bb])", Repairs::all());
    assert_eq!(out, "(;SZ[9];B[aa];W[bb])\n");
    assert_eq!(report.len(), 2, "{report:?}");
}

#[test]
fn sz_square() {
    case(
        Repair::SzSquare,
        "(;GM[1]\n  SZ[13:13];B[aa])",
        "(;GM[1]SZ[13];B[aa])\n",
        &["2:3: sz-square: SZ[13:13] → SZ[13]"],
    );
    // A rectangle stays.
    let (out, report) = fix(b"(;SZ[19:13])", only(Repair::SzSquare));
    assert_eq!((out.as_str(), report.len()), ("(;SZ[19:13])\n", 0));
}

/// Repeated values of a single-valued property: the first non-empty one
/// is kept (text too), the others shown in the report; Fox's own
/// `AP[foxwq]` is kept over the `AP[GNU Go:3.8]` its exporter writes first.
#[test]
fn single_value() {
    case(
        Repair::SingleValue,
        "(;AP[GNU Go:3.8]KM[0]AP[foxwq];C[][note][x];B[aa];B[][bb];C[y][y])",
        "(;AP[foxwq]KM[0];C[note];B[aa];B[];C[y])\n",
        &[
            "1:5: single-value: AP: kept [foxwq], dropped [GNU Go:3.8]",
            "1:33: single-value: C: kept [note], dropped [][x]",
            "1:54: single-value: B: kept [], dropped [bb]",
            "1:63: single-value: C: kept [y], dropped [y]",
        ],
    );
    // List properties keep every value.
    let (out, report) = fix(b"(;AB[aa][bb]AB[cc])", only(Repair::SingleValue));
    assert_eq!((out.as_str(), report.len()), ("(;AB[aa][bb][cc])\n", 0));
}

#[test]
fn empty_nodes() {
    case(
        Repair::EmptyNodes,
        "(;GM[1];;B[aa]\n;(;W[bb])(;W[cc];))",
        "(;GM[1];B[aa](;W[bb])(;W[cc]))\n",
        &[
            "1:8: empty-nodes: empty node removed",
            "2:1: empty-nodes: empty node removed",
            "2:17: empty-nodes: empty node removed",
        ],
    );
    // An empty node with siblings and several children is kept: its
    // children would become variations of another move.
    let input = "(;GM[1](;(;B[aa])(;B[bb]))(;B[cc]))";
    let (out, report) = fix(input.as_bytes(), only(Repair::EmptyNodes));
    assert_eq!(
        (out.as_str(), report.len()),
        (format!("{input}\n").as_str(), 0)
    );
    // An empty first variation ends the main line: kept (without it the
    // next variation would become the main line); a later one goes.
    let input = "(;GM[1];B[pd](;)(;W[dd]))";
    let (out, report) = fix(input.as_bytes(), only(Repair::EmptyNodes));
    assert_eq!(
        (out.as_str(), report.len()),
        (format!("{input}\n").as_str(), 0)
    );
    case(
        Repair::EmptyNodes,
        "(;GM[1];B[pd](;W[dd])(;)(;;W[cc]))",
        "(;GM[1];B[pd](;W[dd])(;W[cc]))\n",
        &[
            "1:23: empty-nodes: empty node removed",
            "1:26: empty-nodes: empty node removed",
        ],
    );
    // The root stays, empty or not.
    let (out, _) = fix(b"(;;B[aa])", only(Repair::EmptyNodes));
    assert_eq!(out, "(;;B[aa])\n");
}

#[test]
fn ki_km() {
    case(
        Repair::KiKm,
        "(;GM[1]KI[13];B[aa])",
        "(;GM[1]KM[6.5];B[aa])\n",
        &["1:8: ki-km: KI[13] → KM[6.5] (KI is in half points)"],
    );
    // As in GNU Go's regression game vaughn.sgf.
    case(
        Repair::KiKm,
        "(;HA[6]KM[0.5]AB[pd][dp]KI[1];W[fq])",
        "(;HA[6]KM[0.5]AB[pd][dp];W[fq])\n",
        &["1:25: ki-km: KI[1] dropped: KM[0.5] says the same (KI is in half points)"],
    );
    // A KM that disagrees: left as it is.
    let (out, report) = fix(b"(;KM[5.5]KI[1])", only(Repair::KiKm));
    assert_eq!((out.as_str(), report.len()), ("(;KM[5.5]KI[1])\n", 0));
}

#[test]
fn fox_komi() {
    case(
        Repair::FoxKomi,
        &format!("(;{FOX}KM[650]RU[Japanese];B[pd])"),
        &format!("(;{FOX_OUT}KM[6.5]RU[Japanese];B[pd])\n"),
        &["1:53: fox-komi: KM[650] → KM[6.5] (Fox: points × 100)"],
    );
    case(
        Repair::FoxKomi,
        &format!("(;{FOX}RU[Chinese]\nKM[375])"),
        &format!("(;{FOX_OUT}RU[Chinese]KM[7.5])\n"),
        &["2:1: fox-komi: KM[375] → KM[7.5] (Fox: stones × 100, 2 points a stone)"],
    );
    // Not certainly Fox (one signal): left.
    let (out, report) = fix(b"(;AP[foxwq]KM[650])", only(Repair::FoxKomi));
    assert_eq!((out.as_str(), report.len()), ("(;AP[foxwq]KM[650])\n", 0));
    // KGS's points stay points.
    let (out, report) = fix(
        b"(;PC[The KGS Go Server]OT[5x30 byo-yomi]KM[6.50])",
        Repairs::all(),
    );
    assert_eq!(report.len(), 0, "{report:?}");
    assert!(out.contains("KM[6.50]"));
}

#[test]
fn fox_handicap() {
    // How Fox writes them: AB in the node after the root.
    case(
        Repair::FoxHandicap,
        &format!("(;{FOX}HA[3]  ;AB[pd][dp][pp];W[dd];B[qq])"),
        &format!("(;{FOX_OUT}HA[3]AB[pd][dp][pp];W[dd];B[qq])\n"),
        &["1:60: fox-handicap: the 3 handicap stones of the node after the root moved into the root as AB (HA[3] agrees)"],
    );
    // As leading black moves.
    case(
        Repair::FoxHandicap,
        &format!("(;{FOX}HA[2]\n;B[pd]\n;B[dp]\n;W[dd];B[qq])"),
        &format!("(;{FOX_OUT}HA[2]AB[pd][dp];W[dd];B[qq])\n"),
        &["2:1: fox-handicap: 2 leading black moves turned into AB in the root (HA[2])"],
    );
    // A count that disagrees with HA, or more black moves than HA: left.
    for rest in [
        "HA[4];AB[pd][dp][pp];W[dd]",
        "HA[2];B[pd];B[dp];B[pp];W[dd]",
    ] {
        let input = format!("(;{FOX}{rest})");
        let (out, report) = fix(input.as_bytes(), only(Repair::FoxHandicap));
        assert_eq!((out, report.len()), (format!("(;{FOX_OUT}{rest})\n"), 0));
    }
}

#[test]
fn ogs_nesting() {
    case(
        Repair::OgsNesting,
        "(;GM[1]PC[OGS: https://online-go.com/game/1]\n(;B[aa]\n(;W[bb]\n(;B[cc]))))",
        "(;GM[1]PC[OGS: https://online-go.com/game/1];B[aa];W[bb];B[cc])\n",
        &["2:1: ogs-nesting: 3 variations that were the only continuation flattened into the sequence"],
    );
    // Real variations stay; a single line below one is flattened.
    case(
        Repair::OgsNesting,
        "(;GM[1](;B[aa](;W[bb]))(;B[cc]))",
        "(;GM[1](;B[aa];W[bb])(;B[cc]))\n",
        &["1:15: ogs-nesting: a variation that was the only continuation flattened into the sequence"],
    );
    // Without the repair the nesting is kept as written.
    let (out, _) = fix(
        b"(;GM[1](;B[aa](;W[bb])))",
        Repairs::all().without(Repair::OgsNesting),
    );
    assert_eq!(out, "(;GM[1](;B[aa](;W[bb])))\n");
}

#[test]
fn komi_convention() {
    case(
        Repair::KomiConvention,
        "(;SO[GoGoD]CP[Copyright GoGoD]RU[Chinese]KM[3.75];B[pd])",
        "(;SO[GoGoD]CP[Copyright GoGoD]RU[Chinese]KM[7.5];B[pd])\n",
        &["1:42: komi-convention: KM[3.75] → KM[7.5] (komi in stones under Chinese rules, 2 points a stone)"],
    );
    // Not under Chinese rules, or not certainly GoGoD / go4go: left.
    for input in [
        "(;SO[GoGoD]CP[Copyright GoGoD]RU[Japanese]KM[3.75])",
        "(;SO[GoGoD]RU[Chinese]KM[3.75])",
    ] {
        let (out, report) = fix(input.as_bytes(), only(Repair::KomiConvention));
        assert_eq!((out, report.len()), (format!("{input}\n"), 0));
    }
}

#[test]
fn mojibake() {
    // 常昊 in UTF-8 read as windows-1252 and saved as UTF-8.
    case(
        Repair::Mojibake,
        "(;CA[UTF-8]PB[å¸¸æ˜Š]PW[José]C[日本棋院])",
        "(;CA[UTF-8]PB[常昊]PW[José]C[日本棋院])\n",
        &["1:15: mojibake: PB: å¸¸æ˜Š → 常昊 (UTF-8 text misread as windows-1252 and saved as UTF-8)"],
    );
    // Shift_JIS (kana tell it) misread the same way.
    let sjis = sgf_grove::encoding_rs::SHIFT_JIS.encode("ひかる").0;
    let garbled = sgf_grove::encoding_rs::WINDOWS_1252
        .decode_without_bom_handling(&sjis)
        .0
        .into_owned();
    let input = format!("(;CA[UTF-8]GN[{garbled}])");
    let (out, report) = fix(input.as_bytes(), only(Repair::Mojibake));
    assert_eq!(out, "(;CA[UTF-8]GN[ひかる])\n");
    assert!(report[0].ends_with("(Shift_JIS text misread as windows-1252 and saved as UTF-8)"));
    // A game in another charset is not touched.
    let (out, report) = fix(
        b"(;CA[ISO-8859-1]PB[\xc3\xa5\xc2\xb8])",
        only(Repair::Mojibake),
    );
    assert_eq!(report.len(), 0);
    assert_eq!(out, "(;CA[ISO-8859-1]PB[å¸])\n");
}

#[test]
fn source_is_reported() {
    let input = format!("(;{FOX}KM[650])");
    let doc = sgf_grove::parse(input.as_bytes()).unwrap();
    let mut out = Vec::new();
    let game = doc.games().next().unwrap();
    let repaired = repair_game(game, &Repairs::new(), &WriteOptions::new(), &mut out).unwrap();
    assert_eq!(repaired.source.certain_source(), Some(Source::Fox));
    assert!(repaired.changes.is_empty());
    // No repair: the writer's raw output.
    assert_eq!(out, sgf_grove::write_collection(doc.collection()));
}

#[test]
fn writer_modes_apply_to_repaired_nodes() {
    let doc = sgf_grove::parse(b"(;CA[GB2312]PB[\xb3\xa3\xea\xbb]SZ[9:9]B[aa]C[\\x])").unwrap();
    let game = doc.games().next().unwrap();
    let mut out = Vec::new();
    let options = WriteOptions::new().canonical(true).transcode(Target::Utf8);
    repair_game(game, &Repairs::all(), &options, &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "(;FF[4]CA[UTF-8]SZ[9]PB[常昊]C[x];B[aa])\n"
    );
}

#[test]
fn deep_trees_do_not_overflow() {
    // 200,000 moves, each nested in its own variation (OGS style).
    let n = 200_000;
    let mut input = String::from("(;GM[1]");
    for i in 0..n {
        let c = if i % 2 == 0 { 'B' } else { 'W' };
        input.push_str(&format!("(;{c}[aa]"));
    }
    input.push_str(&")".repeat(n + 1));
    let (out, report) = fix(input.as_bytes(), only(Repair::OgsNesting));
    assert_eq!(report.len(), 1);
    assert!(report[0].ends_with(
        "200000 variations that were the only continuation flattened into the sequence"
    ));
    assert_eq!(out.matches(';').count(), n + 1);
    // 200,000 empty nodes in a row, then nested one in each other.
    let empties = format!("(;GM[1]{};B[aa])", ";".repeat(n));
    let (out, report) = fix(empties.as_bytes(), only(Repair::EmptyNodes));
    assert_eq!((out.as_str(), report.len()), ("(;GM[1];B[aa])\n", n));
    let nested = format!("(;GM[1]{}B[aa]{})", "(;".repeat(n), ")".repeat(n));
    let (out, report) = fix(nested.as_bytes(), Repairs::all());
    // n - 1 empty nodes, and one run of flattened variations.
    assert_eq!((out.as_str(), report.len()), ("(;GM[1];B[aa])\n", n));
    // Kept nested without the repair.
    let (kept, _) = fix(input.as_bytes(), only(Repair::EmptyNodes));
    assert_eq!(kept, format!("{input}\n"));
}

/// The first value of every `B` and `W` along the main line, root
/// included.
fn main_line_moves(game: sgf_grove::GameTree<'_, '_>) -> Vec<(String, Vec<u8>)> {
    let mut moves = Vec::new();
    for node in game.root().main_line() {
        for prop in node.properties() {
            if matches!(prop.ident(), "B" | "W") {
                moves.push((prop.ident().to_owned(), prop.raw().to_vec()));
            }
        }
    }
    moves
}

/// Every file of the corpus fixed with every repair (see
/// [`all_repairs_on`]). A check of the one pass over the corpus
/// (`corpus_pass.rs`).
#[derive(Default)]
pub struct AllRepairs(Mutex<(usize, BTreeMap<Repair, usize>)>);

impl Check for AllRepairs {
    fn name(&self) -> &'static str {
        "all_repairs_on_the_real_corpus"
    }

    fn file(&self, file: &File<'_>) {
        let mut counts = BTreeMap::new();
        let Ok(coll) = file.parsed else {
            return;
        };
        repair_file(file.path, file.bytes, coll, &mut counts);
        let mut total = self.0.lock().unwrap();
        total.0 += 1;
        for (repair, n) in counts {
            *total.1.entry(repair).or_insert(0) += n;
        }
    }

    fn finish(&self, _: &Corpus) {
        let (files, counts) = &*self.0.lock().unwrap();
        eprintln!("fix --all over {files} files: {counts:?}");
        assert!(*files > 49_000);
        assert!(counts[&Repair::FoxKomi] > 6_000);
        assert!(counts[&Repair::FoxHandicap] > 7_000);
    }
}

/// The hand-written cases of `corpus/`: each odd construct, each defect
/// the parser forgives.
#[test]
fn all_repairs_on_the_hand_written_cases() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let (files, counts) = all_repairs_on(&dir);
    assert!(files > 80, "{files}");
    assert!(counts[&Repair::RootMove] > 0, "{counts:?}");
}

/// The inputs that once broke the parser or the writer (found by fuzzing).
#[test]
fn all_repairs_on_the_fuzz_regressions() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    let (files, _) = all_repairs_on(&dir);
    assert!(files > 20, "{files}");
}

/// Fixes every file under `dir` with every repair and checks the output:
/// it parses, with as many games, the same main-line moves (unless
/// handicap moves became `AB`), a game nothing was repaired in written as
/// the writer writes it, and a second pass changes nothing. Returns the
/// files that parsed and the changes per repair.
fn all_repairs_on(dir: &std::path::Path) -> (usize, BTreeMap<Repair, usize>) {
    let mut counts = BTreeMap::new();
    let mut files = 0;
    for path in sgf_files(dir) {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(doc) = sgf_grove::parse(&bytes) else {
            continue;
        };
        files += 1;
        repair_file(&path, &bytes, doc.collection(), &mut counts);
    }
    (files, counts)
}

/// [`all_repairs_on`] for one file (`bytes`, parsed as `doc`), its changes
/// added to `counts`.
fn repair_file(
    path: &std::path::Path,
    bytes: &[u8],
    doc: sgf_grove::Collection<'_, '_>,
    counts: &mut BTreeMap<Repair, usize>,
) {
    let mut fixer = Fixer::new(Vec::new(), Repairs::all(), WriteOptions::new());
    let mut handicap_moves = false;
    let mut untouched = Vec::new();
    for game in doc.games() {
        let repaired = fixer.fix_game(game).unwrap();
        for change in &repaired.changes {
            *counts.entry(change.repair).or_insert(0) += 1;
            handicap_moves |= change.message.contains("leading black moves");
        }
        untouched.push(repaired.changes.is_empty());
    }
    let out = fixer.into_inner();
    let again = sgf_grove::parse(&out)
        .unwrap_or_else(|e| panic!("{}: the output does not parse: {e}", path.display()));
    assert_eq!(
        again.games().count(),
        doc.games().count(),
        "{}",
        path.display()
    );
    for ((before, after), untouched) in doc.games().zip(again.games()).zip(untouched) {
        if !handicap_moves {
            assert_eq!(
                main_line_moves(before),
                main_line_moves(after),
                "{}: {:?} became {:?}",
                path.display(),
                String::from_utf8_lossy(&bytes[..bytes.len().min(300)]),
                String::from_utf8_lossy(&out[..out.len().min(300)]),
            );
        }
        if untouched {
            // Nothing repaired: the writer's own bytes for the game.
            let mut plain = Vec::new();
            sgf_grove::Writer::new(&mut plain)
                .write_game(before)
                .unwrap();
            let mut fixed = Vec::new();
            sgf_grove::Writer::new(&mut fixed)
                .write_game(after)
                .unwrap();
            assert_eq!(plain, fixed, "{}", path.display());
        }
    }
    // A second pass changes nothing.
    let mut second = Fixer::new(Vec::new(), Repairs::all(), WriteOptions::new());
    for game in again.games() {
        let repaired = second.fix_game(game).unwrap();
        assert!(
            repaired.changes.is_empty(),
            "{}: {:?}",
            path.display(),
            repaired.changes
        );
    }
    assert_eq!(second.into_inner(), out, "{}", path.display());
}

/// The hand-written cases with bytes changed, deterministically (a
/// linear congruential generator): structural bytes and letters put in,
/// taken out and swapped, so that the repairs meet trees the parser had
/// to forgive.
#[test]
fn all_repairs_on_mutated_cases() {
    let seeds = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let dir = crate::common::TempDir::new("repair-mutated");
    let alphabet = b"();[]\\:BWABKMIKISZ19aabbcc \n\xc3\xa5";
    let mut state: u64 = 0x5eed;
    let mut next = |n: usize| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) as usize) % n.max(1)
    };
    for (k, path) in sgf_files(&seeds).iter().enumerate() {
        let bytes = std::fs::read(path).unwrap();
        for m in 0..12 {
            let mut b = bytes.clone();
            for _ in 0..1 + next(4) {
                let at = next(b.len() + 1);
                match next(3) {
                    0 => b.insert(at, alphabet[next(alphabet.len())]),
                    1 if at < b.len() => {
                        b.remove(at);
                    }
                    _ if at < b.len() => b[at] = alphabet[next(alphabet.len())],
                    _ => {}
                }
            }
            dir.write(&format!("{k}-{m}.sgf"), &b);
        }
    }
    let (files, _) = all_repairs_on(&dir.0);
    assert!(files > 500, "{files}");
}
