//! `sgf board PATH... [--game N]`: the position of a game at one of its nodes, replayed
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
//! The diagram has `X` for black and `O` for white, the last move in
//! brackets, `+` on the empty star points (the rule is in `sgf board
//! --help`), and around it Go coordinates (columns `A`–`T` without `I`,
//! past `Z` two letters `AA`, `AB`, …; rows numbered from the bottom) or,
//! with `--coords sgf`, the SGF letters of each column and row:
//!
//! ```text
//!    A B C D E F G H J
//!  9 . . . . . . . . .
//!  8 . . . . . . . . .
//!  7 .[O]X O X . + . .
//! ```

use super::{CliError, Status};
use crate::args::{BoardArgs, BoardFormat, Coords};
use crate::messages::Messages;
use crate::name::origin_name;
use crate::scan::ScanArgs;
use sgf_grove::game::board::{Board, RuleSet};
use sgf_grove::game::{ReplayError, ReplayOptions, Rules, TreeCursor};
use sgf_grove::input::Origin;
use sgf_grove::value::{Color, Point};
use sgf_grove::{GameTree, Node};
use std::fmt::Write as _;
use std::io::{self, Write};

/// Runs `sgf board`: reads the inputs in order (one game at a time) up to
/// the `--game`-th game of them all and prints its position.
///
/// # Errors
///
/// A failed write to standard output.
pub fn run(args: &BoardArgs) -> Result<Status, CliError> {
    let (name, outcome, within) = nth_game(&args.scan, args.game, "board", |tree, _| {
        position(tree, args)
    });
    match outcome {
        Ok(text) => {
            let mut out = io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()?;
            Ok(if within { Status::Ok } else { Status::Failed })
        }
        Err(why) => {
            let _ = writeln!(io::stderr(), "{name}: error: {why}");
            Ok(Status::Failed)
        }
    }
}

/// The `index`-th game of all the inputs, read in order one game at a time
/// (as `sgf board` and `sgf diagram` read them), given to `make` with its
/// input's name. Warnings and failed inputs are printed on the way, the
/// failure summary of `command` after. Returns the input's name, what
/// `make` made (or why there is no such game), and whether the failures
/// are within `--max-failures`.
pub(super) fn nth_game<T>(
    scan: &ScanArgs,
    index: usize,
    command: &str,
    mut make: impl FnMut(GameTree<'_, '_>, &str) -> Result<T, String>,
) -> (String, Result<T, String>, bool) {
    let mut messages = Messages::new(scan.max_messages);
    let mut err_out = io::stderr().lock();
    let mut seen = 0usize;
    let (mut inputs, mut failed) = (0u64, 0u64);
    let mut last: Option<Origin> = None;
    let mut last_failed = false;
    // Counts a new input when the origin changes.
    let mut reasons = super::Failures::default();
    let mut enter =
        |origin: &Origin, fails: Option<&'static str>, inputs: &mut u64, failed: &mut u64| {
            if last.as_ref() != Some(origin) {
                last = Some(origin.clone());
                last_failed = false;
                *inputs += 1;
            }
            if let Some(code) = fails.filter(|_| !last_failed) {
                last_failed = true;
                *failed += 1;
                reasons.add(code);
            }
        };
    let scanned = scan.inputs().scan_games(scan.options(), |game| {
        let game = match game {
            Ok(game) => game,
            Err(err) => {
                let code = err
                    .parse_error()
                    .map_or(err.kind().code(), |e| e.kind().code());
                enter(err.origin(), Some(code), &mut inputs, &mut failed);
                let text = format!("{}: error[{code}]: {err}", origin_name(err.origin()));
                messages.print(&mut err_out, code, &text);
                return Ok(());
            }
        };
        enter(game.origin(), None, &mut inputs, &mut failed);
        let name = origin_name(game.origin());
        if !scan.quiet {
            for w in game.collection().warnings() {
                let text = format!(
                    "{name}:{}:{}: warning[{}]: {}",
                    w.pos.line,
                    w.pos.column,
                    w.kind.code(),
                    w.kind.message()
                );
                messages.print(&mut err_out, w.kind.code(), &text);
            }
        }
        for tree in game.collection().games() {
            if seen == index {
                let made = make(tree, &name);
                return Err((name, made));
            }
            seen += 1;
        }
        Ok(())
    });
    let _ = messages.write_note(&mut err_out);
    let (name, outcome) = match scanned {
        Err(found) => found,
        Ok(_) => {
            let why = format!("no game {index} in the inputs (they hold {seen} games)");
            (format!("sgf {command}"), Err(why))
        }
    };
    let said = scan.max_failures.is_some() || inputs > 1;
    if let Some(line) = scan
        .max_failures()
        .summary(command, failed, inputs, &reasons.reasons())
        .filter(|_| said)
    {
        let _ = writeln!(err_out, "{line}");
    }
    (name, outcome, scan.max_failures().allows(failed, inputs))
}

