//! A file replaced through [`Replace`](crate::atomic::Replace) with a
//! failure injected before one of its steps (create the temporary file,
//! write, owner and mode, sync, rename, sync the folder), as an error or
//! as a crash (files left as a killed process leaves them): the file holds
//! its old bytes or its new ones, never anything else; an error leaves no
//! temporary file; a crash leaves at most one, named so that folder walks
//! skip it ([`is_temporary`](crate::atomic::is_temporary)), and the next
//! replace of the file removes it.
//!
//! Run by the fuzz target of the same name and, on `fuzz/regressions/`, by
//! `tests/integration/fuzz_regressions.rs`.

use super::repro;
use crate::atomic::{is_temporary, Hooks, Replace, Step};
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Numbers the folders of this process's checks.
static NEXT: AtomicU64 = AtomicU64::new(0);

/// A fresh folder for one check, removed on drop.
struct Folder(PathBuf);

impl Folder {
    fn new() -> Folder {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!(
            "sgf-grove-oracle-inplace-{}-{n}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).expect("a temporary folder");
        Folder(path)
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// The names in `dir` other than `file`.
fn others(dir: &Path, file: &str) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .expect("the folder")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n != file)
        .collect();
    names.sort();
    names
}

/// Runs the checks on `input`: its first byte picks the step that fails
/// (or none) and whether as a crash, its second where the rest splits into
/// the old and the new bytes. Panics with a reproducer on a violation.
pub fn check_inplace(input: &[u8]) {
    let [control, split, rest @ ..] = input else {
        return;
    };
    let step = Step::ALL.get(usize::from(control & 7)).copied();
    let crash = control & 8 != 0;
    let mid = usize::from(*split) * rest.len() / 255;
    let (old, new) = rest.split_at(mid.min(rest.len()));
    let folder = Folder::new();
    let path = folder.0.join("g.sgf");
    fs::write(&path, old).expect("the old file");
    let hooks = Hooks {
        fail_before: step,
        crash,
        pause_before_rename: None,
    };
    let ctx = || format!("{}\nstep {step:?}, crash {crash}", repro(input));
    let committed = match Replace::with_hooks(&path, hooks) {
        Ok(mut replace) => {
            // In pieces, as a writer writes.
            for piece in new.chunks(7) {
                replace
                    .write_all(piece)
                    .expect("a write to the temporary file");
            }
            replace.commit().is_ok()
        }
        Err(_) => false,
    };
    let now = fs::read(&path).unwrap_or_else(|e| panic!("the file is gone: {e}\n{}", ctx()));
    let renamed = matches!(step, None | Some(Step::SyncFolder));
    assert_eq!(committed, step.is_none(), "{}", ctx());
    if renamed {
        assert_eq!(now, new, "the new bytes are not there\n{}", ctx());
    } else {
        assert_eq!(now, old, "the old bytes are not there\n{}", ctx());
    }
    let left = others(&folder.0, "g.sgf");
    if !crash || renamed || step == Some(Step::Create) {
        assert!(left.is_empty(), "files left behind: {left:?}\n{}", ctx());
        return;
    }
    assert_eq!(left.len(), 1, "{left:?}\n{}", ctx());
    assert!(
        is_temporary(left[0].as_ref()),
        "a file a walk would read: {left:?}\n{}",
        ctx()
    );
    // The next replace removes what the crash left.
    let again = Replace::new(&path).unwrap_or_else(|e| panic!("{e}\n{}", ctx()));
    assert_eq!(again.removed().len(), 1, "{}", ctx());
    drop(again);
    assert!(others(&folder.0, "g.sgf").is_empty(), "{}", ctx());
    assert_eq!(fs::read(&path).expect("the file"), old, "{}", ctx());
}

#[cfg(test)]
mod tests {
    use super::check_inplace;

    #[test]
    fn every_step_and_both_ways_of_failing() {
        for control in 0..16u8 {
            for split in [0u8, 90, 255] {
                let mut input = vec![control, split];
                input.extend_from_slice(b"(;GM[1];B[aa])(;GM[1];W[bb];B[cc])");
                check_inplace(&input);
            }
        }
        check_inplace(&[3]);
        check_inplace(&[]);
    }
}
