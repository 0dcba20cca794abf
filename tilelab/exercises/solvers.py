"""Checkers for lesson 4 (solving the sliding puzzle).

- ``"solvers.misplaced"``: ``answer(board) -> int``, tiles off their goal cell, blank not counted.
- ``"solvers.manhattan"``: ``answer(board) -> int``, the Manhattan distance; every 2x2 and 2x3
  board, then random boards from 3x3 to 5x5, square or not.
- ``"solvers.admissible"``: ``answer(board) -> int``, linear conflict written by the student: it must never
  overestimate the true distance on the 8-puzzle boards tried (:func:`admissible_cases`: every one up to 14 moves
  from the goal, every farther one where linear conflict is exact, 300 seeded ones at each larger distance; exact
  distances by one breadth-first search from the goal, done once per process), AND give linear conflict's value on
  each (a half-done one, rows only or 1 a tile, is admissible but refused, with the first board it differs on).
- ``"solvers.pattern_lookup"``: ``answer(board) -> int``, the additive 8-puzzle pattern-database
  value for the split 1-2-3-4 / 5-6-7-8 (the sum of the two patterns' exact distances, no mirror).
- ``"solvers.pattern_table"``: ``answer(rows, cols, pattern) -> dict``, one pattern's table built by
  breadth-first search: ``{cells of the pattern's tiles (in pattern order): fewest pattern moves}``,
  compared with :func:`tilelab.sliding.pdb.build_table` on small boards.
- ``"solvers.search"``: ``answer(board, h) -> list of tiles``, your A*: every move legal, the goal
  reached, the length equal to the true distance, and the boards expanded (watched through ``children``)
  and tested for the goal (``is_goal``) the ones A* takes: in order of f = g + h, every one with f < C, none
  with f > C, the start once. Run with h = Manhattan on 2x2, 2x3 and 3x3 boards (random 8-puzzles among them) and with
  h = 0 on boards up to 8 moves, nearest first, so a mistake shows on the smallest board it spoils. Honest
  variants pass (a closed set or a dict of best g, stale entries skipped or not, any tie-break); an answer
  taking the board alone is run with Manhattan only.

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
>>> check("solvers.admissible", lambda p: 0).passed      # admissible, but not linear conflict
False
"""

from __future__ import annotations

import functools
import heapq
import inspect
import itertools
import reprlib
from typing import Any, Callable, Iterator

import numpy as np

from tilelab.exercises import Result, as_real, case_seed, cases_cache, checker, counting, first_counterexample
from tilelab.exercises import side_by_side
from tilelab.exercises.allow import NUMPY, PUZZLE, Kit
from tilelab.sliding import Board, is_solvable, random_board
from tilelab.sliding.heuristics import linear_conflict, manhattan, misplaced
from tilelab.sliding.space import distance_table, rank, unrank
from tilelab.exercises.raised import raised_text
from tilelab.exercises.sliding import every_board

SEED = 4
RANDOM_SHAPES = [(3, 3), (4, 4), (3, 4), (4, 3), (5, 5), (2, 5), (3, 5)]
EXHAUSTIVE_SHAPES = [(2, 2), (2, 3)]
SEARCH_BOARDS = 12  # random 8-puzzles for "write A*" (after every 2x2 board and the 2x3 and 3x3 boards near the goal)
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
    "search": (PUZZLE, _MOVES, Kit("the h you are given (manhattan, no_guess)",
                                   (_S + "manhattan", "tilelab.exercises.solvers:no_guess")), NUMPY),
    "pattern": (PUZZLE, _MOVES, NUMPY),
}


