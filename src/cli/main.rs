//! `sgf`, the command-line tool of `sgf-grove`.
//!
//! ```text
//! sgf check [--strict] [-q] [--format text|json] [--structure-only] [--charset LABEL] PATH|-...
//!                                  parse files and folders, read every value, report
//! sgf check --semantic PATH|-...  also the semantic checks (replay, setup, annotations, versions)
//! sgf check --explain CODE         what a semantic check finds, its repair, its SGFC message
//! sgf dump [--typed] [INPUT OPTIONS] PATH|-...
//!                                  the games as one JSON array (SGFGrove.js shape)
//! sgf fmt [--canonical] [--utf8] [--wrap N] [--tt-pass] [--points as-written|expand|compress]
//!         [--in-place | --out DIR | --out-file FILE] [INPUT OPTIONS] PATH|-...
//!                                  the games written back as SGF
//! sgf strip (--props C,LZ,… | --preset NAME,…) [OUTPUT] [INPUT OPTIONS] PATH|-...
//!                                  the same without some properties
//! sgf fix (--repair NAME,… | --all) [--dry-run] [OUTPUT] [INPUT OPTIONS] PATH|-...
//!                                  named repairs, each change reported
//! sgf transform [--rotate 90|180|270] [--flip] [--swap-colors] [OUTPUT] [INPUT OPTIONS] PATH|-...
//!                                  the same rotated, mirrored, colours exchanged
//! sgf board [--game N] [--node P | --move N | --end] [INPUT OPTIONS] PATH|-...
//!                                  the position of the N-th game of the inputs
//! sgf diagram [--game N] [--node P | --move N | --end | --to N] [--from M] [--format svg|png]
//!             [--coords] [--size PX] [--out FILE] [INPUT OPTIONS] PATH|-...
//!                                  a node of a game drawn as SVG or PNG
//! sgf tree [--depth N] [--min-games K] [--symmetry] [--max-nodes N] [--out FILE | --json]
//!          [INPUT OPTIONS] PATH|-...
//!                                  the opening tree of the games, counts in comments
//! sgf extract [--game N] [--node P | --move N] [--setup] [--variations] [--out PATH]
//!             [INPUT OPTIONS] PATH|-...
//!                                  a node's subtree, or every variation, as games
//!
//! INPUT OPTIONS (scan.rs, the same for every command that reads SGF):
//!   -j N, --shard K/N, -q, --max-messages N, --max-failures N|P%,
//!   --strict, --charset LABEL, --names-only, --max-line-bytes,
//!   --max-input-bytes, --max-input-games
//! ```
//!
//! Every command that reads SGF takes files, folders, archives,
//! compressed files, `.sgfs` and `-` through `sgf_grove::input::Inputs`;
//! the writing commands share `cmd/rewrite.rs` (ordered output on all
//! cores, `--out DIR` mirroring in `cmd/target.rs`, atomic files).
//!
//! `args.rs` declares the command line; each subcommand lives in
//! `cmd/<name>.rs` (`check` in a folder of its own: walk, text report, JSON
//! report), and `cmd/mod.rs` holds what they share (parsing as a stream,
//! printing diagnostics, the error type). `read.rs` opens every input (one
//! function, sniffed) as a stream that the commands read one game at a time
//! (`sgf_grove::StreamParser`), so memory is bounded by the largest game
//! whatever the input's length; `name.rs` prints file names unambiguously.
//!
//! Inputs: folders, compressed files and archives (gzip, bzip2, xz, zstd,
//! tar, zip, 7z, by their first bytes), members named `archive!member`.
//! What is not SGF text (an executable, other binary data) is refused by
//! name: `x.sgf: ELF executable; not SGF text`. UTF-16 text is decoded to
//! UTF-8 first, with a warning.
//!
//! Exit status: 0 on success (warnings allowed), 1 when more inputs failed
//! than `--max-failures` allows (default: any; an input fails when it has
//! no game, is not SGF text, cannot be read, has a game too large or a
//! defect in strict mode), 2 on usage errors and other I/O failures. A
//! closed standard output (`sgf dump big.sgf | head`) ends the
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
