//! Reading one node: its properties and every value, recorded once into a
//! reusable scratch space that a [`NodeEvent`](super::NodeEvent) lends out
//! and the tree builder copies into its records.

use super::diag::DiagSink;
use crate::error::WarningKind;
use crate::lexer::{
    dangling_ident, has_upper, next_value, read_gap, scan_value_in, Scanner, Sink, ValueMode,
};
use crate::span::Span;
use crate::text::Charset;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A span in 8 bytes (inputs are below 4 GiB).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Span32 {
    pub(crate) start: u32,
    pub(crate) end: u32,
}

impl Span32 {
    #[inline(always)]
    pub(crate) fn new(start: usize, end: usize) -> Span32 {
        Span32 {
            start: start as u32,
            end: end as u32,
        }
    }
    #[inline(always)]
    pub(crate) fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
    #[inline(always)]
    pub(crate) fn span(self) -> Span {
        Span::new(self.start as usize, self.end as usize)
    }
}

/// Flags of a [`PropTok`].
pub(crate) mod flag {
    /// The identifier needed normalising: its name is in `Scratch::names`.
    pub(crate) const DIRTY: u8 = 1;
    /// A later occurrence of a property already in the node.
    pub(crate) const REPEAT: u8 = 2;
    /// The first occurrence of a property that later occurrences merge into.
    pub(crate) const HEAD: u8 = 4;
    /// The last value was cut off instead of closed.
    pub(crate) const CUT: u8 = 8;
    /// The values were read a character at a time.
    pub(crate) const CHARS: u8 = 16;
}

/// One occurrence of a property in a node, as read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PropTok {
    /// The identifier as written, first letter to last letter.
    pub(crate) ident: Span32,
    /// The normalised identifier: in the input when clean, else in
    /// `Scratch::names` ([`flag::DIRTY`]).
    pub(crate) name: Span32,
    /// The first of its values in `Scratch::values`.
    pub(crate) values: u32,
    /// How many values (at least one).
    pub(crate) count: u32,
    /// For an occurrence that later ones merge into: how many properties
    /// further on in the node the next occurrence is (0: none).
    pub(crate) next: u32,
    pub(crate) flags: u8,
}

impl PropTok {
    #[inline(always)]
    pub(crate) fn has(&self, f: u8) -> bool {
        self.flags & f != 0
    }
    /// The end of its last value's content.
    #[inline(always)]
    pub(crate) fn name_bytes<'a>(&self, input: &'a [u8], names: &'a [u8]) -> &'a [u8] {
        if self.has(flag::DIRTY) {
            &names[self.name.range()]
        } else {
            &input[self.name.range()]
        }
    }
}

/// The properties of the node being read.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    pub(crate) props: Vec<PropTok>,
    pub(crate) values: Vec<Span32>,
    /// Normalised spellings of dirty identifiers.
    pub(crate) names: Vec<u8>,
    /// Each property's identifier key (parallel to `props`).
    keys: Vec<u64>,
    /// The last occurrence of each head (parallel to `props`).
    tails: Vec<u32>,
    /// Key → first property with it, once a node has many properties.
    index: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    /// One bit per key seen in the node (a hash of it into 256 bits): most
    /// properties are the first of their name, which this tells without a
    /// search (a root's twenty names rarely share a bit).
    seen: [u64; 4],
}

/// Hashes keys that are well mixed already (identifier keys of short
/// names, position hashes) with one multiplication: also the hasher of the
/// board's superko history.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    }
}

impl Scratch {
    #[inline(always)]
    pub(crate) fn clear(&mut self) {
        self.props.clear();
        self.values.clear();
        self.names.clear();
        self.keys.clear();
        self.tails.clear();
        self.seen = [0; 4];
        if !self.index.is_empty() {
            self.index.clear();
        }
    }

