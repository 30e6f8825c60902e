//! The tree builder: a consumer of [`events`](crate::events) that appends
//! nodes to the arena in pre-order and records, once, every property and
//! value the reader found. Nothing here recovers from anything: the reader
//! decided it all; the builder only links nodes and copies records.
//!
//! Records (see [`Store`]): a node is 16 bytes (two links, its offset, its
//! first property slot); a property is one 8-byte slot. A node whose
//! properties are all *plain* (an upper-case identifier right before its
//! `[`, one value closed by its `]`, read byte by byte, not repeated in the
//! node: nearly every node of a game record) stores each property as its
//! value's span alone, the identifier being the letters just before the
//! `[`. Any other node is *rich*: its slots point to [`RichProp`] records
//! that keep the identifier's spelling, the normalised name, every value
//! and the flags.

use super::{GameData, NodeData, RichProp, Store, NONE, RICH};
use crate::error::{Error, ErrorKind, Result};
use crate::events::{flag, Diag, Emit, Links, Machine, NodeEvent, Resume, Span32};
use crate::options::ParseOptions;
use crate::span::Span;
use std::ops::ControlFlow;
use std::sync::OnceLock;

/// Nodes are numbered with `u32` and the top bit of a node's first slot is
/// the [`RICH`] flag: an input whose nodes or properties do not fit is
/// refused.
const MAX_ITEMS: usize = (RICH - 1) as usize;

/// A first guess at the number of nodes: real game records average about
/// eight bytes per node. [`Builder::grow`] corrects it on the way.
fn initial_nodes(input: &[u8]) -> usize {
    input.len() / 8 + 16
}

/// Parses the whole of `input` into `store`.
pub(crate) fn build(input: &[u8], options: &ParseOptions, store: &mut Store) -> Result<()> {
    let mut m = prepare(input, options, store);
    store.game_base = 0;
    store.nodes.reserve(initial_nodes(input));
    store.slots.reserve(initial_nodes(input));
    let mut b = Builder::new(input, store, false, None, false);
    let result = b.run(&mut m);
    take_warnings(store, &mut m.bufs.diag, true);
    store.bufs = m.into_buffers();
    result
}

/// Moves the warnings found so far from the reader to the store and sizes
/// the per-game tables. With `whole` false (one game at a time), the
/// counts start again for the next game.
fn take_warnings(store: &mut Store, diag: &mut Diag, whole: bool) {
    std::mem::swap(&mut store.warnings, &mut diag.list);
    diag.clear_list();
    store.warning_counts = diag.counts;
    store.warnings_dropped = diag.dropped;
    if !whole {
        diag.counts = Default::default();
        diag.dropped = 0;
    }
    store.charsets.resize_with(store.games.len(), OnceLock::new);
}

/// The callback of [`build_each`] and the games handed to it so far.
pub(crate) struct Each<'f> {
    f: &'f mut dyn FnMut(&Store) -> ControlFlow<()>,
    games: usize,
    stopped: bool,
}

/// Parses `input` one game at a time, handing each to `f` (with the
/// warnings found since the previous one). Stops early when `f` says so.
/// Returns the number of games handed out.
pub(crate) fn build_each(
    input: &[u8],
    options: &ParseOptions,
    store: &mut Store,
    f: &mut dyn FnMut(&Store) -> ControlFlow<()>,
) -> Result<usize> {
    let mut m = prepare(input, options, store);
    m.ids_per_game = true;
    let each = Each {
        f,
        games: 0,
        stopped: false,
    };
    let mut b = Builder::new(input, store, true, Some(each), false);
    let result = b.run(&mut m);
    let each = b.each.take().expect("set above");
    if result.is_ok() && !each.stopped && !m.bufs.diag.list.is_empty() {
        // Warnings after the last game (junk, an error in strict mode) are
        // handed out alone.
        store.clear();
        take_warnings(store, &mut m.bufs.diag, false);
        store.game_base = each.games;
        let _ = (each.f)(store);
    }
    store.bufs = m.into_buffers();
    result.map(|_| each.games)
}

/// What [`build_one`] found in a window of a stream.
#[derive(Debug)]
pub(crate) struct OneGame {
    /// Whether a game ended (it is in the store).
    pub(crate) found: bool,
    /// Whether a game started.
    pub(crate) started: bool,
    /// Where the game ended, and how far the reader had read to decide so.
    pub(crate) end: usize,
    pub(crate) read_to: usize,
}

