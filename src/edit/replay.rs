//! An editable game replayed: [`EditableGame::cursor`],
//! [`EditableGame::cursor_with`] and [`EditableGame::position_at`], the
//! library's one replay ([`crate::game::replay`]) read through the read
//! interface.

use super::{EditNode, EditableGame};
use crate::game::replay::{self, Cursor, ReplayError, ReplayOptions};

impl EditableGame {
    /// A cursor at this game's root, its setup applied, under the rules its
    /// `RU` names (the default [`ReplayOptions`]). See [`cursor`](replay::cursor).
    ///
    /// ```
    /// use sgf_grove::edit::EditableGame;
    /// use sgf_grove::value::{Color, Move, Point};
    ///
    /// let doc = sgf_grove::parse(b"(;SZ[9];B[ee])")?;
    /// let mut game = EditableGame::from_game(doc.games().next().unwrap());
    /// let last = game.nodes().last().unwrap();
    /// let added = game.push_child(last)?;
    /// game.set(added, "W", Move::Play(Point { x: 2, y: 2 }))?;
    /// let mut cursor = game.cursor();
    /// while cursor.next().is_some() {}
    /// assert_eq!(cursor.board().get(Point { x: 2, y: 2 }), Some(Color::White));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cursor(&self) -> Cursor<'_, &EditableGame> {
        replay::cursor(self)
    }

    /// A cursor at this game's root with `options`. See [`cursor_with`](replay::cursor_with).
    ///
    /// # Errors
    ///
    /// In strict mode, the first illegal move (of the root). The root is
    /// entered whatever the limits.
    pub fn cursor_with(
        &self,
        options: ReplayOptions,
    ) -> Result<Cursor<'_, &EditableGame>, ReplayError> {
        replay::cursor_with(self, options)
    }

    /// The position after `node` (a node of this game, from
    /// [`EditableGame::node`]), replayed from the root along the line that
    /// leads to it. See
    /// [`position_at`](replay::position_at).
    ///
    /// # Errors
    ///
    /// In strict mode, the first illegal move on the way; a limit of
    /// `options` reached on the way.
    pub fn position_at<'g>(
        &'g self,
        node: EditNode<'g>,
        options: ReplayOptions,
    ) -> Result<Cursor<'g, &'g EditableGame>, ReplayError> {
        replay::position_at(self, node, options)
    }
}
