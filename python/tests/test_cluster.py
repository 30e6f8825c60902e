"""sgf_grove.cluster: shards that cover every game once, member shards of
archives, and a real Dask LocalCluster writing one Parquet dataset equal
to the single-process export."""

import io
import tarfile
import zipfile
from collections import Counter
from pathlib import Path

import duckdb
import pyarrow.dataset as ds
import pytest

import sgf_grove
from sgf_grove import cluster
from conftest import game


def scan_keys(paths, **kw):
    return [(g.origin, g.index) for g in sgf_grove.scan(paths, **kw)]


def archives(tmp_path: Path, members: int = 40):
    """A zip and a tar.gz of `members` games each, and a folder of files."""
    z = tmp_path / "big.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as out:
        for i in range(members):
            out.writestr(f"z/{i:03d}.sgf", game(i, moves=30))
    t = tmp_path / "big.tar.gz"
    with tarfile.open(t, "w:gz") as out:
        for i in range(members):
            data = game(100 + i, moves=30).encode()
            info = tarfile.TarInfo(f"t/{i:03d}.sgf")
            info.size = len(data)
            out.addfile(info, io.BytesIO(data))
    folder = tmp_path / "files"
    folder.mkdir()
    for i in range(12):
        (folder / f"{i:02d}.sgf").write_text(game(200 + i))
    return z, t, folder


@pytest.mark.parametrize("kind", ["zip", "tar.gz"])
def test_member_shards_partition_an_archive(tmp_path, kind):
    z, t, _ = archives(tmp_path)
    path = z if kind == "zip" else t
    whole = scan_keys(path)
    parts = [scan_keys(path, **dict(sources=(0, 1), members=(k, 3))) for k in range(3)]
    assert sorted(sum(parts, [])) == sorted(whole)
    assert all(len(p) in (13, 14) for p in parts)
    with pytest.raises(ValueError):
        list(sgf_grove.scan(path, members=(3, 3)))


def test_plan_covers_every_game_once(tmp_path):
    z, t, folder = archives(tmp_path)
    paths = [str(folder), str(z), str(t)]
    shards = cluster.plan(paths, 6)
    assert any(s.members is not None for s in shards)  # the archives are dealt out
    seen = Counter()
    for shard in shards:
        seen.update(scan_keys(shard.paths, **shard.scan_kwargs()))
    whole = scan_keys(paths)
    assert seen == Counter(whole) and max(seen.values()) == 1
    # Contiguous ranges of the sorted sources, in order.
    ranges = [s.sources for s in shards]
    assert ranges[0][0] == 0 and ranges[-1][1] == len(sgf_grove._native.sources(paths))
    assert cluster.plan(paths, 1)[0].sources == (0, len(sgf_grove._native.sources(paths)))
    with pytest.raises(ValueError):
        cluster.plan(paths, 0)


def test_plan_of_an_empty_folder_keeps_one_shard_to_report_it(tmp_path):
    (tmp_path / "empty").mkdir()
    shards = cluster.plan(tmp_path / "empty", 4)
    assert len(shards) == 1
    report = cluster.export_shard(shards[0], tmp_path / "out", 0)
    assert report["games"] == 0 and report["rejected"] == {"no_sgf_files": 1}


def test_export_shard_writes_its_part_with_part_ids(tmp_path):
    z, _, _ = archives(tmp_path)
    shard = cluster.plan(z, 3)[1]
    report = cluster.export_shard(shard, tmp_path / "out", 1)
    games = ds.dataset(tmp_path / "out" / "games").to_table()
    assert report["part"] == 1 and report["games"] == games.num_rows > 0
    ids = games.column("id").to_pylist()
    assert ids == [cluster.PART_IDS + n for n in range(len(ids))]
    assert not list((tmp_path / "out" / "games").glob("*.tmp-*"))


