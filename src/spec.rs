//! Names from the SGF specification that the error and value layers share:
//! the value types. A leaf module, so that
//! [`ErrorKind::InvalidValue`](crate::ErrorKind::InvalidValue) can name a
//! type without the error module depending on the value layer, which
//! re-exports it as `sgf_grove::value::ValueType`. Its `analysis` module
//! holds the byte-level facts of engine analysis that the writer and the
//! analysis decoder share.

pub(crate) mod analysis;

/// The type of an SGF property value, as the specification names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueType {
    /// An empty value `[]`.
    None,
    /// An integer, optionally signed: `[-3]`.
    Number,
    /// A decimal number: `[6.5]`.
    Real,
    /// `1` (normal) or `2` (emphasized).
    Double,
    /// `B` or `W`.
    Color,
    /// Text on one line: line breaks become spaces.
    SimpleText,
    /// Text with line breaks kept.
    Text,
    /// A board point: `[dd]`.
    Point,
    /// A move: a point, or a pass (`[]`, or `[tt]` on boards up to 19×19).
    Move,
    /// A stone: a point (in Go).
    Stone,
    /// Two values separated by `:`.
    Compose(&'static ValueType, &'static ValueType),
}

impl std::fmt::Display for ValueType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ValueType::None => f.write_str("none (an empty value)"),
            ValueType::Number => f.write_str("number"),
            ValueType::Real => f.write_str("real"),
            ValueType::Double => f.write_str("double (1 or 2)"),
            ValueType::Color => f.write_str("color (B or W)"),
            ValueType::SimpleText => f.write_str("simple text"),
            ValueType::Text => f.write_str("text"),
            ValueType::Point => f.write_str("point"),
            ValueType::Move => f.write_str("move"),
            ValueType::Stone => f.write_str("stone"),
            ValueType::Compose(a, b) => write!(f, "{a}:{b}"),
        }
    }
}
