//! Work on all cores with the output of one: [`ordered_map`] runs a
//! function over a stream of items on a pool of threads and hands the
//! results back in the items' order, with a bounded number in flight.
//!
//! This is what makes a parallel scan deterministic: whatever thread
//! finishes first, the consumer sees the results of item 0, 1, 2… in turn,
//! so the output of `--jobs 8` is the output of `--jobs 1`, byte for byte.
//! Memory is bounded by `window` items and their results, whatever the
//! length of the stream.
//!
//! ```
//! use sgf_grove::parallel::ordered_map;
//! // Count the nodes of each input on two threads; results come in order.
//! let inputs = vec![b"(;B[aa];W[bb])".to_vec(), b"(;B[cc])".to_vec(), b"(;)".to_vec()];
//! let mut counts = Vec::new();
//! ordered_map(
//!     inputs.into_iter(),
//!     2,
//!     8,
//!     |bytes| sgf_grove::parse(&bytes).map(|doc| doc.collection().node_count()),
//!     |count| counts.push(count.unwrap()),
//! )?;
//! assert_eq!(counts, [2, 1, 1]);
//! # Ok::<(), rayon::ThreadPoolBuildError>(())
//! ```

use std::collections::BTreeMap;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::mpsc;

/// Runs `work` on every item of `items` on `jobs` worker threads and calls
/// `sink` with the results in the order of the items, never more than
/// `window` items started and not yet handed to `sink`. The items are
/// drawn on the calling thread (reading the next file or archive member
/// there, in order), which also runs `sink`.
///
/// With `jobs` 1 (or 0) no thread is started: each item is worked on and
/// handed to `sink` in turn, on the calling thread.
///
/// A panic in `work` is resumed on the calling thread once the items in
/// flight are done.
///
/// # Errors
///
/// When the thread pool cannot be built.
pub fn ordered_map<I, R, W, S>(
    items: impl Iterator<Item = I>,
    jobs: usize,
    window: usize,
    work: W,
    sink: S,
) -> Result<(), rayon::ThreadPoolBuildError>
where
    I: Send,
    R: Send,
    W: Fn(I) -> R + Sync,
    S: FnMut(R),
{
    ordered_scope(jobs, window, work, sink, |submit| {
        for item in items {
            submit.submit(item);
        }
    })
}

/// [`ordered_map`] for a producer that pushes its items (a scan that
/// calls back for each member, say): `produce` runs on the calling thread
/// and hands each item to [`Submit::submit`], which waits while the window
/// is full and hands finished results to `sink` in order.
///
/// # Errors
///
/// When the thread pool cannot be built.
pub fn ordered_scope<I, R, W, S, P>(
    jobs: usize,
    window: usize,
    work: W,
    sink: S,
    produce: P,
) -> Result<(), rayon::ThreadPoolBuildError>
where
    I: Send,
    R: Send,
    W: Fn(I) -> R + Sync,
    S: FnMut(R),
    P: FnOnce(&mut Submit<'_, I, R>),
{
    if jobs <= 1 {
        let mut submit = Submit {
            inner: Inner::Inline {
                work: &work,
                sink: Box::new(sink),
            },
        };
        produce(&mut submit);
        return Ok(());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .thread_name(|i| format!("sgf-worker-{i}"))
        .build()?;
    let work = &work;
    pool.in_place_scope(|scope| {
        let (tx, rx) = mpsc::channel();
        let mut submit = Submit {
            inner: Inner::Pool(Box::new(Pool {
                spawn: Box::new(move |index: usize, item: I| {
                    let tx = tx.clone();
                    scope.spawn(move |_| {
                        // A panic goes back as a result, so that the calling
                        // thread never waits for a result that will not come.
                        let result = catch_unwind(AssertUnwindSafe(|| work(item)));
                        // The receiver outlives every task of the scope.
                        let _ = tx.send((index, result));
                    });
                }),
                rx,
                sink: Box::new(sink),
                done: BTreeMap::new(),
                next: 0,
                started: 0,
                window: window.max(jobs),
            })),
        };
        produce(&mut submit);
        if let Inner::Pool(pool) = &mut submit.inner {
            // The spawner holds the last sender: dropped, the channel ends
            // once every task has answered.
            pool.spawn = Box::new(|_, _| unreachable!("no item after the producer"));
            while pool.next < pool.started {
                pool.drain(true);
            }
        }
    });
    Ok(())
}

/// Where the producer of [`ordered_scope`] hands its items.
pub struct Submit<'a, I, R> {
    inner: Inner<'a, I, R>,
}

impl<I, R> std::fmt::Debug for Submit<'_, I, R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.inner {
            Inner::Inline { .. } => f.debug_struct("Submit").field("jobs", &1).finish(),
            Inner::Pool(pool) => f
                .debug_struct("Submit")
                .field("started", &pool.started)
                .field("handed_out", &pool.next)
                .field("window", &pool.window)
                .finish(),
        }
    }
}

