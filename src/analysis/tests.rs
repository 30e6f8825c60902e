//! One test per form, and the failures each gives.

use super::*;
use crate::value::Point;

fn analyse(sgf: &str) -> GameAnalysis {
    let doc = crate::parse(sgf.as_bytes()).unwrap();
    main_line(doc.games().next().unwrap())
}

fn play(x: u8, y: u8) -> Move {
    Move::Play(Point { x, y })
}

#[test]
fn lizzie_leela_zero() {
    // Black played Q16 (pd); Lizzie's first line is Black's win rate; the
    // candidates are White's.
    let found = analyse(
        "(;SZ[19];B[pd]LZ[0.7.2 41.6 2.8k\nmove D4 visits 988 winrate 5846 prior 1200 pv D4 Q4 C16 info move Q4 visits 10 winrate 5000 pv Q4])",
    );
    assert!(found.warnings.is_empty(), "{:?}", found.warnings);
    let r = &found.records[0];
    assert_eq!((r.move_number, r.color), (1, Some(Color::Black)));
    let a = &r.analysis;
    assert_eq!(a.form, Form::Lizzie);
    assert!((a.win_rate.unwrap() - 0.416).abs() < 1e-9);
    assert_eq!(a.visits, Some(2800));
    assert_eq!(a.pv, [play(3, 15), play(15, 15), play(2, 3)]);
    assert_eq!(a.score_lead, None);
}

#[test]
fn lizzie_katago_white_moved() {
    // White moved: the first line is White's win rate; the score is the
    // side to move's (Black's), kept as it is.
    let found = analyse(
        "(;SZ[19];B[pd];W[dd]LZ[0.7.2 30.0 500 move R4 visits 400 winrate 0.7 scoreMean 2.5 order 0 pv R4 pvVisits 400 300 move C3 visits 5 winrate 0.2 scoreMean -1 order 1 pv C3])",
    );
    assert!(found.warnings.is_empty(), "{:?}", found.warnings);
    let a = &found.records[0].analysis;
    assert!((a.win_rate.unwrap() - 0.7).abs() < 1e-9);
    assert_eq!((a.score_lead, a.visits), (Some(2.5), Some(500)));
    assert_eq!(a.pv, [play(16, 15)]);
}

#[test]
fn sabaki_and_ogatak() {
    let found = analyse("(;SZ[9];B[ee]SBKV[60.5]SBKS[-2];W[dd]SBKV[40]OGSC[3.5];B[cc]SBKV[12])");
    assert!(found.warnings.is_empty());
    let forms: Vec<_> = found.records.iter().map(|r| r.analysis.form).collect();
    assert_eq!(forms, [Form::Sabaki, Form::Ogatak, Form::Sabaki]);
    assert_eq!(found.records[0].analysis.win_rate, Some(0.605));
    assert_eq!(found.records[0].analysis.score_lead, Some(-2.0));
    assert_eq!(found.records[1].analysis.score_lead, Some(3.5));
    assert_eq!(found.records[2].analysis.score_lead, None);
    assert_eq!(found.records[2].move_number, 3);
}

#[test]
fn comments() {
    let found = analyse(
        "(;SZ[19];B[pd]C[0.10 0.90 0.00 -12.5 v=800 weight=1.00];W[dd]C[White's win rate: 35.0% visits: 507];B[pp]C[Black's winrate: 54.2% (+1.3%)\n(kata / 1.5k playouts)];W[dp]C[Nice move, 0.5 points better])",
    );
    assert_eq!(found.records.len(), 3);
    let [selfplay, review, lizzie] = [0, 1, 2].map(|i| &found.records[i].analysis);
    assert_eq!(selfplay.form, Form::KataGoSelfplay);
    assert!(selfplay.before_move);
    assert!((selfplay.win_rate.unwrap() - 0.9).abs() < 1e-9);
    assert_eq!(
        (selfplay.score_lead, selfplay.visits),
        (Some(12.5), Some(800))
    );
    assert_eq!(review.form, Form::Review);
    assert!((review.win_rate.unwrap() - 0.65).abs() < 1e-9);
    assert_eq!(review.visits, Some(507));
    assert_eq!(lizzie.form, Form::LizzieComment);
    assert!((lizzie.win_rate.unwrap() - 0.542).abs() < 1e-9);
    assert_eq!(lizzie.visits, Some(1500));
}

#[test]
fn no_analysis_no_records() {
    let found = analyse("(;GM[1]SZ[19]C[A game];B[pd]C[0.5];W[dd]LB[aa:1])");
    assert_eq!(found, GameAnalysis::default());
}

#[test]
fn malformed_values_warn_with_positions() {
    let found = analyse("(;SZ[19];B[pd]SBKV[lots];W[dd]LZ[oops];B[pp]OGSC[x]SBKV[50])");
    assert!(found.records.is_empty(), "{:?}", found.records);
    let messages: Vec<String> = found.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(messages.len(), 3, "{messages:?}");
    assert_eq!(
        messages[0],
        "sabaki analysis: SBKV[lots] is not a percentage at 1:20 (byte 19)"
    );
    assert!(
        messages[1].starts_with("lizzie analysis: LZ's first line \"oops\""),
        "{}",
        messages[1]
    );
    assert!(
        messages[1].ends_with("at 1:34 (byte 33)"),
        "{}",
        messages[1]
    );
    assert!(
        messages[2].contains("OGSC[x] is not a number"),
        "{}",
        messages[2]
    );
}

