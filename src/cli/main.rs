//! `sgf`, the command-line tool of `sgf-grove`.
//!
//! ```text
//! sgf check [--strict] [-q] [--format text|json] [--structure-only] [--charset LABEL] PATH|-...
//!                                  parse files and folders, read every value, report
//! sgf dump [--strict] [--typed] [--charset LABEL] FILE|-
//!                                  the collection as JSON (SGFGrove.js shape)
//! sgf fmt [--canonical] [--utf8] [--wrap N] [--tt-pass] [--points as-written|expand|compress]
//!         [--in-place] [--strict] [--charset LABEL] PATH|-...
//!                                  the collections written back as SGF
//! sgf strip (--props C,LZ,… | --preset NAME,…) [--in-place] [--strict] [--charset LABEL] PATH|-...
//!                                  the same without some properties
//! sgf fix (--repair NAME,… | --all) [--dry-run] [--in-place | --out FILE] [--strict] [--charset LABEL] PATH|-...
//!                                  named repairs, each change reported (folders walked)
//! sgf transform [--rotate 90|180|270] [--flip] [--swap-colors] [--out FILE | --in-place]
//!         [--strict] [--charset LABEL] PATH|-...
//!                                  the same rotated, mirrored, colours exchanged
//! ```
//!
//! `args.rs` declares the command line; each subcommand lives in
//! `cmd/<name>.rs` (`check` in a folder of its own: walk, text report, JSON
//! report), and `cmd/mod.rs` holds what they share (parsing as a stream,
//! printing diagnostics, the error type). `read.rs` opens every input (one
//! function, sniffed) as a stream that the commands read one game at a time
//! (`sgf_grove::StreamParser`), so memory is bounded by the largest game
//! whatever the input's length; `name.rs` prints file names unambiguously.
//!
//! `check` reads every input through `sgf_grove::input::Inputs`: folders,
//! compressed files and archives (gzip, bzip2, xz, zstd, tar, zip, 7z, by
//! their first bytes), members named `archive!member`. What is not SGF text
//! (an executable, other binary data; for `dump` and `fmt`, which read one
//! SGF file, also compressed data and archives) is refused by name:
//! `x.sgf: ELF executable; not SGF text`. UTF-16 text is decoded to UTF-8
//! first, with a warning.
//!
//! Exit status: 0 on success (warnings allowed), 1 when an input failed (no
//! game in it, not SGF text, a game too large, a defect in strict mode; for
//! `check` also an unreadable file or a folder with no SGF file), 2 on usage
//! errors and other I/O failures. `dump` and `fmt` write each game as it is
//! read: in strict mode a defect stops the output at the game it is in. A closed standard output (`sgf dump big.sgf | head`) ends the
//! program quietly with the status of what it found until then (1 when an
//! input had failed). A path that does not exist or cannot be read is named
//! on standard error and gives status 2, after the other paths were read.

mod args;
mod cmd;
mod failures;
mod messages;
mod name;
mod read;
mod scan;

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
        // A closed standard output (`sgf check … | head`) stops the
        // command quietly, with the status of what it found until then.
        Err(err) if err.is_broken_pipe() => match cmd::failure_seen() {
            true => ExitCode::from(1),
            false => ExitCode::SUCCESS,
        },
        Err(err) => {
            let _ = writeln!(std::io::stderr(), "sgf: {err}");
            ExitCode::from(2)
        }
    }
}
