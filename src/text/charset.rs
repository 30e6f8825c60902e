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

mod common;

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

/// The non-ASCII bytes from which text at least four in five of whose
/// non-ASCII bytes are in well-formed (or Fox-damaged) UTF-8 sequences is
/// taken for UTF-8 without weighing the legacy charsets.
const MOSTLY_UTF8_MIN: usize = 16;

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
    match utf8_counts(bytes) {
        Some((valid, total)) => detect_from_counts(bytes, valid, total),
        // The sample of a huge input may be valid while the input is not.
        None => damaged_utf8(1.0),
    }
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

/// [`detect_ascii_unsafe`], with what else was found on the way: what
/// [`detect`] says of bytes that are not valid UTF-8, split by whether it
/// is ASCII-unsafe; nothing for valid UTF-8.
pub(crate) fn detect_on_trial(bytes: &[u8]) -> TrialCharset {
    let Some((valid, total)) = utf8_counts(bytes) else {
        return TrialCharset::default();
    };
    let found = detect_from_counts(bytes, valid, total);
    if is_ascii_unsafe(found.encoding()) {
        TrialCharset {
            read_in: Some(found),
            found: None,
        }
    } else {
        TrialCharset {
            read_in: None,
            found: Some(found),
        }
    }
}

/// [`detect`] for bytes that are not valid UTF-8, of whose non-ASCII bytes
/// (in the sample) `valid` of `total` are in well-formed UTF-8 sequences.
fn detect_from_counts(bytes: &[u8], valid: usize, total: usize) -> Charset {
    let ratio = valid as f32 / total.max(1) as f32;
    // Mostly UTF-8; but a few bytes of legacy text can be valid UTF-8 by
    // chance (an EUC-KR syllable in 0xC2…0xDF, 0x80…0xBF), so a short
    // text that is not all UTF-8 or damaged UTF-8 is weighed as well.
    if ratio >= 0.8 && (total >= MOSTLY_UTF8_MIN || valid == total) {
        return damaged_utf8(ratio);
    }
    let mut tallies = [Tally::default(); CANDIDATES.len()];
    tally(bytes, &mut tallies);
    pick(&tallies, ratio)
}

/// The non-ASCII bytes of (a sample of) `bytes` that are in well-formed
/// UTF-8 sequences or in sequences damaged as [`damaged_sequence`] tells,
/// and all its non-ASCII bytes; `None` when `bytes` is valid UTF-8.
fn utf8_counts(bytes: &[u8]) -> Option<(usize, usize)> {
    // Damaged sequences count as UTF-8 only beside well-formed ones: a
    // lone lead byte before `]` is as likely the last letter of a Latin-1
    // name (`PB[Jos\xe9]`) as a character cut in half.
    let share = |valid: usize, damaged: usize| valid + if valid > 0 { damaged } else { 0 };
    if bytes.len() <= SAMPLE_MAX {
        // The regions would give the same counts: skip finding them.
        let (valid, damaged, total) = utf8_share(bytes);
        return (valid < total).then_some((share(valid, damaged), total));
    }
    if simdutf8::basic::from_utf8(bytes).is_ok() {
        return None;
    }
    let (mut valid, mut damaged, mut total) = (0, 0, 0);
    sample(bytes, |region| {
        let (v, d, t) = utf8_share(region);
        valid += v;
        damaged += d;
        total += t;
    });
    // The sample of bytes that are not UTF-8 may be.
    Some((share(valid, damaged), total))
}

/// UTF-8 with some bytes damaged: decoded lossily.
fn damaged_utf8(ratio: f32) -> Charset {
    Charset {
        encoding: UTF_8,
        source: CharsetSource::Detected,
        // Below 1 even when every bad sequence looks damaged: a guess.
        confidence: ratio.min(0.99),
        weighed: None,
    }
}

