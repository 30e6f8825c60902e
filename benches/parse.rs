//! Criterion benchmarks, one group per stage, each bench id with
//! `Throughput::Bytes` = its input bytes, so criterion prints throughput
//! (in MiB/s, 2^20 bytes):
//!
//! | group         | what                                                              |
//! |---------------|-------------------------------------------------------------------|
//! | `tree/concat` | the whole corpus as one collection: reused `Parser` vs fresh `sgf_grove::parse`; vs sgf-parse on a sample |
//! | `tree/files`  | file by file, reused `Parser` (and fresh `parse`) vs sgf-parse    |
//! | `lexer`       | the lexer alone (`Tokens`) and the bare structural `Scanner` loop, through `oracle::lexer` (with `--features oracle`) |
//! | `writer`      | `write_collection` vs sgf-parse's `serialize`                     |
//! | `walk`        | every value of every node through the lazy read API              |
//! | `events`      | the pull reader: every event of the corpus as one collection, and file by file with a fresh reader, with reused storage (`ReaderStorage`), and reading each root then `skip_game` |
//! | `stream`      | the game-at-a-time `StreamParser` over the corpus from memory     |
//!
//! Inputs: the shared corpus at `../shared/corpus` (49,264 files, 72.8 MB),
//! loaded once, in sorted path order; without it, a clear message and a
//! small built-in synthetic collection (see `common`).
//!
//! sgf-parse takes `&str`, and its default (strict) mode rejects a whole
//! collection for one bad game, so every comparison with it runs both
//! crates on exactly the same bytes, chosen outside the timed loops:
//!
//! - `…/sample_1in8` (`tree/concat`, `writer`): every 8th file of the sorted
//!   corpus, converted with `String::from_utf8_lossy` (Fox files are damaged
//!   UTF-8), minus the few files sgf-parse rejects, joined with `\n`.
//!   sgf-parse needs ~25 s and ~7 GB for the full 72 MB (see `cargo bench
//!   --bench memory`), too slow for criterion's minimum of 10 iterations.
//! - `…/sgf_parse_ok` (`tree/files`): the files that are valid UTF-8 and that
//!   sgf-parse accepts on their own; non-UTF-8 files are skipped, not
//!   converted.
//!
//! The excluded files are counted by reason on stderr at start-up. Parsed
//! trees are dropped inside the timed loop for both crates: freeing is part
//! of the cost of a fresh parse.
//!
//! Run: `cargo bench --bench parse` (about 5 minutes on 2 cores);
//! one group: `cargo bench --bench parse -- tree/files`. The lexer is an
//! internal of the crate, reached through the test surface of the `oracle`
//! feature: `cargo bench --bench parse --features oracle -- lexer`.

mod common;

use common::{File, COMPARE_STRIDE};
use criterion::Criterion;
#[cfg(feature = "oracle")]
use sgf_grove::oracle::lexer::{structural_count, token_count};
use sgf_grove::{write_collection, Parser};
use std::hint::black_box;
use std::time::Duration;

/// Everything prepared once, before any timing.
struct Setup {
    /// Every file, raw.
    files: Vec<File>,
    /// Every file, raw, joined with `\n`.
    all: Vec<u8>,
    /// The lossy UTF-8 sample that sgf-parse accepts, joined with `\n`.
    sample: String,
    sample_label: String,
    /// Indices into `files` of the valid UTF-8 files sgf-parse accepts.
    parse_ok: Vec<usize>,
    real: bool,
}

fn setup() -> Setup {
    let inputs = common::load_inputs();
    let real = inputs.real;
    let files = inputs.files;
    let all = common::concat(files.iter().map(|f| &f.bytes[..]));

    let stride = if real { COMPARE_STRIDE } else { 1 };
    let sampled = files.iter().step_by(stride);
    let sampled_count = files.len().div_ceil(stride);
    let (texts, excluded, converted) = common::sgf_parse_ok_lossy(sampled);
    eprintln!(
        "sample_1in{stride} (tree/concat, writer): {sampled_count} files, \
         {converted} converted lossily from non-UTF-8"
    );
    excluded.print("  rejected by sgf-parse after conversion", sampled_count);
    let sample = texts.join("\n");

    let (parse_ok, excluded) = common::sgf_parse_ok_utf8(&files);
    eprintln!("sgf_parse_ok (tree/files): {} files", parse_ok.len());
    excluded.print("  excluded", files.len());

    // The comparisons are only fair if both crates see the same games.
    let grove_games = sgf_grove::parse(sample.as_bytes()).map_or(0, |d| d.collection().len());
    let sgf_parse_games = common::sgf_parse_check(&sample).unwrap_or(0);
    eprintln!(
        "sample_1in{stride}: {:.1} MB, game trees: sgf-grove {grove_games}, sgf-parse {sgf_parse_games}",
        common::mb(sample.len())
    );

    Setup {
        files,
        all,
        sample,
        sample_label: format!("sample_1in{stride}"),
        parse_ok,
        real,
    }
}

