//! How much of a text is well-formed UTF-8, and the damaged sequences
//! (as the Fox server writes them) that still count as UTF-8.

/// Non-ASCII bytes inside well-formed UTF-8 sequences, those inside
/// damaged ones ([`damaged_sequence`]), and all non-ASCII bytes. An
/// ill-formed sequence that is not damaged that way counts as
/// [`std::str::Utf8Error`] measures it (its longest prefix that could
/// start a character, at least one byte), and the bytes after it are
/// looked at afresh.
pub(super) fn utf8_share(bytes: &[u8]) -> (usize, usize, usize) {
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
pub(super) fn damaged_sequence(bytes: &[u8], i: usize) -> Option<(usize, usize)> {
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
pub(super) const HIGH: u64 = 0x8080_8080_8080_8080;

/// The eight bytes of `bytes` from `at` as a word, when there are eight.
#[inline(always)]
pub(super) fn word_at(bytes: &[u8], at: usize) -> Option<u64> {
    let eight: [u8; 8] = bytes.get(at..at + 8)?.try_into().ok()?;
    Some(u64::from_le_bytes(eight))
}

/// Whether the 32 bytes of `bytes` from `at` (which must be there) are
/// ASCII.
#[inline(always)]
pub(super) fn block_is_ascii(bytes: &[u8], at: usize) -> bool {
    let word = |k: usize| word_at(bytes, at + k).unwrap_or(HIGH);
    (word(0) | word(8) | word(16) | word(24)) & HIGH == 0
}

/// The UTF-8 sequence that starts with the non-ASCII byte at `i`: its
/// length and whether it is well formed; when it is not, the length of its
/// longest prefix that could start a character (at least one byte).
#[inline]
pub(super) fn utf8_sequence(bytes: &[u8], i: usize) -> (usize, bool) {
    let cont = |b: u8| b & 0xc0 == 0x80;
    // Most text outside ASCII in game records: a character of three bytes
    // whose second byte may be any continuation byte.
    if let Some(&[a, b, c]) = bytes.get(i..i + 3)
        && matches!(a, 0xe1..=0xec | 0xee..=0xef)
        && cont(b)
        && cont(c)
    {
        return (3, true);
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
