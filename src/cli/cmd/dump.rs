//! `sgf dump PATH...`: the parsed collection as JSON, in the shape of
//! [SGFGrove.js](https://github.com/anazawa/sgfgrove):
//!
//! ```text
//! collection = [ game tree, … ]
//! game tree  = [ [ node, … ], [ game tree, … ] ]
//! node       = { "IDENT": [ "value", … ], … }      identifiers in file order
//! ```
//!
//! The node list of a game tree is a sequence: it starts at the tree's root
//! and follows the only child while there is exactly one. When the last node
//! of the sequence has two or more children, each child starts one game tree
//! of the variation list; when it is a leaf, that list is empty.
//!
//! Values are decoded in the game's charset
//! ([`GameTree::charset`](sgf_grove::GameTree::charset): a `--charset`
//! override, else the root's `CA`, else detected from the game's bytes),
//! then unescaped (`\]` → `]`, soft line breaks removed, other line breaks
//! kept as they are); bytes that do not decode become U+FFFD. Decoding comes
//! first because in Shift_JIS, Big5 and GBK the second byte of a character
//! can be `\`.
//!
//! With `--typed`, each value is written as its type
//! ([`Property::typed_values`](sgf_grove::Property::typed_values)) says:
//!
//! ```text
//! Number, Real, Double   a JSON number (KM[6.5] → 6.5, DM[2] → 2)
//! Color                  "B" or "W"
//! None                   null
//! Point, Stone           [x, y], 0-based: x the column from the left, y the row from the top
//! Move                   [x, y], or null for a pass
//! point list             its points, expanded (AB[aa:ab] → [[0,0],[0,1]])
//! compose a:b            [a, b] (SZ[19:13] → [19,13]; SZ[19] → 19)
//! SimpleText, Text       the decoded string
//! ```
//!
//! An unknown (private) property, and a property with a malformed value,
//! keeps its values as strings, as without `--typed`; each malformed value is
//! also reported on standard error as
//! `path:line:column: warning[invalid_value]: malformed value for B: expected move`.
//!
//! The JSON text is written directly, with an explicit stack: a game tree can
//! nest a million variations deep, and both recursion and `serde_json::Value`
//! (whose serializer and drop recurse) would overflow the call stack. Each
//! game is written as it is read, on a worker thread, and handed on in the
//! order of the inputs ([`rewrite::run`](super::rewrite::run)); typed
//! values are decoded one at a time and never collected, so memory stays
//! that of the largest game per thread, whatever the input's length: `AB` with 20,000
//! rectangles `[aa:ZZ]` on a 52×52 board (54 million points) dumps in
//! 3.4 MB.
//!
//! The inputs are files, folders, archives, compressed files, `.sgfs` and
//! standard input, as for `check`; the games of all of them make one
//! array. An input that fails (in strict mode, at its first defect) is
//! named on standard error after the games before it were written; when
//! more inputs fail than `--max-failures` allows, the array is left
//! unclosed (not valid JSON, so that it cannot pass for the whole
//! collection) and the exit status is 1.

use super::rewrite::{run as run_inputs, Dest, Diag, GameOut, Joined};
use super::{raw_text, write_headline, CliError, Status};
use crate::args::DumpArgs;
use encoding_rs::Encoding;
use sgf_grove::audit::ValueError;
use sgf_grove::value::{Color, Double, Move, Point, TypedValue};
use sgf_grove::{GameTree, Node, NodeId, Property};
use std::io::{self, Write};

/// Runs `sgf dump`.
///
/// # Errors
///
/// A failed write to standard output, or worker threads that do not
/// start.
pub fn run(args: &DumpArgs) -> Result<Status, CliError> {
    let quiet = args.scan.quiet;
    let work = |game: sgf_grove::input::ScanGame<'_>, name: &str| {
        let mut out = GameOut::<()>::new(game.origin());
        out.warnings(&game, name, quiet);
        let Some(tree) = game.tree() else {
            return out;
        };
        let mut dumper = Dumper {
            typed: args.typed,
            name,
            scratch: String::new(),
            stack: Vec::new(),
        };
        let (mut json, mut warnings) = (Vec::new(), Vec::new());
        // Writes to memory do not fail.
        let _ = dumper.write_game(&mut json, tree, &mut warnings);
        if !quiet {
            for line in String::from_utf8_lossy(&warnings).lines() {
                out.diags.push(Diag {
                    code: "invalid_value",
                    text: line.to_string(),
                });
            }
        }
        out.bytes = Some(json);
        out
    };
    let dest = Dest::Stdout(Joined::JsonArray);
    let (status, _) = run_inputs("dump", &args.scan, dest, work, |()| {})?;
    Ok(status)
}

