//! Extraction (`EditableGame::extract`, `EditableGame::variations`, `sgf
//! extract`): the extracted game replays to the positions of the original,
//! node for node, on generated games with captures and variations.

use super::common::{self, TempDir};
use sgf_grove::edit::{EditId, EditableGame, Extract};
use sgf_grove::game::board::{Board, RuleSet};
use sgf_grove::game::ReplayOptions;
use sgf_grove::value::{BoardSize, Color, Point};
use std::collections::BTreeSet;

/// A small deterministic generator.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// `count` legal random moves from `board` (a pass now and then), as SGF
/// nodes; the board is played along.
fn moves(rng: &mut Lcg, board: &mut Board, mut color: Color, count: usize) -> (String, Color) {
    let size = board.size();
    let mut out = String::new();
    for _ in 0..count {
        let c = if color == Color::Black { 'B' } else { 'W' };
        let mut played = None;
        if rng.next(30) != 0 {
            for _ in 0..50 {
                let p = Point {
                    x: rng.next(u64::from(size.cols)) as u8,
                    y: rng.next(u64::from(size.rows)) as u8,
                };
                if board.check_play(color, p).is_ok() {
                    board.play(color, p).unwrap();
                    played = Some(p);
                    break;
                }
            }
        }
        match played {
            Some(p) => out.push_str(&format!(";{c}[{p}]")),
            None => {
                board.pass(color);
                out.push_str(&format!(";{c}[]"));
            }
        }
        color = color.opponent();
    }
    (out, color)
}

/// A 9×9 game with setup, a comment, captures (random play fills the
/// board) and variations three levels deep.
fn game_text(seed: u64) -> String {
    let mut rng = Lcg(seed);
    let size = BoardSize::square(9);
    let mut board = Board::new(size, RuleSet::JAPANESE);
    board.set(Point { x: 2, y: 2 }, Some(Color::Black));
    board.set(Point { x: 6, y: 6 }, Some(Color::White));
    let mut text =
        String::from("(;GM[1]FF[4]SZ[9]PB[Black]PW[White]KM[6.5]RE[B+3]AB[cc]AW[gg]C[start]");
    let (head, color) = moves(&mut rng, &mut board, Color::Black, 30);
    text.push_str(&head);
    // Three variations after move 30, each with a fork of its own.
    for _ in 0..3 {
        let mut b = board.clone();
        let (line, c2) = moves(&mut rng, &mut b, color, 15);
        text.push('(');
        text.push_str(&line);
        text.push_str(";C[fork here]LB[aa:x]");
        for _ in 0..2 {
            let mut b2 = b.clone();
            let (tail, _) = moves(&mut rng, &mut b2, c2, 20);
            text.push('(');
            text.push_str(&tail);
            text.push(')');
        }
        text.push(')');
    }
    text.push(')');
    text
}

/// The stones of a board.
fn stones(board: &Board) -> (BTreeSet<Point>, BTreeSet<Point>) {
    (
        board.stones(Color::Black).collect(),
        board.stones(Color::White).collect(),
    )
}

/// The position after node `id` of `game`.
fn position(game: &EditableGame, id: EditId) -> ((BTreeSet<Point>, BTreeSet<Point>), Color) {
    let cursor = game
        .position_at(game.node(id).unwrap(), ReplayOptions::default())
        .unwrap();
    (stones(cursor.board()), cursor.to_play())
}

fn editable(text: &str) -> EditableGame {
    let doc = sgf_grove::parse(text.as_bytes()).unwrap();
    let game = EditableGame::from_game(doc.games().next().unwrap());
    // Written and read back: the extracted game is what a reader sees.
    let text = game.to_sgf();
    let again = sgf_grove::parse(&text).unwrap();
    EditableGame::from_game(again.games().next().unwrap())
}

/// Written and parsed back, as a file would be.
fn reread(game: &EditableGame) -> EditableGame {
    let text = game.to_sgf();
    let doc = sgf_grove::parse(&text).unwrap();
    assert_eq!(doc.games().count(), 1, "{}", String::from_utf8_lossy(&text));
    EditableGame::from_game(doc.games().next().unwrap())
}

