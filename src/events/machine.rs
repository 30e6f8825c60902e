//! The state machine: every recovery, once, emitting to a consumer (the
//! tree builder directly, or the pull reader's queue).

use super::*;

/// How many variations may be open, one inside the other, before any of
/// them has a node (`((((`): a further `(` is junk
/// ([`WarningKind::UnexpectedByte`]), so that a run of `(` costs no memory
/// for each of its bytes. Real files nest a few at most.
pub(crate) const MAX_EMPTY_OPENS: usize = 32;

/// One open `(` of the current game, as far as structure goes: whether a
/// node stands above it, whether it holds a node of its own, whether a
/// variation inside it has closed since its last node. The tree builder
/// keeps the same three facts as node ids.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Frame {
    /// The node the next node of this sequence attaches to (0 before the
    /// game's root).
    pub(crate) cursor: u32,
    /// The last child already attached to `cursor`, after which the next
    /// child is linked (0: none yet).
    pub(crate) last_child: u32,
    /// The first node of this frame (0: none yet).
    pub(crate) first: u32,
    /// Whether a `VariationStart` was sent for it.
    pub(crate) sent: bool,
    /// Where its `(` is (`u32::MAX` for a game's outer frame); its
    /// `VariationStart` is sent with its first node, once that node is known
    /// not to start a new game.
    pub(crate) open: u32,
}

/// Receives what the state machine decides, in file order. The tree
/// builder implements it directly (no queue, no return per event); the
/// public [`Reader`] queues the events for its pull API.
pub(crate) trait Emit<'src> {
    fn game_start(&mut self, offset: usize);
    /// The game ends; `diag` holds the warnings found so far.
    fn game_end(&mut self, span: Span, diag: &mut Diag);
    fn variation_start(&mut self, offset: usize);
    fn variation_end(&mut self, offset: usize);
    fn node(&mut self, node: NodeEvent<'_, 'src>);
    /// A non-root node of one simple property (`;B[pd]`), read by the fast
    /// path: most nodes. By default handed on as a node event.
    #[inline(always)]
    fn simple_node(&mut self, node: NodeEvent<'_, 'src>, _links: Links, _value: Span32) {
        self.node(node)
    }
    /// Takes a run of simple nodes (`;B[pd];W[dp]…`) straight from the
    /// input, from the `;` at `at`: each the only child of the one before,
    /// the first a child of node `first_id - 1`, numbered from `first_id`.
    /// Returns how many it took and where the run stopped (the `;` of the
    /// first node it left, or the end of the last one taken). A consumer
    /// that wants each node as an event (the default) takes none.
    #[inline(always)]
    fn simple_run(&mut self, _input: &'src [u8], at: usize, _first_id: u32) -> (u32, usize) {
        (0, at)
    }
    /// Whether to stop reading (an error, or the caller has seen enough).
    fn stop(&self) -> bool {
        false
    }
    /// Whether the machine may go on from a simple node straight to the
    /// next one in the same step (a run of `;B[pd];W[dp]…`), instead of
    /// returning after each node. A consumer that takes one node a step
    /// (the reader's queue) says no.
    #[inline(always)]
    fn run_on(&self) -> bool {
        false
    }
    /// Whether what is emitted during a game's trial (see [`Trial`]) is
    /// kept when the game turns out not to need reading again. An emitter
    /// that cannot take events back (the pull reader's queue, which hands
    /// them out as they come) drops them instead, and the game is always
    /// read again: it is then tried only when invalid UTF-8 lies ahead.
    const KEEPS_TRIALS: bool;
    /// A game is about to be read on trial: what is emitted until
    /// [`Emit::settle`] may have to be forgotten.
    fn try_game(&mut self);
    /// Ends the trial: keeps what was emitted since [`Emit::try_game`], or
    /// forgets it (the game is read again). `found`: the game's charset,
    /// when detection found it while deciding (the game is then kept).
    fn settle(&mut self, keep: bool, found: Option<crate::text::Charset>);
}

/// A node of one short property read by the fast path.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SimpleNode {
    pub(crate) span: Span,
    pub(crate) ident: Span32,
    pub(crate) value: Span32,
    pub(crate) links: Links,
}

