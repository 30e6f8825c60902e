//! Peak memory of one parse of the whole corpus, concatenated.
//!
//! Run with `cargo bench --bench memory`. Not a criterion bench: it parses
//! once and prints
//!
//! - the input size, sgf-grove's arena (`Document::arena_bytes`) and their
//!   ratio;
//! - the process's peak RSS (`VmHWM` from `/proc/self/status`) before and
//!   after the parse, and the difference;
//! - the same for sgf-parse on the files it accepts (lossy UTF-8, see
//!   `common::sgf_parse_ok_lossy`), with sgf-grove measured again on exactly
//!   those bytes. sgf-parse needs ~100× its input; it is skipped when
//!   `MemAvailable` is below 120× the input or when the environment variable
//!   `SGF_GROVE_SKIP_SGF_PARSE` is set.
//!
//! The peak is reset (`5` to `/proc/self/clear_refs`) before each parse when
//! the kernel allows it, so that each delta is that parse's own peak above
//! the memory already in use; the output says whether the reset worked.
//! Without the real corpus the synthetic games are used (tiny numbers).

mod common;

use common::{current_rss, mb, peak_rss, reset_peak_rss};
use std::time::Instant;

fn main() {
    // `cargo bench` passes `--bench`; there are no options.
    let inputs = common::load_inputs();
    let input = common::concat(inputs.files.iter().map(|f| &f.bytes[..]));
    println!("== sgf-grove, all files concatenated ==");
    println!(
        "input                 {:>10.1} MB  ({} files)",
        mb(input.len()),
        inputs.files.len()
    );
    measure_grove(&input);

    if std::env::var_os("SGF_GROVE_SKIP_SGF_PARSE").is_some() {
        println!("\nsgf-parse skipped (SGF_GROVE_SKIP_SGF_PARSE is set)");
        return;
    }
    let t = Instant::now();
    let (texts, excluded, converted) = common::sgf_parse_ok_lossy(&inputs.files);
    eprintln!(
        "(filtering for sgf-parse took {:.1} s)",
        t.elapsed().as_secs_f64()
    );
    let text = texts.join("\n");
    drop(texts);
    println!("\n== same bytes for both: lossy UTF-8 of the files sgf-parse accepts ==");
    println!(
        "{} files converted lossily (not valid UTF-8); {} files excluded:",
        converted,
        excluded.total()
    );
    for (why, (n, example)) in &excluded.counts {
        println!("  {n:6}  {why:?}  (e.g. {example})");
    }
    println!(
        "input                 {:>10.1} MB  ({} files)",
        mb(text.len()),
        inputs.files.len() - excluded.total()
    );
    measure_grove(text.as_bytes());

    let need = text.len() * 120;
    match mem_available() {
        Some(avail) if avail < need => {
            println!(
                "\nsgf-parse skipped: MemAvailable {:.0} MB < 120 × input = {:.0} MB",
                mb(avail),
                mb(need)
            );
        }
        _ => measure_sgf_parse(&text),
    }
}

fn measure_grove(input: &[u8]) {
    let reset = reset_peak_rss();
    let rss = current_rss().unwrap_or(0);
    let before = peak_rss().unwrap_or(0);
    let t = Instant::now();
    let doc = sgf_grove::parse(input).expect("the corpus holds game trees");
    let elapsed = t.elapsed();
    let after = peak_rss().unwrap_or(0);
    let arena = doc.arena_bytes();
    println!(
        "sgf-grove: {} games, {} nodes, {} warnings, parsed in {:.3} s",
        doc.collection().len(),
        doc.collection().node_count(),
        doc.warnings().len() + doc.collection().warnings_dropped(),
        elapsed.as_secs_f64()
    );
    println!(
        "arena_bytes           {:>10.1} MB  = {:.2} × input",
        mb(arena),
        ratio(arena, input.len())
    );
    print_peak(reset, rss, before, after, input.len());
    drop(doc);
}

fn measure_sgf_parse(text: &str) {
    let reset = reset_peak_rss();
    let rss = current_rss().unwrap_or(0);
    let before = peak_rss().unwrap_or(0);
    let t = Instant::now();
    let trees = sgf_parse::parse(text).expect("every file was accepted on its own");
    let elapsed = t.elapsed();
    let after = peak_rss().unwrap_or(0);
    println!(
        "sgf-parse: {} games, parsed in {:.3} s",
        trees.len(),
        elapsed.as_secs_f64()
    );
    print_peak(reset, rss, before, after, text.len());
    let t = Instant::now();
    drop(trees);
    println!(
        "(sgf-parse: dropping the trees took {:.3} s)",
        t.elapsed().as_secs_f64()
    );
}

fn print_peak(reset: bool, rss: usize, before: usize, after: usize, input: usize) {
    println!(
        "VmRSS before         {:>10.1} MB\nVmHWM before         {:>10.1} MB{}\nVmHWM after          {:>10.1} MB\nVmHWM delta          {:>10.1} MB  = {:.2} × input",
        mb(rss),
        mb(before),
        if reset { "  (peak reset before the parse)" } else { "  (peak NOT reset: delta over earlier peak)" },
        mb(after),
        mb(after.saturating_sub(before)),
        ratio(after.saturating_sub(before), input)
    );
}

fn ratio(a: usize, b: usize) -> f64 {
    a as f64 / b.max(1) as f64
}

fn mem_available() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line["MemAvailable:".len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb * 1024)
}
