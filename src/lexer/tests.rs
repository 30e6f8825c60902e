use super::reference::{structural_offsets, structural_offsets_fast};
use super::*;

/// A small deterministic generator, so the tests need no dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

const SEEDS: &[&[u8]] = &[
    b"(;GM[1]FF[4]SZ[19];B[pd];W[dd](;B[pp])(;B[dp]))",
    br"(;C[a \] b \\ c [d] e]B[aa])",
    b"junk ( ;B[aa] ; W[bb] )",
    b"",
    b"[[[]]]\\",
];

#[test]
fn scanner_matches_reference_with_padding() {
    for seed in SEEDS {
        for pad in 0..130 {
            let mut input = vec![b'x'; pad];
            input.extend_from_slice(seed);
            input.extend(std::iter::repeat_n(b' ', pad % 67));
            assert_eq!(
                structural_offsets_fast(&input),
                structural_offsets(&input),
                "seed {seed:?} pad {pad}"
            );
        }
    }
}

#[test]
fn scanner_matches_reference_on_random_bytes() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let alphabet = b"()[];\\ aAB\n\x00";
    for len in 0..400 {
        let input: Vec<u8> = (0..len)
            .map(|_| alphabet[(rng.next() % alphabet.len() as u64) as usize])
            .collect();
        assert_eq!(structural_offsets_fast(&input), structural_offsets(&input));
    }
}

#[test]
fn scanner_seek_and_rewind() {
    let input: Vec<u8> = (0..300)
        .map(|i| if i % 7 == 0 { b';' } else { b'a' })
        .collect();
    let mut s = Scanner::new(&input, 0);
    s.seek(100);
    assert_eq!(s.next_structural(), Some(105));
    s.seek(200);
    assert_eq!(s.next_structural(), Some(203));
    s.rewind(3);
    assert_eq!(s.next_structural(), Some(7));
    s.seek(299);
    assert_eq!(s.next_structural(), None);
}

#[test]
fn classify_sets_one_bit_per_structural_byte() {
    let mut block = [b'a'; 64];
    for (i, &b) in b"()[];\\".iter().enumerate() {
        block[i * 10] = b;
    }
    let mask = classify(&block);
    assert_eq!(mask, (0..6).fold(0u64, |m, i| m | 1 << (i * 10)));
}

fn value_of(input: &[u8]) -> (&[u8], Vec<WarningKind>) {
    struct Collect(Vec<WarningKind>);
    impl Sink for Collect {
        fn warn(&mut self, kind: WarningKind, _: usize) {
            self.0.push(kind);
        }
    }
    let open = input.iter().position(|&b| b == b'[').unwrap();
    let mut scanner = Scanner::new(input, open + 1);
    let mut sink = Collect(Vec::new());
    let end = scan_value(&mut scanner, open, &mut sink);
    (&input[open + 1..end.content_end], sink.0)
}

#[test]
fn value_ends_at_first_unescaped_bracket() {
    assert_eq!(value_of(b"B[aa]W[bb]"), (&b"aa"[..], vec![]));
    assert_eq!(value_of(br"C[a\]b]"), (&br"a\]b"[..], vec![]));
    assert_eq!(value_of(br"C[a\\]B[aa]"), (&br"a\\"[..], vec![]));
}

#[test]
fn value_keeps_bracket_not_followed_by_sgf() {
    assert_eq!(
        value_of(b"US[Matsuyama[3d]]"),
        (&b"Matsuyama[3d]"[..], vec![WarningKind::UnescapedBracket])
    );
    assert_eq!(
        value_of(b"C[see [this] and that]B[aa]"),
        (
            &b"see [this] and that"[..],
            vec![WarningKind::UnescapedBracket]
        )
    );
    // Followed by a property: a real close.
    assert_eq!(value_of(b"C[x] \n PB[y]"), (&b"x"[..], vec![]));
    assert_eq!(value_of(b"C[x]CoPyright[y]"), (&b"x"[..], vec![]));
}

#[test]
fn value_cut_off() {
    assert_eq!(
        value_of(b"C[abc"),
        (&b"abc"[..], vec![WarningKind::UnclosedValue])
    );
    assert_eq!(
        value_of(b"C[abc\\"),
        (&b"abc"[..], vec![WarningKind::UnclosedValue])
    );
    assert_eq!(
        value_of(b"W[dd(;GM[1]FF[4])"),
        (&b"dd"[..], vec![WarningKind::UnclosedValue])
    );
    // A parenthesis that does not start a game stays text.
    assert_eq!(value_of(b"C[a (;b) c]"), (&b"a (;b) c"[..], vec![]));
}

#[test]
fn tokens_of_a_small_game() {
    use TokenKind::*;
    let input = b"(;FF[4]AB[aa][bb] C[x\\]y];W[cc])]";
    let tokens: Vec<(TokenKind, &[u8])> = Tokens::new(input)
        .map(|t| (t.kind, &input[t.span.start..t.span.end]))
        .collect();
    let expected: Vec<(TokenKind, &[u8])> = vec![
        (Open, b"("),
        (Semicolon, b";"),
        (Ident, b"FF"),
        (Value, b"4"),
        (Ident, b"AB"),
        (Value, b"aa"),
        (Value, b"bb"),
        (Ident, b"C"),
        (Value, b"x\\]y"),
        (Semicolon, b";"),
        (Ident, b"W"),
        (Value, b"cc"),
        (Close, b")"),
        (Stray, b"]"),
    ];
    assert_eq!(tokens, expected);
}
