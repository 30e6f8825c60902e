//! Typed getters on nodes and games.

use super::points::Points;
use super::types::{BoardSize, Color, FromValue, Move, SimpleText, Text, ValueContext};
use crate::error::{Error, ErrorKind, Result};
use crate::text::charset::{detect, for_label};
use crate::text::{Charset, CharsetSource};
use crate::tree::{Collection, GameTree, Node, RawValue, Span32, Values};
use std::borrow::Cow;
use std::marker::PhantomData;

impl<'t, 'src: 't> GameTree<'t, 'src> {
    /// The board size from the root's `SZ` (`19` or `19:13`); 19×19 when
    /// `SZ` is absent or malformed (the typed getter for `SZ` reports the
    /// latter as an error). Read once, while parsing.
    pub fn board_size(&self) -> BoardSize {
        self.data().size
    }

    /// The game from the root's `GM` (1 = Go, the default when absent or
    /// malformed). Read once, while parsing.
    pub fn game_type(&self) -> u32 {
        self.data().game_type
    }

    /// The root's `CA` value as written, if any.
    pub fn declared_charset(&self) -> Option<&'src [u8]> {
        let raw = self.root_value(self.data().ca);
        (self.data().ca.end > 0).then_some(raw)
    }

    /// The charset of this game's text: the parse options' override, else
    /// the root's `CA` when `encoding_rs` knows its label, else detected from
    /// the game's bytes (see [`charset`](crate::text::charset)). Found once
    /// and remembered.
    pub fn charset(&self) -> Charset {
        *self.collection().store.charsets[self.local_index()].get_or_init(|| {
            if let Some(encoding) = self.collection().store.override_charset {
                return Charset::new(encoding, CharsetSource::Override);
            }
            if let Some(encoding) = self.declared_charset().and_then(for_label) {
                return Charset::new(encoding, CharsetSource::Declared);
            }
            let span = self.span();
            detect(&self.collection().input()[span.start..span.end])
        })
    }

    /// The context typed getters use for this game's values.
    pub fn value_context(&self) -> ValueContext<'t, 'src> {
        ValueContext::of_game(*self)
    }

    fn root_value(&self, span: Span32) -> &'src [u8] {
        &self.collection().input()[span.range()]
    }
}

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
    pub fn get<T: FromValue<'src>>(&self, ident: &str) -> Result<Option<T>> {
        let Some(prop) = self.property(ident) else {
            return Ok(None);
        };
        let ctx = self.game().value_context();
        decode(prop.first_value(), &ctx, self.collection()).map(Some)
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
    pub fn played(&self) -> Result<Option<(Color, Move)>> {
        if let Some(black) = self.get::<Move>("B")? {
            return Ok(Some((Color::Black, black)));
        }
        Ok(self.get::<Move>("W")?.map(|white| (Color::White, white)))
    }

    /// Every value of property `ident` read as `T`, in file order (merged
    /// over repeats of the property); empty when the node lacks it.
    pub fn get_all<T: FromValue<'src>>(&self, ident: &str) -> TypedValues<'t, 'src, T> {
        TypedValues {
            values: self.raw_values(ident),
            ctx: self.game().value_context(),
            _type: PhantomData,
        }
    }

    /// The first value of `ident` as Text (see [`Text`]); `None` when the
    /// node lacks it. Decoding never fails: undecodable bytes become U+FFFD.
    ///
    /// ```
    /// let doc = sgf_grove::parse(b"(;CA[UTF-8]C[Good move\\]\r\nnext line])")?;
    /// let root = doc.games().next().unwrap().root();
    /// assert_eq!(root.text("C").as_deref(), Some("Good move]\nnext line"));
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    pub fn text(&self, ident: &str) -> Option<Cow<'src, str>> {
        self.get::<Text<'src>>(ident)
            .ok()
            .flatten()
            .map(Text::into_inner)
    }

    /// The first value of `ident` as SimpleText (see [`SimpleText`]);
    /// `None` when the node lacks it.
    pub fn simple_text(&self, ident: &str) -> Option<Cow<'src, str>> {
        self.get::<SimpleText<'src>>(ident)
            .ok()
            .flatten()
            .map(SimpleText::into_inner)
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
pub(crate) fn decode<'src, T: FromValue<'src>>(
    value: RawValue<'src>,
    ctx: &ValueContext<'_, 'src>,
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
pub(crate) fn invalid(
    value: RawValue<'_>,
    ty: super::ValueType,
    coll: Collection<'_, '_>,
) -> Error {
    Error::new(
        ErrorKind::InvalidValue(ty),
        coll.position(value.span().start),
    )
}

/// The values of a property read as `T`, from [`Node::get_all`].
#[derive(Clone, Debug)]
pub struct TypedValues<'t, 'src: 't, T> {
    values: Values<'t, 'src>,
    ctx: ValueContext<'t, 'src>,
    _type: PhantomData<fn() -> T>,
}

impl<'t, 'src: 't, T: FromValue<'src>> Iterator for TypedValues<'t, 'src, T> {
    type Item = Result<T>;
    fn next(&mut self) -> Option<Result<T>> {
        let value = self.values.next()?;
        Some(decode(value, &self.ctx, self.values.collection()))
    }
}

impl<'src, T: FromValue<'src>> std::iter::FusedIterator for TypedValues<'_, 'src, T> {}
