//! `Inputs::par_scan_games`: the same games, results, warnings and errors
//! in the same order as a sequential `Inputs::scan_games`, whatever the
//! number of threads; small files read whole by workers, a large file cut
//! into games on the calling thread.

#![cfg(all(feature = "archives", feature = "parallel"))]

use sgf_grove::input::{Inputs, WHOLE_FILE};
use sgf_grove::ParseOptions;
use std::io::Write;

use crate::common::TempDir;

/// One line per game or error: what a scan found, with the warnings
/// (kind and position) that came with each game.
fn line(
    origin: String,
    offset: Option<usize>,
    index: Option<usize>,
    tree: Option<sgf_grove::GameTree<'_, '_>>,
    warnings: &[sgf_grove::Warning],
) -> String {
    let (nodes, moves, black) = match tree {
        Some(t) => (
            t.nodes().count(),
            t.moves().filter(|m| m.is_ok()).count(),
            t.game_info().black().name.unwrap_or("").to_owned(),
        ),
        None => (0, 0, String::new()),
    };
    let w: Vec<String> = warnings
        .iter()
        .map(|w| {
            format!(
                "{:?}@{}:{}:{}",
                w.kind, w.pos.offset, w.pos.line, w.pos.column
            )
        })
        .collect();
    format!(
        "{origin} {offset:?} {index:?} nodes={nodes} moves={moves} PB={black} [{}]",
        w.join(" ")
    )
}

fn sequential(inputs: &Inputs) -> Vec<String> {
    let mut out = Vec::new();
    inputs
        .scan_games(ParseOptions::new(), |game| {
            match game {
                Ok(g) => out.push(line(
                    g.origin().to_string(),
                    g.offset(),
                    g.index(),
                    g.tree(),
                    g.collection().warnings(),
                )),
                Err(e) => out.push(format!("error {e}")),
            }
            Ok::<(), ()>(())
        })
        .unwrap();
    out
}

fn parallel(inputs: &Inputs, jobs: usize) -> Vec<String> {
    let mut out = Vec::new();
    inputs
        .par_scan_games(
            ParseOptions::new(),
            jobs,
            |g| {
                line(
                    g.origin().to_string(),
                    g.offset(),
                    g.index(),
                    g.tree(),
                    g.warnings(),
                )
            },
            |r| match r {
                Ok(s) => out.push(s),
                Err(e) => out.push(format!("error {e}")),
            },
        )
        .unwrap();
    out
}

/// A game of `moves` moves with a few defects on some.
fn game(i: usize, moves: usize) -> String {
    let mut s = format!("(;GM[1]FF[4]SZ[19]PB[Player {i}]PW[Other]");
    if i.is_multiple_of(5) {
        s.push_str("AP[a]AP[b]"); // a repeated property
    }
    for m in 0..moves {
        let c = if m.is_multiple_of(2) { 'B' } else { 'W' };
        let x = (b'a' + ((i + m) % 19) as u8) as char;
        let y = (b'a' + ((i * 7 + m) % 19) as u8) as char;
        s.push_str(&format!(";{c}[{x}{y}]"));
    }
    if i.is_multiple_of(11) {
        s.push_str(";B[zz]"); // off the board
    }
    s.push(')');
    if i.is_multiple_of(13) {
        s.push_str(" junk "); // between games
    }
    s.push('\n');
    s
}

