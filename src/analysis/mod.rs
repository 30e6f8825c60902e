//! Engine analysis stored in SGF, read as data: each program's form decoded
//! into the same typed record, [`Analysis`], one per form found on a node.
//!
//! Every analysis program writes its own form:
//!
//! | form ([`Form::code`]) | where | what it holds |
//! |---|---|---|
//! | `katrain` | `KT[ownership][policy][main]` (and `KTV[1.0]` in the root) | three values, each gzip then base64: ownership and policy as packed float16 (little-endian), and KataGo's analysis as JSON (`root`: win rate, score lead, visits; `moves`: candidates with their principal variations). Win rate, score and ownership are Black's (KaTrain asks KataGo for Black's view). Needs feature `katrain` |
//! | `lizzie` | `LZ[VERSION WINRATE PLAYOUTS\nmove Q16 visits 38 winrate 5404 pv Q16 D4 …]` | first line: the win rate (percent) of the side that made the node's move, and the playouts (`2.8k`); then the candidates in Leela Zero's `lz-analyze` words, for the side to move (win rate in hundredths of a percent, or a fraction with a `.`; `scoreMean` from KataGo) |
//! | `sabaki` | `SBKV[54.3]`, `SBKS[2.5]` | Black's win rate (percent) and score lead |
//! | `ogatak` | `SBKV[54.3]OGSC[2.5]` | the same, with the score in `OGSC` |
//! | `katago-selfplay` | `C[0.40 0.60 0.00 -3.7 v=400 …]` | White's win, loss and no-result probabilities and score lead, and the visits, **of the position before the node's move** (the search that chose it) |
//! | `ogs` | `C[Black's win rate: 15.4% visits: 507]` | a review server's line: the named side's win rate, visits |
//! | `lizzie-comment` | `C[Black's winrate: 54.2% (+1.3%)\n(NAME / 1.5k playouts)]` | Lizzie's summary: the named side's win rate, playouts |
//!
//! # One view: Black's
//!
//! Programs write win rates for the side to move, for the side that moved,
//! for White or for Black. Every [`Analysis`] is turned to **Black's view**:
//! [`Analysis::win_rate`] is Black's chance to win (0 to 1, draws and
//! no-results counted half), [`Analysis::score_lead`] Black's lead in
//! points (negative when White leads), [`Analysis::ownership`] +1 for a
//! point Black owns. Each record refers to the position after its node's
//! move, except KataGo self-play's ([`Analysis::before_move`]).
//!
//! # What is doubtful
//!
//! - The review server's comment line (`ogs`) is known from one quoted
//!   example (`Black's win rate: %15.4 visits: 507`): the decoder takes
//!   the number with the `%` before or after it; a `score:` is read when
//!   present.
//! - Lizzie's first-line score (a fourth number some Lizzie versions
//!   write) is taken as the side to move's, as its candidates' are; it is
//!   read only when no candidate has a `scoreMean`.
//! - KaTrain's floats are read as little-endian half precision (what
//!   Python's `struct` writes on the machines KaTrain runs on).
//!
//! # Comments
//!
//! Which comments are an engine's and which a person's is decided line by
//! line; a comment with any word of a person's is no analysis (and
//! `strip --preset analysis` keeps it):
//!
//! - KataGo self-play: `[Pass for ko] W L NR S` with `W L NR`
//!   probabilities written with two decimals that sum to 1, then only
//!   `v=N`, `weight=X`, `result=…`;
//! - review server: `Black's win rate: 15.4%` or `White's …`, then only
//!   `visits: N`, `score: X`;
//! - Lizzie: `Black's winrate: 54.2%` with an optional `(+1.3%)`, and
//!   `(NAME / 1.5k playouts)`.
//!
//! # Malformed analysis
//!
//! A value that does not decode gives an [`AnalysisWarning`] with its
//! position (byte offset, line, column) and no record; the game and the
//! other records are read all the same. Nothing panics.
//!
//! # Example
//!
//! ```
//! use sgf_grove::analysis::{self, Form};
//! use sgf_grove::value::{Color, Move, Point};
//!
//! let doc = sgf_grove::parse(b"(;GM[1]SZ[19];B[pd]SBKV[45.5]SBKS[-1.5];W[dd]C[0.40 0.60 0.00 -3.7 v=400])")?;
//! let game = doc.games().next().unwrap();
//! let found = analysis::main_line(game);
//! assert!(found.warnings.is_empty());
//! let [sabaki, selfplay] = &found.records[..] else { panic!() };
//! assert_eq!((sabaki.move_number, sabaki.color, sabaki.analysis.form), (1, Some(Color::Black), Form::Sabaki));
//! assert_eq!(sabaki.analysis.win_rate, Some(0.455));
//! assert_eq!(sabaki.analysis.score_lead, Some(-1.5));
//! // KataGo writes White's view: Black's is the other side of it.
//! assert_eq!(selfplay.analysis.form, Form::KataGoSelfplay);
//! assert!((selfplay.analysis.win_rate.unwrap() - 0.6).abs() < 1e-9);
//! assert_eq!((selfplay.analysis.score_lead, selfplay.analysis.visits), (Some(3.7), Some(400)));
//! assert!(selfplay.analysis.before_move);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg_attr(not(feature = "katrain"), allow(dead_code))]
mod base64;
mod gtp;
#[cfg_attr(not(feature = "katrain"), allow(dead_code))]
mod half;
mod katrain;
mod lizzie;

