//! Serialising a tree back to SGF: raw, canonical, transcoding and thin.
//!
//! The writer walks each game tree with an explicit stack (never
//! recursion: trees can be a million nodes deep) into a buffer it reuses,
//! and hands the buffer to the output a node at a time once it holds 64
//! KiB or a game ends. What it writes is set by [`WriteOptions`]:
//!
//! - **raw** (the default): every value's bytes exactly as they were read,
//!   so that `parse(write(parse(x)))` equals `parse(x)` in structure,
//!   identifiers and values. Identifiers are written normalised
//!   (`CoPyright` → `CP`) and a property repeated in a node is written once
//!   with all its values.
//! - **canonical** ([`WriteOptions::canonical`]): `FF[4]`, one property
//!   order, single-valued properties with one value, escapes only where
//!   needed, passes as `[]`, point lists as written, expanded or
//!   compressed ([`PointStyle`]).
//! - **transcoding** ([`WriteOptions::transcode`]): text decoded from the
//!   game's charset and written in UTF-8 or another charset ([`Target`]),
//!   recorded as `CA`; a character the target lacks is an error.
//! - **thin** ([`WriteOptions::drop_props`], [`Preset`]): properties left
//!   out.
//!
//! New text is escaped with [`escape_value`].
//!
//! A game whose root has no `CA` is read in a charset guessed from its
//! bytes. When those bytes are not UTF-8 (or the parse fixed the charset
//! with an override), the writer adds `CA[…]` at the start of the root
//! (in canonical mode, at `CA`'s place in the order), naming the charset
//! the game was read and decoded in (in place of a `CA` that names no
//! usable charset, such as `CA[UTF-16]` on byte-oriented text): the guess
//! is made once, and the written file reads the same in any reader. A
//! transcoded game gets the `CA` of its target instead.
//!
//! ```
//! // Latin-1 text without `CA`: detected, and recorded when written.
//! let doc = sgf_grove::parse(b"(;PB[Jos\xe9 Garc\xeda];B[aa])")?;
//! assert_eq!(doc.games().next().unwrap().root().text("PB"), Some("José García"));
//! let out = sgf_grove::write_collection(doc.collection());
//! assert_eq!(out, b"(;CA[windows-1252]PB[Jos\xe9 Garc\xeda];B[aa])\n");
//! # Ok::<(), sgf_grove::Error>(())
//! ```
//!
//! Converting a GB2312 file to UTF-8:
//!
//! ```
//! use sgf_grove::writer::{Target, WriteOptions};
//! let gb2312 = b"(;CA[gb2312]PB[\xb3\xa3\xea\xbb]C[\xba\xc3\\]];B[pd])";
//! let doc = sgf_grove::parse(gb2312)?;
//! let utf8 = sgf_grove::writer::write_with(doc.collection(), &WriteOptions::new().transcode(Target::Utf8))?;
//! assert_eq!(String::from_utf8(utf8)?, "(;CA[UTF-8]PB[常昊]C[好\\]];B[pd])\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod emit;
mod options;
mod points;
pub(crate) mod single;

pub(crate) use emit::Item;

pub use options::{PointStyle, Preset, Target, WriteOptions};
pub use single::DroppedValue;

use crate::error::{Error, Result};
use crate::lexer::ValueMode;
use crate::text::charset::for_label;
use crate::tree::{Collection, GameTree, Node, NodeId, Property};
use crate::value::catalogue;
use crate::value::{split_compose, Arity, BoardSize, Move, Point, PropInfo, ValueType};
use encoding_rs::{EncoderResult, Encoding, UTF_8};
use points::Board;
use std::io::Write;

/// How much the writer buffers before it hands bytes to the output.
const FLUSH_AT: usize = 64 * 1024;

