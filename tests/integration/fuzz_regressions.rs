//! Replays every minimized fuzz crash in `fuzz/regressions/` through the
//! checks of all the fuzz targets (`sgf_grove::oracle`, the very functions
//! the targets call), and names each one as its own test
//! (`fuzz_crash_<hash>`) with a sentence on what it exercises. The seeds in
//! `corpus/` go through the `events` target's check too.

use sgf_grove::oracle;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::Duration;

fn regressions_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions")
}

/// Every check of every fuzz target.
fn check(input: &[u8]) {
    oracle::lexer::check_lexer(input);
    oracle::parse::check_parse(input);
    oracle::roundtrip::check_roundtrip(input);
    oracle::typed::check_typed(input);
    oracle::events::check(input);
    oracle::write_modes::check_write_modes(input);
    oracle::edit::check_edit_roundtrip(input);
    oracle::repair::check_repair(input);
    oracle::replay::check_replay(input);
    oracle::semantic::check_semantic(input);
    oracle::inplace::check_inplace(input);
    #[cfg(feature = "archives")]
    oracle::inputs::check_inputs(input);
    #[cfg(feature = "index")]
    oracle::index::check_index(input);
}

/// How long one input may take: a fuzz-found hang must fail the test, not
/// stall the whole run.
const TIME_LIMIT: Duration = Duration::from_secs(20);

/// Runs [`check`] on another thread; `Err` with a reason when it panics or
/// takes longer than [`TIME_LIMIT`] (the thread is then left behind).
fn check_in_time(input: Vec<u8>) -> Result<(), String> {
    let (done, wait) = mpsc::channel();
    thread::spawn(move || {
        let result = catch_unwind(AssertUnwindSafe(|| check(&input)));
        let _ = done.send(result.is_ok());
    });
    match wait.recv_timeout(TIME_LIMIT) {
        Ok(true) => Ok(()),
        Ok(false) | Err(RecvTimeoutError::Disconnected) => Err("panicked".to_string()),
        Err(RecvTimeoutError::Timeout) => Err(format!("still running after {TIME_LIMIT:?}")),
    }
}

/// Runs the checks on `fuzz/regressions/<name>`.
fn replay(name: &str) {
    let path = regressions_dir().join(name);
    let input = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if let Err(why) = check_in_time(input) {
        panic!("{name}: {why}");
    }
}

/// The regression files, sorted; dot-files (`.gitkeep`) are not inputs.
fn regression_files() -> Vec<PathBuf> {
    let dir = regressions_dir();
    assert!(dir.is_dir(), "{} is missing", dir.display());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.is_file())
        .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .collect();
    files.sort();
    files
}

#[test]
fn replay_all_regressions() {
    let files = regression_files();
    let mut failed = Vec::new();
    for path in &files {
        let input = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if let Err(why) = check_in_time(input) {
            failed.push(format!(
                "{}: {why}",
                path.file_name().unwrap().to_string_lossy()
            ));
        }
    }
    println!("replayed {} fuzz regressions", files.len());
    assert!(failed.is_empty(), "fuzz regressions failing: {failed:#?}");
}

/// The hand-written seeds of the fuzz targets, `corpus/*.sgf`, sorted.
fn seed_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        .collect();
    files.sort();
    files
}

/// Every seed and every regression: the events read one by one tell the
/// same story as the tree built from them (`oracle::events`).
#[test]
fn events_agree_with_the_tree_on_every_seed() {
    let seeds = seed_files();
    assert!(seeds.len() >= 40, "only {} seeds in corpus/", seeds.len());
    let mut failed = Vec::new();
    for path in seeds.iter().chain(&regression_files()) {
        let input = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let (done, wait) = mpsc::channel();
        thread::spawn(move || {
            let ok = catch_unwind(AssertUnwindSafe(|| oracle::events::check(&input))).is_ok();
            let _ = done.send(ok);
        });
        match wait.recv_timeout(TIME_LIMIT) {
            Ok(true) => {}
            Ok(false) | Err(RecvTimeoutError::Disconnected) => {
                failed.push(path.display().to_string())
            }
            Err(RecvTimeoutError::Timeout) => failed.push(format!("{}: too slow", path.display())),
        }
    }
    assert!(
        failed.is_empty(),
        "events and tree disagree on: {failed:#?}"
    );
}

// One test per minimized crash.

