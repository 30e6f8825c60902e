//! Stage four: typed values, decoded lazily on access.
//!
//! A value stays a raw, escaped `&[u8]` slice of the input until a typed
//! getter asks for it: [`Node::get`](crate::Node::get) with any type that
//! implements [`FromValue`] ([`Number`], [`Real`], [`Double`], [`Color`],
//! [`Point`], [`Move`], [`BoardSize`], [`SimpleText`], [`Text`], a
//! compose value `(A, B)` of two of them…), [`Node::points`](crate::Node::points) for
//! point lists (compressed rectangles expanded on the fly), and
//! [`Node::text`](crate::Node::text) for text. A malformed value is an
//! [`Error`](crate::Error) of kind
//! [`ErrorKind::InvalidValue`](crate::ErrorKind::InvalidValue) with the
//! value's position: never a panic, never a silently wrong value.
//!
//! [`catalogue`] says, for every known property, its value type, whether it
//! takes a list, and its kind (root, game-info, setup, move…).

pub mod catalogue;
mod context;
mod dynamic;
mod encode;
mod points;
mod types;

pub use crate::spec::ValueType;
pub use dynamic::{decode_as, TypedValue};
pub(crate) use dynamic::{decode_catalogued, valid_catalogued};
pub use encode::{escape_compose_half, escape_value, ToValue};
pub(crate) use points::parse_item as point_list_item;
pub(crate) use types::{coord, read_game_type};
pub use types::{
    split_compose, BoardSize, Color, Double, Empty, FromValue, Move, Number, Point, Real,
    SimpleText, Stone, Text, ValueContext,
};

/// How many values a property takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arity {
    /// Exactly one value.
    One,
    /// One or more values (`AB[aa][bb]`); point lists may be compressed
    /// (`AB[aa:cc]`).
    List,
    /// Zero or more values: a list, or one empty value `[]`.
    EList,
}

/// When a property may appear, as the specification classifies them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PropKind {
    /// Only in a root node (`FF`, `GM`, `SZ`, `CA`, `AP`, `ST`).
    Root,
    /// Game information, once per line of play (`PB`, `KM`, `RE`, …).
    GameInfo,
    /// Setup: placing stones (`AB`, `AW`, `AE`, `PL`).
    Setup,
    /// A move and its annotations (`B`, `W`, `KO`, `MN`, `BL`, …).
    Move,
    /// Inherited by the nodes below until changed (`DD`, `VW`).
    Inherit,
    /// Anywhere (`C`, `N`, markup, …).
    None,
}

/// Where a property is defined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// The FF\[4\] specification (general or game-specific part).
    Ff4,
    /// Added by the 2016 update of the specification.
    Update2016,
    /// An FF\[1\]–FF\[3\] name that FF\[4\] dropped or renamed.
    Old,
}

/// What the catalogue knows of one property.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PropInfo {
    /// The identifier, upper-case (`"AB"`).
    pub ident: &'static str,
    /// A short English description (`"Add black stones"`).
    pub name: &'static str,
    /// When it may appear.
    pub kind: PropKind,
    /// How many values it takes.
    pub arity: Arity,
    /// The type of each value.
    pub ty: ValueType,
    /// A second accepted form, when the specification allows two
    /// (`SZ`: `number` or `number:number`; `FG`: none or `number:simpletext`).
    pub alt: Option<ValueType>,
    /// Where it is defined.
    pub origin: Origin,
}
