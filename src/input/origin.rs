//! Where a member comes from: [`Origin`], a path or standard input and the
//! names of the archive members nested in it.

use std::fmt;
use std::path::{Path, PathBuf};

/// Where an SGF member (or an input that failed) comes from: a file, a
/// folder or standard input, then the name of each archive member on the
/// way in, outermost first.
///
/// Its [`Display`](fmt::Display) joins them with `!`: `games/a.sgf`,
/// `kgs-2019.tar.gz!2019/01/a.sgf`, `a.zip!inner.tar!b.sgf`, `<stdin>`,
/// `<stdin>!x.sgf`. It is meant for messages: names that are not valid
/// UTF-8 show U+FFFD there, and a name holding `!` reads like a nested
/// member. [`Origin::root`] and [`Origin::members`] give the exact names,
/// for a tool that needs a spelling that maps back to one input (the `sgf`
/// command escapes them).
///
/// A compressed file (`a.sgf.gz`) is no archive: its origin is its path.
///
/// ```
/// use sgf_grove::input::Origin;
/// let mut origin = Origin::path("kgs.tar.gz");
/// origin.push_member(b"2019/a.sgf".to_vec());
/// assert_eq!(origin.to_string(), "kgs.tar.gz!2019/a.sgf");
/// assert_eq!(origin.members().collect::<Vec<_>>(), [&b"2019/a.sgf"[..]]);
/// assert_eq!(Origin::stdin().to_string(), "<stdin>");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Origin {
    root: Root,
    members: Vec<Box<[u8]>>,
}

/// The outermost input of an [`Origin`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Root {
    /// Standard input (the path `-`).
    Stdin,
    /// A file or folder, as given or as found in a folder.
    Path(PathBuf),
}

impl Origin {
    /// The origin of a file or folder at `path`.
    pub fn path(path: impl Into<PathBuf>) -> Origin {
        Origin {
            root: Root::Path(path.into()),
            members: Vec::new(),
        }
    }

    /// The origin of standard input.
    pub fn stdin() -> Origin {
        Origin {
            root: Root::Stdin,
            members: Vec::new(),
        }
    }

    /// The outermost input: standard input or a path.
    pub fn root(&self) -> &Root {
        &self.root
    }

    /// The path of the outermost input; `None` for standard input.
    pub fn root_path(&self) -> Option<&Path> {
        match &self.root {
            Root::Stdin => None,
            Root::Path(path) => Some(path),
        }
    }

    /// The names of the archive members, outermost first, as the archives
    /// store them (tar names are bytes; zip and 7z names are UTF-8 here).
    pub fn members(&self) -> impl ExactSizeIterator<Item = &[u8]> + '_ {
        self.members.iter().map(|m| &**m)
    }

    /// Whether the origin is inside an archive.
    pub fn is_member(&self) -> bool {
        !self.members.is_empty()
    }

    /// Goes one archive level deeper, into the member named `name`.
    pub fn push_member(&mut self, name: impl Into<Box<[u8]>>) {
        self.members.push(name.into());
    }

    /// Comes back out of the innermost member; `false` when there was none.
    pub fn pop_member(&mut self) -> bool {
        self.members.pop().is_some()
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.root {
            Root::Stdin => f.write_str("<stdin>")?,
            Root::Path(path) => write!(f, "{}", path.display())?,
        }
        for member in &self.members {
            write!(f, "!{}", String::from_utf8_lossy(member))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{Origin, Root};
    use std::path::Path;

    #[test]
    fn members_nest_and_unnest() {
        let mut origin = Origin::path("a.tar.gz");
        assert!(!origin.is_member());
        origin.push_member(b"x.zip".to_vec());
        origin.push_member(b"dir/y.sgf".to_vec());
        assert_eq!(origin.to_string(), "a.tar.gz!x.zip!dir/y.sgf");
        assert!(origin.pop_member());
        assert_eq!(origin.to_string(), "a.tar.gz!x.zip");
        assert!(origin.pop_member());
        assert!(!origin.pop_member());
        assert_eq!(origin.root_path(), Some(Path::new("a.tar.gz")));
    }

    #[test]
    fn stdin_and_invalid_utf8() {
        let mut origin = Origin::stdin();
        assert_eq!(origin.root(), &Root::Stdin);
        assert_eq!(origin.root_path(), None);
        origin.push_member(b"a\xff.sgf".to_vec());
        assert_eq!(origin.to_string(), "<stdin>!a\u{fffd}.sgf");
    }
}
