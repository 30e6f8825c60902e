//! Canonical mode's single-valued properties: one value written, and the
//! others joined into it or reported.
//!
//! A property of one value (`PW`, `KM`, `C`, `B`, …) given several
//! (`PW[Lee][Cho]`, Fox's `C[..][..][..]`, a root's property repeated
//! around its `CA`) is written with one value in canonical mode. Nothing
//! is dropped silently:
//!
//! - the values of a free-text property (Text, and the SimpleText of
//!   names, events, places and sources; not `CA`, `DT`, `RE` and the
//!   like, which are read as data) are joined into one, a line break
//!   between them, when the joined value reads back as exactly that one
//!   value (a line break before something that looks like SGF can make a
//!   reader take the value for one cut off: such values are not joined);
//! - otherwise the first value is written and each other one is recorded
//!   as a [`DroppedValue`], which [`Writer::take_dropped`] hands to the
//!   caller (the `sgf` tool prints them with their position).

use super::value::Shape;
use super::Writer;
use crate::error::Result;
use crate::span::Position;
use crate::tree::read::{ReadGame, ReadMode, ReadProperty};
use crate::value::{PropInfo, ValueType};
use std::io::Write;

/// A value the writer left out: in canonical mode, a value of a
/// single-valued property after the first, when the values could not be
/// joined into one.
///
/// ```
/// use sgf_grove::writer::{WriteOptions, Writer};
/// let doc = sgf_grove::parse(b"(;GM[1]KM[6.5][7.5]C[one][two])")?;
/// let mut writer = Writer::with_options(Vec::new(), WriteOptions::new().canonical(true));
/// writer.write_collection(doc.collection())?;
/// let dropped = writer.take_dropped();
/// // Texts are joined (a line break between them); a number cannot be.
/// assert_eq!(writer.into_inner(), b"(;GM[1]FF[4]KM[6.5]C[one\ntwo])\n");
/// assert_eq!(dropped.len(), 1);
/// assert_eq!((dropped[0].ident.as_str(), &dropped[0].value[..]), ("KM", &b"7.5"[..]));
/// assert_eq!((dropped[0].position.line, dropped[0].position.column), (1, 16));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DroppedValue {
    /// The property's identifier.
    pub ident: String,
    /// The value left out, as it stands in the input (escapes included).
    pub value: Vec<u8>,
    /// Where the value starts in the input (its first byte, after `[`).
    pub position: Position,
}

impl<W: Write> Writer<W> {
    /// The values left out since the last call, oldest first (see
    /// [`DroppedValue`]). Only canonical mode leaves values out (and thin
    /// mode the properties it was asked to drop, which are not reported).
    /// A writer that is never asked keeps them all: call this after each
    /// game when writing long streams.
    pub fn take_dropped(&mut self) -> Vec<DroppedValue> {
        std::mem::take(&mut self.dropped)
    }

    /// Writes the value of a single-valued property `prop` (canonical
    /// mode): its values joined when they are text and can be, else the
    /// first, the others recorded as dropped.
    pub(super) fn single_value<'g, G: ReadGame<'g>>(
        &mut self,
        game: G,
        prop: <G::Node as crate::tree::read::ReadNode<'g>>::Property,
        info: &PropInfo,
        shape: Shape,
    ) -> Result<()> {
        let ident = prop.ident_bytes();
        let mut values = prop.values_at();
        let (first, at) = values.next().unwrap_or((&[], None));
        if values.next().is_none() {
            return self.value(game, ident, first, at, shape);
        }
        if joins(ident, info)
            && let Some(joined) = joined(prop)
        {
            return self.value(game, ident, &joined, at, shape);
        }
        self.drop_values(game, prop, 1);
        self.value(game, ident, first, at, shape)
    }

    /// Records the values of `prop` from the `skip`-th on as dropped.
    pub(super) fn drop_values<'g, G: ReadGame<'g>>(
        &mut self,
        game: G,
        prop: <G::Node as crate::tree::read::ReadNode<'g>>::Property,
        skip: usize,
    ) {
        let ident = String::from_utf8_lossy(prop.ident_bytes()).into_owned();
        for (value, at) in prop.values_at().skip(skip) {
            self.dropped.push(DroppedValue {
                ident: ident.clone(),
                value: value.to_vec(),
                position: at.and_then(|o| game.position(o)).unwrap_or_default(),
            });
        }
    }
}

/// Whether canonical mode joins the values of property `ident`: free
/// text (Text: comments, game comments, …; SimpleText naming people,
/// events, places and sources). Not a SimpleText that is read as data
/// (`CA`, `DT`, `RE`, `RU`, ranks, …): joined, it would read as something
/// else.
pub(crate) fn joins(ident: &[u8], info: &PropInfo) -> bool {
    const FREE_SIMPLE_TEXT: [&[u8]; 14] = [
        b"PB", b"PW", b"BT", b"WT", b"GN", b"EV", b"RO", b"PC", b"SO", b"US", b"AN", b"CP", b"ON",
        b"N",
    ];
    match info.ty {
        ValueType::Text => true,
        ValueType::SimpleText => FREE_SIMPLE_TEXT.contains(&ident),
        _ => false,
    }
}

/// The values of `prop` joined with line breaks, when the result reads
/// back as that one value: in a node read a byte at a time, the value
/// parsed alone gives one value of exactly these bytes and no warning.
fn joined<'g>(prop: impl ReadProperty<'g>) -> Option<Vec<u8>> {
    if prop.read_mode() != ReadMode::Bytes {
        return None;
    }
    let mut joined = Vec::new();
    for (k, value) in prop.values().enumerate() {
        if k > 0 {
            joined.push(b'\n');
        }
        joined.extend_from_slice(value);
    }
    let mut doc = Vec::with_capacity(joined.len() + 6);
    doc.extend_from_slice(b"(;C[");
    doc.extend_from_slice(&joined);
    doc.extend_from_slice(b"])");
    let parsed = crate::parse(&doc).ok()?;
    let game = parsed.games().next()?;
    let read_back = game.root().property("C")?;
    let one = parsed.games().count() == 1
        && parsed.warnings().is_empty()
        && game.root().properties().count() == 1
        && read_back.values().count() == 1
        && read_back.first_value().raw() == &joined[..];
    one.then_some(joined)
}
