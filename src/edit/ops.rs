//! The edits: properties set and removed, nodes added, deleted and moved,
//! variations reordered, the board transformed.

use super::*;
use crate::game::Transform;
use crate::lexer::{check_new_value, reads_alike, same_reading};
use crate::value::ToValue;
use encoding_rs::EncoderResult;

/// Whether `ident` is one or more upper-case ASCII letters.
fn check_ident(ident: &str) -> Result<()> {
    if !ident.is_empty() && ident.bytes().all(|b| b.is_ascii_uppercase()) {
        Ok(())
    } else {
        Err(Error::without_position(ErrorKind::InvalidIdent))
    }
}

impl EditableGame {
    /// Sets property `ident` of node `id` to one typed value: a [`Move`],
    /// [`Point`], text (`&str`, [`Text`](crate::value::Text)), a number, a
    /// game-info type ([`Komi`](crate::game::Komi), [`Rank`](crate::game::Rank),
    /// …); see [`ToValue`]. Text is escaped and encoded in the game's
    /// charset. An existing property keeps its place and loses its other
    /// values; a new one goes last.
    ///
    /// ```
    /// use sgf_grove::edit::EditableGame;
    /// use sgf_grove::value::{BoardSize, Move, Point};
    /// let mut game = EditableGame::new(BoardSize::square(19));
    /// let root = game.root();
    /// game.set(root, "KM", 6.5)?;
    /// game.set(root, "PB", "Lee Sedol")?;
    /// let node = game.add_child(root, 0)?;
    /// game.set(node, "B", Move::Play(Point { x: 15, y: 3 }))?;
    /// assert_eq!(game.node(node)?.raw("B"), Some(&b"pd"[..]));
    /// assert_eq!(game.node(root)?.get::<f64>("KM")?, Some(6.5));
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NoSuchNode`], [`ErrorKind::InvalidIdent`],
    /// [`ErrorKind::RootPropertyOutsideRoot`] (`SZ` outside the root…),
    /// what [`ToValue::write_value`] refuses, a character the game's charset
    /// lacks ([`ErrorKind::Unrepresentable`]), and for `CA` what
    /// [`EditableGame::set_raw`] says.
    pub fn set<V: ToValue>(&mut self, id: EditId, ident: &str, value: V) -> Result<()> {
        self.set_list(id, ident, [value])
    }

    /// Sets property `ident` of node `id` to a list of typed values (`AB`
    /// with its points, `LB` with its labels…), as [`EditableGame::set`]
    /// sets one.
    ///
    /// ```
    /// use sgf_grove::edit::EditableGame;
    /// use sgf_grove::value::{BoardSize, Point};
    /// let mut game = EditableGame::new(BoardSize::square(9));
    /// let root = game.root();
    /// game.set_list(root, "AB", [Point { x: 2, y: 2 }, Point { x: 6, y: 6 }])?;
    /// assert_eq!(game.node(root)?.points("AB")?.len(), 2);
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`EditableGame::set`]; an empty list is
    /// [`ErrorKind::InvalidRawValue`] (write an empty value with
    /// [`Empty`](crate::value::Empty)).
    pub fn set_list<V: ToValue>(
        &mut self,
        id: EditId,
        ident: &str,
        values: impl IntoIterator<Item = V>,
    ) -> Result<()> {
        let mut text = Vec::new();
        let mut encoded = Vec::new();
        let mut bounds = Vec::new();
        for value in values {
            text.clear();
            value.write_value(&mut text)?;
            let start = encoded.len();
            self.encode(&text, ident, &mut encoded)?;
            bounds.push(start..encoded.len());
        }
        let raws: Vec<&[u8]> = bounds.iter().map(|r| &encoded[r.clone()]).collect();
        self.set_raw_values(id, ident, &raws)
    }

    /// Appends UTF-8 `text` to `out` in the game's charset.
    fn encode(&self, text: &[u8], ident: &str, out: &mut Vec<u8>) -> Result<()> {
        if self.encoding == UTF_8 || text.is_ascii() {
            out.extend_from_slice(text);
            return Ok(());
        }
        let text = std::str::from_utf8(text).expect("ToValue writes UTF-8");
        let mut encoder = self.encoding.new_encoder();
        let room = encoder
            .max_buffer_length_from_utf8_without_replacement(text.len())
            .expect("a value's length is far from overflowing");
        let start = out.len();
        out.resize(start + room, 0);
        let (result, _, written) =
            encoder.encode_from_utf8_without_replacement(text, &mut out[start..], true);
        out.truncate(start + written);
        match result {
            EncoderResult::InputEmpty => Ok(()),
            EncoderResult::Unmappable(ch) => Err(Error::unrepresentable(
                ch,
                self.encoding.name(),
                ident,
                crate::Position::default(),
            )),
            EncoderResult::OutputFull => unreachable!("the buffer has the room asked for"),
        }
    }

    /// Sets property `ident` of node `id` to one value given as raw bytes:
    /// escaped as in a file, in the game's charset, without the brackets.
    ///
    /// ```
    /// use sgf_grove::edit::EditableGame;
    /// use sgf_grove::value::BoardSize;
    /// use sgf_grove::ErrorKind;
    /// let mut game = EditableGame::new(BoardSize::square(19));
    /// let root = game.root();
    /// game.set_raw(root, "C", br"a \] bracket")?;
    /// let err = game.set_raw(root, "C", b"a ] bracket").unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::InvalidRawValue);
    /// assert_eq!(err.reason(), Some("an unescaped `]`"));
    /// assert_eq!(game.set_raw(root, "C", b"x\\").unwrap_err().kind(), ErrorKind::InvalidRawValue);
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidRawValue`] for bytes a reader would not read back
    /// as this one value (an unescaped `]`, a lone `\` at the end, `(;`
    /// followed by a root property, a character of the charset cut in
    /// half); [`ErrorKind::UnusableCharset`] for a `CA` that names no usable
    /// charset or whose charset would split the game's values differently;
    /// and as [`EditableGame::set`].
    pub fn set_raw(&mut self, id: EditId, ident: &str, raw: &[u8]) -> Result<()> {
        self.set_raw_values(id, ident, &[raw])
    }

    /// Sets property `ident` of node `id` to the raw values `raws` (at
    /// least one), as [`EditableGame::set_raw`] sets one.
    ///
    /// # Errors
    ///
    /// As [`EditableGame::set_raw`]; no value at all is
    /// [`ErrorKind::InvalidRawValue`].
    pub fn set_raw_values(&mut self, id: EditId, ident: &str, raws: &[&[u8]]) -> Result<()> {
        self.check(id)?;
        check_ident(ident)?;
        if raws.is_empty() {
            return Err(Error::because(
                ErrorKind::InvalidRawValue,
                "a property needs a value",
            ));
        }
        let root = id.index() == 0;
        if !root && ROOT_ONLY.contains(&ident) {
            return Err(Error::without_position(ErrorKind::RootPropertyOutsideRoot));
        }
        if root && ident == "CA" {
            return self.set_ca(raws);
        }
        let props = &self.nodes[id.index()].props;
        let at = props
            .iter()
            .position(|p| self.ident_bytes(p) == ident.as_bytes());
        let mode = self.mode_at(id, at.unwrap_or(props.len()));
        // A game without a `CA`, in a charset read a character at a time
        // when a reader detects it: the value must read the same both ways.
        let guessed = match self.declared_ca() {
            None => ValueMode::for_encoding(self.encoding),
            Some(_) => mode,
        };
        for raw in raws {
            check_new_value(raw, mode)
                .and_then(|()| check_new_value(raw, guessed))
                .map_err(|why| Error::because(ErrorKind::InvalidRawValue, why))?;
        }
        self.arena.reset();
        let prop = self.new_prop(ident.as_bytes(), raws);
        self.replace(id, at, prop);
        if root {
            self.follow_root(ident);
        }
        Ok(())
    }

    /// Puts `prop` in node `id` at `at` (in place of the property there
    /// and of its repeats), or last.
    fn replace(&mut self, id: EditId, at: Option<usize>, prop: Prop) {
        let ident = self.ident_bytes(&prop).to_vec();
        let bytes = &self.bytes;
        let props = &mut self.nodes[id.index()].props;
        match at {
            Some(at) => {
                props[at] = prop;
                let mut i = 0;
                props.retain(|p| {
                    i += 1;
                    i - 1 == at || bytes[p.ident.range()] != ident[..]
                });
            }
            None => props.push(prop),
        }
    }

    /// Reads again what depends on the root's `ident`.
    fn follow_root(&mut self, ident: &str) {
        let root = EditNode::unplaced(self, self.root());
        match ident {
            "SZ" => {
                self.size = BoardSize::read_or_default(root.raw("SZ").unwrap_or_default());
            }
            "GM" => {
                self.game_type = crate::value::read_game_type(root.raw("GM").unwrap_or_default());
            }
            _ => {}
        }
    }

    /// Sets the root's `CA`: the charset text is read in from now on.
    fn set_ca(&mut self, raws: &[&[u8]]) -> Result<()> {
        for raw in raws {
            check_new_value(raw, ValueMode::Bytes)
                .map_err(|why| Error::because(ErrorKind::InvalidRawValue, why))?;
        }
        let encoding = crate::text::charset::for_label(raws[0]).ok_or_else(|| {
            Error::because(ErrorKind::UnusableCharset, "no usable charset of that name")
        })?;
        let root = self.root();
        let props = &self.nodes[0].props;
        let at = props.iter().position(|p| self.ident_bytes(p) == b"CA");
        let saved = (props.clone(), self.encoding);
        let before = self.modes();
        let prop = self.new_prop(b"CA", raws);
        self.replace(root, at, prop);
        self.encoding = encoding;
        self.changed_modes(before, saved)
    }

    /// The mode every value is read in, node by node and property by
    /// property.
    fn modes(&self) -> Vec<ValueMode> {
        let mut modes = Vec::new();
        for (index, slot) in self.nodes.iter().enumerate() {
            if slot.alive {
                for prop in 0..slot.props.len() {
                    modes.push(self.mode_at(EditId::new(index), prop));
                }
            }
        }
        modes
    }

    /// After a change of the root's properties or charset, whether every
    /// value reads as it did in the modes `before` (with the root's
    /// properties unchanged in number but for `CA`); if not, restores
    /// `saved` and refuses.
    fn changed_modes(
        &mut self,
        before: Vec<ValueMode>,
        saved: (Vec<Prop>, &'static Encoding),
    ) -> Result<()> {
        self.arena.reset();
        let after = self.modes();
        let mut alike = true;
        if before.len() == after.len() {
            let mut i = 0;
            'nodes: for (index, slot) in self.nodes.iter().enumerate() {
                if !slot.alive {
                    continue;
                }
                for prop in &slot.props {
                    let (from, to) = (before[i], after[i]);
                    i += 1;
                    if index == 0 && self.ident_bytes(prop) == b"CA" {
                        continue;
                    }
                    for v in &prop.values {
                        if !reads_alike(&self.bytes[v.range()], from, to) {
                            alike = false;
                            break 'nodes;
                        }
                    }
                }
            }
        } else {
            // `CA` added or removed in the root: compare value by value
            // with the root's old properties.
            alike = self.alike_after_ca_count_change(&before, &saved.0);
        }
        if alike {
            self.merge_root_repeats();
            return Ok(());
        }
        let (props, encoding) = saved;
        self.nodes[0].props = props;
        self.encoding = encoding;
        Err(Error::because(
            ErrorKind::UnusableCharset,
            "values of the game would be read differently in that charset",
        ))
    }

    /// Merges the occurrences of a property repeated in the root (kept
    /// apart, as the writer keeps them, in a root read a character at a
    /// time after its `CA`) once the root is read byte by byte: a reader
    /// merges them then.
    fn merge_root_repeats(&mut self) {
        if self.mode_at(self.root(), usize::MAX) != ValueMode::Bytes {
            return;
        }
        let props = std::mem::take(&mut self.nodes[0].props);
        let mut merged: Vec<Prop> = Vec::with_capacity(props.len());
        for prop in props {
            let ident = &self.bytes[prop.ident.range()];
            match merged
                .iter_mut()
                .find(|p| self.bytes[p.ident.range()] == *ident)
            {
                Some(first) => first.values.extend(prop.values),
                None => merged.push(prop),
            }
        }
        self.nodes[0].props = merged;
    }

    /// [`EditableGame::changed_modes`] when the root gained or lost its `CA`:
    /// the root's values matched by their properties' identity, the other
    /// nodes' in order.
    fn alike_after_ca_count_change(&self, before: &[ValueMode], old_root: &[Prop]) -> bool {
        let after = self.modes();
        let new_root = &self.nodes[0].props;
        // The root: a property of the old root keeps its spans in the new.
        for (i, old) in old_root.iter().enumerate() {
            let Some(j) = new_root
                .iter()
                .position(|p| p.ident == old.ident && p.values == old.values)
            else {
                continue;
            };
            if self.ident_bytes(old) == b"CA" {
                continue;
            }
            for v in &old.values {
                if !reads_alike(&self.bytes[v.range()], before[i], after[j]) {
                    return false;
                }
            }
        }
        let (mut i, mut j) = (old_root.len(), new_root.len());
        for slot in self.nodes.iter().skip(1).filter(|s| s.alive) {
            for prop in &slot.props {
                for v in &prop.values {
                    if !reads_alike(&self.bytes[v.range()], before[i], after[j]) {
                        return false;
                    }
                }
                i += 1;
                j += 1;
            }
        }
        true
    }

    /// Removes property `ident` from node `id`; whether it was there.
    /// Removing the root's `SZ` or `GM` goes back to 19×19 or Go; removing
    /// its `CA` keeps the charset, which the writer then records as `CA`
    /// where the bytes need it.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NoSuchNode`]; for `CA`, [`ErrorKind::UnusableCharset`]
    /// when values would then be read differently, or the charset is one
    /// read a character at a time (Shift_JIS, Big5, GBK, GB18030), which
    /// only its `CA` tells a reader.
    pub fn remove(&mut self, id: EditId, ident: &str) -> Result<bool> {
        self.check(id)?;
        let root = id.index() == 0;
        let had = {
            let bytes = &self.bytes;
            self.nodes[id.index()]
                .props
                .iter()
                .any(|p| &bytes[p.ident.range()] == ident.as_bytes())
        };
        if !had {
            return Ok(false);
        }
        if root && ident == "CA" && ValueMode::for_encoding(self.encoding) != ValueMode::Bytes {
            return Err(Error::because(
                ErrorKind::UnusableCharset,
                "a charset read a character at a time needs its CA",
            ));
        }
        let saved = (self.nodes[0].props.clone(), self.encoding);
        let before = (root && ident == "CA").then(|| self.modes());
        self.arena.reset();
        let bytes = &self.bytes;
        self.nodes[id.index()]
            .props
            .retain(|p| &bytes[p.ident.range()] != ident.as_bytes());
        if let Some(before) = before {
            self.changed_modes(before, saved)?;
        }
        if root {
            self.follow_root(ident);
        }
        Ok(true)
    }

    /// Appends `text` to the comment (`C`) of node `id`, on a new line when
    /// there is one already; sets it when there is none.
    ///
    /// # Errors
    ///
    /// As [`EditableGame::set`].
    pub fn append_comment(&mut self, id: EditId, text: &str) -> Result<()> {
        self.check(id)?;
        let old = EditNode::unplaced(self, id).raw("C").map(<[u8]>::to_vec);
        let mut utf8 = Vec::new();
        text.write_value(&mut utf8)?;
        let mut value = old.unwrap_or_default();
        if !value.is_empty() && !value.ends_with(b"\n") {
            value.push(b'\n');
        }
        self.encode(&utf8, "C", &mut value)?;
        self.set_raw(id, "C", &value)
    }

    /// Adds a new node without properties as child `index` of `parent`
    /// (0: the new main line; the number of children: the last variation),
    /// and gives its id.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NoSuchNode`], [`ErrorKind::ChildIndexOutOfRange`], and
    /// [`ErrorKind::RootPropertyOutsideRoot`] when a child of `parent`
    /// holds a root property and would start a variation.
    pub fn add_child(&mut self, parent: EditId, index: usize) -> Result<EditId> {
        self.check(parent)?;
        let len = self.nodes[parent.index()].children.len();
        if index > len {
            return Err(Error::without_position(ErrorKind::ChildIndexOutOfRange {
                index,
                len,
            }));
        }
        if len >= 1 {
            self.check_variation_starts(&self.nodes[parent.index()].children)?;
        }
        let id = EditId::new(self.nodes.len());
        self.nodes.push(Slot {
            alive: true,
            parent: Some(parent),
            ..Slot::default()
        });
        self.nodes[parent.index()].children.insert(index, id);
        Ok(id)
    }

    /// Adds a new node as the last child of `parent`.
    ///
    /// # Errors
    ///
    /// As [`EditableGame::add_child`].
    pub fn push_child(&mut self, parent: EditId) -> Result<EditId> {
        self.check(parent)?;
        let len = self.nodes[parent.index()].children.len();
        self.add_child(parent, len)
    }

    /// Refuses when one of `nodes` holds a property only a root may hold.
    fn check_variation_starts(&self, nodes: &[EditId]) -> Result<()> {
        for &id in nodes {
            for prop in &self.nodes[id.index()].props {
                if ROOT_ONLY
                    .iter()
                    .any(|r| r.as_bytes() == self.ident_bytes(prop))
                {
                    return Err(Error::without_position(ErrorKind::RootPropertyOutsideRoot));
                }
            }
        }
        Ok(())
    }

    /// Deletes node `id` and everything below it. Their ids stay invalid
    /// ([`ErrorKind::NoSuchNode`]) and are never given to another node.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NoSuchNode`]; [`ErrorKind::RootNode`] for the root.
    pub fn delete(&mut self, id: EditId) -> Result<()> {
        self.check(id)?;
        let parent = self.nodes[id.index()]
            .parent
            .ok_or_else(|| Error::without_position(ErrorKind::RootNode))?;
        self.nodes[parent.index()].children.retain(|&c| c != id);
        let mut stack = vec![id];
        while let Some(node) = stack.pop() {
            let slot = std::mem::take(&mut self.nodes[node.index()]);
            stack.extend(slot.children);
        }
        self.arena.reset();
        Ok(())
    }

    /// Moves node `id` and everything below it to be child `index` of
    /// `new_parent` (counted without `id`, when it is a child of
    /// `new_parent` already).
    ///
    /// ```
    /// use sgf_grove::edit::EditableGame;
    /// use sgf_grove::ErrorKind;
    /// let doc = sgf_grove::parse(b"(;GM[1];B[aa];W[bb];B[cc])")?;
    /// let mut game = EditableGame::from_game(doc.games().next().unwrap());
    /// let ids: Vec<_> = game.nodes().collect();
    /// // W[bb] (with B[cc]) becomes a variation beside B[aa].
    /// game.move_to(ids[2], ids[0], 1)?;
    /// assert_eq!(game.to_sgf(), b"(;GM[1](;B[aa])(;W[bb];B[cc]))\n");
    /// // B[aa] cannot go under W[bb]'s child B[cc]... only the other way round.
    /// assert_eq!(game.move_to(ids[2], ids[3], 0).unwrap_err().kind(), ErrorKind::WouldCreateLoop);
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NoSuchNode`]; [`ErrorKind::RootNode`] for the root;
    /// [`ErrorKind::WouldCreateLoop`] when `new_parent` is `id` or below it;
    /// [`ErrorKind::ChildIndexOutOfRange`]; [`ErrorKind::RootPropertyOutsideRoot`]
    /// as for [`EditableGame::add_child`].
    pub fn move_to(&mut self, id: EditId, new_parent: EditId, index: usize) -> Result<()> {
        self.check(id)?;
        self.check(new_parent)?;
        let old_parent = self.nodes[id.index()]
            .parent
            .ok_or_else(|| Error::without_position(ErrorKind::RootNode))?;
        let mut up = Some(new_parent);
        while let Some(node) = up {
            if node == id {
                return Err(Error::without_position(ErrorKind::WouldCreateLoop));
            }
            up = self.nodes[node.index()].parent;
        }
        let mut siblings = self.nodes[new_parent.index()].children.clone();
        siblings.retain(|&c| c != id);
        if index > siblings.len() {
            return Err(Error::without_position(ErrorKind::ChildIndexOutOfRange {
                index,
                len: siblings.len(),
            }));
        }
        siblings.insert(index, id);
        if siblings.len() >= 2 {
            self.check_variation_starts(&siblings)?;
        }
        self.nodes[old_parent.index()].children.retain(|&c| c != id);
        self.nodes[new_parent.index()].children = siblings;
        self.nodes[id.index()].parent = Some(new_parent);
        Ok(())
    }

    /// Moves node `id` to place `index` among its siblings (0: the main
    /// line): variations reordered.
    ///
    /// # Errors
    ///
    /// As [`EditableGame::move_to`] under the same parent.
    pub fn set_child_index(&mut self, id: EditId, index: usize) -> Result<()> {
        self.check(id)?;
        let parent = self.nodes[id.index()]
            .parent
            .ok_or_else(|| Error::without_position(ErrorKind::RootNode))?;
        self.move_to(id, parent, index)
    }

    /// Makes node `id` part of the main line: it and each of its ancestors
    /// become the first child of their parents (the order of the other
    /// variations is kept).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NoSuchNode`]; [`ErrorKind::RootNode`] for the root.
    pub fn promote(&mut self, id: EditId) -> Result<()> {
        self.check(id)?;
        if self.nodes[id.index()].parent.is_none() {
            return Err(Error::without_position(ErrorKind::RootNode));
        }
        let mut node = id;
        while let Some(parent) = self.nodes[node.index()].parent {
            let children = &mut self.nodes[parent.index()].children;
            if let Some(at) = children.iter().position(|&c| c == node) {
                children[..=at].rotate_right(1);
            }
            node = parent;
        }
        Ok(())
    }

    /// Applies `transform` to every property of the game: points moved
    /// (moves, setup, markup, labels, arrows, lines, `VW`, `TB`/`TW`; on a
    /// rectangular board `SZ` too), colours exchanged
    /// ([`Transform`] says what moves and what is exchanged).
    ///
    /// ```
    /// use sgf_grove::edit::EditableGame;
    /// use sgf_grove::game::{Symmetry, Transform};
    /// let doc = sgf_grove::parse(b"(;GM[1]SZ[19]PB[Lee]AB[aa:bb];B[pd]LB[pd:A])")?;
    /// let mut game = EditableGame::from_game(doc.games().next().unwrap());
    /// game.transform(Transform { symmetry: Symmetry::Rotate90, swap_colors: true })?;
    /// assert_eq!(game.to_sgf(), b"(;GM[1]SZ[19]PW[Lee]AW[ra:sb];W[pp]LB[pp:A])\n");
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NotGo`] when the game is not Go (`GM` other than 1) and
    /// `transform` moves points; [`ErrorKind::RootPropertyOutsideRoot`]
    /// never (identifiers exchanged are not root properties).
    pub fn transform(&mut self, transform: Transform) -> Result<()> {
        if transform.is_identity() {
            return Ok(());
        }
        if self.game_type != 1 && transform.symmetry != crate::game::Symmetry::Identity {
            return Err(Error::without_position(ErrorKind::NotGo));
        }
        let size = self.size;
        let mut out = Vec::new();
        for index in 0..self.nodes.len() {
            if !self.nodes[index].alive {
                continue;
            }
            let id = EditId::new(index);
            let modes: Vec<ValueMode> = (0..self.nodes[index].props.len())
                .map(|p| self.mode_at(id, p))
                .collect();
            let props = std::mem::take(&mut self.nodes[index].props);
            let mut moved = Vec::with_capacity(props.len());
            for (prop, mode) in props.iter().zip(modes) {
                let ident = std::str::from_utf8(self.ident_bytes(prop))
                    .unwrap_or("")
                    .to_owned();
                let new_ident = transform.ident(&ident);
                let mut values = Vec::with_capacity(prop.values.len());
                for v in &prop.values {
                    out.clear();
                    let old = &self.bytes[v.range()];
                    transform.write_value(&ident, old, size, &mut out)?;
                    // A value that the transform would make unreadable (its
                    // halves exchanged around an unescaped bracket) stays.
                    let keep = out[..] == *old
                        || (check_new_value(&out, mode).is_err() && !same_reading(old, &out, mode));
                    values.push(if keep { *v } else { self.store(&out) });
                }
                let ident = if new_ident == ident {
                    prop.ident
                } else {
                    self.store(new_ident.as_bytes())
                };
                moved.push(Prop { ident, values });
            }
            self.nodes[index].props = moved;
        }
        self.arena.reset();
        self.follow_root("SZ");
        Ok(())
    }
}
