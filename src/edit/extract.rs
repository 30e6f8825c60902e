//! Extraction: a node's subtree, or one line of play, as a game of its own
//! ([`EditableGame::extract`], [`EditableGame::variations`], what they
//! write under [`Extract`]).

use super::{EditId, EditableGame};
use crate::error::{Error, ErrorKind};
use crate::game::replay::{ReplayError, ReplayOptions};
use crate::value::{catalogue, Color, PropKind};
use std::fmt;

/// What [`EditableGame::extract`] and [`EditableGame::variations`] write.
///
/// Without [`Extract::setup`], the new game keeps the moves: the original
/// root, the line of nodes from it to the node (each node whole, without
/// its other variations), and below the node what was asked for. With it,
/// the new game starts at the node's position: its root holds
///
/// - the original root's game information and root properties (`GM`,
///   `FF`, `CA`, `SZ`, `PB`, `KM`, `HA`, `RE`, …) and its private
///   properties, as written; not its setup, moves, markup or comment;
/// - the position after the node, replayed ([`crate::game::replay`]): the
///   black stones as `AB`, the white ones as `AW`, the player to move as
///   `PL`;
/// - a comment (`C`) saying where the position comes from (the move
///   number), the prisoners each side had taken (SGF has no property for
///   them) and the ko point when one is forbidden, then the node's own
///   comment;
/// - the node's other properties that describe its position (markup,
///   `N`, `VW`, `DD`, territory) and game information the root lacks;
///
/// and then what was asked for below the node. The setup root replayed
/// gives the node's position, and every line below it replays to the
/// original line's positions.
///
/// ```
/// use sgf_grove::edit::{EditableGame, Extract};
/// use sgf_grove::value::Color;
///
/// let doc = sgf_grove::parse(b"(;SZ[9]PB[Lee];B[ee];W[ed];B[dd](;W[cd])(;W[de]))")?;
/// let game = EditableGame::from_game(doc.games().next().unwrap());
/// let black = game.node_at_path(&[0, 0, 0])?; // B[dd]
/// let part = game.extract(black, &Extract::new().setup(true))?;
/// let root = part.node(part.root())?;
/// assert_eq!(root.raw("PB"), Some(&b"Lee"[..]));
/// assert_eq!(root.points("AB")?.len(), 2);
/// assert_eq!(root.get::<Color>("PL")?, Some(Color::White));
/// assert_eq!(root.children().len(), 2); // W[cd] and W[de]
/// // One game per leaf, each the whole line as played.
/// let lines: Vec<_> = game.variations(game.root(), &Extract::new()).collect::<Result<_, _>>()?;
/// assert_eq!(lines.len(), 2);
/// assert_eq!(lines[1].moves()?.len(), 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Extract {
    setup: bool,
    replay: ReplayOptions,
}

impl Extract {
    /// The default: the moves kept, replayed with the default options.
    pub fn new() -> Extract {
        Extract::default()
    }

    /// Whether the new game starts at the node's position, as setup (see
    /// [`Extract`]). Default: false, the line from
    /// the original root kept as moves.
    #[must_use]
    pub fn setup(mut self, setup: bool) -> Extract {
        self.setup = setup;
        self
    }

    /// How the position is replayed for [`Extract::setup`]: its rules and
    /// limits. Default: [`ReplayOptions::default`] (the game's rules,
    /// illegal moves reported, not fatal).
    #[must_use]
    pub fn replay(mut self, options: ReplayOptions) -> Extract {
        self.replay = options;
        self
    }
}

/// Why a node cannot be extracted.
#[derive(Debug)]
#[non_exhaustive]
pub enum ExtractError {
    /// The node is not in the game, or the comment could not be written
    /// in the game's charset.
    Edit(Error),
    /// The replay to the node failed (a limit, or an illegal move in
    /// strict mode).
    Replay(ReplayError),
}

impl fmt::Display for ExtractError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExtractError::Edit(e) => write!(f, "{e}"),
            ExtractError::Replay(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ExtractError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ExtractError::Edit(e) => Some(e),
            ExtractError::Replay(e) => Some(e),
        }
    }
}

impl From<Error> for ExtractError {
    fn from(e: Error) -> Self {
        ExtractError::Edit(e)
    }
}

impl From<ReplayError> for ExtractError {
    fn from(e: ReplayError) -> Self {
        ExtractError::Replay(e)
    }
}

