//! The writer's modes (`sgf_grove::writer::WriteOptions`) on hand-made
//! cases: raw unchanged, canonical order, values, escapes, passes and point
//! lists, wrapping, transcoding to and from each supported charset with the
//! error for a character the target lacks, thin presets, a million-deep
//! tree; then every file of the real corpus through every mode of
//! `sgf_grove::oracle::write_modes` (parse → write → parse agree).

use crate::corpus_pass::{Check, Corpus, File};
use sgf_grove::encoding_rs::{
    Encoding, BIG5, EUC_KR, GB18030, GBK, SHIFT_JIS, UTF_8, WINDOWS_1252,
};
use sgf_grove::writer::{write_with, PointStyle, Preset, Target, WriteOptions};
use sgf_grove::{write_collection, ErrorKind, ParseOptions, Parser};
use std::sync::Mutex;

fn write(input: &[u8], options: &WriteOptions) -> Vec<u8> {
    let doc = sgf_grove::parse(input).expect("parses");
    write_with(doc.collection(), options).expect("writes")
}

fn canonical() -> WriteOptions {
    WriteOptions::new().canonical(true)
}

#[track_caller]
fn assert_bytes(got: Vec<u8>, want: &[u8]) {
    assert_eq!(
        got.escape_ascii().to_string(),
        want.escape_ascii().to_string()
    );
}

#[test]
fn raw_mode_is_the_old_output() {
    for input in [
        &b"junk (;GM[1]CoPyright[x];B[aa](;W[bb])(;W[cc]))"[..],
        b"(;PB[Jos\xe9 Garc\xeda];B[aa])",
        b"(;B[aa]AB[bb]AB[cc]C[a\\:b\\x])",
        b"(;CA[UTF-16]C[\x81\x5c];B[aa])",
    ] {
        let doc = sgf_grove::parse(input).unwrap();
        let old = write_collection(doc.collection());
        assert_eq!(
            write_with(doc.collection(), &WriteOptions::new()).unwrap(),
            old
        );
    }
}

#[test]
fn canonical_orders_root_and_game_info_first() {
    let input = b"(;C[hi]RE[B+R]PW[w]PB[b]SZ[9]FF[3]AP[x:1]GM[1]XX[y]KM[6.5];W[aa]PB[b2]B[bb])";
    assert_bytes(
        write(input, &canonical()),
        b"(;GM[1]FF[4]AP[x:1]SZ[9]PB[b]PW[w]KM[6.5]RE[B+R]C[hi]XX[y];PB[b2]W[aa]B[bb])\n",
    );
}

/// A single-valued property keeps one value: texts joined with a line
/// break, other values after the first reported as dropped.
#[test]
fn canonical_single_values_keep_one_and_report_the_rest() {
    let input = b"(;AP[a][b]KM[6.5]KM[7]AB[aa]AB[bb][cc];C[x]C[y])";
    assert_bytes(
        write(input, &canonical()),
        b"(;FF[4]AP[a]KM[6.5]AB[aa][bb][cc];C[x\ny])\n",
    );
    let doc = sgf_grove::parse(input).unwrap();
    let mut writer = sgf_grove::Writer::with_options(Vec::new(), canonical());
    writer.write_collection(doc.collection()).unwrap();
    let dropped: Vec<(String, Vec<u8>, u32)> = writer
        .take_dropped()
        .into_iter()
        .map(|d| (d.ident, d.value, d.position.column))
        .collect();
    assert_eq!(
        dropped,
        [
            ("AP".to_string(), b"b".to_vec(), 9),
            ("KM".to_string(), b"7".to_vec(), 21),
        ]
    );
    // Taken, they are gone.
    assert!(writer.take_dropped().is_empty());
    // A comment whose joined form would read as a value cut off before
    // `;B[` is not joined: the first is kept and the second reported.
    let doc = sgf_grove::parse(b"(;C[a]C[\n;B[cc\\]])").unwrap();
    let mut writer = sgf_grove::Writer::with_options(Vec::new(), canonical());
    writer.write_collection(doc.collection()).unwrap();
    let dropped = writer.take_dropped();
    let out = writer.into_inner();
    let again = sgf_grove::parse(&out).unwrap();
    let c = again.games().next().unwrap().root().property("C").unwrap();
    assert_eq!(c.values().count(), 1, "{}", String::from_utf8_lossy(&out));
    if dropped.is_empty() {
        // Joined: it must read back as the two values with a line break.
        assert_eq!(c.first_value().raw(), b"a\n\n;B[cc\\]");
    } else {
        assert_eq!(c.first_value().raw(), b"a");
        assert_eq!(dropped[0].ident, "C");
    }
}

