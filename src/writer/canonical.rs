//! Canonical mode's property order: a node's properties in one order
//! (root properties, then game information, then the rest as written).

use super::raw::write_ca;
use super::Writer;
use crate::error::Result;
use crate::tree::read::{ReadMode, ReadNode, ReadProperty};
use std::io::Write;

impl<W: Write> Writer<W> {
    /// Canonical mode: the ranked properties in their order, then the
    /// others in file order. The first [`HELD`] properties are held on the
    /// stack with their identifiers, so that each is looked at once.
    pub(super) fn canonical_props<'g, N: ReadNode<'g>>(&mut self, node: N) -> Result<()> {
        let root = node.is_root();
        if root && self.game.target.is_none() && node.read_mode() != ReadMode::Bytes {
            return self.file_order_props(node);
        }
        let mut held = [None; HELD];
        let mut count = 0;
        let mut ranked = 0u64;
        for prop in node.properties() {
            let ident = prop.ident_bytes();
            if let Some(r) = rank(ident) {
                ranked |= 1 << r;
            }
            if count < HELD {
                held[count] = Some((prop, ident));
            }
            count += 1;
        }
        let held = &held[..count.min(HELD)];
        if root {
            ranked |= 1 << FF_RANK;
            if self.game.ca.is_some() {
                ranked |= 1 << CA_RANK;
            }
        }
        while ranked != 0 {
            let r = ranked.trailing_zeros() as usize;
            ranked &= ranked - 1;
            let ident = ORDER[r].as_bytes();
            if root && r == FF_RANK {
                let at = self.token_start();
                self.buf.extend_from_slice(b"FF[4]");
                self.token(at);
                continue;
            }
            if root
                && r == CA_RANK
                && let Some(name) = self.game.ca
            {
                let at = self.token_start();
                write_ca(&mut self.buf, name);
                self.token(at);
                continue;
            }
            if self.options.drops(ident) {
                continue;
            }
            let found = match held.iter().flatten().find(|(_, id)| *id == ident) {
                Some(&(prop, _)) => Some(prop),
                None if count > HELD => node.property(ORDER[r]),
                None => None,
            };
            if let Some(prop) = found {
                self.property(node, prop, ident)?;
            }
        }
        if count > HELD {
            for prop in node.properties() {
                let ident = prop.ident_bytes();
                if rank(ident).is_none()
                    && !self.options.drops(ident)
                    && !self.options.drops_comment(ident, prop.values())
                {
                    self.property(node, prop, ident)?;
                }
            }
        } else {
            for &(prop, ident) in held.iter().flatten() {
                if rank(ident).is_none()
                    && !self.options.drops(ident)
                    && !self.options.drops_comment(ident, prop.values())
                {
                    self.property(node, prop, ident)?;
                }
            }
        }
        Ok(())
    }
}

/// Canonical mode's property order: root properties, then game
/// information.
pub(super) const ORDER: [&str; 29] = [
    "GM", "FF", "CA", "AP", "ST", "SZ", // root
    "GN", "EV", "RO", "DT", "PC", "PB", "BR", "BT", "PW", "WR", "WT", "KM", "HA", "RU", "TM", "OT",
    "RE", "AN", "CP", "SO", "US", "GC", "ON",
];

pub(super) const FF_RANK: usize = 1;

pub(super) const CA_RANK: usize = 2;

/// The place of `ident` in [`ORDER`].
#[inline]
pub(super) fn rank(ident: &[u8]) -> Option<usize> {
    // Every ranked identifier has two letters: moves and comments have one.
    if ident.len() != 2 {
        return None;
    }
    ORDER.iter().position(|o| o.as_bytes() == ident)
}

/// How many properties of a node canonical mode holds on the stack.
pub(super) const HELD: usize = 16;
