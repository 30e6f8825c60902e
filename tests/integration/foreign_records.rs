//! The record readers of `sgf_grove::foreign` on hand-made records. Each record is laid out as the
//! `//!` of its reader describes (`gib.rs`, `ngf.rs`, `ugf.rs`): those
//! format facts were learnt from the records and converters of other
//! projects; the records here are written for these tests.

use sgf_grove::foreign::{to_sgf, Conversion, Format};
use sgf_grove::{Document, WarningKind};

fn convert(bytes: &[u8]) -> Conversion {
    to_sgf(bytes).unwrap_or_else(|| panic!("not detected: {:?}", String::from_utf8_lossy(bytes)))
}

/// The converted game: it parses without warnings, its main line replays
/// with no illegal move (unless `illegal` says how many), and its root's
/// values are returned with its moves.
fn game(conv: &Conversion, illegal: usize) -> (Vec<(String, String)>, Vec<String>) {
    let doc = sgf_grove::parse(&conv.sgf).expect("converted SGF parses");
    assert!(doc.warnings().is_empty(), "{:?}", doc.warnings());
    let tree = doc.games().next().expect("one game");
    let mut cursor = tree.cursor();
    while cursor.next().is_some() {}
    assert_eq!(cursor.illegal().len(), illegal, "{:?}", cursor.illegal());
    (root_values(&doc), moves(&doc))
}

fn root_values(doc: &Document) -> Vec<(String, String)> {
    let root = doc.games().next().unwrap().root();
    root.properties()
        .map(|p| {
            let values: Vec<String> = p
                .values()
                .map(|v| String::from_utf8_lossy(v.raw()).into_owned())
                .collect();
            (p.ident().to_string(), values.join(","))
        })
        .collect()
}

fn moves(doc: &Document) -> Vec<String> {
    let root = doc.games().next().unwrap().root();
    let mut out = Vec::new();
    let mut node = root.first_child();
    while let Some(n) = node {
        for p in n.properties() {
            let v = p
                .values()
                .next()
                .map(|v| String::from_utf8_lossy(v.raw()).into_owned());
            out.push(format!("{}[{}]", p.ident(), v.unwrap_or_default()));
        }
        node = n.first_child();
    }
    out
}

fn value<'a>(root: &'a [(String, String)], ident: &str) -> Option<&'a str> {
    root.iter()
        .find(|(id, _)| id == ident)
        .map(|(_, v)| v.as_str())
}

fn kinds(conv: &Conversion) -> Vec<(WarningKind, u32)> {
    conv.warnings.iter().map(|w| (w.kind, w.pos.line)).collect()
}