def compare(single: Path, dataset: Path):
    """The games and moves of the dataset equal those of the single
    export, matched on (source, game); ids aside."""
    db = duckdb.connect()
    cols = [
        r[0]
        for r in db.execute(f"describe select * from '{single}/games.parquet'").fetchall()
        if r[0] != "id"
    ]
    sel = ", ".join(f'"{c}"' for c in cols)
    one_g = f"(select {sel} from '{single}/games.parquet')"
    many_g = f"(select {sel} from '{dataset}/games/*.parquet')"
    moves = lambda g, m: (  # noqa: E731
        f"(select g.source, g.game, m.ply, m.color, m.x, m.y, m.is_pass "
        f"from '{m}' m join '{g}' g on m.game_id = g.id)"
    )
    one_m = moves(f"{single}/games.parquet", f"{single}/moves.parquet")
    many_m = moves(f"{dataset}/games/*.parquet", f"{dataset}/moves/*.parquet")
    for one, many in ((one_g, many_g), (one_m, many_m)):
        n_one = db.execute(f"select count(*) from {one}").fetchone()[0]
        n_many = db.execute(f"select count(*) from {many}").fetchone()[0]
        assert n_one == n_many > 0
        for a, b in ((one, many), (many, one)):
            diff = db.execute(f"select count(*) from ({a} except all {b})").fetchone()[0]
            assert diff == 0
    dup = db.execute(
        f"select count(*) - count(distinct id) from '{dataset}/games/*.parquet'"
    ).fetchone()[0]
    assert dup == 0
    # pyarrow reads the dataset too.
    assert ds.dataset(dataset / "moves").count_rows() == db.execute(
        f"select count(*) from '{single}/moves.parquet'"
    ).fetchone()[0]


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as local, distributed.Client(local) as c:
        yield c


def test_distributed_export_equals_the_single_export(tmp_path, client):
    z, t, folder = archives(tmp_path)
    paths = [folder, z, t]
    sgf_grove.to_parquet(paths, tmp_path / "single")
    summary = cluster.distributed_export(paths, tmp_path / "dataset", client, parts=5)
    assert summary["games"] == 12 + 40 + 40 and summary["parts"] >= 5
    assert all(Path(f).is_file() for f in summary["files"])
    compare(tmp_path / "single", tmp_path / "dataset")


def test_distributed_export_of_the_real_corpus(tmp_path, client, corpus):
    single = sgf_grove.to_parquet(corpus, tmp_path / "single")
    summary = cluster.distributed_export(corpus, tmp_path / "dataset", client)
    assert summary["games"] == single.games
    assert summary["rejected"] == single.rejected
    compare(tmp_path / "single", tmp_path / "dataset")


def test_distributed_export_into_an_old_export_is_refused_or_replaced_whole(tmp_path, client):
    z, t, folder = archives(tmp_path)
    out = tmp_path / "dataset"
    big = cluster.distributed_export([folder, z, t], out, client, parts=6)
    assert big["games"] == 92
    # A smaller export into the same folder: refused, the old one intact.
    with pytest.raises(FileExistsError, match="overwrite=True"):
        cluster.distributed_export(folder, out, client, parts=2)
    db = duckdb.connect()
    count = lambda: db.execute(f"select count(*) from '{out}/games/*.parquet'").fetchone()[0]  # noqa: E731
    assert count() == 92
    # Replaced whole: exactly the new games, no old part beside them.
    small = cluster.distributed_export(folder, out, client, parts=2, overwrite=True)
    assert small["games"] == 12 and count() == 12
    assert sorted(p.name for p in (out / "games").iterdir()) == sorted(
        Path(f).name for f in small["files"] if "/games/" in f
    )
    # Nothing left beside it.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.tar.gz", "big.zip", "dataset", "files"]


def test_to_parquet_refuses_a_folder_that_holds_files_unless_overwrite(tmp_path):
    _, _, folder = archives(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "games.parquet").write_bytes(b"old")
    with pytest.raises(FileExistsError):
        sgf_grove.to_parquet(folder, out)
    assert (out / "games.parquet").read_bytes() == b"old"
    report = sgf_grove.to_parquet(folder, out, overwrite=True)
    assert report.games == 12
    assert ds.dataset(out / "games.parquet").count_rows() == 12
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.tar.gz", "big.zip", "files", "out"]
