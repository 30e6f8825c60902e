//! Shared by the benches: loading the corpus, criterion settings, the
//! synthetic fallback, the sgf-parse comparison sets and peak-RSS readings.
//!
//! Not a bench target of its own: cargo only discovers `benches/*.rs` and
//! `benches/*/main.rs`.

#![allow(dead_code)] // each bench uses a different part

use std::fs;
use std::path::{Path, PathBuf};

/// The shared real-world corpus (49,264 files, 72.8 MB), next to the crate.
/// The environment variable `SGF_GROVE_CORPUS` names another directory.
pub const CORPUS_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus");

/// sgf-parse is ~100× slower than sgf-grove and needs ~100× the input in
/// memory, so the head-to-head comparisons in `parse` run on every
/// `COMPARE_STRIDE`th file of the sorted corpus (a fixed sample spread over
/// every source folder; a prefix of the sorted paths would be only Hex games
/// and old Fox pro games).
pub const COMPARE_STRIDE: usize = 8;

/// One input file.
pub struct File {
    /// Path relative to the corpus directory (or a made-up name).
    pub name: String,
    pub bytes: Vec<u8>,
}

/// The files to benchmark, and whether they are the real corpus.
pub struct Inputs {
    pub files: Vec<File>,
    pub real: bool,
}

impl Inputs {
    pub fn total_bytes(&self) -> usize {
        self.files.iter().map(|f| f.bytes.len()).sum()
    }
}

/// Loads the real corpus, or prints why not and falls back to the synthetic
/// games.
pub fn load_inputs() -> Inputs {
    let dir = std::env::var_os("SGF_GROVE_CORPUS")
        .map_or_else(|| PathBuf::from(CORPUS_DIR), PathBuf::from);
    match load_corpus(&dir) {
        Ok(files) if !files.is_empty() => {
            let inputs = Inputs { files, real: true };
            eprintln!(
                "corpus: {} files, {} bytes from {}",
                inputs.files.len(),
                inputs.total_bytes(),
                dir.display()
            );
            inputs
        }
        outcome => {
            let why = match outcome {
                Ok(_) => "it holds no .sgf file".to_string(),
                Err(e) => e.to_string(),
            };
            eprintln!(
                "NOTE: real corpus not available at {} ({why}).\n\
                 NOTE: benchmarking only the small built-in synthetic games; \
                 numbers are NOT comparable with corpus runs.",
                dir.display()
            );
            Inputs {
                files: synthetic_files(),
                real: false,
            }
        }
    }
}

/// Every `.sgf` / `.SGF` file under `dir`, recursively, in sorted path order.
pub fn load_corpus(dir: &Path) -> std::io::Result<Vec<File>> {
    let mut paths = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d)? {
            let entry = entry?;
            let path = entry.path();
            let kind = entry.file_type()?;
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file() && is_sgf(&path) {
                paths.push(path);
            }
        }
    }
    paths.sort();
    paths
        .into_iter()
        .map(|path: PathBuf| {
            let bytes = fs::read(&path)?;
            let name = path
                .strip_prefix(dir)
                .unwrap_or(&path)
                .to_string_lossy()
                .into_owned();
            Ok(File { name, bytes })
        })
        .collect()
}

fn is_sgf(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
}

/// All files joined with `\n` into one collection.
pub fn concat<'a>(files: impl IntoIterator<Item = &'a [u8]>) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, f) in files.into_iter().enumerate() {
        if i > 0 {
            out.push(b'\n');
        }
        out.extend_from_slice(f);
    }
    out
}

/// One synthetic game: a root with game info, `moves` moves with a comment
/// every 10th move and a two-move variation every 25th.
pub fn synthetic_game(seed: usize, moves: usize) -> Vec<u8> {
    let coord = |i: usize| {
        let x = (i * 7 + seed) % 19;
        let y = (i * 11 + seed / 3) % 19;
        [b'a' + x as u8, b'a' + y as u8]
    };
    let mut s = String::new();
    s.push_str(&format!(
        "(;GM[1]FF[4]CA[UTF-8]AP[synthetic:1]SZ[19]KM[6.5]PB[Black {seed}]PW[White {seed}]\
         DT[2024-01-01]RE[B+R]RU[Japanese]\n"
    ));
    let mut open = 0;
    for i in 0..moves {
        if i % 25 == 24 {
            // A variation: two alternatives, the second one is the main line.
            let [x, y] = coord(i + 1000);
            s.push_str(&format!(
                "(;{}[{}{}]C[What about this one\\]?];{}[aa])(",
                if i % 2 == 0 { 'B' } else { 'W' },
                x as char,
                y as char,
                if i % 2 == 0 { 'W' } else { 'B' }
            ));
            open += 1;
        }
        let [x, y] = coord(i);
        s.push_str(&format!(
            ";{}[{}{}]",
            if i % 2 == 0 { 'B' } else { 'W' },
            x as char,
            y as char
        ));
        if i % 10 == 9 {
            s.push_str(&format!(
                "C[Move {}: a comment with some text, like the ones teachers write.]",
                i + 1
            ));
        }
        if i % 40 == 39 {
            s.push('\n');
        }
    }
    s.push_str(&")".repeat(open + 1));
    s.push('\n');
    s.into_bytes()
}

/// The fallback when the corpus is absent: 100 synthetic games as files.
pub fn synthetic_files() -> Vec<File> {
    (0..100)
        .map(|i| File {
            name: format!("synthetic/{i:03}.sgf"),
            bytes: synthetic_game(i, 150 + i),
        })
        .collect()
}

