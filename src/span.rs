//! Byte spans into the input and the mapping from byte offsets to lines and columns.
//!
//! The lexer and the tree builder track nothing but byte offsets. Lines and
//! columns are computed only when a diagnostic is built, by counting line
//! breaks with `memchr`; a `LineCursor` makes a run of diagnostics in
//! increasing offset order cost one pass over the input in total.

use std::ops::Index;

/// A byte range `start..end` into the parsed input.
///
/// Spans are `Copy` and index a byte slice directly:
///
/// ```
/// use sgf_grove::Span;
/// let input = b"(;B[aa])";
/// let span = Span::new(4, 6);
/// assert_eq!(&input[span], b"aa");
/// assert_eq!(span.len(), 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset one past the last byte.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end` (exclusive).
    #[inline]
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The number of bytes covered.
    #[inline]
    pub const fn len(&self) -> usize {
        self.end - self.start
    }

    /// Whether the span covers no byte.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.start == self.end
    }
}

impl Index<Span> for [u8] {
    type Output = [u8];
    #[inline]
    fn index(&self, span: Span) -> &[u8] {
        &self[span.start..span.end]
    }
}

/// Where something is in the input: a byte offset and the 1-based line and
/// column it falls on.
///
/// A line break is LF, CR, CRLF or LFCR (each counted once). The column counts
/// bytes, not characters, from the start of the line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Position {
    /// Byte offset from the start of the input.
    pub offset: usize,
    /// Line number, starting at 1.
    pub line: u32,
    /// Column in bytes, starting at 1.
    pub column: u32,
}

impl Position {
    /// Computes the position of `offset` in `input` (clamped to its length).
    ///
    /// ```
    /// use sgf_grove::Position;
    /// let pos = Position::locate(b"(;\r\nB[aa])", 4);
    /// assert_eq!((pos.line, pos.column), (2, 1));
    /// ```
    #[cold]
    #[inline(never)]
    pub fn locate(input: &[u8], offset: usize) -> Position {
        let mut cursor = LineCursor::default();
        cursor.locate(input, offset)
    }
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Remembers how far line breaks have been counted, so that positions asked for in
/// increasing order cost one scan of the input in total.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LineCursor {
    /// Line breaks before this offset have been counted.
    scanned: usize,
    line: u32,
    line_start: usize,
}

impl Default for LineCursor {
    fn default() -> Self {
        LineCursor {
            scanned: 0,
            line: 1,
            line_start: 0,
        }
    }
}

impl LineCursor {
    #[cold]
    #[inline(never)]
    pub(crate) fn locate(&mut self, input: &[u8], offset: usize) -> Position {
        let offset = offset.min(input.len());
        if offset < self.scanned {
            *self = LineCursor::default();
        }
        let mut line = self.line;
        let mut line_start = self.line_start;
        let mut at = self.scanned;
        // Without a carriage return each line feed is a line break: count
        // them in bulk (one-move lines are a few bytes long).
        let gap = &input[at..offset];
        let cr_near = offset < input.len() && input[offset] == b'\r';
        if !cr_near && memchr::memchr(b'\r', gap).is_none() {
            if let Some(last) = memchr::memrchr(b'\n', gap) {
                line += count_line_feeds(gap) as u32;
                line_start = at + last + 1;
            }
            self.line = line;
            self.line_start = line_start;
            self.scanned = offset;
            return Position {
                offset,
                line,
                column: (offset - line_start + 1) as u32,
            };
        }
        while let Some(i) = memchr::memchr2(b'\n', b'\r', &input[at..offset]) {
            let brk = at + i;
            let mut next = brk + 1;
            if next < input.len() && is_pair(input[brk], input[next]) {
                next += 1;
            }
            line += 1;
            if next > offset {
                // `offset` is the second byte of a two-byte line break.
                self.line = line;
                self.line_start = next;
                self.scanned = next;
                return Position {
                    offset,
                    line,
                    column: 1,
                };
            }
            at = next;
            line_start = next;
        }
        self.line = line;
        self.line_start = line_start;
        self.scanned = offset;
        Position {
            offset,
            line,
            column: (offset - line_start + 1) as u32,
        }
    }
}

