//! `sgf fmt FILE`: the parsed collection written back as SGF by
//! [`sgf_grove::Writer`] in raw mode: values byte for byte as read,
//! identifiers normalised, repeated properties merged, one game tree per
//! line, and whatever the lenient parser skipped left out. Warnings go to
//! standard error. `--charset` matters even though values are not decoded:
//! in Shift_JIS, Big5 and GBK a `\` or `]` byte can end a character, and the
//! charset decides where values end.
//!
//! Each game is written as soon as it is parsed
//! ([`parse_streaming`]), so the arena holds one game
//! at a time.

use super::{display_name, input_parse_options, parse_streaming, read_reporting, CliError, Status};
use crate::args::FmtArgs;
use crate::read::Reader;
use sgf_grove::{Parser, Writer};
use std::io::{self, BufWriter, Write};

/// Runs `sgf fmt`: writes each game as soon as it is parsed.
///
/// # Errors
///
/// An unreadable input, or a failed write to standard output.
pub fn run(args: &FmtArgs) -> Result<Status, CliError> {
    let name = display_name(&args.file);
    let mut reader = Reader::default();
    let Some(input) = read_reporting(&mut reader, &args.file, &name)? else {
        return Ok(Status::Failed);
    };
    let options = input_parse_options(args.strict, args.charset, input.decoded_from);
    let mut parser = Parser::with_options(options);
    let mut writer = Writer::new(BufWriter::with_capacity(64 * 1024, io::stdout().lock()));
    let status = parse_streaming(&mut parser, input.bytes, &name, |coll, _| {
        writer.write_collection(coll)
    })?;
    writer.into_inner().flush()?;
    Ok(status)
}
