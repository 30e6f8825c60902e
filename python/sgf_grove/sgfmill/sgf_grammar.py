"""sgfmill's ``sgf_grammar`` module, the part sgf-grove can honestly offer.

Provided, with sgfmill's behaviour: the value-level functions
(:func:`is_valid_property_identifier`, :func:`is_valid_property_value`,
:func:`parse_compose`, :func:`compose`, :func:`simpletext_value`,
:func:`text_value`, :func:`escape_text`), :func:`block_format`,
:func:`serialise_game_tree` and :func:`main_sequence_iter` over
:class:`Coarse_game_tree`, and :func:`parse_sgf_game` /
:func:`parse_sgf_collection`, which read with sgf-grove's parser.

Deliberately different: sgf-grove's parser is lenient where sgfmill's
grammar refuses (junk between games, lower-case letters in identifiers,
unclosed trees, a property without value...): what sgfmill rejects with
``ValueError`` is read here, and the parser's warnings are the record of
what it forgave (``sgf_grove.parse(data).warnings``). ``ValueError`` is
raised only when no game is found at all.

Not provided: ``tokenise``, ``make_tree`` and ``make_coarse_game_tree``:
sgf-grove builds its tree from its own events, and its tokens are not
sgfmill's token list.

>>> from sgf_grove.sgfmill.sgf_grammar import parse_compose, text_value
>>> parse_compose(b"ab\\\\:c:de"), text_value(b"a\\\\]b\\n c")
((b'ab\\\\:c', b'de'), b'a]b\\n c')
"""

from __future__ import annotations

import re
from typing import Dict, Iterator, List, Optional, Tuple

import sgf_grove

__all__ = [
    "Coarse_game_tree",
    "block_format",
    "compose",
    "escape_text",
    "is_valid_property_identifier",
    "is_valid_property_value",
    "main_sequence_iter",
    "parse_compose",
    "parse_sgf_collection",
    "parse_sgf_game",
    "serialise_game_tree",
    "simpletext_value",
    "text_value",
]

_IDENT = re.compile(r"[A-Z]{1,64}")


def is_valid_property_identifier(s: str) -> bool:
    """Whether ``s`` is an FF[4] PropIdent: 1 to 64 upper-case letters (no
    lower-case letters, as FF[4] forbids them)."""
    return _IDENT.fullmatch(s) is not None


def is_valid_property_value(bb: bytes) -> bool:
    """Whether ``bb`` can stand between ``[`` and ``]`` as it is: every
    ``]`` escaped and no lone ``\\`` at the end."""
    i, n = 0, len(bb)
    while i < n:
        byte = bb[i]
        if byte == 0x5C:  # backslash: escapes the next byte
            if i + 1 == n:
                return False
            i += 2
            continue
        if byte == 0x5D:
            return False
        i += 1
    return True


def parse_compose(bb: bytes) -> Tuple[bytes, Optional[bytes]]:
    """Splits a Compose value at its first unescaped ``:``; escapes are
    kept in both parts. ``(bb, None)`` when there is no such ``:``."""
    i, n = 0, len(bb)
    while i < n:
        byte = bb[i]
        if byte == 0x5C:
            i += 2
            continue
        if byte == 0x3A:
            return bb[:i], bb[i + 1 :]
        i += 1
    return bb, None


def compose(bb1: bytes, bb2: bytes) -> bytes:
    """A Compose value of two serialised values (the first's ``:`` escaped)."""
    return bb1.replace(b":", b"\\:") + b":" + bb2


_LINE_BREAK = re.compile(rb"\n\r|\r\n|\n|\r")
_SPACES = bytes.maketrans(b"\t\v\f", b"   ")


def _unescape(bb: bytes, keep_breaks: bool) -> bytes:
    """Text (``keep_breaks``) or SimpleText decoding: line breaks become
    ``\\n``, other white space a space; an escaped line break vanishes; a
    backslash keeps the byte after it; a plain line break stays (Text) or
    becomes a space (SimpleText)."""
    bb = _LINE_BREAK.sub(b"\n", bytes(bb)).translate(_SPACES)
    out = bytearray()
    escaped = False
    for byte in bb:
        if escaped:
            if byte != 0x0A:
                out.append(byte)
            escaped = False
        elif byte == 0x5C:
            escaped = True
        elif byte == 0x0A and not keep_breaks:
            out.append(0x20)
        else:
            out.append(byte)
    return bytes(out)