#: The checks that run the answer on many 8-puzzle boards get longer: a Python heuristic takes 2-3 s for all
#: 181,440 unwatched, 3-6 s watched on Python 3.12+, up to 25 s with the profile hook of 3.10/3.11.
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
def _eight_puzzle_arrays() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(tiles, true distance, Manhattan value) of every solvable 8-puzzle, nearest the goal first, as numpy arrays."""
    table = distance_table(3, 3)
    ranks = np.flatnonzero(table >= 0)
    ranks = ranks[np.argsort(table[ranks], kind="stable")]
    tiles = _unrank_many(ranks, 9)
    goal_row, goal_col = np.divmod(np.arange(-1, 8) % 9, 3)  # goal cell of tile t (t = 0 unused)
    cell_row, cell_col = np.divmod(np.arange(9), 3)
    away = np.abs(cell_row - goal_row[tiles]) + np.abs(cell_col - goal_col[tiles])
    mans = np.where(tiles != 0, away, 0).sum(axis=1)
    return tiles, table[ranks].astype(np.int64), mans


def _boards_of(tiles: np.ndarray) -> tuple[Board, ...]:
    """A 3x3 Board for each row of ``tiles`` (every row is a permutation: no check needed)."""
    return tuple(Board.trusted(t, 3, 3, t.index(0)) for t in map(tuple, tiles.tolist()))


@functools.lru_cache(maxsize=1)
def all_eight_puzzles() -> tuple[tuple[Board, ...], np.ndarray, np.ndarray]:
    """Every solvable 8-puzzle board, nearest the goal first, with its true distance and Manhattan value.

    The distances come from one breadth-first search backwards from the goal
    (:func:`tilelab.sliding.space.distance_table`), computed once per process. Every board, so there is
    nothing random to draw: :func:`tilelab.exercises.hidden_cases` leaves this set as it is.
    """
    tiles, truth, mans = _eight_puzzle_arrays()
    return _boards_of(tiles), truth, mans


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
        self.text = raised_text(exc)


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


#: "A heuristic of your own" tries a chosen part of the 181,440 boards, not all (a watched Python heuristic takes
#: 10-40 s on them all, and a student runs the check several times while debugging): every board up to NEAR_MOVES
#: moves from the goal (a systematic mistake shows there first), every farther board where linear conflict is
#: exact (there a heuristic that adds 2 too many overestimates: counting pairs instead of tiles, the classic
#: mistake, overestimates on only 7 boards, all 26 or more moves away, 5 of them such), and FAR_SAMPLE seeded
#: boards at each larger distance (every one of the farthest). tests/test_exercises_solvers.py runs a dozen
#: plausible wrong answers through it.
NEAR_MOVES = 14
FAR_SAMPLE = 300


def line_conflicts_3x3(tiles: np.ndarray) -> np.ndarray:
    """Linear conflict's extra moves on each 8-puzzle (one row of ``tiles`` each), vectorised.

    In a line of 3 the tiles that must leave are those outside the longest increasing subsequence of the line's own
    tiles: none if no pair of them is out of order, two if all three are, one otherwise.
    """
    tiles = np.asarray(tiles, dtype=np.int64)
    goal_row, goal_col = np.divmod(tiles - 1, 3)
    extra = np.zeros(len(tiles), dtype=np.int64)
    for k in range(3):
        row, column = [3 * k, 3 * k + 1, 3 * k + 2], [k, k + 3, k + 6]
        for cells, home, place in ((row, goal_row, goal_col), (column, goal_col, goal_row)):
            own = (tiles[:, cells] != 0) & (home[:, cells] == k)
            at = place[:, cells]
            out_of_order = sum(own[:, i] & own[:, j] & (at[:, i] > at[:, j]) for i, j in ((0, 1), (0, 2), (1, 2)))
            extra += (out_of_order > 0).astype(np.int64) + (out_of_order == 3)
    return 2 * extra


@functools.lru_cache(maxsize=1)
def _always_tried() -> np.ndarray:
    """Indices (into :func:`all_eight_puzzles`) of the boards up to NEAR_MOVES moves away or where linear conflict
    is exact."""
    tiles, truth, mans = _eight_puzzle_arrays()
    return np.flatnonzero((truth <= NEAR_MOVES) | (mans + line_conflicts_3x3(tiles) == truth))


@cases_cache()
def admissible_cases() -> tuple[tuple[Board, ...], np.ndarray, np.ndarray]:
    """The boards "a heuristic of your own" is tried on, nearest the goal first, with true distance and Manhattan value.

    Every board up to :data:`NEAR_MOVES` moves from the goal, every farther one where linear conflict is exact, and
    :data:`FAR_SAMPLE` drawn (from :func:`tilelab.exercises.case_seed`) at each larger distance. Computed once per
    process (and per hidden seed).
    """
    tiles, truth, mans = _eight_puzzle_arrays()
    rng = np.random.default_rng(case_seed(SEED))
    chosen = [_always_tried()]
    for start, end in _layers(truth):
        if truth[start] > NEAR_MOVES:
            chosen.append(rng.choice(np.arange(start, end), size=min(FAR_SAMPLE, end - start), replace=False))
    picked = np.unique(np.concatenate(chosen))  # sorted, so nearest first
    return _boards_of(tiles[picked]), truth[picked], mans[picked]


@checker("solvers.admissible", allow=ALLOW["admissible"], prepare=admissible_cases, seconds=EIGHT_PUZZLE_LIMIT,
         job=("tilelab.sliding:linear_conflict",))
def check_admissible(answer: Callable[[Board], Any]) -> Result:
    """Is ``answer`` a lower bound on the true distance of every board tried, and linear conflict on each?"""
    name = "solvers.admissible"
    boards, truth, mans = admissible_cases()
    values = np.empty(len(boards))
    for start, end in _layers(truth):  # nearest first: the smallest counterexample is found first, and the check stops
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
                          "from the goal (is a tile counted that need not leave its line: does each loop keep only the "
                          "tiles whose goal row, or goal column, is that line?)", board, _show(board))
        values[start:end] = got
    want = mans + line_conflicts_3x3(np.array([b.tiles for b in boards]))
    wrong = np.flatnonzero(values != want)
    if len(wrong):  # admissible but not linear conflict: the nearest board where it differs
        i, board = int(wrong[0]), boards[int(wrong[0])]
        half = values[i] - mans[i] == (want[i] - mans[i]) / 2  # 1 added per tile that must leave, not 2
        hint = "each such tile costs 2 moves: is 2 added, not 1?" if half else "are both loops done?"
        return Result(name, False, f"admissible, but not linear conflict yet: on the board below your h is {values_repr(values[i])}, "
                      f"linear conflict gives {int(want[i])} (Manhattan {int(mans[i])} plus 2 for every tile that must "
                      f"leave its goal row or column; {hint})", board, _show(board))
    others = unequal_line_boards()  # a 3x3 board cannot tell rows from columns: 2x3 and 3x2 boards can
    got, problem = _numbers(name, _evaluate(answer, others, 0, len(others)), others, 0)
    if problem is not None:
        return problem
    want_others = np.array([linear_conflict(b) for b in others])
    wrong = np.flatnonzero(got != want_others)
    if len(wrong):
        i, board = int(wrong[0]), others[int(wrong[0])]
        return Result(name, False, f"linear conflict on every 3x3 board, but not on the {board.rows}x{board.cols} board "
                      f"below: your h is {values_repr(got[i])}, linear conflict gives {int(want_others[i])}. Here a "
                      "row has cols tiles and a column rows tiles: is each line cut with the right one?", board,
                      _show(board))
    return Result(name, True,
                  f"admissible on all {len(boards):,} 8-puzzle boards tried (every one up to {NEAR_MOVES} moves "
                  f"from the goal, and farther ones), and linear conflict on each and on every 2x3 and 3x2 board: mean "
                  f"{want.mean():.2f} against "
                  f"Manhattan's {mans.mean():.2f} (their true mean distance is {truth.mean():.2f})")


@functools.cache
def unequal_line_boards() -> tuple[Board, ...]:
    """Every 2x3 and 3x2 board, fewest misplaced tiles first: where rows and columns differ in length.

    >>> boards = unequal_line_boards()
    >>> len(boards), boards[0].is_goal()
    (1440, True)
    """
    return tuple(sorted((b for shape in ((2, 3), (3, 2)) for b in every_board(*shape)), key=misplaced))


def values_repr(h: float) -> str:
    """A heuristic value as the student would write it (12, not 12.0)."""
    return str(int(h)) if float(h).is_integer() else f"{h:g}"


def no_guess(board: Board) -> int:
    """h = 0: "write A*" hands it to the answer as ``h``, beside :func:`manhattan` (both consistent)."""
    return 0


SEARCH_GUESSES = {"Manhattan": manhattan, "0": no_guess}  #: the h "write A*" hands the answer, by their names


def _boards_within(rows: int, cols: int, most: int) -> list[Board]:
    """Every solvable ``rows`` x ``cols`` board at most ``most`` moves from the goal (exact distances), nearest first."""
    table = distance_table(rows, cols)
    ranks = np.flatnonzero((table >= 0) & (table <= most))
    ranks = ranks[np.argsort(table[ranks], kind="stable")]
    return [Board(unrank(int(r), rows * cols), rows, cols) for r in ranks]


def _search_boards() -> list[Board]:
    """The boards "write A*" solves with h = Manhattan, nearest the goal first: every 2x2 board, the 2x3 ones up to
    10 moves and the 3x3 ones up to 4 (a mistake shows on the smallest board it spoils), then random boards drawn
    from the grader's seed inside :func:`tilelab.exercises.hidden_cases` (most 8-puzzles 18 to 26 moves away)."""
    rng = np.random.default_rng(case_seed(SEED))
    boards = _boards_within(2, 2, 6) + _boards_within(2, 3, 10) + _boards_within(3, 3, 4)
    boards += [b for b in (random_board(2, 3, rng=rng) for _ in range(12)) if is_solvable(b)][:3]
    boards += [b for b in (random_board(3, 3, rng=rng) for _ in range(4 * SEARCH_BOARDS)) if is_solvable(b)][:SEARCH_BOARDS]
    return sorted(boards, key=_true_distance)


