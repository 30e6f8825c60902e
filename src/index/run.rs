//! Sorted runs: immutable files of [`Record`]s in (hash, game, moves, next)
//! order, with a fence (the hash of the first record) and a checksum every
//! [`BLOCK`] records, kept in memory while the run is open.
//!
//! ```text
//! header   32 bytes       b"SGFIRUN2", rows (u64), block (u32), 12 bytes zero
//! rows     rows × 16      the records, sorted
//! fences   ⌈rows / block⌉ × 8   the hash of each block's first record
//! sums     ⌈rows / block⌉ × 8   the checksum of each block's rows
//! trailer  8 bytes        the checksum of the header, fences and sums
//! ```
//!
//! The manifest lists each run with its trailer, so that the trailer
//! vouches for the fences and block sums and each block sum for its rows:
//! opening a run checks the trailer, a lookup checks the blocks it reads
//! (and only those). A lookup finds the block where a hash may begin
//! among the fences (a binary search in memory), reads that block (8 KiB)
//! and the blocks after it while the hash goes on: one read for a rare
//! position, a sequential read of its rows for a common one.

use super::checksum::{checksum, Checksum};
use super::games::corrupt;
use super::record::{Record, RECORD_LEN};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"SGFIRUN2";
/// The magic of the runs of format 1, without checksums.
const OLD_MAGIC: &[u8; 8] = b"SGFIRUN1";
const HEADER: u64 = 32;
/// Records per fence.
pub(crate) const BLOCK: usize = 512;

/// The header of a run of `rows` rows.
fn header(rows: u64) -> [u8; HEADER as usize] {
    let mut header = [0u8; HEADER as usize];
    header[..8].copy_from_slice(MAGIC);
    header[8..16].copy_from_slice(&rows.to_le_bytes());
    header[16..20].copy_from_slice(&(BLOCK as u32).to_le_bytes());
    header
}

/// The bytes of a run of `rows` rows.
fn run_len(rows: u64) -> Option<u64> {
    let blocks = rows.div_ceil(BLOCK as u64);
    rows.checked_mul(RECORD_LEN as u64)?
        .checked_add(blocks.checked_mul(16)?)?
        .checked_add(HEADER + 8)
}

/// Writes `rows` records, sorted, from `records` to a new file at `path`
/// (which must not exist: a run is never overwritten), synced; returns
/// the run's checksum (its trailer). A file left by a failure is removed
/// when it can be.
pub(crate) fn write_run(
    path: &Path,
    rows: u64,
    records: impl Iterator<Item = io::Result<Record>>,
) -> io::Result<u64> {
    let file = OpenOptions::new().write(true).create_new(true).open(path)?;
    let written = write_rows(file, rows, records);
    if written.is_err() {
        let _ = std::fs::remove_file(path);
    }
    written
}

fn write_rows(
    file: File,
    rows: u64,
    records: impl Iterator<Item = io::Result<Record>>,
) -> io::Result<u64> {
    let mut out = BufWriter::with_capacity(1 << 20, file);
    let header = header(rows);
    out.write_all(&header)?;
    let blocks = rows.div_ceil(BLOCK as u64) as usize;
    let mut fences = Vec::with_capacity(blocks);
    let mut sums = Vec::with_capacity(blocks);
    let mut block = Vec::with_capacity(BLOCK * RECORD_LEN);
    let mut written = 0u64;
    let mut last: Option<Record> = None;
    for r in records {
        let r = r?;
        if last.is_some_and(|l| l > r) {
            return Err(io::Error::other("a run's rows came out of order"));
        }
        last = Some(r);
        if block.is_empty() {
            fences.push(r.hash);
        }
        block.extend_from_slice(&r.to_bytes());
        if block.len() == BLOCK * RECORD_LEN {
            sums.push(checksum(&block));
            out.write_all(&block)?;
            block.clear();
        }
        written += 1;
    }
    if !block.is_empty() {
        sums.push(checksum(&block));
        out.write_all(&block)?;
    }
    if written != rows {
        return Err(io::Error::other(format!(
            "run of {rows} rows was given {written}"
        )));
    }
    let mut tail = Vec::with_capacity(blocks * 16 + 8);
    tail.extend(fences.iter().flat_map(|f| f.to_le_bytes()));
    tail.extend(sums.iter().flat_map(|s| s.to_le_bytes()));
    let trailer = trailer_sum(&header, &tail);
    tail.extend_from_slice(&trailer.to_le_bytes());
    out.write_all(&tail)?;
    let file = out.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    Ok(trailer)
}

