//! Games without `CA` in Shift_JIS, Big5 and GBK, whose characters can end
//! in a `\` (0x5C) or `]` (0x5D) byte: detected from their bytes and read a
//! character at a time, as if the root named the charset, with a
//! `detected_charset` warning at the game's start. The tree, the pull
//! events and the game-at-a-time stream agree on them, alone and joined to
//! other games; UTF-8 games, games with `CA` and games detected in another
//! charset read as before.

use encoding_rs::{Encoding, BIG5, EUC_KR, GB18030, GBK, SHIFT_JIS, UTF_8, WINDOWS_1252};
use sgf_grove::events::{Event, Reader};
use sgf_grove::text::CharsetSource;
use sgf_grove::{Document, ParseOptions, Parser, WarningKind};
use std::ops::ControlFlow;

fn encode(encoding: &'static Encoding, text: &str) -> Vec<u8> {
    let (bytes, used, unmappable) = encoding.encode(text);
    assert!(
        !unmappable && used == encoding,
        "{text:?} in {}",
        encoding.name()
    );
    bytes.into_owned()
}

/// A game's texts and the byte pair in them that must stay inside values.
struct Text {
    encoding: &'static Encoding,
    pb: &'static str,
    pw: &'static str,
    c: &'static str,
    /// A character ending in 0x5C or 0x5D, and those two bytes.
    tricky: &'static [(&'static str, [u8; 2])],
}

/// ソ (0x83 0x5C) ends the black player's name, 能 (0x94 0x5C) is in the
/// comment and 表 (0x95 0x5C) ends it.
const SJIS: Text = Text {
    encoding: SHIFT_JIS,
    pb: "井山ソ",
    pw: "張栩",
    c: "黒の中押し勝ち。能力の表",
    tricky: &[
        ("ソ", [0x83, 0x5c]),
        ("能", [0x94, 0x5c]),
        ("表", [0x95, 0x5c]),
    ],
};

/// 許 (0xB3 0x5C) ends the white player's name, 功 (0xA5 0x5C) the comment.
const BIG5_TEXT: Text = Text {
    encoding: BIG5,
    pb: "林海峰",
    pw: "王立許",
    c: "黑棋中盤勝，白棋無功",
    tricky: &[("許", [0xb3, 0x5c]), ("功", [0xa5, 0x5c])],
};

/// 乗 (0x81 0x5C) and 揮 (0x93 0x5D, which ends the comment) in GBK.
const GBK_TEXT: Text = Text {
    encoding: GBK,
    pb: "常昊",
    pw: "马晓春",
    c: "黑棋中盘胜。这是第二届大赛的决赛，白棋乗势发揮",
    tricky: &[("乗", [0x81, 0x5c]), ("揮", [0x93, 0x5d])],
};

/// `(;GM[1]FF[4]SZ[19]{ca}PB[..]PW[..]C[..];B[pd];W[dd];B[pp];W[dp])`.
fn game(t: &Text, ca: Option<&str>) -> Vec<u8> {
    let mut out = b"(;GM[1]FF[4]SZ[19]".to_vec();
    if let Some(label) = ca {
        out.extend_from_slice(format!("CA[{label}]").as_bytes());
    }
    for (ident, text) in [("PB", t.pb), ("PW", t.pw), ("C", t.c)] {
        out.extend_from_slice(ident.as_bytes());
        out.push(b'[');
        out.extend(encode(t.encoding, text));
        out.push(b']');
    }
    out.extend_from_slice(b"\n;B[pd];W[dd];B[pp];W[dp])");
    out
}

/// The moves of the game's main line, as written.
fn moves(game: sgf_grove::GameTree<'_, '_>) -> Vec<Vec<u8>> {
    game.root()
        .main_line()
        .filter_map(|n| n.raw("B").or(n.raw("W")).map(<[u8]>::to_vec))
        .collect()
}

