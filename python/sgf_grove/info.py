"""Game information: players, result, komi, handicap, date, rules.

:attr:`sgf_grove.Game.info` builds a :class:`GameInfo` from the game's root
node, read with sgf-grove's lenient parsers (Fox's ``KM[650]`` is a komi of
6.5, ``RE[W+Time Over]`` a win on time, ``BR[P9段]`` a 9p rank). Every text
is as written (decoded, trimmed); the parsed forms sit beside it.

>>> import sgf_grove
>>> info = sgf_grove.parse(
...     b"(;GM[1]SZ[19]PB[Lee Sedol]BR[9p]PW[AlphaGo]KM[7.5]RE[W+R]DT[2016-03-09]RU[Chinese])"
... )[0].info
>>> info.black.name, info.black.rank, info.white.name, info.komi
('Lee Sedol', '9p', 'AlphaGo', 7.5)
>>> info.result.winner, info.result.kind, info.result.margin
('W', 'resignation', None)
>>> info.dates, info.rules, info.size
([(2016, 3, 9)], 'Chinese', (19, 19))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Tuple

__all__ = ["GameInfo", "Player", "Result"]


@dataclass(frozen=True)
class Player:
    """One side: name (``PB``/``PW``), rank (``BR``/``WR``), team (``BT``/``WT``).

    ``rank`` is as written; ``rank_normalised`` is the rank read leniently
    and written the usual way (``"9p"``, ``"5d"``, ``"12k"``, a rating such
    as ``"1500?"``, ``"NR"``), ``None`` when the text is no known form.

    >>> from sgf_grove import Player
    >>> Player(name="Cho", rank="9 dan").name
    'Cho'
    """

    name: Optional[str] = None
    rank: Optional[str] = None
    rank_normalised: Optional[str] = None
    team: Optional[str] = None


@dataclass(frozen=True)
class Result:
    """The result (``RE``).

    - ``winner``: ``"B"``, ``"W"``, or ``None`` (a draw, no result, unknown);
    - ``margin``: the points for a win by points, else ``None``;
    - ``kind``: ``"points"``, ``"resignation"``, ``"time"``, ``"forfeit"``,
      ``"unspecified"`` (``B+``), ``"other"`` (``B+Illegal``), ``"draw"``,
      ``"void"``, ``"unknown"`` (``?``), or ``"unparsed"``;
    - ``text``: as written; ``normalised``: the FF[4] spelling (``"W+R"``,
      ``"B+3.5"``, ``"0"``, ``"Void"``, ``"?"``; the text when unparsed).

    >>> import sgf_grove
    >>> r = sgf_grove.parse("(;RE[黑中盘胜])")[0].info.result
    >>> r.winner, r.kind, r.normalised
    ('B', 'resignation', 'B+R')
    """

    winner: Optional[str]
    margin: Optional[float]
    kind: str
    text: str
    normalised: str


@dataclass(frozen=True)
class GameInfo:
    """The game information of one game (its root node's properties).

    ``komi`` is in points, Fox's scaled values (``KM[650]``, ``KM[375]``)
    read as 6.5 and 7.5; ``komi_text`` is ``KM`` as written. ``handicap``
    is the number of stones (``HA``). ``dates`` lists the dates ``DT``
    names as ``(year, month, day)`` with ``None`` for a part it lacks;
    ``date`` is ``DT`` as written. ``rules`` is ``RU`` as written,
    ``rules_name`` its usual spelling (``"Japanese"``, ``"Chinese"``,
    ``"AGA"``, ``"NZ"``, ...). ``time_limit`` is ``TM`` in seconds. The
    other fields are the texts of ``EV``, ``RO``, ``PC``, ``GN``, ``GC``,
    ``AP``, ``OT``, ``CP``, ``AN``, ``SO``, ``US``, ``ON``; any field is
    ``None`` when the game lacks it.
    """

    black: Player = field(default_factory=Player)
    white: Player = field(default_factory=Player)
    komi: Optional[float] = None
    komi_text: Optional[str] = None
    handicap: Optional[int] = None
    handicap_text: Optional[str] = None
    result: Optional[Result] = None
    date: Optional[str] = None
    dates: List[Tuple[int, Optional[int], Optional[int]]] = field(default_factory=list)
    rules: Optional[str] = None
    rules_name: Optional[str] = None
    size: Tuple[int, int] = (19, 19)
    time_limit: Optional[float] = None
    overtime: Optional[str] = None
    event: Optional[str] = None
    round: Optional[str] = None
    place: Optional[str] = None
    game_name: Optional[str] = None
    game_comment: Optional[str] = None
    application: Optional[str] = None
    copyright: Optional[str] = None
    annotator: Optional[str] = None
    source: Optional[str] = None
    user: Optional[str] = None
    opening: Optional[str] = None

    def player(self, colour: str) -> Player:
        """The player of ``colour`` (``"B"`` or ``"W"``, any case).

        >>> from sgf_grove import GameInfo, Player
        >>> GameInfo(black=Player(name="Lee")).player("b").name
        'Lee'
        """
        c = colour.upper()
        if c == "B":
            return self.black
        if c == "W":
            return self.white
        raise ValueError(f"colour must be 'B' or 'W', not {colour!r}")
