//! One large member on all cores: its bytes cut into chunks of whole
//! games, each parsed by a worker, the results checked in order against
//! what one parse of the whole member gives.
//!
//! The calling thread only reads: it reads the member into blocks, looks
//! for a likely game start past every [`CHUNK`] bytes of a block (a `(`
//! after a `)` and whitespace, opening a node with a property only a root
//! holds, as `(;GM[1]`), counts the likely game starts of the chunk the
//! same way (the index of the next chunk's first game is a guess from
//! this count), and hands the chunk, with [`TAIL`] bytes after it, to a
//! worker: the block itself, shared, with no copy (the next block starts
//! with a copy of the few bytes read past the cut). The worker parses the
//! chunk with the stream parser a sequential scan reads the member with,
//! restarted there (offsets, lines, columns and game indices those of the
//! member), and works on its games.
//!
//! A guess is only a guess: a comment may quote SGF at a line start, a
//! game may hold no root property. So each worker checks its end: the
//! first game it finds at or past the cut starts exactly at the cut, with
//! no warning before it (no junk in between), and the chunk held as many
//! games as guessed. The calling thread takes the results in order:
//!
//! - all checks hold: the results stand (the parser decided each game on
//!   the same bytes, in the same state, as a parse of the whole member:
//!   a game is decided on at most the lexer's 4 KiB look-ahead past it,
//!   and the tail holds that much);
//! - the cut is right but the count is not: the chunk's results stand,
//!   the chunks after it are dropped and cut again, with the right count;
//! - the cut is wrong (it fell inside a game): the chunk and those after
//!   it are dropped, and the calling thread parses on from the chunk's
//!   start itself, as one parse would, until a game starts at a likely
//!   start past the bad one, where cutting takes up again;
//! - the parse stopped on an error: the results up to it stand and the
//!   member ends there, as it does in one parse.
//!
//! So the games, warnings, errors and their order are those of one parse,
//! whatever the input. Each game is worked on as its chunk is parsed when
//! the work is pure ([`Inputs::pure_work`](super::Inputs::pure_work)): a
//! chunk dropped takes its results with it, and what the workers gathered
//! over it ([`Inputs::par_scan_games_sealed`](super::Inputs::par_scan_games_sealed)).
//! Otherwise each game is worked on once: a worker parses its chunk to
//! check it, tells the other workers whether its cut held ([`Chain`]), and
//! parses it again to work on it only once every chunk before its own
//! held (a member read whole, in one chunk, is worked on as it is
//! parsed). Memory: the blocks in flight (a few per thread, each a chunk
//! and its tail), kept by the calling thread until their chunks are
//! checked, plus the largest game.

use super::likely::{likely_start, opens_root};
use super::par::{Done, ScanGame, Unit};
use super::scan::Broken;
use super::{InputError, Origin};
use crate::parallel::Submit;
use crate::{Collection, ParseOptions, Position, StreamParser};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, Read};
use std::sync::{Arc, Condvar, Mutex, PoisonError};

/// About how many bytes a chunk holds: the first likely game start past
/// this many bytes ends it.
pub(super) const CHUNK: usize = 1 << 20;

/// How many bytes after its cut a chunk carries: the parser decides on a
/// game by looking at most the lexer's look-ahead (4 KiB) past the bytes
/// it read, so a game that ends before the cut is decided on the same
/// bytes as in one parse of the member.
pub(super) const TAIL: usize = 16 << 10;
const _: () = assert!(TAIL >= 2 * crate::lexer::LOOKAHEAD + 2);

/// A member holding no likely game start over this many bytes past a
/// chunk's start is parsed on the calling thread (one game of that size,
/// or bytes the guess cannot read).
const FORCE: usize = 64 << 20;

/// Past this many failed guesses in a member (and one more for every 16
/// chunks that held), the calling thread parses the rest of it (its games
/// do not look as the guess expects; each failure costs the chunks in
/// flight).
const MAX_FAILS: usize = 2;

/// Small members (read whole in one chunk) go to the workers a few at a
/// time: at most this many, or this many bytes.
const BATCH: usize = 64;
const BATCH_BYTES: usize = 1 << 20;

/// How many bytes the calling thread reads at a time.
const READ: usize = 1 << 20;

/// Chunk buffers kept for their room.
const MAX_SPARE: usize = 32;