/// A `.gib` record: header lines, then the moves section.
fn gib(header: &[&[u8]], moves: &[&str], end: bool) -> Vec<u8> {
    let mut out = b"\\HS\r\n".to_vec();
    for line in header {
        out.extend_from_slice(line);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"\\HE\r\n\\GS\r\n2 1 0\r\n119 0 &4\r\n");
    for m in moves {
        out.extend_from_slice(m.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    if end {
        out.extend_from_slice(b"\\GE\r\n");
    }
    out
}

#[test]
fn gib_players_result_komi_date_and_moves() {
    let black = [
        &b"\\[GAMEBLACKNAME="[..],
        &encoding_rs::EUC_KR.encode("이세돌 (9단)").0,
        b"\\]",
    ]
    .concat();
    let record = gib(
        &[
            &black,
            b"\\[GAMEWHITENAME=Kim (8D)\\]",
            b"\\[GAMEINFOMAIN=GBKIND:3,GTYPE:0,GRLT:1,ZIPSU:125,GONGJE:65,\\]",
            b"\\[GAMETAG=S1,R3,C2016:03:26:17:29,W1,Z125,G65\\]",
            b"\\[GAMEBLACKLEVEL=18\\]",
        ],
        &[
            "INI 0 1 0 &4",
            "STO 0 1 1 15 3",
            "STO 0 2 2 3 15",
            "SKI 0 3",
            "STO 0 4 2 3 3",
        ],
        true,
    );
    let conv = convert(&record);
    assert_eq!(conv.format, Format::Gib);
    assert_eq!(conv.charset, encoding_rs::EUC_KR);
    assert_eq!(kinds(&conv), []);
    let (root, moves) = game(&conv, 0);
    assert_eq!(value(&root, "CA"), Some("UTF-8"));
    assert_eq!(value(&root, "SO"), Some("Tygem .gib"));
    assert_eq!(value(&root, "PB"), Some("이세돌"));
    assert_eq!(value(&root, "BR"), Some("9단"));
    assert_eq!(value(&root, "PW"), Some("Kim"));
    assert_eq!(value(&root, "RE"), Some("W+12.5"));
    assert_eq!(value(&root, "KM"), Some("6.5"));
    assert_eq!(value(&root, "DT"), Some("2016-03-26"));
    assert_eq!(value(&root, "HA"), None);
    assert!(value(&root, "GC").unwrap().contains("GAMEBLACKLEVEL=18"));
    // x from the left, y from the top, from 0; SKI a pass of the player to move.
    assert_eq!(moves, ["B[pd]", "W[dp]", "B[]", "W[dd]"]);
}

#[test]
fn gib_result_kinds() {
    for (code, zipsu, want) in [
        ("0", "35", Some("B+3.5")),
        ("3", "0", Some("B+R")),
        ("4", "0", Some("W+R")),
        ("7", "0", Some("B+T")),
        ("8", "0", Some("W+T")),
        ("5", "0", None),
    ] {
        let info = format!("\\[GAMEINFOMAIN=GRLT:{code},ZIPSU:{zipsu},GONGJE:0,\\]");
        let conv = convert(&gib(&[info.as_bytes()], &["STO 0 1 1 3 3"], true));
        let (root, _) = game(&conv, 0);
        assert_eq!(value(&root, "RE"), want, "GRLT {code}");
        let warned = kinds(&conv) == [(WarningKind::ForeignUnreadable, 2)];
        assert_eq!(warned, want.is_none(), "GRLT {code}: {:?}", conv.warnings);
    }
}

#[test]
fn gib_handicap_stones_as_tygem_places_them() {
    let conv = convert(&gib(&[], &["INI 0 1 3 &4", "STO 0 1 2 16 16"], true));
    let (root, moves) = game(&conv, 0);
    assert_eq!(value(&root, "HA"), Some("3"));
    // The 3rd stone at the upper left.
    assert_eq!(value(&root, "AB"), Some("pd,dp,dd"));
    assert_eq!(moves, ["W[qq]"]);
}

#[test]
fn gib_off_board_unknown_lines_and_a_cut_file() {
    let conv = convert(&gib(
        &[],
        &["STO 0 1 1 3 3", "STO 0 2 2 19 3", "JUNK 1", "STO 0 3 1"],
        false,
    ));
    assert_eq!(
        kinds(&conv),
        [
            (WarningKind::ForeignOffBoard, 7),
            (WarningKind::ForeignUnreadable, 8),
            (WarningKind::ForeignUnreadable, 9),
            (WarningKind::ForeignTruncated, 10),
        ]
    );
    let w = &conv.warnings[0];
    assert_eq!(w.pos.column, 1);
    assert_eq!(record_at(&conv, w.pos.offset), b"STO 0 2 2 19 3");
    let (_, moves) = game(&conv, 0);
    assert_eq!(moves, ["B[dd]", "W[]"]);
}

fn record_at(conv: &Conversion, offset: usize) -> Vec<u8> {
    let record = gib(
        &[],
        &["STO 0 1 1 3 3", "STO 0 2 2 19 3", "JUNK 1", "STO 0 3 1"],
        false,
    );
    assert_eq!(conv.format, Format::Gib);
    record[offset..]
        .split(|&b| b == b'\r')
        .next()
        .unwrap()
        .to_vec()
}

#[test]
fn gib_in_gb18030() {
    let name = encoding_rs::GB18030.encode("柯洁 (九段)").0;
    let line = [&b"\\[GAMEWHITENAME="[..], &name, b"\\]"].concat();
    let conv = convert(&gib(
        &[
            &line,
            b"\\[GAMEPLACE=\xd6\xd0\xb9\xfa\xce\xa7\xc6\xe5\xcd\xf8\\]",
        ],
        &["STO 0 1 1 3 3"],
        true,
    ));
    assert_eq!(conv.charset, encoding_rs::GB18030);
    let (root, _) = game(&conv, 0);
    assert_eq!(value(&root, "PW"), Some("柯洁"));
    assert_eq!(value(&root, "WR"), Some("九段"));
    assert_eq!(value(&root, "PC"), Some("中国围棋网"));
}

/// An `.ngf` record: the 12 header lines, then the moves.
fn ngf(header: [&str; 12], moves: &[&str]) -> Vec<u8> {
    let mut out = String::new();
    for line in header.iter().chain(moves) {
        out.push_str(line);
        out.push_str("\r\n");
    }
    out.into_bytes()
}

const NGF_HEADER: [&str; 12] = [
    "Rated game",
    "19",
    "Kim 3D*",
    "Park 2D",
    "www.wbaduk.com",
    "0",
    "0",
    "6",
    "20170102 [10:11]",
    "3",
    "White wins by resignation!",
    "4",
];

#[test]
fn ngf_header_moves_and_the_aa_pass() {
    let conv = convert(&ngf(
        NGF_HEADER,
        &["PMAABDE", "PMABWQQ", "PMACBAA", "PMADWQD"],
    ));
    assert_eq!(conv.format, Format::Ngf);
    assert_eq!(kinds(&conv), []);
    let (root, moves) = game(&conv, 0);
    assert_eq!(value(&root, "SO"), Some("WBaduk .ngf"));
    assert_eq!(value(&root, "PW"), Some("Kim"));
    assert_eq!(value(&root, "WR"), Some("3d"));
    assert_eq!(value(&root, "PB"), Some("Park"));
    assert_eq!(value(&root, "BR"), Some("2d"));
    assert_eq!(value(&root, "KM"), Some("6.5"));
    assert_eq!(value(&root, "DT"), Some("2017-01-02"));
    assert_eq!(value(&root, "RE"), Some("W+R"));
    assert_eq!(value(&root, "GN"), Some("Rated game"));
    assert_eq!(moves, ["B[cd]", "W[pp]", "B[]", "W[pc]"]);
}

#[test]
fn ngf_handicap_points_off_board_and_cut() {
    let mut header = NGF_HEADER;
    header[5] = "4";
    header[7] = "0.5";
    header[10] = "Black wins by 3.5 points";
    header[11] = "5";
    let conv = convert(&ngf(header, &["PMAAWRR", "PMABBZZ", "PMAC"]));
    assert_eq!(
        kinds(&conv),
        [
            (WarningKind::ForeignOffBoard, 14),
            (WarningKind::ForeignUnreadable, 15),
            (WarningKind::ForeignTruncated, 16),
        ]
    );
    let (root, moves) = game(&conv, 0);
    assert_eq!(value(&root, "HA"), Some("4"));
    assert_eq!(value(&root, "AB"), Some("pd,dp,dd,pp"));
    assert_eq!(value(&root, "KM"), Some("0.5"));
    assert_eq!(value(&root, "RE"), Some("B+3.5"));
    assert_eq!(moves, ["W[qq]", "B[]"]);
}

#[test]
fn ngf_in_euc_kr_and_a_short_header() {
    let mut header = NGF_HEADER;
    header[2] = "김지석 9DP";
    let bytes = encoding_rs::EUC_KR
        .encode(&String::from_utf8(ngf(header, &["PMAABDD"])).unwrap())
        .0
        .into_owned();
    let conv = convert(&bytes);
    assert_eq!(conv.charset, encoding_rs::EUC_KR);
    let (root, _) = game(&conv, 0);
    assert_eq!(value(&root, "PW"), Some("김지석"));
    assert_eq!(value(&root, "WR"), Some("9p"));
    // Cut inside the header: what was read is kept.
    let short = b"Game\r\n13\r\nA 1K\r\nB 2K\r\nsite\r\n0\r\n0\r\n6.5\r\n";
    let conv = Format::Ngf.to_sgf(short);
    assert_eq!(kinds(&conv), [(WarningKind::ForeignTruncated, 9)]);
    let (root, moves) = game(&conv, 0);
    assert_eq!(value(&root, "SZ"), Some("13"));
    assert!(moves.is_empty());
}

/// A `.ugf` record in Shift_JIS.
fn ugf(text: &str) -> Vec<u8> {
    encoding_rs::SHIFT_JIS.encode(text).0.into_owned()
}

#[test]
fn ugf_header_listed_handicap_rows_from_the_bottom() {
    let text = "[Header]\r\nLang=JP\r\nTitle=名人戦\r\nDate=2001/03/04,10:00\r\nRule=JAPANESE\r\n\
                PlayerB=本因坊,5d,\r\nPlayerW=名人,9d,\r\nSize=19\r\nHdcp=2,0.5\r\nWinner=B,C\r\n\
                CoordinateType=IGS\r\n[Data]\r\nPD,B1,0,0\r\nDP,B1,0,0\r\nQC,W1,1,10\r\nYA,B2,2,5\r\nCQ,W3,3,8\r\n[Figure]\r\n.Text\r\n";
    let conv = convert(&ugf(text));
    assert_eq!(conv.format, Format::Ugf);
    assert_eq!(conv.charset, encoding_rs::SHIFT_JIS);
    assert_eq!(kinds(&conv), []);
    let (root, moves) = game(&conv, 0);
    assert_eq!(value(&root, "SO"), Some("Pandanet .ugf"));
    assert_eq!(value(&root, "GN"), Some("名人戦"));
    assert_eq!(value(&root, "PB"), Some("本因坊"));
    assert_eq!(value(&root, "BR"), Some("5d"));
    assert_eq!(value(&root, "PW"), Some("名人"));
    assert_eq!(value(&root, "DT"), Some("2001-03-04"));
    assert_eq!(value(&root, "RU"), Some("JAPANESE"));
    assert_eq!(value(&root, "HA"), Some("2"));
    assert_eq!(value(&root, "KM"), Some("0.5"));
    assert_eq!(value(&root, "RE"), Some("B+R"));
    assert!(value(&root, "GC").unwrap().contains("Lang=JP"));
    // Row `A` is the bottom line: `PD` is SGF's `pp`.
    assert_eq!(value(&root, "AB"), Some("pp,dd"));
    assert_eq!(moves, ["W[qq]", "B[]", "W[cc]"]);
}

#[test]
fn ugf_results_off_board_and_no_data() {
    for (winner, want) in [
        ("W,4.5", Some("W+4.5")),
        ("B,T", Some("B+T")),
        ("D", Some("0")),
        ("X,?", None),
    ] {
        let text = format!("[Header]\nSize=9\nWinner={winner}\n[Data]\nEE,B1,1,0\n");
        let conv = convert(&ugf(&text));
        let (root, moves) = game(&conv, 0);
        assert_eq!(value(&root, "RE"), want, "{winner}");
        assert_eq!(value(&root, "SZ"), Some("9"));
        assert_eq!(moves, ["B[ee]"]);
        assert_eq!(conv.warnings.is_empty(), want.is_some());
    }
    let conv = convert(&ugf(
        "[Header]\nSize=9\n[Data]\nEE,B1,1,0\nZZ,W2,2,0\n12,B3,3,0\n",
    ));
    assert_eq!(
        kinds(&conv),
        [
            (WarningKind::ForeignOffBoard, 5),
            (WarningKind::ForeignUnreadable, 6)
        ]
    );
    let conv = convert(&ugf("[Header]\nPlayerB=a,1k\n"));
    assert_eq!(kinds(&conv), [(WarningKind::ForeignTruncated, 3)]);
    let (root, _) = game(&conv, 0);
    assert_eq!(value(&root, "PB"), Some("a"));
}

#[test]
fn bytes_not_in_the_charset_are_replaced_and_warned() {
    // Valid neither as UTF-8 nor in any of the candidates: a lone lead byte.
    let conv = Format::Gib.to_sgf(b"\\HS\n\\[GAMEBLACKNAME=a\x81\\]\n\\HE\n\\GS\n\\GE\n");
    assert_eq!(kinds(&conv), [(WarningKind::ForeignCharset, 2)]);
    let (root, _) = game(&conv, 0);
    assert!(value(&root, "PB").unwrap().contains('\u{fffd}'));
}

#[test]
fn anything_converts_without_panic() {
    // Every prefix of each record, and bytes of every value.
    let mut records = vec![
        gib(
            &[b"\\[GAMEINFOMAIN=GRLT:0,ZIPSU:99999999999999999999,\\]"],
            &["INI 0 1 99", "STO 0 1 1 -5 3", "STO"],
            true,
        ),
        ngf(NGF_HEADER, &["PMAABDE", "PM", "PMAAX\u{e9}"]),
        ugf("[Header]\nSize=99999999999\nHdcp=x,y\n[Data]\n,\n\u{e9}\u{e9},B\n"),
    ];
    records.push((0..=255u8).collect());
    for record in &records {
        for end in 0..=record.len() {
            for format in [Format::Gib, Format::Ngf, Format::Ugf] {
                let conv = format.to_sgf(&record[..end]);
                sgf_grove::parse(&conv.sgf).expect("converted SGF parses");
            }
        }
    }
}
