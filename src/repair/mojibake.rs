//! Mojibake baked into UTF-8 text: text whose bytes were once decoded in
//! the wrong charset (windows-1252 / Latin-1) and saved as UTF-8, so that
//! `常昊` reads `å¸¸æ˜Š`. Reversed only when every step round-trips and
//! exactly one charset gives plausible text.

use super::plan::{Planner, Values};
use super::Repair;
use encoding_rs::{Encoding, BIG5, EUC_KR, GBK, SHIFT_JIS, UTF_8, WINDOWS_1252};
use std::borrow::Cow;

/// The charsets the original bytes may have been in, tried in this order.
const CANDIDATES: [&Encoding; 5] = [UTF_8, GBK, SHIFT_JIS, EUC_KR, BIG5];

/// The repaired text and the charset its bytes were really in, when `text`
/// is mojibake with one unambiguous reversal:
///
/// 1. every character of `text` that is not ASCII is one windows-1252
///    gives a byte for (as WHATWG maps it, every byte 0x80–0xFF has one;
///    Latin-1's C1 controls U+0080–U+009F count as their bytes too), so `text` encodes back to the bytes that were misread;
/// 2. those bytes decode without error in a candidate charset, and encode
///    back to the same bytes;
/// 3. the result is plausible for that charset: UTF-8 gives any text
///    without control characters; GBK and Big5 give Han characters
///    (and CJK punctuation, full-width forms), Shift_JIS Han and kana with
///    at least one kana, EUC-KR (its original
///    two-byte range only, not the UHC extension) Hangul with at least
///    one syllable; at
///    least two characters that are not ASCII (one for UTF-8), and every run of misread
///    characters pairs up (two bytes each in the double-byte charsets);
/// 4. UTF-8 passes (a double-encoded UTF-8 text is never valid by
///    chance: its bytes are too constrained), or exactly one of Shift_JIS
///    (with kana) and EUC-KR (with Hangul) does, or exactly one candidate
///    does. Han text that GBK and Big5 both read is left alone.
pub(crate) fn reverse(text: &str) -> Option<(String, &'static Encoding)> {
    if text.is_ascii() {
        return None;
    }
    let mut bytes = Vec::with_capacity(text.len());
    let mut encoder = WINDOWS_1252.new_encoder();
    let mut run = 0usize;
    let mut odd_run = false;
    for c in text.chars() {
        if c.is_ascii() {
            bytes.push(c as u8);
            odd_run |= run % 2 == 1;
            run = 0;
            continue;
        }
        // Latin-1's C1 controls, where windows-1252 has other characters.
        if ('\u{80}'..='\u{9f}').contains(&c) {
            bytes.push(c as u8);
            run += 1;
            continue;
        }
        let mut buf = [0u8; 4];
        let mut one = [0u8; 4];
        let (result, _, written) =
            encoder.encode_from_utf8_without_replacement(c.encode_utf8(&mut buf), &mut one, false);
        if result != encoding_rs::EncoderResult::InputEmpty || written != 1 || one[0] < 0x80 {
            return None;
        }
        bytes.push(one[0]);
        run += 1;
    }
    odd_run |= run % 2 == 1;
    let mut passed: Vec<(String, &'static Encoding)> = Vec::new();
    for encoding in CANDIDATES {
        if encoding != UTF_8 && odd_run {
            continue;
        }
        // EUC-KR proper (both bytes 0xA1–0xFE), not the UHC extension,
        // whose syllables would read Shift_JIS kana as Hangul.
        if encoding == EUC_KR && bytes.iter().any(|&b| (0x80..0xA1).contains(&b)) {
            continue;
        }
        let Some(decoded) = encoding.decode_without_bom_handling_and_without_replacement(&bytes)
        else {
            continue;
        };
        let (back, _, unmappable) = encoding.encode(&decoded);
        if unmappable || *back != *bytes || !plausible(&decoded, encoding) {
            continue;
        }
        if encoding == UTF_8 {
            return Some((decoded.into_owned(), UTF_8));
        }
        passed.push((decoded.into_owned(), encoding));
    }
    // Kana (Shift_JIS) and Hangul (EUC-KR) tell their charset; Han alone
    // fits GBK and Big5 alike.
    let telling = passed
        .iter()
        .filter(|(_, e)| *e == SHIFT_JIS || *e == EUC_KR)
        .count();
    if telling == 1 {
        return passed
            .into_iter()
            .find(|(_, e)| *e == SHIFT_JIS || *e == EUC_KR);
    }
    if passed.len() == 1 {
        return passed.pop();
    }
    None
}

/// Whether `text`, decoded in `encoding`, looks like text of that charset.
fn plausible(text: &str, encoding: &'static Encoding) -> bool {
    let mut wide = 0;
    let mut kana = 0;
    let mut hangul = 0;
    for c in text.chars() {
        if c.is_control() && !matches!(c, '\n' | '\r' | '\t') {
            return false;
        }
        if c.is_ascii() {
            continue;
        }
        wide += 1;
        let u = c as u32;
        let han = matches!(u, 0x4E00..=0x9FFF | 0x3400..=0x4DBF);
        let punct = matches!(u, 0x3000..=0x303F | 0xFF00..=0xFFEF);
        let is_kana = matches!(u, 0x3040..=0x30FF);
        let is_hangul = matches!(u, 0xAC00..=0xD7A3);
        kana += usize::from(is_kana);
        hangul += usize::from(is_hangul);
        let fits = if encoding == UTF_8 {
            true
        } else if encoding == SHIFT_JIS {
            han || punct || is_kana
        } else if encoding == EUC_KR {
            han || punct || is_hangul
        } else {
            han || punct
        };
        if !fits {
            return false;
        }
    }
    (wide >= 2 || (encoding == UTF_8 && wide >= 1))
        && (encoding != SHIFT_JIS || kana > 0)
        && (encoding != EUC_KR || hangul > 0)
}

impl<'t, 'src> Planner<'t, 'src> {
    /// `mojibake`: each of the text `values` of `ident` that reverses
    /// unambiguously (see [`reverse`]) read as it was; whether one was.
    pub(super) fn unmojibake(&mut self, ident: &str, values: &mut Values<'src>) -> bool {
        let mut changed = false;
        for (v, offset) in values {
            if v.is_ascii() || v.contains(&b'\\') {
                continue;
            }
            let Ok(s) = std::str::from_utf8(v) else {
                continue;
            };
            if let Some((fixed, charset)) = reverse(s) {
                let message = format!(
                    "{ident}: {} → {fixed} ({} text misread as windows-1252 and saved as UTF-8)",
                    self.show(v),
                    charset.name()
                );
                self.report(Repair::Mojibake, *offset, message);
                *v = Cow::Owned(fixed.into_bytes());
                changed = true;
            }
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` encoded in `encoding`, then misread as windows-1252.
    fn garble(text: &str, encoding: &'static Encoding) -> String {
        let (bytes, _, _) = encoding.encode(text);
        WINDOWS_1252
            .decode_without_bom_handling(&bytes)
            .0
            .into_owned()
    }

    #[test]
    fn double_encoded_utf8_is_reversed() {
        let bad = garble("常昊 vs 古力", UTF_8);
        assert_eq!(bad, "å¸¸æ˜Š vs å\u{8f}¤åŠ›");
        assert_eq!(reverse(&bad), Some(("常昊 vs 古力".to_owned(), UTF_8)));
        let bad = garble("José García", UTF_8);
        assert_eq!(reverse(&bad), Some(("José García".to_owned(), UTF_8)));
    }

    #[test]
    fn double_byte_charsets_only_when_one_fits() {
        // Kana: only Shift_JIS reads it as Japanese.
        let bad = garble("ひかるの碁", SHIFT_JIS);
        assert_eq!(reverse(&bad), Some(("ひかるの碁".to_owned(), SHIFT_JIS)));
        let bad = garble("이창호", EUC_KR);
        assert_eq!(reverse(&bad), Some(("이창호".to_owned(), EUC_KR)));
    }

    #[test]
    fn real_text_is_left_alone() {
        for text in ["José García", "Müller", "常昊", "plain", "Ñé", "日本棋院"] {
            assert_eq!(reverse(text), None, "{text}");
        }
    }
}
