"""Replay: positions, captures, illegal moves, cursors, NumPy arrays,
hashes and symmetries; the corpus's main lines replayed beside the
library's own replay."""


import pytest

import sgf_grove
from sgf_grove import SgfError
from sgf_grove import _native

np = pytest.importorskip("numpy")

from conftest import corpus_files




def game_of(sgf):
    return sgf_grove.parse(sgf)[0]


def test_board_after_moves_and_setup():
    game = game_of(b"(;GM[1]SZ[9]AB[aa:bb]AW[ii]PL[W];W[ee];B[dd])")
    board = game.board()
    assert board.size == (9, 9)
    assert board[0, 0] == board[1, 1] == 1 and board[8, 8] == 2
    assert board[4, 4] == 2 and board[3, 3] == 1 and board[5, 5] == 0
    assert board.to_play == "W" and board.move_number == 2
    assert board.stones("W") == [(4, 4), (8, 8)]
    with pytest.raises(IndexError):
        board[9, 0]


def test_the_root_position_and_pl():
    root_board = game_of(b"(;GM[1]SZ[9]AB[cc]PL[W])").board()
    assert root_board.move_number == 0 and root_board.to_play == "W"
    assert root_board.node.is_root


def test_captures_and_ko():
    # . B W .     White takes the black stone at cb by playing bb; Black
    # B . B W     may not retake at once (the basic ko), and does anyway:
    # . B W .     reported, and played as it was.
    game = game_of(b"(;GM[1]SZ[9]AB[ba][ab][cb][bc]AW[ca][db][cc];W[bb];B[cb])")
    taken = game.board(game.main_line()[1])
    assert taken.captures == (0, 1) and taken[2, 1] == 0 and taken[1, 1] == 2
    assert taken.ko == (2, 1) and taken.to_play == "B"
    retaken = game.board()
    [ko] = retaken.illegal_moves
    assert (ko.reason, ko.point, ko.move_number) == ("ko", (2, 1), 2)
    assert retaken.captures == (1, 1) and retaken[1, 1] == 0 and retaken[2, 1] == 1
    with pytest.raises(SgfError):
        game.board(strict=True)


def test_illegal_moves_are_reported_with_positions():
    game = game_of(b"(;GM[1]SZ[9]RU[Chinese]\n;B[ee];W[fe];B[ef];W[ff]\n;B[ee])")
    board = game.board()
    [bad] = board.illegal_moves
    assert (bad.move_number, bad.colour, bad.point, bad.reason) == (5, "B", (4, 4), "occupied")
    assert bad.position == (3, 1) and bad.node == game.main_line()[-1]
    with pytest.raises(SgfError) as e:
        game.board(strict=True)
    assert e.value.kind == "illegal_move" and e.value.line == 3


def test_a_move_off_the_board_is_skipped():
    board = game_of(b"(;GM[1]SZ[9];B[zz];W[aa])").board()
    assert [m.reason for m in board.illegal_moves] == ["off_board"]
    assert board.to_play == "B" and board[0, 0] == 2


def test_rules_decide_suicide():
    # White's two stones at aa and ba have no liberty: a suicide, refused
    # under Japanese rules (the default) and allowed under New Zealand's.
    sgf = b"(;GM[1]SZ[5]AB[ab][bb][ca]AW[aa][ee];W[ba])"
    assert [m.reason for m in game_of(sgf).board().illegal_moves] == ["suicide"]
    nz = game_of(sgf).board(rules="NZ")
    assert nz.illegal_moves == [] and nz[0, 0] == nz[1, 0] == 0 and nz.captures == (2, 0)
    assert game_of(sgf.replace(b"SZ[5]", b"SZ[5]RU[NZ]")).board() == nz
    with pytest.raises(ValueError):
        game_of(sgf).board(rules="no such rules")


def test_boards_along_a_line_and_line_array():
    game = game_of(b"(;GM[1]SZ[3:2];B[aa];W[ba];B[cb])")
    boards = game.boards()
    assert [b.move_number for b in boards] == [0, 1, 2, 3]
    arr = game.line_array()
    assert arr.shape == (4, 2, 3) and arr.dtype == np.uint8
    assert arr.flags.writeable
    for i, b in enumerate(boards):
        assert (arr[i] == b.array).all()
        assert b.tobytes() == arr[i].tobytes()
    assert arr[3].tolist() == [[1, 2, 0], [0, 0, 1]]


def test_board_array_orientation():
    board = game_of(b"(;GM[1]SZ[19];B[pd])").board()
    a = board.array
    assert a.shape == (19, 19) and a[3, 15] == 1 and a.sum() == 1
    assert board[15, 3] == 1


def test_boards_of_a_variation():
    game = game_of(b"(;GM[1]SZ[9];B[ee](;W[dd])(;W[ff];B[gg]))")
    leaf = game.root.first_child.children[1].first_child
    assert [b.node for b in game.boards(leaf)] == leaf.line()
    assert game.board(leaf).stones("W") == [(5, 5)]


def test_cursor_forward_enter_back():
    game = game_of(b"(;GM[1]SZ[9];B[ee](;W[dd];B[cc])(;W[ff]))")
    c = game.cursor()
    assert c.node.is_root and c.back() is False
    assert c.forward().move == ("B", (4, 4))
    variation = c.node.children[1]
    c.enter(variation)
    assert c.board.stones("W") == [(5, 5)] and c.to_play == "B"
    assert c.forward() is None
    assert c.back() is True and c.node == game.root.first_child
    c.forward()
    c.forward()
    assert c.move_number == 3 and c.board[2, 2] == 1
    with pytest.raises(SgfError) as e:
        c.enter(game.root)
    assert e.value.kind == "not_a_child"


