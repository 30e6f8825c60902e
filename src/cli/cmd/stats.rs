//! `sgf stats`: what the inputs hold, counted on all cores.

use super::tables::{self, game_bytes, origin_key, Tallies};
use super::{CliError, Status};
use crate::args::{Format, StatsArgs};
use crate::name::origin_name;
use crate::scan::Progress;
use sgf_grove::input::Special;
use sgf_grove::table::{GameRow, Stats};
use std::io::{self, Write};
use std::time::Instant;

/// What the work gives the sink.
enum Seen {
    /// A game (or warnings alone): its input and its bytes.
    Game(u64, u64),
    /// What a worker counted over a piece of the inputs.
    Tally(Box<Stats>),
}

/// Runs `sgf stats`.
///
/// # Errors
///
/// When the output cannot be written or the worker threads started.
pub fn run(args: &StatsArgs) -> Result<Status, CliError> {
    let started = Instant::now();
    let filter = tables::filter(&args.filter)
        .map_err(|e| CliError::io("bad filter", io::Error::new(io::ErrorKind::InvalidInput, e)))?;
    let no_filter = filter.is_empty();
    let jobs = args.scan.jobs();
    let tallies = Tallies::new(jobs, args.top);
    let mut total = Stats::new().top_players(args.top);
    let progress = Progress::new(&args.scan);
    let mut inputs = tables::Inputs::default();
    let skipped = args
        .scan
        .inputs()
        .par_scan_games_sealed(
            args.scan.options(),
            jobs,
            |game| {
                let bytes = game_bytes(&game);
                tallies.with(|stats| match game.tree() {
                    None => stats.add_warnings(game.warnings()),
                    Some(tree) if no_filter => stats.add_scanned_tree(tree, game.warnings()),
                    Some(tree) => {
                        let origin = origin_name(game.origin());
                        let offset = game.offset().unwrap_or(0) as u64;
                        let row = GameRow::from_game_without_moves(tree, &origin, offset);
                        match filter.check(&row, tree) {
                            Ok(()) => stats.add_scanned_game(&row, tree, game.warnings()),
                            Err(reason) => {
                                stats.add_rejection(reason);
                                stats.add_warnings(game.warnings());
                            }
                        }
                    }
                });
                Seen::Game(origin_key(game.origin()), bytes)
            },
            // What a worker counted over a piece of the inputs comes in
            // order with the piece's games (or is dropped with them when
            // the piece is read again).
            || tallies.seal().map(|stats| Seen::Tally(Box::new(stats))),
            |result| match result {
                Ok(Seen::Game(key, bytes)) => {
                    progress.input(key);
                    progress.game(bytes);
                    inputs.see(key, bytes, &mut |b| total.add_file(b));
                }
                Ok(Seen::Tally(stats)) => total.merge(*stats),
                Err(err) => {
                    progress.input(origin_key(err.origin()));
                    progress.failure(origin_key(err.origin()));
                    inputs.see(origin_key(err.origin()), 0, &mut |b| total.add_file(b));
                    total.add_failure(err.kind().code());
                    super::note_failure();
                }
            },
        )
        .map_err(|e| CliError::io("cannot start the worker threads", io::Error::other(e)))?;
    inputs.finish(&mut |b| total.add_file(b));
    progress.finish();
    tallies.merge_into(&mut total);
    total.add_skipped(&skipped);
    // A rewrite's temporary file is named, for its owner to remove.
    for item in skipped.listed() {
        if item.kind == Special::Temporary {
            let _ = writeln!(
                io::stderr(),
                "{}: skipped: {} (not read)",
                origin_name(&item.origin),
                item.kind
            );
        }
    }
    total.set_seconds(started.elapsed().as_secs_f64());
    let mut out = io::stdout().lock();
    match args.format {
        Format::Text => out.write_all(total.render_text().as_bytes())?,
        Format::Json => writeln!(out, "{}", total.to_json())?,
    }
    out.flush()?;
    // Failures are counted in the table, not fatal, unless a limit is
    // given.
    let Some(limit) = args.scan.max_failures else {
        return Ok(Status::Ok);
    };
    let report = total.report();
    let (failed, inputs) = (report.failed, report.files);
    if let Some(line) = limit.summary("stats", failed, inputs, "counted above") {
        let _ = writeln!(io::stderr(), "{line}");
    }
    Ok(if limit.allows(failed, inputs) {
        Status::Ok
    } else {
        Status::Failed
    })
}
