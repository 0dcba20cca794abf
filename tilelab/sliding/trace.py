"""Search traces: BFS, A* and IDA* step by step, as data (what a step-through picture draws).

Each trace here *is* its reference search in :mod:`tilelab.sliding.search`, run with an
observer (same order of children, same tie-breaking, same node counts, same moves), that
records one :class:`TraceStep` per expanded board: the board, its ``g``, ``h`` and ``f = g + h``,
the *open set* (boards generated and waiting to be expanded), the *closed set* (boards already
expanded), the path from the start to the board, and, for IDA*, the current ``bound``.

IDA* keeps no closed set: its ``closed`` is always empty and its ``open`` holds the children
still waiting on its depth-first stack (within the bound).

>>> from tilelab.sliding import Board
>>> from tilelab.sliding.heuristics import manhattan
>>> t = astar_trace(Board.parse('1 2 3\\n4 . 6\\n7 5 8'), manhattan)
>>> t.moves, len(t.steps), [(s.g, s.h, s.f) for s in t.steps]
((5, 8), 3, [(0, 2, 2), (1, 1, 2), (2, 0, 2)])
>>> len(t.steps[0].open), len(t.steps[0].closed)   # before expanding the start: it waits alone
(1, 0)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from tilelab.sliding.core import Board
from tilelab.sliding.search import (
    SearchOutcome,
    SearchStep,
    Waiting,
    astar_reference,
    bfs_reference,
    idastar_reference,
)

__all__ = ["DEFAULT_MAX_STEPS", "SearchTrace", "TraceStep", "astar_trace", "bfs_trace", "idastar_trace", "trace"]

Heuristic = Callable[[Board], int]
DEFAULT_MAX_STEPS = 3000  # a trace keeps every step's sets: enough for 8-puzzles a dozen moves deep


@dataclass(frozen=True, eq=False)
class TraceStep:
    """One expansion: the board taken from the open set, and the sets as they were just before.

    ``open`` is in the order the search will take its boards (queue order for BFS, smallest
    ``f`` first for A*, stack order for IDA*); ``closed`` holds the boards expanded before this
    one; ``path`` runs from the start to ``board``; ``bound`` is IDA*'s current bound (else
    ``None``); ``round`` counts IDA*'s restarts (0 for BFS and A*).
    """

    index: int
    board: Board
    g: int
    h: int
    open: tuple[Waiting, ...]
    path: tuple[Board, ...]
    bound: int | None = None
    round: int = 0
    expanded_order: list[Board] = field(default_factory=list, repr=False)  # shared by all steps

    @property
    def closed(self) -> frozenset[Board]:
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
    start: Board
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


def _check(start: object, max_steps: object) -> int:
    if not isinstance(start, Board):
        raise TypeError(f"expected a tilelab.sliding.Board, got {type(start).__name__}; build one with Board.parse(text)")
    if not isinstance(max_steps, int) or max_steps < 1:
        raise ValueError(f"max_steps must be a positive whole number, got {max_steps!r}")
    return int(max_steps)


class _Recorder:
    """The observer a trace hands to a reference search: one :class:`TraceStep` per step, at most ``max_steps``."""

    def __init__(self, max_steps: int, keeps_closed: bool) -> None:
        self.max_steps = max_steps
        self.keeps_closed = keeps_closed  # BFS and A* keep a closed set; IDA* none
        self.steps: list[TraceStep] = []
        self.order: list[Board] = []  # the closed set in the order boards were expanded, shared by the steps

    def __call__(self, step: SearchStep) -> bool:
        """Record ``step``; True (stop the search) once the trace is full."""
        if len(self.steps) >= self.max_steps:
            return True
        index = len(self.steps)
        if self.keeps_closed:
            self.steps.append(TraceStep(index, step.board, step.g, step.h, step.frontier, step.path,
                                        expanded_order=self.order))
            if not step.board.is_goal():  # A* stops when it takes the goal: never expanded
                self.order.append(step.board)
        else:
            self.steps.append(TraceStep(index, step.board, step.g, step.h, step.frontier, step.path,
                                        step.bound, step.round))
        return False

    def trace(self, method: str, start: Board, out: SearchOutcome) -> SearchTrace:
        """The finished trace, from the search's outcome."""
        return SearchTrace(method, start, tuple(self.steps), out.moves, out.found, truncated=out.stopped_early)