fn tree_concat(c: &mut Criterion, s: &Setup) {
    let mut group = c.benchmark_group("tree/concat");
    common::big(&mut group, 2, 8);
    let mut parser = Parser::new();
    for (label, input) in [
        ("all", &s.all[..]),
        (&s.sample_label[..], s.sample.as_bytes()),
    ] {
        group.throughput(common::bytes(input.len()));
        group.bench_function(format!("sgf-grove_reused/{label}"), |b| {
            b.iter(|| {
                parser
                    .parse(black_box(input))
                    .map(|c| c.node_count())
                    .unwrap_or(0)
            })
        });
        group.bench_function(format!("sgf-grove_fresh/{label}"), |b| {
            b.iter(|| {
                sgf_grove::parse(black_box(input))
                    .map(|d| d.collection().len())
                    .unwrap_or(0)
            })
        });
    }
    // ~2 s per iteration on the real sample (10 iterations at least).
    group.measurement_time(Duration::from_secs(25));
    group.throughput(common::bytes(s.sample.len()));
    group.bench_function(format!("sgf-parse/{}", s.sample_label), |b| {
        b.iter(|| {
            sgf_parse::parse(black_box(&s.sample))
                .map(|t| t.len())
                .unwrap_or(0)
        })
    });
    group.finish();
}

fn tree_files(c: &mut Criterion, s: &Setup) {
    let mut group = c.benchmark_group("tree/files");
    common::big(&mut group, 2, 8);
    let all: Vec<&[u8]> = s.files.iter().map(|f| &f.bytes[..]).collect();
    let ok_bytes: Vec<&[u8]> = s.parse_ok.iter().map(|&i| &s.files[i].bytes[..]).collect();
    let ok_text: Vec<&str> = ok_bytes
        .iter()
        .map(|b| std::str::from_utf8(b).expect("filtered to UTF-8"))
        .collect();
    let total = |v: &[&[u8]]| v.iter().map(|b| b.len()).sum::<usize>();

    let mut parser = Parser::new();
    let mut grove_reused = |b: &mut criterion::Bencher<'_>, inputs: &[&[u8]]| {
        b.iter(|| {
            let mut nodes = 0;
            for input in inputs {
                nodes += parser.parse(black_box(input)).map_or(0, |c| c.node_count());
            }
            nodes
        })
    };
    group.throughput(common::bytes(total(&all)));
    group.bench_function("sgf-grove_reused/all", |b| grove_reused(b, &all));
    group.throughput(common::bytes(total(&ok_bytes)));
    group.bench_function("sgf-grove_reused/sgf_parse_ok", |b| {
        grove_reused(b, &ok_bytes)
    });
    group.bench_function("sgf-grove_fresh/sgf_parse_ok", |b| {
        b.iter(|| {
            let mut games = 0;
            for input in &ok_bytes {
                games += sgf_grove::parse(black_box(input)).map_or(0, |d| d.collection().len());
            }
            games
        })
    });
    group.measurement_time(Duration::from_secs(50));
    group.bench_function("sgf-parse/sgf_parse_ok", |b| {
        b.iter(|| {
            let mut games = 0;
            for text in &ok_text {
                games += sgf_parse::parse(black_box(text)).map_or(0, |t| t.len());
            }
            games
        })
    });
    group.finish();
}

#[cfg(feature = "oracle")]
fn lexer(c: &mut Criterion, s: &Setup) {
    let mut group = c.benchmark_group("lexer");
    common::big(&mut group, 2, 6);
    let input = &s.all[..];
    group.throughput(common::bytes(input.len()));
    group.bench_function("tokens/all", |b| b.iter(|| token_count(black_box(input))));
    group.bench_function("scanner/all", |b| {
        b.iter(|| structural_count(black_box(input)))
    });
    group.finish();
}

fn writer(c: &mut Criterion, s: &Setup) {
    let mut group = c.benchmark_group("writer");
    common::big(&mut group, 2, 12);
    let mut parser = Parser::new();
    for (label, input) in [
        ("all", &s.all[..]),
        (&s.sample_label[..], s.sample.as_bytes()),
    ] {
        let coll = parser.parse(input).expect("game trees");
        group.throughput(common::bytes(input.len()));
        group.bench_function(format!("sgf-grove/{label}"), |b| {
            b.iter(|| write_collection(black_box(coll)).len())
        });
    }
    let trees = sgf_parse::parse(&s.sample).unwrap_or_default();
    group.measurement_time(Duration::from_secs(10));
    group.throughput(common::bytes(s.sample.len()));
    group.bench_function(format!("sgf-parse/{}", s.sample_label), |b| {
        b.iter(|| sgf_parse::serialize(black_box(&trees)).len())
    });
    group.finish();
}