/// Scores (a sample of) `bytes` for the candidates, one per tally. The
/// regions of the sample are decoded together, a few
/// kilobytes at a time: each starts and ends with enough ASCII bytes that
/// no character spans two, and decoding them one by one would cost more.
fn tally(bytes: &[u8], tallies: &mut [Tally; CANDIDATES.len()]) {
    let mut out = [0u8; 1024];
    let Ok(dst) = std::str::from_utf8_mut(&mut out) else {
        return;
    };
    let mut add = |text: &[u8]| {
        for (tally, &(encoding, script)) in tallies.iter_mut().zip(&CANDIDATES) {
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
    // The best two by points: (points, encoding, share, size).
    let mut best = (i64::MIN, WINDOWS_1252, 0.0f32, 0.0f32);
    let mut second = best;
    for (tally, &(encoding, _)) in tallies.iter().zip(&CANDIDATES) {
        let (points, share, size) = tally.score();
        if points > best.0 {
            second = best;
            best = (points, encoding, share, size);
        } else if points > second.0 {
            second = (points, encoding, share, size);
        }
    }
    let size = best.3.max(0.5);
    let per_char = |points: i64| points as f32 / size;
    if best.2 <= ratio {
        let mut utf8 = damaged_utf8(ratio);
        utf8.confidence = ratio - best.2;
        utf8.weighed = Some(Weighed {
            score: ratio * 8.0,
            runner_up: best.1,
            runner_up_score: per_char(best.0),
        });
        return utf8;
    }
    // The margin over the runner-up, per character, against the most a
    // character can score; times how much text there is to judge by (a
    // few characters prove little); no more than the margin over reading
    // the text as damaged UTF-8.
    let margin = ((best.0 - second.0.max(i64::MIN / 2)) as f32 / (8.0 * size)).clamp(0.0, 1.0);
    let evidence = 1.0 - (-size / 3.0).exp();
    let confidence = (margin * evidence).min(best.2 - ratio).max(0.0);
    Charset {
        encoding: best.1,
        source: CharsetSource::Detected,
        confidence,
        weighed: Some(Weighed {
            score: per_char(best.0),
            runner_up: second.1,
            runner_up_score: per_char(second.0),
        }),
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

/// Non-ASCII bytes inside well-formed UTF-8 sequences, those inside
/// damaged ones ([`damaged_sequence`]), and all non-ASCII bytes. An
/// ill-formed sequence that is not damaged that way counts as
/// [`std::str::Utf8Error`] measures it (its longest prefix that could
/// start a character, at least one byte), and the bytes after it are
/// looked at afresh.
fn utf8_share(bytes: &[u8]) -> (usize, usize, usize) {
    let (mut valid, mut damaged, mut total) = (0, 0, 0);
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
        if ok {
            valid += len;
            total += len;
            i += len;
        } else if let Some((len, high)) = damaged_sequence(bytes, i) {
            damaged += high;
            total += high;
            i += len;
        } else {
            total += len;
            i += len;
        }
    }
    (valid, damaged, total)
}

/// The UTF-8 sequence at `i` (not well formed) when it is damaged the way
/// the Fox server's exporter damages text: a lead byte whose continuation
/// bytes are there but some of them replaced by `?`
/// (`\xe6\xb0?`), or cut by the `]` that ends the value (a name cut at a
/// fixed byte width, `\xe5\xb8\xb8\xe5]`). Its length (up to the `]`)
/// and how many of its bytes are outside ASCII. No legacy charset puts a
/// `?` after a byte that starts a character, so this is a sign of UTF-8.
#[cold]
fn damaged_sequence(bytes: &[u8], i: usize) -> Option<(usize, usize)> {
    // Characters of three and four bytes only: the lead of a two-byte one
    // is too often the second byte of a legacy character before a `?`.
    let width = match bytes[i] {
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return None,
    };
    let mut high = 1;
    let mut replaced = false;
    for k in 1..width {
        match bytes.get(i + k) {
            Some(&b) if b & 0xc0 == 0x80 => high += 1,
            Some(b'?') => replaced = true,
            Some(b']') => return Some((k, high)),
            _ => return None,
        }
    }
    replaced.then_some((width, high))
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
    /// Simplified Chinese.
    Simplified,
    /// Traditional Chinese.
    Traditional,
    Japanese,
    Hangul,
    Latin,
    Cyrillic,
}

/// The legacy charsets [`detect`] weighs, each with its script.
const CANDIDATES: [(&Encoding, Script); 8] = [
    (GB18030, Script::Simplified),
    (BIG5, Script::Traditional),
    (SHIFT_JIS, Script::Japanese),
    (EUC_JP, Script::Japanese),
    (EUC_KR, Script::Hangul),
    (WINDOWS_1252, Script::Latin),
    (WINDOWS_1251, Script::Cyrillic),
    (KOI8_R, Script::Cyrillic),
];

/// One bit per character of [`SET_BASE`]…U+D7A3: the CJK symbols block,
/// the unified ideographs and the hangul syllables.
type CharSet = [u64; SET_BITS.div_ceil(64)];

/// The first character a [`CharSet`] covers: U+3000, the CJK symbols block
/// (`〇`).
const SET_BASE: u32 = 0x3000;

/// The characters a [`CharSet`] covers, to U+D7A3 (the last hangul
/// syllable).
const SET_BITS: usize = 0xd7a4 - SET_BASE as usize;

/// How common a character is in the text of a script: the tiers of
/// `common.rs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tier {
    /// Among the few hundred most frequent.
    Top,
    /// Among the next several hundred, or a Go term.
    Mid,
    /// Among the next few thousand.
    Low,
}

/// The three tiers of one script's common characters.
struct Tiers {
    top: CharSet,
    mid: CharSet,
    low: CharSet,
}

impl Tiers {
    const fn new(top: &str, mid: &str, low: &str) -> Tiers {
        Tiers {
            top: char_set(top),
            mid: char_set(mid),
            low: char_set(low),
        }
    }

    /// The tier of `c`, if it is common.
    #[inline]
    fn of(&self, c: char) -> Option<Tier> {
        let bit = (c as u32).checked_sub(SET_BASE)? as usize;
        if bit >= SET_BITS {
            return None;
        }
        let has = |set: &CharSet| set[bit / 64] & (1 << (bit % 64)) != 0;
        if has(&self.top) {
            Some(Tier::Top)
        } else if has(&self.mid) {
            Some(Tier::Mid)
        } else if has(&self.low) {
            Some(Tier::Low)
        } else {
            None
        }
    }
}

/// The common characters of simplified Chinese.
static SIMPLIFIED: Tiers = Tiers::new(
    common::SIMPLIFIED_TOP,
    common::SIMPLIFIED_MID,
    common::SIMPLIFIED_LOW,
);
/// The common characters of traditional Chinese.
static TRADITIONAL: Tiers = Tiers::new(
    common::TRADITIONAL_TOP,
    common::TRADITIONAL_MID,
    common::TRADITIONAL_LOW,
);
/// The common kanji of Japanese.
static KANJI: Tiers = Tiers::new(common::KANJI_TOP, common::KANJI_MID, common::KANJI_LOW);
/// The common hangul syllables of Korean: real Korean text is mostly made
/// of them, while the bytes of Chinese text read as EUC-KR give syllables
/// of all of KS X 1001's 2,350, most of them rare.
static HANGUL: Tiers = Tiers::new(common::HANGUL_TOP, common::HANGUL_MID, common::HANGUL_LOW);

/// `chars` (three-byte UTF-8 characters from [`SET_BASE`] on) as one bit
/// per character, built at compile time: a lookup instead of a search of
/// the string for each character scored.
const fn char_set(chars: &str) -> CharSet {
    let mut set = [0u64; SET_BITS.div_ceil(64)];
    let bytes = chars.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        assert!(
            bytes[i] & 0xf0 == 0xe0,
            "the tables hold only U+0800..U+FFFF"
        );
        let c = ((bytes[i] as u32 & 0x0f) << 12)
            | ((bytes[i + 1] as u32 & 0x3f) << 6)
            | (bytes[i + 2] as u32 & 0x3f);
        assert!(
            c >= SET_BASE && ((c - SET_BASE) as usize) < SET_BITS,
            "a table is CJK or hangul"
        );
        let bit = (c - SET_BASE) as usize;
        set[bit / 64] |= 1 << (bit % 64);
        i += 3;
    }
    set
}

/// What a character outside ASCII says for a candidate: a character of its
/// script (with how common), or another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Evidence {
    /// A common character of the script, of that tier.
    Common(Tier),
    /// Punctuation, kana, or a letter of an alphabetic script where it
    /// belongs.
    Plain,
    /// Any other character.
    Other,
}

