//! Memory stays bounded on inputs of any size: `sgf stats` and `sgf
//! export --format parquet` over a generated `.tar.gz` whose member holds more than two
//! gigabytes of games, on one thread and on two, with the process's peak
//! resident memory read from `/proc` while it runs.
//!
//! The archive is built without compressing two gigabytes: a gzip file may
//! be several gzip members one after the other (as `pigz` and `cat a.gz
//! b.gz` make them), and decompresses to their contents joined. So the tar
//! header, one chunk of games compressed once and written many times, and
//! the tar's end are each a member.

#![cfg(all(target_os = "linux", feature = "cli"))]

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::TempDir;

/// Bytes of games after decompression: over 2 GiB.
const CHUNKS: usize = 500;
const CHUNK_GAMES: usize = 4_000;

/// A few different games, `CHUNK_GAMES` in all, one per line, each of 10
/// moves and a comment of about a kilobyte (as commented games have).
pub fn chunk() -> Vec<u8> {
    let comment = "A long comment on the opening, with [escaped\\] brackets. ".repeat(16);
    let mut out = Vec::new();
    for i in 0..CHUNK_GAMES {
        let (x, y) = (
            (b'a' + (i % 19) as u8) as char,
            (b'a' + (i / 19 % 19) as u8) as char,
        );
        writeln!(
            out,
            "(;GM[1]FF[4]SZ[19]KM[6.5]PB[Black {}]PW[White]RE[B+R]DT[2024-05-0{}]\
             ;B[pd];W[dp];B[{x}{y}];W[dd];B[pq];W[qn]C[a comment to give the game some length]\
             ;B[nq];W[qk];B[fc];W[cf]C[{comment}])",
            i % 7,
            1 + i % 9,
        )
        .unwrap();
    }
    out
}

pub fn gzip_member(data: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

/// Writes `huge.tar.gz`: a small member `a.sgf` (one game), then
/// `huge.sgf` (`CHUNKS` chunks). Returns the number of
/// games and the bytes of `huge.sgf`.
fn write_archive(path: &Path) -> (usize, u64) {
    let chunk = chunk();
    let packed = gzip_member(&chunk);
    let small = b"(;GM[1]SZ[9];B[ee])\n";
    let size = (chunk.len() * CHUNKS) as u64;
    let header = |name: &str, size: u64| {
        let mut h = tar::Header::new_gnu();
        h.set_path(name).unwrap();
        h.set_mode(0o644);
        h.set_size(size);
        h.set_cksum();
        h.as_bytes().to_vec()
    };
    let pad = |len: u64| vec![0u8; ((512 - len % 512) % 512) as usize];
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut head = header("a.sgf", small.len() as u64);
    head.extend_from_slice(small);
    head.extend(pad(small.len() as u64));
    head.extend(header("huge.sgf", size));
    file.write_all(&gzip_member(&head)).unwrap();
    for _ in 0..CHUNKS {
        file.write_all(&packed).unwrap();
    }
    let mut end = pad(size);
    end.extend([0u8; 1024]);
    file.write_all(&gzip_member(&end)).unwrap();
    file.flush().unwrap();
    (1 + CHUNK_GAMES * CHUNKS, size)
}

/// The kilobytes of `VmHWM` (peak resident memory) of process `pid`.
fn peak_kib_of(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// What a run gave: the first megabyte of its standard output, its
/// number of lines, and the highest peak resident memory seen while it
/// ran (read every 20 ms: the peak is a high-water mark, so a late
/// reading loses nothing before it).
pub struct Run {
    pub head: String,
    pub lines: usize,
    pub peak_kib: u64,
}

/// Runs `sgf args…` in `dir`, reading its standard output as it comes
/// (gigabytes of JSON Lines are counted, not stored).
pub fn run_watched(dir: &Path, args: &[&str]) -> Run {
    let err_path = dir.join("err");
    let mut child = Command::new(env!("CARGO_BIN_EXE_sgf"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let (mut head, mut lines, mut buf) = (Vec::new(), 0, vec![0u8; 1 << 16]);
        loop {
            let n = stdout.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            lines += buf[..n].iter().filter(|&&b| b == b'\n').count();
            let room = (1usize << 20).saturating_sub(head.len()).min(n);
            head.extend_from_slice(&buf[..room]);
        }
        (String::from_utf8(head).unwrap(), lines)
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
    let (head, lines) = reader.join().unwrap();
    let err = std::fs::read_to_string(err_path).unwrap();
    assert!(status.success(), "sgf {args:?}: {status}: {err}");
    Run {
        head,
        lines,
        peak_kib,
    }
}

/// Peak resident memory allowed, whatever the input's size: the parse of
/// one game, the games in flight to the workers and their results, the
/// program itself (about 10 MB resident).
pub const MAX_PEAK_KIB: u64 = 96 * 1024;

#[test]
fn stats_and_export_of_a_multi_gigabyte_tar_gz_stay_in_bounded_memory() {
    let dir = TempDir::new("big-input");
    let archive = dir.0.join("huge.tar.gz");
    let (games, size) = write_archive(&archive);
    assert!(size > 2 << 30, "{size} bytes");
    let on_disk = std::fs::metadata(&archive).unwrap().len();
    eprintln!("huge.tar.gz: {on_disk} bytes on disk, {size} bytes of games");
    // One thread reads game by game as a plain stream; two cut the games
    // on the calling thread and hand them to the workers.
    for jobs in ["1", "2"] {
        let args = ["stats", "-q", "--format", "json", "-j", jobs, "huge.tar.gz"];
        let run = run_watched(&dir.0, &args);
        assert_eq!(run.lines, 1, "one JSON object: {}", run.head);
        let stats: serde_json::Value = serde_json::from_str(&run.head).unwrap();
        assert_eq!(stats["games"], games as u64, "jobs {jobs}");
        assert_eq!(stats["failed"], 0, "jobs {jobs}");
        assert!(stats["bytes"].as_u64().unwrap() > 2 << 30, "jobs {jobs}");
        eprintln!("stats -j {jobs}: peak {} KiB", run.peak_kib);
        assert!(
            run.peak_kib < MAX_PEAK_KIB,
            "stats -j {jobs}: peak {} KiB",
            run.peak_kib
        );
    }
    // Export holds a row group per table, whatever the input's size.
    let args = [
        "export",
        "-q",
        "-j",
        "2",
        "--format",
        "parquet",
        "--out",
        "tables",
        "huge.tar.gz",
    ];
    let run = run_watched(&dir.0, &args);
    eprintln!("export -j 2: peak {} KiB", run.peak_kib);
    assert!(
        run.peak_kib < MAX_PEAK_KIB,
        "export: peak {} KiB",
        run.peak_kib
    );
    let rows = |name: &str| {
        let file = std::fs::File::open(dir.0.join("tables").join(name)).unwrap();
        let reader = parquet::file::reader::SerializedFileReader::new(file).unwrap();
        parquet::file::reader::FileReader::metadata(&reader)
            .file_metadata()
            .num_rows() as usize
    };
    assert_eq!(rows("games.parquet"), games);
    assert_eq!(rows("moves.parquet"), 1 + (games - 1) * 10);
}
