//! Typed values through the read API: `Node::get::<T>` for every value type
//! on small parsed games, every lenient variant the `FromValue` impls
//! document, malformed values as `ErrorKind::InvalidValue` at the exact
//! position of the value, point lists through `Node::points`, `get_all`,
//! text through `text`/`simple_text`, and `Property::typed_values` on every
//! property of a rich game.
//!
//! Besides our own cases, the tables hold the examples of the value-type
//! section of the SGF FF\[4\] specification (compose values such as
//! `LB[dd:label]`, `AR[aa:bb]`, `SZ[12:8]`; text escapes and soft line
//! breaks; compressed point lists such as `AB[aa:cc]`) and of the property
//! table of SGFGrove.js (`AP[app:version]`, `FG[]`/`FG[257:fig]`,
//! `SZ[12:34]`, `DD[]`, `TB[]`, `VW[]`, `AB[aa:bb][cc]` expanded row by
//! row), each written anew from the facts they state.

use sgf_grove::value::{
    decode_as, BoardSize, Color, Double, Empty, FromValue, Move, Point, SimpleText, Stone, Text,
    TypedValue, ValueContext, ValueType,
};
use sgf_grove::{parse, Document, Error, ErrorKind, Node};
use std::fmt::Debug;

// ---------------------------------------------------------------------------
// Helpers.
// ---------------------------------------------------------------------------

fn doc(input: &[u8]) -> Document<'_> {
    parse(input).unwrap_or_else(|e| panic!("{}: {e}", show(input)))
}

/// The `i`th node of the collection, in pre-order.
fn node<'t, 'src>(doc: &'t Document<'src>, i: usize) -> Node<'t, 'src> {
    doc.collection().nodes().nth(i).expect("node index")
}

fn show(input: &[u8]) -> String {
    input.escape_ascii().to_string()
}

fn p(x: u8, y: u8) -> Point {
    Point { x, y }
}

/// Asserts that `err` is `InvalidValue(ty)` at `offset`, `line`, `column`,
/// and that the offset is the first byte of a value (just after its `[`).
fn assert_invalid(input: &[u8], err: &Error, ty: ValueType, at: (usize, u32, u32)) {
    assert_eq!(
        err.kind(),
        ErrorKind::InvalidValue(ty),
        "{}: {err}",
        show(input)
    );
    assert_eq!(
        (err.offset(), err.line(), err.column()),
        at,
        "position of {err} in {}",
        show(input)
    );
    assert_eq!(input[at.0 - 1], b'[', "{err} is not at a value's start");
    assert_eq!(err.kind().code(), "invalid_value");
}

/// For each `(raw, expected)`: `(;SZ[size]IDENT[raw])` (or `(;SZ[raw])`)
/// read with `get::<T>(IDENT)` on the root. `Some(v)` must read as `v`;
/// `None` must be `InvalidValue(T::TYPE)` at the value's first byte.
fn table<T>(size: &str, ident: &str, cases: &[(&str, Option<T>)])
where
    T: for<'a> FromValue<'a> + PartialEq + Debug,
{
    for (raw, want) in cases {
        // SZ itself is read without a second SZ before it.
        let prefix = if ident == "SZ" {
            String::new()
        } else {
            format!("SZ[{size}]")
        };
        let input = format!("(;{prefix}{ident}[{raw}])");
        let input = input.as_bytes();
        let doc = doc(input);
        let root = node(&doc, 0);
        let got = root.get::<T>(ident);
        match want {
            Some(v) => assert_eq!(
                got.as_ref().ok().and_then(Option::as_ref),
                Some(v),
                "{}",
                show(input)
            ),
            None => {
                let err = got.expect_err(&show(input));
                let offset = 2 + prefix.len() + ident.len() + 1;
                assert_invalid(
                    input,
                    &err,
                    <T as FromValue<'static>>::TYPE,
                    (offset, 1, offset as u32 + 1),
                );
            }
        }
    }
}

/// Owned text types are not `for<'a> FromValue<'a>`-friendly in `table`;
/// this reads text values as plain strings.
fn text_of(input: &[u8], ident: &str) -> (String, String) {
    let doc = doc(input);
    let root = node(&doc, 0);
    let text = root.text(ident).expect("has the property").to_owned();
    let simple = root
        .simple_text(ident)
        .expect("has the property")
        .to_owned();
    (text, simple)
}

// ---------------------------------------------------------------------------
// Scalars.
// ---------------------------------------------------------------------------

#[test]
fn number_values() {
    table::<i64>(
        "19",
        "HA",
        &[
            ("0", Some(0)),
            ("2", Some(2)),
            ("123", Some(123)),
            ("+123", Some(123)),
            ("-123", Some(-123)),
            // Lenient: surrounding whitespace, line breaks included.
            (" 9 ", Some(9)),
            ("\n4\r\n", Some(4)),
            ("9223372036854775807", Some(i64::MAX)),
            ("-9223372036854775807", Some(-i64::MAX)),
            // Malformed.
            ("", None),
            (" ", None),
            ("+", None),
            ("-", None),
            ("1.5", None),
            ("1,5", None),
            ("two", None),
            ("1 2", None),
            ("0x10", None),
            ("--1", None),
            ("9223372036854775808", None),
            ("99999999999999999999", None),
        ],
    );
    // MN, PM, ST, FF, GM, OB, OW: all Numbers (SGFGrove: `MN[123]`,
    // `PM[0]`-`PM[2]`, `ST[0]`-`ST[3]`).
    let doc = doc(b"(;FF[4]GM[1]ST[3]PM[2];B[aa]MN[123]OB[0]OW[25])");
    let root = node(&doc, 0);
    assert_eq!(root.get::<i64>("FF").unwrap(), Some(4));
    assert_eq!(root.get::<i64>("GM").unwrap(), Some(1));
    assert_eq!(root.get::<i64>("ST").unwrap(), Some(3));
    assert_eq!(root.get::<i64>("PM").unwrap(), Some(2));
    let mv = node(&doc, 1);
    assert_eq!(mv.get::<i64>("MN").unwrap(), Some(123));
    assert_eq!(mv.get::<i64>("OB").unwrap(), Some(0));
    assert_eq!(mv.get::<i64>("OW").unwrap(), Some(25));
    assert_eq!(mv.get::<i64>("HA").unwrap(), None, "absent");
}

#[test]
fn real_values() {
    table::<f64>(
        "19",
        "KM",
        &[
            ("6.5", Some(6.5)),
            ("+1.23", Some(1.23)),
            ("-1.23", Some(-1.23)),
            ("0", Some(0.0)),
            ("375", Some(375.0)),
            ("650", Some(650.0)),
            ("-0.5", Some(-0.5)),
            // Lenient: decimal comma, no integer part, no fraction digits,
            // surrounding whitespace.
            ("6,5", Some(6.5)),
            (".5", Some(0.5)),
            ("-.5", Some(-0.5)),
            ("+2.", Some(2.0)),
            (" 7.5\n", Some(7.5)),
            // Malformed.
            ("", None),
            (".", None),
            ("-", None),
            ("6.5.1", None),
            ("6.5,1", None),
            ("1e5", None),
            ("inf", None),
            ("NaN", None),
            ("six", None),
            ("6.5 points", None),
        ],
    );
    // `KM[]`: no komi, through Option<f64>; a bad komi is still an error.
    table::<Option<f64>>(
        "19",
        "KM",
        &[
            ("", Some(None)),
            ("  ", Some(None)),
            ("0.5", Some(Some(0.5))),
            ("6,5", Some(Some(6.5))),
            ("x", None),
        ],
    );
    // V, TM, BL, WL are Reals too (SGFGrove: `V[1.23]`).
    let doc = doc(b"(;TM[1800]V[1.23];B[aa]BL[1795.5];W[bb]WL[12])");
    assert_eq!(node(&doc, 0).get::<f64>("TM").unwrap(), Some(1800.0));
    assert_eq!(node(&doc, 0).get::<f64>("V").unwrap(), Some(1.23));
    assert_eq!(node(&doc, 1).get::<f64>("BL").unwrap(), Some(1795.5));
    assert_eq!(node(&doc, 2).get::<f64>("WL").unwrap(), Some(12.0));
    assert_eq!(<Option<f64>>::TYPE, ValueType::Real);
}

