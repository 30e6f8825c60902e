//! One source, layer by layer: what its first bytes are decides whether
//! it is decompressed, unpacked as an archive, handed out as a member or
//! skipped. Archives are in `archive/`.

use super::budget::{Budget, Metered};
use super::decode::{self, SpoolError};
use super::member::{looks_like_sgf, sgf_name_kind, strip_compression};
use super::{sniff, Content, InputError, InputErrorKind, Member, MemberKind, Origin, Skipped};
use std::fs::File;
use std::io::{self, Cursor, Read, Seek, SeekFrom};
use std::path::Path;

/// The visitor of [`Inputs::scan`](super::Inputs::scan), as the scan holds
/// it.
pub(crate) type Visit<'v, E> = dyn FnMut(Result<Member<'_>, InputError>) -> Result<(), E> + 'v;

/// The state of a scan of one source.
pub(crate) struct Scan<'s, 'v, E> {
    pub(crate) max_depth: u32,
    pub(crate) max_spool: u64,
    pub(crate) by_content: bool,
    pub(crate) skipped: &'s mut Skipped,
    pub(crate) visit: &'s mut Visit<'v, E>,
    /// How many members and errors were handed to the visitor.
    pub(crate) reported: u64,
    /// The compressions removed on the way to the current stream.
    pub(crate) compression: Vec<Content>,
    /// This shard's share of the members, `k` of every `n`
    /// ([`Inputs::member_shard`](super::Inputs::member_shard)).
    pub(crate) members: Option<(u64, u64)>,
    /// How many members and errors the source gave so far, this shard's
    /// or not.
    pub(crate) turn: u64,
    /// The flag that stops the scan
    /// ([`Inputs::cancel_flag`](super::Inputs::cancel_flag)).
    pub(crate) cancel: Option<&'s std::sync::atomic::AtomicBool>,
    /// What the source may still expand to
    /// ([`Inputs::max_input_bytes`](super::Inputs::max_input_bytes)).
    pub(crate) budget: &'s Budget,
}

/// A stream to look at.
pub(crate) enum Src<'a> {
    /// A regular file, which zip and 7z can read in place.
    File(File),
    /// Anything else: a pipe, a decompressor, an archive member.
    Stream(Box<dyn Read + 'a>),
    /// A regular file read whole already (a small file of a folder): its
    /// bytes, and the file, open, for the formats that seek.
    Whole(&'a [u8], File),
}

/// What the name of a stream says, and how it was found.
#[derive(Clone, Copy)]
pub(crate) struct Hint<'n> {
    /// The file name (the last part of a path or member name), compression
    /// suffixes removed as the stream is decompressed.
    pub(crate) name: &'n [u8],
    /// Named by the caller (a path given, standard input): a member
    /// whatever its name and content.
    pub(crate) explicit: bool,
}

impl<'s, 'v, E> Scan<'s, 'v, E> {
    /// Hands `err` to the visitor.
    pub(crate) fn report(&mut self, err: InputError) -> Result<(), E> {
        self.reported += 1;
        if !self.my_turn() {
            return Ok(());
        }
        (self.visit)(Err(err))
    }

    /// Whether the next member or error is this shard's (and counts it).
    fn my_turn(&mut self) -> bool {
        let turn = self.turn;
        self.turn += 1;
        self.members.is_none_or(|(k, n)| turn % n == k)
    }

