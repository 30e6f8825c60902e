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
        self.counts = [0; WarningKind::COUNT];
        self.dropped = 0;
        self.max = max;
        self.strict = strict;
        self.cursor = LineCursor::default();
        self.error = None;
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

    /// Forgets the warnings recorded since `mark`.
    pub(crate) fn rollback(&mut self, mark: DiagMark) {
        // Warnings found unclosed may have been inserted before the mark's
        // end; those are rare enough to keep (they will be found again and
        // inserted again only if still there).
        self.list.truncate(mark.len);
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
        match self.list.last() {
            Some(last) if last.pos.offset > offset => {
                let at = self.list.partition_point(|w| w.pos.offset <= offset);
                self.list.insert(at, warning);
            }
            _ => self.list.push(warning),
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