/// Checks a game without `CA` in `t`'s charset read alone: every move, the
/// text decoded, the tricky bytes inside the values, the charset the
/// detected one, and the warning.
fn check_detected(t: &Text, expected: &'static Encoding) {
    let input = game(t, None);
    let doc = sgf_grove::parse(&input).unwrap();
    let what = expected.name();
    let warnings: Vec<_> = doc
        .warnings()
        .iter()
        .map(|w| (w.kind, w.offset()))
        .collect();
    assert_eq!(warnings, [(WarningKind::DetectedCharset, 0)], "{what}");
    let game = doc.collection().game(0).unwrap();
    assert_eq!(moves(game), [b"pd", b"dd", b"pp", b"dp"], "{what}");
    let charset = game.charset();
    assert_eq!(charset.encoding(), expected, "{what}");
    assert_eq!(charset.source(), CharsetSource::Detected, "{what}");
    let root = game.root();
    assert_eq!(root.simple_text("PB"), Some(t.pb), "{what}");
    assert_eq!(root.simple_text("PW"), Some(t.pw), "{what}");
    assert_eq!(root.text("C"), Some(t.c), "{what}");
    let raw: Vec<u8> = ["PB", "PW", "C"]
        .iter()
        .flat_map(|p| root.raw(p).unwrap().to_vec())
        .collect();
    for (c, bytes) in t.tricky {
        assert_eq!(encode(t.encoding, c), bytes, "{c}");
        assert!(raw.windows(2).any(|w| w == bytes), "{what}: {c} kept whole");
    }
    // The same as naming the charset, bar the warning.
    let named = Document::parse_with(&input, &ParseOptions::new().charset(Some(expected)));
    let named = named.unwrap();
    assert!(named.warnings().is_empty());
    assert_eq!(flatten(&doc), flatten(&named), "{what}");
    // Read byte by byte (a charset forced to UTF-8), the game loses something.
    let bytewise = Document::parse_with(&input, &ParseOptions::new().charset(Some(UTF_8)));
    assert_ne!(flatten(&bytewise.unwrap()), flatten(&doc), "{what}");
}

type Flat = Vec<(usize, Vec<(String, Vec<Vec<u8>>)>)>;

/// Each node: its game, and its properties with their raw values.
fn flatten(doc: &Document<'_>) -> Flat {
    let mut out = Vec::new();
    for (g, game) in doc.collection().games().enumerate() {
        for node in game.nodes() {
            let props = node
                .properties()
                .map(|p| {
                    let values = p.values().map(|v| v.raw().to_vec()).collect();
                    (p.ident().to_string(), values)
                })
                .collect();
            out.push((g, props));
        }
    }
    out
}

#[test]
fn shift_jis_without_ca_keeps_every_move() {
    check_detected(&SJIS, SHIFT_JIS);
}

#[test]
fn big5_without_ca_keeps_every_move() {
    check_detected(&BIG5_TEXT, BIG5);
}

#[test]
fn gbk_without_ca_keeps_every_move() {
    check_detected(&GBK_TEXT, GB18030);
}

#[test]
fn a_game_with_ca_reads_as_its_ca_says() {
    for (t, label, encoding) in [
        (&SJIS, "Shift_JIS", SHIFT_JIS),
        (&BIG5_TEXT, "Big5", BIG5),
        (&GBK_TEXT, "GBK", GBK),
    ] {
        let input = game(t, Some(label));
        let doc = sgf_grove::parse(&input).unwrap();
        assert!(doc.warnings().is_empty(), "{label}: {:?}", doc.warnings());
        let game = doc.collection().game(0).unwrap();
        assert_eq!(game.charset().encoding(), encoding);
        assert_eq!(game.charset().source(), CharsetSource::Declared);
        assert_eq!(moves(game).len(), 4);
    }
    // A `CA` that names a charset read byte by byte is obeyed too: nothing
    // is detected, and 表's `\` escapes the comment's `]`; but not
    // silently: ソ's `\` swallows `PW` into `PB`, 表's the first node into
    // `C`.
    let input = game(&SJIS, Some("UTF-8"));
    let doc = sgf_grove::parse(&input).unwrap();
    let warnings: Vec<_> = doc
        .warnings()
        .iter()
        .map(|w| (w.kind, w.offset()))
        .collect();
    assert_eq!(
        warnings,
        [
            (WarningKind::SwallowedProperty, 29),
            (WarningKind::SwallowedProperty, 46)
        ]
    );
    let game = doc.collection().game(0).unwrap();
    assert_eq!(game.charset().source(), CharsetSource::Declared);
    assert_eq!(
        moves(game),
        [b"dd", b"pp", b"dp"],
        "the first move is swallowed"
    );
}

