//! Charsets: one hand-made game per charset, with and without `CA`, built
//! here with `encoding_rs` and checked against the same bytes in
//! `corpus/charset_*.sgf` (whose `.txt` the corpus runner checks). For each:
//! the charset a game reports (`GameTree::charset`: name, source,
//! confidence), the decoded `PB`, `PW`, `C` and `N` exactly, and the raw
//! bytes through `get_raw`.
//!
//! Without `CA` (and without `ParseOptions::charset`) values are scanned a
//! byte at a time, where in Shift_JIS, Big5 and GBK a character whose
//! second byte is `\` (0x5C) or `]` (0x5D) would end a value early or
//! escape its closing bracket; a game whose bytes are not UTF-8 and are
//! detected as one of those is read again a character at a time, with a
//! `detected_charset` warning (`charset_004`, `_006`, `_008`, `_010`).
//! What byte-by-byte reading does to them is shown with an override that
//! forces it.
//!
//! Then the real corpus (`../shared/corpus`; skipped with a message when
//! absent, an error when `CI` is set): Fox games whose player names are
//! intact UTF-8, one whose name the exporter cut after a lead byte, and the
//! two GNU Go games without `CA` in GB2312 and in Latin-1.

use encoding_rs::{
    Encoding, BIG5, EUC_JP, EUC_KR, GB18030, GBK, KOI8_R, SHIFT_JIS, UTF_8, WINDOWS_1252,
};
use sgf_grove::text::CharsetSource;
use sgf_grove::{Document, ParseOptions, WarningKind};
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------------------
// The hand-made games.
// ---------------------------------------------------------------------------

/// The text of a game: black, white, the root comment, the name of node 1.
#[derive(Clone, Copy, Debug)]
struct Texts {
    pb: &'static str,
    pw: &'static str,
    c: &'static str,
    n: &'static str,
}

const UTF8_TEXT: Texts = Texts {
    pb: "李昌镐",
    pw: "曹薰鉉",
    c: "黑中盘胜。囲碁 바둑 — «ça va»",
    n: "第1手",
};
/// 揮 is 0x93 0x5D in GBK: it ends the comment.
const GBK_TEXT: Texts = Texts {
    pb: "常昊",
    pw: "马晓春",
    c: "黑棋中盘胜。这是第二届大赛的决赛，白棋发揮",
    n: "第一手",
};
/// 淺 is 0x9C 0x5C; 𠮷 takes four bytes.
const GB18030_TEXT: Texts = Texts {
    pb: "常昊",
    pw: "古力",
    c: "黑棋中盘胜。淺𠮷",
    n: "第一手",
};
/// 因 is 0xA6 0x5D, 也 0xA4 0x5D, 功 0xA5 0x5C.
const BIG5_TEXT: Texts = Texts {
    pb: "林海峰",
    pw: "王立誠",
    c: "黑棋中盤勝，因為白棋也無功",
    n: "第一手",
};
/// 能 is 0x94 0x5C, 表 0x95 0x5C (it ends the comment).
const SJIS_TEXT: Texts = Texts {
    pb: "井山裕太",
    pw: "張栩",
    c: "黒の中押し勝ち。能力の表",
    n: "次の一手",
};
const EUCJP_TEXT: Texts = Texts {
    pb: "井山裕太",
    pw: "張栩",
    c: "黒の中押し勝ち。これはとても良い手です。",
    n: "次の一手",
};
const EUCKR_TEXT: Texts = Texts {
    pb: "이세돌",
    pw: "이창호",
    c: "흑 불계승. 이것은 좋은 수입니다.",
    n: "첫 수",
};
const LATIN1_TEXT: Texts = Texts {
    pb: "Jérôme Hubert",
    pw: "Jürgen Müller",
    c: "Très bonne partie : «coup décisif» à la fin.",
    n: "Début",
};
const CP1252_TEXT: Texts = Texts {
    pb: "Jérôme Hubert",
    pw: "Zoë O’Brien",
    c: "“Quoted” – a €5 bet… ça va",
    n: "Début",
};
const KOI8R_TEXT: Texts = Texts {
    pb: "Алексей Лазарев",
    pw: "Илья Шикшин",
    c: "Чёрные выиграли.",
    n: "Первый ход",
};

/// How a case reads without help.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Outcome {
    /// Every value intact, no warning.
    Intact,
    /// Every value intact, read a character at a time in the charset
    /// detected, as the one warning says.
    Detected,
}

