"""Shuffling a sliding puzzle: the ways real apps do it, all seeded, all solvable.

- ``"uniform"``: draw a random permutation; if it is unsolvable, swap the two numbered tiles in
  the first two non-blank cells. For a fixed blank cell that swap pairs every unsolvable board
  with exactly one solvable board, so the result is uniform over the solvable boards.
- ``"reject"``: draw random permutations until one is solvable (the iOS Puzzle8 loop). Also
  uniform; needs two draws on average.
- ``"walk"``: random single-tile moves from the goal (the iOS Puzzle8 article's second method),
  never stepping straight back (as the Swift PuzzleProject). Solvable by construction but *not*
  uniform: short walks stay near the goal, and a walk of fixed length only reaches boards whose
  distance has the parity of that length (on 3x3 an 81-move walk misses the 5/9 at even distance).
  Even a coin flip between 81 and 82 moves stays 1/9 from uniform in total variation, because walks
  favour boards whose blank has more neighbours (``walk_distribution`` computes it exactly).
- ``"walk-balanced"``: the Swift PuzzleProject's walk, which prefers moving the blank into the
  cells it has visited least, so every cell gets moved about equally often.

:func:`puzzle8_walk` is the iOS Puzzle8 article's walk as written there: draw one of four
directions for the blank and, when the blank cannot go that way, turn to the next direction
(up, down, left, right, up, ...). The turn makes some moves likelier than others (from the
top-right corner the blank goes down 3 times in 4); lesson 03c measures the bias.

:func:`random_board` is the naive shuffle (a random permutation, unchecked) that gives
unsolvable boards half the time -- the bug the lesson reproduces.

>>> print(shuffle(3, 3, rng=1))
7 . 1
4 2 5
8 6 3
>>> shuffle(3, 3, rng=1) == shuffle(3, 3, rng=1)
True
"""

from __future__ import annotations

import numpy as np

from tilelab.randomness import RngLike, as_generator
from tilelab.inputs import as_int
from tilelab.sliding.core import BLANK, Board, check_shape, require_board
from tilelab.sliding.parity import is_solvable

__all__ = ["METHODS", "PUZZLE8_ORDER", "default_walk_steps", "puzzle8_walk", "random_board", "random_walk", "shuffle"]

METHODS = ("uniform", "reject", "walk", "walk-balanced")
MAX_REJECT_DRAWS = 10_000  # the chance of needing more is 2**-10000
#: Longest random walk accepted: the default walk of a 32x32 board, ``1024**2`` steps (a few seconds in Python).
MAX_WALK_STEPS = 1024**2
# The iOS Puzzle8 walk's directions for the *blank*, in the order it tries them: (row step, col step).
PUZZLE8_ORDER: tuple[tuple[int, int], ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))  # up, down, left, right


def random_board(rows: int, cols: int, *, rng: RngLike) -> Board:
    """A uniformly random arrangement of the tiles, solvable or not (the naive shuffle).

    >>> from tilelab.sliding import is_solvable
    >>> boards = [random_board(3, 3, rng=seed) for seed in range(1000)]
    >>> sum(map(is_solvable, boards))   # about half
    501
    """
    rows, cols = check_shape(rows, cols)
    gen = as_generator(rng)
    tiles = tuple(int(t) for t in gen.permutation(rows * cols))
    return Board.trusted(tiles, rows, cols, tiles.index(BLANK))


def _fix_parity(board: Board) -> Board:
    """Swap the tiles in the first two non-blank cells (flips solvability)."""
    first, second = [t for t in board.tiles if t != BLANK][:2]
    return board.swap_tiles(first, second)


def default_walk_steps(rows: int, cols: int) -> int:
    """The iOS article's walk length: the square of the number of cells (81 for 3x3)."""
    return (rows * cols) ** 2


def random_walk(
    board: Board,
    steps: int,
    *,
    rng: RngLike,
    balanced: bool = False,
) -> list[int]:
    """The tiles slid by a random walk of ``steps`` single-tile moves from ``board``.

    The walk never moves the tile it just moved straight back. With ``balanced=True`` the
    blank prefers the neighbouring cells it has visited least (ties broken at random), as the
    Swift PuzzleProject does, so all cells get stirred.

    >>> tiles = random_walk(Board.goal(3, 3), 6, rng=0)
    >>> tiles
    [8, 5, 2, 1, 4, 7]
    >>> print(Board.goal(3, 3).play_all(tiles))
    4 1 3
    7 2 6
    . 5 8
    """
    board, steps = _walk_start(board, steps)
    return _walk(board, steps, as_generator(rng), balanced)[0]