/// How values are written.
struct Dumper<'a> {
    /// Whether values are written as their type says.
    typed: bool,
    /// The input's name, for warnings.
    name: &'a str,
    /// Reused for JSON string literals.
    scratch: String,
    /// Reused by [`Dumper::write_game`].
    stack: Vec<Option<NodeId>>,
}

impl Dumper<'_> {
    /// Writes one game tree.
    fn write_game(
        &mut self,
        out: &mut impl Write,
        game: GameTree<'_, '_>,
        warnings: &mut dyn Write,
    ) -> io::Result<()> {
        // For each open variation list, the next sibling still to write
        // (if any).
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        let written = self.write_tree(out, game, &mut stack, warnings);
        self.stack = stack;
        written
    }

    /// Writes one game tree, with `stack` empty.
    fn write_tree(
        &mut self,
        out: &mut impl Write,
        game: GameTree<'_, '_>,
        stack: &mut Vec<Option<NodeId>>,
        warnings: &mut dyn Write,
    ) -> io::Result<()> {
        let coll = game.collection();
        let encoding = game.charset().encoding();
        let mut start = game.root();
        'tree: loop {
            // The sequence: `start` and its only children.
            out.write_all(b"[[")?;
            let mut node = start;
            loop {
                self.write_node(out, node, encoding, warnings)?;
                match node.first_child() {
                    Some(child) if child.next_sibling().is_none() => {
                        out.write_all(b",")?;
                        node = child;
                    }
                    _ => break,
                }
            }
            out.write_all(b"],[")?;
            if let Some(first) = node.first_child() {
                // Two or more children: open the variation list.
                stack.push(first.next_sibling().map(|n| n.id()));
                start = first;
                continue 'tree;
            }
            // A leaf: close this tree, then every variation list that is done.
            out.write_all(b"]]")?;
            loop {
                match stack.pop() {
                    None => return Ok(()),
                    Some(Some(id)) => {
                        let sibling = coll.node(id);
                        stack.push(sibling.next_sibling().map(|n| n.id()));
                        out.write_all(b",")?;
                        start = sibling;
                        continue 'tree;
                    }
                    // The list is complete: close it and the tree that owns it.
                    Some(None) => out.write_all(b"]]")?,
                }
            }
        }
    }

    /// Writes one node as `{"IDENT":[value,…],…}`, identifiers in file
    /// order.
    fn write_node(
        &mut self,
        out: &mut impl Write,
        node: Node<'_, '_>,
        encoding: &'static Encoding,
        warnings: &mut dyn Write,
    ) -> io::Result<()> {
        out.write_all(b"{")?;
        for (i, prop) in node.properties().enumerate() {
            if i > 0 {
                out.write_all(b",")?;
            }
            write_json_str(out, prop.ident(), &mut self.scratch)?;
            out.write_all(b":[")?;
            if !(self.typed && self.write_typed_values(out, prop, warnings)?) {
                self.write_raw_values(out, prop, encoding)?;
            }
            out.write_all(b"]")?;
        }
        out.write_all(b"}")
    }

    /// Writes the values of `prop` as strings, decoded and unescaped.
    fn write_raw_values(
        &mut self,
        out: &mut impl Write,
        prop: Property<'_, '_>,
        encoding: &'static Encoding,
    ) -> io::Result<()> {
        for (j, value) in prop.values().enumerate() {
            if j > 0 {
                out.write_all(b",")?;
            }
            write_json_str(out, &raw_text(value.raw(), encoding), &mut self.scratch)?;
        }
        Ok(())
    }

    /// Writes the values of `prop` typed, and returns `true`; or writes
    /// nothing and returns `false` when the property is unknown or a value
    /// is malformed (reported as a warning).
    fn write_typed_values(
        &mut self,
        out: &mut impl Write,
        prop: Property<'_, '_>,
        mut warnings: &mut dyn Write,
    ) -> io::Result<bool> {
        // Decoded lazily, value by value, twice: once to find a malformed
        // value before anything is written, once to write. Nothing is
        // collected, so a point list of millions of points (`AB[aa:ZZ]…`)
        // costs no memory.
        let (values, error) = match prop.typed() {
            Ok(None) => return Ok(false),
            Ok(Some(values)) => {
                let error = values.clone().find_map(Result::err);
                (Some(values), error)
            }
            Err(err) => (None, Some(err)),
        };
        if let Some(err) = error {
            let (code, pos) = (err.kind().code(), err.position());
            let message = ValueError::new(prop.ident(), err).message();
            // A failed write to standard error does not stop the dump.
            let _ = write_headline(&mut warnings, self.name, "warning", code, &message, pos);
            return Ok(false);
        }
        let Some(values) = values else {
            return Ok(false);
        };
        for (j, value) in values.flatten().enumerate() {
            if j > 0 {
                out.write_all(b",")?;
            }
            self.write_typed(out, &value)?;
        }
        Ok(true)
    }

    /// Writes one typed value.
    fn write_typed(&mut self, out: &mut impl Write, value: &TypedValue<'_>) -> io::Result<()> {
        match value {
            TypedValue::None | TypedValue::Move(Move::Pass) => out.write_all(b"null"),
            TypedValue::Number(n) => write!(out, "{n}"),
            // `Display` writes the shortest form that reads back, without an
            // exponent: 6.5, 0, 375. JSON has no infinity.
            TypedValue::Real(x) if x.is_finite() => write!(out, "{x}"),
            TypedValue::Real(_) => out.write_all(b"null"),
            TypedValue::Double(Double::Normal) => out.write_all(b"1"),
            TypedValue::Double(Double::Emphasized) => out.write_all(b"2"),
            TypedValue::Color(Color::Black) => out.write_all(b"\"B\""),
            TypedValue::Color(Color::White) => out.write_all(b"\"W\""),
            TypedValue::SimpleText(text)
            | TypedValue::Text(text)
            | TypedValue::GameSpecific(text) => write_json_str(out, text, &mut self.scratch),
            TypedValue::Point(p) | TypedValue::Move(Move::Play(p)) => write_point(out, *p),
            TypedValue::Compose(a, b) => {
                out.write_all(b"[")?;
                self.write_typed(out, a)?;
                out.write_all(b",")?;
                self.write_typed(out, b)?;
                out.write_all(b"]")
            }
        }
    }
}