struct Case {
    /// The corpus file, without extension.
    file: &'static str,
    /// The encoding the text is written in.
    encoding: &'static Encoding,
    /// The `CA` value, if any.
    label: Option<&'static str>,
    texts: Texts,
    /// The charset the game must report (declared, or the right guess).
    charset: &'static Encoding,
    outcome: Outcome,
}

const fn case(
    file: &'static str,
    encoding: &'static Encoding,
    label: Option<&'static str>,
    texts: Texts,
    charset: &'static Encoding,
    outcome: Outcome,
) -> Case {
    Case {
        file,
        encoding,
        label,
        texts,
        charset,
        outcome,
    }
}

use Outcome::{Detected, Intact};

/// Every hand-made case. `GB2312` and `ISO-8859-1` are labels of GBK and
/// windows-1252 in `encoding_rs` (as in browsers); a guess for GB2312 or
/// GBK text is GB18030, their superset.
fn cases() -> Vec<Case> {
    vec![
        case(
            "charset_001",
            UTF_8,
            Some("UTF-8"),
            UTF8_TEXT,
            UTF_8,
            Intact,
        ),
        case("charset_002", UTF_8, None, UTF8_TEXT, UTF_8, Intact),
        case("charset_003", GBK, Some("GB2312"), GBK_TEXT, GBK, Intact),
        case("charset_004", GBK, None, GBK_TEXT, GB18030, Detected),
        case(
            "charset_005",
            GB18030,
            Some("GB18030"),
            GB18030_TEXT,
            GB18030,
            Intact,
        ),
        case(
            "charset_006",
            GB18030,
            None,
            GB18030_TEXT,
            GB18030,
            Detected,
        ),
        case("charset_007", BIG5, Some("Big5"), BIG5_TEXT, BIG5, Intact),
        case("charset_008", BIG5, None, BIG5_TEXT, BIG5, Detected),
        case(
            "charset_009",
            SHIFT_JIS,
            Some("Shift_JIS"),
            SJIS_TEXT,
            SHIFT_JIS,
            Intact,
        ),
        case(
            "charset_010",
            SHIFT_JIS,
            None,
            SJIS_TEXT,
            SHIFT_JIS,
            Detected,
        ),
        case(
            "charset_011",
            EUC_JP,
            Some("EUC-JP"),
            EUCJP_TEXT,
            EUC_JP,
            Intact,
        ),
        case("charset_012", EUC_JP, None, EUCJP_TEXT, EUC_JP, Intact),
        case(
            "charset_013",
            EUC_KR,
            Some("EUC-KR"),
            EUCKR_TEXT,
            EUC_KR,
            Intact,
        ),
        case("charset_014", EUC_KR, None, EUCKR_TEXT, EUC_KR, Intact),
        case(
            "charset_015",
            WINDOWS_1252,
            Some("ISO-8859-1"),
            LATIN1_TEXT,
            WINDOWS_1252,
            Intact,
        ),
        case(
            "charset_016",
            WINDOWS_1252,
            Some("ISO8859_1"),
            LATIN1_TEXT,
            WINDOWS_1252,
            Intact,
        ),
        case(
            "charset_017",
            WINDOWS_1252,
            None,
            LATIN1_TEXT,
            WINDOWS_1252,
            Intact,
        ),
        case(
            "charset_018",
            WINDOWS_1252,
            Some("Windows-1252"),
            CP1252_TEXT,
            WINDOWS_1252,
            Intact,
        ),
        case(
            "charset_019",
            WINDOWS_1252,
            None,
            CP1252_TEXT,
            WINDOWS_1252,
            Intact,
        ),
        case(
            "charset_020",
            KOI8_R,
            Some("KOI8-R"),
            KOI8R_TEXT,
            KOI8_R,
            Intact,
        ),
    ]
}

fn encode(encoding: &'static Encoding, text: &str) -> Vec<u8> {
    let (bytes, used, unmappable) = encoding.encode(text);
    assert!(
        !unmappable && used == encoding,
        "{text:?} is not encodable in {}",
        encoding.name()
    );
    bytes.into_owned()
}

