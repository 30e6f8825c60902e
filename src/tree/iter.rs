//! Iterators over the arena tree. None of them recurses or allocates.

use super::{Collection, GameTree, Node, Property, Value};
use crate::lexer::{ident_matches, NoSink, PropLexer, ValueLexer};
use crate::span::Span;
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
    lexer: PropLexer<'src>,
    repeats: bool,
}

impl<'t, 'src: 't> Properties<'t, 'src> {
    pub(crate) fn new(node: Node<'t, 'src>, lexer: PropLexer<'src>, repeats: bool) -> Self {
        Properties {
            node,
            lexer,
            repeats,
        }
    }
}

impl<'t, 'src: 't> Iterator for Properties<'t, 'src> {
    type Item = Property<'t, 'src>;
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let raw = self.lexer.next_prop(&mut NoSink)?;
            let mut merged = false;
            if self.repeats {
                // A later occurrence: its values were handed out with the
                // first.
                if self.node.coll.is_repeat_tail(raw.ident.0) {
                    continue;
                }
                merged = self.node.coll.is_repeat_head(raw.ident.0);
            }
            return Some(Property {
                node: self.node,
                raw,
                merged,
            });
        }
    }
}

impl FusedIterator for Properties<'_, '_> {}

/// The values of a property in file order, from [`Property::values`].
#[derive(Clone, Debug)]
pub struct Values<'t, 'src: 't> {
    coll: Collection<'t, 'src>,
    values: Option<ValueLexer<'src>>,
    /// For a merged property: the rest of the node, to find more occurrences.
    rest: Option<(PropLexer<'src>, &'t str)>,
}

impl<'t, 'src: 't> Values<'t, 'src> {
    pub(crate) fn new(prop: Property<'t, 'src>) -> Self {
        let coll = prop.node.coll;
        let input = coll.input;
        let raw = prop.raw_prop();
        // `raw.end` is just past the last value; the lexer resumes there.
        let rest = prop
            .merged
            .then(|| (prop.node().lexer_at(raw.end), prop.ident()));
        Values {
            coll,
            values: Some(ValueLexer::new(input, &raw, prop.mode())),
            rest,
        }
    }

    /// The collection the values belong to.
    pub(crate) fn collection(&self) -> Collection<'t, 'src> {
        self.coll
    }

    pub(crate) fn empty(coll: Collection<'t, 'src>) -> Self {
        Values {
            coll,
            values: None,
            rest: None,
        }
    }
}

impl<'t, 'src: 't> Iterator for Values<'t, 'src> {
    type Item = Value<'src>;
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(values) = &mut self.values {
                if let Some((s, e)) = values.next_value() {
                    return Some(Value {
                        raw: &self.coll.input[s..e],
                        span: Span::new(s, e),
                    });
                }
                self.values = None;
            }
            let (lexer, ident) = self.rest.as_mut()?;
            let raw = loop {
                let raw = lexer.next_prop(&mut NoSink)?;
                if ident_matches(
                    &self.coll.input[raw.ident.0..raw.ident.1],
                    raw.clean,
                    ident.as_bytes(),
                ) {
                    break raw;
                }
            };
            self.values = Some(ValueLexer::new(self.coll.input, &raw, lexer.mode));
        }
    }
}

impl FusedIterator for Values<'_, '_> {}
