"""Checkers for lesson 4 (solving the sliding puzzle).

- ``"solvers.misplaced"``: ``answer(board) -> int``, tiles off their goal cell, blank not counted.
- ``"solvers.manhattan"``: ``answer(board) -> int``, the Manhattan distance; every 2x2 and 2x3
  board, then random boards from 3x3 to 5x5, square or not.
- ``"solvers.admissible"``: ``answer(board) -> int``, *your own* heuristic that must do two things:
  never overestimate the true distance, on every one of the 181,440 solvable 8-puzzle boards (exact
  distances by one breadth-first search from the goal, done once per process), AND beat Manhattan
  distance on average over them (a larger mean value; ``lambda p: 0`` and ``manhattan`` itself fail).
- ``"solvers.pattern_lookup"``: ``answer(board) -> int``, the additive 8-puzzle pattern-database
  value for the split 1-2-3-4 / 5-6-7-8 (the sum of the two patterns' exact distances, no mirror).
- ``"solvers.pattern_table"``: ``answer(rows, cols, pattern) -> dict``, one pattern's table built by
  breadth-first search: ``{cells of the pattern's tiles (in pattern order): fewest pattern moves}``,
  compared with :func:`tilelab.sliding.pdb.build_table` on small boards.
- ``"solvers.blank_route"``: ``answer(rows, cols, start, target, avoid) -> list of cells or None``, the blank's
  shortest route (the cells it enters, ``target`` last) never entering a cell of ``avoid``, or None when there is
  none: every situation on 2x2 and 2x3 boards, then seeded ones up to 4x4.
- ``"solvers.search"``: ``answer(board) -> list of tiles``, an optimal solver (your A*): every move
  legal, the goal reached, and the length equal to the true distance, on 2x3 and 3x3 boards from
  0 to 31 moves.

Each exercise refuses an answer that calls the package function doing its job (``manhattan`` for
"write Manhattan", ``solve``/``astar_reference``/``distance`` for "write A*", ``linear_conflict`` or a
package pattern database for "a heuristic of your own"...); tilelab's own tests use
:func:`tilelab.exercises.allow_package_calls`.

>>> from tilelab.exercises import allow_package_calls, check
>>> from tilelab.sliding import manhattan
>>> check("solvers.manhattan", manhattan).passed          # the package's own: refused
False
>>> with allow_package_calls():
...     check("solvers.manhattan", manhattan).passed
True
>>> check("solvers.admissible", lambda p: 0).passed      # admissible, but weaker than Manhattan
False
"""

from __future__ import annotations

import functools
import itertools
import traceback
from typing import Any, Callable, Iterator

import numpy as np

from tilelab.exercises import Result, as_real, case_seed, cases_cache, checker, counting, first_counterexample
from tilelab.exercises.allow import NUMPY, PUZZLE, Kit
from tilelab.sliding import Board, is_solvable, random_board
from tilelab.sliding.heuristics import manhattan, misplaced
from tilelab.sliding.space import distance_table, rank, unrank

SEED = 4
RANDOM_SHAPES = [(3, 3), (4, 4), (3, 4), (4, 3), (5, 5), (2, 5), (3, 5)]
EXHAUSTIVE_SHAPES = [(2, 2), (2, 3)]
SEARCH_BOARDS = 12  # random 8-puzzles for "write A*" (plus the goal, a one-move board and 2x3 boards)
MIN_GAIN = 0.01  # "beats Manhattan": a mean at least this much larger (rules out rounding noise)
PDB8_PATTERNS = ((1, 2, 3, 4), (5, 6, 7, 8))
TABLE_CASES = ((2, 2, (1,)), (2, 3, (1, 2)), (2, 3, (3, 4, 5)), (3, 3, (1, 2, 3, 4)), (3, 3, (5, 6, 7, 8)))

_S = "tilelab.sliding:"
#: Moving boards: what a search may use to expand one (the lesson's ``children``, a Board's moves).
_MOVES = Kit("moves (children, play, a Board's slide and legal_moves)", (
    "tilelab.sliding.search:children", _S + "legal_moves", _S + "play", _S + "Slide[*]",
    _S + "Board[slide legal_moves neighbour_tiles neighbours successors tile_for legal_directions swap_tiles]"))
