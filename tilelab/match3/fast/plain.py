"""Fast match-3 engine: the same rules as :mod:`tilelab.match3` on ``int8`` arrays.

The kernels are compiled by numba when it is available (:func:`tilelab.jit.njit`) and run as
plain Python otherwise. They consume the random generator exactly as the reference does (one
``rng.random()`` per refilled hole, holes in reading order), so for the same seed the fast
and the readable engines reach the same boards and scores; the tests check this.

What the fast path leaves out is the *story*: it returns the final board, the score and the
number of cascade steps, not the groups, falls and refills that the lesson pictures.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from tilelab.jit import njit
from tilelab.randomness import RngLike, as_generator
from tilelab.match3.board import EMPTY, RUN, SHAPE_POINTS, Board, Cell, Move, check_full
from tilelab.match3.cascade import cascade_until_settled, check_swap, SwapResult
from tilelab.match3.moves import check_stable

LINE3, LINE4, SHAPE = SHAPE_POINTS["line3"], SHAPE_POINTS["line4"], SHAPE_POINTS["line5"]
MIN_CROSS_FREE = 5  # a run this long scores as line5 whatever it crosses


# ----------------------------------------------------------------------------- kernels


@njit
def run_through(g: npt.NDArray[Any], r: int, c: int) -> bool:
    """True when (r, c) lies on a run of 3+ of its kind."""
    kind = g[r, c]
    if kind < 0:
        return False
    rows, cols = g.shape
    n = 1
    i = c - 1
    while i >= 0 and g[r, i] == kind:
        n += 1
        i -= 1
    i = c + 1
    while i < cols and g[r, i] == kind:
        n += 1
        i += 1
    if n >= RUN:
        return True
    n = 1
    i = r - 1
    while i >= 0 and g[i, c] == kind:
        n += 1
        i -= 1
    i = r + 1
    while i < rows and g[i, c] == kind:
        n += 1
        i += 1
    return n >= RUN


@njit
def swap_creates_run(g: npt.NDArray[Any], r1: int, c1: int, r2: int, c2: int) -> bool:
    """True when exchanging two cells makes a run through one of them (g is restored)."""
    a = g[r1, c1]
    b = g[r2, c2]
    if a == b:
        return False
    g[r1, c1] = b
    g[r2, c2] = a
    ok = run_through(g, r1, c1) or run_through(g, r2, c2)
    g[r1, c1] = a
    g[r2, c2] = b
    return ok


@njit
def list_moves(g: npt.NDArray[Any], out: npt.NDArray[Any]) -> int:
    """Write every legal swap as (r1, c1, r2, c2) rows into ``out``; return how many."""
    rows, cols = g.shape
    n = 0
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols and swap_creates_run(g, r, c, r, c + 1):
                out[n, 0], out[n, 1], out[n, 2], out[n, 3] = r, c, r, c + 1
                n += 1
            if r + 1 < rows and swap_creates_run(g, r, c, r + 1, c):
                out[n, 0], out[n, 1], out[n, 2], out[n, 3] = r, c, r + 1, c
                n += 1
    return n


@njit
def any_move(g: npt.NDArray[Any]) -> bool:
    """True when at least one swap is legal."""
    rows, cols = g.shape
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols and swap_creates_run(g, r, c, r, c + 1):
                return True
            if r + 1 < rows and swap_creates_run(g, r, c, r + 1, c):
                return True
    return False


@njit
def has_run(g: npt.NDArray[Any]) -> bool:
    """True when some run of 3+ is on the board."""
    rows, cols = g.shape
    for r in range(rows):
        for c in range(cols):
            k = g[r, c]
            if k < 0:
                continue
            if c + 2 < cols and g[r, c + 1] == k and g[r, c + 2] == k:
                return True
            if r + 2 < rows and g[r + 1, c] == k and g[r + 2, c] == k:
                return True
    return False


@njit
def group_root(parent: npt.NDArray[Any], i: int) -> int:
    """The root of ``i`` in a union-find ``parent`` array (path halving): which group a cell joined."""
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


@njit
def match_clear_fall(g: npt.NDArray[Any]) -> tuple[int, int]:
    """One cascade step without the refill: find groups, score them, clear, let candies fall.

    Returns (holes, points): the number of EMPTY cells now at the top of the columns and the
    group points before the cascade multiplier. (0, 0) means the board is stable.
    """
    rows, cols = g.shape
    size = rows * cols
    hlen = np.zeros(size, np.int64)
    hpos = np.zeros(size, np.int64)
    vlen = np.zeros(size, np.int64)
    vpos = np.zeros(size, np.int64)
    parent = np.arange(size)
    found = False
    for r in range(rows):  # horizontal runs
        start = 0
        for c in range(1, cols + 1):
            if c == cols or g[r, c] != g[r, start]:
                if c - start >= RUN and g[r, start] >= 0:
                    found = True
                    for i in range(start, c):
                        hlen[r * cols + i] = c - start
                        hpos[r * cols + i] = i - start
                        if i > start:
                            parent[group_root(parent, r * cols + i)] = group_root(parent, r * cols + start)
                start = c
    for c in range(cols):  # vertical runs
        start = 0
        for r in range(1, rows + 1):
            if r == rows or g[r, c] != g[start, c]:
                if r - start >= RUN and g[start, c] >= 0:
                    found = True
                    for i in range(start, r):
                        vlen[i * cols + c] = r - start
                        vpos[i * cols + c] = i - start
                        if i > start:
                            parent[group_root(parent, i * cols + c)] = group_root(parent, start * cols + c)
                start = r
    if not found:
        return 0, 0
    longest = np.zeros(size, np.int64)
    crossing = np.zeros(size, np.int64)
    for i in range(size):
        if hlen[i] == 0 and vlen[i] == 0:
            continue
        root = group_root(parent, i)
        longest[root] = max(longest[root], hlen[i], vlen[i])
        if hlen[i] > 0 and vlen[i] > 0:
            inner = 1
            if 0 < hpos[i] < hlen[i] - 1:
                inner += 1
            if 0 < vpos[i] < vlen[i] - 1:
                inner += 1
            crossing[root] = max(crossing[root], inner)
    points = 0
    holes = 0
    for i in range(size):
        if hlen[i] == 0 and vlen[i] == 0:
            continue
        holes += 1
        if group_root(parent, i) == i:
            if longest[i] >= MIN_CROSS_FREE or crossing[i] > 0:
                points += SHAPE
            elif longest[i] == RUN + 1:
                points += LINE4
            else:
                points += LINE3
        g[i // cols, i % cols] = EMPTY
    for c in range(cols):  # gravity
        target = rows - 1
        for r in range(rows - 1, -1, -1):
            k = g[r, c]
            if k >= 0:
                if r != target:
                    g[target, c] = k
                    g[r, c] = EMPTY
                target -= 1
    return holes, points


@njit
def refill_holes(g: npt.NDArray[Any], u: npt.NDArray[Any], kinds: int) -> int:
    """Fill EMPTY cells in reading order with kinds drawn from the uniforms ``u``."""
    rows, cols = g.shape
    n = 0
    for r in range(rows):
        for c in range(cols):
            if g[r, c] < 0:
                g[r, c] = min(int(u[n] * kinds), kinds - 1)
                n += 1
    return n


@njit
def fill_no_runs(g: npt.NDArray[Any], kinds: int, u: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Deal kinds into the EMPTY cells of ``g`` in reading order so that no run appears.

    A cell may not take the kind of an equal pair just left of it or just above it; that bans at
    most two kinds, so with 3 or more kinds a choice always remains and each cell takes exactly
    one uniform draw ``u[r * cols + c]`` (no redraw loop). Cells already set are kept.
    """
    rows, cols = g.shape
    allowed = np.empty(kinds, np.int64)
    for r in range(rows):
        for c in range(cols):
            if g[r, c] >= 0:
                continue
            ban1 = -2
            ban2 = -2
            if c >= 2 and g[r, c - 1] == g[r, c - 2]:
                ban1 = g[r, c - 1]
            if r >= 2 and g[r - 1, c] == g[r - 2, c]:
                ban2 = g[r - 1, c]
            n = 0
            for k in range(kinds):
                if k != ban1 and k != ban2:
                    allowed[n] = k
                    n += 1
            g[r, c] = allowed[min(int(u[r * cols + c] * n), n - 1)]
    return g


