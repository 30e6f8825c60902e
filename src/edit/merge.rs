//! Merging copies of one game into one record: [`merge_info`].

use super::EditableGame;
use crate::error::Result;
use crate::game::{GameDates, GameInfo, GameResult, Komi, PartialDate, WinBy, GAME_INFO_IDENTS};
use crate::tree::read::ReadGame;
use crate::value::Color;

/// What one copy of a game says about it: its game information, where it
/// is, and whether its colours are swapped against the base's.
#[derive(Clone, Debug)]
pub struct GameCopy {
    /// Where the copy is, as the report and the comment name it (a path,
    /// `archive!member`, with the game's number in its file).
    pub label: String,
    /// The copy's game information.
    pub info: GameInfo<'static>,
    /// Whether Black and White are exchanged in this copy.
    pub swapped: bool,
}

impl GameCopy {
    /// The copy `game`, named `label`; `swapped` when its colours are
    /// exchanged against the base's.
    pub fn of<'g>(game: impl ReadGame<'g>, label: &str, swapped: bool) -> GameCopy {
        GameCopy {
            label: label.to_owned(),
            info: GameInfo::of(game).into_owned(),
            swapped,
        }
    }

    /// The copy's value of `ident`, trimmed and not blank, in the base's
    /// colours.
    fn value(&self, ident: &str) -> Option<String> {
        let ident = if self.swapped {
            swap_ident(ident)
        } else {
            ident
        };
        let text = self.info.get(ident)?.trim();
        if text.is_empty() {
            return None;
        }
        Some(if self.swapped && ident == "RE" {
            swap_result(text)
        } else {
            text.to_owned()
        })
    }
}

/// A property on which the copies disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The property.
    pub ident: &'static str,
    /// The value kept in the merged record.
    pub kept: String,
    /// The copy it comes from.
    pub kept_from: String,
    /// The other values, each with the copies that give it, in the order
    /// of the copies.
    pub others: Vec<(String, Vec<String>)>,
}

/// A value the merged record took from another copy than the base.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Taken {
    /// The property.
    pub ident: &'static str,
    /// The value written.
    pub value: String,
    /// The copy it comes from.
    pub from: String,
    /// The base's own value, when the one taken is a more precise form of
    /// it (a date, a result's margin).
    pub replaced: Option<String>,
}

/// What [`merge_info`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MergeReport {
    /// Values taken from other copies.
    pub taken: Vec<Taken>,
    /// Disagreements, the base's value kept.
    pub conflicts: Vec<Conflict>,
}

/// Properties not merged: each copy's `AP` names the program that wrote
/// that file, not the game.
const NOT_MERGED: [&str; 1] = ["AP"];

