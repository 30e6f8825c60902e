//! The checks of the `replay` fuzz target: every game of any input is
//! walked depth first with one [`Cursor`](crate::game::Cursor) per rule set (`enter` into each
//! child, `back` out of it), and at every node, on the way in and on the
//! way back, the cursor's position equals a deliberately naive replay from
//! the root along the path: a plain grid, liberties by flood fill, superko
//! as a list of whole grids, no undo, nothing incremental.
//!
//! Compared: every point, prisoners, the ko point, the player to move, the
//! moves, the illegal moves (node, number, colour, point, reason) and
//! their count, and for every point and both colours whether a move there
//! is legal and why not (`Board::check_play`), which compares the
//! superko histories.
//!
//! Work is bounded: at most `MAX_NODES` nodes per game and rule set are
//! entered, legality is compared on at most `CHECKED_POINTS` points per
//! node, and inputs above `MAX_REPLAY_INPUT` bytes are left out.

use super::repro;
use crate::game::board::{Illegal, KoRule, RuleSet};
use crate::game::{IllegalMove, ReplayOptions, TreeCursor};
use crate::tree::{GameTree, Node};
use crate::value::{point_list_item, BoardSize, Color, Move, Point};

/// The largest input the target replays.
pub const MAX_REPLAY_INPUT: usize = 1 << 12;

/// Nodes entered per game and rule set.
const MAX_NODES: usize = 64;

/// Points whose legality is compared per node (spread over the board).
const CHECKED_POINTS: usize = 81;

/// The rule sets every game is replayed under (Ing's are New Zealand's).
const RULES: [RuleSet; 5] = [
    RuleSet::JAPANESE,
    RuleSet::CHINESE,
    RuleSet::AGA,
    RuleSet::NEW_ZEALAND,
    RuleSet::TROMP_TAYLOR,
];

/// Parses `input` leniently and checks the replay of every game.
pub fn check_replay(input: &[u8]) {
    if input.len() > MAX_REPLAY_INPUT {
        return;
    }
    let Ok(doc) = crate::parse(input) else {
        return;
    };
    for game in doc.games() {
        for rules in RULES {
            walk(game, rules, input);
        }
    }
}

/// Depth first over at most `MAX_NODES` nodes, checking each node on the
/// way in and again on the way back.
fn walk(game: GameTree<'_, '_>, rules: RuleSet, input: &[u8]) {
    let options = ReplayOptions::default().rules(rules);
    let mut cursor = game.cursor_with(options).expect("lenient");
    let mut path = vec![game.root()];
    compare(&cursor, &path, rules, input);
    let mut next_child = vec![0usize];
    let mut entered = 1;
    while let Some(k) = next_child.last_mut() {
        let node = *path.last().expect("as deep as next_child");
        let child = node.children().nth(*k);
        *k += 1;
        match child {
            Some(child) if entered < MAX_NODES => {
                cursor.enter(child).expect("lenient and under the limits");
                entered += 1;
                path.push(child);
                next_child.push(0);
                compare(&cursor, &path, rules, input);
            }
            _ => {
                next_child.pop();
                if path.len() > 1 {
                    path.pop();
                    assert!(cursor.back(), "back from depth {}", path.len() + 1);
                    compare(&cursor, &path, rules, input);
                } else {
                    assert!(!cursor.back(), "back at the root");
                }
            }
        }
    }
}

/// The cursor against the naive replay of `path`.
fn compare(cursor: &TreeCursor<'_, '_>, path: &[Node<'_, '_>], rules: RuleSet, input: &[u8]) {
    let node = *path.last().expect("the root at least");
    assert_eq!(cursor.node(), node, "{}", repro(input));
    let mut naive = Naive::new(node.game().board_size(), rules);
    for &n in path {
        naive.apply(n);
    }
    let board = cursor.board();
    let at = || format!("{rules:?} at depth {}, {}", path.len(), repro(input));
    for y in 0..naive.size.rows {
        for x in 0..naive.size.cols {
            let p = Point { x, y };
            assert_eq!(board.get(p), naive.get(p), "{p} {}", at());
        }
    }
    assert_eq!(board.captures(Color::Black), naive.prisoners[0], "{}", at());
    assert_eq!(board.captures(Color::White), naive.prisoners[1], "{}", at());
    assert_eq!(board.ko(), naive.ko.map(|(p, _)| p), "ko {}", at());
    assert_eq!(cursor.to_play(), naive.to_play, "to play {}", at());
    assert_eq!(cursor.moves(), naive.moves, "moves {}", at());
    assert_eq!(cursor.illegal(), &naive.illegal[..], "{}", at());
    assert_eq!(cursor.illegal_count(), naive.illegal.len(), "{}", at());
    let cols = naive.size.cols as usize;
    let area = cols * naive.size.rows as usize;
    for i in (0..area).step_by(area.div_ceil(CHECKED_POINTS).max(1)) {
        let p = Point {
            x: (i % cols) as u8,
            y: (i / cols) as u8,
        };
        for color in [Color::Black, Color::White] {
            assert_eq!(
                board.check_play(color, p),
                naive.check(color, p).map(|_| ()),
                "{color:?} {p} {}",
                at()
            );
        }
    }
}

