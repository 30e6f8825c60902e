"""Editing and writing: typed and raw values set and removed, nodes added,
deleted, moved, promoted, comments, transforms, copies, new games, and
every writer mode; the corpus written and read back."""


import pytest

import sgf_grove
from sgf_grove import SgfError

from conftest import corpus_files




def game_of(sgf):
    return sgf_grove.parse(sgf)[0]


def reparsed(game):
    return game_of(game.serialise())


def test_new_game_and_its_size():
    assert sgf_grove.Game().serialise() == b"(;GM[1]FF[4]CA[UTF-8]SZ[19])\n"
    assert sgf_grove.Game(9).size == (9, 9)
    assert sgf_grove.Game((13, 9)).size == (13, 9)
    for bad in (0, 53, (19, 0)):
        with pytest.raises(ValueError):
            sgf_grove.Game(bad)
    game = sgf_grove.Game(9)
    assert game.edited and game.origin is None and game.warnings == []


def test_set_typed_values_round_trip():
    game = sgf_grove.Game(19)
    root = game.root
    values = {
        "KM": 6.5,
        "HA": 2,
        "PB": "Lee ] \\ Sedol",
        "C": "line one\nline two",
        "PL": "W",
        "GB": 2,
        "AB": [(3, 3), (15, 15)],
        "LB": [((3, 3), "A:1"), ((15, 15), "B")],
        "AR": [((0, 0), (2, 2))],
        "AP": ("grove", "0.1"),
        "XX": "private value",
        "MN": 12,
        "KO": True,
    }
    for ident, value in values.items():
        root.set(ident, value)
    again = reparsed(game).root
    for ident, value in values.items():
        assert again[ident] == value, ident
    assert again.get_raw("PB") == rb"Lee \] \\ Sedol"


def test_set_moves_points_and_passes():
    game = sgf_grove.Game(19)
    node = game.root.add_child()
    node["B"] = (15, 3)
    assert node.get_raw("B") == b"pd"
    node["B"] = "dd"
    assert node.move == ("B", (3, 3))
    node["B"] = None
    assert node.move == ("B", None) and node.get_raw("B") == b""
    with pytest.raises(ValueError):
        node.set("B", (60, 1))
    with pytest.raises(TypeError):
        node.set("B", 3.5)


def test_set_a_set_of_points_is_written_in_reading_order():
    root = sgf_grove.Game(9).root
    root["AB"] = {(2, 2), (0, 1), (5, 0)}
    assert root.get_raw_list("AB") == [b"fa", b"ab", b"cc"]
    root["AB"] = []  # an empty list removes the property
    assert "AB" not in root
    root["VW"] = []  # VW takes an empty list: VW[]
    assert root.get_raw_list("VW") == [b""]


def test_set_size_in_the_root_only():
    game = sgf_grove.Game(19)
    game.root["SZ"] = (13, 9)
    assert game.size == (13, 9) and game.root.get_raw("SZ") == b"13:9"
    node = game.root.add_child()
    with pytest.raises(SgfError) as e:
        node["SZ"] = 9
    assert e.value.kind == "root_property_outside_root"


def test_set_raw_checks_what_a_reader_reads_back():
    root = sgf_grove.Game(19).root
    root.set_raw("C", rb"a \] b")
    assert root["C"] == "a ] b"
    root.set_raw("AB", [b"aa", b"bb"])
    assert root["AB"] == [(0, 0), (1, 1)]
    root.set("C", b"raw via set")
    assert root.get_raw("C") == b"raw via set"
    for bad in (b"a ] b", b"ends with \\"):
        with pytest.raises(SgfError) as e:
            root.set_raw("C", bad)
        assert e.value.kind == "invalid_raw_value"
    assert root["C"] == "raw via set"  # a refused edit changes nothing
    with pytest.raises(ValueError):
        root.set("lower", "x")


def test_remove_and_delitem():
    root = game_of(b"(;GM[1]C[x]PB[y])").root
    assert root.remove("C") is True and root.remove("C") is False
    del root["PB"]
    with pytest.raises(KeyError):
        del root["PB"]
    assert root.properties() == ["GM"]


def test_edits_keep_node_ids_of_a_parsed_game():
    game = game_of(b"(;GM[1];B[aa](;W[bb])(;W[cc]))")
    w2 = game.node(3)
    assert not game.edited
    game.root.set("C", "now editable")
    assert game.edited
    assert w2.move == ("W", (2, 2)) and game.node(3) == w2
    new = w2.add_child()
    assert new.id == 4 and new.parent == w2


def test_add_child_play_and_index():
    game = game_of(b"(;GM[1]SZ[19];B[pd])")
    root = game.root
    first = root.add_child(0)
    first["B"] = (3, 3)
    assert [c.index for c in root.children] == [0, 1]
    assert game.serialise() == b"(;GM[1]SZ[19](;B[dd])(;B[pd]))\n"
    last = root.children[1].play("W", "dp").play("B", None)
    assert last.move == ("B", None) and last.depth == 3
    with pytest.raises(ValueError):
        root.play("X", (0, 0))


def test_delete_invalidates_handles():
    game = game_of(b"(;GM[1];B[aa];W[bb];B[cc])")
    b, w, b2 = game.main_line()[1:]
    w.delete()
    assert len(game) == 2 and b.is_leaf
    for node in (w, b2):
        with pytest.raises(SgfError) as e:
            node.move
        assert e.value.kind == "no_such_node"
    with pytest.raises(SgfError) as e:
        game.root.delete()
    assert e.value.kind == "root_node"
    assert "deleted" in repr(w)


