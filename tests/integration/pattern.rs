//! Local pattern search (`Index::search_pattern`, `sgf find --pattern`)
//! against a brute-force scan: every game replayed with a cursor, a board
//! per position, every placement of the pattern under every symmetry (and
//! colour) tested cell by cell, with no bit masks and nothing incremental.
//! The search must give the same games, the same first move numbers,
//! symmetries and next moves, and no other game; on generated games (no
//! corpus needed) and on a slice of real games (`SGF_GROVE_CORPUS` or the
//! shared corpus, skipped with a printed reason when absent).
//!
//! Also: the pattern's text and SGF forms, the moves files damaged or cut,
//! an index of format 2, an add after a build, and the CLI.

#![cfg(feature = "index")]

use crate::common::{any_corpus_dir, sgf_files, TempDir};
use crate::index_damage::Lcg;
use sgf_grove::game::Symmetry;
use sgf_grove::index::{
    compact, verify, Anchor, Cell, Edges, GameEntry, Index, IndexBuilder, Pattern, PatternNext,
};
use sgf_grove::value::{BoardSize, Color, Move, Point};
use sgf_grove::{GameTree, Node};
use std::io;
use std::path::Path;

/// One game's answer: (game id, move number, symmetry, swapped, next).
type Found = (u32, u32, Symmetry, bool, Option<PatternNext>);

/// One position of a line: moves played, the stones, the move played next
/// (as the index shows it: none before setup or at the end).
struct Position {
    moves: u32,
    stones: Vec<Option<Color>>,
    size: BoardSize,
    next: Option<(Color, Move)>,
}

fn is_position_node(node: Node<'_, '_>) -> bool {
    node.has("AB")
        || node.has("AW")
        || node.has("AE")
        || matches!(node.played(), Ok(Some(_)) | Err(_))
}

fn shown_move(node: Node<'_, '_>) -> Option<(Color, Move)> {
    if node.has("AB") || node.has("AW") || node.has("AE") {
        None
    } else {
        node.played().ok().flatten()
    }
}

/// The positions of the main line, replayed with a cursor.
fn main_line(game: GameTree<'_, '_>) -> Vec<Position> {
    let mut cursor = game.cursor();
    let size = game.board_size();
    let snapshot = |cursor: &sgf_grove::game::TreeCursor<'_, '_>| {
        let board = cursor.board();
        let mut stones = Vec::new();
        for y in 0..size.rows {
            for x in 0..size.cols {
                stones.push(board.get(Point { x, y }));
            }
        }
        Position {
            moves: cursor.moves() as u32,
            stones,
            size,
            next: None,
        }
    };
    let mut out = vec![snapshot(&cursor)];
    while let Some(child) = cursor.node().first_child() {
        if cursor.enter(child).is_err() {
            break;
        }
        if is_position_node(child) {
            out.last_mut().unwrap().next = shown_move(child);
            out.push(snapshot(&cursor));
        }
    }
    out
}

/// Every position of every line (the next moves are not compared).
fn all_lines(game: GameTree<'_, '_>) -> Vec<Position> {
    let mut out = Vec::new();
    for node in std::iter::once(game.root()).chain(game.root().descendants()) {
        if node != game.root() && !is_position_node(node) {
            continue;
        }
        let cursor = game.position_at(node, Default::default()).unwrap();
        let size = game.board_size();
        let board = cursor.board();
        let mut stones = Vec::new();
        for y in 0..size.rows {
            for x in 0..size.cols {
                stones.push(board.get(Point { x, y }));
            }
        }
        out.push(Position {
            moves: cursor.moves() as u32,
            stones,
            size,
            next: None,
        });
    }
    out
}

