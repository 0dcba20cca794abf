"""Search traces: BFS, A* and IDA* step by step, as data (what a step-through picture draws).

Each search here is the same algorithm as its reference in :mod:`tilelab.sliding.search`
(same order of children, same tie-breaking, same node counts, same moves -- tested), but it
records one :class:`TraceStep` per expanded board: the board, its ``g``, ``h`` and ``f = g + h``,
the *open set* (boards generated and waiting to be expanded), the *closed set* (boards already
expanded), the path from the start to the board, and, for IDA*, the current ``bound``.

IDA* keeps no closed set: its ``closed`` is always empty and its ``open`` holds the children
still waiting on its depth-first stack (within the bound).

>>> from tilelab.sliding import Puzzle
>>> from tilelab.sliding.heuristics import manhattan
>>> t = astar_trace(Puzzle.parse('1 2 3\\n4 . 6\\n7 5 8'), manhattan)
>>> t.moves, len(t.steps), [(s.g, s.h, s.f) for s in t.steps]
((5, 8), 3, [(0, 2, 2), (1, 1, 2), (2, 0, 2)])
>>> len(t.steps[0].open), len(t.steps[0].closed)   # before expanding the start: it waits alone
(1, 0)
"""

from __future__ import annotations

import heapq
import itertools
from collections import deque
from dataclasses import dataclass, field
from typing import Callable

from tilelab.sliding.core import Puzzle
from tilelab.sliding.search import children

__all__ = ["DEFAULT_MAX_STEPS", "SearchTrace", "TraceStep", "astar_trace", "bfs_trace", "idastar_trace", "trace"]

Heuristic = Callable[[Puzzle], int]
DEFAULT_MAX_STEPS = 3000  # a trace keeps every step's sets: enough for 8-puzzles a dozen moves deep


@dataclass(frozen=True)
class Waiting:
    """A board in the open set, with its moves so far ``g`` and heuristic ``h``."""

    board: Puzzle
    g: int
    h: int

    @property
    def f(self) -> int:
        """``g + h``: the estimated length of a solution through this board."""
        return self.g + self.h


@dataclass(frozen=True, eq=False)
class TraceStep:
    """One expansion: the board taken from the open set, and the sets as they were just before.

    ``open`` is in the order the search will take its boards (queue order for BFS, smallest
    ``f`` first for A*, stack order for IDA*); ``closed`` holds the boards expanded before this
    one; ``path`` runs from the start to ``board``; ``bound`` is IDA*'s current bound (else
    ``None``); ``round`` counts IDA*'s restarts (0 for BFS and A*).
    """

    index: int
    board: Puzzle
    g: int
    h: int
    open: tuple[Waiting, ...]
    path: tuple[Puzzle, ...]
    bound: int | None = None
    round: int = 0
    expanded_order: list[Puzzle] = field(default_factory=list, repr=False)  # shared by all steps

    @property
    def closed(self) -> frozenset[Puzzle]:
        """The closed set: boards expanded before this step (IDA* keeps none: always empty)."""
        return frozenset(self.expanded_order[: self.index]) if self.expanded_order else frozenset()

    @property
    def closed_count(self) -> int:
        """How many boards the closed set holds (without building it)."""
        return min(self.index, len(self.expanded_order))

    @property
    def f(self) -> int:
        """``g + h`` of the board expanded in this step."""
        return self.g + self.h


@dataclass(frozen=True)
class SearchTrace:
    """A whole search: its steps, the moves found (tiles slid) and whether it finished."""

    method: str
    start: Puzzle
    steps: tuple[TraceStep, ...]
    moves: tuple[int, ...]
    found: bool
    truncated: bool = False  # stopped after ``max_steps`` expansions

    @property
    def nodes(self) -> int:
        """Boards expanded, counted as the package's solvers count them.

        A* stops when it *takes* the goal from the open set: that last step is shown but not
        counted as an expansion (as in :func:`~tilelab.sliding.search.astar_reference`).
        """
        goal_step = self.found and self.method != "bfs" and self.method != "idastar"
        return len(self.steps) - (1 if goal_step and self.steps else 0)

    def __len__(self) -> int:
        return len(self.steps)


