"""Checker for lesson 4d: the blank's shortest route that never enters a cell it must avoid.

``"solvers.blank_route"``: ``answer(rows, cols, start, target, avoid) -> list of cells or None``, the blank's
shortest route (the cells it enters, ``target`` last) never entering a cell of ``avoid``, or None when there is
none: every situation on 2x2 and 2x3 boards, then seeded ones up to 4x4.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Iterator

import numpy as np

from tilelab.exercises import Result, case_seed, checker
from tilelab.exercises.allow import NUMPY

SEED = 5  #: the seeded situations' seed (inside :func:`tilelab.exercises.hidden_cases`, the grader's)
ROUTE_SHAPES = ((3, 3), (3, 4), (4, 3), (4, 4))
ROUTE_RANDOM = 300  #: seeded situations on the shapes above, after every one on 2x2 and 2x3


def _neighbour_cells(rows: int, cols: int, cell: int) -> list[int]:
    r, c = divmod(cell, cols)
    return [(r + dr) * cols + c + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < rows and 0 <= c + dc < cols]


def shortest_route_length(rows: int, cols: int, start: int, target: int, avoid: frozenset[int]) -> int | None:
    """Steps on a shortest route of the blank (breadth-first search), None when the avoided cells wall it off.

    >>> shortest_route_length(2, 2, 0, 3, frozenset({1})), shortest_route_length(2, 2, 0, 3, frozenset({1, 2}))
    (2, None)
    """
    steps, frontier = {start: 0}, [start]
    while frontier:
        nxt = []
        for cell in frontier:
            if cell == target:
                return steps[cell]
            for n in _neighbour_cells(rows, cols, cell):
                if n not in avoid and n not in steps:
                    steps[n] = steps[cell] + 1
                    nxt.append(n)
        frontier = nxt
    return None


def _route_cases() -> Iterator[tuple[int, int, int, int, frozenset[int]]]:
    """Every situation on 2x2 and 2x3 boards with at most two cells avoided (fewest cells first), then seeded ones."""
    for rows, cols in ((2, 2), (2, 3)):
        n = rows * cols
        for k in range(3):
            for avoid in itertools.combinations(range(n), k):
                for start, target in itertools.permutations(set(range(n)) - set(avoid), 2):
                    yield rows, cols, start, target, frozenset(avoid)
    rng = np.random.default_rng(case_seed(SEED))
    for i in range(ROUTE_RANDOM):
        rows, cols = ROUTE_SHAPES[i % len(ROUTE_SHAPES)]
        n = rows * cols
        cells = [int(c) for c in rng.permutation(n)]
        k = int(rng.integers(1, n // 2))
        yield rows, cols, cells[0], cells[1], frozenset(cells[2:2 + k])


def _route_picture(rows: int, cols: int, start: int, target: int, avoid: frozenset[int]) -> str:
    """The board with its cells numbered, S the blank's cell, T the target, # the cells to avoid."""
    def mark(cell: int) -> str:
        return f"{cell:>2}" + ("S" if cell == start else "T" if cell == target else "#" if cell in avoid else " ")
    return "\n".join(" ".join(mark(r * cols + c) for c in range(cols)) for r in range(rows)) + "\n"


def _route_problem(got: Any, rows: int, cols: int, start: int, target: int, avoid: frozenset[int],
                   best: int | None) -> str | None:
    """What is wrong with ``got`` as the blank's route, in words, or None."""
    if got is None:
        return None if best is None else f"you returned None, but the blank can get there in {best} step{'s' * (best != 1)}"
    if not isinstance(got, (list, tuple)):
        return f"you returned {type(got).__name__}; return the list of cells the blank enters, or None"
    route = []
    for cell in got:
        try:
            route.append(int(cell))
        except (TypeError, ValueError):
            return f"your route holds {cell!r}: give each cell as one number, row * cols + col"
    if best is None:
        return "the avoided cells wall the target off, so there is no route: return None"
    if route and route[0] == start:
        return f"your route begins with cell {start}, where the blank already is: list only the cells it enters"
    here = start
    for step, cell in enumerate(route, start=1):
        if cell not in _neighbour_cells(rows, cols, here):
            return f"step {step} goes from cell {here} to cell {cell}, which is not next to it"
        if cell in avoid:
            return f"step {step} enters cell {cell}, which the blank must avoid"
        here = cell
    if here != target:
        return f"your route {route} ends on cell {here}, not on the target {target}"
    if len(route) > best:
        return f"your route takes {len(route)} steps; the shortest takes {best}"
    return None


@checker("solvers.blank_route", allow=(NUMPY,))
def check_blank_route(answer: Callable[[int, int, int, int, set], Any]) -> Result:
    """``answer(rows, cols, start, target, avoid)``: the cells a shortest route enters, or None when there is none."""
    name = "solvers.blank_route"
    n = 0
    for rows, cols, start, target, avoid in _route_cases():
        n += 1
        got = answer(rows, cols, start, target, set(avoid))
        problem = _route_problem(got, rows, cols, start, target, avoid,
                                 shortest_route_length(rows, cols, start, target, avoid))
        if problem is not None:
            where = f"avoiding {sorted(avoid)}" if avoid else "avoiding nothing"
            return Result(name, False, f"from cell {start} to cell {target} on the {rows}x{cols} board below "
                          f"({where}): {problem}", (rows, cols, start, target, sorted(avoid)),
                          _route_picture(rows, cols, start, target, avoid))
    return Result(name, True, f"passed on all {n} situations (every one on 2x2 and 2x3, then up to 4x4)")