#[test]
fn a_folder_of_small_files_and_a_large_collection_give_the_sequential_results() {
    let dir = TempDir::new("mixed");
    for i in 0..40 {
        let mut text = game(i, 10 + i);
        if i.is_multiple_of(7) {
            text.push_str(&game(i + 100, 3)); // two games in a file
        }
        dir.write(&format!("small/{i:03}.sgf"), text);
    }
    // A broken file, a file that is not SGF, a cut game.
    dir.write("small/zz_broken.sgf", "(;GM[1];B[aa];W[");
    dir.write("small/notes.txt", "hello");
    dir.write("small/bin.sgf", [0u8, 1, 2, 3, 0xff, 0xfe, 0, 0]);
    // A collection larger than what a worker reads whole, with a game cut
    // off and the next one appended without a line break.
    let mut big = String::new();
    let mut i = 0;
    while (big.len() as u64) <= WHOLE_FILE + 4096 {
        big.push_str(&game(i, 200));
        if i == 1000 {
            big.push_str("(;GM[1]PB[cut];B[aa];W[bb]");
        }
        i += 1;
    }
    big.push_str("(;GM[1]PB[last];B[aa]");
    dir.write("big/all.sgf", &big);
    // A gzip'd collection (read by a worker: the file is small).
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&big.as_bytes()[..100_000]).unwrap();
    dir.write("small/packed.sgf.gz", gz.finish().unwrap());
    let inputs = Inputs::new([dir.0.join("small"), dir.0.join("big"), dir.0.join("empty")]);
    std::fs::create_dir_all(dir.0.join("empty")).unwrap();
    let want = sequential(&inputs);
    assert!(want.len() > 5000, "{}", want.len());
    assert!(
        want.iter().any(|l| l.contains("GameResync")),
        "the cut game is in the test"
    );
    assert!(
        want.iter().any(|l| l.starts_with("error")),
        "errors are in the test"
    );
    for jobs in [1, 2, 3] {
        let got = parallel(&inputs, jobs);
        assert_eq!(got.len(), want.len(), "jobs {jobs}");
        for (k, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g, w, "jobs {jobs}, item {k}");
        }
    }
}

#[test]
fn skipped_counts_are_the_sequential_ones() {
    let dir = TempDir::new("skipped");
    dir.write("a.sgf", "(;GM[1];B[aa])");
    dir.write("b.txt", "not a game");
    dir.write("c.md", "# notes");
    let inputs = Inputs::new([&dir.0]);
    let seq = inputs
        .scan_games(ParseOptions::new(), |_| Ok::<(), ()>(()))
        .unwrap();
    let par = inputs
        .par_scan_games(ParseOptions::new(), 2, |_| (), |_| {})
        .unwrap();
    assert_eq!(par, seq);
    assert_eq!(par.total(), 2);
}

#[test]
fn shards_split_the_sources_and_together_give_every_game_once() {
    let dir = TempDir::new("shards");
    for i in 0..9 {
        dir.write(&format!("games/{i}.sgf"), game(i, 3));
    }
    dir.write("one/only.sgf", game(50, 2));
    std::fs::create_dir_all(dir.0.join("none")).unwrap();
    let paths = [dir.0.join("games"), dir.0.join("one"), dir.0.join("none")];
    let all = sequential(&Inputs::new(paths.clone()));
    let mut joined = Vec::new();
    for k in 0..3 {
        let part = parallel(&Inputs::new(paths.clone()).shard(k, 3), 2);
        // `one/` has its file in one shard: no other shard calls it empty.
        // `none/` is empty: the first shard alone says so.
        let empty: Vec<_> = part.iter().filter(|l| l.starts_with("error")).collect();
        assert_eq!(empty.len(), usize::from(k == 0), "shard {k}: {empty:?}");
        joined.extend(part);
    }
    let mut want = all.clone();
    want.sort();
    joined.sort();
    assert_eq!(joined, want);
}