fn walk(c: &mut Criterion, s: &Setup) {
    let mut group = c.benchmark_group("walk");
    common::big(&mut group, 2, 15);
    let mut parser = Parser::new();
    let coll = parser.parse(&s.all).expect("game trees");
    group.throughput(common::bytes(s.all.len()));
    group.bench_function("values/all", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for node in black_box(coll).nodes() {
                for prop in node.properties() {
                    for value in prop.values() {
                        n += value.raw().len();
                    }
                }
            }
            n
        })
    });
    group.finish();
}

/// The event reader: every event of the corpus as one collection, and an
/// indexer's pass that reads each root and skips the rest of its game.
fn events(c: &mut Criterion, s: &Setup) {
    use sgf_grove::events::{Event, Reader};
    let mut group = c.benchmark_group("events");
    common::big(&mut group, 2, 15);
    group.throughput(common::bytes(s.all.len()));
    group.bench_function("all/all", |b| {
        b.iter(|| {
            let mut reader = Reader::new(black_box(&s.all));
            let mut props = 0usize;
            while let Some(event) = reader.next().expect("parses") {
                if let Event::Node(node) = event {
                    props += node.properties().len();
                }
            }
            props
        })
    });
    group.bench_function("roots_only/all", |b| {
        b.iter(|| {
            let mut reader = Reader::new(black_box(&s.all));
            let mut props = 0usize;
            while let Some(event) = reader.next().expect("parses") {
                if let Event::Node(node) = event {
                    props += node.properties().len();
                    reader.skip_game().expect("parses");
                }
            }
            props
        })
    });
    // File by file, beside `tree/files/sgf-grove_reused/all`: a reader
    // made afresh for each file, one that reuses its storage, and the
    // indexer's pass over the roots with reused storage.
    let files: Vec<&[u8]> = s.files.iter().map(|f| &f.bytes[..]).collect();
    let total = files.iter().map(|f| f.len()).sum::<usize>();
    group.throughput(common::bytes(total));
    let count = |reader: &mut Reader<'_>, roots_only: bool| {
        let mut props = 0usize;
        // A file with no game in it ends in an error: its events count.
        while let Ok(Some(event)) = reader.next() {
            if let Event::Node(node) = event {
                props += node.properties().len();
                if roots_only && reader.skip_game().is_err() {
                    break;
                }
            }
        }
        props
    };
    group.bench_function("files_fresh/all", |b| {
        b.iter(|| {
            let mut props = 0;
            for input in &files {
                props += count(&mut Reader::new(black_box(input)), false);
            }
            props
        })
    });
    let options = sgf_grove::ParseOptions::default();
    for (name, roots_only) in [
        ("files_reused/all", false),
        ("roots_only_files_reused/all", true),
    ] {
        group.bench_function(name, |b| {
            let mut storage = sgf_grove::events::ReaderStorage::new();
            b.iter(|| {
                let mut props = 0;
                for input in &files {
                    let mut reader = Reader::with_storage(
                        black_box(input),
                        &options,
                        std::mem::take(&mut storage),
                    );
                    props += count(&mut reader, roots_only);
                    storage = reader.into_storage();
                }
                props
            })
        });
    }
    group.finish();
}

/// The game-at-a-time reader over `impl Read`, from memory.
fn stream(c: &mut Criterion, s: &Setup) {
    let mut group = c.benchmark_group("stream");
    common::big(&mut group, 2, 15);
    group.throughput(common::bytes(s.all.len()));
    group.bench_function("games/all", |b| {
        b.iter(|| {
            let mut stream = sgf_grove::StreamParser::new(black_box(&s.all[..]));
            let mut nodes = 0usize;
            while let Some(coll) = stream.next_game() {
                nodes += coll.expect("parses").node_count();
            }
            nodes
        })
    });
    group.finish();
}

fn main() {
    let s = setup();
    let mut c = Criterion::default().configure_from_args();
    if !s.real {
        eprintln!("NOTE: synthetic input only (no corpus); see the message above.");
    }
    tree_concat(&mut c, &s);
    tree_files(&mut c, &s);
    #[cfg(feature = "oracle")]
    lexer(&mut c, &s);
    #[cfg(not(feature = "oracle"))]
    eprintln!("NOTE: the lexer group needs `--features oracle`.");
    writer(&mut c, &s);
    walk(&mut c, &s);
    events(&mut c, &s);
    stream(&mut c, &s);
    c.final_summary();
}