/// Whether `t` (a turned copy) lies at (ox, oy) of `pos`, cell by cell.
fn lies_at(t: &Pattern, pos: &Position, ox: usize, oy: usize) -> bool {
    let (cols, rows) = (usize::from(pos.size.cols), usize::from(pos.size.rows));
    let e = t.edges();
    if ox + t.width() > cols || oy + t.height() > rows {
        return false;
    }
    if (e.left && ox != 0)
        || (e.top && oy != 0)
        || (e.right && ox + t.width() != cols)
        || (e.bottom && oy + t.height() != rows)
    {
        return false;
    }
    (0..t.height())
        .all(|y| (0..t.width()).all(|x| t.cell(x, y).accepts(pos.stones[(oy + y) * cols + ox + x])))
}

/// The brute-force answer for one game's positions.
fn brute(pattern: &Pattern, positions: &[Position], id: u32, with_next: bool) -> Option<Found> {
    let swaps: &[bool] = if pattern.swaps_colors() {
        &[false, true]
    } else {
        &[false]
    };
    // The pattern's own symmetries.
    let fixing: Vec<Symmetry> = Symmetry::ALL
        .into_iter()
        .filter(|&s| pattern.transformed(s, false) == *pattern)
        .collect();
    let psize = BoardSize {
        cols: pattern.width() as u8,
        rows: pattern.height() as u8,
    };
    for pos in positions {
        for &swap in swaps {
            for s in Symmetry::ALL {
                let t = pattern.transformed(s, swap);
                if t.to_move()
                    .is_some_and(|want| pos.next.map(|(c, _)| c) != Some(want))
                {
                    continue;
                }
                for oy in 0..usize::from(pos.size.rows) {
                    for ox in 0..usize::from(pos.size.cols) {
                        if !lies_at(&t, pos, ox, oy) {
                            continue;
                        }
                        let next = pos.next.filter(|_| with_next).map(|(c, m)| {
                            let c = if swap { c.opponent() } else { c };
                            match m {
                                Move::Pass => PatternNext::Pass(c),
                                Move::Play(p) => {
                                    let (lx, ly) = (p.x as i32 - ox as i32, p.y as i32 - oy as i32);
                                    if !pos.size.contains(p)
                                        || lx < 0
                                        || ly < 0
                                        || lx >= t.width() as i32
                                        || ly >= t.height() as i32
                                    {
                                        return PatternNext::Tenuki(c);
                                    }
                                    let tsize = s.board_size(psize);
                                    let local = s.inverse().apply(
                                        Point {
                                            x: lx as u8,
                                            y: ly as u8,
                                        },
                                        tsize,
                                    );
                                    let local = fixing
                                        .iter()
                                        .map(|f| f.apply(local, psize))
                                        .min_by_key(|q| (q.y, q.x))
                                        .unwrap();
                                    PatternNext::Local(c, local)
                                }
                            }
                        });
                        // The first placement by colours, symmetry, row,
                        // column: the loops' order.
                        return Some((id, pos.moves, s.inverse(), swap, next));
                    }
                }
            }
        }
    }
    None
}

/// Builds an index of `games` in `dir` (ids in order).
fn build(dir: &Path, games: &[String], variations: bool) {
    let mut builder = IndexBuilder::open(dir).unwrap();
    for (i, text) in games.iter().enumerate() {
        let doc = sgf_grove::parse(text.as_bytes()).unwrap();
        let game = doc.games().next().unwrap();
        builder
            .push(GameEntry::new(game, &format!("g{i}.sgf"), 0, variations))
            .unwrap();
    }
    builder.finish().unwrap();
}

fn searched(index: &Index, pattern: &Pattern, variations: bool) -> Vec<Found> {
    let found = index.search_pattern(pattern, variations).unwrap();
    found
        .hits
        .iter()
        .map(|h| (h.game, h.move_number, h.symmetry, h.swapped, h.next))
        .collect()
}

