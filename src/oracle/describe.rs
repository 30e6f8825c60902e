//! A plain-text description of a parse, for tests and the hand-written
//! corpus: the tree written back in raw mode, then one line per warning, or
//! the error. Used by `tests/integration/corpus.rs`.

use crate::tree::Document;
use crate::writer::write_collection;
use crate::ParseOptions;

/// Describes the parse of `input`: on success the collection as the raw
/// writer prints it, then `warning[code] at line:column` per warning; on
/// failure `error[code] at line:column`.
pub fn describe(input: &[u8], options: &ParseOptions) -> String {
    match Document::parse_with(input, options) {
        Ok(doc) => {
            let mut out = String::from_utf8_lossy(&write_collection(doc.collection())).into_owned();
            for w in doc.warnings() {
                out.push_str(&format!("warning[{}] at {}\n", w.kind.code(), w.pos));
            }
            out
        }
        Err(e) => format!("error[{}] at {}\n", e.kind().code(), e.position()),
    }
}
