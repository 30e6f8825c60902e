"""sgf_grove.samples(): the planes and targets checked point by point
against the package's own replay, augmentation against Board.transform,
shuffling and determinism, the report, errors, and the same samples as
the shards `sgf export --format samples` writes (read with numpy.load)."""

import doctest
import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

import sgf_grove
from sgf_grove import _native, _samples
from conftest import need, sgf_binary

# A 9x9 game with a pass and a counted result, and a 5x5 game with a
# capture that makes a ko (W[bb] takes B[cb]; Black may not retake at cb).
GAME = (
    "(;GM[1]FF[4]SZ[9]KM[6.5]RE[B+3.5]PB[Kim]BR[3d]PW[Lee]WR[2k]"
    ";B[ee];W[ef];B[fe];W[ff];B[df];W[eg];B[dg];W[fg];B[de];W[gf];B[dh];W[];B[ge];W[ed])"
)
CAPTURE = "(;SZ[5]RE[W+R];B[ba];W[ca];B[ab];W[db];B[bc];W[cc];B[cb];W[bb];B[ee];W[cb];B[ed])"


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def every(stream):
    """All batches of a Samples iterator, as one dict of arrays."""
    batches = list(stream)
    assert batches, "no batch"
    return {k: np.concatenate([b[k] for b in batches]) for k in batches[0]}


def by_ply(d):
    order = np.lexsort((d["symmetry"], d["ply"], d["game"]))
    return {k: v[order] for k, v in d.items()}


@pytest.mark.parametrize("text,size", [(GAME, 9), (CAPTURE, 5)])
def test_planes_and_targets_match_the_replay(tmp_path, text, size):
    path = write(tmp_path, "g.sgf", text)
    game = sgf_grove.parse(text.encode())[0]
    line = game.line_array()  # positions after each node, the root's first
    moves = game.moves_array()
    s = sgf_grove.samples(path, board=size, history=3, planes="all", window=1)
    names = s.plane_names
    assert names == ["own_0", "own_1", "own_2", "opponent_0", "opponent_1", "opponent_2",
                     "empty", "liberties_1", "liberties_2", "liberties_3", "ko", "black_to_play"]
    d = every(s)
    n = len(moves)
    assert d["features"].shape == (n, 12, size, size) and d["features"].dtype == np.uint8
    assert d["ply"].tolist() == list(range(1, n + 1))
    boards = game.boards()
    result = game.info.result
    for i in range(n):
        colour, x, y = (int(v) for v in moves[i])
        own, opp = (1, 2) if colour == 1 else (2, 1)
        f = d["features"][i]
        for t in range(3):
            if i - t >= 0:
                pos = line[i - t]
                assert (f[t] == (pos == own)).all(), (i, t)
                assert (f[3 + t] == (pos == opp)).all(), (i, t)
            else:
                assert not f[t].any() and not f[3 + t].any()
        assert (f[6] == (line[i] == 0)).all()
        board = boards[i]
        libs = np.zeros((size, size), dtype=int)
        for yy in range(size):
            for xx in range(size):
                if line[i][yy, xx]:
                    libs[yy, xx] = liberties(line[i], xx, yy)
        assert (f[7] == (libs == 1)).all() and (f[8] == (libs == 2)).all() and (f[9] == (libs >= 3)).all()
        ko = np.zeros((size, size), dtype=bool)
        if board.ko is not None:
            ko[board.ko[1], board.ko[0]] = True
        assert (f[10] == ko).all(), i
        assert (f[11] == (colour == 1)).all()
        assert int(d["to_play"][i]) == colour - 1
        assert int(d["policy"][i]) == (size * size if x < 0 else y * size + x)
        won = {"B": 1, "W": 2}[result.winner]
        assert int(d["value"][i]) == (1 if won == colour else -1) and bool(d["has_value"][i])
    if result.kind == "points":
        assert d["score"].tolist() == [result.margin if c == won else -result.margin for c in moves[:, 0]]
    else:
        assert np.isnan(d["score"]).all()
    if size == 5:
        # Black to move after W[bb]: the ko point is cb.
        assert d["features"][8, 10, 1, 2] == 1 and d["features"][8, 10].sum() == 1
    assert (d["game"] == 0).all() and (d["symmetry"] == 0).all()


