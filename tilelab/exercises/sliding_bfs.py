"""The checker for lesson 3b: breadth-first search over the boards a sliding puzzle reaches.

- ``"sliding.bfs"``: ``answer(start) -> dict``, ``{board: fewest single-tile moves from start}`` for every
  board ``start`` can reach: from every 2x2 board, then three 2x3 and three 3x2 ones (under the check's watch
  on Python 3.10/3.11 a 2x4 search takes several seconds and a 3x3 one over a minute: too long for a
  self-check). A search that would never stop is stopped once it has made far more moves than there are boards.

An answer may build and read boards and make moves; the package's own searches do not pass.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from tilelab.exercises import Result, as_real, case_seed, cases_cache, checker, counting, side_by_side
from tilelab.exercises.allow import NUMPY, PUZZLE, Kit
from tilelab.exercises.sliding import every_board
from tilelab.sliding import Board, bfs_distances, random_board
from tilelab.exercises.raised import raised_text

SEED = 2024
_S = "tilelab.sliding:"


def _show(p: Board) -> str:
    """A board as its monospace picture (the result draws it under the message)."""
    return f"{p}\n"



#: A breadth-first search over boards may build and read boards and make moves; the package's own searches
#: (``bfs_distances``, the distance tables, ``states_at_distance``) are delegation.
ALLOW = {"bfs": (PUZZLE, Kit("moves (play, a Board's legal_directions, neighbours and slide)", (
    _S + "play", _S + "Slide[*]", _S + "legal_moves",
    _S + "Board[slide legal_moves neighbour_tiles neighbours successors tile_for legal_directions]")), NUMPY)}
#: After every 2x2 start: the goal, the goal with tiles 1 and 2 swapped (the other half) and a seeded board of each.
BFS_SHAPES = ((2, 3), (3, 2))
#: Calls of the functions in BFS_STEPS an answer may make per board it can reach, plus BFS_SLACK, before it is
#: stopped: breadth-first search makes a handful per board (its moves, the boards they give).
BFS_CALLS_PER_BOARD, BFS_SLACK = 12, 100
#: What a search calls to move from a board or to build one: counted against that budget.
BFS_STEPS = (_S + "play", _S + "legal_moves", _S + "Board.__init__", *(
    f"{_S}Board.{name}" for name in ("slide", "legal_moves", "neighbour_tiles", "neighbours", "successors",
                                      "tile_for", "legal_directions")))


@cases_cache()
def bfs_cases() -> tuple[tuple[Board, dict[tuple[int, ...], int]], ...]:
    """Every 2x2 start (the goal first), then three starts of each of BFS_SHAPES, each with the fewest moves
    to every board it reaches (the seeded starts come from the grader's seed inside
    :func:`tilelab.exercises.hidden_cases`)."""
    goal = Board.goal(2, 2)
    starts = [goal] + [p for p in every_board(2, 2) if p != goal]
    rng = np.random.default_rng(case_seed(SEED + 3))
    for rows, cols in BFS_SHAPES:
        home = Board.goal(rows, cols)
        starts += [home, home.swap_tiles(1, 2), random_board(rows, cols, rng=rng)]
    return tuple((start, {board.tiles: moves for board, moves in bfs_distances(start).items()}) for start in starts)


class _Runaway(BaseException):
    """Raised into a search that has made far more moves than it can reach boards (it would never stop)."""


class _Budget(list):
    """Stands in for the list that :func:`tilelab.exercises.counting` fills (one entry per counted call): it keeps
    nothing and stops the answer once the calls pass ``limit``."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit, self.used = limit, 0

    def append(self, item: Any) -> None:
        self.used += 1
        if self.used > self.limit:
            raise _Runaway


def _moves(n: int) -> str:
    return f"{n} move" if n == 1 else f"{n} moves"