/// `(;GM[1]FF[4]CA[label]SZ[19]PB[..]PW[..]C[..]\n;B[pd]N[..]\n;W[dd])`.
fn build(encoding: &'static Encoding, label: Option<&str>, t: &Texts) -> Vec<u8> {
    let mut out = b"(;GM[1]FF[4]".to_vec();
    if let Some(label) = label {
        out.extend_from_slice(format!("CA[{label}]").as_bytes());
    }
    let value = |out: &mut Vec<u8>, ident: &str, text: &str| {
        out.extend_from_slice(ident.as_bytes());
        out.push(b'[');
        out.extend(encode(encoding, text));
        out.push(b']');
    };
    out.extend_from_slice(b"SZ[19]");
    value(&mut out, "PB", t.pb);
    value(&mut out, "PW", t.pw);
    value(&mut out, "C", t.c);
    out.extend_from_slice(b"\n;B[pd]");
    value(&mut out, "N", t.n);
    out.extend_from_slice(b"\n;W[dd])");
    out
}

fn corpus_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(format!("{name}.sgf"))
}

fn show(input: &[u8]) -> String {
    input.escape_ascii().to_string()
}

/// Asserts every value of an intact game decodes to `t`, with no warning.
fn assert_intact(doc: &Document<'_>, encoding: &'static Encoding, t: &Texts, what: &str) {
    assert!(doc.warnings().is_empty(), "{what}: {:?}", doc.warnings());
    assert_values(doc, encoding, t, what);
}

/// Asserts every value of a game without `CA` decodes to `t`, read a
/// character at a time in `encoding` as detected: the one warning says so
/// at the game's start, and the game's charset is that one.
fn assert_detected(doc: &Document<'_>, encoding: &'static Encoding, t: &Texts, what: &str) {
    let warnings: Vec<_> = doc
        .warnings()
        .iter()
        .map(|w| (w.kind, w.offset()))
        .collect();
    assert_eq!(warnings, [(WarningKind::DetectedCharset, 0)], "{what}");
    let charset = doc.collection().game(0).unwrap().charset();
    assert_eq!(charset.source(), CharsetSource::Detected, "{what}");
    assert!(
        charset.confidence() > 0.0 && charset.confidence() <= 1.0,
        "{what}"
    );
    assert_values(doc, encoding, t, what);
}

/// Asserts the three nodes and every value of the game.
fn assert_values(doc: &Document<'_>, encoding: &'static Encoding, t: &Texts, what: &str) {
    let coll = doc.collection();
    assert_eq!(coll.node_count(), 3, "{what}: nodes");
    let root = coll.game(0).unwrap().root();
    assert_eq!(root.simple_text("PB"), Some(t.pb), "{what}: PB");
    assert_eq!(root.simple_text("PW"), Some(t.pw), "{what}: PW");
    assert_eq!(root.text("C"), Some(t.c), "{what}: C");
    let b = root.first_child().unwrap();
    assert_eq!(b.simple_text("N"), Some(t.n), "{what}: N");
    assert_eq!(b.raw("B"), Some(&b"pd"[..]));
    // Raw bytes stay the input's bytes.
    assert_eq!(root.raw("PB"), Some(&encode(encoding, t.pb)[..]));
    assert_eq!(root.raw("C"), Some(&encode(encoding, t.c)[..]));
}

// ---------------------------------------------------------------------------
// Tests on the hand-made games.
// ---------------------------------------------------------------------------

#[test]
fn corpus_files_hold_the_encoded_cases() {
    let mut all = cases();
    all.push(case(
        "charset_021",
        KOI8_R,
        None,
        KOI8R_TEXT,
        KOI8_R,
        Intact,
    ));
    for c in &all {
        let path = corpus_file(c.file);
        let on_disk = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let built = build(c.encoding, c.label, &c.texts);
        assert!(
            on_disk == built,
            "{} differs from the bytes built here:\n  file  {}\n  built {}",
            c.file,
            show(&on_disk),
            show(&built)
        );
    }
}

#[test]
fn each_charset_with_and_without_ca() {
    for c in cases() {
        let input = build(c.encoding, c.label, &c.texts);
        let doc = Document::parse_with(&input, &ParseOptions::default()).unwrap();
        let game = doc.collection().game(0).unwrap();
        let charset = game.charset();
        let what = format!("{} ({:?})", c.file, c.label);
        assert_eq!(charset.name(), c.charset.name(), "{what}: charset");
        assert_eq!(charset.encoding(), c.charset, "{what}: encoding");
        assert_eq!(
            game.declared_charset(),
            c.label.map(str::as_bytes),
            "{what}: CA"
        );
        if c.label.is_some() {
            assert_eq!(charset.source(), CharsetSource::Declared, "{what}");
            assert_eq!(charset.confidence(), 1.0, "{what}");
        } else {
            assert_eq!(charset.source(), CharsetSource::Detected, "{what}");
            assert!(
                charset.confidence() > 0.0 && charset.confidence() <= 1.0,
                "{what}: confidence {}",
                charset.confidence()
            );
        }
        // Remembered: asked twice, the same answer.
        assert_eq!(game.charset(), charset);
        match c.outcome {
            Intact => assert_intact(&doc, c.encoding, &c.texts, &what),
            Detected => assert_detected(&doc, c.encoding, &c.texts, &what),
        }
    }
}