#[test]
fn double_values() {
    table::<Double>(
        "19",
        "GB",
        &[
            ("1", Some(Double::Normal)),
            ("2", Some(Double::Emphasized)),
            (" 2 ", Some(Double::Emphasized)),
            ("", None),
            ("0", None),
            ("3", None),
            ("12", None),
            ("+1", None),
            ("one", None),
        ],
    );
    // DM, GW, HO, UC, BM, TE take Doubles (SGFGrove: `BM[1]`, `TE[2]`, …).
    let doc = doc(b"(;DM[1]GW[2]HO[1]UC[2];B[aa]BM[2]TE[1])");
    let root = node(&doc, 0);
    for (ident, want) in [
        ("DM", Double::Normal),
        ("GW", Double::Emphasized),
        ("HO", Double::Normal),
        ("UC", Double::Emphasized),
    ] {
        assert_eq!(root.get::<Double>(ident).unwrap(), Some(want), "{ident}");
    }
    assert_eq!(
        node(&doc, 1).get::<Double>("BM").unwrap(),
        Some(Double::Emphasized)
    );
    assert_eq!(
        node(&doc, 1).get::<Double>("TE").unwrap(),
        Some(Double::Normal)
    );
    assert_eq!(Double::Normal as u8, 1);
    assert_eq!(Double::Emphasized as u8, 2);
}

#[test]
fn color_values() {
    table::<Color>(
        "19",
        "PL",
        &[
            ("B", Some(Color::Black)),
            ("W", Some(Color::White)),
            // Lenient: lower case, 1 and 2, the words in any case,
            // surrounding whitespace.
            ("b", Some(Color::Black)),
            ("w", Some(Color::White)),
            ("1", Some(Color::Black)),
            ("2", Some(Color::White)),
            ("Black", Some(Color::Black)),
            ("White", Some(Color::White)),
            ("BLACK", Some(Color::Black)),
            ("white", Some(Color::White)),
            (" W\n", Some(Color::White)),
            // Malformed.
            ("", None),
            ("X", None),
            ("0", None),
            ("3", None),
            ("BW", None),
            ("Bl", None),
            ("Blackish", None),
        ],
    );
    assert_eq!(Color::Black.opponent(), Color::White);
    assert_eq!(Color::White.opponent(), Color::Black);
    assert_eq!((Color::Black.as_str(), Color::White.as_str()), ("B", "W"));
}

#[test]
fn none_values() {
    table::<Empty>(
        "19",
        "KO",
        &[
            ("", Some(Empty)),
            (" ", Some(Empty)),
            ("\r\n", Some(Empty)),
            ("x", None),
            ("0", None),
            ("[]", None),
        ],
    );
    // DO, IT, KO: the None type (SGFGrove: `DO[]`, `IT[]`, `KO[]` → null).
    let doc = doc(b"(;;B[aa]DO[]IT[]KO[])");
    for ident in ["DO", "IT", "KO"] {
        assert_eq!(node(&doc, 1).get::<Empty>(ident).unwrap(), Some(Empty));
    }
}

// ---------------------------------------------------------------------------
// Points, moves, stones, board sizes.
// ---------------------------------------------------------------------------

#[test]
fn point_values_on_19x19() {
    table::<Point>(
        "19",
        "CR",
        &[
            ("aa", Some(p(0, 0))),
            ("cd", Some(p(2, 3))),
            ("dc", Some(p(3, 2))),
            ("ss", Some(p(18, 18))),
            ("sa", Some(p(18, 0))),
            (" pd ", Some(p(15, 3))),
            // Off the board.
            ("tt", None),
            ("ta", None),
            ("at", None),
            ("zz", None),
            ("Aa", None),
            ("aA", None),
            // Not a point.
            ("", None),
            ("a", None),
            ("abc", None),
            ("a1", None),
            ("1a", None),
            ("a b", None),
            ("aa:bb", None),
        ],
    );
}

#[test]
fn point_values_on_52x52() {
    // `a`–`z` are 0–25, `A`–`Z` 26–51.
    table::<Point>(
        "52",
        "CR",
        &[
            ("aa", Some(p(0, 0))),
            ("za", Some(p(25, 0))),
            ("Aa", Some(p(26, 0))),
            ("aA", Some(p(0, 26))),
            ("Zz", Some(p(51, 25))),
            ("ZZ", Some(p(51, 51))),
            ("tt", Some(p(19, 19))),
            ("Mn", Some(p(38, 13))),
            ("a[", None),
            ("é", None),
        ],
    );
    // Each coordinate writes back as it was read.
    for x in 0..52u8 {
        let pt = p(x, 51 - x);
        let s = pt.to_string();
        let input = format!("(;SZ[52]CR[{s}])");
        let doc = doc(input.as_bytes());
        assert_eq!(node(&doc, 0).get::<Point>("CR").unwrap(), Some(pt), "{s}");
        assert_eq!(
            pt.to_sgf().unwrap(),
            *s.as_bytes().first_chunk::<2>().unwrap()
        );
    }
}

#[test]
fn point_values_on_rectangular_boards() {
    // `SZ[12:8]`: 12 columns (x `a`–`l`), 8 rows (y `a`–`h`).
    table::<Point>(
        "12:8",
        "CR",
        &[
            ("lh", Some(p(11, 7))),
            ("ah", Some(p(0, 7))),
            ("la", Some(p(11, 0))),
            ("mh", None),
            ("li", None),
            ("hl", None),
        ],
    );
    // 30 columns, 3 rows.
    table::<Point>(
        "30:3",
        "CR",
        &[("Dc", Some(p(29, 2))), ("Ec", None), ("ad", None)],
    );
}

#[test]
fn move_values() {
    // Up to 19×19, `[]` and `[tt]` are passes.
    table::<Move>(
        "19",
        "B",
        &[
            ("pd", Some(Move::Play(p(15, 3)))),
            ("ss", Some(Move::Play(p(18, 18)))),
            ("", Some(Move::Pass)),
            (" ", Some(Move::Pass)),
            ("tt", Some(Move::Pass)),
            (" tt ", Some(Move::Pass)),
            ("zz", None),
            ("ts", None),
            ("st", None),
            ("TT", None),
            ("pass", None),
            ("p", None),
        ],
    );
    for size in ["9", "13", "1", "19:13", "5:19"] {
        table::<Move>(
            size,
            "W",
            &[("tt", Some(Move::Pass)), ("", Some(Move::Pass))],
        );
    }
    // From 20×20 on, `[tt]` is the point (19, 19); `[]` is still a pass.
    for size in ["20", "25", "52", "20:20"] {
        table::<Move>(
            size,
            "W",
            &[
                ("tt", Some(Move::Play(p(19, 19)))),
                ("", Some(Move::Pass)),
                ("aa", Some(Move::Play(p(0, 0)))),
            ],
        );
    }
    // A board wider or taller than 19 without (19, 19) on it: `tt` is
    // neither a pass nor a point.
    for size in ["19:20", "20:19", "25:5"] {
        table::<Move>(size, "B", &[("tt", None), ("", Some(Move::Pass))]);
    }
    // 52×52: `B[aa]`-`B[ZZ]`, `B[]` (SGFGrove's table).
    table::<Move>(
        "52",
        "B",
        &[
            ("aa", Some(Move::Play(p(0, 0)))),
            ("ZZ", Some(Move::Play(p(51, 51)))),
            ("", Some(Move::Pass)),
        ],
    );
}

#[test]
fn stone_values() {
    // In Go a stone is a point.
    let doc = doc(b"(;SZ[9]AB[ee]AW[ii]AE[jj])");
    let root = node(&doc, 0);
    assert_eq!(root.get::<Stone>("AB").unwrap(), Some(p(4, 4)));
    assert_eq!(root.get::<Stone>("AW").unwrap(), Some(p(8, 8)));
    let err = root.get::<Stone>("AE").unwrap_err();
    assert_invalid(
        b"(;SZ[9]AB[ee]AW[ii]AE[jj])",
        &err,
        ValueType::Point,
        (22, 1, 23),
    );
}

#[test]
fn board_size_values() {
    table::<BoardSize>(
        "19",
        "SZ",
        &[
            ("19", Some(BoardSize::square(19))),
            ("9", Some(BoardSize::square(9))),
            ("1", Some(BoardSize::square(1))),
            ("52", Some(BoardSize::square(52))),
            ("19:13", Some(BoardSize { cols: 19, rows: 13 })),
            // The specification's rectangular example, and SGFGrove's.
            ("12:8", Some(BoardSize { cols: 12, rows: 8 })),
            ("12:34", Some(BoardSize { cols: 12, rows: 34 })),
            (" 13 ", Some(BoardSize::square(13))),
            ("19 : 19", Some(BoardSize::square(19))),
            // Malformed or out of range.
            ("", None),
            ("0", None),
            ("-19", None),
            ("53", None),
            ("100", None),
            ("x", None),
            ("19x19", None),
            ("19:", None),
            (":19", None),
            ("19:0", None),
            ("19:53", None),
            ("19:13:9", None),
            ("19.0", None),
        ],
    );
    assert_eq!(
        BoardSize::TYPE,
        ValueType::Compose(&ValueType::Number, &ValueType::Number)
    );
}

