//! Stage two: events. A pull reader over `&[u8]` that builds no tree.
//!
//! [`Reader::next`] hands out, in file order, the start and end of each game,
//! the start and end of each variation, and each node with its properties
//! and their values (borrowed `&[u8]` slices of the input, still escaped),
//! each with its byte span. Every recovery lives here, once: junk around
//! games, a new game that starts inside an unfinished one, unbalanced
//! trees, values cut off by the end of the input, stray bytes. The
//! warnings are exactly those the tree builder reports, because the tree
//! builder ([`Parser`](crate::Parser)) is a consumer of these events.
//!
//! ```text
//!            ┌──────── `(`, `;` (+ root ident) ────────┐
//!   outside ─┤                                         ├─▶ in game ── `)` at depth 0 ─▶ outside
//!   (junk is │◀──── end of input / last `)` ───────────┘     │  `(` variation start, `)` end
//!   skipped) │                                               │  `;` or an identifier: a node
//!            └── `(;` and a root property inside a game: ────┘
//!                a new game (the open one is closed there)
//! ```
//!
//! A caller that wants only the game information reads the first node of
//! each game and calls [`Reader::skip_game`]: the rest of the game is
//! read but not handed out.
//!
//! ```
//! use sgf_grove::events::{Event, Reader};
//! let input = b"(;GM[1]PB[Lee]PW[Cho];B[pd];W[dd])\n(;GM[1]PB[Iyama];B[qd])";
//! let mut reader = Reader::new(input);
//! let mut black_players = Vec::new();
//! while let Some(event) = reader.next()? {
//!     if let Event::Node(node) = event {
//!         if node.is_root() {
//!             black_players.extend(node.get("PB").map(|v| v.raw().to_vec()));
//!             reader.skip_game()?;
//!         }
//!     }
//! }
//! assert_eq!(black_players, [b"Lee".to_vec(), b"Iyama".to_vec()]);
//! # Ok::<(), sgf_grove::Error>(())
//! ```
//!
//! The reader is no [`Iterator`]: a node event lends the reader's scratch
//! space (its properties), which the next call overwrites, so that reading
//! allocates nothing once warm.

mod diag;
pub(crate) mod node;

pub(crate) use diag::Diag;
use diag::{DiagSink, NotIdent};
pub(crate) use node::{flag, PropTok, Scratch, Span32};

use crate::error::{Error, ErrorKind, Result, Warning, WarningKind};
use crate::lexer::{
    is_space, looks_like_ident_then_value, read_gap, resync_point, skip_space, Scanner, ValueMode,
};
use crate::span::Span;
use crate::tree::ParseOptions;
use node::{lex_node, simple_node, skip_values, RootSwitch};

/// One event of a [`Reader`].
#[derive(Debug)]
pub enum Event<'r, 'src> {
    /// A game tree starts at `offset` (its `(`, or its first `;` when the
    /// `(` is missing). Sent just before its first node: a game tree with
    /// no node (`()`) sends no event.
    GameStart {
        /// Where the game tree starts.
        offset: usize,
    },
    /// The game tree ends: `span` runs from its start to just after its `)`
    /// (or to where it was cut off).
    GameEnd {
        /// The bytes of the game tree.
        span: Span,
    },
    /// A variation (`(` inside a game tree, under a node) starts at `offset`.
    VariationStart {
        /// Where its `(` is.
        offset: usize,
    },
    /// The variation opened by the last unmatched
    /// [`VariationStart`](Event::VariationStart) ends at `offset` (its `)`,
    /// or where the game was cut off).
    VariationEnd {
        /// Where its `)` is.
        offset: usize,
    },
    /// A node with its properties.
    Node(NodeEvent<'r, 'src>),
}

/// A node, as a [`Reader`] hands it out: its span and its properties, each
/// with its values, borrowed from the input.
#[derive(Clone, Copy)]
pub struct NodeEvent<'r, 'src> {
    input: &'src [u8],
    scratch: &'r Scratch,
    span: Span,
    root: bool,
    switch: RootSwitch,
    /// A node of one simple property (identifier, value), read by the fast
    /// path: the scratch space is not used.
    simple: Option<(Span32, Span32)>,
    links: Links,
}

