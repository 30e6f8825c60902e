//! What one node's properties show by themselves, read once in order:
//! setup and a move together, annotations without a move or against each
//! other, root and game-info properties out of place, properties of
//! another format version or game type, `tt` on a large board.

use super::{show, Check, Findings};
use crate::game::replay::{played_or_colour, NodeMoves};
use crate::tree::read::{ReadGame, ReadNode, ReadProperty};
use crate::value::{catalogue, Color, Move, Origin, Point, PropKind};

/// The properties FF\[4\] introduced (its list of changes from FF\[3\]).
const FF4_NEW: [&str; 9] = ["AP", "AR", "CA", "DD", "LN", "OT", "PM", "SQ", "ST"];

/// The game types with a table of their own in the catalogue.
const GAMES: [(u32, &str); 6] = [
    (1, "Go"),
    (6, "Backgammon"),
    (9, "Lines of Action"),
    (11, "Hex"),
    (18, "Amazons"),
    (19, "Octi"),
];

/// The position annotations that exclude each other, then the move
/// annotations that do (in the order of the node pass's match).
const POSITION_MARKS: [&str; 4] = ["GB", "GW", "DM", "UC"];
const MOVE_MARKS: [&str; 4] = ["TE", "BM", "DO", "IT"];

/// What the whole game says that node checks need.
#[derive(Clone, Copy, Debug)]
pub(super) struct GameFacts {
    /// `GM` (1 when absent or malformed).
    pub(super) gm: u32,
    /// `FF` as written, if any.
    pub(super) ff: Option<i64>,
    /// Whether `tt` is a point (a board larger than 19×19).
    pub(super) tt_is_point: bool,
}

impl GameFacts {
    pub(super) fn of<'g, G: ReadGame<'g>>(game: G) -> GameFacts {
        GameFacts {
            gm: game.game_type(),
            ff: game.root().get::<i64>("FF").ok().flatten(),
            tt_is_point: !game.board_size().tt_is_pass(),
        }
    }
}

/// What the walk needs to know of a node after its checks: what the
/// replay reads of it too, read in the same pass over its properties.
#[derive(Clone, Copy, Debug)]
pub(super) struct NodeFacts<P> {
    /// Whether it has `AB`, `AW` or `AE`.
    pub(super) setup: bool,
    /// Whether it has a game-info property.
    pub(super) info: bool,
    /// Its `HA`, if readable, with the identifier's offset.
    pub(super) ha: Option<(i64, Option<usize>)>,
    /// Its setup lists, `PL` and move, for the replay.
    pub(super) moves: NodeMoves<P>,
}

impl<P> NodeFacts<P> {
    /// The facts of a node whose only property is the move `color` at
    /// `point` ([`ReadNode::lone_move`]).
    pub(super) fn lone(color: Color, point: Point) -> NodeFacts<P> {
        NodeFacts {
            setup: false,
            info: false,
            ha: None,
            moves: NodeMoves {
                setup: [None, None, None],
                pl: None,
                played: Ok(Some((color, Move::Play(point)))),
            },
        }
    }
}

