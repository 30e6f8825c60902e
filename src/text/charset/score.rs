//! Scoring the legacy candidates: each decodes the bytes, and malformed
//! sequences count against it, the common characters of its script
//! (`common.rs`) for it.

use encoding_rs::{
    Encoding, BIG5, EUC_JP, EUC_KR, GB18030, KOI8_R, SHIFT_JIS, WINDOWS_1251, WINDOWS_1252,
};

/// The script a candidate encoding stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Script {
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
pub(super) const CANDIDATES: [(&Encoding, Script); 8] = [
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
pub(super) type CharSet = [u64; SET_BITS.div_ceil(64)];

/// The first character a [`CharSet`] covers: U+3000, the CJK symbols block
/// (`〇`).
pub(super) const SET_BASE: u32 = 0x3000;

/// The characters a [`CharSet`] covers, to U+D7A3 (the last hangul
/// syllable).
pub(super) const SET_BITS: usize = 0xd7a4 - SET_BASE as usize;

/// How common a character is in the text of a script: the tiers of
/// `common.rs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tier {
    /// Among the few hundred most frequent.
    Top,
    /// Among the next several hundred, or a Go term.
    Mid,
    /// Among the next few thousand.
    Low,
}

/// The three tiers of one script's common characters.
pub(super) struct Tiers {
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
pub(super) static SIMPLIFIED: Tiers = Tiers::new(
    super::common::SIMPLIFIED_TOP,
    super::common::SIMPLIFIED_MID,
    super::common::SIMPLIFIED_LOW,
);

/// The common characters of traditional Chinese.
pub(super) static TRADITIONAL: Tiers = Tiers::new(
    super::common::TRADITIONAL_TOP,
    super::common::TRADITIONAL_MID,
    super::common::TRADITIONAL_LOW,
);

/// The common kanji of Japanese.
pub(super) static KANJI: Tiers = Tiers::new(
    super::common::KANJI_TOP,
    super::common::KANJI_MID,
    super::common::KANJI_LOW,
);

/// The common hangul syllables of Korean: real Korean text is mostly made
/// of them, while the bytes of Chinese text read as EUC-KR give syllables
/// of all of KS X 1001's 2,350, most of them rare.
pub(super) static HANGUL: Tiers = Tiers::new(
    super::common::HANGUL_TOP,
    super::common::HANGUL_MID,
    super::common::HANGUL_LOW,
);

/// `chars` (three-byte UTF-8 characters from [`SET_BASE`] on) as one bit
/// per character, built at compile time: a lookup instead of a search of
/// the string for each character scored.
pub(super) const fn char_set(chars: &str) -> CharSet {
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
pub(super) enum Evidence {
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
pub(super) fn evidence(c: char, script: Script, beside_letter: bool) -> Evidence {
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
pub(super) fn script_char(c: char, script: Script, beside_letter: bool) -> bool {
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
pub(super) struct Tally {
    /// Bytes it cannot decode (U+FFFD).
    pub(super) errors: usize,
    /// Characters of its script, and the others, each weighed by the bytes
    /// it stands for in a legacy encoding: two for CJK, one for the rest,
    /// so that two Cyrillic letters do not outweigh the one hanzi their
    /// bytes also make.
    pub(super) plausible: usize,
    pub(super) other: usize,
    /// The evidence of its characters, added up: common characters count
    /// for it, the more the more common, others and bytes it cannot
    /// decode against it (see [`Tally::count`]).
    pub(super) points: i64,
}

impl Tally {
    /// Decodes `text` (regions that start and end where every candidate
    /// decoder is between characters) with `encoding` into `dst`, a piece
    /// at a time, and counts its characters outside ASCII, each with the
    /// characters on either side (Latin accented letters sit inside words,
    /// while CJK text misread as Windows-1252 gives long runs of them).
    pub(super) fn add(
        &mut self,
        text: &[u8],
        encoding: &'static Encoding,
        script: Script,
        dst: &mut str,
    ) {
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
    pub(super) fn count(&mut self, c: char, script: Script, prev: char, next: char) {
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
    pub(super) fn score(&self) -> (i64, f32, f32) {
        let total = (self.errors + self.plausible + self.other).max(1);
        (
            self.points,
            self.plausible as f32 / total as f32,
            total as f32 / 2.0,
        )
    }
}
