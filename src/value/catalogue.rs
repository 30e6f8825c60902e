//! The catalogue of known SGF properties: for each identifier, its value
//! type, whether it takes a list, and when it may appear.
//!
//! The tables:
//!
//! - [`GENERAL`]: the general part of the FF\[4\] specification, valid in
//!   every game.
//! - [`GO`]: the FF\[4\] Go (`GM[1]`) properties.
//! - [`BACKGAMMON`] (`GM[6]`), [`LINES_OF_ACTION`] (`GM[9]`), [`HEX`]
//!   (`GM[11]`), [`AMAZONS`] (`GM[18]`), [`OCTI`] (`GM[19]`): the
//!   game-specific pages of FF\[4\]. Each also lists `B` and `W`, whose
//!   `name` spells out that game's move notation.
//! - [`UPDATE_2016`]: properties added by the 2016 update of the
//!   specification.
//! - [`OLD`]: FF\[1\]–FF\[3\] properties that FF\[4\] dropped or renamed.
//!
//! [`lookup`] searches them in that order of precedence for a given `GM`;
//! [`find`] searches one table.
//!
//! `Point`, `Stone` and `Move` are game-specific types in SGF: the
//! [`ValueType`] of a property says which of the three it takes, and the
//! game (`GM`) says how that type is written. In Go a point is two letters
//! (`[dd]`), a stone is a point, and a move is a point or a pass (`[]`, or
//! `[tt]` on boards up to 19×19).
//!
//! Sources: the FF\[4\] specification and its property indexes (the general
//! properties, the FF\[4\] index, the FF\[1\]–FF\[4\] index), the FF\[3\] and
//! FF\[1\] specifications, and the FF\[4\] pages for Go, Backgammon, Lines of
//! Action, Hex, Amazons and Octi.

use super::{Arity, Origin, PropInfo, PropKind, ValueType};

use Arity::{EList, List, One};
use PropKind as K;
use ValueType as T;

// ---------------------------------------------------------------------------
// Composed value types.
// ---------------------------------------------------------------------------

const POINT_POINT: ValueType = T::Compose(&T::Point, &T::Point);
const POINT_TEXT: ValueType = T::Compose(&T::Point, &T::SimpleText);
const TEXT_TEXT: ValueType = T::Compose(&T::SimpleText, &T::SimpleText);
const NUMBER_NUMBER: ValueType = T::Compose(&T::Number, &T::Number);
const NUMBER_TEXT: ValueType = T::Compose(&T::Number, &T::SimpleText);
const STONE_POINT: ValueType = T::Compose(&T::Stone, &T::Point);

// ---------------------------------------------------------------------------
// Table-building helpers.
// ---------------------------------------------------------------------------

const fn def(
    origin: Origin,
    ident: &'static str,
    kind: PropKind,
    arity: Arity,
    ty: ValueType,
    name: &'static str,
) -> PropInfo {
    PropInfo {
        ident,
        name,
        kind,
        arity,
        ty,
        alt: None,
        origin,
    }
}

const fn ff4(
    ident: &'static str,
    kind: PropKind,
    arity: Arity,
    ty: ValueType,
    name: &'static str,
) -> PropInfo {
    def(Origin::Ff4, ident, kind, arity, ty, name)
}

const fn upd(
    ident: &'static str,
    kind: PropKind,
    arity: Arity,
    ty: ValueType,
    name: &'static str,
) -> PropInfo {
    def(Origin::Update2016, ident, kind, arity, ty, name)
}

const fn old(
    ident: &'static str,
    kind: PropKind,
    arity: Arity,
    ty: ValueType,
    name: &'static str,
) -> PropInfo {
    def(Origin::Old, ident, kind, arity, ty, name)
}

/// `info` with a second accepted form.
const fn or(mut info: PropInfo, alt: ValueType) -> PropInfo {
    info.alt = Some(alt);
    info
}

// ---------------------------------------------------------------------------
// General properties (FF[4]).
// ---------------------------------------------------------------------------