#[test]
fn game_board_size_and_type() {
    let cases: &[(&[u8], BoardSize, u32)] = &[
        (b"(;GM[1]SZ[19])", BoardSize::square(19), 1),
        (b"(;SZ[13])", BoardSize::square(13), 1),
        (b"(;SZ[19:13])", BoardSize { cols: 19, rows: 13 }, 1),
        (b"(;SZ[52])", BoardSize::square(52), 1),
        // Absent or malformed: 19×19.
        (b"(;GM[1])", BoardSize::square(19), 1),
        (b"(;SZ[])", BoardSize::square(19), 1),
        (b"(;SZ[0])", BoardSize::square(19), 1),
        (b"(;SZ[53])", BoardSize::square(19), 1),
        (b"(;SZ[big])", BoardSize::square(19), 1),
        // GM: absent or malformed is Go.
        (b"(;GM[11]SZ[11])", BoardSize::square(11), 11),
        (b"(;GM[ 6 ])", BoardSize::square(19), 6),
        (b"(;GM[x])", BoardSize::square(19), 1),
        (b"(;GM[-1])", BoardSize::square(19), 1),
        // Only the root's SZ counts.
        (b"(;GM[1];SZ[9];B[aa])", BoardSize::square(19), 1),
    ];
    for &(input, size, gm) in cases {
        let doc = doc(input);
        let game = doc.games().next().unwrap();
        assert_eq!(game.board_size(), size, "{}", show(input));
        assert_eq!(game.game_type(), gm, "{}", show(input));
        assert_eq!(game.value_context().size(), size);
    }
    // The typed getter reports what board_size() forgives.
    let input = b"(;SZ[53];B[tt])";
    let doc = doc(input);
    let err = node(&doc, 0).get::<BoardSize>("SZ").unwrap_err();
    assert_invalid(input, &err, BoardSize::TYPE, (5, 1, 6));
    // …and moves are read on the 19×19 fallback.
    assert_eq!(node(&doc, 1).get::<Move>("B").unwrap(), Some(Move::Pass));
    // Boards and points.
    let b = BoardSize { cols: 12, rows: 8 };
    assert!(b.contains(p(11, 7)) && !b.contains(p(12, 0)) && !b.contains(p(0, 8)));
    assert!(BoardSize::square(19).tt_is_pass() && !BoardSize::square(20).tt_is_pass());
    assert!(!BoardSize { cols: 19, rows: 20 }.tt_is_pass());
    assert_eq!(BoardSize::default(), BoardSize::square(19));
}

// ---------------------------------------------------------------------------
// Compose values.
// ---------------------------------------------------------------------------

#[test]
fn compose_values() {
    // `AR[aa:bb]`, `LN[aa:bb]`: point:point.
    table::<(Point, Point)>(
        "19",
        "AR",
        &[
            ("aa:bb", Some((p(0, 0), p(1, 1)))),
            ("dd:pp", Some((p(3, 3), p(15, 15)))),
            ("pp:dd", Some((p(15, 15), p(3, 3)))),
            (" aa : bb ", Some((p(0, 0), p(1, 1)))),
            ("aa", None),
            ("aa:", None),
            (":bb", None),
            ("aa:tt", None),
            ("aa:bb:cc", None),
            ("aa;bb", None),
        ],
    );
    // `LB[dd:label]`: point:simpletext; the text is split at the first
    // unescaped `:` and may hold escaped ones.
    let label = |raw: &str| -> Option<(Point, String)> {
        let input = format!("(;LB[{raw}])");
        let doc = doc(input.as_bytes());
        node(&doc, 0)
            .get::<(Point, SimpleText)>("LB")
            .ok()
            .flatten()
            .map(|(pt, t)| (pt, t.to_string()))
    };
    assert_eq!(label("dd:label"), Some((p(3, 3), "label".into())));
    assert_eq!(label("aa:label"), Some((p(0, 0), "label".into())));
    assert_eq!(label("dd:A"), Some((p(3, 3), "A".into())));
    assert_eq!(label("dd:"), Some((p(3, 3), "".into())));
    assert_eq!(label(r"dd:a\:b"), Some((p(3, 3), "a:b".into())));
    assert_eq!(label("dd:a:b"), Some((p(3, 3), "a:b".into())));
    assert_eq!(label(r"dd:x\]y"), Some((p(3, 3), "x]y".into())));
    assert_eq!(label("dd:two\nlines"), Some((p(3, 3), "two lines".into())));
    assert_eq!(label(r"d\d:x"), None, "escaped letter in the point");
    assert_eq!(label(r"dd\:x"), None, "escaped colon does not split");
    assert_eq!(label("zz:x"), None);
    // `AP[app:version]`: simpletext:simpletext.
    let input = b"(;AP[CGoban:3]FG[257:Figure 1])";
    let doc = doc(input);
    let root = node(&doc, 0);
    let (app, version) = root.get::<(SimpleText, SimpleText)>("AP").unwrap().unwrap();
    assert_eq!((&*app, &*version), ("CGoban", "3"));
    // `FG[]` or `FG[257:fig]`: none, or number:simpletext.
    let (flags, name) = root
        .get::<Option<(i64, SimpleText)>>("FG")
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!((flags, &*name), (257, "Figure 1"));
    let doc2 = self::doc(b"(;FG[])");
    assert!(matches!(
        node(&doc2, 0).get::<Option<(i64, SimpleText)>>("FG"),
        Ok(Some(None))
    ));
    // The compose type names both halves.
    assert_eq!(
        <(Point, SimpleText)>::TYPE,
        ValueType::Compose(&ValueType::Point, &ValueType::SimpleText)
    );
    let input = b"(;AR[aa])";
    let doc3 = self::doc(input);
    let err = node(&doc3, 0).get::<(Point, Point)>("AR").unwrap_err();
    assert_invalid(
        input,
        &err,
        ValueType::Compose(&ValueType::Point, &ValueType::Point),
        (5, 1, 6),
    );
    assert_eq!(
        err.to_string(),
        "malformed value: expected point:point at 1:6"
    );
}

// ---------------------------------------------------------------------------
// Text.
// ---------------------------------------------------------------------------

