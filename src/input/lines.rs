//! `.sgfs` members, one game per line: [`SgfsLines`].

use crate::error::LineTooLong;
use crate::Position;
use std::io::{self, BufRead, BufReader, Read};

/// Reads an `.sgfs` stream (one game per line, as KataGo writes its
/// self-play games) one line at a time, for a parser to read each line as
/// a stream of its own: a line cut inside a value then costs only itself,
/// where read as one stream it would swallow the lines after it.
///
/// [`SgfsLines::next_line`] moves to the next line that holds anything but
/// whitespace and says where its first such byte is; the reader then gives
/// that line's bytes, up to (not including) its line feed, and then nothing
/// until the next call. With
/// [`StreamParser::restart_at`](crate::StreamParser::restart_at), the
/// positions of the games and warnings of each line are those of the whole
/// stream:
///
/// ```
/// use sgf_grove::input::SgfsLines;
/// use sgf_grove::{ErrorKind, StreamParser};
///
/// let sgfs = &b"(;GM[1];B[aa])\n\n(;GM[1];B[bb\njunk\n(;GM[1];W[cc])\n"[..];
/// let mut stream = StreamParser::new(SgfsLines::new(sgfs));
/// let mut games = Vec::new();
/// let mut bad = Vec::new();
/// while let Some(at) = stream.get_mut().next_line()? {
///     let before = stream.games();
///     stream.restart_at(at, before);
///     while let Some(next) = stream.next_game() {
///         match next {
///             Ok(coll) => {
///                 for game in coll.games() {
///                     games.push((at.line, game.index(), coll.warnings().len()));
///                 }
///             }
///             // This line only.
///             Err(err) => bad.push((err.line(), err.kind())),
///         }
///     }
/// }
/// // Line 3 is cut (a warning), line 4 holds no game (an error); line 5 is whole.
/// assert_eq!(games, [(1, 0, 0), (3, 1, 2), (5, 2, 0)]);
/// assert_eq!(bad, [(4, ErrorKind::NoGameTree)]);
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// Memory: a 64 KiB read buffer; the parser holds one line (one game), of
/// at most [`SgfsLines::max_line`] bytes: a longer line is refused once
/// that many of its bytes were read (the parser then stops on it with
/// [`ErrorKind::LineTooLong`](crate::ErrorKind::LineTooLong) at the line's
/// start), and the next call to [`SgfsLines::next_line`] skips the rest
/// of it without holding it.
#[derive(Debug)]
pub struct SgfsLines<R> {
    inner: BufReader<R>,
    /// The most bytes a line may have.
    max_line: u64,
    /// Bytes of the current line handed out.
    line_read: u64,
    /// Where the current line starts.
    line_start: Position,
    /// Bytes consumed so far.
    offset: usize,
    /// The line and column of `offset`.
    line: u32,
    column: u32,
    /// Whether the reader is inside a line (reads give its bytes).
    in_line: bool,
}

impl<R: Read> SgfsLines<R> {
    /// Lines of `inner`, before the first one ([`SgfsLines::next_line`]).
    pub fn new(inner: R) -> SgfsLines<R> {
        SgfsLines {
            inner: BufReader::with_capacity(64 * 1024, inner),
            max_line: DEFAULT_MAX_LINE,
            line_read: 0,
            line_start: Position {
                offset: 0,
                line: 1,
                column: 1,
            },
            offset: 0,
            line: 1,
            column: 1,
            in_line: false,
        }
    }

    /// The most bytes a line may have, from its first byte that is not
    /// whitespace to its line feed. Default: [`DEFAULT_MAX_LINE`] (64 MiB),
    /// far above any game of one line, and a bound on what a stream with no
    /// line feed makes the parser hold.
    ///
    /// ```
    /// use sgf_grove::input::SgfsLines;
    /// use sgf_grove::{ErrorKind, StreamParser};
    /// let sgfs = format!("(;C[{}])\n(;B[aa])\n", "x".repeat(5000));
    /// let mut stream = StreamParser::new(SgfsLines::new(sgfs.as_bytes()).max_line(1000));
    /// let mut seen = Vec::new();
    /// while let Some(at) = stream.get_mut().next_line()? {
    ///     stream.restart_at(at, stream.games());
    ///     while let Some(next) = stream.next_game() {
    ///         seen.push(next.map(|c| c.node_count()).map_err(|e| (e.kind(), e.line())));
    ///     }
    /// }
    /// assert_eq!(seen, [Err((ErrorKind::LineTooLong { limit: 1000 }, 1)), Ok(1)]);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    #[must_use]
    pub fn max_line(mut self, bytes: u64) -> SgfsLines<R> {
        self.max_line = bytes;
        self
    }