/// Writes collections and game trees as SGF to an [`std::io::Write`], as its
/// [`WriteOptions`] say.
///
/// ```
/// let doc = sgf_grove::parse(b"junk (;GM[1]CoPyright[x];B[aa](;W[bb])(;W[cc]))")?;
/// let mut out = Vec::new();
/// sgf_grove::Writer::new(&mut out).write_collection(doc.collection())?;
/// assert_eq!(out, b"(;GM[1]CP[x];B[aa](;W[bb])(;W[cc]))\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Writer<W: Write> {
    out: W,
    options: WriteOptions,
    /// Whether nodes may be copied as they stand in the input.
    copy_nodes: bool,
    /// Whether plain nodes may be copied when [`Writer::as_is_in_mode`]
    /// says so (nothing dropped, no wrapping).
    copy_plain: bool,
    stack: Vec<Option<NodeId>>,
    /// Output not yet handed to `out`.
    buf: Vec<u8>,
    /// Escaped text before it is encoded in the target charset.
    scratch: Vec<u8>,
    /// Decoded text.
    text: String,
    /// The column the next byte lands in (for wrapping).
    col: usize,
    /// Where in `buf` a token that has begun (`(` then `;` then the first
    /// property) starts.
    pending: Option<usize>,
    game: GameState,
    /// Values left out (canonical mode), until [`Writer::take_dropped`].
    dropped: Vec<DroppedValue>,
}

/// What the writer knows of the game it writes.
#[derive(Debug, Clone, Copy)]
struct GameState {
    size: BoardSize,
    /// The game type (`GM`; 1 is Go).
    gm: u32,
    /// The charset text is transcoded to, when it is not the game's.
    target: Option<&'static Encoding>,
    /// The `CA` the writer writes in the root (in place of the root's).
    ca: Option<&'static str>,
    /// The game's charset, once asked for.
    source: Option<&'static Encoding>,
}

impl<W: Write> Writer<W> {
    /// A raw-mode writer to `out`.
    pub fn new(out: W) -> Writer<W> {
        Writer::with_options(out, WriteOptions::new())
    }

    /// A writer to `out` that writes as `options` say.
    ///
    /// ```
    /// use sgf_grove::writer::{WriteOptions, Writer};
    /// let doc = sgf_grove::parse(b"(;FF[3]SZ[9]GM[1];B[tt])")?;
    /// let mut writer = Writer::with_options(Vec::new(), WriteOptions::new().canonical(true));
    /// writer.write_collection(doc.collection())?;
    /// assert_eq!(writer.into_inner(), b"(;GM[1]FF[4]SZ[9];B[])\n");
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    pub fn with_options(out: W, options: WriteOptions) -> Writer<W> {
        let copy_nodes = options.is_raw() && options.drop.is_empty() && options.wrap.is_none();
        let copy_plain = options.drop.is_empty() && options.wrap.is_none();
        Writer {
            out,
            options,
            copy_nodes,
            copy_plain,
            stack: Vec::new(),
            buf: Vec::new(),
            scratch: Vec::new(),
            text: String::new(),
            col: 0,
            pending: None,
            game: GameState {
                size: BoardSize::default(),
                gm: 1,
                target: None,
                ca: None,
                source: None,
            },
            dropped: Vec::new(),
        }
    }

    /// The options.
    pub fn options(&self) -> &WriteOptions {
        &self.options
    }

    /// The underlying output, to write to it between games (bytes written
    /// by the writer are handed to it at the end of every game).
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// The underlying output.
    pub fn into_inner(self) -> W {
        self.out
    }

    /// Writes every game tree of `coll`, one per line.
    ///
    /// # Errors
    ///
    /// Any error of the underlying output ([`ErrorKind::Io`](crate::ErrorKind::Io)),
    /// or a character that the charset text is transcoded to lacks
    /// ([`ErrorKind::Unrepresentable`](crate::ErrorKind::Unrepresentable)).
    pub fn write_collection(&mut self, coll: Collection<'_, '_>) -> Result<()> {
        for game in coll.games() {
            self.write_game(game)?;
        }
        Ok(())
    }

    /// Writes one game tree followed by a line break.
    ///
    /// # Errors
    ///
    /// As [`Writer::write_collection`].
    pub fn write_game(&mut self, game: GameTree<'_, '_>) -> Result<()> {
        self.write_tree(game.root())?;
        self.buf.push(b'\n');
        self.col = 0;
        self.flush_buf()
    }

