//! Lizzie's `LZ`: `VERSION WINRATE PLAYOUTS [SCORE]` on the first line
//! (the win rate in percent for the side that made the node's move), then
//! the candidates in Leela Zero's `lz-analyze` words for the side to move:
//! `move Q16 visits 38 winrate 5404 [prior 1200] [scoreMean 2.5] [order 0]
//! pv Q16 D4 … [info] move …`.

use super::{gtp, Analysis, Form};
use crate::spec::analysis::{plain_number, playouts, unescape};
use crate::value::{BoardSize, Color, Move};

/// One candidate move.
#[derive(Default)]
struct Candidate {
    visits: Option<u64>,
    score: Option<f64>,
    order: Option<u64>,
    pv: Vec<Move>,
}

/// The analysis in `raw` (an `LZ` value as written); `mover` made the
/// node's move.
pub(super) fn decode(raw: &[u8], size: BoardSize, mover: Color) -> Result<Analysis, String> {
    let text = unescape(raw);
    let text = std::str::from_utf8(&text).map_err(|_| "LZ is not UTF-8 text".to_owned())?;
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    let head: Vec<&str> = first.split_ascii_whitespace().collect();
    // Some writers put the candidates on the first line too.
    let (head, inline) = match head.iter().position(|t| *t == "move" || *t == "info") {
        Some(i) => (
            &head[..i],
            first.split_ascii_whitespace().skip(i).collect::<Vec<_>>(),
        ),
        None => (&head[..], Vec::new()),
    };
    let [_version, winrate, count, extra @ ..] = head else {
        return Err(format!(
            "LZ's first line {first:?} is not VERSION WINRATE PLAYOUTS"
        ));
    };
    let winrate = plain_number(winrate)
        .filter(|w| (0.0..=100.0).contains(w))
        .ok_or_else(|| format!("LZ's win rate {winrate:?} is not a percentage"))?;
    let visits = playouts(count).ok_or_else(|| format!("LZ's playouts {count:?} are no count"))?;
    let mut a = Analysis::new(Form::Lizzie);
    a.win_rate = Some(match mover {
        Color::Black => winrate / 100.0,
        Color::White => 1.0 - winrate / 100.0,
    });
    a.visits = Some(visits);
    let to_move = mover.opponent();
    let black = |s: f64| if to_move == Color::Black { s } else { -s };
    let tokens = inline.into_iter().chain(rest.split_ascii_whitespace());
    let candidates = candidates(tokens, size)?;
    let best = candidates
        .iter()
        .enumerate()
        .min_by_key(|(i, c)| (c.order.unwrap_or(u64::MAX), *i))
        .map(|(_, c)| c);
    if let Some(best) = best {
        a.pv.clone_from(&best.pv);
        a.score_lead = best.score.map(black);
        if visits == 0 {
            a.visits = Some(candidates.iter().filter_map(|c| c.visits).sum());
        }
    }
    if a.score_lead.is_none()
        && let [score, ..] = extra
    {
        a.score_lead = plain_number(score).map(black);
    }
    Ok(a)
}

/// The candidates the words `tokens` list.
fn candidates<'a>(
    tokens: impl Iterator<Item = &'a str>,
    size: BoardSize,
) -> Result<Vec<Candidate>, String> {
    let mut out: Vec<Candidate> = Vec::new();
    let mut tokens = tokens.peekable();
    while let Some(key) = tokens.next() {
        match key {
            "info" => {}
            "move" => {
                let m = tokens.next().ok_or("LZ ends after \"move\"")?;
                gtp::parse(m, size).ok_or_else(|| format!("LZ's move {m:?} is no point"))?;
                out.push(Candidate::default());
            }
            "pv" => {
                let c = out.last_mut().ok_or("LZ has \"pv\" before any \"move\"")?;
                while let Some(m) = tokens.peek().and_then(|t| gtp::parse(t, size)) {
                    c.pv.push(m);
                    tokens.next();
                }
            }
            "visits" | "scoreMean" | "scoreLead" | "order" => {
                let value = tokens
                    .next()
                    .ok_or_else(|| format!("LZ ends after {key:?}"))?;
                let number = plain_number(value)
                    .ok_or_else(|| format!("LZ's {key} {value:?} is no number"))?;
                let c = out
                    .last_mut()
                    .ok_or_else(|| format!("LZ has {key:?} before any \"move\""))?;
                match key {
                    "visits" => c.visits = Some(number.max(0.0) as u64),
                    "order" => c.order = Some(number.max(0.0) as u64),
                    _ => c.score = Some(number),
                }
            }
            // winrate, prior, lcb, pvVisits (a number per pv move)…: their
            // numbers are skipped.
            _ => {
                while tokens.peek().is_some_and(|t| plain_number(t).is_some()) {
                    tokens.next();
                }
            }
        }
    }
    Ok(out)
}
