//! Any bytes, parsed leniently (with the charset from `CA`/detection, and
//! again with a Shift_JIS and a Big5 override): every typed accessor on
//! every game, node, property and value never panics, and what it hands
//! out is consistent:
//!
//! - each game's board size is 1..=52 each way, its charset's confidence
//!   in 0..=1 (1 when declared or overridden), its source the override
//!   when there is one;
//! - every error is `InvalidValue` at the first byte of a value (just after
//!   its `[`), with the position `Position::locate` gives;
//! - points and moves handed out lie on the board; point lists are
//!   iterated to the end (at most `MAX_POINTS` points per input);
//! - decoded SimpleText holds no ASCII whitespace but spaces, decoded Text
//!   no CR; text that points into the input lies within the value it was
//!   read from (else it is in the tree's arena);
//! - `typed_values` agrees with `points` on the point lists of Go games and
//!   is `None` exactly for properties the catalogue does not know;
//!   `validate` agrees with it (the same first error, or none);
//! - `played` agrees with `get::<Move>` of `B`, else `W`; `GameTree::info`
//!   (one pass over the root) with `GameInfo::from_lookup` over `text` and
//!   `simple_text`.
//!
//! Accessors that look a property up by name (`get`, `text`, `points`, …)
//! are called on the first `LOOKUPS` properties of each node, to stay
//! linear; every value of every property is also read as every type
//! directly through `FromValue`.

use super::repro;
use crate::game::GameInfo;
use crate::span::LineCursor;
use crate::text::charset::for_label;
use crate::text::CharsetSource;
use crate::value::{
    BoardSize, Color, Double, Empty, FromValue, Move, Point, SimpleText, Text, TypedValue,
    ValueContext,
};
use crate::{Collection, Document, Error, ErrorKind, Node, ParseOptions, Position, Property};
use std::borrow::Cow;

/// Points iterated per input, over all point lists.
const MAX_POINTS: usize = 100_000;

/// Properties per node looked up by name.
const LOOKUPS: usize = 8;

/// Runs the checks on `input`; panics with a reproducer on a violation.
pub fn check_typed(input: &[u8]) {
    let shift_jis = for_label(b"Shift_JIS").expect("encoding_rs knows Shift_JIS");
    let big5 = for_label(b"Big5").expect("encoding_rs knows Big5");
    // Every offset's position, in one pass (a cursor asked in increasing
    // order gives what `Position::locate` gives; see the span tests).
    let mut cursor = LineCursor::default();
    let positions: Vec<Position> = (0..=input.len())
        .map(|offset| cursor.locate(input, offset))
        .collect();
    for charset in [None, Some(shift_jis), Some(big5)] {
        let options = ParseOptions::new().charset(charset);
        let Ok(doc) = Document::parse_with(input, &options) else {
            continue;
        };
        let mut check = Check {
            input,
            positions: &positions,
            override_name: charset.map(|e| e.name()),
            points_left: MAX_POINTS,
        };
        check.collection(doc.collection());
    }
}

struct Check<'a> {
    input: &'a [u8],
    /// The position of every offset of `input`.
    positions: &'a [Position],
    override_name: Option<&'static str>,
    points_left: usize,
}