/// `((;a))` nesting: a variation with only an inner variation must keep that node (f44da74).
#[test]
fn fuzz_crash_97d6dbc2() {
    replay("parse_97d6dbc2.sgf");
}

/// A variation whose first node starts with FF/GM, written `(;FF[`, must not re-parse as a game.
#[test]
fn fuzz_crash_c86c384a() {
    replay("roundtrip_c86c384a.sgf");
}

/// A root whose value ends in a Big5 lead byte before `CA[Big5]`: read a
/// character at a time, the `CA` disappears into the value, which used to
/// flip the mode back and forth for ever (036abe2).
#[test]
fn fuzz_crash_6e562364() {
    replay("typed_6e562364.sgf");
}

/// A GB2312 root with a second value whose last byte is a lead byte: the
/// bytewise first reading finds a stray `]`, the character-wise second
/// reading does not, and strict mode must not keep the first reading's error.
#[test]
fn fuzz_crash_9dc50f5c() {
    replay("parse_9dc50f5c.sgf");
}

/// A GBK game whose last value is cut off after the lead byte of a
/// two-byte character: that byte is left out of the value, or written back
/// it would swallow the closing `]`.
#[test]
fn fuzz_crash_e6f1d3c1() {
    replay("roundtrip_e6f1d3c1.sgf");
}

/// A GB18030 root whose `CA` comes after non-ASCII values, which read one
/// way byte by byte and another character by character: the values before
/// `CA` are now read byte by byte and the charset's mode applies from `CA`
/// on, so the tree written back is read the same way again.
#[test]
fn fuzz_crash_5fc509e7() {
    replay("roundtrip_5fc509e7.sgf");
}

/// A Big5 root whose `CA` follows ASCII properties, with a value after it that reads differently byte by byte (a resync point) and character by character (a repeated `FF`): merged, the repeat would land before `CA`; the writer now keeps such a root's occurrences apart.
#[test]
fn fuzz_crash_04f806cd() {
    replay("roundtrip_04f806cd.sgf");
}

/// The same class in a long multi-game input.
#[test]
fn fuzz_crash_34c75ac7() {
    replay("roundtrip_34c75ac7.sgf");
}

/// The same class with `CA[GB18030]` and a second value after `SZ`.
#[test]
fn fuzz_crash_80e3c9cc() {
    replay("roundtrip_80e3c9cc.sgf");
}

/// The same class with `CA` repeated in the root.
#[test]
fn fuzz_crash_987dd75e() {
    replay("roundtrip_987dd75e.sgf");
}

/// The same class, found in the same run.
#[test]
fn fuzz_crash_a1bcd9a7() {
    replay("roundtrip_a1bcd9a7.sgf");
}

/// The same class, found in the same run.
#[test]
fn fuzz_crash_aae92cb7() {
    replay("roundtrip_aae92cb7.sgf");
}

/// The same class, with fifteen `CA[` in the input.
#[test]
fn fuzz_crash_faaab74b() {
    replay("roundtrip_faaab74b.sgf");
}

/// Junk between two values of a property before `CA[Big5]` (`F[]\xff[]`):
/// the first reading took the junk byte for part of the values and kept
/// the game byte-wise, while the tree written back (junk dropped) was read a
/// character at a time, and a cut `[\xc8` at the end swallowed the `]` the
/// writer added. `CA` now looks at the values before it, not at the bytes
/// between them.
#[test]
fn fuzz_crash_06f869aa() {
    replay("roundtrip_06f869aa.sgf");
}

/// The same class in a long mutated collection (`CA[Big5]`).
#[test]
fn fuzz_crash_77b9a901() {
    replay("roundtrip_77b9a901.sgf");
}

/// The same class with `CA[GBK]`; written twice, the outputs differed by one
/// `)`.
#[test]
fn fuzz_crash_819414c4() {
    replay("roundtrip_819414c4.sgf");
}

/// The same class with `CA[GB18030]`.
#[test]
fn fuzz_crash_c53a65cc() {
    replay("roundtrip_c53a65cc.sgf");
}

