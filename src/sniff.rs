//! Telling SGF text from compressed data, archives, executables, other
//! binary data, UTF-16 and the records of other formats ([`Foreign`]) by
//! the first bytes: [`sniff`].
//!
//! It imports nothing of the crate, so that both the event reader (which
//! refuses a stream that is not SGF text by name) and the inputs (which
//! pick a decoder by it) can use it. Public as
//! [`input::sniff`](crate::input::sniff).

use std::fmt;

/// How many bytes [`sniff`] looks at. Give it at least this many when the
/// input is that long; more are ignored.
pub const SNIFF_LEN: usize = 1024;

/// What the first bytes of an input show it to be, from [`sniff`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Content {
    /// Bytes that may be SGF text: ASCII, UTF-8 (with or without a byte
    /// order mark), or a legacy charset; also empty input and text that holds
    /// no game (the parser says so).
    Text,
    /// UTF-16, little-endian; `bom` when it starts with `ff fe`.
    Utf16Le {
        /// Whether a byte order mark starts the input.
        bom: bool,
    },
    /// UTF-16, big-endian; `bom` when it starts with `fe ff`.
    Utf16Be {
        /// Whether a byte order mark starts the input.
        bom: bool,
    },
    /// gzip-compressed data (`1f 8b`).
    Gzip,
    /// bzip2-compressed data (`BZh`).
    Bzip2,
    /// xz-compressed data (`fd 37 7a 58 5a 00`).
    Xz,
    /// Zstandard-compressed data (`28 b5 2f fd`).
    Zstd,
    /// A zip archive (`PK 03 04`).
    Zip,
    /// A 7z archive (`37 7a bc af 27 1c`).
    SevenZip,
    /// A tar archive (`ustar` at offset 257).
    Tar,
    /// An ELF executable or library (`7f 45 4c 46`).
    Elf,
    /// Other binary data: more than one NUL or control byte in 64 in the
    /// first [`SNIFF_LEN`] bytes, which do not start like SGF.
    Binary,
    /// A game record of a server's own format, which
    /// [`StreamParser`](crate::StreamParser) converts to SGF before parsing
    /// ([`foreign`](crate::foreign)).
    Foreign(Foreign),
}

/// The game-record formats of other servers that are read as SGF
/// ([`foreign`](crate::foreign), where it is also named `Format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Foreign {
    /// Tygem `.gib`: starts with `\HS` or a `\[KEY=value\]` header line.
    Gib,
    /// WBaduk / Cyberoro `.ngf`: a header of one value a line (the board
    /// size on line 2, the handicap on line 6, the komi on line 8) and `PM`
    /// move lines.
    Ngf,
    /// Pandanet `.ugf` / `.ugi`: starts with a `[Header]` line.
    Ugf,
}

impl Foreign {
    /// Every format.
    pub const ALL: [Foreign; 3] = [Foreign::Gib, Foreign::Ngf, Foreign::Ugf];

    /// What it is, in a few words, as the SGF's `SO` says it:
    /// `Tygem .gib`, `WBaduk .ngf`, `Pandanet .ugf`.
    pub fn description(self) -> &'static str {
        match self {
            Foreign::Gib => "Tygem .gib",
            Foreign::Ngf => "WBaduk .ngf",
            Foreign::Ugf => "Pandanet .ugf",
        }
    }

    /// The file-name suffixes of the format, lower case, without the dot.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Foreign::Gib => &["gib"],
            Foreign::Ngf => &["ngf"],
            Foreign::Ugf => &["ugf", "ugi"],
        }
    }

    /// The format a file name's suffix says (any letter case), if one.
    ///
    /// ```
    /// use sgf_grove::input::Foreign;
    /// assert_eq!(Foreign::by_name(b"dir/game.GIB"), Some(Foreign::Gib));
    /// assert_eq!(Foreign::by_name(b"a.ugi"), Some(Foreign::Ugf));
    /// assert_eq!(Foreign::by_name(b"a.sgf"), None);
    /// ```
    pub fn by_name(name: &[u8]) -> Option<Foreign> {
        let dot = name.iter().rposition(|&b| b == b'.')?;
        let ext = &name[dot + 1..];
        Foreign::ALL.into_iter().find(|f| {
            f.extensions()
                .iter()
                .any(|e| ext.eq_ignore_ascii_case(e.as_bytes()))
        })
    }
}

