//! Komi (`KM`).

use super::helpers::parse_real;
use super::Rules;
use crate::error::{Error, Result};
use crate::value::{FromValue, ValueContext, ValueType};

/// The property this file reads, named in its errors.
const IDENT: &str = "KM";

/// How a komi value was written, as [`Komi::scale`] infers it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KomiScale {
    /// In points, as FF\[4\] says (`KM[6.5]`, `KM[-100.00]`, `KM[0]`).
    #[default]
    Points,
    /// Points × 100, as the Fox server writes them for territory-scoring
    /// games (`KM[650]` = 6.5 points).
    Times100,
    /// Stones × 100 (that is, points × 50), as the Fox server writes them for
    /// Chinese-rules games, where komi is counted in stones, 1 stone = 2
    /// points (`KM[375]` = 3¾ stones = 7.5 points).
    Times50,
}

impl KomiScale {
    /// What a value written in this scale is divided by to give points.
    pub fn divisor(self) -> f64 {
        match self {
            KomiScale::Points => 1.0,
            KomiScale::Times100 => 100.0,
            KomiScale::Times50 => 50.0,
        }
    }
}

/// Komi (`KM`, a Real): the value as written, as a number, and normalised
/// for the Fox server's scaled values.
///
/// # The Fox rule
///
/// The Fox server (foxwq) writes komi multiplied: in its records
/// (`../shared/corpus/fox-featurecat`, 28,430 files) `KM` takes exactly these
/// values: `0` (22,346), `650` (3,709), `750` (1,056), `375` (535), `325`
/// (297), `550` (258), `450` (200), `275` (19), `225` (2). Every value ending
/// in 50 comes with `RU[Japanese]` and is points × 100 (`650` = 6.5). Every
/// value ending in 25 or 75 comes with `RU[Chinese]` and is komi in *stones*
/// × 100 (`375` = 3¾ stones), which Chinese rules count at 2 points a stone:
/// `375` = 7.5 points, `325` = 6.5, `275` = 5.5, `225` = 4.5, the usual
/// Chinese komis. Other servers write points (`KM[6.50]`, `KM[0.50]`,
/// `KM[-100.00]` in KGS handicap-by-komi games).
///
/// A real komi in points lies within ±150 and is a multiple of 0.25 (almost
/// always of 0.5), so a value is taken as scaled when **it is written as an
/// integer, without a decimal point, its size is between 100 and 15,000, and
/// it is a multiple of 25**: then a multiple of 50 is ×100 (points), any other
/// multiple of 25 is ×50 (quarter stones). `KM[-100.00]` is not scaled (it
/// has a decimal point), nor is `KM[80]` (too small to tell: a scaled
/// `KM[50]` cannot be told from a real 50-point komi, and Fox writes no such
/// value). [`Komi::normalised_for`] can use the rules as a further hint.
///
/// ```
/// use sgf_grove::game::{Komi, KomiScale};
/// let k = Komi::parse("650")?;
/// assert_eq!((k.value(), k.scale(), k.normalised()), (650.0, KomiScale::Times100, 6.5));
/// let k = Komi::parse("375")?;
/// assert_eq!((k.scale(), k.normalised()), (KomiScale::Times50, 7.5));
/// let k = Komi::parse("6.50")?;
/// assert_eq!((k.raw(), k.value(), k.looks_scaled()), ("6.50", 6.5, false));
/// assert!(Komi::parse("six").is_err());
/// # Ok::<(), sgf_grove::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Komi<'s> {
    raw: &'s str,
    value: f64,
    comma: bool,
}

