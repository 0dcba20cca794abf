"""Checkers for lesson 3 (the sliding puzzle's parity).

- ``"sliding.inversions"``: ``answer(puzzle) -> int``, the number of inversions (blank ignored).
- ``"sliding.is_solvable"``: ``answer(puzzle) -> bool``; checked against breadth-first search
  (the ground truth) on every 2x2, 2x3 and 3x2 board and a sample of 3x3 and 2x4 ones, then
  against the package on random boards from 3x3 to 6x6, square or not.
- ``"sliding.shuffle"``: ``answer(rows, cols, rng) -> Puzzle``: always solvable, every solvable
  2x2 and 2x3 board reachable, and close to uniform (a chi-square test).
- ``"sliding.multi_moves"``: ``answer(puzzle, tiles) -> int``, the multi-tile move count of the
  slides ``tiles`` (consecutive slides in the same direction merge), like ``count_moves(...).multi``.
- ``"sliding.even_share"``: ``answer(rows, cols) -> float``, the share of the solvable boards
  that are an even number of moves from the goal (5/9 on 3x3), checked against the BFS table.

>>> from tilelab.exercises import check
>>> from tilelab.sliding import inversions
>>> check("sliding.inversions", inversions).passed
True
>>> check("sliding.is_solvable", lambda p: True).counterexample is not None
True
"""

from __future__ import annotations

import itertools
from math import factorial, sqrt
from statistics import NormalDist
from typing import Any, Callable, Iterator

import numpy as np

from tilelab.exercises import Result, checker, first_counterexample
from tilelab.sliding import (
    Puzzle, count_moves, distance_table, inversions, is_solvable, rank, random_board,
)

SEED = 2024
RANDOM_SHAPES = [(3, 3), (4, 4), (5, 5), (6, 6), (3, 4), (4, 3), (2, 5), (5, 2), (3, 5), (4, 6)]
EXHAUSTIVE_SHAPES = [(2, 2), (2, 3), (3, 2)]
SAMPLED_TABLE_SHAPES = [(3, 3), (2, 4), (4, 2)]


def chi_square_critical(df: int, level: float = 0.999) -> float:
    """The ``level`` quantile of chi-square with ``df`` degrees of freedom (Wilson-Hilferty).

    Exact to about 0.1 for ``df`` in the hundreds; the tests check it against a million simulated draws.

    >>> round(chi_square_critical(359), 1)
    447.6
    """
    if df < 1 or not 0 < level < 1:
        raise ValueError(f"need df >= 1 and 0 < level < 1, got df={df}, level={level}")
    z = NormalDist().inv_cdf(level)
    return df * (1 - 2 / (9 * df) + z * sqrt(2 / (9 * df))) ** 3


# 99.9% quantile of chi-square with 359 degrees of freedom (360 solvable 2x3 boards): about 447.6
CHI2_2X3_999 = chi_square_critical(359, 0.999)


def _show(p: Puzzle) -> str:
    return f"the {p.rows}x{p.cols} board {p.tiles!r}\n{p}\n"


def _every_board(rows: int, cols: int) -> Iterator[Puzzle]:
    for tiles in itertools.permutations(range(rows * cols)):
        yield Puzzle(tiles, rows, cols)


def _random_boards(count: int) -> Iterator[Puzzle]:
    rng = np.random.default_rng(SEED)
    for k in range(count):
        rows, cols = RANDOM_SHAPES[k % len(RANDOM_SHAPES)]
        yield random_board(rows, cols, rng)


def _truth_value(value: Any) -> Any:
    """A bool (numpy's too) as a plain bool; anything else unchanged, so ``None`` is reported as ``None``."""
    return bool(value) if isinstance(value, (bool, np.bool_)) else value


@checker("sliding.inversions")
def check_inversions(answer: Callable[[Puzzle], Any]) -> Result:
    """Compare ``answer(puzzle)`` with :func:`tilelab.sliding.inversions`."""
    cases = itertools.chain(_every_board(2, 2), _random_boards(200))
    return first_counterexample("sliding.inversions", answer, inversions, cases, show=_show)


def _bfs_truth(p: Puzzle) -> bool:
    return bool(distance_table(p.rows, p.cols)[rank(p.tiles)] >= 0)


@checker("sliding.is_solvable")
def check_is_solvable(answer: Callable[[Puzzle], Any]) -> Result:
    """``answer(puzzle)`` must say whether the goal can be reached, for every shape."""
    name = "sliding.is_solvable"
    exhaustive = itertools.chain.from_iterable(_every_board(r, c) for r, c in EXHAUSTIVE_SHAPES)
    rng = np.random.default_rng(SEED)
    sampled = [random_board(r, c, rng) for r, c in SAMPLED_TABLE_SHAPES for _ in range(150)]
    truth = first_counterexample(
        name, lambda p: _truth_value(answer(p)), _bfs_truth, itertools.chain(exhaustive, sampled), show=_show
    )
    if not truth:
        return Result(name, False, truth.message.rstrip() + " (ground truth: breadth-first search)", truth.counterexample)
    bigger = first_counterexample(
        name, lambda p: _truth_value(answer(p)), is_solvable, _random_boards(300), show=_show
    )
    if not bigger:
        return bigger
    total = sum(factorial(r * c) for r, c in EXHAUSTIVE_SHAPES) + len(sampled) + 300
    return Result(
        name, True,
        f"agrees with breadth-first search on every 2x2, 2x3, 3x2 board and {len(sampled)} sampled "
        f"3x3/2x4/4x2 boards, and with the package on 300 boards up to 6x6 ({total} boards)",
    )


