#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

pub mod audit;
pub mod error;
pub mod game;
pub mod input;
pub mod lexer;
#[doc(hidden)]
pub mod oracle;
pub mod span;
pub mod text;
pub mod tree;
pub mod value;
pub mod writer;

pub use error::{Error, ErrorKind, Result, Warning, WarningKind};
pub use span::{Position, Span};
#[doc(hidden)]
pub use tree::describe;
pub use tree::{
    parse, Collection, Document, GameTree, Node, NodeId, ParseOptions, Parser, Property, Value,
};
pub use writer::{write_collection, Writer};
