//! What stops or troubles a replay: [`IllegalMove`], [`LimitExceeded`],
//! [`ReplayError`].

use crate::game::board::Illegal;
use crate::span::Position;
use crate::tree::read::{ReadGame, ReadNode};
use crate::value::{Color, Point};
use std::fmt;

/// A move the rules refused, where it is in the game and what the replay
/// did with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The node of the move: its key in its game ([`ReadNode::key`]).
    pub key: usize,
    /// Where the node is in the input; `None` for a node not read from
    /// one (a node of an [`EditableGame`](crate::edit::EditableGame)).
    pub position: Option<Position>,
    /// The move number (1 for the first move of the line).
    pub move_number: usize,
    /// Who played it.
    pub color: Color,
    /// Where (`None` for a value that is no point of the board).
    pub point: Option<Point>,
    /// Why it is illegal.
    pub reason: Illegal,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let color = match self.color {
            Color::Black => "B",
            Color::White => "W",
        };
        match self.point {
            Some(p) => write!(f, "move {} {color}[{p}]", self.move_number)?,
            None => write!(f, "move {} {color}", self.move_number)?,
        }
        if let Some(at) = self.position {
            write!(f, " at {at}")?;
        }
        write!(f, ": {}", self.reason)
    }
}

impl std::error::Error for IllegalMove {}

/// Which limit of [`ReplayOptions`](super::ReplayOptions) a replay reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Limit {
    /// [`ReplayOptions::max_nodes`](super::ReplayOptions::max_nodes).
    Nodes,
    /// [`ReplayOptions::max_depth`](super::ReplayOptions::max_depth).
    Depth,
    /// [`ReplayOptions::max_changes`](super::ReplayOptions::max_changes).
    Changes,
}

impl Limit {
    /// A short name, stable for output (`nodes`, `depth`, `changes`).
    pub fn name(self) -> &'static str {
        match self {
            Limit::Nodes => "nodes",
            Limit::Depth => "depth",
            Limit::Changes => "changes",
        }
    }
}

/// A replay stopped by one of its limits, at the node it would have
/// entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitExceeded {
    /// The limit reached.
    pub limit: Limit,
    /// Its value.
    pub max: u64,
    /// The node not entered: its key in its game ([`ReadNode::key`]).
    pub key: usize,
    /// Where that node is in the input; `None` for a node not read from
    /// one.
    pub position: Option<Position>,
}

impl fmt::Display for LimitExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.limit {
            Limit::Nodes => "nodes replayed",
            Limit::Depth => "nodes in one line",
            Limit::Changes => "stones put on or taken off",
        };
        write!(f, "replay limit: more than {} {what}", self.max)?;
        match self.position {
            Some(at) => write!(f, " (the node at {at})"),
            None => write!(f, " (node {})", self.key),
        }
    }
}

impl std::error::Error for LimitExceeded {}

/// Why a cursor could not enter a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReplayError {
    /// An illegal move, in strict mode.
    Illegal(IllegalMove),
    /// A limit of [`ReplayOptions`](super::ReplayOptions) reached.
    Limit(LimitExceeded),
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Illegal(e) => write!(f, "{e}"),
            ReplayError::Limit(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ReplayError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReplayError::Illegal(e) => Some(e),
            ReplayError::Limit(e) => Some(e),
        }
    }
}

impl From<IllegalMove> for ReplayError {
    fn from(e: IllegalMove) -> Self {
        ReplayError::Illegal(e)
    }
}

impl From<LimitExceeded> for ReplayError {
    fn from(e: LimitExceeded) -> Self {
        ReplayError::Limit(e)
    }
}

/// The limit `limit` reached at `node`.
pub(super) fn limit<'g, N: ReadNode<'g>>(node: N, limit: Limit, max: u64) -> LimitExceeded {
    LimitExceeded {
        limit,
        max,
        key: node.key(),
        position: position_of(node),
    }
}

/// Where `node` is in the input it was read from.
#[cold]
pub(super) fn position_of<'g, N: ReadNode<'g>>(node: N) -> Option<Position> {
    node.game().position(node.offset()?)
}
