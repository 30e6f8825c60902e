//! [`CsvWriter`]: the games table, and optionally the moves table, as CSV.

use super::{RowWriter, TableError};
use crate::table::analysis::AnalysisRef;
use crate::table::columns::{
    analysis_cells, game_cells, move_cells, Cell, Column, ANALYSIS_COLUMNS, COLUMNS, MOVE_COLUMNS,
};
use crate::table::GameRow;
use std::io::{BufWriter, Write};

/// Writes the games table as CSV (RFC 4180: a header line, then one line
/// per game, fields separated by commas, lines ended by CRLF), and, when
/// given a second output, the moves table the same way. Rows are written
/// as they come; memory is one row and the buffers.
///
/// Columns are those of [`COLUMNS`] and
/// [`MOVE_COLUMNS`](crate::table::MOVE_COLUMNS), in order. A field holding
/// a comma, a double quote, a CR or an LF is put in double quotes, with
/// its double quotes doubled; an absent value is an empty field; `dates`
/// are joined by commas; booleans are `true`/`false`.
///
/// ```
/// use sgf_grove::table::{CsvWriter, GameRow, RowWriter};
/// let doc = sgf_grove::parse(b"(;PB[Lee, \"the\" Sedol];B[pd])")?;
/// let mut out = CsvWriter::with_moves(Vec::new(), Vec::new());
/// out.write_row(&GameRow::from_game(doc.games().next().unwrap(), "a.sgf", 0))?;
/// let (games, moves) = out.into_inner()?;
/// let games = String::from_utf8(games)?;
/// assert!(games.starts_with("id,source,game,offset,game_type,board_cols,"));
/// assert!(games.contains(r#","Lee, ""the"" Sedol","#));
/// assert_eq!(String::from_utf8(moves.unwrap())?, "game_id,ply,color,x,y,is_pass\r\n0,1,B,15,3,false\r\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct CsvWriter<W: Write> {
    games: BufWriter<W>,
    moves: Option<BufWriter<W>>,
    analysis: Option<BufWriter<W>>,
    header_written: bool,
    line: Vec<u8>,
}

impl<W: Write> CsvWriter<W> {
    /// A writer of the games table to `games`.
    pub fn new(games: W) -> CsvWriter<W> {
        CsvWriter {
            games: BufWriter::new(games),
            moves: None,
            analysis: None,
            header_written: false,
            line: Vec::new(),
        }
    }

    /// A writer of the games table to `games` and of the moves table to
    /// `moves`.
    pub fn with_moves(games: W, moves: W) -> CsvWriter<W> {
        CsvWriter {
            moves: Some(BufWriter::new(moves)),
            ..CsvWriter::new(games)
        }
    }

    /// The same writer, also writing the analysis table
    /// ([`ANALYSIS_COLUMNS`](crate::table::ANALYSIS_COLUMNS), the rows of
    /// [`GameRow::add_analysis`]) to `analysis`.
    ///
    /// ```
    /// use sgf_grove::table::{CsvWriter, GameRow, RowWriter};
    /// let doc = sgf_grove::parse(b"(;SZ[19];B[pd]SBKV[55.5]OGSC[1.5])")?;
    /// let game = doc.games().next().unwrap();
    /// let mut row = GameRow::from_game(game, "a.sgf", 0);
    /// row.add_analysis(game);
    /// let mut out = CsvWriter::new(Vec::new()).analysis(Vec::new());
    /// out.write_row(&row)?;
    /// let (_, _, analysis) = out.into_inner_all()?;
    /// assert_eq!(
    ///     String::from_utf8(analysis.unwrap())?,
    ///     "game_id,source,game,move_number,color,move,form,before_move,win_rate,score_lead,visits,pv,has_ownership,has_policy\r\n\
    ///      0,a.sgf,0,1,B,pd,ogatak,false,0.555,1.5,,,false,false\r\n"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn analysis(mut self, analysis: W) -> CsvWriter<W> {
        self.analysis = Some(BufWriter::new(analysis));
        self
    }

    /// [`CsvWriter::into_inner`], with the analysis output too: games,
    /// moves, analysis.
    ///
    /// # Errors
    ///
    /// When the last bytes cannot be written.
    pub fn into_inner_all(mut self) -> Result<(W, Option<W>, Option<W>), TableError> {
        self.finish()?;
        let analysis = match self.analysis.take() {
            Some(a) => Some(
                a.into_inner()
                    .map_err(|e| TableError::from(e.into_error()))?,
            ),
            None => None,
        };
        let (games, moves) = self.into_inner()?;
        Ok((games, moves, analysis))
    }

    /// Writes the headers, if not yet done, flushes, and hands back the
    /// outputs (games, then moves).
    ///
    /// # Errors
    ///
    /// When the last bytes cannot be written.
    pub fn into_inner(mut self) -> Result<(W, Option<W>), TableError> {
        self.finish()?;
        let games = self
            .games
            .into_inner()
            .map_err(|e| TableError::from(e.into_error()))?;
        let moves = match self.moves {
            Some(m) => Some(
                m.into_inner()
                    .map_err(|e| TableError::from(e.into_error()))?,
            ),
            None => None,
        };
        Ok((games, moves))
    }

    fn write_headers(&mut self) -> Result<(), TableError> {
        if self.header_written {
            return Ok(());
        }
        self.header_written = true;
        header(&mut self.games, &COLUMNS)?;
        if let Some(moves) = &mut self.moves {
            header(moves, &MOVE_COLUMNS)?;
        }
        if let Some(analysis) = &mut self.analysis {
            header(analysis, &ANALYSIS_COLUMNS)?;
        }
        Ok(())
    }
}