    /// Writes the subtree under `root` as one game tree `( … )`.
    ///
    /// # Errors
    ///
    /// As [`Writer::write_collection`].
    pub fn write_tree(&mut self, root: Node<'_, '_>) -> Result<()> {
        self.begin_game(root.game());
        let written = self.walk(root);
        self.pending = None;
        if written.is_err() {
            self.flush_buf()?;
            return written;
        }
        self.flush_buf()
    }

    /// Writes one node: `;` and its properties.
    ///
    /// # Errors
    ///
    /// As [`Writer::write_collection`].
    pub fn write_node(&mut self, node: Node<'_, '_>) -> Result<()> {
        self.begin_game(node.game());
        let written = self.node(node);
        self.flush_buf()?;
        written
    }

    /// Hands the buffer to the output.
    fn flush_buf(&mut self) -> Result<()> {
        let written = self.out.write_all(&self.buf);
        self.buf.clear();
        written.map_err(Error::from)
    }

    /// Sets up the per-game state for `game`.
    fn begin_game(&mut self, game: GameTree<'_, '_>) {
        let options = &self.options;
        let target = options.target.map(|t| match t {
            Target::Utf8 => UTF_8,
            Target::Declared => game
                .declared_charset()
                .and_then(for_label)
                .map_or(UTF_8, Encoding::output_encoding),
            Target::To(encoding) => encoding.output_encoding(),
        });
        let ca = match target {
            Some(t) => Some(t.name()),
            None => game.charset_to_pin().map(Encoding::name),
        };
        self.game = GameState {
            size: game.board_size(),
            gm: game.game_type(),
            target,
            ca,
            source: None,
        };
    }

