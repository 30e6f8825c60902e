//! Values typed by the catalogue, for code that does not know in advance
//! which properties it will meet (dumpers, converters, checkers, fuzzers).

use super::access::invalid;
use super::catalogue;
use super::points::Points;
use super::types::{
    split_compose, Color, Double, Empty, FromValue, Move, Point, SimpleText, Text, ValueContext,
};
use super::{Arity, PropInfo, ValueType};
use crate::error::Result;
use crate::text::decode_simple_text;
use crate::tree::{Property, Values};
use std::borrow::Cow;

/// One value decoded as the type the catalogue gives its property.
#[derive(Clone, Debug, PartialEq)]
pub enum TypedValue<'src> {
    /// An empty value: the None type, or a property whose single value was
    /// left empty (`KM[]`, `TM[]`, `HA[]`).
    None,
    /// A Number.
    Number(i64),
    /// A Real.
    Real(f64),
    /// A Double.
    Double(Double),
    /// A Color.
    Color(Color),
    /// SimpleText, decoded.
    SimpleText(Cow<'src, str>),
    /// Text, decoded.
    Text(Cow<'src, str>),
    /// A point (also a stone, and each point of an expanded point list).
    Point(Point),
    /// A move: a point or a pass.
    Move(Move),
    /// A point, move or stone of a game other than Go, whose notation is the
    /// game's own (Hex `f2`, Amazons `a1b2c3`): the value as SimpleText.
    GameSpecific(Cow<'src, str>),
    /// A compose value `a:b`.
    Compose(Box<TypedValue<'src>>, Box<TypedValue<'src>>),
}

/// Reads `raw` as a value of type `ty` with Go's point notation, or `None`
/// when it is malformed.
pub fn decode_as<'src>(
    raw: &'src [u8],
    ty: ValueType,
    ctx: &ValueContext<'_, 'src>,
) -> Option<TypedValue<'src>> {
    Some(match ty {
        ValueType::None => {
            Empty::from_value(raw, ctx)?;
            TypedValue::None
        }
        ValueType::Number => TypedValue::Number(i64::from_value(raw, ctx)?),
        ValueType::Real => TypedValue::Real(f64::from_value(raw, ctx)?),
        ValueType::Double => TypedValue::Double(Double::from_value(raw, ctx)?),
        ValueType::Color => TypedValue::Color(Color::from_value(raw, ctx)?),
        ValueType::SimpleText => TypedValue::SimpleText(SimpleText::from_value(raw, ctx)?.0),
        ValueType::Text => TypedValue::Text(Text::from_value(raw, ctx)?.0),
        ValueType::Point | ValueType::Stone => TypedValue::Point(Point::from_value(raw, ctx)?),
        ValueType::Move => TypedValue::Move(Move::from_value(raw, ctx)?),
        ValueType::Compose(a, b) => {
            let (x, y) = split_compose(raw)?;
            TypedValue::Compose(
                Box::new(decode_as(x, *a, ctx)?),
                Box::new(decode_as(y, *b, ctx)?),
            )
        }
    })
}

/// Like [`decode_as`], with the real-world variants the catalogue-driven
/// readers accept: in a game other than Go (`go` false), points, moves and
/// stones are kept as game-specific text; a compose of two texts without
/// `:` is the first text and an empty second (`AP[foxwq]`).
fn decode_lenient<'src>(
    raw: &'src [u8],
    ty: ValueType,
    go: bool,
    ctx: &ValueContext<'_, 'src>,
) -> Option<TypedValue<'src>> {
    match ty {
        ValueType::Point | ValueType::Stone | ValueType::Move if !go => Some(
            TypedValue::GameSpecific(decode_simple_text(raw, ctx.encoding())),
        ),
        ValueType::Compose(a, b) => {
            let Some((x, y)) = split_compose(raw) else {
                let texts = matches!(a, ValueType::SimpleText | ValueType::Text)
                    && matches!(b, ValueType::SimpleText | ValueType::Text);
                return texts.then(|| {
                    TypedValue::Compose(
                        Box::new(decode_as(raw, *a, ctx).expect("text always decodes")),
                        Box::new(TypedValue::SimpleText(Cow::Borrowed(""))),
                    )
                });
            };
            Some(TypedValue::Compose(
                Box::new(decode_lenient(x, *a, go, ctx)?),
                Box::new(decode_lenient(y, *b, go, ctx)?),
            ))
        }
        _ => decode_as(raw, ty, ctx),
    }
}