def test_move_to_and_loops():
    game = game_of(b"(;GM[1];B[aa];W[bb];B[cc])")
    root, b, w, b2 = game.nodes()
    w.move_to(root, 0)
    assert game.serialise() == b"(;GM[1](;W[bb];B[cc])(;B[aa]))\n"
    with pytest.raises(SgfError) as e:
        w.move_to(b2)
    assert e.value.kind == "would_create_loop"
    other = game_of(b"(;GM[1])")
    with pytest.raises(ValueError):
        b.move_to(other.root)


def test_set_index_and_promote():
    game = game_of(b"(;GM[1];B[aa](;W[bb])(;W[cc];B[dd])(;W[ee]))")
    b = game.root.first_child
    b.children[2].set_index(0)
    assert [c.move[1] for c in b.children] == [(4, 4), (1, 1), (2, 2)]
    deep = b.children[2].first_child
    deep.promote()
    assert [n.move[1] for n in game.main_line()[1:]] == [(0, 0), (2, 2), (3, 3)]


def test_append_comment():
    node = game_of(b"(;GM[1];B[aa])").main_line()[1]
    node.append_comment("first")
    node.append_comment("second")
    assert node.comment == "first\nsecond"


def test_text_is_written_in_the_games_charset():
    game = game_of(b"(;CA[GB2312]PB[\xb3\xa3\xea\xbb])")
    game.root["PW"] = "聂卫平"
    assert game.root.get_raw("PW") == "聂卫平".encode("gb2312")
    with pytest.raises(SgfError) as e:
        game.root["C"] = "😀"
    assert e.value.kind == "unrepresentable_character"


def test_copy_is_independent():
    game = game_of(b"(;GM[1]PB[a];B[aa])")
    copy = game.copy()
    copy.root["PB"] = "b"
    assert game.root["PB"] == "a" and copy.root["PB"] == "b"
    again = copy.copy()
    again.root["PB"] = "c"
    assert copy.root["PB"] == "b"
    assert copy.index == game.index and copy.offset == game.offset


def test_transform_with_colours_swapped():
    game = game_of(b"(;GM[1]SZ[19]PB[Lee]PW[Cho]AB[aa];B[pd]TR[pd])")
    game.transform("flip-y", swap_colors=True)
    assert game.serialise() == b"(;GM[1]SZ[19]PW[Lee]PB[Cho]AW[as];W[pp]TR[pp])\n"
    with pytest.raises(ValueError):
        game.transform("upside-down")


def test_serialise_modes():
    game = game_of(b"(;PB[Lee]GM[1]C[a\\:b];B[tt]AB[aa][ab][ba][bb])")
    assert game.serialise() == b"(;PB[Lee]GM[1]C[a\\:b];B[tt]AB[aa][ab][ba][bb])\n"
    canonical = game.serialise(canonical=True)
    assert canonical == b"(;GM[1]FF[4]PB[Lee]C[a:b];B[]AB[aa][ab][ba][bb])\n"
    assert game.serialise(canonical=True, points="compress").endswith(b"AB[aa:bb])\n")
    assert game.serialise(canonical=True, tt_pass=True).count(b"B[tt]") == 1
    lines = game.serialise(wrap=20).splitlines()
    assert len(lines) > 2 and max(len(line) for line in lines) <= 20
    assert b"C[" not in game.serialise(drop_presets=["comments"])
    assert b"PB" not in game.serialise(drop=["PB"])
    with pytest.raises(ValueError):
        game.serialise(points="zigzag")
    with pytest.raises(ValueError):
        game.serialise(drop_presets=["nothing"])


def test_serialise_transcodes():
    game = game_of(b"(;CA[GB2312]PB[\xb3\xa3\xea\xbb])")
    assert game.serialise(utf8=True).decode() == "(;CA[UTF-8]PB[常昊])\n"
    big5 = game.serialise(charset="Big5")
    assert b"CA[Big5]" in big5 and game_of(big5).root["PB"] == "常昊"
    utf8 = game_of("(;PB[😀])".encode())
    with pytest.raises(SgfError) as e:
        utf8.serialise(charset="GBK")
    assert e.value.kind == "unrepresentable_character"
    with pytest.raises(ValueError):
        game.serialise(utf8=True, charset="GBK")


def test_write_and_serialise_several(tmp_path):
    games = sgf_grove.parse(b"(;GM[1];B[aa])(;GM[1];W[bb])")
    games[0].root.first_child["C"] = "x"
    path = tmp_path / "out.sgf"
    games[0].write(path, canonical=True)
    assert path.read_bytes() == games[0].serialise(canonical=True)
    both = sgf_grove.serialise(games)
    assert both == b"(;GM[1];B[aa]C[x])\n(;GM[1];W[bb])\n"
    assert sgf_grove.serialise([]) == b""


def test_unedited_games_are_written_as_the_writer_writes_them():
    data = b"(;GM[1]SZ[9]C[a];B[ee](;W[dd])(;W[ff]))"
    game = game_of(data)
    raw = game.serialise()
    game.root.set("C", "a")  # made editable, same content
    assert game.serialise() == raw


def test_corpus_sample_edit_and_read_back():
    # Every 41st file: each game made editable (a comment appended to its
    # last main-line node), written, read back: the same moves, the comment
    # there, and the unedited games written as before.
    checked = 0
    for path in corpus_files(step=41):
        try:
            games = sgf_grove.read(path)
        except SgfError:
            continue
        for game in games:
            try:
                moves = [n.move for n in game.main_line()]
            except SgfError:
                continue  # a malformed move: not this test's subject
            before = game.serialise()
            assert game_of(before).serialise() == before, path
            game.main_line()[-1].append_comment("checked")
            again = reparsed(game)
            assert [n.move for n in again.main_line()] == moves, path
            assert again.main_line()[-1].comment.endswith("checked")
            checked += 1
    assert checked > 1000