def _walk(board: Board, steps: int, gen: np.random.Generator, balanced: bool) -> tuple[list[int], Board]:
    """:func:`random_walk`'s path and the board it ends on (built once, not slide by slide)."""
    rows, cols = board.shape
    around = [_adjacent(cell, rows, cols) for cell in range(board.cell_count)]
    tiles = list(board.tiles)
    visits = [0] * board.cell_count
    blank = board.blank_index
    visits[blank] = 1
    previous = -1  # the blank's previous cell: going back there would undo the last move
    path: list[int] = []
    for u in gen.random(int(steps)):
        options = [cell for cell in around[blank] if cell != previous]
        if balanced:
            fewest = min(visits[cell] for cell in options)
            options = [cell for cell in options if visits[cell] == fewest]
        cell = options[int(u * len(options))]
        path.append(tiles[cell])
        tiles[blank], tiles[cell] = tiles[cell], BLANK
        previous, blank = blank, cell
        visits[blank] += 1
    return path, Board.trusted(tuple(tiles), rows, cols, blank)


def puzzle8_walk(board: Board, steps: int, *, rng: RngLike) -> list[int]:
    """The tiles slid by the iOS Puzzle8 walk: a random blank direction, turned to the next one while blocked.

    Each step draws ``d = rng.integers(4)`` (blank up, down, left, right); while the blank cannot
    go that way it tries ``(d + 1) % 4``. It may step straight back.

    >>> tiles = puzzle8_walk(Board.goal(3, 3), 4, rng=0)
    >>> tiles
    [6, 5, 4, 7]
    >>> print(Board.goal(3, 3).play_all(tiles))
    1 2 3
    7 4 5
    . 8 6
    """
    board, steps = _walk_start(board, steps)
    gen = as_generator(rng)
    rows, cols = board.shape
    tiles = list(board.tiles)
    blank = board.blank_index
    path: list[int] = []
    for _ in range(int(steps)):
        d = int(gen.integers(4))
        while True:
            r, c = divmod(blank, cols)
            dr, dc = PUZZLE8_ORDER[d]
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                break
            d = (d + 1) % 4
        cell = (r + dr) * cols + c + dc
        path.append(tiles[cell])
        tiles[blank], tiles[cell] = tiles[cell], BLANK
        blank = cell
    return path


def _walk_start(board: object, steps: object) -> tuple[Board, int]:
    """A walk's checked arguments: the board it starts from and its number of steps."""
    return require_board(board), _check_steps(steps)


def _check_steps(steps: object) -> int:
    """``steps`` as an int in ``0..MAX_WALK_STEPS``, or an error naming the limit."""
    steps = as_int(steps, "steps")
    if steps < 0:
        raise ValueError(f"steps must be a non-negative int, got {steps}")
    if steps > MAX_WALK_STEPS:
        raise ValueError(f"steps={steps:,} is past MAX_WALK_STEPS={MAX_WALK_STEPS:,} (a walk that long takes "
                         "minutes and is no more random): use method='uniform' for a well-mixed board")
    return steps


def _adjacent(cell: int, rows: int, cols: int) -> list[int]:
    """Cells next to ``cell`` (up, left, right, down)."""
    r, c = divmod(cell, cols)
    candidates = ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c))
    return [rr * cols + cc for rr, cc in candidates if 0 <= rr < rows and 0 <= cc < cols]


def shuffle(
    rows: int,
    cols: int,
    *,
    rng: RngLike,
    method: str = "uniform",
    steps: int | None = None,
) -> Board:
    """A solvable shuffled ``rows x cols`` board made by ``method`` (see the module doc).

    ``steps`` is the walk length for the walk methods (default ``(rows*cols)**2``); the other
    methods take no steps.

    >>> print(shuffle(2, 3, rng=7, method="walk", steps=4))
    2 . 3
    1 4 5
    >>> all(is_solvable(shuffle(4, 4, rng=s, method=m)) for s in range(20) for m in METHODS)
    True
    """
    rows, cols = check_shape(rows, cols)
    gen = as_generator(rng)
    if not isinstance(method, str) or method not in METHODS:
        raise ValueError(f"method must be one of {list(METHODS)}, got {method!r}")
    if method in ("uniform", "reject"):
        if steps is not None:
            raise ValueError(f"steps is only for the walk methods, not {method!r}")
        if method == "uniform":
            board = random_board(rows, cols, rng=gen)
            return board if is_solvable(board) else _fix_parity(board)
        for _ in range(MAX_REJECT_DRAWS):
            board = random_board(rows, cols, rng=gen)
            if is_solvable(board):
                return board
        raise RuntimeError("no solvable board in 10,000 draws: the random generator is broken")
    goal = Board.goal(rows, cols)
    if steps is None and default_walk_steps(rows, cols) > MAX_WALK_STEPS:
        raise ValueError(f"the default walk on {rows}x{cols}, (rows*cols)**2 = {default_walk_steps(rows, cols):,} steps, "
                         f"is past MAX_WALK_STEPS={MAX_WALK_STEPS:,}: pass steps=... or use method='uniform'")
    n = default_walk_steps(rows, cols) if steps is None else _check_steps(steps)
    return _walk(goal, n, gen, method == "walk-balanced")[1]
