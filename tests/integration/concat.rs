//! No game lost to a plain concatenation: files joined with `cat` (no
//! separator, no final newline) give exactly the games the files give one
//! by one, whatever state the first file was cut off in.

use crate::corpus_pass::{Check, Corpus, File};
use sgf_grove::{Parser, WarningKind};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;

/// The node count of each game of `input` (none when it fails to parse).
fn games(parser: &mut Parser, input: &[u8]) -> Vec<usize> {
    match parser.parse(input) {
        Ok(coll) => node_counts(coll),
        Err(_) => Vec::new(),
    }
}

/// The node count of each game of `coll`, checking that each game's run of
/// the arena is its depth-first walk.
fn node_counts(coll: sgf_grove::Collection<'_, '_>) -> Vec<usize> {
    coll.games()
        .map(|g| {
            assert!(g.nodes().eq(g.root().descendants()));
            g.nodes().count()
        })
        .collect()
}

/// Files cut off in every state a download or an exporter leaves them in,
/// and a few whole ones.
const BROKEN: &[&str] = &[
    "(;GM[1]FF[4]SZ[19];B[pd];W[dd])",
    "(;GM[1]FF[4]SZ[19];B[pd];W[dd];", // cut right after `;`
    "(;GM[1]FF[4]SZ[19];B[pd];W[dd]",  // cut after `]`
    "(;GM[1]FF[4]SZ[19];B[pd];W[d",    // cut inside a move
    "(;GM[1]FF[4]SZ[19];B[pd];W[",     // cut after `[`
    "(;GM[1]FF[4]SZ[19];B[pd];W",      // cut inside an identifier
    "(;GM[1]FF[4]SZ[19];B[pd]C[a comment, cut ", // cut in text after a space
    "(;GM[1]FF[4]SZ[19];B[pd]C[escaped \\", // cut after a backslash
    "(;GM[1]FF[4]SZ[19];B[pd](;W[dd])(;W[dp]", // cut inside a variation
    "(;GM[1]FF[4]SZ[19];B[pd](;W[dd]", // two trees left open
    "(;FF[4]CA[UTF-8]AP[x:1]SZ[9]PB[Black];B[ee];W[cc])",
    "(;SZ[9]AB[cc][gg];W[ee])",    // no GM/FF: a root by SZ
    "(;GM[1]SZ[19];B[pd])\n---\n", // junk after the game
    "(;GM[1]SZ[19];B[pd]))",       // one `)` too many
];

#[test]
fn hand_made_broken_files_joined_lose_no_game() {
    let mut parser = Parser::new();
    for a in BROKEN {
        for b in BROKEN {
            for sep in ["", "\n"] {
                let joined = format!("{a}{sep}{b}");
                let mut want = games(&mut parser, a.as_bytes());
                want.extend(games(&mut parser, b.as_bytes()));
                let got = games(&mut parser, joined.as_bytes());
                assert_eq!(got, want, "joined: {joined:?}");
            }
        }
    }
    // All of them in a row.
    let all: String = BROKEN.concat();
    let want: Vec<usize> = BROKEN
        .iter()
        .flat_map(|f| games(&mut parser, f.as_bytes()))
        .collect();
    assert_eq!(games(&mut parser, all.as_bytes()), want);
}

#[test]
fn the_cut_is_reported_where_the_open_game_was_cut() {
    let input = b"(;GM[1]SZ[19];B[pd];W[dd];(;GM[1]SZ[19];B[qd])";
    let doc = sgf_grove::parse(input).unwrap();
    assert_eq!(doc.games().count(), 2);
    let resync = doc
        .warnings()
        .iter()
        .find(|w| w.kind == WarningKind::GameResync)
        .expect("a resync warning");
    assert_eq!(resync.pos.offset, 26); // the `(` of the second game
}