#[test]
fn utf8_and_other_charsets_without_ca_read_as_before() {
    let utf8 = Text {
        encoding: UTF_8,
        pb: "井山裕太",
        pw: "張栩",
        c: "黒の中押し勝ち。能力の表",
        tricky: &[],
    };
    // Damaged UTF-8, as the Fox server writes it: a name cut after a lead
    // byte, a `?` in place of a continuation byte.
    let mut damaged = game(&utf8, None);
    let at = damaged
        .windows(3)
        .position(|w| w == "裕".as_bytes())
        .unwrap();
    damaged[at + 2] = b'?';
    let korean = Text {
        encoding: EUC_KR,
        pb: "이세돌",
        pw: "이창호",
        c: "흑 불계승. 이것은 좋은 수입니다.",
        tricky: &[],
    };
    let latin = Text {
        encoding: WINDOWS_1252,
        pb: "Jérôme",
        pw: "Jürgen",
        c: "Très bonne partie",
        tricky: &[],
    };
    for (input, name) in [
        (game(&utf8, None), "UTF-8"),
        (damaged, "UTF-8"),
        (game(&korean, None), "EUC-KR"),
        (game(&latin, None), "windows-1252"),
    ] {
        let doc = sgf_grove::parse(&input).unwrap();
        assert!(doc.warnings().is_empty(), "{name}: {:?}", doc.warnings());
        let charset = doc.collection().game(0).unwrap().charset();
        assert_eq!(charset.name(), name);
        // Exactly what reading byte by byte gives.
        let bytewise = Document::parse_with(&input, &ParseOptions::new().charset(Some(UTF_8)));
        assert_eq!(flatten(&doc), flatten(&bytewise.unwrap()), "{name}");
    }
}

/// Games of every kind, for joining.
fn mixed_games() -> Vec<Vec<u8>> {
    vec![
        game(&SJIS, None),
        b"(;GM[1]FF[4]CA[UTF-8]PB[Lee];B[aa];W[bb])".to_vec(),
        game(&BIG5_TEXT, None),
        game(&BIG5_TEXT, Some("Big5")),
        game(&GBK_TEXT, None),
        "(;GM[1]PB[李昌镐]C[黑中盘胜];B[cc])".as_bytes().to_vec(),
        game(&SJIS, Some("Shift_JIS")),
    ]
}

#[test]
fn joined_games_each_get_their_own_reading() {
    let games = mixed_games();
    for sep in [&b""[..], b"\n", b"\r\n junk \n"] {
        let joined = games.join(sep);
        let doc = sgf_grove::parse(&joined).unwrap();
        let coll = doc.collection();
        assert_eq!(coll.len(), games.len(), "{sep:?}");
        let detected: Vec<usize> = doc
            .warnings()
            .iter()
            .filter(|w| w.kind == WarningKind::DetectedCharset)
            .map(|w| w.offset())
            .collect();
        // The three games without `CA` in an ASCII-unsafe charset.
        let starts: Vec<usize> = coll.games().map(|g| g.span().start).collect();
        assert_eq!(detected, [starts[0], starts[2], starts[4]], "{sep:?}");
        let encodings: Vec<_> = coll.games().map(|g| g.charset().encoding()).collect();
        assert_eq!(
            encodings,
            [SHIFT_JIS, UTF_8, BIG5, BIG5, GB18030, UTF_8, SHIFT_JIS],
            "{sep:?}"
        );
        for game in coll.games() {
            assert_eq!(moves(game).len(), game.nodes().count() - 1, "{sep:?}");
        }
        // Each game reads as it reads alone.
        let mut alone = Vec::new();
        for g in &games {
            alone.extend(
                flatten(&sgf_grove::parse(g).unwrap())
                    .into_iter()
                    .map(|n| n.1),
            );
        }
        let together: Vec<_> = flatten(&doc).into_iter().map(|n| n.1).collect();
        assert_eq!(together, alone, "{sep:?}");
    }
}

