//! Which program or server wrote a game: several signals of the root,
//! counted per source.

use crate::tree::Node;
use std::fmt;

/// A program or server whose files have known habits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Source {
    /// The Fox server (foxwq, 野狐): `AP[foxwq]` (often after a second
    /// `AP[GNU Go:3.8]`), ranks spelt `9段` / `1级` / `P9段`, times in `TM`,
    /// `TC`, `TT`, komi scaled ×100 or ×50.
    Fox,
    /// The KGS Go Server: `PC[The KGS Go Server …]` or `PC[The Kiseido Go
    /// Server (KGS) …]`, `AP[CGoban:3]`, `OT[5x30 byo-yomi]`.
    Kgs,
    /// Online Go Server (online-go.com).
    Ogs,
    /// The GoGoD database of professional games.
    GoGoD,
    /// go4go.net.
    Go4go,
}

impl Source {
    /// Every source, in the order of the enum.
    pub const ALL: [Source; 5] = [
        Source::Fox,
        Source::Kgs,
        Source::Ogs,
        Source::GoGoD,
        Source::Go4go,
    ];

    /// The lower-case name printed in reports: `fox`, `kgs`, `ogs`,
    /// `gogod`, `go4go`.
    pub fn name(self) -> &'static str {
        match self {
            Source::Fox => "fox",
            Source::Kgs => "kgs",
            Source::Ogs => "ogs",
            Source::GoGoD => "gogod",
            Source::Go4go => "go4go",
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What [`detect`] found: the source the signals point to, the signals,
/// and whether the source is certain (at least two signals of it, none of
/// another). Repairs that depend on a source run only when it is certain.
///
/// ```
/// use sgf_grove::repair::{detect, Source};
/// let doc = sgf_grove::parse("(;AP[GNU Go:3.8]BR[9段]TC[3]TT[30]AP[foxwq]KM[650])".as_bytes())?;
/// let found = detect(doc.games().next().unwrap().root());
/// assert_eq!((found.source, found.certain), (Some(Source::Fox), true));
/// assert_eq!(found.signals, ["AP[foxwq]", "TC and TT", "rank spelt 段/级"]);
/// # Ok::<(), sgf_grove::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Detection {
    /// The source most signals point to, if any signal was found.
    pub source: Option<Source>,
    /// Whether the source is certain.
    pub certain: bool,
    /// The signals seen for that source, in a fixed order.
    pub signals: Vec<&'static str>,
}

impl Detection {
    /// The source, when it is certain.
    pub fn certain_source(&self) -> Option<Source> {
        self.source.filter(|_| self.certain)
    }
}

/// Whether `hay` holds `needle`, ASCII letters in any case.
fn holds(hay: &[u8], needle: &[u8]) -> bool {
    hay.len() >= needle.len()
        && hay
            .windows(needle.len())
            .any(|w| w.eq_ignore_ascii_case(needle))
}

/// Reads the signals of the root `root` (every value of each property
/// looked at, so that Fox's two `AP` both count).
pub fn detect(root: Node<'_, '_>) -> Detection {
    let mut found: [Vec<&'static str>; 5] = Default::default();
    let values = |ident: &str| -> Vec<&[u8]> { root.raw_values(ident).map(|v| v.raw()).collect() };
    let ap = values("AP");
    let mut add = |source: Source, signal: &'static str| {
        let list = &mut found[source as usize];
        if !list.contains(&signal) {
            list.push(signal);
        }
    };
    for v in &ap {
        if v.eq_ignore_ascii_case(b"foxwq") {
            add(Source::Fox, "AP[foxwq]");
        }
        if v.starts_with(b"CGoban:3") {
            add(Source::Kgs, "AP[CGoban:3]");
        }
        if holds(v, b"online-go") || v.starts_with(b"OGS") {
            add(Source::Ogs, "AP names OGS");
        }
    }
    // Fox's own time properties (its early files have no `AP[foxwq]`,
    // only the `AP[GNU Go:3.8]` its exporter writes).
    let fox_times = root.has("TC") && root.has("TT");
    if fox_times {
        add(Source::Fox, "TC and TT");
    }
    for ident in ["BR", "WR"] {
        for v in values(ident) {
            // 段 and 级 in UTF-8 (Fox writes UTF-8).
            if holds(v, "段".as_bytes()) || holds(v, "级".as_bytes()) {
                add(Source::Fox, "rank spelt 段/级");
            }
        }
    }
    for v in values("PC") {
        if holds(v, b"KGS") || holds(v, b"kiseido") {
            add(Source::Kgs, "PC names KGS");
        }
        if holds(v, b"online-go.com") {
            add(Source::Ogs, "PC names online-go.com");
        }
        if v.starts_with(b"OGS") {
            add(Source::Ogs, "PC starts with OGS");
        }
    }
    for v in values("OT") {
        if v.ends_with(b"byo-yomi") || v.ends_with(b"Canadian") {
            // KGS spells overtime `5x30 byo-yomi`, `25/600 Canadian`.
            if v.first().is_some_and(u8::is_ascii_digit) {
                add(Source::Kgs, "OT as KGS spells it");
            }
        }
    }
    for ident in ["SO", "US", "CP", "GC", "AN", "PC"] {
        for v in values(ident) {
            if holds(v, b"GoGoD") {
                add(Source::GoGoD, gogod_signal(ident));
            }
            if holds(v, b"go4go") {
                add(Source::Go4go, go4go_signal(ident));
            }
        }
    }
    let best = Source::ALL
        .into_iter()
        .filter(|s| !found[*s as usize].is_empty())
        .max_by_key(|s| (found[*s as usize].len(), std::cmp::Reverse(*s as usize)));
    let Some(source) = best else {
        return Detection::default();
    };
    let others = Source::ALL
        .into_iter()
        .any(|s| s != source && !found[s as usize].is_empty());
    let signals = std::mem::take(&mut found[source as usize]);
    Detection {
        source: Some(source),
        certain: signals.len() >= 2 && !others,
        signals,
    }
}

fn gogod_signal(ident: &str) -> &'static str {
    match ident {
        "SO" => "SO names GoGoD",
        "US" => "US names GoGoD",
        "CP" => "CP names GoGoD",
        "GC" => "GC names GoGoD",
        "AN" => "AN names GoGoD",
        _ => "PC names GoGoD",
    }
}

