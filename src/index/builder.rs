//! Adding games to an index: [`IndexBuilder`].

use super::checksum::Checksum;
use super::games::{corrupt, off_entry, read_off_entry, GameMeta, OFF_LEN};
use super::lock::{WriteLock, LOCK_FILE};
use super::manifest::{file_number, is_moves_name, Manifest, MovesEntry, RunEntry};
use super::moves::{open_moves, MovesReader, MovesWriter};
use super::positions::GameEntry;
use super::record::{Record, MAX_GAMES};
use super::run::{merge, write_run, Run};
use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Rows kept in memory before they are sorted and written as a run, by
/// default: 32 Mi rows, 512 MiB.
pub const DEFAULT_BUFFER_ROWS: usize = 32 << 20;

/// Adds games to a new or existing index (a folder), without rewriting
/// what it holds: the games go to the end of the games table, their rows
/// to new sorted runs; [`IndexBuilder::finish`] commits them at once (an
/// index read before that, or left by a builder that was dropped, failed
/// or killed, holds the games it held before). A game whose origin and
/// index in its file are already in the index is not added again.
///
/// One writer at a time: a builder holds the index's lock file
/// (`INDEX/lock`, an advisory lock of the system) from
/// [`IndexBuilder::open`] until it is finished or dropped; a second
/// writer fails at once ([`IndexBuilder::open`], `WouldBlock`) or waits
/// ([`IndexBuilder::open_waiting`]). Readers need no lock.
///
/// What an interrupted writer left (run files the manifest does not list,
/// temporary files, games appended past the committed ones) is never
/// read; the next writer removes it and names the files in
/// [`IndexBuilder::removed`].
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
    _lock: WriteLock,
    dir: PathBuf,
    /// What an interrupted writer had left, removed when opening.
    removed: Vec<String>,
    /// Checksums of the games table as it grows.
    dat_sum: Checksum,
    off_sum: Checksum,
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
    new_runs: Vec<RunEntry>,
    /// The moves file of the games added (format 3), made at the first.
    moves: Option<MovesWriter>,
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
    /// `WouldBlock` when another writer holds the index's lock; I/O
    /// errors; a folder with files but no index; a damaged index
    /// (`InvalidData`, naming the file): nothing is added to one.
    pub fn open(dir: impl AsRef<Path>) -> io::Result<IndexBuilder> {
        IndexBuilder::open_with(dir.as_ref(), false)
    }

    /// [`IndexBuilder::open`], waiting for another writer of the index to
    /// end rather than failing.
    ///
    /// # Errors
    ///
    /// As [`IndexBuilder::open`], but for `WouldBlock`.
    pub fn open_waiting(dir: impl AsRef<Path>) -> io::Result<IndexBuilder> {
        IndexBuilder::open_with(dir.as_ref(), true)
    }

    fn open_with(dir: &Path, wait: bool) -> io::Result<IndexBuilder> {
        let dir = dir.to_path_buf();
        std::fs::create_dir_all(&dir)?;
        let lock = WriteLock::take(&dir, wait)?;
        let mut manifest = match Manifest::read(&dir) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                for entry in std::fs::read_dir(&dir)? {
                    let name = entry?.file_name();
                    if name != LOCK_FILE && name != "manifest.tmp" && name != MOVES_TMP {
                        return Err(io::Error::other(format!(
                            "{} is a folder that holds files but no index (no manifest)",
                            dir.display()
                        )));
                    }
                }
                let m = Manifest::empty();
                m.write(&dir)?;
                m
            }
            Err(e) => return Err(e),
        };
        let (removed, next_run) = remove_leftovers(&dir, &manifest)?;
        manifest.next_run = next_run;
        // The runs are checked (length and trailer) before games are added
        // to them.
        for run in &manifest.runs {
            open_listed(&dir, run)?;
        }
        for f in &manifest.moves {
            open_moves(&dir.join(&f.name), f.bytes)?;
        }
        let mut dat = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(dir.join("games.dat"))?;
        let mut off = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(dir.join("games.off"))?;
        let off_bytes = u64::from(manifest.games) * OFF_LEN;
        if dat.metadata()?.len() < manifest.games_bytes || off.metadata()?.len() < off_bytes {
            return Err(corrupt(&format!(
                "{}: the games table is shorter than the manifest says (cut)",
                dir.display()
            )));
        }
        // What an unfinished builder appended is not part of the index.
        dat.set_len(manifest.games_bytes)?;
        off.set_len(off_bytes)?;
        let (origins, dat_sum, off_sum) = read_games(&dir, &manifest, &mut dat, &mut off)?;
        dat.seek(SeekFrom::End(0))?;
        off.seek(SeekFrom::End(0))?;
        Ok(IndexBuilder {
            _lock: lock,
            dir,
            removed,
            dat_sum,
            off_sum,
            manifest,
            origins,
            games_dat: BufWriter::with_capacity(1 << 20, dat),
            games_off: BufWriter::new(off),
            pending_bytes: 0,
            encoded: Vec::new(),
            buffer: Vec::new(),
            new_runs: Vec::new(),
            moves: None,
            buffer_rows: DEFAULT_BUFFER_ROWS,
            added: BuildStats::default(),
        })
    }

    /// Test surface, not API: makes a new, empty index one of format 2
    /// (no moves files), as versions before them wrote. Nothing changes
    /// for an index that holds games.
    #[doc(hidden)]
    #[must_use]
    pub fn format_2(mut self) -> IndexBuilder {
        if self.manifest.games == 0 && self.added.games == 0 {
            self.manifest.format = 2;
        }
        self
    }

    /// Whether the index keeps the moves a pattern search replays (format
    /// 3): false for an index of format 2, to which games are added
    /// without them (rebuild it to search patterns).
    pub fn has_moves(&self) -> bool {
        self.manifest.format >= 3
    }

    /// The files an interrupted writer had left in the index folder (run
    /// files the manifest did not list, temporary files), removed by
    /// [`IndexBuilder::open`].
    pub fn removed(&self) -> &[String] {
        &self.removed
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
        self.dat_sum.update(&self.encoded);
        self.pending_bytes += self.encoded.len() as u64;
        let off = off_entry(offset, &self.encoded);
        self.games_off.write_all(&off)?;
        self.off_sum.update(&off);
        if self.manifest.format >= 3 {
            if self.moves.is_none() {
                // Named once the runs are: see `finish`.
                self.moves = Some(MovesWriter::create(&self.dir.join(MOVES_TMP), id)?);
            }
            if let Some(w) = self.moves.as_mut() {
                w.push(&entry.moves)?;
            }
        }
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
        let sum = write_run(&self.dir.join(&name), rows, self.buffer.drain(..).map(Ok))?;
        self.new_runs.push(RunEntry { name, rows, sum });
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
        self.manifest.games_dat_sum = self.dat_sum.finish();
        self.manifest.games_off_sum = self.off_sum.finish();
        self.manifest.runs.append(&mut self.new_runs);
        if let Some(w) = self.moves.take() {
            let (first_game, games, bytes, sum) = w.finish()?;
            let name = Manifest::moves_name(self.manifest.next_run);
            self.manifest.next_run += 1;
            std::fs::rename(self.dir.join(MOVES_TMP), self.dir.join(&name))?;
            self.manifest.moves.push(MovesEntry {
                name,
                first_game,
                games,
                bytes,
                sum,
            });
        }
        self.manifest.write(&self.dir)?;
        Ok(self.added)
    }
}

