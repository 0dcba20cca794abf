"""Statistics for the lesson: how often a stable board is dead, how long cascades run."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from tilelab._random import as_generator
from tilelab.match3.core import Board, _check_kinds
from tilelab.match3.fast import any_move, count_dead, list_moves, swap_array
from tilelab.match3.generate import _check_size, new_board, reshuffle_report


def dead_fraction(rows: int, cols: int, kinds: int, samples: int, rng: object) -> float:
    """Share of random no-run deals (as :func:`stable_board` makes them) with no legal move.

    >>> dead_fraction(5, 5, 7, 2000, rng=0) > dead_fraction(9, 9, 4, 2000, rng=0)
    True
    """
    rows, cols = _check_size(rows, cols)
    kinds = _check_kinds(kinds)
    if samples < 1:
        raise ValueError(f"samples={samples}: need at least one board")
    u = as_generator(rng).random((samples, rows * cols))
    return count_dead(rows, cols, kinds, u) / samples


def dead_table(sizes: Sequence[int], kinds: Sequence[int], samples: int, rng: object) -> np.ndarray:
    """``table[i, j]`` = dead fraction of ``sizes[i] x sizes[i]`` boards with ``kinds[j]`` kinds."""
    rng = as_generator(rng)
    return np.array([[dead_fraction(n, n, k, samples, rng) for k in kinds] for n in sizes])


def cascade_lengths(rows: int, cols: int, kinds: int, moves: int, rng: object) -> np.ndarray:
    """Play ``moves`` random legal swaps (reshuffling dead boards); cascade steps of each.

    >>> lengths = cascade_lengths(8, 8, 6, 200, rng=0)
    >>> len(lengths), bool(lengths.min() >= 1)
    (200, True)
    """
    rng = as_generator(rng)
    board = new_board(rows, cols, kinds, rng)
    grid = board.to_array()
    out = np.empty((2 * rows * cols, 4), np.int64)
    lengths = np.empty(moves, np.int64)
    for i in range(moves):
        if not any_move(grid):
            grid = reshuffle_report(Board.from_array(grid, kinds), rng).board.to_array()
        n = list_moves(grid, out)
        r1, c1, r2, c2 = out[int(rng.integers(n))]
        _, _, lengths[i] = swap_array(grid, (r1, c1), (r2, c2), kinds, rng)
    return lengths
