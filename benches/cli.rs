//! The `sgf` tool end to end: whole-process runs of `sgf stats` and `sgf
//! export --format parquet` (games and moves tables) over the shared
//! corpus as a folder, as one concatenated collection and as a `.tar.gz`,
//! on one thread and on all. `Throughput::Bytes` is the corpus's bytes, so
//! criterion prints MiB/s; games/s are printed at start-up from the games
//! count of one run.
//!
//! | id                                  | what                                              |
//! |-------------------------------------|---------------------------------------------------|
//! | `cli/stats/{folder,concat,tar_gz}/{1,N}` | `sgf stats -q -j J PATH`                      |
//! | `cli/stats/stdin/{1,N}`             | `sgf stats -q -j J -`, the concatenation on standard input |
//! | `cli/floor/folder/{1,N}`            | every file of the folder listed, then opened, read whole and closed on J threads, nothing else: the floor of `stats/folder` |
//! | `cli/export/{folder,concat}/{1,N}`  | `sgf export -q -j J --format parquet --out DIR PATH` |
//! | `cli/gunzip/tar_gz`                 | the `.tar.gz` decompressed in-process, nothing else: the decompressor's share of `stats/tar_gz` |
//!
//! The folder is read from the page cache (a first run warms it). The
//! concatenation is every file in sorted order joined by `cat` (no
//! separator added); the `.tar.gz` holds the same files (written here with
//! `flate2` at its default level).
//!
//! Run: `cargo bench --features cli --bench cli` (about 5 minutes on 2
//! cores). Inputs: the shared corpus at `../shared/corpus`, or
//! `SGF_GROVE_CORPUS`; without it, the small synthetic games.

mod common;

use criterion::Criterion;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `sgf args…`, which must end with status 0, or 1 (some input
/// failed: the corpus holds files that are not SGF text); returns its
/// standard output.
fn sgf(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_sgf"))
        .args(args)
        .output()
        .expect("runs sgf");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "sgf {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Runs `sgf args…` with the file `input` as standard input, as [`sgf`].
fn sgf_stdin(args: &[&str], input: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_sgf"))
        .args(args)
        .stdin(std::fs::File::open(input).expect("opens the input"))
        .output()
        .expect("runs sgf");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "sgf {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Lists every file under `folder`, then opens, reads whole and closes
/// each on `jobs` threads, a few files at a time; returns the bytes read.
fn read_every_file(folder: &Path, jobs: usize) -> usize {
    let mut files = Vec::new();
    let mut stack = vec![folder.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            match entry.file_type() {
                Ok(t) if t.is_dir() => stack.push(entry.path()),
                Ok(t) if t.is_file() => files.push(entry.path()),
                _ => {}
            }
        }
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let total = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                let mut buf = Vec::new();
                loop {
                    let at = next.fetch_add(32, std::sync::atomic::Ordering::Relaxed);
                    if at >= files.len() {
                        break;
                    }
                    for path in &files[at..files.len().min(at + 32)] {
                        buf.clear();
                        if let Ok(mut file) = std::fs::File::open(path) {
                            let _ = file.read_to_end(&mut buf);
                        }
                        total.fetch_add(buf.len(), std::sync::atomic::Ordering::Relaxed);
                    }
                }
            });
        }
    });
    total.into_inner()
}

/// The games `sgf stats --format json` counts in `path`.
fn games(path: &Path) -> u64 {
    let out = sgf(&["stats", "-q", "--format", "json", path.to_str().unwrap()]);
    let key = "\"games\":";
    let at = out.find(key).expect("a games count") + key.len();
    out[at..]
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a number")
}

/// The inputs: a folder of the corpus files, their concatenation and a
/// `.tar.gz` of them, in a scratch folder.
struct Inputs {
    folder: PathBuf,
    concat: PathBuf,
    tar_gz: PathBuf,
    bytes: usize,
    scratch: PathBuf,
}

