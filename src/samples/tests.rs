//! Samples against positions worked out by hand.

use super::*;
use crate::table::GameRow;
use crate::value::BoardSize;

fn encode(sgf: &str, options: &SampleOptions) -> (Layout, Vec<u8>, Encoded) {
    let doc = crate::parse(sgf.as_bytes()).unwrap();
    let game = doc.games().next().unwrap();
    let row = GameRow::from_game_without_moves(game, "t.sgf", 0);
    let layout = options.layout();
    let mut out = Vec::new();
    let done = Encoder::new(&layout).encode(game, &GameMeta::of(&row), &mut out);
    (layout, out, done)
}

fn samples<'r>(layout: &Layout, records: &'r [u8]) -> Vec<Sample<'r>> {
    records
        .chunks_exact(layout.record_len())
        .map(|r| layout.sample(r))
        .collect()
}

fn nine() -> SampleOptions {
    SampleOptions::new().board(BoardSize { cols: 9, rows: 9 })
}

#[test]
fn alphago_zero_planes_by_default() {
    let layout = SampleOptions::new().layout();
    assert_eq!(layout.planes(), 17);
    let names = layout.plane_names();
    assert_eq!(names[0], "own_0");
    assert_eq!(names[8], "opponent_0");
    assert_eq!(names[16], "black_to_play");
    assert_eq!(layout.plane_bytes(), 46);
}

#[test]
fn history_follows_the_player_to_move() {
    let (layout, recs, done) = encode("(;SZ[9];B[aa];W[ba];B[ca])", &nine());
    assert_eq!(done.samples, 3);
    let s = samples(&layout, &recs);
    // Before B[ca]: Black to move; own_0 has aa, opponent_0 has ba;
    // own_1 (before W[ba]) has aa; opponent_1 nothing; own_2, the empty
    // start.
    let third = s[2];
    assert!(third.bit(0, 0) && third.bit(8, 1));
    assert!(third.bit(1, 0) && !third.bit(9, 1));
    assert!(!third.bit(2, 0));
    assert!(
        third.bit(16, 0) && third.bit(16, 80),
        "black to play: all ones"
    );
    // Before W[ba]: White's view, Black's aa is the opponent's.
    let second = s[1];
    assert!(second.bit(8, 0) && !second.bit(0, 0));
    assert!(!second.bit(16, 0), "white to play: zeros");
    assert_eq!(second.to_play(), 1);
    assert_eq!(second.ply(), 2);
    assert_eq!(third.policy(), 2);
    // The padding bits after the last point stay zero.
    let f = third.features();
    assert_eq!(f[16 * layout.plane_bytes() + 10] & 0x7f, 0);
}

#[test]
fn passes_and_results() {
    let (layout, recs, _) = encode("(;SZ[9]RE[B+R];B[ee];W[])", &nine());
    let s = samples(&layout, &recs);
    assert_eq!(s[1].policy(), 81);
    assert_eq!((s[0].value(), s[1].value()), (1, -1));
    assert!(s[0].has_value() && s[0].score().is_nan());
    let (layout, recs, _) = encode("(;SZ[9]RE[0];B[ee])", &nine());
    let s = samples(&layout, &recs);
    assert_eq!(
        (s[0].value(), s[0].has_value(), s[0].score()),
        (0, true, 0.0)
    );
    let (layout, recs, _) = encode("(;SZ[9];B[ee])", &nine());
    let s = samples(&layout, &recs);
    assert!(!s[0].has_value());
}

#[test]
fn fox_margins_in_stones_are_doubled() {
    let sgf = "(;SZ[9]AP[foxwq]RU[Chinese]RE[W+1.25];B[ee];W[dd])";
    let (layout, recs, _) = encode(sgf, &nine());
    let row = {
        let doc = crate::parse(sgf.as_bytes()).unwrap();
        GameRow::from_game_without_moves(doc.games().next().unwrap(), "t", 0)
    };
    if row.server == Some("fox") {
        assert_eq!(samples(&layout, &recs)[1].score(), 2.5);
    }
}

#[test]
fn liberties_empty_and_ko() {
    // A ko: White captures at ba... set up so that after W takes, the ko
    // point is b's stone place.
    let sgf = "(;SZ[9]AB[ba][ab]AW[ca][bb][ac];W[aa];B[dd])";
    let opts = nine().extras(Extras::ALL);
    let (layout, recs, done) = encode(sgf, &opts);
    assert_eq!(layout.planes(), 2 * 8 + 5 + 1);
    assert_eq!(done.samples, 2);
    let s = samples(&layout, &recs);
    let (empty, l1, l2, l3, ko) = (16, 17, 18, 19, 20);
    // Before W[aa]: Black's ba has one liberty (aa), so has ab.
    assert!(s[0].bit(l1, 1) && s[0].bit(l1, 9));
    assert!(s[0].bit(empty, 0) && !s[0].bit(empty, 1));
    // ca (2,0): libs da, cb? cb is (2,1) empty → 2 liberties.
    assert!(s[0].bit(l2, 2));
    assert!(!s[0].bit(l3, 2));
    // W[aa] takes ba and ab? aa's neighbours are ba and ab, both in atari:
    // two stones taken, no ko.
    assert!(!(0..81).any(|i| s[1].bit(ko, i)));
    // A real ko: B takes one stone.
    let sgf = "(;SZ[9]AB[ba][ab][cb]AW[ca][bb][ac][db];B[da];W[dd])";
    let (layout, recs, _) = encode(sgf, &opts);
    let s = samples(&layout, &recs);
    let _ = &layout;
    let ko_points: Vec<usize> = (0..81).filter(|&i| s[1].bit(ko, i)).collect();
    assert!(ko_points.len() <= 1);
}

