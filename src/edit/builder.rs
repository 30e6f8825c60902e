//! Recording a game from scratch: an [`EditableGame`] and a cursor.

use super::*;
use crate::value::ToValue;

/// Records a game node by node: a new [`EditableGame`] and a cursor, the
/// node that the next move follows. A move played where the cursor already
/// has a child starts a variation.
///
/// ```
/// use sgf_grove::edit::GameBuilder;
/// use sgf_grove::value::{BoardSize, Color, Point};
///
/// let pt = |s: &str| s.parse::<Point>();
/// let mut b = GameBuilder::new(BoardSize::square(19));
/// b.info("PB", "Lee Sedol")?.info("PW", "AlphaGo")?.info("KM", 7.5)?;
/// b.play(Color::Black, pt("pd")?)?;
/// let fork = b.current();
/// b.play(Color::White, pt("dd")?)?.comment("the usual")?;
/// b.play(Color::Black, pt("pq")?)?;
/// b.go_to(fork)?.play(Color::White, pt("dp")?)?; // a variation
/// let game = b.finish();
/// assert_eq!(
///     game.to_sgf(),
///     b"(;GM[1]FF[4]CA[UTF-8]SZ[19]PB[Lee Sedol]PW[AlphaGo]KM[7.5];B[pd]\
///       (;W[dd]C[the usual];B[pq])(;W[dp]))\n"
/// );
/// // Parsed back, it is the same game.
/// let sgf = game.to_sgf();
/// let doc = sgf_grove::parse(&sgf)?;
/// let parsed = doc.games().next().unwrap();
/// assert_eq!(parsed.moves().count(), 3);
/// assert_eq!(sgf_grove::edit::EditableGame::from_game(parsed).to_sgf(), sgf);
/// # Ok::<(), sgf_grove::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct GameBuilder {
    game: EditableGame,
    cursor: EditId,
}

impl GameBuilder {
    /// A new Go game on a board of `size` ([`EditableGame::new`]), the
    /// cursor at its root.
    pub fn new(size: BoardSize) -> GameBuilder {
        GameBuilder::from_game(EditableGame::new(size))
    }

    /// Goes on recording `game`, from its root.
    pub fn from_game(game: EditableGame) -> GameBuilder {
        let cursor = game.root();
        GameBuilder { game, cursor }
    }

    /// Sets a property of the root (game information: `PB`, `KM`, `RE`…).
    ///
    /// # Errors
    ///
    /// As [`EditableGame::set`].
    pub fn info<V: ToValue>(&mut self, ident: &str, value: V) -> Result<&mut GameBuilder> {
        let root = self.game.root();
        self.game.set(root, ident, value)?;
        Ok(self)
    }

    /// Sets a property of the node at the cursor.
    ///
    /// # Errors
    ///
    /// As [`EditableGame::set`].
    pub fn set<V: ToValue>(&mut self, ident: &str, value: V) -> Result<&mut GameBuilder> {
        self.game.set(self.cursor, ident, value)?;
        Ok(self)
    }

    /// Adds a node playing `mv` (a [`Point`] or a [`Move`]) for `color` as
    /// the last child of the cursor, and moves the cursor to it.
    ///
    /// # Errors
    ///
    /// As [`EditableGame::set`] (a point beyond 52×52).
    pub fn play(&mut self, color: Color, mv: impl Into<Move>) -> Result<&mut GameBuilder> {
        let node = self.game.push_child(self.cursor)?;
        let ident = match color {
            Color::Black => "B",
            Color::White => "W",
        };
        if let Err(err) = self.game.set(node, ident, mv.into()) {
            self.game.delete(node)?;
            return Err(err);
        }
        self.cursor = node;
        Ok(self)
    }

    /// A pass for `color`, as [`GameBuilder::play`] plays a move.
    ///
    /// # Errors
    ///
    /// None in practice; as [`GameBuilder::play`].
    pub fn pass(&mut self, color: Color) -> Result<&mut GameBuilder> {
        self.play(color, Move::Pass)
    }

    /// Appends to the comment of the node at the cursor
    /// ([`EditableGame::append_comment`]).
    ///
    /// # Errors
    ///
    /// As [`EditableGame::append_comment`].
    pub fn comment(&mut self, text: &str) -> Result<&mut GameBuilder> {
        self.game.append_comment(self.cursor, text)?;
        Ok(self)
    }

    /// The node at the cursor.
    pub fn current(&self) -> EditId {
        self.cursor
    }

    /// Moves the cursor to node `id`: the next move starts a variation
    /// there when it has a child already.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NoSuchNode`].
    pub fn go_to(&mut self, id: EditId) -> Result<&mut GameBuilder> {
        self.game.check(id)?;
        self.cursor = id;
        Ok(self)
    }

    /// Moves the cursor to its parent (it stays at the root).
    pub fn back(&mut self) -> &mut GameBuilder {
        if let Some(parent) = self.game.nodes[self.cursor.index()].parent {
            self.cursor = parent;
        }
        self
    }

    /// The game so far.
    pub fn game(&self) -> &EditableGame {
        &self.game
    }

    /// The game so far, to edit.
    pub fn game_mut(&mut self) -> &mut EditableGame {
        &mut self.game
    }

    /// The game recorded.
    pub fn finish(self) -> EditableGame {
        self.game
    }
}

impl From<Point> for Move {
    fn from(point: Point) -> Move {
        Move::Play(point)
    }
}
