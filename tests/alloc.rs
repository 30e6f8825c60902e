//! A warm [`Parser`] parses without touching the heap (DESIGN.md, "Budgets"):
//! once its arena has grown to fit an input, parsing that input again and
//! walking every node, property and value of the result make no allocation.
//!
//! A test binary of its own, because it installs a counting
//! `#[global_allocator]`. Only allocations made on the thread that armed the
//! counter are counted, so that the test harness's own threads do not
//! disturb the count.

use sgf_grove::{Collection, Parser, WarningKind};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Forwards to [`System`], counting `alloc`, `alloc_zeroed` and `realloc`
/// calls made on an armed thread.
struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    // Const-initialised and without `Drop`: reading it never allocates.
    static ARMED: Cell<bool> = const { Cell::new(false) };
}

fn note() {
    if ARMED.try_with(Cell::get).unwrap_or(false) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
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
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    ARMED.with(|a| a.set(true));
    let out = f();
    ARMED.with(|a| a.set(false));
    (out, ALLOCATIONS.load(Ordering::Relaxed) - before)
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
                    sum += node.get_raw(ident).map_or(0, <[u8]>::len);
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
