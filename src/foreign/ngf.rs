//! WBaduk / Cyberoro `.ngf` records.
//!
//! The layout, a header of one value a line then one move a line (from
//! records seen in other projects' converters; WBaduk publishes no
//! specification; the meaning of lines 1, 5, 7 and 10 is inferred):
//!
//! ```text
//! line  1  the game's name or kind                 GN
//! line  2  board size                              SZ
//! line  3  white: name, then rank (`3D`, `2K`, `9DP` professional; a `*` may follow)
//! line  4  black: the same
//! line  5  the site or place                       PC
//! line  6  handicap (0 for none)                   HA, stones placed as Tygem does
//! line  7  not known                               kept in GC
//! line  8  komi; a whole number with no handicap means that number and a half
//! line  9  date and time: `20170101 [12:00]`       DT
//! line 10  not known                               kept in GC
//! line 11  result: `White wins by resignation`, `Black wins by 3.5`, `... time`
//! line 12  number of moves
//! then     one move a line: `PM`, 2 characters of move number, the colour
//!          `B`/`W`, then column and row as letters from the top left with
//!          `B` the first line: `PMAABDE` is black at SGF's `cd`. `AA` is a
//!          pass. Letters after the 7th character are not read.
//! ```
//!
//! A coordinate past the board is warned and written as a pass. The
//! result's kind: `resign` → `R`, `time` → `T`, `forfeit` → `F`, a number
//! → that margin, `draw`/`jigo` → `0`; a text that names no winner is
//! kept in `GC`. Fewer header lines than 12, or fewer moves than line 12
//! says, is a cut record (warned; what was read is kept). Some WBaduk
//! records are said to be turned by 180°; nothing in a record tells, so
//! none is turned here.

use super::gib::{date, trim};
use super::out::{Color, Outcome, Record};
use super::text::Text;
use crate::error::WarningKind;

/// How many lines the header has.
const HEADER_LINES: usize = 12;

pub(super) fn read(text: &Text<'_>, out: &mut Record) {
    let header: Vec<_> = text.lines.iter().take(HEADER_LINES).collect();
    let field = |i: usize| -> Option<(String, usize)> {
        let line = header.get(i)?;
        Some((text.decode(trim(line.bytes), line.offset), line.offset))
    };
    if let Some((name, _)) = field(0) {
        out.set("GN", name);
    }
    if let Some((size, at)) = field(1) {
        match size.parse::<u32>() {
            Ok(n) if (2..=52).contains(&n) => out.size = n,
            _ => text.warn(WarningKind::ForeignUnreadable, at),
        }
    }
    for (i, name, rank) in [(2, "PW", "WR"), (3, "PB", "BR")] {
        if let Some((player, _)) = field(i) {
            let mut words: Vec<&str> = player.split_whitespace().collect();
            if words.len() > 1
                && let Some(r) = words.last().and_then(|w| ngf_rank(w))
            {
                out.set(rank, r);
                words.pop();
            }
            out.set(name, words.join(" "));
        }
    }
    if let Some((place, _)) = field(4) {
        out.set("PC", place);
    }
    let mut handicap = 0;
    if let Some((h, at)) = field(5) {
        match h.parse::<u32>() {
            Ok(n) if n <= 9 => handicap = n,
            _ => text.warn(WarningKind::ForeignUnreadable, at),
        }
    }
    if let Some((unknown, _)) = field(6)
        && !unknown.is_empty()
    {
        out.keep("line 7", &unknown);
    }
    if let Some((komi, at)) = field(7) {
        match komi.parse::<f64>() {
            Ok(k) if k.is_finite() && k.abs() < 1000.0 => {
                // A whole komi without handicap stands for that and a
                // half (inferred: other converters do so, and the
                // servers play with half-point komi).
                let text = if handicap == 0 && k.fract() == 0.0 {
                    format!("{}.5", k as i64)
                } else {
                    komi.clone()
                };
                out.set("KM", text);
            }
            _ => text.warn(WarningKind::ForeignUnreadable, at),
        }
    }
    if let Some((when, at)) = field(8) {
        let digits = when.get(..8).unwrap_or("");
        match (digits.len() == 8).then(|| date(&digits[..4], &digits[4..6], &digits[6..8])) {
            Some(Some(d)) => out.set("DT", d),
            _ => {
                text.warn(WarningKind::ForeignUnreadable, at);
                out.keep("date", &when);
            }
        }
    }
    if let Some((unknown, _)) = field(9)
        && !unknown.is_empty()
    {
        out.keep("line 10", &unknown);
    }
    if let Some((result, at)) = field(10) {
        match outcome(&result) {
            Some(o) => out.result(&o),
            None if result.is_empty() => {}
            None => {
                text.warn(WarningKind::ForeignUnreadable, at);
                out.keep("result", &result);
            }
        }
    }
    let mut expected = None;
    if let Some((count, _)) = field(11) {
        expected = count.parse::<usize>().ok();
    }
    if header.len() < HEADER_LINES {
        text.warn(WarningKind::ForeignTruncated, text.end());
    }
    if handicap >= 2 {
        out.set("HA", handicap.to_string());
        out.setup = Record::tygem_handicap(out.size, handicap);
    }
    for line in text.lines.iter().skip(HEADER_LINES) {
        let raw = trim(line.bytes);
        let at = line.offset + (raw.as_ptr() as usize - line.bytes.as_ptr() as usize);
        if raw.is_empty() {
            continue;
        }
        let upper = raw.to_ascii_uppercase();
        if !upper.starts_with(b"PM") {
            text.warn(WarningKind::ForeignUnreadable, at);
            continue;
        }
        let color = match upper.get(4) {
            Some(b'B') => Color::Black,
            Some(b'W') => Color::White,
            _ => {
                text.warn(WarningKind::ForeignUnreadable, at);
                continue;
            }
        };
        let (Some(&cx), Some(&cy)) = (upper.get(5), upper.get(6)) else {
            text.warn(WarningKind::ForeignTruncated, at);
            continue;
        };
        let point = if cx == b'A' && cy == b'A' {
            None
        } else {
            let x = i64::from(cx) - i64::from(b'B');
            let y = i64::from(cy) - i64::from(b'B');
            if out.on_board(x, y) {
                Some((x as u32, y as u32))
            } else {
                text.warn(WarningKind::ForeignOffBoard, at + 5);
                None
            }
        };
        out.moves.push((color, point));
    }
    if let Some(n) = expected
        && out.moves.len() < n
        && header.len() == HEADER_LINES
    {
        text.warn(WarningKind::ForeignTruncated, text.end());
    }
}