/// What goes below the node in the new game.
#[derive(Clone, Copy)]
enum Below {
    /// Its whole subtree.
    Subtree,
    /// The line down to this leaf of its subtree.
    LineTo(EditId),
}

impl EditableGame {
    /// The node reached from the root by child indexes (`[0, 0, 1]`: the
    /// root's first child, its first child, that one's second child), as
    /// `sgf board --node 0.0.1` names it.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NoSuchNode`] when a step names no child.
    pub fn node_at_path(&self, path: &[usize]) -> crate::Result<EditId> {
        let mut at = self.root();
        for &i in path {
            at = *self.nodes[at.index()]
                .children
                .get(i)
                .ok_or_else(|| Error::without_position(ErrorKind::NoSuchNode))?;
        }
        Ok(at)
    }

    /// The child indexes that lead from the root to `id`, the inverse of
    /// [`EditableGame::node_at_path`].
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NoSuchNode`] when `id` is not a node of this game.
    pub fn path_of(&self, id: EditId) -> crate::Result<Vec<usize>> {
        self.check(id)?;
        let mut path = Vec::new();
        let mut at = id;
        while let Some(parent) = self.nodes[at.index()].parent {
            let i = self.nodes[parent.index()]
                .children
                .iter()
                .position(|&c| c == at)
                .unwrap_or(0);
            path.push(i);
            at = parent;
        }
        path.reverse();
        Ok(path)
    }

    /// The subtree from node `id` as a new game: the line from the root to
    /// it as moves, or (with [`Extract::setup`]) its position as setup,
    /// then every variation below it. See [`Extract`].
    ///
    /// # Errors
    ///
    /// [`ExtractError::Edit`] with [`ErrorKind::NoSuchNode`] when `id` is
    /// not a node of this game; [`ExtractError::Replay`] when the replay to
    /// it fails under [`Extract::replay`]'s options.
    pub fn extract(&self, id: EditId, options: &Extract) -> Result<EditableGame, ExtractError> {
        self.check(id)?;
        self.build(id, Below::Subtree, options)
    }

    /// Every variation from node `id` as a game of its own, one per leaf
    /// of its subtree, in pre-order (the first leaf is the end of the
    /// main line below it): the line from the root to the leaf as moves,
    /// or (with [`Extract::setup`]) the position at `id` as setup and the
    /// line from it to the leaf. A node without children gives one game.
    /// Each game is made when asked for: memory is one game at a time.
    ///
    /// # Errors
    ///
    /// Each item fails as [`EditableGame::extract`] does; a node not of
    /// this game gives one error.
    pub fn variations<'g>(
        &'g self,
        id: EditId,
        options: &'g Extract,
    ) -> impl Iterator<Item = Result<EditableGame, ExtractError>> + 'g {
        let checked = self.check(id);
        let stack = if checked.is_ok() {
            vec![id]
        } else {
            Vec::new()
        };
        let leaves = Leaves { game: self, stack };
        checked
            .err()
            .map(|e| Err(ExtractError::Edit(e)))
            .into_iter()
            .chain(leaves.map(move |leaf| self.build(id, Below::LineTo(leaf), options)))
    }

    /// The leaves of the subtree of `id`, in pre-order.
    pub fn leaves(&self, id: EditId) -> impl Iterator<Item = EditId> + '_ {
        let stack = if self.contains(id) {
            vec![id]
        } else {
            Vec::new()
        };
        Leaves { game: self, stack }
    }

    /// The new game: `at` (and the line to it, or its position) and below
    /// it what `below` says.
    fn build(
        &self,
        at: EditId,
        below: Below,
        options: &Extract,
    ) -> Result<EditableGame, ExtractError> {
        let mut out = EditableGame::empty(self.encoding);
        out.size = self.size;
        out.game_type = self.game_type;
        let root = out.root();
        // Where the copy of `at` is in `out`.
        let at_copy = if options.setup {
            self.setup_root(at, &mut out, options)?;
            root
        } else {
            let mut line = vec![at];
            while let Some(parent) = self.nodes[line[line.len() - 1].index()].parent {
                line.push(parent);
            }
            line.reverse();
            self.copy_props(line[0], &mut out, root);
            let mut to = root;
            for &from in &line[1..] {
                to = out.push_child(to)?;
                self.copy_props(from, &mut out, to);
            }
            to
        };
        match below {
            Below::Subtree => {
                let mut stack: Vec<(EditId, EditId)> = self.nodes[at.index()]
                    .children
                    .iter()
                    .rev()
                    .map(|&c| (c, at_copy))
                    .collect();
                while let Some((from, parent)) = stack.pop() {
                    let to = out.push_child(parent)?;
                    self.copy_props(from, &mut out, to);
                    stack.extend(
                        self.nodes[from.index()]
                            .children
                            .iter()
                            .rev()
                            .map(|&c| (c, to)),
                    );
                }
            }
            Below::LineTo(leaf) => {
                let mut line = vec![leaf];
                while line[line.len() - 1] != at {
                    match self.nodes[line[line.len() - 1].index()].parent {
                        Some(parent) => line.push(parent),
                        None => return Err(Error::without_position(ErrorKind::NoSuchNode).into()),
                    }
                }
                line.reverse();
                let mut to = at_copy;
                for &from in &line[1..] {
                    to = out.push_child(to)?;
                    self.copy_props(from, &mut out, to);
                }
            }
        }
        Ok(out)
    }

    /// Copies every property of `from` to node `to` of `out`, raw.
    fn copy_props(&self, from: EditId, out: &mut EditableGame, to: EditId) {
        self.copy_props_if(from, out, to, |_| true);
    }

    fn copy_props_if(
        &self,
        from: EditId,
        out: &mut EditableGame,
        to: EditId,
        keep: impl Fn(&[u8]) -> bool,
    ) {
        let mut values: Vec<&[u8]> = Vec::new();
        for prop in &self.nodes[from.index()].props {
            let ident = self.ident_bytes(prop);
            if !keep(ident) {
                continue;
            }
            values.clear();
            values.extend(prop.values.iter().map(|v| &self.bytes[v.range()]));
            out.push_prop(to, ident, &values);
        }
    }

    /// Fills the root of `out` with the position at `at` (see [`Extract`]).
    fn setup_root(
        &self,
        at: EditId,
        out: &mut EditableGame,
        options: &Extract,
    ) -> Result<(), ExtractError> {
        let root = out.root();
        let gm = self.game_type;
        let kind = |ident: &[u8]| {
            std::str::from_utf8(ident)
                .ok()
                .and_then(|i| catalogue::lookup(gm, i))
                .map(|p| p.kind)
        };
        // The original root: game information, root and private properties.
        self.copy_props_if(self.root(), out, root, |ident| {
            matches!(
                kind(ident),
                Some(PropKind::Root | PropKind::GameInfo) | None
            )
        });
        let cursor = self.position_at(self.node(at)?, options.replay)?;
        let board = cursor.board();
        let black: Vec<_> = board.stones(Color::Black).collect();
        let white: Vec<_> = board.stones(Color::White).collect();
        if !black.is_empty() {
            out.set_list(root, "AB", black)?;
        }
        if !white.is_empty() {
            out.set_list(root, "AW", white)?;
        }
        out.set(root, "PL", cursor.to_play())?;
        let mut note = format!(
            "Position after move {} of the original game; prisoners taken: black {}, white {}",
            cursor.moves(),
            board.captures(Color::Black),
            board.captures(Color::White)
        );
        if let Some(ko) = board.ko() {
            let player = match cursor.to_play() {
                Color::Black => "black",
                Color::White => "white",
            };
            note.push_str(&format!("; ko: {player} may not play {ko} now"));
        }
        note.push('.');
        out.append_comment(root, &note)?;
        if at != self.root() {
            if let Some(text) = self.node(at)?.text("C") {
                let text = text.to_owned();
                out.append_comment(root, &text)?;
            }
            // What describes the node's position, and game information
            // the root lacks.
            let has_info: Vec<Vec<u8>> = out.nodes[0]
                .props
                .iter()
                .map(|p| out.ident_bytes(p).to_vec())
                .collect();
            self.copy_props_if(at, out, root, |ident| {
                ident != b"C"
                    && match kind(ident) {
                        Some(PropKind::None | PropKind::Inherit) => true,
                        Some(PropKind::GameInfo) => !has_info.iter().any(|i| i == ident),
                        _ => false,
                    }
            });
        }
        Ok(())
    }
}

/// The leaves of a subtree in pre-order.
struct Leaves<'g> {
    game: &'g EditableGame,
    stack: Vec<EditId>,
}

impl Iterator for Leaves<'_> {
    type Item = EditId;

    fn next(&mut self) -> Option<EditId> {
        while let Some(id) = self.stack.pop() {
            let children = &self.game.nodes[id.index()].children;
            if children.is_empty() {
                return Some(id);
            }
            self.stack.extend(children.iter().rev());
        }
        None
    }
}
