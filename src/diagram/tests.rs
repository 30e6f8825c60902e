use super::*;
use crate::tree::GameTree;

fn pt(x: u8, y: u8) -> Point {
    Point { x, y }
}

/// The diagram at the end of the main line of the first game of `sgf`.
fn end_diagram(sgf: &[u8], options: &DiagramOptions) -> Result<Diagram, DiagramError> {
    let doc = crate::parse(sgf).expect("parses");
    let game: GameTree<'_, '_> = doc.games().next().expect("a game");
    let end = game.root().main_line().last().expect("a node");
    Diagram::at(game, end, options)
}

fn circle(svg: &str, (x, y): (f64, f64), fill: &str) -> bool {
    let head = format!(r#"<circle cx="{}" cy="{}" "#, font::num(x), font::num(y));
    svg.lines()
        .any(|l| l.starts_with(&head) && l.contains(&format!(r#"fill="{fill}""#)))
}

#[test]
fn stone_centres_follow_the_grid() {
    let d = end_diagram(b"(;SZ[19];B[aa];W[ss];B[pd])", &DiagramOptions::new()).unwrap();
    let m = 0.8 * CELL;
    assert_eq!(d.centre(pt(0, 0)), (m, m));
    assert_eq!(d.centre(pt(18, 18)), (m + 18.0 * CELL, m + 18.0 * CELL));
    assert_eq!(d.centre(pt(15, 3)), (m + 15.0 * CELL, m + 3.0 * CELL));
    assert_eq!(d.svg_size(), (2.0 * m + 18.0 * CELL, 2.0 * m + 18.0 * CELL));
    let svg = d.to_svg();
    assert!(circle(&svg, d.centre(pt(0, 0)), "#000"), "{svg}");
    assert!(circle(&svg, d.centre(pt(18, 18)), "#fff"));
    assert!(circle(&svg, d.centre(pt(15, 3)), "#000"));
    assert!(!circle(&svg, d.centre(pt(1, 1)), "#000"));
    // The last move: a ring on it.
    assert_eq!(d.last_move(), Some(pt(15, 3)));
    assert!(circle(&svg, d.centre(pt(15, 3)), "none"));
    // 9 star points (r 2.4), no text element.
    assert_eq!(d.star_points().len(), 9);
    assert_eq!(svg.matches(r##"r="2.4" fill="#000""##).count(), 9);
    assert!(!svg.contains("<text"));
    // A stone of the drawing: its stones only, no markup, no number.
    assert_eq!(d.stone(pt(18, 18)), Some(Color::White));
    assert_eq!(d.stone(pt(1, 1)), None);
    assert_eq!(d.number(pt(0, 0)), None);
}

/// 1 B ba, 2 W aa, 3 B ab (takes 2), 4 W cc, 5 B aa (on 2's point),
/// 6 W pass.
const RANGE: &[u8] = b"(;SZ[9];B[ba];W[aa];B[ab];W[cc];B[aa];W[])";

#[test]
fn numbers_from_the_first_move_with_at_notes() {
    let d = end_diagram(RANGE, &DiagramOptions::new().numbers_from(Some(1))).unwrap();
    assert_eq!(d.number(pt(1, 0)), Some(1));
    // The captured stone stays drawn, with its number.
    assert_eq!(d.stone(pt(0, 0)), Some(Color::White));
    assert_eq!(d.number(pt(0, 0)), Some(2));
    assert_eq!(d.number(pt(0, 1)), Some(3));
    assert_eq!(d.number(pt(2, 2)), Some(4));
    let notes = [
        Note {
            number: 5,
            color: Color::Black,
            at: NoteAt::Number(2),
        },
        Note {
            number: 6,
            color: Color::White,
            at: NoteAt::Pass,
        },
    ];
    assert_eq!(d.notes(), notes);
    // The notes take a line below the board: two stones in it for `5 at
    // 2`, one for `6 pass`.
    let plain = end_diagram(RANGE, &DiagramOptions::new()).unwrap();
    assert!((d.svg_size().1 - (plain.svg_size().1 + 1.3 * CELL)).abs() < 1e-9);
    let svg = d.to_svg();
    let below = plain.svg_size().1;
    let note_stones = svg
        .lines()
        .filter(|l| l.starts_with("<circle"))
        .filter(|l| {
            let cy = l
                .split(r#"cy=""#)
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            cy.parse::<f64>().unwrap() > below
        })
        .count();
    assert_eq!(note_stones, 3, "{svg}");
    // Numbered stones carry no last-move ring.
    assert!(!circle(&svg, d.centre(pt(0, 0)), "none"));
}

#[test]
fn numbers_from_a_later_move_name_unnumbered_points() {
    let d = end_diagram(RANGE, &DiagramOptions::new().numbers_from(Some(3))).unwrap();
    // Before move 3: 1 and 2 drawn without numbers.
    assert_eq!(d.stone(pt(1, 0)), Some(Color::Black));
    assert_eq!(d.number(pt(1, 0)), None);
    assert_eq!(d.stone(pt(0, 0)), Some(Color::White));
    assert_eq!(d.number(pt(0, 0)), None);
    assert_eq!(d.number(pt(0, 1)), Some(3));
    assert_eq!(
        d.notes()[0],
        Note {
            number: 5,
            color: Color::Black,
            at: NoteAt::Point(pt(0, 0)),
        }
    );
    assert_eq!(point_name(pt(0, 0), 9), "A9");
    // Past the node: an error that says how many moves there are.
    let err = end_diagram(RANGE, &DiagramOptions::new().numbers_from(Some(7))).unwrap_err();
    assert!(
        matches!(err, DiagramError::NumbersPastNode { from: 7, moves: 6 }),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "no move 7 to number: the line to the node has 6 moves"
    );
}

#[test]
fn a_move_on_the_root_is_numbered_from_the_empty_board() {
    let d = end_diagram(
        b"(;SZ[9]B[ee];W[ee])",
        &DiagramOptions::new().numbers_from(Some(1)),
    )
    .unwrap();
    assert_eq!(d.number(pt(4, 4)), Some(1));
    assert_eq!(d.notes()[0].at, NoteAt::Number(1));
}

#[test]
fn setup_in_a_range_is_drawn_without_numbers() {
    let d = end_diagram(
        b"(;SZ[9];B[aa];AW[bb]AE[aa];B[aa])",
        &DiagramOptions::new().numbers_from(Some(1)),
    )
    .unwrap();
    assert_eq!(d.stone(pt(1, 1)), Some(Color::White));
    assert_eq!(d.number(pt(1, 1)), None);
    // `AE` cleared 1's point, so 2 is drawn there.
    assert_eq!(d.number(pt(0, 0)), Some(2));
    assert!(d.notes().is_empty());
}

#[test]
fn markup_is_read_and_drawn() {
    let sgf = b"(;SZ[9]DD[aa:ab];B[ee];W[cc]TR[ee]SQ[cc]CR[gg]MA[hh]SL[ii]\
        LB[dd:A][de:12]AR[aa:ii]LN[ia:ai]TR[zz])";
    let d = end_diagram(sgf, &DiagramOptions::new()).unwrap();
    assert_eq!(d.mark(pt(4, 4)), Some(Mark::Triangle));
    assert_eq!(d.mark(pt(2, 2)), Some(Mark::Square));
    assert_eq!(d.mark(pt(6, 6)), Some(Mark::Circle));
    assert_eq!(d.mark(pt(7, 7)), Some(Mark::Cross));
    assert_eq!(d.mark(pt(8, 8)), Some(Mark::Selected));
    assert_eq!(d.mark(pt(0, 0)), None);
    assert_eq!(
        d.labels(),
        [(pt(3, 3), "A".to_string()), (pt(3, 4), "12".to_string())]
    );
    assert_eq!(d.arrows(), [(pt(0, 0), pt(8, 8))]);
    assert_eq!(d.lines(), [(pt(8, 0), pt(0, 8))]);
    // `DD` of the root is still in force two nodes down.
    assert!(d.is_dimmed(pt(0, 0)) && d.is_dimmed(pt(0, 1)));
    assert!(!d.is_dimmed(pt(1, 1)));
    // `TR[zz]` is off a 9×9 board.
    assert_eq!(d.unreadable(), 1);
    let svg = d.to_svg();
    // A triangle in white on the black stone, a square in black on the
    // white one.
    let (x, y) = d.centre(pt(4, 4));
    let apex = format!("M{} {}L", font::num(x), font::num(y - 0.3 * CELL));
    assert!(
        svg.lines()
            .any(|l| l.contains(&apex) && l.contains(r##"stroke="#fff""##)),
        "{svg}"
    );
    assert!(svg.contains(r##"fill="none" stroke="#000" stroke-width="1.92"/>"##));
    assert_eq!(svg.matches(r#"fill-opacity="0.6""#).count(), 2);
    assert_eq!(svg.matches(r##"fill="#3060e0""##).count(), 1);
    // Two red strokes and one arrow head.
    assert_eq!(svg.matches(r##"stroke="#c00000""##).count(), 2);
    assert_eq!(svg.matches(r##"Z" fill="#c00000""##).count(), 1);
    // A label on an empty point hides the lines under it.
    let (lx, ly) = d.centre(pt(3, 3));
    assert!(circle(&svg, (lx, ly), BOARD_COLOR));
}

#[test]
fn an_empty_dd_ends_the_dimming() {
    let d = end_diagram(b"(;SZ[9]DD[aa];B[ee];DD[];W[cc])", &DiagramOptions::new()).unwrap();
    assert!(!d.is_dimmed(pt(0, 0)));
    assert!(!d.to_svg().contains("fill-opacity"));
}

#[test]
fn boards_up_to_52_by_52() {
    let d = end_diagram(
        b"(;SZ[52];B[ZZ];W[aZ])",
        &DiagramOptions::new().coordinates(true),
    )
    .unwrap();
    assert_eq!(d.size(), BoardSize::square(52));
    assert_eq!(d.stone(pt(51, 51)), Some(Color::Black));
    assert_eq!(d.stone(pt(0, 51)), Some(Color::White));
    let m = 0.8 * CELL + CELL;
    assert_eq!(d.centre(pt(51, 51)), (m + 51.0 * CELL, m + 51.0 * CELL));
    let svg = d.to_svg();
    assert!(circle(&svg, d.centre(pt(51, 51)), "#000"));
    // No star points on a side of 52? Both sides even: the 4 corner ones.
    assert_eq!(d.star_points().len(), 4);
    assert_eq!(column_name(51), "BB");
}

#[test]
fn rectangular_boards() {
    let d = end_diagram(b"(;SZ[13:7];B[mg];W[aa])", &DiagramOptions::new()).unwrap();
    assert_eq!(d.size(), BoardSize { cols: 13, rows: 7 });
    let m = 0.8 * CELL;
    assert_eq!(d.centre(pt(12, 6)), (m + 12.0 * CELL, m + 6.0 * CELL));
    let (w, h) = d.svg_size();
    assert!(
        (w - (2.0 * m + 12.0 * CELL)).abs() < 1e-9 && (h - (2.0 * m + 6.0 * CELL)).abs() < 1e-9
    );
    assert_eq!(d.stone(pt(12, 6)), Some(Color::Black));
    assert_eq!(
        d.star_points(),
        [pt(3, 2), pt(9, 2), pt(6, 3), pt(3, 4), pt(9, 4)]
    );
    let svg = d.to_svg();
    assert!(svg.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" width="326.4" height="182.4" viewBox="0 0 326.4 182.4">"#), "{svg}");
    // Scaled 2.5 times: the longer side 816 px wide, the viewBox kept.
    assert!(d
        .to_svg_sized(816)
        .contains(r#"width="816" height="456" viewBox="0 0 326.4 182.4""#));
}

#[test]
fn coordinates_skip_i_and_go_on_in_two_letters() {
    let names: String = (0..25).map(column_name).collect();
    assert_eq!(names, "ABCDEFGHJKLMNOPQRSTUVWXYZ");
    assert_eq!(column_name(25), "AA");
    assert_eq!(column_name(32), "AH");
    assert_eq!(column_name(33), "AJ");
    assert_eq!(column_name(50), "BA");
    assert_eq!(point_name(pt(3, 15), 19), "D4");
    let plain = end_diagram(b"(;SZ[9];B[ee])", &DiagramOptions::new()).unwrap();
    let with = plain.clone().with_coordinates(true);
    assert!(with.has_coordinates() && !plain.has_coordinates());
    // The band of the coordinates on the top and the left.
    assert_eq!(with.centre(pt(0, 0)), (1.8 * CELL, 1.8 * CELL));
    assert_eq!(with.svg_size().0, plain.svg_size().0 + CELL);
    // 9 column letters and 9 row numbers, one path each, 8.64 high:
    // stroke width 1.12.
    let svg = with.to_svg();
    assert_eq!(svg.matches(r#"stroke-width="1.12""#).count(), 18, "{svg}");
    assert_eq!(plain.to_svg().matches(r#"stroke-width="1.12""#).count(), 0);
    // `A` over the first column: its apex centred on the column, 8.64
    // high, its centre a cell above the top line.
    let (x, y) = with.centre(pt(0, 0));
    let apex = format!(
        "L{} {}L",
        font::num(x),
        font::num(y - CELL - 0.36 * CELL / 2.0)
    );
    assert!(svg.contains(&apex), "{apex}");
}

#[test]
fn a_board_alone() {
    let mut b = Board::new(BoardSize::square(9), Default::default());
    b.set(pt(2, 3), Some(Color::White));
    let d = Diagram::from_board(&b);
    assert_eq!(d.stone(pt(2, 3)), Some(Color::White));
    assert_eq!(d.last_move(), None);
    assert!(circle(&d.to_svg(), d.centre(pt(2, 3)), "#fff"));
}

#[test]
fn png_pixels_show_the_stones() {
    let d = end_diagram(b"(;SZ[9];B[cc];W[gg])", &DiagramOptions::new()).unwrap();
    let png = d.to_png(400).unwrap();
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
    let (w, h) = d.svg_size();
    assert_eq!(pixmap.width(), 400);
    assert_eq!(pixmap.height(), (h * 400.0 / w).round() as u32);
    let k = 400.0 / w;
    let at = |p: Point, dx: f64| {
        let (x, y) = d.centre(p);
        let px = pixmap
            .pixel(((x + dx) * k) as u32, ((y + dx) * k) as u32)
            .unwrap();
        (px.red(), px.green(), px.blue())
    };
    assert_eq!(at(pt(2, 2), 0.0), (0, 0, 0));
    // The white stone carries the last-move ring: beside its centre.
    assert_eq!(at(pt(6, 6), 0.0), (255, 255, 255));
    assert_eq!(at(pt(6, 6), 0.3 * CELL), (255, 255, 255));
    // An empty point, off its lines: the board.
    assert_eq!(at(pt(4, 1), 0.25 * CELL), (0xdc, 0xb3, 0x5c));
    assert!(matches!(d.to_png(0), Err(DiagramError::PngSize(0))));
    assert!(d.to_png(PNG_MAX_SIDE + 1).is_err());
}
