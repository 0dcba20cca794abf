"""The readable searches the lesson teaches: breadth-first search, A*, weighted A*, IDA*.

Every search here works on :class:`~tilelab.sliding.Board` boards and a heuristic function
``h(board) -> int``, and returns a :class:`SearchOutcome` (moves, nodes expanded, whether it
finished). They are short and slow; :mod:`tilelab.sliding.fast.idastar` is the compiled IDA* that
gives the same answers (tested), and :func:`tilelab.sliding.solve` picks between them.

Moves are the tile numbers slid into the blank (single-tile metric). Children are generated
with the blank going up, down, left, right, and a search never slides back the tile it just
moved (that would undo the move).

Every search takes an optional ``observer``: a function called with a :class:`SearchStep` each
time the search takes a board to expand (the board, its ``g``, ``h`` and ``f``, the boards
waiting, the closed set, IDA*'s bound). A true return value stops the search
(``stopped_early``). :mod:`tilelab.sliding.trace` records these steps for the step-through
pictures, so the traces are these very searches.

>>> from tilelab.sliding import Board
>>> from tilelab.sliding.heuristics import manhattan
>>> p = Board.parse('1 2 3\\n4 . 6\\n7 5 8')
>>> bfs_reference(p).moves, astar_reference(p, manhattan).moves, idastar_reference(p, manhattan).moves
((5, 8), (5, 8), (5, 8))
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections import deque
from dataclasses import dataclass
from typing import Callable, Collection, Hashable, Iterator, Optional, TypeVar

from tilelab.inputs import as_float, as_int
from tilelab.sliding.core import BLANK, Board, require_board
from tilelab.sliding.parity import is_solvable

__all__ = [
    "BLANK_STEPS",
    "Observer",
    "SearchOutcome",
    "SearchStep",
    "Waiting",
    "astar_reference",
    "bfs_reference",
    "children",
    "idastar_reference",
]

Heuristic = Callable[[Board], int]
Key = TypeVar("Key", bound=Hashable)

# The blank's steps, in the order every search tries them: up, down, left, right.
BLANK_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
#: Without ``max_nodes`` or ``max_seconds`` these Python searches take boards of at most 9 cells (3x3, a few
#: seconds at worst); a larger board needs a budget, or :func:`tilelab.sliding.solve`.
UNBUDGETED_MAX_CELLS = 9


def _check_search(
    start: object, h: object, max_nodes: object, max_seconds: object, name: str, observer: object = None
) -> tuple[Board, int | None, float | None]:
    """Validate a search's arguments; returns (start, max_nodes, max_seconds) or raises naming the argument."""
    start = require_board(start)
    if h is not None and not callable(h):
        raise TypeError(f"h must be a heuristic function board -> int (e.g. manhattan), got {type(h).__name__}")
    if observer is not None and not callable(observer):
        raise TypeError(f"observer must be a function step -> bool (or None), got {type(observer).__name__}")
    nodes = None if max_nodes is None else as_int(max_nodes, "max_nodes", minimum=1)
    seconds = None if max_seconds is None else as_float(max_seconds, "max_seconds", minimum=0)
    if nodes is None and seconds is None and start.cell_count > UNBUDGETED_MAX_CELLS:
        raise ValueError(
            f"{name} on a {start.rows}x{start.cols} board could run for hours: without max_nodes or max_seconds it "
            f"takes boards of at most UNBUDGETED_MAX_CELLS={UNBUDGETED_MAX_CELLS} cells; pass a budget or use solve()"
        )
    return start, nodes, seconds


@dataclass
class SearchOutcome:
    """What a search found: the moves (empty if none), nodes expanded, and whether it finished."""

    moves: tuple[int, ...]
    nodes: int
    found: bool
    stopped_early: bool = False
    bound: int = 0  # IDA*: last bound; A*: best f popped (a lower bound on the optimum)


@dataclass(frozen=True)
class Waiting:
    """A board in the open set, with its moves so far ``g`` and heuristic ``h``."""

    board: Board
    g: int
    h: int

    @property
    def f(self) -> int:
        """``g + h``: the estimated length of a solution through this board."""
        return self.g + self.h


