//! The writer's modes on the corpus as one collection (`all`, 72.8 MB),
//! and on the sample that sgf-parse accepts (`sample_1in8`, see
//! `benches/parse.rs`) beside sgf-parse's `serialize`, each id with
//! `Throughput::Bytes` = the input's bytes:
//!
//! | id                  | what                                                   |
//! |---------------------|--------------------------------------------------------|
//! | `raw/…`             | `write_collection` (values byte for byte)              |
//! | `canonical/…`       | `WriteOptions::canonical`                              |
//! | `canonical-compress/…` | canonical, point lists compressed                   |
//! | `utf8/…`            | raw, text transcoded to UTF-8                          |
//! | `canonical-utf8/…`  | canonical and transcoded to UTF-8                      |
//! | `sgf-parse/…`       | sgf-parse's `serialize` of its own parse of the sample |
//!
//! Run: `cargo bench --bench writer` (about 3 minutes on 2 cores).

mod common;

use common::COMPARE_STRIDE;
use criterion::Criterion;
use sgf_grove::writer::{PointStyle, Target, WriteOptions, Writer};
use sgf_grove::Parser;
use std::hint::black_box;

fn main() {
    let inputs = common::load_inputs();
    let stride = if inputs.real { COMPARE_STRIDE } else { 1 };
    let all = common::concat(inputs.files.iter().map(|f| &f.bytes[..]));
    let (texts, _, _) = common::sgf_parse_ok_lossy(inputs.files.iter().step_by(stride));
    let sample = texts.join("\n");
    let sample_label = format!("sample_1in{stride}");

    let modes = [
        ("raw", WriteOptions::new()),
        ("canonical", WriteOptions::new().canonical(true)),
        (
            "canonical-compress",
            WriteOptions::new()
                .canonical(true)
                .points(PointStyle::Compress),
        ),
        ("utf8", WriteOptions::new().transcode(Target::Utf8)),
        (
            "canonical-utf8",
            WriteOptions::new().canonical(true).transcode(Target::Utf8),
        ),
    ];

    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("writer");
    common::big(&mut group, 2, 8);
    let mut parser = Parser::new();
    for (label, input) in [("all", &all[..]), (&sample_label[..], sample.as_bytes())] {
        let coll = parser.parse(input).expect("game trees");
        group.throughput(common::bytes(input.len()));
        let mut out = Vec::with_capacity(input.len() + input.len() / 4);
        for (name, options) in &modes {
            group.bench_function(format!("{name}/{label}"), |b| {
                b.iter(|| {
                    out.clear();
                    let mut writer = Writer::with_options(&mut out, options.clone());
                    writer
                        .write_collection(black_box(coll))
                        .expect("UTF-8 holds every character");
                    out.len()
                })
            });
        }
    }
    let trees = sgf_parse::parse(&sample).unwrap_or_default();
    group.throughput(common::bytes(sample.len()));
    group.bench_function(format!("sgf-parse/{sample_label}"), |b| {
        b.iter(|| sgf_parse::serialize(black_box(&trees)).len())
    });
    group.finish();
    c.final_summary();
}