fn header(out: &mut impl Write, columns: &[Column]) -> std::io::Result<()> {
    let mut line = Vec::new();
    for (i, c) in columns.iter().enumerate() {
        if i > 0 {
            line.push(b',');
        }
        line.extend_from_slice(c.name.as_bytes());
    }
    line.extend_from_slice(b"\r\n");
    out.write_all(&line)
}

/// Appends `text` as one CSV field, quoted when it must be.
fn field(line: &mut Vec<u8>, text: &str) {
    if text
        .bytes()
        .any(|b| matches!(b, b',' | b'"' | b'\r' | b'\n'))
    {
        line.push(b'"');
        for b in text.bytes() {
            if b == b'"' {
                line.push(b'"');
            }
            line.push(b);
        }
        line.push(b'"');
    } else {
        line.extend_from_slice(text.as_bytes());
    }
}

/// Appends the cells as one CSV line.
fn cells_line(line: &mut Vec<u8>, cells: &[Cell<'_>]) {
    use std::fmt::Write as _;
    let mut scratch = String::new();
    for (i, cell) in cells.iter().enumerate() {
        if i > 0 {
            line.push(b',');
        }
        match *cell {
            Cell::Null => {}
            Cell::Int(v) => {
                scratch.clear();
                let _ = write!(scratch, "{v}");
                line.extend_from_slice(scratch.as_bytes());
            }
            Cell::Float(v) => {
                scratch.clear();
                let _ = write!(scratch, "{v}");
                line.extend_from_slice(scratch.as_bytes());
            }
            Cell::Str(s) => field(line, s),
            Cell::Bool(b) => line.extend_from_slice(if b { b"true" } else { b"false" }),
            Cell::List(items) => field(line, &items.join(",")),
        }
    }
    line.extend_from_slice(b"\r\n");
}

impl<W: Write> RowWriter for CsvWriter<W> {
    fn write_row(&mut self, row: &GameRow) -> Result<(), TableError> {
        self.write_headers()?;
        self.line.clear();
        cells_line(&mut self.line, &game_cells(row));
        self.games.write_all(&self.line)?;
        if let Some(moves) = &mut self.moves {
            self.line.clear();
            for m in row.move_rows() {
                cells_line(&mut self.line, &move_cells(&m));
            }
            moves.write_all(&self.line)?;
        }
        if let Some(analysis) = &mut self.analysis {
            self.line.clear();
            for a in &row.analysis {
                cells_line(
                    &mut self.line,
                    &analysis_cells(AnalysisRef { game: row, row: a }),
                );
            }
            analysis.write_all(&self.line)?;
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<(), TableError> {
        self.write_headers()?;
        self.games.flush()?;
        if let Some(moves) = &mut self.moves {
            moves.flush()?;
        }
        if let Some(analysis) = &mut self.analysis {
            analysis.flush()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting() {
        let mut line = Vec::new();
        for text in ["plain", "a,b", "say \"hi\"", "two\nlines", "cr\r", ""] {
            field(&mut line, text);
            line.push(b'|');
        }
        assert_eq!(
            String::from_utf8(line).unwrap(),
            "plain|\"a,b\"|\"say \"\"hi\"\"\"|\"two\nlines\"|\"cr\r\"||"
        );
    }

    #[test]
    fn header_only_when_no_row() {
        let (games, moves) = CsvWriter::with_moves(Vec::new(), Vec::new())
            .into_inner()
            .unwrap();
        let games = String::from_utf8(games).unwrap();
        assert!(games.starts_with("id,source,"));
        assert_eq!(games.lines().count(), 1);
        assert_eq!(
            String::from_utf8(moves.unwrap()).unwrap(),
            "game_id,ply,color,x,y,is_pass\r\n"
        );
    }
}