/// Random games on a `size` board: moves anywhere (captures, illegal
/// moves onto stones, suicides), passes, setup nodes, comments, and
/// variations.
fn random_games(seed: u64, n: usize, size: u8) -> Vec<String> {
    let mut rng = Lcg::new(seed);
    let point = |rng: &mut Lcg| {
        let (x, y) = (
            rng.below(u64::from(size)) as u8,
            rng.below(u64::from(size)) as u8,
        );
        format!("{}{}", (b'a' + x) as char, (b'a' + y) as char)
    };
    (0..n)
        .map(|g| {
            let mut text = format!(
                "(;GM[1]SZ[{size}]RE[{}+R]",
                if g % 3 == 0 { 'W' } else { 'B' }
            );
            if rng.below(4) == 0 {
                text.push_str(&format!(
                    "AB[{}][{}]AW[{}]",
                    point(&mut rng),
                    point(&mut rng),
                    point(&mut rng)
                ));
            }
            let mut open = 0;
            let moves = 20 + rng.below(60);
            for m in 0..moves {
                let color = if m % 2 == 0 { 'B' } else { 'W' };
                match rng.below(40) {
                    0 => text.push_str(&format!(";{color}[]")),
                    1 => text.push_str(&format!(";AB[{}]AE[{}]", point(&mut rng), point(&mut rng))),
                    2 => text.push_str(";C[a comment]"),
                    3 if open < 3 => {
                        // A variation: a few moves, then the main line goes on.
                        text.push_str(&format!(
                            "(;{color}[{}];AW[{}]",
                            point(&mut rng),
                            point(&mut rng)
                        ));
                        text.push_str(&format!(";B[{}])(", point(&mut rng)));
                        open += 1;
                        text.push_str(&format!(";{color}[{}]", point(&mut rng)));
                    }
                    _ => text.push_str(&format!(";{color}[{}]", point(&mut rng))),
                }
            }
            for _ in 0..open {
                text.push(')');
            }
            text.push(')');
            text
        })
        .collect()
}

/// Cuts a pattern from a position: a random rectangle, some cells turned
/// to `?`, `x`, `o` (or a stone's colour kept), random anchors where the
/// rectangle touches the edges, sometimes colours swapped or a player to
/// move, sometimes anchored in a corner wherever it was cut from; and
/// whether the position it was cut from must match it.
fn cut(rng: &mut Lcg, pos: &Position) -> (Pattern, bool) {
    let (cols, rows) = (usize::from(pos.size.cols), usize::from(pos.size.rows));
    let w = 1 + rng.below(6.min(cols) as u64) as usize;
    let h = 1 + rng.below(6.min(rows) as u64) as usize;
    // Corners and edges often, so that anchors are met.
    let ox = match rng.below(3) {
        0 => 0,
        1 => cols - w,
        _ => rng.below((cols - w + 1) as u64) as usize,
    };
    let oy = match rng.below(3) {
        0 => 0,
        1 => rows - h,
        _ => rng.below((rows - h + 1) as u64) as usize,
    };
    let mut cells = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let stone = pos.stones[(oy + y) * cols + ox + x];
            cells.push(match (rng.below(10), stone) {
                (0, _) => Cell::Any,
                (1, Some(Color::White)) | (1, None) => Cell::NotBlack,
                (2, Some(Color::Black)) | (2, None) => Cell::NotWhite,
                (_, Some(Color::Black)) => Cell::Black,
                (_, Some(Color::White)) => Cell::White,
                (_, None) => Cell::Empty,
            });
        }
    }
    let anchored = rng.below(2) == 0;
    let edges = Edges {
        left: anchored && ox == 0,
        right: anchored && ox + w == cols,
        top: anchored && oy == 0,
        bottom: anchored && oy + h == rows,
    };
    let mut p = Pattern::new(w, h, cells, edges).unwrap();
    let mut must_match = true;
    match rng.below(8) {
        0 => p = p.with_swapped_colors(true),
        1 => {
            p = p.with_to_move(Some(Color::Black));
            must_match = false;
        }
        2 => {
            p = p.with_to_move(Some(Color::White)).with_swapped_colors(true);
            must_match = false;
        }
        3 => {
            p = p.with_anchor(Anchor::Corner);
            must_match =
                (ox == 0 || ox + w == cols) && (oy == 0 || oy + h == rows) && !edges.is_none();
        }
        _ => {}
    }
    (p, must_match)
}