impl Check<'_> {
    fn collection(&mut self, coll: Collection<'_, '_>) {
        for game in coll.games() {
            let size = game.board_size();
            assert!(
                (1..=52).contains(&size.cols) && (1..=52).contains(&size.rows),
                "board size {size:?}\n{}",
                repro(self.input)
            );
            let _ = game.game_type();
            let charset = game.charset();
            let confidence = charset.confidence();
            assert!(
                (0.0..=1.0).contains(&confidence),
                "confidence {confidence}\n{}",
                repro(self.input)
            );
            match self.override_name {
                Some(name) => {
                    assert_eq!(charset.source(), CharsetSource::Override);
                    assert_eq!(charset.name(), name, "{}", repro(self.input));
                }
                None => assert_ne!(charset.source(), CharsetSource::Override),
            }
            if charset.source() != CharsetSource::Detected {
                assert_eq!(confidence, 1.0, "{}", repro(self.input));
            }
            if charset.source() == CharsetSource::Declared {
                assert!(game.declared_charset().is_some(), "{}", repro(self.input));
            }
            let root = game.root();
            let looked_up = GameInfo::from_lookup(|ident| {
                let text = if ident == "GC" {
                    root.text(ident)
                } else {
                    root.simple_text(ident)
                };
                text.map(Cow::Borrowed)
            });
            assert_eq!(game.game_info(), looked_up, "{}", repro(self.input));
            let ctx = game.value_context();
            assert_eq!(ctx.size(), size);
            for node in game.nodes() {
                self.node(node, &ctx);
            }
        }
    }

    fn node(&mut self, node: Node<'_, '_>, ctx: &ValueContext<'_>) {
        let played = match node.get::<Move>("B") {
            Ok(None) => node.get::<Move>("W").map(|w| w.map(|m| (Color::White, m))),
            black => black.map(|b| b.map(|m| (Color::Black, m))),
        };
        assert_eq!(node.played(), played, "{}", repro(self.input));
        for (i, prop) in node.properties().enumerate() {
            for value in prop.values() {
                self.every_type(value.raw(), ctx);
            }
            self.typed_values(node, prop, ctx);
            if i < LOOKUPS {
                self.lookups(node, prop.ident(), ctx.size());
            }
        }
    }

    /// Reads `raw` as every type, checking what comes out.
    fn every_type<'a>(&self, raw: &'a [u8], ctx: &ValueContext<'a>) {
        let size = ctx.size();
        let _ = i64::from_value(raw, ctx);
        let _ = f64::from_value(raw, ctx);
        let _ = Option::<f64>::from_value(raw, ctx);
        let _ = Double::from_value(raw, ctx);
        let _ = Color::from_value(raw, ctx);
        let _ = Empty::from_value(raw, ctx);
        if let Some(p) = Point::from_value(raw, ctx) {
            self.on_board(p, size);
        }
        if let Some(Move::Play(p)) = Move::from_value(raw, ctx) {
            self.on_board(p, size);
        }
        if let Some(b) = BoardSize::from_value(raw, ctx) {
            assert!((1..=52).contains(&b.cols) && (1..=52).contains(&b.rows));
        }
        if let Some((a, b)) = <(Point, Point)>::from_value(raw, ctx) {
            self.on_board(a, size);
            self.on_board(b, size);
        }
        if let Some((p, label)) = <(Point, SimpleText)>::from_value(raw, ctx) {
            self.on_board(p, size);
            self.simple(label.0, raw);
        }
        if let Some(t) = SimpleText::from_value(raw, ctx) {
            self.simple(t.0, raw);
        }
        if let Some(t) = Text::from_value(raw, ctx) {
            self.text(t.0, raw);
        }
    }

    /// `typed_values`, and its agreement with `points` on point lists.
    fn typed_values(&mut self, node: Node<'_, '_>, prop: Property<'_, '_>, ctx: &ValueContext<'_>) {
        let size = ctx.size();
        let info = prop.info();
        // A point list may expand to far more points than its bytes (a
        // 52×52 rectangle per value): count them first, within budget.
        let is_point_list = info.is_some_and(|i| {
            i.arity != crate::value::Arity::One
                && matches!(
                    i.ty,
                    crate::value::ValueType::Point | crate::value::ValueType::Stone
                )
        });
        // Only Go reads points as two letters; other games keep their
        // notation as text (`TypedValue::GameSpecific`), unexpanded.
        let go = node.game().game_type() == 1;
        let mut expected_points = None;
        if is_point_list && go {
            match node.points(prop.ident()) {
                Ok(points) => {
                    let n = points.take(self.points_left + 1).count();
                    if n > self.points_left {
                        self.points_left = 0;
                        return;
                    }
                    self.points_left -= n;
                    expected_points = Some(n);
                }
                Err(e) => {
                    self.error(&e);
                    let again = prop.typed_values().expect_err("points() failed");
                    assert_eq!(again, e, "{}", repro(self.input));
                    return;
                }
            }
        }
        let typed = prop.typed_values();
        match (&typed, prop.validate()) {
            (Ok(None), Ok(None)) | (Ok(Some(_)), Ok(Some(_))) => {}
            (Err(e), Err(v)) => assert_eq!(e, &v, "{}", repro(self.input)),
            (t, v) => panic!("typed_values {t:?}, validate {v:?}\n{}", repro(self.input)),
        }
        match typed {
            Ok(None) => assert!(info.is_none(), "{}", repro(self.input)),
            Ok(Some(values)) => {
                assert!(info.is_some(), "{}", repro(self.input));
                if let Some(n) = expected_points {
                    assert_eq!(values.len(), n, "{}", repro(self.input));
                }
                for v in &values {
                    self.typed(v, size, prop);
                }
            }
            Err(e) => {
                assert!(expected_points.is_none(), "{}", repro(self.input));
                self.error(&e);
            }
        }
    }

    /// A typed value of `prop`: text borrowed from the input lies within
    /// one of its values.
    fn typed(&self, v: &TypedValue<'_>, size: BoardSize, prop: Property<'_, '_>) {
        let within = |t: &str| match prop.values().find(|v| inside(v.raw(), t)) {
            Some(value) => value.raw(),
            None => prop.raw(),
        };
        match v {
            TypedValue::Point(p) | TypedValue::Move(Move::Play(p)) => self.on_board(*p, size),
            TypedValue::SimpleText(t) | TypedValue::GameSpecific(t) => self.simple(t, within(t)),
            TypedValue::Text(t) => self.text(t, within(t)),
            TypedValue::Compose(a, b) => {
                self.typed(a, size, prop);
                self.typed(b, size, prop);
            }
            _ => {}
        }
    }

    /// The accessors that find a property by name.
    fn lookups(&mut self, node: Node<'_, '_>, ident: &str, size: BoardSize) {
        macro_rules! get {
            ($($t:ty),*) => {$(
                match node.get::<$t>(ident) {
                    Ok(found) => assert!(found.is_some(), "{ident} not found\n{}", repro(self.input)),
                    Err(e) => self.error(&e),
                }
            )*};
        }
        get!(
            i64,
            f64,
            Option<f64>,
            Double,
            Color,
            Empty,
            BoardSize,
            SimpleText,
            Text
        );
        get!((Point, Point), (Point, SimpleText));
        match node.get::<Point>(ident) {
            Ok(Some(p)) => self.on_board(p, size),
            Ok(None) => panic!("{ident} not found\n{}", repro(self.input)),
            Err(e) => self.error(&e),
        }
        match node.get::<Move>(ident) {
            Ok(Some(Move::Play(p))) => self.on_board(p, size),
            Ok(Some(Move::Pass)) => {}
            Ok(None) => panic!("{ident} not found\n{}", repro(self.input)),
            Err(e) => self.error(&e),
        }
        let values = node.raw_values(ident).count();
        let mut typed = 0;
        for r in node.get_all::<Point>(ident) {
            typed += 1;
            match r {
                Ok(p) => self.on_board(p, size),
                Err(e) => self.error(&e),
            }
        }
        assert_eq!(typed, values, "{}", repro(self.input));
        let raw = node.raw(ident).expect("found");
        let text = node.text(ident).expect("text never fails");
        self.text(text, raw);
        let simple = node.simple_text(ident).expect("simple text never fails");
        self.simple(simple, raw);
        match node.points(ident) {
            Ok(points) => {
                for p in points.take(self.points_left) {
                    self.on_board(p, size);
                    self.points_left -= 1;
                }
            }
            Err(e) => self.error(&e),
        }
    }

    fn on_board(&self, p: Point, size: BoardSize) {
        assert!(
            size.contains(p),
            "point {p:?} off the {size:?} board\n{}",
            repro(self.input)
        );
    }

    fn simple(&self, s: &str, raw: &[u8]) {
        assert!(
            !s.bytes()
                .any(|b| b != b' ' && (b.is_ascii_whitespace() || b == 0x0b)),
            "simple text {s:?} holds whitespace other than spaces\n{}",
            repro(self.input)
        );
        self.borrowed(s, raw);
    }

    fn text(&self, s: &str, raw: &[u8]) {
        assert!(
            !s.contains('\r'),
            "text {s:?} holds a CR\n{}",
            repro(self.input)
        );
        self.borrowed(s, raw);
    }

    /// Text that points into the input lies within `raw`, the bytes it was
    /// read from (text that changed is in the arena instead).
    fn borrowed(&self, text: &str, raw: &[u8]) {
        if !text.is_empty() && inside(self.input, text) {
            assert!(
                inside(raw, text),
                "text {text:?} borrowed from outside its value\n{}",
                repro(self.input)
            );
        }
    }

    fn error(&self, e: &Error) {
        assert!(
            matches!(e.kind(), ErrorKind::InvalidValue(_)),
            "typed getter failed with {e}\n{}",
            repro(self.input)
        );
        let offset = e.offset();
        assert!(
            offset >= 1 && offset <= self.input.len(),
            "error offset {offset} out of bounds (len {})\n{}",
            self.input.len(),
            repro(self.input)
        );
        assert_eq!(
            self.input[offset - 1],
            b'[',
            "error {e} is not at a value's start\n{}",
            repro(self.input)
        );
        assert_eq!(
            e.position(),
            self.positions[offset],
            "{}",
            repro(self.input)
        );
    }
}

/// Whether `text` lies within `outer`.
fn inside(outer: &[u8], text: &str) -> bool {
    let start = outer.as_ptr() as usize;
    let at = text.as_ptr() as usize;
    at >= start && at + text.len() <= start + outer.len()
}
