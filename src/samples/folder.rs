//! A folder of samples: shards of a fixed number of shuffled samples, the
//! games table they point into, and a manifest written last.

use super::layout::{span, Augment, Dtype, Layout, COLUMNS, RULES};
use super::npz::NpzWriter;
use super::shuffle::Shuffler;
use crate::atomic::{remove_stale_in, sync_batch, Hooks, Replace};
use crate::table::{GameRow, JsonLinesWriter, RowWriter};
use std::error::Error as StdError;
use std::fmt;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// The file format of the shards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ShardFormat {
    /// NumPy `.npz` (stored, not compressed): one array per column,
    /// `numpy.load` reads it. The games table is `games.jsonl`.
    #[default]
    Npz,
    /// Parquet (snappy), one row group a shard, `features` a fixed-size
    /// binary column. The games table is `games.parquet`. Feature
    /// `parquet`.
    #[cfg(feature = "parquet")]
    Parquet,
}

impl ShardFormat {
    fn extension(self) -> &'static str {
        match self {
            ShardFormat::Npz => "npz",
            #[cfg(feature = "parquet")]
            ShardFormat::Parquet => "parquet",
        }
    }
}

/// How a folder of samples is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FolderOptions {
    shard_size: usize,
    window: usize,
    format: ShardFormat,
    pub(super) packed: bool,
}

impl Default for FolderOptions {
    fn default() -> FolderOptions {
        FolderOptions::new()
    }
}

impl FolderOptions {
    /// 16,384 samples a shard, a window of 65,536, `.npz`, packed planes.
    pub fn new() -> FolderOptions {
        FolderOptions {
            shard_size: 16_384,
            window: 65_536,
            format: ShardFormat::Npz,
            packed: true,
        }
    }

    /// Samples per shard (at least 1); the last shard holds the rest.
    /// Default: 16,384 (13 MB of 19×19 samples with 17 packed planes).
    #[must_use]
    pub fn shard_size(mut self, samples: usize) -> FolderOptions {
        self.shard_size = samples.max(1);
        self
    }

    /// Samples held to shuffle (0 or 1: the input order). Memory is this
    /// many records. Default: 65,536 (54 MB of 19×19 samples with 17
    /// packed planes).
    #[must_use]
    pub fn window(mut self, samples: usize) -> FolderOptions {
        self.window = samples;
        self
    }

    /// The shards' format. Default: `.npz`.
    #[must_use]
    pub fn format(mut self, format: ShardFormat) -> FolderOptions {
        self.format = format;
        self
    }

    /// Whether planes are stored packed, a bit a point (`true`), or a
    /// byte a point, shape `(n, planes, rows, cols)`. Default: packed.
    #[must_use]
    pub fn packed(mut self, packed: bool) -> FolderOptions {
        self.packed = packed;
        self
    }
}

/// A failure to write a folder of samples: what was being done, and the
/// error underneath.
#[derive(Debug)]
pub struct SampleError {
    what: String,
    source: Box<dyn StdError + Send + Sync>,
}

impl SampleError {
    fn new(what: impl Into<String>, source: impl Into<Box<dyn StdError + Send + Sync>>) -> Self {
        SampleError {
            what: what.into(),
            source: source.into(),
        }
    }

    /// The I/O error underneath, if it is one.
    pub fn io_kind(&self) -> Option<io::ErrorKind> {
        self.source.downcast_ref::<io::Error>().map(io::Error::kind)
    }
}

impl fmt::Display for SampleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.what, self.source)
    }
}

impl StdError for SampleError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        Some(&*self.source)
    }
}

/// A shard written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardInfo {
    /// Its file name in the folder.
    pub file: String,
    /// Its samples.
    pub samples: usize,
    /// Its size in bytes.
    pub bytes: u64,
}

/// What a finished folder holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FolderSummary {
    /// Samples in all shards.
    pub samples: u64,
    /// Games in the games table (those that gave samples).
    pub games: u64,
    /// The shards, in order.
    pub shards: Vec<ShardInfo>,
}

/// The name of the manifest: a folder is a finished set of samples when
/// it has one.
pub const MANIFEST: &str = "manifest.json";
/// The lock file a writer holds while it writes the folder.
const LOCK: &str = ".sgf-grove-samples.lock";

#[allow(clippy::large_enum_variant)] // one a folder
enum Games {
    Jsonl(JsonLinesWriter<BufWriter<Replace>>),
    #[cfg(feature = "parquet")]
    Parquet(crate::table::ParquetWriter<Replace>),
}

