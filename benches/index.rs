//! The position index (`sgf_grove::index`) on the corpus, and the same
//! rows in redb (a B-tree store, pure Rust) for comparison:
//!
//! 1. every Go game of the corpus (file by file) replayed into its rows
//!    (`GameEntry::new`, one thread): positions/s;
//! 2. the rows written to each store: our sorted runs (`IndexBuilder`:
//!    games table, sort, one run) and a redb table keyed by (hash, game,
//!    moves, next) inserted in game order in one transaction, and again
//!    with the rows sorted first: seconds, rows/s, bytes on disk;
//! 3. criterion: query latency of a common position (after `pd dd`, on
//!    a fifth of the 19×19 games) and a rare one (move 60 of a game): for
//!    our index a whole [`Index::search`] (lookup, continuation table), for
//!    redb the range read of the rows alone;
//! 4. criterion: a local pattern search ([`Index::search_pattern`]) over
//!    every game, a 6×6 corner pattern (a 4-4 stone and the 3-3
//!    invasion) anchored in the corners and the same pattern anywhere;
//!    the moves files' bytes are printed beside the index's.
//!
//! Printed lines start with `index:`. Run: `cargo bench --bench index
//! --features index` (a few minutes; the index folders go to the system's
//! temporary folder and are removed). With `SGF_INDEX_BENCH_NO_REDB=1` the
//! redb parts are left out (our store alone, a minute).

mod common;

use criterion::Criterion;
use redb::{Database, TableDefinition};
use sgf_grove::game::board::Board;
use sgf_grove::index::{board_after, Anchor, GameEntry, Index, IndexBuilder, Pattern};
use sgf_grove::Parser;
use std::path::Path;
use std::time::Instant;

/// (hash, game, moves, next) → nothing: the rows of one hash are one key
/// range.
const ROWS: TableDefinition<(u64, u32, u16, u16), ()> = TableDefinition::new("positions");

fn folder_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum()
}

