//! The position index (`sgf_grove::index`): positions found under every
//! symmetry with the right move number and the next move turned back into
//! the question's orientation, `--moves` queries, incremental adds that
//! answer as a full build and add nothing twice, compaction, and on the
//! real corpus every game found again by its position at move 30.

#![cfg(feature = "index")]

use crate::common::TempDir;
use crate::corpus_pass::{Check, Corpus, File};
use sgf_grove::game::board::Board;
use sgf_grove::game::Symmetry;
use sgf_grove::index::{compact, GameEntry, Index, IndexBuilder, Next, Search};
use sgf_grove::value::{BoardSize, Color, Move, Point};
use std::collections::HashMap;

const SIZE: BoardSize = BoardSize { cols: 19, rows: 19 };

fn p(s: &str) -> Point {
    s.parse().unwrap()
}

/// A game of `moves` (SGF points, Black first; `tt` passes) turned by `sym`.
fn game_text(info: &str, moves: &[&str], sym: Symmetry) -> String {
    let mut out = format!("(;GM[1]SZ[19]{info}");
    for (i, m) in moves.iter().enumerate() {
        let color = if i % 2 == 0 { 'B' } else { 'W' };
        let at = if *m == "tt" {
            "tt".to_owned()
        } else {
            sym.apply(p(m), SIZE).to_string()
        };
        out.push_str(&format!(";{color}[{at}]"));
    }
    out.push(')');
    out
}

/// The board after the main line's `n`-th move of the first game of `text`.
fn board_at(text: &str, n: usize) -> Board {
    let doc = sgf_grove::parse(text.as_bytes()).unwrap();
    let game = doc.games().next().unwrap();
    let mut cursor = game.cursor();
    while cursor.moves() < n {
        cursor.next().expect("the game is long enough");
    }
    cursor.board().clone()
}

/// Adds every game of `texts` (each named by its position in the list).
fn add(dir: &std::path::Path, texts: &[(&str, &str)], buffer_rows: usize) {
    let mut builder = IndexBuilder::open(dir).unwrap().buffer_rows(buffer_rows);
    for (name, text) in texts {
        let doc = sgf_grove::parse(text.as_bytes()).unwrap();
        for game in doc.games() {
            builder
                .push(GameEntry::new(game, name, game.index(), false))
                .unwrap();
        }
    }
    builder.finish().unwrap();
}

/// The asymmetric opening the hand-made games share.
const OPENING: [&str; 4] = ["pd", "dd", "pq", "dp"];

fn hand_made() -> Vec<(String, String)> {
    let mut a: Vec<&str> = OPENING.to_vec();
    a.extend(["qk", "fq"]);
    // The same position, rotated, reached after two passes and in another
    // order, then the same next move (rotated too).
    let b = ["tt", "tt", "pq", "dp", "pd", "dd", "qk"];
    // Mirrored, and another next move.
    let mut c: Vec<&str> = OPENING.to_vec();
    c.extend(["cn"]);
    vec![
        (
            "a.sgf".into(),
            game_text("PB[Ann]PW[Bob]RE[B+R]", &a, Symmetry::Identity),
        ),
        (
            "b.sgf".into(),
            game_text("PB[Cy]PW[Di]RE[W+3.5]", &b, Symmetry::Rotate90),
        ),
        (
            "c.sgf".into(),
            game_text("PB[Ed]PW[Flo]RE[W+R]", &c, Symmetry::FlipX),
        ),
    ]
}

fn origins(index: &Index, search: &Search) -> Vec<(String, u32, Symmetry, Option<String>)> {
    search
        .hits
        .iter()
        .map(|h| {
            (
                index.game(h.game).unwrap().origin,
                h.move_number,
                h.symmetry,
                h.next.map(|n| n.to_string()),
            )
        })
        .collect()
}

