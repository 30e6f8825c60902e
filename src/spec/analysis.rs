//! Engine analysis as programs write it into SGF, at the byte level: the
//! private properties that hold it ([`ANALYSIS_IDENTS`]) and the rule that
//! tells a comment written by an engine from one written by a person
//! ([`engine_comment`]). The writer's `analysis` preset and the decoder of
//! `crate::analysis` both read these, so that what is stripped is what is
//! decoded.
//!
//! # Which comments are an engine's
//!
//! A comment is an engine's when, once SGF escapes are removed, it holds at
//! least one line and **every** line that is not blank is one of these, and
//! nothing else (no other word, no other number):
//!
//! - KataGo self-play (`katago selfplay`): `[Pass for ko] W L NR S` with
//!   `W L NR` probabilities (`0.40 0.60 0.00`, summing to 1 within 0.03),
//!   `S` a signed decimal score, then only `v=N`, `weight=X` and
//!   `result=…` tokens;
//! - a review server's per-move line (`ogs`): `Black's win rate: 15.4%` or
//!   `White's win rate: …` (the `%` before or after the number), optionally
//!   followed by `visits: N` and `score: X`;
//! - Lizzie's summary (`lizzie-comment`): `Black's winrate: 54.2%
//!   (+1.3%)` (the bracket optional) and `(NAME / 1.5k playouts)`.
//!
//! So `C[0.40 0.60 0.00 -3.7 v=400]` is an engine's, and `C[Black is ahead
//! by 0.5 points, 3 stones dead]`, `C[0.5]` or `C[0.40 0.60 0.00 -3.7 good
//! move]` are not: a comment with any word of a person's is kept whole.

/// The private properties that hold engine analysis: `KT` (KaTrain: its
/// analysis, gzip + base64), `KTV` (KaTrain: the analysis format's
/// version, in the root), `LZ` (Lizzie, LizGoban), `SBKV` (Sabaki and
/// Ogatak: win rate), `SBKS` (Sabaki: score lead), `OGSC` (Ogatak: score
/// lead).
pub(crate) const ANALYSIS_IDENTS: [&str; 6] = ["KT", "KTV", "LZ", "SBKV", "SBKS", "OGSC"];

/// Which program's comment layout a comment is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CommentForm {
    /// KataGo self-play: White's win / loss / no-result and score.
    KataGoSelfplay,
    /// A review server's `Black's win rate: …` line.
    Review,
    /// Lizzie's `Black's winrate: …` summary.
    Lizzie,
}

/// What an engine's comment says, as written (no change of view).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct EngineComment {
    /// The layout.
    pub(crate) form: CommentForm,
    /// The win rate as a fraction (0..1) for `black_view` or the other side.
    pub(crate) win_rate: Option<f64>,
    /// Whether `win_rate` and `score` are Black's (else White's).
    pub(crate) black_view: bool,
    /// The score lead, in points, for the same side.
    pub(crate) score: Option<f64>,
    /// The visits or playouts.
    pub(crate) visits: Option<u64>,
}

/// The engine comment `raw` (a `C` value as written, escapes and all) is,
/// or `None` when it is not one (see the module docs for the rule).
pub(crate) fn engine_comment(raw: &[u8]) -> Option<EngineComment> {
    if raw.is_empty() || raw.len() > 4096 || !raw.is_ascii() {
        return None;
    }
    let text = unescape(raw);
    let text = std::str::from_utf8(&text).ok()?;
    let mut found: Option<EngineComment> = None;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let one = selfplay_line(line)
            .or_else(|| review_line(line))
            .or_else(|| lizzie_line(line))?;
        found = Some(match found {
            None => one,
            Some(before) if before.form == one.form => EngineComment {
                win_rate: before.win_rate.or(one.win_rate),
                score: before.score.or(one.score),
                visits: before.visits.or(one.visits),
                ..before
            },
            // Two layouts in one comment: no program writes that.
            Some(_) => return None,
        });
    }
    found
}

