//! Reading an index: [`Index`], its searches and what they find.

use super::builder::open_listed;
use super::checksum::checksum;
use super::games::{corrupt, read_off_entry, GameMeta, OFF_LEN};
use super::manifest::{Manifest, MovesEntry};
use super::moves::{open_moves, MovesReader};
use super::pattern::Pattern;
use super::pattern_search::{continuations, search_game, Compiled, PatternSearch};
use super::positions::canonical;
use super::record::{Record, Winner};
use super::run::{read_at, Run};
use crate::game::board::{Board, RuleSet};
use crate::game::Symmetry;
use crate::value::{BoardSize, Color, Move, Point};
use std::collections::HashMap;
use std::fmt;
use std::fs::File;
use std::io;
use std::path::Path;

/// An index opened for queries: its runs (their fences in memory) and its
/// games table. Queries take `&self` and may run on several threads.
#[derive(Debug)]
pub struct Index {
    dir: std::path::PathBuf,
    runs: Vec<Run>,
    games: u32,
    games_bytes: u64,
    games_off: File,
    games_dat: File,
    /// The index's format (2: no moves files).
    format: u32,
    /// The moves files, opened.
    moves: Vec<(MovesEntry, File)>,
}

/// A move played next, as a search shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Next {
    /// Who played it.
    pub color: Color,
    /// Where, in the orientation of the position asked for.
    pub play: Move,
}

impl fmt::Display for Next {
    /// `B pd`, `W pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = match self.color {
            Color::Black => 'B',
            Color::White => 'W',
        };
        match self.play {
            Move::Play(p) => write!(f, "{c} {p}"),
            Move::Pass => write!(f, "{c} pass"),
        }
    }
}

/// One place where a position occurs: a game, and how far into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The game's id in the index ([`Index::game`]).
    pub game: u32,
    /// The moves played to reach the position (passes included).
    pub move_number: u32,
    /// The symmetry that turns the game's position into the one asked for.
    pub symmetry: Symmetry,
    /// The move played next in that game, turned into the orientation
    /// asked for; `None` at the end of the line (or before setup).
    pub next: Option<Next>,
    /// Who won the game.
    pub winner: Winner,
}

/// One row of the continuation table: a move played next, how often, and
/// how the games went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Continuation {
    /// The move, in the orientation asked for. Moves that a symmetry of
    /// the position itself makes the same (`pd` and `dp` from the empty
    /// board) are counted as one, shown as the smallest of them.
    pub next: Next,
    /// How many hits continue with it.
    pub count: u64,
    /// Of those, the games Black won.
    pub black_wins: u64,
    /// Of those, the games White won.
    pub white_wins: u64,
}

/// What a search found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Search {
    /// Every occurrence, by game id then move number.
    pub hits: Vec<Hit>,
    /// The different games among the hits.
    pub games: usize,
    /// The moves played next, most frequent first.
    pub continuations: Vec<Continuation>,
}

/// The error of a query that is no position.
fn invalid(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, msg)
}

impl Index {
    /// Opens the index in folder `dir`: reads its manifest and checks
    /// it (its checksum, that it holds together), opens every run it lists
    /// and checks its length and its checksum of fences and block sums.
    /// The rows and games a query reads are checked as they are read.
    /// Takes no lock: a writer at work leaves the manifest as it was until
    /// it commits.
    ///
    /// # Errors
    ///
    /// I/O errors; a folder that holds no index (`NotFound`, "not an index:
    /// no manifest in DIR" when the folder exists); a damaged
    /// one, or one of an older format (`InvalidData`, naming the file).
    pub fn open(dir: impl AsRef<Path>) -> io::Result<Index> {
        let dir = dir.as_ref();
        // A compaction removes the runs it merged once its manifest is in
        // place: a reader that read the manifest before reads it again.
        let mut tries = 0;
        loop {
            let manifest = Manifest::read(dir).map_err(|e| {
                if e.kind() == io::ErrorKind::NotFound && dir.is_dir() {
                    // The folder is there: say what it lacks.
                    io::Error::new(
                        io::ErrorKind::NotFound,
                        format!("not an index: no manifest in {}", dir.display()),
                    )
                } else {
                    e
                }
            })?;
            let opened = Index::open_runs(dir, &manifest).and_then(|runs| {
                let moves = manifest
                    .moves
                    .iter()
                    .map(|f| Ok((f.clone(), open_moves(&dir.join(&f.name), f.bytes)?)))
                    .collect::<io::Result<Vec<_>>>()?;
                Ok((runs, moves))
            });
            match opened {
                Ok((runs, moves)) => return Index::open_games(dir, &manifest, runs, moves),
                Err(e) if e.kind() == io::ErrorKind::InvalidData && tries < 3 => {
                    if Manifest::read(dir).is_ok_and(|now| now != manifest) {
                        tries += 1;
                        continue;
                    }
                    return Err(e);
                }
                Err(e) => return Err(e),
            }
        }
    }