/// The nodes of the subtree of `id`, with their paths relative to it.
fn subtree(game: &EditableGame, id: EditId) -> Vec<(Vec<usize>, EditId)> {
    let mut out = Vec::new();
    let mut stack = vec![(Vec::new(), id)];
    while let Some((path, at)) = stack.pop() {
        let children = game.node(at).unwrap().children().to_vec();
        for (i, &c) in children.iter().enumerate().rev() {
            let mut p = path.clone();
            p.push(i);
            stack.push((p, c));
        }
        out.push((path, at));
    }
    out
}

#[test]
fn extract_with_setup_replays_to_the_same_positions() {
    for seed in 1..4 {
        let game = editable(&game_text(seed));
        let mut captured = false;
        for node in game.nodes() {
            let part = game.extract(node, &Extract::new().setup(true)).unwrap();
            let part = reread(&part);
            let root = part.node(part.root()).unwrap();
            assert_eq!(root.raw("PB"), Some(&b"Black"[..]));
            assert_eq!(root.raw("KM"), Some(&b"6.5"[..]));
            assert!(!root.has("B") && !root.has("W"));
            let cursor = game
                .position_at(game.node(node).unwrap(), ReplayOptions::default())
                .unwrap();
            let note = root.text("C").unwrap();
            let prisoners = format!(
                "prisoners taken: black {}, white {}",
                cursor.board().captures(Color::Black),
                cursor.board().captures(Color::White)
            );
            assert!(note.contains(&prisoners), "{note}");
            captured |=
                cursor.board().captures(Color::Black) + cursor.board().captures(Color::White) > 0;
            // The root's position is the node's; every node below replays
            // to the original's.
            let below = subtree(&game, node);
            assert_eq!(below.len(), part.node_count(), "seed {seed}");
            for (path, original) in below {
                let copy = part.node_at_path(&path).unwrap();
                assert_eq!(
                    position(&part, copy),
                    position(&game, original),
                    "seed {seed}, node {:?}, below {path:?}",
                    game.path_of(node).unwrap()
                );
            }
        }
        assert!(captured, "the generated game has captures");
    }
}

#[test]
fn extract_without_setup_keeps_the_line_and_the_subtree() {
    let game = editable(&game_text(7));
    for node in game.nodes() {
        let part = reread(&game.extract(node, &Extract::new()).unwrap());
        let to = game.path_of(node).unwrap();
        // The line to the node is single: the node is at child 0 each step.
        let copy = part.node_at_path(&vec![0; to.len()]).unwrap();
        assert_eq!(position(&part, copy), position(&game, node));
        let below = subtree(&game, node);
        assert_eq!(part.node_count(), to.len() + below.len());
        for (path, original) in below {
            let mut full = vec![0; to.len()];
            full.extend(path);
            let copy = part.node_at_path(&full).unwrap();
            assert_eq!(position(&part, copy), position(&game, original));
        }
    }
}

#[test]
fn variations_give_one_game_per_leaf_replaying_to_it() {
    let game = editable(&game_text(11));
    for setup in [false, true] {
        for from in [game.root(), game.node_at_path(&[0; 30]).unwrap()] {
            let leaves: Vec<EditId> = game.leaves(from).collect();
            assert_eq!(leaves.len(), 6, "3 variations of 2 forks");
            let options = Extract::new().setup(setup);
            let parts: Vec<EditableGame> = game
                .variations(from, &options)
                .map(|g| reread(&g.unwrap()))
                .collect();
            assert_eq!(parts.len(), leaves.len());
            for (part, &leaf) in parts.iter().zip(&leaves) {
                // A single line: its end is the leaf's position.
                let end = part.nodes().last().unwrap();
                assert!(part
                    .nodes()
                    .all(|n| part.node(n).unwrap().children().len() <= 1));
                assert_eq!(position(part, end), position(&game, leaf));
                if !setup {
                    assert_eq!(part.node_count(), game.path_of(leaf).unwrap().len() + 1);
                }
            }
        }
    }
}

#[test]
fn a_node_of_another_game_is_an_error() {
    let game = editable(&game_text(3));
    let other = editable("(;B[aa])");
    let far = game.node_at_path(&[0; 30]).unwrap();
    assert!(other.extract(far, &Extract::new()).is_err());
    assert!(other
        .variations(far, &Extract::new())
        .next()
        .unwrap()
        .is_err());
    assert!(game.node_at_path(&[1]).is_err());
}

