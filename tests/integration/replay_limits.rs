//! Replay in linear time and memory (`game::replay`, `sgf board`, `sgf
//! index build`): `back` restores exactly the position a fresh replay
//! gives, the limits of `ReplayOptions` stop a replay cleanly, and long,
//! illegal, deep, superko-heavy or setup-heavy generated games replay in
//! bounded memory (peak RSS of a child `sgf`, read from /proc) and time.
//!
//! The full-size targets (a million moves, a million-deep variation,
//! 100,000 full-board rectangles on 52×52) are `#[ignore]`d: run them on a
//! release build with
//! `cargo test --release --all-features --test integration replay_limits -- --ignored`.

use crate::common::TempDir;
use sgf_grove::game::board::{Board, RuleSet};
use sgf_grove::game::{Limit, ReplayError, ReplayOptions, TreeCursor};
use sgf_grove::value::{BoardSize, Color, Point};
use sgf_grove::Node;
use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A small deterministic generator (splitmix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn letter(n: usize) -> char {
    if n < 26 {
        (b'a' + n as u8) as char
    } else {
        (b'A' + (n - 26) as u8) as char
    }
}

fn sgf_point(p: Point) -> String {
    format!("{}{}", letter(p.x as usize), letter(p.y as usize))
}

fn colour(c: Color) -> &'static str {
    match c {
        Color::Black => "B",
        Color::White => "W",
    }
}

/// A random node: a move (legal or not), a pass, setup with points and
/// rectangles, `PL`, or nothing.
fn random_node(rng: &mut Rng, size: u8, out: &mut String) {
    let p = |rng: &mut Rng| Point {
        x: rng.below(size as usize) as u8,
        y: rng.below(size as usize) as u8,
    };
    out.push(';');
    match rng.below(12) {
        0 => {
            let (a, b) = (p(rng), p(rng));
            let ident = ["AB", "AW", "AE"][rng.below(3)];
            let _ = write!(
                out,
                "{ident}[{}:{}][{}]",
                sgf_point(a),
                sgf_point(b),
                sgf_point(p(rng))
            );
        }
        1 => out.push_str(["PL[B]", "PL[W]", "C[x]", "B[]"][rng.below(4)]),
        _ => {
            let c = [Color::Black, Color::White][rng.below(2)];
            let _ = write!(out, "{}[{}]", colour(c), sgf_point(p(rng)));
        }
    }
}

/// A random game tree of about `nodes` nodes with variations.
fn random_tree(rng: &mut Rng, size: u8, nodes: usize, rules: &str) -> String {
    let mut out = format!("(;SZ[{size}]RU[{rules}]");
    let mut open = 1;
    for _ in 0..nodes {
        match rng.below(10) {
            0 if open < 12 => {
                out.push('(');
                open += 1;
            }
            1 if open > 1 => {
                out.push(')');
                out.push('(');
            }
            _ => {}
        }
        random_node(rng, size, &mut out);
    }
    for _ in 0..open {
        out.push(')');
    }
    out
}

/// What a position is, as far as a replay can tell: every point, the
/// prisoners, the ko, who moves, the moves, the illegal moves, and the
/// legality of every move on the board (which shows the superko history).
fn state(cursor: &TreeCursor<'_, '_>) -> String {
    let board: &Board = cursor.board();
    let mut s = board.diagram();
    let _ = writeln!(
        s,
        "{:?} {:?} {:?} {} {} {:?} {}",
        board.captures(Color::Black),
        board.captures(Color::White),
        board.ko(),
        colour(cursor.to_play()),
        cursor.moves(),
        cursor.illegal(),
        cursor.illegal_count(),
    );
    let size = board.size();
    for y in 0..size.rows {
        for x in 0..size.cols {
            for c in [Color::Black, Color::White] {
                let _ = write!(s, "{:?}", board.check_play(c, Point { x, y }).err());
            }
        }
    }
    let _ = write!(s, "\n{:016x}", cursor.hash());
    s
}

