//! The tree builder: one pass of the lexer, an explicit stack of open
//! variations, nodes appended to the arena in pre-order.
//!
//! ```text
//!            ┌──────── `(`, `;` (+ root ident) ────────┐
//!   outside ─┤                                         ├─▶ in game ── `)` at depth 0 ─▶ outside
//!   (junk is │◀──── end of input / last `)` ───────────┘     │  `(` push frame, `)` pop frame
//!   skipped) │                                               │  `;` or an identifier: a node
//!            └── `(;FF[`/`(;GM[` inside a game: resync ──────┘
//! ```

use super::{DirtyIdent, GameData, NodeData, Span32, Store, NONE};
use crate::error::{Diagnostics, Error, ErrorKind, Result, WarningKind};
use crate::lexer::{
    dangling_ident, is_space, normalize_ident, read_gap, resync_point, skip_space, PropLexer,
    RawProp, Scanner, Sink, ValueMode,
};
use crate::span::LineCursor;
use crate::tree::ParseOptions;
use std::sync::OnceLock;

/// One open `(`: where its next node attaches.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Frame {
    /// The node the next node of this sequence attaches to (`NONE` before the
    /// game's root).
    cursor: u32,
    /// The last child already attached to `cursor`, so that a new child is
    /// linked in O(1).
    last_child: u32,
    /// The first node created in this frame.
    first: u32,
}

impl Sink for Diagnostics<'_> {
    #[inline(always)]
    fn warn(&mut self, kind: WarningKind, offset: usize) {
        Diagnostics::warn(self, kind, offset);
    }
}

/// A first guess at the number of nodes: real game records average about
/// eight bytes per node. [`Builder::grow`] corrects it on the way.
fn initial_nodes(input: &[u8]) -> usize {
    input.len() / 8 + 16
}

pub(crate) fn build(input: &[u8], options: &ParseOptions, store: &mut Store) -> Result<()> {
    let mut chunk = Chunk::default();
    build_chunk(input, options, store, &mut chunk).map(|_| ())
}

/// Where one call of [`build_chunk`] starts and what earlier calls left.
#[derive(Debug, Default)]
pub(crate) struct Chunk {
    /// Stop after the first game tree that closes.
    pub(crate) one_game: bool,
    /// Offset to start at.
    pub(crate) start: usize,
    /// Whether earlier calls found a game.
    pub(crate) earlier_games: bool,
    /// Line counting, carried across calls.
    pub(crate) cursor: LineCursor,
}

/// Parses from `chunk.start`: the whole input, or with `chunk.one_game` up
/// to the end of the first game tree. Returns whether input is left.
pub(crate) fn build_chunk(
    input: &[u8],
    options: &ParseOptions,
    store: &mut Store,
    chunk: &mut Chunk,
) -> Result<bool> {
    store.clear();
    if chunk.start == 0 {
        // A new input (later chunks of one input share its line index).
        store.lines = OnceLock::new();
    }
    if input.len() >= u32::MAX as usize {
        return Err(Error::at(ErrorKind::InputTooLarge, input, 0));
    }
    if !chunk.one_game {
        store.nodes.reserve(initial_nodes(input));
    }
    let Store {
        nodes,
        games,
        warnings,
        warnings_dropped,
        warning_counts,
        dirty,
        ident_text,
        repeats,
        repeat_heads,
        repeat_tails,
        frames,
        seen,
        any_chars,
        charsets,
        override_charset,
        lines: _,
    } = store;
    *override_charset = options.charset;
    let mut b = Builder {
        input,
        nodes,
        games,
        dirty,
        ident_text,
        repeats,
        repeat_heads,
        repeat_tails,
        frames,
        seen,
        diag: Diagnostics {
            input,
            list: warnings,
            counts: warning_counts,
            dropped: 0,
            max: options.max_warnings,
            strict: options.strict,
            cursor: chunk.cursor,
            error: None,
        },
        mode: ValueMode::Bytes,
        override_mode: options.charset.map(ValueMode::for_encoding),
        any_chars: false,
        one_game: chunk.one_game,
        earlier_games: chunk.earlier_games,
    };
    let result = b.run(chunk.start);
    chunk.cursor = b.diag.cursor;
    *warnings_dropped = b.diag.dropped;
    *any_chars = b.any_chars;
    let games = b.games.len();
    chunk.earlier_games |= games > 0;
    charsets.resize_with(games, OnceLock::new);
    match result? {
        Some(next) => {
            chunk.start = next;
            Ok(true)
        }
        None => Ok(false),
    }
}