#[test]
fn cli_extract_writes_the_node_and_refuses_a_bad_path() {
    let dir = TempDir::new("extract-cli");
    std::fs::write(dir.0.join("g.sgf"), game_text(5)).unwrap();
    let game = editable(&game_text(5));
    // The subtree from the 30th move, as setup.
    let out = common::sgf(&dir.0, &["extract", "g.sgf", "--move", "30", "--setup"]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let doc = sgf_grove::parse(&out.stdout).unwrap();
    let part = EditableGame::from_game(doc.games().next().unwrap());
    let at = game.node_at_path(&[0; 30]).unwrap();
    assert_eq!(position(&part, part.root()), position(&game, at));
    assert_eq!(part.node_count(), subtree(&game, at).len());
    // The same node by its path.
    let path = vec!["0"; 30].join(".");
    let by_path = common::sgf(&dir.0, &["extract", "g.sgf", "--node", &path, "--setup"]);
    assert_eq!(by_path.stdout, out.stdout);
    // Every variation, to a folder.
    let vars = common::sgf(
        &dir.0,
        &["extract", "g.sgf", "--variations", "--out", "vars"],
    );
    assert!(vars.status.success(), "{}", common::stderr(&vars));
    let mut files: Vec<String> = std::fs::read_dir(dir.0.join("vars"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files,
        ["g-1.sgf", "g-2.sgf", "g-3.sgf", "g-4.sgf", "g-5.sgf", "g-6.sgf"]
    );
    let leaves: Vec<EditId> = game.leaves(game.root()).collect();
    for (file, &leaf) in files.iter().zip(&leaves) {
        let text = std::fs::read(dir.0.join("vars").join(file)).unwrap();
        let doc = sgf_grove::parse(&text).unwrap();
        let part = EditableGame::from_game(doc.games().next().unwrap());
        let end = part.nodes().last().unwrap();
        assert_eq!(position(&part, end), position(&game, leaf), "{file}");
        let note = part
            .node(part.root())
            .unwrap()
            .text("C")
            .unwrap()
            .to_owned();
        assert!(note.contains("variation"), "{note}");
    }
    // To standard output: one collection of 6 games.
    let all = common::sgf(
        &dir.0,
        &[
            "extract",
            "g.sgf",
            "--variations",
            "--setup",
            "--move",
            "30",
        ],
    );
    assert!(all.status.success());
    assert_eq!(sgf_grove::parse(&all.stdout).unwrap().games().count(), 6);
    // A path that names no node: a clear error, exit status 2.
    for bad in [
        &["--node", "0.5"][..],
        &["--node", "0.x"],
        &["--move", "500"],
    ] {
        let mut args = vec!["extract", "g.sgf"];
        args.extend_from_slice(bad);
        let out = common::sgf(&dir.0, &args);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        let err = common::stderr(&out);
        assert!(err.contains("g.sgf") && err.contains("game 0"), "{err}");
        assert!(out.stdout.is_empty());
    }
    // No such game: exit status 1.
    let out = common::sgf(&dir.0, &["extract", "g.sgf", "--game", "3"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(common::stderr(&out).contains("no game 3"));
}

#[test]
fn setup_root_names_the_prisoners_and_the_ko() {
    // Black's move 9 takes the white stone at bb: white may not retake.
    let game = editable("(;SZ[9];B[ba];W[ca];B[ab];W[db];B[bc];W[cc];B[ii];W[bb];B[cb]C[took])");
    let at = game.node_at_path(&[0; 9]).unwrap();
    let part = reread(&game.extract(at, &Extract::new().setup(true)).unwrap());
    let root = part.node(part.root()).unwrap();
    let note = root.text("C").unwrap();
    assert!(note.contains("after move 9"), "{note}");
    assert!(note.contains("prisoners taken: black 1, white 0"), "{note}");
    assert!(note.contains("ko: white may not play bb now"), "{note}");
    assert!(
        note.ends_with("\ntook"),
        "the node's own comment follows: {note}"
    );
    assert_eq!(root.get::<Color>("PL").unwrap(), Some(Color::White));
    assert_eq!(position(&part, part.root()), position(&game, at));
}
