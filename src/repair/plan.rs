//! What each node becomes: the nodes written in its place (none, itself,
//! or new ones made of its properties), and the changes that says.

use super::{mojibake, Change, Ids, Repair, Repairs};
use crate::game::{Komi, KomiScale, Rules};
use crate::lexer::{reads_alike, ValueMode};
use crate::tree::{GameTree, Node, Property};
use crate::value::{catalogue, split_compose, Arity, Move, ValueType};
use crate::writer::Item;
use encoding_rs::{Encoding, UTF_8};
use std::borrow::Cow;

/// One node written in place of a node of the tree.
#[derive(Debug)]
pub(crate) enum VNode<'t, 'src> {
    /// The node itself, unchanged.
    Same,
    /// A node of these properties (the root's `CA` and `FF` rules apply
    /// when `root`).
    Items {
        root: bool,
        items: Vec<Item<'t, 'src>>,
    },
}

/// The handicap stones `fox-handicap` moves into the root.
#[derive(Debug)]
pub(crate) struct Handicap<'t, 'src> {
    /// The nodes they were in, left out.
    drop: Ids,
    /// `AB` for the root.
    stones: Item<'t, 'src>,
}

/// Properties that go with a move when `root-move` takes it out of the
/// root.
const MOVE_PROPS: [&str; 12] = [
    "B", "W", "KO", "MN", "BL", "WL", "OB", "OW", "BM", "DO", "IT", "TE",
];
/// Setup, which goes with the first of two moves in `split-bw`.
const SETUP_PROPS: [&str; 4] = ["AB", "AW", "AE", "PL"];

/// Plans the nodes of one game and keeps the changes.
#[derive(Debug)]
pub(crate) struct Planner<'t, 'src> {
    game: GameTree<'t, 'src>,
    repairs: Repairs,
    gm: u32,
    encoding: &'static Encoding,
    changes: Vec<Change>,
    /// For each run of flattened variations: its change and length.
    runs: Vec<(usize, usize)>,
}

type Values<'src> = Vec<(Cow<'src, [u8]>, usize)>;

impl<'t, 'src> Planner<'t, 'src> {
    pub(crate) fn new(game: GameTree<'t, 'src>, repairs: Repairs) -> Planner<'t, 'src> {
        Planner {
            game,
            repairs,
            gm: game.game_type(),
            encoding: game.charset().encoding(),
            changes: Vec::new(),
            runs: Vec::new(),
        }
    }

    /// The repairs that run on this game (those of its source only when it
    /// is certain).
    pub(crate) fn repairs(&self) -> Repairs {
        self.repairs
    }

    fn on(&self, repair: Repair) -> bool {
        self.repairs.contains(repair)
    }

    fn report(&mut self, repair: Repair, offset: usize, message: String) {
        let pos = self.game.collection().position(offset);
        self.changes.push(Change {
            repair,
            pos,
            message,
        });
    }

    /// The changes in the order of their places in the input, the runs of
    /// flattened variations counted.
    pub(crate) fn into_changes(mut self) -> Vec<Change> {
        for &(at, count) in &self.runs {
            let message = if count == 1 {
                "a variation that was the only continuation flattened into the sequence".to_owned()
            } else {
                format!("{count} variations that were the only continuation flattened into the sequence")
            };
            self.changes[at].message = message;
        }
        self.changes.sort_by_key(|c| c.pos.offset);
        self.changes
    }

    /// Records a variation opened by the `(` at `paren` flattened, as part
    /// of the run `run` when it continues one; returns its run.
    pub(crate) fn flattened(&mut self, paren: usize, run: Option<usize>) -> usize {
        if let Some(run) = run {
            self.runs[run].1 += 1;
            return run;
        }
        self.report(Repair::OgsNesting, paren, String::new());
        self.runs.push((self.changes.len() - 1, 1));
        self.runs.len() - 1
    }

