//! Reading every value of parsed games, to find what a structural parse
//! cannot see: values malformed for their property's type, the charset of
//! each game, the `CA` labels games declare, and properties the catalogue
//! does not know.
//!
//! This is the second pass of `sgf check`, usable without the CLI. An
//! [`Audit`] keeps two things: the [`Report`] of the current input (what a
//! per-file line shows) and the [`Totals`] over every input read so far
//! (what a summary shows). Values are decoded lazily and dropped one by one
//! ([`Property::typed`](crate::Property::typed)); nothing is kept but the
//! counts and the first [`Audit::keep_errors`] malformed values of an input.
//!
//! ```
//! use sgf_grove::audit::Audit;
//! let mut audit = Audit::new();
//! let doc = sgf_grove::parse(b"(;GM[1]CA[UTF-8]KM[six]XX[1];B[zz]XX[2])")?;
//! audit.read(doc.collection());
//!
//! let report = audit.report();
//! assert_eq!(report.charsets()[0].name(), "UTF-8");
//! assert_eq!(report.value_error_count(), 2);
//! let first = &report.value_errors()[0];
//! assert_eq!((first.ident(), first.error().column()), ("KM", 20));
//! assert_eq!(first.message(), "malformed value for KM: expected real");
//!
//! // The next input starts a new report; the totals go on.
//! audit.next_input();
//! let doc = sgf_grove::parse(b"(;GM[1]KM[6.5];W[aa])")?;
//! audit.read(doc.collection());
//! assert_eq!(audit.report().value_error_count(), 0);
//! let totals = audit.totals();
//! assert_eq!(totals.games(), 2);
//! assert_eq!(totals.value_errors(), [("B", 1), ("KM", 1)]);
//! assert_eq!(totals.unknown_properties(), [("XX", 2)]);
//! assert_eq!(totals.declared_labels(), [("UTF-8", 1)]);
//! # Ok::<(), sgf_grove::Error>(())
//! ```

pub mod semantic;

use crate::text::{Charset, CharsetSource};
use crate::{Collection, Error, ErrorKind, GameTree};
use std::collections::HashMap;
use std::fmt;

/// Reads every value of the collections handed to it; see the
/// [module](self) docs.
#[derive(Clone, Debug)]
pub struct Audit {
    report: Report,
    totals: Totals,
    keep: usize,
}

impl Default for Audit {
    fn default() -> Audit {
        Audit::new()
    }
}

impl Audit {
    /// An audit with empty totals, keeping the first 1,000 malformed values
    /// of each input.
    pub fn new() -> Audit {
        Audit {
            report: Report::default(),
            totals: Totals::default(),
            keep: 1000,
        }
    }

    /// How many malformed values of one input are kept with their error;
    /// further ones are only counted.
    ///
    /// Default: 1,000, enough for any real file's report while a file of
    /// a million broken moves costs no more memory than that.
    #[must_use]
    pub fn keep_errors(mut self, n: usize) -> Audit {
        self.keep = n;
        self
    }

    /// Reads every value of every property of every node of `coll`, and
    /// each game's charset, adding to the current report and to the totals.
    pub fn read(&mut self, coll: Collection<'_, '_>) {
        for game in coll.games() {
            self.read_game(game);
        }
    }

    /// Reads one game, as [`Audit::read`] does.
    pub fn read_game(&mut self, game: GameTree<'_, '_>) {
        let charset = game.charset();
        self.report.charsets.push(charset);
        let tally = self
            .totals
            .charsets
            .entry((charset.name(), charset.source()))
            .or_default();
        tally.0 += 1;
        tally.1 += f64::from(charset.confidence());
        if let Some(label) = game.declared_charset() {
            bump(
                &mut self.totals.declared_labels,
                &String::from_utf8_lossy(label),
            );
        }
        for node in game.nodes() {
            for prop in node.properties() {
                // Every value checked against its type, nothing decoded or
                // kept but the first error.
                let first_error = match prop.validate() {
                    Ok(Some(_)) => None,
                    Ok(None) => Some(Ok(())),
                    Err(err) => Some(Err(err)),
                };
                match first_error {
                    None => {}
                    Some(Ok(())) => bump(&mut self.totals.unknown, prop.ident()),
                    Some(Err(err)) => self.add_error(prop.ident(), err),
                }
            }
        }
        // `DT` is SimpleText to the catalogue: a text that reads as no date
        // (`GameInfo::dates` gives `None`) is reported here, naming the
        // value. `DT[]` counts as absent.
        let root = game.root();
        if root
            .raw("DT")
            .is_some_and(|raw| !raw.trim_ascii().is_empty())
            && let Err(err) = root.get::<crate::game::GameDates>("DT")
        {
            self.add_error("DT", err);
        }
    }

