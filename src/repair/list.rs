//! The list of repairs, declared once: each row gives a [`Repair`]
//! variant, its name, the sources it needs to be certain of, its short
//! doc and the line of the table in [`Repair`]'s docs. The enum,
//! [`Repair::ALL`], [`Repair::name`], [`Repair::sources`], the parser and
//! [`Repair::NAMES`] (the list the CLI's help shows) come from it.
//!
//! Adding a repair: a row here, and its file beside this one (what it
//! rewrites, called from the planner in `plan.rs`).

use super::Source;
use std::fmt;
use std::str::FromStr;

/// The names joined with `, `.
macro_rules! join_names {
    ($first:literal $(, $rest:literal)*) => {
        concat!($first $(, ", ", $rest)*)
    };
}

/// Declares [`Repair`] and everything listed from it.
macro_rules! repairs {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident = $name:literal, sources $sources:expr_2021, table $row:literal;
    )+) => {
        /// One named repair.
        ///
        /// | repair | what it does |
        /// |---|---|
        $(#[doc = concat!("| `", $name, "` | ", $row, " |")])+
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Repair {
            $(
                $(#[doc = $doc])*
                $variant,
            )+
        }

        impl Repair {
            /// Every repair, in the order they are listed and counted.
            pub const ALL: [Repair; [$($name),+].len()] = [$(Repair::$variant),+];

            /// The names of every repair, comma-separated, in the order of
            /// [`Repair::ALL`] (the list `sgf fix --help` shows).
            ///
            /// ```
            /// use sgf_grove::repair::Repair;
            /// assert!(Repair::NAMES.starts_with("root-move, split-bw, "));
            /// assert_eq!(Repair::NAMES.split(", ").count(), Repair::ALL.len());
            /// ```
            pub const NAMES: &'static str = join_names!($($name),+);

            /// The name on the command line and in reports (`root-move`).
            pub fn name(self) -> &'static str {
                match self {
                    $(Repair::$variant => $name,)+
                }
            }

            /// The sources the repair needs to be certain of to run, if any.
            pub fn sources(self) -> &'static [Source] {
                match self {
                    $(Repair::$variant => $sources,)+
                }
            }
        }
    };
}

