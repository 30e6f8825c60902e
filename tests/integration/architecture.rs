//! The layers of the library, checked against the source.
//!
//! [`LAYERS`] is the one declaration of the order (ARCHITECTURE.md describes
//! the same list): a top-level module of `src/` may import modules of lower
//! layers only, never one of its own layer or above. The test reads every
//! file of the library, finds each path that names another top-level module
//! (`use crate::…`, `crate::x::…` in code, `super::` paths that climb out of
//! the module, and names re-exported at the crate root such as
//! `crate::Node`), and fails on every import against that order with its
//! file and line. Comments, doc comments and string literals are not
//! imports and are skipped.
//!
//! `src/cli/` is the `sgf` binary, a crate of its own on top of the library
//! (its `crate::` is the binary); it may import anything and is not scanned.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

/// The top-level modules of the library, bottom layer first, each layer
/// with its name. A module may import the modules of the layers below its
/// own, and nothing else of the crate.
const LAYERS: &[(&str, &[&str])] = &[
    ("base", &["span", "spec", "atomic", "parallel"]),
    ("errors", &["error"]),
    ("bytes", &["text", "sniff", "options"]),
    ("tokens and values", &["lexer", "value", "foreign"]),
    ("events", &["events"]),
    ("tree", &["tree"]),
    ("tree readers", &["game", "writer", "input"]),
    (
        "editing and auditing",
        &["edit", "audit", "diagram", "analysis"],
    ),
    ("repairs", &["repair"]),
    ("bulk", &["index", "table"]),
    ("checks and samples", &["oracle", "samples"]),
];

/// The folder of the library, not scanned: the `sgf` binary.
const NOT_SCANNED: &[&str] = &["cli"];

#[test]
fn imports_follow_the_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    collect(&src, &src, &mut files);
    let lib = files
        .iter()
        .find(|(path, _)| path == "lib.rs")
        .map(|(_, text)| text.clone())
        .expect("src/lib.rs");
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(path, text)| (path.as_str(), text.as_str()))
        .collect();
    assert!(files.len() > 100, "only {} files under src/", files.len());
    let found = check(&lib, &files, LAYERS);
    assert!(
        found.is_empty(),
        "{} import(s) against the layers declared in LAYERS (and ARCHITECTURE.md): move \
         the item used to a lower layer, or change both declarations together\n{}",
        found.len(),
        found
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn architecture_md_lists_the_same_layers() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md");
    let text = std::fs::read_to_string(&path).expect("ARCHITECTURE.md at the top");
    let declared: Vec<(String, Vec<String>)> = LAYERS
        .iter()
        .map(|(name, modules)| {
            let modules = modules.iter().map(|m| m.to_string()).collect();
            (name.to_string(), modules)
        })
        .collect();
    assert_eq!(
        layer_table(&text),
        declared,
        "the layer table of ARCHITECTURE.md and LAYERS differ"
    );
}

/// The rows `| n | name | `a`, `b` |` of the layer table of
/// ARCHITECTURE.md, in order: (name, modules).
fn layer_table(text: &str) -> Vec<(String, Vec<String>)> {
    let mut rows = Vec::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // "", number, name, modules, ""
        if cells.len() != 5 || cells[1].parse::<usize>().ok() != Some(rows.len()) {
            continue;
        }
        let modules = cells[3]
            .split(',')
            .map(|m| m.trim().trim_matches('`').to_string())
            .collect();
        rows.push((cells[2].to_string(), modules));
    }
    rows
}

/// Every `.rs` file under `dir`, as (path relative to `src/`, text).
fn collect(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).unwrap();
            let rel = rel.to_str().unwrap().replace('\\', "/");
            let text = std::fs::read_to_string(&path).unwrap();
            out.push((rel, text));
        }
    }
}

/// One problem found: an import against the layers, or a module or name
/// the declaration does not know.
#[derive(Debug, PartialEq, Eq)]
struct Found {
    file: String,
    line: usize,
    what: String,
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "src/{}:{}: {}", self.file, self.line, self.what)
    }
}

