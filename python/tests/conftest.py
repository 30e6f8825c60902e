"""Shared fixtures: the real corpus (skipped with a reason when absent,
a failure when CI is set), generated inputs of every kind, and the
release `sgf` binary for comparisons with `sgf export`."""

import gzip
import io
import os
import shutil
import subprocess
import tarfile
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("SGF_GROVE_CORPUS", REPO.parent / "shared" / "corpus"))


def in_ci() -> bool:
    return bool(os.environ.get("CI"))


def need(condition: bool, reason: str) -> None:
    """Skips with `reason` (printed by pytest -rs), or fails when CI is set."""
    if condition:
        return
    if in_ci():
        pytest.fail(f"{reason} (CI is set: this must run)")
    pytest.skip(reason)


def corpus_files(step: int = 1) -> list:
    """Every `step`-th .sgf file of the real corpus (env SGF_GROVE_CORPUS,
    else ../shared/corpus), sorted; skips with the reason printed, or
    fails under CI, when it is absent."""
    need(CORPUS.is_dir(), f"the real corpus is not at {CORPUS} (set SGF_GROVE_CORPUS)")
    files = sorted(p for p in CORPUS.rglob("*") if p.suffix.lower() == ".sgf")
    return files[::step]


@pytest.fixture(scope="session")
def corpus() -> Path:
    need(CORPUS.is_dir(), f"the real corpus is absent: {CORPUS}")
    return CORPUS


def game(i: int, size: int = 19, moves: int = 6, player: str = "") -> str:
    """A small game numbered `i`: players, komi, result and `moves` moves."""
    letters = "abcdefghijklmnopqrs"[:size]
    body = "".join(
        f";{'BW'[k % 2]}[{letters[(i + 3 * k) % size]}{letters[(2 * i + k) % size]}]"
        for k in range(moves)
    )
    name = player or f"Black{i}"
    return f"(;GM[1]FF[4]SZ[{size}]PB[{name}]PW[White{i}]KM[6.5]RE[B+R]DT[2020-01-{1 + i % 28:02d}]{body})"


@pytest.fixture()
def kinds(tmp_path: Path) -> dict:
    """One input of each kind, generated: a folder of files, a collection
    with a broken game in the middle, an .sgfs file with a bad line, a
    .tar.gz, a .zip, and gzip, bzip2, xz files. Returns name → path, and
    `expected` → name → the number of games each holds."""
    import bz2
    import lzma

    made = {}
    folder = tmp_path / "folder"
    (folder / "sub").mkdir(parents=True)
    for i in range(5):
        (folder / f"{i}.sgf").write_text(game(i))
    (folder / "sub" / "x.SGF").write_text(game(5, size=9))
    (folder / "notes.txt").write_text("not a game")
    made["folder"] = folder

    coll = tmp_path / "collection.sgf"
    coll.write_text(game(10) + "\n(;GM[1]PB[broken];B[aa]C[cut;W[bb]\n" + game(11) + "\n")
    made["collection"] = coll

    sgfs = tmp_path / "lines.sgfs"
    sgfs.write_text(game(20) + "\nnot a game\n" + game(21) + "\n" + game(22) + "\n")
    made["sgfs"] = sgfs

    tgz = tmp_path / "games.tar.gz"
    with tarfile.open(tgz, "w:gz") as tar:
        for i in range(30, 36):
            data = game(i).encode()
            info = tarfile.TarInfo(f"dir/{i}.sgf")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    made["tar.gz"] = tgz

    zpath = tmp_path / "games.zip"
    with zipfile.ZipFile(zpath, "w", zipfile.ZIP_DEFLATED) as z:
        for i in range(40, 44):
            z.writestr(f"z/{i}.sgf", game(i))
        z.writestr("readme.md", "# nothing")
    made["zip"] = zpath

    (tmp_path / "one.sgf.gz").write_bytes(gzip.compress(game(50).encode()))
    made["gz"] = tmp_path / "one.sgf.gz"
    (tmp_path / "one.sgf.bz2").write_bytes(bz2.compress(game(51).encode()))
    made["bz2"] = tmp_path / "one.sgf.bz2"
    (tmp_path / "one.sgf.xz").write_bytes(lzma.compress(game(52).encode()))
    made["xz"] = tmp_path / "one.sgf.xz"
    made["expected"] = {
        "folder": 6,
        "collection": 3,
        "sgfs": 3,
        "tar.gz": 6,
        "zip": 4,
        "gz": 1,
        "bz2": 1,
        "xz": 1,
    }
    return made


def sgf_binary() -> Path:
    """The release `sgf` binary (env SGF_BIN, or target/release/sgf of the
    repository, built by CI before the Python tests)."""
    path = Path(os.environ.get("SGF_BIN", REPO / "target" / "release" / "sgf"))
    need(path.is_file(), f"the release sgf binary is absent: {path} (cargo build --release --features cli)")
    return path


def sgf_export(inputs, out_dir: Path) -> None:
    """Runs `sgf export --format parquet` on `inputs` into `out_dir`."""
    args = [str(sgf_binary()), "export", "-q", "--format", "parquet", "--out", str(out_dir)]
    subprocess.run(args + [str(p) for p in inputs], check=False, capture_output=True)
    assert (out_dir / "games.parquet").is_file(), "sgf export wrote no games.parquet"


def threads() -> int:
    """This process's threads, as the kernel counts them."""
    return len(os.listdir("/proc/self/task"))
