//! Writing an editable game: raw, as the writer's raw mode writes a parsed
//! game, or through the [writer](crate::writer) in any of its modes.

use super::*;
use crate::writer::{WriteOptions, Writer};

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
        Writer::new(out)
            .write_game(self)
            .expect("writing to a Vec cannot fail");
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

    /// The game as SGF in the mode `options` say ([`WriteOptions`]),
    /// written by the [writer](crate::writer) from the game itself, as it
    /// writes a parsed one: raw mode gives [`EditableGame::to_sgf`].
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
    /// As [`writer::write_with`](crate::writer::write_with): a character a
    /// transcoding target lacks (without a position: the game was not read
    /// from a file as it stands).
    pub fn write_with(&self, options: &WriteOptions) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(self.bytes.len() + 4 * self.nodes.len() + 16);
        Writer::with_options(&mut out, options.clone()).write_game(self)?;
        Ok(out)
    }
}
