//! `sgf diagram PATH... [--game N]`: a node of a game drawn as a picture,
//! SVG or PNG, by [`sgf_grove::diagram::Diagram`].
//!
//! The inputs are read as `sgf board` reads them (one game at a time, up
//! to the `--game`-th); the node is named the same way (`--node`,
//! `--move`, `--end`), or by `--to N`, the node of move N, whose moves from
//! `--from M` (else from 1) are numbered.
//!
//! Where the picture goes: `--out FILE`, else standard output. A PNG is
//! binary: it goes to standard output only when that is not a terminal (a
//! pipe or a file), and otherwise the command stops with a usage error
//! (exit status 2) asking for `--out` or a redirection.
//!
//! A game, node or move that does not exist, a replay that reaches a limit
//! or (with `--strict`) meets an illegal move: nothing is written, the
//! reason goes to standard error, exit status 1.

use super::{CliError, Status};
use crate::args::{DiagramArgs, DiagramFormat};
use sgf_grove::diagram::{Diagram, DiagramError, DiagramOptions};
use sgf_grove::game::board::RuleSet;
use sgf_grove::game::{ReplayError, ReplayOptions, Rules};
use sgf_grove::{GameTree, Node};
use std::io::{self, IsTerminal, Write};

/// Runs `sgf diagram`.
///
/// # Errors
///
/// A PNG for a terminal (usage), a failed write of the output.
pub fn run(args: &DiagramArgs) -> Result<Status, CliError> {
    if args.format == DiagramFormat::Png && args.out.is_none() && io::stdout().is_terminal() {
        return Err(CliError::usage(
            "sgf diagram: a PNG is binary and standard output is a terminal: \
             give --out FILE or redirect standard output",
        ));
    }
    let (name, outcome, within) =
        super::board::nth_game(&args.scan, args.game, "diagram", |tree, name| {
            picture(tree, args, name)
        });
    match outcome {
        Ok(bytes) => {
            match &args.out {
                Some(path) => std::fs::write(path, &bytes)
                    .map_err(|e| CliError::io(format!("cannot write {}", path.display()), e))?,
                None => {
                    let mut out = io::stdout().lock();
                    out.write_all(&bytes)?;
                    out.flush()?;
                }
            }
            Ok(if within { Status::Ok } else { Status::Failed })
        }
        Err(why) => {
            let _ = writeln!(io::stderr(), "{name}: error: {why}");
            Ok(Status::Failed)
        }
    }
}

/// The picture asked for; `Err` with a reason when the node or a move does
/// not exist or the replay fails.
fn picture(game: GameTree<'_, '_>, args: &DiagramArgs, name: &str) -> Result<Vec<u8>, String> {
    let node = find_node(game, args)?;
    let mut replay = args
        .limits
        .apply(ReplayOptions::default())
        .strict(args.scan.strict);
    if let Some(rules) = &args.rules {
        replay = replay.rules(RuleSet::for_rules(&Rules::parse(rules)));
    }
    let from = args.from.or(args.to.map(|_| 1));
    let options = DiagramOptions::new()
        .numbers_from(from)
        .coordinates(args.coords)
        .replay(replay);
    let diagram = Diagram::at(game, node, &options).map_err(|e| match e {
        DiagramError::Replay(ReplayError::Illegal(e)) => format!("illegal {e}"),
        DiagramError::NumbersPastNode { from, moves } => {
            format!("--from {from}: the line to the node has {moves} moves")
        }
        e => e.to_string(),
    })?;
    if diagram.unreadable() > 0 && !args.scan.quiet {
        let _ = writeln!(
            io::stderr(),
            "{name}: warning: {} markup values not drawn (malformed or off the board)",
            diagram.unreadable()
        );
    }
    match args.format {
        DiagramFormat::Svg => Ok(match args.size {
            Some(px) => diagram.to_svg_sized(px),
            None => diagram.to_svg(),
        }
        .into_bytes()),
        DiagramFormat::Png => {
            let (w, h) = diagram.svg_size();
            let px = args.size.unwrap_or(w.max(h).round() as u32);
            diagram.to_png(px).map_err(|e| e.to_string())
        }
    }
}

/// The node that `--node`, `--move`, `--to` or `--end` names.
fn find_node<'t, 'src>(
    game: GameTree<'t, 'src>,
    args: &DiagramArgs,
) -> Result<Node<'t, 'src>, String> {
    if let Some(path) = &args.node {
        return super::node_at_path(game, path, "--node");
    }
    if let Some(want) = args.move_number.or(args.to) {
        let label = if args.to.is_some() { "--to" } else { "--move" };
        return super::node_at_move(game, want).map_err(|e| format!("{label} {want}: {e}"));
    }
    let node = game.root();
    Ok(node.main_line().last().unwrap_or(node))
}