/// The four inputs above, each minimised to the same shape: junk between
/// values before `CA`, a lead byte cut at the end of the input. `CA`'s own
/// values are read before the switch, byte by byte, so the cut byte stays.
#[test]
fn junk_between_values_before_ca_is_not_a_value_byte() {
    for input in [
        &b";F[]\xff[]CA[Big5][\xc8"[..],
        b";F[]\xff[]CA[Big5][\xea",
        b";M[][]\xd1[]CA[GBK][\xc5",
        b";F[]\xa4[]CA[GB18030][\xb9",
    ] {
        check(input);
        let doc = sgf_grove::parse(input).unwrap();
        let root = doc.collection().games().next().unwrap().root();
        let last = root.raw_values("CA").last().map(|v| v.raw());
        assert_eq!(last, Some(&input[input.len() - 1..]));
    }
}

/// A value without an identifier before `CA[Big5]` that reads differently
/// a character at a time (a lead byte 0x90 takes the `\` after it, so a
/// later `\]` escapes the `]` and the value would swallow `CA`): the reading
/// switches at `CA`, so what stands before it is read byte by byte both in
/// the input and in the tree written back (which drops that value).
#[test]
fn fuzz_crash_20aae439() {
    replay("roundtrip_20aae439.sgf");
    let input = [
        &b";F[]\\["[..],
        &[b'\\'; 6],
        &[0x90; 5],
        &[b'\\'; 12],
        b"]CA[Big5]PL[]PL[",
    ]
    .concat();
    check(&input);
    let doc = sgf_grove::parse(&input).unwrap();
    let root = doc.collection().games().next().unwrap().root();
    assert_eq!(root.raw("CA"), Some(&b"Big5"[..]));
    let idents: Vec<_> = root.properties().map(|p| p.ident().to_string()).collect();
    assert_eq!(idents, ["F", "CA", "PL"]);
}

/// A `(` followed by a NUL byte after a `)`: a stream restarted there
/// reads no game, while the stream read from the start finds one there.
/// A parallel scan never cuts there (the node holds no root property),
/// and the restart oracle now restarts only where a cut can be.
#[test]
fn fuzz_crash_810b3c52() {
    replay("parse_810b3c52.sgf");
    let input = std::fs::read(regressions_dir().join("parse_810b3c52.sgf")).unwrap();
    assert_eq!(&input[405..407], b"(\0");
    let mut stream = sgf_grove::StreamParser::new(&input[..]);
    let mut starts = Vec::new();
    while let Some(Ok(coll)) = stream.next_game() {
        starts.extend(coll.games().map(|g| coll.stream_offset(g.span().start)));
    }
    assert!(starts.contains(&405), "{starts:?}");
}

/// A variation's first node holding a root property (`GM`), with no `;`
/// before it: a new game, cut at the variation's `(`. The stream parser,
/// stopping after the game before, took the next one up from that `(`
/// between games, reading the missing `;` a second time (and, before a
/// lower-case identifier, the `(` as junk), where the whole parse goes on
/// in the new game. Found by the stream oracle (the stream's games and
/// warnings are the whole parse's) on `roundtrip_a1bcd9a7.sgf`.
#[test]
fn stream_resync_at_variation_6e1e06ed() {
    replay("parse_6e1e06ed.sgf");
    let input = std::fs::read(regressions_dir().join("parse_6e1e06ed.sgf")).unwrap();
    let mut stream = sgf_grove::StreamParser::new(&input[..]);
    let mut kinds = Vec::new();
    while let Some(Ok(coll)) = stream.next_game() {
        kinds.extend(coll.warnings().iter().map(|w| w.kind));
    }
    let missing = kinds
        .iter()
        .filter(|&&k| k == sgf_grove::WarningKind::MissingSemicolon)
        .count();
    assert_eq!(missing, 1, "{kinds:?}");
}

/// A root read a character at a time (`CA[GBK]`) with `PW` given twice:
/// fourteen values, then one more after the charset. Canonical mode keeps
/// such a root's occurrences apart, joins the first occurrence's values
/// and leaves the second out, reported as dropped; the write-modes oracle
/// expected either the first value or every value joined. It now accepts
/// the first values joined when every value after them was reported.
#[test]
fn canonical_join_of_the_first_occurrence_2a3eff29() {
    replay("write_modes_2a3eff29.sgf");
    let input = std::fs::read(regressions_dir().join("write_modes_2a3eff29.sgf")).unwrap();
    let doc = sgf_grove::parse(&input).unwrap();
    let game = doc
        .games()
        .find(|g| {
            g.root()
                .property("PW")
                .is_some_and(|p| p.values().count() == 15)
        })
        .expect("the game with fifteen PW values");
    let options = sgf_grove::writer::WriteOptions::new().canonical(true);
    let mut writer = sgf_grove::Writer::with_options(Vec::new(), options);
    writer.write_game(game).unwrap();
    let dropped = writer.take_dropped();
    let out = writer.into_inner();
    let joined = b"PW[White\nko\nlo";
    assert!(
        out.windows(joined.len()).any(|w| w == joined),
        "{}",
        out.escape_ascii()
    );
    assert!(
        dropped
            .iter()
            .any(|d| d.ident == "PW" && d.value == b"\xc4\xa5\xdb\xdb"),
        "{dropped:?}"
    );
}