    /// Skips what is left of the current line and the lines that hold
    /// only whitespace; returns the position of the first byte of the next
    /// line that is not whitespace, or `None` at the end.
    ///
    /// # Errors
    ///
    /// An error of the source.
    pub fn next_line(&mut self) -> io::Result<Option<Position>> {
        if self.in_line {
            self.skip_rest_of_line()?;
        }
        loop {
            let buf = match self.inner.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                return Ok(None);
            }
            let blank = buf
                .iter()
                .position(|&b| !matches!(b, b' ' | b'\t' | b'\r' | 0x0B | 0x0C))
                .unwrap_or(buf.len());
            let at_break = buf.get(blank) == Some(&b'\n');
            let at_text = blank < buf.len() && !at_break;
            self.advance(blank);
            if at_break {
                self.advance(1);
                self.new_line();
            } else if at_text {
                self.in_line = true;
                self.line_read = 0;
                self.line_start = Position {
                    offset: self.offset,
                    line: self.line,
                    column: self.column,
                };
                return Ok(Some(self.line_start));
            }
        }
    }

    /// Consumes `n` bytes of the current line.
    fn advance(&mut self, n: usize) {
        self.inner.consume(n);
        self.offset += n;
        self.column = self
            .column
            .saturating_add(u32::try_from(n).unwrap_or(u32::MAX));
    }

    /// Counts a line feed just consumed.
    fn new_line(&mut self) {
        self.line = self.line.saturating_add(1);
        self.column = 1;
    }

    /// Reads through the end of the current line, its line feed included.
    fn skip_rest_of_line(&mut self) -> io::Result<()> {
        self.in_line = false;
        loop {
            let buf = match self.inner.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                return Ok(());
            }
            match memchr::memchr(b'\n', buf) {
                Some(i) => {
                    self.advance(i + 1);
                    self.new_line();
                    return Ok(());
                }
                None => {
                    let n = buf.len();
                    self.advance(n);
                }
            }
        }
    }
}

impl<R: Read> Read for SgfsLines<R> {
    /// The bytes of the current line, up to its line feed; 0 at its end
    /// and outside a line.
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if !self.in_line || out.is_empty() {
            return Ok(0);
        }
        let buf = self.inner.fill_buf()?;
        let end = memchr::memchr(b'\n', buf).unwrap_or(buf.len());
        if end > 0 && self.line_read >= self.max_line {
            // More of a line that has had all it may: refused, and left
            // for `next_line` to skip.
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                LineTooLong {
                    at: self.line_start,
                    limit: self.max_line,
                },
            ));
        }
        let room = usize::try_from(self.max_line - self.line_read).unwrap_or(usize::MAX);
        let n = end.min(out.len()).min(room);
        out[..n].copy_from_slice(&buf[..n]);
        self.advance(n);
        self.line_read += n as u64;
        Ok(n)
    }
}

/// How many bytes a line of an `.sgfs` stream may have, by default
/// ([`SgfsLines::max_line`]): 64 MiB.
pub const DEFAULT_MAX_LINE: u64 = 64 << 20;

#[cfg(test)]
mod tests {
    use super::SgfsLines;
    use std::io::Read;

    /// Each line's position and text, reading `chunk` bytes at a time.
    fn lines(input: &[u8], chunk: usize) -> Vec<((usize, u32, u32), String)> {
        let mut lines = SgfsLines::new(input);
        let mut out = Vec::new();
        while let Some(at) = lines.next_line().unwrap() {
            let mut text = Vec::new();
            let mut buf = vec![0; chunk];
            loop {
                let n = lines.read(&mut buf).unwrap();
                if n == 0 {
                    break;
                }
                text.extend_from_slice(&buf[..n]);
            }
            out.push((
                (at.offset, at.line, at.column),
                String::from_utf8(text).unwrap(),
            ));
        }
        out
    }

    #[test]
    fn positions_and_text_of_lines() {
        let input = b"(;B[aa])\r\n  \n\t(;W[bb])\n\n(;B[cc])";
        for chunk in [1, 2, 7, 100] {
            assert_eq!(
                lines(input, chunk),
                [
                    ((0, 1, 1), "(;B[aa])\r".to_owned()),
                    ((14, 3, 2), "(;W[bb])".to_owned()),
                    ((24, 5, 1), "(;B[cc])".to_owned()),
                ],
                "{chunk}"
            );
        }
    }

    #[test]
    fn a_long_line_is_refused_at_the_limit_and_skipped_without_being_held() {
        let mut input = b"(;B[aa])\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 300_000));
        input.extend_from_slice(b"\n(;W[bb])");
        let mut lines = SgfsLines::new(&input[..]).max_line(1000);
        assert!(lines.next_line().unwrap().is_some());
        let mut first = String::new();
        lines.read_to_string(&mut first).unwrap();
        assert_eq!(first, "(;B[aa])");
        let at = lines.next_line().unwrap().unwrap();
        assert_eq!((at.line, at.offset), (2, 9));
        let mut got = Vec::new();
        let err = lines.read_to_end(&mut got).unwrap_err();
        assert_eq!(got.len(), 1000);
        let long = super::LineTooLong::of(&err).unwrap();
        assert_eq!((long.at, long.limit), (at, 1000));
        assert_eq!(err.to_string(), "line 2 longer than 1000 bytes; skipped");
        let at = lines.next_line().unwrap().unwrap();
        assert_eq!((at.line, at.offset), (3, 300_010));
        let mut last = String::new();
        lines.read_to_string(&mut last).unwrap();
        assert_eq!(last, "(;W[bb])");
        // A line of exactly the limit is whole.
        let mut lines = SgfsLines::new(&b"(;B[aa])\n"[..]).max_line(8);
        lines.next_line().unwrap();
        let mut whole = String::new();
        lines.read_to_string(&mut whole).unwrap();
        assert_eq!(whole, "(;B[aa])");
    }

    #[test]
    fn an_unread_line_is_skipped() {
        let mut lines = SgfsLines::new(&b"first line\nsecond\n"[..]);
        assert_eq!(lines.next_line().unwrap().unwrap().line, 1);
        let at = lines.next_line().unwrap().unwrap();
        assert_eq!((at.offset, at.line), (11, 2));
        let mut rest = String::new();
        lines.read_to_string(&mut rest).unwrap();
        assert_eq!(rest, "second");
        assert_eq!(lines.next_line().unwrap(), None);
        assert_eq!(lines.next_line().unwrap(), None);
    }
}