    /// `value` as text for a message: decoded in the game's charset, at
    /// most 40 characters, control characters escaped.
    fn show(&self, value: &[u8]) -> String {
        let text = self.encoding.decode_without_bom_handling(value).0;
        let mut out = String::new();
        for (i, c) in text.chars().enumerate() {
            if i == 40 {
                out.push('…');
                break;
            }
            if c.is_control() {
                out.extend(c.escape_default());
            } else {
                out.push(c);
            }
        }
        out
    }

    /// The children `node` has in the output (see [`Planner::out_kids`]),
    /// into `kids`; reports the empty nodes removed on the way.
    pub(crate) fn children(
        &mut self,
        node: Node<'t, 'src>,
        handicap: Option<&Handicap<'t, 'src>>,
        kids: &mut Vec<Node<'t, 'src>>,
    ) {
        kids.clear();
        let Some(first) = node.first_child() else {
            return;
        };
        // The common case: one child, written as it is.
        if first.next_sibling().is_none() && !self.droppable(first, handicap) {
            kids.push(first);
            return;
        }
        let (out, removed) = self.out_kids(node, handicap, 0);
        kids.extend(out);
        for empty in removed {
            self.report(
                Repair::EmptyNodes,
                empty.offset(),
                "empty node removed".to_owned(),
            );
        }
    }

    /// Whether `node` may be left out: it holds handicap stones moved
    /// into the root, or it is an empty node (not the root) and
    /// `empty-nodes` runs.
    fn droppable(&self, node: Node<'t, 'src>, handicap: Option<&Handicap<'t, 'src>>) -> bool {
        handicap.is_some_and(|h| h.drop.contains(&node.id()))
            || (self.on(Repair::EmptyNodes)
                && !node.is_root()
                && node.property_count() == 0
                && !self.shields_a_root_property(node))
    }

    /// Whether a child of the empty node `node`, as written, starts with a
    /// property only a root may hold (`CA`, `SZ`…): without the empty node
    /// before it, such a child may become the first node of a variation,
    /// which a reader takes for the root of a new game (a file cut off,
    /// the next one appended). The parser puts an empty node there for
    /// that reason; it stays. A child that `split-bw` splits writes its
    /// first move (and setup) first, and the rest after.
    fn shields_a_root_property(&self, node: Node<'t, 'src>) -> bool {
        let mut child = node.first_child();
        while let Some(c) = child {
            let split = self.on(Repair::SplitBw) && c.has("B") && c.has("W");
            if !split
                && c.properties()
                    .any(|p| crate::edit::ROOT_ONLY.contains(&p.ident()))
            {
                return true;
            }
            child = c.next_sibling();
        }
        false
    }

