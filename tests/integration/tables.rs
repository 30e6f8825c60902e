//! `sgf_grove::table`: rows from hand-written games (Fox-like, KGS-like, a
//! handicap game, an invalid move, GB2312 text), every filter with its
//! parse errors and range edges, statistics merged equal to a sequential
//! run, JSON Lines and CSV read back, Parquet read back with the parquet
//! crate's own reader, and the real corpus (skipped with a message when
//! absent, an error when `CI` is set).

use crate::corpus_pass::{Check, Corpus, File};
use sgf_grove::table::{
    CsvWriter, Filter, GameRow, JsonLinesWriter, MoveRow, Reason, ResultKind, RowWriter, Stats,
    COLUMNS, MOVE_COLUMNS,
};
use sgf_grove::text::CharsetSource;
use sgf_grove::value::Color;
use sgf_grove::{Parser, StreamParser};
use std::sync::Mutex;

/// Every game of `input` as a row, numbered from 0, with `source`.
fn rows_of(input: &[u8], source: &str) -> Vec<GameRow> {
    let doc = sgf_grove::parse(input).expect("parses");
    doc.games()
        .enumerate()
        .map(|(i, g)| {
            let offset = g.span().start as u64;
            GameRow::from_game(g, source, offset).with_id(i as u64)
        })
        .collect()
}

fn row_of(input: &[u8]) -> GameRow {
    let mut rows = rows_of(input, "test.sgf");
    assert_eq!(rows.len(), 1);
    rows.remove(0)
}

const FOX: &str = "(;GM[1]FF[4]SZ[19]GN[]DT[2019-02-19]PB[相的佛陀]PW[zerobot]BR[9段]WR[P9段]\
KM[375]HA[0]RU[Chinese]AP[GNU Go:3.8]RE[W+R]TM[60]\n;B[pd];W[dd];B[pq];W[dp];B[tt])";

const KGS: &str = "(;GM[1]FF[4]CA[UTF-8]AP[CGoban:3]ST[2]RU[Japanese]SZ[19]KM[0.50]TM[300]\
OT[5x30 byo-yomi]PW[guxxan]PB[zchen]WR[7d]BR[5d?]DT[2017-01-01]\
PC[The KGS Go Server at http://www.gokgs.com/]EV[KGS Open, \"final\"]RO[5 (final)]\
RE[W+Resign];B[qd];W[dc];B[pp](;W[dp]C[main])(;W[cp]LB[cp:A]))";

const HANDICAP: &str = "(;GM[1]FF[4]SZ[19]HA[4]KM[0.5]RU[AGA]AB[dd][pd][dp][pp]PB[Kyu]BR[12k]\
PW[Dan]WR[3d]RE[B+12.5]DT[2001-05-06,07];W[qf];B[nc];W[qc])";

#[test]
fn fox_like_row() {
    let row = row_of(FOX.as_bytes());
    assert_eq!(
        (row.id, row.source.as_str(), row.game, row.offset),
        (0, "test.sgf", 0, 0)
    );
    assert_eq!((row.board_cols, row.board_rows), (19, 19));
    assert_eq!(row.handicap, Some(0));
    assert_eq!(row.komi, Some(375.0)); // as written
    assert_eq!(row.komi_points, Some(7.5)); // ×50 under Chinese rules
    assert_eq!(row.black_name.as_deref(), Some("相的佛陀"));
    assert_eq!(row.black_rank.as_deref(), Some("9段"));
    assert_eq!(row.black_rank_value, Some(9));
    assert_eq!(row.white_rank.as_deref(), Some("P9段"));
    assert_eq!(row.white_rank_value, Some(19));
    assert_eq!(row.result.as_deref(), Some("W+R"));
    assert_eq!(row.result_winner, Some(Color::White));
    assert_eq!(row.result_kind, Some(ResultKind::Resignation));
    assert_eq!(row.result_margin, None);
    assert_eq!(row.date.as_deref(), Some("2019-02-19"));
    assert_eq!(row.dates, ["2019-02-19"]);
    assert_eq!(row.rules.as_deref(), Some("Chinese"));
    assert_eq!(row.game_name, None); // GN[] is blank
    assert_eq!(row.info("GN"), Some("")); // but present in `info`
    assert_eq!(row.info("SZ"), Some("19"));
    assert_eq!(row.application.as_deref(), Some("GNU Go"));
    assert_eq!(row.application_version.as_deref(), Some("3.8"));
    assert_eq!(row.charset_declared, None);
    assert_eq!(row.charset, "UTF-8");
    assert_eq!(row.charset_source, CharsetSource::Detected);
    assert_eq!(row.move_count, 5);
    assert_eq!(row.invalid_move_count, 0);
    assert_eq!(
        (row.node_count, row.variation_count, row.warning_count),
        (6, 0, 0)
    );
    let last = row.moves[4];
    assert_eq!(
        (last.ply, last.color, last.x, last.y, last.is_pass),
        (5, Color::Black, None, None, true)
    );
    assert_eq!(row.moves[0].coordinate(), "pd");
    assert_eq!((row.moves[0].x, row.moves[0].y), (Some(15), Some(3)));
}

#[test]
fn kgs_like_row_with_variations() {
    let row = row_of(KGS.as_bytes());
    assert_eq!(row.komi, Some(0.5));
    assert_eq!(row.komi_points, Some(0.5));
    assert_eq!(row.handicap, None); // no HA
    assert_eq!(row.black_rank_value, Some(5)); // 5d?
    assert_eq!(row.white_rank_value, Some(7));
    assert_eq!(row.result_kind, Some(ResultKind::Resignation));
    assert_eq!(row.event.as_deref(), Some("KGS Open, \"final\""));
    assert_eq!(row.round.as_deref(), Some("5 (final)"));
    assert_eq!(
        row.place.as_deref(),
        Some("The KGS Go Server at http://www.gokgs.com/")
    );
    assert_eq!(row.application.as_deref(), Some("CGoban"));
    assert_eq!(row.charset_declared.as_deref(), Some("UTF-8"));
    assert_eq!(row.charset_source, CharsetSource::Declared);
    // Main line: B, W, B, then the first variation's W.
    assert_eq!(row.move_count, 4);
    assert_eq!((row.node_count, row.variation_count), (6, 1));
    let idents: Vec<&str> = row.info.iter().map(|(i, _)| *i).collect();
    assert_eq!(
        idents,
        [
            "SZ", "PB", "BR", "PW", "WR", "KM", "RE", "DT", "RU", "EV", "RO", "PC", "AP", "TM",
            "OT"
        ]
    );
}

