//! [`AnalysisRow`]: the analysis table, one row per engine analysis of a
//! main-line node ([`crate::analysis`]), filled by
//! [`GameRow::add_analysis`].

use super::GameRow;
use crate::analysis::{self, Form};
use crate::tree::read::ReadGame;
use crate::value::{Color, Move};

/// One engine analysis of a node of a game's main line, as a row of the
/// analysis table ([`ANALYSIS_COLUMNS`](super::ANALYSIS_COLUMNS)), in
/// Black's view. The game's columns (`game_id`, `source`, `game`) come
/// from its [`GameRow`].
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysisRow {
    /// Moves played on the main line up to and with the node (0: the root
    /// before any move).
    pub move_number: u32,
    /// The colour of the node's move, if it has one.
    pub color: Option<Color>,
    /// The node's move in SGF letters (`pd`), or `pass`.
    pub played: Option<String>,
    /// The form it was read from.
    pub form: Form,
    /// Whether it is of the position before the node's move.
    pub before_move: bool,
    /// Black's chance to win, 0 to 1.
    pub win_rate: Option<f64>,
    /// Black's lead in points.
    pub score_lead: Option<f64>,
    /// Visits of the search.
    pub visits: Option<u64>,
    /// The principal variation: SGF points and `pass`, separated by
    /// spaces; empty when there is none.
    pub pv: String,
    /// Whether the analysis holds ownership per point.
    pub has_ownership: bool,
    /// Whether it holds a policy per point.
    pub has_policy: bool,
}

impl GameRow {
    /// Reads the engine analysis of `game`'s main line into
    /// [`analysis`](GameRow::analysis), and what did not decode into
    /// [`analysis_warnings`](GameRow::analysis_warnings) (replacing what
    /// they held).
    ///
    /// ```
    /// use sgf_grove::table::GameRow;
    /// let doc = sgf_grove::parse(b"(;SZ[19];B[pd]SBKV[55.5];W[dd]C[a good move])")?;
    /// let game = doc.games().next().unwrap();
    /// let mut row = GameRow::from_game(game, "a.sgf", 0);
    /// row.add_analysis(game);
    /// assert_eq!(row.analysis.len(), 1);
    /// assert_eq!(row.analysis[0].played.as_deref(), Some("pd"));
    /// assert_eq!(row.analysis[0].win_rate, Some(0.555));
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    pub fn add_analysis<'g, G: ReadGame<'g>>(&mut self, game: G) {
        let found = analysis::main_line(game);
        self.analysis = found
            .records
            .into_iter()
            .map(|r| AnalysisRow {
                move_number: r.move_number,
                color: r.color,
                played: r.played.map(|m| match m {
                    Move::Play(p) => p.to_string(),
                    Move::Pass => "pass".to_owned(),
                }),
                form: r.analysis.form,
                before_move: r.analysis.before_move,
                win_rate: r.analysis.win_rate,
                score_lead: r.analysis.score_lead,
                visits: r.analysis.visits,
                pv: r.analysis.pv_text(),
                has_ownership: r.analysis.ownership.is_some(),
                has_policy: r.analysis.policy.is_some(),
            })
            .collect();
        self.analysis_warnings = found.warnings;
    }
}

/// An analysis row with its game's row: what the cells are read from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AnalysisRef<'a> {
    pub(crate) game: &'a GameRow,
    pub(crate) row: &'a AnalysisRow,
}