/// `3D` → `3d`, `2K` → `2k`, `9DP` → `9p`; a trailing `*` is dropped.
/// `None` for a word that is no rank.
fn ngf_rank(word: &str) -> Option<String> {
    let word = word.trim_end_matches('*').to_ascii_uppercase();
    let digits = word.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = &word[digits.len()..];
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let kind = match suffix {
        "D" => "d",
        "K" => "k",
        "DP" | "P" => "p",
        _ => return None,
    };
    Some(format!("{digits}{kind}"))
}

/// The result line's winner and kind.
fn outcome(line: &str) -> Option<Outcome> {
    let lower = line.to_ascii_lowercase();
    if lower.contains("draw") || lower.contains("jigo") {
        return Some(Outcome::Draw);
    }
    let winner = if lower.contains("white win") || lower.contains("black lose") {
        Color::White
    } else if lower.contains("black win") || lower.contains("white lose") {
        Color::Black
    } else {
        return None;
    };
    Some(if lower.contains("resign") {
        Outcome::Resign(winner)
    } else if lower.contains("time") {
        Outcome::Time(winner)
    } else if lower.contains("forfeit") {
        Outcome::Forfeit(winner)
    } else {
        let margin = lower
            .split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .rfind(|s| s.parse::<f64>().is_ok());
        match margin {
            Some(m) => Outcome::Points(winner, m.to_owned()),
            None => Outcome::Win(winner),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::{ngf_rank, outcome};
    use crate::foreign::out::{Color, Outcome};

    #[test]
    fn ranks_and_results() {
        assert_eq!(ngf_rank("3D*").as_deref(), Some("3d"));
        assert_eq!(ngf_rank("9DP").as_deref(), Some("9p"));
        assert_eq!(ngf_rank("12K").as_deref(), Some("12k"));
        assert_eq!(ngf_rank("Lee"), None);
        assert_eq!(
            outcome("White wins by resignation!"),
            Some(Outcome::Resign(Color::White))
        );
        assert_eq!(
            outcome("Black wins by 3.5 points"),
            Some(Outcome::Points(Color::Black, "3.5".into()))
        );
        assert_eq!(
            outcome("Black wins by time"),
            Some(Outcome::Time(Color::Black))
        );
        assert_eq!(outcome("Draw"), Some(Outcome::Draw));
        assert_eq!(outcome("???"), None);
    }
}