impl fmt::Display for Foreign {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

impl Content {
    /// Whether the input can go to the stream parser as it is: SGF text,
    /// or a record of another format ([`Content::Foreign`]), which
    /// [`StreamParser`](crate::StreamParser) converts first.
    pub fn is_text(self) -> bool {
        matches!(self, Content::Text | Content::Foreign(_))
    }

    /// The record format, when the input is a record of another server's
    /// format.
    pub fn foreign(self) -> Option<Foreign> {
        match self {
            Content::Foreign(format) => Some(format),
            _ => None,
        }
    }

    /// Whether the input is UTF-16 text, to be decoded first
    /// ([`decode_utf16`](crate::input::decode_utf16)).
    pub fn is_utf16(self) -> bool {
        matches!(self, Content::Utf16Le { .. } | Content::Utf16Be { .. })
    }

    /// Whether the input is compressed data (gzip, bzip2, xz, zstd).
    pub fn is_compressed(self) -> bool {
        matches!(
            self,
            Content::Gzip | Content::Bzip2 | Content::Xz | Content::Zstd
        )
    }

    /// Whether the input is an archive (zip, 7z, tar).
    pub fn is_archive(self) -> bool {
        matches!(self, Content::Zip | Content::SevenZip | Content::Tar)
    }

    /// What it is, in a few words: `gzip data`, `zip archive`,
    /// `UTF-16LE text`, … (also its `Display`).
    pub fn description(self) -> &'static str {
        match self {
            Content::Text => "text",
            Content::Utf16Le { .. } => "UTF-16LE text",
            Content::Utf16Be { .. } => "UTF-16BE text",
            Content::Gzip => "gzip data",
            Content::Bzip2 => "bzip2 data",
            Content::Xz => "xz data",
            Content::Zstd => "zstd data",
            Content::Zip => "zip archive",
            Content::SevenZip => "7z archive",
            Content::Tar => "tar archive",
            Content::Elf => "ELF executable",
            Content::Binary => "binary data",
            Content::Foreign(format) => format.description(),
        }
    }
}