use crate::span::Position;
use crate::spec::analysis::{engine_comment, plain_number, CommentForm};
use crate::tree::read::{ReadGame, ReadNode, ReadProperty};
use crate::value::{BoardSize, Color, Move};
use std::fmt;

/// The private properties that hold engine analysis, which
/// `strip --preset analysis` drops: `KT KTV LZ SBKV SBKS OGSC`.
///
/// ```
/// assert!(sgf_grove::analysis::IDENTS.contains(&"KT"));
/// ```
pub const IDENTS: &[&str] = &crate::spec::analysis::ANALYSIS_IDENTS;

/// Whether `raw`, a comment's value as written (escapes and all), is an
/// engine's analysis and nothing else (the rule is in the module docs).
///
/// ```
/// use sgf_grove::analysis::is_engine_comment;
/// assert!(is_engine_comment(b"0.40 0.60 0.00 -3.7 v=400"));
/// assert!(!is_engine_comment(b"0.40 0.60 0.00 -3.7 what a move"));
/// assert!(!is_engine_comment(b"Black leads by 3.5"));
/// ```
pub fn is_engine_comment(raw: &[u8]) -> bool {
    crate::spec::analysis::is_engine_comment(raw)
}

/// The form an [`Analysis`] was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Form {
    /// KaTrain's `KT`.
    KaTrain,
    /// Lizzie's (and LizGoban's) `LZ`.
    Lizzie,
    /// Sabaki's `SBKV` (and `SBKS`).
    Sabaki,
    /// Ogatak's `SBKV` with `OGSC`.
    Ogatak,
    /// A KataGo self-play comment.
    KataGoSelfplay,
    /// A review server's comment (`Black's win rate: …`).
    Review,
    /// Lizzie's summary comment (`Black's winrate: …`).
    LizzieComment,
}

impl Form {
    /// Every form.
    pub const ALL: [Form; 7] = [
        Form::KaTrain,
        Form::Lizzie,
        Form::Sabaki,
        Form::Ogatak,
        Form::KataGoSelfplay,
        Form::Review,
        Form::LizzieComment,
    ];

    /// Its name in tables: `katrain`, `lizzie`, `sabaki`, `ogatak`,
    /// `katago-selfplay`, `ogs`, `lizzie-comment`.
    pub fn code(self) -> &'static str {
        match self {
            Form::KaTrain => "katrain",
            Form::Lizzie => "lizzie",
            Form::Sabaki => "sabaki",
            Form::Ogatak => "ogatak",
            Form::KataGoSelfplay => "katago-selfplay",
            Form::Review => "ogs",
            Form::LizzieComment => "lizzie-comment",
        }
    }
}