#[test]
fn handicap_row() {
    let row = row_of(HANDICAP.as_bytes());
    assert_eq!(row.handicap, Some(4));
    assert_eq!(row.rules.as_deref(), Some("AGA"));
    assert_eq!(
        (row.black_rank_value, row.white_rank_value),
        (Some(-12), Some(3))
    );
    assert_eq!(row.result_winner, Some(Color::Black));
    assert_eq!(row.result_kind, Some(ResultKind::Points));
    assert_eq!(row.result_margin, Some(12.5));
    assert_eq!(row.dates, ["2001-05-06", "2001-05-07"]);
    assert_eq!(row.first_date().map(|d| d.year), Some(2001));
    // White moves first; the setup stones are no moves.
    assert_eq!(row.move_count, 3);
    assert_eq!(row.moves[0].color, Color::White);
    assert_eq!(row.moves[0].ply, 1);
}

#[test]
fn invalid_move_is_counted_and_keeps_its_ply() {
    // W[zz] is off a 9×9 board.
    let row = row_of(b"(;SZ[9];B[ee];W[zz];B[cc];W[])");
    assert_eq!(row.move_count, 3);
    assert_eq!(row.invalid_move_count, 1);
    let plies: Vec<u32> = row.moves.iter().map(|m| m.ply).collect();
    assert_eq!(plies, [1, 3, 4]);
    let doc = sgf_grove::parse(b"(;SZ[9];B[ee];W[zz];B[cc];W[])").unwrap();
    let game = doc.games().next().unwrap();
    assert_eq!(game.moves().count(), 4);
    assert_eq!(game.moves().filter(|m| m.is_err()).count(), 1);
}

#[test]
fn moves_of_other_games_are_not_read() {
    // Hex (GM[11]) writes cells as `a1`.
    let row = row_of(b"(;GM[11]SZ[11];B[a1];W[b2])");
    assert_eq!(row.game_type, 11);
    assert_eq!(
        (row.move_count, row.invalid_move_count, row.node_count),
        (0, 0, 3)
    );
    assert!(row.moves.is_empty());
    assert_eq!(row_of(b"(;B[aa])").game_type, 1);
}

#[test]
fn gb2312_game_is_decoded() {
    let (pb, _, _) = encoding_rs::GBK.encode("芈昱廷");
    let (ev, _, _) = encoding_rs::GBK.encode("第一届梦百合杯");
    let mut sgf = b"(;GM[1]CA[GB2312]SZ[19]PB[".to_vec();
    sgf.extend_from_slice(&pb);
    sgf.extend_from_slice(b"]PW[Ke Jie]EV[");
    sgf.extend_from_slice(&ev);
    sgf.extend_from_slice(b"]RE[B+R];B[pd])");
    assert!(std::str::from_utf8(&sgf).is_err());
    let row = row_of(&sgf);
    assert_eq!(row.black_name.as_deref(), Some("芈昱廷"));
    assert_eq!(row.event.as_deref(), Some("第一届梦百合杯"));
    assert_eq!(row.charset_declared.as_deref(), Some("GB2312"));
    assert_eq!(row.charset, "GBK");
    assert_eq!(row.charset_source, CharsetSource::Declared);

    // Without CA: detected (which charset wins on so little text is the
    // detector's business, not the row's).
    let mut sgf2 = b"(;GM[1]SZ[19]PB[".to_vec();
    sgf2.extend_from_slice(&pb);
    sgf2.extend_from_slice(b"]EV[");
    sgf2.extend_from_slice(&ev);
    sgf2.extend_from_slice(b"];B[pd])");
    let row = row_of(&sgf2);
    assert_eq!(row.charset_declared, None);
    assert_eq!(row.charset_source, CharsetSource::Detected);
    assert!(row.black_name.is_some());
}

#[test]
fn stream_rows_keep_offsets_indexes_and_warnings() {
    let input = b"junk(;GM[1];B[aa])\n(;GaMe[1];B[bb];W[cc])\n(;B[dd]";
    let mut stream = StreamParser::new(&input[..]);
    let mut rows = Vec::new();
    while let Some(coll) = stream.next_game() {
        let coll = coll.unwrap();
        for game in coll.games() {
            let offset = coll.stream_offset(game.span().start) as u64;
            rows.push(GameRow::from_game(game, "s.sgf", offset));
        }
    }
    let seen: Vec<(u64, u64, u32)> = rows
        .iter()
        .map(|r| (r.game, r.offset, r.warning_count))
        .collect();
    // junk before the first; a lower-case identifier; an unclosed tree.
    assert_eq!(seen, [(0, 4, 1), (1, 19, 1), (2, 42, 1)]);
    // The same games parsed whole give the same rows.
    let whole = rows_of(input, "s.sgf");
    for (a, b) in rows.iter().zip(&whole) {
        assert_eq!(
            (a.game, a.offset, a.warning_count, a.move_count),
            (b.game, b.offset, b.warning_count, b.move_count)
        );
    }
}

// ---------------------------------------------------------------------------
// Filters.
// ---------------------------------------------------------------------------

fn filter(pairs: &[(&str, &str)]) -> Filter {
    let mut f = Filter::new();
    for (name, value) in pairs {
        f.set(name, value).unwrap_or_else(|e| panic!("{e}"));
    }
    f
}

/// Whether the single game of `sgf` passes `pairs`.
fn verdict(pairs: &[(&str, &str)], sgf: &str) -> Result<(), Reason> {
    let doc = sgf_grove::parse(sgf.as_bytes()).unwrap();
    let game = doc.games().next().unwrap();
    filter(pairs).check(&GameRow::from_game(game, "f.sgf", 0), game)
}

#[test]
fn filter_size() {
    assert_eq!(verdict(&[("size", "19")], FOX), Ok(()));
    assert_eq!(verdict(&[("size", "9,13")], FOX), Err(Reason::Size));
    assert_eq!(verdict(&[("size", "19x13")], "(;SZ[19:13])"), Ok(()));
    assert_eq!(
        verdict(&[("size", "13x19")], "(;SZ[19:13])"),
        Err(Reason::Size)
    );
    assert_eq!(verdict(&[("size", "19")], "(;GM[1])"), Ok(())); // no SZ: 19
}

