//! A game's main line to sample records: the positions replayed once,
//! each packed (in every symmetry asked for) into a ring of history, and
//! a record written before each move.

use super::layout::{column, span, Augment, Layout, TAIL};
use crate::game::board::Board;
use crate::game::replay;
use crate::game::Rules;
use crate::table::{GameRow, ResultKind};
use crate::tree::read::{ReadGame, ReadNode};
use crate::value::{Color, Move};

/// What a game's samples are labelled with: its result and information,
/// read once from its row ([`GameMeta::of`]).
#[derive(Clone, Debug, PartialEq)]
pub struct GameMeta {
    /// The winner, or `None` for a draw or an unknown result.
    pub winner: Option<Color>,
    /// Whether the result is a draw.
    pub draw: bool,
    /// The margin in points for the winner, when the game was counted.
    pub margin: Option<f32>,
    /// Komi in points.
    pub komi: Option<f32>,
    /// Handicap stones.
    pub handicap: u8,
    /// Rank codes (see [`COLUMNS`](super::COLUMNS)), 0 unknown.
    pub ranks: [i8; 2],
    /// The rules code (see [`RULES`](super::RULES)).
    pub rules: u8,
    /// Main time, periods and period length.
    pub time: (Option<f32>, Option<i16>, Option<f32>),
    /// What seeds a random augmentation: the game's place in its input.
    pub key: u64,
}

impl GameMeta {
    /// Reads a game's labels from its row. The margin is taken only for a
    /// win on points; a Fox record's margin in a Chinese-rules game is in
    /// stones and is doubled, and Fox's margins below half a point (its
    /// mark of a game that was not counted) give no margin.
    pub fn of(row: &GameRow) -> GameMeta {
        let rules = row.rules.as_deref().map(Rules::parse);
        let code = match &rules {
            None => 0,
            Some(Rules::Japanese) => 1,
            Some(Rules::Chinese) => 2,
            Some(Rules::Korean) => 3,
            Some(Rules::Aga) => 4,
            Some(Rules::Goe) => 5,
            Some(Rules::NewZealand) => 6,
            Some(Rules::TrompTaylor) => 7,
            Some(Rules::Other(_)) => 8,
        };
        let fox = row.server == Some("fox");
        let kind = row.result_kind;
        let winner = match kind {
            Some(
                ResultKind::Points
                | ResultKind::Resignation
                | ResultKind::Time
                | ResultKind::Forfeit
                | ResultKind::OtherWin,
            ) => row.result_winner,
            _ => None,
        };
        let margin = match (kind, row.result_margin) {
            (Some(ResultKind::Points), Some(m)) if winner.is_some() => {
                if fox && m < 0.25 {
                    None
                } else if fox && rules == Some(Rules::Chinese) {
                    Some((m * 2.0) as f32)
                } else {
                    Some(m as f32)
                }
            }
            _ => None,
        };
        // FNV-1a over where the game is: the same in every run.
        let mut key = 0xcbf2_9ce4_8422_2325u64;
        for b in row.source.bytes().chain(row.offset.to_le_bytes()) {
            key = (key ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        GameMeta {
            winner,
            draw: kind == Some(ResultKind::Draw),
            margin,
            komi: row.komi_points.map(|k| k as f32),
            handicap: row.handicap.unwrap_or(0).min(127) as u8,
            ranks: [
                row.black_rank_value.unwrap_or(0),
                row.white_rank_value.unwrap_or(0),
            ],
            rules: code,
            time: (
                row.time.main_seconds.map(|t| t as f32),
                row.time.periods.map(|p| p.min(i16::MAX as u32) as i16),
                row.time.period_seconds.map(|t| t as f32),
            ),
            key,
        }
    }
}

/// Why a game's samples stop before the end of its main line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The move of this number (from 1) is illegal (onto a stone, a
    /// suicide, a retaken ko, off the board): it and what follows give no
    /// samples.
    Illegal(u32),
    /// The move of this number does not read as a move.
    Unreadable(u32),
    /// A replay limit was reached at this move.
    Limit(u32),
}

/// What [`Encoder::encode`] did with a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Encoded {
    /// Samples written.
    pub samples: usize,
    /// Where they stopped early, if they did.
    pub stop: Option<Stop>,
}