fn main() {
    let inputs = common::load_inputs();
    let base = std::env::temp_dir().join(format!("sgf-grove-bench-index-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).unwrap();

    // 1. Replay into rows.
    let started = Instant::now();
    let mut parser = Parser::new();
    let mut entries = Vec::new();
    let mut rare: Option<Board> = None;
    for file in &inputs.files {
        let Ok(coll) = parser.parse(&file.bytes) else {
            continue;
        };
        for game in coll.games().filter(|g| g.game_type() == 1) {
            entries.push(GameEntry::new(game, &file.name, game.index(), false));
            if rare.is_none() && entries.len() == 1000 {
                let mut cursor = game.cursor();
                while cursor.moves() < 60 && cursor.next().is_some() {}
                rare = Some(cursor.board().clone());
            }
        }
    }
    let replay = started.elapsed().as_secs_f64();
    let rows: u64 = entries.iter().map(|e| e.rows() as u64).sum();
    println!(
        "index: replay into rows: {} games, {rows} rows in {replay:.2} s, {:.2} M positions/s (one thread, parsing included)",
        entries.len(),
        rows as f64 / replay / 1e6
    );
    let rare = rare.unwrap_or_else(|| board_after(19, "aa bb cc").unwrap());
    let common_board = board_after(19, "pd dd").unwrap();

    // 2a. Sorted runs.
    let ours = base.join("runs");
    let started = Instant::now();
    let mut builder = IndexBuilder::open(&ours).unwrap();
    for e in entries.iter().cloned() {
        builder.push(e).unwrap();
    }
    builder.finish().unwrap();
    let t = started.elapsed().as_secs_f64();
    println!(
        "index: sorted runs: write {t:.2} s ({:.1} M rows/s), {} bytes on disk ({:.1} bytes/row, games table included)",
        rows as f64 / t / 1e6,
        folder_bytes(&ours),
        folder_bytes(&ours) as f64 / rows as f64
    );

    let with_redb = std::env::var_os("SGF_INDEX_BENCH_NO_REDB").is_none();
    if !with_redb {
        run_queries(&ours, &common_board, &rare, None);
        let _ = std::fs::remove_dir_all(&base);
        return;
    }

    // 2b. redb.
    let redb_dir = base.join("redb");
    std::fs::create_dir_all(&redb_dir).unwrap();
    let started = Instant::now();
    let db = Database::create(redb_dir.join("positions.redb")).unwrap();
    {
        let tx = db.begin_write().unwrap();
        {
            let mut table = tx.open_table(ROWS).unwrap();
            for (id, e) in entries.iter().enumerate() {
                for (hash, moves, next) in e.row_keys() {
                    table.insert((hash, id as u32, moves, next), ()).unwrap();
                }
            }
        }
        tx.commit().unwrap();
    }
    let t = started.elapsed().as_secs_f64();
    println!(
        "index: redb: write {t:.2} s ({:.1} M rows/s), {} bytes on disk ({:.1} bytes/row, rows only)",
        rows as f64 / t / 1e6,
        folder_bytes(&redb_dir),
        folder_bytes(&redb_dir) as f64 / rows as f64
    );
    // The same rows sorted first (what a bulk load would do; an
    // incremental add of new games inserts keys all over the tree).
    let sorted_dir = base.join("redb-sorted");
    std::fs::create_dir_all(&sorted_dir).unwrap();
    let started = Instant::now();
    let mut keys: Vec<(u64, u32, u16, u16)> = entries
        .iter()
        .enumerate()
        .flat_map(|(id, e)| e.row_keys().map(move |(h, m, n)| (h, id as u32, m, n)))
        .collect();
    keys.sort_unstable();
    {
        let sorted_db = Database::create(sorted_dir.join("positions.redb")).unwrap();
        let tx = sorted_db.begin_write().unwrap();
        {
            let mut table = tx.open_table(ROWS).unwrap();
            for k in keys.drain(..) {
                table.insert(k, ()).unwrap();
            }
        }
        tx.commit().unwrap();
    }
    let t = started.elapsed().as_secs_f64();
    println!(
        "index: redb, rows sorted first: write {t:.2} s ({:.1} M rows/s), {} bytes on disk ({:.1} bytes/row)",
        rows as f64 / t / 1e6,
        folder_bytes(&sorted_dir),
        folder_bytes(&sorted_dir) as f64 / rows as f64
    );
    drop(entries);
    run_queries(&ours, &common_board, &rare, Some(&db));
    drop(db);
    let _ = std::fs::remove_dir_all(&base);
}

/// 3. Queries: ours, and redb's when `db` is given.
fn run_queries(ours: &Path, common_board: &Board, rare: &Board, db: Option<&Database>) {
    let index = Index::open(ours).unwrap();
    let found = |b: &Board| index.search(b).unwrap().hits.len();
    println!(
        "index: common position: {} rows; rare position: {} rows",
        found(common_board),
        found(rare)
    );
    let redb_rows = |db: &Database, b: &Board| -> usize {
        let hash = b.canonical_hash().0;
        let tx = db.begin_read().unwrap();
        let table = tx.open_table(ROWS).unwrap();
        table
            .range((hash, 0, 0, 0)..=(hash, u32::MAX, u16::MAX, u16::MAX))
            .unwrap()
            .map(|r| r.unwrap().0.value())
            .collect::<Vec<_>>()
            .len()
    };
    if let Some(db) = db {
        assert_eq!(redb_rows(db, common_board), found(common_board));
        assert_eq!(redb_rows(db, rare), found(rare));
    }
    let mut c = Criterion::default().sample_size(20).configure_from_args();
    let mut group = c.benchmark_group("index");
    group.bench_function("runs/common", |b| b.iter(|| index.search(common_board)));
    group.bench_function("runs/rare", |b| b.iter(|| index.search(rare)));
    // 4. Local patterns.
    let corner = Pattern::parse("+------\n|......\n|......\n|..O...\n|...X..\n|......\n|......\n")
        .expect("a pattern");
    let anywhere = corner.clone().with_anchor(Anchor::Anywhere);
    let moves_bytes: u64 = std::fs::read_dir(ours)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mov"))
        .map(|p| std::fs::metadata(p).unwrap().len())
        .sum();
    println!(
        "index: moves files {moves_bytes} bytes of {}; 6×6 corner pattern in {} games, anywhere in {}",
        folder_bytes(ours),
        index.search_pattern(&corner, false).unwrap().hits.len(),
        index.search_pattern(&anywhere, false).unwrap().hits.len()
    );
    group.sample_size(10);
    group.bench_function("pattern/corner-6x6", |b| {
        b.iter(|| index.search_pattern(&corner, false).unwrap())
    });
    group.bench_function("pattern/anywhere-6x6", |b| {
        b.iter(|| index.search_pattern(&anywhere, false).unwrap())
    });
    if let Some(db) = db {
        group.bench_function("redb/common", |b| b.iter(|| redb_rows(db, common_board)));
        group.bench_function("redb/rare", |b| b.iter(|| redb_rows(db, rare)));
    }
    group.finish();
    c.final_summary();
}