repairs! {
    /// `root-move`: a move in the root split into its own node.
    RootMove = "root-move", sources &[],
    table "a move (`B`/`W`, with its times and annotations) in the root goes to a node of its own after the root";
    /// `split-bw`: `B` and `W` in one node split into two nodes.
    SplitBw = "split-bw", sources &[],
    table "a node with both `B` and `W` becomes two nodes, in the order the moves were written; setup goes with the first move, the rest with the second; in the root, only the second move and its time leave the root";
    /// `sz-square`: `SZ[19:19]` → `SZ[19]`.
    SzSquare = "sz-square", sources &[],
    table "`SZ[19:19]` → `SZ[19]`";
    /// `single-value`: duplicate and empty values of single-valued
    /// properties dropped, the first non-empty one kept.
    SingleValue = "single-value", sources &[],
    table "a single-valued property with several values (`AP[GNU Go:3.8]…AP[foxwq]`, `C[][text]`) keeps its first non-empty value (an empty `B[]`, a pass, counts as a value) (text too: `C[a][b]` keeps `a`, and the report shows `[b]`; joining texts with a line break was tried and can make a reader take the joined value for a game cut off)";
    /// `empty-nodes`: empty non-root nodes removed.
    EmptyNodes = "empty-nodes", sources &[],
    table "a node without properties (not the root) is removed, its children taking its place, unless that changes what follows which move: an empty node with siblings stays when it would keep several children (they would become variations of another move), or none while it is the first child (it ends the main line)";
    /// `ki-km`: `KI` (integer komi, in half points) → `KM`.
    KiKm = "ki-km", sources &[],
    table "the integer komi `KI` of old Smart Game Board files, in half points (`KI[13]`, 6.5 points: `vaughn.sgf` of GNU Go's regression games has `KI[1]` beside `KM[0.5]`), becomes `KM[6.5]`; a `KI` that a `KM` already says is dropped, one that disagrees is left";
    /// `fox-komi`: Fox's komi ×100 / ×50 written in points.
    FoxKomi = "fox-komi", sources &[Source::Fox],
    table "Fox's scaled komi ([`Komi`](crate::game::Komi#the-fox-rule)): `KM[650]` → `KM[6.5]`, `KM[375]` under Chinese rules → `KM[7.5]` (Fox games only)";
    /// `fox-handicap`: Fox's handicap stones outside the root turned into
    /// `AB` in the root.
    FoxHandicap = "fox-handicap", sources &[Source::Fox],
    table "handicap stones outside the root, `HA` agreeing with their number, go into the root as `AB`: a node after the root that holds only `AB` (how Fox writes them), or `HA` leading black moves (Fox games only)";
    /// `ogs-nesting`: single-child variations flattened into sequences.
    OgsNesting = "ogs-nesting", sources &[],
    table "a variation that is its parent's only continuation, `(;B[aa](;W[bb](;B[cc])))` as OGS writes every move, written as a plain sequence `;B[aa];W[bb];B[cc]` (without this repair the nesting is kept)";
    /// `komi-convention`: GoGoD / go4go komi in stones written in points.
    KomiConvention = "komi-convention", sources &[Source::GoGoD, Source::Go4go],
    table "GoGoD and go4go games under Chinese rules with komi written in stones (`KM[3.75]`) get it in points (`KM[7.5]`)";
    /// `mojibake`: text decoded in the wrong charset and saved as UTF-8,
    /// read back as it was.
    Mojibake = "mojibake", sources &[],
    table "UTF-8 text that is the misreading of other bytes as windows-1252 / Latin-1 (`å¸¸æ˜Š`) is decoded as what it was (`常昊`), when the reversal is unambiguous (see the [module docs](crate::repair))";
    // The repairs of semantic checks (`audit::semantic`), each named in
    // the check's row of the catalogue.
    /// `split-setup`: setup and a move in one node split into two nodes.
    SplitSetup = "split-setup", sources &[],
    table "a node with setup (`AB`, `AW`, `AE`) and a move (`B`, `W`) becomes two: the setup and what is not about the move, then the move with its annotations and times (semantic check `setup_and_move`); in the root, when its values read alike out of it";
    /// `drop-orphan-annotation`: `BM`, `TE`, `DO`, `IT` and `KO` without a
    /// move dropped.
    DropOrphanAnnotation = "drop-orphan-annotation", sources &[],
    table "a move annotation (`BM`, `TE`, `DO`, `IT`) or `KO` in a node without a move is dropped (semantic checks `annotation_without_move`, `ko_without_move`)";
    /// `root-props`: root properties found later moved into the root.
    RootProps = "root-props", sources &[],
    table "`SZ`, `GM`, `AP` or `ST` found outside the root moves into the root when the root lacks it and every node that has it agrees on the value (semantic check `root_property_outside_root`; `CA` and `FF` stay, since moving them changes how the file reads)";
    /// `drop-idle-setup`: setup values that change nothing dropped.
    DropIdleSetup = "drop-idle-setup", sources &[],
    table "an `AE` value on empty points, an `AB` value on black stones, an `AW` value on white ones (a rectangle only when none of its points changes), found by replaying every line, is dropped (semantic check `setup_without_effect`)";
}

impl Repair {
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

    pub(super) fn bit(self) -> u16 {
        1 << self as u16
    }
}

// Every repair has a bit of `Repairs`.
const _: () = assert!(Repair::ALL.len() <= 16);

impl fmt::Display for Repair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Repair {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Repair, String> {
        Repair::from_name(s)
            .ok_or_else(|| format!("unknown repair {s:?} (one of {})", Repair::NAMES))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_and_are_listed_once() {
        for r in Repair::ALL {
            assert_eq!(r.name().parse::<Repair>(), Ok(r));
            assert_eq!(Repair::NAMES.matches(r.name()).count(), 1, "{r}");
        }
        let listed: Vec<&str> = Repair::NAMES.split(", ").collect();
        let names: Vec<&str> = Repair::ALL.iter().map(|r| r.name()).collect();
        assert_eq!(listed, names);
        let err = "nope".parse::<Repair>().unwrap_err();
        assert!(err.contains(Repair::NAMES), "{err}");
    }

    #[test]
    fn only_the_source_bound_repairs_need_a_source() {
        let bound: Vec<Repair> = Repair::ALL
            .into_iter()
            .filter(|r| !r.sources().is_empty())
            .collect();
        assert_eq!(
            bound,
            [Repair::FoxKomi, Repair::FoxHandicap, Repair::KomiConvention]
        );
        assert_eq!(
            Repair::KomiConvention.sources(),
            [Source::GoGoD, Source::Go4go]
        );
    }
}
