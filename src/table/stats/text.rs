//! The text rendering of a [`StatsReport`].

use super::report::{Count, StatsReport};
use std::fmt::{self, Display, Write};

/// How many entries of a list the text shows.
const SHOWN: usize = 10;

/// A count as text output prints it, a comma every three digits
/// (`1234567` → `1,234,567`; any unsigned integer type); the `sgf` tool
/// prints every count of its text output this way.
///
/// ```
/// assert_eq!(sgf_grove::table::thousands(48_881u64), "48,881");
/// assert_eq!(sgf_grove::table::thousands(999usize), "999");
/// ```
pub fn thousands(n: impl Display) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A list on one line: `19x19 40,000 · 9x9 312 · … 4 more`.
fn line(f: &mut fmt::Formatter<'_>, label: &str, list: &[Count]) -> fmt::Result {
    if list.is_empty() {
        return Ok(());
    }
    let mut text = String::new();
    for (i, c) in list.iter().take(SHOWN).enumerate() {
        if i > 0 {
            text.push_str(" · ");
        }
        let _ = write!(text, "{} {}", c.value, thousands(c.count));
    }
    if list.len() > SHOWN {
        let _ = write!(text, " · … {} more", list.len() - SHOWN);
    }
    writeln!(f, "{label:<16}{text}")
}

/// The report as a terminal summary: the totals one per line, then each
/// tally on a line of its own (its 10 largest entries), then the
/// properties as a table.
///
/// ```
/// let stats = sgf_grove::table::Stats::new();
/// assert!(stats.render_text().starts_with("files           0\n"));
/// ```
impl Display for StatsReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (label, n) in [
            ("files", self.files),
            ("games", self.games),
            ("nodes", self.nodes),
            ("moves", self.moves),
            ("bytes", self.bytes),
            ("failed", self.failed),
        ] {
            writeln!(f, "{label:<16}{}", thousands(n))?;
        }
        writeln!(f, "{:<16}{:.3}", "seconds", self.seconds)?;
        if self.seconds > 0.0 {
            writeln!(
                f,
                "{:<16}{:.0} games/s, {:.1} MB/s",
                "speed",
                self.games as f64 / self.seconds,
                self.bytes as f64 / 1e6 / self.seconds
            )?;
        }
        for (label, n) in [
            ("invalid moves", self.invalid_moves),
            ("variations", self.variations),
            ("warnings", self.warnings),
            ("rejected", self.rejected),
        ] {
            writeln!(f, "{label:<16}{}", thousands(n))?;
        }
        line(f, "failures", &self.failures)?;
        line(f, "skipped", &self.skipped)?;
        line(f, "board sizes", &self.board_sizes)?;
        line(f, "rules", &self.rules)?;
        line(f, "results", &self.results)?;
        line(f, "winners", &self.winners)?;
        line(f, "handicaps", &self.handicaps)?;
        line(f, "komi (points)", &self.komi)?;
        line(f, "komi (written)", &self.komi_written)?;
        if let (Some(first), Some(last)) = (&self.dates.first, &self.dates.last) {
            writeln!(
                f,
                "{:<16}{first} .. {last} ({} undated)",
                "dates",
                thousands(self.dates.undated)
            )?;
        }
        let mut years = self.dates.by_year.clone();
        years.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.value.cmp(&b.value)));
        line(f, "years", &years)?;
        if self.distinct_players > 0 {
            writeln!(f, "{:<16}{}", "players", thousands(self.distinct_players))?;
            line(f, "top players", &self.players)?;
        }
        line(f, "applications", &self.applications)?;
        line(f, "charsets (CA)", &self.charsets.declared)?;
        line(f, "charsets (used)", &self.charsets.used)?;
        line(f, "charset sources", &self.charsets.sources)?;
        line(f, "warnings", &self.warnings_by_kind)?;
        line(f, "rejections", &self.rejections)?;
        if !self.properties.is_empty() {
            writeln!(f, "properties      ident      games  occurrences")?;
            for p in &self.properties {
                writeln!(
                    f,
                    "                {:<8}{:>8} {:>12}",
                    p.ident,
                    thousands(p.games),
                    thousands(p.occurrences)
                )?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_of_three() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
