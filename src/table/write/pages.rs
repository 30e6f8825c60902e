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
        // A block of one value (a game's id over its moves): every delta
        // 0, the smallest 0, widths 0 and nothing packed.
        // (Checked without an early exit, which the compiler vectorises.)
        if block.iter().fold(0, |acc, &v| acc | v.delta(prev)) == 0 {
            out.extend_from_slice(&[0; 1 + MINIBLOCKS]);
            continue;
        }
        // The deltas as signed values of the column's width, and the
        // smallest of them (one pass: computing the deltas from pairs of
        // values and the smallest apart cost 2% more instructions).
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

/// [`delta`] for 32-bit values, in 32-bit arithmetic throughout (twice
/// the values per vector register): the same bytes.
pub(crate) fn delta32(values: &[i32], out: &mut Vec<u8>) {
    varint(out, BLOCK as u64);
    varint(out, MINIBLOCKS as u64);
    varint(out, values.len() as u64);
    let Some((&first, rest)) = values.split_first() else {
        zigzag(out, 0);
        return;
    };
    zigzag(out, first.into());
    let mut prev = first;
    let mut deltas = [0i32; BLOCK];
    let mut packed = [0u64; MINIBLOCK];
    for block in rest.chunks(BLOCK) {
        // A block that counts up by one (a game's plies): every delta 1,
        // the smallest 1 (zigzag 2), widths 0 and nothing packed.
        let off = block
            .iter()
            .zip(1i32..)
            .fold(0, |acc, (&v, i)| acc | (v.wrapping_sub(prev) ^ i));
        if off == 0 {
            out.extend_from_slice(&[2, 0, 0, 0, 0]);
            prev = block[block.len() - 1];
            continue;
        }
        let mut min = i32::MAX;
        for (d, &v) in deltas.iter_mut().zip(block) {
            *d = v.wrapping_sub(prev);
            min = min.min(*d);
            prev = v;
        }
        zigzag(out, min.into());
        let used = block.len().div_ceil(MINIBLOCK);
        let mut widths = [0u8; MINIBLOCKS];
        for (m, width) in widths.iter_mut().enumerate().take(used) {
            let part = &deltas[m * MINIBLOCK..((m + 1) * MINIBLOCK).min(block.len())];
            // Less the smallest: exact as a 32-bit unsigned number.
            let bits = part
                .iter()
                .fold(0u32, |bits, &d| bits | d.wrapping_sub(min) as u32);
            *width = (32 - bits.leading_zeros()) as u8;
        }
        out.extend_from_slice(&widths);
        for (m, &width) in widths.iter().enumerate().take(used) {
            if width == 0 {
                continue;
            }
            let start = m * MINIBLOCK;
            let len = (block.len() - start).min(MINIBLOCK);
            for (p, &d) in packed.iter_mut().zip(&deltas[start..start + len]) {
                *p = u64::from(d.wrapping_sub(min) as u32);
            }
            // The last miniblock is padded with zeros to its full size.
            packed[len..].fill(0);
            pack(&packed, width, out);
        }
    }
}

/// Appends `values` packed at `width` bits each, least significant bit
/// first (`values.len() * width` is a multiple of 8 for whole groups).
fn pack(values: &[u64], width: u8, out: &mut Vec<u8>) {
    if width == 0 {
        return;
    }
    if width <= 32 {
        // Values of at most 32 bits: a 64-bit accumulator never
        // overflows, written out 32 bits at a time.
        let width = u32::from(width);
        let mut acc: u64 = 0;
        let mut bits = 0u32;
        for &v in values {
            acc |= v << bits;
            bits += width;
            if bits >= 32 {
                out.extend_from_slice(&(acc as u32).to_le_bytes());
                acc >>= 32;
                bits -= 32;
            }
        }
        out.extend_from_slice(&acc.to_le_bytes()[..bits.div_ceil(8) as usize]);
        return;
    }
    let width = u32::from(width);
    let mut acc: u128 = 0;
    let mut bits = 0u32;
    for &v in values {
        acc |= u128::from(v) << bits;
        bits += width;
        if bits >= 64 {
            out.extend_from_slice(&(acc as u64).to_le_bytes());
            acc >>= 64;
            bits -= 64;
        }
    }
    out.extend_from_slice(&(acc as u64).to_le_bytes()[..bits.div_ceil(8) as usize]);
}

