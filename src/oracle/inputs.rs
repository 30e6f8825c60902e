//! The `inputs` target: bytes through [`Inputs`] as every kind of input.
//!
//! 1. The bytes written to a temporary folder under every name a scan
//!    treats differently (`.sgf`, `.sgfs`, compressed and archive names):
//!    the scan never panics, and with low budgets
//!    ([`Inputs::max_input_bytes`], [`Inputs::max_input_games`]) nothing
//!    gives more than the budget allows, whatever the bytes expand to.
//! 2. The bytes cut into games (lines), packed into valid containers
//!    (gzip, bzip2, zstd, tar, zip, `.sgfs`, UTF-16): the games of the scan
//!    are those of parsing the text the container holds.

use crate::input::{InputErrorKind, Inputs};
use crate::ParseOptions;
use std::io::Write;
use std::path::Path;

/// The budgets of part 1: small, so that what the bytes expand to is
/// bounded in memory and time.
const BYTES: u64 = 4 << 20;
const GAMES: u64 = 10_000;

/// Every check of the target on `input`.
pub fn check_inputs(input: &[u8]) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    check_any_bytes(dir.path(), input);
    check_containers(dir.path(), input);
}

/// Part 1: no panic, and the budgets hold.
fn check_any_bytes(dir: &Path, input: &[u8]) {
    let names = [
        "a.sgf",
        "b.sgfs",
        "c.sgf.gz",
        "d.tar",
        "e.zip",
        "f.7z",
        "g.sgf.xz",
        "h.sgf.zst",
        "i.sgf.bz2",
        "j.txt",
    ];
    let raw = dir.join("raw");
    std::fs::create_dir_all(&raw).expect("a folder");
    for name in names {
        std::fs::write(raw.join(name), input).expect("a temporary file");
    }
    let inputs = Inputs::new([&raw])
        .max_input_bytes(BYTES)
        .max_input_games(GAMES)
        .max_line(1 << 16);
    let (mut games, mut bytes) = (0u64, 0u64);
    let _ = inputs.scan_games(ParseOptions::new(), |game| {
        if let Ok(game) = game
            && let Some(tree) = game.tree()
        {
            games += 1;
            bytes += tree.span().len() as u64;
        }
        Ok::<(), ()>(())
    });
    let files = names.len() as u64;
    assert!(
        games <= GAMES * files && bytes <= BYTES * files,
        "over the budget: {games} games, {bytes} bytes; {}",
        super::repro(input)
    );
}

/// `(index, nodes)` of each game of `text` parsed as a stream with
/// `options`.
fn reference(text: &[u8], options: ParseOptions) -> Vec<(usize, usize)> {
    let mut stream = crate::StreamParser::with_options(text, options);
    let mut games = Vec::new();
    while let Some(Ok(coll)) = stream.next_game() {
        games.extend(coll.games().map(|g| (g.index(), g.nodes().count())));
    }
    games
}

/// What a scan of `path` gives: `(member, index, nodes)` per game, and
/// whether any error came.
fn scan(path: &Path) -> (Vec<(String, usize, usize)>, bool) {
    let mut games = Vec::new();
    let mut failed = false;
    let _ = Inputs::new([path]).scan_games(ParseOptions::new(), |game| {
        match game {
            Ok(game) => {
                if let Some(tree) = game.tree() {
                    let member = game
                        .origin()
                        .members()
                        .last()
                        .map(|m| String::from_utf8_lossy(m).into_owned())
                        .unwrap_or_default();
                    games.push((member, tree.index(), tree.nodes().count()));
                }
            }
            Err(err) => {
                failed |= err.kind() != InputErrorKind::NoSgfFiles;
            }
        }
        Ok::<(), ()>(())
    });
    (games, failed)
}