/// A piece of a member for a worker: whole games, then bytes to decide on
/// the last of them.
pub(super) struct Chunk {
    origin: Arc<Origin>,
    options: ParseOptions,
    /// The block of the member read that holds the chunk: the chunk is
    /// `bytes[from..from + cut]`, then its tail up to `to`.
    bytes: Arc<Vec<u8>>,
    from: usize,
    to: usize,
    cut: usize,
    /// Where the chunk starts in the member.
    at: Position,
    /// How many games of the member come before it.
    base: usize,
    /// What to check at its end; `None` for a member read whole.
    check: Option<Check>,
    /// The verdicts of the chunks cut since the member (or the last bad
    /// guess in it) started.
    chain: Option<Arc<Chain>>,
    /// The error the member broke on after the chunk's bytes, if any (the
    /// last chunk only).
    broken: Option<io::Error>,
    /// Whether its games are worked on as they are parsed, before the
    /// chunks before it are checked ([`Inputs::pure_work`](super::Inputs::pure_work)).
    pure: bool,
}

impl Chunk {
    fn bytes_len(&self) -> usize {
        self.to - self.from
    }

    /// Its buffer, for its room, when no other chunk shares it.
    pub(super) fn into_bytes(self) -> Option<Vec<u8>> {
        Arc::try_unwrap(self.bytes).ok()
    }
}

/// What a worker checks at the end of a chunk of a member cut in several.
#[derive(Clone, Copy)]
struct Check {
    /// Chunks of a bad guess are dropped: those of an older epoch.
    epoch: u64,
    /// How many games the chunk holds, as guessed.
    guess: usize,
    /// Where the cut is in the member.
    next: Position,
    /// The member's last chunk (no cut to check).
    last: bool,
    /// Its place in its [`Chain`].
    seq: usize,
}

/// Whether each chunk of a chain held (its cut and count right): a worker
/// works on its chunk's games only once every chunk before it held, so
/// that no game is worked on that a bad guess makes read again.
#[derive(Debug, Default)]
pub(super) struct Chain {
    held: Mutex<Vec<Option<bool>>>,
    ready: Condvar,
}

impl Chain {
    /// Says whether chunk `seq` held, then waits for the chunks before it:
    /// whether all of them held. (Chunks start in order, and each says
    /// before it waits: the wait ends.)
    fn wait(&self, seq: usize, held: bool) -> bool {
        let mut all = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        if all.len() <= seq {
            all.resize(seq + 1, None);
        }
        all[seq] = Some(held);
        self.ready.notify_all();
        loop {
            if all[..seq].contains(&Some(false)) {
                return false;
            }
            if all[..seq].iter().all(Option::is_some) {
                return true;
            }
            all = self.ready.wait(all).unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// Says a chunk did not hold if its worker stops before saying anything
/// (a panic), so that the chunks after it do not wait for ever.
struct Said<'c> {
    chain: Option<&'c Chain>,
    seq: usize,
}

impl Drop for Said<'_> {
    fn drop(&mut self) {
        if let Some(chain) = self.chain {
            let mut all = chain.held.lock().unwrap_or_else(PoisonError::into_inner);
            if all.len() <= self.seq {
                all.resize(self.seq + 1, None);
            }
            if all[self.seq].is_none() {
                all[self.seq] = Some(false);
                chain.ready.notify_all();
            }
        }
    }
}

/// What a worker found at the end of a chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// The cut and the count are right.
    Clean,
    /// The cut is right, the chunk held this many games.
    Miscounted(usize),
    /// The cut is not a game start of the member as one parse reads it.
    Unclean,
    /// The parse stopped on an error before the cut.
    Ended,
}

/// A chunk's check and what it found, for the calling thread.
pub(super) struct Checked {
    check: Check,
    verdict: Verdict,
    at: Position,
    base: usize,
}

/// Where the calling thread takes up a member again after a bad guess.
#[derive(Clone, Copy, Debug)]
struct Restart {
    at: Position,
    base: usize,
    /// Parse on the calling thread (the cut was wrong) until a likely
    /// game start at or past `min_back`.
    serial: bool,
    min_back: usize,
}

/// What the calling thread knows of the chunks checked so far.
#[derive(Default)]
pub(super) struct Follow {
    epoch: u64,
    restart: Option<Restart>,
    ended: bool,
    /// The start of the oldest chunk not checked yet: bytes before it
    /// are not needed again.
    settled: usize,
    /// How many chunks of the member held.
    held: usize,
    spare: Vec<Vec<u8>>,
}

