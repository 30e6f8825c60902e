//! Every input on all cores, in the order of one: [`Inputs::par_scan_games`].
//!
//! The work is cut into units that threads can take in any order while
//! their results are handed out in the order of a sequential scan:
//!
//! - files of at most [`WHOLE_FILE`] bytes (the files of a folder of game
//!   records) go a few at a time as one unit: a worker opens each, reads it (decompressing,
//!   opening archives) and parses it;
//! - a larger file, or standard input, is read on the calling thread,
//!   which parses nothing: each member of SGF text goes to the workers in
//!   chunks of whole games cut at guessed game starts, parsed by the
//!   workers and checked in order against one parse of the member
//!   ([`super::par_chunks`]); small members (of a large archive) go a few
//!   at a time, whole. Members read otherwise (`.sgfs`, UTF-16, strict
//!   parsing, a limit on what an input holds) are parsed on the calling
//!   thread, and a copy of each game as read (its records, its bytes, its
//!   warnings) is one unit (in batches of a few hundred). Either way the
//!   games and warnings are those of one parse, whatever the number of
//!   threads.
//!
//! Memory: at most `window` units in flight (a few per thread), each a
//! few small files or a batch of games (about three times their bytes
//! with their records), plus their results.

use super::games::{games_of, Game};
use super::inputs::Take;
use super::par_chunks::{chunk_member, run_chunk, Checked, Chunk, Feed, Follow};
use super::walk::Walk;
use super::{Content, InputError, Inputs, MemberKind, Origin, Skipped, Source, Sources};
use crate::parallel::{ordered_scope, Submit};
use crate::tree::OwnedCollection;
use crate::{Collection, GameTree, ParseOptions, StreamParser, Warning};
use std::cell::RefCell;
use std::convert::Infallible;
use std::io;
use std::path::Path;
use std::sync::{mpsc, Arc};

/// Files up to this size are read whole by one worker; larger ones are cut
/// into games on the calling thread.
pub const WHOLE_FILE: u64 = 8 << 20;

/// Files named as compressed or archives (`.gz`, `.tar`, `.zip`…) are read
/// whole by one worker up to this size: they expand when read.
pub const WHOLE_PACKED: u64 = 1 << 20;

/// The default of [`Inputs::worker_budget`]: a worker reading a source
/// whole stops once the games it read pass this many bytes (a small
/// compressed file may hold gigabytes, and the worker keeps the results of
/// its unit until it ends); the calling thread reads the rest of the
/// source as a stream, each game handed on as it is read.
pub const WORKER_BUDGET: usize = 4 * WHOLE_FILE as usize;

/// Games cut from a large source go to the workers in batches of at most
/// this many games or bytes (a game each would cost more in handing over
/// than in reading).
const BATCH_GAMES: usize = 256;
const BATCH_BYTES: usize = 1 << 20;

/// One game of a parallel scan (or the warnings found after a member's
/// last game), as the work function of [`Inputs::par_scan_games`] sees it.
#[derive(Clone, Copy)]
pub struct ScanGame<'a> {
    origin: &'a Origin,
    collection: Collection<'a, 'a>,
    tree: Option<GameTree<'a, 'a>>,
    warnings: &'a [Warning],
}

impl<'a> ScanGame<'a> {
    /// A game (or warnings alone) of `collection`, from `origin`.
    pub(super) fn new(
        origin: &'a Origin,
        collection: Collection<'a, 'a>,
        tree: Option<GameTree<'a, 'a>>,
        warnings: &'a [Warning],
    ) -> ScanGame<'a> {
        ScanGame {
            origin,
            collection,
            tree,
            warnings,
        }
    }

    /// The member it is in.
    pub fn origin(&self) -> &'a Origin {
        self.origin
    }

    /// The game; `None` for warnings alone at the end of a member.
    pub fn tree(&self) -> Option<GameTree<'a, 'a>> {
        self.tree
    }

    /// The offset of the game's first byte in its member's (decompressed)
    /// bytes.
    pub fn offset(&self) -> Option<usize> {
        self.tree
            .map(|tree| self.collection.stream_offset(tree.span().start))
    }

    /// The game's index among its member's games, from 0.
    pub fn index(&self) -> Option<usize> {
        self.tree.map(|tree| tree.index())
    }

    /// The warnings the scan found with this game (since the previous
    /// game of the member), positioned in the member.
    pub fn warnings(&self) -> &'a [Warning] {
        self.warnings
    }

    /// The collection the game is in (positions of its values, its
    /// input).
    pub fn collection(&self) -> Collection<'a, 'a> {
        self.collection
    }
}

