//! Criterion benchmarks of replay (`sgf_grove::game::board`,
//! `game::replay`), with `Throughput::Elements` = moves, so criterion
//! prints moves per second:
//!
//! | bench id                 | what                                                            |
//! |--------------------------|-----------------------------------------------------------------|
//! | `replay/board`           | every main-line move of every Go game played on a `Board` (captures, basic ko, the Zobrist hash kept up to date) |
//! | `replay/board_superko`   | the same under positional superko (a set of every position's hash) |
//! | `replay/cursor`          | the same through `GameTree::cursor` (setup, `PL`, illegal moves reported) |
//!
//! The moves are read from the parsed corpus beforehand (the corpus as one
//! collection), so the timed loops measure the board alone; `cursor`
//! reads them from the tree as it goes.
//!
//! Run: `cargo bench --bench board` (about a minute).

mod common;

use criterion::{Criterion, Throughput};
use sgf_grove::game::board::{Board, RuleSet};
use sgf_grove::value::{BoardSize, Color, Move, Point};
use sgf_grove::Parser;

/// One game's main line: its size and its moves (passes as `None`).
struct Line {
    size: BoardSize,
    moves: Vec<(Color, Option<Point>)>,
}

fn replay(lines: &[Line], rules: RuleSet) -> u64 {
    let mut h = 0;
    for line in lines {
        let mut board = Board::new(line.size, rules);
        for &(color, at) in &line.moves {
            match at {
                Some(p) => {
                    if board.play(color, p).is_err() {
                        board.set(p, Some(color));
                    }
                }
                None => board.pass(color),
            }
        }
        h ^= board.hash();
    }
    h
}

fn main() {
    let inputs = common::load_inputs();
    let all = common::concat(inputs.files.iter().map(|f| f.bytes.as_slice()));
    let mut parser = Parser::new();
    let coll = parser.parse(&all).expect("the corpus parses");
    let lines: Vec<Line> = coll
        .games()
        .filter(|g| g.game_type() == 1)
        .map(|g| Line {
            size: g.board_size(),
            moves: g
                .moves()
                .filter_map(Result::ok)
                .map(|(c, m)| match m {
                    Move::Play(p) => (c, Some(p)),
                    Move::Pass => (c, None),
                })
                .collect(),
        })
        .collect();
    let moves: usize = lines.iter().map(|l| l.moves.len()).sum();
    eprintln!("replay: {} games, {moves} main-line moves", lines.len());
    let mut c = Criterion::default().sample_size(10).configure_from_args();
    let mut group = c.benchmark_group("replay");
    group.throughput(Throughput::Elements(moves as u64));
    group.bench_function("board", |b| b.iter(|| replay(&lines, RuleSet::JAPANESE)));
    group.bench_function("board_superko", |b| {
        b.iter(|| replay(&lines, RuleSet::CHINESE))
    });
    group.bench_function("cursor", |b| {
        b.iter(|| {
            let mut n = 0u64;
            for game in coll.games().filter(|g| g.game_type() == 1) {
                let mut cursor = game.cursor();
                while cursor.next().is_some() {}
                n ^= cursor.hash();
            }
            n
        })
    });
    group.finish();
    c.final_summary();
}