/// The checksum of a run's header and of its fences and block sums.
fn trailer_sum(header: &[u8], fences_and_sums: &[u8]) -> u64 {
    let mut c = Checksum::new();
    c.update(header);
    c.update(fences_and_sums);
    c.finish()
}

/// An open run.
#[derive(Debug)]
pub(crate) struct Run {
    path: PathBuf,
    file: File,
    rows: u64,
    fences: Vec<u64>,
    sums: Vec<u64>,
}

impl Run {
    /// Opens the run at `path`, which the manifest lists with `rows` rows
    /// and checksum `sum`, and checks its length and trailer.
    ///
    /// # Errors
    ///
    /// I/O errors (`NotFound` for a missing file); `InvalidData` naming
    /// the file for one that is not that run.
    pub(crate) fn open(path: &Path, rows: u64, sum: u64) -> io::Result<Run> {
        let mut file = File::open(path)?;
        let bad = |why: &str| corrupt(&format!("{}: {why}", path.display()));
        let len = file.metadata()?.len();
        let mut head = [0u8; HEADER as usize];
        if len < HEADER {
            return Err(bad("cut short (shorter than a run's header)"));
        }
        file.read_exact(&mut head)?;
        if &head[..8] == OLD_MAGIC {
            return Err(bad(
                "a run of index format 1 (without checksums): rebuild the index with `sgf index build`",
            ));
        }
        if head != header(rows) {
            return Err(bad(&format!(
                "its header is not that of a run of {rows} rows (damaged or another file)"
            )));
        }
        if Some(len) != run_len(rows) {
            return Err(bad(&format!(
                "{len} bytes where a run of {rows} rows has {} (cut or grown)",
                run_len(rows).unwrap_or(0)
            )));
        }
        let blocks = rows.div_ceil(BLOCK as u64) as usize;
        let mut tail = vec![0u8; blocks * 16 + 8];
        read_at(&file, &mut tail, HEADER + rows * RECORD_LEN as u64)?;
        let (fences_and_sums, trailer) = tail.split_at(blocks * 16);
        let trailer = u64::from_le_bytes(trailer.try_into().expect("8 bytes"));
        if trailer_sum(&head, fences_and_sums) != trailer {
            return Err(bad("checksum mismatch in its fences and block sums"));
        }
        if trailer != sum {
            return Err(bad(
                "not the run the manifest lists (its checksum differs; replaced or damaged)",
            ));
        }
        let words = |b: &[u8]| -> Vec<u64> {
            b.chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
                .collect()
        };
        let (fences, sums) = fences_and_sums.split_at(blocks * 8);
        Ok(Run {
            path: path.to_path_buf(),
            file,
            rows,
            fences: words(fences),
            sums: words(sums),
        })
    }

