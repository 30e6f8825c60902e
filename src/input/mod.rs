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
#![cfg_attr(
    not(feature = "archives"),
    doc = "# Inputs, members and origins

With the `archives` feature, `Inputs` turns a list of paths (folders,
files, compressed files, tar, zip and 7z archives, standard input) into a
sequence of SGF members, each with its origin (`a.tar.gz!dir/x.sgf`) and
its bytes as a stream."
)]
#![cfg_attr(feature = "archives", doc = include_str!("inputs.md"))]

#[cfg(feature = "archives")]
mod archive;
#[cfg(feature = "archives")]
mod budget;
#[cfg(feature = "archives")]
mod decode;
#[cfg(feature = "archives")]
mod error;
#[cfg(feature = "archives")]
mod escape;
#[cfg(feature = "archives")]
mod games;
#[cfg(all(feature = "archives", unix))]
mod held;
#[cfg(feature = "archives")]
mod inputs;
#[cfg(all(feature = "archives", any(feature = "parallel", feature = "oracle")))]
pub(crate) mod likely;
mod lines;
#[cfg(feature = "archives")]
mod member;
#[cfg(feature = "archives")]
mod origin;
#[cfg(all(feature = "archives", feature = "parallel"))]
mod owned;
#[cfg(all(feature = "archives", feature = "parallel"))]
mod par;
#[cfg(all(feature = "archives", feature = "parallel"))]
mod par_chunks;
#[cfg(all(feature = "archives", feature = "parallel"))]
mod par_members;
#[cfg(feature = "archives")]
mod scan;
#[cfg(feature = "archives")]
mod skipped;
mod utf16;
#[cfg(feature = "archives")]
mod walk;

pub use crate::sniff::{sniff, Content, Foreign, SNIFF_LEN};
#[cfg(feature = "archives")]
pub use budget::{GameBudget, DEFAULT_MAX_INPUT_BYTES, DEFAULT_MAX_INPUT_GAMES};
#[cfg(feature = "archives")]
pub use error::{DecodeError, InputError, InputErrorKind};
#[cfg(feature = "archives")]
pub use escape::escape_name;
#[cfg(feature = "archives")]
pub use games::{Game, MAX_UTF16};
#[cfg(feature = "archives")]
pub use inputs::{Inputs, Source, Sources, DEFAULT_MAX_DEPTH, DEFAULT_MAX_SPOOL};
pub use lines::{SgfsLines, DEFAULT_MAX_LINE};
#[cfg(feature = "archives")]
pub use member::{looks_like_sgf, sgf_name_kind, strip_compression, Member, MemberKind};
#[cfg(feature = "archives")]
pub use origin::{Origin, Root};
#[cfg(all(feature = "archives", feature = "parallel"))]
pub use owned::OwnedGame;
#[cfg(all(feature = "archives", feature = "parallel"))]
pub use par::{ScanGame, WHOLE_FILE, WHOLE_PACKED, WORKER_BUDGET};
#[cfg(all(feature = "archives", feature = "parallel"))]
pub use par_members::MEMBERS_PER_UNIT;
#[cfg(feature = "archives")]
pub use skipped::{SkipReason, Skipped, SkippedItem, Special, LISTED_MAX};
pub use utf16::Utf16Reader;

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