    /// Counts a malformed value, and keeps it while under the limit.
    fn add_error(&mut self, ident: &str, error: Error) {
        bump(&mut self.totals.errors, ident);
        self.report.error_count += 1;
        if self.report.errors.len() < self.keep {
            self.report.errors.push(ValueError {
                ident: ident.to_owned(),
                error,
            });
        }
    }

    /// What was found in the current input: since [`Audit::new`] or the
    /// last [`Audit::next_input`].
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// Starts the report of a new input (the totals are kept).
    pub fn next_input(&mut self) {
        self.report.charsets.clear();
        self.report.errors.clear();
        self.report.error_count = 0;
    }

    /// The counts over every input read.
    pub fn totals(&self) -> &Totals {
        &self.totals
    }

    /// The counts since [`Audit::new`] or the last call, leaving them
    /// empty: one worker's share of a parallel read, to be added up with
    /// [`Totals::merge`] in the order of the inputs (so that the sums are
    /// the same whatever the number of workers).
    pub fn take_totals(&mut self) -> Totals {
        std::mem::take(&mut self.totals)
    }
}

/// Adds one to the count of `key`, allocating the key only the first time.
fn bump(map: &mut HashMap<String, u64>, key: &str) {
    match map.get_mut(key) {
        Some(count) => *count += 1,
        None => {
            map.insert(key.to_owned(), 1);
        }
    }
}

/// What an [`Audit`] found in one input.
#[derive(Clone, Debug, Default)]
pub struct Report {
    charsets: Vec<Charset>,
    errors: Vec<ValueError>,
    error_count: u64,
}

impl Report {
    /// The charset of each game, in order.
    pub fn charsets(&self) -> &[Charset] {
        &self.charsets
    }

    /// The first malformed values, in file order (at most
    /// [`Audit::keep_errors`]); a property counts once, at its first bad
    /// value.
    pub fn value_errors(&self) -> &[ValueError] {
        &self.errors
    }

    /// How many properties had a malformed value, kept or not.
    pub fn value_error_count(&self) -> u64 {
        self.error_count
    }

    /// How many malformed values were counted but not kept.
    pub fn value_errors_dropped(&self) -> u64 {
        self.error_count - self.errors.len() as u64
    }
}

/// A property whose value did not read as its type: the identifier and
/// the error (kind [`ErrorKind::InvalidValue`], at the value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueError {
    ident: String,
    error: Error,
}

impl ValueError {
    /// A malformed value of property `ident`.
    pub fn new(ident: &str, error: Error) -> ValueError {
        ValueError {
            ident: ident.to_owned(),
            error,
        }
    }

    /// The property's identifier.
    pub fn ident(&self) -> &str {
        &self.ident
    }

    /// The error, with the value's position.
    pub fn error(&self) -> &Error {
        &self.error
    }

    /// What is wrong, without the position:
    /// `malformed value for KM: expected real`.
    pub fn message(&self) -> String {
        message(&self.ident, self.error.kind())
    }
}

impl fmt::Display for ValueError {
    /// The message, position last: `malformed value for KM: expected real at 1:20`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}", self.message(), self.error.position())
    }
}

impl std::error::Error for ValueError {}

fn message(ident: &str, kind: ErrorKind) -> String {
    match kind {
        ErrorKind::InvalidValue(ty) => format!("malformed value for {ident}: expected {ty}"),
        other => format!("malformed value for {ident}: {other}"),
    }
}

/// How many games had one charset from one source, from
/// [`Totals::charsets`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharsetTally {
    /// The charset's name, as `encoding_rs` spells it.
    pub name: &'static str,
    /// Where it came from.
    pub source: CharsetSource,
    /// How many games.
    pub games: u64,
    /// The sum of their confidences.
    pub confidence_sum: f64,
}

impl CharsetTally {
    /// The mean confidence of those games.
    pub fn mean_confidence(&self) -> f64 {
        self.confidence_sum / self.games.max(1) as f64
    }
}

/// The counts of an [`Audit`] over every input it read. Lists come
/// largest count first, ties in name order.
#[derive(Clone, Debug, Default)]
pub struct Totals {
    /// Games and the sum of their confidences, by charset and source.
    charsets: HashMap<(&'static str, CharsetSource), (u64, f64)>,
    declared_labels: HashMap<String, u64>,
    errors: HashMap<String, u64>,
    unknown: HashMap<String, u64>,
}

impl Totals {
    /// Adds the counts of `other` to these.
    pub fn merge(&mut self, other: Totals) {
        for (key, (games, confidence)) in other.charsets {
            let tally = self.charsets.entry(key).or_default();
            tally.0 += games;
            tally.1 += confidence;
        }
        for (mine, theirs) in [
            (&mut self.declared_labels, other.declared_labels),
            (&mut self.errors, other.errors),
            (&mut self.unknown, other.unknown),
        ] {
            for (key, n) in theirs {
                *mine.entry(key).or_default() += n;
            }
        }
    }

    /// How many games were read.
    pub fn games(&self) -> u64 {
        self.charsets.values().map(|&(n, _)| n).sum()
    }