/// The pull events of `input`: per game, each node's properties with their
/// raw values; and the warnings.
fn events(input: &[u8], options: &ParseOptions) -> (Vec<Flat>, Vec<(WarningKind, usize)>) {
    let mut reader = Reader::with_options(input, options);
    let mut games = Vec::new();
    while let Some(event) = reader.next().unwrap() {
        match event {
            Event::GameStart { .. } => games.push(Vec::new()),
            Event::Node(node) => {
                let props = node
                    .properties()
                    .map(|p| {
                        let values = p.values().map(|v| v.raw().to_vec()).collect();
                        (p.ident().to_string(), values)
                    })
                    .collect();
                let game: &mut Flat = games.last_mut().unwrap();
                game.push((0, props));
            }
            _ => {}
        }
    }
    let warnings = reader
        .warnings()
        .iter()
        .map(|w| (w.kind, w.offset()))
        .collect();
    (games, warnings)
}

#[test]
fn tree_events_stream_and_each_agree() {
    let games = mixed_games();
    let mut inputs: Vec<Vec<u8>> = games.clone();
    for sep in [&b""[..], b"\n"] {
        inputs.push(games.join(sep));
    }
    // A game cut off and the next appended, a detached variation that
    // makes a game of its own, junk before and after.
    let mut cut = game(&SJIS, None);
    cut.truncate(cut.len() - 12);
    inputs.push([cut, game(&BIG5_TEXT, None)].concat());
    inputs.push(
        [
            &b"(("[..],
            &game(&SJIS, None)[1..],
            &game(&GBK_TEXT, None),
            b")",
        ]
        .concat(),
    );
    inputs.push([&b"junk \x95\x5c\n"[..], &game(&SJIS, None), b"\n\x83]"].concat());
    for input in &inputs {
        let options = ParseOptions::new().max_warnings(usize::MAX);
        let doc = Document::parse_with(input, &options).unwrap();
        let tree: Vec<Flat> = doc
            .collection()
            .games()
            .map(|g| {
                let one = flatten(&doc);
                one.into_iter()
                    .filter(|n| n.0 == g.index())
                    .map(|n| (0, n.1))
                    .collect()
            })
            .collect();
        let warnings: Vec<_> = doc
            .warnings()
            .iter()
            .map(|w| (w.kind, w.offset()))
            .collect();
        let what = String::from_utf8_lossy(input).into_owned();
        assert_eq!(
            events(input, &options),
            (tree.clone(), warnings.clone()),
            "{what}"
        );
        // One game at a time, in memory and from a reader.
        let mut each = Vec::new();
        let mut each_warnings = Vec::new();
        let mut parser = Parser::with_options(options);
        let _ = parser
            .parse_each(input, |coll| {
                for g in coll.games() {
                    each.push(
                        g.nodes()
                            .map(|n| {
                                let props = n
                                    .properties()
                                    .map(|p| {
                                        let v = p.values().map(|v| v.raw().to_vec()).collect();
                                        (p.ident().to_string(), v)
                                    })
                                    .collect();
                                (0, props)
                            })
                            .collect::<Flat>(),
                    );
                }
                each_warnings.extend(coll.warnings().iter().map(|w| (w.kind, w.offset())));
                ControlFlow::<()>::Continue(())
            })
            .unwrap();
        each_warnings.sort_by_key(|w| w.1);
        let mut sorted = warnings.clone();
        sorted.sort_by_key(|w| w.1);
        assert_eq!((each, each_warnings), (tree, sorted), "each: {what}");
        crate::stream::check(input);
        #[cfg(feature = "oracle")]
        {
            sgf_grove::oracle::events::check(input);
            sgf_grove::oracle::parse::check_parse(input);
            sgf_grove::oracle::roundtrip::check_roundtrip(input);
        }
    }
}

#[test]
fn strict_mode_stops_at_the_detected_charset() {
    let input = [b"(;GM[1];B[aa])\n"[..].to_vec(), game(&SJIS, None)].concat();
    let strict = ParseOptions::new().strict(true);
    let err = Document::parse_with(&input, &strict).unwrap_err();
    assert_eq!(
        err.kind(),
        sgf_grove::ErrorKind::Strict(WarningKind::DetectedCharset)
    );
    assert_eq!(err.offset(), 15);
    // The pull reader stops there too, after the first game.
    let mut reader = Reader::with_options(&input, &strict);
    let mut result = Ok(());
    while let Some(event) = reader.next().transpose() {
        if let Err(e) = event {
            result = Err(e);
            break;
        }
    }
    assert_eq!(result.unwrap_err().offset(), 15);
}

