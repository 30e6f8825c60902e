"""Games per second of sgf_grove's scans on the shared corpus, beside
sgfmill doing the same work.

    python python/benches/scan.py [CORPUS] [--sample N]

The work, per game: its game information (players, ranks, komi, result,
date, board size) and its main-line moves. Measured, each on one worker
and on all cores:

- ``scan``: ``sgf_grove.scan()`` yields each game as a ``Game``, and
  Python reads ``game.info`` and each main-line node's ``move``;
- ``scan_batch``: the same games and fields, the moves read in one call
  (``game.moves_array()``, a numpy array): the common indexer loop;
- ``to_arrow``: ``sgf_grove.to_arrow()``, the games and moves tables
  built in Rust (no Python object per row);
- ``sgfmill``: every N-th file of the corpus read with
  ``sgf.Sgf_game.from_bytes``, its root's properties and its main
  sequence's moves read the same way; its games/s are extrapolated to
  the whole corpus from that sample (sgfmill is single-threaded).

Ratios are against sgfmill on one core. Each sgf_grove number is the
best of ``--runs`` runs (3) within one run of this script; sgfmill's is
one pass over its sample. Beside the wall-clock rate, each line gives
the rate per CPU second of the whole process (every thread counted), the
figure to compare on a machine whose cores are shared.
"""

import argparse
import os
import sys
import time
from pathlib import Path

import sgf_grove


def files(corpus: Path):
    return sorted(p for p in corpus.rglob("*") if p.is_file())


def read_info(game):
    """What an indexer reads of a game's information."""
    info = game.info
    return (info.black.name, info.white.name, info.black.rank, info.white.rank,
            info.komi, info.result, info.date, info.size)


def bench_scan(corpus, workers):
    start = time.perf_counter()
    games = moves = 0
    for game in sgf_grove.scan(corpus, workers=workers):
        read_info(game)
        for node in game.main_line():
            try:
                if node.move is not None:
                    moves += 1
            except sgf_grove.SgfError:  # a malformed move, as sgfmill's below
                pass
        games += 1
    return games, moves, time.perf_counter() - start


def bench_scan_batch(corpus, workers):
    start = time.perf_counter()
    games = moves = 0
    for game in sgf_grove.scan(corpus, workers=workers):
        read_info(game)
        moves += len(game.moves_array())
        games += 1
    return games, moves, time.perf_counter() - start


def bench_arrow(corpus, workers):
    start = time.perf_counter()
    tables = sgf_grove.to_arrow(corpus, workers=workers)
    return tables.games.num_rows, tables.moves.num_rows, time.perf_counter() - start


def bench_sgfmill(paths):
    from sgfmill import sgf

    start = time.perf_counter()
    games = moves = failed = 0
    for path in paths:
        try:
            game = sgf.Sgf_game.from_bytes(path.read_bytes())
        except Exception:  # sgfmill refuses what it cannot read
            failed += 1
            continue
        root = game.get_root()
        for ident in ("PB", "PW", "BR", "WR", "KM", "RE", "DT"):
            try:
                root.get(ident) if root.has_property(ident) else None
            except Exception:
                pass
        _ = game.get_size()
        try:
            for node in game.get_main_sequence():
                colour, move = node.get_move()
                if colour is not None:
                    moves += 1
        except Exception:
            failed += 1
            continue
        games += 1
    return games, moves, failed, time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
    parser.add_argument("corpus", nargs="?", type=Path, default=default)
    parser.add_argument("--sample", type=int, default=20, help="sgfmill reads every N-th file")
    parser.add_argument("--runs", type=int, default=3, help="best of this many runs")
    args = parser.parse_args()
    if not args.corpus.is_dir():
        sys.exit(f"no corpus at {args.corpus}")
    cores = os.cpu_count() or 1
    print(f"corpus {args.corpus}: {len(files(args.corpus))} files; {cores} cores")
    # Warm the page cache.
    for p in files(args.corpus):
        p.read_bytes()
    results = {}
    benches = (("scan", bench_scan), ("scan_batch", bench_scan_batch), ("to_arrow", bench_arrow))
    for name, fn in benches:
        for workers in (1, cores):
            runs = []
            for _ in range(max(1, args.runs)):
                cpu = time.process_time()
                games, moves, secs = fn(args.corpus, workers)
                runs.append((games, moves, secs, time.process_time() - cpu))
            games, moves, secs, _ = min(runs, key=lambda r: r[2])
            cpu = min(r[3] for r in runs)
            results[(name, workers)] = (games / secs, games / cpu)
            print(f"{name:10} workers={workers}: {games} games, {moves} moves in {secs:.2f} s "
                  f"= {games / secs:,.0f} games/s; {cpu:.2f} CPU s = {games / cpu:,.0f} games/CPU s")
    sample = files(args.corpus)[:: args.sample]
    cpu = time.process_time()
    games, moves, failed, secs = bench_sgfmill(sample)
    cpu = time.process_time() - cpu
    rate, cpu_rate = games / secs, games / cpu
    print(f"sgfmill    one core: {games} games of a 1/{args.sample} sample ({failed} refused), "
          f"{moves} moves in {secs:.2f} s = {rate:,.0f} games/s, {cpu_rate:,.0f} games/CPU s "
          f"(whole corpus extrapolated: {len(files(args.corpus)) / rate:.1f} s)")
    for (name, workers), (ours, ours_cpu) in results.items():
        print(f"ratio {name} workers={workers} / sgfmill: {ours / rate:.0f}x wall, "
              f"{ours_cpu / cpu_rate:.0f}x CPU")


if __name__ == "__main__":
    main()
