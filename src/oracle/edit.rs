//! Parse → make editable → edit → write → parse → make editable: the two
//! editable games are the same tree (structure, identifiers, raw values,
//! board size, charset), and writing the second gives the same bytes. An
//! edit refused leaves the game as it was. Unedited, an editable game
//! writes what the writer writes for the parsed one.
//!
//! The edits are drawn from a generator seeded with a hash of the input,
//! so that each input gives its own edits, the same every run.
//!
//! Run by the fuzz target `edit_roundtrip` and, on `fuzz/regressions/`, by
//! `tests/integration/fuzz_regressions.rs`.

use super::repro;
use crate::edit::{EditId, EditableGame};
use crate::game::{Symmetry, Transform};
use crate::value::{Color, Move, Point};

/// How many games of an input are edited.
const GAMES: usize = 3;
/// How many edits each gets.
const EDITS: usize = 12;

/// A xorshift generator.
struct Rng(u64);

impl Rng {
    fn new(input: &[u8]) -> Rng {
        // FNV-1a of the input.
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for &b in input {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        Rng(h | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const IDENTS: [&str; 16] = [
    "B", "W", "C", "AB", "AW", "KM", "SZ", "CA", "GM", "LB", "TR", "PB", "XX", "N", "FF", "AP",
];

const RAWS: [&[u8]; 22] = [
    b"pd",
    b"",
    b"a\\]b",
    b"(;GM[1]",
    b"x (;SZ[9]",
    b"x]",
    b"\\",
    b"\x95\x5c",
    b"\x95",
    b"tt",
    b"19:13",
    b"9",
    b"UTF-8",
    b"Shift_JIS",
    b"GB2312",
    b"latin1",
    b"klingon",
    b"UTF-16",
    b"aa:cc",
    b"\xe4\xb8\xad",
    b"[x",
    b"6.5",
];

const TEXTS: [&str; 8] = [
    "plain",
    "a ] and \\",
    "see (;GM[1]SZ[9])",
    "中国",
    "表",
    "😀",
    "line\nbreak",
    "",
];

/// Runs the checks on `input`; panics with a reproducer on a violation.
pub fn check_edit_roundtrip(input: &[u8]) {
    let Ok(doc) = crate::parse(input) else {
        return;
    };
    let mut rng = Rng::new(input);
    for game in doc.games().take(GAMES) {
        let mut edit = EditableGame::from_game(game);
        let mut by_writer = Vec::new();
        crate::Writer::new(&mut by_writer)
            .write_game(game)
            .expect("writing to a Vec cannot fail");
        let unedited = edit.to_sgf();
        if unedited != by_writer {
            panic!(
                "an unedited game is not written as the writer writes it\n{}\nwriter: b\"{}\"\nedit:   b\"{}\"",
                repro(input),
                by_writer.escape_ascii(),
                unedited.escape_ascii()
            );
        }
        same_in_every_mode(&edit, |options| {
            let mut out = Vec::new();
            crate::Writer::with_options(&mut out, options.clone()).write_game(game)?;
            Ok(out)
        })
        .unwrap_or_else(|why| panic!("unedited: {why}\n{}", repro(input)));
        let mut log = Vec::new();
        for _ in 0..EDITS {
            let before = edit.to_sgf();
            let (what, result) = one_edit(&mut edit, &mut rng, input);
            log.push(format!(
                "{what} -> {}",
                if result { "ok" } else { "refused" }
            ));
            if !result && edit.to_sgf() != before {
                panic!(
                    "a refused edit changed the game\n{}\nedits: {log:#?}\nbefore: b\"{}\"\nafter:  b\"{}\"",
                    repro(input),
                    before.escape_ascii(),
                    edit.to_sgf().escape_ascii()
                );
            }
        }
        check_written(&edit, input, &log);
        // Written directly in each mode, the edited game gives what writing
        // it raw, parsing that and writing the parse in the mode gives.
        let raw = edit.to_sgf();
        if let Ok(reread) = crate::parse(&raw) {
            same_in_every_mode(&edit, |options| {
                crate::writer::write_with(reread.collection(), options)
            })
            .unwrap_or_else(|why| panic!("edited: {why}\nedits: {log:#?}\n{}", repro(input)));
        }
    }
}

/// Checks that `edit` written in every mode of the write-modes oracle
/// gives what `expected` gives for that mode; `Err` names the first mode
/// that differs.
fn same_in_every_mode(
    edit: &EditableGame,
    expected: impl Fn(&crate::writer::WriteOptions) -> crate::Result<Vec<u8>>,
) -> Result<(), String> {
    for (name, options) in super::write_modes::modes() {
        let direct = edit.write_with(&options);
        let other = expected(&options);
        match (direct, other) {
            (Ok(a), Ok(b)) if a == b => {}
            (Err(_), Err(_)) => {}
            (a, b) => {
                let show = |r: &crate::Result<Vec<u8>>| match r {
                    Ok(v) => format!("b\"{}\"", v.escape_ascii()),
                    Err(e) => format!("error: {e}"),
                };
                return Err(format!(
                    "mode {name}: written directly {}\nthrough a parse  {}",
                    show(&a),
                    show(&b)
                ));
            }
        }
    }
    Ok(())
}

/// Checks that `edit` written and read back is `edit`.
fn check_written(edit: &EditableGame, input: &[u8], log: &[String]) {
    let written = edit.to_sgf();
    let fail = |why: &str| -> ! {
        panic!(
            "{why}\n{}\nedits: {log:#?}\nwritten: b\"{}\"",
            repro(input),
            written.escape_ascii()
        )
    };
    let doc = match crate::parse(&written) {
        Ok(doc) => doc,
        Err(e) => fail(&format!("the written game does not parse: {e}")),
    };
    if doc.collection().len() != 1 {
        fail(&format!(
            "the written game reads as {} games",
            doc.collection().len()
        ));
    }
    let again = EditableGame::from_game(doc.games().next().expect("one game"));
    // A game without a usable `CA` whose bytes changed can be read back in
    // another guessed charset, which the copy then records as `CA` (in
    // place of one naming no usable charset): its values must read the
    // same all the same.
    let guessed = edit.declared_ca().is_none() && edit.ca_to_add().is_none();
    let (before, after) = (
        outline(edit, true, guessed),
        outline(&again, false, guessed),
    );
    if before != after {
        let at = before
            .iter()
            .zip(&after)
            .position(|(a, b)| a != b)
            .unwrap_or(before.len().min(after.len()));
        fail(&format!(
            "read back, the edited game differs at line {at}:\n- {:?}\n+ {:?}",
            before.get(at),
            after.get(at)
        ));
    }
    if again.board_size() != edit.board_size() || again.game_type() != edit.game_type() {
        fail(&format!(
            "read back, the board is {:?} (game {}) instead of {:?} (game {})",
            again.board_size(),
            again.game_type(),
            edit.board_size(),
            edit.game_type()
        ));
    }
    if !guessed && again.charset() != edit.charset() {
        fail(&format!(
            "read back, the charset is {} instead of {}",
            again.charset().name(),
            edit.charset().name()
        ));
    }
    if !guessed && again.to_sgf() != written {
        fail(&format!(
            "written again, the game differs: b\"{}\"",
            again.to_sgf().escape_ascii()
        ));
    }
}

/// One line per node in pre-order: depth, number of children, and each
/// property `ID[raw]…`; with `pinned`, the root first gets the `CA` that
/// writing adds; with `unpinned`, the root's `CA` is left out.
fn outline(game: &EditableGame, pinned: bool, unpinned: bool) -> Vec<String> {
    let mut lines = Vec::new();
    let mut depth = std::collections::HashMap::new();
    for id in game.nodes() {
        let node = game.node(id).expect("a node of the walk");
        let d = node.parent().map_or(0, |p| depth[&p] + 1);
        depth.insert(id, d);
        let mut line = format!("{d} children={} ", node.children().len());
        let pin = game.ca_to_add().filter(|_| pinned && node.is_root());
        if let Some(encoding) = pin {
            line.push_str(&format!("CA[{}]", encoding.name()));
        }
        for prop in node.properties() {
            if (unpinned || pin.is_some()) && node.is_root() && prop.ident() == "CA" {
                continue;
            }
            line.push_str(prop.ident());
            for v in prop.values() {
                line.push_str(&format!("[{}]", v.escape_ascii()));
            }
        }
        lines.push(line);
    }
    lines
}

/// A node id: mostly one of the game's, sometimes one deleted or never
/// made.
fn some_node(edit: &EditableGame, rng: &mut Rng) -> EditId {
    let ids: Vec<EditId> = edit.nodes().collect();
    if rng.below(16) == 0 {
        // Perhaps deleted, perhaps past the end: both are refused.
        let index = rng.below(ids.len() + 4);
        return edit
            .nodes()
            .nth(index)
            .unwrap_or_else(|| EditId::new(index + 1000));
    }
    *rng.pick(&ids)
}

/// Applies one edit drawn from `rng`: what it was, and whether it was
/// done.
fn one_edit(edit: &mut EditableGame, rng: &mut Rng, input: &[u8]) -> (String, bool) {
    let node = some_node(edit, rng);
    let ident = *rng.pick(&IDENTS);
    match rng.below(12) {
        0 | 1 => {
            let raw: Vec<u8> = if rng.below(3) == 0 && !input.is_empty() {
                let from = rng.below(input.len());
                let len = rng.below(12).min(input.len() - from);
                input[from..from + len].to_vec()
            } else {
                rng.pick(&RAWS).to_vec()
            };
            let done = edit.set_raw(node, ident, &raw).is_ok();
            (
                format!("set_raw({node:?}, {ident}, b\"{}\")", raw.escape_ascii()),
                done,
            )
        }
        2 => {
            let text = *rng.pick(&TEXTS);
            let done = edit.set(node, ident, text).is_ok();
            (format!("set({node:?}, {ident}, {text:?})"), done)
        }
        3 => {
            let p = Point {
                x: rng.below(21) as u8,
                y: rng.below(21) as u8,
            };
            let mv = if rng.below(5) == 0 {
                Move::Pass
            } else {
                Move::Play(p)
            };
            let color = if rng.below(2) == 0 {
                Color::Black
            } else {
                Color::White
            };
            let ident = if color == Color::Black { "B" } else { "W" };
            let done = edit.set(node, ident, mv).is_ok();
            (format!("set({node:?}, {ident}, {mv:?})"), done)
        }
        4 => {
            let done = edit.remove(node, ident).is_ok();
            (format!("remove({node:?}, {ident})"), done)
        }
        5 => {
            let index = rng.below(4);
            let done = edit.add_child(node, index).is_ok();
            (format!("add_child({node:?}, {index})"), done)
        }
        6 => {
            let done = edit.delete(node).is_ok();
            (format!("delete({node:?})"), done)
        }
        7 => {
            let to = some_node(edit, rng);
            let index = rng.below(4);
            let done = edit.move_to(node, to, index).is_ok();
            (format!("move_to({node:?}, {to:?}, {index})"), done)
        }
        8 => {
            let index = rng.below(4);
            let done = edit.set_child_index(node, index).is_ok();
            (format!("set_child_index({node:?}, {index})"), done)
        }
        9 => {
            let done = edit.promote(node).is_ok();
            (format!("promote({node:?})"), done)
        }
        10 => {
            let text = *rng.pick(&TEXTS);
            let done = edit.append_comment(node, text).is_ok();
            (format!("append_comment({node:?}, {text:?})"), done)
        }
        _ => {
            let t = Transform {
                symmetry: *rng.pick(&Symmetry::ALL),
                swap_colors: rng.below(2) == 0,
            };
            let done = edit.transform(t).is_ok();
            (format!("transform({t:?})"), done)
        }
    }
}