/// Bit `i` of the result is bit 0 of byte `i` of `x`: eight flags packed
/// into a byte with one multiplication (each byte's bit lands on its own
/// place among the top eight bits, with no carries between them).
#[inline]
fn pack8(x: u64) -> u8 {
    ((x & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// The header of a bit-packed run of `values` values.
fn bit_packed_header(values: usize, out: &mut Vec<u8>) {
    varint(out, ((values.div_ceil(8) as u64) << 1) | 1);
}

/// Appends small numbers (each below `1 << width`, `width` from 1 to 8)
/// as one bit-packed run of the RLE/bit-packed hybrid, the last group
/// padded with zeros: each group of eight values is `width` bytes.
pub(crate) fn bit_packed_run(values: &[u8], width: u8, out: &mut Vec<u8>) {
    if values.is_empty() {
        return;
    }
    bit_packed_header(values.len(), out);
    let w = u32::from(width);
    let mut groups = values.chunks_exact(8);
    for group in &mut groups {
        let mut acc = 0u64;
        for (i, &v) in group.iter().enumerate() {
            acc |= u64::from(v) << (i as u32 * w);
        }
        out.extend_from_slice(&acc.to_le_bytes()[..usize::from(width)]);
    }
    let rest = groups.remainder();
    if !rest.is_empty() {
        let mut acc = 0u64;
        for (i, &v) in rest.iter().enumerate() {
            acc |= u64::from(v) << (i as u32 * w);
        }
        out.extend_from_slice(&acc.to_le_bytes()[..usize::from(width)]);
    }
}

/// Appends flags (bit 0 of each byte) as one bit-packed run of width 1.
pub(crate) fn flag_run(flags: &[u8], out: &mut Vec<u8>) {
    if flags.is_empty() {
        return;
    }
    bit_packed_header(flags.len(), out);
    flag_bits(flags, out);
}

/// Appends flags (bit 0 of each byte) one bit each, least significant
/// first, the last byte padded with zeros.
pub(crate) fn flag_bits(flags: &[u8], out: &mut Vec<u8>) {
    let mut groups = flags.chunks_exact(8);
    for group in &mut groups {
        let mut eight = [0u8; 8];
        eight.copy_from_slice(group);
        out.push(pack8(u64::from_le_bytes(eight)));
    }
    let rest = groups.remainder();
    if !rest.is_empty() {
        let mut eight = [0u8; 8];
        eight[..rest.len()].copy_from_slice(rest);
        out.push(pack8(u64::from_le_bytes(eight)));
    }
}

/// Appends one bit-packed run of width 1 of `rows` ones, but zeros at
/// `zeros` less `first` (increasing, from `first` to below `first +
/// rows`): the definition levels of rows `first..first + rows` of a
/// column whose nulls are at `zeros`.
pub(crate) fn ones_but(rows: usize, zeros: &[usize], first: usize, out: &mut Vec<u8>) {
    if rows == 0 {
        return;
    }
    bit_packed_header(rows, out);
    let start = out.len();
    out.resize(start + rows.div_ceil(8), 0xff);
    for &z in zeros {
        let z = z - first;
        out[start + z / 8] &= !(1 << (z % 8));
    }
    // The padding of the last group is zeros.
    if !rows.is_multiple_of(8) {
        out[start + rows / 8] &= (1u8 << (rows % 8)) - 1;
    }
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
    let mut groups = values.chunks_exact(8);
    for group in &mut groups {
        let eight: [u8; 8] = std::array::from_fn(|i| u8::from(group[i]));
        out.push(pack8(u64::from_le_bytes(eight)));
    }
    let rest = groups.remainder();
    if !rest.is_empty() {
        let eight: [u8; 8] = std::array::from_fn(|i| rest.get(i).map_or(0, |&b| u8::from(b)));
        out.push(pack8(u64::from_le_bytes(eight)));
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
    fn delta32_gives_the_bytes_of_delta() {
        let mut lcg = 11u64;
        let mut samples: Vec<Vec<i32>> = vec![
            vec![],
            vec![i32::MIN, i32::MAX, 0, -1, i32::MAX, i32::MIN],
            (1..=300).collect(),
        ];
        for len in [1, 31, 32, 33, 127, 128, 129, 257, 1000] {
            samples.push(
                (0..len)
                    .map(|_| {
                        lcg = lcg.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                        (lcg >> 33) as i32 % [19, 400, i32::MAX][len % 3]
                    })
                    .collect(),
            );
            samples.push((0..len).map(|i| (i % 37) as i32).collect());
            // Runs of one value and counts, as ids and plies are.
            samples.push((0..len).map(|i| (i / 150) as i32).collect());
            samples.push((0..len).map(|i| (i % 211) as i32 + 1).collect());
            samples.push(
                (0..len)
                    .map(|i| (i32::MAX - 64).wrapping_add(i as i32 % 100))
                    .collect(),
            );
        }
        for s in samples {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            delta(&s, &mut a);
            delta32(&s, &mut b);
            assert_eq!(a, b, "{s:?}");
        }
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
        bit_packed_run(&[1, 0, 1, 1, 0, 0, 0, 1, 1], 1, &mut out);
        assert_eq!(out, [(2 << 1) | 1, 0b1000_1101, 1]);
        out.clear();
        flag_run(b"WBWWBBBWW", &mut out);
        assert_eq!(out, [(2 << 1) | 1, 0b1000_1101, 1]);
        out.clear();
        ones_but(11, &[101, 104, 109], 100, &mut out);
        assert_eq!(out, [(2 << 1) | 1, 0b1110_1101, 0b101]);
        out.clear();
        bit_packed_run(&[3, 1, 2], 2, &mut out);
        // One group of 8 values at 2 bits: 2 bytes.
        assert_eq!(out, [3, 0b10_01_11, 0]);
        out.clear();
        repeated_run(1000, 1, &mut out);
        assert_eq!(out, [0xd0, 0x0f, 1]);
        out.clear();
        // Widths 1 to 8 against a plain bit-by-bit packing.
        for width in 1..=8u8 {
            let values: Vec<u8> = (0..21u32)
                .map(|i| ((i * 37 + 5) % (1 << width)) as u8)
                .collect();
            let mut want = vec![0u8; 3 * usize::from(width)];
            for (i, &v) in values.iter().enumerate() {
                for b in 0..usize::from(width) {
                    let bit = i * usize::from(width) + b;
                    want[bit / 8] |= ((v >> b) & 1) << (bit % 8);
                }
            }
            out.clear();
            bit_packed_run(&values, width, &mut out);
            assert_eq!(out[0], (3 << 1) | 1, "width {width}");
            assert_eq!(&out[1..], &want[..], "width {width}");
        }
    }

    #[test]
    fn pack_against_bit_by_bit() {
        let mut lcg = 7u64;
        for width in 1..=64u8 {
            let values: Vec<u64> = (0..32)
                .map(|_| {
                    lcg = lcg.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    if width == 64 {
                        lcg
                    } else {
                        lcg & ((1 << width) - 1)
                    }
                })
                .collect();
            let mut want = vec![0u8; 4 * usize::from(width)];
            for (i, &v) in values.iter().enumerate() {
                for b in 0..usize::from(width) {
                    let bit = i * usize::from(width) + b;
                    want[bit / 8] |= (((v >> b) & 1) as u8) << (bit % 8);
                }
            }
            let mut out = Vec::new();
            pack(&values, width, &mut out);
            assert_eq!(out, want, "width {width}");
        }
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
