//! What a reader found, and the SGF written from it: [`Record`].

use super::Format;

/// A stone's colour in a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Color {
    Black,
    White,
}

impl Color {
    fn ident(self) -> &'static str {
        match self {
            Color::Black => "B",
            Color::White => "W",
        }
    }

    /// The other colour.
    pub(super) fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

/// How a game was won, as the records say it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    /// By resignation (`B+R`).
    Resign(Color),
    /// On time (`B+T`).
    Time(Color),
    /// By points, the margin as written (`B+3.5`).
    Points(Color, String),
    /// By forfeit (`B+F`).
    Forfeit(Color),
    /// A win that does not say how (`B+`).
    Win(Color),
    /// A draw (`0`).
    Draw,
}

impl Outcome {
    /// The `RE` value.
    fn to_re(&self) -> String {
        match self {
            Outcome::Resign(c) => format!("{}+R", c.ident()),
            Outcome::Time(c) => format!("{}+T", c.ident()),
            Outcome::Points(c, m) => format!("{}+{m}", c.ident()),
            Outcome::Forfeit(c) => format!("{}+F", c.ident()),
            Outcome::Win(c) => format!("{}+", c.ident()),
            Outcome::Draw => "0".to_owned(),
        }
    }
}

/// A game read from a record: root properties, setup, moves, and the
/// header fields kept as text.
#[derive(Debug)]
pub(super) struct Record {
    format: Format,
    /// The board size (19 unless the record says otherwise).
    pub(super) size: u32,
    props: Vec<(&'static str, String)>,
    /// Black's handicap stones, `(column, row)` from the top left, from 0.
    pub(super) setup: Vec<(u32, u32)>,
    /// The moves; `None` is a pass.
    pub(super) moves: Vec<(Color, Option<(u32, u32)>)>,
    /// Header fields with no SGF property, `KEY=value`.
    pub(super) kept: Vec<String>,
}

impl Record {
    pub(super) fn new(format: Format) -> Record {
        Record {
            format,
            size: 19,
            props: Vec::new(),
            setup: Vec::new(),
            moves: Vec::new(),
            kept: Vec::new(),
        }
    }

    /// Sets the root property `ident` (a value set earlier is replaced);
    /// an empty value is left out.
    pub(super) fn set(&mut self, ident: &'static str, value: impl Into<String>) {
        let value = value.into().trim().to_owned();
        if value.is_empty() {
            return;
        }
        match self.props.iter_mut().find(|(id, _)| *id == ident) {
            Some(slot) => slot.1 = value,
            None => self.props.push((ident, value)),
        }
    }

    /// Whether the root property `ident` is set.
    pub(super) fn has(&self, ident: &str) -> bool {
        self.props.iter().any(|(id, _)| *id == ident)
    }

    /// Sets `RE`.
    pub(super) fn result(&mut self, outcome: &Outcome) {
        self.set("RE", outcome.to_re());
    }

    /// Keeps a header field with no SGF property.
    pub(super) fn keep(&mut self, key: &str, value: &str) {
        self.kept.push(format!("{}={}", key.trim(), value.trim()));
    }

    /// Whether `(x, y)` is on the board.
    pub(super) fn on_board(&self, x: i64, y: i64) -> bool {
        (0..i64::from(self.size)).contains(&x) && (0..i64::from(self.size)).contains(&y)
    }

    /// The handicap stones of `count` as Tygem places them, from the top
    /// left: 2 at the upper right and lower left star points, the 3rd at
    /// the upper left (the common SGF convention puts it at the lower
    /// right), the 4th at the lower right, then the centre for an odd
    /// count, the side star points for 6 and more, the top and bottom
    /// ones for 8 and 9. Inferred from the placement that Tygem's and
    /// WBaduk's boards show and that other converters use; none of the
    /// formats lists the stones. Empty for a board under 7 lines or a
    /// count under 2; at most 4 stones on an even board.
    pub(super) fn tygem_handicap(size: u32, count: u32) -> Vec<(u32, u32)> {
        if size < 7 || count < 2 {
            return Vec::new();
        }
        let count = count.min(9);
        let low = if size >= 13 { 3 } else { 2 };
        let high = size - 1 - low;
        let mid = size / 2;
        let mut points = vec![(high, low), (low, high)];
        if count >= 3 {
            points.push((low, low));
        }
        if count >= 4 {
            points.push((high, high));
        }
        if size.is_multiple_of(2) {
            return points;
        }
        if count >= 6 {
            points.push((low, mid));
            points.push((high, mid));
        }
        if count >= 8 {
            points.push((mid, low));
            points.push((mid, high));
        }
        if count % 2 == 1 && count >= 5 {
            points.push((mid, mid));
        }
        points
    }