#: The heuristics a search (or a heuristic of one's own) may build on.
_HEURISTICS = (_S + "manhattan", _S + "misplaced")
#: What each exercise's answer may call; any other tilelab function (the heuristic asked for, the
#: package's searches, distances and pattern databases, ``linear_conflict`` for "a heuristic of your
#: own") is delegation.
ALLOW = {
    "heuristic": (PUZZLE, NUMPY),
    "admissible": (PUZZLE, *_HEURISTICS, NUMPY),
    "search": (PUZZLE, _MOVES, _S + "manhattan", NUMPY),
    "pattern": (PUZZLE, _MOVES, NUMPY),
    "route": (NUMPY,),
}


#: The two checks that run the answer on all 181,440 8-puzzle boards get longer: a Python heuristic takes
#: 2-3 s for them unwatched, 3-6 s watched on Python 3.12+, up to 25 s with the profile hook of 3.10/3.11.
EIGHT_PUZZLE_LIMIT = 180.0


def _show(p: Board) -> str:
    return f"the {p.rows}x{p.cols} board\n{p}\n"


def _boards() -> Iterator[Board]:
    for rows, cols in EXHAUSTIVE_SHAPES:
        for tiles in itertools.permutations(range(rows * cols)):
            yield Board(tiles, rows, cols)
    rng = np.random.default_rng(case_seed(SEED))
    for k in range(300):
        yield random_board(*RANDOM_SHAPES[k % len(RANDOM_SHAPES)], rng=rng)


def _unrank_many(ranks: np.ndarray, n: int) -> np.ndarray:
    """Every rank's permutation of ``0..n-1`` (vectorised :func:`tilelab.sliding.space.unrank`)."""
    k = len(ranks)
    left = np.tile(np.arange(n, dtype=np.int8), (k, 1))
    out = np.empty((k, n), dtype=np.int8)
    rest = ranks.astype(np.int64)
    for i in range(n):
        weight = int(np.prod(np.arange(1, n - i, dtype=np.int64)))
        digit, rest = np.divmod(rest, weight)
        out[:, i] = left[np.arange(k), digit]
        keep = np.arange(n - i) != digit[:, None]
        left = left[keep].reshape(k, n - i - 1)
    return out


@functools.lru_cache(maxsize=1)
def all_eight_puzzles() -> tuple[tuple[Board, ...], np.ndarray, np.ndarray]:
    """Every solvable 8-puzzle board, nearest the goal first, with its true distance and Manhattan value.

    The distances come from one breadth-first search backwards from the goal
    (:func:`tilelab.sliding.space.distance_table`), computed once per process. Every board, so there is
    nothing random to draw: :func:`tilelab.exercises.hidden_cases` leaves this set as it is.
    """
    table = distance_table(3, 3)
    ranks = np.flatnonzero(table >= 0)
    ranks = ranks[np.argsort(table[ranks], kind="stable")]
    tiles = _unrank_many(ranks, 9)
    rows = list(map(tuple, tiles.tolist()))
    boards = tuple(Board.trusted(t, 3, 3, t.index(0)) for t in rows)  # every row is a permutation: no check needed
    goal_row, goal_col = np.divmod(np.arange(-1, 8) % 9, 3)  # goal cell of tile t (t = 0 unused)
    cell_row, cell_col = np.divmod(np.arange(9), 3)
    away = np.abs(cell_row - goal_row[tiles]) + np.abs(cell_col - goal_col[tiles])
    mans = np.where(tiles != 0, away, 0).sum(axis=1)
    return boards, table[ranks].astype(np.int64), mans


@checker("solvers.misplaced", allow=ALLOW["heuristic"], job=("tilelab.sliding:misplaced",))
def check_misplaced(answer: Callable[[Board], Any]) -> Result:
    """Compare with :func:`tilelab.sliding.heuristics.misplaced` (the blank is not a tile)."""
    near_goal = [Board.goal(3, 3).slide(8), Board.goal(3, 3)]  # the classic off-by-one first
    return first_counterexample("solvers.misplaced", answer, misplaced,
                                itertools.chain(near_goal, _boards()), show=_show)


