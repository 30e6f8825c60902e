//! The readers a scan stacks up: decompressors, error tagging, a watch on
//! a member's reader, and copying a stream to a temporary file for the
//! archive formats that need to seek.

use super::{Content, DecodeError, SNIFF_LEN};
use std::cell::Cell;
use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom, Write};

/// Reads the first [`SNIFF_LEN`] bytes of `from` (fewer at its end) into
/// `prefix`.
pub(crate) fn read_prefix(from: &mut impl Read, prefix: &mut Vec<u8>) -> io::Result<()> {
    prefix.clear();
    // `read_to_end` retries interrupted reads; on a `Take` it stops short
    // only at the end of the input.
    from.take(SNIFF_LEN as u64).read_to_end(prefix)?;
    Ok(())
}

/// A decompressor of `format` over `raw`, its errors tagged with the format
/// ([`DecodeError`]). Memory: gzip keeps a 32 KiB window, bzip2 at most
/// about 4 MiB, zstd at most the window the frame declares (refused over
/// 128 MiB), xz the dictionary the stream declares (64 MiB for `xz -9`).
pub(crate) fn decoder<'a>(format: Content, raw: Box<dyn Read + 'a>) -> Box<dyn Read + 'a> {
    let raw: Box<dyn Read + 'a> = Box::new(Below(raw));
    let inner: Box<dyn Read + 'a> = match format {
        // The multi-member forms read concatenated streams (`cat a.gz b.gz`)
        // to their end, as the command-line tools do.
        Content::Gzip => Box::new(flate2::read::MultiGzDecoder::new(raw)),
        Content::Bzip2 => Box::new(bzip2::read::MultiBzDecoder::new(raw)),
        // liblzma decodes as far as the input goes: a cut stream gives
        // every byte before the cut, as `xz -dc` does.
        Content::Xz => Box::new(liblzma::read::XzDecoder::new_multi_decoder(raw)),
        Content::Zstd => Box::new(LazyZstd::Pending(Some(raw))),
        _ => raw,
    };
    tagged(format, inner)
}

/// `inner`, its own errors tagged with `format` ([`DecodeError`]): a
/// decompressor, or an archive member's reader (whose archive reads a
/// [`Below`]).
pub(crate) fn tagged<'a>(format: Content, inner: impl Read + 'a) -> Box<dyn Read + 'a> {
    Box::new(Tagged { inner, format })
}

/// A zstd decoder made at the first read, so that an error in making it
/// (there is none for a plain stream, but the API returns one) is a read
/// error like any other.
enum LazyZstd<'a> {
    Pending(Option<Box<dyn Read + 'a>>),
    Ready(zstd::stream::read::Decoder<'static, BufReader<Box<dyn Read + 'a>>>),
}

impl Read for LazyZstd<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let LazyZstd::Pending(raw) = self {
            let Some(raw) = raw.take() else {
                return Err(io::Error::other("zstd decoder could not be made"));
            };
            *self = LazyZstd::Ready(zstd::stream::read::Decoder::new(raw)?);
        }
        match self {
            LazyZstd::Ready(decoder) => decoder.read(buf),
            LazyZstd::Pending(_) => Ok(0),
        }
    }
}

/// Tags the errors that the format reader `inner` raises itself with the
/// format ([`DecodeError`]: the data is bad); errors of reading its input,
/// marked by [`Below`], pass through as they were.
struct Tagged<R> {
    inner: R,
    format: Content,
}

impl<R: Read> Read for Tagged<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| match split(e) {
            Ok(below) => below,
            Err(own) if own.kind() == io::ErrorKind::Interrupted => own,
            Err(own) => DecodeError::wrap(self.format, own),
        })
    }
}

/// The input of a format reader (a decompressor, an archive): its errors
/// are marked as errors of reading, so that [`Tagged`] can tell them from
/// those of the format.
pub(crate) struct Below<R>(pub(crate) R);

/// An error of reading, passed through a format reader.
#[derive(Debug)]
struct BelowError(io::Error);

impl std::fmt::Display for BelowError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for BelowError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

impl<R: Read> Read for Below<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf).map_err(|e| {
            let classified = e
                .get_ref()
                .is_some_and(|inner| inner.is::<DecodeError>() || inner.is::<BelowError>());
            if classified || e.kind() == io::ErrorKind::Interrupted {
                e
            } else {
                io::Error::new(e.kind(), BelowError(e))
            }
        })
    }
}

