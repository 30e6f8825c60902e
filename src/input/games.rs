//! Games rather than members: [`Inputs::scan_games`] parses each member
//! with one reused [`StreamParser`] and hands out each game with its
//! origin.

use super::{
    GameBudget, InputError, InputErrorKind, Inputs, Member, MemberKind, Origin, SgfsLines, Skipped,
};
use crate::{Collection, ErrorKind, GameTree, ParseOptions, StreamParser};
use std::fmt;
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, Ordering};

/// How many bytes a UTF-16 member could have for [`Inputs::scan_games`]
/// when it was decoded in memory. It is now decoded as a stream
/// ([`Utf16Reader`](super::Utf16Reader)), of any length: this is no
/// longer a limit, kept for the programs that name it.
pub const MAX_UTF16: usize = 256 << 20;

/// One game found by [`Inputs::scan_games`], with where it comes from.
///
/// The [`Collection`] holds this one game and the warnings found since the
/// previous one; at the end of a member it may hold warnings alone (junk
/// after the last game), with no game.
pub struct Game<'a> {
    origin: &'a Origin,
    collection: Collection<'a, 'a>,
}

impl<'a> Game<'a> {
    /// The member it is in.
    pub fn origin(&self) -> &'a Origin {
        self.origin
    }

    /// The game and its warnings (positions are those of the member's
    /// decompressed bytes).
    pub fn collection(&self) -> &Collection<'a, 'a> {
        &self.collection
    }

    /// The game; `None` for warnings alone at the end of a member.
    pub fn tree(&self) -> Option<GameTree<'a, 'a>> {
        self.collection.games().next()
    }

    /// The offset of the game's `(` in the member's (decompressed) bytes.
    pub fn offset(&self) -> Option<usize> {
        self.tree()
            .map(|tree| self.collection.stream_offset(tree.span().start))
    }

    /// The game's index among the member's games, from 0.
    pub fn index(&self) -> Option<usize> {
        self.tree().map(|tree| tree.index())
    }
}

impl fmt::Debug for Game<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Game")
            .field("origin", &self.origin)
            .field("offset", &self.offset())
            .field("index", &self.index())
            .finish_non_exhaustive()
    }
}