def _bfs_verdict(name: str, got: Any, start: Board, truth: dict[tuple[int, ...], int]) -> Result | None:
    """What is wrong with ``got`` as every board ``start`` reaches with its fewest moves (nearest first), or None."""
    shape = f"{start.rows}x{start.cols}"

    def wrong(message: str, board: Board | None = None, label: str = "board") -> Result:
        picture = _show(start) if board is None else side_by_side(("start", str(start)), (label, str(board))) + "\n"
        return Result(name, False, message, start, picture)

    if not isinstance(got, dict):
        return wrong(f"from the {shape} start below you returned {type(got).__name__}; return a dict "
                     "{board: fewest moves from the start}")
    found: dict[tuple[int, ...], int] = {}
    for key, value in got.items():
        if not isinstance(key, Board) or key.shape != start.shape:
            what = f"a {key.rows}x{key.cols} board" if isinstance(key, Board) else f"{key!r}"[:40]
            return wrong(f"from the {shape} start below your dict has the key {what}: its keys should be the "
                         f"{shape} boards (Board objects) the search reaches")
        moves = as_real(value)
        if moves is None or not moves.is_integer():
            return wrong(f"your dict gives the board on the right {f'{value!r}'[:40]} moves: give each board the "
                         "whole number of moves it is from the start", key)
        found[key.tiles] = int(moves)
    if found.get(start.tiles) != 0:
        if start.tiles not in found:
            return wrong(f"your dict leaves out the start: the {shape} start below is 0 moves from itself, so it "
                         "belongs in the dict with 0")
        return wrong(f"your dict gives the start {found[start.tiles]} moves: it is 0 moves from itself. A board "
                     "already in the dict keeps its distance: store one only when `child not in distance_to` (in an "
                     "`if`, the start's 0 counts as false)")
    unreachable = sorted(t for t in found if t not in truth)
    if unreachable:
        return wrong(f"your dict holds the board on the right, but no slides lead there from the {shape} start on "
                     "the left", Board(unreachable[0], start.rows, start.cols))
    off = min(((truth[t], t) for t, d in found.items() if d != truth[t]), default=None)
    missing = min(((d, t) for t, d in truth.items() if t not in found), default=None)
    if off is not None and (missing is None or off[0] <= missing[0]):
        best, tiles = off
        said, board = found[tiles], Board(tiles, start.rows, start.cols)
        if said > best and best > 1:
            return wrong(f"your dict says the board on the right is {_moves(said)} from the {shape} start on the "
                         f"left, but {_moves(best)} are enough: take the oldest board from the front of the queue "
                         "(popleft) and put new ones at the back (append), so that each board is found first along a "
                         "shortest route", board)
        return wrong(f"your dict says the board on the right is {_moves(said)} from the {shape} start on the left, "
                     f"but it takes {best}: a board is one move farther than the board it was found from", board)
    if missing is not None:
        best, tiles = missing
        return wrong(f"from the {shape} start on the left {len(truth):,} boards can be reached; your dict has "
                     f"{len(found):,}. It misses the board on the right, {_moves(best)} away: each new board must also join the "
                     "back of the queue, and the search goes on until the queue is empty", Board(tiles, start.rows, start.cols), "missing")
    return None


@checker("sliding.bfs", allow=ALLOW["bfs"], prepare=bfs_cases, job=("tilelab.sliding:bfs_distances",))
def check_bfs(answer: Callable[[Board], Any]) -> Result:
    """``answer(start)`` returns ``{board: fewest single-tile moves from start}`` for every board ``start`` reaches."""
    name = "sliding.bfs"
    cases = bfs_cases()
    for start, truth in cases:
        shape = f"{start.rows}x{start.cols}"
        limit = BFS_CALLS_PER_BOARD * len(truth) + BFS_SLACK
        with counting(*BFS_STEPS, record=True) as tally:
            tally["args"] = _Budget(limit)  # counting appends one entry per call: past the limit it stops the answer
            try:
                got = answer(start)
            except _Runaway:
                return Result(name, False, f"your search went on and on from the {shape} start below: only "
                              f"{len(truth):,} boards can be reached from there, but it made over {limit:,} moves. "
                              "Put each board in the dict when you first find it, and queue only boards that are "
                              "not in it yet", start, _show(start))
            except Exception as exc:  # reported with its start, never raised
                error = raised_text(exc)
                return Result(name, False, f"from the {shape} start below your code raised {error}", start,
                              _show(start), "raised")
        verdict = _bfs_verdict(name, got, start, truth)
        if verdict is not None:
            return verdict
    return Result(name, True, f"every board reached, each at its fewest moves, from all {len(cases)} starts (every "
                  f"2x2 board, three 2x3 and three 3x2 ones): {sum(len(t) for _, t in cases):,} boards")
