"""Checkers for lesson 5 (match-3: runs, gravity, dead boards, dealing).

- ``"match3.find_runs"``: ``answer(board) -> cells`` (any iterable of ``(row, col)``): every cell
  that lies on a run of 3+ in a row or column. Checked on random boards with and without runs.
- ``"match3.fall"``: ``answer(board) -> Board``: candies drop into the holes (EMPTY) below them.
- ``"match3.is_dead"``: ``answer(board) -> bool``: no swap makes a run; checked on stable boards,
  about half of them dead.
- ``"match3.deal"``: ``answer(rows, cols, kinds, rng) -> Board``: a board with no ready run, of
  the right size and kinds, different for different seeds; also with only 3 kinds.
- ``"match3.deal_probability"``: ``answer(board) -> float``: the chance that the exclude deal
  (each cell uniform among the kinds that complete no run) deals exactly this board; 0 for a
  board with a run. Checked on stable boards with and without equal pairs, and on boards with runs.

>>> from tilelab.exercises import check
>>> from tilelab.match3 import is_dead
>>> check("match3.is_dead", is_dead).passed
True
>>> check("match3.is_dead", lambda board: False).passed
False
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

import numpy as np

from tilelab.exercises import Result, checker, first_counterexample
import math

from tilelab.match3 import EMPTY, Board, fall, find_runs, is_dead, stable_board
from tilelab.match3.generate import exclude_probability

SEED = 2025
SHAPES = [(3, 3), (4, 4), (5, 5), (6, 6), (8, 8), (3, 5), (5, 3), (1, 6), (6, 1), (7, 9)]


def _show(board: Board) -> str:
    return f"\n{board.picture()}\n"


def _random_boards(count: int, holes: bool = False) -> Iterator[Board]:
    rng = np.random.default_rng(SEED)
    for i in range(count):
        rows, cols = SHAPES[i % len(SHAPES)]
        kinds = 3 + i % 4
        grid = rng.integers(0, kinds, (rows, cols))
        if holes:
            grid[rng.random((rows, cols)) < 0.3] = EMPTY
        yield Board.from_array(grid, kinds)


def _truth_value(value: Any) -> Any:
    """A bool (numpy's too) as a plain bool; anything else unchanged, so ``None`` is reported as ``None``."""
    return bool(value) if isinstance(value, (bool, np.bool_)) else value


@checker("match3.find_runs")
def check_find_runs(answer: Callable[[Board], Any]) -> Result:
    """``answer(board)`` must give exactly the cells that lie on a run of 3 or more."""
    reference = lambda board: {cell for run in find_runs(board) for cell in run.cells}  # noqa: E731
    student = lambda board: {tuple(cell) for cell in answer(board)}  # noqa: E731
    return first_counterexample("match3.find_runs", student, reference, _random_boards(300), show=_show)


@checker("match3.fall")
def check_fall(answer: Callable[[Board], Board]) -> Result:
    """``answer(board)`` must let every candy drop as far as the holes below it allow."""
    return first_counterexample(
        "match3.fall", answer, lambda board: fall(board)[0], _random_boards(300, holes=True), show=_show
    )


def _dead_and_alive(count: int) -> list[Board]:
    rng = np.random.default_rng(SEED)
    dead, alive = [], []
    while len(dead) < count // 2 or len(alive) < count // 2:
        board = stable_board(4 + int(rng.integers(3)), 4 + int(rng.integers(3)), 6 + int(rng.integers(2)), rng)
        pile = dead if is_dead(board) else alive
        if len(pile) < count // 2:
            pile.append(board)
    return [b for pair in zip(dead, alive) for b in pair]


@checker("match3.is_dead")
def check_is_dead(answer: Callable[[Board], Any]) -> Result:
    """``answer(board)`` must say whether no swap makes a run (stable boards, half of them dead)."""
    return first_counterexample(
        "match3.is_dead", lambda b: _truth_value(answer(b)), is_dead, _dead_and_alive(200), show=_show
    )


@checker("match3.deal")
def check_deal(answer: Callable[[int, int, int, np.random.Generator], Board]) -> Result:
    """``answer(rows, cols, kinds, rng)`` must deal a no-run board, even with 3 kinds."""
    name = "match3.deal"
    seen = set()
    for i in range(120):
        rows, cols = SHAPES[i % len(SHAPES)]
        kinds = 3 + i % 5
        board = answer(rows, cols, kinds, np.random.default_rng(i))
        case = (rows, cols, kinds, f"rng=default_rng({i})")
        if not isinstance(board, Board):
            return Result(name, False, f"on {case} you returned {type(board).__name__}, not a Board", case)
        if (board.rows, board.cols, board.kinds) != (rows, cols, kinds):
            return Result(name, False, f"on {case} the board is {board.rows}x{board.cols} with "
                          f"{board.kinds} kinds", case)
        if not board.is_full:
            return Result(name, False, f"on {case} the board has holes:{_show(board)}", case)
        if find_runs(board):
            return Result(name, False, f"on {case} the board has a ready run:{_show(board)}", case)
        seen.add(board)
    if len(seen) < 100:
        return Result(name, False, "different seeds should give different boards: use the rng")
    return Result(name, True, "passed on 120 deals (sizes 1x6 .. 7x9, 3 to 7 kinds)")


def _deal_probability_cases() -> list[Board]:
    rng = np.random.default_rng(SEED)
    cases = [Board.parse("012\n120\n201"), Board.parse("001\n112\n220"), Board.parse("0011\n1100")]
    for i in range(150):
        rows, cols = SHAPES[i % len(SHAPES)]
        cases.append(stable_board(rows, cols, 3 + i % 4, rng))
    cases += list(_random_boards(30))  # many of these hold a run: the deal never makes them
    return cases


@checker("match3.deal_probability")
def check_deal_probability(answer: Callable[[Board], Any]) -> Result:
    """``answer(board)`` must give the exclude deal's chance of dealing exactly ``board`` (0 with a run)."""
    close = lambda got, want: isinstance(got, (int, float, np.floating)) and not isinstance(got, bool) and (  # noqa: E731
        math.isclose(float(got), want, rel_tol=1e-9, abs_tol=0.0))
    return first_counterexample(
        "match3.deal_probability", answer, exclude_probability, _deal_probability_cases(), equal=close, show=_show
    )