    pub(crate) fn rows(&self) -> u64 {
        self.rows
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The blocks of the run.
    pub(crate) fn blocks(&self) -> usize {
        self.fences.len()
    }

    /// The fence of block `block`: the hash of its first row.
    pub(crate) fn fence(&self, block: usize) -> u64 {
        self.fences[block]
    }

    /// Reads block `block` into `buf` (cleared first) and checks its sum;
    /// `InvalidData` naming the file and block when it does not match.
    pub(crate) fn read_block(&self, block: usize, buf: &mut Vec<u8>) -> io::Result<()> {
        let start = block as u64 * BLOCK as u64;
        let n = (self.rows - start).min(BLOCK as u64) as usize;
        buf.clear();
        buf.resize(n * RECORD_LEN, 0);
        read_at(&self.file, buf, HEADER + start * RECORD_LEN as u64)?;
        if checksum(buf) != self.sums[block] {
            return Err(corrupt(&format!(
                "{} block {block} (rows {start} to {}): checksum mismatch",
                self.path.display(),
                start + n as u64 - 1
            )));
        }
        Ok(())
    }

    /// Appends the records of `hash` to `out`.
    pub(crate) fn lookup(&self, hash: u64, out: &mut Vec<Record>) -> io::Result<()> {
        // The first block whose first hash is ≥ hash; the rows of `hash`
        // may begin in the block before it.
        let first = self.fences.partition_point(|&f| f < hash);
        let mut buf = Vec::with_capacity(BLOCK * RECORD_LEN);
        for block in first.saturating_sub(1)..self.blocks() {
            self.read_block(block, &mut buf)?;
            for chunk in buf.chunks_exact(RECORD_LEN) {
                let r = Record::from_bytes(chunk);
                if r.hash > hash {
                    return Ok(());
                }
                if r.hash == hash {
                    out.push(r);
                }
            }
        }
        Ok(())
    }

    /// Every record, in order, each block checked as it is read.
    pub(crate) fn iter(&self) -> RunIter<'_> {
        RunIter {
            run: self,
            block: 0,
            buf: Vec::with_capacity(BLOCK * RECORD_LEN),
            at: 0,
            failed: false,
        }
    }
}

/// Fills `buf` from `file` at `offset` without moving a shared file
/// position, so that queries on one open index may run on several threads.
#[cfg(unix)]
pub(crate) fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

/// Fills `buf` from `file` at `offset` (see the Unix version).
#[cfg(windows)]
pub(crate) fn read_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
    use std::os::windows::fs::FileExt as _;
    while !buf.is_empty() {
        match file.seek_read(buf, offset) {
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// The records of a run, read in order a block at a time.
pub(crate) struct RunIter<'r> {
    run: &'r Run,
    block: usize,
    buf: Vec<u8>,
    at: usize,
    failed: bool,
}

impl Iterator for RunIter<'_> {
    type Item = io::Result<Record>;

    fn next(&mut self) -> Option<io::Result<Record>> {
        if self.failed {
            return None;
        }
        if self.at == self.buf.len() {
            if self.block == self.run.blocks() {
                return None;
            }
            if let Err(e) = self.run.read_block(self.block, &mut self.buf) {
                self.failed = true;
                return Some(Err(e));
            }
            self.block += 1;
            self.at = 0;
        }
        let r = Record::from_bytes(&self.buf[self.at..self.at + RECORD_LEN]);
        self.at += RECORD_LEN;
        Some(Ok(r))
    }
}

