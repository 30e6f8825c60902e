//! [`TimeControl`]: a game's clock as numbers, from the properties each
//! server writes it in.

use crate::game::TimeLimit;
use crate::GameTree;

/// How the time after the main time is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TimeSystem {
    /// Periods of a fixed time; a period used up is lost
    /// ([`TimeControl::periods`] × [`TimeControl::period_seconds`]).
    ByoYomi,
    /// A number of moves ([`TimeControl::period_moves`]) in a period of
    /// [`TimeControl::period_seconds`].
    Canadian,
    /// A fixed increment per move ([`TimeControl::increment`]).
    Fischer,
    /// The main time only: `OT[none]`, `OT[absolute]`, `OT[sudden death]`,
    /// or Fox's `TC[0]`/`TT[0]`.
    Absolute,
}

impl TimeSystem {
    /// The code written in the games table: `byo-yomi`, `canadian`,
    /// `fischer`, `absolute`.
    pub fn code(self) -> &'static str {
        match self {
            TimeSystem::ByoYomi => "byo-yomi",
            TimeSystem::Canadian => "canadian",
            TimeSystem::Fischer => "fischer",
            TimeSystem::Absolute => "absolute",
        }
    }
}

/// A game's time control, as numbers: the `time_*` columns of the games
/// table.
///
/// Read from the root, in this order (a later source fills only what an
/// earlier one left empty):
///
/// | property | writes it | read as |
/// |---|---|---|
/// | `TM` | FF\[4\], every server | the main time in seconds ([`TimeLimit`]'s lenient forms included) |
/// | `OT` | KGS, OGS, CGoban, Sabaki | `5x30 byo-yomi` (5 periods of 30 s), `25/300 Canadian` (25 moves in 300 s), `30 fischer` (30 s a move), `none`/`absolute`/`sudden death`; a clock (`5x1:00`) is read as seconds; without a word, `AxB` is byo-yomi and `A/B` Canadian |
/// | `TC`, `TT` | Fox | byo-yomi periods and the period's seconds; either 0 means no byo-yomi (absolute) |
/// | `LC`, `LT` | older server exports | byo-yomi periods and the period's seconds |
///
/// `OT` text that names no system it knows leaves the system empty; the
/// text is still in the games table's `info`. No `TM`, `OT`, `TC`/`TT`
/// or `LC`/`LT` gives the empty time control (all `None`).
///
/// ```
/// use sgf_grove::table::{TimeControl, TimeSystem};
/// let doc = sgf_grove::parse(b"(;TM[1800]OT[5x30 byo-yomi])(;TM[600]TC[3]TT[30])(;OT[25/300 Canadian])")?;
/// let tc: Vec<TimeControl> = doc.games().map(TimeControl::of).collect();
/// assert_eq!((tc[0].main_seconds, tc[0].system, tc[0].periods, tc[0].period_seconds),
///            (Some(1800.0), Some(TimeSystem::ByoYomi), Some(5), Some(30.0)));
/// assert_eq!((tc[1].periods, tc[1].period_seconds), (Some(3), Some(30.0))); // Fox
/// assert_eq!((tc[2].system, tc[2].period_moves, tc[2].period_seconds),
///            (Some(TimeSystem::Canadian), Some(25), Some(300.0)));
/// # Ok::<(), sgf_grove::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct TimeControl {
    /// The main time in seconds (`TM`).
    pub main_seconds: Option<f64>,
    /// The overtime system.
    pub system: Option<TimeSystem>,
    /// Byo-yomi periods.
    pub periods: Option<u32>,
    /// The seconds of a byo-yomi or Canadian period.
    pub period_seconds: Option<f64>,
    /// The moves of a Canadian period.
    pub period_moves: Option<u32>,
    /// The seconds added per move (Fischer).
    pub increment: Option<f64>,
}