/// Turns games into sample records of one [`Layout`]. Keeps its buffers
/// from game to game; one per thread.
#[derive(Clone, Debug)]
pub struct Encoder {
    layout: Layout,
    /// Positions of history, newest at `head`: for each, per symmetry, the
    /// packed black plane then the packed white plane.
    ring: Vec<u8>,
    head: usize,
    filled: usize,
    codes: Vec<u8>,
    libs: Vec<u8>,
    /// Per point of the position being written, the extra planes it is
    /// on, as bits ([`EMPTY`], [`LIB1`], [`LIB2`], [`LIB3`]).
    classes: Vec<u8>,
}

/// The bits of a point's class: empty, a stone of 1, 2, 3+ liberties.
const EMPTY: u8 = 1;
const LIB1: u8 = 2;
const LIB2: u8 = 4;
const LIB3: u8 = 8;

/// A small generator (PCG32, O'Neill), for augmentation and shuffling.
#[derive(Clone, Debug)]
pub(super) struct Pcg32 {
    state: u64,
    inc: u64,
}

impl Pcg32 {
    pub(super) fn new(seed: u64, stream: u64) -> Pcg32 {
        let mut rng = Pcg32 {
            state: 0,
            inc: stream << 1 | 1,
        };
        rng.next_u32();
        rng.state = rng.state.wrapping_add(seed);
        rng.next_u32();
        rng
    }

    pub(super) fn next_u32(&mut self) -> u32 {
        let old = self.state;
        self.state = old
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(self.inc);
        let xorshifted = (((old >> 18) ^ old) >> 27) as u32;
        xorshifted.rotate_right((old >> 59) as u32)
    }

    /// A number below `n` (`n` ≥ 1), without bias (Lemire's method).
    pub(super) fn below(&mut self, n: u32) -> u32 {
        let mut m = u64::from(self.next_u32()) * u64::from(n);
        if (m as u32) < n {
            let t = n.wrapping_neg() % n;
            while (m as u32) < t {
                m = u64::from(self.next_u32()) * u64::from(n);
            }
        }
        (m >> 32) as u32
    }
}

impl Encoder {
    /// An encoder of `layout`'s samples.
    pub fn new(layout: &Layout) -> Encoder {
        let entry = layout.symmetries.len() * 2 * layout.plane_bytes();
        Encoder {
            layout: layout.clone(),
            ring: vec![0; entry * layout.history()],
            head: 0,
            filled: 0,
            codes: Vec::new(),
            libs: Vec::new(),
            classes: Vec::new(),
        }
    }

    /// The layout it writes.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Appends to `out` a record ([`Layout::record_len`] bytes) for every
    /// move of `game`'s main line — the position before the move, the move
    /// as the policy target, the result as seen by its player — times the
    /// symmetries asked for. The `game` column is 0 (its id is the
    /// caller's to give).
    ///
    /// A game of another board size, or of another game than Go (`GM`
    /// other than 1: Gomoku and Hex boards look like Go's), gives no
    /// samples. The first illegal
    /// or unreadable move ends the samples (what came before is kept): a
    /// position after a move that broke the rules is no position of Go.
    /// A move in the root node gives no sample (it is part of the first
    /// position).
    pub fn encode<'g, G: ReadGame<'g>>(
        &mut self,
        game: G,
        meta: &GameMeta,
        out: &mut Vec<u8>,
    ) -> Encoded {
        let mut done = Encoded {
            samples: 0,
            stop: None,
        };
        if game.game_type() != 1 || game.board_size() != self.layout.board() {
            return done;
        }
        let mut rng = Pcg32::new(
            self.layout.options.seed_value() ^ meta.key,
            0x5a4d_504c_4553,
        );
        let mut cursor = replay::cursor(game);
        self.filled = 0;
        self.push(cursor.board());
        let mut ply = 0u32;
        while let Some(child) = cursor.node().first_child() {
            let played = match child.played() {
                Ok(p) => p,
                Err(_) => {
                    done.stop = Some(Stop::Unreadable(ply + 1));
                    break;
                }
            };
            let before = out.len();
            if let Some((color, mv)) = played {
                ply += 1;
                self.write(cursor.board(), color, mv, ply, meta, &mut rng, out);
            }
            let illegal = cursor.illegal_count();
            if cursor.enter(child).is_err() {
                out.truncate(before);
                done.stop = Some(Stop::Limit(ply));
                break;
            }
            if cursor.illegal_count() > illegal {
                out.truncate(before);
                done.stop = Some(Stop::Illegal(ply));
                break;
            }
            if played.is_some() || child.has("AB") || child.has("AW") || child.has("AE") {
                self.push(cursor.board());
            }
        }
        done.samples = out.len() / self.layout.record_len();
        done
    }

