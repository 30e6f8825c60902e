//! Games rather than members: [`Inputs::scan_games`] parses each member
//! with one reused [`StreamParser`] and hands out each game with its
//! origin.

use super::{InputError, InputErrorKind, Inputs, Member, MemberKind, Origin, SgfsLines, Skipped};
use crate::{Collection, ErrorKind, GameTree, ParseOptions, StreamParser};
use std::fmt;
use std::io::{self, Cursor, Read};
use std::sync::atomic::{AtomicBool, Ordering};

/// How many bytes a UTF-16 member may have for
/// [`Inputs::scan_games`] (it is decoded in memory): 256 MiB.
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
    /// ([`InputErrorKind::NotText`]); UTF-16 ones are decoded first (up
    /// to [`MAX_UTF16`] bytes) and read as UTF-8. An `.sgfs` member is
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
        let cancel = self.cancel();
        self.scan(|member| match member {
            Ok(member) => games_of(member, options, cancel, &mut idle, &mut visit),
            Err(err) => visit(Err(err)),
        })
    }
}

/// Hands each game of `member` to `visit`, until `cancel` is set; `idle`
/// holds the parser between members.
pub(crate) fn games_of<E, F>(
    mut member: Member<'_>,
    options: ParseOptions,
    cancel: Option<&AtomicBool>,
    idle: &mut Option<StreamParser<io::Empty>>,
    visit: &mut F,
) -> Result<(), E>
where
    F: FnMut(Result<Game<'_>, InputError>) -> Result<(), E>,
{
    let origin = member.origin();
    let content = member.content();
    let kind = member.kind();
    if content.is_text() {
        return parse(
            member.into_reader(),
            kind,
            origin,
            options,
            cancel,
            idle,
            visit,
        );
    }
    if !content.is_utf16() {
        let err = InputError::new(origin.clone(), InputErrorKind::NotText(content), None);
        return visit(Err(err));
    }
    match decode_utf16(member.reader(), content) {
        Ok(text) => {
            // The text is UTF-8 now, whatever its `CA` says.
            let options = options.charset(Some(encoding_rs::UTF_8));
            parse(
                Box::new(Cursor::new(text)),
                kind,
                origin,
                options,
                cancel,
                idle,
                visit,
            )
        }
        Err((kind, detail)) => visit(Err(InputError::new(origin.clone(), kind, detail))),
    }
}

/// Reads a UTF-16 member whole (up to [`MAX_UTF16`] bytes) and decodes it.
fn decode_utf16(
    reader: &mut dyn Read,
    content: super::Content,
) -> Result<Vec<u8>, (InputErrorKind, Option<String>)> {
    let mut bytes = Vec::new();
    let read = reader
        .take(MAX_UTF16 as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| (InputErrorKind::Io, Some(e.to_string())))?;
    if read > MAX_UTF16 {
        let detail = format!("larger than {MAX_UTF16} bytes");
        return Err((InputErrorKind::Utf16(content), Some(detail)));
    }
    super::decode_utf16(&bytes, content)
        .map(String::into_bytes)
        .ok_or((InputErrorKind::Utf16(content), None))
}

/// Parses `reader`, one stream of games or one game per line.
fn parse<E, F>(
    reader: Box<dyn Read + '_>,
    kind: MemberKind,
    origin: &Origin,
    options: ParseOptions,
    cancel: Option<&AtomicBool>,
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
            let mut stream = parser.recycle(SgfsLines::new(reader), options);
            let result = sgfs_games(&mut stream, origin, cancel, visit);
            *idle = Some(stream.recycle(io::empty(), ParseOptions::new()));
            result
        }
        _ => {
            let mut stream = parser.recycle(reader, options);
            let result = stream_games(&mut stream, origin, cancel, visit).map(|_| ());
            *idle = Some(stream.recycle(io::empty(), ParseOptions::new()));
            result
        }
    }
}

/// Hands out the games of `stream` to its end or its first error; says
/// whether it ended on an I/O error.
fn stream_games<R: Read, E, F>(
    stream: &mut StreamParser<R>,
    origin: &Origin,
    cancel: Option<&AtomicBool>,
    visit: &mut F,
) -> Result<bool, E>
where
    F: FnMut(Result<Game<'_>, InputError>) -> Result<(), E>,
{
    let stopped = || cancel.is_some_and(|f| f.load(Ordering::Relaxed));
    while let Some(next) = (!stopped()).then(|| stream.next_game()).flatten() {
        match next {
            Ok(collection) => visit(Ok(Game { origin, collection }))?,
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
    origin: &Origin,
    cancel: Option<&AtomicBool>,
    visit: &mut F,
) -> Result<(), E>
where
    F: FnMut(Result<Game<'_>, InputError>) -> Result<(), E>,
{
    loop {
        if cancel.is_some_and(|f| f.load(Ordering::Relaxed)) {
            return Ok(());
        }
        let at = match stream.get_mut().next_line() {
            Ok(Some(at)) => at,
            Ok(None) => return Ok(()),
            Err(err) => return visit(Err(InputError::io(origin.clone(), err))),
        };
        let games = stream.games();
        stream.restart_at(at, games);
        if stream_games(stream, origin, cancel, visit)? {
            // The source broke: no next line can be found.
            return Ok(());
        }
    }
}
