"""The batch accessors of the common indexer loop: ``Game.moves_array()``
(every main-line move in one numpy array) and ``Game.info`` (built
without running the dataclass's ``__init__``), checked against the
per-move and per-field APIs on generated games and on the real corpus."""

import dataclasses
import random

import pytest

import sgf_grove
from sgf_grove import GameInfo

np = pytest.importorskip("numpy")

COLOURS = {"B": 1, "W": 2}


def expected_rows(game, strict=False):
    """``moves_array()`` as the per-node API says it should be."""
    rows = []
    for colour, point in game.moves(strict=strict):
        x, y = point if point is not None else (-1, -1)
        rows.append([COLOURS[colour], x, y])
    return rows


def random_game(rng: random.Random) -> str:
    """A game with moves on and off the board, passes (``[]`` and
    ``tt``), nodes without a move, setup stones and a variation."""
    cols = rng.choice([5, 9, 13, 19, 25])
    rows = rng.choice([cols, cols, 7])
    size = f"{cols}" if rows == cols else f"{cols}:{rows}"
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    nodes = []
    for k in range(rng.randrange(0, 40)):
        colour = "BW"[k % 2]
        kind = rng.random()
        if kind < 0.05:
            nodes.append(f";{colour}[]")
        elif kind < 0.08:
            nodes.append(f";{colour}[tt]")
        elif kind < 0.12:
            nodes.append(f";C[comment {k}]")
        elif kind < 0.15:
            nodes.append(f";AB[{letters[k % cols]}a]")
        elif kind < 0.19:
            # Off the board (or no point at all): left out and counted.
            nodes.append(f";{colour}[{rng.choice(['zz', 'a', 'ZZ', 'a1'])}]")
        else:
            x, y = rng.randrange(cols), rng.randrange(rows)
            nodes.append(f";{colour}[{letters[x]}{letters[y]}]")
    cut = rng.randrange(len(nodes) + 1)
    main = "".join(nodes[:cut])
    tail = "".join(nodes[cut:])
    variation = f"({tail})(;B[aa])" if tail else ""
    return f"(;GM[1]FF[4]SZ[{size}]PB[B{cols}]KM[6.5]{main}{variation})"


def test_moves_array_shape_dtype_and_values():
    game = sgf_grove.parse(b"(;SZ[19];B[pd];W[ta];B[dd]C[x];AB[aa];W[];B[tt])")[0]
    a = game.moves_array()
    assert a.dtype == np.int8 and a.shape == (4, 3)
    assert a.tolist() == [[1, 15, 3], [1, 3, 3], [2, -1, -1], [1, -1, -1]]
    assert game.invalid_moves() == 1
    # A copy of its own, writable.
    a[0, 0] = 9
    assert game.moves_array()[0, 0] == 1


def test_moves_array_of_a_game_without_moves_is_empty():
    game = sgf_grove.parse(b"(;GM[1]SZ[9]C[only a root])")[0]
    a = game.moves_array()
    assert a.shape == (0, 3) and a.dtype == np.int8


def test_moves_array_strict_raises_at_the_first_invalid_move():
    game = sgf_grove.parse(b"(;SZ[9];B[ee];W[zz];B[jj])")[0]
    assert game.moves_array().tolist() == [[1, 4, 4]]
    with pytest.raises(sgf_grove.SgfError) as err:
        game.moves_array(strict=True)
    with pytest.raises(sgf_grove.SgfError) as per_move:
        game.moves(strict=True)
    assert err.value.kind == per_move.value.kind
    assert (err.value.line, err.value.column) == (per_move.value.line, per_move.value.column)


def test_moves_array_agrees_with_moves_on_generated_games():
    rng = random.Random(20)
    for _ in range(400):
        text = random_game(rng)
        game = sgf_grove.parse(text)[0]
        assert game.moves_array().tolist() == expected_rows(game), text