#[test]
fn a_variation_that_starts_with_a_root_property_is_a_new_game() {
    // `SZ` can only stand in a root: no variation starts with it.
    let doc = sgf_grove::parse(b"(;GM[1];B[aa](;SZ[9];W[bb]))").unwrap();
    assert_eq!(doc.games().count(), 2);
    // Game information in a variation is allowed (FF[4] collections): it
    // stays a variation.
    let doc = sgf_grove::parse(b"(;GM[1];B[aa](;PB[x]PW[y];W[bb])(;W[cc]))").unwrap();
    assert_eq!(doc.games().count(), 1);
    // A comment that quotes SGF with a root property is cut there: a game
    // lost to a swallowing value would cost more.
    let doc = sgf_grove::parse(br"(;GM[1]C[write (;FF[4\]) first];B[aa])").unwrap();
    assert_eq!(doc.games().count(), 2);
    let root = doc.games().next().unwrap().root();
    assert_eq!(root.raw("C"), Some(&b"write "[..]));
    assert!(root.property("C").unwrap().is_cut());
    // One without a root property is text.
    let doc = sgf_grove::parse(br"(;GM[1]C[write (;B[aa\]) first];B[aa])").unwrap();
    assert_eq!(doc.games().count(), 1);
}

#[test]
fn a_value_cut_before_any_byte_is_no_value() {
    // `;W[` at the end: not a pass, no empty value; the property is dropped.
    let doc = sgf_grove::parse(b"(;GM[1];B[pd];W[").unwrap();
    let last = doc
        .games()
        .next()
        .unwrap()
        .root()
        .main_line()
        .last()
        .unwrap();
    assert!(!last.has("W"));
    assert!(doc
        .warnings()
        .iter()
        .any(|w| w.kind == WarningKind::UnclosedValue && w.pos.offset == 15));
    // A cut value that holds bytes stays, flagged as cut.
    let doc = sgf_grove::parse(b"(;GM[1];B[pd];W[d").unwrap();
    let w = doc
        .games()
        .next()
        .unwrap()
        .root()
        .main_line()
        .last()
        .unwrap();
    let w = w.property("W").unwrap();
    assert_eq!(w.raw(), b"d");
    assert!(w.is_cut() && w.first_value().is_cut());
    // A closed value is not cut.
    let doc = sgf_grove::parse(b"(;GM[1];B[pd])").unwrap();
    let b = doc.games().next().unwrap().root().first_child().unwrap();
    assert!(!b.property("B").unwrap().first_value().is_cut());
}

/// Every file of the corpus but its README joined with no separator: the
/// games of the files one by one. A check of the one pass over the corpus
/// (`corpus_pass.rs`): each `.sgf` file's games are taken from the pass,
/// the other files' (there are none in the shared corpus) and the join's
/// at the end.
#[derive(Default)]
pub struct Joined(Mutex<BTreeMap<usize, Vec<usize>>>);

impl Check for Joined {
    fn name(&self) -> &'static str {
        "real_corpus_joined_loses_no_game"
    }

    fn file(&self, file: &File<'_>) {
        let games = match file.parsed {
            Ok(coll) => node_counts(coll),
            Err(_) => Vec::new(),
        };
        self.0.lock().unwrap().insert(file.n, games);
    }

    fn finish(&self, corpus: &Corpus) {
        let by_file = self.0.lock().unwrap();
        // The `.sgf` files (with their games, when their check passed) and
        // the others, in the order of their paths.
        type Joining<'c> = (&'c Path, &'c [u8], Option<Option<&'c Vec<usize>>>);
        let mut files: Vec<Joining<'_>> = corpus
            .files
            .iter()
            .zip(&corpus.bytes)
            .enumerate()
            .map(|(n, (path, bytes))| (path.as_path(), &bytes[..], Some(by_file.get(&n))))
            .collect();
        files.extend(
            corpus
                .others
                .iter()
                .map(|(path, bytes)| (path.as_path(), &bytes[..], None)),
        );
        files.sort_by_key(|&(path, _, _)| path);
        let mut parser = Parser::new();
        let mut joined = Vec::new();
        let mut want = Vec::new();
        for &(path, bytes, games_of) in &files {
            match games_of {
                Some(Some(g)) => want.extend_from_slice(g),
                Some(None) => panic!("{}: its games were not counted", path.display()),
                None => want.extend(games(&mut parser, bytes)),
            }
            joined.extend_from_slice(bytes);
        }
        let got = games(&mut parser, &joined);
        assert_eq!(
            got.len(),
            want.len(),
            "games of {} files joined",
            files.len()
        );
        assert_eq!(got, want);
    }
}
