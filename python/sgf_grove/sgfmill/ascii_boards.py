"""sgfmill's ``ascii_boards`` module: a board as text and back.

``#`` is black, ``o`` white, ``.`` empty; row numbers on the left (1 at
the bottom), GTP's column letters below.

>>> from sgf_grove.sgfmill import ascii_boards, boards
>>> b = boards.Board(3)
>>> _ = b.play(0, 0, "b"); _ = b.play(2, 1, "w")
>>> print(ascii_boards.render_board(b))
3  .  o  .
2  .  .  .
1  #  .  .
   A  B  C
>>> ascii_boards.interpret_diagram(ascii_boards.render_board(b), 3).get(2, 1)
'w'
"""

from __future__ import annotations

from typing import Callable, List, Optional

from . import boards
from .common import column_letters

__all__ = ["render_grid", "render_board", "interpret_diagram"]

_SHOWN = {None: " .", "b": " #", "w": " o"}
_READ = {"#": "b", "o": "w", ".": None}


def render_grid(point_formatter: Callable[[int, int], str], size: int) -> List[str]:
    """The lines of a board-shaped grid, top row first: each row's number,
    then ``point_formatter(row, col)`` (two characters) for each column
    separated by a space; then a line of column letters."""
    width = 2 if size > 9 else 1
    lines = []
    for row in reversed(range(size)):
        cells = " ".join(point_formatter(row, col) for col in range(size))
        lines.append(f"{row + 1:>{width}} {cells}")
    letters = "  ".join(column_letters[:size])
    lines.append(" " * (width + 2) + letters)
    return lines


def render_board(board) -> str:
    """``board`` as text, without a final newline (``?`` for a point whose
    content is no colour)."""
    return "\n".join(render_grid(lambda row, col: _SHOWN.get(board.get(row, col), " ?"), board.side))


def interpret_diagram(diagram: str, size: int, board: Optional[boards.Board] = None) -> boards.Board:
    """The board a :func:`render_board` diagram shows (leading and trailing
    white space ignored), played onto ``board`` when given (it must be an
    empty board of ``size``); ``ValueError`` for a diagram that cannot be
    read."""
    if board is None:
        board = boards.Board(size)
    else:
        if board.side != size:
            raise ValueError(f"wrong board size, must be {size}")
        if not board.is_empty():
            raise ValueError("board not empty")
    lines = diagram.strip().split("\n")
    offset = 1 if size > 9 else 0
    try:
        for row in range(size):
            line = lines[size - 1 - row]
            for col in range(size):
                colour = _READ[line[3 * (col + 1) + offset]]
                if colour is not None:
                    board.play(row, col, colour)
    except (IndexError, KeyError, ValueError):
        raise ValueError("diagram not understood") from None
    return board
