//! The games table: `games.dat`, one entry per game appended in id order,
//! and `games.off`, the offset of each entry and its checksum (u64 each,
//! little-endian), so that a query reads and checks the entries of its
//! hits only. The manifest keeps a checksum of each file's committed part.
//!
//! An entry is a u32 length, then the fields: origin, black, white, date,
//! result (each a u32 length and UTF-8 bytes), the game's index in its
//! file (u32), the board's columns and rows (u8 each), the main line's
//! moves (u32).

use super::checksum::checksum;
use crate::value::BoardSize;
use std::io::{self, Read};

/// Bytes of one `games.off` entry: the offset of the game's entry in
/// `games.dat`, then the checksum of that entry (its length included).
pub(crate) const OFF_LEN: u64 = 16;

/// The `games.off` entry of a `games.dat` entry at `offset`.
pub(crate) fn off_entry(offset: u64, entry: &[u8]) -> [u8; OFF_LEN as usize] {
    let mut out = [0u8; OFF_LEN as usize];
    out[..8].copy_from_slice(&offset.to_le_bytes());
    out[8..].copy_from_slice(&checksum(entry).to_le_bytes());
    out
}

/// A `games.off` entry read back: offset and checksum.
pub(crate) fn read_off_entry(b: &[u8; OFF_LEN as usize]) -> (u64, u64) {
    let word = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
    (word(0), word(8))
}

/// What the index keeps of a game: where it is, who played, when, the
/// result, the board and the main line's length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameMeta {
    /// Where the game is: a path, or `archive!member`, as given when it was
    /// added.
    pub origin: String,
    /// The game's number among the games of its file, from 0.
    pub index: u32,
    /// `PB`, empty when absent.
    pub black: String,
    /// `PW`, empty when absent.
    pub white: String,
    /// `DT` as written, empty when absent.
    pub date: String,
    /// `RE` as written, empty when absent.
    pub result: String,
    /// The board.
    pub size: BoardSize,
    /// Moves of the main line (passes included).
    pub moves: u32,
}

impl GameMeta {
    pub(crate) fn encode(&self, out: &mut Vec<u8>) {
        let start = out.len();
        out.extend_from_slice(&[0; 4]);
        for s in [
            &self.origin,
            &self.black,
            &self.white,
            &self.date,
            &self.result,
        ] {
            let len = u32::try_from(s.len()).unwrap_or(u32::MAX) as usize;
            out.extend_from_slice(&(len as u32).to_le_bytes());
            out.extend_from_slice(&s.as_bytes()[..len]);
        }
        out.extend_from_slice(&self.index.to_le_bytes());
        out.push(self.size.cols);
        out.push(self.size.rows);
        out.extend_from_slice(&self.moves.to_le_bytes());
        let len = (out.len() - start - 4) as u32;
        out[start..start + 4].copy_from_slice(&len.to_le_bytes());
    }

    /// Reads one entry (its length first) from `r`, at most `max` bytes;
    /// returns it and its bytes.
    pub(crate) fn read_from(r: &mut impl Read, max: u64) -> io::Result<(GameMeta, Vec<u8>)> {
        let mut len = [0u8; 4];
        r.read_exact(&mut len)?;
        let body = u64::from(u32::from_le_bytes(len));
        if body + 4 > max {
            return Err(corrupt("a games.dat entry runs past the games table"));
        }
        let mut bytes = vec![0u8; 4 + body as usize];
        bytes[..4].copy_from_slice(&len);
        r.read_exact(&mut bytes[4..])?;
        let meta = GameMeta::decode_entry(&bytes)
            .ok_or_else(|| corrupt("a games.dat entry is cut or malformed"))?;
        Ok((meta, bytes))
    }

    /// An entry, its length first; `None` unless it is exactly one.
    pub(crate) fn decode_entry(bytes: &[u8]) -> Option<GameMeta> {
        let (len, body) = bytes.split_first_chunk::<4>()?;
        if u32::from_le_bytes(*len) as usize != body.len() {
            return None;
        }
        GameMeta::decode(body)
    }

    fn decode(mut b: &[u8]) -> Option<GameMeta> {
        fn take<'a>(b: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
            if b.len() < n {
                return None;
            }
            let (head, rest) = b.split_at(n);
            *b = rest;
            Some(head)
        }
        fn u32_of(b: &mut &[u8]) -> Option<u32> {
            Some(u32::from_le_bytes(take(b, 4)?.try_into().ok()?))
        }
        let mut text = || -> Option<String> {
            let n = u32_of(&mut b)? as usize;
            Some(String::from_utf8_lossy(take(&mut b, n)?).into_owned())
        };
        let (origin, black, white, date, result) = (text()?, text()?, text()?, text()?, text()?);
        let index = u32_of(&mut b)?;
        let dims = take(&mut b, 2)?;
        let moves = u32_of(&mut b)?;
        if !b.is_empty() {
            return None;
        }
        Some(GameMeta {
            origin,
            index,
            black,
            white,
            date,
            result,
            size: BoardSize {
                cols: dims[0],
                rows: dims[1],
            },
            moves,
        })
    }
}

/// An error for an index file that does not read as one.
pub(crate) fn corrupt(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("corrupt index: {what}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        let meta = GameMeta {
            origin: "a.tar!x/é.sgf".into(),
            index: 3,
            black: "芈昱廷".into(),
            white: String::new(),
            date: "2019-10-14".into(),
            result: "W+R".into(),
            size: BoardSize { cols: 19, rows: 13 },
            moves: 211,
        };
        let mut bytes = Vec::new();
        meta.encode(&mut bytes);
        meta.encode(&mut bytes);
        let mut r = &bytes[..];
        let max = bytes.len() as u64;
        assert_eq!(GameMeta::read_from(&mut r, max).unwrap().0, meta);
        let (again, entry) = GameMeta::read_from(&mut r, max).unwrap();
        assert_eq!(again, meta);
        assert_eq!(entry, bytes[bytes.len() / 2..]);
        assert!(GameMeta::read_from(&mut r, max).is_err());
        let mut cut = &bytes[..10];
        assert!(GameMeta::read_from(&mut cut, max).is_err());
        let mut r = &bytes[..];
        assert!(GameMeta::read_from(&mut r, 10).is_err());
    }
}
