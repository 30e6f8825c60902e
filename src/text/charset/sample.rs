//! The bounded sample of a game that detection reads: the regions that
//! hold bytes outside ASCII, with some ASCII around them.

use super::detect::first_non_ascii;

/// At most this many bytes of a game are scored: the text of a huge game
/// is judged by a sample of it.
pub const SAMPLE_MAX: usize = 256 * 1024;

/// The stripes of a game larger than [`SAMPLE_MAX`] that share the sample
/// (what one stripe leaves unused goes to the next).
pub(super) const STRIPES: usize = 16;

/// ASCII bytes kept on either side of the non-ASCII bytes of a region: the
/// letters beside a character that the scores look at, and more than any
/// candidate decoder needs to finish a character, so that a region decodes
/// alone to exactly the characters the whole game decodes to there.
pub(super) const CONTEXT: usize = 8;

/// Non-ASCII bytes with fewer ASCII bytes than this between them are in
/// one region; at least this many keep regions apart, with [`CONTEXT`]
/// ASCII bytes for each.
pub(super) const JOIN: usize = 2 * CONTEXT;

/// Hands the regions of `bytes` that hold non-ASCII bytes (with [`CONTEXT`]
/// ASCII bytes around them) to `f`, in order: the only bytes whose
/// decoding differs between the candidate charsets. ASCII runs, most of a
/// game record, are skipped, and the scores of the regions add up to those
/// of the whole.
///
/// When the regions hold more than [`SAMPLE_MAX`] bytes, each of
/// [`STRIPES`] equal stripes of `bytes` contributes its share of them (a
/// region that crosses stripes, in pieces; what a stripe leaves unused goes
/// to the next), so that text after a long ASCII prefix, or spread through
/// a huge game, is still seen; `f` gets at most [`SAMPLE_MAX`] bytes in all.
pub(crate) fn sample(bytes: &[u8], mut f: impl FnMut(&[u8])) {
    let fits = bytes.len() <= SAMPLE_MAX || {
        let mut total = 0;
        Regions::new(bytes).all(|r| {
            total += r.len();
            total <= SAMPLE_MAX
        })
    };
    if fits {
        for r in Regions::new(bytes) {
            f(&bytes[r]);
        }
        return;
    }
    let stripe = bytes.len().div_ceil(STRIPES);
    let mut taken = 0;
    for r in Regions::new(bytes) {
        let mut at = r.start;
        while at < r.end {
            let k = at / stripe;
            let piece_end = r.end.min((k + 1) * stripe);
            let room = (SAMPLE_MAX * (k + 1) / STRIPES).saturating_sub(taken);
            let len = (piece_end - at).min(room);
            if len > 0 {
                f(&bytes[at..at + len]);
                taken += len;
            }
            at = piece_end;
        }
    }
}

/// The regions of a byte string that hold non-ASCII bytes, as [`sample`]
/// describes them.
pub(super) struct Regions<'a> {
    bytes: &'a [u8],
    /// The next non-ASCII byte.
    next: Option<usize>,
}

impl<'a> Regions<'a> {
    fn new(bytes: &'a [u8]) -> Regions<'a> {
        Regions {
            bytes,
            next: first_non_ascii(bytes),
        }
    }
}

impl Iterator for Regions<'_> {
    type Item = std::ops::Range<usize>;

    fn next(&mut self) -> Option<Self::Item> {
        let first = self.next?;
        // The region goes on while fewer than `JOIN` ASCII bytes follow its
        // last non-ASCII byte.
        let mut last = first;
        let mut i = first + 1;
        while let Some(&b) = self.bytes.get(i) {
            if !b.is_ascii() {
                last = i;
            } else if i - last > JOIN {
                break;
            }
            i += 1;
        }
        self.next = first_non_ascii(self.bytes.get(i..).unwrap_or_default()).map(|gap| i + gap);
        let start = first.saturating_sub(CONTEXT);
        let end = (last + 1 + CONTEXT).min(self.bytes.len());
        Some(start..end)
    }
}
