//! Detection: a game's charset guessed from its bytes, as the module
//! docs of [`charset`](super) describe (valid UTF-8, damaged UTF-8, else
//! the best-scored legacy candidate).

use super::labels::is_ascii_unsafe;
use super::sample::{sample, SAMPLE_MAX};
use super::score::{Tally, CANDIDATES};
use super::utf8::{block_is_ascii, utf8_share, word_at, HIGH};
use super::{Charset, CharsetSource, Weighed};
use encoding_rs::{UTF_8, WINDOWS_1252};

/// The non-ASCII bytes from which text at least four in five of whose
/// non-ASCII bytes are in well-formed (or Fox-damaged) UTF-8 sequences is
/// taken for UTF-8 without weighing the legacy charsets.
pub(super) const MOSTLY_UTF8_MIN: usize = 16;

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
pub(super) fn detect_from_counts(bytes: &[u8], valid: usize, total: usize) -> Charset {
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
pub(super) fn utf8_counts(bytes: &[u8]) -> Option<(usize, usize)> {
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
pub(super) fn damaged_utf8(ratio: f32) -> Charset {
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
pub(super) fn tally(bytes: &[u8], tallies: &mut [Tally; CANDIDATES.len()]) {
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
pub(super) fn pick(tallies: &[Tally; CANDIDATES.len()], ratio: f32) -> Charset {
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

/// The position of the first byte of `bytes` outside ASCII, looking at
/// 32 bytes at a time.
#[inline]
pub(super) fn first_non_ascii(bytes: &[u8]) -> Option<usize> {
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
