//! Finding the structural bytes: the 64-byte block classifier and the
//! scanner that walks its set bits.

/// Whether `b` is one of the six structural bytes `(` `)` `;` `[` `]` `\`.
#[cfg(any(test, feature = "oracle"))]
#[inline(always)]
pub(crate) fn is_structural(b: u8) -> bool {
    matches!(b, b'(' | b')' | b';' | b'[' | b']' | b'\\')
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
