//! Reading one input into memory: a file, a FIFO or device named on the
//! command line, or standard input, all through [`Reader::read`].
//!
//! Everything is read the same way, in chunks into one reused buffer, so
//! that nothing asks how long an input is before reading it (a FIFO, a
//! device and a pipe do not know) and no input is allocated whole up front:
//!
//! - after the first [`SNIFF_LEN`] bytes the input is sniffed
//!   ([`sgf_grove::input::sniff`]); compressed data, archives, executables
//!   and other binary data are refused at once, by name, without reading
//!   the rest (`/dev/zero` stops after one chunk);
//! - more than [`MAX_INPUT`] bytes (what the parser's `u32` offsets
//!   address) are refused as soon as they are seen; a file whose size
//!   already says so is refused once 16 MiB of it have been read;
//! - UTF-16 text is decoded to UTF-8 and handed on with a note saying so.
//!
//! A game-at-a-time reader over `impl Read` will replace this; callers see
//! only [`Reader::read`].

use sgf_grove::input::{self, Content, SNIFF_LEN};
use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// The most bytes an input may have: 4 GiB − 1, the largest input the
/// parser accepts.
pub const MAX_INPUT: usize = u32::MAX as usize;

/// After this many bytes of a file, its size is asked for once, so that a
/// file over [`MAX_INPUT`] is refused before it fills memory.
const SIZE_CHECK_AFTER: usize = 16 << 20;

/// How a reader tells the size of what it reads (a file's from its
/// metadata).
type SizeOf<R> = fn(&R) -> io::Result<u64>;

/// Where an input comes from.
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// Standard input.
    Stdin,
    /// A path: a regular file, or a FIFO or device named explicitly.
    Path(&'a Path),
}

/// An input read and ready to parse.
#[derive(Debug)]
pub struct Input<'a> {
    /// The SGF text (decoded to UTF-8 when it was UTF-16).
    pub bytes: &'a [u8],
    /// Set when the input was UTF-16 and `bytes` is its UTF-8 decoding.
    pub decoded_from: Option<Content>,
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
    /// It is larger than the limit.
    TooLarge(usize),
}

impl ReadError {
    /// A stable `snake_case` code, as printed with the error.
    pub fn code(&self) -> &'static str {
        match self {
            ReadError::Io(_) => "io",
            ReadError::NotText(_) => "not_sgf_text",
            ReadError::InvalidUtf16(_) => "invalid_utf16",
            ReadError::TooLarge(_) => "input_too_large",
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
            ReadError::TooLarge(limit) => {
                write!(f, "input larger than {limit} bytes; refused")
            }
        }
    }
}

impl From<io::Error> for ReadError {
    fn from(err: io::Error) -> ReadError {
        ReadError::Io(err)
    }
}

/// Reads inputs, one at a time, into buffers it keeps between them.
#[derive(Debug)]
pub struct Reader {
    bytes: Vec<u8>,
    decoded: String,
    limit: usize,
}

impl Default for Reader {
    fn default() -> Reader {
        Reader::with_limit(MAX_INPUT)
    }
}

impl Reader {
    /// A reader that refuses inputs over `limit` bytes.
    pub fn with_limit(limit: usize) -> Reader {
        Reader {
            bytes: Vec::new(),
            decoded: String::new(),
            limit,
        }
    }

