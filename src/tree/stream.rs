//! Game at a time over any [`Read`]: [`StreamParser`].
//!
//! The parser keeps a buffer that holds the game being read and the bytes
//! read after it, parses the first game of the buffer with a reused arena
//! and hands it out as a [`Collection`] of one game. A game is handed out
//! only once everything it was decided on is in the buffer (the bytes up to
//! where the reader stopped, plus as far as any decision looks ahead), so
//! that the games and warnings are exactly those of parsing the whole
//! stream at once. Then the game's bytes are dropped and the next game is
//! read. Memory is that of the largest game plus the read size (1 MiB),
//! whatever the length of the stream.

use super::build::{build_one, OneGame};
use super::{Collection, ParseOptions, Store};
use crate::error::{Error, ErrorKind, Result, Warning, WarningKind};
use crate::events::Resume;
use crate::lexer::is_space;
use crate::lexer::LOOKAHEAD;
use crate::span::Position;
use std::io::Read;

/// How many bytes a read asks for at least.
const READ_SIZE: usize = 1 << 20;

/// Where a window of the stream starts: its offset, line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Origin {
    pub(crate) offset: usize,
    pub(crate) line: u32,
    pub(crate) column: u32,
}

impl Default for Origin {
    fn default() -> Self {
        Origin {
            offset: 0,
            line: 1,
            column: 1,
        }
    }
}

impl Origin {
    /// A position in the window as a position in the stream.
    pub(crate) fn shift(&self, pos: Position) -> Position {
        Position {
            offset: self.offset + pos.offset,
            line: self.line + pos.line - 1,
            column: if pos.line == 1 {
                self.column + pos.column - 1
            } else {
                pos.column
            },
        }
    }

    /// The origin of the window that starts `skipped` bytes later.
    fn advance(self, skipped: &[u8]) -> Origin {
        let end = Position::locate(skipped, skipped.len());
        let moved = self.shift(end);
        Origin {
            offset: self.offset + skipped.len(),
            line: moved.line,
            column: moved.column,
        }
    }
}

/// Reads SGF from any [`Read`] (a file, standard input, a decompressor)
/// one game at a time, in memory bounded by the largest game.
///
/// ```
/// use sgf_grove::StreamParser;
/// let input = &b"(;GM[1];B[aa])\n(;GM[1];B[bb];W[cc])junk"[..];
/// let mut stream = StreamParser::new(input);
/// let mut seen = Vec::new();
/// while let Some(game) = stream.next_game() {
///     let coll = game?;
///     // One game (the junk at the end comes as warnings alone).
///     for tree in coll.games() {
///         // Offsets in the stream, the game's index among the stream's games.
///         let at = coll.stream_offset(tree.span().start);
///         seen.push((tree.index(), at, tree.nodes().count()));
///     }
/// }
/// assert_eq!(seen, [(0, 0, 2), (1, 15, 3)]);
/// # Ok::<(), sgf_grove::Error>(())
/// ```
///
/// It is no [`Iterator`]: each game borrows the parser's buffer and arena,
/// which the next call reuses. Positions of warnings and of
/// [`Collection::position`] are those of the stream; offsets that handles
/// give ([`Node::offset`](crate::Node::offset), spans) are those of the
/// collection's input, the part of the stream held now:
/// [`Collection::stream_offset`] turns them into stream offsets.
#[derive(Debug)]
pub struct StreamParser<R> {
    src: R,
    options: ParseOptions,
    store: Store,
    buf: Vec<u8>,
    /// Where the current window starts in `buf`.
    start: usize,
    /// Bytes of the game handed out last, to drop at the next call.
    consumed: usize,
    origin: Origin,
    /// Whether no byte was dropped since the stream (or part) started.
    at_start: bool,
    /// A read error: the stream ends there. What was read before it is
    /// parsed as the end of the stream (the games it holds are handed out,
    /// as parsing the bytes read would give them), then it is returned.
    pending: Option<Error>,
    eof: bool,
    done: bool,
    games: usize,
    /// How many bytes a read asks for at least ([`READ_SIZE`]; smaller in
    /// the oracle's checks, to decide games across many reads).
    read_size: usize,
    /// The reader's state at the end of the last game handed out.
    resume: Resume,
    /// The state before the current attempt, to try again with more bytes.
    attempt: Resume,
    /// What junk dropped since the last game held first (its warning's
    /// kind and position), for the warning of that junk: the bytes are
    /// gone by the time the game after them is read.
    dropped_junk: Option<(WarningKind, Position)>,
    /// Whether the stream's first bytes were looked at for a record of
    /// another format ([`crate::foreign`]).
    foreign_checked: bool,
    /// The warnings of converting such a record, placed in the record,
    /// for the first game handed out.
    foreign_warnings: Vec<Warning>,
}

