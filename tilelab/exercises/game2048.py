"""Checkers for lesson 1 (2048's slide and merge).

- ``"2048.slide_row"`` (also ``"slide_row"``): ``answer(row) -> row``, one row slid toward index 0;
  checked on every row of 4 cells with tiles 0, 2, 4, 8, 16, 32 (1296 rows), then on rows of
  length 2 to 8. The answer may return a list, a tuple or anything with a ``.row``. It gets a
  fresh list each time, so mutating it is fine.
- ``"2048.row_score"``: ``answer(row) -> int``, the points one left slide of the row scores.
- ``"2048.available_moves"``: ``answer(board) -> directions``, the swipes that change the board
  (the fixed ``GetNextAvailableMoves``); order does not matter, strings such as "left" are fine.
- ``"2048.spawn_outcomes"``: ``answer(board, p_four) -> {(cell, value): probability}`` (or a list
  of ``((cell, value), p)`` pairs), checked to 1e-9.

>>> from tilelab.exercises import check
>>> from tilelab.game2048 import slide_row, legal_moves
>>> check("2048.slide_row", lambda row: slide_row(row).row).passed
True
>>> r = check("slide_row", lambda row: sorted(row, reverse=True))
>>> r.passed, r.counterexample
(False, [0, 0, 2, 2])
>>> check("2048.available_moves", legal_moves).passed
True
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Iterable, Iterator

import numpy as np

from tilelab.exercises import Result, checker, first_counterexample
from tilelab.game2048 import Board, Direction, Game, legal_moves, slide_row, spawn_outcomes

SEED = 2048
ROW_TILES = (0, 2, 4, 8, 16, 32)  #: every 4-cell row over these tiles is checked
ROW_LENGTH = 4
LONGER_ROWS = 300  #: random rows of length 2..8 after the exhaustive part
GAME_BOARDS = 400  #: boards taken from seeded random games
PROBABILITY_TOLERANCE = 1e-9


def every_row(length: int = ROW_LENGTH, tiles: Iterable[int] = ROW_TILES) -> Iterator[list[int]]:
    """Every row of ``length`` cells over ``tiles`` (6**4 = 1296 rows by default)."""
    for row in itertools.product(tuple(tiles), repeat=length):
        yield list(row)


def _longer_rows() -> Iterator[list[int]]:
    rng = np.random.default_rng(SEED)
    for _ in range(LONGER_ROWS):
        length = int(rng.integers(2, 9))
        yield [int(v) for v in rng.choice(ROW_TILES + (64, 128), size=length)]


def _as_row(got: Any) -> tuple[int, ...] | Any:
    got = getattr(got, "row", got)
    try:
        return tuple(int(v) for v in got)
    except (TypeError, ValueError):
        return got


def _fresh(answer: Callable[[list[int]], Any]) -> Callable[[list[int]], Any]:
    return lambda row: answer(list(row))


@checker("slide_row")
@checker("2048.slide_row")
def check_slide_row(answer: Callable[[list[int]], Any]) -> Result:
    """``answer(row)`` must slide and merge one row toward index 0 exactly like the game."""
    cases = itertools.chain(every_row(), _longer_rows())
    return first_counterexample(
        "2048.slide_row", lambda row: _as_row(_fresh(answer)(row)), lambda row: slide_row(row).row, cases
    )


@checker("2048.row_score")
def check_row_score(answer: Callable[[list[int]], Any]) -> Result:
    """``answer(row)`` must return the score of sliding ``row`` toward index 0."""
    cases = itertools.chain(every_row(), _longer_rows())
    return first_counterexample("2048.row_score", _fresh(answer), lambda row: slide_row(row).score, cases)


def _every_small_board() -> Iterator[Board]:
    for tiles in itertools.product((0, 2, 4, 8), repeat=4):
        yield Board([tiles[:2], tiles[2:]])


def _game_boards(count: int = GAME_BOARDS) -> Iterator[Board]:
    """Boards met in seeded random games (early, middle, full and lost positions)."""
    rng = np.random.default_rng(SEED)
    directions = list(Direction)
    made = 0
    while made < count:
        game = Game(size=4, seed=int(rng.integers(1 << 30)))
        while not game.over and made < count:
            game.play(directions[int(rng.integers(4))])
            if rng.random() < 0.2 or game.over:
                made += 1
                yield game.board


def _show_board(board: Board) -> str:
    return f"the board\n{board}\n"


def _direction_set(got: Any) -> frozenset[Direction] | Any:
    try:
        return frozenset(Direction.parse(d) for d in got)
    except (TypeError, ValueError):
        return got


@checker("2048.available_moves")
def check_available_moves(answer: Callable[[Board], Any]) -> Result:
    """``answer(board)`` must list exactly the swipes that change the board (any order)."""
    cases = itertools.chain(_every_small_board(), _game_boards())
    return first_counterexample(
        "2048.available_moves",
        lambda b: _direction_set(answer(b)),
        lambda b: frozenset(legal_moves(b)),
        cases,
        show=_show_board,
    )


def _outcome_map(got: Any) -> dict | Any:
    items = got.items() if hasattr(got, "items") else got
    try:
        out = {}
        for key, p in items:
            cell, value = key
            out[(tuple(int(v) for v in cell), int(value))] = float(p)
        return {k: p for k, p in out.items() if p > 0}
    except (TypeError, ValueError):
        return got


def _close(got: Any, want: dict) -> bool:
    return (
        isinstance(got, dict)
        and set(got) == set(want)
        and all(abs(got[k] - want[k]) <= PROBABILITY_TOLERANCE for k in want)
    )


@checker("2048.spawn_outcomes")
def check_spawn_outcomes(answer: Callable[[Board, float], Any]) -> Result:
    """``answer(board, p_four)`` must give every spawn with its probability."""
    boards = list(itertools.islice(_game_boards(), 120))
    cases = [(b, p) for b, p in itertools.product(boards, (0.1, 0.25, 0.0, 1.0)) if b.empty_cells()]
    return first_counterexample(
        "2048.spawn_outcomes",
        lambda b, p: _outcome_map(answer(b, p)),
        lambda b, p: _outcome_map(spawn_outcomes(b, p)),
        cases,
        star=True,
        equal=_close,
        show=lambda case: f"p_four={case[1]} and {_show_board(case[0])}",
    )