/// A small file that expands to more than a worker may keep (a compressed
/// collection named `.sgf`, a small tar.gz of many games): the worker
/// stops at its budget, the calling thread reads on from there, and every
/// game (and error) is worked on exactly once, in the sequential order.
#[test]
fn small_files_over_the_worker_budget_give_the_sequential_results_once() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let dir = TempDir::new("budget");
    let gz = |bytes: &[u8]| {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(bytes).unwrap();
        enc.finish().unwrap()
    };
    let mut many = String::new();
    for i in 0..300 {
        many.push_str(&game(i, 20));
        if i == 150 {
            many.push_str("(;GM[1]PB[cut];B[aa];W[bb]");
        }
    }
    // Gzip content under a plain name, and a tar.gz whose members are a
    // small game, a member that is no text (an error) and the collection.
    dir.write("a.sgf", game(1, 5));
    dir.write("b.sgf", gz(many.as_bytes()));
    let mut tar = tar::Builder::new(Vec::new());
    for (name, data) in [
        ("one.sgf", game(2, 4).into_bytes()),
        ("zz.sgf", vec![0u8, 1, 2, 0xff, 0xfe, 0, 0, 9]),
        ("many.sgf", many.clone().into_bytes()),
    ] {
        let mut header = tar::Header::new_gnu();
        header.set_mode(0o644);
        header.set_size(data.len() as u64);
        header.set_cksum();
        tar.append_data(&mut header, name, &data[..]).unwrap();
    }
    dir.write("c.tgz", gz(&tar.into_inner().unwrap()));
    dir.write("d.sgf", game(3, 6));
    // A budget of a few games' bytes, hit inside each large member.
    let inputs = Inputs::new([&dir.0]).worker_budget(4096);
    let want = sequential(&inputs);
    assert_eq!(want.iter().filter(|l| l.contains("PB=cut")).count(), 2);
    assert!(want.iter().any(|l| l.starts_with("error")), "{want:?}");
    for jobs in [2, 3] {
        let worked = AtomicUsize::new(0);
        let mut got = Vec::new();
        inputs
            .par_scan_games(
                ParseOptions::new(),
                jobs,
                |g| {
                    worked.fetch_add(1, Ordering::Relaxed);
                    line(
                        g.origin().to_string(),
                        g.offset(),
                        g.index(),
                        g.tree(),
                        g.warnings(),
                    )
                },
                |r| match r {
                    Ok(s) => got.push(s),
                    Err(e) => got.push(format!("error {e}")),
                },
            )
            .unwrap();
        let errors = got.iter().filter(|l| l.starts_with("error")).count();
        assert_eq!(
            worked.into_inner(),
            got.len() - errors,
            "jobs {jobs}: worked once each"
        );
        assert_eq!(got, want, "jobs {jobs}");
    }
}

/// A collection of `n` games several MiB long, with what makes a guessed
/// cut wrong at many places: comments that quote a game start right after
/// a `)` (`:)(;GM[1]…` inside a value, which is no game start), games
/// with no root property (`(;B[aa]…`, which a guess does not count),
/// junk between games, and line breaks of every kind.
fn trapped(n: usize) -> String {
    let mut text = String::new();
    for i in 0..n {
        let mut g = game(i, 40 + i % 60);
        match i % 9 {
            // A comment quoting a game start, right after a `)`.
            0 => g.insert_str(
                g.len() - 2,
                ";C[smile :)(;GM[1]FF[4]SZ[19];B[aa\\]) and on]",
            ),
            // No root property at all.
            1 => g = format!("(;B[ab];W[cd]C[plain {i}])\n"),
            // Junk, then a game on the same line.
            2 => g = format!("{} x {}", g.trim_end(), game(i + 7, 3)),
            // Carriage returns.
            3 => g = g.replace('\n', "\r\n"),
            4 => g = g.replace('\n', "\r"),
            _ => {}
        }
        if i % 97 == 0 {
            // A comment holding half a game and a lone `(`, closed much later.
            g.insert_str(
                g.len() - 2,
                ";C[open (;GM[1]SZ[9] )\n(;AP[x:1]\\] still a comment]",
            );
        }
        text.push_str(&g);
    }
    text
}

