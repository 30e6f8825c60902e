//! One property and its values: the values as read, their escapes made
//! canonical, point lists expanded or compressed, and text transcoded.

use super::escape::escape_canonical;
use super::points::Board;
use super::transcode::escapes_stand_alone;
use super::{PointStyle, Writer};
use crate::error::Result;
use crate::tree::read::{ReadGame, ReadNode, ReadProperty};
use crate::value::catalogue;
use crate::value::{split_compose, Arity, BoardSize, Move, Point, PropInfo, ValueType};
use encoding_rs::UTF_8;
use std::io::Write;

impl<W: Write> Writer<W> {
    /// Writes one property (not in the fast raw path), whose identifier is
    /// `ident`.
    pub(super) fn property<'g, N: ReadNode<'g>>(
        &mut self,
        node: N,
        prop: N::Property,
        ident: &[u8],
    ) -> Result<()> {
        let at = self.token_start();
        let result = self.property_inner(node, prop, ident);
        self.token(at);
        result
    }

    pub(super) fn property_inner<'g, N: ReadNode<'g>>(
        &mut self,
        node: N,
        prop: N::Property,
        ident: &[u8],
    ) -> Result<()> {
        let game = node.game();
        self.buf.extend_from_slice(ident);
        let info = catalogue::lookup_bytes(self.game.gm, ident);
        let compose = Shape::of(info);
        if !self.options.canonical {
            for (value, at) in prop.values_at() {
                self.value(game, ident, value, at, compose)?;
            }
            return Ok(());
        }
        if let Some(info) = info.filter(|_| self.game.gm == 1) {
            let size = self.game.size;
            match info.ty {
                ValueType::Move => {
                    let (value, at) = prop.values_at().next().unwrap_or((&[], None));
                    self.drop_values(game, prop, 1);
                    if Move::read(value, size) == Some(Move::Pass) {
                        let tt = self.options.tt_pass && size.tt_is_pass();
                        self.buf.extend_from_slice(if tt { b"[tt]" } else { b"[]" });
                        return Ok(());
                    }
                    return self.value(game, ident, value, at, Shape::RAW);
                }
                ValueType::Point | ValueType::Stone
                    if info.arity != Arity::One
                        && self.options.points != PointStyle::AsWritten
                        && self.point_list(node, prop, size) =>
                {
                    return Ok(());
                }
                _ => {}
            }
        }
        if let Some(info) = info.filter(|i| i.arity == Arity::One) {
            return self.single_value(game, prop, info, compose);
        }
        for (value, at) in prop.values_at() {
            self.value(game, ident, value, at, compose)?;
        }
        Ok(())
    }

    /// Writes a point list expanded or compressed; `false` (and nothing
    /// written) when a value is malformed or off the board.
    pub(super) fn point_list<'g, N: ReadNode<'g>>(
        &mut self,
        node: N,
        prop: N::Property,
        size: BoardSize,
    ) -> bool {
        let mut board = Board::new();
        // An occurrence of a root that keeps them apart is checked with the
        // others: a reader sees them as one list.
        let merged = std::str::from_utf8(prop.ident_bytes())
            .ok()
            .and_then(|ident| node.property(ident));
        if let Some(all) = merged
            && !board.read(all.values(), size)
        {
            return false;
        }
        if !board.read(prop.values(), size) {
            return false;
        }
        if board.is_empty() {
            self.buf.extend_from_slice(b"[]");
            return true;
        }
        let buf = &mut self.buf;
        if self.options.points == PointStyle::Expand {
            Board::expand(prop.values(), size, |p| {
                buf.push(b'[');
                push_point(buf, p);
                buf.push(b']');
            });
        } else {
            board.compress(|a, b| {
                buf.push(b'[');
                push_point(buf, a);
                if a != b {
                    buf.push(b':');
                    push_point(buf, b);
                }
                buf.push(b']');
            });
        }
        true
    }

