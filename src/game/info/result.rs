//! The result of a game (`RE`).

use super::helpers::simple_text;
use super::helpers::{contains_ci, parse_real, strip_prefix_ci};
use crate::value::Color;
use crate::value::{FromValue, ValueContext, ValueType};
use std::fmt;

/// How a game was won.
#[derive(Clone, Debug, PartialEq)]
pub enum WinBy {
    /// By this many points, as written (`W+3.5`).
    ///
    /// Fox quirks: in Chinese-rules games the Fox server writes the margin
    /// in stones, 1 stone = 2 points (`B+0.75`, `W+1.25`). It also writes
    /// `+0.0`, `+0.02` and `+0.03` (2,476 games in the shared corpus) for
    /// games that did not end by counting, presumably time-outs or abandoned
    /// games: their median length is 79 to 151 moves, against 272 for Fox
    /// games with a real margin. All are kept as written.
    Points(f64),
    /// By resignation (`B+R`, `B+Resign`).
    Resignation,
    /// On time (`W+T`, `W+Time`, `W+Timeout`, `W+Time Over`).
    Time,
    /// By forfeit (`B+F`, `B+Forfeit`).
    Forfeit,
    /// Margin not stated (`B+`).
    Unspecified,
    /// A reason FF\[4\] does not name, as written after the `+`
    /// (`B+Illegal`, `W+Repetition`, from computer-go servers).
    Other(String),
}

/// The result of a game (`RE`, SimpleText), read per FF\[4\] and leniently.
///
/// | form | read as |
/// |---|---|
/// | `B+R`, `B+Resign`, `W+T`, `W+Time`, `B+F`, `B+Forfeit` | a win by [`WinBy::Resignation`], [`WinBy::Time`], [`WinBy::Forfeit`] |
/// | `W+3.5`, `B+0.25`, `W+0.0`, `B+12,5` | a win by [`WinBy::Points`] |
/// | `B+` | a win by [`WinBy::Unspecified`] |
/// | `0`, `Draw`, `Jigo`, `和棋`, `持碁`, `ジゴ`, `무승부` | [`GameResult::Draw`] |
/// | `Void`, `No result`, `无胜负`, `無勝負`; text saying `adjourned`, `suspended`, `打挂` | [`GameResult::Void`] |
/// | `?`, `Unknown` | [`GameResult::Unknown`] |
///
/// Also accepted: any case (`b+r`, `DRAW`), spaces (` W + R `), `Black` and
/// `White` for `B` and `W`, text after the reason (`W+Time Over`,
/// `W+R (disconnected)`, `B+3.5 points`), other reason words
/// (`B+Illegal` → [`WinBy::Other`]), `White resigns.`, `Black wins`,
/// `B wins by 3.5`, and Chinese, Japanese and Korean forms: `黑中盘胜`,
/// `白中押し勝ち`, `黒3目半勝ち`, `白超时胜`, `黑胜`, `흑 불계승`.
/// Anything else is [`GameResult::Unparsed`] with the text.
///
/// ```
/// use sgf_grove::game::{GameResult, WinBy};
/// use sgf_grove::value::Color;
/// assert_eq!(
///     GameResult::parse("W+3.5"),
///     GameResult::Win { winner: Color::White, by: WinBy::Points(3.5) }
/// );
/// assert_eq!(GameResult::parse("jigo"), GameResult::Draw);
/// assert_eq!(GameResult::parse("B+Resign").to_string(), "B+R");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum GameResult {
    /// One side won.
    Win {
        /// Who won.
        winner: Color,
        /// How.
        by: WinBy,
    },
    /// A draw (jigo).
    Draw,
    /// No result (suspended, or annulled).
    Void,
    /// Stated as unknown (`?`).
    Unknown,
    /// Text that is not a known form, as given (trimmed).
    Unparsed(String),
}

/// Draw forms, compared ASCII-case-insensitively.
const DRAWS: [&str; 12] = [
    "0",
    "0.0",
    "draw",
    "jigo",
    "ji-go",
    "tie",
    "和棋",
    "和局",
    "平局",
    "持碁",
    "ジゴ",
    "무승부",
];
const VOIDS: [&str; 5] = ["void", "no result", "无胜负", "無勝負", "無効"];
/// Suspended play, which FF\[4\] counts as `Void` (`RE[has adjourned.]`).
const ADJOURNED: [&str; 3] = ["adjourned", "suspended", "打挂"];
const UNKNOWNS: [&str; 4] = ["?", "??", "unknown", "unfinished"];

