"""sgf_grove.scan: every input kind, order, filters, rejections, the GIL,
early stops."""

import os
import threading
import time
from pathlib import Path

import pytest

import sgf_grove
from conftest import game, threads


def keys(paths, **kw):
    return [(g.origin, g.index, g.offset) for g in sgf_grove.scan(paths, **kw)]


def test_each_input_kind_gives_its_games(kinds):
    for name, want in kinds["expected"].items():
        games = sgf_grove.scan(kinds[name], workers=2)
        got = list(games)
        assert len(got) == want, name
        assert all(isinstance(g, sgf_grove.Game) for g in got)
        assert games.report.games == want and games.report.finished


def test_folder_in_sorted_order_with_skipped_files(kinds):
    games = sgf_grove.scan(kinds["folder"])
    names = [Path(g.origin).relative_to(kinds["folder"]).as_posix() for g in games]
    assert names == ["0.sgf", "1.sgf", "2.sgf", "3.sgf", "4.sgf", "sub/x.SGF"]
    assert games.report.skipped == {"not_sgf": 1}


def test_archive_members_are_named_archive_bang_member(kinds):
    tar = [g.origin for g in sgf_grove.scan(kinds["tar.gz"])]
    assert tar == [f"{kinds['tar.gz']}!dir/{i}.sgf" for i in range(30, 36)]
    z = sgf_grove.scan(kinds["zip"])
    assert [g.origin for g in z] == [f"{kinds['zip']}!z/{i}.sgf" for i in range(40, 44)]
    assert z.report.skipped == {"not_sgf": 1}  # readme.md
    first = next(iter(sgf_grove.scan(kinds["tar.gz"])))
    assert first.root["PB"] == "Black30"


def test_a_broken_game_in_a_collection_costs_only_itself(kinds):
    # Lenient: the three games, the broken one with its warning.
    games = list(sgf_grove.scan(kinds["collection"]))
    assert [g.index for g in games] == [0, 1, 2]
    assert [len(g.warnings) > 0 for g in games] == [False, True, False]
    assert games[2].root["PB"] == "Black11"
    # Strict: the game before it, then a rejection with its reason and
    # position, never an exception.
    items = list(sgf_grove.scan(kinds["collection"], strict=True, rejected=True))
    assert isinstance(items[0], sgf_grove.Game)
    bad = items[1]
    assert isinstance(bad, sgf_grove.Rejected)
    assert bad.reason == "parse" and "at 3:1" in bad.message
    assert bad.source == str(kinds["collection"])


def test_a_bad_sgfs_line_is_rejected_in_its_place(kinds):
    items = list(sgf_grove.scan(kinds["sgfs"], rejected=True))
    kinds_seen = [type(i).__name__ for i in items]
    assert kinds_seen == ["Game", "Rejected", "Game", "Game"]
    assert items[1].reason == "parse" and "2:" in items[1].message
    games = sgf_grove.scan(kinds["sgfs"])
    assert len(list(games)) == 3
    assert games.report.rejected == {"parse": 1}
    assert games.report.errors[0].source == str(kinds["sgfs"])


def test_unreadable_inputs_are_reported_not_raised(tmp_path):
    (tmp_path / "bad.sgf.gz").write_bytes(b"\x1f\x8b\x08\x00garbage-not-gzip")
    (tmp_path / "elf.sgf").write_bytes(b"\x7fELF\x02\x01\x01" + bytes(100))
    (tmp_path / "ok.sgf").write_text(game(1))
    items = list(sgf_grove.scan(tmp_path, rejected=True))
    reasons = [i.reason if isinstance(i, sgf_grove.Rejected) else "game" for i in items]
    assert reasons == ["corrupt_input", "not_sgf_text", "game"]
    assert items[0].game is None and items[0].offset is None