    /// The children `node` has in the output, and the empty nodes left out
    /// on the way (not those inside an empty node that stays: they are
    /// found when it is written). A node that may be left out gives way
    /// to the children it has in the output, decided on the list they
    /// land in, so that a second pass finds nothing more:
    ///
    /// - handicap stones' nodes always;
    /// - an empty node with one child in the output, or alone in the
    ///   list;
    /// - an empty node with no child in the output unless it is the first
    ///   of the list (it ends the main line there; without it the next
    ///   variation would become the main line);
    /// - an empty node with several children stays unless it is alone
    ///   (they would become variations of another move).
    ///
    /// Chains of single children are followed without recursion; empty
    /// nodes with several children within each other are looked into 64
    /// levels deep, and kept deeper.
    #[allow(clippy::type_complexity)]
    fn out_kids(
        &self,
        node: Node<'t, 'src>,
        handicap: Option<&Handicap<'t, 'src>>,
        depth: usize,
    ) -> (Vec<Node<'t, 'src>>, Vec<Node<'t, 'src>>) {
        enum Slot<'t, 'src> {
            Keep(Node<'t, 'src>),
            Maybe {
                node: Node<'t, 'src>,
                forced: bool,
                kids: Vec<Node<'t, 'src>>,
                removed: Vec<Node<'t, 'src>>,
            },
        }
        let mut slots = Vec::new();
        for child in node.children() {
            if !self.droppable(child, handicap) || depth >= 64 {
                slots.push(Slot::Keep(child));
                continue;
            }
            // A chain of droppable single children gives way to what the
            // last one keeps.
            let mut last = child;
            let mut removed = Vec::new();
            while let Some(next) = last.first_child() {
                if next.next_sibling().is_some() || !self.droppable(next, handicap) {
                    break;
                }
                if !handicap.is_some_and(|h| h.drop.contains(&next.id())) {
                    removed.push(next);
                }
                last = next;
            }
            let (kids, inner) = self.out_kids(last, handicap, depth + 1);
            removed.extend(inner);
            slots.push(Slot::Maybe {
                node: child,
                forced: handicap.is_some_and(|h| h.drop.contains(&child.id())),
                kids,
                removed,
            });
        }
        let mut out: Vec<Slot<'t, 'src>> = Vec::with_capacity(slots.len());
        let mut gone = Vec::new();
        for slot in slots {
            match slot {
                Slot::Maybe {
                    node,
                    forced,
                    kids,
                    removed,
                } if forced || kids.len() == 1 || (kids.is_empty() && !out.is_empty()) => {
                    if !forced {
                        gone.push(node);
                    }
                    gone.extend(removed);
                    out.extend(kids.into_iter().map(Slot::Keep));
                }
                slot => out.push(slot),
            }
        }
        if out.len() == 1 && matches!(out[0], Slot::Maybe { .. }) {
            if let Some(Slot::Maybe {
                node,
                forced,
                kids,
                removed,
            }) = out.pop()
            {
                if !forced {
                    gone.push(node);
                }
                gone.extend(removed);
                out.extend(kids.into_iter().map(Slot::Keep));
            }
        }
        let kids = out
            .into_iter()
            .map(|slot| match slot {
                Slot::Keep(node) | Slot::Maybe { node, .. } => node,
            })
            .collect();
        (kids, gone)
    }

    /// The handicap stones to move into the root, if `fox-handicap` finds
    /// some (and reports it).
    pub(crate) fn handicap(&mut self) -> Option<Handicap<'t, 'src>> {
        let root = self.game.root();
        let ha = root.get_raw("HA")?;
        let ha: usize = std::str::from_utf8(ha).ok()?.trim().parse().ok()?;
        if ha < 2 || ["AB", "AW", "B", "W"].iter().any(|p| root.has(p)) {
            return None;
        }
        let first = root.first_child()?;
        if first.next_sibling().is_some() {
            return None;
        }
        // Fox: a node after the root with the stones as `AB`, and nothing
        // else.
        if first.property_count() == 1 {
            if let Some(ab) = first.property("AB") {
                let count = first.points("AB").ok()?.count();
                if count != ha {
                    return None;
                }
                self.report(
                    Repair::FoxHandicap,
                    first.offset(),
                    format!("the {count} handicap stones of the node after the root moved into the root as AB (HA[{ha}] agrees)"),
                );
                return Some(Handicap {
                    drop: vec![first.id()],
                    stones: Item::Prop(ab),
                });
            }
        }
        // `HA` leading black moves, each alone in its node, and no more
        // black moves after them.
        let size = self.game.board_size();
        let mut node = first;
        let mut drop = Vec::with_capacity(ha);
        let mut values = Vec::with_capacity(ha);
        let mut context = None;
        for k in 0..ha {
            if k > 0 {
                node = node.first_child()?;
                if node.next_sibling().is_some() {
                    return None;
                }
            }
            let b = node.property("B").filter(|_| node.property_count() == 1)?;
            let value = b.first_value();
            if b.values().nth(1).is_some()
                || !matches!(Move::read(value.raw(), size), Some(Move::Play(_)))
            {
                return None;
            }
            if k + 1 < ha
                && node
                    .first_child()
                    .is_none_or(|c| c.next_sibling().is_some())
            {
                return None;
            }
            context.get_or_insert(b);
            drop.push(node.id());
            values.push((Cow::Borrowed(value.raw()), value.span().start));
        }
        if let Some(next) = node.first_child() {
            if next.has("B") && !next.has("W") {
                return None;
            }
        }
        self.report(
            Repair::FoxHandicap,
            first.offset(),
            format!("{ha} leading black moves turned into AB in the root (HA[{ha}])"),
        );
        Some(Handicap {
            drop,
            stones: Item::New {
                ident: "AB",
                values,
                context: context?,
            },
        })
    }

