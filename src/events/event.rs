//! What the reader hands out: events, nodes with their properties and
//! values, borrowed from the input and the reader's scratch space.

use super::*;

/// One event of a [`Reader`].
#[derive(Debug)]
pub enum Event<'r, 'src> {
    /// A game tree starts at `offset` (its `(`, or its first `;` when the
    /// `(` is missing). Sent just before its first node: a game tree with
    /// no node (`()`) sends no event.
    GameStart {
        /// Where the game tree starts.
        offset: usize,
    },
    /// The game tree ends: `span` runs from its start to just after its `)`
    /// (or to where it was cut off).
    GameEnd {
        /// The bytes of the game tree.
        span: Span,
    },
    /// A variation (`(` inside a game tree, under a node) starts at `offset`.
    VariationStart {
        /// Where its `(` is.
        offset: usize,
    },
    /// The variation opened by the last unmatched
    /// [`VariationStart`](Event::VariationStart) ends at `offset` (its `)`,
    /// or where the game was cut off).
    VariationEnd {
        /// Where its `)` is.
        offset: usize,
    },
    /// A node with its properties.
    Node(NodeEvent<'r, 'src>),
}

/// A node, as a [`Reader`] hands it out: its span and its properties, each
/// with its values, borrowed from the input.
#[derive(Clone, Copy)]
pub struct NodeEvent<'r, 'src> {
    pub(crate) input: &'src [u8],
    pub(crate) scratch: &'r Scratch,
    pub(crate) span: Span,
    pub(crate) root: bool,
    pub(crate) switch: RootSwitch,
    /// A node of one simple property (identifier, value), read by the fast
    /// path: the scratch space is not used.
    pub(crate) simple: Option<(Span32, Span32)>,
    pub(crate) links: Links,
}

/// Where a node goes in the tree, as ids counted from 1 in file order (per
/// game when the tree is built one game at a time); 0 is none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Links {
    pub(crate) id: u32,
    pub(crate) parent: u32,
    /// The sibling it follows (0: it is its parent's first child).
    pub(crate) prev_sibling: u32,
}

impl std::fmt::Debug for NodeEvent<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NodeEvent")
            .field("span", &self.span)
            .field("root", &self.root)
            .field("properties", &self.properties().collect::<Vec<_>>())
            .finish()
    }
}

impl<'r, 'src: 'r> NodeEvent<'r, 'src> {
    pub(crate) fn scratch(&self) -> &'r Scratch {
        self.scratch
    }

    /// Where the node goes in the tree.
    #[inline(always)]
    pub(crate) fn links(&self) -> Links {
        self.links
    }

    /// The identifier and value of a node of one simple property.
    #[inline(always)]
    pub(crate) fn simple(&self) -> Option<(Span32, Span32)> {
        self.simple
    }

    /// For a root: how the game's values are read after its `CA`, and from
    /// where.
    pub(crate) fn root_switch(&self) -> RootSwitch {
        self.switch
    }

    /// The bytes of the node: from its `;` (or first identifier) to just
    /// before the `;`, `(` or `)` that ends it (whitespace included).
    pub fn span(&self) -> Span {
        self.span
    }

    /// Offset of the node's `;`, or of its first identifier when the `;`
    /// is missing.
    pub fn offset(&self) -> usize {
        self.span.start
    }

    /// Whether the node is the root of its game tree.
    pub fn is_root(&self) -> bool {
        self.root
    }

    /// Every occurrence of every property, in file order. A property
    /// repeated in the node comes once per occurrence; later ones say so
    /// ([`PropEvent::is_repeat`]), and the tree merges their values into the
    /// first.
    pub fn properties(&self) -> PropEvents<'r, 'src> {
        PropEvents {
            node: *self,
            next: 0,
        }
    }

    /// The first value of the first occurrence of property `ident`
    /// (normalised: `"CP"` also finds `CoPyright`).
    pub fn get(&self, ident: &str) -> Option<EventValue<'src>> {
        self.properties()
            .find(|p| p.ident() == ident)
            .and_then(|p| p.values().next())
    }
}

/// The property occurrences of a [`NodeEvent`].
#[derive(Clone, Debug)]
pub struct PropEvents<'r, 'src> {
    pub(crate) node: NodeEvent<'r, 'src>,
    pub(crate) next: usize,
}

