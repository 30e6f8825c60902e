//! Typed reading of the tree: the handles hand their values to the
//! [`value`](crate::value) layer with the context it needs (board size,
//! charset, the arena for decoded text) and place its errors at the
//! value's position. `value` decodes bytes and knows nothing of nodes.

use super::{Collection, GameTree, Node, Property, RawValue, Values};
use crate::error::{Error, ErrorKind, Result};
use crate::text::charset::CharsetOf;
use crate::text::Charset;
use crate::value::catalogue;
use crate::value::{
    coord, decode_catalogued, point_list_item, valid_catalogued, Arity, BoardSize, Color,
    FromValue, Move, Point, PropInfo, TypedValue, ValueContext, ValueType,
};
use std::marker::PhantomData;

impl<'t, 'src: 't> GameTree<'t, 'src> {
    /// The board size from the root's `SZ` (`19` or `19:13`); 19×19 when
    /// `SZ` is absent or malformed (the typed getter for `SZ` reports the
    /// latter as an error). Read once, while parsing.
    #[inline]
    pub fn board_size(&self) -> BoardSize {
        self.data().size
    }

    /// The game from the root's `GM` (1 = Go, the default when absent or
    /// malformed). Read once, while parsing.
    #[inline]
    pub fn game_type(&self) -> u32 {
        self.data().game_type
    }

    /// The root's `CA` value as written, if any.
    pub fn declared_charset(&self) -> Option<&'src [u8]> {
        let ca = self.data().ca;
        (ca.end > 0).then(|| &self.coll.input[ca.range()])
    }

    /// The charset of this game's text: the parse options' override, else
    /// the root's `CA` when `encoding_rs` knows its label, else detected from
    /// the game's bytes (see [`charset`](crate::text::charset)). Found once
    /// and remembered.
    pub fn charset(&self) -> Charset {
        self.charset_of().get()
    }

    /// The charset the writer records in this game's root (as `CA`) so that
    /// the written game is read the way this one was: `None` when the root
    /// has a `CA` naming a usable charset that the game was read in, or
    /// nothing about the game's bytes needs one. A game without such a
    /// `CA` is read in a charset guessed from its bytes, and writing
    /// changes bytes outside its values (junk dropped, a cut value closed),
    /// which could change the guess: a game read a character at a time
    /// (a detected Shift_JIS, Big5 or GB18030, or an override) is pinned to
    /// that charset, and a game read byte by byte whose bytes are not UTF-8
    /// to the charset its text is decoded in (unless that one would be read
    /// a character at a time, which would split its values differently).
    /// A `CA` naming no usable charset (`CA[UTF-16]`, `CA[klingon]`), or
    /// one that did not decide the reading (detection decided before the
    /// `CA` was seen: it came after a `;` or `(` that a character of the
    /// detected charset swallowed), gives way to the pinned one.
    pub(crate) fn charset_to_pin(&self) -> Option<&'static encoding_rs::Encoding> {
        use crate::text::charset::{for_label, is_ascii_unsafe};
        let store = self.coll.store;
        let charset = self.charset();
        let encoding = charset.encoding();
        let by_chars = store.any_chars && self.data().mode != crate::lexer::ValueMode::Bytes;
        if self.declared_charset().and_then(for_label).is_some() {
            // Read as its `CA` says, unless detection decided before the
            // `CA` was seen (then the next reading would not see it either,
            // even when it names the charset detection chose).
            let detected = charset.source() == crate::text::CharsetSource::Detected;
            return (detected && (by_chars || !is_ascii_unsafe(encoding))).then_some(encoding);
        }
        if by_chars {
            return Some(encoding);
        }
        let span = self.span();
        let pin = store.override_charset.is_some()
            || simdutf8::basic::from_utf8(&self.coll.input[span.start..span.end]).is_err();
        (pin && !is_ascii_unsafe(encoding)).then_some(encoding)
    }

    /// What finds this game's charset.
    #[inline]
    fn charset_of(&self) -> CharsetOf<'t> {
        let store = self.coll.store;
        let span = self.span();
        CharsetOf {
            cell: &store.charsets[self.local_index()],
            forced: store.override_charset,
            declared: self.declared_charset(),
            bytes: &self.coll.input[span.start..span.end],
        }
    }

    /// The context typed getters use for this game's values: its board
    /// size, its charset (found when text first needs it) and the tree's
    /// arena for decoded text.
    ///
    /// ```
    /// use sgf_grove::value::{BoardSize, Move, FromValue};
    /// let doc = sgf_grove::parse(b"(;SZ[9]CA[GB2312])")?;
    /// let ctx = doc.games().next().unwrap().value_context();
    /// assert_eq!(ctx.size(), BoardSize::square(9));
    /// assert_eq!(ctx.encoding().name(), "GBK");
    /// assert_eq!(Move::from_value(b"tt", &ctx), Some(Move::Pass));
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    #[inline]
    pub fn value_context(&self) -> ValueContext<'t> {
        let arena = &self.coll.store.arena;
        match self.coll.store.charsets[self.local_index()].get() {
            Some(charset) => ValueContext::new(self.board_size(), charset.encoding(), arena),
            None => ValueContext::of_game(self.board_size(), self.charset_of(), arena),
        }
    }
}

