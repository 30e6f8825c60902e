//! What several test modules share: the real corpus beside the repository,
//! temporary folders.

use std::path::{Path, PathBuf};

/// `../shared/corpus`, or `None` (the skip reported, see [`skipped`]) when
/// it is absent; panics instead when the `CI` environment variable is set.
/// For the tests that check what the shared corpus holds (its counts, its
/// files); [`any_corpus_dir`] for those that hold for any archive.
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var_os("CI").is_some() {
        panic!("CI is set but the real corpus {} is missing", dir.display());
    }
    skipped(&format!(
        "the real corpus {} is absent (set CI to make this an error)",
        dir.display()
    ));
    None
}

/// The folder named by `SGF_GROVE_CORPUS` (any folder of SGF files: one's
/// own archive), else [`corpus_dir`]. Also returns whether it is the
/// shared corpus, whose exact counts a test may check besides.
pub fn any_corpus_dir() -> Option<(PathBuf, bool)> {
    match std::env::var_os("SGF_GROVE_CORPUS") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            assert!(
                dir.is_dir(),
                "SGF_GROVE_CORPUS names no folder: {}",
                dir.display()
            );
            Some((dir, false))
        }
        None => corpus_dir().map(|dir| (dir, true)),
    }
}

/// Reports a skipped test as `SKIPPED test-name: reason` on the process's
/// standard error itself: the test harness captures `eprintln!`, and a skip
/// must show (and be counted by `.ci/run`) even when the test passes.
pub fn skipped(reason: &str) {
    use std::io::Write;
    let thread = std::thread::current();
    let name = thread.name().unwrap_or("a test");
    let _ = writeln!(std::io::stderr().lock(), "SKIPPED {name}: {reason}");
}

/// Every `.sgf` file (in any letter case) under `dir`, sorted.
pub fn sgf_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("readable folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
            {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// A fresh folder under the system's temporary folder, removed on drop;
/// `name` keeps the folders of tests apart.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        // Tests of several modules run at once in this process: a number
        // keeps two with the same name apart.
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("sgf-grove-test-{}-{n}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }

    /// Writes `bytes` to `rel` (creating folders) and returns the full path.
    pub fn write(&self, rel: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, bytes).unwrap();
        path
    }

    /// An origin printed with this folder's path, relative to it (`/`
    /// separators).
    pub fn rel(&self, origin: &str) -> String {
        let root = format!("{}/", self.0.display());
        origin.replace(&root, "")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `sgf args…` in `dir` with no standard input and waits for it.
pub fn sgf(dir: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_sgf"))
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run sgf")
}

/// What a run printed on standard output, as text.
pub fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// What a run printed on standard error, as text.
pub fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `data` gzip-compressed.
#[cfg(feature = "cli")]
pub fn gzip(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

/// A tar archive of `(name, bytes)` entries.
#[cfg(feature = "cli")]
pub fn tar(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for (name, data) in entries {
        let mut header = tar::Header::new_gnu();
        header.set_size(data.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        builder.append_data(&mut header, name, *data).unwrap();
    }
    builder.into_inner().unwrap()
}

/// A zip archive of `(name, bytes)` entries, deflated.
#[cfg(feature = "cli")]
pub fn zip(entries: &[(&str, &[u8])]) -> Vec<u8> {
    use std::io::Write;
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, data) in entries {
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        writer.start_file(*name, options).unwrap();
        writer.write_all(data).unwrap();
    }
    writer.finish().unwrap().into_inner()
}