def test_select_as_dict_or_filter(kinds):
    folder = kinds["folder"]
    by_dict = sgf_grove.scan(folder, select={"size": 19, "player": "black3"})
    assert [g.root["PB"] for g in by_dict] == ["Black3"]
    assert by_dict.report.rejected == {"player": 4, "size": 1}
    f = sgf_grove.Filter(komi=(6.5, 7.5), moves=(None, 5))
    assert list(sgf_grove.scan(folder, select=f)) == []  # every game has 6 moves
    assert [g.index for g in sgf_grove.scan(folder, select=sgf_grove.Filter(size=[9, 13]))] == [0]
    items = list(sgf_grove.scan(folder, select={"has": ["PB", "KM"], "lacks": "C"}))
    assert len(items) == 6
    with pytest.raises(ValueError, match="komi"):
        sgf_grove.scan(folder, select={"komi": "6.5..x"})
    with pytest.raises(ValueError, match="no such filter"):
        sgf_grove.scan(folder, select={"colour": "B"})
    with pytest.raises(ValueError):
        sgf_grove.Filter(colour="B")
    with pytest.raises(TypeError):
        sgf_grove.scan(folder, select=42)


def test_select_date_and_rank_values(tmp_path):
    import datetime

    (tmp_path / "a.sgf").write_text(
        "(;DT[2019-05-01]BR[5d]WR[7d];B[aa])(;DT[2021-01-01]BR[3k]WR[1d];B[aa])"
    )
    got = sgf_grove.scan(tmp_path, select={"date": (datetime.date(2019, 1, 1), "2019-12-31")})
    assert [g.index for g in got] == [0]
    got = sgf_grove.scan(tmp_path, select={"rank": ("1d", None)})
    assert [g.index for g in got] == [0]


def big_collection(path: Path, games: int, player_every: int = 0) -> Path:
    """A collection of `games` games, written a block at a time; every
    `player_every`-th game is played by `Needle`."""
    with open(path, "w") as out:
        block = []
        for i in range(games):
            needle = player_every and i % player_every == player_every - 1
            block.append(game(i, moves=40, player="Needle" if needle else ""))
            if len(block) == 1000:
                out.write("\n".join(block) + "\n")
                block = []
        out.write("\n".join(block) + "\n")
    return path


def test_order_is_the_same_for_any_number_of_workers(tmp_path, kinds):
    # A folder of small files (read whole by the workers), a large
    # collection (cut into games by the reading thread) and archives.
    big = big_collection(tmp_path / "big.sgf", 30_000)
    assert big.stat().st_size > 8 << 20
    paths = [kinds["folder"], kinds["tar.gz"], kinds["zip"], big, kinds["sgfs"]]
    one = keys(paths, workers=1)
    assert len(one) == 6 + 6 + 4 + 30_000 + 3
    for workers in (2, 3, 8):
        assert keys(paths, workers=workers) == one, workers


def test_order_on_the_real_corpus(corpus):
    one = keys(corpus, workers=1)
    assert len(one) > 40_000
    assert keys(corpus, workers=4) == one


def counter_rate(seconds: float, during=None):
    """Increments a counter on a Python thread for `seconds` (or while
    `during` runs on this thread); returns the increments per second."""
    count = 0
    stop = threading.Event()

    def spin():
        nonlocal count
        while not stop.is_set():
            count += 1

    t = threading.Thread(target=spin)
    start = time.perf_counter()
    t.start()
    if during is None:
        time.sleep(seconds)
    else:
        during()
    stop.set()
    t.join()
    return count / (time.perf_counter() - start), time.perf_counter() - start