impl<'t, 'src: 't> GameTree<'t, 'src> {
    /// The moves of the main line, in order: what [`Node::played`] gives
    /// for each node from the root down the first children, nodes without
    /// a move skipped. The shortest way from a parsed game to its moves.
    ///
    /// ```
    /// use sgf_grove::value::{Color, Move, Point};
    /// let doc = sgf_grove::parse(b"(;SZ[9];B[ee];W[]C[pass](;B[cc])(;B[gg]))")?;
    /// let game = doc.games().next().unwrap();
    /// let moves: Vec<(Color, Move)> = game.moves().collect::<Result<_, _>>()?;
    /// assert_eq!(moves, [
    ///     (Color::Black, Move::Play(Point { x: 4, y: 4 })),
    ///     (Color::White, Move::Pass),
    ///     (Color::Black, Move::Play(Point { x: 2, y: 2 })),
    /// ]);
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    pub fn moves(&self) -> Moves<'t, 'src> {
        let store = self.coll.store;
        Moves {
            nodes: &store.nodes,
            slots: &store.slots,
            input: self.coll.input,
            size: self.board_size(),
            coll: self.coll,
            next: self.data().root,
            game: self.index as u32,
        }
    }
}

impl<'t, 'src: 't> GameTree<'t, 'src> {
    /// The valid moves of the main line, in order, with the invalid ones
    /// (a `B`/`W` value that is not a point on the board nor a pass)
    /// counted instead of stopping the caller: the tolerant twin of
    /// [`GameTree::moves`], for indexers that want every game's moves
    /// whatever a few broken values. After the loop,
    /// [`ValidMoves::invalid`] says how many were left out and
    /// [`ValidMoves::first_invalid`] which was the first, with its
    /// position.
    ///
    /// ```
    /// use sgf_grove::value::{Color, Move, Point};
    /// // `B[ta]` is off a 19×19 board.
    /// let doc = sgf_grove::parse(b"(;SZ[19];B[pd];W[ta];B[dd];W[])")?;
    /// let game = doc.games().next().unwrap();
    /// let mut moves = game.valid_moves();
    /// let played: Vec<(Color, Move)> = moves.by_ref().collect();
    /// assert_eq!(played.len(), 3);
    /// assert_eq!(played[2], (Color::White, Move::Pass));
    /// assert_eq!(moves.invalid(), 1);
    /// let first = moves.first_invalid().unwrap();
    /// assert_eq!((first.line(), first.column()), (1, 18));
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    pub fn valid_moves(&self) -> ValidMoves<'t, 'src> {
        ValidMoves {
            moves: self.moves(),
            invalid: 0,
            first_invalid: None,
        }
    }
}

/// The valid moves of a game's main line, from [`GameTree::valid_moves`]:
/// each item a colour and a move; values that are not moves are counted.
#[derive(Clone, Debug)]
pub struct ValidMoves<'t, 'src: 't> {
    moves: Moves<'t, 'src>,
    invalid: usize,
    first_invalid: Option<Error>,
}

impl ValidMoves<'_, '_> {
    /// How many `B`/`W` values met so far were not moves (left out).
    pub fn invalid(&self) -> usize {
        self.invalid
    }

    /// The error of the first value left out, with its position.
    pub fn first_invalid(&self) -> Option<&Error> {
        self.first_invalid.as_ref()
    }
}

impl Iterator for ValidMoves<'_, '_> {
    type Item = (Color, Move);
    #[inline]
    fn next(&mut self) -> Option<(Color, Move)> {
        loop {
            match self.moves.next()? {
                Ok(played) => return Some(played),
                Err(err) => {
                    self.invalid += 1;
                    self.first_invalid.get_or_insert(err);
                }
            }
        }
    }
}

impl std::iter::FusedIterator for ValidMoves<'_, '_> {}

/// The moves of a game's main line, from [`GameTree::moves`].
#[derive(Clone, Debug)]
pub struct Moves<'t, 'src: 't> {
    /// The records the loop reads, held here so that it reads them without
    /// going through the collection.
    nodes: &'t [super::store::NodeData],
    slots: &'t [crate::tree::Span32],
    input: &'src [u8],
    size: BoardSize,
    coll: Collection<'t, 'src>,
    /// The link of the next node of the line (0: the line has ended). Kept
    /// as a number, not a node handle, so that the loop stays in registers.
    next: u32,
    game: u32,
}