struct Builder<'a> {
    input: &'a [u8],
    nodes: &'a mut Vec<NodeData>,
    games: &'a mut Vec<GameData>,
    dirty: &'a mut Vec<DirtyIdent>,
    ident_text: &'a mut String,
    repeats: &'a mut Vec<u64>,
    repeat_heads: &'a mut Vec<u32>,
    repeat_tails: &'a mut Vec<u32>,
    frames: &'a mut Vec<Frame>,
    seen: &'a mut Vec<(u64, RawProp)>,
    diag: Diagnostics<'a>,
    /// How the current game's values are read.
    mode: ValueMode,
    /// The mode every game gets from a charset override.
    override_mode: Option<ValueMode>,
    /// Whether some game is read a character at a time.
    any_chars: bool,
    /// Stop after the first game tree that closes.
    one_game: bool,
    /// Whether earlier chunks found a game.
    earlier_games: bool,
}

impl Builder<'_> {
    /// Runs from `start`; returns where to go on when stopping after one
    /// game, `None` at the end of the input.
    fn run(&mut self, start: usize) -> Result<Option<usize>> {
        let input = self.input;
        let mut pos = start;
        if start == 0 && input.starts_with(b"\xEF\xBB\xBF") {
            self.diag.warn(WarningKind::Bom, 0);
            pos = 3;
        }
        let mut scanner = Scanner::new(input, pos);
        loop {
            if let Some(err) = self.diag.error.take() {
                return Err(err);
            }
            if self.frames.is_empty() {
                match self.find_game(&mut scanner, pos) {
                    None => break,
                    Some(at) => {
                        self.open_game(at);
                        if input[at] == b'(' {
                            scanner.next_structural();
                            pos = at + 1;
                        } else {
                            self.diag.warn(WarningKind::MissingOpenParen, at);
                            pos = at;
                        }
                    }
                }
                continue;
            }
            let at = scanner.peek().unwrap_or(input.len());
            match input.get(at) {
                Some(b';') => {
                    self.check_gap(pos, at);
                    scanner.next_structural();
                    pos = self.node(&mut scanner, at, at + 1);
                }
                Some(b'[') => {
                    // The node lexer reports what is wrong with the
                    // identifier itself; here only what stands before it.
                    let gap = read_gap(input, pos, at, &mut NotIdent(&mut self.diag));
                    match gap.ident {
                        Some((start, _)) => {
                            self.diag.warn(WarningKind::MissingSemicolon, start);
                            pos = self.node(&mut scanner, start, start);
                        }
                        None => {
                            self.diag.warn(WarningKind::ValueWithoutIdent, at);
                            scanner.next_structural();
                            let mut lexer = PropLexer::with_scanner(&mut scanner, at, self.mode);
                            pos = lexer.skip_values(at, &mut self.diag);
                        }
                    }
                }
                Some(b'(') => {
                    self.check_gap(pos, at);
                    scanner.next_structural();
                    pos = at + 1;
                    if resync_point(input, at) {
                        self.diag.warn(WarningKind::GameResync, at);
                        self.close_game(at);
                        if self.one_game && !self.games.is_empty() {
                            return self.stop(at);
                        }
                        self.open_game(at);
                        continue;
                    }
                    let next = skip_space(input, pos);
                    if input.get(next) == Some(&b')') {
                        self.diag.warn(WarningKind::EmptyVariation, at);
                        pos = next + 1;
                        scanner.seek(pos);
                        continue;
                    }
                    let top = *self.frames.last().expect("in a game");
                    if top.cursor == NONE {
                        self.diag.warn(WarningKind::DetachedVariation, at);
                    }
                    self.frames.push(Frame {
                        cursor: top.cursor,
                        last_child: top.last_child,
                        first: NONE,
                    });
                }
                Some(b')') => {
                    self.check_gap(pos, at);
                    scanner.next_structural();
                    pos = at + 1;
                    let frame = self.frames.pop().expect("in a game");
                    match self.frames.last_mut() {
                        None => {
                            self.close_game(pos);
                            if self.one_game && !self.games.is_empty() {
                                return self.stop(pos);
                            }
                        }
                        // The variation's first node is now the last child
                        // of the node it hangs from.
                        Some(top) if frame.first != NONE => top.last_child = frame.first,
                        // No node of its own (`((;a))`): whatever its inner
                        // variations attached hangs from the same node.
                        Some(top) => top.last_child = frame.last_child,
                    }
                }
                Some(_) => {
                    // A stray `]` or `\` between nodes.
                    self.check_gap(pos, at);
                    self.diag.warn(WarningKind::UnexpectedByte, at);
                    scanner.next_structural();
                    pos = at + 1;
                }
                None => {
                    self.check_gap(pos, at);
                    self.diag.warn(WarningKind::UnclosedGameTree, at);
                    self.close_game(at);
                    break;
                }
            }
        }
        if let Some(err) = self.diag.error.take() {
            return Err(err);
        }
        if self.games.is_empty() && !self.earlier_games {
            return Err(Error::at(ErrorKind::NoGameTree, input, input.len()));
        }
        Ok(None)
    }

    /// Stops after one game, at `next`.
    fn stop(&mut self, next: usize) -> Result<Option<usize>> {
        match self.diag.error.take() {
            Some(err) => Err(err),
            None => Ok(Some(next)),
        }
    }

    /// Reports what stands between two tokens inside a game where no
    /// identifier belongs.
    fn check_gap(&mut self, from: usize, to: usize) {
        if from == to {
            return;
        }
        let gap = read_gap(self.input, from, to, &mut self.diag);
        if let Some(ident) = gap.ident {
            dangling_ident(self.input, ident, &mut self.diag);
        }
    }

    /// Outside any game: skips to the next `(` or `;` that starts a game and
    /// returns its offset, reporting what was skipped.
    fn find_game(&mut self, scanner: &mut Scanner<'_>, mut pos: usize) -> Option<usize> {
        let input = self.input;
        let mut junk_from = pos;
        loop {
            let Some(at) = scanner.peek() else {
                self.report_junk(junk_from, input.len());
                return None;
            };
            let starts = match input[at] {
                b'(' => looks_like_tree(input, at),
                b';' => looks_like_node(input, at),
                b')' if input[junk_from..at].iter().all(|&b| is_space(b)) => {
                    self.report_junk(junk_from, at);
                    self.diag.warn(WarningKind::ExtraCloseParen, at);
                    scanner.next_structural();
                    pos = at + 1;
                    junk_from = pos;
                    continue;
                }
                _ => false,
            };
            if starts {
                self.report_junk(junk_from, at);
                return Some(at);
            }
            scanner.next_structural();
            pos = at + 1;
            let _ = pos;
        }
    }

    /// Reports `input[from..to]`, skipped outside any game, unless it is all
    /// whitespace.
    fn report_junk(&mut self, from: usize, to: usize) {
        let junk = &self.input[from..to];
        if let Some(i) = junk.iter().position(|&b| !is_space(b)) {
            let kind = if self.games.is_empty() && !self.earlier_games {
                WarningKind::JunkBeforeGame
            } else {
                WarningKind::JunkAfterGame
            };
            self.diag.warn(kind, from + i);
        } else if let Some(i) = junk.iter().position(|&b| b == 0) {
            self.diag.warn(WarningKind::NulByte, from + i);
        }
    }

    fn open_game(&mut self, at: usize) {
        self.frames.clear();
        self.frames.push(Frame::default());
        self.mode = self.override_mode.unwrap_or_default();
        self.games.push(GameData {
            start: at as u32,
            end: at as u32,
            ..GameData::default()
        });
    }

    /// Ends the current game at `end`; drops it when it has no node.
    fn close_game(&mut self, end: usize) {
        self.frames.clear();
        if let Some(game) = self.games.last_mut() {
            game.end = end as u32;
            if game.root == NONE {
                let start = game.start as usize;
                self.games.pop();
                self.diag.warn(WarningKind::EmptyGameTree, start);
            }
        }
    }

    /// Adds the node starting at `start` whose properties start at `body`;
    /// returns the offset after it.
    #[inline(always)]
    fn node(&mut self, scanner: &mut Scanner<'_>, start: usize, body: usize) -> usize {
        if self.nodes.len() == self.nodes.capacity() {
            self.grow(start);
        }
        let id = self.nodes.len() as u32 + 1;
        let top = self.frames.last_mut().expect("in a game");
        let mut parent = top.cursor;
        if parent == NONE {
            let game = self.games.last_mut().expect("in a game");
            if game.root == NONE {
                game.root = id;
            } else {
                // A second variation with no node above it.
                game.end = start as u32;
                let mode = self.mode;
                self.games.push(GameData {
                    root: id,
                    start: start as u32,
                    end: start as u32,
                    mode,
                    ..GameData::default()
                });
            }
            parent = NONE;
        } else if top.last_child == NONE {
            self.nodes[parent as usize - 1].first_child = id;
        } else {
            if top.first != NONE {
                self.diag.warn(WarningKind::NodeAfterVariation, start);
            }
            self.nodes[top.last_child as usize - 1].next_sibling = id;
        }
        let top = self.frames.last_mut().expect("in a game");
        if top.first == NONE {
            top.first = id;
        }
        top.cursor = id;
        top.last_child = NONE;
        self.nodes.push(NodeData {
            parent,
            first_child: NONE,
            next_sibling: NONE,
            start: start as u32,
        });

        if parent == NONE {
            return self.root_props(scanner, id, body);
        }
        if self.mode == ValueMode::Bytes {
            if let Some(end) = simple_node(self.input, body) {
                scanner.seek(end);
                return end;
            }
        }
        let mut lexer = PropLexer::with_scanner(scanner, body, self.mode);
        let Some(first) = lexer.next_prop(&mut self.diag) else {
            return lexer.pos;
        };
        if !first.clean {
            self.record_dirty(first);
        }
        let Some(second) = lexer.next_prop(&mut self.diag) else {
            return lexer.pos;
        };
        // Two or more properties: look out for repeats.
        self.seen.clear();
        let key = ident_key(&self.input[first.ident.0..first.ident.1], first.clean);
        self.seen.push((key, first));
        let mut next = Some(second);
        while let Some(prop) = next {
            self.prop(id, prop);
            next = lexer.next_prop(&mut self.diag);
        }
        lexer.pos
    }

    /// Records one property of a node with two or more.
    #[inline(always)]
    fn prop(&mut self, id: u32, prop: RawProp) -> u64 {
        if !prop.clean {
            self.record_dirty(prop);
        }
        let key = ident_key(&self.input[prop.ident.0..prop.ident.1], prop.clean);
        if !self.seen.is_empty() {
            self.check_repeat(id, prop, key);
        }
        self.seen.push((key, prop));
        key
    }

    /// Reads the properties of a game's root node, noting where its `SZ`,
    /// `GM` and `CA` values are. When the first `CA` names a charset whose
    /// characters can hide `\` or `]` (Shift_JIS, Big5, GBK, GB18030), every
    /// value after it, in the root and in the rest of the game, is read a
    /// character at a time; the values before it stay byte by byte.
    ///
    /// Switching at `CA` rather than reading the whole root again keeps the
    /// reading a function of what the writer keeps: the properties before
    /// `CA` read the same in the tree written back (which drops junk and
    /// values without an identifier), so its `CA` is found at the same place
    /// and switches the same way.
    #[cold]
    fn root_props(&mut self, scanner: &mut Scanner<'_>, id: u32, body: usize) -> usize {
        // A root met after a detached variation starts afresh too.
        self.mode = self.override_mode.unwrap_or_default();
        let mut lexer = PropLexer::with_scanner(&mut *scanner, body, self.mode);
        self.seen.clear();
        let mut info = RootInfo::default();
        let mut chars_from = body;
        while let Some(prop) = lexer.next_prop(&mut self.diag) {
            let value = Span32::new(prop.first_value + 1, prop.first_end);
            match self.prop(id, prop) {
                KEY_SZ if info.sz.is_none() => info.sz = Some(value),
                KEY_GM if info.gm.is_none() => info.gm = Some(value),
                KEY_CA if info.ca.is_none() => {
                    info.ca = Some(value);
                    if self.override_mode.is_none() {
                        let label = &self.input[value.range()];
                        lexer.mode = crate::text::charset::for_label(label)
                            .map_or(ValueMode::Bytes, ValueMode::for_encoding);
                        chars_from = prop.end;
                    }
                }
                _ => {}
            }
        }
        let end = lexer.pos;
        self.mode = lexer.mode;
        self.any_chars |= self.mode != ValueMode::Bytes;
        let input = self.input;
        let value = |span: Option<Span32>| span.map_or(&[][..], |s| &input[s.range()]);
        let game = self.games.last_mut().expect("in a game");
        game.size = crate::value::BoardSize::read_or_default(value(info.sz));
        game.game_type = crate::value::read_game_type(value(info.gm));
        game.ca = info.ca.unwrap_or_default();
        game.mode = self.mode;
        game.chars_from = chars_from as u32;
        end
    }

    /// Makes room for the nodes still to come, extrapolated from the density
    /// of nodes so far, so that the arena ends up close to its exact size
    /// instead of up to twice it, and without a counting pass over the input.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, at: usize) {
        if self.one_game {
            // One game at a time: the arena only grows to the largest game.
            self.nodes.reserve(self.nodes.len().max(1024));
            return;
        }
        let done = self.nodes.len().max(1);
        let rest = self.input.len() - at;
        let expected = (rest as u128 * done as u128 / at.max(1) as u128) as usize;
        self.nodes.reserve_exact(expected + expected / 8 + 64);
    }

    #[cold]
    fn record_dirty(&mut self, prop: RawProp) {
        let from = self.ident_text.len();
        let mut buf = std::mem::take(self.ident_text).into_bytes();
        normalize_ident(&self.input[prop.ident.0..prop.ident.1], &mut buf);
        *self.ident_text = String::from_utf8(buf).expect("upper-case ASCII");
        self.dirty.push(DirtyIdent {
            offset: prop.ident.0 as u32,
            text: (from as u32, self.ident_text.len() as u32),
        });
    }

    fn check_repeat(&mut self, id: u32, prop: RawProp, key: u64) {
        let input = self.input;
        let name = |p: &RawProp| &input[p.ident.0..p.ident.1];
        let head = self.seen.iter().find(|&&(k, ref p)| {
            k == key
                && (key != LONG_IDENT
                    || name(p)
                        .iter()
                        .filter(|b| b.is_ascii_uppercase())
                        .eq(name(&prop).iter().filter(|b| b.is_ascii_uppercase())))
        });
        let Some(&(_, head)) = head else {
            return;
        };
        self.diag.warn(WarningKind::RepeatedProperty, prop.ident.0);
        let index = id as usize - 1;
        if self.repeats.len() <= index / 64 {
            self.repeats.resize(index / 64 + 1, 0);
        }
        self.repeats[index / 64] |= 1 << (index % 64);
        // Later occurrences are skipped when listing properties; the first
        // gathers their values.
        self.repeat_tails.push(prop.ident.0 as u32);
        let head = head.ident.0 as u32;
        if let Err(at) = self.repeat_heads.binary_search(&head) {
            self.repeat_heads.insert(at, head);
        }
    }
}