impl Follow {
    /// Takes a finished chunk's check; says whether its results stand.
    pub(super) fn judge(&mut self, checked: Option<Checked>) -> bool {
        let Some(c) = checked else {
            return true;
        };
        if c.check.epoch != self.epoch {
            return false;
        }
        let restart = |serial: bool, at: Position, base: usize| Restart {
            at,
            base,
            serial,
            min_back: c.check.next.offset,
        };
        match c.verdict {
            Verdict::Clean => {
                self.settled = c.check.next.offset;
                self.held += 1;
                true
            }
            Verdict::Miscounted(n) => {
                self.epoch += 1;
                self.restart = Some(restart(false, c.check.next, c.base + n));
                true
            }
            Verdict::Unclean => {
                self.epoch += 1;
                self.restart = Some(restart(true, c.at, c.base));
                false
            }
            Verdict::Ended => {
                self.epoch += 1;
                self.ended = true;
                true
            }
        }
    }

    /// Keeps a spent chunk's buffer for its room.
    pub(super) fn keep(&mut self, mut bytes: Vec<u8>) {
        if self.spare.len() < MAX_SPARE && bytes.capacity() <= 4 * CHUNK {
            bytes.clear();
            self.spare.push(bytes);
        }
    }

    fn buffer(&mut self) -> Vec<u8> {
        self.spare.pop().unwrap_or_default()
    }
}

thread_local! {
    /// Each thread's stream parser, kept for its buffers: the workers'
    /// for chunks, the calling thread's for the stretches it reads itself.
    static IDLE: RefCell<Option<StreamParser<io::Empty>>> = const { RefCell::new(None) };
}

