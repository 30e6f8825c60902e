//! A writer driven from outside, a token at a time: for rewriters (the
//! named repairs of [`crate::repair`]) that walk a tree themselves and
//! write nodes that are not in it (a node split in two, properties moved,
//! values replaced), with this writer's rules for each property and value
//! (modes, escapes, transcoding, dropped properties, wrapping, the `CA` of
//! the root).

use super::canonical::rank;
use super::value::{is_single, Shape};
use super::{Writer, FLUSH_AT};
use crate::error::Result;
use crate::tree::{GameTree, Node, Property};
use crate::value::catalogue;
use std::borrow::Cow;
use std::io::Write;

/// One property of a node written by [`Writer::put_items`].
#[derive(Clone, Debug)]
pub(crate) enum Item<'t, 'src> {
    /// A property of the tree, written as the writer's mode writes it.
    Prop(Property<'t, 'src>),
    /// A property with the values given here: raw (escaped as in a file),
    /// each with the input offset it stands for (for error positions).
    /// `context` is a property of the same game: its node says the charset
    /// the values are in.
    New {
        ident: &'t str,
        values: Vec<(Cow<'src, [u8]>, usize)>,
        context: Property<'t, 'src>,
    },
}

impl<'t> Item<'t, '_> {
    /// The identifier.
    pub(crate) fn ident(&self) -> &'t str {
        match self {
            Item::Prop(p) => p.ident(),
            Item::New { ident, .. } => ident,
        }
    }
}

impl<W: Write> Writer<W> {
    /// Starts writing `game` (its size, charset and the `CA` of its root).
    pub(crate) fn put_game_start(&mut self, game: GameTree<'_, '_>) {
        self.begin_game(game);
    }

    /// Writes `(`.
    pub(crate) fn put_open(&mut self) {
        self.open();
    }

    /// Writes `)`.
    pub(crate) fn put_close(&mut self) {
        self.buf.push(b')');
        self.col += 1;
    }

    /// Ends the game: a line break, and the buffer handed on.
    pub(crate) fn put_game_end(&mut self) -> Result<()> {
        self.pending = None;
        self.buf.push(b'\n');
        self.col = 0;
        self.flush_buf()
    }

    /// Ends a game whose writing failed: what was written of it (up to the
    /// node that failed) is handed on, as [`Writer::write_tree`] does.
    pub(crate) fn put_abort(&mut self) -> Result<()> {
        self.pending = None;
        self.flush_buf()
    }

    /// Writes a node of the tree as [`Writer::write_tree`] writes it.
    pub(crate) fn put_node(&mut self, node: Node<'_, '_>) -> Result<()> {
        self.node(node)?;
        self.maybe_flush()
    }

    /// Writes a node made of `items`, in place of `origin` (a root when
    /// `root`: then the `CA` the writer pins, and `FF[4]` in canonical
    /// mode). Properties are written as [`Writer::write_tree`] writes
    /// them: in canonical mode in its order.
    pub(crate) fn put_items(
        &mut self,
        origin: Node<'_, '_>,
        root: bool,
        items: &[Item<'_, '_>],
    ) -> Result<()> {
        let start = self.pending.unwrap_or(self.buf.len());
        let col = self.col;
        let written = self.items_inner(origin, root, items);
        if written.is_err() {
            self.buf.truncate(start);
            self.pending = None;
            self.col = col;
            return written;
        }
        self.maybe_flush()
    }

    fn maybe_flush(&mut self) -> Result<()> {
        if self.buf.len() >= FLUSH_AT && self.pending.is_none() {
            self.flush_buf()?;
        }
        Ok(())
    }

    fn items_inner(
        &mut self,
        origin: Node<'_, '_>,
        root: bool,
        items: &[Item<'_, '_>],
    ) -> Result<()> {
        let at = self.token_start();
        self.buf.push(b';');
        self.pending = Some(at);
        if root {
            self.root_head();
        }
        let mut order: Vec<usize> = (0..items.len()).collect();
        // A root read a character at a time keeps its file order (as
        // `canonical_props` does).
        let file_order =
            root && self.game.target.is_none() && origin.mode() != crate::lexer::ValueMode::Bytes;
        if self.options.canonical && !file_order {
            order.sort_by_key(|&i| rank(items[i].ident().as_bytes()).unwrap_or(usize::MAX));
        }
        for (n, &i) in order.iter().enumerate() {
            let item = &items[i];
            let ident = item.ident().as_bytes();
            if (root && self.game.ca.is_some() && ident == b"CA")
                || (root && self.options.canonical && ident == b"FF")
                || self.options.drops(ident)
                || match item {
                    Item::Prop(prop) => self
                        .options
                        .drops_comment(ident, crate::tree::read::ReadProperty::values(*prop)),
                    Item::New { values, .. } => self
                        .options
                        .drops_comment(ident, values.iter().map(|(v, _)| v.as_ref())),
                }
            {
                continue;
            }
            let info = catalogue::lookup_bytes(self.game.gm, ident);
            if self.options.canonical
                && is_single(info)
                && order[..n].iter().any(|&j| items[j].ident() == item.ident())
            {
                continue;
            }
            match item {
                Item::Prop(prop) => self.property(prop.node(), *prop, ident)?,
                Item::New {
                    values, context, ..
                } => {
                    let at = self.token_start();
                    self.buf.extend_from_slice(ident);
                    let shape = Shape::of(info);
                    let mut result = Ok(());
                    for (raw, offset) in values {
                        result =
                            self.value(context.node().game(), ident, raw, Some(*offset), shape);
                        if result.is_err() {
                            break;
                        }
                    }
                    self.token(at);
                    result?;
                }
            }
        }
        if let Some(at) = self.pending.take() {
            self.token(at);
        }
        Ok(())
    }
}
