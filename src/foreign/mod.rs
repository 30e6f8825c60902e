//! Game records of the Korean, Chinese and Japanese servers' own formats,
//! converted to SGF: Tygem `.gib`, WBaduk/Cyberoro `.ngf`, Pandanet
//! `.ugf`/`.ugi` ([`Format`], [`to_sgf`]).
//!
//! None of these formats has a public specification. What each reader
//! assumes is written in its file (`gib.rs`, `ngf.rs`, `ugf.rs`), and every
//! fact that was inferred from examples and other converters rather than
//! read in a specification says so there.
//!
//! A conversion never fails and never panics: what it cannot read becomes
//! a [`Warning`] placed (byte offset, line, column) in the **original**
//! bytes, and what was read before a cut is kept. The SGF it writes is
//! UTF-8 (`CA[UTF-8]`), whatever the charset of the record (EUC-KR,
//! GB18030/GBK, Shift_JIS or UTF-8, detected from the bytes). Its root
//! says where it comes from: `AP[sgf-grove:<version>]` (the program that
//! wrote the SGF) and `SO[Tygem .gib]` (or `WBaduk .ngf`, `Pandanet .ugf`):
//! [`Format::description`]. Header fields that have no SGF property are
//! kept, one `KEY=value` line each, in the root's `GC`.
//!
//! The inputs read them by content ([`input::sniff`](crate::input::sniff)
//! says [`Content::Foreign`](crate::input::Content::Foreign)), and
//! [`StreamParser`](crate::StreamParser) converts such a stream before
//! parsing it, so every command and `input::Inputs` (feature `archives`) read
//! them as games, with the warnings of the conversion among the game's
//! warnings. The slice parser ([`parse`](crate::parse)) reads SGF only and
//! refuses them by name: convert first.
//!
//! ```
//! use sgf_grove::foreign::{self, Format};
//! let gib = b"\\HS\r\n\\[GAMEBLACKNAME=Lee (9D)\\]\r\n\\[GAMEWHITENAME=Kim (8D)\\]\r\n\
//!             \\[GAMEINFOMAIN=GONGJE:65,GRLT:3,ZIPSU:0,\\]\r\n\\HE\r\n\\GS\r\n\
//!             INI 0 1 0 &4\r\nSTO 0 1 1 15 3\r\nSTO 0 2 2 3 15\r\n\\GE\r\n";
//! let converted = foreign::to_sgf(gib).expect("a .gib record");
//! assert_eq!(converted.format, Format::Gib);
//! assert!(converted.warnings.is_empty());
//! let doc = sgf_grove::parse(&converted.sgf)?;
//! let root = doc.games().next().unwrap().root();
//! assert_eq!(root.text("PB").as_deref(), Some("Lee"));
//! assert_eq!(root.text("BR").as_deref(), Some("9D"));
//! assert_eq!(root.text("RE").as_deref(), Some("B+R"));
//! assert_eq!(root.text("KM").as_deref(), Some("6.5"));
//! assert_eq!(doc.games().next().unwrap().nodes().count(), 3);
//! # Ok::<(), sgf_grove::Error>(())
//! ```

mod gib;
mod ngf;
mod out;
mod text;
mod ugf;

use crate::error::Warning;
pub use crate::sniff::Foreign as Format;

/// How many bytes of a record a reader converts at most
/// ([`StreamParser`](crate::StreamParser)): real records are a few tens of
/// kilobytes; what is longer is cut there, with a warning.
pub const MAX_LEN: usize = 16 << 20;

/// An SGF game converted from a record of another format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conversion {
    /// The format it was read as.
    pub format: Format,
    /// The game as SGF text, UTF-8, one game tree.
    pub sgf: Vec<u8>,
    /// What the conversion forgave or could not read, placed in the
    /// original bytes.
    pub warnings: Vec<Warning>,
    /// The charset the record's text was read in.
    pub charset: &'static encoding_rs::Encoding,
}

/// Converts `bytes` to SGF when their content is one of the formats
/// ([`Format::detect`]); `None` otherwise (SGF itself included).
pub fn to_sgf(bytes: &[u8]) -> Option<Conversion> {
    Format::detect(bytes).map(|format| format.to_sgf(bytes))
}

impl Format {
    /// The format of `bytes` by their content (their first
    /// [`SNIFF_LEN`](crate::input::SNIFF_LEN) bytes), if one of these.
    ///
    /// ```
    /// use sgf_grove::foreign::Format;
    /// assert_eq!(Format::detect(b"\\HS\n\\[GAMEBLACKNAME=a\\]\n"), Some(Format::Gib));
    /// assert_eq!(Format::detect(b"[Header]\nSize=19\n"), Some(Format::Ugf));
    /// assert_eq!(Format::detect(b"(;GM[1])"), None);
    /// ```
    pub fn detect(bytes: &[u8]) -> Option<Format> {
        match crate::sniff::sniff(bytes) {
            crate::sniff::Content::Foreign(format) => Some(format),
            _ => None,
        }
    }

    /// Converts `bytes`, read as this format, to SGF. Never fails: what
    /// cannot be read is a warning; a record with no moves gives a root
    /// alone. The text's charset is detected ([`Format::to_sgf_in`] names
    /// it).
    pub fn to_sgf(self, bytes: &[u8]) -> Conversion {
        self.to_sgf_in(bytes, None)
    }

    /// [`Format::to_sgf`], the record's text read in `charset` when it is
    /// given (as [`ParseOptions::charset`](crate::ParseOptions::charset)
    /// makes the stream parser do), else detected.
    ///
    /// ```
    /// use sgf_grove::foreign::Format;
    /// // 中国 in GBK: also two well-formed Hangul syllables in EUC-KR.
    /// let gib = b"\\[GAMEPLACE=\xd6\xd0\xb9\xfa\\]\n\\GS\n\\GE\n";
    /// let converted = Format::Gib.to_sgf_in(gib, Some(encoding_rs::GBK));
    /// assert!(String::from_utf8(converted.sgf)?.contains("PC[中国]"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_sgf_in(
        self,
        bytes: &[u8],
        charset: Option<&'static encoding_rs::Encoding>,
    ) -> Conversion {
        let cut = bytes.len() > MAX_LEN;
        let bytes = &bytes[..bytes.len().min(MAX_LEN)];
        let text = text::Text::new(bytes, self, charset);
        if cut {
            text.warn(crate::error::WarningKind::ForeignTruncated, bytes.len());
        }
        let mut out = out::Record::new(self);
        match self {
            Format::Gib => gib::read(&text, &mut out),
            Format::Ngf => ngf::read(&text, &mut out),
            Format::Ugf => ugf::read(&text, &mut out),
        }
        let mut warnings = text.take_warnings();
        warnings.sort_by_key(|w| w.pos.offset);
        Conversion {
            format: self,
            sgf: out.to_sgf(),
            warnings,
            charset: text.encoding,
        }
    }
}