const GENERAL_PROPS: &[PropInfo] = &[
    // Move.
    ff4("B", K::Move, One, T::Move, "Black move"),
    ff4(
        "KO",
        K::Move,
        One,
        T::None,
        "Execute the move even if illegal",
    ),
    ff4("MN", K::Move, One, T::Number, "Set the move number"),
    ff4("W", K::Move, One, T::Move, "White move"),
    // Setup.
    ff4("AB", K::Setup, List, T::Stone, "Add black stones"),
    ff4("AE", K::Setup, List, T::Point, "Clear points"),
    ff4("AW", K::Setup, List, T::Stone, "Add white stones"),
    ff4("PL", K::Setup, One, T::Color, "Player to move"),
    // Node annotation.
    ff4("C", K::None, One, T::Text, "Comment"),
    ff4("DM", K::None, One, T::Double, "Even position"),
    ff4("GB", K::None, One, T::Double, "Good for Black"),
    ff4("GW", K::None, One, T::Double, "Good for White"),
    ff4("HO", K::None, One, T::Double, "Hotspot"),
    ff4("N", K::None, One, T::SimpleText, "Node name"),
    ff4("UC", K::None, One, T::Double, "Unclear position"),
    ff4(
        "V",
        K::None,
        One,
        T::Real,
        "Value (estimated score, + good for Black)",
    ),
    // Move annotation.
    ff4("BM", K::Move, One, T::Double, "Bad move"),
    ff4("DO", K::Move, One, T::None, "Doubtful move"),
    ff4("IT", K::Move, One, T::None, "Interesting move"),
    ff4("TE", K::Move, One, T::Double, "Tesuji (good move)"),
    // Markup.
    ff4("AR", K::None, List, POINT_POINT, "Arrows (from:to)"),
    ff4("CR", K::None, List, T::Point, "Circle marks"),
    ff4(
        "DD",
        K::Inherit,
        EList,
        T::Point,
        "Dimmed points ([] undims all)",
    ),
    ff4("LB", K::None, List, POINT_TEXT, "Labels (point:text)"),
    ff4("LN", K::None, List, POINT_POINT, "Lines (from:to)"),
    ff4("MA", K::None, List, T::Point, "X marks"),
    ff4("SL", K::None, List, T::Point, "Selected points"),
    ff4("SQ", K::None, List, T::Point, "Square marks"),
    ff4("TR", K::None, List, T::Point, "Triangle marks"),
    // Root.
    ff4("AP", K::Root, One, TEXT_TEXT, "Application (name:version)"),
    ff4("CA", K::Root, One, T::SimpleText, "Charset of text values"),
    ff4("FF", K::Root, One, T::Number, "File format version"),
    ff4("GM", K::Root, One, T::Number, "Game type"),
    ff4("ST", K::Root, One, T::Number, "Variation display style"),
    or(
        ff4(
            "SZ",
            K::Root,
            One,
            T::Number,
            "Board size (n, or columns:rows)",
        ),
        NUMBER_NUMBER,
    ),
    // Game info.
    ff4("AN", K::GameInfo, One, T::SimpleText, "Annotator"),
    ff4("BR", K::GameInfo, One, T::SimpleText, "Black's rank"),
    ff4("BT", K::GameInfo, One, T::SimpleText, "Black's team"),
    ff4("CP", K::GameInfo, One, T::SimpleText, "Copyright"),
    ff4("DT", K::GameInfo, One, T::SimpleText, "Date(s) played"),
    ff4("EV", K::GameInfo, One, T::SimpleText, "Event"),
    ff4("GC", K::GameInfo, One, T::Text, "Game comment"),
    ff4("GN", K::GameInfo, One, T::SimpleText, "Game name"),
    ff4("ON", K::GameInfo, One, T::SimpleText, "Opening"),
    ff4("OT", K::GameInfo, One, T::SimpleText, "Overtime method"),
    ff4("PB", K::GameInfo, One, T::SimpleText, "Black player"),
    ff4("PC", K::GameInfo, One, T::SimpleText, "Place"),
    ff4("PW", K::GameInfo, One, T::SimpleText, "White player"),
    ff4("RE", K::GameInfo, One, T::SimpleText, "Result"),
    ff4("RO", K::GameInfo, One, T::SimpleText, "Round"),
    ff4("RU", K::GameInfo, One, T::SimpleText, "Rules"),
    ff4("SO", K::GameInfo, One, T::SimpleText, "Source"),
    ff4("TM", K::GameInfo, One, T::Real, "Time limit in seconds"),
    ff4(
        "US",
        K::GameInfo,
        One,
        T::SimpleText,
        "User (who entered the game)",
    ),
    ff4("WR", K::GameInfo, One, T::SimpleText, "White's rank"),
    ff4("WT", K::GameInfo, One, T::SimpleText, "White's team"),
    // Timing.
    ff4("BL", K::Move, One, T::Real, "Black's time left, seconds"),
    ff4(
        "OB",
        K::Move,
        One,
        T::Number,
        "Black's moves left in overtime",
    ),
    ff4(
        "OW",
        K::Move,
        One,
        T::Number,
        "White's moves left in overtime",
    ),
    ff4("WL", K::Move, One, T::Real, "White's time left, seconds"),
    // Miscellaneous.
    or(
        ff4("FG", K::None, One, T::None, "Figure (none, or flags:name)"),
        NUMBER_TEXT,
    ),
    ff4("PM", K::Inherit, One, T::Number, "Move-number print mode"),
    ff4(
        "VW",
        K::Inherit,
        EList,
        T::Point,
        "View: visible part of the board",
    ),
];

/// Every property of the general part of the FF\[4\] specification: move,
/// setup, annotation, markup, root, game-info, timing and miscellaneous
/// properties. Valid in every game.
pub static GENERAL: &[PropInfo] = GENERAL_PROPS;

// ---------------------------------------------------------------------------
// Go (GM[1]).
// ---------------------------------------------------------------------------

const GO_PROPS: &[PropInfo] = &[
    ff4("HA", K::GameInfo, One, T::Number, "Handicap stones"),
    ff4("KM", K::GameInfo, One, T::Real, "Komi"),
    ff4("TB", K::None, EList, T::Point, "Black territory or area"),
    ff4("TW", K::None, EList, T::Point, "White territory or area"),
];

/// The Go (`GM[1]`) properties of FF\[4\].
///
/// In Go a point is two letters, column then row (`a`–`z`, then `A`–`Z`
/// beyond 26); a stone is a point; a move is a point or a pass (`[]`, or
/// `[tt]` on boards up to 19×19).
pub static GO: &[PropInfo] = GO_PROPS;

// ---------------------------------------------------------------------------
// Backgammon (GM[6]).
// ---------------------------------------------------------------------------

const BACKGAMMON_PROPS: &[PropInfo] = &[
    ff4(
        "B",
        K::Move,
        One,
        T::Move,
        "Black move: dice (31) then up to 4 from/to letter pairs, or double/take/drop",
    ),
    ff4(
        "W",
        K::Move,
        One,
        T::Move,
        "White move: dice (31) then up to 4 from/to letter pairs, or double/take/drop",
    ),
    ff4(
        "CO",
        K::Setup,
        One,
        T::SimpleText,
        "Cube owner: b, w, c (centre) or n (none)",
    ),
    ff4("CV", K::Setup, One, T::Number, "Cube value"),
    ff4(
        "DI",
        K::Setup,
        One,
        T::Number,
        "Dice set without moving (e.g. 31)",
    ),
    ff4(
        "MI",
        K::GameInfo,
        List,
        TEXT_TEXT,
        "Match info, tag:value (length, game, bs, ws)",
    ),
    ff4(
        "RE",
        K::GameInfo,
        One,
        T::SimpleText,
        "Result; a resignation names its points (B+6R)",
    ),
    ff4(
        "RU",
        K::GameInfo,
        One,
        T::SimpleText,
        "Rules: Crawford, Crawford:CrawfordGame, Jacoby",
    ),
];

