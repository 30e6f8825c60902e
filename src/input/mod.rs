//! What an input is before it is parsed, and (with the `archives` feature)
//! reading every kind of input as one sequence of SGF members.
//!
//! # Sniffing
//!
//! A folder of game records also holds archives, compressed copies, stray
//! executables and text saved as UTF-16. The parser forgives junk, so such
//! a file may even "parse", as a game full of warnings found in the noise.
//! [`sniff`] looks at the first bytes and says what they are, so that a
//! reader can refuse them by name (`gzip data; not SGF text`) or, for
//! UTF-16, decode them first with [`decode_utf16`]:
//!
//! ```
//! use sgf_grove::input::{self, Content};
//! assert_eq!(input::sniff(b"(;GM[1];B[aa])"), Content::Text);
//! assert_eq!(input::sniff(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03"), Content::Gzip);
//! assert_eq!(Content::Gzip.to_string(), "gzip data");
//!
//! let utf16: Vec<u8> = "(;C[é])".encode_utf16().flat_map(u16::to_le_bytes).collect();
//! let content = input::sniff(&utf16);
//! assert_eq!(content, Content::Utf16Le { bom: false });
//! let text = input::decode_utf16(&utf16, content).expect("well-formed UTF-16");
//! assert_eq!(text, "(;C[é])");
//! ```
//!
//! [`sniff`] reads no file: callers hand in the first bytes they have read
//! (at least [`SNIFF_LEN`] of them when the input is that long).
//!
//! # Inputs, members and origins (feature `archives`)
//!
//! [`Inputs`] turns a list of paths into a sequence of SGF [`Member`]s,
//! each with an [`Origin`] and its bytes as a [`Read`](std::io::Read)
//! stream, never holding an archive or a file whole in memory:
//!
//! | path | read as |
//! |---|---|
//! | a folder | recursively, in sorted order: regular files and links to them; links to folders are not followed |
//! | `-` | standard input, sniffed like a file |
//! | a file named in the paths | a member whatever its name, unless its content is compressed or an archive |
//! | gzip, bzip2, xz, zstd data | decompressed as a stream (concatenated streams too), then looked at again |
//! | a tar archive (plain or compressed) | entry after entry, as a stream |
//! | a zip or 7z archive | from the file in place; from a stream (standard input, inside another archive or a decompressor) after copying it to a temporary file, as both formats need to seek |
//!
//! Formats are told by their first bytes ([`sniff`]), never by their name:
//! a gzip file named `x.sgf` is decompressed. In folders and archives, a
//! file or member is taken when its name is `.sgf` or `.sgfs` in any
//! letter case, perhaps with a compression suffix (`a.SGF.gz`), or when its
//! first bytes are SGF (`(` then `;`, after whitespace and a byte order
//! mark: [`looks_like_sgf`]; [`Inputs::by_content`] turns this off).
//! Archives and compressed files are opened whatever their name. The rest
//! is skipped and counted by reason ([`Skipped`]): not SGF, not a regular
//! file (FIFOs, sockets, devices, links that lead nowhere or in a loop, and
//! links stored in archives; listed by origin), unreadable.
//!
//! Each member has an [`Origin`]: its path, or `archive!member` for an
//! archive member, nested as deep as archives nest
//! (`a.tar.gz!x.zip!y.sgf`; a compressed file is no archive: `a.sgf.gz`).
//! Games carry it with their offset in the member's decompressed bytes
//! ([`Inputs::scan_games`], [`Game`]).
//!
//! An `.sgfs` member (one game per line) is one member of
//! [`MemberKind::Sgfs`]; its consumer parses it line by line
//! ([`SgfsLines`], done by [`Inputs::scan_games`]), so that a bad line
//! costs only that line.
//!
//! Errors stop what they are about, not the scan: an unreadable file, a
//! corrupt archive or member is handed to the visitor as an
//! [`InputError`] with its origin, and the scan goes on with the next
//! input. A compressed stream that turns out corrupt midway fails the
//! member (or, in a tar, the rest of the archive) where it breaks, after
//! the games read before.
//!
//! ## Memory
//!
//! A scan holds the member being read, through a chain of readers: the
//! decompressors' windows (gzip 32 KiB; bzip2 up to about 4 MiB; zstd the
//! window its frames declare, refused over 128 MiB; xz and 7z the
//! dictionary the compressor chose: 8 MiB for `xz -6`, 64 MiB for
//! `xz -9`/`7z -mx9`), a tar entry header, a zip or 7z archive's directory
//! (about a hundred bytes per member). Parsing holds one game at a time
//! ([`StreamParser`](crate::StreamParser)).
//!
//! ## Order and parallel reading
//!
//! Results come in a fixed order: sources sorted by path
//! ([`Inputs::sources`]), then members in each archive's own order. The
//! sources are independent and cheap to list (a folder walk opens no file),
//! so a caller can read several at once, each with [`Source::scan`], and
//! put the results back in order: a folder of files spreads over all
//! cores. Within one source the members come one after the other: a tar
//! stream (and a compressed stream) can only be read from its start, and
//! so can the members of one solid 7z block. Zip members could be opened
//! independently; this scan reads them in order.