impl<'t, 'src: 't> Moves<'t, 'src> {
    /// The move of a plain node of one property: its colour and the
    /// value's span, or `None` when that property is not `B` or `W`.
    #[inline(always)]
    fn one_property(&self, slot: usize) -> Option<(Color, crate::tree::Span32)> {
        let span = *self.slots.get(slot)?;
        let open = (span.start as usize).checked_sub(1)?;
        let color = match self.input.get(open.wrapping_sub(1)) {
            Some(b'B') => Color::Black,
            Some(b'W') => Color::White,
            _ => return None,
        };
        if open > 1 && self.input[open - 2].is_ascii_uppercase() {
            return None;
        }
        Some((color, span))
    }

    /// The move of a plain node of several properties: the first `B`, else
    /// the first `W`.
    #[inline]
    fn first_move(&self, slots: std::ops::Range<usize>) -> Option<(Color, crate::tree::Span32)> {
        let mut white = None;
        for slot in slots {
            match self.one_property(slot) {
                Some((Color::Black, span)) => return Some((Color::Black, span)),
                Some(found) => {
                    white.get_or_insert(found);
                }
                None => {}
            }
        }
        white
    }
}

impl<'t, 'src: 't> Iterator for Moves<'t, 'src> {
    /// A move with its colour, or the error of a `B`/`W` value that is not
    /// a move on the board (the line goes on after it).
    type Item = Result<(Color, Move)>;
    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        use super::store::RICH;
        loop {
            let id = super::NodeId::from_link(self.next)?;
            let index = id.index();
            let props = self.nodes[index].props;
            // The first child is the next node, when it is this one's child.
            let after = self.nodes.get(index + 1);
            self.next = match after {
                Some(n) if n.parent as usize == index + 1 => index as u32 + 2,
                _ => 0,
            };
            let end = after.map_or(self.slots.len(), |n| (n.props & !RICH) as usize);
            if end == props as usize + 1 {
                // Nearly every node: plain, one property (with RICH set,
                // `end` is below `props`).
                let Some((color, span)) = self.one_property(props as usize) else {
                    continue;
                };
                if let &[a, b] = &self.input[span.range()]
                    && let (Some(x), Some(y)) = (coord(a), coord(b))
                {
                    let point = Point { x, y };
                    if self.size.contains(point) {
                        return Some(Ok((color, Move::Play(point))));
                    }
                }
            }
            if let Some(played) = self.general(id, props, end) {
                return Some(played);
            }
        }
    }
}

impl<'t, 'src: 't> Moves<'t, 'src> {
    /// The move of any other node (several properties, a rich node, a
    /// value that is not two letters on the board), or `None` when it has
    /// none. Out of line, so that loops over moves inline the common case.
    #[inline(never)]
    fn general(&self, id: super::NodeId, props: u32, end: usize) -> Option<Result<(Color, Move)>> {
        if props & super::store::RICH == 0 && end > props as usize + 1 {
            let (color, span) = self.first_move(props as usize..end)?;
            if let &[a, b] = &self.input[span.range()]
                && let (Some(x), Some(y)) = (coord(a), coord(b))
            {
                let point = Point { x, y };
                if self.size.contains(point) {
                    return Some(Ok((color, Move::Play(point))));
                }
            }
        }
        let node = Node {
            coll: self.coll,
            id,
            game: self.game,
        };
        node.played().transpose()
    }
}

impl std::iter::FusedIterator for Moves<'_, '_> {}

