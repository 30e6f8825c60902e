//! The checksum of every byte an index reads: a 64-bit hash of our own,
//! fast enough that verifying an 8 KiB block costs less than reading it.
//!
//! Four lanes take a 32-byte stripe at a time, a little-endian word each:
//! `lane = rotl((lane ^ word) · P1, 29)`. Each step is a bijection of the
//! lane for a fixed word and of the word for a fixed lane (xor, a multiply
//! by an odd number, a rotation), so two inputs of the same length that
//! differ in one word always end with different lanes; the lanes, the
//! length and the last partial stripe are folded the same way into one
//! word, then mixed (xor-shifts and multiplies, bijections too). So a
//! change within any one 8-byte word is always caught; changes in several
//! words (a zeroed block, scattered flipped bytes) escape with a
//! probability near 2⁻⁶⁴. It is no defence against someone who forges a
//! file on purpose, only against damage.
//!
//! Not a standard hash: nothing outside the index reads these sums.

/// The multiplier of each round (odd: the golden ratio's 64-bit fraction).
const P1: u64 = 0x9E37_79B9_7F4A_7C15;
/// The multiplier of the final mix and of the length (odd).
const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;
/// The lanes' starting values.
const SEEDS: [u64; 4] = [
    0x243F_6A88_85A3_08D3,
    0x1319_8A2E_0370_7344,
    0xA409_3822_299F_31D0,
    0x082E_FA98_EC4E_6C89,
];
const STRIPE: usize = 32;

fn round(lane: u64, word: u64) -> u64 {
    (lane ^ word).wrapping_mul(P1).rotate_left(29)
}

fn word(bytes: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w[..bytes.len()].copy_from_slice(bytes);
    u64::from_le_bytes(w)
}

/// A checksum computed over bytes given in pieces: the same as
/// [`checksum`] of the pieces joined.
#[derive(Clone, Debug)]
pub(crate) struct Checksum {
    lanes: [u64; 4],
    pending: [u8; STRIPE],
    buffered: usize,
    len: u64,
}

impl Default for Checksum {
    fn default() -> Checksum {
        Checksum {
            lanes: SEEDS,
            pending: [0; STRIPE],
            buffered: 0,
            len: 0,
        }
    }
}

impl Checksum {
    pub(crate) fn new() -> Checksum {
        Checksum::default()
    }

    fn stripe(&mut self, stripe: &[u8]) {
        for (lane, w) in self.lanes.iter_mut().zip(stripe.chunks_exact(8)) {
            *lane = round(*lane, word(w));
        }
    }

    /// Adds `bytes` to what is summed.
    pub(crate) fn update(&mut self, mut bytes: &[u8]) {
        self.len += bytes.len() as u64;
        if self.buffered > 0 {
            let take = (STRIPE - self.buffered).min(bytes.len());
            self.pending[self.buffered..self.buffered + take].copy_from_slice(&bytes[..take]);
            self.buffered += take;
            bytes = &bytes[take..];
            if self.buffered < STRIPE {
                return;
            }
            let full = self.pending;
            self.stripe(&full);
            self.buffered = 0;
        }
        let mut stripes = bytes.chunks_exact(STRIPE);
        for s in &mut stripes {
            self.stripe(s);
        }
        let rest = stripes.remainder();
        self.pending[..rest.len()].copy_from_slice(rest);
        self.buffered = rest.len();
    }

    /// The sum of everything given.
    pub(crate) fn finish(&self) -> u64 {
        let mut h = self.len.wrapping_mul(P2);
        for lane in self.lanes {
            h = round(h, lane);
        }
        for w in self.pending[..self.buffered].chunks(8) {
            h = round(h, word(w));
        }
        h ^= h >> 33;
        h = h.wrapping_mul(P2);
        h ^= h >> 29;
        h = h.wrapping_mul(P1);
        h ^ (h >> 32)
    }
}

/// The checksum of `bytes`.
pub(crate) fn checksum(bytes: &[u8]) -> u64 {
    let mut c = Checksum::new();
    c.update(bytes);
    c.finish()
}

/// A sum as the manifest writes it: 16 lower-case hex digits.
pub(crate) fn to_hex(sum: u64) -> String {
    format!("{sum:016x}")
}

/// A sum written by [`to_hex`]; `None` for anything else (upper case,
/// another length), so that a changed byte never reads as the same sum.
pub(crate) fn from_hex(text: &str) -> Option<u64> {
    if text.len() != 16 || !text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return None;
    }
    u64::from_str_radix(text, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_sum_as_the_whole() {
        let bytes: Vec<u8> = (0..1000u32).map(|i| (i * 7 + i / 13) as u8).collect();
        let whole = checksum(&bytes);
        for cut in [0, 1, 7, 31, 32, 33, 500, 999, 1000] {
            for second in [0, 3, 32, 64] {
                let second = (cut + second).min(bytes.len());
                let mut c = Checksum::new();
                c.update(&bytes[..cut]);
                c.update(&bytes[cut..second]);
                c.update(&bytes[second..]);
                assert_eq!(c.finish(), whole, "cut at {cut} and {second}");
            }
        }
        assert_ne!(checksum(b""), checksum(b"\0"));
        assert_ne!(checksum(&[0; 32]), checksum(&[0; 33]));
    }

    #[test]
    fn every_single_byte_change_is_caught() {
        let bytes: Vec<u8> = (0..200u32).map(|i| (i * 31) as u8).collect();
        let sum = checksum(&bytes);
        for at in 0..bytes.len() {
            for flip in [1u8, 0x80, 0xff] {
                let mut changed = bytes.clone();
                changed[at] ^= flip;
                assert_ne!(checksum(&changed), sum, "byte {at} ^ {flip:#x}");
            }
        }
        // Zeroed: a block of rows is not the block of zeros.
        assert_ne!(checksum(&[0; 8192]), checksum(&[0; 8191]));
        assert_ne!(checksum(&bytes), checksum(&vec![0; bytes.len()]));
    }

    #[test]
    fn hex_is_strict() {
        let sum = checksum(b"index");
        assert_eq!(from_hex(&to_hex(sum)), Some(sum));
        assert_eq!(from_hex("00000000000000ab"), Some(0xab));
        assert_eq!(from_hex("00000000000000AB"), None);
        assert_eq!(from_hex("abc"), None);
        assert_eq!(from_hex("+bcdef0123456789"), None);
    }
}