#[test]
fn filter_handicap() {
    assert_eq!(verdict(&[("handicap", "2..9")], HANDICAP), Ok(()));
    assert_eq!(verdict(&[("handicap", "4")], HANDICAP), Ok(()));
    assert_eq!(
        verdict(&[("handicap", "..3")], HANDICAP),
        Err(Reason::Handicap)
    );
    assert_eq!(
        verdict(&[("handicap", "5..")], HANDICAP),
        Err(Reason::Handicap)
    );
    assert_eq!(verdict(&[("handicap", "0")], FOX), Ok(())); // HA[0]
    assert_eq!(verdict(&[("handicap", "0")], KGS), Ok(())); // no HA counts as 0
    assert_eq!(
        verdict(&[("handicap", "0..9")], "(;HA[many])"),
        Err(Reason::Handicap)
    );
}

#[test]
fn filter_komi_edges_and_fox_scaling() {
    assert_eq!(verdict(&[("komi", "6.5..7.5")], FOX), Ok(())); // 375 = 7.5 points
    assert_eq!(verdict(&[("komi", "7.5")], FOX), Ok(()));
    assert_eq!(verdict(&[("komi", "..7.49")], FOX), Err(Reason::Komi));
    assert_eq!(verdict(&[("komi", "7.51..")], FOX), Err(Reason::Komi));
    assert_eq!(verdict(&[("komi", "..7")], KGS), Ok(()));
    assert_eq!(verdict(&[("komi", "-1..1")], "(;KM[-0.5])"), Ok(()));
    assert_eq!(verdict(&[("komi", "..100")], "(;GM[1])"), Err(Reason::Komi)); // no komi
}

#[test]
fn filter_rank_applies_to_both_players() {
    assert_eq!(verdict(&[("rank", "5d..9d")], KGS), Ok(())); // 5d? and 7d
    assert_eq!(verdict(&[("rank", "6d..9d")], KGS), Err(Reason::Rank)); // black is 5d
    assert_eq!(verdict(&[("rank", "9d..")], FOX), Ok(())); // 9d and 9p
    assert_eq!(verdict(&[("rank", "1p..")], FOX), Err(Reason::Rank)); // black is amateur
    assert_eq!(verdict(&[("rank", "12k..3d")], HANDICAP), Ok(()));
    assert_eq!(verdict(&[("rank", "10k..1k")], HANDICAP), Err(Reason::Rank));
    assert_eq!(
        verdict(&[("rank", "30k..9p")], "(;BR[5d])"),
        Err(Reason::Rank)
    ); // no WR
}

#[test]
fn filter_date() {
    assert_eq!(verdict(&[("date", "2019")], FOX), Ok(()));
    assert_eq!(verdict(&[("date", "2019-01-01..2019-02-19")], FOX), Ok(()));
    assert_eq!(verdict(&[("date", "2019-02-20..")], FOX), Err(Reason::Date));
    assert_eq!(verdict(&[("date", "2010..2015")], FOX), Err(Reason::Date));
    assert_eq!(verdict(&[("date", "..2001-05-06")], HANDICAP), Ok(())); // first date
    assert_eq!(
        verdict(&[("date", "2000..")], "(;DT[soon])"),
        Err(Reason::Date)
    );
}

#[test]
fn filter_player_event_rules() {
    assert_eq!(verdict(&[("player", "ZERO")], FOX), Ok(()));
    assert_eq!(verdict(&[("player", "佛陀")], FOX), Ok(()));
    assert_eq!(verdict(&[("player", "lee")], FOX), Err(Reason::Player));
    assert_eq!(verdict(&[("event", "kgs open")], KGS), Ok(()));
    assert_eq!(verdict(&[("event", "meijin")], KGS), Err(Reason::Event));
    assert_eq!(verdict(&[("event", "x")], FOX), Err(Reason::Event));
    assert_eq!(verdict(&[("rules", "japanese")], KGS), Ok(()));
    assert_eq!(verdict(&[("rules", "chinese,korean")], FOX), Ok(()));
    assert_eq!(verdict(&[("rules", "japanese")], FOX), Err(Reason::Rules));
    assert_eq!(verdict(&[("rules", "aga")], "(;GM[1])"), Err(Reason::Rules));
}

#[test]
fn filter_result_grammar() {
    let cases: &[(&str, &str, bool)] = &[
        ("W+R", FOX, true),
        ("W+", FOX, true),
        ("W", FOX, true),
        ("resign", FOX, true),
        ("B+", FOX, false),
        ("W+T", FOX, false),
        ("B+R,W+R", FOX, true),
        ("B+12.5", HANDICAP, true),
        ("B+12", HANDICAP, false),
        ("B+P", HANDICAP, true),
        ("points", HANDICAP, true),
        ("draw", "(;RE[Jigo])", true),
        ("draw", "(;RE[0])", true),
        ("void", "(;RE[Void])", true),
        ("unknown", "(;RE[?])", true),
        ("unknown", "(;RE[who knows])", true),
        ("time", "(;RE[W+Time])", true),
        ("forfeit", "(;RE[B+F])", true),
        ("other", "(;RE[B+])", true),
        ("none", "(;GM[1])", true),
        ("none", FOX, false),
        ("draw", "(;GM[1])", false),
    ];
    for &(spec, sgf, pass) in cases {
        let want = if pass { Ok(()) } else { Err(Reason::Result) };
        assert_eq!(verdict(&[("result", spec)], sgf), want, "{spec} on {sgf}");
    }
}

#[test]
fn filter_moves_edges() {
    assert_eq!(verdict(&[("moves", "5")], FOX), Ok(()));
    assert_eq!(verdict(&[("moves", "..5")], FOX), Ok(()));
    assert_eq!(verdict(&[("moves", "6..")], FOX), Err(Reason::Moves));
    assert_eq!(verdict(&[("moves", "0")], "(;GM[1])"), Ok(()));
}