#[test]
fn canonical_escapes_only_where_needed() {
    let input = br"(;C[a\]b\\c\:d\x \
e]LB[aa:one\:two:three]AP[app\:name:1\:2]N[lone\:colon]XX[p\:q])";
    assert_bytes(
        write(input, &canonical()),
        br"(;FF[4]AP[app\:name:1\:2]C[a\]b\\c:dx \
e]LB[aa:one\:two\:three]N[lone:colon]XX[p\:q])
",
    );
}

#[test]
fn canonical_keeps_an_escape_before_a_byte_that_is_not_ascii() {
    // Damaged UTF-8: `\xef\xbf` then an escaped `\xbd` reads as two U+FFFD;
    // without the `\` it would be one.
    let input = b"(;CA[UTF-8]C[\xef\xbf\\\xbd \\x])";
    assert_bytes(
        write(input, &canonical()),
        b"(;FF[4]CA[UTF-8]C[\xef\xbf\\\xbd x])\n",
    );
    // Transcoded text is decoded first: its escapes are rewritten.
    assert_bytes(
        write(input, &canonical().transcode(Target::Utf8)),
        "(;FF[4]CA[UTF-8]C[\u{fffd}\u{fffd} x])\n".as_bytes(),
    );
}

#[test]
fn canonical_keeps_escapes_where_a_backslash_can_be_half_a_character() {
    // 0x95 0x5C is one Shift_JIS character; the escape before `x` stays.
    let input = b"(;CA[Shift_JIS]C[\x95\x5c \\x])";
    assert_bytes(
        write(input, &canonical()),
        b"(;FF[4]CA[Shift_JIS]C[\x95\x5c \\x])\n",
    );
}

#[test]
fn canonical_passes() {
    let input = b"(;SZ[19];B[tt];W[];B[ ])";
    assert_bytes(write(input, &canonical()), b"(;FF[4]SZ[19];B[];W[];B[])\n");
    assert_bytes(
        write(input, &canonical().tt_pass(true)),
        b"(;FF[4]SZ[19];B[tt];W[tt];B[tt])\n",
    );
    // On a larger board `tt` is a point and a pass stays `[]`.
    let big = b"(;SZ[21];B[tt];W[])";
    assert_bytes(
        write(big, &canonical().tt_pass(true)),
        b"(;FF[4]SZ[21];B[tt];W[])\n",
    );
}

#[test]
fn canonical_point_lists() {
    let input = b"(;SZ[9]AB[aa:bb][cc]AB[ba]AW[ii]TR[]VW[])";
    assert_bytes(
        write(input, &canonical()),
        b"(;FF[4]SZ[9]AB[aa:bb][cc][ba]AW[ii]TR[]VW[])\n",
    );
    assert_bytes(
        write(input, &canonical().points(PointStyle::Expand)),
        b"(;FF[4]SZ[9]AB[aa][ba][ab][bb][cc]AW[ii]TR[]VW[])\n",
    );
    assert_bytes(
        write(input, &canonical().points(PointStyle::Compress)),
        b"(;FF[4]SZ[9]AB[aa:bb][cc]AW[ii]TR[]VW[])\n",
    );
    // A malformed or off-board point: the list is written as it is.
    let bad = b"(;SZ[9]AB[aa][zz][bb])";
    assert_bytes(
        write(bad, &canonical().points(PointStyle::Compress)),
        b"(;FF[4]SZ[9]AB[aa][zz][bb])\n",
    );
}

#[test]
fn compressed_points_read_back_as_the_same_set() {
    use sgf_grove::value::Point;
    // A ragged shape on a rectangular board.
    let mut input = b"(;SZ[13:7]AB".to_vec();
    let mut want = Vec::new();
    for y in 0..7u8 {
        for x in 0..13u8 {
            if (x * 3 + y * 5) % 7 < 4 || (2..6).contains(&x) {
                input.extend_from_slice(&[b'[', b'a' + x, b'a' + y, b']']);
                want.push(Point { x, y });
            }
        }
    }
    input.push(b')');
    let out = write(&input, &canonical().points(PointStyle::Compress));
    assert!(out.len() < input.len(), "{}", out.escape_ascii());
    let doc = sgf_grove::parse(&out).unwrap();
    let root = doc.games().next().unwrap().root();
    let mut got: Vec<Point> = root.points("AB").unwrap().collect();
    got.sort_by_key(|p| (p.y, p.x));
    assert_eq!(got, want);
}

