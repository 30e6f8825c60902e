//! Opening one input as a stream: a file, a FIFO or device named on the
//! command line, or standard input, through [`Reader::open`] (the position
//! file of `find`); or an SGF member that [`sgf_grove::input::Inputs`] found (a
//! file, a decompressed file, an archive member) through
//! [`Reader::open_member`] (`check`).
//!
//! Nothing asks how long an input is before reading it (a FIFO, a device
//! and a pipe do not know), and SGF text is never held whole:
//!
//! - the first [`SNIFF_LEN`] bytes are read and sniffed
//!   ([`sgf_grove::input::sniff`]); compressed data, archives, executables
//!   and other binary data are refused at once, by name, without reading
//!   the rest (`/dev/zero` stops after those bytes);
//! - SGF text is handed on as a [`Read`]: the sniffed bytes, then the rest
//!   of the input, for [`sgf_grove::StreamParser`] to read a game at a
//!   time. It has no size limit (the parser limits a single game);
//! - UTF-16 text is decoded to UTF-8 as it is read
//!   ([`input::Utf16Reader`]: a chunk at a time, of any length), with a
//!   note saying so; text that does not decode stops the input there,
//!   after the games before it.
//!
//! The [`Input`] counts the bytes read and the time spent reading, and can
//! give back the bytes around a position already read ([`Input::around`]),
//! for the line of a diagnostic whose game the parser no longer holds: from
//! a regular file (read again at that offset), or from the last [`TAIL`]
//! bytes of a pipe or of decoded UTF-16 text.

use sgf_grove::input::{self, Content, Member, SNIFF_LEN};
use sgf_grove::Position;
use std::cell::{Cell, RefCell};
use std::fmt;
use std::fs::File;
use std::io::{self, Cursor, Read};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// How many of the last bytes read from a pipe are kept, for the lines of
/// diagnostics the parser has moved past.
pub const TAIL: usize = 64 * 1024;

/// How many bytes [`Input::around`] gives before a position at most, and
/// after it.
const AROUND_BEFORE: usize = 64;
const AROUND_AFTER: usize = 128;

/// Where an input comes from.
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// Standard input.
    Stdin,
    /// A path: a regular file, or a FIFO or device named explicitly.
    Path(&'a Path),
}

/// Why an input cannot be parsed.
#[derive(Debug)]
pub enum ReadError {
    /// It could not be opened or read.
    Io(io::Error),
    /// It is not SGF text: compressed, an archive, binary.
    NotText(Content),
    /// It is UTF-16 in name only: an odd length or a lone surrogate.
    InvalidUtf16(Content),
}

impl ReadError {
    /// A stable `snake_case` code, as printed with the error.
    pub fn code(&self) -> &'static str {
        match self {
            ReadError::Io(_) => "io",
            ReadError::NotText(_) => "not_sgf_text",
            ReadError::InvalidUtf16(_) => "invalid_utf16",
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(err) => write!(f, "{err}"),
            ReadError::NotText(content) => write!(f, "{content}; not SGF text"),
            ReadError::InvalidUtf16(content) => {
                write!(f, "{content} that does not decode; not SGF text")
            }
        }
    }
}

impl From<io::Error> for ReadError {
    fn from(err: io::Error) -> ReadError {
        ReadError::Io(err)
    }
}

/// Opens inputs, one at a time.
#[derive(Debug, Default)]
pub struct Reader {}

/// An input opened, sniffed and ready to be read as a stream; it may
/// borrow the archive it is a member of.
pub struct Input<'a> {
    /// The reader, until [`Input::take_reader`] hands it out.
    reader: Option<Tracked<'a>>,
    /// Set when the input was UTF-16 and is read as its UTF-8 decoding.
    pub decoded_from: Option<Content>,
    seen: Rc<Seen>,
    backing: Backing,
}