/// What `c` says for `script`; `beside_letter` tells whether an ASCII
/// letter stands next to it (Latin accented letters sit inside words,
/// while CJK text misread as Windows-1252 gives long runs of them).
fn evidence(c: char, script: Script, beside_letter: bool) -> Evidence {
    // CJK punctuation and full-width forms, but not the half-width katakana
    // (U+FF61…) that Big5 or GBK bytes turn into when read as Shift_JIS.
    let cjk_punctuation = matches!(c, '\u{3000}'..='\u{303f}' | '\u{ff01}'..='\u{ff5e}');
    let tiers = match script {
        Script::Simplified => &SIMPLIFIED,
        Script::Traditional => &TRADITIONAL,
        Script::Japanese if matches!(c, '\u{3041}'..='\u{30fe}') => return Evidence::Plain,
        Script::Japanese => &KANJI,
        // Korean text writes Sino-Korean words (and Go ranks, `9段`) in
        // hanja, traditional forms.
        Script::Hangul if matches!(c, '\u{4e00}'..='\u{9fff}') => &TRADITIONAL,
        Script::Hangul => &HANGUL,
        Script::Latin | Script::Cyrillic => {
            return if script_char(c, script, beside_letter) {
                Evidence::Plain
            } else {
                Evidence::Other
            };
        }
    };
    match tiers.of(c) {
        Some(tier) => Evidence::Common(tier),
        None if cjk_punctuation => Evidence::Plain,
        None => Evidence::Other,
    }
}