/// The records of several sorted sources, merged in order.
pub(crate) fn merge<I>(sources: Vec<I>) -> impl Iterator<Item = io::Result<Record>>
where
    I: Iterator<Item = io::Result<Record>>,
{
    let mut sources = sources;
    let mut heap = BinaryHeap::new();
    let mut pending: Option<io::Error> = None;
    for (i, s) in sources.iter_mut().enumerate() {
        match s.next() {
            Some(Ok(r)) => heap.push(Reverse((r, i))),
            Some(Err(e)) => pending = Some(e),
            None => {}
        }
    }
    std::iter::from_fn(move || {
        if let Some(e) = pending.take() {
            return Some(Err(e));
        }
        let Reverse((r, i)) = heap.pop()?;
        match sources[i].next() {
            Some(Ok(n)) => heap.push(Reverse((n, i))),
            Some(Err(e)) => pending = Some(e),
            None => {}
        }
        Some(Ok(r))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Symmetry;
    use crate::index::record::Winner;

    fn rec(hash: u64, game: u32) -> Record {
        Record::new(hash, game, Winner::Unknown, 0, Symmetry::Identity, None)
    }

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("sgf-grove-run-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn lookups_across_blocks() {
        let dir = temp("blocks");
        // Hashes 0..: three rows each, then one hash of 1,500 rows (over
        // three blocks), then hashes with gaps.
        let mut rows: Vec<Record> = (0..3000u32).map(|i| rec(u64::from(i / 3) * 2, i)).collect();
        rows.extend((0..1500).map(|i| rec(5000, i)));
        rows.extend((0..700u32).map(|i| rec(6000 + u64::from(i) * 10, i)));
        rows.sort_unstable();
        let path = dir.join("run-000001.pos");
        let sum = write_run(&path, rows.len() as u64, rows.iter().copied().map(Ok)).unwrap();
        // A run is never overwritten.
        let again = write_run(&path, 0, std::iter::empty());
        assert_eq!(again.unwrap_err().kind(), io::ErrorKind::AlreadyExists);
        let run = Run::open(&path, rows.len() as u64, sum).unwrap();
        assert_eq!(run.rows(), rows.len() as u64);
        let find = |h: u64| {
            let mut out = Vec::new();
            run.lookup(h, &mut out).unwrap();
            out
        };
        for h in (0..1000u64).map(|i| i * 2) {
            let found = find(h);
            assert_eq!(found.len(), 3, "hash {h}");
            assert!(found.iter().all(|r| r.hash == h));
            assert!(find(h + 1).is_empty(), "hash {}", h + 1);
        }
        assert_eq!(find(5000).len(), 1500);
        assert_eq!(find(6000 + 699 * 10).len(), 1);
        assert!(find(6000 + 699 * 10 + 1).is_empty());
        assert!(find(u64::MAX).is_empty());
        // Every row back, in order; two runs merged in order.
        let all: Vec<Record> = run.iter().map(Result::unwrap).collect();
        assert_eq!(all, rows);
        let merged: Vec<Record> = merge(vec![run.iter(), run.iter()])
            .map(Result::unwrap)
            .collect();
        assert_eq!(merged.len(), rows.len() * 2);
        assert!(merged.windows(2).all(|w| w[0] <= w[1]));
        // A damaged run is refused.
        std::fs::write(dir.join("bad.pos"), b"SGFIRUN1 too short").unwrap();
        assert!(Run::open(&dir.join("bad.pos"), 0, 0).is_err());
        assert!(Run::open(&path, rows.len() as u64, sum ^ 1).is_err());
        assert!(Run::open(&path, rows.len() as u64 - 1, sum).is_err());
        let empty = dir.join("run-000002.pos");
        let empty_sum = write_run(&empty, 0, std::iter::empty()).unwrap();
        let mut out = Vec::new();
        Run::open(&empty, 0, empty_sum)
            .unwrap()
            .lookup(0, &mut out)
            .unwrap();
        assert!(out.is_empty());
        // A changed row: the lookups that read its block fail, naming it;
        // the others still answer.
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEADER as usize + 3 * BLOCK * RECORD_LEN + 40] ^= 4;
        let damaged = dir.join("run-000003.pos");
        std::fs::write(&damaged, &bytes).unwrap();
        let run = Run::open(&damaged, rows.len() as u64, sum).unwrap();
        let mut out = Vec::new();
        let why = run.lookup(rows[3 * BLOCK].hash, &mut out).unwrap_err();
        assert_eq!(why.kind(), io::ErrorKind::InvalidData);
        assert!(why.to_string().contains("run-000003.pos block 3"), "{why}");
        run.lookup(0, &mut out).unwrap();
        assert_eq!(out.len(), 3);
        assert!(run.iter().any(|r| r.is_err()));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
