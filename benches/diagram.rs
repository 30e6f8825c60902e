//! Criterion benchmarks of board diagrams (`sgf_grove::diagram`) on a
//! 19×19 game of 320 moves (legal moves picked by a fixed pseudo-random
//! sequence, captures included: the same game on every run, no corpus
//! needed):
//!
//! | bench id               | what                                                             |
//! |------------------------|------------------------------------------------------------------|
//! | `diagram/svg`          | `Diagram::at` the last move (replay, markup) and `to_svg`         |
//! | `diagram/svg_numbered` | the same with every move numbered (`numbers_from(Some(1))`, the "N at M" notes) |
//! | `diagram/png`          | `svg_numbered` rasterised to a 480-pixel PNG (`to_png`: resvg, PNG encoding) |
//!
//! Run: `cargo bench --bench diagram --features diagram` (under a minute).

mod common;

use criterion::Criterion;
use sgf_grove::diagram::{Diagram, DiagramOptions};
use std::hint::black_box;

fn main() {
    let sgf = common::legal_game(
        320,
        0x2545_f491_4f6c_dd1d,
        "GM[1]FF[4]SZ[19]",
        "TR[dd][pp]LB[jj:A]",
    );
    let doc = sgf_grove::parse(sgf.as_bytes()).expect("the game parses");
    let tree = doc.games().next().expect("a game");
    let end = tree.root().main_line().last().expect("a node");
    let numbered = DiagramOptions::new().numbers_from(Some(1));
    let d = Diagram::at(tree, end, &numbered).expect("a diagram");
    eprintln!(
        "diagram: 19x19, 320 moves, {} notes, SVG {} bytes, PNG {} bytes",
        d.notes().len(),
        d.to_svg().len(),
        d.to_png(480).expect("a PNG").len()
    );
    let mut c = Criterion::default().sample_size(20).configure_from_args();
    let mut group = c.benchmark_group("diagram");
    group.bench_function("svg", |b| {
        b.iter(|| {
            let d = Diagram::at(tree, end, &DiagramOptions::new()).expect("a diagram");
            black_box(d.to_svg())
        })
    });
    group.bench_function("svg_numbered", |b| {
        b.iter(|| {
            let d = Diagram::at(tree, end, &numbered).expect("a diagram");
            black_box(d.to_svg())
        })
    });
    group.bench_function("png", |b| {
        b.iter(|| {
            let d = Diagram::at(tree, end, &numbered).expect("a diagram");
            black_box(d.to_png(480).expect("a PNG"))
        })
    });
    group.finish();
    c.final_summary();
}
