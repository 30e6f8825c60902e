//! The catalogue of semantic checks, declared once: each row gives a
//! [`Check`] variant, its stable code, its severity, the repair of
//! `sgf fix` that mends it (if any), the number of the SGFC message it
//! corresponds to (if any), a one-line meaning and the explanation
//! `sgf check --explain CODE` prints. The enum, [`Check::ALL`],
//! [`Check::code`], [`Check::from_code`], the table in [`Check`]'s docs
//! and [`markdown_table`] (the table of `docs/semantic-checks.md`, which a
//! test compares with it) all come from the list.
//!
//! Adding a check: a row here, then where it is found (`nodes.rs` for
//! what one node shows, `walk.rs` for what a line of play shows,
//! `versions.rs` for what the game's `FF`, `GM` and `SZ` make wrong).

use std::fmt;

/// How serious a finding is.
///
/// None of them changes the exit status of `sgf check`: a record with an
/// illegal move is still a readable record (see the command's docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The record contradicts itself: a point both black and white in one
    /// node, a stone played onto a stone.
    Error,
    /// Against the specification or the game's rules; a reader may go
    /// wrong.
    Warning,
    /// Unusual but declared (two moves of one colour that `PL` announces).
    Info,
}

impl Severity {
    /// `error`, `warning` or `info`, as printed.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Declares [`Check`] and everything listed from it.
macro_rules! semantic_checks {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident = $code:literal, $severity:ident, repair $repair:literal, sgfc $sgfc:literal,
        $meaning:literal,
        $explain:literal;
    )+) => {
        /// One semantic check of a game: a defect of what the record
        /// means, which a parse and the value types do not see.
        ///
        /// | code | severity | meaning | repair | SGFC |
        /// |---|---|---|---|---|
        $(#[doc = concat!("| `", $code, "` | ", stringify!($severity), " | ", $meaning, " | ", $repair, " | ", $sgfc, " |")])+
        ///
        /// (A repair `-` has none; SGFC `-` means that SGFC has no
        /// message for it.)
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Check {
            $(
                $(#[doc = $doc])*
                $variant,
            )+
        }

        impl Check {
            /// Every check, in the order of the catalogue.
            pub const ALL: [Check; [$($code),+].len()] = [$(Check::$variant),+];

            /// The number of checks.
            pub const COUNT: usize = Check::ALL.len();

            /// The stable `snake_case` code (`setup_and_move`), as printed
            /// and in JSON.
            pub fn code(self) -> &'static str {
                match self {
                    $(Check::$variant => $code,)+
                }
            }

            /// How serious a finding of this check is.
            pub fn severity(self) -> Severity {
                match self {
                    $(Check::$variant => Severity::$severity,)+
                }
            }

            /// What a finding means, in one line.
            pub fn meaning(self) -> &'static str {
                match self {
                    $(Check::$variant => $meaning,)+
                }
            }

            /// The longer explanation (`sgf check --explain CODE`): what
            /// is checked, why it matters, when it does not fire.
            pub fn explanation(self) -> &'static str {
                match self {
                    $(Check::$variant => $explain,)+
                }
            }

            /// The name of the repair of `sgf fix` that mends it, if any
            /// (a [`Repair`](crate::repair::Repair) name).
            pub fn repair(self) -> Option<&'static str> {
                match self {
                    $(Check::$variant => Some($repair).filter(|r| *r != "-"),)+
                }
            }

            /// The number of the SGFC message it corresponds to, if any.
            pub fn sgfc(self) -> Option<u32> {
                match self {
                    $(Check::$variant => $sgfc.parse().ok(),)+
                }
            }
        }
    };
}

