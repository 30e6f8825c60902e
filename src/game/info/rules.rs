//! The rule set (`RU`).

use super::helpers::simple_text;
use crate::value::{FromValue, ValueContext, ValueType};
use std::fmt;

/// The rule set (`RU`, SimpleText). FF\[4\] names `AGA`, `GOE`, `Japanese` and
/// `NZ`; other common names are recognised as well, case-insensitively and
/// ignoring spaces, `-`, `_`, `/`, `'` and a trailing `rules`.
///
/// | variant | spellings |
/// |---|---|
/// | [`Rules::Japanese`] | `Japanese`, `Japan`, `JP`, `JPN`, `日本` |
/// | [`Rules::Chinese`] | `Chinese`, `China`, `CN`, `CHN`, `中国`, `中國` |
/// | [`Rules::Aga`] | `AGA`, `American` |
/// | [`Rules::Goe`] | `GOE`, `Ing`, `Ing's`, `SST`, `应氏`, `應氏` |
/// | [`Rules::NewZealand`] | `NZ`, `New Zealand` |
/// | [`Rules::Korean`] | `Korean`, `Korea`, `KR`, `KOR`, `韩国`, `韓國`, `한국` |
/// | [`Rules::TrompTaylor`] | `Tromp/Taylor`, `Tromp-Taylor`, `TT` |
///
/// In the shared corpus: `Japanese` 34,804, `Chinese` 1,084, `AGA` 49,
/// `NZ` 17, `Tromp/Taylor` 12, `TT--` 1 (read as Tromp–Taylor).
///
/// ```
/// use sgf_grove::game::Rules;
/// assert_eq!(Rules::parse("japanese"), Rules::Japanese);
/// assert_eq!(Rules::parse("Tromp/Taylor"), Rules::TrompTaylor);
/// assert_eq!(Rules::parse("Ing's rules"), Rules::Goe);
/// assert_eq!(Rules::parse("Lasker"), Rules::Other("Lasker".into()));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// Japanese (territory scoring).
    Japanese,
    /// Chinese (area scoring).
    Chinese,
    /// American Go Association.
    Aga,
    /// Ing's rules (Goe, SST).
    Goe,
    /// New Zealand.
    NewZealand,
    /// Korean.
    Korean,
    /// Tromp–Taylor (computer go).
    TrompTaylor,
    /// Anything else, as given (trimmed).
    Other(String),
}

impl Rules {
    /// Reads a rule set; never fails. Allocates only for
    /// [`Rules::Other`] (and for a name over 64 bytes).
    pub fn parse(s: &str) -> Rules {
        let t = s.trim();
        let kept = |c: &char| !matches!(c, ' ' | '-' | '_' | '/' | '\'' | '.');
        // The name without separators, in lower case: on the stack.
        let mut buf = [0u8; 64];
        let mut len = 0;
        for c in t.chars().filter(kept) {
            let c = c.to_ascii_lowercase();
            if len + c.len_utf8() > buf.len() {
                let key: String = t.chars().filter(kept).collect::<String>().to_lowercase();
                return Rules::from_key(&key, t);
            }
            len += c.encode_utf8(&mut buf[len..]).len();
        }
        let key = std::str::from_utf8(&buf[..len]).expect("whole characters");
        Rules::from_key(key, t)
    }

    /// The rule set a name without separators in lower case stands for;
    /// `t` is the name as written, trimmed.
    fn from_key(mut key: &str, t: &str) -> Rules {
        for suffix in ["rules", "rule", "规则", "規則", "ルール", "룰"] {
            if key.len() > suffix.len() && key.ends_with(suffix) {
                key = &key[..key.len() - suffix.len()];
            }
        }
        let any = |words: &[&str]| words.contains(&key);
        let has = |words: &[&str]| words.iter().any(|w| key.contains(w));
        if any(&["japanese", "japan", "jp", "jpn"]) || has(&["日本"]) {
            Rules::Japanese
        } else if any(&["chinese", "china", "cn", "chn"]) || has(&["中国", "中國"]) {
            Rules::Chinese
        } else if any(&["aga", "american"]) {
            Rules::Aga
        } else if any(&["goe", "ing", "ings", "sst"]) || has(&["应氏", "應氏"]) {
            Rules::Goe
        } else if any(&["nz", "newzealand"]) {
            Rules::NewZealand
        } else if any(&["korean", "korea", "kr", "kor"]) || has(&["韩国", "韓國", "한국"]) {
            Rules::Korean
        } else if any(&["tromptaylor", "tt"]) {
            Rules::TrompTaylor
        } else {
            Rules::Other(t.to_owned())
        }
    }

    /// The usual spelling (FF\[4\]'s where it has one): `Japanese`,
    /// `Chinese`, `AGA`, `GOE`, `NZ`, `Korean`, `Tromp-Taylor`; the text for
    /// [`Rules::Other`].
    pub fn as_str(&self) -> &str {
        match self {
            Rules::Japanese => "Japanese",
            Rules::Chinese => "Chinese",
            Rules::Aga => "AGA",
            Rules::Goe => "GOE",
            Rules::NewZealand => "NZ",
            Rules::Korean => "Korean",
            Rules::TrompTaylor => "Tromp-Taylor",
            Rules::Other(s) => s,
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `RU` read from a node: decoded as SimpleText in the game's charset, then
/// [`Rules::parse`]. Never fails.
///
/// ```
/// use sgf_grove::game::Rules;
/// let doc = sgf_grove::parse(b"(;RU[Tromp-Taylor])")?;
/// let root = doc.games().next().unwrap().root();
/// assert_eq!(root.get::<Rules>("RU")?, Some(Rules::TrompTaylor));
/// # Ok::<(), sgf_grove::Error>(())
/// ```
impl<'a> FromValue<'a> for Rules {
    const TYPE: ValueType = ValueType::SimpleText;

    fn from_value(raw: &'a [u8], ctx: &ValueContext<'a>) -> Option<Self> {
        Some(Rules::parse(simple_text(raw, ctx)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules() {
        for (text, want) in [
            ("Japanese", Rules::Japanese),
            ("japanese", Rules::Japanese),
            ("JP", Rules::Japanese),
            ("Japanese rules", Rules::Japanese),
            ("日本规则", Rules::Japanese),
            ("Chinese", Rules::Chinese),
            ("chinese", Rules::Chinese),
            ("CN", Rules::Chinese),
            ("中国规则", Rules::Chinese),
            ("AGA", Rules::Aga),
            ("aga", Rules::Aga),
            ("AGA rules", Rules::Aga),
            ("GOE", Rules::Goe),
            ("Ing", Rules::Goe),
            ("Ing's", Rules::Goe),
            ("应氏规则", Rules::Goe),
            ("NZ", Rules::NewZealand),
            ("New Zealand", Rules::NewZealand),
            ("Korean", Rules::Korean),
            ("한국 룰", Rules::Korean),
            ("Tromp/Taylor", Rules::TrompTaylor),
            ("Tromp-Taylor", Rules::TrompTaylor),
            ("tt", Rules::TrompTaylor),
            (" Japanese ", Rules::Japanese),
            ("TT--", Rules::TrompTaylor),
            ("Lasker-Maas", Rules::Other("Lasker-Maas".into())),
            ("rules", Rules::Other("rules".into())),
        ] {
            assert_eq!(Rules::parse(text), want, "{text:?}");
        }
        assert_eq!(Rules::NewZealand.to_string(), "NZ");
        assert_eq!(Rules::Other("x".into()).as_str(), "x");
        assert_eq!(
            Rules::parse(Rules::TrompTaylor.as_str()),
            Rules::TrompTaylor
        );
    }
}
