//! The replay of an edited game is the replay of the parsed game of the
//! same text: a game is parsed, made editable, given a move and cut of a
//! variation, and every position of its tree (stones, hashes, player to
//! move, captures, ko, illegal moves) is compared with those of the game
//! parsed from the text the edits lead to.

use sgf_grove::edit::EditableGame;
use sgf_grove::game::board::Illegal;
use sgf_grove::game::replay::{self, Cursor};
use sgf_grove::game::ReplayOptions;
use sgf_grove::value::{Color, Move, Point};
use sgf_grove::{ReadGame, ReadNode};

/// What a position is, whatever the game's form (no keys, no input
/// positions: those differ between the forms).
#[derive(Debug, PartialEq)]
struct Snap {
    stones: Vec<(Color, Vec<Point>)>,
    hash: u64,
    board_hash: u64,
    to_play: Color,
    moves: usize,
    depth: usize,
    captures: (u32, u32),
    ko: Option<Point>,
    illegal: Vec<(usize, Color, Option<Point>, Illegal)>,
    illegal_count: usize,
}

fn snap<'g, G: ReadGame<'g>>(c: &Cursor<'g, G>) -> Snap {
    let b = c.board();
    Snap {
        stones: [Color::Black, Color::White]
            .into_iter()
            .map(|color| (color, b.stones(color).collect()))
            .collect(),
        hash: c.hash(),
        board_hash: b.hash(),
        to_play: c.to_play(),
        moves: c.moves(),
        depth: c.depth(),
        captures: (b.captures(Color::Black), b.captures(Color::White)),
        ko: b.ko(),
        illegal: c
            .illegal()
            .iter()
            .map(|e| (e.move_number, e.color, e.point, e.reason))
            .collect(),
        illegal_count: c.illegal_count(),
    }
}

/// Every position of `game`'s tree in pre-order, one cursor walking it
/// (into each child, back out of it).
fn walk<'g, G: ReadGame<'g>>(game: G, options: ReplayOptions) -> Vec<Snap> {
    let mut cursor = replay::cursor_with(game, options).expect("lenient");
    let mut out = vec![snap(&cursor)];
    let mut stack: Vec<(G::Node, usize)> = Vec::new();
    let push = |stack: &mut Vec<(G::Node, usize)>, node: G::Node, depth| {
        let children: Vec<G::Node> = node.children().collect();
        stack.extend(children.into_iter().rev().map(|c| (c, depth + 1)));
    };
    push(&mut stack, game.root(), 1);
    while let Some((node, depth)) = stack.pop() {
        while cursor.depth() >= depth {
            assert!(cursor.back());
        }
        cursor.enter(node).expect("lenient, under the limits");
        out.push(snap(&cursor));
        push(&mut stack, node, depth);
    }
    out
}

/// The position at every node through `position_at`, in pre-order.
fn each_position_at<'g, G: ReadGame<'g>>(game: G, options: ReplayOptions) -> Vec<Snap> {
    game.nodes()
        .map(|n| snap(&replay::position_at(game, n, options).expect("lenient")))
        .collect()
}

/// A small random number generator (xorshift), for games that are the
/// same at every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

fn letter(v: u8) -> char {
    (b'a' + v) as char
}

/// A node's text: a move (a pass as `[]`), now and then a `PL` or a setup
/// stone as well.
fn node_text(rng: &mut Rng, color: Color, size: u8) -> String {
    let c = if color == Color::Black { "B" } else { "W" };
    let mut s = format!(";{c}");
    if rng.below(40) == 0 {
        s.push_str("[]");
    } else {
        let (x, y) = (rng.below(size as u64) as u8, rng.below(size as u64) as u8);
        s.push_str(&format!("[{}{}]", letter(x), letter(y)));
    }
    match rng.below(30) {
        0 => s.push_str("PL[B]"),
        1 => {
            let (x, y) = (rng.below(size as u64) as u8, rng.below(size as u64) as u8);
            s.push_str(&format!("AE[{}{}]", letter(x), letter(y)));
        }
        _ => {}
    }
    s
}

/// A random game: its root, its main line's nodes, and a variation to
/// hang off node `at` of the main line.
struct Generated {
    root: String,
    line: Vec<String>,
    variation: Vec<String>,
    at: usize,
}

