//! The moves files (`moves-NNNNNN.mov`, format 3): each indexed game's
//! lines as the stones they put on and took off, so that a local pattern
//! ([`super::Pattern`]) can be looked for by replaying them: the rows keep
//! hashes of whole positions only, which no local question can use.
//!
//! # A game: 2 bytes per stone change
//!
//! A game is a header (ops: u32, flags: u8 — the winner's code in bits 0–1,
//! bit 2 when its variations are stored —, columns, rows, the moves played
//! at the root) and a list of 16-bit ops (little-endian), each a kind in
//! the top 4 bits and a point (`y · columns + x`, below 2,704 on a 52×52
//! board) in the low 12:
//!
//! | kind | op | moves |
//! |---|---|---|
//! | 0, 1 | a position node: Black, White played at the point and the stone is there (captures follow as `SET_EMPTY`) | +1 |
//! | 2, 3 | a position node: Black, White passed | +1 |
//! | 4, 5 | a position node: Black, White played at the point (4094: a pass, 4095: off the board) but the stones changed otherwise (an illegal move, a move with setup): the changes follow | +1 |
//! | 6, 7 | a position node without a move to show (setup, a move that could not be read): its changes follow | +0, +1 |
//! | 8, 9, 10 | one point becomes black, white, empty | |
//! | 11, 12 | a variation starts (the state is kept), ends (the state is restored) | |
//!
//! The root's stones come first as `SET` ops. The stones stored are those
//! the index's replay left on the board (its rules, its captures, its way
//! of playing an illegal move), so a search replays them with no rules
//! at all and sees the very positions the rows were made of.
//!
//! With variations, a node of several children writes each child but the
//! last between a start and an end of variation, then the last one as it
//! is: the children come in their order, so the main line is the ops up to
//! the first end of variation.
//!
//! A corpus game of 190 moves takes about 400 bytes (captures are a few
//! percent of the changes): 18 MB for the 9 M positions of the shared
//! corpus, against 150 MB of rows.
//!
//! # The file: checksummed blocks
//!
//! Games are written in id order in blocks of about 64 KiB, each a header
//! (payload length, first game's id, games: u32 each), the games, and the
//! checksum of header and games (u64); the manifest lists the file with
//! its first game, games, length and the checksum of all its bytes. A
//! search reads the blocks in turn and checks each: a damaged or cut
//! file is an `InvalidData` error naming the file and the block.

use super::checksum::{checksum, Checksum};
use super::games::corrupt;
use super::record::Winner;
use super::run::read_at;
use crate::value::{BoardSize, Color, Move, Point};
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// A normal move by Black (White: +1); captures follow.
pub(crate) const K_MOVE: u16 = 0;
/// A pass by Black (White: +1).
pub(crate) const K_PASS: u16 = 2;
/// A move by Black (White: +1) whose changes follow.
pub(crate) const K_ODD: u16 = 4;
/// A position node without a move to show, +0 moves (+1: `K_NODE + 1`).
pub(crate) const K_NODE: u16 = 6;
/// A point becomes black (+1 white, +2 empty).
pub(crate) const K_SET: u16 = 8;
/// A variation starts.
pub(crate) const K_PUSH: u16 = 11;
/// A variation ends.
pub(crate) const K_POP: u16 = 12;
/// The point of an odd pass.
pub(crate) const P_PASS: u16 = 4094;
/// The point of a move off the board.
pub(crate) const P_OFF: u16 = 4095;

/// Bytes of a game's header.
pub(crate) const GAME_HEADER: usize = 8;
/// Bytes of a block's header.
const BLOCK_HEADER: usize = 12;
/// A block is written once its games pass this many bytes.
const BLOCK_TARGET: usize = 64 << 10;
/// The largest block a reader accepts (one game may pass the target).
const BLOCK_MAX: u64 = 1 << 30;

fn op(kind: u16, point: u16) -> u16 {
    (kind << 12) | (point & 0x0fff)
}

fn color_bit(c: Color) -> u16 {
    u16::from(c == Color::White)
}

/// One game's ops as the walk of the index makes them.
#[derive(Clone, Debug, Default)]
pub(crate) struct GameOps {
    pub(crate) ops: Vec<u16>,
    cols: u8,
}

impl GameOps {
    pub(crate) fn new(size: BoardSize) -> GameOps {
        GameOps {
            ops: Vec::new(),
            cols: size.cols,
        }
    }

    fn point(&self, p: Point) -> u16 {
        u16::from(p.y) * u16::from(self.cols) + u16::from(p.x)
    }

