//! Who played: player names normalised (with an alias table users can
//! extend), bots told from humans, and whether the game was rated.

use std::collections::HashMap;
use std::fmt;

/// Whether `c` is a character that shows nothing but changes a name's
/// bytes: format characters (zero-width spaces and joiners, direction
/// marks, the byte-order mark, the soft hyphen, word joiners), variation
/// selectors, tag characters, and the Hangul fillers some programs use as
/// invisible markers.
fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}'
        | '\u{200B}'..='\u{200F}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}'
        | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}'
        | '\u{E0000}'..='\u{E007F}' | '\u{E0100}'..='\u{E01EF}')
        || (c.is_control())
}

/// A player's name as written, made comparable: invisible characters
/// removed (see below), full-width Latin letters, digits and signs made
/// ASCII (`Ｌｅｅ` is `Lee`), every run of spaces (the ideographic space
/// included) one space, and the ends trimmed. Letter case and the
/// spelling are kept; [`NameAliases`] joins spellings. `None` when
/// nothing is left.
///
/// Removed: format characters (U+200B–U+200F zero-width spaces, joiners
/// and direction marks, U+202A–U+202E, U+2060–U+206F, U+FEFF), the soft
/// hyphen, variation selectors, tag characters, the Hangul fillers
/// (U+115F, U+1160, U+3164, U+FFA0) and control characters.
///
/// ```
/// use sgf_grove::table::normalise_name;
/// assert_eq!(normalise_name("Lee\u{200B} Sedol\u{FEFF}").as_deref(), Some("Lee Sedol"));
/// assert_eq!(normalise_name("Ｌｅｅ　Ｓｅｄｏｌ").as_deref(), Some("Lee Sedol"));
/// assert_eq!(normalise_name(" \u{3164} "), None);
/// ```
pub fn normalise_name(name: &str) -> Option<String> {
    let mut out = String::with_capacity(name.len());
    let mut space = false;
    for c in name.chars() {
        if is_invisible(c) && !c.is_whitespace() {
            continue;
        }
        let c = match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            _ => c,
        };
        if c.is_whitespace() {
            space = !out.is_empty();
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        out.push(c);
    }
    (!out.is_empty()).then_some(out)
}

/// The key two spellings of one name share: lower case, without spaces,
/// hyphens, dots, apostrophes and commas (`Lee Se-dol` and `lee sedol`
/// have one key).
fn alias_key(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '-' | '.' | '\'' | ',' | '_' | '·' | '・'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The built-in aliases: one line per player, the name written in the
/// table first, then other spellings (romanisations and native scripts).
/// Spelling differences of case, spaces, hyphens and dots need no line
/// (see [`NameAliases`]).
const BUILTIN: &str = "\
Lee Sedol = Lee Se-dol, Yi Se-tol, Yi Sedol, 이세돌, 李世石, 李世乭
Lee Changho = Lee Chang-ho, Yi Chang-ho, 이창호, 李昌镐, 李昌鎬
Cho Hunhyun = Cho Hun-hyun, Jo Hunhyeon, 조훈현, 曺薰鉉, 曹薰铉
Cho Chikun = Cho Chi-hun, Jo Chihun, 趙治勲, 赵治勋, 조치훈
Park Junghwan = Park Jung-hwan, Pak Jeonghwan, 박정환, 朴廷桓
Shin Jinseo = Shin Jin-seo, Sin Jinseo, 신진서, 申真谞, 申眞諝
Choi Jeong = Choi Jung, 최정, 崔精
Ke Jie = 柯洁, 柯潔
Gu Li = 古力
Chang Hao = 常昊
Ma Xiaochun = 马晓春, 馬曉春
Nie Weiping = 聂卫平, 聶衛平
Mi Yuting = 芈昱廷
Iyama Yuta = Yuta Iyama, 井山裕太
Cho U = Chou U, 張栩, 张栩
Takemiya Masaki = 武宮正樹, 武宫正树
Go Seigen = Wu Qingyuan, 吳清源, 吴清源
Honinbo Shusaku = Shusaku, 本因坊秀策, Kuwabara Shusaku
Kobayashi Koichi = 小林光一
Sakata Eio = 坂田栄男
Rin Kaiho = Lin Haifeng, 林海峰
O Rissei = Wang Lixing, 王立誠, 王立诚
Otake Hideo = 大竹英雄
Ishida Yoshio = 石田芳夫
Yoda Norimoto = 依田紀基
AlphaGo = Alpha Go
";

/// An alias table: spellings of one player's name, each mapped to the
/// name written first on its line. Lookups first normalise the name
/// ([`normalise_name`]) and compare ignoring letter case, spaces, hyphens,
/// dots, apostrophes and commas, so `lee se-dol` finds `Lee Sedol`; a name
/// no line holds is kept as normalised.
///
/// The built-in table ([`NameAliases::builtin`]) holds well-known
/// professionals' romanisations and native spellings; users add their own
/// lines in the same form ([`NameAliases::add_text`], `sgf export
/// --aliases FILE`): `Name = alias, alias, …`, one player per line, `#`
/// starting a comment. A later line wins over an earlier one for the same
/// spelling.
///
/// ```
/// use sgf_grove::table::NameAliases;
/// let mut aliases = NameAliases::builtin();
/// assert_eq!(aliases.canonical("이세돌").as_deref(), Some("Lee Sedol"));
/// assert_eq!(aliases.canonical("lee se-dol").as_deref(), Some("Lee Sedol"));
/// assert_eq!(aliases.canonical("someone").as_deref(), Some("someone"));
/// aliases.add_text("Shusaku Fan = sfan, sfan2\n")?;
/// assert_eq!(aliases.canonical("SFAN2").as_deref(), Some("Shusaku Fan"));
/// # Ok::<(), sgf_grove::table::AliasError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NameAliases {
    /// [`alias_key`] of each spelling → the name it stands for.
    names: HashMap<String, String>,
}