    fn open_runs(dir: &Path, manifest: &Manifest) -> io::Result<Vec<Run>> {
        manifest
            .runs
            .iter()
            .map(|run| open_listed(dir, run))
            .collect()
    }

    fn open_games(
        dir: &Path,
        manifest: &Manifest,
        runs: Vec<Run>,
        moves: Vec<(MovesEntry, File)>,
    ) -> io::Result<Index> {
        let named = |file: &str, e: io::Error| {
            if e.kind() == io::ErrorKind::NotFound {
                corrupt(&format!("{}: missing", dir.join(file).display()))
            } else {
                e
            }
        };
        let games_off = File::open(dir.join("games.off")).map_err(|e| named("games.off", e))?;
        let games_dat = File::open(dir.join("games.dat")).map_err(|e| named("games.dat", e))?;
        if games_off.metadata()?.len() < u64::from(manifest.games) * OFF_LEN
            || games_dat.metadata()?.len() < manifest.games_bytes
        {
            return Err(corrupt(&format!(
                "{}: the games table is shorter than the manifest says (cut)",
                dir.display()
            )));
        }
        Ok(Index {
            dir: dir.to_path_buf(),
            runs,
            games: manifest.games,
            games_bytes: manifest.games_bytes,
            games_off,
            games_dat,
            format: manifest.format,
            moves,
        })
    }

    /// The games in the index.
    pub fn games(&self) -> u32 {
        self.games
    }

    /// The position rows in the index.
    pub fn rows(&self) -> u64 {
        self.runs.iter().map(Run::rows).sum()
    }

    /// The runs (sorted files) the rows are in.
    pub fn runs(&self) -> usize {
        self.runs.len()
    }

    /// What the games table keeps of game `id`, its entry checked
    /// against the checksum `games.off` keeps for it.
    ///
    /// # Errors
    ///
    /// I/O errors, an id that is no game of the index (`InvalidInput`), a
    /// damaged table (`InvalidData`, naming the file and game).
    pub fn game(&self, id: u32) -> io::Result<GameMeta> {
        if id >= self.games {
            return Err(invalid(format!("no game {id} in the index")));
        }
        let mut off = [0u8; OFF_LEN as usize];
        read_at(&self.games_off, &mut off, u64::from(id) * OFF_LEN)?;
        let (offset, sum) = read_off_entry(&off);
        let bad = |why: &str| {
            corrupt(&format!(
                "{} game {id}: {why}",
                self.dir.join("games.dat").display()
            ))
        };
        let mut len = [0u8; 4];
        if offset
            .checked_add(4)
            .is_none_or(|end| end > self.games_bytes)
        {
            return Err(bad("games.off points past the games table"));
        }
        read_at(&self.games_dat, &mut len, offset)?;
        let len = u64::from(u32::from_le_bytes(len));
        if offset + 4 + len > self.games_bytes {
            return Err(bad("its entry runs past the games table"));
        }
        let mut entry = vec![0u8; 4 + len as usize];
        read_at(&self.games_dat, &mut entry, offset)?;
        if checksum(&entry) != sum {
            return Err(bad("checksum mismatch"));
        }
        GameMeta::decode_entry(&entry).ok_or_else(|| bad("malformed entry"))
    }

    /// The rows of canonical hash `hash`, from every run.
    fn rows_of(&self, hash: u64) -> io::Result<Vec<Record>> {
        let mut out = Vec::new();
        for run in &self.runs {
            let before = out.len();
            run.lookup(hash, &mut out)?;
            if let Some(r) = out[before..].iter().find(|r| r.game_id() >= self.games) {
                return Err(corrupt(&format!(
                    "{}: a row of game {}, past the {} games of the index",
                    run.path().display(),
                    r.game_id(),
                    self.games
                )));
            }
        }
        Ok(out)
    }

    /// Every game where the stones of `board` occur, under any of the 8
    /// symmetries (whoever is to move), and what was played next.
    ///
    /// # Errors
    ///
    /// I/O errors, a damaged index.
    pub fn search(&self, board: &Board) -> io::Result<Search> {
        search_rows(board, |hash| self.rows_of(hash))
    }