#[test]
fn filter_has_and_lacks_need_the_game() {
    assert_eq!(verdict(&[("has", "LB")], KGS), Ok(())); // in a variation
    assert_eq!(verdict(&[("has", "lb"), ("has", "C")], KGS), Ok(()));
    assert_eq!(verdict(&[("has", "LB")], FOX), Err(Reason::Has));
    assert_eq!(verdict(&[("lacks", "C")], FOX), Ok(()));
    assert_eq!(verdict(&[("lacks", "C")], KGS), Err(Reason::Lacks));
    assert_eq!(
        verdict(&[("has", "LB"), ("lacks", "C")], KGS),
        Err(Reason::Lacks)
    );
    // `matches` alone does not look at the tree.
    let f = filter(&[("has", "LB")]);
    assert!(f.needs_game());
    assert_eq!(f.matches(&row_of(FOX.as_bytes())), Ok(()));
}

#[test]
fn filter_reports_the_first_failing_filter() {
    let all = [
        ("size", "9"),
        ("komi", "0..1"),
        ("player", "nobody"),
        ("lacks", "B"),
    ];
    assert_eq!(verdict(&all, FOX), Err(Reason::Size));
    assert_eq!(verdict(&all[1..], FOX), Err(Reason::Komi));
    assert_eq!(verdict(&all[2..], FOX), Err(Reason::Player));
    assert_eq!(verdict(&all[3..], FOX), Err(Reason::Lacks));
    assert_eq!(verdict(&[], FOX), Ok(()));
    assert!(Filter::new().is_empty());
}

#[test]
fn filter_parse_errors_say_what_and_why() {
    let mut f = Filter::new();
    let cases = [
        ("size", "0", "no board side"),
        ("size", "19x", "no board side"),
        ("handicap", "-1", "no whole number"),
        ("komi", "6.5..x", "`x` is no number"),
        ("komi", "7.5..6.5", "empty"),
        ("komi", "..", "at least one end"),
        ("rank", "strong..", "no kyu, dan or professional rank"),
        ("rank", "9d..5d", "empty"),
        ("date", "2019-02-30", "no date that exists"),
        ("date", "19/01/2019", "expected `YYYY`"),
        ("result", "B+X", "no way to win"),
        ("result", "maybe", "no result"),
        ("moves", "a..b", "no whole number"),
        ("rules", ",", "empty rule name"),
        ("player", "  ", "empty text"),
        ("has", "L1", "no property identifier"),
        ("colour", "B", "no such filter"),
    ];
    for (name, value, why) in cases {
        let err = f.set(name, value).unwrap_err();
        let text = err.to_string();
        assert!(text.contains(why), "{name}={value}: {text}");
        if name == "colour" {
            assert!(text.contains("\"colour\""), "{text}");
            continue;
        }
        assert!(text.contains(&format!("{value:?}")), "{text}");
        assert_eq!(err.filter(), name);
        assert_eq!(err.value(), value);
    }
    assert!(f.is_empty());
}

// ---------------------------------------------------------------------------
// Statistics.
// ---------------------------------------------------------------------------

/// A varied collection: every kind of result, sizes, komi, dates, players,
/// charsets, warnings.
fn varied_games() -> Vec<u8> {
    let mut all = Vec::new();
    for sgf in [FOX, KGS, HANDICAP] {
        all.extend_from_slice(sgf.as_bytes());
        all.push(b'\n');
    }
    let more = [
        "(;SZ[9]KM[7]PB[Lee]PW[Cho]RE[B+T]DT[1996];B[ee];W[cc])",
        "(;SZ[13]KM[6.5]PB[Cho]PW[Lee]RE[Draw]DT[2020-12-31];B[gg])",
        "(;SZ[19:13]RE[Void]PB[Lee]AP[Sabaki:0.5]CA[ISO-8859-1];B[aa])",
        "(;GaMe[1]KM[650]RU[Japanese]PB[Fox]PW[Lee]RE[W+0.5];B[pd]C[a, b];W[tt])",
        "(;SZ[19]PB[Lee]PW[X]RE[?]XX[private]MULTIGOGM[1];B[zz];W[dd](;B[ee])(;B[ff]))",
        "(;GM[1]RE[B+F]HA[2]AB[dd][pp];W[qq])",
    ];
    for sgf in more {
        all.extend_from_slice(sgf.as_bytes());
        all.push(b'\n');
    }
    all.extend_from_slice(b")) trailing junk");
    all
}

fn stats_of(input: &[u8], games: impl Fn(usize) -> bool) -> Stats {
    let doc = sgf_grove::parse(input).unwrap();
    let mut stats = Stats::new();
    for (i, game) in doc.games().enumerate() {
        if games(i) {
            stats.add_game(&GameRow::from_game(game, "v.sgf", 0), game);
        }
    }
    stats
}

#[test]
fn stats_merge_equals_sequential_byte_for_byte() {
    let input = varied_games();
    let n = sgf_grove::parse(&input).unwrap().games().count();
    assert_eq!(n, 9);
    let mut sequential = stats_of(&input, |_| true);
    sequential.add_file(input.len() as u64);
    sequential.add_rejection(Reason::Komi);
    sequential.add_failure("no_game_tree");
    let json = sequential.to_json();

    // Halves, merged either way round.
    for split in 0..=n {
        let mut a = stats_of(&input, |i| i < split);
        a.add_file(input.len() as u64);
        let mut b = stats_of(&input, |i| i >= split);
        b.add_rejection(Reason::Komi);
        b.add_failure("no_game_tree");
        let mut ab = a.clone();
        ab.merge(b.clone());
        assert_eq!(ab.to_json(), json, "split at {split}");
        let mut ba = b;
        ba.merge(a);
        assert_eq!(ba.to_json(), json, "split at {split}, merged the other way");
    }

    // Three parts, odd/even interleaved: associative.
    let parts: Vec<Stats> = (0..3)
        .map(|k| stats_of(&input, move |i| i % 3 == k))
        .collect();
    let mut left = parts[0].clone();
    left.merge(parts[1].clone());
    left.merge(parts[2].clone());
    let mut right_tail = parts[1].clone();
    right_tail.merge(parts[2].clone());
    let mut right = parts[0].clone();
    right.merge(right_tail);
    assert_eq!(left, right);
    assert_eq!(left.to_json(), stats_of(&input, |_| true).to_json());
}