/// The state machine under [`Reader`] and the tree builder.
#[derive(Debug)]
pub(crate) struct Machine<'src> {
    pub(crate) input: &'src [u8],
    pub(crate) scanner: Scanner<'src>,
    /// Everything before it has been read.
    pub(crate) pos: usize,
    pub(crate) bufs: Buffers,
    /// Inside a game (its frames are open).
    pub(crate) in_game: bool,
    /// The innermost open `(` of the current game; the others are in
    /// `bufs.frames`, outermost first.
    pub(crate) top: Frame,
    /// The current game: where it started, whether it has a root.
    pub(crate) game_start: usize,
    pub(crate) game_has_root: bool,
    /// Games started so far (for `JunkBeforeGame` vs `JunkAfterGame`).
    pub(crate) games: usize,
    /// Whether the input is the start of the stream (a byte order mark is
    /// looked for only there).
    pub(crate) stream_start: bool,
    /// How the current game's values are read.
    pub(crate) mode: ValueMode,
    pub(crate) override_mode: Option<ValueMode>,
    /// The root switch of the current game.
    pub(crate) switch: RootSwitch,
    pub(crate) done: bool,
    pub(crate) started: bool,
    /// The id of the next node.
    pub(crate) next_id: u32,
    /// Whether ids start again at 1 with each game.
    pub(crate) ids_per_game: bool,
    /// How far any decision read (when further than `pos`).
    pub(crate) read_to: usize,
    /// A node to read first (after a game ended before its root was read).
    pub(crate) pending_node: Option<(usize, usize)>,
    /// Whether the scanner was left behind `pos` by simple nodes the reader
    /// took (with no structural byte between them and `pos` unread).
    pub(crate) scanner_behind: bool,
    /// Whether the last thing the reader took was a simple node by
    /// [`Machine::next_simple`], nothing read since: every condition of
    /// another such node but its `;` still holds.
    pub(crate) plain_run: bool,
    /// The charset detected for the current game, which fixed its mode.
    pub(crate) detected: Option<Charset>,
    /// How the root about to be read again is read: the outcome of its
    /// game's trial (a detected charset, or byte by byte).
    pub(crate) decided: Option<crate::text::charset::TrialCharset>,
    /// The game being read on trial, if any.
    pub(crate) trial: Option<Trial>,
    /// Where the input stops being valid UTF-8.
    pub(crate) utf8: Utf8Scan,
}

/// What a machine carries from one stretch of a stream to the next: its
/// state when a game ended, with offsets counted from where that game
/// ended (the start of the next stretch).
#[derive(Clone, Debug, Default)]
pub(crate) struct Resume {
    pub(crate) pos: usize,
    pub(crate) in_game: bool,
    pub(crate) game_start: usize,
    pub(crate) game_has_root: bool,
    pub(crate) games: usize,
    pub(crate) mode: ValueMode,
    pub(crate) switch: RootSwitch,
    pub(crate) frames: Vec<Frame>,
    pub(crate) top: Frame,
    pub(crate) pending_node: Option<(usize, usize)>,
}

impl<'src> Machine<'src> {
    /// Takes up the state `r` left by the previous stretch of the stream.
    pub(crate) fn resume(&mut self, r: &Resume) {
        self.pos = r.pos;
        self.scanner.seek(r.pos);
        self.in_game = r.in_game;
        self.game_start = r.game_start;
        self.game_has_root = r.game_has_root;
        self.games = r.games;
        self.mode = r.mode;
        self.switch = r.switch;
        self.bufs.frames.clone_from(&r.frames);
        self.top = r.top;
        self.pending_node = r.pending_node;
        self.stream_start = false;
    }