/// Part 2: valid containers of the games cut from `input`.
fn check_containers(dir: &Path, input: &[u8]) {
    // Up to 4 members of SGF text, cut at `\0` bytes.
    let members: Vec<&[u8]> = input.split(|&b| b == 0).take(4).collect();
    let text = members[0];
    let expected = reference(text, ParseOptions::new());
    let plain: Vec<(String, usize, usize)> = expected
        .iter()
        .map(|&(i, n)| (String::new(), i, n))
        .collect();
    // Members parsed as text only when their first bytes are text.
    let is_text = crate::input::sniff(text).is_text();
    let compare = |name: &str, bytes: &[u8], want: &[(String, usize, usize)]| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("a temporary file");
        let (got, failed) = scan(&path);
        if !failed {
            assert_eq!(got, want, "{name}; {}", super::repro(input));
        }
    };
    if is_text {
        compare("p.sgf.gz", &gzip(text), &plain);
        compare("p.sgf.bz2", &bzip2(text), &plain);
        compare(
            "p.sgf.zst",
            &zstd::encode_all(text, 1).expect("zstd"),
            &plain,
        );
    }
    // Archives of the members named `m0.sgf`…; a member that is not text
    // fails alone.
    let named: Vec<(String, &[u8])> = members
        .iter()
        .enumerate()
        .map(|(i, m)| (format!("m{i}.sgf"), *m))
        .collect();
    let want: Vec<(String, usize, usize)> = named
        .iter()
        .filter(|(_, m)| crate::input::sniff(m).is_text())
        .flat_map(|(name, m)| {
            reference(m, ParseOptions::new())
                .into_iter()
                .map(move |(i, n)| (name.clone(), i, n))
        })
        .collect();
    if named.iter().all(|(_, m)| crate::input::sniff(m).is_text()) {
        compare("q.tar", &tar(&named), &want);
        compare("q.zip", &zip(&named), &want);
    }
    // UTF-16 of text that is UTF-8 with no byte order mark of its own.
    if let Ok(s) = std::str::from_utf8(text)
        && is_text
        && !s.starts_with('\u{feff}')
    {
        let utf16: Vec<u8> = "\u{feff}"
            .encode_utf16()
            .chain(s.encode_utf16())
            .flat_map(u16::to_le_bytes)
            .collect();
        let want: Vec<(String, usize, usize)> =
            reference(text, ParseOptions::new().charset(Some(encoding_rs::UTF_8)))
                .into_iter()
                .map(|(i, n)| (String::new(), i, n))
                .collect();
        compare("u.sgf", &utf16, &want);
    }
    // `.sgfs`: each line parsed on its own.
    if is_text && !text.contains(&b'\r') {
        let mut want = Vec::new();
        let mut index = 0;
        for line in text.split(|&b| b == b'\n') {
            if line.iter().all(|b| b" \t\x0b\x0c".contains(b)) {
                continue;
            }
            let mut stream = crate::StreamParser::new(line);
            stream.restart_at(crate::Position::default(), index);
            while let Some(Ok(coll)) = stream.next_game() {
                want.extend(
                    coll.games()
                        .map(|g| (String::new(), g.index(), g.nodes().count())),
                );
            }
            index = stream.games();
        }
        compare("s.sgfs", text, &want);
    }
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(data).expect("in memory");
    enc.finish().expect("in memory")
}

fn bzip2(data: &[u8]) -> Vec<u8> {
    let mut enc = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    enc.write_all(data).expect("in memory");
    enc.finish().expect("in memory")
}

fn tar(members: &[(String, &[u8])]) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for (name, data) in members {
        let mut header = tar::Header::new_gnu();
        header.set_mode(0o644);
        header.set_size(data.len() as u64);
        header.set_cksum();
        builder
            .append_data(&mut header, name, *data)
            .expect("in memory");
    }
    builder.into_inner().expect("in memory")
}

fn zip(members: &[(String, &[u8])]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, data) in members {
        writer
            .start_file(name.as_str(), options)
            .expect("in memory");
        writer.write_all(data).expect("in memory");
    }
    writer.finish().expect("in memory").into_inner()
}

#[cfg(test)]
mod tests {
    use super::check_inputs;

    #[test]
    fn games_junk_and_binary() {
        check_inputs(b"(;GM[1];B[aa])\n(;GM[1]C[x])\0(;B[bb])junk\0\x1f\x8b\x08");
        check_inputs(b"");
        check_inputs(b"(((((((((;B[aa]\n  \n(;W[bb]");
        check_inputs(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03garbage");
    }
}