    /// Games by charset and where it came from.
    pub fn charsets(&self) -> Vec<CharsetTally> {
        let mut tallies: Vec<CharsetTally> = self
            .charsets
            .iter()
            .map(|(&(name, source), &(games, confidence_sum))| CharsetTally {
                name,
                source,
                games,
                confidence_sum,
            })
            .collect();
        tallies.sort_by(|a, b| {
            b.games
                .cmp(&a.games)
                .then_with(|| a.name.cmp(b.name))
                .then_with(|| source_order(a.source).cmp(&source_order(b.source)))
        });
        tallies
    }

    /// Games by the `CA` label they declare, as written (bytes that are not
    /// UTF-8 replaced by U+FFFD).
    pub fn declared_labels(&self) -> Vec<(&str, u64)> {
        by_count(&self.declared_labels)
    }

    /// How many games declare a `CA` label.
    pub fn declared_count(&self) -> u64 {
        self.declared_labels.values().sum()
    }

    /// Properties with a malformed value, by identifier.
    pub fn value_errors(&self) -> Vec<(&str, u64)> {
        by_count(&self.errors)
    }

    /// How many properties had a malformed value.
    pub fn value_error_count(&self) -> u64 {
        self.errors.values().sum()
    }

    /// Occurrences of properties the catalogue does not know (private
    /// ones), by identifier.
    pub fn unknown_properties(&self) -> Vec<(&str, u64)> {
        by_count(&self.unknown)
    }

    /// How many occurrences of unknown properties.
    pub fn unknown_count(&self) -> u64 {
        self.unknown.values().sum()
    }
}

/// The order of sources among charsets with as many games: by name.
fn source_order(source: CharsetSource) -> u8 {
    match source {
        CharsetSource::Declared => 0,
        CharsetSource::Detected => 1,
        CharsetSource::Override => 2,
    }
}

/// The entries of `map`, largest count first, ties by key.
fn by_count(map: &HashMap<String, u64>) -> Vec<(&str, u64)> {
    let mut entries: Vec<(&str, u64)> = map.iter().map(|(k, &n)| (k.as_str(), n)).collect();
    entries.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    entries
}

#[cfg(test)]
mod tests {
    use super::Audit;
    use crate::text::CharsetSource;

    #[test]
    fn a_date_that_does_not_read_is_a_value_error() {
        let mut audit = Audit::new();
        let doc = crate::parse(
            b"(;GM[1]DT[April 14-15, 1957])(;GM[1]DT[soon])(;GM[1]DT[])(;GM[1]DT[1996-02-30])",
        )
        .unwrap();
        audit.read(doc.collection());
        let report = audit.report();
        assert_eq!(report.value_error_count(), 2);
        let texts: Vec<_> = report
            .value_errors()
            .iter()
            .map(|e| (e.ident(), e.error().value_text()))
            .collect();
        assert_eq!(texts, [("DT", Some("soon")), ("DT", Some("1996-02-30"))]);
    }

    #[test]
    fn keep_errors_caps_the_kept_errors_not_the_count() {
        let mut audit = Audit::new().keep_errors(2);
        let doc = crate::parse(b"(;GM[1];B[zz];B[zz];B[zz];W[aa])").unwrap();
        audit.read(doc.collection());
        let report = audit.report();
        assert_eq!(report.value_errors().len(), 2);
        assert_eq!(report.value_error_count(), 3);
        assert_eq!(report.value_errors_dropped(), 1);
        assert_eq!(audit.totals().value_errors(), [("B", 3)]);
    }

    #[test]
    fn charsets_by_games_then_name() {
        let mut audit = Audit::new();
        let doc =
            crate::parse(b"(;GM[1]CA[UTF-8])(;GM[1]C[x])(;GM[1]CA[ISO8859_1])(;GM[1]CA[utf-8])")
                .unwrap();
        audit.read(doc.collection());
        let tallies: Vec<_> = audit
            .totals()
            .charsets()
            .into_iter()
            .map(|t| (t.name, t.source, t.games))
            .collect();
        assert_eq!(
            tallies,
            [
                ("UTF-8", CharsetSource::Declared, 2),
                ("UTF-8", CharsetSource::Detected, 1),
                ("windows-1252", CharsetSource::Declared, 1),
            ]
        );
        assert_eq!(audit.totals().declared_count(), 3);
        assert_eq!(audit.totals().games(), 4);
        assert_eq!(audit.report().charsets().len(), 4);
        audit.next_input();
        assert!(audit.report().charsets().is_empty());
    }

    #[test]
    fn value_error_display_puts_the_position_last() {
        let mut audit = Audit::new();
        let doc = crate::parse(b"(;GM[1]\nKM[six])").unwrap();
        audit.read(doc.collection());
        assert_eq!(
            audit.report().value_errors()[0].to_string(),
            "malformed value for KM: expected real at 2:4"
        );
    }
}