def liberties(pos, x, y):
    """The liberties of the chain at (x, y), by flood fill."""
    rows, cols = pos.shape
    colour = pos[y, x]
    seen, libs, todo = {(x, y)}, set(), [(x, y)]
    while todo:
        cx, cy = todo.pop()
        for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
            if 0 <= nx < cols and 0 <= ny < rows and (nx, ny) not in seen:
                if pos[ny, nx] == 0:
                    libs.add((nx, ny))
                elif pos[ny, nx] == colour:
                    seen.add((nx, ny))
                    todo.append((nx, ny))
    return len(libs)


def test_the_metadata_columns(tmp_path):
    d = every(sgf_grove.samples(write(tmp_path, "g.sgf", GAME), board=9))
    assert set(d) == {"features"} | set(sgf_grove.samples(tmp_path, board=9).columns)
    assert (d["komi"] == np.float32(6.5)).all()
    assert (d["black_rank"] == 3).all() and (d["white_rank"] == -2).all()
    assert (d["handicap"] == 0).all() and (d["rules"] == 0).all()
    # Black won by 3.5: +3.5 for Black to move, -3.5 for White.
    assert sorted(set(zip(d["to_play"].tolist(), d["score"].tolist()))) == [(0, 3.5), (1, -3.5)]
    assert np.isnan(d["time_main"]).all() and (d["time_periods"] == -1).all()


