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
        EditNode {
            game: self,
            id: EditableGame::root(self),
        }
    }

    fn node_by_key(self, key: usize) -> Option<EditNode<'g>> {
        let id = EditId::from_index(key)?;
        self.contains(id).then_some(EditNode { game: self, id })
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
        let at = self.declared_ca()?;
        let value = self.nodes[0].props[at].values.first()?;
        Some(&self.bytes[value.range()])
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
        Some(EditNode {
            game: self.game,
            id,
        })
    }

    fn first_child(self) -> Option<Self> {
        let id = EditNode::first_child(&self)?;
        Some(EditNode {
            game: self.game,
            id,
        })
    }

    fn next_sibling(self) -> Option<Self> {
        let parent = EditNode::parent(&self)?;
        let siblings = &self.game.nodes[parent.index()].children;
        let at = siblings.iter().position(|&c| c == self.id)?;
        let id = *siblings.get(at + 1)?;
        Some(EditNode {
            game: self.game,
            id,
        })
    }

    fn child_count(self) -> usize {
        EditNode::children(&self).len()
    }

    fn properties(self) -> impl Iterator<Item = EditProperty<'g>> + 'g {
        EditNode::properties(&self)
    }

    fn property(self, ident: &str) -> Option<EditProperty<'g>> {
        EditNode::property(&self, ident)
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
        EditNode::get_raw(&self, ident)
    }
}

impl<'g> ReadProperty<'g> for EditProperty<'g> {
    fn ident(self) -> &'g str {
        EditProperty::ident(&self)
    }

    fn values(self) -> impl Iterator<Item = &'g [u8]> + 'g {
        EditProperty::values(&self)
    }

    fn values_at(self) -> impl Iterator<Item = (&'g [u8], Option<usize>)> + 'g {
        EditProperty::values(&self).map(|v| (v, None))
    }

    fn value_count(self) -> usize {
        self.prop.values.len()
    }
}
