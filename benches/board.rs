//! Criterion benchmarks of replay (`sgf_grove::game::board`,
//! `game::replay`), with `Throughput::Elements` = moves, so criterion
//! prints moves per second:
//!
//! | bench id                 | what                                                            |
//! |--------------------------|-----------------------------------------------------------------|
//! | `replay/board`           | every main-line move of every Go game played on a `Board` (captures, basic ko, the Zobrist hash kept up to date) |
//! | `replay/board_superko`   | the same under positional superko (a set of every position's hash) |
//! | `replay/cursor`          | the same through `GameTree::cursor` (setup, `PL`, illegal moves reported) |
//! | `square/board`           | `replay/board` on every 10th game of a square board up to 25×25 (what sgfmill's board takes) |
//! | `square/sgfmill`         | the same moves played by sgfmill's `Board` in Python (`benches/py/sgfmill_replay.py`; the time the script measures, its start-up and reading excluded) |
//!
//! `square/sgfmill` runs when `python3 -c "import sgfmill"` works (`pip
//! install sgfmill`); otherwise the bench says so and leaves it out.
//!
//! The moves are read from the parsed corpus beforehand (the corpus as one
//! collection), so the timed loops measure the board alone; `cursor`
//! reads them from the tree as it goes.
//!
//! Run: `cargo bench --bench board` (about two minutes).

mod common;

use criterion::{Criterion, Throughput};
use sgf_grove::game::board::{Board, RuleSet};
use sgf_grove::value::{BoardSize, Color, Move, Point};
use sgf_grove::Parser;
use std::io::Write;
use std::time::Duration;

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

/// Python replays about a million moves a second at best: the comparison
/// takes every 10th game.
const SQUARE_STRIDE: usize = 10;

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

    // Beside sgfmill: the square boards it takes.
    let square: Vec<&Line> = lines
        .iter()
        .filter(|l| l.size.cols == l.size.rows && l.size.cols <= 25)
        .step_by(SQUARE_STRIDE)
        .collect();
    let square_moves: usize = square.iter().map(|l| l.moves.len()).sum();
    let mut group = c.benchmark_group("square");
    group.throughput(Throughput::Elements(square_moves as u64));
    group.bench_function("board", |b| {
        b.iter(|| {
            let mut h = 0;
            for line in &square {
                h ^= replay(std::slice::from_ref(*line), RuleSet::JAPANESE);
            }
            h
        })
    });
    match sgfmill_moves_file(&square) {
        Some(path) => {
            group
                .sample_size(10)
                .measurement_time(Duration::from_secs(60));
            group.bench_function("sgfmill", |b| {
                b.iter_custom(|rounds| sgfmill_replay(&path, rounds));
            });
            let _ = std::fs::remove_file(path);
        }
        None => eprintln!(
            "NOTE: square/sgfmill left out: `python3 -c \"import sgfmill\"` fails \
             (pip install sgfmill)"
        ),
    }
    group.finish();
    c.final_summary();
}

/// Writes the moves of `lines` for the Python script; `None` when sgfmill
/// cannot be imported.
fn sgfmill_moves_file(lines: &[&Line]) -> Option<std::path::PathBuf> {
    let ok = std::process::Command::new("python3")
        .args(["-c", "import sgfmill"])
        .output()
        .is_ok_and(|out| out.status.success());
    if !ok {
        return None;
    }
    let path = std::env::temp_dir().join(format!("sgf-grove-replay-{}.txt", std::process::id()));
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).ok()?);
    for line in lines {
        write!(out, "{}", line.size.cols).ok()?;
        for &(color, at) in &line.moves {
            let c = if color == Color::Black { 'b' } else { 'w' };
            match at {
                Some(p) => write!(out, " {c} {} {}", p.x, p.y).ok()?,
                None => write!(out, " {c} - -").ok()?,
            }
        }
        writeln!(out).ok()?;
    }
    out.flush().ok()?;
    Some(path)
}

/// Runs the script for `rounds` replays of every line; the time it
/// measured.
fn sgfmill_replay(path: &std::path::Path, rounds: u64) -> Duration {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/py/sgfmill_replay.py");
    let out = std::process::Command::new("python3")
        .arg(script)
        .arg(path)
        .arg(rounds.to_string())
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let secs: f64 = String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .expect("seconds");
    Duration::from_secs_f64(secs)
}
