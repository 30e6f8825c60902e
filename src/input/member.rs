//! One SGF member found by a scan: [`Member`], and the rules that say what
//! is SGF by name or by content.

use super::{Content, Origin};
use std::fmt;
use std::io::Read;
use std::path::Path;

/// How a member's bytes are laid out, by its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MemberKind {
    /// An SGF file or collection: one stream of games (`.sgf`, or any
    /// other name whose first bytes are SGF, or a file named on the command
    /// line, or standard input). Also a record of another server's format
    /// (`.gib`, `.ngf`, `.ugf`, `.ugi`, or such content), which the stream
    /// parser converts to SGF ([`foreign`](crate::foreign)).
    Sgf,
    /// One game per line (`.sgfs`, as KataGo writes them): each line that
    /// is not blank is parsed on its own, so that a bad line costs only
    /// itself ([`SgfsLines`](super::SgfsLines)). Read as one stream, a line
    /// cut inside a value would swallow the lines after it.
    Sgfs,
}

/// An SGF member: its [`Origin`], what it is, and its bytes as a stream
/// (decompressed when it was compressed). Handed out by
/// [`Inputs::scan`](super::Inputs::scan); it borrows the archive or
/// decompressor it is read from, so it lives for one call of the visitor.
///
/// A member is SGF by its name (`.sgf` or `.sgfs` in any letter case,
/// perhaps followed by a compression suffix: `a.SGF.gz`), by being named
/// explicitly (a path given to [`Inputs::new`](super::Inputs::new), or
/// standard input), or by its first bytes ([`looks_like_sgf`]). Its
/// content may still turn out not to be text ([`Member::content`] says what
/// its first bytes are): a reader should refuse binary data by name rather
/// than parse it.
pub struct Member<'a> {
    pub(crate) origin: &'a Origin,
    pub(crate) kind: MemberKind,
    pub(crate) content: Content,
    pub(crate) compression: Vec<Content>,
    pub(crate) plain_path: Option<&'a Path>,
    pub(crate) reader: Box<dyn Read + 'a>,
    /// The budget of the input it comes from.
    pub(crate) budget: Option<&'a super::budget::Budget>,
}

impl<'a> Member<'a> {
    /// Where it comes from.
    pub fn origin(&self) -> &'a Origin {
        self.origin
    }

    /// One stream of games, or one game per line.
    pub fn kind(&self) -> MemberKind {
        self.kind
    }

    /// What its first bytes (after decompression) are: [`Content::Text`]
    /// for SGF text; UTF-16 text, binary data or an executable otherwise.
    pub fn content(&self) -> Content {
        self.content
    }

    /// The compressions removed to read it, outermost first (`a.sgf.gz`:
    /// gzip; a member of a `.tar.xz`: xz, then none of its own).
    pub fn compression(&self) -> &[Content] {
        &self.compression
    }

    /// The game budget of the input it comes from
    /// ([`Inputs::max_input_games`](super::Inputs::max_input_games)), for a
    /// consumer that parses the member itself ([`Inputs::scan_games`](super::Inputs::scan_games)
    /// counts its games already). Its bytes count as they are read.
    pub fn game_budget(&self) -> super::GameBudget<'a> {
        super::GameBudget(self.budget)
    }

    /// The path of the file when the member is a file read as it is (not
    /// compressed, not in an archive): it can be opened again, to read
    /// bytes at an offset or on another thread.
    pub fn plain_path(&self) -> Option<&'a Path> {
        self.plain_path
    }

    /// The member's bytes, from the start.
    pub fn reader(&mut self) -> &mut (dyn Read + 'a) {
        &mut *self.reader
    }

    /// The member's bytes, from the start, as an owned stream (still
    /// borrowing the archive).
    pub fn into_reader(self) -> Box<dyn Read + 'a> {
        self.reader
    }
}

impl fmt::Debug for Member<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Member")
            .field("origin", &self.origin)
            .field("kind", &self.kind)
            .field("content", &self.content)
            .field("compression", &self.compression)
            .field("plain_path", &self.plain_path)
            .finish_non_exhaustive()
    }
}

/// The kind of member a name says, ignoring letter case: `.sgf` or
/// `.sgfs`, or the record formats read as SGF (`.gib`, `.ngf`, `.ugf`,
/// `.ugi`: [`Foreign::by_name`](super::Foreign::by_name)); `None` for any
/// other name. Compression suffixes are removed first
/// ([`strip_compression`]).
///
/// ```
/// use sgf_grove::input::{sgf_name_kind, MemberKind};
/// assert_eq!(sgf_name_kind(b"dir/Game.SGF"), Some(MemberKind::Sgf));
/// assert_eq!(sgf_name_kind(b"tygem/game.gib.gz"), Some(MemberKind::Sgf));
/// assert_eq!(sgf_name_kind(b"selfplay.sgfs.gz"), Some(MemberKind::Sgfs));
/// assert_eq!(sgf_name_kind(b"notes.txt"), None);
/// assert_eq!(sgf_name_kind(b".sgf"), Some(MemberKind::Sgf));
/// ```
pub fn sgf_name_kind(name: &[u8]) -> Option<MemberKind> {
    let name = strip_compression(name);
    if ends_with_ignore_case(name, b".sgf") {
        Some(MemberKind::Sgf)
    } else if ends_with_ignore_case(name, b".sgfs") {
        Some(MemberKind::Sgfs)
    } else if super::Foreign::by_name(name).is_some() {
        Some(MemberKind::Sgf)
    } else {
        None
    }
}