impl<'s> Komi<'s> {
    /// Reads a komi. Accepts an SGF Real (`6.5`, `-3`, `+0.50`, `.5`) with
    /// whitespace around it, and a comma as decimal separator (`6,5`).
    ///
    /// # Errors
    ///
    /// When the text is empty or not such a number (`"six"`, `"6.5 pts"`,
    /// `"1e2"`, `"inf"`). An empty `KM[]` means "no komi stated";
    /// [`GameInfo::komi`](super::GameInfo::komi) returns `None` for it.
    pub fn parse(s: &'s str) -> Result<Komi<'s>> {
        let t = s.trim();
        if t.is_empty() {
            return Err(Error::game_info(IDENT, "empty", s));
        }
        let (value, comma) =
            parse_real(t).ok_or_else(|| Error::game_info(IDENT, "not a number", s))?;
        Ok(Komi {
            raw: s,
            value,
            comma,
        })
    }

    /// The text as given (`"6.50"` stays `"6.50"`).
    pub fn raw(&self) -> &'s str {
        self.raw
    }

    /// The value as written, as a number (`KM[650]` gives 650).
    pub fn value(&self) -> f64 {
        self.value
    }

    /// Whether the text was not a strict SGF Real (whitespace around it, or
    /// a decimal comma).
    pub fn is_lenient(&self) -> bool {
        self.comma || self.raw.trim().len() != self.raw.len()
    }

    /// How the value was written: in points, or scaled by the Fox server
    /// (see [the Fox rule](Komi#the-fox-rule)).
    pub fn scale(&self) -> KomiScale {
        let t = self.raw.trim();
        let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return KomiScale::Points;
        }
        let v = self.value.abs();
        if !(100.0..=15_000.0).contains(&v) || v % 25.0 != 0.0 {
            KomiScale::Points
        } else if v % 50.0 == 0.0 {
            KomiScale::Times100
        } else {
            KomiScale::Times50
        }
    }

    /// Whether the value looked scaled by the Fox server.
    pub fn looks_scaled(&self) -> bool {
        self.scale() != KomiScale::Points
    }

    /// The komi in points, undoing the Fox scaling the value alone shows
    /// (`650` → 6.5, `375` → 7.5, `6.5` → 6.5).
    pub fn normalised(&self) -> f64 {
        self.value / self.scale().divisor()
    }

    /// The komi in points, undoing the Fox scaling with the game's rules as
    /// a hint: a scaled value under [`Rules::Chinese`] is stones × 100 (÷ 50),
    /// under [`Rules::Japanese`] or [`Rules::Korean`] points × 100 (÷ 100),
    /// otherwise as [`Komi::normalised`]. (In the Fox corpus the hint and the
    /// value always agree; it matters for values such as `350`, 3.5 points
    /// or 3½ stones.)
    pub fn normalised_for(&self, rules: Option<&Rules>) -> f64 {
        let scale = match (self.scale(), rules) {
            (KomiScale::Points, _) => KomiScale::Points,
            (_, Some(Rules::Chinese)) => KomiScale::Times50,
            (_, Some(Rules::Japanese | Rules::Korean)) => KomiScale::Times100,
            (scale, _) => scale,
        };
        self.value / scale.divisor()
    }
}

