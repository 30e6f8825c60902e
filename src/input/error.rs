//! Why an input, or a part of one, could not be read: [`InputError`].

use super::{Content, Origin};
use std::error::Error as StdError;
use std::fmt;
use std::io;

/// An input, archive or member that could not be read, with its
/// [`Origin`]. It stops that input (or archive) only: the scan goes on
/// with the next one.
///
/// Its `Display` is the message alone (`corrupt gzip data: invalid gzip
/// header`); [`InputError::origin`] says where.
///
/// ```
/// use sgf_grove::input::{InputError, InputErrorKind, Origin};
/// let err = InputError::new(Origin::path("games"), InputErrorKind::NoSgfFiles, None);
/// assert_eq!(err.kind().code(), "no_sgf_files");
/// assert_eq!(err.to_string(), "no SGF files in this folder");
/// assert_eq!(err.origin().to_string(), "games");
/// ```
pub struct InputError(Box<Inner>);

struct Inner {
    origin: Origin,
    kind: InputErrorKind,
    detail: Option<String>,
    source: Option<Box<dyn StdError + Send + Sync>>,
}

/// What went wrong, from an [`InputError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputErrorKind {
    /// A file, folder or stream could not be opened or read.
    Io,
    /// Compressed data or an archive is malformed or cut short; the
    /// content says which format.
    Corrupt(Content),
    /// An archive uses what is not supported here: encryption, a
    /// compression method left out.
    Unsupported(Content),
    /// Archives or compressed streams nested deeper than the limit
    /// ([`Inputs::max_depth`](super::Inputs::max_depth)).
    TooDeep,
    /// A zip or 7z archive that had to be copied to a temporary file first
    /// (read from standard input or from inside another archive or
    /// compressed stream) is larger than the limit
    /// ([`Inputs::max_spool`](super::Inputs::max_spool)).
    SpoolTooLarge,
    /// A folder named as an input holds no SGF member at all.
    NoSgfFiles,
    /// An input expanded to more bytes or games than its budget
    /// ([`Inputs::max_input_bytes`](super::Inputs::max_input_bytes),
    /// [`Inputs::max_input_games`](super::Inputs::max_input_games)), its
    /// nested archives and compressed members all counted: the member that
    /// went over is cut there and nothing more of the input is read.
    OverBudget,
    /// A member is not SGF text (binary data, an executable): from
    /// [`Inputs::scan_games`](super::Inputs::scan_games).
    NotText(Content),
    /// A member is UTF-16 text that cannot be decoded: from
    /// [`Inputs::scan_games`](super::Inputs::scan_games). (Text that stops
    /// decoding midway is decoded as a stream: the games before come out,
    /// then an [`InputErrorKind::Io`] error names the byte.)
    Utf16(Content),
    /// The parser stopped on a member (in strict mode the first defect; no
    /// game at all; a game too large): the source is the parser's
    /// [`Error`](crate::Error). From
    /// [`Inputs::scan_games`](super::Inputs::scan_games).
    Parse,
}

impl InputErrorKind {
    /// A stable `snake_case` code: `io`, `corrupt_input`,
    /// `unsupported_input`, `nesting_too_deep`, `spool_too_large`,
    /// `no_sgf_files`, `over_budget`, `not_sgf_text`, `invalid_utf16`,
    /// `parse`.
    pub fn code(self) -> &'static str {
        match self {
            InputErrorKind::Io => "io",
            InputErrorKind::Corrupt(_) => "corrupt_input",
            InputErrorKind::Unsupported(_) => "unsupported_input",
            InputErrorKind::TooDeep => "nesting_too_deep",
            InputErrorKind::SpoolTooLarge => "spool_too_large",
            InputErrorKind::NoSgfFiles => "no_sgf_files",
            InputErrorKind::OverBudget => "over_budget",
            InputErrorKind::NotText(_) => "not_sgf_text",
            InputErrorKind::Utf16(_) => "invalid_utf16",
            InputErrorKind::Parse => "parse",
        }
    }
}

impl InputError {
    /// An error of `kind` at `origin`, with a `detail` said after the
    /// kind's own message.
    pub fn new(origin: Origin, kind: InputErrorKind, detail: Option<String>) -> InputError {
        InputError(Box::new(Inner {
            origin,
            kind,
            detail,
            source: None,
        }))
    }

    /// An error of `kind` at `origin` caused by `source`, whose message
    /// becomes the detail.
    pub fn with_source(
        origin: Origin,
        kind: InputErrorKind,
        source: impl Into<Box<dyn StdError + Send + Sync>>,
    ) -> InputError {
        let source = source.into();
        InputError(Box::new(Inner {
            origin,
            kind,
            detail: Some(source.to_string()),
            source: Some(source),
        }))
    }