    /// The game as SGF: one game tree, UTF-8, the root first.
    pub(super) fn to_sgf(&self) -> Vec<u8> {
        let mut out = String::with_capacity(256 + self.moves.len() * 6);
        out.push_str("(;GM[1]FF[4]CA[UTF-8]");
        out.push_str(concat!("AP[sgf-grove:", env!("CARGO_PKG_VERSION"), "]"));
        push_prop(&mut out, "SO", self.format.description());
        if self.size != 19 {
            push_prop(&mut out, "SZ", &self.size.to_string());
        }
        for (ident, value) in &self.props {
            push_prop(&mut out, ident, value);
        }
        if !self.kept.is_empty() {
            push_prop(&mut out, "GC", &self.kept.join("\n"));
        }
        if !self.setup.is_empty() {
            out.push_str("AB");
            for &(x, y) in &self.setup {
                out.push('[');
                out.push(letter(x));
                out.push(letter(y));
                out.push(']');
            }
        }
        out.push('\n');
        for (i, (color, point)) in self.moves.iter().enumerate() {
            out.push(';');
            out.push_str(color.ident());
            out.push('[');
            if let Some((x, y)) = point {
                out.push(letter(*x));
                out.push(letter(*y));
            }
            out.push(']');
            if i % 16 == 15 {
                out.push('\n');
            }
        }
        out.push_str(")\n");
        out.into_bytes()
    }
}

/// `IDENT[value]`, the value escaped.
fn push_prop(out: &mut String, ident: &str, value: &str) {
    out.push_str(ident);
    out.push('[');
    for c in value.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push(']');
}

/// The SGF letter of a coordinate from 0 (`a`–`z`, then `A`–`Z`).
fn letter(n: u32) -> char {
    match n {
        0..=25 => char::from(b'a' + n as u8),
        26..=51 => char::from(b'A' + (n - 26) as u8),
        _ => '?',
    }
}

/// A margin in tenths (`ZIPSU:35`, `GONGJE:65`) as SGF writes it: `3.5`,
/// `6.5`, `5`.
pub(super) fn tenths(n: i64) -> String {
    let sign = if n < 0 { "-" } else { "" };
    let n = n.unsigned_abs();
    if n.is_multiple_of(10) {
        format!("{sign}{}", n / 10)
    } else {
        format!("{sign}{}.{}", n / 10, n % 10)
    }
}

#[cfg(test)]
mod tests {
    use super::{tenths, Record};

    #[test]
    fn tygem_placement() {
        let four = Record::tygem_handicap(19, 4);
        assert_eq!(four, [(15, 3), (3, 15), (3, 3), (15, 15)]);
        let nine = Record::tygem_handicap(19, 9);
        assert_eq!(nine.len(), 9);
        assert!(nine.contains(&(9, 9)) && nine.contains(&(9, 3)) && nine.contains(&(3, 9)));
        assert_eq!(Record::tygem_handicap(19, 5).last(), Some(&(9, 9)));
        assert_eq!(Record::tygem_handicap(19, 6).len(), 6);
        assert!(!Record::tygem_handicap(19, 6).contains(&(9, 9)));
        assert_eq!(Record::tygem_handicap(9, 3), [(6, 2), (2, 6), (2, 2)]);
        assert_eq!(Record::tygem_handicap(10, 9).len(), 4);
        assert!(Record::tygem_handicap(19, 1).is_empty());
    }

    #[test]
    fn tenths_as_sgf_numbers() {
        assert_eq!(tenths(65), "6.5");
        assert_eq!(tenths(50), "5");
        assert_eq!(tenths(5), "0.5");
        assert_eq!(tenths(-5), "-0.5");
    }
}