/// Checks `files` (paths relative to `src/`, texts) against `layers`;
/// `lib` is the text of `lib.rs`, which names the top-level modules and the
/// names re-exported at the root.
fn check(lib: &str, files: &[(&str, &str)], layers: &[(&str, &[&str])]) -> Vec<Found> {
    let mut found = Vec::new();
    let root = Root::read(lib);
    let mut layer_of = BTreeMap::new();
    for (index, (_, modules)) in layers.iter().enumerate() {
        for module in *modules {
            layer_of.insert(*module, index);
        }
    }
    for module in &root.modules {
        if !layer_of.contains_key(module.as_str()) && !NOT_SCANNED.contains(&module.as_str()) {
            found.push(Found {
                file: "lib.rs".into(),
                line: 1,
                what: format!("module `{module}` is in no layer: add it to LAYERS"),
            });
        }
    }
    for module in layer_of.keys() {
        if !root.modules.iter().any(|m| m == module) {
            found.push(Found {
                file: "lib.rs".into(),
                line: 1,
                what: format!("LAYERS names `{module}`, which lib.rs does not declare"),
            });
        }
    }
    for (path, text) in files {
        let Some(file_module) = module_path(path) else {
            continue;
        };
        let Some(top) = file_module.first().cloned() else {
            continue; // lib.rs: the root re-exports, above every layer
        };
        if NOT_SCANNED.contains(&top.as_str()) {
            continue;
        }
        let Some(&own) = layer_of.get(top.as_str()) else {
            continue; // reported above
        };
        for import in imports(text, &file_module) {
            let target = match root.resolve(&import.path) {
                Resolved::Module(m) => m,
                Resolved::External => continue,
                Resolved::Unknown(name) => {
                    found.push(Found {
                        file: path.to_string(),
                        line: import.line,
                        what: format!(
                            "`{}` names `{name}` at the crate root, which is no module or \
                             re-export the check knows",
                            import.spelled
                        ),
                    });
                    continue;
                }
            };
            if target == top {
                continue;
            }
            let Some(&theirs) = layer_of.get(target.as_str()) else {
                continue; // reported above
            };
            if theirs >= own {
                let (own_name, their_name) = (layers[own].0, layers[theirs].0);
                let how = if theirs == own {
                    format!("the same layer ({own_name})")
                } else {
                    format!("layer {theirs} ({their_name}), above {top}'s layer {own} ({own_name})")
                };
                found.push(Found {
                    file: path.to_string(),
                    line: import.line,
                    what: format!(
                        "{top} imports {target} (`{}`), which is in {how}",
                        import.spelled
                    ),
                });
            }
        }
    }
    found
}

/// The module path of a file (`tree/build.rs` → `tree::build`; `lib.rs` →
/// the root, empty); `None` for a file that is no module of the library.
fn module_path(path: &str) -> Option<Vec<String>> {
    let path = path.strip_suffix(".rs")?;
    if path == "lib" {
        return Some(Vec::new());
    }
    let mut parts: Vec<String> = path.split('/').map(str::to_string).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    Some(parts)
}

/// What `lib.rs` declares: the top-level modules, and for each name it
/// re-exports, the module it comes from (`None`: another crate).
struct Root {
    modules: Vec<String>,
    reexports: BTreeMap<String, Option<String>>,
}

enum Resolved {
    Module(String),
    External,
    Unknown(String),
}

impl Root {
    fn read(lib: &str) -> Root {
        let tokens = tokens(lib);
        let mut modules = Vec::new();
        let mut reexports = BTreeMap::new();
        for (i, t) in tokens.iter().enumerate() {
            if t.is("mod")
                && let Some(Tok::Ident(name)) = tokens.get(i + 1).map(|t| &t.tok)
            {
                modules.push(name.clone());
            }
            if t.is("use") {
                for import in use_tree(&tokens, i + 1, &[]).0 {
                    let mut path = import.path.clone();
                    if path.first().is_some_and(|s| s == "crate" || s == "self") {
                        path.remove(0);
                    }
                    let Some(first) = path.first() else { continue };
                    let name = import.alias.clone().or(path.last().cloned());
                    let Some(name) = name else { continue };
                    if path.len() == 1 {
                        reexports.insert(name, None); // `pub use encoding_rs;`
                    } else {
                        reexports.insert(name, Some(first.clone()));
                    }
                }
            }
        }
        // A re-exported crate is external unless it is one of ours.
        for (name, from) in reexports.iter_mut() {
            if modules.contains(name) {
                *from = Some(name.clone());
            } else if from.as_ref().is_some_and(|m| !modules.contains(m)) {
                *from = None;
            }
        }
        Root { modules, reexports }
    }