    /// An I/O error at `origin`; an error that a decompressor or an
    /// archive raised about its data ([`DecodeError`]) becomes
    /// [`InputErrorKind::Corrupt`].
    pub fn io(origin: Origin, err: io::Error) -> InputError {
        if super::budget::OverBudget::of(&err).is_some() {
            return InputError::with_source(origin, InputErrorKind::OverBudget, err);
        }
        let decoded = err
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<DecodeError>())
            .map(|d| (d.format, d.source.to_string()));
        match decoded {
            Some((format, detail)) => InputError(Box::new(Inner {
                origin,
                kind: InputErrorKind::Corrupt(format),
                detail: Some(detail),
                source: Some(Box::new(err)),
            })),
            None => InputError::with_source(origin, InputErrorKind::Io, err),
        }
    }

    /// The parser's error `err` on a member at `origin`: an I/O error that
    /// a decompressor raised about its data becomes
    /// [`InputErrorKind::Corrupt`], another I/O error
    /// [`InputErrorKind::Io`], any other [`InputErrorKind::Parse`]; `err`
    /// stays the [`source`](StdError::source) (and
    /// [`InputError::parse_error`]).
    pub fn parse(origin: Origin, err: crate::Error) -> InputError {
        let mut kind = InputErrorKind::Parse;
        let mut detail = err.to_string();
        if err.kind() == crate::ErrorKind::Io {
            kind = InputErrorKind::Io;
            if let Some(io) = StdError::source(&err).and_then(|s| s.downcast_ref::<io::Error>()) {
                detail = io.to_string();
                if super::budget::OverBudget::of(io).is_some() {
                    kind = InputErrorKind::OverBudget;
                }
                let decoded = io
                    .get_ref()
                    .and_then(|inner| inner.downcast_ref::<DecodeError>());
                if let Some(d) = decoded {
                    kind = InputErrorKind::Corrupt(d.format);
                    detail = d.source.to_string();
                }
            }
        }
        InputError(Box::new(Inner {
            origin,
            kind,
            detail: Some(detail),
            source: Some(Box::new(err)),
        }))
    }

    /// What went wrong.
    pub fn kind(&self) -> InputErrorKind {
        self.0.kind
    }

    /// Where.
    pub fn origin(&self) -> &Origin {
        &self.0.origin
    }

    /// The parser's error, for [`InputErrorKind::Parse`].
    pub fn parse_error(&self) -> Option<&crate::Error> {
        self.0.source.as_ref()?.downcast_ref::<crate::Error>()
    }
}

impl fmt::Debug for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InputError")
            .field("origin", &self.0.origin)
            .field("kind", &self.0.kind)
            .field("detail", &self.0.detail)
            .finish()
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let detail = self.0.detail.as_deref();
        match self.0.kind {
            InputErrorKind::Io => return f.write_str(detail.unwrap_or("I/O error")),
            InputErrorKind::Corrupt(content) => write!(f, "corrupt {content}")?,
            InputErrorKind::Unsupported(content) => write!(f, "unsupported {content}")?,
            InputErrorKind::TooDeep => f.write_str("archives nested too deeply")?,
            InputErrorKind::OverBudget => return f.write_str(detail.unwrap_or("over budget")),
            InputErrorKind::SpoolTooLarge => {
                f.write_str("archive too large to copy to a temporary file")?
            }
            InputErrorKind::NoSgfFiles => {
                f.write_str("no SGF files in this folder")?;
                return match detail {
                    Some(detail) => write!(f, " ({detail})"),
                    None => Ok(()),
                };
            }
            InputErrorKind::NotText(content) => write!(f, "{content}; not SGF text")?,
            InputErrorKind::Utf16(content) => write!(f, "{content} that cannot be decoded")?,
            InputErrorKind::Parse => return f.write_str(detail.unwrap_or("parse error")),
        }
        match detail {
            Some(detail) => write!(f, ": {detail}"),
            None => Ok(()),
        }
    }
}

impl StdError for InputError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        self.0
            .source
            .as_deref()
            .map(|s| s as &(dyn StdError + 'static))
    }
}

/// An error that a decompressor or an archive reader raised itself (the
/// data is malformed or cut short), tagged with the format: the payload of
/// the [`io::Error`]s that members' readers return for bad data, so that a
/// message says `corrupt gzip data: …`. Errors of reading the file or
/// stream below pass through untagged.
#[derive(Debug)]
pub struct DecodeError {
    format: Content,
    source: io::Error,
}

impl DecodeError {
    /// `err`, raised by the reader of `format` about its data, as an
    /// [`io::Error`] of the same kind that says so (an error tagged already,
    /// by a reader further in, stays as it is).
    pub fn wrap(format: Content, err: io::Error) -> io::Error {
        if err.get_ref().is_some_and(|inner| inner.is::<DecodeError>()) {
            return err;
        }
        let kind = err.kind();
        io::Error::new(
            kind,
            DecodeError {
                format,
                source: err,
            },
        )
    }

    /// The format being read.
    pub fn format(&self) -> Content {
        self.format
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.format, self.source)
    }
}

impl StdError for DecodeError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        Some(&self.source)
    }
}

#[cfg(test)]
mod tests {
    use super::{DecodeError, InputError, InputErrorKind};
    use crate::input::{Content, Origin};
    use std::io;

    #[test]
    fn a_decoder_error_about_data_is_corruption() {
        let raw = io::Error::new(io::ErrorKind::InvalidInput, "invalid gzip header");
        let wrapped = DecodeError::wrap(Content::Gzip, raw);
        // Wrapping twice keeps the innermost format.
        let wrapped = DecodeError::wrap(Content::Tar, wrapped);
        assert_eq!(wrapped.to_string(), "gzip data: invalid gzip header");
        let err = InputError::io(Origin::path("a.sgf.gz"), wrapped);
        assert_eq!(err.kind(), InputErrorKind::Corrupt(Content::Gzip));
        assert_eq!(err.kind().code(), "corrupt_input");
        assert_eq!(err.to_string(), "corrupt gzip data: invalid gzip header");
    }

    #[test]
    fn a_plain_io_error_keeps_its_message() {
        let raw = io::Error::new(io::ErrorKind::NotFound, "No such file");
        let err = InputError::io(Origin::path("x"), raw);
        assert_eq!(err.kind(), InputErrorKind::Io);
        assert_eq!(err.to_string(), "No such file");
        let odd = io::Error::other("data corruption detected");
        let err = InputError::io(Origin::path("x"), DecodeError::wrap(Content::Zstd, odd));
        assert_eq!(err.kind(), InputErrorKind::Corrupt(Content::Zstd));
        assert_eq!(
            err.to_string(),
            "corrupt zstd data: data corruption detected"
        );
    }
}