fn inputs() -> Inputs {
    let loaded = common::load_inputs();
    let scratch = std::env::temp_dir().join(format!("sgf-grove-cli-bench-{}", std::process::id()));
    let folder = if loaded.real {
        std::env::var_os("SGF_GROVE_CORPUS")
            .map_or_else(|| PathBuf::from(common::CORPUS_DIR), PathBuf::from)
    } else {
        let folder = scratch.join("synthetic");
        for f in &loaded.files {
            let path = folder.join(&f.name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, &f.bytes).unwrap();
        }
        folder
    };
    std::fs::create_dir_all(&scratch).unwrap();
    let concat = scratch.join("all.sgf");
    let mut joined = Vec::new();
    let gz = std::fs::File::create(scratch.join("all.tar.gz")).unwrap();
    let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(
        gz,
        flate2::Compression::default(),
    ));
    for f in &loaded.files {
        joined.extend_from_slice(&f.bytes);
        let mut header = tar::Header::new_gnu();
        header.set_mode(0o644);
        header.set_size(f.bytes.len() as u64);
        header.set_cksum();
        tar.append_data(&mut header, &f.name, &f.bytes[..]).unwrap();
    }
    tar.into_inner().unwrap().finish().unwrap().flush().unwrap();
    std::fs::write(&concat, &joined).unwrap();
    Inputs {
        folder,
        concat,
        tar_gz: scratch.join("all.tar.gz"),
        bytes: loaded.total_bytes(),
        scratch,
    }
}

fn bench(c: &mut Criterion) {
    let inputs = inputs();
    let all = std::thread::available_parallelism().map_or(2, |n| n.get());
    let jobs: Vec<usize> = if all > 1 { vec![1, all] } else { vec![1] };
    let kinds = [
        ("folder", &inputs.folder),
        ("concat", &inputs.concat),
        ("tar_gz", &inputs.tar_gz),
    ];
    for (kind, path) in kinds {
        eprintln!("{kind}: {} games", games(path));
    }
    let tar_gz_len = std::fs::metadata(&inputs.tar_gz).map_or(0, |m| m.len());
    eprintln!(
        "corpus: {:.1} MB; .tar.gz {:.1} MB; games/s = games / (seconds of an id)",
        common::mb(inputs.bytes),
        common::mb(tar_gz_len as usize)
    );

    let mut group = c.benchmark_group("cli/stats");
    common::big(&mut group, 2, 10);
    group.throughput(common::bytes(inputs.bytes));
    for (kind, path) in kinds {
        for &j in &jobs {
            let j_arg = j.to_string();
            let id = format!("{kind}/{j}");
            let path = path.to_str().unwrap();
            group.bench_function(id, |b| {
                b.iter(|| sgf(&["stats", "-q", "-j", &j_arg, path]));
            });
        }
    }
    for &j in &jobs {
        let j_arg = j.to_string();
        group.bench_function(format!("stdin/{j}"), |b| {
            b.iter(|| sgf_stdin(&["stats", "-q", "-j", &j_arg, "-"], &inputs.concat));
        });
    }
    group.finish();

    let mut group = c.benchmark_group("cli/floor");
    common::big(&mut group, 2, 10);
    group.throughput(common::bytes(inputs.bytes));
    for &j in &jobs {
        group.bench_function(format!("folder/{j}"), |b| {
            b.iter(|| read_every_file(&inputs.folder, j));
        });
    }
    group.finish();

    let mut group = c.benchmark_group("cli/export");
    common::big(&mut group, 2, 15);
    group.throughput(common::bytes(inputs.bytes));
    let out = inputs.scratch.join("tables");
    let out = out.to_str().unwrap();
    for (kind, path) in &kinds[..2] {
        for &j in &jobs {
            let j_arg = j.to_string();
            let path = path.to_str().unwrap();
            group.bench_function(format!("{kind}/{j}"), |b| {
                b.iter(|| {
                    let args = [
                        "export", "-q", "-j", &j_arg, "--format", "parquet", "--out", out, path,
                    ];
                    sgf(&args)
                });
            });
        }
    }
    group.finish();

    let mut group = c.benchmark_group("cli/gunzip");
    common::big(&mut group, 1, 5);
    group.throughput(common::bytes(inputs.bytes));
    let packed = std::fs::read(&inputs.tar_gz).unwrap();
    group.bench_function("tar_gz", |b| {
        let mut buf = vec![0u8; 1 << 16];
        b.iter(|| {
            let mut dec = flate2::read::MultiGzDecoder::new(&packed[..]);
            let mut n = 0;
            loop {
                let got = dec.read(&mut buf).unwrap();
                if got == 0 {
                    break n;
                }
                n += got;
            }
        });
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&inputs.scratch);
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
