//! [`OneLine`]: the output of an `.sgfs` file (one game per line) kept
//! so. SGF has no escape for a line break that reads back as one (a `\`
//! before a line break is a soft break, removed on reading), so a game
//! whose output would span lines — a text value that holds a line break,
//! a soft break kept in raw mode, `--wrap` — is refused, never written.

use std::io::{self, Write};

/// The message of the error [`OneLine`] raises; what the rewrite looks for
/// to tell it from a failed write.
pub const LINE_BREAK: &str = "would span several lines";

/// Whether `err` is the refusal of a game by [`OneLine`].
pub fn is_line_break(err: &io::Error) -> bool {
    err.kind() == io::ErrorKind::InvalidData && err.to_string().contains(LINE_BREAK)
}

/// A [`Write`] that passes SGF on and fails (with [`LINE_BREAK`]) at the
/// first line break that is not the one after a game: it follows values
/// (`[` … `]`, with escapes) and the nesting of `(` `)`.
#[derive(Debug)]
pub struct OneLine<W> {
    inner: W,
    /// Inside a value, and just after its `\`.
    in_value: bool,
    escaped: bool,
    /// How many `(` are open.
    depth: usize,
    /// Games ended so far.
    games: usize,
}

impl<W: Write> OneLine<W> {
    /// Checks what is written to `inner`.
    pub fn new(inner: W) -> OneLine<W> {
        OneLine {
            inner,
            in_value: false,
            escaped: false,
            depth: 0,
            games: 0,
        }
    }

    /// The writer it checks for, borrowed.
    pub fn get_ref(&self) -> &W {
        &self.inner
    }

    /// The writer it checks for.
    pub fn into_inner(self) -> W {
        self.inner
    }

    /// After a game was refused: forgets where in it the check stopped
    /// and counts it, so that the next game is checked from its start.
    pub fn skip_game(&mut self) {
        self.in_value = false;
        self.escaped = false;
        self.depth = 0;
        self.games += 1;
    }

    /// The error for a line break in game `self.games + 1`.
    fn refuse(&self, in_value: bool) -> io::Error {
        let game = self.games + 1;
        let why = if in_value {
            "a value holds a line break, which SGF cannot escape"
        } else {
            "a line break between its nodes (--wrap)"
        };
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("game {game} {LINE_BREAK} ({why}); an .sgfs file holds one game per line"),
        )
    }

    /// Checks `buf`, updating the state.
    fn check(&mut self, buf: &[u8]) -> io::Result<()> {
        for &b in buf {
            if self.in_value {
                if self.escaped {
                    self.escaped = false;
                    if b == b'\n' || b == b'\r' {
                        return Err(self.refuse(true));
                    }
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b']' {
                    self.in_value = false;
                } else if b == b'\n' || b == b'\r' {
                    return Err(self.refuse(true));
                }
                continue;
            }
            match b {
                b'[' => self.in_value = true,
                b'(' => self.depth += 1,
                b')' => {
                    self.depth = self.depth.saturating_sub(1);
                    if self.depth == 0 {
                        self.games += 1;
                    }
                }
                b'\n' | b'\r' if self.depth > 0 => return Err(self.refuse(false)),
                _ => {}
            }
        }
        Ok(())
    }
}

impl<W: Write> Write for OneLine<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.check(buf)?;
        self.inner.write_all(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::{is_line_break, OneLine};
    use std::io::Write as _;

    fn check(bytes: &[u8]) -> Result<Vec<u8>, String> {
        let mut out = OneLine::new(Vec::new());
        match out.write_all(bytes) {
            Ok(()) => Ok(out.inner),
            Err(e) => {
                assert!(is_line_break(&e));
                Err(e.to_string())
            }
        }
    }

    #[test]
    fn games_on_their_own_lines_pass() {
        let sgfs = b"(;GM[1]C[a\\]b];B[aa](;W[bb])(;W[cc]))\n(;GM[1])\n";
        assert_eq!(check(sgfs).unwrap(), sgfs);
    }

    #[test]
    fn a_line_break_in_a_value_or_between_nodes_is_refused() {
        let err = check(b"(;GM[1])\n(;GM[1]C[two\nlines])\n").unwrap_err();
        assert!(err.starts_with("game 2 "), "{err}");
        assert!(check(b"(;GM[1]C[soft\\\nbreak])\n").is_err());
        assert!(check(b"(;GM[1]C[cr\rhere])\n").is_err());
        assert!(check(b"(;GM[1]\n;B[aa])\n").is_err());
    }
}
