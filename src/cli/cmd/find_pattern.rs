//! `sgf find INDEX --pattern FILE|-`: the games of a position index where
//! a local pattern occurs ([`sgf_grove::index::Pattern`]), the first move
//! number in each, and the moves played next in the pattern's own
//! orientation.
//!
//! Text: a line of counts, a line per game (source, game, move number,
//! players, date, result, symmetry, the move played next), then the
//! continuation table. With `--format json`, JSON Lines: one object per
//! game, then one with the counts and the table:
//!
//! ```text
//! {"source": "/data/a.sgf", "game": 0, "move": 12, "symmetry": "rot90", "swapped": false,
//!  "next": "B cd" | "W tenuki" | "B pass" | null, "black": "…", "white": "…", "date": "…", "result": "B+R"}
//! {"games": 2, "index_games": 48881, "continuations": [{"move": "B cd", "count": 2, "black_wins": 1, "white_wins": 1}, …]}
//! ```
//!
//! `next` is a point of the pattern counted from its top left (`aa`), as
//! drawn, or `tenuki` for a move outside its rectangle; with swapped
//! colours, in the pattern's colours. `--limit N` (default 20, 0 for all)
//! caps both lists; `games` and each `count` cover everything found.

use super::find::{index_error, limited, or_dash, table_end};
use super::{CliError, Status};
use crate::args::{AnchorArg, BoardFormat, FindArgs, ToMoveArg};
use sgf_grove::index::{Anchor, Index, Pattern, PatternSearch};
use sgf_grove::table::thousands;
use sgf_grove::value::Color;
use std::io::{self, Read, Write};
use std::path::Path;

/// Runs `sgf find --pattern`.
///
/// # Errors
///
/// An unreadable pattern file or index, an index without moves (format
/// 2), a failed write to standard output.
pub fn run(args: &FindArgs, file: &Path) -> Result<Status, CliError> {
    let name = if super::is_stdin(file) {
        "<stdin>".to_owned()
    } else {
        file.display().to_string()
    };
    let mut bytes = Vec::new();
    let read = if super::is_stdin(file) {
        io::stdin().lock().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::read(file).map(|b| bytes = b)
    };
    read.map_err(|e| CliError::io(format!("pattern {name}"), e))?;
    let parsed = if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'(') {
        Pattern::from_sgf(&bytes)
    } else {
        match std::str::from_utf8(&bytes) {
            Ok(text) => Pattern::from_text(text),
            Err(_) => {
                eprintln!("sgf find: {name}: the pattern is not UTF-8 text");
                return Ok(Status::Failed);
            }
        }
    };
    let mut pattern = match parsed {
        Ok(p) => p,
        Err(e) => {
            eprintln!("sgf find: {name}: {e}");
            return Ok(Status::Failed);
        }
    };
    if let Some(anchor) = args.anchor {
        pattern = pattern.with_anchor(match anchor {
            AnchorArg::Corner => Anchor::Corner,
            AnchorArg::Edge => Anchor::Edge,
            AnchorArg::Anywhere => Anchor::Anywhere,
        });
    }
    if let Some(to_move) = args.to_move {
        pattern = pattern.with_to_move(Some(match to_move {
            ToMoveArg::Black => Color::Black,
            ToMoveArg::White => Color::White,
        }));
    }
    pattern = pattern.with_swapped_colors(args.swap_colors);
    let index = Index::open(&args.index).map_err(|e| index_error(&args.index, e))?;
    let search = index
        .search_pattern(&pattern, args.variations)
        .map_err(|e| CliError::io(format!("index {}", args.index.display()), e))?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    match args.format {
        BoardFormat::Text => text(&mut out, &index, &pattern, &search, args.limit)?,
        BoardFormat::Json => json(&mut out, &index, &search, args.limit)?,
    }
    out.flush()?;
    Ok(Status::Ok)
}

fn text(
    out: &mut impl Write,
    index: &Index,
    pattern: &Pattern,
    search: &PatternSearch,
    limit: usize,
) -> io::Result<()> {
    let e = pattern.edges();
    let anchored = if e.is_none() {
        "anywhere"
    } else if (e.left || e.right) && (e.top || e.bottom) {
        "in a corner"
    } else {
        "on an edge"
    };
    writeln!(
        out,
        "{} games (of {} in the index) with the {}×{} pattern {anchored}{}",
        thousands(search.hits.len()),
        thousands(index.games()),
        pattern.width(),
        pattern.height(),
        if pattern.swaps_colors() {
            ", colours either way"
        } else {
            ""
        }
    )?;
    let shown = limited(search.hits.len(), limit);
    for hit in &search.hits[..shown] {
        let g = index.game(hit.game)?;
        let next = hit.next.map_or_else(|| "-".to_owned(), |n| n.to_string());
        writeln!(
            out,
            "  {} game {}  move {}  {} - {}  {}  {}  {}{}  next {}",
            g.origin,
            g.index,
            hit.move_number,
            or_dash(&g.black),
            or_dash(&g.white),
            or_dash(&g.date),
            or_dash(&g.result),
            hit.symmetry.name(),
            if hit.swapped { " swapped" } else { "" },
            next
        )?;
    }
    let rows = search
        .continuations
        .iter()
        .map(|c| (c.next.to_string(), c.count, c.black_wins, c.white_wins));
    table_end(out, search.hits.len(), shown, rows, limit, 10)
}

fn json(
    out: &mut impl Write,
    index: &Index,
    search: &PatternSearch,
    limit: usize,
) -> io::Result<()> {
    for hit in &search.hits[..limited(search.hits.len(), limit)] {
        let g = index.game(hit.game)?;
        let line = serde_json::json!({
            "source": g.origin,
            "game": g.index,
            "move": hit.move_number,
            "symmetry": hit.symmetry.name(),
            "swapped": hit.swapped,
            "next": hit.next.map(|n| n.to_string()),
            "black": g.black,
            "white": g.white,
            "date": g.date,
            "result": g.result,
        });
        writeln!(out, "{line}")?;
    }
    let continuations: Vec<_> = search.continuations[..limited(search.continuations.len(), limit)]
        .iter()
        .map(|c| {
            serde_json::json!({
                "move": c.next.to_string(),
                "count": c.count,
                "black_wins": c.black_wins,
                "white_wins": c.white_wins,
            })
        })
        .collect();
    let line = serde_json::json!({
        "games": search.hits.len(),
        "index_games": index.games(),
        "continuations": continuations,
    });
    writeln!(out, "{line}")
}
