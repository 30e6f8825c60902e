//! Stage one: finding structure in the bytes.
//!
//! The input is classified 64 bytes at a time into a bitmask of the six
//! structural bytes `(` `)` `;` `[` `]` `\` ([`classify`]). The [`Scanner`]
//! walks the set bits of that mask, so that dense move sequences
//! (`;B[pd];W[dd]`, one structural byte in every two or three) cost a few
//! instructions per token and long comments are skipped a block at a time.
//!
//! On top of the scanner, `scan_value` finds where a value ends (byte by
//! byte, or a character at a time for Shift_JIS, Big5 and GBK) and
//! `read_gap` reads what stands between two structural bytes (an
//! identifier, junk). The [event reader](crate::events) drives them, once
//! per input; nothing reads the input again after it. Property values are
//! borrowed slices of the input, still escaped.
//!
//! The byte-at-a-time twin of the scanner lives in [`mod@reference`]; the two are
//! compared by unit tests and by the `lexer_diff` fuzz target.

#[cfg(any(test, feature = "oracle"))]
pub(crate) mod reference;

use crate::error::WarningKind;

/// Receives the defects a lexer forgives. The read API passes [`NoSink`],
/// which compiles to nothing.
pub(crate) trait Sink {
    /// Records that `kind` was forgiven at `offset`.
    fn warn(&mut self, kind: WarningKind, offset: usize);
}

/// A [`Sink`] that discards everything.
#[cfg(any(test, feature = "oracle"))]
pub(crate) struct NoSink;

#[cfg(any(test, feature = "oracle"))]
impl Sink for NoSink {
    #[inline(always)]
    fn warn(&mut self, _: WarningKind, _: usize) {}
}

/// Whether `b` is one of the six structural bytes `(` `)` `;` `[` `]` `\`.
#[cfg(any(test, feature = "oracle"))]
#[inline(always)]
pub(crate) fn is_structural(b: u8) -> bool {
    matches!(b, b'(' | b')' | b';' | b'[' | b']' | b'\\')
}

/// Whitespace between tokens: ASCII whitespace and NUL (which is also
/// reported, see [`WarningKind::NulByte`]).
#[inline(always)]
pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t' | 0x0b | 0x0c | 0)
}

/// Bit `i` of the result is set when `block[i]` is a structural byte.
///
/// Written as a branch-free compare loop that packs eight flags at a time
/// with one multiplication, which the compiler turns into vector compares.
#[inline(always)]
pub(crate) fn classify(block: &[u8; 64]) -> u64 {
    let mut flags = [0u8; 64];
    for (flag, &b) in flags.iter_mut().zip(block.iter()) {
        *flag = ((b == b'(') | (b == b')') | (b == b';') | (b == b'[') | (b == b']') | (b == b'\\'))
            as u8;
    }
    let mut mask = 0u64;
    for (j, eight) in flags.chunks_exact(8).enumerate() {
        let word = u64::from_le_bytes([
            eight[0], eight[1], eight[2], eight[3], eight[4], eight[5], eight[6], eight[7],
        ]);
        // Each byte is 0 or 1; the multiplication moves byte k's bit to bit
        // 56 + k, with no carries between them.
        mask |= (word.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (j * 8);
    }
    mask
}

/// Walks the structural bytes of an input in order.
///
/// `mask` holds the structural bits of the 64-byte block at `block` for
/// offsets at or after the current position; bits before it are cleared.
#[derive(Clone, Debug)]
pub(crate) struct Scanner<'src> {
    input: &'src [u8],
    block: usize,
    mask: u64,
}

impl<'src> Scanner<'src> {
    /// A scanner positioned at `pos`.
    #[inline]
    pub(crate) fn new(input: &'src [u8], pos: usize) -> Scanner<'src> {
        let mut s = Scanner {
            input,
            block: usize::MAX,
            mask: 0,
        };
        s.seek(pos);
        s
    }

    /// The input this scanner walks.
    #[inline(always)]
    pub(crate) fn input(&self) -> &'src [u8] {
        self.input
    }