/// Backgammon (`GM[6]`).
///
/// A point (and a stone) is one letter: `a`–`x` are White's points 1–24
/// (Black's 24–1), `y` the bar, `z` the bear-off tray. A move is the dice
/// roll as two digits followed by zero to four from/to letter pairs
/// (`W[31hefe]`), or `double`, `take` or `drop`. `RE` and `RU` keep their
/// general types; their entries here describe the backgammon values.
pub static BACKGAMMON: &[PropInfo] = BACKGAMMON_PROPS;

// ---------------------------------------------------------------------------
// Lines of Action (GM[9]).
// ---------------------------------------------------------------------------

const LINES_OF_ACTION_PROPS: &[PropInfo] = &[
    ff4(
        "B",
        K::Move,
        One,
        T::Move,
        "Black move: from-to squares (e1-e3, e1:e3 captures), or pass/resign/forfeit/escape",
    ),
    ff4(
        "W",
        K::Move,
        One,
        T::Move,
        "White move: from-to squares (e1-e3, e1:e3 captures), or pass/resign/forfeit/escape",
    ),
    ff4(
        "AS",
        K::None,
        One,
        T::SimpleText,
        "Who adds stones: Black, White or None",
    ),
    ff4(
        "IP",
        K::GameInfo,
        One,
        T::SimpleText,
        "Initial position to show (End)",
    ),
    ff4(
        "IY",
        K::GameInfo,
        One,
        T::SimpleText,
        "Invert the Y axis: true or false",
    ),
    ff4(
        "SE",
        K::None,
        One,
        T::Point,
        "Mark a stone and the squares it can reach",
    ),
    ff4(
        "SU",
        K::GameInfo,
        One,
        T::SimpleText,
        "Setup: Standard, Scrambled-eggs, Parachute, Gemma or Custom",
    ),
];

/// Lines of Action (`GM[9]`).
///
/// A point is a column letter and a row number (`[a5]`, `[C8]`); a move is
/// two points joined by `-`, or by `:` for a capture, optionally followed by
/// comments such as `+` or `!` (`B[e1-e3]`), or one of `pass`, `resign`,
/// `forfeit`, `escape`. Game-specific values are case-insensitive.
pub static LINES_OF_ACTION: &[PropInfo] = LINES_OF_ACTION_PROPS;

// ---------------------------------------------------------------------------
// Hex (GM[11]).
// ---------------------------------------------------------------------------

const HEX_PROPS: &[PropInfo] = &[
    ff4(
        "B",
        K::Move,
        One,
        T::Move,
        "Black move: a cell (e4), or swap-sides, swap-pieces, resign, forfeit, pass",
    ),
    ff4(
        "W",
        K::Move,
        One,
        T::Move,
        "White move: a cell (e4), or swap-sides, swap-pieces, resign, forfeit, pass",
    ),
    ff4(
        "IS",
        K::Root,
        List,
        TEXT_TEXT,
        "Viewer settings, keyword:on|off (tried, marked, lastmove, headings, lock)",
    ),
    ff4(
        "IP",
        K::GameInfo,
        One,
        T::SimpleText,
        "Initial position to show (value empty)",
    ),
];

/// Hex (`GM[11]`).
///
/// The board is a rhombus of hexagonal cells, 11×11 by default (`SZ` gives
/// columns:rows when it is not square); Black joins top and bottom, White
/// left and right. A point is a cell: column letters then row number
/// (`[a1]`, `[D11]`; past 26 columns the letters count on in base 26: `aa`,
/// `ab`, …), case-insensitive. A move is a cell or one of `swap-sides`,
/// `swap-pieces` (the pie rule: colours swap and the board is mirrored in
/// the long diagonal), `resign`, `forfeit`, `pass`.
pub static HEX: &[PropInfo] = HEX_PROPS;

// ---------------------------------------------------------------------------
// Amazons (GM[18]).
// ---------------------------------------------------------------------------

const AMAZONS_PROPS: &[PropInfo] = &[
    ff4(
        "B",
        K::Move,
        One,
        T::Move,
        "Black move: from, to and arrow points concatenated (djddgd)",
    ),
    ff4(
        "W",
        K::Move,
        One,
        T::Move,
        "White move: from, to and arrow points concatenated (djddgd)",
    ),
    ff4("AA", K::Setup, List, T::Point, "Add arrows (burnt squares)"),
];

/// Amazons (`GM[18]`).
///
/// Points are written as in Go (two letters); the board is 10×10 by
/// default. A move is three points written one after the other, with no
/// separator: where the amazon starts, where it lands, where its arrow
/// lands (`B[djddgd]`). It is a [`ValueType::Move`] of six letters, not a
/// [`ValueType::Compose`].
pub static AMAZONS: &[PropInfo] = AMAZONS_PROPS;

// ---------------------------------------------------------------------------
// Octi (GM[19]).
// ---------------------------------------------------------------------------

const OCTI_PROPS: &[PropInfo] = &[
    ff4(
        "B",
        K::Move,
        One,
        T::Move,
        "Black move: new pod (73), prong (33+B), or jumps (84-86-68x); pods split by ,",
    ),
    ff4(
        "W",
        K::Move,
        One,
        T::Move,
        "White move: new pod (73), prong (33+B), or jumps (84-86-68x); pods split by ,",
    ),
    ff4(
        "AS",
        K::None,
        List,
        STONE_POINT,
        "Arrows from a stone to a point",
    ),
    ff4("BO", K::GameInfo, List, T::Point, "Black's octi squares"),
    ff4("CS", K::None, List, T::Stone, "Circle-marked stones"),
    ff4("MS", K::None, List, T::Stone, "X-marked stones"),
    ff4(
        "NP",
        K::GameInfo,
        One,
        T::Number,
        "Prongs per player at the start",
    ),
    ff4(
        "NR",
        K::GameInfo,
        One,
        T::Number,
        "Reserve pods per player at the start",
    ),
    ff4(
        "NS",
        K::GameInfo,
        One,
        T::Number,
        "Superprongs per player at the start",
    ),
    ff4("RP", K::Setup, List, T::Stone, "Remove pods (stones)"),
    ff4(
        "RU",
        K::GameInfo,
        One,
        T::SimpleText,
        "Rules: full, fast or kids, then :variations (edgeless, superprong…)",
    ),
    ff4("SS", K::None, List, T::Stone, "Square-marked stones"),
    ff4("TS", K::None, List, T::Stone, "Triangle-marked stones"),
    ff4("WO", K::GameInfo, List, T::Point, "White's octi squares"),
];