/// One engine's analysis of one position, in Black's view.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The form it was read from.
    pub form: Form,
    /// Whether it is of the position before the node's move (KataGo
    /// self-play); else of the position after it.
    pub before_move: bool,
    /// Black's chance to win, 0 to 1.
    pub win_rate: Option<f64>,
    /// Black's lead in points (negative: White leads).
    pub score_lead: Option<f64>,
    /// Visits (playouts) of the search.
    pub visits: Option<u64>,
    /// The principal variation: the best move first.
    pub pv: Vec<Move>,
    /// Ownership per point, row by row from the top left (`y * cols +
    /// x`): +1 Black's, -1 White's.
    pub ownership: Option<Vec<f32>>,
    /// The policy per point, in the same order, then the pass; -1 for
    /// illegal points.
    pub policy: Option<Vec<f32>>,
}

impl Analysis {
    fn new(form: Form) -> Analysis {
        Analysis {
            form,
            before_move: false,
            win_rate: None,
            score_lead: None,
            visits: None,
            pv: Vec::new(),
            ownership: None,
            policy: None,
        }
    }

    /// The principal variation as text: SGF points (`pd`) and `pass`,
    /// separated by spaces.
    ///
    /// ```
    /// use sgf_grove::analysis;
    /// let doc = sgf_grove::parse(b"(;SZ[19];B[pd]LZ[0.7 45.0 100\nmove D4 visits 100 winrate 5500 pv D4 pass Q16])")?;
    /// let found = analysis::main_line(doc.games().next().unwrap());
    /// assert_eq!(found.records[0].analysis.pv_text(), "dp pass pd");
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    pub fn pv_text(&self) -> String {
        let mut out = String::new();
        for (i, m) in self.pv.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            match m {
                Move::Play(p) => out.push_str(&p.to_string()),
                Move::Pass => out.push_str("pass"),
            }
        }
        out
    }
}

/// An [`Analysis`] and where it is: on the main line.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeAnalysis {
    /// Moves played on the main line up to and with this node (0 for the
    /// root before any move).
    pub move_number: u32,
    /// The node's move's colour, if it has a move.
    pub color: Option<Color>,
    /// The node's move, if it has one.
    pub played: Option<Move>,
    /// The byte offset of the node in its input, when known.
    pub offset: Option<usize>,
    /// The analysis.
    pub analysis: Analysis,
}

/// Analysis that did not decode: what and where.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysisWarning {
    /// The form it was taken for.
    pub form: Form,
    /// What is wrong, lowercase.
    pub message: String,
    /// Where the value is, when known.
    pub position: Option<Position>,
}

impl fmt::Display for AnalysisWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} analysis: {}", self.form.code(), self.message)?;
        if let Some(p) = self.position {
            write!(f, " at {}:{} (byte {})", p.line, p.column, p.offset)?;
        }
        Ok(())
    }
}

/// The analysis of a game's main line, and what did not decode.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameAnalysis {
    /// One record per form found on a node, nodes in order.
    pub records: Vec<NodeAnalysis>,
    /// One per value that did not decode.
    pub warnings: Vec<AnalysisWarning>,
}

/// The analysis on the main line of `game`, any form of a game (parsed or
/// edited). See the [module docs](self) for an example.
pub fn main_line<'g, G: ReadGame<'g>>(game: G) -> GameAnalysis {
    let mut out = GameAnalysis::default();
    let size = game.board_size();
    let root = game.root();
    let version = root.raw("KTV");
    let mut ply = 0u32;
    // The side that made the last move (Lizzie's first line is its).
    let mut last = None;
    for node in root.main_line() {
        let played = node.played().ok().flatten();
        if let Some((color, _)) = played {
            ply = ply.saturating_add(1);
            last = Some(color);
        }
        let mut found = Vec::new();
        let ctx = Context {
            size,
            version,
            mover: last.unwrap_or(Color::White),
        };
        node_forms(node, &ctx, &mut found, &mut out.warnings);
        for analysis in found {
            out.records.push(NodeAnalysis {
                move_number: ply,
                color: played.map(|(c, _)| c),
                played: played.map(|(_, m)| m),
                offset: node.offset(),
                analysis,
            });
        }
    }
    out
}