impl fmt::Debug for Input<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Input")
            .field("decoded_from", &self.decoded_from)
            .field("bytes_read", &self.bytes_read())
            .finish_non_exhaustive()
    }
}

/// Where [`Input::around`] finds bytes already read.
enum Backing {
    /// A regular file, read again at an offset.
    #[cfg(unix)]
    File(File),
    /// A regular file by its path, opened again to be read at an offset.
    Path(PathBuf),
    /// The last [`TAIL`] bytes read, in [`Seen::tail`].
    Tail,
}

/// What the reader has seen, shared between the [`Tracked`] reader that the
/// parser owns and the [`Input`].
#[derive(Default)]
struct Seen {
    bytes: Cell<u64>,
    time: Cell<Duration>,
    /// The last bytes read (at least [`TAIL`] of them when there were that
    /// many), kept for [`Backing::Tail`] only.
    tail: Option<RefCell<Vec<u8>>>,
}

/// The input's bytes as a [`Read`], counting what it hands out.
pub struct Tracked<'a> {
    inner: Box<dyn Read + 'a>,
    seen: Rc<Seen>,
}

impl fmt::Debug for Tracked<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tracked")
            .field("bytes", &self.seen.bytes.get())
            .finish_non_exhaustive()
    }
}

impl Read for Tracked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let t = Instant::now();
        let n = self.inner.read(buf)?;
        let seen = &*self.seen;
        seen.time.set(seen.time.get() + t.elapsed());
        seen.bytes.set(seen.bytes.get() + n as u64);
        if let Some(tail) = &seen.tail {
            keep_tail(&mut tail.borrow_mut(), &buf[..n]);
        }
        Ok(n)
    }
}

/// Appends `data` to `tail`, keeping at least the last [`TAIL`] bytes and
/// at most twice that many.
fn keep_tail(tail: &mut Vec<u8>, data: &[u8]) {
    if data.len() >= TAIL {
        tail.clear();
        tail.extend_from_slice(&data[data.len() - TAIL..]);
        return;
    }
    if tail.len() + data.len() > 2 * TAIL {
        tail.drain(..tail.len() + data.len() - TAIL);
    }
    tail.extend_from_slice(data);
}

impl<'a> Input<'a> {
    /// The input's bytes, to hand to the parser; `None` once taken.
    pub fn take_reader(&mut self) -> Option<Tracked<'a>> {
        self.reader.take()
    }

    /// How many bytes of SGF text were read so far (of the decoded text
    /// for UTF-16).
    pub fn bytes_read(&self) -> u64 {
        self.seen.bytes.get()
    }

    /// How long reading took so far.
    pub fn read_time(&self) -> Duration {
        self.seen.time.get()
    }

    /// Bytes around `pos`, a position in the text already read, and `pos`
    /// as a position in them (its offset in them; line and column as
    /// given): up to [`AROUND_BEFORE`] bytes of its line before it and
    /// [`AROUND_AFTER`] bytes after. `None` when they are no longer at hand
    /// (a pipe read far past them).
    pub fn around(&self, pos: Position) -> Option<(Vec<u8>, Position)> {
        let read = usize::try_from(self.bytes_read()).unwrap_or(usize::MAX);
        let offset = pos.offset.min(read);
        let back = (pos.column as usize)
            .saturating_sub(1)
            .min(AROUND_BEFORE)
            .min(offset);
        let (mut start, end) = (offset - back, offset.saturating_add(AROUND_AFTER).min(read));
        let bytes = match &self.backing {
            #[cfg(unix)]
            Backing::File(file) => read_at(file, start, end)?,
            Backing::Path(path) => read_at(&File::open(path).ok()?, start, end)?,
            Backing::Tail => {
                let tail = self.seen.tail.as_ref()?.borrow();
                let tail_start = read - tail.len();
                if offset < tail_start {
                    return None;
                }
                start = start.max(tail_start);
                tail[start - tail_start..end - tail_start].to_vec()
            }
        };
        Some((
            bytes,
            Position {
                offset: offset - start,
                ..pos
            },
        ))
    }
}

