//! Opening trees: the first moves of many games merged into one variation
//! tree, each node counting the games that reached it, the wins of each
//! colour, the other results and the range of dates.
//!
//! Each game gives an [`OpeningLine`] (its first [`OpeningOptions::depth`]
//! main-line moves, passes included); [`OpeningTree::add`] walks the line
//! down the tree, adding nodes where it leaves the known branches. Games
//! start at a [`Start`]: the board and the handicap stones; games of
//! different starts are never merged (one tree per start, each written as
//! a game of its own by [`OpeningTree::write_sgf`]). Games with another
//! setup, or none of the moves asked for, are left out and counted
//! ([`LeftOut`]).
//!
//! With [`OpeningOptions::symmetry`], each line is turned by the symmetry
//! that makes its moves smallest move by move (ties resolved by later
//! moves, [`MoveSequence::canonical`](super::signature::MoveSequence::canonical)):
//! the canonical form of a line begins with the canonical form of each of
//! its prefixes, so games that agree up to a rotation or reflection for
//! some moves share those moves' branch.
//!
//! # Memory
//!
//! The tree holds at most [`OpeningOptions::max_nodes`] nodes (40 bytes
//! each, plus a 4-byte sort key per node while pruning), whatever the
//! number of games. When a new node would pass that budget, the rarest
//! nodes are pruned with their subtrees, down to half the budget: those
//! whose count plus possible undercount is at most some `t`, the smallest
//! that frees enough room. Nothing is silent about it: a node created
//! after a pruning may have missed up to the highest such `t` so far
//! ([`OpeningTree::undercount_bound`]) of its games, and says so
//! ([`OpeningNode::games_max`]); nodes created before any pruning count
//! exactly. Frequent lines are never affected in practice: a node is
//! pruned only when it is rarer than the half of the budget kept.
//!
//! ```
//! use sgf_grove::game::opening::{OpeningLine, OpeningOptions, OpeningTree};
//!
//! let options = OpeningOptions::new().depth(3);
//! let mut tree = OpeningTree::new(options.clone());
//! for sgf in ["(;RE[B+R];B[pd];W[dd];B[pq])", "(;RE[W+2];B[pd];W[dp])", "(;B[dd];W[pd])"] {
//!     let doc = sgf_grove::parse(sgf.as_bytes())?;
//!     tree.add(&OpeningLine::of(doc.games().next().unwrap(), &options).unwrap());
//! }
//! let start = tree.starts().next().unwrap();
//! let first: Vec<(String, u64)> = start
//!     .children()
//!     .iter()
//!     .map(|n| (n.move_text(), n.games()))
//!     .collect();
//! assert_eq!(first, [("B[pd]".to_string(), 2), ("B[dd]".to_string(), 1)]);
//! assert_eq!(start.children()[0].black_wins(), 1);
//! let mut sgf = Vec::new();
//! tree.write_sgf(1, &mut sgf)?;
//! let doc = sgf_grove::parse(&sgf)?;
//! assert_eq!(doc.games().next().unwrap().root().children().count(), 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod line;
mod sgf;

pub use line::{LeftOut, OpeningLine, Outcome, Start, MAX_HANDICAP};
pub use sgf::{Visit, Walk};

use super::signature::SeqMove;
use super::PartialDate;
use crate::value::{Color, Point};
use std::collections::HashMap;

/// How an opening tree is built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningOptions {
    pub(crate) depth: usize,
    pub(crate) symmetry: bool,
    pub(crate) max_nodes: usize,
}

impl Default for OpeningOptions {
    fn default() -> OpeningOptions {
        OpeningOptions::new()
    }
}

impl OpeningOptions {
    /// The default options.
    pub fn new() -> OpeningOptions {
        OpeningOptions {
            depth: 20,
            symmetry: false,
            max_nodes: 1_000_000,
        }
    }

    /// How many moves of each game's main line go into the tree.
    /// Default: 20, past the usual opening of a 19×19 game.
    #[must_use]
    pub fn depth(mut self, depth: usize) -> OpeningOptions {
        self.depth = depth;
        self
    }

    /// Whether each game is turned into one orientation first (see the
    /// module documentation). Default: false, the moves as played.
    #[must_use]
    pub fn symmetry(mut self, symmetry: bool) -> OpeningOptions {
        self.symmetry = symmetry;
        self
    }

    /// The most nodes the tree holds (at least 16). Default: 1,000,000
    /// (40 MB), which holds 20 moves of about 50,000 games of
    /// professionals without a pruning.
    #[must_use]
    pub fn max_nodes(mut self, max_nodes: usize) -> OpeningOptions {
        self.max_nodes = max_nodes.clamp(16, u32::MAX as usize / 2);
        self
    }
}

