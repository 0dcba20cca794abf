"""Checkers for lesson 4 (solving the sliding puzzle).

- ``"solvers.misplaced"``: ``answer(puzzle) -> int``, tiles off their goal cell, blank not counted.
- ``"solvers.manhattan"``: ``answer(puzzle) -> int``, the Manhattan distance; every 2x2 and 2x3
  board, then random boards from 3x3 to 5x5, square or not.
- ``"solvers.admissible"``: ``answer(puzzle) -> int``, *your own* heuristic: passes when it never
  overestimates the true distance, checked on 8-puzzle boards at every distance against the
  breadth-first-search table; the message also says how strong it is (mean value vs Manhattan).
- ``"solvers.search"``: ``answer(puzzle) -> list of tiles``, an optimal solver (e.g. your A*):
  every move legal, the goal reached, and the length equal to the BFS distance.

>>> from tilelab.exercises import check
>>> from tilelab.sliding import manhattan
>>> check("solvers.manhattan", manhattan).passed
True
>>> check("solvers.admissible", lambda p: 2 * manhattan(p)).passed
False
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Iterator

import numpy as np

from tilelab.exercises import Result, checker, first_counterexample
from tilelab.sliding import Puzzle, is_solvable, random_board
from tilelab.sliding.heuristics import manhattan, misplaced
from tilelab.sliding.space import distance_table, unrank

SEED = 4
RANDOM_SHAPES = [(3, 3), (4, 4), (3, 4), (4, 3), (5, 5), (2, 5), (3, 5)]
EXHAUSTIVE_SHAPES = [(2, 2), (2, 3)]
BOARDS_PER_DISTANCE = 40  # 8-puzzle boards checked at each distance 0..31
SEARCH_BOARDS = 12


def _show(p: Puzzle) -> str:
    return f"the {p.rows}x{p.cols} board\n{p}\n"


def _boards() -> Iterator[Puzzle]:
    for rows, cols in EXHAUSTIVE_SHAPES:
        for tiles in itertools.permutations(range(rows * cols)):
            yield Puzzle(tiles, rows, cols)
    rng = np.random.default_rng(SEED)
    for k in range(300):
        yield random_board(*RANDOM_SHAPES[k % len(RANDOM_SHAPES)], rng)


def _by_distance(per_distance: int) -> list[tuple[Puzzle, int]]:
    """8-puzzle boards spread over every distance (the goal and the two 31-move boards included)."""
    table = distance_table(3, 3)
    rng = np.random.default_rng(SEED)
    out = []
    for d in range(int(table.max()) + 1):
        ranks = np.flatnonzero(table == d)
        for r in rng.choice(ranks, size=min(per_distance, len(ranks)), replace=False):
            out.append((Puzzle(unrank(int(r), 9), 3, 3), d))
    return out


@checker("solvers.misplaced")
def check_misplaced(answer: Callable[[Puzzle], Any]) -> Result:
    """Compare with :func:`tilelab.sliding.heuristics.misplaced` (the blank is not a tile)."""
    near_goal = [Puzzle.goal(3, 3).slide(8), Puzzle.goal(3, 3)]  # the classic off-by-one first
    return first_counterexample("solvers.misplaced", answer, misplaced,
                                itertools.chain(near_goal, _boards()), show=_show)


@checker("solvers.manhattan")
def check_manhattan(answer: Callable[[Puzzle], Any]) -> Result:
    """Compare with :func:`tilelab.sliding.heuristics.manhattan`."""
    return first_counterexample("solvers.manhattan", answer, manhattan, _boards(), show=_show)


@checker("solvers.admissible")
def check_admissible(answer: Callable[[Puzzle], Any]) -> Result:
    """Is ``answer`` a lower bound on the true distance of every board tried?"""
    name = "solvers.admissible"
    values, mans = [], []
    for board, d in _by_distance(BOARDS_PER_DISTANCE):
        h = answer(board)
        if not isinstance(h, (int, np.integer, float, np.floating)):
            return Result(name, False, f"your heuristic returned {h!r} on {_show(board)}; return a number", board)
        if h > d:
            return Result(name, False,
                          f"not admissible: h = {h} but {_show(board)}is only {d} moves from the goal", board)
        if h < 0:
            return Result(name, False, f"h = {h} is negative on {_show(board)}", board)
        values.append(float(h))
        mans.append(manhattan(board))
    mean, man = np.mean(values), np.mean(mans)
    return Result(name, True,
                  f"admissible on {len(values)} boards at every distance 0..31; mean value {mean:.2f} "
                  f"(Manhattan: {man:.2f}; higher is stronger)")


@checker("solvers.search")
def check_search(answer: Callable[[Puzzle], Any]) -> Result:
    """``answer(puzzle)`` returns the tiles to slide; they must solve it in the fewest moves."""
    name = "solvers.search"
    table = distance_table(3, 3)
    rng = np.random.default_rng(SEED)
    boards = [Puzzle.goal(3, 3), Puzzle.goal(3, 3).slide(8)]
    boards += [random_board(3, 3, rng) for _ in range(4 * SEARCH_BOARDS)]
    boards = [b for b in boards if is_solvable(b)][:SEARCH_BOARDS]
    from tilelab.sliding.space import rank

    for board in boards:
        moves = list(answer(board))
        try:
            end = board.play(moves)
        except ValueError as exc:
            return Result(name, False, f"on {_show(board)}an illegal move: {exc}", board)
        if not end.is_goal():
            return Result(name, False, f"on {_show(board)}your moves end at\n{end}\nnot at the goal", board)
        d = int(table[rank(board.tiles)])
        if len(moves) != d:
            return Result(name, False, f"on {_show(board)}you used {len(moves)} moves; the optimum is {d}", board)
    return Result(name, True, f"optimal on all {len(boards)} boards")