#[test]
fn stats_report_counts() {
    let input = varied_games();
    let mut stats = stats_of(&input, |_| true).top_players(2);
    stats.add_file(input.len() as u64);
    stats.set_seconds(0.5);
    let r = stats.report();
    assert_eq!(
        (r.files, r.games, r.bytes, r.failed),
        (1, 9, input.len() as u64, 0)
    );
    assert_eq!(r.seconds, 0.5);
    assert_eq!(r.moves, 5 + 4 + 3 + 2 + 1 + 1 + 2 + 2 + 1);
    assert_eq!(r.invalid_moves, 1); // B[zz] on 19×19
    assert_eq!(r.variations, 2);
    let count = |list: &[sgf_grove::table::Count], v: &str| {
        list.iter().find(|c| c.value == v).map(|c| c.count)
    };
    assert_eq!(count(&r.board_sizes, "19x19"), Some(6));
    assert_eq!(count(&r.board_sizes, "19x13"), Some(1));
    assert_eq!(count(&r.results, "resignation"), Some(2));
    assert_eq!(count(&r.results, "none"), None);
    assert_eq!(count(&r.winners, "B"), Some(3));
    assert_eq!(count(&r.winners, "W"), Some(3));
    assert_eq!(count(&r.komi, "6.5"), Some(2)); // KM[6.5] and Fox's KM[650]
    assert_eq!(count(&r.komi_written, "650"), Some(1));
    assert_eq!(count(&r.rules, "none"), Some(5));
    assert_eq!(r.dates.first.as_deref(), Some("1996"));
    assert_eq!(r.dates.last.as_deref(), Some("2020-12-31"));
    assert_eq!(r.distinct_players, 10);
    assert_eq!(r.players.len(), 2);
    assert_eq!(
        (r.players[0].value.as_str(), r.players[0].count),
        ("Lee", 5)
    );
    assert_eq!(
        (r.players[1].value.as_str(), r.players[1].count),
        ("Cho", 2)
    );
    assert_eq!(count(&r.charsets.declared, "ISO-8859-1"), Some(1));
    assert_eq!(count(&r.charsets.used, "windows-1252"), Some(1));
    let b = r.properties.iter().find(|p| p.ident == "B").unwrap();
    assert_eq!((b.games, b.occurrences), (8, 13));
    assert!(r.properties.iter().any(|p| p.ident == "MULTIGOGM"));
    assert_eq!(r.properties[0].ident, "RE"); // in every game: the first
    assert!(r.properties.windows(2).all(|w| w[0].games >= w[1].games));
    // The lower-case identifier, and junk after the last game.
    assert_eq!(count(&r.warnings_by_kind, "lowercase_in_ident"), Some(1));
    assert_eq!(
        r.warnings,
        r.warnings_by_kind.iter().map(|c| c.count).sum::<u64>()
    );
    let text = stats.render_text();
    assert!(text.contains("games           9\n"), "{text}");
    assert!(text.contains("board sizes     19x19 6"), "{text}");
    let pretty = stats.to_json_pretty();
    let v: serde_json::Value = serde_json::from_str(&pretty).unwrap();
    for key in [
        "files", "games", "nodes", "bytes", "failed", "seconds", "moves",
    ] {
        assert!(v.get(key).is_some(), "{key}");
    }
}

#[test]
fn stats_stray_warnings_and_rows_alone() {
    let mut stream = StreamParser::new(&b"(;B[aa]) trailing junk )"[..]);
    let mut stats = Stats::new();
    while let Some(coll) = stream.next_game() {
        let coll = coll.unwrap();
        match coll.games().next() {
            Some(game) => stats.add_game(&GameRow::from_game(game, "s", 0), game),
            None => stats.add_stray_warnings(coll),
        }
    }
    let r = stats.report();
    assert_eq!(r.games, 1);
    assert!(r.warnings >= 1, "{r:?}");
    assert_eq!(
        r.warnings,
        r.warnings_by_kind.iter().map(|c| c.count).sum::<u64>()
    );

    let mut rows_only = Stats::new();
    rows_only.add_row(&row_of(KGS.as_bytes()));
    assert!(rows_only.report().properties.is_empty());
    assert_eq!(rows_only.report().moves, 4);
}

// ---------------------------------------------------------------------------
// Writers.
// ---------------------------------------------------------------------------

#[test]
fn jsonl_read_back() {
    let rows = rows_of(&varied_games(), "dir/v.sgf");
    let mut out = JsonLinesWriter::new(Vec::new());
    for row in &rows {
        out.write_row(row).unwrap();
    }
    out.finish().unwrap();
    let text = String::from_utf8(out.into_inner().unwrap()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), rows.len());
    for (line, row) in lines.iter().zip(&rows) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        let mut want = vec![
            "game",
            "id",
            "info",
            "moves",
            "normalized",
            "offset",
            "source",
        ];
        want.sort_unstable();
        let mut keys = keys;
        keys.sort_unstable();
        assert_eq!(keys, want);
        assert_eq!(v["id"], row.id);
        assert_eq!(v["source"], "dir/v.sgf");
        assert_eq!(v["offset"], row.offset);
        let n = &v["normalized"];
        assert_eq!(n.as_object().unwrap().len(), COLUMNS.len() - 4);
        assert_eq!(n["black_name"].as_str(), row.black_name.as_deref());
        assert_eq!(n["komi"].as_f64(), row.komi);
        assert_eq!(n["komi_points"].as_f64(), row.komi_points);
        assert_eq!(n["result_kind"].as_str(), row.result_kind.map(|k| k.code()));
        assert_eq!(n["move_count"], row.move_count);
        assert_eq!(
            n["dates"].as_array().map_or(0, |d| d.len()),
            row.dates.len()
        );
        for (ident, text) in &row.info {
            assert_eq!(v["info"][ident].as_str(), Some(text.as_str()));
        }
        let moves = v["moves"].as_array().unwrap();
        assert_eq!(moves.len(), row.moves.len());
        for (m, want) in moves.iter().zip(&row.moves) {
            assert_eq!(m[0], want.color.as_str());
            assert_eq!(m[1].as_str().unwrap(), want.coordinate());
        }
    }
    // The Fox game: a pass as "", komi as written.
    let fox: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(fox["moves"][4], serde_json::json!(["B", ""]));
    assert_eq!(fox["normalized"]["komi"], 375.0);
    assert_eq!(fox["info"]["KM"], "375");
    assert_eq!(fox["normalized"]["handicap"], 0);
    assert_eq!(fox["normalized"]["event"], serde_json::Value::Null);
}