    /// The top-level module an absolute path (after `crate`) names.
    fn resolve(&self, path: &[String]) -> Resolved {
        let Some(first) = path.first() else {
            return Resolved::External;
        };
        if self.modules.contains(first) {
            return Resolved::Module(first.clone());
        }
        match self.reexports.get(first) {
            Some(Some(m)) => Resolved::Module(m.clone()),
            Some(None) => Resolved::External,
            None => Resolved::Unknown(first.clone()),
        }
    }
}

/// A path that leaves the module it is written in: its segments from the
/// crate root, the line, and how it was spelled.
#[derive(Debug)]
struct Import {
    path: Vec<String>,
    line: usize,
    spelled: String,
}

/// Every path in `text` that starts at the crate root (`crate::`,
/// `$crate::`) or climbs above the top-level module with `super::`.
/// `module` is the file's module path; inline `mod x { … }` blocks add to
/// it.
fn imports(text: &str, module: &[String]) -> Vec<Import> {
    let tokens = tokens(text);
    let mut out = Vec::new();
    // Inline modules: (name, brace depth inside them).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        match &t.tok {
            Tok::Punct('{') => {
                depth += 1;
                if i >= 2
                    && tokens[i - 2].is("mod")
                    && let Tok::Ident(name) = &tokens[i - 1].tok
                {
                    inline.push((name.clone(), depth));
                }
            }
            Tok::Punct('}') => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            Tok::Ident(word)
                if (word == "crate" || word == "super") && is_path_start(&tokens, i) =>
            {
                let here: Vec<String> = module
                    .iter()
                    .cloned()
                    .chain(inline.iter().map(|(n, _)| n.clone()))
                    .collect();
                let (paths, next) = use_tree(&tokens, i, &[]);
                for import in paths {
                    if let Some(path) = absolute(&import.path, &here) {
                        // Within the file's own top-level module: no edge.
                        if path.is_empty() || here.first() == path.first() {
                            continue;
                        }
                        out.push(Import {
                            path,
                            line: t.line,
                            spelled: import.spelled,
                        });
                    }
                }
                i = next.max(i + 1);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// Whether the `crate`/`super` at `i` starts a path: followed by `::`, and
/// not itself after `::` (`pub(crate)` and `pub(super)` are no paths).
fn is_path_start(tokens: &[Token], i: usize) -> bool {
    let followed = matches!(tokens.get(i + 1).map(|t| &t.tok), Some(Tok::PathSep));
    let after_sep = i > 0 && matches!(tokens[i - 1].tok, Tok::PathSep);
    followed && !after_sep
}

/// `path` (starting with `crate` or with `super`s) made absolute from the
/// module `here`; `None` when it climbs above the root.
fn absolute(path: &[String], here: &[String]) -> Option<Vec<String>> {
    match path.first().map(String::as_str) {
        Some("crate") => Some(path[1..].to_vec()),
        Some("super") => {
            let ups = path.iter().take_while(|s| *s == "super").count();
            let base = here.len().checked_sub(ups)?;
            let mut out = here[..base].to_vec();
            out.extend(path[ups..].iter().filter(|s| *s != "self").cloned());
            Some(out)
        }
        _ => None,
    }
}

/// One path of a use tree.
struct TreePath {
    path: Vec<String>,
    alias: Option<String>,
    spelled: String,
}

/// Reads the path (or use tree with `{…}` groups) starting at token `i`,
/// after `prefix`; gives each full path and the index after the tree.
fn use_tree(tokens: &[Token], mut i: usize, prefix: &[String]) -> (Vec<TreePath>, usize) {
    let mut path = prefix.to_vec();
    let mut out = Vec::new();
    loop {
        match tokens.get(i).map(|t| &t.tok) {
            Some(Tok::Ident(word)) => {
                path.push(word.clone());
                i += 1;
            }
            Some(Tok::Punct('*')) => {
                path.push("*".into());
                i += 1;
            }
            Some(Tok::Punct('{')) => {
                i += 1;
                loop {
                    match tokens.get(i).map(|t| &t.tok) {
                        Some(Tok::Punct('}')) => return (out, i + 1),
                        Some(Tok::Punct(',')) => i += 1,
                        None => return (out, i),
                        _ => {
                            let (inner, next) = use_tree(tokens, i, &path);
                            out.extend(inner);
                            if next == i {
                                return (out, i + 1);
                            }
                            i = next;
                        }
                    }
                }
            }
            _ => break,
        }
        if matches!(tokens.get(i).map(|t| &t.tok), Some(Tok::PathSep)) {
            i += 1;
            continue;
        }
        break;
    }
    let mut alias = None;
    if tokens.get(i).is_some_and(|t| t.is("as")) {
        if let Some(Tok::Ident(name)) = tokens.get(i + 1).map(|t| &t.tok) {
            alias = Some(name.clone());
        }
        i += 2;
    }
    let read_any = path.len() > prefix.len();
    // `self` in a group names the group's prefix itself.
    if path.last().is_some_and(|s| s == "self") && path.len() > 1 {
        path.pop();
    }
    if read_any {
        let spelled = path.join("::");
        out.push(TreePath {
            path,
            alias,
            spelled,
        });
    }
    (out, i)
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    PathSep,
    Punct(char),
}

#[derive(Debug, Clone)]
struct Token {
    tok: Tok,
    line: usize,
}

impl Token {
    fn is(&self, word: &str) -> bool {
        matches!(&self.tok, Tok::Ident(w) if w == word)
    }
}

/// The identifiers and punctuation of Rust source, each with its line;
/// comments, string and character literals and lifetimes are dropped.
fn tokens(text: &str) -> Vec<Token> {
    let s: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let at = |i: usize| s.get(i).copied().unwrap_or('\0');
    while i < s.len() {
        let c = s[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < s.len() && s[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut nest = 0;
            while i < s.len() {
                if s[i] == '/' && at(i + 1) == '*' {
                    nest += 1;
                    i += 2;
                } else if s[i] == '*' && at(i + 1) == '/' {
                    nest -= 1;
                    i += 2;
                    if nest == 0 {
                        break;
                    }
                } else {
                    line += usize::from(s[i] == '\n');
                    i += 1;
                }
            }
        } else if let Some(hashes) = raw_string_start(&s, i) {
            // r"…", r#"…"#, br#"…"#: up to the quote and as many `#`.
            i = s[i..]
                .iter()
                .position(|&c| c == '"')
                .map_or(s.len(), |p| i + p + 1);
            while i < s.len() {
                if s[i] == '"' && (0..hashes).all(|k| at(i + 1 + k) == '#') {
                    i += 1 + hashes;
                    break;
                }
                line += usize::from(s[i] == '\n');
                i += 1;
            }
        } else if c == '"' || (c == 'b' && at(i + 1) == '"') {
            i += if c == 'b' { 2 } else { 1 };
            while i < s.len() && s[i] != '"' {
                line += usize::from(s[i] == '\n');
                i += if s[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c == '\'' || (c == 'b' && at(i + 1) == '\'') {
            let q = if c == 'b' { i + 1 } else { i };
            if at(q + 1) == '\\' {
                // An escaped character: up to the closing quote.
                i = q + 2;
                while i < s.len() && s[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(q + 2) == '\'' {
                i = q + 3; // 'x'
            } else {
                // A lifetime or label: its name is no path.
                i = q + 1;
                while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_') {
                    i += 1;
                }
            }
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_') {
                i += 1;
            }
            let word: String = s[start..i].iter().collect();
            out.push(Token {
                tok: Tok::Ident(word),
                line,
            });
        } else if c.is_ascii_digit() {
            while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_' || s[i] == '.') {
                if s[i] == '.' && !at(i + 1).is_ascii_digit() {
                    break;
                }
                i += 1;
            }
        } else if c == ':' && at(i + 1) == ':' {
            out.push(Token {
                tok: Tok::PathSep,
                line,
            });
            i += 2;
        } else {
            out.push(Token {
                tok: Tok::Punct(c),
                line,
            });
            i += 1;
        }
    }
    out
}

/// The number of `#` of a raw string starting at `i` (`r"`, `r#"`,
/// `br##"`…), or `None`.
fn raw_string_start(s: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    if s.get(j) == Some(&'b') {
        j += 1;
    }
    if s.get(j) != Some(&'r') {
        return None;
    }
    if i > 0 && (s[i - 1].is_alphanumeric() || s[i - 1] == '_') {
        return None; // the end of an identifier (`bar"` cannot happen, `for r` can)
    }
    j += 1;
    let hashes = s[j..].iter().take_while(|&&c| c == '#').count();
    (s.get(j + hashes) == Some(&'"')).then_some(hashes)
}

mod scanner {
    use super::*;

    const LIB: &str = "\
pub mod base;
mod low;
pub mod high;
pub use encoding_rs;
pub use high::{Thing, make as build};
pub use low::Small;
";

    const ORDER: &[(&str, &[&str])] =
        &[("base", &["base"]), ("low", &["low"]), ("high", &["high"])];

    fn lines(found: &[Found]) -> Vec<(String, usize)> {
        found.iter().map(|f| (f.file.clone(), f.line)).collect()
    }

    #[test]
    fn downward_imports_pass() {
        let files = [
            ("lib.rs", LIB),
            ("low/mod.rs", "use crate::base::X;\nuse crate::{base::{Y, Z as W}, encoding_rs};\nfn f() { super::base::g(); crate::low::h(); }\n"),
            ("high/a.rs", "use crate::{low::Q, Small};\nuse super::super::base::*;\nfn f<'src>(x: &'src u8) -> char { '\\'' }\n"),
        ];
        let found = check(LIB, &files, ORDER);
        assert!(found.is_empty(), "{found:#?}");
    }

    #[test]
    fn planted_backward_imports_are_found_with_their_lines() {
        let low = "\
//! Docs may name [`crate::high::Thing`] freely.
use crate::base::X;
use crate::high::Thing;
/* crate::high::Thing in a comment */
const S: &str = \"crate::high::Thing\";
const R: &str = r#\"crate::high::Thing \"quoted\"\"#;
pub(crate) fn f() -> char {
    let _ = crate::Thing::new();
    let _ = crate::build();
    '\"'
}
mod inner {
    use super::super::high::Thing;
    use super::f;
}
use crate::{base::Y, high::{self, other}};
";
        let base = "fn g() { crate::low::f(); $crate::base::g(); }\n";
        let files = [("lib.rs", LIB), ("low/mod.rs", low), ("base.rs", base)];
        let found = check(LIB, &files, ORDER);
        assert_eq!(
            lines(&found),
            [
                ("low/mod.rs".to_string(), 3),
                ("low/mod.rs".to_string(), 8),
                ("low/mod.rs".to_string(), 9),
                ("low/mod.rs".to_string(), 13),
                ("low/mod.rs".to_string(), 16),
                ("low/mod.rs".to_string(), 16),
                ("base.rs".to_string(), 1),
            ],
            "{found:#?}"
        );
        assert!(found[0]
            .to_string()
            .starts_with("src/low/mod.rs:3: low imports high"));
        assert!(found[6].what.contains("base imports low"), "{}", found[6]);
    }

    #[test]
    fn same_layer_and_unplaced_modules_are_refused() {
        let order: &[(&str, &[&str])] = &[("one", &["base", "low"]), ("two", &["high"])];
        let files = [("lib.rs", LIB), ("base.rs", "use crate::Small;\n")];
        let found = check(LIB, &files, order);
        assert_eq!(lines(&found), [("base.rs".to_string(), 1)]);
        assert!(found[0].what.contains("the same layer"), "{}", found[0]);

        let order: &[(&str, &[&str])] = &[("one", &["base", "gone"]), ("two", &["high"])];
        let found = check(LIB, &[("lib.rs", LIB)], order);
        let what: Vec<&str> = found.iter().map(|f| f.what.as_str()).collect();
        assert_eq!(
            what,
            [
                "module `low` is in no layer: add it to LAYERS",
                "LAYERS names `gone`, which lib.rs does not declare"
            ]
        );
    }

    #[test]
    fn the_layer_table_is_read_in_order() {
        let text = "| # | layer | modules |\n|---|---|---|\n| 0 | base | `a`, `b` |\n\
                    | 1 | top | `c` |\n| 3 | skipped | `d` |\n| — | root | `lib.rs` |\n";
        assert_eq!(
            layer_table(text),
            [
                ("base".to_string(), vec!["a".to_string(), "b".to_string()]),
                ("top".to_string(), vec!["c".to_string()]),
            ]
        );
    }

    #[test]
    fn unknown_root_names_are_reported() {
        let files = [("lib.rs", LIB), ("high/mod.rs", "use crate::mystery;\n")];
        let found = check(LIB, &files, ORDER);
        assert_eq!(lines(&found), [("high/mod.rs".to_string(), 1)]);
        assert!(found[0].what.contains("`mystery`"), "{}", found[0]);
    }
}