/// The shape of nearly every node of a game record, read without the
/// general lexer: optional whitespace, one property with a one- or
/// two-letter upper-case identifier and one short value free of `\`, `[`
/// and `(`, then whitespace and the `;`, `(` or `)` that ends the node (or
/// the end of the input). Returns where the general lexer would have
/// stopped: at that ending byte. `None` for any other shape, which the
/// general lexer then reads (to the same result, with its warnings).
///
/// It overlaps `lexer::simple_prop` on purpose: built on it, the builder
/// runs 4% more instructions on the corpus (callgrind), for nothing.
#[inline(always)]
fn simple_node(input: &[u8], body: usize) -> Option<usize> {
    let mut i = body;
    while matches!(input.get(i), Some(b' ' | b'\n' | b'\r' | b'\t')) {
        i += 1;
    }
    if !input.get(i)?.is_ascii_uppercase() {
        return None;
    }
    i += 1;
    if input.get(i)?.is_ascii_uppercase() {
        i += 1;
    }
    if *input.get(i)? != b'[' {
        return None;
    }
    i += 1;
    // Most values are a move: two letters and `]`.
    let limit = (i + 32).min(input.len());
    if let Some(&[a, b, b']']) = input.get(i..i + 3) {
        if a.is_ascii_alphabetic() && b.is_ascii_alphabetic() {
            i += 2;
        }
    }
    loop {
        if i >= limit {
            return None;
        }
        match input[i] {
            b']' => break,
            b'\\' | b'[' | b'(' => return None,
            _ => i += 1,
        }
    }
    i += 1;
    while matches!(input.get(i), Some(b' ' | b'\n' | b'\r' | b'\t')) {
        i += 1;
    }
    match input.get(i) {
        None | Some(b';' | b'(' | b')') => Some(i),
        Some(_) => None,
    }
}

