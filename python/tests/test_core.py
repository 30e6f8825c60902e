"""Reading: parse and read, errors and warnings with positions, navigation,
raw and typed values, charsets, game information, deep trees, the corpus."""


import pytest

import sgf_grove
from sgf_grove import SgfError

from conftest import corpus_files




# -- parse, read, errors, warnings ---------------------------------------------


def test_parse_bytes_and_str_give_the_same_games():
    text = "(;GM[1]PB[José];B[aa])(;GM[1];W[bb])"
    a, b = sgf_grove.parse(text), sgf_grove.parse(text.encode())
    assert len(a) == len(b) == 2
    assert a[0].root["PB"] == b[0].root["PB"] == "José"
    assert [g.index for g in a] == [0, 1]
    assert a[1].offset == text.encode().index(b"(;GM[1];W")


def test_parse_rejects_other_types():
    with pytest.raises(TypeError):
        sgf_grove.parse(12)


def test_collection_is_a_sequence():
    games = sgf_grove.parse(b"(;GM[1])(;GM[1])(;GM[1])")
    assert len(games) == 3
    assert games[-1].index == 2
    assert [g.index for g in games] == [0, 1, 2]
    assert [g.index for g in games.games] == [0, 1, 2]
    assert [g.index for g in games[1:]] == [1, 2] and games[::-1][0].index == 2
    with pytest.raises(IndexError):
        games[3]
    with pytest.raises(TypeError):
        games["first"]


def test_read_sets_origin(tmp_path):
    path = tmp_path / "two.sgf"
    path.write_bytes(b"(;GM[1];B[aa])\n(;GM[1];B[bb])")
    games = sgf_grove.read(path)
    assert [g.origin for g in games] == [str(path)] * 2
    assert games[1].offset == 15
    assert sgf_grove.parse(b"(;GM[1])")[0].origin is None


def test_read_missing_file_is_an_os_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        sgf_grove.read(tmp_path / "nope.sgf")


def test_no_game_is_an_error_with_a_kind():
    with pytest.raises(SgfError) as e:
        sgf_grove.parse(b"no game here")
    assert e.value.kind == "no_game_tree"
    assert isinstance(e.value, ValueError)


def test_binary_input_is_refused():
    with pytest.raises(SgfError) as e:
        sgf_grove.parse(b"\x1f\x8b\x08\x00\x00\x00\x00\x00")
    assert e.value.kind == "not_sgf_text"


def test_warnings_have_positions():
    games = sgf_grove.parse(b"junk\n(;GM[1]\nCoPyright[x];B[aa]")
    kinds = [w.kind for w in games.warnings]
    assert kinds == ["junk_before_game", "lowercase_in_ident", "unclosed_game_tree"]
    w = games.warnings[1]
    assert (w.line, w.column, w.offset) == (3, 1, 13)
    assert "lower-case" in w.message and str(w).endswith("at 3:1")
    # The junk before the game is the collection's, not the game's.
    assert [w.kind for w in games[0].warnings] == ["lowercase_in_ident", "unclosed_game_tree"]


def test_warnings_of_each_game_are_its_own():
    games = sgf_grove.parse(b"(;GM[1]Cx[1])(;GM[1])(;GM[1]C[a]C[b])")
    assert [w.kind for w in games[0].warnings] == ["lowercase_in_ident"]
    assert games[1].warnings == []
    assert [w.kind for w in games[2].warnings] == ["repeated_property"]


def test_strict_mode_raises_on_the_first_warning_with_its_position():
    with pytest.raises(SgfError) as e:
        sgf_grove.parse(b"(;GM[1]\n;B[aa]Cx[]", strict=True)
    err = e.value
    assert err.kind == "lowercase_in_ident"
    assert (err.line, err.column, err.offset) == (2, 7, 14)
    # The same input without strict mode parses, with the warning.
    assert sgf_grove.parse(b"(;GM[1]\n;B[aa]Cx[]").warnings[0].kind == "lowercase_in_ident"


def test_error_positions_for_a_cut_value():
    with pytest.raises(SgfError) as e:
        sgf_grove.parse(b"(;GM[1]C[never closed", strict=True)
    assert e.value.line == 1 and e.value.column > 0 and e.value.offset is not None


def test_charset_override_and_unknown_label():
    latin = b"(;PB[Jos\xe9])"
    assert sgf_grove.parse(latin, charset="ISO-8859-1")[0].root["PB"] == "José"
    with pytest.raises(LookupError):
        sgf_grove.parse(latin, charset="no-such-charset")


