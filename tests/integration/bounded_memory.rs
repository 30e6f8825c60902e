//! Memory stays bounded by one game whatever the input's shape: junk or
//! whitespace before a game, a run of `(`, UTF-16 from a small compressed
//! file, an `.sgfs` line with no end, and `check --format json` over
//! millions of games. Each runs a child `sgf` and reads its peak resident
//! memory (`VmHWM`) from `/proc` while it runs, the input generated and
//! streamed to it (never held by the test).
//!
//! The sizes fit CI; the full sizes of the reports (gigabytes) are the
//! `#[ignore]`d `*_full_size` tests.

#![cfg(all(target_os = "linux", feature = "cli"))]

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::TempDir;

/// The most a run may hold: the program (about 10 MB resident), its read
/// buffers, one small game.
const MAX_PEAK_KIB: u64 = 64 * 1024;

/// The kilobytes of `VmHWM` of process `pid`.
fn peak_kib_of(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// What a run gave: its standard output (its last 64 KiB), its exit code,
/// its standard error and its peak memory.
struct Run {
    tail: String,
    code: Option<i32>,
    err: String,
    peak_kib: u64,
}

/// Runs `sgf args…` in `dir`, writing what `feed` writes to its standard
/// input (from a thread, as the child reads it).
fn run_fed(
    dir: &Path,
    args: &[&str],
    feed: impl FnOnce(&mut dyn Write) -> std::io::Result<()> + Send + 'static,
) -> Run {
    let err_path = dir.join("err");
    let mut child = Command::new(env!("CARGO_BIN_EXE_sgf"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        // The child may stop reading early (an error): a broken pipe.
        let _ = feed(&mut stdin);
    });
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let (mut tail, mut buf) = (Vec::new(), vec![0u8; 1 << 16]);
        loop {
            let n = stdout.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            tail.extend_from_slice(&buf[..n]);
            if tail.len() > 1 << 17 {
                tail.drain(..tail.len() - (1 << 16));
            }
        }
        String::from_utf8_lossy(&tail).into_owned()
    });
    let deadline = Instant::now() + Duration::from_secs(1200);
    let mut peak_kib = 0;
    let status = loop {
        if let Some(kib) = peak_kib_of(child.id()) {
            peak_kib = peak_kib.max(kib);
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("sgf {args:?} still running after 20 minutes");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    writer.join().unwrap();
    let tail = reader.join().unwrap();
    Run {
        tail,
        code: status.code(),
        err: std::fs::read_to_string(err_path).unwrap(),
        peak_kib,
    }
}

/// Writes `len` bytes of `byte`, a megabyte at a time.
fn repeat(out: &mut dyn Write, byte: u8, len: u64) -> std::io::Result<()> {
    let chunk = vec![byte; 1 << 20];
    let mut left = len;
    while left > 0 {
        let n = left.min(chunk.len() as u64) as usize;
        out.write_all(&chunk[..n])?;
        left -= n as u64;
    }
    Ok(())
}

/// The summary object of `check --format json`'s output.
fn summary(run: &Run) -> serde_json::Value {
    let last = run.tail.lines().last().unwrap_or_default();
    let value: serde_json::Value =
        serde_json::from_str(last).unwrap_or_else(|e| panic!("{e}: {last:?} ({})", run.err));
    value["summary"].clone()
}

fn whitespace_then_a_game(mb: u64) {
    let dir = TempDir::new("bounded-spaces");
    let run = run_fed(
        &dir.0,
        &["check", "-q", "--format", "json", "-"],
        move |out| {
            repeat(out, b' ', mb << 20)?;
            repeat(out, b'x', 1 << 20)?;
            out.write_all(b"(;GM[1];B[aa])")
        },
    );
    let summary = summary(&run);
    assert_eq!(summary["games"], 1, "{}", run.err);
    assert_eq!(summary["warnings"]["junk_before_game"], 1);
    eprintln!("{mb} MB of spaces: peak {} KiB", run.peak_kib);
    assert!(run.peak_kib < MAX_PEAK_KIB, "peak {} KiB", run.peak_kib);
}

#[test]
fn whitespace_before_the_first_game_is_not_held() {
    whitespace_then_a_game(200);
}

#[test]
#[ignore = "full size of the report: 1 GiB through a pipe, about a minute"]
fn whitespace_before_the_first_game_is_not_held_full_size() {
    whitespace_then_a_game(1024);
}

fn a_run_of_open_parens(mb: u64) {
    let dir = TempDir::new("bounded-parens");
    for head in ["", "(;GM[1]"] {
        let run = run_fed(
            &dir.0,
            &["check", "-q", "--format", "json", "-"],
            move |out| {
                out.write_all(head.as_bytes())?;
                repeat(out, b'(', mb << 20)
            },
        );
        eprintln!("{head:?} then {mb} MB of '(': peak {} KiB", run.peak_kib);
        // The bytes of the game that the run is in are held once (the
        // game is the run), never a frame a byte.
        let most = MAX_PEAK_KIB + (mb << 10);
        assert!(run.peak_kib < most, "peak {} KiB", run.peak_kib);
        let summary = summary(&run);
        let games = if head.is_empty() { 0 } else { 1 };
        assert_eq!(summary["games"], games, "{}", run.err);
    }
}

#[test]
fn a_run_of_open_parens_costs_no_frame_a_byte() {
    a_run_of_open_parens(20);
}

#[test]
#[ignore = "full size of the report: 200 MB of '(', held once as the game it is in"]
fn a_run_of_open_parens_costs_no_frame_a_byte_full_size() {
    a_run_of_open_parens(200);
}

/// A zstd file of `mb` megabytes of UTF-16 games, written as it is
/// compressed.
fn utf16_zst(path: &Path, mb: u64) -> u64 {
    let file = std::fs::File::create(path).unwrap();
    let mut enc = zstd::stream::write::Encoder::new(file, 3).unwrap();
    let game = format!("(;GM[1]C[{}];B[aa])\n", "中文 comment ".repeat(40));
    let units: Vec<u8> = game.encode_utf16().flat_map(u16::to_le_bytes).collect();
    enc.write_all(&[0xFF, 0xFE]).unwrap();
    let games = (mb << 20) / units.len() as u64;
    for _ in 0..games {
        enc.write_all(&units).unwrap();
    }
    enc.finish().unwrap();
    games
}

fn utf16_from_a_small_zst(mb: u64) {
    let dir = TempDir::new("bounded-utf16");
    let games = utf16_zst(&dir.0.join("u.sgf.zst"), mb);
    let size = std::fs::metadata(dir.0.join("u.sgf.zst")).unwrap().len();
    assert!(size < (mb << 20) / 50, "{size} bytes compressed");
    let run = run_fed(
        &dir.0,
        &["check", "-q", "--format", "json", "u.sgf.zst"],
        |_| Ok(()),
    );
    let summary = summary(&run);
    assert_eq!(summary["games"], games, "{}", run.err);
    assert_eq!(summary["failed"], 0);
    eprintln!("{mb} MB of UTF-16: peak {} KiB", run.peak_kib);
    assert!(run.peak_kib < MAX_PEAK_KIB, "peak {} KiB", run.peak_kib);
}

#[test]
fn utf16_is_decoded_as_a_stream() {
    utf16_from_a_small_zst(200);
}

#[test]
#[ignore = "full size of the report: 1.5 GB of UTF-16, several minutes"]
fn utf16_is_decoded_as_a_stream_full_size() {
    utf16_from_a_small_zst(1536);
}

fn an_sgfs_line_with_no_end(mb: u64) {
    let dir = TempDir::new("bounded-sgfs");
    // A file named `.sgfs`: one game per line.
    let path = dir.0.join("g.sgfs");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    file.write_all(b"(;GM[1];B[aa])\n(;GM[1]C[").unwrap();
    repeat(&mut file, b'x', mb << 20).unwrap();
    file.write_all(b"])\n(;GM[1];W[bb])\n").unwrap();
    file.flush().unwrap();
    drop(file);
    let args = [
        "check",
        "-q",
        "--format",
        "json",
        "--max-line-bytes",
        "1048576",
        "g.sgfs",
    ];
    let run = run_fed(&dir.0, &args, |_| Ok(()));
    eprintln!("an .sgfs line of {mb} MB: peak {} KiB", run.peak_kib);
    assert!(run.peak_kib < MAX_PEAK_KIB, "peak {} KiB", run.peak_kib);
    let file_line: serde_json::Value =
        serde_json::from_str(run.tail.lines().next().unwrap()).unwrap();
    assert_eq!(file_line["games"], 2, "{}", run.err);
    let errors = file_line["line_errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0]["kind"], "line_too_long");
    assert_eq!(errors[0]["line"], 2);
    assert_eq!(errors[0]["offset"], 15);
    assert_eq!(summary(&run)["failed_lines"], 1);
}

#[test]
fn an_sgfs_line_over_the_limit_is_skipped_unheld() {
    an_sgfs_line_with_no_end(100);
}

fn check_json_over_many_games(games: u64) {
    let dir = TempDir::new("bounded-json");
    let run = run_fed(&dir.0, &["check", "--format", "json", "-"], move |out| {
        let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
        for i in 0..games {
            let charset = if i % 2 == 0 { "CA[UTF-8]" } else { "" };
            write!(out, "(;GM[1]{charset};B[aa])")?;
        }
        out.flush()
    });
    let summary = summary(&run);
    assert_eq!(summary["games"], games, "{}", run.err);
    let file_line: serde_json::Value =
        serde_json::from_str(run.tail.lines().next().unwrap()).unwrap();
    let by_charset: u64 = file_line["charsets"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(by_charset, games);
    eprintln!(
        "check --format json, {games} games: peak {} KiB",
        run.peak_kib
    );
    assert!(run.peak_kib < MAX_PEAK_KIB, "peak {} KiB", run.peak_kib);
}

#[test]
fn check_json_memory_does_not_grow_with_the_games() {
    check_json_over_many_games(2_000_000);
}

#[test]
#[ignore = "full size of the report: 26.7 million games, tens of minutes in a debug build"]
fn check_json_memory_does_not_grow_with_the_games_full_size() {
    check_json_over_many_games(26_700_000);
}

#[test]
#[ignore = "full size of the report: 10 GiB of spaces from a small .zst, several minutes"]
fn ten_gib_of_spaces_in_a_small_zst_full_size() {
    let dir = TempDir::new("bounded-zst-spaces");
    let file = std::fs::File::create(dir.0.join("s.sgf.zst")).unwrap();
    let mut enc = zstd::stream::write::Encoder::new(file, 3).unwrap();
    repeat(&mut enc, b' ', 10 << 30).unwrap();
    enc.write_all(b"(;GM[1])").unwrap();
    enc.finish().unwrap();
    let run = run_fed(
        &dir.0,
        &["check", "-q", "--format", "json", "s.sgf.zst"],
        |_| Ok(()),
    );
    assert_eq!(summary(&run)["games"], 1, "{}", run.err);
    assert!(run.peak_kib < MAX_PEAK_KIB, "peak {} KiB", run.peak_kib);
}

#[test]
fn a_stream_of_whitespace_alone_fails_with_no_game() {
    // Dropped as it is read, and still no game: the input fails.
    let dir = TempDir::new("bounded-code");
    let run = run_fed(&dir.0, &["check", "-q", "-"], |out| repeat(out, b' ', 1000));
    assert_eq!(run.code, Some(1), "{}", run.err);
}

/// `check` of an `.sgfs` member of two million bad lines: each line's error
/// is a message under `--max-messages`, so the member's report holds at
/// most that many, whatever the number of lines (before, the text report
/// of a member was built whole: over 150 MB for this file).
#[test]
fn check_of_millions_of_bad_sgfs_lines_holds_at_most_max_messages() {
    const LINES: usize = 2_000_000;
    let dir = TempDir::new("sgfs-bad-lines");
    let path = dir.0.join("bad.sgfs");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    file.write_all(b"(;GM[1];B[aa])\n").unwrap();
    for _ in 0..LINES {
        file.write_all(b"not a game\n").unwrap();
    }
    file.write_all(b"(;GM[1];W[bb])\n").unwrap();
    file.flush().unwrap();
    drop(file);
    let run = crate::big_input::run_watched(&dir.0, &["check", "-j", "2", "bad.sgfs"]);
    eprintln!("{LINES} bad .sgfs lines: peak {} KiB", run.peak_kib);
    assert!(run.peak_kib < MAX_PEAK_KIB, "peak {} KiB", run.peak_kib);
    let errors = run.head.matches("error[no_game_tree]").count();
    assert_eq!(errors, 1000, "the default --max-messages");
    assert!(
        run.head.contains("games:    2\n"),
        "{}",
        &run.head[run.head.len().saturating_sub(2000)..]
    );
    assert!(
        run.head.contains("1,999,000 over --max-messages 1000"),
        "{}",
        &run.head[run.head.len().saturating_sub(2000)..]
    );
}