/// Parses a chunk on a worker, works on its games and pushes the results
/// to `items`; returns its check and what it found (`None` for a member
/// read whole). A chunk of a member cut in several is worked on as it is
/// parsed when the work is pure (the calling thread drops the results if
/// the chunk does not stand); otherwise it is parsed once to check it, and
/// parsed again and worked on only once the chunks before it held
/// ([`Chain`]), so that each game is worked on once.
pub(super) fn run_chunk<R, W>(
    chunk: &mut Chunk,
    cancel: &dyn Fn() -> bool,
    work: &W,
    items: &mut Vec<Result<R, InputError>>,
) -> Option<Checked>
where
    W: Fn(ScanGame<'_>) -> R,
{
    let chain = chunk.chain.clone();
    let said = Said {
        chain: chain.as_deref(),
        seq: chunk.check.map_or(0, |c| c.seq),
    };
    let mut broken = chunk.broken.take();
    let chunk = &*chunk;
    let origin = &*chunk.origin;
    let mut game = |coll: Collection<'_, '_>| {
        let tree = coll.games().next();
        items.push(Ok(work(ScanGame::new(origin, coll, tree, coll.warnings()))));
    };
    let direct = chunk.check.is_none() || chunk.pure;
    let (verdict, failed) = if direct {
        parse_chunk(chunk, &mut broken, cancel, &mut game)
    } else {
        parse_chunk(chunk, &mut broken, cancel, &mut |_| {})
    };
    let Some(check) = chunk.check else {
        items.extend(failed.map(Err));
        return None;
    };
    if !direct {
        let last = check.last;
        let holds = verdict == Verdict::Clean || (last && verdict != Verdict::Unclean);
        let before = chain
            .as_deref()
            .is_some_and(|chain| chain.wait(check.seq, holds));
        if before && verdict != Verdict::Unclean {
            // The same bytes give the same games, the same verdict.
            parse_chunk(chunk, &mut broken, cancel, &mut game);
        } else {
            drop(said);
            return Some(Checked {
                check,
                verdict,
                at: chunk.at,
                base: chunk.base,
            });
        }
    }
    drop(said);
    items.extend(failed.map(Err));
    Some(Checked {
        check,
        verdict,
        at: chunk.at,
        base: chunk.base,
    })
}

/// Parses a chunk's bytes as a stream that starts at the chunk (the
/// stream parser a sequential scan reads the member with, restarted
/// there), handing each game (or warnings alone) before the cut to
/// `game`; says what it found at the end, with the error the member ended
/// on there, if any. (The parser copies the bytes into its window: a
/// parse of the bytes in place as one input decides some damaged games
/// differently from a stream, which a sequential scan is.)
fn parse_chunk(
    chunk: &Chunk,
    broken: &mut Option<io::Error>,
    cancel: &dyn Fn() -> bool,
    game: &mut dyn FnMut(Collection<'_, '_>),
) -> (Verdict, Option<InputError>) {
    let last = chunk.check.is_none_or(|c| c.last);
    let cut = chunk.at.offset + chunk.cut;
    let guess = chunk.check.map_or(0, |c| c.guess);
    let mut count = 0;
    let idle = IDLE.with(|cell| cell.borrow_mut().take());
    let parser = idle.unwrap_or_else(|| StreamParser::new(io::empty()));
    // (The error is taken by the first parse of a chunk parsed twice: the
    // second one's end is not used.)
    let src = (&chunk.bytes[chunk.from..chunk.to]).chain(Broken(broken.take()));
    let mut stream = parser.recycle(src, chunk.options);
    stream.restart_at(chunk.at, chunk.base);
    let found = loop {
        if cancel() {
            break (Verdict::Ended, None);
        }
        let Some(next) = stream.next_game() else {
            break (
                if last {
                    Verdict::Clean
                } else {
                    Verdict::Unclean
                },
                None,
            );
        };
        let coll = match next {
            Ok(coll) => coll,
            Err(err) if last || (err.has_position() && err.offset() < cut) => {
                let err = InputError::parse(chunk.origin.as_ref().clone(), err);
                break (Verdict::Ended, Some(err));
            }
            Err(_) => break (Verdict::Unclean, None),
        };
        let tree = coll.games().next();
        match tree {
            Some(tree) if !last => {
                let start = coll.stream_offset(tree.span().start);
                if start >= cut {
                    let clean = start == cut && coll.warnings().iter().all(|w| w.pos.offset >= cut);
                    let verdict = if !clean {
                        Verdict::Unclean
                    } else if count == guess {
                        Verdict::Clean
                    } else {
                        Verdict::Miscounted(count)
                    };
                    break (verdict, None);
                }
            }
            // Warnings alone before the tail's end: junk at the cut.
            None if !last => break (Verdict::Unclean, None),
            _ => {}
        }
        count += 1;
        game(coll);
    };
    let stream = stream.recycle(io::empty(), ParseOptions::new());
    IDLE.with(|cell| *cell.borrow_mut() = Some(stream));
    found
}

/// The bytes of a member the calling thread has read and still needs: the
/// block being read into, and the blocks handed to workers before it
/// (kept until their chunks are checked, to read again after a bad
/// guess). A block starts where the chunk before it was cut, so that
/// every search for a cut and every count runs over one slice; the bytes
/// read past a cut are copied to the next block (a tail and the rest of
/// the last read), the others never.
struct Held<'r> {
    src: Box<dyn Read + 'r>,
    /// Blocks handed on, oldest first, with their offsets in the member.
    old: VecDeque<(usize, Arc<Vec<u8>>)>,
    /// The block read into now.
    bytes: Vec<u8>,
    /// The offset in the member of `bytes[0]`.
    at: usize,
    eof: bool,
    broken: Option<io::Error>,
}

