//! Transcoding: text decoded from the game's charset and encoded in the
//! target's, a character the target lacks an error.

use super::escape::escape_canonical;
use super::Writer;
use crate::error::{Error, Result};
use crate::tree::read::ReadGame;
use encoding_rs::{EncoderResult, Encoding, UTF_8};
use std::io::Write;

impl<W: Write> Writer<W> {
    /// Decodes `raw` from `source`, escapes it and encodes it in `target`.
    #[cold]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn transcode<'g>(
        &mut self,
        game: impl ReadGame<'g>,
        ident: &[u8],
        raw: &[u8],
        offset: Option<usize>,
        colon: bool,
        source: &'static Encoding,
        target: &'static Encoding,
    ) -> Result<()> {
        let mut decoder = source.new_decoder_without_bom_handling();
        self.text.clear();
        let room = decoder
            .max_utf8_buffer_length(raw.len())
            .expect("a value's length is far from overflowing");
        self.text.reserve(room);
        let _ = decoder.decode_to_string(raw, &mut self.text, true);
        self.scratch.clear();
        escape_canonical(self.text.as_bytes(), colon, true, &mut self.scratch);
        if target == UTF_8 {
            self.buf.extend_from_slice(&self.scratch);
            return Ok(());
        }
        let text = std::str::from_utf8(&self.scratch).expect("escaping keeps UTF-8 intact");
        let mut encoder = target.new_encoder();
        let room = encoder
            .max_buffer_length_from_utf8_without_replacement(text.len())
            .expect("a value's length is far from overflowing");
        let start = self.buf.len();
        self.buf.resize(start + room, 0);
        let (result, _, written) =
            encoder.encode_from_utf8_without_replacement(text, &mut self.buf[start..], true);
        self.buf.truncate(start + written);
        match result {
            EncoderResult::InputEmpty => Ok(()),
            EncoderResult::Unmappable(ch) => {
                let pos = offset.and_then(|o| game.position(o)).unwrap_or_default();
                let ident = String::from_utf8_lossy(ident);
                Err(Error::unrepresentable(ch, target.name(), &ident, pos))
            }
            EncoderResult::OutputFull => {
                unreachable!("the buffer has the room the encoder asked for")
            }
        }
    }
}

/// Whether a `\` byte in `encoding` is always an escape of its own, and
/// removing one never joins two bytes into a character: UTF-8 (whose
/// continuation bytes are never ASCII) and single-byte charsets. In
/// Shift_JIS, Big5, GBK and GB18030 a `\` can end a character, in EUC-KR
/// (UHC) an ASCII letter can, and ISO-2022-JP shifts ASCII bytes into
/// double-byte characters.
pub(super) fn escapes_stand_alone(encoding: &'static Encoding) -> bool {
    encoding == UTF_8 || encoding.is_single_byte()
}
