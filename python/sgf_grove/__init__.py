"""sgf_grove: fast, forgiving SGF (Go game record) reading, writing and replay.

>>> import sgf_grove
>>> game = sgf_grove.parse(b"(;GM[1]SZ[19]PB[Lee]PW[Cho]KM[6.5]RE[W+R];B[pd];W[dd])")[0]
>>> [node.move for node in game.main_line()[1:]]
[('B', (15, 3)), ('W', (3, 3))]

Points are ``(x, y)``: the column and the row from the top-left corner,
counted from 0, as the two letters of an SGF point say (``"pd"`` is
``(15, 3)``); a pass is ``None``. ``sgf_grove.sgfmill`` offers the part of
sgfmill's API that scripts use most, in sgfmill's conventions.
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
from sgf_grove._native import (
    Collection,
    Game,
    Node,
    ParseWarning,
    SgfError,
    __version__,
    parse,
    read,
)

__all__ = [
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
    "Game",
    "Node",
    "ParseWarning",
    "SgfError",
    "__version__",
    "parse",
    "read",
]