/// Where a node goes in the tree, as ids counted from 1 in file order (per
/// game when the tree is built one game at a time); 0 is none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Links {
    pub(crate) id: u32,
    pub(crate) parent: u32,
    /// The sibling it follows (0: it is its parent's first child).
    pub(crate) prev_sibling: u32,
}

impl std::fmt::Debug for NodeEvent<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NodeEvent")
            .field("span", &self.span)
            .field("root", &self.root)
            .field("properties", &self.properties().collect::<Vec<_>>())
            .finish()
    }
}

impl<'r, 'src: 'r> NodeEvent<'r, 'src> {
    pub(crate) fn scratch(&self) -> &'r Scratch {
        self.scratch
    }

    /// Where the node goes in the tree.
    #[inline(always)]
    pub(crate) fn links(&self) -> Links {
        self.links
    }

    /// The identifier and value of a node of one simple property.
    #[inline(always)]
    pub(crate) fn simple(&self) -> Option<(Span32, Span32)> {
        self.simple
    }

    /// For a root: how the game's values are read after its `CA`, and from
    /// where.
    pub(crate) fn root_switch(&self) -> RootSwitch {
        self.switch
    }

    /// The bytes of the node: from its `;` (or first identifier) to just
    /// before the `;`, `(` or `)` that ends it (whitespace included).
    pub fn span(&self) -> Span {
        self.span
    }

    /// Offset of the node's `;`, or of its first identifier when the `;`
    /// is missing.
    pub fn offset(&self) -> usize {
        self.span.start
    }

    /// Whether the node is the root of its game tree.
    pub fn is_root(&self) -> bool {
        self.root
    }

    /// Every occurrence of every property, in file order. A property
    /// repeated in the node comes once per occurrence; later ones say so
    /// ([`PropEvent::is_repeat`]), and the tree merges their values into the
    /// first.
    pub fn properties(&self) -> PropEvents<'r, 'src> {
        PropEvents {
            node: *self,
            next: 0,
        }
    }

    /// The first value of the first occurrence of property `ident`
    /// (normalised: `"CP"` also finds `CoPyright`).
    pub fn get(&self, ident: &str) -> Option<EventValue<'src>> {
        self.properties()
            .find(|p| p.ident() == ident)
            .and_then(|p| p.values().next())
    }
}

/// The property occurrences of a [`NodeEvent`].
#[derive(Clone, Debug)]
pub struct PropEvents<'r, 'src> {
    node: NodeEvent<'r, 'src>,
    next: usize,
}