/// Octi (`GM[19]`).
///
/// A point is two digits, column then row, `11` (south-west) to `99`. A
/// stone is a pod: its point and its prong letters, `A` (north) to `H`
/// clockwise (`46CD`). A move is free text in the page's notation: a
/// point to bring in a pod (`73`); a stone, `+` and a prong letter to add a
/// prong (`33+B`, `!` for a superprong; `33+A-B` to move one); a stone and
/// `-`-joined points for jumps, `x` marking captures (`84-86-68x`); moves
/// of several pods of a stack joined by `,` (`46CD-56,46D-55`).
pub static OCTI: &[PropInfo] = OCTI_PROPS;

// ---------------------------------------------------------------------------
// 2016 update.
// ---------------------------------------------------------------------------

// The text of the 2016 update was not among the sources we could read; the
// meanings and types below are those these identifiers have in the game
// records that use them (GoGoD and the servers) and in third-party property
// catalogues. Decisions:
// - BC/WC: a player's country, SimpleText. One private extension (a joseki
//   library tool) once used WC for a file-name continuation; that private
//   use is ignored.
// - JD: the date in the Japanese calendar (era and year), for historical
//   games; SimpleText like DT, no format is imposed.
// - LC: how many byo-yomi periods each player has: a Number.
// - LT: how long one byo-yomi period is, with its unit: SimpleText, the
//   unit suffix (`s`, `m`, `h`) being part of the value (`LT[30s]`).
//   FF[3] had its own `LT` ("enforce losing on time", value none), kept in
//   `OLD`: `lookup` returns this one, since newer tables win; readers of
//   FF[3] files can ask `find(OLD, "LT")`.
// - OH: the old (pre-komi) handicap arrangement of historical games, as
//   GoGoD records it: free text, so SimpleText.
// All are game-info properties, like TM and OT.
const UPDATE_2016_PROPS: &[PropInfo] = &[
    upd(
        "BC",
        K::GameInfo,
        One,
        T::SimpleText,
        "Black player's country",
    ),
    upd(
        "JD",
        K::GameInfo,
        One,
        T::SimpleText,
        "Date in the Japanese calendar",
    ),
    upd(
        "LC",
        K::GameInfo,
        One,
        T::Number,
        "Number of byo-yomi periods",
    ),
    upd(
        "LT",
        K::GameInfo,
        One,
        T::SimpleText,
        "Byo-yomi period length; the unit suffix s, m or h is part of the value (30s)",
    ),
    upd(
        "OH",
        K::GameInfo,
        One,
        T::SimpleText,
        "Old (pre-komi) handicap",
    ),
    upd(
        "WC",
        K::GameInfo,
        One,
        T::SimpleText,
        "White player's country",
    ),
];

/// Properties added by the 2016 update of the specification: players'
/// countries (`BC`, `WC`), Japanese-calendar date (`JD`), byo-yomi periods
/// (`LC`: how many; `LT`: how long, unit suffix included, e.g. `LT[30s]`)
/// and old handicap (`OH`). All are game-info properties.
///
/// `LT` clashes with the FF\[3\] `LT` of [`OLD`]; [`lookup`] returns this
/// one.
pub static UPDATE_2016: &[PropInfo] = UPDATE_2016_PROPS;

// ---------------------------------------------------------------------------
// FF[1]-FF[3] properties dropped or renamed by FF[4].
// ---------------------------------------------------------------------------

// Types follow the FF[1]-FF[4] property index. Where implementations
// disagree the index wins: OV is real there (one FF[3] reader parses it as
// a number). KI is not in the index; it is the FF[1]/FF[2] integer komi of
// Smart Game Board files, a game-info number.
const OLD_PROPS: &[PropInfo] = &[
    old(
        "BS",
        K::GameInfo,
        One,
        T::Number,
        "Black species (0 human, else program)",
    ),
    old("CH", K::None, One, T::Double, "Check mark"),
    old(
        "EL",
        K::None,
        One,
        T::Number,
        "Human evaluation of a computer move",
    ),
    old("EX", K::None, One, T::Move, "Expected next move"),
    old("ID", K::GameInfo, One, T::SimpleText, "Game identifier"),
    old("KI", K::GameInfo, One, T::Number, "Integer komi"),
    old(
        "L",
        K::None,
        List,
        T::Point,
        "Letters a, b, c… on points (now LB)",
    ),
    old("LT", K::None, One, T::None, "Enforce losing on time"),
    old("M", K::None, List, T::Point, "Marked points (now MA/TR)"),
    old("OM", K::None, One, T::Number, "Moves per overtime period"),
    old("OP", K::None, One, T::Real, "Overtime period length"),
    old("OV", K::None, One, T::Real, "Operator overhead per move"),
    old("RG", K::None, List, T::Point, "Region of the board"),
    old("SC", K::None, List, T::Point, "Secure stones"),
    old("SE", K::None, List, T::Point, "Moves tried in self-test"),
    old("SI", K::None, One, T::Double, "Sigma mark"),
    old("TC", K::None, One, T::Number, "Territory count"),
    old(
        "WS",
        K::GameInfo,
        One,
        T::Number,
        "White species (0 human, else program)",
    ),
];

/// FF\[1\]–FF\[3\] properties that FF\[4\] dropped or renamed, still met in
/// old files. (FF\[3\] allowed lower-case letters inside identifiers,
/// `CoPyright`; the parser drops them before lookup, so the table has the
/// upper-case forms only.)
///
/// `LT` here is FF\[3\]'s "enforce losing on time" (value none); the 2016
/// `LT` of [`UPDATE_2016`] takes precedence in [`lookup`].
pub static OLD: &[PropInfo] = OLD_PROPS;

// ---------------------------------------------------------------------------
// Lookup.
// ---------------------------------------------------------------------------