def _check(start: object, max_steps: int) -> None:
    if not isinstance(start, Puzzle):
        raise TypeError(f"expected a tilelab.sliding.Puzzle, got {type(start).__name__}; build one with Puzzle.parse(text)")
    if not isinstance(max_steps, int) or max_steps < 1:
        raise ValueError(f"max_steps must be a positive whole number, got {max_steps!r}")


def _path_to(parent: dict, board: Puzzle) -> tuple[tuple[Puzzle, ...], tuple[int, ...]]:
    boards, moves = [board], []
    while parent[board] is not None:
        board, tile = parent[board]
        boards.append(board)
        moves.append(tile)
    return tuple(reversed(boards)), tuple(reversed(moves))


def bfs_trace(start: Puzzle, max_steps: int = DEFAULT_MAX_STEPS) -> SearchTrace:
    """Breadth-first search, one step per expanded board (``h`` is 0: BFS has no guess).

    Like :func:`~tilelab.sliding.search.bfs_reference` it stops as soon as it *generates* the
    goal, so the goal itself is never expanded.

    >>> from tilelab.sliding import Puzzle
    >>> t = bfs_trace(Puzzle.parse('1 2 3\\n4 . 6\\n7 5 8'))
    >>> t.moves, t.nodes, [len(s.open) for s in t.steps][:3]
    ((5, 8), 3, [1, 4, 5])
    """
    _check(start, max_steps)
    parent: dict[Puzzle, tuple[Puzzle, int] | None] = {start: None}
    queue: deque[Waiting] = deque([Waiting(start, 0, 0)])  # one Waiting per board, shared by snapshots
    order: list[Puzzle] = []  # the closed set, in the order boards were expanded
    steps: list[TraceStep] = []
    if start.is_goal():
        return SearchTrace("bfs", start, (), (), True)
    while queue:
        if len(steps) >= max_steps:
            return SearchTrace("bfs", start, tuple(steps), (), False, truncated=True)
        waiting = tuple(queue)
        item = queue.popleft()
        board = item.board
        steps.append(TraceStep(len(steps), board, item.g, 0, waiting, _path_to(parent, board)[0],
                               expanded_order=order))
        order.append(board)
        for tile, child in children(board):
            if child not in parent:
                parent[child] = (board, tile)
                if child.is_goal():
                    return SearchTrace("bfs", start, tuple(steps), _path_to(parent, child)[1], True)
                queue.append(Waiting(child, item.g + 1, 0))
    return SearchTrace("bfs", start, tuple(steps), (), False)


def astar_trace(start: Puzzle, h: Heuristic, weight: float = 1.0, max_steps: int = DEFAULT_MAX_STEPS) -> SearchTrace:
    """A* (or weighted A*, ``weight > 1``), one step per expanded board, the goal's step last.

    Same queue order as :func:`~tilelab.sliding.search.astar_reference`: smallest
    ``g + weight * h`` first, ties to the deeper board, then first pushed.

    >>> from tilelab.sliding import Puzzle
    >>> from tilelab.sliding.heuristics import manhattan
    >>> t = astar_trace(Puzzle.parse('4 1 2\\n5 . 3'), manhattan)
    >>> t.moves, t.steps[-1].board.is_goal()
    ((5, 4, 1, 2, 3), True)
    """
    _check(start, max_steps)
    best_g = {start: 0}
    hs = {start: h(start)}
    parent: dict[Puzzle, tuple[Puzzle, int] | None] = {start: None}
    tie = itertools.count()
    frontier = [(weight * hs[start], 0, next(tie), Waiting(start, 0, hs[start]))]
    closed: set[Puzzle] = set()
    order: list[Puzzle] = []
    steps: list[TraceStep] = []
    method = "astar" if weight == 1 else "weighted-astar"
    while frontier:
        _, _, _, item = heapq.heappop(frontier)
        board, g = item.board, item.g
        if board in closed:
            continue  # a stale entry
        if len(steps) >= max_steps:
            return SearchTrace(method, start, tuple(steps), (), False, truncated=True)
        # the open set in the order A* will take it (stale entries, reached more cheaply later, left out)
        waiting = (item, *(w for *_, w in sorted(frontier) if w.g == best_g[w.board] and w.board not in closed))
        steps.append(TraceStep(len(steps), board, g, item.h, waiting, _path_to(parent, board)[0],
                               expanded_order=order))
        if board.is_goal():
            return SearchTrace(method, start, tuple(steps), _path_to(parent, board)[1], True)
        closed.add(board)
        order.append(board)
        for tile, child in children(board):
            if child in closed or best_g.get(child, g + 2) <= g + 1:
                continue
            best_g[child] = g + 1
            parent[child] = (board, tile)
            hs.setdefault(child, h(child))
            heapq.heappush(frontier, (g + 1 + weight * hs[child], -(g + 1), next(tie), Waiting(child, g + 1, hs[child])))
    return SearchTrace(method, start, tuple(steps), (), False)


