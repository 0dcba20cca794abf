"""Warm-up exercises for ``00_start_here``: how a self-checking exercise feels.

>>> from tilelab.exercises import check
>>> check("largest_tile", lambda rows: max(max(row) for row in rows)).passed
True
>>> r = check("largest_tile", lambda rows: max(rows[0]))
>>> r.passed, r.counterexample is not None
(False, True)
"""

from __future__ import annotations

import numpy as np

from tilelab.exercises import Result, checker, first_counterexample
from tilelab.game2048.bitboard import empty_cells as _empty_cells_bits
from tilelab.game2048.bitboard import max_tile_bits as _max_tile_bits
from tilelab.game2048.core import Board as _Board2048

# the package's own answers: an exercise answer that calls them does not pass
_LARGEST = (_Board2048.max_tile.fget, _max_tile_bits)
_EMPTY = (_Board2048.empty_cells, _empty_cells_bits)


def _random_rows(count: int, seed: int = 2048) -> list[tuple[tuple[int, ...], ...]]:
    """Seeded 4x4 boards as tuples of rows (0 = empty), the smallest first."""
    rng = np.random.default_rng(seed)
    boards = [((0, 0, 0, 0),) * 4, ((2, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 4))]
    for _ in range(count):
        exps = rng.integers(0, 12, size=(4, 4))
        grid = np.where(exps == 0, 0, 2 ** exps.astype(np.int64))
        boards.append(tuple(tuple(int(v) for v in row) for row in grid))
    return boards


def _largest(rows: tuple[tuple[int, ...], ...]) -> int:
    return max(max(row) for row in rows)


def _empty(rows: tuple[tuple[int, ...], ...]) -> int:
    return sum(1 for row in rows for v in row if v == 0)


@checker("largest_tile", forbid=_LARGEST)
def check_largest_tile(answer) -> Result:
    """``answer(rows) -> int``: the largest tile on a 2048 board given as rows (0 = empty)."""
    return first_counterexample("largest_tile", answer, _largest, _random_rows(500))


@checker("count_empty", forbid=_EMPTY)
def check_count_empty(answer) -> Result:
    """``answer(rows) -> int``: how many empty cells a 2048 board has (where a new tile may spawn)."""
    return first_counterexample("count_empty", answer, _empty, _random_rows(500))