def test_cursor_back_over_many_nodes_matches_a_fresh_replay():
    moves = b"".join(b";%s[%s]" % (b"BW"[i % 2 : i % 2 + 1], bytes([97 + i % 19, 97 + (i * 7) % 19])) for i in range(150))
    game = game_of(b"(;GM[1]SZ[19]" + moves + b")")
    c = game.cursor(game.main_line()[-1])
    line = game.main_line()
    for depth in range(len(line) - 1, 0, -1):
        assert c.node == line[depth]
        fresh = game.board(line[depth])
        assert c.board == fresh and c.hash == fresh.situation_hash
        assert len(c.board.illegal_moves) == len(fresh.illegal_moves)
        assert c.back()
    assert c.node.is_root


def test_strict_cursor_stays_on_an_illegal_move():
    game = game_of(b"(;GM[1]SZ[9];B[ee];W[ee])")
    c = game.cursor(strict=True)
    c.forward()
    with pytest.raises(SgfError):
        c.forward()
    assert c.move_number == 1 and c.node == game.main_line()[1]


def test_hashes_and_symmetries():
    a = game_of(b"(;GM[1]SZ[19];B[pd];W[dp];B[qp])").board()
    assert sgf_grove.SYMMETRIES == (
        "identity", "rot90", "rot180", "rot270", "flip-x", "flip-y", "transpose", "anti-transpose",
    )
    seen = set()
    for s in sgf_grove.SYMMETRIES:
        t = a.transform(s)
        assert t.canonical_hash()[0] == a.canonical_hash()[0]
        assert sorted(t.symmetric_hashes()) == sorted(a.symmetric_hashes())
        seen.add(t.tobytes())
        # The same position written as a game has the same stone hash.
        assert t.hash == game_of(_as_sgf(t)).board().hash
    assert len(seen) == 8
    assert a.transform("rot90").stones("B") == [(15, 15), (3, 16)]
    with pytest.raises(ValueError):
        a.transform("sideways")


def _as_sgf(board):
    cols, rows = board.size
    size = b"%d" % cols if cols == rows else b"%d:%d" % (cols, rows)
    ab = b"".join(b"[%c%c]" % (97 + x, 97 + y) for x, y in board.stones("B"))
    aw = b"".join(b"[%c%c]" % (97 + x, 97 + y) for x, y in board.stones("W"))
    return b"(;GM[1]SZ[" + size + b"]" + (b"AB" + ab if ab else b"") + (b"AW" + aw if aw else b"") + b")"


def test_rectangular_boards_transform_their_size():
    b = game_of(b"(;GM[1]SZ[5:3];B[ea])").board()
    t = b.transform("transpose")
    assert t.size == (3, 5) and t.stones("B") == [(0, 4)]
    assert t.array.shape == (5, 3)


def test_transformed_game_replays_to_the_transformed_board():
    sgf = b"(;GM[1]SZ[19]AB[dd];W[pq];B[qc];W[cp])"
    for s in sgf_grove.SYMMETRIES:
        game = game_of(sgf)
        expected = game.board().transform(s)
        game.transform(s)
        assert game.board() == expected


def test_replay_of_an_edited_game():
    game = game_of(b"(;GM[1]SZ[9];B[ee])")
    game.main_line()[-1].play("W", (0, 0))
    assert game.board().stones("W") == [(0, 0)] and game.edited


def test_corpus_main_lines_replay_as_the_library_replays():
    # Every 7th file: after every main-line node, the hash with the player
    # to move, the move number and the illegal moves so far match the
    # library's own cursor (`GameTree::cursor`).
    compared = 0
    for path in corpus_files(step=7):
        data = path.read_bytes()
        try:
            games = sgf_grove.parse(data)
            expected = _native._library_replay(data)
        except SgfError:
            continue
        for game, want in zip(games, expected):
            if game.info.size[0] > 52 or "GM" in game.root and game.root.get_raw("GM") != b"1":
                continue
            got = [(b.situation_hash, b.move_number, len(b.illegal_moves)) for b in game.boards()]
            assert got == [tuple(w) for w in want], path
            compared += 1
    assert compared > 6000


def test_board_svg_draws_the_stones():
    board = game_of(b"(;GM[1]SZ[9];B[ee];W[ca])").board()
    svg = board.svg()
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="230.4" height="230.4"')
    assert "<text" not in svg
    # 24 units between lines, a border of 19.2: ee's centre at 115.2.
    assert '<circle cx="115.2" cy="115.2" r="11.28" fill="#000"/>' in svg
    assert '<circle cx="67.2" cy="19.2" r="10.78" fill="#fff" stroke="#000" stroke-width="1"/>' in svg
    assert board._repr_svg_() == svg
    # Coordinates: a band of 24 on the top and left.
    assert 'width="254.4" height="254.4"' in board.svg(coords=True)
    assert 'width="900" height="900" viewBox="0 0 230.4 230.4"' in board.svg(size=900)
    with pytest.raises(ValueError):
        board.svg(size=0)
    # A transformed board draws its own stones.
    flipped = board.transform("flip-y").svg()
    assert '<circle cx="67.2" cy="211.2"' in flipped
