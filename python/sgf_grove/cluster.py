"""Scans beyond one machine, on Dask distributed: one Parquet dataset
written by many workers.

The work is cut by :func:`plan` into :class:`Shard` objects (plain,
picklable data): contiguous ranges of the sorted sources (a folder's
files, balanced by size) and, for an archive larger than a shard's
share, its members dealt out among several shards. :func:`export_shard`
writes one shard as ``games/part-NNNNN.parquet`` and
``moves/part-NNNNN.parquet`` in an output folder; any engine that can
call a Python function on a worker can run it. :func:`distributed_export`
does it with a ``dask.distributed.Client``:

>>> from dask.distributed import Client, LocalCluster          # doctest: +SKIP
>>> with LocalCluster(n_workers=4) as cluster, Client(cluster) as client:  # doctest: +SKIP
...     summary = sgf_grove.cluster.distributed_export(["kgs.tar.gz", "games/"], "out", client)

The dataset reads as one table:
``duckdb.sql("select count(*) from 'out/games/*.parquet'")`` or
``pyarrow.dataset.dataset("out/games")``.

Why Dask: it installs from PyPI alone (``pip install "dask[distributed]"``,
pure Python), a ``LocalCluster`` starts in a few seconds (so the tests
run a real cluster in CI), it maps a Python function over a list of
arguments and gathers the results, which is all this needs, and it
scales from one machine's processes to a cluster's. PySpark needs a Java
runtime and Ray a runtime of its own (a large wheel, a head node and
object store); both would call the same per-shard function:

- Ray Data: ``ray.data.from_items([{"shard": s, "part": i} for i, s in
  enumerate(plan(paths, n))]).map(lambda r: export_shard(r["shard"],
  out, r["part"]))``, or ``ray.get([ray.remote(export_shard).remote(s,
  out, i) ...])``;
- PySpark: ``sc.parallelize(list(enumerate(plan(paths, n))),
  n).map(lambda p: export_shard(p[1], out, p[0])).collect()``.

The paths must be readable by every worker under the same names (a
shared file system), and so must ``out_dir`` be writable.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from sgf_grove import _native
from sgf_grove._dataset import write_dataset

PathLike = Union[str, "os.PathLike[str]"]

#: Game ids of part ``p`` are ``p * PART_IDS + n``, ``n`` counting the
#: part's games from 0: unique across parts (up to 2**40 games a part,
#: 2**23 parts), not dense.
PART_IDS = 1 << 40

_ARCHIVE = re.compile(
    r"\.(zip|7z|tar|tgz|tbz2?|txz|tzst|tar\.(gz|bz2|xz|zst|zstd))$", re.IGNORECASE
)


@dataclass(frozen=True)
class Shard:
    """One piece of a scan: the sources numbered ``sources[0]`` up to
    (not including) ``sources[1]`` of a scan of ``paths`` (in its sorted
    order) and, when ``members`` is ``(k, n)``, only the ``k``-th of every
    ``n`` SGF members of that one source (an archive dealt out among
    ``n`` shards). ``size`` is the bytes of its sources (the whole archive
    for a member shard), for balancing.

    The cost of a member shard: zip and 7z members are read on their
    own, so a shard decompresses only its members (and the first bytes of
    the others); a tar stream (``.tar.gz``, ``.tar.xz`` …) can only be
    read from its start, so every shard of it reads and decompresses the
    whole stream and parses only its own members.
    """

    paths: Tuple[str, ...]
    sources: Tuple[int, int]
    members: Optional[Tuple[int, int]] = None
    size: int = 0
    names_only: bool = False

    def scan_kwargs(self) -> Dict[str, Any]:
        """The keyword arguments that make a scan read this shard."""
        return {
            "sources": self.sources,
            "members": self.members,
            "names_only": self.names_only,
        }


def _as_paths(paths: Union[PathLike, Iterable[PathLike]]) -> Tuple[str, ...]:
    if isinstance(paths, (str, os.PathLike)):
        return (os.fspath(paths),)
    return tuple(os.fspath(p) for p in paths)


def plan(
    paths: Union[PathLike, Iterable[PathLike]],
    parts: int,
    *,
    names_only: bool = False,
) -> List[Shard]:
    """Cuts a scan of ``paths`` into about ``parts`` shards of similar
    size. Sources are taken in the scan's order and cut into contiguous
    ranges; an archive larger than a shard's share is dealt out by member
    among as many shards as its size is worth (at most ``parts``). Every
    game of the scan is in exactly one shard.

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> for i in range(6):
    ...     _ = open(os.path.join(d, f"{i}.sgf"), "w").write("(;GM[1];B[aa])")
    >>> from sgf_grove.cluster import plan
    >>> [s.sources for s in plan(d, 3)]
    [(0, 2), (2, 4), (4, 6)]
    """
    if parts < 1:
        raise ValueError("parts must be at least 1")
    paths = _as_paths(paths)
    sources = _native.sources(paths, names_only=names_only)
    sizes = [size or 0 for _, size in sources]
    target = max(1, sum(sizes) // parts)
    shards: List[Shard] = []
    start = 0
    held = 0

    def cut(end: int) -> None:
        nonlocal start, held
        if end > start:
            shards.append(Shard(paths, (start, end), None, held, names_only))
        start, held = end, 0

    for i, ((name, _), size) in enumerate(zip(sources, sizes)):
        if size > target and _ARCHIVE.search(name):
            cut(i)
            n = min(parts, max(1, round(size / target)))
            for k in range(n):
                members = (k, n) if n > 1 else None
                shards.append(Shard(paths, (i, i + 1), members, size, names_only))
            start = i + 1
            continue
        held += size
        if held >= target:
            cut(i + 1)
    cut(len(sources))
    if not shards:
        # Nothing to read: one shard still reports the empty input.
        shards.append(Shard(paths, (0, 0), None, 0, names_only))
    return shards


def part_paths(out_dir: PathLike, part: int) -> Tuple[str, str]:
    """The games and moves files of part ``part`` in ``out_dir``."""
    out = os.fspath(out_dir)
    name = f"part-{part:05d}.parquet"
    return os.path.join(out, "games", name), os.path.join(out, "moves", name)


def export_shard(
    shard: Shard,
    out_dir: PathLike,
    part: int,
    *,
    moves: bool = True,
    select: Any = None,
    workers: int = 1,
    strict: bool = False,
    charset: Optional[str] = None,
) -> Dict[str, Any]:
    """Writes shard ``shard`` as part ``part`` of the dataset in
    ``out_dir``: ``games/part-NNNNN.parquet`` and (with ``moves``)
    ``moves/part-NNNNN.parquet``, the columns of ``sgf export``, game ids
    from ``part * PART_IDS``. Runs in a worker (any engine); returns a
    plain dict (picklable): ``part``, ``games``, ``rejected`` (by reason),
    ``errors`` (``[source, reason, message]`` lists) and ``skipped``.

    A part is written to a temporary name and renamed when complete, so
    a dataset never shows half a part, and a part run twice (a retried
    task) leaves one copy. Parts of another export already in ``out_dir``
    are not looked at: :func:`distributed_export` writes into a fresh
    folder and refuses (or replaces whole) an existing dataset.
    """
    games_path, moves_path = part_paths(out_dir, part)
    os.makedirs(os.path.dirname(games_path), exist_ok=True)
    if moves:
        os.makedirs(os.path.dirname(moves_path), exist_ok=True)
    tmp = f".tmp-{os.getpid()}"
    report = _native.export_parquet(
        shard.paths,
        games_path + tmp,
        moves_path + tmp if moves else None,
        workers,
        select,
        strict=strict,
        charset=charset,
        id_base=part * PART_IDS,
        **shard.scan_kwargs(),
    )
    if moves:
        os.replace(moves_path + tmp, moves_path)
    os.replace(games_path + tmp, games_path)
    out = report.to_dict()
    out["part"] = part
    return out


def merge_reports(reports: Sequence[Dict[str, Any]]) -> Dict[str, Any]:
    """The reports of many parts added up: ``games``, ``rejected`` and
    ``skipped`` summed, ``errors`` joined in part order, ``parts``
    counted."""
    total: Dict[str, Any] = {"parts": 0, "games": 0, "rejected": {}, "skipped": {}, "errors": []}
    for r in sorted(reports, key=lambda r: r.get("part", 0)):
        total["parts"] += 1
        total["games"] += r["games"]
        for key in ("rejected", "skipped"):
            for reason, n in r[key].items():
                total[key][reason] = total[key].get(reason, 0) + n
        total["errors"].extend(r["errors"])
    return total


def distributed_export(
    paths: Union[PathLike, Iterable[PathLike]],
    out_dir: PathLike,
    client: Any,
    *,
    parts: Optional[int] = None,
    moves: bool = True,
    select: Any = None,
    strict: bool = False,
    charset: Optional[str] = None,
    names_only: bool = False,
    overwrite: bool = False,
) -> Dict[str, Any]:
    """Exports every game under ``paths`` as one Parquet dataset in
    ``out_dir`` (``games/part-*.parquet``, ``moves/part-*.parquet``),
    the shards run on the workers of ``client`` (a
    ``dask.distributed.Client``). ``parts`` defaults to four per worker
    thread. Returns the merged report (see :func:`merge_reports`) with
    the list of ``files`` written.

    The dataset holds exactly the games and moves of
    ``sgf_grove.to_parquet(paths, …)`` (with other ids: part ``p``'s are
    ``p * PART_IDS + n``; ``(source, game)`` names a game in both).

    An ``out_dir`` that already holds files (an earlier export) is
    refused with ``FileExistsError``, as its parts would be read with the
    new ones; with ``overwrite=True`` it is replaced whole: the parts are
    written into a temporary sibling folder that takes its place at the
    end, so readers see the old dataset or the new one, never a mix. The
    workers must see the same file system as the caller.
    """
    if parts is None:
        threads = sum(client.nthreads().values()) or 1
        parts = 4 * threads
    shards = plan(paths, parts, names_only=names_only)

    def write(folder: str) -> List[Dict[str, Any]]:
        futures = [
            client.submit(
                export_shard,
                shard,
                folder,
                part,
                moves=moves,
                select=select,
                strict=strict,
                charset=charset,
                pure=False,
            )
            for part, shard in enumerate(shards)
        ]
        return client.gather(futures)

    reports = write_dataset(out_dir, overwrite, write)
    summary = merge_reports(reports)
    files = []
    for part in range(len(shards)):
        games_path, moves_path = part_paths(out_dir, part)
        files.append(games_path)
        if moves:
            files.append(moves_path)
    summary["files"] = files
    return summary


__all__ = [
    "PART_IDS",
    "Shard",
    "distributed_export",
    "export_shard",
    "merge_reports",
    "part_paths",
    "plan",
]
