//! A game of a parallel scan kept past its turn: [`OwnedGame`], a copy of
//! the records the worker's parser made for it and of its bytes, so that a
//! consumer that hands games on (the Python bindings' `scan`) reads the
//! game as the scan parsed it instead of parsing its text a second time.

use super::ScanGame;
use crate::tree::OwnedCollection;
use crate::{Collection, GameTree};

/// One game of [`Inputs::par_scan_games`](super::Inputs::par_scan_games),
/// owned: the game's records and its bytes copied out of the parser that
/// read them (no parse again), with the warnings of the scan around it.
/// Made by [`ScanGame::to_owned_game`].
///
/// Positions are those of the scan: [`Collection::position`] and
/// [`Collection::stream_offset`] place a byte of the copy in the game's
/// member, as the scan's warnings are placed. A node's
/// [`offset`](crate::Node::offset) is an offset in the copy's
/// [`input`](Collection::input) (which starts at or before the game's
/// `(`): [`Collection::stream_offset`] turns it into one in the member.
///
/// ```
/// use sgf_grove::input::Inputs;
/// use sgf_grove::ParseOptions;
///
/// let dir = std::env::temp_dir().join(format!("sgf-grove-owned-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// std::fs::write(dir.join("a.sgf"), "(;GM[1];B[aa])\n(;GM[1]PB[Cho];B[bb];W[cc])")?;
/// let mut kept = Vec::new();
/// Inputs::new([&dir]).par_scan_games(
///     ParseOptions::new(),
///     2,
///     |game| game.to_owned_game(),
///     |result| kept.extend(result.unwrap()),
/// )?;
/// let second = &kept[1];
/// let tree = second.tree();
/// assert_eq!(tree.root().raw("PB"), Some(&b"Cho"[..]));
/// assert_eq!(tree.moves().count(), 2);
/// // Where the game starts in its file, and the line of its last node.
/// assert_eq!(second.collection().stream_offset(tree.span().start), 15);
/// let last = tree.root().main_line().last().unwrap();
/// assert_eq!(second.collection().position(last.offset()).line, 2);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct OwnedGame {
    /// Boxed: the store is large, and a game is moved on its way (into a
    /// batch, through a channel).
    copy: Box<OwnedCollection>,
    /// The game's place among the copy's games.
    local: usize,
}

impl OwnedGame {
    /// A copy of `tree` as it was read (by a [`StreamParser`](crate::StreamParser)
    /// or any parse): its collection's records and as much of the input as
    /// its games take, to hand to another thread while the parser reads
    /// on. Positions are placed as in the original.
    ///
    /// ```
    /// use sgf_grove::input::OwnedGame;
    ///
    /// let text = b"(;GM[1];B[aa])\n(;GM[1];B[bb]\n;W[cc])";
    /// let mut parser = sgf_grove::StreamParser::new(&text[..]);
    /// let mut kept = Vec::new();
    /// while let Some(coll) = parser.next_game() {
    ///     let coll = coll?;
    ///     kept.extend(coll.games().next().map(OwnedGame::of));
    /// }
    /// let second = kept[1].tree();
    /// let last = second.root().main_line().last().unwrap();
    /// assert_eq!(kept[1].collection().position(last.offset()).line, 3);
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    pub fn of(tree: GameTree<'_, '_>) -> OwnedGame {
        let mut game = OwnedGame {
            copy: Box::default(),
            local: 0,
        };
        game.copy_from(tree);
        game
    }

    /// Makes this a copy of `tree` ([`OwnedGame::of`]), reusing its room.
    pub fn copy_from(&mut self, tree: GameTree<'_, '_>) {
        tree.collection().copy_into(&mut self.copy);
        self.local = tree.local_index();
    }

    /// The heap bytes the copy holds (its room, not just what the game
    /// uses): for a caller that keeps copies to reuse and bounds them.
    pub fn heap_bytes(&self) -> usize {
        self.copy.heap_bytes()
    }