def test_moves_array_follows_edits():
    game = sgf_grove.parse(b"(;SZ[9];B[ee];W[cc])")[0]
    game.main_line()[-1].play("B", (1, 2))
    assert game.edited
    assert game.moves_array().tolist() == [[1, 4, 4], [2, 2, 2], [1, 1, 2]]
    assert game.moves_array().tolist() == expected_rows(game)


def test_moves_array_of_scanned_games(tmp_path):
    rng = random.Random(7)
    texts = [random_game(rng) for _ in range(120)]
    (tmp_path / "a.sgf").write_text("\n".join(texts[:60]))
    for i, text in enumerate(texts[60:]):
        (tmp_path / f"g{i:03}.sgf").write_text(text)
    seen = 0
    for game in sgf_grove.scan(tmp_path, workers=2):
        assert game.moves_array().tolist() == expected_rows(game)
        seen += 1
    assert seen == len(texts)


def full_info(game) -> GameInfo:
    """``game.info`` made through the dataclass's own ``__init__``."""
    info = game.info
    return GameInfo(**{f.name: getattr(info, f.name) for f in dataclasses.fields(GameInfo)})


def check_info(game):
    info = game.info
    assert type(info) is GameInfo
    names = [f.name for f in dataclasses.fields(GameInfo)]
    # Every field set on the instance, in the class's order.
    assert list(vars(info)) == names
    assert info == full_info(game)
    assert dataclasses.asdict(info) == dataclasses.asdict(full_info(game))
    for side in (info.black, info.white):
        assert type(side) is sgf_grove.Player
        assert list(vars(side)) == [f.name for f in dataclasses.fields(sgf_grove.Player)]
    if info.result is not None:
        assert type(info.result) is sgf_grove.Result
        assert list(vars(info.result)) == [f.name for f in dataclasses.fields(sgf_grove.Result)]
    # Still frozen.
    with pytest.raises(dataclasses.FrozenInstanceError):
        info.komi = 1.0
    return info


def test_info_is_a_complete_frozen_dataclass():
    game = sgf_grove.parse(
        "(;GM[1]SZ[19:13]PB[Lee]BR[9p]BT[Team]PW[Go]WR[3d?]KM[0.5]HA[2]RE[W+R]"
        "DT[2016-03-09,10]RU[Chinese]TM[300]OT[3x30]EV[Ev]RO[2]PC[Seoul]GN[Name]"
        "GC[a\\\nb]AP[App:1]CP[c]AN[an]SO[so]US[us]ON[on])"
    )[0]
    info = check_info(game)
    assert (info.black.name, info.black.rank_normalised, info.black.team) == ("Lee", "9p", "Team")
    assert (info.komi, info.komi_text, info.handicap, info.handicap_text) == (0.5, "0.5", 2, "2")
    assert (info.result.winner, info.result.kind, info.result.normalised) == ("W", "resignation", "W+R")
    assert info.dates == [(2016, 3, 9), (2016, 3, 10)]
    assert (info.size, info.time_limit, info.rules_name) == ((19, 13), 300.0, "Chinese")
    assert (info.application, info.opening, info.game_comment) == ("App:1", "on", "ab")
    assert sgf_grove.parse(b"(;GM[1])")[0].info == GameInfo()


def test_info_on_generated_and_scanned_games(tmp_path):
    rng = random.Random(3)
    texts = [random_game(rng) for _ in range(50)]
    (tmp_path / "a.sgf").write_text("".join(texts))
    for game in sgf_grove.scan(tmp_path):
        check_info(game)


def test_corpus_batch_accessors_agree(corpus):
    checked = moves = 0
    for i, game in enumerate(sgf_grove.scan(corpus)):
        if i % 7 == 0:
            a = game.moves_array()
            assert a.tolist() == expected_rows(game), game.origin
            moves += len(a)
            if i % 49 == 0:
                check_info(game)
            checked += 1
    print(f"moves_array checked on {checked} corpus games ({moves} moves)")
    assert checked > 5000 and moves > 100_000
