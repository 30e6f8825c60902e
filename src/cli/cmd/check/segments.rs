//! The report of one member as a worker writes it: its text, with the
//! places of the warnings that `--max-messages` may leave out, so that the
//! limit is applied over all members, in their order, when the report is
//! printed ([`Segments::print`]), whatever thread wrote it.

use super::text::Messages;
use std::io::{self, Write};
use std::ops::Range;

/// A member's report: text, and which byte ranges are messages.
#[derive(Debug, Default)]
pub(super) struct Segments {
    bytes: Vec<u8>,
    messages: Vec<Range<usize>>,
    open: Option<usize>,
}

impl Segments {
    /// What is written from here to [`Segments::end`] is one message.
    pub(super) fn begin(&mut self) {
        self.open = Some(self.bytes.len());
    }

    /// Ends the message begun.
    pub(super) fn end(&mut self) {
        if let Some(start) = self.open.take() {
            self.messages.push(start..self.bytes.len());
        }
    }

    /// Writes the report to `out`, each message only while `limit` lets
    /// it through.
    pub(super) fn print(&self, out: &mut impl Write, limit: &mut Messages) -> io::Result<()> {
        let mut at = 0;
        for message in &self.messages {
            out.write_all(&self.bytes[at..message.start])?;
            if limit.pass() {
                out.write_all(&self.bytes[message.clone()])?;
            }
            at = message.end;
        }
        out.write_all(&self.bytes[at..])
    }
}

impl Write for Segments {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.bytes.extend_from_slice(buf);
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_over_the_limit_are_left_out_in_order() {
        let mut a = Segments::default();
        a.write_all(b"head\n").unwrap();
        for m in ["m1\n", "m2\n"] {
            a.begin();
            a.write_all(m.as_bytes()).unwrap();
            a.end();
        }
        a.write_all(b"tail\n").unwrap();
        let mut b = Segments::default();
        b.begin();
        b.write_all(b"m3\n").unwrap();
        b.end();
        let mut limit = Messages::new(&[], &[], 2);
        let mut out = Vec::new();
        a.print(&mut out, &mut limit).unwrap();
        b.print(&mut out, &mut limit).unwrap();
        assert_eq!(out, b"head\nm1\nm2\ntail\n");
        let mut note = Vec::new();
        limit.write_note(&mut note).unwrap();
        assert!(String::from_utf8(note)
            .unwrap()
            .contains("1 over --max-messages 2"));
    }
}