/// Index search == brute force for `patterns` patterns cut from the
/// games' positions; returns how many hits were compared.
fn compare(games: &[String], patterns: usize, seed: u64, name: &str) -> usize {
    let tmp = TempDir::new(name);
    let dir = tmp.0.join("idx");
    build(&dir, games, false);
    let index = Index::open(&dir).unwrap();
    let docs: Vec<_> = games
        .iter()
        .map(|t| sgf_grove::parse(t.as_bytes()).unwrap())
        .collect();
    let lines: Vec<Vec<Position>> = docs
        .iter()
        .map(|d| main_line(d.games().next().unwrap()))
        .collect();
    let mut rng = Lcg::new(seed);
    let mut compared = 0;
    for _ in 0..patterns {
        let g = rng.below(lines.len() as u64) as usize;
        let pos = &lines[g][rng.below(lines[g].len() as u64) as usize];
        let (pattern, must_match) = cut(&mut rng, pos);
        let want: Vec<Found> = lines
            .iter()
            .enumerate()
            .filter_map(|(i, l)| brute(&pattern, l, i as u32, true))
            .collect();
        let got = searched(&index, &pattern, false);
        assert_eq!(
            got,
            want,
            "pattern (to move {:?}, swap {}):\n{pattern}",
            pattern.to_move(),
            pattern.swaps_colors()
        );
        // The game it was cut from is found (unless a player to move or
        // another anchor is asked for).
        if must_match {
            assert!(got.iter().any(|f| f.0 == g as u32), "{pattern}");
        }
        compared += got.len();
    }
    compared
}

#[test]
fn pattern_search_equals_brute_force_on_generated_games() {
    let mut hits = 0;
    for (seed, size) in [(1u64, 9u8), (2, 13), (3, 19), (4, 7)] {
        let games = random_games(seed, 40, size);
        hits += compare(&games, 40, seed + 100, &format!("pattern-gen-{size}"));
    }
    assert!(hits > 200, "too few hits to mean much: {hits}");
}

#[test]
fn pattern_search_with_variations_equals_brute_force() {
    let games = random_games(7, 40, 9);
    let tmp = TempDir::new("pattern-var");
    let dir = tmp.0.join("idx");
    build(&dir, &games, true);
    let index = Index::open(&dir).unwrap();
    let docs: Vec<_> = games
        .iter()
        .map(|t| sgf_grove::parse(t.as_bytes()).unwrap())
        .collect();
    let every: Vec<Vec<Position>> = docs
        .iter()
        .map(|d| all_lines(d.games().next().unwrap()))
        .collect();
    let main: Vec<Vec<Position>> = docs
        .iter()
        .map(|d| main_line(d.games().next().unwrap()))
        .collect();
    let mut rng = Lcg::new(77);
    let mut differ = 0;
    for _ in 0..60 {
        let g = rng.below(every.len() as u64) as usize;
        let pos = &every[g][rng.below(every[g].len() as u64) as usize];
        let pattern = cut(&mut rng, pos).0.with_to_move(None);
        // Every line: the fewest moves per game.
        let mut want: Vec<(u32, u32)> = Vec::new();
        for (i, positions) in every.iter().enumerate() {
            let best = positions
                .iter()
                .filter(|p| brute(&pattern, std::slice::from_ref(*p), 0, false).is_some())
                .map(|p| p.moves)
                .min();
            if let Some(m) = best {
                want.push((i as u32, m));
            }
        }
        let got: Vec<(u32, u32)> = searched(&index, &pattern, true)
            .iter()
            .map(|f| (f.0, f.1))
            .collect();
        assert_eq!(got, want, "{pattern}");
        // The main lines alone, from the same index.
        let want_main: Vec<Found> = main
            .iter()
            .enumerate()
            .filter_map(|(i, l)| brute(&pattern, l, i as u32, true))
            .collect();
        let got_main = searched(&index, &pattern, false);
        assert_eq!(got_main, want_main, "{pattern}");
        differ += usize::from(got.len() != got_main.len());
    }
    assert!(differ > 0, "the variations never mattered");
}

