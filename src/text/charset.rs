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

mod pairs;

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
    detect_not_utf8(bytes)
}

/// [`detect`] for bytes known not to be valid UTF-8. Only a bounded
/// [`sample`] of them is read.
pub(crate) fn detect_not_utf8(bytes: &[u8]) -> Charset {
    let ratio = utf8_ratio(bytes).unwrap_or(1.0);
    if ratio >= 0.8 {
        return damaged_utf8(ratio);
    }
    let mut tallies = [Tally::default(); CANDIDATES.len()];
    tally(bytes, &mut tallies);
    pick(&tallies, ratio)
}

/// What [`detect`] says of `bytes` when that is a charset whose second
/// bytes can be `\\` or `]` (see [`is_ascii_unsafe`]); `None` when it says
/// anything else. Quicker than [`detect`] when the answer is `None`: the
/// other candidates are scored only when one of those could win.
#[cfg(test)]
pub(crate) fn detect_ascii_unsafe(bytes: &[u8]) -> Option<Charset> {
    detect_on_trial(bytes).read_in
}

/// What detection says of the bytes of a game read on trial.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TrialCharset {
    /// The charset to read the game again in, a character at a time: what
    /// [`detect`] says when that is ASCII-unsafe.
    pub(crate) read_in: Option<Charset>,
    /// What [`detect`] says of the bytes when that was found on the way
    /// and is not `read_in` (damaged UTF-8, a legacy charset): the game's
    /// charset, so that it is not detected twice.
    pub(crate) found: Option<Charset>,
}

/// [`detect_ascii_unsafe`], with what else was found on the way.
pub(crate) fn detect_on_trial(bytes: &[u8]) -> TrialCharset {
    let Some((valid, total)) = utf8_counts(bytes) else {
        return TrialCharset::default();
    };
    let ratio = valid as f32 / total.max(1) as f32;
    if ratio >= 0.8 {
        return TrialCharset {
            read_in: None,
            found: Some(damaged_utf8(ratio)),
        };
    }
    if bytes.len() <= SAMPLE_MAX && implausible_ascii_unsafe(bytes, valid) {
        return TrialCharset::default();
    }
    let mut tallies = [Tally::default(); CANDIDATES.len()];
    let (unsafe_ones, others) = tallies.split_at_mut(ASCII_UNSAFE_CANDIDATES);
    tally(bytes, unsafe_ones);
    // The winner must read more of the text plausibly than UTF-8 does.
    if unsafe_ones.iter().all(|t| t.score().1 <= ratio) {
        return TrialCharset::default();
    }
    tally_from(bytes, others, ASCII_UNSAFE_CANDIDATES);
    let winner = pick(&tallies, ratio);
    if is_ascii_unsafe(winner.encoding()) {
        TrialCharset {
            read_in: Some(winner),
            found: None,
        }
    } else {
        TrialCharset {
            read_in: None,
            found: Some(winner),
        }
    }
}

/// The share of the non-ASCII bytes of (a sample of) `bytes` that are in
/// well-formed UTF-8 sequences; `None` when `bytes` is valid UTF-8.
fn utf8_ratio(bytes: &[u8]) -> Option<f32> {
    let (valid, total) = utf8_counts(bytes)?;
    Some(valid as f32 / total.max(1) as f32)
}

/// The non-ASCII bytes of (a sample of) `bytes` that are in well-formed
/// UTF-8 sequences, and all its non-ASCII bytes; `None` when `bytes` is
/// valid UTF-8.
fn utf8_counts(bytes: &[u8]) -> Option<(usize, usize)> {
    if bytes.len() <= SAMPLE_MAX {
        // The regions would give the same counts: skip finding them.
        let (valid, total) = utf8_share(bytes);
        return (valid < total).then_some((valid, total));
    }
    if simdutf8::basic::from_utf8(bytes).is_ok() {
        return None;
    }
    let (mut valid, mut total) = (0, 0);
    sample(bytes, |region| {
        let (v, t) = utf8_share(region);
        valid += v;
        total += t;
    });
    // The sample of bytes that are not UTF-8 may be.
    Some((valid, total))
}

