//! Tygem `.gib` records.
//!
//! The layout, as Tygem writes it (from records seen in other projects'
//! converters and examples; Tygem publishes no specification):
//!
//! ```text
//! \HS                                   header start
//! \[GAMEBLACKNAME=Lee (9D)\]            one field a line: \[KEY=value\]
//! \[GAMEINFOMAIN=GBKIND:3,GTYPE:0,GCDT:1,GTIME:600-30-3,GRLT:0,ZIPSU:25,GONGJE:65,…\]
//! \[GAMETAG=S1,R3,D5,G65,W0,Z25,T30-3-1200,C2016:03:26:17:29,…\]
//! \HE                                   header end
//! \GS                                   moves start
//! 2 1 0                                 lines of numbers: not known, skipped
//! INI 0 1 3 &4                          the 4th field is the handicap
//! STO 0 2 2 15 15                       a move: number, colour (1 black, 2 white), x, y
//! SKI 0 3                               a pass (inferred)
//! \GE                                   moves end
//! ```
//!
//! - Players: `GAMEBLACKNAME` / `GAMEWHITENAME` hold `name (rank)`:
//!   `PB`/`BR`, `PW`/`WR`.
//! - Result: `GRLT` (in `GAMEINFOMAIN`, or `W` in `GAMETAG`) says who won
//!   and how: 0 black by points, 1 white by points, 3 black by
//!   resignation, 4 white by resignation, 7 black on time, 8 white on
//!   time; `ZIPSU` (`Z`) is the margin in tenths of a point. Other codes
//!   are not known: warned, no `RE`.
//! - Komi: `GONGJE` (`G`) in tenths of a point.
//! - Date: `C` in `GAMETAG` (`C2016:03:26:…`), else the first three
//!   numbers of `GAMEDATE`.
//! - Board: 19×19 (no field gives another size).
//! - Coordinates: `x` is the column from the left, `y` the row from the
//!   top, both from 0, as SGF counts (checked by other converters against
//!   the server's own diagrams; inferred). A point off the board is
//!   warned and written as a pass.
//! - Handicap: `INI`'s 4th field; the stones are not listed and are placed
//!   as Tygem places them (`AB`).
//! - Passes: `SKI` lines, by the player whose turn it is (inferred: the
//!   line holds no colour).
//!
//! Other header fields are kept in `GC`; a line of the moves section that
//! is none of these is warned and skipped; a record without `\GE` was cut
//! (warned, what was read is kept).

use super::out::{tenths, Color, Outcome, Record};
use super::text::Text;
use crate::error::WarningKind;

pub(super) fn read(text: &Text<'_>, out: &mut Record) {
    let mut in_moves = false;
    let mut ended = false;
    let mut handicap = 0u32;
    let mut result: Option<(i64, Option<i64>, usize)> = None;
    let mut komi_set = false;
    for line in &text.lines {
        let raw = trim(line.bytes);
        let at = line.offset + (raw.as_ptr() as usize - line.bytes.as_ptr() as usize);
        if raw.is_empty() {
            continue;
        }
        if let Some(field) = raw.strip_prefix(b"\\[") {
            let field = field.strip_suffix(b"\\]").unwrap_or(field);
            let Some(eq) = field.iter().position(|&b| b == b'=') else {
                text.warn(WarningKind::ForeignUnreadable, at);
                continue;
            };
            let key = String::from_utf8_lossy(&field[..eq]).into_owned();
            let value = text.decode(&field[eq + 1..], at + 2 + eq + 1);
            header_field(text, out, &key, &value, at, &mut result, &mut komi_set);
            continue;
        }
        match raw {
            b"\\HS" | b"\\HE" => continue,
            b"\\GS" => {
                in_moves = true;
                continue;
            }
            b"\\GE" => {
                ended = true;
                break;
            }
            _ => {}
        }
        let words: Vec<&[u8]> = raw
            .split(|b| b.is_ascii_whitespace())
            .filter(|w| !w.is_empty())
            .collect();
        let number =
            |i: usize| -> Option<i64> { std::str::from_utf8(words.get(i)?).ok()?.parse().ok() };
        match words[0] {
            b"INI" => match number(3) {
                Some(h) if (0..=9).contains(&h) => handicap = h as u32,
                _ => text.warn(WarningKind::ForeignUnreadable, at),
            },
            b"STO" => {
                let color = match number(3) {
                    Some(1) => Color::Black,
                    Some(2) => Color::White,
                    _ => {
                        text.warn(WarningKind::ForeignUnreadable, at);
                        continue;
                    }
                };
                let (Some(x), Some(y)) = (number(4), number(5)) else {
                    text.warn(WarningKind::ForeignUnreadable, at);
                    continue;
                };
                let point = if out.on_board(x, y) {
                    Some((x as u32, y as u32))
                } else {
                    text.warn(WarningKind::ForeignOffBoard, at);
                    None
                };
                out.moves.push((color, point));
            }
            b"SKI" => {
                let color = match out.moves.last() {
                    Some((last, _)) => last.other(),
                    None if handicap >= 2 => Color::White,
                    None => Color::Black,
                };
                out.moves.push((color, None));
            }
            // The numbers at the start of the moves section.
            _ if in_moves
                && words
                    .iter()
                    .all(|w| w.iter().all(|b| b.is_ascii_digit() || *b == b'&')) => {}
            _ => text.warn(WarningKind::ForeignUnreadable, at),
        }
    }
    if handicap >= 2 {
        out.set("HA", handicap.to_string());
        out.setup = Record::tygem_handicap(out.size, handicap);
    }
    if let Some((code, margin, at)) = result {
        let outcome = match (code, margin) {
            (0, Some(m)) => Some(Outcome::Points(Color::Black, tenths(m))),
            (1, Some(m)) => Some(Outcome::Points(Color::White, tenths(m))),
            (0, None) => Some(Outcome::Win(Color::Black)),
            (1, None) => Some(Outcome::Win(Color::White)),
            (3, _) => Some(Outcome::Resign(Color::Black)),
            (4, _) => Some(Outcome::Resign(Color::White)),
            (7, _) => Some(Outcome::Time(Color::Black)),
            (8, _) => Some(Outcome::Time(Color::White)),
            _ => None,
        };
        match outcome {
            Some(outcome) => out.result(&outcome),
            None => text.warn(WarningKind::ForeignUnreadable, at),
        }
    }
    if !ended {
        text.warn(WarningKind::ForeignTruncated, text.end());
    }
}