    /// The nodes written in place of `node`.
    pub(crate) fn plan(
        &mut self,
        node: Node<'t, 'src>,
        handicap: Option<&Handicap<'t, 'src>>,
    ) -> Vec<VNode<'t, 'src>> {
        let root = node.is_root();
        // A root read a character at a time after its `CA` keeps a
        // repeated property's occurrences apart (as the writer does);
        // `single-value` then looks at all of them at the first and drops
        // the others.
        let apart = node.keeps_occurrences();
        let props = if apart {
            node.occurrences()
        } else {
            node.properties()
        };
        let mut items: Vec<Item<'t, 'src>> = props.map(Item::Prop).collect();
        let mut changed = false;
        // Apart, the repaired property takes the place of the occurrence
        // that holds the value kept: that value is read there as it was.
        let keepers: Vec<(&'t str, usize)> = if apart && self.on(Repair::SingleValue) {
            self.keepers(&items)
        } else {
            Vec::new()
        };
        let mut removed = 0;
        let mut i = 0;
        while i < items.len() {
            let Item::Prop(mut prop) = items[i] else {
                i += 1;
                continue;
            };
            if let Some(&(_, keeper)) = keepers.iter().find(|(id, _)| *id == prop.ident()) {
                if i + removed != keeper {
                    items.remove(i);
                    removed += 1;
                    changed = true;
                    continue;
                }
                prop = node.property(prop.ident()).unwrap_or(prop);
            }
            match self.rewrite(prop, root) {
                Rewrite::Keep => {}
                Rewrite::Replace(item) => {
                    items[i] = item;
                    changed = true;
                }
                Rewrite::Remove => {
                    items.remove(i);
                    changed = true;
                    continue;
                }
            }
            i += 1;
        }
        if root {
            if let Some(h) = handicap {
                items.push(h.stones.clone());
                changed = true;
            }
        }
        let mut chain = vec![items];
        if root
            && self.on(Repair::RootMove)
            && reads_alike_out_of_root(
                node,
                chain[0].iter().filter(|i| MOVE_PROPS.contains(&i.ident())),
            )
        {
            if let Some(at) = chain[0].iter().position(|i| matches!(i.ident(), "B" | "W")) {
                let message = format!(
                    "{}[{}] moved out of the root into a node of its own",
                    chain[0][at].ident(),
                    self.show(first_raw(&chain[0][at]))
                );
                self.report(Repair::RootMove, item_offset(&chain[0][at]), message);
                let (moved, kept) = chain[0]
                    .drain(..)
                    .partition(|i| MOVE_PROPS.contains(&i.ident()));
                chain = vec![kept, moved];
            }
        }
        if self.on(Repair::SplitBw) {
            let mut k = 0;
            while k < chain.len() {
                // The root's second half goes to a node of its own.
                let root_node = (root && k == 0).then_some(node);
                if let Some((first, second)) = self.split_bw(&mut chain[k], root_node) {
                    chain.splice(k..=k, [first, second]);
                    k += 1;
                }
                k += 1;
            }
        }
        if !changed && chain.len() == 1 {
            return vec![VNode::Same];
        }
        chain
            .into_iter()
            .enumerate()
            .map(|(k, items)| VNode::Items {
                root: root && k == 0,
                items,
            })
            .collect()
    }

