"""How fast is the 2048 engine? Moves per second of `move`, and of whole random games.

Measured side by side in one run:

- `move` (memoised lines) against the reference it is built on: the same one-pass slide applied
  line by line with no memo (what `move` costs on a board it has never seen);
- `legal_moves` and `spawn`;
- whole seeded games with `Game.play` (history for undo, score, spawn) under a random player.

Times are CPU seconds of this process (time.process_time), so a busy machine skews them less.

Run: ``.venv/bin/python benchmarks/bench_2048.py [--quick]``
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tilelab.game2048 import Board, Direction, Game, legal_moves, line_cells, play, spawn
from tilelab.game2048.rules import slide_memo

SEED = 2048
TILE_CHOICES = (0, 0, 0, 0, 2, 2, 4, 4, 8, 16, 32, 64, 128, 256)


def random_boards(count: int, size: int = 4, seed: int = SEED) -> list[Board]:
    """Seeded boards with about 30% blanks and tiles up to 256."""
    rng = np.random.default_rng(seed)
    return [Board(rng.choice(TILE_CHOICES, size=(size, size))) for _ in range(count)]


def reference_move(board: Board, direction: Direction) -> Board:
    """The slide applied line by line with no memo."""
    n = board.size
    new = [[0] * n for _ in range(n)]
    for cells in line_cells(n, direction):
        row = slide_memo.__wrapped__(tuple(board[cell] for cell in cells)).row  # the rule, memo bypassed
        for (r, c), v in zip(cells, row):
            new[r][c] = v
    return Board(new)


def rate(func, items, repeat: int = 3) -> float:
    """Best of ``repeat`` runs: calls per second of ``func(item)`` over ``items``."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for item in items:
            func(item)
        best = min(best, time.process_time() - start)
    return len(items) / best


def random_games(count: int, seed: int = SEED) -> tuple[int, float, list[int]]:
    """Play ``count`` seeded games with a uniformly random legal swipe; (moves, seconds, scores)."""
    rng = np.random.default_rng(seed)
    moves, scores = 0, []
    start = time.process_time()
    for _ in range(count):
        game = Game(rng=int(rng.integers(1 << 31)))
        while True:
            options = game.legal_moves()
            if not options:
                break
            game.play(options[int(rng.integers(len(options)))])
        moves += game.moves_played
        scores.append(game.score)
    return moves, time.process_time() - start, scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer boards and games")
    args = parser.parse_args()
    n_boards = 2000 if args.quick else 10000
    n_games = 20 if args.quick else 100

    print(f"2048 engine benchmark ({n_boards} seeded 4x4 boards, {n_games} random games)")
    for size in (4, 8):
        boards = random_boards(n_boards // (1 if size == 4 else 4), size=size)
        pairs = [(b, d) for b in boards for d in Direction]
        cold = rate(lambda p: reference_move(*p), pairs, repeat=1)
        play(pairs[0][0], pairs[0][1])
        warm = rate(lambda p: play(*p), pairs)
        print(f"  {size}x{size} move, reference (no memo) {cold:10,.0f} moves/s")
        print(f"  {size}x{size} move, memoised lines      {warm:10,.0f} moves/s   ratio {warm / cold:5.1f}x")
    boards = random_boards(n_boards)
    print(f"  legal_moves                      {rate(legal_moves, boards):10,.0f} boards/s")
    rng = np.random.default_rng(SEED)
    open_boards = [b for b in boards if b.empty_cells()]
    print(f"  spawn (sampled from outcomes)    {rate(lambda b: spawn(b, rng=rng), open_boards):10,.0f} spawns/s")
    moves, seconds, scores = random_games(n_games)
    print(f"  random games with Game.play      {moves / seconds:10,.0f} moves/s "
          f"({n_games / seconds:,.1f} games/s, {moves / n_games:.0f} moves and score {np.mean(scores):.0f} per game)")


if __name__ == "__main__":
    main()
