//! What a scan left out, and why: [`Skipped`].

use super::Origin;
use std::fmt;

/// How many of what is not a regular file [`Skipped`] lists by origin;
/// further ones are only counted.
pub const LISTED_MAX: usize = 10_000;

/// Why something found in a folder or an archive was left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum SkipReason {
    /// Neither its name (`.sgf`, `.sgfs`, perhaps compressed) nor its first
    /// bytes (`(` then `;`) say SGF, and it is no archive or compressed
    /// data either.
    NotSgf,
    /// It has another name than `.sgf`/`.sgfs` and could not be opened or
    /// read to look at its first bytes.
    Unreadable,
    /// It is not a regular file: a FIFO, a socket, a device, a link that
    /// leads nowhere or in a loop, a link inside an archive
    /// ([`Special`] says which). Reading a FIFO would wait for ever and a
    /// device may never end.
    NotRegular,
    /// Its name ends with
    /// [`TEMP_SUFFIX`](crate::atomic::TEMP_SUFFIX): the temporary file of
    /// an in-place rewrite that is running or was killed
    /// ([`crate::atomic`]), whose games are those of another file (or half
    /// of them).
    Temporary,
}

impl SkipReason {
    /// Every reason, in the order of [`Skipped::counts`].
    pub const ALL: [SkipReason; 4] = [
        SkipReason::NotSgf,
        SkipReason::Unreadable,
        SkipReason::NotRegular,
        SkipReason::Temporary,
    ];

    /// A stable `snake_case` code: `not_sgf`, `unreadable`,
    /// `not_regular_file`, `temporary_file`.
    pub fn code(self) -> &'static str {
        match self {
            SkipReason::NotSgf => "not_sgf",
            SkipReason::Unreadable => "unreadable",
            SkipReason::NotRegular => "not_regular_file",
            SkipReason::Temporary => "temporary_file",
        }
    }

    /// In a few words, plural: `not SGF`, `unreadable`, `not regular
    /// files`, `temporary files of unfinished rewrites`.
    pub fn description(self) -> &'static str {
        match self {
            SkipReason::NotSgf => "not SGF",
            SkipReason::Unreadable => "unreadable",
            SkipReason::NotRegular => "not regular files",
            SkipReason::Temporary => "temporary files of unfinished rewrites",
        }
    }

    fn index(self) -> usize {
        match self {
            SkipReason::NotSgf => 0,
            SkipReason::Unreadable => 1,
            SkipReason::NotRegular => 2,
            SkipReason::Temporary => 3,
        }
    }
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

/// What a thing that is not a regular file is, for
/// [`SkipReason::NotRegular`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Special {
    /// A named pipe.
    Fifo,
    /// A Unix socket.
    Socket,
    /// A character device (`/dev/zero`).
    CharDevice,
    /// A block device.
    BlockDevice,
    /// A symbolic link to nothing.
    BrokenSymlink,
    /// A symbolic link that leads back to itself.
    SymlinkLoop,
    /// A symbolic link that cannot be followed (no access, say).
    UnresolvableSymlink,
    /// A symbolic link stored in an archive (not followed).
    ArchiveSymlink,
    /// A hard link stored in an archive (its data is another member's).
    ArchiveHardLink,
    /// Anything else: a device or pipe stored in an archive, an unknown
    /// file type.
    Other,
    /// A regular file, but the temporary file of an in-place rewrite
    /// ([`SkipReason::Temporary`]).
    Temporary,
}

impl Special {
    /// What it is: `fifo`, `socket`, `character device`, `block device`,
    /// `broken symlink`, `symlink loop`, `unresolvable symlink`, `symlink
    /// in archive`, `hard link in archive`, `not a regular file`,
    /// `temporary file of an unfinished rewrite`.
    pub fn description(self) -> &'static str {
        match self {
            Special::Fifo => "fifo",
            Special::Socket => "socket",
            Special::CharDevice => "character device",
            Special::BlockDevice => "block device",
            Special::BrokenSymlink => "broken symlink",
            Special::SymlinkLoop => "symlink loop",
            Special::UnresolvableSymlink => "unresolvable symlink",
            Special::ArchiveSymlink => "symlink in archive",
            Special::ArchiveHardLink => "hard link in archive",
            Special::Other => "not a regular file",
            Special::Temporary => "temporary file of an unfinished rewrite",
        }
    }
}

impl fmt::Display for Special {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

/// One thing that is not a regular file (or is a rewrite's temporary
/// file), left out.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SkippedItem {
    /// Where it is.
    pub origin: Origin,
    /// What it is.
    pub kind: Special,
}

/// What a scan left out: counts by [`SkipReason`], and the things that are
/// not regular files or are temporary files by origin (the first
/// [`LISTED_MAX`] of them, sorted).
///
/// ```
/// use sgf_grove::input::{Origin, SkipReason, Skipped, Special};
/// let mut skipped = Skipped::default();
/// skipped.not_sgf(&Origin::path("notes.txt"));
/// skipped.not_regular(&Origin::path("live.sgf"), Special::Fifo);
/// assert_eq!(skipped.count(SkipReason::NotSgf), 1);
/// assert_eq!(skipped.total(), 2);
/// assert_eq!(skipped.listed()[0].kind.description(), "fifo");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Skipped {
    counts: [u64; 4],
    listed: Vec<SkippedItem>,
}

