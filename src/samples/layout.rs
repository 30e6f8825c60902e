//! What a sample holds and where: the planes (`SampleOptions`, `Layout`)
//! and the fixed-size record a sample is in memory (`COLUMNS`, `Sample`).

use crate::game::Symmetry;
use crate::value::BoardSize;
use std::fmt;
use std::sync::Arc;

/// The most positions of history a sample can hold.
pub const MAX_HISTORY: usize = 16;

/// The planes a sample has after its history, in this order
/// (`sgf export --planes`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extras {
    /// `empty`: the empty points.
    pub empty: bool,
    /// `liberties_1`, `liberties_2`, `liberties_3`: the stones (either
    /// colour) whose chain has 1, 2, 3 or more liberties.
    pub liberties: bool,
    /// `ko`: the point the simple-ko rule forbids to the player to move.
    pub ko: bool,
}

impl Extras {
    /// Every extra plane.
    pub const ALL: Extras = Extras {
        empty: true,
        liberties: true,
        ko: true,
    };

    /// Reads a comma-separated list of `empty`, `liberties`, `ko`, or
    /// `all`, or `none` (AlphaGo Zero's planes only).
    ///
    /// # Errors
    ///
    /// A name that is none of these.
    pub fn parse(list: &str) -> Result<Extras, String> {
        let mut out = Extras::default();
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match name {
                "empty" => out.empty = true,
                "liberties" => out.liberties = true,
                "ko" => out.ko = true,
                "all" => out = Extras::ALL,
                "none" => {}
                _ => {
                    return Err(format!(
                        "unknown plane set `{name}` (empty, liberties, ko, all, none)"
                    ))
                }
            }
        }
        Ok(out)
    }

    /// How many planes these are.
    pub fn count(self) -> usize {
        usize::from(self.empty) + 3 * usize::from(self.liberties) + usize::from(self.ko)
    }
}

/// Which symmetries of the board a game's samples are given in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Augment {
    /// As played.
    #[default]
    None,
    /// Every symmetry of the board: 8 samples a position (4 on a
    /// rectangle, whose transposes would change its shape).
    All,
    /// One symmetry a position, drawn from a generator seeded by the
    /// options' seed and the game's place in its input (the same in every
    /// run).
    Random,
}

impl Augment {
    /// Reads `none`, `all` or `random`.
    ///
    /// # Errors
    ///
    /// Any other name.
    pub fn parse(name: &str) -> Result<Augment, String> {
        match name {
            "none" => Ok(Augment::None),
            "all" => Ok(Augment::All),
            "random" => Ok(Augment::Random),
            _ => Err(format!("unknown augmentation `{name}` (none, all, random)")),
        }
    }
}

/// What the samples of a run hold: the board, the history, the extra
/// planes, the augmentation and the seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SampleOptions {
    board: BoardSize,
    history: usize,
    extras: Extras,
    augment: Augment,
    seed: u64,
}

impl Default for SampleOptions {
    fn default() -> SampleOptions {
        SampleOptions::new()
    }
}

impl SampleOptions {
    /// AlphaGo Zero's input: 19×19, 8 positions of history, no extra
    /// planes, no augmentation, seed 0.
    pub fn new() -> SampleOptions {
        SampleOptions {
            board: BoardSize { cols: 19, rows: 19 },
            history: 8,
            extras: Extras::default(),
            augment: Augment::None,
            seed: 0,
        }
    }

    /// The board size of the samples; games of other sizes give none.
    /// Default: 19×19.
    #[must_use]
    pub fn board(mut self, size: BoardSize) -> SampleOptions {
        self.board = size;
        self
    }

    /// Positions of history, the current one included (clamped to 1 ..=
    /// [`MAX_HISTORY`]). Default: 8, as AlphaGo Zero.
    #[must_use]
    pub fn history(mut self, positions: usize) -> SampleOptions {
        self.history = positions.clamp(1, MAX_HISTORY);
        self
    }

    /// The planes after the history. Default: none.
    #[must_use]
    pub fn extras(mut self, extras: Extras) -> SampleOptions {
        self.extras = extras;
        self
    }

    /// The symmetries samples are given in. Default: as played.
    #[must_use]
    pub fn augment(mut self, augment: Augment) -> SampleOptions {
        self.augment = augment;
        self
    }

