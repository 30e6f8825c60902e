//! [`Background`]: the Parquet writer's batches encoded on a thread of
//! their own ([`ParquetWriter::encode_on_thread`](super::ParquetWriter::encode_on_thread)).
//!
//! The writing thread gathers rows into batches and sends each full
//! batch here, in order, over a channel of a few batches (memory stays a
//! few batches whatever the speed of either side); the thread encodes
//! them into the tables as the writer would, so the files are the same
//! bytes. The moves columns come back emptied, for their room (fresh
//! ones for each batch cost page faults).

use super::arrow::MoveColumns;
use super::parquet::Tables;
use super::TableError;
use arrow_array::RecordBatch;
use std::io::Write;
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::thread::JoinHandle;

/// Batches sent ahead of the encoding at most.
const AHEAD: usize = 4;

/// What the writing thread sends.
pub(super) enum Job {
    /// A batch of the games table.
    Games(RecordBatch),
    /// A batch of the moves table.
    Moves(MoveColumns),
    /// The end: write the footers.
    Finish,
}

/// The encoding thread and the channels to it.
pub(super) struct Background<W: Write + Send> {
    jobs: SyncSender<Job>,
    spares: Receiver<MoveColumns>,
    thread: JoinHandle<Result<Tables<W>, TableError>>,
}

impl<W: Write + Send + 'static> Background<W> {
    /// Starts a thread that encodes into `tables`.
    pub(super) fn start(tables: Tables<W>) -> Result<Background<W>, TableError> {
        let (jobs, rx) = mpsc::sync_channel::<Job>(AHEAD);
        let (give, spares) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("sgf-parquet".into())
            .spawn(move || run(tables, &rx, &give))?;
        Ok(Background {
            jobs,
            spares,
            thread,
        })
    }
}

/// The thread's loop: each job in turn, until the end or an error.
fn run<W: Write + Send>(
    mut tables: Tables<W>,
    jobs: &Receiver<Job>,
    spares: &mpsc::Sender<MoveColumns>,
) -> Result<Tables<W>, TableError> {
    for job in jobs {
        match job {
            Job::Games(batch) => tables.write_games(&batch)?,
            Job::Moves(mut columns) => {
                tables.write_moves(&columns.slices())?;
                columns.clear();
                // The writer may be gone already: the room is dropped.
                let _ = spares.send(columns);
            }
            Job::Finish => {
                tables.finish()?;
                break;
            }
        }
    }
    Ok(tables)
}

impl<W: Write + Send> Background<W> {
    /// Sends a job; `Err` when the thread stopped (on an error: see
    /// [`Background::join`]).
    pub(super) fn send(&self, job: Job) -> Result<(), ()> {
        self.jobs.send(job).map_err(|_| ())
    }

    /// Empty moves columns: some the thread is done with, or new ones.
    pub(super) fn spare(&self) -> MoveColumns {
        self.spares.try_recv().unwrap_or_else(|_| MoveColumns::new())
    }

    /// Waits for the thread to end; its tables, or its error.
    pub(super) fn join(self) -> Result<Tables<W>, TableError> {
        drop(self.jobs);
        match self.thread.join() {
            Ok(result) => result,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }
}