/// Whether no ASCII-unsafe candidate can read more of `bytes` plausibly
/// than UTF-8 reads validly (`valid` of its non-ASCII bytes, `total`): a
/// bound that spares decoding them in most text that is nearly UTF-8.
///
/// Each character of their scripts is two bytes in those charsets (in
/// GB18030 possibly four, two of them ASCII digits), worth 2, so a
/// candidate's plausible weight is at most twice the number of places
/// where such a pair could start ([`pairs::PAIRS`]); and each unit of the weight
/// of what it decodes (characters and errors) covers at most two non-ASCII
/// bytes, so that weight is at least half of `total`. Its share of
/// plausible characters is then at most `4 * places / total`, no more than
/// UTF-8's `valid / total` when `4 * places <= valid`.
fn implausible_ascii_unsafe(bytes: &[u8], valid: usize) -> bool {
    let pairs = &pairs::PAIRS;
    let mut places = [0usize; ASCII_UNSAFE_CANDIDATES];
    let mut i = 0;
    while let Some(skip) = first_non_ascii(bytes.get(i..).unwrap_or_default()) {
        i += skip;
        while let Some(&lead) = bytes.get(i).filter(|b| !b.is_ascii()) {
            let next = bytes.get(i + 1).copied().unwrap_or(0);
            let bit = usize::from(lead - 0x80) * 256 + usize::from(next);
            for (n, set) in places.iter_mut().zip(pairs.iter()) {
                *n += usize::from(set[bit / 64] >> (bit % 64) & 1 == 1);
            }
            // A four-byte GB18030 character: lead, digit, lead, digit.
            if next.is_ascii_digit()
                && bytes.get(i + 2).is_some_and(|b| !b.is_ascii())
                && bytes.get(i + 3).is_some_and(u8::is_ascii_digit)
            {
                places[0] += 1;
            }
            i += 1;
        }
    }
    places.iter().all(|&n| 4 * n <= valid)
}

/// UTF-8 with some bytes damaged: decoded lossily.
fn damaged_utf8(ratio: f32) -> Charset {
    Charset {
        encoding: UTF_8,
        source: CharsetSource::Detected,
        confidence: ratio,
    }
}

/// Scores (a sample of) `bytes` for the first `tallies.len()` candidates.
fn tally(bytes: &[u8], tallies: &mut [Tally]) {
    tally_from(bytes, tallies, 0);
}

/// Scores (a sample of) `bytes` for the candidates from `first` on, one
/// per tally. The regions of the sample are decoded together, a few
/// kilobytes at a time: each starts and ends with enough ASCII bytes that
/// no character spans two, and decoding them one by one would cost more.
fn tally_from(bytes: &[u8], tallies: &mut [Tally], first: usize) {
    let mut out = [0u8; 1024];
    let Ok(dst) = std::str::from_utf8_mut(&mut out) else {
        return;
    };
    let candidates = CANDIDATES.get(first..).unwrap_or_default();
    let mut add = |text: &[u8]| {
        for (tally, &(encoding, script)) in tallies.iter_mut().zip(candidates) {
            tally.add(text, encoding, script, dst);
        }
    };
    let mut buf = [0u8; 1024];
    let mut len = 0;
    sample(bytes, |region| {
        if len + region.len() > buf.len() && len > 0 {
            add(&buf[..len]);
            len = 0;
        }
        match buf.get_mut(len..len + region.len()) {
            Some(room) => {
                room.copy_from_slice(region);
                len += region.len();
            }
            None => add(region),
        }
    });
    if len > 0 {
        add(&buf[..len]);
    }
}

/// The best candidate by its score (the first of equals), unless it reads
/// no more of the text plausibly than UTF-8 does (`ratio`): damaged UTF-8
/// that no legacy charset reads better than it reads itself stays UTF-8.
fn pick(tallies: &[Tally; CANDIDATES.len()], ratio: f32) -> Charset {
    let mut best = (f64::MIN, WINDOWS_1252, 0.0f32);
    for (tally, &(encoding, _)) in tallies.iter().zip(&CANDIDATES) {
        let (score, plausible) = tally.score();
        if score > best.0 {
            best = (score, encoding, plausible);
        }
    }
    if best.2 <= ratio {
        return damaged_utf8(ratio);
    }
    Charset {
        encoding: best.1,
        source: CharsetSource::Detected,
        confidence: best.2,
    }
}

/// At most this many bytes of a game are scored: the text of a huge game
/// is judged by a sample of it.
pub const SAMPLE_MAX: usize = 256 * 1024;

/// The stripes of a game larger than [`SAMPLE_MAX`] that share the sample
/// (what one stripe leaves unused goes to the next).
const STRIPES: usize = 16;

