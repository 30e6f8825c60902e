//! `sgf tree`: the opening tree's counts against counts made directly from
//! the games (generated, and a slice of the real corpus), the symmetry,
//! the cut, the SGF and JSON outputs agreeing, and its memory on a million
//! distinct games.

use super::common::{self, TempDir};
use sgf_grove::game::signature::{MoveSequence, SeqMove};
use sgf_grove::game::Symmetry;
use sgf_grove::value::{BoardSize, Color, Point};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// A generated game: moves, winner (`None`: a draw) and date.
struct Game {
    moves: Vec<SeqMove>,
    winner: Option<Color>,
    date: String,
}

impl Game {
    fn sgf(&self) -> String {
        let re = match self.winner {
            Some(Color::Black) => "B+R",
            Some(Color::White) => "W+1.5",
            None => "0",
        };
        let mut s = format!("(;GM[1]FF[4]SZ[19]RE[{re}]DT[{}]", self.date);
        for &(c, p) in &self.moves {
            let c = if c == Color::Black { 'B' } else { 'W' };
            let p = p.map_or(String::new(), |p| p.to_string());
            s.push_str(&format!(";{c}[{p}]"));
        }
        s.push_str(")\n");
        s
    }
}

/// `n` games whose openings share a few common starts (so the tree
/// branches and merges), then random moves; some passes.
fn games(n: usize, seed: u64) -> Vec<Game> {
    let mut rng = Lcg(seed);
    let corners = [(15u8, 3u8), (3, 3), (16, 3), (15, 2), (2, 15), (9, 9)];
    (0..n)
        .map(|_| {
            let len = 1 + rng.next(30) as usize;
            let mut moves = Vec::new();
            let mut color = Color::Black;
            for i in 0..len {
                let p = if i < 4 && rng.next(4) != 0 {
                    let (x, y) = corners[rng.next(corners.len() as u64) as usize];
                    Some(Point { x, y })
                } else if rng.next(25) == 0 {
                    None
                } else {
                    Some(Point {
                        x: rng.next(19) as u8,
                        y: rng.next(19) as u8,
                    })
                };
                moves.push((color, p));
                color = color.opponent();
            }
            let winner = match rng.next(5) {
                0 => None,
                1 | 2 => Some(Color::Black),
                _ => Some(Color::White),
            };
            let date = format!(
                "{}-{:02}-{:02}",
                1990 + rng.next(30),
                1 + rng.next(12),
                1 + rng.next(28)
            );
            Game {
                moves,
                winner,
                date,
            }
        })
        .collect()
}

