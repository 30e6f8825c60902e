//! What a typed getter needs to know besides a value's bytes.

use super::types::BoardSize;
use crate::text::charset::CharsetOf;
use crate::text::{decode_lazily, Arena};
use encoding_rs::Encoding;

/// What a typed getter needs to know besides the raw bytes: the board size
/// (for points, and whether `tt` is a pass), the charset of text (found on
/// first use when the context is a game's), and the [`Arena`] that text
/// which changes when decoded goes to. `'a` is how long decoded text lives:
/// the borrow of the tree, or of your arena.
///
/// [`GameTree::value_context`](crate::GameTree::value_context) gives a
/// game's; [`ValueContext::new`] makes one by hand.
///
/// ```
/// use sgf_grove::text::Arena;
/// use sgf_grove::value::{BoardSize, Move, Point, SimpleText, FromValue, ValueContext};
/// use sgf_grove::encoding_rs::GBK;
/// let arena = Arena::new();
/// let ctx = ValueContext::new(BoardSize::square(9), GBK, &arena);
/// assert_eq!(Move::from_value(b"tt", &ctx), Some(Move::Pass));
/// assert_eq!(Point::from_value(b"jj", &ctx), None); // off a 9x9 board
/// let name = SimpleText::from_value(b"\xd6\xd0\xb9\xfa", &ctx).unwrap();
/// assert_eq!(&*name, "中国");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ValueContext<'a> {
    size: BoardSize,
    charset: Charset<'a>,
    arena: &'a Arena,
}

/// The charset of a context: given, or a game's, found on first use.
#[derive(Clone, Copy, Debug)]
enum Charset<'a> {
    Fixed(&'static Encoding),
    Game(CharsetOf<'a>),
}

impl<'a> ValueContext<'a> {
    /// A context for a board of `size`, with text in `encoding`, decoded into
    /// `arena` when it has to change.
    pub fn new(size: BoardSize, encoding: &'static Encoding, arena: &'a Arena) -> ValueContext<'a> {
        ValueContext {
            size,
            charset: Charset::Fixed(encoding),
            arena,
        }
    }

    /// A game's context: its charset is found when text first needs it.
    pub(crate) fn of_game(
        size: BoardSize,
        charset: CharsetOf<'a>,
        arena: &'a Arena,
    ) -> ValueContext<'a> {
        ValueContext {
            size,
            charset: Charset::Game(charset),
            arena,
        }
    }

    /// The board size.
    #[inline]
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The encoding text is decoded with.
    #[inline]
    pub fn encoding(&self) -> &'static Encoding {
        match &self.charset {
            Charset::Fixed(encoding) => encoding,
            Charset::Game(of) => of.get().encoding(),
        }
    }

    /// The arena decoded text goes to.
    #[inline]
    pub fn arena(&self) -> &'a Arena {
        self.arena
    }

    /// `raw` decoded as Text (see [`Text`](super::Text)): borrowed from
    /// `raw` when nothing changes, else from the arena. A game's charset is
    /// found only when the value is not ASCII.
    #[inline]
    pub fn text(&self, raw: &'a [u8]) -> &'a str {
        decode_lazily(raw, || self.encoding(), false, self.arena)
    }

    /// `raw` decoded as SimpleText (see [`SimpleText`](super::SimpleText)):
    /// borrowed from `raw` when nothing changes, else from the arena.
    #[inline]
    pub fn simple_text(&self, raw: &'a [u8]) -> &'a str {
        decode_lazily(raw, || self.encoding(), true, self.arena)
    }
}
