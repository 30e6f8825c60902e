//! Counting property identifiers per game and over many games, without a
//! map lookup per property: identifiers of one or two letters (nearly all)
//! index an array.

use std::collections::BTreeMap;

/// Slots for identifiers of one or two upper-case letters: 27 × 27 (a
/// first letter, and a second letter or none).
const SHORT: usize = 27 * 27;

/// The slot of a one- or two-letter identifier.
#[inline]
fn short_slot(ident: &[u8]) -> Option<usize> {
    let letter = |b: u8| b.is_ascii_uppercase().then(|| (b - b'A') as usize + 1);
    match *ident {
        [a] => Some(letter(a)? * 27),
        [a, b] => Some(letter(a)? * 27 + letter(b)?),
        _ => None,
    }
}

/// The identifier of a slot.
fn short_ident(slot: usize) -> String {
    let (a, b) = (slot / 27, slot % 27);
    let mut s = String::with_capacity(2);
    s.push((b'A' + a as u8 - 1) as char);
    if b > 0 {
        s.push((b'A' + b as u8 - 1) as char);
    }
    s
}

/// Per identifier: the games holding it and its occurrences; and the
/// counts of the game being added, kept between games for their room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct PropertyTally {
    short: Box<[(u64, u64)]>,
    long: BTreeMap<String, (u64, u64)>,
    /// The game being added (empty between games).
    game: GameProperties,
}

impl Default for PropertyTally {
    fn default() -> Self {
        PropertyTally {
            short: vec![(0, 0); SHORT].into_boxed_slice(),
            long: BTreeMap::new(),
            game: GameProperties::default(),
        }
    }
}

/// One game's counts, before they are added to a [`PropertyTally`].
#[derive(Clone, Debug, PartialEq, Eq)]
struct GameProperties {
    counts: Box<[u32]>,
    touched: Vec<u16>,
    long: Vec<(String, u64)>,
}

impl Default for GameProperties {
    fn default() -> Self {
        GameProperties {
            counts: vec![0; SHORT].into_boxed_slice(),
            touched: Vec::new(),
            long: Vec::new(),
        }
    }
}

impl PropertyTally {
    /// Counts an occurrence of `ident` in the game being added.
    #[inline]
    pub(super) fn count(&mut self, ident: &[u8]) {
        let game = &mut self.game;
        match short_slot(ident) {
            Some(slot) => {
                let c = &mut game.counts[slot];
                if *c == 0 {
                    game.touched.push(slot as u16);
                }
                *c = c.saturating_add(1);
            }
            None => match game.long.iter_mut().find(|(i, _)| i.as_bytes() == ident) {
                Some((_, n)) => *n += 1,
                None => game
                    .long
                    .push((String::from_utf8_lossy(ident).into_owned(), 1)),
            },
        }
    }

    /// Ends the game being added: each identifier it held counts one game
    /// more, and its occurrences.
    pub(super) fn end_game(&mut self) {
        let game = &mut self.game;
        for &slot in &game.touched {
            let slot = slot as usize;
            let t = &mut self.short[slot];
            t.0 += 1;
            t.1 += game.counts[slot] as u64;
            game.counts[slot] = 0;
        }
        game.touched.clear();
        for (ident, n) in game.long.drain(..) {
            let t = self.long.entry(ident).or_default();
            t.0 += 1;
            t.1 += n;
        }
    }

    pub(super) fn merge(&mut self, other: PropertyTally) {
        for (a, b) in self.short.iter_mut().zip(other.short.iter()) {
            a.0 += b.0;
            a.1 += b.1;
        }
        for (ident, (g, n)) in other.long {
            let t = self.long.entry(ident).or_default();
            t.0 += g;
            t.1 += n;
        }
    }

    /// `(identifier, games, occurrences)` for every identifier seen.
    pub(super) fn entries(&self) -> Vec<(String, u64, u64)> {
        let mut out: Vec<_> = self
            .short
            .iter()
            .enumerate()
            .filter(|(_, t)| t.0 > 0)
            .map(|(slot, t)| (short_ident(slot), t.0, t.1))
            .collect();
        out.extend(self.long.iter().map(|(i, t)| (i.clone(), t.0, t.1)));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_round_trip() {
        for ident in ["A", "B", "Z", "AB", "ZZ", "KM"] {
            assert_eq!(short_ident(short_slot(ident.as_bytes()).unwrap()), ident);
        }
        assert_eq!(short_slot(b"KGSDE"), None);
        assert_eq!(short_slot(b""), None);
        assert_eq!(short_slot(b"a"), None);
    }

    #[test]
    fn games_and_occurrences() {
        let mut tally = PropertyTally::default();
        for ident in ["B", "W", "B", "MULTIGOGM", "MULTIGOGM"] {
            tally.count(ident.as_bytes());
        }
        tally.end_game();
        tally.count(b"B");
        tally.end_game();
        assert_eq!(tally.game, GameProperties::default());
        let mut e = tally.entries();
        e.sort();
        assert_eq!(
            e,
            [
                ("B".to_string(), 2, 3),
                ("MULTIGOGM".to_string(), 1, 2),
                ("W".to_string(), 1, 1)
            ]
        );
    }
}