/// ASCII bytes kept on either side of the non-ASCII bytes of a region: the
/// letters beside a character that the scores look at, and more than any
/// candidate decoder needs to finish a character, so that a region decodes
/// alone to exactly the characters the whole game decodes to there.
const CONTEXT: usize = 8;

/// Non-ASCII bytes with fewer ASCII bytes than this between them are in
/// one region; at least this many keep regions apart, with [`CONTEXT`]
/// ASCII bytes for each.
const JOIN: usize = 2 * CONTEXT;

/// Hands the regions of `bytes` that hold non-ASCII bytes (with [`CONTEXT`]
/// ASCII bytes around them) to `f`, in order: the only bytes whose
/// decoding differs between the candidate charsets. ASCII runs, most of a
/// game record, are skipped, and the scores of the regions add up to those
/// of the whole.
///
/// When the regions hold more than [`SAMPLE_MAX`] bytes, each of
/// [`STRIPES`] equal stripes of `bytes` contributes its share of them (a
/// region that crosses stripes, in pieces; what a stripe leaves unused goes
/// to the next), so that text after a long ASCII prefix, or spread through
/// a huge game, is still seen; `f` gets at most [`SAMPLE_MAX`] bytes in all.
pub(crate) fn sample(bytes: &[u8], mut f: impl FnMut(&[u8])) {
    let fits = bytes.len() <= SAMPLE_MAX || {
        let mut total = 0;
        Regions::new(bytes).all(|r| {
            total += r.len();
            total <= SAMPLE_MAX
        })
    };
    if fits {
        for r in Regions::new(bytes) {
            f(&bytes[r]);
        }
        return;
    }
    let stripe = bytes.len().div_ceil(STRIPES);
    let mut taken = 0;
    for r in Regions::new(bytes) {
        let mut at = r.start;
        while at < r.end {
            let k = at / stripe;
            let piece_end = r.end.min((k + 1) * stripe);
            let room = (SAMPLE_MAX * (k + 1) / STRIPES).saturating_sub(taken);
            let len = (piece_end - at).min(room);
            if len > 0 {
                f(&bytes[at..at + len]);
                taken += len;
            }
            at = piece_end;
        }
    }
}

/// The regions of a byte string that hold non-ASCII bytes, as [`sample`]
/// describes them.
struct Regions<'a> {
    bytes: &'a [u8],
    /// The next non-ASCII byte.
    next: Option<usize>,
}

impl<'a> Regions<'a> {
    fn new(bytes: &'a [u8]) -> Regions<'a> {
        Regions {
            bytes,
            next: first_non_ascii(bytes),
        }
    }
}

impl Iterator for Regions<'_> {
    type Item = std::ops::Range<usize>;

    fn next(&mut self) -> Option<Self::Item> {
        let first = self.next?;
        // The region goes on while fewer than `JOIN` ASCII bytes follow its
        // last non-ASCII byte.
        let mut last = first;
        let mut i = first + 1;
        while let Some(&b) = self.bytes.get(i) {
            if !b.is_ascii() {
                last = i;
            } else if i - last > JOIN {
                break;
            }
            i += 1;
        }
        self.next = first_non_ascii(self.bytes.get(i..).unwrap_or_default()).map(|gap| i + gap);
        let start = first.saturating_sub(CONTEXT);
        let end = (last + 1 + CONTEXT).min(self.bytes.len());
        Some(start..end)
    }
}

/// Non-ASCII bytes inside well-formed UTF-8 sequences, and all non-ASCII
/// bytes. An ill-formed sequence counts as [`std::str::Utf8Error`] measures
/// it (its longest prefix that could start a character, at least one
/// byte), and the bytes after it are looked at afresh.
fn utf8_share(bytes: &[u8]) -> (usize, usize) {
    let (mut valid, mut total) = (0, 0);
    let n = bytes.len();
    let mut i = 0;
    while i < n {
        match word_at(bytes, i) {
            Some(word) => {
                let high = word & HIGH;
                if high == 0 {
                    // Eight bytes of ASCII; then whole blocks of it.
                    i += 8;
                    while i + 32 <= n && block_is_ascii(bytes, i) {
                        i += 32;
                    }
                    continue;
                }
                i += high.trailing_zeros() as usize / 8;
            }
            None if bytes[i].is_ascii() => {
                i += 1;
                continue;
            }
            None => {}
        }
        let (len, ok) = utf8_sequence(bytes, i);
        total += len;
        if ok {
            valid += len;
        }
        i += len;
    }
    (valid, total)
}

