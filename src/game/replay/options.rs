//! How a game is replayed: [`ReplayOptions`].

use crate::game::board::RuleSet;

/// How a game is replayed: the rules, strictness, and the limits that keep
/// the work and memory of one replay bounded.
///
/// A replay keeps, for every node of the line it is on, what that node
/// changed (so that [`Cursor::back`](super::Cursor::back) undoes one node in the time that node
/// took): memory grows with the line's length and its changes, never with
/// their product. The limits stop a replay that would go beyond what any
/// real game needs; a cursor that reaches one returns
/// [`ReplayError::Limit`](super::ReplayError::Limit) and stays where it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayOptions {
    /// The rules; `None`: from the game's `RU` ([`RuleSet::for_rules`]).
    pub rules: Option<RuleSet>,
    /// Whether an illegal move is an error instead of being reported.
    pub strict: bool,
    /// The most nodes one cursor enters (the root included), over all the
    /// lines it walks. Default: [`ReplayOptions::MAX_NODES`].
    pub max_nodes: usize,
    /// The most nodes on the line from the root to the cursor (the root
    /// included). Default: [`ReplayOptions::MAX_DEPTH`].
    pub max_depth: usize,
    /// The most stones one cursor puts on or takes off the board (moves,
    /// captures, setup; what [`Cursor::back`](super::Cursor::back) undoes still counts). Default:
    /// [`ReplayOptions::MAX_CHANGES`].
    pub max_changes: u64,
    /// The most illegal moves kept in [`Cursor::illegal`](super::Cursor::illegal); those beyond
    /// are counted ([`Cursor::illegal_count`](super::Cursor::illegal_count)), not kept. Never an error.
    /// Default: [`ReplayOptions::MAX_ILLEGAL`].
    pub max_illegal: usize,
}

impl Default for ReplayOptions {
    fn default() -> Self {
        ReplayOptions {
            rules: None,
            strict: false,
            max_nodes: Self::MAX_NODES,
            max_depth: Self::MAX_DEPTH,
            max_changes: Self::MAX_CHANGES,
            max_illegal: Self::MAX_ILLEGAL,
        }
    }
}

impl ReplayOptions {
    /// Default of [`ReplayOptions::max_nodes`]: 2 million, 30 times the
    /// largest real record seen (a joseki dictionary of about 63,000
    /// nodes); a replay that far uses some 200 MB.
    pub const MAX_NODES: usize = 2_000_000;
    /// Default of [`ReplayOptions::max_depth`]: 2 million (real games end
    /// within a few thousand moves).
    pub const MAX_DEPTH: usize = 2_000_000;
    /// Default of [`ReplayOptions::max_changes`]: 4 million stones put on
    /// or taken off (a game of a million moves with its captures takes at
    /// most 2 million); the undo journal of that many changes stays in a
    /// few hundred MB.
    pub const MAX_CHANGES: u64 = 4_000_000;
    /// Default of [`ReplayOptions::max_illegal`]: 10,000 illegal moves
    /// kept.
    pub const MAX_ILLEGAL: usize = 10_000;

    /// No limits at all: memory and time still grow only linearly with
    /// the game (see [`ReplayOptions`]).
    #[must_use]
    pub fn unlimited(mut self) -> ReplayOptions {
        self.max_nodes = usize::MAX;
        self.max_depth = usize::MAX;
        self.max_changes = u64::MAX;
        self.max_illegal = usize::MAX;
        self
    }

    /// Replays under `rules` whatever `RU` says.
    #[must_use]
    pub fn rules(mut self, rules: RuleSet) -> ReplayOptions {
        self.rules = Some(rules);
        self
    }

    /// Makes an illegal move an error.
    #[must_use]
    pub fn strict(mut self, strict: bool) -> ReplayOptions {
        self.strict = strict;
        self
    }

    /// Sets [`ReplayOptions::max_nodes`].
    #[must_use]
    pub fn max_nodes(mut self, max: usize) -> ReplayOptions {
        self.max_nodes = max;
        self
    }

    /// Sets [`ReplayOptions::max_depth`].
    #[must_use]
    pub fn max_depth(mut self, max: usize) -> ReplayOptions {
        self.max_depth = max;
        self
    }

    /// Sets [`ReplayOptions::max_changes`].
    #[must_use]
    pub fn max_changes(mut self, max: u64) -> ReplayOptions {
        self.max_changes = max;
        self
    }

    /// Sets [`ReplayOptions::max_illegal`].
    #[must_use]
    pub fn max_illegal(mut self, max: usize) -> ReplayOptions {
        self.max_illegal = max;
        self
    }
}
