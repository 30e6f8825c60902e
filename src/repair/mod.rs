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
//! | repair | what it does |
//! |---|---|
//! | `root-move` | a move (`B`/`W`, with its times and annotations) in the root goes to a node of its own after the root |
//! | `split-bw` | a node with both `B` and `W` becomes two nodes, in the order the moves were written; setup goes with the first move, the rest with the second; in the root, only the second move and its time leave the root |
//! | `sz-square` | `SZ[19:19]` → `SZ[19]` |
//! | `single-value` | a single-valued property with several values (`AP[GNU Go:3.8]…AP[foxwq]`, `C[][text]`) keeps its first non-empty value (an empty `B[]`, a pass, counts as a value) (text too: `C[a][b]` keeps `a`, and the report shows `[b]`; joining texts with a line break was tried and can make a reader take the joined value for a game cut off) |
//! | `empty-nodes` | a node without properties (not the root) is removed, its children taking its place, unless that changes what follows which move: an empty node with siblings stays when it would keep several children (they would become variations of another move), or none while it is the first child (it ends the main line) |
//! | `ki-km` | the integer komi `KI` of old Smart Game Board files, in half points (`KI[13]`, 6.5 points: `vaughn.sgf` of GNU Go's regression games has `KI[1]` beside `KM[0.5]`), becomes `KM[6.5]`; a `KI` that a `KM` already says is dropped, one that disagrees is left |
//! | `fox-komi` | Fox's scaled komi ([`Komi`](crate::game::Komi#the-fox-rule)): `KM[650]` → `KM[6.5]`, `KM[375]` under Chinese rules → `KM[7.5]` (Fox games only) |
//! | `fox-handicap` | handicap stones outside the root, `HA` agreeing with their number, go into the root as `AB`: a node after the root that holds only `AB` (how Fox writes them), or `HA` leading black moves (Fox games only) |
//! | `ogs-nesting` | a variation that is its parent's only continuation, `(;B[aa](;W[bb](;B[cc])))` as OGS writes every move, written as a plain sequence `;B[aa];W[bb];B[cc]` (without this repair the nesting is kept) |
//! | `komi-convention` | GoGoD and go4go games under Chinese rules with komi written in stones (`KM[3.75]`) get it in points (`KM[7.5]`) |
//! | `mojibake` | UTF-8 text that is the misreading of other bytes as windows-1252 / Latin-1 (`å¸¸æ˜Š`) is decoded as what it was (`常昊`), when the reversal is unambiguous (see below) |
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

mod mojibake;
mod plan;
mod source;

pub use source::{detect, Detection, Source};

use crate::error::Result;
use crate::span::Position;
use crate::tree::{Collection, GameTree, Node, NodeId};
use crate::writer::{WriteOptions, Writer};
use plan::{Handicap, Planner, VNode};
use std::fmt;
use std::io::Write;
use std::str::FromStr;

/// One named repair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Repair {
    /// `root-move`: a move in the root split into its own node.
    RootMove,
    /// `split-bw`: `B` and `W` in one node split into two nodes.
    SplitBw,
    /// `sz-square`: `SZ[19:19]` → `SZ[19]`.
    SzSquare,
    /// `single-value`: duplicate and empty values of single-valued
    /// properties dropped, the first non-empty one kept.
    SingleValue,
    /// `empty-nodes`: empty non-root nodes removed.
    EmptyNodes,
    /// `ki-km`: `KI` (integer komi, in half points) → `KM`.
    KiKm,
    /// `fox-komi`: Fox's komi ×100 / ×50 written in points.
    FoxKomi,
    /// `fox-handicap`: Fox's handicap stones outside the root turned into
    /// `AB` in the root.
    FoxHandicap,
    /// `ogs-nesting`: single-child variations flattened into sequences.
    OgsNesting,
    /// `komi-convention`: GoGoD / go4go komi in stones written in points.
    KomiConvention,
    /// `mojibake`: text decoded in the wrong charset and saved as UTF-8,
    /// read back as it was.
    Mojibake,
}

