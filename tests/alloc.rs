//! A warm [`Parser`] parses without touching the heap (DESIGN.md, "Budgets"):
//! once its arena has grown to fit an input, parsing that input again and
//! walking every node, property and value of the result make no allocation;
//! nor does decoding every value as its type, text included (text that
//! changes goes to the parser's arena, which keeps its blocks), and reading
//! every game's information, in UTF-8 and in GB2312 and Shift_JIS. Warm
//! means: after one identical parse and walk.
//!
//! A test binary of its own, because it installs a counting
//! `#[global_allocator]`. Only allocations made on the thread that armed the
//! counter are counted, so that the test harness's own threads do not
//! disturb the count.

use sgf_grove::game::GameInfo;
use sgf_grove::value::{Move, TypedValue};
use sgf_grove::{Collection, GameTree, Parser, WarningKind};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Forwards to [`System`], counting `alloc`, `alloc_zeroed` and `realloc`
/// calls made on an armed thread.
struct Counting;

thread_local! {
    // Const-initialised and without `Drop`: using them never allocates.
    static ARMED: Cell<bool> = const { Cell::new(false) };
    // Per thread, so that tests running side by side do not count each
    // other's allocations.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn note() {
    if ARMED.try_with(Cell::get).unwrap_or(false) {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
    }
}

// SAFETY: every method forwards its arguments unchanged to `System`, which
// implements `GlobalAlloc` correctly; counting touches no memory handed out.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: forwards to `System` under the caller's `alloc` contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: forwards to `System` under the caller's `alloc_zeroed` contract.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        // SAFETY: `ptr` came from `System` (every allocation is forwarded), and
        // the caller upholds the rest of `realloc`'s contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System` (every allocation is forwarded), and
        // the caller upholds the rest of `dealloc`'s contract.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Counts the allocations `f` makes on this thread.
fn count<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = ALLOCATIONS.with(Cell::get);
    ARMED.with(|a| a.set(true));
    let out = f();
    ARMED.with(|a| a.set(false));
    (out, ALLOCATIONS.with(Cell::get) - before)
}

const GAMES: usize = 4;
const MOVES: usize = 300;
/// Moves before which a two-move side variation branches off.
const BRANCHES: [usize; 3] = [50, 120, 200];

/// The warnings of one game, in file order: `US[Matsuyama[3d]]`,
/// `CoPyright[..]`, the second `AB`.
const GAME_WARNINGS: [WarningKind; 3] = [
    WarningKind::UnescapedBracket,
    WarningKind::LowercaseInIdent,
    WarningKind::RepeatedProperty,
];

fn point(i: usize) -> String {
    let letter = |n: usize| char::from(b'a' + (n % 19) as u8);
    format!("{}{}", letter(i), letter(i / 19))
}

/// A collection of real-looking games: a root full of game-info properties
/// (one repeated, one spelled in lower case, one with an unescaped `]`),
/// 300 moves with comments holding escapes, soft line breaks and UTF-8, and
/// side variations.
fn realistic_input() -> Vec<u8> {
    let mut out = String::new();
    for g in 0..GAMES {
        out.push_str(&format!(
            "(;GM[1]FF[4]CA[UTF-8]AP[CGoban:3]ST[2]\nRU[Japanese]SZ[19]KM[6.50]HA[0]TM[1800]OT[5x30 byo-yomi]\n\
             PW[White {g}]PB[Black {g}]WR[5d]BR[4d]DT[2024-05-0{g}]EV[Test Cup]RO[{g}]PC[Internet]\n\
             RE[W+1.5]GN[Game {g}]US[Matsuyama[3d]]CoPyright[public domain]\n\
             AB[aa:cc]AW[dd][de]AB[ff]C[Opening comment: \\] escaped, \\\\ too,\\\nsoft break.]\n"
        ));
        let mut open = 0;
        for i in 0..MOVES {
            if BRANCHES.contains(&i) {
                out.push_str(&format!(
                    "(;B[{}]C[side line];W[{}])(",
                    point(i + 61),
                    point(i + 62)
                ));
                open += 1;
            }
            let colour = if i % 2 == 0 { 'B' } else { 'W' };
            out.push_str(&format!(";{colour}[{}]", point(i)));
            if i % 2 == 1 {
                out.push_str(&format!("{}L[{}]", colour, 1800 - i));
            }
            if i % 25 == 0 {
                out.push_str(&format!("C[Move {i}: a \\] bracket, 好手 \\\\ here]"));
            }
            if i % 10 == 9 {
                out.push('\n');
            }
        }
        out.push_str(&")".repeat(open));
        out.push_str(")\n");
    }
    out.into_bytes()
}