@dataclass(frozen=True, eq=False)
class SearchStep:
    """What an observer sees each time a search takes a board to expand, just before it does.

    ``frontier`` lists the boards waiting in the order the search takes them, ``board`` first
    (BFS: queue order; A*: smallest ``f`` first, stale entries left out; IDA*: its depth-first
    stack within the bound). ``closed`` is the search's own collection of the boards expanded
    before this one: read it during the call, copy it to keep it (IDA* keeps none: empty).
    ``path`` runs from the start to ``board``; ``expanded`` counts the boards expanded so far;
    ``bound`` and ``round`` are IDA*'s (``None`` and 0 elsewhere). For weighted A*, ``f`` is
    still ``g + h``; the queue orders by ``g + weight * h``. A* shows every board it takes: the
    goal it stops at and, when its budget runs out, the board it took last are shown but not
    counted in ``nodes``.
    """

    board: Board
    g: int
    h: int
    frontier: tuple[Waiting, ...]
    closed: Collection[Board]
    path: tuple[Board, ...]
    expanded: int
    bound: int | None = None
    round: int = 0

    @property
    def f(self) -> int:
        """``g + h`` of the board about to be expanded."""
        return self.g + self.h


#: An observer gets every :class:`SearchStep`; a true result stops the search.
Observer = Callable[[SearchStep], Optional[bool]]


class NodeCounter:
    """Counts nodes and watches the clock; ``exceeded()`` is checked once per node."""

    def __init__(self, max_nodes: int | None = None, max_seconds: float | None = None) -> None:
        self.max_nodes = max_nodes
        self.deadline = None if max_seconds is None else time.perf_counter() + max_seconds
        self.nodes = 0

    def exceeded(self) -> bool:
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            return True
        # checking the clock on every node would dominate; every 1024th is enough
        return self.deadline is not None and self.nodes % 1024 == 0 and time.perf_counter() > self.deadline


def children(board: Board) -> Iterator[tuple[int, Board]]:
    """Yield ``(tile, board after sliding it)`` with the blank going up, down, left, right.

    >>> from tilelab.sliding import Board
    >>> [t for t, _ in children(Board.parse('1 2 3\\n4 . 6\\n7 5 8'))]
    [2, 5, 4, 6]
    """
    rows, cols = board.rows, board.cols
    b = board.blank_index
    r, c = divmod(b, cols)
    for dr, dc in BLANK_STEPS:
        rr, cc = r + dr, c + dc
        if 0 <= rr < rows and 0 <= cc < cols:
            cell = rr * cols + cc
            tiles = list(board.tiles)
            tiles[b], tiles[cell] = tiles[cell], BLANK  # the tile slides into the blank
            yield tiles[b], Board.trusted(tuple(tiles), rows, cols, cell)


def _path(parent: dict[Key, tuple[Key, int] | None], board: Key) -> tuple[int, ...]:
    """Walk the parent links back from ``board`` and return the tiles slid, first move first."""
    moves = []
    link = parent[board]
    while link is not None:
        board, tile = link
        moves.append(tile)
        link = parent[board]
    return tuple(reversed(moves))


def _chain(parent: dict[Key, tuple[Key, int] | None], board: Key) -> list[Key]:
    """The boards from the start to ``board``, following the parent links (an observer's ``path``)."""
    line = [board]
    link = parent[board]
    while link is not None:
        line.append(link[0])
        link = parent[link[0]]
    return line[::-1]


