//! The semantic pass on any bytes, parsed leniently: for every game, a
//! pass kept from game to game (its replay, board and stacks reused)
//! finds what a fresh pass finds; the list is within its limit and the
//! counts; each finding's offset lies in the input and its position says
//! the same offset; an editable copy of the game gives the same checks at
//! the same nodes (but the version checks when the copy's root says
//! another `FF` or `CA`: a copy pins the charset it decoded with).

use super::repro;
use crate::audit::semantic::{Check, Findings, Semantic};
use crate::edit::EditableGame;
use crate::tree::read::{ReadGame, ReadNode};

/// The largest input checked (each game is also copied and checked
/// twice more).
pub const MAX_SEMANTIC_INPUT: usize = 64 << 10;

/// Findings kept per game in the check.
const KEEP: usize = 50;

/// The checks and node keys of `found`, in order; without the version
/// checks (`versions` false).
fn codes(found: &Findings, versions: bool) -> Vec<(&'static str, usize)> {
    found
        .list()
        .iter()
        .filter(|f| {
            versions
                || !matches!(
                    f.check(),
                    Check::Ff4PropertyInOldFf | Check::OldPropertyInFf4
                )
        })
        .map(|f| (f.check().code(), f.key()))
        .collect()
}

/// Parses `input` leniently and checks the semantic pass on every game.
pub fn check_semantic(input: &[u8]) {
    if input.len() > MAX_SEMANTIC_INPUT {
        return;
    }
    let Ok(doc) = crate::parse(input) else {
        return;
    };
    let mut kept = Semantic::new().keep(KEEP);
    for (i, game) in doc.games().enumerate() {
        let fresh = Semantic::new().keep(KEEP).check(game);
        let reused = kept.check(game);
        assert_eq!(
            fresh,
            reused,
            "game {i}: a kept pass differs from a fresh one\n{}",
            repro(input)
        );
        let listed = fresh.list().len();
        assert!(
            listed <= KEEP && listed as u64 <= fresh.total(),
            "game {i}: {listed} listed of {} counted\n{}",
            fresh.total(),
            repro(input)
        );
        for f in fresh.list() {
            let offset = f
                .offset()
                .unwrap_or_else(|| panic!("game {i}: {f} has no offset\n{}", repro(input)));
            let position = f.position().expect("an offset has a position");
            assert!(
                offset < input.len() && position.offset == offset,
                "game {i}: {f} at {offset} ({position:?})\n{}",
                repro(input)
            );
        }
        let edited = EditableGame::from_game(game);
        let copy = Semantic::new().keep(KEEP).check(&edited);
        let copy_root = ReadGame::root(&edited);
        let versions = ["FF", "CA"]
            .iter()
            .all(|id| game.root().raw(id) == ReadNode::raw(copy_root, id));
        assert_eq!(
            codes(&copy, versions),
            codes(&fresh, versions),
            "game {i}: an edited copy differs\n{}",
            repro(input)
        );
    }
}