/// Whether `raw` (a `C` value as written) is an engine's comment.
pub(crate) fn is_engine_comment(raw: &[u8]) -> bool {
    engine_comment(raw).is_some()
}

/// `raw` without SGF escapes (`\x` → `x`, `\` + line break → nothing).
pub(crate) fn unescape(raw: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if !raw.contains(&b'\\') {
        return std::borrow::Cow::Borrowed(raw);
    }
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'\\' && i + 1 < raw.len() {
            let next = raw[i + 1];
            i += 2;
            if next == b'\r' || next == b'\n' {
                // A soft line break, with its partner byte.
                if i < raw.len() && (raw[i] == b'\r' || raw[i] == b'\n') && raw[i] != next {
                    i += 1;
                }
            } else {
                out.push(next);
            }
        } else {
            out.push(raw[i]);
            i += 1;
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A decimal number as engines write them: optional sign, digits, an
/// optional fraction; no exponent, no `inf`, no `nan`.
pub(crate) fn plain_number(s: &str) -> Option<f64> {
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let ok = !int.is_empty()
        && int.bytes().all(|b| b.is_ascii_digit())
        && frac.bytes().all(|b| b.is_ascii_digit())
        && !(digits.contains('.') && frac.is_empty());
    if ok {
        s.parse().ok()
    } else {
        None
    }
}

/// `0.40 0.60 0.00 -3.7 v=400 weight=1.00 result=B+R`, perhaps after
/// `Pass for ko`.
fn selfplay_line(line: &str) -> Option<EngineComment> {
    let line = line.strip_prefix("Pass for ko").unwrap_or(line);
    let mut tokens = line.split_ascii_whitespace();
    let mut probs = [0.0; 3];
    for p in &mut probs {
        let t = tokens.next()?;
        *p = plain_number(t)?;
        // Written with "%.2f": two decimals.
        if !(0.0..=1.0).contains(p) || t.split_once('.').is_none_or(|(_, f)| f.len() != 2) {
            return None;
        }
    }
    if (probs.iter().sum::<f64>() - 1.0).abs() > 0.03 {
        return None;
    }
    let score = plain_number(tokens.next()?)?;
    let mut visits = None;
    for t in tokens {
        let (key, value) = t.split_once('=')?;
        match key {
            "v" => visits = Some(value.parse().ok()?),
            "weight" => {
                plain_number(value)?;
            }
            "result" => {}
            _ => return None,
        }
    }
    Some(EngineComment {
        form: CommentForm::KataGoSelfplay,
        // White's win probability, draws and no-results counted half.
        win_rate: Some(probs[0] + probs[2] / 2.0),
        black_view: false,
        score: Some(score),
        visits,
    })
}

/// `Black's` / `White's` at the start of `line`: whether Black's, and the
/// rest.
fn side(line: &str) -> Option<(bool, &str)> {
    if let Some(rest) = line.strip_prefix("Black's ") {
        Some((true, rest))
    } else {
        line.strip_prefix("White's ").map(|rest| (false, rest))
    }
}

/// A percentage written `15.4%`, `%15.4` or `15.4`, as a fraction.
fn percent(t: &str) -> Option<f64> {
    let t = t
        .strip_prefix('%')
        .or_else(|| t.strip_suffix('%'))
        .unwrap_or(t);
    let v = plain_number(t)?;
    (0.0..=100.0).contains(&v).then_some(v / 100.0)
}

/// `Black's win rate: 15.4% visits: 507 score: -3.5`.
fn review_line(line: &str) -> Option<EngineComment> {
    let (black_view, rest) = side(line)?;
    let rest = rest.strip_prefix("win rate:")?;
    let mut tokens = rest.split_ascii_whitespace();
    let win_rate = Some(percent(tokens.next()?)?);
    let (mut visits, mut score) = (None, None);
    while let Some(key) = tokens.next() {
        let value = tokens.next()?;
        match key {
            "visits:" if visits.is_none() => visits = Some(value.parse().ok()?),
            "score:" if score.is_none() => score = Some(plain_number(value)?),
            _ => return None,
        }
    }
    Some(EngineComment {
        form: CommentForm::Review,
        win_rate,
        black_view,
        score,
        visits,
    })
}

/// `Black's winrate: 54.2% (+1.3%)` or `(NAME / 1.5k playouts)`.
fn lizzie_line(line: &str) -> Option<EngineComment> {
    if let Some((black_view, rest)) = side(line) {
        let rest = rest.strip_prefix("winrate:")?;
        let mut tokens = rest.split_ascii_whitespace();
        let win_rate = Some(percent(tokens.next()?)?);
        match tokens.next() {
            None => {}
            Some(diff) => {
                let inner = diff.strip_prefix('(')?.strip_suffix("%)")?;
                plain_number(inner)?;
                if tokens.next().is_some() {
                    return None;
                }
            }
        }
        return Some(EngineComment {
            form: CommentForm::Lizzie,
            win_rate,
            black_view,
            score: None,
            visits: None,
        });
    }
    let inner = line.strip_prefix('(')?.strip_suffix(" playouts)")?;
    let (_, count) = inner.rsplit_once(" / ")?;
    Some(EngineComment {
        form: CommentForm::Lizzie,
        win_rate: None,
        black_view: true,
        score: None,
        visits: Some(playouts(count)?),
    })
}

/// A playout count as Lizzie writes it: `950`, `2.8k`, `1.2m`.
pub(crate) fn playouts(s: &str) -> Option<u64> {
    let (num, scale) = match s.as_bytes().last()? {
        b'k' | b'K' => (&s[..s.len() - 1], 1e3),
        b'm' | b'M' => (&s[..s.len() - 1], 1e6),
        _ => (s, 1.0),
    };
    let v = plain_number(num)?;
    (0.0..1e15).contains(&v).then(|| (v * scale).round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selfplay_comments() {
        let c = engine_comment(b"0.40 0.60 0.00 -3.7 v=400 weight=1.00").unwrap();
        assert_eq!(c.form, CommentForm::KataGoSelfplay);
        assert!((c.win_rate.unwrap() - 0.40).abs() < 1e-9);
        assert!(!c.black_view);
        assert_eq!((c.score, c.visits), (Some(-3.7), Some(400)));
        assert!(is_engine_comment(b"Pass for ko 0.10 0.90 0.00 12.5"));
        assert!(is_engine_comment(b"0.50 0.50 0.00 0.5 v=1 result=W+R"));
    }

    #[test]
    fn review_and_lizzie_comments() {
        let c = engine_comment(b"Black's win rate: %15.4 visits: 507").unwrap();
        assert_eq!(
            (c.form, c.black_view, c.visits),
            (CommentForm::Review, true, Some(507))
        );
        assert!((c.win_rate.unwrap() - 0.154).abs() < 1e-9);
        let c = engine_comment(b"White's winrate: 54.2% (+1.3%)\n(w / 1.5k playouts)").unwrap();
        assert_eq!(
            (c.form, c.black_view, c.visits),
            (CommentForm::Lizzie, false, Some(1500))
        );
    }

    #[test]
    fn human_comments_are_not_engine_comments() {
        for text in [
            &b"Black is ahead by 0.5 points"[..],
            b"0.5",
            b"0.40 0.60 0.00 -3.7 good move",
            b"0.40 0.60 0.00 -3.7\nnice",
            b"1 2 3 4",
            b"0.4 0.6 0.0 -3.7",
            b"Black's win rate: 60% I think",
            b"",
            b"   ",
        ] {
            assert!(
                !is_engine_comment(text),
                "{:?}",
                String::from_utf8_lossy(text)
            );
        }
    }

    #[test]
    fn escapes_are_read_through() {
        assert!(is_engine_comment(b"0.40 0.60 0.00 -3.7 v=4\\\n00"));
        assert_eq!(playouts("2.8k"), Some(2800));
        assert_eq!(playouts("x"), None);
    }
}
