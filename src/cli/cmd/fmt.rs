//! `sgf fmt FILE`: the parsed collection written back as SGF by
//! [`sgf_grove::Writer`] in raw mode: values byte for byte as read,
//! identifiers normalised, repeated properties merged, one game tree per
//! line, and whatever the lenient parser skipped left out. Warnings go to
//! standard error. `--charset` matters even though values are not decoded:
//! in Shift_JIS, Big5 and GBK a `\` or `]` byte can end a character, and the
//! charset decides where values end.
//!
//! The input is read as a stream and each game written as soon as it is
//! read ([`parse_streaming`]), so memory holds one
//! game at a time, whatever the input's length. In strict mode a defect
//! stops the output at the game it is in (the games before it are
//! written) and the exit status is 1.

use super::{display_name, input_parse_options, open_reporting, parse_streaming, CliError, Status};
use crate::args::FmtArgs;
use sgf_grove::Writer;
use std::io::{self, BufWriter, Write};

/// Runs `sgf fmt`: writes each game as soon as it is parsed.
///
/// # Errors
///
/// An unreadable input, or a failed write to standard output.
pub fn run(args: &FmtArgs) -> Result<Status, CliError> {
    let name = display_name(&args.file);
    let Some(mut input) = open_reporting(&args.file, &name)? else {
        return Ok(Status::Failed);
    };
    let options = input_parse_options(args.strict, args.charset, input.decoded_from);
    let mut writer = Writer::new(BufWriter::with_capacity(64 * 1024, io::stdout().lock()));
    let status = parse_streaming(&mut input, options, &name, |coll, _| {
        writer.write_collection(coll)
    })?;
    writer.into_inner().flush()?;
    Ok(status)
}
