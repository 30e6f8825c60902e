#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![deny(unreachable_pub)]
#![warn(missing_debug_implementations)]
// Builders and value transforms (`ParseOptions::strict`, `Color::opponent`)
// say when their result is dropped.
#![warn(clippy::return_self_not_must_use)]

pub mod analysis;
#[cfg(feature = "atomic")]
pub mod atomic;
pub mod audit;
#[cfg(feature = "diagram")]
pub mod diagram;
pub mod edit;
pub mod error;
pub mod events;
pub mod foreign;
pub mod game;
#[cfg(feature = "index")]
pub mod index;
pub mod input;
pub(crate) mod lexer;
mod options;
#[cfg(feature = "oracle")]
#[doc(hidden)]
pub mod oracle;
#[cfg(feature = "parallel")]
pub mod parallel;
pub mod repair;
#[cfg(feature = "samples")]
pub mod samples;
mod sniff;
pub mod span;
mod spec;
#[cfg(feature = "tables")]
pub mod table;
pub mod text;
pub mod tree;
pub mod value;
pub mod writer;

/// The `arrow-array` crate (feature `arrow`), re-exported because
/// [`table::BatchBuilder`] hands out its `RecordBatch`: use it through
/// this path and the versions agree.
#[cfg(feature = "arrow")]
pub use arrow_array;
/// The `encoding_rs` crate, re-exported because the public API names its
/// types: [`ParseOptions::charset`] takes a `&'static encoding_rs::Encoding`
/// and [`text::Charset::encoding`] gives one. Use it through this path
/// (`sgf_grove::encoding_rs::SHIFT_JIS`) and no version of your own can
/// disagree with the one sgf-grove was built with.
///
/// ```
/// use sgf_grove::encoding_rs::SHIFT_JIS;
/// use sgf_grove::{Document, ParseOptions};
///
/// // `表` in Shift_JIS ends with 0x5C, a backslash byte, that escapes nothing.
/// let options = ParseOptions::new().charset(Some(SHIFT_JIS));
/// let doc = Document::parse_with(b"(;C[\x95\x5C])", &options)?;
/// let root = doc.games().next().unwrap().root();
/// assert_eq!(root.text("C"), Some("表"));
/// # Ok::<(), sgf_grove::Error>(())
/// ```
pub use encoding_rs;
// The common path at the root, documented once, in its module.
#[doc(no_inline)]
pub use error::{Error, ErrorKind, Result, Warning, WarningKind};
pub use options::ParseOptions;
#[doc(no_inline)]
pub use span::{Position, Span};
#[doc(no_inline)]
pub use tree::read::{ReadGame, ReadMode, ReadNode, ReadProperty};
#[doc(no_inline)]
pub use tree::{
    parse, Collection, Document, GameTree, Node, NodeId, Parser, Property, RawValue, StreamParser,
};
#[doc(no_inline)]
pub use writer::{write_collection, Writer};
