"""Checkers for lessons 3a and 3c (the sliding puzzle's parity, fair shuffles); lesson 3b's search: sliding_bfs.

- ``"sliding.inversions"``: ``answer(board) -> int``, the number of inversions (blank ignored),
  on every 2x2 and 2x3 board and 200 random boards up to 6x6.
- ``"sliding.is_solvable"``: ``answer(board) -> bool``; checked against breadth-first search
  (the ground truth) on every 2x2, 2x3 and 3x2 board and samples of 3x3, 2x4 and 4x2 ones, then
  against the package on random boards from 3x3 to 6x6, square or not.
- ``"sliding.shuffle"``: ``answer(rows, cols, rng) -> Board``: always solvable, driven by ``rng``
  alone, every solvable 2x2 and 2x3 board dealt about equally often, and on 2x3, 3x3 and 4x4 the
  blank and every tile equally often in every cell (3x3: each distance from the goal as often as the
  exact table says; 4x4: the tiles as far from their goal cells as in a fair deal). Decided by
  behaviour, from a fixed seed: the same answer always gets the same verdict, and a fair one fails by
  chance less than once in 10,000 checks.
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
from math import exp, factorial, lgamma, log, sqrt
from statistics import NormalDist
from typing import Any, Callable, Iterator

import numpy as np

from tilelab import IN_BROWSER
from tilelab.exercises import Result, case_seed, checker, first_counterexample
from tilelab.exercises.allow import NUMPY, PUZZLE, Kit
from tilelab.sliding import (
    Board, count_moves, distance_histogram, distance_table, inversions, is_solvable, manhattan, rank, random_board,
)

SEED = 2024
RANDOM_SHAPES = [(3, 3), (4, 4), (5, 5), (6, 6), (3, 4), (4, 3), (2, 5), (5, 2), (3, 5), (4, 6)]
EXHAUSTIVE_SHAPES = [(2, 2), (2, 3), (3, 2)]
SAMPLED_TABLE_SHAPES = [(3, 3), (2, 4), (4, 2)]
#: Each uniformity test of ``sliding.shuffle`` fails a fair shuffle by chance once in a million looks;
#: the forty-odd looks of a check together, less than once in 10,000. The cases come from a fixed seed,
#: so a given answer gets the same verdict every time it is checked.
SHUFFLE_LEVEL = 0.999999
#: After how many deals of each shape the shuffle check looks at the counts (a walk, slow to deal, is
#: refused at an early look). A check stays within seconds: Board's own checks and the call watch cost
#: about half a millisecond a deal here; the browser runs Python 5-30x slower, so it deals fewer.
SHUFFLE_LOOKS = ({"2x2": (50, 150), "2x3": (300, 600, 900, 1_800, 3_600), "3x3": (500, 1_500), "4x4": (300, 600)}
                 if IN_BROWSER else
                 {"2x2": (50, 150), "2x3": (300, 600, 900, 1_800, 3_600, 5_400), "3x3": (1_000, 3_000),
                  "4x4": (500, 1_500)})
SHUFFLE_DEALS = {shape: looks[-1] for shape, looks in SHUFFLE_LOOKS.items()}

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
        _S + "is_solvable", _S + "inversions", _S + "random_board", NUMPY),  # random_board: section 1's deal
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


def every_board(rows: int, cols: int) -> Iterator[Board]:
    """Every arrangement of a ``rows x cols`` board, solvable or not, in rank order (:func:`tilelab.sliding.rank`)."""
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
    cases = itertools.chain(every_board(2, 2), every_board(2, 3), _random_boards(200))
    result = first_counterexample("sliding.inversions", answer, inversions, cases, show=_show)
    return _sized(result, result.counterexample)


def _bfs_truth(p: Board) -> bool:
    return bool(distance_table(p.rows, p.cols)[rank(p.tiles)] >= 0)


@checker("sliding.is_solvable", allow=ALLOW["is_solvable"], job=("tilelab.sliding:is_solvable",))
def check_is_solvable(answer: Callable[[Board], Any]) -> Result:
    """``answer(board)`` must say whether the goal can be reached, for every shape."""
    name = "sliding.is_solvable"
    exhaustive = itertools.chain.from_iterable(every_board(r, c) for r, c in EXHAUSTIVE_SHAPES)
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
    """A shuffle's first failure: the message, and the board (or another picture) to draw under it."""

    def __init__(self, message: str, board: Any = None, picture: str | None = None) -> None:
        super().__init__(message)
        self.board = board
        self.picture = picture if picture is not None else (str(board) if isinstance(board, Board) else None)