impl fmt::Display for Content {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

/// Says what `start`, the first bytes of an input (at least [`SNIFF_LEN`]
/// of them when there are that many), is.
///
/// The checks, in order:
///
/// 1. Magic numbers at the start: gzip `1f 8b`, bzip2 `BZh1`–`BZh9`, xz
///    `fd 37 7a 58 5a 00`, zstd `28 b5 2f fd`, zip `PK 03 04` (or the
///    empty-archive and spanned forms `PK 05 06`, `PK 07 08`), 7z
///    `37 7a bc af 27 1c`, ELF `7f 45 4c 46`; tar's `ustar` at offset 257.
/// 2. A UTF-16 byte order mark (`ff fe`, `fe ff`); a UTF-8 one is text.
/// 3. UTF-16 without a mark: in at least half of the 16-bit units one byte
///    is 0 and the other ASCII text, always on the same side, and no unit
///    is 0.
/// 4. A record of another server's format ([`Foreign`]), by its first
///    lines: Tygem `.gib` starts with `\HS` or `\[`, a capital letter and
///    a `KEY=`; Pandanet `.ugf` with a `[Header]` line (any letter case);
///    WBaduk `.ngf` has a board size (2 to 52) on its 2nd line, a handicap
///    (0 to 9) on its 6th, a number on its 8th, and (when the first bytes
///    reach so far) a `PM` move line or its 12th line. Whitespace and a
///    UTF-8 byte order mark may come first.
/// 5. Binary data: more than one byte in 64 is a NUL or a control byte (tab,
///    line breaks, vertical tab, form feed, ESC and the DOS end-of-file byte
///    `1a` count as text), unless the input starts like SGF: `(` and `;`
///    (whitespace and NUL bytes allowed before and between them, after a
///    UTF-8 byte order mark). A `(`
///    elsewhere does not make binary data text: random bytes hold one in
///    every 256.
///
/// Everything else is [`Content::Text`]: the parser decides the rest.
///
/// ```
/// use sgf_grove::input::{sniff, Content};
/// assert_eq!(sniff(b"\xef\xbb\xbf(;GM[1])"), Content::Text);
/// assert_eq!(sniff(b"PK\x03\x04\x14\x00"), Content::Zip);
/// assert_eq!(sniff(b"\x7fELF\x02\x01\x01"), Content::Elf);
/// assert_eq!(sniff(b"\xff\xfe(\x00;\x00"), Content::Utf16Le { bom: true });
/// assert_eq!(sniff(&[0; 4096]), Content::Binary);
/// assert_eq!(sniff(b""), Content::Text);
/// ```
pub fn sniff(start: &[u8]) -> Content {
    let sample = &start[..start.len().min(SNIFF_LEN)];
    if let Some(content) = magic(sample) {
        return content;
    }
    if let Some(content) = utf16_without_bom(sample) {
        return content;
    }
    if !starts_like_sgf(sample)
        && let Some(format) = foreign(sample)
    {
        return Content::Foreign(format);
    }
    if looks_binary(sample) {
        return Content::Binary;
    }
    Content::Text
}

/// The kinds that a fixed signature identifies.
fn magic(sample: &[u8]) -> Option<Content> {
    const SIGNATURES: &[(&[u8], Content)] = &[
        (b"\x1f\x8b", Content::Gzip),
        (b"\xfd7zXZ\x00", Content::Xz),
        (b"\x28\xb5\x2f\xfd", Content::Zstd),
        (b"PK\x03\x04", Content::Zip),
        (b"PK\x05\x06", Content::Zip),
        (b"PK\x07\x08", Content::Zip),
        (b"7z\xbc\xaf\x27\x1c", Content::SevenZip),
        (b"\x7fELF", Content::Elf),
        (b"\xff\xfe", Content::Utf16Le { bom: true }),
        (b"\xfe\xff", Content::Utf16Be { bom: true }),
    ];
    if let Some(&(_, content)) = SIGNATURES.iter().find(|(sig, _)| sample.starts_with(sig)) {
        return Some(content);
    }
    if let [b'B', b'Z', b'h', b'1'..=b'9', ..] = sample {
        return Some(Content::Bzip2);
    }
    // POSIX `ustar\0` and the GNU `ustar  ` both start so.
    if sample.get(257..262) == Some(b"ustar") {
        return Some(Content::Tar);
    }
    None
}

/// UTF-16 without a byte order mark: in at least half of the 16-bit units
/// one byte is 0 and the other printable ASCII or a line break or tab, on
/// the same side every time, and no unit is 0.
fn utf16_without_bom(sample: &[u8]) -> Option<Content> {
    let units = sample.len() / 2;
    // Each unit counted holds a NUL byte: text without one (nearly all)
    // is told at once.
    if units < 2 || memchr::memchr(0, sample).is_none() {
        return None;
    }
    let (mut le, mut be) = (0, 0);
    for pair in sample.chunks_exact(2) {
        match (pair[0], pair[1]) {
            (0, 0) => return None,
            (low, 0) if is_ascii_text(low) => le += 1,
            (0, low) if is_ascii_text(low) => be += 1,
            _ => {}
        }
    }
    if le * 2 >= units && be == 0 {
        Some(Content::Utf16Le { bom: false })
    } else if be * 2 >= units && le == 0 {
        Some(Content::Utf16Be { bom: false })
    } else {
        None
    }
}

/// Printable ASCII, tab, LF or CR.
fn is_ascii_text(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\r' | b' '..=b'~')
}

/// More than one NUL or control byte in 64, and not the start of SGF.
fn looks_binary(sample: &[u8]) -> bool {
    // Nearly every input starts so: told without counting.
    if starts_like_sgf(sample) {
        return false;
    }
    let controls = sample
        .iter()
        .filter(|&&b| match b {
            // Tab, LF, VT, FF, CR, the DOS end-of-file byte and ESC are
            // found in text files.
            b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | 0x1A | 0x1B => false,
            0x00..=0x1F | 0x7F => true,
            _ => false,
        })
        .count();
    controls * 64 > sample.len()
}

/// The record format `sample` starts like, if one (rule 4 of [`sniff`]).
fn foreign(sample: &[u8]) -> Option<Foreign> {
    let rest = sample.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(sample);
    let body = trim_start(rest);
    if body.starts_with(b"\\HS") {
        return Some(Foreign::Gib);
    }
    if let Some(field) = body.strip_prefix(b"\\[") {
        let key_len = field
            .iter()
            .take_while(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || **b == b'_')
            .count();
        if key_len > 0 && field.get(key_len) == Some(&b'=') && field[0].is_ascii_uppercase() {
            return Some(Foreign::Gib);
        }
    }
    let first_line = body
        .split(|&b| b == b'\n' || b == b'\r')
        .next()
        .unwrap_or(b"");
    if trim_end(first_line).eq_ignore_ascii_case(b"[Header]") {
        return Some(Foreign::Ugf);
    }
    if looks_like_ngf(rest) {
        return Some(Foreign::Ngf);
    }
    None
}

/// The `.ngf` header's numbers on lines 2, 6 and 8, and a move line or a
/// 12th line when the sample reaches it.
fn looks_like_ngf(sample: &[u8]) -> bool {
    let mut lines = Vec::with_capacity(13);
    let mut rest = sample;
    while lines.len() < 13 {
        let Some(end) = rest.iter().position(|&b| b == b'\n' || b == b'\r') else {
            // The last line, perhaps cut by the sample's end: counted only
            // when the sample is the whole input (shorter than its limit).
            if !rest.is_empty() && sample.len() < SNIFF_LEN {
                lines.push(rest);
            }
            break;
        };
        lines.push(&rest[..end]);
        let skip = if rest[end] == b'\r' && rest.get(end + 1) == Some(&b'\n') {
            2
        } else {
            1
        };
        rest = &rest[end + skip..];
    }
    let number = |i: usize| -> Option<f64> {
        let line = trim_end(trim_start(lines.get(i)?));
        std::str::from_utf8(line).ok()?.parse().ok()
    };
    let whole = |i: usize, range: std::ops::RangeInclusive<f64>| {
        number(i).is_some_and(|n| n.fract() == 0.0 && range.contains(&n))
    };
    if !(whole(1, 2.0..=52.0) && whole(5, 0.0..=9.0) && number(7).is_some()) {
        return false;
    }
    // Its moves (or the end of a header cut short within the sample).
    let moves = lines
        .iter()
        .skip(12)
        .any(|l| trim_start(l).starts_with(b"PM"));
    moves || lines.len() >= 12
}

fn trim_start(bytes: &[u8]) -> &[u8] {
    let n = bytes.iter().take_while(|b| b.is_ascii_whitespace()).count();
    &bytes[n..]
}

fn trim_end(bytes: &[u8]) -> &[u8] {
    let n = bytes
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_whitespace())
        .count();
    &bytes[..bytes.len() - n]
}

