//! The walk: every node of a game once, depth first, with one replay
//! cursor entering each child and going back to its parent, and what each
//! line of play knows so far kept on a stack beside it (the last move's
//! colour, `PL`, the game-info node, `HA`). The position checks are made
//! here: the setup against the board before the node, the move as the
//! replay judged it, colours and handicap.

use super::nodes::{self, GameFacts, NodeFacts};
use super::setup::{self, Scratch};
use super::{Check, Findings};
use crate::game::board::{Board, Illegal, RuleSet};
use crate::game::replay::{DetachedCursor, ReplayError, ReplayOptions};
use crate::tree::read::{ReadGame, ReadNode, ReadProperty};
use crate::value::{Color, Move};

/// What a line of play knows after one of its nodes.
#[derive(Clone, Copy, Debug, Default)]
struct Line {
    /// The colour of the last move, if any.
    last_move: Option<Color>,
    /// This node's `PL`.
    pl: Option<Color>,
    /// The last `PL` of the line.
    pl_latest: Option<Color>,
    /// The node holding the line's game information: its place in
    /// [`Marks::info`] plus one (0: none).
    info: usize,
    /// The line's `HA`: its place in [`Marks::ha`] plus one (0: none).
    ha: usize,
}

/// The game-info nodes and `HA` values the lines met, which lines name
/// by place (so that a line, copied at every node, stays small). A line
/// names the last of each that its nodes added: when the walk goes back
/// to a line, what later nodes added is dropped.
#[derive(Clone, Debug, Default)]
struct Marks {
    /// (key, offset) of a game-info node.
    info: Vec<(usize, Option<usize>)>,
    /// (value, offset, node key) of an `HA`.
    ha: Vec<(i64, Option<usize>, usize)>,
}

impl Marks {
    fn info(&self, line: &Line) -> Option<(usize, Option<usize>)> {
        line.info.checked_sub(1).map(|i| self.info[i])
    }

    fn ha(&self, line: &Line) -> Option<(i64, Option<usize>, usize)> {
        line.ha.checked_sub(1).map(|i| self.ha[i])
    }

    /// Back to `line`: what it does not name was added after it.
    fn back_to(&mut self, line: &Line) {
        self.info.truncate(line.info);
        self.ha.truncate(line.ha);
    }
}

/// What the walk keeps from one game to the next: the replay (its
/// board, journal and path) and the stack of lines.
#[derive(Clone, Debug, Default)]
pub(super) struct Buffers {
    replay: Option<DetachedCursor>,
    lines: Vec<Line>,
    marks: Marks,
}

/// Checks `game`, adding to `findings`.
pub(super) fn walk<'g, G: ReadGame<'g>>(
    game: G,
    options: ReplayOptions,
    buffers: &mut Buffers,
    scratch: &mut Scratch,
    findings: &mut Findings,
) {
    let facts = GameFacts::of(game);
    let root = game.root();
    // A lenient replay (the root is entered whatever it holds), keeping
    // every illegal move of the line: the line is bounded by the game.
    let replay = (facts.gm == 1).then(|| {
        buffers.replay.get_or_insert_with(|| {
            DetachedCursor::new(options, Board::new(game.board_size(), RuleSet::default()))
        })
    });
    // The replay keeps what undoes each node only when a line forks: a
    // variation branches off the main line somewhere.
    let undo = root.main_line().any(|n| n.next_sibling().is_some());
    buffers.marks.info.clear();
    buffers.marks.ha.clear();
    let mut state = State {
        facts,
        scratch,
        findings,
        handicap_done: false,
        options,
        undo,
        marks: &mut buffers.marks,
    };
    let lines = &mut buffers.lines;
    lines.clear();
    let mut cursor = replay;
    let Ok(first) = state.visit(root, 0, &Line::default(), &mut cursor) else {
        return;
    };
    lines.push(first);
    let mut node = root;
    loop {
        let next = match node.first_child() {
            Some(child) => child,
            None => {
                // Up to the first node of the line with a next sibling,
                // undoing the nodes left only when there is one: a game of
                // one line ends here without undoing its moves.
                let mut up = node;
                let mut steps = 1;
                let sibling = loop {
                    if up.is_root() {
                        return;
                    }
                    if let Some(s) = up.next_sibling() {
                        break s;
                    }
                    up = match up.parent() {
                        Some(p) => p,
                        None => return,
                    };
                    steps += 1;
                };
                for _ in 0..steps {
                    if let Some(c) = cursor.as_mut() {
                        c.back();
                    }
                    lines.pop();
                }
                state.marks.back_to(lines.last().expect("the root's line"));
                sibling
            }
        };
        let above = *lines.last().expect("the root's line");
        let Ok(line) = state.visit(next, next.key(), &above, &mut cursor) else {
            return;
        };
        lines.push(line);
        node = next;
    }
}