/// Which parts of a walk to run, for bisecting where an allocation happens.
#[derive(Clone, Copy, Debug)]
enum Walk {
    /// `descendants()` only.
    Nodes,
    /// Plus `properties()` and `ident()`.
    Properties,
    /// Plus `values()` and `raw()`.
    Values,
    /// Plus `get_raw` of a few identifiers.
    GetRaw,
}

const WALKS: [Walk; 4] = [Walk::Nodes, Walk::Properties, Walk::Values, Walk::GetRaw];

/// Walks the collection as far as `walk` says; returns a checksum.
fn walk(coll: Collection<'_, '_>, walk: Walk) -> usize {
    let mut sum = 0;
    for game in coll.games() {
        for node in game.root().descendants() {
            sum += 1;
            if matches!(walk, Walk::Nodes) {
                continue;
            }
            for prop in node.properties() {
                sum += prop.ident().len() + prop.ident_raw().len();
                if matches!(walk, Walk::Properties) {
                    continue;
                }
                for value in prop.values() {
                    sum += value.raw().len();
                }
            }
            if matches!(walk, Walk::GetRaw) {
                for ident in ["B", "W", "C", "AB", "CP", "US"] {
                    sum += node.raw(ident).map_or(0, <[u8]>::len);
                }
            }
        }
    }
    sum
}

/// Whether the collection holds the expected warnings, checked without
/// allocating.
fn warnings_ok(coll: Collection<'_, '_>) -> bool {
    coll.warnings().iter().map(|w| w.kind()).eq(GAME_WARNINGS
        .iter()
        .copied()
        .cycle()
        .take(GAMES * GAME_WARNINGS.len()))
}

#[test]
fn warm_parser_parses_and_walks_without_allocating() {
    let input = realistic_input();
    // The counter itself works: a known allocation is seen, and so is the
    // growth of a cold parser's arena.
    let (v, n) = count(|| Vec::<u8>::with_capacity(16));
    drop(v);
    assert_eq!(n, 1, "the counting allocator missed an allocation");
    let mut parser = Parser::new();
    let (ok, n) = count(|| parser.parse(&input).is_ok());
    assert!(ok && n > 0, "a cold parser should allocate its arena");

    // Warm up, and learn the checksums.
    let mut sums = [0; WALKS.len()];
    for _ in 0..5 {
        let coll = parser.parse(&input).expect("parses");
        assert_eq!(coll.len(), GAMES);
        assert!(
            warnings_ok(coll),
            "unexpected warnings: {:?}",
            coll.warnings()
        );
        for (sum, w) in sums.iter_mut().zip(WALKS) {
            *sum = walk(coll, w);
        }
    }
    let nodes = parser.parse(&input).unwrap().node_count();
    assert_eq!(nodes, GAMES * (1 + MOVES + 2 * BRANCHES.len()));

    // Each phase counted on its own, so that a failure says where.
    let mut parse_allocs = 0;
    let mut walk_allocs = [0; WALKS.len()];
    let mut bad_warnings = 0;
    let mut bad_sums = 0;
    for _ in 0..20 {
        let (coll, n) = count(|| parser.parse(&input));
        parse_allocs += n;
        let coll = coll.expect("parses");
        let (ok, n) = count(|| warnings_ok(coll));
        parse_allocs += n;
        bad_warnings += usize::from(!ok);
        for (i, w) in WALKS.into_iter().enumerate() {
            let (sum, n) = count(|| walk(coll, w));
            walk_allocs[i] += n;
            bad_sums += usize::from(sum != sums[i]);
        }
    }
    assert_eq!(bad_warnings, 0, "a warm parse reported other warnings");
    assert_eq!(bad_sums, 0, "a warm parse walked to other checksums");
    let report: Vec<String> = WALKS
        .iter()
        .zip(walk_allocs)
        .map(|(w, n)| format!("walk up to {w:?}: {n}"))
        .collect();
    assert!(
        parse_allocs == 0 && walk_allocs.iter().all(|&n| n == 0),
        "allocations in 20 warm runs: parse: {parse_allocs}; {}",
        report.join("; ")
    );
}

