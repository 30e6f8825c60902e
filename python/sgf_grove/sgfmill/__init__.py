"""sgfmill's API on sgf-grove: a drop-in for programs written for sgfmill.

The modules are sgfmill's: :mod:`~sgf_grove.sgfmill.sgf` (games and
nodes), :mod:`~sgf_grove.sgfmill.sgf_moves` (a game's setup and moves),
:mod:`~sgf_grove.sgfmill.boards` (a position with captures, its play loop
in Rust), :mod:`~sgf_grove.sgfmill.ascii_boards`,
:mod:`~sgf_grove.sgfmill.common`,
:mod:`~sgf_grove.sgfmill.sgf_properties` and the value-level part of
:mod:`~sgf_grove.sgfmill.sgf_grammar`. Each module's docs list where it
deliberately differs from sgfmill; above all, reading is sgf-grove's
lenient parser: files sgfmill refuses are read, with warnings.

Two ways in. Import from here::

    from sgf_grove.sgfmill import sgf, sgf_moves, boards

or leave a program written for sgfmill unchanged and call :func:`install`
first (or run it as ``python -m sgf_grove.sgfmill SCRIPT.py ARGS``), which
makes ``import sgfmill`` and ``from sgfmill import sgf`` give these
modules:

>>> import sgf_grove.sgfmill
>>> sgf_grove.sgfmill.install()
>>> from sgfmill import sgf, sgf_moves
>>> game = sgf.Sgf_game.from_bytes(b"(;SZ[9];B[ee];W[ce];B[dd])")
>>> board, plays = sgf_moves.get_setup_and_moves(game)
>>> for colour, (row, col) in plays:
...     _ = board.play(row, col, colour)
>>> board.list_occupied_points()
[('w', (4, 2)), ('b', (4, 4)), ('b', (5, 3))]
>>> sgf_grove.sgfmill.uninstall()
"""

from __future__ import annotations

import sys
from typing import Dict, Optional

from . import common, sgf_grammar, sgf_properties  # noqa: F401  (the order of their imports)
from . import sgf, boards, ascii_boards, sgf_moves  # noqa: F401
from .sgf import Sgf_game, Tree_node

__all__ = [
    "Sgf_game",
    "Tree_node",
    "ascii_boards",
    "boards",
    "common",
    "install",
    "installed",
    "sgf",
    "sgf_grammar",
    "sgf_moves",
    "sgf_properties",
    "uninstall",
]

#: The modules :func:`install` registers under ``sgfmill.``.
SUBMODULES = ("common", "sgf_grammar", "sgf_properties", "sgf", "boards", "ascii_boards", "sgf_moves")

# What `sys.modules` held under the names install() took, to give back.
_saved: Optional[Dict[str, object]] = None


def installed() -> bool:
    """Whether :func:`install` is in force."""
    return _saved is not None


def install() -> None:
    """Registers this package as ``sgfmill`` and each module as
    ``sgfmill.<name>`` in ``sys.modules``, so that a program's ``import
    sgfmill`` / ``from sgfmill import sgf, boards`` gets them. Modules of a
    real sgfmill imported before are set aside (and given back by
    :func:`uninstall`). Calling it again does nothing."""
    global _saved
    if _saved is not None:
        return
    package = sys.modules[__name__]
    saved = {name: mod for name, mod in sys.modules.items() if name == "sgfmill" or name.startswith("sgfmill.")}
    for name in saved:
        del sys.modules[name]
    sys.modules["sgfmill"] = package
    for name in SUBMODULES:
        sys.modules[f"sgfmill.{name}"] = getattr(package, name)
    _saved = saved


def uninstall() -> None:
    """Undoes :func:`install`: ``sgfmill`` is again what it was (a real
    sgfmill imported before, or nothing). Does nothing when not
    installed."""
    global _saved
    if _saved is None:
        return
    for name in [n for n in sys.modules if n == "sgfmill" or n.startswith("sgfmill.")]:
        del sys.modules[name]
    sys.modules.update(_saved)  # type: ignore[arg-type]
    _saved = None