impl Skipped {
    /// Counts something that is not SGF.
    pub fn not_sgf(&mut self, _origin: &Origin) {
        self.counts[SkipReason::NotSgf.index()] += 1;
    }

    /// Counts something that could not be read to be sniffed.
    pub fn unreadable(&mut self, _origin: &Origin) {
        self.counts[SkipReason::Unreadable.index()] += 1;
    }

    /// Counts and lists something that is not a regular file.
    pub fn not_regular(&mut self, origin: &Origin, kind: Special) {
        self.counts[SkipReason::NotRegular.index()] += 1;
        if self.listed.len() < LISTED_MAX {
            self.listed.push(SkippedItem {
                origin: origin.clone(),
                kind,
            });
        }
    }

    /// Counts and lists the temporary file of an in-place rewrite
    /// ([`SkipReason::Temporary`]).
    pub fn temporary(&mut self, origin: &Origin) {
        self.counts[SkipReason::Temporary.index()] += 1;
        if self.listed.len() < LISTED_MAX {
            self.listed.push(SkippedItem {
                origin: origin.clone(),
                kind: Special::Temporary,
            });
        }
    }

    /// How many were left out for `reason`.
    pub fn count(&self, reason: SkipReason) -> u64 {
        self.counts[reason.index()]
    }

    /// Each reason with its count, zeros included, in the order of
    /// [`SkipReason::ALL`].
    pub fn counts(&self) -> impl Iterator<Item = (SkipReason, u64)> + '_ {
        SkipReason::ALL.into_iter().map(|r| (r, self.count(r)))
    }

    /// How many were left out in all.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Whether nothing was left out.
    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    /// The things that are not regular files and the temporary files,
    /// sorted by origin (at most [`LISTED_MAX`]; [`Skipped::count`] of
    /// [`SkipReason::NotRegular`] and [`SkipReason::Temporary`] counts
    /// them all).
    pub fn listed(&self) -> &[SkippedItem] {
        &self.listed
    }

    /// Adds the counts and list of `other` (a scan of other inputs, say on
    /// another thread).
    pub fn merge(&mut self, other: Skipped) {
        for (mine, theirs) in self.counts.iter_mut().zip(other.counts) {
            *mine += theirs;
        }
        let room = LISTED_MAX - self.listed.len();
        self.listed.extend(other.listed.into_iter().take(room));
        self.sort();
    }

    /// Sorts the list by origin, dropping repeats (an input named twice).
    pub(crate) fn sort(&mut self) {
        self.listed.sort();
        let counts = &mut self.counts;
        self.listed.dedup_by(|a, b| {
            let repeat = a == b;
            if repeat {
                let reason = match a.kind {
                    Special::Temporary => SkipReason::Temporary,
                    _ => SkipReason::NotRegular,
                };
                counts[reason.index()] -= 1;
            }
            repeat
        });
    }
}

#[cfg(test)]
mod tests {
    use super::{SkipReason, Skipped, Special, LISTED_MAX};
    use crate::input::Origin;

    #[test]
    fn merged_lists_stay_sorted_and_repeats_count_once() {
        let mut a = Skipped::default();
        a.not_regular(&Origin::path("b.sgf"), Special::Fifo);
        a.not_sgf(&Origin::path("x"));
        let mut b = Skipped::default();
        b.not_regular(&Origin::path("a.sgf"), Special::Socket);
        b.not_regular(&Origin::path("b.sgf"), Special::Fifo);
        b.unreadable(&Origin::path("y"));
        a.merge(b);
        let names: Vec<String> = a.listed().iter().map(|i| i.origin.to_string()).collect();
        assert_eq!(names, ["a.sgf", "b.sgf"]);
        assert_eq!(a.count(SkipReason::NotRegular), 2);
        assert_eq!(a.total(), 4);
        let codes: Vec<_> = a.counts().map(|(r, n)| (r.code(), n)).collect();
        assert_eq!(
            codes,
            [
                ("not_sgf", 1),
                ("unreadable", 1),
                ("not_regular_file", 2),
                ("temporary_file", 0)
            ]
        );
    }

    #[test]
    fn temporary_files_are_listed_and_repeats_count_once() {
        let mut a = Skipped::default();
        a.temporary(&Origin::path(".a.sgf.1-0.sgf-grove-tmp"));
        let mut b = Skipped::default();
        b.temporary(&Origin::path(".a.sgf.1-0.sgf-grove-tmp"));
        b.not_regular(&Origin::path("f"), Special::Fifo);
        a.merge(b);
        assert_eq!(a.count(SkipReason::Temporary), 1);
        assert_eq!(a.count(SkipReason::NotRegular), 1);
        assert_eq!(a.listed()[0].kind, Special::Temporary);
    }

    #[test]
    fn the_list_is_capped_but_every_one_counted() {
        let mut s = Skipped::default();
        for i in 0..LISTED_MAX + 5 {
            s.not_regular(&Origin::path(format!("{i:06}")), Special::Other);
        }
        assert_eq!(s.listed().len(), LISTED_MAX);
        assert_eq!(s.count(SkipReason::NotRegular), (LISTED_MAX + 5) as u64);
    }
}
