//! Archives cut short, budgets on what an input expands to, and links to
//! folders in a walk, through `sgf_grove::input::Inputs`.
//!
//! A cut archive gives every game that decompressing then parsing its
//! readable prefix gives: the reference here decompresses the prefix with
//! the same decoder (as far as it goes), splits the tar by hand, and
//! parses each member's bytes whole.

#![cfg(feature = "archives")]

use sgf_grove::input::Inputs;
use sgf_grove::ParseOptions;
use std::io::{Read, Write};

use crate::common::TempDir;

/// Members of a few dozen games each, of varied lengths.
fn members() -> Vec<(String, Vec<u8>)> {
    let mut seed = 7u32;
    let mut next = move || {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        seed >> 8
    };
    (0..12)
        .map(|m| {
            let mut text = Vec::new();
            for g in 0..40 {
                let len = 10 + next() % 400;
                let comment: String = (0..len)
                    .map(|_| (b'a' + (next() % 26) as u8) as char)
                    .collect();
                writeln!(text, "(;GM[1]C[{m} {g} {comment}];B[aa];W[bb])").unwrap();
            }
            (format!("m{m:02}.sgf"), text)
        })
        .collect()
}

fn tar(members: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for (name, data) in members {
        let mut header = tar::Header::new_gnu();
        header.set_mode(0o644);
        header.set_size(data.len() as u64);
        header.set_cksum();
        builder.append_data(&mut header, name, &data[..]).unwrap();
    }
    builder.into_inner().unwrap()
}

fn zip(members: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, data) in members {
        writer.start_file(name.as_str(), options).unwrap();
        writer.write_all(data).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

/// Everything `reader` gives before it ends or breaks.
fn readable(mut reader: impl Read) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match reader.read(&mut buf) {
            Ok(0) | Err(_) => return out,
            Ok(n) => out.extend_from_slice(&buf[..n]),
        }
    }
}

/// The members of the tar bytes `data` (the last one perhaps cut).
fn untar(data: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 512 <= data.len() {
        let header = &data[at..at + 512];
        if header.iter().all(|&b| b == 0) {
            break;
        }
        let name_len = header[..100].iter().position(|&b| b == 0).unwrap_or(100);
        let name = String::from_utf8_lossy(&header[..name_len]).into_owned();
        let size_field = std::str::from_utf8(&header[124..136]).unwrap();
        let size =
            usize::from_str_radix(size_field.trim_matches(|c: char| c == '\0' || c == ' '), 8)
                .unwrap();
        let start = at + 512;
        let end = (start + size).min(data.len());
        out.push((name, data[start..end].to_vec()));
        at = start + size.div_ceil(512) * 512;
    }
    out
}

/// `member@index:nodes` for each game of each member, parsed whole.
fn reference(members: &[(String, Vec<u8>)], archive: &str) -> Vec<String> {
    let mut lines = Vec::new();
    for (name, data) in members {
        if let Ok(coll) = sgf_grove::parse(data) {
            for game in coll.games() {
                lines.push(format!(
                    "{archive}!{name}#{}:{}",
                    game.index(),
                    game.nodes().count()
                ));
            }
        }
    }
    lines
}

/// The games a scan of `path` gives, as [`reference`] writes them, and
/// the codes of its errors.
fn scanned(dir: &TempDir, inputs: Inputs) -> (Vec<String>, Vec<String>) {
    let (mut games, mut errors) = (Vec::new(), Vec::new());
    inputs
        .scan_games(ParseOptions::new(), |game| {
            match game {
                Ok(game) => {
                    if let Some(tree) = game.tree() {
                        games.push(format!(
                            "{}#{}:{}",
                            dir.rel(&game.origin().to_string()),
                            tree.index(),
                            tree.nodes().count()
                        ));
                    }
                }
                Err(err) => errors.push(format!(
                    "{}: {}",
                    dir.rel(&err.origin().to_string()),
                    err.kind().code()
                )),
            }
            Ok::<(), ()>(())
        })
        .unwrap();
    (games, errors)
}

/// The points an archive of `len` bytes is cut at: a few through it.
fn cuts(len: usize) -> Vec<usize> {
    [5, 23, 41, 50, 67, 88, 99]
        .iter()
        .map(|pct| len * pct / 100)
        .collect()
}

fn check_cut_tar(kind: &str, packed: &[u8], unpack: impl Fn(&[u8]) -> Vec<u8>) {
    let dir = TempDir::new(&format!("cut-{kind}"));
    for cut in cuts(packed.len()) {
        let name = format!("cut{cut}.{kind}");
        dir.write(&name, &packed[..cut]);
        let expected = reference(&untar(&unpack(&packed[..cut])), &name);
        let (games, errors) = scanned(&dir, Inputs::new([dir.0.join(&name)]));
        assert_eq!(games, expected, "{name}");
        assert_eq!(errors.len(), 1, "{name}: one error says where: {errors:?}");
        assert!(errors[0].starts_with(&name), "{name}: {errors:?}");
    }
}