/// The position asked for, printed; `Err` with a reason when the node does
/// not exist or a strict replay meets an illegal move.
fn position(game: GameTree<'_, '_>, args: &BoardArgs) -> Result<String, String> {
    let node = find_node(game, args)?;
    let mut options = args
        .limits
        .apply(ReplayOptions::default())
        .strict(args.scan.strict);
    if let Some(rules) = &args.rules {
        options = options.rules(RuleSet::for_rules(&Rules::parse(rules)));
    }
    let cursor = game.position_at(node, options).map_err(|e| match e {
        ReplayError::Illegal(e) => format!("illegal {e}"),
        e => e.to_string(),
    })?;
    Ok(match args.format {
        BoardFormat::Text => diagram(&cursor, args.coords),
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
    if let Some(want) = args.move_number.filter(|_| !args.end) {
        return super::node_at_move(game, want);
    }
    let node = game.root();
    Ok(node.main_line().last().unwrap_or(node))
}

/// The last move played to reach the cursor's node, if that node has one.
fn last_move(cursor: &TreeCursor<'_, '_>) -> Option<Point> {
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

/// The SGF letter of a column or row (`a`–`z`, then `A`–`Z`).
fn letter(n: u8) -> char {
    match n {
        0..=25 => (b'a' + n) as char,
        _ => (b'A' + n - 26) as char,
    }
}

/// The 25 column letters of Go coordinates: `A`–`Z` without `I`.
const GO_COLUMNS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// The Go coordinate of column `x`: `A`–`Z` without `I`, then two letters
/// (`AA`, `AB`, …, `AZ`, `BA`, …) still without `I`.
fn go_column(x: u8) -> String {
    let x = usize::from(x);
    if x < GO_COLUMNS.len() {
        return char::from(GO_COLUMNS[x]).to_string();
    }
    let x = x - GO_COLUMNS.len();
    let n = GO_COLUMNS.len();
    [GO_COLUMNS[(x / n) % n], GO_COLUMNS[x % n]]
        .iter()
        .map(|&b| char::from(b))
        .collect()
}

/// How a point is named in the diagram's lines (the ko).
fn point_name(p: Point, rows: u8, coords: Coords) -> String {
    match coords {
        Coords::Sgf => p.to_string(),
        Coords::Go => format!("{}{}", go_column(p.x), rows - p.y),
    }
}

/// The star lines of one side of `n` points: the third line from each edge
/// below 13, the fourth from 13 up, none below 7; the middle line (odd
/// sides only) apart.
fn star_lines(n: u8) -> Option<([u8; 2], Option<u8>)> {
    if n < 7 {
        return None;
    }
    let d = if n < 13 { 2 } else { 3 };
    Some(([d, n - 1 - d], (n % 2 == 1).then_some(n / 2)))
}

/// Whether `p` is a star point of a board of `cols` × `rows` (see `sgf
/// board --help`).
fn is_star(p: Point, cols: u8, rows: u8) -> bool {
    let (Some((xs, xm)), Some((ys, ym))) = (star_lines(cols), star_lines(rows)) else {
        return false;
    };
    let on_x = xs.contains(&p.x);
    let on_y = ys.contains(&p.y);
    if on_x && on_y {
        return true;
    }
    let (Some(xm), Some(ym)) = (xm, ym) else {
        return false;
    };
    let sides = cols >= 15 && rows >= 15;
    (p.x == xm && p.y == ym) || (sides && ((p.x == xm && on_y) || (on_x && p.y == ym)))
}

fn diagram(cursor: &TreeCursor<'_, '_>, coords: Coords) -> String {
    let board: &Board = cursor.board();
    let size = board.size();
    let last = last_move(cursor);
    let col_label = |x: u8| match coords {
        Coords::Go => go_column(x),
        Coords::Sgf => letter(x).to_string(),
    };
    let row_label = |y: u8| match coords {
        Coords::Go => (size.rows - y).to_string(),
        Coords::Sgf => letter(y).to_string(),
    };
    // Every cell as wide as the widest column label, every row label as
    // wide as the widest row label.
    let cell = (0..size.cols)
        .map(|x| col_label(x).len())
        .max()
        .unwrap_or(1);
    let margin = (0..size.rows)
        .map(|y| row_label(y).len())
        .max()
        .unwrap_or(1);
    let mut out = " ".repeat(margin + 1);
    for x in 0..size.cols {
        let _ = write!(out, " {:>cell$}", col_label(x));
    }
    out.push('\n');
    for y in 0..size.rows {
        let _ = write!(out, " {:>margin$} ", row_label(y));
        for x in 0..size.cols {
            let p = Point { x, y };
            let stone = match board.get(p) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None if is_star(p, size.cols, size.rows) => '+',
                None => '.',
            };
            if last == Some(p) {
                out.pop();
                let _ = write!(out, "[{stone:>cell$}]");
            } else {
                let _ = write!(out, "{stone:>cell$} ");
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
        board.ko().map_or(String::new(), |k| format!(
            "; ko at {}",
            point_name(k, size.rows, coords)
        ))
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

fn json(cursor: &TreeCursor<'_, '_>) -> String {
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
            "line": e.position.map(|p| p.line),
            "column": e.position.map(|p| p.column),
        })).collect::<Vec<_>>(),
        "illegal_count": cursor.illegal_count(),
    });
    format!("{value}\n")
}