impl Held<'_> {
    /// The offset in the member past the last byte read.
    fn end(&self) -> usize {
        self.at + self.bytes.len()
    }

    /// The bytes from `from` to `to` of the current block, offsets in the
    /// member.
    fn slice(&self, from: usize, to: usize) -> &[u8] {
        &self.bytes[from - self.at..to - self.at]
    }

    /// The bytes held from `pos` on, in the block that holds it (the
    /// current one first), with the offset of that block's first byte.
    fn bytes_at(&self, pos: usize) -> Option<(usize, &[u8])> {
        if pos >= self.at {
            return Some((self.at, &self.bytes));
        }
        self.old
            .iter()
            .find(|(at, b)| *at <= pos && pos < at + b.len())
            .map(|(at, b)| (*at, &b[..]))
    }

    /// Reads more, up to `want` bytes; notes the end or a break.
    fn fill(&mut self, want: usize) {
        if self.eof {
            return;
        }
        // Room first: the read fills it without growing the buffer.
        self.bytes.reserve(want);
        let mut take = (&mut self.src).take(want as u64);
        match take.read_to_end(&mut self.bytes) {
            Ok(n) if n < want => self.eof = true,
            Ok(_) => {}
            Err(err) => {
                self.broken = Some(err);
                self.eof = true;
            }
        }
    }

    /// Hands the current block on, to be shared with a chunk; the next
    /// block starts at `next` (a cut in this one) with a copy of the
    /// bytes from there, in `room`.
    fn hand_on(&mut self, next: usize, mut room: Vec<u8>) -> Arc<Vec<u8>> {
        room.clear();
        room.extend_from_slice(&self.bytes[next - self.at..]);
        let block = Arc::new(std::mem::replace(&mut self.bytes, room));
        self.old.push_back((self.at, Arc::clone(&block)));
        self.at = next;
        block
    }

    /// Makes the current block start at `pos`, a place in a block handed
    /// on (where cutting takes up again after a bad guess, once every
    /// chunk in flight is back): the bytes from there are gathered into
    /// one block again.
    fn rewind(&mut self, pos: usize, spare: &mut Vec<Vec<u8>>) {
        if pos >= self.at {
            return;
        }
        let mut gathered = spare.pop().unwrap_or_default();
        gathered.clear();
        let mut at = pos;
        while at < self.at {
            let Some((block_at, bytes)) = self.bytes_at(at) else {
                break;
            };
            let upto = (self.at - block_at).min(bytes.len());
            gathered.extend_from_slice(&bytes[at - block_at..upto]);
            at = block_at + upto;
        }
        debug_assert_eq!(at, self.at, "the blocks held cover the member from {pos}");
        gathered.extend_from_slice(&self.bytes);
        let old = std::mem::replace(&mut self.bytes, gathered);
        spare.push(old);
        self.at = pos;
        for (_, block) in self.old.drain(..) {
            if let Ok(bytes) = Arc::try_unwrap(block) {
                spare.push(bytes);
            }
        }
    }

    /// Forgets the bytes before `offset` (when they are many): the blocks
    /// handed on that the next block covers from there, and the start of
    /// the current block. Blocks no chunk shares any more go to `spare`.
    fn drop_before(&mut self, offset: usize, spare: &mut Vec<Vec<u8>>) {
        loop {
            let next = self.old.get(1).map_or(self.at, |(at, _)| *at);
            if self.old.is_empty() || next > offset {
                break;
            }
            if let Some((_, block)) = self.old.pop_front()
                && let Ok(bytes) = Arc::try_unwrap(block)
            {
                spare.push(bytes);
            }
        }
        if !self.old.is_empty() {
            return;
        }
        let n = offset.saturating_sub(self.at).min(self.bytes.len());
        if n >= READ && n * 2 >= self.bytes.len() {
            self.bytes.drain(..n);
            self.at += n;
        }
    }
}

/// The parser's source on the calling thread: the bytes held from an
/// offset on, read further as needed (and kept, so that cutting can take
/// up again at a game the parse reaches).
struct HeldReader<'h, 'r> {
    held: &'h RefCell<Held<'r>>,
    pos: usize,
}

impl Read for HeldReader<'_, '_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut held = self.held.borrow_mut();
        if self.pos == held.end() {
            if held.eof {
                return match held.broken.take() {
                    Some(err) => Err(err),
                    None => Ok(0),
                };
            }
            held.fill(READ);
        }
        let Some((at, bytes)) = held.bytes_at(self.pos) else {
            // Dropped: never, the parse reads on from bytes still needed.
            return Err(io::Error::other("bytes of the member no longer held"));
        };
        let from = &bytes[self.pos - at..];
        let n = from.len().min(buf.len());
        buf[..n].copy_from_slice(&from[..n]);
        self.pos += n;
        Ok(n)
    }
}

/// The first likely game start in `bytes[from..to]`.
fn find_cut(bytes: &[u8], from: usize, to: usize) -> Option<usize> {
    memchr::memchr_iter(b'(', &bytes[from..to])
        .map(|i| from + i)
        .find(|&i| likely_start(bytes, i))
}