#[test]
fn a_cut_tar_gz_gives_every_game_of_its_readable_prefix() {
    let tar = tar(&members());
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&tar).unwrap();
    let packed = enc.finish().unwrap();
    check_cut_tar("tar.gz", &packed, |prefix| {
        readable(flate2::read::MultiGzDecoder::new(prefix))
    });
}

/// What `xz -dc` writes for `data` before it stops (the standard tool's
/// recovery of a cut stream), or `None` when `xz` cannot be run.
fn xz_dc(data: &[u8]) -> Option<Vec<u8>> {
    use std::process::{Command, Stdio};
    let mut child = Command::new("xz")
        .args(["-dc"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut stdin = child.stdin.take().unwrap();
    let data = data.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let out = child.wait_with_output().ok()?;
    writer.join().unwrap();
    Some(out.stdout)
}

#[test]
fn a_cut_tar_xz_gives_every_game_xz_dc_gives() {
    if xz_dc(b"").is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set and the `xz` tool (xz-utils) cannot be run"
        );
        crate::common::skipped("the `xz` tool (xz-utils) cannot be run; it is the reference");
        return;
    }
    let tar = tar(&members());
    let mut enc = liblzma::write::XzEncoder::new(Vec::new(), 6);
    enc.write_all(&tar).unwrap();
    let packed = enc.finish().unwrap();
    check_cut_tar("tar.xz", &packed, |prefix| xz_dc(prefix).unwrap());
}

#[test]
fn a_cut_zip_is_read_from_its_local_headers() {
    let members = members();
    let packed = zip(&members);
    let dir = TempDir::new("cut-zip");
    for cut in cuts(packed.len()) {
        let name = format!("cut{cut}.zip");
        dir.write(&name, &packed[..cut]);
        let (games, errors) = scanned(&dir, Inputs::new([dir.0.join(&name)]));
        // The reference: each member whole up to the one cut, then the
        // cut one's data as far as it goes, inflated by hand (its local
        // header gives where its data starts and how long it is).
        let u16_at = |i: usize| usize::from(u16::from_le_bytes([packed[i], packed[i + 1]]));
        let mut whole = Vec::new();
        let mut at = 0;
        for (member, data) in &members {
            if at + 30 > cut {
                break;
            }
            let size = u32::from_le_bytes(packed[at + 18..at + 22].try_into().unwrap()) as usize;
            let head = 30 + u16_at(at + 26) + u16_at(at + 28);
            if at + head + size <= cut {
                whole.push((member.clone(), data.clone()));
            } else {
                if at + head < cut {
                    let inflated =
                        readable(flate2::read::DeflateDecoder::new(&packed[at + head..cut]));
                    whole.push((member.clone(), inflated));
                }
                break;
            }
            at += head + size;
        }
        let expected = reference(&whole, &name);
        assert_eq!(games, expected, "{name}");
        assert_eq!(errors.len(), 1, "{name}: {errors:?}");
    }
}

/// A zip of `n` zips of … `layers` deep, each innermost holding one game.
fn zip_bomb(layers: u32, n: usize) -> Vec<u8> {
    let mut inner = zip(&[("g.sgf".to_owned(), b"(;GM[1];B[aa])\n".to_vec())]);
    for _ in 1..layers {
        let copies: Vec<(String, Vec<u8>)> = (0..n)
            .map(|i| (format!("z{i}.zip"), inner.clone()))
            .collect();
        inner = zip(&copies);
    }
    inner
}

#[test]
fn nested_archives_count_against_one_budget_per_input() {
    let dir = TempDir::new("budget");
    // 4 layers of 6: 216 games in a few kilobytes.
    dir.write("bomb.zip", zip_bomb(4, 6));
    dir.write("plain.sgf", "(;GM[1])(;GM[1])");
    let all = Inputs::new([&dir.0]);
    let (games, errors) = scanned(&dir, all);
    assert_eq!(games.len(), 216 + 2);
    assert!(errors.is_empty(), "{errors:?}");

    // Games: the budget stops the bomb after 50, the next input is read.
    let (games, errors) = scanned(&dir, Inputs::new([&dir.0]).max_input_games(50));
    assert_eq!(
        games.iter().filter(|g| g.starts_with("bomb.zip!")).count(),
        50
    );
    assert_eq!(
        games.iter().filter(|g| g.starts_with("plain.sgf")).count(),
        2
    );
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].starts_with("bomb.zip!") && errors[0].ends_with("over_budget"));

    // Bytes: a tar.gz of tar.gz's of 15-byte members, every layer's
    // members counted against the outer file's budget.
    let inner: Vec<(String, Vec<u8>)> = (0..10)
        .map(|i| (format!("g{i}.sgf"), b"(;GM[1];B[aa])\n".to_vec()))
        .collect();
    let outer: Vec<(String, Vec<u8>)> = (0..6)
        .map(|i| (format!("in{i}.tar.gz"), gz(&tar(&inner))))
        .collect();
    dir.write("nested.tar.gz", gz(&tar(&outer)));
    let (games, errors) = scanned(&dir, Inputs::new([&dir.0]).max_input_bytes(15 * 34));
    let nested = |g: &&String| g.starts_with("nested.tar.gz!");
    assert_eq!(games.iter().filter(nested).count(), 34, "{games:?}");
    assert_eq!(
        games.iter().filter(|g| g.starts_with("plain.sgf")).count(),
        2
    );
    assert!(
        errors.contains(&"nested.tar.gz!in3.tar.gz!g4.sgf: over_budget".to_owned()),
        "{errors:?}"
    );
    // The bomb too went over (its inner zips are copied to be read).
    assert_eq!(errors.len(), 2, "{errors:?}");
}

