//! `sgf transform PATH... --rotate 90 --flip --swap-colors`: each game made
//! editable ([`EditableGame`](sgf_grove::edit::EditableGame)), transformed
//! ([`Transform`]: the rotation, then the mirror, then the colours) and
//! written back in raw mode. Reading, writing, `--out`, `--out-file` and
//! `--in-place` are
//! [`rewrite`](super::rewrite)'s.

use super::rewrite::{rewrite, Edit};
use super::{CliError, Status};
use crate::args::TransformArgs;
use sgf_grove::game::{Symmetry, Transform};
use sgf_grove::writer::WriteOptions;

/// Runs `sgf transform`.
///
/// # Errors
///
/// An unreadable input, or a failed write.
pub fn run(args: &TransformArgs) -> Result<Status, CliError> {
    let rotation = match args.rotate.as_deref() {
        Some("90") => Symmetry::Rotate90,
        Some("180") => Symmetry::Rotate180,
        Some("270") => Symmetry::Rotate270,
        _ => Symmetry::Identity,
    };
    let symmetry = if args.flip {
        rotation.then(Symmetry::FlipX)
    } else {
        rotation
    };
    let transform = Transform {
        symmetry,
        swap_colors: args.swap_colors,
    };
    rewrite(
        "transform",
        &args.io,
        WriteOptions::new(),
        Edit::Transform(transform),
    )
}