#[test]
fn pattern_search_equals_brute_force_on_corpus_games() {
    let Some((dir, _)) = any_corpus_dir() else {
        return;
    };
    // A few hundred Go games, spread over the corpus.
    let files = sgf_files(&dir);
    let step = (files.len() / 300).max(1);
    let mut games = Vec::new();
    for path in files.iter().step_by(step) {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let Ok(doc) = sgf_grove::parse(&bytes) else {
            continue;
        };
        let Some(game) = doc.games().next() else {
            continue;
        };
        if game.game_type() != 1 || game.root().descendants().count() > 2000 {
            continue;
        }
        games.push(String::from_utf8_lossy(&bytes).into_owned());
        if games.len() == 300 {
            break;
        }
    }
    assert!(games.len() >= 100, "only {} corpus games", games.len());
    let hits = compare(&games, 60, 2024, "pattern-corpus");
    assert!(hits > 100, "too few hits to mean much: {hits}");
}

fn one_game_index(tmp: &TempDir, text: &str) -> Index {
    let dir = tmp.0.join("idx");
    build(&dir, &[text.to_owned()], false);
    Index::open(&dir).unwrap()
}

#[test]
fn anchored_and_anywhere() {
    let tmp = TempDir::new("pattern-anchor");
    // A black stone at the 3-4 point of the top right corner, and one in
    // the middle of the board.
    let index = one_game_index(&tmp, "(;SZ[19];B[qd];W[jj];B[kk])");
    let corner = Pattern::parse("X\n").unwrap().with_anchor(Anchor::Corner);
    assert!(index
        .search_pattern(&corner, false)
        .unwrap()
        .hits
        .is_empty());
    // A 3-4 stone drawn in the top left corner: found at move 1, turned.
    let p = Pattern::parse("+----\n|....\n|....\n|...X\n").unwrap();
    let hits = index.search_pattern(&p, false).unwrap().hits;
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].move_number, 1);
    // Anywhere: the same shape also fits away from the corner? No: its
    // empty cells are the corner's; but X with W diagonal fits at move 3.
    let diag = Pattern::parse("O.\n.X\n").unwrap();
    let found = index.search_pattern(&diag, false).unwrap();
    assert_eq!(found.hits[0].move_number, 3);
    assert_eq!(found.hits[0].next, None, "the end of the game");
    assert!(index
        .search_pattern(&diag.clone().with_anchor(Anchor::Edge), false)
        .unwrap()
        .hits
        .is_empty());
}

#[test]
fn colour_swap_and_player_to_move() {
    let tmp = TempDir::new("pattern-swap");
    let index = one_game_index(&tmp, "(;SZ[9];B[cc];W[gg];B[cg];W[gc])");
    let white_first = Pattern::parse("O\n").unwrap().with_anchor(Anchor::Anywhere);
    let found = index.search_pattern(&white_first, false).unwrap();
    assert_eq!(found.hits[0].move_number, 2);
    let swapped = white_first.clone().with_swapped_colors(true);
    let found = index.search_pattern(&swapped, false).unwrap();
    assert_eq!(found.hits[0].move_number, 1);
    assert!(found.hits[0].swapped);
    // After B cc, White played: in the pattern's colours, Black.
    assert_eq!(found.hits[0].next.map(|n| n.color()), Some(Color::Black));
    // A black stone with Black to play: after move 2 (W gg), not 1.
    let black_to_move = Pattern::parse("X\n")
        .unwrap()
        .with_to_move(Some(Color::Black));
    let found = index.search_pattern(&black_to_move, false).unwrap();
    assert_eq!(found.hits[0].move_number, 2);
    assert_eq!(found.hits[0].next.unwrap().to_string(), "B tenuki");
    // Through PL in an SGF pattern.
    let sgf = Pattern::parse("(;SZ[9]VW[dd]AB[dd]PL[W])").unwrap();
    assert_eq!(sgf.to_move(), Some(Color::White));
    let found = index
        .search_pattern(&sgf.with_anchor(Anchor::Anywhere), false)
        .unwrap();
    assert_eq!(found.hits[0].move_number, 1);
}

