//! The games table: `games.dat`, one entry per game appended in id order,
//! and `games.off`, the offset of each entry (u64, little-endian), so that
//! a query reads the entries of its hits only.
//!
//! An entry is a u32 length, then the fields: origin, black, white, date,
//! result (each a u32 length and UTF-8 bytes), the game's index in its
//! file (u32), the board's columns and rows (u8 each), the main line's
//! moves (u32).

use crate::value::BoardSize;
use std::io::{self, Read};

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

    /// Reads one entry (its length first) from `r`.
    pub(crate) fn read_from(r: &mut impl Read) -> io::Result<GameMeta> {
        let mut len = [0u8; 4];
        r.read_exact(&mut len)?;
        let mut body = vec![0u8; u32::from_le_bytes(len) as usize];
        r.read_exact(&mut body)?;
        GameMeta::decode(&body).ok_or_else(|| corrupt("a games.dat entry is cut or malformed"))
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
        assert_eq!(GameMeta::read_from(&mut r).unwrap(), meta);
        assert_eq!(GameMeta::read_from(&mut r).unwrap(), meta);
        assert!(GameMeta::read_from(&mut r).is_err());
        let mut cut = &bytes[..10];
        assert!(GameMeta::read_from(&mut cut).is_err());
    }
}
