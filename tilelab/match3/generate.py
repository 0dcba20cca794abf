"""New boards and reshuffles: no ready run, at least one move, and always a finite amount of work.

The termination question (left open by the Unity article's exclude-and-redraw loop): dealing
cells in reading order, a cell must avoid at most two kinds -- the kind of an equal pair just to
its left and the kind of an equal pair just above it. Nothing else can complete a run, because
the cells to the right and below are not dealt yet. So with ``kinds >= 3`` at least one kind is
always allowed, and drawing *from the allowed kinds* (instead of drawing from all kinds and
redrawing on a banned one) takes exactly one draw per cell. The redraw loop also ends with
probability 1 (each draw succeeds with probability at least (K-2)/K = 1/3 at K = 3), but it has
no worst-case bound, and with 2 kinds it can spin forever.

A no-run deal may still have no legal move. We deal again a bounded number of times and then
plant a move (a fixed five-cell pattern in the top-left corner that the deal cannot spoil), so
:func:`new_board` always returns after a bounded amount of work.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt

from tilelab.randomness import RngLike, as_generator
from tilelab.match3.board import EMPTY, RUN, Board, check_full, check_kinds, check_shape
from tilelab.match3.cascade import kind_from_uniform
from tilelab.match3.fast.plain import any_move, fill_no_runs, has_run
from tilelab.match3.special_board import SpecialBoard

MAX_DEALS = 100  # fresh deals before planting a move
SHUFFLE_TRIES = 50  # random permutations before the systematic search
SEARCH_BUDGET = 200_000  # cells placed by the systematic search before giving up


class ReshuffleWarning(UserWarning):
    """No arrangement of the board's candies works: a new board was dealt instead."""


def banned_kinds(grid: list[list[int]], r: int, c: int) -> set[int]:
    """Kinds that would complete a run at (r, c) with the two cells left of it or above it."""
    banned = set()
    if c >= 2 and grid[r][c - 1] == grid[r][c - 2] != EMPTY:
        banned.add(grid[r][c - 1])
    if r >= 2 and grid[r - 1][c] == grid[r - 2][c] != EMPTY:
        banned.add(grid[r - 1][c])
    return banned


def deal_no_runs(grid: list[list[int]], kinds: int, draws: npt.NDArray[Any]) -> list[list[int]]:
    """Readable twin of the compiled ``fill_no_runs``: fill EMPTY cells in reading order.

    Each cell takes ``allowed[int(u * len(allowed))]`` for its own draw ``u``; cells already
    set (a planted move) are kept.
    """
    cols = len(grid[0])
    for r in range(len(grid)):
        for c in range(cols):
            if grid[r][c] != EMPTY:
                continue
            allowed = [k for k in range(kinds) if k not in banned_kinds(grid, r, c)]
            grid[r][c] = allowed[kind_from_uniform(draws[r * cols + c], len(allowed))]
    return grid


def can_have_move(rows: int, cols: int) -> bool:
    """True when some no-run board of this size has a legal move.

    2x3 and 3x2 are the smallest rectangles; a single line needs 4 cells (``0 0 1 0``).
    """
    return (rows >= 2 and cols >= 3) or (rows >= 3 and cols >= 2) or max(rows, cols) >= RUN + 1


def stable_board(rows: int, cols: int, kinds: int, *, rng: RngLike) -> Board:
    """A random board with no ready run (it may have no move either: see :func:`new_board`).

    >>> print(stable_board(3, 5, 3, rng=4))
    21201
    12021
    21122
    """
    rows, cols = check_shape(rows, cols)
    kinds = check_kinds(kinds)
    grid = np.full((rows, cols), EMPTY, np.int8)
    fill_no_runs(grid, kinds, as_generator(rng).random(rows * cols))
    return Board.from_array(grid, kinds)


