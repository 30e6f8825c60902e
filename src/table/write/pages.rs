//! The value encodings of the moves table's Parquet pages, written from
//! plain slices: delta binary packing for numbers that count up, the
//! RLE/bit-packed hybrid for dictionary indices and definition levels,
//! and plain bits for booleans. Each is a loop over a slice with no per
//! value dispatch, which is what the moves table pays for (the generic
//! column encoders were a third of `sgf export --format parquet`).
//!
//! The layouts follow the Parquet format's encodings document:
//!
//! - ULEB128 varints, zigzag for signed numbers.
//! - `DELTA_BINARY_PACKED`: a header (block size, miniblocks per block,
//!   value count, first value), then per block the smallest delta, one
//!   bit width per miniblock, and the miniblocks (each delta less the
//!   smallest, packed at the miniblock's width, least significant bit
//!   first). Arithmetic wraps in the column's width; miniblocks after the
//!   last value are left out, their widths written as 0.
//! - RLE/bit-packed hybrid: runs, each a varint header; `count << 1` then
//!   the value in whole bytes for a repeated run, `groups << 1 | 1` then
//!   `groups` × 8 values packed for a bit-packed run.

/// Values per block of [`delta`]: the Parquet writers' usual 128.
const BLOCK: usize = 128;
/// Miniblocks per block: 4 of 32 values.
const MINIBLOCKS: usize = 4;
/// Values per miniblock.
const MINIBLOCK: usize = BLOCK / MINIBLOCKS;

/// Appends `v` as a ULEB128 varint.
pub(crate) fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Appends `v` zigzag-encoded as a varint.
fn zigzag(out: &mut Vec<u8>, v: i64) {
    varint(out, ((v << 1) ^ (v >> 63)) as u64);
}

/// A column's integer type as delta binary packing sees it: deltas wrap
/// in the type's own width.
pub(crate) trait DeltaInt: Copy {
    /// `self - prev`, wrapping, as the unsigned bits of the type's width.
    fn delta(self, prev: Self) -> u64;
    /// A delta as the signed value of the type's width.
    fn signed(delta: u64) -> i64;
    /// The value, widened.
    fn wide(self) -> i64;
}

impl DeltaInt for i32 {
    #[inline]
    fn delta(self, prev: i32) -> u64 {
        u64::from(self.wrapping_sub(prev) as u32)
    }
    #[inline]
    fn signed(delta: u64) -> i64 {
        i64::from(delta as u32 as i32)
    }
    #[inline]
    fn wide(self) -> i64 {
        i64::from(self)
    }
}

impl DeltaInt for i64 {
    #[inline]
    fn delta(self, prev: i64) -> u64 {
        self.wrapping_sub(prev) as u64
    }
    #[inline]
    fn signed(delta: u64) -> i64 {
        delta as i64
    }
    #[inline]
    fn wide(self) -> i64 {
        self
    }
}

/// Appends `values` encoded `DELTA_BINARY_PACKED`.
pub(crate) fn delta<T: DeltaInt>(values: &[T], out: &mut Vec<u8>) {
    varint(out, BLOCK as u64);
    varint(out, MINIBLOCKS as u64);
    varint(out, values.len() as u64);
    let Some((&first, rest)) = values.split_first() else {
        zigzag(out, 0);
        return;
    };
    zigzag(out, first.wide());
    let mut prev = first;
    let mut deltas = [0u64; BLOCK];
    for block in rest.chunks(BLOCK) {
        // The deltas as signed values of the column's width, and the
        // smallest of them.
        let mut min = i64::MAX;
        for (d, &v) in deltas.iter_mut().zip(block) {
            let signed = T::signed(v.delta(prev));
            *d = signed as u64;
            min = min.min(signed);
            prev = v;
        }
        zigzag(out, min);
        let used = block.len().div_ceil(MINIBLOCK);
        let mut widths = [0u8; MINIBLOCKS];
        for (m, width) in widths.iter_mut().enumerate().take(used) {
            let part = &mut deltas[m * MINIBLOCK..((m + 1) * MINIBLOCK).min(block.len())];
            let mut bits = 0u64;
            for d in part.iter_mut() {
                // Less the smallest: both are values of the column's
                // width, so the difference is exact in 64 bits.
                *d = d.wrapping_sub(min as u64);
                bits |= *d;
            }
            *width = (64 - bits.leading_zeros()) as u8;
        }
        out.extend_from_slice(&widths);
        for (m, &width) in widths.iter().enumerate().take(used) {
            let start = m * MINIBLOCK;
            let len = (block.len() - start).min(MINIBLOCK);
            // The last miniblock is padded with zeros to its full size.
            deltas[start + len..start + MINIBLOCK].fill(0);
            pack(&deltas[start..start + MINIBLOCK], width, out);
        }
    }
}