def test_the_gil_is_released_while_rust_reads(tmp_path):
    # One matching game at the very end: the first next() waits in Rust
    # while every other game is parsed and left out by the filter.
    big = big_collection(tmp_path / "big.sgf", 60_000, player_every=60_000)
    found = []

    def first_match():
        found.append(next(iter(sgf_grove.scan(big, workers=2, select={"player": "needle"}))))

    alone, _ = counter_rate(0.5)
    during, took = counter_rate(0, first_match)
    assert found and found[0].root["PB"] == "Needle"
    assert took > 0.2, f"the scan took {took:.3f}s: too short to measure"
    # With the GIL held through the wait the counter would stand still;
    # released, it runs (at a share of its speed alone that depends on
    # what else the cores do: the scan's threads take them too).
    assert during > 0.05 * alone, (during, alone)

    def arrow():
        sgf_grove.to_arrow(big, workers=2)

    during, took = counter_rate(0, arrow)
    assert during > 0.05 * alone, (during, alone, took)


def settled_threads(seconds: float = 5) -> int:
    """The thread count once it has not changed for 0.2 s (threads of an
    earlier scan may still be ending)."""
    deadline = time.monotonic() + seconds
    last, since = threads(), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.02)
        now = threads()
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= 0.2:
            break
    return last


def wait_for_threads(at_most: int, seconds: float = 10) -> int:
    deadline = time.monotonic() + seconds
    while threads() > at_most and time.monotonic() < deadline:
        time.sleep(0.02)
    return threads()


def test_stopping_early_stops_the_rust_threads(tmp_path):
    big = big_collection(tmp_path / "big.sgf", 100_000)
    before = settled_threads()
    games = sgf_grove.scan(big, workers=2)
    taken = [next(games) for _ in range(10)]
    assert [g.index for g in taken] == list(range(10))
    assert threads() > before  # the scan thread and its workers
    start = time.perf_counter()
    games.close()
    assert wait_for_threads(before) <= before
    assert time.perf_counter() - start < 5
    assert list(games) == []
    assert not games.report.finished
    assert games.report.games == 10

    # Leaving a for loop over a temporary iterator drops it: the same.
    for g in sgf_grove.scan(big, workers=2):
        if g.index == 5:
            break
    assert wait_for_threads(before) <= before

    with sgf_grove.scan(big, workers=2) as games:
        next(games)
    assert wait_for_threads(before) <= before


def test_report_is_live_while_iterating(kinds):
    games = sgf_grove.scan(kinds["folder"], select={"size": 19})
    next(games)
    assert games.report.games == 1 and not games.report.finished
    rest = list(games)
    assert len(rest) == 4
    r = games.report
    assert (r.games, r.rejected, r.rejected_total, r.finished) == (5, {"size": 1}, 1, True)
    d = r.to_dict()
    assert d["games"] == 5 and d["rejected"] == {"size": 1} and d["errors"] == []


def test_bad_arguments_raise_at_once(tmp_path):
    with pytest.raises(ValueError):
        sgf_grove.scan(tmp_path, workers=0)
    with pytest.raises(TypeError):
        sgf_grove.scan(42)
    with pytest.raises(ValueError):
        sgf_grove.scan([])
    with pytest.raises(ValueError, match="charset"):
        sgf_grove.scan(tmp_path, charset="klingon")


def test_a_missing_path_is_a_rejection(tmp_path):
    items = list(sgf_grove.scan(tmp_path / "nowhere.sgf", rejected=True))
    assert len(items) == 1 and items[0].reason == "io"


def test_dropping_an_arrow_reader_stops_its_scan(tmp_path):
    big = big_collection(tmp_path / "big.sgf", 100_000)
    small = big_collection(tmp_path / "small.sgf", 10)
    # pyarrow may start threads of its own on first use: not the scan's.
    sgf_grove.arrow_batches(small, "moves", workers=2).read_all()
    before = settled_threads()
    reader = sgf_grove.arrow_batches(big, "moves", workers=2, batch_rows=1000)
    first = reader.read_next_batch()
    assert first.num_rows == 1000
    assert threads() > before
    del reader
    assert wait_for_threads(before) <= before


