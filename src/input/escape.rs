//! Names that map back to one input: [`escape_name`] and
//! [`Origin::escaped`](super::Origin::escaped), the spelling of an origin
//! that `sgf` prints and writes in the `source` column of its tables.

use super::{Origin, Root};
use std::borrow::Cow;
use std::ffi::OsStr;
use std::fmt::Write as _;

/// `name` as text that maps back to exactly one name:
///
/// - a byte that is not part of valid UTF-8 becomes `\xHH` (`a\xff.sgf`);
/// - a control character becomes `\n`, `\r`, `\t`, `\xHH` (below U+0080)
///   or `\u{HHHH}` (C1 controls, and the bidirectional-text controls that
///   would reorder what the terminal shows);
/// - on Unix, `\` itself becomes `\\`, so that an escape cannot be forged
///   by a name that spells one (on Windows `\` separates folders, and a
///   name cannot hold it).
///
/// Everything else is kept, so ordinary names print as they are
/// (borrowed).
///
/// ```
/// use sgf_grove::input::escape_name;
/// use std::ffi::OsStr;
/// assert_eq!(escape_name(OsStr::new("games/a.sgf")), "games/a.sgf");
/// assert_eq!(escape_name(OsStr::new("a\nb.sgf")), r"a\nb.sgf");
/// ```
pub fn escape_name(name: &OsStr) -> Cow<'_, str> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt as _;
        escape_bytes(name.as_bytes())
    }
    #[cfg(not(unix))]
    {
        match name.to_str() {
            Some(text) => escape_str(text),
            // Unpaired surrogates on Windows: shown as U+FFFD.
            None => Cow::Owned(escape_str(&name.to_string_lossy()).into_owned()),
        }
    }
}

/// [`escape_name`] for a name given as bytes (an archive member's name, on every
/// system).
pub(crate) fn escape_bytes(bytes: &[u8]) -> Cow<'_, str> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return escape_str(text);
    }
    let mut out = String::with_capacity(bytes.len() + 8);
    for chunk in bytes.utf8_chunks() {
        push_escaped(&mut out, chunk.valid());
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    Cow::Owned(out)
}

/// [`escape_name`] for a name that is valid Unicode.
fn escape_str(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    push_escaped(&mut out, text);
    Cow::Owned(out)
}

fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        if !needs_escape(c) {
            out.push(c);
            continue;
        }
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_ascii() => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\u{{{:04x}}}", c as u32);
            }
        }
    }
}

fn needs_escape(c: char) -> bool {
    (c == '\\' && cfg!(unix))
        || c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

impl Origin {
    /// The origin as one line of text that maps back to exactly one
    /// member: its root path (or `<stdin>`) and the names of the archive
    /// members it is in, joined with `!` (`games.tar.gz!2019/a.sgf`), each
    /// written by [`escape_name`], and with a `!` inside any of them
    /// written `\x21`, so that a name maps back to one member even when a
    /// file name holds a `!`. The `sgf` tool names inputs so, and so does
    /// the `source` column of its tables.
    ///
    /// ```
    /// use sgf_grove::input::Origin;
    /// let mut origin = Origin::path("kgs.tar.gz");
    /// origin.push_member(b"2019/a!b.sgf".to_vec());
    /// assert_eq!(origin.escaped(), r"kgs.tar.gz!2019/a\x21b.sgf");
    /// ```
    pub fn escaped(&self) -> String {
        let mut out = match self.root() {
            Root::Stdin => "<stdin>".to_owned(),
            Root::Path(path) => bang(escape_name(path.as_os_str())),
        };
        for member in self.members() {
            out.push('!');
            out.push_str(&bang(escape_bytes(member)));
        }
        out
    }
}

/// `name` with each `!` written `\x21`.
fn bang(name: Cow<'_, str>) -> String {
    if name.contains('!') {
        name.replace('!', "\\x21")
    } else {
        name.into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::{escape_bytes, escape_name as escape};
    use crate::input::Origin;
    use std::borrow::Cow;
    use std::ffi::OsStr;

    fn origin_name(origin: &Origin) -> String {
        origin.escaped()
    }

    #[test]
    fn plain_names_are_borrowed() {
        for name in ["a.sgf", "games/中文 棋谱.sgf", "we\"ird.sgf", ""] {
            assert!(
                matches!(escape(OsStr::new(name)), Cow::Borrowed(n) if n == name),
                "{name}"
            );
        }
    }

    #[test]
    fn control_characters_are_escaped() {
        let cases = [
            ("a\nb.sgf", r"a\nb.sgf"),
            ("a\rb\tc", r"a\rb\tc"),
            ("bell\u{7}", r"bell\x07"),
            ("del\u{7f}", r"del\x7f"),
            ("esc\u{1b}[31m", r"esc\x1b[31m"),
            ("c1\u{85}", r"c1\u{0085}"),
            ("rlo\u{202e}fgs.exe", r"rlo\u{202e}fgs.exe"),
        ];
        for (name, printed) in cases {
            assert_eq!(escape(OsStr::new(name)), printed, "{name:?}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn bytes_that_are_not_utf8_are_escaped_one_by_one() {
        assert_eq!(escape_bytes(b"a\xff.sgf"), r"a\xff.sgf");
        assert_eq!(escape_bytes(b"a\xfe.sgf"), r"a\xfe.sgf");
        assert_eq!(escape_bytes(b"\xe4\xb8.sgf"), r"\xe4\xb8.sgf");
        // Valid UTF-8 around the bad bytes stays as it is.
        assert_eq!(escape_bytes(b"\xe4\xb8\xad\xff\n"), "中\\xff\\n");
    }

    #[cfg(unix)]
    #[test]
    fn an_escape_cannot_be_forged() {
        // The file literally named `a\xff.sgf` and the one holding byte FF.
        let spelled = escape_bytes(br"a\xff.sgf").into_owned();
        let byte = escape_bytes(b"a\xff.sgf").into_owned();
        assert_eq!(spelled, r"a\\xff.sgf");
        assert_ne!(spelled, byte);
        assert_eq!(escape_bytes(br"x\n"), r"x\\n");
    }

    #[test]
    fn origins_join_members_with_a_bang_that_names_cannot_forge() {
        let mut origin = Origin::path("kgs.tar.gz");
        origin.push_member(b"2019/a.sgf".to_vec());
        assert_eq!(origin_name(&origin), "kgs.tar.gz!2019/a.sgf");
        origin.push_member(b"x!y\n.sgf".to_vec());
        assert_eq!(origin_name(&origin), r"kgs.tar.gz!2019/a.sgf!x\x21y\n.sgf");
        assert_eq!(origin_name(&Origin::path("wow!.sgf")), r"wow\x21.sgf");
        let mut stdin = Origin::stdin();
        stdin.push_member(b"\xff\n.sgf".to_vec());
        assert_eq!(origin_name(&stdin), r"<stdin>!\xff\n.sgf");
    }
}
