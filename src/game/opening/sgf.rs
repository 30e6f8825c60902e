//! An opening tree walked in the order it is written, and written as an
//! SGF collection: one game per start, a node per move, the counts in each
//! node's comment.

use super::{OpeningNode, OpeningTree};
use crate::value::BoardSize;
use std::fmt::Write as _;
use std::io::{self, Write};

/// A node met by [`OpeningTree::walk`].
#[derive(Clone, Debug)]
pub struct Visit<'a> {
    /// The node.
    pub node: OpeningNode<'a>,
    /// The game it is written in: its start's place among the starts
    /// written, from 0.
    pub game: usize,
    /// Its place from that game's root, as `sgf board --node` takes it:
    /// child indexes (the most games first) from the root, empty for the
    /// root.
    pub path: Vec<usize>,
    /// How many children its parent shows (0 for a start).
    pub siblings: usize,
}

/// The nodes of an [`OpeningTree`] with at least a number of games, in
/// pre-order, from [`OpeningTree::walk`].
#[derive(Debug)]
pub struct Walk<'a> {
    min_games: u64,
    /// Nodes to visit, last first: node, game, path, siblings.
    stack: Vec<Visit<'a>>,
}

impl<'a> Iterator for Walk<'a> {
    type Item = Visit<'a>;

    fn next(&mut self) -> Option<Visit<'a>> {
        let visit = self.stack.pop()?;
        let children: Vec<OpeningNode<'a>> = visit
            .node
            .children()
            .into_iter()
            .filter(|c| c.games() >= self.min_games)
            .collect();
        let siblings = children.len();
        for (i, node) in children.into_iter().enumerate().rev() {
            let mut path = visit.path.clone();
            path.push(i);
            self.stack.push(Visit {
                node,
                game: visit.game,
                path,
                siblings,
            });
        }
        Some(visit)
    }
}

impl std::iter::FusedIterator for Walk<'_> {}

impl OpeningTree {
    /// The nodes seen in at least `min_games` games (a node below the cut
    /// hides its subtree), start by start (the most games first), each
    /// tree in pre-order with the children the most games first: the
    /// order [`OpeningTree::write_sgf`] writes them in.
    pub fn walk(&self, min_games: u64) -> Walk<'_> {
        let starts: Vec<OpeningNode<'_>> =
            self.starts().filter(|s| s.games() >= min_games).collect();
        let stack = starts
            .into_iter()
            .enumerate()
            .rev()
            .map(|(game, node)| Visit {
                node,
                game,
                path: Vec::new(),
                siblings: 0,
            })
            .collect();
        Walk { min_games, stack }
    }

    /// Writes the tree as an SGF collection: for each start seen in at
    /// least `min_games` games, a game whose root holds `GM`, `FF`, `CA`,
    /// `SZ`, the handicap stones (`AB`) and a comment that says what the
    /// tree is, then a node per move seen in at least `min_games` games,
    /// each with its counts in `C` ([`OpeningNode::comment`]), the
    /// variations the most games first.
    ///
    /// # Errors
    ///
    /// A failed write.
    pub fn write_sgf(&self, min_games: u64, out: &mut impl Write) -> io::Result<()> {
        // The depths at which a `(` is open, innermost last.
        let mut open: Vec<usize> = Vec::new();
        for visit in self.walk(min_games) {
            let depth = visit.path.len();
            while open.last().is_some_and(|&d| d >= depth) {
                open.pop();
                out.write_all(b")")?;
            }
            if depth == 0 {
                if visit.game > 0 {
                    out.write_all(b"\n")?;
                }
                out.write_all(b"(")?;
                open.push(0);
                let start = visit.node.start();
                write!(out, ";GM[1]FF[4]CA[UTF-8]SZ[{}]", size_text(start.size))?;
                if !start.handicap.is_empty() {
                    write!(out, "HA[{}]AB", start.handicap.len())?;
                    for p in &start.handicap {
                        write!(out, "[{p}]")?;
                    }
                }
                writeln!(
                    out,
                    "GN[opening tree]C[{}\n\n{}]",
                    self.summary(min_games),
                    visit.node.comment()
                )?;
                continue;
            }
            if visit.siblings > 1 {
                out.write_all(b"(")?;
                open.push(depth);
            }
            writeln!(
                out,
                ";{}C[{}]",
                visit.node.move_text(),
                visit.node.comment()
            )?;
        }
        for _ in open {
            out.write_all(b")")?;
        }
        if self.starts().any(|s| s.games() >= min_games) {
            out.write_all(b"\n")?;
        }
        Ok(())
    }

    /// What the tree is, for the comment of each root: the games joined
    /// and left out, the depth, the cut, whether a pruning happened.
    pub fn summary(&self, min_games: u64) -> String {
        let o = &self.options;
        let mut text = format!(
            "Opening tree: {} games joined, the first {} moves of each main line",
            self.games, o.depth
        );
        if o.symmetry {
            text.push_str(", each game turned to its canonical orientation");
        }
        if min_games > 1 {
            let _ = write!(
                text,
                "; variations of fewer than {min_games} games left out"
            );
        }
        text.push_str("; the variations with the most games first.");
        let left: Vec<String> = self
            .left_out()
            .filter(|(_, n)| *n > 0)
            .map(|(why, n)| format!("{n} {why}"))
            .collect();
        if !left.is_empty() {
            let _ = write!(text, "\nLeft out: {}.", left.join(", "));
        }
        if self.prunings > 0 {
            let _ = write!(
                text,
                "\nThe node budget ({} nodes) was reached {} times: nodes made after it \
                 may have missed up to {} games each, shown as a range.",
                o.max_nodes, self.prunings, self.floor
            );
        }
        text
    }
}

fn size_text(size: BoardSize) -> String {
    if size.cols == size.rows {
        size.cols.to_string()
    } else {
        format!("{}:{}", size.cols, size.rows)
    }
}

/// `12 (50%)`.
fn share(n: u64, of: u64) -> String {
    if of == 0 {
        return n.to_string();
    }
    format!("{n} ({:.0}%)", n as f64 * 100.0 / of as f64)
}

impl OpeningNode<'_> {
    /// Its counts as the text of a comment:
    ///
    /// ```text
    /// games 120
    /// black wins 60 (50%), white wins 55 (46%), other 5
    /// dates 1996-05-06 to 2019-10-14
    /// ```
    ///
    /// `games 120 to 126` when a pruning may have taken some; `date
    /// 1996-05-06` when all dates are one; no such line when no game
    /// counted had a date. The text holds no `]` or `\`.
    pub fn comment(&self) -> String {
        let games = self.games();
        let mut text = if self.is_exact() {
            format!("games {games}")
        } else {
            format!("games {games} to {}", self.games_max())
        };
        let _ = write!(
            text,
            "\nblack wins {}, white wins {}, other {}",
            share(self.black_wins(), games),
            share(self.white_wins(), games),
            self.other_results()
        );
        if let Some((first, last)) = self.dates() {
            if first == last {
                let _ = write!(text, "\ndate {first}");
            } else {
                let _ = write!(text, "\ndates {first} to {last}");
            }
        }
        text
    }
}
