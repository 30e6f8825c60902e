//! `sgf find INDEX --position FILE[:NODE] | --moves "pd dp …"`: the games
//! of a position index where a position occurs, under any of the 8
//! symmetries, and a continuation table.
//!
//! Text: a line of counts, the occurrences (source, game, move number,
//! players, date, result, the move played next), then the moves played
//! next with their counts and the wins of each colour. With
//! `--format json`, one object:
//!
//! ```text
//! {"games": 2, "hits": 2, "index_games": 48881,
//!  "found": [{"source": "/data/a.sgf", "game": 0, "black": "…", "white": "…", "date": "…",
//!             "result": "B+R", "move": 12, "symmetry": "rot90", "next": "B pd" | null}, …],
//!  "continuations": [{"move": "B pd", "count": 2, "black_wins": 1, "white_wins": 1}, …]}
//! ```
//!
//! `--limit N` (default 20, 0 for all) caps both lists; `games`, `hits` and
//! each `count` cover everything found.
//! `move` is the number of moves played to reach the position; `next`
//! and the continuations are in the orientation of the question;
//! `symmetry` turns the game's position into the question's.
//!
//! `--pattern` is answered by [`super::find_pattern`].

use super::{display_name, input_parse_options, open_reporting, parse_streaming, CliError, Status};
use crate::args::{BoardFormat, FindArgs};
use sgf_grove::game::board::Board;
use sgf_grove::index::{board_after, Index, Search};
use sgf_grove::table::thousands;
use sgf_grove::GameTree;
use std::io::{self, Write};
use std::path::PathBuf;

/// Runs `sgf find`.
///
/// # Errors
///
/// An unreadable index, a failed write to standard output.
pub fn run(args: &FindArgs) -> Result<Status, CliError> {
    if let Some(pattern) = &args.pattern {
        return super::find_pattern::run(args, pattern);
    }
    let board = match (&args.position, &args.moves) {
        (Some(position), _) => match position_board(position, args.game)? {
            Ok(board) => board,
            Err(why) => {
                eprintln!("sgf find: {why}");
                return Ok(Status::Failed);
            }
        },
        (None, Some(moves)) => {
            board_after(args.size, moves).map_err(|e| CliError::io("--moves", e))?
        }
        (None, None) => unreachable!("clap requires --position or --moves"),
    };
    let index = Index::open(&args.index).map_err(|e| index_error(&args.index, e))?;
    let search = index
        .search(&board)
        .map_err(|e| CliError::io(format!("index {}", args.index.display()), e))?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    match args.format {
        BoardFormat::Text => text(&mut out, &index, &search, args.limit)?,
        BoardFormat::Json => json(&mut out, &index, &search, args.limit)?,
    }
    out.flush()?;
    Ok(Status::Ok)
}

/// An index that cannot be opened: "not an index: no manifest in DIR" for
/// a folder without a manifest (the error names the folder), the folder
/// and the error otherwise.
pub(super) fn index_error(dir: &std::path::Path, e: io::Error) -> CliError {
    if e.kind() == io::ErrorKind::NotFound && dir.is_dir() {
        CliError::io("find", e)
    } else {
        CliError::io(format!("index {}", dir.display()), e)
    }
}

/// The board of `--position FILE[:NODE]`; `Err` with the reason when the
/// file, game or node is not there.
fn position_board(position: &str, game: usize) -> Result<Result<Board, String>, CliError> {
    // The node is after the last `:`, when what follows it reads as one
    // (a path may hold a `:`).
    let (file, node) = match position.rsplit_once(':') {
        Some((file, node))
            if !node.is_empty() && node.bytes().all(|b| b.is_ascii_digit() || b == b'.') =>
        {
            (file, Some(node))
        }
        _ => (position, None),
    };
    let path = PathBuf::from(file);
    let name = display_name(&path).into_owned();
    let Some(mut input) = open_reporting(&path, &name)? else {
        return Ok(Err(format!("{name}: cannot read the position")));
    };
    let options = input_parse_options(false, None, input.decoded_from);
    let mut found: Option<Result<Board, String>> = None;
    parse_streaming(&mut input, options, &name, |coll, _| {
        for tree in coll.games() {
            if tree.index() == game && found.is_none() {
                found = Some(board_at(tree, node));
            }
        }
        Ok(())
    })?;
    Ok(found
        .unwrap_or_else(|| Err(format!("no game {game} in {name}")))
        .map_err(|why| format!("{name}: {why}")))
}

