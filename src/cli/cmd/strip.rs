//! `sgf strip PATH... --props C,LZ --preset markup`: each parsed collection
//! written back in raw mode without the properties named (see
//! [`WriteOptions::drop_props`]). Reading, writing and `--in-place` are
//! [`rewrite`](super::rewrite)'s.

use super::rewrite::{rewrite, Edit};
use super::{CliError, Status};
use crate::args::StripArgs;
use sgf_grove::writer::WriteOptions;

/// Runs `sgf strip`.
///
/// # Errors
///
/// An unreadable input, or a failed write.
pub fn run(args: &StripArgs) -> Result<Status, CliError> {
    let mut options = WriteOptions::new().drop_props(args.props.iter().map(|p| p.trim()));
    for &preset in &args.preset {
        options = options.drop_preset(preset);
    }
    rewrite("strip", &args.io, options, Edit::None)
}