#[test]
fn simple_text_values() {
    let cases: &[(&[u8], &str)] = &[
        (b"Lee Sedol", "Lee Sedol"),
        // Spaces are kept as they are: inside, doubled, leading, trailing.
        (b"Lee  Sedol", "Lee  Sedol"),
        (b" Lee Sedol ", " Lee Sedol "),
        // Escapes: any character after `\` is itself.
        (br"a\]b", "a]b"),
        (br"a\\b", r"a\b"),
        (br"a\:b", "a:b"),
        (br"\a\b\c", "abc"),
        (br"\]\:\\", r"]:\"),
        // Hard line breaks and other whitespace become one space each.
        (b"Lee\nSedol", "Lee Sedol"),
        (b"Lee\rSedol", "Lee Sedol"),
        (b"Lee\r\nSedol", "Lee Sedol"),
        (b"Lee\n\rSedol", "Lee Sedol"),
        (b"Lee\n\nSedol", "Lee  Sedol"),
        (b"Lee\tSedol", "Lee Sedol"),
        (b"Lee\x0bSedol", "Lee Sedol"),
        (b"Lee\x0cSedol", "Lee Sedol"),
        (b"\n|\r|\t|\x0b", " | | | "),
        // Soft line breaks (`\` + LF, CR, CRLF or LFCR) are removed.
        (b"Lee\\\nSedol", "LeeSedol"),
        (b"Lee\\\rSedol", "LeeSedol"),
        (b"Lee\\\r\nSedol", "LeeSedol"),
        (b"Lee\\\n\rSedol", "LeeSedol"),
        (b"\\\n|\\\n\r|\\\r|\\\r\n", "|||"),
        // Only the first break after `\` is soft.
        (b"a\\\n\nb", "a b"),
        // An escaped tab is still whitespace: a space.
        (b"a\\\tb", "a b"),
        // UTF-8 (the default without CA), kept.
        ("李世乭".as_bytes(), "李世乭"),
        ("Cho Hun-hyeon 조훈현".as_bytes(), "Cho Hun-hyeon 조훈현"),
    ];
    for &(raw, want) in cases {
        let mut input = b"(;PB[".to_vec();
        input.extend_from_slice(raw);
        input.extend_from_slice(b"])");
        let doc = doc(&input);
        let root = node(&doc, 0);
        assert_eq!(root.simple_text("PB"), Some(want), "{}", show(&input));
        let typed = root.get::<SimpleText>("PB").unwrap().unwrap();
        assert_eq!(&*typed, want);
        assert_eq!(typed.to_string(), want);
    }
    assert_eq!(SimpleText::TYPE, ValueType::SimpleText);
}

#[test]
fn text_values() {
    let cases: &[(&[u8], &str)] = &[
        (b"plain", "plain"),
        (b"  spaces  kept  ", "  spaces  kept  "),
        // Escapes.
        (br"a\]b", "a]b"),
        (br"a\\b", r"a\b"),
        (br"a\:b", "a:b"),
        (br"\]\:\\", r"]:\"),
        (br"smile :\)", "smile :)"),
        (br"foo [2k\]", "foo [2k]"),
        // Hard line breaks, each normalised to one LF.
        (b"a\nb", "a\nb"),
        (b"a\rb", "a\nb"),
        (b"a\r\nb", "a\nb"),
        (b"a\n\rb", "a\nb"),
        (b"a\n\nb", "a\n\nb"),
        (b"a\r\n\r\nb", "a\n\nb"),
        (b"a\n\r\n\rb", "a\n\nb"),
        (b"a\r\rb", "a\n\nb"),
        // Other whitespace becomes a space (FF[4]).
        (b"a\tb", "a b"),
        (b"a\x0bb", "a b"),
        (b"a\\\tb", "a b"),
        (b"\nlead and trail\n", "\nlead and trail\n"),
        // Soft line breaks removed.
        (b"hel\\\nlo", "hello"),
        (b"hel\\\rlo", "hello"),
        (b"hel\\\r\nlo", "hello"),
        (b"hel\\\n\rlo", "hello"),
        (b"\\\n|\\\n\r|\\\r|\\\r\n", "|||"),
        (b"a\\\n\nb", "a\nb"),
        (b"a\\\r\n\r\nb", "a\nb"),
        ("碁 Go 바둑 囲碁".as_bytes(), "碁 Go 바둑 囲碁"),
    ];
    for &(raw, want) in cases {
        let mut input = b"(;C[".to_vec();
        input.extend_from_slice(raw);
        input.extend_from_slice(b"])");
        let doc = doc(&input);
        let root = node(&doc, 0);
        assert_eq!(root.text("C"), Some(want), "{}", show(&input));
        let typed = root.get::<Text>("C").unwrap().unwrap();
        assert_eq!(&*typed, want);
    }
    assert_eq!(Text::TYPE, ValueType::Text);
}

/// Text never fails: bytes the game's charset cannot decode become U+FFFD.
/// (Without `CA` a stray byte would make the game's charset a guess: see
/// `charsets.rs`; here `CA[UTF-8]` fixes it.)
#[test]
fn undecodable_text_is_replaced_never_an_error() {
    let input = b"(;CA[UTF-8]PB[a\xffb]C[a\xe5\xb8b]N[\xe5\xb8\xb8\xe5])";
    let doc = doc(input);
    let root = node(&doc, 0);
    assert_eq!(root.simple_text("PB"), Some("a\u{fffd}b"));
    assert_eq!(root.text("C"), Some("a\u{fffd}b"));
    // A name cut after a lead byte (as Fox writes them).
    assert_eq!(root.simple_text("N"), Some("常\u{fffd}"));
    assert!(root.get::<SimpleText>("PB").is_ok());
    assert!(root.get::<Text>("C").is_ok());
}

/// The specification's Text rules, as in its example of a chat log: a soft
/// line break in the middle of a word, an escaped character that needed no
/// escape, an escaped `]` inside brackets, hard line breaks kept.
#[test]
fn text_spec_example() {
    let raw = b"Kibitz A: the cut at k4 is won\\\nderful\nKibitz B: agreed :\\)\n\
                Kibitz C: can someone\\\n explain [it\\] to me?";
    let mut input = b"(;C[".to_vec();
    input.extend_from_slice(raw);
    input.extend_from_slice(b"])");
    let (text, simple) = text_of(&input, "C");
    assert_eq!(
        text,
        "Kibitz A: the cut at k4 is wonderful\nKibitz B: agreed :)\n\
         Kibitz C: can someone explain [it] to me?"
    );
    assert_eq!(
        simple,
        "Kibitz A: the cut at k4 is wonderful Kibitz B: agreed :) \
         Kibitz C: can someone explain [it] to me?"
    );
}

/// FF\[4\]: in Text, "white spaces other than linebreaks are converted to
/// space (e.g. no tab, vertical tab, ..)". SGFGrove.js reads
/// `C[\n|\r|\t|\v]` as `"\n|\r| | "`; normalising CR to LF as this crate
/// does, that is `"\n|\n| | "`.
#[test]
fn text_converts_other_whitespace_to_space_as_ff4_says() {
    let (text, _) = text_of(b"(;C[\n|\r|\t|\x0b|\x0c])", "C");
    assert_eq!(text, "\n|\n| | | ");
}

#[test]
fn text_borrows_when_nothing_changes() {
    let input = "(;PB[Lee Sedol]PW[李世乭]C[A comment, no escapes.\n\nTwo paragraphs.]\
                 GC[tab\there]N[a\\]b]GN[two\nlines]EV[cr\rline])"
        .as_bytes();
    let doc = doc(input);
    let root = node(&doc, 0);
    // Borrowed: the value's own bytes in the input; else decoded into the
    // tree's arena, outside the input.
    let in_input = |text: Option<&str>| {
        let text = text.expect("has the property");
        let (start, at) = (input.as_ptr() as usize, text.as_ptr() as usize);
        at >= start && at + text.len() <= start + input.len()
    };
    assert!(in_input(root.simple_text("PB")));
    assert!(in_input(root.simple_text("PW")));
    assert!(in_input(root.text("C")));
    // Text keeps LF only breaks: borrowed; CR needs normalising: decoded.
    assert!(in_input(root.text("GN")));
    assert!(!in_input(root.text("EV")));
    // SimpleText turns the LF into a space: decoded.
    assert!(!in_input(root.simple_text("GN")));
    assert!(!in_input(root.simple_text("GC")));
    assert!(!in_input(root.text("N")));
    assert_eq!(root.text("N"), Some("a]b"));
    // A borrowed value is the input's own bytes.
    let pb = root.simple_text("PB").unwrap();
    let start = pb.as_ptr() as usize - input.as_ptr() as usize;
    assert_eq!(&input[start..start + pb.len()], b"Lee Sedol");
    assert_eq!(root.raw("PB").unwrap().as_ptr(), pb.as_ptr());
    // Absent: None, whatever the type.
    assert_eq!(root.text("XX"), None);
    assert_eq!(root.simple_text("XX"), None);
    // Text never fails: a point property read as text is its letters.
    let doc2 = self::doc(b"(;B[pd])");
    assert_eq!(node(&doc2, 0).text("B"), Some("pd"));
}

// ---------------------------------------------------------------------------
// Errors and their positions.
// ---------------------------------------------------------------------------

#[test]
fn malformed_values_are_errors_at_the_value() {
    // Line 1: `(;GM[1]FF[4]`, offsets 0..12, then LF at 12.
    // Line 2 starts at 13: `SZ[19]KM[six]` — KM's value at 13+9 = 22, column 10.
    // CRLF at 26..28. Line 3 starts at 28: `HA[two]PL[X]` — HA at 31, PL at 38.
    // LF at 40. Line 4 starts at 41: `;B[pd]` then `;W[zz]` at 47: W's value 50.
    // CR at 53. Line 5 starts at 54: `;B[]MN[-]C[ok]` — MN's value at 61, C's 65.
    // LFCR at 68..70. Line 6 starts at 70: `;W[tt]AB[aa][bb][zz]` — AB's third value at 87.
    let input: &[u8] = b"(;GM[1]FF[4]\nSZ[19]KM[six]\r\nHA[two]PL[X]\n;B[pd];W[zz]\r;B[]MN[-]C[ok]\n\r;W[tt]AB[aa][bb][zz])";
    let doc = doc(input);
    let root = node(&doc, 0);
    assert_invalid(
        input,
        &root.get::<f64>("KM").unwrap_err(),
        ValueType::Real,
        (22, 2, 10),
    );
    assert_invalid(
        input,
        &root.get::<i64>("HA").unwrap_err(),
        ValueType::Number,
        (31, 3, 4),
    );
    assert_invalid(
        input,
        &root.get::<Color>("PL").unwrap_err(),
        ValueType::Color,
        (38, 3, 11),
    );
    // The same values read as something they are: fine.
    assert_eq!(root.get::<i64>("SZ").unwrap(), Some(19));
    assert_eq!(root.simple_text("KM"), Some("six"));
    let b1 = node(&doc, 1);
    assert_eq!(b1.get::<Move>("B").unwrap(), Some(Move::Play(p(15, 3))));
    let w1 = node(&doc, 2);
    assert_invalid(
        input,
        &w1.get::<Move>("W").unwrap_err(),
        ValueType::Move,
        (50, 4, 10),
    );
    let b2 = node(&doc, 3);
    assert_eq!(b2.get::<Move>("B").unwrap(), Some(Move::Pass));
    assert_invalid(
        input,
        &b2.get::<i64>("MN").unwrap_err(),
        ValueType::Number,
        (61, 5, 8),
    );
    // A compose getter on a plain value.
    assert_invalid(
        input,
        &b2.get::<(Point, SimpleText)>("C").unwrap_err(),
        ValueType::Compose(&ValueType::Point, &ValueType::SimpleText),
        (65, 5, 12),
    );
    let w2 = node(&doc, 4);
    assert_eq!(w2.get::<Move>("W").unwrap(), Some(Move::Pass));
    // get() reads the first value only; points() checks them all.
    assert_eq!(w2.get::<Point>("AB").unwrap(), Some(p(0, 0)));
    assert_invalid(
        input,
        &w2.points("AB").unwrap_err(),
        ValueType::Point,
        (87, 6, 18),
    );
    let all: Vec<_> = w2.get_all::<Point>("AB").collect();
    assert_eq!(all.len(), 3);
    assert_eq!(all[0].as_ref().unwrap(), &p(0, 0));
    assert_eq!(all[1].as_ref().unwrap(), &p(1, 1));
    assert_invalid(
        input,
        all[2].as_ref().unwrap_err(),
        ValueType::Point,
        (87, 6, 18),
    );
    // Display: the kind, the expected type, the position.
    assert_eq!(
        root.get::<f64>("KM").unwrap_err().to_string(),
        "malformed value: expected real at 2:10"
    );
    assert_eq!(
        w1.get::<Move>("W").unwrap_err().to_string(),
        "malformed value: expected move at 4:10"
    );
}

#[test]
fn error_positions_count_bytes_and_line_breaks() {
    // Multi-byte characters before the value count by bytes; an error in a
    // value spanning lines is at its first byte.
    let input = "(;C[碁]\r\n\r\nPB[李]KM[\n6.5\nx])".as_bytes();
    let doc = doc(input);
    let err = node(&doc, 0).get::<f64>("KM").unwrap_err();
    // `(;C[` 4 + 碁 3 + `]` = 8, CRLF CRLF to 12; line 3: `PB[李]` 7 bytes, `KM[` → 22.
    assert_invalid(input, &err, ValueType::Real, (22, 3, 11));
    // Values in a later game: positions in the whole input.
    let input = b"(;B[aa])\n(;SZ[9]\n;B[jj])";
    let doc = self::doc(input);
    let err = node(&doc, 2).get::<Move>("B").unwrap_err();
    assert_invalid(input, &err, ValueType::Move, (20, 3, 4));
    assert_eq!(
        node(&doc, 0).get::<Move>("B").unwrap(),
        Some(Move::Play(p(0, 0)))
    );
}

// ---------------------------------------------------------------------------
// Point lists, get_all, repeated properties.
// ---------------------------------------------------------------------------

fn points_of(input: &[u8], ident: &str) -> Result<Vec<Point>, Error> {
    let doc = doc(input);
    let root = node(&doc, 0);
    root.points(ident).map(|ps| ps.collect())
}

/// An input, the property to read, the points it must give.
type PointCase = (&'static [u8], &'static str, &'static [(u8, u8)]);

#[test]
fn point_lists() {
    let ok: &[PointCase] = &[
        (b"(;AB[aa][bb][cc])", "AB", &[(0, 0), (1, 1), (2, 2)]),
        // The specification's compressed list: the 3×3 square aa..cc.
        (
            b"(;AB[aa:cc])",
            "AB",
            &[
                (0, 0),
                (1, 0),
                (2, 0),
                (0, 1),
                (1, 1),
                (2, 1),
                (0, 2),
                (1, 2),
                (2, 2),
            ],
        ),
        // SGFGrove's example: `AB[aa:bb][cc]` → aa, ba, ab, bb, cc.
        (
            b"(;AB[aa:bb][cc])",
            "AB",
            &[(0, 0), (1, 0), (0, 1), (1, 1), (2, 2)],
        ),
        // Corners in any order give the same rectangle.
        (b"(;AB[bb:aa])", "AB", &[(0, 0), (1, 0), (0, 1), (1, 1)]),
        (b"(;AB[ba:ab])", "AB", &[(0, 0), (1, 0), (0, 1), (1, 1)]),
        (b"(;AB[ab:ba])", "AB", &[(0, 0), (1, 0), (0, 1), (1, 1)]),
        // A row, a column, a single point as a rectangle.
        (b"(;MA[ac:cc])", "MA", &[(0, 2), (1, 2), (2, 2)]),
        (b"(;MA[ca:cc])", "MA", &[(2, 0), (2, 1), (2, 2)]),
        (b"(;MA[dd:dd])", "MA", &[(3, 3)]),
        // Empty values add nothing: a trailing `[]`, `TB[]`, `AB[]`.
        (b"(;AB[aa][])", "AB", &[(0, 0)]),
        (b"(;AB[][aa][ ])", "AB", &[(0, 0)]),
        (b"(;TB[])", "TB", &[]),
        (b"(;AB[])", "AB", &[]),
        // Whitespace around points and corners.
        (b"(;TR[ aa : ab ])", "TR", &[(0, 0), (0, 1)]),
        // Repeated properties: merged in file order.
        (b"(;AB[aa]AW[ss]AB[bb:bc])", "AB", &[(0, 0), (1, 1), (1, 2)]),
        // Duplicates are not removed.
        (b"(;AB[aa:ab][aa])", "AB", &[(0, 0), (0, 1), (0, 0)]),
        // Whole board corners of the largest board.
        (b"(;SZ[52]AB[ZY:ZZ])", "AB", &[(51, 50), (51, 51)]),
        // Absent: no points.
        (b"(;AW[aa])", "AB", &[]),
    ];
    for &(input, ident, want) in ok {
        let got = points_of(input, ident).unwrap_or_else(|e| panic!("{}: {e}", show(input)));
        let want: Vec<Point> = want.iter().map(|&(x, y)| p(x, y)).collect();
        assert_eq!(got, want, "{}", show(input));
    }
    // The whole 19×19 board: 361 points, each once, row by row.
    let all = points_of(b"(;AE[aa:ss])", "AE").unwrap();
    assert_eq!(all.len(), 361);
    assert_eq!(all[19], p(0, 1));
    assert_eq!(all[360], p(18, 18));
    // A 52×52 board: 2,704.
    assert_eq!(points_of(b"(;SZ[52]AE[ZZ:aa])", "AE").unwrap().len(), 2704);
}

#[test]
fn point_list_errors_come_before_any_point() {
    // (input, offset of the first bad value).
    let bad: &[(&[u8], usize)] = &[
        (b"(;AB[aa][tt])", 9),
        (b"(;AB[zz][aa])", 5),
        (b"(;AB[aa:tt])", 5),
        (b"(;AB[aa:bb:cc])", 5),
        (b"(;AB[a])", 5),
        (b"(;AB[aa:])", 5),
        (b"(;AB[aa][bb][cc:dd][a1])", 20),
        (b"(;AB[aa]C[x]AB[bb][zz])", 19),
        (b"(;SZ[9]AB[aa:ii][jj])", 17),
        (b"(;SZ[12:8]AB[la:lh][ai])", 20),
    ];
    for &(input, offset) in bad {
        let err = points_of(input, "AB").expect_err(&show(input));
        assert_invalid(
            input,
            &err,
            ValueType::Point,
            (offset, 1, offset as u32 + 1),
        );
    }
}

#[test]
fn get_all_reads_every_value() {
    let input = b"(;SZ[9]AB[aa][bb]AW[cc]AB[dd]LB[aa:one][bb:two]AR[aa:bb][cc:dd]MA[aa:bb])";
    let doc = doc(input);
    let root = node(&doc, 0);
    let ab: Vec<Point> = root.get_all::<Point>("AB").map(Result::unwrap).collect();
    assert_eq!(ab, [p(0, 0), p(1, 1), p(3, 3)]);
    let labels: Vec<(Point, String)> = root
        .get_all::<(Point, SimpleText)>("LB")
        .map(|r| r.map(|(pt, t)| (pt, t.to_string())).unwrap())
        .collect();
    assert_eq!(labels, [(p(0, 0), "one".into()), (p(1, 1), "two".into())]);
    let arrows: Vec<(Point, Point)> = root
        .get_all::<(Point, Point)>("AR")
        .map(Result::unwrap)
        .collect();
    assert_eq!(arrows, [(p(0, 0), p(1, 1)), (p(2, 2), p(3, 3))]);
    // get_all does not expand rectangles: a compressed value is no point…
    let ma: Vec<_> = root.get_all::<Point>("MA").collect();
    assert_eq!(ma.len(), 1);
    assert_invalid(
        input,
        ma[0].as_ref().unwrap_err(),
        ValueType::Point,
        (66, 1, 67),
    );
    // …while points() does.
    assert_eq!(root.points("MA").unwrap().count(), 4);
    assert_eq!(root.get_all::<Point>("XX").count(), 0);
    // The iterator is fused.
    let mut it = root.get_all::<Point>("AW");
    assert!(it.next().is_some());
    assert!(it.next().is_none() && it.next().is_none());
}

// ---------------------------------------------------------------------------
// typed_values on every property of a rich game.
// ---------------------------------------------------------------------------

/// `typed_values` of property `ident` of `n`, which must not fail.
fn typed<'t>(n: Node<'t, '_>, ident: &str) -> Option<Vec<TypedValue<'t>>> {
    n.property(ident)
        .expect("has the property")
        .typed_values()
        .unwrap_or_else(|e| panic!("{ident}: {e}"))
}

fn tv_text(s: &str) -> TypedValue<'static> {
    TypedValue::SimpleText(Box::leak(s.to_owned().into_boxed_str()))
}

fn tv_point(x: u8, y: u8) -> TypedValue<'static> {
    TypedValue::Point(p(x, y))
}

fn tv_compose(a: TypedValue<'static>, b: TypedValue<'static>) -> TypedValue<'static> {
    TypedValue::Compose(Box::leak(Box::new(a)), Box::leak(Box::new(b)))
}