#[test]
fn index_finds_rotated_and_reflected_positions() {
    let dir = TempDir::new("index-hand");
    let games = hand_made();
    let texts: Vec<(&str, &str)> = games.iter().map(|(n, t)| (&n[..], &t[..])).collect();
    add(&dir.0, &texts, 1 << 20);
    let index = Index::open(&dir.0).unwrap();
    assert_eq!(index.games(), 3);

    // The position after 4 moves of a.sgf, as a.sgf has it.
    let search = index.search(&board_at(&games[0].1, 4)).unwrap();
    assert_eq!(search.games, 3);
    let found = origins(&index, &search);
    assert_eq!(
        found,
        [
            ("a.sgf".into(), 4, Symmetry::Identity, Some("B qk".into())),
            // b.sgf was turned by a quarter turn: three more undo it.
            ("b.sgf".into(), 6, Symmetry::Rotate270, Some("B qk".into())),
            ("c.sgf".into(), 4, Symmetry::FlipX, Some("B cn".into())),
        ]
    );
    let table: Vec<(String, u64, u64, u64)> = search
        .continuations
        .iter()
        .map(|c| (c.next.to_string(), c.count, c.black_wins, c.white_wins))
        .collect();
    assert_eq!(table, [("B qk".into(), 2, 1, 1), ("B cn".into(), 1, 0, 1)]);

    // Asked in the orientation of b.sgf: the next moves turn with it.
    let search = index.search(&board_at(&games[1].1, 6)).unwrap();
    let qk = Symmetry::Rotate90.apply(p("qk"), SIZE);
    assert_eq!(
        search.continuations[0].next,
        Next {
            color: Color::Black,
            play: Move::Play(qk)
        }
    );
    let found = origins(&index, &search);
    assert_eq!(found[0].2, Symmetry::Rotate90, "a.sgf turned into b.sgf");
    assert_eq!(found[1].2, Symmetry::Identity);

    // The end of a.sgf: only a.sgf, no next move.
    let search = index.search(&board_at(&games[0].1, 6)).unwrap();
    assert_eq!(
        origins(&index, &search),
        [("a.sgf".into(), 6, Symmetry::Identity, None)]
    );
    assert!(search.continuations.is_empty());

    // A position no game has.
    let search = index.search_moves(19, "aa bb").unwrap();
    assert_eq!(search, Search::default());
    // Nor on another board: the size is part of the key.
    let search = index.search_moves(13, "").unwrap();
    assert_eq!(search.games, 0);
}

#[test]
fn index_moves_queries() {
    let dir = TempDir::new("index-moves");
    let games = hand_made();
    let texts: Vec<(&str, &str)> = games.iter().map(|(n, t)| (&n[..], &t[..])).collect();
    add(&dir.0, &texts, 1 << 20);
    let index = Index::open(&dir.0).unwrap();
    let by_board = index.search(&board_at(&games[0].1, 4)).unwrap();
    // The same stones, in another order and another orientation.
    let by_moves = index.search_moves(19, "pq,dp pd dd").unwrap();
    assert_eq!(by_moves, by_board);
    let turned = index.search_moves(19, "dq pp dd pd").unwrap();
    assert_eq!(turned.hits.len(), 3);
    // The empty board: every game, at move 0; 4-4 points are one move.
    let empty = index.search_moves(19, "").unwrap();
    assert_eq!(empty.games, 3);
    // b.sgf opens with two passes: the empty board at moves 0, 1 and 2.
    let at: Vec<u32> = empty.hits.iter().map(|h| h.move_number).collect();
    assert_eq!(at, [0, 0, 1, 2, 0]);
    let firsts: HashMap<String, u64> = empty
        .continuations
        .iter()
        .map(|c| (c.next.to_string(), c.count))
        .collect();
    assert_eq!(firsts.get("B dd"), Some(&2), "{firsts:?}");
    assert_eq!(firsts.get("B pass"), Some(&1), "{firsts:?}");
    // Errors name the move.
    let err = index.search_moves(19, "pd zz").unwrap_err();
    assert!(err.to_string().contains("move 2"), "{err}");
    let err = index.search_moves(19, "pd pd").unwrap_err();
    assert!(err.to_string().contains("occupied"), "{err}");
}

#[test]
fn index_incremental_adds_answer_as_a_full_build() {
    let games = hand_made();
    let texts: Vec<(&str, &str)> = games.iter().map(|(n, t)| (&n[..], &t[..])).collect();
    let full = TempDir::new("index-full");
    add(&full.0, &texts, 1 << 20);
    let step = TempDir::new("index-step");
    add(&step.0, &texts[..1], 1 << 20);
    // One run per game, and a.sgf again, which is not added twice.
    let mut builder = IndexBuilder::open(&step.0).unwrap().buffer_rows(1);
    for (name, text) in [texts[1], texts[0], texts[2]] {
        let doc = sgf_grove::parse(text.as_bytes()).unwrap();
        let game = doc.games().next().unwrap();
        builder.push(GameEntry::new(game, name, 0, false)).unwrap();
    }
    // Dropped builders commit nothing.
    let stats = builder.finish().unwrap();
    assert_eq!((stats.games, stats.duplicates), (2, 1));
    {
        let mut dropped = IndexBuilder::open(&step.0).unwrap();
        let doc = sgf_grove::parse(b"(;B[aa])").unwrap();
        let game = doc.games().next().unwrap();
        assert!(dropped
            .push(GameEntry::new(game, "x.sgf", 0, false))
            .unwrap());
    }
    let (full, step_index) = (Index::open(&full.0).unwrap(), Index::open(&step.0).unwrap());
    assert_eq!(step_index.games(), 3);
    assert_eq!(step_index.rows(), full.rows());
    assert!(step_index.runs() > 1);
    let queries = ["", "pd", "pd dd", "pd dd pq dp", "dq pp dd pd", "cc"];
    let answers = |index: &Index| -> Vec<Search> {
        queries
            .iter()
            .map(|q| index.search_moves(19, q).unwrap())
            .collect()
    };
    let expected = answers(&full);
    assert_eq!(answers(&step_index), expected);
    drop(step_index);
    compact(&step.0).unwrap();
    let compacted = Index::open(&step.0).unwrap();
    assert_eq!(compacted.runs(), 1);
    assert_eq!(answers(&compacted), expected);
    for id in 0..3 {
        assert_eq!(compacted.game(id).unwrap(), full.game(id).unwrap());
    }
    assert!(compacted.game(3).is_err());
    // A folder of other files is no index to add to.
    let other = TempDir::new("index-other");
    other.write("notes.txt", "mine");
    let err = IndexBuilder::open(&other.0).unwrap_err();
    assert!(err.to_string().contains("no index"), "{err}");
    assert!(Index::open(&other.0).is_err());
}

