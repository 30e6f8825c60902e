//! The application that wrote the file (`AP`).

use super::helpers::{simple_text, trim_cow};
use crate::value::{split_compose, FromValue, ValueContext, ValueType};
use std::borrow::Cow;

/// The application that wrote the file (`AP`, Compose(SimpleText,
/// SimpleText)): `AP[CGoban:3]`, `AP[GNU Go:3.8]`.
///
/// The text is borrowed when it can be: always from [`Application::parse`],
/// and from the input through [`Node::get`](crate::Node::get) when the value
/// needed no decoding.
///
/// ```
/// use sgf_grove::game::Application;
/// let ap = Application::parse("GNU Go:3.8");
/// assert_eq!((&*ap.name, ap.version.as_deref()), ("GNU Go", Some("3.8")));
/// assert_eq!(Application::parse("foxwq").version, None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Application<'s> {
    /// The name (trimmed).
    pub name: Cow<'s, str>,
    /// The version (trimmed), when a `:` and some text follow the name.
    pub version: Option<Cow<'s, str>>,
}

impl<'s> Application<'s> {
    /// Splits decoded text at its first `:`. (In the raw value an escaped
    /// `\:` belongs to the name; once decoded the two cannot be told apart,
    /// and names with a `:` are rare. [`Node::get`](crate::Node::get) reads
    /// the raw value and tells them apart.)
    pub fn parse(s: &'s str) -> Application<'s> {
        match s.split_once(':') {
            Some((name, version)) => Application::from_parts(name.into(), Some(version.into())),
            None => Application::from_parts(s.into(), None),
        }
    }

    /// The application from its two texts, trimmed; an empty version is
    /// none.
    fn from_parts(name: Cow<'s, str>, version: Option<Cow<'s, str>>) -> Application<'s> {
        Application {
            name: trim_cow(name),
            version: version.map(trim_cow).filter(|v| !v.is_empty()),
        }
    }

    /// The same application, owning its text.
    pub fn into_owned(self) -> Application<'static> {
        Application {
            name: Cow::Owned(self.name.into_owned()),
            version: self.version.map(|v| Cow::Owned(v.into_owned())),
        }
    }
}

/// `AP` read from a node: the raw value is split at its first unescaped
/// `:` (so an escaped `\:` stays in the name), and each part is decoded as
/// SimpleText in the game's charset. Never fails.
///
/// ```
/// use sgf_grove::game::Application;
/// let doc = sgf_grove::parse(br"(;AP[Foo\:Bar:1.0])")?;
/// let ap = doc.games().next().unwrap().root().get::<Application>("AP")?.unwrap();
/// assert_eq!((&*ap.name, ap.version.as_deref()), ("Foo:Bar", Some("1.0")));
/// # Ok::<(), sgf_grove::Error>(())
/// ```
impl<'a> FromValue<'a> for Application<'a> {
    const TYPE: ValueType = ValueType::Compose(&ValueType::SimpleText, &ValueType::SimpleText);

    fn from_value(raw: &'a [u8], ctx: &ValueContext<'a>) -> Option<Self> {
        Some(match split_compose(raw) {
            Some((name, version)) => {
                let (name, version) = (simple_text(name, ctx), simple_text(version, ctx));
                Application::from_parts(name.into(), Some(version.into()))
            }
            None => Application::from_parts(simple_text(raw, ctx).into(), None),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::BoardSize;

    #[test]
    fn applications() {
        for (text, name, version) in [
            ("GNU Go:3.8", "GNU Go", Some("3.8")),
            ("CGoban:3", "CGoban", Some("3")),
            ("foxwq", "foxwq", None),
            ("Aya 5.56", "Aya 5.56", None),
            ("HexGui:1.0.", "HexGui", Some("1.0.")),
            ("Drago:4.0:beta", "Drago", Some("4.0:beta")),
            ("name:", "name", None),
            (" Sabaki : 0.52 ", "Sabaki", Some("0.52")),
        ] {
            let ap = Application::parse(text);
            assert_eq!(
                (&*ap.name, ap.version.as_deref()),
                (name, version),
                "{text:?}"
            );
            assert!(matches!(ap.name, Cow::Borrowed(_)), "{text:?}");
            assert_eq!(ap.clone().into_owned(), ap);
        }
    }

    #[test]
    fn applications_from_raw_values() {
        let arena = crate::text::Arena::new();
        let ctx = ValueContext::new(BoardSize::default(), encoding_rs::UTF_8, &arena);
        for (raw, name, version) in [
            (&b"GNU Go:3.8"[..], "GNU Go", Some("3.8")),
            (b"foxwq", "foxwq", None),
            (br"Foo\:Bar:1.0", "Foo:Bar", Some("1.0")),
            (br"A\]B: 2 ", "A]B", Some("2")),
            (b" CGoban :", "CGoban", None),
            (b"", "", None),
        ] {
            let ap = Application::from_value(raw, &ctx).expect("never fails");
            assert_eq!(
                (&*ap.name, ap.version.as_deref()),
                (name, version),
                "{raw:?}"
            );
        }
        // Borrowed from the input when nothing was decoded.
        let ap = Application::from_value(b"Sabaki:0.52", &ctx).unwrap();
        assert!(matches!(
            (ap.name, ap.version),
            (Cow::Borrowed(_), Some(Cow::Borrowed(_)))
        ));
    }
}
