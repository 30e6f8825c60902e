//! `sgf board FILE`: the position of a game at one of its nodes, replayed
//! by [`sgf_grove::game::Cursor`], as a diagram or as JSON:
//!
//! ```text
//! {"size": [cols, rows], "to_play": "B" | "W",
//!  "black": [[x, y], …], "white": [[x, y], …],
//!  "captures": {"B": n, "W": n}, "ko": [x, y] | null, "hash": "16 hex digits",
//!  "illegal": [{"move": n, "reason": "occupied", "line": l, "column": c}, …],
//!  "illegal_count": n}
//! ```
//!
//! Points are 0-based, `x` from the left, `y` from the top; `captures` are
//! the prisoners each colour took; `hash` is the Zobrist hash of the stones
//! with the player to move; `illegal` lists the illegal moves met on the
//! way from the root (reported, not fatal, unless `--strict`), the first
//! `--max-illegal` of them, and `illegal_count` how many there were.
//!
//! A replay that reaches a limit (`--max-nodes`, `--max-depth`,
//! `--max-changes`) prints nothing on standard output, says which on
//! standard error and exits with status 1.
//!
//! The diagram has the SGF letters of each column and row around it, `X`
//! for black and `O` for white, the last move in brackets.

use super::{display_name, input_parse_options, open_reporting, parse_streaming, CliError, Status};
use crate::args::{BoardArgs, BoardFormat};
use sgf_grove::game::board::{Board, RuleSet};
use sgf_grove::game::{Cursor, ReplayError, ReplayOptions, Rules};
use sgf_grove::value::{Color, Point};
use sgf_grove::{GameTree, Node};
use std::fmt::Write as _;
use std::io::{self, Write};

/// Runs `sgf board`.
///
/// # Errors
///
/// An unreadable input, or a failed write to standard output.
pub fn run(args: &BoardArgs) -> Result<Status, CliError> {
    let name = display_name(&args.file);
    let Some(mut input) = open_reporting(&args.file, &name)? else {
        return Ok(Status::Failed);
    };
    let options = input_parse_options(false, None, input.decoded_from);
    let mut printed: Option<Result<String, String>> = None;
    let status = parse_streaming(&mut input, options, &name, |coll, _| {
        for game in coll.games() {
            if game.index() == args.game && printed.is_none() {
                printed = Some(position(game, args));
            }
        }
        Ok(())
    })?;
    let outcome = printed.unwrap_or_else(|| Err(format!("no game {} in the file", args.game)));
    match outcome {
        Ok(text) => {
            let mut out = io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()?;
            Ok(status)
        }
        Err(why) => {
            eprintln!("{name}: error: {why}");
            Ok(Status::Failed)
        }
    }
}

/// The position asked for, printed; `Err` with a reason when the node does
/// not exist or a strict replay meets an illegal move.
fn position(game: GameTree<'_, '_>, args: &BoardArgs) -> Result<String, String> {
    let node = find_node(game, args)?;
    let mut options = args
        .limits
        .apply(ReplayOptions::default())
        .strict(args.strict);
    if let Some(rules) = &args.rules {
        options = options.rules(RuleSet::for_rules(&Rules::parse(rules)));
    }
    let cursor = game.position_at(node, options).map_err(|e| match e {
        ReplayError::Illegal(e) => format!("illegal {e}"),
        e => e.to_string(),
    })?;
    Ok(match args.format {
        BoardFormat::Text => diagram(&cursor),
        BoardFormat::Json => json(&cursor),
    })
}

/// The node that `--node`, `--move` or `--end` names.
fn find_node<'t, 'src>(
    game: GameTree<'t, 'src>,
    args: &BoardArgs,
) -> Result<Node<'t, 'src>, String> {
    if let Some(path) = &args.node {
        return super::node_at_path(game, path, "--node");
    }
    let mut node = game.root();
    let mut moves = 0;
    if let Some(want) = args.move_number.filter(|_| !args.end) {
        while moves < want {
            node = node
                .first_child()
                .ok_or_else(|| format!("the main line has {moves} moves, not {want}"))?;
            if matches!(node.played(), Ok(Some(_)) | Err(_)) {
                moves += 1;
            }
        }
        return Ok(node);
    }
    Ok(node.main_line().last().unwrap_or(node))
}

/// The last move played to reach the cursor's node, if that node has one.
fn last_move(cursor: &Cursor<'_, '_>) -> Option<Point> {
    match cursor.node().played() {
        Ok(Some((_, sgf_grove::value::Move::Play(p)))) => Some(p),
        _ => None,
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "B",
        Color::White => "W",
    }
}

fn letter(n: u8) -> char {
    match n {
        0..=25 => (b'a' + n) as char,
        _ => (b'A' + n - 26) as char,
    }
}

fn diagram(cursor: &Cursor<'_, '_>) -> String {
    let board: &Board = cursor.board();
    let size = board.size();
    let last = last_move(cursor);
    let mut out = String::from("   ");
    for x in 0..size.cols {
        let _ = write!(out, " {}", letter(x));
    }
    out.push('\n');
    for y in 0..size.rows {
        let _ = write!(out, " {} ", letter(y));
        for x in 0..size.cols {
            let p = Point { x, y };
            let stone = match board.get(p) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => '.',
            };
            if last == Some(p) {
                out.pop();
                let _ = write!(out, "[{stone}]");
            } else {
                let _ = write!(out, "{stone} ");
            }
        }
        let trimmed = out.trim_end_matches(' ').len();
        out.truncate(trimmed);
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "{} to play, move {}; captures B {} W {}{}",
        color_name(cursor.to_play()),
        cursor.moves(),
        board.captures(Color::Black),
        board.captures(Color::White),
        board.ko().map_or(String::new(), |k| format!("; ko at {k}"))
    );
    for e in cursor.illegal() {
        let _ = writeln!(out, "illegal: {e}");
    }
    let more = cursor.illegal_count() - cursor.illegal().len();
    if more > 0 {
        let _ = writeln!(out, "illegal: {more} more, not listed (--max-illegal)");
    }
    out
}

fn json(cursor: &Cursor<'_, '_>) -> String {
    let board = cursor.board();
    let points = |c| {
        board
            .stones(c)
            .map(|p| serde_json::json!([p.x, p.y]))
            .collect::<Vec<_>>()
    };
    let value = serde_json::json!({
        "size": [board.size().cols, board.size().rows],
        "to_play": color_name(cursor.to_play()),
        "black": points(Color::Black),
        "white": points(Color::White),
        "captures": {"B": board.captures(Color::Black), "W": board.captures(Color::White)},
        "ko": board.ko().map(|k| [k.x, k.y]),
        "hash": format!("{:016x}", cursor.hash()),
        "illegal": cursor.illegal().iter().map(|e| serde_json::json!({
            "move": e.move_number,
            "reason": e.reason.name(),
            "line": e.position.line,
            "column": e.position.column,
        })).collect::<Vec<_>>(),
        "illegal_count": cursor.illegal_count(),
    });
    format!("{value}\n")
}