    pub(crate) fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.props.capacity() * size_of::<PropTok>()
            + self.values.capacity() * size_of::<Span32>()
            + self.names.capacity()
            + (self.keys.capacity()) * size_of::<u64>()
            + self.tails.capacity() * size_of::<u32>()
            + self.index.capacity() * (size_of::<u64>() + size_of::<u32>() + 1)
    }

    /// Finds an earlier occurrence of the property just pushed (the last of
    /// `props`) and links it; returns whether it repeats one.
    fn link_repeat(&mut self, input: &[u8]) -> bool {
        let i = self.props.len() - 1;
        let prop = self.props[i];
        let name = prop.name_bytes(input, &self.names);
        let key = ident_key(name);
        self.keys.push(key);
        self.tails.push(i as u32);
        const LINEAR: usize = 64;
        let head = if i < LINEAR {
            let h = key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 56;
            let (word, bit) = ((h >> 6) as usize, 1u64 << (h & 63));
            if self.seen[word] & bit == 0 {
                self.seen[word] |= bit;
                return false;
            }
            (0..i).find(|&j| self.keys[j] == key && self.same_name(input, j, name))
        } else {
            if self.index.is_empty() {
                for j in 0..i {
                    self.index.entry(self.keys[j]).or_insert(j as u32);
                }
            }
            match self.index.get(&key) {
                Some(&j) if self.same_name(input, j as usize, name) => Some(j as usize),
                // A hash collision between two long names: look further.
                Some(_) => (0..i).find(|&j| self.keys[j] == key && self.same_name(input, j, name)),
                None => {
                    self.index.insert(key, i as u32);
                    None
                }
            }
        };
        let Some(head) = head else {
            return false;
        };
        let tail = self.tails[head] as usize;
        self.props[tail].next = (i - tail) as u32;
        self.tails[head] = i as u32;
        self.props[head].flags |= flag::HEAD;
        self.props[i].flags |= flag::REPEAT;
        true
    }

    fn same_name(&self, input: &[u8], j: usize, name: &[u8]) -> bool {
        self.keys[j] & LONG == 0 || self.props[j].name_bytes(input, &self.names) == name
    }
}

/// Marks a key that is a hash of a name longer than eight letters.
const LONG: u64 = 1 << 63;

/// The normalised identifier packed into a `u64` when it has at most eight
/// letters (upper-case ASCII, never 0, so bit 63 stays clear), else a hash
/// of it with [`LONG`] set.
#[inline(always)]
fn ident_key(name: &[u8]) -> u64 {
    if name.len() <= 8 {
        let mut key = 0u64;
        for (n, &b) in name.iter().enumerate() {
            key |= (b as u64) << (8 * n);
        }
        return key;
    }
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in name {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    h | LONG
}

/// What [`lex_node`] found in a root besides its properties.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct RootSwitch {
    /// The mode values are read in after the root's `CA`, and from where
    /// (`usize::MAX` when the mode was not fixed beforehand and the root has
    /// no `CA` naming a usable charset).
    pub(crate) mode: ValueMode,
    pub(crate) from: usize,
    /// The charset detected from the game's bytes that fixed the mode, for a
    /// game without `CA` read a character at a time.
    pub(crate) detected: Option<Charset>,
}

impl RootSwitch {
    /// Whether the game's charset is not left to detection: its mode was
    /// fixed before its root (an override, a detected charset) or its root
    /// has a `CA` naming a usable charset.
    pub(crate) fn is_declared_or_fixed(&self) -> bool {
        self.from != usize::MAX
    }
}

