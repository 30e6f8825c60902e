//! Every member on all cores, in the order of one:
//! [`Inputs::par_scan_members`], for work that reads a member whole as a
//! stream itself (`sgf check`) rather than game by game.
//!
//! Small sources (those [`Inputs::par_scan_games`] reads whole) go to the
//! workers a few at a time; a worker scans each and works on its members,
//! at most [`MEMBERS_PER_UNIT`] of them (an archive of many members goes
//! on on the calling thread, which skips those done). Large sources and
//! standard input are scanned on the calling thread, each member worked
//! on there as it is read: memory stays a few units of results per
//! thread, whatever the inputs.

use super::inputs::Take;
use super::{InputError, Inputs, Member, Skipped, Source};
use crate::parallel::ordered_scope;

/// A worker works on at most this many members of a source; the calling
/// thread does the rest of it.
pub const MEMBERS_PER_UNIT: usize = 256;

/// Small sources go to the workers in groups of at most this many.
const GROUP: usize = 16;

/// What a worker made of a group of sources.
struct Done<'s, R> {
    results: Vec<R>,
    skipped: Skipped,
    /// For each source of a folder: the folder, the members and errors it
    /// gave, what it skipped.
    folders: Vec<(usize, u64, u64)>,
    /// A source left to the calling thread, with how many of its members
    /// are in `results` already, and the sources after it.
    rest: Vec<&'s Source>,
    resume: usize,
}

/// A source stopped at [`MEMBERS_PER_UNIT`].
struct Full;

impl Inputs {
    /// [`Inputs::scan`] on `jobs` threads: `work` runs on each member (or
    /// error of an input) on a worker thread, and `sink` gets the results
    /// on the calling thread in the order of [`Inputs::scan`]. The results
    /// are the same whatever `jobs` is, 1 included. Returns what was
    /// skipped; `sink` stops the scan by returning an error (no member is
    /// started after it, and that error is returned).
    ///
    /// ```
    /// use sgf_grove::input::Inputs;
    /// use std::io::Read as _;
    ///
    /// let dir = std::env::temp_dir().join(format!("sgf-grove-parm-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// for (i, game) in ["(;B[aa])", "(;B[aa];W[bb])", "(;)"].iter().enumerate() {
    ///     std::fs::write(dir.join(format!("{i}.sgf")), game)?;
    /// }
    /// let mut lens = Vec::new();
    /// Inputs::new([&dir]).par_scan_members(
    ///     2,
    ///     |member| {
    ///         let mut text = Vec::new();
    ///         member.map(|mut m| m.reader().read_to_end(&mut text).map_or(0, |_| text.len()))
    ///     },
    ///     |len| {
    ///         lens.push(len.unwrap());
    ///         Ok::<(), std::convert::Infallible>(())
    ///     },
    /// )??;
    /// assert_eq!(lens, [8, 14, 3]);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// When the thread pool cannot be built; inside, the first error of
    /// `sink`.
    pub fn par_scan_members<R, E, W, S>(
        &self,
        jobs: usize,
        work: W,
        mut sink: S,
    ) -> Result<Result<Skipped, E>, rayon::ThreadPoolBuildError>
    where
        R: Send,
        W: Fn(Result<Member<'_>, InputError>) -> R + Sync,
        S: FnMut(R) -> Result<(), E>,
    {
        if jobs <= 1 {
            return Ok(self.scan(|member| sink(work(member))));
        }
        let sources = self.sources();
        let mut skipped = sources.skipped().clone();
        let mut folders = sources.folder_tallies();
        let mut failed: Option<E> = None;
        let stopped = std::sync::atomic::AtomicBool::new(false);
        let stop = || stopped.load(std::sync::atomic::Ordering::Relaxed) || self.cancelled();
        // Hands a result to the sink unless it failed before.
        let mut give = |r: R, failed: &mut Option<E>| {
            if failed.is_none()
                && let Err(e) = sink(r)
            {
                *failed = Some(e);
                stopped.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        };
        let run = |group| self.run_group(group, &work, &stop);
        let collect = |done: Done<'_, R>| {
            for (folder, reported, skipped_there) in done.folders {
                folders[folder].0 += reported;
                folders[folder].1 += skipped_there;
            }
            skipped.merge(done.skipped);
            for r in done.results {
                give(r, &mut failed);
            }
            let mut resume = done.resume;
            for source in done.rest {
                if stop() {
                    break;
                }
                let before = skipped.total();
                let mut n = 0;
                let reported = source.scan(self, &mut skipped, |member| {
                    n += 1;
                    if n > resume && !stop() {
                        give(work(member), &mut failed);
                    }
                    Ok::<(), std::convert::Infallible>(())
                });
                let Ok(reported) = reported;
                resume = 0;
                if let Some(folder) = source.folder() {
                    folders[folder].0 += reported;
                    folders[folder].1 += skipped.total() - before;
                }
            }
        };
        ordered_scope(jobs, jobs.max(1) * 4, run, collect, |submit| {
            let mut group: Vec<&Source> = Vec::new();
            for source in sources.iter() {
                if stop() {
                    break;
                }
                if source.whole_size().is_some() {
                    group.push(source);
                    if group.len() >= GROUP {
                        submit.submit(std::mem::take(&mut group));
                    }
                } else {
                    if !group.is_empty() {
                        submit.submit(std::mem::take(&mut group));
                    }
                    // The calling thread reads it: an empty group that
                    // leaves it in `rest`.
                    submit.submit(vec![source]);
                }
            }
            if !group.is_empty() {
                submit.submit(group);
            }
        })?;
        if let Some(err) = failed {
            return Ok(Err(err));
        }
        // A scan stopped early did not look at every folder.
        if !self.cancelled() {
            for err in sources.empty_folders(&folders) {
                give(work(Err(err)), &mut failed);
            }
        }
        if let Some(err) = failed {
            return Ok(Err(err));
        }
        skipped.sort();
        Ok(Ok(skipped))
    }

    /// Scans a group of sources on a worker: those read whole are worked
    /// on here, up to [`MEMBERS_PER_UNIT`] members each; the first that is
    /// not, or that has more, is left with the rest to the calling thread.
    fn run_group<'s, R, W>(
        &self,
        group: Vec<&'s Source>,
        work: &W,
        stop: &(impl Fn() -> bool + Sync),
    ) -> Done<'s, R>
    where
        W: Fn(Result<Member<'_>, InputError>) -> R,
    {
        let mut done = Done {
            results: Vec::new(),
            skipped: Skipped::default(),
            folders: Vec::new(),
            rest: Vec::new(),
            resume: 0,
        };
        for (i, &source) in group.iter().enumerate() {
            let size = source.whole_size();
            if size.is_none() || stop() {
                done.rest = group[i..].to_vec();
                return done;
            }
            let before = done.results.len();
            let mut skipped = Skipped::default();
            let take = Take::Whole(source.whole_limit());
            let scanned = source.scan_sized(self, &mut skipped, take, |member| {
                if done.results.len() - before >= MEMBERS_PER_UNIT {
                    return Err(Full);
                }
                done.results.push(work(member));
                Ok(())
            });
            match scanned {
                Ok(reported) => {
                    let reported = reported.unwrap_or(0);
                    if let Some(folder) = source.folder() {
                        done.folders.push((folder, reported, skipped.total()));
                    }
                    done.skipped.merge(skipped);
                }
                Err(Full) => {
                    done.resume = done.results.len() - before;
                    done.rest = group[i..].to_vec();
                    return done;
                }
            }
        }
        done
    }
}