def exclude_chance(board: Board) -> Fraction:
    """The chance that the exclude deal (:func:`stable_board`) deals exactly this board, as an exact fraction.

    Cell by cell in reading order, the deal picks uniformly among the kinds its left pair and its
    upper pair do not ban, so the chance is the product of ``1 / allowed`` over the cells; a
    board holding a run is never dealt (0). Boards with equal pairs are dealt more often.

    >>> exclude_chance(Board.parse("012\\n120\\n201"))   # no pair: 1/3 each
    Fraction(1, 19683)
    >>> exclude_chance(Board.parse("001\\n112\\n220"))   # 3 cells after a pair: 1/2 each
    Fraction(1, 5832)
    >>> exclude_chance(Board.parse("000\\n112\\n220"))
    Fraction(0, 1)
    """
    check_full(board)
    if has_run(board.to_array()):
        return Fraction(0)
    grid = [list(row) for row in board.grid]
    p = Fraction(1)
    for r in range(board.rows):
        for c in range(board.cols):
            p /= board.kinds - len(banned_kinds(grid, r, c))
    return p


def exclude_probability(board: Board) -> float:
    """:func:`exclude_chance` as a float.

    >>> round(exclude_probability(Board.parse("001\\n112\\n220")) * 3**6 * 2**3, 9)
    1.0
    """
    return float(exclude_chance(board))


def new_special_board(rows: int, cols: int, kinds: int, *, rng: RngLike) -> SpecialBoard:
    """A fresh board (as :func:`tilelab.match3.new_board` deals it) with no specials yet.

    >>> new_special_board(3, 4, 3, rng=0).special_cells()
    {}
    """
    return SpecialBoard.from_board(new_board(rows, cols, kinds, rng=rng))


def planted_board(rows: int, cols: int, kinds: int, *, rng: RngLike) -> Board:
    """A no-run board with a legal move built in (the bounded fallback of :func:`new_board`).

    The pattern ``k k j / . j k`` in the top-left corner (transposed on narrow boards, or
    ``k k j k`` on a single line) is placed first; the reading-order deal then cannot complete a
    run through it, and swapping the ``j`` above the lower ``k`` always makes ``k k k``.

    >>> b = planted_board(2, 3, 3, rng=0)
    >>> print(b)
    112
    221
    >>> from tilelab.match3 import legal_moves
    >>> legal_moves(b)
    [((0, 2), (1, 2))]
    """
    rows, cols = check_shape(rows, cols)
    kinds = check_kinds(kinds)
    if not can_have_move(rows, cols):
        raise ValueError(f"a {rows}x{cols} board can never have a legal move without a ready run")
    rng = as_generator(rng)
    k = kind_from_uniform(rng.random(), kinds)
    j = (k + 1 + kind_from_uniform(rng.random(), kinds - 1)) % kinds
    if rows >= 2 and cols >= 3:
        plant = {(0, 0): k, (0, 1): k, (0, 2): j, (1, 1): j, (1, 2): k}
    elif rows >= 3 and cols >= 2:
        plant = {(0, 0): k, (1, 0): k, (2, 0): j, (1, 1): j, (2, 1): k}
    elif rows == 1:
        plant = {(0, 0): k, (0, 1): k, (0, 2): j, (0, 3): k}
    else:
        plant = {(0, 0): k, (1, 0): k, (2, 0): j, (3, 0): k}
    grid = [[EMPTY] * cols for _ in range(rows)]
    for (r, c), kind in plant.items():
        grid[r][c] = kind
    deal_no_runs(grid, kinds, rng.random(rows * cols))
    return Board(tuple(map(tuple, grid)), kinds)


def new_board(rows: int, cols: int, kinds: int, *, rng: RngLike) -> Board:
    """A fresh board: no ready run, at least one legal move; bounded work for any kinds >= 3.

    >>> b = new_board(4, 5, 3, rng=7)
    >>> print(b)
    12200
    20220
    00112
    12212
    >>> from tilelab.match3 import find_matches, is_dead
    >>> find_matches(b), is_dead(b)
    ([], False)
    """
    rows, cols = check_shape(rows, cols)
    kinds = check_kinds(kinds)
    if not can_have_move(rows, cols):
        raise ValueError(
            f"a {rows}x{cols} board can never have a legal move without a ready run: "
            "use at least 2x3, 3x2, 1x4 or 4x1"
        )
    rng = as_generator(rng)
    grid = np.empty((rows, cols), np.int8)
    for _ in range(MAX_DEALS):
        grid[:, :] = EMPTY
        fill_no_runs(grid, kinds, rng.random(rows * cols))
        if any_move(grid):
            return Board.from_array(grid, kinds)
    return planted_board(rows, cols, kinds, rng=rng)