#[test]
fn an_illegal_move_ends_the_samples() {
    let (_, _, done) = encode("(;SZ[9];B[aa];W[aa];B[bb])", &nine());
    assert_eq!(done.samples, 1);
    assert_eq!(done.stop, Some(Stop::Illegal(2)));
}

#[test]
fn other_sizes_give_nothing() {
    let (_, recs, done) = encode("(;SZ[13];B[aa])", &SampleOptions::new());
    assert_eq!((done.samples, recs.len()), (0, 0));
}

#[test]
fn other_games_give_nothing() {
    // Gomoku on a Go board's size: its moves are no Go moves.
    let (_, recs, done) = encode("(;GM[4]SZ[9];B[ee];W[ef];B[fe])", &nine());
    assert_eq!((done.samples, recs.len()), (0, 0));
    let (_, _, go) = encode("(;GM[1]SZ[9];B[ee];W[ef];B[fe])", &nine());
    assert_eq!(go.samples, 3);
}

#[test]
fn augmentation_transforms_planes_and_policy_alike() {
    let sgf = "(;SZ[9];B[ab];W[gc];B[ec])";
    let (layout, recs, done) = encode(sgf, &nine().augment(Augment::All));
    assert_eq!(done.samples, 24);
    let s = samples(&layout, &recs);
    for (k, sample) in s.iter().enumerate().skip(16) {
        // Before B[ec], Black's ab is own_0 and W's gc opponent_0, in
        // the sample's symmetry; the policy is ec in the same symmetry.
        let sym = crate::game::Symmetry::ALL[usize::from(sample.symmetry())];
        assert_eq!(usize::from(sample.symmetry()), k - 16);
        let size = BoardSize { cols: 9, rows: 9 };
        let at = |x: u8, y: u8| {
            let p = sym.apply(crate::value::Point { x, y }, size);
            usize::from(p.y) * 9 + usize::from(p.x)
        };
        assert!(sample.bit(0, at(0, 1)));
        assert!(sample.bit(8, at(6, 2)));
        assert_eq!(usize::from(sample.policy() as u16), at(4, 2));
        assert_eq!((0..81).filter(|&i| sample.bit(0, i)).count(), 1);
    }
    let (layout, recs, done) = encode(sgf, &nine().augment(Augment::Random).seed(5));
    assert_eq!(done.samples, 3);
    let again = encode(sgf, &nine().augment(Augment::Random).seed(5)).1;
    assert_eq!(recs, again, "the same seed draws the same symmetries");
    let _ = layout;
}

#[test]
fn rectangles_augment_without_transposes() {
    let opts = SampleOptions::new()
        .board(BoardSize { cols: 7, rows: 5 })
        .augment(Augment::All);
    let (_, _, done) = encode("(;SZ[7:5];B[aa])", &opts);
    assert_eq!(done.samples, 4);
}

#[test]
fn a_folder_holds_every_sample_once() {
    let dir = std::env::temp_dir().join(format!("sgf-grove-samples-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let layout = nine().seed(3).layout();
    let options = FolderOptions::new().shard_size(4).window(5);
    let mut writer = SampleWriter::create(&dir, &layout, options.clone()).unwrap();
    assert!(
        SampleWriter::create(&dir, &layout, options).is_err(),
        "a second writer is refused"
    );
    let mut total = 0;
    for (id, sgf) in [
        "(;SZ[9];B[aa];W[bb];B[cc])",
        "(;SZ[9];B[ee];W[ff])",
        "(;SZ[9];B[gg])",
    ]
    .iter()
    .enumerate()
    {
        let doc = crate::parse(sgf.as_bytes()).unwrap();
        let game = doc.games().next().unwrap();
        let row = GameRow::from_game_without_moves(game, "t", 0).with_id(id as u64);
        let mut recs = Vec::new();
        total += Encoder::new(&layout)
            .encode(game, &GameMeta::of(&row), &mut recs)
            .samples;
        writer.add_game(&row, &mut recs).unwrap();
    }
    let summary = writer.finish().unwrap();
    assert_eq!(summary.samples, total as u64);
    assert_eq!(
        summary.shards.iter().map(|s| s.samples).collect::<Vec<_>>(),
        vec![4, 2]
    );
    let manifest = std::fs::read_to_string(dir.join(MANIFEST)).unwrap();
    assert!(manifest.contains("\"shard-000001.npz\""));
    for s in &summary.shards {
        assert_eq!(std::fs::metadata(dir.join(&s.file)).unwrap().len(), s.bytes);
    }
    let games = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    assert_eq!(games.lines().count(), 3);
    std::fs::remove_dir_all(&dir).unwrap();
}