/// A checksum of `value`.
fn weigh(value: &TypedValue<'_>) -> usize {
    match *value {
        TypedValue::None => 1,
        TypedValue::Number(n) => n.unsigned_abs() as usize,
        TypedValue::Real(r) => r as usize,
        TypedValue::Double(d) => d as usize,
        TypedValue::Color(c) => c as usize + 1,
        TypedValue::SimpleText(t) | TypedValue::Text(t) | TypedValue::GameSpecific(t) => {
            t.len() + t.chars().filter(|c| !c.is_ascii()).count()
        }
        TypedValue::Point(p) | TypedValue::Move(Move::Play(p)) => p.x as usize * 52 + p.y as usize,
        TypedValue::Move(Move::Pass) => 7,
        TypedValue::Compose(a, b) => weigh(a) * 3 + weigh(b),
        // `TypedValue` is non-exhaustive for callers outside the crate.
        #[allow(unreachable_patterns)]
        _ => 0,
    }
}

/// A checksum of a game's information, read through every accessor that
/// does not collect a list (the dates are a `Vec`).
fn weigh_info(info: &GameInfo<'_>) -> usize {
    let text = |t: Option<&str>| t.map_or(0, str::len);
    let mut sum = 0;
    for player in [info.black(), info.white()] {
        sum += text(player.name) + text(player.team) + player.names().count();
        sum += player.rank.map_or(0, |r| r.is_known() as usize + 1);
    }
    sum += info
        .komi_checked()
        .map_or(0, |k| k.map_or(1, |k| k.normalised() as usize + 2));
    sum += info.komi_points().map_or(0, |k| k as usize);
    sum += info.handicap().and_then(|h| h.stones()).unwrap_or(0) as usize;
    sum += info.result().map_or(0, |r| {
        r.is_parsed() as usize + r.winner().map_or(0, |c| c as usize)
    });
    sum += info.rules().map_or(0, |_| 1) + text(info.rules_text());
    sum += info
        .time_limit_checked()
        .map_or(0, |t| t.map_or(1, |t| t.seconds as usize));
    sum += info
        .application()
        .map_or(0, |a| a.name.len() + a.version.map_or(0, |v| v.len()));
    for t in [
        info.overtime(),
        info.event(),
        info.round(),
        info.place(),
        info.game_name(),
        info.game_comment(),
        info.copyright(),
        info.annotator(),
        info.source(),
        info.user(),
        info.opening(),
    ] {
        sum += text(t);
    }
    sum
}

/// Decodes every value of every property of every node of `game` as its
/// type, every move, and the game's information and charset; a checksum.
fn typed_game(game: GameTree<'_, '_>) -> usize {
    let mut sum = weigh_info(&game.game_info()) + game.charset().name().len();
    for node in game.nodes() {
        if let Ok(Some((color, m))) = node.played() {
            sum += color as usize + weigh(&TypedValue::Move(m));
        }
        for prop in node.properties() {
            match prop.typed() {
                Ok(Some(values)) => {
                    for value in values {
                        // An error would allocate (it is boxed): the inputs
                        // here have none, which the checksum would show.
                        sum += value.map_or(1_000_000, |v| weigh(&v));
                    }
                }
                Ok(None) => sum += prop.ident().len(),
                Err(_) => sum += 1_000_000,
            }
        }
        sum += node.text("C").map_or(0, str::len);
    }
    sum
}

fn typed_walk(coll: Collection<'_, '_>) -> usize {
    coll.games().map(typed_game).sum()
}