def _deal(answer: Callable[..., Any], rows: int, cols: int, rng: np.random.Generator) -> Board:
    board = answer(rows, cols, rng)
    if not isinstance(board, Board):
        raise _NotYet(f"return a Board, got {type(board).__name__}")
    if board.shape != (rows, cols):
        raise _NotYet(f"asked for {rows}x{cols}, got {board.rows}x{board.cols}", board)
    if not is_solvable(board):
        names = getattr(getattr(answer, "__code__", None), "co_names", ())  # what the answer's own code names
        kept = (" (swap_tiles returns a new board: is it kept, board = board.swap_tiles(a, b)?)"
                if "swap_tiles" in names else "")
        raise _NotYet(f"this {rows}x{cols} board cannot be solved{kept}:", board)
    return board


def _chi2(observed: np.ndarray, expected: np.ndarray) -> float:
    return float(((observed - expected) ** 2 / expected).sum())


def _too_uneven(statistic: float, df: int) -> bool:
    """Whether a chi-square ``statistic`` is one a fair deal reaches less often than once in a million."""
    return statistic > chi_square_critical(df, SHUFFLE_LEVEL)


def _poisson_tail(mean: float, at_least: int) -> float:
    """P(X >= at_least) for a Poisson ``mean``: a fair deal's chance to miss that many boards (a slight overestimate)."""
    if at_least <= 0:
        return 1.0
    if mean <= 0:
        return 0.0
    term = exp(-mean + at_least * log(mean) - lgamma(at_least + 1))
    total, k = 0.0, at_least
    while term > total * 1e-12 and k < at_least + 10_000:
        total += term
        k += 1
        term *= mean / k
    return min(1.0, total)


_SOLVABLE: dict[tuple[int, int], list[tuple[int, Board]]] = {}


def _solvable_boards(rows: int, cols: int) -> list[tuple[int, Board]]:
    """``(moves to the goal, board)`` for every solvable ``rows x cols`` board, nearest the goal first."""
    if (rows, cols) not in _SOLVABLE:
        table = distance_table(rows, cols)
        boards = [(int(table[k]), board) for k, board in enumerate(every_board(rows, cols)) if table[k] >= 0]
        _SOLVABLE[rows, cols] = sorted(boards, key=lambda pair: pair[0])  # stable: rank order within a distance
    return _SOLVABLE[rows, cols]


def _share_grid(shares: np.ndarray, cols: int) -> str:
    """Shares of the deals, one per cell, drawn as the board's grid of percentages (a check's picture)."""
    cells = [f"{100 * s:4.1f}%" for s in shares]
    return "\n".join(" ".join(cells[k : k + cols]) for k in range(0, len(cells), cols)) + "\n"


def _missing_test(counts: dict[Board, int], where: np.ndarray, deals: int, rows: int, cols: int) -> None:
    """Boards that never came up, more than a fair deal would miss: say which, and why when we can tell."""
    solvable = _solvable_boards(rows, cols)
    missing = [(moves, board) for moves, board in solvable if board not in counts]
    fair_missing = len(solvable) * (1 - 1 / len(solvable)) ** deals  # how many a fair deal misses, on average
    if _poisson_tail(fair_missing, len(missing)) > 1 - SHUFFLE_LEVEL:
        return
    shape, n = f"{rows}x{cols}", rows * cols
    blank_cells = {cell for cell in range(n) if where[0, cell] > 0}
    colour = {sum(divmod(cell, cols)) % 2 for cell in blank_cells}
    one_colour = [cell for cell in range(n) if sum(divmod(cell, cols)) % 2 in colour]
    parities = {moves % 2 for moves, board in solvable if board in counts}
    if len(parities) == 1 and sorted(blank_cells) == one_colour:  # a walk of fixed length: one colour, every cell of it
        moves, board = next(pair for pair in missing if pair[0] % 2 not in parities)
        message = (f"every board you dealt on {shape} is an {'even' if 0 in parities else 'odd'} number of moves from "
                   f"the goal, so the board below ({moves} move{'s' * (moves != 1)} away) never came up in {deals:,} "
                   "deals: a walk of a fixed number of moves deals one parity only.")
    elif len(blank_cells) < n:
        cell = min(set(range(n)) - blank_cells)
        moves, board = next(pair for pair in missing if pair[1].blank_index == cell)
        message = (f"in {deals:,} deals on {shape} the blank never landed in cell {divmod(cell, cols)}, so the board "
                   "below never came up, nor any other with the blank there. A fair deal puts the blank in every cell "
                   "equally often.")
    else:
        moves, board = missing[0]
        message = (f"only {len(counts)} of the {len(solvable)} solvable {shape} boards came up in {deals:,} deals (a "
                   f"fair deal shows about {len(solvable) - fair_missing:.0f} of them); the board below never did.")
    raise _NotYet(message, board)