    /// A change of stone that belongs to no move (the root's stones).
    pub(crate) fn set(&mut self, p: Point, new: Option<Color>) {
        let kind = match new {
            Some(Color::Black) => K_SET,
            Some(Color::White) => K_SET + 1,
            None => K_SET + 2,
        };
        self.ops.push(op(kind, self.point(p)));
    }

    pub(crate) fn push(&mut self) {
        self.ops.push(op(K_PUSH, 0));
    }

    pub(crate) fn pop(&mut self) {
        self.ops.push(op(K_POP, 0));
    }

    /// A position node: its move to show (`None` for setup or an
    /// unreadable move), the moves it counted (0 or 1) and its changes
    /// `(point, old, new)` in order.
    pub(crate) fn node(
        &mut self,
        shown: Option<(Color, Move)>,
        counted: usize,
        changes: &[(Point, Option<Color>, Option<Color>)],
        size: BoardSize,
    ) {
        let shown = shown.filter(|_| counted == 1);
        match shown {
            Some((c, Move::Pass)) if changes.is_empty() => {
                self.ops.push(op(K_PASS + color_bit(c), 0));
                return;
            }
            Some((c, Move::Play(p))) if size.contains(p) => {
                let placed = changes
                    .iter()
                    .filter(|&&(q, old, new)| q == p && old.is_none() && new == Some(c));
                let taken = changes
                    .iter()
                    .filter(|&&(q, old, new)| q != p && old == Some(c.opponent()) && new.is_none());
                if placed.count() == 1 && taken.count() + 1 == changes.len() {
                    self.ops.push(op(K_MOVE + color_bit(c), self.point(p)));
                    for &(q, _, new) in changes {
                        if q != p {
                            self.set(q, new);
                        }
                    }
                    return;
                }
                self.ops.push(op(K_ODD + color_bit(c), self.point(p)));
            }
            Some((c, Move::Play(_))) => self.ops.push(op(K_ODD + color_bit(c), P_OFF)),
            Some((c, Move::Pass)) => self.ops.push(op(K_ODD + color_bit(c), P_PASS)),
            None => self.ops.push(op(K_NODE + u16::from(counted > 0), 0)),
        }
        for &(q, _, new) in changes {
            self.set(q, new);
        }
    }

    /// The game as stored: header, then the ops.
    pub(crate) fn encode(
        &self,
        winner: Winner,
        variations: bool,
        size: BoardSize,
        root_moves: usize,
    ) -> Vec<u8> {
        let mut out = Vec::with_capacity(GAME_HEADER + 2 * self.ops.len());
        out.extend_from_slice(&(self.ops.len() as u32).to_le_bytes());
        out.push(winner_code(winner) | (u8::from(variations) << 2));
        out.push(size.cols);
        out.push(size.rows);
        out.push(u8::try_from(root_moves).unwrap_or(u8::MAX));
        for o in &self.ops {
            out.extend_from_slice(&o.to_le_bytes());
        }
        out
    }
}

fn winner_code(w: Winner) -> u8 {
    match w {
        Winner::Unknown => 0,
        Winner::Black => 1,
        Winner::White => 2,
        Winner::Draw => 3,
    }
}

fn winner_of(code: u8) -> Winner {
    match code & 3 {
        1 => Winner::Black,
        2 => Winner::White,
        3 => Winner::Draw,
        _ => Winner::Unknown,
    }
}

/// One stored game, read back.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StoredGame<'a> {
    /// Its id in the index.
    pub(crate) id: u32,
    pub(crate) winner: Winner,
    /// Whether its variations are stored.
    pub(crate) variations: bool,
    pub(crate) size: BoardSize,
    pub(crate) root_moves: u32,
    /// The ops, 2 bytes each, little-endian.
    pub(crate) ops: &'a [u8],
}

/// Splits the games of one block's payload; `None` when they do not
/// hold together (a block with a good checksum always does).
fn split_games(first: u32, games: u32, mut payload: &[u8]) -> Option<Vec<StoredGame<'_>>> {
    let mut out = Vec::with_capacity(games as usize);
    for i in 0..games {
        let (head, rest) = payload.split_first_chunk::<GAME_HEADER>()?;
        let n = u32::from_le_bytes(head[..4].try_into().ok()?) as usize;
        let len = n.checked_mul(2)?;
        if rest.len() < len {
            return None;
        }
        let size = BoardSize {
            cols: head[5],
            rows: head[6],
        };
        if !(1..=52).contains(&size.cols) || !(1..=52).contains(&size.rows) {
            return None;
        }
        out.push(StoredGame {
            id: first.checked_add(i)?,
            winner: winner_of(head[4]),
            variations: head[4] & 4 != 0,
            size,
            root_moves: u32::from(head[7]),
            ops: &rest[..len],
        });
        payload = &rest[len..];
    }
    payload.is_empty().then_some(out)
}

