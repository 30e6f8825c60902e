//! Raw mode, and what every mode shares: a node copied as it stands when
//! nothing in it changes, its properties in file order otherwise, and the
//! root's `CA` and `FF` put where they belong.

use super::canonical::rank;
use super::value::{is_compose, is_single};
use super::{PointStyle, Writer};
use crate::error::Result;
use crate::tree::read::{ReadGame, ReadMode, ReadNode, ReadProperty};
use crate::value::catalogue;
use crate::value::{Arity, Move, ValueType};
use std::io::Write;

impl<W: Write> Writer<W> {
    /// Writes one node, `;` and its properties, into the buffer; on an
    /// error the buffer ends before the node.
    pub(super) fn node<'g>(&mut self, node: impl ReadNode<'g>) -> Result<()> {
        let start = self.pending.unwrap_or(self.buf.len());
        let col = self.col;
        let written = self.node_inner(node);
        if written.is_err() {
            self.buf.truncate(start);
            self.pending = None;
            self.col = col;
        }
        written
    }

    pub(super) fn node_inner<'g>(&mut self, node: impl ReadNode<'g>) -> Result<()> {
        if self.copy_nodes {
            self.pending = None;
            self.buf.push(b';');
            let root_ca = node.is_root().then_some(self.game.ca).flatten();
            if let Some(name) = root_ca {
                write_ca(&mut self.buf, name);
                // A `CA` naming no usable charset gives way to this one.
                if node.game().declared_charset().is_some() {
                    self.raw_props(node, true);
                    return Ok(());
                }
            }
            // Most nodes are written as they stand in the input (`;B[pd]C[…]`).
            match node.written_as_is() {
                Some(bytes) => self.buf.extend_from_slice(bytes),
                None => self.raw_props(node, false),
            }
            return Ok(());
        }
        if self.copy_plain
            && !node.is_root()
            && let Some(bytes) = self.as_is_in_mode(node)
        {
            self.pending = None;
            self.buf.push(b';');
            self.buf.extend_from_slice(bytes);
            return Ok(());
        }
        let at = self.token_start();
        self.buf.push(b';');
        self.pending = Some(at);
        let result = if self.options.canonical {
            self.canonical_props(node)
        } else {
            self.file_order_props(node)
        };
        if let Some(at) = self.pending.take() {
            // A node without properties.
            self.token(at);
        }
        result
    }

    /// The bytes of a plain node (see `Node::written_as_is`) when this
    /// mode writes them unchanged: no `\` (so no escape to drop), ASCII
    /// when transcoding, and in canonical mode no ranked property, no pass
    /// to rewrite, no point list to rewrite, no second `:` in a value that
    /// may be compose. Not for roots.
    #[inline]
    pub(super) fn as_is_in_mode<'g>(&self, node: impl ReadNode<'g>) -> Option<&'g [u8]> {
        let bytes = node.written_as_is()?;
        if find(b'\\', bytes).is_some() || (self.game.target.is_some() && !bytes.is_ascii()) {
            return None;
        }
        if !self.options.canonical {
            return Some(bytes);
        }
        if node.read_mode() != ReadMode::Bytes {
            return None;
        }
        // Without `\`, read a byte at a time, a plain node's bytes are
        // `ID[value]ID[value]…`, with no `]` inside a value unless the
        // parser kept an unescaped one as text: then a piece found here has
        // an identifier that is not one, or there are more pieces than the
        // node has properties, and the node is not copied.
        let mut rest = bytes;
        let mut pieces = 0;
        while !rest.is_empty() {
            let open = find(b'[', rest)?;
            let close = open + 1 + find(b']', &rest[open + 1..])?;
            let ident = &rest[..open];
            if !ident.iter().all(u8::is_ascii_uppercase)
                || !self.canonical_as_is(ident, &rest[open + 1..close])
            {
                return None;
            }
            pieces += 1;
            rest = &rest[close + 1..];
        }
        (pieces == node.properties().count()).then_some(bytes)
    }

    /// Whether canonical mode writes property `ident` with the one value
    /// `raw` (which holds no `\`) as it stands.
    #[inline]
    pub(super) fn canonical_as_is(&self, ident: &[u8], raw: &[u8]) -> bool {
        if rank(ident).is_some() {
            return false;
        }
        let gm = self.game.gm;
        let info = catalogue::lookup_bytes(gm, ident);
        let compose = info.is_none_or(|i| is_compose(i.ty) || i.alt.is_some_and(is_compose));
        if compose && memchr::memchr_iter(b':', raw).nth(1).is_some() {
            return false;
        }
        let Some(info) = info.filter(|_| gm == 1) else {
            return true;
        };
        match info.ty {
            ValueType::Move => {
                let size = self.game.size;
                let pass_as_is = raw.is_empty() && !(self.options.tt_pass && size.tt_is_pass());
                pass_as_is || Move::read(raw, size) != Some(Move::Pass)
            }
            ValueType::Point | ValueType::Stone => {
                info.arity == Arity::One || self.options.points == PointStyle::AsWritten
            }
            _ => true,
        }
    }

    /// Raw mode's plain path: the properties, values as read.
    pub(super) fn raw_props<'g, N: ReadNode<'g>>(&mut self, node: N, skip_ca: bool) {
        // A root whose CA switches to reading a character at a time
        // (Shift_JIS, Big5, GBK) keeps repeated properties apart: merged, a
        // value read after CA could land before it and be read byte by byte.
        if node.keeps_occurrences() {
            self.raw_props_of(node.occurrences(), skip_ca);
        } else {
            self.raw_props_of(node.properties(), skip_ca);
        }
    }

    fn raw_props_of<'g, P: ReadProperty<'g>>(
        &mut self,
        props: impl Iterator<Item = P>,
        skip_ca: bool,
    ) {
        for prop in props {
            if skip_ca && prop.ident() == "CA" {
                continue;
            }
            self.buf.extend_from_slice(prop.ident().as_bytes());
            for value in prop.values() {
                self.buf.push(b'[');
                self.buf.extend_from_slice(value);
                self.buf.push(b']');
            }
        }
    }

    /// What the writer puts first in a root: `FF[4]` in canonical mode,
    /// then the `CA` it pins.
    pub(crate) fn root_head(&mut self) {
        if self.options.canonical {
            let at = self.token_start();
            self.buf.extend_from_slice(b"FF[4]");
            self.token(at);
        }
        if let Some(name) = self.game.ca {
            let at = self.token_start();
            write_ca(&mut self.buf, name);
            self.token(at);
        }
    }

    /// The properties in file order (raw mode with options, and the root
    /// of a game read a character at a time in canonical mode), after the
    /// `CA` the writer adds.
    pub(super) fn file_order_props<'g, N: ReadNode<'g>>(&mut self, node: N) -> Result<()> {
        let root = node.is_root();
        if root {
            self.root_head();
        }
        // Transcoded, the root is read as the target's charset from `CA`
        // on, which comes first: repeats merge as elsewhere.
        let keep_apart = node.keeps_occurrences() && self.game.target.is_none();
        if keep_apart {
            self.file_order_of(node, node.occurrences(), root, true)
        } else {
            self.file_order_of(node, node.properties(), root, false)
        }
    }

    fn file_order_of<'g, N: ReadNode<'g>>(
        &mut self,
        node: N,
        props: impl Iterator<Item = N::Property>,
        root: bool,
        keep_apart: bool,
    ) -> Result<()> {
        for prop in props {
            let ident = prop.ident_bytes();
            if (root && self.game.ca.is_some() && ident == b"CA")
                || (root && self.options.canonical && ident == b"FF")
                || self.options.drops(ident)
                || self.options.drops_comment(ident, prop.values())
            {
                continue;
            }
            let info = || catalogue::lookup_bytes(self.game.gm, ident);
            if keep_apart && self.options.canonical && is_single(info()) {
                // Only the first occurrence of a single-valued property;
                // the others are reported.
                let first = node.occurrences().find(|p| p.ident_bytes() == ident);
                if first.is_some_and(|p| !p.is(prop)) {
                    self.drop_values(node.game(), prop, 0);
                    continue;
                }
            }
            self.property(node, prop, ident)?;
        }
        Ok(())
    }
}

/// The first `byte` in `hay`: a plain loop for the short slices of move
/// nodes, where a call to `memchr` costs more than it saves.
#[inline]
pub(super) fn find(byte: u8, hay: &[u8]) -> Option<usize> {
    if hay.len() < 16 {
        hay.iter().position(|&b| b == byte)
    } else {
        memchr::memchr(byte, hay)
    }
}

/// `CA[name]`.
pub(super) fn write_ca(buf: &mut Vec<u8>, name: &str) {
    buf.extend_from_slice(b"CA[");
    buf.extend_from_slice(name.as_bytes());
    buf.push(b']');
}
