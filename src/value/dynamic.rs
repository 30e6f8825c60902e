//! Values typed by the catalogue, for code that does not know in advance
//! which properties it will meet (dumpers, converters, checkers, fuzzers).

use super::types::{
    split_compose, Color, Double, Empty, FromValue, Move, Point, SimpleText, Text, ValueContext,
};
use super::{Arity, PropInfo, ValueType};

/// One value decoded as the type the catalogue gives its property.
///
/// Text borrows from the input when it needed no change, else from the
/// arena of the tree (or of the [`ValueContext`]); so do the two parts of a
/// compose value. Nothing is on the heap: a `TypedValue` is `Copy`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TypedValue<'a> {
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
    SimpleText(&'a str),
    /// Text, decoded.
    Text(&'a str),
    /// A point (also a stone, and each point of an expanded point list).
    Point(Point),
    /// A move: a point or a pass.
    Move(Move),
    /// A point, move or stone of a game other than Go, whose notation is the
    /// game's own (Hex `f2`, Amazons `a1b2c3`): the value as SimpleText.
    GameSpecific(&'a str),
    /// A compose value `a:b`.
    Compose(&'a TypedValue<'a>, &'a TypedValue<'a>),
}

/// Reads `raw` as a value of type `ty` with Go's point notation, or `None`
/// when it is malformed.
pub fn decode_as<'a>(
    raw: &'a [u8],
    ty: ValueType,
    ctx: &ValueContext<'a>,
) -> Option<TypedValue<'a>> {
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
            compose(decode_as(x, *a, ctx)?, decode_as(y, *b, ctx)?, ctx)
        }
    })
}

/// A compose value of `a` and `b`, which go to the arena of `ctx`.
fn compose<'a>(a: TypedValue<'a>, b: TypedValue<'a>, ctx: &ValueContext<'a>) -> TypedValue<'a> {
    let [a, b] = ctx.arena().alloc([a, b]);
    TypedValue::Compose(a, b)
}

/// Like [`decode_as`], with the real-world variants the catalogue-driven
/// readers accept: in a game other than Go (`go` false), points, moves and
/// stones are kept as game-specific text; a compose of two texts without
/// `:` is the first text and an empty second (`AP[foxwq]`).
fn decode_lenient<'a>(
    raw: &'a [u8],
    ty: ValueType,
    go: bool,
    ctx: &ValueContext<'a>,
) -> Option<TypedValue<'a>> {
    match ty {
        ValueType::Point | ValueType::Stone | ValueType::Move if !go => {
            Some(TypedValue::GameSpecific(ctx.simple_text(raw)))
        }
        ValueType::Compose(a, b) => {
            let Some((x, y)) = split_compose(raw) else {
                let texts = matches!(a, ValueType::SimpleText | ValueType::Text)
                    && matches!(b, ValueType::SimpleText | ValueType::Text);
                return texts.then(|| {
                    let first = decode_as(raw, *a, ctx).expect("text always decodes");
                    compose(first, TypedValue::SimpleText(""), ctx)
                });
            };
            Some(compose(
                decode_lenient(x, *a, go, ctx)?,
                decode_lenient(y, *b, go, ctx)?,
                ctx,
            ))
        }
        _ => decode_as(raw, ty, ctx),
    }
}

/// One value of a property that `info` describes, read as the catalogue
/// says with the real-world variants of [`Property::typed`](crate::Property::typed):
/// `Some(Some(value))`, `Some(None)` for an empty value that a list skips,
/// `None` when malformed. `go` tells whether the game is Go.
#[inline]
pub(crate) fn decode_catalogued<'a>(
    raw: &'a [u8],
    info: &PropInfo,
    go: bool,
    ctx: &ValueContext<'a>,
) -> Option<Option<TypedValue<'a>>> {
    // Empty text is text, an empty move a pass, an empty None value what it
    // should be: only other types need the variant.
    if !matches!(
        info.ty,
        ValueType::SimpleText | ValueType::Text | ValueType::Move | ValueType::None
    ) && raw.trim_ascii().is_empty()
    {
        return match info.arity {
            Arity::EList | Arity::List => Some(None),
            Arity::One => Some(Some(TypedValue::None)),
        };
    }
    decode_lenient(raw, info.ty, go, ctx)
        .or_else(|| info.alt.and_then(|alt| decode_lenient(raw, alt, go, ctx)))
        .map(Some)
}

/// Whether [`decode_catalogued`] reads `raw`, found without decoding text
/// (which never fails).
#[inline]
pub(crate) fn valid_catalogued(
    raw: &[u8],
    info: &PropInfo,
    go: bool,
    ctx: &ValueContext<'_>,
) -> bool {
    match info.ty {
        ValueType::SimpleText | ValueType::Text => true,
        ValueType::Point | ValueType::Stone | ValueType::Move if !go => true,
        ValueType::Move => Move::read(raw, ctx.size()).is_some(),
        // Numbers, reals, colours, compose values (whose text parts, if
        // decoded, go to the arena): as read.
        _ => decode_catalogued(raw, info, go, ctx).is_some(),
    }
}
