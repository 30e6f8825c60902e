//! The hand-written corpus in `corpus/`: every `<name>.sgf` is parsed and
//! described (`sgf_grove::oracle::describe`, behind the `oracle` feature:
//! the tree written back raw, then the warnings, or the error), and the
//! description must equal `<name>.txt` byte for byte; `<name>.strict.txt`,
//! where present, is the same in strict mode. All mismatches are collected and reported together, each with a line
//! diff, so one run shows every failing case.
//!
//! Each case is also re-parsed with 1..=70 spaces before it (every offset
//! moves, line-1 columns move, nothing else may change) and after it (the
//! tree and the warning kinds may not change), so that the lexer's 64-byte
//! blocks split every case at every place.

use sgf_grove::oracle::describe::describe;
use sgf_grove::{Document, ParseOptions, WarningKind};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The runner refuses a corpus smaller than this: a missing folder or a bad
/// glob must not pass as "all cases fine".
const MIN_CASES: usize = 40;

/// Pads tried before and after each case: more than one 64-byte block.
const MAX_PAD: usize = 70;

/// Cases whose first bytes carry meaning, so that spaces before them change
/// the parse: a BOM is only a BOM at offset 0.
const NO_LEADING_PAD: &[&str] = &["warn_001", "pos_005"];

struct Case {
    name: String,
    input: Vec<u8>,
    expected: Vec<u8>,
    strict: Option<Vec<u8>>,
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// Every case in `corpus/`, sorted by name, and the problems with the folder
/// itself (a `.sgf` without `.txt`, a `.txt` without `.sgf`, too few cases).
fn load() -> (Vec<Case>, Vec<String>) {
    let dir = corpus_dir();
    let mut problems = Vec::new();
    let mut files: Vec<String> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries
            .map(|e| e.expect("readable corpus entry").file_name())
            .map(|n| n.into_string().expect("UTF-8 file name in corpus/"))
            .collect(),
        Err(e) => {
            problems.push(format!("cannot read {}: {e}", dir.display()));
            Vec::new()
        }
    };
    files.sort();
    let read = |name: &str| std::fs::read(dir.join(name)).expect("readable corpus file");
    let mut cases = Vec::new();
    for file in &files {
        if let Some(name) = file.strip_suffix(".sgf") {
            let txt = format!("{name}.txt");
            if !files.contains(&txt) {
                problems.push(format!("{file} has no {txt}"));
                continue;
            }
            let strict = format!("{name}.strict.txt");
            cases.push(Case {
                name: name.to_owned(),
                input: read(file),
                expected: read(&txt),
                strict: files.contains(&strict).then(|| read(&strict)),
            });
        } else if let Some(stem) = file.strip_suffix(".txt") {
            let stem = stem.strip_suffix(".strict").unwrap_or(stem);
            if !files.contains(&format!("{stem}.sgf")) {
                problems.push(format!("{file} has no {stem}.sgf"));
            }
        }
    }
    if cases.len() < MIN_CASES {
        problems.push(format!(
            "only {} cases in {}, expected at least {MIN_CASES}",
            cases.len(),
            dir.display()
        ));
    }
    (cases, problems)
}