/// Number of slots in an index: one per identifier of one or two
/// upper-case letters.
const SLOTS: usize = 26 * 27;
/// Index entry for an identifier the table lacks.
const ABSENT: u8 = u8::MAX;

/// For each one- or two-letter identifier, its position in a table.
type Index = [u8; SLOTS];

/// The index slot of `ident`, if it is one or two upper-case letters (as
/// every catalogued identifier is; a unit test checks it).
const fn slot(ident: &[u8]) -> Option<usize> {
    match *ident {
        [a] if a.is_ascii_uppercase() => Some((a - b'A') as usize * 27),
        [a, b] if a.is_ascii_uppercase() && b.is_ascii_uppercase() => {
            Some((a - b'A') as usize * 27 + (b - b'A') as usize + 1)
        }
        _ => None,
    }
}

const fn build(props: &[PropInfo]) -> Index {
    assert!(props.len() < ABSENT as usize);
    let mut index = [ABSENT; SLOTS];
    let mut i = 0;
    while i < props.len() {
        match slot(props[i].ident.as_bytes()) {
            Some(s) => index[s] = i as u8,
            None => panic!("catalogued identifiers are one or two upper-case letters"),
        }
        i += 1;
    }
    index
}

static GENERAL_INDEX: Index = build(GENERAL_PROPS);
static GO_INDEX: Index = build(GO_PROPS);
static BACKGAMMON_INDEX: Index = build(BACKGAMMON_PROPS);
static LINES_OF_ACTION_INDEX: Index = build(LINES_OF_ACTION_PROPS);
static HEX_INDEX: Index = build(HEX_PROPS);
static AMAZONS_INDEX: Index = build(AMAZONS_PROPS);
static OCTI_INDEX: Index = build(OCTI_PROPS);
static UPDATE_2016_INDEX: Index = build(UPDATE_2016_PROPS);
static OLD_INDEX: Index = build(OLD_PROPS);
static EMPTY_INDEX: Index = [ABSENT; SLOTS];

#[inline]
fn get(props: &'static [PropInfo], index: &Index, slot: usize) -> Option<&'static PropInfo> {
    match index[slot] {
        ABSENT => None,
        i => props.get(usize::from(i)),
    }
}

/// The game-specific table of `gm` with its index.
#[inline]
fn game_entry(gm: u32) -> (&'static [PropInfo], &'static Index) {
    match gm {
        1 => (GO, &GO_INDEX),
        6 => (BACKGAMMON, &BACKGAMMON_INDEX),
        9 => (LINES_OF_ACTION, &LINES_OF_ACTION_INDEX),
        11 => (HEX, &HEX_INDEX),
        18 => (AMAZONS, &AMAZONS_INDEX),
        19 => (OCTI, &OCTI_INDEX),
        _ => (&[], &EMPTY_INDEX),
    }
}

/// What the catalogue knows of property `ident` in a game of type `gm`
/// (the root's `GM` value; 1 for Go, the default).
///
/// Searched in order, the first match winning: the game-specific table of
/// `gm` ([`game_table`]; [`GO`] for `GM[1]`), then [`GENERAL`], then
/// [`UPDATE_2016`], then [`OLD`]; so an FF\[1\]–FF\[3\] definition is
/// returned only when nothing newer defines the identifier. `ident` is
/// matched exactly: upper-case, as the parser hands it over. Unknown and
/// private properties give `None`.
///
/// Constant time: an array index per table, no string comparison.
///
/// ```
/// use sgf_grove::value::catalogue::lookup;
/// use sgf_grove::value::{Arity, PropKind, ValueType};
///
/// assert_eq!(lookup(1, "KM").unwrap().ty, ValueType::Real);
///
/// let ab = lookup(1, "AB").unwrap();
/// assert_eq!((ab.ty, ab.arity, ab.kind), (ValueType::Stone, Arity::List, PropKind::Setup));
///
/// // Game-specific tables come first: SE is a single point in Lines of
/// // Action, but FF[3]'s list of self-test moves elsewhere.
/// assert_eq!(lookup(9, "SE").unwrap().arity, Arity::One);
/// assert_eq!(lookup(1, "SE").unwrap().arity, Arity::List);
///
/// assert!(lookup(1, "XYZ").is_none());
/// ```
pub fn lookup(gm: u32, ident: &str) -> Option<&'static PropInfo> {
    lookup_bytes(gm, ident.as_bytes())
}

/// [`lookup`] by the identifier's bytes.
#[inline]
pub(crate) fn lookup_bytes(gm: u32, ident: &[u8]) -> Option<&'static PropInfo> {
    let slot = slot(ident)?;
    let (game, game_index) = game_entry(gm);
    get(game, game_index, slot)
        .or_else(|| get(GENERAL, &GENERAL_INDEX, slot))
        .or_else(|| get(UPDATE_2016, &UPDATE_2016_INDEX, slot))
        .or_else(|| get(OLD, &OLD_INDEX, slot))
}

/// The game-specific table for game type `gm`: [`GO`] (1),
/// [`BACKGAMMON`] (6), [`LINES_OF_ACTION`] (9), [`HEX`] (11),
/// [`AMAZONS`] (18), [`OCTI`] (19); empty for any other game.
pub fn game_table(gm: u32) -> &'static [PropInfo] {
    game_entry(gm).0
}

/// Whether `ident` has an entry in the table of game type `gm` itself
/// ([`game_table`]), found as [`lookup`] finds it.
pub(crate) fn in_game_table(gm: u32, ident: &[u8]) -> bool {
    let Some(slot) = slot(ident) else {
        return false;
    };
    let (game, game_index) = game_entry(gm);
    get(game, game_index, slot).is_some()
}

/// The entry for `ident` in one table, searched alone (e.g.
/// `find(OLD, "LT")` for FF\[3\]'s `LT`, which [`lookup`] shadows with the
/// 2016 one).
pub fn find(table: &'static [PropInfo], ident: &str) -> Option<&'static PropInfo> {
    table.iter().find(|info| info.ident == ident)
}

/// Every entry of every table: [`GENERAL`], [`GO`], the other game tables,
/// [`UPDATE_2016`], [`OLD`]. An identifier defined in several tables
/// appears once per table.
pub fn all() -> impl Iterator<Item = &'static PropInfo> {
    [
        GENERAL,
        GO,
        BACKGAMMON,
        LINES_OF_ACTION,
        HEX,
        AMAZONS,
        OCTI,
        UPDATE_2016,
        OLD,
    ]
    .into_iter()
    .flatten()
}

