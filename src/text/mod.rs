//! Turning raw values into text: charsets, SGF escapes and line breaks.
//!
//! Values stay raw, escaped `&[u8]` slices in the tree; these functions
//! decode on request and borrow whenever nothing needs to change: a value
//! that is valid UTF-8 (checked with `simdutf8`), has no escape and, for
//! [`decode_simple_text`], no whitespace but spaces, comes back as a
//! borrowed `&str` of the input.
//!
//! Decoding goes charset first, escapes second: in Shift_JIS, Big5 and GBK the
//! second byte of a character can be `\` (0x5C), which must not be read as an
//! escape. See [`charset`] for how a game's charset is found.

pub mod charset;

pub use charset::{Charset, CharsetSource};

use encoding_rs::{Encoding, UTF_8};
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

/// Decodes a raw value of type Text: charset `encoding`, escapes removed,
/// soft line breaks (`\` + line break) removed, every other line break (LF,
/// CR, CRLF, LFCR) normalised to `\n`, other whitespace (tab, vertical tab,
/// form feed) turned into spaces. Bytes that `encoding` cannot decode
/// become U+FFFD.
///
/// ```
/// use sgf_grove::text::decode_text;
/// use encoding_rs::UTF_8;
/// assert_eq!(decode_text(b"one\r\ntwo \\] th\\\nree", UTF_8), "one\ntwo ] three");
/// assert!(matches!(decode_text(b"plain", UTF_8), std::borrow::Cow::Borrowed("plain")));
/// ```
pub fn decode_text<'a>(raw: &'a [u8], encoding: &'static Encoding) -> Cow<'a, str> {
    decode(raw, encoding, false)
}

/// Decodes a raw value of type SimpleText: like [`decode_text`], but every
/// line break and other whitespace character becomes a space (a CRLF or LFCR
/// pair one space).
///
/// ```
/// use sgf_grove::text::decode_simple_text;
/// use encoding_rs::{SHIFT_JIS, UTF_8};
/// assert_eq!(decode_simple_text(b"Lee\r\nSedol\tjr", UTF_8), "Lee Sedol jr");
/// // 0x95 0x5C is one Shift_JIS character whose second byte is `\`.
/// assert_eq!(decode_simple_text(b"\x95\x5c\x8e\xa6", SHIFT_JIS), "表示");
/// ```
pub fn decode_simple_text<'a>(raw: &'a [u8], encoding: &'static Encoding) -> Cow<'a, str> {
    decode(raw, encoding, true)
}

fn decode<'a>(raw: &'a [u8], encoding: &'static Encoding, simple: bool) -> Cow<'a, str> {
    let decoded: Cow<'a, str> = if encoding == UTF_8 || raw.is_ascii() {
        match simdutf8::basic::from_utf8(raw) {
            Ok(s) => Cow::Borrowed(s),
            Err(_) => String::from_utf8_lossy(raw),
        }
    } else {
        encoding.decode_without_bom_handling(raw).0
    };
    // Escapes, CR (part of a line break to normalise), and whitespace other
    // than space and LF (which both text types turn into spaces).
    let needs_work = decoded
        .bytes()
        .any(|b| matches!(b, b'\\' | b'\r' | b'\t' | 0x0b | 0x0c) || (simple && b == b'\n'));
    if !needs_work {
        return decoded;
    }
    Cow::Owned(unescape_str(&decoded, simple))
}

/// Removes escapes and soft line breaks from decoded text and normalises
/// line breaks (Text) or whitespace (SimpleText).
fn unescape_str(s: &str, simple: bool) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(brk @ ('\n' | '\r')) => {
                    // A soft line break: removed with its partner byte.
                    if let Some(&next) = chars.peek() {
                        if (next == '\n' || next == '\r') && next != brk {
                            chars.next();
                        }
                    }
                }
                Some(escaped) => push_char(&mut out, escaped),
                None => {}
            },
            '\n' | '\r' => {
                if let Some(&next) = chars.peek() {
                    if (next == '\n' || next == '\r') && next != c {
                        chars.next();
                    }
                }
                out.push(if simple { ' ' } else { '\n' });
            }
            other => push_char(&mut out, other),
        }
    }
    out
}

/// Pushes `c`, turning whitespace other than line breaks (tab, vertical
/// tab, form feed) into a space, as both text types require.
#[inline]
fn push_char(out: &mut String, c: char) {
    if matches!(c, '\t' | '\u{b}' | '\u{c}') {
        out.push(' ');
    } else {
        out.push(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn text_normalises_line_breaks() {
        for brk in [&b"\n"[..], b"\r", b"\r\n", b"\n\r"] {
            let mut raw = b"a".to_vec();
            raw.extend_from_slice(brk);
            raw.extend_from_slice(b"b");
            assert_eq!(decode_text(&raw, UTF_8), "a\nb", "{brk:?}");
            assert_eq!(decode_simple_text(&raw, UTF_8), "a b", "{brk:?}");
        }
        assert_eq!(decode_text(b"a\\\r\nb\\:c", UTF_8), "ab:c");
        assert_eq!(decode_text(b"tab\tgone", UTF_8), "tab gone");
        assert_eq!(decode_simple_text(b"tab\tgone", UTF_8), "tab gone");
    }

    #[test]
    fn text_borrows_when_nothing_changes() {
        assert!(matches!(
            decode_text(b"caf\xc3\xa9 ok", UTF_8),
            Cow::Borrowed(_)
        ));
        assert!(matches!(
            decode_simple_text(b"ascii", encoding_rs::SHIFT_JIS),
            Cow::Borrowed(_)
        ));
        assert!(matches!(decode_text(b"a\\]b", UTF_8), Cow::Owned(_)));
    }

    #[test]
    fn damaged_utf8_decodes_lossily() {
        assert_eq!(decode_simple_text(b"\xe5\xb8\xb8\xe5", UTF_8), "常\u{fffd}");
    }

    #[test]
    fn escapes_and_plain_breaks() {
        assert_eq!(unescape(br"\\\]\:"), &br"\]:"[..]);
        assert_eq!(unescape(b"a\r\nb"), &b"a\r\nb"[..]);
        assert_eq!(unescape(b"trailing\\"), &b"trailing"[..]);
    }
}
