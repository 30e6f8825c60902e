//! Values typed by the catalogue, for code that does not know in advance
//! which properties it will meet (dumpers, converters, fuzzers).

use super::access::invalid;
use super::catalogue;
use super::types::{Color, Double, Empty, FromValue, Move, Point, SimpleText, Text, ValueContext};
use super::{Arity, PropInfo, ValueType};
use crate::error::Result;
use crate::tree::Property;
use std::borrow::Cow;

/// One value decoded as the type the catalogue gives its property.
#[derive(Clone, Debug, PartialEq)]
pub enum TypedValue<'src> {
    /// An empty value (the None type).
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
    /// A compose value `a:b`.
    Compose(Box<TypedValue<'src>>, Box<TypedValue<'src>>),
}

/// Reads `raw` as a value of type `ty`, or `None` when it is malformed.
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
            let (x, y) = super::types::split_compose(raw)?;
            TypedValue::Compose(
                Box::new(decode_as(x, *a, ctx)?),
                Box::new(decode_as(y, *b, ctx)?),
            )
        }
    })
}

impl<'t, 'src: 't> Property<'t, 'src> {
    /// What the catalogue knows of this property in its game (by the game's
    /// `GM`), or `None` for an unknown (private) property.
    pub fn info(&self) -> Option<&'static PropInfo> {
        catalogue::lookup(self.node().game().game_type(), self.ident())
    }

    /// Every value decoded as the catalogue's type for this property, in
    /// file order. Point lists (`AB`, `TR`, `VW`, …) come expanded, a point
    /// at a time, and an empty value in them adds nothing. `SZ` and `FG`
    /// accept either of their two forms. `None` for an unknown property.
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
        let Some(info) = self.info() else {
            return Ok(None);
        };
        let game = self.node().game();
        let ctx = game.value_context();
        let input = game.collection().input();
        let point_list =
            info.arity != Arity::One && matches!(info.ty, ValueType::Point | ValueType::Stone);
        if point_list {
            let points = self.node().points(self.ident())?;
            return Ok(Some(points.map(TypedValue::Point).collect()));
        }
        let mut out = Vec::new();
        for value in self.values() {
            if info.arity == Arity::EList && value.raw().trim_ascii().is_empty() {
                continue;
            }
            let decoded = decode_as(value.raw(), info.ty, &ctx)
                .or_else(|| info.alt.and_then(|alt| decode_as(value.raw(), alt, &ctx)));
            match decoded {
                Some(v) => out.push(v),
                None => return Err(invalid(value, info.ty, input)),
            }
        }
        Ok(Some(out))
    }
}
