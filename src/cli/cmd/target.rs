//! Where the commands that write SGF put each input's games with
//! `--out DIR` ([`mirror`]) and what `--out DIR` and `--in-place` refuse
//! before anything is written ([`check_out_dir`], [`check_in_place`]).

use crate::name::display_name;
use sgf_grove::input::{self, Inputs, Origin, Root, SNIFF_LEN};
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};

/// The file under `dir` that mirrors `origin`, one of the inputs found from
/// the paths `given`: a file found in a folder `a` (`a/b/c.sgf`) →
/// `dir/b/c.sgf`; a file named itself → `dir/<its name>`; an archive member
/// `a.tar.gz!x/y.sgf` → `dir/a.tar.gz/x/y.sgf`; a compressed `x.sgf.gz` →
/// `dir/x.sgf` (the compression suffix of the last name dropped, as the
/// file is written decompressed); a record of another format by its name
/// `g.gib` → `dir/g.gib.sgf`; standard input → `dir/stdin.sgf`
/// (`dir/stdin/…` for its members).
///
/// # Errors
///
/// A message when a member's name would leave `dir` (`..`, an absolute
/// path) or names nothing.
pub fn mirror(dir: &Path, origin: &Origin, given: &[PathBuf]) -> Result<PathBuf, String> {
    let members: Vec<&[u8]> = origin.members().collect();
    let mut parts: Vec<Vec<u8>> = Vec::new();
    match origin.root() {
        Root::Stdin => parts.push(if members.is_empty() {
            b"stdin.sgf".to_vec()
        } else {
            b"stdin".to_vec()
        }),
        Root::Path(root) => {
            let rel = relative(root, given);
            for part in rel.components() {
                if let Component::Normal(name) = part {
                    parts.push(name.as_encoded_bytes().to_vec());
                }
            }
        }
    }
    for member in &members {
        // Archives name members with `/` (and sometimes `\`).
        for name in member.split(|&b| b == b'/' || b == b'\\') {
            match name {
                b"" | b"." => {}
                b".." => return Err("a member name that leaves the folder (`..`)".into()),
                _ => parts.push(name.to_vec()),
            }
        }
    }
    let Some(last) = parts.last_mut() else {
        return Err("no file name to write to".into());
    };
    let stripped = input::strip_compression(last);
    if !stripped.is_empty() {
        *last = stripped.to_vec();
    }
    // A record of another format is written as SGF: `g.gib` → `g.gib.sgf`.
    if input::Foreign::by_name(last).is_some() {
        last.extend_from_slice(b".sgf");
    }
    let mut out = dir.to_path_buf();
    for part in parts {
        let part = bytes_to_path(&part);
        // One Normal component each: no separators, `..` or roots slip in.
        let mut comps = part.components();
        match (comps.next(), comps.next()) {
            (Some(Component::Normal(_)), None) => out.push(part),
            _ => return Err(format!("the name {:?} cannot be a file name", part)),
        }
    }
    Ok(out)
}

/// `root` relative to the longest of the paths `given` it is in; its file
/// name when it is one of them (or none).
fn relative(root: &Path, given: &[PathBuf]) -> PathBuf {
    let best = given
        .iter()
        .filter_map(|g| root.strip_prefix(g).ok())
        .filter(|rel| !rel.as_os_str().is_empty())
        .min_by_key(|rel| rel.components().count());
    match best {
        Some(rel) => rel.to_path_buf(),
        None => root
            .file_name()
            .map_or_else(|| PathBuf::from("input.sgf"), PathBuf::from),
    }
}

#[cfg(unix)]
fn bytes_to_path(bytes: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt as _;
    PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
}

#[cfg(not(unix))]
fn bytes_to_path(bytes: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
}

/// Refuses `--out DIR` inside (or equal to) a folder among the inputs: a
/// second run over that folder would read the output as input.
///
/// # Errors
///
/// The message to print, naming both.
pub fn check_out_dir(dir: &Path, paths: &[PathBuf]) -> Result<(), String> {
    let out = resolved(dir);
    for path in paths.iter().filter(|p| p.is_dir()) {
        let Ok(input) = path.canonicalize() else {
            continue;
        };
        if out.starts_with(&input) {
            return Err(format!(
                "--out {} is inside the input folder {}: a second run would read its output as input; choose a folder outside it",
                display_name(dir),
                display_name(path)
            ));
        }
    }
    Ok(())
}

