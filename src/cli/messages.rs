//! `--max-messages N`: the warning and error lines a command prints on
//! standard error, at most N of them; the rest are counted by kind and
//! said in one line at the end.

use sgf_grove::table::thousands;
use std::io::{self, Write};

/// Prints diagnostics up to a limit and counts the rest by kind.
#[derive(Debug)]
pub struct Messages {
    max: u64,
    printed: u64,
    /// Left out over the limit, by code, in the order first met.
    over: Vec<(String, u64)>,
}

impl Messages {
    /// At most `max` lines.
    pub fn new(max: u64) -> Messages {
        Messages {
            max,
            printed: 0,
            over: Vec::new(),
        }
    }

    /// Prints `text` (one line, no line break) on `out` when there is
    /// room, else counts it under `code`. Standard error may be closed:
    /// a failed write changes nothing.
    pub fn print(&mut self, out: &mut impl Write, code: &str, text: &str) {
        if self.printed < self.max {
            self.printed += 1;
            let _ = writeln!(out, "{text}");
            return;
        }
        match self.over.iter_mut().find(|(c, _)| c == code) {
            Some((_, n)) => *n += 1,
            None => self.over.push((code.to_string(), 1)),
        }
    }

    /// How many lines were left out.
    pub fn left_out(&self) -> u64 {
        self.over.iter().map(|(_, n)| n).sum()
    }

    /// `sgf: 12 more messages not printed (over --max-messages 3):
    /// repeated_property 10, not_sgf_text 2`, when some were left out.
    pub fn note(&self) -> Option<String> {
        let total = self.left_out();
        if total == 0 {
            return None;
        }
        let mut over = self.over.clone();
        over.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let kinds: Vec<String> = over
            .iter()
            .map(|(c, n)| format!("{c} {}", thousands(*n)))
            .collect();
        let word = if total == 1 { "message" } else { "messages" };
        Some(format!(
            "sgf: {} more {word} not printed (over --max-messages {}): {}",
            thousands(total),
            self.max,
            kinds.join(", ")
        ))
    }

    /// Writes [`Messages::note`] on `out`, if any.
    pub fn write_note(&self, out: &mut impl Write) -> io::Result<()> {
        match self.note() {
            Some(note) => writeln!(out, "{note}"),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Messages;

    #[test]
    fn prints_up_to_the_limit_then_counts_by_kind() {
        let mut m = Messages::new(2);
        let mut out = Vec::new();
        for (code, text) in [("a", "1"), ("b", "2"), ("b", "3"), ("c", "4"), ("b", "5")] {
            m.print(&mut out, code, text);
        }
        assert_eq!(out, b"1\n2\n");
        assert_eq!(m.left_out(), 3);
        assert_eq!(
            m.note().as_deref(),
            Some("sgf: 3 more messages not printed (over --max-messages 2): b 2, c 1")
        );
        assert_eq!(Messages::new(5).note(), None);
    }
}