/// Games in GB2312 and Shift_JIS, bytes written by hand: names, comments
/// with escapes and CRLF line breaks, game information, and in Shift_JIS
/// `表` (0x95 0x5C), whose second byte is a backslash that escapes nothing.
fn legacy_input() -> Vec<u8> {
    let mut out = Vec::new();
    for g in 0..3u8 {
        // 中国 围棋 黑棋 in GB2312.
        out.extend_from_slice(b"(;GM[1]FF[4]CA[GB2312]SZ[19]KM[7.5]HA[0]RU[Chinese]RE[B+R]\r\n");
        out.extend_from_slice(b"PB[\xd6\xd0\xb9\xfa]PW[\xce\xa7\xc6\xe5 ");
        out.push(b'0' + g);
        out.extend_from_slice(b"]BR[9d]WR[1p]EV[\xba\xda\xc6\xe5 \\] cup]AP[Go\xce\xa7:1.0]\r\n");
        out.extend_from_slice(
            b"C[\xba\xda\xc6\xe5\r\n\xd6\xd0\xb9\xfa \\] \\\\ end]GC[line\r\nnext]",
        );
        out.extend_from_slice(b"LB[dd:\xd6\xd0][pp:A]AB[aa:cc]");
        for i in 0..40u8 {
            let colour = if i % 2 == 0 { b'B' } else { b'W' };
            out.extend_from_slice(&[b';', colour, b'[', b'a' + i % 19, b'a' + (i / 19), b']']);
            if i % 10 == 3 {
                out.extend_from_slice(b"C[\xba\xda\\]\r\n\xc6\xe5]N[\xd6\xd0\tx]");
            }
        }
        out.extend_from_slice(b")\n");
        // 表示 (0x95 0x5C 0x8E 0xA6) and 日本 (0x93 0xFA 0x96 0x7B) in Shift_JIS.
        out.extend_from_slice(b"(;GM[1]FF[4]CA[Shift_JIS]SZ[19]KM[6.5]RE[W+2.5]DT[2024-01-0");
        out.push(b'1' + g);
        out.extend_from_slice(
            b"]\r\nPB[\x95\x5c]PW[\x93\xfa\x96\x7b \x95\x5c\x8e\xa6]BR[2k]WR[3d*]\r\n",
        );
        out.extend_from_slice(
            b"C[\x95\x5c\\]\x95\x5c\\]\r\n\x93\xfa\x96\x7b]GN[\x95\x5c\x8e\xa6:x]",
        );
        for i in 0..40u8 {
            let colour = if i % 2 == 0 { b'B' } else { b'W' };
            out.extend_from_slice(&[b';', colour, b'[', b's' - i % 19, b'a' + (i / 19), b']']);
            if i % 10 == 5 {
                out.extend_from_slice(b"C[\x93\xfa\x96\x7b\r\n\x95\x5c]");
            }
        }
        out.extend_from_slice(b")\n");
    }
    out
}

/// Parses and walks `input` typed: once cold, once to warm up, then 10
/// times counted; the allocations of the counted runs, and whether their
/// checksums all equal the warm-up's.
fn typed_allocations(input: &[u8]) -> (usize, bool, usize) {
    let mut parser = Parser::new();
    let warm = typed_walk(parser.parse(input).expect("parses"));
    let again = typed_walk(parser.parse(input).expect("parses"));
    assert_eq!(warm, again);
    let mut allocations = 0;
    let mut same = true;
    for _ in 0..10 {
        let (sum, n) = count(|| typed_walk(parser.parse(input).expect("parses")));
        allocations += n;
        same &= sum == warm;
    }
    (allocations, same, warm)
}

#[test]
fn warm_parser_decodes_every_value_typed_without_allocating() {
    let input = realistic_input();
    let (allocations, same, sum) = typed_allocations(&input);
    assert!(same, "a warm parse decoded to other checksums");
    assert!(sum > 0);
    assert_eq!(allocations, 0, "allocations in 10 warm typed runs (UTF-8)");
}

#[test]
fn warm_parser_decodes_gb2312_and_shift_jis_without_allocating() {
    let input = legacy_input();
    // The text is what the charsets say, the escapes and the `表` read right.
    let mut parser = Parser::new();
    let coll = parser.parse(&input).expect("parses");
    assert_eq!(coll.len(), 6);
    let gb = coll.game(0).unwrap();
    let sjis = coll.game(1).unwrap();
    assert_eq!(gb.charset().name(), "GBK");
    assert_eq!(sjis.charset().name(), "Shift_JIS");
    let (gb_root, sjis_root) = (gb.root(), sjis.root());
    assert_eq!(gb_root.simple_text("PB"), Some("中国"));
    assert_eq!(gb_root.text("C"), Some("黑棋\n中国 ] \\ end"));
    assert_eq!(gb.game_info().event(), Some("黑棋 ] cup"));
    assert_eq!(sjis_root.simple_text("PB"), Some("表"));
    assert_eq!(sjis_root.text("C"), Some("表]表]\n日本"));
    assert_eq!(sjis.game_info().white().name, Some("日本 表示"));
    assert_eq!(
        sjis.game_info().result().unwrap().winner(),
        Some(sgf_grove::value::Color::White)
    );
    assert!(coll.warnings().is_empty(), "{:?}", coll.warnings());
    assert_eq!(
        gb_root
            .main_line()
            .filter(|n| n.played().unwrap().is_some())
            .count(),
        40
    );
    assert_eq!(
        sjis_root
            .main_line()
            .filter(|n| n.played().unwrap().is_some())
            .count(),
        40
    );

    let (allocations, same, sum) = typed_allocations(&input);
    assert!(same, "a warm parse decoded to other checksums");
    assert!(sum > 0);
    assert_eq!(
        allocations, 0,
        "allocations in 10 warm typed runs (GB2312, Shift_JIS)"
    );
}

