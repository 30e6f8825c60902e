"""to_arrow, arrow_batches, to_parquet: the tables of `sgf export`,
through the Arrow C stream interface, read back by pyarrow and DuckDB."""

from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import sgf_grove
from conftest import sgf_export


def all_kinds(kinds):
    return [kinds[name] for name in kinds["expected"]]


def test_tables_have_the_export_columns(kinds):
    games, moves, report = sgf_grove.to_arrow(all_kinds(kinds), workers=2)
    want = sum(kinds["expected"].values())
    assert games.num_rows == want == report.games
    assert games.column_names[:4] == ["id", "source", "game", "offset"]
    assert "komi_points" in games.column_names and "warning_count" in games.column_names
    assert moves.column_names == ["game_id", "ply", "color", "x", "y", "is_pass"]
    assert games.column("id").to_pylist() == list(range(want))
    assert set(moves.column("game_id").to_pylist()) <= set(range(want))
    assert moves.num_rows == sum(games.column("move_count").to_pylist())
    assert games.schema.field("board_cols").type == pa.int32()
    assert games.schema.field("id").type == pa.int64()
    # One row per game of the scan, in the scan's order.
    scanned = [(g.origin, g.index, g.offset) for g in sgf_grove.scan(all_kinds(kinds))]
    rows = list(zip(*(games.column(c).to_pylist() for c in ("source", "game", "offset"))))
    assert rows == scanned


def test_moves_are_the_main_line(tmp_path):
    (tmp_path / "a.sgf").write_text("(;SZ[19];B[pd];W[];B[zz];W[dd](;B[aa])(;B[bb]))")
    games, moves, _ = sgf_grove.to_arrow(tmp_path)
    assert moves.to_pydict() == {
        "game_id": [0, 0, 0, 0],
        "ply": [1, 2, 4, 5],
        "color": ["B", "W", "W", "B"],
        "x": [15, None, 3, 0],
        "y": [3, None, 3, 0],
        "is_pass": [False, True, False, False],
    }
    assert games.column("invalid_move_count").to_pylist() == [1]
    assert games.column("variation_count").to_pylist() == [1]


def test_without_moves_and_with_select(kinds):
    games, moves, report = sgf_grove.to_arrow(kinds["folder"], moves=False, select={"size": 19})
    assert moves is None and games.num_rows == 5
    assert report.rejected == {"size": 1}
    assert games.column("id").to_pylist() == [0, 1, 2, 3, 4]


def test_an_empty_scan_gives_empty_tables(tmp_path):
    (tmp_path / "a.txt").write_text("nothing")
    games, moves, report = sgf_grove.to_arrow(tmp_path / "a.txt")
    assert games.num_rows == 0 and moves.num_rows == 0
    assert report.rejected == {"parse": 1}
    assert games.schema == sgf_grove.to_arrow(tmp_path / "a.txt").games.schema


def test_the_c_stream_is_read_once(kinds):
    from sgf_grove import _native

    stream, _, _ = _native.tables(kinds["folder"], False)
    assert stream.column_names[0] == "id"
    table = pa.RecordBatchReader._import_from_c_capsule(stream.__arrow_c_stream__()).read_all()
    assert table.num_rows == 6
    with pytest.raises(RuntimeError, match="read already"):
        stream.__arrow_c_stream__()


def test_arrow_batches_stream_the_same_rows(tmp_path, kinds):
    paths = all_kinds(kinds)
    games, moves, _ = sgf_grove.to_arrow(paths)
    reader = sgf_grove.arrow_batches(paths, "games", batch_rows=4)
    batches = list(reader)
    assert max(b.num_rows for b in batches) == 4
    assert pa.Table.from_batches(batches).equals(games)
    streamed = sgf_grove.arrow_batches(paths, "moves", batch_rows=10).read_all()
    assert streamed.equals(moves)
    with pytest.raises(ValueError):
        sgf_grove.arrow_batches(paths, "players")


def test_to_parquet_reads_back_as_to_arrow(tmp_path, kinds):
    paths = all_kinds(kinds)
    out = tmp_path / "out"
    report = sgf_grove.to_parquet(paths, out, workers=2)
    games, moves, _ = sgf_grove.to_arrow(paths)
    assert report.games == games.num_rows
    assert pq.read_table(out / "games.parquet").equals(games)
    assert pq.read_table(out / "moves.parquet").equals(moves)
    # DuckDB reads the files: every move belongs to a game.
    db = duckdb.connect()
    g, m = str(out / "games.parquet"), str(out / "moves.parquet")
    assert db.execute(f"select count(*) from '{g}'").fetchone()[0] == games.num_rows
    orphans = db.execute(
        f"select count(*) from '{m}' m left join '{g}' g on m.game_id = g.id where g.id is null"
    ).fetchone()[0]
    assert orphans == 0
    per_game = db.execute(
        f"select sum(move_count) = (select count(*) from '{m}') from '{g}'"
    ).fetchone()[0]
    assert per_game