    /// The seed of every random choice (augmentation, shuffling). Default:
    /// 0.
    #[must_use]
    pub fn seed(mut self, seed: u64) -> SampleOptions {
        self.seed = seed;
        self
    }

    /// The board size.
    pub fn board_size(&self) -> BoardSize {
        self.board
    }

    /// The seed.
    pub fn seed_value(&self) -> u64 {
        self.seed
    }

    /// The augmentation.
    pub fn augmentation(&self) -> Augment {
        self.augment
    }

    /// The layout of these samples.
    pub fn layout(&self) -> Layout {
        Layout::new(self)
    }
}

/// The type of a column of the samples table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dtype {
    /// `0` or `1`, a byte.
    Bool,
    /// A signed byte.
    I8,
    /// An unsigned byte.
    U8,
    /// A signed 16-bit integer.
    I16,
    /// A signed 32-bit integer.
    I32,
    /// A signed 64-bit integer.
    I64,
    /// A 32-bit float.
    F32,
}

impl Dtype {
    /// Its size in bytes.
    pub const fn size(self) -> usize {
        match self {
            Dtype::Bool | Dtype::I8 | Dtype::U8 => 1,
            Dtype::I16 => 2,
            Dtype::I32 | Dtype::F32 => 4,
            Dtype::I64 => 8,
        }
    }

    /// Its NumPy type string (little-endian).
    pub const fn numpy(self) -> &'static str {
        match self {
            Dtype::Bool => "|b1",
            Dtype::I8 => "|i1",
            Dtype::U8 => "|u1",
            Dtype::I16 => "<i2",
            Dtype::I32 => "<i4",
            Dtype::I64 => "<i8",
            Dtype::F32 => "<f4",
        }
    }
}

/// A column of the samples table besides `features`.
#[derive(Clone, Copy, Debug)]
pub struct Column {
    /// Its name (in the `.npz`, the Parquet schema, the Python dict).
    pub name: &'static str,
    /// Its type.
    pub dtype: Dtype,
    /// What it holds.
    pub doc: &'static str,
}

const fn col(name: &'static str, dtype: Dtype, doc: &'static str) -> Column {
    Column { name, dtype, doc }
}

/// The columns of every sample after its planes, in record order. Values
/// are in the view of the player to move unless they say otherwise.
pub const COLUMNS: [Column; 16] = [
    col(
        "policy",
        Dtype::I16,
        "the move played: y * cols + x on the (transformed) board, cols * rows for a pass",
    ),
    col(
        "value",
        Dtype::I8,
        "1 the player to move won, -1 lost, 0 a draw or no known winner",
    ),
    col(
        "has_value",
        Dtype::Bool,
        "whether the result names a winner or a draw",
    ),
    col(
        "score",
        Dtype::F32,
        "the final margin in points for the player to move (negative when behind), NaN unless the game was counted",
    ),
    col(
        "game",
        Dtype::I64,
        "the game's id: the `id` column of the games table beside the shards",
    ),
    col(
        "ply",
        Dtype::I32,
        "the move's number in the main line, from 1 (passes count)",
    ),
    col("to_play", Dtype::I8, "0 Black to move, 1 White"),
    col(
        "symmetry",
        Dtype::U8,
        "the symmetry applied: 0 identity, 1 rot90, 2 rot180, 3 rot270, 4 flip-x, 5 flip-y, 6 transpose, 7 anti-transpose",
    ),
    col("komi", Dtype::F32, "komi in points, NaN when not stated"),
    col("handicap", Dtype::I8, "handicap stones, 0 when none"),
    col(
        "black_rank",
        Dtype::I8,
        "Black's rank: -30..-1 kyu, 1..9 dan, 11..19 professional dan, 0 unknown",
    ),
    col("white_rank", Dtype::I8, "White's rank, as black_rank"),
    col(
        "rules",
        Dtype::U8,
        "0 not stated, 1 Japanese, 2 Chinese, 3 Korean, 4 AGA, 5 Ing, 6 New Zealand, 7 Tromp-Taylor, 8 other",
    ),
    col(
        "time_main",
        Dtype::F32,
        "main time in seconds, NaN when not stated",
    ),
    col(
        "time_periods",
        Dtype::I16,
        "byo-yomi periods, -1 when not stated",
    ),
    col(
        "time_period_seconds",
        Dtype::F32,
        "seconds of a byo-yomi period, NaN when not stated",
    ),
];