/// Every regression file has a test of its own above.
#[test]
fn every_regression_is_named() {
    let source = include_str!("fuzz_regressions.rs");
    for path in regression_files() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            source.contains(&format!("replay(\"{name}\")")),
            "{name} has no test of its own"
        );
    }
}

/// A value cut at `(;` and a root property decided on bytes past the first
/// `]` after it, which the writer moves (merged repeats): the written tree
/// cut the value elsewhere. Only the `(;`'s first property counts now.
#[test]
fn fuzz_crash_d5db78e6() {
    replay("roundtrip_d5db78e6.sgf");
}

/// `Reader::skip_game` did not record the properties of the nodes it
/// skipped, so a repeated property went unreported (strict mode passed
/// where a full read failed) and, later, a root property in a skipped
/// variation did not start a new game.
#[test]
fn events_skip_repeat() {
    replay("events_skip_repeat.sgf");
}

/// A game cut off inside a variation ended with `GameEnd` and no
/// `VariationEnd`.
#[test]
fn events_cut_variation() {
    replay("events_cut_variation.sgf");
}

/// Input that is binary data by its first bytes (here NULs) fails with
/// `NotText`, which the parse oracle did not yet count among the errors a
/// lenient parse may give.
#[test]
fn fuzz_crash_9069ca78() {
    replay("parse_9069ca78.sgf");
}

/// A node after variations that held nodes of the open game (`((;)…`
/// nested in a variation with no node of its own) carried a root property:
/// the game was cut at the outer variation's `(`, before those nodes, so a
/// node lay outside its game's span. It is cut at the node now.
#[test]
fn fuzz_crash_fb9c1469() {
    replay("parse_fb9c1469.sgf");
}

/// A written tree happened to hold `ustar` where a tar header has it and
/// was refused as a tar archive. Input that starts like SGF (`(` after a
/// BOM or whitespace) is read as SGF, whatever bytes follow.
#[test]
fn fuzz_crash_c9e70a5a() {
    replay("roundtrip_c9e70a5a.sgf");
}

/// A game read on trial (no `CA`, invalid UTF-8 ahead) whose root's
/// identifier, `C\0A`, was read twice: its NUL bytes reported before the
/// trial, its spelling during it, at a smaller offset, so the warning went
/// in before earlier ones; reading the game again dropped an earlier
/// warning instead of that one. A rollback now drops exactly the warnings
/// kept since its mark.
#[test]
fn fuzz_crash_a68f073d() {
    replay("events_a68f073d.sgf");
}

/// A game without `CA` read byte by byte (damaged UTF-8), its last value
/// cut by the end of the input: written back, the value's closing `]` made
/// `\xb3]` a Big5 character, the written game was detected as Big5 and read
/// a character at a time. The writer now records the charset a game was
/// read in as `CA` when its bytes are not UTF-8, so detection is not run
/// again on bytes the writer changed.
#[test]
fn fuzz_crash_9871c516() {
    replay("roundtrip_9871c516.sgf");
}

/// The same class from the other side: junk between nodes (dropped by the
/// writer) had kept a game from being detected as Big5; written without
/// it, the game was detected. Pinned by the `CA` the writer adds.
#[test]
fn fuzz_crash_94de1380() {
    replay("roundtrip_94de1380.sgf");
}

/// A root whose `CA` names no known charset (`CA[B]`): detection decided,
/// and the writer, seeing a `CA`, recorded nothing, so the written bytes
/// were detected differently. A `CA` naming no usable charset now gives
/// way to the one the game was read in.
#[test]
fn fuzz_crash_82dfce81() {
    replay("roundtrip_82dfce81.sgf");
}

