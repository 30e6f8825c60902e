//! `sgf fmt FILE`: the parsed collection written back as SGF by
//! [`sgf_grove::Writer`] in raw mode: values byte for byte as read,
//! identifiers normalised, repeated properties merged, one game tree per
//! line, and whatever the lenient parser skipped left out. Warnings go to
//! standard error. `--charset` matters even though values are not decoded:
//! in Shift_JIS, Big5 and GBK a `\` or `]` byte can end a character, and the
//! charset decides where values end.

use super::{display_name, parse_options, parse_reporting, read_input, CliError, Status};
use crate::args::FmtArgs;
use sgf_grove::{Parser, Writer};
use std::io::{self, BufWriter, Write};

/// Runs `sgf fmt`.
///
/// # Errors
///
/// An unreadable input, or a failed write to standard output.
pub fn run(args: &FmtArgs) -> Result<Status, CliError> {
    let input = read_input(&args.file)?;
    let name = display_name(&args.file);
    let mut parser = Parser::with_options(parse_options(args.strict, args.charset));
    let Some(coll) = parse_reporting(&mut parser, &input, &name) else {
        return Ok(Status::Failed);
    };

    let mut writer = Writer::new(BufWriter::with_capacity(64 * 1024, io::stdout().lock()));
    writer.write_collection(coll)?;
    writer.into_inner().flush()?;
    Ok(Status::Ok)
}