/// Shows bytes as text with line breaks, tabs, NUL and other control bytes
/// made visible.
fn show(bytes: &[u8]) -> String {
    let mut out = String::new();
    for c in String::from_utf8_lossy(bytes).chars() {
        match c {
            '\r' => out.push_str("\\r"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\0' => out.push_str("\\0"),
            '\u{feff}' => out.push_str("\\u{feff}"),
            c if c.is_control() => write!(out, "\\x{:02x}", c as u32).unwrap(),
            c => out.push(c),
        }
    }
    out
}

/// A line diff of two descriptions (`-` expected, `+` actual), from their
/// longest common subsequence of lines. Descriptions are a few lines long.
fn diff(expected: &[u8], actual: &[u8]) -> String {
    let lines = |b: &[u8]| -> Vec<String> {
        b.split_inclusive(|&c| c == b'\n')
            .map(|l| show(l.strip_suffix(b"\n").unwrap_or(l)))
            .collect()
    };
    let (e, a) = (lines(expected), lines(actual));
    let mut lcs = vec![vec![0usize; a.len() + 1]; e.len() + 1];
    for i in (0..e.len()).rev() {
        for j in (0..a.len()).rev() {
            lcs[i][j] = if e[i] == a[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, String::new());
    while i < e.len() || j < a.len() {
        if i < e.len() && j < a.len() && e[i] == a[j] {
            writeln!(out, "      {}", e[i]).unwrap();
            (i, j) = (i + 1, j + 1);
        } else if j < a.len() && (i == e.len() || lcs[i][j + 1] >= lcs[i + 1][j]) {
            writeln!(out, "    + {}", a[j]).unwrap();
            j += 1;
        } else {
            writeln!(out, "    - {}", e[i]).unwrap();
            i += 1;
        }
    }
    if !expected.ends_with(b"\n") || !actual.ends_with(b"\n") {
        writeln!(
            out,
            "    (final line break: expected {}, actual {})",
            expected.ends_with(b"\n"),
            actual.ends_with(b"\n")
        )
        .unwrap();
    }
    out
}

#[test]
fn corpus_cases_match_expectations() {
    let (cases, mut failures) = load();
    let strict = ParseOptions::new().strict(true);
    let mut checked = 0;
    for case in &cases {
        let mut runs = vec![("", ParseOptions::default(), &case.expected)];
        if let Some(expected) = &case.strict {
            runs.push((" (strict)", strict, expected));
        }
        for (mode, options, expected) in runs {
            checked += 1;
            let actual = describe(&case.input, &options);
            if actual.as_bytes() != expected.as_slice() {
                failures.push(format!(
                    "{}{mode}: input {}\n  (- expected {0}.{}, + actual)\n{}",
                    case.name,
                    show(&case.input),
                    if mode.is_empty() { "txt" } else { "strict.txt" },
                    diff(expected, actual.as_bytes()),
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} corpus checks failed ({} cases):\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// What a parse gives, in a form that can be compared across pads.
#[derive(Debug, PartialEq)]
enum Outcome {
    Parsed {
        written: String,
        /// Kind, offset, line, column.
        warnings: Vec<(WarningKind, usize, u32, u32)>,
    },
    Failed {
        code: &'static str,
        offset: usize,
        line: u32,
        column: u32,
    },
}

fn outcome(input: &[u8]) -> Outcome {
    match Document::parse_with(input, &ParseOptions::default()) {
        Ok(doc) => Outcome::Parsed {
            written: show(&sgf_grove::write_collection(doc.collection())),
            warnings: doc
                .warnings()
                .iter()
                .map(|w| (w.kind(), w.offset(), w.line(), w.column()))
                .collect(),
        },
        Err(e) => Outcome::Failed {
            code: e.kind().code(),
            offset: e.offset(),
            line: e.line(),
            column: e.column(),
        },
    }
}

/// `outcome` with every position moved as `pad` bytes on line 1 before the
/// input move it.
fn shifted(outcome: &Outcome, pad: usize) -> Outcome {
    let col = |line: u32, column: u32| column + if line == 1 { pad as u32 } else { 0 };
    match outcome {
        Outcome::Parsed { written, warnings } => Outcome::Parsed {
            written: written.clone(),
            warnings: warnings
                .iter()
                .map(|&(kind, offset, line, column)| (kind, offset + pad, line, col(line, column)))
                .collect(),
        },
        &Outcome::Failed {
            code,
            offset,
            line,
            column,
        } => Outcome::Failed {
            code,
            offset: offset + pad,
            line,
            column: col(line, column),
        },
    }
}

/// The parts of an outcome that spaces after the input may not change: the
/// tree and the warning kinds (an end-of-input position moves with the pad).
fn kinds(outcome: &Outcome) -> (String, Vec<&'static str>) {
    match outcome {
        Outcome::Parsed { written, warnings } => (
            written.clone(),
            warnings.iter().map(|w| w.0.code()).collect(),
        ),
        Outcome::Failed { code, .. } => (String::new(), vec![code]),
    }
}

#[test]
fn corpus_cases_with_padding() {
    let (cases, mut failures) = load();
    for case in &cases {
        let base = outcome(&case.input);
        if !NO_LEADING_PAD.contains(&case.name.as_str()) {
            for pad in 1..=MAX_PAD {
                let mut input = vec![b' '; pad];
                input.extend_from_slice(&case.input);
                let expected = shifted(&base, pad);
                let actual = outcome(&input);
                if actual != expected {
                    failures.push(format!(
                        "{} with {pad} spaces before:\n  expected {expected:?}\n  actual   {actual:?}",
                        case.name
                    ));
                    break;
                }
            }
        }
        // Spaces after an unclosed value become part of it: skip those cases.
        let cut = matches!(&base, Outcome::Parsed { warnings, .. }
            if warnings.iter().any(|w| w.0 == WarningKind::UnclosedValue));
        if !cut {
            for pad in 1..=MAX_PAD {
                let mut input = case.input.clone();
                input.resize(input.len() + pad, b' ');
                let (expected, actual) = (kinds(&base), kinds(&outcome(&input)));
                if actual != expected {
                    failures.push(format!(
                        "{} with {pad} spaces after:\n  expected {expected:?}\n  actual   {actual:?}",
                        case.name
                    ));
                    break;
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} padded corpus checks failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Every hand-written case through the typed oracle: each typed accessor
/// agrees with the others (`validate` with `typed_values`, `played` with
/// `get::<Move>`, `GameTree::info` with a lookup per property), in the
/// charset from `CA` and with Shift_JIS and Big5 forced.
#[test]
fn corpus_cases_pass_the_typed_oracle() {
    let (cases, problems) = load();
    assert!(problems.is_empty(), "{problems:?}");
    for case in &cases {
        sgf_grove::oracle::typed::check_typed(&case.input);
    }
}