impl<'t, 'src: 't> Node<'t, 'src> {
    /// The first value of property `ident` read as `T`; `Ok(None)` when the
    /// node lacks the property.
    ///
    /// ```
    /// use sgf_grove::value::{Color, Move, Point};
    /// let doc = sgf_grove::parse(b"(;SZ[9]KM[6.5]PL[W];B[ee];W[])")?;
    /// let root = doc.games().next().unwrap().root();
    /// assert_eq!(root.get::<f64>("KM")?, Some(6.5));
    /// assert_eq!(root.get::<Color>("PL")?, Some(Color::White));
    /// let black = root.first_child().unwrap();
    /// assert_eq!(black.get::<Move>("B")?, Some(Move::Play(Point { x: 4, y: 4 })));
    /// assert_eq!(black.first_child().unwrap().get::<Move>("W")?, Some(Move::Pass));
    /// assert_eq!(black.get::<Move>("W")?, None);
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidValue`] with the value's position when the value
    /// is malformed for `T` (`B[z]`, `KM[six]` as a real);
    /// [`ErrorKind::InvalidGameInfo`] for the game-info types
    /// ([`Komi`](crate::game::Komi), [`GameDates`](crate::game::GameDates),
    /// [`TimeLimit`](crate::game::TimeLimit)), with the reason.
    #[inline]
    pub fn get<T: FromValue<'t>>(&self, ident: &str) -> Result<Option<T>> {
        let Some(prop) = self.property(ident) else {
            return Ok(None);
        };
        let ctx = self.game().value_context();
        decode(prop.first_value(), &ctx, self.coll).map(Some)
    }

    /// The move this node plays, with its colour: the `B` or `W` value read
    /// as a [`Move`] (a pass is [`Move::Pass`]); `None` when the node has
    /// neither. FF\[4\] forbids both in one node; a node that has both
    /// gives its `B` move, and its `W` is not read.
    ///
    /// ```
    /// use sgf_grove::value::{Color, Move, Point};
    /// let doc = sgf_grove::parse(b"(;SZ[19];B[pd];W[tt];C[no move])")?;
    /// let mut nodes = doc.games().next().unwrap().root().main_line();
    /// assert_eq!(nodes.next().unwrap().played()?, None); // the root
    /// let black = nodes.next().unwrap().played()?;
    /// assert_eq!(black, Some((Color::Black, Move::Play(Point { x: 15, y: 3 }))));
    /// assert_eq!(nodes.next().unwrap().played()?, Some((Color::White, Move::Pass)));
    /// assert_eq!(nodes.next().unwrap().played()?, None);
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidValue`] at the value when the `B` value (or,
    /// without `B`, the `W` value) is not a move on the board.
    #[doc(alias = "move")]
    #[inline(always)]
    pub fn played(&self) -> Result<Option<(Color, Move)>> {
        let Some((color, value)) = self.move_value() else {
            return Ok(None);
        };
        let size = self.game_data().size;
        // Most moves: two letters on the board.
        if let &[a, b] = value.raw()
            && let (Some(x), Some(y)) = (coord(a), coord(b))
        {
            let point = Point { x, y };
            if size.contains(point) {
                return Ok(Some((color, Move::Play(point))));
            }
        }
        self.played_slow(color, value, size)
    }

    #[cold]
    fn played_slow(
        &self,
        color: Color,
        value: RawValue<'src>,
        size: BoardSize,
    ) -> Result<Option<(Color, Move)>> {
        match Move::read(value.raw(), size) {
            Some(m) => Ok(Some((color, m))),
            None => Err(invalid(value, ValueType::Move, self.coll)),
        }
    }

    /// [`ReadNode::lone_move`](crate::ReadNode::lone_move): one plain
    /// slot, a one-letter `B` or `W`, two letters on the board.
    #[inline(always)]
    pub(crate) fn lone_move(&self) -> Option<(Color, Point)> {
        if self.is_rich() || self.slots().len() != 1 {
            return None;
        }
        let (color, value) = self.lone_slot_move()?;
        let &[a, b] = value.raw() else {
            return None;
        };
        let point = Point {
            x: coord(a)?,
            y: coord(b)?,
        };
        self.game_data()
            .size
            .contains(point)
            .then_some((color, point))
    }

    /// The value of a plain node's one slot, with its colour, when that
    /// slot is a one-letter `B` or `W` (the letter right before the `[`,
    /// no upper-case letter before it).
    #[inline(always)]
    fn lone_slot_move(&self) -> Option<(Color, RawValue<'src>)> {
        let input = self.coll.input;
        let span = self.coll.store.slots[self.slots().start];
        let open = span.start as usize - 1;
        let color = match input.get(open.wrapping_sub(1)) {
            Some(b'B') => Color::Black,
            Some(b'W') => Color::White,
            _ => return None,
        };
        if open > 1 && input[open - 2].is_ascii_uppercase() {
            return None;
        }
        Some((color, RawValue::new(input, span, false)))
    }

    /// The first value of `B`, else of `W`, with its colour: in a plain
    /// node one pass over the slots looking at the letter before each `[`
    /// (what [`Node::property`] does for each name in turn).
    #[inline(always)]
    fn move_value(&self) -> Option<(Color, RawValue<'src>)> {
        if self.is_rich() {
            let (color, prop) = match self.property("B") {
                Some(black) => (Color::Black, black),
                None => (Color::White, self.property("W")?),
            };
            return Some((color, prop.first_value()));
        }
        let (store, input) = (self.coll.store, self.coll.input);
        let slots = self.slots();
        if slots.len() == 1 {
            // Nearly every node: one property.
            return self.lone_slot_move();
        }
        let mut white = None;
        for slot in slots {
            let span = store.slots[slot];
            // A one-letter identifier: the letter right before the `[`,
            // with no upper-case letter before it.
            let open = span.start as usize - 1;
            let Some(&letter) = open.checked_sub(1).and_then(|i| input.get(i)) else {
                continue;
            };
            if matches!(letter, b'B' | b'W') && (open == 1 || !input[open - 2].is_ascii_uppercase())
            {
                let value = RawValue::new(input, span, false);
                if letter == b'B' {
                    return Some((Color::Black, value));
                }
                white.get_or_insert(value);
            }
        }
        white.map(|value| (Color::White, value))
    }

    /// Every value of property `ident` read as `T`, in file order (merged
    /// over repeats of the property); empty when the node lacks it.
    ///
    /// ```
    /// use sgf_grove::value::Point;
    /// let doc = sgf_grove::parse(b"(;AB[aa][bb])")?;
    /// let root = doc.games().next().unwrap().root();
    /// let stones: Vec<Point> = root.get_all::<Point>("AB").collect::<Result<_, _>>()?;
    /// assert_eq!(stones, [Point { x: 0, y: 0 }, Point { x: 1, y: 1 }]);
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    pub fn get_all<T: FromValue<'t>>(&self, ident: &str) -> ValuesAs<'t, 'src, T> {
        ValuesAs {
            values: self.raw_values(ident),
            ctx: self.game().value_context(),
            _type: PhantomData,
        }
    }

    /// The first value of `ident` as Text (see [`Text`](crate::value::Text)); `None` when the
    /// node lacks it. Decoding never fails: undecodable bytes become U+FFFD.
    /// The text is borrowed from the input when it needed no change, else
    /// from the tree's arena (emptied at the next parse); either way it
    /// lives as long as the tree borrow `'t`, and nothing is allocated on
    /// the heap once the arena has grown to fit.
    ///
    /// ```
    /// let doc = sgf_grove::parse(b"(;CA[UTF-8]C[Good move\\]\r\nnext line]GN[plain])")?;
    /// let root = doc.games().next().unwrap().root();
    /// assert_eq!(root.text("C"), Some("Good move]\nnext line"));
    /// // Nothing to change: a slice of the input.
    /// assert_eq!(root.text("GN").unwrap().as_ptr(), root.raw("GN").unwrap().as_ptr());
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    #[inline]
    pub fn text(&self, ident: &str) -> Option<&'t str> {
        let prop = self.property(ident)?;
        Some(self.game().value_context().text(prop.raw()))
    }

    /// The first value of `ident` as SimpleText (see
    /// [`SimpleText`](crate::value::SimpleText));
    /// `None` when the node lacks it. Borrowed as [`Node::text`] is.
    ///
    /// ```
    /// let doc = sgf_grove::parse(b"(;PB[Lee\r\nSedol])")?;
    /// let root = doc.games().next().unwrap().root();
    /// assert_eq!(root.simple_text("PB"), Some("Lee Sedol"));
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    #[inline]
    pub fn simple_text(&self, ident: &str) -> Option<&'t str> {
        let prop = self.property(ident)?;
        Some(self.game().value_context().simple_text(prop.raw()))
    }

    /// The points of a point-list property (`AB`, `AW`, `AE`, `TR`, `MA`,
    /// `TB`, …), with compressed rectangles (`AB[aa:cc]`) expanded lazily as
    /// the iterator runs. An empty value (`TB[]`, or a trailing `[]`) adds no
    /// point.
    ///
    /// ```
    /// use sgf_grove::value::Point;
    /// let doc = sgf_grove::parse(b"(;AB[aa:bc][dd][])")?;
    /// let root = doc.games().next().unwrap().root();
    /// let points: Vec<Point> = root.points("AB")?.collect();
    /// assert_eq!(points.len(), 7);
    /// assert_eq!(points[0], Point { x: 0, y: 0 });
    /// assert_eq!(points[6], Point { x: 3, y: 3 });
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidValue`] at the first value that is neither a point
    /// on the board nor a rectangle of two such points, before any point is
    /// handed out.
    pub fn points(&self, ident: &str) -> Result<Points<'t, 'src>> {
        Points::new(self.raw_values(ident), self.game().board_size())
    }
}

/// Reads one value as `T`, or the positioned error.
#[inline]
fn decode<'t, T: FromValue<'t>>(
    value: RawValue<'t>,
    ctx: &ValueContext<'t>,
    coll: Collection<'_, '_>,
) -> Result<T> {
    T::try_from_value(value.raw(), ctx).map_err(|err| placed(err, value, coll))
}

/// `err` at the position of `value` in `coll`.
#[cold]
#[inline(never)]
fn placed(err: Error, value: RawValue<'_>, coll: Collection<'_, '_>) -> Error {
    err.with_position(coll.position(value.span().start))
}

/// The error for a malformed `value` of type `ty` in `coll`.
#[cold]
#[inline(never)]
fn invalid(value: RawValue<'_>, ty: ValueType, coll: Collection<'_, '_>) -> Error {
    Error::new(
        ErrorKind::InvalidValue(ty),
        coll.position(value.span().start),
    )
}

/// The values of a property read as `T`, from [`Node::get_all`].
#[derive(Clone, Debug)]
pub struct ValuesAs<'t, 'src: 't, T> {
    values: Values<'t, 'src>,
    ctx: ValueContext<'t>,
    _type: PhantomData<fn() -> T>,
}

impl<'t, 'src: 't, T: FromValue<'t>> Iterator for ValuesAs<'t, 'src, T> {
    type Item = Result<T>;
    fn next(&mut self) -> Option<Result<T>> {
        let value = self.values.next()?;
        Some(decode(value, &self.ctx, self.values.collection()))
    }
}

impl<'t, T: FromValue<'t>> std::iter::FusedIterator for ValuesAs<'t, '_, T> {}

/// The points of a point-list property, from [`Node::points`]: each
/// value's point, or each point of its rectangle row by row, in file order.
/// Nothing is allocated.
#[derive(Clone, Debug)]
pub struct Points<'t, 'src: 't> {
    values: Values<'t, 'src>,
    size: BoardSize,
    /// The rectangle being expanded and the next point in it.
    rect: Option<(Point, Point, Point)>,
}

impl<'t, 'src: 't> Points<'t, 'src> {
    fn new(values: Values<'t, 'src>, size: BoardSize) -> Result<Points<'t, 'src>> {
        for value in values.clone() {
            if point_list_item(value.raw(), size).is_none() {
                return Err(invalid(value, ValueType::Point, values.collection()));
            }
        }
        Ok(Points {
            values,
            size,
            rect: None,
        })
    }
}

impl Iterator for Points<'_, '_> {
    type Item = Point;
    fn next(&mut self) -> Option<Point> {
        loop {
            if let Some((from, to, at)) = self.rect {
                let mut next = Point {
                    x: at.x + 1,
                    y: at.y,
                };
                if next.x > to.x {
                    next = Point {
                        x: from.x,
                        y: at.y + 1,
                    };
                }
                self.rect = (next.y <= to.y).then_some((from, to, next));
                return Some(at);
            }
            let value = self.values.next()?;
            if let Some(Some((from, to))) = point_list_item(value.raw(), self.size) {
                self.rect = Some((from, to, from));
            }
        }
    }
}

impl std::iter::FusedIterator for Points<'_, '_> {}

impl<'t, 'src: 't> Property<'t, 'src> {
    /// What the catalogue knows of this property in its game (by the game's
    /// `GM`), or `None` for an unknown (private) property.
    #[inline]
    pub fn info(&self) -> Option<&'static PropInfo> {
        catalogue::lookup_bytes(self.node().game().game_type(), self.catalogue_ident())
    }

    /// The identifier, or at least enough of it for the catalogue, whose
    /// identifiers are one or two letters: of a plain property's
    /// upper-case letters before its `[`, the last three at most.
    #[inline]
    fn catalogue_ident(&self) -> &'t [u8] {
        if let Some(r) = self.rich() {
            return self.node.coll.rich_name(r);
        }
        let input: &'t [u8] = self.node.coll.input;
        let open = self.node.coll.store.slots[self.slot as usize].start as usize - 1;
        let mut start = open;
        while start > 0 && start + 3 > open && input[start - 1].is_ascii_uppercase() {
            start -= 1;
        }
        &input[start..open]
    }

    /// Every value decoded as the catalogue's type for this property, in
    /// file order, collected; see [`Property::typed`] for the rules and an
    /// iterator that allocates nothing.
    /// `None` for an unknown property.
    ///
    /// ```
    /// use sgf_grove::value::{Point, TypedValue};
    /// let doc = sgf_grove::parse(b"(;SZ[19:13]AB[aa:ab]KM[6.5]PB[Lee])")?;
    /// let root = doc.games().next().unwrap().root();
    /// let typed = |id| root.property(id).unwrap().typed_values().unwrap().unwrap();
    /// assert_eq!(typed("KM"), [TypedValue::Real(6.5)]);
    /// assert_eq!(typed("AB"), [TypedValue::Point(Point { x: 0, y: 0 }), TypedValue::Point(Point { x: 0, y: 1 })]);
    /// assert_eq!(typed("SZ"), [TypedValue::Compose(&TypedValue::Number(19), &TypedValue::Number(13))]);
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidValue`] at the first malformed value.
    pub fn typed_values(&self) -> Result<Option<Vec<TypedValue<'t>>>> {
        match self.typed()? {
            None => Ok(None),
            Some(values) => values.collect::<Result<Vec<_>>>().map(Some),
        }
    }

    /// Every value decoded as the catalogue's type for this property, lazily
    /// and without heap allocation (decoded text that changed, and the
    /// parts of compose values, go to the tree's arena); `None` for an
    /// unknown property.
    ///
    /// - Point lists (`AB`, `TR`, `VW`, …) come expanded, a point at a time;
    ///   an empty value in them adds nothing.
    /// - `SZ` and `FG` accept either of their two forms.
    /// - An empty value of a single-valued number, real, double, colour or
    ///   compose property (`KM[]`, `TM[]`, `HA[]`) is [`TypedValue::None`];
    ///   an empty value in a list or elist (`DD[]`, `AB[aa][]`) adds
    ///   nothing; an empty move is a pass (`B[]`).
    /// - A compose of two texts without `:` (`AP[foxwq]`) is the text and
    ///   an empty second part.
    /// - In a game other than Go (`GM` not 1) points, moves and stones keep
    ///   the game's own notation: [`TypedValue::GameSpecific`].
    ///
    /// ```
    /// use sgf_grove::value::TypedValue;
    /// let doc = sgf_grove::parse(br"(;C[a\]b]KM[six])")?;
    /// let root = doc.games().next().unwrap().root();
    /// let mut c = root.property("C").unwrap().typed()?.unwrap();
    /// assert_eq!(c.next().unwrap()?, TypedValue::Text("a]b"));
    /// let mut km = root.property("KM").unwrap().typed()?.unwrap();
    /// assert!(km.next().unwrap().is_err());
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A malformed point list is refused before any value is handed out;
    /// other malformed values come as an `Err` item, in place.
    pub fn typed(&self) -> Result<Option<DecodedValues<'t, 'src>>> {
        let Some(info) = self.info() else {
            return Ok(None);
        };
        let game = self.node().game();
        let go = game.game_type() == 1;
        let point_list =
            info.arity != Arity::One && matches!(info.ty, ValueType::Point | ValueType::Stone);
        let inner = if point_list && go {
            TypedInner::Points(Points::new(self.values(), game.board_size())?)
        } else {
            TypedInner::Values(self.values())
        };
        Ok(Some(DecodedValues {
            inner,
            info,
            go,
            game,
        }))
    }

    /// Checks every value against the catalogue's type for this property,
    /// by the rules of [`Property::typed`], without handing values out:
    /// the catalogue's entry when every value reads, `None` for an unknown
    /// property. Text never fails, so text is not decoded (nor is a game's
    /// charset looked for): this is the fast way to find malformed values.
    ///
    /// ```
    /// use sgf_grove::ErrorKind;
    /// let doc = sgf_grove::parse(b"(;KM[6.5]C[any text]XX[private];B[zz])")?;
    /// let root = doc.games().next().unwrap().root();
    /// assert_eq!(root.property("KM").unwrap().validate()?.unwrap().ident, "KM");
    /// assert!(root.property("C").unwrap().validate()?.is_some());
    /// assert!(root.property("XX").unwrap().validate()?.is_none());
    /// let b = root.first_child().unwrap().property("B").unwrap();
    /// let err = b.validate().unwrap_err();
    /// assert_eq!((err.line(), err.column()), (1, 35));
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidValue`] at the first malformed value, as
    /// [`Property::typed`] would hand it out.
    #[inline]
    pub fn validate(&self) -> Result<Option<&'static PropInfo>> {
        let node = self.node;
        let game = &node.coll.store.games[node.game as usize];
        if !node.is_rich()
            && game.game_type == 1
            && let Some(info) = self.plain_move_on_board(game.size)
        {
            return Ok(Some(info));
        }
        self.validate_general()
    }

    /// [`Property::validate`] for every property but a plain move.
    #[inline(never)]
    fn validate_general(&self) -> Result<Option<&'static PropInfo>> {
        let node = self.node;
        let store = node.coll.store;
        let game = &store.games[node.game as usize];
        let rich = self.rich();
        let ident = match rich {
            Some(r) => node.coll.rich_name(r),
            None => self.catalogue_ident(),
        };
        let Some(info) = catalogue::lookup_bytes(game.game_type, ident) else {
            return Ok(None);
        };
        let (go, size) = (game.game_type == 1, game.size);
        // Values read without text: a context with no charset to find.
        let ctx = ValueContext::new(size, encoding_rs::UTF_8, &store.arena);
        let point_list = go
            && info.arity != Arity::One
            && matches!(info.ty, ValueType::Point | ValueType::Stone);
        let valid = |raw: &[u8]| {
            if point_list {
                point_list_item(raw, size).is_some()
            } else {
                valid_catalogued(raw, info, go, &ctx)
            }
        };
        if rich.is_none() {
            // A plain property: one value, in its slot.
            let span = store.slots[self.slot as usize];
            return match valid(&node.coll.input[span.range()]) {
                true => Ok(Some(info)),
                false => Err(invalid(
                    self.first_value(),
                    expected(info, point_list),
                    node.coll,
                )),
            };
        }
        match self.values().find(|v| !valid(v.raw())) {
            Some(bad) => Err(invalid(bad, expected(info, point_list), node.coll)),
            None => Ok(Some(info)),
        }
    }
}

impl Property<'_, '_> {
    /// Nearly every property of a Go game: a plain `B` or `W` whose value
    /// is two letters on the board, valid with no look in the catalogue.
    /// Its catalogue entry then; `None` for anything else (which the
    /// general path checks).
    #[inline(always)]
    fn plain_move_on_board(&self, size: BoardSize) -> Option<&'static PropInfo> {
        static MOVES: std::sync::LazyLock<[&'static PropInfo; 2]> =
            std::sync::LazyLock::new(|| {
                let entry = |ident: &[u8]| {
                    catalogue::lookup_bytes(1, ident).expect("B and W are catalogued")
                };
                [entry(b"B"), entry(b"W")]
            });
        let input = self.node.coll.input;
        let span = self.node.coll.store.slots[self.slot as usize];
        let &[a, b] = &input[span.range()] else {
            return None;
        };
        // One letter before the `[`, with no other upper-case letter before it.
        let open = span.start as usize - 1;
        let color = match *input.get(open.wrapping_sub(1))? {
            b'B' => 0,
            b'W' => 1,
            _ => return None,
        };
        if open >= 2 && input[open - 2].is_ascii_uppercase() {
            return None;
        }
        let (x, y) = (coord(a)?, coord(b)?);
        size.contains(Point { x, y }).then(|| MOVES[color])
    }
}

/// The type an error of a value of `info` names: a point for a point list.
fn expected(info: &PropInfo, point_list: bool) -> ValueType {
    if point_list {
        ValueType::Point
    } else {
        info.ty
    }
}

/// The typed values of a property, from [`Property::typed`].
#[derive(Clone, Debug)]
pub struct DecodedValues<'t, 'src: 't> {
    inner: TypedInner<'t, 'src>,
    info: &'static PropInfo,
    go: bool,
    /// The game, for the context of the values that need more than the
    /// board size (built when one comes).
    game: GameTree<'t, 'src>,
}

#[derive(Clone, Debug)]
enum TypedInner<'t, 'src: 't> {
    Points(Points<'t, 'src>),
    Values(Values<'t, 'src>),
}

impl<'t, 'src: 't> Iterator for DecodedValues<'t, 'src> {
    type Item = Result<TypedValue<'t>>;

    fn next(&mut self) -> Option<Self::Item> {
        let values = match &mut self.inner {
            TypedInner::Points(points) => return points.next().map(|p| Ok(TypedValue::Point(p))),
            TypedInner::Values(values) => values,
        };
        loop {
            let value = values.next()?;
            let decoded = if self.info.ty == ValueType::Move && self.go {
                // Most values: no context needed beyond the board.
                Move::read(value.raw(), self.game.board_size()).map(|m| Some(TypedValue::Move(m)))
            } else {
                decode_catalogued(value.raw(), self.info, self.go, &self.game.value_context())
            };
            match decoded {
                Some(Some(typed)) => return Some(Ok(typed)),
                Some(None) => continue,
                None => return Some(Err(invalid(value, self.info.ty, values.collection()))),
            }
        }
    }
}

impl std::iter::FusedIterator for DecodedValues<'_, '_> {}

#[cfg(test)]
mod validate_tests {
    use crate::value::catalogue;

    /// `validate` on every property of `text`, beside the catalogue's
    /// answer for its identifier and whether the typed read of its values
    /// succeeds: the shortcut for moves must give the same.
    fn check(text: &[u8]) -> usize {
        let doc = crate::parse(text).unwrap();
        let mut checked = 0;
        for node in doc.collection().nodes() {
            for prop in node.properties() {
                let got = prop.validate();
                let info =
                    catalogue::lookup_bytes(node.game().game_type(), prop.ident().as_bytes());
                match (&got, info) {
                    (Ok(Some(a)), Some(b)) => assert!(std::ptr::eq(*a, b), "{}", prop.ident()),
                    (Ok(None), None) => {}
                    (Err(_), Some(_)) => {}
                    _ => panic!(
                        "{}: {:?} vs {:?}",
                        prop.ident(),
                        got.is_ok(),
                        info.is_some()
                    ),
                }
                if matches!(prop.ident(), "B" | "W") && node.game().game_type() == 1 {
                    let read = node.get::<crate::value::Move>(prop.ident());
                    assert_eq!(
                        got.is_ok(),
                        read.is_ok(),
                        "{} {:?}",
                        prop.ident(),
                        prop.raw()
                    );
                }
                checked += 1;
            }
        }
        checked
    }

    #[test]
    fn moves_validate_as_the_catalogue_says_on_every_board() {
        let mut n = 0;
        for size in ["", "SZ[9]", "SZ[19]", "SZ[25]", "SZ[52]", "SZ[13:7]"] {
            for value in [
                "aa", "ss", "tt", "zz", "AA", "Zz", "a", "", "a1", "pd", "gm",
            ] {
                for ident in ["B", "W", "AB", "BW", "KO", "C"] {
                    let text = format!(
                        "(;GM[1]{size};{ident}[{value}];MN[3]{ident}[{value}];B[aa]xW[{value}])"
                    );
                    n += check(text.as_bytes());
                }
            }
        }
        // Hex, another game: no shortcut, the catalogue of its own.
        n += check(b"(;GM[11]SZ[11];B[aa];W[zz])");
        assert!(n > 1000, "{n}");
    }
}