#[test]
fn csv_read_back_with_quoting() {
    let tricky = "(;PB[Lee, \"the\" Sedol]PW[two\nlines]EV[a\r\nb]RE[B+R];B[pd];W[])";
    let mut input = varied_games();
    input.extend_from_slice(tricky.as_bytes());
    let rows = rows_of(&input, "a,b.sgf");
    let mut out = CsvWriter::with_moves(Vec::new(), Vec::new());
    for row in &rows {
        out.write_row(row).unwrap();
    }
    let (games, moves) = out.into_inner().unwrap();

    let mut reader = csv::Reader::from_reader(&games[..]);
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    let names: Vec<&str> = COLUMNS.iter().map(|c| c.name).collect();
    assert_eq!(header, names);
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(records.len(), rows.len());
    let col = |name: &str| names.iter().position(|n| *n == name).unwrap();
    for (rec, row) in records.iter().zip(&rows) {
        assert_eq!(rec.len(), COLUMNS.len());
        assert_eq!(&rec[col("source")], "a,b.sgf");
        assert_eq!(&rec[col("id")], row.id.to_string());
        assert_eq!(
            &rec[col("black_name")],
            row.black_name.as_deref().unwrap_or("")
        );
        assert_eq!(
            &rec[col("white_name")],
            row.white_name.as_deref().unwrap_or("")
        );
        assert_eq!(&rec[col("event")], row.event.as_deref().unwrap_or(""));
        assert_eq!(&rec[col("dates")], row.dates.join(","));
        assert_eq!(
            rec[col("komi")].parse::<f64>().ok(),
            row.komi,
            "komi of game {}",
            row.id
        );
        assert_eq!(&rec[col("move_count")], row.move_count.to_string());
    }
    let last = records.last().unwrap();
    assert_eq!(&last[col("black_name")], "Lee, \"the\" Sedol");
    assert_eq!(&last[col("white_name")], "two lines"); // SimpleText: newline → space
    assert_eq!(&last[col("event")], "a b");

    let moves = moves.unwrap();
    let mut reader = csv::Reader::from_reader(&moves[..]);
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    assert_eq!(
        header,
        MOVE_COLUMNS.iter().map(|c| c.name).collect::<Vec<_>>()
    );
    let moves: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let total: u32 = rows.iter().map(|r| r.move_count).sum();
    assert_eq!(moves.len(), total as usize);
    let all: Vec<&MoveRow> = rows.iter().flat_map(|r| &r.moves).collect();
    for (rec, m) in moves.iter().zip(all) {
        assert_eq!(&rec[0], m.game_id.to_string());
        assert_eq!(&rec[1], m.ply.to_string());
        assert_eq!(&rec[2], m.color.as_str());
        assert_eq!(&rec[3], m.x.map(|x| x.to_string()).unwrap_or_default());
        assert_eq!(&rec[5], if m.is_pass { "true" } else { "false" });
    }
}

