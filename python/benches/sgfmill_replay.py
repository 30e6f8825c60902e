"""Load and replay N corpus files with sgfmill and with sgf-grove's
drop-in (``sgf_grove.sgfmill``), in one run of this script.

    python python/benches/sgfmill_replay.py [CORPUS] [--files N]

The work, per file, the same program for both (sgfmill's documented
replay loop): ``sgf.Sgf_game.from_bytes``, then
``sgf_moves.get_setup_and_moves``, then ``board.play`` for each move
(a ``ValueError`` from an occupied point counted and passed over). The
files are every k-th Go file of the corpus (Hex games left out), read
into memory first; a file sgfmill cannot load or replay is left out of
both runs, so both do the same games. Times are CPU seconds of this
process (``time.process_time``); the ratio is sgfmill's over the
drop-in's. Needs ``pip install sgfmill``.
"""

import argparse
import sys
import time
from pathlib import Path


def go_files(corpus: Path, want: int):
    paths = sorted(p for p in corpus.rglob("*.sgf") if "benzene-hex" not in p.parts)
    step = max(1, len(paths) // want)
    return paths[::step][:want]


def replay_all(sgf, sgf_moves, datas):
    """Loads and replays each file; returns (games, moves played,
    illegal moves, files refused)."""
    games = moves = illegal = refused = 0
    for data in datas:
        try:
            game = sgf.Sgf_game.from_bytes(data)
            board, plays = sgf_moves.get_setup_and_moves(game)
        except ValueError:
            refused += 1
            continue
        games += 1
        for colour, move in plays:
            if move is None:
                continue
            try:
                board.play(move[0], move[1], colour)
                moves += 1
            except ValueError:
                illegal += 1
    return games, moves, illegal, refused


def timed(sgf, sgf_moves, datas):
    start = time.process_time()
    counts = replay_all(sgf, sgf_moves, datas)
    return time.process_time() - start, counts


def main() -> int:
    here = Path(__file__).resolve()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", default=str(here.parents[3] / "shared" / "corpus"))
    parser.add_argument("--files", type=int, default=1000, help="files to load and replay (1000)")
    args = parser.parse_args()
    corpus = Path(args.corpus)
    if not corpus.is_dir():
        print(f"no corpus at {corpus}", file=sys.stderr)
        return 2
    try:
        from sgfmill import sgf as real_sgf, sgf_moves as real_moves
    except ImportError:
        print("sgfmill is not installed (pip install sgfmill)", file=sys.stderr)
        return 2
    from sgf_grove.sgfmill import sgf as our_sgf, sgf_moves as our_moves

    datas = [p.read_bytes() for p in go_files(corpus, args.files)]
    # The files sgfmill loads and replays: both runs do exactly these.
    kept = []
    for data in datas:
        try:
            real_moves.get_setup_and_moves(real_sgf.Sgf_game.from_bytes(data))
        except ValueError:
            continue
        kept.append(data)
    real_time, real_counts = timed(real_sgf, real_moves, kept)
    our_time, our_counts = timed(our_sgf, our_moves, kept)
    if real_counts != our_counts:
        print(f"the two runs differ: sgfmill {real_counts}, drop-in {our_counts}", file=sys.stderr)
        return 1
    games, moves, illegal, _ = real_counts
    size = sum(len(d) for d in kept)
    print(f"{games} games of {len(datas)} files ({size / 1e6:.1f} MB), {moves} moves played, {illegal} illegal")
    print(f"sgfmill:                {real_time:7.2f} s CPU  ({games / real_time:8.0f} games/s)")
    print(f"sgf_grove.sgfmill:      {our_time:7.2f} s CPU  ({games / our_time:8.0f} games/s)")
    print(f"ratio (sgfmill / drop-in): {real_time / our_time:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
