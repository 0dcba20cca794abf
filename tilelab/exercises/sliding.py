"""Checkers for lessons 3a and 3c (the sliding puzzle's parity, and fair shuffles).

- ``"sliding.inversions"``: ``answer(board) -> int``, the number of inversions (blank ignored),
  on every 2x2 and 2x3 board and 200 random boards up to 6x6.
- ``"sliding.is_solvable"``: ``answer(board) -> bool``; checked against breadth-first search
  (the ground truth) on every 2x2, 2x3 and 3x2 board and samples of 3x3, 2x4 and 4x2 ones, then
  against the package on random boards from 3x3 to 6x6, square or not.
- ``"sliding.shuffle"``: ``answer(rows, cols, rng) -> Board``: always solvable, driven by ``rng``
  alone, every solvable 2x3 board dealt about equally often, and on 3x3 and 4x4 every tile equally
  often in every cell (3x3: each distance from the goal as often as the exact table says).
- ``"sliding.multi_moves"``: ``answer(board, tiles) -> int``, the multi-tile move count of the
  slides ``tiles`` (consecutive slides in the same direction merge), like ``count_moves(...).multi``.
- ``"sliding.even_share"``: ``answer(rows, cols) -> float``, the share of the solvable boards
  that are an even number of moves from the goal (5/9 on 3x3), checked against the BFS table.

An answer may build and read boards (and use what its exercise offers, see :data:`ALLOW`); calling
any other tilelab function, the one the exercise asks for above all, does not pass:

>>> from tilelab.exercises import allow_package_calls, check
>>> from tilelab.sliding import inversions
>>> check("sliding.inversions", inversions).passed
False
>>> with allow_package_calls():
...     check("sliding.inversions", inversions).passed
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

from tilelab import IN_BROWSER
from tilelab.exercises import Result, case_seed, checker, first_counterexample
from tilelab.exercises.allow import NUMPY, PUZZLE, Kit
from tilelab.sliding import (
    Board, count_moves, distance_histogram, distance_table, inversions, is_solvable, rank, random_board,
)

SEED = 2024
RANDOM_SHAPES = [(3, 3), (4, 4), (5, 5), (6, 6), (3, 4), (4, 3), (2, 5), (5, 2), (3, 5), (4, 6)]
EXHAUSTIVE_SHAPES = [(2, 2), (2, 3), (3, 2)]
SAMPLED_TABLE_SHAPES = [(3, 3), (2, 4), (4, 2)]
#: Each uniformity test of ``sliding.shuffle`` fails a fair shuffle by chance once in 10,000 runs.
SHUFFLE_LEVEL = 0.9999
# Deals per uniformity test: a check stays within seconds (Board's own checks and the call watch
# cost about half a millisecond a deal here; the browser runs Python 5-30x slower, so it deals fewer).
SHUFFLE_DEALS = ({"2x3": 3_600, "3x3": 1_500, "4x4": 600} if IN_BROWSER
                 else {"2x3": 5_400, "3x3": 3_000, "4x4": 1_500})
#: Every solvable board must come up when each is expected this often (a fair deal misses one
#: of the 360 2x3 boards with chance 360 * exp(-15), below 1 in 10,000).
COVERAGE_MIN_EXPECTED = 15

_S = "tilelab.sliding:"
#: What each exercise's answer may call: boards built and read, numpy, and what the exercise offers
#: (``inversions`` for is_solvable and shuffle, ``play`` for multi_moves). Everything else of tilelab's
#: (``is_solvable`` itself, ``permutation_parity`` and ``blank_distance``, ``shuffle``, ``count_moves``,
#: the distance tables) is delegation.
ALLOW = {
    "inversions": (PUZZLE, NUMPY),
    "is_solvable": (PUZZLE, _S + "inversions", NUMPY),
    # moving tiles is fine (a walk is a shuffle, a biased one): the package's deals and walks are not
    "shuffle": (PUZZLE, Kit("moves (swap_tiles, play, a Board's slide)", (
        _S + "Board[swap_tiles slide legal_moves neighbour_tiles neighbours]", _S + "play", _S + "Slide[*]")),
        _S + "is_solvable", _S + "inversions", NUMPY),
    "multi_moves": (PUZZLE, Kit("moves (play, a Board's slide and legal_moves)", (
        _S + "play", _S + "Slide[*]", _S + "legal_moves",
        _S + "Board[slide legal_moves neighbour_tiles tile_for legal_directions]")), NUMPY),
    "even_share": (PUZZLE, NUMPY),
}


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


def _show(p: Board) -> str:
    """A board as its monospace picture (the result draws it under the message)."""
    return f"{p}\n"


def _sized(result: Result, board: Board | None) -> Result:
    """Name the counterexample's shape in the message ("on the 2x3 board below")."""
    if result.passed or board is None:
        return result
    message = result.message.replace("on the board below", f"on the {board.rows}x{board.cols} board below", 1)
    return Result(result.name, False, message, result.counterexample, result.picture)


