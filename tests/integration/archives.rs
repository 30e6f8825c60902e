//! `sgf_grove::input::Inputs` over every kind of input, each archive built
//! here with the writers of the same crates: the exact games, origins,
//! offsets, errors and skipped counts.

#![cfg(feature = "archives")]

use sgf_grove::input::{Content, InputErrorKind, Inputs, MemberKind, SkipReason};
use sgf_grove::ParseOptions;
use std::io::{Cursor, Write};
use std::path::PathBuf;

use crate::common::TempDir;

/// Two games: 3 and 2 nodes, at offsets 0 and 26.
const TWO: &str = "(;GM[1]FF[4];B[aa];W[bb])\n(;GM[1];B[cc])\n";
/// One game of 3 nodes.
const ONE: &str = "(;GM[1];B[dd];W[ee])";

// ------------------------------------------------------------ writers

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

fn bzip2(data: &[u8]) -> Vec<u8> {
    let mut enc = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

fn xz(data: &[u8]) -> Vec<u8> {
    let mut enc = liblzma::write::XzEncoder::new(Vec::new(), 6);
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

fn zstd(data: &[u8]) -> Vec<u8> {
    zstd::encode_all(data, 3).unwrap()
}

/// An entry of a test archive.
enum Entry<'a> {
    File(&'a str, &'a [u8]),
    Dir(&'a str),
    Symlink(&'a str, &'a str),
}

fn tar(entries: &[Entry<'_>]) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for entry in entries {
        let mut header = tar::Header::new_gnu();
        header.set_mode(0o644);
        match *entry {
            Entry::File(name, data) => {
                header.set_size(data.len() as u64);
                header.set_cksum();
                builder.append_data(&mut header, name, data).unwrap();
            }
            Entry::Dir(name) => {
                header.set_entry_type(tar::EntryType::Directory);
                header.set_size(0);
                header.set_cksum();
                builder.append_data(&mut header, name, &[][..]).unwrap();
            }
            Entry::Symlink(name, target) => {
                header.set_entry_type(tar::EntryType::Symlink);
                header.set_size(0);
                builder.append_link(&mut header, name, target).unwrap();
            }
        }
    }
    builder.into_inner().unwrap()
}

fn zip(entries: &[Entry<'_>], method: zip::CompressionMethod) -> Vec<u8> {
    use zip::write::SimpleFileOptions;
    let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(method);
    for entry in entries {
        match *entry {
            Entry::File(name, data) => {
                writer.start_file(name, options).unwrap();
                writer.write_all(data).unwrap();
            }
            Entry::Dir(name) => writer.add_directory(name, options).unwrap(),
            Entry::Symlink(name, target) => writer.add_symlink(name, target, options).unwrap(),
        }
    }
    writer.finish().unwrap().into_inner()
}

/// A 7z archive of `files`, all in one solid block.
fn sevenz(files: &[(&str, &[u8])]) -> Vec<u8> {
    use sevenz_rust2::{ArchiveEntry, ArchiveWriter, SourceReader};
    let mut writer = ArchiveWriter::new(Cursor::new(Vec::new())).unwrap();
    let entries = files
        .iter()
        .map(|(n, _)| ArchiveEntry::new_file(n))
        .collect();
    let readers = files
        .iter()
        .map(|(_, d)| SourceReader::from(Cursor::new(d.to_vec())))
        .collect();
    writer.push_archive_entries(entries, readers).unwrap();
    writer.finish().unwrap().into_inner()
}

// ------------------------------------------------------------ readers

/// What a scan of games found, one line each: `origin@offset#index:nodes`
/// for a game, `origin: error[code]` for an error; and what was skipped.
struct Seen {
    lines: Vec<String>,
    skipped: sgf_grove::input::Skipped,
}

fn games(dir: &TempDir, inputs: &Inputs) -> Seen {
    games_with(dir, inputs, ParseOptions::new())
}

fn games_with(dir: &TempDir, inputs: &Inputs, options: ParseOptions) -> Seen {
    let mut lines = Vec::new();
    let skipped = inputs
        .scan_games(options, |game| {
            match game {
                Ok(game) => {
                    if let Some(tree) = game.tree() {
                        lines.push(format!(
                            "{}@{}#{}:{}",
                            dir.rel(&game.origin().to_string()),
                            game.offset().unwrap(),
                            game.index().unwrap(),
                            tree.nodes().count()
                        ));
                    }
                }
                Err(err) => lines.push(format!(
                    "{}: error[{}]",
                    dir.rel(&err.origin().to_string()),
                    err.kind().code()
                )),
            }
            Ok::<(), ()>(())
        })
        .unwrap();
    Seen { lines, skipped }
}

fn at(dir: &TempDir, rel: &str) -> PathBuf {
    dir.0.join(rel)
}

// ------------------------------------------------------------ tests

#[test]
fn tar_gz_members_with_origins_offsets_and_skips() {
    let dir = TempDir::new("tar-gz");
    let archive = tar(&[
        Entry::Dir("dir/"),
        Entry::File("dir/a.sgf", TWO.as_bytes()),
        Entry::File("dir/B.SGF", ONE.as_bytes()),
        // Not SGF by name, but by content.
        Entry::File("dir/c.txt", b"\xef\xbb\xbf\n(;GM[1])"),
        // Neither.
        Entry::File("README", b"games from somewhere\n"),
        Entry::File("data.bin", &[0u8; 300]),
        Entry::Symlink("dir/link.sgf", "a.sgf"),
    ]);
    dir.write("x.tar.gz", gzip(&archive));
    let seen = games(&dir, &Inputs::new([at(&dir, "x.tar.gz")]));
    assert_eq!(
        seen.lines,
        [
            "x.tar.gz!dir/a.sgf@0#0:3",
            "x.tar.gz!dir/a.sgf@26#1:2",
            "x.tar.gz!dir/B.SGF@0#0:3",
            "x.tar.gz!dir/c.txt@4#0:1",
        ]
    );
    assert_eq!(seen.skipped.count(SkipReason::NotSgf), 2);
    assert_eq!(seen.skipped.count(SkipReason::NotRegular), 1);
    assert_eq!(seen.skipped.count(SkipReason::Unreadable), 0);
    let listed = &seen.skipped.listed()[0];
    assert_eq!(dir.rel(&listed.origin.to_string()), "x.tar.gz!dir/link.sgf");
    assert_eq!(listed.kind.description(), "symlink in archive");
}

#[test]
fn each_compression_of_a_file_and_of_a_tar() {
    let dir = TempDir::new("compressions");
    let tarball = tar(&[Entry::File("in/g.sgf", TWO.as_bytes())]);
    let mut expected = Vec::new();
    for (ext, compress) in [
        ("gz", gzip as fn(&[u8]) -> Vec<u8>),
        ("bz2", bzip2),
        ("xz", xz),
        ("zst", zstd),
    ] {
        dir.write(&format!("f.sgf.{ext}"), compress(TWO.as_bytes()));
        dir.write(&format!("t.tar.{ext}"), compress(&tarball));
        expected.push(format!("f.sgf.{ext}@0#0:3"));
        expected.push(format!("f.sgf.{ext}@26#1:2"));
        expected.push(format!("t.tar.{ext}!in/g.sgf@0#0:3"));
        expected.push(format!("t.tar.{ext}!in/g.sgf@26#1:2"));
    }
    dir.write("t.tar", &tarball);
    expected.push("t.tar!in/g.sgf@0#0:3".to_owned());
    expected.push("t.tar!in/g.sgf@26#1:2".to_owned());
    expected.sort();
    let seen = games(&dir, &Inputs::new([&dir.0]));
    assert_eq!(seen.lines, expected);
    assert!(seen.skipped.is_empty());

    // Members say what was removed to read them.
    let mut compressions = Vec::new();
    Inputs::new([at(&dir, "t.tar.xz"), at(&dir, "f.sgf.zst")])
        .scan(|member| {
            let member = member.unwrap();
            compressions.push((
                dir.rel(&member.origin().to_string()),
                member.compression().to_vec(),
                member.plain_path().is_some(),
            ));
            Ok::<(), ()>(())
        })
        .unwrap();
    assert_eq!(
        compressions,
        [
            ("f.sgf.zst".to_owned(), vec![Content::Zstd], false),
            ("t.tar.xz!in/g.sgf".to_owned(), vec![Content::Xz], false),
        ]
    );
}

#[test]
fn zip_members_nested_archives_both_ways() {
    let dir = TempDir::new("zip");
    let inner_tar = gzip(&tar(&[Entry::File("deep/y.sgf", ONE.as_bytes())]));
    let inner_zip = zip(
        &[Entry::File("z.sgf", ONE.as_bytes())],
        zip::CompressionMethod::Deflated,
    );
    let outer = zip(
        &[
            Entry::Dir("games/"),
            Entry::File("games/a.sgf", TWO.as_bytes()),
            Entry::File("inner.tar.gz", &inner_tar),
            Entry::File("other.zip", &inner_zip),
            Entry::File("notes.txt", b"nothing"),
            Entry::Symlink("games/l.sgf", "a.sgf"),
        ],
        zip::CompressionMethod::Deflated,
    );
    dir.write("outer.zip", &outer);
    // A zip inside a compressed tar: copied to a temporary file to be read.
    let tar_of_zip = gzip(&tar(&[Entry::File("x.zip", &inner_zip)]));
    dir.write("a.tar.gz", &tar_of_zip);
    let seen = games(
        &dir,
        &Inputs::new([at(&dir, "outer.zip"), at(&dir, "a.tar.gz")]),
    );
    assert_eq!(
        seen.lines,
        [
            "a.tar.gz!x.zip!z.sgf@0#0:3",
            "outer.zip!games/a.sgf@0#0:3",
            "outer.zip!games/a.sgf@26#1:2",
            "outer.zip!inner.tar.gz!deep/y.sgf@0#0:3",
            "outer.zip!other.zip!z.sgf@0#0:3",
        ]
    );
    assert_eq!(seen.skipped.count(SkipReason::NotSgf), 1);
    assert_eq!(seen.skipped.count(SkipReason::NotRegular), 1);

    // Stored (not deflated) members read the same.
    let stored = zip(
        &[Entry::File("s.sgf", TWO.as_bytes())],
        zip::CompressionMethod::Stored,
    );
    dir.write("stored.zip", &stored);
    let seen = games(&dir, &Inputs::new([at(&dir, "stored.zip")]));
    assert_eq!(
        seen.lines,
        ["stored.zip!s.sgf@0#0:3", "stored.zip!s.sgf@26#1:2"]
    );
}

#[test]
fn sevenz_solid_block_members_in_order() {
    let dir = TempDir::new("7z");
    let archive = sevenz(&[
        ("a.sgf", TWO.as_bytes()),
        ("skip.bin", &[1u8; 5000]),
        ("sub/b.sgf", ONE.as_bytes()),
        ("sub/c.sgf.gz", &gzip(ONE.as_bytes())),
    ]);
    dir.write("g.7z", &archive);
    let seen = games(&dir, &Inputs::new([at(&dir, "g.7z")]));
    assert_eq!(
        seen.lines,
        [
            "g.7z!a.sgf@0#0:3",
            "g.7z!a.sgf@26#1:2",
            "g.7z!sub/b.sgf@0#0:3",
            "g.7z!sub/c.sgf.gz@0#0:3",
        ]
    );
    assert_eq!(seen.skipped.count(SkipReason::NotSgf), 1);

    // A visitor that reads only the start of each member: the next member
    // of the solid block still starts where it should.
    let mut starts = Vec::new();
    Inputs::new([at(&dir, "g.7z")])
        .scan(|member| {
            let mut member = member.unwrap();
            let mut start = [0u8; 3];
            member.reader().read_exact(&mut start).unwrap();
            starts.push(String::from_utf8_lossy(&start).into_owned());
            Ok::<(), ()>(())
        })
        .unwrap();
    assert_eq!(starts, ["(;G", "(;G", "(;G"]);
}

#[test]
fn a_corrupt_gzip_stream_fails_after_the_games_read_before() {
    let dir = TempDir::new("corrupt-gz");
    // Many games, so that the break comes well after the first ones.
    let body: String = (0..2000)
        .map(|i| format!("(;GM[1]C[game {i}];B[aa])\n"))
        .collect();
    let mut gz = gzip(body.as_bytes());
    let middle = gz.len() / 2;
    for b in &mut gz[middle..middle + 16] {
        *b ^= 0x55;
    }
    dir.write("broken.sgf.gz", &gz);
    dir.write("fine.sgf", ONE);
    let seen = games(
        &dir,
        &Inputs::new([at(&dir, "broken.sgf.gz"), at(&dir, "fine.sgf")]),
    );
    let last = seen.lines.len() - 2;
    assert_eq!(seen.lines[last], "broken.sgf.gz: error[corrupt_input]");
    assert!(last > 10, "{last} games before the break");
    assert!(seen.lines[..last]
        .iter()
        .all(|l| l.starts_with("broken.sgf.gz@")));
    // The scan went on with the next input.
    assert_eq!(seen.lines[last + 1], "fine.sgf@0#0:3");

    // The error says what broke.
    let mut message = String::new();
    Inputs::new([at(&dir, "broken.sgf.gz")])
        .scan_games(ParseOptions::new(), |game| {
            if let Err(err) = game {
                assert_eq!(err.kind(), InputErrorKind::Corrupt(Content::Gzip));
                message = err.to_string();
            }
            Ok::<(), ()>(())
        })
        .unwrap();
    assert!(message.starts_with("corrupt gzip data: "), "{message}");
}

#[test]
fn a_truncated_tar_gz_keeps_its_first_members() {
    let dir = TempDir::new("cut-tar");
    let big: Vec<u8> = (0..50_000u32)
        .flat_map(|i| (i.wrapping_mul(2_654_435_761)).to_le_bytes())
        .collect();
    let archive = tar(&[
        Entry::File("a.sgf", TWO.as_bytes()),
        Entry::File("noise.bin", &big),
        Entry::File("z.sgf", ONE.as_bytes()),
    ]);
    let gz = gzip(&archive);
    dir.write("cut.tar.gz", &gz[..gz.len() * 2 / 3]);
    dir.write("next.sgf", ONE);
    let seen = games(
        &dir,
        &Inputs::new([at(&dir, "cut.tar.gz"), at(&dir, "next.sgf")]),
    );
    assert_eq!(
        seen.lines,
        [
            "cut.tar.gz!a.sgf@0#0:3",
            "cut.tar.gz!a.sgf@26#1:2",
            "cut.tar.gz: error[corrupt_input]",
            "next.sgf@0#0:3",
        ]
    );
}

#[test]
fn a_corrupt_zip_member_costs_only_itself() {
    let dir = TempDir::new("corrupt-zip");
    let mut archive = zip(
        &[
            Entry::File("a.sgf", TWO.as_bytes()),
            Entry::File("b.sgf", ONE.as_bytes()),
        ],
        zip::CompressionMethod::Stored,
    );
    // Change a byte of a.sgf's data: its checksum no longer matches.
    let at_data = archive
        .windows(TWO.len())
        .position(|w| w == TWO.as_bytes())
        .unwrap();
    archive[at_data + 10] = b'X';
    dir.write("c.zip", &archive);
    // Not a zip at all past its first bytes.
    dir.write("junk.zip", b"PK\x03\x04 and then nothing of a zip");
    let seen = games(&dir, &Inputs::new([&dir.0]));
    // The checksum is checked at the member's end: its games, as read,
    // come out before the error that says they are damaged.
    assert_eq!(
        seen.lines,
        [
            "c.zip!a.sgf@0#0:3",
            "c.zip!a.sgf@26#1:2",
            "c.zip!a.sgf: error[corrupt_input]",
            "c.zip!b.sgf@0#0:3",
            "junk.zip: error[corrupt_input]",
        ]
    );
}

#[test]
fn gzip_named_sgf_is_found_by_its_magic_bytes() {
    let dir = TempDir::new("magic");
    dir.write("looks-plain.sgf", gzip(TWO.as_bytes()));
    dir.write("a-tar.sgf", tar(&[Entry::File("in.sgf", ONE.as_bytes())]));
    let seen = games(&dir, &Inputs::new([&dir.0]));
    assert_eq!(
        seen.lines,
        [
            "a-tar.sgf!in.sgf@0#0:3",
            "looks-plain.sgf@0#0:3",
            "looks-plain.sgf@26#1:2",
        ]
    );
}

#[test]
fn sgfs_bad_line_costs_only_that_line() {
    let dir = TempDir::new("sgfs");
    let sgfs = "(;GM[1];B[aa])\n\
                (;GM[1];B[bb];W[cc]C[cut here\n\
                \n\
                this line holds no game\n\
                (;GM[1];B[dd])\r\n";
    dir.write("self.sgfs", sgfs);
    dir.write(
        "arch.tar",
        tar(&[Entry::File("p/SELF.SGFS", sgfs.as_bytes())]),
    );
    let seen = games(
        &dir,
        &Inputs::new([at(&dir, "self.sgfs"), at(&dir, "arch.tar")]),
    );
    // Line 2 is cut inside a comment (warnings, but a game), line 4 is
    // junk (an error of that line alone), line 5 is read whole.
    let expected = |name: &str| {
        [
            format!("{name}@0#0:2"),
            format!("{name}@15#1:3"),
            format!("{name}: error[parse]"),
            format!("{name}@70#2:2"),
        ]
    };
    let mut all = expected("arch.tar!p/SELF.SGFS").to_vec();
    all.extend(expected("self.sgfs"));
    assert_eq!(seen.lines, all);

    // In strict mode each bad line fails alone, with its line number.
    let mut lines = Vec::new();
    Inputs::new([at(&dir, "self.sgfs")])
        .scan_games(ParseOptions::new().strict(true), |game| {
            match game {
                Ok(game) => lines.push(format!("ok {}", game.offset().unwrap())),
                Err(err) => lines.push(format!("line {}", err.parse_error().unwrap().line())),
            }
            Ok::<(), ()>(())
        })
        .unwrap();
    assert_eq!(lines, ["ok 0", "line 2", "line 4", "ok 70"]);
}

#[test]
fn member_kinds_by_name() {
    let dir = TempDir::new("kinds");
    dir.write("a.SGFS.bz2", bzip2(b"(;B[aa])\n"));
    dir.write("b.Sgf", ONE);
    let mut kinds = Vec::new();
    Inputs::new([&dir.0])
        .scan(|member| {
            let member = member.unwrap();
            kinds.push((dir.rel(&member.origin().to_string()), member.kind()));
            Ok::<(), ()>(())
        })
        .unwrap();
    assert_eq!(
        kinds,
        [
            ("a.SGFS.bz2".to_owned(), MemberKind::Sgfs),
            ("b.Sgf".to_owned(), MemberKind::Sgf),
        ]
    );
}

#[test]
fn folders_skip_what_is_not_sgf_and_fail_when_nothing_is() {
    let dir = TempDir::new("folders");
    dir.write("games/a.sgf", ONE);
    dir.write("games/notes.md", "# not a game");
    dir.write("games/bin.dat", [0u8; 64]);
    dir.write("games/by-content", "  (;GM[1])");
    dir.write("empty/readme.txt", "nothing here");
    std::fs::create_dir_all(at(&dir, "none")).unwrap();
    // Named explicitly, a file is read whatever its name and content.
    dir.write("named.txt", "not sgf");
    let seen = games(
        &dir,
        &Inputs::new([
            at(&dir, "none"),
            at(&dir, "games"),
            at(&dir, "empty"),
            at(&dir, "named.txt"),
            at(&dir, "games/a.sgf"),
        ]),
    );
    assert_eq!(
        seen.lines,
        [
            "games/a.sgf@0#0:3",
            "games/by-content@2#0:1",
            "named.txt: error[parse]",
            "empty: error[no_sgf_files]",
            "none: error[no_sgf_files]",
        ]
    );
    assert_eq!(seen.skipped.count(SkipReason::NotSgf), 3);

    // Without content detection only names count.
    let seen = games(&dir, &Inputs::new([at(&dir, "games")]).by_content(false));
    assert_eq!(seen.lines, ["games/a.sgf@0#0:3"]);

    // The folder's error says what was skipped.
    let mut message = String::new();
    Inputs::new([at(&dir, "empty")])
        .scan(|member| {
            message = member.unwrap_err().to_string();
            Ok::<(), ()>(())
        })
        .unwrap();
    assert_eq!(message, "no SGF files in this folder (1 skipped)");
}

#[test]
fn nesting_deeper_than_the_limit_is_an_error() {
    let dir = TempDir::new("deep");
    let mut data = ONE.as_bytes().to_vec();
    for _ in 0..4 {
        data = gzip(&data);
    }
    dir.write("deep.sgf.gz", &data);
    let seen = games(&dir, &Inputs::new([at(&dir, "deep.sgf.gz")]).max_depth(3));
    assert_eq!(seen.lines, ["deep.sgf.gz: error[nesting_too_deep]"]);
    let seen = games(&dir, &Inputs::new([at(&dir, "deep.sgf.gz")]).max_depth(4));
    assert_eq!(seen.lines, ["deep.sgf.gz@0#0:3"]);
}

#[test]
fn a_zip_inside_a_stream_over_the_spool_limit_is_refused() {
    let dir = TempDir::new("spool");
    let inner = zip(
        &[Entry::File("a.sgf", ONE.as_bytes())],
        zip::CompressionMethod::Deflated,
    );
    dir.write("z.zip.gz", gzip(&inner));
    let seen = games(&dir, &Inputs::new([at(&dir, "z.zip.gz")]).max_spool(10));
    assert_eq!(seen.lines, ["z.zip.gz: error[spool_too_large]"]);
    let seen = games(&dir, &Inputs::new([at(&dir, "z.zip.gz")]));
    assert_eq!(seen.lines, ["z.zip.gz!a.sgf@0#0:3"]);
}

#[test]
fn binary_and_utf16_members() {
    let dir = TempDir::new("content");
    dir.write("zeros.sgf", [0u8; 100]);
    let utf16: Vec<u8> = "\u{feff}(;GM[1]C[中])"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    dir.write("wide.txt", &utf16);
    let seen = games(&dir, &Inputs::new([&dir.0]));
    assert_eq!(
        seen.lines,
        ["wide.txt@0#0:1", "zeros.sgf: error[not_sgf_text]"]
    );
}

/// Corpus files in a tar.gz read the same games as the files themselves.
#[test]
fn corpus_files_in_a_tar_gz_read_as_the_files() {
    let Some(corpus) = crate::common::corpus_dir() else {
        return;
    };
    let files: Vec<PathBuf> = crate::common::sgf_files(&corpus.join("gnugo-regression"))
        .into_iter()
        .take(200)
        .collect();
    let dir = TempDir::new("corpus");
    let mut builder = tar::Builder::new(Vec::new());
    for file in &files {
        let rel = file.strip_prefix(&corpus).unwrap();
        builder.append_path_with_name(file, rel).unwrap();
    }
    dir.write("corpus.tar.gz", gzip(&builder.into_inner().unwrap()));

    let count = |inputs: Inputs| {
        let mut games = 0;
        let mut nodes = 0;
        inputs
            .scan_games(ParseOptions::new(), |game| {
                if let Ok(game) = game
                    && let Some(tree) = game.tree()
                {
                    games += 1;
                    nodes += tree.nodes().count();
                }
                Ok::<(), ()>(())
            })
            .unwrap();
        (games, nodes)
    };
    let from_tar = count(Inputs::new([at(&dir, "corpus.tar.gz")]));
    let from_files = count(Inputs::new(files.iter().cloned()));
    assert_eq!(from_tar, from_files);
    assert!(from_tar.0 >= 200, "{from_tar:?}");
}