/// Random walks (enter a random child, or go back) over generated trees
/// under every rule set: after every step the cursor equals a fresh replay
/// from the root to its node, going back included.
#[test]
fn back_restores_what_a_fresh_replay_gives() {
    let mut rng = Rng(7);
    let mut steps = 0;
    for round in 0..24 {
        let rules = ["Japanese", "Chinese", "AGA", "NZ", "Tromp-Taylor", "Ing"][round % 6];
        let size = [4, 5, 7][round % 3];
        let text = random_tree(&mut rng, size, 150, rules);
        let doc = sgf_grove::parse(text.as_bytes()).unwrap();
        let game = doc.games().next().unwrap();
        let mut cursor = game.cursor();
        for _ in 0..400 {
            let children: Vec<Node<'_, '_>> = cursor.node().children().collect();
            if children.is_empty() || rng.below(3) == 0 {
                cursor.back();
            } else {
                cursor.enter(children[rng.below(children.len())]).unwrap();
            }
            let fresh = game
                .position_at(cursor.node(), ReplayOptions::default())
                .unwrap();
            assert_eq!(state(&cursor), state(&fresh), "{text}");
            steps += 1;
        }
    }
    assert_eq!(steps, 24 * 400);
}

/// Each limit stops the cursor before the node that would pass it, with
/// the node's position, and leaves the cursor where it was; illegal moves
/// beyond `max_illegal` are counted, not kept.
#[test]
fn limits_stop_the_cursor_where_it_was() {
    let doc = sgf_grove::parse(b"(;SZ[9];B[aa];W[aa];B[aa];W[aa]\n;AB[aa:ii];B[ee])").unwrap();
    let game = doc.games().next().unwrap();
    let last = game.root().main_line().last().unwrap();

    let e = game
        .position_at(last, ReplayOptions::default().max_depth(4))
        .unwrap_err();
    let ReplayError::Limit(e) = e else {
        panic!("{e:?}")
    };
    assert_eq!((e.limit, e.max), (Limit::Depth, 4));

    let mut cursor = game
        .cursor_with(ReplayOptions::default().max_nodes(3))
        .unwrap();
    assert!(cursor.next().is_some());
    assert!(cursor.next().is_some());
    let before = state(&cursor);
    let child = cursor.node().first_child().unwrap();
    let Err(ReplayError::Limit(e)) = cursor.enter(child) else {
        panic!()
    };
    assert_eq!(e.limit, Limit::Nodes);
    assert_eq!(state(&cursor), before);
    // Going back does not give the nodes back.
    assert!(cursor.back());
    assert!(cursor.enter(cursor.node().first_child().unwrap()).is_err());

    // The setup of 81 points passes a limit of 50 stones changed.
    let mut cursor = game
        .cursor_with(ReplayOptions::default().max_changes(50))
        .unwrap();
    for _ in 0..4 {
        cursor.next().unwrap();
    }
    let before = state(&cursor);
    let Err(ReplayError::Limit(e)) = cursor.enter(cursor.node().first_child().unwrap()) else {
        panic!()
    };
    assert_eq!(
        (e.limit, e.position.map(|p| (p.line, p.column))),
        (Limit::Changes, Some((2, 1)))
    );
    assert_eq!(state(&cursor), before);

    let cursor = game
        .position_at(last, ReplayOptions::default().max_illegal(1))
        .unwrap();
    // W[aa], B[aa], W[aa] onto stones, then B[ee] onto the setup.
    assert_eq!(cursor.illegal().len(), 1);
    assert_eq!(cursor.illegal_count(), 4);
}