#[test]
fn the_warning_names_what_was_done() {
    assert_eq!(WarningKind::DetectedCharset.code(), "detected_charset");
    assert!(WarningKind::DetectedCharset
        .message()
        .contains("read a character at a time"));
    assert_eq!(WarningKind::ALL.len(), WarningKind::COUNT);
    assert_eq!(WarningKind::UncertainCharset.code(), "uncertain_charset");
    assert!(WarningKind::UncertainCharset
        .message()
        .contains("low confidence"));
    assert_eq!(WarningKind::SwallowedProperty.code(), "swallowed_property");
}

/// The kinds of the warnings of `input` parsed leniently, with offsets.
fn warning_kinds(input: &[u8]) -> Vec<(WarningKind, usize)> {
    let doc = sgf_grove::parse(input).unwrap();
    doc.warnings()
        .iter()
        .map(|w| (w.kind, w.offset()))
        .collect()
}

/// A Fox-style root (`GN`, `DT`, `PB`, `PW`, `BR`, `WR`, …) with names in
/// `encoding`, and three moves.
fn fox_game(encoding: &'static Encoding, pb: &str, pw: &str, rank: &str) -> Vec<u8> {
    let mut out = b"(;GM[1]FF[4]  SZ[19]  GN[]  DT[2015-12-15]  PB[".to_vec();
    out.extend(encode(encoding, pb));
    out.extend_from_slice(b"]  PW[");
    out.extend(encode(encoding, pw));
    out.extend_from_slice(b"]  BR[");
    out.extend(encode(encoding, rank));
    out.extend_from_slice(b"]  WR[");
    out.extend(encode(encoding, rank));
    out.extend_from_slice(b"]  KM[0]HA[0]RU[Japanese]RE[W+R]  ;B[dq];W[cd];B[pp])");
    out
}

#[test]
fn short_gbk_names_are_gbk_not_euc_kr() {
    // Chinese names and ranks as the Fox server writes them, in GBK: the
    // bytes are also valid EUC-KR (hangul syllables, rare ones) and Big5.
    let names = [
        ("时越", "周睿羊", "P9段"),
        ("柯洁", "朴廷桓", "9段"),
        ("无力的夜", "星际争霸", "9段"),
        ("常昊", "古力", "P9段"),
    ];
    for (pb, pw, rank) in names {
        let input = fox_game(GBK, pb, pw, rank);
        let doc = sgf_grove::parse(&input).unwrap();
        let game = doc.collection().game(0).unwrap();
        assert_eq!(game.charset().encoding(), GB18030, "{pb} {pw}");
        assert_eq!(game.root().simple_text("PB"), Some(pb));
        assert_eq!(game.root().simple_text("PW"), Some(pw));
        assert_eq!(game.root().simple_text("BR"), Some(rank));
        assert_eq!(moves(game), [b"dq", b"cd", b"pp"], "{pb}");
    }
}

#[test]
fn short_korean_names_are_euc_kr() {
    let names = [("우리미소", "위버멘쉬", "9단"), ("이세돌", "박정환", "9단")];
    for (pb, pw, rank) in names {
        let input = fox_game(EUC_KR, pb, pw, rank);
        let doc = sgf_grove::parse(&input).unwrap();
        let game = doc.collection().game(0).unwrap();
        assert_eq!(game.charset().encoding(), EUC_KR, "{pb} {pw}");
        assert_eq!(game.root().simple_text("PW"), Some(pw));
    }
}

#[test]
fn short_big5_names_keep_every_move() {
    // 許 is 0xB3 0x5C in Big5: read byte by byte, its second byte would
    // escape the `]` of the comment and swallow the moves after it.
    let mut input = b"(;GM[1]PB[".to_vec();
    input.extend(encode(BIG5, "陳許"));
    input.extend_from_slice(b"]PW[");
    input.extend(encode(BIG5, "蕭功"));
    input.extend_from_slice(b"];B[pd]C[");
    input.extend(encode(BIG5, "許"));
    input.extend_from_slice(b"];W[dd];B[pp])");
    let doc = sgf_grove::parse(&input).unwrap();
    let game = doc.collection().game(0).unwrap();
    let kinds: Vec<WarningKind> = doc.warnings().iter().map(|w| w.kind).collect();
    if game.charset().encoding() == BIG5 {
        assert_eq!(moves(game), [b"pd", b"dd", b"pp"]);
        assert_eq!(game.root().simple_text("PB"), Some("陳許"));
        assert!(kinds.contains(&WarningKind::DetectedCharset), "{kinds:?}");
    } else {
        // Never silently: a guess too weak to trust is warned about.
        assert!(kinds.contains(&WarningKind::UncertainCharset), "{kinds:?}");
    }
    // A move is never swallowed without a word.
    if moves(game).len() < 3 {
        assert!(kinds.contains(&WarningKind::SwallowedProperty), "{kinds:?}");
    }
}