/// No node (the end of a list).
const NONE: u32 = u32::MAX;

/// The key of a node: a move (colour in bit 15, a pass as `0x7fff`, else
/// `x << 6 | y`) or, for a start, its index in the tree's table.
type Key = u16;

const PASS: u16 = 0x7fff;
const WHITE: u16 = 0x8000;

fn key_of(m: SeqMove) -> Key {
    let color = match m.0 {
        Color::Black => 0,
        Color::White => WHITE,
    };
    color
        | match m.1 {
            None => PASS,
            Some(p) => u16::from(p.x) << 6 | u16::from(p.y),
        }
}

fn move_of(key: Key) -> SeqMove {
    let color = if key & WHITE == 0 {
        Color::Black
    } else {
        Color::White
    };
    let rest = key & !WHITE;
    let point = (rest != PASS).then_some(Point {
        x: (rest >> 6) as u8,
        y: (rest & 63) as u8,
    });
    (color, point)
}

/// A date as one ordered number (`yyyymmdd`, 0 for a missing month or day).
fn pack_date(d: PartialDate) -> u32 {
    d.year.unsigned_abs() * 10_000
        + u32::from(d.month.unwrap_or(0)) * 100
        + u32::from(d.day.unwrap_or(0))
}

fn unpack_date(n: u32) -> Option<PartialDate> {
    let day = (n % 100) as u8;
    let month = (n / 100 % 100) as u8;
    let year = i32::try_from(n / 10_000).ok()?;
    PartialDate::new(year, (month > 0).then_some(month), (day > 0).then_some(day))
}

/// One node of the arena.
#[derive(Clone, Copy, Debug)]
struct Slot {
    key: Key,
    count: u32,
    /// Games this node may have missed: the undercount bound when it was
    /// made.
    missed: u32,
    black: u32,
    white: u32,
    /// The earliest and latest dates (packed), `NONE` and 0 when none.
    first: u32,
    last: u32,
    parent: u32,
    child: u32,
    sibling: u32,
}

impl Slot {
    fn new(key: Key, parent: u32, missed: u32) -> Slot {
        Slot {
            key,
            count: 0,
            missed,
            black: 0,
            white: 0,
            first: NONE,
            last: 0,
            parent,
            child: NONE,
            sibling: NONE,
        }
    }
}

/// The opening tree of many games: see the [module documentation](self).
#[derive(Clone, Debug)]
pub struct OpeningTree {
    options: OpeningOptions,
    /// Slot 0 is above the starts; every parent comes before its children.
    slots: Vec<Slot>,
    starts: Vec<Start>,
    start_keys: HashMap<Start, Key>,
    floor: u32,
    prunings: u64,
    games: u64,
    left_out: [u64; LeftOut::ALL.len()],
}

impl OpeningTree {
    /// An empty tree.
    pub fn new(options: OpeningOptions) -> OpeningTree {
        OpeningTree {
            options,
            slots: vec![Slot::new(0, NONE, 0)],
            starts: Vec::new(),
            start_keys: HashMap::new(),
            floor: 0,
            prunings: 0,
            games: 0,
            left_out: [0; LeftOut::ALL.len()],
        }
    }

    /// The options it was made with.
    pub fn options(&self) -> &OpeningOptions {
        &self.options
    }

    /// Adds one game's line (its moves past [`OpeningOptions::depth`] are
    /// ignored).
    pub fn add(&mut self, line: &OpeningLine) {
        let start = match self.start_keys.get(&line.start) {
            Some(&k) => k,
            None => {
                let Ok(k) = Key::try_from(self.starts.len()) else {
                    self.leave_out(LeftOut::TooManyStarts);
                    return;
                };
                self.starts.push(line.start.clone());
                self.start_keys.insert(line.start.clone(), k);
                k
            }
        };
        self.games += 1;
        let keys = std::iter::once(start).chain(
            line.moves
                .iter()
                .take(self.options.depth)
                .map(|&m| key_of(m)),
        );
        let mut at = 0u32;
        for key in keys {
            at = self.child(at, key);
            let s = &mut self.slots[at as usize];
            s.count += 1;
            match line.outcome {
                Outcome::BlackWin => s.black += 1,
                Outcome::WhiteWin => s.white += 1,
                Outcome::Other => {}
            }
            if let Some((first, last)) = line.dates {
                s.first = s.first.min(pack_date(first));
                s.last = s.last.max(pack_date(last));
            }
        }
    }

    /// Counts a game left out of the tree.
    pub fn leave_out(&mut self, why: LeftOut) {
        let i = LeftOut::ALL.iter().position(|&w| w == why).unwrap_or(0);
        self.left_out[i] += 1;
    }

