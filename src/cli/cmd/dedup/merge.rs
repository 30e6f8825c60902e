//! `sgf dedup --merge --out DIR`: one record per cluster.
//!
//! The clusters are known only once every game is read, so the inputs are
//! read a second time ([`write`]). Each game of a cluster gives its game
//! information ([`GameCopy`]); the best copy also its text, written as
//! UTF-8 (so that any copy's names can be joined into it). A cluster is
//! merged ([`merge_info`]) and written as soon as its last copy is read,
//! and forgotten: what is held is the information of the clusters still
//! open. A game read the second time must be the one read the first time
//! (the same place in the scan, source, number and moves); a cluster with
//! a copy that changed or was not read again is not written, and said so.
//!
//! Each record is written whole or not at all (a temporary file renamed,
//! [`Replace::batched`]), and the folder is synced once at the end.

use super::{sequence_of, Games};
use crate::args::DedupArgs;
use crate::cmd::CliError;
use crate::name::origin_name;
use crate::scan::keyed;
use sgf_grove::atomic::{sync_batch, Hooks, Replace};
use sgf_grove::edit::{merge_info, Conflict, EditableGame, GameCopy};
use sgf_grove::game::signature::{Cluster, MoveSequence};
use sgf_grove::writer::{Target, WriteOptions, Writer};
use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// What was done for one cluster.
pub(super) struct Merged {
    /// The record's file name in the folder; `None` when it was not
    /// written (`why` says why).
    pub file: Option<String>,
    pub why: Option<String>,
    pub conflicts: Vec<Conflict>,
    /// Values taken from other copies than the best.
    pub taken: usize,
}

impl Merged {
    fn not_written(why: impl Into<String>) -> Merged {
        Merged {
            file: None,
            why: Some(why.into()),
            conflicts: Vec::new(),
            taken: 0,
        }
    }

    /// Adds `file` and `conflicts` (or `error`) to a cluster's JSON object.
    pub fn json(&self, line: &mut serde_json::Value) {
        match &self.file {
            Some(file) => line["file"] = file.as_str().into(),
            None => line["error"] = self.why.as_deref().unwrap_or("not written").into(),
        }
        let conflicts: Vec<_> = self
            .conflicts
            .iter()
            .map(|c| {
                let others: Vec<_> = c
                    .others
                    .iter()
                    .map(|(value, copies)| serde_json::json!({"value": value, "copies": copies}))
                    .collect();
                serde_json::json!({"property": c.ident, "kept": c.kept, "kept_from": c.kept_from, "others": others})
            })
            .collect();
        line["conflicts"] = conflicts.into();
        line["taken"] = self.taken.into();
    }

    /// The line after a cluster's copies in text.
    pub fn text(&self) -> String {
        match &self.file {
            Some(file) => {
                let mut line = format!("{file}: {} values taken from other copies", self.taken);
                if !self.conflicts.is_empty() {
                    let idents: Vec<&str> = self.conflicts.iter().map(|c| c.ident).collect();
                    line.push_str(&format!(", conflicts in {}", idents.join(", ")));
                }
                line
            }
            None => format!(
                "not written: {}",
                self.why.as_deref().unwrap_or("not written")
            ),
        }
    }
}

/// Checks what `--merge` needs before anything is read: inputs that can be
/// read twice, and an output folder that is empty (or `--force`).
pub(super) fn prepare(dir: &Path, args: &DedupArgs) -> Result<PathBuf, CliError> {
    if args.scan.paths.iter().any(|p| p.as_os_str() == "-") {
        return Err(CliError::usage(
            "dedup --merge reads its inputs twice, and standard input (-) can be read once: \
             save it to a file first",
        ));
    }
    let holds_something = fs::read_dir(dir).is_ok_and(|mut d| d.next().is_some());
    if holds_something && !args.force {
        return Err(CliError::io(
            format!("cannot merge into {}", dir.display()),
            io::Error::new(
                io::ErrorKind::AlreadyExists,
                "the folder is not empty (its files would mix with the merged records); \
                 use an empty folder, or --force to write over it",
            ),
        ));
    }
    fs::create_dir_all(dir)
        .map_err(|e| CliError::io(format!("cannot create {}", dir.display()), e))?;
    Ok(dir.to_path_buf())
}

