//! Stage three: the tree builder and the arena tree it fills.
//!
//! [`Parser::parse`] runs the [event reader](crate::events) over the input
//! once and records, in pre-order, every node (two `u32` links, its
//! offset, its first property slot: 16 bytes), every property (one 8-byte
//! slot) and every value (a span of the input, still escaped). The read API
//! reads those records and never lexes again: the reader's decisions (the
//! charset switch after a root's `CA`, merged repeats, normalised
//! identifiers, cut values) are made once.
//!
//! Nearly every node of a game record is *plain*: each property an
//! upper-case identifier right before its `[` and one closed value. Its
//! slot is the value's span; the identifier is the letters just before the
//! `[`. Any other node is *rich*: its slots point to records that keep the
//! spelling, the normalised name, all values and the flags. On real
//! collections the arena is under four times the input.
//!
//! Handles ([`Collection`], [`GameTree`], [`Node`], [`Property`]) are `Copy`:
//! a reference to the arena and an index. Nothing is ever recursive: building,
//! walking, writing and dropping a tree of any depth uses constant stack.

mod handles;
mod parser;
mod store;

pub use handles::{Collection, GameTree, Node, Property, RawValue};
pub use parser::{parse, Document, Parser};
pub use store::NodeId;
pub(crate) use store::*;

pub mod read;

mod build;
mod iter;
mod stream;
mod typed;

pub use stream::StreamParser;

use crate::options::ParseOptions;

pub use iter::{Ancestors, Children, Descendants, Games, MainLine, Nodes, Properties, Values};
pub use typed::{DecodedValues, Moves, Points, ValidMoves, ValuesAs};

use crate::error::{Result, Warning, WarningKind};
pub(crate) use crate::events::Span32;
use crate::events::{flag, Buffers};
use crate::lexer::ValueMode;
use crate::span::{LineIndex, Position, Span};
use crate::text::Charset;
use std::num::NonZeroU32;
use std::ops::ControlFlow;
use std::sync::OnceLock;
