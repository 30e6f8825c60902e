//! `--max-failures N|P%`: how many failed inputs a run accepts before it
//! exits with status 1.
//!
//! A failure is an input (a file, an archive member, standard input) that
//! fails: it cannot be read, is not SGF text, holds no game, is corrupt or
//! over its budget, or one of its games fails (in strict mode a defect; a
//! game the writer refuses; for `board` the game or node asked for). The
//! limit is a count (`3`: up to three failed inputs) or a share of the
//! inputs read (`10%`: failed inputs at most a tenth of them). The default,
//! 0, makes any failure exit 1.

use sgf_grove::table::thousands;
use std::fmt;

/// The failures a run accepts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MaxFailures {
    /// At most this many failed inputs.
    Count(u64),
    /// At most this percentage of the inputs read.
    Percent(f64),
}

impl Default for MaxFailures {
    fn default() -> MaxFailures {
        MaxFailures::Count(0)
    }
}

impl fmt::Display for MaxFailures {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MaxFailures::Count(n) => write!(f, "{n}"),
            MaxFailures::Percent(p) => write!(f, "{p}%"),
        }
    }
}

impl MaxFailures {
    /// Whether `failed` failed inputs of `inputs` read stay within the
    /// limit.
    pub fn allows(self, failed: u64, inputs: u64) -> bool {
        match self {
            MaxFailures::Count(n) => failed <= n,
            // failed / inputs <= p / 100, in integers where they are exact.
            MaxFailures::Percent(p) => failed as f64 * 100.0 <= p * inputs as f64,
        }
    }

    /// The summary line of a run with failures (`None` without):
    /// `sgf fmt: 1 of 10 inputs failed (not_sgf_text 1); within
    /// --max-failures 10%`, or `… over --max-failures 0`.
    pub fn summary(self, command: &str, failed: u64, inputs: u64, reasons: &str) -> Option<String> {
        if failed == 0 {
            return None;
        }
        let word = if inputs == 1 { "input" } else { "inputs" };
        let verdict = if self.allows(failed, inputs) {
            "within"
        } else {
            "over"
        };
        Some(format!(
            "sgf {command}: {} of {} {word} failed ({reasons}); {verdict} --max-failures {self}",
            thousands(failed),
            thousands(inputs)
        ))
    }
}

/// Reads `N` or `P%` (P from 0 to 100, decimals allowed).
///
/// # Errors
///
/// A message when `s` is neither.
pub fn parse_max_failures(s: &str) -> Result<MaxFailures, String> {
    let s = s.trim();
    if let Some(p) = s.strip_suffix('%') {
        let p: f64 = p
            .trim()
            .parse()
            .map_err(|_| format!("expected N or P% (as in 3 or 5%), got {s:?}"))?;
        if !(0.0..=100.0).contains(&p) {
            return Err(format!("a percentage from 0 to 100, got {s:?}"));
        }
        return Ok(MaxFailures::Percent(p));
    }
    s.parse()
        .map(MaxFailures::Count)
        .map_err(|_| format!("expected N or P% (as in 3 or 5%), got {s:?}"))
}

#[cfg(test)]
mod tests {
    use super::{parse_max_failures, MaxFailures};

    #[test]
    fn counts_and_percentages_are_read() {
        assert_eq!(parse_max_failures("3"), Ok(MaxFailures::Count(3)));
        assert_eq!(parse_max_failures("5%"), Ok(MaxFailures::Percent(5.0)));
        assert_eq!(parse_max_failures(" 2.5 %"), Ok(MaxFailures::Percent(2.5)));
        assert!(parse_max_failures("101%").is_err());
        assert!(parse_max_failures("-1").is_err());
        assert!(parse_max_failures("x").is_err());
        assert!(parse_max_failures("%").is_err());
    }

    #[test]
    fn one_of_ten_is_within_one_and_ten_percent_only() {
        assert!(!MaxFailures::Count(0).allows(1, 10));
        assert!(MaxFailures::Count(1).allows(1, 10));
        assert!(MaxFailures::Percent(10.0).allows(1, 10));
        assert!(!MaxFailures::Percent(5.0).allows(1, 10));
        assert!(MaxFailures::Count(0).allows(0, 0));
        assert!(MaxFailures::Percent(0.0).allows(0, 10));
    }

    #[test]
    fn the_summary_names_the_limit() {
        let line = MaxFailures::Percent(5.0).summary("fmt", 1, 10, "not_sgf_text 1");
        assert_eq!(
            line.as_deref(),
            Some("sgf fmt: 1 of 10 inputs failed (not_sgf_text 1); over --max-failures 5%")
        );
        assert_eq!(MaxFailures::Count(0).summary("fmt", 0, 10, ""), None);
    }
}