/// Writes a folder of samples: shards of [`FolderOptions::shard_size`]
/// samples taken from a shuffling window, the games table (`games.jsonl`
/// or `games.parquet`, without moves; its `id` is the samples' `game`), and
/// `manifest.json` (the layout, the columns, the shards) written last.
///
/// The folder is locked while written (a second writer fails at once).
/// Every file appears whole under its name (written beside it, renamed);
/// at the start the old manifest is removed (synced) and at the end shards
/// of an earlier, larger run are removed, everything is synced, and the
/// new manifest written: a folder with a manifest holds exactly what it
/// lists, and a run killed at any point leaves no manifest.
pub struct SampleWriter {
    dir: PathBuf,
    layout: Layout,
    options: FolderOptions,
    shuffler: Shuffler,
    shard: Vec<u8>,
    shards: Vec<ShardInfo>,
    games: Option<Games>,
    games_file: &'static str,
    samples: u64,
    game_count: u64,
    _lock: File,
}

impl fmt::Debug for SampleWriter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SampleWriter")
            .field("dir", &self.dir)
            .field("samples", &self.samples)
            .field("shards", &self.shards.len())
            .finish_non_exhaustive()
    }
}

impl SampleWriter {
    /// Starts writing samples of `layout` into the folder `dir` (made when
    /// missing).
    ///
    /// # Errors
    ///
    /// The folder cannot be made, locked (another writer has it) or
    /// cleared of its old manifest; the games table cannot be started.
    pub fn create(
        dir: &Path,
        layout: &Layout,
        options: FolderOptions,
    ) -> Result<SampleWriter, SampleError> {
        let at = |what: &str| format!("{what} {}", dir.display());
        fs::create_dir_all(dir).map_err(|e| SampleError::new(at("cannot create"), e))?;
        let lock = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join(LOCK))
            .map_err(|e| SampleError::new(at("cannot lock"), e))?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                return Err(SampleError::new(
                    at("cannot lock"),
                    "another process is writing samples there",
                ))
            }
            Err(fs::TryLockError::Error(e)) => return Err(SampleError::new(at("cannot lock"), e)),
        }
        remove_stale_in(dir);
        match fs::remove_file(dir.join(MANIFEST)) {
            Ok(()) => File::open(dir)
                .and_then(|d| d.sync_all())
                .map_err(|e| SampleError::new(at("cannot sync"), e))?,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(SampleError::new(at("cannot remove the old manifest of"), e)),
        }
        let (games, games_file) = match options.format {
            ShardFormat::Npz => {
                let file = batched(&dir.join("games.jsonl"))?;
                (
                    Games::Jsonl(JsonLinesWriter::new(BufWriter::new(file)).moves(false)),
                    "games.jsonl",
                )
            }
            #[cfg(feature = "parquet")]
            ShardFormat::Parquet => {
                let file = batched(&dir.join("games.parquet"))?;
                let options = crate::table::ParquetOptions::new().moves(false);
                let writer = crate::table::ParquetWriter::new(file, None, options)
                    .map_err(|e| SampleError::new("cannot start games.parquet", e))?;
                (Games::Parquet(writer), "games.parquet")
            }
        };
        Ok(SampleWriter {
            dir: dir.to_path_buf(),
            layout: layout.clone(),
            shuffler: Shuffler::new(
                layout.record_len(),
                options.window,
                layout.options().seed_value(),
            ),
            options,
            shard: Vec::new(),
            shards: Vec::new(),
            games: Some(games),
            games_file,
            samples: 0,
            game_count: 0,
            _lock: lock,
        })
    }

    /// Adds a game: its row goes to the games table (its `id` is the
    /// samples' `game`), its records ([`Encoder::encode`](super::Encoder::encode))
    /// into the window.
    ///
    /// # Errors
    ///
    /// A shard or the games table cannot be written.
    pub fn add_game(&mut self, row: &GameRow, records: &mut [u8]) -> Result<(), SampleError> {
        super::encode::set_game(&self.layout, records, row.id as i64);
        match self.games.as_mut().expect("not finished") {
            Games::Jsonl(w) => w.write_row(row),
            #[cfg(feature = "parquet")]
            Games::Parquet(w) => w.write_row(row),
        }
        .map_err(|e| SampleError::new(format!("cannot write {}", self.games_file), e))?;
        self.game_count += 1;
        let (shuffler, mut take) = self.filler();
        shuffler.push(records, &mut take)
    }

    /// The window, and what takes each record out of it: into the shard
    /// being filled, written when it is full.
    fn filler(
        &mut self,
    ) -> (
        &mut Shuffler,
        impl FnMut(&[u8]) -> Result<(), SampleError> + '_,
    ) {
        let full = self.options.shard_size * self.layout.record_len();
        let Self {
            shuffler,
            shard,
            shards,
            dir,
            layout,
            options,
            samples,
            ..
        } = self;
        let take = move |r: &[u8]| {
            shard.extend_from_slice(r);
            *samples += 1;
            if shard.len() >= full {
                write_shard(dir, layout, options, shards, shard)?;
            }
            Ok(())
        };
        (shuffler, take)
    }

    /// Writes what the window still holds, the games table and the
    /// manifest; syncs the folder.
    ///
    /// # Errors
    ///
    /// A file cannot be written, renamed or synced.
    pub fn finish(mut self) -> Result<FolderSummary, SampleError> {
        let (shuffler, take) = self.filler();
        shuffler.finish(take)?;
        if !self.shard.is_empty() {
            write_shard(
                &self.dir,
                &self.layout,
                &self.options,
                &mut self.shards,
                &mut self.shard,
            )?;
        }
        let games_err = |e| SampleError::new(format!("cannot write {}", self.games_file), e);
        let file = match self.games.take().expect("finished once") {
            Games::Jsonl(w) => w
                .into_inner()
                .map_err(games_err)?
                .into_inner()
                .map_err(|e| SampleError::new("cannot write games.jsonl", e.into_error()))?,
            #[cfg(feature = "parquet")]
            Games::Parquet(w) => w.into_inner().map_err(games_err)?.0,
        };
        file.commit()
            .map_err(|e| SampleError::new("cannot write the games table", e))?;
        // Shards of an earlier run that this one did not write.
        let ours: std::collections::HashSet<&str> =
            self.shards.iter().map(|s| s.file.as_str()).collect();
        if let Ok(entries) = fs::read_dir(&self.dir) {
            for entry in entries.flatten() {
                let name = entry.file_name();
                let name = name.to_string_lossy();
                let old = name.starts_with("shard-")
                    && (name.ends_with(".npz") || name.ends_with(".parquet"))
                    && !ours.contains(name.as_ref());
                if old {
                    fs::remove_file(entry.path()).map_err(|e| {
                        SampleError::new(format!("cannot remove the old shard {name}"), e)
                    })?;
                }
            }
        }
        let games_other = match self.games_file {
            "games.jsonl" => "games.parquet",
            _ => "games.jsonl",
        };
        let _ = fs::remove_file(self.dir.join(games_other));
        sync_batch(&self.dir, &[])
            .map_err(|e| SampleError::new(format!("cannot sync {}", self.dir.display()), e))?;
        let summary = FolderSummary {
            samples: self.samples,
            games: self.game_count,
            shards: self.shards.clone(),
        };
        let manifest = manifest(&self.layout, &self.options, self.games_file, &summary);
        let mut file = Replace::create(&self.dir.join(MANIFEST))
            .map_err(|e| SampleError::new("cannot write the manifest", e))?;
        file.write_all(manifest.as_bytes())
            .map_err(|e| SampleError::new("cannot write the manifest", e))?;
        file.commit()
            .map_err(|e| SampleError::new("cannot write the manifest", e))?;
        Ok(summary)
    }
}