/// The high bit of each byte of a word.
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The eight bytes of `bytes` from `at` as a word, when there are eight.
#[inline(always)]
fn word_at(bytes: &[u8], at: usize) -> Option<u64> {
    let eight: [u8; 8] = bytes.get(at..at + 8)?.try_into().ok()?;
    Some(u64::from_le_bytes(eight))
}

/// Whether the 32 bytes of `bytes` from `at` (which must be there) are
/// ASCII.
#[inline(always)]
fn block_is_ascii(bytes: &[u8], at: usize) -> bool {
    let word = |k: usize| word_at(bytes, at + k).unwrap_or(HIGH);
    (word(0) | word(8) | word(16) | word(24)) & HIGH == 0
}

/// The UTF-8 sequence that starts with the non-ASCII byte at `i`: its
/// length and whether it is well formed; when it is not, the length of its
/// longest prefix that could start a character (at least one byte).
#[inline]
fn utf8_sequence(bytes: &[u8], i: usize) -> (usize, bool) {
    let cont = |b: u8| b & 0xc0 == 0x80;
    // Most text outside ASCII in game records: a character of three bytes
    // whose second byte may be any continuation byte.
    if let Some(&[a, b, c]) = bytes.get(i..i + 3) {
        if matches!(a, 0xe1..=0xec | 0xee..=0xef) && cont(b) && cont(c) {
            return (3, true);
        }
    }
    let at = |k: usize| bytes.get(i + k).copied().unwrap_or(0);
    // The range of the second byte, by the first (Unicode's table of
    // well-formed sequences), and the sequence's length.
    let (second, width) = match at(0) {
        0xc2..=0xdf => (0x80..=0xbf, 2),
        0xe0 => (0xa0..=0xbf, 3),
        0xe1..=0xec | 0xee..=0xef => (0x80..=0xbf, 3),
        0xed => (0x80..=0x9f, 3),
        0xf0 => (0x90..=0xbf, 4),
        0xf1..=0xf3 => (0x80..=0xbf, 4),
        0xf4 => (0x80..=0x8f, 4),
        _ => return (1, false),
    };
    if !second.contains(&at(1)) {
        return (1, false);
    }
    for k in 2..width {
        if !cont(at(k)) {
            return (k, false);
        }
    }
    (width, true)
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

/// The legacy charsets [`detect`] weighs, each with its script; the first
/// [`ASCII_UNSAFE_CANDIDATES`] are those whose second bytes can be `\` or
/// `]`.
const CANDIDATES: [(&Encoding, Script); 8] = [
    (GB18030, Script::Hanzi),
    (BIG5, Script::Hanzi),
    (SHIFT_JIS, Script::Japanese),
    (EUC_JP, Script::Japanese),
    (EUC_KR, Script::Hangul),
    (WINDOWS_1252, Script::Latin),
    (WINDOWS_1251, Script::Cyrillic),
    (KOI8_R, Script::Cyrillic),
];

/// How many of [`CANDIDATES`], first, are ASCII-unsafe.
const ASCII_UNSAFE_CANDIDATES: usize = 3;

/// Frequent characters of Chinese text and of Go records, in simplified and
/// traditional forms: text decoded with the right Chinese encoding is full of
/// them, text decoded with the wrong one rarely.
const COMMON_HANZI: &str = "的一是不了人我在有他这這中大来來上国國个個到说說们們为為子和你地出道也时時年得就那要下以生会會自着著去之过過家学學对對可她里裏后後小么麼心多天而能好都然没沒日于於起还還发發成事只作当當想看文无無开開手十用主行方又如前所本见見经經头頭面公同三已老从從动動两兩长長黑白棋局目胜勝负負段级級先后後手贴貼子围圍第届屆赛賽杯王名冠军軍战戰决決半中盘盤和劫打吃提立长飞飛跳尖扳断斷接粘挡擋点點眼活死气氣空定式布九八七六五四二零〇";

/// The first character [`HANZI_SET`] covers: U+3000, so that it holds the
/// CJK symbols block (`〇`) and the unified ideographs.
const HANZI_BASE: u32 = 0x3000;

/// [`COMMON_HANZI`] as one bit per character from [`HANZI_BASE`] to
/// U+9FFF, built at compile time: a lookup instead of a search of the
/// string for each character scored.
static HANZI_SET: [u64; 0x7000 / 64] = hanzi_set();

const fn hanzi_set() -> [u64; 0x7000 / 64] {
    let mut set = [0u64; 0x7000 / 64];
    let bytes = COMMON_HANZI.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        // Every character of the string is three bytes of UTF-8.
        assert!(
            bytes[i] & 0xf0 == 0xe0,
            "COMMON_HANZI holds only U+0800..U+FFFF"
        );
        let c = ((bytes[i] as u32 & 0x0f) << 12)
            | ((bytes[i + 1] as u32 & 0x3f) << 6)
            | (bytes[i + 2] as u32 & 0x3f);
        assert!(c >= HANZI_BASE && c < 0xa000, "COMMON_HANZI is CJK");
        let bit = (c - HANZI_BASE) as usize;
        set[bit / 64] |= 1 << (bit % 64);
        i += 3;
    }
    set
}

