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
//!    scored: malformed
//!    sequences count heavily against it, characters of the script it stands
//!    for (common hanzi, kana, hangul, Latin letters) for it. The best
//!    scores; its share of plausible characters is the confidence.
//!
//! A game with no `CA` and nothing but ASCII is UTF-8 with full confidence.
//!
//! Encodings are `encoding_rs`'s, which the crate re-exports as
//! [`sgf_grove::encoding_rs`](crate::encoding_rs) for the override.

use encoding_rs::{
    Encoding, BIG5, EUC_JP, EUC_KR, GB18030, GBK, KOI8_R, SHIFT_JIS, UTF_8, WINDOWS_1251,
    WINDOWS_1252,
};

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

/// The charset of a game's text, where it came from, and how sure that is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Charset {
    encoding: &'static Encoding,
    source: CharsetSource,
    confidence: f32,
}

impl Charset {
    /// A charset with full confidence.
    pub fn new(encoding: &'static Encoding, source: CharsetSource) -> Charset {
        Charset {
            encoding,
            source,
            confidence: 1.0,
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
    /// less for a guess.
    pub fn confidence(&self) -> f32 {
        self.confidence
    }
}

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

/// The encoding a `CA` label names, if `encoding_rs` knows it. Accepts the
/// WHATWG labels and the spellings old files use (`ISO8859_1`, `UTF8`,
/// `ASCII`), case-insensitively.
///
/// ```
/// use sgf_grove::text::charset::for_label;
/// assert_eq!(for_label(b"ISO8859_1").unwrap().name(), "windows-1252");
/// assert_eq!(for_label(b" gb2312 ").unwrap().name(), "GBK");
/// assert!(for_label(b"klingon").is_none());
/// ```
pub fn for_label(label: &[u8]) -> Option<&'static Encoding> {
    any_label(label).filter(|&e| is_usable(e))
}

/// Whether SGF text can be in `encoding`: not a charset whose text is not
/// byte-oriented ASCII-compatible (UTF-16), nor one whose characters hold
/// `[`, `]` and `\\` bytes that the format cannot tell apart (ISO-2022-JP,
/// which also switches state with escape sequences).
pub fn is_usable(encoding: &'static Encoding) -> bool {
    encoding != encoding_rs::UTF_16LE
        && encoding != encoding_rs::UTF_16BE
        && encoding != encoding_rs::ISO_2022_JP
}

/// The encoding a label names, usable or not.
pub(crate) fn any_label(label: &[u8]) -> Option<&'static Encoding> {
    let label = label.trim_ascii();
    if let Some(e) = Encoding::for_label_no_replacement(label) {
        return Some(e);
    }
    // `ISO8859_1`, `ISO_8859_1`: underscores for dashes.
    let mut fixed = [0u8; 32];
    if label.len() > fixed.len() {
        return None;
    }
    for (f, &b) in fixed.iter_mut().zip(label) {
        *f = if b == b'_' { b'-' } else { b };
    }
    let fixed = &fixed[..label.len()];
    if let Some(e) = Encoding::for_label_no_replacement(fixed) {
        return Some(e);
    }
    match fixed.to_ascii_lowercase().as_slice() {
        b"iso8859-1" => Some(WINDOWS_1252),
        b"iso8859-15" => Encoding::for_label_no_replacement(b"iso-8859-15"),
        b"ascii" | b"us-ascii" => Some(WINDOWS_1252),
        b"sjis" | b"shift-jis" => Some(SHIFT_JIS),
        b"euc-cn" => Some(GBK),
        b"utf-8-bom" => Some(UTF_8),
        _ => None,
    }
}

/// Whether `encoding` is one where the second byte of a character may be an
/// ASCII `\` or `]` (Shift_JIS, Big5, GBK, GB18030), so that value scanning
/// has to step over whole characters.
pub fn is_ascii_unsafe(encoding: &'static Encoding) -> bool {
    encoding == SHIFT_JIS || encoding == BIG5 || encoding == GBK || encoding == GB18030
}