/// `name` without its compression suffixes (`.gz`, `.bz2`, `.xz`, `.zst`,
/// `.zstd`, any letter case): `a.sgf.gz` → `a.sgf`. The short tar forms
/// (`.tgz`, `.tbz2`, `.txz`, `.tzst`) lose theirs too; a tar is found by
/// its content anyway.
///
/// ```
/// use sgf_grove::input::strip_compression;
/// assert_eq!(strip_compression(b"a.sgf.GZ"), b"a.sgf");
/// assert_eq!(strip_compression(b"a.sgf.xz.zst"), b"a.sgf");
/// assert_eq!(strip_compression(b"a.sgf"), b"a.sgf");
/// ```
pub fn strip_compression(mut name: &[u8]) -> &[u8] {
    const SUFFIXES: [&[u8]; 9] = [
        b".gz", b".bz2", b".xz", b".zst", b".zstd", b".tgz", b".tbz2", b".txz", b".tzst",
    ];
    while let Some(suffix) = SUFFIXES
        .iter()
        .find(|s| name.len() > s.len() && ends_with_ignore_case(name, s))
    {
        name = &name[..name.len() - suffix.len()];
    }
    name
}

fn ends_with_ignore_case(name: &[u8], suffix: &[u8]) -> bool {
    name.len() >= suffix.len() && name[name.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
}

/// Whether `start`, the first bytes of an input that [`sniff`](super::sniff)
/// found to be `content`, looks like SGF: an optional byte order mark and
/// whitespace, `(`, more whitespace, then `;`. UTF-16 text is looked at
/// as its characters; a record of another format ([`Content::Foreign`])
/// is taken too. This is how a member whose name says nothing (a
/// `.txt`, no extension) is taken; junk before the first game, which the
/// parser forgives, is not enough.
///
/// ```
/// use sgf_grove::input::{looks_like_sgf, sniff};
/// for text in [&b"(;GM[1])"[..], b"\xef\xbb\xbf\r\n ( ;B[aa])"] {
///     assert!(looks_like_sgf(text, sniff(text)));
/// }
/// for text in [&b"# notes"[..], b"(B[aa])", b"", b"see (;GM[1])"] {
///     assert!(!looks_like_sgf(text, sniff(text)));
/// }
/// ```
pub fn looks_like_sgf(start: &[u8], content: Content) -> bool {
    match content {
        Content::Text => {
            let body = start.strip_prefix(b"\xef\xbb\xbf").unwrap_or(start);
            starts_a_game(body.iter().map(|&b| u32::from(b)))
        }
        Content::Utf16Le { .. } | Content::Utf16Be { .. } => {
            let big = matches!(content, Content::Utf16Be { .. });
            let units = start.chunks_exact(2).map(|pair| {
                let unit = if big {
                    u16::from_be_bytes([pair[0], pair[1]])
                } else {
                    u16::from_le_bytes([pair[0], pair[1]])
                };
                u32::from(unit)
            });
            starts_a_game(units.skip_while(|&u| u == 0xFEFF))
        }
        // A record the stream parser converts.
        Content::Foreign(_) => true,
        _ => false,
    }
}

/// Whitespace, `(`, whitespace, `;`.
fn starts_a_game(mut chars: impl Iterator<Item = u32>) -> bool {
    let is_space = |c: u32| matches!(c, 0x20 | 0x09 | 0x0A | 0x0B | 0x0C | 0x0D);
    let mut next = || chars.by_ref().find(|&c| !is_space(c));
    next() == Some(u32::from(b'(')) && next() == Some(u32::from(b';'))
}

#[cfg(test)]
mod tests {
    use super::{looks_like_sgf, sgf_name_kind, strip_compression, MemberKind};
    use crate::input::{sniff, Content};

    #[test]
    fn names() {
        assert_eq!(sgf_name_kind(b"a.Sgf"), Some(MemberKind::Sgf));
        assert_eq!(sgf_name_kind(b"a.SGFS"), Some(MemberKind::Sgfs));
        assert_eq!(sgf_name_kind(b"a.sgf.bz2"), Some(MemberKind::Sgf));
        assert_eq!(sgf_name_kind(b"a.sgf.tar"), None);
        assert_eq!(sgf_name_kind(b"sgf"), None);
        assert_eq!(sgf_name_kind(b"a.sgfx"), None);
        // A name that is only a suffix is kept.
        assert_eq!(strip_compression(b".gz"), b".gz");
        assert_eq!(strip_compression(b"games.tgz"), b"games");
    }

    #[test]
    fn utf16_by_its_characters() {
        for big in [false, true] {
            let text: Vec<u8> = "\u{feff} (;GM[1])"
                .encode_utf16()
                .flat_map(|u| {
                    if big {
                        u.to_be_bytes()
                    } else {
                        u.to_le_bytes()
                    }
                })
                .collect();
            let content = sniff(&text);
            assert!(content.is_utf16());
            assert!(looks_like_sgf(&text, content));
        }
        assert!(!looks_like_sgf(b"(;", Content::Gzip));
    }
}
