//! Serialising a tree back to SGF.
//!
//! The writer walks each game tree with an explicit stack (never recursion)
//! and writes, in raw mode, every value's bytes exactly as they were read, so
//! that `parse(write(parse(x)))` equals `parse(x)` in structure, identifiers
//! and values. Identifiers are written normalised (`CoPyright` → `CP`) and a
//! property repeated in a node is written once with all its values. New text
//! is escaped with [`escape_value`].
//!
//! A game whose root has no `CA` is read in a charset guessed from its
//! bytes. When those bytes are not UTF-8 (or the parse fixed the charset
//! with an override), the writer adds `CA[…]` at the start of the root,
//! naming the charset the game was read and decoded in (in place of a `CA`
//! that names no usable charset, such as `CA[UTF-16]` on byte-oriented
//! text): the guess is made once, and the written file reads the same in
//! any reader:
//!
//! ```
//! // Latin-1 text without `CA`: detected, and recorded when written.
//! let doc = sgf_grove::parse(b"(;PB[Jos\xe9 Garc\xeda];B[aa])")?;
//! assert_eq!(doc.games().next().unwrap().root().text("PB"), Some("José García"));
//! let out = sgf_grove::write_collection(doc.collection());
//! assert_eq!(out, b"(;CA[windows-1252]PB[Jos\xe9 Garc\xeda];B[aa])\n");
//! # Ok::<(), sgf_grove::Error>(())
//! ```

use crate::tree::{Collection, GameTree, Node, NodeId};
use std::io::{self, Write};

/// Writes collections and game trees as SGF to an [`io::Write`].
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
    stack: Vec<Option<NodeId>>,
}

impl<W: Write> Writer<W> {
    /// A writer to `out`. Wrap files in a [`io::BufWriter`]: the writer makes
    /// many small writes.
    pub fn new(out: W) -> Writer<W> {
        Writer {
            out,
            stack: Vec::new(),
        }
    }

    /// The underlying output.
    pub fn into_inner(self) -> W {
        self.out
    }

    /// Writes every game tree of `coll`, one per line.
    ///
    /// # Errors
    ///
    /// Any error of the underlying output.
    pub fn write_collection(&mut self, coll: Collection<'_, '_>) -> io::Result<()> {
        for game in coll.games() {
            self.write_game(game)?;
        }
        Ok(())
    }

    /// Writes one game tree followed by a line break.
    ///
    /// # Errors
    ///
    /// Any error of the underlying output.
    pub fn write_game(&mut self, game: GameTree<'_, '_>) -> io::Result<()> {
        self.write_tree(game.root())?;
        self.out.write_all(b"\n")
    }

    /// Writes the subtree under `root` as one game tree `( … )`.
    ///
    /// # Errors
    ///
    /// Any error of the underlying output.
    pub fn write_tree(&mut self, root: Node<'_, '_>) -> io::Result<()> {
        // Each open `(` has an entry: the sibling to write after it closes.
        self.stack.clear();
        self.stack.push(None);
        self.out.write_all(b"(")?;
        let mut node = root;
        'walk: loop {
            self.write_node(node)?;
            if let Some(child) = node.first_child() {
                match child.next_sibling() {
                    None => {}
                    Some(next) => {
                        self.stack.push(Some(next.id()));
                        self.out.write_all(b"(")?;
                    }
                }
                node = child;
                continue;
            }
            // A leaf: close variations until one has a sibling left.
            loop {
                self.out.write_all(b")")?;
                match self.stack.pop() {
                    Some(Some(id)) => {
                        let sibling = root.in_game(id);
                        self.stack.push(sibling.next_sibling().map(|n| n.id()));
                        self.out.write_all(b"(")?;
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

    /// Writes one node: `;` and its properties, values raw.
    ///
    /// # Errors
    ///
    /// Any error of the underlying output.
    pub fn write_node(&mut self, node: Node<'_, '_>) -> io::Result<()> {
        self.out.write_all(b";")?;
        let mut skip_ca = false;
        if node.is_root() {
            if let Some(encoding) = node.game().charset_to_pin() {
                self.out.write_all(b"CA[")?;
                self.out.write_all(encoding.name().as_bytes())?;
                self.out.write_all(b"]")?;
                // A `CA` naming no usable charset gives way to this one.
                skip_ca = node.game().declared_charset().is_some();
            }
        }
        if skip_ca {
            return self.write_props_but(node, Some("CA"));
        }
        // Most nodes are written as they stand in the input (`;B[pd]C[…]`).
        if let Some(bytes) = node.written_as_is() {
            return self.out.write_all(bytes);
        }
        self.write_props(node)
    }

    /// Writes the properties of `node`, one by one.
    pub(crate) fn write_props(&mut self, node: Node<'_, '_>) -> io::Result<()> {
        self.write_props_but(node, None)
    }

    /// Writes the properties of `node` but `skip`, one by one.
    fn write_props_but(&mut self, node: Node<'_, '_>, skip: Option<&str>) -> io::Result<()> {
        // A root whose CA switches to reading a character at a time
        // (Shift_JIS, Big5, GBK) keeps repeated properties apart: merged, a
        // value read after CA could land before it and be read byte by byte.
        let props = if node.keeps_occurrences() {
            node.occurrences()
        } else {
            node.properties()
        };
        for prop in props {
            if Some(prop.ident()) == skip {
                continue;
            }
            self.out.write_all(prop.ident().as_bytes())?;
            for value in prop.values() {
                self.out.write_all(b"[")?;
                self.out.write_all(value.raw())?;
                self.out.write_all(b"]")?;
            }
        }
        Ok(())
    }
}

/// Writes every game of `coll` to a new byte vector.
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
