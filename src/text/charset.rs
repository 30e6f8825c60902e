//! Which charset a game's text is in.
//!
//! In order: an override in the parse options
//! ([`ParseOptions::charset`](crate::ParseOptions::charset)); the root's `CA`
//! property, when it names a label `encoding_rs` knows (`UTF-8`, `GB2312`,
//! `Shift_JIS`, `ISO-8859-1`, `ISO8859_1`, `Windows-1252`, `KOI8-R`, …);
//! else detection over the bytes of the game:
//!
//! 1. valid UTF-8 (checked with `simdutf8`) wins, with full confidence;
//! 2. text that is mostly valid UTF-8 — at least four in five of its
//!    non-ASCII bytes in well-formed sequences — is damaged UTF-8 (as the
//!    Fox server writes it) and is decoded lossily, with that ratio as the
//!    confidence; so is text whose share of well-formed UTF-8 is higher than
//!    the best legacy candidate's share of plausible characters (step 3);
//! 3. otherwise each legacy candidate (GB18030, Big5, Shift_JIS, EUC-JP,
//!    EUC-KR, Windows-1252, Windows-1251, KOI8-R) decodes the bytes and is
//!    scored: malformed sequences count heavily against it, common
//!    characters of the script it stands for for it. The common characters
//!    come from character frequencies (`common.rs`, made by
//!    `tools/charset_tables.py`): the most frequent few thousand
//!    ideographs of simplified Chinese for GB18030 and of traditional
//!    Chinese for Big5, kana and the most frequent kanji for the Japanese
//!    charsets, the most frequent thousand hangul syllables for EUC-KR
//!    (Chinese text read as EUC-KR gives valid syllables, but rare ones),
//!    each in three tiers that count more the more frequent they are;
//!    accented letters inside Latin words, lower-case Cyrillic words. The
//!    best score wins; its confidence is its lead over the runner-up,
//!    scaled by the amount of text (see [`Charset::confidence`]), and one
//!    below [`UNCERTAIN_BELOW`] is [uncertain](Charset::is_uncertain): the
//!    parser warns about it
//!    ([`WarningKind::UncertainCharset`](crate::WarningKind::UncertainCharset)).
//!
//! A game with no `CA` and nothing but ASCII is UTF-8 with full confidence.
//!
//! Steps 2 and 3 read a bounded sample of the game ([`SAMPLE_MAX`] bytes at
//! most): the regions that hold bytes outside ASCII, with some ASCII around
//! them, which for any game of a normal size is all of its text.
//!
//! A game without `CA` detected as Shift_JIS, Big5 or GB18030 is read a
//! character at a time while it is parsed, as if its root named the
//! charset, and that charset is the game's (see
//! [`WarningKind::DetectedCharset`](crate::WarningKind::DetectedCharset)).
//!
//! Encodings are `encoding_rs`'s, which the crate re-exports as
//! [`sgf_grove::encoding_rs`](crate::encoding_rs) for the override.
//!
//! The files of this module: `labels.rs` (what a `CA` label names),
//! `detect.rs` (the steps above), `sample.rs` (the bytes detection reads),
//! `utf8.rs` (well-formed and damaged UTF-8), `score.rs` (the legacy
//! candidates' scores) and `common.rs` (the common characters it counts).

mod common;
mod detect;
mod labels;
mod sample;
mod score;
mod utf8;

pub use detect::detect;
pub(crate) use detect::{detect_on_trial, TrialCharset};
pub(crate) use labels::any_label;
pub use labels::{for_label, is_ascii_unsafe, is_usable};
pub use sample::SAMPLE_MAX;

use encoding_rs::Encoding;

/// Where a [`Charset`] came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CharsetSource {
    /// The parse options named it.
    Override,
    /// The root's `CA` property named it.
    Declared,
    /// Guessed from the bytes of the game (see the module docs).
    Detected,
}