#[cfg(feature = "archives")]
mod archive;
#[cfg(feature = "archives")]
mod decode;
#[cfg(feature = "archives")]
mod error;
#[cfg(feature = "archives")]
mod games;
#[cfg(feature = "archives")]
mod inputs;
mod lines;
#[cfg(feature = "archives")]
mod member;
#[cfg(feature = "archives")]
mod origin;
#[cfg(feature = "archives")]
mod scan;
#[cfg(feature = "archives")]
mod skipped;
mod sniff;

#[cfg(feature = "archives")]
pub use error::{DecodeError, InputError, InputErrorKind};
#[cfg(feature = "archives")]
pub use games::{Game, MAX_UTF16};
#[cfg(feature = "archives")]
pub use inputs::{Inputs, Source, Sources, DEFAULT_MAX_DEPTH, DEFAULT_MAX_SPOOL};
pub use lines::SgfsLines;
#[cfg(feature = "archives")]
pub use member::{looks_like_sgf, sgf_name_kind, strip_compression, Member, MemberKind};
#[cfg(feature = "archives")]
pub use origin::{Origin, Root};
#[cfg(feature = "archives")]
pub use skipped::{SkipReason, Skipped, SkippedItem, Special, LISTED_MAX};
pub use sniff::{sniff, Content, SNIFF_LEN};

/// The text of UTF-16 input as UTF-8, without its byte order mark, when
/// `content` (as [`sniff`] found it) is [`Content::Utf16Le`] or
/// [`Content::Utf16Be`]. `None` when `content` is another kind, or when
/// `bytes` is not well-formed UTF-16: an odd number of bytes, or a
/// surrogate without its pair.
///
/// ```
/// use sgf_grove::input::{decode_utf16, Content};
/// let be = b"\xfe\xff\x00(\x00;\x00)";
/// assert_eq!(decode_utf16(be, Content::Utf16Be { bom: true }).as_deref(), Some("(;)"));
/// // A lone high surrogate (D800) is no text.
/// assert_eq!(decode_utf16(b"(\x00\x00\xd8", Content::Utf16Le { bom: false }), None);
/// assert_eq!(decode_utf16(b"(;)", Content::Text), None);
/// ```
pub fn decode_utf16(bytes: &[u8], content: Content) -> Option<String> {
    let (encoding, bom): (_, &[u8]) = match content {
        Content::Utf16Le { .. } => (encoding_rs::UTF_16LE, b"\xff\xfe"),
        Content::Utf16Be { .. } => (encoding_rs::UTF_16BE, b"\xfe\xff"),
        _ => return None,
    };
    let body = bytes.strip_prefix(bom).unwrap_or(bytes);
    encoding
        .decode_without_bom_handling_and_without_replacement(body)
        .map(std::borrow::Cow::into_owned)
}

#[cfg(test)]
mod tests {
    use super::{decode_utf16, Content};

    #[test]
    fn decode_utf16_refuses_an_odd_length() {
        let le = Content::Utf16Le { bom: false };
        assert_eq!(decode_utf16(b"(\x00;", le), None);
        assert_eq!(decode_utf16(b"(\x00;\x00", le).as_deref(), Some("(;"));
    }

    #[test]
    fn decode_utf16_keeps_pairs_and_drops_only_a_leading_bom() {
        let text = "\u{feff}(;C[𝄞 中])";
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(
            decode_utf16(&le, Content::Utf16Le { bom: true }).as_deref(),
            Some("(;C[𝄞 中])")
        );
        assert_eq!(
            decode_utf16(&be, Content::Utf16Be { bom: true }).as_deref(),
            Some("(;C[𝄞 中])")
        );
        // A second BOM is text (a zero-width no-break space) and stays.
        let twice: Vec<u8> = "\u{feff}\u{feff}(;)"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        assert_eq!(
            decode_utf16(&twice, Content::Utf16Le { bom: true }).as_deref(),
            Some("\u{feff}(;)")
        );
    }
}
