"""sgf_grove.sgfmill: sgfmill's documented examples, rewritten as tests,
and a sample of the corpus read by sgf_grove.sgfmill and by sgfmill itself
(installed from PyPI): the same moves, size, komi, handicap, winner and
player names."""

import os
from pathlib import Path

import pytest

from sgf_grove.sgfmill import Sgf_game, Tree_node

from conftest import corpus_files


def need(what, ok):
    """Skips with the reason printed when `what` is missing; fails under CI."""
    if not ok:
        reason = f"{what} is not available"
        print(reason)
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)


def real_sgfmill():
    try:
        from sgfmill import sgf
    except ImportError:
        need("sgfmill (pip install sgfmill)", False)
    return sgf




EXAMPLE = b"""(;FF[4]GM[1]SZ[9]CA[UTF-8]PB[Black Player]PW[White Player]KM[5.5]RE[W+2.5]
;B[cc];W[gg]C[a comment];B[]
(;W[cg])(;W[gc]))"""


# -- sgfmill's examples, rewritten -------------------------------------------


def test_reading_a_game_as_the_examples_do():
    game = Sgf_game.from_bytes(EXAMPLE)
    assert game.get_winner() == "w"
    assert game.get_size() == 9
    root = game.get_root()
    assert root.get("PB") == "Black Player" and root.get("PW") == "White Player"
    moves = [node.get_move() for node in game.get_main_sequence()]
    # (row, col) from the bottom-left: cc on 9x9 is row 6, column 2.
    assert moves == [(None, None), ("b", (6, 2)), ("w", (2, 6)), ("b", None), ("w", (2, 2))]


def test_recording_a_game_as_the_examples_do(tmp_path):
    game = Sgf_game(size=13)
    for colour, move, comment in [("b", (3, 3), None), ("w", (9, 9), "hello"), ("b", None, None)]:
        node = game.extend_main_sequence()
        node.set_move(colour, move)
        if comment is not None:
            node.set("C", comment)
    path = tmp_path / "game.sgf"
    path.write_bytes(game.serialise())
    back = Sgf_game.from_bytes(path.read_bytes())
    assert [n.get_move() for n in back.get_main_sequence()[1:]] == [
        ("b", (3, 3)),
        ("w", (9, 9)),
        ("b", None),
    ]
    assert back.get_main_sequence()[2].get("C") == "hello"
    assert back.get_size() == 13
    # A pass is written tt on small boards, as sgfmill writes it.
    assert back.get_last_node().get_raw("B") == b"tt"


def test_modifying_a_game():
    game = Sgf_game.from_bytes(EXAMPLE)
    node = game.get_main_sequence()[2]
    assert node.get("C") == "a comment"
    node.add_comment_text("more")
    assert node.get("C") == "a comment\n\nmore"
    node.unset("C")
    assert not node.has_property("C")
    with pytest.raises(KeyError):
        node.unset("C")
    last = game.get_last_node()
    last.delete()
    assert game.get_last_node().get_move() == ("w", (6, 6))
    with pytest.raises(ValueError):
        game.get_root().delete()


def test_tree_navigation():
    game = Sgf_game.from_bytes(EXAMPLE)
    root = game.get_root()
    assert root.parent is None and root.owner is game
    b3 = game.get_main_sequence()[3]
    assert len(b3) == 2 and bool(b3) and not b3[0]
    assert [c.get_move()[1] for c in b3] == [(2, 2), (6, 6)]
    assert b3.index(b3[1]) == 1
    assert b3[1].parent is b3
    # The same node is always the same object.
    assert game.get_main_sequence()[3] is b3 and b3[0] is b3[0]
    assert game.get_sequence_above(b3[1]) == game.get_main_sequence()[:4]
    assert game.get_main_sequence_below(b3) == [b3[0]]
    assert list(game.main_sequence_iter()) == game.get_main_sequence()
    assert isinstance(b3, Tree_node)
    assert b3[0].find("KM") is root and b3[0].find_property("PB") == "Black Player"
    assert b3.find("XX") is None
    with pytest.raises(KeyError):
        b3.find_property("XX")


def test_new_child_and_reparent():
    game = Sgf_game.from_bytes(EXAMPLE)
    root = game.get_root()
    first = game.get_main_sequence()[1]
    child = root.new_child(0)
    child.set_move("w", (4, 4))
    assert root[0] is child and root[1] is first
    first.reparent(child)
    assert first.parent is child and len(root) == 1
    with pytest.raises(ValueError):
        child.reparent(first)


def test_properties_and_raw_values():
    game = Sgf_game.from_bytes(b"(;GM[1]SZ[9]AB[aa][ab]AW[ii]LB[ee:X]C[a \\] b]PL[W])")
    root = game.get_root()
    assert set(root.properties()) == {"GM", "SZ", "AB", "AW", "LB", "C", "PL"}
    assert root.get_raw("C") == b"a \\] b" and root.get("C") == "a ] b"
    assert root.get_raw_list("AB") == [b"aa", b"ab"]
    assert root.get_raw_property_map()["AW"] == [b"ii"]
    assert root.get("AB") == {(8, 0), (7, 0)}
    assert root.get_setup_stones() == ({(8, 0), (7, 0)}, {(0, 8)}, set())
    assert root.has_setup_stones()
    assert root.get("LB") == [((4, 4), "X")] and root.get("PL") == "w"
    with pytest.raises(KeyError):
        root.get("PB")
    with pytest.raises(KeyError):
        root.get_raw("PB")


