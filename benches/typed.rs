//! Criterion benchmarks of the typed-values layer, each bench id with
//! `Throughput::Bytes` = the bytes of its input, so criterion prints
//! throughput (in MiB/s, 2^20 bytes):
//!
//! | group              | what                                                                 |
//! |--------------------|----------------------------------------------------------------------|
//! | `typed/moves`      | `get::<Move>("B")`/`("W")` on every node of every game's main line   |
//! | `typed/text`       | `text()`/`simple_text()` of every property typed Text or SimpleText   |
//! | `typed/values`     | `Property::typed_values()` on every property of every node           |
//! | `typed/indexer`    | per game: players, ranks, result, komi, handicap, date, size, and every main-line move |
//! | `typed/zero_copy`  | `text("C")` on UTF-8 comments that come back borrowed: vs a forced copy, vs `get_raw` |
//!
//! sgf-grove keeps values raw until asked, so each group times it two ways:
//! `decode` on a collection parsed beforehand (the typed layer alone) and
//! `parse+decode` (what a caller pays from bytes to typed values). sgf-parse
//! types every value while it parses (`sgf_parse::go::parse`), so its
//! counterparts are `parse+walk` (from bytes, then walking the typed tree
//! for the same values) and `walk` (the walk alone, on trees parsed
//! beforehand; for text, the walk formats each value with `Display`, which
//! is where sgf-parse removes escapes and soft line breaks).
//!
//! Inputs: the shared corpus at `../shared/corpus` (loaded once, in sorted
//! path order, see `common`), joined with `\n` (`all`). sgf-parse takes
//! `&str`, rejects a whole collection for one bad game and non-Go games in
//! `go::parse`, and needs ~100× sgf-grove's time and memory, so the
//! comparisons run both crates on the same bytes, chosen outside the timed
//! loops: `sample_1in16`, every 16th file of the sorted corpus, converted
//! with `String::from_utf8_lossy`, minus the files `go::parse` rejects
//! (counted by reason on stderr at start-up), joined with `\n`.
//!
//! Run: `cargo bench --bench typed` (about 4 minutes on 2 cores).

mod common;

use common::{Excluded, Exclusions, File};
use criterion::Criterion;
use sgf_grove::value::{Move, ValueType};
use sgf_grove::{Collection, Parser};
use sgf_parse::go::{Move as GoMove, Prop};
use sgf_parse::SgfNode;
use std::borrow::Cow;
use std::hint::black_box;
use std::time::Duration;

/// Every `SAMPLE_STRIDE`th file goes into the sgf-parse comparison sample.
const SAMPLE_STRIDE: usize = 16;

struct Setup {
    /// Every file, raw, joined with `\n`.
    all: Vec<u8>,
    /// The lossy UTF-8 sample that `sgf_parse::go::parse` accepts.
    sample: String,
    sample_label: String,
    real: bool,
}

/// Runs `sgf_parse::go::parse` once on `text`: the number of game trees, or
/// why not.
fn go_parse_check(text: &str) -> Result<usize, Excluded> {
    match std::panic::catch_unwind(|| sgf_parse::go::parse(text).map(|trees| trees.len())) {
        Ok(Ok(n)) => Ok(n),
        Ok(Err(e)) => Err(Excluded::Rejected(e.to_string())),
        Err(_) => Err(Excluded::Panicked),
    }
}

fn setup() -> Setup {
    let inputs = common::load_inputs();
    let real = inputs.real;
    let files: Vec<File> = inputs.files;
    let all = common::concat(files.iter().map(|f| &f.bytes[..]));

    let stride = if real { SAMPLE_STRIDE } else { 1 };
    let mut texts = Vec::new();
    let mut excluded = Exclusions::default();
    let mut converted = 0;
    let mut sampled = 0;
    // sgf-parse panics on a few inputs; keep its messages off the output.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for f in files.iter().step_by(stride) {
        sampled += 1;
        let text = String::from_utf8_lossy(&f.bytes);
        converted += matches!(text, Cow::Owned(_)) as usize;
        match go_parse_check(&text) {
            Ok(_) => texts.push(text.into_owned()),
            Err(why) => excluded.add(why, &f.name),
        }
    }
    std::panic::set_hook(hook);
    eprintln!("sample_1in{stride}: {sampled} files, {converted} converted lossily from non-UTF-8");
    excluded.print("  rejected by sgf_parse::go::parse", sampled);
    let sample = texts.join("\n");
    let grove_games = sgf_grove::parse(sample.as_bytes()).map_or(0, |d| d.collection().len());
    let sgf_parse_games = go_parse_check(&sample).unwrap_or(0);
    eprintln!(
        "sample_1in{stride}: {:.1} MB, game trees: sgf-grove {grove_games}, sgf-parse {sgf_parse_games}",
        common::mb(sample.len())
    );
    Setup {
        all,
        sample,
        sample_label: format!("sample_1in{stride}"),
        real,
    }
}

