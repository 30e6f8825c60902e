"""sgfmill's ``sgf`` module on sgf-grove: ``Sgf_game`` and ``Tree_node``.

A script written for sgfmill switches by changing one import::

    from sgf_grove.sgfmill import sgf          # was: from sgfmill import sgf

(or by :func:`sgf_grove.sgfmill.install`, which leaves ``from sgfmill
import sgf`` as it is) and keeps sgfmill's conventions: colours ``'b'``
and ``'w'``, points as ``(row, col)`` with row 0 the *bottom* row (the GTP
convention: ``"pd"`` on 19x19 is ``(15, 15)``), a pass as ``None``, point
lists as sets, ``KeyError`` for a missing property and ``ValueError`` for
a malformed one, ``(None, None)`` from ``get_move()`` on a node without a
move.

>>> from sgf_grove.sgfmill import Sgf_game
>>> game = Sgf_game.from_bytes(b"(;GM[1]FF[4]SZ[9]PB[Black]PW[White]KM[6.5]RE[W+R];B[ee];W[cg])")
>>> game.get_size(), game.get_komi(), game.get_winner(), game.get_player_name("b")
(9, 6.5, 'w', 'Black')
>>> [node.get_move() for node in game.get_main_sequence()]
[(None, None), ('b', (4, 4)), ('w', (2, 2))]

Differences from sgfmill, all deliberate:

- Parsing is sgf-grove's: lenient where sgfmill refuses (lower-case
  identifiers, junk, unclosed trees, a property without a value are read,
  with warnings in ``game.grove.warnings``), and text without ``CA`` is
  decoded in the charset sgf-grove detects (UTF-8 for most modern files)
  where sgfmill assumes ISO-8859-1.
- An edited game without ``CA`` whose text is not ASCII gets the ``CA``
  sgf-grove read it in (``CA[UTF-8]``), so that the file written reads
  back the same.
- ``Tree_node.get``/``set`` follow sgfmill's value rules
  (:mod:`~sgf_grove.sgfmill.sgf_properties`), and ``serialise()`` writes
  sgfmill's layout byte for byte; ``get_encoding()`` is the charset the
  raw values were read in (detected, without ``CA``).
- sgf-grove's tree does not keep how a line of nodes was bracketed
  (``(;a(;b))`` and ``(;a;b)`` are one tree); a root ``CA`` naming a
  charset sgf-grove cannot read text in is refused (``ValueError``) when
  set.
- sgfmill's internals are not reproduced: each node is one
  :class:`Tree_node` (no plain ``Node`` objects from
  ``main_sequence_iter``), over sgf-grove's node rather than a dict.
- Only square boards of 1 to 26 points, as sgfmill (``ValueError``
  otherwise).
"""

from __future__ import annotations

import codecs
from typing import Any, Dict, Iterator, List, Optional, Set, Tuple

import sgf_grove

from . import sgf_grammar, sgf_properties

__all__ = ["Sgf_game", "Tree_node"]

Point = Tuple[int, int]

# Properties whose values are points, by how sgfmill presents them.
_POINT_SETS = {"AB", "AW", "AE", "CR", "MA", "SL", "SQ", "TR", "DD", "TB", "TW", "VW"}
_ELISTS = {"DD", "TB", "TW", "VW"}
_POINT_PAIRS = {"AR", "LN"}
_COLOURS = {"PL"}
_MOVES = {"B", "W"}