/// Guesses the charset of `bytes` (the bytes of one game) as the module docs
/// describe.
///
/// ```
/// use sgf_grove::text::charset::detect;
/// // 中国 in GB2312.
/// assert_eq!(detect(b"PB[\xd6\xd0\xb9\xfa]").name(), "gb18030");
/// assert_eq!(detect("PB[中国]".as_bytes()).name(), "UTF-8");
/// ```
pub fn detect(bytes: &[u8]) -> Charset {
    if simdutf8::basic::from_utf8(bytes).is_ok() {
        return Charset::new(UTF_8, CharsetSource::Detected);
    }
    let (valid, total) = utf8_share(bytes);
    let ratio = valid as f32 / total.max(1) as f32;
    let utf8 = Charset {
        encoding: UTF_8,
        source: CharsetSource::Detected,
        confidence: ratio,
    };
    if ratio >= 0.8 {
        return utf8;
    }
    let mut best = (f64::MIN, WINDOWS_1252, 0.0f32);
    for &(encoding, script) in CANDIDATES {
        let (score, plausible) = score(bytes, encoding, script);
        if score > best.0 {
            best = (score, encoding, plausible);
        }
    }
    // Damaged UTF-8 that no legacy charset reads better than it reads
    // itself stays UTF-8, decoded lossily.
    if best.2 <= ratio {
        return utf8;
    }
    Charset {
        encoding: best.1,
        source: CharsetSource::Detected,
        confidence: best.2,
    }
}

/// Non-ASCII bytes inside well-formed UTF-8 sequences, and all non-ASCII
/// bytes. A UTF-8 sequence holds no ASCII byte, so each run of non-ASCII
/// bytes is checked on its own: most of a game is ASCII, skipped eight
/// bytes at a time.
fn utf8_share(bytes: &[u8]) -> (usize, usize) {
    let mut valid = 0;
    let mut total = 0;
    let mut at = 0;
    while let Some(skip) = first_non_ascii(&bytes[at..]) {
        let start = at + skip;
        let len = bytes[start..]
            .iter()
            .position(u8::is_ascii)
            .unwrap_or(bytes.len() - start);
        let mut run = &bytes[start..start + len];
        total += len;
        loop {
            match std::str::from_utf8(run) {
                Ok(_) => {
                    valid += run.len();
                    break;
                }
                Err(e) => {
                    valid += e.valid_up_to();
                    let bad = e.error_len().unwrap_or(run.len() - e.valid_up_to());
                    run = &run[e.valid_up_to() + bad..];
                }
            }
        }
        at = start + len;
    }
    (valid, total)
}

/// The script a candidate encoding stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Script {
    Hanzi,
    Japanese,
    Hangul,
    Latin,
    Cyrillic,
}

const CANDIDATES: &[(&Encoding, Script)] = &[
    (GB18030, Script::Hanzi),
    (BIG5, Script::Hanzi),
    (SHIFT_JIS, Script::Japanese),
    (EUC_JP, Script::Japanese),
    (EUC_KR, Script::Hangul),
    (WINDOWS_1252, Script::Latin),
    (WINDOWS_1251, Script::Cyrillic),
    (KOI8_R, Script::Cyrillic),
];

/// Frequent characters of Chinese text and of Go records, in simplified and
/// traditional forms: text decoded with the right Chinese encoding is full of
/// them, text decoded with the wrong one rarely.
const COMMON_HANZI: &str = "的一是不了人我在有他这這中大来來上国國个個到说說们們为為子和你地出道也时時年得就那要下以生会會自着著去之过過家学學对對可她里裏后後小么麼心多天而能好都然没沒日于於起还還发發成事只作当當想看文无無开開手十用主行方又如前所本见見经經头頭面公同三已老从從动動两兩长長黑白棋局目胜勝负負段级級先后後手贴貼子围圍第届屆赛賽杯王名冠军軍战戰决決半中盘盤和劫打吃提立长飞飛跳尖扳断斷接粘挡擋点點眼活死气氣空定式布九八七六五四二零〇";