def _true_distance(board: Board) -> int:
    return int(distance_table(board.rows, board.cols)[rank(board.tiles)])


#: Expanding a board: what a search calls to list the boards one move away (their first argument is the board).
EXPANSIONS = ("tilelab.sliding.search:children", _S + "legal_moves", *(
    f"{_S}Board.{name}" for name in ("legal_moves", "neighbour_tiles", "neighbours", "successors", "legal_directions")))
GOAL_TESTS = (_S + "Board.is_goal",)  #: testing a board for the goal (A* tests the boards it takes out of the queue)


def _f_values(board: Board, h: Callable[[Board], int], limit: int) -> dict[Board, int]:
    """f = g + h of every board with f <= ``limit`` (A* with the consistent ``h`` expands every one with f < limit,
    some with f = limit): a breadth-first search that never steps past f > limit finds each with its true g, as f
    never drops along a shortest path when h is consistent."""
    from collections import deque

    from tilelab.sliding.search import children

    g = {board: 0}
    queue = deque([board])
    while queue:
        node = queue.popleft()
        for _, child in children(node):
            if child not in g and g[node] + 1 + h(child) <= limit:
                g[child] = g[node] + 1
                queue.append(child)
    return {node: depth + h(node) for node, depth in g.items()}


@cases_cache()
def search_cases() -> tuple[tuple[Board, int, dict[Board, int]], ...]:
    """The boards solved with h = Manhattan, with their true distance C and :func:`_f_values`."""
    return tuple((board, limit, _f_values(board, manhattan, limit))
                 for board, limit in ((board, _true_distance(board)) for board in _search_boards()))


