"""Replays main lines with sgfmill's board, for `cargo bench --bench board`.

Reads the moves the bench wrote (one game per line: the board's side, then
`b x y`, `w x y`, or `b -` for a pass), builds every sgfmill `Board`
once per round, plays every move and prints the seconds the replay took
(the reading of the file excluded). A move on an occupied point (sgfmill
refuses it) puts the stone there, as the Rust side does.

Usage: python3 sgfmill_replay.py MOVES_FILE ROUNDS
"""

import sys
import time

from sgfmill import boards


def load(path):
    games = []
    with open(path) as f:
        for line in f:
            tokens = line.split()
            side = int(tokens[0])
            moves = []
            for i in range(1, len(tokens), 3):
                colour = tokens[i]
                if tokens[i + 1] == "-":
                    moves.append((colour, None, None))
                else:
                    x, y = int(tokens[i + 1]), int(tokens[i + 2])
                    # sgfmill counts rows from the bottom.
                    moves.append((colour, side - 1 - y, x))
            games.append((side, moves))
    return games


def replay(games):
    for side, moves in games:
        board = boards.Board(side)
        for colour, row, col in moves:
            if row is None:
                continue
            try:
                board.play(row, col, colour)
            except ValueError:
                board.board[row][col] = colour


def main():
    games = load(sys.argv[1])
    rounds = int(sys.argv[2])
    start = time.perf_counter()
    for _ in range(rounds):
        replay(games)
    print(time.perf_counter() - start)


if __name__ == "__main__":
    main()