impl GameResult {
    /// Reads a result; never fails (see the table above).
    pub fn parse(s: &str) -> GameResult {
        let t = s.trim();
        let is = |list: &[&str]| list.iter().any(|w| w.eq_ignore_ascii_case(t));
        if is(&DRAWS) {
            return GameResult::Draw;
        }
        if is(&VOIDS) {
            return GameResult::Void;
        }
        if is(&UNKNOWNS) {
            return GameResult::Unknown;
        }
        if let Some(win) = GameResult::parse_win(t) {
            return win;
        }
        if ADJOURNED.iter().any(|w| contains_ci(t, w)) {
            return GameResult::Void;
        }
        GameResult::Unparsed(t.to_owned())
    }

    fn parse_win(t: &str) -> Option<GameResult> {
        const SIDES: [(&str, Color); 9] = [
            ("black", Color::Black),
            ("white", Color::White),
            ("b", Color::Black),
            ("w", Color::White),
            ("黑", Color::Black),
            ("黒", Color::Black),
            ("白", Color::White),
            ("흑", Color::Black),
            ("백", Color::White),
        ];
        let (side, rest) = SIDES
            .iter()
            .find_map(|&(word, side)| Some((side, strip_prefix_ci(t, word)?)))?;
        let rest = rest.trim_start();
        let win = |by| Some(GameResult::Win { winner: side, by });
        if let Some(after) = rest.strip_prefix('+') {
            return win(parse_win_by(after.trim_start())?);
        }
        // Words after the colour: `White resigns.`, `Black wins by 3.5`.
        let word_end = rest
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(rest.len());
        if word_end > 0 {
            let (word, after) = rest.split_at(word_end);
            let is = |list: &[&str]| list.iter().any(|w| w.eq_ignore_ascii_case(word));
            return match () {
                _ if is(&["resigns", "resigned", "resign"]) => Some(GameResult::Win {
                    winner: side.opponent(),
                    by: WinBy::Resignation,
                }),
                _ if is(&["wins", "won", "win"]) => {
                    let after = after.trim_start();
                    match strip_prefix_ci(after, "by") {
                        Some(reason)
                            if reason.is_empty() || reason.starts_with(char::is_whitespace) =>
                        {
                            win(parse_win_by(reason.trim_start())?)
                        }
                        _ if after.is_empty() || after.starts_with(['.', '!', ',']) => {
                            win(WinBy::Unspecified)
                        }
                        _ => None,
                    }
                }
                _ => None,
            };
        }
        // CJK: the reason follows the colour without a `+`.
        win(parse_cjk_win_by(rest)?)
    }

    /// The winner, for a win.
    pub fn winner(&self) -> Option<Color> {
        match self {
            GameResult::Win { winner, .. } => Some(*winner),
            _ => None,
        }
    }

    /// The margin in points as written, for a win on points.
    pub fn margin(&self) -> Option<f64> {
        match self {
            GameResult::Win {
                by: WinBy::Points(m),
                ..
            } => Some(*m),
            _ => None,
        }
    }

    /// Whether the text was read ([`GameResult::Unparsed`] was not).
    pub fn is_parsed(&self) -> bool {
        !matches!(self, GameResult::Unparsed(_))
    }
}

/// Reads what follows `B+`: a margin, a reason, or nothing.
fn parse_win_by(r: &str) -> Option<WinBy> {
    let Some(first) = r.chars().next() else {
        return Some(WinBy::Unspecified);
    };
    if first.is_ascii_digit() || first == '.' {
        // A margin, then nothing or text after a space or bracket.
        let end = r
            .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
            .unwrap_or(r.len());
        let (number, after) = r.split_at(end);
        let number = number.trim_end_matches(['.', ',']);
        if !(after.is_empty() || after.starts_with(|c: char| c.is_whitespace() || c == '(')) {
            return None;
        }
        let (margin, _) = parse_real(number)?;
        return Some(WinBy::Points(margin));
    }
    if first.is_ascii_alphabetic() {
        let end = r
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(r.len());
        let word = &r[..end];
        let is = |list: &[&str]| list.iter().any(|w| w.eq_ignore_ascii_case(word));
        return Some(
            if is(&["r", "res", "resign", "resigns", "resigned", "resignation"]) {
                WinBy::Resignation
            } else if is(&["t", "time", "timeout", "timeover", "timed"]) {
                WinBy::Time
            } else if is(&["f", "forfeit", "forfeited", "forfeits", "forfeiture"]) {
                WinBy::Forfeit
            } else {
                WinBy::Other(r.trim_end().to_owned())
            },
        );
    }
    if let Some(by) = parse_cjk_win_by(r) {
        return Some(by);
    }
    if first.is_ascii_punctuation() && first != '-' && first != '+' {
        // `B+, human judge`, `B+?`: a win with a note.
        return Some(WinBy::Unspecified);
    }
    None
}