#[test]
fn wrapping_breaks_between_properties_only() {
    let input = b"(;GM[1]C[a comment longer than the width]PB[x];B[aa](;W[bb])(;W[cc]))";
    let out = write(input, &WriteOptions::new().wrap(20));
    assert_bytes(
        out.clone(),
        b"(;GM[1]\nC[a comment longer than the width]\nPB[x];B[aa](;W[bb])\n(;W[cc]))\n",
    );
    // Values are unchanged.
    assert_bytes(
        write(&out, &WriteOptions::new()),
        &write(input, &WriteOptions::new()),
    );
    // A line break inside a text value counts.
    let text = b"(;C[one\ntwo]PB[abcdefgh])";
    assert_bytes(
        write(text, &WriteOptions::new().wrap(12)),
        b"(;C[one\ntwo]\nPB[abcdefgh])\n",
    );
}

#[test]
fn thin_presets_drop_their_properties() {
    let input =
        b"(;GM[1]C[c]LZ[x]BL[10];B[aa]TR[aa]LB[aa:x]WL[3]KTV[1]SBKV[2];W[bb]OB[1]OW[2]MA[bb])";
    let mut thin = WriteOptions::new();
    for preset in Preset::ALL {
        thin = thin.drop_preset(preset);
    }
    assert_bytes(write(input, &thin), b"(;GM[1];B[aa];W[bb])\n");
    assert_bytes(
        write(input, &WriteOptions::new().drop_preset(Preset::Times)),
        b"(;GM[1]C[c]LZ[x];B[aa]TR[aa]LB[aa:x]KTV[1]SBKV[2];W[bb]MA[bb])\n",
    );
    assert_bytes(
        write(
            input,
            &WriteOptions::new().drop_props(["LZ", "TR"]).canonical(true),
        ),
        b"(;GM[1]FF[4]C[c]BL[10];B[aa]LB[aa:x]WL[3]KTV[1]SBKV[2];W[bb]OB[1]OW[2]MA[bb])\n",
    );
}

/// A text in each charset: `]` and `\` to escape, and characters whose
/// second byte is `\` or `]` in the double-byte charsets.
const SAMPLES: &[(&str, &str)] = &[
    ("UTF-8", "李昌镐 vs 曺薰鉉 ] \\ 表 €"),
    ("GB18030", "李昌镐 vs 曺薰鉉 ] \\ € 乗"),
    ("GBK", "李昌镐 ] \\ 乗 丶"),
    ("GB2312", "常昊 对 李昌镐 ] \\"),
    ("Big5", "許功蓋 ] \\ 李昌鎬"),
    ("Shift_JIS", "表示 ソ 十 ] \\ 本因坊"),
    ("EUC-KR", "이창호 ] \\ 조훈현"),
    ("windows-1252", "José García ] \\ €"),
];

fn encoded(encoding: &'static Encoding, text: &str) -> Vec<u8> {
    let (bytes, _, unmappable) = encoding.encode(text);
    assert!(
        !unmappable,
        "{} lacks a character of {text:?}",
        encoding.name()
    );
    bytes.into_owned()
}