/// The name of game type `gm` as FF\[4\] lists it (`1` → `"Go"`), or
/// `None` for a number it does not list.
pub fn game_name(gm: u32) -> Option<&'static str> {
    Some(match gm {
        1 => "Go",
        2 => "Othello",
        3 => "Chess",
        4 => "Gomoku+Renju",
        5 => "Nine Men's Morris",
        6 => "Backgammon",
        7 => "Chinese chess",
        8 => "Shogi",
        9 => "Lines of Action",
        10 => "Ataxx",
        11 => "Hex",
        12 => "Jungle",
        13 => "Neutron",
        14 => "Philosopher's Football",
        15 => "Quadrature",
        16 => "Trax",
        17 => "Tantrix",
        18 => "Amazons",
        19 => "Octi",
        20 => "Gess",
        21 => "Twixt",
        22 => "Zertz",
        23 => "Plateau",
        24 => "Yinsh",
        25 => "Punct",
        26 => "Gobblet",
        27 => "hive",
        28 => "Exxit",
        29 => "Hnefatal",
        30 => "Kuba",
        31 => "Tripples",
        32 => "Chase",
        33 => "Tumbling Down",
        34 => "Sahara",
        35 => "Byte",
        36 => "Focus",
        37 => "Dvonn",
        38 => "Tamsk",
        39 => "Gipf",
        40 => "Kropki",
        _ => return None,
    })
}