/// Positions in a large input without a pass from its start for each one:
/// the state of a [`LineCursor`] every `stride` bytes, found as far as the
/// positions asked for reach (a value error near the start of a large
/// window costs a scan of that start only). A position then costs at most
/// `stride` bytes of scanning.
#[derive(Clone, Debug)]
pub(crate) struct LineIndex {
    stride: usize,
    /// `checkpoints[k]`: the cursor after locating `k * stride`.
    checkpoints: Vec<LineCursor>,
}

impl Default for LineIndex {
    fn default() -> Self {
        LineIndex::with_stride(LineIndex::STRIDE)
    }
}

impl LineIndex {
    /// The stride for inputs met in practice: 1 KiB, a few hundred
    /// nanoseconds of scanning per position, 24 bytes of index per stride.
    pub(crate) const STRIDE: usize = 1 << 10;

    /// An index with no checkpoint past the start yet, one every `stride`
    /// bytes as it grows.
    pub(crate) fn with_stride(stride: usize) -> LineIndex {
        LineIndex {
            stride: stride.max(1),
            checkpoints: vec![LineCursor::default()],
        }
    }

    /// Forgets the checkpoints past the start, for a new input (keeping the
    /// capacity).
    pub(crate) fn reset(&mut self) {
        self.checkpoints.truncate(1);
    }

    /// The index of all of `input`, one checkpoint every `stride` bytes.
    #[cfg(test)]
    pub(crate) fn new(input: &[u8], stride: usize) -> LineIndex {
        let mut index = LineIndex::with_stride(stride);
        index.grow(input, input.len());
        index
    }

    /// Adds the checkpoints up to `offset`.
    #[cold]
    fn grow(&mut self, input: &[u8], offset: usize) {
        let mut cursor = *self.checkpoints.last().expect("the start is a checkpoint");
        let mut at = self.checkpoints.len() * self.stride;
        while at < input.len() && at <= offset {
            cursor.locate(input, at);
            self.checkpoints.push(cursor);
            at += self.stride;
        }
    }

    /// Heap bytes the index holds.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.checkpoints.capacity() * std::mem::size_of::<LineCursor>()
    }

    /// The position of `offset` in `input` (always the same input for one
    /// index), as [`Position::locate`] gives it.
    pub(crate) fn locate(&mut self, input: &[u8], offset: usize) -> Position {
        let offset = offset.min(input.len());
        if offset / self.stride >= self.checkpoints.len() {
            self.grow(input, offset);
        }
        let mut k = (offset / self.stride).min(self.checkpoints.len() - 1);
        // A checkpoint that fell on the second byte of a two-byte line break
        // has scanned past it; the one before serves.
        while self.checkpoints[k].scanned > offset {
            k -= 1;
        }
        let mut cursor = self.checkpoints[k];
        cursor.locate(input, offset)
    }
}

/// The line feeds in `bytes`, found by the vector search: records hold a
/// line break every few dozen bytes, so that finding each costs less than
/// looking at every byte.
fn count_line_feeds(bytes: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', bytes).count()
}