// ---------------------------------------------------------------------------
// The walks, for each crate.
// ---------------------------------------------------------------------------

/// Decodes every move of every game's main line; returns moves + passes.
fn grove_moves(coll: Collection<'_, '_>) -> usize {
    let mut n = 0;
    for game in coll.games() {
        for node in game.root().main_line() {
            for color in ["B", "W"] {
                match node.get::<Move>(color) {
                    Ok(Some(Move::Play(p))) => n += 1 + p.x as usize,
                    Ok(Some(Move::Pass)) => n += 1,
                    Ok(None) | Err(_) => {}
                }
            }
        }
    }
    n
}

/// Decodes every value of every property the catalogue types as Text or
/// SimpleText; returns the bytes of text.
fn grove_text(coll: Collection<'_, '_>) -> usize {
    let mut n = 0;
    for node in coll.nodes() {
        for prop in node.properties() {
            let text = match prop.info().map(|i| i.ty) {
                Some(ValueType::Text) => node.text(prop.ident()),
                Some(ValueType::SimpleText) => node.simple_text(prop.ident()),
                _ => continue,
            };
            n += text.map_or(0, |t| t.len());
        }
    }
    n
}

/// `typed_values()` on every property of every node; returns the values.
fn grove_values(coll: Collection<'_, '_>) -> usize {
    let mut n = 0;
    for node in coll.nodes() {
        for prop in node.properties() {
            if let Ok(Some(values)) = prop.typed_values() {
                n += values.len();
            }
        }
    }
    n
}

/// What an indexer stores of each game: its information (players, ranks,
/// result, komi, handicap, first date, board size) through
/// `GameTree::info()` and every main-line move; returns a checksum.
fn grove_indexer(coll: Collection<'_, '_>) -> usize {
    let mut n = 0;
    for game in coll.games() {
        let info = game.game_info();
        for player in [info.black(), info.white()] {
            n += player.name.map_or(0, str::len);
            n += player.rank.map_or(0, |r| r.is_known() as usize + 1);
        }
        n += info
            .result()
            .map_or(0, |r| r.winner().map_or(1, |c| c as usize + 2));
        n += info.komi_points().map_or(0, |k| k as usize);
        n += info.handicap().and_then(|h| h.stones()).unwrap_or(0) as usize;
        n += info.dates().map_or(0, |d| d.first().year as usize);
        n += game.board_size().cols as usize;
        for played in game.moves() {
            match played {
                Ok((_, Move::Play(p))) => n += 1 + p.x as usize,
                Ok((_, Move::Pass)) => n += 1,
                Err(_) => {}
            }
        }
    }
    n
}

/// `grove_indexer`'s work on sgf-parse's trees: the root's properties read
/// once, the same game-information parsers run on its decoded text
/// (`Display` is where sgf-parse removes escapes), every main-line move.
fn sgf_parse_indexer(trees: &[SgfNode<Prop>]) -> usize {
    use sgf_grove::game::{GameDates, GameResult, Komi, Player};
    let mut n = 0;
    for root in trees {
        let (mut pb, mut pw, mut br, mut wr) = (None, None, None, None);
        for prop in root.properties() {
            match prop {
                Prop::PB(t) => pb = Some(t.to_string()),
                Prop::PW(t) => pw = Some(t.to_string()),
                Prop::BR(t) => br = Some(t.to_string()),
                Prop::WR(t) => wr = Some(t.to_string()),
                Prop::RE(t) => {
                    let r = GameResult::parse(&t.to_string());
                    n += r.winner().map_or(1, |c| c as usize + 2);
                }
                Prop::KM(k) => {
                    let text = k.to_string();
                    n += Komi::parse(&text).map_or(0, |k| k.normalised() as usize);
                }
                Prop::HA(h) => n += *h as usize,
                Prop::DT(t) => {
                    n += GameDates::parse(&t.to_string()).map_or(0, |d| d.first().year as usize)
                }
                Prop::SZ((cols, _)) => n += *cols as usize,
                _ => {}
            }
        }
        for (name, rank) in [(pb, br), (pw, wr)] {
            let player = Player::new(name.as_deref(), rank.as_deref(), None);
            n += player.name.map_or(0, str::len);
            n += player.rank.map_or(0, |r| r.is_known() as usize + 1);
        }
        for node in root.main_variation() {
            for prop in node.properties() {
                match prop {
                    Prop::B(GoMove::Move(p)) | Prop::W(GoMove::Move(p)) => n += 1 + p.x as usize,
                    Prop::B(GoMove::Pass) | Prop::W(GoMove::Pass) => n += 1,
                    _ => {}
                }
            }
        }
    }
    n
}

