"""sgfmill's ``boards`` module: a Go position with sgfmill's rules, its
play loop in Rust on sgf-grove's board.

``Board(side)`` is an empty board (side 2 to 52; sgfmill has no upper
bound, sgf-grove's boards stop at 52). :meth:`Board.play` places a stone,
takes off the opponent's chains left without liberties, then the
player's own chain when it is left without liberties (self-capture is a
move), enforces no ko rule, and returns the point a simple ko would
forbid next (or ``None``). ``IndexError`` for a point off the board,
``ValueError`` for a bad colour or an occupied point.

>>> from sgf_grove.sgfmill.boards import Board
>>> b = Board(9)
>>> for row, col, colour in [(0, 1, "b"), (1, 0, "b"), (2, 1, "b"),
...                          (0, 2, "w"), (2, 2, "w"), (1, 3, "w"), (1, 1, "w")]:
...     _ = b.play(row, col, colour)
>>> b.play(1, 2, "b")   # takes the white stone at (1, 1): a ko there
(1, 1)
>>> b.play(0, 0, "w")   # into Black's corner: a self-capture
>>> b.get(0, 0), b.get(1, 1), b.get(1, 2)
(None, None, 'b')

Not provided: the ``board`` attribute (sgfmill's list of rows), which
sgfmill documents as private; use :meth:`Board.get`.
"""

from __future__ import annotations

from typing import Iterable, List, Optional, Tuple

from .._native import MillBoard

__all__ = ["Board"]

Point = Tuple[int, int]


class Board(MillBoard):
    """A legal Go position: ``side`` and ``board_points`` (every
    ``(row, col)``, row by row from the bottom), ``play``, ``get``,
    ``apply_setup``, ``list_occupied_points``, ``is_empty``,
    ``area_score``, ``copy``."""

    __slots__ = ()

    @property
    def board_points(self) -> List[Point]:
        """Every point, ``(0, 0)``, ``(0, 1)``, ... row by row from the
        bottom."""
        side = self.side
        return [(row, col) for row in range(side) for col in range(side)]

    def copy(self) -> "Board":
        """An independent copy of this board."""
        other = type(self)(self.side)
        other._copy_from(self)
        return other