/// A large file is parsed in chunks cut at guessed game starts; where a
/// guess is wrong (a cut inside a comment, a miscount), the results are
/// still those of one parse: the same games, warnings with the same
/// offsets, lines and columns, the same indices, in the same order, with
/// 2 and 3 threads, plain, gzip'd and cut short.
#[test]
fn a_large_file_cut_at_guessed_game_starts_gives_the_sequential_results() {
    let dir = TempDir::new("chunks");
    let text = trapped(40_000);
    assert!(text.len() > 2 * WHOLE_FILE as usize, "{}", text.len());
    dir.write("big.sgf", &text);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(text.as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    dir.write("big.sgf.gz", &gz);
    // Cut short: the decompressor breaks after most of the games.
    dir.write("broken.sgf.gz", &gz[..gz.len() * 9 / 10]);
    for name in ["big.sgf", "big.sgf.gz", "broken.sgf.gz"] {
        let inputs = Inputs::new([dir.0.join(name)]);
        let want = sequential(&inputs);
        assert!(want.len() > 39_000, "{name}: {}", want.len());
        assert!(want.iter().any(|l| l.contains("GameResync")), "{name}");
        if name == "broken.sgf.gz" {
            assert!(want.last().unwrap().starts_with("error"), "{name}");
        }
        for (jobs, pure) in [(2, false), (3, false), (2, true), (3, true)] {
            let inputs = Inputs::new([dir.0.join(name)]).pure_work(pure);
            let got = parallel(&inputs, jobs);
            for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                assert_eq!(g, w, "{name}, jobs {jobs}, pure {pure}, item {k}");
            }
            assert_eq!(got.len(), want.len(), "{name}, jobs {jobs}, pure {pure}");
        }
        worked_once(&inputs, want.len());
        sealed_once(&dir.0.join(name), &want);
    }
}

/// Where every guess is wrong (each game's comment quotes a game start),
/// the calling thread parses on by itself: still the sequential results.
#[test]
fn a_large_file_whose_guesses_all_fail_gives_the_sequential_results() {
    let dir = TempDir::new("chunks-bad");
    let mut text = String::new();
    let mut i = 0;
    while text.len() <= 3 * WHOLE_FILE as usize {
        let mut g = game(i, 30);
        let quote = ";C[".to_owned() + &":)(;GM[1]SZ[19];B[aa\\]) ".repeat(40) + "]";
        g.insert_str(g.len() - 2, &quote);
        text.push_str(&g);
        i += 1;
    }
    dir.write("bad.sgf", &text);
    let inputs = Inputs::new([dir.0.join("bad.sgf")]);
    let want = sequential(&inputs);
    assert!(want.len() >= i, "{} {i}", want.len());
    for (jobs, pure) in [(2, false), (3, false), (2, true), (3, true)] {
        let inputs = Inputs::new([dir.0.join("bad.sgf")]).pure_work(pure);
        assert_eq!(parallel(&inputs, jobs), want, "jobs {jobs}, pure {pure}");
    }
    worked_once(&inputs, want.len());
    sealed_once(&dir.0.join("bad.sgf"), &want);
}

/// With pure work, a chunk cut at a wrong guess is worked on and its
/// results dropped; what a worker gathers over a piece and seals is
/// dropped with them: the sealed tallies count each game's nodes once,
/// as the sequential scan does.
fn sealed_once(path: &std::path::Path, want: &[String]) {
    use std::cell::Cell;
    thread_local! { static NODES: Cell<usize> = const { Cell::new(0) }; }
    let nodes_of = |line: &String| {
        line.split(' ')
            .find_map(|w| w.strip_prefix("nodes="))
            .map_or(0, |n| n.parse::<usize>().unwrap())
    };
    let expected: usize = want.iter().map(nodes_of).sum();
    assert!(expected > 0);
    for jobs in [2, 3] {
        let (mut sealed, mut results) = (0, 0);
        Inputs::new([path])
            .pure_work(true)
            .par_scan_games_sealed(
                ParseOptions::new(),
                jobs,
                |g| {
                    let n = g.tree().map_or(0, |t| t.nodes().count());
                    NODES.with(|c| c.set(c.get() + n));
                    None
                },
                || Some(Some(NODES.with(|c| c.replace(0)))),
                |r| match r {
                    Ok(Some(n)) => sealed += n,
                    Ok(None) => results += 1,
                    Err(_) => {}
                },
            )
            .unwrap();
        // What the calling thread worked on itself (after a bad guess).
        sealed += NODES.with(|c| c.replace(0));
        assert_eq!(sealed, expected, "{}: jobs {jobs}", path.display());
        let games = want.iter().filter(|l| !l.starts_with("error")).count();
        assert_eq!(results, games, "{}: jobs {jobs}", path.display());
    }
}

