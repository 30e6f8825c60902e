//! Criterion benchmark of training samples (`sgf_grove::samples`): 19×19
//! games of 250 legal moves (picked by a fixed pseudo-random sequence,
//! captures included; no corpus needed), parsed and encoded with
//! AlphaGo Zero's 17 planes (8 positions of history), on one core.
//!
//! | bench id              | what                                                       |
//! |-----------------------|------------------------------------------------------------|
//! | `samples/agz`         | parse + `GameRow` + `Encoder::encode`, default planes       |
//! | `samples/all_planes`  | the same with empty, liberties and ko planes                |
//! | `samples/liberties`   | the default planes and the three liberty planes only        |
//! | `samples/augment_all` | default planes in all 8 symmetries (8 samples a position)   |
//!
//! Throughput is in elements = samples: criterion prints samples/s.
//! Run: `cargo bench --bench samples --features samples` (under a minute).

mod common;

use criterion::{Criterion, Throughput};
use sgf_grove::samples::{Augment, Encoder, Extras, GameMeta, SampleOptions};
use sgf_grove::table::GameRow;
use std::hint::black_box;

fn main() {
    let games: Vec<String> = (1..=8u64)
        .map(|s| {
            common::legal_game(
                250,
                s * 0x9e37_79b9,
                "GM[1]FF[4]SZ[19]KM[6.5]RE[B+3.5]PB[a]BR[3d]PW[b]WR[2d]",
                "",
            )
        })
        .collect();
    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("samples");
    let cases = [
        ("agz", SampleOptions::new(), 1),
        ("all_planes", SampleOptions::new().extras(Extras::ALL), 1),
        (
            "liberties",
            SampleOptions::new().extras(Extras {
                liberties: true,
                ..Extras::default()
            }),
            1,
        ),
        ("augment_all", SampleOptions::new().augment(Augment::All), 8),
    ];
    for (name, options, per_move) in cases {
        let layout = options.layout();
        group.throughput(Throughput::Elements((games.len() * 250 * per_move) as u64));
        let mut out = Vec::with_capacity(250 * per_move * layout.record_len());
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut n = 0;
                for sgf in &games {
                    let doc = sgf_grove::parse(sgf.as_bytes()).expect("parses");
                    let tree = doc.games().next().expect("a game");
                    let row = GameRow::from_game_without_moves(tree, "bench.sgf", 0);
                    out.clear();
                    n += Encoder::new(&layout)
                        .encode(tree, &GameMeta::of(&row), &mut out)
                        .samples;
                    black_box(&out);
                }
                assert_eq!(n, games.len() * 250 * per_move);
            })
        });
    }
    group.finish();
    c.final_summary();
}