impl<'t, 'src: 't> Property<'t, 'src> {
    /// What the catalogue knows of this property in its game (by the game's
    /// `GM`), or `None` for an unknown (private) property.
    pub fn info(&self) -> Option<&'static PropInfo> {
        catalogue::lookup(self.node().game().game_type(), self.ident())
    }

    /// Every value decoded as the catalogue's type for this property, in
    /// file order, collected; see [`Property::typed`] for the rules and an
    /// allocation-free iterator. `None` for an unknown property.
    ///
    /// ```
    /// use sgf_grove::value::{Point, TypedValue};
    /// let doc = sgf_grove::parse(b"(;SZ[19:13]AB[aa:ab]KM[6.5]PB[Lee])")?;
    /// let root = doc.games().next().unwrap().root();
    /// let typed = |id| root.property(id).unwrap().typed_values().unwrap().unwrap();
    /// assert_eq!(typed("KM"), [TypedValue::Real(6.5)]);
    /// assert_eq!(typed("AB"), [TypedValue::Point(Point { x: 0, y: 0 }), TypedValue::Point(Point { x: 0, y: 1 })]);
    /// assert!(matches!(&typed("SZ")[0], TypedValue::Compose(..)));
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidValue`](crate::ErrorKind::InvalidValue) at the
    /// first malformed value.
    pub fn typed_values(&self) -> Result<Option<Vec<TypedValue<'src>>>> {
        match self.typed()? {
            None => Ok(None),
            Some(values) => values.collect::<Result<Vec<_>>>().map(Some),
        }
    }

    /// Every value decoded as the catalogue's type for this property, lazily
    /// and without allocating; `None` for an unknown property.
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
    /// # Errors
    ///
    /// A malformed point list is refused before any value is handed out;
    /// other malformed values come as an `Err` item, in place.
    pub fn typed(&self) -> Result<Option<Typed<'t, 'src>>> {
        let Some(info) = self.info() else {
            return Ok(None);
        };
        let game = self.node().game();
        let go = game.game_type() == 1;
        let ctx = game.value_context();
        let point_list =
            info.arity != Arity::One && matches!(info.ty, ValueType::Point | ValueType::Stone);
        let inner = if point_list && go {
            TypedInner::Points(self.node().points(self.ident())?)
        } else {
            TypedInner::Values(self.values())
        };
        Ok(Some(Typed {
            inner,
            info,
            go,
            ctx,
        }))
    }
}

/// The typed values of a property, from [`Property::typed`].
#[derive(Clone, Debug)]
pub struct Typed<'t, 'src: 't> {
    inner: TypedInner<'t, 'src>,
    info: &'static PropInfo,
    go: bool,
    ctx: ValueContext<'t, 'src>,
}

#[derive(Clone, Debug)]
enum TypedInner<'t, 'src: 't> {
    Points(Points<'t, 'src>),
    Values(Values<'t, 'src>),
}

impl<'t, 'src: 't> Iterator for Typed<'t, 'src> {
    type Item = Result<TypedValue<'src>>;

    fn next(&mut self) -> Option<Self::Item> {
        let values = match &mut self.inner {
            TypedInner::Points(points) => return points.next().map(|p| Ok(TypedValue::Point(p))),
            TypedInner::Values(values) => values,
        };
        let info = self.info;
        loop {
            let value = values.next()?;
            let raw = value.raw();
            // Empty text is text, an empty move a pass, an empty None value
            // what it should be: only other types need the variant.
            if raw.trim_ascii().is_empty()
                && !matches!(
                    info.ty,
                    ValueType::SimpleText | ValueType::Text | ValueType::Move | ValueType::None
                )
            {
                match info.arity {
                    Arity::EList | Arity::List => continue,
                    Arity::One => return Some(Ok(TypedValue::None)),
                }
            }
            let decoded = decode_lenient(raw, info.ty, self.go, &self.ctx).or_else(|| {
                info.alt
                    .and_then(|alt| decode_lenient(raw, alt, self.go, &self.ctx))
            });
            return Some(decoded.ok_or_else(|| invalid(value, info.ty, values.collection())));
        }
    }
}

impl std::iter::FusedIterator for Typed<'_, '_> {}