/// Setup over a chain splits and joins chains correctly: a rectangle of
/// black over a white wall, then points taken out of the middle, then a
/// capture that depends on the liberties the setup left.
#[test]
fn setup_rebuilds_the_chains_it_touches() {
    let mut b = Board::new(BoardSize::square(5), RuleSet::JAPANESE);
    let p = |x, y| Point { x, y };
    let rect = |from: Point, to: Point, c: Option<Color>| {
        (from.y..=to.y).flat_map(move |y| (from.x..=to.x).map(move |x| (p(x, y), c)))
    };
    b.setup(rect(p(0, 0), p(4, 0), Some(Color::White)));
    b.setup(rect(p(0, 0), p(4, 1), Some(Color::Black)));
    // Cut the black block in two, and put a white stone in the corner.
    b.setup([
        (p(2, 0), None),
        (p(2, 1), None),
        (p(0, 0), Some(Color::White)),
    ]);
    assert_eq!(b.get(p(0, 0)), Some(Color::White));
    // The white corner stone is in atari (b1 black at (1, 0), (0, 1)).
    b.play(Color::Black, p(4, 4)).unwrap();
    assert_eq!(b.captures(Color::Black), 0);
    // The right black block (3..4, 0..1) has liberties (2, 0), (2, 1),
    // (3, 2), (4, 2): White takes three, Black's block lives until the
    // fourth.
    for at in [p(2, 0), p(2, 1), p(3, 2)] {
        b.play(Color::White, at).unwrap();
    }
    assert_eq!(b.get(p(3, 0)), Some(Color::Black));
    b.play(Color::White, p(4, 2)).unwrap();
    assert_eq!(b.get(p(3, 0)), None, "{b:?}");
    assert_eq!(b.captures(Color::White), 4);
}

/// Writes a game of `moves` random legal moves under `rules` (a pass when
/// ten tries find none), on a `size` board.
fn legal_game(size: u8, moves: usize, rules: RuleSet, ru: &str, seed: u64) -> String {
    let mut rng = Rng(seed);
    let mut board = Board::new(BoardSize::square(size), rules);
    let mut out = String::with_capacity(moves * 6 + 32);
    let _ = write!(out, "(;SZ[{size}]RU[{ru}]");
    let mut c = Color::Black;
    for _ in 0..moves {
        let mut played = false;
        for _ in 0..10 {
            let at = Point {
                x: rng.below(size as usize) as u8,
                y: rng.below(size as usize) as u8,
            };
            if board.play(c, at).is_ok() {
                let _ = write!(out, ";{}[{}]", colour(c), sgf_point(at));
                played = true;
                break;
            }
        }
        if !played {
            board.pass(c);
            let _ = write!(out, ";{}[]", colour(c));
        }
        c = c.opponent();
    }
    out.push(')');
    out
}

/// `moves` moves on one point: the first legal, every other one onto a
/// stone (illegal, played as setup).
fn illegal_game(moves: usize) -> String {
    let mut out = String::from("(;SZ[19]");
    for k in 0..moves {
        out.push_str(if k % 2 == 0 { ";B[dd]" } else { ";W[dd]" });
    }
    out.push(')');
    out
}

/// `nodes` setup nodes each covering the whole 52×52 board, black and
/// white in turn when `alternate`.
fn rectangles(nodes: usize, alternate: bool) -> String {
    let mut out = String::from("(;SZ[52]");
    for k in 0..nodes {
        out.push_str(if alternate && k % 2 == 1 {
            ";AW[aa:ZZ]"
        } else {
            ";AB[aa:ZZ]"
        });
    }
    out.push(')');
    out
}

/// A game whose every move is a variation of its own, nested `depth`
/// deep: `(;B[..](;W[..](…)))`.
fn deep_variation(depth: usize) -> String {
    let line = legal_game(9, depth, RuleSet::JAPANESE, "Japanese", 3);
    let mut out = String::with_capacity(line.len() + depth * 2);
    let mut open = 0;
    for node in line[2..line.len() - 1].split(';') {
        out.push_str("(;");
        out.push_str(node);
        open += 1;
    }
    for _ in 0..open {
        out.push(')');
    }
    out
}