#[cfg(feature = "parquet")]
mod parquet_files {
    use super::*;
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Float64Type, Int32Type, Int64Type};
    use arrow_array::{Array, RecordBatch};
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use sgf_grove::table::{ParquetOptions, ParquetWriter};
    use std::path::{Path, PathBuf};

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("sgf-grove-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    /// The batches of a Parquet file and its number of row groups.
    fn read(path: &Path) -> (Vec<RecordBatch>, usize) {
        let file = std::fs::File::open(path).unwrap();
        let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
        let groups = builder.metadata().num_row_groups();
        let batches = builder.build().unwrap().map(Result::unwrap).collect();
        (batches, groups)
    }

    #[test]
    fn parquet_read_back() {
        let dir = temp_dir("parquet");
        let mut input = Vec::new();
        for _ in 0..5 {
            input.extend_from_slice(&varied_games());
        }
        let rows = rows_of(&input, "v.sgf");
        assert_eq!(rows.len(), 45);
        // Small row groups: several of each, written as the rows come.
        let options = ParquetOptions::new().game_row_group(10).move_row_group(16);
        let mut out = ParquetWriter::create_dir(&dir, options).unwrap();
        for row in &rows {
            out.write_row(row).unwrap();
        }
        out.finish().unwrap();
        out.finish().unwrap(); // twice is harmless
        assert!(out.write_row(&rows[0]).is_err());

        let (games, groups) = read(&dir.join("games.parquet"));
        assert_eq!(groups, 5);
        let schema = games[0].schema();
        let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
        assert_eq!(names, COLUMNS.iter().map(|c| c.name).collect::<Vec<_>>());
        for (field, column) in schema.fields().iter().zip(COLUMNS.iter()) {
            assert_eq!(field.is_nullable(), column.nullable, "{}", column.name);
        }
        let total: usize = games.iter().map(|b| b.num_rows()).sum();
        assert_eq!(total, rows.len());
        let mut i = 0;
        for batch in &games {
            let id = batch
                .column_by_name("id")
                .unwrap()
                .as_primitive::<Int64Type>();
            let komi = batch
                .column_by_name("komi")
                .unwrap()
                .as_primitive::<Float64Type>();
            let black = batch
                .column_by_name("black_name")
                .unwrap()
                .as_string::<i32>();
            let cols = batch
                .column_by_name("board_cols")
                .unwrap()
                .as_primitive::<Int32Type>();
            let kind = batch
                .column_by_name("result_kind")
                .unwrap()
                .as_string::<i32>();
            let moves = batch
                .column_by_name("move_count")
                .unwrap()
                .as_primitive::<Int64Type>();
            for r in 0..batch.num_rows() {
                let row = &rows[i];
                assert_eq!(id.value(r), row.id as i64);
                assert_eq!(komi.is_null(r), row.komi.is_none());
                if let Some(k) = row.komi {
                    assert_eq!(komi.value(r), k);
                }
                assert_eq!(black.is_null(r), row.black_name.is_none());
                if let Some(b) = &row.black_name {
                    assert_eq!(black.value(r), b);
                }
                assert_eq!(cols.value(r), row.board_cols as i32);
                assert_eq!(
                    (!kind.is_null(r)).then(|| kind.value(r)),
                    row.result_kind.map(|k| k.code())
                );
                assert_eq!(moves.value(r), row.move_count as i64);
                i += 1;
            }
        }

        let (moves, groups) = read(&dir.join("moves.parquet"));
        let total: usize = moves.iter().map(|b| b.num_rows()).sum();
        let want: u32 = rows.iter().map(|r| r.move_count).sum();
        assert_eq!(total, want as usize);
        assert!(groups > 1, "{groups} row groups");
        let all: Vec<&MoveRow> = rows.iter().flat_map(|r| &r.moves).collect();
        let mut k = 0;
        for batch in &moves {
            let gid = batch.column(0).as_primitive::<Int64Type>();
            let ply = batch.column(1).as_primitive::<Int32Type>();
            let color = batch.column(2).as_string::<i32>();
            let x = batch.column(3).as_primitive::<Int32Type>();
            let pass = batch.column(5).as_boolean();
            for r in 0..batch.num_rows() {
                let m = all[k];
                assert_eq!(gid.value(r), m.game_id as i64);
                assert_eq!(ply.value(r), m.ply as i32);
                assert_eq!(color.value(r), m.color.as_str());
                assert_eq!(x.is_null(r), m.x.is_none());
                assert_eq!(pass.value(r), m.is_pass);
                k += 1;
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Long games with passes and values that are no move (plies that
    /// skip), many of them: more than a batch of games (4,096) and of
    /// moves (65,536) of the Parquet writer.
    fn long_games() -> Vec<u8> {
        let letters = b"abcdefghijklmnopqrs";
        let mut input = Vec::new();
        for game in 0..4200usize {
            input.extend_from_slice(b"(;GM[1]SZ[19]PB[p]");
            for ply in 0..(game % 40) {
                let color = if ply % 2 == 0 { "B" } else { "W" };
                let k = game * 7 + ply * 5;
                let value = match (game + ply) % 29 {
                    0 => String::new(),
                    1 => "zz".to_owned(),
                    _ => format!(
                        "{}{}",
                        letters[k % 19] as char,
                        letters[k / 19 % 19] as char
                    ),
                };
                input.extend_from_slice(format!(";{color}[{value}]").as_bytes());
            }
            input.extend_from_slice(b")\n");
        }
        input
    }

    /// Rows with their moves as [`MoveRow`]s or packed, written here or
    /// on the encoding thread: the same Parquet bytes all four ways, and
    /// the same JSON Lines and CSV either way.
    #[test]
    fn packed_rows_and_the_encoding_thread_write_the_same_bytes() {
        let input = long_games();
        let doc = sgf_grove::parse(&input).unwrap();
        let plain: Vec<GameRow> = doc
            .games()
            .enumerate()
            .map(|(i, g)| GameRow::from_game(g, "l.sgf", 0).with_id(i as u64))
            .collect();
        let packed: Vec<GameRow> = doc
            .games()
            .enumerate()
            .map(|(i, g)| GameRow::from_game_packed(g, "l.sgf", 0).with_id(i as u64))
            .collect();
        let moves: usize = plain.iter().map(|r| r.moves.len()).sum();
        assert!(moves > 65_536 && plain.len() > 4096, "{moves} moves");
        assert!(plain.iter().any(|r| r.invalid_move_count > 0));
        assert!(packed.iter().all(|r| r.moves.is_empty()));
        let parquet = |rows: &[GameRow], thread: bool| {
            let options = ParquetOptions::new().move_row_group(100_000);
            let mut out = ParquetWriter::new(Vec::new(), Some(Vec::new()), options).unwrap();
            if thread {
                out = out.encode_on_thread().unwrap();
            }
            for row in rows {
                out.write_row(row).unwrap();
            }
            out.into_inner().unwrap()
        };
        let want = parquet(&plain, false);
        assert!(want == parquet(&packed, false), "packed rows");
        assert!(want == parquet(&packed, true), "packed rows, on the thread");
        assert!(want == parquet(&plain, true), "plain rows, on the thread");

        let jsonl = |rows: &[GameRow]| {
            let mut out = JsonLinesWriter::new(Vec::new());
            for row in rows {
                out.write_row(row).unwrap();
            }
            out.finish().unwrap();
            out.into_inner().unwrap()
        };
        assert!(jsonl(&plain) == jsonl(&packed), "JSON Lines");
        let csv = |rows: &[GameRow]| {
            let mut out = CsvWriter::with_moves(Vec::new(), Vec::new());
            for row in rows {
                out.write_row(row).unwrap();
            }
            out.finish().unwrap();
            out.into_inner().unwrap()
        };
        assert!(csv(&plain) == csv(&packed), "CSV");
    }

    #[test]
    fn parquet_empty_and_without_moves() {
        let dir = temp_dir("parquet-empty");
        let mut out = ParquetWriter::create_dir(&dir, ParquetOptions::new().moves(false)).unwrap();
        out.finish().unwrap();
        assert!(!dir.join("moves.parquet").exists());
        let (batches, groups) = read(&dir.join("games.parquet"));
        assert_eq!(batches.iter().map(|b| b.num_rows()).sum::<usize>(), 0);
        assert_eq!(groups, 0);
        std::fs::remove_dir_all(&dir).unwrap();

        // In memory, through `into_inner`.
        let mut out =
            ParquetWriter::new(Vec::new(), Some(Vec::new()), ParquetOptions::new()).unwrap();
        out.write_row(&row_of(FOX.as_bytes())).unwrap();
        let (games, moves) = out.into_inner().unwrap();
        assert_eq!(&games[..4], b"PAR1");
        assert_eq!(&moves.unwrap()[..4], b"PAR1");
    }
}

// ---------------------------------------------------------------------------
// The real corpus.
// ---------------------------------------------------------------------------

/// What [`EveryGameARow`] adds up.
struct RowTally {
    games: usize,
    rows_moves: u64,
    tree_moves: u64,
    invalid: u64,
    even: Stats,
    odd: Stats,
    all: Stats,
    filter: Filter,
    kept: usize,
}

/// Every game of the corpus gives a row whose moves are the tree's, and
/// statistics merged from two halves equal those of the whole. A check of
/// the one pass over the corpus (`corpus_pass.rs`).
pub struct EveryGameARow(Mutex<RowTally>);

impl Default for EveryGameARow {
    fn default() -> EveryGameARow {
        let mut filter = Filter::new();
        filter.set("size", "19").unwrap();
        filter.set("rank", "1d..").unwrap();
        EveryGameARow(Mutex::new(RowTally {
            games: 0,
            rows_moves: 0,
            tree_moves: 0,
            invalid: 0,
            even: Stats::new(),
            odd: Stats::new(),
            all: Stats::new(),
            filter,
            kept: 0,
        }))
    }
}

impl Check for EveryGameARow {
    fn name(&self) -> &'static str {
        "real_corpus_every_game_yields_a_row"
    }

    fn file(&self, file: &File<'_>) {
        let Ok(coll) = file.parsed else {
            return;
        };
        let source = file.path.display().to_string();
        let mut t = self.0.lock().unwrap();
        let t = &mut *t;
        for game in coll.games() {
            let row = GameRow::from_game(game, &source, game.span().start as u64);
            assert_eq!(row.game as usize, game.index());
            assert_eq!(row.move_count as usize, row.moves.len());
            t.rows_moves += row.move_count as u64;
            t.invalid += row.invalid_move_count as u64;
            if game.game_type() == 1 {
                t.tree_moves += game.moves().count() as u64;
            } else {
                assert_eq!((row.move_count, row.invalid_move_count), (0, 0));
            }
            let half = if t.games.is_multiple_of(2) {
                &mut t.even
            } else {
                &mut t.odd
            };
            half.add_game(&row, game);
            t.all.add_game(&row, game);
            if t.filter.check(&row, game).is_ok() {
                t.kept += 1;
            }
            t.games += 1;
        }
    }

    fn finish(&self, _: &Corpus) {
        let mut t = self.0.lock().unwrap();
        let t = &mut *t;
        let (games, rows_moves, invalid, kept) = (t.games, t.rows_moves, t.invalid, t.kept);
        assert!(games >= 49_000, "{games} games");
        assert_eq!(rows_moves + invalid, t.tree_moves);
        let odd = std::mem::replace(&mut t.odd, Stats::new());
        t.even.merge(odd);
        assert_eq!(t.even.to_json(), t.all.to_json());
        let r = t.all.report();
        assert_eq!(r.games as usize, games);
        assert_eq!(r.moves, rows_moves);
        eprintln!(
            "corpus: {games} games, {rows_moves} moves ({invalid} invalid), {kept} 19x19 dan games"
        );
        assert!(kept > 1000, "{kept}");
    }
}

// ---------------------------------------------------------------------------
// Odd input: no panic anywhere.
// ---------------------------------------------------------------------------

/// Every hand-written case of `corpus/` and every fuzz regression, parsed
/// leniently, goes through rows, filters, statistics and both text writers.
#[test]
fn odd_inputs_never_panic() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    for dir in ["corpus", "fuzz/regressions"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "sgf") {
                paths.push(path);
            }
        }
    }
    paths.sort();
    assert!(paths.len() > 100, "{} inputs", paths.len());
    let mut filter = Filter::new();
    for (name, value) in [
        ("size", "19"),
        ("komi", "..100"),
        ("date", "1000.."),
        ("player", "a"),
        ("result", "B+,W+,draw,none"),
        ("has", "C"),
    ] {
        filter.set(name, value).unwrap();
    }
    let mut stats = Stats::new();
    let mut jsonl = JsonLinesWriter::new(Vec::new());
    let mut csv = CsvWriter::with_moves(Vec::new(), Vec::new());
    let mut parser = Parser::new();
    let mut rows = 0;
    for path in &paths {
        let bytes = std::fs::read(path).unwrap();
        stats.add_file(bytes.len() as u64);
        let coll = match parser.parse(&bytes) {
            Ok(coll) => coll,
            Err(e) => {
                stats.add_failure(e.kind().code());
                continue;
            }
        };
        for game in coll.games() {
            let row = GameRow::from_game(game, &path.display().to_string(), 0).with_id(rows);
            rows += 1;
            match filter.check(&row, game) {
                Ok(()) => stats.add_game(&row, game),
                Err(reason) => stats.add_rejection(reason),
            }
            jsonl.write_row(&row).unwrap();
            csv.write_row(&row).unwrap();
        }
    }
    let text = String::from_utf8(jsonl.into_inner().unwrap()).unwrap();
    assert_eq!(text.lines().count() as u64, rows);
    for line in text.lines() {
        serde_json::from_str::<serde_json::Value>(line).unwrap();
    }
    let (games, _) = csv.into_inner().unwrap();
    let records = csv::Reader::from_reader(&games[..]).records().count();
    assert_eq!(records as u64, rows);
    assert_eq!(stats.games() + stats.rejected(), rows);
    let _ = stats.render_text();
    serde_json::from_str::<serde_json::Value>(&stats.to_json()).unwrap();
}

