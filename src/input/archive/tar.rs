//! tar archives, as a stream.

use crate::input::decode::{tagged, Below, Watched};
use crate::input::scan::{archive_error, file_name, Hint, Scan, Src};
use crate::input::{Content, Origin, Special};
use std::cell::Cell;
use std::io::Read;

impl<E> Scan<'_, '_, E> {
    /// Goes through the tar archive `reader` at `origin`, whose members are
    /// `depth` layers deep. A read error (the stream below is corrupt or
    /// cut) stops the archive: the member that met it reports it, or the
    /// archive does when it met it between members.
    pub(crate) fn tar(
        &mut self,
        origin: &mut Origin,
        reader: Box<dyn Read + '_>,
        depth: u32,
    ) -> Result<(), E> {
        let failed = Cell::new(false);
        let mut archive = tar::Archive::new(Below(reader));
        let entries = match archive.entries() {
            Ok(entries) => entries,
            Err(err) => return self.report(archive_error(origin, Content::Tar, err)),
        };
        for entry in entries {
            if self.cancelled() {
                break;
            }
            let entry = match entry {
                Ok(entry) => entry,
                Err(err) => return self.report(archive_error(origin, Content::Tar, err)),
            };
            let kind = entry.header().entry_type();
            if kind.is_dir() || kind.is_pax_global_extensions() {
                continue;
            }
            let name = entry.path_bytes().into_owned();
            origin.push_member(name.clone());
            let result = if kind.is_file() || kind.is_contiguous() || kind.is_gnu_sparse() {
                let hint = Hint {
                    name: file_name(&name),
                    explicit: false,
                };
                let reader = Watched {
                    inner: entry,
                    failed: &failed,
                };
                let reader = tagged(Content::Tar, reader);
                self.stream(origin, Src::Stream(reader), hint, depth, None)
            } else {
                let special = if kind.is_symlink() {
                    Special::ArchiveSymlink
                } else if kind.is_hard_link() {
                    Special::ArchiveHardLink
                } else {
                    Special::Other
                };
                self.skipped.not_regular(origin, special);
                Ok(())
            };
            origin.pop_member();
            result?;
            if failed.get() {
                break;
            }
        }
        Ok(())
    }
}
