//! The planner: what each node becomes (none, itself, or new nodes made
//! of its properties), and the changes that says. It walks the nodes and
//! their properties; each repair's rewriting is in a file of its own
//! beside this one (`root_move.rs`, `split_bw.rs`, `single_value.rs`…).

use super::{Change, Ids, Repair, Repairs};
use crate::lexer::{reads_alike, ValueMode};
use crate::tree::{GameTree, Node, Property};
use crate::value::{catalogue, Arity, ValueType};
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
    pub(super) drop: Ids,
    /// `AB` for the root.
    pub(super) stones: Item<'t, 'src>,
}

/// Plans the nodes of one game and keeps the changes.
#[derive(Debug)]
pub(crate) struct Planner<'t, 'src> {
    pub(super) game: GameTree<'t, 'src>,
    repairs: Repairs,
    pub(super) gm: u32,
    pub(super) encoding: &'static Encoding,
    pub(super) changes: Vec<Change>,
    /// For each run of flattened variations: its change and length.
    pub(super) runs: Vec<(usize, usize)>,
    /// `root-props`: the properties moved into the root.
    pub(super) root_props: Vec<Property<'t, 'src>>,
    /// `drop-idle-setup`: the offsets of the `[` of the setup values that
    /// change nothing, sorted.
    pub(super) idle: Vec<usize>,
}

/// A property's values, each with its offset in the input.
pub(super) type Values<'src> = Vec<(Cow<'src, [u8]>, usize)>;

impl<'t, 'src> Planner<'t, 'src> {
    pub(crate) fn new(game: GameTree<'t, 'src>, repairs: Repairs) -> Planner<'t, 'src> {
        Planner {
            game,
            repairs,
            gm: game.game_type(),
            encoding: game.charset().encoding(),
            changes: Vec::new(),
            runs: Vec::new(),
            root_props: if repairs.contains(Repair::RootProps) {
                super::root_props::plan(game)
            } else {
                Vec::new()
            },
            idle: if repairs.contains(Repair::DropIdleSetup) {
                super::idle_setup::plan(game)
            } else {
                Vec::new()
            },
        }
    }

    /// The repairs that run on this game (those of its source only when it
    /// is certain).
    pub(crate) fn repairs(&self) -> Repairs {
        self.repairs
    }

    pub(super) fn on(&self, repair: Repair) -> bool {
        self.repairs.contains(repair)
    }

    pub(super) fn report(&mut self, repair: Repair, offset: usize, message: String) {
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

    /// `value` as text for a message: decoded in the game's charset, at
    /// most 40 characters, control characters escaped.
    pub(super) fn show(&self, value: &[u8]) -> String {
        crate::text::for_message(&self.encoding.decode_without_bom_handling(value).0)
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
        if root && let Some(h) = handicap {
            items.push(h.stones.clone());
            changed = true;
        }
        if root && !self.root_props.is_empty() {
            items.extend(self.root_props.iter().map(|p| Item::Prop(*p)));
            changed = true;
        }
        let mut chain = vec![items];
        if root && self.on(Repair::RootMove) {
            self.root_move(node, &mut chain);
        }
        if self.on(Repair::SplitSetup) {
            self.split_setup(node, root, &mut chain);
        }
        if self.on(Repair::SplitBw) {
            self.split_moves(node, root, &mut chain);
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

    /// What the value repairs make of `prop`.
    fn rewrite(&mut self, prop: Property<'t, 'src>, root: bool) -> Rewrite<'t, 'src> {
        let ident = prop.ident();
        if self.on(Repair::DropOrphanAnnotation)
            && let Some(rewrite) = self.orphan(prop)
        {
            return rewrite;
        }
        if !root
            && !self.root_props.is_empty()
            && let Some(rewrite) = self.root_prop(prop)
        {
            return rewrite;
        }
        if !self.idle.is_empty()
            && matches!(ident, "AB" | "AW" | "AE")
            && let Some(rewrite) = self.idle_setup(prop)
        {
            return rewrite;
        }
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
            self.single_value(ident, info.expect("single"), &mut values);
            changed = true;
        }
        let (raw, offset) = (values[0].0.clone(), values[0].1);
        let pos = prop.ident_span().start;
        match ident {
            "SZ" if root && self.on(Repair::SzSquare) => {
                changed |= self.sz_square(&raw, pos, &mut values);
            }
            "KI" if self.on(Repair::KiKm) && values.len() == 1 => {
                if let Some(rewrite) = self.ki_km(prop, &raw, offset, pos) {
                    return rewrite;
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
            changed |= self.unmojibake(ident, &mut values);
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
}

/// What a property becomes.
pub(super) enum Rewrite<'t, 'src> {
    Keep,
    Replace(Item<'t, 'src>),
    Remove,
}

/// The first value of an item, raw.
pub(super) fn first_raw<'a>(item: &'a Item<'_, '_>) -> &'a [u8] {
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
pub(super) fn reads_alike_out_of_root<'a, 't: 'a, 'src: 'a>(
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
pub(super) fn item_offset(item: &Item<'_, '_>) -> usize {
    match item {
        Item::Prop(p) => p.ident_span().start,
        Item::New { context, .. } => context.ident_span().start,
    }
}
