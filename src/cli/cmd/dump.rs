//! `sgf dump FILE`: the parsed collection as JSON, in the shape of
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
//! Values are unescaped ([`sgf_grove::text::unescape`]: `\]` → `]`, soft line
//! breaks removed, other line breaks kept) and decoded to UTF-8 with the
//! charset named by the `CA` property of the game's root node, when
//! `encoding_rs` knows it, else as UTF-8; bytes that do not decode become
//! U+FFFD.
//!
//! The JSON text is written directly, with an explicit stack: a game tree can
//! nest a million variations deep, and both recursion and `serde_json::Value`
//! (whose serializer and drop recurse) would overflow the call stack.

use super::{display_name, read_input, write_error, write_warning_lines, CliError, Status};
use crate::args::DumpArgs;
use encoding_rs::{Encoding, UTF_8};
use sgf_grove::text::unescape;
use sgf_grove::{Collection, GameTree, Node, ParseOptions, Parser};
use std::borrow::Cow;
use std::io::{self, BufWriter, Write};

/// Runs `sgf dump`.
///
/// # Errors
///
/// An unreadable input, or a failed write to standard output.
pub fn run(args: &DumpArgs) -> Result<Status, CliError> {
    let input = read_input(&args.file)?;
    let name = display_name(&args.file);
    let mut parser = Parser::with_options(ParseOptions::new().strict(args.strict));
    let mut err_out = BufWriter::new(io::stderr().lock());
    let coll = match parser.parse(&input) {
        Ok(coll) => coll,
        Err(err) => {
            let _ = write_error(&mut err_out, &name, &input, &err);
            let _ = err_out.flush();
            return Ok(Status::Failed);
        }
    };
    let _ = write_warning_lines(&mut err_out, &name, &coll);
    let _ = err_out.flush();

    let mut out = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    write_collection(&mut out, coll)?;
    out.flush()?;
    Ok(Status::Ok)
}

/// Writes `coll` as one line of JSON, newline included.
///
/// # Errors
///
/// Any error of `out`.
pub fn write_collection(out: &mut impl Write, coll: Collection<'_, '_>) -> io::Result<()> {
    let mut stack = Vec::new();
    out.write_all(b"[")?;
    for (i, game) in coll.games().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        write_game(out, game, &mut stack)?;
    }
    out.write_all(b"]\n")
}

/// Writes one game tree. `stack` is scratch space: for each open variation
/// list, the next sibling still to write (if any).
fn write_game<'t, 'src>(
    out: &mut impl Write,
    game: GameTree<'t, 'src>,
    stack: &mut Vec<Option<Node<'t, 'src>>>,
) -> io::Result<()> {
    let encoding = charset(game.root());
    let mut scratch = String::new();
    stack.clear();
    let mut start = game.root();
    'tree: loop {
        // The sequence: `start` and its only children.
        out.write_all(b"[[")?;
        let mut node = start;
        loop {
            write_node(out, node, encoding, &mut scratch)?;
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
            stack.push(first.next_sibling());
            start = first;
            continue 'tree;
        }
        // A leaf: close this tree, then every variation list that is done.
        out.write_all(b"]]")?;
        loop {
            match stack.pop() {
                None => return Ok(()),
                Some(Some(sibling)) => {
                    stack.push(sibling.next_sibling());
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

/// Writes one node as `{"IDENT":["value",…],…}`, identifiers in file order.
fn write_node(
    out: &mut impl Write,
    node: Node<'_, '_>,
    encoding: &'static Encoding,
    scratch: &mut String,
) -> io::Result<()> {
    out.write_all(b"{")?;
    for (i, prop) in node.properties().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        write_json_str(out, prop.ident(), scratch)?;
        out.write_all(b":[")?;
        for (j, value) in prop.values().enumerate() {
            if j > 0 {
                out.write_all(b",")?;
            }
            let bytes = unescape(value.raw());
            write_json_str(out, &decode(&bytes, encoding), scratch)?;
        }
        out.write_all(b"]")?;
    }
    out.write_all(b"}")
}

/// The charset named by the root's `CA` property when `encoding_rs` knows
/// the label (`GB2312`, `Shift_JIS`, `ISO-8859-1` …), else UTF-8.
fn charset(root: Node<'_, '_>) -> &'static Encoding {
    root.get_raw("CA")
        .and_then(|raw| Encoding::for_label(&unescape(raw)))
        .unwrap_or(UTF_8)
}

/// Decodes `bytes` in `encoding`, replacing what does not decode by U+FFFD.
fn decode<'a>(bytes: &'a [u8], encoding: &'static Encoding) -> Cow<'a, str> {
    if encoding == UTF_8 {
        String::from_utf8_lossy(bytes)
    } else {
        encoding.decode_without_bom_handling(bytes).0
    }
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