/// Writes a new moves file, block by block.
#[derive(Debug)]
pub(crate) struct MovesWriter {
    out: BufWriter<File>,
    sum: Checksum,
    bytes: u64,
    /// The games of the block being filled.
    block: Vec<u8>,
    block_first: u32,
    block_games: u32,
    /// Games written, in the file and in the block.
    games: u32,
    first_game: u32,
}

impl MovesWriter {
    /// Creates `path` (which must not exist) for games from id
    /// `first_game` on.
    pub(crate) fn create(path: &Path, first_game: u32) -> io::Result<MovesWriter> {
        let file = OpenOptions::new().write(true).create_new(true).open(path)?;
        Ok(MovesWriter {
            out: BufWriter::with_capacity(1 << 20, file),
            sum: Checksum::new(),
            bytes: 0,
            block: Vec::with_capacity(BLOCK_TARGET + 4096),
            block_first: first_game,
            block_games: 0,
            games: 0,
            first_game,
        })
    }

    /// Adds the next game (its header and ops, as [`GameOps::encode`]
    /// makes them).
    pub(crate) fn push(&mut self, game: &[u8]) -> io::Result<()> {
        self.block.extend_from_slice(game);
        self.block_games += 1;
        self.games += 1;
        if self.block.len() >= BLOCK_TARGET {
            self.flush_block()?;
        }
        Ok(())
    }

    fn flush_block(&mut self) -> io::Result<()> {
        if self.block_games == 0 {
            return Ok(());
        }
        let mut head = [0u8; BLOCK_HEADER];
        head[..4].copy_from_slice(&(self.block.len() as u32).to_le_bytes());
        head[4..8].copy_from_slice(&self.block_first.to_le_bytes());
        head[8..].copy_from_slice(&self.block_games.to_le_bytes());
        let mut block_sum = Checksum::new();
        block_sum.update(&head);
        block_sum.update(&self.block);
        let tail = block_sum.finish().to_le_bytes();
        for part in [&head[..], &self.block, &tail] {
            self.out.write_all(part)?;
            self.sum.update(part);
            self.bytes += part.len() as u64;
        }
        self.block_first += self.block_games;
        self.block_games = 0;
        self.block.clear();
        Ok(())
    }

    /// Writes the last block and syncs the file; returns (first game,
    /// games, bytes, checksum) for the manifest.
    pub(crate) fn finish(mut self) -> io::Result<(u32, u32, u64, u64)> {
        self.flush_block()?;
        self.out.flush()?;
        self.out.get_ref().sync_all()?;
        Ok((self.first_game, self.games, self.bytes, self.sum.finish()))
    }
}

/// Opens moves file `path`, which the manifest lists with `bytes` bytes:
/// a missing file or one of another length is `InvalidData` naming it.
pub(crate) fn open_moves(path: &Path, bytes: u64) -> io::Result<File> {
    let bad = |why: &str| corrupt(&format!("{}: {why}", path.display()));
    let file = File::open(path).map_err(|e| {
        if e.kind() == io::ErrorKind::NotFound {
            bad("listed in the manifest but missing")
        } else {
            e
        }
    })?;
    let len = file.metadata()?.len();
    if len != bytes {
        return Err(bad(&format!(
            "{len} bytes where the manifest says {bytes} (cut or damaged)"
        )));
    }
    Ok(file)
}

/// Reads a moves file block by block, checking each (positioned reads:
/// several readers may share the file).
#[derive(Debug)]
pub(crate) struct MovesReader<'f> {
    path: PathBuf,
    file: &'f File,
    offset: u64,
    /// Bytes left, as the manifest says.
    left: u64,
    block: u64,
    next_game: u32,
    end_game: u32,
    buf: Vec<u8>,
    sum: Checksum,
}

impl<'f> MovesReader<'f> {
    /// Reads `file` (opened by [`open_moves`] from `path`), which the
    /// manifest lists with `bytes` bytes for the games `first_game..first_game
    /// + games`.
    pub(crate) fn new(
        path: &Path,
        file: &'f File,
        first_game: u32,
        games: u32,
        bytes: u64,
    ) -> Self {
        MovesReader {
            path: path.to_path_buf(),
            file,
            offset: 0,
            left: bytes,
            block: 0,
            next_game: first_game,
            end_game: first_game.saturating_add(games),
            buf: Vec::new(),
            sum: Checksum::new(),
        }
    }

    fn bad(&self, why: &str) -> io::Error {
        corrupt(&format!(
            "{} block {}: {why}",
            self.path.display(),
            self.block
        ))
    }

