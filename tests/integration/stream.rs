//! The game-at-a-time reader over `impl Read` gives exactly what parsing
//! the whole input at once gives: the same games, the same warnings at the
//! same stream positions, however the bytes arrive.

use crate::corpus_pass::{Check, Corpus, File};
use sgf_grove::{ParseOptions, Parser, StreamParser, Warning};
use std::io::Read;

/// A reader that hands out at most `step` bytes per call, varying.
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
    calls: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.calls += 1;
        let n = (1 + (self.calls * 7919) % self.step)
            .min(buf.len())
            .min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

type Summary = (Vec<(usize, usize, usize)>, Vec<Warning>);

/// Each game as (stream offset of its span, node count, property count),
/// and every warning.
fn whole(input: &[u8]) -> Result<Summary, sgf_grove::ErrorKind> {
    let mut parser = Parser::with_options(ParseOptions::new().max_warnings(usize::MAX));
    let coll = parser.parse(input).map_err(|e| e.kind())?;
    let games = coll
        .games()
        .map(|g| {
            let props = g.nodes().map(|n| n.properties().count()).sum();
            (g.span().start, g.nodes().count(), props)
        })
        .collect();
    Ok((games, coll.warnings().to_vec()))
}

fn streamed(input: &[u8], step: usize) -> Result<Summary, sgf_grove::ErrorKind> {
    let trickle = Trickle {
        data: input,
        step,
        calls: 0,
    };
    let options = ParseOptions::new().max_warnings(usize::MAX);
    let mut stream = StreamParser::with_options(trickle, options);
    let (mut games, mut warnings) = (Vec::new(), Vec::new());
    while let Some(coll) = stream.next_game() {
        let coll = coll.map_err(|e| e.kind())?;
        warnings.extend_from_slice(coll.warnings());
        for g in coll.games() {
            let props = g.nodes().map(|n| n.properties().count()).sum();
            games.push((coll.stream_offset(g.span().start), g.nodes().count(), props));
        }
    }
    warnings.sort_by_key(|w| w.pos.offset);
    Ok((games, warnings))
}

/// Asserts that `input` read as a stream, however its bytes arrive, gives
/// the games and warnings of parsing it whole.
pub(crate) fn check(input: &[u8]) {
    let want = whole(input).map(|(g, mut w)| {
        w.sort_by_key(|w| w.pos.offset);
        (g, w)
    });
    for step in [1, 7, 64, 4096, 1 << 20] {
        assert_eq!(
            streamed(input, step),
            want,
            "step {step}: {}",
            String::from_utf8_lossy(input)
        );
    }
}

#[test]
fn streamed_equals_whole_on_hand_made_cases() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        .collect();
    files.sort();
    assert!(files.len() > 50);
    let mut all = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        check(&bytes);
        all.extend_from_slice(&bytes);
    }
    // Every case joined, as a stream of many games and much junk.
    check(&all);
}

#[test]
fn streamed_positions_count_lines_across_games() {
    let input = b"(;GM[1]\r\n;B[aa])\r\n\r\n(;GM[1]\n;B[bb]XX)\n";
    let (_, warnings) = streamed(input, 3).unwrap();
    let w = &warnings[0];
    assert_eq!((w.pos.offset, w.pos.line, w.pos.column), (34, 5, 7));
}

#[test]
fn a_large_stream_is_read_in_bounded_memory() {
    // 40,000 games, about 8 MB; the parser holds one game and a read's worth.
    let game = b"(;GM[1]FF[4]SZ[19]PB[Black]PW[White];B[pd];W[dp];B[pp];W[dd];B[fq];W[cn]C[a comment to make the game longer])\n";
    let input: Vec<u8> = game
        .iter()
        .copied()
        .cycle()
        .take(game.len() * 40_000)
        .collect();
    let mut stream = StreamParser::new(&input[..]);
    let (mut games, mut peak) = (0, 0);
    while let Some(coll) = stream.next_game() {
        games += coll.unwrap().len();
        peak = peak.max(stream.heap_bytes());
    }
    assert_eq!(games, 40_000);
    assert!(
        peak < 4 << 20,
        "peak {peak} bytes for a {} byte stream",
        input.len()
    );
}

