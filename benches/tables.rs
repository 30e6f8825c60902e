//! Criterion benchmarks of `sgf_grove::table` on the whole corpus as one
//! collection (every file joined with `\n`), `Throughput::Bytes` = its
//! bytes, so criterion prints MiB/s (2^20 bytes):
//!
//! | id                             | what                                                   |
//! |--------------------------------|--------------------------------------------------------|
//! | `tables/rows_stats/1_thread`   | parse game by game, a row per game (without move rows), `Stats::add_game` |
//! | `tables/rows_stats/2_threads`  | the same on two threads, the input cut in two at a game start, the two `Stats` merged |
//! | `tables/rows/1_thread`         | parse and a row per game with its move rows, nothing else |
//! | `tables/jsonl/1_thread`        | parse, rows with moves, `JsonLinesWriter` into memory   |
//! | `tables/parquet/1_thread`      | parse, rows with moves, `ParquetWriter` (games and moves tables) into memory |
//! | `tables/parquet_games/1_thread`| the same, games table only                              |
//! | `tables/parquet_packed/1_thread`| parse, rows with packed moves (`GameRow::from_game_packed`, what `sgf export` builds), `ParquetWriter` |
//!
//! Sizes of the outputs are printed once at start-up.
//!
//! Run: `cargo bench --features parquet --bench tables` (about 3 minutes on
//! 2 cores). Inputs: the shared corpus at `../shared/corpus` (see
//! `common`), joined with `\n`; without it, a small synthetic collection.
//! `SGF_GROVE_ALL=FILE` benchmarks one file instead (the corpus
//! concatenated by `cat`, say).

mod common;

use criterion::Criterion;
use sgf_grove::table::{GameRow, JsonLinesWriter, ParquetOptions, ParquetWriter, RowWriter, Stats};
use sgf_grove::Parser;
use std::hint::black_box;
use std::ops::ControlFlow;

/// Rows and statistics for the games of `bytes`.
fn rows_stats(bytes: &[u8]) -> Stats {
    let mut stats = Stats::new();
    let mut parser = Parser::new();
    let outcome = parser.parse_each(bytes, |coll| {
        match coll.games().next() {
            Some(game) => {
                let offset = coll.stream_offset(game.span().start) as u64;
                let row = GameRow::from_game_without_moves(game, "all.sgf", offset);
                stats.add_game(&row, game);
            }
            None => stats.add_stray_warnings(coll),
        }
        ControlFlow::<()>::Continue(())
    });
    if let Err(e) = outcome {
        stats.add_failure(e.kind().code());
    }
    stats
}

/// Hands every game's row, with its moves and numbered, to `out`.
fn export(bytes: &[u8], out: &mut dyn RowWriter) {
    let mut parser = Parser::new();
    let mut id = 0;
    let outcome = parser.parse_each(bytes, |coll| {
        if let Some(game) = coll.games().next() {
            let offset = coll.stream_offset(game.span().start) as u64;
            let row = GameRow::from_game(game, "all.sgf", offset).with_id(id);
            id += 1;
            out.write_row(&row).expect("writes to memory");
        }
        ControlFlow::<()>::Continue(())
    });
    let _ = outcome.expect("the concatenation parses");
    out.finish().expect("writes to memory");
}

/// [`export`] with packed rows.
fn export_packed(bytes: &[u8], out: &mut dyn RowWriter) {
    let mut parser = Parser::new();
    let mut id = 0;
    let outcome = parser.parse_each(bytes, |coll| {
        if let Some(game) = coll.games().next() {
            let offset = coll.stream_offset(game.span().start) as u64;
            let row = GameRow::from_game_packed(game, "all.sgf", offset).with_id(id);
            id += 1;
            out.write_row(&row).expect("writes to memory");
        }
        ControlFlow::<()>::Continue(())
    });
    let _ = outcome.expect("the concatenation parses");
    out.finish().expect("writes to memory");
}

/// Where to cut `bytes` in two: a `(;` right after a `)` or a line break,
/// near the middle.
fn middle(bytes: &[u8]) -> usize {
    let mut at = (bytes.len() / 2).max(1);
    while at < bytes.len()
        && !(bytes[at..].starts_with(b"(;") && matches!(bytes[at - 1], b')' | b'\n'))
    {
        at += 1;
    }
    at.min(bytes.len())
}

fn parquet_sizes(all: &[u8], moves: bool) -> (usize, usize) {
    let mut out = ParquetWriter::new(Vec::new(), moves.then(Vec::new), ParquetOptions::new())
        .expect("starts");
    export(all, &mut out);
    let (games, moves) = out.into_inner().expect("finishes");
    (games.len(), moves.map_or(0, |m| m.len()))
}

fn main() {
    let all = match std::env::var_os("SGF_GROVE_ALL") {
        Some(path) => std::fs::read(&path).expect("SGF_GROVE_ALL names a readable file"),
        None => {
            let inputs = common::load_inputs();
            common::concat(inputs.files.iter().map(|f| &f.bytes[..]))
        }
    };
    eprintln!("input: {} bytes", all.len());
    let cut = middle(&all);

    // The same statistics on one thread and on two.
    let one = rows_stats(&all);
    let mut two = rows_stats(&all[..cut]);
    two.merge(rows_stats(&all[cut..]));
    assert_eq!(one.to_json(), two.to_json(), "merged statistics differ");
    let (games_pq, moves_pq) = parquet_sizes(&all, true);
    eprintln!(
        "{} games, {} moves; parquet: games {} bytes, moves {} bytes",
        one.games(),
        one.moves(),
        games_pq,
        moves_pq
    );

    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("tables");
    common::big(&mut group, 2, 10);
    group.throughput(common::bytes(all.len()));
    group.bench_function("rows_stats/1_thread", |b| {
        b.iter(|| black_box(rows_stats(&all)))
    });
    group.bench_function("rows_stats/2_threads", |b| {
        b.iter(|| {
            std::thread::scope(|s| {
                let left = s.spawn(|| rows_stats(&all[..cut]));
                let mut right = rows_stats(&all[cut..]);
                right.merge(left.join().expect("no panic"));
                black_box(right)
            })
        })
    });
    group.bench_function("rows/1_thread", |b| {
        b.iter(|| {
            let mut parser = Parser::new();
            let mut moves = 0usize;
            let _ = parser.parse_each(&all, |coll| {
                if let Some(game) = coll.games().next() {
                    moves += GameRow::from_game(game, "all.sgf", 0).moves.len();
                }
                ControlFlow::<()>::Continue(())
            });
            black_box(moves)
        })
    });
    group.bench_function("jsonl/1_thread", |b| {
        b.iter(|| {
            let mut out = JsonLinesWriter::new(Vec::with_capacity(256 << 20));
            export(&all, &mut out);
            black_box(out.into_inner().expect("finishes").len())
        })
    });
    group.bench_function("parquet/1_thread", |b| {
        b.iter(|| black_box(parquet_sizes(&all, true)))
    });
    group.bench_function("parquet_packed/1_thread", |b| {
        b.iter(|| {
            let mut out = ParquetWriter::new(Vec::new(), Some(Vec::new()), ParquetOptions::new())
                .expect("starts");
            export_packed(&all, &mut out);
            let (games, moves) = out.into_inner().expect("finishes");
            black_box((games.len(), moves.map_or(0, |m| m.len())))
        })
    });
    group.bench_function("parquet_games/1_thread", |b| {
        b.iter(|| black_box(parquet_sizes(&all, false)))
    });
    group.finish();
    c.final_summary();
}