@checker("sliding.shuffle")
def check_shuffle(answer: Callable[[int, int, np.random.Generator], Any]) -> Result:
    """``answer(rows, cols, rng)`` must return a solvable Puzzle, drawn (close to) uniformly."""
    name = "sliding.shuffle"
    rng = np.random.default_rng(SEED)
    for rows, cols in [(2, 2), (2, 3), (3, 2), (3, 3), (4, 4), (3, 5), (5, 5)]:
        for _ in range(60):
            board = answer(rows, cols, rng)
            if not isinstance(board, Puzzle):
                return Result(name, False, f"return a Puzzle, got {type(board).__name__}")
            if board.shape != (rows, cols):
                return Result(name, False, f"asked for {rows}x{cols}, got {board.rows}x{board.cols}", board)
            if not is_solvable(board):
                return Result(name, False, f"this board cannot be solved: {_show(board)}", board)
    counts: dict[Puzzle, int] = {}
    draws = 18_000
    for _ in range(draws):
        board = answer(2, 3, rng)
        counts[board] = counts.get(board, 0) + 1
    solvable = factorial(6) // 2
    if len(counts) < solvable:
        return Result(
            name, False,
            f"only {len(counts)} of the {solvable} solvable 2x3 boards came up in {draws} shuffles: "
            "some boards are never (or rarely) dealt",
        )
    expected = draws / solvable
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    if chi2 > CHI2_2X3_999:
        return Result(
            name, False,
            f"every solvable board appears, but not equally often (chi-square {chi2:.0f} > "
            f"{CHI2_2X3_999:.1f}, the 0.1% critical value): a short random walk, for instance, stays near the goal",
        )
    return Result(name, True, f"always solvable, and uniform on 2x3 (chi-square {chi2:.0f} over {draws} shuffles)")


def _slide_sequences() -> Iterator[tuple[Puzzle, list[int]]]:
    """Hand-picked slide sequences (merges and near-merges) and seeded random ones."""
    g4 = Puzzle.goal(4, 4)
    yield g4, [13, 9, 10, 11]  # 10 then 11: one slide left
    yield g4, [12, 11]  # down, then right
    yield g4, [15, 15]  # right and straight back: two moves
    yield g4, []
    rng = np.random.default_rng(SEED)
    for k in range(300):
        rows, cols = [(3, 3), (4, 4), (2, 5), (5, 3)][k % 4]
        board = start = random_board(rows, cols, rng) if k % 2 else Puzzle.goal(rows, cols)
        tiles = []
        for _ in range(int(rng.integers(1, 25))):
            # mostly single-tile slides, so that same-direction runs are common
            legal = board.neighbour_tiles() if rng.random() < 0.7 else board.legal_tiles()
            tile = legal[int(rng.integers(len(legal)))]
            tiles.append(tile)
            board = board.slide(tile)
        yield start, tiles


def _show_slides(case: tuple[Puzzle, list[int]]) -> str:
    board, tiles = case
    return f"the slides {tiles} from\n{board}\n"


@checker("sliding.multi_moves")
def check_multi_moves(answer: Callable[[Puzzle, list[int]], Any]) -> Result:
    """``answer(puzzle, tiles)`` must count multi-tile moves as :func:`tilelab.sliding.count_moves` does."""
    return first_counterexample(
        "sliding.multi_moves",
        lambda case: answer(case[0], list(case[1])),
        lambda case: count_moves(case[0], case[1]).multi,
        _slide_sequences(),
        show=_show_slides,
    )


def _even_share_truth(shape: tuple[int, int]) -> float:
    table = distance_table(*shape)
    solvable = table[table >= 0]
    return float(np.mean(solvable % 2 == 0))


def _cell_colour_share(shape: tuple[int, int]) -> float:
    """Share of cells an even taxicab distance from the bottom-right corner (the blank's goal)."""
    rows, cols = shape
    return sum((rows - 1 - r + cols - 1 - c) % 2 == 0 for r in range(rows) for c in range(cols)) / (rows * cols)


@checker("sliding.even_share")
def check_even_share(answer: Callable[[int, int], Any]) -> Result:
    """``answer(rows, cols)``: share of solvable boards at even distance (BFS truth up to 10 cells)."""
    name = "sliding.even_share"
    small = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)]
    big = [(r, c) for r in range(3, 8) for c in range(3, 8) if r * c > 10]
    for shape in small + big:
        truth, how = (
            (_even_share_truth(shape), "breadth-first search finds")
            if shape in small else (_cell_colour_share(shape), "expected")
        )
        try:
            got = float(answer(*shape))
        except Exception as exc:  # reported, never raised
            return Result(name, False, f"on {shape[0]}x{shape[1]} your function raised {exc!r}", shape)
        if abs(got - truth) > 1e-9:
            return Result(
                name, False,
                f"on {shape[0]}x{shape[1]} you returned {got:.6f}; {how} {truth:.6f} "
                "of the solvable boards at an even distance", shape,
            )
    return Result(name, True, f"agrees with breadth-first search on {len(small)} shapes and the colouring on {len(big)} bigger ones")