def bfs_reference(
    start: Board,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    *,
    observer: Observer | None = None,
) -> SearchOutcome:
    """Breadth-first search: expand boards in order of distance, so the first goal is optimal.

    Boards are kept as plain tuples of tiles here (hashing a tuple is cheap; the 8-puzzle can
    need a hundred thousand of them).

    >>> from tilelab.sliding import Board
    >>> out = bfs_reference(Board.parse('1 2\\n. 3'))
    >>> out.moves, out.nodes
    ((3,), 1)
    """
    start, max_nodes, max_seconds = _check_search(start, None, max_nodes, max_seconds, "bfs_reference", observer)
    rows, cols = start.rows, start.cols
    goal = Board.goal(rows, cols).tiles
    steps = [[cell + dr * cols + dc for dr, dc in BLANK_STEPS
              if 0 <= cell // cols + dr < rows and 0 <= cell % cols + dc < cols]
             for cell in range(rows * cols)]
    parent: dict[tuple[int, ...], tuple[tuple[int, ...], int] | None] = {start.tiles: None}
    queue = deque([(start.tiles, start.blank_index)])
    budget = NodeCounter(max_nodes, max_seconds)
    # Only for an observer: the queue's boards as Waiting (g, h=0), and the boards expanded, in order.
    shown = deque([Waiting(start, 0, 0)]) if observer is not None else None
    expanded: list[Board] = []
    board_of = {start.tiles: start}  # the Board behind each tuple of tiles
    if start.tiles == goal:
        return SearchOutcome((), 0, True)
    while queue:
        if budget.exceeded():
            return SearchOutcome((), budget.nodes, False, stopped_early=True)
        g = 0
        if observer is not None and shown is not None:
            item = shown.popleft()
            g = item.g
            path = tuple(board_of[tiles] for tiles in _chain(parent, item.board.tiles))
            if observer(SearchStep(item.board, g, 0, (item, *shown), expanded, path, budget.nodes)):
                return SearchOutcome((), budget.nodes, False, stopped_early=True)
            expanded.append(item.board)
        tiles, blank = queue.popleft()
        budget.nodes += 1
        for cell in steps[blank]:
            moved = list(tiles)
            moved[blank], moved[cell] = moved[cell], BLANK
            child = tuple(moved)
            if child not in parent:
                parent[child] = (tiles, moved[blank])
                if child == goal:  # goal test when generated: BFS layers are in order
                    return SearchOutcome(_path(parent, child), budget.nodes, True)
                queue.append((child, cell))
                if shown is not None:
                    board_of[child] = Board.trusted(child, rows, cols, cell)
                    shown.append(Waiting(board_of[child], g + 1, 0))
    return SearchOutcome((), budget.nodes, False)


def astar_reference(
    start: Board,
    h: Heuristic,
    weight: float = 1.0,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    *,
    observer: Observer | None = None,
) -> SearchOutcome:
    """A* (``weight == 1``) or weighted A* (``f = g + weight * h``, ``weight > 1``).

    Boards wait in a priority queue ordered by ``f``; ties go to the deeper board (larger
    ``g``), which reaches the goal sooner. A board reached again by a shorter path is reopened
    (taken out of the closed set and queued with its new ``g``), so an admissible ``h`` (one that
    never overestimates) is enough, consistent or not: with ``weight == 1`` the first goal popped
    is optimal (Hart, Nilsson & Raphael 1968); with ``weight = w`` it is at most ``w`` times
    optimal. With a consistent ``h`` no board is ever reopened.

    >>> from tilelab.sliding import Board
    >>> from tilelab.sliding.heuristics import manhattan
    >>> astar_reference(Board.parse('4 1 2\\n5 . 3'), manhattan).moves
    (5, 4, 1, 2, 3)
    """
    start, max_nodes, max_seconds = _check_search(start, h, max_nodes, max_seconds, "astar_reference", observer)
    weight = as_float(weight, "weight")  # nan would make every comparison False, inf every f infinite
    if weight < 1:
        raise ValueError(f"weight must be a number >= 1, got {weight}")
    goal = Board.goal(start.rows, start.cols)
    best_g = {start: 0}
    parent: dict[Board, tuple[Board, int] | None] = {start: None}
    tie = itertools.count()  # keeps the heap stable (first pushed first) among equal keys
    h_start = h(start)
    frontier = [(weight * h_start, 0, next(tie), start)]
    closed: set[Board] = set()
    budget = NodeCounter(max_nodes, max_seconds)
    lower = 0
    shown = {0: Waiting(start, 0, h_start)}  # only for an observer: each heap entry (by its tie number) as Waiting
    while frontier:
        f, neg_g, number, board = heapq.heappop(frontier)
        if -neg_g != best_g[board] or board in closed:
            continue  # a stale entry: this board was reached more cheaply later
        if observer is not None and observer(_astar_step(shown[number], frontier, shown, best_g, closed,
                                                         parent, budget.nodes)):
            return SearchOutcome((), budget.nodes, False, stopped_early=True, bound=lower)
        if board == goal:
            return SearchOutcome(_path(parent, board), budget.nodes, True, bound=int(f))
        if budget.exceeded():
            return SearchOutcome((), budget.nodes, False, stopped_early=True, bound=lower)
        lower = max(lower, int(f)) if weight == 1 else lower
        closed.add(board)
        budget.nodes += 1
        g = -neg_g + 1
        for tile, child in children(board):
            if best_g.get(child, g + 1) <= g:
                continue  # reached before by a path at least as short
            best_g[child] = g
            closed.discard(child)  # reached more cheaply than when it was expanded: reopen it
            parent[child] = (board, tile)
            h_child = h(child)
            number = next(tie)
            heapq.heappush(frontier, (g + weight * h_child, -g, number, child))
            if observer is not None:
                shown[number] = Waiting(child, g, h_child)
    return SearchOutcome((), budget.nodes, False)


def _astar_step(
    item: Waiting,
    frontier: list[tuple[float, int, int, Board]],
    shown: dict[int, Waiting],
    best_g: dict[Board, int],
    closed: set[Board],
    parent: dict[Board, tuple[Board, int] | None],
    expanded: int,
) -> SearchStep:
    """A*'s step for an observer: the open set in the order A* takes it, stale entries left out."""
    waiting = (shown[number] for _, neg_g, number, board in sorted(frontier)
               if -neg_g == best_g[board] and board not in closed)
    return SearchStep(item.board, item.g, item.h, (item, *waiting), closed, tuple(_chain(parent, item.board)), expanded)


def idastar_reference(
    start: Board,
    h: Heuristic,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    *,
    observer: Observer | None = None,
) -> SearchOutcome:
    """Iterative-deepening A*: depth-first search cut at ``f = g + h > bound``, bound raised each round.

    Memory is only the current path; the price is re-expanding the shallow boards every round.
    A child whose ``f`` exceeds the bound is not entered (its ``f`` becomes a candidate for the
    next bound); the move that would undo the previous one is never tried. Each board first sorts
    its children into those within the bound (entered in order) and those over it. An unsolvable
    board is answered at once (not found, no nodes): IDA* would raise its bound forever.

    >>> from tilelab.sliding import Board
    >>> from tilelab.sliding.heuristics import manhattan
    >>> out = idastar_reference(Board.parse('4 1 2\\n5 . 3'), manhattan)
    >>> out.moves, out.bound
    ((5, 4, 1, 2, 3), 5)
    """
    start, max_nodes, max_seconds = _check_search(start, h, max_nodes, max_seconds, "idastar_reference", observer)
    budget = NodeCounter(max_nodes, max_seconds)
    if not is_solvable(start):
        return SearchOutcome((), 0, False)
    path: list[int] = []
    bound = h_start = h(start)
    round_ = 0
    # Only for an observer: the children still to enter, one deque per depth, and the boards along the path.
    waiting: list[deque[Waiting]] = []
    line = [start]

    def dfs(board: Board, g: int, h_board: int, previous_blank: tuple[int, int] | None) -> float | None:
        """Return None when the goal is found (``path`` holds it), else the smallest f over the bound."""
        if observer is not None:
            frontier = (Waiting(board, g, h_board), *itertools.chain.from_iterable(reversed(waiting)))
            step = SearchStep(board, g, h_board, frontier, (), tuple(line), budget.nodes, bound, round_)
            if observer(step):
                raise _OutOfBudget
        budget.nodes += 1
        if board.is_goal():  # not h == 0: h = 0 everywhere is admissible too
            return None
        smallest = float("inf")
        entered = []
        for tile, child in children(board):
            if child.blank == previous_blank:
                continue  # sliding the same tile straight back
            h_child = h(child)
            f = g + 1 + h_child
            if f > bound:
                smallest = min(smallest, f)
            else:
                entered.append((tile, child, h_child))
        if observer is not None:
            waiting.append(deque(Waiting(child, g + 1, h_child) for _, child, h_child in entered))
        for tile, child, h_child in entered:
            if budget.exceeded():
                raise _OutOfBudget
            if observer is not None:
                waiting[-1].popleft()
                line.append(child)
            path.append(tile)
            found = dfs(child, g + 1, h_child, board.blank)
            if found is None:
                return None
            path.pop()
            if observer is not None:
                line.pop()
            smallest = min(smallest, found)
        if observer is not None:
            waiting.pop()
        return smallest

    while True:
        try:
            result = dfs(start, 0, h_start, None)
        except _OutOfBudget:
            return SearchOutcome((), budget.nodes, False, stopped_early=True, bound=bound)
        if result is None:
            return SearchOutcome(tuple(path), budget.nodes, True, bound=bound)
        if result == float("inf"):  # no board over the bound is left: the goal cannot be reached
            return SearchOutcome((), budget.nodes, False, bound=bound)
        bound = int(result)
        round_ += 1


class _OutOfBudget(Exception):
    """Raised inside the recursion to unwind it when the budget runs out."""