fn batched(path: &Path) -> Result<Replace, SampleError> {
    Replace::batched(path, Hooks::default())
        .map_err(|e| SampleError::new(format!("cannot write {}", path.display()), e))
}

/// Writes the records in `shard` as the next shard and empties it.
fn write_shard(
    dir: &Path,
    layout: &Layout,
    options: &FolderOptions,
    shards: &mut Vec<ShardInfo>,
    shard: &mut Vec<u8>,
) -> Result<(), SampleError> {
    let name = format!("shard-{:06}.{}", shards.len(), options.format.extension());
    let path = dir.join(&name);
    let cannot = |e: io::Error| SampleError::new(format!("cannot write {}", path.display()), e);
    let file = batched(&path)?;
    let n = shard.len() / layout.record_len();
    let columns = Columns::of(layout, shard, options.packed);
    let (file, bytes) = match options.format {
        ShardFormat::Npz => {
            let mut npz = NpzWriter::new(BufWriter::with_capacity(1 << 20, file));
            npz.array(
                "features",
                Dtype::U8,
                &columns.features_shape,
                &columns.features,
            )
            .map_err(cannot)?;
            for (c, data) in COLUMNS.iter().zip(&columns.tail) {
                npz.array(c.name, c.dtype, &[n], data).map_err(cannot)?;
            }
            let (out, bytes) = npz.finish().map_err(cannot)?;
            let file = out.into_inner().map_err(|e| cannot(e.into_error()))?;
            (file, bytes)
        }
        #[cfg(feature = "parquet")]
        ShardFormat::Parquet => super::parquet::write(file, layout, options, &columns)
            .map_err(|e| SampleError::new(format!("cannot write {}", path.display()), e))?,
    };
    file.commit()
        .map_err(|e| SampleError::new(format!("cannot write {}", path.display()), e))?;
    shards.push(ShardInfo {
        file: name,
        samples: n,
        bytes,
    });
    shard.clear();
    Ok(())
}