impl<'r, 'src: 'r> Iterator for PropEvents<'r, 'src> {
    type Item = PropEvent<'r, 'src>;
    fn next(&mut self) -> Option<Self::Item> {
        let tok = match self.node.simple {
            Some((ident, _)) if self.next == 0 => PropTok {
                ident,
                name: ident,
                values: 0,
                count: 1,
                next: 0,
                flags: 0,
            },
            Some(_) => return None,
            None => *self.node.scratch.props.get(self.next)?,
        };
        self.next += 1;
        Some(PropEvent {
            node: self.node,
            tok,
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let all = match self.node.simple {
            Some(_) => 1,
            None => self.node.scratch.props.len(),
        };
        let n = all.saturating_sub(self.next);
        (n, Some(n))
    }
}

impl<'r, 'src: 'r> ExactSizeIterator for PropEvents<'r, 'src> {}
impl<'r, 'src: 'r> std::iter::FusedIterator for PropEvents<'r, 'src> {}

/// One occurrence of a property in a [`NodeEvent`].
#[derive(Clone, Copy)]
pub struct PropEvent<'r, 'src> {
    node: NodeEvent<'r, 'src>,
    tok: PropTok,
}

impl std::fmt::Debug for PropEvent<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PropEvent")
            .field("ident", &self.ident())
            .field(
                "values",
                &self.values().map(|v| v.raw()).collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl<'r, 'src: 'r> PropEvent<'r, 'src> {
    /// The normalised identifier (`CP` for `CoPyright`).
    pub fn ident(&self) -> &'r str {
        let bytes = self
            .tok
            .name_bytes(self.node.input, &self.node.scratch.names);
        // Normalised identifiers are upper-case ASCII letters.
        std::str::from_utf8(bytes).unwrap_or("")
    }

    /// The normalised identifier's bytes.
    pub(crate) fn ident_bytes(&self) -> &'r [u8] {
        self.tok
            .name_bytes(self.node.input, &self.node.scratch.names)
    }

    /// The identifier as written.
    pub fn ident_raw(&self) -> &'src [u8] {
        &self.node.input[self.tok.ident.range()]
    }

    /// Where the identifier as written is.
    pub fn ident_span(&self) -> Span {
        self.tok.ident.span()
    }

    /// Whether the property already occurred earlier in the node.
    pub fn is_repeat(&self) -> bool {
        self.tok.has(flag::REPEAT)
    }

    /// Whether the last value was cut off by the end of the input or by the
    /// start of the next game, instead of closed by its `]`.
    pub fn is_cut(&self) -> bool {
        self.tok.has(flag::CUT)
    }

    /// The values of this occurrence, in file order.
    pub fn values(&self) -> EventValues<'r, 'src> {
        let from = self.tok.values as usize;
        let (one, rest): (Option<Span32>, &'r [Span32]) = match self.node.simple {
            Some((_, value)) => (Some(value), &[]),
            None => (
                None,
                &self.node.scratch.values[from..from + self.tok.count as usize],
            ),
        };
        EventValues {
            input: self.node.input,
            one,
            rest: rest.iter(),
        }
    }
}

/// The values of a [`PropEvent`], from [`PropEvent::values`].
#[derive(Clone, Debug)]
pub struct EventValues<'r, 'src> {
    input: &'src [u8],
    one: Option<Span32>,
    rest: std::slice::Iter<'r, Span32>,
}

impl<'src> Iterator for EventValues<'_, 'src> {
    type Item = EventValue<'src>;
    fn next(&mut self) -> Option<Self::Item> {
        let s = match self.one.take() {
            Some(s) => s,
            None => *self.rest.next()?,
        };
        Some(EventValue {
            raw: &self.input[s.range()],
            span: s.span(),
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.one.is_some() as usize + self.rest.len();
        (n, Some(n))
    }
}

impl ExactSizeIterator for EventValues<'_, '_> {}
impl std::iter::FusedIterator for EventValues<'_, '_> {}

/// One value in an event: the bytes as written, escapes and all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventValue<'src> {
    raw: &'src [u8],
    span: Span,
}

impl<'src> EventValue<'src> {
    /// The value's bytes as written, without the brackets.
    pub fn raw(&self) -> &'src [u8] {
        self.raw
    }
    /// Where the value's bytes are.
    pub fn span(&self) -> Span {
        self.span
    }
}

/// One open `(` of the current game, as far as structure goes: whether a
/// node stands above it, whether it holds a node of its own, whether a
/// variation inside it has closed since its last node. The tree builder
/// keeps the same three facts as node ids.
#[derive(Clone, Copy, Debug, Default)]
struct Frame {
    /// The node the next node of this sequence attaches to (0 before the
    /// game's root).
    cursor: u32,
    /// The last child already attached to `cursor`, after which the next
    /// child is linked (0: none yet).
    last_child: u32,
    /// The first node of this frame (0: none yet).
    first: u32,
    /// Whether a `VariationStart` was sent for it.
    sent: bool,
    /// Where its `(` is (`u32::MAX` for a game's outer frame); its
    /// `VariationStart` is sent with its first node, once that node is known
    /// not to start a new game.
    open: u32,
}