    /// The game's charset.
    fn source(&mut self, node: Node<'_, '_>) -> &'static Encoding {
        if let Some(source) = self.game.source {
            return source;
        }
        let source = node.game().charset().encoding();
        self.game.source = Some(source);
        source
    }

    fn walk(&mut self, root: Node<'_, '_>) -> Result<()> {
        // Each open `(` has an entry: the sibling to write after it closes.
        self.stack.clear();
        self.stack.push(None);
        self.open();
        let mut node = root;
        'walk: loop {
            self.node(node)?;
            if self.buf.len() >= FLUSH_AT && self.pending.is_none() {
                self.flush_buf()?;
            }
            if let Some(child) = node.first_child() {
                if let Some(next) = child.next_sibling() {
                    self.stack.push(Some(next.id()));
                    self.open();
                }
                node = child;
                continue;
            }
            // A leaf: close variations until one has a sibling left.
            loop {
                // A `)` stays on the line of what it closes.
                self.buf.push(b')');
                self.col += 1;
                match self.stack.pop() {
                    Some(Some(id)) => {
                        let sibling = root.in_game(id);
                        self.stack.push(sibling.next_sibling().map(|n| n.id()));
                        self.open();
                        node = sibling;
                        continue 'walk;
                    }
                    Some(None) if self.stack.is_empty() => break 'walk,
                    Some(None) => {}
                    None => break 'walk,
                }
            }
        }
        Ok(())
    }

    /// Writes `(`, which the next token (the node) keeps on its line.
    fn open(&mut self) {
        let at = self.pending.unwrap_or(self.buf.len());
        self.buf.push(b'(');
        self.pending = Some(at);
    }

    /// Where the token that begins now starts: with a pending `(` or `;`.
    #[inline]
    fn token_start(&mut self) -> usize {
        self.pending.take().unwrap_or(self.buf.len())
    }

    /// Ends the token written from `start`: breaks the line before it when
    /// it would pass the wrapping width, and moves the column on.
    #[inline]
    fn token(&mut self, start: usize) {
        let Some(width) = self.options.wrap else {
            return;
        };
        let mut start = start;
        let len = self.buf.len() - start;
        let first_line = memchr::memchr(b'\n', &self.buf[start..]).unwrap_or(len);
        let mut col = self.col;
        if col > 0 && col + first_line > width {
            self.buf.insert(start, b'\n');
            start += 1;
            col = 0;
        }
        let token = &self.buf[start..];
        self.col = match memchr::memrchr(b'\n', token) {
            Some(at) => token.len() - at - 1,
            None => col + token.len(),
        };
    }

    /// Writes one node, `;` and its properties, into the buffer; on an
    /// error the buffer ends before the node.
    fn node(&mut self, node: Node<'_, '_>) -> Result<()> {
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

    fn node_inner(&mut self, node: Node<'_, '_>) -> Result<()> {
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
        if self.copy_plain && !node.is_root() {
            if let Some(bytes) = self.as_is_in_mode(node) {
                self.pending = None;
                self.buf.push(b';');
                self.buf.extend_from_slice(bytes);
                return Ok(());
            }
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
    fn as_is_in_mode<'src>(&self, node: Node<'_, 'src>) -> Option<&'src [u8]> {
        let bytes = node.written_as_is()?;
        if find(b'\\', bytes).is_some() || (self.game.target.is_some() && !bytes.is_ascii()) {
            return None;
        }
        if !self.options.canonical {
            return Some(bytes);
        }
        if node.mode() != ValueMode::Bytes {
            return None;
        }
        // Without `\`, read a byte at a time, a plain node's bytes are
        // `ID[value]ID[value]…` with no `]` inside a value.
        let mut rest = bytes;
        while !rest.is_empty() {
            let open = find(b'[', rest)?;
            let close = open + 1 + find(b']', &rest[open + 1..])?;
            if !self.canonical_as_is(&rest[..open], &rest[open + 1..close]) {
                return None;
            }
            rest = &rest[close + 1..];
        }
        Some(bytes)
    }

    /// Whether canonical mode writes property `ident` with the one value
    /// `raw` (which holds no `\`) as it stands.
    #[inline]
    fn canonical_as_is(&self, ident: &[u8], raw: &[u8]) -> bool {
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
    fn raw_props(&mut self, node: Node<'_, '_>, skip_ca: bool) {
        // A root whose CA switches to reading a character at a time
        // (Shift_JIS, Big5, GBK) keeps repeated properties apart: merged, a
        // value read after CA could land before it and be read byte by byte.
        let props = if node.keeps_occurrences() {
            node.occurrences()
        } else {
            node.properties()
        };
        for prop in props {
            if skip_ca && prop.ident() == "CA" {
                continue;
            }
            self.buf.extend_from_slice(prop.ident().as_bytes());
            for value in prop.values() {
                self.buf.push(b'[');
                self.buf.extend_from_slice(value.raw());
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
    fn file_order_props(&mut self, node: Node<'_, '_>) -> Result<()> {
        let root = node.is_root();
        if root {
            self.root_head();
        }
        // Transcoded, the root is read as the target's charset from `CA`
        // on, which comes first: repeats merge as elsewhere.
        let keep_apart = node.keeps_occurrences() && self.game.target.is_none();
        let props = if keep_apart {
            node.occurrences()
        } else {
            node.properties()
        };
        for prop in props {
            let ident = prop.ident_bytes();
            if (root && self.game.ca.is_some() && ident == b"CA")
                || (root && self.options.canonical && ident == b"FF")
                || self.options.drops(ident)
            {
                continue;
            }
            if keep_apart && self.options.canonical && is_single(prop.info()) {
                // Only the first occurrence of a single-valued property;
                // the others are reported.
                let first = node.occurrences().find(|p| p.ident_bytes() == ident);
                if first.is_some_and(|p| p.span() != prop.span()) {
                    self.drop_values(prop, 0);
                    continue;
                }
            }
            self.property(prop, ident)?;
        }
        Ok(())
    }

    /// Canonical mode: the ranked properties in their order, then the
    /// others in file order. The first [`HELD`] properties are held on the
    /// stack with their identifiers, so that each is looked at once.
    fn canonical_props(&mut self, node: Node<'_, '_>) -> Result<()> {
        let root = node.is_root();
        if root && self.game.target.is_none() && node.mode() != ValueMode::Bytes {
            return self.file_order_props(node);
        }
        let mut held = [None; HELD];
        let mut count = 0;
        let mut ranked = 0u64;
        for prop in node.properties() {
            let ident = prop.ident_bytes();
            if let Some(r) = rank(ident) {
                ranked |= 1 << r;
            }
            if count < HELD {
                held[count] = Some((prop, ident));
            }
            count += 1;
        }
        let held = &held[..count.min(HELD)];
        if root {
            ranked |= 1 << FF_RANK;
            if self.game.ca.is_some() {
                ranked |= 1 << CA_RANK;
            }
        }
        while ranked != 0 {
            let r = ranked.trailing_zeros() as usize;
            ranked &= ranked - 1;
            let ident = ORDER[r].as_bytes();
            if root && r == FF_RANK {
                let at = self.token_start();
                self.buf.extend_from_slice(b"FF[4]");
                self.token(at);
                continue;
            }
            if root && r == CA_RANK {
                if let Some(name) = self.game.ca {
                    let at = self.token_start();
                    write_ca(&mut self.buf, name);
                    self.token(at);
                    continue;
                }
            }
            if self.options.drops(ident) {
                continue;
            }
            let found = match held.iter().flatten().find(|(_, id)| *id == ident) {
                Some(&(prop, _)) => Some(prop),
                None if count > HELD => node.property(ORDER[r]),
                None => None,
            };
            if let Some(prop) = found {
                self.property(prop, ident)?;
            }
        }
        if count > HELD {
            for prop in node.properties() {
                let ident = prop.ident_bytes();
                if rank(ident).is_none() && !self.options.drops(ident) {
                    self.property(prop, ident)?;
                }
            }
        } else {
            for &(prop, ident) in held.iter().flatten() {
                if rank(ident).is_none() && !self.options.drops(ident) {
                    self.property(prop, ident)?;
                }
            }
        }
        Ok(())
    }

    /// Writes one property (not in the fast raw path), whose identifier is
    /// `ident`.
    fn property(&mut self, prop: Property<'_, '_>, ident: &[u8]) -> Result<()> {
        let at = self.token_start();
        let result = self.property_inner(prop, ident);
        self.token(at);
        result
    }

    fn property_inner(&mut self, prop: Property<'_, '_>, ident: &[u8]) -> Result<()> {
        self.buf.extend_from_slice(ident);
        let info = catalogue::lookup_bytes(self.game.gm, ident);
        let compose = Shape::of(info);
        if !self.options.canonical {
            for value in prop.values() {
                self.value(prop, value.raw(), value.span().start, compose)?;
            }
            return Ok(());
        }
        if let Some(info) = info.filter(|_| self.game.gm == 1) {
            let size = self.game.size;
            match info.ty {
                ValueType::Move => {
                    let value = prop.first_value();
                    self.drop_values(prop, 1);
                    if Move::read(value.raw(), size) == Some(Move::Pass) {
                        let tt = self.options.tt_pass && size.tt_is_pass();
                        self.buf.extend_from_slice(if tt { b"[tt]" } else { b"[]" });
                        return Ok(());
                    }
                    return self.value(prop, value.raw(), value.span().start, Shape::RAW);
                }
                ValueType::Point | ValueType::Stone
                    if info.arity != Arity::One
                        && self.options.points != PointStyle::AsWritten
                        && self.point_list(prop, size) =>
                {
                    return Ok(());
                }
                _ => {}
            }
        }
        if let Some(info) = info.filter(|i| i.arity == Arity::One) {
            return self.single_value(prop, info, compose);
        }
        for value in prop.values() {
            self.value(prop, value.raw(), value.span().start, compose)?;
        }
        Ok(())
    }

    /// Writes a point list expanded or compressed; `false` (and nothing
    /// written) when a value is malformed or off the board.
    fn point_list(&mut self, prop: Property<'_, '_>, size: BoardSize) -> bool {
        let mut board = Board::new();
        // An occurrence of a root that keeps them apart is checked with the
        // others: a reader sees them as one list.
        let merged = std::str::from_utf8(prop.ident_bytes())
            .ok()
            .and_then(|ident| prop.node().property(ident));
        if let Some(all) = merged {
            if !board.read(all.values().map(|v| v.raw()), size) {
                return false;
            }
        }
        if !board.read(prop.values().map(|v| v.raw()), size) {
            return false;
        }
        if board.is_empty() {
            self.buf.extend_from_slice(b"[]");
            return true;
        }
        let buf = &mut self.buf;
        if self.options.points == PointStyle::Expand {
            Board::expand(prop.values().map(|v| v.raw()), size, |p| {
                buf.push(b'[');
                push_point(buf, p);
                buf.push(b']');
            });
        } else {
            board.compress(|a, b| {
                buf.push(b'[');
                push_point(buf, a);
                if a != b {
                    buf.push(b':');
                    push_point(buf, b);
                }
                buf.push(b']');
            });
        }
        true
    }

    /// Writes one value `[…]` of `prop` that starts at `offset` in the
    /// input; `compose` when it may be a compose value.
    fn value(
        &mut self,
        prop: Property<'_, '_>,
        raw: &[u8],
        offset: usize,
        shape: Shape,
    ) -> Result<()> {
        self.buf.push(b'[');
        let halves = if shape.compose {
            split_compose(raw)
        } else {
            None
        };
        match halves {
            Some((a, b)) => {
                self.piece(prop, a, offset, true, shape.first)?;
                self.buf.push(b':');
                let second = offset + a.len() + 1;
                self.piece(prop, b, second, true, shape.second)?;
            }
            None if shape.compose => self.piece(prop, raw, offset, true, shape.first)?,
            None => self.piece(prop, raw, offset, false, shape.text)?,
        }
        self.buf.push(b']');
        Ok(())
    }

    /// Writes a value, or half of a compose value (`colon`): copied,
    /// escaped canonically when it is `text` (other types read their
    /// bytes as they are, escapes included), or transcoded.
    fn piece(
        &mut self,
        prop: Property<'_, '_>,
        raw: &[u8],
        offset: usize,
        colon: bool,
        text: bool,
    ) -> Result<()> {
        if let Some(target) = self.game.target {
            if !raw.is_ascii() {
                let source = self.source(prop.node());
                // Damaged UTF-8 is repaired too: U+FFFD, as it reads.
                if source != target || (target == UTF_8 && simdutf8::basic::from_utf8(raw).is_err())
                {
                    return self.transcode(prop, raw, offset, colon, source, target);
                }
            }
        }
        let plain =
            memchr::memchr(b'\\', raw).is_none() && (!colon || memchr::memchr(b':', raw).is_none());
        if plain || !text || !self.options.canonical {
            self.buf.extend_from_slice(raw);
            return Ok(());
        }
        // Escapes are rewritten only where a `\\` byte is always one.
        let source = self.source(prop.node());
        // A value holding `(` keeps its escapes: one removed between `(`
        // and `;GM[` would make the reader start a new game there.
        if (self.game.target.is_some() || escapes_stand_alone(source))
            && memchr::memchr(b'(', raw).is_none()
        {
            escape_canonical(raw, colon, false, &mut self.buf);
        } else {
            self.buf.extend_from_slice(raw);
        }
        Ok(())
    }

    /// Decodes `raw` from `source`, escapes it and encodes it in `target`.
    #[cold]
    fn transcode(
        &mut self,
        prop: Property<'_, '_>,
        raw: &[u8],
        offset: usize,
        colon: bool,
        source: &'static Encoding,
        target: &'static Encoding,
    ) -> Result<()> {
        let mut decoder = source.new_decoder_without_bom_handling();
        self.text.clear();
        let room = decoder
            .max_utf8_buffer_length(raw.len())
            .expect("a value's length is far from overflowing");
        self.text.reserve(room);
        let _ = decoder.decode_to_string(raw, &mut self.text, true);
        self.scratch.clear();
        escape_canonical(self.text.as_bytes(), colon, true, &mut self.scratch);
        if target == UTF_8 {
            self.buf.extend_from_slice(&self.scratch);
            return Ok(());
        }
        let text = std::str::from_utf8(&self.scratch).expect("escaping keeps UTF-8 intact");
        let mut encoder = target.new_encoder();
        let room = encoder
            .max_buffer_length_from_utf8_without_replacement(text.len())
            .expect("a value's length is far from overflowing");
        let start = self.buf.len();
        self.buf.resize(start + room, 0);
        let (result, _, written) =
            encoder.encode_from_utf8_without_replacement(text, &mut self.buf[start..], true);
        self.buf.truncate(start + written);
        match result {
            EncoderResult::InputEmpty => Ok(()),
            EncoderResult::Unmappable(ch) => {
                let pos = prop.node().collection().position(offset);
                Err(Error::unrepresentable(ch, target.name(), prop.ident(), pos))
            }
            EncoderResult::OutputFull => {
                unreachable!("the buffer has the room the encoder asked for")
            }
        }
    }

    /// Writes the properties of `node` one by one, raw: what copying the
    /// node as it stands must give.
    #[cfg(feature = "oracle")]
    pub(crate) fn write_props(&mut self, node: Node<'_, '_>) -> std::io::Result<()> {
        self.raw_props(node, false);
        let written = self.out.write_all(&self.buf);
        self.buf.clear();
        written
    }
}

/// Whether a `\` byte in `encoding` is always an escape of its own, and
/// removing one never joins two bytes into a character: UTF-8 (whose
/// continuation bytes are never ASCII) and single-byte charsets. In
/// Shift_JIS, Big5, GBK and GB18030 a `\` can end a character, in EUC-KR
/// (UHC) an ASCII letter can, and ISO-2022-JP shifts ASCII bytes into
/// double-byte characters.
fn escapes_stand_alone(encoding: &'static Encoding) -> bool {
    encoding == UTF_8 || encoding.is_single_byte()
}

/// The first `byte` in `hay`: a plain loop for the short slices of move
/// nodes, where a call to `memchr` costs more than it saves.
#[inline]
fn find(byte: u8, hay: &[u8]) -> Option<usize> {
    if hay.len() < 16 {
        hay.iter().position(|&b| b == byte)
    } else {
        memchr::memchr(byte, hay)
    }
}

/// `CA[name]`.
fn write_ca(buf: &mut Vec<u8>, name: &str) {
    buf.extend_from_slice(b"CA[");
    buf.extend_from_slice(name.as_bytes());
    buf.push(b']');
}

/// The two letters of a point on a board of at most 52×52.
fn push_point(buf: &mut Vec<u8>, p: Point) {
    let letter = |c: u8| if c < 26 { b'a' + c } else { b'A' + c - 26 };
    buf.push(letter(p.x));
    buf.push(letter(p.y));
}

/// Whether the catalogue says the property takes one value.
fn is_single(info: Option<&PropInfo>) -> bool {
    info.is_some_and(|i| i.arity == Arity::One)
}

fn is_compose(ty: ValueType) -> bool {
    matches!(ty, ValueType::Compose(..))
}

/// How a property's values are written: split at their first `:` (compose
/// values, and unknown properties, which might be), and which parts are
/// text, whose escapes canonical mode rewrites.
#[derive(Clone, Copy, Debug)]
struct Shape {
    compose: bool,
    /// The whole value (not compose) is text.
    text: bool,
    /// The first half is text.
    first: bool,
    /// The second half is text.
    second: bool,
}

impl Shape {
    /// Copied as it is.
    const RAW: Shape = Shape {
        compose: false,
        text: false,
        first: false,
        second: false,
    };

    fn of(info: Option<&PropInfo>) -> Shape {
        let Some(info) = info else {
            return Shape {
                compose: true,
                text: true,
                first: true,
                second: true,
            };
        };
        let is_text = |ty: ValueType| matches!(ty, ValueType::Text | ValueType::SimpleText);
        let halves = match (info.ty, info.alt) {
            (ValueType::Compose(a, b), _) | (_, Some(ValueType::Compose(a, b))) => Some((*a, *b)),
            _ => None,
        };
        Shape {
            compose: halves.is_some(),
            text: is_text(info.ty),
            first: halves.is_some_and(|(a, _)| is_text(a)),
            second: halves.is_some_and(|(_, b)| is_text(b)),
        }
    }
}

/// Canonical mode's property order: root properties, then game
/// information.
const ORDER: [&str; 29] = [
    "GM", "FF", "CA", "AP", "ST", "SZ", // root
    "GN", "EV", "RO", "DT", "PC", "PB", "BR", "BT", "PW", "WR", "WT", "KM", "HA", "RU", "TM", "OT",
    "RE", "AN", "CP", "SO", "US", "GC", "ON",
];
const FF_RANK: usize = 1;
const CA_RANK: usize = 2;

/// The place of `ident` in [`ORDER`].
#[inline]
fn rank(ident: &[u8]) -> Option<usize> {
    // Every ranked identifier has two letters: moves and comments have one.
    if ident.len() != 2 {
        return None;
    }
    ORDER.iter().position(|o| o.as_bytes() == ident)
}

/// How many properties of a node canonical mode holds on the stack.
const HELD: usize = 16;

/// Writes `raw` (escaped) with escapes only where a reader needs them:
/// `\]`, `\\`, and `\:` when `colon`; soft line breaks (`\` + a line
/// break) and a lone `\` at the end are removed. Unless `decoded` (the
/// value is UTF-8 text decoded by the writer), bytes are those of the
/// game's charset, perhaps damaged: a `\` before a byte that is not ASCII
/// and soft line breaks stay, since removing them could join two halves of
/// a character that the `\` kept apart.
fn escape_canonical(raw: &[u8], colon: bool, decoded: bool, out: &mut Vec<u8>) {
    let mut i = 0;
    // Whether the last byte written, spaces aside, is `(`.
    let mut after_paren = false;
    while i < raw.len() {
        let mut b = raw[i];
        i += 1;
        if b == b'\\' {
            match raw.get(i) {
                None => break,
                Some(&c @ (b'\n' | b'\r')) => {
                    let start = i - 1;
                    i += 1;
                    if raw
                        .get(i)
                        .is_some_and(|&d| (d == b'\n' || d == b'\r') && d != c)
                    {
                        i += 1;
                    }
                    if !decoded {
                        out.extend_from_slice(&raw[start..i]);
                    }
                    continue;
                }
                Some(&c) if !decoded && !c.is_ascii() => {
                    out.push(b'\\');
                    continue;
                }
                Some(&c) => {
                    b = c;
                    i += 1;
                }
            }
        }
        // `(;` and a root property inside a value read as a new game: the
        // `;` after a `(` is escaped.
        if b == b']' || b == b'\\' || (colon && b == b':') || (after_paren && b == b';') {
            out.push(b'\\');
        }
        out.push(b);
        after_paren = b == b'(' || (after_paren && matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
    }
}

/// Writes every game of `coll` to a new byte vector, in raw mode.
///
/// ```
/// let doc = sgf_grove::parse(b"(;B[aa]AB[bb]AB[cc])")?;
/// assert_eq!(sgf_grove::write_collection(doc.collection()), b"(;B[aa]AB[bb][cc])\n");
/// # Ok::<(), sgf_grove::Error>(())
/// ```
pub fn write_collection(coll: Collection<'_, '_>) -> Vec<u8> {
    let mut out = Vec::with_capacity(coll.input().len() + 16);
    Writer::new(&mut out)
        .write_collection(coll)
        .expect("writing to a Vec cannot fail");
    out
}

/// Writes every game of `coll` to a new byte vector as `options` say.
///
/// ```
/// use sgf_grove::writer::{WriteOptions, PointStyle};
/// let doc = sgf_grove::parse(b"(;SZ[9]AB[aa:bc])")?;
/// let expand = WriteOptions::new().canonical(true).points(PointStyle::Expand);
/// let out = sgf_grove::writer::write_with(doc.collection(), &expand)?;
/// assert_eq!(out, b"(;FF[4]SZ[9]AB[aa][ba][ab][bb][ac][bc])\n");
/// # Ok::<(), sgf_grove::Error>(())
/// ```
///
/// # Errors
///
/// [`ErrorKind::Unrepresentable`](crate::ErrorKind::Unrepresentable) when
/// transcoding meets a character its target lacks.
pub fn write_with(coll: Collection<'_, '_>, options: &WriteOptions) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(coll.input().len() + 16);
    Writer::with_options(&mut out, options.clone()).write_collection(coll)?;
    Ok(out)
}

/// Escapes `text` for use as a new property value: `\` and `]` get a `\`
/// before them (and `:` too when `compose` is set, for one half of a
/// compose value).
///
/// ```
/// let mut out = Vec::new();
/// sgf_grove::writer::escape_value(br"a]b\c:d", false, &mut out);
/// assert_eq!(out, br"a\]b\\c:d");
/// ```
pub fn escape_value(text: &[u8], compose: bool, out: &mut Vec<u8>) {
    for &b in text {
        if b == b']' || b == b'\\' || (compose && b == b':') {
            out.push(b'\\');
        }
        out.push(b);
    }
}
