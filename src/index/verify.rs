//! Checking a whole index: [`verify`] reads every file and every block
//! and checks every checksum and that the manifest and the files hold
//! together; [`repair`] removes what an interrupted writer left.

use super::builder::{open_listed, read_games, remove_leftovers};
use super::lock::WriteLock;
use super::manifest::{file_number, Manifest};
use super::moves::{open_moves, MovesReader};
use super::record::{Record, RECORD_LEN};
use super::run::Run;
use std::collections::HashSet;
use std::fs::File;
use std::io;
use std::path::Path;

/// Problems named per run before the rest are counted only.
const PROBLEMS_PER_RUN: usize = 20;

/// What [`verify`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verification {
    /// Games in the games table (as the manifest says).
    pub games: u32,
    /// Position rows in the runs (as the manifest says).
    pub rows: u64,
    /// Runs listed in the manifest.
    pub runs: usize,
    /// Blocks of rows read and checked.
    pub blocks: u64,
    /// Moves files listed in the manifest (none for an index of format
    /// 2, which a pattern search refuses).
    pub moves_files: usize,
    /// Blocks of the moves files read and checked.
    pub moves_blocks: u64,
    /// Bytes of the files that make the index.
    pub bytes: u64,
    /// The damage found, each naming the file (and the block): empty when
    /// the index is sound.
    pub problems: Vec<String>,
    /// Files that are not part of the index and that no reader looks at:
    /// run files the manifest does not list and temporary files, left by
    /// an interrupted writer (or being written by one at work, see
    /// [`Verification::writer_active`]). [`repair`] removes them, and so
    /// does the next writer.
    pub leftovers: Vec<String>,
    /// Whether a writer held the index's lock while it was checked.
    pub writer_active: bool,
}