#[test]
fn valid_utf8_without_ca_is_utf8_with_full_confidence() {
    let input = build(UTF_8, None, &UTF8_TEXT);
    let doc = sgf_grove::parse(&input).unwrap();
    let charset = doc.collection().game(0).unwrap().charset();
    assert_eq!(
        (charset.name(), charset.source(), charset.confidence()),
        ("UTF-8", CharsetSource::Detected, 1.0)
    );
    // So is plain ASCII.
    let doc = sgf_grove::parse(b"(;PB[Lee]C[hello])").unwrap();
    let charset = doc.collection().game(0).unwrap().charset();
    assert_eq!((charset.name(), charset.confidence()), ("UTF-8", 1.0));
}

/// Reads `input` with its charset forced to UTF-8, which is read byte by
/// byte: what a game without `CA` in an ASCII-unsafe charset would give if
/// it were not detected.
fn bytewise(input: &[u8]) -> Document<'_> {
    Document::parse_with(input, &ParseOptions::new().charset(Some(UTF_8))).unwrap()
}

/// `charset_004`: GBK without CA. 揮 (0x93 0x5D) ends the comment: read
/// byte by byte, its 0x5D would close the value and the real `]` would be
/// a stray byte; detected as GB18030, the game is read a character at a
/// time and every value is intact.
#[test]
fn gbk_without_ca_is_read_a_character_at_a_time() {
    let input = build(GBK, None, &GBK_TEXT);
    let doc = sgf_grove::parse(&input).unwrap();
    assert_detected(&doc, GBK, &GBK_TEXT, "GBK without CA");
    let game = doc.collection().game(0).unwrap();
    assert_eq!(game.charset().encoding(), GB18030);
    assert_eq!(game.root().raw("C").unwrap().last(), Some(&0x5d));
    // Byte by byte, the last character of the comment is lost.
    let doc = bytewise(&input);
    let kinds: Vec<_> = doc.warnings().iter().map(|w| w.kind).collect();
    assert_eq!(kinds, [WarningKind::UnexpectedByte]);
    let root = doc.collection().game(0).unwrap().root();
    assert_eq!(root.raw("C").unwrap().last(), Some(&0x93));
    // Naming the charset reads it as detection does, with no warning.
    for encoding in [GBK, GB18030] {
        let options = ParseOptions::new().charset(Some(encoding));
        let doc = Document::parse_with(&input, &options).unwrap();
        assert_intact(&doc, GBK, &GBK_TEXT, encoding.name());
        let charset = doc.collection().game(0).unwrap().charset();
        assert_eq!(charset.source(), CharsetSource::Override);
        assert_eq!(charset.confidence(), 1.0);
        assert_eq!(charset.encoding(), encoding);
    }
}

/// `charset_008`: Big5 without CA. Read byte by byte, 因's 0x5D would close
/// the comment after 「黑棋中盤勝，」 and the rest of it would be junk
/// between properties; detected, it reads intact.
#[test]
fn big5_without_ca_is_read_a_character_at_a_time() {
    let input = build(BIG5, None, &BIG5_TEXT);
    let doc = sgf_grove::parse(&input).unwrap();
    assert_detected(&doc, BIG5, &BIG5_TEXT, "Big5 without CA");
    assert_eq!(doc.collection().game(0).unwrap().charset().encoding(), BIG5);
    // Byte by byte: five stray bytes.
    let doc = bytewise(&input);
    let offsets: Vec<_> = doc
        .warnings()
        .iter()
        .map(|w| {
            assert_eq!(w.kind, WarningKind::UnexpectedByte);
            w.offset()
        })
        .collect();
    let at = |s: &str| {
        let needle = encode(BIG5, s);
        input
            .windows(needle.len())
            .position(|w| w == needle)
            .expect("in the input")
    };
    // 為 (first junk byte), 也's `]`, 無, 功's `\`, the real `]`.
    assert_eq!(
        offsets,
        [at("為"), at("也") + 1, at("無"), at("功") + 1, at("功") + 2]
    );
    let options = ParseOptions::new().charset(Some(BIG5));
    let doc = Document::parse_with(&input, &options).unwrap();
    assert_intact(&doc, BIG5, &BIG5_TEXT, "Big5 override");
}