#[test]
fn typed_values_of_a_rich_game() {
    let input = "(;GM[1]FF[4]CA[UTF-8]AP[CGoban:3]ST[2]SZ[19]KM[6.5]HA[0]\
                 PB[Lee Sedol]PW[AlphaGo]BR[9p]WR[-]BT[KR]WT[UK]DT[2016-03-09]\
                 EV[Google DeepMind Challenge Match]RO[1]PC[Seoul]RE[W+R]RU[Chinese]\
                 TM[7200]OT[3x60 byo-yomi]GN[Game 1]GC[first game\nof five]SO[s]US[u]\
                 AN[a]CP[c]ON[o]\
                 AB[aa:bb][dd]AW[ee]AE[ff]PL[W]FG[]PM[1]VW[]DD[]TB[]TW[ss][]\
                 C[root]N[start]DM[1]UC[2]GB[1]GW[2]HO[1]V[-0.5]\
                 ;B[pd]BL[7190.5]OB[0]MN[1]KO[]TE[1]IT[]\
                 ;W[tt]WL[7100]OW[3]BM[2]DO[]CR[cc]MA[dd]SL[ee:ef]SQ[ff]TR[gg]\
                 LB[dd:A][ee:B\\:C]AR[aa:bb]LN[cc:dd]FG[257:Figure 1]VW[aa:ab]DD[sa]XX[private])"
        .as_bytes();
    let doc = doc(input);
    assert!(doc.warnings().is_empty(), "{:?}", doc.warnings());
    use TypedValue as T;
    let expected: Vec<(&str, Vec<TypedValue<'static>>)> = vec![
        ("GM", vec![T::Number(1)]),
        ("FF", vec![T::Number(4)]),
        ("CA", vec![tv_text("UTF-8")]),
        ("AP", vec![tv_compose(tv_text("CGoban"), tv_text("3"))]),
        ("ST", vec![T::Number(2)]),
        ("SZ", vec![T::Number(19)]),
        ("KM", vec![T::Real(6.5)]),
        ("HA", vec![T::Number(0)]),
        ("PB", vec![tv_text("Lee Sedol")]),
        ("PW", vec![tv_text("AlphaGo")]),
        ("BR", vec![tv_text("9p")]),
        ("WR", vec![tv_text("-")]),
        ("BT", vec![tv_text("KR")]),
        ("WT", vec![tv_text("UK")]),
        ("DT", vec![tv_text("2016-03-09")]),
        ("EV", vec![tv_text("Google DeepMind Challenge Match")]),
        ("RO", vec![tv_text("1")]),
        ("PC", vec![tv_text("Seoul")]),
        ("RE", vec![tv_text("W+R")]),
        ("RU", vec![tv_text("Chinese")]),
        ("TM", vec![T::Real(7200.0)]),
        ("OT", vec![tv_text("3x60 byo-yomi")]),
        ("GN", vec![tv_text("Game 1")]),
        ("GC", vec![T::Text("first game\nof five")]),
        ("SO", vec![tv_text("s")]),
        ("US", vec![tv_text("u")]),
        ("AN", vec![tv_text("a")]),
        ("CP", vec![tv_text("c")]),
        ("ON", vec![tv_text("o")]),
        (
            "AB",
            vec![
                tv_point(0, 0),
                tv_point(1, 0),
                tv_point(0, 1),
                tv_point(1, 1),
                tv_point(3, 3),
            ],
        ),
        ("AW", vec![tv_point(4, 4)]),
        ("AE", vec![tv_point(5, 5)]),
        ("PL", vec![T::Color(Color::White)]),
        ("FG", vec![T::None]),
        ("PM", vec![T::Number(1)]),
        ("VW", vec![]),
        ("DD", vec![]),
        ("TB", vec![]),
        ("TW", vec![tv_point(18, 18)]),
        ("C", vec![T::Text("root")]),
        ("N", vec![tv_text("start")]),
        ("DM", vec![T::Double(Double::Normal)]),
        ("UC", vec![T::Double(Double::Emphasized)]),
        ("GB", vec![T::Double(Double::Normal)]),
        ("GW", vec![T::Double(Double::Emphasized)]),
        ("HO", vec![T::Double(Double::Normal)]),
        ("V", vec![T::Real(-0.5)]),
        // Node 1.
        ("B", vec![T::Move(Move::Play(p(15, 3)))]),
        ("BL", vec![T::Real(7190.5)]),
        ("OB", vec![T::Number(0)]),
        ("MN", vec![T::Number(1)]),
        ("KO", vec![T::None]),
        ("TE", vec![T::Double(Double::Normal)]),
        ("IT", vec![T::None]),
        // Node 2.
        ("W", vec![T::Move(Move::Pass)]),
        ("WL", vec![T::Real(7100.0)]),
        ("OW", vec![T::Number(3)]),
        ("BM", vec![T::Double(Double::Emphasized)]),
        ("DO", vec![T::None]),
        ("CR", vec![tv_point(2, 2)]),
        ("MA", vec![tv_point(3, 3)]),
        ("SL", vec![tv_point(4, 4), tv_point(4, 5)]),
        ("SQ", vec![tv_point(5, 5)]),
        ("TR", vec![tv_point(6, 6)]),
        (
            "LB",
            vec![
                tv_compose(tv_point(3, 3), tv_text("A")),
                tv_compose(tv_point(4, 4), tv_text("B:C")),
            ],
        ),
        ("AR", vec![tv_compose(tv_point(0, 0), tv_point(1, 1))]),
        ("LN", vec![tv_compose(tv_point(2, 2), tv_point(3, 3))]),
        ("FG", vec![tv_compose(T::Number(257), tv_text("Figure 1"))]),
        ("VW", vec![tv_point(0, 0), tv_point(0, 1)]),
        ("DD", vec![tv_point(18, 0)]),
    ];
    let mut got = Vec::new();
    for n in doc.collection().nodes() {
        for prop in n.properties() {
            let typed = prop
                .typed_values()
                .unwrap_or_else(|e| panic!("{}: {e}", prop.ident()));
            match typed {
                Some(values) => got.push((prop.ident(), values)),
                None => {
                    assert_eq!(prop.ident(), "XX", "only XX is unknown");
                    assert!(prop.info().is_none());
                }
            }
        }
    }
    assert_eq!(got.len(), expected.len());
    for (g, e) in got.iter().zip(&expected) {
        assert_eq!(g, e);
    }
    // Borrowed where nothing had to change.
    let root = node(&doc, 0);
    let pb = root
        .property("PB")
        .unwrap()
        .typed_values()
        .unwrap()
        .unwrap();
    assert!(matches!(&pb[0], TypedValue::SimpleText("Lee Sedol")));
    // SZ's second form.
    let doc2 = self::doc(b"(;SZ[19:13]AP[a:b:c])");
    let sz = node(&doc2, 0)
        .property("SZ")
        .unwrap()
        .typed_values()
        .unwrap()
        .unwrap();
    assert_eq!(sz, [tv_compose(T::Number(19), T::Number(13))]);
    let ap = node(&doc2, 0)
        .property("AP")
        .unwrap()
        .typed_values()
        .unwrap()
        .unwrap();
    assert_eq!(ap, [tv_compose(tv_text("a"), tv_text("b:c"))]);
}

