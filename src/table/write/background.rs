//! [`Background`]: the Parquet writer's rows gathered and encoded on a
//! thread of their own ([`ParquetWriter::encode_on_thread`](super::ParquetWriter::encode_on_thread)).
//!
//! The writing thread sends the rows a few hundred at a time, in order,
//! over a channel of a few jobs (memory stays a few jobs and a batch
//! whatever the speed of either side); this thread gathers them into
//! batches and encodes them as the writer would on its own, so the files
//! are the same bytes. The rows are dropped here too: their memory goes
//! back where the batches are built.

use super::parquet::Tables;
use super::TableError;
use crate::table::GameRow;
use std::io::Write;
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::thread::JoinHandle;

/// Jobs sent ahead of the encoding at most.
const AHEAD: usize = 4;

/// What the writing thread sends.
pub(super) enum Job {
    /// Rows, in order.
    #[allow(
        clippy::vec_box,
        reason = "the rows come boxed from the caller and go on as they are"
    )]
    Rows(Vec<Box<GameRow>>),
    /// The end: encode what is gathered and write the footers.
    Finish,
}

/// The encoding thread and the channel to it.
pub(super) struct Background<W: Write + Send> {
    jobs: SyncSender<Job>,
    thread: JoinHandle<Result<Box<Tables<W>>, TableError>>,
}

impl<W: Write + Send + 'static> Background<W> {
    /// Starts a thread that gathers and encodes into `tables`.
    pub(super) fn start(tables: Box<Tables<W>>) -> Result<Background<W>, TableError> {
        let (jobs, rx) = mpsc::sync_channel::<Job>(AHEAD);
        let thread = std::thread::Builder::new()
            .name("sgf-parquet".into())
            .spawn(move || run(tables, &rx))?;
        Ok(Background { jobs, thread })
    }
}

/// The thread's loop: each job in turn, until the end or an error.
fn run<W: Write + Send>(
    mut tables: Box<Tables<W>>,
    jobs: &Receiver<Job>,
) -> Result<Box<Tables<W>>, TableError> {
    for job in jobs {
        match job {
            Job::Rows(rows) => {
                for row in &rows {
                    tables.add(row)?;
                }
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

    /// Waits for the thread to end; its tables, or its error.
    pub(super) fn join(self) -> Result<Box<Tables<W>>, TableError> {
        drop(self.jobs);
        match self.thread.join() {
            Ok(result) => result,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::table::{GameRow, ParquetOptions, ParquetWriter, RowWriter, TableErrorKind};
    use std::io::{self, Write};

    /// An output that takes `room` bytes, then fails.
    struct Full {
        room: usize,
    }

    impl Write for Full {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if buf.len() > self.room {
                return Err(io::Error::new(io::ErrorKind::StorageFull, "full"));
            }
            self.room -= buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// A failed write on the thread comes back as an error of a later
    /// row or of the end, and the writer stays failed: no panic, no wait
    /// for a thread that stopped.
    #[test]
    fn an_error_on_the_thread_reaches_the_writer() {
        let mut text = b"(;GM[1]SZ[19]PB[p]".to_vec();
        for i in 0..300 {
            text.extend_from_slice(if i % 2 == 0 { b";B[pd]" } else { b";W[dd]" });
        }
        text.push(b')');
        let doc = crate::parse(&text).unwrap();
        let row = GameRow::from_game_packed(doc.games().next().unwrap(), "f.sgf", 0);
        for room in [0, 10, 5_000] {
            let out = ParquetWriter::new(Full { room }, Some(Full { room }), ParquetOptions::new());
            // Too small for the magic bytes: refused at once.
            let Ok(out) = out else {
                assert_eq!(room, 0);
                continue;
            };
            let mut out = out.encode_on_thread().unwrap();
            let mut failed = None;
            for id in 0..2000 {
                if let Err(e) = out.write_row(&row.clone().with_id(id)) {
                    failed = Some(e);
                    break;
                }
            }
            let err = match failed {
                Some(e) => e,
                None => out.finish().unwrap_err(),
            };
            assert!(
                matches!(err.kind(), TableErrorKind::Io | TableErrorKind::Parquet),
                "{err}"
            );
            assert!(out.write_row(&row).is_err());
            assert!(out.finish().is_err());
        }
    }
}