    /// Packs the board's position into the ring, in every symmetry.
    fn push(&mut self, board: &Board) {
        board.codes(&mut self.codes);
        let pb = self.layout.plane_bytes();
        let entry = self.layout.symmetries.len() * 2 * pb;
        self.head = (self.head + 1) % self.layout.history();
        self.filled = (self.filled + 1).min(self.layout.history());
        let slot = &mut self.ring[self.head * entry..][..entry];
        for (k, (_, perm)) in self.layout.symmetries.iter().enumerate() {
            let (black, white) = slot[k * 2 * pb..][..2 * pb].split_at_mut(pb);
            pack_stones(&self.codes, perm, black, white);
        }
    }

    /// Appends the records of the position on `board` before `color`
    /// plays `mv`.
    #[allow(clippy::too_many_arguments)]
    fn write(
        &mut self,
        board: &Board,
        color: Color,
        mv: Move,
        ply: u32,
        meta: &GameMeta,
        rng: &mut Pcg32,
        out: &mut Vec<u8>,
    ) {
        let layout = &self.layout;
        let extras = layout.extras();
        // The planes of empty points and liberties, as one mask a point
        // (packed below in one pass per symmetry).
        let mut masks = [0u8; 4];
        let mut wanted = 0;
        if extras.empty {
            masks[wanted] = EMPTY;
            wanted += 1;
        }
        if extras.liberties {
            masks[wanted..wanted + 3].copy_from_slice(&[LIB1, LIB2, LIB3]);
            wanted += 3;
        }
        let masks = &masks[..wanted];
        if wanted > 0 {
            board.codes(&mut self.codes);
            if extras.liberties {
                board.liberty_counts(&mut self.libs);
            } else {
                self.libs.clear();
                self.libs.resize(self.codes.len(), 0);
            }
            self.classes.clear();
            self.classes
                .extend(self.codes.iter().zip(&self.libs).map(|(&c, &l)| {
                    (u8::from(c == 0) * EMPTY)
                        | match l {
                            0 => 0,
                            1 => LIB1,
                            2 => LIB2,
                            _ => LIB3,
                        }
                }));
        }
        let n = layout.symmetries.len();
        let chosen = match layout.options.augmentation() {
            Augment::Random => {
                let k = rng.below(n as u32) as usize;
                k..k + 1
            }
            _ => 0..n,
        };
        let pb = layout.plane_bytes();
        let points = layout.points();
        let entry = n * 2 * pb;
        let history = layout.history();
        let own = usize::from(color == Color::White);
        let size = layout.board();
        for k in chosen {
            let (symmetry, perm) = &layout.symmetries[k];
            let start = out.len();
            out.resize(start + layout.record_len(), 0);
            let record = &mut out[start..];
            let (features, tail) = record.split_at_mut(layout.features_len());
            for t in 0..self.filled {
                let slot = (self.head + history - t) % history;
                let planes = &self.ring[slot * entry + k * 2 * pb..][..2 * pb];
                features[t * pb..][..pb].copy_from_slice(&planes[own * pb..][..pb]);
                features[(history + t) * pb..][..pb]
                    .copy_from_slice(&planes[(1 - own) * pb..][..pb]);
            }
            let mut plane = 2 * history;
            if !masks.is_empty() {
                let dst = &mut features[plane * pb..][..masks.len() * pb];
                pack_classes(&self.classes, perm, masks, pb, dst);
                plane += masks.len();
            }
            if extras.ko {
                if let Some(p) = board.ko() {
                    let q = symmetry.apply(p, size);
                    let to = symmetry.board_size(size);
                    let i = usize::from(q.y) * usize::from(to.cols) + usize::from(q.x);
                    features[plane * pb + i / 8] |= 0x80 >> (i % 8);
                }
                plane += 1;
            }
            if color == Color::Black {
                let dst = &mut features[plane * pb..][..pb];
                dst.fill(0xff);
                if !points.is_multiple_of(8) {
                    dst[pb - 1] = 0xff << (8 - points % 8);
                }
            }
            let policy = match mv {
                Move::Pass => points,
                Move::Play(p) => {
                    let q = symmetry.apply(p, size);
                    let to = symmetry.board_size(size);
                    usize::from(q.y) * usize::from(to.cols) + usize::from(q.x)
                }
            };
            let (value, has_value, score) = match (meta.winner, meta.draw) {
                (Some(w), _) => {
                    let sign = if w == color { 1.0 } else { -1.0 };
                    (sign as i8, true, meta.margin.map_or(f32::NAN, |m| sign * m))
                }
                (None, true) => (0, true, 0.0),
                (None, false) => (0, false, f32::NAN),
            };
            let put = |tail: &mut [u8], name: &str, bytes: &[u8]| {
                let (a, b) = span(column(name));
                tail[a..b].copy_from_slice(bytes);
            };
            debug_assert_eq!(tail.len(), TAIL);
            put(tail, "policy", &(policy as i16).to_le_bytes());
            put(tail, "value", &value.to_le_bytes());
            put(tail, "has_value", &[u8::from(has_value)]);
            put(tail, "score", &score.to_le_bytes());
            put(
                tail,
                "ply",
                &(ply.min(i32::MAX as u32) as i32).to_le_bytes(),
            );
            put(tail, "to_play", &[own as u8]);
            let sym = crate::game::Symmetry::ALL
                .iter()
                .position(|s| s == symmetry)
                .unwrap_or(0);
            put(tail, "symmetry", &[sym as u8]);
            put(tail, "komi", &meta.komi.unwrap_or(f32::NAN).to_le_bytes());
            put(tail, "handicap", &[meta.handicap]);
            put(tail, "black_rank", &meta.ranks[0].to_le_bytes());
            put(tail, "white_rank", &meta.ranks[1].to_le_bytes());
            put(tail, "rules", &[meta.rules]);
            put(
                tail,
                "time_main",
                &meta.time.0.unwrap_or(f32::NAN).to_le_bytes(),
            );
            put(
                tail,
                "time_periods",
                &meta.time.1.unwrap_or(-1).to_le_bytes(),
            );
            put(
                tail,
                "time_period_seconds",
                &meta.time.2.unwrap_or(f32::NAN).to_le_bytes(),
            );
        }
    }
}