    /// The games left out, by reason (reasons with none left out too).
    pub fn left_out(&self) -> impl Iterator<Item = (LeftOut, u64)> + '_ {
        LeftOut::ALL.into_iter().zip(self.left_out.iter().copied())
    }

    /// The games added.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The nodes held (starts included).
    pub fn node_count(&self) -> usize {
        self.slots.len() - 1
    }

    /// How many times the budget was reached and rare nodes pruned.
    pub fn prunings(&self) -> u64 {
        self.prunings
    }

    /// The most games a node may have missed because of a pruning: 0 when
    /// nothing was pruned. See the [module documentation](self).
    pub fn undercount_bound(&self) -> u32 {
        self.floor
    }

    /// The starts, the most games first.
    pub fn starts(&self) -> impl Iterator<Item = OpeningNode<'_>> + '_ {
        self.node(0).children().into_iter()
    }

    fn node(&self, id: u32) -> OpeningNode<'_> {
        OpeningNode { tree: self, id }
    }

    /// The child of `parent` of key `key`, made when missing.
    fn child(&mut self, parent: u32, key: Key) -> u32 {
        let mut c = self.slots[parent as usize].child;
        while c != NONE {
            let s = &self.slots[c as usize];
            if s.key == key {
                return c;
            }
            c = s.sibling;
        }
        // Room for the line being added, whatever the budget.
        let budget = self.options.max_nodes.max(4 * (self.options.depth + 2));
        if self.slots.len() > budget {
            // The line's nodes so far survive: `parent` is renumbered.
            let parent = self.prune(parent);
            return self.push(parent, key);
        }
        self.push(parent, key)
    }

    fn push(&mut self, parent: u32, key: Key) -> u32 {
        let id = self.slots.len() as u32;
        let mut slot = Slot::new(key, parent, self.floor);
        slot.sibling = self.slots[parent as usize].child;
        self.slots[parent as usize].child = id;
        self.slots.push(slot);
        id
    }

    /// Prunes the rarest nodes down to half the budget, keeping `keep` and
    /// its ancestors (the line being added); returns `keep`'s new id.
    fn prune(&mut self, keep: u32) -> u32 {
        self.prunings += 1;
        let mut spared = vec![false; self.slots.len()];
        let mut at = keep;
        while at != NONE {
            spared[at as usize] = true;
            at = self.slots[at as usize].parent;
        }
        let mut values: Vec<u32> = self.slots[1..]
            .iter()
            .map(|s| s.count.saturating_add(s.missed))
            .collect();
        let target = self.options.max_nodes.max(4 * (self.options.depth + 2)) / 2;
        let cut = values.len().saturating_sub(target).max(1);
        let (_, t, _) = values.select_nth_unstable(cut - 1);
        let t = *t;
        drop(values);
        self.floor = self.floor.max(t);
        // Parents come before children: one pass decides, one renumbers.
        let mut new_id = vec![NONE; self.slots.len()];
        let mut kept: Vec<Slot> = Vec::with_capacity(target + 1);
        for (i, s) in self.slots.iter().enumerate() {
            let parent_kept = i == 0 || new_id[s.parent as usize] != NONE;
            let rare = i != 0 && s.count.saturating_add(s.missed) <= t;
            if parent_kept && (!rare || spared[i]) {
                new_id[i] = kept.len() as u32;
                let mut s = *s;
                s.parent = if i == 0 {
                    NONE
                } else {
                    new_id[s.parent as usize]
                };
                s.child = NONE;
                s.sibling = NONE;
                kept.push(s);
            }
        }
        // Relink, last first, so that each list keeps its order.
        for i in (1..kept.len()).rev() {
            let parent = kept[i].parent as usize;
            kept[i].sibling = kept[parent].child;
            kept[parent].child = i as u32;
        }
        self.slots = kept;
        new_id[keep as usize]
    }
}

/// A node of an [`OpeningTree`]: a start ([`OpeningTree::starts`]) or a
/// move below one.
#[derive(Clone, Copy, Debug)]
pub struct OpeningNode<'a> {
    tree: &'a OpeningTree,
    id: u32,
}

