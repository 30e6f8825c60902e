"""sgfmill's ``common`` module: colours and GTP vertices.

Colours are ``'b'`` and ``'w'``; a point is ``(row, col)`` with ``(0, 0)``
the bottom-left corner; a vertex is GTP's ``"A1"`` (columns ``A`` to ``Z``
without ``I``, so boards up to 25) or ``"pass"``.

>>> from sgf_grove.sgfmill.common import format_vertex, move_from_vertex, opponent_of
>>> format_vertex((3, 2)), move_from_vertex("j10", 19), opponent_of("b")
('C4', (9, 8), 'w')
"""

from __future__ import annotations

from typing import Iterable, Optional, Tuple

__all__ = ["opponent_of", "colour_name", "format_vertex", "format_vertex_list", "move_from_vertex"]

#: GTP's column letters (no ``I``).
column_letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

_OPPONENT = {"b": "w", "w": "b"}
_NAME = {"b": "black", "w": "white"}


def opponent_of(colour: str) -> str:
    """The other colour; ``ValueError`` for anything but ``'b'``/``'w'``."""
    if colour in _OPPONENT:
        return _OPPONENT[colour]
    raise ValueError(f"bad colour: {colour!r}")


def colour_name(colour: str) -> str:
    """``'black'`` or ``'white'``; ``ValueError`` for a bad colour."""
    if colour in _NAME:
        return _NAME[colour]
    raise ValueError(f"bad colour: {colour!r}")


def format_vertex(move: Optional[Tuple[int, int]]) -> str:
    """The GTP vertex of ``(row, col)`` (``"pass"`` for ``None``);
    ``ValueError`` outside 25x25."""
    if move is None:
        return "pass"
    row, col = move
    if row not in range(25) or col not in range(25):
        raise ValueError(f"point off a 25x25 board: {move!r}")
    return f"{column_letters[col]}{row + 1}"


def format_vertex_list(moves: Iterable[Optional[Tuple[int, int]]]) -> str:
    """The vertices of ``moves`` joined by commas."""
    return ",".join(format_vertex(m) for m in moves)


def move_from_vertex(vertex: str, board_size: int) -> Optional[Tuple[int, int]]:
    """The ``(row, col)`` of a GTP vertex on a board of ``board_size`` (1 to
    25), ``None`` for ``"pass"`` (any case); ``ValueError`` saying why when
    the vertex is malformed or off the board."""
    if not 1 <= board_size <= 25:
        raise ValueError("board_size out of range")
    try:
        text = vertex.lower()
    except Exception:
        raise ValueError("invalid vertex") from None
    if text == "pass":
        return None
    letter, digits = text[:1], text[1:]
    letters = column_letters.lower()
    if not letter or letter not in letters or not _is_int(digits):
        raise ValueError(f"invalid vertex: '{text}'")
    row = int(digits) - 1
    if row < 0:
        raise ValueError(f"invalid vertex: '{text}'")
    col = letters.index(letter)
    if col >= board_size or row >= board_size:
        raise ValueError(f"vertex is off board: '{text}'")
    return row, col


def _is_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True