def _cells_test(where: np.ndarray, deals: int, rows: int, cols: int) -> None:
    """The blank, then every tile, in every cell about equally often (each deal is one board)."""
    n = rows * cols
    fair = deals / n
    blank = _too_uneven(_chi2(where[0], np.full(n, fair)), n - 1)
    # every tile in every cell: a deal fills each row and column of ``where`` once, so the statistic is
    # (n / (n - 1)) chi-square with (n - 1)^2 degrees of freedom (exact on 2x3 and 3x3; 2x2 is too small)
    tiles = n >= 6 and _too_uneven((n - 1) / n * _chi2(where, np.full((n, n), fair)), (n - 1) ** 2)
    if blank or tiles:
        tile = 0 if blank else int(np.unravel_index(np.argmax(np.abs(where - fair)), where.shape)[0])
        what = "the blank" if tile == 0 else f"tile {tile}"
        # the blank most often where it has the most neighbours: the mark of a long walk
        neighbours = np.array([(r > 0) + (r < rows - 1) + (c > 0) + (c < cols - 1)
                               for r in range(rows) for c in range(cols)])
        most, fewest = neighbours == neighbours.max(), neighbours == neighbours.min()
        walk = tile == 0 and not most.all() and where[0][most].min() > where[0][fewest].max()
        raise _NotYet(
            f"on {rows}x{cols} {what} lands in some cells too often, in others too rarely: below, its share of your "
            f"{deals:,} deals in each cell, where a fair deal gives {1 / n:.1%} each. A fair deal is this uneven less "
            "than once in a million checks." + (" A walk favours the cells with more neighbours." if walk else ""),
            picture=_share_grid(where[tile] / deals, cols),
        )


def _boards_test(counts: dict[Board, int], deals: int, rows: int, cols: int) -> None:
    """Every solvable board about equally often (once each is expected often enough for chi-square)."""
    solvable = _solvable_boards(rows, cols)
    fair = deals / len(solvable)
    observed = np.array([counts.get(board, 0) for _, board in solvable], dtype=float)
    if fair < 10 or not _too_uneven(_chi2(observed, np.full(len(solvable), fair)), len(solvable) - 1):
        return
    board = max(counts, key=lambda b: counts[b])
    mean = float(np.dot([moves for moves, _ in solvable], observed)) / deals
    fair_mean = float(np.mean([moves for moves, _ in solvable]))
    hint = (f" Your boards are {mean:.1f} moves from the goal on average, a fair deal's {fair_mean:.1f}: a walk from "
            "the goal stays near it." if mean < fair_mean - 1 else "")
    raise _NotYet(
        f"every solvable {rows}x{cols} board comes up, but not equally often: the board below came up "
        f"{counts[board]} times in {deals:,} deals, where a fair deal gives each about {fair:.0f} times "
        f"(counts this uneven happen by chance less than once in a million checks).{hint}", board
    )


def _distances_test(counts: dict[Board, int], deals: int, rows: int, cols: int) -> None:
    """The dealt boards' distances from the goal spread as the exact table says."""
    histogram = distance_histogram(rows, cols).astype(float)
    table = distance_table(rows, cols)
    dealt = np.zeros(histogram.size)
    for board, count in counts.items():
        dealt[table[rank(board.tiles)]] += count
    expected = deals * histogram / histogram.sum()
    # merge the rare distances at both ends so every group expects at least 20 boards
    low = int(np.argmax(np.cumsum(expected) >= 20))
    high = int(histogram.size - 1 - np.argmax(np.cumsum(expected[::-1]) >= 20))
    groups = lambda v: np.concatenate([[v[: low + 1].sum()], v[low + 1 : high], [v[high:].sum()]])
    if _too_uneven(_chi2(groups(dealt), groups(expected)), high - low):
        raise _NotYet(
            f"on {rows}x{cols} the dealt boards' distances from the goal are not spread as in a fair deal "
            f"(mean {np.average(np.arange(dealt.size), weights=dealt):.2f} moves, fair "
            f"{np.average(np.arange(histogram.size), weights=histogram):.2f})"
        )