impl<R: Read> StreamParser<R> {
    /// A parser of `src` with default options.
    pub fn new(src: R) -> StreamParser<R> {
        StreamParser::with_options(src, ParseOptions::default())
    }

    /// A parser of `src` with `options`.
    pub fn with_options(src: R, options: ParseOptions) -> StreamParser<R> {
        StreamParser::fresh(
            src,
            options,
            Store::default(),
            Vec::new(),
            Resume::default(),
        )
    }

    /// A parser at the start of `src`, with storage kept from another.
    fn fresh(
        src: R,
        options: ParseOptions,
        store: Store,
        mut buf: Vec<u8>,
        attempt: Resume,
    ) -> StreamParser<R> {
        buf.clear();
        StreamParser {
            src,
            options,
            store,
            buf,
            start: 0,
            consumed: 0,
            origin: Origin::default(),
            at_start: true,
            pending: None,
            eof: false,
            done: false,
            games: 0,
            read_size: READ_SIZE,
            resume: Resume::default(),
            attempt,
            dropped_junk: None,
            foreign_checked: false,
            foreign_warnings: Vec::new(),
        }
    }

    /// Starts reading `src` with `options`, keeping the buffer and arena
    /// (for reading many files without allocating for each).
    ///
    /// ```
    /// let mut stream = sgf_grove::StreamParser::new(&b"(;B[aa])"[..]);
    /// assert_eq!(stream.next_game().unwrap()?.node_count(), 1);
    /// stream.reset(&b"(;B[aa];W[bb])"[..], sgf_grove::ParseOptions::new());
    /// assert_eq!(stream.next_game().unwrap()?.node_count(), 2);
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    pub fn reset(&mut self, src: R, options: ParseOptions) {
        self.src = src;
        self.options = options;
        self.buf.clear();
        self.start = 0;
        self.consumed = 0;
        self.origin = Origin::default();
        self.at_start = true;
        self.pending = None;
        self.eof = false;
        self.done = false;
        self.games = 0;
        self.resume = Resume::default();
        self.dropped_junk = None;
        self.foreign_checked = false;
        self.foreign_warnings.clear();
    }

    /// Starts reading `src`, a source of another type, with `options`,
    /// keeping the buffer and arena: [`reset`](Self::reset) across reader
    /// types (say from one archive member's reader to the next, each
    /// borrowing its archive).
    ///
    /// ```
    /// use sgf_grove::{ParseOptions, StreamParser};
    /// let stream = StreamParser::new(&b"(;B[aa])"[..]);
    /// let owned = std::io::Cursor::new(b"(;B[aa];W[bb])".to_vec());
    /// let mut stream = stream.recycle(owned, ParseOptions::new());
    /// assert_eq!(stream.next_game().unwrap()?.node_count(), 2);
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    pub fn recycle<S: Read>(self, src: S, options: ParseOptions) -> StreamParser<S> {
        StreamParser::fresh(src, options, self.store, self.buf, self.attempt)
    }