semantic_checks! {
    /// A node holds setup (`AB`, `AW`, `AE`) and a move (`B`, `W`).
    SetupAndMove = "setup_and_move", Warning, repair "split-setup", sgfc "30",
    "setup (AB/AW/AE) and a move (B/W) in one node",
    "The specification keeps setup and moves apart: a node holds setup properties or a move, not both. A node with both is read differently by different programs (some apply the setup after the move, some ignore one of them), and engines that read it as a move misplace the stones. The repair `split-setup` writes the setup, and what is not about the move, in one node, and the move with its annotations and times in the node after it (the order the replay applies them).";
    /// A root property (`SZ`, `FF`, `GM`, `CA`, `AP`, `ST`) outside the
    /// root.
    RootPropertyOutsideRoot = "root_property_outside_root", Warning, repair "root-props", sgfc "32",
    "a root property (SZ, FF, GM, CA, AP, ST) in a node that is not the root",
    "Root properties describe the whole game (its board, format, charset, program) and are read from the root only; one found later is ignored by every reader, so the board size or charset it gives is lost. The repair `root-props` moves it into the root when the root lacks that property and every node that has it agrees on the value; else it is left for a person to decide.";
    /// A game-info property in a node below another node that holds game
    /// information, on one line of play.
    GameInfoRepeated = "game_info_repeated", Warning, repair "-", sgfc "44",
    "a game-info property (PB, KM, RE, …) in a second node of one line of play",
    "Game information (players, komi, result, …) belongs in one node of each line of play, usually the root. A game-info property in a node below another game-info node is a second, conflicting record of the same game; readers take the first and miss the second (a `PB` added at the end of a game is not the game's black player). Different variations may each have their own game-info node: only two on one line count.";
    /// A move annotation (`BM`, `TE`, `DO`, `IT`) in a node without a move.
    AnnotationWithoutMove = "annotation_without_move", Warning, repair "drop-orphan-annotation", sgfc "43",
    "a move annotation (BM, TE, DO, IT) in a node without a move",
    "`BM`, `TE`, `DO` and `IT` judge the move of their node; without a move they judge nothing (they were often meant for the move before, or written by an editor that moved the move). The repair `drop-orphan-annotation` drops them.";
    /// Annotations the specification forbids together in one node.
    ContradictoryAnnotations = "contradictory_annotations", Warning, repair "-", sgfc "41",
    "annotations that exclude each other in one node (GB+GW, GB/GW/UC with DM, TE+BM, …)",
    "The position annotations `GB`, `GW`, `DM` and `UC` exclude each other, as do the move annotations `TE`, `BM`, `DO` and `IT`: a node that is good for Black and for White, or a move that is both a tesuji and a bad move, says nothing a reader can show. Which one was meant cannot be told, so there is no repair.";
    /// A point in two of `AB`, `AW`, `AE` in one node.
    SetupPointRepeated = "setup_point_repeated", Error, repair "-", sgfc "38",
    "a point in two of AB, AW and AE in one node",
    "A node's setup may name each point once: a point both added black and white (or added and cleared) has no defined result, and programs disagree on which wins (this crate's replay applies AE, then AB, then AW). Which was meant cannot be told, so there is no repair.";
    /// Setup that changes nothing: `AE` on an empty point, `AB` on a black
    /// stone, `AW` on a white one.
    SetupWithoutEffect = "setup_without_effect", Warning, repair "drop-idle-setup", sgfc "39",
    "setup that changes nothing (AE on an empty point, AB on a black stone, AW on a white one)",
    "Setup that puts on a point what is already there is a sign that the writer's board and the record's differ (a move lost, stones placed twice). Found by replaying the game: each line of play, with the position before the node. The repair `drop-idle-setup` drops such values (a rectangle `AB[aa:cc]` only when none of its points changes anything).";
    /// A move onto a stone.
    MoveOnStone = "move_on_stone", Error, repair "-", sgfc "58",
    "a move onto a point that holds a stone",
    "No rules allow a stone to be played onto another; the record has lost a capture or a move, or its coordinates are wrong. The replay puts the stone there (as setup, nothing captured) and goes on.";
    /// A suicide the game's rules forbid.
    Suicide = "suicide", Warning, repair "-", sgfc "-",
    "a suicide the game's rules (RU) forbid",
    "The move leaves its own chain without liberties and captures nothing, which the game's rules forbid (all but New Zealand, Ing and Tromp-Taylor rules; a game without `RU` is read under Japanese rules). The replay puts the stone there and goes on.";
    /// A ko retaken at once.
    KoRetaken = "ko_retaken", Warning, repair "-", sgfc "-",
    "a ko retaken at once",
    "The move takes back a ko immediately, which every rule set forbids. Records of real games with it have usually lost a move (a ko threat and its answer). The replay makes the capture and goes on.";
    /// A repeated position under a superko rule.
    Superko = "superko", Warning, repair "-", sgfc "-",
    "a move that repeats an earlier position, which the game's superko rule forbids",
    "Under Chinese (positional), AGA, New Zealand and Ing (situational) and Tromp-Taylor rules no position may repeat; the move repeats one of its line of play. The replay makes the move and goes on.";
    /// Two moves of one colour in a row.
    SameColourTwice = "same_colour_twice", Warning, repair "-", sgfc "63",
    "two moves of one colour in a row",
    "A move of the colour that moved last, with no `PL` announcing it: a move was lost, or the colours are wrong. Passes count as moves. When a `PL` in the node or its parent names that colour, the finding is `same_colour_twice_pl` instead.";
    /// Two moves of one colour in a row, as a `PL` announces.
    SameColourTwicePl = "same_colour_twice_pl", Info, repair "-", sgfc "63",
    "two moves of one colour in a row, announced by PL",
    "As `same_colour_twice`, but a `PL` in the node or its parent names the colour that plays: the record says so on purpose (problem collections, handicap placement played as moves).";
    /// A first move against what `PL` or the handicap stones announce.
    FirstMoveColour = "first_move_colour", Warning, repair "-", sgfc "-",
    "the first move is not by the player PL or the handicap stones call for",
    "The first move of a line of play is checked against a `PL` given before it, or, without one, against the handicap: with `HA` at 2 or more and black stones placed, White moves first. A black first move then is a record whose handicap stones and moves disagree.";
    /// `HA` not matching the handicap stones placed.
    HandicapMismatch = "handicap_mismatch", Warning, repair "-", sgfc "61",
    "HA does not match the black stones placed before the first move",
    "`HA[n]` with n of 2 or more says n black stones are placed before the first move; the count of black stones on the board at the first move differs (a GoGui file with `HA[7]` and 14 stones broke another program's scoring). `HA[0]` and `HA[1]` mean no handicap stones (HA[1]: no komi, Black moves first) and are not checked. Handicaps played as black moves (Fox's records) show 0 stones here: `sgf fix --repair fox-handicap` turns them into setup. Reported once per game, at its `HA`.";
    /// `KO` in a node without a move.
    KoWithoutMove = "ko_without_move", Warning, repair "drop-orphan-annotation", sgfc "-",
    "KO (play an illegal ko) in a node without a move",
    "`KO` forces the move of its node to be played even if illegal; without a move it has no meaning. The repair `drop-orphan-annotation` drops it.";
    /// An FF\[1\]–FF\[3\] property in an FF\[4\] game.
    OldPropertyInFf4 = "old_property_in_ff4", Warning, repair "-", sgfc "40",
    "an `FF[1]`-`FF[3]` property `FF[4]` dropped (L, M, KI, ID, …) in an `FF[4]` game",
    "FF[4] dropped or renamed some properties of older formats (`L` became `LB`, `M` became `MA`/`TR`, `KI` became `KM`); an FF[4] reader ignores them, so what they held is lost. `sgf fix --repair ki-km` converts `KI`; the others are for a person. Not reported: `TC` beside `TT` in the root, Fox's byo-yomi periods and time (a property of its own that shares FF[3]'s name; 58% of the shared corpus has it).";
    /// An FF\[4\]-only property in a game that declares FF\[1\]–FF\[3\].
    Ff4PropertyInOldFf = "ff4_property_in_old_ff", Warning, repair "-", sgfc "40",
    "a property new in `FF[4]` (CA, AP, ST, OT, AR, LN, SQ, DD, PM) in a game that declares `FF[1]`-`FF[3]`",
    "A game that declares an older format (`FF[1]` to `FF[3]`) yet uses properties FF[4] introduced: its reader may drop them, and the game is FF[4] in fact (the usual fix is `FF[4]`). Only a game with an explicit `FF` is checked: a missing `FF` means FF[1] by the specification, but real files leave it out whatever they hold.";
    /// `tt` on a board larger than 19×19.
    TtOnLargeBoard = "tt_on_large_board", Warning, repair "-", sgfc "-",
    "`B[tt]`/`W[tt]` on a board larger than 19x19, where tt is a point, not a pass",
    "`tt` is a pass only on boards up to 19x19; on a larger board it is the point at column 20, row 20, and a program that writes it meaning a pass puts a stone there. Check the move: if it was a pass, write `B[]`/`W[]`.";
    /// A property of another game: a Go property in a game that is not
    /// Go, or another game's property in Go.
    PropertyOfOtherGame = "property_of_other_game", Warning, repair "-", sgfc "-",
    "a property of another game type (Go's HA, KM, TB, TW in GM other than 1, or another game's in Go)",
    "The catalogue of the specification ties some properties to one game: `HA`, `KM`, `TB` and `TW` to Go (`GM[1]`), `CO`, `CV`, `DI`, `MI` to Backgammon, `IY`, `IP`, … to others. Found in a game of another type (as `GM` says, Go when absent), the property is another game's, or `GM` is wrong.";
    /// The replay stopped at a limit.
    ReplayLimit = "replay_limit", Warning, repair "-", sgfc "-",
    "the replay stopped at a limit; the nodes after it are not checked",
    "The position checks replay every line of play under the limits of `ReplayOptions` (nodes, depth, stones changed), far above any real game. A game that reaches one is checked up to there, and this finding says where the checks stopped.";
}