/// `charset_010`: Shift_JIS without CA. The comment ends in 表 (0x95
/// 0x5C): read byte by byte, its 0x5C would escape the `]`, the comment
/// would run on through `\n;B[pd` to the next `]` and the move would be
/// gone, silently. Detected, every move is there, and the warning says why.
#[test]
fn shift_jis_without_ca_keeps_every_node() {
    let input = build(SHIFT_JIS, None, &SJIS_TEXT);
    let doc = sgf_grove::parse(&input).unwrap();
    assert_detected(&doc, SHIFT_JIS, &SJIS_TEXT, "Shift_JIS without CA");
    let root = doc.collection().game(0).unwrap().root();
    assert_eq!(root.charset_name(), "Shift_JIS");
    assert_eq!(root.first_child().unwrap().raw("B"), Some(&b"pd"[..]));
    // Byte by byte, the B node is lost; not silently: the comment is seen
    // to hold it.
    let doc = bytewise(&input);
    let warnings: Vec<_> = doc.warnings().iter().map(|w| w.kind).collect();
    assert_eq!(warnings, [WarningKind::SwallowedProperty]);
    assert_eq!(doc.collection().node_count(), 2, "the B node is lost");
    let root = doc.collection().game(0).unwrap().root();
    assert!(!root.first_child().unwrap().has("B"));
    // The override reads a character at a time too, with no warning.
    let options = ParseOptions::new().charset(Some(SHIFT_JIS));
    let doc = Document::parse_with(&input, &options).unwrap();
    assert_intact(&doc, SHIFT_JIS, &SJIS_TEXT, "Shift_JIS override");
    let charset = doc.collection().game(0).unwrap().charset();
    assert_eq!(
        (charset.name(), charset.source(), charset.confidence()),
        ("Shift_JIS", CharsetSource::Override, 1.0)
    );
}

/// A game's charset name, from a node (shorthand for the tests above).
trait CharsetName {
    fn charset_name(&self) -> &'static str;
}

impl CharsetName for sgf_grove::Node<'_, '_> {
    fn charset_name(&self) -> &'static str {
        self.game().charset().name()
    }
}

/// KOI8-R without CA is detected (Cyrillic is a detection candidate, in
/// both of its common encodings), and the override reads it too.
#[test]
fn koi8_r_without_ca_is_detected() {
    let input = build(KOI8_R, None, &KOI8R_TEXT);
    let doc = sgf_grove::parse(&input).unwrap();
    let charset = doc.collection().game(0).unwrap().charset();
    assert_eq!(charset.source(), CharsetSource::Detected);
    assert_eq!(charset.encoding(), KOI8_R);
    let root = doc.collection().game(0).unwrap().root();
    assert_eq!(root.simple_text("PB"), Some(KOI8R_TEXT.pb));
    assert_eq!(root.raw("PB"), Some(&encode(KOI8_R, KOI8R_TEXT.pb)[..]));
    let options = ParseOptions::new().charset(Some(KOI8_R));
    let doc = Document::parse_with(&input, &options).unwrap();
    assert_intact(&doc, KOI8_R, &KOI8R_TEXT, "KOI8-R override");
}

#[test]
fn the_override_wins_over_ca() {
    let input = build(BIG5, Some("Big5"), &BIG5_TEXT);
    let options = ParseOptions::new().charset(Some(BIG5));
    let doc = Document::parse_with(&input, &options).unwrap();
    assert_intact(&doc, BIG5, &BIG5_TEXT, "Big5 + override");
    let game = doc.collection().game(0).unwrap();
    assert_eq!(game.charset().source(), CharsetSource::Override);
    assert_eq!(game.declared_charset(), Some(&b"Big5"[..]));
    // An override that is wrong for the bytes is still obeyed.
    let input = build(UTF_8, Some("UTF-8"), &UTF8_TEXT);
    let options = ParseOptions::new().charset(Some(WINDOWS_1252));
    let doc = Document::parse_with(&input, &options).unwrap();
    let root = doc.collection().game(0).unwrap().root();
    // 李 is E6 9D 8E, 镐 E9 95 90: 0x9D and 0x90 are C1 controls there.
    assert_eq!(root.simple_text("PB"), Some("æ\u{9d}Žæ˜Œé•\u{90}"));
}