/// One `\[KEY=value\]` field of the header, at byte `at`.
fn header_field(
    text: &Text<'_>,
    out: &mut Record,
    key: &str,
    value: &str,
    at: usize,
    result: &mut Option<(i64, Option<i64>, usize)>,
    komi_set: &mut bool,
) {
    match key {
        "GAMEBLACKNAME" | "GAMEWHITENAME" => {
            let (name, rank) = name_and_rank(value);
            let black = key == "GAMEBLACKNAME";
            out.set(if black { "PB" } else { "PW" }, name);
            if let Some(rank) = rank {
                out.set(if black { "BR" } else { "WR" }, rank);
            }
        }
        "GAMEINFOMAIN" | "GAMETAG" => {
            let main = key == "GAMEINFOMAIN";
            let mut grlt = None;
            let mut zipsu = None;
            for item in value.split(',') {
                let item = item.trim();
                let (k, v) = if main {
                    match item.split_once(':') {
                        Some((k, v)) => (k, v),
                        None => continue,
                    }
                } else {
                    match item.char_indices().nth(1) {
                        Some((i, _)) => item.split_at(i),
                        None => continue,
                    }
                };
                let n: Option<i64> = v.trim().parse().ok();
                match (main, k) {
                    (true, "GRLT") | (false, "W") => grlt = n,
                    (true, "ZIPSU") | (false, "Z") => zipsu = n,
                    (true, "GONGJE") | (false, "G") => {
                        if let Some(n) = n.filter(|_| !*komi_set) {
                            out.set("KM", tenths(n));
                            *komi_set = true;
                        }
                    }
                    (false, "C") => {
                        let parts: Vec<&str> = v.split(':').collect();
                        if let [y, m, d, ..] = parts[..]
                            && let Some(date) = date(y, m, d)
                        {
                            out.set("DT", date);
                        }
                    }
                    _ => {}
                }
            }
            if let Some(code) = grlt
                && result.is_none()
            {
                *result = Some((code, zipsu, at));
            }
            out.keep(key, value);
        }
        "GAMEDATE" if !out.has("DT") => {
            let numbers: Vec<&str> = value
                .split(|c: char| !c.is_ascii_digit())
                .filter(|s| !s.is_empty())
                .collect();
            match numbers[..] {
                [y, m, d, ..] if date(y, m, d).is_some() => {
                    out.set("DT", date(y, m, d).unwrap_or_default());
                }
                _ => {
                    text.warn(WarningKind::ForeignUnreadable, at);
                    out.keep(key, value);
                }
            }
        }
        "GAMENAME" => out.set("GN", value),
        "GAMEPLACE" => out.set("PC", value),
        _ if !value.trim().is_empty() => out.keep(key, value),
        _ => {}
    }
}

/// `Lee (9D)` → `Lee`, `9D`; a name without a rank in brackets stays
/// whole.
pub(super) fn name_and_rank(value: &str) -> (&str, Option<&str>) {
    let value = value.trim();
    if let Some(body) = value.strip_suffix(')')
        && let Some(open) = body.rfind('(')
    {
        let name = body[..open].trim();
        let rank = body[open + 1..].trim();
        if !name.is_empty() && !rank.is_empty() {
            return (name, Some(rank));
        }
    }
    (value, None)
}

/// `YYYY-MM-DD` of three numbers, when they make a date.
pub(super) fn date(y: &str, m: &str, d: &str) -> Option<String> {
    let y: u32 = y.trim().parse().ok()?;
    let m: u32 = m.trim().parse().ok()?;
    let d: u32 = d.trim().parse().ok()?;
    ((1000..=9999).contains(&y) && (1..=12).contains(&m) && (1..=31).contains(&d))
        .then(|| format!("{y:04}-{m:02}-{d:02}"))
}

/// `bytes` without ASCII whitespace around.
pub(super) fn trim(bytes: &[u8]) -> &[u8] {
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(start, |i| i + 1);
    &bytes[start..end]
}
