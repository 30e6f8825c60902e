//! The two forms a game takes, as parsed (a game of a shared
//! [`Source`](super::source::Source), read in place) and as edited (an
//! [`EditableGame`], owned), read through the library's one read interface
//! ([`ReadGame`], [`ReadNode`], [`ReadProperty`]): every read below is
//! written once, generic, and dispatched once by [`each_form!`]. Nodes are
//! named by their *key* ([`ReadNode::key`]): the pre-order number in a
//! parsed game, kept by the editable copy, so a key survives the change.

use sgf_grove::edit::EditableGame;
use sgf_grove::value::BoardSize;
use sgf_grove::{GameTree, Position, ReadGame, ReadNode, ReadProperty};

/// A game to read.
#[derive(Clone, Copy)]
pub(crate) enum View<'a> {
    Parsed(GameTree<'a, 'a>),
    Edited(&'a EditableGame),
}

/// Runs `$body` with `$g` bound to the game of `$view` in its own form (a
/// `GameTree` or an `&EditableGame`): code written once against the
/// library's read interface ([`sgf_grove::ReadGame`]), dispatched once.
macro_rules! each_form {
    ($view:expr, |$g:ident| $body:expr) => {
        match $view {
            $crate::core::View::Parsed($g) => $body,
            $crate::core::View::Edited($g) => $body,
        }
    };
}
pub(crate) use each_form;

/// A raw value and, in a parsed game, its byte offset in the input.
pub(crate) type RawAt<'a> = (&'a [u8], Option<usize>);

/// The node `key` of `g`.
fn at<'a, G: ReadGame<'a>>(g: G, key: u32) -> Option<G::Node> {
    g.node_by_key(key as usize)
}

/// A node's key as the bindings keep it.
fn key<'a>(n: impl ReadNode<'a>) -> u32 {
    n.key() as u32
}

impl<'a> View<'a> {
    /// Whether `key` names a node of the game (not deleted).
    pub(crate) fn contains(&self, key: u32) -> bool {
        each_form!(*self, |g| at(g, key).is_some())
    }

    /// The parent's key; `None` for the root (or a key of no node).
    pub(crate) fn parent(&self, k: u32) -> Option<u32> {
        each_form!(*self, |g| at(g, k)?.parent().map(key))
    }

    /// The children's keys, in order (the first is the main line).
    pub(crate) fn children(&self, k: u32) -> Vec<u32> {
        each_form!(*self, |g| at(g, k)
            .map(|n| n.children().map(key).collect())
            .unwrap_or_default())
    }

    /// The first child's key.
    pub(crate) fn first_child(&self, k: u32) -> Option<u32> {
        each_form!(*self, |g| at(g, k)?.first_child().map(key))
    }

    /// The number of children.
    pub(crate) fn child_count(&self, k: u32) -> usize {
        each_form!(*self, |g| at(g, k).map_or(0, |n| n.child_count()))
    }

    /// Every node's key in pre-order from `key` (iterative).
    pub(crate) fn subtree(&self, k: u32) -> Vec<u32> {
        each_form!(*self, |g| at(g, k)
            .map(|n| n.subtree().map(key).collect())
            .unwrap_or_default())
    }

    /// The properties of node `key`: identifier and raw values, in order
    /// (a repeated property once, with every value).
    pub(crate) fn properties(&self, k: u32) -> Vec<(&'a str, Vec<RawAt<'a>>)> {
        each_form!(*self, |g| at(g, k)
            .map(|n| {
                n.properties()
                    .map(|p| (p.ident(), p.values_at().collect()))
                    .collect()
            })
            .unwrap_or_default())
    }

    /// The identifiers of node `key`'s properties, in order.
    pub(crate) fn idents(&self, k: u32) -> Vec<&'a str> {
        each_form!(*self, |g| at(g, k)
            .map(|n| n.properties().map(|p| p.ident()).collect())
            .unwrap_or_default())
    }

    /// The raw values of property `ident` of node `key`; `None` when the
    /// node lacks it.
    pub(crate) fn values(&self, k: u32, ident: &str) -> Option<Vec<RawAt<'a>>> {
        each_form!(*self, |g| Some(
            at(g, k)?.property(ident)?.values_at().collect()
        ))
    }

    /// The first raw value of `ident` in node `key`.
    pub(crate) fn first(&self, k: u32, ident: &str) -> Option<RawAt<'a>> {
        each_form!(*self, |g| at(g, k)?.property(ident)?.values_at().next())
    }

    /// Whether node `key` has property `ident`.
    pub(crate) fn has(&self, k: u32, ident: &str) -> bool {
        each_form!(*self, |g| at(g, k).is_some_and(|n| n.has(ident)))
    }

    /// The byte offset of node `key` in the input (for a game of a scan,
    /// in the member it was read from), for a node read from it.
    pub(crate) fn node_offset(&self, k: u32) -> Option<usize> {
        match *self {
            View::Parsed(g) => Some(g.collection().stream_offset(at(g, k)?.offset()?)),
            View::Edited(g) => at(g, k)?.offset(),
        }
    }

    /// The position of node `key` in the input, as [`View::node_offset`]
    /// places it.
    pub(crate) fn node_position(&self, k: u32) -> Option<Position> {
        each_form!(*self, |g| g.position(at(g, k)?.offset()?))
    }

    /// The position of byte `offset` of the game's collection (a parsed
    /// game; for a game of a scan, placed in its member).
    pub(crate) fn position(&self, offset: usize) -> Option<Position> {
        each_form!(*self, |g| g.position(offset))
    }

    /// The board size (the root's `SZ`; 19×19 when absent or malformed).
    pub(crate) fn size(&self) -> BoardSize {
        each_form!(*self, |g| g.board_size())
    }

    /// The charset of the game's text.
    pub(crate) fn encoding(&self) -> &'static sgf_grove::encoding_rs::Encoding {
        each_form!(*self, |g| g.encoding())
    }

    /// The game (`GM`; 1 is Go).
    pub(crate) fn game_type(&self) -> u32 {
        each_form!(*self, |g| g.game_type())
    }

    /// The number of nodes.
    pub(crate) fn node_count(&self) -> usize {
        each_form!(*self, |g| g.node_count())
    }
}