    /// Every game where `pattern` occurs (see [`Pattern`]): for each, the
    /// first position where it does (the first of the main line; with
    /// `variations`, the one of fewest moves in any line the index holds —
    /// the first met when several have as few), and what was played next,
    /// in the pattern's orientation; and the continuation table over the
    /// games.
    ///
    /// A position matches when the pattern, turned by one of the 8
    /// symmetries (and with colours exchanged when it
    /// [swaps colours](Pattern::with_swapped_colors)), lies on the board
    /// as its edges ask with every cell accepting the point under it, and
    /// when it asks for a player to move, when that player played next
    /// (the end of a line has no player to move). When several
    /// placements match at once, the one shown is the first by colours
    /// (as given first), [`Symmetry::ALL`] order, row and column.
    ///
    /// ```
    /// use sgf_grove::index::{GameEntry, Index, IndexBuilder, Pattern};
    ///
    /// let dir = std::env::temp_dir().join(format!("sgf-grove-pattern-doc-{}", std::process::id()));
    /// # let _ = std::fs::remove_dir_all(&dir);
    /// let doc = sgf_grove::parse(b"(;RE[B+R];B[pd];W[qc];B[qd];W[pc])")?;
    /// let mut builder = IndexBuilder::open(&dir)?;
    /// builder.push(GameEntry::new(doc.games().next().unwrap(), "a.sgf", 0, false))?;
    /// builder.finish()?;
    /// let index = Index::open(&dir)?;
    /// // A 4-4 stone and a 3-3 invasion, drawn in the top left corner.
    /// let pattern = Pattern::parse("+----\n|....\n|....\n|..O.\n|...X\n")?;
    /// let found = index.search_pattern(&pattern, false)?;
    /// assert_eq!(found.hits.len(), 1);
    /// assert_eq!(found.hits[0].move_number, 2);
    /// // Black answered at the pattern's `dc` (the same move as `cd` in
    /// // this pattern, symmetric about its diagonal).
    /// assert_eq!(found.hits[0].next.unwrap().to_string(), "B dc");
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// `Unsupported` for an index of format 2 (it keeps no moves: rebuild
    /// it); `InvalidData` naming the moves file and block for a damaged
    /// one; I/O errors.
    pub fn search_pattern(&self, pattern: &Pattern, variations: bool) -> io::Result<PatternSearch> {
        if self.format < 3 {
            return Err(io::Error::new(
                io::ErrorKind::Unsupported,
                format!(
                    "{}: an index of format 2 keeps no moves, which a pattern search \
                     replays: rebuild it with `sgf index build` (its position queries \
                     still work)",
                    self.dir.display()
                ),
            ));
        }
        let compiled = Compiled::new(pattern);
        let mut hits = Vec::new();
        let mut searched = 0u64;
        for (entry, file) in &self.moves {
            let path = self.dir.join(&entry.name);
            let mut reader =
                MovesReader::new(&path, file, entry.first_game, entry.games, entry.bytes);
            while let Some(games) = reader.next_block()? {
                for game in &games {
                    searched += 1;
                    match search_game(&compiled, game, variations) {
                        Ok(Some(hit)) => hits.push(hit),
                        Ok(None) => {}
                        Err((id, why)) => {
                            return Err(corrupt(&format!("{} game {id}: {why}", path.display())))
                        }
                    }
                }
            }
        }
        let continuations = continuations(&hits);
        Ok(PatternSearch {
            hits,
            continuations,
            games_searched: searched,
        })
    }

    /// Whether the index keeps the moves a pattern search replays (format
    /// 3; an index of format 2 must be rebuilt).
    pub fn has_moves(&self) -> bool {
        self.format >= 3
    }

    /// [`Index::search`] for the position after `moves` from the empty
    /// board of `size`×`size`: points in SGF letters separated by spaces
    /// or commas (`"pd dp qq"`), Black first and then in turn; `pass` (or
    /// `tt` on boards up to 19×19) passes.
    ///
    /// # Errors
    ///
    /// `InvalidInput` for a word that is no point of the board or an
    /// illegal move (named in the message); I/O errors.
    pub fn search_moves(&self, size: u8, moves: &str) -> io::Result<Search> {
        self.search(&board_after(size, moves)?)
    }
}