/// `KM` read from a node, borrowing the input. The value is read as written,
/// like a [`Real`](crate::value::Real) (whitespace around it allowed,
/// escapes not removed), since a komi is ASCII in every charset.
///
/// ```
/// use sgf_grove::game::{Komi, KomiScale};
/// let doc = sgf_grove::parse(b"(;KM[650]RU[Japanese])")?;
/// let komi = doc.games().next().unwrap().root().get::<Komi>("KM")?.unwrap();
/// assert_eq!((komi.raw(), komi.scale(), komi.normalised()), ("650", KomiScale::Times100, 6.5));
/// # Ok::<(), sgf_grove::Error>(())
/// ```
///
/// # Errors
///
/// As [`Komi::parse`], at the value's position (`KM[]` is an error: read
/// `Option<Komi>` to take it as "no komi").
impl<'a> FromValue<'a> for Komi<'a> {
    const TYPE: ValueType = ValueType::Real;

    fn from_value(raw: &'a [u8], ctx: &ValueContext<'a>) -> Option<Self> {
        Self::try_from_value(raw, ctx).ok()
    }

    fn try_from_value(raw: &'a [u8], _: &ValueContext<'a>) -> Result<Self> {
        match std::str::from_utf8(raw) {
            Ok(text) => Komi::parse(text),
            Err(_) => Err(Error::game_info(
                IDENT,
                "not a number",
                &String::from_utf8_lossy(raw),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    #[test]
    fn komi_values_and_scales() {
        use KomiScale::*;
        // (text, value, scale, normalised)
        for (text, value, scale, normalised) in [
            // Points, as FF[4] and most servers write them.
            ("6.5", 6.5, Points, 6.5),
            ("6.50", 6.5, Points, 6.5),
            ("0.50", 0.5, Points, 0.5),
            ("0", 0.0, Points, 0.0),
            ("0.00", 0.0, Points, 0.0),
            ("-4.50", -4.5, Points, -4.5),
            ("-100.00", -100.0, Points, -100.0),
            ("75.50", 75.5, Points, 75.5),
            ("60", 60.0, Points, 60.0),
            ("80", 80.0, Points, 80.0),
            ("7", 7.0, Points, 7.0),
            ("120", 120.0, Points, 120.0),
            ("20000", 20000.0, Points, 20000.0),
            // Fox, every value it writes.
            ("650", 650.0, Times100, 6.5),
            ("750", 750.0, Times100, 7.5),
            ("550", 550.0, Times100, 5.5),
            ("450", 450.0, Times100, 4.5),
            ("375", 375.0, Times50, 7.5),
            ("325", 325.0, Times50, 6.5),
            ("275", 275.0, Times50, 5.5),
            ("225", 225.0, Times50, 4.5),
            // Beyond the corpus.
            ("-650", -650.0, Times100, -6.5),
            ("100", 100.0, Times100, 1.0),
            ("+650", 650.0, Times100, 6.5),
        ] {
            let k = Komi::parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
            assert_eq!(k.raw(), text);
            assert_eq!(k.value(), value, "{text:?}");
            assert_eq!(k.scale(), scale, "{text:?}");
            assert_eq!(k.looks_scaled(), scale != Points, "{text:?}");
            assert_eq!(k.normalised(), normalised, "{text:?}");
            assert!(!k.is_lenient(), "{text:?}");
        }
    }

    #[test]
    fn komi_lenient_and_invalid() {
        let k = Komi::parse(" 6,5 ").unwrap();
        assert_eq!((k.value(), k.raw(), k.is_lenient()), (6.5, " 6,5 ", true));
        assert!(Komi::parse(" 650 ").unwrap().looks_scaled());
        for text in [
            "",
            "  ",
            "six",
            "6.5 points",
            "1e2",
            "inf",
            "nan",
            "6½",
            "--6",
        ] {
            let err = Komi::parse(text).unwrap_err();
            assert_eq!(err.value_text(), Some(text));
            assert_eq!(err.kind(), ErrorKind::InvalidGameInfo { ident: "KM" });
        }
        assert_eq!(Komi::parse("").unwrap_err().reason(), Some("empty"));
        let err = Komi::parse("six").unwrap_err();
        assert_eq!(err.reason(), Some("not a number"));
        assert_eq!(err.to_string(), r#"malformed KM value "six": not a number"#);
    }

    #[test]
    fn komi_with_rules() {
        let chinese = Some(&Rules::Chinese);
        let japanese = Some(&Rules::Japanese);
        let k = Komi::parse("350").unwrap();
        assert_eq!(k.normalised(), 3.5);
        assert_eq!(k.normalised_for(chinese), 7.0);
        assert_eq!(k.normalised_for(japanese), 3.5);
        assert_eq!(k.normalised_for(None), 3.5);
        let k = Komi::parse("375").unwrap();
        assert_eq!(k.normalised_for(chinese), 7.5);
        assert_eq!(k.normalised_for(Some(&Rules::Aga)), 7.5);
        // Unscaled values ignore the rules.
        assert_eq!(Komi::parse("7.5").unwrap().normalised_for(chinese), 7.5);
    }
}
