//! Where a value ends: byte by byte, or a character at a time for the
//! charsets whose second bytes can be `\\` or `]`.

use super::*;

/// Whether what follows a `]` at `at` looks like SGF, after whitespace: the
/// end of the input, one of `[` `;` `(` `)`, or a property identifier
/// (letters with at least one upper-case letter) followed by one of those or
/// the end. Used for a `]` that could also be text (see [`scan_value`]).
#[inline(always)]
pub(crate) fn closes_value(input: &[u8], at: usize) -> bool {
    let mut i = at + 1;
    let limit = input.len().min(at + 1 + LOOKAHEAD);
    while i < limit && is_space(input[i]) {
        i += 1;
    }
    if i == limit && limit < input.len() {
        // Only whitespace as far as a decision looks: text.
        return false;
    }
    match input.get(i) {
        None | Some(b';' | b'[' | b'(' | b')') => true,
        Some(b'A'..=b'Z') => match input.get(i + 1) {
            Some(b'[') => true,
            Some(b'A'..=b'Z') if input.get(i + 2) == Some(&b'[') => true,
            _ => looks_like_ident(input, i),
        },
        Some(_) => looks_like_ident(input, i),
    }
}

/// How value bytes are read: byte by byte, or, for a charset where the
/// second byte of a character may be `\` or `]` (Shift_JIS, Big5, GBK,
/// GB18030), a character at a time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) enum ValueMode {
    /// Every byte stands for itself (UTF-8, the ISO-8859 family, EUC-*, …).
    #[default]
    Bytes,
    /// Shift_JIS: bytes 0x81–0x9F and 0xE0–0xFC start a two-byte character.
    ShiftJis,
    /// Big5, GBK, GB18030: bytes 0x81–0xFE start a two-byte character (a
    /// four-byte GB18030 character is two such pairs).
    DoubleByte,
}

impl ValueMode {
    /// The mode a value in `encoding` needs.
    pub(crate) fn for_encoding(encoding: &'static encoding_rs::Encoding) -> ValueMode {
        if encoding == encoding_rs::SHIFT_JIS {
            ValueMode::ShiftJis
        } else if crate::text::charset::is_ascii_unsafe(encoding) {
            ValueMode::DoubleByte
        } else {
            ValueMode::Bytes
        }
    }

    #[inline(always)]
    pub(crate) fn is_lead(self, b: u8) -> bool {
        match self {
            ValueMode::Bytes => false,
            ValueMode::ShiftJis => matches!(b, 0x81..=0x9f | 0xe0..=0xfc),
            ValueMode::DoubleByte => matches!(b, 0x81..=0xfe),
        }
    }
}

/// Where a value ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ValueEnd {
    /// Offset one past the value's last byte (its `]` when closed).
    pub(crate) content_end: usize,
    /// Offset where lexing resumes.
    pub(crate) resume: usize,
    /// Whether the value was cut off (by the end of the input or the start
    /// of the next game) instead of closed by its `]`.
    pub(crate) cut: bool,
}

impl ValueEnd {
    #[inline(always)]
    fn closed(at: usize) -> ValueEnd {
        ValueEnd {
            content_end: at,
            resume: at + 1,
            cut: false,
        }
    }
    #[inline(always)]
    fn cut(at: usize, resume: usize) -> ValueEnd {
        ValueEnd {
            content_end: at,
            resume,
            cut: true,
        }
    }
}

/// Finds the end of the value whose `[` is at `open`. The scanner must be
/// positioned just after `open`; it is left at `resume`.
///
/// A `]` ends the value unless the value holds an unescaped `[` not yet
/// matched *and* what follows the `]` does not look like SGF
/// ([`closes_value`]): brackets in text come in pairs
/// (`US[Matsuyama[3d]]`, `C[see [this] and that]`), while a lone `]`
/// followed by junk is the end of the value and the junk is junk.
#[inline(always)]
pub(crate) fn scan_value<'src, T: Structurals<'src>, S: Sink>(
    scanner: &mut T,
    open: usize,
    sink: &mut S,
) -> ValueEnd {
    let input = scanner.input();
    let mut open_brackets = 0u32;
    loop {
        let Some(at) = scanner.next() else {
            sink.warn(WarningKind::UnclosedValue, open);
            return ValueEnd::cut(input.len(), input.len());
        };
        match input[at] {
            b']' => {
                if open_brackets == 0 || closes_value(input, at) {
                    return ValueEnd::closed(at);
                }
                open_brackets -= 1;
                sink.warn(WarningKind::UnescapedBracket, at);
            }
            b'[' => open_brackets += 1,
            b'\\' => {
                if at + 1 >= input.len() {
                    // A lone `\` at the very end escapes nothing: it is left
                    // out so that the value can be written back closed.
                    sink.warn(WarningKind::UnclosedValue, open);
                    return ValueEnd::cut(at, input.len());
                }
                if input[at + 1] == b'(' && resync_point(input, at + 1) {
                    // A file cut right after a `\`, the next one appended.
                    sink.warn(WarningKind::UnclosedValue, open);
                    scanner.rewind(at + 1);
                    return ValueEnd::cut(at, at + 1);
                }
                if input[at + 1] == b']' && at > open + 1 && !input[at - 1].is_ascii() {
                    swallowed_property(input, open, at + 1, sink);
                }
                scanner.seek(at + 2);
            }
            b'(' if resync_point(input, at) => {
                sink.warn(WarningKind::UnclosedValue, open);
                scanner.rewind(at);
                return ValueEnd::cut(at, at);
            }
            _ => {}
        }
    }
}

