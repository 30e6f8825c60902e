//! An editable game read through the crate's one read interface
//! ([`ReadGame`], [`ReadNode`], [`ReadProperty`]), as a parsed game is.

use super::{EditId, EditNode, EditProperty, EditableGame};
use crate::error::Result;
use crate::span::Position;
use crate::tree::read::{ReadGame, ReadMode, ReadNode, ReadProperty};
use crate::value::{BoardSize, Color, FromValue, Move, ValueContext};
use encoding_rs::Encoding;

impl<'g> ReadGame<'g> for &'g EditableGame {
    type Node = EditNode<'g>;

    fn root(self) -> EditNode<'g> {
        EditNode::unplaced(self, EditableGame::root(self))
    }

    fn node_by_key(self, key: usize) -> Option<EditNode<'g>> {
        let id = EditId::from_index(key)?;
        self.contains(id).then_some(EditNode::unplaced(self, id))
    }

    fn board_size(self) -> BoardSize {
        self.size
    }

    fn game_type(self) -> u32 {
        self.game_type
    }

    fn encoding(self) -> &'static Encoding {
        self.encoding
    }

    fn value_context(self) -> ValueContext<'g> {
        EditableGame::value_context(self)
    }

    fn node_count(self) -> usize {
        EditableGame::node_count(self)
    }

    fn position(self, _offset: usize) -> Option<Position> {
        None
    }

    fn charset_to_record(self) -> Option<&'static Encoding> {
        self.ca_to_add()
    }

    fn declared_charset(self) -> Option<&'g [u8]> {
        ReadGame::root(self).raw("CA")
    }
}

impl<'g> ReadNode<'g> for EditNode<'g> {
    type Game = &'g EditableGame;
    type Property = EditProperty<'g>;

    fn game(self) -> &'g EditableGame {
        self.game
    }

    fn key(self) -> usize {
        self.id.index()
    }

    fn parent(self) -> Option<Self> {
        let id = EditNode::parent(&self)?;
        Some(EditNode::unplaced(self.game, id))
    }

    fn first_child(self) -> Option<Self> {
        let id = EditNode::first_child(&self)?;
        Some(EditNode {
            game: self.game,
            id,
            place: 0,
        })
    }

    fn next_sibling(self) -> Option<Self> {
        let parent = EditNode::parent(&self)?;
        let siblings = &self.game.nodes[parent.index()].children;
        let at = match siblings.get(self.place as usize) {
            Some(&id) if id == self.id => self.place as usize,
            _ => siblings.iter().position(|&c| c == self.id)?,
        };
        let id = *siblings.get(at + 1)?;
        Some(EditNode {
            game: self.game,
            id,
            place: u32::try_from(at + 1).unwrap_or(u32::MAX),
        })
    }

    fn child_count(self) -> usize {
        EditNode::children(&self).len()
    }

    fn properties(self) -> impl Iterator<Item = EditProperty<'g>> + 'g {
        let props = &self.game.nodes[self.id.index()].props;
        let game = self.game;
        EditNode::properties(&self).filter_map(move |p| {
            let ident = game.ident_bytes(p.prop);
            let first = !props[..p.at].iter().any(|q| game.ident_bytes(q) == ident);
            first.then_some(EditProperty { merged: true, ..p })
        })
    }

    fn property(self, ident: &str) -> Option<EditProperty<'g>> {
        let p = EditNode::property(&self, ident)?;
        Some(EditProperty { merged: true, ..p })
    }

    fn keeps_occurrences(self) -> bool {
        let props = &self.game.nodes[self.id.index()].props;
        self.id.index() == 0
            && ReadNode::read_mode(self) == ReadMode::Characters
            && props.iter().enumerate().any(|(at, p)| {
                let ident = self.game.ident_bytes(p);
                props[..at]
                    .iter()
                    .any(|q| self.game.ident_bytes(q) == ident)
            })
    }

    fn occurrences(self) -> impl Iterator<Item = EditProperty<'g>> + 'g {
        EditNode::properties(&self)
    }

    fn offset(self) -> Option<usize> {
        None
    }

    fn read_mode(self) -> ReadMode {
        match self.game.declared_ca() {
            Some(_) if crate::text::charset::is_ascii_unsafe(self.game.encoding) => {
                ReadMode::Characters
            }
            _ => ReadMode::Bytes,
        }
    }

    fn get<T: FromValue<'g>>(self, ident: &str) -> Result<Option<T>> {
        EditNode::get(&self, ident)
    }

    fn played(self) -> Result<Option<(Color, Move)>> {
        EditNode::played(&self)
    }

    fn raw(self, ident: &str) -> Option<&'g [u8]> {
        EditNode::raw(&self, ident)
    }
}

impl<'g> ReadProperty<'g> for EditProperty<'g> {
    fn ident(self) -> &'g str {
        EditProperty::ident(&self)
    }

    fn values(self) -> impl Iterator<Item = &'g [u8]> + 'g {
        let game = self.game;
        let props = &game.nodes[self.node.index()].props;
        let ident = game.ident_bytes(self.prop);
        // Merged: the values of every occurrence, from this first one on.
        let take = if self.merged {
            props.len()
        } else {
            self.at + 1
        };
        props[self.at..take]
            .iter()
            .filter(move |p| game.ident_bytes(p) == ident)
            .flat_map(move |p| p.values.iter().map(move |v| &game.bytes[v.range()]))
    }

    fn values_at(self) -> impl Iterator<Item = (&'g [u8], Option<usize>)> + 'g {
        ReadProperty::values(self).map(|v| (v, None))
    }

    fn is(self, other: Self) -> bool {
        std::ptr::eq(self.game, other.game) && self.node == other.node && self.at == other.at
    }

    fn read_mode(self) -> ReadMode {
        match self.game.mode_at(self.node, self.at) {
            crate::lexer::ValueMode::Bytes => ReadMode::Bytes,
            _ => ReadMode::Characters,
        }
    }
}
