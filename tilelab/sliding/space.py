"""The whole state space of small sliding puzzles, by breadth-first search from the goal.

Two versions of the same search:

- :func:`bfs_distances` -- the readable one: a queue of :class:`Board` boards and a dict.
- :func:`distance_table` -- the fast one: boards are numpy rows, a board's index is its
  permutation *rank* (position in lexicographic order, :func:`rank`), and each BFS layer is
  expanded for all its boards at once. The 8-puzzle's 181,440 states take well under a second.

Distances are optimal move counts to the goal (moves are reversible, so "from the goal" and
"to the goal" are the same), in the single-tile metric or, with ``metric="multi"``, the
multi-tile metric where a whole row/column segment slides as one move.

>>> table = distance_table(2, 3)
>>> int((table >= 0).sum()), int(table.max())    # 6!/2 boards, the hardest 21 moves away
(360, 21)
>>> distance(Board.parse('1 2 3\\n4 . 5'))
1
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from math import factorial
from typing import Any, Sequence

import itertools

import numpy as np
import numpy.typing as npt

from tilelab.sliding.core import BLANK, Board, check_shape

__all__ = [
    "MAX_TABLE_CELLS",
    "UNREACHABLE",
    "bfs_distances",
    "distance",
    "distance_histogram",
    "distance_table",
    "rank",
    "rank_many",
    "states_at_distance",
    "unrank",
    "WALK_RULES",
    "total_variation",
    "walk_distribution",
]

MAX_TABLE_CELLS = 10  # 10! = 3.6 million entries; 12! would be 479 million
UNREACHABLE = -1
METRICS = ("single", "multi")
# Random walks whose exact distribution walk_distribution computes (see its docstring).
WALK_RULES = ("no-return", "puzzle8", "simple", "lazy")
_BLANK_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))  # the blank goes up, down, left, right
_OPPOSITE = (1, 0, 3, 2)


def rank(tiles: Sequence[int]) -> int:
    """Position of the permutation ``tiles`` in lexicographic order (0 .. n!-1).

    >>> rank((0, 1, 2)), rank((2, 1, 0)), rank(Board.goal(2, 2).tiles)
    (0, 5, 9)
    """
    n = len(tiles)
    total = 0
    for i, t in enumerate(tiles):
        smaller_later = sum(1 for u in tiles[i + 1 :] if u < t)
        total += smaller_later * factorial(n - 1 - i)
    return total


def unrank(index: int, n: int) -> tuple[int, ...]:
    """The permutation of ``0..n-1`` with lexicographic rank ``index`` (inverse of :func:`rank`).

    >>> unrank(6, 4)
    (1, 0, 2, 3)
    >>> unrank(rank((3, 0, 2, 1)), 4)
    (3, 0, 2, 1)
    """
    if not 0 <= index < factorial(n):
        raise ValueError(f"rank {index} is outside 0..{factorial(n) - 1} for n={n}")
    left = list(range(n))
    out = []
    for i in range(n):
        digit, index = divmod(index, factorial(n - 1 - i))
        out.append(left.pop(digit))
    return tuple(out)


def rank_many(boards: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """:func:`rank` of every row of a 2-D integer array, vectorised (int64).

    >>> rank_many(np.array([[0, 1, 2], [2, 1, 0], [1, 2, 0]]))
    array([0, 5, 3])
    """
    boards = np.asarray(boards)
    k, n = boards.shape
    out = np.zeros(k, dtype=np.int64)
    for i in range(n - 1):
        smaller_later = (boards[:, i + 1 :] < boards[:, i : i + 1]).sum(axis=1)
        out += smaller_later * factorial(n - 1 - i)
    return out


def _check_metric(metric: str) -> None:
    if metric not in METRICS:
        raise ValueError(f"metric must be 'single' or 'multi', got {metric!r}")


def bfs_distances(start: Board, metric: str = "single") -> dict[Board, int]:
    """Every board reachable from ``start`` with its distance: the readable BFS.

    >>> d = bfs_distances(Board.goal(2, 2))
    >>> len(d), max(d.values())      # 4!/2 boards on a 2x2 cycle
    (12, 6)
    """
    _check_metric(metric)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        board = queue.popleft()
        for _, child in board.successors(metric):
            if child not in dist:
                dist[child] = dist[board] + 1
                queue.append(child)
    return dist


def _moves_from(blank: int, rows: int, cols: int, metric: str) -> list[list[int]]:
    """For a blank cell, each move as the list of cells whose tiles slide, nearest first."""
    r, c = divmod(blank, cols)
    reach = 1 if metric == "single" else max(rows, cols)
    paths = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        path = []
        for k in range(1, reach + 1):
            rr, cc = r + k * dr, c + k * dc
            if not (0 <= rr < rows and 0 <= cc < cols):
                break
            path.append(rr * cols + cc)
            paths.append(list(path))
    return paths


@lru_cache(maxsize=16)
def _table(rows: int, cols: int, metric: str) -> npt.NDArray[Any]:
    n = rows * cols
    dist = np.full(factorial(n), UNREACHABLE, dtype=np.int8)
    frontier = np.array([Board.goal(rows, cols).tiles], dtype=np.int8)
    dist[rank_many(frontier)] = 0
    moves = [_moves_from(b, rows, cols, metric) for b in range(n)]
    depth = 0
    while len(frontier):
        depth += 1
        blanks = np.argmax(frontier == BLANK, axis=1)
        children = []
        for b in range(n):
            group = frontier[blanks == b]
            if not len(group):
                continue
            for path in moves[b]:
                child = group.copy()
                previous = b
                for cell in path:
                    child[:, previous] = group[:, cell]
                    previous = cell
                child[:, previous] = BLANK
                children.append(child)
        boards = np.concatenate(children)
        ranks = rank_many(boards)
        fresh = dist[ranks] == UNREACHABLE
        ranks, first = np.unique(ranks[fresh], return_index=True)
        dist[ranks] = depth
        frontier = boards[fresh][first]
    dist.setflags(write=False)
    return dist


def distance_table(rows: int, cols: int, metric: str = "single") -> npt.NDArray[Any]:
    """Optimal distance to the goal of every board, indexed by :func:`rank` of its tiles.

    ``-1`` marks the (mn)!/2 unsolvable arrangements. The array is cached and read-only.
    Boards up to 10 cells (2x2 .. 3x3, 2x5).

    >>> t = distance_table(3, 3)
    >>> int((t >= 0).sum()), int(t.max()), round(float(t[t >= 0].mean()), 2)
    (181440, 31, 21.97)
    """
    rows, cols = check_shape(rows, cols)
    _check_metric(metric)
    if rows * cols > MAX_TABLE_CELLS:
        raise ValueError(
            f"a {rows}x{cols} board has {factorial(rows * cols):,} arrangements, too many for a "
            f"table (at most {MAX_TABLE_CELLS} cells); use a search such as tilelab.sliding.solve"
        )
    return _table(rows, cols, metric)


def distance(board: Board, metric: str = "single") -> int:
    """Optimal number of moves from ``board`` to the goal (``-1`` if unsolvable), from the table.

    >>> distance(Board.parse('8 6 7\\n2 5 4\\n3 . 1'))
    31
    """
    return int(distance_table(board.rows, board.cols, metric)[rank(board.tiles)])


def distance_histogram(rows: int, cols: int, metric: str = "single") -> npt.NDArray[Any]:
    """How many boards lie at each distance 0, 1, 2, ... from the goal.

    >>> distance_histogram(2, 2).tolist()
    [1, 2, 2, 2, 2, 2, 1]
    """
    table = distance_table(rows, cols, metric)
    return np.bincount(table[table >= 0].astype(np.intp))  # intp: bincount refuses int64 on 32-bit (Pyodide)


def states_at_distance(rows: int, cols: int, moves: int, metric: str = "single") -> list[Board]:
    """All boards exactly ``moves`` moves from the goal, in rank order.

    >>> for p in states_at_distance(3, 3, 31):
    ...     print(p, end="\\n\\n")
    6 4 7
    8 5 .
    3 2 1
    <BLANKLINE>
    8 6 7
    2 5 4
    3 . 1
    <BLANKLINE>
    """
    table = distance_table(rows, cols, metric)
    n = rows * cols
    return [
        Board.trusted(t, rows, cols, t.index(BLANK))
        for t in (unrank(int(i), n) for i in np.flatnonzero(table == moves))
    ]


@lru_cache(maxsize=4)
def _blank_moves(rows: int, cols: int) -> tuple[npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any]]:
    """(ranks of the solvable boards, their blank cells, successor index per blank direction or -1)."""
    n = rows * cols
    table = distance_table(rows, cols)
    solvable = np.flatnonzero(table >= 0)
    boards = np.array(list(itertools.permutations(range(n))), dtype=np.int8)[solvable]
    index = np.full(factorial(n), -1, dtype=np.int64)
    index[solvable] = np.arange(len(solvable))
    blanks = np.argmax(boards == BLANK, axis=1)
    succ = np.full((4, len(solvable)), -1, dtype=np.int64)
    r, c = np.divmod(blanks, cols)
    rowsel = np.arange(len(solvable))
    for d, (dr, dc) in enumerate(_BLANK_STEPS):
        ok = (0 <= r + dr) & (r + dr < rows) & (0 <= c + dc) & (c + dc < cols)
        child = boards[ok].copy()
        target = ((r + dr) * cols + c + dc)[ok]
        child[rowsel[: ok.sum()], blanks[ok]] = child[rowsel[: ok.sum()], target]
        child[rowsel[: ok.sum()], target] = BLANK
        succ[d, ok] = index[rank_many(child)]
    return solvable, blanks, succ


def _direction_weights(rows: int, cols: int, rule: str) -> npt.NDArray[Any]:
    """P(blank goes direction d | blank in cell b) for the memoryless rules, shape (cells, 4)."""
    weights = np.zeros((rows * cols, 4))
    for b in range(rows * cols):
        r, c = divmod(b, cols)
        legal = [0 <= r + dr < rows and 0 <= c + dc < cols for dr, dc in _BLANK_STEPS]
        for d in range(4):
            if rule == "puzzle8":  # draw d, turn to the next direction while blocked
                k = d
                while not legal[k]:
                    k = (k + 1) % 4
                weights[b, k] += 0.25
            elif rule == "simple" and legal[d]:
                weights[b, d] = 1 / sum(legal)
            elif rule == "lazy" and legal[d]:  # blocked: stay put (weight left for "stay")
                weights[b, d] = 0.25
    return weights


def walk_distribution(rows: int, cols: int, steps: int, rule: str = "no-return") -> npt.NDArray[Any]:
    """Exact probability of each solvable board after a random walk of ``steps`` moves from the goal.

    Indexed like ``np.flatnonzero(distance_table(rows, cols) >= 0)`` (solvable boards in rank
    order). Rules: ``"no-return"`` -- uniform among the moves that do not undo the last one
    (:func:`~tilelab.sliding.random_walk`); ``"puzzle8"`` -- the iOS Puzzle8 article's walk
    (:func:`~tilelab.sliding.puzzle8_walk`); ``"simple"`` -- uniform among legal moves;
    ``"lazy"`` -- one of four directions, staying put when blocked (its limit is uniform).

    >>> p = walk_distribution(2, 2, 1, "puzzle8")   # from the goal the blank goes up or left
    >>> sorted(np.round(p[p > 0], 3).tolist())
    [0.5, 0.5]
    >>> round(float(walk_distribution(3, 3, 81).sum()), 9)
    1.0
    """
    rows, cols = check_shape(rows, cols)
    if rule not in WALK_RULES:
        raise ValueError(f"rule must be one of {list(WALK_RULES)}, got {rule!r}")
    if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)) or steps < 0:
        raise ValueError(f"steps must be a non-negative int, got {steps!r}")
    if rows * cols > MAX_TABLE_CELLS:
        raise ValueError(f"exact walk distributions need a BFS table: at most {MAX_TABLE_CELLS} cells")
    solvable, blanks, succ = _blank_moves(rows, cols)
    size = len(solvable)
    start = int(np.searchsorted(solvable, rank(Board.goal(rows, cols).tiles)))
    if rule == "no-return":
        return _no_return_walk(succ, start, int(steps))
    weights = _direction_weights(rows, cols, rule)[blanks]  # (boards, 4)
    src = np.concatenate([np.flatnonzero(succ[d] >= 0) for d in range(4)])
    dst = np.concatenate([succ[d, succ[d] >= 0] for d in range(4)])
    weight = np.concatenate([weights[succ[d] >= 0, d] for d in range(4)])
    if rule == "lazy":  # a blocked direction leaves the board where it is
        src = np.concatenate([src, np.arange(size)])
        dst = np.concatenate([dst, np.arange(size)])
        weight = np.concatenate([weight, 1 - weights.sum(axis=1)])
    keep = weight > 0
    src, dst, weight = src[keep], dst[keep].astype(np.intp), weight[keep]  # intp: bincount's index type (32-bit in Pyodide)
    prob: npt.NDArray[Any] = np.zeros(size)
    prob[start] = 1.0
    for _ in range(int(steps)):  # one step: every board passes its probability along its moves
        prob = np.bincount(dst, weights=prob[src] * weight, minlength=size)
    return prob


def _no_return_walk(succ: npt.NDArray[Any], start: int, steps: int) -> npt.NDArray[Any]:
    """Distribution of the walk that never undoes its last move: state = (board, last direction)."""
    size = succ.shape[1]
    degree = (succ >= 0).sum(axis=0)
    prob = np.zeros((5, size))  # row 4: no move made yet
    prob[4, start] = 1.0
    src = [np.flatnonzero(succ[d] >= 0) for d in range(4)]
    for _ in range(steps):
        nxt = np.zeros((5, size))
        onward = prob[:4] / np.maximum(degree - 1, 1)
        total = onward.sum(axis=0)
        for d in range(4):
            came = prob[4] / degree + total - onward[_OPPOSITE[d]]  # never step straight back
            nxt[d, succ[d, src[d]]] = came[src[d]]
        prob = nxt
    by_board: npt.NDArray[Any] = prob.sum(axis=0)
    return by_board


def total_variation(p: npt.NDArray[Any], q: npt.NDArray[Any] | None = None) -> float:
    """Total-variation distance ``sum|p - q| / 2`` (``q`` default: uniform); 0 = same, 1 = disjoint.

    >>> total_variation(np.array([0.5, 0.5, 0, 0]))
    0.5
    """
    p = np.asarray(p, dtype=float)
    q = np.full(len(p), 1 / len(p)) if q is None else np.asarray(q, dtype=float)
    if p.shape != q.shape:
        raise ValueError(f"p and q need the same shape, got {p.shape} and {q.shape}")
    return float(np.abs(p - q).sum() / 2)