# ----------------------------------------------------------------------------- reshuffle


B = TypeVar("B", Board, SpecialBoard)


@dataclass(frozen=True)
class Reshuffle(Generic[B]):
    """A reshuffle's outcome: the new board (plain or special), and whether it kept the old candies."""

    board: B
    kept_candies: bool
    message: str


def _good(grid: npt.NDArray[Any]) -> bool:
    return not has_run(grid) and any_move(grid)


def _search(counts: list[int], rows: int, cols: int,
            rng: np.random.Generator) -> tuple[list[list[int]] | None, bool]:
    """Depth-first search for a no-run, live arrangement of ``counts``.

    Cells are filled in reading order; each cell tries the kinds in a random order, skipping
    kinds used up or banned (they would complete a run), and backtracks on a dead end. An
    explicit stack instead of recursion, so boards of any size stay within Python's limits.
    Returns (grid or None, exhausted): ``exhausted`` True means every arrangement was tried.
    """
    grid = [[EMPTY] * cols for _ in range(rows)]
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    budget = SEARCH_BUDGET
    untried: list[list[int]] = []  # per filled depth: the kinds still to try in that cell
    depth = 0  # the cell to fill next
    while True:
        if depth == len(cells):
            if any_move(np.array(grid, np.int8)):
                return grid, True
        else:
            budget -= 1
            if budget < 0:
                return None, False
            r, c = cells[depth]
            banned = banned_kinds(grid, r, c)
            order = (int(k) for k in rng.permutation(len(counts)))
            untried.append([k for k in order if counts[k] and k not in banned])
        while untried:  # place the next untried kind, backtracking past exhausted cells
            r, c = cells[len(untried) - 1]
            if grid[r][c] != EMPTY:  # take back the kind tried here before
                counts[grid[r][c]] += 1
                grid[r][c] = EMPTY
            if untried[-1]:
                kind = untried[-1].pop(0)
                counts[kind] -= 1
                grid[r][c] = kind
                depth = len(untried)
                break
            untried.pop()
        else:
            return None, True


def reshuffle_report(board: Board, *, rng: RngLike) -> Reshuffle[Board]:
    """Rearrange the candies (same count of each kind) into a no-run board with a move.

    Tries random permutations first, then a systematic search. If no arrangement exists,
    says so (``kept_candies`` False, and a :class:`ReshuffleWarning` from :func:`reshuffle`)
    and deals a new board of the same size and kinds.
    """
    check_full(board)
    rng = as_generator(rng)
    flat = np.array(board.grid, np.int8).ravel()
    for _ in range(SHUFFLE_TRIES):
        grid = rng.permutation(flat).reshape(board.rows, board.cols)
        if _good(grid):
            return Reshuffle(Board.from_array(grid, board.kinds), True, "no moves left, shuffling")
    if max(board.counts()) < RUN:  # no kind can ever line up three: no arrangement has a move
        found, exhausted = None, True
    else:
        found, exhausted = _search(list(board.counts()), board.rows, board.cols, rng)
    if found is not None:
        return Reshuffle(Board(tuple(map(tuple, found)), board.kinds), True, "no moves left, shuffling")
    why = "no arrangement of these candies" if exhausted else "no arrangement found within budget"
    message = f"{why} has a move and no ready run: dealing a new board"
    return Reshuffle(new_board(board.rows, board.cols, board.kinds, rng=rng), False, message)


def reshuffle(board: Board, *, rng: RngLike) -> Board:
    """Shuffle a (dead) board: same candies, no ready run, at least one move.

    >>> b = Board.parse('''
    ... 0120
    ... 1201
    ... 2012''')
    >>> from tilelab.match3 import is_dead, find_matches
    >>> is_dead(b)
    True
    >>> s = reshuffle(b, rng=0)
    >>> print(s)
    0211
    2200
    0121
    >>> s.counts() == b.counts(), find_matches(s), is_dead(s)
    (True, [], False)
    """
    result = reshuffle_report(board, rng=rng)
    if not result.kept_candies:
        warnings.warn(result.message, ReshuffleWarning, stacklevel=2)
    return result.board

