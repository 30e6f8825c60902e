//! Iterators over the arena tree. None of them recurses or allocates.

use super::{Collection, GameTree, Node, NodeId, Property, RawValue};
use crate::events::flag;
use std::iter::FusedIterator;

/// The game trees of a collection, from [`Collection::games`].
#[derive(Clone, Debug)]
pub struct Games<'t, 'src: 't> {
    coll: Collection<'t, 'src>,
    front: usize,
    back: usize,
}

impl<'t, 'src: 't> Games<'t, 'src> {
    pub(crate) fn new(coll: Collection<'t, 'src>) -> Self {
        Games {
            coll,
            front: 0,
            back: coll.store.games.len(),
        }
    }
}

impl<'t, 'src: 't> Iterator for Games<'t, 'src> {
    type Item = GameTree<'t, 'src>;
    fn next(&mut self) -> Option<Self::Item> {
        if self.front == self.back {
            return None;
        }
        self.front += 1;
        Some(GameTree {
            coll: self.coll,
            index: self.front - 1,
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Games<'_, '_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.front == self.back {
            return None;
        }
        self.back -= 1;
        Some(GameTree {
            coll: self.coll,
            index: self.back,
        })
    }
}

impl ExactSizeIterator for Games<'_, '_> {}
impl FusedIterator for Games<'_, '_> {}

/// Every node of a collection in pre-order, from [`Collection::nodes`].
#[derive(Clone, Debug)]
pub struct Nodes<'t, 'src: 't> {
    coll: Collection<'t, 'src>,
    /// The next node's index, and the end.
    next: u32,
    end: u32,
    /// The game of the next node, and the index of the next game's root.
    game: u32,
    next_root: u32,
}

impl<'t, 'src: 't> Nodes<'t, 'src> {
    pub(crate) fn new(coll: Collection<'t, 'src>) -> Self {
        let mut nodes = Nodes {
            coll,
            next: 0,
            end: coll.store.nodes.len() as u32,
            game: 0,
            next_root: u32::MAX,
        };
        nodes.next_root = nodes.root_after(0);
        nodes
    }

    /// The nodes `start..end` of the arena, all of game `game`.
    pub(crate) fn range(coll: Collection<'t, 'src>, start: u32, end: u32, game: u32) -> Self {
        Nodes {
            coll,
            next: start,
            end,
            game,
            next_root: u32::MAX,
        }
    }

    /// The arena index of the root of the game after `game`.
    fn root_after(&self, game: u32) -> u32 {
        self.coll
            .store
            .games
            .get(game as usize + 1)
            .map_or(u32::MAX, |g| g.root - 1)
    }
}

impl<'t, 'src: 't> Iterator for Nodes<'t, 'src> {
    type Item = Node<'t, 'src>;
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.next == self.end {
            return None;
        }
        let index = self.next;
        self.next += 1;
        if index == self.next_root {
            self.game += 1;
            self.next_root = self.root_after(self.game);
        }
        Some(Node {
            coll: self.coll,
            id: NodeId::from_link(index + 1).expect("non-zero"),
            game: self.game,
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.end - self.next) as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Nodes<'_, '_> {}
impl FusedIterator for Nodes<'_, '_> {}

/// The children of a node, first (main line) to last, from
/// [`Node::children`].
#[derive(Clone, Debug)]
pub struct Children<'t, 'src: 't> {
    next: Option<Node<'t, 'src>>,
}

impl<'t, 'src: 't> Children<'t, 'src> {
    pub(crate) fn new(first: Option<Node<'t, 'src>>) -> Self {
        Children { next: first }
    }
}

impl<'t, 'src: 't> Iterator for Children<'t, 'src> {
    type Item = Node<'t, 'src>;
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let node = self.next?;
        self.next = node.next_sibling();
        Some(node)
    }
}

impl FusedIterator for Children<'_, '_> {}

/// A node and everything below it in pre-order, from [`Node::descendants`].
///
/// Walks the links without a stack: down to the first child, else across to
/// the next sibling, else up until an ancestor (below the start) has one.
#[derive(Clone, Debug)]
pub struct Descendants<'t, 'src: 't> {
    root: Node<'t, 'src>,
    next: Option<Node<'t, 'src>>,
}

impl<'t, 'src: 't> Descendants<'t, 'src> {
    pub(crate) fn new(root: Node<'t, 'src>) -> Self {
        Descendants {
            root,
            next: Some(root),
        }
    }
}

impl<'t, 'src: 't> Iterator for Descendants<'t, 'src> {
    type Item = Node<'t, 'src>;
    fn next(&mut self) -> Option<Self::Item> {
        let node = self.next?;
        self.next = match node.first_child() {
            Some(child) => Some(child),
            None => {
                let mut at = node;
                loop {
                    if at.id == self.root.id {
                        break None;
                    }
                    if let Some(sibling) = at.next_sibling() {
                        break Some(sibling);
                    }
                    match at.parent() {
                        Some(parent) => at = parent,
                        None => break None,
                    }
                }
            }
        };
        Some(node)
    }
}

impl FusedIterator for Descendants<'_, '_> {}

