//! The entry point: [`Inputs`], a list of paths made into [`Sources`] by a
//! folder walk, then scanned source by source.

use super::budget::Budget;
use super::scan::{Hint, Scan, Src, Visit};
use super::walk::{walk_folder, Walk};
use super::{InputError, InputErrorKind, Member, Origin, Skipped, Special};
use std::fs::{self, File};
use std::io::{self, Read as _, Seek as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// How many archive and compression layers a member may be under, by
/// default ([`Inputs::max_depth`]).
pub const DEFAULT_MAX_DEPTH: u32 = 8;

/// How large a zip or 7z archive read from a stream may be, by default
/// ([`Inputs::max_spool`]): 16 GiB.
pub const DEFAULT_MAX_SPOOL: u64 = 16 << 30;

/// Paths to read SGF from — files, folders, compressed files, archives,
/// `-` for standard input — as one sequence of SGF [`Member`]s. See the
/// [module docs](super) for what is taken and what is skipped.
///
/// ```
/// use sgf_grove::input::Inputs;
/// use std::io::Read;
///
/// let dir = std::env::temp_dir().join(format!("sgf-grove-doc-inputs-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("sub"))?;
/// std::fs::write(dir.join("sub/b.SGF"), "(;GM[1];B[aa])")?;
/// std::fs::write(dir.join("a.txt"), "(;GM[1])")?; // SGF by its first bytes
/// std::fs::write(dir.join("notes.md"), "# not a game")?;
///
/// let mut seen = Vec::new();
/// let skipped = Inputs::new([&dir]).scan(|member| {
///     let mut member = member?;
///     let mut text = String::new();
///     member.reader().read_to_string(&mut text)?;
///     let name = member.origin().to_string();
///     seen.push((name[dir.as_os_str().len() + 1..].to_owned(), text));
///     Ok::<(), Box<dyn std::error::Error>>(())
/// })?;
/// assert_eq!(seen, [("a.txt".to_owned(), "(;GM[1])".to_owned()),
///                   ("sub/b.SGF".to_owned(), "(;GM[1];B[aa])".to_owned())]);
/// assert_eq!(skipped.total(), 1); // notes.md
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Inputs {
    paths: Vec<PathBuf>,
    by_content: bool,
    max_depth: u32,
    max_spool: u64,
    max_line: u64,
    max_input_bytes: u64,
    max_input_games: u64,
    shard: Option<(usize, usize)>,
    range: Option<(usize, usize)>,
    members: Option<(u64, u64)>,
    cancel: Option<Arc<AtomicBool>>,
    #[cfg(feature = "parallel")]
    worker_budget: usize,
    #[cfg(feature = "parallel")]
    pure_work: bool,
}

impl Inputs {
    /// What [`Inputs::worker_budget`] says.
    #[cfg(feature = "parallel")]
    pub(crate) fn budget(&self) -> usize {
        self.worker_budget
    }

    /// What [`Inputs::pure_work`] says.
    #[cfg(feature = "parallel")]
    pub(crate) fn is_pure_work(&self) -> bool {
        self.pure_work
    }

    /// The inputs at `paths`, read in sorted order; `-` is standard input.
    pub fn new<I>(paths: I) -> Inputs
    where
        I: IntoIterator,
        I::Item: Into<PathBuf>,
    {
        Inputs {
            paths: paths.into_iter().map(Into::into).collect(),
            by_content: true,
            max_depth: DEFAULT_MAX_DEPTH,
            max_spool: DEFAULT_MAX_SPOOL,
            max_line: super::DEFAULT_MAX_LINE,
            max_input_bytes: super::DEFAULT_MAX_INPUT_BYTES,
            max_input_games: super::DEFAULT_MAX_INPUT_GAMES,
            #[cfg(feature = "parallel")]
            worker_budget: super::par::WORKER_BUDGET,
            #[cfg(feature = "parallel")]
            pure_work: false,
            shard: None,
            range: None,
            members: None,
            cancel: None,
        }
    }

    /// Whether the flag of [`Inputs::cancel_flag`] is set.
    pub(crate) fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// The flag of [`Inputs::cancel_flag`], for the layers below.
    pub(crate) fn cancel(&self) -> Option<&AtomicBool> {
        self.cancel.as_deref()
    }

    /// Whether files in folders and archive members whose name is not
    /// `.sgf` or `.sgfs` are taken when their first bytes are SGF (`(`
    /// then `;`). Default: `true`, as game records come under all sorts of
    /// names; `false` takes SGF names only, and opens no other file but
    /// those that are archives by name or content.
    #[must_use]
    pub fn by_content(mut self, yes: bool) -> Inputs {
        self.by_content = yes;
        self
    }

    /// How many archive and compression layers a member may be under:
    /// `a.tar.gz!b.zip!c.sgf.xz` is under four. Deeper ones are an error
    /// ([`InputErrorKind::TooDeep`]). Default: [`DEFAULT_MAX_DEPTH`], which
    /// real archives never reach and which stops archives that hold
    /// themselves.
    #[must_use]
    pub fn max_depth(mut self, layers: u32) -> Inputs {
        self.max_depth = layers;
        self
    }

    /// How large a zip or 7z archive that is read from a stream (standard
    /// input, another archive, a decompressor) may be: such an archive is
    /// copied to a temporary file first, since both formats need to seek.
    /// Default: [`DEFAULT_MAX_SPOOL`], a bound on the disk space a scan
    /// may take.
    #[must_use]
    pub fn max_spool(mut self, bytes: u64) -> Inputs {
        self.max_spool = bytes;
        self
    }

    /// How many bytes a line of an `.sgfs` member may have
    /// ([`SgfsLines::max_line`](super::SgfsLines::max_line)): a longer line
    /// is an error naming it ([`ErrorKind::LineTooLong`](crate::ErrorKind::LineTooLong)),
    /// skipped to its end without being held, and the next line is read.
    /// Default: [`DEFAULT_MAX_LINE`](super::DEFAULT_MAX_LINE), 64 MiB.
    #[must_use]
    pub fn max_line(mut self, bytes: u64) -> Inputs {
        self.max_line = bytes;
        self
    }

    /// Whether a limit of what one input may hold was set
    /// ([`Inputs::max_input_bytes`], [`Inputs::max_input_games`]).
    #[cfg(feature = "parallel")]
    pub(crate) fn limited(&self) -> bool {
        self.max_input_bytes != super::DEFAULT_MAX_INPUT_BYTES
            || self.max_input_games != super::DEFAULT_MAX_INPUT_GAMES
    }

    /// The `.sgfs` line limit of [`Inputs::max_line`].
    pub(crate) fn line_limit(&self) -> u64 {
        self.max_line
    }

    /// How many bytes one input (a file named or found in a folder,
    /// standard input) may expand to: the SGF text of all its members, at
    /// every depth of nested archives and compressed streams, and what is
    /// copied to temporary files (zip and 7z read from a stream). Going
    /// over is an error naming the input ([`InputErrorKind::OverBudget`]),
    /// handed over with the member being read; nothing more of that input
    /// is read and the scan goes on with the next one. A small archive can
    /// hold terabytes (a zip of zips): this bounds the work it makes.
    /// Default: [`DEFAULT_MAX_INPUT_BYTES`](super::DEFAULT_MAX_INPUT_BYTES),
    /// 16 TiB.
    ///
    /// ```
    /// use sgf_grove::input::{InputErrorKind, Inputs};
    /// use sgf_grove::ParseOptions;
    /// let path = std::env::temp_dir().join(format!("sgf-grove-budget-{}.sgf", std::process::id()));
    /// std::fs::write(&path, "(;GM[1])\n".repeat(100))?;
    /// let (mut games, mut errors) = (0, Vec::new());
    /// Inputs::new([&path]).max_input_games(10).scan_games(ParseOptions::new(), |game| {
    ///     match game {
    ///         Ok(game) if game.tree().is_some() => games += 1,
    ///         Ok(_) => {}
    ///         Err(err) => errors.push(err.kind()),
    ///     }
    ///     Ok::<(), std::convert::Infallible>(())
    /// })?;
    /// assert_eq!((games, errors), (10, vec![InputErrorKind::OverBudget]));
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn max_input_bytes(mut self, bytes: u64) -> Inputs {
        self.max_input_bytes = bytes;
        self
    }

    /// How many games one input may hold, nested archives all counted, as
    /// [`Inputs::max_input_bytes`] does for bytes: games past it are an
    /// error naming the input ([`InputErrorKind::OverBudget`]), and nothing
    /// more of it is read. [`Inputs::scan_games`] counts the games; a
    /// consumer of [`Inputs::scan`] that parses members itself counts them
    /// with [`Member::game_budget`]. Default:
    /// [`DEFAULT_MAX_INPUT_GAMES`](super::DEFAULT_MAX_INPUT_GAMES), 16
    /// billion.
    #[must_use]
    pub fn max_input_games(mut self, games: u64) -> Inputs {
        self.max_input_games = games;
        self
    }

    /// In a parallel scan ([`Inputs::par_scan_games`]), how many bytes of
    /// games a worker may read from one small file it reads whole (a small
    /// compressed file may hold gigabytes); past them, the calling thread
    /// reads the rest of the file as a stream and hands its games on as
    /// they are read, so that memory stays bounded. The output is the
    /// same. Default: [`WORKER_BUDGET`](super::WORKER_BUDGET).
    #[cfg(feature = "parallel")]
    #[must_use]
    pub fn worker_budget(mut self, bytes: usize) -> Inputs {
        self.worker_budget = bytes;
        self
    }

    /// Says that the work function of a parallel scan
    /// ([`Inputs::par_scan_games`]) has no effect but its result: the
    /// workers then work on each game of a large input as they parse it,
    /// before the chunks before it are checked, and a result of a chunk
    /// cut at a wrong guess is dropped (its games are worked on again,
    /// once the right cut is known). What the sink receives is the same;
    /// a large input costs no copy of each game. By default each game is
    /// worked on exactly once, and a large input's games are kept as
    /// copies until the chunks before them are checked.
    #[cfg(feature = "parallel")]
    #[must_use]
    pub fn pure_work(mut self, pure: bool) -> Inputs {
        self.pure_work = pure;
        self
    }

    /// Takes only this machine's share of the inputs: of the sources in
    /// sorted order (files named or found in folders, standard input), the
    /// `k`th of every `n`, counting from 0, so that `n` machines given the
    /// same paths read each source exactly once. What the folder walk
    /// skips is counted by every shard. `n` 0 or 1 takes everything.
    ///
    /// ```
    /// use sgf_grove::input::Inputs;
    /// let dir = std::env::temp_dir().join(format!("sgf-grove-shard-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// for name in ["a.sgf", "b.sgf", "c.sgf"] {
    ///     std::fs::write(dir.join(name), "(;GM[1])")?;
    /// }
    /// assert_eq!(Inputs::new([&dir]).shard(0, 2).sources().len(), 2); // a, c
    /// assert_eq!(Inputs::new([&dir]).shard(1, 2).sources().len(), 1); // b
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    #[must_use]
    pub fn shard(mut self, k: usize, n: usize) -> Inputs {
        self.shard = (n > 1).then_some((k % n, n));
        self
    }

    /// Takes only the sources numbered `start..end` (from 0) in the sorted
    /// order of [`Inputs::sources`] (after [`Inputs::shard`], when both are
    /// set, the numbers are those of the whole list): contiguous ranges
    /// that cover the list read each source exactly once, and a planner
    /// can cut them by size ([`Source::size`]). An empty folder in the
    /// paths is reported by the range that starts at 0.
    ///
    /// ```
    /// use sgf_grove::input::Inputs;
    /// let dir = std::env::temp_dir().join(format!("sgf-grove-range-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// for name in ["a.sgf", "b.sgf", "c.sgf"] {
    ///     std::fs::write(dir.join(name), "(;GM[1])")?;
    /// }
    /// let names = |inputs: Inputs| -> Vec<String> {
    ///     inputs.sources().iter().map(|s| s.origin().to_string()[dir.as_os_str().len() + 1..].to_owned()).collect()
    /// };
    /// assert_eq!(names(Inputs::new([&dir]).source_range(0..2)), ["a.sgf", "b.sgf"]);
    /// assert_eq!(names(Inputs::new([&dir]).source_range(2..9)), ["c.sgf"]);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    #[must_use]
    pub fn source_range(mut self, range: std::ops::Range<usize>) -> Inputs {
        self.range = Some((range.start, range.end.max(range.start)));
        self
    }

    /// Takes only this machine's share of the SGF members of each source:
    /// of a source's members (and the errors it reports) in the order of
    /// a scan, the `k`th of every `n`, counting from 0. A folder of files
    /// is sharded with [`Inputs::shard`] or [`Inputs::source_range`]; this
    /// is for one large archive, so that `n` machines read its games once
    /// between them. `n` 0 or 1 takes everything.
    ///
    /// The cost: every shard still goes through the whole source, since
    /// formats are told by their first bytes. A member left to another
    /// shard is not parsed; a zip or 7z member is not decompressed past
    /// its first bytes, but a tar stream (and any compressed stream) is
    /// read and decompressed whole by every shard, as it can only be read
    /// from its start. An archive whose directory or stream is corrupt
    /// may be reported by more than one shard.
    ///
    /// ```
    /// use sgf_grove::input::Inputs;
    /// use sgf_grove::ParseOptions;
    /// let path = std::env::temp_dir().join(format!("sgf-grove-members-{}.zip", std::process::id()));
    /// let mut zip = zip::ZipWriter::new(std::fs::File::create(&path)?);
    /// for name in ["a.sgf", "b.sgf", "c.sgf"] {
    ///     zip.start_file(name, zip::write::SimpleFileOptions::default())?;
    ///     std::io::Write::write_all(&mut zip, b"(;GM[1])")?;
    /// }
    /// zip.finish()?;
    /// let members = |k| {
    ///     let mut names = Vec::new();
    ///     Inputs::new([&path]).member_shard(k, 2).scan_games(ParseOptions::new(), |game| {
    ///         names.push(game?.origin().members().next().unwrap().to_vec());
    ///         Ok::<(), sgf_grove::input::InputError>(())
    ///     })?;
    ///     Ok::<_, sgf_grove::input::InputError>(names)
    /// };
    /// assert_eq!(members(0)?, [b"a.sgf".to_vec(), b"c.sgf".to_vec()]);
    /// assert_eq!(members(1)?, [b"b.sgf".to_vec()]);
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn member_shard(mut self, k: usize, n: usize) -> Inputs {
        self.members = (n > 1).then_some(((k % n) as u64, n as u64));
        self
    }

    /// The member share of [`Inputs::member_shard`], for the scan.
    pub(crate) fn members(&self) -> Option<(u64, u64)> {
        self.members
    }

    /// A flag that stops a scan once it is set (from any thread): no
    /// source or archive member is started after it and no further game
    /// is parsed; the scan returns soon, with what it found so far. For a
    /// consumer that stops reading early (a Python iterator dropped half
    /// way), so that the threads reading for it stop too.
    ///
    /// ```
    /// use sgf_grove::input::Inputs;
    /// use sgf_grove::ParseOptions;
    /// use std::sync::{atomic::{AtomicBool, Ordering}, Arc};
    /// let path = std::env::temp_dir().join(format!("sgf-grove-cancel-{}.sgf", std::process::id()));
    /// std::fs::write(&path, "(;GM[1])".repeat(1000))?;
    /// let stop = Arc::new(AtomicBool::new(false));
    /// let mut games = 0;
    /// Inputs::new([&path]).cancel_flag(stop.clone()).scan_games(ParseOptions::new(), |game| {
    ///     game?;
    ///     games += 1;
    ///     if games == 10 {
    ///         stop.store(true, Ordering::Relaxed);
    ///     }
    ///     Ok::<(), sgf_grove::input::InputError>(())
    /// })?;
    /// assert_eq!(games, 10);
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn cancel_flag(mut self, flag: Arc<AtomicBool>) -> Inputs {
        self.cancel = Some(flag);
        self
    }

    /// Walks the folders and lists what is to be read, sorted by path,
    /// without reading any file: files named or found in folders, standard
    /// input, and paths that could not be looked at. What is not a regular
    /// file is skipped now ([`Sources::skipped`]).
    pub fn sources(&self) -> Sources {
        self.listed(Walk {
            sized: true,
            hold: false,
        })
    }

    /// [`Inputs::sources`] for a scan, walked as `how` says: with no size
    /// asked of each file found in a folder (a scan that reads a file
    /// whole learns its size as it reads), and its folder held open for
    /// it.
    pub(crate) fn listed(&self, how: Walk) -> Sources {
        let mut sources = Sources::default();
        for path in &self.paths {
            if path.as_os_str() == "-" {
                sources
                    .list
                    .push(Source::new(Origin::stdin(), SourceKind::Stdin, None));
                continue;
            }
            match fs::metadata(path) {
                Ok(meta) if meta.is_dir() => {
                    let mut found = Vec::new();
                    walk_folder(
                        path,
                        &mut sources,
                        &mut |source| {
                            found.push(source);
                            true
                        },
                        how,
                    );
                    sources.list.append(&mut found);
                }
                // Regular or not (a FIFO, a device): named, it is read.
                Ok(meta) => {
                    let size = meta.is_file().then_some(meta.len());
                    sources
                        .list
                        .push(Source::new(Origin::path(path), SourceKind::Named, size));
                }
                Err(err) => sources.list.push(Source::failed(path.clone(), &err, None)),
            }
        }
        sources
            .list
            .sort_by(|a, b| (&a.origin, a.kind.rank()).cmp(&(&b.origin, b.kind.rank())));
        // A file named twice is read once; a folder's file also named on
        // its own is read under its own name, and the folder is not
        // "without SGF files" for that.
        let mut named_apart = vec![false; sources.folders.len()];
        sources.list.dedup_by(|later, kept| {
            let repeat = later.origin == kept.origin;
            if repeat && let Some(folder) = later.folder {
                named_apart[folder] = true;
            }
            repeat
        });
        if self.shard.is_some() || self.range.is_some() || self.members.is_some() {
            let keep = |i: usize| {
                self.shard.is_none_or(|(k, n)| i % n == k)
                    && self.range.is_none_or(|(a, b)| a <= i && i < b)
            };
            // The share that reports a folder with no file at all.
            let first = self.shard.is_none_or(|(k, _)| k == 0)
                && self.range.is_none_or(|(a, _)| a == 0)
                && self.members.is_none_or(|(k, _)| k == 0);
            let mut i = 0;
            let mut found = vec![false; sources.folders.len()];
            let mut kept = vec![false; sources.folders.len()];
            sources.list.retain(|source| {
                i += 1;
                let keep = keep(i - 1);
                if let Some(folder) = source.folder {
                    found[folder] = true;
                    kept[folder] |= keep;
                }
                keep
            });
            // A folder whose files all went to other shards is theirs to
            // report; one with no file at all, the first shard's.
            for (folder, (found, kept)) in
                sources.folders.iter_mut().zip(found.into_iter().zip(kept))
            {
                folder.elsewhere = if found { !kept } else { !first };
            }
        }
        for (folder, apart) in sources.folders.iter_mut().zip(named_apart) {
            folder.elsewhere |= apart;
        }
        sources.skipped.sort();
        sources
    }

    /// The folder a parallel scan walks while its workers read what the
    /// walk found so far: the one path given, when it is a folder and
    /// nothing selects among its files (no shard, range or members). The
    /// walk finds its files in the order of their paths, the order of
    /// [`Inputs::sources`].
    #[cfg(feature = "parallel")]
    pub(crate) fn walked_while_read(&self) -> Option<&Path> {
        let [path] = &self.paths[..] else {
            return None;
        };
        if self.shard.is_some() || self.range.is_some() || self.members.is_some() {
            return None;
        }
        let folder = path.as_os_str() != "-" && fs::metadata(path).is_ok_and(|m| m.is_dir());
        folder.then_some(path.as_path())
    }

    /// Walks the folder `root` as [`Inputs::sources`] does, handing each
    /// source to `emit` as it is found until `emit` says false; returns
    /// the rest of what the walk found (the folder, what it skipped).
    #[cfg(feature = "parallel")]
    pub(crate) fn walk_streamed(root: &Path, emit: &mut dyn FnMut(Source) -> bool) -> Sources {
        let mut sources = Sources::default();
        let how = Walk {
            sized: false,
            hold: true,
        };
        walk_folder(root, &mut sources, emit, how);
        sources.skipped.sort();
        sources
    }

    /// Reads every input and hands each SGF member to `visit`, in order:
    /// sources sorted by path, archive members in the archive's order.
    /// An input or member that cannot be read is handed over as an
    /// [`InputError`] and the scan goes on; so is a folder given in the
    /// paths that held no SGF member ([`InputErrorKind::NoSgfFiles`]),
    /// after all the rest. Returns what was skipped.
    ///
    /// A member borrows the archive or decompressor it comes from: it is
    /// read within the call of `visit` (what is left unread is skipped).
    /// This is why the scan calls a closure instead of being an
    /// [`Iterator`].
    ///
    /// # Errors
    ///
    /// The first error `visit` returns, which stops the scan.
    pub fn scan<E, F>(&self, mut visit: F) -> Result<Skipped, E>
    where
        F: FnMut(Result<Member<'_>, InputError>) -> Result<(), E>,
    {
        let sources = self.listed(Walk {
            sized: false,
            hold: true,
        });
        let mut skipped = sources.skipped.clone();
        let mut folders = sources.folder_tallies();
        for source in &sources.list {
            if self.cancelled() {
                break;
            }
            let before = skipped.total();
            let reported = source.scan(self, &mut skipped, &mut visit)?;
            if let Some(folder) = source.folder {
                folders[folder].0 += reported;
                folders[folder].1 += skipped.total() - before;
            }
        }
        // A scan stopped early did not look at every folder.
        let empty = if self.cancelled() {
            Vec::new()
        } else {
            sources.empty_folders(&folders)
        };
        for err in empty {
            visit(Err(err))?;
        }
        skipped.sort();
        Ok(skipped)
    }
}

/// What [`Inputs::sources`] found: the inputs to read, in order, and what
/// the folder walk skipped.
///
/// Each [`Source`] can be scanned on its own ([`Source::scan`]), so that a
/// caller may read several at once (on a thread pool) and still put the
/// results in this order. Within a source, members come in the archive's
/// order, one after the other: a tar stream cannot be read from the
/// middle.
#[derive(Debug, Default)]
pub struct Sources {
    list: Vec<Source>,
    skipped: Skipped,
    folders: Vec<Folder>,
}

/// A folder named in the paths.
#[derive(Debug)]
struct Folder {
    path: PathBuf,
    /// What the walk skipped in it.
    skipped: u64,
    /// Whether another shard reports it when it gives no SGF member.
    elsewhere: bool,
}

impl Sources {
    /// Notes the folder `path`, named in the paths; returns its number.
    pub(super) fn add_folder(&mut self, path: &Path) -> usize {
        self.folders.push(Folder {
            path: path.to_path_buf(),
            skipped: 0,
            elsewhere: false,
        });
        self.folders.len() - 1
    }

    /// Notes an in-place rewrite's temporary file, skipped in `folder`.
    pub(super) fn skip_temporary(&mut self, folder: usize, origin: &Origin) {
        self.skipped.temporary(origin);
        self.folders[folder].skipped += 1;
    }

    /// Notes what is not a regular file, skipped in `folder`.
    pub(super) fn skip_special(&mut self, folder: usize, origin: &Origin, special: Special) {
        self.skipped.not_regular(origin, special);
        self.folders[folder].skipped += 1;
    }

    /// The error of each folder in the paths that gave no SGF member, by
    /// path: `folders[k]` holds how many members the scan reported in
    /// folder `k` and how many things it skipped there.
    pub(crate) fn empty_folders(&self, folders: &[(u64, u64)]) -> Vec<InputError> {
        let mut empty: Vec<(&Folder, u64)> = self
            .folders
            .iter()
            .zip(folders)
            .filter(|&(folder, &(reported, _))| reported == 0 && !folder.elsewhere)
            .map(|(folder, &(_, skipped_there))| (folder, skipped_there))
            .collect();
        empty.sort_by(|a, b| a.0.path.cmp(&b.0.path));
        empty.dedup_by(|a, b| a.0.path == b.0.path);
        empty
            .into_iter()
            .map(|(folder, skipped_there)| {
                let detail = (skipped_there > 0).then(|| format!("{skipped_there} skipped"));
                InputError::new(
                    Origin::path(&folder.path),
                    InputErrorKind::NoSgfFiles,
                    detail,
                )
            })
            .collect()
    }

    /// For each folder in the paths: no member reported yet, and what the
    /// walk skipped in it (what [`Sources::empty_folders`] counts from).
    pub(crate) fn folder_tallies(&self) -> Vec<(u64, u64)> {
        self.folders.iter().map(|f| (0, f.skipped)).collect()
    }

    /// The sources, sorted by path.
    pub fn iter(&self) -> std::slice::Iter<'_, Source> {
        self.list.iter()
    }

    /// How many sources there are.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// What the folder walk skipped: things that are not regular files.
    pub fn skipped(&self) -> &Skipped {
        &self.skipped
    }

    /// The path of the folder numbered `index` ([`Source::folder`]).
    pub fn folder_path(&self, index: usize) -> Option<&Path> {
        self.folders.get(index).map(|f| f.path.as_path())
    }
}

impl<'s> IntoIterator for &'s Sources {
    type Item = &'s Source;
    type IntoIter = std::slice::Iter<'s, Source>;
    fn into_iter(self) -> Self::IntoIter {
        self.list.iter()
    }
}

/// One input to read: a file (named, or found in a folder), standard
/// input, or a path that could not be looked at.
#[derive(Debug)]
pub struct Source {
    origin: Origin,
    kind: SourceKind,
    folder: Option<usize>,
    /// The size of a regular file, when the walk that found it or the
    /// look at the named path gave it (for a parallel scan).
    size: Option<u64>,
    /// The folder it was found in, held open for it (Unix).
    #[cfg(unix)]
    held: super::held::InFolder,
}

#[derive(Debug)]
enum SourceKind {
    Stdin,
    /// Named in the paths: read whatever it is.
    Named,
    /// Found in a folder: read when SGF by name or content.
    Found,
    /// Could not be looked at: the error, to report when scanned.
    Failed(io::ErrorKind, String),
}

impl SourceKind {
    /// Which of two sources for the same path is kept: the named one.
    fn rank(&self) -> u8 {
        match self {
            SourceKind::Stdin | SourceKind::Named => 0,
            SourceKind::Found => 1,
            SourceKind::Failed(..) => 2,
        }
    }
}

impl Source {
    fn new(origin: Origin, kind: SourceKind, size: Option<u64>) -> Source {
        Source {
            origin,
            kind,
            folder: None,
            size,
            #[cfg(unix)]
            held: super::held::InFolder::default(),
        }
    }

    /// A regular file (or a link to one) found by a walk in the folder
    /// numbered `folder`, with its size when the walk asked for it.
    pub(super) fn found(
        path: PathBuf,
        folder: usize,
        size: Option<u64>,
        #[cfg(unix)] held: Option<Arc<super::held::Held>>,
    ) -> Source {
        Source {
            folder: Some(folder),
            #[cfg(unix)]
            held: super::held::InFolder::new(held),
            ..Source::new(Origin::path(path), SourceKind::Found, size)
        }
    }

    /// A path that could not be looked at, and why.
    pub(super) fn failed(path: PathBuf, err: &io::Error, folder: Option<usize>) -> Source {
        let kind = SourceKind::Failed(err.kind(), err.to_string());
        Source {
            folder,
            ..Source::new(Origin::path(path), kind, None)
        }
    }

    /// Opens the file: relative to its folder when the walk holds it open,
    /// else by its path.
    fn open(&self, path: &Path) -> io::Result<File> {
        #[cfg(unix)]
        if let Some(opened) = file_name(path).and_then(|name| self.held.open(name)) {
            return opened;
        }
        File::open(path)
    }

    /// Its path, or standard input.
    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    /// Whether a worker of a parallel scan reads it whole: `Some` for a
    /// regular file of at most [`WHOLE_FILE`](super::WHOLE_FILE) bytes, or
    /// of at most [`WHOLE_PACKED`](super::WHOLE_PACKED) when its name says
    /// it is compressed or an archive (with its size), for a regular file
    /// found by a walk that asked no size (`Some(None)`: read whole if it
    /// is that small, [`Take::Whole`]), or a path that failed (only its
    /// error to report, `Some(None)`); `None` for what the calling thread
    /// cuts into games.
    #[cfg(feature = "parallel")]
    pub(crate) fn whole_size(&self) -> Option<Option<u64>> {
        match &self.kind {
            SourceKind::Stdin => None,
            SourceKind::Failed(..) => Some(None),
            SourceKind::Found if self.size.is_none() => Some(None),
            SourceKind::Named | SourceKind::Found => {
                let path = self.origin.root_path()?;
                let size = match self.size {
                    Some(size) => size,
                    None => fs::metadata(path).ok().filter(|meta| meta.is_file())?.len(),
                };
                (size <= self.whole_limit()).then_some(Some(size))
            }
        }
    }

    /// The largest file a worker reads whole: [`WHOLE_PACKED`](super::WHOLE_PACKED)
    /// when its name says it is compressed or an archive (it expands),
    /// else [`WHOLE_FILE`](super::WHOLE_FILE).
    #[cfg(feature = "parallel")]
    pub(crate) fn whole_limit(&self) -> u64 {
        let packed = self
            .origin
            .root_path()
            .and_then(file_name)
            .is_some_and(|name| packed_name(name.as_encoded_bytes()));
        if packed {
            super::WHOLE_PACKED
        } else {
            super::WHOLE_FILE
        }
    }

    /// Its size in bytes, when it is a regular file whose size the folder
    /// walk (or a look at the named path) found; `None` for standard
    /// input, a FIFO or a device, or a path that could not be looked at.
    pub fn size(&self) -> Option<u64> {
        self.size
    }

    /// The number of the folder (in the paths) it was found in
    /// ([`Sources::folder_path`]).
    pub fn folder(&self) -> Option<usize> {
        self.folder
    }

    /// Reads this source with the settings of `inputs`, hands each member
    /// (or error) to `visit` as [`Inputs::scan`] does, and adds what it
    /// skipped to `skipped`. Returns how many members and errors it
    /// handed over.
    ///
    /// # Errors
    ///
    /// The first error `visit` returns.
    pub fn scan<E, F>(&self, inputs: &Inputs, skipped: &mut Skipped, visit: F) -> Result<u64, E>
    where
        F: FnMut(Result<Member<'_>, InputError>) -> Result<(), E>,
    {
        let scanned = self.scan_sized(inputs, skipped, Take::Stream, visit)?;
        Ok(scanned.unwrap_or(0))
    }

    /// [`Source::scan`] of a source read as `take` says: a regular file
    /// read whole goes into a buffer the thread keeps, in as few calls as
    /// can be (two for a file that fits the buffer), without asking the
    /// system its size unless it fills the buffer. `Ok(None)` (nothing
    /// read, nothing handed to `visit`) for a file too large for
    /// [`Take::WholeOnly`].
    pub(crate) fn scan_sized<E, F>(
        &self,
        inputs: &Inputs,
        skipped: &mut Skipped,
        take: Take,
        mut visit: F,
    ) -> Result<Option<u64>, E>
    where
        F: FnMut(Result<Member<'_>, InputError>) -> Result<(), E>,
    {
        let visit: &mut Visit<'_, E> = &mut visit;
        let budget = Budget::new(inputs.max_input_bytes, inputs.max_input_games);
        let mut scan = Scan {
            budget: &budget,
            max_depth: inputs.max_depth,
            max_spool: inputs.max_spool,
            by_content: inputs.by_content,
            skipped,
            visit,
            reported: 0,
            compression: Vec::new(),
            members: inputs.members(),
            turn: 0,
            cancel: inputs.cancel(),
        };
        let mut origin = self.origin.clone();
        match &self.kind {
            SourceKind::Stdin => {
                let stdin = Box::new(io::stdin().lock());
                let hint = Hint {
                    name: b"",
                    explicit: true,
                };
                scan.stream(&mut origin, Src::Stream(stdin), hint, 0, None)?;
            }
            SourceKind::Named | SourceKind::Found => {
                let path = self.origin.root_path().unwrap_or(Path::new(""));
                let explicit = matches!(self.kind, SourceKind::Named);
                let name = file_name_bytes(path);
                let hint = Hint {
                    name: &name,
                    explicit,
                };
                let unreadable = !explicit && super::sgf_name_kind(&name).is_none();
                match self.open(path) {
                    Ok(mut file) if take != Take::Stream => {
                        let limit = match take {
                            Take::Whole(limit) | Take::WholeOnly(limit) => limit,
                            Take::Stream => 0,
                        };
                        let mut buf = WHOLE.with(|cell| cell.take());
                        let read = read_whole(&mut file, self.size, limit, &mut buf);
                        let result = match read {
                            Ok(Some(len)) => scan.stream(
                                &mut origin,
                                Src::Whole(&buf[..len], file),
                                hint,
                                0,
                                Some(path),
                            ),
                            // Larger than a worker reads: left to the
                            // caller, the folder still held.
                            Ok(None) if matches!(take, Take::WholeOnly(_)) => {
                                if buf.len() <= MAX_KEPT {
                                    WHOLE.with(|cell| cell.replace(buf));
                                }
                                return Ok(None);
                            }
                            // Larger: read as a stream, from its start.
                            Ok(None) => match file.rewind() {
                                Ok(()) => {
                                    scan.stream(&mut origin, Src::File(file), hint, 0, Some(path))
                                }
                                Err(_) if unreadable => {
                                    scan.skipped.unreadable(&origin);
                                    Ok(())
                                }
                                Err(err) => scan.report(InputError::io(origin.clone(), err)),
                            },
                            Err(_) if unreadable => {
                                scan.skipped.unreadable(&origin);
                                Ok(())
                            }
                            Err(err) => scan.report(InputError::io(origin.clone(), err)),
                        };
                        if buf.len() <= MAX_KEPT {
                            WHOLE.with(|cell| cell.replace(buf));
                        }
                        result?;
                    }
                    Ok(file) => {
                        // A regular file can seek (zip, 7z) and be opened
                        // again; a FIFO or a device is a stream.
                        let regular = file.metadata().is_ok_and(|m| m.is_file());
                        let (src, plain) = if regular {
                            (Src::File(file), Some(path))
                        } else {
                            (Src::Stream(Box::new(file) as Box<dyn io::Read>), None)
                        };
                        scan.stream(&mut origin, src, hint, 0, plain)?;
                    }
                    Err(_) if unreadable => {
                        scan.skipped.unreadable(&origin);
                    }
                    Err(err) => scan.report(InputError::io(origin, err))?,
                }
            }
            SourceKind::Failed(kind, message) => {
                let err = io::Error::new(*kind, message.clone());
                scan.report(InputError::io(origin, err))?;
            }
        }
        // Read: its folder is let go (closed after its last file).
        #[cfg(unix)]
        self.held.release();
        Ok(Some(scan.reported))
    }
}

/// How [`Source::scan_sized`] reads a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(feature = "parallel"), allow(dead_code))]
pub(crate) enum Take {
    /// As a stream, read as the scan goes.
    Stream,
    /// Whole into the thread's buffer when it has at most this many bytes;
    /// a larger one as a stream.
    Whole(u64),
    /// Whole when it has at most this many bytes; a larger one is not
    /// read (for a worker, which leaves it to the calling thread).
    WholeOnly(u64),
}

thread_local! {
    /// Each thread's buffer for the small files it reads whole.
    static WHOLE: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Reads `file` whole into `buf`, from its start to the end its last read
/// finds, when it has at most `limit` bytes: `Some` of its length (its
/// bytes are `buf[..len]`), or `None` when it has more (what was read is
/// left in `buf`). `size` is what a look at it said, when one was made.
///
/// `buf` is used as it is (its bytes written once, kept from file to
/// file): a file that fits it takes two reads (its bytes, then the end)
/// and no other call, neither a look at its size (`read_to_end` asks for
/// its size and position first) nor bytes zeroed for it. One that fills
/// `buf` is asked its size once, and `buf` grown to hold it; the reads go
/// on until the end, so that a file that grew or shrank since it was
/// looked at is read whole.
pub(crate) fn read_whole(
    file: &mut File,
    size: Option<u64>,
    limit: u64,
    buf: &mut Vec<u8>,
) -> io::Result<Option<usize>> {
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    // One more byte than the size: the read that finds the end needs room.
    let room = |size: u64| {
        usize::try_from(size)
            .unwrap_or(usize::MAX)
            .saturating_add(1)
    };
    let want = room(size.unwrap_or(0))
        .max(MIN_WHOLE)
        .min(limit.saturating_add(1));
    if buf.len() < want {
        buf.resize(want, 0);
    }
    let mut len = 0;
    let mut asked = size.is_some();
    loop {
        if len == buf.len() {
            if len > limit {
                return Ok(None);
            }
            let more = if asked {
                // It grew since it was looked at: room for as much again.
                len.saturating_mul(2)
            } else {
                asked = true;
                let size = file.metadata()?.len();
                if size > limit as u64 {
                    return Ok(None);
                }
                room(size).max(len.saturating_mul(2))
            };
            buf.resize(more.min(limit.saturating_add(1)).max(len + 1), 0);
        }
        match file.read(&mut buf[len..]) {
            Ok(0) => return Ok((len <= limit).then_some(len)),
            Ok(n) => len += n,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
}

/// The smallest buffer [`read_whole`] reads a file into: most game records
/// fit, read in one call.
const MIN_WHOLE: usize = 64 << 10;

/// The largest buffer of [`WHOLE`] kept between files.
const MAX_KEPT: usize = 1 << 20;

/// Whether a file's name says it is compressed or an archive (`.gz`,
/// `.tgz`, `.tar`, `.zip`, `.7z`…, any letter case).
#[cfg(feature = "parallel")]
fn packed_name(name: &[u8]) -> bool {
    let bare = super::strip_compression(name);
    bare.len() < name.len()
        || [&b".tar"[..], b".zip", b".7z"].iter().any(|ext| {
            bare.len() > ext.len() && bare[bare.len() - ext.len()..].eq_ignore_ascii_case(ext)
        })
}

/// The last part of `path` ([`Path::file_name`]), found without parsing
/// the whole path when it is a plain name after the last `/` (as the
/// paths a walk makes are).
fn file_name(path: &Path) -> Option<&std::ffi::OsStr> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt as _;
        let bytes = path.as_os_str().as_bytes();
        let name = match memchr::memrchr(b'/', bytes) {
            Some(at) => &bytes[at + 1..],
            None => bytes,
        };
        if !matches!(name, b"" | b"." | b"..") {
            return Some(std::ffi::OsStr::from_bytes(name));
        }
    }
    path.file_name()
}

/// The last part of `path`, as bytes.
fn file_name_bytes(path: &Path) -> std::borrow::Cow<'_, [u8]> {
    let name = file_name(path).unwrap_or(path.as_os_str());
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt as _;
        std::borrow::Cow::Borrowed(name.as_bytes())
    }
    #[cfg(not(unix))]
    {
        std::borrow::Cow::Owned(name.to_string_lossy().into_owned().into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::{read_whole, MIN_WHOLE};
    use std::fs::File;
    use std::io::{Seek as _, Write as _};

    /// A file holding `bytes`, at its start.
    fn file_of(bytes: &[u8]) -> File {
        let mut file = tempfile::tempfile().expect("a temporary file");
        file.write_all(bytes).expect("written");
        file.rewind().expect("rewound");
        file
    }

    /// `len` bytes that tell their positions apart.
    fn bytes(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i % 251) as u8).collect()
    }

    #[test]
    fn read_whole_reads_a_file_of_unknown_size_into_a_buffer_of_other_bytes() {
        let text = bytes(1000);
        // A buffer left by a larger file: its bytes stay, the length says.
        let mut buf = vec![7; 5000];
        let len = read_whole(&mut file_of(&text), None, 1 << 20, &mut buf).unwrap();
        assert_eq!(len, Some(1000));
        assert_eq!(&buf[..1000], &text[..]);
        assert_eq!(buf.len(), MIN_WHOLE.max(5000));
    }

    #[test]
    fn read_whole_reads_a_file_that_grew_or_shrank_since_it_was_looked_at() {
        let text = bytes(3 * MIN_WHOLE + 17);
        for said in [0, 10, MIN_WHOLE as u64, 10 * MIN_WHOLE as u64] {
            let mut buf = Vec::new();
            let len = read_whole(&mut file_of(&text), Some(said), 1 << 30, &mut buf).unwrap();
            assert_eq!(len, Some(text.len()), "said {said}");
            assert_eq!(&buf[..text.len()], &text[..], "said {said}");
        }
    }

    #[test]
    fn read_whole_reads_a_file_larger_than_the_buffer_whole() {
        let text = bytes(MIN_WHOLE * 5 / 2);
        let mut buf = Vec::new();
        let len = read_whole(&mut file_of(&text), None, 1 << 30, &mut buf).unwrap();
        assert_eq!(len, Some(text.len()));
        assert_eq!(&buf[..text.len()], &text[..]);
    }

    #[test]
    fn read_whole_refuses_a_file_over_the_limit_never_a_part_of_it() {
        let text = bytes(MIN_WHOLE * 3);
        for said in [None, Some(10), Some(text.len() as u64)] {
            for limit in [100, MIN_WHOLE as u64, text.len() as u64 - 1] {
                let mut buf = Vec::new();
                let len = read_whole(&mut file_of(&text), said, limit, &mut buf).unwrap();
                assert_eq!(len, None, "said {said:?}, limit {limit}");
            }
        }
        // At the limit exactly: whole.
        let mut buf = Vec::new();
        let len = read_whole(&mut file_of(&text), None, text.len() as u64, &mut buf).unwrap();
        assert_eq!(len, Some(text.len()));
        let len = read_whole(&mut file_of(b""), None, 0, &mut buf).unwrap();
        assert_eq!(len, Some(0));
    }
}