def _every_board(rows: int, cols: int) -> Iterator[Board]:
    for tiles in itertools.permutations(range(rows * cols)):
        yield Board.trusted(tiles, rows, cols, tiles.index(0))


def _random_boards(count: int) -> Iterator[Board]:
    rng = np.random.default_rng(case_seed(SEED))
    for k in range(count):
        rows, cols = RANDOM_SHAPES[k % len(RANDOM_SHAPES)]
        yield random_board(rows, cols, rng=rng)


def _truth_value(value: Any) -> Any:
    """A bool (numpy's too) as a plain bool; anything else unchanged, so ``None`` is reported as ``None``."""
    return bool(value) if isinstance(value, (bool, np.bool_)) else value


@checker("sliding.inversions", allow=ALLOW["inversions"], job=("tilelab.sliding:inversions",))
def check_inversions(answer: Callable[[Board], Any]) -> Result:
    """Compare ``answer(board)`` with :func:`tilelab.sliding.inversions` (every 2x2 and 2x3 board first)."""
    cases = itertools.chain(_every_board(2, 2), _every_board(2, 3), _random_boards(200))
    result = first_counterexample("sliding.inversions", answer, inversions, cases, show=_show)
    return _sized(result, result.counterexample)


def _bfs_truth(p: Board) -> bool:
    return bool(distance_table(p.rows, p.cols)[rank(p.tiles)] >= 0)


@checker("sliding.is_solvable", allow=ALLOW["is_solvable"], job=("tilelab.sliding:is_solvable",))
def check_is_solvable(answer: Callable[[Board], Any]) -> Result:
    """``answer(board)`` must say whether the goal can be reached, for every shape."""
    name = "sliding.is_solvable"
    exhaustive = itertools.chain.from_iterable(_every_board(r, c) for r, c in EXHAUSTIVE_SHAPES)
    rng = np.random.default_rng(case_seed(SEED))
    sampled = [random_board(r, c, rng=rng) for r, c in SAMPLED_TABLE_SHAPES for _ in range(150)]
    truth = first_counterexample(
        name, lambda p: _truth_value(answer(p)), _bfs_truth, itertools.chain(exhaustive, sampled), show=_show
    )
    if not truth:
        return _sized(truth, truth.counterexample)
    bigger = first_counterexample(
        name, lambda p: _truth_value(answer(p)), is_solvable, _random_boards(300), show=_show
    )
    if not bigger:
        return _sized(bigger, bigger.counterexample)
    total = sum(factorial(r * c) for r, c in EXHAUSTIVE_SHAPES) + len(sampled) + 300
    return Result(
        name, True,
        f"agrees with breadth-first search on every 2x2, 2x3, 3x2 board and {len(sampled)} sampled "
        f"3x3/2x4/4x2 boards, and with the rule on 300 boards up to 6x6 ({total} boards)",
    )


class _NotYet(Exception):
    """A shuffle's first failure: the message (and board) to report."""

    def __init__(self, message: str, board: Any = None) -> None:
        super().__init__(message)
        self.board = board


def _deal(answer: Callable[..., Any], rows: int, cols: int, rng: np.random.Generator) -> Board:
    board = answer(rows, cols, rng)
    if not isinstance(board, Board):
        raise _NotYet(f"return a Board, got {type(board).__name__}")
    if board.shape != (rows, cols):
        raise _NotYet(f"asked for {rows}x{cols}, got {board.rows}x{board.cols}", board)
    if not is_solvable(board):
        raise _NotYet(f"this {rows}x{cols} board cannot be solved:", board)
    return board


def _chi2(observed: np.ndarray, expected: np.ndarray) -> float:
    return float(((observed - expected) ** 2 / expected).sum())