#[test]
fn sgf_node_patterns() {
    let p = Pattern::parse("(;SZ[19];B[aa];AB[qc]AW[pd]VW[oa:sd]MA[sa]TR[ra]SQ[qa])").unwrap();
    assert_eq!((p.width(), p.height()), (5, 4));
    assert_eq!(p.cell(2, 2), Cell::Black);
    assert_eq!(p.cell(1, 3), Cell::White);
    assert_eq!(p.cell(4, 0), Cell::Any);
    assert_eq!(p.cell(3, 0), Cell::NotWhite);
    assert_eq!(p.cell(2, 0), Cell::NotBlack);
    assert_eq!(p.cell(0, 0), Cell::Empty, "unlisted: empty");
    assert_eq!(
        p.edges(),
        Edges {
            left: false,
            right: true,
            top: true,
            bottom: false
        }
    );
    // Without VW: the points' bounding rectangle, away from the edges.
    let q = Pattern::parse("(;AB[dd]AW[ee])").unwrap();
    assert_eq!((q.width(), q.height()), (2, 2));
    assert!(q.edges().is_none());
    let e = Pattern::parse("(;VW[aa:bb]AB[cc])").unwrap_err();
    assert!(e.to_string().contains("outside the region"), "{e}");
    let e = Pattern::parse("(;C[nothing])").unwrap_err();
    assert!(e.to_string().contains("no region"), "{e}");
    let e = Pattern::parse("(;AB[zz!])").unwrap_err();
    assert!(e.to_string().contains(" at 1:"), "{e}");
}

fn games_for_files() -> Vec<String> {
    random_games(11, 30, 9)
}

#[test]
fn a_damaged_moves_file_is_an_error_naming_it_and_the_block() {
    let tmp = TempDir::new("pattern-damage");
    let dir = tmp.0.join("idx");
    build(&dir, &games_for_files(), false);
    let moves = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "mov"))
        .expect("a moves file");
    let sound = std::fs::read(&moves).unwrap();
    let pattern = Pattern::parse("X\n").unwrap();
    for at in [0, 5, 13, sound.len() / 2, sound.len() - 1] {
        let mut bytes = sound.clone();
        bytes[at] ^= 0x10;
        std::fs::write(&moves, &bytes).unwrap();
        let index = Index::open(&dir).unwrap();
        let e = index.search_pattern(&pattern, false).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData, "byte {at}: {e}");
        let text = e.to_string();
        assert!(
            text.contains("moves-") && text.contains("block 0"),
            "byte {at}: {text}"
        );
        let report = verify(&dir).unwrap();
        assert!(!report.is_sound(), "byte {at}");
        assert!(
            report.problems.iter().any(|p| p.contains(".mov")),
            "{:?}",
            report.problems
        );
    }
    // Cut: refused at open.
    std::fs::write(&moves, &sound[..sound.len() - 3]).unwrap();
    let e = Index::open(&dir).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::InvalidData);
    assert!(e.to_string().contains("moves-"), "{e}");
    // Missing.
    std::fs::remove_file(&moves).unwrap();
    let e = Index::open(&dir).unwrap_err();
    assert!(e.to_string().contains("missing"), "{e}");
    std::fs::write(&moves, &sound).unwrap();
    assert!(verify(&dir).unwrap().is_sound());
}