/// Every node of the trees, depth-first, without recursion.
fn sgf_parse_nodes(trees: &[SgfNode<Prop>]) -> impl Iterator<Item = &SgfNode<Prop>> {
    let mut stack: Vec<&SgfNode<Prop>> = trees.iter().rev().collect();
    std::iter::from_fn(move || {
        let node = stack.pop()?;
        let at = stack.len();
        stack.extend(node.children());
        stack[at..].reverse();
        Some(node)
    })
}

fn sgf_parse_moves(trees: &[SgfNode<Prop>]) -> usize {
    let mut n = 0;
    for root in trees {
        for node in root.main_variation() {
            for prop in node.properties() {
                match prop {
                    Prop::B(GoMove::Move(p)) | Prop::W(GoMove::Move(p)) => n += 1 + p.x as usize,
                    Prop::B(GoMove::Pass) | Prop::W(GoMove::Pass) => n += 1,
                    _ => {}
                }
            }
        }
    }
    n
}

/// The same properties as `grove_text`, each formatted (decoded).
fn sgf_parse_text(trees: &[SgfNode<Prop>]) -> usize {
    let mut n = 0;
    for node in sgf_parse_nodes(trees) {
        for prop in node.properties() {
            n += match prop {
                Prop::C(t) | Prop::GC(t) => t.to_string().len(),
                Prop::N(t)
                | Prop::CA(t)
                | Prop::AN(t)
                | Prop::BR(t)
                | Prop::BT(t)
                | Prop::CP(t)
                | Prop::DT(t)
                | Prop::EV(t)
                | Prop::GN(t)
                | Prop::ON(t)
                | Prop::OT(t)
                | Prop::PB(t)
                | Prop::PC(t)
                | Prop::PW(t)
                | Prop::RE(t)
                | Prop::RO(t)
                | Prop::RU(t)
                | Prop::SO(t)
                | Prop::US(t)
                | Prop::WR(t)
                | Prop::WT(t) => t.to_string().len(),
                _ => 0,
            };
        }
    }
    n
}

fn sgf_parse_trees(text: &str) -> Vec<SgfNode<Prop>> {
    sgf_parse::go::parse(text).unwrap_or_default()
}

// ---------------------------------------------------------------------------
// Groups.
// ---------------------------------------------------------------------------

/// A walk over sgf-grove's lazy tree.
type GroveWalk = fn(Collection<'_, '_>) -> usize;
/// A walk over sgf-parse's typed trees.
type SgfParseWalk = fn(&[SgfNode<Prop>]) -> usize;

/// One group: sgf-grove `decode` and `parse+decode` on `all` and the
/// sample, sgf-parse `parse+walk` and `walk` on the sample (or, without a
/// walk, its typed parse alone).
fn compare(
    c: &mut Criterion,
    s: &Setup,
    name: &str,
    grove: GroveWalk,
    sgf_parse_walk: Option<SgfParseWalk>,
) {
    let mut group = c.benchmark_group(format!("typed/{name}"));
    common::big(&mut group, 1, 4);
    let mut parser = Parser::new();
    let mut reparser = Parser::new();
    for (label, input) in [
        ("all", &s.all[..]),
        (&s.sample_label[..], s.sample.as_bytes()),
    ] {
        let coll = parser.parse(input).expect("game trees");
        eprintln!("typed/{name} {label}: sgf-grove counts {}", grove(coll));
        group.throughput(common::bytes(input.len()));
        group.bench_function(format!("sgf-grove_decode/{label}"), |b| {
            b.iter(|| grove(black_box(coll)))
        });
        group.bench_function(format!("sgf-grove_parse+decode/{label}"), |b| {
            b.iter(|| reparser.parse(black_box(input)).map_or(0, grove))
        });
    }
    group.throughput(common::bytes(s.sample.len()));
    // ~0.5 s per iteration on the real sample.
    group.measurement_time(Duration::from_secs(6));
    match sgf_parse_walk {
        Some(walk) => {
            let trees = sgf_parse_trees(&s.sample);
            eprintln!(
                "typed/{name} {}: sgf-parse counts {}",
                s.sample_label,
                walk(&trees)
            );
            group.bench_function(format!("sgf-parse_parse+walk/{}", s.sample_label), |b| {
                b.iter(|| walk(&sgf_parse_trees(black_box(&s.sample))))
            });
            group.measurement_time(Duration::from_secs(3));
            group.bench_function(format!("sgf-parse_walk/{}", s.sample_label), |b| {
                b.iter(|| walk(black_box(&trees)))
            });
        }
        // Its parse types every value: that is the whole comparison.
        None => {
            group.bench_function(format!("sgf-parse_parse/{}", s.sample_label), |b| {
                b.iter(|| sgf_parse_trees(black_box(&s.sample)).len())
            });
        }
    }
    group.finish();
}