    #[inline(always)]
    fn load(&self, block: usize) -> u64 {
        match self.input.get(block..block + 64) {
            Some(bytes) => classify(bytes.try_into().expect("64 bytes")),
            None => {
                let mut pad = [b' '; 64];
                let tail = &self.input[block.min(self.input.len())..];
                pad[..tail.len()].copy_from_slice(tail);
                classify(&pad)
            }
        }
    }

    /// Moves to `pos` (forwards or backwards): the next structural byte
    /// reported is the first at or after `pos`.
    #[inline]
    pub(crate) fn seek(&mut self, pos: usize) {
        let block = pos & !63;
        if block != self.block {
            self.block = block;
            self.mask = if block < self.input.len() {
                self.load(block)
            } else {
                0
            };
        }
        let shift = pos - block;
        self.mask &= u64::MAX << shift;
    }

    /// Moves back to `pos`, at or before the current position, so that
    /// structural bytes already passed are reported again.
    #[inline]
    pub(crate) fn rewind(&mut self, pos: usize) {
        self.block = usize::MAX;
        self.seek(pos);
    }

    /// The offset of the next structural byte at or after the current
    /// position, or `None` at the end of the input. Does not move.
    #[inline(always)]
    pub(crate) fn peek(&mut self) -> Option<usize> {
        while self.mask == 0 {
            let next = self.block.wrapping_add(64);
            if next >= self.input.len() {
                return None;
            }
            self.block = next;
            self.mask = self.load(next);
        }
        Some(self.block + self.mask.trailing_zeros() as usize)
    }

    /// Like [`peek`](Scanner::peek), then moves past the byte found.
    #[inline(always)]
    pub(crate) fn next_structural(&mut self) -> Option<usize> {
        let at = self.peek()?;
        self.mask &= self.mask - 1;
        Some(at)
    }
}

/// A source of structural-byte offsets, in order: the block [`Scanner`] for
/// long runs (the tree builder), the [`ByteScanner`] for the few bytes of one
/// node (the read API re-lexing lazily).
pub(crate) trait Structurals<'src> {
    /// The input walked.
    fn input(&self) -> &'src [u8];
    /// The next structural byte at or after the current position, without
    /// moving; `None` at the end of the input.
    fn peek(&mut self) -> Option<usize>;
    /// Like `peek`, then moves past the byte found.
    fn next(&mut self) -> Option<usize>;
    /// Moves forward to `pos`.
    fn seek(&mut self, pos: usize);
    /// Moves back to `pos`, reporting bytes already passed again.
    fn rewind(&mut self, pos: usize);
}

impl<'src> Structurals<'src> for Scanner<'src> {
    #[inline(always)]
    fn input(&self) -> &'src [u8] {
        self.input
    }
    #[inline(always)]
    fn peek(&mut self) -> Option<usize> {
        Scanner::peek(self)
    }
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        Scanner::next_structural(self)
    }
    #[inline(always)]
    fn seek(&mut self, pos: usize) {
        Scanner::seek(self, pos)
    }
    #[inline(always)]
    fn rewind(&mut self, pos: usize) {
        Scanner::rewind(self, pos)
    }
}

impl<'src, T: Structurals<'src>> Structurals<'src> for &mut T {
    #[inline(always)]
    fn input(&self) -> &'src [u8] {
        (**self).input()
    }
    #[inline(always)]
    fn peek(&mut self) -> Option<usize> {
        (**self).peek()
    }
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        (**self).next()
    }
    #[inline(always)]
    fn seek(&mut self, pos: usize) {
        (**self).seek(pos)
    }
    #[inline(always)]
    fn rewind(&mut self, pos: usize) {
        (**self).rewind(pos)
    }
}