def test_text_in_declared_and_detected_charsets():
    gb = b"(;CA[GB2312]PB[\xb3\xa3\xea\xbb])"
    game = sgf_grove.parse(gb)[0]
    assert game.root["PB"] == "常昊"
    assert game.charset == "GBK"
    # Raw values stay bytes as in the file.
    assert game.root.get_raw("PB") == b"\xb3\xa3\xea\xbb"
    assert sgf_grove.parse("(;PB[李昌镐])".encode())[0].charset == "UTF-8"


# -- navigation -------------------------------------------------------------------

TREE = b"(;GM[1]SZ[19];B[pd](;W[dd];B[pp])(;W[dp]C[var])(;W[qq]))"


def test_children_parent_variations():
    game = sgf_grove.parse(TREE)[0]
    root = game.root
    assert root.is_root and root.parent is None and root.depth == 0
    b = root.first_child
    assert b.parent == root and len(b.children) == 3
    assert [v.move for v in b.variations] == [("W", (3, 15)), ("W", (16, 16))]
    assert b.children[0].first_child.is_leaf
    assert b.children[1].comment == "var"
    assert b.children[1].index == 1
    assert [n.id for n in game.main_line()] == [0, 1, 2, 3]
    assert [n.id for n in b.children[1].line()] == [0, 1, 4]
    assert [n.id for n in b.children[1].ancestors()] == [1, 0]
    assert [n.id for n in b.subtree()] == [1, 2, 3, 4, 5]
    assert len(game) == 6 == len(game.nodes())


def test_node_handles_compare_and_hash():
    game = sgf_grove.parse(TREE)[0]
    a, b = game.node(2), game.root.first_child.first_child
    assert a == b and hash(a) == hash(b)
    assert a != game.node(3)
    assert len({a, b, game.node(3)}) == 2
    other = sgf_grove.parse(TREE)[0]
    assert other.node(2) != a
    with pytest.raises(SgfError) as e:
        game.node(99)
    assert e.value.kind == "no_such_node"


def test_offsets_and_positions_of_nodes():
    game = sgf_grove.parse(b"(;GM[1]\n;B[aa]\n;W[bb])")[0]
    w = game.node(2)
    assert w.offset == 15 and w.position == (3, 1)


# -- values -----------------------------------------------------------------------


def test_typed_values_follow_the_catalogue():
    root = sgf_grove.parse(
        b"(;GM[1]SZ[19]KM[6.5]HA[2]PL[B]GB[2]DO[]AB[aa:bb][cc]LB[dd:A][ee:B]"
        b"AR[aa:bb]AP[Sabaki:0.5]FG[]TM[300]XX[private]N[a  name\nhere]C[l1\nl2])"
    )[0].root
    assert root["KM"] == 6.5 and root["HA"] == 2 and root["PL"] == "B"
    assert root["GB"] == 2 and root["DO"] is True
    assert root["AB"] == [(0, 0), (1, 0), (0, 1), (1, 1), (2, 2)]
    assert root["LB"] == [((3, 3), "A"), ((4, 4), "B")]
    assert root["AR"] == [((0, 0), (1, 1))]
    assert root["AP"] == ("Sabaki", "0.5")
    assert root["TM"] == 300.0
    assert root["XX"] == "private"
    assert root["N"] == "a  name here"  # SimpleText: line breaks become spaces
    assert root["C"] == "l1\nl2"  # Text keeps them
    assert root["SZ"] == 19


def test_moves_points_and_passes():
    game = sgf_grove.parse(b"(;GM[1]SZ[19];B[pd];W[];B[tt])")[0]
    b, w, b2 = game.main_line()[1:]
    assert b["B"] == (15, 3) and b.move == ("B", (15, 3))
    assert w.get("W") is None and "W" in w and w.move == ("W", None)
    assert b2.move == ("B", None)  # tt is a pass up to 19x19
    assert game.root.move is None
    big = sgf_grove.parse(b"(;GM[1]SZ[21];B[tt])")[0]
    assert big.main_line()[1].move == ("B", (19, 19))  # a point on 21x21


def test_get_default_get_list_and_keyerror():
    root = sgf_grove.parse(b"(;GM[1]C[a][b]AB[aa])")[0].root
    assert root.get("PB") is None and root.get("PB", "?") == "?"
    assert root.get_list("C") == ["a", "b"] and root.get("C") == "a"
    assert root.get_list("AB") == [(0, 0)] and root.get_list("PB") == []
    with pytest.raises(KeyError):
        root["PB"]
    assert "C" in root and "PB" not in root
    assert list(root) == ["GM", "C", "AB"] and len(root) == 3