impl CharsetSource {
    /// A stable `snake_case` code for where a charset came from: `override`,
    /// `declared`, `detected`.
    pub fn code(self) -> &'static str {
        match self {
            CharsetSource::Override => "override",
            CharsetSource::Declared => "declared",
            CharsetSource::Detected => "detected",
        }
    }
}

/// The charset of a game's text, where it came from, and how sure that is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Charset {
    encoding: &'static Encoding,
    source: CharsetSource,
    confidence: f32,
    /// The detected charset's score, and the runner-up with its score.
    weighed: Option<Weighed>,
}

/// What a detection weighed: the winner's score and the runner-up's, in
/// points per character (see [`Charset::weighed`]).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Weighed {
    score: f32,
    runner_up: &'static Encoding,
    runner_up_score: f32,
}

impl Charset {
    /// A charset with full confidence.
    pub fn new(encoding: &'static Encoding, source: CharsetSource) -> Charset {
        Charset {
            encoding,
            source,
            confidence: 1.0,
            weighed: None,
        }
    }

    /// The encoding to decode with.
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// Its name, as `encoding_rs` spells it (`"UTF-8"`, `"GBK"`, …).
    pub fn name(&self) -> &'static str {
        self.encoding.name()
    }

    /// Where it came from.
    pub fn source(&self) -> CharsetSource {
        self.source
    }

    /// From 0 to 1: 1 for a declared charset, an override, or valid UTF-8;
    /// less for a guess. For mostly valid UTF-8, the share of its non-ASCII
    /// bytes in well-formed (or Fox-damaged) sequences; for a legacy
    /// charset, how far its score is ahead of the runner-up's (per
    /// character, against the most a character can score), times a factor
    /// that grows with the amount of text (a few characters prove little),
    /// and no more than how much more of the text it reads plausibly than
    /// UTF-8 does; so that a text two charsets read about equally well, or
    /// too short to tell, gets a low confidence.
    pub fn confidence(&self) -> f32 {
        self.confidence
    }

    /// Whether this is a guess too weak to trust: detected with a
    /// confidence below [`UNCERTAIN_BELOW`]. A game read in such a charset
    /// gets a [`WarningKind::UncertainCharset`](crate::WarningKind::UncertainCharset)
    /// warning, and naming its charset (`CA`, or the parse options'
    /// override) is the way to be sure.
    ///
    /// ```
    /// use sgf_grove::text::charset::detect;
    /// // Two hanzi of GB2312: too little text to be sure of.
    /// assert!(detect(b"PB[\xb0\xa1]").is_uncertain());
    /// // A long comment in GB2312.
    /// let text = "黑棋中盘胜。白棋的第一手不好，这是第二届大赛的决赛。";
    /// let (bytes, _, _) = sgf_grove::encoding_rs::GBK.encode(text);
    /// assert!(!detect(&bytes).is_uncertain());
    /// ```
    pub fn is_uncertain(&self) -> bool {
        self.source == CharsetSource::Detected && self.confidence < UNCERTAIN_BELOW
    }

    /// For a charset detected among legacy candidates: the runner-up and
    /// the scores both read the text with, as `(runner-up, this one's
    /// score, the runner-up's score)`. A score is points per character
    /// of two bytes: at most 8 (every character among the most frequent
    /// of its script), negative for text that reads as rare characters or
    /// does not decode (see the module docs). For damaged UTF-8 chosen
    /// over the best legacy candidate, its score is its share of
    /// well-formed bytes times 8. `None` for a declared charset, an
    /// override, or UTF-8 found valid or mostly valid before any candidate
    /// was weighed.
    pub fn weighed(&self) -> Option<(&'static Encoding, f32, f32)> {
        self.weighed
            .map(|w| (w.runner_up, w.score, w.runner_up_score))
    }
}

/// A detection with a [`confidence`](Charset::confidence) below this is
/// [uncertain](Charset::is_uncertain).
pub const UNCERTAIN_BELOW: f32 = 0.25;