    /// Whether the scan was asked to stop, or the source went over its
    /// budget (the member that went over reported it): nothing more of
    /// the source is read.
    pub(crate) fn cancelled(&self) -> bool {
        self.budget.is_over()
            || self
                .cancel
                .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// Looks at `src`, `depth` layers deep (archives and compressions
    /// around it), named by `hint`, at `origin`; `plain` is its path when
    /// it is a file read as it is.
    pub(crate) fn stream(
        &mut self,
        origin: &mut Origin,
        mut src: Src<'_>,
        hint: Hint<'_>,
        depth: u32,
        plain: Option<&Path>,
    ) -> Result<(), E> {
        if self.cancelled() {
            return Ok(());
        }
        let mut prefix = Vec::with_capacity(super::SNIFF_LEN);
        let read = match &mut src {
            Src::File(file) => decode::read_prefix(file, &mut prefix),
            Src::Stream(reader) => decode::read_prefix(reader, &mut prefix),
            Src::Whole(bytes, _) => {
                prefix.extend_from_slice(&bytes[..bytes.len().min(super::SNIFF_LEN)]);
                Ok(())
            }
        };
        if let Err(err) = read {
            if !prefix.is_empty() {
                // Broken after a few bytes: they are looked at and read,
                // then the error comes (a member cut short keeps the games
                // it holds).
                src = Src::Stream(Box::new(Broken(Some(err))));
            } else if depth == 0 && !hint.explicit && sgf_name_kind(hint.name).is_none() {
                // A file found in a folder, of no SGF name: what it is
                // cannot be told.
                self.skipped.unreadable(origin);
                return Ok(());
            } else {
                return self.report(InputError::io(origin.clone(), err));
            }
        }
        let content = sniff(&prefix);
        let layered = content.is_compressed() || content.is_archive();
        if layered && depth >= self.max_depth {
            let detail = format!("{content} more than {} levels deep", self.max_depth);
            return self.report(InputError::new(
                origin.clone(),
                InputErrorKind::TooDeep,
                Some(detail),
            ));
        }
        match content {
            Content::Gzip | Content::Bzip2 | Content::Xz | Content::Zstd => {
                let raw = src.into_stream(prefix);
                let inner = Hint {
                    name: strip_compression(hint.name),
                    ..hint
                };
                self.compression.push(content);
                let result = self.stream(
                    origin,
                    Src::Stream(decode::decoder(content, raw)),
                    inner,
                    depth + 1,
                    None,
                );
                self.compression.pop();
                result
            }
            Content::Tar => self.tar(origin, src.into_stream(prefix), depth + 1),
            Content::Zip | Content::SevenZip => {
                let file = match self.seekable(origin, src, prefix, content) {
                    Ok(Some(file)) => file,
                    Ok(None) => return Ok(()),
                    Err(e) => return Err(e),
                };
                if content == Content::Zip {
                    self.zip(origin, file, depth + 1)
                } else {
                    self.sevenz(origin, file, depth + 1)
                }
            }
            _ => self.leaf(origin, src, prefix, content, hint, plain),
        }
    }

    /// A stream that is no archive or compressed data: a member, or
    /// skipped.
    fn leaf(
        &mut self,
        origin: &mut Origin,
        src: Src<'_>,
        prefix: Vec<u8>,
        content: Content,
        hint: Hint<'_>,
        plain: Option<&Path>,
    ) -> Result<(), E> {
        let kind = match sgf_name_kind(hint.name) {
            Some(kind) => kind,
            None if hint.explicit => MemberKind::Sgf,
            None if self.by_content && looks_like_sgf(&prefix, content) => MemberKind::Sgf,
            None => {
                self.skipped.not_sgf(origin);
                return Ok(());
            }
        };
        if !self.my_turn() {
            // Another shard's member: counted as handed over, not read.
            self.reported += 1;
            return Ok(());
        }
        let member = Member {
            origin,
            kind,
            content,
            compression: self.compression.clone(),
            plain_path: plain,
            reader: Box::new(Metered {
                inner: src.into_stream(prefix),
                budget: self.budget,
            }),
            budget: Some(self.budget),
        };
        self.reported += 1;
        (self.visit)(Ok(member))
    }

    /// The stream as a file that can seek: the file itself, or a copy in
    /// a temporary file. `None` when that failed (and was reported).
    fn seekable(
        &mut self,
        origin: &Origin,
        src: Src<'_>,
        prefix: Vec<u8>,
        content: Content,
    ) -> Result<Option<File>, E> {
        let copied = match src {
            Src::File(mut file) | Src::Whole(_, mut file) => match file.seek(SeekFrom::Start(0)) {
                Ok(_) => return Ok(Some(file)),
                Err(err) => {
                    return self
                        .report(InputError::io(origin.clone(), err))
                        .map(|()| None)
                }
            },
            // What is copied counts against the budget.
            Src::Stream(reader) => {
                let mut metered = Metered {
                    inner: reader,
                    budget: self.budget,
                };
                decode::spool(&prefix, &mut metered, self.max_spool)
            }
        };
        match copied {
            Ok(file) => Ok(Some(file)),
            Err(SpoolError::Io(err)) => self
                .report(InputError::io(origin.clone(), err))
                .map(|()| None),
            Err(SpoolError::TooLarge) => {
                let detail = format!(
                    "{content} over {} bytes, read from a stream",
                    self.max_spool
                );
                self.report(InputError::new(
                    origin.clone(),
                    InputErrorKind::SpoolTooLarge,
                    Some(detail),
                ))
                .map(|()| None)
            }
        }
    }
}

impl<'a> Src<'a> {
    /// The whole stream again: `prefix`, already read, then the rest.
    fn into_stream(self, prefix: Vec<u8>) -> Box<dyn Read + 'a> {
        match self {
            Src::File(file) => Box::new(Cursor::new(prefix).chain(file)),
            Src::Stream(reader) => Box::new(Cursor::new(prefix).chain(reader)),
            // The prefix is a copy of the first bytes.
            Src::Whole(bytes, _) => Box::new(Cursor::new(bytes)),
        }
    }
}

/// A stream that broke: its error, once, then its end.
pub(super) struct Broken(pub(super) Option<io::Error>);

impl Read for Broken {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        match self.0.take() {
            Some(err) => Err(err),
            None => Ok(0),
        }
    }
}

/// An error of the archive `format` at `origin`: an error of reading
/// below it (or of a decompressor further in) says so, any other is the
/// archive's own.
pub(crate) fn archive_error(origin: &Origin, format: Content, err: io::Error) -> InputError {
    match decode::split(err) {
        Ok(below) => InputError::io(origin.clone(), below),
        Err(own) => InputError::with_source(origin.clone(), InputErrorKind::Corrupt(format), own),
    }
}

/// The last part of an archive member's name: `dir/a.sgf` → `a.sgf`.
pub(crate) fn file_name(name: &[u8]) -> &[u8] {
    let trimmed = name.strip_suffix(b"/").unwrap_or(name);
    match trimmed.iter().rposition(|&b| b == b'/' || b == b'\\') {
        Some(i) => &trimmed[i + 1..],
        None => trimmed,
    }
}

#[cfg(test)]
mod tests {
    use super::file_name;

    #[test]
    fn file_names_of_members() {
        assert_eq!(file_name(b"dir/sub/a.sgf"), b"a.sgf");
        assert_eq!(file_name(b"a.sgf"), b"a.sgf");
        assert_eq!(file_name(b"dir\\a.sgf"), b"a.sgf");
        assert_eq!(file_name(b"dir/"), b"dir");
    }
}