impl Reader {
    /// Opens `source`, reads its first bytes and sniffs them.
    ///
    /// # Errors
    ///
    /// A [`ReadError`]: the input cannot be opened or read, or is not SGF
    /// text.
    pub fn open(&self, source: Source<'_>) -> Result<Input<'static>, ReadError> {
        match source {
            Source::Stdin => self.start(Box::new(io::stdin().lock()), None),
            Source::Path(path) => {
                let file = File::open(path)?;
                let meta = file.metadata()?;
                // A regular file can be read again at an offset; a FIFO or
                // a device cannot.
                let again = if meta.is_file() {
                    file.try_clone().ok().map(Again::File)
                } else {
                    None
                };
                self.start(Box::new(file), again)
            }
        }
    }

    /// Opens `member` (sniffed already by the scan that found it, sniffed
    /// again here for UTF-16 and binary data): a plain file can be read
    /// again by its path, anything else keeps the tail of what was read.
    ///
    /// # Errors
    ///
    /// As [`Reader::open`].
    pub fn open_member<'a>(&self, member: Member<'a>) -> Result<Input<'a>, ReadError> {
        let again = member
            .plain_path()
            .map(|path| Again::Path(path.to_path_buf()));
        // The scan sniffed the member already: its first bytes are not
        // read twice.
        let content = member.content();
        self.start_sniffed(member.into_reader(), Vec::new(), content, again)
    }

    /// Sniffs the first bytes of `from` and makes the input; `again` is a
    /// way to read a regular file again.
    fn start<'a>(
        &self,
        mut from: Box<dyn Read + 'a>,
        file: Option<Again>,
    ) -> Result<Input<'a>, ReadError> {
        let mut prefix = vec![0; SNIFF_LEN];
        let n = read_full(&mut from, &mut prefix)?;
        prefix.truncate(n);
        let content = input::sniff(&prefix);
        self.start_sniffed(from, prefix, content, file)
    }

    /// Makes the input of `prefix` then `from`, whose first bytes are
    /// `content`.
    fn start_sniffed<'a>(
        &self,
        from: Box<dyn Read + 'a>,
        prefix: Vec<u8>,
        content: Content,
        file: Option<Again>,
    ) -> Result<Input<'a>, ReadError> {
        if content.is_utf16() {
            // Decoded as it is read; positions are in the decoded text,
            // whose last bytes are kept for the lines of diagnostics.
            let raw: Box<dyn Read + 'a> = if prefix.is_empty() {
                from
            } else {
                Box::new(Cursor::new(prefix).chain(from))
            };
            let text =
                input::Utf16Reader::new(raw, content).ok_or(ReadError::InvalidUtf16(content))?;
            return Ok(Input::new(Box::new(text), Some(content), Backing::Tail));
        }
        if !content.is_text() {
            return Err(ReadError::NotText(content));
        }
        let backing = match file {
            #[cfg(unix)]
            Some(Again::File(file)) => Backing::File(file),
            Some(Again::Path(path)) => Backing::Path(path),
            _ => Backing::Tail,
        };
        let reader: Box<dyn Read + 'a> = if prefix.is_empty() {
            from
        } else {
            Box::new(Cursor::new(prefix).chain(from))
        };
        Ok(Input::new(reader, None, backing))
    }
}

/// How a regular file can be read again at an offset.
enum Again {
    /// A second handle on it.
    #[cfg_attr(not(unix), allow(dead_code))]
    File(File),
    /// Its path.
    Path(PathBuf),
}