#[test]
fn ca_labels_and_spellings() {
    let cases: &[(&str, &str)] = &[
        ("UTF-8", "UTF-8"),
        ("utf-8", "UTF-8"),
        ("UTF8", "UTF-8"),
        (" utf-8 ", "UTF-8"),
        ("GB2312", "GBK"),
        ("gb2312", "GBK"),
        ("GBK", "GBK"),
        ("GB18030", "gb18030"),
        ("Big5", "Big5"),
        ("BIG5", "Big5"),
        ("Shift_JIS", "Shift_JIS"),
        ("SJIS", "Shift_JIS"),
        ("EUC-JP", "EUC-JP"),
        ("EUC-KR", "EUC-KR"),
        ("ISO-8859-1", "windows-1252"),
        ("ISO8859_1", "windows-1252"),
        ("ISO_8859-1", "windows-1252"),
        ("latin1", "windows-1252"),
        ("ASCII", "windows-1252"),
        ("Windows-1252", "windows-1252"),
        ("KOI8-R", "KOI8-R"),
    ];
    for &(label, name) in cases {
        let input = format!("(;CA[{label}]PB[x])");
        let doc = sgf_grove::parse(input.as_bytes()).unwrap();
        let charset = doc.collection().game(0).unwrap().charset();
        assert_eq!(charset.name(), name, "CA[{label}]");
        assert_eq!(charset.source(), CharsetSource::Declared, "CA[{label}]");
    }
    // A label encoding_rs does not know: detection.
    for label in ["klingon", "", "UTF-9"] {
        let input = format!("(;CA[{label}]PB[李昌镐])");
        let doc = sgf_grove::parse(input.as_bytes()).unwrap();
        let charset = doc.collection().game(0).unwrap().charset();
        assert_eq!(
            (charset.name(), charset.source()),
            ("UTF-8", CharsetSource::Detected),
            "CA[{label}]"
        );
    }
}

#[test]
fn a_declared_charset_is_obeyed_even_when_wrong() {
    // GBK bytes under CA[UTF-8]: U+FFFD for every bad sequence.
    let mut input = b"(;CA[UTF-8]PB[".to_vec();
    input.extend(encode(GBK, "常昊"));
    input.extend_from_slice(b"])");
    let doc = sgf_grove::parse(&input).unwrap();
    let root = doc.collection().game(0).unwrap().root();
    assert_eq!(root.charset_name(), "UTF-8");
    let pb = root.simple_text("PB").unwrap();
    assert!(pb.chars().all(|c| c == '\u{fffd}'), "{pb:?}");
    assert!(!pb.is_empty());
}

#[test]
fn each_game_of_a_collection_has_its_own_charset() {
    let mut input = build(SHIFT_JIS, Some("Shift_JIS"), &SJIS_TEXT);
    input.push(b'\n');
    input.extend(build(BIG5, Some("Big5"), &BIG5_TEXT));
    input.push(b'\n');
    input.extend(build(UTF_8, None, &UTF8_TEXT));
    input.push(b'\n');
    input.extend(build(EUC_KR, None, &EUCKR_TEXT));
    let doc = sgf_grove::parse(&input).unwrap();
    assert!(doc.warnings().is_empty(), "{:?}", doc.warnings());
    let coll = doc.collection();
    assert_eq!(coll.len(), 4);
    assert_eq!(coll.node_count(), 12);
    let want = [
        (SHIFT_JIS, CharsetSource::Declared, SJIS_TEXT),
        (BIG5, CharsetSource::Declared, BIG5_TEXT),
        (UTF_8, CharsetSource::Detected, UTF8_TEXT),
        (EUC_KR, CharsetSource::Detected, EUCKR_TEXT),
    ];
    for (game, (encoding, source, t)) in coll.games().zip(want) {
        let charset = game.charset();
        assert_eq!((charset.encoding(), charset.source()), (encoding, source));
        let root = game.root();
        assert_eq!(root.simple_text("PB"), Some(t.pb));
        assert_eq!(root.text("C"), Some(t.c));
        assert_eq!(root.first_child().unwrap().simple_text("N"), Some(t.n));
    }
}