/// The names of the `rules` codes, by code.
pub const RULES: [&str; 9] = [
    "",
    "japanese",
    "chinese",
    "korean",
    "aga",
    "goe",
    "nz",
    "tromp-taylor",
    "other",
];

/// Byte offsets of the columns in a record's tail.
const OFFSETS: [usize; COLUMNS.len() + 1] = {
    let mut out = [0; COLUMNS.len() + 1];
    let mut i = 0;
    while i < COLUMNS.len() {
        out[i + 1] = out[i] + COLUMNS[i].dtype.size();
        i += 1;
    }
    out
};

/// The index of a column in [`COLUMNS`], by name, at compile time.
pub(super) const fn column(name: &str) -> usize {
    let mut i = 0;
    while i < COLUMNS.len() {
        if eq(COLUMNS[i].name.as_bytes(), name.as_bytes()) {
            return i;
        }
        i += 1;
    }
    panic!("no such column")
}

const fn eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The bytes of the tail (the columns after the planes).
pub(super) const TAIL: usize = OFFSETS[COLUMNS.len()];

/// Where column `c` sits in a record's tail.
pub(super) const fn span(c: usize) -> (usize, usize) {
    (OFFSETS[c], OFFSETS[c + 1])
}

/// The layout of a run's samples: the planes and their order, the bytes
/// of a record (packed planes, then the [`COLUMNS`]).
///
/// Planes are stored packed, a bit a point, row by row, the first point in
/// the high bit of the first byte, each plane padded to whole bytes: what
/// NumPy's `numpy.unpackbits(features, axis=2, count=rows * cols)` turns
/// back into one byte a point.
#[derive(Clone, Debug)]
pub struct Layout {
    pub(super) options: SampleOptions,
    /// The symmetries a position is given in (one unless augmenting),
    /// and for each, the source point (row-major) of every target point.
    pub(super) symmetries: Arc<[(Symmetry, Vec<u16>)]>,
}

impl PartialEq for Layout {
    fn eq(&self, other: &Layout) -> bool {
        self.options == other.options
    }
}

impl Layout {
    fn new(options: &SampleOptions) -> Layout {
        let size = options.board;
        let square = size.cols == size.rows;
        let symmetries: Vec<Symmetry> = match options.augment {
            Augment::None => vec![Symmetry::Identity],
            _ => Symmetry::ALL
                .into_iter()
                .filter(|s| square || !s.swaps_axes())
                .collect(),
        };
        let (cols, rows) = (usize::from(size.cols), usize::from(size.rows));
        let symmetries = symmetries
            .into_iter()
            .map(|s| {
                let to = s.board_size(size);
                let mut perm = vec![0u16; cols * rows];
                for y in 0..rows {
                    for x in 0..cols {
                        let p = s.apply(
                            crate::value::Point {
                                x: x as u8,
                                y: y as u8,
                            },
                            size,
                        );
                        perm[usize::from(p.y) * usize::from(to.cols) + usize::from(p.x)] =
                            (y * cols + x) as u16;
                    }
                }
                (s, perm)
            })
            .collect();
        Layout {
            options: options.clone(),
            symmetries,
        }
    }

    /// The options it was made from.
    pub fn options(&self) -> &SampleOptions {
        &self.options
    }

    /// Columns and rows of the board.
    pub fn board(&self) -> BoardSize {
        self.options.board
    }

    /// Points of the board.
    pub fn points(&self) -> usize {
        usize::from(self.options.board.cols) * usize::from(self.options.board.rows)
    }

    /// Positions of history.
    pub fn history(&self) -> usize {
        self.options.history
    }

    /// The extra planes.
    pub fn extras(&self) -> Extras {
        self.options.extras
    }

    /// Planes of a sample: own and opponent stones for each position of
    /// history, the extras, then the player-to-move plane.
    pub fn planes(&self) -> usize {
        2 * self.options.history + self.options.extras.count() + 1
    }

    /// Bytes of one packed plane.
    pub fn plane_bytes(&self) -> usize {
        self.points().div_ceil(8)
    }

    /// Bytes of a sample's packed planes.
    pub fn features_len(&self) -> usize {
        self.planes() * self.plane_bytes()
    }

    /// Bytes of a record: the packed planes, then the [`COLUMNS`].
    pub fn record_len(&self) -> usize {
        self.features_len() + TAIL
    }

