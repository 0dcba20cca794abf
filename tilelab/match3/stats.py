"""Statistics for the lesson: how often a stable board is dead, how long cascades run.

Two ways to deal a random stable (no-run) board, and they are *not* the same distribution:

- ``"exclude"``: the Unity article's deal (and :func:`~tilelab.match3.generate.stable_board`):
  cells in reading order, each picks uniformly among the kinds that do not complete a run.
- ``"reject"``: draw every cell uniformly and throw the board away if it holds a run; the boards
  kept are uniform over all stable boards. Exact but slow when runs are likely (big boards, few
  kinds), so the kernel abandons a board at the first run it completes.

:func:`exact_dead_rates` enumerates every board of a tiny size to give both dead-board rates
exactly; :func:`wilson_interval` puts a 95% confidence interval around a sampled rate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
import numpy.typing as npt

from tilelab.jit import njit
from tilelab.randomness import RngLike, as_generator
from tilelab.match3.board import Board, check_kinds, check_shape
from tilelab.match3.fast.plain import any_move, count_dead, has_run, list_moves, swap_array
from tilelab.match3.generate import new_board, reshuffle_report

DEAL_METHODS = ("exclude", "reject")
REJECT_CHUNK = 1 << 18  # uniforms handed to the rejection kernel at a time
MAX_REJECT_TRIES = 50_000_000  # boards the rejection sampler may throw away before giving up
MAX_EXACT_BOARDS = 20_000_000  # kinds ** cells that exact_dead_rates will enumerate


@njit
def _reject_dead(rows: int, cols: int, kinds: int, u: npt.NDArray[np.float64], want: int) -> tuple[int, int, int, int]:
    """Deal uniform boards from ``u`` (one uniform per cell, reading order), dropping a board at
    its first run; stop after ``want`` stable boards or when ``u`` cannot hold another whole board.

    Returns (stable boards kept, dead among them, boards tried, uniforms used).
    """
    g = np.empty((rows, cols), np.int8)
    cells = rows * cols
    i = 0
    kept = 0
    dead = 0
    tried = 0
    while kept < want and i + cells <= u.shape[0]:
        tried += 1
        ok = True
        for r in range(rows):
            for c in range(cols):
                k = min(int(u[i] * kinds), kinds - 1)
                i += 1
                g[r, c] = k
                if (c >= 2 and g[r, c - 1] == k and g[r, c - 2] == k) or (
                    r >= 2 and g[r - 1, c] == k and g[r - 2, c] == k
                ):
                    ok = False
                    break
            if not ok:
                break
        if ok:
            kept += 1
            if not any_move(g):
                dead += 1
    return kept, dead, tried, i


def _dead_count(rows: int, cols: int, kinds: int, samples: int, rng: np.random.Generator, method: str) -> int:
    if method == "exclude":
        return int(count_dead(rows, cols, kinds, rng.random((samples, rows * cols))))
    kept = dead = tried = 0
    while kept < samples:
        k, d, t, _ = _reject_dead(rows, cols, kinds, rng.random(max(REJECT_CHUNK, rows * cols)), samples - kept)
        kept, dead, tried = kept + k, dead + d, tried + t
        if tried > MAX_REJECT_TRIES:
            raise ValueError(
                f"rejection sampling kept only {kept} stable {rows}x{cols} boards with {kinds} kinds out of "
                f"{tried} tried: runs are too likely at this size; use method='exclude', fewer rows/cols "
                "or more kinds"
            )
    return dead


def dead_fraction(rows: int, cols: int, kinds: int, samples: int, *, rng: RngLike, method: str = "exclude") -> float:
    """Share of random stable boards with no legal move, dealt by ``method`` ("exclude" or "reject").

    >>> dead_fraction(5, 5, 7, 2000, rng=0) > dead_fraction(9, 9, 4, 2000, rng=0)
    True
    >>> dead_fraction(4, 4, 6, 4000, rng=1, method="reject")
    0.177
    """
    rows, cols = check_shape(rows, cols)
    kinds = check_kinds(kinds)
    if method not in DEAL_METHODS:
        raise ValueError(f"unknown method {method!r}: use one of {DEAL_METHODS}")
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)):
        raise TypeError(f"samples must be an int, got {type(samples).__name__}")
    if samples < 1:
        raise ValueError(f"samples={samples}: need at least one board")
    return _dead_count(rows, cols, kinds, int(samples), as_generator(rng), method) / samples


def dead_table(sizes: Sequence[int], kinds: Sequence[int], samples: int, *, rng: RngLike,
               method: str = "exclude") -> npt.NDArray[Any]:
    """``table[i, j]`` = dead fraction of ``sizes[i] x sizes[i]`` boards with ``kinds[j]`` kinds."""
    rng = as_generator(rng)
    return np.array([[dead_fraction(n, n, k, samples, rng=rng, method=method) for k in kinds] for n in sizes])


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """95% (by default) Wilson confidence interval for a proportion ``successes / trials``.

    >>> lo, hi = wilson_interval(30, 1000)
    >>> round(lo, 4), round(hi, 4)
    (0.0211, 0.0425)
    """
    if trials < 1 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials and trials >= 1, got {successes}/{trials}")
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


# ----------------------------------------------------------------------------- exact, tiny boards


@dataclass(frozen=True)
class ExactDeadRates:
    """Every board of one tiny size, counted: the dead-board rate under both deals, exactly."""

    rows: int
    cols: int
    kinds: int
    boards: int  # kinds ** (rows * cols)
    stable: int  # boards with no run
    dead: int  # stable boards with no legal move
    uniform: float  # dead / stable: the rate under rejection sampling
    exclude: float  # probability that the exclude deal gives a dead board
    p_min: float  # least likely stable board under the exclude deal
    p_max: float  # most likely one


@njit
def _exact(rows: int, cols: int, kinds: int) -> tuple[int, int, float, float, float]:
    n = rows * cols
    g = np.zeros((rows, cols), np.int8)
    stable = 0
    dead = 0
    p_dead = 0.0
    p_min = 1.0
    p_max = 0.0
    for index in range(kinds ** n):
        x = index
        for i in range(n - 1, -1, -1):  # last cell = lowest digit
            g[i // cols, i % cols] = x % kinds
            x //= kinds
        if has_run(g):
            continue
        stable += 1
        p = 1.0
        for r in range(rows):
            for c in range(cols):
                banned = 0
                left = -1
                if c >= 2 and g[r, c - 1] == g[r, c - 2]:
                    banned += 1
                    left = g[r, c - 1]
                if r >= 2 and g[r - 1, c] == g[r - 2, c] and g[r - 1, c] != left:
                    banned += 1
                p /= kinds - banned
        p_min = min(p_min, p)
        p_max = max(p_max, p)
        if not any_move(g):
            dead += 1
            p_dead += p
    return stable, dead, p_dead, p_min, p_max


#: What :func:`exact_dead_rates` computes for the sizes lesson 5b lists (``saved=True`` returns these; a test
#: checks them against the enumeration).
SAVED_EXACT_DEAD_RATES = {
    (3, 3, 3): ExactDeadRates(3, 3, 3, 19683, 9750, 1236, 1236 / 9750, 0.15026291723822582,
                              5.0805263425290864e-05, 1 / 1296),
    (3, 4, 3): ExactDeadRates(3, 4, 3, 531441, 180870, 2532, 2532 / 180870, 0.020271829328185414,
                              1.881676423158921e-06, 4.286694101508916e-05),
}


def exact_dead_rates(rows: int, cols: int, kinds: int, *, saved: bool = False) -> ExactDeadRates:
    """Enumerate all ``kinds ** (rows * cols)`` boards: exact dead rates for both deals.

    ``saved=True`` returns the stored result for the sizes in :data:`SAVED_EXACT_DEAD_RATES` instead of listing
    the boards again (that takes minutes in the browser's slower Python); other sizes are computed.

    >>> e = exact_dead_rates(3, 3, 3)
    >>> e.stable, e.dead, round(e.uniform, 4), round(e.exclude, 4)
    (9750, 1236, 0.1268, 0.1503)
    >>> exact_dead_rates(3, 3, 3, saved=True) == e
    True
    """
    rows, cols = check_shape(rows, cols)
    kinds = check_kinds(kinds)
    if saved and (rows, cols, kinds) in SAVED_EXACT_DEAD_RATES:
        return SAVED_EXACT_DEAD_RATES[rows, cols, kinds]
    boards = kinds ** (rows * cols)
    if boards > MAX_EXACT_BOARDS:
        raise ValueError(
            f"{kinds}**{rows * cols} = {boards} boards is too many to enumerate (limit "
            f"{MAX_EXACT_BOARDS}): use a smaller board or dead_fraction to sample"
        )
    stable, dead, p_dead, p_min, p_max = _exact(rows, cols, kinds)
    return ExactDeadRates(rows, cols, kinds, boards, int(stable), int(dead), dead / stable,
                          float(p_dead), float(p_min), float(p_max))


# ----------------------------------------------------------------------------- playing


def cascade_lengths(rows: int, cols: int, kinds: int, n_moves: int, *, rng: RngLike) -> npt.NDArray[Any]:
    """Play ``n_moves`` random legal swaps (reshuffling dead boards); cascade steps of each.

    >>> lengths = cascade_lengths(8, 8, 6, 200, rng=0)
    >>> len(lengths), bool(lengths.min() >= 1)
    (200, True)
    """
    rng = as_generator(rng)
    board = new_board(rows, cols, kinds, rng=rng)
    grid = board.to_array()
    out = np.empty((2 * rows * cols, 4), np.int64)
    lengths = np.empty(n_moves, np.int64)
    for i in range(n_moves):
        if not any_move(grid):
            grid = reshuffle_report(Board.from_array(grid, kinds), rng=rng).board.to_array()
        n = list_moves(grid, out)
        r1, c1, r2, c2 = out[int(rng.integers(n))]
        _, _, lengths[i] = swap_array(grid, (r1, c1), (r2, c2), kinds, rng=rng)
    return lengths


def moves_until_dead(rows: int, cols: int, kinds: int, games: int, max_moves: int, *, rng: RngLike) -> npt.NDArray[Any]:
    """Play ``games`` games of random legal swaps; for each, the moves made before the board died.

    A game that is still alive after ``max_moves`` moves gets ``max_moves + 1``. This is how long
    a game lasts when a dead board ends it (the Unity article restarts the level there).

    >>> m = moves_until_dead(6, 6, 7, 20, 50, rng=0)
    >>> len(m), bool(((1 <= m) & (m <= 51)).all())
    (20, True)
    """
    rng = as_generator(rng)
    out = np.empty((2 * rows * cols, 4), np.int64)
    result = np.empty(games, np.int64)
    for g in range(games):
        grid = new_board(rows, cols, kinds, rng=rng).to_array()
        played = 0
        while played < max_moves and any_move(grid):
            n = list_moves(grid, out)
            r1, c1, r2, c2 = out[int(rng.integers(n))]
            swap_array(grid, (r1, c1), (r2, c2), kinds, rng=rng)
            played += 1
        result[g] = played if not any_move(grid) else max_moves + 1
    return result
