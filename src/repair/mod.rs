//! Named repairs: known defects of real files rewritten, each repair
//! opt-in and each change reported with its place in the original input.
//!
//! A repair never edits the parsed tree: a [`Fixer`] walks each game
//! (iteratively, with an explicit stack: a million-deep game is fine) and
//! writes the repaired game node by node through a [`Writer`], splitting,
//! dropping and merging nodes and replacing values as it goes. Everything
//! the repairs do not touch is written as the writer's
//! [`WriteOptions`] say (raw by default: values byte for byte), so the
//! output parses back to the same game but for the defects repaired.
//!
//! The repairs, each with its name and what it does, are the table in
//! [`Repair`]'s docs; they are declared once, in `list.rs` (one row each,
//! from which the enum, the names, the parser and [`Repair::NAMES`] come),
//! and each one's rewriting is a file of its own beside the planner's walk
//! (`plan.rs`).
//!
//! Which program wrote a game is told from several signals of its root
//! ([`detect`]); `fox-komi`, `fox-handicap` and `komi-convention` run only
//! when the source they fix is certain: at least two signals of it and
//! none of another ([`Detection`]). The [`Repaired`] of each game says what
//! was found. (The shared corpus holds no GoGoD or go4go file and no
//! mojibake: those two repairs are tested on hand-made games only.)
//!
//! Mojibake is repaired only in games read as UTF-8, in text values
//! without escapes, when the text's characters encode back to bytes
//! (windows-1252, Latin-1), those bytes decode without error in exactly
//! one of UTF-8, GBK, Shift_JIS, EUC-KR and Big5 (UTF-8 first: it is never
//! valid by chance), encode back to the same bytes, and give text of that
//! charset's script; text a Big5 and a GBK reading both fit is left.
//!
//! ```
//! use sgf_grove::repair::{repair_game, Repair, Repairs};
//! use sgf_grove::writer::WriteOptions;
//! let doc = sgf_grove::parse(b"(;GM[1]SZ[19:19]B[pd]\n;B[dd]W[pp])")?;
//! let game = doc.games().next().unwrap();
//! let mut out = Vec::new();
//! let repaired = repair_game(game, &Repairs::all(), &WriteOptions::new(), &mut out)?;
//! assert_eq!(out, b"(;GM[1]SZ[19];B[pd];B[dd];W[pp])\n");
//! let report: Vec<String> = repaired.changes.iter().map(|c| c.to_string()).collect();
//! assert_eq!(report, [
//!     "1:8: sz-square: SZ[19:19] → SZ[19]",
//!     "1:17: root-move: B[pd] moved out of the root into a node of its own",
//!     "2:7: split-bw: B[dd] and W[pp] split into two nodes",
//! ]);
//! # Ok::<(), sgf_grove::Error>(())
//! ```

mod empty_nodes;
mod fox_handicap;
mod idle_setup;
mod ki_km;
mod komi;
mod list;
mod mojibake;
mod ogs_nesting;
mod orphan;
mod plan;
mod root_move;
mod root_props;
mod single_value;
mod source;
mod split_bw;
mod split_setup;
mod sz_square;

pub use list::{Repair, Repairs};
pub use source::{detect, Detection, Source};

use crate::error::Result;
use crate::span::Position;
use crate::tree::{Collection, GameTree, Node, NodeId};
use crate::writer::{WriteOptions, Writer};
use plan::{Handicap, Planner, VNode};
use std::fmt;
use std::io::Write;

/// One change a repair made: which, where in the original input (the
/// line and column of the property, value, node or `(` it is about), and
/// what. Displayed as `line:column: repair-name: what`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The repair.
    pub repair: Repair,
    /// Where, in the input the game was parsed from.
    pub pos: Position,
    /// What changed (`KM[650] → KM[6.5] (Fox: points × 100)`).
    pub message: String,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}: {}",
            self.pos.line, self.pos.column, self.repair, self.message
        )
    }
}

/// What repairing one game did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Repaired {
    /// The changes, in the order of their places in the input.
    pub changes: Vec<Change>,
    /// The source of the game, as its root tells it.
    pub source: Detection,
}

/// Writes games repaired to an output: a [`Writer`] with the repairs to
/// make.
///
/// ```
/// use sgf_grove::repair::{Fixer, Repair, Repairs};
/// use sgf_grove::writer::WriteOptions;
/// let doc = sgf_grove::parse(b"(;KI[13];B[aa];;W[bb])(;SZ[9:9])")?;
/// let repairs = Repairs::new().with(Repair::KiKm).with(Repair::EmptyNodes);
/// let mut fixer = Fixer::new(Vec::new(), repairs, WriteOptions::new());
/// let mut changes = 0;
/// for game in doc.games() {
///     changes += fixer.fix_game(game)?.changes.len();
/// }
/// assert_eq!(changes, 2);
/// assert_eq!(fixer.into_inner(), b"(;KM[6.5];B[aa];W[bb])\n(;SZ[9:9])\n");
/// # Ok::<(), sgf_grove::Error>(())
/// ```
#[derive(Debug)]
pub struct Fixer<W: Write> {
    writer: Writer<W>,
    repairs: Repairs,
}

impl<W: Write> Fixer<W> {
    /// A fixer that makes `repairs` and writes as `options` say.
    pub fn new(out: W, repairs: Repairs, options: WriteOptions) -> Fixer<W> {
        Fixer {
            writer: Writer::with_options(out, options),
            repairs,
        }
    }

