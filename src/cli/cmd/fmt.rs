//! `sgf fmt PATH...`: each parsed collection written back as SGF by
//! [`sgf_grove::Writer`]: in raw mode (the default) values byte for byte as
//! read, identifiers normalised, repeated properties merged, one game tree
//! per line, and whatever the lenient parser skipped left out; with
//! `--canonical`, `--utf8`, `--wrap` as [`WriteOptions`] describes. Warnings
//! go to standard error. `--charset` matters even though values are not
//! decoded in raw mode: in Shift_JIS, Big5 and GBK a `\` or `]` byte can end
//! a character, and the charset decides where values end.
//!
//! Reading, writing and `--in-place` are [`rewrite`](super::rewrite)'s.

use super::rewrite::{rewrite, Edit};
use super::{CliError, Status};
use crate::args::{FmtArgs, PointsArg};
use sgf_grove::writer::{PointStyle, Target, WriteOptions};

/// Runs `sgf fmt`.
///
/// # Errors
///
/// An unreadable input, or a failed write.
pub fn run(args: &FmtArgs) -> Result<Status, CliError> {
    let mut options = WriteOptions::new()
        .canonical(args.canonical)
        .tt_pass(args.tt_pass)
        .points(match args.points {
            PointsArg::AsWritten => PointStyle::AsWritten,
            PointsArg::Expand => PointStyle::Expand,
            PointsArg::Compress => PointStyle::Compress,
        })
        .wrap(args.wrap.unwrap_or(0));
    if args.utf8 {
        options = options.transcode(Target::Utf8);
    }
    rewrite("fmt", &args.io, options, Edit::None)
}
