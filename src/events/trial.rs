//! Games without `CA` in a charset whose second bytes can be `\` or `]`.
//!
//! In Shift_JIS, Big5 and GBK/GB18030 the second byte of a character can be
//! `\` (0x5C) or `]` (0x5D). Read byte by byte, such a character escapes the
//! next byte or closes its value, and the moves after it are swallowed or
//! garbled. A root's `CA` (or an override) names the charset and the values
//! are then read a character at a time; a game that has neither is read
//! byte by byte, unless its bytes say otherwise:
//!
//! - the game is read *on trial* from its root: byte by byte, as always,
//!   with the machine's state at the root kept ([`Trial`]);
//! - a root with `CA` settles the trial at once: the game is read as the
//!   `CA` says;
//! - where the game ends, the trial is settled: when the game's bytes (from
//!   its start to that end) are not valid UTF-8 and
//!   [`detect`](crate::text::charset::detect) says Shift_JIS, Big5 or
//!   GB18030, the game is read again from its root a character at a time
//!   in that charset, exactly as if the root began with `CA[…]` (with
//!   [`WarningKind::DetectedCharset`] at the game's start), and that is the
//!   game's charset. Otherwise what the trial read stands;
//! - a root whose `CA` was swallowed by a value read byte by byte
//!   (`PB[表]CA[Shift_JIS]`: 表's second byte escapes the `]`) is read
//!   again a character at a time in the charset that `CA` names, when that
//!   is one of those charsets, as if the `CA` had been seen first;
//! - a game detected with low confidence gets
//!   [`WarningKind::UncertainCharset`] at its start.
//!
//! The tree builder keeps what it was handed during a trial and drops it
//! only when the game is read again, so a game that stays byte by byte
//! costs it no second reading, and it tries every game. The pull reader's
//! queue cannot take back events it has handed out: it drops them during
//! the trial and always reads the game again, so it tries a game only when
//! invalid UTF-8 lies ahead in the input ([`Utf8Scan`], which validates the
//! input about once in all). Trying a game or not gives the same result,
//! and both read the same bytes to the same decision, so the events, the
//! tree and the game-at-a-time stream agree.
//!
//! In strict mode the trial collects warnings without stopping at the
//! first, and the game is always read again, strictly: the first defect is
//! then the one the lenient reading reports first (`detected_charset`, at
//! the game's start, for a game read in a detected charset).

use super::*;
use crate::text::charset::{detect_on_trial, TrialCharset};
use crate::text::Charset;

/// The state of a machine at the root of a game read on trial, to read the
/// game again from there (its open frames are in `Buffers::trial_frames`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Trial {
    /// The root node: its start and where its properties start.
    start: usize,
    body: usize,
    pos: usize,
    top: Frame,
    game_start: usize,
    games: usize,
    next_id: u32,
    diag: DiagMark,
    /// Whether the reading was strict (the trial is not).
    strict: bool,
    /// Whether the emitter keeps what the trial emitted when the game is
    /// not read again.
    keep: bool,
}

/// What is known of where the input is valid UTF-8, found on demand and
/// remembered, so that the games of an input validate it about once in all.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Utf8Scan {
    /// `input[from..valid_to]` is valid UTF-8 (empty before the first
    /// question); `bad`: an invalid sequence starts at `valid_to`.
    from: usize,
    valid_to: usize,
    bad: bool,
}

impl Default for Utf8Scan {
    fn default() -> Self {
        Utf8Scan {
            from: 1,
            valid_to: 0,
            bad: false,
        }
    }
}

impl Utf8Scan {
    /// Whether `input[start..end]` is valid UTF-8; `start` must be a
    /// character boundary (games start at an ASCII byte), and so must `end`
    /// unless it is the end of the input. Validates at most that range.
    pub(crate) fn is_valid(&mut self, input: &[u8], start: usize, end: usize) -> bool {
        if !(self.from <= start && start <= self.valid_to) {
            *self = Utf8Scan {
                from: start,
                valid_to: start,
                bad: false,
            };
        }
        if end <= self.valid_to {
            return true;
        }
        if self.bad {
            return false;
        }
        let at = self.valid_to;
        match simdutf8::compat::from_utf8(input.get(at..end).unwrap_or_default()) {
            Ok(_) => {
                self.valid_to = end;
                true
            }
            Err(e) => {
                self.valid_to = at + e.valid_up_to();
                // A sequence cut only by `end` may go on after it.
                self.bad = e.error_len().is_some() || end >= input.len();
                false
            }
        }
    }

    /// Whether some byte at or after `at` (a character boundary) is not
    /// part of valid UTF-8.
    pub(crate) fn bad_ahead(&mut self, input: &[u8], at: usize) -> bool {
        !self.is_valid(input, at, input.len())
    }
}

