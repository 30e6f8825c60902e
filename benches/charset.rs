//! Criterion benchmark of charset detection, which runs on every game
//! without `CA` whose bytes are not UTF-8. Each bench id has
//! `Throughput::Bytes` = the bytes of its input, so criterion prints
//! throughput (in MiB/s, 2^20 bytes):
//!
//! | bench id                    | input                                                          |
//! |-----------------------------|----------------------------------------------------------------|
//! | `charset/detect/gbk_fox`    | a Fox-style game (names, ranks, 250 moves) in GBK               |
//! | `charset/detect/fox_damaged`| the same game in UTF-8 with Fox's damage (`?` for bytes)        |
//! | `charset/detect/big5_comments` | a game with a comment in Big5 at every tenth of 250 moves   |
//! | `charset/detect/euc_kr_names`  | a Fox-style game with Korean names in EUC-KR               |
//! | `charset/parse/gbk_fox`     | `Parser::parse` of the GBK game (the trial, detection, reading) |
//!
//! Inputs are generated, not read from the corpus.
//!
//! Run: `cargo bench --bench charset` (about a minute).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use encoding_rs::{Encoding, BIG5, EUC_KR, GBK};
use sgf_grove::text::charset::detect;
use std::hint::black_box;

/// 250 alternating moves.
fn moves(comment: impl Fn(usize) -> Option<Vec<u8>>) -> Vec<u8> {
    let mut out = Vec::new();
    for i in 0..250usize {
        let color = if i.is_multiple_of(2) { "B" } else { "W" };
        let x = (b'a' + (i % 19) as u8) as char;
        let y = (b'a' + (i * 7 % 19) as u8) as char;
        out.extend_from_slice(format!(";{color}[{x}{y}]").as_bytes());
        if let Some(c) = comment(i) {
            out.extend_from_slice(b"C[");
            out.extend(c);
            out.push(b']');
        }
    }
    out
}

/// A Fox-style root with `pb`, `pw` and `rank` as `encode` gives them, then
/// the moves.
fn fox_game(encode: impl Fn(&str) -> Vec<u8>, pb: &str, pw: &str, rank: &str) -> Vec<u8> {
    let mut out = b"(;GM[1]FF[4]  SZ[19]  GN[]  DT[2015-12-15]  PB[".to_vec();
    out.extend(encode(pb));
    out.extend_from_slice(b"]  PW[");
    out.extend(encode(pw));
    out.extend_from_slice(b"]  BR[");
    out.extend(encode(rank));
    out.extend_from_slice(b"]  WR[");
    out.extend(encode(rank));
    out.extend_from_slice(b"]  KM[0]HA[0]RU[Japanese]AP[GNU Go:3.8]RE[W+R]TM[300]  ");
    out.extend(moves(|_| None));
    out.push(b')');
    out
}

fn in_charset(encoding: &'static Encoding) -> impl Fn(&str) -> Vec<u8> {
    move |text| encoding.encode(text).0.into_owned()
}

/// UTF-8 with the second byte of every other character replaced by `?`.
fn fox_damaged(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, c) in text.chars().enumerate() {
        let mut buf = [0u8; 4];
        let mut bytes = c.encode_utf8(&mut buf).as_bytes().to_vec();
        if i.is_multiple_of(2) && bytes.len() == 3 {
            bytes[1] = b'?';
        }
        out.extend(bytes);
    }
    out
}

fn bench(c: &mut Criterion) {
    let gbk_fox = fox_game(in_charset(GBK), "时越", "周睿羊", "P9段");
    let fox_damaged = fox_game(fox_damaged, "野狐围棋时越", "周睿羊", "P9段");
    let euc_kr_names = fox_game(in_charset(EUC_KR), "우리미소", "위버멘쉬", "9단");
    let mut big5_comments = b"(;GM[1]FF[4]SZ[19]PB[".to_vec();
    big5_comments.extend(in_charset(BIG5)("林海峰"));
    big5_comments.extend_from_slice(b"]PW[");
    big5_comments.extend(in_charset(BIG5)("王立誠"));
    big5_comments.push(b']');
    big5_comments.extend(moves(|i| {
        i.is_multiple_of(10)
            .then(|| in_charset(BIG5)("黑棋中盤勝，白棋的這一手不好。"))
    }));
    big5_comments.push(b')');

    let mut group = c.benchmark_group("charset/detect");
    for (name, input) in [
        ("gbk_fox", &gbk_fox),
        ("fox_damaged", &fox_damaged),
        ("big5_comments", &big5_comments),
        ("euc_kr_names", &euc_kr_names),
    ] {
        group.throughput(Throughput::Bytes(input.len() as u64));
        group.bench_function(name, |b| b.iter(|| detect(black_box(input))));
    }
    group.finish();

    let mut group = c.benchmark_group("charset/parse");
    group.throughput(Throughput::Bytes(gbk_fox.len() as u64));
    let mut parser = sgf_grove::Parser::new();
    group.bench_function("gbk_fox", |b| {
        b.iter(|| parser.parse(black_box(&gbk_fox)).map(|c| c.node_count()))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