@functools.lru_cache(maxsize=1)
def blind_cases() -> tuple[tuple[Board, int, dict[Board, int]], ...]:
    """The boards solved with h = 0, all near the goal, none random: A* takes every board nearer than the goal first
    (f = g < C), so stopping when the goal is *generated* shows."""
    boards = _boards_within(2, 2, 6) + _boards_within(2, 3, 8) + _boards_within(3, 3, 4)
    return tuple((board, limit, _f_values(board, no_guess, limit))
                 for board, limit in ((board, _true_distance(board)) for board in boards))


def _not_astar(board: Board, limit: int, f_of: dict[Board, int], expanded: list[Any],
               tested: list[Any]) -> tuple[str, Any] | None:
    """Why the boards an answer expanded and tested for the goal (in order) are not what A* with a consistent h does,
    and the board to show; None when they are. Any honest A* (a closed set or not, stale entries skipped or taken
    again with a key at least their f, any tie-break) takes the start once, the boards in order of f, every one with
    f < C, none with f > C, and tests for the goal only boards it takes out."""
    seen: set[Board] = set()
    highest, previous = -1, None
    for node in expanded:
        if node is previous or not isinstance(node, Board):
            continue  # the same expansion seen twice (children and neighbours of one board), or not a board
        previous = node
        f = f_of.get(node)
        if f is None:
            return (f"it expanded the board on the right, whose f = g + h is above {limit}: A* never takes such a "
                    "board out of the queue. Is yours a heap ordered by f = g + h(child) (heapq.heappush, so that "
                    "heappop takes the smallest f)?", node)
        if node in seen:
            if node == board:
                return ("it expanded the start a second time: A* remembers the boards it reached (best_g) and "
                        "never queues the start again (IDA* starts over from it every round)", node)
            highest = max(highest, f)  # an older entry of the board, taken again: its key was at least f
            continue
        if f < highest:
            return (f"it expanded the board on the right (f = g + h = {f}) after one with f = {highest}: A* always "
                    "takes the smallest f next (and queues a board again on a shorter path)", node)
        seen.add(node)
        highest = f
    missed = [node for node, f in f_of.items() if f < limit and node not in seen]
    if missed:
        node = min(missed, key=f_of.__getitem__)
        return (f"it stopped before expanding the board on the right, whose f = g + h = {f_of[node]} is below "
                f"{limit}: A* takes every such board out before the goal. Does yours stop when it generates the "
                "goal, or use another h than the one it is given?", node)
    for node in tested:
        if isinstance(node, Board) and node not in f_of:
            return (f"it tested the board on the right for the goal, but A* never takes it out (its f = g + h is "
                    f"above {limit}): test a board when you take it out of the queue, not when you generate it", node)
    return None