class Tree_node:
    """A node of an :class:`Sgf_game`: a list-like container of its children
    (``len``, indexing, iteration, ``index()``; false when it has none),
    with ``owner`` (its game) and ``parent`` (``None`` for the root).

    >>> game = Sgf_game.from_string("(;SZ[9];B[aa](;W[bb])(;W[cc]))")
    >>> first = game.get_root()[0]
    >>> len(first), first[1].get_move(), first.parent is game.get_root()
    (2, ('w', (6, 2)), True)
    """

    __slots__ = ("owner", "_node")

    def __init__(self, owner: "Sgf_game", node: sgf_grove.Node) -> None:
        self.owner = owner
        self._node = node

    # -- tree --------------------------------------------------------------

    @property
    def parent(self) -> Optional["Tree_node"]:
        """The parent node, ``None`` for the root."""
        p = self._node.parent
        return None if p is None else self.owner._wrap(p)

    def __len__(self) -> int:
        return len(self._node.children)

    def __bool__(self) -> bool:
        return not self._node.is_leaf

    def __getitem__(self, key):
        children = [self.owner._wrap(c) for c in self._node.children]
        return children[key]

    def __iter__(self) -> Iterator["Tree_node"]:
        return iter([self.owner._wrap(c) for c in self._node.children])

    def index(self, child: "Tree_node") -> int:
        """The place of ``child`` among this node's children."""
        for i, c in enumerate(self._node.children):
            if c == child._node:
                return i
        raise ValueError("not a child of this node")

    def new_child(self, index: Optional[int] = None) -> "Tree_node":
        """Adds a new node as the last child (or at ``index``, as
        ``list.insert`` places it) and returns it."""
        if index is not None:
            n = len(self)
            index = max(0, min(n, index if index >= 0 else n + index))
        return self.owner._wrap(self._node.add_child(index))

    def delete(self) -> None:
        """Removes this node (and its subtree) from the game."""
        if self._node.is_root:
            raise ValueError("can't remove the root node")
        self._node.delete()

    def reparent(self, new_parent: "Tree_node", index: Optional[int] = None) -> None:
        """Moves this node under ``new_parent`` (of the same game), last or at
        ``index``; ``ValueError`` when that would make a loop."""
        if new_parent.owner is not self.owner:
            raise ValueError("new parent doesn't belong to the same game")
        n: Optional[Tree_node] = new_parent
        while n is not None:
            if n is self:
                raise ValueError("would create a loop")
            n = n.parent
        self._node.move_to(new_parent._node, index)

    def find(self, identifier: str) -> Optional["Tree_node"]:
        """The nearest of this node and its ancestors that has the property."""
        node: Optional[Tree_node] = self
        while node is not None:
            if node.has_property(identifier):
                return node
            node = node.parent
        return None

    def find_property(self, identifier: str) -> Any:
        """The value of the property at this node or its nearest ancestor
        that has it (``KeyError`` when none has)."""
        node = self.find(identifier)
        if node is None:
            raise KeyError(identifier)
        return node.get(identifier)

    # -- properties --------------------------------------------------------

    def get_size(self) -> int:
        """The board size values are read on."""
        return self.owner.size

    def get_presenter(self) -> "sgf_properties.Presenter":
        """The game's :class:`~sgf_grove.sgfmill.sgf_properties.Presenter`."""
        return self.owner.get_property_presenter()

    def get_encoding(self) -> str:
        """The charset the game's raw values are in (normalised,
        ``"UTF-8"``...): the ``CA`` it was read with, else the charset
        sgf-grove detected (sgfmill says ``"ISO-8859-1"`` there)."""
        return self.owner._raw_charset

    def has_property(self, identifier: str) -> bool:
        """Whether the node has the property."""
        return identifier in self._node

    def properties(self) -> List[str]:
        """The identifiers of the node's properties."""
        return self._node.properties()

    def get_raw_list(self, identifier: str) -> List[bytes]:
        """Every raw value (the bytes between the brackets); ``KeyError`` when
        the node lacks the property."""
        if identifier not in self._node:
            raise KeyError(identifier)
        return self._node.get_raw_list(identifier)

    def get_raw(self, identifier: str) -> bytes:
        """The first raw value; ``KeyError`` when the node lacks it."""
        return self.get_raw_list(identifier)[0]

    def get_raw_property_map(self) -> Dict[str, List[bytes]]:
        """Every property's raw values, as a new dict."""
        return self._node.raw_properties()

    def get(self, identifier: str) -> Any:
        """The property's value as sgfmill presents it (see
        :mod:`~sgf_grove.sgfmill.sgf_properties`): points as ``(row, col)``
        from the bottom-left, a pass as ``None``, point lists as sets,
        colours ``'b'``/``'w'``, ``LB`` as ``[((row, col), text)]``,
        ``AR``/``LN`` as ``[(point, point)]``, ``AP`` as ``(name,
        version)``, ``FG`` as ``(flags, name)`` or ``None``, numbers as
        ``int``, reals as ``float``, text as ``str``, the None type as
        ``True``; unknown identifiers as text.

        ``KeyError`` when the node lacks the property, ``ValueError`` when the
        value is malformed.

        >>> root = Sgf_game.from_bytes(b"(;SZ[9]AB[aa][ab]LB[ee:X]PL[W]KM[7])").get_root()
        >>> sorted(root.get("AB")), root.get("LB"), root.get("PL"), root.get("KM")
        ([(7, 0), (8, 0)], [((4, 4), 'X')], 'w', 7.0)
        """
        return self.owner.get_property_presenter().interpret(identifier, self.get_raw_list(identifier))

    def set(self, identifier: str, value: Any) -> None:
        """Sets the property from sgfmill's representation (see :meth:`get`);
        ``ValueError`` when it cannot be written, or when it would change
        the board size."""
        if not sgf_grammar.is_valid_property_identifier(identifier):
            raise ValueError("ill-formed property identifier")
        if identifier == "SZ" and self._node.is_root and value != self.owner.size:
            raise ValueError("changing size is not permitted")
        self.set_raw_list(identifier, self.owner.get_property_presenter().serialise(identifier, value))

    def set_raw_list(self, identifier: str, values: List[bytes]) -> None:
        """Sets the property's raw values: ``ValueError`` for an identifier
        other than upper-case letters, an empty list, or a value with an
        unescaped ``]`` or a lone final ``\\``; ``TypeError`` for a value
        that is not bytes. sgf-grove also refuses (``ValueError``) a root
        ``CA`` naming a charset it cannot read."""
        if not sgf_grammar.is_valid_property_identifier(identifier):
            raise ValueError("ill-formed property identifier")
        values = list(values)
        if not values:
            raise ValueError("empty property list")
        for value in values:
            if not isinstance(value, (bytes, bytearray)):
                raise TypeError(f"expected bytes, given {type(value).__name__}")
            if not sgf_grammar.is_valid_property_value(value):
                raise ValueError("ill-formed raw property value")
        self._node.set_raw(identifier, [bytes(v) for v in values])

    def set_raw(self, identifier: str, value: bytes) -> None:
        """Sets the property to one raw value (see :meth:`set_raw_list`)."""
        self.set_raw_list(identifier, [value])

    def unset(self, identifier: str) -> None:
        """Removes the property; ``KeyError`` when the node lacks it."""
        if identifier == "SZ" and self._node.is_root and self.owner.size != 19:
            raise ValueError("changing size is not permitted")
        if not self._node.remove(identifier):
            raise KeyError(identifier)

    def get_raw_move(self) -> Tuple[Optional[str], Optional[bytes]]:
        """``(colour, raw value)`` of the node's ``B`` (else ``W``), or
        ``(None, None)``."""
        for ident in ("B", "W"):
            if ident in self._node:
                return ident.lower(), self._node.get_raw(ident)
        return None, None

    def get_move(self) -> Tuple[Optional[str], Optional[Point]]:
        """``(colour, (row, col))`` of the node's move, ``(colour, None)`` for
        a pass, ``(None, None)`` when the node plays no move; ``ValueError``
        when the move is no point of the board.

        >>> node = Sgf_game.from_bytes(b"(;SZ[19];B[pd])").get_main_sequence()[1]
        >>> node.get_move()
        ('b', (15, 15))
        """
        move = self._node.read_move(strict=True)
        if move is None:
            return None, None
        colour, point = move
        return colour.lower(), _to_rc(point, self.owner.size)

    def get_setup_stones(self) -> Tuple[Set[Point], Set[Point], Set[Point]]:
        """``(black, white, empty)``: the points of ``AB``, ``AW``, ``AE``."""
        return tuple(  # type: ignore[return-value]
            self.get(i) if i in self._node else set() for i in ("AB", "AW", "AE")
        )

    def has_setup_stones(self) -> bool:
        """Whether the node has ``AB``, ``AW`` or ``AE``."""
        return any(i in self._node for i in ("AB", "AW", "AE"))

    def set_move(self, colour: str, move: Optional[Point]) -> None:
        """Makes the node play ``move`` (``(row, col)``, or ``None`` for a
        pass, written ``tt`` up to 19x19 as sgfmill writes it) for ``colour``
        (``'b'`` or ``'w'``), replacing its ``B`` or ``W``."""
        if colour not in ("b", "w"):
            raise ValueError("colour must be 'b' or 'w'")
        for ident in ("B", "W"):
            self._node.remove(ident)
        ident = colour.upper()
        size = self.owner.size
        if move is None:
            self._node.set_raw(ident, b"tt" if size <= 19 else b"")
        else:
            self._node.set(ident, _to_xy(move, size))

    def set_setup_stones(self, black, white, empty=None) -> None:
        """Sets ``AB``, ``AW`` and ``AE`` (each left out when empty)."""
        for ident, points in (("AB", black), ("AW", white), ("AE", empty)):
            self._node.remove(ident)
            if points:
                self.set(ident, points)

    def add_comment_text(self, text: str) -> None:
        """Appends ``text`` to the comment, after a blank line when there is
        one already."""
        if self.has_property("C"):
            self.set("C", self.get("C") + "\n\n" + text)
        else:
            self.set("C", text)

    def __str__(self) -> str:
        """The node's properties, one a line, sorted (for debugging)."""
        encoding = self.get_encoding()
        lines = []
        for ident, values in sorted(self._node.raw_properties().items()):
            lines.append(ident + "".join("[" + v.decode(encoding, "replace") + "]" for v in values) + "\n")
        return "".join(lines)

    @property
    def grove(self) -> sgf_grove.Node:
        """The :class:`sgf_grove.Node` behind this node."""
        return self._node

    def __repr__(self) -> str:
        return f"<sgf_grove.sgfmill.Tree_node {self._node.id}>"


