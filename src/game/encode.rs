//! The game-information types written as SGF values
//! ([`ToValue`](crate::value::ToValue)), so that
//! [`EditableGame::set`](crate::edit::EditableGame::set) takes them. They
//! live here, beside the types, because `value` sits below `game` and
//! knows nothing of it.

use super::{GameResult, Handicap, Komi, Rank, Rules};
use crate::error::Result;
use crate::value::ToValue;

/// The komi as written (`6.50` stays `6.50`).
impl ToValue for Komi<'_> {
    fn write_value(&self, out: &mut Vec<u8>) -> Result<()> {
        self.raw().trim().write_value(out)
    }
}

/// The number of stones; a handicap that is no number is written as its
/// text.
impl ToValue for Handicap {
    fn write_value(&self, out: &mut Vec<u8>) -> Result<()> {
        match self {
            Handicap::Stones(n) | Handicap::NoStones(n) => n.write_value(out),
            Handicap::Lenient { stones, .. } => stones.write_value(out),
            Handicap::Invalid(text) => text.write_value(out),
        }
    }
}

macro_rules! displayed {
    ($($ty:ty),*) => {$(
        /// Its display form, the FF\[4\] spelling.
        impl ToValue for $ty {
            fn write_value(&self, out: &mut Vec<u8>) -> Result<()> {
                self.to_string().write_value(out)
            }
            fn write_half(&self, out: &mut Vec<u8>) -> Result<()> {
                self.to_string().write_half(out)
            }
        }
    )*};
}

displayed!(Rank, GameResult, Rules);