@njit
def count_dead(rows: int, cols: int, kinds: int, u: npt.NDArray[Any]) -> int:
    """How many of ``len(u)`` no-run deals (one row of uniforms each) have no legal move."""
    dead = 0
    g = np.empty((rows, cols), np.int8)
    for i in range(u.shape[0]):
        g[:, :] = EMPTY
        fill_no_runs(g, kinds, u[i])
        if not any_move(g):
            dead += 1
    return dead


# ----------------------------------------------------------------------------- wrappers


def swap_array(grid: npt.NDArray[Any], a: Cell, b: Cell, kinds: int, *, rng: np.random.Generator) -> tuple[bool, int, int]:
    """Fast swap on an int8 array (modified in place). Returns (legal, score, cascades)."""
    (r1, c1), (r2, c2) = a, b
    if not swap_creates_run(grid, r1, c1, r2, c2):
        return False, 0, 0
    grid[r1, c1], grid[r2, c2] = grid[r2, c2], grid[r1, c1]

    def step(index: int) -> int | None:  # one compiled cascade step; its points, or None once nothing clears
        holes, points = match_clear_fall(grid)
        if holes == 0:
            return None
        refill_holes(grid, rng.random(holes), kinds)
        return index * points

    scores = cascade_until_settled(step)
    return True, sum(scores), len(scores)