/// Appends `values` packed at `width` bits each, least significant bit
/// first (`values.len() * width` is a multiple of 8 for whole groups).
fn pack(values: &[u64], width: u8, out: &mut Vec<u8>) {
    if width == 0 {
        return;
    }
    let width = u32::from(width);
    let mut acc: u128 = 0;
    let mut bits = 0u32;
    for &v in values {
        acc |= u128::from(v) << bits;
        bits += width;
        while bits >= 64 {
            out.extend_from_slice(&(acc as u64).to_le_bytes());
            acc >>= 64;
            bits -= 64;
        }
    }
    let bytes = bits.div_ceil(8) as usize;
    out.extend_from_slice(&(acc as u64).to_le_bytes()[..bytes]);
}

/// Appends small numbers (each below `1 << width`, `width` at most 8) as
/// one bit-packed run of the RLE/bit-packed hybrid, the last group padded
/// with zeros.
pub(crate) fn bit_packed_run(
    values: impl ExactSizeIterator<Item = u8>,
    width: u8,
    out: &mut Vec<u8>,
) {
    let groups = values.len().div_ceil(8);
    if groups == 0 {
        return;
    }
    varint(out, ((groups as u64) << 1) | 1);
    let width = u32::from(width);
    let start = out.len();
    let mut acc: u64 = 0;
    let mut bits = 0u32;
    for v in values {
        acc |= u64::from(v) << bits;
        bits += width;
        if bits >= 32 {
            out.extend_from_slice(&(acc as u32).to_le_bytes());
            acc >>= 32;
            bits -= 32;
        }
    }
    out.extend_from_slice(&acc.to_le_bytes()[..bits.div_ceil(8) as usize]);
    // Whole groups: 8 values take `width` bytes.
    out.resize(start + groups * width as usize, 0);
}

/// Appends one repeated run of the RLE/bit-packed hybrid: `count` times
/// `value` (below 256, one byte for widths up to 8).
pub(crate) fn repeated_run(count: usize, value: u8, out: &mut Vec<u8>) {
    if count == 0 {
        return;
    }
    varint(out, (count as u64) << 1);
    out.push(value);
}

/// Appends booleans `PLAIN`: one bit each, least significant first.
pub(crate) fn plain_bools(values: &[bool], out: &mut Vec<u8>) {
    for chunk in values.chunks(8) {
        let mut byte = 0u8;
        for (i, &b) in chunk.iter().enumerate() {
            byte |= u8::from(b) << i;
        }
        out.push(byte);
    }
}

/// The bits needed for numbers up to `max`.
pub(crate) fn width_of(max: u8) -> u8 {
    (8 - max.leading_zeros()) as u8
}

#[cfg(test)]
mod tests {
    //! The layouts byte for byte on small cases; the encodings read back
    //! through the parquet crate's reader are tested with the moves table
    //! (`move_table.rs`).
    use super::*;

    #[test]
    fn varints_and_zigzag() {
        let mut out = Vec::new();
        varint(&mut out, 1);
        varint(&mut out, 300);
        zigzag(&mut out, -1);
        zigzag(&mut out, 1);
        zigzag(&mut out, i64::MIN);
        assert_eq!(&out[..6], &[1, 0xac, 0x02, 1, 2, 0xff]);
        assert_eq!(out.len(), 5 + 10);
    }

    #[test]
    fn delta_of_a_steady_count() {
        let plies: Vec<i32> = (1..=129).collect();
        let mut out = Vec::new();
        delta(&plies, &mut out);
        // 128, 4, 129 values, first 1 (zigzag 2); one block: smallest
        // delta 1 (zigzag 2), four widths of 0, no miniblock bytes.
        assert_eq!(out, [0x80, 0x01, 4, 0x81, 0x01, 2, 2, 0, 0, 0, 0]);
    }

    #[test]
    fn delta_packs_least_significant_bit_first() {
        // Deltas 1, 0, 3 after a first value of 0: smallest 0, widths 2.
        let mut out = Vec::new();
        delta(&[0i64, 1, 1, 4], &mut out);
        // One miniblock used: 32 values × 2 bits = 8 bytes, the padding 0.
        assert_eq!(&out[..6], &[0x80, 0x01, 4, 4, 0, 0]);
        assert_eq!(&out[6..10], &[2, 0, 0, 0]);
        assert_eq!(out[10], 0b11_00_01);
        assert_eq!(out.len(), 10 + 8);
    }

    #[test]
    fn hybrid_runs() {
        let mut out = Vec::new();
        bit_packed_run([1u8, 0, 1, 1, 0, 0, 0, 1, 1].into_iter(), 1, &mut out);
        assert_eq!(out, [(2 << 1) | 1, 0b1000_1101, 1]);
        out.clear();
        bit_packed_run([3u8, 1, 2].into_iter(), 2, &mut out);
        // One group of 8 values at 2 bits: 2 bytes.
        assert_eq!(out, [3, 0b10_01_11, 0]);
        out.clear();
        repeated_run(1000, 1, &mut out);
        assert_eq!(out, [0xd0, 0x0f, 1]);
    }

    #[test]
    fn bools_and_widths() {
        let mut out = Vec::new();
        plain_bools(
            &[true, false, true, true, false, false, false, false, true],
            &mut out,
        );
        assert_eq!(out, [0b1101, 1]);
        assert_eq!(
            [0, 1, 2, 3, 18, 51, 255].map(width_of),
            [0, 1, 2, 2, 5, 6, 8]
        );
    }
}