/// Finds structural bytes one byte at a time: cheaper than classifying a
/// 64-byte block when only a node's few bytes are read.
#[cfg(feature = "oracle")]
#[derive(Clone, Debug)]
pub(crate) struct ByteScanner<'src> {
    input: &'src [u8],
    pos: usize,
}

#[cfg(feature = "oracle")]
impl<'src> ByteScanner<'src> {
    /// A scanner positioned at `pos`.
    #[inline]
    pub(crate) fn new(input: &'src [u8], pos: usize) -> ByteScanner<'src> {
        ByteScanner { input, pos }
    }
}

#[cfg(feature = "oracle")]
impl<'src> Structurals<'src> for ByteScanner<'src> {
    #[inline(always)]
    fn input(&self) -> &'src [u8] {
        self.input
    }
    #[inline(always)]
    fn peek(&mut self) -> Option<usize> {
        let rest = self.input.get(self.pos..)?;
        let i = rest.iter().position(|&b| is_structural(b))?;
        self.pos += i;
        Some(self.pos)
    }
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        let at = self.peek()?;
        self.pos = at + 1;
        Some(at)
    }
    #[inline(always)]
    fn seek(&mut self, pos: usize) {
        self.pos = pos;
    }
    #[inline(always)]
    fn rewind(&mut self, pos: usize) {
        self.pos = pos;
    }
}

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
fn looks_like_ident(input: &[u8], i: usize) -> bool {
    ident_end(input, i)
        .is_some_and(|end| matches!(input.get(end), None | Some(b'[' | b';' | b'(' | b')')))
}