/// A shard's records turned into columns.
pub(super) struct Columns {
    /// The planes: packed `(n, planes, plane bytes)` or a byte a point,
    /// `(n, planes, rows, cols)`.
    pub(super) features: Vec<u8>,
    pub(super) features_shape: Vec<usize>,
    /// Each of [`COLUMNS`], little-endian values one after another.
    pub(super) tail: Vec<Vec<u8>>,
    pub(super) rows: usize,
}

impl Columns {
    pub(super) fn of(layout: &Layout, records: &[u8], packed: bool) -> Columns {
        let len = layout.record_len();
        let n = records.len() / len;
        let f = layout.features_len();
        let (planes, pb, points) = (layout.planes(), layout.plane_bytes(), layout.points());
        let board = layout.board();
        let (features, features_shape) = if packed {
            let mut out = Vec::with_capacity(n * f);
            for r in records.chunks_exact(len) {
                out.extend_from_slice(&r[..f]);
            }
            (out, vec![n, planes, pb])
        } else {
            let mut out = Vec::with_capacity(n * planes * points);
            for r in records.chunks_exact(len) {
                for plane in r[..f].chunks_exact(pb) {
                    out.extend((0..points).map(|i| plane[i / 8] >> (7 - i % 8) & 1));
                }
            }
            let shape = vec![n, planes, usize::from(board.rows), usize::from(board.cols)];
            (out, shape)
        };
        let tail = (0..COLUMNS.len())
            .map(|c| {
                let (a, b) = span(c);
                let mut out = Vec::with_capacity(n * (b - a));
                for r in records.chunks_exact(len) {
                    out.extend_from_slice(&r[f + a..f + b]);
                }
                out
            })
            .collect();
        Columns {
            features,
            features_shape,
            tail,
            rows: n,
        }
    }
}

/// The manifest's JSON.
pub(super) fn manifest(
    layout: &Layout,
    options: &FolderOptions,
    games_file: &str,
    summary: &FolderSummary,
) -> String {
    use serde_json::json;
    let board = layout.board();
    let augment = match layout.options().augmentation() {
        Augment::None => "none",
        Augment::All => "all",
        Augment::Random => "random",
    };
    let features_shape = if options.packed {
        json!([layout.planes(), layout.plane_bytes()])
    } else {
        json!([layout.planes(), board.rows, board.cols])
    };
    let value = json!({
        "format": "sgf-grove samples",
        "version": 1,
        "board": { "cols": board.cols, "rows": board.rows },
        "history": layout.history(),
        "planes": layout.plane_names(),
        "features": {
            "dtype": "uint8",
            "packed": options.packed,
            "shape": features_shape,
            "unpack": if options.packed {
                format!("numpy.unpackbits(features, axis=2, count={}).reshape(-1, {}, {}, {})",
                    layout.points(), layout.planes(), board.rows, board.cols)
            } else {
                String::new()
            },
        },
        "columns": COLUMNS.iter().map(|c| json!({
            "name": c.name, "dtype": c.dtype.numpy(), "doc": c.doc,
        })).collect::<Vec<_>>(),
        "rules": RULES,
        "augment": augment,
        "seed": layout.options().seed_value(),
        "window": options.window,
        "shard_size": options.shard_size,
        "shard_format": options.format.extension(),
        "games_table": games_file,
        "samples": summary.samples,
        "games": summary.games,
        "shards": summary.shards.iter().map(|s| json!({
            "file": s.file, "samples": s.samples, "bytes": s.bytes,
        })).collect::<Vec<_>>(),
    });
    let mut text = serde_json::to_string_pretty(&value).expect("JSON of plain values");
    text.push('\n');
    text
}
