//! Adding games to an index: [`IndexBuilder`].

use super::games::{corrupt, GameMeta};
use super::manifest::{is_run_name, Manifest};
use super::positions::GameEntry;
use super::record::{Record, MAX_GAMES};
use super::run::{merge, write_run, Run};
use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Rows kept in memory before they are sorted and written as a run, by
/// default: 32 Mi rows, 512 MiB.
pub const DEFAULT_BUFFER_ROWS: usize = 32 << 20;

/// Adds games to a new or existing index (a folder), without rewriting
/// what it holds: the games go to the end of the games table, their rows
/// to new sorted runs; [`IndexBuilder::finish`] commits them at once (an
/// index read before that, or left by a builder that was dropped or
/// failed, holds the games it held before). A game whose origin and index
/// in its file are already in the index is not added again.
///
/// One builder at a time per index: nothing locks the folder.
///
/// ```
/// use sgf_grove::index::{GameEntry, Index, IndexBuilder};
///
/// let dir = std::env::temp_dir().join(format!("sgf-grove-index-doc-{}", std::process::id()));
/// # let _ = std::fs::remove_dir_all(&dir);
/// let doc = sgf_grove::parse(b"(;SZ[19]PB[Lee]PW[Ke]RE[B+R];B[pd];W[dp];B[pp])")?;
/// let game = doc.games().next().unwrap();
/// let mut builder = IndexBuilder::open(&dir)?;
/// assert!(builder.push(GameEntry::new(game, "a.sgf", 0, false))?);
/// assert!(!builder.push(GameEntry::new(game, "a.sgf", 0, false))?, "already there");
/// builder.finish()?;
///
/// // The position after B[pd] W[dp], asked for mirrored: B at dd, W at pp.
/// let index = Index::open(&dir)?;
/// let search = index.search_moves(19, "dd pp")?;
/// assert_eq!(search.hits.len(), 1);
/// assert_eq!(search.hits[0].move_number, 2);
/// assert_eq!(index.game(search.hits[0].game)?.black, "Lee");
/// // The game's third move, B[pp], mirrored: dp, which is the same move
/// // as pd in this position (symmetric about the diagonal through dd).
/// assert_eq!(search.continuations[0].next.to_string(), "B pd");
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct IndexBuilder {
    dir: PathBuf,
    manifest: Manifest,
    /// (origin, index) of every game in the index and added so far.
    origins: HashSet<(String, u32)>,
    games_dat: BufWriter<File>,
    games_off: BufWriter<File>,
    /// Bytes appended to `games.dat` by this builder.
    pending_bytes: u64,
    encoded: Vec<u8>,
    buffer: Vec<Record>,
    /// Runs written by this builder, not yet in the manifest.
    new_runs: Vec<(String, u64)>,
    buffer_rows: usize,
    added: BuildStats,
}

/// What a builder added.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildStats {
    /// Games added.
    pub games: u64,
    /// Games left out because the index had them.
    pub duplicates: u64,
    /// Position rows added.
    pub rows: u64,
    /// Runs written.
    pub runs: u64,
}