/// When `input[i..]` starts with letters (at least one upper-case,
/// whitespace allowed between them), the offset after them and any
/// whitespace that follows.
fn ident_end(input: &[u8], mut i: usize) -> Option<usize> {
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

/// How far past the byte being decided on any decision of the lexer looks
/// (an identifier after a `]`, the node after a `(` inside a value): a
/// reader over a stream keeps this much beyond what it has read.
pub(crate) const LOOKAHEAD: usize = 4096;

/// Whether the `(` at `at`, met inside a value, starts a new game that the
/// open one must give way to (a file cut off mid-value, the next one
/// appended). The node it opens (`(;`) holds a property only a root may
/// hold ([`opens_root_node`]), and the `(` stands at the start of a line
/// (after spaces or tabs at most) or right after a byte that no SGF
/// structure puts before `(` — not `)`, `]`, `;` or whitespace
/// (`W[dd(;GM[1]…`), or after a space (`C[cut here (;GM[1]…`). A game lost
/// to a swallowing value costs more than a comment that quotes SGF cut in
/// two (`C[use (;FF[4\])]` is cut at its `(`, with a warning).
///
/// Between nodes, the event reader decides on the node a `(` opens: one
/// holding a property only a root may hold starts a new game.
pub(crate) fn resync_point(input: &[u8], at: usize) -> bool {
    let before = &input[..at];
    let indent = before
        .iter()
        .rev()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    let plausible = match before[..before.len() - indent].last() {
        None | Some(b'\n' | b'\r') => true,
        Some(_) if indent > 0 => true,
        Some(&b) => !matches!(b, b')' | b']' | b';') && !is_space(b),
    };
    plausible && opens_root_node(input, at)
}

/// Whether the `(` at `at` is followed by `;` and a property only a root
/// may hold (`GM`, `FF`, `CA`, `AP`, `ST`, `SZ`; the identifier normalised
/// as the lexer does) and its `[`, whitespace allowed between them. Only
/// the first property counts: deciding on bytes past the first `]` would
/// decide on what the writer may move (a value cut here or not must read
/// the same way when written back).
pub(crate) fn opens_root_node(input: &[u8], at: usize) -> bool {
    let limit = input.len().min(at + LOOKAHEAD);
    let mut i = skip_space(input, at + 1);
    if input.get(i) != Some(&b';') {
        return false;
    }
    i = skip_space(input, i + 1);
    let mut name = [0u8; 2];
    let mut len = 0usize;
    while i < limit && (input[i].is_ascii_alphabetic() || is_space(input[i])) {
        if input[i].is_ascii_uppercase() {
            if len < 2 {
                name[len] = input[i];
            }
            len += 1;
        }
        i += 1;
    }
    len == 2
        && input.get(i) == Some(&b'[')
        && matches!(&name, b"GM" | b"FF" | b"CA" | b"AP" | b"ST" | b"SZ")
}

/// The first offset at or after `i` that is not whitespace.
#[inline]
pub(crate) fn skip_space(input: &[u8], mut i: usize) -> usize {
    while i < input.len() && is_space(input[i]) {
        i += 1;
    }
    i
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
    fn is_lead(self, b: u8) -> bool {
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
    if let Some(i) = gap[end..].iter().position(|&b| b == 0) {
        if !nul_reported {
            sink.warn(WarningKind::NulByte, from + end + i);
        }
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

#[cfg(test)]
mod tests;

/// What a [`Token`] is.
#[cfg(any(test, feature = "oracle"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum TokenKind {
    /// `(`
    Open,
    /// `)`
    Close,
    /// `;`
    Semicolon,
    /// A property identifier as written (letters, maybe whitespace).
    Ident,
    /// A property value's content, still escaped, without the brackets.
    Value,
    /// A `]` or `\` outside any value.
    Stray,
}

/// One token: a kind and the bytes it covers.
#[cfg(any(test, feature = "oracle"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Token {
    /// What the token is.
    pub(crate) kind: TokenKind,
    /// Where it is in the input.
    pub(crate) span: crate::Span,
}

/// The tokens of an input, without building a tree: the lexer alone.
///
/// Whitespace and bytes that belong to no token are skipped silently; the
/// tree builder is what reports them. An internal of the crate, for the
/// `lexer_diff` oracle, the unit tests (`tokens_of_a_small_game`) and the
/// lexer benches, reached from outside only through the `oracle` feature.
#[cfg(any(test, feature = "oracle"))]
#[derive(Clone, Debug)]
pub(crate) struct Tokens<'src> {
    scanner: Scanner<'src>,
    pos: usize,
    pending_value: Option<usize>,
}

#[cfg(any(test, feature = "oracle"))]
impl<'src> Tokens<'src> {
    /// Tokens of `input` from its start.
    pub(crate) fn new(input: &'src [u8]) -> Tokens<'src> {
        Tokens {
            scanner: Scanner::new(input, 0),
            pos: 0,
            pending_value: None,
        }
    }

    fn value(&mut self, open: usize) -> Token {
        let end = scan_value(&mut self.scanner, open, &mut NoSink);
        self.pos = end.resume;
        Token {
            kind: TokenKind::Value,
            span: crate::Span::new(open + 1, end.content_end),
        }
    }
}

#[cfg(any(test, feature = "oracle"))]
impl Iterator for Tokens<'_> {
    type Item = Token;

    #[inline]
    fn next(&mut self) -> Option<Token> {
        if let Some(open) = self.pending_value.take() {
            return Some(self.value(open));
        }
        let input = self.scanner.input();
        let at = self.scanner.next()?;
        let kind = match input[at] {
            b'(' => TokenKind::Open,
            b')' => TokenKind::Close,
            b';' => TokenKind::Semicolon,
            b'[' => {
                let gap = read_gap(input, self.pos, at, &mut NoSink);
                if let Some((s, e)) = gap.ident {
                    self.pending_value = Some(at);
                    self.pos = at + 1;
                    return Some(Token {
                        kind: TokenKind::Ident,
                        span: crate::Span::new(s, e),
                    });
                }
                return Some(self.value(at));
            }
            _ => TokenKind::Stray,
        };
        self.pos = at + 1;
        Some(Token {
            kind,
            span: crate::Span::new(at, at + 1),
        })
    }
}

#[cfg(any(test, feature = "oracle"))]
impl std::iter::FusedIterator for Tokens<'_> {}