@checker("solvers.manhattan", allow=ALLOW["heuristic"], job=("tilelab.sliding:manhattan",))
def check_manhattan(answer: Callable[[Board], Any]) -> Result:
    """Compare with :func:`tilelab.sliding.heuristics.manhattan`."""
    return first_counterexample("solvers.manhattan", answer, manhattan, _boards(), show=_show)


def _evaluate(answer: Callable[[Board], Any], boards: tuple[Board, ...], start: int, end: int) -> list[Any]:
    """``answer`` on ``boards[start:end]``; an exception is returned in place of the value."""
    return [_call(answer, boards[i]) for i in range(start, end)]


class _Raised:
    """The exception an answer raised on one board (kept in place of its value)."""

    def __init__(self, exc: Exception) -> None:
        self.text = traceback.format_exception_only(type(exc), exc)[-1].strip()


def _call(answer: Callable[[Board], Any], board: Board) -> Any:
    try:
        return answer(board)
    except Exception as exc:  # reported with its board, never raised
        return _Raised(exc)


def _numbers(name: str, values: list, boards: tuple[Board, ...], start: int) -> tuple[np.ndarray | None, Result | None]:
    """The answer's values as floats, or a Result naming the first board where it raised or is not a number."""
    out = np.empty(len(values))
    for i, h in enumerate(values):
        board = boards[start + i]
        if isinstance(h, _Raised):
            return None, Result(name, False, f"on the board below your code raised {h.text}", board, _show(board),
                                "raised")
        value = h if type(h) in (int, float) else as_real(h)  # any real number: Fraction, Decimal, numpy's
        if value is None or isinstance(h, bool) or value != value:
            return None, Result(name, False, f"your function returned {h!r} on the board below; return a number",
                                board, _show(board))
        out[i] = value
    return out, None


def _layers(truth: np.ndarray) -> Iterator[tuple[int, int]]:
    """(start, end) of the boards at each distance, nearest first."""
    ends = np.searchsorted(truth, np.arange(int(truth[-1]) + 1), side="right")
    start = 0
    for end in ends:
        yield start, int(end)
        start = int(end)


@checker("solvers.admissible", allow=ALLOW["admissible"], prepare=all_eight_puzzles, seconds=EIGHT_PUZZLE_LIMIT,
         job=("tilelab.sliding:linear_conflict",))
def check_admissible(answer: Callable[[Board], Any]) -> Result:
    """Is ``answer`` a lower bound on the true distance of every solvable 8-puzzle, and above Manhattan's mean?"""
    name = "solvers.admissible"
    boards, truth, mans = all_eight_puzzles()
    values = np.empty(len(boards))
    for start, end in _layers(truth):  # nearest first: the smallest counterexample is found first
        got, problem = _numbers(name, _evaluate(answer, boards, start, end), boards, start)
        if problem is not None:
            return problem
        bad = np.flatnonzero((got > truth[start:end]) | (got < 0))
        if len(bad):
            i = start + int(bad[0])
            board, h, d = boards[i], values_repr(got[bad[0]]), int(truth[i])
            if got[bad[0]] < 0:
                return Result(name, False, f"h = {h} is negative on the board below", board, _show(board))
            return Result(name, False, f"not admissible: h = {h} but the board below is only {d} move{'s' if d != 1 else ''} "
                          "from the goal", board, _show(board))
        values[start:end] = got
    mean, man = values.mean(), mans.mean()
    if not mean > man + MIN_GAIN:
        return Result(name, False,
                      f"admissible on all {len(boards):,} boards, but not stronger than Manhattan: your mean is "
                      f"{mean:.2f}, Manhattan's {man:.2f}. Hint: add to Manhattan 2 for every tile "
                      "that must leave its goal row or column to let another pass (lesson 4b's linear conflict)")
    return Result(name, True,
                  f"admissible on all {len(boards):,} solvable 8-puzzle boards, and stronger than Manhattan: "
                  f"mean {mean:.2f} vs {man:.2f} (the true mean distance is {truth.mean():.2f})")