/// Parses the first game of `window` (a stretch of a stream) into `store`,
/// with the warnings found before its end, taking up the reader's state
/// from `resume`. When a game ended, `resume` holds the state to take up
/// from its end (the start of the next stretch).
pub(crate) fn build_one(
    window: &[u8],
    options: &ParseOptions,
    store: &mut Store,
    resume: &mut Resume,
    first: bool,
) -> Result<OneGame> {
    let mut m = prepare(window, options, store);
    m.ids_per_game = true;
    if !first {
        m.resume(resume);
    }
    let games = resume.games;
    let mut b = Builder::new(window, store, true, None, true);
    let mut result = b.run(&mut m);
    let end = b.game_end;
    if matches!(&result, Err(e) if e.kind() == ErrorKind::NoGameTree) && games > 0 {
        // Earlier windows held games: only junk is left.
        result = Ok(());
    }
    let read_to = m.pos.max(m.read_to).max(end.unwrap_or(0));
    let started = !store.games.is_empty();
    if let Some(end) = end {
        m.suspend(end, resume);
    }
    take_warnings(store, &mut m.bufs.diag, true);
    store.bufs = m.into_buffers();
    result.map(|()| OneGame {
        found: end.is_some(),
        started,
        end: end.unwrap_or(window.len()),
        read_to,
    })
}

/// Clears `store` for a new input and makes the state machine that reads
/// it, with the store's reusable buffers.
fn prepare<'src>(input: &'src [u8], options: &ParseOptions, store: &mut Store) -> Machine<'src> {
    store.clear();
    store.origin = Default::default();
    store.lines.get_mut().reset();
    store.override_charset = options.charset;
    let bufs = std::mem::take(&mut store.bufs);
    Machine::new(input, options, bufs)
}

struct Builder<'a, 'f> {
    input: &'a [u8],
    store: &'a mut Store,
    /// One game at a time: the arena only grows to the largest game.
    one_game: bool,
    error: Option<Error>,
    each: Option<Each<'f>>,
    /// Set on an error, or when the caller of `build_each` has seen enough.
    stopped: bool,
    /// Stop after the first game (a window of a stream).
    stop_after_game: bool,
    /// Where that game ended.
    game_end: Option<usize>,
    /// The store's lengths when the game read on trial started.
    trial: Option<Marks>,
}

/// How far each record of a [`Store`] was filled: what a game read on trial
/// is cut back to when it is read again.
#[derive(Clone, Copy, Debug)]
struct Marks {
    nodes: usize,
    slots: usize,
    rich: usize,
    values: usize,
    ident_text: usize,
    games: usize,
    charsets: usize,
    any_chars: bool,
}

impl<'src> Emit<'src> for Builder<'_, '_> {
    #[inline(always)]
    fn simple_node(&mut self, node: NodeEvent<'_, 'src>, links: Links, value: Span32) {
        let store = &mut *self.store;
        if store.nodes.len() == store.nodes.capacity()
            || store.slots.len() == store.slots.capacity()
        {
            return self.node(node);
        }
        debug_assert_eq!(links.id as usize, store.nodes.len() + 1);
        if links.prev_sibling == NONE {
            debug_assert_eq!(links.parent + 1, links.id);
        } else {
            store.nodes[links.prev_sibling as usize - 1].next_sibling = links.id;
        }
        store.nodes.push(NodeData {
            parent: links.parent,
            next_sibling: NONE,
            start: node.offset() as u32,
            props: store.slots.len() as u32,
        });
        store.slots.push(value);
    }

    #[inline(always)]
    fn simple_run(&mut self, input: &'src [u8], mut at: usize, first_id: u32) -> (u32, usize) {
        let store = &mut *self.store;
        // Within the room the records have: growing them is for the
        // general path, which also refuses an input too large.
        let room = (store.nodes.capacity() - store.nodes.len())
            .min(store.slots.capacity() - store.slots.len());
        debug_assert_eq!(first_id as usize, store.nodes.len() + 1);
        let mut parent = first_id - 1;
        let mut taken = 0;
        while taken < room && input.get(at) == Some(&b';') {
            let Some((_, value, end)) = crate::events::simple_node(input, at + 1) else {
                break;
            };
            store.nodes.push(NodeData {
                parent,
                next_sibling: NONE,
                start: at as u32,
                props: store.slots.len() as u32,
            });
            store.slots.push(value);
            parent += 1;
            taken += 1;
            at = end;
        }
        (taken as u32, at)
    }

    #[inline(always)]
    fn node(&mut self, node: NodeEvent<'_, 'src>) {
        if let Err(e) = self.add_node(node) {
            self.error = Some(e);
            self.stopped = true;
        }
    }

    fn game_start(&mut self, offset: usize) {
        let store = &mut *self.store;
        store.games.push(GameData {
            start: offset as u32,
            end: offset as u32,
            ..GameData::default()
        });
    }