def test_augmentation_gives_the_eight_transformed_boards(tmp_path):
    path = write(tmp_path, "g.sgf", GAME)
    game = sgf_grove.parse(GAME.encode())[0]
    boards = game.boards()
    d = by_ply(every(sgf_grove.samples(path, board=9, history=1, augment="all", window=1)))
    n = len(game.moves_array())
    assert len(d["ply"]) == 8 * n
    for i in range(len(d["ply"])):
        ply, sym = int(d["ply"][i]), int(d["symmetry"][i])
        board = boards[ply - 1].transform(sgf_grove.SYMMETRIES[sym])
        own = 1 if int(d["to_play"][i]) == 0 else 2
        assert (d["features"][i, 0] == (board.array == own)).all(), (ply, sym)
        assert (d["features"][i, 1] == (board.array == 3 - own)).all(), (ply, sym)
        after = boards[ply].transform(sgf_grove.SYMMETRIES[sym])
        pol = int(d["policy"][i])
        if pol < 81:
            # The stone played sits on the policy point of the next position.
            assert after.array[pol // 9, pol % 9] == own, (ply, sym)
    # Random augmentation: one sample a position, the symmetries drawn.
    r = every(sgf_grove.samples(path, board=9, augment="random", seed=3))
    assert len(r["ply"]) == n and len(set(r["symmetry"].tolist())) > 1


def test_the_same_seed_gives_the_same_batches_whatever_the_workers(tmp_path):
    for i in range(40):
        moves = "".join(f";{'BW'[k % 2]}[{'abcdefghi'[(i + 2 * k) % 9]}{'abcdefghi'[(3 * i + k // 9) % 9]}]"
                        for k in range(12))
        write(tmp_path, f"g{i:02}.sgf", f"(;SZ[9]RE[B+R]{moves})")

    def run(seed, workers):
        return [b["features"].tobytes() + b["game"].tobytes() + b["ply"].tobytes()
                for b in sgf_grove.samples(tmp_path, board=9, seed=seed, workers=workers,
                                           batch_size=100, window=200)]

    one = run(7, 1)
    assert one == run(7, 2)
    assert one != run(8, 1)
    assert [len(b) for b in one][:-1] == [len(one[0])] * (len(one) - 1)
    # Shuffled: not in input order, but every sample once.
    ids = np.concatenate([b["game"] * 100 + b["ply"] for b in sgf_grove.samples(tmp_path, board=9, seed=7,
                                                                                  batch_size=100, window=200)])
    assert sorted(ids.tolist()) == sorted(set(ids.tolist())) and ids.tolist() != sorted(ids.tolist())


def test_packed_features_unpack_to_the_same_planes(tmp_path):
    path = write(tmp_path, "g.sgf", GAME)
    plain = every(sgf_grove.samples(path, board=9, window=1))
    packed = every(sgf_grove.samples(path, board=9, window=1, packed=True))
    assert packed["features"].shape == (len(plain["ply"]), 17, 11)
    unpacked = np.unpackbits(packed["features"], axis=2, count=81).reshape(-1, 17, 9, 9)
    assert (unpacked == plain["features"]).all()


def test_the_report_counts_what_gave_no_samples(tmp_path):
    write(tmp_path, "a.sgf", GAME + "(;SZ[19];B[pd])(;SZ[9]KM[0.5])(;SZ[9];B[ee];W[ee];B[cc])")
    write(tmp_path, "b.sgf", "(;SZ[9]PB[Bot];B[aa])(;GM[4]SZ[9];B[ee];W[ef])")
    (tmp_path / "bad.sgf").write_bytes(b"\x00\x01 not sgf at all (")
    s = sgf_grove.samples(tmp_path, board=9, select={"player": "kim"})
    d = every(s)
    r = s.report
    # Only GAME passes `player`; the others are left out by it.
    assert r.games == 1 and r.finished
    assert r.rejected.get("player") == 5
    s = sgf_grove.samples(tmp_path, board=9)
    d = every(s)
    r = s.report
    assert r.rejected["board"] == 1 and r.rejected["no_moves"] == 1 and r.rejected["not_go"] == 1, r
    assert r.games == 3, r
    # The illegal W[ee] ends its game's samples after one.
    assert s.cut_total == 1 and s.cut[0].reason == "illegal_move" and s.cut[0].game == 3
    assert "move 2" in s.cut[0].message
    assert s.samples_yielded == len(d["ply"])
    # Ids are those of to_arrow's games table (the 19x19 game has one too).
    assert sorted(set(d["game"].tolist())) == [0, 3, 4]


def test_the_game_ids_join_the_games_table(tmp_path):
    pytest.importorskip("pyarrow")
    write(tmp_path, "a.sgf", GAME + "(;SZ[19];B[pd])" + CAPTURE.replace("SZ[5]", "SZ[9]"))
    games, _, _ = sgf_grove.to_arrow(tmp_path, moves=False)
    d = every(sgf_grove.samples(tmp_path, board=9))
    moves = dict(zip(games.column("id").to_pylist(), games.column("move_count").to_pylist()))
    counts = {g: int((d["game"] == g).sum()) for g in set(d["game"].tolist())}
    assert counts == {0: moves[0], 2: moves[2]}


def test_closing_early_stops_the_threads(tmp_path):
    for i in range(200):
        write(tmp_path, f"g{i:03}.sgf", GAME)
    s = sgf_grove.samples(tmp_path, board=9, batch_size=10, window=10)
    first = next(s)
    assert len(first["ply"]) == 10
    s.close()
    assert list(s) == []
    assert not s.report.finished
    with sgf_grove.samples(tmp_path, board=9, batch_size=10) as s:
        next(s)


@pytest.mark.parametrize(
    "kwargs,words",
    [
        ({"history": 0}, "history"),
        ({"history": 17}, "history"),
        ({"planes": "colour"}, "unknown plane set"),
        ({"augment": "twice"}, "augment"),
        ({"board": 53}, "1 to 52"),
        ({"board": "big"}, "board must be"),
        ({"batch_size": 0}, "batch_size"),
        ({"select": {"colour": "B"}}, "colour"),
    ],
)
def test_bad_options_are_refused_with_a_reason(tmp_path, kwargs, words):
    write(tmp_path, "g.sgf", GAME)
    with pytest.raises((ValueError, TypeError), match=words):
        sgf_grove.samples(tmp_path, **kwargs)


def test_the_shards_of_sgf_export_hold_the_same_samples(tmp_path):
    """`numpy.load` reads the CLI's .npz shards, and they hold what
    samples() gives for the same inputs, options and seed."""
    sgf = sgf_binary()
    src = tmp_path / "in"
    src.mkdir()
    for i, text in enumerate([GAME, CAPTURE.replace("SZ[5]", "SZ[9]"), GAME.replace("KM[6.5]", "KM[7]")]):
        write(src, f"g{i}.sgf", text)
    out = tmp_path / "out"
    done = subprocess.run([str(sgf), "export", "-q", "--format", "samples", "--board", "9", "--planes", "all",
                           "--augment", "all", "--shard-size", "50", "--out", str(out), str(src)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    shards = sorted(out.glob("shard-*.npz"))
    assert len(shards) == len(manifest["shards"]) > 1
    loaded = [dict(np.load(p)) for p in shards]
    assert all(len(s["policy"]) == 50 for s in loaded[:-1])
    cli = {k: np.concatenate([s[k] for s in loaded]) for k in loaded[0]}
    cli["features"] = np.unpackbits(cli["features"], axis=2, count=81).reshape(-1, 22, 9, 9)
    mine = every(sgf_grove.samples(src, board=9, planes="all", augment="all"))
    assert set(cli) == set(mine)
    a, b = by_ply(cli), by_ply(mine)
    for k in mine:
        assert a[k].dtype == b[k].dtype, k
        assert np.array_equal(a[k], b[k], equal_nan=a[k].dtype.kind == "f"), k


def test_doc_examples_run():
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tests = doctest.DocTestFinder().find(_samples, globs={"sgf_grove": sgf_grove})
    assert sum(len(t.examples) for t in tests) > 0
    for t in tests:
        runner.run(t)
    assert runner.failures == 0


def test_the_stubs_name_the_native_samples_api():
    import ast
    import inspect

    tree = ast.parse(Path(sgf_grove.__file__).with_name("_native.pyi").read_text())
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    f = funcs["sample_stream"]
    assert [a.arg for a in f.args.args + f.args.kwonlyargs] == list(inspect.signature(_native.sample_stream).parameters)
    cls = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}["SampleStream"]
    stubbed = {i.name for i in cls.body if isinstance(i, ast.FunctionDef)}
    assert stubbed <= set(dir(_native.SampleStream))
    assert {m for m in vars(_native.SampleStream) if not m.startswith("__")} <= stubbed


def test_the_corpus_gives_consistent_samples(corpus):
    # Spread over every folder (the first files sorted are Hex games).
    files = sorted(corpus.rglob("*.sgf"))[::150]
    need(len(files) > 100, "fewer than 100 corpus files")
    s = sgf_grove.samples(files, planes="empty", batch_size=8192)
    total = 0
    for b in s:
        f = b["features"]
        total += len(f)
        own, opp, empty = f[:, 0], f[:, 8], f[:, 16]
        # Every point is own, opponent's or empty, exactly one.
        assert ((own + opp + empty) == 1).all()
        pol = b["policy"].astype(int)
        on = pol < 361
        # The move is played on an empty point.
        assert empty.reshape(len(f), -1)[np.arange(len(f))[on], pol[on]].all()
        assert ((b["to_play"] == 0) == (f[:, 17].reshape(len(f), -1).all(axis=1))).all()
    assert total == s.samples_yielded == s._stream.samples_made > 10_000
    assert s.report.finished and s.report.games > 100


def test_select_takes_the_filters_of_the_new_columns(tmp_path):
    """rated (a bool), bots, main_time: as `sgf select --rated/--bots/--main-time`."""
    games = [
        "(;SZ[9]GN[Ranked game]PB[kim]PW[lee]TM[1800];B[ee])",
        "(;SZ[9]GN[Friendly]PB[kim]PW[lee]TM[300];B[ee])",
        "(;SZ[9]GN[Ranked]PB[Leela Zero 0.17]PW[lee]TM[1800];B[ee])",
    ]
    write(tmp_path, "a.sgf", "".join(games))

    def kept(**f):
        return [g.info.black.name for g in sgf_grove.scan(tmp_path, select=sgf_grove.Filter(**f))]

    assert kept(rated=True) == ["kim", "Leela Zero 0.17"]
    assert kept(rated=False) == ["kim"]
    assert kept(rated=True, bots="none") == ["kim"]
    assert kept(main_time=(600, None)) == ["kim", "Leela Zero 0.17"]
    d = every(sgf_grove.samples(tmp_path, board=9, select={"bots": "any"}))
    assert d["game"].tolist() == [0]  # the ids count the kept games only
    with pytest.raises(ValueError, match="bots"):
        kept(bots="some")


def test_threads_sharing_one_iterator_get_every_sample_once(tmp_path):
    import threading

    for i in range(120):
        write(tmp_path, f"g{i:03}.sgf", GAME)
    s = sgf_grove.samples(tmp_path, board=9, batch_size=7, window=20)
    got = []
    lock = threading.Lock()

    def run():
        for b in s:
            with lock:
                got.extend((b["game"] * 1000 + b["ply"]).tolist())

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(got) == sorted(g * 1000 + p for g in range(120) for p in range(1, 15))
    assert s.report.finished and s.samples_yielded == len(got)