def test_raw_values():
    root = sgf_grove.parse(rb"(;GM[1]C[a \] b]AB[aa][bb])")[0].root
    assert root.get_raw("C") == rb"a \] b"
    assert root.get_raw_list("AB") == [b"aa", b"bb"]
    assert root.get_raw("PB") is None and root.get_raw_list("PB") == []
    assert root.raw_properties() == {"GM": [b"1"], "C": [rb"a \] b"], "AB": [b"aa", b"bb"]}
    assert root.properties() == ["GM", "C", "AB"]


def test_malformed_value_raises_with_its_position():
    game = sgf_grove.parse(b"(;GM[1]SZ[9]\n;B[zz]KM[abc])")[0]
    node = game.node(1)
    # The tolerant read is the default: no move, no exception.
    assert node.move is None
    with pytest.raises(SgfError) as e:
        node.read_move(strict=True)
    assert e.value.kind == "invalid_value"
    assert (e.value.line, e.value.column) == (2, 4)
    with pytest.raises(SgfError) as e:
        node["KM"]
    assert (e.value.line, e.value.column) == (2, 10)
    # Raw access still works.
    assert node.get_raw("B") == b"zz"


def test_games_of_other_kinds_keep_their_points_as_text():
    root = sgf_grove.parse(b"(;GM[11]SZ[11];B[f2])")[0].root
    assert root.first_child["B"] == "f2"


# -- game information ----------------------------------------------------------


def test_game_info():
    info = sgf_grove.parse(
        "(;GM[1]SZ[19:13]PB[芈昱廷]BR[P9段]PW[Ke Jie]WR[9p]BT[China]KM[375]RU[Chinese]"
        "RE[W+1.25]DT[2019-10-14,15]EV[Cup]RO[1]PC[Beijing]GN[final]AP[foxwq]TM[3600]"
        "HA[0])".encode()
    )[0].info
    assert info.black == sgf_grove.Player(name="芈昱廷", rank="P9段", rank_normalised="9p", team="China")
    assert info.white.rank_normalised == "9p"
    assert info.komi == 7.5 and info.komi_text == "375"  # Fox: 3.75 stones
    assert info.result.winner == "W" and info.result.kind == "points" and info.result.margin == 1.25
    assert info.dates == [(2019, 10, 14), (2019, 10, 15)] and info.date == "2019-10-14,15"
    assert info.rules == "Chinese" and info.rules_name == "Chinese"
    assert info.size == (19, 13) and info.handicap == 0
    assert (info.event, info.round, info.place, info.game_name) == ("Cup", "1", "Beijing", "final")
    assert info.application == "foxwq" and info.time_limit == 3600.0
    assert info.player("w").name == "Ke Jie"


def test_game_info_absent_and_odd():
    info = sgf_grove.parse(b"(;GM[1]RE[?]BR[strong])")[0].info
    assert info.black.name is None and info.black.rank == "strong"
    assert info.black.rank_normalised is None
    assert info.komi is None and info.handicap is None and info.dates == []
    assert info.result.kind == "unknown" and info.result.winner is None
    assert sgf_grove.parse(b"(;GM[1])")[0].info.result is None


def test_game_info_is_a_frozen_dataclass():
    import dataclasses

    info = sgf_grove.parse(b"(;GM[1]PB[a])")[0].info
    assert dataclasses.asdict(info)["black"]["name"] == "a"
    with pytest.raises(dataclasses.FrozenInstanceError):
        info.komi = 1.0


def test_a_node_without_properties_is_still_true():
    game = sgf_grove.parse(b"(;GM[1];;B[aa])")[0]
    empty = game.node(1)
    assert len(empty) == 0 and bool(empty) and empty.first_child.move == ("B", (0, 0))