#: Slips of lesson 4a's skeleton the check can tell by replaying them (:func:`_slip`), with what to say.
SLIPS = {
    "f + 1": "you expand the boards an A* with g = f + 1 expands, in its order; but f holds the guess h too, which "
             "is not moves made: g = best_g[board] + 1",
    "no requeue": "the board on the right came out late, as when a shorter path to a board is not queued again: "
                  "keep 'or g < best_g[child]', record the new g and parent and queue the child",
}


def _distinct(expanded: list[Any]) -> list[Board]:
    """The boards expanded, in order, each expansion once (children and neighbours of one board count once)."""
    out: list[Board] = []
    for node in expanded:
        if isinstance(node, Board) and not (out and node is out[-1]):
            out.append(node)
    return out


def _slip(start: Board, h: Callable[[Board], int], expanded: list[Any]) -> str | None:
    """The hint for a slip of :data:`SLIPS` whose replay (lesson 4a's skeleton, entries ``(f, number, board)``)
    expands exactly the boards the answer expanded, in order, where A* itself expands others; None when none does."""
    from tilelab.sliding.search import children

    seen, orders = _distinct(expanded), {}
    for slip in ("A*", *SLIPS):
        number, queue, best_g, order = 0, [(h(start), 0, start)], {start: 0}, []
        while queue and len(order) <= len(seen):
            f, _, board = heapq.heappop(queue)
            if board.is_goal():
                break
            order.append(board)
            for _, child in children(board):
                g = f + 1 if slip == "f + 1" else best_g[board] + 1
                if child not in best_g or (slip != "no requeue" and g < best_g[child]):
                    best_g[child], number = g, number + 1
                    heapq.heappush(queue, (g + h(child), number, child))
        orders[slip] = order
    return next((hint for slip, hint in SLIPS.items() if orders[slip] == seen != orders["A*"]), None)