/// How many games `bytes[from..to]` (a chunk, from a game start or the
/// member's start) likely holds: each `(` that opens a node holding a
/// root property, whatever comes before it (after junk, NUL padding, a
/// byte order mark), and each such node that a `)` closes just before
/// (a record without its `(`); the first game counted once.
fn guess_games(bytes: &[u8], from: usize, to: usize) -> usize {
    let mut n = 0;
    for i in memchr::memchr2_iter(b'(', b')', &bytes[from..to]).map(|i| from + i) {
        n += usize::from(if bytes[i] == b'(' {
            opens_root(bytes, i)
        } else {
            // `);GM[1]…`: the node is read as a game with no `(`.
            let j = i
                + 1
                + bytes[i + 1..to]
                    .iter()
                    .take_while(|b| b.is_ascii_whitespace())
                    .count();
            j < to && bytes[j] == b';' && opens_root(bytes, j - 1)
        });
    }
    if from == 0 || !opens_root(bytes, from) {
        // The member's first game, or a chunk's, opening no root.
        n = n.max(1);
    }
    n
}

/// `p`, a position in a stretch that starts at `at`, in the whole.
fn shift(at: Position, p: Position) -> Position {
    Position {
        offset: at.offset + p.offset,
        line: at.line + p.line - 1,
        column: if p.line == 1 {
            at.column + p.column - 1
        } else {
            p.column
        },
    }
}

/// The calling thread's side of a parallel scan of members read as chunks:
/// the work and sink of the scan, what it knows of the chunks in flight,
/// and the small members gathered for the next unit.
pub(super) struct Feed<'f, W, S> {
    pub(super) work: &'f W,
    pub(super) sink: &'f RefCell<S>,
    pub(super) follow: &'f RefCell<Follow>,
    pub(super) cancel: &'f (dyn Fn() -> bool + Sync),
    pub(super) batch: Vec<Chunk>,
    pub(super) batch_bytes: usize,
    /// What [`Inputs::pure_work`](super::Inputs::pure_work) says.
    pub(super) pure: bool,
}

impl<'f, W, S> Feed<'f, W, S> {
    /// A feed with no chunk gathered yet.
    pub(super) fn new(
        work: &'f W,
        sink: &'f RefCell<S>,
        follow: &'f RefCell<Follow>,
        cancel: &'f (dyn Fn() -> bool + Sync),
        pure: bool,
    ) -> Self {
        Feed {
            work,
            sink,
            follow,
            cancel,
            batch: Vec::new(),
            batch_bytes: 0,
            pure,
        }
    }

    /// Hands on the small members gathered, if any.
    pub(super) fn flush_batch<'s, R>(&mut self, submit: &mut Submit<'_, Unit<'s>, Done<'s, R>>) {
        if !self.batch.is_empty() {
            self.batch_bytes = 0;
            submit.submit(Unit::Chunks(std::mem::take(&mut self.batch)));
        }
    }
}