/// Whether `sample` starts like a game tree: `(` and then `;`, with
/// whitespace (and NUL bytes, which the parser skips as whitespace) before
/// and between them, after an optional UTF-8 byte order mark.
fn starts_like_sgf(sample: &[u8]) -> bool {
    let blank = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0);
    let rest = sample.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(sample);
    let mut bytes = rest.iter().filter(|b| !blank(b));
    bytes.next() == Some(&b'(') && bytes.next() == Some(&b';')
}

#[cfg(test)]
mod tests {
    use super::{sniff, Content, Foreign, SNIFF_LEN};

    /// `(kind, first bytes)`, each written by hand from the format's
    /// specification.
    const SIGNED: &[(Content, &[u8])] = &[
        (Content::Gzip, b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03"),
        (Content::Bzip2, b"BZh91AY&SY"),
        (Content::Xz, b"\xfd7zXZ\x00\x00\x04"),
        (Content::Zstd, b"\x28\xb5\x2f\xfd\x24\x00"),
        (Content::Zip, b"PK\x03\x04\x14\x00\x00\x00"),
        (Content::Zip, b"PK\x05\x06\x00\x00"),
        (Content::SevenZip, b"7z\xbc\xaf\x27\x1c\x00\x04"),
        (Content::Elf, b"\x7fELF\x02\x01\x01\x00"),
        (Content::Utf16Le { bom: true }, b"\xff\xfe(\x00"),
        (Content::Utf16Be { bom: true }, b"\xfe\xff\x00("),
    ];

    #[test]
    fn signatures() {
        for &(kind, bytes) in SIGNED {
            assert_eq!(sniff(bytes), kind, "{bytes:?}");
            // Followed by SGF text, still the same kind.
            let mut padded = bytes.to_vec();
            padded.extend_from_slice(b"(;GM[1])");
            assert_eq!(sniff(&padded), kind, "{bytes:?}");
        }
    }

    #[test]
    fn tar_header_by_its_ustar_field() {
        let mut header = vec![0u8; 512];
        header[..9].copy_from_slice(b"games.sgf");
        header[257..263].copy_from_slice(b"ustar\0");
        assert_eq!(sniff(&header), Content::Tar);
        header[257..263].copy_from_slice(b"ustax\0");
        assert_eq!(sniff(&header), Content::Binary);
    }

    #[test]
    fn sgf_text_stays_text() {
        for text in [
            &b"(;GM[1]FF[4];B[aa];W[bb])"[..],
            b"\xef\xbb\xbf(;CA[UTF-8]C[\xe4\xb8\xad])",
            b"header junk\r\n(;GM[1])",
            b"(;C[\xd6\xd0\xb9\xfa])",
            b"just some text",
            b"B",
            b"BZh",
            b"PK",
            b"",
            // A stray NUL inside a game: the parser forgives it.
            b"(;GM[1]\x00;B[aa])",
        ] {
            assert_eq!(sniff(text), Content::Text, "{text:?}");
        }
    }

    #[test]
    fn binary_by_its_control_bytes() {
        assert_eq!(sniff(&[0u8; 10]), Content::Binary);
        assert_eq!(sniff(b"abc\x00def"), Content::Binary);
        // Two control bytes in 64 are binary, one is not.
        let mut text = vec![b'x'; 64];
        text[3] = 0x01;
        assert_eq!(sniff(&text), Content::Text);
        text[9] = 0x02;
        assert_eq!(sniff(&text), Content::Binary);
        // A `(` inside does not make it text…
        text[30] = b'(';
        text[31] = b';';
        assert_eq!(sniff(&text), Content::Binary);
        // …nor one beyond the sniffed bytes.
        let mut late = vec![0u8; SNIFF_LEN];
        late.extend_from_slice(b"(;GM[1])");
        assert_eq!(sniff(&late), Content::Binary);
    }

    #[test]
    fn random_bytes_with_a_game_start_inside_are_binary() {
        // Bytes from a small generator, as a file of binary data is: all
        // 256 values, about one in eight a control byte.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut bytes: Vec<u8> = (0..4096)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        bytes[100..106].copy_from_slice(b"(;B[a]");
        assert_eq!(sniff(&bytes), Content::Binary);
    }

    #[test]
    fn text_that_starts_like_sgf_stays_text_whatever_follows() {
        let mut game = b"(;GM[1]C[".to_vec();
        game.extend_from_slice(&[0x01; 200]);
        game.extend_from_slice(b"])");
        for start in [&b""[..], b"\xEF\xBB\xBF", b" \r\n", b"\xEF\xBB\xBF\n"] {
            let input = [start, &game].concat();
            assert_eq!(sniff(&input), Content::Text, "{start:?}");
        }
        // `(` with `;` after whitespace, and a game with a few control bytes
        // in its comments after some junk.
        assert_eq!(sniff(b"( \n ;\x00\x00\x00"), Content::Text);
        let mut junk_first = b"Game record\n(;GM[1]C[\x07bell\x07]".to_vec();
        junk_first.resize(300, b'x');
        assert_eq!(sniff(&junk_first), Content::Text);
        // NUL bytes before the game are skipped as the parser skips them.
        assert_eq!(sniff(b"\x00\x00(;GM[1])"), Content::Text);
        // Not SGF's start: `(` and then something else.
        assert_eq!(sniff(b"(\x01\x02\x03\x04"), Content::Binary);
        assert_eq!(sniff(b"\x00\x00\x00\x00;(;"), Content::Binary);
    }

    #[test]
    fn utf16_without_bom_by_its_zero_bytes() {
        let text = "(;GM[1]PB[Lee]C[中文]\n;B[aa])";
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(sniff(&le), Content::Utf16Le { bom: false });
        assert_eq!(sniff(&be), Content::Utf16Be { bom: false });
        // A 0 unit is binary, not UTF-16.
        let mut nul = le.clone();
        nul.extend_from_slice(&[0, 0]);
        assert_ne!(sniff(&nul), Content::Utf16Le { bom: false });
        // Mostly CJK: fewer than half the units are ASCII, so it is not
        // taken for UTF-16; its 0 bytes make it binary data.
        let cjk: Vec<u8> = "中文中文中文(;)"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        assert_eq!(sniff(&cjk), Content::Binary);
    }

    #[test]
    fn only_the_first_sniff_len_bytes_count() {
        let mut input = b"(;GM[1]C[".to_vec();
        input.resize(SNIFF_LEN, b'x');
        input.extend_from_slice(&[0u8; 4096]);
        assert_eq!(sniff(&input), Content::Text);
    }

    #[test]
    fn records_of_other_formats_by_their_first_lines() {
        let gib = b"\\HS\r\n\\[GAMEBLACKNAME=a\\]\r\n";
        assert_eq!(sniff(gib), Content::Foreign(Foreign::Gib));
        assert_eq!(
            sniff(b"\r\n\\[GAMETAG=C2016\\]\n"),
            Content::Foreign(Foreign::Gib)
        );
        assert_eq!(
            sniff(b"\xEF\xBB\xBF[HEADER]\r\nSize=19"),
            Content::Foreign(Foreign::Ugf)
        );
        let ngf = b"Game\n19\nW 3D\nB 2D\nsite\n0\n0\n6\n20170101\n\nWhite wins\n1\nPMAABDD\n";
        assert_eq!(sniff(ngf), Content::Foreign(Foreign::Ngf));
        assert!(Content::Foreign(Foreign::Ngf).is_text());
        assert_eq!(Content::Foreign(Foreign::Gib).to_string(), "Tygem .gib");
        // Near misses stay text.
        for text in [
            &b"\\[not a header"[..],
            b"[Headers]\n",
            b"Game\n19\nW\nB\n",
            b"Game\n100\nW\nB\nsite\n0\n0\n6\n1\n2\n3\n4\nPMAABDD\n",
            b"(;GM[1]C[\\HS])",
        ] {
            assert_eq!(sniff(text), Content::Text, "{text:?}");
        }
    }

    #[test]
    fn descriptions() {
        assert_eq!(Content::Gzip.to_string(), "gzip data");
        assert_eq!(Content::SevenZip.to_string(), "7z archive");
        assert!(Content::Zstd.is_compressed() && !Content::Zstd.is_archive());
        assert!(Content::Tar.is_archive() && !Content::Tar.is_text());
        assert!(Content::Utf16Be { bom: false }.is_utf16());
    }
}
