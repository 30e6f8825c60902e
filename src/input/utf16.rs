//! UTF-16 text read as UTF-8, as a stream: [`Utf16Reader`].

use super::Content;
use std::io::{self, Read};

/// How many bytes of UTF-16 are read at a time.
const CHUNK: usize = 64 * 1024;

/// Reads UTF-16 text (little- or big-endian, as [`sniff`](super::sniff)
/// found it) from `R` and hands it out as UTF-8, a chunk at a time: memory
/// is a few chunks, whatever the length of the text. A byte order mark at
/// the start is dropped (a second one is kept, as a character).
///
/// Text that does not decode (a lone surrogate, an odd number of bytes at
/// the end) is an [`io::ErrorKind::InvalidData`] error once the text
/// before it is handed out, naming the offset in the UTF-16 bytes.
///
/// ```
/// use sgf_grove::input::{Content, Utf16Reader};
/// use std::io::Read;
/// let utf16: Vec<u8> = "\u{feff}(;C[é])".encode_utf16().flat_map(u16::to_le_bytes).collect();
/// let mut text = String::new();
/// Utf16Reader::new(&utf16[..], Content::Utf16Le { bom: true })
///     .expect("UTF-16")
///     .read_to_string(&mut text)?;
/// assert_eq!(text, "(;C[é])");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Utf16Reader<R> {
    inner: R,
    decoder: encoding_rs::Decoder,
    /// UTF-16 bytes read and not yet decoded (an odd byte, half a
    /// surrogate pair).
    raw: Vec<u8>,
    /// UTF-8 decoded and not yet handed out: `out[out_at..]`.
    out: Vec<u8>,
    out_at: usize,
    /// UTF-16 bytes decoded so far, for the offset of an error.
    decoded: u64,
    eof: bool,
    /// Where the text stopped decoding, to report once the text before
    /// it is handed out.
    bad_at: Option<u64>,
    done: bool,
}

impl<R> std::fmt::Debug for Utf16Reader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Utf16Reader")
            .field("encoding", &self.decoder.encoding().name())
            .field("decoded", &self.decoded)
            .finish_non_exhaustive()
    }
}

impl<R: Read> Utf16Reader<R> {
    /// A reader of `inner` as the UTF-16 `content` says; `None` when
    /// `content` is not UTF-16.
    pub fn new(inner: R, content: Content) -> Option<Utf16Reader<R>> {
        let encoding = match content {
            Content::Utf16Le { .. } => encoding_rs::UTF_16LE,
            Content::Utf16Be { .. } => encoding_rs::UTF_16BE,
            _ => return None,
        };
        Some(Utf16Reader {
            inner,
            decoder: encoding.new_decoder_with_bom_removal(),
            raw: Vec::new(),
            out: Vec::new(),
            out_at: 0,
            decoded: 0,
            eof: false,
            bad_at: None,
            done: false,
        })
    }

    /// The reader read from.
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// Reads and decodes the next chunk into `out` (perhaps nothing, when
    /// the chunk ends inside a character).
    fn refill(&mut self) -> io::Result<()> {
        let n = (&mut self.inner)
            .take(CHUNK as u64)
            .read_to_end(&mut self.raw)?;
        // On a `Take`, `read_to_end` stops short only at the end.
        self.eof = n < CHUNK;
        let room = self
            .decoder
            .max_utf8_buffer_length_without_replacement(self.raw.len())
            .unwrap_or(self.raw.len() * 3 + 16);
        self.out.clear();
        self.out.resize(room, 0);
        self.out_at = 0;
        let (result, read, written) =
            self.decoder
                .decode_to_utf8_without_replacement(&self.raw, &mut self.out, self.eof);
        self.out.truncate(written);
        self.decoded += read as u64;
        match result {
            encoding_rs::DecoderResult::Malformed(bad, after) => {
                self.bad_at = Some(self.decoded - u64::from(bad) - u64::from(after));
                self.raw.clear();
            }
            // All of `raw` was taken (the decoder keeps a half character
            // itself).
            _ => {
                self.raw.drain(..read);
                if self.eof {
                    self.done = true;
                }
            }
        }
        Ok(())
    }
}

impl<R: Read> Read for Utf16Reader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if self.out_at < self.out.len() {
                let n = buf.len().min(self.out.len() - self.out_at);
                buf[..n].copy_from_slice(&self.out[self.out_at..self.out_at + n]);
                self.out_at += n;
                return Ok(n);
            }
            if let Some(at) = self.bad_at {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "{} text that does not decode at byte {at}",
                        self.decoder.encoding().name()
                    ),
                ));
            }
            if self.done || buf.is_empty() {
                return Ok(0);
            }
            self.refill()?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Utf16Reader;
    use crate::input::Content;
    use std::io::Read;

    fn le(text: &str) -> Vec<u8> {
        text.encode_utf16().flat_map(u16::to_le_bytes).collect()
    }

    /// Hands out at most `step` bytes a read, to split characters.
    struct Trickle<'a>(&'a [u8], usize);
    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.0.len().min(self.1).min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn long_text_with_pairs_split_across_chunks() {
        let text = "(;C[中 😀 é])".repeat(20_000);
        let bytes = le(&format!("\u{feff}{text}"));
        for step in [1, 3, 4093, 1 << 20] {
            let mut out = String::new();
            Utf16Reader::new(Trickle(&bytes, step), Content::Utf16Le { bom: true })
                .unwrap()
                .read_to_string(&mut out)
                .unwrap();
            assert!(out == text, "step {step}");
        }
    }

    #[test]
    fn big_endian_and_a_second_bom_kept() {
        let bytes: Vec<u8> = "\u{feff}(;)\u{feff}"
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect();
        let mut out = String::new();
        Utf16Reader::new(&bytes[..], Content::Utf16Be { bom: true })
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        assert_eq!(out, "(;)\u{feff}");
    }

    #[test]
    fn text_before_a_lone_surrogate_comes_first_then_the_error() {
        let mut bytes = le("(;C[ok])");
        bytes.extend_from_slice(&[0x00, 0xd8]);
        bytes.extend_from_slice(&le("x"));
        let mut reader = Utf16Reader::new(&bytes[..], Content::Utf16Le { bom: false }).unwrap();
        let mut out = Vec::new();
        let err = reader.read_to_end(&mut out).unwrap_err();
        assert_eq!(out, b"(;C[ok])");
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
        assert!(err.to_string().contains("at byte 16"), "{err}");
        // An odd byte at the end.
        let mut bytes = le("(;)");
        bytes.push(b'x');
        let mut out = Vec::new();
        let err = Utf16Reader::new(&bytes[..], Content::Utf16Le { bom: false })
            .unwrap()
            .read_to_end(&mut out)
            .unwrap_err();
        assert_eq!(out, b"(;)");
        assert!(err.to_string().contains("at byte 6"), "{err}");
    }

    #[test]
    fn not_utf16_is_refused() {
        assert!(Utf16Reader::new(&b""[..], Content::Text).is_none());
    }
}
