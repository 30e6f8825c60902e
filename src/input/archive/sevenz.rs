//! 7z archives, from a file.

use crate::input::decode::{tagged, Below, Watched};
use crate::input::scan::{archive_error, file_name, Hint, Scan, Src};
use crate::input::{Content, InputError, InputErrorKind, Origin};
use sevenz_rust2::{ArchiveReader, Error as SevenZError, Password};
use std::cell::Cell;
use std::fs::File;
use std::io::{self, BufReader};

impl<E> Scan<'_, '_, E> {
    /// Goes through the 7z archive in `file` at `origin`, whose members are
    /// `depth` layers deep, one block at a time on one thread. The archive's
    /// header (the list of members) is held in memory; so is the
    /// dictionary of the block being decoded (the compressor chose its size:
    /// 16 MiB for 7-Zip's default, 64 MiB for `-mx9`, more when asked),
    /// never a whole block or member. The members of a solid block are
    /// decoded in order, so a read error in one stops the archive.
    pub(crate) fn sevenz(&mut self, origin: &mut Origin, file: File, depth: u32) -> Result<(), E> {
        let mut archive = match ArchiveReader::new(Below(BufReader::new(file)), Password::empty()) {
            Ok(archive) => archive,
            Err(err) => return self.report(sevenz_error(origin, err)),
        };
        archive.set_thread_count(1);
        let failed = Cell::new(false);
        let mut outcome: Result<(), E> = Ok(());
        let result = archive.for_each_entries(|entry, data| {
            if entry.is_directory() {
                return Ok(true);
            }
            if self.cancelled() {
                return Ok(false);
            }
            let name = entry.name().as_bytes().to_vec();
            origin.push_member(name.clone());
            let hint = Hint {
                name: file_name(&name),
                explicit: false,
            };
            let reader = Watched {
                inner: &mut *data,
                failed: &failed,
            };
            let reader = tagged(Content::SevenZip, reader);
            let visited = self.stream(origin, Src::Stream(reader), hint, depth, None);
            if let Err(e) = visited {
                outcome = Err(e);
                origin.pop_member();
                return Ok(false);
            }
            if failed.get() {
                origin.pop_member();
                return Ok(false);
            }
            // The next member of a solid block starts where this one ends.
            let drained = io::copy(data, &mut io::sink());
            if let Err(err) = drained {
                let err = InputError::io(origin.clone(), err);
                if let Err(e) = self.report(err) {
                    outcome = Err(e);
                }
                origin.pop_member();
                return Ok(false);
            }
            origin.pop_member();
            Ok(true)
        });
        outcome?;
        match result {
            Ok(()) => Ok(()),
            Err(err) => self.report(sevenz_error(origin, err)),
        }
    }
}

/// A 7z error at `origin`.
fn sevenz_error(origin: &Origin, err: SevenZError) -> InputError {
    let err = match err {
        SevenZError::Io(io, context) if context.is_empty() => {
            return archive_error(origin, Content::SevenZip, io)
        }
        SevenZError::FileOpen(io, _) => return InputError::io(origin.clone(), io),
        other => other,
    };
    let kind = match &err {
        SevenZError::UnsupportedVersion { .. }
        | SevenZError::ExternalUnsupported
        | SevenZError::UnsupportedCompressionMethod(_)
        | SevenZError::MaxMemLimited { .. }
        | SevenZError::PasswordRequired
        | SevenZError::Unsupported(_)
        | SevenZError::MaybeBadPassword(_) => InputErrorKind::Unsupported(Content::SevenZip),
        _ => InputErrorKind::Corrupt(Content::SevenZip),
    };
    // The crate's `Display` is its `Debug`: say it in words where it can.
    let detail = match &err {
        SevenZError::Io(io, context) if context.is_empty() => io.to_string(),
        SevenZError::Io(io, context) => format!("{context}: {io}"),
        SevenZError::MaybeBadPassword(_) | SevenZError::PasswordRequired => {
            "encrypted (no password is tried)".to_owned()
        }
        SevenZError::ChecksumVerificationFailed => "checksum mismatch".to_owned(),
        SevenZError::BadSignature(_) => "bad signature".to_owned(),
        SevenZError::UnsupportedCompressionMethod(method) => {
            format!("compression method {method} not supported")
        }
        SevenZError::Unsupported(what) | SevenZError::Other(what) => what.to_string(),
        other => format!("{other:?}"),
    };
    InputError::with_source(origin.clone(), kind, SevenZWords { detail, err })
}

/// A 7z error with a message in words.
#[derive(Debug)]
struct SevenZWords {
    detail: String,
    err: SevenZError,
}

impl std::fmt::Display for SevenZWords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.detail)
    }
}

impl std::error::Error for SevenZWords {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.err)
    }
}