def values_repr(h: float) -> str:
    """A heuristic value as the student would write it (12, not 12.0)."""
    return str(int(h)) if float(h).is_integer() else f"{h:g}"


def _search_boards() -> list[Board]:
    """The goal, a one-move board, three 2x3 boards and random 8-puzzles (drawn from the grader's seed inside
    :func:`tilelab.exercises.hidden_cases`), nearest the goal first."""
    rng = np.random.default_rng(case_seed(SEED))
    boards = [Board.goal(3, 3), Board.goal(3, 3).slide(8)]
    boards += [b for b in (random_board(2, 3, rng=rng) for _ in range(12)) if is_solvable(b)][:3]
    boards += [b for b in (random_board(3, 3, rng=rng) for _ in range(4 * SEARCH_BOARDS)) if is_solvable(b)][:SEARCH_BOARDS]
    table = distance_table(3, 3)
    far = unrank(int(np.flatnonzero(table == table.max())[0]), 9)  # one of the two 31-move boards
    boards.append(Board(far, 3, 3))
    return sorted(boards, key=_true_distance)


def _true_distance(board: Board) -> int:
    return int(distance_table(board.rows, board.cols)[rank(board.tiles)])


#: Expanding a board: what a search calls to list the boards one move away (their first argument is the board).
EXPANSIONS = ("tilelab.sliding.search:children", _S + "legal_moves", *(
    f"{_S}Board.{name}" for name in ("legal_moves", "neighbour_tiles", "neighbours", "successors", "legal_directions")))


@cases_cache()
def search_cases() -> tuple[tuple[Board, int, dict[Board, int]], ...]:
    """The search boards with their true distance C and, for every board A* may expand, its f = g + h.

    A* with Manhattan (a consistent heuristic) expands only boards with f = g + h <= C, each once, in
    order of nondecreasing f; a breadth-first search from the start that never goes past f > C finds
    them all with their true g (every board on a shortest path to such a board has f <= C too).
    """
    from collections import deque

    from tilelab.sliding.search import children

    out = []
    for board in _search_boards():
        limit = _true_distance(board)
        g = {board: 0}
        queue = deque([board])
        while queue:
            node = queue.popleft()
            for _, child in children(node):
                if child not in g and g[node] + 1 + manhattan(child) <= limit:
                    g[child] = g[node] + 1
                    queue.append(child)
        out.append((board, limit, {node: depth + manhattan(node) for node, depth in g.items()}))
    return tuple(out)


def _not_astar(board: Board, limit: int, f_of: dict[Board, int], expanded: list[Any]) -> tuple[str, Any] | None:
    """Why the boards an answer expanded (in order) are not what A* with Manhattan expands, with the board to show."""
    done: set[Board] = set()
    highest, previous = -1, None
    for node in expanded:
        if node is previous or not isinstance(node, Board):
            continue  # the same expansion seen twice (children and neighbours of one board), or not a board
        previous = node
        if node in done:
            return ("it expanded the board below twice: with a consistent h such as Manhattan, A* takes each board "
                    "out of the queue once with its shortest g and skips any older entry of it (IDA* and plain "
                    "searches expand boards again)", node)
        done.add(node)
        f = f_of.get(node)
        if f is None:
            return (f"it expanded the board below, whose f = g + h is above {limit}, the length of the answer: "
                    "A* never takes such a board (breadth-first search does)", node)
        if f < highest:
            return (f"it expanded the board below (f = g + h = {f}) after one with f = {highest}: A* always takes "
                    "the waiting board with the smallest f next, with h = manhattan", node)
        highest = f
    return None