impl std::fmt::Debug for ScanGame<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScanGame")
            .field("origin", &self.origin)
            .field("offset", &self.offset())
            .field("index", &self.index())
            .field("warnings", &self.warnings.len())
            .finish()
    }
}

/// How many sources a folder walk may find ahead of the scan, and how
/// many it hands on at a time.
const WALK_AHEAD: usize = 4096;
const WALK_BATCH: usize = 64;

/// Small sources go to the workers in groups of at most this many files
/// or bytes (one each would cost more in handing over than in reading).
const GROUP_FILES: usize = 32;
const GROUP_BYTES: u64 = 1 << 20;

/// A piece of work of a parallel scan.
pub(super) enum Unit<'s> {
    /// Whole sources, read by the worker one after the other, each with
    /// its size when it is a regular file.
    Sources(Vec<(&'s Source, Option<u64>)>),
    /// Games of a large source, cut by the calling thread, in order.
    Games(Vec<CutGame>),
    /// Chunks of members read by the calling thread: small members whole,
    /// or one chunk of a large one ([`super::par_chunks`]).
    Chunks(Vec<Chunk>),
    /// An error met by the calling thread.
    Error(InputError),
    /// The end of a large source: how many members and errors it gave,
    /// what it skipped.
    End {
        folder: Option<usize>,
        reported: u64,
        skipped: Skipped,
    },
}

/// A game read from a large source (or the warnings after its member's
/// last game): a copy of its collection, as the calling thread read it.
pub(super) struct CutGame {
    origin: Arc<Origin>,
    /// Boxed: a copy is moved several times on its way (into a batch, to
    /// a worker, back to the spares), and the store is large.
    game: Box<OwnedCollection>,
}

/// Games cut from a large source, gathered into one unit.
#[derive(Default)]
struct Batch {
    games: Vec<CutGame>,
    bytes: usize,
}

impl Batch {
    /// Adds a game; hands the batch on once it is full.
    fn push<'s>(&mut self, game: CutGame, submit: &mut dyn FnMut(Unit<'s>)) {
        self.bytes += game.game.input_len();
        self.games.push(game);
        if self.games.len() >= BATCH_GAMES || self.bytes >= BATCH_BYTES {
            self.flush(submit);
        }
    }

    /// Hands on what is gathered, if anything.
    fn flush<'s>(&mut self, submit: &mut dyn FnMut(Unit<'s>)) {
        if !self.games.is_empty() {
            self.bytes = 0;
            let next = SPARE.with(|spare| spare.borrow_mut().batches.pop());
            let next = next.unwrap_or_else(|| Vec::with_capacity(BATCH_GAMES));
            submit(Unit::Games(std::mem::replace(&mut self.games, next)));
        }
    }
}

/// The calling thread's copies of games that the workers are done with,
/// kept for their room, and the heap bytes they hold.
struct Spare {
    list: Vec<(Box<OwnedCollection>, usize)>,
    /// Emptied batches, kept for their room.
    batches: Vec<Vec<CutGame>>,
    bytes: usize,
}

impl Spare {
    fn take(&mut self) -> Option<Box<OwnedCollection>> {
        let (copy, bytes) = self.list.pop()?;
        self.bytes -= bytes;
        Some(copy)
    }

    fn keep(&mut self, mut spent: Vec<CutGame>) {
        for cut in spent.drain(..) {
            let bytes = cut.game.heap_bytes();
            if bytes <= MAX_SPARE_ONE && self.bytes + bytes <= MAX_SPARE {
                self.bytes += bytes;
                self.list.push((cut.game, bytes));
            }
        }
        if self.batches.len() < MAX_SPARE_BATCHES {
            self.batches.push(spent);
        }
    }
}