def _every_board_test(answer: Callable[..., Any], rows: int, cols: int, rng: np.random.Generator) -> str:
    """Deal many ``rows x cols`` boards: every solvable board must come up, about equally often."""
    deals = SHUFFLE_DEALS[f"{rows}x{cols}"]
    counts: dict[Board, int] = {}
    for _ in range(deals):
        board = _deal(answer, rows, cols, rng)
        counts[board] = counts.get(board, 0) + 1
    solvable = factorial(rows * cols) // 2
    if deals / solvable >= COVERAGE_MIN_EXPECTED and len(counts) < solvable:
        raise _NotYet(
            f"only {len(counts)} of the {solvable} solvable {rows}x{cols} boards came up in {deals:,} "
            "shuffles: some boards are never (or rarely) dealt"
        )
    observed = np.array(list(counts.values()) + [0] * (solvable - len(counts)), dtype=float)
    chi2, limit = _chi2(observed, np.full(solvable, deals / solvable)), chi_square_critical(solvable - 1, SHUFFLE_LEVEL)
    if chi2 > limit:
        fair = deals / solvable
        board = max(counts, key=lambda b: counts[b])
        near = int(distance_table(rows, cols)[rank(board.tiles)])
        hint = (f" It is only {near} move{'s' if near != 1 else ''} from the goal: a walk from the goal stays near it."
                if near <= 4 else "")
        raise _NotYet(
            f"every solvable {rows}x{cols} board comes up, but not equally often: the board below came up "
            f"{counts[board]} times in {deals:,} shuffles, where a fair shuffle deals each about {fair:.0f} times "
            f"(counts this uneven happen by chance less than once in 10,000 checks).{hint}", board
        )
    return f"{rows}x{cols}"


def _tile_cell_test(answer: Callable[..., Any], rows: int, cols: int, rng: np.random.Generator) -> str:
    """Every tile (and the blank) equally often in every cell; on 3x3 also the exact distance spread."""
    deals, n = SHUFFLE_DEALS[f"{rows}x{cols}"], rows * cols
    where = np.zeros((n, n))
    ranks = []
    for _ in range(deals):
        board = _deal(answer, rows, cols, rng)
        where[list(board.tiles), np.arange(n)] += 1
        if rows * cols <= 9:
            ranks.append(rank(board.tiles))
    chi2, limit = _chi2(where, np.full((n, n), deals / n)), chi_square_critical((n - 1) ** 2, SHUFFLE_LEVEL)
    if chi2 > limit:
        tile, cell = np.unravel_index(np.argmax(np.abs(where - deals / n)), where.shape)
        what = "the blank" if tile == 0 else f"tile {tile}"
        raise _NotYet(
            f"on {rows}x{cols} some tiles sit in some cells too often or too rarely: {what} was in cell "
            f"{divmod(int(cell), cols)} {where[tile, cell] / deals:.1%} of the time, not {1 / n:.1%} "
            f"(this far off happens by chance less than once in 10,000 checks)"
        )
    if ranks:
        histogram = distance_histogram(rows, cols).astype(float)
        dealt = np.bincount(distance_table(rows, cols)[np.array(ranks)], minlength=histogram.size).astype(float)
        expected = deals * histogram / histogram.sum()
        # merge the rare distances at both ends so every group expects at least 20 boards
        low = int(np.argmax(np.cumsum(expected) >= 20))
        high = int(histogram.size - 1 - np.argmax(np.cumsum(expected[::-1]) >= 20))
        groups = lambda v: np.concatenate([[v[: low + 1].sum()], v[low + 1 : high], [v[high:].sum()]])
        chi2 = _chi2(groups(dealt), groups(expected))
        limit = chi_square_critical(high - low, SHUFFLE_LEVEL)
        if chi2 > limit:
            raise _NotYet(
                f"on {rows}x{cols} the dealt boards' distances from the goal are not spread as in a fair deal "
                f"(mean {np.average(np.arange(dealt.size), weights=dealt):.2f} moves, fair "
                f"{np.average(np.arange(histogram.size), weights=histogram):.2f})"
            )
    return f"{rows}x{cols}"