/// Among the values of a repeated single-valued property `ident`, the
/// index of the one that is known to be the real one, when there is such
/// a rule: the Fox server writes `AP[GNU Go:3.8]` (its exporter's) before
/// its own `AP[foxwq]`, which names the application that played.
pub(crate) fn real_value<'a>(ident: &str, values: impl Iterator<Item = &'a [u8]>) -> Option<usize> {
    match ident {
        "AP" => values.into_iter().position(|v| {
            let name = v.split(|&b| b == b':').next().unwrap_or(v);
            name.trim_ascii().eq_ignore_ascii_case(b"foxwq")
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLES: &[(&str, &[PropInfo])] = &[
        ("GENERAL", GENERAL_PROPS),
        ("GO", GO_PROPS),
        ("BACKGAMMON", BACKGAMMON_PROPS),
        ("LINES_OF_ACTION", LINES_OF_ACTION_PROPS),
        ("HEX", HEX_PROPS),
        ("AMAZONS", AMAZONS_PROPS),
        ("OCTI", OCTI_PROPS),
        ("UPDATE_2016", UPDATE_2016_PROPS),
        ("OLD", OLD_PROPS),
    ];

    fn indexed() -> [(&'static [PropInfo], &'static Index); 9] {
        [
            (GENERAL, &GENERAL_INDEX),
            (GO, &GO_INDEX),
            (BACKGAMMON, &BACKGAMMON_INDEX),
            (LINES_OF_ACTION, &LINES_OF_ACTION_INDEX),
            (HEX, &HEX_INDEX),
            (AMAZONS, &AMAZONS_INDEX),
            (OCTI, &OCTI_INDEX),
            (UPDATE_2016, &UPDATE_2016_INDEX),
            (OLD, &OLD_INDEX),
        ]
    }

    /// Every identifier of one or two upper-case letters.
    fn all_idents() -> Vec<String> {
        let letters = b'A'..=b'Z';
        let mut out: Vec<String> = letters.clone().map(|a| (a as char).to_string()).collect();
        for a in letters.clone() {
            for b in letters.clone() {
                out.push(format!("{}{}", a as char, b as char));
            }
        }
        out
    }

    #[test]
    fn identifiers_are_unique_within_each_table() {
        for (name, table) in TABLES {
            let mut seen = std::collections::HashSet::new();
            for info in *table {
                assert!(seen.insert(info.ident), "{name}: {} twice", info.ident);
            }
        }
    }

    #[test]
    fn identifiers_are_upper_case_letters() {
        for info in all() {
            assert!(!info.ident.is_empty());
            assert!(
                info.ident.bytes().all(|b| b.is_ascii_uppercase()),
                "{:?}",
                info.ident
            );
            // The index covers one- and two-letter identifiers only.
            assert!(info.ident.len() <= 2, "{:?}", info.ident);
            assert!(!info.name.is_empty(), "{} has no name", info.ident);
        }
    }

    #[test]
    fn origins_match_tables() {
        for (name, table) in TABLES {
            let want = match *name {
                "UPDATE_2016" => Origin::Update2016,
                "OLD" => Origin::Old,
                _ => Origin::Ff4,
            };
            for info in *table {
                assert_eq!(info.origin, want, "{name}: {}", info.ident);
            }
        }
    }

    #[test]
    fn public_tables_are_the_indexed_ones() {
        for ((_, table), (public, _)) in TABLES.iter().zip(indexed()) {
            assert_eq!(*table, public);
        }
    }

    #[test]
    fn index_agrees_with_a_linear_scan() {
        for (table, index) in indexed() {
            for ident in all_idents() {
                let s = slot(ident.as_bytes()).unwrap();
                assert_eq!(get(table, index, s), find(table, &ident), "{ident}");
                if let Some(info) = get(table, index, s) {
                    assert!(std::ptr::eq(info, find(table, &ident).unwrap()));
                }
            }
        }
    }

    #[test]
    fn general_has_every_ff4_general_property() {
        let groups = [
            "B KO MN W",
            "AB AE AW PL",
            "C DM GB GW HO N UC V",
            "BM DO IT TE",
            "AR CR DD LB LN MA SL SQ TR",
            "AP CA FF GM ST SZ",
            "AN BR BT CP DT EV GN GC ON OT PB PC PW RE RO RU SO TM US WR WT",
            "BL OB OW WL",
            "FG PM VW",
        ];
        let mut count = 0;
        for ident in groups.iter().flat_map(|g| g.split(' ')) {
            assert!(find(GENERAL, ident).is_some(), "{ident} missing");
            count += 1;
        }
        assert_eq!(GENERAL.len(), count, "GENERAL has extra entries");
    }

    /// Facts from the specification pages, as (GM, identifier, type,
    /// arity, kind, origin).
    #[test]
    fn spec_facts() {
        use Origin::{Ff4, Old, Update2016};
        #[rustfmt::skip]
        let rows: &[(u32, &str, ValueType, Arity, PropKind, Origin)] = &[
            // General: move and setup.
            (1, "B", T::Move, One, K::Move, Ff4),
            (1, "W", T::Move, One, K::Move, Ff4),
            (1, "KO", T::None, One, K::Move, Ff4),
            (1, "MN", T::Number, One, K::Move, Ff4),
            (1, "AB", T::Stone, List, K::Setup, Ff4),
            (1, "AW", T::Stone, List, K::Setup, Ff4),
            (1, "AE", T::Point, List, K::Setup, Ff4),
            (1, "PL", T::Color, One, K::Setup, Ff4),
            // Annotation.
            (1, "C", T::Text, One, K::None, Ff4),
            (1, "N", T::SimpleText, One, K::None, Ff4),
            (1, "V", T::Real, One, K::None, Ff4),
            (1, "DM", T::Double, One, K::None, Ff4),
            (1, "UC", T::Double, One, K::None, Ff4),
            (1, "HO", T::Double, One, K::None, Ff4),
            (1, "BM", T::Double, One, K::Move, Ff4),
            (1, "TE", T::Double, One, K::Move, Ff4),
            (1, "DO", T::None, One, K::Move, Ff4),
            (1, "IT", T::None, One, K::Move, Ff4),
            // Markup.
            (1, "AR", POINT_POINT, List, K::None, Ff4),
            (1, "LN", POINT_POINT, List, K::None, Ff4),
            (1, "LB", POINT_TEXT, List, K::None, Ff4),
            (1, "CR", T::Point, List, K::None, Ff4),
            (1, "SQ", T::Point, List, K::None, Ff4),
            (1, "DD", T::Point, EList, K::Inherit, Ff4),
            // Root.
            (1, "AP", TEXT_TEXT, One, K::Root, Ff4),
            (1, "CA", T::SimpleText, One, K::Root, Ff4),
            (1, "FF", T::Number, One, K::Root, Ff4),
            (1, "GM", T::Number, One, K::Root, Ff4),
            (1, "ST", T::Number, One, K::Root, Ff4),
            (1, "SZ", T::Number, One, K::Root, Ff4),
            // Game info and timing.
            (1, "GC", T::Text, One, K::GameInfo, Ff4),
            (1, "PB", T::SimpleText, One, K::GameInfo, Ff4),
            (1, "DT", T::SimpleText, One, K::GameInfo, Ff4),
            (1, "TM", T::Real, One, K::GameInfo, Ff4),
            (1, "BL", T::Real, One, K::Move, Ff4),
            (1, "WL", T::Real, One, K::Move, Ff4),
            (1, "OB", T::Number, One, K::Move, Ff4),
            (1, "OW", T::Number, One, K::Move, Ff4),
            // Miscellaneous.
            (1, "FG", T::None, One, K::None, Ff4),
            (1, "PM", T::Number, One, K::Inherit, Ff4),
            (1, "VW", T::Point, EList, K::Inherit, Ff4),
            // Go.
            (1, "HA", T::Number, One, K::GameInfo, Ff4),
            (1, "KM", T::Real, One, K::GameInfo, Ff4),
            (1, "TB", T::Point, EList, K::None, Ff4),
            (1, "TW", T::Point, EList, K::None, Ff4),
            // Backgammon.
            (6, "CO", T::SimpleText, One, K::Setup, Ff4),
            (6, "CV", T::Number, One, K::Setup, Ff4),
            (6, "DI", T::Number, One, K::Setup, Ff4),
            (6, "MI", TEXT_TEXT, List, K::GameInfo, Ff4),
            // Lines of Action.
            (9, "AS", T::SimpleText, One, K::None, Ff4),
            (9, "IY", T::SimpleText, One, K::GameInfo, Ff4),
            (9, "SE", T::Point, One, K::None, Ff4),
            (9, "SU", T::SimpleText, One, K::GameInfo, Ff4),
            // Hex.
            (11, "IS", TEXT_TEXT, List, K::Root, Ff4),
            (11, "IP", T::SimpleText, One, K::GameInfo, Ff4),
            // Amazons.
            (18, "AA", T::Point, List, K::Setup, Ff4),
            (18, "B", T::Move, One, K::Move, Ff4),
            // Octi.
            (19, "AS", STONE_POINT, List, K::None, Ff4),
            (19, "BO", T::Point, List, K::GameInfo, Ff4),
            (19, "NP", T::Number, One, K::GameInfo, Ff4),
            (19, "CS", T::Stone, List, K::None, Ff4),
            (19, "RP", T::Stone, List, K::Setup, Ff4),
            // 2016 update.
            (1, "BC", T::SimpleText, One, K::GameInfo, Update2016),
            (1, "LC", T::Number, One, K::GameInfo, Update2016),
            (1, "LT", T::SimpleText, One, K::GameInfo, Update2016),
            // FF[1]-FF[3].
            (1, "BS", T::Number, One, K::GameInfo, Old),
            (1, "CH", T::Double, One, K::None, Old),
            (1, "EX", T::Move, One, K::None, Old),
            (1, "L", T::Point, List, K::None, Old),
            (1, "M", T::Point, List, K::None, Old),
            (1, "OV", T::Real, One, K::None, Old),
            (1, "SE", T::Point, List, K::None, Old),
            (1, "SI", T::Double, One, K::None, Old),
            (1, "KI", T::Number, One, K::GameInfo, Old),
        ];
        for &(gm, ident, ty, arity, kind, origin) in rows {
            let info = lookup(gm, ident).unwrap_or_else(|| panic!("GM[{gm}] {ident} missing"));
            assert_eq!(
                (info.ty, info.arity, info.kind, info.origin),
                (ty, arity, kind, origin),
                "GM[{gm}] {ident}"
            );
        }
    }

    #[test]
    fn alternative_forms() {
        assert_eq!(lookup(1, "SZ").unwrap().alt, Some(NUMBER_NUMBER));
        assert_eq!(lookup(1, "FG").unwrap().alt, Some(NUMBER_TEXT));
        assert_eq!(
            NUMBER_TEXT,
            ValueType::Compose(&ValueType::Number, &ValueType::SimpleText)
        );
        let with_alt: Vec<&str> = all().filter(|p| p.alt.is_some()).map(|p| p.ident).collect();
        assert_eq!(with_alt, ["SZ", "FG"]);
    }

    #[test]
    fn every_compose_and_elist_property_is_known() {
        let mut compose: Vec<(&str, &str)> = Vec::new();
        let mut elist: Vec<&str> = Vec::new();
        for (name, table) in TABLES {
            for info in *table {
                if matches!(info.ty, ValueType::Compose(..)) {
                    compose.push((name, info.ident));
                }
                if info.arity == EList {
                    elist.push(info.ident);
                }
            }
        }
        assert_eq!(
            compose,
            [
                ("GENERAL", "AR"),
                ("GENERAL", "LB"),
                ("GENERAL", "LN"),
                ("GENERAL", "AP"),
                ("BACKGAMMON", "MI"),
                ("HEX", "IS"),
                ("OCTI", "AS"),
            ]
        );
        assert_eq!(elist, ["DD", "VW", "TB", "TW"]);
    }

    #[test]
    fn lookup_precedence() {
        // Game table first.
        assert_eq!(lookup(9, "SE").unwrap().origin, Origin::Ff4);
        assert_eq!(lookup(9, "SE").unwrap().ty, T::Point);
        assert_eq!(lookup(9, "AS").unwrap().ty, T::SimpleText);
        assert_eq!(lookup(19, "AS").unwrap().ty, STONE_POINT);
        assert!(std::ptr::eq(lookup(6, "RE").unwrap(), &BACKGAMMON[6]));
        assert!(std::ptr::eq(lookup(18, "B").unwrap(), &AMAZONS[0]));
        assert!(lookup(11, "IP").unwrap().name.contains("empty"));
        assert!(lookup(9, "IP").unwrap().name.contains("End"));
        // GO only for GM[1]; other games' properties only in their game.
        assert!(lookup(1, "KM").is_some());
        assert!(lookup(2, "KM").is_none());
        assert!(lookup(1, "AS").is_none());
        assert!(lookup(1, "AA").is_none());
        // Everyone sees the general table.
        for gm in [0, 1, 2, 6, 9, 11, 18, 19, 40, 1000] {
            assert!(std::ptr::eq(
                lookup(gm, "C").unwrap(),
                find(GENERAL, "C").unwrap()
            ));
        }
        // 2016 before Old.
        assert_eq!(lookup(1, "LT").unwrap().origin, Origin::Update2016);
        assert_eq!(find(OLD, "LT").unwrap().ty, T::None);
        // Old only when nothing newer defines it, whatever the game.
        for gm in [1, 6, 9, 11, 18, 19, 3] {
            for info in OLD {
                let newer = find(game_table(gm), info.ident)
                    .or_else(|| find(GENERAL, info.ident))
                    .or_else(|| find(UPDATE_2016, info.ident));
                let got = lookup(gm, info.ident).unwrap();
                match newer {
                    Some(n) => assert!(std::ptr::eq(got, n), "GM[{gm}] {}", info.ident),
                    None => assert!(std::ptr::eq(got, info), "GM[{gm}] {}", info.ident),
                }
            }
        }
    }

    #[test]
    fn lookup_agrees_with_the_tables_for_every_identifier() {
        for gm in 0..=41 {
            for ident in all_idents() {
                let want = find(game_table(gm), &ident)
                    .or_else(|| find(GENERAL, &ident))
                    .or_else(|| find(UPDATE_2016, &ident))
                    .or_else(|| find(OLD, &ident));
                assert_eq!(lookup(gm, &ident), want, "GM[{gm}] {ident}");
            }
        }
    }

    #[test]
    fn lookup_rejects_what_is_not_an_identifier() {
        for ident in ["", "b", "Km", "KMX", "PLAYER", "A1", "É", "K\u{0}"] {
            assert!(lookup(1, ident).is_none(), "{ident:?}");
        }
    }

    #[test]
    fn game_tables() {
        assert_eq!(game_table(1), GO);
        assert_eq!(game_table(6), BACKGAMMON);
        assert_eq!(game_table(9), LINES_OF_ACTION);
        assert_eq!(game_table(11), HEX);
        assert_eq!(game_table(18), AMAZONS);
        assert_eq!(game_table(19), OCTI);
        for gm in [0, 2, 3, 8, 40, u32::MAX] {
            assert!(game_table(gm).is_empty());
        }
        for gm in [6, 9, 11, 18, 19] {
            assert!(find(game_table(gm), "B").is_some(), "GM[{gm}] B");
            assert!(find(game_table(gm), "W").is_some(), "GM[{gm}] W");
        }
    }

    #[test]
    fn all_covers_every_table() {
        let total: usize = TABLES.iter().map(|(_, t)| t.len()).sum();
        assert_eq!(all().count(), total);
        assert!(all().any(|p| p.ident == "KI" && p.origin == Origin::Old));
        assert!(all().any(|p| p.ident == "TS"));
    }

    #[test]
    fn game_names() {
        assert_eq!(game_name(1), Some("Go"));
        assert_eq!(game_name(6), Some("Backgammon"));
        assert_eq!(game_name(11), Some("Hex"));
        assert_eq!(game_name(14), Some("Philosopher's Football"));
        assert_eq!(game_name(40), Some("Kropki"));
        assert_eq!(game_name(0), None);
        assert_eq!(game_name(41), None);
        assert!((1..=40).all(|gm| game_name(gm).is_some()));
    }
}