#[test]
fn odd_filter_text_never_panics() {
    let names = [
        "size", "handicap", "komi", "rank", "date", "player", "result", "moves", "rules", "event",
        "has", "lacks", "", "SIZE",
    ];
    let odd = [
        "",
        " ",
        "..",
        "...",
        "..=",
        "=",
        "-",
        "+",
        ",",
        ",,",
        "1..2..3",
        "99999999999999999999",
        "-99999999999999999999..",
        "1e400",
        "NaN..",
        "inf",
        "٣",
        "十九",
        "19x19x19",
        "x",
        "0x0",
        "53",
        "255x255",
        "9999-99-99",
        "0000",
        "2019-00-01",
        "2019-1-1",
        "B+R+T",
        "B++",
        "+",
        "段",
        "P",
        "10d",
        "31k",
        "\u{0}",
        "é",
        "ǅ",
        "İ",
        "🙂..🙂",
        "2019..🙂",
        "5d..🙂",
    ];
    for name in names {
        for value in odd {
            let _ = Filter::new().set(name, value).map(|f| f.clone());
        }
    }
    // Case folding that changes lengths (İ lower-cases to two chars).
    let mut f = Filter::new();
    f.set("player", "İ").unwrap();
    let row = row_of("(;PB[İSTANBUL])".as_bytes());
    assert_eq!(f.matches(&row), Ok(()));
}
