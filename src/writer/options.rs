//! What the writer does: [`WriteOptions`] and its parts.

use encoding_rs::Encoding;

/// How a [`Writer`](super::Writer) writes: raw or canonical, transcoded or
/// not, with or without some properties. Built by methods from
/// [`WriteOptions::new`] (raw mode, nothing dropped, nothing transcoded:
/// the writer's output of old).
///
/// The parts combine freely: [`canonical`](WriteOptions::canonical) says
/// how properties and values are spelt; [`transcode`](WriteOptions::transcode)
/// which charset text ends in; [`drop_props`](WriteOptions::drop_props) which
/// properties are left out; [`wrap`](WriteOptions::wrap) where lines break.
///
/// ```
/// use sgf_grove::writer::{PointStyle, Preset, Target, WriteOptions};
/// let options = WriteOptions::new()
///     .canonical(true)
///     .points(PointStyle::Compress)
///     .transcode(Target::Utf8)
///     .drop_preset(Preset::Comments)
///     .wrap(72);
/// let doc = sgf_grove::parse(b"(;CA[GB2312]SZ[9]C[\xc4\xe3\xba\xc3]AB[aa][ab][ba][bb];B[])")?;
/// let out = sgf_grove::writer::write_with(doc.collection(), &options)?;
/// assert_eq!(out, b"(;FF[4]CA[UTF-8]SZ[9]AB[aa:bb];B[])\n");
/// # Ok::<(), sgf_grove::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WriteOptions {
    pub(crate) canonical: bool,
    pub(crate) tt_pass: bool,
    pub(crate) points: PointStyle,
    pub(crate) target: Option<Target>,
    pub(crate) wrap: Option<usize>,
    pub(crate) drop: Vec<Box<str>>,
    pub(crate) engine_comments: bool,
}

impl WriteOptions {
    /// Raw mode: every value byte for byte as read, identifiers normalised,
    /// a property repeated in a node written once with all its values.
    pub fn new() -> WriteOptions {
        WriteOptions::default()
    }

    /// Canonical mode, which gives the same bytes for the same game
    /// whatever the program that wrote it:
    ///
    /// - the root holds `FF[4]` (in place of any other `FF`);
    /// - in every node the properties `GM FF CA AP ST SZ` come first, in
    ///   that order, then the game information `GN EV RO DT PC PB BR BT PW
    ///   WR WT KM HA RU TM OT RE AN CP SO US GC ON` in that order, then
    ///   the others in file order (the root of a game whose `CA` switched
    ///   to reading a character at a time keeps its file order, unless
    ///   text is [transcoded](WriteOptions::transcode): its values before
    ///   `CA` were read a byte at a time);
    /// - a property repeated in a node is written once, with all its values
    ///   when the catalogue says it takes a list or does not know it; a
    ///   single-valued property (`AP`, `B`, `KM`…) keeps its first value
    ///   and the others are dropped;
    /// - escapes only where a reader needs them: `\]`, `\\`, `\:` in the
    ///   halves of compose values (and of unknown properties, which might
    ///   be compose), and `\;` after a `(` (`(;GM[1]` in a value reads as
    ///   a new game). A value holding `(` keeps its escapes as written. A `\` before a byte that is not ASCII stays,
    ///   and so do soft line breaks (`\` + line break, which text never
    ///   shows): removing them could join the halves of a damaged
    ///   character; transcoded text, decoded first, loses both. In a game
    ///   whose charset is neither UTF-8 nor a single-byte one (Shift_JIS,
    ///   Big5, GBK, GB18030, EUC-KR, EUC-JP, ISO-2022-JP) values keep their
    ///   escapes as written unless they are transcoded: there removing a
    ///   `\` can join bytes into a character;
    /// - passes as `[]` (see [`tt_pass`](WriteOptions::tt_pass)) and point
    ///   lists as [`points`](WriteOptions::points) says.
    ///
    /// Values stay otherwise byte for byte: text keeps its line breaks and
    /// spaces, numbers their spelling.
    ///
    /// ```
    /// use sgf_grove::writer::WriteOptions;
    /// let doc = sgf_grove::parse(br"(;PB[Lee]GM[1]AP[a][b]C[a\:b \x];B[tt]AB[aa]AB[bb])")?;
    /// let out = sgf_grove::writer::write_with(doc.collection(), &WriteOptions::new().canonical(true))?;
    /// assert_eq!(out, b"(;GM[1]FF[4]AP[a]PB[Lee]C[a:b x];B[]AB[aa][bb])\n");
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    ///
    /// Default: `false` (raw mode, the bytes as read).
    #[must_use]
    pub fn canonical(mut self, yes: bool) -> WriteOptions {
        self.canonical = yes;
        self
    }

    /// In canonical mode, writes passes as `[tt]` on boards up to 19×19
    /// (on larger boards `tt` is a point, and passes stay `[]`), for
    /// programs that only know FF\[3\].
    ///
    /// Default: `false` (`[]`, the FF\[4\] way).
    #[must_use]
    pub fn tt_pass(mut self, yes: bool) -> WriteOptions {
        self.tt_pass = yes;
        self
    }

