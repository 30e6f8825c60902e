//! The warnings of one reading: positions computed in one pass, storage
//! capped, strict mode turning the first defect into an error.

use crate::error::{Error, ErrorKind, Warning, WarningKind};
use crate::lexer::Sink;
use crate::span::{LineCursor, Position};

/// Collects the warnings of one input (or of one game at a time, when the
/// caller drains them).
#[derive(Debug)]
pub(crate) struct Diag {
    pub(crate) list: Vec<Warning>,
    /// For each warning of `list`, when it was kept: 0 for the first kept
    /// (since `list` was last emptied), 1 for the next… A rollback removes
    /// those kept since its mark, wherever their offsets put them.
    kept: Vec<u32>,
    pub(crate) counts: [u32; WarningKind::COUNT],
    /// Warnings counted but not kept (over `max`).
    pub(crate) dropped: usize,
    pub(crate) max: usize,
    pub(crate) strict: bool,
    pub(crate) cursor: LineCursor,
    pub(crate) error: Option<Error>,
}

impl Default for Diag {
    fn default() -> Self {
        Diag {
            list: Vec::new(),
            kept: Vec::new(),
            counts: [0; WarningKind::COUNT],
            dropped: 0,
            max: 10_000,
            strict: false,
            cursor: LineCursor::default(),
            error: None,
        }
    }
}

impl Diag {
    /// Starts a new input, keeping the list's capacity.
    pub(crate) fn reset(&mut self, max: usize, strict: bool) {
        self.list.clear();
        self.kept.clear();
        self.counts = [0; WarningKind::COUNT];
        self.dropped = 0;
        self.max = max;
        self.strict = strict;
        self.cursor = LineCursor::default();
        self.error = None;
    }

    /// Empties the list (its warnings were taken), keeping the counts.
    pub(crate) fn clear_list(&mut self) {
        self.list.clear();
        self.kept.clear();
    }

    /// The state to go back to if what is read next is read again.
    pub(crate) fn mark(&self) -> DiagMark {
        DiagMark {
            len: self.list.len(),
            counts: self.counts,
            dropped: self.dropped,
            error: self.error.is_some(),
        }
    }

    /// Forgets the warnings recorded since `mark`: the last ones kept, even
    /// those placed before earlier ones by their offsets.
    pub(crate) fn rollback(&mut self, mark: DiagMark) {
        let mut new = self.list.len().saturating_sub(mark.len);
        if new > 0 {
            // The new warnings are all at or after `from`; the old ones
            // among them keep their order.
            let is_new = |kept: Option<&u32>| kept.is_none_or(|&k| k as usize >= mark.len);
            let mut from = self.list.len();
            while new > 0 && from > 0 {
                from -= 1;
                if is_new(self.kept.get(from)) {
                    new -= 1;
                }
            }
            let mut to = from;
            for i in from..self.list.len() {
                if !is_new(self.kept.get(i)) {
                    self.list.swap(to, i);
                    self.kept.swap(to, i);
                    to += 1;
                }
            }
            self.list.truncate(to);
            self.kept.truncate(to);
        }
        self.counts = mark.counts;
        self.dropped = mark.dropped;
        if !mark.error {
            self.error = None;
        }
    }

    /// Records that `kind` was forgiven at `offset` of `input`.
    #[cold]
    #[inline(never)]
    pub(crate) fn warn(&mut self, input: &[u8], kind: WarningKind, offset: usize) {
        if self.error.is_some() {
            return;
        }
        if self.strict {
            let pos = Position::locate(input, offset);
            self.error = Some(Error::new(ErrorKind::Strict(kind), pos));
            return;
        }
        let count = &mut self.counts[kind as usize];
        *count = count.saturating_add(1);
        if self.list.len() >= self.max {
            self.dropped += 1;
            return;
        }
        // Warnings arrive almost in file order; the few that do not (a value
        // found unclosed is reported at its start, after what was found
        // inside it) are inserted in place.
        let warning = Warning {
            kind,
            pos: self.cursor.locate(input, offset),
        };
        let kept = self.list.len() as u32;
        match self.list.last() {
            Some(last) if last.pos.offset > offset => {
                let at = self.list.partition_point(|w| w.pos.offset <= offset);
                self.list.insert(at, warning);
                self.kept.insert(at, kept);
            }
            _ => {
                self.list.push(warning);
                self.kept.push(kept);
            }
        }
    }
}

/// What [`Diag::mark`] saves.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DiagMark {
    len: usize,
    counts: [u32; WarningKind::COUNT],
    dropped: usize,
    error: bool,
}

/// A [`Sink`] over a [`Diag`] and the input its offsets point into.
pub(crate) struct DiagSink<'a, 'src> {
    pub(crate) diag: &'a mut Diag,
    pub(crate) input: &'src [u8],
}

impl Sink for DiagSink<'_, '_> {
    #[inline(always)]
    fn warn(&mut self, kind: WarningKind, offset: usize) {
        self.diag.warn(self.input, kind, offset);
    }
}

/// Passes warnings on, except those about an identifier's spelling, which
/// the node lexer reports when it reads the identifier again.
pub(crate) struct NotIdent<'a, 'b, 'src>(pub(crate) &'a mut DiagSink<'b, 'src>);

impl Sink for NotIdent<'_, '_, '_> {
    fn warn(&mut self, kind: WarningKind, offset: usize) {
        if !matches!(
            kind,
            WarningKind::LowercaseInIdent | WarningKind::WhitespaceInIdent
        ) {
            self.0.warn(kind, offset);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rollback_drops_the_warnings_kept_since_the_mark_wherever_they_went() {
        let input = [b' '; 64];
        let mut diag = Diag::default();
        diag.warn(&input, WarningKind::NulByte, 10);
        diag.warn(&input, WarningKind::NulByte, 20);
        let mark = diag.mark();
        // Placed by their offsets: before both, between them, after them.
        diag.warn(&input, WarningKind::WhitespaceInIdent, 5);
        diag.warn(&input, WarningKind::WhitespaceInIdent, 15);
        diag.warn(&input, WarningKind::UnexpectedByte, 30);
        let offsets = |d: &Diag| d.list.iter().map(|w| w.pos.offset).collect::<Vec<_>>();
        assert_eq!(offsets(&diag), [5, 10, 15, 20, 30]);
        diag.rollback(mark);
        assert_eq!(offsets(&diag), [10, 20]);
        assert_eq!(diag.counts[WarningKind::WhitespaceInIdent as usize], 0);
        assert_eq!(diag.counts[WarningKind::NulByte as usize], 2);
        // And again from there.
        diag.warn(&input, WarningKind::NulByte, 12);
        assert_eq!(offsets(&diag), [10, 12, 20]);
        let mark = diag.mark();
        diag.warn(&input, WarningKind::NulByte, 1);
        diag.rollback(mark);
        assert_eq!(offsets(&diag), [10, 12, 20]);
    }
}