/// Each game and warning is worked on once (a bad guess makes games read
/// again, never worked on again): as many calls of the work as results.
fn worked_once(inputs: &Inputs, results: usize) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    for jobs in [2, 3] {
        let worked = AtomicUsize::new(0);
        let mut games = 0;
        inputs
            .par_scan_games(
                ParseOptions::new(),
                jobs,
                |_| worked.fetch_add(1, Ordering::Relaxed),
                |r| games += usize::from(r.is_ok()),
            )
            .unwrap();
        let errors = results - games;
        assert_eq!(worked.into_inner(), results - errors, "jobs {jobs}");
        assert!(errors <= 1, "jobs {jobs}: {errors}");
    }
}

/// Small members of a large archive go to the workers a few at a time,
/// read whole: the sequential results, errors of members in place.
#[test]
fn a_large_tar_of_small_members_gives_the_sequential_results() {
    let dir = TempDir::new("chunks-tar");
    let mut tar = tar::Builder::new(Vec::new());
    for i in 0..3000 {
        let data = match i % 500 {
            7 => vec![0u8, 1, 2, 0xff, 0xfe, 0, 0, 9],
            8 => Vec::new(),
            9 => b"no game here".to_vec(),
            _ => trapped(i % 40 + 1).into_bytes(),
        };
        let mut header = tar::Header::new_gnu();
        header.set_mode(0o644);
        header.set_size(data.len() as u64);
        header.set_cksum();
        tar.append_data(&mut header, format!("g/{i:05}.sgf"), &data[..])
            .unwrap();
    }
    let tar = tar.into_inner().unwrap();
    assert!(tar.len() as u64 > WHOLE_FILE, "{}", tar.len());
    dir.write("all.tar", &tar);
    let inputs = Inputs::new([dir.0.join("all.tar")]);
    let want = sequential(&inputs);
    assert!(want.iter().filter(|l| l.starts_with("error")).count() >= 12);
    for jobs in [2, 3] {
        assert_eq!(parallel(&inputs, jobs), want, "jobs {jobs}");
    }
}

/// One folder is walked while the workers read what the walk found so
/// far: its files still come in the order of their paths, as a sequential
/// scan reads them (names that sort differently as strings and as paths,
/// folders named like files, a link to a folder, a large file cut into
/// chunks among them), and what the walk skipped is counted the same.
#[test]
fn one_folder_walked_while_read_gives_the_sequential_results() {
    let dir = TempDir::new("walked");
    let names = [
        "a/b.sgf",
        "a.sgf",
        "a-b.sgf",
        "a b.sgf",
        "a/a/z.sgf",
        "A.sgf",
        "a0/x.sgf",
        "a.b/c.sgf",
        "b/.hidden.sgf",
        "b/é.sgf",
        "z/y/x/w/v.sgf",
        "z/10.sgf",
        "z/9.sgf",
    ];
    for (i, name) in names.iter().enumerate() {
        dir.write(&format!("root/{name}"), game(i, 5 + i));
    }
    for i in 0..300 {
        dir.write(&format!("root/many/{i}.sgf"), game(i, 3));
    }
    let mut big = String::new();
    let mut i = 0;
    while (big.len() as u64) <= WHOLE_FILE + 4096 {
        big.push_str(&game(i, 150));
        i += 1;
    }
    dir.write("root/m/big.sgf", &big);
    dir.write("root/m/notes.txt", "not a game");
    std::fs::create_dir_all(dir.0.join("root/empty")).unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(dir.0.join("root/z"), dir.0.join("root/link")).unwrap();
        std::os::unix::fs::symlink(dir.0.join("root"), dir.0.join("root/z/loop")).unwrap();
        std::os::unix::fs::symlink(dir.0.join("nowhere"), dir.0.join("root/broken")).unwrap();
    }
    let root = dir.0.join("root");
    let want = sequential(&Inputs::new([&root]));
    assert!(want.len() > 300 + names.len(), "{}", want.len());
    for (jobs, pure) in [(2, false), (3, true)] {
        let got = parallel(&Inputs::new([&root]).pure_work(pure), jobs);
        assert_eq!(got, want, "jobs {jobs}");
        let skipped = |jobs| {
            let mut calls = 0;
            let skipped = Inputs::new([&root])
                .par_scan_games(ParseOptions::new(), jobs, |_| (), |_| calls += 1)
                .unwrap();
            let listed: Vec<String> = skipped.listed().iter().map(|s| format!("{s:?}")).collect();
            (listed, calls)
        };
        assert_eq!(skipped(jobs), skipped(1), "jobs {jobs}");
    }
}