fn generate(seed: u64) -> Generated {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let size = [5u8, 7, 9, 13][rng.below(4) as usize];
    let rules = ["Japanese", "Chinese", "AGA", "NZ"][rng.below(4) as usize];
    let root = format!(
        ";GM[1]FF[4]SZ[{size}]RU[{rules}]AB[aa:bb]AW[{}{}]",
        letter(size - 1),
        letter(size - 1)
    );
    let len = 20 + rng.below(80) as usize;
    let mut color = Color::Black;
    let mut line = Vec::new();
    for _ in 0..len {
        line.push(node_text(&mut rng, color, size));
        color = color.opponent();
    }
    let variation = (0..3)
        .map(|i| {
            let c = if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            node_text(&mut rng, c, size)
        })
        .collect();
    let at = 1 + rng.below(len as u64 / 2) as usize;
    Generated {
        root,
        line,
        variation,
        at,
    }
}

/// The text of a game: the root, the main line's first `len` nodes, and
/// the variation hung off node `at` when asked.
fn text(g: &Generated, len: usize, with_variation: bool) -> String {
    let mut s = format!("({}", g.root);
    for node in &g.line[..g.at] {
        s.push_str(node);
    }
    if with_variation {
        s.push('(');
    }
    for node in &g.line[g.at..len] {
        s.push_str(node);
    }
    if with_variation {
        s.push_str(")(");
        s.push_str(&g.variation.concat());
        s.push(')');
    }
    s.push(')');
    s
}

/// The move and other properties of a generated node's text, set on an
/// edited node.
fn set_node(game: &mut EditableGame, id: sgf_grove::edit::EditId, node_text: &str) {
    let text = format!("({node_text})");
    let doc = sgf_grove::parse(text.as_bytes()).unwrap();
    let node = doc.games().next().unwrap().root();
    for p in node.properties() {
        let raws: Vec<&[u8]> = p.values().map(|v| v.raw()).collect();
        game.set_raw_values(id, p.ident(), &raws).unwrap();
    }
}

#[test]
fn edited_game_replays_as_the_parsed_game_of_its_text() {
    let mut illegal_seen = 0;
    let mut captures_seen = 0;
    for seed in 1..=40u64 {
        let g = generate(seed);
        let len = g.line.len();
        // Parsed with the variation and without the last move; edited
        // into the game of `expected`.
        let before = text(&g, len - 1, true);
        let doc = sgf_grove::parse(before.as_bytes()).unwrap();
        let mut edited = EditableGame::from_game(doc.games().next().unwrap());
        let root = edited.root();
        let branch = edited.nodes().nth(g.at).unwrap();
        let branch = edited.node(branch).unwrap();
        let variation = sgf_grove::edit::EditNode::children(&branch)[1];
        edited.delete(variation).unwrap();
        let last = edited.nodes().last().unwrap();
        let added = edited.push_child(last).unwrap();
        set_node(&mut edited, added, &g.line[len - 1]);
        assert_ne!(root, added);

        let expected_text = text(&g, len, false);
        let expected = sgf_grove::parse(expected_text.as_bytes()).unwrap();
        let parsed = expected.games().next().unwrap();
        assert_eq!(ReadGame::node_count(&edited), ReadGame::node_count(parsed));

        let options = ReplayOptions::default();
        let want = walk(parsed, options);
        let got = walk(&edited, options);
        assert_eq!(got, want, "seed {seed}: {expected_text}");
        assert_eq!(
            each_position_at(&edited, options),
            each_position_at(parsed, options),
            "seed {seed}"
        );
        // Strict mode stops both at the same node with the same move.
        let strict = ReplayOptions::default().strict(true);
        let (mut a, mut b) = (
            edited.cursor_with(strict).unwrap(),
            parsed.cursor_with(strict).unwrap(),
        );
        loop {
            let (x, y) = (a.next(), b.next());
            assert_eq!(x.is_some(), y.is_some(), "seed {seed}");
            assert_eq!(snap(&a), snap(&b), "seed {seed}");
            if x.is_none() {
                break;
            }
        }
        let end = want.last().unwrap();
        illegal_seen += end.illegal_count;
        captures_seen += end.captures.0 + end.captures.1;
        // The new node is reported by its key, and without a position.
        if let Some(e) = replay::position_at(&edited, edited.node(added).unwrap(), options)
            .unwrap()
            .illegal()
            .last()
        {
            assert!(e.position.is_none());
        }
    }
    // The generated games exercise what they are meant to.
    assert!(illegal_seen > 10, "{illegal_seen} illegal moves");
    assert!(captures_seen > 10, "{captures_seen} captures");
}

