//! One read path over the two forms a game takes: as parsed (a game of a
//! shared [`Source`](super::source::Source), read in place) and as edited
//! (an [`EditableGame`], owned). Nodes are named by their *key*: the node's
//! index in the game, which is its pre-order number in a parsed game and
//! stays its [`EditId`] index once the game is made editable (the editable
//! copy numbers nodes as the parsed game does), so a key survives the
//! change.

use sgf_grove::edit::{EditId, EditableGame};
use sgf_grove::value::BoardSize;
use sgf_grove::{GameTree, Node, NodeId, Position};

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

impl<'a> View<'a> {
    fn parsed(g: GameTree<'a, 'a>, key: u32) -> Option<Node<'a, 'a>> {
        let root = g.root().id().index();
        let id = NodeId::from_index(root + key as usize)?;
        let node = g.collection().try_node(id)?;
        (node.game().index() == g.index()).then_some(node)
    }

    fn edit_id(&self, key: u32) -> Option<EditId> {
        match self {
            View::Edited(e) => EditId::from_index(key as usize).filter(|&id| e.contains(id)),
            View::Parsed(_) => None,
        }
    }

    fn key_of(g: GameTree<'a, 'a>, node: Node<'a, 'a>) -> u32 {
        (node.id().index() - g.root().id().index()) as u32
    }

    /// Whether `key` names a node of the game (not deleted).
    pub(crate) fn contains(&self, key: u32) -> bool {
        match *self {
            View::Parsed(g) => View::parsed(g, key).is_some(),
            View::Edited(_) => self.edit_id(key).is_some(),
        }
    }

    /// The parent's key; `None` for the root (or a key of no node).
    pub(crate) fn parent(&self, key: u32) -> Option<u32> {
        match *self {
            View::Parsed(g) => View::parsed(g, key)?.parent().map(|p| View::key_of(g, p)),
            View::Edited(e) => {
                let id = self.edit_id(key)?;
                e.node(id).ok()?.parent().map(|p| p.index() as u32)
            }
        }
    }

    /// The children's keys, in order (the first is the main line).
    pub(crate) fn children(&self, key: u32) -> Vec<u32> {
        match *self {
            View::Parsed(g) => View::parsed(g, key)
                .map(|n| n.children().map(|c| View::key_of(g, c)).collect())
                .unwrap_or_default(),
            View::Edited(e) => self
                .edit_id(key)
                .and_then(|id| e.node(id).ok())
                .map(|n| n.children().iter().map(|c| c.index() as u32).collect())
                .unwrap_or_default(),
        }
    }

    /// The first child's key.
    pub(crate) fn first_child(&self, key: u32) -> Option<u32> {
        match *self {
            View::Parsed(g) => View::parsed(g, key)?
                .first_child()
                .map(|c| View::key_of(g, c)),
            View::Edited(e) => {
                let id = self.edit_id(key)?;
                e.node(id).ok()?.first_child().map(|c| c.index() as u32)
            }
        }
    }

    /// The number of children.
    pub(crate) fn child_count(&self, key: u32) -> usize {
        match *self {
            View::Parsed(g) => View::parsed(g, key).map_or(0, |n| n.children().count()),
            View::Edited(e) => self
                .edit_id(key)
                .and_then(|id| e.node(id).ok())
                .map_or(0, |n| n.children().len()),
        }
    }

    /// Every node's key in pre-order from `key` (iterative).
    pub(crate) fn subtree(&self, key: u32) -> Vec<u32> {
        match *self {
            View::Parsed(g) => match View::parsed(g, key) {
                Some(n) => n.descendants().map(|d| View::key_of(g, d)).collect(),
                None => Vec::new(),
            },
            View::Edited(_) => {
                let mut out = Vec::new();
                let mut stack = vec![key];
                while let Some(k) = stack.pop() {
                    out.push(k);
                    let children = self.children(k);
                    stack.extend(children.into_iter().rev());
                }
                out
            }
        }
    }