impl Repair {
    /// Every repair, in the order they are listed and counted.
    pub const ALL: [Repair; 11] = [
        Repair::RootMove,
        Repair::SplitBw,
        Repair::SzSquare,
        Repair::SingleValue,
        Repair::EmptyNodes,
        Repair::KiKm,
        Repair::FoxKomi,
        Repair::FoxHandicap,
        Repair::OgsNesting,
        Repair::KomiConvention,
        Repair::Mojibake,
    ];

    /// The name on the command line and in reports (`root-move`).
    pub fn name(self) -> &'static str {
        match self {
            Repair::RootMove => "root-move",
            Repair::SplitBw => "split-bw",
            Repair::SzSquare => "sz-square",
            Repair::SingleValue => "single-value",
            Repair::EmptyNodes => "empty-nodes",
            Repair::KiKm => "ki-km",
            Repair::FoxKomi => "fox-komi",
            Repair::FoxHandicap => "fox-handicap",
            Repair::OgsNesting => "ogs-nesting",
            Repair::KomiConvention => "komi-convention",
            Repair::Mojibake => "mojibake",
        }
    }

    /// The repair named `name`, if any.
    ///
    /// ```
    /// use sgf_grove::repair::Repair;
    /// assert_eq!(Repair::from_name("ki-km"), Some(Repair::KiKm));
    /// assert_eq!(Repair::from_name("KI-KM"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Repair> {
        Repair::ALL.into_iter().find(|r| r.name() == name)
    }

    /// The sources the repair needs to be certain of to run, if any.
    pub fn sources(self) -> &'static [Source] {
        match self {
            Repair::FoxKomi | Repair::FoxHandicap => &[Source::Fox],
            Repair::KomiConvention => &[Source::GoGoD, Source::Go4go],
            _ => &[],
        }
    }

    fn bit(self) -> u16 {
        1 << self as u16
    }
}

impl fmt::Display for Repair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Repair {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Repair, String> {
        Repair::from_name(s).ok_or_else(|| {
            let names: Vec<&str> = Repair::ALL.iter().map(|r| r.name()).collect();
            format!("unknown repair {s:?} (one of {})", names.join(", "))
        })
    }
}

/// A set of [`Repair`]s.
///
/// ```
/// use sgf_grove::repair::{Repair, Repairs};
/// let some = Repairs::new().with(Repair::SzSquare).with(Repair::KiKm);
/// assert!(some.contains(Repair::KiKm) && !some.contains(Repair::Mojibake));
/// assert_eq!(some.iter().collect::<Vec<_>>(), [Repair::SzSquare, Repair::KiKm]);
/// assert_eq!(Repairs::all().iter().count(), Repair::ALL.len());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Repairs(u16);

impl Repairs {
    /// No repair.
    pub fn new() -> Repairs {
        Repairs(0)
    }

    /// Every repair.
    pub fn all() -> Repairs {
        Repair::ALL.into_iter().fold(Repairs::new(), Repairs::with)
    }

    /// This set and `repair`.
    #[must_use]
    pub fn with(self, repair: Repair) -> Repairs {
        Repairs(self.0 | repair.bit())
    }

    /// This set without `repair`.
    #[must_use]
    pub fn without(self, repair: Repair) -> Repairs {
        Repairs(self.0 & !repair.bit())
    }

    /// Whether `repair` is in the set.
    pub fn contains(self, repair: Repair) -> bool {
        self.0 & repair.bit() != 0
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The repairs in the set, in the order of [`Repair::ALL`].
    pub fn iter(self) -> impl Iterator<Item = Repair> {
        Repair::ALL.into_iter().filter(move |r| self.contains(*r))
    }
}

impl FromIterator<Repair> for Repairs {
    fn from_iter<I: IntoIterator<Item = Repair>>(iter: I) -> Repairs {
        iter.into_iter().fold(Repairs::new(), Repairs::with)
    }
}

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