impl<'src> Machine<'src> {
    /// At a root, before it is read: fixes how its game's values are read
    /// when a trial decided it, or starts a trial when the game may need one.
    #[inline(always)]
    pub(crate) fn choose_charset<E: Emit<'src>>(&mut self, e: &mut E, start: usize, body: usize) {
        self.detected = None;
        if let Some(decided) = self.decided.take() {
            self.apply(decided);
        } else if self.override_mode.is_none()
            && self.trial.is_none()
            && (E::KEEPS_TRIALS || self.utf8.bad_ahead(self.input, self.game_start))
        {
            self.begin_trial(e, start, body);
        }
    }

    /// Reads the game from here on as its trial decided.
    #[cold]
    fn apply(&mut self, decided: TrialCharset) {
        self.detected = decided.read_in;
        if decided
            .read_in
            .is_some_and(|c| c.source() == crate::text::CharsetSource::Detected)
        {
            self.warn(WarningKind::DetectedCharset, self.game_start);
        }
        self.warn_uncertain(decided);
    }

    /// Warns at the game's start when detection was unsure of its charset.
    fn warn_uncertain(&mut self, decided: TrialCharset) {
        if decided
            .read_in
            .or(decided.found)
            .is_some_and(|c| c.is_uncertain())
        {
            self.warn(WarningKind::UncertainCharset, self.game_start);
        }
    }

    /// Starts reading the game whose root is at `start` (properties from
    /// `body`) on trial.
    #[inline(never)]
    fn begin_trial<E: Emit<'src>>(&mut self, e: &mut E, start: usize, body: usize) {
        e.try_game();
        let strict = self.bufs.diag.strict;
        self.bufs.trial_frames.clone_from(&self.bufs.frames);
        self.trial = Some(Trial {
            start,
            body,
            pos: self.pos,
            top: self.top,
            game_start: self.game_start,
            games: self.games,
            next_id: self.next_id,
            diag: self.bufs.diag.mark(),
            strict,
            keep: E::KEEPS_TRIALS && !strict,
        });
        self.bufs.diag.strict = false;
    }

    /// After the root of a game on trial was read: a root with `CA` settles
    /// the trial at once (the game is read as that says). Returns whether
    /// the game is read again (from its root, next).
    #[inline(always)]
    pub(crate) fn root_read<E: Emit<'src>>(&mut self, e: &mut E) -> bool {
        self.trial.is_some()
            && self.switch.is_declared_or_fixed()
            && self.settle(e, TrialCharset::default())
    }

    /// Settles the trial of the game that ends at `end`. Returns whether the
    /// game is read again: its root is then read again at once, and the
    /// caller, which was ending the game, stops there.
    #[cold]
    #[inline(never)]
    pub(crate) fn retry<E: Emit<'src>>(&mut self, e: &mut E, end: usize) -> bool {
        let Some(t) = self.trial else {
            return false;
        };
        // The decision read this far (a reader over a stream needs to know).
        self.read_to = self.read_to.max(end);
        let outcome = self.decide(t.game_start, end);
        self.settle(e, outcome)
    }

    /// Ends the trial with `detected` as the outcome; returns whether the
    /// game is read again (its root is then read again before this
    /// returns; that reading starts no trial and ends no game, so this
    /// nests at most once).
    #[cold]
    #[inline(never)]
    fn settle<E: Emit<'src>>(&mut self, e: &mut E, outcome: TrialCharset) -> bool {
        let Some(t) = self.trial.take() else {
            return false;
        };
        // A game detected with low confidence is read again too, so that
        // its warning comes where every reader puts it: at the game's
        // start, before what its root says.
        let uncertain = outcome
            .read_in
            .or(outcome.found)
            .is_some_and(|c| c.is_uncertain());
        let again = !t.keep || outcome.read_in.is_some() || uncertain;
        e.settle(!again, outcome.found);
        self.bufs.diag.strict = t.strict;
        if !again {
            return false;
        }
        self.bufs.diag.rollback(t.diag);
        self.pos = t.pos;
        self.top = t.top;
        std::mem::swap(&mut self.bufs.frames, &mut self.bufs.trial_frames);
        self.in_game = true;
        self.done = false;
        self.game_start = t.game_start;
        self.game_has_root = false;
        self.games = t.games;
        self.next_id = t.next_id;
        self.decided = Some(outcome);
        self.scanner.rewind(t.body);
        self.node(e, t.start, t.body);
        true
    }

    /// The charset a game read on trial is to be read again in: one detected
    /// from `input[start..end]` whose characters can hide `\` or `]`, when
    /// the root has no `CA` and those bytes are not valid UTF-8 (with the
    /// game's charset when detection found it on the way).
    fn decide(&self, start: usize, end: usize) -> TrialCharset {
        if self.switch.is_declared_or_fixed() {
            return TrialCharset::default();
        }
        let Some(bytes) = self.input.get(start..end) else {
            return TrialCharset::default();
        };
        let outcome = detect_on_trial(bytes);
        if outcome.read_in.is_none() && outcome.found.is_none() {
            // Valid UTF-8: no character of another charset swallowed anything.
            return outcome;
        }
        match swallowed_ca(bytes) {
            Some(declared) => TrialCharset {
                read_in: Some(declared),
                found: None,
            },
            None => outcome,
        }
    }
}

/// The charset a `CA` swallowed into a value names, when it is one whose
/// second bytes can be `\` or `]`: `PB[表]CA[Shift_JIS]` read byte by byte
/// is one value, since 表's second byte (0x5C) escapes the `]`. The game
/// is then read again in that charset, as its `CA` says, and reads as
/// written. Only the first `\]CA[` after a byte outside ASCII is looked
/// at.
fn swallowed_ca(bytes: &[u8]) -> Option<Charset> {
    use crate::text::charset::{for_label, is_ascii_unsafe};
    let at = memchr::memmem::find(bytes, b"\\]CA[")?;
    if at == 0 || bytes[at - 1].is_ascii() {
        return None;
    }
    let label = bytes.get(at + 5..)?;
    let label = &label[..memchr::memchr(b']', label)?];
    let encoding = for_label(label).filter(|&e| is_ascii_unsafe(e))?;
    Some(Charset::new(encoding, crate::text::CharsetSource::Declared))
}
