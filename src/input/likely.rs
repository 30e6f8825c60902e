//! Where a game likely starts in a stream of games, read from its bytes
//! alone: where a parallel scan cuts a large member into chunks
//! (`par_chunks`), each cut then checked against one parse.

/// Whether the `(` at `i` of `bytes` likely starts a game: it follows a
/// `)` and whitespace only, and opens a node whose first property is one
/// only a root holds.
pub(crate) fn likely_start(bytes: &[u8], i: usize) -> bool {
    let before = bytes[..i]
        .iter()
        .rev()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
    before == Some(&b')') && opens_root(bytes, i)
}

/// Whether the `(` at `i` is followed by `;` and a node that holds a
/// property only a root holds (`GM`, `FF`, `CA`, `AP`, `ST`, `SZ`), read
/// over at most [`NODE_LOOK`] bytes: identifiers (lower-case letters and
/// whitespace allowed in them), values with their escapes.
pub(crate) fn opens_root(bytes: &[u8], i: usize) -> bool {
    let limit = bytes.len().min(i + NODE_LOOK);
    let space = |j: &mut usize| {
        while *j < limit && bytes[*j].is_ascii_whitespace() {
            *j += 1;
        }
    };
    let mut j = i + 1;
    space(&mut j);
    if j >= limit || bytes[j] != b';' {
        return false;
    }
    j += 1;
    loop {
        space(&mut j);
        let mut name = [0u8; 2];
        let mut len = 0;
        while j < limit && (bytes[j].is_ascii_alphabetic() || bytes[j].is_ascii_whitespace()) {
            if bytes[j].is_ascii_uppercase() {
                if len < 2 {
                    name[len] = bytes[j];
                }
                len += 1;
            }
            j += 1;
        }
        if len == 0 || j >= limit || bytes[j] != b'[' {
            return false;
        }
        if len == 2 && matches!(&name, b"GM" | b"FF" | b"CA" | b"AP" | b"ST" | b"SZ") {
            return true;
        }
        // Its values.
        while j < limit && bytes[j] == b'[' {
            j += 1;
            while j < limit && bytes[j] != b']' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            j += 1;
            space(&mut j);
        }
    }
}

/// How far [`opens_root`] reads a node.
const NODE_LOOK: usize = 1024;
