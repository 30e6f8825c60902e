//! `INDEX/manifest`: what an index holds, as text. Written to a temporary
//! file and renamed over the old one, so that an index is always the one
//! before an update or the one after it.
//!
//! ```text
//! sgf-grove position index 1
//! games 48881
//! games_bytes 5123456
//! next_run 3
//! run run-000001.pos 9123456
//! run run-000002.pos 51234
//! ```

use super::games::corrupt;
use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

const FIRST_LINE: &str = "sgf-grove position index 1";

/// The contents of the manifest.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Manifest {
    /// Games in the games table (entries past them are not committed).
    pub(crate) games: u32,
    /// Bytes of `games.dat` that hold those games.
    pub(crate) games_bytes: u64,
    /// The number of the next run file.
    pub(crate) next_run: u64,
    /// The runs, oldest first: file name and rows.
    pub(crate) runs: Vec<(String, u64)>,
}

impl Manifest {
    pub(crate) fn path(dir: &Path) -> std::path::PathBuf {
        dir.join("manifest")
    }

    pub(crate) fn read(dir: &Path) -> io::Result<Manifest> {
        let text = std::fs::read_to_string(Manifest::path(dir))?;
        let mut lines = text.lines();
        if lines.next() != Some(FIRST_LINE) {
            return Err(corrupt("the manifest's first line is not that of an index"));
        }
        let mut m = Manifest::default();
        for line in lines {
            let mut words = line.split(' ');
            let bad = || corrupt(&format!("manifest line {line:?}"));
            let num = |w: Option<&str>| w.and_then(|w| w.parse::<u64>().ok()).ok_or_else(bad);
            match words.next() {
                Some("games") => {
                    m.games = u32::try_from(num(words.next())?).map_err(|_| bad())?;
                }
                Some("games_bytes") => m.games_bytes = num(words.next())?,
                Some("next_run") => m.next_run = num(words.next())?,
                Some("run") => {
                    let name = words.next().filter(|n| is_run_name(n)).ok_or_else(bad)?;
                    let rows = num(words.next())?;
                    m.runs.push((name.to_owned(), rows));
                }
                Some("") | None => {}
                Some(_) => return Err(bad()),
            }
        }
        Ok(m)
    }

    pub(crate) fn write(&self, dir: &Path) -> io::Result<()> {
        let mut text = format!(
            "{FIRST_LINE}\ngames {}\ngames_bytes {}\nnext_run {}\n",
            self.games, self.games_bytes, self.next_run
        );
        for (name, rows) in &self.runs {
            text.push_str(&format!("run {name} {rows}\n"));
        }
        let tmp = dir.join("manifest.tmp");
        let mut file = File::create(&tmp)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&tmp, Manifest::path(dir))?;
        // The rename itself is made durable by syncing the folder, where
        // the system allows opening one.
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    }

    /// The name of run number `n`.
    pub(crate) fn run_name(n: u64) -> String {
        format!("run-{n:06}.pos")
    }

    /// Rows in all runs.
    pub(crate) fn rows(&self) -> u64 {
        self.runs.iter().map(|r| r.1).sum()
    }
}

/// Whether `name` is a run file's name (no path in it).
pub(crate) fn is_run_name(name: &str) -> bool {
    name.starts_with("run-")
        && name.ends_with(".pos")
        && name[4..name.len() - 4].bytes().all(|b| b.is_ascii_digit())
        && name.len() > 8
}