/// What finds a game's charset on first use and remembers it: the parse
/// options' override, else the root's `CA` when `encoding_rs` knows its
/// label, else detected from the game's bytes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CharsetOf<'a> {
    /// Where the charset is remembered.
    pub(crate) cell: &'a std::sync::OnceLock<Charset>,
    pub(crate) forced: Option<&'static Encoding>,
    /// The root's `CA` value as written, if any.
    pub(crate) declared: Option<&'a [u8]>,
    /// The bytes of the game.
    pub(crate) bytes: &'a [u8],
}

impl CharsetOf<'_> {
    /// The charset, found now when it has not been yet.
    #[inline]
    pub(crate) fn get(&self) -> Charset {
        *self.cell.get_or_init(|| {
            if let Some(encoding) = self.forced {
                return Charset::new(encoding, CharsetSource::Override);
            }
            if let Some(encoding) = self.declared.and_then(for_label) {
                return Charset::new(encoding, CharsetSource::Declared);
            }
            detect(self.bytes)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::detect::*;
    use super::sample::*;
    use super::score::*;
    use super::utf8::*;
    use super::*;
    use encoding_rs::{
        Encoding, BIG5, EUC_JP, EUC_KR, GB18030, GBK, KOI8_R, SHIFT_JIS, UTF_8, WINDOWS_1252,
    };

    /// A small deterministic generator for test inputs (xorshift).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// Bytes like a game record's: ASCII runs (moves, identifiers) with
    /// pieces of text in one charset or another, damaged UTF-8, stray high
    /// bytes, GB18030 four-byte characters and lone lead bytes.
    fn mixed(rng: &mut Rng, len: usize) -> Vec<u8> {
        const TEXTS: &[&str] = &[
            "黑棋中盘胜。这是第二届大赛的决赛",
            "黒の中押し勝ち。能力の表ソ",
            "黑棋中盤勝，因為白棋也無功許",
            "흑 불계승. 이것은 좋은 수입니다",
            "Très bonne partie, à éviter",
            "Чёрные выиграли",
            "第二届应氏杯决赛常昊李昌镐",
        ];
        const ENCODINGS: &[&Encoding] = &[
            UTF_8,
            GBK,
            GB18030,
            BIG5,
            SHIFT_JIS,
            EUC_JP,
            EUC_KR,
            WINDOWS_1252,
            KOI8_R,
        ];
        let mut out = Vec::with_capacity(len + 64);
        while out.len() < len {
            match rng.below(8) {
                0..=2 => {
                    for _ in 0..rng.below(60) {
                        out.extend_from_slice(b";B[pd]");
                    }
                }
                3 | 4 => {
                    let text = TEXTS[rng.below(TEXTS.len())];
                    let encoding = ENCODINGS[rng.below(ENCODINGS.len())];
                    out.extend_from_slice(b"C[");
                    out.extend_from_slice(&encoding.encode(text).0);
                    out.push(b']');
                }
                5 => {
                    // Damaged UTF-8: a `?` for a byte, or a cut character.
                    let mut bytes = TEXTS[rng.below(TEXTS.len())].as_bytes().to_vec();
                    let at = rng.below(bytes.len());
                    if rng.below(2) == 0 {
                        bytes[at] = b'?';
                    } else {
                        bytes.truncate(at);
                    }
                    out.extend_from_slice(&bytes);
                    out.push(b']');
                }
                6 => out.extend_from_slice(&[0x81, b'1', 0x82, b'2', 0x95, 0x5c, 0xe5]),
                _ => {
                    for _ in 0..rng.below(12) {
                        out.push(rng.next() as u8);
                    }
                }
            }
        }
        out
    }

    /// The scores of the old detection, which decoded the whole input: the
    /// sampled tallies must give exactly these.
    fn whole_tally(bytes: &[u8], encoding: &'static Encoding, script: Script) -> Tally {
        let (text, _) = encoding.decode_without_bom_handling(bytes);
        let mut tally = Tally::default();
        let chars: Vec<char> = text.chars().collect();
        for (i, &c) in chars.iter().enumerate() {
            if c.is_ascii() {
                continue;
            }
            let prev = if i == 0 { ' ' } else { chars[i - 1] };
            let next = chars.get(i + 1).copied().unwrap_or(' ');
            tally.count(c, script, prev, next);
        }
        tally
    }

    /// The UTF-8 share as the old detection counted it, with the standard
    /// library's validator.
    fn whole_utf8_share(mut bytes: &[u8]) -> (usize, usize) {
        let high = |b: &[u8]| b.iter().filter(|b| !b.is_ascii()).count();
        let (mut valid, mut total) = (0, 0);
        loop {
            match std::str::from_utf8(bytes) {
                Ok(_) => return (valid + high(bytes), total + high(bytes)),
                Err(e) => {
                    let (good, rest) = bytes.split_at(e.valid_up_to());
                    valid += high(good);
                    total += high(good);
                    let (bad, rest) = rest.split_at(e.error_len().unwrap_or(rest.len()));
                    total += high(bad);
                    bytes = rest;
                }
            }
        }
    }

    #[test]
    fn sampled_scores_are_the_whole_scores() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for round in 0..300 {
            let len = 1 + rng.below(if round % 10 == 0 { 20_000 } else { 600 });
            let bytes = mixed(&mut rng, len);
            let (valid, _, total) = utf8_share(&bytes);
            assert_eq!((valid, total), whole_utf8_share(&bytes), "{bytes:x?}");
            let mut tallies = [Tally::default(); CANDIDATES.len()];
            tally(&bytes, &mut tallies);
            for (got, &(encoding, script)) in tallies.iter().zip(&CANDIDATES) {
                let want = whole_tally(&bytes, encoding, script);
                assert_eq!(
                    (got.errors, got.plausible, got.other),
                    (want.errors, want.plausible, want.other),
                    "{}: {bytes:x?}",
                    encoding.name()
                );
            }
            // The quick question gets the answer of the full detection.
            let full = detect(&bytes);
            let want = Some(full).filter(|c| is_ascii_unsafe(c.encoding()));
            assert_eq!(detect_ascii_unsafe(&bytes), want, "{bytes:x?}");
        }
    }

    /// Sums the bytes [`sample`] hands out.
    fn sampled_len(bytes: &[u8]) -> usize {
        let mut n = 0;
        sample(bytes, |region| n += region.len());
        n
    }

    #[test]
    fn the_sample_holds_at_most_the_bound() {
        let mut rng = Rng(7);
        // Random bytes: non-ASCII everywhere, regions everywhere.
        let junk: Vec<u8> = (0..3 << 20).map(|_| rng.next() as u8).collect();
        // One region of 3 MB.
        let high: Vec<u8> = (0..3 << 20).map(|i| 0x80 | i as u8).collect();
        // Many regions in ASCII.
        let spread = mixed(&mut rng, 3 << 20);
        for bytes in [&junk, &high, &spread] {
            let n = sampled_len(bytes);
            assert!(n <= SAMPLE_MAX, "{n}");
            assert!(n > SAMPLE_MAX / 2, "{n}: the bound is used");
        }
        // Text after a long ASCII prefix is still seen, all of it.
        let mut late = vec![b'a'; 3 << 20];
        let text = GBK
            .encode("黑棋中盘胜。这是第二届大赛的决赛")
            .0
            .repeat(1000);
        late.extend_from_slice(&text);
        assert_eq!(sampled_len(&late), text.len() + CONTEXT);
        assert_eq!(detect(&late).encoding(), GB18030);
        // Under the bound, the sample is every region: every byte outside
        // ASCII, with its context.
        let small = mixed(&mut rng, SAMPLE_MAX / 2);
        let mut covered = vec![false; small.len()];
        let mut regions = Vec::new();
        sample(&small, |r| {
            regions.push(
                r.as_ptr() as usize - small.as_ptr() as usize
                    ..r.as_ptr() as usize - small.as_ptr() as usize + r.len(),
            )
        });
        for r in regions {
            covered[r].iter_mut().for_each(|c| *c = true);
        }
        assert!(small.iter().zip(&covered).all(|(b, &c)| b.is_ascii() || c));
        assert!(sampled_len(&small) < small.len());
    }

    #[test]
    fn first_non_ascii_in_every_position() {
        for len in 0..20 {
            for at in 0..=len {
                let mut bytes = vec![b'a'; len];
                if at < len {
                    bytes[at] = 0xe4;
                }
                let want = (at < len).then_some(at);
                assert_eq!(first_non_ascii(&bytes), want, "{len} {at}");
            }
        }
    }

    fn enc(encoding: &'static Encoding, text: &str) -> Vec<u8> {
        let (bytes, _, bad) = encoding.encode(text);
        assert!(!bad, "{text} is not encodable in {}", encoding.name());
        bytes.into_owned()
    }

    #[test]
    fn detects_each_legacy_charset_on_go_text() {
        let cases: &[(&'static Encoding, &str, &str)] = &[
            (
                GB18030,
                "gb18030",
                "黑棋中盘胜。白棋的第一手不好，这是第二届大赛。",
            ),
            (
                BIG5,
                "Big5",
                "黑棋中盤勝。白棋的第一手不好，這是第二屆大賽。",
            ),
            (
                SHIFT_JIS,
                "Shift_JIS",
                "黒の中押し勝ち。これはとても良い手です。",
            ),
            (EUC_JP, "EUC-JP", "黒の中押し勝ち。これはとても良い手です。"),
            (
                EUC_KR,
                "EUC-KR",
                "흑 불계승. 이것은 좋은 수입니다. 백의 실수.",
            ),
            (
                WINDOWS_1252,
                "windows-1252",
                "Partie commentée: très bonne idée, à éviter.",
            ),
        ];
        for &(encoding, name, text) in cases {
            let mut sgf = b"(;GM[1]C[".to_vec();
            sgf.extend(enc(encoding, text));
            sgf.extend_from_slice(b"])");
            let found = detect(&sgf);
            assert_eq!(found.name(), name, "{text}");
            assert_eq!(found.source(), CharsetSource::Detected);
        }
    }

    #[test]
    fn damaged_utf8_is_still_utf8() {
        // Fox-style damage: a `?` in place of a continuation byte, and a
        // name cut after a lead byte.
        let mut sgf = "(;GN[第二届应氏杯决赛]PB[常昊]PW[李昌镐]"
            .as_bytes()
            .to_vec();
        sgf.extend_from_slice(b"C[\xe6\xb0?\xe6?\xaf]PB[\xe5\xb8\xb8\xe5])");
        let found = detect(&sgf);
        assert_eq!(found.name(), "UTF-8");
        assert!(found.confidence() < 1.0 && found.confidence() >= 0.8);
    }

    #[test]
    fn short_chinese_names_are_not_korean() {
        // GB2312 bytes are valid EUC-KR too (hangul syllables, mostly rare
        // ones) and valid Big5: the common characters tell them apart.
        for names in ["PB[时越]PW[周睿羊]BR[P9段]", "GN[第二届应氏杯决赛]"] {
            let found = detect(&enc(GBK, names));
            assert_eq!(found.encoding(), GB18030, "{names}: {found:?}");
            let (runner_up, score, runner_score) = found.weighed().unwrap();
            assert_ne!(runner_up, GB18030);
            assert!(score > runner_score, "{names}: {found:?}");
        }
        // Five uncommon characters: GB18030, or a guess said to be weak.
        let found = detect(&enc(GBK, "PB[柯洁]PW[朴廷桓]"));
        assert!(
            found.encoding() == GB18030 || found.is_uncertain(),
            "{found:?}"
        );
        for names in ["PB[이세돌]PW[박정환]BR[9단]", "PB[우리미소]PW[위버멘쉬]"] {
            let found = detect(&enc(EUC_KR, names));
            assert_eq!(found.encoding(), EUC_KR, "{names}: {found:?}");
        }
        for names in ["PB[陳許]PW[蕭功]C[許]", "PB[林海峰]PW[王立誠]"] {
            let found = detect(&enc(BIG5, names));
            assert_eq!(found.encoding(), BIG5, "{names}: {found:?}");
        }
        for names in [
            "PB[井山裕太]PW[張栩]C[黒の中押し勝ち]",
            "PB[趙治勲]PW[小林光一]C[白の中押し勝ちです]",
        ] {
            assert_eq!(detect(&enc(SHIFT_JIS, names)).encoding(), SHIFT_JIS);
            assert_eq!(detect(&enc(EUC_JP, names)).encoding(), EUC_JP);
        }
    }

    #[test]
    fn little_text_is_uncertain() {
        // One character that is common in GBK and in EUC-KR.
        let found = detect(b"PB[\xb0\xa1]");
        assert!(found.is_uncertain(), "{found:?}");
        assert!(found.weighed().is_some());
        // Declared and valid UTF-8 are certain.
        assert!(!Charset::new(GBK, CharsetSource::Declared).is_uncertain());
        assert!(!detect("PB[가]".as_bytes()).is_uncertain());
    }

    #[test]
    fn fox_damage_counts_as_utf8() {
        // `?` for continuation bytes, a name cut after a lead byte.
        assert_eq!(damaged_sequence(b"\xe3?\xbd", 0), Some((3, 2)));
        assert_eq!(damaged_sequence(b"\xe3??", 0), Some((3, 1)));
        assert_eq!(damaged_sequence(b"\xe5]", 0), Some((1, 1)));
        assert_eq!(damaged_sequence(b"\xe5\xb8]", 0), Some((2, 2)));
        // Not damaged that way: a GBK pair, a lone continuation byte.
        assert_eq!(damaged_sequence(b"\xd6\xd0", 0), None);
        assert_eq!(damaged_sequence(b"\xbd?", 0), None);
        assert_eq!(damaged_sequence(b"\xe3?a", 0), None);
        // A name destroyed by damage, beside intact text: UTF-8.
        let found = detect(b"PW[\xe3?\xbd\xe3?\x93\xe3?\xbd\xe3?\x93]BR[9\xe6\xae\xb5]");
        assert_eq!(found.encoding(), UTF_8, "{found:?}");
        assert!(!found.is_uncertain());
    }

    #[test]
    fn labels() {
        assert_eq!(for_label(b"UTF-8"), Some(UTF_8));
        assert_eq!(for_label(b"utf8"), Some(UTF_8));
        assert_eq!(for_label(b"Shift_JIS"), Some(SHIFT_JIS));
        assert_eq!(for_label(b"SJIS"), Some(SHIFT_JIS));
        assert_eq!(for_label(b"Big5"), Some(BIG5));
        assert_eq!(for_label(b"EUC-KR"), Some(EUC_KR));
        assert_eq!(for_label(b"GB18030"), Some(GB18030));
        assert_eq!(for_label(b"ASCII"), Some(WINDOWS_1252));
        assert_eq!(for_label(b"KOI8-R").unwrap().name(), "KOI8-R");
        assert_eq!(for_label(b"iso-8859-2").unwrap().name(), "ISO-8859-2");
        assert_eq!(for_label(b""), None);
    }

    #[test]
    fn ascii_unsafe_encodings() {
        assert!(is_ascii_unsafe(SHIFT_JIS) && is_ascii_unsafe(BIG5) && is_ascii_unsafe(GBK));
        assert!(!is_ascii_unsafe(UTF_8) && !is_ascii_unsafe(EUC_KR));
    }
}