#[test]
fn an_index_of_format_2_refuses_patterns_and_answers_positions() {
    let tmp = TempDir::new("pattern-format2");
    let dir = tmp.0.join("idx");
    let games = games_for_files();
    let mut builder = IndexBuilder::open(&dir).unwrap().format_2();
    for (i, text) in games.iter().enumerate() {
        let doc = sgf_grove::parse(text.as_bytes()).unwrap();
        builder
            .push(GameEntry::new(
                doc.games().next().unwrap(),
                &format!("g{i}.sgf"),
                0,
                false,
            ))
            .unwrap();
    }
    builder.finish().unwrap();
    let manifest = std::fs::read_to_string(dir.join("manifest")).unwrap();
    assert!(
        manifest.starts_with("sgf-grove position index 2\n"),
        "{manifest}"
    );
    let index = Index::open(&dir).unwrap();
    assert!(!index.has_moves());
    assert!(index.search_moves(9, "").unwrap().games > 0);
    let e = index
        .search_pattern(&Pattern::parse("X\n").unwrap(), false)
        .unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::Unsupported);
    assert!(e.to_string().contains("rebuild"), "{e}");
    // An add keeps it at format 2, and says so.
    let mut builder = IndexBuilder::open(&dir).unwrap();
    assert!(!builder.has_moves());
    let doc = sgf_grove::parse(b"(;SZ[9];B[ee])").unwrap();
    builder
        .push(GameEntry::new(
            doc.games().next().unwrap(),
            "more.sgf",
            0,
            false,
        ))
        .unwrap();
    builder.finish().unwrap();
    assert!(!Index::open(&dir).unwrap().has_moves());
    assert!(verify(&dir).unwrap().is_sound());
    let tmp_cli = crate::common::sgf(&tmp.0, &["find", "idx", "--pattern", "p.txt"]);
    assert_eq!(tmp_cli.status.code(), Some(2));
    std::fs::write(tmp.0.join("p.txt"), "X\n").unwrap();
    let out = crate::common::sgf(&tmp.0, &["find", "idx", "--pattern", "p.txt"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("format 2") && err.contains("rebuild"), "{err}");
    std::fs::write(tmp.0.join("new.sgf"), "(;SZ[9];B[cc];W[gg])").unwrap();
    let add = crate::common::sgf(&tmp.0, &["index", "add", "idx", "new.sgf"]);
    assert!(
        add.status.success(),
        "{}",
        String::from_utf8_lossy(&add.stderr)
    );
    let err = String::from_utf8_lossy(&add.stderr);
    assert!(
        err.contains("format 2") && err.contains("--pattern"),
        "{err}"
    );
    assert!(!Index::open(&dir).unwrap().has_moves());
}

#[test]
fn add_after_build_and_compact_give_the_answers_of_one_build() {
    let games = random_games(21, 60, 9);
    let tmp = TempDir::new("pattern-add");
    let one = tmp.0.join("one");
    build(&one, &games, false);
    let two = tmp.0.join("two");
    build(&two, &games[..25], false);
    // The add, in a second builder, with ids going on.
    let mut builder = IndexBuilder::open(&two).unwrap();
    for (i, text) in games.iter().enumerate().skip(25) {
        let doc = sgf_grove::parse(text.as_bytes()).unwrap();
        builder
            .push(GameEntry::new(
                doc.games().next().unwrap(),
                &format!("g{i}.sgf"),
                0,
                false,
            ))
            .unwrap();
    }
    builder.finish().unwrap();
    let count_mov = |d: &Path| {
        std::fs::read_dir(d)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .path()
                    .extension()
                    .is_some_and(|x| x == "mov")
            })
            .count()
    };
    assert_eq!(count_mov(&two), 2);
    let patterns = ["X.\n.O\n", "+---\n|.x?\n|.XO\n", "OX\nXo\n", "..\n..\n"];
    let answers = |d: &Path| {
        let index = Index::open(d).unwrap();
        patterns
            .iter()
            .map(|t| {
                index
                    .search_pattern(&Pattern::parse(t).unwrap(), false)
                    .unwrap()
            })
            .collect::<Vec<_>>()
    };
    let want = answers(&one);
    assert!(want.iter().all(|s| !s.hits.is_empty()));
    assert_eq!(answers(&two), want);
    compact(&two).unwrap();
    assert_eq!(count_mov(&two), 1);
    assert_eq!(answers(&two), want);
    assert!(verify(&two).unwrap().is_sound());
}

