"""Training samples: ``samples()``, every position of every main line as
feature planes with its targets, in shuffled batches of NumPy arrays.

The records are made in Rust (the library's ``samples`` module, the same
bytes ``sgf export --format samples`` writes into its shards) on every
core; Python receives each batch as one buffer and views it as arrays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, Iterator, List, Optional, Tuple, Union

from sgf_grove import _native
from sgf_grove._scan import Paths, Select

if TYPE_CHECKING:  # pragma: no cover
    import numpy

Board = Union[int, Tuple[int, int]]


class Samples:
    """An iterator over batches of training samples, made by
    :func:`samples`: each batch is a dict of NumPy arrays, one row a
    sample — ``features`` and every column of :attr:`columns`.

    ``plane_names`` names the planes of ``features`` in order;
    ``columns`` says what each other array holds. ``report`` (a
    :class:`sgf_grove.ScanReport`, live) counts the games that gave
    samples and, by reason, those that gave none: left out by ``select``,
    inputs that failed, ``"board"`` (another board size), ``"not_go"``
    (``GM`` other than 1), ``"no_moves"``.
    ``cut`` lists the games whose samples stop early at a move that
    breaks the rules or does not read (their earlier positions are kept).
    Leaving the loop early, ``close()`` or a ``with`` block's end stops
    the Rust threads.
    """

    __slots__ = ("_stream", "_layout", "_dtype", "_packed", "_np")

    def __init__(self, stream: "_native.SampleStream", packed: bool) -> None:
        import numpy

        self._np = numpy
        self._stream = stream
        self._layout = stream.layout
        self._packed = packed
        lay = self._layout
        names = ["features"] + [c[0] for c in lay["columns"]]
        formats = [(numpy.uint8, (lay["features_len"],))] + [numpy.dtype(c[1]) for c in lay["columns"]]
        offsets = [0] + [c[2] for c in lay["columns"]]
        self._dtype = numpy.dtype(
            {"names": names, "formats": formats, "offsets": offsets, "itemsize": lay["record_len"]}
        )

    @property
    def plane_names(self) -> List[str]:
        """The planes of ``features``, in order: ``own_0`` … (the player
        to move's stones, newest first), ``opponent_0`` …, then
        ``empty``, ``liberties_1``/``_2``/``_3``, ``ko`` when asked for,
        and ``black_to_play``."""
        return list(self._layout["plane_names"])

    @property
    def columns(self) -> Dict[str, str]:
        """The arrays besides ``features``, with what each holds."""
        return {c[0]: c[3] for c in self._layout["columns"]}

    @property
    def shape(self) -> Tuple[int, ...]:
        """The shape of one sample's ``features``: ``(planes, rows,
        columns)``, or ``(planes, plane bytes)`` when packed."""
        lay = self._layout
        if self._packed:
            return (lay["planes"], lay["plane_bytes"])
        return (lay["planes"], lay["rows"], lay["cols"])

    @property
    def report(self) -> "_native.ScanReport":
        """What the scan has read so far (see the class docs)."""
        return self._stream.report

    @property
    def cut(self) -> "List[_native.Rejected]":
        """The games whose samples end early (the first 1,000), as
        :class:`sgf_grove.Rejected` items with reason ``"illegal_move"``,
        ``"bad_move"`` or ``"replay_limit"``."""
        return self._stream.cut

    @property
    def cut_total(self) -> int:
        """All the games cut short, counted."""
        return self._stream.cut_total

    @property
    def samples_yielded(self) -> int:
        """Samples handed out so far."""
        return self._stream.samples_yielded

    def __iter__(self) -> Iterator[Dict[str, "numpy.ndarray"]]:
        return self

    def __next__(self) -> Dict[str, "numpy.ndarray"]:
        data, n = next(self._stream)
        return self._arrays(data, n)

    def _arrays(self, data: bytes, n: int) -> Dict[str, "numpy.ndarray"]:
        np = self._np
        lay = self._layout
        records = np.frombuffer(data, dtype=self._dtype, count=n)
        packed = records["features"].reshape(n, lay["planes"], lay["plane_bytes"])
        if self._packed:
            features = np.ascontiguousarray(packed)
        else:
            points = lay["rows"] * lay["cols"]
            features = np.unpackbits(packed, axis=2, count=points).reshape(n, lay["planes"], lay["rows"], lay["cols"])
        out = {"features": features}
        for c in lay["columns"]:
            out[c[0]] = np.ascontiguousarray(records[c[0]])
        return out

    def close(self) -> None:
        """Stops the scan and waits for its threads."""
        self._stream.close()

    def __enter__(self) -> "Samples":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def samples(
    paths: Paths,
    *,
    board: Board = 19,
    history: int = 8,
    planes: str = "none",
    augment: str = "none",
    seed: int = 0,
    batch_size: int = 4096,
    window: int = 65536,
    packed: bool = False,
    workers: Optional[int] = None,
    select: Select = None,
    strict: bool = False,
    charset: Optional[str] = None,
    names_only: bool = False,
    sources: Optional[Tuple[int, int]] = None,
    members: Optional[Tuple[int, int]] = None,
) -> Samples:
    """Training samples of every game under ``paths``: for each move of
    each main line, the position before it as feature planes, the move as
    the policy target and the result as the value target, in batches of
    ``batch_size`` samples (the last may be smaller), shuffled through a
    window of ``window`` samples. What ``sgf export --format samples``
    writes into its shards, as arrays in memory.

    Each batch is a dict of NumPy arrays: ``features``, ``uint8`` of shape
    ``(n, planes, rows, columns)``, 0 or 1 (with ``packed=True``: ``(n,
    planes, plane bytes)``, a bit a point as ``numpy.unpackbits(...,
    axis=2)`` reads it); ``policy`` (``y * columns + x``, a pass is
    ``rows * columns``), ``value`` (1 the player to move won, -1 lost, 0
    otherwise), ``has_value``, ``score`` (the counted margin, NaN
    unless counted), ``game`` (the id of the game in the games table of
    :func:`sgf_grove.to_arrow` called with the same ``paths`` and
    ``select``), ``ply``, ``to_play``, ``symmetry``, and the game's
    ``komi``, ``handicap``, ranks, ``rules`` and time control (see
    :attr:`Samples.columns`).

    ``board`` is the size kept (``19`` or ``(columns, rows)``; other
    games give none); ``history`` the positions of the stone planes
    (AlphaGo Zero's 8 by default, at most 16); ``planes`` adds extra
    planes (``"empty"``, ``"liberties"``, ``"ko"``, comma-separated, or
    ``"all"``); ``augment`` is ``"none"``, ``"all"`` (every sample in
    the 8 symmetries of the board) or ``"random"`` (one symmetry drawn per
    position). The same inputs, options and ``seed`` give the same
    batches whatever ``workers`` is. Memory: the window (about 54 MB for
    the defaults) and two batches. ``select`` and the scan keywords are
    those of :func:`sgf_grove.scan`. Needs NumPy.

    >>> import sgf_grove, tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> _ = open(os.path.join(d, "a.sgf"), "w").write("(;SZ[19]KM[6.5]RE[W+2.5];B[pd];W[dd];B[])")
    >>> batch = next(sgf_grove.samples(d, window=1))
    >>> batch["features"].shape, batch["policy"].tolist()
    ((3, 17, 19, 19), [72, 60, 361])
    >>> batch["value"].tolist(), batch["score"].tolist()
    ([-1, 1, -1], [-2.5, 2.5, -2.5])
    >>> int(batch["features"][1, 8, 3, 15])   # White to move: Black's pd is the opponent's
    1
    """
    import numpy  # noqa: F401  (needed for the batches: say so before the scan starts)

    stream = _native.sample_stream(
        paths,
        board,
        history,
        planes,
        augment,
        seed,
        batch_size,
        window,
        workers,
        select,
        strict=strict,
        charset=charset,
        names_only=names_only,
        sources=sources,
        members=members,
    )
    return Samples(stream, packed)


__all__ = ["Samples", "samples"]