impl IndexBuilder {
    /// Opens the index in folder `dir` to add games, creating the folder
    /// and an empty index when there is none (in a missing or empty
    /// folder only).
    ///
    /// # Errors
    ///
    /// I/O errors, a folder with files but no index, or one whose manifest
    /// is not an index's.
    pub fn open(dir: impl AsRef<Path>) -> io::Result<IndexBuilder> {
        let dir = dir.as_ref().to_path_buf();
        std::fs::create_dir_all(&dir)?;
        let manifest = match Manifest::read(&dir) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                if std::fs::read_dir(&dir)?.next().is_some() {
                    return Err(io::Error::other(format!(
                        "{} is a folder that holds files but no index (no manifest)",
                        dir.display()
                    )));
                }
                let m = Manifest {
                    next_run: 1,
                    ..Manifest::default()
                };
                m.write(&dir)?;
                m
            }
            Err(e) => return Err(e),
        };
        remove_leftovers(&dir, &manifest)?;
        let mut dat = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(dir.join("games.dat"))?;
        let mut off = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join("games.off"))?;
        // What an unfinished builder appended is not part of the index.
        if dat.metadata()?.len() < manifest.games_bytes
            || off.metadata()?.len() < u64::from(manifest.games) * 8
        {
            return Err(corrupt("the games table is shorter than the manifest says"));
        }
        dat.set_len(manifest.games_bytes)?;
        off.set_len(u64::from(manifest.games) * 8)?;
        let mut origins = HashSet::with_capacity(manifest.games as usize);
        {
            dat.seek(SeekFrom::Start(0))?;
            let mut r = BufReader::with_capacity(1 << 20, &mut dat);
            for _ in 0..manifest.games {
                let meta = GameMeta::read_from(&mut r)?;
                origins.insert((meta.origin, meta.index));
            }
        }
        dat.seek(SeekFrom::End(0))?;
        off.seek(SeekFrom::End(0))?;
        Ok(IndexBuilder {
            dir,
            manifest,
            origins,
            games_dat: BufWriter::with_capacity(1 << 20, dat),
            games_off: BufWriter::new(off),
            pending_bytes: 0,
            encoded: Vec::new(),
            buffer: Vec::new(),
            new_runs: Vec::new(),
            buffer_rows: DEFAULT_BUFFER_ROWS,
            added: BuildStats::default(),
        })
    }

    /// Rows kept in memory before a run is written (16 bytes each).
    /// Default: [`DEFAULT_BUFFER_ROWS`], which makes one run of a build of
    /// up to 33 million positions; a larger build writes several runs,
    /// which [`compact`](super::compact) merges.
    #[must_use]
    pub fn buffer_rows(mut self, rows: usize) -> IndexBuilder {
        self.buffer_rows = rows.max(1);
        self
    }

    /// The games in the index, committed or added by this builder.
    pub fn games(&self) -> u64 {
        u64::from(self.manifest.games) + self.added.games
    }

    /// Whether the game `index` of `origin` is in the index (committed or
    /// added by this builder): a caller may skip replaying it.
    pub fn contains(&self, origin: &str, index: usize) -> bool {
        let index = u32::try_from(index).unwrap_or(u32::MAX);
        self.origins.contains(&(origin.to_owned(), index))
    }

    /// Counts a game left out by the caller because
    /// [`IndexBuilder::contains`] said the index has it, in
    /// [`BuildStats::duplicates`].
    pub fn skipped_duplicate(&mut self) {
        self.added.duplicates += 1;
    }

    /// Adds a game; `Ok(false)` when a game of the same origin and index
    /// is in the index already (it is left out).
    ///
    /// # Errors
    ///
    /// I/O errors, and an index that would pass 2³⁰ − 1 games.
    pub fn push(&mut self, entry: GameEntry) -> io::Result<bool> {
        let key = (entry.meta.origin.clone(), entry.meta.index);
        if self.origins.contains(&key) {
            self.added.duplicates += 1;
            return Ok(false);
        }
        let id = self.games();
        if id >= u64::from(MAX_GAMES) {
            return Err(io::Error::other("an index holds at most 2^30 - 1 games"));
        }
        let id = id as u32;
        let offset = self.manifest.games_bytes + self.pending_bytes;
        self.encoded.clear();
        entry.meta.encode(&mut self.encoded);
        self.games_dat.write_all(&self.encoded)?;
        self.pending_bytes += self.encoded.len() as u64;
        self.games_off.write_all(&offset.to_le_bytes())?;
        self.origins.insert(key);
        self.added.games += 1;
        self.added.rows += entry.records.len() as u64;
        self.buffer.extend(entry.records.into_iter().map(|mut r| {
            r.game |= id;
            r
        }));
        if self.buffer.len() >= self.buffer_rows {
            self.spill()?;
        }
        Ok(true)
    }

    /// Sorts the buffer and writes it as a new run.
    fn spill(&mut self) -> io::Result<()> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        sort(&mut self.buffer);
        let name = Manifest::run_name(self.manifest.next_run);
        self.manifest.next_run += 1;
        let rows = self.buffer.len() as u64;
        write_run(&self.dir.join(&name), rows, self.buffer.drain(..).map(Ok))?;
        self.new_runs.push((name, rows));
        self.added.runs += 1;
        Ok(())
    }

    /// Writes what is left, then commits the new games and runs to the
    /// manifest; returns what was added.
    ///
    /// # Errors
    ///
    /// I/O errors; the index then holds what it held before.
    pub fn finish(mut self) -> io::Result<BuildStats> {
        self.spill()?;
        self.buffer = Vec::new();
        self.games_dat.flush()?;
        self.games_dat.get_ref().sync_all()?;
        self.games_off.flush()?;
        self.games_off.get_ref().sync_all()?;
        self.manifest.games += self.added.games as u32;
        self.manifest.games_bytes += self.pending_bytes;
        self.manifest.runs.append(&mut self.new_runs);
        self.manifest.write(&self.dir)?;
        Ok(self.added)
    }
}

/// Sorts rows, on all cores with the `parallel` feature.
fn sort(rows: &mut [Record]) {
    #[cfg(feature = "parallel")]
    {
        use rayon::slice::ParallelSliceMut as _;
        rows.par_sort_unstable();
    }
    #[cfg(not(feature = "parallel"))]
    rows.sort_unstable();
}

/// Removes what an unfinished update left: temporary files, and runs the
/// manifest does not list.
fn remove_leftovers(dir: &Path, manifest: &Manifest) -> io::Result<()> {
    let listed: HashSet<&str> = manifest.runs.iter().map(|r| r.0.as_str()).collect();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let stray_run = is_run_name(name) && !listed.contains(name);
        let tmp = name.starts_with("run-") && name.ends_with(".tmp");
        if stray_run || tmp {
            std::fs::remove_file(entry.path())?;
        }
    }
    Ok(())
}

/// Merges every run of the index in folder `dir` into one (queries then
/// read one run instead of several); returns the rows. Nothing changes for
/// an index of one run or none.
///
/// # Errors
///
/// I/O errors; the index then holds what it held before.
pub fn compact(dir: impl AsRef<Path>) -> io::Result<u64> {
    let dir = dir.as_ref();
    let mut manifest = Manifest::read(dir)?;
    let rows = manifest.rows();
    if manifest.runs.len() <= 1 {
        return Ok(rows);
    }
    let runs = manifest
        .runs
        .iter()
        .map(|(name, _)| Run::open(&dir.join(name)))
        .collect::<io::Result<Vec<Run>>>()?;
    let iters = runs.iter().map(Run::iter).collect::<io::Result<Vec<_>>>()?;
    let name = Manifest::run_name(manifest.next_run);
    write_run(&dir.join(&name), rows, merge(iters))?;
    let old = std::mem::replace(&mut manifest.runs, vec![(name, rows)]);
    manifest.next_run += 1;
    manifest.write(dir)?;
    for (name, _) in old {
        std::fs::remove_file(dir.join(name))?;
    }
    Ok(rows)
}