#[test]
fn a_ca_swallowed_by_a_shift_jis_value_is_read_as_it_says() {
    // 表 is 0x95 0x5C in Shift_JIS: read byte by byte, `PB[表]CA[…]` is
    // one value and the `CA` is lost. The game is read as the `CA` says.
    for tail in [&b";B[pd];W[dd])"[..], b"C[x];B[pd];W[dd])"] {
        let mut input = b"(;PB[".to_vec();
        input.extend(encode(SHIFT_JIS, "表"));
        input.extend_from_slice(b"]CA[Shift_JIS]");
        input.extend_from_slice(tail);
        let doc = sgf_grove::parse(&input).unwrap();
        let game = doc.collection().game(0).unwrap();
        assert_eq!(game.charset().encoding(), SHIFT_JIS);
        assert_eq!(game.charset().source(), CharsetSource::Declared);
        assert_eq!(game.root().simple_text("PB"), Some("表"));
        assert_eq!(game.declared_charset(), Some(&b"Shift_JIS"[..]));
        assert_eq!(moves(game), [b"pd", b"dd"]);
        assert!(doc.warnings().is_empty(), "{:?}", doc.warnings());
        // The events and the game-at-a-time stream agree.
        assert_eq!(
            flatten(&doc),
            flatten(
                &Document::parse_with(&input, &ParseOptions::new().charset(Some(SHIFT_JIS)))
                    .unwrap()
            )
        );
    }
}

#[test]
fn a_property_swallowed_by_a_value_read_byte_by_byte_is_warned() {
    // Declared UTF-8 (wrongly): values are read byte by byte, and the
    // second byte of 表 escapes the `]` of `PB`, which swallows `PW`.
    let mut input = b"(;CA[UTF-8]PB[".to_vec();
    input.extend(encode(SHIFT_JIS, "表"));
    input.extend_from_slice(b"]PW[x];B[pd])");
    assert_eq!(
        warning_kinds(&input),
        [(WarningKind::SwallowedProperty, 13)]
    );
    // A node swallowed the same way.
    let mut input = b"(;CA[UTF-8]C[".to_vec();
    input.extend(encode(SHIFT_JIS, "表"));
    input.extend_from_slice(b"];B[pd]C[x])");
    assert_eq!(
        warning_kinds(&input),
        [
            (WarningKind::SwallowedProperty, 12),
            (WarningKind::RepeatedProperty, 22)
        ]
    );
    // An escaped `]` in text after a character outside ASCII, followed by
    // text: no warning.
    let input = r"(;CA[UTF-8]C[中\] and more];B[pd])".as_bytes();
    assert_eq!(warning_kinds(input), []);
    // Read a character at a time, the value closes where it should.
    let mut input = b"(;CA[Shift_JIS]PB[".to_vec();
    input.extend(encode(SHIFT_JIS, "表"));
    input.extend_from_slice(b"]PW[x];B[pd])");
    assert_eq!(warning_kinds(&input), []);
}

#[test]
fn too_little_text_to_tell_is_warned() {
    // One hanzi of GB2312 (啊) is also a hangul syllable in EUC-KR (가)
    // and a character in Big5: too little to tell.
    let input = b"(;GM[1]PB[\xb0\xa1];B[pd])";
    let doc = sgf_grove::parse(input).unwrap();
    let game = doc.collection().game(0).unwrap();
    let charset = game.charset();
    assert!(charset.is_uncertain(), "{charset:?}");
    let kinds: Vec<WarningKind> = doc.warnings().iter().map(|w| w.kind).collect();
    assert!(kinds.contains(&WarningKind::UncertainCharset), "{kinds:?}");
    let uncertain = doc
        .warnings()
        .iter()
        .find(|w| w.kind == WarningKind::UncertainCharset)
        .unwrap();
    assert_eq!(uncertain.offset(), 0);
    let (runner_up, share, runner_share) = charset.weighed().expect("weighed");
    assert_ne!(runner_up, charset.encoding());
    assert!(share >= runner_share, "{share} {runner_share}");
    // Named, it is certain.
    let named = Document::parse_with(input, &ParseOptions::new().charset(Some(EUC_KR))).unwrap();
    assert!(named.warnings().is_empty());
    // A longer text is not warned about.
    let input = fox_game(GBK, "野狐职业棋手精英赛时越", "周睿羊", "P9段");
    assert!(!warning_kinds(&input)
        .iter()
        .any(|(k, _)| *k == WarningKind::UncertainCharset));
}