impl<'a> Input<'a> {
    fn new(
        inner: Box<dyn Read + 'a>,
        decoded_from: Option<Content>,
        backing: Backing,
    ) -> Input<'a> {
        let seen = Rc::new(Seen {
            tail: matches!(backing, Backing::Tail).then(|| RefCell::new(Vec::new())),
            ..Seen::default()
        });
        Input {
            reader: Some(Tracked {
                inner,
                seen: Rc::clone(&seen),
            }),
            decoded_from,
            seen,
            backing,
        }
    }
}

/// The bytes of `file` from `start` to `end` (fewer at its end); `None`
/// when it cannot be read.
fn read_at(file: &File, start: usize, end: usize) -> Option<Vec<u8>> {
    let mut bytes = vec![0; end - start];
    let mut got = 0;
    while got < bytes.len() {
        #[cfg(unix)]
        let read = {
            use std::os::unix::fs::FileExt as _;
            file.read_at(&mut bytes[got..], (start + got) as u64)
        };
        #[cfg(not(unix))]
        let read = {
            use std::io::{Seek as _, SeekFrom};
            let mut handle = file;
            handle
                .seek(SeekFrom::Start((start + got) as u64))
                .and_then(|_| handle.read(&mut bytes[got..]))
        };
        match read {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    bytes.truncate(got);
    Some(bytes)
}

/// Reads into `buf` until it is full or the input ends; returns how many
/// bytes were read.
fn read_full(from: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match from.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

#[cfg(test)]
mod tests {
    use super::{keep_tail, Backing, Input, ReadError, Reader, TAIL};
    use sgf_grove::input::{Content, SNIFF_LEN};
    use sgf_grove::Position;
    use std::cell::Cell;
    use std::io::{self, Read};
    use std::rc::Rc;

    /// Counts the bytes handed out, to prove reading stopped early.
    struct Counting<R> {
        inner: R,
        given: Rc<Cell<usize>>,
    }

    impl<R: Read> Read for Counting<R> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let most = buf.len().min(4096);
            let n = self.inner.read(&mut buf[..most])?;
            self.given.set(self.given.get() + n);
            Ok(n)
        }
    }

    fn counting<R: Read + 'static>(inner: R) -> (Box<dyn Read>, Rc<Cell<usize>>) {
        let given = Rc::new(Cell::new(0));
        let reader = Counting {
            inner,
            given: Rc::clone(&given),
        };
        (Box::new(reader), given)
    }

    #[test]
    fn an_endless_utf16_stream_is_decoded_as_it_is_read() {
        let reader = Reader::default();
        // `(` in UTF-16LE, for ever: decoded a chunk at a time.
        let (endless, given) = counting(io::repeat(b'(').zip_utf16le());
        let mut input = reader.start(endless, None).unwrap();
        assert_eq!(input.decoded_from, Some(Content::Utf16Le { bom: false }));
        let mut tracked = input.take_reader().unwrap();
        let mut buf = vec![0; 1 << 20];
        for _ in 0..3 {
            tracked.read_exact(&mut buf).unwrap();
            assert!(buf.iter().all(|&b| b == b'('));
        }
        assert_eq!(input.bytes_read(), 3 << 20);
        // Twice as many UTF-16 bytes, and at most a chunk more.
        assert!(given.get() >= 6 << 20 && given.get() < (6 << 20) + (1 << 17));
    }

    #[test]
    fn endless_zeros_stop_after_the_sniffed_bytes() {
        let reader = Reader::default();
        let (zeros, given) = counting(io::repeat(0));
        let err = reader.start(zeros, None).unwrap_err();
        assert!(
            matches!(err, ReadError::NotText(Content::Binary)),
            "{err:?}"
        );
        assert_eq!(given.get(), SNIFF_LEN);
        assert_eq!(err.to_string(), "binary data; not SGF text");
    }

    #[test]
    fn endless_text_is_opened_without_reading_past_the_sniffed_bytes() {
        let reader = Reader::default();
        let (endless, given) = counting(io::repeat(b'('));
        let mut input = reader.start(endless, None).unwrap();
        assert_eq!(given.get(), SNIFF_LEN);
        assert_eq!(input.bytes_read(), 0);
        // Read as a stream, past any limit, counted.
        let mut tracked = input.take_reader().unwrap();
        let mut buf = vec![0; 1 << 20];
        for _ in 0..3 {
            tracked.read_exact(&mut buf).unwrap();
        }
        assert_eq!(input.bytes_read(), 3 << 20);
        assert!(input.take_reader().is_none());
    }

    #[test]
    fn a_stream_keeps_its_tail_for_positions_read_lately() {
        let reader = Reader::default();
        let mut text = b"(;GM[1]C[".to_vec();
        text.resize(300_000, b'x');
        text.extend_from_slice(b"]\n;B[aa])");
        let (from, _) = counting(io::Cursor::new(text.clone()));
        let mut input = reader.start(from, None).unwrap();
        assert!(matches!(input.backing, Backing::Tail));
        let mut all = Vec::new();
        input.take_reader().unwrap().read_to_end(&mut all).unwrap();
        assert_eq!(all, text);
        // `;B[aa]` on line 2, column 1.
        let pos = Position {
            offset: 300_002,
            line: 2,
            column: 1,
        };
        let (bytes, at) = input.around(pos).unwrap();
        assert_eq!(bytes, b";B[aa])");
        assert_eq!(at.offset, 0);
        // Column 10 of line 1: the line's start, kept.
        let pos = Position {
            offset: 9,
            line: 1,
            column: 10,
        };
        assert!(input.around(pos).is_none(), "read past it");
        let pos = Position {
            offset: 300_000,
            line: 1,
            column: 300_001,
        };
        let (bytes, at) = input.around(pos).unwrap();
        assert_eq!(at.offset, 64);
        assert_eq!(&bytes[64..], b"]\n;B[aa])");
    }

    #[test]
    fn the_tail_keeps_the_last_bytes() {
        let mut tail = Vec::new();
        let data: Vec<u8> = (0..3 * TAIL).map(|i| i as u8).collect();
        for chunk in data.chunks(1000) {
            keep_tail(&mut tail, chunk);
            assert!(tail.len() <= 2 * TAIL);
        }
        assert!(tail.len() >= TAIL);
        assert!(data.ends_with(&tail));
        keep_tail(&mut tail, &data);
        assert_eq!(tail, data[data.len() - TAIL..]);
    }

    #[test]
    fn utf16_is_decoded_and_streamed_from_memory() {
        let reader = Reader::default();
        let text: Vec<u8> = "\u{feff}(;C[中])"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let (from, _) = counting(io::Cursor::new(text));
        let mut input: Input = reader.start(from, None).unwrap();
        assert_eq!(input.decoded_from, Some(Content::Utf16Le { bom: true }));
        let mut all = String::new();
        input
            .take_reader()
            .unwrap()
            .read_to_string(&mut all)
            .unwrap();
        assert_eq!(all, "(;C[中])");
        assert_eq!(input.bytes_read(), all.len() as u64);
    }

    /// Bytes as UTF-16LE code units: each byte then a zero.
    trait ZipUtf16 {
        fn zip_utf16le(self) -> Utf16Le<Self>
        where
            Self: Sized;
    }

    impl<R: Read> ZipUtf16 for R {
        fn zip_utf16le(self) -> Utf16Le<R> {
            Utf16Le {
                inner: self,
                odd: false,
            }
        }
    }

    struct Utf16Le<R> {
        inner: R,
        odd: bool,
    }

    impl<R: Read> Read for Utf16Le<R> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let mut one = [0u8; 1];
            for (i, b) in buf.iter_mut().enumerate() {
                if self.odd {
                    *b = 0;
                } else if self.inner.read(&mut one)? == 0 {
                    return Ok(i);
                } else {
                    *b = one[0];
                }
                self.odd = !self.odd;
            }
            Ok(buf.len())
        }
    }
}