/// CRLF and LFCR are one line break each.
#[inline]
fn is_pair(first: u8, second: u8) -> bool {
    (second == b'\n' || second == b'\r') && second != first
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_feeds_counted_in_blocks_as_one_by_one() {
        // Lengths around the block and chunk sizes, line feeds dense
        // enough to overflow a byte-wide counter if it were not summed.
        let mut bytes = Vec::new();
        for i in 0..40_000usize {
            bytes.push(if i % 3 == 0 || i % 7 == 0 {
                b'\n'
            } else {
                b'a' + (i % 26) as u8
            });
        }
        for len in [
            0,
            1,
            31,
            32,
            33,
            255 * 32 - 1,
            255 * 32,
            255 * 32 + 1,
            20_000,
            40_000,
        ] {
            for start in [0, 1, 5] {
                let gap = &bytes[start.min(len)..len];
                let expected = gap.iter().filter(|&&b| b == b'\n').count();
                assert_eq!(count_line_feeds(gap), expected, "{start}..{len}");
            }
        }
    }

    fn naive(input: &[u8], offset: usize) -> (u32, u32) {
        let mut line = 1;
        let mut start = 0;
        let mut i = 0;
        while i < offset {
            let b = input[i];
            if b == b'\n' || b == b'\r' {
                let mut next = i + 1;
                if next < input.len()
                    && (input[next] == b'\n' || input[next] == b'\r')
                    && input[next] != b
                {
                    next += 1;
                }
                line += 1;
                if next > offset {
                    return (line, 1);
                }
                start = next;
                i = next;
            } else {
                i += 1;
            }
        }
        (line, (offset - start + 1) as u32)
    }

    #[test]
    fn line_breaks_of_every_kind() {
        let input = b"ab\ncd\r\nef\rgh\n\rij\n\nkl";
        for off in 0..=input.len() {
            let p = Position::locate(input, off);
            assert_eq!((p.line, p.column), naive(input, off), "offset {off}");
        }
    }

    #[test]
    fn a_cursor_asked_in_increasing_order_agrees_with_a_byte_by_byte_count() {
        // Inputs with and without carriage returns (the bulk count serves
        // the latter), cursors asked at every offset and at every second.
        let mut seed = 11u32;
        for alphabet in [&b"a\n;"[..], &b"a\n\r;\n"[..], &b"\n\r"[..]] {
            let mut input = Vec::new();
            for _ in 0..300 {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                input.push(alphabet[(seed >> 16) as usize % alphabet.len()]);
            }
            for step in [1, 2, 7] {
                let mut cursor = LineCursor::default();
                for off in (0..=input.len()).step_by(step) {
                    let p = cursor.locate(&input, off);
                    assert_eq!((p.line, p.column), naive(&input, off), "offset {off}");
                }
            }
        }
    }

    #[test]
    fn line_index_matches_fresh_locate() {
        // Every kind of break, next to each other and at every alignment
        // with the checkpoints.
        let mut input = Vec::new();
        let mut seed = 7u32;
        for _ in 0..400 {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            input.push([b'a', b'\n', b'\r', b';', b'\n', b'\r'][(seed >> 16) as usize % 6]);
        }
        for stride in [1, 2, 3, 5, 8, 64, 1000] {
            let mut index = LineIndex::new(&input, stride);
            let mut lazy = LineIndex::with_stride(stride);
            for off in 0..=input.len() + 2 {
                let p = lazy.locate(&input, off);
                assert_eq!(
                    p,
                    Position::locate(&input, off),
                    "lazy, stride {stride}, offset {off}"
                );
            }
            for off in (0..=input.len() + 2).rev() {
                let p = index.locate(&input, off);
                assert_eq!(
                    p,
                    Position::locate(&input, off),
                    "stride {stride}, offset {off}"
                );
            }
        }
        let mut empty = LineIndex::new(b"", LineIndex::STRIDE);
        assert_eq!(empty.locate(b"", 5), Position::locate(b"", 5));
    }

    #[test]
    fn cursor_in_order_matches_fresh_locate() {
        let input = b"(;C[a\r\nb]\n;B[aa]\r\r;W[bb]\n\r)";
        let mut cursor = LineCursor::default();
        for off in 0..=input.len() {
            let p = cursor.locate(input, off);
            assert_eq!(p, Position::locate(input, off), "offset {off}");
        }
        // Going backwards restarts the count.
        assert_eq!(cursor.locate(input, 2), Position::locate(input, 2));
    }
}
