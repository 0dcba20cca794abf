"""Admissible heuristics for the sliding puzzle: lower bounds on the moves still needed.

A heuristic ``h(board)`` guesses how many single-tile moves separate ``board`` from the goal.
A* and IDA* stay optimal when the guess never exceeds the truth (*admissible*); they expand
fewer boards the closer the guess is to the truth. Three classics, weakest to strongest:

- :func:`misplaced` -- how many tiles are not on their goal cell. The blank is *not* a tile:
  counting it (as aima-python does) overestimates by one on boards one move from the goal.
- :func:`manhattan` -- the sum over tiles of the grid distance from their cell to their goal
  cell. Each move shifts one tile by one cell, so no tile arrives sooner.
- :func:`linear_conflict` -- Manhattan plus 2 for every tile that must leave its goal row (or
  column) to let another tile of that line pass it.

These are the readable versions the lesson teaches; the fast IDA* in :mod:`tilelab.sliding.fast.idastar`
updates the same numbers incrementally and is tested to agree.

>>> from tilelab.sliding import Board
>>> p = Board.parse('''
... 3 1 2
... 4 5 6
... 7 8 .''')
>>> misplaced(p), manhattan(p), linear_conflict(p)
(3, 4, 6)
"""

from __future__ import annotations

from typing import Callable, Sequence

from tilelab.sliding.core import BLANK, Board

__all__ = [
    "HEURISTICS",
    "heuristic_function",
    "line_conflicts",
    "linear_conflict",
    "manhattan",
    "misplaced",
]

LINEAR_CONFLICT_COST = 2  # a tile that steps out of its line and back costs two extra moves


def _goal_cell(tile: int, cols: int) -> tuple[int, int]:
    """Goal ``(row, col)`` of a numbered tile: tile t sits at reading position t - 1."""
    return divmod(tile - 1, cols)


def misplaced(board: Board) -> int:
    """Number of tiles (not the blank) away from their goal cell.

    >>> from tilelab.sliding import Board
    >>> misplaced(Board.parse('1 2 3\\n4 5 6\\n7 . 8'))   # only tile 8 is out of place
    1
    """
    return sum(1 for i, t in enumerate(board.tiles) if t != BLANK and t != i + 1)


def manhattan(board: Board) -> int:
    """Sum over tiles of the rows plus columns between the tile and its goal cell.

    >>> from tilelab.sliding import Board
    >>> manhattan(Board.parse('. 2 3\\n4 5 6\\n7 8 1'))    # tile 1 is 2 rows + 2 cols away
    4
    """
    cols = board.cols
    total = 0
    for i, t in enumerate(board.tiles):
        if t != BLANK:
            r, c = divmod(i, cols)
            gr, gc = _goal_cell(t, cols)
            total += abs(r - gr) + abs(c - gc)
    return total


def _longest_increasing(seq: Sequence[int]) -> int:
    """Length of the longest strictly increasing subsequence (quadratic; lines are short)."""
    best: list[int] = []
    for i, x in enumerate(seq):
        best.append(1 + max((best[j] for j in range(i) if seq[j] < x), default=0))
    return max(best, default=0)


def line_conflicts(goal_places: Sequence[int]) -> int:
    """Tiles that must leave one line so the others can pass: length minus longest increasing run.

    ``goal_places`` lists, in board order, the goal positions (within the line) of the tiles
    that sit in their goal line. Tiles already in increasing order never block each other.

    >>> line_conflicts([0, 1, 2]), line_conflicts([2, 1, 0]), line_conflicts([1, 0, 2])
    (0, 2, 1)
    """
    return len(goal_places) - _longest_increasing(goal_places)


def _goal_places(board: Board, index: int, axis: int) -> list[int]:
    """Row ``index`` (axis 0) or column ``index`` (axis 1): where along it the tiles whose goal is
    that line belong, in board order (the input of :func:`line_conflicts`)."""
    cols = board.cols
    line = board.tiles[index * cols : (index + 1) * cols] if axis == 0 else board.tiles[index::cols]
    goals = [_goal_cell(t, cols) for t in line if t != BLANK]
    return [goal[1 - axis] for goal in goals if goal[axis] == index]


def linear_conflict(board: Board) -> int:
    """Manhattan distance plus 2 per tile that must step out of its goal row or column.

    In each row take the tiles whose goal is that row; if their goal columns are out of order,
    some must leave the row and come back (2 extra moves each); the fewest that must leave is
    the row's length minus the longest increasing subsequence. Columns likewise. Rows and
    columns add up (Hansson, Mayer and Yung, 1992), still a lower bound.

    >>> from tilelab.sliding import Board
    >>> linear_conflict(Board.parse('2 1\\n3 .'))   # 1 and 2 swap places in their row
    4
    """
    extra = sum(line_conflicts(_goal_places(board, r, 0)) for r in range(board.rows))
    extra += sum(line_conflicts(_goal_places(board, c, 1)) for c in range(board.cols))
    return manhattan(board) + LINEAR_CONFLICT_COST * extra


HEURISTICS: dict[str, Callable[[Board], int]] = {
    "misplaced": misplaced,
    "manhattan": manhattan,
    "linear-conflict": linear_conflict,
}


def heuristic_function(name: str) -> Callable[[Board], int]:
    """The reference heuristic called ``name`` ("misplaced", "manhattan", "linear-conflict").

    ("pdb" needs a pattern database; see :func:`tilelab.sliding.pdb.pattern_database`.)

    >>> heuristic_function("manhattan") is manhattan
    True
    """
    if name not in HEURISTICS:
        raise ValueError(f"unknown heuristic {name!r}; choose one of {[*HEURISTICS, 'pdb']}")
    return HEURISTICS[name]