def test_to_parquet_without_moves(tmp_path, kinds):
    sgf_grove.to_parquet(kinds["zip"], tmp_path / "o", moves=False)
    assert sorted(p.name for p in (tmp_path / "o").iterdir()) == ["games.parquet"]


def same_as_sgf_export(paths, tmp_path: Path):
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    sgf_grove.to_parquet(paths, ours)
    sgf_export(paths, theirs)
    arrow = sgf_grove.to_arrow(paths)
    for name, table in (("games", arrow.games), ("moves", arrow.moves)):
        cli = pq.read_table(theirs / f"{name}.parquet")
        assert pq.read_table(ours / f"{name}.parquet").equals(cli), name
        assert table.equals(cli), name
        assert pq.ParquetFile(ours / f"{name}.parquet").schema == pq.ParquetFile(
            theirs / f"{name}.parquet"
        ).schema


def test_tables_equal_sgf_export_on_every_kind(tmp_path, kinds):
    same_as_sgf_export(all_kinds(kinds), tmp_path)


def test_tables_equal_sgf_export_on_the_real_corpus(tmp_path, corpus):
    same_as_sgf_export([corpus], tmp_path)


def generated_games(count: int) -> str:
    """`count` games with what makes columns null or odd: passes (``[]``
    and ``tt``), moves off the board, no komi, ranks, results of every
    kind, dates with several days, non-ASCII names, boards of other
    sizes."""
    letters = "abcdefghijklmnopqrs"
    results = ["B+R", "W+3.5", "0", "Void", "?", "B+T", "W+", ""]
    out = []
    for i in range(count):
        size = (19, 9, 13)[i % 3]
        moves = []
        for k in range(20 + i % 37):
            colour = "BW"[k % 2]
            if k % 29 == 7:
                moves.append(f";{colour}[]")
            elif k % 31 == 5 and size <= 19:
                moves.append(f";{colour}[tt]")
            elif k % 41 == 3:
                moves.append(f";{colour}[zz]")
            else:
                moves.append(f";{colour}[{letters[(i + k) % size]}{letters[(3 * i + 2 * k) % size]}]")
        komi = f"KM[{i % 8}.5]" if i % 5 else ""
        result = f"RE[{results[i % len(results)]}]" if results[i % len(results)] else ""
        out.append(
            f"(;GM[1]FF[4]CA[UTF-8]SZ[{size}]PB[黑{i}]BR[{1 + i % 9}d]PW[White {i}]WR[{1 + i % 20}k]"
            f"{komi}{result}DT[2020-01-{1 + i % 27:02d},{2 + i % 27:02d}]{''.join(moves)})"
        )
    return "\n".join(out)


def test_parquet_reads_back_identical_in_duckdb_and_pyarrow(tmp_path, kinds):
    # Enough moves for several batches of the writer (65,536 moves).
    folder = tmp_path / "gen"
    folder.mkdir()
    text = generated_games(3000)
    (folder / "all.sgf").write_text(text, encoding="utf-8")
    paths = all_kinds(kinds) + [folder]
    out = tmp_path / "out"
    sgf_grove.to_parquet(paths, out)
    games, moves, _ = sgf_grove.to_arrow(paths)
    assert moves.num_rows > 100_000
    db = duckdb.connect()
    for name, table, key in (("games", games, "id"), ("moves", moves, "game_id, ply")):
        path = out / f"{name}.parquet"
        by_pyarrow = pq.read_table(path)
        assert by_pyarrow.equals(table), name
        rows = [tuple(r.values()) for r in by_pyarrow.to_pylist()]
        by_duckdb = db.execute(f"select * from '{path}' order by {key}").fetchall()
        assert [d[0] for d in db.execute(f"describe select * from '{path}'").fetchall()] == table.column_names
        assert len(by_duckdb) == len(rows), name
        for ours, theirs in zip(rows, by_duckdb):
            assert ours == tuple(theirs), name
    # Nulls and passes made it through: a pass has neither x nor y.
    passes = db.execute(
        f"select count(*), count(x), count(y) from '{out / 'moves.parquet'}' where is_pass"
    ).fetchone()
    assert passes[0] > 0 and passes[1:] == (0, 0)