/// Warns at the value opened at `open` when the `]` at `bracket`, escaped
/// by a `\` that follows a byte outside ASCII, is followed by what looks
/// like a property or a node: the `\` was likely the second byte of a
/// Shift_JIS, Big5 or GBK character and the `]` closed the value
/// ([`WarningKind::SwallowedProperty`]).
#[cold]
#[inline(never)]
fn swallowed_property<S: Sink>(input: &[u8], open: usize, bracket: usize, sink: &mut S) {
    let next = input
        .get(bracket + 1..)
        .unwrap_or_default()
        .iter()
        .take(LOOKAHEAD)
        .find(|&&b| !is_space(b))
        .copied();
    if matches!(next, Some(b';' | b'A'..=b'Z')) && closes_value(input, bracket) {
        sink.warn(WarningKind::SwallowedProperty, open);
    }
}

/// [`scan_value`] in the given mode.
#[inline(always)]
pub(crate) fn scan_value_in<'src, T: Structurals<'src>, S: Sink>(
    scanner: &mut T,
    open: usize,
    sink: &mut S,
    mode: ValueMode,
) -> ValueEnd {
    match mode {
        ValueMode::Bytes => scan_value(scanner, open, sink),
        _ => scan_value_chars(scanner, open, sink, mode),
    }
}

/// [`scan_value`] for a charset whose characters can hide `\` or `]` in
/// their second byte: walks the value a character at a time, so such a byte
/// is never taken for an escape or the end of the value.
#[inline(never)]
fn scan_value_chars<'src, T: Structurals<'src>, S: Sink>(
    scanner: &mut T,
    open: usize,
    sink: &mut S,
    mode: ValueMode,
) -> ValueEnd {
    let input = scanner.input();
    let mut open_brackets = 0u32;
    let mut i = open + 1;
    while i < input.len() {
        let b = input[i];
        if mode.is_lead(b) {
            if i + 1 >= input.len() {
                // A character cut in half at the very end: its lead byte is
                // left out, or written back it would swallow the `]`.
                sink.warn(WarningKind::UnclosedValue, open);
                scanner.seek(input.len());
                return ValueEnd::cut(i, input.len());
            }
            i += 2;
            continue;
        }
        match b {
            b']' => {
                if open_brackets == 0 || closes_value(input, i) {
                    scanner.seek(i + 1);
                    return ValueEnd::closed(i);
                }
                open_brackets -= 1;
                sink.warn(WarningKind::UnescapedBracket, i);
            }
            b'[' => open_brackets += 1,
            b'\\' => {
                if i + 1 >= input.len() {
                    sink.warn(WarningKind::UnclosedValue, open);
                    scanner.seek(input.len());
                    return ValueEnd::cut(i, input.len());
                }
                if input[i + 1] == b'(' && resync_point(input, i + 1) {
                    sink.warn(WarningKind::UnclosedValue, open);
                    scanner.seek(i + 1);
                    return ValueEnd::cut(i, i + 1);
                }
                i += 2;
                continue;
            }
            b'(' if resync_point(input, i) => {
                sink.warn(WarningKind::UnclosedValue, open);
                scanner.seek(i);
                return ValueEnd::cut(i, i);
            }
            _ => {}
        }
        i += 1;
    }
    sink.warn(WarningKind::UnclosedValue, open);
    scanner.seek(input.len());
    ValueEnd::cut(input.len(), input.len())
}

/// When the next token after `pos` is a `[` with no letters before it (a
/// further value of the same property), consumes the `[` and returns its
/// offset.
#[inline(always)]
pub(crate) fn next_value<'src, T: Structurals<'src>, S: Sink>(
    scanner: &mut T,
    pos: usize,
    sink: &mut S,
) -> Option<usize> {
    let input = scanner.input();
    let at = scanner.peek()?;
    if input[at] != b'[' {
        return None;
    }
    if at > pos {
        let gap = &input[pos..at];
        if gap.iter().any(u8::is_ascii_alphabetic) {
            return None;
        }
        if let Some(i) = gap.iter().position(|&b| !is_space(b)) {
            sink.warn(WarningKind::UnexpectedByte, pos + i);
        } else if let Some(i) = gap.iter().position(|&b| b == 0) {
            sink.warn(WarningKind::NulByte, pos + i);
        }
    }
    scanner.next();
    Some(at)
}
