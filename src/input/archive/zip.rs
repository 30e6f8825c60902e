//! zip archives, from a file.

use crate::input::decode::{tagged, Below};
use crate::input::scan::{archive_error, file_name, Hint, Scan, Src};
use crate::input::{Content, InputError, InputErrorKind, Origin, Special};
use std::fs::File;
use std::io::BufReader;
use zip::result::ZipError;

impl<E> Scan<'_, '_, E> {
    /// Goes through the zip archive in `file` at `origin`, whose members
    /// are `depth` layers deep. The archive's directory is read first (its
    /// size is that of the directory: about 100 bytes a member); each
    /// member is then read on its own, so a bad member costs only itself.
    pub(crate) fn zip(&mut self, origin: &mut Origin, file: File, depth: u32) -> Result<(), E> {
        let mut archive = match zip::ZipArchive::new(Below(BufReader::new(file))) {
            Ok(archive) => archive,
            Err(err) => return self.report(zip_error(origin, err)),
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