    /// `items` split in two when they hold both `B` and `W`: the first
    /// move with its time and the setup, then the second with the rest;
    /// in the root, the second move and its time alone leave the root.
    #[allow(clippy::type_complexity)]
    fn split_bw(
        &mut self,
        items: &mut Vec<Item<'t, 'src>>,
        root: Option<Node<'t, 'src>>,
    ) -> Option<(Vec<Item<'t, 'src>>, Vec<Item<'t, 'src>>)> {
        let b = items.iter().position(|i| i.ident() == "B")?;
        let w = items.iter().position(|i| i.ident() == "W")?;
        let (first, second) = if b < w { (b, w) } else { (w, b) };
        let (side, other): ([&str; 3], [&str; 3]) = if b < w {
            (["B", "BL", "OB"], ["W", "WL", "OW"])
        } else {
            (["W", "WL", "OW"], ["B", "BL", "OB"])
        };
        // In the root, only the second move and its time leave: the root,
        // game-info and any other property stay in the root, as read
        // there (a root read after its `CA` keeps a repeated property's
        // occurrences apart, which a node of its own would merge).
        let in_root = root.is_some();
        let stays = |i: &Item<'t, 'src>| {
            if in_root {
                !other.contains(&i.ident())
            } else {
                side.contains(&i.ident()) || SETUP_PROPS.contains(&i.ident())
            }
        };
        if let Some(root) = root {
            if !reads_alike_out_of_root(root, items.iter().filter(|i| !stays(i))) {
                return None;
            }
        }
        let message = format!(
            "{}[{}] and {}[{}] split into two nodes",
            items[first].ident(),
            self.show(first_raw(&items[first])),
            items[second].ident(),
            self.show(first_raw(&items[second]))
        );
        self.report(Repair::SplitBw, item_offset(&items[second]), message);
        let (one, two) = items.drain(..).partition(|i| stays(i));
        Some((one, two))
    }