    /// The copy: the game, the warnings found with it, its bytes.
    pub fn collection(&self) -> Collection<'_, '_> {
        self.copy.collection()
    }

    /// The game.
    pub fn tree(&self) -> GameTree<'_, '_> {
        match self.collection().game(self.local) {
            Some(tree) => tree,
            None => unreachable!("the copy holds the game it was made for"),
        }
    }
}

impl ScanGame<'_> {
    /// The game copied out of the worker's parser, to keep or hand to
    /// another thread: its records and bytes (a copy of memory, no parse),
    /// positioned as the scan placed them. `None` for warnings alone after
    /// a member's last game.
    pub fn to_owned_game(&self) -> Option<OwnedGame> {
        let tree = self.tree()?;
        let mut copy = Box::<OwnedCollection>::default();
        self.collection().copy_into(&mut copy);
        Some(OwnedGame {
            copy,
            local: tree.local_index(),
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::input::{Inputs, OwnedGame};
    use crate::{Collection, GameTree, ParseOptions, Position, ReadGame};

    type Summary = Vec<(usize, Position, Vec<(String, Vec<Vec<u8>>)>)>;

    /// Every node of `tree`: where it is in the member, its properties.
    fn summary(coll: Collection<'_, '_>, tree: GameTree<'_, '_>) -> Summary {
        tree.nodes()
            .map(|n| {
                let props = n
                    .properties()
                    .map(|p| {
                        let values = p.values().map(|v| v.raw().to_vec()).collect();
                        (p.ident().to_owned(), values)
                    })
                    .collect();
                (
                    coll.stream_offset(n.offset()),
                    coll.position(n.offset()),
                    props,
                )
            })
            .collect()
    }

    fn owned_summary(owned: &OwnedGame) -> Summary {
        summary(owned.collection(), owned.tree())
    }

    const TEXT: &str =
        "junk (;GM[1]SZ[9]C[a\\]b];B[ee]\n;W[cc])\n\n(;CA[GB2312]PB[x];B[aa](;W[bb])(;W[cc]))";

    fn folder(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("sgf-grove-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.sgf"), TEXT).unwrap();
        std::fs::write(dir.join("b.sgf"), "(;GM[1];B[aa];W[bb];B[cc];W[dd];B[ee])").unwrap();
        dir
    }

    /// The copy reads as the worker's parse: the same nodes, values,
    /// warnings and positions, whatever the game's place in its file.
    #[test]
    fn owned_games_read_as_the_scan_parsed_them() {
        let dir = folder("owned");
        let mut seen = Vec::new();
        let mut kept = Vec::new();
        Inputs::new([&dir])
            .par_scan_games(
                ParseOptions::new(),
                2,
                |game| {
                    let tree = game.tree()?;
                    let coll = game.collection();
                    let expected = (
                        summary(coll, tree),
                        coll.warnings().to_vec(),
                        game.offset(),
                        game.index(),
                    );
                    Some((expected, game.to_owned_game()?))
                },
                |result| {
                    if let Some((expected, owned)) = result.unwrap() {
                        seen.push(expected);
                        kept.push(owned);
                    }
                },
            )
            .unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(kept.len(), 3);
        for (owned, (nodes, warnings, offset, index)) in kept.iter().zip(&seen) {
            let coll = owned.collection();
            let tree = owned.tree();
            assert_eq!(&owned_summary(owned), nodes);
            assert_eq!(coll.warnings(), &warnings[..]);
            assert_eq!(Some(coll.stream_offset(tree.span().start)), *offset);
            assert_eq!(Some(tree.index()), *index);
        }
        assert_eq!((seen[0].0[1].1.line, seen[0].0[2].1.line), (1, 2));
        assert_eq!(seen[1].2, Some(TEXT.find("\n\n(").unwrap() + 2));
        assert_eq!(seen[1].3, Some(1));
        assert_eq!(kept[1].tree().encoding().name(), "GBK");
    }
}