/// A line of an alias table that cannot be read: its number (from 1) and
/// why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AliasError {
    /// The line's number, from 1.
    pub line: usize,
    /// Why it was not read.
    pub reason: String,
}

impl fmt::Display for AliasError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "alias table line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for AliasError {}

impl NameAliases {
    /// An empty table: every name is kept as normalised.
    pub fn new() -> NameAliases {
        NameAliases::default()
    }

    /// The built-in table (see [`NameAliases`]).
    pub fn builtin() -> NameAliases {
        let mut table = NameAliases::new();
        // The built-in text is ours and well-formed; a test checks it.
        let _ = table.add_text(BUILTIN);
        table
    }

    /// The built-in table, built once and shared (what rows are built
    /// with).
    pub(crate) fn builtin_shared() -> &'static NameAliases {
        static TABLE: std::sync::OnceLock<NameAliases> = std::sync::OnceLock::new();
        TABLE.get_or_init(NameAliases::builtin)
    }

    /// Adds the lines of `text` (`Name = alias, alias, …`; blank lines and
    /// `#` comments skipped).
    ///
    /// # Errors
    ///
    /// The first line that has no `=` or no name before it; the lines
    /// before it are added.
    pub fn add_text(&mut self, text: &str) -> Result<(), AliasError> {
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let error = |reason: &str| AliasError {
                line: i + 1,
                reason: reason.to_owned(),
            };
            let (name, aliases) = line
                .split_once('=')
                .ok_or_else(|| error("no `=` between the name and its aliases"))?;
            let name = normalise_name(name).ok_or_else(|| error("no name before `=`"))?;
            self.names.insert(alias_key(&name), name.clone());
            for alias in aliases.split(',').filter_map(normalise_name) {
                self.names.insert(alias_key(&alias), name.clone());
            }
        }
        Ok(())
    }

    /// The name `name` stands for: normalised ([`normalise_name`]), then
    /// looked up. `None` when nothing is left of it.
    pub fn canonical(&self, name: &str) -> Option<String> {
        let name = normalise_name(name)?;
        Some(self.names.get(&alias_key(&name)).cloned().unwrap_or(name))
    }

    /// The number of spellings the table knows.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the table knows no spelling.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// Go programs whose names mark a player as a bot: compared with the