/// What decoding a node needs from the game.
struct Context<'g> {
    size: BoardSize,
    /// The root's `KTV`.
    version: Option<&'g [u8]>,
    /// The side that made the node's move (or the last one before it).
    mover: Color,
}

/// Each form on `node`, decoded into `found`; the failures into
/// `warnings`.
fn node_forms<'g, N: ReadNode<'g>>(
    node: N,
    ctx: &Context<'g>,
    found: &mut Vec<Analysis>,
    warnings: &mut Vec<AnalysisWarning>,
) {
    let game = node.game();
    let warn = |warnings: &mut Vec<AnalysisWarning>, form, message: String, at: Option<usize>| {
        warnings.push(AnalysisWarning {
            form,
            message,
            position: at.and_then(|o| game.position(o)),
        });
    };
    if let Some(kt) = node.property("KT") {
        let values: Vec<(&[u8], Option<usize>)> = kt.values_at().collect();
        match katrain::decode(&values, ctx.size, ctx.version) {
            Ok(a) => found.push(a),
            Err((message, index)) => {
                let at = values.get(index).and_then(|v| v.1).or(kt.ident_offset());
                warn(warnings, Form::KaTrain, message, at);
            }
        }
    }
    if let Some(lz) = node.property("LZ") {
        for (raw, at) in lz.values_at() {
            match lizzie::decode(raw, ctx.size, ctx.mover) {
                Ok(a) => found.push(a),
                Err(message) => warn(warnings, Form::Lizzie, message, at),
            }
        }
    }
    let sbkv = node.property("SBKV");
    let score = node.property("OGSC").map(|p| (p, Form::Ogatak));
    let score = score.or_else(|| node.property("SBKS").map(|p| (p, Form::Sabaki)));
    if sbkv.is_some() || score.is_some() {
        let form = score.map_or(Form::Sabaki, |(_, f)| f);
        let mut a = Analysis::new(form);
        let mut ok = true;
        if let Some((raw, at)) = sbkv.and_then(|p| p.values_at().next()) {
            match number(raw).filter(|v| (0.0..=100.0).contains(v)) {
                Some(v) => a.win_rate = Some(v / 100.0),
                None => {
                    ok = false;
                    warn(warnings, form, bad("SBKV", "a percentage", raw), at);
                }
            }
        }
        if let Some((prop, _)) = score
            && let Some((raw, at)) = prop.values_at().next()
        {
            match number(raw) {
                Some(v) => a.score_lead = Some(v),
                None => {
                    ok = false;
                    warn(warnings, form, bad(prop.ident(), "a number", raw), at);
                }
            }
        }
        if ok {
            found.push(a);
        }
    }
    if let Some(c) = node.property("C") {
        for raw in c.values() {
            if let Some(comment) = engine_comment(raw) {
                found.push(from_comment(comment));
            }
        }
    }
}

/// A comment's analysis in Black's view.
fn from_comment(c: crate::spec::analysis::EngineComment) -> Analysis {
    let form = match c.form {
        CommentForm::KataGoSelfplay => Form::KataGoSelfplay,
        CommentForm::Review => Form::Review,
        CommentForm::Lizzie => Form::LizzieComment,
    };
    let mut a = Analysis::new(form);
    a.before_move = form == Form::KataGoSelfplay;
    a.win_rate = c.win_rate.map(|w| if c.black_view { w } else { 1.0 - w });
    a.score_lead = c.score.map(|s| if c.black_view { s } else { -s });
    a.visits = c.visits;
    a
}

/// A number written as engines write them, spaces around allowed.
fn number(raw: &[u8]) -> Option<f64> {
    std::str::from_utf8(raw)
        .ok()
        .and_then(|s| plain_number(s.trim()))
}

/// `IDENT[value] is not WHAT`, the value shortened.
fn bad(ident: &str, what: &str, raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(&raw[..raw.len().min(40)]);
    let more = if raw.len() > 40 { "…" } else { "" };
    format!("{ident}[{text}{more}] is not {what}")
}

#[cfg(test)]
mod tests;