/// Reads the properties of one node from `body` (just after its `;`, or its
/// first identifier when the `;` is missing) to the `;`, `(`, `)` or end of
/// input that ends it, which is returned. The scanner must be positioned at
/// `body` and is left at the returned offset.
///
/// In a root (`root` is `Some`), the first `CA` switches the reading of the
/// values after it to the mode its charset needs (unless an override fixed
/// the mode already); the switch is returned through `root`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn lex_node(
    scanner: &mut Scanner<'_>,
    body: usize,
    mut mode: ValueMode,
    mut root: Option<&mut RootSwitch>,
    fixed_mode: bool,
    scratch: &mut Scratch,
    sink: &mut DiagSink<'_, '_>,
) -> usize {
    let input = scanner.input();
    let mut pos = body;
    let mut ca_seen = false;
    // Whether the scanner is behind `pos`, with no structural byte between
    // (the fast path below moves it only when the general path needs it).
    let mut behind = false;
    loop {
        if mode == ValueMode::Bytes
            && let Some((ident, value, end)) = simple_prop(input, pos)
        {
            // The shape of most properties, which the general path below
            // reads to the same result and with no warning.
            behind = true;
            pos = end;
            let first = scratch.values.len() as u32;
            scratch.values.push(value);
            scratch.props.push(PropTok {
                ident,
                name: ident,
                values: first,
                count: 1,
                next: 0,
                flags: 0,
            });
            if scratch.link_repeat(input) {
                sink.warn(WarningKind::RepeatedProperty, ident.start as usize);
            }
            if let Some(root) = root.as_deref_mut()
                && !ca_seen
                && &input[ident.range()] == b"CA"
            {
                ca_seen = true;
                let m = ca_mode(input, value, sink);
                if let (false, Some(m)) = (fixed_mode, m) {
                    mode = m;
                    root.mode = mode;
                    root.from = end;
                }
            }
            continue;
        }
        if behind {
            behind = false;
            scanner.seek(pos);
        }
        let at = scanner.peek().unwrap_or(input.len());
        let gap = read_gap(input, pos, at, sink);
        match input.get(at) {
            Some(b'[') => {
                scanner.next_structural();
                let Some(ident) = gap.ident else {
                    sink.warn(WarningKind::ValueWithoutIdent, at);
                    pos = skip_values(scanner, at, mode, sink);
                    continue;
                };
                if !gap.clean && !has_upper(&input[ident.0..ident.1]) {
                    sink.warn(WarningKind::InvalidIdent, ident.0);
                    pos = skip_values(scanner, at, mode, sink);
                    continue;
                }
                let first = scratch.values.len();
                let mut open = at;
                let mut cut;
                let resume = loop {
                    let end = scan_value_in(scanner, open, sink, mode);
                    // A value cut before any byte of it (`;W[` at the end)
                    // is no value: it is dropped (the lexer warned).
                    if !(end.cut && end.content_end == open + 1) {
                        let value = &input[open + 1..end.content_end];
                        if let Some(i) = memchr::memchr(0, value) {
                            sink.warn(WarningKind::NulInValue, open + 1 + i);
                        }
                        scratch.values.push(Span32::new(open + 1, end.content_end));
                    }
                    cut = end.cut && end.content_end > open + 1;
                    if end.cut {
                        break end.resume;
                    }
                    match next_value(scanner, end.resume, sink) {
                        Some(o) => open = o,
                        None => break end.resume,
                    }
                };
                pos = resume;
                let count = scratch.values.len() - first;
                if count == 0 {
                    continue;
                }
                let mut flags = if cut { flag::CUT } else { 0 };
                if mode != ValueMode::Bytes {
                    flags |= flag::CHARS;
                }
                let raw = Span32::new(ident.0, ident.1);
                let name = if gap.clean {
                    raw
                } else {
                    flags |= flag::DIRTY;
                    let from = scratch.names.len();
                    scratch.names.extend(
                        input[ident.0..ident.1]
                            .iter()
                            .filter(|b| b.is_ascii_uppercase()),
                    );
                    Span32::new(from, scratch.names.len())
                };
                scratch.props.push(PropTok {
                    ident: raw,
                    name,
                    values: first as u32,
                    count: count as u32,
                    next: 0,
                    flags,
                });
                if scratch.link_repeat(input) {
                    sink.warn(WarningKind::RepeatedProperty, ident.0);
                }
                if let Some(root) = root.as_deref_mut()
                    && !ca_seen
                    && scratch
                        .props
                        .last()
                        .expect("pushed")
                        .name_bytes(input, &scratch.names)
                        == b"CA"
                {
                    ca_seen = true;
                    let m = ca_mode(input, scratch.values[first], sink);
                    if let (false, Some(m)) = (fixed_mode, m) {
                        mode = m;
                        root.mode = mode;
                        root.from = resume;
                    }
                }
            }
            Some(b']') | Some(b'\\') => {
                // A stray closing bracket or backslash between properties.
                if let Some(ident) = gap.ident {
                    dangling_ident(input, ident, sink);
                }
                sink.warn(WarningKind::UnexpectedByte, at);
                scanner.next_structural();
                pos = at + 1;
            }
            _ => {
                if let Some(ident) = gap.ident {
                    dangling_ident(input, ident, sink);
                }
                return at;
            }
        }
    }
}

/// Reads the value opened at `open` (the scanner just past it) and every
/// value that directly follows it, keeping none; returns the offset after
/// the last one.
pub(crate) fn skip_values<S: Sink>(
    scanner: &mut Scanner<'_>,
    open: usize,
    mode: ValueMode,
    sink: &mut S,
) -> usize {
    let mut end = scan_value_in(scanner, open, sink, mode);
    while !end.cut {
        match next_value(scanner, end.resume, sink) {
            Some(o) => end = scan_value_in(scanner, o, sink, mode),
            None => break,
        }
    }
    end.resume
}

