"""Sliding-puzzle engine speed: the 8-puzzle's full BFS, is_solvable and slide calls per second.

Run: .venv/bin/python benchmarks/bench_sliding.py   (prints absolute figures and fast/reference ratios
measured side by side in this run)
"""

from __future__ import annotations

import subprocess
import sys
import time
from typing import Callable

import numpy as np

from tilelab.sliding import (
    Board,
    bfs_distances,
    corner_formula,
    distance_table,
    is_solvable,
    play,
    random_board,
    shuffle,
    solvable_by_invariant,
)


def per_second(func: Callable[[], object], seconds: float = 1.0) -> float:
    """Calls of ``func`` per second, measured for about ``seconds``."""
    calls, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(100):
            func()
        calls += 100
    return calls / elapsed


def first_build_seconds(rows: int, cols: int, metric: str) -> float:
    """Seconds ``distance_table`` takes to build its (cached) table, in a fresh Python process."""
    code = ("import time; from tilelab.sliding import distance_table; start = time.perf_counter(); "
            f"distance_table({rows}, {cols}, {metric!r}); print(time.perf_counter() - start)")
    return float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)


def bench_bfs() -> None:
    print("== 8-puzzle: breadth-first search over the whole state space ==")
    fast = first_build_seconds(3, 3, "single")
    table = distance_table(3, 3)
    start = time.perf_counter()
    reference = bfs_distances(Board.goal(3, 3))
    slow = time.perf_counter() - start
    assert len(reference) == int((table >= 0).sum()) == 181_440
    print(f"numpy layer-at-a-time table : {fast:6.2f} s  (181,440 states, max depth {table.max()})")
    print(f"readable queue + dict BFS   : {slow:6.2f} s")
    print(f"ratio                       : {slow / fast:6.1f}x faster")
    print(f"multi-tile metric table     : {first_build_seconds(3, 3, 'multi'):6.2f} s")
    start = time.perf_counter()
    distance_table(2, 5)
    print(f"2x5 table (1,814,400 states): {time.perf_counter() - start:6.2f} s")


def bench_solvable() -> None:
    print("\n== is_solvable calls per second (random boards) ==")
    rng = np.random.default_rng(0)
    for rows, cols in [(3, 3), (4, 4), (6, 6)]:
        boards = [random_board(rows, cols, rng=rng) for _ in range(256)]
        goal = Board.goal(rows, cols)
        it = iter(range(10**12))
        width = per_second(lambda: is_solvable(boards[next(it) % 256]))
        invariant = per_second(lambda: solvable_by_invariant(boards[next(it) % 256], goal))
        corner = per_second(lambda: corner_formula(boards[next(it) % 256]))
        print(f"{rows}x{cols}: width rule {width:>10,.0f}/s | goal-independent invariant "
              f"{invariant:>10,.0f}/s | Puzzle8 corner formula {corner:>10,.0f}/s")


def bench_slide() -> None:
    print("\n== moves per second ==")
    for rows, cols in [(3, 3), (4, 4)]:
        board = shuffle(rows, cols, rng=1)
        legal = board.legal_moves()
        neighbour = board.neighbour_tiles()[0]
        far = max(legal, key=lambda t: play(board, t).single_moves)
        single = per_second(lambda: board.slide(neighbour))
        segment = per_second(lambda: board.slide(far))
        event = per_second(lambda: play(board, far))
        expand = per_second(lambda: list(board.neighbours()))
        print(f"{rows}x{cols}: slide(one tile) {single:>9,.0f}/s | slide(segment of "
              f"{play(board, far).single_moves}) {segment:>9,.0f}/s | play -> Slide event "
              f"{event:>9,.0f}/s | neighbours() {expand:>9,.0f}/s")
    tiles = Board.goal(4, 4).tiles
    print(f"Board(tiles, 4, 4) validated construction: {per_second(lambda: Board(tiles, 4, 4)):,.0f}/s")


def bench_shuffle() -> None:
    print("\n== shuffles per second (4x4) ==")
    rng = np.random.default_rng(0)
    for method in ("uniform", "reject", "walk", "walk-balanced"):
        rate = per_second(lambda: shuffle(4, 4, rng=rng, method=method), seconds=0.5)
        extra = " (256 moves each)" if method.startswith("walk") else ""
        print(f"{method:14s} {rate:>9,.0f}/s{extra}")


if __name__ == "__main__":
    bench_bfs()
    bench_solvable()
    bench_slide()
    bench_shuffle()