/// Checks the properties of `node` (of key `key`); `info_above` is the
/// node holding the game information of its line above it, if any (its
/// key and offset).
pub(super) fn check<'g, N: ReadNode<'g>>(
    node: N,
    key: usize,
    facts: &GameFacts,
    info_above: Option<(usize, Option<usize>)>,
    findings: &mut Findings,
) -> NodeFacts<N::Property> {
    let game = node.game();
    let root = node.is_root();
    let mut out = NodeFacts {
        setup: false,
        info: false,
        ha: None,
        moves: NodeMoves {
            setup: [None; 3],
            pl: None,
            played: Ok(None),
        },
    };
    let mut has_move = false;
    // The annotations found, each with its offset, by group.
    let mut position_marks: [Option<Option<usize>>; 4] = [None; 4];
    let mut move_marks: [Option<Option<usize>>; 4] = [None; 4];
    let mut ko = None;
    for prop in node.properties() {
        // The properties of most nodes first, by their bytes: a move, which
        // only `tt_on_large_board` concerns, and those no check concerns
        // (in every game, of every format version).
        match prop.ident_bytes() {
            b"B" | b"W" => {
                has_move = true;
                if facts.tt_is_point && prop.values().next().map(<[u8]>::trim_ascii) == Some(b"tt")
                {
                    let ident = prop.ident();
                    findings.push(
                        game,
                        Check::TtOnLargeBoard,
                        key,
                        prop.ident_offset(),
                        || format!("{ident}[tt] is the point tt on this board, not a pass"),
                    );
                }
                continue;
            }
            b"C" | b"BL" | b"WL" | b"OB" | b"OW" | b"N" => continue,
            _ => {}
        }
        let ident = prop.ident();
        let at = prop.ident_offset();
        match ident {
            "AE" => out.moves.setup[0] = Some(prop),
            "AB" => out.moves.setup[1] = Some(prop),
            "AW" => out.moves.setup[2] = Some(prop),
            "PL" => out.moves.pl = node.get::<Color>("PL").ok().flatten(),
            "HA" => out.ha = node.get::<i64>("HA").ok().flatten().map(|n| (n, at)),
            "KO" => ko = Some(at),
            "GB" => position_marks[0] = Some(at),
            "GW" => position_marks[1] = Some(at),
            "DM" => position_marks[2] = Some(at),
            "UC" => position_marks[3] = Some(at),
            "TE" => move_marks[0] = Some(at),
            "BM" => move_marks[1] = Some(at),
            "DO" => move_marks[2] = Some(at),
            "IT" => move_marks[3] = Some(at),
            _ => {}
        }
        match catalogue::lookup(facts.gm, ident) {
            Some(info) => {
                if info.kind == PropKind::Root && !root {
                    findings.push(game, Check::RootPropertyOutsideRoot, key, at, || {
                        let value = prop.values().next().map(show).unwrap_or_default();
                        format!("{ident}[{value}] outside the root, where no reader looks for it")
                    });
                }
                if info.kind == PropKind::GameInfo {
                    out.info = true;
                    if let Some((above, above_at)) = info_above {
                        findings.push(game, Check::GameInfoRepeated, key, at, || {
                            let first = above_at
                                .and_then(|o| game.position(o))
                                .map_or(format!("node {above}"), |p| {
                                    format!("{}:{}", p.line, p.column)
                                });
                            format!(
                                "{ident} in a second game-info node of this line (the first at {first})"
                            )
                        });
                    }
                }
                // Fox writes its byo-yomi as `TC[3]TT[30]` in the root: a
                // property of its own that shares FF[3]'s `TC` name.
                let fox_time = ident == "TC" && root && node.has("TT");
                if info.origin == Origin::Old && facts.ff.is_some_and(|ff| ff >= 4) && !fox_time {
                    findings.push(game, Check::OldPropertyInFf4, key, at, || {
                        format!(
                            "{ident} ({}) is an FF[1]-FF[3] property, in an FF[4] game",
                            info.name
                        )
                    });
                }
                if facts.ff.is_some_and(|ff| (1..=3).contains(&ff)) && FF4_NEW.contains(&ident) {
                    findings.push(game, Check::Ff4PropertyInOldFf, key, at, || {
                        format!(
                            "{ident} is new in FF[4], in a game that declares FF[{}]",
                            facts.ff.unwrap_or_default()
                        )
                    });
                }
            }
            None => {
                let other = GAMES.iter().find(|&&(gm, _)| {
                    gm != facts.gm && catalogue::in_game_table(gm, ident.as_bytes())
                });
                if let Some(&(gm, name)) = other {
                    findings.push(game, Check::PropertyOfOtherGame, key, at, || {
                        format!(
                            "{ident} is a property of GM[{gm}] ({name}), in a game of GM[{}]",
                            facts.gm
                        )
                    });
                }
            }
        }
    }
    out.setup = out.moves.setup.iter().any(Option::is_some);
    if has_move {
        out.moves.played = played_or_colour(node);
    }
    if out.setup && has_move {
        let at = ["AB", "AW", "AE"]
            .iter()
            .filter_map(|i| node.property(i))
            .filter_map(|p| p.ident_offset())
            .min();
        findings.push(game, Check::SetupAndMove, key, at.or(node.offset()), || {
            let setup: Vec<&str> = ["AB", "AW", "AE"]
                .into_iter()
                .filter(|i| node.has(i))
                .collect();
            let mv = if node.has("B") { "B" } else { "W" };
            format!("{} and the move {mv} in one node", setup.join(", "))
        });
    }
    if !has_move {
        for (i, mark) in MOVE_MARKS.iter().enumerate() {
            if let Some(at) = move_marks[i] {
                findings.push(game, Check::AnnotationWithoutMove, key, at, || {
                    format!("{mark} judges a move, and the node has none")
                });
            }
        }
        if let Some(at) = ko {
            findings.push(game, Check::KoWithoutMove, key, at, || {
                "KO forces the move of its node, and the node has none".to_owned()
            });
        }
    }
    for (marks, names) in [
        (&position_marks, &POSITION_MARKS),
        (&move_marks, &MOVE_MARKS),
    ] {
        if marks.iter().filter(|m| m.is_some()).count() >= 2 {
            let at = marks.iter().filter_map(|m| m.flatten()).max();
            findings.push(game, Check::ContradictoryAnnotations, key, at, || {
                let list: Vec<&str> = (0..4)
                    .filter(|&i| marks[i].is_some())
                    .map(|i| names[i])
                    .collect();
                format!("{} exclude each other, in one node", list.join(" and "))
            });
        }
    }
    out
}
