//! One row of the position index: 16 bytes, little-endian, fixed width so
//! that a run is binary-searched by arithmetic.
//!
//! ```text
//! bytes 0..8    canonical hash of the position (stones and board size)
//! bytes 8..12   game id (low 30 bits) | winner << 30 (0 unknown, 1 B, 2 W, 3 draw)
//! bytes 12..14  moves played to reach the position (saturating at 65,535)
//! bytes 14..16  the next move: point (low 12 bits: x + 52·y in the canonical
//!               orientation, 4094 a pass, 4095 none) | symmetry << 12 | colour << 15
//! ```

use crate::game::Symmetry;
use crate::value::{Color, Move, Point};

/// Bytes of one record.
pub(crate) const RECORD_LEN: usize = 16;

/// The largest game id: 30 bits.
pub(crate) const MAX_GAMES: u32 = (1 << 30) - 1;

const POINT_PASS: u16 = 4094;
const POINT_NONE: u16 = 4095;
const SIDE: u16 = 52;

/// Who won a game, as a record keeps it (2 bits).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Winner {
    /// No result, or one that names no winner (void, unknown, unparsed).
    #[default]
    Unknown,
    /// Black won.
    Black,
    /// White won.
    White,
    /// A draw.
    Draw,
}

impl Winner {
    fn code(self) -> u32 {
        match self {
            Winner::Unknown => 0,
            Winner::Black => 1,
            Winner::White => 2,
            Winner::Draw => 3,
        }
    }

    fn from_code(code: u32) -> Winner {
        match code & 3 {
            1 => Winner::Black,
            2 => Winner::White,
            3 => Winner::Draw,
            _ => Winner::Unknown,
        }
    }
}

/// A position row, unpacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Record {
    pub(crate) hash: u64,
    /// Game id and winner, packed as stored (sorting by it sorts by game
    /// id within one winner; rows of one hash are re-sorted when read).
    pub(crate) game: u32,
    pub(crate) moves: u16,
    pub(crate) next: u16,
}

impl Record {
    /// Packs a row; `next` is in the canonical orientation.
    pub(crate) fn new(
        hash: u64,
        game: u32,
        winner: Winner,
        moves: usize,
        symmetry: Symmetry,
        next: Option<(Color, Move)>,
    ) -> Record {
        let sym = Symmetry::ALL
            .iter()
            .position(|&s| s == symmetry)
            .unwrap_or(0) as u16;
        let (point, color) = match next {
            None => (POINT_NONE, 0),
            Some((c, m)) => {
                let point = match m {
                    Move::Pass => POINT_PASS,
                    Move::Play(p) if p.x < 52 && p.y < 52 => u16::from(p.x) + SIDE * u16::from(p.y),
                    Move::Play(_) => POINT_NONE,
                };
                (point, u16::from(c == Color::White))
            }
        };
        Record {
            hash,
            game: (game & MAX_GAMES) | winner.code() << 30,
            moves: u16::try_from(moves).unwrap_or(u16::MAX),
            next: point | sym << 12 | color << 15,
        }
    }

    pub(crate) fn game_id(&self) -> u32 {
        self.game & MAX_GAMES
    }

    pub(crate) fn winner(&self) -> Winner {
        Winner::from_code(self.game >> 30)
    }

    pub(crate) fn symmetry(&self) -> Symmetry {
        Symmetry::ALL[usize::from(self.next >> 12 & 7)]
    }

    /// The next move, in the canonical orientation.
    pub(crate) fn next_move(&self) -> Option<(Color, Move)> {
        let color = if self.next >> 15 == 1 {
            Color::White
        } else {
            Color::Black
        };
        match self.next & 0xfff {
            POINT_NONE => None,
            POINT_PASS => Some((color, Move::Pass)),
            p => Some((
                color,
                Move::Play(Point {
                    x: (p % SIDE) as u8,
                    y: (p / SIDE) as u8,
                }),
            )),
        }
    }

    pub(crate) fn to_bytes(self) -> [u8; RECORD_LEN] {
        let mut out = [0u8; RECORD_LEN];
        out[0..8].copy_from_slice(&self.hash.to_le_bytes());
        out[8..12].copy_from_slice(&self.game.to_le_bytes());
        out[12..14].copy_from_slice(&self.moves.to_le_bytes());
        out[14..16].copy_from_slice(&self.next.to_le_bytes());
        out
    }

    pub(crate) fn from_bytes(b: &[u8]) -> Record {
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
        let u16_at = |i: usize| u16::from_le_bytes(b[i..i + 2].try_into().expect("2 bytes"));
        Record {
            hash: u64_at(0),
            game: u32_at(8),
            moves: u16_at(12),
            next: u16_at(14),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packs_and_unpacks() {
        let next = Some((Color::White, Move::Play(Point { x: 51, y: 51 })));
        let r = Record::new(7, 123, Winner::Draw, 70_000, Symmetry::AntiTranspose, next);
        let back = Record::from_bytes(&r.to_bytes());
        assert_eq!(back, r);
        assert_eq!(back.game_id(), 123);
        assert_eq!(back.winner(), Winner::Draw);
        assert_eq!(back.moves, u16::MAX);
        assert_eq!(back.symmetry(), Symmetry::AntiTranspose);
        assert_eq!(back.next_move(), next);
        let pass = Record::new(
            1,
            0,
            Winner::Black,
            3,
            Symmetry::Identity,
            Some((Color::Black, Move::Pass)),
        );
        assert_eq!(pass.next_move(), Some((Color::Black, Move::Pass)));
        assert_eq!(pass.winner(), Winner::Black);
        let none = Record::new(1, MAX_GAMES, Winner::White, 3, Symmetry::Rotate90, None);
        assert_eq!(none.next_move(), None);
        assert_eq!(none.game_id(), MAX_GAMES);
        assert_eq!(none.symmetry(), Symmetry::Rotate90);
    }
}