/// Joins what `copies` say into the root of `game` (the base copy, whose
/// own information is `base`); writes the conflicts into the root's
/// comment and returns what was taken and what conflicts.
///
/// Archives hold the same game several times: from two servers, a
/// magazine's transcription and a database's, one with ranks and one
/// without, one dated to the day and one to the year. [`merge_info`] takes
/// the copy chosen as the base (the longest move list, as `sgf dedup
/// --merge` chooses it) and what the other copies say, and for each
/// game-information property (`PB`, `DT`, `RE`, …; `AP` aside, which names
/// the program that wrote each file):
///
/// - **absent from the base**: taken from the first copy that has it;
/// - **the same** in every copy (after trimming and joining runs of white
///   space; results and komi compared by value, so `B+R` equals `B+Resign`
///   and `6.50` equals `6.5`): nothing to do;
/// - **more precise elsewhere**: a date (`DT`) that names the same day,
///   month or year as the base's but more precisely (`2019-03-04` against
///   `2019`) replaces it; so does a result with the same winner and a
///   margin where the base has none (`B+2.5` against `B+`);
/// - **different**: the base's value is kept in the property and every
///   other value is written beside it in the root's comment (`C`), with the
///   copies that give it, and returned as a [`Conflict`]. Nothing a copy
///   says is lost.
///
/// A copy whose colours are swapped (`Black` and `White` exchanged, as
/// `sgf dedup --swap-colors` finds them) has its `PB`/`PW`, `BR`/`WR`,
/// `BT`/`WT` and the winner of its `RE` exchanged before it is compared.
///
/// ```
/// use sgf_grove::edit::{merge_info, EditableGame, GameCopy};
///
/// let a = sgf_grove::parse(b"(;GM[1]PB[Cho Chikun]PW[Kato]DT[1979]RE[B+R];B[pd];W[dd];B[pq])")?;
/// let b = sgf_grove::parse(b"(;GM[1]PB[Cho Chikun]BR[9p]PW[Kato Masao]DT[1979-11-12]RE[B+Resign];B[pd])")?;
/// let (a, b) = (a.games().next().unwrap(), b.games().next().unwrap());
/// let mut merged = EditableGame::from_game(a);
/// let report = merge_info(
///     &mut merged,
///     &GameCopy::of(a, "a.sgf", false),
///     &[GameCopy::of(b, "b.sgf", false)],
/// )?;
/// let root = merged.node(merged.root())?;
/// assert_eq!(root.text("BR"), Some("9p")); // absent from a: taken from b
/// assert_eq!(root.text("DT"), Some("1979-11-12")); // more precise in b
/// assert_eq!(root.text("RE"), Some("B+R")); // the same result
/// assert_eq!(root.text("PW"), Some("Kato")); // a conflict: a's value kept…
/// assert_eq!(report.conflicts[0].ident, "PW");
/// assert_eq!(report.conflicts[0].others, [("Kato Masao".to_string(), vec!["b.sgf".to_string()])]);
/// assert!(root.text("C").unwrap().contains("PW: \"Kato Masao\" in b.sgf")); // …and b's written
/// # Ok::<(), sgf_grove::Error>(())
/// ```
///
/// # Errors
///
/// A value the game's charset cannot hold (make the base UTF-8 first to
/// rule it out), as [`EditableGame::set`].
pub fn merge_info(
    game: &mut EditableGame,
    base: &GameCopy,
    copies: &[GameCopy],
) -> Result<MergeReport> {
    let mut report = MergeReport::default();
    let root = game.root();
    for ident in GAME_INFO_IDENTS {
        if NOT_MERGED.contains(&ident) {
            continue;
        }
        let mut kept: Option<(String, String)> = base.value(ident).map(|v| (v, base.label.clone()));
        let mut replaced: Option<String> = None;
        // Values unlike the kept one, with their copies.
        let mut others: Vec<(String, Vec<String>)> = Vec::new();
        for copy in copies {
            let Some(value) = copy.value(ident) else {
                continue;
            };
            let Some((current, _)) = &kept else {
                kept = Some((value, copy.label.clone()));
                continue;
            };
            match compare(ident, current, &value) {
                Order::Same | Order::LessPrecise => {}
                Order::MorePrecise => {
                    replaced.get_or_insert_with(|| current.clone());
                    kept = Some((value, copy.label.clone()));
                }
                Order::Different => match others
                    .iter_mut()
                    .find(|(v, _)| compare(ident, v, &value) == Order::Same)
                {
                    Some((_, labels)) => labels.push(copy.label.clone()),
                    None => others.push((value, vec![copy.label.clone()])),
                },
            }
        }
        let Some((value, from)) = kept else {
            continue;
        };
        // A value first set aside may be the same as the one finally
        // kept, or a less precise form of it.
        others.retain(|(v, _)| {
            !matches!(compare(ident, &value, v), Order::Same | Order::LessPrecise)
        });
        if from != base.label {
            game.set(root, ident, value.as_str())?;
            report.taken.push(Taken {
                ident,
                value: value.clone(),
                from: from.clone(),
                replaced: replaced.filter(|r| base.value(ident).as_deref() == Some(r)),
            });
        }
        if !others.is_empty() {
            report.conflicts.push(Conflict {
                ident,
                kept: value,
                kept_from: from,
                others,
            });
        }
    }
    if !report.conflicts.is_empty() {
        game.append_comment(root, &report.comment())?;
    }
    Ok(report)
}

impl MergeReport {
    /// The lines written into the merged root's comment: one per conflict,
    /// `PW: "Kato" kept (a.sgf); also "Kato Masao" in b.sgf`.
    pub fn comment(&self) -> String {
        let mut text = String::from("Copies disagree (sgf dedup --merge):");
        for c in &self.conflicts {
            text.push_str(&format!(
                "\n{}: {:?} kept ({})",
                c.ident, c.kept, c.kept_from
            ));
            for (value, labels) in &c.others {
                text.push_str(&format!(
                    "; also {}: {value:?} in {}",
                    c.ident,
                    labels.join(", ")
                ));
            }
        }
        text
    }
}