fn gz(data: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

#[test]
fn a_zip_of_zips_read_from_a_stream_counts_what_is_spooled() {
    let dir = TempDir::new("budget-spool");
    // Compressed: the zip is read from a stream and copied first.
    let bomb = zip_bomb(3, 8);
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&bomb).unwrap();
    dir.write("bomb.zip.gz", enc.finish().unwrap());
    let (games, errors) = scanned(&dir, Inputs::new([&dir.0]).max_input_bytes(100));
    assert!(games.is_empty(), "{games:?}");
    assert_eq!(errors, ["bomb.zip.gz: over_budget"]);
}

#[cfg(unix)]
#[test]
fn links_to_folders_are_followed_and_loops_listed() {
    use sgf_grove::input::SkipReason;
    use std::os::unix::fs::symlink;
    let dir = TempDir::new("folder-links");
    dir.write("walk/a/x.sgf", "(;GM[1])");
    dir.write("other/y.sgf", "(;GM[1];B[aa])");
    symlink("../../other", dir.0.join("walk/a/link")).unwrap();
    // A link up to the walk's root, and one back from the followed folder.
    symlink("..", dir.0.join("walk/a/up")).unwrap();
    symlink("../walk", dir.0.join("other/back")).unwrap();
    let mut names = Vec::new();
    let skipped = Inputs::new([dir.0.join("walk")])
        .scan(|member| {
            names.push(dir.rel(&member.unwrap().origin().to_string()));
            Ok::<(), ()>(())
        })
        .unwrap();
    assert_eq!(names, ["walk/a/link/y.sgf", "walk/a/x.sgf"]);
    let listed: Vec<String> = skipped
        .listed()
        .iter()
        .map(|s| {
            format!(
                "{} ({})",
                dir.rel(&s.origin.to_string()),
                s.kind.description()
            )
        })
        .collect();
    assert_eq!(
        listed,
        [
            "walk/a/link/back (symlink loop)",
            "walk/a/up (symlink loop)"
        ]
    );
    assert_eq!(skipped.count(SkipReason::NotRegular), 2);
}

#[test]
fn an_sgfs_line_over_the_limit_costs_only_itself() {
    let dir = TempDir::new("sgfs-limit");
    let long = format!("(;GM[1]C[{}])", "x".repeat(10_000));
    dir.write(
        "g.sgfs",
        format!("(;GM[1];B[aa])\n{long}\n(;GM[1];W[bb])\n"),
    );
    let inputs = Inputs::new([dir.0.join("g.sgfs")]).max_line(1000);
    let mut seen = Vec::new();
    inputs
        .scan_games(ParseOptions::new(), |game| {
            match game {
                Ok(game) => {
                    if let Some(tree) = game.tree() {
                        seen.push(format!("game {}", tree.nodes().count()));
                    }
                }
                Err(err) => {
                    let parse = err.parse_error().unwrap();
                    seen.push(format!(
                        "{} at line {}: {err}",
                        parse.kind().code(),
                        parse.line()
                    ));
                }
            }
            Ok::<(), ()>(())
        })
        .unwrap();
    assert_eq!(seen.len(), 3, "{seen:?}");
    assert_eq!((seen[0].as_str(), seen[2].as_str()), ("game 2", "game 2"));
    assert!(
        seen[1].starts_with("line_too_long at line 2: line longer than 1000 bytes; skipped"),
        "{seen:?}"
    );
}

#[test]
fn utf16_members_are_decoded_as_a_stream() {
    let dir = TempDir::new("utf16-stream");
    let text = "(;GM[1]C[中文 é];B[aa])\n".repeat(50_000);
    let utf16: Vec<u8> = std::iter::once(0xFEFF)
        .chain(text.encode_utf16())
        .flat_map(u16::to_le_bytes)
        .collect();
    dir.write("u.sgf", &utf16);
    let (games, errors) = scanned(&dir, Inputs::new([dir.0.join("u.sgf")]));
    assert_eq!(games.len(), 50_000);
    assert!(errors.is_empty(), "{errors:?}");
    // Cut inside a character: the games before it, then one error.
    dir.write("cut.sgf", &utf16[..utf16.len() - 5]);
    let (games, errors) = scanned(&dir, Inputs::new([dir.0.join("cut.sgf")]));
    assert_eq!(games.len(), 50_000, "the last game is cut, not lost");
    assert_eq!(errors, ["cut.sgf: io"]);
}