/// What a unit gave.
pub(super) struct Done<'s, R> {
    items: Vec<Result<R, InputError>>,
    /// The check of a chunk of a large member, to judge in order.
    checked: Option<Checked>,
    /// Spent chunk buffers, handed back for their room.
    buffers: Vec<Vec<u8>>,
    /// The games worked on, handed back for their room.
    spent: Vec<CutGame>,
    /// Sources of the unit left to the calling thread: the one that held
    /// more than [`Inputs::worker_budget`] bytes of games (or that was
    /// larger than a worker reads whole, or that came after the unit's
    /// games passed that budget), and those after it.
    rest: Vec<(&'s Source, Option<u64>)>,
    /// How many results of the first of `rest` are in `items` already.
    resume: usize,
    /// Whether the first of `rest` is larger than a worker reads whole.
    large: bool,
    /// For each source of a folder: the folder, the members and errors it
    /// gave, how many things it skipped.
    folders: Vec<(usize, u64, u64)>,
    skipped: Skipped,
    /// The bytes of games read from sources of unknown size, and how
    /// many such sources were read.
    read: (u64, u64),
}

impl<R> Done<'_, R> {
    /// On the calling thread, the unit's end: its spent games and chunk
    /// buffers kept for their room, and whether its results stand (a
    /// chunk of a large member is judged in order by `follow`).
    fn settle(&mut self, follow: &mut Follow) -> bool {
        let spent = std::mem::take(&mut self.spent);
        if !spent.is_empty() {
            SPARE.with(|spare| spare.borrow_mut().keep(spent));
        }
        for bytes in self.buffers.drain(..) {
            follow.keep(bytes);
        }
        follow.judge(self.checked.take())
    }
}

/// Copies of games are kept for their room up to this many heap bytes in
/// all, each of at most `MAX_SPARE_ONE`.
const MAX_SPARE: usize = 16 << 20;
const MAX_SPARE_ONE: usize = 64 << 10;
/// Emptied batches kept: as many as can be in flight.
const MAX_SPARE_BATCHES: usize = 64;

thread_local! {
    /// The calling thread's copies of games that the workers are done
    /// with, kept for their room.
    static SPARE: RefCell<Spare> = const {
        RefCell::new(Spare { list: Vec::new(), batches: Vec::new(), bytes: 0 })
    };
    /// Each thread's parser, kept between units for its buffers.
    static IDLE: RefCell<Option<StreamParser<io::Empty>>> = const { RefCell::new(None) };
}

