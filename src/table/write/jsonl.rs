//! [`JsonLinesWriter`]: one JSON object per game, one per line.

use super::{RowWriter, TableError};
use crate::table::analysis::AnalysisRef;
use crate::table::columns::{analysis_cells, game_cells, Cell, ANALYSIS_COLUMNS, COLUMNS};
use crate::table::GameRow;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, SerializeStruct, Serializer};
use std::io::{BufWriter, Write};

/// Writes one JSON object per game, one per line (JSON Lines), as soon as
/// it gets the row; memory is one row and a buffer.
///
/// Each object has these members, in this order, with these names:
///
/// - `id`, `source`, `game`, `offset`: as in [`GameRow`];
/// - `info`: an object keyed by the game-information property identifiers
///   the game has (`SZ`, `PB`, `BR`, `PW`, `WR`, `DT`, `RE`, `KM`, `HA`,
///   `EV`, `RU`, `TM`, `AP`, …, in the order of
///   [`INFO_IDENTS`](crate::table::INFO_IDENTS)), each the decoded text;
/// - `normalized`: every other column of [`COLUMNS`] by its name
///   (`game_type`, `board_cols` … `white_player`), absent values as `null`, `dates` as
///   a list of ISO dates;
/// - `moves` (unless turned off with [`JsonLinesWriter::moves`]): the
///   main line as `["B", "pd"]` pairs of colour and coordinate, `""` for a
///   pass;
/// - `analysis` (when turned on with [`JsonLinesWriter::analysis`]): the
///   game's rows of the analysis table
///   ([`ANALYSIS_COLUMNS`](crate::table::ANALYSIS_COLUMNS) from
///   `move_number` on), one object each.
///
/// ```
/// use sgf_grove::table::{GameRow, JsonLinesWriter, RowWriter};
/// let doc = sgf_grove::parse(b"(;SZ[9]PB[Lee]KM[7];B[ee];W[])")?;
/// let mut out = JsonLinesWriter::new(Vec::new());
/// for (id, game) in doc.games().enumerate() {
///     out.write_row(&GameRow::from_game(game, "a.sgf", 0).with_id(id as u64))?;
/// }
/// let text = String::from_utf8(out.into_inner()?)?;
/// assert!(text.starts_with(r#"{"id":0,"source":"a.sgf","game":0,"offset":0,"info":{"SZ":"9","PB":"Lee","KM":"7"},"normalized":{"game_type":1,"board_cols":9,"#));
/// assert!(text.ends_with("\"moves\":[[\"B\",\"ee\"],[\"W\",\"\"]]}\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct JsonLinesWriter<W: Write> {
    out: BufWriter<W>,
    moves: bool,
    analysis: bool,
}

impl<W: Write> JsonLinesWriter<W> {
    /// A writer to `out` (buffered here).
    pub fn new(out: W) -> JsonLinesWriter<W> {
        JsonLinesWriter {
            out: BufWriter::new(out),
            moves: true,
            analysis: false,
        }
    }

    /// Whether to write the `analysis` member (the rows
    /// [`GameRow::add_analysis`] read). Default: no.
    ///
    /// ```
    /// use sgf_grove::table::{GameRow, JsonLinesWriter, RowWriter};
    /// let doc = sgf_grove::parse(b"(;SZ[19];B[pd]C[0.40 0.60 0.00 -3.7 v=400])")?;
    /// let game = doc.games().next().unwrap();
    /// let mut row = GameRow::from_game(game, "a.sgf", 0);
    /// row.add_analysis(game);
    /// let mut out = JsonLinesWriter::new(Vec::new()).moves(false).analysis(true);
    /// out.write_row(&row)?;
    /// let text = String::from_utf8(out.into_inner()?)?;
    /// assert!(text.trim_end().ends_with(r#""analysis":[{"move_number":1,"color":"B","move":"pd","form":"katago-selfplay","before_move":true,"win_rate":0.6,"score_lead":3.7,"visits":400,"pv":null,"has_ownership":false,"has_policy":false}]}"#));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn analysis(mut self, yes: bool) -> JsonLinesWriter<W> {
        self.analysis = yes;
        self
    }

    /// Whether to write the `moves` member. Default: yes.
    #[must_use]
    pub fn moves(mut self, yes: bool) -> JsonLinesWriter<W> {
        self.moves = yes;
        self
    }

    /// Flushes and hands back the output.
    ///
    /// # Errors
    ///
    /// When the last bytes cannot be written.
    pub fn into_inner(self) -> Result<W, TableError> {
        self.out
            .into_inner()
            .map_err(|e| TableError::from(e.into_error()))
    }
}

impl<W: Write> RowWriter for JsonLinesWriter<W> {
    fn write_row(&mut self, row: &GameRow) -> Result<(), TableError> {
        serde_json::to_writer(
            &mut self.out,
            &Record {
                row,
                moves: self.moves,
                analysis: self.analysis,
            },
        )?;
        self.out.write_all(b"\n")?;
        Ok(())
    }

    fn finish(&mut self) -> Result<(), TableError> {
        self.out.flush()?;
        Ok(())
    }
}

/// The columns the record has at its top level.
const TOP: usize = 4;

struct Record<'a> {
    row: &'a GameRow,
    moves: bool,
    analysis: bool,
}

impl Serialize for Record<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let cells = game_cells(self.row);
        let mut rec = s.serialize_struct("GameRecord", 7)?;
        rec.serialize_field("id", &cells[0])?;
        rec.serialize_field("source", &cells[1])?;
        rec.serialize_field("game", &cells[2])?;
        rec.serialize_field("offset", &cells[3])?;
        rec.serialize_field("info", &Info(self.row))?;
        rec.serialize_field("normalized", &Normalized(&cells[TOP..]))?;
        if self.moves {
            rec.serialize_field("moves", &Moves(self.row))?;
        }
        if self.analysis {
            rec.serialize_field("analysis", &Analyses(self.row))?;
        }
        rec.end()
    }
}

struct Info<'a>(&'a GameRow);

impl Serialize for Info<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.info.len()))?;
        for (ident, text) in &self.0.info {
            map.serialize_entry(ident, text)?;
        }
        map.end()
    }
}

struct Normalized<'a>(&'a [Cell<'a>]);

impl Serialize for Normalized<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (column, cell) in COLUMNS[TOP..].iter().zip(self.0) {
            map.serialize_entry(column.name, cell)?;
        }
        map.end()
    }
}

struct Moves<'a>(&'a GameRow);

impl Serialize for Moves<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.moves.len() + self.0.line().len()))?;
        let mut buf = [0; 2];
        for m in self.0.move_rows() {
            seq.serialize_element(&(m.color.as_str(), m.coordinate_in(&mut buf)))?;
        }
        seq.end()
    }
}

/// The game's analysis rows.
struct Analyses<'a>(&'a GameRow);

/// The analysis columns in the game's record: those after `game`.
const ANALYSIS_TOP: usize = 3;

impl Serialize for Analyses<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.analysis.len()))?;
        for row in &self.0.analysis {
            let cells = analysis_cells(AnalysisRef { game: self.0, row });
            seq.serialize_element(&AnalysisObject(&cells[ANALYSIS_TOP..]))?;
        }
        seq.end()
    }
}

struct AnalysisObject<'a>(&'a [Cell<'a>]);

impl Serialize for AnalysisObject<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (column, cell) in ANALYSIS_COLUMNS[ANALYSIS_TOP..].iter().zip(self.0) {
            map.serialize_entry(column.name, cell)?;
        }
        map.end()
    }
}