def bfs_trace(start: Board, max_steps: int = DEFAULT_MAX_STEPS) -> SearchTrace:
    """Breadth-first search, one step per expanded board (``h`` is 0: BFS has no guess).

    Like :func:`~tilelab.sliding.search.bfs_reference` (which it runs) it stops as soon as it
    *generates* the goal, so the goal itself is never expanded.

    >>> from tilelab.sliding import Board
    >>> t = bfs_trace(Board.parse('1 2 3\\n4 . 6\\n7 5 8'))
    >>> t.moves, t.nodes, [len(s.open) for s in t.steps][:3]
    ((5, 8), 3, [1, 4, 5])
    """
    max_steps = _check(start, max_steps)
    recorder = _Recorder(max_steps, keeps_closed=True)
    return recorder.trace("bfs", start, bfs_reference(start, max_nodes=max_steps, observer=recorder))


def astar_trace(start: Board, h: Heuristic, weight: float = 1.0, max_steps: int = DEFAULT_MAX_STEPS) -> SearchTrace:
    """A* (or weighted A*, ``weight > 1``), one step per expanded board, the goal's step last.

    It runs :func:`~tilelab.sliding.search.astar_reference`: smallest ``g + weight * h``
    first, ties to the deeper board, then first pushed.

    >>> from tilelab.sliding import Board
    >>> from tilelab.sliding.heuristics import manhattan
    >>> t = astar_trace(Board.parse('4 1 2\\n5 . 3'), manhattan)
    >>> t.moves, t.steps[-1].board.is_goal()
    ((5, 4, 1, 2, 3), True)
    """
    max_steps = _check(start, max_steps)
    recorder = _Recorder(max_steps, keeps_closed=True)
    out = astar_reference(start, h, weight, max_nodes=max_steps, observer=recorder)
    return recorder.trace("astar" if weight == 1 else "weighted-astar", start, out)


def idastar_trace(start: Board, h: Heuristic, max_steps: int = DEFAULT_MAX_STEPS) -> SearchTrace:
    """IDA*, one step per expanded board, over every round (``bound`` and ``round`` say which).

    It runs :func:`~tilelab.sliding.search.idastar_reference`; each step's open set is what
    waits on its depth-first stack within the bound. A child whose ``f > bound`` is never
    entered; the smallest such ``f`` is the next round's bound.

    >>> from tilelab.sliding import Board
    >>> from tilelab.sliding.heuristics import manhattan
    >>> t = idastar_trace(Board.parse('4 1 2\\n5 . 3'), manhattan)
    >>> t.moves, sorted({s.bound for s in t.steps}), t.steps[-1].closed
    ((5, 4, 1, 2, 3), [5], frozenset())
    """
    max_steps = _check(start, max_steps)
    recorder = _Recorder(max_steps, keeps_closed=False)
    return recorder.trace("idastar", start, idastar_reference(start, h, max_nodes=max_steps, observer=recorder))


def trace(start: Board, method: str = "astar", h: Heuristic | None = None, max_steps: int = DEFAULT_MAX_STEPS) -> SearchTrace:
    """Trace ``method`` ("bfs", "astar" or "idastar"); ``h`` defaults to Manhattan distance.

    >>> from tilelab.sliding import Board
    >>> trace(Board.parse('1 2\\n. 3'), "idastar").moves
    (3,)
    """
    from tilelab.sliding.heuristics import manhattan

    heuristic = manhattan if h is None else h
    if method == "bfs":
        return bfs_trace(start, max_steps)
    if method == "astar":
        return astar_trace(start, heuristic, max_steps=max_steps)
    if method == "idastar":
        return idastar_trace(start, heuristic, max_steps)
    raise ValueError(f"unknown method {method!r}; choose 'bfs', 'astar' or 'idastar'")