impl Inputs {
    /// Reads every input as [`Inputs::scan`] does and parses each member
    /// with `options`, one game at a time, handing each game to `visit`
    /// with its origin. Members that are not text are refused
    /// ([`InputErrorKind::NotText`]); UTF-16 ones are decoded to UTF-8 as
    /// they are read ([`Utf16Reader`](super::Utf16Reader): text that does
    /// not decode stops the member there, after the games before it). An `.sgfs` member is
    /// parsed line by line: a line the parser stops on is handed over as an
    /// error of its own and the next line is read.
    ///
    /// When the parser stops inside a member (an I/O or decompression
    /// error, a defect in strict mode, no game at all), the games read
    /// before are handed over first, then the error; the member ends
    /// there. Memory: the parser's buffer and arena, reused from member to
    /// member, hold one game at a time.
    ///
    /// ```
    /// use sgf_grove::input::Inputs;
    /// use sgf_grove::ParseOptions;
    /// use std::io::Write;
    ///
    /// let path = std::env::temp_dir().join(format!("sgf-grove-doc-{}.sgf.gz", std::process::id()));
    /// let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    /// gz.write_all(b"(;GM[1];B[aa])\n(;GM[1];B[bb];W[cc])")?;
    /// std::fs::write(&path, gz.finish()?)?;
    ///
    /// let mut games = Vec::new();
    /// Inputs::new([&path]).scan_games(ParseOptions::new(), |game| {
    ///     let game = game?;
    ///     if let Some(tree) = game.tree() {
    ///         games.push((game.offset(), tree.nodes().count()));
    ///     }
    ///     Ok::<(), sgf_grove::input::InputError>(())
    /// })?;
    /// assert_eq!(games, [(Some(0), 2), (Some(15), 3)]);
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The first error `visit` returns, which stops the scan.
    pub fn scan_games<E, F>(&self, options: ParseOptions, mut visit: F) -> Result<Skipped, E>
    where
        F: FnMut(Result<Game<'_>, InputError>) -> Result<(), E>,
    {
        let mut idle = Some(StreamParser::with_options(io::empty(), options));
        self.scan(|member| match member {
            Ok(member) => games_of(member, options, self, &mut idle, &mut visit),
            Err(err) => visit(Err(err)),
        })
    }
}

/// Hands each game of `member` to `visit`, until the cancel flag of
/// `inputs` is set; `idle` holds the parser between members.
pub(crate) fn games_of<E, F>(
    member: Member<'_>,
    options: ParseOptions,
    inputs: &Inputs,
    idle: &mut Option<StreamParser<io::Empty>>,
    visit: &mut F,
) -> Result<(), E>
where
    F: FnMut(Result<Game<'_>, InputError>) -> Result<(), E>,
{
    let origin = member.origin();
    let content = member.content();
    let kind = member.kind();
    let at = Where {
        origin,
        cancel: inputs.cancel(),
        budget: member.game_budget(),
        max_line: inputs.line_limit(),
    };
    if content.is_text() {
        return parse(member.into_reader(), kind, at, options, idle, visit);
    }
    if !content.is_utf16() {
        let err = InputError::new(origin.clone(), InputErrorKind::NotText(content), None);
        return visit(Err(err));
    }
    match super::Utf16Reader::new(member.into_reader(), content) {
        Some(text) => {
            // The text is UTF-8 now, whatever its `CA` says.
            let options = options.charset(Some(encoding_rs::UTF_8));
            parse(Box::new(text), kind, at, options, idle, visit)
        }
        None => {
            let err = InputError::new(origin.clone(), InputErrorKind::Utf16(content), None);
            visit(Err(err))
        }
    }
}

/// The member being parsed: where it comes from, the flag that stops the
/// scan, the game budget of its input, the `.sgfs` line limit.
#[derive(Clone, Copy)]
struct Where<'a> {
    origin: &'a Origin,
    cancel: Option<&'a AtomicBool>,
    budget: GameBudget<'a>,
    max_line: u64,
}

/// Parses `reader`, one stream of games or one game per line.
fn parse<E, F>(
    reader: Box<dyn Read + '_>,
    kind: MemberKind,
    at: Where<'_>,
    options: ParseOptions,
    idle: &mut Option<StreamParser<io::Empty>>,
    visit: &mut F,
) -> Result<(), E>
where
    F: FnMut(Result<Game<'_>, InputError>) -> Result<(), E>,
{
    let parser = idle
        .take()
        .unwrap_or_else(|| StreamParser::new(io::empty()));
    match kind {
        MemberKind::Sgfs => {
            let lines = SgfsLines::new(reader).max_line(at.max_line);
            let mut stream = parser.recycle(lines, options);
            let result = sgfs_games(&mut stream, at, visit);
            *idle = Some(stream.recycle(io::empty(), ParseOptions::new()));
            result
        }
        _ => {
            let mut stream = parser.recycle(reader, options);
            let result = stream_games(&mut stream, at, visit).map(|_| ());
            *idle = Some(stream.recycle(io::empty(), ParseOptions::new()));
            result
        }
    }
}

/// Hands out the games of `stream` to its end or its first error; says
/// whether it ended on an I/O error (or over the input's budget).
fn stream_games<R: Read, E, F>(
    stream: &mut StreamParser<R>,
    at: Where<'_>,
    visit: &mut F,
) -> Result<bool, E>
where
    F: FnMut(Result<Game<'_>, InputError>) -> Result<(), E>,
{
    let origin = at.origin;
    let stopped = || at.cancel.is_some_and(|f| f.load(Ordering::Relaxed));
    while let Some(next) = (!stopped()).then(|| stream.next_game()).flatten() {
        match next {
            Ok(collection) => {
                if collection.games().next().is_some()
                    && let Err(over) = at.budget.count_game()
                {
                    visit(Err(InputError::io(origin.clone(), over)))?;
                    return Ok(true);
                }
                visit(Ok(Game { origin, collection }))?;
            }
            Err(err) => {
                let io = err.kind() == ErrorKind::Io;
                visit(Err(InputError::parse(origin.clone(), err)))?;
                return Ok(io);
            }
        }
    }
    Ok(false)
}

/// Hands out the games of an `.sgfs` stream, line by line.
fn sgfs_games<R: Read, E, F>(
    stream: &mut StreamParser<SgfsLines<R>>,
    at: Where<'_>,
    visit: &mut F,
) -> Result<(), E>
where
    F: FnMut(Result<Game<'_>, InputError>) -> Result<(), E>,
{
    let origin = at.origin;
    loop {
        if at.cancel.is_some_and(|f| f.load(Ordering::Relaxed)) {
            return Ok(());
        }
        let line = match stream.get_mut().next_line() {
            Ok(Some(line)) => line,
            Ok(None) => return Ok(()),
            Err(err) => return visit(Err(InputError::io(origin.clone(), err))),
        };
        let games = stream.games();
        stream.restart_at(line, games);
        if stream_games(stream, at, visit)? {
            // The source broke: no next line can be found.
            return Ok(());
        }
    }
}
