//! Writing an editable game: raw, as the writer's raw mode writes a parsed
//! game, or through the [writer](crate::writer) in any of its modes.

use super::*;
use crate::writer::WriteOptions;

impl EditableGame {
    /// The game as SGF, values byte for byte, one game tree on one line
    /// followed by a line break: for a parsed game made editable and not
    /// edited, what [`write_collection`](crate::write_collection) gives for
    /// it.
    ///
    /// A root without a `CA` naming a usable charset, whose text needs one
    /// to be read back the same (bytes that are not UTF-8, or not ASCII in
    /// a charset other than UTF-8), gets `CA` naming the game's charset
    /// first (in place of a `CA` naming none), as the writer does.
    pub fn to_sgf(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.bytes.len() + 4 * self.nodes.len() + 16);
        self.write_raw(&mut out);
        out
    }

    /// Appends [`EditableGame::to_sgf`] to `out`.
    pub fn write_raw(&self, out: &mut Vec<u8>) {
        let root = self.root();
        out.push(b'(');
        // Each entry: a node with variations, and its next child to write.
        let mut stack: Vec<(EditId, usize)> = Vec::new();
        let mut node = root;
        'walk: loop {
            self.write_node(node, out);
            let children = &self.nodes[node.index()].children;
            match children.len() {
                0 => {}
                1 => {
                    node = children[0];
                    continue;
                }
                _ => {
                    stack.push((node, 1));
                    out.push(b'(');
                    node = children[0];
                    continue;
                }
            }
            // A leaf: close variations until one has a sibling left.
            loop {
                out.push(b')');
                let Some((parent, next)) = stack.pop() else {
                    break 'walk;
                };
                let siblings = &self.nodes[parent.index()].children;
                if next < siblings.len() {
                    stack.push((parent, next + 1));
                    out.push(b'(');
                    node = siblings[next];
                    continue 'walk;
                }
            }
        }
        out.push(b'\n');
    }

    fn write_node(&self, id: EditId, out: &mut Vec<u8>) {
        out.push(b';');
        let mut pinned = false;
        if id.index() == 0 {
            if let Some(encoding) = self.ca_to_add() {
                out.extend_from_slice(b"CA[");
                out.extend_from_slice(encoding.name().as_bytes());
                out.push(b']');
                pinned = true;
            }
        }
        for prop in &self.nodes[id.index()].props {
            // A `CA` naming no usable charset gives way to the one added.
            if pinned && self.ident_bytes(prop) == b"CA" {
                continue;
            }
            out.extend_from_slice(self.ident_bytes(prop));
            for v in &prop.values {
                out.push(b'[');
                out.extend_from_slice(&self.bytes[v.range()]);
                out.push(b']');
            }
        }
    }

    /// The charset [`EditableGame::to_sgf`] records as `CA` in a root
    /// without one: when a reader could otherwise guess another one.
    pub(crate) fn ca_to_add(&self) -> Option<&'static Encoding> {
        if self.declared_ca().is_some() {
            return None;
        }
        let mut needs = false;
        for slot in self.nodes.iter().filter(|s| s.alive) {
            for prop in &slot.props {
                for v in &prop.values {
                    let raw = &self.bytes[v.range()];
                    needs |= if self.encoding == UTF_8 {
                        simdutf8::basic::from_utf8(raw).is_err()
                    } else {
                        !raw.is_ascii()
                    };
                }
            }
        }
        // A charset read a character at a time is recorded by its `CA`
        // only: pinned here, the values before it would read otherwise.
        (needs && !crate::text::charset::is_ascii_unsafe(self.encoding)).then_some(self.encoding)
    }

    /// The game as SGF in the mode `options` say ([`WriteOptions`]): raw
    /// mode gives [`EditableGame::to_sgf`]; any other is the writer's, on
    /// the game as [`EditableGame::to_sgf`] writes it and the parser reads
    /// it back.
    ///
    /// ```
    /// use sgf_grove::edit::EditableGame;
    /// use sgf_grove::value::BoardSize;
    /// use sgf_grove::writer::WriteOptions;
    /// let mut game = EditableGame::new(BoardSize::square(9));
    /// let root = game.root();
    /// game.set(root, "C", "hello")?;
    /// game.set(root, "PB", "Shusaku")?;
    /// let canonical = game.write_with(&WriteOptions::new().canonical(true))?;
    /// assert_eq!(canonical, b"(;GM[1]FF[4]CA[UTF-8]SZ[9]PB[Shusaku]C[hello])\n");
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`writer::write_with`](crate::writer::write_with) (a character a
    /// transcoding target lacks; its position is in the raw form).
    pub fn write_with(&self, options: &WriteOptions) -> Result<Vec<u8>> {
        let raw = self.to_sgf();
        if *options == WriteOptions::new() {
            return Ok(raw);
        }
        let doc = crate::parse(&raw)?;
        crate::writer::write_with(doc.collection(), options)
    }
}