/// player's name lower-cased, as the whole name or followed by a version
/// (digits, `-`, `_`, `.`, a space, or `x`/`v` then a digit).
/// Names people also go by (`Sai`, `Aya`, `Zen`, `Elf`) are left out.
const ENGINES: &[&str] = &[
    "alphago",
    "alphagozero",
    "crazystone",
    "crazy stone",
    "darkforest",
    "elfopengo",
    "fineart",
    "fuego",
    "gnugo",
    "gnu go",
    "golaxy",
    "katago",
    "kata",
    "leela",
    "leelazero",
    "leela zero",
    "leelaz",
    "mogo",
    "manyfaces",
    "many faces of go",
    "pachi",
    "phoenixgo",
    "zen19",
    "zen19d",
    "zen19x",
    "dolbaram",
    "handol",
    "绝艺",
    "金毛测试",
];

/// Whether a player named `name` (as written) is a program. The rules,
/// in order:
///
/// 1. the name, lower-cased and normalised ([`normalise_name`]), is a
///    known engine's (`GNU Go`, `KataGo`, `Leela Zero`, `Zen19X`, `Pachi`,
///    `AlphaGo`, `FineArt`/`绝艺`, …), alone or followed by a version
///    (`Leela 0.11`, `KataGo-1.12`, `pachi_12`, `kata1-b40c256`: digits,
///    or `v` and digits, after at most one separator); names people also
///    go by (`Sai`, `Aya`, `Zen`, `Elf`) are not in the list;
/// 2. the name ends in `bot`, then optional digits, where `bot` starts a
///    word: after a capital `B` (`HiraBot41`, `GoBot`), or after a
///    character that is no letter (`kgs-bot`, `my_bot2`), or is the whole
///    name; `Abbot` and `Talbot` are people;
/// 3. the rank is `bot`/`AI`/`computer`, or the name ends in `(bot)` or
///    `[bot]`.
///
/// Names are not proof: a human may call themself `Zen`; the column says
/// what the name says. The application that wrote the file (`AP`) is not
/// a signal: servers write their own name there for every game.
///
/// ```
/// use sgf_grove::table::is_bot_name;
/// assert!(is_bot_name("GNU Go", None));
/// assert!(is_bot_name("HiraBot41", None));
/// assert!(is_bot_name("Leela Zero 0.17", None));
/// assert!(is_bot_name("someone", Some("AI")));
/// assert!(!is_bot_name("Abbot", None));
/// assert!(!is_bot_name("Zenon", None));
/// ```
pub fn is_bot_name(name: &str, rank: Option<&str>) -> bool {
    if let Some(rank) = rank {
        let r = rank.trim();
        if r.eq_ignore_ascii_case("bot")
            || r.eq_ignore_ascii_case("ai")
            || r.eq_ignore_ascii_case("computer")
        {
            return true;
        }
    }
    let Some(name) = normalise_name(name) else {
        return false;
    };
    let lower = name.to_lowercase();
    if lower.ends_with("(bot)") || lower.ends_with("[bot]") {
        return true;
    }
    for engine in ENGINES {
        if let Some(rest) = lower.strip_prefix(engine)
            && (rest.is_empty() || is_version(rest))
        {
            return true;
        }
    }
    // `…bot` then digits, with `bot` starting a word.
    let trimmed = name.trim_end_matches(|c: char| c.is_ascii_digit());
    let chars: Vec<char> = trimmed.chars().collect();
    let n = chars.len();
    if n >= 3
        && chars[n - 3..]
            .iter()
            .collect::<String>()
            .eq_ignore_ascii_case("bot")
    {
        if n == 3 {
            return true;
        }
        let b = chars[n - 3];
        let before = chars[n - 4];
        return b == 'B' || !before.is_alphabetic();
    }
    false
}

/// Whether `rest`, what follows an engine's name, is a version: a digit,
/// or `v` then a digit, either after one `-`, `_`, `.`, `:`, `/` or
/// space.
fn is_version(rest: &str) -> bool {
    let b = rest.as_bytes();
    let b = match b.first() {
        Some(b'-' | b'_' | b'.' | b' ' | b':' | b'/') => &b[1..],
        _ => b,
    };
    match b {
        [d, ..] if d.is_ascii_digit() => true,
        [b'v' | b'V', d, ..] => d.is_ascii_digit(),
        _ => false,
    }
}