    /// The repairs it makes.
    pub fn repairs(&self) -> Repairs {
        self.repairs
    }

    /// The underlying output.
    pub fn into_inner(self) -> W {
        self.writer.into_inner()
    }

    /// Repairs every game of `coll`, and says what each repair did.
    ///
    /// # Errors
    ///
    /// As [`Fixer::fix_game`].
    pub fn fix_collection(&mut self, coll: Collection<'_, '_>) -> Result<Vec<Repaired>> {
        coll.games().map(|game| self.fix_game(game)).collect()
    }

    /// Writes `game` repaired, followed by a line break, and says what was
    /// changed.
    ///
    /// # Errors
    ///
    /// As [`Writer::write_game`]: a failed write, or a character the
    /// charset text is transcoded to lacks.
    pub fn fix_game(&mut self, game: GameTree<'_, '_>) -> Result<Repaired> {
        let source = detect(game.root());
        let certain = source.certain_source();
        let repairs = self
            .repairs
            .iter()
            .filter(|r| r.sources().is_empty() || certain.is_some_and(|s| r.sources().contains(&s)))
            .collect();
        let mut planner = Planner::new(game, repairs);
        let handicap = if repairs.contains(Repair::FoxHandicap) {
            planner.handicap()
        } else {
            None
        };
        if let Err(err) = self.walk(game, &mut planner, handicap.as_ref()) {
            self.writer.put_abort()?;
            return Err(err);
        }
        Ok(Repaired {
            changes: planner.into_changes(),
            source,
        })
    }

    fn walk<'t, 'src>(
        &mut self,
        game: GameTree<'t, 'src>,
        planner: &mut Planner<'t, 'src>,
        handicap: Option<&Handicap<'t, 'src>>,
    ) -> Result<()> {
        let w = &mut self.writer;
        w.put_game_start(game);
        w.put_open();
        let mut tasks = vec![Task::Seq(game.root(), None)];
        let mut kids = Vec::new();
        let flatten = planner.repairs().contains(Repair::OgsNesting);
        while let Some(task) = tasks.pop() {
            let (node, run) = match task {
                Task::Open => {
                    w.put_open();
                    continue;
                }
                Task::Close => {
                    w.put_close();
                    continue;
                }
                Task::Seq(node, run) => (node, run),
            };
            for vnode in planner.plan(node, handicap) {
                match vnode {
                    VNode::Same => w.put_node(node)?,
                    VNode::Items { root, items } => w.put_items(node, root, &items)?,
                }
            }
            planner.children(node, handicap, &mut kids);
            if let [only] = kids[..] {
                match nesting_paren(only) {
                    Some(paren) if flatten => {
                        let run = planner.flattened(paren, run);
                        tasks.push(Task::Seq(only, Some(run)));
                    }
                    Some(_) => {
                        tasks.extend([Task::Close, Task::Seq(only, None), Task::Open]);
                    }
                    None => tasks.push(Task::Seq(only, None)),
                }
                continue;
            }
            for &kid in kids.iter().rev() {
                tasks.extend([Task::Close, Task::Seq(kid, None), Task::Open]);
            }
        }
        w.put_close();
        w.put_game_end()
    }
}

/// What the walk does next.
#[derive(Clone, Copy, Debug)]
enum Task<'t, 'src> {
    Open,
    Close,
    /// A node and what follows it; with the index of the `ogs-nesting`
    /// change it continues, when it was a flattened variation.
    Seq(Node<'t, 'src>, Option<usize>),
}

/// The offset of the `(` that opens a variation with `node` at its start,
/// when there is one (spaces aside).
fn nesting_paren(node: Node<'_, '_>) -> Option<usize> {
    let input = node.collection().input();
    let before = input.get(..node.offset())?;
    let at = before.iter().rposition(|b| !b.is_ascii_whitespace())?;
    (before[at] == b'(').then_some(at)
}

/// Writes `game` repaired into `out`, as [`Fixer::fix_game`] does.
///
/// ```
/// use sgf_grove::repair::{repair_game, Repair, Repairs};
/// use sgf_grove::writer::WriteOptions;
/// let doc = sgf_grove::parse(b"(;GM[1];B[aa](;W[bb](;B[cc])))")?;
/// let game = doc.games().next().unwrap();
/// let mut out = Vec::new();
/// let ogs = Repairs::new().with(Repair::OgsNesting);
/// let repaired = repair_game(game, &ogs, &WriteOptions::new(), &mut out)?;
/// assert_eq!(out, b"(;GM[1];B[aa];W[bb];B[cc])\n");
/// assert_eq!(repaired.changes[0].to_string(), "1:14: ogs-nesting: 2 variations that were the only continuation flattened into the sequence");
/// # Ok::<(), sgf_grove::Error>(())
/// ```
///
/// # Errors
///
/// As [`Fixer::fix_game`].
pub fn repair_game(
    game: GameTree<'_, '_>,
    repairs: &Repairs,
    options: &WriteOptions,
    out: &mut Vec<u8>,
) -> Result<Repaired> {
    Fixer::new(out, *repairs, options.clone()).fix_game(game)
}

/// The ids of nodes, for the plans that drop some.
type Ids = Vec<NodeId>;