#[test]
fn an_empty_stream_has_no_game() {
    let mut stream = StreamParser::new(&b"just text"[..]);
    let err = stream.next_game().unwrap().unwrap_err();
    assert_eq!(err.kind(), sgf_grove::ErrorKind::NoGameTree);
    assert!(stream.next_game().is_none());
}

/// The corpus's files joined: streamed, the games and warnings of a whole
/// parse. A check of the one pass over the corpus (`corpus_pass.rs`),
/// all of it at the end.
pub struct StreamedEqualsWhole;

impl Check for StreamedEqualsWhole {
    fn name(&self) -> &'static str {
        "real_corpus_streamed_equals_whole"
    }

    fn file(&self, _: &File<'_>) {}

    fn finish(&self, corpus: &Corpus) {
        streamed_equals_whole(&corpus.joined(b""));
    }
}

fn streamed_equals_whole(joined: &[u8]) {
    let want = whole(joined).map(|(g, mut w)| {
        w.sort_by_key(|w| w.pos.offset);
        (g, w)
    });
    let got = streamed(joined, 1 << 16);
    assert_eq!(
        got.as_ref().map(|(g, _)| g.len()),
        want.as_ref().map(|(g, _)| g.len())
    );
    let (got, want) = (got.unwrap(), want.unwrap());
    if let Some(i) = (0..got.0.len()).find(|&i| got.0[i] != want.0[i]) {
        panic!("game {i}: streamed {:?}, whole {:?}", got.0[i], want.0[i]);
    }
    if let Some(i) = (0..got.1.len().min(want.1.len())).find(|&i| got.1[i] != want.1[i]) {
        panic!(
            "warning {i}: streamed {:?}, whole {:?}",
            got.1[i], want.1[i]
        );
    }
    if got.1.len() != want.1.len() {
        let n = got.1.len().min(want.1.len());
        panic!(
            "{} warnings streamed, {} whole; first extra: {:?} / {:?}",
            got.1.len(),
            want.1.len(),
            got.1.get(n),
            want.1.get(n)
        );
    }
}

/// Junk before the first game and between games, much longer than the
/// reader's window: dropped as it is read, with the warnings (and their
/// positions) of parsing it whole.
#[test]
fn long_junk_is_dropped_with_the_warnings_of_a_whole_parse() {
    let mut cases: Vec<Vec<u8>> = Vec::new();
    let spaces = " \n".repeat(100_000);
    let text = "some text ".repeat(20_000);
    for (before, between) in [
        (&spaces, &text),
        (&text, &spaces),
        (&format!("{spaces}{text}"), &format!("{text}{spaces}")),
    ] {
        cases.push(format!("{before}(;GM[1];B[aa]){between}(;GM[1];W[bb]){before}").into_bytes());
    }
    // NUL bytes among whitespace: their own warning, at the first.
    let mut nul = spaces.clone().into_bytes();
    nul[150_000] = 0;
    nul.extend_from_slice(b"(;GM[1])");
    cases.push(nul);
    for case in &cases {
        check(case);
    }
}

/// A source that gives `data`, then fails.
struct Breaks<'a>(&'a [u8]);

impl Read for Breaks<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.0.is_empty() {
            return Err(std::io::Error::other("cut here"));
        }
        let n = buf.len().min(self.0.len()).min(1000);
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

/// A source that breaks: what it gave is parsed as the stream's end (the
/// games of the last bytes too, the last one cut), then the error.
#[test]
fn a_broken_source_gives_every_game_before_the_break_then_the_error() {
    for data in [
        &b"(;GM[1];B[aa])\n(;GM[1];W[bb])\n(;GM[1];B[c"[..],
        b"(;GM[1];B[aa])\n  junk at the end",
        b"(;GM[1];B[aa])",
        b"only junk",
        b"",
    ] {
        let want = whole(data).map(|(games, _)| games.len()).unwrap_or(0);
        let mut stream = StreamParser::new(Breaks(data));
        let (mut games, mut errors) = (0, Vec::new());
        let mut calls = 0;
        while let Some(next) = stream.next_game() {
            calls += 1;
            assert!(calls < 10, "{data:?}: no end");
            match next {
                Ok(coll) => games += coll.games().count(),
                Err(err) => errors.push(format!("{err:#}")),
            }
        }
        assert_eq!(games, want, "{data:?}");
        assert_eq!(errors.len(), 1, "{data:?}: {errors:?}");
        assert!(errors[0].contains("cut here"), "{data:?}: {errors:?}");
    }
}