#[test]
fn an_interrupted_add_leaves_the_committed_moves() {
    let games = random_games(31, 20, 9);
    let tmp = TempDir::new("pattern-crash");
    let dir = tmp.0.join("idx");
    build(&dir, &games[..10], false);
    let pattern = Pattern::parse("X.\n.X\n").unwrap();
    let before = Index::open(&dir)
        .unwrap()
        .search_pattern(&pattern, false)
        .unwrap();
    {
        // A builder dropped before it finishes: its moves file is written
        // in part and never listed.
        let mut builder = IndexBuilder::open(&dir).unwrap();
        for (i, text) in games.iter().enumerate().skip(10) {
            let doc = sgf_grove::parse(text.as_bytes()).unwrap();
            builder
                .push(GameEntry::new(
                    doc.games().next().unwrap(),
                    &format!("g{i}.sgf"),
                    0,
                    false,
                ))
                .unwrap();
        }
        drop(builder);
    }
    let index = Index::open(&dir).unwrap();
    assert_eq!(index.search_pattern(&pattern, false).unwrap(), before);
    let report = verify(&dir).unwrap();
    assert!(report.is_sound());
    assert!(
        report.leftovers.iter().any(|l| l == "moves.tmp"),
        "{:?}",
        report.leftovers
    );
    // The next writer removes it.
    let builder = IndexBuilder::open(&dir).unwrap();
    assert!(builder.removed().iter().any(|l| l == "moves.tmp"));
    builder.finish().unwrap();
    assert!(verify(&dir).unwrap().leftovers.is_empty());
}

#[test]
fn cli_pattern_text_json_and_stdin() {
    let tmp = TempDir::new("pattern-cli");
    tmp.write(
        "a.sgf",
        "(;SZ[19]RE[B+R];B[pd];W[qc];B[qd];W[pc])(;SZ[19]RE[W+1];B[dd];W[cc];B[dc];W[cd])",
    );
    let out = crate::common::sgf(&tmp.0, &["index", "build", "--out", "idx", "a.sgf"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    tmp.write("p.txt", "+----\n|....\n|....\n|..O.\n|...X\n");
    let out = crate::common::sgf(&tmp.0, &["find", "idx", "--pattern", "p.txt"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("2 games (of 2 in the index) with the 4×4 pattern in a corner"),
        "{text}"
    );
    assert!(text.contains("a.sgf game 1  move 2"), "{text}");
    // Both answered at the same point of the pattern (dc and cd are one
    // move in a pattern symmetric about its diagonal).
    assert!(text.contains("next:") && text.contains("B dc"), "{text}");
    let out = crate::common::sgf(
        &tmp.0,
        &["find", "idx", "--pattern", "p.txt", "--format", "json"],
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(tmp.rel(lines[0]["source"].as_str().unwrap()), "a.sgf");
    assert_eq!(lines[0]["game"], 0);
    assert_eq!(lines[0]["move"], 2);
    assert_eq!(lines[0]["next"], "B dc");
    assert!(lines[0]["symmetry"].is_string());
    assert_eq!(lines[2]["games"], 2);
    assert_eq!(lines[2]["continuations"][0]["count"], 2);
    // Standard input, anywhere.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sgf"))
        .args(["find", "idx", "--pattern", "-", "--anchor", "anywhere"])
        .current_dir(&tmp.0)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(b"XX\n").unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("2 games"), "{text}");
    // A bad pattern: exit 1 with its line and column.
    tmp.write("bad.txt", "X.\n.Z\n");
    let out = crate::common::sgf(&tmp.0, &["find", "idx", "--pattern", "bad.txt"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.txt") && err.contains("at 2:2"), "{err}");
}