def _takes_h(answer: Callable[..., Any]) -> bool:
    """Does ``answer`` take ``(board, h)``? (One taking the board alone is A* with Manhattan.)"""
    try:
        inspect.signature(answer).bind(None, None)
    except (TypeError, ValueError):
        return False
    return True


@checker("solvers.search", allow=ALLOW["search"], prepare=lambda: (search_cases(), blind_cases()),
         job=("tilelab.sliding:solve",))
def check_search(answer: Callable[..., Any]) -> Result:
    """``answer(board, h)`` returns the tiles to slide: optimal, and found the way A* finds them, with h = Manhattan
    and with h = 0 (an answer taking the board alone is run with Manhattan only)."""
    name = "solvers.search"
    with_h = _takes_h(answer)
    cases = [(board, "Manhattan", limit, f_of) for board, limit, f_of in search_cases()]
    if with_h:
        cases += [(board, "0", limit, f_of) for board, limit, f_of in blind_cases()]
    cases.sort(key=lambda case: (case[2], case[0].rows * case[0].cols))  # nearest first: the smallest mistake first
    expansions = 0
    for board, guess, limit, f_of in cases:
        with counting(*EXPANSIONS, record=True) as tally, counting(*GOAL_TESTS, record=True) as goals:
            moves = answer(board, SEARCH_GUESSES[guess]) if with_h else answer(board)
        expanded, tested, where = tally["args"], goals["args"], f"with h = {guess}"
        if isinstance(moves, tuple) and len(moves) == 2 and isinstance(moves[0], (list, tuple)):
            return Result(name, False, f"{where}, you returned a pair {reprlib.repr(moves)}: return only the list of "
                          "tiles to slide", board, _show(board))
        if hasattr(moves, "__iter__") and not isinstance(moves, (str, bytes, Board)):
            moves = list(moves)
        if moves is None:
            hint = "it is the goal: test the boards you take out" if board.is_goal() else "did the queue run empty?"
            return Result(name, False, f"{where}, you returned None on the board below: return the list of tiles "
                          f"to slide ({hint})", board, _show(board))
        if not isinstance(moves, list):
            return Result(name, False, f"{where}, you returned {reprlib.repr(moves)}: return the list of tiles to slide",
                          board, _show(board))
        try:
            end = board.play_all(moves)
        except (ValueError, TypeError) as exc:
            return Result(name, False, f"{where}, an illegal move on the board below: {exc}", board, _show(board))
        if not end.is_goal():
            return Result(name, False, f"{where}, your moves {reprlib.repr(moves)} do not reach the goal from the board below",
                          board, _show(board))
        if len(moves) != limit:
            slip = _slip(board, SEARCH_GUESSES[guess], expanded) if with_h else None
            return Result(name, False, f"{where}, you used {len(moves)} moves on the board below; the fewest is "
                          f"{limit}" + (f": {slip}" if slip else ""), board, _show(board))
        if limit > 1 and not expanded:
            return Result(name, False, "right, but the check cannot see your search: expand each board with "
                          "children(board) so that it can tell A* from other searches", board, _show(board))
        why = _not_astar(board, limit, f_of, expanded, tested)
        if why is not None:
            message, shown = why
            slip = _slip(board, SEARCH_GUESSES[guess], expanded) if with_h else None
            message = slip or message
            return Result(name, False, f"right length, but not A*: {where}, from the start on the left ({limit} "
                          f"move{'s' * (limit != 1)} away), {message}", board, _side_by_side(board, shown))
        expansions += len(expanded)
    largest = max(limit for _, _, limit, _ in cases)
    guesses = "h = Manhattan and h = 0" if with_h else "h = Manhattan"
    return Result(name, True, f"A*: optimal on all {len(cases)} searches ({guesses}; 2x2, 2x3 and 3x3 boards up to "
                  f"{largest} moves), boards taken in order of f = g + h ({expansions:,} expansions)")


def _side_by_side(start: Board, other: Board) -> str:
    """The start board and the board a message is about, side by side (just the start when they are one board)."""
    if other == start:
        return _show(start)
    return side_by_side(("the start", str(start)), ("that board", str(other))) + "\n"


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