impl Inputs {
    /// [`Inputs::scan_games`] on `jobs` threads: `work` runs on each game
    /// (and on the warnings found after a member's last game) on a worker
    /// thread, and `sink` gets each result, or each error of an input, on
    /// the calling thread in the order of a sequential scan. The output is
    /// the same whatever `jobs` is, 1 included. Returns what was skipped.
    ///
    /// How the work is cut: small files (up to [`WHOLE_FILE`] bytes, or
    /// [`WHOLE_PACKED`] for compressed files and archives) go to the
    /// workers a few at a time, each read whole by one worker (up to
    /// [`Inputs::worker_budget`] bytes of games: the calling thread reads
    /// on past it); a larger file or standard input is read on the calling
    /// thread, which hands its bytes to the workers in chunks of whole
    /// games, checked in order (or, for `.sgfs`, UTF-16, strict parsing or
    /// a limit on what an input holds, parses it and hands copies of its
    /// games on in batches). Each game is worked on once.
    /// Memory: a few units in flight per thread, whatever the inputs'
    /// size. With `jobs` 1 (or 0) no thread is started and nothing is cut:
    /// each game is worked on as the calling thread reads it.
    ///
    /// ```
    /// use sgf_grove::input::Inputs;
    /// use sgf_grove::ParseOptions;
    ///
    /// let dir = std::env::temp_dir().join(format!("sgf-grove-par-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// for (i, moves) in ["B[aa]", "B[aa];W[bb]", "B[aa];W[bb];B[cc]"].iter().enumerate() {
    ///     std::fs::write(dir.join(format!("{i}.sgf")), format!("(;GM[1];{moves})"))?;
    /// }
    /// let mut counts = Vec::new();
    /// Inputs::new([&dir]).par_scan_games(
    ///     ParseOptions::new(),
    ///     2,
    ///     |game| game.tree().map(|tree| tree.moves().count()),
    ///     |result| counts.push(result.unwrap()),
    /// )?;
    /// assert_eq!(counts, [Some(1), Some(2), Some(3)]);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// When the thread pool cannot be built.
    pub fn par_scan_games<R, W, S>(
        &self,
        options: ParseOptions,
        jobs: usize,
        work: W,
        sink: S,
    ) -> Result<Skipped, rayon::ThreadPoolBuildError>
    where
        R: Send,
        W: Fn(ScanGame<'_>) -> R + Sync,
        S: FnMut(Result<R, InputError>),
    {
        self.par_scan_games_sealed(options, jobs, work, || None, sink)
    }

    /// [`Inputs::par_scan_games`] for work that also gathers into a
    /// tally of its thread: `seal` runs on a worker after each piece of
    /// work it took (a few small files, a chunk of a large input, a batch
    /// of games), and what it returns (the tally gathered over the piece,
    /// say) goes to `sink` after the piece's results, in order. When a
    /// piece is dropped and read again (a chunk of a large input cut at a
    /// wrong guess, see [`Inputs::pure_work`]), its sealed result is
    /// dropped with its results: what the sink gets counts each game once.
    /// Work done on the calling thread (with `jobs` 1, or after a wrong
    /// guess) is not sealed: the caller takes what its thread gathered
    /// once the scan returns.
    ///
    /// ```
    /// use sgf_grove::input::Inputs;
    /// use sgf_grove::ParseOptions;
    /// use std::cell::Cell;
    ///
    /// let dir = std::env::temp_dir().join(format!("sgf-grove-sealed-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// for i in 0..40 {
    ///     std::fs::write(dir.join(format!("{i:02}.sgf")), "(;GM[1];B[aa];W[bb])")?;
    /// }
    /// thread_local! { static NODES: Cell<usize> = const { Cell::new(0) }; }
    /// let mut total = 0;
    /// Inputs::new([&dir]).pure_work(true).par_scan_games_sealed(
    ///     ParseOptions::new(),
    ///     2,
    ///     |game| {
    ///         let n = game.tree().map_or(0, |t| t.nodes().count());
    ///         NODES.with(|c| c.set(c.get() + n));
    ///         0
    ///     },
    ///     || Some(NODES.with(|c| c.replace(0))),
    ///     |result| total += result.unwrap(),
    /// )?;
    /// assert_eq!(total, 40 * 3);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// When the thread pool cannot be built.
    pub fn par_scan_games_sealed<R, W, E, S>(
        &self,
        options: ParseOptions,
        jobs: usize,
        work: W,
        seal: E,
        mut sink: S,
    ) -> Result<Skipped, rayon::ThreadPoolBuildError>
    where
        R: Send,
        W: Fn(ScanGame<'_>) -> R + Sync,
        E: Fn() -> Option<R> + Sync,
        S: FnMut(Result<R, InputError>),
    {
        if jobs <= 1 {
            return Ok(self.scan_games_here(options, &work, &mut sink));
        }
        // One folder is walked while the workers read what the walk found
        // so far (its sources allocated as they come); any other inputs
        // are listed first.
        let walked = self.walked_while_read().map(Path::to_path_buf);
        let arena = typed_arena::Arena::new();
        let listed = match walked {
            Some(_) => Sources::default(),
            None => self.listed(Walk {
                sized: true,
                hold: true,
            }),
        };
        let mut skipped = listed.skipped().clone();
        let mut folders = match walked {
            Some(_) => vec![(0, 0)],
            None => listed.folder_tallies(),
        };
        // The sink is also called by the calling thread when it parses a
        // stretch of a large member itself (after a bad guess of a cut).
        let sink = RefCell::new(sink);
        let follow = RefCell::new(Follow::default());
        // The bytes of games read from the sources of unknown size, and
        // how many: what a group of them is sized by.
        let read = std::cell::Cell::new((0u64, 0u64));
        let run = |unit| {
            let mut done = self.run_unit(unit, options, &work);
            if let Some(sealed) = seal() {
                done.items.push(Ok(sealed));
            }
            done
        };
        let collect = |mut done: Done<'_, R>| {
            for &(folder, reported, skipped) in &done.folders {
                folders[folder].0 += reported;
                folders[folder].1 += skipped;
            }
            skipped.merge(std::mem::take(&mut done.skipped));
            let (bytes, files) = read.get();
            read.set((bytes + done.read.0, files + done.read.1));
            let stands = done.settle(&mut follow.borrow_mut());
            let mut sink = sink.borrow_mut();
            if stands {
                for item in done.items {
                    sink(item);
                }
            }
            let mut resume = done.resume;
            let mut large = done.large;
            for (source, _) in done.rest {
                let before = skipped.total();
                // A large file found by a walk that asked no sizes: read
                // as any large file is, its games parsed on all cores.
                let cut = std::mem::take(&mut large).then(|| {
                    let sink: &mut dyn FnMut(_) = &mut *sink;
                    self.cut_apart(source, options, jobs, (&work, &seal), sink, &mut skipped)
                });
                let reported = match cut {
                    Some(Ok(reported)) => reported,
                    _ => self.scan_source_here(
                        source,
                        Take::Whole(source.whole_limit()),
                        options,
                        (&work, &mut *sink),
                        std::mem::take(&mut resume),
                        &mut skipped,
                    ),
                };
                if let Some(folder) = source.folder() {
                    folders[folder].0 += reported;
                    folders[folder].1 += skipped.total() - before;
                }
            }
        };
        let cancel = || self.cancelled();
        let mut feed = Feed::new(&work, &sink, &follow, &cancel, self.is_pure_work());
        let (tx, rx) = mpsc::sync_channel::<Vec<Source>>(WALK_AHEAD / WALK_BATCH);
        let walked = std::thread::scope(|scope| {
            let walker = walked.as_deref().map(|root| {
                scope.spawn(move || {
                    // Handed on a few at a time (a send each would cost
                    // more in waking the scan than in walking).
                    let tx = tx;
                    let mut batch = Vec::with_capacity(WALK_BATCH);
                    let walked = Inputs::walk_streamed(root, &mut |source| {
                        batch.push(source);
                        batch.len() < WALK_BATCH
                            || tx
                                .send(std::mem::replace(
                                    &mut batch,
                                    Vec::with_capacity(WALK_BATCH),
                                ))
                                .is_ok()
                    });
                    if !batch.is_empty() {
                        let _ = tx.send(batch);
                    }
                    walked
                })
            });
            let streaming = walker.is_some();
            let scanned = ordered_scope(jobs, jobs.max(1) * 4, run, collect, |submit| {
                // Dropped when the scan ends: a walk not done stops (its
                // next send fails).
                let rx = rx;
                let found: Box<dyn Iterator<Item = &Source>> = if streaming {
                    Box::new(rx.iter().flatten().map(|source| &*arena.alloc(source)))
                } else {
                    Box::new(listed.iter())
                };
                let mut group = Vec::new();
                let mut group_bytes = 0;
                for source in found {
                    if self.cancelled() {
                        break;
                    }
                    match source.whole_size() {
                        Some(size) => {
                            group.push((source, size));
                            // A file found by a walk that asked no size
                            // counts as the mean of those read so far.
                            group_bytes += size.unwrap_or_else(|| match read.get() {
                                (_, 0) => GROUP_BYTES / 8,
                                (bytes, files) => bytes / files,
                            });
                            if group.len() >= GROUP_FILES || group_bytes >= GROUP_BYTES {
                                group_bytes = 0;
                                submit.submit(Unit::Sources(std::mem::take(&mut group)));
                            }
                        }
                        None => {
                            if !group.is_empty() {
                                group_bytes = 0;
                                submit.submit(Unit::Sources(std::mem::take(&mut group)));
                            }
                            self.cut(source, options, submit, &mut feed);
                        }
                    }
                }
                if !group.is_empty() {
                    submit.submit(Unit::Sources(group));
                }
            });
            let walked = walker.map(|walker| {
                walker
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            });
            scanned.map(|()| walked)
        })?;
        if let Some(walked) = &walked {
            skipped.merge(walked.skipped().clone());
            for (tally, (_, there)) in folders.iter_mut().zip(walked.folder_tallies()) {
                tally.1 += there;
            }
        }
        let sources = walked.as_ref().unwrap_or(&listed);
        let mut sink = sink.into_inner();
        // A scan stopped early did not look at every folder.
        let empty = if self.cancelled() {
            Vec::new()
        } else {
            sources.empty_folders(&folders)
        };
        for err in empty {
            sink(Err(err));
        }
        skipped.sort();
        Ok(skipped)
    }

    /// Reads `source`, which a worker found larger than it reads whole (a
    /// folder walk asks no sizes), as the calling thread reads any large
    /// source ([`Inputs::cut`]), the pieces parsed by a pool of `jobs`
    /// threads of its own: those of the scan are idle by now, as their
    /// results wait for this source's. Returns how many members and
    /// errors it gave; adds what it skipped to `skipped`.
    fn cut_apart<R, W, E>(
        &self,
        source: &Source,
        options: ParseOptions,
        jobs: usize,
        (work, seal): (&W, &E),
        sink: &mut dyn FnMut(Result<R, InputError>),
        skipped: &mut Skipped,
    ) -> Result<u64, rayon::ThreadPoolBuildError>
    where
        R: Send,
        W: Fn(ScanGame<'_>) -> R + Sync,
        E: Fn() -> Option<R> + Sync,
    {
        let sink = RefCell::new(sink);
        let follow = RefCell::new(Follow::default());
        let mut reported = 0;
        let run = |unit| {
            let mut done = self.run_unit(unit, options, work);
            if let Some(sealed) = seal() {
                done.items.push(Ok(sealed));
            }
            done
        };
        let collect = |mut done: Done<'_, R>| {
            // Its end: the members and errors it gave.
            reported += done.folders.iter().map(|&(_, n, _)| n).sum::<u64>();
            skipped.merge(std::mem::take(&mut done.skipped));
            let stands = done.settle(&mut follow.borrow_mut());
            if stands {
                let mut sink = sink.borrow_mut();
                for item in done.items {
                    sink(item);
                }
            }
        };
        let cancel = || self.cancelled();
        let mut feed = Feed::new(work, &sink, &follow, &cancel, self.is_pure_work());
        ordered_scope(jobs, jobs.max(1) * 4, run, collect, |submit| {
            self.cut(source, options, submit, &mut feed);
        })?;
        Ok(reported)
    }

    /// [`Inputs::par_scan_games`] on one thread, the calling one: each
    /// game is worked on as it is read, with no copy, and small files are
    /// read whole as the workers read them.
    fn scan_games_here<R, W, S>(&self, options: ParseOptions, work: &W, sink: &mut S) -> Skipped
    where
        W: Fn(ScanGame<'_>) -> R,
        S: FnMut(Result<R, InputError>),
    {
        // No size asked of each file found in a folder: read whole, up to
        // the size a worker reads, each tells it.
        let sources = self.listed(Walk {
            sized: false,
            hold: true,
        });
        let mut skipped = sources.skipped().clone();
        let mut folders = sources.folder_tallies();
        for source in sources.iter() {
            if self.cancelled() {
                break;
            }
            let before = skipped.total();
            // Large files are read as streams.
            let take = match source.whole_size() {
                Some(_) => Take::Whole(source.whole_limit()),
                None => Take::Stream,
            };
            let reported =
                self.scan_source_here(source, take, options, (work, &mut *sink), 0, &mut skipped);
            if let Some(folder) = source.folder() {
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
            sink(Err(err));
        }
        skipped.sort();
        skipped
    }

    /// Reads one source on the calling thread (as `take` says), works on
    /// each game as it is read and
    /// hands the result to `sink`, except for the first `resume` results
    /// (games and errors), which a worker has already handed on; returns
    /// how many members and errors it gave.
    fn scan_source_here<R, W, S>(
        &self,
        source: &Source,
        take: Take,
        options: ParseOptions,
        (work, sink): (&W, &mut S),
        mut resume: usize,
        skipped: &mut Skipped,
    ) -> u64
    where
        W: Fn(ScanGame<'_>) -> R,
        S: FnMut(Result<R, InputError>),
    {
        let mut idle = IDLE.with(|cell| cell.borrow_mut().take());
        // Whether a result is one a worker handed on already.
        let mut seen = || {
            let seen = resume > 0;
            resume = resume.saturating_sub(1);
            seen
        };
        let reported = source.scan_sized(self, skipped, take, |member| {
            match member {
                Err(err) if !seen() => sink(Err(err)),
                Err(_) => {}
                Ok(member) => {
                    let _ = games_of(member, options, self, &mut idle, &mut |game| {
                        if seen() {
                            return Ok::<(), Infallible>(());
                        }
                        sink(game.map(|game| {
                            let coll = *game.collection();
                            work(ScanGame {
                                origin: game.origin(),
                                collection: coll,
                                tree: game.tree(),
                                warnings: coll.warnings(),
                            })
                        }));
                        Ok::<(), Infallible>(())
                    });
                }
            }
            Ok::<(), Infallible>(())
        });
        IDLE.with(|cell| *cell.borrow_mut() = idle);
        // Never `None`: a file too large to read whole is read as a stream.
        let Ok(reported) = reported;
        reported.unwrap_or(0)
    }

    /// Reads a large source on the calling thread: each member of text
    /// read as one stream goes to the workers in chunks
    /// ([`super::par_chunks`]); any other (`.sgfs`, UTF-16, strict
    /// parsing, limits on what an input may hold) is parsed here and a
    /// copy of each of its games handed on. Then its end.
    fn cut<'s, R, W, S>(
        &self,
        source: &'s Source,
        options: ParseOptions,
        submit: &mut Submit<'_, Unit<'s>, Done<'s, R>>,
        feed: &mut Feed<'_, W, S>,
    ) where
        R: Send,
        W: Fn(ScanGame<'_>) -> R + Sync,
        S: FnMut(Result<R, InputError>),
    {
        let mut skipped = Skipped::default();
        let mut idle = IDLE.with(|cell| cell.borrow_mut().take());
        let mut batch = Batch::default();
        // Chunks give the games and warnings of one parse of the stream;
        // what the limits of an input count, as a parse counts it, is
        // left to the copies.
        let chunked = !options.is_strict() && !self.limited();
        let reported = source.scan(self, &mut skipped, |member| {
            let member = match member {
                Ok(member) => member,
                Err(err) => {
                    feed.flush_batch(submit);
                    batch.flush(&mut |unit| submit.submit(unit));
                    submit.submit(Unit::Error(err));
                    return Ok::<(), Infallible>(());
                }
            };
            let origin = Arc::new(member.origin().clone());
            // A record of another format is converted whole, never cut.
            if chunked && member.kind() == MemberKind::Sgf && member.content() == Content::Text {
                chunk_member(origin, member.into_reader(), options, submit, feed);
                return Ok(());
            }
            feed.flush_batch(submit);
            let submit = &mut |unit| submit.submit(unit);
            games_of(member, options, self, &mut idle, &mut |game: Result<
                Game<'_>,
                _,
            >| {
                match game {
                    Err(err) => {
                        // In order: the games before the error first.
                        batch.flush(submit);
                        submit(Unit::Error(err));
                    }
                    Ok(game) => {
                        let copy = SPARE.with(|spare| spare.borrow_mut().take());
                        let mut copy = copy.unwrap_or_default();
                        game.collection().copy_into(&mut copy);
                        let cut = CutGame {
                            origin: Arc::clone(&origin),
                            game: copy,
                        };
                        batch.push(cut, submit);
                    }
                }
                Ok::<(), Infallible>(())
            })?;
            batch.flush(submit);
            Ok(())
        });
        IDLE.with(|cell| *cell.borrow_mut() = idle);
        let Ok(reported) = reported;
        feed.flush_batch(submit);
        batch.flush(&mut |unit| submit.submit(unit));
        submit.submit(Unit::End {
            folder: source.folder(),
            reported,
            skipped,
        });
    }

    /// Does the work of one unit on a worker.
    fn run_unit<'s, R, W>(&self, unit: Unit<'s>, options: ParseOptions, work: &W) -> Done<'s, R>
    where
        W: Fn(ScanGame<'_>) -> R,
    {
        let mut done = Done {
            items: Vec::new(),
            checked: None,
            buffers: Vec::new(),
            spent: Vec::new(),
            rest: Vec::new(),
            resume: 0,
            large: false,
            folders: Vec::new(),
            skipped: Skipped::default(),
            read: (0, 0),
        };
        match unit {
            Unit::Error(err) => done.items.push(Err(err)),
            Unit::End {
                folder,
                reported,
                skipped,
            } => {
                if let Some(folder) = folder {
                    done.folders.push((folder, reported, skipped.total()));
                }
                done.skipped = skipped;
            }
            Unit::Sources(sources) => {
                for (i, &(source, size)) in sources.iter().enumerate() {
                    // Sources of unknown size may be larger than their
                    // group was made for: once the games read pass the
                    // budget, the calling thread reads the rest.
                    if i > 0 && done.read.0 >= self.budget() as u64 {
                        done.rest = sources[i..].to_vec();
                        break;
                    }
                    let mut skipped = Skipped::default();
                    let before = done.items.len();
                    let mut bytes = 0;
                    let ran = self.run_source(
                        source,
                        options,
                        work,
                        (&mut done.items, &mut bytes),
                        &mut skipped,
                    );
                    if size.is_none() {
                        done.read.0 += bytes as u64;
                        done.read.1 += 1;
                    }
                    match ran {
                        Ok(reported) => {
                            if let Some(folder) = source.folder() {
                                done.folders.push((folder, reported, skipped.total()));
                            }
                            done.skipped.merge(skipped);
                        }
                        Err(left) => {
                            // The results so far stand; the calling thread
                            // reads the source again for the rest.
                            done.resume = done.items.len() - before;
                            done.large = matches!(left, Left::Large);
                            done.rest = sources[i..].to_vec();
                            break;
                        }
                    }
                }
            }
            Unit::Chunks(chunks) => {
                let cancel = || self.cancelled();
                for mut chunk in chunks {
                    done.checked = run_chunk(&mut chunk, &cancel, work, &mut done.items);
                    done.buffers.extend(chunk.into_bytes());
                }
            }
            Unit::Games(cuts) => {
                for cut in &cuts {
                    let coll = cut.game.collection();
                    done.items.push(Ok(work(ScanGame {
                        origin: &cut.origin,
                        collection: coll,
                        tree: coll.games().next(),
                        warnings: coll.warnings(),
                    })));
                }
                done.spent = cuts;
            }
        }
        done
    }

    /// Reads a whole source on a worker and works on its games, adding
    /// their bytes to `bytes`; returns how many members and errors it
    /// gave, or [`Left::OverBudget`] once its games pass
    /// [`Inputs::worker_budget`] bytes, or when it is larger than a
    /// worker reads whole (nothing read).
    fn run_source<R, W>(
        &self,
        source: &Source,
        options: ParseOptions,
        work: &W,
        (items, bytes): (&mut Vec<Result<R, InputError>>, &mut usize),
        skipped: &mut Skipped,
    ) -> Result<u64, Left>
    where
        W: Fn(ScanGame<'_>) -> R,
    {
        let mut idle = IDLE.with(|cell| cell.borrow_mut().take());
        let take = Take::WholeOnly(source.whole_limit());
        let reported = source.scan_sized(self, skipped, take, |member| match member {
            Err(err) => {
                items.push(Err(err));
                Ok(())
            }
            Ok(member) => games_of(member, options, self, &mut idle, &mut |game| {
                if let Some(tree) = game.as_ref().ok().and_then(Game::tree) {
                    *bytes += tree.span().len();
                    if *bytes > self.budget() {
                        return Err(Left::OverBudget);
                    }
                }
                items.push(game.map(|game| {
                    let coll = *game.collection();
                    work(ScanGame {
                        origin: game.origin(),
                        collection: coll,
                        tree: game.tree(),
                        warnings: coll.warnings(),
                    })
                }));
                Ok(())
            }),
        });
        IDLE.with(|cell| *cell.borrow_mut() = idle);
        // Larger than a worker reads whole: left to the calling thread.
        reported?.ok_or(Left::Large)
    }
}

/// Why a worker left a source to the calling thread.
#[derive(Debug)]
enum Left {
    /// Read whole, it held more games than a worker may keep.
    OverBudget,
    /// Larger than a worker reads whole (nothing read): found by a walk
    /// that asked no size.
    Large,
}