/// Whether `c` is a letter of an alphabetic `script` where it belongs;
/// `beside_letter` tells whether an ASCII letter stands next to it.
fn script_char(c: char, script: Script, beside_letter: bool) -> bool {
    match script {
        Script::Latin => {
            beside_letter && matches!(c, '\u{c0}'..='\u{ff}') && c != '\u{d7}' && c != '\u{f7}'
        }
        // Lower-case letters inside Cyrillic words, not next to Latin ones
        // (where an accented Latin letter read in the wrong charset would
        // sit): running text is mostly lower case, and KOI8-R and
        // Windows-1251 put the two cases the other way round.
        Script::Cyrillic => !beside_letter && matches!(c, '\u{430}'..='\u{44f}' | '\u{451}'),
        _ => false,
    }
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
    /// The evidence of its characters, added up: common characters count
    /// for it, the more the more common, others and bytes it cannot
    /// decode against it (see [`Tally::count`]).
    points: i64,
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

    /// Counts `c`, with the characters before and after it. Points per
    /// character, about in proportion to how much likelier it is in text
    /// of the script than in the bytes of another charset read in this
    /// one: a top-tier character 8, a middle-tier one, punctuation or kana
    /// 6, a bottom-tier one 2, a letter of an alphabetic script 3 (one
    /// byte); another character -1 a byte; a byte that cannot be decoded
    /// -20.
    fn count(&mut self, c: char, script: Script, prev: char, next: char) {
        let beside_letter = prev.is_ascii_alphabetic() || next.is_ascii_alphabetic();
        let weight = if c.len_utf8() >= 3 { 2 } else { 1 };
        if c == '\u{fffd}' {
            self.errors += 1;
            self.points -= 20;
            return;
        }
        let points = match evidence(c, script, beside_letter) {
            Evidence::Common(Tier::Top) => 8,
            Evidence::Common(Tier::Mid) => 6,
            Evidence::Common(Tier::Low) => 2,
            Evidence::Plain if weight == 2 => 6,
            // Less than half a common character: CJK bytes read as Cyrillic
            // or Latin letters give as many of them as bytes.
            Evidence::Plain => 3,
            Evidence::Other => {
                self.other += weight;
                self.points -= weight as i64;
                return;
            }
        };
        self.plausible += weight;
        self.points += points;
    }

    /// The points (higher is better), the share of plausible characters
    /// among the non-ASCII ones, and how many characters of two bytes the
    /// text outside ASCII amounts to.
    fn score(&self) -> (i64, f32, f32) {
        let total = (self.errors + self.plausible + self.other).max(1);
        (
            self.points,
            self.plausible as f32 / total as f32,
            total as f32 / 2.0,
        )
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