def idastar_trace(start: Puzzle, h: Heuristic, max_steps: int = DEFAULT_MAX_STEPS) -> SearchTrace:
    """IDA*, one step per expanded board, over every round (``bound`` and ``round`` say which).

    The same depth-first search as :func:`~tilelab.sliding.search.idastar_reference`, written
    with an explicit stack so that each step can list what waits on it. A child whose
    ``f > bound`` is never entered; the smallest such ``f`` is the next round's bound.

    >>> from tilelab.sliding import Puzzle
    >>> from tilelab.sliding.heuristics import manhattan
    >>> t = idastar_trace(Puzzle.parse('4 1 2\\n5 . 3'), manhattan)
    >>> t.moves, sorted({s.bound for s in t.steps}), t.steps[-1].closed
    ((5, 4, 1, 2, 3), [5], frozenset())
    """
    _check(start, max_steps)
    steps: list[TraceStep] = []
    bound = h(start)
    round_ = 0
    while True:
        # a stack frame: (the board with g and h, the blank's previous cell, path to it, moves to it)
        stack = [(Waiting(start, 0, h(start)), None, (start,), ())]
        smallest = float("inf")
        while stack:
            if len(steps) >= max_steps:
                return SearchTrace("idastar", start, tuple(steps), (), False, truncated=True)
            waiting = tuple(frame[0] for frame in reversed(stack))
            item, previous_blank, path, moves = stack.pop()
            board, g, h_board = item.board, item.g, item.h
            steps.append(TraceStep(len(steps), board, g, h_board, waiting, path, bound, round_))
            if h_board == 0:  # an admissible h is 0 only at the goal
                return SearchTrace("idastar", start, tuple(steps), moves, True)
            entered = []
            for tile, child in children(board):
                if child.blank == previous_blank:
                    continue  # never slide the same tile straight back
                h_child = h(child)
                f = g + 1 + h_child
                if f > bound:
                    smallest = min(smallest, f)
                    continue
                entered.append((Waiting(child, g + 1, h_child), board.blank, path + (child,), moves + (tile,)))
            stack.extend(reversed(entered))  # the first child is expanded first
        if smallest == float("inf"):
            return SearchTrace("idastar", start, tuple(steps), (), False)
        bound = int(smallest)
        round_ += 1


def trace(start: Puzzle, method: str = "astar", h: Heuristic | None = None, max_steps: int = DEFAULT_MAX_STEPS) -> SearchTrace:
    """Trace ``method`` ("bfs", "astar" or "idastar"); ``h`` defaults to Manhattan distance.

    >>> from tilelab.sliding import Puzzle
    >>> trace(Puzzle.parse('1 2\\n. 3'), "idastar").moves
    (3,)
    """
    if h is None:
        from tilelab.sliding.heuristics import manhattan as h
    if method == "bfs":
        return bfs_trace(start, max_steps)
    if method == "astar":
        return astar_trace(start, h, max_steps=max_steps)
    if method == "idastar":
        return idastar_trace(start, h, max_steps)
    raise ValueError(f"unknown method {method!r}; choose 'bfs', 'astar' or 'idastar'")