/// Why a file is left out of an sgf-parse comparison.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Excluded {
    NotUtf8,
    Rejected(String),
    Panicked,
}

/// Runs sgf-parse once on `text`: the number of game trees, or why not.
pub fn sgf_parse_check(text: &str) -> Result<usize, Excluded> {
    match std::panic::catch_unwind(|| sgf_parse::parse(text).map(|trees| trees.len())) {
        Ok(Ok(n)) => Ok(n),
        Ok(Err(e)) => Err(Excluded::Rejected(e.to_string())),
        Err(_) => Err(Excluded::Panicked),
    }
}

/// Tally of excluded files by reason.
#[derive(Default)]
pub struct Exclusions {
    pub counts: std::collections::BTreeMap<Excluded, (usize, String)>,
}

impl Exclusions {
    pub fn add(&mut self, why: Excluded, name: &str) {
        let entry = self.counts.entry(why).or_insert((0, name.to_string()));
        entry.0 += 1;
    }
    pub fn total(&self) -> usize {
        self.counts.values().map(|(n, _)| n).sum()
    }
    pub fn print(&self, label: &str, of: usize) {
        eprintln!("{label}: {} of {of} files excluded", self.total());
        for (why, (n, example)) in &self.counts {
            eprintln!("  {n:6}  {why:?}  (e.g. {example})");
        }
    }
}

/// The indices of the files sgf-parse can take as they are: valid UTF-8 and
/// accepted by `sgf_parse::parse`. Used by `tree/files`.
pub fn sgf_parse_ok_utf8(files: &[File]) -> (Vec<usize>, Exclusions) {
    let mut ok = Vec::new();
    let mut ex = Exclusions::default();
    for (i, f) in files.iter().enumerate() {
        let verdict = match std::str::from_utf8(&f.bytes) {
            Err(_) => Err(Excluded::NotUtf8),
            Ok(text) => sgf_parse_check(text),
        };
        match verdict {
            Ok(_) => ok.push(i),
            Err(why) => ex.add(why, &f.name),
        }
    }
    (ok, ex)
}

/// Lossy UTF-8 conversions (U+FFFD for bad bytes) of the files that
/// sgf-parse accepts after that conversion. Used by the concatenated
/// comparisons (`tree/concat`, `writer`) and by `memory`.
pub fn sgf_parse_ok_lossy<'a>(
    files: impl IntoIterator<Item = &'a File>,
) -> (Vec<String>, Exclusions, usize) {
    let mut ok = Vec::new();
    let mut ex = Exclusions::default();
    let mut converted = 0;
    for f in files {
        let text = String::from_utf8_lossy(&f.bytes);
        converted += matches!(text, std::borrow::Cow::Owned(_)) as usize;
        match sgf_parse_check(&text) {
            Ok(_) => ok.push(text.into_owned()),
            Err(why) => ex.add(why, &f.name),
        }
    }
    (ok, ex, converted)
}

/// The process's peak resident set size (`VmHWM`) in bytes.
pub fn peak_rss() -> Option<usize> {
    status_kb("VmHWM:").map(|kb| kb * 1024)
}

/// The process's current resident set size (`VmRSS`) in bytes.
pub fn current_rss() -> Option<usize> {
    status_kb("VmRSS:").map(|kb| kb * 1024)
}

fn status_kb(field: &str) -> Option<usize> {
    let status = fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line[field.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// Resets `VmHWM` to the current RSS (Linux: `5` to `/proc/self/clear_refs`).
/// Returns whether that worked.
pub fn reset_peak_rss() -> bool {
    fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// Bytes as MB (10^6), for printing.
pub fn mb(bytes: usize) -> f64 {
    bytes as f64 / 1e6
}

/// Criterion settings for ids whose one iteration takes 0.1 s or more: ten
/// flat samples after `warm_up` seconds, measured for `secs` seconds.
pub fn big(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    warm_up: u64,
    secs: u64,
) {
    group
        .sample_size(10)
        .sampling_mode(criterion::SamplingMode::Flat)
        .warm_up_time(std::time::Duration::from_secs(warm_up))
        .measurement_time(std::time::Duration::from_secs(secs));
}

/// Criterion throughput of `n` input bytes.
pub fn bytes(n: usize) -> criterion::Throughput {
    criterion::Throughput::Bytes(n as u64)
}

/// A 19×19 game of `moves` legal moves (picked by a xorshift sequence from
/// `seed`, captures included), as SGF: `root` holds the root's
/// properties after `(;`, `tail` what follows the last move in its node.
pub fn legal_game(moves: usize, mut seed: u64, root: &str, tail: &str) -> String {
    use sgf_grove::game::board::{Board, RuleSet};
    use sgf_grove::value::{BoardSize, Color, Point};
    let mut board = Board::new(BoardSize::square(19), RuleSet::JAPANESE);
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut sgf = format!("(;{root}");
    let mut color = Color::Black;
    let mut played = 0;
    while played < moves {
        let p = Point {
            x: next(19) as u8,
            y: next(19) as u8,
        };
        if board.play(color, p).is_err() {
            continue;
        }
        let c = if color == Color::Black { 'B' } else { 'W' };
        let to = p.to_sgf().expect("on the board");
        sgf.push_str(&format!(";{c}[{}]", String::from_utf8_lossy(&to)));
        color = color.opponent();
        played += 1;
    }
    sgf.push_str(tail);
    sgf.push(')');
    sgf
}