/// Whether `c` is one of [`COMMON_HANZI`].
fn is_common_hanzi(c: char) -> bool {
    let Some(bit) = (c as u32).checked_sub(HANZI_BASE) else {
        return false;
    };
    HANZI_SET
        .get(bit as usize / 64)
        .is_some_and(|word| word & (1 << (bit % 64)) != 0)
}

/// Whether `c` is a character of `script`; `beside_letter` tells whether an
/// ASCII letter stands next to it (Latin accented letters sit inside words,
/// while CJK text misread as Windows-1252 gives long runs of them).
fn script_char(c: char, script: Script, beside_letter: bool) -> bool {
    // CJK punctuation and full-width forms, but not the half-width katakana
    // (U+FF61…) that Big5 or GBK bytes turn into when read as Shift_JIS.
    let cjk_punctuation = matches!(c, '\u{3000}'..='\u{303f}' | '\u{ff01}'..='\u{ff5e}');
    match script {
        Script::Hanzi => cjk_punctuation || is_common_hanzi(c),
        Script::Japanese => {
            cjk_punctuation || matches!(c, '\u{3040}'..='\u{30ff}') || is_common_hanzi(c)
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
    let Some(i) = (c as u32).checked_sub(0xac00) else {
        return false;
    };
    let set = HANGUL_SET.get_or_init(hangul_set);
    set.get(i as usize / 64)
        .is_some_and(|word| word & (1 << (i % 64)) != 0)
}

/// The hangul syllables (U+AC00…U+D7A3) of KS X 1001, one bit each.
static HANGUL_SET: std::sync::OnceLock<[u64; 11172_usize.div_ceil(64)]> =
    std::sync::OnceLock::new();

/// [`HANGUL_SET`], from EUC-KR itself: the syllables its rows 0xB0…0xC8 and
/// columns 0xA1…0xFE (the KS X 1001 hangul block) decode to.
fn hangul_set() -> [u64; 11172_usize.div_ceil(64)] {
    let mut set = [0u64; 11172_usize.div_ceil(64)];
    let mut buf = [0u8; 4];
    for lead in 0xb0..=0xc8u8 {
        for trail in 0xa1..=0xfeu8 {
            let mut decoder = EUC_KR.new_decoder_without_bom_handling();
            let Ok(dst) = std::str::from_utf8_mut(&mut buf) else {
                continue;
            };
            let (_, _, written, _) = decoder.decode_to_str(&[lead, trail], dst, true);
            if let Some(c) = dst[..written].chars().next() {
                if let Some(i) = (c as u32).checked_sub(0xac00).filter(|&i| i < 11172) {
                    set[i as usize / 64] |= 1 << (i % 64);
                }
            }
        }
    }
    set
}

/// What one candidate charset makes of the regions decoded so far.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    /// Bytes it cannot decode (U+FFFD).
    errors: usize,
    /// Characters of its script, and the others, each weighed by the bytes
    /// it stands for in a legacy encoding: two for CJK, one for the rest,
    /// so that two Cyrillic letters do not outweigh the one hanzi their
    /// bytes also make.
    plausible: usize,
    other: usize,
}

impl Tally {
    /// Decodes `text` (regions that start and end where every candidate
    /// decoder is between characters) with `encoding` into `dst`, a piece
    /// at a time, and counts its characters outside ASCII, each with the
    /// characters on either side (Latin accented letters sit inside words,
    /// while CJK text misread as Windows-1252 gives long runs of them).
    fn add(&mut self, text: &[u8], encoding: &'static Encoding, script: Script, dst: &mut str) {
        let mut decoder = encoding.new_decoder_without_bom_handling();
        // The character before the next one (a space at the start, as for
        // the first character of a game), and a character outside ASCII
        // waiting for the one after it, with the one before it.
        let mut prev = ' ';
        let mut waiting: Option<(char, char)> = None;
        let mut src = text;
        loop {
            let (result, read, written, _) = decoder.decode_to_str(src, dst, true);
            for c in dst[..written].chars() {
                if let Some((w, before)) = waiting.take() {
                    self.count(w, script, before, c);
                }
                if !c.is_ascii() {
                    waiting = Some((c, prev));
                }
                prev = c;
            }
            src = &src[read..];
            if result == encoding_rs::CoderResult::InputEmpty || (read == 0 && written == 0) {
                break;
            }
        }
        if let Some((w, before)) = waiting {
            self.count(w, script, before, ' ');
        }
    }

    fn count(&mut self, c: char, script: Script, prev: char, next: char) {
        let beside_letter = prev.is_ascii_alphabetic() || next.is_ascii_alphabetic();
        let weight = if c.len_utf8() >= 3 { 2 } else { 1 };
        if c == '\u{fffd}' {
            self.errors += 1;
        } else if script_char(c, script, beside_letter) {
            self.plausible += weight;
        } else {
            self.other += weight;
        }
    }

    /// The score (higher is better) and the share of plausible characters
    /// among the non-ASCII ones.
    fn score(&self) -> (f64, f32) {
        let total = (self.errors + self.plausible + self.other).max(1);
        let score =
            self.plausible as f64 * 2.0 - self.other as f64 * 0.5 - self.errors as f64 * 10.0;
        (score, self.plausible as f32 / total as f32)
    }
}

/// The position of the first byte of `bytes` outside ASCII, looking at
/// 32 bytes at a time.
#[inline]
fn first_non_ascii(bytes: &[u8]) -> Option<usize> {
    let mut at = 0;
    while at + 32 <= bytes.len() && block_is_ascii(bytes, at) {
        at += 32;
    }
    while let Some(word) = word_at(bytes, at) {
        let high = word & HIGH;
        if high != 0 {
            return Some(at + high.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    bytes[at..]
        .iter()
        .position(|b| !b.is_ascii())
        .map(|i| at + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pairs each ASCII-unsafe candidate decodes to one character of
    /// its script, found by decoding every pair, as `pairs.rs` lists them.
    fn decoded_plausible_pairs(candidate: usize) -> Vec<u16> {
        let (encoding, script) = CANDIDATES[candidate];
        let mut found = Vec::new();
        for lead in 0x80..=0xffu8 {
            for second in 0..=0xffu8 {
                let pair = [lead, second];
                let (text, _) = encoding.decode_without_bom_handling(&pair);
                let mut chars = text.chars();
                if let (Some(c), None) = (chars.next(), chars.next()) {
                    if script_char(c, script, false) {
                        found.push(u16::from_be_bytes(pair));
                    }
                }
            }
        }
        found
    }

    #[test]
    fn plausible_pairs_are_those_the_decoders_give() {
        let lists = [pairs::GB18030, pairs::BIG5, pairs::SHIFT_JIS];
        let mut changed = String::new();
        for (candidate, list) in lists.iter().enumerate() {
            let (encoding, script) = CANDIDATES[candidate];
            let found = decoded_plausible_pairs(candidate);
            if found != *list {
                // On a change of encoding_rs or of the scripts: paste these.
                let listing: Vec<String> = found.iter().map(|p| format!("0x{p:04x},")).collect();
                changed += &format!("{}:\n{}\n", encoding.name(), listing.join(" "));
            }
            // No character of those scripts is one byte in these charsets.
            for b in 0x80..=0xffu8 {
                let one = [b];
                let (text, _) = encoding.decode_without_bom_handling(&one);
                assert!(
                    !text.chars().any(|c| script_char(c, script, false)),
                    "{b:x}"
                );
            }
        }
        assert!(
            changed.is_empty(),
            "the plausible pairs changed:\n{changed}"
        );
    }

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
            assert_eq!(utf8_share(&bytes), whole_utf8_share(&bytes), "{bytes:x?}");
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