/// Base64 as KaTrain writes it (standard alphabet, padded).
#[cfg(feature = "katrain")]
fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n =
            chunk.iter().fold(0u32, |acc, &b| acc << 8 | u32::from(b)) << (8 * (3 - chunk.len()));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `bytes` gzipped then base64-encoded.
#[cfg(feature = "katrain")]
fn pack(bytes: &[u8]) -> String {
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes).unwrap();
    base64(&gz.finish().unwrap())
}

/// Half floats, little-endian: 1.0, -1.0, 0.5, 0 repeated.
#[cfg(feature = "katrain")]
fn halves(n: usize) -> Vec<u8> {
    [0x3c00u16, 0xbc00, 0x3800, 0]
        .iter()
        .cycle()
        .take(n)
        .flat_map(|h| h.to_le_bytes())
        .collect()
}

#[cfg(feature = "katrain")]
#[test]
fn katrain() {
    assert_eq!(base64(b"fooba"), "Zm9vYmE=");
    let json = r#"{"root": {"winrate": 0.625, "scoreLead": -1.25, "visits": 500},
        "moves": {"D4": {"order": 1, "pv": ["D4"]}, "C3": {"order": 0, "pv": ["C3", "pass", "E5"]}},
        "completed": true}"#;
    let kt = format!(
        "{}][{}][{}",
        pack(&halves(81)),
        pack(&halves(82)),
        pack(json.as_bytes())
    );
    let sgf = format!("(;SZ[9]KTV[1.0];B[ee]KT[{kt}])");
    let found = analyse(&sgf);
    assert!(found.warnings.is_empty(), "{:?}", found.warnings);
    let a = &found.records[0].analysis;
    assert_eq!(a.form, Form::KaTrain);
    assert_eq!(
        (a.win_rate, a.score_lead, a.visits),
        (Some(0.625), Some(-1.25), Some(500))
    );
    assert_eq!(a.pv, [play(2, 6), Move::Pass, play(4, 4)]);
    let ownership = a.ownership.as_ref().unwrap();
    assert_eq!(
        (ownership.len(), ownership[0], ownership[1], ownership[2]),
        (81, 1.0, -1.0, 0.5)
    );
    assert_eq!(a.policy.as_ref().unwrap().len(), 82);
    assert_eq!(a.pv_text(), "cg pass ee");
}

#[cfg(feature = "katrain")]
#[test]
fn katrain_without_ownership_and_policy() {
    let json = r#"{"root": {"winrate": 0.5, "scoreLead": 0.5, "visits": 1}, "moves": {}}"#;
    let kt = format!("{}][{}][{}", pack(b""), pack(b""), pack(json.as_bytes()));
    let found = analyse(&format!("(;SZ[19];B[pd]KT[{kt}])"));
    assert!(found.warnings.is_empty(), "{:?}", found.warnings);
    let a = &found.records[0].analysis;
    assert_eq!((a.ownership.as_ref(), a.policy.as_ref()), (None, None));
    assert!(a.pv.is_empty());
}

#[cfg(feature = "katrain")]
#[test]
fn katrain_failures() {
    let json = pack(br#"{"root": {"winrate": 0.5}}"#);
    let none = pack(b"");
    let cases = [
        (format!("KT[{json}]"), "KT has 1 values, not 3"),
        (
            format!("KT[a*b][{json}][{json}]"),
            "KT value is not base64 (byte 1 of the value)",
        ),
        (
            format!("KT[Zm9v][{json}][{json}]"),
            "KT value is not gzip data",
        ),
        (
            format!("KT[{}][{json}][{json}]", pack(&[0; 5])),
            "KT's ownership holds 5 bytes, not 722",
        ),
        (
            format!("KT[{none}][{none}][{}]", pack(b"{")),
            "KT's analysis is not JSON",
        ),
        (
            format!("KT[{none}][{none}][{}]", pack(b"[1]")),
            "no \"root\" object",
        ),
    ];
    for (prop, want) in cases {
        let sgf = format!("(;SZ[19];B[pd]{prop};W[dd]SBKV[50])");
        let found = analyse(&sgf);
        // The other analysis of the game is still read.
        assert_eq!(found.records.len(), 1, "{prop}");
        assert_eq!(found.warnings.len(), 1, "{prop}");
        let w = &found.warnings[0];
        assert!(w.message.contains(want), "{prop}: {}", w.message);
        assert_eq!(w.position.unwrap().line, 1);
    }
    let found = analyse(&format!(
        "(;SZ[19]KTV[2.0];B[pd]KT[{none}][{none}][{json}])"
    ));
    assert!(found.warnings[0].message.contains("KTV[2.0]"));
}
