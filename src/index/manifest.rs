//! `INDEX/manifest`: what an index holds, as text, with a checksum of
//! itself on its last line. Written to a temporary file, synced and
//! renamed over the old one (the folder synced after), so that a reader
//! sees the index before an update or after it, never between.
//!
//! ```text
//! sgf-grove position index 2
//! games 48881
//! games_bytes 5123456
//! games_dat_sum 0123456789abcdef
//! games_off_sum 0123456789abcdef
//! next_run 3
//! run run-000001.pos 9123456 0123456789abcdef
//! run run-000002.pos 51234 0123456789abcdef
//! sum 0123456789abcdef
//! ```
//!
//! `games_dat_sum` and `games_off_sum` are the checksums of the committed
//! part of `games.dat` and `games.off`; each run's sum is the one its file
//! ends with (which covers its header, fences and block sums, and so
//! every row); `sum` covers every line before it. A manifest is read only
//! when it is exactly what [`Manifest::to_text`] writes: every line in its
//! place, each run once, numbered below `next_run`.

use super::checksum::{checksum, from_hex, to_hex};
use super::games::corrupt;
use std::collections::HashSet;
use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

/// The format this version writes and reads.
pub(crate) const FORMAT: u32 = 2;
const FIRST_LINE: &str = "sgf-grove position index 2";
/// The first line of the formats before checksums.
const OLD_FIRST_LINE: &str = "sgf-grove position index 1";

/// One run as the manifest lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RunEntry {
    /// File name (`run-NNNNNN.pos`).
    pub(crate) name: String,
    pub(crate) rows: u64,
    /// The checksum the run file ends with.
    pub(crate) sum: u64,
}

/// The contents of the manifest.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Manifest {
    /// Games in the games table (entries past them are not committed).
    pub(crate) games: u32,
    /// Bytes of `games.dat` that hold those games.
    pub(crate) games_bytes: u64,
    /// Checksum of `games.dat`'s first `games_bytes` bytes.
    pub(crate) games_dat_sum: u64,
    /// Checksum of `games.off`'s first `games` entries.
    pub(crate) games_off_sum: u64,
    /// The number of the next run file.
    pub(crate) next_run: u64,
    /// The runs, oldest first.
    pub(crate) runs: Vec<RunEntry>,
}

impl Manifest {
    pub(crate) fn path(dir: &Path) -> std::path::PathBuf {
        dir.join("manifest")
    }

    /// An empty index's manifest.
    pub(crate) fn empty() -> Manifest {
        Manifest {
            games_dat_sum: checksum(b""),
            games_off_sum: checksum(b""),
            next_run: 1,
            ..Manifest::default()
        }
    }

    /// Reads and checks the manifest of the index in `dir`.
    ///
    /// # Errors
    ///
    /// `NotFound` when there is none; `InvalidData` naming the manifest
    /// for one of another format, a checksum that does not match, or
    /// contents that do not hold together.
    pub(crate) fn read(dir: &Path) -> io::Result<Manifest> {
        let path = Manifest::path(dir);
        let bytes = std::fs::read(&path)?;
        Manifest::parse(&bytes).map_err(|why| corrupt(&format!("{}: {why}", path.display())))
    }

    /// The manifest in `bytes`; `Err` with the reason when it is not one
    /// this version wrote, untouched.
    pub(crate) fn parse(bytes: &[u8]) -> Result<Manifest, String> {
        let Ok(text) = std::str::from_utf8(bytes) else {
            return Err("not text (damaged)".into());
        };
        let first = text.lines().next().unwrap_or("");
        if first == OLD_FIRST_LINE {
            return Err(format!(
                "an index of format 1 (without checksums), which this version no longer \
                 reads (format {FORMAT}): rebuild it with `sgf index build`"
            ));
        }
        if first != FIRST_LINE {
            return Err("not an index's manifest (or one of an unknown format)".into());
        }
        // The sum line covers everything before it.
        let body_end = text.trim_end_matches('\n').rfind('\n').map_or(0, |i| i + 1);
        let sum_line = text[body_end..].strip_suffix('\n').unwrap_or("");
        let stored = sum_line
            .strip_prefix("sum ")
            .and_then(from_hex)
            .ok_or("its last line is not its checksum (cut or damaged)")?;
        if checksum(&bytes[..body_end]) != stored {
            return Err("checksum mismatch (damaged)".into());
        }
        let mut m = Manifest::default();
        let mut seen = HashSet::new();
        for line in text[..body_end].lines().skip(1) {
            let mut words = line.split(' ');
            let bad = || format!("line {line:?} does not hold together");
            let num = |w: Option<&str>| w.and_then(|w| w.parse::<u64>().ok()).ok_or_else(bad);
            let sum = |w: Option<&str>| w.and_then(from_hex).ok_or_else(bad);
            match words.next() {
                Some("games") => m.games = u32::try_from(num(words.next())?).map_err(|_| bad())?,
                Some("games_bytes") => m.games_bytes = num(words.next())?,
                Some("games_dat_sum") => m.games_dat_sum = sum(words.next())?,
                Some("games_off_sum") => m.games_off_sum = sum(words.next())?,
                Some("next_run") => m.next_run = num(words.next())?,
                Some("run") => {
                    let name = words.next().filter(|n| is_run_name(n)).ok_or_else(bad)?;
                    let rows = num(words.next())?;
                    let sum = sum(words.next())?;
                    if !seen.insert(name.to_owned()) {
                        return Err(format!("{name} is listed twice"));
                    }
                    m.runs.push(RunEntry {
                        name: name.to_owned(),
                        rows,
                        sum,
                    });
                }
                _ => return Err(bad()),
            }
        }
        if m.to_text() != text {
            return Err("lines missing, repeated or out of place".into());
        }
        for run in &m.runs {
            if run_number(&run.name).is_none_or(|n| n >= m.next_run) {
                return Err(format!(
                    "{} is listed but the next run is numbered {}",
                    run.name, m.next_run
                ));
            }
        }
        Ok(m)
    }

