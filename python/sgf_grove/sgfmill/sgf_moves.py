"""sgfmill's ``sgf_moves`` module: a game's setup and moves for a board,
and a board's position into a game.

>>> from sgf_grove.sgfmill import sgf, sgf_moves
>>> game = sgf.Sgf_game.from_bytes(b"(;SZ[9]AB[cc][gg];W[ee];B[];W[dc])")
>>> board, plays = sgf_moves.get_setup_and_moves(game)
>>> plays
[('w', (4, 4)), ('b', None), ('w', (6, 3))]
>>> for colour, move in plays:
...     if move is not None:
...         _ = board.play(*move, colour)
>>> sorted(board.list_occupied_points())
[('b', (2, 6)), ('b', (6, 2)), ('w', (4, 4)), ('w', (6, 3))]
"""

from __future__ import annotations

from typing import List, Optional, Tuple

from .. import _native
from . import sgf, sgf_properties

__all__ = ["get_setup_and_moves", "set_initial_position", "indicate_first_player"]

Move = Optional[Tuple[int, int]]


def get_setup_and_moves(sgf_game, board=None) -> Tuple[object, List[Tuple[str, Move]]]:
    """``(board, plays)``: a board holding the root's ``AB``/``AW``/``AE``
    setup, and the ``(colour, move)`` of each node of the main line
    (``move`` ``None`` for a pass). The moves are not played or checked.

    ``board``, when given, must be an empty board of the game's size, and
    is the board returned. ``ValueError`` when the setup is not a legal
    position, when the root holds both setup and a move, when a node
    after the root holds setup, or when a move is malformed.
    """
    size = sgf_game.get_size()
    if board is None:
        from . import boards

        board = boards.Board(size)
    else:
        if board.side != size:
            raise ValueError(f"wrong board size, must be {size}")
        if not board.is_empty():
            raise ValueError("board not empty")
    root = sgf_game.get_root()
    black, white, empty = root.get_setup_stones()
    skip = 0
    if black or white:
        if not board.apply_setup(black, white, empty):
            raise ValueError("setup position not legal")
        if root.get_raw_move()[0] is not None:
            raise ValueError("mixed setup and moves in root node")
        skip = 1
    if type(sgf_game) is sgf.Sgf_game:
        # The drop-in's own game: the main line read in one native call,
        # with the same checks as the loop below.
        return board, _native._mill_plays(sgf_game.grove, size, skip)
    nodes = iter(sgf_game.get_main_sequence()[skip:])
    plays: List[Tuple[str, Move]] = []
    for node in nodes:
        if node.has_setup_stones():
            raise ValueError("setup properties after the root node")
        colour, raw = node.get_raw_move()
        if colour is not None:
            plays.append((colour, sgf_properties.interpret_go_point(raw, size)))
    return board, plays


def set_initial_position(sgf_game, board) -> None:
    """Makes the root's ``AB``/``AW`` the stones of ``board`` (anything with
    ``list_occupied_points()``), replacing any setup there."""
    stones = {"b": set(), "w": set()}
    for colour, point in board.list_occupied_points():
        stones[colour].add(point)
    sgf_game.get_root().set_setup_stones(stones["b"], stones["w"])


def indicate_first_player(sgf_game) -> None:
    """Sets the root's ``PL`` to the first move's colour when a reader could
    not guess it: a first move by White without handicap, by Black with
    one, or setup stones other than a handicap (any ``AW``; ``AB`` without
    ``HA``)."""
    root = sgf_game.get_root()
    first, _ = root[0].get_move()
    if first is None:
        return
    handicap = root.has_property("HA")
    if root.has_property("AW") or (root.has_property("AB") and not handicap):
        needed = True
    else:
        needed = (first == "w") != handicap
    if needed:
        root.set("PL", first)