/// Chinese text in UTF-8 damaged as the Fox exporter damages it: bytes of
/// some characters replaced by `?`, names cut after a lead byte.
fn damaged_utf8(text: &str, seed: u64) -> Vec<u8> {
    let mut rng = seed;
    let mut out = Vec::new();
    for c in text.chars() {
        let mut bytes = [0u8; 4];
        let bytes = c.encode_utf8(&mut bytes).as_bytes().to_vec();
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        if bytes.len() == 3 && rng.is_multiple_of(2) {
            // One or two continuation bytes replaced.
            let mut damaged = bytes.clone();
            damaged[1 + (rng >> 8) as usize % 2] = b'?';
            if rng.is_multiple_of(8) {
                damaged[1] = b'?';
                damaged[2] = b'?';
            }
            out.extend(damaged);
        } else {
            out.extend(bytes);
        }
    }
    out
}

#[test]
fn damaged_utf8_chinese_is_read_as_utf8() {
    let texts = [
        ("野狐职业棋手精英赛第一轮", "周睿羊", "时越"),
        ("第二届应氏杯决赛", "常昊", "李昌镐"),
        ("ソンソン", "ジンジン", "9段"),
    ];
    for seed in 1..40u64 {
        for (gn, pb, pw) in texts {
            let mut input = b"(;GM[1]FF[4]  SZ[19]  GN[".to_vec();
            input.extend(damaged_utf8(gn, seed));
            input.extend_from_slice(b"]  PB[");
            input.extend(damaged_utf8(pb, seed * 3));
            input.extend_from_slice(b"]  PW[");
            let mut cut = damaged_utf8(pw, seed * 7);
            // A name cut after the lead byte of a character.
            cut.push(0xe5);
            input.extend(cut);
            input.extend_from_slice(b"]  BR[9\xe6\xae\xb5]  ;B[pd];W[dd])");
            if std::str::from_utf8(&input).is_ok() {
                continue;
            }
            let doc = sgf_grove::parse(&input).unwrap();
            let game = doc.collection().game(0).unwrap();
            let charset = game.charset();
            assert_eq!(charset.encoding(), UTF_8, "{seed} {gn}: {charset:?}");
            assert!(!charset.is_uncertain(), "{seed} {gn}: {charset:?}");
            assert_eq!(game.root().simple_text("BR"), Some("9段"));
            assert_eq!(moves(game), [b"pd", b"dd"]);
            let kinds: Vec<WarningKind> = doc.warnings().iter().map(|w| w.kind).collect();
            assert!(kinds.is_empty(), "{kinds:?}");
        }
    }
}

/// `sgf check` on a game detected with low confidence: the warning, what
/// was weighed, and the way to settle it.
#[cfg(feature = "cli")]
#[test]
fn check_suggests_naming_the_charset_when_unsure() {
    let dir = crate::common::TempDir::new("uncertain-charset");
    let path = dir.write("short.sgf", b"(;GM[1]PB[\xb0\xa1];B[pd])");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_sgf"))
        .arg("check")
        .arg(&path)
        .output()
        .expect("run sgf");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(text.contains("warning[uncertain_charset]"), "{text}");
    assert!(text.contains("note: read as"), "{text}");
    assert!(text.contains("rather than"), "{text}");
    assert!(text.contains("--charset"), "{text}");
    // Named, nothing to say.
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_sgf"))
        .args(["check", "--charset", "EUC-KR"])
        .arg(&path)
        .output()
        .expect("run sgf");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(!text.contains("uncertain_charset"), "{text}");
}