impl<'r, 'src: 'r> Iterator for PropEvents<'r, 'src> {
    type Item = PropEvent<'r, 'src>;
    fn next(&mut self) -> Option<Self::Item> {
        let tok = match self.node.simple {
            Some((ident, _)) if self.next == 0 => PropTok {
                ident,
                name: ident,
                values: 0,
                count: 1,
                next: 0,
                flags: 0,
            },
            Some(_) => return None,
            None => *self.node.scratch.props.get(self.next)?,
        };
        self.next += 1;
        Some(PropEvent {
            node: self.node,
            tok,
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let all = match self.node.simple {
            Some(_) => 1,
            None => self.node.scratch.props.len(),
        };
        let n = all.saturating_sub(self.next);
        (n, Some(n))
    }
}

impl<'r, 'src: 'r> ExactSizeIterator for PropEvents<'r, 'src> {}
impl<'r, 'src: 'r> std::iter::FusedIterator for PropEvents<'r, 'src> {}

/// One occurrence of a property in a [`NodeEvent`].
#[derive(Clone, Copy)]
pub struct PropEvent<'r, 'src> {
    pub(crate) node: NodeEvent<'r, 'src>,
    pub(crate) tok: PropTok,
}

impl std::fmt::Debug for PropEvent<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PropEvent")
            .field("ident", &self.ident())
            .field(
                "values",
                &self.values().map(|v| v.raw()).collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl<'r, 'src: 'r> PropEvent<'r, 'src> {
    /// The normalised identifier (`CP` for `CoPyright`).
    pub fn ident(&self) -> &'r str {
        let bytes = self
            .tok
            .name_bytes(self.node.input, &self.node.scratch.names);
        // Normalised identifiers are upper-case ASCII letters.
        std::str::from_utf8(bytes).unwrap_or("")
    }

    /// The normalised identifier's bytes.
    pub(crate) fn ident_bytes(&self) -> &'r [u8] {
        self.tok
            .name_bytes(self.node.input, &self.node.scratch.names)
    }

    /// The identifier as written.
    pub fn ident_raw(&self) -> &'src [u8] {
        &self.node.input[self.tok.ident.range()]
    }

    /// Where the identifier as written is.
    pub fn ident_span(&self) -> Span {
        self.tok.ident.span()
    }

    /// Whether the property already occurred earlier in the node.
    pub fn is_repeat(&self) -> bool {
        self.tok.has(flag::REPEAT)
    }

    /// Whether the last value was cut off by the end of the input or by the
    /// start of the next game, instead of closed by its `]`.
    pub fn is_cut(&self) -> bool {
        self.tok.has(flag::CUT)
    }

    /// The values of this occurrence, in file order.
    pub fn values(&self) -> EventValues<'r, 'src> {
        let from = self.tok.values as usize;
        let (one, rest): (Option<Span32>, &'r [Span32]) = match self.node.simple {
            Some((_, value)) => (Some(value), &[]),
            None => (
                None,
                &self.node.scratch.values[from..from + self.tok.count as usize],
            ),
        };
        EventValues {
            input: self.node.input,
            one,
            rest: rest.iter(),
        }
    }
}

/// The values of a [`PropEvent`], from [`PropEvent::values`].
#[derive(Clone, Debug)]
pub struct EventValues<'r, 'src> {
    pub(crate) input: &'src [u8],
    pub(crate) one: Option<Span32>,
    pub(crate) rest: std::slice::Iter<'r, Span32>,
}

impl<'src> Iterator for EventValues<'_, 'src> {
    type Item = EventValue<'src>;
    fn next(&mut self) -> Option<Self::Item> {
        let s = match self.one.take() {
            Some(s) => s,
            None => *self.rest.next()?,
        };
        Some(EventValue {
            raw: &self.input[s.range()],
            span: s.span(),
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.one.is_some() as usize + self.rest.len();
        (n, Some(n))
    }
}

impl ExactSizeIterator for EventValues<'_, '_> {}
impl std::iter::FusedIterator for EventValues<'_, '_> {}

/// One value in an event: the bytes as written, escapes and all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventValue<'src> {
    pub(crate) raw: &'src [u8],
    pub(crate) span: Span,
}

impl<'src> EventValue<'src> {
    /// The value's bytes as written, without the brackets.
    pub fn raw(&self) -> &'src [u8] {
        self.raw
    }
    /// Where the value's bytes are.
    pub fn span(&self) -> Span {
        self.span
    }
}