    /// The state to take up in the stretch that starts at `base`.
    pub(crate) fn suspend(&self, base: usize, r: &mut Resume) {
        let at = |o: usize| o.saturating_sub(base);
        r.pos = at(self.pos);
        r.in_game = self.in_game;
        r.game_start = at(self.game_start);
        r.game_has_root = self.game_has_root;
        r.games = self.games;
        r.mode = self.mode;
        r.switch = RootSwitch {
            from: if self.switch.from == usize::MAX {
                usize::MAX
            } else {
                at(self.switch.from)
            },
            ..self.switch
        };
        r.frames.clone_from(&self.bufs.frames);
        r.top = self.top;
        for f in r.frames.iter_mut().chain(std::iter::once(&mut r.top)) {
            if f.open != u32::MAX {
                f.open = at(f.open as usize) as u32;
            }
        }
        r.pending_node = self.pending_node.map(|(s, b)| (at(s), at(b)));
    }

    pub(crate) fn new(input: &'src [u8], options: &ParseOptions, mut bufs: Buffers) -> Self {
        bufs.diag.reset(options.max_warnings, options.is_strict());
        bufs.frames.clear();
        bufs.scratch.clear();
        Machine {
            input,
            scanner: Scanner::new(input, 0),
            pos: 0,
            bufs,
            in_game: false,
            top: Frame::default(),
            game_start: 0,
            game_has_root: false,
            games: 0,
            mode: ValueMode::Bytes,
            override_mode: options.charset.map(ValueMode::for_encoding),
            switch: RootSwitch::default(),
            done: false,
            started: false,
            next_id: 1,
            ids_per_game: false,
            stream_start: true,
            read_to: 0,
            pending_node: None,
            scanner_behind: false,
            plain_run: false,
            detected: None,
            decided: None,
            trial: None,
            utf8: Utf8Scan::default(),
        }
    }

    pub(crate) fn into_buffers(self) -> Buffers {
        self.bufs
    }