    /// The properties of node `key`: identifier and raw values, in order.
    pub(crate) fn properties(&self, key: u32) -> Vec<(&'a str, Vec<RawAt<'a>>)> {
        match *self {
            View::Parsed(g) => match View::parsed(g, key) {
                Some(n) => n
                    .properties()
                    .map(|p| {
                        let values = p
                            .values()
                            .map(|v| (v.raw(), Some(v.span().start)))
                            .collect();
                        (p.ident(), values)
                    })
                    .collect(),
                None => Vec::new(),
            },
            View::Edited(e) => match self.edit_id(key).and_then(|id| e.node(id).ok()) {
                Some(n) => n
                    .properties()
                    .map(|p| (p.ident(), p.values().map(|v| (v, None)).collect()))
                    .collect(),
                None => Vec::new(),
            },
        }
    }

    /// The identifiers of node `key`'s properties, in order.
    pub(crate) fn idents(&self, key: u32) -> Vec<&'a str> {
        match *self {
            View::Parsed(g) => View::parsed(g, key)
                .map(|n| n.properties().map(|p| p.ident()).collect())
                .unwrap_or_default(),
            View::Edited(e) => self
                .edit_id(key)
                .and_then(|id| e.node(id).ok())
                .map(|n| n.properties().map(|p| p.ident()).collect())
                .unwrap_or_default(),
        }
    }

    /// The raw values of property `ident` of node `key`; `None` when the
    /// node lacks it.
    pub(crate) fn values(&self, key: u32, ident: &str) -> Option<Vec<RawAt<'a>>> {
        match *self {
            View::Parsed(g) => {
                let p = View::parsed(g, key)?.property(ident)?;
                Some(
                    p.values()
                        .map(|v| (v.raw(), Some(v.span().start)))
                        .collect(),
                )
            }
            View::Edited(e) => {
                let n = e.node(self.edit_id(key)?).ok()?;
                let p = n.property(ident)?;
                Some(p.values().map(|v| (v, None)).collect())
            }
        }
    }

    /// The first raw value of `ident` in node `key`.
    pub(crate) fn first(&self, key: u32, ident: &str) -> Option<RawAt<'a>> {
        match *self {
            View::Parsed(g) => {
                let p = View::parsed(g, key)?.property(ident)?;
                let v = p.first_value();
                Some((v.raw(), Some(v.span().start)))
            }
            View::Edited(e) => {
                let n = e.node(self.edit_id(key)?).ok()?;
                Some((n.raw(ident)?, None))
            }
        }
    }

    /// Whether node `key` has property `ident`.
    pub(crate) fn has(&self, key: u32, ident: &str) -> bool {
        match *self {
            View::Parsed(g) => View::parsed(g, key).is_some_and(|n| n.has(ident)),
            View::Edited(e) => self
                .edit_id(key)
                .and_then(|id| e.node(id).ok())
                .is_some_and(|n| n.has(ident)),
        }
    }

    /// The byte offset of node `key` in the input, for a node read from it.
    pub(crate) fn node_offset(&self, key: u32) -> Option<usize> {
        match *self {
            View::Parsed(g) => View::parsed(g, key).map(|n| n.offset()),
            View::Edited(_) => None,
        }
    }

    /// The position of byte `offset` of the input (a parsed game).
    pub(crate) fn position(&self, offset: usize) -> Option<Position> {
        match *self {
            View::Parsed(g) => Some(g.collection().position(offset)),
            View::Edited(_) => None,
        }
    }

    /// The board size (the root's `SZ`; 19×19 when absent or malformed).
    pub(crate) fn size(&self) -> BoardSize {
        match *self {
            View::Parsed(g) => g.board_size(),
            View::Edited(e) => e.board_size(),
        }
    }

    /// The charset of the game's text.
    pub(crate) fn encoding(&self) -> &'static sgf_grove::encoding_rs::Encoding {
        match *self {
            View::Parsed(g) => g.charset().encoding(),
            View::Edited(e) => e.charset(),
        }
    }

    /// The game (`GM`; 1 is Go).
    pub(crate) fn game_type(&self) -> u32 {
        match *self {
            View::Parsed(g) => g.game_type(),
            View::Edited(e) => e.game_type(),
        }
    }

    /// The number of nodes.
    pub(crate) fn node_count(&self) -> usize {
        match *self {
            View::Parsed(g) => g.nodes().len(),
            View::Edited(e) => e.node_count(),
        }
    }
}