def swap_fast(board: Board, a: Cell, b: Cell, *, rng: RngLike) -> SwapResult:
    """Same rules, random draws and result type as :func:`tilelab.match3.swap`, compiled.

    The one difference: ``steps`` is empty (the compiled cascade keeps no step data);
    ``cascades`` still counts the steps.

    >>> from tilelab.match3 import Board, swap
    >>> board = Board.parse("0120\\n1201\\n0012\\n2102")
    >>> fast = swap_fast(board, (2, 2), (3, 2), rng=1)
    >>> fast.board == swap(board, (2, 2), (3, 2), rng=1).board, fast.legal, fast.score, fast.cascades
    (True, True, 60, 1)
    """
    a, b = check_swap(board, a, b)
    grid = board.to_array()
    swapped = board.swapped(a, b)
    legal, score, cascades = swap_array(grid, a, b, board.kinds, rng=as_generator(rng))
    after = Board.trusted(tuple(map(tuple, grid.tolist())), board.kinds) if legal else board
    return SwapResult(bool(legal), after, (), int(score), int(cascades), a, b, swapped)


def legal_moves_fast(board: Board) -> list[Move]:
    """Every legal swap, as :func:`tilelab.match3.moves.legal_moves` lists them, but compiled.

    >>> legal_moves_fast(Board.parse("001\\n120\\n212"))
    [((0, 2), (1, 2)), ((1, 1), (2, 1))]
    """
    check_full(board)
    grid = board.to_array()
    out = np.empty((2 * board.rows * board.cols, 4), np.int64)
    n = list_moves(grid, out)
    return [((int(m[0]), int(m[1])), (int(m[2]), int(m[3]))) for m in out[:n]]


def is_dead_fast(board: Board) -> bool:
    """True when the board is stable and no swap is legal (compiled).

    >>> is_dead_fast(Board.parse("012\\n120\\n201"))
    True

    Like the reference, it raises ValueError on a board that still holds a run (dead = stable
    AND no legal swap).
    """
    check_full(board)
    grid = board.to_array()
    if has_run(grid):
        check_stable(board)  # raises, naming the run
    return not any_move(grid)