/// The shape of nearly every node of a game record, read without the
/// general lexer: one property ([`short_prop`]) and then whitespace and the
/// `;`, `(` or `)` that ends the node (or the end of the input). Returns the
/// identifier, the value's content and where the general lexer would have
/// stopped: at that ending byte. `None` for any other shape, which the
/// general lexer then reads (to the same result, with its warnings).
#[inline(always)]
pub(crate) fn simple_node(input: &[u8], body: usize) -> Option<(Span32, Span32, usize)> {
    // Most of all: a move (`B[pd]`) and the `;` of the next node, or a
    // line break; six bytes looked at once.
    if let Some(&[letter, open, a, b, close, next]) = input.get(body..body + 6)
        && letter.is_ascii_uppercase()
        && open == b'['
        && a.is_ascii_alphabetic()
        && b.is_ascii_alphabetic()
        && close == b']'
    {
        let ident = Span32::new(body, body + 1);
        let value = Span32::new(body + 2, body + 4);
        let end = match next {
            b';' | b'(' | b')' => body + 5,
            b' ' | b'\n' | b'\r' | b'\t' => {
                let i = skip_blank(input, body + 6);
                if !matches!(input.get(i), None | Some(b';' | b'(' | b')')) {
                    return None;
                }
                i
            }
            _ => return None,
        };
        return Some((ident, value, end));
    }
    simple_node_general(input, body)
}

/// [`simple_node`] for the shapes other than a move.
#[inline(always)]
fn simple_node_general(input: &[u8], body: usize) -> Option<(Span32, Span32, usize)> {
    let (ident, value, after) = short_prop(input, body)?;
    let i = skip_blank(input, after);
    matches!(input.get(i), None | Some(b';' | b'(' | b')')).then_some((ident, value, i))
}

/// The shape of most properties of a root: one property ([`short_prop`])
/// followed (after whitespace) by an upper-case letter, `;`, `(`, `)` or the
/// end of the input, so that no second value follows. Returns the
/// identifier, the value's content and the offset after its `]`; `None` for
/// any other shape, which the general path then reads.
#[inline(always)]
fn simple_prop(input: &[u8], pos: usize) -> Option<(Span32, Span32, usize)> {
    let (ident, value, after) = short_prop(input, pos)?;
    let i = skip_blank(input, after);
    matches!(input.get(i), None | Some(b';' | b'(' | b')' | b'A'..=b'Z'))
        .then_some((ident, value, after))
}

/// One property in its common shape: optional whitespace, a one- or
/// two-letter upper-case identifier, `[`, a value of at most 32 bytes free
/// of `\\`, `[`, `(` and NUL, and its `]`. Returns the identifier, the
/// value's content and the offset after the `]`.
#[inline(always)]
fn short_prop(input: &[u8], pos: usize) -> Option<(Span32, Span32, usize)> {
    let start = skip_blank(input, pos);
    let mut i = start;
    if !input.get(i)?.is_ascii_uppercase() {
        return None;
    }
    i += 1;
    if input.get(i)?.is_ascii_uppercase() {
        i += 1;
    }
    let open = i;
    if *input.get(i)? != b'[' {
        return None;
    }
    i += 1;
    // Most values are a move: two letters and `]`.
    if let Some(&[a, b, b']']) = input.get(i..i + 3)
        && a.is_ascii_alphabetic()
        && b.is_ascii_alphabetic()
    {
        return Some((Span32::new(start, open), Span32::new(i, i + 2), i + 3));
    }
    let limit = (i + 32).min(input.len());
    loop {
        if i >= limit {
            return None;
        }
        match input[i] {
            b']' => break,
            b'\\' | b'[' | b'(' | 0 => return None,
            _ => i += 1,
        }
    }
    Some((Span32::new(start, open), Span32::new(open + 1, i), i + 1))
}

/// The first offset at or after `i` that is not a space, tab or line break.
#[inline(always)]
fn skip_blank(input: &[u8], mut i: usize) -> usize {
    while matches!(input.get(i), Some(b' ' | b'\n' | b'\r' | b'\t')) {
        i += 1;
    }
    i
}

/// How a root's values are read after its `CA` value `value`; `None`, with
/// a warning, when it names no charset or one SGF text cannot be in: the
/// game is then read as if it had no `CA` (detection decides, the mode
/// too).
fn ca_mode(input: &[u8], value: Span32, sink: &mut DiagSink<'_, '_>) -> Option<ValueMode> {
    use crate::text::charset::{any_label, is_usable};
    match any_label(&input[value.range()]) {
        Some(e) if is_usable(e) => Some(ValueMode::for_encoding(e)),
        Some(_) => {
            sink.warn(WarningKind::UnusableCharset, value.start as usize);
            None
        }
        None => {
            sink.warn(WarningKind::UnknownCharset, value.start as usize);
            None
        }
    }
}