/// The moves file being written by a builder, renamed to its number
/// (after its runs') when the builder finishes.
pub(crate) const MOVES_TMP: &str = "moves.tmp";

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

/// Opens run `run` of the index in `dir`, a missing file named as such.
pub(crate) fn open_listed(dir: &Path, run: &RunEntry) -> io::Result<Run> {
    let path = dir.join(&run.name);
    Run::open(&path, run.rows, run.sum).map_err(|e| {
        if e.kind() == io::ErrorKind::NotFound {
            corrupt(&format!(
                "{}: listed in the manifest but missing",
                path.display()
            ))
        } else {
            e
        }
    })
}

/// What [`read_games`] gives: the (origin, index) of every game, the
/// checksums of `games.dat` and `games.off` so far.
pub(crate) type GamesRead = (HashSet<(String, u32)>, Checksum, Checksum);

/// Reads the committed games table of the index in `dir` (`dat` and
/// `off` already cut to it): every entry checked against its checksum and
/// offset, both files against the manifest's sums. Returns the (origin,
/// index) of every game and the checksums to go on from.
pub(crate) fn read_games(
    dir: &Path,
    manifest: &Manifest,
    dat: &mut File,
    off: &mut File,
) -> io::Result<GamesRead> {
    let table = |why: String| corrupt(&format!("{}: {why}", dir.join("games.dat").display()));
    let mut origins = HashSet::with_capacity(manifest.games as usize);
    let (mut dat_sum, mut off_sum) = (Checksum::new(), Checksum::new());
    dat.seek(SeekFrom::Start(0))?;
    off.seek(SeekFrom::Start(0))?;
    let mut dat_in = BufReader::with_capacity(1 << 20, &mut *dat);
    let mut off_in = BufReader::with_capacity(1 << 16, &mut *off);
    let mut offset = 0u64;
    for id in 0..manifest.games {
        let mut entry = [0u8; OFF_LEN as usize];
        off_in.read_exact(&mut entry)?;
        off_sum.update(&entry);
        let (meta, bytes) = GameMeta::read_from(&mut dat_in, manifest.games_bytes - offset)
            .map_err(|e| table(format!("game {id}: {e}")))?;
        if off_entry(offset, &bytes) != entry {
            let (at, _) = read_off_entry(&entry);
            return Err(table(format!(
                "game {id}: its entry at byte {offset} does not match games.off \
                 (which says byte {at}; checksum mismatch)"
            )));
        }
        dat_sum.update(&bytes);
        offset += bytes.len() as u64;
        origins.insert((meta.origin, meta.index));
    }
    if offset != manifest.games_bytes {
        return Err(table(format!(
            "{offset} bytes of games where the manifest says {}",
            manifest.games_bytes
        )));
    }
    if dat_sum.finish() != manifest.games_dat_sum || off_sum.finish() != manifest.games_off_sum {
        return Err(table("checksum mismatch with the manifest".into()));
    }
    Ok((origins, dat_sum, off_sum))
}

