"""Checkers for lesson 4 (solving the sliding puzzle).

- ``"solvers.misplaced"``: ``answer(puzzle) -> int``, tiles off their goal cell, blank not counted.
- ``"solvers.manhattan"``: ``answer(puzzle) -> int``, the Manhattan distance; every 2x2 and 2x3
  board, then random boards from 3x3 to 5x5, square or not.
- ``"solvers.admissible"``: ``answer(puzzle) -> int``, *your own* heuristic that must do two things:
  never overestimate the true distance (checked on 8-puzzle boards at every distance against the
  breadth-first-search table) AND beat Manhattan distance on average over those boards (a larger
  mean value; ``lambda p: 0`` and ``manhattan`` itself fail).
- ``"solvers.pattern_lookup"``: ``answer(puzzle) -> int``, the additive 8-puzzle pattern-database
  value for the split 1-2-3-4 / 5-6-7-8 (the sum of the two patterns' exact distances, no mirror).
- ``"solvers.pattern_table"``: ``answer(rows, cols, pattern) -> dict``, one pattern's table built by
  breadth-first search: ``{cells of the pattern's tiles (in pattern order): fewest pattern moves}``,
  compared with :func:`tilelab.sliding.pdb.build_table` on small boards.
- ``"solvers.search"``: ``answer(puzzle) -> list of tiles``, an optimal solver (e.g. your A*):
  every move legal, the goal reached, and the length equal to the BFS distance.

>>> from tilelab.exercises import check
>>> from tilelab.sliding import manhattan
>>> check("solvers.manhattan", manhattan).passed
True
>>> check("solvers.admissible", lambda p: 2 * manhattan(p)).passed
False
>>> check("solvers.admissible", lambda p: 0).passed     # admissible, but weaker than Manhattan
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
MIN_GAIN = 0.01  # "beats Manhattan": a mean at least this much larger (rules out rounding noise)
PDB8_PATTERNS = ((1, 2, 3, 4), (5, 6, 7, 8))
TABLE_CASES = ((2, 2, (1,)), (2, 3, (1, 2)), (2, 3, (3, 4, 5)), (3, 3, (1, 2, 3, 4)), (3, 3, (5, 6, 7, 8)))


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
    values, mans, truth = [], [], []
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
        truth.append(d)
    mean, man = np.mean(values), np.mean(mans)
    if not mean > man + MIN_GAIN:
        return Result(name, False,
                      f"admissible on {len(values)} boards, but not stronger than Manhattan distance: your mean "
                      f"value is {mean:.2f}, Manhattan's is {man:.2f}. The exercise asks for a heuristic that "
                      "beats it on average (hint: take the max of Manhattan and something that sees tile conflicts)")
    return Result(name, True,
                  f"admissible on {len(values)} boards at every distance 0..31, and stronger than Manhattan: "
                  f"mean value {mean:.2f} vs {man:.2f} (the true mean distance there is {np.mean(truth):.2f})")


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


@checker("solvers.pattern_lookup")
def check_pattern_lookup(answer: Callable[[Puzzle], Any]) -> Result:
    """Compare with the package's 1-2-3-4 / 5-6-7-8 database (plain sum, no mirror)."""
    from tilelab.sliding.pdb import PatternDatabase

    db = PatternDatabase.build(3, 3, PDB8_PATTERNS)
    boards = [Puzzle.goal(3, 3), Puzzle.goal(3, 3).slide(8)] + [b for b, _ in _by_distance(6)]
    return first_counterexample("solvers.pattern_lookup", answer, lambda p: sum(db.values(p)), boards, show=_show)


@checker("solvers.pattern_table")
def check_pattern_table(answer: Callable[[int, int, tuple], Any]) -> Result:
    """``answer(rows, cols, pattern)`` must give every placement's distance, as ``build_table`` does."""
    from tilelab.sliding.pdb import NO_ENTRY, build_table

    name = "solvers.pattern_table"
    total = 0
    for rows, cols, pattern in TABLE_CASES:
        n = rows * cols
        table = build_table(rows, cols, pattern)
        want = {}
        for cells in itertools.permutations(range(n), len(pattern)):
            index = sum(c * n**j for j, c in enumerate(cells))
            if table[index] != NO_ENTRY:
                want[cells] = int(table[index])
        got = answer(rows, cols, pattern)
        if not isinstance(got, dict):
            return Result(name, False, f"for pattern {pattern} on {rows}x{cols} you returned "
                          f"{type(got).__name__}; return a dict {{cells: distance}}")
        for cells, d in want.items():
            if cells not in got:
                return Result(name, False, f"pattern {pattern} on {rows}x{cols}: no entry for tiles on cells "
                              f"{cells} (every placement is reachable); it should be {d}", (rows, cols, pattern, cells))
            if got[cells] != d:
                return Result(name, False, f"pattern {pattern} on {rows}x{cols}, tiles on cells {cells}: you have "
                              f"{got[cells]!r}, the fewest pattern moves are {d}", (rows, cols, pattern, cells))
        total += len(want)
    return Result(name, True, f"all {total:,} placements right in {len(TABLE_CASES)} tables")