/// The JSON Lines of `sgf tree … --json`.
fn tree_json(dir: &Path, args: &[&str]) -> Vec<serde_json::Value> {
    let mut all = vec!["tree", "-q", "--json"];
    all.extend_from_slice(args);
    let out = common::sgf(dir, &all);
    assert!(out.status.success(), "{}", common::stderr(&out));
    common::stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Per first move: games, black wins, white wins, earliest and latest date.
type FirstMoves = BTreeMap<String, (u64, u64, u64, String, String)>;

fn first_moves_direct(games: &[Game], depth: usize, turn: bool) -> FirstMoves {
    let mut out = FirstMoves::new();
    for g in games {
        let line: Vec<SeqMove> = g.moves.iter().copied().take(depth).collect();
        let line = if turn {
            MoveSequence::canonical(&[], &line, BoardSize::square(19)).moves
        } else {
            line
        };
        let (c, p) = line[0];
        let key = format!(
            "{}[{}]",
            if c == Color::Black { 'B' } else { 'W' },
            p.map_or(String::new(), |p| p.to_string())
        );
        let e = out
            .entry(key)
            .or_insert((0, 0, 0, "9999".to_string(), "0000".to_string()));
        e.0 += 1;
        e.1 += u64::from(g.winner == Some(Color::Black));
        e.2 += u64::from(g.winner == Some(Color::White));
        if g.date < e.3 {
            e.3 = g.date.clone();
        }
        if g.date > e.4 {
            e.4 = g.date.clone();
        }
    }
    out
}

fn first_moves_of_tree(nodes: &[serde_json::Value], game: u64) -> FirstMoves {
    nodes
        .iter()
        .filter(|n| n["game"] == game && n["path"].as_str().unwrap().split('.').count() == 1)
        .filter(|n| n["path"] != "")
        .map(|n| {
            assert_eq!(n["games"], n["games_max"], "exact: no pruning here");
            (
                n["move"].as_str().unwrap().to_string(),
                (
                    n["games"].as_u64().unwrap(),
                    n["black_wins"].as_u64().unwrap(),
                    n["white_wins"].as_u64().unwrap(),
                    n["first_date"].as_str().unwrap_or("").to_string(),
                    n["last_date"].as_str().unwrap_or("").to_string(),
                ),
            )
        })
        .collect()
}

fn write_games(dir: &Path, name: &str, games: &[Game]) {
    let text: String = games.iter().map(Game::sgf).collect();
    std::fs::write(dir.join(name), text).unwrap();
}

#[test]
fn tree_first_moves_wins_and_dates_equal_direct_counts() {
    let dir = TempDir::new("tree-counts");
    let games = games(3000, 1);
    write_games(&dir.0, "g.sgf", &games);
    let nodes = tree_json(&dir.0, &["g.sgf"]);
    let root = &nodes[0];
    assert_eq!(root["path"], "");
    assert_eq!(root["games"], 3000);
    assert_eq!(root["size"], serde_json::json!([19, 19]));
    let direct = first_moves_direct(&games, 20, false);
    assert_eq!(first_moves_of_tree(&nodes, 0), direct);
    // Every node's children hold at most its games (games end), and the
    // wins and other results add up.
    let by_path: HashMap<String, &serde_json::Value> = nodes
        .iter()
        .map(|n| (n["path"].as_str().unwrap().to_string(), n))
        .collect();
    for n in &nodes {
        let games = n["games"].as_u64().unwrap();
        let sum = n["black_wins"].as_u64().unwrap()
            + n["white_wins"].as_u64().unwrap()
            + n["other"].as_u64().unwrap();
        assert_eq!(sum, games);
        let path = n["path"].as_str().unwrap();
        if let Some((parent, _)) = path.rsplit_once('.') {
            assert!(by_path[parent]["games"].as_u64().unwrap() >= games);
        }
        assert!(path.split('.').count() <= 20);
    }
    // The longest lines reach depth 20 and no further.
    assert!(nodes
        .iter()
        .any(|n| n["path"].as_str().unwrap().split('.').count() == 20));
    // A shallower tree has the same first moves.
    let shallow = tree_json(&dir.0, &["--depth", "3", "g.sgf"]);
    assert_eq!(first_moves_of_tree(&shallow, 0), direct);
    assert!(shallow
        .iter()
        .all(|n| n["path"].as_str().unwrap().split('.').count() <= 3));
}

#[test]
fn tree_symmetry_joins_turned_copies_on_canonical_first_moves() {
    let dir = TempDir::new("tree-symmetry");
    let games = games(2000, 2);
    let size = BoardSize::square(19);
    // Each game drawn in one of the 8 orientations.
    let mut rng = Lcg(99);
    let turned: Vec<Game> = games
        .iter()
        .map(|g| {
            let s = Symmetry::ALL[rng.next(8) as usize];
            Game {
                moves: g
                    .moves
                    .iter()
                    .map(|&(c, p)| (c, p.map(|p| s.apply(p, size))))
                    .collect(),
                winner: g.winner,
                date: g.date.clone(),
            }
        })
        .collect();
    write_games(&dir.0, "plain.sgf", &games);
    write_games(&dir.0, "turned.sgf", &turned);
    let plain = tree_json(&dir.0, &["--symmetry", "plain.sgf"]);
    let turned_tree = tree_json(&dir.0, &["--symmetry", "turned.sgf"]);
    // The same tree, node for node, whatever the orientation drawn.
    assert_eq!(plain, turned_tree);
    assert_eq!(
        first_moves_of_tree(&plain, 0),
        first_moves_direct(&turned, 20, true)
    );
    // Canonical first moves lie in one eighth of the board.
    let unturned = tree_json(&dir.0, &["turned.sgf"]);
    assert!(first_moves_of_tree(&plain, 0).len() < first_moves_of_tree(&unturned, 0).len());
}

#[test]
fn tree_min_games_cuts_and_sgf_agrees_with_json() {
    let dir = TempDir::new("tree-cut");
    let games = games(1500, 3);
    write_games(&dir.0, "g.sgf", &games);
    let all = tree_json(&dir.0, &["g.sgf"]);
    let cut = tree_json(&dir.0, &["--min-games", "5", "g.sgf"]);
    assert!(cut.len() < all.len());
    assert!(cut.iter().all(|n| n["games"].as_u64().unwrap() >= 5));
    // The nodes kept are exactly those of 5 games or more whose ancestors
    // are too (the moves along the path identify a node).
    let moves_of = |nodes: &[serde_json::Value]| -> Vec<(String, u64)> {
        let by_path: HashMap<&str, &serde_json::Value> = nodes
            .iter()
            .map(|n| (n["path"].as_str().unwrap(), n))
            .collect();
        let mut out: Vec<(String, u64)> = nodes
            .iter()
            .map(|n| {
                let path = n["path"].as_str().unwrap();
                let mut line = Vec::new();
                let steps: Vec<&str> = path.split('.').filter(|s| !s.is_empty()).collect();
                for k in 1..=steps.len() {
                    let p = steps[..k].join(".");
                    line.push(by_path[p.as_str()]["move"].as_str().unwrap().to_string());
                }
                (line.join(" "), n["games"].as_u64().unwrap())
            })
            .collect();
        out.sort();
        out
    };
    let kept = moves_of(&cut);
    let mut expected: Vec<(String, u64)> = moves_of(&all)
        .into_iter()
        .filter(|(_, g)| *g >= 5)
        .collect();
    expected.sort();
    assert_eq!(kept, expected);
    // The SGF written to --out parses back; each node's comment holds the
    // JSON's counts, at the JSON's path.
    let out = common::sgf(
        &dir.0,
        &["tree", "-q", "--min-games", "5", "--out", "t.sgf", "g.sgf"],
    );
    assert!(out.status.success(), "{}", common::stderr(&out));
    let text = std::fs::read(dir.0.join("t.sgf")).unwrap();
    let json: Vec<serde_json::Value> = std::fs::read_to_string(dir.0.join("t.sgf.json"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(json, cut);
    let doc = sgf_grove::parse(&text).unwrap();
    assert!(doc.warnings().is_empty(), "{:?}", doc.warnings());
    let game = doc.games().next().unwrap();
    assert_eq!(game.root().descendants().count(), cut.len());
    for n in &cut {
        let path: Vec<usize> = n["path"]
            .as_str()
            .unwrap()
            .split('.')
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().unwrap())
            .collect();
        let mut node = game.root();
        for i in path {
            node = node.children().nth(i).unwrap();
        }
        let comment = node
            .get::<sgf_grove::value::Text>("C")
            .unwrap()
            .unwrap()
            .to_string();
        let games = n["games"].as_u64().unwrap();
        assert!(comment.contains(&format!("games {games}\n")), "{comment}");
        assert!(
            comment.contains(&format!("black wins {} (", n["black_wins"])),
            "{comment}"
        );
        if let Some(mv) = n["move"].as_str() {
            let (ident, value) = mv.split_once('[').unwrap();
            assert_eq!(
                node.raw(ident).unwrap(),
                value.trim_end_matches(']').as_bytes()
            );
        }
    }
}

/// The first move of an even 19×19 Go game as the tree takes it, read
/// directly: `None` for a game the tree leaves out (another board or
/// game, stones before the first move, setup or an unreadable move
/// within the first 20 moves).
fn even_first_move(game: sgf_grove::GameTree<'_, '_>) -> Option<String> {
    if game.game_type() != 1 || game.board_size() != BoardSize::square(19) {
        return None;
    }
    let mut first = None;
    let mut moves = 0;
    for node in game.root().main_line() {
        if moves >= 20 {
            break;
        }
        if node.has("AB") || node.has("AW") || node.has("AE") {
            return None;
        }
        match node.played() {
            Err(_) => return None,
            Ok(Some((c, m))) => {
                moves += 1;
                if first.is_none() {
                    let p = match m {
                        sgf_grove::value::Move::Play(p) => p.to_string(),
                        sgf_grove::value::Move::Pass => String::new(),
                    };
                    let c = if c == Color::Black { 'B' } else { 'W' };
                    first = Some(format!("{c}[{p}]"));
                }
            }
            Ok(None) => {}
        }
    }
    first
}

#[test]
fn tree_first_moves_of_a_corpus_slice_equal_direct_counts() {
    let Some((corpus, _)) = common::any_corpus_dir() else {
        return;
    };
    let files: Vec<_> = common::sgf_files(&corpus)
        .into_iter()
        .step_by(40)
        .take(1000)
        .collect();
    let dir = TempDir::new("tree-corpus");
    let mut args: Vec<String> = vec!["tree".into(), "-q".into(), "--json".into()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = common::sgf(&dir.0, &args);
    let nodes: Vec<serde_json::Value> = common::stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // Directly: the first move of each even 19×19 game.
    let mut direct: BTreeMap<String, u64> = BTreeMap::new();
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let Ok(doc) = sgf_grove::parse(&bytes) else {
            continue;
        };
        for game in doc.games() {
            if let Some(first) = even_first_move(game) {
                *direct.entry(first).or_default() += 1;
            }
        }
    }
    let even = nodes
        .iter()
        .find(|n| {
            n["size"] == serde_json::json!([19, 19]) && n["handicap"] == serde_json::json!([])
        })
        .unwrap();
    let game = even["game"].as_u64().unwrap();
    let tree: BTreeMap<String, u64> = first_moves_of_tree(&nodes, game)
        .into_iter()
        .map(|(k, v)| (k, v.0))
        .collect();
    assert_eq!(tree, direct);
    assert!(direct.values().sum::<u64>() > 300, "{direct:?}");
}

/// Peak memory of `sgf tree` over a million distinct games: the tree stays
/// in its node budget (the prunings are reported), the first moves are
/// exact. About 11 s in release (the games generated, gzipped and read).
#[test]
fn tree_of_a_million_distinct_games_stays_in_bounded_memory() {
    use std::io::Write;
    let dir = TempDir::new("tree-million");
    let path = dir.0.join("million.sgf.gz");
    let file = std::fs::File::create(&path).unwrap();
    let mut gz =
        flate2::write::GzEncoder::new(std::io::BufWriter::new(file), flate2::Compression::fast());
    let mut rng = Lcg(5);
    let mut first: BTreeMap<String, u64> = BTreeMap::new();
    let mut seen = std::collections::HashSet::new();
    let mut n = 0;
    while n < 1_000_000 {
        let mut s = String::from("(;SZ[19]RE[B+R]");
        let mut key = Vec::with_capacity(20);
        for i in 0..20 {
            let c = if i % 2 == 0 { 'B' } else { 'W' };
            let (x, y) = (rng.next(19) as u8, rng.next(19) as u8);
            key.push((x, y));
            s.push_str(&format!(";{c}[{}]", Point { x, y }));
        }
        if !seen.insert(key.clone()) {
            continue;
        }
        *first
            .entry(format!(
                "B[{}]",
                Point {
                    x: key[0].0,
                    y: key[0].1
                }
            ))
            .or_default() += 1;
        s.push_str(")\n");
        gz.write_all(s.as_bytes()).unwrap();
        n += 1;
    }
    drop(seen);
    gz.finish().unwrap().flush().unwrap();
    // Variations of one game are left out: the output stays small.
    let args = [
        "tree",
        "-q",
        "-j",
        "2",
        "--min-games",
        "2",
        "--out",
        "t.sgf",
        "million.sgf.gz",
    ];
    let run = super::big_input::run_watched(&dir.0, &args);
    eprintln!(
        "sgf tree over 1,000,000 distinct games: peak {} KiB",
        run.peak_kib
    );
    // The default budget (1,000,000 nodes of 40 bytes) and the program.
    assert!(run.peak_kib < 96 * 1024, "{} KiB", run.peak_kib);
    let json = std::fs::read_to_string(dir.0.join("t.sgf.json")).unwrap();
    let nodes: Vec<serde_json::Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|n: &serde_json::Value| n["path"].as_str().unwrap().split('.').count() == 1)
        .collect();
    assert_eq!(nodes[0]["path"], "");
    assert_eq!(nodes[0]["games"], 1_000_000);
    // The first moves (about 2,770 games each) are never pruned: exact.
    let tree: BTreeMap<String, u64> = nodes[1..]
        .iter()
        .map(|n| {
            assert_eq!(n["games"], n["games_max"], "{n}");
            (
                n["move"].as_str().unwrap().to_string(),
                n["games"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(tree, first);
    let sgf = std::fs::read(dir.0.join("t.sgf")).unwrap();
    let text = String::from_utf8_lossy(&sgf[..4000.min(sgf.len())]).into_owned();
    assert!(text.contains("node budget"), "the pruning is said: {text}");
}

#[test]
fn tree_starts_apart_and_games_left_out_are_counted() {
    let dir = TempDir::new("tree-starts");
    let text = [
        "(;SZ[19];B[pd];W[dd])",
        "(;SZ[19]HA[2]AB[dd][pp];W[dp])",
        // Handicap stones in a node of their own, as Fox writes them.
        "(;SZ[19]HA[2];AB[pp][dd];W[dp];B[pq])",
        "(;SZ[9];B[ee])",
        "(;SZ[19]AW[aa];B[pd])",
        "(;SZ[19];B[pd];AB[aa];W[dd])",
        "(;SZ[19];B[pd];W[zz];B[dd])",
        "(;SZ[19]C[no moves])",
        "(;GM[11]SZ[11];B[aa])",
    ]
    .concat();
    std::fs::write(dir.0.join("g.sgf"), text).unwrap();
    let out = common::sgf(&dir.0, &["tree", "-q", "--json", "g.sgf"]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let err = common::stderr(&out);
    assert!(
        err.contains("4 games joined in 3 trees")
            && err.contains("1 not Go")
            && err.contains("1 without moves")
            && err.contains("1 set-up position")
            && err.contains("1 setup in the line")
            && err.contains("1 unreadable move"),
        "{err}"
    );
    let nodes: Vec<serde_json::Value> = common::stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let roots: Vec<(serde_json::Value, serde_json::Value, u64)> = nodes
        .iter()
        .filter(|n| n["path"] == "")
        .map(|n| {
            (
                n["size"].clone(),
                n["handicap"].clone(),
                n["games"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        roots,
        [
            (
                serde_json::json!([19, 19]),
                serde_json::json!(["dd", "pp"]),
                2
            ),
            (serde_json::json!([19, 19]), serde_json::json!([]), 1),
            (serde_json::json!([9, 9]), serde_json::json!([]), 1),
        ]
    );
    // The handicap tree's root holds its stones, and both games' W[dp].
    let out = common::sgf(&dir.0, &["tree", "-q", "g.sgf"]);
    let doc = sgf_grove::parse(&out.stdout).unwrap();
    let handicap = doc.games().next().unwrap();
    assert_eq!(handicap.root().raw("AB"), Some(&b"dd"[..]));
    let first = handicap.root().children().next().unwrap();
    assert_eq!(first.raw("W"), Some(&b"dp"[..]));
    assert_eq!(doc.games().count(), 3);
}

#[test]
fn tree_output_is_the_same_whatever_the_threads_even_when_pruned() {
    let dir = TempDir::new("tree-jobs");
    let games = games(4000, 4);
    write_games(&dir.0, "g.sgf", &games);
    let run = |jobs: &str| tree_json(&dir.0, &["-j", jobs, "--max-nodes", "2000", "g.sgf"]);
    let one = run("1");
    assert_eq!(one, run("2"));
    // Pruned: some counts are ranges, the first moves still exact and
    // equal to the direct counts (each is far above the pruned ones).
    assert!(one.iter().any(|n| n["games"] != n["games_max"]));
    let first: HashMap<&str, (u64, u64)> = one
        .iter()
        .filter(|n| n["path"].as_str().unwrap().split('.').count() == 1 && n["path"] != "")
        .map(|n| {
            let range = (
                n["games"].as_u64().unwrap(),
                n["games_max"].as_u64().unwrap(),
            );
            (n["move"].as_str().unwrap(), range)
        })
        .collect();
    let direct = first_moves_direct(&games, 20, false);
    for (mv, counts) in &direct {
        if counts.0 >= 100 {
            assert_eq!(first[mv.as_str()], (counts.0, counts.0), "{mv}");
        } else if let Some(&(low, high)) = first.get(mv.as_str()) {
            // A rare one: its range holds the true count.
            assert!(
                low <= counts.0 && counts.0 <= high,
                "{mv}: {low}..{high} {counts:?}"
            );
        }
    }
    // Every node's range holds the number of games that played its line.
    let mut truth: HashMap<String, u64> = HashMap::new();
    for g in &games {
        let mut line = String::new();
        for &(c, p) in g.moves.iter().take(20) {
            let c = if c == Color::Black { 'B' } else { 'W' };
            line.push_str(&format!(
                " {c}[{}]",
                p.map_or(String::new(), |p| p.to_string())
            ));
            *truth.entry(line.clone()).or_default() += 1;
        }
    }
    let by_path: HashMap<&str, &serde_json::Value> = one
        .iter()
        .map(|n| (n["path"].as_str().unwrap(), n))
        .collect();
    for n in one.iter().filter(|n| n["path"] != "") {
        let steps: Vec<&str> = n["path"].as_str().unwrap().split('.').collect();
        let line: String = (1..=steps.len())
            .map(|k| {
                format!(
                    " {}",
                    by_path[steps[..k].join(".").as_str()]["move"]
                        .as_str()
                        .unwrap()
                )
            })
            .collect();
        let (low, high) = (
            n["games"].as_u64().unwrap(),
            n["games_max"].as_u64().unwrap(),
        );
        let count = truth[&line];
        assert!(
            low <= count && count <= high,
            "{line}: {low}..{high}, played {count}"
        );
    }
}