impl TimeControl {
    /// The time control of `game` (see the table above). Never fails: what
    /// cannot be read is `None`.
    pub fn of(game: GameTree<'_, '_>) -> TimeControl {
        let root = game.root();
        let mut tc = TimeControl {
            main_seconds: root
                .simple_text("TM")
                .and_then(|t| TimeLimit::parse(t).ok())
                .map(|t| t.seconds),
            ..TimeControl::default()
        };
        if let Some(ot) = root.simple_text("OT") {
            tc.read_overtime(ot);
        }
        for (count, time) in [("TC", "TT"), ("LC", "LT")] {
            if tc.system.is_some() {
                break;
            }
            let periods = root
                .simple_text(count)
                .and_then(|t| t.trim().parse::<u32>().ok());
            let seconds = root.simple_text(time).and_then(clock_seconds);
            match (periods, seconds) {
                (Some(0), _) | (_, Some(0.0)) => tc.system = Some(TimeSystem::Absolute),
                (Some(p), Some(s)) => {
                    tc.system = Some(TimeSystem::ByoYomi);
                    tc.periods = Some(p);
                    tc.period_seconds = Some(s);
                }
                _ => {}
            }
        }
        tc
    }

    /// Reads `OT` text into the overtime fields (see [`TimeControl`]).
    fn read_overtime(&mut self, text: &str) {
        let lower = text.trim().to_ascii_lowercase();
        let has = |word: &str| lower.contains(word);
        if lower.is_empty() {
            return;
        }
        if has("none") || has("absolute") || has("sudden") || lower == "0" {
            self.system = Some(TimeSystem::Absolute);
            return;
        }
        let numbers = numbers(&lower);
        if has("fischer") || has("increment") {
            self.system = Some(TimeSystem::Fischer);
            self.increment = numbers.first().map(|n| n.value);
            return;
        }
        let canadian =
            has("canad") || (!has("byo") && numbers.len() >= 2 && numbers[0].then == b'/');
        let byo_yomi = has("byo") || (numbers.len() >= 2 && matches!(numbers[0].then, b'x' | b'*'));
        if canadian && numbers.len() >= 2 && numbers[0].value.fract() == 0.0 {
            self.system = Some(TimeSystem::Canadian);
            self.period_moves = Some(numbers[0].value as u32);
            self.period_seconds = Some(numbers[1].value);
        } else if byo_yomi && numbers.len() >= 2 && numbers[0].value.fract() == 0.0 {
            self.system = Some(TimeSystem::ByoYomi);
            self.periods = Some(numbers[0].value as u32);
            self.period_seconds = Some(numbers[1].value);
        } else if byo_yomi && numbers.len() == 1 {
            // `byo-yomi 30`: one period.
            self.system = Some(TimeSystem::ByoYomi);
            self.periods = Some(1);
            self.period_seconds = Some(numbers[0].value);
        }
    }
}

/// A number in overtime text and the byte after it (spaces skipped), which
/// tells `5x30` from `25/300`.
struct Number {
    value: f64,
    then: u8,
}

/// The numbers of `text` in order: integers, decimals, and clocks
/// (`1:00` is 60, `1:00:00` 3600); a unit right after a number (`30s`,
/// `1m`, `2h`, `30 sec`, `5 min`) scales it.
fn numbers(text: &str) -> Vec<Number> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.' || b[i] == b':') {
            i += 1;
        }
        let Some(mut value) = clock_seconds(&text[start..i]) else {
            continue;
        };
        let mut j = i;
        while j < b.len() && b[j] == b' ' {
            j += 1;
        }
        let unit_end = b[j..]
            .iter()
            .position(|c| !c.is_ascii_alphabetic())
            .map_or(b.len(), |n| j + n);
        match &text[j..unit_end] {
            "m" | "min" | "mins" | "minute" | "minutes" => {
                value *= 60.0;
                j = unit_end;
            }
            "h" | "hr" | "hrs" | "hour" | "hours" => {
                value *= 3600.0;
                j = unit_end;
            }
            "s" | "sec" | "secs" | "second" | "seconds" => j = unit_end,
            _ => {}
        }
        while j < b.len() && b[j] == b' ' {
            j += 1;
        }
        out.push(Number {
            value,
            then: b.get(j).copied().unwrap_or(0),
        });
        i = j.max(i);
    }
    out
}

