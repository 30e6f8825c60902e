//! Game semantics: game information (players, ranks, komi, handicap, result,
//! dates, rules, …) read from a game's root node, and the symmetries of the
//! board ([`Symmetry`]).
//!
//! Everything here is built in three layers:
//!
//! * **Pure parsers on `&str`**, one per kind of value: [`Komi::parse`],
//!   [`Handicap::parse`], [`Rank::parse`], [`GameResult::parse`],
//!   [`GameDates::parse`], [`Rules::parse`], [`TimeLimit::parse`],
//!   [`Application::parse`]. They take text that is already decoded
//!   (unescaped, in UTF-8), follow FF\[4\] and then accept the variants real
//!   files contain (Fox's scaled komi, `HA[0]`, `RE[W+Time Over]`,
//!   `DT[2001/10/11 21:22:51 UT]`, `BR[P9段]`, …). They never panic; input
//!   they cannot read comes back as an explicit fallback that keeps the text
//!   ([`Rank::Unknown`], [`GameResult::Unparsed`], [`Handicap::Invalid`]),
//!   or, where there is no such fallback ([`Komi`], [`GameDates`],
//!   [`TimeLimit`]), as an [`Error`](crate::Error) of kind
//!   [`ErrorKind::InvalidGameInfo`](crate::ErrorKind::InvalidGameInfo) that
//!   keeps the text and the reason.
//! * **[`FromValue`](crate::value::FromValue)** for each of those types, so
//!   that one property can be read from any node in one call:
//!   `node.get::<Komi>("KM")?`, `node.get::<GameResult>("RE")?`. Text is
//!   decoded in the game's charset (a komi, ASCII in any charset, borrows
//!   the input); an error carries the value's position.
//! * **[`GameInfo`]**, which collects the text of every game-info property
//!   once ([`GameInfo::from_lookup`], [`GameInfo::from_pairs`], or
//!   [`GameTree::game_info`](crate::GameTree::game_info) for a parsed
//!   game) and hands out typed views of it.
//!
//! ```
//! use sgf_grove::game::{GameResult, Rank, WinBy};
//! use sgf_grove::value::Color;
//!
//! let doc = sgf_grove::parse(
//!     "(;GM[1]FF[4]PB[芈昱廷]BR[P9段]PW[Ke Jie]WR[9p]KM[375]RU[Chinese]RE[W+R];B[pd])"
//!         .as_bytes(),
//! )?;
//! let info = doc.games().next().unwrap().game_info();
//! assert_eq!(info.black().rank, Some(Rank::Pro { level: 9, certainty: Default::default() }));
//! assert_eq!(info.komi_points(), Some(7.5)); // Fox: 3¾ stones, written ×100
//! assert_eq!(
//!     info.result(),
//!     Some(GameResult::Win { winner: Color::White, by: WinBy::Resignation })
//! );
//! # Ok::<(), sgf_grove::Error>(())
//! ```

pub mod board;
mod encode;
mod info;
pub mod opening;
mod packed;
pub mod replay;
pub mod signature;
pub mod symmetry;
pub mod transform;

pub use info::{
    Application, Certainty, GameDates, GameInfo, GameResult, Handicap, Komi, KomiScale,
    PartialDate, Player, Rank, Rules, TimeLimit, WinBy, GAME_INFO_IDENTS,
};
pub use packed::{
    pack_main_line, pack_parsed_main_line, PackedMoves, PACKED_BLACK, PACKED_PASS, PACKED_WHITE,
};
pub use replay::{
    Cursor, DetachedCursor, IllegalMove, Limit, LimitExceeded, ReplayError, ReplayOptions,
    TreeCursor,
};
pub use symmetry::Symmetry;
pub use transform::Transform;

use crate::tree::read::{ReadGame, ReadNode, ReadProperty};
use crate::tree::GameTree;

impl<'t, 'src: 't> GameTree<'t, 'src> {
    /// The game information of this game: the text of every property in
    /// [`GAME_INFO_IDENTS`], read in one pass over the root node's
    /// properties and decoded in the game's charset (SimpleText, except
    /// `GC`, which is read as Text so that its line breaks are kept). For a
    /// property repeated in the root, the first value counts. Text is
    /// borrowed from the input when it needed no change, else from the
    /// tree's arena: building it allocates nothing on the heap.
    ///
    /// Game-info properties are read from the root only; a game-info node
    /// further down (allowed by FF\[4\] in collections of variations) is not
    /// looked at. (What the catalogue knows of a property, its type and
    /// kind, is [`Property::info`](crate::Property::info), a
    /// [`PropInfo`](crate::value::PropInfo).)
    ///
    /// ```
    /// let doc = sgf_grove::parse(b"(;KM[6.5]HA[0]DT[2019-10-14 18:34:05];B[pd])")?;
    /// let info = doc.games().next().unwrap().game_info();
    /// assert_eq!(info.komi().map(|k| k.value()), Some(6.5));
    /// assert_eq!(info.handicap().unwrap().stones(), Some(0));
    /// let dates = info.dates_checked().unwrap()?;
    /// assert_eq!(dates.first().to_string(), "2019-10-14");
    /// assert!(dates.time_of_day);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn game_info(&self) -> GameInfo<'t> {
        let props = self.root().properties().map(|p| (p.ident_bytes(), p.raw()));
        GameInfo::from_root(props, &self.value_context())
    }
}

impl<'a> GameInfo<'a> {
    /// The game information of any game, parsed or edited: what
    /// [`GameTree::game_info`] gives for a parsed one.
    ///
    /// ```
    /// use sgf_grove::edit::EditableGame;
    /// use sgf_grove::game::GameInfo;
    /// let doc = sgf_grove::parse(b"(;PB[Lee Sedol]KM[6.5])")?;
    /// let mut game = EditableGame::from_game(doc.games().next().unwrap());
    /// let root = game.root();
    /// game.set(root, "KM", 7.5)?;
    /// let info = GameInfo::of(&game);
    /// assert_eq!(info.black().name, Some("Lee Sedol"));
    /// assert_eq!(info.komi_points(), Some(7.5));
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    pub fn of(game: impl ReadGame<'a>) -> GameInfo<'a> {
        let props = game
            .root()
            .properties()
            .map(|p| (p.ident_bytes(), p.values().next().unwrap_or_default()));
        GameInfo::from_root(props, &game.value_context())
    }
}