def test_two_threads_can_share_one_scan(tmp_path):
    big = big_collection(tmp_path / "big.sgf", 20_000)
    games = sgf_grove.scan(big, workers=2)
    taken = {0: [], 1: []}

    def take(k):
        for g in games:
            taken[k].append(g.index)

    pair = [threading.Thread(target=take, args=(k,)) for k in (0, 1)]
    for t in pair:
        t.start()
    for t in pair:
        t.join()
    # Every game once, each thread's share in order.
    assert sorted(taken[0] + taken[1]) == list(range(20_000))
    assert all(share == sorted(share) for share in taken.values())
    assert games.report.games == 20_000 and games.report.finished


def test_scanned_games_are_placed_in_their_origin(tmp_path):
    """A scanned game is the scan's own parse of it: its nodes' offsets and
    positions, its values' errors and its warnings are all places in the
    file it was read from, as ``Game.offset`` is, and agree with a parse of
    the whole file; the game reads and writes as that parse's game does."""
    text = b"junk\n(;GM[1];B[aa])\n\n(;GM[1]PB[x]C[a\\]b]\n;B[bb]\n;W[1]\n;B[cc])"
    (tmp_path / "a.sgf").write_bytes(text)
    for workers in (1, 2):
        first, second = sgf_grove.scan(tmp_path, workers=workers)
        whole = sgf_grove.parse(text)
        assert [(w.kind, w.offset, w.line) for w in first.warnings] == [("junk_before_game", 0, 1)]
        assert second.offset == text.index(b"(;GM[1]PB")
        for scanned, parsed in zip(second.nodes(), whole[1].nodes()):
            assert (scanned.offset, scanned.position) == (parsed.offset, parsed.position)
        bad = second.main_line()[2]
        assert bad.offset == text.index(b";W[1]") and bad.position == (6, 1)
        with pytest.raises(sgf_grove.SgfError) as err:
            bad["W"]
        assert (err.value.line, err.value.column, err.value.offset) == (6, 4, text.index(b"W[1]") + 2)
        with pytest.raises(sgf_grove.SgfError) as err:
            second.moves(strict=True)
        assert (err.value.line, err.value.column) == (6, 4)
        assert second.root["C"] == "a]b" and second.root["PB"] == "x"
        assert second.moves_array().tolist() == whole[1].moves_array().tolist() == [[1, 1, 1], [1, 2, 2]]
        assert second.serialise() == whole[1].serialise()
        # Edited, the game no longer points into its input.
        second.root["PB"] = "y"
        assert second.root.offset is None and whole[1].root.offset is not None


def test_charset_override_reaches_the_games(tmp_path):
    # "привет" in windows-1251, without CA: read as KOI8-R when asked.
    data = b"(;GM[1]C[\xcf\xf0\xe8\xe2\xe5\xf2];B[pd])"
    path = tmp_path / "cyr.sgf"
    path.write_bytes(data)
    asked = sgf_grove.parse(data, charset="koi8-r")[0].root["C"]
    detected = sgf_grove.parse(data)[0].root["C"]
    assert asked != detected
    (scanned,) = list(sgf_grove.scan([path], charset="koi8-r"))
    assert scanned.root["C"] == asked
    (plain,) = list(sgf_grove.scan([path]))
    assert plain.root["C"] == detected


def test_the_readme_loop_reads_every_real_game(corpus):
    # The README's scan loop, as written there, over the whole real corpus:
    # no exception whatever a file holds (off-board moves read as None),
    # every game read, and game.moves() agreeing with the loop.
    seen = 0
    invalid = 0
    with sgf_grove.scan([str(corpus)]) as games:
        for game in games:
            info = game.info
            moves = [node.move for node in game.main_line()[1:]]
            assert info is not None
            valid = [m for m in moves if m is not None]
            assert game.moves() == valid
            invalid += game.invalid_moves()
            seen += 1
    assert seen == games.report.games
    assert seen > 40_000
    print(f"{seen} games, {invalid} off-board moves read as None")
