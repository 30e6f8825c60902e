//! Pandanet (IGS) `.ugf` / `.ugi` records.
//!
//! The layout: sections in brackets, `key=value` lines in the header and
//! one move a line in the data (from records seen in other projects'
//! converters; no specification is published; inferred facts are marked):
//!
//! ```text
//! [Header]
//! Title=…               GN
//! Place=…               PC
//! Date=2001/03/04,…     DT (the first value)
//! Rule=JAPANESE         RU (also `Rules=`)
//! Size=19               SZ
//! Hdcp=2,0.5            HA, KM
//! Winner=W,4.5          RE: a margin; `C` resignation (中押し, inferred), `T` time
//!                       (inferred), `F` forfeit (inferred); `Winner=D` or `J` a draw (inferred)
//! PlayerB=name,rank,…   PB, BR
//! PlayerW=name,rank,…   PW, WR
//! CoordinateType=IGS
//! [Data]
//! PD,B1,1,0             column, row; colour and move number; node; time
//! ```
//!
//! - Coordinates: letters from `A`; the column counts from the left, the
//!   row from the **bottom** (row `A` is the lowest line), as IGS names
//!   points. Other converters disagree when `CoordinateType` is not `IGS`
//!   (one counts rows from the top then); the bottom is taken for every
//!   type here, a type other than `IGS` is kept in `GC`. Inferred.
//! - Handicap stones are listed in the data as black stones of node 0
//!   (`PD,B1,0,0`): they become `AB` where listed.
//! - A point off the board is a pass (`YA` is written for one, inferred);
//!   only other letters are warned.
//!
//! Other header fields and sections are kept in `GC` or skipped; a record
//! without `[Data]` was cut (warned).

use super::gib::{date, trim};
use super::out::{Color, Outcome, Record};
use super::text::Text;
use crate::error::WarningKind;

pub(super) fn read(text: &Text<'_>, out: &mut Record) {
    let mut section = Vec::new();
    let mut saw_data = false;
    let mut moved = false;
    for line in &text.lines {
        let raw = trim(line.bytes);
        let at = line.offset + (raw.as_ptr() as usize - line.bytes.as_ptr() as usize);
        if raw.is_empty() {
            continue;
        }
        if raw.starts_with(b"[") && raw.ends_with(b"]") {
            section = raw[1..raw.len() - 1].to_ascii_lowercase();
            saw_data |= section == b"data";
            continue;
        }
        match &section[..] {
            b"header" => header(text, out, raw, at),
            b"data" => {
                let fields: Vec<&[u8]> = raw.split(|&b| b == b',').map(trim).collect();
                let (Some(point), Some(who)) = (fields.first(), fields.get(1)) else {
                    text.warn(WarningKind::ForeignUnreadable, at);
                    continue;
                };
                let color = match who.first().map(u8::to_ascii_uppercase) {
                    Some(b'B') => Color::Black,
                    Some(b'W') => Color::White,
                    _ => {
                        text.warn(WarningKind::ForeignUnreadable, at);
                        continue;
                    }
                };
                let node = fields
                    .get(2)
                    .and_then(|n| std::str::from_utf8(n).ok()?.parse::<u64>().ok());
                let point = match point {
                    [cx, cy] if cx.is_ascii_alphabetic() && cy.is_ascii_alphabetic() => {
                        let x = i64::from(cx.to_ascii_uppercase() - b'A');
                        let row = i64::from(cy.to_ascii_uppercase() - b'A');
                        let y = i64::from(out.size) - 1 - row;
                        if out.on_board(x, y) {
                            Some((x as u32, y as u32))
                        } else {
                            if !point.eq_ignore_ascii_case(b"YA") {
                                text.warn(WarningKind::ForeignOffBoard, at);
                            }
                            None
                        }
                    }
                    _ => {
                        text.warn(WarningKind::ForeignUnreadable, at);
                        continue;
                    }
                };
                if node == Some(0) && !moved && color == Color::Black {
                    if let Some(p) = point {
                        out.setup.push(p);
                    }
                    continue;
                }
                moved = true;
                out.moves.push((color, point));
            }
            // Figures, comments and other sections: not read.
            _ => {}
        }
    }
    if !saw_data {
        text.warn(WarningKind::ForeignTruncated, text.end());
    }
}

/// One `key=value` line of `[Header]`.
fn header(text: &Text<'_>, out: &mut Record, raw: &[u8], at: usize) {
    let Some(eq) = raw.iter().position(|&b| b == b'=') else {
        text.warn(WarningKind::ForeignUnreadable, at);
        return;
    };
    let key = String::from_utf8_lossy(trim(&raw[..eq])).to_ascii_lowercase();
    let value = text.decode(trim(&raw[eq + 1..]), at + eq + 1);
    let parts: Vec<&str> = value.split(',').map(str::trim).collect();
    let bad = |what: &str, out: &mut Record| {
        text.warn(WarningKind::ForeignUnreadable, at);
        out.keep(what, &value);
    };
    match &key[..] {
        "title" => out.set("GN", value.clone()),
        "place" => out.set("PC", value.clone()),
        "rule" | "rules" => out.set("RU", value.clone()),
        "copyright" => out.set("CP", value.clone()),
        "date" => {
            let ymd: Vec<&str> = parts[0].split(['/', '-']).collect();
            match ymd[..] {
                [y, m, d] if date(y, m, d).is_some() => {
                    out.set("DT", date(y, m, d).unwrap_or_default());
                }
                _ => bad("Date", out),
            }
        }
        "size" => match value.parse::<u32>() {
            Ok(n) if (2..=52).contains(&n) => out.size = n,
            _ => bad("Size", out),
        },
        "hdcp" => {
            match parts[0].parse::<u32>() {
                Ok(h) if h >= 2 => out.set("HA", h.to_string()),
                Ok(_) => {}
                Err(_) => bad("Hdcp", out),
            }
            if let Some(komi) = parts.get(1) {
                match komi.parse::<f64>() {
                    Ok(k) if k.is_finite() => out.set("KM", *komi),
                    _ => bad("Hdcp", out),
                }
            }
        }
        "playerb" | "playerw" => {
            let black = key == "playerb";
            out.set(if black { "PB" } else { "PW" }, parts[0]);
            if let Some(rank) = parts.get(1) {
                out.set(if black { "BR" } else { "WR" }, *rank);
            }
        }
        "winner" => match winner(&parts) {
            Some(o) => out.result(&o),
            None => bad("Winner", out),
        },
        "coordinatetype" if value.eq_ignore_ascii_case("IGS") => {}
        _ => {
            if !value.is_empty() {
                let original = String::from_utf8_lossy(trim(&raw[..eq])).into_owned();
                out.keep(&original, &value);
            }
        }
    }
}

/// `Winner=` as an outcome.
fn winner(parts: &[&str]) -> Option<Outcome> {
    let who = parts.first()?.to_ascii_uppercase();
    let color = match &who[..] {
        "B" => Color::Black,
        "W" => Color::White,
        "D" | "J" | "0" => return Some(Outcome::Draw),
        _ => return None,
    };
    let how = parts.get(1).copied().unwrap_or("").to_ascii_uppercase();
    Some(match &how[..] {
        "" => Outcome::Win(color),
        "C" | "R" => Outcome::Resign(color),
        "T" => Outcome::Time(color),
        "F" => Outcome::Forfeit(color),
        m if m.parse::<f64>().is_ok_and(f64::is_finite) => Outcome::Points(color, m.to_owned()),
        _ => return None,
    })
}
