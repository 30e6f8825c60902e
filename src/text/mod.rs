//! Turning raw values into text: SGF escapes and soft line breaks.
//!
//! Values stay raw, escaped `&[u8]` slices in the tree; these functions
//! unescape on request and borrow whenever nothing needs to change.

use std::borrow::Cow;

/// Removes SGF escapes from a raw value: `\x` becomes `x`, and `\` followed
/// by a line break (LF, CR, CRLF or LFCR) — a soft line break — is removed
/// entirely. Other line breaks are kept as they are. Borrows when the value
/// holds no `\`.
///
/// ```
/// use sgf_grove::text::unescape;
/// assert_eq!(unescape(br"a\]b\\c"), &br"a]b\c"[..]);
/// assert_eq!(unescape(b"one \\\r\ntwo"), &b"one two"[..]);
/// assert!(matches!(unescape(b"plain"), std::borrow::Cow::Borrowed(_)));
/// ```
pub fn unescape(raw: &[u8]) -> Cow<'_, [u8]> {
    let Some(first) = memchr::memchr(b'\\', raw) else {
        return Cow::Borrowed(raw);
    };
    let mut out = Vec::with_capacity(raw.len());
    out.extend_from_slice(&raw[..first]);
    let mut i = first;
    while i < raw.len() {
        let b = raw[i];
        if b != b'\\' {
            out.push(b);
            i += 1;
            continue;
        }
        match raw.get(i + 1) {
            None => i += 1,
            Some(&c @ (b'\n' | b'\r')) => {
                i += 2;
                if let Some(&d) = raw.get(i) {
                    if (d == b'\n' || d == b'\r') && d != c {
                        i += 1;
                    }
                }
            }
            Some(&c) => {
                out.push(c);
                i += 2;
            }
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::unescape;

    #[test]
    fn soft_line_breaks_of_every_kind() {
        for brk in [&b"\n"[..], b"\r", b"\r\n", b"\n\r"] {
            let mut raw = b"a\\".to_vec();
            raw.extend_from_slice(brk);
            raw.extend_from_slice(b"b");
            assert_eq!(unescape(&raw), &b"ab"[..], "{brk:?}");
        }
        // Two breaks after a backslash: only the first pair is soft.
        assert_eq!(unescape(b"a\\\n\nb"), &b"a\nb"[..]);
    }

    #[test]
    fn escapes_and_plain_breaks() {
        assert_eq!(unescape(br"\\\]\:"), &br"\]:"[..]);
        assert_eq!(unescape(b"a\r\nb"), &b"a\r\nb"[..]);
        assert_eq!(unescape(b"trailing\\"), &b"trailing"[..]);
    }
}
