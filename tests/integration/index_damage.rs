//! A damaged or half-written index answers with an error naming the file,
//! never with a wrong count: zeroed rows, flipped bytes, a run listed
//! twice, a missing run, cut files, a manifest edited by hand, leftovers
//! of an interrupted writer; one writer at a time.

#![cfg(feature = "index")]

use crate::common::TempDir;
use sgf_grove::index::{compact, verify, GameEntry, Index, IndexBuilder, Search};
use std::io;
use std::path::Path;

/// A small deterministic generator (64-bit LCG, high bits).
pub struct Lcg(u64);

impl Lcg {
    pub fn new(seed: u64) -> Lcg {
        Lcg(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// `n` games of 19×19, 30 moves each on distinct points, about half of
/// them opening at pd; one SGF text per game.
pub fn generated_games(seed: u64, n: usize) -> Vec<String> {
    let mut rng = Lcg::new(seed);
    (0..n)
        .map(|_| {
            let mut used = std::collections::HashSet::new();
            let mut text = String::from("(;GM[1]SZ[19]RE[B+R]");
            if rng.below(2) == 0 {
                used.insert((15u8, 3u8));
                text.push_str(";B[pd]");
            }
            while used.len() < 30 {
                let (x, y) = (rng.below(19) as u8, rng.below(19) as u8);
                if used.insert((x, y)) {
                    let color = if used.len() % 2 == 1 { 'B' } else { 'W' };
                    text.push_str(&format!(
                        ";{color}[{}{}]",
                        (b'a' + x) as char,
                        (b'a' + y) as char
                    ));
                }
            }
            text.push(')');
            text
        })
        .collect()
}

/// An index of `games` (named `g<N>.sgf`) in `dir`, in one run.
fn build(dir: &Path, games: &[String]) {
    let mut builder = IndexBuilder::open(dir).unwrap();
    for (i, text) in games.iter().enumerate() {
        let doc = sgf_grove::parse(text.as_bytes()).unwrap();
        let game = doc.games().next().unwrap();
        builder
            .push(GameEntry::new(game, &format!("g{i}.sgf"), 0, false))
            .unwrap();
    }
    builder.finish().unwrap();
}

/// The queries the tests ask: a common position and rarer ones.
const QUERIES: [&str; 4] = ["pd", "", "pd dd", "aa"];

fn answers(dir: &Path) -> io::Result<Vec<Search>> {
    let index = Index::open(dir)?;
    QUERIES.iter().map(|q| index.search_moves(19, q)).collect()
}

fn run_file(dir: &Path) -> std::path::PathBuf {
    let mut runs: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pos"))
        .collect();
    runs.sort();
    runs.pop().expect("a run")
}

fn assert_invalid<T>(result: io::Result<T>, names: &str) {
    let Err(err) = result else {
        panic!("damage must be an error (expected one naming {names})");
    };
    assert_eq!(err.kind(), io::ErrorKind::InvalidData, "{err}");
    assert!(err.to_string().contains(names), "{err} (expected {names})");
}

#[test]
fn index_zeroed_rows_are_an_error_not_zero_games() {
    let dir = TempDir::new("index-zeroed");
    let games = generated_games(1, 400);
    build(&dir.0, &games);
    let right = answers(&dir.0).unwrap();
    assert!(right[0].games > 150, "{} games open at pd", right[0].games);
    let run = run_file(&dir.0);
    let mut bytes = std::fs::read(&run).unwrap();
    let rows = Index::open(&dir.0).unwrap().rows() as usize;
    // Every row zeroed, the file as long as before.
    bytes[32..32 + 16 * rows].fill(0);
    std::fs::write(&run, &bytes).unwrap();
    let index = Index::open(&dir.0).unwrap();
    assert_invalid(index.search_moves(19, "pd"), "block");
    assert_invalid(index.search_moves(19, "pd"), "run-000001.pos");
    let report = verify(&dir.0).unwrap();
    assert!(!report.is_sound());
    assert!(
        report.problems[0].contains("run-000001.pos block 0"),
        "{:?}",
        report.problems
    );
}

#[test]
fn index_flipped_bytes_never_give_a_wrong_count() {
    let dir = TempDir::new("index-flipped");
    let games = generated_games(2, 400);
    build(&dir.0, &games);
    let right = answers(&dir.0).unwrap();
    let run = run_file(&dir.0);
    let pristine = std::fs::read(&run).unwrap();
    let mut rng = Lcg::new(3);
    for round in 0..4 {
        // 2,000 flipped bytes over the rows (round 0), or 50 anywhere.
        let mut bytes = pristine.clone();
        let (flips, from) = if round == 0 { (2000, 32) } else { (50, 0) };
        for _ in 0..flips {
            let at = from + rng.below((bytes.len() - from) as u64) as usize;
            bytes[at] ^= 1 + rng.below(255) as u8;
        }
        std::fs::write(&run, &bytes).unwrap();
        match Index::open(&dir.0) {
            Err(e) => assert_eq!(e.kind(), io::ErrorKind::InvalidData, "{e}"),
            Ok(index) => {
                for (q, right) in QUERIES.iter().zip(&right) {
                    match index.search_moves(19, q) {
                        Ok(found) => assert!(&found == right, "round {round}, query {q:?}: wrong"),
                        Err(e) => assert!(e.to_string().contains("block"), "{e}"),
                    }
                }
            }
        }
        assert!(!verify(&dir.0).unwrap().is_sound(), "round {round}");
    }
    std::fs::write(&run, &pristine).unwrap();
    assert_eq!(answers(&dir.0).unwrap(), right);
    assert!(verify(&dir.0).unwrap().is_sound());
}

#[test]
fn index_games_table_damage_is_named() {
    let dir = TempDir::new("index-games-damage");
    build(&dir.0, &generated_games(4, 20));
    let index = Index::open(&dir.0).unwrap();
    let first = index.game(0).unwrap();
    drop(index);
    let dat = dir.0.join("games.dat");
    let mut bytes = std::fs::read(&dat).unwrap();
    bytes[6] ^= 0x20; // in game 0's origin
    std::fs::write(&dat, &bytes).unwrap();
    let index = Index::open(&dir.0).unwrap();
    assert_invalid(index.game(0), "games.dat game 0: checksum mismatch");
    assert!(index.game(1).is_ok());
    let report = verify(&dir.0).unwrap();
    assert!(
        report.problems.iter().any(|p| p.contains("games.dat")),
        "{report:?}"
    );
    // A writer does not add to a damaged table.
    assert_invalid(IndexBuilder::open(&dir.0), "games.dat");
    bytes[6] ^= 0x20;
    std::fs::write(&dat, &bytes).unwrap();
    assert_eq!(Index::open(&dir.0).unwrap().game(0).unwrap(), first);
    // games.off pointing at another entry.
    let off = dir.0.join("games.off");
    let mut table = std::fs::read(&off).unwrap();
    table.copy_within(16..24, 0);
    std::fs::write(&off, &table).unwrap();
    assert_invalid(Index::open(&dir.0).unwrap().game(0), "game 0");
}

#[test]
fn index_manifest_edits_are_refused() {
    let dir = TempDir::new("index-manifest");
    build(&dir.0, &generated_games(5, 30));
    let path = dir.0.join("manifest");
    let text = std::fs::read_to_string(&path).unwrap();
    let run_line = text.lines().find(|l| l.starts_with("run ")).unwrap();
    let next_line = text.lines().find(|l| l.starts_with("next_run ")).unwrap();
    let edits = [
        // A run listed twice: every hit would be counted twice.
        text.replace(run_line, &format!("{run_line}\n{run_line}")),
        // next_run lagging behind the runs.
        text.replace(next_line, "next_run 1"),
        // A run not listed.
        text.replace(&format!("{run_line}\n"), ""),
        // More games than the table holds.
        text.replace("games 30", "games 31"),
        // Cut.
        text[..text.len() / 2].to_owned(),
    ];
    for edited in edits {
        assert_ne!(edited, text);
        std::fs::write(&path, &edited).unwrap();
        assert_invalid(Index::open(&dir.0), "manifest");
        assert_invalid(IndexBuilder::open(&dir.0), "manifest");
        assert!(!verify(&dir.0).unwrap().is_sound());
    }
    // An index of the format before checksums: rebuild it.
    std::fs::write(&path, "sgf-grove position index 1\ngames 0\nnext_run 1\n").unwrap();
    assert_invalid(Index::open(&dir.0), "rebuild it with `sgf index build`");
    std::fs::write(&path, &text).unwrap();
    assert!(verify(&dir.0).unwrap().is_sound());
}

#[test]
fn index_missing_cut_or_swapped_files_are_errors() {
    let dir = TempDir::new("index-files");
    let games = generated_games(6, 60);
    // Two runs: the first 30 games, then the others.
    build(&dir.0, &games[..30]);
    let mut builder = IndexBuilder::open(&dir.0).unwrap();
    for (i, text) in games.iter().enumerate().skip(30) {
        let doc = sgf_grove::parse(text.as_bytes()).unwrap();
        let game = doc.games().next().unwrap();
        builder
            .push(GameEntry::new(game, &format!("g{i}.sgf"), 0, false))
            .unwrap();
    }
    builder.finish().unwrap();
    let right = answers(&dir.0).unwrap();
    // The second run is numbered after the first build's moves file.
    let (one, two) = (dir.0.join("run-000001.pos"), run_file(&dir.0));
    assert_ne!(one, two);
    let saved = std::fs::read(&one).unwrap();
    // Missing.
    std::fs::remove_file(&one).unwrap();
    assert_invalid(
        Index::open(&dir.0),
        "run-000001.pos: listed in the manifest but missing",
    );
    assert!(!verify(&dir.0).unwrap().is_sound());
    // Another run in its place.
    std::fs::copy(&two, &one).unwrap();
    assert_invalid(Index::open(&dir.0), "run-000001.pos");
    // Cut, and grown.
    std::fs::write(&one, &saved[..saved.len() - 8]).unwrap();
    assert_invalid(Index::open(&dir.0), "run-000001.pos");
    let mut grown = saved.clone();
    grown.extend_from_slice(&[0; 16]);
    std::fs::write(&one, &grown).unwrap();
    assert_invalid(Index::open(&dir.0), "run-000001.pos");
    std::fs::write(&one, &saved).unwrap();
    // The games table cut.
    for file in ["games.dat", "games.off"] {
        let path = dir.0.join(file);
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        assert_invalid(Index::open(&dir.0), "cut");
        assert!(!verify(&dir.0).unwrap().is_sound(), "{file}");
        std::fs::remove_file(&path).unwrap();
        assert_invalid(Index::open(&dir.0), file);
        std::fs::write(&path, &bytes).unwrap();
    }
    assert_eq!(answers(&dir.0).unwrap(), right);
    assert!(verify(&dir.0).unwrap().is_sound());
}

#[test]
fn index_one_writer_at_a_time() {
    let dir = TempDir::new("index-lock");
    let games = generated_games(7, 4);
    build(&dir.0, &games[..1]);
    let first = IndexBuilder::open(&dir.0).unwrap();
    let err = IndexBuilder::open(&dir.0).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::WouldBlock, "{err}");
    assert!(err.to_string().contains("another writer"), "{err}");
    assert_eq!(
        compact(&dir.0).unwrap_err().kind(),
        io::ErrorKind::WouldBlock
    );
    assert!(verify(&dir.0).unwrap().writer_active);
    // A reader needs no lock.
    assert_eq!(Index::open(&dir.0).unwrap().games(), 1);
    // A waiting writer goes on when the first is done.
    let waiter = {
        let dir = dir.0.clone();
        let text = games[1].clone();
        std::thread::spawn(move || {
            let mut builder = IndexBuilder::open_waiting(&dir).unwrap();
            let doc = sgf_grove::parse(text.as_bytes()).unwrap();
            let game = doc.games().next().unwrap();
            builder
                .push(GameEntry::new(game, "w.sgf", 0, false))
                .unwrap();
            builder.finish().unwrap();
        })
    };
    std::thread::sleep(std::time::Duration::from_millis(100));
    let mut first = first;
    let doc = sgf_grove::parse(games[2].as_bytes()).unwrap();
    first
        .push(GameEntry::new(
            doc.games().next().unwrap(),
            "f.sgf",
            0,
            false,
        ))
        .unwrap();
    first.finish().unwrap();
    waiter.join().unwrap();
    assert_eq!(Index::open(&dir.0).unwrap().games(), 3);
    assert!(!verify(&dir.0).unwrap().writer_active);
}

#[test]
fn index_leftovers_are_never_read_and_never_overwritten() {
    let dir = TempDir::new("index-leftovers");
    let games = generated_games(8, 40);
    build(&dir.0, &games[..20]);
    let right_before = answers(&dir.0).unwrap();
    // What a writer killed after writing a run and games, before its
    // manifest, leaves: a run file past next_run, games past the
    // committed ones, temporary files.
    std::fs::copy(dir.0.join("run-000001.pos"), dir.0.join("run-000007.pos")).unwrap();
    std::fs::write(dir.0.join("run-000003.tmp"), b"half").unwrap();
    let mut dat = std::fs::OpenOptions::new()
        .append(true)
        .open(dir.0.join("games.dat"))
        .unwrap();
    io::Write::write_all(&mut dat, b"\x10\0\0\0half an entry").unwrap();
    drop(dat);
    assert_eq!(answers(&dir.0).unwrap(), right_before);
    let report = verify(&dir.0).unwrap();
    assert!(report.is_sound(), "{report:?}");
    assert_eq!(report.leftovers, ["run-000003.tmp", "run-000007.pos"]);
    // The next writer removes them, says so, and numbers its run past them.
    let mut builder = IndexBuilder::open(&dir.0).unwrap();
    assert_eq!(builder.removed(), ["run-000003.tmp", "run-000007.pos"]);
    for (i, text) in games.iter().enumerate().skip(20) {
        let doc = sgf_grove::parse(text.as_bytes()).unwrap();
        let game = doc.games().next().unwrap();
        builder
            .push(GameEntry::new(game, &format!("g{i}.sgf"), 0, false))
            .unwrap();
    }
    builder.finish().unwrap();
    assert!(dir.0.join("run-000008.pos").exists());
    assert!(!dir.0.join("run-000007.pos").exists());
    let full = TempDir::new("index-leftovers-full");
    build(&full.0, &games);
    assert_eq!(answers(&dir.0).unwrap(), answers(&full.0).unwrap());
    let report = verify(&dir.0).unwrap();
    assert!(
        report.is_sound() && report.leftovers.is_empty(),
        "{report:?}"
    );
    compact(&dir.0).unwrap();
    assert_eq!(answers(&dir.0).unwrap(), answers(&full.0).unwrap());
    assert!(verify(&dir.0).unwrap().is_sound());
}