#[test]
fn typed_values_errors() {
    // (input, property, type named, offset of the bad value).
    let cases: &[(&[u8], &str, ValueType, usize)] = &[
        (b"(;KM[six])", "KM", ValueType::Real, 5),
        (b"(;SZ[x])", "SZ", ValueType::Number, 5),
        (b"(;SZ[19:x])", "SZ", ValueType::Number, 5),
        (b"(;PL[X])", "PL", ValueType::Color, 5),
        (b"(;B[zz])", "B", ValueType::Move, 4),
        (b"(;KO[x])", "KO", ValueType::None, 5),
        (b"(;GB[3])", "GB", ValueType::Double, 5),
        (b"(;AB[aa][tt])", "AB", ValueType::Point, 9),
        (b"(;DD[aa][zz])", "DD", ValueType::Point, 9),
        (b"(;VW[][zz])", "VW", ValueType::Point, 7),
        (
            b"(;LB[dd:x][d:y])",
            "LB",
            ValueType::Compose(&ValueType::Point, &ValueType::SimpleText),
            11,
        ),
        (
            b"(;AR[aa:bb][cc])",
            "AR",
            ValueType::Compose(&ValueType::Point, &ValueType::Point),
            12,
        ),
        (b"(;FG[x])", "FG", ValueType::None, 5),
        (b"(;FG[x:y])", "FG", ValueType::None, 5),
        (b"(;HA[two])", "HA", ValueType::Number, 5),
    ];
    for &(input, ident, ty, offset) in cases {
        let doc = doc(input);
        let root = node(&doc, 0);
        let err = root
            .property(ident)
            .unwrap()
            .typed_values()
            .expect_err(&show(input));
        assert_invalid(input, &err, ty, (offset, 1, offset as u32 + 1));
    }
    // An empty value in an elist is no error; in a list it adds no point.
    let doc = doc(b"(;DD[]VW[][]TB[][aa]AB[])");
    let root = node(&doc, 0);
    for ident in ["DD", "VW", "AB"] {
        let v = root.property(ident).unwrap().typed_values().unwrap();
        assert_eq!(v, Some(vec![]), "{ident}");
    }
    let tb = root.property("TB").unwrap().typed_values().unwrap();
    assert_eq!(tb, Some(vec![tv_point(0, 0)]));
}

