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
    mut sink: S,
) -> Result<(), rayon::ThreadPoolBuildError>
where
    I: Send,
    R: Send,
    W: Fn(I) -> R + Sync,
    S: FnMut(R),
{
    if jobs <= 1 {
        for item in items {
            sink(work(item));
        }
        return Ok(());
    }
    let window = window.max(jobs);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .thread_name(|i| format!("sgf-worker-{i}"))
        .build()?;
    let work = &work;
    pool.in_place_scope(|scope| {
        let (tx, rx) = mpsc::channel::<(usize, std::thread::Result<R>)>();
        let mut done: BTreeMap<usize, std::thread::Result<R>> = BTreeMap::new();
        let mut next = 0usize;
        let mut started = 0usize;
        // Hands out what is ready in order; waits for one result first
        // when `block` says so.
        let mut drain =
            |block: bool, next: &mut usize, done: &mut BTreeMap<usize, std::thread::Result<R>>| {
                if block {
                    if let Ok((i, r)) = rx.recv() {
                        done.insert(i, r);
                    }
                }
                while let Ok((i, r)) = rx.try_recv() {
                    done.insert(i, r);
                }
                while let Some(r) = done.remove(next) {
                    *next += 1;
                    match r {
                        Ok(r) => sink(r),
                        Err(panic) => resume_unwind(panic),
                    }
                }
            };
        for item in items {
            while started - next >= window {
                drain(true, &mut next, &mut done);
            }
            let tx = tx.clone();
            let index = started;
            scope.spawn(move |_| {
                // A panic goes back as a result, so that the calling thread
                // never waits for a result that will not come.
                let result = catch_unwind(AssertUnwindSafe(|| work(item)));
                // The receiver outlives every task of the scope.
                let _ = tx.send((index, result));
            });
            started += 1;
            drain(false, &mut next, &mut done);
        }
        drop(tx);
        while next < started {
            drain(true, &mut next, &mut done);
        }
    });
    Ok(())
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