    /// For each single-valued property of several occurrences in `items`,
    /// the index of the occurrence holding the value `single-value` keeps
    /// (the first non-empty one, or the first value when an empty one
    /// counts).
    fn keepers(&self, items: &[Item<'t, 'src>]) -> Vec<(&'t str, usize)> {
        let mut keepers: Vec<(&'t str, usize)> = Vec::new();
        for (k, item) in items.iter().enumerate() {
            let Item::Prop(prop) = item else { continue };
            let ident = prop.ident();
            let Some(info) = catalogue::lookup(self.gm, ident).filter(|i| i.arity == Arity::One)
            else {
                continue;
            };
            let occurrences = items
                .iter()
                .filter(|i| matches!(i, Item::Prop(p) if p.ident() == ident))
                .count();
            if occurrences < 2 || keepers.iter().any(|(id, _)| *id == ident) {
                continue;
            }
            let empty_is_value = matches!(info.ty, ValueType::Move | ValueType::None)
                || info.alt == Some(ValueType::None);
            let values = items.iter().filter_map(|i| match i {
                Item::Prop(p) if p.ident() == ident => Some(p.first_value().raw()),
                _ => None,
            });
            let real = catalogue::real_value(ident, values).and_then(|n| {
                items
                    .iter()
                    .enumerate()
                    .filter(|(_, i)| matches!(i, Item::Prop(p) if p.ident() == ident))
                    .nth(n)
                    .map(|(j, _)| j)
            });
            let keeper = real
                .or_else(|| {
                    items
                        .iter()
                        .enumerate()
                        .skip(k)
                        .find(|(_, i)| {
                            matches!(i, Item::Prop(p) if p.ident() == ident
                        && (empty_is_value || p.values().any(|v| !v.raw().trim_ascii().is_empty())))
                        })
                        .map(|(j, _)| j)
                })
                .unwrap_or(k);
            keepers.push((ident, keeper));
        }
        keepers
    }

    /// What the value repairs make of `prop`.
    fn rewrite(&mut self, prop: Property<'t, 'src>, root: bool) -> Rewrite<'t, 'src> {
        let ident = prop.ident();
        let info = catalogue::lookup(self.gm, ident);
        let single = info.is_some_and(|i| i.arity == Arity::One);
        let text = info.is_some_and(|i| matches!(i.ty, ValueType::Text | ValueType::SimpleText));
        let several = prop.values().nth(1).is_some();
        let look = (single && several && self.on(Repair::SingleValue))
            || matches!(ident, "SZ" | "KI" | "KM")
            || (text && self.on(Repair::Mojibake) && self.encoding == UTF_8);
        if !look {
            return Rewrite::Keep;
        }
        let mut values: Values<'src> = prop
            .values()
            .map(|v| (Cow::Borrowed(v.raw()), v.span().start))
            .collect();
        let mut changed = false;
        if single && several && self.on(Repair::SingleValue) {
            let info = info.expect("single");
            let empty_is_value = matches!(info.ty, ValueType::Move | ValueType::None)
                || info.alt == Some(ValueType::None);
            let keep = catalogue::real_value(ident, values.iter().map(|(v, _)| &v[..]))
                .or_else(|| {
                    values
                        .iter()
                        .position(|(v, _)| empty_is_value || !v.trim_ascii().is_empty())
                })
                .unwrap_or(0);
            let dropped: Vec<String> = values
                .iter()
                .enumerate()
                .filter(|&(k, _)| k != keep)
                .map(|(_, (v, _))| format!("[{}]", self.show(v)))
                .collect();
            let first_dropped = if keep == 0 { values[1].1 } else { values[0].1 };
            let message = format!(
                "{ident}: kept [{}], dropped {}",
                self.show(&values[keep].0),
                dropped.join("")
            );
            self.report(
                Repair::SingleValue,
                first_dropped.saturating_sub(1),
                message,
            );
            let kept = values.swap_remove(keep);
            values = vec![kept];
            changed = true;
        }
        let (raw, offset) = (values[0].0.clone(), values[0].1);
        let pos = prop.ident_span().start;
        match ident {
            "SZ" if root && self.on(Repair::SzSquare) => {
                if let Some((a, b)) = split_compose(&raw) {
                    let (a, b) = (a.trim_ascii(), b.trim_ascii());
                    let n = std::str::from_utf8(a)
                        .ok()
                        .and_then(|a| a.parse::<u32>().ok());
                    if a == b && n.is_some() {
                        let message = format!("SZ[{}] → SZ[{}]", self.show(&raw), self.show(a));
                        self.report(Repair::SzSquare, pos, message);
                        values[0].0 = Cow::Owned(a.to_vec());
                        changed = true;
                    }
                }
            }
            "KI" if self.on(Repair::KiKm) && values.len() == 1 => {
                let n = std::str::from_utf8(&raw)
                    .ok()
                    .and_then(|s| s.trim().parse::<i64>().ok());
                if let Some(n) = n {
                    let km = n as f64 / 2.0;
                    match prop.node().get_raw("KM") {
                        Some(have) => {
                            let same = std::str::from_utf8(have)
                                .ok()
                                .and_then(|s| Komi::parse(s).ok())
                                .is_some_and(|k| k.value() == km);
                            if same {
                                let message = format!(
                                    "KI[{}] dropped: KM[{}] says the same (KI is in half points)",
                                    self.show(&raw),
                                    self.show(have)
                                );
                                self.report(Repair::KiKm, pos, message);
                                return Rewrite::Remove;
                            }
                        }
                        None => {
                            let text = points(km);
                            let message = format!(
                                "KI[{}] → KM[{text}] (KI is in half points)",
                                self.show(&raw)
                            );
                            self.report(Repair::KiKm, pos, message);
                            return Rewrite::Replace(Item::New {
                                ident: "KM",
                                values: vec![(Cow::Owned(text.into_bytes()), offset)],
                                context: prop,
                            });
                        }
                    }
                }
            }
            "KM" if root => {
                if let Some(text) = self.komi(prop, &raw, pos) {
                    values[0].0 = Cow::Owned(text.into_bytes());
                    changed = true;
                }
            }
            _ => {}
        }
        if text && self.on(Repair::Mojibake) && self.encoding == UTF_8 {
            for (v, offset) in &mut values {
                if v.is_ascii() || v.contains(&b'\\') {
                    continue;
                }
                let Ok(s) = std::str::from_utf8(v) else {
                    continue;
                };
                if let Some((fixed, charset)) = mojibake::reverse(s) {
                    let message = format!(
                        "{ident}: {} → {fixed} ({} text misread as windows-1252 and saved as UTF-8)",
                        self.show(v),
                        charset.name()
                    );
                    self.report(Repair::Mojibake, *offset, message);
                    *v = Cow::Owned(fixed.into_bytes());
                    changed = true;
                }
            }
        }
        if !changed {
            return Rewrite::Keep;
        }
        Rewrite::Replace(Item::New {
            ident: prop.ident(),
            values,
            context: prop,
        })
    }

    /// The komi `KM[raw]` of the root in points, when `fox-komi` or
    /// `komi-convention` rewrites it (and reports it).
    fn komi(&mut self, prop: Property<'t, 'src>, raw: &[u8], pos: usize) -> Option<String> {
        let komi = Komi::parse(std::str::from_utf8(raw).ok()?).ok()?;
        let rules = prop
            .node()
            .get_raw("RU")
            .and_then(|r| std::str::from_utf8(r).ok())
            .map(Rules::parse);
        if self.on(Repair::FoxKomi) && komi.scale() != KomiScale::Points {
            let value = komi.normalised_for(rules.as_ref());
            let text = points(value);
            let how = if komi.value() / value == 50.0 {
                "stones × 100, 2 points a stone"
            } else {
                "points × 100"
            };
            let message = format!("KM[{}] → KM[{text}] (Fox: {how})", self.show(raw));
            self.report(Repair::FoxKomi, pos, message);
            return Some(text);
        }
        if self.on(Repair::KomiConvention)
            && rules == Some(Rules::Chinese)
            && [2.75, 3.25, 3.75, 4.25].contains(&komi.value())
        {
            let text = points(komi.value() * 2.0);
            let message = format!(
                "KM[{}] → KM[{text}] (komi in stones under Chinese rules, 2 points a stone)",
                self.show(raw)
            );
            self.report(Repair::KomiConvention, pos, message);
            return Some(text);
        }
        None
    }
}

/// What a property becomes.
enum Rewrite<'t, 'src> {
    Keep,
    Replace(Item<'t, 'src>),
    Remove,
}

/// A number of points as written in `KM`: `6.5`, `0`, `-3.5`.
fn points(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{}", value as i64)
    } else {
        format!("{value}")
    }
}

