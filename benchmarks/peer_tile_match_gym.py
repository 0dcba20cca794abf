"""Run INSIDE the peer venv (benchmarks/.peers/venv) by bench_match3.py: times tile-match-gym's
``Board.move`` and counts swaps where it leaves a match the player made uncleared.

Prints one JSON object. Not imported by tilelab; tile-match-gym is never a tilelab dependency.
"""

from __future__ import annotations

import json
import statistics
import sys
import time

import numpy as np
from tile_match_gym.board import Board, is_move_effective, swap_coords


def legal_moves(board: Board) -> list:
    return [m for m in board.action_to_coords if is_move_effective(board.board, m[0], m[1])]


def runs(grid: np.ndarray) -> list:
    """Every run of 3+ (colour plane only) on the board, any height."""
    rows, cols = grid.shape
    out = []
    for r in range(rows):
        c = 0
        while c < cols:
            e = c
            while e + 1 < cols and grid[r, e + 1] == grid[r, c]:
                e += 1
            if e - c >= 2 and grid[r, c] > 0:
                out.append([(r, i) for i in range(c, e + 1)])
            c = e + 1
    for c in range(cols):
        r = 0
        while r < rows:
            e = r
            while e + 1 < rows and grid[e + 1, c] == grid[r, c]:
                e += 1
            if e - r >= 2 and grid[r, c] > 0:
                out.append([(i, c) for i in range(r, e + 1)])
            r = e + 1
    return out


def time_moves(n: int, seed: int, rows: int, cols: int, colours: int) -> list[float]:
    rng = np.random.default_rng(seed)
    board = Board(rows, cols, colours, np_random=np.random.default_rng(seed))
    board.generate_board()
    board.move(*legal_moves(board)[0])  # warm up numba
    times = []
    for _ in range(n):
        moves = legal_moves(board)
        m = moves[int(rng.integers(len(moves)))]
        t0 = time.perf_counter()
        board.move(*m)
        times.append(time.perf_counter() - t0)
    return times


def lowest_level_misses(n: int, seed: int, rows: int, cols: int, colours: int) -> dict:
    """Replay Board.move's own loop (specials off) while tagging the player's matched candies."""
    rng = np.random.default_rng(seed)
    board = Board(rows, cols, colours, colourless_specials=[], colour_specials=[],
                  np_random=np.random.default_rng(seed))
    board.generate_board()
    missed = two_levels = 0
    for _ in range(n):
        moves = legal_moves(board)
        m = moves[int(rng.integers(len(moves)))]
        swap_coords(board.board, m[0], m[1])
        tag = np.zeros((rows, cols), np.int64)
        player = runs(board.board[0])
        for run in player:
            for cell in run:
                tag[cell] = 1
        if len({run[-1][0] for run in player}) > 1:
            two_levels += 1
        while True:
            locs, types, colours_ = board.detect_colour_matches()
            if not locs:
                break
            for loc in locs:
                for cell in loc:
                    tag[cell] = 0
            board.resolve_colour_matches(locs, types, colours_)
            empty = (board.board[0] == 0) & (board.board[1] == 0)
            tag[empty] = 0
            for j in range(cols):  # the same stable partition as Board.gravity
                column = tag[:, j]
                tag[:, j] = np.concatenate([column[empty[:, j]], column[~empty[:, j]]])
            board.gravity()
            board.refill()
        if tag.any():
            missed += 1
        while not board.possible_move() or board.get_colour_lines():  # as Board.move ends
            lines = board.get_colour_lines()
            if lines:
                board.remove_colour_lines(lines)
            else:
                board.shuffle()
    return {"swaps": n, "missed": missed, "player_matches_at_two_heights": two_levels}


def main() -> None:
    n, seed = int(sys.argv[1]), int(sys.argv[2])
    times = time_moves(n, seed, 8, 8, 6)
    misses = [lowest_level_misses(200, seed + i, 8, 8, 6) for i in range(int(sys.argv[3]))]
    from importlib.metadata import version

    print(json.dumps({
        "version": version("tile-match-gym"),
        "move_us_median": statistics.median(times) * 1e6,
        "move_us_mean": statistics.mean(times) * 1e6,
        "moves_timed": n,
        "lowest_level": misses,
    }))


if __name__ == "__main__":
    main()