impl Verification {
    /// Whether no damage was found (leftovers are no damage).
    pub fn is_sound(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Reads the whole index in folder `dir` and checks it: the manifest's
/// checksum and consistency, every run's length, checksum and every
/// block's checksum, fences and order, every row's game, every block of
/// every moves file and each file's checksum, every entry of the games
/// table and both its checksums. Damage is reported in
/// [`Verification::problems`], not as an error.
///
/// ```
/// use sgf_grove::index::{verify, GameEntry, IndexBuilder};
///
/// let dir = std::env::temp_dir().join(format!("sgf-grove-verify-doc-{}", std::process::id()));
/// # let _ = std::fs::remove_dir_all(&dir);
/// let doc = sgf_grove::parse(b"(;B[pd];W[dd])")?;
/// let mut builder = IndexBuilder::open(&dir)?;
/// builder.push(GameEntry::new(doc.games().next().unwrap(), "a.sgf", 0, false))?;
/// builder.finish()?;
/// let report = verify(&dir)?;
/// assert!(report.is_sound(), "{:?}", report.problems);
/// assert_eq!((report.games, report.rows), (1, 2));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// A folder without an index (`NotFound`), I/O errors other than damage.
pub fn verify(dir: impl AsRef<Path>) -> io::Result<Verification> {
    let dir = dir.as_ref();
    let mut report = Verification {
        writer_active: WriteLock::is_held(dir),
        ..Verification::default()
    };
    let manifest = match Manifest::read(dir) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::InvalidData => {
            report.problems.push(e.to_string());
            return Ok(report);
        }
        Err(e) => return Err(e),
    };
    report.games = manifest.games;
    report.rows = manifest.rows();
    report.runs = manifest.runs.len();
    report.bytes = std::fs::metadata(Manifest::path(dir))?.len();
    report.moves_files = manifest.moves.len();
    let listed: HashSet<&str> = manifest
        .runs
        .iter()
        .map(|r| r.name.as_str())
        .chain(manifest.moves.iter().map(|m| m.name.as_str()))
        .collect();
    for entry in std::fs::read_dir(dir)? {
        let name = entry?.file_name();
        let Some(name) = name.to_str() else { continue };
        let stray = file_number(name).is_some() && !listed.contains(name);
        if stray || name.ends_with(".tmp") {
            report.leftovers.push(name.to_owned());
        }
    }
    report.leftovers.sort();
    for entry in &manifest.runs {
        match open_listed(dir, entry) {
            Ok(run) => {
                report.bytes += std::fs::metadata(run.path())?.len();
                check_run(&run, manifest.games, &mut report);
            }
            Err(e) if e.kind() == io::ErrorKind::InvalidData => report.problems.push(e.to_string()),
            Err(e) => return Err(e),
        }
    }
    for f in &manifest.moves {
        let path = dir.join(&f.name);
        let checked = (|| -> io::Result<()> {
            let file = open_moves(&path, f.bytes)?;
            let mut reader = MovesReader::new(&path, &file, f.first_game, f.games, f.bytes);
            report.bytes += f.bytes;
            while reader.next_block()?.is_some() {
                report.moves_blocks += 1;
            }
            if reader.sum() != f.sum {
                return Err(super::games::corrupt(&format!(
                    "{}: checksum mismatch with the manifest",
                    path.display()
                )));
            }
            Ok(())
        })();
        match checked {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::InvalidData => report.problems.push(e.to_string()),
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => report
                .problems
                .push(format!("corrupt index: {}: cut", path.display())),
            Err(e) => return Err(e),
        }
    }
    match check_games(dir, &manifest) {
        Ok(bytes) => report.bytes += bytes,
        Err(e) if e.kind() == io::ErrorKind::InvalidData => report.problems.push(e.to_string()),
        Err(e) => return Err(e),
    }
    Ok(report)
}

/// Every block of `run`: checksum, fence, order, games.
fn check_run(run: &Run, games: u32, report: &mut Verification) {
    let mut problems = Vec::new();
    let mut buf = Vec::new();
    let mut last: Option<Record> = None;
    for block in 0..run.blocks() {
        report.blocks += 1;
        if let Err(e) = run.read_block(block, &mut buf) {
            problems.push(e.to_string());
            last = None;
            continue;
        }
        let mut why = None;
        for (i, chunk) in buf.chunks_exact(RECORD_LEN).enumerate() {
            let r = Record::from_bytes(chunk);
            if i == 0 && r.hash != run.fence(block) {
                why = Some("its first row is not its fence".to_owned());
            } else if last.is_some_and(|l| l > r) {
                why = Some(format!("row {i} is out of order"));
            } else if r.game_id() >= games {
                why = Some(format!(
                    "row {i} is of game {}, past the {games} games of the index",
                    r.game_id()
                ));
            }
            if why.is_some() {
                break;
            }
            last = Some(r);
        }
        if let Some(why) = why {
            problems.push(format!("{} block {block}: {why}", run.path().display()));
        }
    }
    if problems.len() > PROBLEMS_PER_RUN {
        let more = problems.len() - PROBLEMS_PER_RUN;
        problems.truncate(PROBLEMS_PER_RUN);
        problems.push(format!(
            "{}: {more} more damaged blocks",
            run.path().display()
        ));
    }
    report.problems.append(&mut problems);
}

/// The games table, every entry; returns its bytes.
fn check_games(dir: &Path, manifest: &Manifest) -> io::Result<u64> {
    let open = |name: &str| {
        File::open(dir.join(name)).map_err(|e| {
            if e.kind() == io::ErrorKind::NotFound {
                super::games::corrupt(&format!("{}: missing", dir.join(name).display()))
            } else {
                e
            }
        })
    };
    let (mut dat, mut off) = (open("games.dat")?, open("games.off")?);
    let bytes = dat.metadata()?.len() + off.metadata()?.len();
    if dat.metadata()?.len() < manifest.games_bytes
        || off.metadata()?.len() < u64::from(manifest.games) * super::games::OFF_LEN
    {
        return Err(super::games::corrupt(&format!(
            "{}: the games table is shorter than the manifest says (cut)",
            dir.display()
        )));
    }
    read_games(dir, manifest, &mut dat, &mut off).map_err(|e| {
        if e.kind() == io::ErrorKind::UnexpectedEof {
            super::games::corrupt(&format!(
                "{}: the games table is cut",
                dir.join("games.dat").display()
            ))
        } else {
            e
        }
    })?;
    Ok(bytes)
}

/// Removes what an interrupted writer left in the index folder `dir` (see
/// [`Verification::leftovers`]); returns the names removed. Takes the
/// index's lock.
///
/// # Errors
///
/// `WouldBlock` while a writer is at work, a folder without an index,
/// a damaged manifest, I/O errors.
pub fn repair(dir: impl AsRef<Path>) -> io::Result<Vec<String>> {
    let dir = dir.as_ref();
    if !Manifest::path(dir).exists() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!("{}: no index (no manifest)", dir.display()),
        ));
    }
    let _lock = WriteLock::take(dir, false)?;
    let manifest = Manifest::read(dir)?;
    Ok(remove_leftovers(dir, &manifest)?.0)
}
