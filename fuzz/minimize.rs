//! Shrinks an input that fails a fuzz target's check: removes chunks of
//! bytes, halving the chunk size, for as long as the check still fails, and
//! prints what is left as a Rust byte string. Much faster to a small case
//! than `cargo fuzz tmin`, since the check runs in-process.
//!
//! ```sh
//! cd fuzz
//! cargo run --release --bin minimize -- roundtrip artifacts/roundtrip/crash-… /tmp/small.sgf
//! ```
//!
//! The target is one of `parse`, `roundtrip`, `lexer_diff`, `typed`, `write_modes`,
//! `events`.

use sgf_grove::oracle;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [target, input, rest @ ..] = &args[..] else {
        eprintln!("usage: minimize TARGET INPUT [OUTPUT]");
        return ExitCode::from(2);
    };
    let check: fn(&[u8]) = match target.as_str() {
        "parse" => oracle::parse::check_parse,
        "roundtrip" => oracle::roundtrip::check_roundtrip,
        "lexer_diff" => oracle::lexer::check_lexer,
        "typed" => oracle::typed::check_typed,
        "events" => oracle::events::check,
        "write_modes" => oracle::write_modes::check_write_modes,
        "edit_roundtrip" => oracle::edit::check_edit_roundtrip,
        "repair" => oracle::repair::check_repair,
        other => {
            eprintln!(
                "unknown target {other:?}: parse, roundtrip, lexer_diff, typed, events, write_modes, edit_roundtrip or repair"
            );
            return ExitCode::from(2);
        }
    };
    let data = match std::fs::read(input) {
        Ok(data) => data,
        Err(e) => {
            eprintln!("{input}: {e}");
            return ExitCode::from(2);
        }
    };
    // The checks report by panicking; keep their messages off the screen.
    std::panic::set_hook(Box::new(|_| {}));
    let fails = |bytes: &[u8]| catch_unwind(AssertUnwindSafe(|| check(bytes))).is_err();
    if !fails(&data) {
        eprintln!("{input} passes the {target} check: nothing to minimise");
        return ExitCode::FAILURE;
    }
    let small = shrink(data, fails);
    println!("{} bytes: {}", small.len(), oracle::repro(&small));
    if let Some(output) = rest.first() {
        if let Err(e) = std::fs::write(output, &small) {
            eprintln!("{output}: {e}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

/// Removes chunks of `data` while `fails` stays true: chunks of half the
/// length first, then smaller, down to single bytes.
fn shrink(mut data: Vec<u8>, fails: impl Fn(&[u8]) -> bool) -> Vec<u8> {
    let mut chunk = (data.len() / 2).max(1);
    loop {
        let mut removed = false;
        let mut at = 0;
        while at < data.len() {
            let end = (at + chunk).min(data.len());
            let candidate = [&data[..at], &data[end..]].concat();
            if fails(&candidate) {
                data = candidate;
                removed = true;
            } else {
                at += chunk;
            }
        }
        if !removed {
            if chunk == 1 {
                return data;
            }
            chunk /= 2;
        }
    }
}