/// Reads a CJK reason (`中盘胜`, `中押し勝ち`, `3目半勝ち`, `超时胜`, `胜`,
/// `불계승`).
fn parse_cjk_win_by(r: &str) -> Option<WinBy> {
    let has = |words: &[&str]| words.iter().any(|w| r.contains(w));
    if has(&["中盘", "中盤", "中押", "불계"]) {
        return Some(WinBy::Resignation);
    }
    if has(&["超时", "超時", "時間切れ", "时间", "時間", "시간"]) {
        return Some(WinBy::Time);
    }
    if let Some((number, after)) = r.split_once(['目', '집']) {
        let (n, _) = parse_real(number.trim())?;
        let half = after.starts_with('半') || after.starts_with('반');
        return Some(WinBy::Points(if half { n + 0.5 } else { n }));
    }
    if has(&["胜", "勝", "승"]) {
        return Some(WinBy::Unspecified);
    }
    None
}

/// The FF\[4\] form: `B+R`, `W+T`, `B+F`, `W+3.5`, `B+`, `Draw`, `Void`, `?`;
/// the text for [`GameResult::Unparsed`].
impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::Win { winner, by } => {
                write!(f, "{}+", winner.as_str())?;
                match by {
                    WinBy::Points(m) => write!(f, "{m}"),
                    WinBy::Resignation => f.write_str("R"),
                    WinBy::Time => f.write_str("T"),
                    WinBy::Forfeit => f.write_str("F"),
                    WinBy::Unspecified => Ok(()),
                    WinBy::Other(reason) => f.write_str(reason),
                }
            }
            GameResult::Draw => f.write_str("Draw"),
            GameResult::Void => f.write_str("Void"),
            GameResult::Unknown => f.write_str("?"),
            GameResult::Unparsed(raw) => f.write_str(raw),
        }
    }
}

/// `RE` read from a node: decoded as SimpleText in the game's charset, then
/// [`GameResult::parse`]. Never fails.
///
/// ```
/// use sgf_grove::game::{GameResult, WinBy};
/// use sgf_grove::value::Color;
/// let doc = sgf_grove::parse(b"(;RE[W+Time Over])")?;
/// let root = doc.games().next().unwrap().root();
/// assert_eq!(
///     root.get::<GameResult>("RE")?,
///     Some(GameResult::Win { winner: Color::White, by: WinBy::Time })
/// );
/// # Ok::<(), sgf_grove::Error>(())
/// ```
impl<'a> FromValue<'a> for GameResult {
    const TYPE: ValueType = ValueType::SimpleText;