#[test]
fn index_variations_are_indexed_on_request() {
    let text = "(;SZ[9];B[cc];W[gg](;B[cg])(;B[gc];W[cg]))";
    let doc = sgf_grove::parse(text.as_bytes()).unwrap();
    let game = doc.games().next().unwrap();
    let main = GameEntry::new(game, "v.sgf", 0, false);
    let all = GameEntry::new(game, "v.sgf", 0, true);
    assert_eq!(main.meta().moves, 3);
    assert_eq!(all.meta().moves, 3);
    assert!(all.rows() > main.rows());
    let dir = TempDir::new("index-var");
    let mut builder = IndexBuilder::open(&dir.0).unwrap();
    builder.push(all).unwrap();
    builder.finish().unwrap();
    let index = Index::open(&dir.0).unwrap();
    let search = index.search_moves(9, "cc gg").unwrap();
    let nexts: Vec<String> = search
        .continuations
        .iter()
        .map(|c| c.next.to_string())
        .collect();
    // cg and gc are one move in this position (the diagonal mirrors it).
    assert_eq!(nexts, ["B gc"]);
    assert_eq!(search.continuations[0].count, 2);
    // A position of the variation only.
    let search = index.search_moves(9, "cc gg gc cg").unwrap();
    assert_eq!(search.hits.len(), 1);
    assert_eq!(search.hits[0].move_number, 4);
}

/// Every 50th file of the corpus: each Go game's position after move 30
/// (and at the end of its main line) finds that game at that move. A check
/// of the one pass over the corpus (`corpus_pass.rs`), all of it at the
/// end: the index is built from the files in order (its game numbers are
/// those of a run on one thread), parsing the 2 % of the files it needs
/// again.
pub struct FoundAtMove30;

impl Check for FoundAtMove30 {
    fn name(&self) -> &'static str {
        "index_real_corpus_finds_every_game_at_move_30"
    }

    fn file(&self, _: &File<'_>) {}

    fn finish(&self, corpus: &Corpus) {
        index_finds_every_game_at_move_30(corpus);
    }
}

fn index_finds_every_game_at_move_30(corpus: &Corpus) {
    let files: Vec<_> = corpus.files.iter().zip(&corpus.bytes).step_by(50).collect();
    let tmp = TempDir::new("index-corpus");
    let mut builder = IndexBuilder::open(&tmp.0).unwrap();
    let mut expect = Vec::new();
    for (file, bytes) in &files {
        let Ok(doc) = sgf_grove::parse(bytes) else {
            continue;
        };
        let origin = file.display().to_string();
        for game in doc.games() {
            if game.game_type() != 1 {
                continue;
            }
            builder
                .push(GameEntry::new(game, &origin, game.index(), false))
                .unwrap();
            let mut cursor = game.cursor();
            while cursor.moves() < 30 && cursor.next().is_some() {}
            let at_30 = (cursor.moves() == 30).then(|| cursor.board().clone());
            while cursor.next().is_some() {}
            let end = (cursor.board().clone(), cursor.moves());
            expect.push((origin.clone(), game.index() as u32, at_30, end));
        }
    }
    builder.finish().unwrap();
    let index = Index::open(&tmp.0).unwrap();
    let ids: HashMap<(String, u32), u32> = (0..index.games())
        .map(|id| {
            let g = index.game(id).unwrap();
            ((g.origin, g.index), id)
        })
        .collect();
    let mut checked = 0;
    for (origin, n, at_30, (end, end_moves)) in expect {
        let id = ids[&(origin.clone(), n)];
        if let Some(board) = at_30 {
            let search = index.search(&board).unwrap();
            assert!(
                search
                    .hits
                    .iter()
                    .any(|h| h.game == id && h.move_number == 30),
                "{origin} game {n}: not found at move 30"
            );
            checked += 1;
        }
        let search = index.search(&end).unwrap();
        assert!(
            search
                .hits
                .iter()
                .any(|h| h.game == id && h.move_number as usize == end_moves.min(65_535)),
            "{origin} game {n}: not found at its end (move {end_moves})"
        );
    }
    assert!(checked > 500, "only {checked} games of 30 moves or more");
    eprintln!(
        "index: {} files, {} games, {} positions; {checked} found at move 30",
        files.len(),
        index.games(),
        index.rows()
    );
}
