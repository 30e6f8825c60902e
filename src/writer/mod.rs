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
//! New text is escaped with [`value::escape_value`](crate::value::escape_value).
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

mod canonical;
mod emit;
mod escape;
mod options;
mod points;
mod raw;
pub(crate) mod single;
mod transcode;
mod value;

pub(crate) use emit::Item;

pub use options::{PointStyle, Preset, Target, WriteOptions};
pub use single::DroppedValue;

use crate::error::{Error, Result};
use crate::text::charset::for_label;
use crate::tree::read::{ReadGame, ReadNode};
use crate::tree::Collection;
use crate::value::BoardSize;
use encoding_rs::{Encoding, UTF_8};
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
        let copy_nodes = options.is_raw()
            && options.drop.is_empty()
            && !options.engine_comments
            && options.wrap.is_none();
        let copy_plain =
            options.drop.is_empty() && !options.engine_comments && options.wrap.is_none();
        Writer {
            out,
            options,
            copy_nodes,
            copy_plain,
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
    pub fn write_game<'g>(&mut self, game: impl ReadGame<'g>) -> Result<()> {
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
    pub fn write_tree<'g>(&mut self, root: impl ReadNode<'g>) -> Result<()> {
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
    pub fn write_node<'g>(&mut self, node: impl ReadNode<'g>) -> Result<()> {
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
    fn begin_game<'g>(&mut self, game: impl ReadGame<'g>) {
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
            None => game.charset_to_record().map(Encoding::name),
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
    fn source<'g>(&mut self, game: impl ReadGame<'g>) -> &'static Encoding {
        if let Some(source) = self.game.source {
            return source;
        }
        let source = game.encoding();
        self.game.source = Some(source);
        source
    }

    fn walk<'g, N: ReadNode<'g>>(&mut self, root: N) -> Result<()> {
        // Each open `(` has an entry: the sibling to write after it closes.
        let mut stack: Vec<Option<N>> = vec![None];
        self.open();
        let mut node = root;
        'walk: loop {
            self.node(node)?;
            if self.buf.len() >= FLUSH_AT && self.pending.is_none() {
                self.flush_buf()?;
            }
            if let Some(child) = node.first_child() {
                if let Some(next) = child.next_sibling() {
                    stack.push(Some(next));
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
                match stack.pop() {
                    Some(Some(sibling)) => {
                        stack.push(sibling.next_sibling());
                        self.open();
                        node = sibling;
                        continue 'walk;
                    }
                    Some(None) if stack.is_empty() => break 'walk,
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

    /// Writes the properties of `node` one by one, raw: what copying the
    /// node as it stands must give.
    #[cfg(feature = "oracle")]
    pub(crate) fn write_props(&mut self, node: crate::tree::Node<'_, '_>) -> std::io::Result<()> {
        self.raw_props(node, false);
        let written = self.out.write_all(&self.buf);
        self.buf.clear();
        written
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