/// Whether the game was rated, from the words of its root's game name
/// (`GN`), event (`EV`) and game comment (`GC`): `Some(false)` when one
/// says `unrated`, `unranked`, `not rated`, `free`, `friendly`,
/// `teaching`, `review` or `demonstration`; else `Some(true)` when one
/// says `rated` or `ranked`; else `None` (most files say nothing: the
/// servers' own SGF leaves it out).
///
/// ```
/// use sgf_grove::table::rated_from_texts;
/// assert_eq!(rated_from_texts(&["Ranked game", ""]), Some(true));
/// assert_eq!(rated_from_texts(&["Friendly Match"]), Some(false));
/// assert_eq!(rated_from_texts(&["Meijin title match"]), None);
/// ```
pub fn rated_from_texts(texts: &[&str]) -> Option<bool> {
    let mut rated = None;
    for text in texts {
        let lower = text.to_lowercase();
        let words: Vec<&str> = lower
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        for (i, w) in words.iter().enumerate() {
            match *w {
                "unrated" | "unranked" | "free" | "friendly" | "teaching" | "review"
                | "demonstration" => return Some(false),
                "rated" | "ranked" if i > 0 && words[i - 1] == "not" => return Some(false),
                "rated" | "ranked" => rated = Some(true),
                _ => {}
            }
        }
    }
    rated
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_table_reads() {
        let mut t = NameAliases::new();
        t.add_text(BUILTIN).unwrap();
        assert!(t.len() > 60, "{}", t.len());
        assert_eq!(t.canonical("李昌镐").as_deref(), Some("Lee Changho"));
        assert_eq!(t.canonical("Yi  Se-tol").as_deref(), Some("Lee Sedol"));
        assert_eq!(t.canonical("Lee Sedol").as_deref(), Some("Lee Sedol"));
    }

    #[test]
    fn alias_errors_name_the_line() {
        let mut t = NameAliases::new();
        let e = t
            .add_text("# players\nA = b\n\nno equals here\n")
            .unwrap_err();
        assert_eq!(e.line, 4);
        assert_eq!(
            t.canonical("B").as_deref(),
            Some("A"),
            "lines before the error are kept"
        );
        assert_eq!(t.add_text(" = x").unwrap_err().line, 1);
        // A later line wins.
        t.add_text("C = b").unwrap();
        assert_eq!(t.canonical("b").as_deref(), Some("C"));
    }

    #[test]
    fn invisible_characters_go() {
        assert_eq!(
            normalise_name("\u{200E}abc\u{200D}d\u{00AD}e").as_deref(),
            Some("abcde")
        );
        assert_eq!(normalise_name("a\tb\r\nc").as_deref(), Some("a b c"));
        assert_eq!(normalise_name("\u{3164}\u{200B}"), None);
        assert_eq!(normalise_name(""), None);
        assert_eq!(normalise_name("黑\u{FE0F}棋").as_deref(), Some("黑棋"));
    }

    #[test]
    fn bots_and_people() {
        for bot in [
            "GnuGo",
            "gnugo3.8",
            "KataGo",
            "kata1-b40c256-s11101799168-d2715431527",
            "Leela0.11.0",
            "LeelaZero",
            "Zen19X",
            "zen19d",
            "HiraBot43",
            "CrazyStone",
            "pachi_12",
            "Fuego-1.1",
            "my_bot",
            "kgs-bot2",
            "bot",
            "Bot7",
            "AlphaGo",
            "golaxy 9",
            "绝艺",
            "金毛测试",
            "foo (bot)",
        ] {
            assert!(is_bot_name(bot, None), "{bot}");
        }
        for person in [
            "Abbot",
            "Talbot",
            "robot",
            "Zenon",
            "katana",
            "Leelah",
            "alphago_fan",
            "Master",
            "Galileo",
            "",
            "sujun",
            "Kato",
        ] {
            assert!(!is_bot_name(person, None), "{person}");
        }
        assert!(is_bot_name("x", Some(" Computer ")));
        assert!(!is_bot_name("x", Some("9d")));
    }

    #[test]
    fn rated_words() {
        assert_eq!(rated_from_texts(&[]), None);
        assert_eq!(rated_from_texts(&["rated"]), Some(true));
        assert_eq!(rated_from_texts(&["game not rated"]), Some(false));
        assert_eq!(rated_from_texts(&["Rated", "free game"]), Some(false));
        assert_eq!(rated_from_texts(&["separated groups"]), None);
        assert_eq!(rated_from_texts(&["Unranked"]), Some(false));
    }
}