/// How many files this process holds open.
#[cfg(target_os = "linux")]
fn open_fds() -> usize {
    std::fs::read_dir("/proc/self/fd").map_or(0, Iterator::count)
}

/// A walk far ahead of the workers, in a tree of many folders of one file
/// each, holds few folders open (each file is opened relative to its
/// folder while the folder is held, by its path after): the scan neither
/// runs out of file descriptors nor loses a game.
#[cfg(target_os = "linux")]
#[test]
fn a_folder_walk_of_many_folders_holds_few_open() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let dir = TempDir::new("many-folders");
    for i in 0..3000 {
        dir.write(&format!("root/{i:04}/g.sgf"), game(i, 2));
    }
    let root = dir.0.join("root");
    let before = open_fds();
    let peak = AtomicUsize::new(0);
    let first = std::sync::Once::new();
    let mut games = 0;
    Inputs::new([&root])
        .par_scan_games(
            ParseOptions::new(),
            2,
            |g| {
                // The walk runs as far ahead as it may while the first
                // game is held up.
                first.call_once(|| std::thread::sleep(std::time::Duration::from_millis(300)));
                peak.fetch_max(open_fds(), Ordering::Relaxed);
                g.tree().is_some()
            },
            |r| games += usize::from(matches!(r, Ok(true))),
        )
        .unwrap();
    assert_eq!(games, 3000);
    let peak = peak.into_inner();
    // 64 folders at most, a few files, and what other tests open meanwhile;
    // without a bound the walk holds thousands.
    assert!(peak < before + 400, "{before} open before, {peak} at most");
}

/// A folder removed while the walk has yet to reach it is an error naming
/// its path; the rest is read.
#[test]
fn a_folder_removed_while_walked_is_an_error_naming_it() {
    let dir = TempDir::new("removed");
    // More files before the folder than the walk may find ahead of the
    // workers: it is not reached before the first game is worked on.
    for i in 0..6000 {
        dir.write(&format!("root/a/{i:04}.sgf"), "(;GM[1])");
    }
    dir.write("root/b/x.sgf", game(1, 3));
    dir.write("root/c.sgf", game(2, 3));
    let root = dir.0.join("root");
    let gone = root.join("b");
    let first = std::sync::Once::new();
    let mut out = Vec::new();
    Inputs::new([&root])
        .par_scan_games(
            ParseOptions::new(),
            2,
            |g| {
                first.call_once(|| std::fs::remove_dir_all(&gone).unwrap());
                g.origin().to_string()
            },
            |r| match r {
                Ok(s) => out.push(s),
                Err(e) => out.push(format!("error {}: {e}", e.origin())),
            },
        )
        .unwrap();
    let errors: Vec<String> = out
        .iter()
        .filter(|l| l.starts_with("error"))
        .map(|l| dir.rel(l))
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].starts_with("error root/b:"), "{errors:?}");
    assert_eq!(out.len(), 6000 + 1 + 1);
    assert!(
        dir.rel(out.last().unwrap()) == "root/c.sgf",
        "{:?}",
        out.last()
    );
}

