//! The charsets `CA` labels name, and what each charset allows.

use encoding_rs::{Encoding, BIG5, GB18030, GBK, SHIFT_JIS, UTF_8, WINDOWS_1252};

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