    /// The manifest as written, its checksum line last.
    pub(crate) fn to_text(&self) -> String {
        let mut text = format!(
            "{FIRST_LINE}\ngames {}\ngames_bytes {}\ngames_dat_sum {}\ngames_off_sum {}\nnext_run {}\n",
            self.games,
            self.games_bytes,
            to_hex(self.games_dat_sum),
            to_hex(self.games_off_sum),
            self.next_run
        );
        for run in &self.runs {
            text.push_str(&format!(
                "run {} {} {}\n",
                run.name,
                run.rows,
                to_hex(run.sum)
            ));
        }
        let sum = checksum(text.as_bytes());
        text.push_str(&format!("sum {}\n", to_hex(sum)));
        text
    }

    /// Replaces the manifest of `dir` with this one (the caller holds the
    /// index's lock).
    pub(crate) fn write(&self, dir: &Path) -> io::Result<()> {
        let tmp = dir.join("manifest.tmp");
        let mut file = File::create(&tmp)?;
        file.write_all(self.to_text().as_bytes())?;
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
        self.runs.iter().map(|r| r.rows).sum()
    }
}

/// Whether `name` is a run file's name (no path in it).
pub(crate) fn is_run_name(name: &str) -> bool {
    run_number(name).is_some()
}

/// The number of run file `name`.
pub(crate) fn run_number(name: &str) -> Option<u64> {
    let digits = name.strip_prefix("run-")?.strip_suffix(".pos")?;
    if digits.len() < 6 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Manifest {
        Manifest {
            games: 3,
            games_bytes: 300,
            games_dat_sum: 1,
            games_off_sum: 2,
            next_run: 3,
            runs: vec![
                RunEntry {
                    name: Manifest::run_name(1),
                    rows: 10,
                    sum: 5,
                },
                RunEntry {
                    name: Manifest::run_name(2),
                    rows: 20,
                    sum: 6,
                },
            ],
        }
    }

    #[test]
    fn manifests_round_trip_and_refuse_any_change() {
        let m = sample();
        let text = m.to_text();
        assert_eq!(Manifest::parse(text.as_bytes()), Ok(m.clone()));
        for at in 0..text.len() {
            let mut bytes = text.clone().into_bytes();
            bytes[at] ^= 0x01;
            assert!(Manifest::parse(&bytes).is_err(), "byte {at} changed");
        }
        for cut in 0..text.len() {
            assert!(
                Manifest::parse(&text.as_bytes()[..cut]).is_err(),
                "cut {cut}"
            );
        }
        let old = "sgf-grove position index 1\ngames 0\n";
        let why = Manifest::parse(old.as_bytes()).unwrap_err();
        assert!(why.contains("rebuild"), "{why}");
    }

    #[test]
    fn a_run_listed_twice_or_past_next_run_is_refused() {
        let mut m = sample();
        m.runs[1].name = m.runs[0].name.clone();
        let why = Manifest::parse(m.to_text().as_bytes()).unwrap_err();
        assert!(why.contains("listed twice"), "{why}");
        let mut m = sample();
        m.next_run = 2;
        let why = Manifest::parse(m.to_text().as_bytes()).unwrap_err();
        assert!(why.contains("run-000002.pos is listed"), "{why}");
    }
}
