//! What `stats`, `select` and `export` share: the filters of the command
//! line, one statistics tally per worker thread, and telling the inputs
//! apart in the ordered results.

use crate::args::FilterArgs;
use sgf_grove::input::{Origin, ScanGame};
use sgf_grove::table::{Filter, Stats};
use std::hash::{Hash, Hasher};
use std::sync::Mutex;

/// The filter the options ask for.
///
/// # Errors
///
/// The message of the first option that cannot be read.
pub fn filter(args: &FilterArgs) -> Result<Filter, String> {
    let mut filter = Filter::new();
    let single = [
        ("size", &args.size),
        ("handicap", &args.handicap),
        ("komi", &args.komi),
        ("rank", &args.rank),
        ("date", &args.date),
        ("player", &args.player),
        ("result", &args.result),
        ("moves", &args.moves),
        ("rules", &args.rules),
        ("event", &args.event),
        ("rated", &args.rated),
        ("bots", &args.bots),
        ("server", &args.server),
        ("main_time", &args.main_time),
    ];
    for (name, value) in single {
        if let Some(value) = value {
            filter
                .set(name, value)
                .map_err(|e| format!("--{}: {e}", name.replace('_', "-")))?;
        }
    }
    for value in &args.has {
        filter
            .set("has", value)
            .map_err(|e| format!("--has: {e}"))?;
    }
    for value in &args.lacks {
        filter
            .set("lacks", value)
            .map_err(|e| format!("--lacks: {e}"))?;
    }
    Ok(filter)
}

/// One [`Stats`] per worker thread (and one for the calling thread), added
/// up at the end: [`Stats::merge`] gives the same whatever thread counted
/// what.
pub struct Tallies {
    slots: Vec<Mutex<Stats>>,
    top: usize,
}

impl Tallies {
    pub fn new(jobs: usize, top: usize) -> Tallies {
        Tallies {
            slots: (0..=jobs)
                .map(|_| Mutex::new(Stats::new().top_players(top)))
                .collect(),
            top,
        }
    }

    /// Runs `f` on this thread's tally.
    pub fn with<T>(&self, f: impl FnOnce(&mut Stats) -> T) -> T {
        let slot = rayon::current_thread_index()
            .map_or(self.slots.len() - 1, |i| i.min(self.slots.len() - 1));
        let mut stats = self.slots[slot].lock().unwrap_or_else(|e| e.into_inner());
        f(&mut stats)
    }

    /// A worker thread's tally, taken (an empty one left in its place);
    /// `None` off the worker threads.
    pub fn seal(&self) -> Option<Stats> {
        let slot = rayon::current_thread_index()?.min(self.slots.len() - 1);
        let mut stats = self.slots[slot].lock().unwrap_or_else(|e| e.into_inner());
        Some(std::mem::replace(
            &mut *stats,
            Stats::new().top_players(self.top),
        ))
    }

    /// All the tallies added up, into `total`.
    pub fn merge_into(self, total: &mut Stats) {
        for slot in self.slots {
            total.merge(slot.into_inner().unwrap_or_else(|e| e.into_inner()));
        }
    }
}

/// A number for an input, the same for all the games of one member: the
/// ordered results of a scan change inputs where it changes.
pub fn origin_key(origin: &Origin) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    origin.hash(&mut h);
    h.finish()
}

/// The byte length of a scanned game (0 for warnings alone).
pub fn game_bytes(game: &ScanGame<'_>) -> u64 {
    game.tree().map_or(0, |t| t.span().len() as u64)
}

/// Counts the inputs of an ordered scan from the keys of its results: a
/// new key starts a new input.
#[derive(Debug, Default)]
pub struct Inputs {
    last: Option<u64>,
    bytes: u64,
}

impl Inputs {
    /// A result of input `key` holding `bytes`; calls `done` with the bytes
    /// of the input that ended, if one did.
    pub fn see(&mut self, key: u64, bytes: u64, done: &mut impl FnMut(u64)) {
        if self.last != Some(key) {
            if self.last.is_some() {
                done(self.bytes);
            }
            self.last = Some(key);
            self.bytes = 0;
        }
        self.bytes += bytes;
    }

    /// Ends the last input.
    pub fn finish(&mut self, done: &mut impl FnMut(u64)) {
        if self.last.take().is_some() {
            done(self.bytes);
        }
    }
}
