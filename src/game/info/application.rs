//! The application that wrote the file (`AP`).

/// The application that wrote the file (`AP`, Compose(SimpleText,
/// SimpleText)): `AP[CGoban:3]`, `AP[GNU Go:3.8]`.
///
/// ```
/// use sgf_grove::game::Application;
/// let ap = Application::parse("GNU Go:3.8");
/// assert_eq!((ap.name, ap.version), ("GNU Go", Some("3.8")));
/// assert_eq!(Application::parse("foxwq").version, None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Application<'s> {
    /// The name (trimmed).
    pub name: &'s str,
    /// The version (trimmed), when a `:` and some text follow the name.
    pub version: Option<&'s str>,
}

impl<'s> Application<'s> {
    /// Splits decoded text at its first `:`. (In the raw value an escaped
    /// `\:` belongs to the name; once decoded the two cannot be told apart,
    /// and names with a `:` are rare.)
    pub fn parse(s: &'s str) -> Application<'s> {
        match s.split_once(':') {
            Some((name, version)) => Application {
                name: name.trim(),
                version: Some(version.trim()).filter(|v| !v.is_empty()),
            },
            None => Application {
                name: s.trim(),
                version: None,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            assert_eq!(
                Application::parse(text),
                Application { name, version },
                "{text:?}"
            );
        }
    }
}
