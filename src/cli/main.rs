//! `sgf`, the command-line tool of `sgf-grove`.
//!
//! ```text
//! sgf check [--strict] [-q] [--format text|json] [--structure-only] [--charset LABEL] PATH...
//!                                  parse files and folders, read every value, report
//! sgf dump [--strict] [--typed] [--charset LABEL] FILE
//!                                  the collection as JSON (SGFGrove.js shape)
//! sgf fmt [--strict] [--charset LABEL] FILE
//!                                  the collection written back as SGF
//! ```
//!
//! `args.rs` declares the command line; each subcommand lives in
//! `cmd/<name>.rs`, and `cmd/mod.rs` holds what they share (reading input,
//! printing diagnostics, the error type).
//!
//! Exit status: 0 on success (warnings allowed), 1 when an input failed to
//! parse (or, for `check`, could not be read), 2 on usage errors and other
//! I/O failures. A closed standard output (`sgf dump big.sgf | head`) ends the
//! program quietly with status 0.

mod args;
mod cmd;

use clap::Parser as _;
use std::io::Write as _;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match args::Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            // Help and version go to stdout with status 0, usage errors to
            // stderr with status 2.
            let _ = err.print();
            return ExitCode::from(u8::try_from(err.exit_code()).unwrap_or(2));
        }
    };
    match cmd::run(cli.command) {
        Ok(status) => status.into(),
        Err(err) if err.is_broken_pipe() => ExitCode::SUCCESS,
        Err(err) => {
            let _ = writeln!(std::io::stderr(), "sgf: {err}");
            ExitCode::from(2)
        }
    }
}