/// The same games without `CA`: each is read on trial, its charset detected
/// (GB18030, Shift_JIS), the Shift_JIS ones read again a character at a
/// time; a warm parser does all that, and decodes every value, without a
/// heap allocation.
#[test]
fn warm_parser_detects_charsets_without_allocating() {
    let with_ca = legacy_input();
    let mut input = Vec::with_capacity(with_ca.len());
    let mut rest = &with_ca[..];
    while let Some(at) = rest.windows(3).position(|w| w == b"CA[") {
        input.extend_from_slice(&rest[..at]);
        let close = rest[at..].iter().position(|&b| b == b']').unwrap();
        rest = &rest[at + close + 1..];
    }
    input.extend_from_slice(rest);
    let mut parser = Parser::new();
    let coll = parser.parse(&input).expect("parses");
    assert_eq!(coll.len(), 6);
    let names: Vec<_> = coll.games().map(|g| g.charset().name()).collect();
    assert_eq!(names, ["gb18030", "Shift_JIS"].repeat(3));
    let detected = coll
        .warnings()
        .iter()
        .filter(|w| w.kind == WarningKind::DetectedCharset)
        .count();
    assert_eq!(detected, 6, "{:?}", coll.warnings());
    let sjis = coll.game(1).unwrap().root();
    assert_eq!(sjis.text("C"), Some("表]表]\n日本"));

    let (allocations, same, sum) = typed_allocations(&input);
    assert!(same, "a warm parse decoded to other checksums");
    assert!(sum > 0);
    assert_eq!(allocations, 0, "allocations in 10 warm typed runs");
}

/// Every event of `input`, counted with the properties and values of each
/// node, through a reader made in `storage`; the storage comes back.
fn read_events(
    input: &[u8],
    storage: sgf_grove::events::ReaderStorage,
    roots_only: bool,
) -> (usize, sgf_grove::events::ReaderStorage) {
    use sgf_grove::events::{Event, Reader};
    let options = sgf_grove::ParseOptions::default();
    let mut reader = Reader::with_storage(input, &options, storage);
    let mut n = 0;
    while let Some(event) = reader.next().expect("reads") {
        n += 1;
        if let Event::Node(node) = event {
            for prop in node.properties() {
                n += prop.values().map(|v| v.raw().len() + 1).sum::<usize>();
            }
            if roots_only {
                reader.skip_game().expect("skips");
            }
        }
    }
    (n + reader.warnings().len(), reader.into_storage())
}

#[test]
fn warm_event_reader_reads_without_allocating() {
    // A small input after a big one: the storage the big one grew serves
    // both, and the events are those of a reader made afresh.
    let big = realistic_input();
    let small = legacy_input();
    for roots_only in [false, true] {
        let fresh_big = read_events(&big, Default::default(), roots_only).0;
        let fresh_small = read_events(&small, Default::default(), roots_only).0;
        let (_, storage) = read_events(&big, Default::default(), roots_only);
        let (_, storage) = read_events(&small, storage, roots_only);
        let ((got_big, storage), n_big) = count(|| read_events(&big, storage, roots_only));
        let ((got_small, _), n_small) = count(|| read_events(&small, storage, roots_only));
        assert_eq!(
            (got_big, got_small),
            (fresh_big, fresh_small),
            "roots_only {roots_only}"
        );
        // Every move read, or each root alone (properties and values).
        let least = if roots_only {
            GAMES * 10
        } else {
            GAMES * MOVES
        };
        assert!(fresh_big > least, "the input is read: {fresh_big}");
        assert_eq!(
            (n_big, n_small),
            (0, 0),
            "allocations, roots_only {roots_only}"
        );
    }
}
