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

mod arena;
pub mod charset;

pub use arena::Arena;
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
                if let Some(&d) = raw.get(i)
                    && (d == b'\n' || d == b'\r')
                    && d != c
                {
                    i += 1;
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

/// Decodes `raw` as Text (or SimpleText when `simple`) into `arena`:
/// borrowed from `raw` when nothing has to change, else written into the
/// arena. Otherwise as [`decode_text`] and [`decode_simple_text`], which
/// give the same text in a `Cow`.
///
/// ```
/// use sgf_grove::text::{decode_in, Arena};
/// use sgf_grove::encoding_rs::{SHIFT_JIS, UTF_8};
/// let arena = Arena::new();
/// let raw = b"plain";
/// let text = decode_in(raw, UTF_8, false, &arena);
/// assert_eq!((text, text.as_ptr()), ("plain", raw.as_ptr())); // borrowed
/// assert_eq!(decode_in(b"\x95\x5c\\]", SHIFT_JIS, true, &arena), "表]");
/// ```
pub fn decode_in<'a>(
    raw: &'a [u8],
    encoding: &'static Encoding,
    simple: bool,
    arena: &'a Arena,
) -> &'a str {
    decode_lazily(raw, || encoding, simple, arena)
}

/// [`decode_in`] with the encoding asked for only when the value is not
/// ASCII (ASCII reads the same in every charset), so that a game's
/// charset need not be found for ASCII text.
#[inline]
pub(crate) fn decode_lazily<'a>(
    raw: &'a [u8],
    encoding: impl FnOnce() -> &'static Encoding,
    simple: bool,
    arena: &'a Arena,
) -> &'a str {
    match plan(raw, encoding, simple) {
        Plan::Borrow(text) => text,
        Plan::Work(work) => decode_slow(raw, &work, simple, arena),
    }
}

#[cold]
#[inline(never)]
fn decode_slow<'a>(raw: &'a [u8], work: &Work, simple: bool, arena: &'a Arena) -> &'a str {
    let out = arena.bytes(work.max_len(raw));
    let len = work.run(raw, simple, out);
    let out: &'a [u8] = out;
    finish(&out[..len])
}

fn decode<'a>(raw: &'a [u8], encoding: &'static Encoding, simple: bool) -> Cow<'a, str> {
    match plan(raw, || encoding, simple) {
        Plan::Borrow(text) => Cow::Borrowed(text),
        Plan::Work(work) => {
            let mut out = vec![0; work.max_len(raw)];
            let len = work.run(raw, simple, &mut out);
            out.truncate(len);
            Cow::Owned(finish(&out).to_owned())
        }
    }
}

/// The decoded bytes as text: always valid UTF-8, since the decoder wrote
/// UTF-8 (or the input was) and [`normalise`] removes and replaces ASCII
/// bytes only.
fn finish(bytes: &[u8]) -> &str {
    simdutf8::basic::from_utf8(bytes).expect("decoded text is UTF-8")
}

/// What decoding a value takes.
enum Plan<'a> {
    /// Nothing: the value is its own text.
    Borrow(&'a str),
    /// Work on a copy.
    Work(Work),
}

/// How to decode a value that has to change.
enum Work {
    /// The value is valid UTF-8: copy it, then normalise.
    Normalise,
    /// Decode it with `encoding` (lossily), then normalise.
    Transcode(&'static Encoding),
}

impl Work {
    /// Room enough for the decoded value.
    fn max_len(&self, raw: &[u8]) -> usize {
        match self {
            Work::Normalise => raw.len(),
            Work::Transcode(encoding) => encoding
                .new_decoder_without_bom_handling()
                .max_utf8_buffer_length(raw.len())
                .expect("a value's length is far from overflowing"),
        }
    }

    /// Decodes `raw` into `out` (of [`Work::max_len`] bytes); the length
    /// written.
    fn run(&self, raw: &[u8], simple: bool, out: &mut [u8]) -> usize {
        let len = match self {
            Work::Normalise => {
                out[..raw.len()].copy_from_slice(raw);
                raw.len()
            }
            Work::Transcode(encoding) => {
                let mut decoder = encoding.new_decoder_without_bom_handling();
                let (_, read, written, _) = decoder.decode_to_utf8(raw, out, true);
                debug_assert_eq!(read, raw.len());
                written
            }
        };
        normalise(&mut out[..len], simple)
    }
}

/// What decoding `raw` takes. ASCII reads the same in every charset, so
/// `encoding` is asked for only for other bytes.
#[inline]
fn plan<'a>(raw: &'a [u8], encoding: impl FnOnce() -> &'static Encoding, simple: bool) -> Plan<'a> {
    let valid = simdutf8::basic::from_utf8(raw);
    let as_is = |text| {
        if needs_work(raw, simple) {
            Plan::Work(Work::Normalise)
        } else {
            Plan::Borrow(text)
        }
    };
    if let Ok(text) = valid
        && text.is_ascii()
    {
        return as_is(text);
    }
    match (valid, encoding()) {
        (Ok(text), encoding) if encoding == UTF_8 => as_is(text),
        // Damaged UTF-8 is decoded lossily, U+FFFD for each bad sequence;
        // other charsets are transcoded.
        (_, encoding) => Plan::Work(Work::Transcode(encoding)),
    }
}

/// Whether UTF-8 text has escapes, CR (part of a line break to normalise),
/// or whitespace other than space and LF (which both text types turn into
/// spaces); for SimpleText, LF too.
#[inline]
fn needs_work(bytes: &[u8], simple: bool) -> bool {
    // Without an early exit, so that the loop vectorises.
    bytes.iter().fold(false, |found, &b| {
        found | (b == b'\\') | matches!(b, b'\t' | 0x0b | 0x0c | b'\r') | (simple & (b == b'\n'))
    })
}

/// Removes escapes and soft line breaks from decoded text in place and
/// normalises line breaks (to LF for Text, a space for SimpleText) and
/// other whitespace (to a space); the new length. Works on bytes: every
/// byte it looks at is ASCII, and the bytes of other characters are copied
/// as they are.
fn normalise(buf: &mut [u8], simple: bool) -> usize {
    let n = buf.len();
    let (mut r, mut w) = (0, 0);
    // The partner of a line break byte, consumed with it (CRLF, LFCR).
    let partner = |buf: &[u8], at: usize, brk: u8| {
        usize::from(at < n && matches!(buf[at], b'\n' | b'\r') && buf[at] != brk)
    };
    while r < n {
        let b = buf[r];
        match b {
            b'\\' => match buf.get(r + 1).copied() {
                None => r += 1,
                Some(brk @ (b'\n' | b'\r')) => {
                    // A soft line break: removed.
                    r += 2;
                    r += partner(buf, r, brk);
                }
                Some(escaped) => {
                    buf[w] = space_for_blank(escaped);
                    w += 1;
                    r += 2;
                }
            },
            b'\n' | b'\r' => {
                r += 1;
                r += partner(buf, r, b);
                buf[w] = if simple { b' ' } else { b'\n' };
                w += 1;
            }
            other => {
                buf[w] = space_for_blank(other);
                w += 1;
                r += 1;
            }
        }
    }
    w
}

/// Tab, vertical tab and form feed become a space, as both text types
/// require.
#[inline]
fn space_for_blank(b: u8) -> u8 {
    if matches!(b, b'\t' | 0x0b | 0x0c) {
        b' '
    } else {
        b
    }
}

/// `text` for a message: at most 40 characters (then `…`), control
/// characters escaped, so that a value of any length or content reads as
/// one short line.
pub(crate) fn for_message(text: &str) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == 40 {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
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