    /// Runs to the end of the input (or until `e` says stop).
    ///
    /// # Errors
    ///
    /// As [`Reader::next`].
    pub(crate) fn drive<E: Emit<'src>>(&mut self, e: &mut E) -> Result<()> {
        if !self.started {
            self.start()?;
        }
        if let Some((start, body)) = self.pending_node.take() {
            self.scanner.seek(body);
            self.node(e, start, body);
        }
        while !self.done && !e.stop() {
            self.step(e)?;
        }
        Ok(())
    }

    #[inline(always)]
    pub(crate) fn warn(&mut self, kind: WarningKind, offset: usize) {
        self.bufs.diag.warn(self.input, kind, offset);
    }

    /// Reads one token's worth of input, emitting what it decides.
    #[inline(always)]
    pub(crate) fn step<E: Emit<'src>>(&mut self, e: &mut E) -> Result<()> {
        self.plain_run = false;
        if self.scanner_behind {
            self.scanner_behind = false;
            self.scanner.seek(self.pos);
        }
        let result = self.step_inner(e);
        if self.bufs.diag.error.is_some() {
            return self.fail();
        }
        result
    }

    /// Checks the input's size and skips a byte order mark.
    #[cold]
    pub(crate) fn start(&mut self) -> Result<()> {
        let input = self.input;
        self.started = true;
        if input.len() >= u32::MAX as usize {
            self.done = true;
            return Err(Error::at(ErrorKind::InputTooLarge, input, 0));
        }
        // What starts like SGF (`(` after a BOM or whitespace, not UTF-16)
        // is read as SGF; anything else is sniffed for what it is.
        let first = input
            .iter()
            .position(|&b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0xEF | 0xBB | 0xBF));
        let sgf_like =
            first.is_some_and(|i| input[i] == b'(' && input.get(i + 1).is_some_and(|&b| b != 0));
        if self.stream_start && !sgf_like {
            let content = crate::sniff::sniff(&input[..input.len().min(crate::sniff::SNIFF_LEN)]);
            // A record of another format reaches the events only unconverted
            // (the stream parser converts it first): refused by its name.
            if !content.is_text() || content.foreign().is_some() {
                self.done = true;
                let what = content.description();
                // Placed at its first byte that is not whitespace.
                let at = input
                    .iter()
                    .position(|&b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
                let at = at.unwrap_or(0);
                return Err(Error::at(ErrorKind::NotText { what }, input, at));
            }
        }
        if self.stream_start && input.starts_with(b"\xEF\xBB\xBF") {
            self.warn(WarningKind::Bom, 0);
            self.pos = 3;
            self.scanner.seek(3);
        }
        Ok(())
    }

    /// Stops on the error a warning became (strict mode).
    #[cold]
    pub(crate) fn fail(&mut self) -> Result<()> {
        self.done = true;
        match self.bufs.diag.error.take() {
            Some(err) => Err(err),
            None => Ok(()),
        }
    }
    #[inline(always)]
    pub(crate) fn step_inner<E: Emit<'src>>(&mut self, e: &mut E) -> Result<()> {
        let input = self.input;
        {
            if !self.in_game {
                match self.find_game() {
                    None => {
                        self.done = true;
                        if self.games == 0 {
                            return Err(Error::at(ErrorKind::NoGameTree, input, input.len()));
                        }
                    }
                    Some(at) => {
                        self.open_game(at);
                        if input[at] == b'(' {
                            self.scanner.next_structural();
                            self.pos = at + 1;
                        } else {
                            self.warn(WarningKind::MissingOpenParen, at);
                            self.pos = at;
                        }
                    }
                }
                return Ok(());
            }
            let at = self.scanner.peek().unwrap_or(input.len());
            match input.get(at) {
                Some(b';') => {
                    self.check_gap(self.pos, at);
                    self.scanner.next_structural();
                    self.node(e, at, at + 1);
                }
                Some(b'[') => {
                    // The node lexer reports what is wrong with the
                    // identifier itself; here only what stands before it.
                    let mut sink = DiagSink {
                        diag: &mut self.bufs.diag,
                        input,
                    };
                    let gap = read_gap(input, self.pos, at, &mut NotIdent(&mut sink));
                    match gap.ident {
                        Some((start, _)) => {
                            self.warn(WarningKind::MissingSemicolon, start);
                            self.node(e, start, start);
                        }
                        None => {
                            self.warn(WarningKind::ValueWithoutIdent, at);
                            self.scanner.next_structural();
                            let mut sink = DiagSink {
                                diag: &mut self.bufs.diag,
                                input,
                            };
                            self.pos = skip_values(&mut self.scanner, at, self.mode, &mut sink);
                        }
                    }
                }
                Some(b'(') => {
                    self.check_gap(self.pos, at);
                    self.scanner.next_structural();
                    self.pos = at + 1;
                    if resync_point(input, at) {
                        self.warn(WarningKind::GameResync, at);
                        if self.close_game(e, at) {
                            self.open_game(at);
                        }
                        return Ok(());
                    }
                    let next = skip_space(input, self.pos);
                    if input.get(next) == Some(&b')') {
                        self.warn(WarningKind::EmptyVariation, at);
                        self.pos = next + 1;
                        self.scanner.seek(self.pos);
                        return Ok(());
                    }
                    if self.empty_run_full() {
                        // A run of `(` with no node: past the first few,
                        // junk, skipped with one warning (each would hold
                        // a frame, 20 bytes a byte of input).
                        self.warn(WarningKind::UnexpectedByte, at);
                        let mut p = self.pos;
                        while p < input.len() && (input[p] == b'(' || is_space(input[p])) {
                            p += 1;
                        }
                        self.pos = p;
                        self.scanner.seek(p);
                        return Ok(());
                    }
                    let top = self.top;
                    if top.cursor == 0 {
                        self.warn(WarningKind::DetachedVariation, at);
                    }
                    self.bufs.frames.push(top);
                    self.top = Frame {
                        cursor: top.cursor,
                        last_child: top.last_child,
                        first: 0,
                        sent: false,
                        open: at as u32,
                    };
                }
                Some(b')') => {
                    self.check_gap(self.pos, at);
                    self.scanner.next_structural();
                    self.pos = at + 1;
                    let frame = self.top;
                    match self.bufs.frames.pop() {
                        None => {
                            self.close_game(e, self.pos);
                        }
                        Some(parent) => {
                            self.top = parent;
                            let top = &mut self.top;
                            // The variation's first node is now the last
                            // child of the node it hangs from; with no node of
                            // its own (`((;a))`), whatever its inner
                            // variations attached.
                            top.last_child = if frame.first != 0 {
                                frame.first
                            } else {
                                frame.last_child
                            };
                            if frame.sent {
                                e.variation_end(at);
                            }
                        }
                    }
                }
                Some(_) => {
                    // A stray `]` or `\` between nodes.
                    self.check_gap(self.pos, at);
                    self.warn(WarningKind::UnexpectedByte, at);
                    self.scanner.next_structural();
                    self.pos = at + 1;
                }
                None => {
                    self.check_gap(self.pos, at);
                    self.warn(WarningKind::UnclosedGameTree, at);
                    if !self.close_game(e, at) {
                        return Ok(());
                    }
                    self.done = true;
                    if self.games == 0 {
                        return Err(Error::at(ErrorKind::NoGameTree, input, input.len()));
                    }
                }
            }
        }
        Ok(())
    }

    /// Whether the innermost open variations, [`MAX_EMPTY_OPENS`] of them,
    /// all have no node yet: a further `(` is junk.
    fn empty_run_full(&self) -> bool {
        let empty = |f: &Frame| f.first == 0 && f.last_child == 0 && f.open != u32::MAX;
        let frames = &self.bufs.frames;
        empty(&self.top)
            && frames.len() >= MAX_EMPTY_OPENS
            && frames[frames.len() + 1 - MAX_EMPTY_OPENS..]
                .iter()
                .all(empty)
    }

    /// Reports what stands between two tokens inside a game where no
    /// identifier belongs.
    #[inline(always)]
    pub(crate) fn check_gap(&mut self, from: usize, to: usize) {
        if from != to {
            self.gap(from, to);
        }
    }

    #[inline(never)]
    pub(crate) fn gap(&mut self, from: usize, to: usize) {
        let input = self.input;
        let mut sink = DiagSink {
            diag: &mut self.bufs.diag,
            input,
        };
        let gap = read_gap(input, from, to, &mut sink);
        if let Some(ident) = gap.ident {
            crate::lexer::dangling_ident(input, ident, &mut sink);
        }
    }

    /// Outside any game: skips to the next `(` or `;` that starts a game and
    /// returns its offset, reporting what was skipped.
    pub(crate) fn find_game(&mut self) -> Option<usize> {
        let input = self.input;
        let mut junk_from = self.pos;
        loop {
            let Some(at) = self.scanner.peek() else {
                self.report_junk(junk_from, input.len());
                self.pos = input.len();
                return None;
            };
            let starts = match input[at] {
                b'(' => looks_like_tree(input, at),
                b';' => looks_like_ident_then_value(input, skip_space(input, at + 1)),
                b')' if input[junk_from..at].iter().all(|&b| is_space(b)) => {
                    self.report_junk(junk_from, at);
                    self.warn(WarningKind::ExtraCloseParen, at);
                    self.scanner.next_structural();
                    junk_from = at + 1;
                    continue;
                }
                _ => false,
            };
            if starts {
                self.report_junk(junk_from, at);
                return Some(at);
            }
            self.scanner.next_structural();
        }
    }

    /// Reports `input[from..to]`, skipped outside any game, unless it is all
    /// whitespace.
    pub(crate) fn report_junk(&mut self, from: usize, to: usize) {
        let junk = &self.input[from..to];
        if let Some(i) = junk.iter().position(|&b| !is_space(b)) {
            let kind = if self.games == 0 {
                WarningKind::JunkBeforeGame
            } else {
                WarningKind::JunkAfterGame
            };
            self.warn(kind, from + i);
        } else if let Some(i) = junk.iter().position(|&b| b == 0) {
            self.warn(WarningKind::NulByte, from + i);
        }
    }

    pub(crate) fn open_game(&mut self, at: usize) {
        self.in_game = true;
        self.bufs.frames.clear();
        self.top = Frame {
            open: u32::MAX,
            ..Frame::default()
        };
        self.mode = self.override_mode.unwrap_or_default();
        self.game_start = at;
        self.game_has_root = false;
    }

    /// Ends the current game at `end`: queues its end, or warns that it
    /// had no node. Returns false when the game, read on trial, is to be
    /// read again instead (the machine is back at its root).
    pub(crate) fn close_game<E: Emit<'src>>(&mut self, e: &mut E, end: usize) -> bool {
        self.in_game = false;
        // Variations still open end where the game is cut off.
        loop {
            if self.top.sent {
                e.variation_end(end);
            }
            match self.bufs.frames.pop() {
                Some(frame) => self.top = frame,
                None => break,
            }
        }
        self.top = Frame::default();
        if self.game_has_root {
            return self.end_game(e, Span::new(self.game_start, end));
        }
        self.warn(WarningKind::EmptyGameTree, self.game_start);
        true
    }

    /// Hands the end of the game `span` on, unless the game was read on
    /// trial and is to be read again: returns false then.
    #[inline(always)]
    pub(crate) fn end_game<E: Emit<'src>>(&mut self, e: &mut E, span: Span) -> bool {
        if self.trial.is_some() && self.retry(e, span.end) {
            return false;
        }
        e.game_end(span, &mut self.bufs.diag);
        true
    }

    /// Reads the node starting at `start` whose properties start at `body`
    /// and hands it on (after the game events it implies).
    #[inline(always)]
    pub(crate) fn node<E: Emit<'src>>(&mut self, e: &mut E, start: usize, body: usize) {
        // A node read as a variation's first turns out to be the root of a
        // new game at most once; then it is read again, as a root.
        if self.node_once(e, start, body) {
            self.node_once(e, start, body);
        }
    }

    /// [`Machine::node`], once: returns whether the node must be read again.
    #[inline(always)]
    pub(crate) fn node_once<E: Emit<'src>>(
        &mut self,
        e: &mut E,
        start: usize,
        body: usize,
    ) -> bool {
        let top = self.top;
        if top.cursor == 0 {
            self.root_node(e, start, body);
            return false;
        }
        if top.last_child != 0 && top.first != 0 {
            self.warn(WarningKind::NodeAfterVariation, start);
        }
        // The first node of a variation (sent after its `VariationStart`), or
        // a node after variations (which a writer puts in a variation of its
        // own): when it holds a property only a root may hold, it is the root
        // of a new game instead (a file cut off, the next one appended).
        let first_of_variation = top.first == 0 && top.open != u32::MAX;
        let checked = first_of_variation || top.last_child != 0;
        let mark = checked.then(|| self.bufs.diag.mark());
        let id = self.next_id;
        self.next_id = id.wrapping_add(1);
        let links = Links {
            id,
            parent: top.cursor,
            prev_sibling: top.last_child,
        };
        let input = self.input;
        if !checked && self.mode == ValueMode::Bytes {
            // Nearly every node: one short property, read by the fast path.
            if let Some((ident, value, end)) = simple_node(input, body) {
                self.scanner.seek(end);
                self.place(id, end);
                let simple = SimpleNode {
                    span: Span::new(start, end),
                    ident,
                    value,
                    links,
                };
                e.simple_node(self.simple_event(simple), links, value);
                if input.get(end) == Some(&b';') && e.run_on() {
                    self.run(e, end);
                }
                return false;
            }
        }
        let mut simple = None;
        let end = match (self.mode == ValueMode::Bytes)
            .then(|| simple_node(input, body))
            .flatten()
        {
            Some((ident, value, end)) => {
                self.scanner.seek(end);
                simple = Some((ident, value));
                end
            }
            None => self.lex(body, false),
        };
        if let Some(mark) = mark {
            if self.holds_root_property(simple) {
                self.bufs.diag.rollback(mark);
                self.next_id = id;
                self.scanner.rewind(body);
                // Cut at the variation's `(`, unless variations inside it
                // already hold nodes of the open game: then at this node.
                let open = if first_of_variation && top.last_child == 0 {
                    top.open as usize
                } else {
                    start
                };
                self.warn(WarningKind::GameResync, open);
                // Read this far to decide (a reader over a stream needs to know).
                self.read_to = self.read_to.max(end);
                if !self.close_game(e, open) {
                    return false;
                }
                self.open_game(open);
                if e.stop() {
                    // Taken up in the new game, opened at its `(` (or at
                    // this node), with this node read again as its root:
                    // as a reader that goes on would read it. (Taken up
                    // from the `(` between games instead, a `(` with no
                    // `;` after it would read as junk there.)
                    self.pos = start;
                    self.pending_node = Some((start, body));
                    return false;
                }
                return true;
            }
            if first_of_variation {
                self.top.sent = true;
                e.variation_start(top.open as usize);
            }
        }
        self.place(id, end);
        let node = NodeEvent {
            input,
            scratch: &self.bufs.scratch,
            span: Span::new(start, end),
            root: false,
            switch: self.switch,
            simple,
            links,
        };
        e.node(node);
        false
    }

    /// Makes node `id`, read up to `end`, the current node of the innermost
    /// open sequence (its first node when it has none yet).
    #[inline(always)]
    fn place(&mut self, id: u32, end: usize) {
        let top = &mut self.top;
        if top.first == 0 {
            top.first = id;
        }
        top.cursor = id;
        top.last_child = 0;
        self.pos = end;
    }

    /// Reads a run of simple nodes, each the only child of the one before
    /// (`;B[pd];W[dp]…`), from the `;` at `at`, with the scanner left alone
    /// until the run ends. Stops before the first node of any other shape,
    /// at its `;`, for the general step to read.
    #[inline(always)]
    fn run<E: Emit<'src>>(&mut self, e: &mut E, mut at: usize) {
        let (taken, end) = e.simple_run(self.input, at, self.next_id);
        if taken > 0 {
            let last = self.next_id.wrapping_add(taken - 1);
            self.next_id = last.wrapping_add(1);
            self.top.cursor = last;
            self.pos = end;
            at = end;
            if self.input.get(at) != Some(&b';') || !e.run_on() {
                self.scanner.seek(at);
                return;
            }
        }
        while let Some(s) = self.take_simple(at) {
            e.simple_node(self.simple_event(s), s.links, s.value);
            at = s.span.end;
            if self.input.get(at) != Some(&b';') || !e.run_on() {
                break;
            }
        }
        self.scanner.seek(at);
    }

    /// For the reader: the next node when it is a simple one that needs no
    /// decision of the general step (nothing pending, no game on trial, no
    /// gap before its `;`, not a root, not the first node of a variation,
    /// not after variations, values read byte by byte). The machine moves
    /// past it.
    #[inline(always)]
    pub(crate) fn next_simple(&mut self) -> Option<SimpleNode> {
        if self.plain_run {
            // Right after another: only the `;` is left to see.
            if self.input.get(self.pos) != Some(&b';') {
                return None;
            }
            return self.take_simple(self.pos);
        }
        let top = self.top;
        let plain = self.in_game
            && !self.done
            && self.trial.is_none()
            && self.pending_node.is_none()
            && self.mode == ValueMode::Bytes
            && top.cursor != 0
            && top.last_child == 0
            && top.first != 0
            && self.input.get(self.pos) == Some(&b';')
            && (self.scanner_behind || self.scanner.peek() == Some(self.pos));
        if !plain {
            return None;
        }
        let s = self.take_simple(self.pos)?;
        // The scanner catches up when the general step runs next.
        self.scanner_behind = true;
        self.plain_run = true;
        Some(s)
    }

    /// Reads the simple node whose `;` is at `at` as the next node of the
    /// current sequence: such a node cannot start a game or change the
    /// structure, and gives no warning. Moves `pos`, not the scanner.
    #[inline(always)]
    fn take_simple(&mut self, at: usize) -> Option<SimpleNode> {
        let (ident, value, end) = simple_node(self.input, at + 1)?;
        let id = self.next_id;
        self.next_id = id.wrapping_add(1);
        let links = Links {
            id,
            parent: self.top.cursor,
            prev_sibling: 0,
        };
        self.top.cursor = id;
        self.pos = end;
        Some(SimpleNode {
            span: Span::new(at, end),
            ident,
            value,
            links,
        })
    }

    /// The node event of a simple node.
    #[inline(always)]
    pub(crate) fn simple_event(&self, s: SimpleNode) -> NodeEvent<'_, 'src> {
        NodeEvent {
            input: self.input,
            scratch: &self.bufs.scratch,
            span: s.span,
            root: false,
            switch: self.switch,
            simple: Some((s.ident, s.value)),
            links: s.links,
        }
    }

    /// Reads the node at `start` (properties from `body`) as the root of a
    /// game, after the game events it implies.
    #[inline(never)]
    pub(crate) fn root_node<E: Emit<'src>>(&mut self, e: &mut E, start: usize, body: usize) {
        if !self.start_root(e, start, body) {
            return;
        }
        let id = self.next_id;
        self.next_id = id.wrapping_add(1);
        let links = Links {
            id,
            parent: 0,
            prev_sibling: 0,
        };
        let end = self.lex(body, true);
        if self.root_read(e) {
            return;
        }
        self.place(id, end);
        let node = NodeEvent {
            input: self.input,
            scratch: &self.bufs.scratch,
            span: Span::new(start, end),
            root: true,
            switch: self.switch,
            simple: None,
            links,
        };
        e.node(node);
    }

    /// Before a root is read: ends the game before it when that one has a
    /// root already (a second variation with no node above it is a game of
    /// its own), chooses how the new game's values are read and starts it.
    /// Returns false when the root is not to be read now.
    #[inline(never)]
    pub(crate) fn start_root<E: Emit<'src>>(
        &mut self,
        e: &mut E,
        start: usize,
        body: usize,
    ) -> bool {
        if self.game_has_root {
            if !self.end_game(e, Span::new(self.game_start, start)) {
                return false;
            }
            self.game_start = start;
            self.game_has_root = false;
            if e.stop() {
                // Taken up from here: this node is the next game's root.
                self.pos = start;
                self.pending_node = Some((start, body));
                return false;
            }
        }
        self.choose_charset(e, start, body);
        self.game_has_root = true;
        self.games += 1;
        if self.ids_per_game {
            self.next_id = 1;
        }
        e.game_start(self.game_start);
        true
    }

    /// Whether the node just read holds a property only a root may hold.
    #[cold]
    pub(crate) fn holds_root_property(&self, simple: Option<(Span32, Span32)>) -> bool {
        let input = self.input;
        let scratch = &self.bufs.scratch;
        let is_root_only =
            |name: &[u8]| matches!(name, b"GM" | b"FF" | b"CA" | b"AP" | b"ST" | b"SZ");
        match simple {
            Some((ident, _)) => is_root_only(&input[ident.range()]),
            None => scratch
                .props
                .iter()
                .any(|p| is_root_only(p.name_bytes(input, &scratch.names))),
        }
    }

    pub(crate) fn lex(&mut self, body: usize, root: bool) -> usize {
        let input = self.input;
        self.bufs.scratch.clear();
        let mut sink = DiagSink {
            diag: &mut self.bufs.diag,
            input,
        };
        if root {
            // A root met after a detached variation starts afresh too. An
            // override, or the charset detected for a game without `CA`,
            // fixes the mode from the root's first value on.
            let fixed = self.override_mode.or_else(|| {
                self.detected
                    .map(|charset| ValueMode::for_encoding(charset.encoding()))
            });
            self.mode = fixed.unwrap_or_default();
            self.switch = RootSwitch {
                mode: self.mode,
                from: if fixed.is_some() { body } else { usize::MAX },
                detected: self.detected,
            };
            let end = lex_node(
                &mut self.scanner,
                body,
                self.mode,
                Some(&mut self.switch),
                fixed.is_some(),
                &mut self.bufs.scratch,
                &mut sink,
            );
            self.mode = self.switch.mode;
            end
        } else {
            lex_node(
                &mut self.scanner,
                body,
                self.mode,
                None,
                true,
                &mut self.bufs.scratch,
                &mut sink,
            )
        }
    }
}

/// Whether the `(` at `at` opens a game tree: it is followed (after
/// whitespace) by `;`, `(`, `)`, `[` or an identifier and `[`.
pub(crate) fn looks_like_tree(input: &[u8], at: usize) -> bool {
    let i = skip_space(input, at + 1);
    match input.get(i) {
        Some(b';' | b'(' | b')' | b'[') => true,
        Some(_) => looks_like_ident_then_value(input, i),
        None => false,
    }
}