/// A root whose `CA` names no known charset, over bytes detected as Big5:
/// the unknown `CA` fixed the reading byte by byte while the text was
/// decoded as Big5, a charset the writer cannot record without changing
/// how the values split, so the written game was detected again, as
/// something else. A `CA` naming no usable charset now leaves the game to
/// detection for its reading too, as if it had no `CA`.
#[test]
fn fuzz_crash_19d88791() {
    replay("roundtrip_19d88791.sgf");
}

/// A game read as detected Shift_JIS whose root, read a character at a
/// time, holds a `CA[UTF8]` that the reading on trial never saw (a `;`
/// was inside a value there, so the `CA` was in a second node): the game
/// was not read in the charset its `CA` names, and the writer, seeing a
/// usable `CA`, recorded nothing; written without the junk after it, the
/// game was detected as something else. Such a `CA` now gives way to the
/// charset the game was read in. Found by the `write_modes` target.
#[test]
fn fuzz_crash_2e4bd2f2() {
    replay("roundtrip_2e4bd2f2.sgf");
}

/// The same class as `fuzz_crash_2e4bd2f2`, with a `CA` that names the
/// very charset detection chose: it still did not decide the reading (it
/// was in a variation when read on trial), so the next reading, of bytes
/// without the junk that had swayed detection, chose another. The writer
/// now records the charset whenever detection decided the reading.
#[test]
fn fuzz_crash_679c3e90() {
    replay("roundtrip_679c3e90.sgf");
}

/// A Big5 root read a character at a time whose `FF` occurs twice (the
/// first value swallowed `;GM[1`): transcoded to UTF-8 the writer kept the
/// occurrences apart, as for a root read in Big5, and the written root,
/// read byte by byte, merged them, so writing it again differed. Transcoded
/// roots merge repeats.
#[test]
fn fuzz_crash_cf708fe7() {
    replay("write_modes_cf708fe7.sgf");
}

/// Damaged UTF-8 with an escaped byte that is not ASCII (`\xef\xbf\\\xbd`):
/// canonical mode dropped the `\`, which joined the bytes into one valid
/// character where the reader had decoded two U+FFFD. An escape before a
/// byte that is not ASCII (and a soft line break) now stays unless the
/// text is transcoded.
#[test]
fn fuzz_crash_8a8409a5() {
    replay("write_modes_8a8409a5.sgf");
}

/// A move written `W[\\dd]`, malformed (moves read their bytes as they
/// are): canonical mode dropped the `\\`, which made it a valid move.
/// Escapes are now rewritten only in text (and the text halves of compose
/// values, and unknown properties).
#[test]
fn fuzz_crash_c8452874() {
    replay("write_modes_c8452874.sgf");
}

/// A root whose `CA[UTF-8]` comes after text read on trial and detected
/// as Big5: the game is read in Big5 whatever its `CA` says. Canonical
/// mode dropped the second value of its `B`, detection ran again on the
/// written bytes and chose UTF-8. The modes that change bytes now record
/// the detected charset in place of such a `CA`.
#[test]
fn fuzz_crash_2312bd05() {
    replay("write_modes_2312bd05.sgf");
}

/// A GB18030 root (read a character at a time) with `AB` twice, the first
/// value malformed: the root keeps occurrences apart, and canonical mode
/// expanded the second one, valid on its own, while a reader sees one
/// malformed list. A point list is now checked whole.
#[test]
fn fuzz_crash_4bac1b51() {
    replay("write_modes_4bac1b51.sgf");
}

/// An EUC-KR comment with an escaped ASCII letter after a lead byte: in
/// UHC an ASCII letter can be the second byte of a character, so the
/// `\\` canonical mode dropped joined the two into one. Escapes are now
/// rewritten only in UTF-8 and single-byte charsets (and in transcoded
/// text).
/// An edited game written directly in canonical mode and through a parse
/// gave different bytes: a plain node whose value holds an unescaped `]`
/// was copied as it stood, its property order left as written.
#[test]
fn fuzz_crash_31814cec() {
    replay("edit_roundtrip_31814cec.sgf");
}

#[test]
fn fuzz_crash_1e482e50() {
    replay("write_modes_1e482e50.sgf");
}

/// A game without `CA` read in a guessed charset, edited (its pinned `CA`
/// removed, a non-ASCII byte set): read back, another charset is guessed
/// and recorded as `CA`; the check now asks only that the values read
/// the same.
#[test]
fn fuzz_crash_fe944423() {
    replay("edit_roundtrip_fe944423.sgf");
}