/// `text` escaped for a value (after encoding: `\` and `]` as ASCII).
fn escaped(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

#[test]
fn transcoding_round_trips_every_charset() {
    for &(label, text) in SAMPLES {
        let encoding = Encoding::for_label(label.as_bytes()).unwrap();
        let mut input = format!("(;CA[{label}]SZ[9]PB[").into_bytes();
        input.extend(encoded(encoding, &escaped(text)));
        input.extend_from_slice(b"]C[");
        input.extend(encoded(encoding, &escaped(text)));
        input.extend_from_slice(b"]LB[aa:");
        input.extend(encoded(encoding, &escaped(text).replace(':', "\\:")));
        input.extend_from_slice(b"];B[cc]C[");
        input.extend(encoded(encoding, &escaped(text)));
        input.extend_from_slice(b"])");
        let doc = sgf_grove::parse(&input).unwrap();
        let root = doc.games().next().unwrap().root();
        assert_eq!(root.text("C"), Some(text), "{label}: the input reads back");
        for options in [
            WriteOptions::new().transcode(Target::Utf8),
            canonical().transcode(Target::Utf8),
        ] {
            let out = write_with(doc.collection(), &options).unwrap();
            let out_text = std::str::from_utf8(&out).expect("UTF-8 out");
            assert!(out_text.contains("CA[UTF-8]"), "{label}: {out_text}");
            let again = sgf_grove::parse(&out).unwrap();
            let game = again.games().next().unwrap();
            assert_eq!(game.charset().encoding(), UTF_8);
            let root = game.root();
            assert_eq!(root.text("C"), Some(text), "{label}: {out_text}");
            assert_eq!(root.simple_text("PB"), Some(text), "{label}: {out_text}");
            let node = root.first_child().unwrap();
            assert_eq!(node.text("C"), Some(text), "{label}: {out_text}");
            let lb = root
                .property("LB")
                .unwrap()
                .typed_values()
                .unwrap()
                .unwrap();
            let before = doc.games().next().unwrap().root();
            let lb_before = before
                .property("LB")
                .unwrap()
                .typed_values()
                .unwrap()
                .unwrap();
            assert_eq!(format!("{lb:?}"), format!("{lb_before:?}"), "{label}");

            // And back from UTF-8 to the charset.
            let back = write_with(
                again.collection(),
                &options.clone().transcode(Target::To(encoding)),
            )
            .unwrap();
            let third = sgf_grove::parse(&back).unwrap();
            let game = third.games().next().unwrap();
            assert_eq!(
                game.charset().encoding(),
                encoding.output_encoding(),
                "{label}"
            );
            assert_eq!(game.root().text("C"), Some(text), "{label}: back");
            assert_eq!(
                game.root().first_child().unwrap().text("C"),
                Some(text),
                "{label}"
            );
        }
    }
}

#[test]
fn transcoding_to_the_declared_charset_writes_the_text_as_read() {
    // Latin-1 bytes under a wrong `CA[GB2312]`, read with an override: the
    // text as read goes to the declared charset, which holds `é`.
    let input = b"(;CA[GB2312]C[Jos\xe9])";
    let mut parser = Parser::with_options(ParseOptions::new().charset(Some(WINDOWS_1252)));
    let doc = parser.parse(input).unwrap();
    assert_eq!(
        doc.games().next().unwrap().root().text("C"),
        Some("Jos\u{e9}")
    );
    let out = write_with(doc, &WriteOptions::new().transcode(Target::Declared)).unwrap();
    assert_bytes(out.clone(), b"(;CA[GBK]C[Jos\xa8\xa6])\n");
    let again = sgf_grove::parse(&out).unwrap();
    let game = again.games().next().unwrap();
    assert_eq!(game.charset().encoding(), GBK);
    assert_eq!(game.root().text("C"), Some("Jos\u{e9}"));
    // GB2312 text read as windows-1252 is mojibake that GBK lacks: an
    // error, never the mojibake written.
    let mut input = b"(;CA[GB2312]C[".to_vec();
    input.extend(encoded(GBK, "常昊"));
    input.extend_from_slice(b"])");
    let doc = parser.parse(&input).unwrap();
    let err = write_with(doc, &WriteOptions::new().transcode(Target::Declared)).unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::Unrepresentable {
            ch: '\u{b3}',
            charset: "GBK"
        }
    );
}

#[test]
fn transcoding_refuses_a_character_the_target_lacks() {
    let input = "(;CA[UTF-8]PB[Lee]\n;B[aa]C[ok]\n;W[bb]C[a 😀 b])".as_bytes();
    let doc = sgf_grove::parse(input).unwrap();
    for (target, charset) in [
        (GBK, "GBK"),
        (SHIFT_JIS, "Shift_JIS"),
        (EUC_KR, "EUC-KR"),
        (BIG5, "Big5"),
    ] {
        let mut out = Vec::new();
        let err = sgf_grove::Writer::with_options(
            &mut out,
            WriteOptions::new().transcode(Target::To(target)),
        )
        .write_collection(doc.collection())
        .unwrap_err();
        assert_eq!(
            err.kind(),
            ErrorKind::Unrepresentable {
                ch: '😀', charset
            }
        );
        assert_eq!(err.value_text(), Some("C"));
        assert_eq!((err.line(), err.column()), (3, 9));
        assert_eq!(
            err.to_string(),
            format!(
                "character '😀' (U+1F600) cannot be written in {charset}, in property \"C\" at 3:9"
            )
        );
        // The output ends before the node that holds it.
        assert_bytes(out, format!("(;CA[{charset}]PB[Lee];B[aa]C[ok]").as_bytes());
    }
    // GB18030 and UTF-8 hold every character.
    for target in [GB18030, UTF_8] {
        write_with(
            doc.collection(),
            &WriteOptions::new().transcode(Target::To(target)),
        )
        .unwrap();
    }
}