def simpletext_value(bb: bytes) -> bytes:
    """The bytes a raw SimpleText value stands for (escapes undone, line
    breaks and other white space as spaces, escaped line breaks gone)."""
    return _unescape(bb, keep_breaks=False)


def text_value(bb: bytes) -> bytes:
    """The bytes a raw Text value stands for (escapes undone, line breaks
    as ``\\n``, other white space as spaces, escaped line breaks gone)."""
    return _unescape(bb, keep_breaks=True)


def escape_text(bb: bytes) -> bytes:
    """``bb`` as a raw Text value: ``\\`` and ``]`` escaped."""
    return bytes(bb).replace(b"\\", b"\\\\").replace(b"]", b"\\]")


class Coarse_game_tree:
    """A game tree as raw values: ``sequence`` (a list of nodes, each a dict
    of identifier to its list of raw values) and ``children`` (the
    variations after the sequence, each a :class:`Coarse_game_tree`)."""

    def __init__(self) -> None:
        self.sequence: List[Dict[str, List[bytes]]] = []
        self.children: List["Coarse_game_tree"] = []


def _coarse(game: sgf_grove.Game) -> Coarse_game_tree:
    """The game's tree as a :class:`Coarse_game_tree`: a sequence runs
    until a node with other than one child (built without recursion)."""
    top = Coarse_game_tree()
    todo = [(game.root, top)]
    while todo:
        node, tree = todo.pop()
        while True:
            tree.sequence.append(node.raw_properties())
            children = node.children
            if len(children) != 1:
                break
            node = children[0]
        for child in children:
            sub = Coarse_game_tree()
            tree.children.append(sub)
            todo.append((child, sub))
    return top


def _parse(bb: bytes) -> sgf_grove.Collection:
    try:
        collection = sgf_grove.parse(bytes(bb))
    except ValueError as e:
        raise ValueError(f"no SGF data found ({e})") from None
    if len(collection) == 0:
        raise ValueError("no SGF data found")
    return collection


def parse_sgf_game(bb: bytes) -> Coarse_game_tree:
    """The first game of ``bb`` as a :class:`Coarse_game_tree`, read by
    sgf-grove's lenient parser; ``ValueError`` when there is no game."""
    collection = _parse(bb)
    return _coarse(collection[0])


def parse_sgf_collection(bb: bytes) -> List[Coarse_game_tree]:
    """Every game of ``bb``, each a :class:`Coarse_game_tree`;
    ``ValueError`` when there is none."""
    collection = _parse(bb)
    return [_coarse(game) for game in collection]


def block_format(pieces: List[bytes], width: int = 79) -> bytes:
    """Joins ``pieces`` into lines of at most ``width`` bytes, breaking only
    between pieces (a piece longer than ``width`` has a line of its own)."""
    lines: List[bytes] = []
    line = b""
    for piece in pieces:
        if line and len(line) + len(piece) > width:
            lines.append(line)
            line = b""
        line += piece
    if line:
        lines.append(line)
    return b"\n".join(lines)


def serialise_game_tree(game_tree: Coarse_game_tree, wrap: Optional[int] = 79) -> bytes:
    """A :class:`Coarse_game_tree` as SGF: each node's identifiers sorted
    with ``FF`` first, a property with its values as one piece, wrapped
    at ``wrap`` bytes between pieces (``None``: one line), ending with a
    newline."""
    pieces: List[bytes] = []
    stack: List[object] = [game_tree]
    while stack:
        item = stack.pop()
        if isinstance(item, bytes):
            pieces.append(item)
            continue
        tree = item  # type: ignore[assignment]
        pieces.append(b"(")
        for node in tree.sequence:  # type: ignore[attr-defined]
            pieces.append(b";")
            for ident in sorted(node, key=lambda i: (i != "FF", i)):
                values = b"".join(b"[" + v + b"]" for v in node[ident])
                key = ident if isinstance(ident, bytes) else ident.encode("ascii")
                pieces.append(key + values)
        stack.append(b")")
        stack.extend(reversed(tree.children))  # type: ignore[attr-defined]
    # The final newline is a piece too: on a full last line it wraps.
    pieces.append(b"\n")
    if wrap is None:
        return b"".join(pieces)
    return block_format(pieces, wrap)


def main_sequence_iter(game_tree: Coarse_game_tree) -> Iterator[Dict[str, List[bytes]]]:
    """The nodes of the leftmost line of a :class:`Coarse_game_tree`."""
    tree: Optional[Coarse_game_tree] = game_tree
    while tree is not None:
        yield from tree.sequence
        tree = tree.children[0] if tree.children else None