/// The first value of an item, raw.
fn first_raw<'a>(item: &'a Item<'_, '_>) -> &'a [u8] {
    match item {
        Item::Prop(p) => p.raw(),
        Item::New { values, .. } => values.first().map_or(&[], |(v, _)| v),
    }
}

/// Whether the properties `moving` out of a root (`root`) into a node of
/// their own are read there as they were in the root. A root read a
/// character at a time after its `CA` reads the values before it byte by
/// byte, while every later node reads a character at a time: a value such
/// as `B[\xa4]` before `CA[Big5]` would lose its `]` to the character
/// `\xa4]` there. Such a root keeps its properties.
fn reads_alike_out_of_root<'a, 't: 'a, 'src: 'a>(
    root: Node<'t, 'src>,
    mut moving: impl Iterator<Item = &'a Item<'t, 'src>>,
) -> bool {
    let mode = root.mode();
    let alike = |raw: &[u8], at: usize| reads_alike(raw, root.mode_at(at), mode);
    mode == ValueMode::Bytes
        || moving.all(|item| match item {
            Item::Prop(p) => p.values().all(|v| alike(v.raw(), v.span().start)),
            Item::New { values, .. } => values.iter().all(|(v, at)| alike(v, *at)),
        })
}

/// Where an item's property is in the input.
fn item_offset(item: &Item<'_, '_>) -> usize {
    match item {
        Item::Prop(p) => p.ident_span().start,
        Item::New { context, .. } => context.ident_span().start,
    }
}