/// Whether `c` is a character of `script`; `beside_letter` tells whether an
/// ASCII letter stands next to it (Latin accented letters sit inside words,
/// while CJK text misread as Windows-1252 gives long runs of them).
fn script_char(c: char, script: Script, beside_letter: bool) -> bool {
    // CJK punctuation and full-width forms, but not the half-width katakana
    // (U+FF61…) that Big5 or GBK bytes turn into when read as Shift_JIS.
    let cjk_punctuation = matches!(c, '\u{3000}'..='\u{303f}' | '\u{ff01}'..='\u{ff5e}');
    match script {
        Script::Hanzi => cjk_punctuation || COMMON_HANZI.contains(c),
        Script::Japanese => {
            cjk_punctuation || matches!(c, '\u{3040}'..='\u{30ff}') || COMMON_HANZI.contains(c)
        }
        Script::Hangul => cjk_punctuation || common_hangul(c),
        Script::Latin => {
            beside_letter && matches!(c, '\u{c0}'..='\u{ff}') && c != '\u{d7}' && c != '\u{f7}'
        }
        // Lower-case letters inside Cyrillic words, not next to Latin ones
        // (where an accented Latin letter read in the wrong charset would
        // sit): running text is mostly lower case, and KOI8-R and
        // Windows-1251 put the two cases the other way round.
        Script::Cyrillic => !beside_letter && matches!(c, '\u{430}'..='\u{44f}' | '\u{451}'),
    }
}

/// Whether `c` is one of the 2,350 hangul syllables of KS X 1001, the ones
/// real Korean text uses; the other 8,822 that EUC-KR's extension (UHC) can
/// encode are what Shift_JIS or Big5 bytes turn into when read as EUC-KR.
fn common_hangul(c: char) -> bool {
    if !matches!(c, '\u{ac00}'..='\u{d7a3}') {
        return false;
    }
    let mut buf = [0u8; 4];
    let (bytes, _, _) = EUC_KR.encode(c.encode_utf8(&mut buf));
    matches!(&bytes[..], [0xb0..=0xc8, 0xa1..=0xfe])
}

/// A candidate's score (higher is better) and its share of plausible
/// characters among the non-ASCII ones.
fn score(bytes: &[u8], encoding: &'static Encoding, script: Script) -> (f64, f32) {
    let (text, _) = encoding.decode_without_bom_handling(bytes);
    let mut errors = 0usize;
    let mut plausible = 0usize;
    let mut other = 0usize;
    // Only characters outside ASCII count, with the characters on either
    // side: ASCII runs (most of an SGF file) are skipped eight bytes at a
    // time.
    let mut prev = ' ';
    let mut at = 0;
    while let Some(skip) = first_non_ascii(&text.as_bytes()[at..]) {
        let start = at + skip;
        if skip > 0 {
            prev = char::from(text.as_bytes()[start - 1]);
        }
        let c = text[start..]
            .chars()
            .next()
            .expect("a character starts here");
        let end = start + c.len_utf8();
        let next = text[end..].chars().next().unwrap_or(' ');
        let beside_letter = prev.is_ascii_alphabetic() || next.is_ascii_alphabetic();
        // Weighed by the bytes the character stands for in a legacy
        // encoding: two for CJK, one for the rest, so that two Cyrillic
        // letters do not outweigh the one hanzi their bytes also make.
        let weight = if c.len_utf8() >= 3 { 2 } else { 1 };
        if c == '\u{fffd}' {
            errors += 1;
        } else if script_char(c, script, beside_letter) {
            plausible += weight;
        } else {
            other += weight;
        }
        prev = c;
        at = end;
    }
    let total = (errors + plausible + other).max(1);
    let score = plausible as f64 * 2.0 - other as f64 * 0.5 - errors as f64 * 10.0;
    (score, plausible as f32 / total as f32)
}

/// The position of the first byte of `bytes` outside ASCII, looking at
/// eight bytes at a time.
#[inline]
fn first_non_ascii(bytes: &[u8]) -> Option<usize> {
    let mut chunks = bytes.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        if word & 0x8080_8080_8080_8080 != 0 {
            return chunk.iter().position(|b| !b.is_ascii()).map(|i| at + i);
        }
        at += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|b| !b.is_ascii())
        .map(|i| at + i)
}

#[cfg(test)]
mod tests {
    use super::*;

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
