"""Memory of a scan over a multi-gigabyte input stays bounded.

A .tar.gz holding 2.2 GB of games is generated on the fly (streamed to
disk, never held), then scanned in a child process on two workers, and
the child's peak resident memory is read at its end. The archive is
written without compressing 2.2 GB: a gzip file may be several gzip
members one after the other (as `pigz` and `cat a.gz b.gz` make them),
and decompresses to their contents joined; the run of blocks that
repeats is compressed once and written as often as it repeats. Runs when CI is set
or SGF_GROVE_BIG=1 (about a minute on two cores).

The peak is the child's VmHWM (/proc/self/status): the high-water mark of
its own address space. resource.getrusage's ru_maxrss would do on its
own, but Linux carries the parent's resident size at the fork into a
child's ru_maxrss across exec, so a child of a large pytest process
would report the parent's size."""

import gzip
import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from conftest import game

BIG = bool(os.environ.get("CI") or os.environ.get("SGF_GROVE_BIG"))
MEMBER_BYTES = 1_100_000_000
MEMBERS = 2
LIMIT_MB = 300


class Blocks:
    """A file-like stream of `count` blocks of games; every `every`-th
    block starts with a game played by `Needle`."""

    def __init__(self, count: int, every: int):
        plain = "\n".join(game(i, moves=60) for i in range(500)) + "\n"
        marked = game(0, moves=60, player="Needle") + "\n" + plain.split("\n", 1)[1]
        self.plain, self.marked = plain.encode(), marked.encode()
        self.count, self.every = count, every
        self.block, self.pos = 0, 0

    def size(self) -> int:
        marked = (self.count + self.every - 1) // self.every
        return marked * len(self.marked) + (self.count - marked) * len(self.plain)

    def needles(self) -> int:
        return (self.count + self.every - 1) // self.every

    def read(self, n: int = -1) -> bytes:
        out = []
        while (n < 0 or n > 0) and self.block < self.count:
            data = self.marked if self.block % self.every == 0 else self.plain
            piece = data[self.pos :] if n < 0 else data[self.pos : self.pos + n]
            out.append(piece)
            self.pos += len(piece)
            if n > 0:
                n -= len(piece)
            if self.pos == len(data):
                self.block, self.pos = self.block + 1, 0
        return b"".join(out)


def write_archive(path: Path) -> tuple:
    """Writes the tar.gz of `MEMBERS` members of `Blocks` (the bytes
    `tarfile` writes for them) as gzip members: each tar header, the run
    of `every` blocks that starts with a marked one compressed once and
    written as often as it repeats, the blocks left and the padding, the
    archive's end. Returns the games played by `Needle` and all games."""
    needles = games = offset = 0

    def member(out, data: bytes) -> None:
        nonlocal offset
        out.write(gzip.compress(data, compresslevel=1))
        offset += len(data)

    with open(path, "wb") as out:
        for m in range(MEMBERS):
            probe = Blocks(1, 1)
            blocks = Blocks(MEMBER_BYTES // len(probe.plain), 200)
            info = tarfile.TarInfo(f"games/{m}.sgf")
            info.size = blocks.size()
            member(out, info.tobuf(tarfile.DEFAULT_FORMAT, tarfile.ENCODING, "surrogateescape"))
            runs, rest = divmod(blocks.count, blocks.every)
            run = blocks.marked + blocks.plain * (blocks.every - 1)
            packed = gzip.compress(run, compresslevel=1)
            for _ in range(runs):
                out.write(packed)
            offset += runs * len(run)
            left = b"".join(blocks.plain if k else blocks.marked for k in range(rest))
            member(out, left + bytes(-info.size % tarfile.BLOCKSIZE))
            needles += blocks.needles()
            games += blocks.count * 500
        # The end: two zero blocks, then zeros to a whole record.
        end = 2 * tarfile.BLOCKSIZE
        member(out, bytes(end + -(offset + end) % tarfile.RECORDSIZE))
    return needles, games


CHILD = r"""
import json, resource, sys
import sgf_grove
games = sgf_grove.scan(sys.argv[1], workers=2, select={"player": "needle"})
found = sum(1 for _ in games)
rows = sum(b.num_rows for b in sgf_grove.arrow_batches(sys.argv[1], "games", workers=2))
r = games.report
hwm = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(json.dumps({"found": found, "rejected": r.rejected, "rows": rows, "peak_mb": hwm / 1024,
                  "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


@pytest.mark.skipif(not BIG, reason="a multi-gigabyte input: runs when CI or SGF_GROVE_BIG is set")
def test_scan_of_a_multi_gigabyte_archive_stays_small(tmp_path: Path):
    path = tmp_path / "big.tar.gz"
    needles, total = write_archive(path)
    assert MEMBERS * MEMBER_BYTES > 2_000_000_000
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, check=True
    )
    result = json.loads(out.stdout)
    assert result["found"] == needles
    assert result["rejected"] == {"player": total - needles}
    assert result["rows"] == total
    assert result["peak_mb"] < LIMIT_MB, result
    print(f"\n{total} games, peak RSS {result['peak_mb']:.0f} MB", file=sys.stderr)
