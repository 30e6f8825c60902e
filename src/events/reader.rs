//! The public pull reader: the state machine plus a queue of decided
//! events.

use super::*;

/// Something decided but not yet handed out by a [`Reader`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Queued {
    GameStart(usize),
    GameEnd(Span),
    VariationStart(usize),
    VariationEnd(usize),
    /// The node in [`Queue::node`] (a step hands out at most one, last).
    Node,
}

/// The queue of a [`Reader`]: a ring of events decided but not yet handed
/// out (a node's properties stay in the machine's scratch space).
#[derive(Debug, Default)]
pub(crate) struct Queue {
    pub(crate) events: std::collections::VecDeque<Queued>,
    /// The node of the last step: its span, whether it is a root, its
    /// game's charset switch, its one simple property, its links.
    pub(crate) node: (Span, bool, RootSwitch, Option<(Span32, Span32)>, Links),
    /// During a game's trial: what is emitted is dropped (the game is read
    /// again).
    pub(crate) discard: bool,
}

impl Queue {
    #[inline(always)]
    pub(crate) fn push(&mut self, q: Queued) {
        if !self.discard {
            self.events.push_back(q);
        }
    }
    #[inline(always)]
    pub(crate) fn pop(&mut self) -> Option<Queued> {
        self.events.pop_front()
    }
    #[inline(always)]
    pub(crate) fn is_empty(&self) -> bool {
        self.events.is_empty()
    }
}

impl<'src> Emit<'src> for Queue {
    #[inline(always)]
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
    #[inline(always)]
    fn node(&mut self, node: NodeEvent<'_, 'src>) {
        if self.discard {
            return;
        }
        self.node = (node.span, node.root, node.switch, node.simple, node.links);
        self.push(Queued::Node);
    }
    /// Nodes read on trial are dropped: they may come in runs.
    #[inline(always)]
    fn run_on(&self) -> bool {
        self.discard
    }
    // Events are handed out as they come and cannot be taken back.
    const KEEPS_TRIALS: bool = false;
    fn try_game(&mut self) {
        self.discard = true;
    }
    fn settle(&mut self, _keep: bool, _found: Option<crate::text::Charset>) {
        self.discard = false;
    }
}

/// Reusable storage of a [`Reader`]: the tree builder keeps one between
/// inputs so that reading allocates nothing once warm.
#[derive(Debug, Default)]
pub(crate) struct Buffers {
    pub(crate) scratch: Scratch,
    pub(crate) diag: Diag,
    pub(crate) frames: Vec<Frame>,
    /// The open frames at the root of a game read on trial.
    pub(crate) trial_frames: Vec<Frame>,
}

impl Buffers {
    pub(crate) fn heap_bytes(&self) -> usize {
        self.scratch.heap_bytes()
            + self.diag.list.capacity() * std::mem::size_of::<Warning>()
            + (self.frames.capacity() + self.trial_frames.capacity()) * std::mem::size_of::<Frame>()
    }
}

/// The storage of a [`Reader`], kept between inputs: a reader made with
/// [`Reader::with_storage`] and given back by [`Reader::into_storage`]
/// reads the next input in the room the last one grew, so that reading
/// many small inputs allocates nothing once warm (as a reused
/// [`Parser`](crate::Parser) does for trees).
///
/// ```
/// use sgf_grove::events::{Event, Reader, ReaderStorage};
/// use sgf_grove::ParseOptions;
///
/// let files: [&[u8]; 2] = [b"(;GM[1];B[pd];W[dp])", b"(;GM[1];B[qq])"];
/// let options = ParseOptions::default();
/// let mut storage = ReaderStorage::new();
/// let mut nodes = 0;
/// for input in files {
///     let mut reader = Reader::with_storage(input, &options, storage);
///     while let Some(event) = reader.next()? {
///         nodes += matches!(event, Event::Node(_)) as usize;
///     }
///     storage = reader.into_storage();
/// }
/// assert_eq!(nodes, 5);
/// # Ok::<(), sgf_grove::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct ReaderStorage {
    bufs: Buffers,
    queue: Queue,
}

impl ReaderStorage {
    /// Empty storage: it grows with the first input read in it.
    pub fn new() -> ReaderStorage {
        ReaderStorage::default()
    }

    /// The heap bytes it holds (its room, not what the last input used).
    pub fn heap_bytes(&self) -> usize {
        self.bufs.heap_bytes() + self.queue.events.capacity() * std::mem::size_of::<Queued>()
    }
}

/// A pull reader of [`Event`]s over an input in memory. See the
/// [module docs](crate::events).
#[derive(Debug)]
pub struct Reader<'src> {
    pub(crate) m: Machine<'src>,
    pub(crate) queue: Queue,
}