/// A grid of `Option<Color>`, replayed node by node from the root.
struct Naive {
    size: BoardSize,
    rules: RuleSet,
    grid: Vec<Option<Color>>,
    prisoners: [u32; 2],
    /// The point the basic ko forbids, and to whom.
    ko: Option<(Point, Color)>,
    /// Every position remembered for superko, with the player to move
    /// (`None` under positional superko).
    seen: Vec<(Vec<Option<Color>>, Option<Color>)>,
    to_play: Color,
    moves: usize,
    illegal: Vec<IllegalMove>,
}

fn index(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl Naive {
    fn new(size: BoardSize, rules: RuleSet) -> Naive {
        let size = BoardSize {
            cols: size.cols.min(52),
            rows: size.rows.min(52),
        };
        let mut naive = Naive {
            size,
            rules,
            grid: vec![None; size.cols as usize * size.rows as usize],
            prisoners: [0; 2],
            ko: None,
            seen: Vec::new(),
            to_play: Color::Black,
            moves: 0,
            illegal: Vec::new(),
        };
        naive.remember();
        naive
    }

    fn at(&self, p: Point) -> Option<usize> {
        self.size
            .contains(p)
            .then(|| p.y as usize * self.size.cols as usize + p.x as usize)
    }

    fn get(&self, p: Point) -> Option<Color> {
        self.grid[self.at(p)?]
    }

    fn neighbours(size: BoardSize, p: Point) -> Vec<Point> {
        let mut out = Vec::new();
        if p.x > 0 {
            out.push(Point { x: p.x - 1, y: p.y });
        }
        if p.x + 1 < size.cols {
            out.push(Point { x: p.x + 1, y: p.y });
        }
        if p.y > 0 {
            out.push(Point { x: p.x, y: p.y - 1 });
        }
        if p.y + 1 < size.rows {
            out.push(Point { x: p.x, y: p.y + 1 });
        }
        out
    }

    /// The chain at `p` in `grid` and whether it has a liberty.
    fn chain(size: BoardSize, grid: &[Option<Color>], p: Point) -> (Vec<Point>, bool) {
        let cols = size.cols as usize;
        let color = grid[p.y as usize * cols + p.x as usize];
        let mut seen = vec![false; grid.len()];
        let mut stack = vec![p];
        let mut out = Vec::new();
        let mut free = false;
        seen[p.y as usize * cols + p.x as usize] = true;
        while let Some(q) = stack.pop() {
            out.push(q);
            for n in Naive::neighbours(size, q) {
                let i = n.y as usize * cols + n.x as usize;
                if grid[i].is_none() {
                    free = true;
                } else if grid[i] == color && !seen[i] {
                    seen[i] = true;
                    stack.push(n);
                }
            }
        }
        (out, free)
    }

    /// The grid after `color` plays at empty `p` with its captures (and
    /// its own chain taken off when suicide is allowed), the stones taken
    /// of each side, and whether the move's chain is left without
    /// liberties.
    fn after(&self, color: Color, p: Point) -> (Vec<Option<Color>>, u32, u32, bool) {
        let mut grid = self.grid.clone();
        let cols = self.size.cols as usize;
        grid[p.y as usize * cols + p.x as usize] = Some(color);
        let mut taken = 0;
        for n in Naive::neighbours(self.size, p) {
            if grid[n.y as usize * cols + n.x as usize] != Some(color.opponent()) {
                continue;
            }
            let (stones, free) = Naive::chain(self.size, &grid, n);
            if !free {
                for s in stones {
                    grid[s.y as usize * cols + s.x as usize] = None;
                    taken += 1;
                }
            }
        }
        let (own, free) = Naive::chain(self.size, &grid, p);
        let mut lost = 0;
        if !free && self.rules.suicide {
            for s in &own {
                grid[s.y as usize * cols + s.x as usize] = None;
                lost += 1;
            }
        }
        (grid, taken, lost, !free)
    }

    /// Whether `color` may play at `p`, in the order of the real board's
    /// checks; the position after it when it may.
    fn check(&self, color: Color, p: Point) -> Result<(Vec<Option<Color>>, u32, u32), Illegal> {
        let i = self.at(p).ok_or(Illegal::OffBoard)?;
        if self.grid[i].is_some() {
            return Err(Illegal::Occupied);
        }
        if self.rules.ko != KoRule::None && self.ko == Some((p, color)) {
            return Err(Illegal::Ko);
        }
        let (grid, taken, lost, dead) = self.after(color, p);
        let key = match self.rules.ko {
            KoRule::Situational => Some(color.opponent()),
            _ => None,
        };
        if matches!(self.rules.ko, KoRule::Positional | KoRule::Situational)
            && self.seen.iter().any(|(g, k)| *g == grid && *k == key)
        {
            return Err(Illegal::Superko);
        }
        if dead && !self.rules.suicide {
            return Err(Illegal::Suicide);
        }
        Ok((grid, taken, lost))
    }

    /// The position now, for superko (with each player to move under
    /// situational rules).
    fn remember(&mut self) {
        match self.rules.ko {
            KoRule::Positional => self.seen.push((self.grid.clone(), None)),
            KoRule::Situational => {
                for c in [Color::Black, Color::White] {
                    self.seen.push((self.grid.clone(), Some(c)));
                }
            }
            _ => {}
        }
    }

    /// Plays a move known to be on an empty point, with captures, setting
    /// the ko; no legality check.
    fn play_anyway(&mut self, color: Color, p: Point) -> (Vec<Option<Color>>, u32, u32) {
        let (grid, taken, lost, _) = self.after(color, p);
        (grid, taken, lost)
    }

    fn land(
        &mut self,
        color: Color,
        p: Point,
        (grid, taken, lost): (Vec<Option<Color>>, u32, u32),
    ) {
        self.grid = grid;
        self.prisoners[index(color)] += taken;
        self.prisoners[index(color.opponent())] += lost;
        self.ko = None;
        if taken == 1 && lost == 0 {
            let (own, _) = Naive::chain(self.size, &self.grid, p);
            let libs: Vec<Point> = Naive::neighbours(self.size, p)
                .into_iter()
                .filter(|&n| self.get(n).is_none())
                .collect();
            if own.len() == 1 && libs.len() == 1 {
                self.ko = Some((libs[0], color.opponent()));
            }
        }
    }

    /// Applies one node as the replay does: setup, `PL`, the move.
    fn apply(&mut self, node: Node<'_, '_>) {
        let mut any = false;
        for (ident, stone) in [
            ("AE", None),
            ("AB", Some(Color::Black)),
            ("AW", Some(Color::White)),
        ] {
            for value in node.raw_values(ident) {
                let Some(Some((from, to))) = point_list_item(value.raw(), node.game().board_size())
                else {
                    continue;
                };
                for y in from.y..=to.y {
                    for x in from.x..=to.x {
                        if let Some(i) = self.at(Point { x, y }) {
                            self.grid[i] = stone;
                            any = true;
                        }
                    }
                }
            }
        }
        if any {
            self.ko = None;
            self.remember();
        }
        if let Ok(Some(color)) = node.get::<Color>("PL") {
            self.to_play = color;
        }
        let played = match node.played() {
            Ok(None) => return,
            Ok(Some(played)) => Ok(played),
            Err(_) => Err(if node.has("B") {
                Color::Black
            } else {
                Color::White
            }),
        };
        self.moves += 1;
        let illegal = |color, point, reason| IllegalMove {
            key: crate::ReadNode::key(node),
            position: Some(node.collection().position(node.offset())),
            move_number: self.moves,
            color,
            point,
            reason,
        };
        let (color, p) = match played {
            Err(color) => {
                self.illegal.push(illegal(color, None, Illegal::OffBoard));
                self.to_play = color.opponent();
                return;
            }
            Ok((color, Move::Pass)) => {
                self.ko = None;
                self.to_play = color.opponent();
                return;
            }
            Ok((color, Move::Play(p))) => (color, p),
        };
        match self.check(color, p) {
            Ok(after) => {
                self.land(color, p, after);
                let key = match self.rules.ko {
                    KoRule::Situational => Some(color.opponent()),
                    _ => None,
                };
                if matches!(self.rules.ko, KoRule::Positional | KoRule::Situational) {
                    self.seen.push((self.grid.clone(), key));
                }
            }
            Err(reason) => {
                self.illegal.push(illegal(color, Some(p), reason));
                match reason {
                    Illegal::Ko | Illegal::Superko => {
                        let after = self.play_anyway(color, p);
                        self.land(color, p, after);
                        self.remember();
                    }
                    _ => {
                        if let Some(i) = self.at(p) {
                            self.grid[i] = Some(color);
                            self.ko = None;
                            self.remember();
                        }
                    }
                }
            }
        }
        self.to_play = color.opponent();
    }
}

#[cfg(test)]
mod tests {
    use super::check_replay;

    #[test]
    fn hand_made_games_agree_with_the_naive_replay() {
        // Captures, a ko fought over, a suicide, occupied points, setup
        // over stones, rectangles, variations, passes, `PL`.
        check_replay(b"(;SZ[5];B[bb];W[ab];B[ca];W[ba];B[ac];W[aa];B[ab]C[x];W[tt];AE[bb]AB[ee];W[bb](;B[cc])(;B[dd];W[dd]))");
        check_replay(
            b"(;SZ[4]AB[aa:dd]AE[bb:cc];W[bb];B[cc](;W[aa])(;PL[W]AW[ab:ad];B[ba];W[ca]))",
        );
        check_replay(b"(;SZ[3];B[ab];W[bb];B[ba];W[ca];B[cb];W[aa];B[ac];W[ab];B[aa];W[ab];B[aa])");
        check_replay(
            b"(;SZ[2];B[aa];W[bb];B[ab];W[ba];B[aa];W[bb];B[];W[ab];B[ba](;W[aa])(;W[bb]))",
        );
        check_replay(b"(;SZ[52]AB[aa:ZZ];AW[bb:YY];AE[cc:XX];B[ZZ];W[zz];B[zz])");
    }
}