/// What a run of `sgf` gave.
struct Run {
    ok: bool,
    stdout: String,
    stderr: String,
    peak_mib: u64,
    seconds: f64,
}

/// The kilobytes of `VmHWM` (peak resident memory) of process `pid`.
fn peak_kib_of(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Runs `sgf args…` in `dir`, watching its peak memory every 10 ms.
fn run(dir: &Path, args: &[&str]) -> Run {
    let (out, err) = (dir.join("out"), dir.join("err"));
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sgf"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let mut peak = 0;
    let status = loop {
        if let Some(kib) = peak_kib_of(child.id()) {
            peak = peak.max(kib);
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(900) {
            let _ = child.kill();
            panic!("sgf {args:?} still running after 15 minutes");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Run {
        ok: status.success(),
        stdout: std::fs::read_to_string(out).unwrap(),
        stderr: std::fs::read_to_string(err).unwrap(),
        peak_mib: peak / 1024,
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// `sgf board --end` and `sgf index build` (with `--variations` when
/// asked) of `text`: both succeed within `max_mib` of peak memory and
/// `max_seconds` each; returns the board's output.
fn replays_within(
    name: &str,
    text: &str,
    variations: bool,
    max_mib: u64,
    max_seconds: f64,
) -> String {
    let dir = TempDir::new(name);
    std::fs::write(dir.0.join("g.sgf"), text).unwrap();
    let board = run(&dir.0, &["board", "g.sgf", "--end", "--format", "json"]);
    assert!(board.ok, "board: {}", board.stderr);
    let mut args = vec!["index", "build", "--out", "ix", "--quiet", "g.sgf"];
    if variations {
        args.push("--variations");
    }
    let index = run(&dir.0, &args);
    assert!(index.ok, "index: {}", index.stderr);
    eprintln!(
        "{name}: {} bytes; board {:.2} s {} MiB; index {:.2} s {} MiB",
        text.len(),
        board.seconds,
        board.peak_mib,
        index.seconds,
        index.peak_mib
    );
    for (what, r) in [("board", &board), ("index build", &index)] {
        assert!(
            r.peak_mib < max_mib,
            "{name}: {what} peaked at {} MiB",
            r.peak_mib
        );
        assert!(
            r.seconds < max_seconds,
            "{name}: {what} took {:.1} s",
            r.seconds
        );
    }
    board.stdout
}

/// The JSON of `sgf board`'s output.
fn json(out: &str) -> serde_json::Value {
    serde_json::from_str(out).unwrap()
}

// Sizes small enough for a debug build in CI; memory that was quadratic in
// them before (about 200 MB and more) stays in a few dozen MB now.

#[test]
fn illegal_moves_replay_in_bounded_memory() {
    let out = replays_within("illegal", &illegal_game(30_000), false, 128, 60.0);
    let v = json(&out);
    assert_eq!(v["illegal_count"], 29_999);
    assert_eq!(v["illegal"].as_array().unwrap().len(), 10_000);
}

#[test]
fn long_legal_game_replays_in_bounded_memory() {
    let out = replays_within(
        "legal",
        &legal_game(9, 100_000, RuleSet::JAPANESE, "Japanese", 1),
        false,
        128,
        60.0,
    );
    assert_eq!(json(&out)["illegal_count"], 0);
}

#[test]
fn superko_game_replays_in_bounded_memory() {
    let out = replays_within(
        "chinese",
        &legal_game(19, 20_000, RuleSet::CHINESE, "Chinese", 2),
        false,
        128,
        60.0,
    );
    assert_eq!(json(&out)["illegal_count"], 0);
}

#[test]
fn full_board_rectangles_cost_what_their_changes_cost() {
    // The same rectangle again changes nothing; black and white in turn
    // change every point each node.
    let out = replays_within("rect-same", &rectangles(2_000, false), false, 128, 60.0);
    assert_eq!(json(&out)["black"].as_array().unwrap().len(), 52 * 52);
    let out = replays_within("rect-alt", &rectangles(200, true), false, 128, 60.0);
    assert_eq!(
        json(&out)["white"].as_array().unwrap().len(),
        52 * 52,
        "the last is AW"
    );
}

#[test]
fn deep_variation_replays_in_bounded_memory() {
    replays_within("deep", &deep_variation(50_000), true, 128, 60.0);
}

/// Over a limit, `sgf board` fails with the reason and `sgf index build`
/// skips that game, indexes the others and counts the skip.
#[test]
fn cli_limits_fail_board_and_skip_in_index() {
    let dir = TempDir::new("limits");
    std::fs::write(dir.0.join("long.sgf"), illegal_game(50)).unwrap();
    std::fs::write(dir.0.join("short.sgf"), illegal_game(5)).unwrap();
    let board = run(&dir.0, &["board", "long.sgf", "--max-depth", "20"]);
    assert!(!board.ok);
    assert!(board.stdout.is_empty());
    assert!(
        board
            .stderr
            .contains("replay limit: more than 20 nodes in one line"),
        "{}",
        board.stderr
    );
    let board = run(&dir.0, &["board", "long.sgf", "--max-illegal", "2"]);
    assert!(board.ok, "{}", board.stderr);
    assert!(
        board.stdout.contains("illegal: 47 more, not listed"),
        "{}",
        board.stdout
    );

    let index = run(
        &dir.0,
        &[
            "index",
            "build",
            "--out",
            "ix",
            "--max-nodes",
            "20",
            "long.sgf",
            "short.sgf",
        ],
    );
    assert!(!index.ok);
    assert!(
        index
            .stderr
            .contains("long.sgf game 0: skipped: replay limit"),
        "{}",
        index.stderr
    );
    assert!(
        index
            .stderr
            .contains("1 games skipped at a replay limit (nodes: 1)"),
        "{}",
        index.stderr
    );
    let info = run(&dir.0, &["index", "info", "ix"]);
    assert!(info.stdout.contains("games: 1\n"), "{}", info.stdout);
}

// The full-size targets (release build).

#[test]
#[ignore = "a million moves: minutes in a debug build; run on a release build"]
fn million_legal_moves_in_under_a_gigabyte_and_ten_seconds() {
    replays_within(
        "legal-1m",
        &legal_game(9, 1_000_000, RuleSet::JAPANESE, "Japanese", 1),
        false,
        1024,
        10.0,
    );
}

#[test]
#[ignore = "100,000 illegal moves: slow in a debug build; run on a release build"]
fn hundred_thousand_illegal_moves_in_under_a_gigabyte_and_ten_seconds() {
    let out = replays_within("illegal-100k", &illegal_game(100_001), false, 1024, 10.0);
    assert_eq!(json(&out)["illegal_count"], 100_000);
}

#[test]
#[ignore = "270 million setup points: slow in a debug build; run on a release build"]
fn hundred_thousand_full_board_rectangles_in_ten_seconds() {
    replays_within("rect-100k", &rectangles(100_000, false), false, 1024, 10.0);
}

#[test]
#[ignore = "a million-deep variation: slow in a debug build; run on a release build"]
fn million_deep_variation_in_bounded_memory() {
    replays_within("deep-1m", &deep_variation(1_000_000), true, 1024, 30.0);
}

#[test]
#[ignore = "80,000 moves under positional superko: slow in a debug build"]
fn eighty_thousand_chinese_moves_in_bounded_memory() {
    let out = replays_within(
        "chinese-80k",
        &legal_game(19, 80_000, RuleSet::CHINESE, "Chinese", 2),
        false,
        1024,
        10.0,
    );
    assert_eq!(json(&out)["illegal_count"], 0);
}
