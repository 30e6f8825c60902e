//! Shuffling within a window: records held in one buffer, each new one
//! taking the place of a random one, which goes out.

use super::encode::Pcg32;

/// A window of fixed-size records that lets them out in a random order
/// (seeded: the same input gives the same order). Memory: the window's
/// records, nothing else.
///
/// While the window fills, nothing comes out; after that each record in
/// sends a random one of the window out; [`Shuffler::finish`] sends the
/// rest out in random order. A record never comes out more than `window`
/// places before its place in the input, and may come out any time after:
/// a window as large as the run shuffles it whole.
#[derive(Clone, Debug)]
pub struct Shuffler {
    record: usize,
    window: usize,
    buf: Vec<u8>,
    rng: Pcg32,
}

impl Shuffler {
    /// A window of `window` records of `record` bytes; a window of 0 or
    /// 1 keeps the input order.
    pub fn new(record: usize, window: usize, seed: u64) -> Shuffler {
        Shuffler {
            record,
            window: window.max(1),
            buf: Vec::new(),
            rng: Pcg32::new(seed, 0x5348_5546),
        }
    }

    /// Takes `records` (whole records, in order), passing to `emit` those
    /// that leave the window.
    ///
    /// # Errors
    ///
    /// The first error of `emit`.
    pub fn push<E>(
        &mut self,
        records: &[u8],
        mut emit: impl FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        for record in records.chunks_exact(self.record) {
            if self.window == 1 {
                emit(record)?;
            } else if self.buf.len() < self.window * self.record {
                self.buf.extend_from_slice(record);
            } else {
                let j = self.rng.below(self.window as u32) as usize;
                let slot = &mut self.buf[j * self.record..][..self.record];
                emit(slot)?;
                slot.copy_from_slice(record);
            }
        }
        Ok(())
    }

    /// Sends what the window holds out, in random order.
    ///
    /// # Errors
    ///
    /// The first error of `emit`.
    pub fn finish<E>(&mut self, mut emit: impl FnMut(&[u8]) -> Result<(), E>) -> Result<(), E> {
        let n = self.buf.len() / self.record;
        let mut order: Vec<u32> = (0..n as u32).collect();
        for i in (1..n).rev() {
            let j = self.rng.below(i as u32 + 1) as usize;
            order.swap(i, j);
        }
        for i in order {
            emit(&self.buf[i as usize * self.record..][..self.record])?;
        }
        self.buf.clear();
        Ok(())
    }

    /// Records waiting in the window.
    pub fn len(&self) -> usize {
        self.buf.len() / self.record
    }

    /// Whether the window is empty.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(n: u32, window: usize, seed: u64) -> Vec<u32> {
        let mut s = Shuffler::new(4, window, seed);
        let mut out = Vec::new();
        let input: Vec<u8> = (0..n).flat_map(u32::to_le_bytes).collect();
        let mut take = |r: &[u8]| {
            out.push(u32::from_le_bytes(r.try_into().unwrap()));
            Ok::<(), ()>(())
        };
        // In pieces of various sizes, as games come.
        for piece in input.chunks(4 * 7) {
            s.push(piece, &mut take).unwrap();
        }
        s.finish(&mut take).unwrap();
        out
    }

    #[test]
    fn every_record_comes_out_once() {
        for window in [0, 1, 2, 10, 1000, 5000] {
            let mut out = run(3000, window, 7);
            out.sort_unstable();
            assert_eq!(out, (0..3000).collect::<Vec<_>>(), "window {window}");
        }
    }

    #[test]
    fn a_window_of_one_keeps_the_order() {
        assert_eq!(run(100, 1, 3), (0..100).collect::<Vec<_>>());
    }

    #[test]
    fn the_seed_decides_the_order() {
        assert_eq!(run(2000, 64, 1), run(2000, 64, 1));
        assert_ne!(run(2000, 64, 1), run(2000, 64, 2));
        assert_ne!(run(2000, 64, 1), (0..2000).collect::<Vec<_>>());
    }

    #[test]
    fn a_record_leaves_no_earlier_than_the_window_allows() {
        // Record i cannot come out before the window has filled behind it:
        // at output place k, every record seen is < k + window.
        let window = 50;
        let out = run(5000, window, 9);
        for (k, &r) in out.iter().enumerate() {
            assert!((r as usize) < k + window, "record {r} at place {k}");
        }
    }
}