impl<'src> Reader<'src> {
    /// A reader of `input` with default options (lenient).
    pub fn new(input: &'src [u8]) -> Reader<'src> {
        Reader::with_options(input, &ParseOptions::default())
    }

    /// A reader of `input` with `options` (strict mode, the warning cap,
    /// a charset override, which decides how values are split).
    pub fn with_options(input: &'src [u8], options: &ParseOptions) -> Reader<'src> {
        Reader::with_storage(input, options, ReaderStorage::default())
    }

    /// A reader of `input` with `options` that reads in `storage`, the
    /// room a previous reader gave back ([`Reader::into_storage`]): no
    /// allocation for an input no bigger than those read before.
    pub fn with_storage(
        input: &'src [u8],
        options: &ParseOptions,
        storage: ReaderStorage,
    ) -> Reader<'src> {
        let ReaderStorage { bufs, mut queue } = storage;
        queue.events.clear();
        queue.discard = false;
        Reader {
            m: Machine::new(input, options, bufs),
            queue,
        }
    }

    /// Ends the reading and gives back the reader's storage, for the next
    /// input's reader ([`Reader::with_storage`]).
    pub fn into_storage(self) -> ReaderStorage {
        ReaderStorage {
            bufs: self.m.into_buffers(),
            queue: self.queue,
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
        if self.queue.is_empty() {
            // Most nodes: one short property, read without the queue.
            if let Some(s) = self.m.next_simple() {
                return Ok(Some(Event::Node(self.m.simple_event(s))));
            }
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
            Queued::Node => {
                let (span, root, switch, simple, links) = self.queue.node;
                Event::Node(NodeEvent {
                    input: self.m.input,
                    scratch: &self.m.bufs.scratch,
                    span,
                    root,
                    switch,
                    simple,
                    links,
                })
            }
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

    pub(crate) fn skip(&mut self, depth: usize) -> Result<()> {
        if !self.m.in_game && self.queue.is_empty() {
            return Ok(());
        }
        loop {
            // What is decided already is dropped, up to the end skipped to;
            // what follows that end stays queued for `next`.
            while let Some(q) = self.queue.pop() {
                match q {
                    Queued::GameEnd(_) => return Ok(()),
                    Queued::VariationEnd(_) if self.m.bufs.frames.len() < depth => return Ok(()),
                    _ => {}
                }
            }
            if self.m.done {
                return Ok(());
            }
            let mut skipper = Skipper {
                queue: &mut self.queue,
                keep: false,
            };
            self.m.step(&mut skipper)?;
        }
    }
}

/// The consumer of a skip: nodes are dropped as they are read (runs of
/// simple nodes go at the builder's pace), the structure goes to the queue
/// so that the skip stops at the right end; once an end may have come,
/// everything is queued, so that what follows it in the same step (the
/// root of the next game) is handed out.
struct Skipper<'q> {
    queue: &'q mut Queue,
    keep: bool,
}

impl<'src> Emit<'src> for Skipper<'_> {
    fn game_start(&mut self, offset: usize) {
        Emit::game_start(self.queue, offset);
    }
    fn game_end(&mut self, span: Span, diag: &mut Diag) {
        self.keep = true;
        Emit::game_end(self.queue, span, diag);
    }
    fn variation_start(&mut self, offset: usize) {
        Emit::variation_start(self.queue, offset);
    }
    fn variation_end(&mut self, offset: usize) {
        self.keep = true;
        Emit::variation_end(self.queue, offset);
    }
    #[inline(always)]
    fn node(&mut self, node: NodeEvent<'_, 'src>) {
        if self.keep {
            Emit::node(self.queue, node);
        }
    }
    #[inline(always)]
    fn run_on(&self) -> bool {
        !self.keep
    }
    /// A run of simple nodes is passed over without a look at each as an
    /// event: nothing in it can end what is skipped.
    #[inline(always)]
    fn simple_run(&mut self, input: &'src [u8], mut at: usize, _first_id: u32) -> (u32, usize) {
        if self.keep {
            return (0, at);
        }
        let mut taken = 0u32;
        while input.get(at) == Some(&b';') {
            let Some((_, _, end)) = simple_node(input, at + 1) else {
                break;
            };
            taken += 1;
            at = end;
        }
        (taken, at)
    }
    // As the queue: what is handed out cannot be taken back.
    const KEEPS_TRIALS: bool = false;
    fn try_game(&mut self) {
        Emit::try_game(self.queue);
    }
    fn settle(&mut self, keep: bool, _found: Option<crate::text::Charset>) {
        Emit::settle(self.queue, keep, None);
    }
}
