//! Which of a collection's warnings belong to one of its games.

use crate::error::WarningKind;
use crate::GameTree;

/// The warnings of one game, by kind.
///
/// A collection holding one game (a game of a
/// [`StreamParser`](crate::StreamParser) or of
/// [`Parser::parse_each`](crate::Parser::parse_each)) holds that game's
/// warnings: all of them count, the dropped ones too
/// ([`Collection::warning_count`](crate::Collection::warning_count)). In a
/// collection of several games a game owns the kept warnings from the end
/// of the game before it up to its own end; the last game also owns those
/// after it and the dropped ones. So the counts of a collection's games add
/// up to the collection's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct GameWarnings {
    pub(crate) by_kind: [u32; WarningKind::COUNT],
}

impl GameWarnings {
    pub(crate) fn of(game: GameTree<'_, '_>) -> GameWarnings {
        let coll = game.collection();
        let mut out = GameWarnings::default();
        if coll.len() <= 1 {
            for &kind in WarningKind::ALL {
                out.add(kind, coll.warning_count(kind));
            }
            return out;
        }
        let local = game.local_index();
        let last = local + 1 == coll.len();
        let end_of = |i: usize| coll.game(i).map_or(0, |g| coll.stream_offset(g.span().end));
        let from = if local == 0 { 0 } else { end_of(local - 1) };
        let to = if last { usize::MAX } else { end_of(local) };
        let warnings = coll.warnings();
        // Kept warnings are in file order.
        let lo = warnings.partition_point(|w| w.pos.offset < from);
        let hi = warnings.partition_point(|w| w.pos.offset < to);
        for w in &warnings[lo.min(hi)..hi] {
            out.add(w.kind, 1);
        }
        if last && coll.warnings_dropped() > 0 {
            let mut kept = [0usize; WarningKind::COUNT];
            for w in warnings {
                kept[w.kind as usize] += 1;
            }
            for &kind in WarningKind::ALL {
                let dropped = coll.warning_count(kind).saturating_sub(kept[kind as usize]);
                out.add(kind, dropped);
            }
        }
        out
    }

    fn add(&mut self, kind: WarningKind, n: usize) {
        let slot = &mut self.by_kind[kind as usize];
        *slot = slot.saturating_add(n.try_into().unwrap_or(u32::MAX));
    }

    pub(crate) fn total(&self) -> u32 {
        self.by_kind.iter().fold(0u32, |a, &b| a.saturating_add(b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ParseOptions, Parser};

    #[test]
    fn games_of_one_collection_share_its_warnings() {
        // Junk before the first game, a lower-case identifier in the
        // second, junk after the last.
        let input = b"junk (;GM[1];B[aa]) (;GaMe[1];B[bb]) (;B[cc]) tail";
        let doc = crate::parse(input).unwrap();
        let per_game: Vec<u32> = doc.games().map(|g| GameWarnings::of(g).total()).collect();
        assert_eq!(per_game.iter().sum::<u32>() as usize, doc.warnings().len());
        assert_eq!(per_game[0], 1);
        assert_eq!(per_game[1], 1);
        assert_eq!(per_game[2], 1);
    }

    #[test]
    fn dropped_warnings_go_to_the_last_game() {
        let mut parser = Parser::with_options(ParseOptions::new().max_warnings(1));
        let coll = parser.parse(b"(;B[aa])) (;W[bb])))").unwrap();
        let total: u32 = coll.games().map(|g| GameWarnings::of(g).total()).sum();
        let all: usize = WarningKind::ALL
            .iter()
            .map(|&k| coll.warning_count(k))
            .sum();
        assert_eq!(total as usize, all);
        assert!(coll.warnings_dropped() > 0);
    }

    #[test]
    fn one_game_collections_count_dropped_ones() {
        let mut parser = Parser::with_options(ParseOptions::new().max_warnings(1));
        let coll = parser.parse(b"(;B[aa]))))").unwrap();
        let game = coll.games().next().unwrap();
        let w = GameWarnings::of(game);
        assert_eq!(w.by_kind[WarningKind::ExtraCloseParen as usize], 3);
    }
}