/// A root whose `CA` names no usable charset (`CA[zgb18030]`), read in a
/// guessed charset: that `CA` decides nothing (values are read byte by
/// byte), and read back after edits another guess may replace it.
#[test]
fn fuzz_crash_0f2aa48f() {
    replay("edit_roundtrip_0f2aa48f.sgf");
}

/// `SZ[9\x1dAW[!gg:ii]…` (a cut value holding brackets) transposed: its
/// halves exchanged put the `]` before its `[`, and the value read back
/// ended there. `SZ` is now exchanged only when both halves are numbers,
/// and a transformed value that would not read back stays as it was.
#[test]
fn fuzz_crash_0381565f() {
    replay("edit_roundtrip_0381565f.sgf");
}

/// A GB18030 root with `SZ` repeated after its `CA`: its occurrences are
/// kept apart (as the writer keeps them) while the root is read a
/// character at a time; once its `CA` is removed a reader merges them, so
/// the editable root merges them too.
#[test]
fn fuzz_crash_391e835d() {
    replay("edit_roundtrip_391e835d.sgf");
}

/// A Shift_JIS game (detected, its `CA` recorded), its `CA` removed: read
/// back, detection read it a character at a time again and a value set
/// meanwhile (ending in a lead byte before `]`) swallowed the rest. A
/// charset read a character at a time now keeps its `CA`, and a value set
/// in a game without one must read the same in both ways.
#[test]
fn fuzz_crash_f342c71f() {
    replay("edit_roundtrip_f342c71f.sgf");
}

/// `split-bw` on a root holding `B`, `W` and `CA[GB18030]` moved the root
/// and game-info properties into the second node; the next pass then read
/// the game without its `CA` and repaired again. They stay in the root.
#[test]
fn fuzz_crash_repair_2e086b84() {
    replay("repair_2e086b84.sgf");
}

/// `split-bw` on a root read after its `CA[GB18030]` moved a repeated
/// unknown property (kept as two occurrences there) into a node of its
/// own, where the next parse merged them: the second pass wrote other
/// bytes with no change reported. In the root only the second move leaves.
#[test]
fn fuzz_crash_repair_89cd9415() {
    replay("repair_89cd9415.sgf");
}

/// Every repair on a headless root whose `CA[Big5]` comes after a `C`:
/// repairing the output again must change nothing.
#[test]
fn fuzz_crash_repair_d9e575b3() {
    replay("repair_d9e575b3.sgf");
}

/// `empty-nodes` removed the empty node the parser puts before a node
/// holding `CA` at the start of a variation, and the repaired output read
/// as two games: such an empty node stays.
#[test]
fn fuzz_crash_repair_abb6c90c() {
    replay("repair_abb6c90c.sgf");
}

/// An empty node kept before a node holding `CA` that `split-bw` splits
/// (the `CA` goes to the second half): the second pass removed it, so
/// repairing was not idempotent; such an empty node is now removed at once.
#[test]
fn fuzz_crash_repair_aff38492() {
    replay("repair_aff38492.sgf");
}

/// `single-value` (when it joined texts) joined two comments with a line
/// break, and the second held `(;GM[1]`: the repaired output read as two
/// games. Texts are no longer joined.
#[test]
fn fuzz_crash_repair_529d1cfc() {
    replay("repair_529d1cfc.sgf");
}

/// `single-value` (when it joined texts) put a line break before `;B[` in
/// a joined comment, and the reader took the value for one missing its
/// `]`: repairing again changed the bytes. Texts are no longer joined.
#[test]
fn fuzz_crash_repair_3239c0de() {
    replay("repair_3239c0de.sgf");
}

/// `root-move` on a root read a character at a time after its `CA[Big5]`,
/// with `B[\xa4]` before the `CA` (read byte by byte there): in a node of
/// its own the move would be read a character at a time, `\xa4]` one Big5
/// character, and the output held another number of games. A move that
/// would read differently stays in the root.
#[test]
fn fuzz_crash_repair_e4e7160a() {
    replay("repair_e4e7160a.sgf");
}

/// The semantic oracle compared a game with its editable copy, whose root
/// pins the charset it decoded with (a `CA` of its own): the copy of an
/// `FF[3]` game with a malformed `CA` in a later node did not give that
/// node's `ff4_property_in_old_ff`. The version checks are compared only
/// when both roots say the same `FF` and `CA`.
#[test]
fn fuzz_crash_semantic_32a787db() {
    replay("semantic_32a787db.sgf");
}