    /// The planes' names, in order: `own_0` (the current position) to
    /// `own_{N-1}`, `opponent_0` to `opponent_{N-1}` (the player to move
    /// and the other, in each of the last N positions; all zero before
    /// the game's start), then `empty`, `liberties_1`, `liberties_2`,
    /// `liberties_3` (3 or more), `ko` when asked for, and
    /// `black_to_play` (all ones when Black is to move). With the
    /// defaults these are AlphaGo Zero's 17 planes in its order.
    pub fn plane_names(&self) -> Vec<String> {
        let h = self.options.history;
        let mut out: Vec<String> = (0..h).map(|t| format!("own_{t}")).collect();
        out.extend((0..h).map(|t| format!("opponent_{t}")));
        let e = self.options.extras;
        if e.empty {
            out.push("empty".into());
        }
        if e.liberties {
            out.extend(["liberties_1", "liberties_2", "liberties_3"].map(String::from));
        }
        if e.ko {
            out.push("ko".into());
        }
        out.push("black_to_play".into());
        out
    }

    /// A record read through its fields.
    ///
    /// # Panics
    ///
    /// When `record` is not [`Layout::record_len`] bytes.
    pub fn sample<'r>(&self, record: &'r [u8]) -> Sample<'r> {
        assert_eq!(
            record.len(),
            self.record_len(),
            "not a record of this layout"
        );
        let (features, tail) = record.split_at(self.features_len());
        Sample {
            features,
            tail,
            plane_bytes: self.plane_bytes(),
            points: self.points(),
        }
    }
}

/// One sample, read from its record ([`Layout::sample`]).
#[derive(Clone, Copy)]
pub struct Sample<'r> {
    features: &'r [u8],
    tail: &'r [u8],
    plane_bytes: usize,
    points: usize,
}

macro_rules! getter {
    ($(#[$doc:meta] $name:ident: $ty:ty;)*) => {
        $(
            #[$doc]
            pub fn $name(&self) -> $ty {
                let (a, b) = span(column(stringify!($name)));
                <$ty>::from_le_bytes(self.tail[a..b].try_into().expect("column width"))
            }
        )*
    };
}

impl Sample<'_> {
    /// The packed planes.
    pub fn features(&self) -> &[u8] {
        self.features
    }

    /// Whether plane `plane` is set at point `index` (row-major).
    pub fn bit(&self, plane: usize, index: usize) -> bool {
        assert!(index < self.points, "point outside the board");
        self.features[plane * self.plane_bytes + index / 8] & (0x80 >> (index % 8)) != 0
    }

    /// Column `name`'s bytes, little-endian.
    pub fn column(&self, name: &str) -> Option<&[u8]> {
        let c = COLUMNS.iter().position(|c| c.name == name)?;
        let (a, b) = span(c);
        Some(&self.tail[a..b])
    }

    getter! {
        /// The move played (see [`COLUMNS`]).
        policy: i16;
        /// 1 won, -1 lost, 0 draw or unknown, for the player to move.
        value: i8;
        /// The final margin for the player to move, NaN unless counted.
        score: f32;
        /// The game's id.
        game: i64;
        /// The move's number in the main line, from 1.
        ply: i32;
        /// 0 Black to move, 1 White.
        to_play: i8;
        /// The symmetry applied (an index of `Symmetry::ALL`).
        symmetry: u8;
        /// Komi in points, NaN when not stated.
        komi: f32;
        /// Handicap stones.
        handicap: i8;
        /// Black's rank code.
        black_rank: i8;
        /// White's rank code.
        white_rank: i8;
        /// The rules code (see [`RULES`]).
        rules: u8;
        /// Main time in seconds, NaN when not stated.
        time_main: f32;
        /// Byo-yomi periods, -1 when not stated.
        time_periods: i16;
        /// Seconds of a byo-yomi period, NaN when not stated.
        time_period_seconds: f32;
    }

    /// Whether the result names a winner or a draw.
    pub fn has_value(&self) -> bool {
        let (a, _) = span(column("has_value"));
        self.tail[a] != 0
    }
}

impl fmt::Debug for Sample<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sample")
            .field("game", &self.game())
            .field("ply", &self.ply())
            .field("policy", &self.policy())
            .field("value", &self.value())
            .field("score", &self.score())
            .field("symmetry", &self.symmetry())
            .finish_non_exhaustive()
    }
}