def _spread_test(counts: dict[Board, int], deals: int, rows: int, cols: int) -> None:
    """Boards too big for a table: the tiles, all told, as far from their goal cells as in a fair deal.

    In a fair deal every tile is in every cell equally often, so the mean Manhattan distance is exact; a walk
    too short to forget the goal (a lazy walk of a thousand moves on 4x4, say) deals boards closer to it.
    """
    n = rows * cols
    fair = sum(abs(cell // cols - (tile - 1) // cols) + abs(cell % cols - (tile - 1) % cols)
               for tile in range(1, n) for cell in range(n)) / n
    values = np.repeat([manhattan(board) for board in counts], list(counts.values())).astype(float)
    mean, spread = float(values.mean()), float(values.std(ddof=1))
    if spread == 0 or abs(mean - fair) < NormalDist().inv_cdf(1 - (1 - SHUFFLE_LEVEL) / 2) * spread / sqrt(deals):
        return
    nearest = min(counts, key=manhattan) if mean < fair else max(counts, key=manhattan)
    raise _NotYet(
        f"on {rows}x{cols} your tiles are on average {mean:.1f} rows and columns (added up) from their goal cells, "
        f"a fair deal's {fair:.1f}: your boards are too {'close to' if mean < fair else 'far from'} the goal, like "
        "the one below (a gap this big happens by chance less than once in a million checks).", nearest
    )


def _uniform_test(answer: Callable[..., Any], rows: int, cols: int, rng: np.random.Generator) -> str:
    """Deal ``rows x cols`` boards in rounds (:data:`SHUFFLE_LOOKS`) and after each round refuse what a fair deal
    almost never does: one board each time; on 2x2 and 2x3 boards never dealt, or dealt unequally often; the
    blank or a tile in some cells too often; on 3x3 distances spread unlike the exact table's; on bigger boards
    tiles too close to (or far from) their goal cells."""
    n, shape = rows * cols, f"{rows}x{cols}"
    counts: dict[Board, int] = {}
    where = np.zeros((n, n))
    deals = 0
    for look in SHUFFLE_LOOKS[shape]:
        while deals < look:
            board = _deal(answer, rows, cols, rng)
            counts[board] = counts.get(board, 0) + 1
            where[list(board.tiles), np.arange(n)] += 1
            deals += 1
        if len(counts) == 1:
            raise _NotYet(f"all {deals:,} deals on {shape} gave the board below: deal a different board each time, "
                          "drawing the random numbers from rng", board)
        if n <= 6:
            _missing_test(counts, where, deals, rows, cols)
        _cells_test(where, deals, rows, cols)
        if n <= 6:
            _boards_test(counts, deals, rows, cols)
        elif n <= 9:
            _distances_test(counts, deals, rows, cols)
        else:
            _spread_test(counts, deals, rows, cols)
    return shape


@checker("sliding.shuffle", allow=ALLOW["shuffle"], job=("tilelab.sliding:shuffle",))
def check_shuffle(answer: Callable[[int, int, np.random.Generator], Any]) -> Result:
    """``answer(rows, cols, rng)`` must return a solvable Board, drawn uniformly, from ``rng`` alone.

    Decided by what the answer deals from one fixed seed (so an answer gets the same verdict every time):
    every 2x2 and 2x3 board about equally often, the blank and every tile in every cell about equally often
    on 2x3, 3x3 and 4x4, 3x3 distances spread as the exact table says, and on 4x4 the tiles as far from their
    goal cells as in a fair deal. Smallest shape first; deals come in rounds, so a walk (slow to deal) is
    usually refused after a few hundred.
    """
    name = "sliding.shuffle"
    rng = np.random.default_rng(case_seed(SEED))
    try:
        for _ in range(60):
            _deal(answer, 2, 2, rng)
        for seed in range(3):
            first, again = (_deal(answer, 2, 3, np.random.default_rng(seed)) for _ in range(2))
            if first != again:
                raise _NotYet("two calls with the same seeded rng dealt different boards: draw every "
                              "random number from the rng you are given")
        small = [_uniform_test(answer, 2, 2, rng), _uniform_test(answer, 2, 3, rng)]
        for rows, cols in [(3, 2), (3, 3), (4, 4), (3, 5), (5, 5)]:
            for _ in range(60):
                _deal(answer, rows, cols, rng)
        tested = [_uniform_test(answer, 3, 3, rng), _uniform_test(answer, 4, 4, rng)]
    except _NotYet as failed:
        return Result(name, False, str(failed), failed.board, failed.picture)
    return Result(
        name, True,
        f"always solvable and fair: every {' and '.join(small)} board equally often, the blank and every tile "
        f"in every cell equally often on 2x3, {' and '.join(tested)}, and the 3x3 distances and the 4x4 tiles' "
        f"distances from home as in a fair deal ({sum(SHUFFLE_DEALS.values()):,} shuffles)",
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
