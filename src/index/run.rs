//! Sorted runs: immutable files of [`Record`]s in (hash, game, moves, next)
//! order, with a fence (the hash of the first record) every
//! [`BLOCK`] records, kept in memory while the run is open.
//!
//! ```text
//! header  32 bytes   b"SGFIRUN1", rows (u64), block (u32), 12 bytes zero
//! rows    rows × 16  the records, sorted
//! fences  ⌈rows / block⌉ × 8   the hash of each block's first record
//! ```
//!
//! A lookup finds the block where a hash may begin among the fences (a
//! binary search in memory), reads that block (8 KiB) and the blocks after
//! it while the hash goes on: one read for a rare position, a sequential
//! read of its rows for a common one.

use super::games::corrupt;
use super::record::{Record, RECORD_LEN};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;

const MAGIC: &[u8; 8] = b"SGFIRUN1";
const HEADER: u64 = 32;
/// Records per fence.
pub(crate) const BLOCK: usize = 512;

/// Writes `rows` records, sorted, from `records` to a new file at `path`
/// (through `path` + `.tmp` and a rename, synced).
pub(crate) fn write_run(
    path: &Path,
    rows: u64,
    records: impl Iterator<Item = io::Result<Record>>,
) -> io::Result<()> {
    let tmp = path.with_extension("tmp");
    let file = File::create(&tmp)?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    let mut header = [0u8; HEADER as usize];
    header[..8].copy_from_slice(MAGIC);
    header[8..16].copy_from_slice(&rows.to_le_bytes());
    header[16..20].copy_from_slice(&(BLOCK as u32).to_le_bytes());
    out.write_all(&header)?;
    let mut fences = Vec::with_capacity((rows as usize).div_ceil(BLOCK));
    let mut written = 0u64;
    let mut last: Option<Record> = None;
    for r in records {
        let r = r?;
        debug_assert!(last.is_none_or(|l| l <= r), "runs are written sorted");
        last = Some(r);
        if written.is_multiple_of(BLOCK as u64) {
            fences.push(r.hash);
        }
        out.write_all(&r.to_bytes())?;
        written += 1;
    }
    if written != rows {
        return Err(io::Error::other(format!(
            "run of {rows} rows was given {written}"
        )));
    }
    for f in fences {
        out.write_all(&f.to_le_bytes())?;
    }
    let file = out.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(&tmp, path)
}

/// An open run.
#[derive(Debug)]
pub(crate) struct Run {
    path: std::path::PathBuf,
    file: File,
    rows: u64,
    fences: Vec<u64>,
}

impl Run {
    pub(crate) fn open(path: &Path) -> io::Result<Run> {
        let mut file = File::open(path)?;
        let mut header = [0u8; HEADER as usize];
        file.read_exact(&mut header)?;
        if &header[..8] != MAGIC {
            return Err(corrupt(&format!("{} is no run file", path.display())));
        }
        let rows = u64::from_le_bytes(header[8..16].try_into().expect("8 bytes"));
        let block = u32::from_le_bytes(header[16..20].try_into().expect("4 bytes")) as usize;
        if block != BLOCK {
            return Err(corrupt(&format!("{}: block of {block}", path.display())));
        }
        let n = (rows as usize).div_ceil(BLOCK);
        let len = file.metadata()?.len();
        if len != HEADER + rows * RECORD_LEN as u64 + n as u64 * 8 {
            return Err(corrupt(&format!("{} has the wrong length", path.display())));
        }
        file.seek(SeekFrom::Start(HEADER + rows * RECORD_LEN as u64))?;
        let mut bytes = vec![0u8; n * 8];
        file.read_exact(&mut bytes)?;
        let fences = bytes
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect();
        Ok(Run {
            path: path.to_path_buf(),
            file,
            rows,
            fences,
        })
    }

    pub(crate) fn rows(&self) -> u64 {
        self.rows
    }

    /// Appends the records of `hash` to `out`.
    pub(crate) fn lookup(&self, hash: u64, out: &mut Vec<Record>) -> io::Result<()> {
        // The first block whose first hash is ≥ hash; the rows of `hash`
        // may begin in the block before it.
        let first = self.fences.partition_point(|&f| f < hash);
        let mut block = first.saturating_sub(1);
        let mut buf = vec![0u8; BLOCK * RECORD_LEN];
        loop {
            let start = block as u64 * BLOCK as u64;
            if start >= self.rows {
                return Ok(());
            }
            let n = (self.rows - start).min(BLOCK as u64) as usize;
            read_at(
                &self.file,
                &mut buf[..n * RECORD_LEN],
                HEADER + start * RECORD_LEN as u64,
            )?;
            for chunk in buf[..n * RECORD_LEN].chunks_exact(RECORD_LEN) {
                let r = Record::from_bytes(chunk);
                if r.hash > hash {
                    return Ok(());
                }
                if r.hash == hash {
                    out.push(r);
                }
            }
            block += 1;
        }
    }

    /// Every record, in order.
    pub(crate) fn iter(&self) -> io::Result<RunIter> {
        // A handle of its own: a clone would share the file position.
        let mut file = File::open(&self.path)?;
        file.seek(SeekFrom::Start(HEADER))?;
        Ok(RunIter {
            reader: BufReader::with_capacity(1 << 20, file),
            left: self.rows,
        })
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

/// The records of a run, read in order.
pub(crate) struct RunIter {
    reader: BufReader<File>,
    left: u64,
}

impl Iterator for RunIter {
    type Item = io::Result<Record>;

    fn next(&mut self) -> Option<io::Result<Record>> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let mut b = [0u8; RECORD_LEN];
        Some(
            self.reader
                .read_exact(&mut b)
                .map(|()| Record::from_bytes(&b)),
        )
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
        write_run(&path, rows.len() as u64, rows.iter().copied().map(Ok)).unwrap();
        let run = Run::open(&path).unwrap();
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
        let all: Vec<Record> = run.iter().unwrap().map(Result::unwrap).collect();
        assert_eq!(all, rows);
        let merged: Vec<Record> = merge(vec![run.iter().unwrap(), run.iter().unwrap()])
            .map(Result::unwrap)
            .collect();
        assert_eq!(merged.len(), rows.len() * 2);
        assert!(merged.windows(2).all(|w| w[0] <= w[1]));
        // A damaged run is refused.
        std::fs::write(dir.join("bad.pos"), b"SGFIRUN1 too short").unwrap();
        assert!(Run::open(&dir.join("bad.pos")).is_err());
        let empty = dir.join("run-000002.pos");
        write_run(&empty, 0, std::iter::empty()).unwrap();
        let mut out = Vec::new();
        Run::open(&empty).unwrap().lookup(0, &mut out).unwrap();
        assert!(out.is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