/// The real-world variants `Property::typed` documents: an empty value of
/// a single-valued, non-text property is `None` (`KM[]`, `TM[]`, `HA[]`);
/// a compose of two texts without `:` is the text and an empty second part
/// (`AP[foxwq]`, as Fox writes it); a text property's empty value is empty
/// text.
#[test]
fn typed_values_lenient_variants() {
    let doc = doc(b"(;KM[]TM[ ]HA[]PB[]C[]AP[foxwq]AP[GNU Go:3.8]FG[]V[];B[]MN[])");
    let root = node(&doc, 0);
    for ident in ["KM", "TM", "HA", "FG", "V"] {
        assert_eq!(typed(root, ident), Some(vec![TypedValue::None]), "{ident}");
    }
    assert_eq!(typed(root, "PB"), Some(vec![tv_text("")]));
    assert_eq!(typed(root, "C"), Some(vec![TypedValue::Text("")]));
    // AP is repeated (as in Fox files): both values, merged.
    assert_eq!(
        typed(root, "AP"),
        Some(vec![
            tv_compose(tv_text("foxwq"), tv_text("")),
            tv_compose(tv_text("GNU Go"), tv_text("3.8")),
        ])
    );
    let b = node(&doc, 1);
    assert_eq!(typed(b, "MN"), Some(vec![TypedValue::None]));
    // The typed getters stay strict about the same values.
    assert!(root.get::<f64>("KM").is_err());
    assert_eq!(root.get::<Option<f64>>("KM").unwrap(), Some(None));
    assert!(root.get::<(SimpleText, SimpleText)>("AP").is_err());
}

/// FF\[4\]: `B[]` and `W[]` are passes, and the catalogue types `B`/`W`
/// as Move: `typed_values`' rule "an empty single value of a non-text type
/// is `None`" must not turn the pass into `TypedValue::None`.
#[test]
fn typed_values_empty_move_is_a_pass() {
    let doc = doc(b"(;SZ[19];B[];W[tt])");
    assert_eq!(
        typed(node(&doc, 1), "B"),
        Some(vec![TypedValue::Move(Move::Pass)])
    );
    assert_eq!(
        typed(node(&doc, 2), "W"),
        Some(vec![TypedValue::Move(Move::Pass)])
    );
}

/// In a game other than Go (`GM` not 1) points, moves and stones keep the
/// game's own notation, as text, unexpanded: Hex `B[f2]`, Amazons
/// `B[a1b2c3]`, a point list of a game without its own table.
#[test]
fn typed_values_in_other_games() {
    let gs = |s: &'static str| TypedValue::GameSpecific(s);
    let doc = doc(b"(;GM[11]SZ[11]AB[a1][k11];B[f2];W[swap-pieces])(;GM[18];B[a1b2c3])(;GM[2]AB[aa:cc]LB[aa:x]AR[c3:d4])");
    let coll = doc.collection();
    let hex = coll.game(0).unwrap().root();
    assert_eq!(typed(hex, "AB"), Some(vec![gs("a1"), gs("k11")]));
    assert_eq!(typed(hex, "SZ"), Some(vec![TypedValue::Number(11)]));
    let b = hex.first_child().unwrap();
    assert_eq!(typed(b, "B"), Some(vec![gs("f2")]));
    assert_eq!(
        typed(b.first_child().unwrap(), "W"),
        Some(vec![gs("swap-pieces")])
    );
    let amazons = coll.game(1).unwrap().root().first_child().unwrap();
    assert_eq!(typed(amazons, "B"), Some(vec![gs("a1b2c3")]));
    let other = coll.game(2).unwrap().root();
    assert_eq!(typed(other, "AB"), Some(vec![gs("aa:cc")]));
    assert_eq!(
        typed(other, "LB"),
        Some(vec![tv_compose(gs("aa"), tv_text("x"))])
    );
    assert_eq!(
        typed(other, "AR"),
        Some(vec![tv_compose(gs("c3"), gs("d4"))])
    );
    // Node::points reads Go's notation whatever the game.
    assert_eq!(other.points("AB").unwrap().count(), 9);
}