    /// In canonical mode, how point lists (`AB`, `AW`, `AE`, markup, `VW`,
    /// `TB`, `TW`…) of Go games are written; see [`PointStyle`].
    ///
    /// Default: [`PointStyle::AsWritten`].
    #[must_use]
    pub fn points(mut self, style: PointStyle) -> WriteOptions {
        self.points = style;
        self
    }

    /// Transcodes text into the charset `target` names and records it in
    /// the root as `CA` (in place of the root's own). Every value holding
    /// a byte that is not ASCII (text, simple text, the text half of `LB`
    /// or `AP`, unknown properties) is decoded in the game's charset as a
    /// typed getter decodes it, and written in the target charset with the
    /// escapes it needs (soft line breaks removed); ASCII values (points,
    /// numbers, most text) read alike in every charset and are copied (in
    /// canonical mode, with canonical escapes).
    ///
    /// Text that the game's charset could not decode holds U+FFFD, which
    /// UTF-8 writes as it is.
    ///
    /// ```
    /// use sgf_grove::writer::{Target, WriteOptions};
    /// use sgf_grove::encoding_rs::GBK;
    /// let doc = sgf_grove::parse("(;CA[UTF-8]PB[李昌镐]PW[😀])".as_bytes())?;
    /// let gbk = WriteOptions::new().transcode(Target::To(GBK));
    /// let err = sgf_grove::writer::write_with(doc.collection(), &gbk).unwrap_err();
    /// assert_eq!(err.to_string(), "character '😀' (U+1F600) cannot be written in GBK, in property \"PW\" at 1:28");
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Writing fails with [`ErrorKind::Unrepresentable`](crate::ErrorKind::Unrepresentable)
    /// at the first character the target cannot represent: never mojibake,
    /// never `?`. The output then ends before the node that holds it.
    ///
    /// Default: none (values keep the bytes of their charset).
    #[must_use]
    pub fn transcode(mut self, target: Target) -> WriteOptions {
        self.target = Some(target);
        self
    }

    /// Breaks lines so that they stay within `width` bytes where it can:
    /// before a node, a variation's `(`, or a property, never inside
    /// a value (a soft line break there would change nothing only in text,
    /// and a value longer than the width gets a line of its own). A `)`
    /// stays on the line of what it closes. Line breaks inside text values
    /// count as such. `0` turns wrapping off.
    ///
    /// ```
    /// use sgf_grove::writer::WriteOptions;
    /// let doc = sgf_grove::parse(b"(;GM[1]SZ[19];B[pd];W[dp];B[pp];W[dd])")?;
    /// let out = sgf_grove::writer::write_with(doc.collection(), &WriteOptions::new().wrap(16))?;
    /// assert_eq!(out, b"(;GM[1]SZ[19]\n;B[pd];W[dp]\n;B[pp];W[dd])\n");
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    ///
    /// Default: no wrapping (one game tree per line).
    #[must_use]
    pub fn wrap(mut self, width: usize) -> WriteOptions {
        self.wrap = (width > 0).then_some(width);
        self
    }

    /// Leaves out the properties `idents` (normalised identifiers, `C`,
    /// `LZ`), in every node, in addition to those dropped already: thin
    /// files for archives. A `CA` that the writer adds itself (a detected
    /// or transcoded charset) is written all the same.
    ///
    /// ```
    /// use sgf_grove::writer::WriteOptions;
    /// let doc = sgf_grove::parse(b"(;GM[1]C[hi];B[aa]LZ[x]TR[bb])")?;
    /// let thin = WriteOptions::new().drop_props(["C", "LZ"]);
    /// assert_eq!(sgf_grove::writer::write_with(doc.collection(), &thin)?, b"(;GM[1];B[aa]TR[bb])\n");
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    ///
    /// Default: none.
    #[must_use]
    pub fn drop_props<I, S>(mut self, idents: I) -> WriteOptions
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        for ident in idents {
            let ident = ident.as_ref();
            if !self.drop.iter().any(|d| &**d == ident) {
                self.drop.push(ident.into());
            }
        }
        self
    }

    /// Leaves out the properties of `preset` (see [`Preset::idents`]);
    /// [`Preset::Analysis`] also leaves out the comments that are an
    /// engine's analysis and nothing else (see
    /// [`drop_engine_comments`](WriteOptions::drop_engine_comments)).
    ///
    /// Default: none.
    #[must_use]
    pub fn drop_preset(self, preset: Preset) -> WriteOptions {
        let options = self.drop_props(preset.idents().iter().copied());
        match preset {
            Preset::Analysis => options.drop_engine_comments(true),
            _ => options,
        }
    }

    /// Leaves out the comments (`C`) that hold an engine's analysis and
    /// nothing else: KataGo self-play lines (`C[0.40 0.60 0.00 -3.7
    /// v=400]`), a review server's `Black's win rate: 15.4% visits: 507`,
    /// Lizzie's `Black's winrate: 54.2%` / `(NAME / 1.5k playouts)`. A
    /// comment with a single word or number of anything else is a
    /// person's and is kept whole; so is a property with several values
    /// unless every one is an engine's. The rule, line by line, is in
    /// [`analysis`](crate::analysis).
    ///
    /// ```
    /// use sgf_grove::writer::WriteOptions;
    /// let doc = sgf_grove::parse(b"(;GM[1];B[aa]C[0.40 0.60 0.00 -3.7 v=400];W[bb]C[0.5 points is close])")?;
    /// let out = sgf_grove::writer::write_with(doc.collection(), &WriteOptions::new().drop_engine_comments(true))?;
    /// assert_eq!(out, b"(;GM[1];B[aa];W[bb]C[0.5 points is close])\n");
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    ///
    /// Default: `false`.
    #[must_use]
    pub fn drop_engine_comments(mut self, yes: bool) -> WriteOptions {
        self.engine_comments = yes;
        self
    }

    /// Whether values are written as read, except for what
    /// [`drop_props`](WriteOptions::drop_props) leaves out and line
    /// breaks.
    pub fn is_raw(&self) -> bool {
        !self.canonical && self.target.is_none()
    }

    /// Whether the property `ident` is left out.
    #[inline]
    pub(crate) fn drops(&self, ident: &[u8]) -> bool {
        !self.drop.is_empty() && self.drop.iter().any(|d| d.as_bytes() == ident)
    }

    /// Whether the property `ident`, holding `values`, is an engine's
    /// comment that is left out.
    #[inline]
    pub(crate) fn drops_comment<'v>(
        &self,
        ident: &[u8],
        values: impl Iterator<Item = &'v [u8]>,
    ) -> bool {
        if !self.engine_comments || ident != b"C" {
            return false;
        }
        let mut any = false;
        for value in values {
            if !crate::spec::analysis::is_engine_comment(value) {
                return false;
            }
            any = true;
        }
        any
    }
}

