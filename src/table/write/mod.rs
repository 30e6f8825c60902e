//! Writers of the games (and moves) tables: JSON Lines, CSV, and Parquet
//! behind the `parquet` feature. Each writes a row as it gets it and keeps
//! at most a bounded batch in memory.

#[cfg(feature = "arrow")]
mod arrow;
#[cfg(feature = "parquet")]
mod background;
mod csv;
mod jsonl;
#[cfg(feature = "parquet")]
mod moves;
#[cfg(feature = "parquet")]
mod pages;
#[cfg(feature = "parquet")]
mod parquet;

#[cfg(feature = "arrow")]
pub use self::arrow::{analysis_schema, games_schema, moves_schema, BatchBuilder};
pub use self::csv::CsvWriter;
pub use self::jsonl::JsonLinesWriter;
#[cfg(feature = "parquet")]
pub use self::parquet::{ParquetOptions, ParquetWriter};

use super::GameRow;
use std::fmt;

/// What kind of failure a [`TableError`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TableErrorKind {
    /// Writing to the output failed.
    Io,
    /// Serialising JSON failed.
    Json,
    /// The Parquet or Arrow library refused (a failed write underneath
    /// included).
    Parquet,
}

/// Writing a table failed; [`std::error::Error::source`] gives the cause.
#[derive(Debug)]
pub struct TableError {
    kind: TableErrorKind,
    source: Box<dyn std::error::Error + Send + Sync + 'static>,
}

impl TableError {
    /// What kind of failure it is.
    pub fn kind(&self) -> TableErrorKind {
        self.kind
    }

    #[cfg_attr(not(feature = "arrow"), allow(dead_code))]
    pub(crate) fn new(
        kind: TableErrorKind,
        source: impl Into<Box<dyn std::error::Error + Send + Sync + 'static>>,
    ) -> TableError {
        TableError {
            kind,
            source: source.into(),
        }
    }
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            TableErrorKind::Io => "writing the table failed",
            TableErrorKind::Json => "writing JSON failed",
            TableErrorKind::Parquet => "writing Parquet failed",
        };
        write!(f, "{what}: {}", self.source)
    }
}

impl std::error::Error for TableError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.source)
    }
}

impl From<std::io::Error> for TableError {
    fn from(e: std::io::Error) -> Self {
        TableError::new(TableErrorKind::Io, e)
    }
}

impl From<serde_json::Error> for TableError {
    fn from(e: serde_json::Error) -> Self {
        match e.io_error_kind() {
            Some(_) => TableError::new(TableErrorKind::Io, e),
            None => TableError::new(TableErrorKind::Json, e),
        }
    }
}

/// What every table writer does, so that a command can pick one at run
/// time (`Box<dyn RowWriter>`).
pub trait RowWriter {
    /// Writes one game (and, where the writer has a moves table, its
    /// moves).
    ///
    /// # Errors
    ///
    /// When the output cannot be written.
    fn write_row(&mut self, row: &GameRow) -> Result<(), TableError>;

    /// [`RowWriter::write_row`] for a row the caller is done with: a
    /// writer that encodes on another thread
    /// (`ParquetWriter::encode_on_thread`, feature `parquet`)
    /// takes it there as it is, with no copy. The others write it as
    /// [`RowWriter::write_row`] does.
    ///
    /// # Errors
    ///
    /// When the output cannot be written.
    fn write_owned_row(&mut self, row: Box<GameRow>) -> Result<(), TableError> {
        self.write_row(&row)
    }

    /// Writes what is still buffered and ends the output (a CSV header
    /// when no row came, a Parquet footer). Call it once, at the end; no
    /// row may be written after it.
    ///
    /// # Errors
    ///
    /// When the output cannot be written.
    fn finish(&mut self) -> Result<(), TableError>;
}
