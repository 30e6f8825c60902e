//! Canonical mode's escapes: only where a reader needs them. (New text is
//! escaped by [`value::escape_value`](crate::value::escape_value).)

/// Writes `raw` (escaped) with escapes only where a reader needs them:
/// `\]`, `\\`, and `\:` when `colon`; soft line breaks (`\` + a line
/// break) and a lone `\` at the end are removed. Unless `decoded` (the
/// value is UTF-8 text decoded by the writer), bytes are those of the
/// game's charset, perhaps damaged: a `\` before a byte that is not ASCII
/// and soft line breaks stay, since removing them could join two halves of
/// a character that the `\` kept apart.
pub(super) fn escape_canonical(raw: &[u8], colon: bool, decoded: bool, out: &mut Vec<u8>) {
    let mut i = 0;
    // Whether the last byte written, spaces aside, is `(`.
    let mut after_paren = false;
    while i < raw.len() {
        let mut b = raw[i];
        i += 1;
        if b == b'\\' {
            match raw.get(i) {
                None => break,
                Some(&c @ (b'\n' | b'\r')) => {
                    let start = i - 1;
                    i += 1;
                    if raw
                        .get(i)
                        .is_some_and(|&d| (d == b'\n' || d == b'\r') && d != c)
                    {
                        i += 1;
                    }
                    if !decoded {
                        out.extend_from_slice(&raw[start..i]);
                    }
                    continue;
                }
                Some(&c) if !decoded && !c.is_ascii() => {
                    out.push(b'\\');
                    continue;
                }
                Some(&c) => {
                    b = c;
                    i += 1;
                }
            }
        }
        // `(;` and a root property inside a value read as a new game: the
        // `;` after a `(` is escaped.
        if b == b']' || b == b'\\' || (colon && b == b':') || (after_paren && b == b';') {
            out.push(b'\\');
        }
        out.push(b);
        after_paren = b == b'(' || (after_paren && matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
    }
}