fn go4go_signal(ident: &str) -> &'static str {
    match ident {
        "SO" => "SO names go4go",
        "US" => "US names go4go",
        "CP" => "CP names go4go",
        "GC" => "GC names go4go",
        "AN" => "AN names go4go",
        _ => "PC names go4go",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detect_in(sgf: &str) -> Detection {
        let doc = crate::parse(sgf.as_bytes()).unwrap();
        detect(doc.games().next().unwrap().root())
    }

    #[test]
    fn sources_need_two_signals() {
        let d = detect_in("(;AP[foxwq])");
        assert_eq!((d.source, d.certain), (Some(Source::Fox), false));
        let d = detect_in("(;AP[GNU Go:3.8]TC[3]TT[30]BR[P9段])");
        assert_eq!(d.certain_source(), Some(Source::Fox));
        let d = detect_in("(;PC[The KGS Go Server at http://www.gokgs.com/]OT[5x30 byo-yomi])");
        assert_eq!(d.certain_source(), Some(Source::Kgs));
        // A signal of another source makes none certain.
        let d = detect_in("(;AP[foxwq]TC[3]TT[30]PC[KGS])");
        assert_eq!((d.source, d.certain), (Some(Source::Fox), false));
        assert_eq!(detect_in("(;GM[1])"), Detection::default());
        let d = detect_in("(;SO[GoGoD]CP[Copyright GoGoD])");
        assert_eq!(d.certain_source(), Some(Source::GoGoD));
    }
}
