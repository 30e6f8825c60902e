//! The position index against a brute-force scan, whole and damaged.
//!
//! The input is a header, then SGF: byte 0 says how many damages follow
//! (its low 3 bits), whether variations are indexed (bit 3) and how many
//! rows make a run (bits 4..8: 1 to 16 × 64); each damage is 6 bytes (a
//! file, a little-endian u32 offset, a byte to xor, 0 read as 1). The
//! games of the SGF are added to an index in a fresh temporary folder,
//! and every position along each game's main line (at most
//! [`MAX_QUERIES`]) is searched:
//!
//! 1. the index answers what the search of [`Index::search`] gives over
//!    the games' rows kept in memory (a scan of all of them for each
//!    hash), and [`Index::game`] gives back each game's entry;
//! 2. after the damages (each byte of one of the index's files, chosen by
//!    the fuzzer, xored), every open, search and game read is either an
//!    error or that same right answer, never another one.
//!
//! Run by the fuzz target `index` and, on `fuzz/regressions/index_*`, by
//! `tests/integration/fuzz_regressions.rs`.

use super::repro;
use crate::game::board::Board;
use crate::index::{search_rows, Entry, Index, IndexBuilder, Record, Search};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Positions searched per input.
pub const MAX_QUERIES: usize = 48;
/// Games added per input.
const MAX_GAMES: usize = 16;

/// A folder removed on drop.
struct Folder(PathBuf);

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn fresh_folder() -> Folder {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir =
        std::env::temp_dir().join(format!("sgf-grove-oracle-index-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    Folder(dir)
}

/// One damage: which file (among the index's, sorted by name), where,
/// what to xor.
#[derive(Clone, Copy, Debug)]
struct Damage {
    file: u8,
    offset: u32,
    xor: u8,
}

/// Runs the checks on `input`; panics with a reproducer on a violation.
pub fn check_index(input: &[u8]) {
    let Some((&head, rest)) = input.split_first() else {
        return;
    };
    let damages = usize::from(head & 7);
    let variations = head & 8 != 0;
    let buffer_rows = 64 * (1 + usize::from(head >> 4));
    if rest.len() < damages * 6 {
        return;
    }
    let (spec, sgf) = rest.split_at(damages * 6);
    let damages: Vec<Damage> = spec
        .chunks_exact(6)
        .map(|d| Damage {
            file: d[0],
            offset: u32::from_le_bytes([d[1], d[2], d[3], d[4]]),
            xor: d[5].max(1),
        })
        .collect();
    let Ok(doc) = crate::parse(sgf) else {
        return;
    };
    let games: Vec<_> = doc
        .games()
        .filter(|g| g.game_type() == 1)
        .take(MAX_GAMES)
        .collect();
    let entries: Vec<Entry> = games
        .iter()
        .enumerate()
        .map(|(i, g)| Entry::new(*g, "fuzz.sgf", i, variations))
        .collect();
    // Every row of every game, with the game ids the index gives them.
    let rows: Vec<Record> = entries
        .iter()
        .enumerate()
        .flat_map(|(id, e)| {
            e.records.iter().map(move |r| {
                let mut r = *r;
                r.game |= id as u32;
                r
            })
        })
        .collect();
    let mut boards = vec![Board::new(
        crate::value::BoardSize::square(19),
        Default::default(),
    )];
    for g in &games {
        let mut cursor = g.cursor();
        while boards.len() < MAX_QUERIES {
            boards.push(cursor.board().clone());
            if cursor.next().is_none() {
                break;
            }
        }
    }
    let expected: Vec<Search> = boards
        .iter()
        .map(|b| {
            search_rows(b, |hash| {
                Ok(rows.iter().filter(|r| r.hash == hash).copied().collect())
            })
            .expect("rows in memory")
        })
        .collect();

    let folder = fresh_folder();
    let dir = &folder.0;
    let built = (|| -> io::Result<()> {
        let mut builder = IndexBuilder::open(dir)?.buffer_rows(buffer_rows);
        for e in &entries {
            builder.push(e.clone())?;
        }
        builder.finish()?;
        Ok(())
    })();
    if let Err(e) = built {
        panic!("the index could not be built: {e}\n{}", repro(input));
    }
    let index = Index::open(dir)
        .unwrap_or_else(|e| panic!("the index built does not open: {e}\n{}", repro(input)));
    for (board, right) in boards.iter().zip(&expected) {
        let found = index
            .search(board)
            .unwrap_or_else(|e| panic!("a search of a sound index failed: {e}\n{}", repro(input)));
        assert_eq!(
            &found,
            right,
            "wrong answer of a sound index\n{}",
            repro(input)
        );
    }
    for (id, e) in entries.iter().enumerate() {
        let meta = index
            .game(id as u32)
            .unwrap_or_else(|err| panic!("game {id} of a sound index: {err}\n{}", repro(input)));
        assert_eq!(&meta, e.meta(), "game {id}\n{}", repro(input));
    }
    drop(index);
    if damages.is_empty() {
        return;
    }
    damage(dir, &damages);
    let Ok(index) = Index::open(dir) else {
        return;
    };
    for (board, right) in boards.iter().zip(&expected) {
        if let Ok(found) = index.search(board) {
            assert_eq!(
                &found,
                right,
                "a damaged index answered wrongly ({damages:?})\n{}",
                repro(input)
            );
        }
    }
    for (id, e) in entries.iter().enumerate() {
        if let Ok(meta) = index.game(id as u32) {
            assert_eq!(
                &meta,
                e.meta(),
                "a damaged index gave another game {id} ({damages:?})\n{}",
                repro(input)
            );
        }
    }
}

/// Applies `damages` to the files of the index in `dir` (the lock file
/// aside: it holds nothing).
fn damage(dir: &Path, damages: &[Damage]) {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().is_some_and(|n| n != "lock"))
        .collect();
    files.sort();
    for d in damages {
        if files.is_empty() {
            return;
        }
        let path = &files[usize::from(d.file) % files.len()];
        let Ok(mut bytes) = std::fs::read(path) else {
            continue;
        };
        if bytes.is_empty() {
            continue;
        }
        let at = d.offset as usize % bytes.len();
        bytes[at] ^= d.xor;
        let _ = std::fs::write(path, &bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(head: u8, damages: &[[u8; 6]], sgf: &str) -> Vec<u8> {
        let mut out = vec![head | damages.len() as u8];
        for d in damages {
            out.extend_from_slice(d);
        }
        out.extend_from_slice(sgf.as_bytes());
        out
    }

    const GAMES: &str = "(;GM[1]SZ[19]RE[B+R];B[pd];W[dd];B[pq];W[dp];B[qk])\
        (;GM[1]SZ[19]RE[W+R];B[pp];W[pd];B[cp];W[dd](;B[jj])(;B[cc]))\
        (;GM[1]SZ[9];B[ee];W[cc])";

    #[test]
    fn sound_and_damaged_indexes_agree_with_the_scan() {
        check_index(&input(0, &[], GAMES));
        check_index(&input(8, &[], GAMES));
        // One damage in each file, at many offsets.
        for file in 0..6u8 {
            for offset in [0u32, 7, 40, 100, 333, 1000] {
                check_index(&input(
                    0,
                    &[[file, offset as u8, (offset >> 8) as u8, 0, 0, 0x10]],
                    GAMES,
                ));
            }
        }
        check_index(&input(0, &[[3, 0, 0, 0, 0, 0]; 7], GAMES));
        check_index(b"");
        check_index(b"\x07");
    }
}
