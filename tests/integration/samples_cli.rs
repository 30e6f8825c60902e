//! `sgf export --format samples`: the folder's files, determinism across
//! worker counts, filters, bad options, a second writer, an earlier run's
//! leftovers.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn sgf(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sgf"))
        .args(args)
        .output()
        .unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sgf-grove-samples-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Twelve small games in one file: three 9×9 of 4 to 6 moves, one 13×13.
fn inputs(dir: &Path) -> PathBuf {
    let mut text = String::new();
    for g in 0..12 {
        let moves = ["B[cc]", "W[gg]", "B[cg]", "W[gc]", "B[ee]", "W[]"];
        let n = 4 + g % 3;
        let re = ["B+R", "W+3.5", "0"][g % 3];
        text.push_str(&format!("(;GM[1]SZ[9]KM[7]RE[{re}]PB[p{g}]"));
        for m in &moves[..n] {
            text.push(';');
            text.push_str(m);
        }
        text.push_str(")\n");
    }
    text.push_str("(;GM[1]SZ[13];B[aa];W[bb])\n");
    text.push_str("(;GM[4]SZ[9];B[ee];W[ef])\n");
    let path = dir.join("games.sgf");
    std::fs::write(&path, text).unwrap();
    path
}

fn export(input: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "export",
        "--format",
        "samples",
        "--board",
        "9",
        "--shard-size",
        "7",
        "--window",
        "10",
        "--out",
        out.to_str().unwrap(),
        input.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    sgf(&args)
}

fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn the_folder_is_the_same_whatever_the_workers() {
    let dir = temp_dir("jobs");
    let input = inputs(&dir);
    let one = dir.join("one");
    let two = dir.join("two");
    let out = export(&input, &one, &["-j1"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    // 4 games each of 4, 5, 6 moves: 60 samples, 8 shards of 7 and 4.
    assert!(
        stderr.contains("samples: 60 samples of 12 games in 9 shards (left out: 1 of another size, 1 not of Go, 0 without moves"),
        "{stderr}"
    );
    assert!(export(&input, &two, &["-j2"]).status.success());
    assert_eq!(files(&one), files(&two));
    let names: Vec<String> = files(&one).into_iter().map(|f| f.0).collect();
    assert!(names.contains(&"manifest.json".to_owned()));
    assert!(names.contains(&"games.jsonl".to_owned()));
    assert!(names.contains(&"shard-000008.npz".to_owned()));
    let manifest = std::fs::read_to_string(one.join("manifest.json")).unwrap();
    assert!(manifest.contains("\"samples\": 60"), "{manifest}");
    assert!(manifest.contains("\"black_to_play\""));
    // Another seed, another order; the same samples.
    let three = dir.join("three");
    assert!(export(&input, &three, &["--seed", "9"]).status.success());
    assert_ne!(
        std::fs::read(one.join("shard-000000.npz")).unwrap(),
        std::fs::read(three.join("shard-000000.npz")).unwrap()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn filters_and_a_smaller_rerun() {
    let dir = temp_dir("filters");
    let input = inputs(&dir);
    let out_dir = dir.join("out");
    assert!(export(&input, &out_dir, &[]).status.success());
    // Only the games of 5 moves: 4 games of 5 moves, 20 samples, 3 shards;
    // the earlier run's shards 3 to 8 are gone.
    let out = export(&input, &out_dir, &["--moves", "5"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("samples: 20 samples of 4 games in 3 shards"),
        "{stderr}"
    );
    assert!(out_dir.join("shard-000002.npz").exists());
    assert!(!out_dir.join("shard-000003.npz").exists());
    let games = std::fs::read_to_string(out_dir.join("games.jsonl")).unwrap();
    assert_eq!(games.lines().count(), 4);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn parquet_shards() {
    let dir = temp_dir("parquet");
    let input = inputs(&dir);
    let out_dir = dir.join("out");
    let out = export(
        &input,
        &out_dir,
        &[
            "--shard-format",
            "parquet",
            "--augment",
            "all",
            "--planes",
            "all",
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("samples: 480 samples"), "{stderr}");
    let shard = std::fs::read(out_dir.join("shard-000000.parquet")).unwrap();
    assert_eq!(&shard[..4], b"PAR1");
    assert!(out_dir.join("games.parquet").exists());
    assert!(!out_dir.join("games.jsonl").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_options_are_refused() {
    let dir = temp_dir("bad");
    let input = inputs(&dir);
    for extra in [
        &["--planes", "liberty"][..],
        &["--augment", "twice"],
        &["--board", "60"],
    ] {
        let out = export(&input, &dir.join("out"), extra);
        assert!(!out.status.success(), "{extra:?}");
        assert!(!dir.join("out").join("manifest.json").exists());
    }
    let out = sgf(&["export", "--format", "samples", input.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--out DIR"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_second_writer_is_refused() {
    let dir = temp_dir("locked");
    let input = inputs(&dir);
    let out_dir = dir.join("out");
    assert!(export(&input, &out_dir, &[]).status.success());
    let before = files(&out_dir);
    // Another writer holds the folder's lock.
    let lock = std::fs::File::options()
        .write(true)
        .open(out_dir.join(".sgf-grove-samples.lock"))
        .unwrap();
    lock.lock().unwrap();
    let out = export(&input, &out_dir, &["--seed", "9"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("another process is writing samples there"),
        "{stderr}"
    );
    assert_eq!(files(&out_dir), before, "the folder was touched");
    drop(lock);
    assert!(export(&input, &out_dir, &["--seed", "9"]).status.success());
    assert_ne!(files(&out_dir), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_killed_runs_leftovers_are_cleared_by_the_next_run() {
    let dir = temp_dir("leftovers");
    let input = inputs(&dir);
    let out_dir = dir.join("out");
    std::fs::create_dir_all(&out_dir).unwrap();
    // What a run killed mid-way leaves: shards of its own (more than the
    // next run makes), a shard half written under a temporary name, no
    // manifest.
    for n in 0..12 {
        std::fs::write(out_dir.join(format!("shard-{n:06}.npz")), b"old").unwrap();
    }
    let temp = out_dir.join(".shard-000012.npz.4194303-0.sgf-grove-tmp");
    std::fs::write(&temp, b"half").unwrap();
    let out = export(&input, &out_dir, &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!temp.exists(), "the dead writer's temporary file is left");
    let manifest = std::fs::read_to_string(out_dir.join("manifest.json")).unwrap();
    let shards: Vec<String> = files(&out_dir)
        .into_iter()
        .map(|f| f.0)
        .filter(|n| n.starts_with("shard-"))
        .collect();
    assert_eq!(shards.len(), 9, "{shards:?}");
    for name in &shards {
        assert!(
            manifest.contains(name.as_str()),
            "{name} not in the manifest"
        );
        let bytes = std::fs::read(out_dir.join(name)).unwrap();
        assert!(bytes.starts_with(b"PK"), "{name} is an old run's");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn games_cut_short_are_told_up_to_max_messages_and_counted() {
    let dir = temp_dir("cut");
    let mut text = String::new();
    for g in 0..5 {
        // The third move lands on a stone: two samples, then the cut.
        text.push_str(&format!("(;GM[1]SZ[9]PB[p{g}];B[ee];W[dd];B[ee];W[cc])\n"));
    }
    let input = dir.join("cut.sgf");
    std::fs::write(&input, text).unwrap();
    let out_dir = dir.join("out");
    let told = |extra: &[&str]| {
        let out = export(&input, &out_dir, extra);
        assert!(out.status.success());
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(
            stderr.contains("samples: 10 samples of 5 games")
                && stderr.contains("5 cut at a bad move"),
            "{stderr}"
        );
        stderr
            .lines()
            .filter(|l| l.contains("samples end at move 3, illegal"))
            .count()
    };
    assert_eq!(told(&[]), 5);
    assert_eq!(told(&["--max-messages", "2"]), 2);
    assert_eq!(told(&["-q"]), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}