/// The walk's state besides the line.
struct State<'s> {
    facts: GameFacts,
    scratch: &'s mut Scratch,
    findings: &'s mut Findings,
    /// Whether the handicap was judged (once per game).
    handicap_done: bool,
    options: ReplayOptions,
    /// Whether the game has variations (the replay goes back).
    undo: bool,
    marks: &'s mut Marks,
}

impl State<'_> {
    /// Checks `node` (of key `key`) under a line that knows `above`, and
    /// applies it to the replay (`None`: a game that is not Go); the root
    /// starts the replay over. `Err` when the replay stopped at a limit
    /// (reported).
    fn visit<'g, N: ReadNode<'g>>(
        &mut self,
        node: N,
        key: usize,
        above: &Line,
        replay: &mut Option<&mut DetachedCursor>,
    ) -> Result<Line, ()> {
        let game = node.game();
        // Most nodes hold a move and nothing else, which no node check
        // concerns (`tt` aside, a point only on larger boards).
        let lone = if self.facts.tt_is_point {
            None
        } else {
            node.lone_move()
        };
        let found = match lone {
            Some((color, p)) => NodeFacts::lone(color, p),
            None => {
                let info = self.marks.info(above);
                nodes::check(node, key, &self.facts, info, self.findings)
            }
        };
        let mut line = Line {
            pl: found.moves.pl,
            pl_latest: found.moves.pl.or(above.pl_latest),
            info: if found.info && above.info == 0 {
                self.marks.info.push((key, node.offset()));
                self.marks.info.len()
            } else {
                above.info
            },
            ha: match found.ha {
                Some((n, at)) => {
                    self.marks.ha.push((n, at, key));
                    self.marks.ha.len()
                }
                None => above.ha,
            },
            last_move: above.last_move,
        };
        let Some(cursor) = replay.as_deref_mut() else {
            return Ok(line);
        };
        let entering = !node.is_root();
        let played = found.moves.played.ok().flatten();
        if found.setup {
            let before = entering.then(|| cursor.board());
            setup::check(
                node,
                key,
                &found.moves.setup,
                before,
                self.scratch,
                self.findings,
            );
        }
        let occupant = match played {
            Some((_, Move::Play(p))) if entering => cursor.board().get(p),
            _ => None,
        };
        if entering {
            let illegal = cursor.illegal_count();
            if let Err(ReplayError::Limit(limit)) = cursor.enter_read(node, key, &found.moves) {
                self.findings
                    .push(game, Check::ReplayLimit, key, node.offset(), || {
                        limit.to_string()
                    });
                return Err(());
            }
            if cursor.illegal_count() > illegal {
                self.illegal(node, key, cursor, occupant);
            }
        } else {
            // The root, entered whatever the limits; lenient, so that only
            // a limit could fail it, and then no position is checked.
            if cursor
                .restart(game, self.options, key, &found.moves, self.undo)
                .is_err()
            {
                *replay = None;
                return Ok(line);
            }
            if cursor.illegal_count() > 0 {
                self.illegal(node, key, cursor, occupant);
            }
        }
        let Some((color, mv)) = played else {
            return Ok(line);
        };
        match above.last_move {
            Some(last) if last == color => {
                let announced = found.moves.pl == Some(color) || above.pl == Some(color);
                let check = if announced {
                    Check::SameColourTwicePl
                } else {
                    Check::SameColourTwice
                };
                let at = move_offset(node, color);
                let moves = cursor.moves();
                self.findings.push(game, check, key, at, || {
                    format!(
                        "{} is the second {} move in a row (move {moves})",
                        move_text(color, mv),
                        color_name(color)
                    )
                });
            }
            Some(_) => {}
            None => self.first_move(node, key, &line, color, mv, cursor.board()),
        }
        line.last_move = Some(color);
        Ok(line)
    }

    /// Reports the illegal move the replay found in `node`.
    fn illegal<'g, N: ReadNode<'g>>(
        &mut self,
        node: N,
        key: usize,
        cursor: &DetachedCursor,
        occupant: Option<Color>,
    ) {
        let Some(e) = cursor.illegal().last().filter(|e| e.key == key) else {
            return;
        };
        let check = match e.reason {
            Illegal::Occupied => Check::MoveOnStone,
            Illegal::Suicide => Check::Suicide,
            Illegal::Ko => Check::KoRetaken,
            Illegal::Superko => Check::Superko,
            // A value that is no point: a value error of the audit.
            _ => return,
        };
        let at = move_offset(node, e.color);
        let shown = e.point.map_or_else(
            || color_ident(e.color).to_owned(),
            |p| format!("{}[{p}]", color_ident(e.color)),
        );
        let n = e.move_number;
        let rules = || {
            node.game()
                .root()
                .simple_text("RU")
                .map_or("no RU: Japanese".to_owned(), |ru| {
                    format!("RU[{}]", ru.trim())
                })
        };
        self.findings.push(node.game(), check, key, at, || match check {
            Check::MoveOnStone => {
                let on = occupant.map_or(String::new(), |c| format!("{} ", color_name(c)));
                format!("{shown} is played onto a {on}stone (move {n})")
            }
            Check::Suicide => format!(
                "{shown} is a suicide, which the game's rules forbid ({}) (move {n})",
                rules()
            ),
            Check::KoRetaken => format!("{shown} retakes a ko at once (move {n})"),
            _ => format!(
                "{shown} repeats an earlier position, which the game's superko rule forbids ({}) (move {n})",
                rules()
            ),
        });
    }

    /// The first move of a line: its colour against `PL` or the handicap,
    /// and (once per game) `HA` against the black stones placed.
    fn first_move<'g, N: ReadNode<'g>>(
        &mut self,
        node: N,
        key: usize,
        line: &Line,
        color: Color,
        mv: Move,
        after: &Board,
    ) {
        let game = node.game();
        let line_ha = self.marks.ha(line);
        let ha = line_ha.map_or(0, |(n, _, _)| n);
        // The black stones before the move (its captures aside), counted
        // only for a handicap game: the count reads the whole board.
        let black = if ha >= 2 {
            let black_after = after.stones(Color::Black).count();
            black_after.saturating_sub(usize::from(
                color == Color::Black && matches!(mv, Move::Play(_)),
            ))
        } else {
            0
        };
        let shown = || move_text(color, mv);
        match line.pl_latest {
            Some(pl) if pl != color => {
                let at = move_offset(node, color);
                self.findings
                    .push(game, Check::FirstMoveColour, key, at, || {
                        format!(
                            "the first move {} is {}'s, and PL says {} plays",
                            shown(),
                            player(color),
                            player(pl)
                        )
                    });
            }
            Some(_) => {}
            None if ha >= 2 && black >= 2 && color == Color::Black => {
                let at = move_offset(node, color);
                self.findings
                    .push(game, Check::FirstMoveColour, key, at, || {
                        format!(
                        "the first move {} is Black's, after {black} handicap stones (HA[{ha}])",
                        shown()
                    )
                    });
            }
            None => {}
        }
        if !self.handicap_done {
            self.handicap_done = true;
            if let Some((n, ha_at, ha_key)) = line_ha
                && n >= 2
                && usize::try_from(n).ok() != Some(black)
            {
                self.findings
                    .push(game, Check::HandicapMismatch, ha_key, ha_at, || {
                        format!(
                            "HA[{n}], and {black} black stones are placed before the first move"
                        )
                    });
            }
        }
    }
}

/// The offset of the identifier of `node`'s move of `color`.
fn move_offset<'g, N: ReadNode<'g>>(node: N, color: Color) -> Option<usize> {
    node.property(color_ident(color))
        .and_then(|p| p.ident_offset())
}

fn color_ident(color: Color) -> &'static str {
    match color {
        Color::Black => "B",
        Color::White => "W",
    }
}

fn player(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn move_text(color: Color, mv: Move) -> String {
    match mv {
        Move::Play(p) => format!("{}[{p}]", color_ident(color)),
        Move::Pass => format!("{}[] (a pass)", color_ident(color)),
    }
}