/// Tells an error that a format reader returned apart: `Ok` with the error
/// of reading below it (a [`DecodeError`] of a format further in stays
/// one), `Err` with its own (the data is bad).
pub(crate) fn split(err: io::Error) -> Result<io::Error, io::Error> {
    let Some(inner) = err.get_ref() else {
        return Err(err);
    };
    if inner.is::<DecodeError>() {
        return Ok(err);
    }
    if !inner.is::<BelowError>() {
        return Err(err);
    }
    let kind = err.kind();
    match err.into_inner().map(|inner| inner.downcast::<BelowError>()) {
        Some(Ok(below)) => Ok(below.0),
        _ => Ok(io::Error::from(kind)),
    }
}

impl<R: Seek> Seek for Below<R> {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.0.seek(pos)
    }
}

/// A member's reader that notes when it fails, so that the scan stops
/// reading an archive whose stream broke (the next member could not be
/// found in it).
pub(crate) struct Watched<'c, R> {
    pub(crate) inner: R,
    pub(crate) failed: &'c Cell<bool>,
}

impl<R: Read> Read for Watched<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.inner.read(buf) {
            Err(e) if e.kind() != io::ErrorKind::Interrupted => {
                self.failed.set(true);
                Err(e)
            }
            other => other,
        }
    }
}

/// Why [`spool`] failed.
pub(crate) enum SpoolError {
    /// Reading the stream or writing the temporary file failed.
    Io(io::Error),
    /// The stream is longer than the limit.
    TooLarge,
}

/// Copies `prefix` then the rest of `from` to a new temporary file (removed
/// when closed) and returns it, positioned at its start; at most `limit`
/// bytes.
pub(crate) fn spool(prefix: &[u8], from: &mut dyn Read, limit: u64) -> Result<File, SpoolError> {
    if prefix.len() as u64 > limit {
        return Err(SpoolError::TooLarge);
    }
    let mut file = tempfile::tempfile().map_err(SpoolError::Io)?;
    let mut out = io::BufWriter::with_capacity(256 * 1024, &mut file);
    out.write_all(prefix).map_err(SpoolError::Io)?;
    let room = limit.saturating_sub(prefix.len() as u64);
    // One byte over the limit tells a stream that is too long.
    let copied =
        io::copy(&mut from.take(room.saturating_add(1)), &mut out).map_err(SpoolError::Io)?;
    if copied > room {
        return Err(SpoolError::TooLarge);
    }
    out.flush().map_err(SpoolError::Io)?;
    drop(out);
    file.seek(SeekFrom::Start(0)).map_err(SpoolError::Io)?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::{decoder, spool, SpoolError, Watched};
    use crate::input::Content;
    use std::cell::Cell;
    use std::io::{self, Read};

    #[test]
    fn corrupt_gzip_errors_say_gzip() {
        let raw: Box<dyn Read> = Box::new(&b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03(;GM[1])"[..]);
        let mut out = Vec::new();
        let err = decoder(Content::Gzip, raw)
            .read_to_end(&mut out)
            .unwrap_err();
        assert!(err.to_string().starts_with("gzip data: "), "{err}");
    }

    #[test]
    fn errors_of_reading_pass_through_a_decoder_untagged() {
        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::new(io::ErrorKind::PermissionDenied, "denied"))
            }
        }
        let err = decoder(Content::Zstd, Box::new(Broken))
            .read(&mut [0; 8])
            .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::PermissionDenied);
        assert_eq!(err.to_string(), "denied");
        // Bad data is the decoder's own error, whatever its kind.
        let raw: Box<dyn Read> = Box::new(&b"\x28\xb5\x2f\xfd\x24\x00(;GM[1];B[aa])"[..]);
        let err = decoder(Content::Zstd, raw)
            .read_to_end(&mut Vec::new())
            .unwrap_err();
        assert!(err.to_string().starts_with("zstd data: "), "{err}");
    }

    #[test]
    fn a_watched_reader_notes_a_failure() {
        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("broken"))
            }
        }
        let failed = Cell::new(false);
        let mut watched = Watched {
            inner: Broken,
            failed: &failed,
        };
        assert!(watched.read(&mut [0; 4]).is_err());
        assert!(failed.get());
    }

    #[test]
    fn spooling_stops_over_the_limit() {
        let mut rest = &b"0123456789"[..];
        assert!(matches!(
            spool(b"ab", &mut rest, 11),
            Err(SpoolError::TooLarge)
        ));
        let mut rest = &b"0123456789"[..];
        let mut file = spool(b"ab", &mut rest, 12).ok().unwrap();
        let mut all = String::new();
        file.read_to_string(&mut all).unwrap();
        assert_eq!(all, "ab0123456789");
    }
}