const KEY_SZ: u64 = u16::from_le_bytes(*b"SZ") as u64;
const KEY_GM: u64 = u16::from_le_bytes(*b"GM") as u64;
const KEY_CA: u64 = u16::from_le_bytes(*b"CA") as u64;

/// Where a root's `SZ`, `GM` and `CA` values are.
#[derive(Default)]
struct RootInfo {
    sz: Option<Span32>,
    gm: Option<Span32>,
    ca: Option<Span32>,
}

/// The key of identifiers longer than eight letters, compared letter by
/// letter.
const LONG_IDENT: u64 = 0;

/// The normalised identifier packed into a `u64` when it has at most eight
/// letters (they are never 0), else [`LONG_IDENT`].
#[inline(always)]
fn ident_key(raw: &[u8], clean: bool) -> u64 {
    let mut key = 0u64;
    let mut n = 0;
    for &b in raw {
        if clean || b.is_ascii_uppercase() {
            if n == 8 {
                return LONG_IDENT;
            }
            key |= (b as u64) << (8 * n);
            n += 1;
        }
    }
    key
}

/// Passes warnings on, except those about an identifier's spelling, which
/// the node lexer reports when it reads the identifier again.
struct NotIdent<'a, 'b>(&'a mut Diagnostics<'b>);

impl Sink for NotIdent<'_, '_> {
    fn warn(&mut self, kind: WarningKind, offset: usize) {
        if !matches!(
            kind,
            WarningKind::LowercaseInIdent | WarningKind::WhitespaceInIdent
        ) {
            self.0.warn(kind, offset);
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

/// Whether the `;` at `at` starts a node: an identifier and `[` follow.
fn looks_like_node(input: &[u8], at: usize) -> bool {
    looks_like_ident_then_value(input, skip_space(input, at + 1))
}

fn looks_like_ident_then_value(input: &[u8], i: usize) -> bool {
    crate::lexer::looks_like_ident_then_value(input, i)
}
