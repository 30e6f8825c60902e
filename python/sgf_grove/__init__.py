"""sgf_grove: fast, forgiving SGF (Go game record) reading, replay, editing and writing.

>>> import sgf_grove
>>> game = sgf_grove.parse(b"(;GM[1]SZ[19]PB[Lee]PW[Cho]KM[6.5]RE[W+R];B[pd];W[dd])")[0]
>>> [node.move for node in game.main_line()[1:]]
[('B', (15, 3)), ('W', (3, 3))]
>>> game.info.result.winner, game.board().size, game.board().captures
('W', (19, 19), (0, 0))
>>> game.moves_array().tolist()   # the main line in one call (NumPy), for indexers
[[1, 15, 3], [2, 3, 3]]

Points are ``(x, y)``: the column and the row from the top-left corner,
counted from 0, as the two letters of an SGF point say (``"pd"`` is
``(15, 3)``); a pass is ``None``. A board's ``array`` (and ``line_array``,
``boards``) is a NumPy ``uint8`` array of shape ``(rows, columns)``: 0
empty, 1 black, 2 white; ``Game.moves_array()`` is the main line's moves
as an ``int8`` array of ``(colour, x, y)`` rows (colour 1 black, 2
white; a pass ``-1, -1``), what an indexer's loop reads in one call
instead of a Python object per move. NumPy is needed for those alone
(``pip install "./python[numpy]"``). ``sgf_grove.sgfmill``
is a drop-in for sgfmill (``sgf``, ``sgf_moves``, ``boards``,
``ascii_boards``, ``common``, ``sgf_properties``): after
``sgf_grove.sgfmill.install()`` a program written for sgfmill runs
unchanged.

Many files at once: ``sgf_grove.scan(paths)`` iterates over the games of
folders, collections, ``.sgfs`` files and archives, parsed on Rust
threads; ``sgf_grove.to_arrow`` and ``sgf_grove.to_parquet`` give the
games and moves tables of ``sgf export``; ``sgf_grove.cluster`` runs an
export on a Dask cluster. ``sgf_grove.samples(paths)`` gives training
samples (feature planes, policy and value targets, augmentation) in
shuffled batches of NumPy arrays.
"""

from sgf_grove._scan import (
    Filter,
    Rejected,
    Scan,
    ScanReport,
    Tables,
    arrow_batches,
    scan,
    to_arrow,
    to_parquet,
)
from sgf_grove._samples import Samples, samples
from sgf_grove._native import (
    SYMMETRIES,
    Board,
    Collection,
    Cursor,
    Game,
    IllegalMove,
    Node,
    ParseWarning,
    SgfError,
    __version__,
    parse,
    read,
    serialise,
)
from sgf_grove.info import GameInfo, Player, Result

__all__ = [
    "SYMMETRIES",
    "Board",
    "Filter",
    "Rejected",
    "Scan",
    "ScanReport",
    "Tables",
    "arrow_batches",
    "scan",
    "to_arrow",
    "to_parquet",
    "Collection",
    "Cursor",
    "Game",
    "GameInfo",
    "IllegalMove",
    "Node",
    "ParseWarning",
    "Player",
    "Result",
    "Samples",
    "SgfError",
    "__version__",
    "parse",
    "read",
    "samples",
    "serialise",
]
