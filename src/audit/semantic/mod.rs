//! Semantic validation: what a record *means* checked against the
//! specification and the rules of Go, beyond what a parse and the value
//! types see. Each defect found is a [`Finding`] of one [`Check`] of the
//! catalogue (a stable code, a [`Severity`], a meaning, an explanation,
//! the repair of `sgf fix` that mends it and the SGFC message it
//! corresponds to; the table is in [`Check`]'s docs and in
//! `docs/semantic-checks.md`).
//!
//! The pass reads any game through the crate's read interface
//! ([`ReadGame`]): a parsed [`GameTree`](crate::GameTree) and an
//! [`EditableGame`](crate::edit::EditableGame) give the same findings (the
//! edited game without positions, since it was not read from an input).
//! It walks every node of every line of play once, depth first, with one
//! replay (a [`DetachedCursor`](crate::game::replay::DetachedCursor),
//! kept from game to game with its board) that enters each child and
//! goes back to its parent (no board copied per node; no undo journal at
//! all for a game without variations). Each node's properties are read
//! once, for its checks and its replay together, and a node that holds a
//! move and nothing else (most nodes of most records) is read by its one
//! value alone: the node checks (setup and move mixed, annotations, root and game-info
//! properties, versions, game types) and the position checks (setup
//! without effect or repeated, moves onto stones, suicide, ko, superko,
//! colours, handicap) in the same walk. Games that are not Go (`GM` other
//! than 1) get the node checks only.
//!
//! Memory is bounded by the game: the replay's journal of the current
//! line, and the first [`Semantic::keep`] findings of the game (the others
//! counted per check). A [`Semantic`] keeps its buffers at the size of
//! the largest game it checked.
//!
//! Finding the defects of a record before importing it:
//!
//! ```
//! use sgf_grove::audit::semantic::{self, Check, Severity};
//!
//! let doc = sgf_grove::parse(b"(;GM[1]SZ[9]\n;B[cc];W[cc]BM[1];B[dd])")?;
//! let game = doc.games().next().unwrap();
//! let findings = semantic::check_game(game);
//! let codes: Vec<&str> = findings.list().iter().map(|f| f.check().code()).collect();
//! assert_eq!(codes, ["move_on_stone"]);
//! let first = &findings.list()[0];
//! assert_eq!(first.severity(), Severity::Error);
//! let at = first.position().expect("read from an input");
//! assert_eq!((at.line, at.column), (2, 8));
//! assert_eq!(first.to_string(), "move_on_stone: W[cc] is played onto a black stone (move 2) at 2:8");
//! assert_eq!(findings.count(Check::MoveOnStone), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A [`Semantic`] keeps its buffers from game to game, for a scan of many:
//!
//! ```
//! use sgf_grove::audit::semantic::{Check, Semantic};
//!
//! let doc = sgf_grove::parse(b"(;GM[1]HA[2]AB[dd][pp];B[qd])(;FF[4]L[aa];BM[1])")?;
//! let mut semantic = Semantic::new();
//! let mut total = [0u64; Check::COUNT];
//! for game in doc.games() {
//!     for (check, n) in semantic.check(game).counts() {
//!         total[check as usize] += n;
//!     }
//! }
//! assert_eq!(total[Check::FirstMoveColour as usize], 1);
//! assert_eq!(total[Check::OldPropertyInFf4 as usize], 1);
//! assert_eq!(total[Check::AnnotationWithoutMove as usize], 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod catalogue;
mod nodes;
mod setup;
mod walk;

pub use catalogue::{markdown_table, Check, Severity};

use crate::game::replay::ReplayOptions;
use crate::span::Position;
use crate::tree::read::ReadGame;
use std::fmt;

/// One defect found in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    check: Check,
    key: usize,
    offset: Option<usize>,
    position: Option<Position>,
    message: String,
}

impl Finding {
    /// The check that found it.
    pub fn check(&self) -> Check {
        self.check
    }

    /// How serious it is (the check's).
    pub fn severity(&self) -> Severity {
        self.check.severity()
    }

    /// The node it is about: its key in its game
    /// ([`ReadNode::key`](crate::ReadNode::key)).
    pub fn key(&self) -> usize {
        self.key
    }

    /// The byte offset of the property it is about (its identifier), or of
    /// the node's `;` when no property is; `None` for a game not read
    /// from an input.
    pub fn offset(&self) -> Option<usize> {
        self.offset
    }

    /// The line and column of [`Finding::offset`] (with the offset in the
    /// stream the game was read from).
    pub fn position(&self) -> Option<Position> {
        self.position
    }

    /// What is wrong, with the values involved, without the position:
    /// `W[cc] is played onto a black stone (move 2)`.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Finding {
    /// `code: message at line:column` (`at node N` for a node not read
    /// from an input).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.check, self.message)?;
        match self.position {
            Some(at) => write!(f, " at {at}"),
            None => write!(f, " at node {}", self.key),
        }
    }
}