/// Files that grow or shrink between the walk and their reading (sizes
/// listed first, as for several paths; or not asked, on one thread) are
/// read whole as they are when read, one of them past the size a worker
/// reads whole; and a folder removed after the walk listed its files
/// gives an error naming each file.
#[test]
fn files_changed_after_the_walk_are_read_as_they_are_when_read() {
    let dir = TempDir::new("changed");
    let many = |from: usize, n: usize| (from..from + n).map(|i| game(i, 4)).collect::<String>();
    for i in 0..600 {
        dir.write(&format!("root/a/{i:03}.sgf"), game(i, 2));
    }
    let setup = || {
        dir.write("root/z/grows.sgf", many(1000, 1));
        dir.write("root/z/shrinks.sgf", many(2000, 3));
        dir.write("root/z/swells.sgf", many(3000, 1));
        dir.write("root/zz/gone.sgf", many(4000, 2));
    };
    let change = || {
        dir.write("root/z/grows.sgf", many(1000, 3));
        dir.write("root/z/shrinks.sgf", many(2000, 1));
        let mut big = String::new();
        let mut i = 3000;
        while (big.len() as u64) <= WHOLE_FILE + 4096 {
            big.push_str(&game(i, 150));
            i += 1;
        }
        dir.write("root/z/swells.sgf", big);
        std::fs::remove_dir_all(dir.0.join("root/zz")).unwrap();
    };
    setup();
    change();
    let other = dir.write("other.sgf", game(9, 2));
    let root = dir.0.join("root");
    let want = sequential(&Inputs::new([&root, &other]));
    let grown = |out: &[String], name: &str| out.iter().filter(|l| l.contains(name)).count();
    assert_eq!(grown(&want, "grows.sgf"), 3);
    assert_eq!(grown(&want, "shrinks.sgf"), 1);
    assert!(grown(&want, "swells.sgf") > 100);
    for (jobs, paths) in [
        (1, vec![&root]),
        (2, vec![&root, &other]),
        (3, vec![&root, &other]),
    ] {
        setup();
        let first = std::sync::Once::new();
        let mut got = Vec::new();
        Inputs::new(paths.clone())
            .par_scan_games(
                ParseOptions::new(),
                jobs,
                |g| {
                    // The 600 files before them fill more units than are
                    // in flight: none of the changed files is read yet.
                    first.call_once(change);
                    line(
                        g.origin().to_string(),
                        g.offset(),
                        g.index(),
                        g.tree(),
                        g.warnings(),
                    )
                },
                |r| match r {
                    Ok(s) => got.push(s),
                    Err(e) => got.push(format!("error {}: {e}", e.origin())),
                },
            )
            .unwrap();
        let want: Vec<String> = want
            .iter()
            .filter(|l| paths.len() == 2 || !l.contains("other.sgf"))
            .map(|l| l.replace(&format!("{}/", dir.0.display()), ""))
            .collect::<Vec<_>>();
        let got: Vec<String> = got.iter().map(|l| dir.rel(l)).collect();
        let errors: Vec<&String> = got.iter().filter(|l| l.starts_with("error")).collect();
        assert_eq!(errors.len(), 1, "jobs {jobs}: {errors:?}");
        assert!(
            errors[0].starts_with("error root/zz/gone.sgf:"),
            "{errors:?}"
        );
        let games: Vec<&String> = got.iter().filter(|l| !l.starts_with("error")).collect();
        let want: Vec<&String> = want.iter().collect();
        assert_eq!(games, want, "jobs {jobs}");
    }
}
