//! 7z archives, from a file.

use crate::input::decode::{tagged, Watched};
use crate::input::scan::{file_name, Hint, Scan, Src};
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
        let mut archive = match ArchiveReader::new(BufReader::new(file), Password::empty()) {
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
    let kind = match &err {
        SevenZError::FileOpen(io, _) => {
            return InputError::io(origin.clone(), io::Error::new(io.kind(), io.to_string()))
        }
        SevenZError::UnsupportedVersion { .. }
        | SevenZError::ExternalUnsupported
        | SevenZError::UnsupportedCompressionMethod(_)
        | SevenZError::MaxMemLimited { .. }
        | SevenZError::PasswordRequired
        | SevenZError::Unsupported(_)
        | SevenZError::MaybeBadPassword(_) => InputErrorKind::Unsupported(Content::SevenZip),
        _ => InputErrorKind::Corrupt(Content::SevenZip),
    };
    InputError::with_source(origin.clone(), kind, err)
}