    /// Starts over on the same source, as the part of a longer stream that
    /// begins at `at` and follows `game_index` games: positions, stream
    /// offsets and game indices are then those of the longer stream. For a
    /// source read in parts, such as an `.sgfs` file (one game per line)
    /// whose lines are parsed one at a time so that a bad line costs only
    /// itself (see [`input::SgfsLines`](crate::input::SgfsLines)).
    ///
    /// ```
    /// use sgf_grove::{Position, StreamParser};
    /// let mut stream = StreamParser::new(&b"(;B[aa]B[bb])"[..]);
    /// // As if these bytes were line 3 of a file, from offset 40, after 2 games.
    /// stream.restart_at(Position { offset: 40, line: 3, column: 1 }, 2);
    /// let coll = stream.next_game().unwrap()?;
    /// assert_eq!(coll.games().next().unwrap().index(), 2);
    /// let w = &coll.warnings()[0];
    /// assert_eq!((w.pos.offset, w.pos.line, w.pos.column), (47, 3, 8));
    /// assert_eq!(coll.stream_offset(0), 40);
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    pub fn restart_at(&mut self, at: Position, game_index: usize) {
        self.buf.clear();
        self.start = 0;
        self.consumed = 0;
        self.origin = Origin {
            offset: at.offset,
            line: at.line,
            column: at.column,
        };
        self.at_start = true;
        self.pending = None;
        self.eof = false;
        self.done = false;
        self.games = game_index;
        self.resume = Resume::default();
        self.dropped_junk = None;
        // A part of a longer stream is SGF (or not) as that stream is.
        self.foreign_checked = true;
        self.foreign_warnings.clear();
    }

    /// Reads `n` bytes at least at a time instead of 1 MiB: for the
    /// oracle, whose inputs are small, to have games decided across reads.
    #[cfg(feature = "oracle")]
    pub(crate) fn read_size(&mut self, n: usize) {
        self.read_size = n.max(1);
    }