/// A node and its first children down to a leaf, from [`Node::main_line`].
#[derive(Clone, Debug)]
pub struct MainLine<'t, 'src: 't> {
    next: Option<Node<'t, 'src>>,
}

impl<'t, 'src: 't> MainLine<'t, 'src> {
    pub(crate) fn new(start: Node<'t, 'src>) -> Self {
        MainLine { next: Some(start) }
    }
}

impl<'t, 'src: 't> Iterator for MainLine<'t, 'src> {
    type Item = Node<'t, 'src>;
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let node = self.next?;
        self.next = node.first_child();
        Some(node)
    }
}

impl FusedIterator for MainLine<'_, '_> {}

/// The ancestors of a node, parent first, from [`Node::ancestors`].
#[derive(Clone, Debug)]
pub struct Ancestors<'t, 'src: 't> {
    next: Option<Node<'t, 'src>>,
}

impl<'t, 'src: 't> Ancestors<'t, 'src> {
    pub(crate) fn new(first: Option<Node<'t, 'src>>) -> Self {
        Ancestors { next: first }
    }
}

impl<'t, 'src: 't> Iterator for Ancestors<'t, 'src> {
    type Item = Node<'t, 'src>;
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let node = self.next?;
        self.next = node.parent();
        Some(node)
    }
}

impl FusedIterator for Ancestors<'_, '_> {}

/// The properties of a node in file order, from [`Node::properties`].
#[derive(Clone, Debug)]
pub struct Properties<'t, 'src: 't> {
    node: Node<'t, 'src>,
    slots: std::ops::Range<usize>,
    /// Whether repeats are merged into their first occurrence (else every
    /// occurrence comes with its own values).
    merge: bool,
    rich: bool,
}

impl<'t, 'src: 't> Properties<'t, 'src> {
    #[inline]
    pub(crate) fn new(node: Node<'t, 'src>, merge: bool) -> Self {
        let slots = node.slots();
        let rich = !slots.is_empty() && node.rich_at(slots.start).is_some();
        Properties {
            node,
            slots,
            merge,
            rich,
        }
    }
}

impl<'t, 'src: 't> Iterator for Properties<'t, 'src> {
    type Item = Property<'t, 'src>;
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let slot = self.slots.next()?;
            if !self.rich {
                return Some(Property::new(self.node, slot, false));
            }
            let r = self.node.rich_at(slot).expect("a rich node");
            if self.merge && r.has(flag::REPEAT) {
                // A later occurrence: its values come with the first.
                continue;
            }
            return Some(Property::new(
                self.node,
                slot,
                self.merge && r.has(flag::HEAD),
            ));
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.slots.len();
        (if self.rich { 0 } else { n }, Some(n))
    }
}

impl FusedIterator for Properties<'_, '_> {}

/// The values of a property in file order, from [`Property::values`].
#[derive(Clone, Debug)]
pub struct Values<'t, 'src: 't> {
    coll: Collection<'t, 'src>,
    /// The values of the current occurrence still to come.
    values: std::ops::Range<usize>,
    /// Whether they are in the rich values (else `values` is one slot).
    rich: bool,
    /// Whether the last value of the current occurrence is cut.
    cut: bool,
    /// For a merged property: the rich record of the current occurrence and
    /// its slot, to follow the chain of later occurrences.
    chain: Option<(u32, u32)>,
}

impl<'t, 'src: 't> Values<'t, 'src> {
    #[inline]
    pub(crate) fn new(prop: Property<'t, 'src>) -> Self {
        let coll = prop.node().collection();
        match prop.rich() {
            None => Values {
                coll,
                values: prop.slot()..prop.slot() + 1,
                rich: false,
                cut: false,
                chain: None,
            },
            Some(r) => Values {
                coll,
                values: r.values as usize..(r.values + r.count) as usize,
                rich: true,
                cut: r.has(flag::CUT),
                chain: (prop.is_merged() && r.next != 0).then(|| (prop.slot() as u32 + r.next, 0)),
            },
        }
    }

    /// The collection the values belong to.
    pub(crate) fn collection(&self) -> Collection<'t, 'src> {
        self.coll
    }

    pub(crate) fn empty(coll: Collection<'t, 'src>) -> Self {
        Values {
            coll,
            values: 0..0,
            rich: false,
            cut: false,
            chain: None,
        }
    }
}

impl<'t, 'src: 't> Iterator for Values<'t, 'src> {
    type Item = RawValue<'src>;
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let store = self.coll.store;
        loop {
            if let Some(i) = self.values.next() {
                if !self.rich {
                    return Some(RawValue::new(self.coll.input, store.slots[i], false));
                }
                let cut = self.cut && self.values.is_empty();
                return Some(RawValue::new(self.coll.input, store.values[i], cut));
            }
            let (slot, _) = self.chain?;
            let r = &store.rich[store.slots[slot as usize].start as usize];
            self.values = r.values as usize..(r.values + r.count) as usize;
            self.cut = r.has(flag::CUT);
            self.chain = (r.next != 0).then(|| (slot + r.next, 0));
        }
    }
}

impl FusedIterator for Values<'_, '_> {}