/// Something decided but not yet handed out by a [`Reader`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Queued {
    GameStart(usize),
    GameEnd(Span),
    VariationStart(usize),
    VariationEnd(usize),
    Node(Span, bool, RootSwitch, Option<(Span32, Span32)>, Links),
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
    /// Whether to stop reading (an error, or the caller has seen enough).
    fn stop(&self) -> bool {
        false
    }
}

/// The queue of a [`Reader`]: a ring of events decided but not yet handed
/// out (a node's properties stay in the machine's scratch space).
#[derive(Debug, Default)]
struct Queue {
    events: std::collections::VecDeque<Queued>,
}

impl Queue {
    #[inline(always)]
    fn push(&mut self, q: Queued) {
        self.events.push_back(q);
    }
    #[inline(always)]
    fn pop(&mut self) -> Option<Queued> {
        self.events.pop_front()
    }
    #[inline(always)]
    fn is_empty(&self) -> bool {
        self.events.is_empty()
    }
}

impl<'src> Emit<'src> for Queue {
    fn game_start(&mut self, offset: usize) {
        self.push(Queued::GameStart(offset));
    }
    fn game_end(&mut self, span: Span, _: &mut Diag) {
        self.push(Queued::GameEnd(span));
    }
    fn variation_start(&mut self, offset: usize) {
        self.push(Queued::VariationStart(offset));
    }
    fn variation_end(&mut self, offset: usize) {
        self.push(Queued::VariationEnd(offset));
    }
    fn node(&mut self, node: NodeEvent<'_, 'src>) {
        self.push(Queued::Node(
            node.span,
            node.root,
            node.switch,
            node.simple,
            node.links,
        ));
    }
}

/// Reusable storage of a [`Reader`]: the tree builder keeps one between
/// inputs so that reading allocates nothing once warm.
#[derive(Debug, Default)]
pub(crate) struct Buffers {
    pub(crate) scratch: Scratch,
    pub(crate) diag: Diag,
    frames: Vec<Frame>,
}

impl Buffers {
    pub(crate) fn heap_bytes(&self) -> usize {
        self.scratch.heap_bytes()
            + self.diag.list.capacity() * std::mem::size_of::<Warning>()
            + self.frames.capacity() * std::mem::size_of::<Frame>()
    }
}

/// A pull reader of [`Event`]s over an input in memory. See the
/// [module docs](self).
#[derive(Debug)]
pub struct Reader<'src> {
    m: Machine<'src>,
    queue: Queue,
}

