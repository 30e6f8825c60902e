//! zip archives, from a file.

use crate::input::decode::{tagged, Below, Watched};
use crate::input::scan::{archive_error, file_name, Hint, Scan, Src};
use crate::input::{Content, InputError, InputErrorKind, Origin, Special};
use std::cell::Cell;
use std::fs::File;
use std::io::{BufReader, Seek, SeekFrom};
use zip::result::ZipError;

impl<E> Scan<'_, '_, E> {
    /// Goes through the zip archive in `file` at `origin`, whose members
    /// are `depth` layers deep. The archive's directory is read first (its
    /// size is that of the directory: about 100 bytes a member); each
    /// member is then read on its own, so a bad member costs only itself.
    pub(crate) fn zip(&mut self, origin: &mut Origin, file: File, depth: u32) -> Result<(), E> {
        let again = file.try_clone();
        let mut archive = match zip::ZipArchive::new(Below(BufReader::new(file))) {
            Ok(archive) => archive,
            Err(err) => {
                let err = zip_error(origin, err);
                return match again {
                    // No directory (an archive cut short): its members are
                    // read from their own headers, front to back.
                    Ok(file) if err.kind() == InputErrorKind::Corrupt(Content::Zip) => {
                        self.zip_by_headers(origin, file, depth, err)
                    }
                    _ => self.report(err),
                };
            }
        };
        for index in 0..archive.len() {
            if self.cancelled() {
                break;
            }
            let name: Vec<u8> = match archive.name_for_index(index) {
                Some(Ok(name)) => name.into_owned().into_bytes(),
                _ => format!("#{index}").into_bytes(),
            };
            origin.push_member(name.clone());
            let result = match archive.by_index(index) {
                Err(err) => self.report(zip_error(origin, err)),
                Ok(entry) if entry.is_dir() => Ok(()),
                Ok(entry) if entry.is_symlink() => {
                    self.skipped.not_regular(origin, Special::ArchiveSymlink);
                    Ok(())
                }
                Ok(entry) => {
                    let hint = Hint {
                        name: file_name(&name),
                        explicit: false,
                    };
                    let reader = tagged(Content::Zip, entry);
                    self.stream(origin, Src::Stream(reader), hint, depth, None)
                }
            };
            origin.pop_member();
            result?;
        }
        Ok(())
    }
}

impl<E> Scan<'_, '_, E> {
    /// Goes through a zip archive whose directory could not be read
    /// (`cause`), member by member from their local headers, as a stream:
    /// every whole member, and the games of the member cut short, come out
    /// before one error says where the archive ends (the member's own, or
    /// `cause` when it ends between members).
    fn zip_by_headers(
        &mut self,
        origin: &mut Origin,
        mut file: File,
        depth: u32,
        cause: InputError,
    ) -> Result<(), E> {
        if let Err(err) = file.seek(SeekFrom::Start(0)) {
            return self.report(InputError::io(origin.clone(), err));
        }
        let failed = Cell::new(false);
        let mut raw = Below(BufReader::new(file));
        let mut index = 0usize;
        loop {
            if self.cancelled() {
                return Ok(());
            }
            let entry = match zip::read::read_zipfile_from_stream(&mut raw) {
                Ok(Some(entry)) => entry,
                // The directory's start: all members were read.
                Ok(None) => break,
                Err(err) => return self.report(zip_error(origin, err)),
            };
            let name = match entry.name_raw() {
                [] => format!("#{index}").into_bytes(),
                raw => raw.to_vec(),
            };
            index += 1;
            origin.push_member(name.clone());
            let result = if entry.is_dir() {
                Ok(())
            } else if entry.is_symlink() {
                self.skipped.not_regular(origin, Special::ArchiveSymlink);
                Ok(())
            } else {
                let hint = Hint {
                    name: file_name(&name),
                    explicit: false,
                };
                let reader = Watched {
                    inner: entry,
                    failed: &failed,
                };
                let reader = tagged(Content::Zip, reader);
                self.stream(origin, Src::Stream(reader), hint, depth, None)
            };
            origin.pop_member();
            result?;
            if failed.get() {
                // The member cut short said so.
                return Ok(());
            }
        }
        self.report(cause)
    }
}

/// A zip error at `origin`.
fn zip_error(origin: &Origin, err: ZipError) -> InputError {
    let err = match err {
        ZipError::Io(io) => return archive_error(origin, Content::Zip, io),
        other => other,
    };
    let kind = match &err {
        ZipError::UnsupportedArchive(_)
        | ZipError::CompressionMethodNotSupported(_)
        | ZipError::InvalidPassword => InputErrorKind::Unsupported(Content::Zip),
        _ => InputErrorKind::Corrupt(Content::Zip),
    };
    InputError::with_source(origin.clone(), kind, err)
}