/// Writes a point as `[x,y]`.
fn write_point(out: &mut impl Write, p: Point) -> io::Result<()> {
    write!(out, "[{},{}]", p.x, p.y)
}

/// Writes `text` as a JSON string literal. `scratch` is reused between
/// calls to spare an allocation per value.
fn write_json_str(out: &mut impl Write, text: &str, scratch: &mut String) -> io::Result<()> {
    scratch.clear();
    escape_json(text, scratch);
    out.write_all(scratch.as_bytes())
}

/// Appends `text` to `buf` as a JSON string literal: quotes, and escapes for
/// `"`, `\` and control characters (the same escapes as `serde_json`).
fn escape_json(text: &str, buf: &mut String) {
    buf.push('"');
    let mut plain = 0;
    for (i, b) in text.bytes().enumerate() {
        let escape: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0C => "\\f",
            0x00..=0x1F => "",
            _ => continue,
        };
        buf.push_str(&text[plain..i]);
        if escape.is_empty() {
            buf.push_str(&format!("\\u{b:04x}"));
        } else {
            buf.push_str(escape);
        }
        plain = i + 1;
    }
    buf.push_str(&text[plain..]);
    buf.push('"');
}

#[cfg(test)]
mod tests {
    use super::escape_json;

    #[test]
    fn escape_json_matches_serde_json() {
        for text in [
            "",
            "plain",
            "a\"b\\c",
            "line\nbreak\r\n",
            "\u{0}\u{1f}\u{7f}",
            "中\t文",
        ] {
            let mut buf = String::new();
            escape_json(text, &mut buf);
            assert_eq!(buf, serde_json::to_string(text).unwrap(), "{text:?}");
        }
    }
}