    /// The source, to read or adjust between games or parts.
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.src
    }

    /// The source.
    pub fn get_ref(&self) -> &R {
        &self.src
    }

    /// How many games were handed out so far.
    pub fn games(&self) -> usize {
        self.games
    }

    /// Heap bytes held now: the buffer and the arena.
    pub fn heap_bytes(&self) -> usize {
        self.buf.capacity() + self.store.heap_bytes()
    }

    /// The next game, as a collection holding it alone with the warnings
    /// found since the previous game; `None` at the end of the stream.
    ///
    /// # Errors
    ///
    /// An I/O error of the source ([`ErrorKind::Io`]); in strict mode the
    /// first defect; [`ErrorKind::NoGameTree`] when the whole stream held
    /// no game. After an error the parser hands out nothing more.
    pub fn next_game(&mut self) -> Option<Result<Collection<'_, '_>>> {
        if self.done {
            return None;
        }
        self.drop_consumed();
        loop {
            if self.buf.len() == self.start
                && self.eof
                && let Some(e) = self.pending.take()
            {
                // Everything before the break was handed out.
                return self.fail(e);
            }
            if self.buf.len() == self.start && !self.eof {
                if let Err(e) = self.fill() {
                    return self.fail(e);
                }
                continue;
            }
            let window = &self.buf[self.start..];
            self.attempt.clone_from(&self.resume);
            let first = self.at_start;
            let one = match build_one(
                window,
                &self.options,
                &mut self.store,
                &mut self.attempt,
                first,
            ) {
                Ok(one) => one,
                Err(e)
                    if !self.eof
                        && e.kind() != ErrorKind::InputTooLarge
                        && e.offset() + LOOKAHEAD >= window.len() =>
                {
                    // Decided on too little of the stream: read more first.
                    if e.kind() == ErrorKind::NoGameTree {
                        // No game yet: junk before the first game, dropped
                        // as it goes.
                        self.drop_junk();
                    }
                    if let Err(e) = self.fill() {
                        return self.fail(e);
                    }
                    continue;
                }
                Err(e) => {
                    let broke = self.pending.take();
                    if let Some(broke) = broke.filter(|_| e.kind() == ErrorKind::NoGameTree) {
                        // No game before the break: the break is the news.
                        return self.fail(broke);
                    }
                    let e = self.shift_error(e);
                    return self.fail(e);
                }
            };
            let complete = self.eof || one.read_to + LOOKAHEAD < window.len();
            if !complete {
                if !one.started {
                    self.drop_junk();
                }
                if let Err(e) = self.fill() {
                    return self.fail(e);
                }
                continue;
            }
            std::mem::swap(&mut self.resume, &mut self.attempt);
            return self.hand_out(one);
        }
    }

    fn hand_out(&mut self, one: OneGame) -> Option<Result<Collection<'_, '_>>> {
        let origin = self.origin;
        for w in &mut self.store.warnings {
            w.pos = origin.shift(w.pos);
        }
        if !self.foreign_warnings.is_empty() {
            // Placed in the original record already: first, unshifted.
            let mut first = std::mem::take(&mut self.foreign_warnings);
            if self.options.is_strict() {
                let w = first[0];
                return self.fail(Error::new(ErrorKind::Strict(w.kind), w.pos));
            }
            for w in &first {
                self.store.warning_counts[w.kind as usize] += 1;
            }
            first.append(&mut self.store.warnings);
            self.store.warnings = first;
        }
        if let Some((kind, pos)) = self.dropped_junk.take() {
            self.place_dropped_junk(kind, pos);
        }
        self.store.origin = origin;
        self.store.game_base = self.games;
        if one.found {
            self.games += 1;
            self.consumed = one.end;
        } else {
            // The end of the stream: what is left is warnings alone (then
            // the error the source broke on, if it did).
            if self.store.warnings.is_empty() {
                if let Some(e) = self.pending.take() {
                    return self.fail(e);
                }
                self.done = true;
                return None;
            }
            // The error comes at the next call, once these are dropped.
            self.done = self.pending.is_none();
            self.consumed = one.end;
        }
        Some(Ok(Collection {
            store: &self.store,
            input: &self.buf[self.start..],
        }))
    }

    fn fail(&mut self, e: Error) -> Option<Result<Collection<'_, '_>>> {
        self.done = true;
        Some(Err(e))
    }

    /// An error found in the window, placed in the stream.
    fn shift_error(&self, e: Error) -> Error {
        if e.has_position() {
            let pos = self.origin.shift(e.position());
            e.with_position(pos)
        } else {
            e
        }
    }

    /// Drops the window's bytes, in which no game starts (junk), when
    /// there are many: they are not held, whatever their length (keeping
    /// what a decision may look back at). What they were is noted for the
    /// warning about them ([`StreamParser::place_dropped_junk`]).
    fn drop_junk(&mut self) {
        let window = &self.buf[self.start..];
        if window.len() <= 4 * LOOKAHEAD {
            return;
        }
        let mut cut = window.len() - 2 * LOOKAHEAD;
        if window[cut] == b'\n' && window[cut - 1] == b'\r' {
            // Never between the two bytes of one line break.
            cut += 1;
        }
        let junk = if self.games == 0 {
            WarningKind::JunkBeforeGame
        } else {
            WarningKind::JunkAfterGame
        };
        let dropped = &window[..cut];
        let noted = self.dropped_junk.map(|(kind, _)| kind);
        // Text wins over NUL bytes among whitespace; the first of each.
        let found = if noted == Some(junk) {
            None
        } else if let Some(i) = dropped.iter().position(|&b| !is_space(b)) {
            Some((junk, i))
        } else if noted.is_none() {
            memchr::memchr(0, dropped).map(|i| (WarningKind::NulByte, i))
        } else {
            None
        };
        if let Some((kind, i)) = found {
            let pos = self.origin.shift(Position::locate(dropped, i));
            self.dropped_junk = Some((kind, pos));
        }
        self.consumed = cut;
        self.drop_consumed();
    }

    /// Gives the warning about junk that was dropped before the game (or
    /// the end) handed out now its first position, as reading the whole
    /// stream at once would: the warning the window gave about what was
    /// left of the junk moves back to where the junk began, or is added
    /// when what was left was whitespace.
    fn place_dropped_junk(&mut self, kind: WarningKind, pos: Position) {
        let is_junk =
            |k: WarningKind| matches!(k, WarningKind::JunkBeforeGame | WarningKind::JunkAfterGame);
        let warnings = &mut self.store.warnings;
        // The rest of the junk, if it gave a warning, gave the first.
        let first = warnings.first().map(|w| w.kind);
        let same = first.filter(|&k| is_junk(k) || k == WarningKind::NulByte);
        match same {
            // Junk found later in the same stretch: that warning stands.
            Some(k) if kind == WarningKind::NulByte && is_junk(k) => {}
            Some(old) => {
                warnings[0] = crate::error::Warning { kind, pos };
                self.store.warning_counts[old as usize] -= 1;
                self.store.warning_counts[kind as usize] += 1;
            }
            None => {
                warnings.insert(0, crate::error::Warning { kind, pos });
                self.store.warning_counts[kind as usize] += 1;
            }
        }
    }

    /// Drops the bytes handed out, keeping the buffer's room.
    fn drop_consumed(&mut self) {
        if self.consumed == 0 {
            return;
        }
        let from = self.start;
        let to = self.start + self.consumed;
        self.origin = self.origin.advance(&self.buf[from..to]);
        self.at_start = false;
        self.start = to;
        self.consumed = 0;
        if self.start > self.buf.len() / 2 || self.start > READ_SIZE {
            self.buf.drain(..self.start);
            self.start = 0;
        }
    }

    /// Reads more: at least `READ_SIZE` bytes, or as much as the window
    /// holds already, so that a game read again and again while it grows
    /// costs a constant factor.
    fn fill(&mut self) -> std::result::Result<(), Error> {
        if let Some(e) = self.pending.take() {
            return Err(e);
        }
        let want = self.read_size.max(self.buf.len() - self.start);
        self.buf.reserve(want);
        // Into the buffer's spare room, with no zero-filling first; short
        // only at the end of the source.
        let mut src = (&mut self.src).take(want as u64);
        loop {
            match src.read_to_end(&mut self.buf) {
                Ok(n) => {
                    if n < want {
                        self.eof = true;
                    }
                    break;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                // A line of an `.sgfs` stream over its limit: the line is
                // refused (what was read of it is dropped); the stream may
                // go on at the next line (`restart_at`).
                Err(e) if crate::error::LineTooLong::of(&e).is_some() => {
                    let long = crate::error::LineTooLong::of(&e).map(|l| (l.at, l.limit));
                    let (at, limit) = long.unwrap_or_default();
                    return Err(Error::new(ErrorKind::LineTooLong { limit }, at));
                }
                // A source that breaks midway (a corrupt or cut compressed
                // stream): the stream ends there; the games read before
                // the break come first, all of them (nothing waits for
                // bytes that will not come).
                Err(e) => {
                    self.pending = Some(Error::from(e));
                    self.eof = true;
                    break;
                }
            }
        }
        if !self.foreign_checked {
            self.foreign_checked = true;
            self.convert_foreign();
        }
        if self.buf.len() - self.start >= u32::MAX as usize - 1 {
            return Err(Error::without_position(ErrorKind::InputTooLarge));
        }
        Ok(())
    }

    /// When the stream's first bytes are a record of another server's
    /// format ([`Content::Foreign`](crate::input::Content::Foreign)): reads
    /// the rest of it (up to [`foreign::MAX_LEN`](crate::foreign::MAX_LEN)
    /// bytes) and puts its conversion to SGF in its place, keeping the
    /// conversion's warnings for the first game. The record's text is read
    /// in the options' charset when they name one; the SGF is UTF-8.
    fn convert_foreign(&mut self) {
        let window = &self.buf[self.start..];
        let head = &window[..window.len().min(crate::sniff::SNIFF_LEN)];
        let Some(format) = crate::sniff::sniff(head).foreign() else {
            return;
        };
        if !self.eof {
            let have = self.buf.len() - self.start;
            let room = (crate::foreign::MAX_LEN + 1).saturating_sub(have);
            let mut src = (&mut self.src).take(room as u64);
            loop {
                match src.read_to_end(&mut self.buf) {
                    Ok(_) => break,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        // The record is cut there: what was read is
                        // converted, then the error comes.
                        self.pending = Some(Error::from(e));
                        break;
                    }
                }
            }
        }
        let converted = format.to_sgf_in(&self.buf[self.start..], self.options.charset);
        self.buf.truncate(self.start);
        self.buf.extend_from_slice(&converted.sgf);
        self.eof = true;
        if self.options.charset.is_some() {
            // The override was the record's; the SGF is UTF-8 (and says so).
            self.options = self.options.charset(Some(encoding_rs::UTF_8));
        }
        self.foreign_warnings = converted.warnings;
    }
}

impl<'t, 'src: 't> Collection<'t, 'src> {
    /// The offset in the stream of `offset` in this collection's input: the
    /// same offset for a parsed input, shifted by where the input starts in
    /// the stream for a game of a [`StreamParser`].
    pub fn stream_offset(&self, offset: usize) -> usize {
        self.store.origin.offset + offset
    }
}