/// How a copy's value stands to the one kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Order {
    Same,
    /// The new value says what the kept one says, and more.
    MorePrecise,
    /// The kept value says what the new one says, and more.
    LessPrecise,
    Different,
}

fn compare(ident: &str, kept: &str, new: &str) -> Order {
    if squash(kept) == squash(new) {
        return Order::Same;
    }
    match ident {
        "DT" => compare_dates(kept, new),
        "RE" => compare_results(kept, new),
        "KM" => match (Komi::parse(kept), Komi::parse(new)) {
            (Ok(a), Ok(b)) if a.value() == b.value() && a.scale() == b.scale() => Order::Same,
            _ => Order::Different,
        },
        _ => Order::Different,
    }
}

/// Text with runs of white space made one space, for comparing.
fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn compare_dates(kept: &str, new: &str) -> Order {
    let (Ok(a), Ok(b)) = (GameDates::parse(kept), GameDates::parse(new)) else {
        return Order::Different;
    };
    if a.dates == b.dates {
        return Order::Same;
    }
    let covers = |wide: &[PartialDate], narrow: &[PartialDate]| {
        narrow.iter().all(|n| wide.iter().any(|w| refines(n, w)))
            && wide.iter().all(|w| narrow.iter().any(|n| refines(n, w)))
    };
    if covers(&a.dates, &b.dates) {
        Order::MorePrecise
    } else if covers(&b.dates, &a.dates) {
        Order::LessPrecise
    } else {
        Order::Different
    }
}

/// Whether date `narrow` lies within `wide` (the same year, and the same
/// month and day where `wide` names them).
fn refines(narrow: &PartialDate, wide: &PartialDate) -> bool {
    narrow.year == wide.year
        && wide.month.is_none_or(|m| narrow.month == Some(m))
        && wide.day.is_none_or(|d| narrow.day == Some(d))
}

fn compare_results(kept: &str, new: &str) -> Order {
    let (a, b) = (GameResult::parse(kept), GameResult::parse(new));
    match (&a, &b) {
        _ if a == b && !matches!(a, GameResult::Unparsed(_)) => Order::Same,
        (GameResult::Win { winner: w1, by: x }, GameResult::Win { winner: w2, by: y })
            if w1 == w2 =>
        {
            match (x, y) {
                (WinBy::Unspecified, WinBy::Unspecified) => Order::Same,
                (WinBy::Unspecified, _) => Order::MorePrecise,
                (_, WinBy::Unspecified) => Order::LessPrecise,
                _ => Order::Different,
            }
        }
        _ => Order::Different,
    }
}

/// The identifier of the other colour's property (`PB` for `PW`).
fn swap_ident(ident: &str) -> &str {
    match ident {
        "PB" => "PW",
        "PW" => "PB",
        "BR" => "WR",
        "WR" => "BR",
        "BT" => "WT",
        "WT" => "BT",
        other => other,
    }
}