#[test]
fn edited_game_illegal_moves_name_their_nodes_by_key() {
    // Move 2 onto the setup stone: occupied.
    let doc = sgf_grove::parse(b"(;SZ[9]AB[cc];W[dd];B[ee])").unwrap();
    let parsed = doc.games().next().unwrap();
    let mut edited = EditableGame::from_game(parsed);
    let last = edited.nodes().last().unwrap();
    let added = edited.push_child(last).unwrap();
    edited
        .set(added, "W", Move::Play(Point { x: 2, y: 2 }))
        .unwrap();
    let mut cursor = edited.cursor();
    while cursor.next().is_some() {}
    let [e] = cursor.illegal() else {
        panic!("one illegal move: {:?}", cursor.illegal())
    };
    assert_eq!(e.key, added.index());
    assert_eq!(e.key, cursor.node().key());
    assert_eq!((e.move_number, e.reason), (3, Illegal::Occupied));
    assert_eq!(e.position, None);
    assert_eq!(e.to_string(), "move 3 W[cc]: the point is occupied");
    // The parsed game's illegal move has its place in the text.
    let doc = sgf_grove::parse(b"(;SZ[9]AB[cc];W[dd];B[ee];W[cc])").unwrap();
    let mut cursor = doc.games().next().unwrap().cursor();
    while cursor.next().is_some() {}
    let e = cursor.illegal()[0];
    assert_eq!(e.key, 3);
    assert_eq!(e.position.map(|p| (p.line, p.column)), Some((1, 26)));
    assert_eq!(e.to_string(), "move 3 W[cc] at 1:26: the point is occupied");
    // Going back from the new node leaves a cursor on its parent.
    let mut cursor = edited.cursor();
    while cursor.next().is_some() {}
    assert!(cursor.back());
    assert_eq!(cursor.node().key(), last.index());
    assert!(cursor.illegal().is_empty());
}

#[test]
fn detached_cursor_resumes_on_the_game_as_edited() {
    let doc = sgf_grove::parse(b"(;SZ[9];B[ee];W[dd])").unwrap();
    let mut edited = EditableGame::from_game(doc.games().next().unwrap());
    let mut cursor = edited.cursor();
    cursor.next();
    let detached = cursor.detach();
    assert_eq!((detached.moves(), detached.key()), (1, 1));
    // A move added after the cursor's node: read when the cursor resumes.
    let first = edited.nodes().nth(1).unwrap();
    let added = edited.add_child(first, 0).unwrap();
    edited
        .set(added, "W", Move::Play(Point { x: 0, y: 0 }))
        .unwrap();
    let mut cursor = detached.attach(&edited).expect("the node is still there");
    assert_eq!(cursor.next().map(|n| n.key()), Some(added.index()));
    assert_eq!(cursor.board().get(Point { x: 0, y: 0 }), Some(Color::White));
    let mut detached = cursor.detach();
    assert!(detached.back());
    assert_eq!((detached.moves(), detached.key()), (1, 1));
    // Its node deleted, a detached cursor attaches no more.
    edited.delete(first).unwrap();
    assert!(detached.attach(&edited).is_err());
}

/// The children of an edited node, read through the read interface, come
/// in order, each found from the one before (200,000 children of one node:
/// a search per child would compare 2·10¹⁰ ids).
#[test]
fn edited_children_walk_in_order_without_a_search_each() {
    const CHILDREN: usize = 200_000;
    let mut text = String::from("(;SZ[19]");
    for i in 0..CHILDREN {
        let (x, y) = (i % 19, (i / 19) % 19);
        text.push_str(&format!("(;B[{}{}])", letter(x as u8), letter(y as u8)));
    }
    text.push(')');
    let doc = sgf_grove::parse(text.as_bytes()).unwrap();
    let edited = EditableGame::from_game(doc.games().next().unwrap());
    let root = ReadGame::root(&edited);
    let keys: Vec<usize> = root.children().map(|c| c.key()).collect();
    assert_eq!(keys, (1..=CHILDREN).collect::<Vec<_>>());
    assert_eq!(root.subtree().count(), CHILDREN + 1);
}