/// Sets the `game` column of every record in `records` to `id`.
pub fn set_game(layout: &Layout, records: &mut [u8], id: i64) {
    let (a, b) = span(column("game"));
    let at = layout.features_len();
    for record in records.chunks_exact_mut(layout.record_len()) {
        record[at + a..at + b].copy_from_slice(&id.to_le_bytes());
    }
}

/// Packs stone codes (`0` empty, `1` black, `2` white) into a black and a
/// white plane, target point `i` from source point `perm[i]`.
fn pack_stones(codes: &[u8], perm: &[u16], black: &mut [u8], white: &mut [u8]) {
    black.fill(0);
    white.fill(0);
    for (i, &src) in perm.iter().enumerate() {
        let c = codes[usize::from(src)];
        let shift = i % 8;
        black[i / 8] |= ((c & 1) << 7) >> shift;
        white[i / 8] |= ((c >> 1) << 7) >> shift;
    }
}

/// Packs consecutive planes of `pb` bytes into `out`, plane `p` holding
/// the points whose class has a bit of `masks[p]`, target point `i` from
/// source point `perm[i]`: one pass over the points for all the planes.
fn pack_classes(classes: &[u8], perm: &[u16], masks: &[u8], pb: usize, out: &mut [u8]) {
    for (byte, points) in perm.chunks(8).enumerate() {
        let mut acc = [0u8; 4];
        for (j, &src) in points.iter().enumerate() {
            let class = classes[usize::from(src)];
            for (a, &m) in acc.iter_mut().zip(masks) {
                *a |= u8::from(class & m != 0) << (7 - j);
            }
        }
        for (p, a) in acc.iter().take(masks.len()).enumerate() {
            out[p * pb + byte] = *a;
        }
    }
}