/// The position after `node` of `game` (see `--position`).
fn board_at(game: GameTree<'_, '_>, node: Option<&str>) -> Result<Board, String> {
    let target = match node {
        None => game.root().main_line().last().unwrap_or(game.root()),
        Some(path) if path.contains('.') => super::node_at_path(game, path, "node")?,
        Some(n) => {
            let want: usize = n.parse().map_err(|_| format!("bad move number {n}"))?;
            super::node_at_move(game, want)?
        }
    };
    let cursor = game
        .position_at(target, Default::default())
        .map_err(|e| format!("illegal {e}"))?;
    Ok(cursor.board().clone())
}

fn text(out: &mut impl Write, index: &Index, search: &Search, limit: usize) -> io::Result<()> {
    let shown = limited(search.hits.len(), limit);
    writeln!(
        out,
        "{} games, {} occurrences (of {} games in the index)",
        thousands(search.games),
        thousands(search.hits.len()),
        thousands(index.games())
    )?;
    for hit in &search.hits[..shown] {
        let g = index.game(hit.game)?;
        let next = hit.next.map_or_else(|| "-".to_owned(), |n| n.to_string());
        writeln!(
            out,
            "  {} game {}  move {}  {} - {}  {}  {}  next {}",
            g.origin,
            g.index,
            hit.move_number,
            or_dash(&g.black),
            or_dash(&g.white),
            or_dash(&g.date),
            or_dash(&g.result),
            next
        )?;
    }
    let rows = search
        .continuations
        .iter()
        .map(|c| (c.next.to_string(), c.count, c.black_wins, c.white_wins));
    table_end(out, search.hits.len(), shown, rows, limit, 8)
}

/// The end of a search's text: the line of hits `--limit` left out (of
/// `hits`, `shown` printed), then the continuation table (`rows`: next
/// move, count, Black's and White's wins), its move column `width` wide.
pub(super) fn table_end(
    out: &mut impl Write,
    hits: usize,
    shown: usize,
    rows: impl ExactSizeIterator<Item = (String, u64, u64, u64)>,
    limit: usize,
    width: usize,
) -> io::Result<()> {
    if shown < hits {
        writeln!(out, "  … {} more (--limit)", thousands(hits - shown))?;
    }
    let total = rows.len();
    if total == 0 {
        return Ok(());
    }
    writeln!(out, "next:  {:<width$} count  B wins  W wins", "move")?;
    let kept = limited(total, limit);
    for (next, count, black, white) in rows.take(kept) {
        writeln!(
            out,
            "       {next:<width$} {:>5}  {:>6}  {:>6}",
            thousands(count),
            thousands(black),
            thousands(white)
        )?;
    }
    if kept < total {
        writeln!(
            out,
            "       … {} more moves (--limit)",
            thousands(total - kept)
        )?;
    }
    Ok(())
}

/// How many of `len` items `--limit` shows (0: all).
pub(super) fn limited(len: usize, limit: usize) -> usize {
    if limit == 0 {
        len
    } else {
        limit.min(len)
    }
}

pub(super) fn or_dash(s: &str) -> &str {
    if s.is_empty() {
        "-"
    } else {
        s
    }
}

fn json(out: &mut impl Write, index: &Index, search: &Search, limit: usize) -> io::Result<()> {
    let found = search.hits[..limited(search.hits.len(), limit)]
        .iter()
        .map(|hit| {
            let g = index.game(hit.game)?;
            Ok(serde_json::json!({
                "source": g.origin,
                "game": g.index,
                "black": g.black,
                "white": g.white,
                "date": g.date,
                "result": g.result,
                "move": hit.move_number,
                "symmetry": hit.symmetry.name(),
                "next": hit.next.map(|n| n.to_string()),
            }))
        })
        .collect::<io::Result<Vec<_>>>()?;
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
        "games": search.games,
        "hits": search.hits.len(),
        "index_games": index.games(),
        "found": found,
        "continuations": continuations,
    });
    writeln!(out, "{line}")
}