    /// Reads the whole of `source`; the bytes live until the next read.
    ///
    /// # Errors
    ///
    /// A [`ReadError`]: the input cannot be read, is not SGF text, or is
    /// too large.
    pub fn read(&mut self, source: Source<'_>) -> Result<Input<'_>, ReadError> {
        let len = match source {
            Source::Stdin => self.fill(&mut io::stdin().lock(), None)?,
            Source::Path(path) => {
                let size: SizeOf<File> = |file| file.metadata().map(|m| m.len());
                self.fill(&mut File::open(path)?, Some(size))?
            }
        };
        let content = input::sniff(&self.bytes[..len]);
        if content.is_utf16() {
            self.decoded = input::decode_utf16(&self.bytes[..len], content)
                .ok_or(ReadError::InvalidUtf16(content))?;
            return Ok(Input {
                bytes: self.decoded.as_bytes(),
                decoded_from: Some(content),
            });
        }
        if !content.is_text() {
            return Err(ReadError::NotText(content));
        }
        Ok(Input {
            bytes: &self.bytes[..len],
            decoded_from: None,
        })
    }

    /// Reads `from` to its end into the buffer, in chunks; returns how many
    /// bytes. Stops early on what is not text and on what is too large;
    /// `size_of`, when given, is asked once for the size of a large input.
    ///
    /// The buffer's capacity is kept between inputs, and bytes are read into
    /// it without being zeroed first, so memory touched is what was read.
    fn fill<R: Read>(
        &mut self,
        from: &mut R,
        mut size_of: Option<SizeOf<R>>,
    ) -> Result<usize, ReadError> {
        self.bytes.clear();
        let mut sniffed = false;
        loop {
            let len = self.bytes.len();
            // One byte over the limit tells a too-large input.
            let room = self.limit.saturating_add(1) - len;
            let chunk = len.max(64 * 1024).min(room);
            // `read_to_end` retries interrupted reads; on a `Take` it stops
            // short of `chunk` only at the end of the input.
            let n = from
                .by_ref()
                .take(chunk as u64)
                .read_to_end(&mut self.bytes)?;
            let len = self.bytes.len();
            if len > self.limit {
                return Err(ReadError::TooLarge(self.limit));
            }
            if !sniffed && (len >= SNIFF_LEN || n < chunk) {
                sniffed = true;
                let content = input::sniff(&self.bytes);
                if !content.is_text() && !content.is_utf16() {
                    return Err(ReadError::NotText(content));
                }
            }
            if n < chunk {
                return Ok(len);
            }
            if len >= SIZE_CHECK_AFTER {
                if let Some(size_of) = size_of.take() {
                    if size_of(from)? > self.limit as u64 {
                        return Err(ReadError::TooLarge(self.limit));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{ReadError, Reader};
    use sgf_grove::input::Content;
    use std::io::{self, Read};

    /// Counts the bytes handed out, to prove reading stopped early.
    struct Counting<R> {
        inner: R,
        given: usize,
    }

    impl<R: Read> Read for Counting<R> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let most = buf.len().min(4096);
            let n = self.inner.read(&mut buf[..most])?;
            self.given += n;
            Ok(n)
        }
    }

    #[test]
    fn an_endless_stream_is_refused_at_the_limit_not_read_forever() {
        let mut reader = Reader::with_limit(1 << 20);
        let mut endless = Counting {
            inner: io::repeat(b'('),
            given: 0,
        };
        let err = reader.fill(&mut endless, None).unwrap_err();
        assert!(matches!(err, ReadError::TooLarge(limit) if limit == 1 << 20));
        assert_eq!(endless.given, (1 << 20) + 1);
        assert_eq!(reader.bytes.len(), (1 << 20) + 1);
        assert_eq!(err.to_string(), "input larger than 1048576 bytes; refused");
    }

    #[test]
    fn endless_zeros_stop_after_the_first_chunk() {
        let mut reader = Reader::with_limit(1 << 30);
        let mut zeros = Counting {
            inner: io::repeat(0),
            given: 0,
        };
        let err = reader.fill(&mut zeros, None).unwrap_err();
        assert!(
            matches!(err, ReadError::NotText(Content::Binary)),
            "{err:?}"
        );
        assert_eq!(zeros.given, 64 * 1024);
        assert_eq!(err.to_string(), "binary data; not SGF text");
    }

    #[test]
    fn a_file_whose_size_says_too_large_is_refused_after_16_mib() {
        let mut reader = Reader::with_limit(1 << 30);
        let mut file = Counting {
            inner: io::repeat(b'('),
            given: 0,
        };
        let err = reader.fill(&mut file, Some(|_| Ok(5 << 30))).unwrap_err();
        assert!(matches!(err, ReadError::TooLarge(_)), "{err:?}");
        assert_eq!(file.given, super::SIZE_CHECK_AFTER);
    }

    #[test]
    fn a_stream_up_to_the_limit_is_read_whole_in_chunks() {
        let mut reader = Reader::with_limit(300_000);
        let mut input = b"(;GM[1]C[".to_vec();
        input.resize(299_999, b'x');
        input.push(b']');
        let len = reader.fill(
            &mut Counting {
                inner: &input[..],
                given: 0,
            },
            None,
        );
        assert_eq!(len.unwrap(), 300_000);
        assert_eq!(&reader.bytes[..300_000], &input[..]);
    }
}