@checker("solvers.search", allow=ALLOW["search"], prepare=search_cases, job=("tilelab.sliding:solve",))
def check_search(answer: Callable[[Board], Any]) -> Result:
    """``answer(board)`` returns the tiles to slide: optimal, found the way A* with Manhattan finds them."""
    name = "solvers.search"
    cases = search_cases()
    expansions = 0
    for board, limit, g in cases:
        with counting(*EXPANSIONS, record=True) as tally:
            moves = answer(board)
            moves = list(moves) if hasattr(moves, "__iter__") and not isinstance(moves, (str, bytes, Board)) else moves
        if not isinstance(moves, list):
            return Result(name, False, f"return the list of tiles to slide, not {moves!r}", board, _show(board))
        try:
            end = board.play_all(moves)
        except (ValueError, TypeError) as exc:
            return Result(name, False, f"an illegal move on the board below: {exc}", board, _show(board))
        if not end.is_goal():
            return Result(name, False, f"your moves {moves!r} do not reach the goal from the board below",
                          board, _show(board))
        if len(moves) != limit:
            return Result(name, False, f"you used {len(moves)} moves on the board below; the fewest is {limit}",
                          board, _show(board))
        if limit > 1 and not tally["args"]:
            return Result(name, False, "right, but the check cannot see your search: expand each board with "
                          "children(board), as the exercise says, so that it can tell A* from other searches",
                          board, _show(board))
        why = _not_astar(board, limit, g, tally["args"])
        if why is not None:
            message, shown = why
            return Result(name, False, f"right length, but not A*: on the {board.rows}x{board.cols} board "
                          f"{_inline(board)} {message}", shown, _show(shown))
        expansions += len(tally["args"])
    return Result(name, True, f"A*: optimal on all {len(cases)} boards (2x3 and 3x3, up to {cases[-1][1]} moves), "
                  f"each board expanded once, in order of f = g + h ({expansions:,} expansions)")


def _inline(board: Board) -> str:
    """A board on one line for a message (``1 2 3 / 4 . 6 / 7 5 8``)."""
    return " / ".join(" ".join(str(t) if t else "." for t in row) for row in board.grid)


@functools.lru_cache(maxsize=1)
def _pattern_sums() -> np.ndarray:
    """The 1-2-3-4 / 5-6-7-8 database value (plain sum, no mirror) of every board of :func:`all_eight_puzzles`."""
    from tilelab.sliding.pdb import build_table

    boards = all_eight_puzzles()[0]
    where = np.argsort(np.array([b.tiles for b in boards], dtype=np.int8), axis=1)  # where[k, t] = cell of tile t
    total = np.zeros(len(boards), dtype=np.int64)
    for pattern in PDB8_PATTERNS:
        table = build_table(3, 3, pattern)
        index = sum(where[:, t].astype(np.int64) * 9**j for j, t in enumerate(pattern))
        total += table[index]
    return total


@checker("solvers.pattern_lookup", allow=ALLOW["pattern"], prepare=lambda: _pattern_sums(), seconds=EIGHT_PUZZLE_LIMIT,
         job=("tilelab.sliding:pattern_database",))
def check_pattern_lookup(answer: Callable[[Board], Any]) -> Result:
    """Compare with the package's 1-2-3-4 / 5-6-7-8 database (plain sum, no mirror) on every 8-puzzle."""
    name = "solvers.pattern_lookup"
    boards, truth, _ = all_eight_puzzles()
    want = _pattern_sums()
    for start, end in _layers(truth):
        got, problem = _numbers(name, _evaluate(answer, boards, start, end), boards, start)
        if problem is not None:
            return problem
        bad = np.flatnonzero(got != want[start:end])
        if len(bad):
            i = start + int(bad[0])
            return Result(name, False, f"on the board below you returned {values_repr(got[bad[0]])}, "
                          f"expected {int(want[i])}", boards[i], _show(boards[i]))
    return Result(name, True, f"right on all {len(boards):,} solvable 8-puzzle boards")


@checker("solvers.pattern_table", allow=ALLOW["pattern"], job=("tilelab.sliding.pdb:build_table",))
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


# ---------------------------------------------------------------------------------- the blank's route (lesson 4d)
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
    rng = np.random.default_rng(case_seed(SEED + 1))
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


@checker("solvers.blank_route", allow=ALLOW["route"])
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