/// One copy of a cluster as the second read found it.
struct Piece {
    source: String,
    index: usize,
    seq: MoveSequence,
    copy: GameCopy,
    /// The game as UTF-8 SGF, for the best copies.
    text: Option<Vec<u8>>,
}

/// A cluster whose copies are being read.
#[derive(Default)]
struct Open {
    seen: usize,
    best: Option<(GameCopy, Vec<u8>)>,
    others: Vec<(usize, GameCopy)>,
    broken: Option<String>,
}

/// Reads the inputs again and writes each cluster's merged record into
/// `dir`; one [`Merged`] per cluster, in their order.
pub(super) fn write(
    args: &DedupArgs,
    dir: &Path,
    games: &Games<'_>,
    clusters: &[Cluster],
) -> Result<Vec<Merged>, CliError> {
    let mut cluster_of: HashMap<usize, usize> = HashMap::new();
    for (n, c) in clusters.iter().enumerate() {
        for &m in &c.members {
            cluster_of.insert(m, n);
        }
    }
    let wanted: HashSet<(&str, usize)> = cluster_of
        .keys()
        .map(|&m| (games.copies[m].0.as_str(), games.copies[m].1))
        .collect();
    let bests: HashSet<(&str, usize)> = clusters
        .iter()
        .map(|c| (games.copies[c.best].0.as_str(), games.copies[c.best].1))
        .collect();
    let member_at: HashMap<u64, usize> =
        cluster_of.keys().map(|&m| (games.ordinals[m], m)).collect();
    let mut done: Vec<Option<Merged>> = clusters.iter().map(|_| None).collect();
    let mut open: HashMap<usize, Open> = HashMap::new();
    let mut files: Vec<PathBuf> = Vec::new();
    let mut read = 0u64;
    let mut first_error: Option<CliError> = None;
    let options = WriteOptions::new().transcode(Target::Utf8);
    let swap = args.swap_colors;
    args.scan
        .inputs()
        .par_scan_games(
            args.scan.options(),
            args.scan.jobs(),
            keyed(|game| -> Option<Piece> {
                let tree = game.tree()?;
                let source = origin_name(game.origin());
                let index = game.index().unwrap_or(0);
                if !wanted.contains(&(source.as_str(), index)) {
                    return None;
                }
                let (seq, _) = sequence_of(tree, swap);
                let label = format!("{source} game {index}");
                let text = bests.contains(&(source.as_str(), index)).then(|| {
                    let mut writer = Writer::with_options(
                        Vec::with_capacity(tree.span().len() + 64),
                        options.clone(),
                    );
                    // UTF-8 holds every character; a failure leaves the
                    // cluster unwritten, said so.
                    writer
                        .write_game(tree)
                        .map(|()| writer.into_inner())
                        .unwrap_or_default()
                });
                Some(Piece {
                    copy: GameCopy::of(tree, &label, false),
                    source,
                    index,
                    seq,
                    text,
                })
            }),
            |result: Result<(u64, Option<Piece>), sgf_grove::input::InputError>| {
                // Failed inputs were said in the first read.
                let Ok((_, piece)) = result else {
                    return;
                };
                let ordinal = read;
                read += 1;
                let Some(piece) = piece else {
                    return;
                };
                let Some(&m) = member_at.get(&ordinal) else {
                    return;
                };
                let n = cluster_of[&m];
                let c = &clusters[n];
                let entry = open.entry(n).or_default();
                entry.seen += 1;
                let same = games.copies[m] == (piece.source.clone(), piece.index)
                    && games.seqs[m] == piece.seq;
                if !same {
                    entry.broken = Some(format!(
                        "{} game {} changed between the two reads",
                        games.copies[m].0, games.copies[m].1
                    ));
                } else if m == c.best {
                    entry.best = Some((piece.copy, piece.text.unwrap_or_default()));
                } else {
                    let mut copy = piece.copy;
                    copy.swapped = games.swapped[m] != games.swapped[c.best];
                    entry.others.push((m, copy));
                }
                if entry.seen == c.members.len() {
                    let entry = open.remove(&n).unwrap_or_default();
                    let merged = match finish(dir, n, c, games, entry) {
                        Ok((merged, path)) => {
                            files.extend(path);
                            merged
                        }
                        Err(err) => {
                            let merged = Merged::not_written(err.to_string());
                            first_error.get_or_insert(err);
                            merged
                        }
                    };
                    done[n] = Some(merged);
                }
            },
        )
        .map_err(|e| CliError::io("cannot start the worker threads", io::Error::other(e)))?;
    if let Some(err) = first_error {
        return Err(err);
    }
    if !files.is_empty() {
        sync_batch(dir, &files)
            .map_err(|e| CliError::io(format!("cannot sync {}", dir.display()), e))?;
    }
    Ok(done
        .into_iter()
        .map(|d| {
            d.unwrap_or_else(|| Merged::not_written("a copy was not found in the second read"))
        })
        .collect())
}