    /// The next block's games, checked; `None` after the last.
    pub(crate) fn next_block(&mut self) -> io::Result<Option<Vec<StoredGame<'_>>>> {
        if self.left == 0 {
            if self.next_game != self.end_game {
                return Err(self.bad(&format!(
                    "the file ends at game {} where the manifest says {} (cut)",
                    self.next_game, self.end_game
                )));
            }
            return Ok(None);
        }
        if self.left < (BLOCK_HEADER + 8) as u64 {
            return Err(self.bad("cut"));
        }
        let mut head = [0u8; BLOCK_HEADER];
        read_at(self.file, &mut head, self.offset)?;
        let word = |i: usize| u32::from_le_bytes(head[i..i + 4].try_into().expect("4 bytes"));
        let (len, first, games) = (u64::from(word(0)), word(4), word(8));
        if len > BLOCK_MAX || len + (BLOCK_HEADER + 8) as u64 > self.left {
            return Err(self.bad("its length runs past the file (damaged)"));
        }
        self.buf.clear();
        self.buf.extend_from_slice(&head);
        self.buf.resize(BLOCK_HEADER + len as usize + 8, 0);
        read_at(
            self.file,
            &mut self.buf[BLOCK_HEADER..],
            self.offset + BLOCK_HEADER as u64,
        )?;
        let body = BLOCK_HEADER + len as usize;
        let stored = u64::from_le_bytes(self.buf[body..].try_into().expect("8 bytes"));
        if checksum(&self.buf[..body]) != stored {
            return Err(self.bad("checksum mismatch (damaged)"));
        }
        if first != self.next_game || first.checked_add(games).is_none_or(|e| e > self.end_game) {
            return Err(self.bad(&format!(
                "holds games {first}.. where game {} is next",
                self.next_game
            )));
        }
        self.sum.update(&self.buf);
        self.left -= self.buf.len() as u64;
        self.offset += self.buf.len() as u64;
        self.block += 1;
        self.next_game = first + games;
        let block = self.block - 1;
        let path = self.path.display().to_string();
        split_games(first, games, &self.buf[BLOCK_HEADER..body])
            .map(Some)
            .ok_or_else(|| corrupt(&format!("{path} block {block}: games malformed")))
    }

    /// The bytes of the last block read (header, games and checksum).
    pub(crate) fn block_bytes(&self) -> &[u8] {
        &self.buf
    }

    /// The checksum of every block read so far.
    pub(crate) fn sum(&self) -> u64 {
        self.sum.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("sgf-grove-moves-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A game of `n` ops on a 9×9 board.
    fn game(n: usize) -> Vec<u8> {
        let mut ops = GameOps::new(BoardSize::square(9));
        for i in 0..n {
            ops.set(
                Point {
                    x: (i % 9) as u8,
                    y: (i / 9 % 9) as u8,
                },
                Some(Color::Black),
            );
        }
        ops.encode(Winner::White, false, BoardSize::square(9), 0)
    }

    #[test]
    fn blocks_round_trip_and_every_cut_or_flip_is_named() {
        let dir = folder("blocks");
        let path = dir.join("m.mov");
        let mut w = MovesWriter::create(&path, 7).unwrap();
        // Enough games for several blocks.
        for i in 0..400 {
            w.push(&game(i % 300)).unwrap();
        }
        let (first, games, bytes, sum) = w.finish().unwrap();
        assert_eq!((first, games), (7, 400));
        let read = |path: &Path, len: u64| -> io::Result<(u32, u64, Winner)> {
            let file = open_moves(path, len)?;
            let mut r = MovesReader::new(path, &file, 7, 400, len);
            let (mut n, mut blocks, mut winner) = (0, 0, Winner::Unknown);
            while let Some(games) = r.next_block()? {
                for g in &games {
                    assert_eq!(g.id, 7 + n);
                    assert_eq!(g.ops.len(), 2 * (n as usize % 300));
                    winner = g.winner;
                    n += 1;
                }
                blocks += 1;
            }
            assert_eq!(r.sum(), sum);
            Ok((n, blocks, winner))
        };
        let (n, blocks, winner) = read(&path, bytes).unwrap();
        assert_eq!((n, winner), (400, Winner::White));
        assert!(blocks > 1, "{blocks} blocks");
        let sound = std::fs::read(&path).unwrap();
        for at in (0..sound.len()).step_by(997) {
            let mut bytes = sound.clone();
            bytes[at] ^= 0x40;
            std::fs::write(&path, &bytes).unwrap();
            let e = read(&path, bytes.len() as u64).unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::InvalidData, "byte {at}: {e}");
            assert!(e.to_string().contains("m.mov block "), "{e}");
        }
        std::fs::write(&path, &sound[..sound.len() - 1]).unwrap();
        let e = read(&path, bytes).unwrap_err();
        assert!(e.to_string().contains("cut or damaged"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