enum Inner<'a, I, R> {
    Inline {
        work: &'a (dyn Fn(I) -> R + Sync),
        sink: Box<dyn FnMut(R) + 'a>,
    },
    Pool(Box<Pool<'a, I, R>>),
}

type Spawn<'a, I> = Box<dyn FnMut(usize, I) + 'a>;

struct Pool<'a, I, R> {
    spawn: Spawn<'a, I>,
    rx: mpsc::Receiver<(usize, std::thread::Result<R>)>,
    sink: Box<dyn FnMut(R) + 'a>,
    done: BTreeMap<usize, std::thread::Result<R>>,
    next: usize,
    started: usize,
    window: usize,
}

impl<I, R> Pool<'_, I, R> {
    /// Hands out what is ready in order; waits for one result first when
    /// `block` says so.
    fn drain(&mut self, block: bool) {
        if block && let Ok((i, r)) = self.rx.recv() {
            self.done.insert(i, r);
        }
        while let Ok((i, r)) = self.rx.try_recv() {
            self.done.insert(i, r);
        }
        while let Some(r) = self.done.remove(&self.next) {
            self.next += 1;
            match r {
                Ok(r) => (self.sink)(r),
                Err(panic) => resume_unwind(panic),
            }
        }
    }
}

impl<I, R> Submit<'_, I, R> {
    /// Waits until every item started is done and its result handed to
    /// the sink.
    pub fn flush(&mut self) {
        if let Inner::Pool(pool) = &mut self.inner {
            while pool.next < pool.started {
                pool.drain(true);
            }
        }
    }

    /// Starts work on `item`; waits first while the window is full.
    pub fn submit(&mut self, item: I) {
        match &mut self.inner {
            Inner::Inline { work, sink } => sink(work(item)),
            Inner::Pool(pool) => {
                while pool.started - pool.next >= pool.window {
                    pool.drain(true);
                }
                let index = pool.started;
                (pool.spawn)(index, item);
                pool.started += 1;
                pool.drain(false);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn results_come_in_order_whatever_finishes_first() {
        for jobs in [1, 2, 3, 8] {
            let mut out = Vec::new();
            // Early items take longest, so later ones finish first.
            ordered_map(
                0..200u64,
                jobs,
                16,
                |i| {
                    if i % 7 == 0 {
                        std::thread::sleep(std::time::Duration::from_micros(200 - i));
                    }
                    i * i
                },
                |r| out.push(r),
            )
            .unwrap();
            let want: Vec<u64> = (0..200).map(|i| i * i).collect();
            assert_eq!(out, want, "jobs {jobs}");
        }
    }

    #[test]
    fn no_more_than_the_window_is_in_flight() {
        let in_flight = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        let mut seen = 0;
        ordered_map(
            (0..500).inspect(|_| {
                // Drawn: counts as in flight until handed to the sink.
                let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
            }),
            4,
            10,
            |i: usize| i,
            |_| {
                in_flight.fetch_sub(1, Ordering::SeqCst);
                seen += 1;
            },
        )
        .unwrap();
        assert_eq!(seen, 500);
        // The item drawn while the window is full waits on the calling
        // thread: at most one more than the window.
        assert!(most.load(Ordering::SeqCst) <= 11, "{most:?}");
    }

    #[test]
    fn a_panic_in_the_work_reaches_the_caller() {
        let result = std::panic::catch_unwind(|| {
            ordered_map(0..50, 2, 4, |i: i32| assert!(i != 20, "item 20"), |_| {}).unwrap();
        });
        assert!(result.is_err());
    }
}