/// A result with its winner exchanged (`B+R` → `W+R`); any other result as
/// it is.
fn swap_result(text: &str) -> String {
    match GameResult::parse(text) {
        GameResult::Win { winner, .. } => {
            let other = match winner {
                Color::Black => 'W',
                Color::White => 'B',
            };
            let mut out = String::with_capacity(text.len());
            out.push(other);
            out.push_str(&text[1..]);
            out
        }
        _ => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn copy(label: &str, props: &[(&str, &str)], swapped: bool) -> GameCopy {
        let info = GameInfo::from_pairs(props.iter().map(|&(i, v)| (i, v.to_owned().into())));
        GameCopy {
            label: label.to_owned(),
            info,
            swapped,
        }
    }

    fn merged(base: &[(&str, &str)], others: &[GameCopy]) -> (EditableGame, MergeReport) {
        let mut text = String::from("(;GM[1]");
        for (i, v) in base {
            text.push_str(&format!("{i}[{v}]"));
        }
        text.push_str(";B[pd])");
        let doc = crate::parse(text.as_bytes()).unwrap();
        let mut game = EditableGame::from_game(doc.games().next().unwrap());
        let report = merge_info(&mut game, &copy("base", base, false), others).unwrap();
        (game, report)
    }

    fn text(game: &EditableGame, ident: &str) -> Option<String> {
        game.node(game.root())
            .unwrap()
            .text(ident)
            .map(str::to_owned)
    }

    #[test]
    fn every_distinct_value_is_kept() {
        let others = [
            copy("b", &[("PB", "Go Seigen"), ("EV", "Oteai")], false),
            copy("c", &[("PB", "Wu Qingyuan"), ("EV", "Oteai")], false),
            copy("d", &[("PB", "Go  Seigen ")], false),
        ];
        let (game, report) = merged(&[("PB", "Kitani Minoru")], &others);
        assert_eq!(text(&game, "PB").as_deref(), Some("Kitani Minoru"));
        assert_eq!(text(&game, "EV").as_deref(), Some("Oteai"));
        assert_eq!(report.conflicts.len(), 1);
        let c = &report.conflicts[0];
        assert_eq!(
            c.others,
            [
                (
                    "Go Seigen".to_string(),
                    vec!["b".to_string(), "d".to_string()]
                ),
                ("Wu Qingyuan".to_string(), vec!["c".to_string()]),
            ]
        );
        let comment = text(&game, "C").unwrap();
        assert!(comment.contains("\"Go Seigen\" in b, d"), "{comment}");
        assert!(comment.contains("\"Wu Qingyuan\" in c"), "{comment}");
        assert_eq!(report.taken.len(), 1);
        assert_eq!(report.taken[0].from, "b");
    }

    #[test]
    fn the_most_precise_date_wins_whichever_copy_has_it() {
        let others = [
            copy("b", &[("DT", "1979-11")], false),
            copy("c", &[("DT", "1979-11-12")], false),
            copy("d", &[("DT", "1979")], false),
        ];
        let (game, report) = merged(&[("DT", "1979")], &others);
        assert_eq!(text(&game, "DT").as_deref(), Some("1979-11-12"));
        assert!(report.conflicts.is_empty(), "{report:?}");
        assert_eq!(report.taken[0].replaced.as_deref(), Some("1979"));
        // Another day is a conflict, not a refinement.
        let (game, report) = merged(
            &[("DT", "1979-11-12")],
            &[copy("b", &[("DT", "1979-11-13")], false)],
        );
        assert_eq!(text(&game, "DT").as_deref(), Some("1979-11-12"));
        assert_eq!(report.conflicts[0].others[0].0, "1979-11-13");
    }

    #[test]
    fn results_and_komi_compare_by_value() {
        let (game, report) = merged(
            &[("RE", "B+"), ("KM", "6.50")],
            &[copy("b", &[("RE", "B+3.5"), ("KM", "6.5")], false)],
        );
        assert_eq!(text(&game, "RE").as_deref(), Some("B+3.5"));
        assert_eq!(text(&game, "KM").as_deref(), Some("6.50"));
        assert!(report.conflicts.is_empty());
        let (_, report) = merged(&[("RE", "B+R")], &[copy("b", &[("RE", "W+R")], false)]);
        assert_eq!(report.conflicts[0].ident, "RE");
    }

    #[test]
    fn a_swapped_copy_is_read_in_the_base_colours() {
        let swapped = copy(
            "b",
            &[("PB", "Kato"), ("PW", "Cho"), ("WR", "9p"), ("RE", "W+R")],
            true,
        );
        let (game, report) = merged(&[("PB", "Cho"), ("PW", "Kato"), ("RE", "B+R")], &[swapped]);
        assert!(report.conflicts.is_empty(), "{report:?}");
        assert_eq!(text(&game, "BR").as_deref(), Some("9p"));
        assert_eq!(text(&game, "RE").as_deref(), Some("B+R"));
    }

    #[test]
    fn the_application_is_not_merged() {
        let (game, report) = merged(&[("AP", "A:1")], &[copy("b", &[("AP", "B:2")], false)]);
        assert_eq!(text(&game, "AP").as_deref(), Some("A:1"));
        assert_eq!(report, MergeReport::default());
    }
}
