//! A record's bytes as lines of text: the charset chosen once for the
//! whole record, each line decoded on its own (so that every position is
//! a byte of the original), and the warnings of the conversion placed in
//! those bytes.

use super::Format;
use crate::error::{Warning, WarningKind};
use crate::span::Position;
use encoding_rs::{Encoding, EUC_KR, GB18030, SHIFT_JIS, UTF_8};
use std::borrow::Cow;
use std::cell::RefCell;

/// One line: where it starts in the record and its bytes, without the
/// line break.
#[derive(Clone, Copy, Debug)]
pub(super) struct Line<'a> {
    pub(super) offset: usize,
    pub(super) bytes: &'a [u8],
}

/// The record: its bytes, charset, lines and the warnings found so far.
pub(super) struct Text<'a> {
    bytes: &'a [u8],
    pub(super) encoding: &'static Encoding,
    pub(super) lines: Vec<Line<'a>>,
    warnings: RefCell<Vec<Warning>>,
}

impl<'a> Text<'a> {
    /// Splits `bytes` into lines (a line break is LF, CRLF or CR) and
    /// chooses their charset for `format`, unless `charset` names it.
    pub(super) fn new(
        bytes: &'a [u8],
        format: Format,
        charset: Option<&'static Encoding>,
    ) -> Text<'a> {
        let body_start = if bytes.starts_with(b"\xEF\xBB\xBF") {
            3
        } else {
            0
        };
        let mut lines = Vec::new();
        let mut start = body_start;
        let mut i = body_start;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => {
                    lines.push(Line {
                        offset: start,
                        bytes: &bytes[start..i],
                    });
                    i += 1;
                    start = i;
                }
                b'\r' => {
                    lines.push(Line {
                        offset: start,
                        bytes: &bytes[start..i],
                    });
                    i += if bytes.get(i + 1) == Some(&b'\n') {
                        2
                    } else {
                        1
                    };
                    start = i;
                }
                _ => i += 1,
            }
        }
        if start < bytes.len() {
            lines.push(Line {
                offset: start,
                bytes: &bytes[start..],
            });
        }
        Text {
            bytes,
            encoding: charset.unwrap_or_else(|| choose_charset(&bytes[body_start..], format)),
            lines,
            warnings: RefCell::new(Vec::new()),
        }
    }

    /// The text of `bytes` (a part of a line) in the record's charset; a
    /// byte sequence the charset does not hold is replaced with U+FFFD
    /// and warned about at `offset`.
    pub(super) fn decode(&self, bytes: &[u8], offset: usize) -> String {
        match self
            .encoding
            .decode_without_bom_handling_and_without_replacement(bytes)
        {
            Some(text) => text.into_owned(),
            None => {
                self.warn(WarningKind::ForeignCharset, offset);
                let (text, _) = self.encoding.decode_without_bom_handling(bytes);
                match text {
                    Cow::Borrowed(s) => s.to_owned(),
                    Cow::Owned(s) => s,
                }
            }
        }
    }

    /// Adds a warning of `kind` at byte `offset` of the record.
    pub(super) fn warn(&self, kind: WarningKind, offset: usize) {
        let pos = Position::locate(self.bytes, offset);
        self.warnings.borrow_mut().push(Warning { kind, pos });
    }

    /// The offset just past the record's last byte.
    pub(super) fn end(&self) -> usize {
        self.bytes.len()
    }

    /// The warnings found, in the order found.
    pub(super) fn take_warnings(&self) -> Vec<Warning> {
        self.warnings.take()
    }
}

/// The charset of a record of `format`: UTF-8 when the bytes are valid
/// UTF-8; else what detection says when that is one the servers of the
/// format use (EUC-KR for Tygem and WBaduk, GB18030/GBK for the Chinese
/// Tygem and Fox variants, Shift_JIS for Pandanet); else the first of
/// those that reads the bytes without a fault; else what detection says.
fn choose_charset(bytes: &[u8], format: Format) -> &'static Encoding {
    if std::str::from_utf8(bytes).is_ok() {
        return UTF_8;
    }
    let candidates: &[&'static Encoding] = match format {
        Format::Gib | Format::Ngf => &[EUC_KR, GB18030],
        Format::Ugf => &[SHIFT_JIS, EUC_KR, GB18030],
    };
    let detected = crate::text::charset::detect(bytes).encoding();
    let clean = |enc: &'static Encoding| {
        enc.decode_without_bom_handling_and_without_replacement(bytes)
            .is_some()
    };
    let detected = if detected == encoding_rs::GBK {
        GB18030
    } else {
        detected
    };
    if candidates.contains(&detected) && clean(detected) {
        return detected;
    }
    candidates
        .iter()
        .copied()
        .find(|&enc| clean(enc))
        .unwrap_or(detected)
}

#[cfg(test)]
mod tests {
    use super::{Format, Text};

    #[test]
    fn lines_keep_their_offsets_whatever_the_line_breaks() {
        let text = Text::new(b"a\r\nbb\rc\n\nd", Format::Ngf, None);
        let got: Vec<(usize, &[u8])> = text.lines.iter().map(|l| (l.offset, l.bytes)).collect();
        assert_eq!(
            got,
            [(0, &b"a"[..]), (3, b"bb"), (6, b"c"), (8, b""), (9, b"d")]
        );
    }

    #[test]
    fn charsets_by_format_and_content() {
        let korean = encoding_rs::EUC_KR.encode("이세돌 九段 대국").0;
        assert_eq!(
            Text::new(&korean, Format::Gib, None).encoding,
            encoding_rs::EUC_KR
        );
        let japanese = encoding_rs::SHIFT_JIS.encode("本因坊 名人戦 対局").0;
        assert_eq!(
            Text::new(&japanese, Format::Ugf, None).encoding,
            encoding_rs::SHIFT_JIS
        );
        let chinese = encoding_rs::GB18030.encode("柯洁 九段 围棋对局 中国").0;
        assert_eq!(
            Text::new(&chinese, Format::Gib, None).encoding,
            encoding_rs::GB18030
        );
        assert_eq!(
            Text::new("이세돌".as_bytes(), Format::Gib, None).encoding,
            encoding_rs::UTF_8
        );
    }
}