def test_set_values_in_sgfmill_conventions():
    game = Sgf_game(size=9)
    root = game.get_root()
    root.set("AB", {(0, 0), (8, 8)})  # the bottom-left and top-right corners
    assert sorted(root.get_raw_list("AB")) == [b"ai", b"ia"]
    root.set("LB", [((8, 0), "A")])
    assert root.get_raw("LB") == b"aa:A"
    root.set("PL", "b")
    assert root.get_raw("PL") == b"B"
    root.set_setup_stones({(1, 1)}, {(2, 2)})
    assert root.get_setup_stones() == ({(1, 1)}, {(2, 2)}, set())
    root.set_raw("XY", b"raw")
    assert root.get("XY") == "raw"
    with pytest.raises(ValueError):
        root.set("SZ", 13)
    with pytest.raises(ValueError):
        root.set_raw("C", b"a ] b")
    with pytest.raises(ValueError):
        root.set_move("x", None)


def test_game_level_getters():
    game = Sgf_game.from_bytes(b"(;GM[1]SZ[19]HA[3]KM[0.5]CA[utf-8]RE[B+R]PB[A])")
    assert game.get_handicap() == 3 and game.get_komi() == 0.5
    assert game.get_charset() == "UTF-8" and game.get_winner() == "b"
    assert game.get_player_name("b") == "A" and game.get_player_name("w") is None
    bare = Sgf_game.from_bytes(b"(;GM[1])")
    assert bare.get_handicap() is None and bare.get_komi() == 0.0
    assert bare.get_winner() is None and bare.get_charset() == "ISO-8859-1"
    assert Sgf_game.from_bytes(b"(;HA[0]RE[0])").get_handicap() is None
    with pytest.raises(ValueError):
        Sgf_game.from_bytes(b"(;HA[1])").get_handicap()
    with pytest.raises(ValueError):
        Sgf_game.from_bytes(b"(;KM[lots])").get_komi()


def test_errors_are_value_errors():
    for bad in (b"not sgf", b"(;SZ[30])", b"(;SZ[19:13])"):
        with pytest.raises(ValueError):
            Sgf_game.from_bytes(bad)
    with pytest.raises(ValueError):
        Sgf_game(size=27)
    with pytest.raises(TypeError):
        Sgf_game.from_string(b"(;)")
    with pytest.raises(ValueError):
        Sgf_game.from_bytes(b"(;SZ[9];B[zz])").get_main_sequence()[1].get_move()


def test_from_string_is_utf8():
    game = Sgf_game.from_string("(;PB[李昌镐])")
    assert game.get_player_name("b") == "李昌镐"
    assert game.get_root().get_raw("CA") == b"UTF-8"
    assert Sgf_game.from_bytes(b"(;PB[Jos\xe9])", override_encoding="iso-8859-1").get_player_name("b") == "José"


def test_same_answers_as_sgfmill_on_the_examples():
    sgf = real_sgfmill()
    for data in (EXAMPLE, b"(;SZ[19]AB[aa:cc]AW[pd];B[tt];W[];B[qq]LB[pd:1])", b"(;SZ[21];B[tt])"):
        theirs, ours = sgf.Sgf_game.from_bytes(data), Sgf_game.from_bytes(data)
        assert [n.get_move() for n in ours.get_main_sequence()] == [
            n.get_move() for n in theirs.get_main_sequence()
        ]
        for a, b in zip(ours.get_main_sequence(), theirs.get_main_sequence()):
            assert sorted(a.properties()) == sorted(b.properties())
            for ident in b.properties():
                assert a.get(ident) == b.get(ident), ident


# -- the corpus, beside sgfmill ------------------------------------------------


def _or_error(f):
    try:
        return f()
    except ValueError:
        return ValueError


def test_corpus_sample_matches_sgfmill():
    sgf = real_sgfmill()
    compared = names = 0
    for path in corpus_files(step=23):
        data = path.read_bytes()
        try:
            theirs = sgf.Sgf_game.from_bytes(data)
        except (ValueError, LookupError):
            continue  # sgfmill refuses the file (sgf_grove reads more of them)
        ours = Sgf_game.from_bytes(data)
        where = str(path)
        assert ours.get_size() == theirs.get_size(), where
        assert _or_error(ours.get_komi) == _or_error(theirs.get_komi), where
        assert _or_error(ours.get_handicap) == _or_error(theirs.get_handicap), where
        their_moves = [_or_error(n.get_move) for n in theirs.get_main_sequence()]
        our_moves = [_or_error(n.get_move) for n in ours.get_main_sequence()]
        assert our_moves == their_moves, where
        # Text: sgfmill decodes without CA as ISO-8859-1, sgf-grove as the
        # bytes say; compare where both must agree (ASCII, or a CA naming
        # UTF-8).
        root = theirs.get_root()
        utf8 = root.has_property("CA") and root.get_raw("CA").lower() in (b"utf-8", b"utf8")
        for ident, colour in (("PB", "b"), ("PW", "w")):
            raw = root.get_raw(ident) if root.has_property(ident) else b""
            if utf8 or raw.isascii():
                assert ours.get_player_name(colour) == theirs.get_player_name(colour), where
                names += 1
        re = root.get_raw("RE") if root.has_property("RE") else b""
        if utf8 or re.isascii():
            assert ours.get_winner() == theirs.get_winner(), where
        compared += 1
    assert compared > 1500 and names > 2000