    fn game_end(&mut self, span: Span, diag: &mut Diag) {
        if let Some(game) = self.store.games.last_mut() {
            game.end = span.end as u32;
        }
        if self.stop_after_game {
            self.game_end = Some(span.end);
            self.stopped = true;
        }
        if let Some(each) = &mut self.each {
            let store = &mut *self.store;
            take_warnings(store, diag, false);
            store.game_base = each.games;
            each.games += 1;
            if (each.f)(store).is_break() {
                each.stopped = true;
                self.stopped = true;
            }
            store.clear();
        }
    }

    fn variation_start(&mut self, _: usize) {}

    fn variation_end(&mut self, _: usize) {}

    #[inline(always)]
    fn stop(&self) -> bool {
        self.stopped
    }
    #[inline(always)]
    fn run_on(&self) -> bool {
        !self.stopped
    }

    const KEEPS_TRIALS: bool = true;

    fn try_game(&mut self) {
        let store = &*self.store;
        self.trial = Some(Marks {
            nodes: store.nodes.len(),
            slots: store.slots.len(),
            rich: store.rich.len(),
            values: store.values.len(),
            ident_text: store.ident_text.len(),
            games: store.games.len(),
            charsets: store.charsets.len(),
            any_chars: store.any_chars,
        });
    }

    fn settle(&mut self, keep: bool, found: Option<crate::text::Charset>) {
        let Some(m) = self.trial.take() else {
            return;
        };
        if keep {
            if let Some(charset) = found {
                // Found while deciding, from the bytes `charset()` reads.
                let store = &mut *self.store;
                store.charsets.resize_with(store.games.len(), OnceLock::new);
                if let Some(cell) = store.charsets.last() {
                    let _ = cell.set(charset);
                }
            }
            return;
        }
        let store = &mut *self.store;
        store.nodes.truncate(m.nodes);
        store.slots.truncate(m.slots);
        store.rich.truncate(m.rich);
        store.values.truncate(m.values);
        store.ident_text.truncate(m.ident_text);
        store.games.truncate(m.games);
        store.charsets.truncate(m.charsets);
        store.any_chars = m.any_chars;
        // No earlier node links to the trial's: it started at a root, which
        // is no node's sibling.
    }
}

impl<'a, 'f> Builder<'a, 'f> {
    fn new(
        input: &'a [u8],
        store: &'a mut Store,
        one_game: bool,
        each: Option<Each<'f>>,
        stop_after_game: bool,
    ) -> Self {
        Builder {
            input,
            store,
            one_game,
            error: None,
            each,
            stopped: false,
            stop_after_game,
            game_end: None,
            trial: None,
        }
    }

    /// Reads with `m` until the end or a stop; the builder's own error
    /// (an input too large for its ids) wins over the reader's outcome.
    fn run(&mut self, m: &mut Machine<'_>) -> Result<()> {
        let result = m.drive(self);
        match self.error.take() {
            Some(err) => Err(err),
            None => result,
        }
    }
    /// Adds a node, links it, records its properties.
    #[inline(always)]
    fn add_node(&mut self, node: NodeEvent<'_, '_>) -> Result<()> {
        let store = &mut *self.store;
        let props = match node.simple() {
            Some(_) => 1,
            None => node.scratch().props.len(),
        };
        if store.nodes.len() == store.nodes.capacity()
            || store.slots.len() + props > store.slots.capacity()
        {
            if store.nodes.len() >= MAX_ITEMS || store.slots.len() + props >= MAX_ITEMS {
                return Err(Error::at(
                    ErrorKind::InputTooLarge,
                    self.input,
                    node.offset(),
                ));
            }
            self.grow(node.offset(), props);
        }
        let store = &mut *self.store;
        let links = node.links();
        let id = links.id;
        debug_assert_eq!(id as usize, store.nodes.len() + 1);
        let parent = links.parent;
        if parent == NONE {
            store.games.last_mut().expect("in a game").root = id;
        } else if links.prev_sibling == NONE {
            // A first child is always the next node in pre-order: the read
            // API finds it there, with no link of its own.
            debug_assert_eq!(parent + 1, id);
        } else {
            store.nodes[links.prev_sibling as usize - 1].next_sibling = id;
        }
        let first_slot = store.slots.len() as u32;
        let mut data = NodeData {
            parent,
            next_sibling: NONE,
            start: node.offset() as u32,
            props: first_slot,
        };
        if let Some((_, value)) = node.simple() {
            store.nodes.push(data);
            store.slots.push(value);
            return Ok(());
        }
        let scratch = node.scratch();
        let plain = scratch.props.iter().all(|p| {
            p.flags == 0
                && p.count == 1
                && p.ident.end + 1 == scratch.values[p.values as usize].start
        });
        if !plain {
            data.props |= RICH;
        }
        store.nodes.push(data);
        if plain {
            for p in &scratch.props {
                store.slots.push(scratch.values[p.values as usize]);
            }
        } else {
            self.rich(node);
        }
        if parent == NONE {
            self.root(node);
        }
        Ok(())
    }