    /// Writes one value `[…]` of `prop` that starts at `offset` in the
    /// input; `compose` when it may be a compose value.
    pub(super) fn value<'g>(
        &mut self,
        game: impl ReadGame<'g>,
        ident: &[u8],
        raw: &[u8],
        offset: Option<usize>,
        shape: Shape,
    ) -> Result<()> {
        self.buf.push(b'[');
        let halves = if shape.compose {
            split_compose(raw)
        } else {
            None
        };
        match halves {
            Some((a, b)) => {
                self.piece(game, ident, a, offset, true, shape.first)?;
                self.buf.push(b':');
                let second = offset.map(|o| o + a.len() + 1);
                self.piece(game, ident, b, second, true, shape.second)?;
            }
            None if shape.compose => self.piece(game, ident, raw, offset, true, shape.first)?,
            None => self.piece(game, ident, raw, offset, false, shape.text)?,
        }
        self.buf.push(b']');
        Ok(())
    }

    /// Writes a value, or half of a compose value (`colon`): copied,
    /// escaped canonically when it is `text` (other types read their
    /// bytes as they are, escapes included), or transcoded.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn piece<'g>(
        &mut self,
        game: impl ReadGame<'g>,
        ident: &[u8],
        raw: &[u8],
        offset: Option<usize>,
        colon: bool,
        text: bool,
    ) -> Result<()> {
        if let Some(target) = self.game.target
            && !raw.is_ascii()
        {
            let source = self.source(game);
            // Damaged UTF-8 is repaired too: U+FFFD, as it reads.
            if source != target || (target == UTF_8 && simdutf8::basic::from_utf8(raw).is_err()) {
                return self.transcode(game, ident, raw, offset, colon, source, target);
            }
        }
        let plain =
            memchr::memchr(b'\\', raw).is_none() && (!colon || memchr::memchr(b':', raw).is_none());
        if plain || !text || !self.options.canonical {
            self.buf.extend_from_slice(raw);
            return Ok(());
        }
        // Escapes are rewritten only where a `\\` byte is always one.
        let source = self.source(game);
        // A value holding `(` keeps its escapes: one removed between `(`
        // and `;GM[` would make the reader start a new game there.
        if (self.game.target.is_some() || escapes_stand_alone(source))
            && memchr::memchr(b'(', raw).is_none()
        {
            escape_canonical(raw, colon, false, &mut self.buf);
        } else {
            self.buf.extend_from_slice(raw);
        }
        Ok(())
    }
}

/// The two letters of a point on a board of at most 52×52.
pub(super) fn push_point(buf: &mut Vec<u8>, p: Point) {
    let letter = |c: u8| if c < 26 { b'a' + c } else { b'A' + c - 26 };
    buf.push(letter(p.x));
    buf.push(letter(p.y));
}

/// Whether the catalogue says the property takes one value.
pub(super) fn is_single(info: Option<&PropInfo>) -> bool {
    info.is_some_and(|i| i.arity == Arity::One)
}

pub(super) fn is_compose(ty: ValueType) -> bool {
    matches!(ty, ValueType::Compose(..))
}

/// How a property's values are written: split at their first `:` (compose
/// values, and unknown properties, which might be), and which parts are
/// text, whose escapes canonical mode rewrites.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shape {
    compose: bool,
    /// The whole value (not compose) is text.
    text: bool,
    /// The first half is text.
    first: bool,
    /// The second half is text.
    second: bool,
}

impl Shape {
    /// Copied as it is.
    pub(super) const RAW: Shape = Shape {
        compose: false,
        text: false,
        first: false,
        second: false,
    };

    pub(super) fn of(info: Option<&PropInfo>) -> Shape {
        let Some(info) = info else {
            return Shape {
                compose: true,
                text: true,
                first: true,
                second: true,
            };
        };
        let is_text = |ty: ValueType| matches!(ty, ValueType::Text | ValueType::SimpleText);
        let halves = match (info.ty, info.alt) {
            (ValueType::Compose(a, b), _) | (_, Some(ValueType::Compose(a, b))) => Some((*a, *b)),
            _ => None,
        };
        Shape {
            compose: halves.is_some(),
            text: is_text(info.ty),
            first: halves.is_some_and(|(a, _)| is_text(a)),
            second: halves.is_some_and(|(_, b)| is_text(b)),
        }
    }
}
