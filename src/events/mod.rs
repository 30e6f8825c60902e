//! Stage two: events. A pull reader over `&[u8]` that builds no tree.
//!
//! [`Reader::next`] hands out, in file order, the start and end of each game,
//! the start and end of each variation, and each node with its properties
//! and their values (borrowed `&[u8]` slices of the input, still escaped),
//! each with its byte span. Every recovery lives here, once: junk around
//! games, a new game that starts inside an unfinished one, unbalanced
//! trees, values cut off by the end of the input, stray bytes. The
//! warnings are exactly those the tree builder reports, because the tree
//! builder ([`Parser`](crate::Parser)) is a consumer of these events.
//!
//! ```text
//!            ┌──────── `(`, `;` (+ root ident) ────────┐
//!   outside ─┤                                         ├─▶ in game ── `)` at depth 0 ─▶ outside
//!   (junk is │◀──── end of input / last `)` ───────────┘     │  `(` variation start, `)` end
//!   skipped) │                                               │  `;` or an identifier: a node
//!            └── `(;` and a root property inside a game: ────┘
//!                a new game (the open one is closed there)
//! ```
//!
//! A caller that wants only the game information reads the first node of
//! each game and calls [`Reader::skip_game`]: the rest of the game is
//! read but not handed out.
//!
//! ```
//! use sgf_grove::events::{Event, Reader};
//! let input = b"(;GM[1]PB[Lee]PW[Cho];B[pd];W[dd])\n(;GM[1]PB[Iyama];B[qd])";
//! let mut reader = Reader::new(input);
//! let mut black_players = Vec::new();
//! while let Some(event) = reader.next()? {
//!     if let Event::Node(node) = event {
//!         if node.is_root() {
//!             black_players.extend(node.get("PB").map(|v| v.raw().to_vec()));
//!             reader.skip_game()?;
//!         }
//!     }
//! }
//! assert_eq!(black_players, [b"Lee".to_vec(), b"Iyama".to_vec()]);
//! # Ok::<(), sgf_grove::Error>(())
//! ```
//!
//! The reader is no [`Iterator`]: a node event lends the reader's scratch
//! space (its properties), which the next call overwrites, so that reading
//! allocates nothing once warm.

mod event;
mod machine;
mod reader;

pub(crate) use event::Links;
pub use event::{Event, EventValue, EventValues, NodeEvent, PropEvent, PropEvents};
pub(crate) use machine::*;
pub(crate) use reader::Buffers;
pub use reader::{Reader, ReaderStorage};

mod diag;
pub(crate) mod node;
mod trial;

pub(crate) use diag::Diag;
use diag::{DiagMark, DiagSink, NotIdent};
pub(crate) use node::{flag, PropTok, Scratch, Span32};

use crate::error::{Error, ErrorKind, Result, Warning, WarningKind};
use crate::lexer::{
    is_space, looks_like_ident_then_value, read_gap, resync_point, skip_space, Scanner, ValueMode,
};
use crate::options::ParseOptions;
use crate::span::Span;
use crate::text::Charset;
pub(crate) use node::simple_node;
use node::{lex_node, skip_values, RootSwitch};
use trial::{Trial, Utf8Scan};