    /// Records the properties of a node that is not plain.
    #[cold]
    #[inline(never)]
    fn rich(&mut self, node: NodeEvent<'_, '_>) {
        let store = &mut *self.store;
        let scratch = node.scratch();
        let (at, total) = (node.offset(), self.input.len());
        if store.rich.len() + scratch.props.len() > store.rich.capacity() {
            reserve_ahead(
                &mut store.rich,
                scratch.props.len(),
                at,
                total,
                self.one_game,
            );
        }
        if store.values.len() + scratch.values.len() > store.values.capacity() {
            reserve_ahead(
                &mut store.values,
                scratch.values.len(),
                at,
                total,
                self.one_game,
            );
        }
        for p in &scratch.props {
            let name = if p.has(flag::DIRTY) {
                let from = store.ident_text.len();
                store
                    .ident_text
                    .extend_from_slice(&scratch.names[p.name.range()]);
                Span32::new(from, store.ident_text.len())
            } else {
                p.name
            };
            let values = store.values.len() as u32;
            let from = p.values as usize;
            store
                .values
                .extend_from_slice(&scratch.values[from..from + p.count as usize]);
            store.slots.push(Span32 {
                start: store.rich.len() as u32,
                end: 0,
            });
            store.rich.push(RichProp {
                ident: p.ident,
                name,
                values,
                count: p.count,
                next: p.next,
                flags: p.flags,
            });
        }
    }

    /// Notes what a game's root says about the whole game: its `SZ`, `GM`
    /// and `CA`, and how its values are read.
    #[cold]
    fn root(&mut self, node: NodeEvent<'_, '_>) {
        let input = self.input;
        let (mut sz, mut gm, mut ca) = (None, None, None);
        for p in node.properties() {
            let value = || p.values().next().map(|v| v.span());
            match p.ident_bytes() {
                b"SZ" if sz.is_none() => sz = value(),
                b"GM" if gm.is_none() => gm = value(),
                b"CA" if ca.is_none() => ca = value(),
                _ => {}
            }
        }
        let switch = node.root_switch();
        let store = &mut *self.store;
        let raw = |s: Option<crate::span::Span>| s.map_or(&[][..], |s| &input[s.start..s.end]);
        let game = store.games.last_mut().expect("in a game");
        game.size = crate::value::BoardSize::read_or_default(raw(sz));
        game.game_type = crate::value::read_game_type(raw(gm));
        game.ca = ca.map_or_else(Span32::default, |s| Span32::new(s.start, s.end));
        game.mode = switch.mode;
        game.chars_from = switch.from.min(u32::MAX as usize) as u32;
        store.any_chars |= switch.mode != crate::lexer::ValueMode::Bytes;
        if let Some(charset) = switch.detected {
            // Decided while reading: the charset the values were split in.
            store.charsets.resize_with(store.games.len(), OnceLock::new);
            if let Some(cell) = store.charsets.last() {
                let _ = cell.set(charset);
            }
        }
    }

    /// Makes room for the nodes still to come, extrapolated from the density
    /// of nodes so far, so that the arena ends up close to its exact size
    /// instead of up to twice it, and without a counting pass over the input.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, at: usize, props: usize) {
        let store = &mut *self.store;
        if self.one_game {
            store.nodes.reserve(store.nodes.len().max(1024));
            store.slots.reserve(store.slots.len().max(1024) + props);
            return;
        }
        let done = store.nodes.len().max(1);
        let rest = self.input.len() - at;
        let expected = (rest as u128 * done as u128 / at.max(1) as u128) as usize;
        store.nodes.reserve_exact(expected + expected / 8 + 64);
        let slots = store.slots.len().max(1);
        let expected = (rest as u128 * slots as u128 / at.max(1) as u128) as usize;
        store
            .slots
            .reserve_exact(expected + expected / 8 + 64 + props);
    }
}

/// Makes room in `v` for `need` more items. In a whole input, the room is
/// extrapolated from how many items the input held so far (`at` of
/// `total` bytes read), so that the vector ends close to its final size
/// instead of up to twice it.
#[cold]
#[inline(never)]
fn reserve_ahead<T>(v: &mut Vec<T>, need: usize, at: usize, total: usize, one_game: bool) {
    if one_game || at < total / 16 {
        // Too early to extrapolate: grow by doubling.
        v.reserve(need);
        return;
    }
    let len = v.len().max(1) as u128;
    let expected = (len * total as u128 / at.max(1) as u128) as usize;
    let more = expected.saturating_sub(v.len());
    v.reserve_exact(need + more + more / 8 + 64);
}