impl<'src> Reader<'src> {
    /// A reader of `input` with default options (lenient).
    pub fn new(input: &'src [u8]) -> Reader<'src> {
        Reader::with_options(input, &ParseOptions::default())
    }

    /// A reader of `input` with `options` (strict mode, the warning cap,
    /// a charset override, which decides how values are split).
    pub fn with_options(input: &'src [u8], options: &ParseOptions) -> Reader<'src> {
        Reader {
            m: Machine::new(input, options, Buffers::default()),
            queue: Queue::default(),
        }
    }

    /// The input read.
    pub fn input(&self) -> &'src [u8] {
        self.m.input
    }

    /// The warnings so far, in file order.
    pub fn warnings(&self) -> &[Warning] {
        &self.m.bufs.diag.list
    }

    /// How many warnings of `kind` were found so far, kept or not.
    pub fn warning_count(&self, kind: WarningKind) -> usize {
        self.m.bufs.diag.counts[kind as usize] as usize
    }

    /// How many warnings were counted but not kept because of
    /// [`ParseOptions::max_warnings`].
    pub fn warnings_dropped(&self) -> usize {
        self.m.bufs.diag.dropped
    }

    /// The next event, or `None` at the end of the input.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NoGameTree`] at the end of an input that held no game;
    /// in strict mode, the first defect, as
    /// [`ErrorKind::Strict`].
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Option<Event<'_, 'src>>> {
        if !self.m.started {
            self.m.start()?;
        }
        while self.queue.is_empty() && !self.m.done {
            self.m.step(&mut self.queue)?;
        }
        let Some(q) = self.queue.pop() else {
            return Ok(None);
        };
        Ok(Some(match q {
            Queued::GameStart(offset) => Event::GameStart { offset },
            Queued::GameEnd(span) => Event::GameEnd { span },
            Queued::VariationStart(offset) => Event::VariationStart { offset },
            Queued::VariationEnd(offset) => Event::VariationEnd { offset },
            Queued::Node(span, root, switch, simple, links) => Event::Node(NodeEvent {
                input: self.m.input,
                scratch: &self.m.bufs.scratch,
                span,
                root,
                switch,
                simple,
                links,
            }),
        }))
    }

    /// Skips the rest of the current game tree, reading only its structure
    /// (no property is kept), up to and including its
    /// [`GameEnd`](Event::GameEnd).
    ///
    /// # Errors
    ///
    /// As [`Reader::next`].
    pub fn skip_game(&mut self) -> Result<()> {
        self.skip(0)
    }

    /// Skips the rest of the current variation (or game tree, at its top
    /// level), reading only its structure, up to and including its
    /// [`VariationEnd`](Event::VariationEnd) (or
    /// [`GameEnd`](Event::GameEnd)).
    ///
    /// # Errors
    ///
    /// As [`Reader::next`].
    pub fn skip_variation(&mut self) -> Result<()> {
        let depth = self.m.bufs.frames.len();
        self.skip(depth)
    }

    fn skip(&mut self, depth: usize) -> Result<()> {
        if !self.m.in_game && self.queue.is_empty() {
            return Ok(());
        }
        let result = loop {
            let variation_end = match self.next() {
                Err(e) => break Err(e),
                Ok(None) | Ok(Some(Event::GameEnd { .. })) => break Ok(()),
                Ok(Some(Event::VariationEnd { .. })) => true,
                Ok(Some(_)) => false,
            };
            if variation_end && self.m.bufs.frames.len() < depth {
                break Ok(());
            }
        };
        result
    }
}

/// The state machine under [`Reader`] and the tree builder.
#[derive(Debug)]
pub(crate) struct Machine<'src> {
    input: &'src [u8],
    scanner: Scanner<'src>,
    /// Everything before it has been read.
    pub(crate) pos: usize,
    pub(crate) bufs: Buffers,
    /// Inside a game (its frames are open).
    in_game: bool,
    /// The innermost open `(` of the current game; the others are in
    /// `bufs.frames`, outermost first.
    top: Frame,
    /// The current game: where it started, whether it has a root.
    game_start: usize,
    game_has_root: bool,
    /// Games started so far (for `JunkBeforeGame` vs `JunkAfterGame`).
    pub(crate) games: usize,
    /// Whether the input is the start of the stream (a byte order mark is
    /// looked for only there).
    pub(crate) stream_start: bool,
    /// How the current game's values are read.
    mode: ValueMode,
    override_mode: Option<ValueMode>,
    /// The root switch of the current game.
    switch: RootSwitch,
    pub(crate) done: bool,
    started: bool,
    /// The id of the next node.
    next_id: u32,
    /// Whether ids start again at 1 with each game.
    pub(crate) ids_per_game: bool,
    /// How far any decision read (when further than `pos`).
    pub(crate) read_to: usize,
    /// A node to read first (after a game ended before its root was read).
    pending_node: Option<(usize, usize)>,
}

/// What a machine carries from one stretch of a stream to the next: its
/// state when a game ended, with offsets counted from where that game
/// ended (the start of the next stretch).
#[derive(Clone, Debug, Default)]
pub(crate) struct Resume {
    pos: usize,
    in_game: bool,
    game_start: usize,
    game_has_root: bool,
    pub(crate) games: usize,
    mode: ValueMode,
    switch: RootSwitch,
    frames: Vec<Frame>,
    top: Frame,
    pending_node: Option<(usize, usize)>,
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
    fn warn(&mut self, kind: WarningKind, offset: usize) {
        self.bufs.diag.warn(self.input, kind, offset);
    }