#[test]
fn decode_as_every_type() {
    let arena = sgf_grove::text::Arena::new();
    let ctx = ValueContext::new(BoardSize::square(19), encoding_rs::UTF_8, &arena);
    let cases: &[(&[u8], ValueType, Option<TypedValue<'static>>)] = &[
        (b"", ValueType::None, Some(TypedValue::None)),
        (b"x", ValueType::None, None),
        (b"-4", ValueType::Number, Some(TypedValue::Number(-4))),
        (b"6,5", ValueType::Real, Some(TypedValue::Real(6.5))),
        (
            b"2",
            ValueType::Double,
            Some(TypedValue::Double(Double::Emphasized)),
        ),
        (
            b"w",
            ValueType::Color,
            Some(TypedValue::Color(Color::White)),
        ),
        (b"a\nb", ValueType::SimpleText, Some(tv_text("a b"))),
        (b"a\nb", ValueType::Text, Some(TypedValue::Text("a\nb"))),
        (b"cd", ValueType::Point, Some(tv_point(2, 3))),
        (b"cd", ValueType::Stone, Some(tv_point(2, 3))),
        (b"tt", ValueType::Point, None),
        (b"tt", ValueType::Move, Some(TypedValue::Move(Move::Pass))),
        (
            b"aa:bb",
            ValueType::Compose(&ValueType::Point, &ValueType::Point),
            Some(tv_compose(tv_point(0, 0), tv_point(1, 1))),
        ),
        (
            b"aabb",
            ValueType::Compose(&ValueType::Point, &ValueType::Point),
            None,
        ),
    ];
    for (raw, ty, want) in cases {
        assert_eq!(&decode_as(raw, *ty, &ctx), want, "{} as {ty}", show(raw));
    }
    assert_eq!(ctx.encoding(), encoding_rs::UTF_8);
}

#[test]
fn property_info_follows_the_game() {
    let doc = doc(b"(;GM[1]KM[6.5]TB[aa])(;GM[11]KM[6.5]IS[tried:on])");
    let go = doc.collection().game(0).unwrap().root();
    assert_eq!(
        go.property("KM").unwrap().info().unwrap().ty,
        ValueType::Real
    );
    assert!(go.property("TB").unwrap().info().is_some());
    let hex = doc.collection().game(1).unwrap().root();
    // KM is a Go property: unknown in Hex.
    assert!(hex.property("KM").unwrap().info().is_none());
    assert_eq!(hex.property("KM").unwrap().typed_values().unwrap(), None);
    assert_eq!(
        hex.property("IS").unwrap().typed_values().unwrap(),
        Some(vec![tv_compose(tv_text("tried"), tv_text("on"))])
    );
}

/// In an input of many KiB (where positions come from a line index built on
/// the first error), every value error of every game carries the position
/// a fresh count from the start gives, whatever the line breaks.
#[test]
fn value_errors_in_a_large_input_are_positioned_exactly() {
    let breaks = ["\n", "\r\n", "\r", "\n\r", "\n\n", "\r\r\n"];
    let mut input = Vec::new();
    for i in 0..600 {
        let br = breaks[i % breaks.len()];
        input.extend_from_slice(format!("(;GM[1]{br}KM[x{i}]{br};B[zz]{br}C[c{br}]W[]").as_bytes());
        input.extend_from_slice(format!("{br})").as_bytes());
    }
    assert!(input.len() > 16 * 1024);
    let doc = parse(&input).unwrap();
    let coll = doc.collection();
    let mut errors = 0;
    for game in coll.games() {
        let root = game.root();
        let err = root.get::<f64>("KM").unwrap_err();
        assert_eq!(
            err.position(),
            sgf_grove::Position::locate(&input, err.offset())
        );
        let b = root.first_child().unwrap();
        let err = b.get::<Point>("B").unwrap_err();
        assert_eq!(
            err.position(),
            sgf_grove::Position::locate(&input, err.offset())
        );
        errors += 2;
    }
    assert_eq!(errors, 1200);
    // Every offset, backwards (no help from a cursor moving forwards).
    for offset in (0..=input.len() + 1).rev().step_by(13) {
        assert_eq!(
            coll.position(offset),
            sgf_grove::Position::locate(&input, offset)
        );
    }
}

/// The line index a value error builds is counted in the arena's bytes; the
/// next parse starts it afresh for its own input and reuses its room.
#[test]
fn the_line_index_is_counted_and_reused() {
    let input = b"(;GM[1]\n;B[aa]\n;W[bb]\n)".repeat(200);
    let mut parser = sgf_grove::Parser::new();
    parser.parse(&input).unwrap();
    let plain = parser.arena_bytes();
    {
        let coll = parser.parse(&input).unwrap();
        let root = coll.game(199).unwrap().root();
        let err = root.get::<Point>("GM").unwrap_err();
        assert_eq!((err.position().line, err.position().column), (598, 7));
    }
    let indexed = parser.arena_bytes();
    assert!(indexed > plain, "the index is not counted");
    // Another input, its lines shifted by one: positions are its own.
    let mut shifted = b"\n".to_vec();
    shifted.extend_from_slice(&input);
    let coll = parser.parse(&shifted).unwrap();
    let err = coll
        .game(199)
        .unwrap()
        .root()
        .get::<Point>("GM")
        .unwrap_err();
    assert_eq!((err.position().line, err.position().column), (599, 7));
    assert_eq!(
        parser.arena_bytes(),
        indexed,
        "the index did not reuse its room"
    );
}

// ---------------------------------------------------------------------------
// `Node::played`.
// ---------------------------------------------------------------------------

#[test]
fn played_reads_b_or_w() {
    let input = b"(;SZ[19];B[pd];W[];B[tt];W[dd]C[x];C[none];AB[aa])";
    let d = doc(input);
    let played: Vec<_> = d
        .collection()
        .nodes()
        .map(|n| n.played().unwrap())
        .collect();
    assert_eq!(
        played,
        [
            None,
            Some((Color::Black, Move::Play(p(15, 3)))),
            Some((Color::White, Move::Pass)),
            Some((Color::Black, Move::Pass)),
            Some((Color::White, Move::Play(p(3, 3)))),
            None,
            None,
        ]
    );
    // `tt` is a point on a larger board.
    let d = doc(b"(;SZ[25];W[tt])");
    assert_eq!(
        node(&d, 1).played().unwrap(),
        Some((Color::White, Move::Play(p(19, 19))))
    );
}

#[test]
fn played_with_both_colours_gives_black() {
    // FF[4] forbids B and W in one node; B wins, whatever the order.
    for input in [&b"(;W[dd]B[pp])"[..], b"(;B[pp]W[dd])"] {
        let d = doc(input);
        assert_eq!(
            node(&d, 0).played().unwrap(),
            Some((Color::Black, Move::Play(p(15, 15)))),
            "{}",
            show(input)
        );
    }
    // Even when B is a pass.
    let d = doc(b"(;B[]W[dd])");
    assert_eq!(
        node(&d, 0).played().unwrap(),
        Some((Color::Black, Move::Pass))
    );
}

#[test]
fn played_reports_a_malformed_move_at_its_value() {
    let input = b"(;B[zz])";
    let d = doc(input);
    let err = node(&d, 0).played().unwrap_err();
    assert_invalid(input, &err, ValueType::Move, (4, 1, 5));
    let input = b"(;W[a1])";
    let d = doc(input);
    let err = node(&d, 0).played().unwrap_err();
    assert_invalid(input, &err, ValueType::Move, (4, 1, 5));
    // A bad B is reported even when W is fine.
    let input = b"(;W[dd]B[9])";
    let d = doc(input);
    let err = node(&d, 0).played().unwrap_err();
    assert_invalid(input, &err, ValueType::Move, (9, 1, 10));
}

#[test]
fn moves_are_the_main_line_played() {
    // Variations, a node without a move, a bad move in the line, a pass,
    // both colours in one node, a rich node (repeated property), `tt`.
    let input = b"(;SZ[19]AB[aa];B[pd](;W[zz];C[x];B[]W[dd];W[tt]AB[bb]AB[cc])(;W[qq]))\
                  (;SZ[25];W[tt];B[aa]C[a]C[b])(;GM[1])";
    let d = doc(input);
    for game in d.games() {
        let by_nodes: Vec<_> = game
            .root()
            .main_line()
            .filter_map(|n| n.played().transpose())
            .map(|r| r.map_err(|e| e.offset()))
            .collect();
        let moves: Vec<_> = game.moves().map(|r| r.map_err(|e| e.offset())).collect();
        assert_eq!(moves, by_nodes, "game {}", game.index());
    }
    let first: Vec<_> = d.games().next().unwrap().moves().collect();
    assert_eq!(first.len(), 4);
    assert_eq!(
        first[0].as_ref().ok(),
        Some(&(Color::Black, Move::Play(p(15, 3))))
    );
    assert!(first[1].is_err(), "W[zz] is reported, not skipped");
    assert_eq!(first[2].as_ref().ok(), Some(&(Color::Black, Move::Pass)));
    assert_eq!(first[3].as_ref().ok(), Some(&(Color::White, Move::Pass)));
    let second: Vec<_> = d
        .collection()
        .game(1)
        .unwrap()
        .moves()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        second,
        [
            (Color::White, Move::Play(p(19, 19))),
            (Color::Black, Move::Play(p(0, 0)))
        ]
    );
    assert_eq!(d.collection().game(2).unwrap().moves().count(), 0);
}
