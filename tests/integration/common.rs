//! What several test modules share: the real corpus beside the repository.

use std::path::{Path, PathBuf};

/// `../shared/corpus`, or `None` (with the reason printed) when it is
/// absent; panics instead when the `CI` environment variable is set.
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var_os("CI").is_some() {
        panic!("CI is set but the real corpus {} is missing", dir.display());
    }
    eprintln!(
        "skipping: the real corpus {} is absent (set CI to make this an error)",
        dir.display()
    );
    None
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