/// Merges and writes cluster `n` (from 0), its copies all read.
fn finish(
    dir: &Path,
    n: usize,
    c: &Cluster,
    games: &Games<'_>,
    open: Open,
) -> Result<(Merged, Option<PathBuf>), CliError> {
    if let Some(why) = open.broken {
        return Ok((Merged::not_written(why), None));
    }
    let Some((base, text)) = open.best else {
        return Ok((
            Merged::not_written("the best copy was not read again"),
            None,
        ));
    };
    let doc = match sgf_grove::parse(&text) {
        Ok(doc) => doc,
        Err(err) => return Ok((Merged::not_written(format!("the best copy: {err}")), None)),
    };
    let Some(tree) = doc.games().next() else {
        return Ok((
            Merged::not_written("the best copy could not be written"),
            None,
        ));
    };
    let mut game = EditableGame::from_game(tree);
    let others: Vec<GameCopy> = open.others.into_iter().map(|(_, copy)| copy).collect();
    let report = match merge_info(&mut game, &base, &others) {
        Ok(report) => report,
        Err(err) => return Ok((Merged::not_written(err.to_string()), None)),
    };
    let root = game.root();
    let mut notes = vec![format!(
        "Merged from {} copies by sgf dedup --merge; moves from {}.",
        c.members.len(),
        base.label
    )];
    let best = &games.seqs[c.best];
    for &m in &c.members {
        let at = super::differs_at(&games.seqs[m], best);
        if !at.is_empty() {
            let at: Vec<String> = at.iter().map(usize::to_string).collect();
            notes.push(format!(
                "{} game {} differs at move {}.",
                games.copies[m].0,
                games.copies[m].1,
                at.join(", ")
            ));
        }
    }
    if let Err(err) = game.append_comment(root, &notes.join("\n")) {
        return Ok((Merged::not_written(err.to_string()), None));
    }
    let file = format!("cluster-{:06}.sgf", n + 1);
    let path = dir.join(&file);
    let cannot = |e: &dyn std::fmt::Display| {
        CliError::io(
            format!("cannot write {}", path.display()),
            io::Error::other(e.to_string()),
        )
    };
    let mut replace = Replace::batched(&path, Hooks::default()).map_err(|e| cannot(&e))?;
    replace.write_all(&game.to_sgf()).map_err(|e| cannot(&e))?;
    replace.commit().map_err(|e| cannot(&e))?;
    Ok((
        Merged {
            file: Some(file),
            why: None,
            conflicts: report.conflicts,
            taken: report.taken.len(),
        },
        Some(path),
    ))
}