/// Seconds from `30`, `30.5`, `1:00` (60) or `1:00:00` (3600); `None`
/// for anything else.
fn clock_seconds(text: &str) -> Option<f64> {
    let mut total = 0.0;
    let mut parts = 0;
    for part in text.trim().split(':') {
        let v: f64 = part.parse().ok()?;
        if !v.is_finite() || v < 0.0 {
            return None;
        }
        total = total * 60.0 + v;
        parts += 1;
    }
    (parts <= 3).then_some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(sgf: &str) -> TimeControl {
        let doc = crate::parse(sgf.as_bytes()).unwrap();
        TimeControl::of(doc.games().next().unwrap())
    }

    #[test]
    fn kgs_forms() {
        let tc = of("(;TM[1800]OT[5x30 byo-yomi])");
        assert_eq!(tc.main_seconds, Some(1800.0));
        assert_eq!(tc.system, Some(TimeSystem::ByoYomi));
        assert_eq!((tc.periods, tc.period_seconds), (Some(5), Some(30.0)));
        let tc = of("(;TM[600]OT[25/600 Canadian])");
        assert_eq!(tc.system, Some(TimeSystem::Canadian));
        assert_eq!(
            (tc.period_moves, tc.period_seconds),
            (Some(25), Some(600.0))
        );
        assert_eq!(tc.periods, None);
        let tc = of("(;TM[300]OT[20 fischer])");
        assert_eq!(
            (tc.system, tc.increment),
            (Some(TimeSystem::Fischer), Some(20.0))
        );
    }

    #[test]
    fn other_spellings() {
        let tc = of("(;OT[3x1:00])");
        assert_eq!(
            (tc.system, tc.periods, tc.period_seconds),
            (Some(TimeSystem::ByoYomi), Some(3), Some(60.0))
        );
        let tc = of("(;OT[5 x 30s])");
        assert_eq!((tc.periods, tc.period_seconds), (Some(5), Some(30.0)));
        let tc = of("(;OT[byo-yomi 1 min])");
        assert_eq!((tc.periods, tc.period_seconds), (Some(1), Some(60.0)));
        let tc = of("(;OT[10/5 min])");
        assert_eq!(
            (tc.system, tc.period_moves, tc.period_seconds),
            (Some(TimeSystem::Canadian), Some(10), Some(300.0))
        );
        assert_eq!(of("(;OT[none])").system, Some(TimeSystem::Absolute));
        assert_eq!(of("(;OT[Sudden Death])").system, Some(TimeSystem::Absolute));
        // Text that names nothing known: no system, no numbers made up.
        let tc = of("(;OT[3 stones, 2 periods, 1 hour])");
        assert_eq!(tc.system, None);
        assert_eq!(
            (tc.periods, tc.period_seconds, tc.period_moves),
            (None, None, None)
        );
    }

    #[test]
    fn fox_and_older_exports() {
        let tc = of("(;TM[1200]TC[3]TT[30])");
        assert_eq!(
            (tc.main_seconds, tc.system, tc.periods, tc.period_seconds),
            (Some(1200.0), Some(TimeSystem::ByoYomi), Some(3), Some(30.0))
        );
        assert_eq!(
            of("(;TM[600]TC[0]TT[0])").system,
            Some(TimeSystem::Absolute)
        );
        let tc = of("(;LC[5]LT[30])");
        assert_eq!((tc.periods, tc.period_seconds), (Some(5), Some(30.0)));
        // OT wins over Fox's pair when both are there.
        let tc = of("(;OT[25/300 Canadian]TC[3]TT[30])");
        assert_eq!(tc.system, Some(TimeSystem::Canadian));
        assert_eq!(tc.periods, None);
    }

    #[test]
    fn nothing_or_junk_is_empty() {
        assert_eq!(of("(;)"), TimeControl::default());
        assert_eq!(of("(;TM[-]OT[]TC[x]TT[])"), TimeControl::default());
        assert_eq!(of("(;TC[3])"), TimeControl::default());
        // Huge numbers do not wrap or panic.
        let tc = of("(;OT[99999999999999999999x30 byo-yomi])");
        assert_eq!(tc.system, Some(TimeSystem::ByoYomi));
    }
}