/// Reads the member `src` (text, one stream of games) on the calling
/// thread and hands it to the workers in chunks, as the module docs say.
pub(super) fn chunk_member<'s, R, W, S>(
    origin: Arc<Origin>,
    src: Box<dyn Read + '_>,
    options: ParseOptions,
    submit: &mut Submit<'_, Unit<'s>, Done<'s, R>>,
    feed: &mut Feed<'_, W, S>,
) where
    R: Send,
    W: Fn(ScanGame<'_>) -> R + Sync,
    S: FnMut(Result<R, InputError>),
{
    let bytes = feed.follow.borrow_mut().buffer();
    let held = RefCell::new(Held {
        src,
        old: VecDeque::new(),
        bytes,
        at: 0,
        eof: false,
        broken: None,
    });
    {
        let mut follow = feed.follow.borrow_mut();
        follow.ended = false;
        follow.restart = None;
        follow.settled = 0;
        follow.held = 0;
    }
    let mut at = Position {
        offset: 0,
        line: 1,
        column: 1,
    };
    let mut base = 0;
    let mut searched = 0;
    let mut multi = false;
    let mut fails = 0;
    let mut chain = Arc::new(Chain::default());
    let mut seq = 0;
    loop {
        if (feed.cancel)() {
            break;
        }
        let restart = {
            let mut follow = feed.follow.borrow_mut();
            if follow.ended {
                break;
            }
            held.borrow_mut()
                .drop_before(follow.settled, &mut follow.spare);
            follow.restart.take()
        };
        if let Some(r) = restart {
            // Everything in flight is of the bad guess: let it come back.
            submit.flush();
            feed.follow.borrow_mut().restart = None;
            fails += 1;
            // Guesses that fail more than now and then cost more than
            // they give: the calling thread reads the rest.
            let hopeless = fails > MAX_FAILS + feed.follow.borrow().held / 16;
            if r.serial || hopeless {
                let min_back = if hopeless { usize::MAX } else { r.min_back };
                match serial(&origin, options, &held, r.at, r.base, min_back, feed) {
                    Some((back, b)) => {
                        (at, base) = (back, b);
                    }
                    None => break,
                }
            } else {
                (at, base) = (r.at, r.base);
            }
            searched = at.offset;
            feed.follow.borrow_mut().settled = at.offset;
            (chain, seq) = (Arc::new(Chain::default()), 0);
            continue;
        }
        let start = at.offset;
        let mut h = held.borrow_mut();
        // Taken up again at a block handed on (all of them are back).
        h.rewind(start, &mut feed.follow.borrow_mut().spare);
        let end = h.end();
        let look_to = if h.eof { end } else { end.saturating_sub(TAIL) };
        let from = searched.max(start + CHUNK);
        let cut = if from < look_to {
            let found = find_cut(&h.bytes, from - h.at, look_to - h.at).map(|i| i + h.at);
            searched = found.unwrap_or(look_to);
            found
        } else {
            None
        };
        if let Some(cut) = cut {
            let guess = guess_games(&h.bytes, start - h.at, cut - h.at);
            let chunk_bytes = h.slice(start, cut);
            let next = shift(at, Position::locate(chunk_bytes, chunk_bytes.len()));
            let block_at = h.at;
            let to = end.min(cut + TAIL) - block_at;
            let room = feed.follow.borrow_mut().buffer();
            let bytes = h.hand_on(cut, room);
            drop(h);
            let epoch = feed.follow.borrow().epoch;
            let chunk = Chunk {
                origin: Arc::clone(&origin),
                options,
                bytes,
                from: start - block_at,
                to,
                cut: cut - start,
                at,
                base,
                check: Some(Check {
                    epoch,
                    guess,
                    next,
                    last: false,
                    seq,
                }),
                chain: Some(Arc::clone(&chain)),
                broken: None,
                pure: feed.pure,
            };
            seq += 1;
            if !multi {
                multi = true;
                feed.flush_batch(submit);
            }
            submit.submit(Unit::Chunks(vec![chunk]));
            (at, base) = (next, base + guess);
            continue;
        }
        if !h.eof {
            if end - start > FORCE {
                // No likely game start for long: the calling thread reads on.
                drop(h);
                feed.flush_batch(submit);
                submit.flush();
                if feed.follow.borrow().restart.is_some() || feed.follow.borrow().ended {
                    continue;
                }
                feed.follow.borrow_mut().restart = Some(Restart {
                    at,
                    base,
                    serial: true,
                    min_back: end,
                });
                continue;
            }
            // Up to a little past where the next cut is looked for: the
            // bytes read past a cut are copied to the next block.
            let want = (start + CHUNK + 2 * TAIL).saturating_sub(end);
            h.fill(want.max(4 * TAIL));
            continue;
        }
        // The last chunk.
        if multi && h.broken.is_some() {
            // The break goes with the last chunk, which must not be
            // dropped: the chunks before it are checked first.
            drop(h);
            submit.flush();
            if feed.follow.borrow().restart.is_some() || feed.follow.borrow().ended {
                continue;
            }
            h = held.borrow_mut();
        }
        let block_at = h.at;
        let room = feed.follow.borrow_mut().buffer();
        let bytes = h.hand_on(end, room);
        let broken = h.broken.take();
        drop(h);
        let epoch = feed.follow.borrow().epoch;
        let chunk = Chunk {
            origin: Arc::clone(&origin),
            options,
            from: start - block_at,
            to: end - block_at,
            cut: end - start,
            bytes,
            at,
            base,
            check: multi.then_some(Check {
                epoch,
                guess: 0,
                next: at,
                last: true,
                seq,
            }),
            chain: multi.then(|| Arc::clone(&chain)),
            broken,
            pure: feed.pure,
        };
        if multi {
            submit.submit(Unit::Chunks(vec![chunk]));
            // A bad guess found now is read again from where it was.
            submit.flush();
            if feed.follow.borrow().restart.is_some() {
                continue;
            }
        } else {
            feed.batch_bytes += chunk.bytes_len();
            feed.batch.push(chunk);
            if feed.batch.len() >= BATCH || feed.batch_bytes >= BATCH_BYTES {
                feed.flush_batch(submit);
            }
        }
        break;
    }
    let mut held = held.into_inner();
    let mut follow = feed.follow.borrow_mut();
    follow.keep(std::mem::take(&mut held.bytes));
    for (_, block) in held.old {
        if let Ok(bytes) = Arc::try_unwrap(block) {
            follow.keep(bytes);
        }
    }
}

/// Parses a member on the calling thread from `at` (a game start, after
/// `base` games), works on each game and hands the result to the sink,
/// until a game starts at a likely game start at or past `min_back`, with
/// no warning before it: returns where it starts and its index (cutting
/// takes up there), or `None` at the member's end or error.
fn serial<W, S, R>(
    origin: &Arc<Origin>,
    options: ParseOptions,
    held: &RefCell<Held<'_>>,
    at: Position,
    base: usize,
    min_back: usize,
    feed: &Feed<'_, W, S>,
) -> Option<(Position, usize)>
where
    W: Fn(ScanGame<'_>) -> R,
    S: FnMut(Result<R, InputError>),
{
    let idle = IDLE.with(|cell| cell.borrow_mut().take());
    let parser = idle.unwrap_or_else(|| StreamParser::new(io::empty()));
    let reader = HeldReader {
        held,
        pos: at.offset,
    };
    let mut stream = parser.recycle(reader, options);
    stream.restart_at(at, base);
    let mut back = None;
    let mut sink = feed.sink.borrow_mut();
    while let Some(next) = (!(feed.cancel)()).then(|| stream.next_game()).flatten() {
        let coll = match next {
            Ok(coll) => coll,
            Err(err) => {
                sink(Err(InputError::parse((**origin).clone(), err)));
                break;
            }
        };
        let tree = coll.games().next();
        if let Some(tree) = tree {
            let start = coll.stream_offset(tree.span().start);
            let clean = start >= min_back && coll.warnings().iter().all(|w| w.pos.offset >= start);
            if clean {
                let h = held.borrow();
                let likely = h
                    .bytes_at(start)
                    .is_some_and(|(at, bytes)| likely_start(bytes, start - at));
                if start < h.end() && likely {
                    back = Some((coll.position(tree.span().start), tree.index()));
                    break;
                }
            }
            // Bytes before this game are not needed again (a `)` before
            // the next game's `(` is in it).
            held.borrow_mut()
                .drop_before(start, &mut feed.follow.borrow_mut().spare);
        }
        sink(Ok((feed.work)(ScanGame::new(
            origin,
            coll,
            tree,
            coll.warnings(),
        ))));
    }
    let stream = stream.recycle(io::empty(), ParseOptions::new());
    IDLE.with(|cell| *cell.borrow_mut() = Some(stream));
    back
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn likely_starts_follow_a_close_and_open_a_root() {
        let text = b"(;GM[1];B[aa])\n(;GM[1])(;FF[4])(;B[aa])\n  (; G a M [1])";
        let starts: Vec<usize> = memchr::memchr_iter(b'(', text)
            .filter(|&i| likely_start(text, i))
            .collect();
        assert_eq!(starts, [15, 23, 42]);
        assert_eq!(guess_games(text, 0, text.len()), 4);
        assert_eq!(guess_games(text, 15, 42), 2);
        // After junk and NUL bytes, and a record that lost its `(`.
        let text = b"(;FF[4])x\0(;GM[1])\n);SZ[9];B[aa])(;B[aa])";
        assert_eq!(guess_games(text, 0, text.len()), 3);
        // A comment that quotes SGF looks the same: only a parse tells.
        assert!(likely_start(b"C[x)\n(;GM[1]", 5));
        // A root property after others, values with escapes before it.
        assert!(likely_start(b")\n(;RU[a\\]b]KM[0.5]\nSZ[19];B[aa]", 2));
        assert!(!likely_start(b")\n(;RU[a\\]b]KM[0.5]\n;SZ[19]", 2));
        assert!(!likely_start(b")(;B[aa]", 1));
        assert!(!likely_start(b"C[x\n(;GM[1]", 4));
    }

    #[test]
    fn positions_shift_by_the_start_of_a_stretch() {
        let at = Position {
            offset: 100,
            line: 7,
            column: 5,
        };
        let p = Position::locate(b"ab\ncd", 4);
        assert_eq!(
            shift(at, p),
            Position {
                offset: 104,
                line: 8,
                column: 2
            }
        );
        let p = Position::locate(b"abcd", 2);
        assert_eq!(shift(at, p).column, 7);
    }
}