impl Check {
    /// The check whose [`code`](Check::code) is `code`, if any.
    ///
    /// ```
    /// use sgf_grove::audit::semantic::Check;
    /// assert_eq!(Check::from_code("move_on_stone"), Some(Check::MoveOnStone));
    /// assert_eq!(Check::from_code("move-on-stone"), None);
    /// ```
    pub fn from_code(code: &str) -> Option<Check> {
        Check::ALL.into_iter().find(|c| c.code() == code)
    }

    /// The codes closest to `code`, for a message about an unknown one:
    /// those that contain it or share a word with it, nearest first.
    ///
    /// ```
    /// use sgf_grove::audit::semantic::Check;
    /// assert_eq!(Check::close_to("ko")[0], "ko_retaken");
    /// ```
    pub fn close_to(code: &str) -> Vec<&'static str> {
        let words: Vec<&str> = code
            .split(['_', '-', ' '])
            .filter(|w| !w.is_empty())
            .collect();
        let mut scored: Vec<(usize, &'static str)> = Check::ALL
            .into_iter()
            .filter_map(|c| {
                let name = c.code();
                let shared = name
                    .split('_')
                    .filter(|w| words.iter().any(|x| x.eq_ignore_ascii_case(w)))
                    .count();
                let contains = !code.is_empty() && name.contains(&code.to_ascii_lowercase());
                let score = shared * 2 + usize::from(contains) * 3;
                (score > 0).then_some((score, name))
            })
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        scored.into_iter().map(|(_, name)| name).collect()
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The catalogue as a markdown table: code, severity, meaning, repair,
/// SGFC message; one row per check, in the order of [`Check::ALL`]. The
/// table of `docs/semantic-checks.md`.
///
/// ```
/// use sgf_grove::audit::semantic::{markdown_table, Check};
/// let table = markdown_table();
/// assert_eq!(table.lines().count(), Check::COUNT + 2);
/// assert!(table.contains("| `move_on_stone` | error |"));
/// ```
pub fn markdown_table() -> String {
    let mut out =
        String::from("| code | severity | meaning | repair | SGFC |\n|---|---|---|---|---|\n");
    for check in Check::ALL {
        let repair = check.repair().map_or("-".to_owned(), |r| format!("`{r}`"));
        let sgfc = check.sgfc().map_or("-".to_owned(), |n| n.to_string());
        out.push_str(&format!(
            "| `{}` | {} | {} | {repair} | {sgfc} |\n",
            check.code(),
            check.severity(),
            check.meaning().replace('|', "\\|"),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_snake_case_and_parse_back() {
        for c in Check::ALL {
            assert_eq!(Check::from_code(c.code()), Some(c));
            assert!(c
                .code()
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'_' || b.is_ascii_digit()));
            assert!(!c.meaning().ends_with('.'), "{c}");
            assert!(c.explanation().len() > c.meaning().len(), "{c}");
        }
        let mut codes: Vec<_> = Check::ALL.iter().map(|c| c.code()).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), Check::COUNT);
    }

    #[test]
    fn the_documented_table_is_the_catalogue() {
        let doc = include_str!("../../../docs/semantic-checks.md");
        let start = doc.find("| code |").expect("the table");
        let end = doc[start..]
            .find("\n\n")
            .map_or(doc.len(), |at| start + at + 1);
        assert_eq!(
            &doc[start..end],
            markdown_table(),
            "docs/semantic-checks.md differs from the catalogue: paste markdown_table() there"
        );
    }

    #[test]
    fn close_codes_for_a_typo() {
        assert!(Check::close_to("move_on_stones").contains(&"move_on_stone"));
        assert!(Check::close_to("zzz").is_empty());
    }
}
