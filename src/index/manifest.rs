//! `INDEX/manifest`: what an index holds, as text, with a checksum of
//! itself on its last line. Written to a temporary file, synced and
//! renamed over the old one (the folder synced after), so that a reader
//! sees the index before an update or after it, never between.
//!
//! ```text
//! sgf-grove position index 3
//! games 48881
//! games_bytes 5123456
//! games_dat_sum 0123456789abcdef
//! games_off_sum 0123456789abcdef
//! next_run 3
//! run run-000001.pos 9123456 0123456789abcdef
//! run run-000002.pos 51234 0123456789abcdef
//! moves moves-000001.mov 0 48000 17654321 0123456789abcdef
//! moves moves-000002.mov 48000 881 312345 0123456789abcdef
//! sum 0123456789abcdef
//! ```
//!
//! `games_dat_sum` and `games_off_sum` are the checksums of the committed
//! part of `games.dat` and `games.off`; each run's sum is the one its file
//! ends with (which covers its header, fences and block sums, and so
//! every row); each moves file (format 3, [`super::moves`]) is listed with
//! the first game it holds, how many, its length and its checksum: the
//! files hold games 0, 1, … in order, every game of the index once. An
//! index of format 2 (before the moves files) is read as it is: it answers
//! the position queries and refuses a pattern search with a message to
//! rebuild it, and games added to it keep it at format 2.
//! `sum` covers every line before it. A manifest is read only
//! when it is exactly what [`Manifest::to_text`] writes: every line in its
//! place, each run once, numbered below `next_run`.

use super::checksum::{checksum, from_hex, to_hex};
use super::games::corrupt;
use std::collections::HashSet;
use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

/// The format this version writes (it reads format 2 as well).
pub(crate) const FORMAT: u32 = 3;
/// The first line of each format this version reads.
const FIRST_LINE_2: &str = "sgf-grove position index 2";
const FIRST_LINE_3: &str = "sgf-grove position index 3";
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

/// One moves file as the manifest lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MovesEntry {
    /// File name (`moves-NNNNNN.mov`).
    pub(crate) name: String,
    /// The id of its first game.
    pub(crate) first_game: u32,
    /// How many games it holds.
    pub(crate) games: u32,
    /// Its length in bytes.
    pub(crate) bytes: u64,
    /// The checksum of all its bytes.
    pub(crate) sum: u64,
}

/// The contents of the manifest.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Manifest {
    /// 2 (no moves files) or 3.
    pub(crate) format: u32,
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
    /// The moves files (format 3), in game order.
    pub(crate) moves: Vec<MovesEntry>,
}

impl Manifest {
    pub(crate) fn path(dir: &Path) -> std::path::PathBuf {
        dir.join("manifest")
    }

    /// An empty index's manifest.
    pub(crate) fn empty() -> Manifest {
        Manifest {
            format: FORMAT,
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
        let format = match first {
            FIRST_LINE_2 => 2,
            FIRST_LINE_3 => 3,
            _ => return Err("not an index's manifest (or one of an unknown format)".into()),
        };
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
        let mut m = Manifest {
            format,
            ..Manifest::default()
        };
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
                Some("moves") if format >= 3 => {
                    let name = words.next().filter(|n| is_moves_name(n)).ok_or_else(bad)?;
                    let first_game = u32::try_from(num(words.next())?).map_err(|_| bad())?;
                    let games = u32::try_from(num(words.next())?).map_err(|_| bad())?;
                    let bytes = num(words.next())?;
                    let sum = sum(words.next())?;
                    if !seen.insert(name.to_owned()) {
                        return Err(format!("{name} is listed twice"));
                    }
                    m.moves.push(MovesEntry {
                        name: name.to_owned(),
                        first_game,
                        games,
                        bytes,
                        sum,
                    });
                }
                _ => return Err(bad()),
            }
        }
        if m.to_text() != text {
            return Err("lines missing, repeated or out of place".into());
        }
        let names = m
            .runs
            .iter()
            .map(|r| &r.name)
            .chain(m.moves.iter().map(|f| &f.name));
        for name in names {
            if file_number(name).is_none_or(|n| n >= m.next_run) {
                return Err(format!(
                    "{name} is listed but the next run is numbered {}",
                    m.next_run
                ));
            }
        }
        if format >= 3 {
            let mut next_game = 0u64;
            for f in &m.moves {
                if u64::from(f.first_game) != next_game {
                    return Err(format!(
                        "{} starts at game {} where game {next_game} is next",
                        f.name, f.first_game
                    ));
                }
                next_game += u64::from(f.games);
            }
            if next_game != u64::from(m.games) {
                return Err(format!(
                    "the moves files hold {next_game} games, the games table {}",
                    m.games
                ));
            }
        }
        Ok(m)
    }

    /// The manifest as written, its checksum line last.
    pub(crate) fn to_text(&self) -> String {
        let first = if self.format >= 3 {
            FIRST_LINE_3
        } else {
            FIRST_LINE_2
        };
        let mut text = format!(
            "{first}\ngames {}\ngames_bytes {}\ngames_dat_sum {}\ngames_off_sum {}\nnext_run {}\n",
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
        for f in &self.moves {
            text.push_str(&format!(
                "moves {} {} {} {} {}\n",
                f.name,
                f.first_game,
                f.games,
                f.bytes,
                to_hex(f.sum)
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

    /// The name of moves file number `n`.
    pub(crate) fn moves_name(n: u64) -> String {
        format!("moves-{n:06}.mov")
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
    numbered(name, "run-", ".pos")
}

/// Whether `name` is a moves file's name (no path in it).
pub(crate) fn is_moves_name(name: &str) -> bool {
    numbered(name, "moves-", ".mov").is_some()
}

/// The number of a run or moves file `name`: both are numbered from
/// `next_run`, so that no file is ever written over.
pub(crate) fn file_number(name: &str) -> Option<u64> {
    run_number(name).or_else(|| numbered(name, "moves-", ".mov"))
}

fn numbered(name: &str, prefix: &str, suffix: &str) -> Option<u64> {
    let digits = name.strip_prefix(prefix)?.strip_suffix(suffix)?;
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
            format: FORMAT,
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
            moves: vec![
                MovesEntry {
                    name: Manifest::moves_name(1),
                    first_game: 0,
                    games: 2,
                    bytes: 100,
                    sum: 7,
                },
                MovesEntry {
                    name: Manifest::moves_name(2),
                    first_game: 2,
                    games: 1,
                    bytes: 50,
                    sum: 8,
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
        // Format 2: read, without moves files.
        let mut two = sample();
        two.format = 2;
        two.moves.clear();
        assert_eq!(Manifest::parse(two.to_text().as_bytes()), Ok(two.clone()));
        let mut text = two.to_text();
        text = text.replace("position index 2", "position index 3");
        assert!(Manifest::parse(text.as_bytes()).is_err());
    }

    #[test]
    fn moves_files_must_cover_the_games_in_order() {
        let mut m = sample();
        m.moves[1].first_game = 3;
        let why = Manifest::parse(m.to_text().as_bytes()).unwrap_err();
        assert!(why.contains("starts at game 3"), "{why}");
        let mut m = sample();
        m.games = 4;
        let why = Manifest::parse(m.to_text().as_bytes()).unwrap_err();
        assert!(why.contains("hold 3 games"), "{why}");
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