/// Removes what an unfinished update left (the caller holds the lock):
/// temporary files, and run and moves files the manifest does not list.
/// Returns their names and the number of the next run: past the
/// manifest's and past every run or moves file there was, so that no file
/// is ever written over.
pub(crate) fn remove_leftovers(dir: &Path, manifest: &Manifest) -> io::Result<(Vec<String>, u64)> {
    let listed: HashSet<&str> = manifest
        .runs
        .iter()
        .map(|r| r.name.as_str())
        .chain(manifest.moves.iter().map(|m| m.name.as_str()))
        .collect();
    let mut removed = Vec::new();
    let mut next_run = manifest.next_run;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if let Some(n) = file_number(name) {
            next_run = next_run.max(n.saturating_add(1));
        }
        let stray_run = file_number(name).is_some() && !listed.contains(name);
        let tmp = name.ends_with(".tmp")
            && (name.starts_with("run-") || name == "manifest.tmp" || name == MOVES_TMP);
        if stray_run || tmp {
            std::fs::remove_file(entry.path())?;
            removed.push(name.to_owned());
        }
    }
    removed.sort();
    Ok((removed, next_run))
}

/// Merges every run of the index in folder `dir` into one (queries then
/// read one run instead of several), and its moves files into one;
/// returns the rows. Nothing changes for an index of one run and one
/// moves file or fewer. Takes the index's lock (fails with `WouldBlock`
/// while another writer holds it); every block is checked as it is
/// merged, so a damaged run or moves file is never carried into the new
/// one.
///
/// # Errors
///
/// I/O errors, a damaged index; the index then holds what it held before.
pub fn compact(dir: impl AsRef<Path>) -> io::Result<u64> {
    let dir = dir.as_ref();
    if !Manifest::path(dir).exists() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!("{}: no index (no manifest)", dir.display()),
        ));
    }
    let _lock = WriteLock::take(dir, false)?;
    let mut manifest = Manifest::read(dir)?;
    let rows = manifest.rows();
    if manifest.runs.len() <= 1 && manifest.moves.len() <= 1 {
        return Ok(rows);
    }
    let (_, next_run) = remove_leftovers(dir, &manifest)?;
    manifest.next_run = next_run;
    let mut old: Vec<String> = Vec::new();
    let mut runs = Vec::new();
    if manifest.runs.len() > 1 {
        runs = manifest
            .runs
            .iter()
            .map(|run| open_listed(dir, run))
            .collect::<io::Result<Vec<Run>>>()?;
        let iters = runs.iter().map(Run::iter).collect();
        let name = Manifest::run_name(manifest.next_run);
        manifest.next_run += 1;
        let sum = write_run(&dir.join(&name), rows, merge(iters))?;
        let was = std::mem::replace(&mut manifest.runs, vec![RunEntry { name, rows, sum }]);
        old.extend(was.into_iter().map(|r| r.name));
    }
    if manifest.moves.len() > 1 {
        let name = Manifest::moves_name(manifest.next_run);
        manifest.next_run += 1;
        let merged = concat_moves(dir, &manifest.moves, &name);
        let merged = match merged {
            Ok(m) => m,
            Err(e) => {
                let _ = std::fs::remove_file(dir.join(&name));
                if let Some(run) = manifest.runs.first().filter(|_| !old.is_empty()) {
                    let _ = std::fs::remove_file(dir.join(&run.name));
                }
                return Err(e);
            }
        };
        let was = std::mem::replace(&mut manifest.moves, vec![merged]);
        old.extend(was.into_iter().map(|m| m.name));
    }
    manifest.write(dir)?;
    drop(runs);
    // Once the manifest no longer lists them, the old files are leftovers:
    // one that cannot be removed now is by the next writer.
    for name in old {
        let _ = std::fs::remove_file(dir.join(name));
    }
    Ok(rows)
}

/// Writes the blocks of the moves files `files` (each checked as it is
/// read) one after the other into a new file `name`.
fn concat_moves(dir: &Path, files: &[MovesEntry], name: &str) -> io::Result<MovesEntry> {
    debug_assert!(is_moves_name(name));
    let path = dir.join(name);
    let file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    let mut sum = super::checksum::Checksum::new();
    let mut bytes = 0u64;
    let mut games = 0u32;
    for f in files {
        let path = dir.join(&f.name);
        let file = open_moves(&path, f.bytes)?;
        let mut reader = MovesReader::new(&path, &file, f.first_game, f.games, f.bytes);
        while reader.next_block()?.is_some() {
            let block = reader.block_bytes();
            out.write_all(block)?;
            sum.update(block);
            bytes += block.len() as u64;
        }
        if reader.sum() != f.sum {
            return Err(corrupt(&format!(
                "{}: checksum mismatch with the manifest",
                dir.join(&f.name).display()
            )));
        }
        games += f.games;
    }
    out.flush()?;
    out.get_ref().sync_all()?;
    Ok(MovesEntry {
        name: name.to_owned(),
        first_game: files.first().map_or(0, |f| f.first_game),
        games,
        bytes,
        sum: sum.finish(),
    })
}
