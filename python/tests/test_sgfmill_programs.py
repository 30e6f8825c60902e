"""Programs written against sgfmill's documented API, run unchanged with
``python -m sgf_grove.sgfmill SCRIPT.py ARGS`` and with the real sgfmill
(``python SCRIPT.py ARGS``, pip's sgfmill), on corpus files: the outputs
must be the same.

The corpus files are those sgfmill itself reads and replays (sgf-grove
reads more: those are not compared here; see the module docs of
``sgf_grove.sgfmill.sgf``)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import need

# A replay loop as sgfmill's docs write it: get_setup_and_moves, then
# board.play per move; every value the loop sees is printed.
REPLAY = r'''
import os
import sys
import sgfmill
from sgfmill import ascii_boards, boards, common, sgf, sgf_moves

print(sgfmill.__name__, file=sys.stderr)
for path in sys.argv[1:]:
    with open(path, "rb") as f:
        game = sgf.Sgf_game.from_bytes(f.read())
    root = game.get_root()
    print(os.path.basename(path), game.get_size(), game.get_komi(),
          game.get_handicap(), game.get_winner(), root.get_raw("PB") if root.has_property("PB") else None)
    board, plays = sgf_moves.get_setup_and_moves(game)
    for colour, move in plays:
        if move is None:
            print(colour, "pass")
            continue
        row, col = move
        try:
            ko = board.play(row, col, colour)
        except ValueError:
            print(colour, common.format_vertex(move), "illegal")
            continue
        print(colour, common.format_vertex(move), ko)
    print(ascii_boards.render_board(board))
    print("score", board.area_score(), "stones", len(board.list_occupied_points()), board.is_empty())
'''

# Like sgfmill's show_sgf example: the position before move N.
SHOW = r'''
import sys
from sgfmill import ascii_boards, sgf, sgf_moves

print(sgf_moves.__name__, file=sys.stderr)
path, before = sys.argv[1], int(sys.argv[2])
with open(path, "rb") as f:
    game = sgf.Sgf_game.from_bytes(f.read())
board, plays = sgf_moves.get_setup_and_moves(game)
for colour, move in plays[: max(0, before - 1)]:
    if move is not None:
        try:
            board.play(move[0], move[1], colour)
        except ValueError:
            print("illegal move in sgf file", file=sys.stderr)
            sys.exit(1)
print(ascii_boards.render_board(board))
'''

# Like sgfmill's split_sgf_collection example: each game of a collection
# to a file of its own, with a comment; then each written file read back.
SPLIT = r'''
import os
import sys
from sgfmill import sgf, sgf_grammar

print(sgf.__name__, file=sys.stderr)
path, out = sys.argv[1], sys.argv[2]
with open(path, "rb") as f:
    coarse = sgf_grammar.parse_sgf_collection(f.read())
for i, tree in enumerate(coarse):
    game = sgf.Sgf_game.from_coarse_game_tree(tree)
    game.get_root().add_comment_text("Split from %s (game %d)" % (os.path.basename(path), i + 1))
    name = os.path.join(out, "game_%d.sgf" % (i + 1))
    with open(name, "wb") as f:
        f.write(game.serialise())
for i in range(len(coarse)):
    with open(os.path.join(out, "game_%d.sgf" % (i + 1)), "rb") as f:
        game = sgf.Sgf_game.from_bytes(f.read())
    root = game.get_root()
    moves = [node.get_move() for node in game.get_main_sequence()]
    print(i + 1, game.get_size(), root.get("C").splitlines()[-1], len(moves), moves[-3:])
'''


def real_sgfmill():
    try:
        from sgfmill import boards, sgf, sgf_moves
    except ImportError:
        need(False, "sgfmill is not installed (pip install sgfmill)")
    return sgf, sgf_moves, boards


def readable_by_sgfmill(paths, want):
    """The first `want` of `paths` that sgfmill reads and replays (setup
    legal, no setup after the root) with at most 26 points a side."""
    sgf, sgf_moves, _ = real_sgfmill()
    found = []
    for p in paths:
        try:
            game = sgf.Sgf_game.from_bytes(p.read_bytes())
            sgf_moves.get_setup_and_moves(game)
            game.get_komi(), game.get_handicap()
        except (ValueError, KeyError, IndexError):
            continue
        found.append(p)
        if len(found) == want:
            break
    return found


def go_files(corpus: Path, step: int):
    files = sorted(p for p in corpus.rglob("*.sgf") if "benzene-hex" not in p.parts)
    return files[::step]


def run_both(script: Path, args, tmp_path: Path):
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    real = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=600)
    ours = subprocess.run([sys.executable, "-m", "sgf_grove.sgfmill", str(script), *args],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    # Each program names the module it got on stderr's first line.
    assert real.stderr.splitlines()[0].startswith("sgfmill"), real.stderr[-2000:]
    assert ours.stderr.splitlines()[0].startswith("sgf_grove.sgfmill"), ours.stderr[-2000:]
    return real, ours


def test_replay_loop_as_sgfmill(corpus, tmp_path):
    files = readable_by_sgfmill(go_files(corpus, 97), 150)
    assert len(files) >= 100
    script = tmp_path / "replay.py"
    script.write_text(REPLAY)
    real, ours = run_both(script, [str(p) for p in files], tmp_path)
    assert real.returncode == 0, real.stderr[-2000:]
    assert ours.returncode == 0, ours.stderr[-2000:]
    assert real.stdout.count("\n") > 10000
    assert ours.stdout == real.stdout


def test_show_position_as_sgfmill(corpus, tmp_path):
    files = readable_by_sgfmill(go_files(corpus, 211), 12)
    assert files
    script = tmp_path / "show.py"
    script.write_text(SHOW)
    for path in files:
        for before in (1, 40, 100000):
            real, ours = run_both(script, [str(path), str(before)], tmp_path)
            assert (ours.returncode, ours.stdout) == (real.returncode, real.stdout), path


def test_split_collection_as_sgfmill(corpus, tmp_path):
    files = readable_by_sgfmill(go_files(corpus, 401), 8)
    assert len(files) >= 4
    collection = tmp_path / "collection.sgf"
    collection.write_bytes(b"\n".join(p.read_bytes().strip() for p in files) + b"\n")
    script = tmp_path / "split.py"
    script.write_text(SPLIT)
    (tmp_path / "real").mkdir()
    (tmp_path / "ours").mkdir()
    env = dict(os.environ)
    real = subprocess.run([sys.executable, str(script), str(collection), str(tmp_path / "real")],
                          capture_output=True, text=True, env=env, timeout=600)
    ours = subprocess.run([sys.executable, "-m", "sgf_grove.sgfmill", str(script), str(collection),
                           str(tmp_path / "ours")], capture_output=True, text=True, env=env, timeout=600)
    assert real.returncode == 0, real.stderr[-2000:]
    assert ours.returncode == 0, ours.stderr[-2000:]
    assert ours.stdout == real.stdout
    assert ours.stdout.count("\n") == len(files)
    # What the drop-in wrote, read by the real sgfmill: the same games.
    sgf, _, _ = real_sgfmill()
    for i in range(1, len(files) + 1):
        mine = sgf.Sgf_game.from_bytes((tmp_path / "ours" / f"game_{i}.sgf").read_bytes())
        theirs = sgf.Sgf_game.from_bytes((tmp_path / "real" / f"game_{i}.sgf").read_bytes())
        assert [n.get_move() for n in mine.get_main_sequence()] == [
            n.get_move() for n in theirs.get_main_sequence()
        ]
        mine_root, theirs_root = mine.get_root().get_raw_property_map(), theirs.get_root().get_raw_property_map()
        # An edited game whose text is not ASCII and that has no CA gets the
        # CA sgf-grove read it in (documented in sgf_grove.sgfmill.sgf).
        if "CA" not in theirs_root:
            assert mine_root.pop("CA", [b"UTF-8"]) == [b"UTF-8"]
        assert mine_root == theirs_root


def test_module_runner_usage_and_argv(tmp_path):
    script = tmp_path / "argv.py"
    script.write_text("import sys, sgfmill\nprint(sys.argv[1:], sgfmill.__name__, __name__)\n")
    done = subprocess.run([sys.executable, "-m", "sgf_grove.sgfmill", str(script), "a", "--b"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['a', '--b'] sgf_grove.sgfmill __main__"
    usage = subprocess.run([sys.executable, "-m", "sgf_grove.sgfmill"], capture_output=True, text=True, timeout=60)
    assert usage.returncode == 2 and "usage" in usage.stderr
    missing = subprocess.run([sys.executable, "-m", "sgf_grove.sgfmill", str(tmp_path / "nope.py")],
                             capture_output=True, text=True, timeout=60)
    assert missing.returncode == 2 and "no such script" in missing.stderr


def test_install_and_uninstall_give_back_the_real_sgfmill():
    import sgf_grove.sgfmill as drop_in

    real_sgf, _, _ = real_sgfmill()
    real = sys.modules["sgfmill"]
    drop_in.install()
    try:
        import sgfmill
        from sgfmill import boards, sgf

        assert sgfmill is drop_in and sgf is drop_in.sgf and boards is drop_in.boards
        assert sys.modules["sgfmill.sgf_moves"] is drop_in.sgf_moves
        assert drop_in.installed()
        drop_in.install()  # a second call changes nothing
        assert sys.modules["sgfmill"] is drop_in
    finally:
        drop_in.uninstall()
    assert not drop_in.installed()
    assert sys.modules["sgfmill"] is real and sys.modules["sgfmill.sgf"] is real_sgf
    from sgfmill import sgf as again

    assert again is real_sgf


@pytest.mark.parametrize(
    "data",
    [
        b"(;SZ[9]AB[aa][bb]AW[cc];B[dd];W[];B[tt])",
        b"(;SZ[9];B[aa];AB[cc];W[bb])",  # setup after the root
        b"(;SZ[9]AB[aa];B[bb])",  # setup then a move after it
        b"(;SZ[9]AB[aa]B[bb];W[cc])",  # setup and a move in the root
        b"(;SZ[9]AB[ab][ba]AW[aa])",  # a setup without liberties
        b"(;SZ[9];B[zz])",  # a move off the board
        b"(;SZ[9];B[abc])",  # a move of three letters
        b"(;SZ[21];B[tt];W[])",  # tt is a point on 21x21
        b"(;SZ[9];C[x];B[ee]W[dd];W[aa](;B[bb])(;B[cc]))",
    ],
)
def test_get_setup_and_moves_as_sgfmill(data):
    """The drop-in's one-call read of the main line (its own games) and
    its generic loop (any other game object) against sgfmill's."""
    from sgf_grove.sgfmill import sgf as our_sgf, sgf_moves as our_moves

    real_sgf, real_moves, _ = real_sgfmill()

    def run(sgf_mod, moves_mod, wrap=False):
        game = sgf_mod.Sgf_game.from_bytes(data)
        if wrap:
            # A subclass takes the generic path.
            game.__class__ = type("Other", (sgf_mod.Sgf_game,), {})
        try:
            board, plays = moves_mod.get_setup_and_moves(game)
        except ValueError as e:
            return "ValueError", str(e) if "setup" in str(e) else ""
        return plays, board.list_occupied_points()

    theirs = run(real_sgf, real_moves)
    assert run(our_sgf, our_moves) == theirs
    assert run(our_sgf, our_moves, wrap=True) == theirs


def test_readme_example_runs_as_written():
    """The README's drop-in example, run as it is written there, prints
    what sgfmill prints for the same program."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme.split("### A drop-in for sgfmill", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    ours = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert ours.returncode == 0, ours.stderr
    real_sgfmill()
    as_sgfmill = "\n".join(line for line in code.splitlines() if "sgf_grove" not in line)
    real = subprocess.run([sys.executable, "-c", as_sgfmill], capture_output=True, text=True, timeout=60)
    assert real.returncode == 0, real.stderr
    assert ours.stdout == real.stdout
    assert "7.0" in ours.stdout