def test_arbitrary_bytes_never_panic():
    # Mutations of real constructs and random bytes: every read, replay and
    # write either works or raises SgfError (a panic would surface as
    # pyo3's PanicException, a BaseException that `except Exception`
    # does not catch).
    import random

    rng = random.Random(1234)
    seeds = [
        b"(;GM[1]FF[4]CA[UTF-8]SZ[19]KM[6.5]AB[aa:cc]LB[dd:A]C[x\\]y];B[pd](;W[dd])(;W[tt]))",
        b"(;SZ[5:3]AE[aa:ec]PL[W];W[ea];B[]LN[aa:bb]AR[aa:aa])",
        b"(;CA[Shift_JIS]C[\x95\x5c];B[zz]FG[257:x])",
    ]
    alphabet = b"()[];:\\ABCKMSWZaetz019\n\x00\xff\x95"
    inputs = []
    for seed in seeds:
        for _ in range(150):
            data = bytearray(seed)
            for _ in range(rng.randrange(1, 6)):
                at = rng.randrange(len(data))
                op = rng.randrange(3)
                if op == 0:
                    data[at] = rng.choice(alphabet)
                elif op == 1:
                    del data[at]
                else:
                    data.insert(at, rng.choice(alphabet))
            inputs.append(bytes(data))
    inputs += [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64))) for _ in range(200)]
    for data in inputs:
        try:
            games = sgf_grove.parse(data)
        except SgfError:
            continue
        for game in games:
            for node in game.nodes():
                for ident in node.properties():
                    for read in (node.get, node.get_list):
                        try:
                            read(ident)
                        except SgfError:
                            pass
                try:
                    node.move
                except SgfError:
                    pass
            game.info
            game.board()
            for options in ({}, {"canonical": True}, {"utf8": True}):
                try:
                    game.serialise(**options)
                except SgfError:
                    pass
            try:
                game.root.set("C", "edited")
            except SgfError:
                pass
            game.serialise()


# -- deep trees -------------------------------------------------------------------


def test_100000_nested_variations_do_not_crash():
    n = 100_000
    data = b"(;GM[1]" + b"(;B[aa]" * n + b")" * n + b")"
    game = sgf_grove.parse(data)[0]
    assert len(game) == n + 1
    deepest = game.main_line()[-1]
    assert deepest.depth == n and len(deepest.ancestors()) == n
    assert len(game.nodes()) == n + 1
    assert game.board(deepest).move_number == n
    assert len(sgf_grove.parse(game.serialise())[0]) == n + 1
    deepest.set("C", "the bottom")  # made editable: a copy of 100,001 nodes
    assert game.main_line()[-1].comment == "the bottom"
    game.root.first_child.delete()
    assert len(game) == 1
    del game, deepest


def test_a_long_line_parses_and_replays():
    n = 200_000
    data = b"(;GM[1]SZ[19]" + b";B[]" * n + b")"
    game = sgf_grove.parse(data)[0]
    assert game.board().move_number == n


# -- the corpus ------------------------------------------------------------------


def test_corpus_every_file_reads_or_fails_cleanly():
    files = corpus_files()
    read = failed = games = 0
    for path in files:
        try:
            collection = sgf_grove.read(path)
        except SgfError as e:
            assert e.kind in ("no_game_tree", "not_sgf_text"), (path, e)
            failed += 1
            continue
        read += 1
        games += len(collection)
        for game in collection:
            assert game.origin == str(path)
            root = game.root
            root.properties()
            game.info
    assert read > 49_000 and failed < 20 and games >= read


def test_corpus_sample_typed_reads_never_panic():
    # Every property of every node of a sample, typed: values or SgfError.
    for path in corpus_files(step=97):
        try:
            collection = sgf_grove.read(path)
        except SgfError:
            continue
        for game in collection:
            for node in game.nodes():
                for ident in node.properties():
                    try:
                        node.get(ident)
                        node.get_list(ident)
                    except SgfError as e:
                        assert e.kind == "invalid_value"
                        assert e.line is not None and e.line >= 1


def test_off_board_moves_do_not_stop_a_scan_loop():
    # The README's loop over games with an off-board move (`B[ta]` on
    # 19x19) in the middle: every game read, the bad move left out.
    data = b"\n".join(
        b"(;GM[1]SZ[19];B[pd];W[ta];B[dd];W[])" if k % 3 == 0 else b"(;GM[1]SZ[19];B[pd];W[dp])"
        for k in range(30)
    )
    games = sgf_grove.parse(data)
    rows = [[node.move for node in game.main_line()[1:]] for game in games]
    assert len(rows) == 30
    assert rows[0] == [("B", (15, 3)), None, ("B", (3, 3)), ("W", None)]
    assert games[0].moves() == [("B", (15, 3)), ("B", (3, 3)), ("W", None)]
    assert games[0].invalid_moves() == 1
    assert games[1].moves() == [("B", (15, 3)), ("W", (3, 15))]
    assert games[1].invalid_moves() == 0
    with pytest.raises(SgfError) as e:
        games[0].moves(strict=True)
    assert (e.value.line, e.value.column) == (1, 23)