/// `path` made absolute with links resolved, for a path that may not exist
/// yet: its nearest existing ancestor resolved, the rest appended.
fn resolved(path: &Path) -> PathBuf {
    let mut rest = Vec::new();
    let mut at = path.to_path_buf();
    loop {
        if let Ok(real) = at.canonicalize() {
            let mut out = real;
            for part in rest.iter().rev() {
                out.push(part);
            }
            return out;
        }
        match (at.file_name().map(|n| n.to_os_string()), at.parent()) {
            (Some(name), Some(parent)) => {
                rest.push(name);
                at = if parent.as_os_str().is_empty() {
                    PathBuf::from(".")
                } else {
                    parent.to_path_buf()
                };
            }
            _ => return path.to_path_buf(),
        }
    }
}

/// Refuses `--in-place` when an input is not a plain file that can be
/// replaced: standard input, or a compressed file or archive (by its first
/// bytes; also one found in a folder).
///
/// # Errors
///
/// The message to print, naming the first such input.
pub fn check_in_place(inputs: &Inputs) -> Result<(), String> {
    for source in inputs.sources().iter() {
        let origin = source.origin();
        let Some(path) = origin.root_path() else {
            return Err(
                "--in-place cannot rewrite standard input; write to standard output or --out DIR"
                    .into(),
            );
        };
        let content = match first_bytes(path) {
            Ok(bytes) => input::sniff(&bytes),
            // Unreadable: the scan reports it as a failed input.
            Err(_) => continue,
        };
        if let Some(format) = content.foreign() {
            return Err(format!(
                "--in-place cannot rewrite {} ({format}): it would become SGF under its old name; use --out DIR",
                display_name(path)
            ));
        }
        if content.is_compressed() || content.is_archive() {
            return Err(format!(
                "--in-place cannot rewrite {} ({content}): its games are archive members or compressed; use --out DIR",
                display_name(path)
            ));
        }
    }
    Ok(())
}

/// The first [`SNIFF_LEN`] bytes of the file at `path` (fewer when it is
/// shorter).
fn first_bytes(path: &Path) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(SNIFF_LEN);
    std::fs::File::open(path)?
        .take(SNIFF_LEN as u64)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::mirror;
    use sgf_grove::input::Origin;
    use std::path::{Path, PathBuf};

    fn member(root: &str, names: &[&str]) -> Origin {
        let mut origin = Origin::path(root);
        for name in names {
            origin.push_member(name.as_bytes().to_vec());
        }
        origin
    }

    #[test]
    fn mirrors_files_members_and_compressed_files() {
        let dir = Path::new("out");
        let given = [PathBuf::from("a"), PathBuf::from("x.sgf.gz")];
        let m = |o: &Origin| mirror(dir, o, &given).unwrap();
        assert_eq!(m(&member("a/b/c.sgf", &[])), dir.join("b/c.sgf"));
        assert_eq!(
            m(&member("a/g.tar.gz", &["x/y.sgf"])),
            dir.join("g.tar.gz/x/y.sgf")
        );
        assert_eq!(m(&member("x.sgf.gz", &[])), dir.join("x.sgf"));
        assert_eq!(
            m(&member("a/t.zip", &["p.sgf.gz"])),
            dir.join("t.zip/p.sgf")
        );
        assert_eq!(m(&member("other/k.sgfs", &[])), dir.join("k.sgfs"));
        assert_eq!(m(&Origin::stdin()), dir.join("stdin.sgf"));
        assert_eq!(m(&member("a/t.GIB.gz", &[])), dir.join("t.GIB.sgf"));
    }

    #[test]
    fn a_member_name_cannot_leave_the_folder() {
        let given = [PathBuf::from("a.tar")];
        assert!(mirror(
            Path::new("out"),
            &member("a.tar", &["../../etc/x.sgf"]),
            &given
        )
        .is_err());
        let abs = mirror(Path::new("out"), &member("a.tar", &["/etc/x.sgf"]), &given).unwrap();
        assert_eq!(abs, Path::new("out/a.tar/etc/x.sgf"));
    }
}
