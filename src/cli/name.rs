//! File names as printed: one function, [`escape`] (the library's
//! [`escape_name`](sgf_grove::input::escape_name)), so that text and JSON
//! output name a file the same way, and two different files never print
//! the same.

pub use sgf_grove::input::escape_name as escape;
use sgf_grove::input::Origin;
use std::borrow::Cow;
use std::path::Path;

/// The name printed for an input: `<stdin>` for `-`, else the path as
/// given, [`escape`]d.
pub fn display_name(path: &Path) -> Cow<'_, str> {
    if super::cmd::is_stdin(path) {
        Cow::Borrowed("<stdin>")
    } else {
        escape(path.as_os_str())
    }
}

/// The name printed for a member or an input that `check` read
/// ([`Origin::escaped`]).
pub fn origin_name(origin: &Origin) -> String {
    origin.escaped()
}

#[cfg(test)]
mod tests {
    use super::display_name;
    use std::path::Path;

    #[test]
    fn stdin_is_named_so() {
        assert_eq!(display_name(Path::new("-")), "<stdin>");
        assert_eq!(display_name(Path::new("./-")), "./-");
    }
}