/// How canonical mode writes the point lists of Go games. Each style gives
/// the same set of points when read back; the values of a property that
/// holds a malformed or off-board point are written as they are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PointStyle {
    /// As in the input: points and rectangles as they are.
    #[default]
    AsWritten,
    /// Every point a value of its own, rectangles expanded (`aa:cc` → 9
    /// points), in the order first written, each point once.
    Expand,
    /// Rectangles where they fit: a greedy cover of the set, row by row
    /// from the top left, each rectangle as wide as the row allows, then
    /// as tall as the rows below allow. Deterministic: the same set gives
    /// the same values.
    Compress,
}

/// The charset [`WriteOptions::transcode`] writes text in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// UTF-8, recorded as `CA[UTF-8]`.
    Utf8,
    /// The charset the root's `CA` names, or UTF-8 when it names none
    /// that `encoding_rs` knows: a game read in a detected or overridden
    /// charset goes back to the one it declares.
    Declared,
    /// This charset. UTF-16 ones write UTF-8 (SGF is a byte format):
    /// [`Encoding::output_encoding`].
    To(&'static Encoding),
}

/// Named sets of properties for [`WriteOptions::drop_preset`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// Comments: `C`.
    Comments,
    /// Engine analysis: `KT`, `KTV` (KaTrain), `LZ` (Lizzie, LizGoban),
    /// `SBKV`, `SBKS` (Sabaki; Ogatak's win rate), `OGSC` (Ogatak), and
    /// the comments that are an engine's analysis and nothing else
    /// ([`WriteOptions::drop_engine_comments`]: KataGo self-play, review
    /// servers, Lizzie).
    Analysis,
    /// Board markup: `CR SQ TR MA LB AR LN DD SL`.
    Markup,
    /// Time left: `BL WL OB OW`.
    Times,
}

impl Preset {
    /// Every preset.
    pub const ALL: [Preset; 4] = [
        Preset::Comments,
        Preset::Analysis,
        Preset::Markup,
        Preset::Times,
    ];

    /// The properties this preset drops.
    ///
    /// ```
    /// use sgf_grove::writer::Preset;
    /// assert_eq!(Preset::Times.idents(), ["BL", "WL", "OB", "OW"]);
    /// ```
    pub fn idents(self) -> &'static [&'static str] {
        match self {
            Preset::Comments => &["C"],
            Preset::Analysis => &crate::spec::analysis::ANALYSIS_IDENTS,
            Preset::Markup => &["CR", "SQ", "TR", "MA", "LB", "AR", "LN", "DD", "SL"],
            Preset::Times => &["BL", "WL", "OB", "OW"],
        }
    }

    /// The preset's name on the command line: `comments`, `analysis`,
    /// `markup`, `times`.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Comments => "comments",
            Preset::Analysis => "analysis",
            Preset::Markup => "markup",
            Preset::Times => "times",
        }
    }

    /// The preset named `name` (as [`Preset::name`] spells it).
    ///
    /// ```
    /// use sgf_grove::writer::Preset;
    /// assert_eq!(Preset::from_name("markup"), Some(Preset::Markup));
    /// assert_eq!(Preset::from_name("x"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == name)
    }
}