/// Escapes are removed after decoding: an escaped `]` next to Shift_JIS
/// text, and a soft line break, come out right in both modes.
#[test]
fn escapes_next_to_multibyte_characters() {
    let mut input = b"(;CA[Shift_JIS]C[".to_vec();
    input.extend(encode(SHIFT_JIS, "表"));
    input.extend_from_slice(b"\\]");
    input.extend(encode(SHIFT_JIS, "能"));
    input.extend_from_slice(b"\\\n");
    input.extend(encode(SHIFT_JIS, "表"));
    input.extend_from_slice(b"])");
    let doc = sgf_grove::parse(&input).unwrap();
    assert!(doc.warnings().is_empty());
    let root = doc.collection().game(0).unwrap().root();
    assert_eq!(root.text("C"), Some("表]能表"));
    assert_eq!(root.simple_text("C"), Some("表]能表"));
}

// ---------------------------------------------------------------------------
// The real corpus.
// ---------------------------------------------------------------------------

fn read(dir: &Path, file: &str) -> Vec<u8> {
    let path = dir.join(file);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Fox games (no CA) whose player names are intact UTF-8, found with a
/// script over `fox-featurecat`: (file, PB, PW, BR, whether the whole file
/// is valid UTF-8).
const FOX_NAMES: &[(&str, &str, &str, &str, bool)] = &[
    (
        "fox-featurecat/pro/7p/1377866753019999506.sgf",
        "常昊",
        "檀啸",
        "P9段",
        true,
    ),
    (
        "fox-featurecat/pro/5p/1488252454019999618.sgf",
        "常昊",
        "辜梓豪",
        "P9段",
        true,
    ),
    (
        "fox-featurecat/pro/6p/1418191218019999912.sgf",
        "檀啸",
        "张学斌",
        "P7段",
        true,
    ),
    // The game name is damaged (`?` for continuation bytes), the names
    // are not.
    (
        "fox-featurecat/pro-2019/9p/1539951760010002679.sgf",
        "최철한",
        "常昊",
        "P9段",
        false,
    ),
];

#[test]
fn fox_player_names_decode_as_utf8() {
    let Some(dir) = crate::common::corpus_dir() else {
        return;
    };
    for &(file, pb, pw, br, valid) in FOX_NAMES {
        let bytes = read(&dir, file);
        let doc = sgf_grove::parse(&bytes).unwrap();
        let game = doc.collection().game(0).unwrap();
        let charset = game.charset();
        assert_eq!(
            (charset.name(), charset.source()),
            ("UTF-8", CharsetSource::Detected),
            "{file}"
        );
        if valid {
            assert_eq!(charset.confidence(), 1.0, "{file}");
        } else {
            assert!(
                (0.8..1.0).contains(&charset.confidence()),
                "{file}: {}",
                charset.confidence()
            );
        }
        let root = game.root();
        assert_eq!(root.simple_text("PB"), Some(pb), "{file}");
        assert_eq!(root.simple_text("PW"), Some(pw), "{file}");
        assert_eq!(root.raw("PB"), Some(pb.as_bytes()), "{file}");
        assert_eq!(root.simple_text("BR"), Some(br), "{file}");
    }
    // The game name of the second file, intact.
    let bytes = read(&dir, FOX_NAMES[1].0);
    let doc = sgf_grove::parse(&bytes).unwrap();
    let root = doc.collection().game(0).unwrap().root();
    assert_eq!(root.simple_text("GN"), Some("第八届龙星战本赛B组赛"));
    // …and the damaged one: a `?` for each lost byte, U+FFFD for each
    // sequence left incomplete, the rest intact.
    let bytes = read(&dir, FOX_NAMES[3].0);
    let doc = sgf_grove::parse(&bytes).unwrap();
    let root = doc.collection().game(0).unwrap().root();
    assert_eq!(
        root.simple_text("GN"),
        Some("第5届应\u{fffd}?\u{fffd}?\u{fffd}决赛五番棋第三局")
    );
}

/// A Fox name cut by the exporter after the lead byte of its second
/// character: `PB[\xe5\xb8\xb8\xe5]`, 常 and a dangling byte.
#[test]
fn fox_cut_name_decodes_to_its_intact_prefix() {
    let Some(dir) = crate::common::corpus_dir() else {
        return;
    };
    let file = "fox-featurecat/9d-2019/1530595285022100691.sgf";
    let bytes = read(&dir, file);
    let doc = sgf_grove::parse(&bytes).unwrap();
    let game = doc.collection().game(0).unwrap();
    let charset = game.charset();
    assert_eq!(
        (charset.name(), charset.source()),
        ("UTF-8", CharsetSource::Detected)
    );
    assert!(charset.confidence() < 1.0 && charset.confidence() >= 0.8);
    let root = game.root();
    assert_eq!(root.raw("PB"), Some(&b"\xe5\xb8\xb8\xe5"[..]));
    assert_eq!(root.simple_text("PB"), Some("常\u{fffd}"));
    assert_eq!(root.simple_text("PW"), Some("MunX"));
    assert_eq!(root.simple_text("BR"), Some("9段"));
}

/// GNU Go's `9handicap.sgf` has no CA and `PW[白]` in GB2312 (0xB0 0xD7).
#[test]
fn gnugo_gb2312_game_without_ca() {
    let Some(dir) = crate::common::corpus_dir() else {
        return;
    };
    let bytes = read(&dir, "gnugo-regression/regression/games/9handicap.sgf");
    let doc = sgf_grove::parse(&bytes).unwrap();
    let game = doc.collection().game(0).unwrap();
    let charset = game.charset();
    assert!(
        matches!(charset.name(), "gb18030" | "GBK"),
        "9handicap.sgf detected as {} ({})",
        charset.name(),
        charset.confidence()
    );
    assert_eq!(charset.source(), CharsetSource::Detected);
    let root = game.root();
    assert_eq!(root.simple_text("PW"), Some("白"));
    assert_eq!(root.simple_text("PB"), Some("GNU Go"));
}

/// GNU Go's `tg-gg.sgf` has no CA and a French comment in Latin-1.
#[test]
fn gnugo_latin1_game_without_ca() {
    let Some(dir) = crate::common::corpus_dir() else {
        return;
    };
    for file in [
        "gnugo-regression/regression/games/tg-gg.sgf",
        "gnugo-regression/regression/games/egc2001/tg-gg.sgf",
    ] {
        let bytes = read(&dir, file);
        let doc = sgf_grove::parse(&bytes).unwrap();
        let game = doc.collection().game(0).unwrap();
        let charset = game.charset();
        assert_eq!(
            (charset.name(), charset.source()),
            ("windows-1252", CharsetSource::Detected),
            "{file}"
        );
        let root = game.root();
        assert_eq!(
            root.text("C"),
            Some("Fichier SGF créé par TurboGo pour Windows v5.0\n"),
            "{file}"
        );
        assert_eq!(
            root.simple_text("EV"),
            Some("European Computer Go Championships 2001")
        );
    }
}

/// `CA` after the players' names: the reading switches to characters right
/// after `CA`, so the comment (能 and 表 end in 0x5C) and everything after
/// it read intact, the names before it byte by byte (which they survive: no
/// second byte of theirs is `\` or `]`), and the tree written back reads
/// the same.
#[test]
fn ca_after_the_names_switches_there() {
    let mut input = b"(;GM[1]FF[4]SZ[19]".to_vec();
    for (ident, text) in [("PB", SJIS_TEXT.pb), ("PW", SJIS_TEXT.pw)] {
        input.extend_from_slice(format!("{ident}[").as_bytes());
        input.extend(encode(SHIFT_JIS, text));
        input.push(b']');
    }
    input.extend_from_slice(b"CA[Shift_JIS]C[");
    input.extend(encode(SHIFT_JIS, SJIS_TEXT.c));
    input.extend_from_slice(b"]\n;B[pd]N[");
    input.extend(encode(SHIFT_JIS, SJIS_TEXT.n));
    input.extend_from_slice(b"]\n;W[dd])");
    let doc = sgf_grove::parse(&input).unwrap();
    assert_intact(&doc, SHIFT_JIS, &SJIS_TEXT, "CA after PB and PW");
    let written = sgf_grove::write_collection(doc.collection());
    let again = sgf_grove::parse(&written).unwrap();
    assert_intact(&again, SHIFT_JIS, &SJIS_TEXT, "written back");
    // The same bytes with `CA` gone: detected, and read as if the root
    // started with `CA[Shift_JIS]`.
    let without: Vec<u8> = input
        .windows(13)
        .position(|w| w == b"CA[Shift_JIS]")
        .map(|at| [&input[..at], &input[at + 13..]].concat())
        .unwrap();
    let doc = sgf_grove::parse(&without).unwrap();
    assert_detected(&doc, SHIFT_JIS, &SJIS_TEXT, "CA gone");
}