/// The search of [`Index::search`] over the rows `rows_of` gives for a
/// canonical hash: the index's runs, or (for the fuzz oracle) rows kept
/// in memory.
pub(crate) fn search_rows(
    board: &Board,
    rows_of: impl FnOnce(u64) -> io::Result<Vec<Record>>,
) -> io::Result<Search> {
    let size = board.size();
    let hashes = board.symmetric_hashes();
    let (hash, to_canonical) = canonical(&hashes);
    let from_canonical = to_canonical.inverse();
    let canonical_size = to_canonical.board_size(size);
    // The symmetries that leave the position as it is: moves they
    // exchange are the same move.
    let fixing: Vec<Symmetry> = Symmetry::ALL
        .into_iter()
        .zip(hashes)
        .filter(|&(s, h)| h == hashes[0] && s.board_size(size) == size)
        .map(|(s, _)| s)
        .collect();
    let mut rows = rows_of(hash)?;
    rows.sort_unstable_by_key(|r| (r.game_id(), r.moves, r.next));
    let mut hits = Vec::with_capacity(rows.len());
    let mut table: HashMap<Next, Continuation> = HashMap::new();
    let mut games = 0;
    let mut last_game = None;
    for r in rows {
        let next = r.next_move().map(|(color, m)| {
            let play = match m {
                Move::Play(p) if canonical_size.contains(p) => {
                    let q = from_canonical.apply(p, canonical_size);
                    Move::Play(smallest_image(q, size, &fixing))
                }
                // A move the index could not place (off its board).
                Move::Play(_) => Move::Play(Point { x: 255, y: 255 }),
                Move::Pass => Move::Pass,
            };
            Next { color, play }
        });
        if last_game != Some(r.game_id()) {
            games += 1;
            last_game = Some(r.game_id());
        }
        let winner = r.winner();
        if let Some(next) = next {
            let c = table.entry(next).or_insert(Continuation {
                next,
                count: 0,
                black_wins: 0,
                white_wins: 0,
            });
            c.count += 1;
            c.black_wins += u64::from(winner == Winner::Black);
            c.white_wins += u64::from(winner == Winner::White);
        }
        hits.push(Hit {
            game: r.game_id(),
            move_number: u32::from(r.moves),
            symmetry: r.symmetry().then(from_canonical),
            next,
            winner,
        });
    }
    let mut continuations: Vec<Continuation> = table.into_values().collect();
    continuations.sort_by_key(|c| (std::cmp::Reverse(c.count), order(c.next)));
    Ok(Search {
        hits,
        games,
        continuations,
    })
}

/// The board after `moves` (as [`Index::search_moves`] reads them) from
/// the empty board of `size`×`size`, under Japanese rules.
///
/// # Errors
///
/// `InvalidInput` for a bad size, a word that is no point of the board, an
/// illegal move.
pub fn board_after(size: u8, moves: &str) -> io::Result<Board> {
    if !(1..=52).contains(&size) {
        return Err(invalid(format!("board size {size}: expected 1 to 52")));
    }
    let bsize = BoardSize::square(size);
    let mut board = Board::new(bsize, RuleSet::JAPANESE);
    let mut color = Color::Black;
    for (n, word) in moves
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .enumerate()
    {
        let pass = word.eq_ignore_ascii_case("pass") || (word == "tt" && bsize.tt_is_pass());
        if !pass {
            let p: Point = word
                .parse()
                .ok()
                .filter(|&p| bsize.contains(p))
                .ok_or_else(|| {
                    invalid(format!(
                        "move {}: `{word}` is no point of a {size}×{size} board",
                        n + 1
                    ))
                })?;
            board
                .play(color, p)
                .map_err(|e| invalid(format!("move {} ({word}): {e}", n + 1)))?;
        } else {
            board.pass(color);
        }
        color = color.opponent();
    }
    Ok(board)
}

/// Orders moves of equal counts: Black first, then row by row, passes
/// last.
fn order(next: Next) -> (bool, u8, u8, bool) {
    let white = next.color == Color::White;
    match next.play {
        Move::Play(p) => (white, p.y, p.x, false),
        Move::Pass => (white, u8::MAX, u8::MAX, true),
    }
}

/// Of the images of `p` under `fixing` (symmetries that leave the position
/// as it is, on a board of `size`), the smallest, row by row.
fn smallest_image(p: Point, size: BoardSize, fixing: &[Symmetry]) -> Point {
    fixing
        .iter()
        .map(|s| s.apply(p, size))
        .min_by_key(|q| (q.y, q.x))
        .unwrap_or(p)
}
