"""sgf_grove.sgfmill.boards.Board against sgfmill's own Board on random
games: the same stones after every move, the same ko points, the same
exceptions (occupied points, points off the board, bad colours), the
same setups, scores, emptiness and copies."""

import random

import pytest

from conftest import need
from sgf_grove.sgfmill import ascii_boards, boards


def real_boards():
    try:
        from sgfmill import boards as theirs
    except ImportError:
        need(False, "sgfmill is not installed (pip install sgfmill)")
    return theirs


def position(board):
    return [[board.get(r, c) for c in range(board.side)] for r in range(board.side)]


def outcome(call):
    try:
        return ("ok", call())
    except Exception as e:  # the kind of exception is what is compared
        return ("raised", type(e).__name__)


def random_game(seed, theirs_mod):
    """One random game on both boards; returns how many moves made a ko."""
    rng = random.Random(seed)
    side = rng.choice([2, 3, 4, 5, 7, 9, 13, 19])
    ours, theirs = boards.Board(side), theirs_mod.Board(side)
    kos = 0
    colour = "b"
    for _ in range(side * side * 4):
        roll = rng.random()
        empty = [p for p in theirs.board_points if theirs.get(*p) is None]
        if roll < 0.02:
            row, col, who = rng.randrange(-1, side + 1), rng.randrange(-1, side + 1), "b"
        elif roll < 0.03:
            row, col, who = 0, 0, rng.choice(["x", "B", None])
        elif roll < 0.1 or not empty:
            row, col, who = rng.randrange(side), rng.randrange(side), rng.choice("bw")
        else:
            (row, col), who = rng.choice(empty), colour
            colour = "w" if colour == "b" else "b"
        mine, real = outcome(lambda: ours.play(row, col, who)), outcome(lambda: theirs.play(row, col, who))
        assert mine == real, (seed, row, col, who)
        kos += mine[0] == "ok" and mine[1] is not None
        assert position(ours) == position(theirs)
        assert ours.is_empty() == theirs.is_empty()
        if rng.random() < 0.05:
            assert ours.area_score() == theirs.area_score()
            assert ours.list_occupied_points() == theirs.list_occupied_points()
            assert ascii_boards.render_board(ours) == ascii_boards.render_board(theirs)
    assert ours.area_score() == theirs.area_score()
    return kos


def test_random_games_as_sgfmill():
    theirs_mod = real_boards()
    kos = sum(random_game(seed, theirs_mod) for seed in range(16))
    # Random play meets kos: the ko points were compared too.
    assert kos >= 10


@pytest.mark.parametrize("seed", range(8))
def test_random_setups_as_sgfmill(seed):
    theirs_mod = real_boards()
    rng = random.Random(100 + seed)
    side = rng.choice([3, 5, 9, 19])
    ours, theirs = boards.Board(side), theirs_mod.Board(side)
    illegal = 0
    for _ in range(30):
        def points(n):
            return [(rng.randrange(side), rng.randrange(side)) for _ in range(n)]

        black, white, empty = points(rng.randrange(side * 2)), points(rng.randrange(side * 2)), points(3)
        # A point in two lists: sgfmill leaves the order open, so none here.
        white = [p for p in white if p not in black]
        empty = [p for p in empty if p not in black and p not in white]
        if rng.random() < 0.1:
            black.append((side, 0))
        mine = outcome(lambda: ours.apply_setup(black, white, empty))
        real = outcome(lambda: theirs.apply_setup(black, white, empty))
        assert mine == real
        illegal += real == ("ok", False)
        assert position(ours) == position(theirs)
        assert ours.is_empty() == theirs.is_empty()
        assert ours.area_score() == theirs.area_score()
    assert illegal > 0 or side == 19


def test_full_board_self_capture_and_empty_board():
    theirs_mod = real_boards()
    ours, theirs = boards.Board(2), theirs_mod.Board(2)
    for row, col in [(0, 0), (0, 1), (1, 0)]:
        assert ours.play(row, col, "b") == theirs.play(row, col, "b")
    assert ours.play(1, 1, "b") == theirs.play(1, 1, "b")
    assert ours.is_empty() and theirs.is_empty()
    assert ours.list_occupied_points() == []


def test_copy_is_independent_and_equal():
    b = boards.Board(9)
    b.play(2, 3, "b")
    c = b.copy()
    assert type(c) is boards.Board and c.side == 9
    assert position(c) == position(b)
    c.play(4, 4, "w")
    assert b.get(4, 4) is None and c.get(4, 4) == "w"


def test_errors_as_sgfmill_documents():
    b = boards.Board(5)
    b.play(1, 1, "b")
    with pytest.raises(ValueError):
        b.play(1, 1, "w")
    with pytest.raises(IndexError):
        b.play(5, 0, "b")
    with pytest.raises(IndexError):
        b.get(-1, 0)
    with pytest.raises(ValueError):
        b.play(2, 2, "black")
    with pytest.raises(ValueError):
        boards.Board(1)
    with pytest.raises(TypeError):
        boards.Board((19, 19))
    assert b.board_points[:3] == [(0, 0), (0, 1), (0, 2)] and len(b.board_points) == 25