/// The findings of one game: the first [`Semantic::keep`] of them in the
/// order of the walk (the nodes in pre-order), and a count per check of
/// all of them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Findings {
    list: Vec<Finding>,
    counts: [u64; Check::COUNT],
    keep: usize,
}

impl Findings {
    fn new(keep: usize) -> Findings {
        Findings {
            list: Vec::new(),
            counts: [0; Check::COUNT],
            keep,
        }
    }

    /// The findings kept, in the order of the walk.
    pub fn list(&self) -> &[Finding] {
        &self.list
    }

    /// How many findings of `check`, kept or not.
    pub fn count(&self, check: Check) -> u64 {
        self.counts[check as usize]
    }

    /// How many findings in all, kept or not.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// How many were counted but not kept.
    pub fn dropped(&self) -> u64 {
        self.total() - self.list.len() as u64
    }

    /// The checks that found something, with their counts, in the order
    /// of [`Check::ALL`].
    pub fn counts(&self) -> impl Iterator<Item = (Check, u64)> + '_ {
        Check::ALL
            .into_iter()
            .map(|c| (c, self.counts[c as usize]))
            .filter(|&(_, n)| n > 0)
    }

    /// Whether nothing was found.
    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    /// Counts a finding, and keeps it (its message made, its position
    /// found) while under the limit.
    fn push<'g, G: ReadGame<'g>>(
        &mut self,
        game: G,
        check: Check,
        key: usize,
        offset: Option<usize>,
        message: impl FnOnce() -> String,
    ) {
        self.counts[check as usize] += 1;
        if self.list.len() < self.keep {
            self.list.push(Finding {
                check,
                key,
                offset,
                position: offset.and_then(|o| game.position(o)),
                message: message(),
            });
        }
    }
}

/// Runs the semantic checks over games, keeping its buffers from one game
/// to the next. See the [module](self) docs.
#[derive(Clone, Debug)]
pub struct Semantic {
    keep: usize,
    replay: ReplayOptions,
    scratch: setup::Scratch,
    buffers: walk::Buffers,
}

impl Default for Semantic {
    fn default() -> Semantic {
        Semantic::new()
    }
}

impl Semantic {
    /// A pass keeping the first 1,000 findings of each game.
    pub fn new() -> Semantic {
        Semantic {
            keep: 1000,
            replay: ReplayOptions::default(),
            scratch: setup::Scratch::default(),
            buffers: walk::Buffers::default(),
        }
    }

    /// How many findings of one game are kept with their message and
    /// position; further ones are only counted.
    ///
    /// Default: 1,000, more than any real record has, while a generated
    /// game of a million bad nodes costs no more memory than that.
    #[must_use]
    pub fn keep(mut self, n: usize) -> Semantic {
        self.keep = n;
        self
    }

    /// The replay's rules and limits: the rules a game's `RU` names
    /// unless [`ReplayOptions::rules`] overrides them, and limits past
    /// which the position checks stop with a `replay_limit` finding. The
    /// replay is always lenient and keeps every illegal move of a line
    /// (whatever [`ReplayOptions::strict`] and
    /// [`ReplayOptions::max_illegal`] say): each is a finding.
    ///
    /// ```
    /// use sgf_grove::audit::semantic::{Check, Semantic};
    /// use sgf_grove::game::board::RuleSet;
    /// use sgf_grove::game::replay::ReplayOptions;
    ///
    /// // A suicide, which New Zealand rules allow.
    /// let doc = sgf_grove::parse(b"(;GM[1]SZ[9]AB[ba][ab];W[aa])")?;
    /// let game = doc.games().next().unwrap();
    /// assert_eq!(Semantic::new().check(game).count(Check::Suicide), 1);
    /// let nz = ReplayOptions::default().rules(RuleSet::NEW_ZEALAND);
    /// assert_eq!(Semantic::new().replay(nz).check(game).count(Check::Suicide), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// Default: [`ReplayOptions::default`].
    #[must_use]
    pub fn replay(mut self, options: ReplayOptions) -> Semantic {
        self.replay = options;
        self
    }

    /// Checks one game, parsed or edited.
    pub fn check<'g, G: ReadGame<'g>>(&mut self, game: G) -> Findings {
        let mut findings = Findings::new(self.keep);
        let options = self.replay.strict(false).max_illegal(usize::MAX);
        walk::walk(
            game,
            options,
            &mut self.buffers,
            &mut self.scratch,
            &mut findings,
        );
        findings
    }
}

/// Checks one game with a fresh [`Semantic`].
///
/// ```
/// use sgf_grove::audit::semantic;
/// let doc = sgf_grove::parse(b"(;GM[1];AB[aa]AW[aa])")?;
/// let findings = semantic::check_game(doc.games().next().unwrap());
/// assert_eq!(findings.list()[0].message(), "point aa is in both AB and AW");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_game<'g, G: ReadGame<'g>>(game: G) -> Findings {
    Semantic::new().check(game)
}

/// A raw value for a message: lossy UTF-8, at most 40 characters,
/// control characters escaped.
fn show(raw: &[u8]) -> String {
    crate::text::for_message(&String::from_utf8_lossy(raw))
}