#[test]
fn ascii_values_are_copied_and_utf8_stays() {
    let input = "(;CA[UTF-8]C[déjà vu \\x];B[aa])".as_bytes();
    // Same charset: nothing to transcode, raw mode copies.
    assert_bytes(
        write(input, &WriteOptions::new().transcode(Target::Utf8)),
        "(;CA[UTF-8]C[déjà vu \\x];B[aa])\n".as_bytes(),
    );
}

#[test]
fn a_million_deep_tree_in_every_mode() {
    let mut input = b"(;GM[1]SZ[19]".to_vec();
    for i in 0..1_000_000u32 {
        let (x, y) = ((i % 19) as u8, ((i / 19) % 19) as u8);
        input.extend_from_slice(&[b'(', b';', b'B', b'[', b'a' + x, b'a' + y, b']']);
    }
    input.extend(std::iter::repeat_n(b')', 1_000_001));
    let mut parser = Parser::new();
    let coll = parser.parse(&input).unwrap();
    assert_eq!(coll.node_count(), 1_000_001);
    for (name, options) in sgf_grove::oracle::write_modes::modes() {
        let out = write_with(coll, &options).unwrap();
        assert!(out.len() > 6_000_000, "{name}");
    }
}

/// Every file of the corpus written in every mode of the write-modes
/// oracle. A check of the one pass over the corpus (`corpus_pass.rs`).
#[derive(Default)]
pub struct EveryMode(Mutex<Vec<String>>);

impl Check for EveryMode {
    fn name(&self) -> &'static str {
        "every_real_corpus_file_survives_every_mode"
    }

    fn file(&self, file: &File<'_>) {
        // The parse of the pass is the first parse of every mode.
        let Ok(coll) = file.parsed else {
            return;
        };
        for (name, options) in &sgf_grove::oracle::write_modes::modes() {
            if let Err(why) = sgf_grove::oracle::write_modes::check_mode_of(coll, options) {
                let mut why = why;
                why.truncate(2000);
                self.0
                    .lock()
                    .unwrap()
                    .push(format!("{} [{name}]: {why}", file.path.display()));
            }
        }
    }

    fn finish(&self, corpus: &Corpus) {
        let files = &corpus.files;
        assert!(files.len() >= 49_000, "only {} files found", files.len());
        let failures = self.0.lock().unwrap();
        assert!(
            failures.is_empty(),
            "{} failures, the first ones:\n{}",
            failures.len(),
            failures[..failures.len().min(5)].join("\n")
        );
    }
}

#[test]
fn canonical_rewrites_escapes_in_text_only() {
    // A move, a number and a point read their bytes as they are: `\d` is
    // malformed and stays so. The text half of `LB` loses its needless escape.
    assert_bytes(
        write(br"(;SZ[9]HA[\2];W[\dd]LB[aa:\x])", &canonical()),
        br"(;FF[4]SZ[9]HA[\2];W[\dd]LB[aa:x])
",
    );
}

#[test]
fn transcoded_text_never_opens_a_game() {
    // `(;GM[` inside a Big5 value, after a byte that the UTF-8 text no
    // longer has: the reader would start a new game at the `(`.
    // 0xA5 0x5D is one Big5 character: the `(` follows it, not a `]`.
    let input = b"(;CA[Big5]C[\xa5](;GM[1];B[aa])";
    let doc = sgf_grove::parse(input).unwrap();
    assert_eq!(doc.collection().len(), 1);
    for options in [WriteOptions::new(), canonical()] {
        let out = write_with(doc.collection(), &options.transcode(Target::Utf8)).unwrap();
        let again = sgf_grove::parse(&out).unwrap();
        assert_eq!(again.collection().len(), 1, "{}", out.escape_ascii());
        let before = doc
            .games()
            .next()
            .unwrap()
            .root()
            .text("C")
            .map(str::to_owned);
        assert_eq!(
            again
                .games()
                .next()
                .unwrap()
                .root()
                .text("C")
                .map(str::to_owned),
            before
        );
    }
}