/// `text("C")` on the comments of games whose charset is UTF-8: how many
/// come back borrowed from the input (valid UTF-8, no escape, no CR), and,
/// on those, what borrowing saves against a forced copy
/// (`text_to_owned`), and what finding and checking them costs against
/// just finding the raw value (`get_raw`).
fn zero_copy(c: &mut Criterion, s: &Setup) {
    let doc = sgf_grove::parse(&s.all).expect("game trees");
    let coll = doc.collection();
    let utf8 = |node: &sgf_grove::Node<'_, '_>| node.game().charset().name() == "UTF-8";
    let mut borrowed_nodes = Vec::new();
    let (mut owned, mut plain_owned, mut bytes_all, mut bytes_borrowed) = (0, 0, 0, 0);
    for node in coll.nodes().filter(|n| n.has("C")).filter(utf8) {
        let raw = node.raw("C").unwrap_or_default();
        bytes_all += raw.len();
        match node.text("C") {
            // Borrowed: the raw value itself.
            Some(text) if text.as_ptr() == raw.as_ptr() => {
                borrowed_nodes.push(node);
                bytes_borrowed += raw.len();
            }
            Some(_) => {
                owned += 1;
                let plain = !raw.contains(&b'\\') && !raw.contains(&b'\r');
                plain_owned += (plain && std::str::from_utf8(raw).is_ok()) as usize;
            }
            None => {}
        }
    }
    let borrowed = borrowed_nodes.len();
    let total = (borrowed + owned).max(1);
    eprintln!(
        "typed/zero_copy: {} comments in UTF-8 games ({:.2} MB): {borrowed} borrowed ({:.1}%, \
         {:.2} MB), {owned} decoded into the arena ({:.1}%: escapes, CR line breaks or bad \
         UTF-8); decoded although valid UTF-8 without escape or CR: {plain_owned}",
        borrowed + owned,
        common::mb(bytes_all),
        100.0 * borrowed as f64 / total as f64,
        common::mb(bytes_borrowed),
        100.0 * owned as f64 / total as f64,
    );
    let mut group = c.benchmark_group("typed/zero_copy");
    common::big(&mut group, 1, 3);
    group.throughput(common::bytes(bytes_borrowed));
    let nodes = &borrowed_nodes;
    group.bench_function("get_raw/borrowed_comments", |b| {
        b.iter(|| {
            nodes
                .iter()
                .map(|n| black_box(n).raw("C").map_or(0, |t| t.len()))
                .sum::<usize>()
        })
    });
    group.bench_function("text/borrowed_comments", |b| {
        b.iter(|| {
            nodes
                .iter()
                .map(|n| black_box(n).text("C").map_or(0, |t| t.len()))
                .sum::<usize>()
        })
    });
    group.bench_function("text_to_owned/borrowed_comments", |b| {
        b.iter(|| {
            nodes
                .iter()
                .map(|n| {
                    black_box(n)
                        .text("C")
                        .map_or(0, |t| t.to_owned().capacity())
                })
                .sum::<usize>()
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
    compare(&mut c, &s, "moves", grove_moves, Some(sgf_parse_moves));
    compare(&mut c, &s, "text", grove_text, Some(sgf_parse_text));
    compare(&mut c, &s, "values", grove_values, None);
    compare(
        &mut c,
        &s,
        "indexer",
        grove_indexer,
        Some(sgf_parse_indexer),
    );
    zero_copy(&mut c, &s);
    c.final_summary();
}