    /// Reads one token's worth of input, emitting what it decides.
    #[inline(always)]
    fn step<E: Emit<'src>>(&mut self, e: &mut E) -> Result<()> {
        let result = self.step_inner(e);
        if self.bufs.diag.error.is_some() {
            return self.fail();
        }
        result
    }

    /// Checks the input's size and skips a byte order mark.
    #[cold]
    fn start(&mut self) -> Result<()> {
        let input = self.input;
        self.started = true;
        if input.len() >= u32::MAX as usize {
            self.done = true;
            return Err(Error::at(ErrorKind::InputTooLarge, input, 0));
        }
        if self.stream_start {
            let content = crate::input::sniff(&input[..input.len().min(crate::input::SNIFF_LEN)]);
            if !content.is_text() {
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
    fn fail(&mut self) -> Result<()> {
        self.done = true;
        match self.bufs.diag.error.take() {
            Some(err) => Err(err),
            None => Ok(()),
        }
    }
    #[inline(always)]
    fn step_inner<E: Emit<'src>>(&mut self, e: &mut E) -> Result<()> {
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
                        self.close_game(e, at);
                        self.open_game(at);
                        return Ok(());
                    }
                    let next = skip_space(input, self.pos);
                    if input.get(next) == Some(&b')') {
                        self.warn(WarningKind::EmptyVariation, at);
                        self.pos = next + 1;
                        self.scanner.seek(self.pos);
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
                        None => self.close_game(e, self.pos),
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
                    self.close_game(e, at);
                    self.done = true;
                    if self.games == 0 {
                        return Err(Error::at(ErrorKind::NoGameTree, input, input.len()));
                    }
                }
            }
        }
        Ok(())
    }

    /// Reports what stands between two tokens inside a game where no
    /// identifier belongs.
    #[inline(always)]
    fn check_gap(&mut self, from: usize, to: usize) {
        if from != to {
            self.gap(from, to);
        }
    }

    #[inline(never)]
    fn gap(&mut self, from: usize, to: usize) {
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
    fn find_game(&mut self) -> Option<usize> {
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
    fn report_junk(&mut self, from: usize, to: usize) {
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

    fn open_game(&mut self, at: usize) {
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
    /// had no node.
    fn close_game<E: Emit<'src>>(&mut self, e: &mut E, end: usize) {
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
            e.game_end(Span::new(self.game_start, end), &mut self.bufs.diag);
        } else {
            self.warn(WarningKind::EmptyGameTree, self.game_start);
        }
    }

    /// Reads the node starting at `start` whose properties start at `body`
    /// and hands it on (after the game events it implies).
    #[inline(always)]
    fn node<E: Emit<'src>>(&mut self, e: &mut E, start: usize, body: usize) {
        // A node read as a variation's first turns out to be the root of a
        // new game at most once; then it is read again, as a root.
        if self.node_once(e, start, body) {
            self.node_once(e, start, body);
        }
    }

    /// [`Machine::node`], once: returns whether the node must be read again.
    #[inline(always)]
    fn node_once<E: Emit<'src>>(&mut self, e: &mut E, start: usize, body: usize) -> bool {
        let top = self.top;
        let root = top.cursor == 0;
        if root {
            if self.game_has_root {
                // A second variation with no node above it: a game of its own.
                e.game_end(Span::new(self.game_start, start), &mut self.bufs.diag);
                self.game_start = start;
                if e.stop() {
                    // Taken up from here: this node is the next game's root.
                    self.game_has_root = false;
                    self.pos = start;
                    self.pending_node = Some((start, body));
                    return false;
                }
            }
            self.game_has_root = true;
            self.games += 1;
            if self.ids_per_game {
                self.next_id = 1;
            }
            e.game_start(self.game_start);
        } else if top.last_child != 0 && top.first != 0 {
            self.warn(WarningKind::NodeAfterVariation, start);
        }
        // The first node of a variation (sent after its `VariationStart`), or
        // a node after variations (which a writer puts in a variation of its
        // own): when it holds a property only a root may hold, it is the root
        // of a new game instead (a file cut off, the next one appended).
        let first_of_variation = !root && top.first == 0 && top.open != u32::MAX;
        let checked = first_of_variation || (!root && top.last_child != 0);
        let mark = checked.then(|| self.bufs.diag.mark());
        let id = self.next_id;
        self.next_id = id.wrapping_add(1);
        let links = Links {
            id,
            parent: top.cursor,
            prev_sibling: if root { 0 } else { top.last_child },
        };
        let input = self.input;
        if !checked && !root && self.mode == ValueMode::Bytes {
            // Nearly every node: one short property, read by the fast path.
            if let Some((ident, value, end)) = simple_node(input, body) {
                self.scanner.seek(end);
                let top = &mut self.top;
                if top.first == 0 {
                    top.first = id;
                }
                top.cursor = id;
                top.last_child = 0;
                self.pos = end;
                let node = NodeEvent {
                    input,
                    scratch: &self.bufs.scratch,
                    span: Span::new(start, end),
                    root,
                    switch: self.switch,
                    simple: Some((ident, value)),
                    links,
                };
                e.simple_node(node, links, value);
                return false;
            }
        }
        let mut simple = None;
        let end = match (!root && self.mode == ValueMode::Bytes)
            .then(|| simple_node(input, body))
            .flatten()
        {
            Some((ident, value, end)) => {
                self.scanner.seek(end);
                simple = Some((ident, value));
                end
            }
            None => self.lex(body, root),
        };
        if let Some(mark) = mark {
            if self.holds_root_property(simple) {
                self.bufs.diag.rollback(mark);
                self.next_id = id;
                self.scanner.rewind(body);
                let open = if first_of_variation {
                    top.open as usize
                } else {
                    start
                };
                self.warn(WarningKind::GameResync, open);
                // Read this far to decide (a reader over a stream needs to know).
                self.read_to = self.read_to.max(end);
                self.close_game(e, open);
                if e.stop() {
                    // Taken up from the `(` (or the node) of the new game.
                    self.pos = open;
                    return false;
                }
                self.open_game(open);
                return true;
            }
            if first_of_variation {
                self.top.sent = true;
                e.variation_start(top.open as usize);
            }
        }
        let top = &mut self.top;
        if top.first == 0 {
            top.first = id;
        }
        top.cursor = id;
        top.last_child = 0;
        self.pos = end;
        let node = NodeEvent {
            input,
            scratch: &self.bufs.scratch,
            span: Span::new(start, end),
            root,
            switch: self.switch,
            simple,
            links,
        };
        e.node(node);
        false
    }

    /// Whether the node just read holds a property only a root may hold.
    #[cold]
    fn holds_root_property(&self, simple: Option<(Span32, Span32)>) -> bool {
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

    fn lex(&mut self, body: usize, root: bool) -> usize {
        let input = self.input;
        self.bufs.scratch.clear();
        let mut sink = DiagSink {
            diag: &mut self.bufs.diag,
            input,
        };
        if root {
            // A root met after a detached variation starts afresh too.
            self.mode = self.override_mode.unwrap_or_default();
            self.switch = RootSwitch {
                mode: self.mode,
                from: if self.override_mode.is_some() {
                    body
                } else {
                    usize::MAX
                },
            };
            let end = lex_node(
                &mut self.scanner,
                body,
                self.mode,
                Some(&mut self.switch),
                self.override_mode.is_some(),
                &mut self.bufs.scratch,
                &mut sink,
                true,
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
                true,
            )
        }
    }
}

/// Whether the `(` at `at` opens a game tree: it is followed (after
/// whitespace) by `;`, `(`, `)`, `[` or an identifier and `[`.
fn looks_like_tree(input: &[u8], at: usize) -> bool {
    let i = skip_space(input, at + 1);
    match input.get(i) {
        Some(b';' | b'(' | b')' | b'[') => true,
        Some(_) => looks_like_ident_then_value(input, i),
        None => false,
    }
}