@checker("sliding.shuffle", allow=ALLOW["shuffle"], job=("tilelab.sliding:shuffle",))
def check_shuffle(answer: Callable[[int, int, np.random.Generator], Any]) -> Result:
    """``answer(rows, cols, rng)`` must return a solvable Board, drawn uniformly, from ``rng`` alone."""
    name = "sliding.shuffle"
    rng = np.random.default_rng(case_seed(SEED))
    try:
        for rows, cols in [(2, 2), (2, 3), (3, 2), (3, 3), (4, 4), (3, 5), (5, 5)]:
            for _ in range(60):
                _deal(answer, rows, cols, rng)
        for seed in range(3):
            first, again = (_deal(answer, 3, 3, np.random.default_rng(seed)) for _ in range(2))
            if first != again:
                raise _NotYet("two calls with the same seeded rng dealt different boards: draw every "
                              "random number from the rng you are given")
        tested = [_every_board_test(answer, 2, 3, rng), _tile_cell_test(answer, 3, 3, rng),
                  _tile_cell_test(answer, 4, 4, rng)]
    except _NotYet as failed:
        board = failed.board if isinstance(failed.board, Board) else None
        return Result(name, False, str(failed), failed.board, str(board) if board is not None else None)
    return Result(
        name, True,
        f"always solvable and fair: every 2x3 board equally often, every tile in every cell "
        f"equally often on {' and '.join(tested[1:])}, and 3x3 distances spread as in a fair deal "
        f"({sum(SHUFFLE_DEALS.values()):,} shuffles)",
    )


def _slide_sequences() -> Iterator[tuple[Board, list[int]]]:
    """Hand-picked slide sequences (merges and near-merges), smallest first, then seeded random ones."""
    g4 = Board.goal(4, 4)
    yield g4, []
    yield g4, [15, 15]  # right and straight back: two moves
    yield g4, [12, 11]  # down, then right
    yield g4, [13, 9, 10, 11]  # 10 then 11: one slide left
    rng = np.random.default_rng(case_seed(SEED))
    for k in range(300):
        rows, cols = [(3, 3), (4, 4), (2, 5), (5, 3)][k % 4]
        board = start = random_board(rows, cols, rng=rng) if k % 2 else Board.goal(rows, cols)
        tiles = []
        for _ in range(int(rng.integers(1, 25))):
            # mostly single-tile slides, so that same-direction runs are common
            legal = board.neighbour_tiles() if rng.random() < 0.7 else board.legal_moves()
            tile = legal[int(rng.integers(len(legal)))]
            tiles.append(tile)
            board = board.slide(tile)
        yield start, tiles


def _show_slides(case: tuple[Board, list[int]]) -> str:
    board, tiles = case
    return f"slides {tiles} from\n{board}\n"


@checker("sliding.multi_moves", allow=ALLOW["multi_moves"], job=("tilelab.sliding:count_moves",))
def check_multi_moves(answer: Callable[[Board, list[int]], Any]) -> Result:
    """``answer(board, tiles)`` must count multi-tile moves as :func:`tilelab.sliding.count_moves` does."""
    result = first_counterexample(
        "sliding.multi_moves",
        lambda case: answer(case[0], list(case[1])),
        lambda case: count_moves(case[0], case[1]).multi,
        _slide_sequences(),
        show=_show_slides,
    )
    if result.passed:
        return result
    tiles = result.counterexample[1]
    message = result.message.replace("on the board below", f"on the slides {tiles} from the board below", 1)
    picture = str(result.counterexample[0])
    return Result(result.name, False, message, result.counterexample, picture)


def _even_share_truth(shape: tuple[int, int]) -> float:
    table = distance_table(*shape)
    solvable = table[table >= 0]
    return float(np.mean(solvable % 2 == 0))


def _cell_colour_share(shape: tuple[int, int]) -> float:
    """Share of cells an even taxicab distance from the bottom-right corner (the blank's goal)."""
    rows, cols = shape
    return sum((rows - 1 - r + cols - 1 - c) % 2 == 0 for r in range(rows) for c in range(cols)) / (rows * cols)


@checker("sliding.even_share", allow=ALLOW["even_share"], job=("tilelab.sliding:distance_table",))
def check_even_share(answer: Callable[[int, int], Any]) -> Result:
    """``answer(rows, cols)``: share of solvable boards at even distance (BFS truth up to 10 cells)."""
    name = "sliding.even_share"
    small = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)]
    big = [(r, c) for r in range(2, 9) for c in range(2, 9) if r * c > 10]
    for shape in small + big:
        truth, how = (
            (_even_share_truth(shape), "breadth-first search finds")
            if shape in small else (_cell_colour_share(shape), "the colouring gives")
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