def _to_rc(p, size: int):
    """sgf-grove's ``(x, y)`` from the top as sgfmill's ``(row, col)``."""
    if p is None:
        return None
    x, y = p
    return size - 1 - y, x


def _to_xy(rc, size: int) -> Point:
    """sgfmill's ``(row, col)`` from the bottom as sgf-grove's ``(x, y)``."""
    row, col = rc
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(f"point {rc!r} is off a board of size {size}")
    return col, size - 1 - row


def _known_charset(name: str) -> Optional[str]:
    """``name`` normalised when Python has such a codec, else ``None``."""
    try:
        return sgf_properties.normalise_charset_name(name)
    except (LookupError, ValueError, TypeError):
        return None


def _normalise_charset(name: str) -> str:
    try:
        return codecs.lookup(name).name.replace("_", "-").upper().replace("ISO8859", "ISO-8859")
    except LookupError:
        return name


class Sgf_game:
    """An SGF game tree with sgfmill's ``Sgf_game`` API.

    ``Sgf_game(size)`` makes an empty game (``FF[4]``, ``GM[1]``, ``SZ``,
    ``CA``) on a square board of 1 to 26 points; :meth:`from_bytes` and
    :meth:`from_string` read one. The same node always gives the same
    :class:`Tree_node` object.

    >>> game = Sgf_game(size=9)
    >>> node = game.extend_main_sequence()
    >>> node.set_move("b", (2, 3)); node.set("C", "first move")
    >>> Sgf_game.from_bytes(game.serialise()).get_main_sequence()[1].get_move()
    ('b', (2, 3))
    """

    def __init__(self, size: int, encoding: str = "UTF-8") -> None:
        if not 1 <= size <= 26:
            raise ValueError(f"size out of range: {size}")
        if not isinstance(encoding, str) or not encoding.isascii():
            raise ValueError("encoding names must be ascii")
        if _known_charset(encoding) is None:
            raise ValueError(f"unknown encoding: {encoding}")
        game = sgf_grove.Game(size)
        game.root.set_raw("CA", _known_charset(encoding).encode("ascii"))
        self._init(game, encoding)

    def _init(self, game: sgf_grove.Game, override_encoding: Optional[str] = None) -> None:
        self.grove = game
        """The :class:`sgf_grove.Game` behind this game."""
        sz = game.root.get_raw("SZ")
        if sz is None:
            size = 19
        else:
            try:
                size = int(sz)
            except ValueError:
                raise ValueError(f"bad SZ property: {sz!r}") from None
        if not 1 <= size <= 26:
            raise ValueError(f"size out of range: {size}")
        self.size = size
        self._nodes: Dict[int, Tree_node] = {}
        self._presenter: Optional[sgf_properties.Presenter] = None
        # The charset the raw values are in: an override, else CA when
        # Python knows it, else what sgf-grove detected.
        ca = game.root.get_raw("CA")
        if override_encoding is not None:
            raw = _known_charset(override_encoding)
            if raw is None:
                raise ValueError(f"unknown encoding: {override_encoding}")
        else:
            raw = _known_charset(ca.decode("ascii", "replace")) if ca is not None else None
            raw = raw or _known_charset(game.charset) or "UTF-8"
        self._raw_charset = raw
        # The charset serialise() writes without transcoding: CA as read
        # (ISO-8859-1 when absent, the FF[4] default).
        try:
            self._load_charset: Optional[str] = self.get_charset()
        except ValueError:
            self._load_charset = None

    @classmethod
    def from_bytes(cls, bb, override_encoding: Optional[str] = None) -> "Sgf_game":
        """Reads the first game of ``bb``; text in ``override_encoding`` when
        given (recorded as ``CA``). ``ValueError`` when there is no game or
        the board is not a square of 1 to 26 points."""
        collection = sgf_grove.parse(bytes(bb), charset=override_encoding)
        if len(collection) == 0:
            raise ValueError("no SGF data found")
        if override_encoding is not None:
            known = _known_charset(override_encoding)
            if known is None:
                raise ValueError(f"unknown encoding: {override_encoding}")
            collection[0].root.set_raw("CA", known.encode("ascii"))
        game = cls.__new__(cls)
        game._init(collection[0], override_encoding)
        return game

    @classmethod
    def from_string(cls, s: str) -> "Sgf_game":
        """Reads the first game of the string ``s`` (its text is UTF-8, and
        ``CA`` says so)."""
        if not hasattr(s, "encode"):
            raise TypeError(f"expected string, given {type(s).__name__}")
        return cls.from_bytes(s.encode("utf-8"), override_encoding="UTF-8")

    def _wrap(self, node: sgf_grove.Node) -> Tree_node:
        wrapped = self._nodes.get(node.id)
        if wrapped is None:
            wrapped = Tree_node(self, node)
            self._nodes[node.id] = wrapped
        return wrapped

    def serialise(self, wrap: Optional[int] = 79) -> bytes:
        """The game as SGF bytes in sgfmill's layout (each node's properties
        sorted, ``FF`` first; lines wrapped at ``wrap`` between properties,
        ``None``: one line; a final newline). Raw values are written as
        they are, unless the root's ``CA`` was changed since the game was
        read: then the text is transcoded to the new charset
        (``UnicodeDecodeError``/``UnicodeEncodeError`` when it cannot be).
        ``ValueError`` when ``CA`` names no charset Python knows."""
        try:
            target = self.get_charset()
        except ValueError:
            raise ValueError(f"unsupported charset: {self.grove.root.get_raw('CA')}") from None
        data = sgf_grammar.serialise_game_tree(sgf_grammar._coarse(self.grove), wrap)
        if target in (self._load_charset, self._raw_charset):
            return data
        return data.decode(self._raw_charset).encode(target)

    def get_property_presenter(self) -> "sgf_properties.Presenter":
        """A :class:`~sgf_grove.sgfmill.sgf_properties.Presenter` for the
        game's size and charset (sgfmill's value rules)."""
        if self._presenter is None:
            self._presenter = sgf_properties.Presenter(self.size, self._raw_charset)
        return self._presenter

    @classmethod
    def from_coarse_game_tree(
        cls, coarse_game: "sgf_grammar.Coarse_game_tree", override_encoding: Optional[str] = None
    ) -> "Sgf_game":
        """The game of a :class:`~sgf_grove.sgfmill.sgf_grammar.Coarse_game_tree`
        (written out, then read as :meth:`from_bytes` reads)."""
        return cls.from_bytes(sgf_grammar.serialise_game_tree(coarse_game), override_encoding)

    def set_date(self, date: Any = None) -> None:
        """Sets the root's ``DT`` to ``date`` (a ``datetime.date``; today
        when ``None``) as ``YYYY-MM-DD``."""
        if date is None:
            import datetime

            date = datetime.date.today()
        self.get_root().set("DT", date.strftime("%Y-%m-%d"))

    def get_root(self) -> Tree_node:
        """The root node."""
        return self._wrap(self.grove.root)

    def get_last_node(self) -> Tree_node:
        """The last node of the main line."""
        return self._wrap(self.grove.main_line()[-1])

    def get_main_sequence(self) -> List[Tree_node]:
        """The main line, from the root to its last node."""
        return [self._wrap(n) for n in self.grove.main_line()]

    def get_main_sequence_below(self, node: Tree_node) -> List[Tree_node]:
        """The main line below ``node``, from its first child to the end."""
        if node.owner is not self:
            raise ValueError("node doesn't belong to this game")
        return [self._wrap(n) for n in node._node.main_line()[1:]]

    def get_sequence_above(self, node: Tree_node) -> List[Tree_node]:
        """The nodes from the root to the parent of ``node``."""
        if node.owner is not self:
            raise ValueError("node doesn't belong to this game")
        return [self._wrap(n) for n in reversed(node._node.ancestors())]

    def main_sequence_iter(self) -> Iterator[Tree_node]:
        """The main line, as an iterator."""
        return iter(self.get_main_sequence())

    def extend_main_sequence(self) -> Tree_node:
        """Adds a node after the last node of the main line and returns it."""
        return self.get_last_node().new_child()

    def get_size(self) -> int:
        """The board size."""
        return self.size

    def get_charset(self) -> str:
        """The root's ``CA``, normalised (``"ISO-8859-1"`` when absent, as the
        FF[4] default); ``ValueError`` when Python knows no such codec."""
        root = self.grove.root
        if "CA" not in root:
            return "ISO-8859-1"
        ca = root["CA"]
        try:
            codecs.lookup(ca)
        except LookupError:
            raise ValueError(f"no codec available for CA {ca}") from None
        return _normalise_charset(ca)

    def get_komi(self) -> float:
        """``KM`` as a float (as written: Fox's ``KM[650]`` is 650.0); 0.0
        when absent; ``ValueError`` when malformed."""
        root = self.get_root()
        if not root.has_property("KM"):
            return 0.0
        return float(root.get("KM"))

    def get_handicap(self) -> Optional[int]:
        """``HA`` as an int; ``None`` when absent or 0; ``ValueError`` for 1
        or a malformed value."""
        root = self.get_root()
        if not root.has_property("HA"):
            return None
        handicap = root.get("HA")
        if handicap == 0:
            return None
        if handicap == 1:
            raise ValueError("handicap of 1")
        return handicap

    def get_player_name(self, colour: str) -> Optional[str]:
        """The name of player ``colour`` (``'b'`` or ``'w'``), ``None`` when
        absent."""
        ident = {"b": "PB", "w": "PW"}[colour]
        root = self.grove.root
        return root[ident] if ident in root else None

    def get_winner(self) -> Optional[str]:
        """``'b'`` or ``'w'`` from the first letter of ``RE``; ``None`` when
        absent or neither won."""
        root = self.grove.root
        if "RE" not in root:
            return None
        text = root["RE"]
        colour = text[0].lower() if text else ""
        return colour if colour in ("b", "w") else None
