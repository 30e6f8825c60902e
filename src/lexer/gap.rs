//! What stands between two structural bytes: whitespace, an identifier,
//! junk.

use super::*;

/// Whitespace between tokens: ASCII whitespace and NUL (which is also
/// reported, see [`WarningKind::NulByte`]).
#[inline(always)]
pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t' | 0x0b | 0x0c | 0)
}

/// Whether `input[i..]` starts with a property identifier and `[`: letters
/// (at least one upper-case, whitespace allowed between them, as
/// [`WarningKind::WhitespaceInIdent`] forgives), optional whitespace, `[`.
#[inline(never)]
pub(crate) fn looks_like_ident_then_value(input: &[u8], i: usize) -> bool {
    ident_end(input, i).is_some_and(|end| input.get(end) == Some(&b'['))
}

/// Like [`looks_like_ident_then_value`], but the identifier may also be
/// followed by `;`, `(`, `)` or the end of the input (an identifier whose
/// value is missing).
#[inline(never)]
pub(crate) fn looks_like_ident(input: &[u8], i: usize) -> bool {
    ident_end(input, i)
        .is_some_and(|end| matches!(input.get(end), None | Some(b'[' | b';' | b'(' | b')')))
}

/// When `input[i..]` starts with letters (at least one upper-case,
/// whitespace allowed between them), the offset after them and any
/// whitespace that follows.
pub(crate) fn ident_end(input: &[u8], mut i: usize) -> Option<usize> {
    if !input.get(i).is_some_and(u8::is_ascii_alphabetic) {
        return None;
    }
    let mut upper = false;
    // Looking further than `LOOKAHEAD` bytes is no identifier.
    let limit = input.len().min(i + LOOKAHEAD);
    while let Some(&b) = input[..limit].get(i) {
        if b.is_ascii_alphabetic() {
            upper |= b.is_ascii_uppercase();
        } else if !is_space(b) {
            break;
        }
        i += 1;
    }
    if i == limit && limit < input.len() {
        return None;
    }
    upper.then_some(i)
}

/// The first offset at or after `i` that is not whitespace.
#[inline]
pub(crate) fn skip_space(input: &[u8], mut i: usize) -> usize {
    while i < input.len() && is_space(input[i]) {
        i += 1;
    }
    i
}

/// What lies between two structural bytes where an identifier may stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Gap {
    /// The identifier's raw bytes (first letter to last letter), if any.
    pub(crate) ident: Option<(usize, usize)>,
    /// Whether the identifier is all upper-case letters, no whitespace.
    pub(crate) clean: bool,
}

/// Reads the bytes `input[from..to]` between two tokens, reporting what is not
/// whitespace or an identifier.
#[inline(always)]
pub(crate) fn read_gap<S: Sink>(input: &[u8], from: usize, to: usize, sink: &mut S) -> Gap {
    let mut from = from;
    // Fast path: nothing, or one or two upper-case letters, maybe after
    // a few spaces or line breaks.
    while from < to && matches!(input[from], b' ' | b'\n' | b'\r' | b'\t') {
        from += 1;
    }
    let gap = &input[from..to];
    match gap {
        [] => {
            return Gap {
                ident: None,
                clean: true,
            }
        }
        [b'A'..=b'Z'] | [b'A'..=b'Z', b'A'..=b'Z'] => {
            return Gap {
                ident: Some((from, to)),
                clean: true,
            }
        }
        _ => {}
    }
    read_gap_slow(input, from, to, sink)
}

#[inline(never)]
fn read_gap_slow<S: Sink>(input: &[u8], from: usize, to: usize, sink: &mut S) -> Gap {
    let gap = &input[from..to];
    // The identifier is the last run of letters and inner whitespace;
    // whatever stands before it that is neither is junk.
    let mut end = gap.len();
    while end > 0 && is_space(gap[end - 1]) {
        end -= 1;
    }
    let mut start = end;
    while start > 0 && (gap[start - 1].is_ascii_alphabetic() || is_space(gap[start - 1])) {
        start -= 1;
    }
    while start < end && is_space(gap[start]) {
        start += 1;
    }
    let mut nul_reported = false;
    for (i, &b) in gap[..start].iter().enumerate() {
        if b == 0 {
            if !nul_reported {
                sink.warn(WarningKind::NulByte, from + i);
                nul_reported = true;
            }
        } else if !is_space(b) {
            sink.warn(WarningKind::UnexpectedByte, from + i);
            break;
        }
    }
    if let Some(i) = gap[end..].iter().position(|&b| b == 0)
        && !nul_reported
    {
        sink.warn(WarningKind::NulByte, from + end + i);
    }
    if start == end {
        return Gap {
            ident: None,
            clean: true,
        };
    }
    let ident = &gap[start..end];
    let clean = ident.iter().all(u8::is_ascii_uppercase);
    // An identifier without upper-case letters is dropped as a whole
    // (`InvalidIdent`): its spelling needs no warning of its own.
    if !clean && has_upper(ident) {
        if ident.iter().any(|&b| is_space(b)) {
            sink.warn(WarningKind::WhitespaceInIdent, from + start);
        }
        if ident.iter().any(u8::is_ascii_lowercase) {
            sink.warn(WarningKind::LowercaseInIdent, from + start);
        }
    }
    Gap {
        ident: Some((from + start, from + end)),
        clean,
    }
}

/// Reports letters followed by no value: a property identifier whose value
/// is missing, or, without an upper-case letter, stray text.
#[cold]
pub(crate) fn dangling_ident<S: Sink>(input: &[u8], (start, end): (usize, usize), sink: &mut S) {
    if has_upper(&input[start..end]) {
        sink.warn(WarningKind::MissingValue, start);
    } else {
        sink.warn(WarningKind::UnexpectedByte, start);
    }
}

/// Whether a raw identifier holds at least one upper-case letter.
#[inline]
pub(crate) fn has_upper(raw: &[u8]) -> bool {
    raw.iter().any(u8::is_ascii_uppercase)
}