    fn from_value(raw: &'a [u8], ctx: &ValueContext<'a>) -> Option<Self> {
        Some(GameResult::parse(simple_text(raw, ctx)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const B: Color = Color::Black;
    const W: Color = Color::White;

    fn win(winner: Color, by: WinBy) -> GameResult {
        GameResult::Win { winner, by }
    }

    #[test]
    fn results_ff4() {
        use WinBy::*;
        for (text, want, display) in [
            ("0", GameResult::Draw, "Draw"),
            ("Draw", GameResult::Draw, "Draw"),
            ("Jigo", GameResult::Draw, "Draw"),
            ("B+R", win(B, Resignation), "B+R"),
            ("B+Resign", win(B, Resignation), "B+R"),
            ("W+T", win(W, Time), "W+T"),
            ("W+Time", win(W, Time), "W+T"),
            ("B+F", win(B, Forfeit), "B+F"),
            ("B+Forfeit", win(B, Forfeit), "B+F"),
            ("W+3.5", win(W, Points(3.5)), "W+3.5"),
            ("B+12", win(B, Points(12.0)), "B+12"),
            ("B+", win(B, Unspecified), "B+"),
            ("W+", win(W, Unspecified), "W+"),
            ("Void", GameResult::Void, "Void"),
            ("?", GameResult::Unknown, "?"),
        ] {
            let r = GameResult::parse(text);
            assert_eq!(r, want, "{text:?}");
            assert_eq!(r.to_string(), display, "{text:?}");
            assert!(r.is_parsed());
        }
    }

    #[test]
    fn results_lenient() {
        use WinBy::*;
        for (text, want) in [
            // Case, spaces.
            ("b+r", win(B, Resignation)),
            ("W+RESIGN", win(W, Resignation)),
            (" W + R ", win(W, Resignation)),
            ("draw", GameResult::Draw),
            ("DRAW", GameResult::Draw),
            ("jigo", GameResult::Draw),
            ("Ji-go", GameResult::Draw),
            ("0.0", GameResult::Draw),
            ("void", GameResult::Void),
            ("No result", GameResult::Void),
            ("unknown", GameResult::Unknown),
            // Fox margins, kept as written.
            ("B+0.25", win(B, Points(0.25))),
            ("W+0.0", win(W, Points(0.0))),
            ("W+0.02", win(W, Points(0.02))),
            ("B+0.75", win(B, Points(0.75))),
            ("B+0.50", win(B, Points(0.5))),
            ("W+12,5", win(W, Points(12.5))),
            ("B+3.5 points", win(B, Points(3.5))),
            ("B+3.5(counted)", win(B, Points(3.5))),
            ("B+1.5 ? W+timeout", win(B, Points(1.5))),
            ("B+5.", win(B, Points(5.0))),
            // Reasons with trailing text or other spellings.
            ("W+R ", win(W, Resignation)),
            ("W+R (disconnected)", win(W, Resignation)),
            ("B+Resignation", win(B, Resignation)),
            ("W+Resigned", win(W, Resignation)),
            ("W+time", win(W, Time)),
            ("B+time", win(B, Time)),
            ("W+Time Over", win(W, Time)),
            ("W+timeout", win(W, Time)),
            ("W+Time-out", win(W, Time)),
            ("B+Forfeited", win(B, Forfeit)),
            ("B+Illegal", win(B, Other("Illegal".into()))),
            ("W+Repetition", win(W, Other("Repetition".into()))),
            (
                "B+, human judge for communication error",
                win(B, Unspecified),
            ),
            (
                "B+, Goro crushed in his 126th move, and could not continue.",
                win(B, Unspecified),
            ),
            ("B+?", win(B, Unspecified)),
            // Colour words.
            ("Black+R", win(B, Resignation)),
            ("White+2.5", win(W, Points(2.5))),
            ("White resigns.", win(B, Resignation)),
            ("Black resigns. W 133.5 B 81.0", win(W, Resignation)),
            ("Black resigned", win(W, Resignation)),
            ("Black resigns by 5", win(W, Resignation)),
            ("Black wins", win(B, Unspecified)),
            ("White wins.", win(W, Unspecified)),
            ("W wins by 3.5", win(W, Points(3.5))),
            ("Black wins by resignation", win(B, Resignation)),
            ("White won by time", win(W, Time)),
            // CJK.
            ("黑中盘胜", win(B, Resignation)),
            ("白中盘胜", win(W, Resignation)),
            ("黒中押し勝ち", win(B, Resignation)),
            ("白中押し勝ち", win(W, Resignation)),
            ("黒3目半勝ち", win(B, Points(3.5))),
            ("白6目勝ち", win(W, Points(6.0))),
            ("白超时胜", win(W, Time)),
            ("黑胜", win(B, Unspecified)),
            ("흑 불계승", win(B, Resignation)),
            ("백 5집반승", win(W, Points(5.5))),
            ("B+中盘胜", win(B, Resignation)),
            ("和棋", GameResult::Draw),
            ("持碁", GameResult::Draw),
            ("ジゴ", GameResult::Draw),
            ("무승부", GameResult::Draw),
            ("无胜负", GameResult::Void),
            // Suspended play.
            ("has adjourned.", GameResult::Void),
            ("Game suspended", GameResult::Void),
        ] {
            assert_eq!(GameResult::parse(text), want, "{text:?}");
        }
    }

    #[test]
    fn results_unparsed() {
        for text in [
            "",
            "B",
            "W",
            "B-R",
            "B+-3",
            "B+3.5.5",
            "B+3x",
            "Bx+R",
            "X+R",
            "white is better",
            "1-0",
            "B++R",
        ] {
            let r = GameResult::parse(text);
            assert_eq!(r, GameResult::Unparsed(text.trim().to_owned()), "{text:?}");
            assert_eq!(r.to_string(), text.trim());
            assert!(!r.is_parsed());
            assert_eq!((r.winner(), r.margin()), (None, None));
        }
    }

    #[test]
    fn result_accessors() {
        let r = GameResult::parse("W+7.5");
        assert_eq!((r.winner(), r.margin()), (Some(W), Some(7.5)));
        let r = GameResult::parse("B+R");
        assert_eq!((r.winner(), r.margin()), (Some(B), None));
        assert_eq!(GameResult::parse("Draw").winner(), None);
        assert_eq!(GameResult::parse("B+Illegal").to_string(), "B+Illegal");
    }
}