impl<'a> OpeningNode<'a> {
    fn slot(&self) -> &'a Slot {
        &self.tree.slots[self.id as usize]
    }

    /// Whether it is a start (the root of one tree).
    pub fn is_start(&self) -> bool {
        self.slot().parent == 0
    }

    /// The start of the tree it is in.
    pub fn start(&self) -> &'a Start {
        let mut at = *self;
        while !at.is_start() {
            at = at.tree.node(at.slot().parent);
        }
        &self.tree.starts[usize::from(at.slot().key)]
    }

    /// The move that leads to it from its parent; `None` for a start.
    pub fn played(&self) -> Option<SeqMove> {
        (!self.is_start()).then(|| move_of(self.slot().key))
    }

    /// The move as SGF: `B[pd]`, `W[]` for a pass; empty for a start.
    pub fn move_text(&self) -> String {
        match self.played() {
            None => String::new(),
            Some((c, p)) => {
                let c = match c {
                    Color::Black => 'B',
                    Color::White => 'W',
                };
                let p = p.map_or(String::new(), |p| p.to_string());
                format!("{c}[{p}]")
            }
        }
    }

    /// The games counted here: those whose line passes through it (since
    /// it was made, when the budget pruned it before).
    pub fn games(&self) -> u64 {
        u64::from(self.slot().count)
    }

    /// The most games that may have passed through it: [`OpeningNode::games`]
    /// plus what it may have missed to a pruning (equal when exact).
    pub fn games_max(&self) -> u64 {
        self.games() + u64::from(self.slot().missed)
    }

    /// Whether its counts are exact (no pruning before it was made).
    pub fn is_exact(&self) -> bool {
        self.slot().missed == 0
    }

    /// The games counted that Black won.
    pub fn black_wins(&self) -> u64 {
        u64::from(self.slot().black)
    }

    /// The games counted that White won.
    pub fn white_wins(&self) -> u64 {
        u64::from(self.slot().white)
    }

    /// The games counted with another result (a draw, none, unknown).
    pub fn other_results(&self) -> u64 {
        self.games() - self.black_wins() - self.white_wins()
    }

    /// The earliest and latest dates of the games counted that have one.
    pub fn dates(&self) -> Option<(PartialDate, PartialDate)> {
        let s = self.slot();
        if s.first == NONE {
            return None;
        }
        Some((unpack_date(s.first)?, unpack_date(s.last)?))
    }

    /// Its children, the most games first (then by move, black first, in
    /// SGF order of the points).
    pub fn children(&self) -> Vec<OpeningNode<'a>> {
        let mut out = Vec::new();
        let mut c = self.slot().child;
        while c != NONE {
            out.push(self.tree.node(c));
            c = self.tree.slots[c as usize].sibling;
        }
        out.sort_by(|a, b| {
            b.games()
                .cmp(&a.games())
                .then(a.slot().key.cmp(&b.slot().key))
        });
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::BoardSize;

    fn line(moves: &[(Color, Option<Point>)], outcome: Outcome) -> OpeningLine {
        OpeningLine {
            start: Start {
                size: BoardSize::square(19),
                handicap: Vec::new(),
            },
            moves: moves.to_vec(),
            outcome,
            dates: None,
        }
    }

    fn p(x: u8, y: u8) -> Option<Point> {
        Some(Point { x, y })
    }

    #[test]
    fn keys_round_trip() {
        for m in [
            (Color::Black, None),
            (Color::White, None),
            (Color::Black, p(0, 0)),
            (Color::White, p(51, 51)),
            (Color::White, p(3, 40)),
        ] {
            assert_eq!(move_of(key_of(m)), m);
        }
        let d = PartialDate::new(1996, Some(5), None).unwrap();
        assert_eq!(unpack_date(pack_date(d)), Some(d));
    }

    #[test]
    fn pruning_keeps_frequent_lines_and_bounds_the_rest() {
        let mut tree = OpeningTree::new(OpeningOptions::new().depth(3).max_nodes(64));
        let common = [(Color::Black, p(3, 3)), (Color::White, p(15, 15))];
        for i in 0..2000u32 {
            if i % 2 == 0 {
                tree.add(&line(&common, Outcome::BlackWin));
            } else {
                let x = 4 + (i % 15) as u8;
                let y = (i / 19 % 19) as u8;
                let rare = [
                    (Color::Black, p(x, y)),
                    (Color::White, p(y, x)),
                    (Color::Black, None),
                ];
                tree.add(&line(&rare, Outcome::Other));
            }
            assert!(tree.node_count() <= 65, "{}", tree.node_count());
        }
        assert!(tree.prunings() > 0);
        let start = tree.starts().next().unwrap();
        assert_eq!(start.games(), 2000);
        let top = start.children()[0];
        assert_eq!(top.move_text(), "B[dd]");
        assert_eq!(top.games(), 1000, "made before any pruning");
        assert!(top.is_exact());
        assert_eq!(top.black_wins(), 1000);
        // Every node's range holds its true count: a rare line's true
        // count is at most what the games above say.
        for c in start.children().iter().skip(1) {
            assert!(c.games() <= c.games_max());
            assert!(c.games_max() >= 1);
            assert!(c.games_max() - c.games() <= u64::from(tree.undercount_bound()));
        }
    }
}
