"""Scans over every input kind, on Rust threads: ``scan``, ``to_arrow``,
``to_parquet``, ``arrow_batches`` and ``Filter``.

Every function here reads folders (recursively, in sorted order), SGF
collections, ``.sgfs`` files (one game per line), tar, zip and 7z
archives, and gzip, bzip2, xz and zstd data, told by their first bytes,
nested as archives nest. Parsing runs on ``workers`` Rust threads (all
cores by default) without the GIL, and the results come in the order of
a one-thread scan, whatever ``workers`` is.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Iterable, Mapping, NamedTuple, Optional, Tuple, Union

from sgf_grove import _native
from sgf_grove._dataset import write_dataset
from sgf_grove._native import ArrowStream, Rejected, Scan, ScanReport

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow

PathLike = Union[str, "os.PathLike[str]"]
Paths = Union[PathLike, Iterable[PathLike]]

#: The names ``select`` takes, in the order they are tried; a game left
#: out is reported under the first it fails.
FILTERS = (
    "size",
    "handicap",
    "komi",
    "rank",
    "date",
    "player",
    "result",
    "moves",
    "rules",
    "event",
    "has",
    "lacks",
    "rated",
    "bots",
    "server",
    "main_time",
)


class Filter:
    """Which games a scan keeps: the library's filters (those of
    ``sgf select``), combined with AND. Pass it, or a plain dict of the
    same keywords, as ``select``.

    ========== ========================================== ==============================
    name       value                                      a game passes when
    ========== ========================================== ==============================
    size       ``19``, ``"19x13"``, ``[9, 13, 19]``       its board is one of them
    handicap   ``(2, 9)``, ``0``, ``(None, 1)``           its handicap (none: 0) is within
    komi       ``(6.5, 7.5)`` (in points: Fox's 650 is 6.5) its komi is within
    rank       ``("5d", "9d")``, ``("10k", "1k")``        both players' ranks are within
    date       ``("2010", "2015")``, ``datetime.date``     its first date lies within
    player     ``"lee"``                                  a player's name holds it (any case)
    result     ``"B+R"``, ``"W+"``, ``["draw", "B+T"]``   its result is one of them
    moves      ``(50, None)``, ``(100, 300)``             its main-line move count is within
    rules      ``"japanese"``, ``["chinese", "korean"]``  its rules are one of them
    event      ``"meijin"``                               its event holds it (any case)
    has        ``"LB"``, ``["LB", "C"]``                  some node holds each property
    lacks      ``"C"``, ``["C", "LB"]``                   no node holds any of them
    rated      ``True``, ``False``                        it says it was rated (or not)
    bots       ``"none"``, ``"any"``, ``"both"``          no player, one, both are bots
    server     ``"kgs"``, ``["fox", "ogs"]``              it comes from one of them
    main_time  ``(600, None)`` (seconds)                  its main time is within
    ========== ========================================== ==============================

    A pair ``(low, high)`` is an inclusive range (``None`` leaves a side
    open); a list is "any of"; text is read as ``sgf select`` reads it
    (``"6.5..7.5"`` works too).

    >>> import sgf_grove
    >>> f = sgf_grove.Filter(size=19, komi=(6.5, 7.5), rank=("5d", None))
    >>> f.to_dict()
    {'size': 19, 'komi': (6.5, 7.5), 'rank': ('5d', None)}
    >>> sgf_grove.Filter(colour="B")
    Traceback (most recent call last):
    ...
    ValueError: no filter 'colour'; the filters are size, handicap, komi, rank, date, player, result, moves, rules, event, has, lacks, rated, bots, server, main_time
    """

    __slots__ = ("_filters",)

    def __init__(self, **filters: Any) -> None:
        for name in filters:
            if name not in FILTERS:
                raise ValueError(f"no filter {name!r}; the filters are {', '.join(FILTERS)}")
        self._filters = {k: v for k, v in filters.items() if v is not None}

    def to_dict(self) -> dict:
        """The filters as the keyword dict ``select`` also takes."""
        return dict(self._filters)

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._filters.items())
        return f"Filter({args})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Filter) and other._filters == self._filters


Select = Union[Filter, Mapping[str, Any], None]


def scan(
    paths: Paths,
    workers: Optional[int] = None,
    select: Select = None,
    *,
    rejected: bool = False,
    strict: bool = False,
    charset: Optional[str] = None,
    names_only: bool = False,
    sources: Optional[Tuple[int, int]] = None,
    members: Optional[Tuple[int, int]] = None,
) -> Scan:
    """The games under ``paths``, one ``Game`` at a time, parsed on
    ``workers`` Rust threads (default: one per core) while Python works
    on the games already read.

    ``paths`` is a path or a list of them: folders, files, archives.
    ``select`` keeps only the games that pass a :class:`Filter` (or a
    dict of its keywords). Games left out and inputs that fail are not
    raised: they are counted by reason in ``.report`` (a
    :class:`ScanReport`, live), and with ``rejected=True`` they also come
    in the iteration, in their place, as :class:`Rejected` items.
    ``strict`` refuses every defect the lenient parser forgives (a game
    with one is rejected with reason ``"parse"``, and its member ends
    there); ``charset`` reads every game's text in that charset, whatever
    its ``CA`` says; ``names_only`` takes files in folders and archives by
    their ``.sgf``/``.sgfs`` names only. ``sources=(start, end)`` reads
    only the sources numbered so in the scan's sorted order, and
    ``members=(k, n)`` only the ``k``-th of every ``n`` members of each
    source: a cluster's share (:class:`sgf_grove.cluster.Shard`, whose
    ``scan_kwargs()`` gives them). Every function below takes the same
    keywords.

    The order is that of a one-thread scan (sources sorted by path, then
    each archive's members in its order), whatever ``workers`` is.
    Memory stays bounded: a few hundred games wait for Python at most.
    Leaving the loop early, ``close()``, a ``with`` block's end or
    dropping the iterator stops the Rust threads.

    >>> import sgf_grove, tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> _ = open(os.path.join(d, "a.sgf"), "w").write("(;PB[Lee]SZ[19];B[pd])(;SZ[9];B[ee])")
    >>> with sgf_grove.scan(d, workers=2, select={"size": 19}) as games:
    ...     for game in games:
    ...         print(game.origin.endswith("a.sgf"), game.index)
    True 0
    >>> games.report.rejected
    {'size': 1}
    """
    return _native.scan(
        paths,
        workers,
        select,
        rejected=rejected,
        strict=strict,
        charset=charset,
        names_only=names_only,
        sources=sources,
        members=members,
    )


class Tables(NamedTuple):
    """What :func:`to_arrow` returns: the games table, the moves table
    (``None`` when not asked for) and the scan's report."""

    games: "pyarrow.Table"
    moves: Optional["pyarrow.Table"]
    report: ScanReport


def _read_stream(stream: ArrowStream) -> "pyarrow.RecordBatchReader":
    import pyarrow as pa

    from_stream = getattr(pa.RecordBatchReader, "from_stream", None)
    if from_stream is not None:
        return from_stream(stream)
    return pa.RecordBatchReader._import_from_c_capsule(stream.__arrow_c_stream__())


def to_arrow(
    paths: Paths,
    moves: bool = True,
    workers: Optional[int] = None,
    select: Select = None,
    *,
    strict: bool = False,
    charset: Optional[str] = None,
    names_only: bool = False,
    sources: Optional[Tuple[int, int]] = None,
    members: Optional[Tuple[int, int]] = None,
) -> Tables:
    """The games table and (with ``moves``) the moves table of every game
    under ``paths`` as ``pyarrow.Table`` objects: the columns of
    ``sgf export --format parquet`` (the library's ``table::COLUMNS`` and
    ``table::MOVE_COLUMNS``), ids numbered from 0 in input order, the
    moves table referring to the games by ``game_id``. The tables are
    built in Rust and handed over through the Arrow C stream interface:
    no Python object per row. Both tables are held in memory; for inputs
    larger than memory, see :func:`to_parquet` or :func:`arrow_batches`.

    >>> import sgf_grove, tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> _ = open(os.path.join(d, "a.sgf"), "w").write("(;SZ[19]KM[6.5];B[pd];W[])(;SZ[9];B[ee])")
    >>> games, moves, report = sgf_grove.to_arrow(d)
    >>> games.column("board_cols").to_pylist(), moves.column("x").to_pylist()
    ([19, 9], [15, None, 4])
    >>> moves.column("game_id").to_pylist(), report.games
    ([0, 0, 1], 2)
    """
    games, move_stream, report = _native.tables(
        paths,
        moves,
        workers,
        select,
        strict=strict,
        charset=charset,
        names_only=names_only,
        sources=sources,
        members=members,
    )
    return Tables(
        _read_stream(games).read_all(),
        _read_stream(move_stream).read_all() if move_stream is not None else None,
        report,
    )


def arrow_batches(
    paths: Paths,
    table: str = "games",
    workers: Optional[int] = None,
    select: Select = None,
    *,
    batch_rows: int = 65_536,
    strict: bool = False,
    charset: Optional[str] = None,
    names_only: bool = False,
    sources: Optional[Tuple[int, int]] = None,
    members: Optional[Tuple[int, int]] = None,
) -> "pyarrow.RecordBatchReader":
    """One table (``"games"`` or ``"moves"``) of every game under
    ``paths`` as a ``pyarrow.RecordBatchReader`` read while the scan goes
    on, in batches of ``batch_rows`` rows: memory stays that of a few
    batches whatever the inputs' size. Closing or dropping the reader
    stops the scan.

    >>> import sgf_grove, tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> _ = open(os.path.join(d, "a.sgf"), "w").write("(;SZ[19];B[pd];W[dd])(;SZ[9];B[ee])")
    >>> reader = sgf_grove.arrow_batches(d, "moves", batch_rows=2)
    >>> [batch.num_rows for batch in reader]
    [2, 1]
    """
    stream = _native.batches(
        paths,
        table,
        workers,
        select,
        batch_rows=batch_rows,
        strict=strict,
        charset=charset,
        names_only=names_only,
        sources=sources,
        members=members,
    )
    return _read_stream(stream)


def to_parquet(
    paths: Paths,
    out_dir: PathLike,
    moves: bool = True,
    workers: Optional[int] = None,
    select: Select = None,
    *,
    strict: bool = False,
    charset: Optional[str] = None,
    names_only: bool = False,
    sources: Optional[Tuple[int, int]] = None,
    members: Optional[Tuple[int, int]] = None,
    overwrite: bool = False,
) -> ScanReport:
    """Writes ``out_dir/games.parquet`` and (with ``moves``)
    ``out_dir/moves.parquet`` as ``sgf export --format parquet --out
    out_dir`` does: the same columns, encodings and ids. The rows are
    written as the scan goes, with the GIL released; memory stays that of
    a row group. Returns the scan's report.

    ``out_dir`` is written whole: into a temporary sibling folder renamed
    into place at the end. An ``out_dir`` that already holds files is
    refused (``FileExistsError``) unless ``overwrite=True``, which
    replaces it whole.

    >>> import sgf_grove, tempfile, os
    >>> d, out = tempfile.mkdtemp(), tempfile.mkdtemp()
    >>> _ = open(os.path.join(d, "a.sgf"), "w").write("(;SZ[19];B[pd];W[dd])")
    >>> sgf_grove.to_parquet(d, out).games
    1
    >>> sorted(os.listdir(out))
    ['games.parquet', 'moves.parquet']
    """
    def write(out: str) -> ScanReport:
        return _native.export_parquet(
            paths,
            os.path.join(out, "games.parquet"),
            os.path.join(out, "moves.parquet") if moves else None,
            workers,
            select,
            strict=strict,
            charset=charset,
            names_only=names_only,
            sources=sources,
            members=members,
        )

    return write_dataset(out_dir, overwrite, write)


__all__ = [
    "FILTERS",
    "Filter",
    "Rejected",
    "Scan",
    "ScanReport",
    "Tables",
    "arrow_batches",
    "scan",
    "to_arrow",
    "to_parquet",
]
