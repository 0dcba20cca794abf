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
- ``"2048.compact"``: ``answer(line) -> None``, phase 2 of the merge-first design done in *linear*
  time: push every tile of ``line`` toward index 0, keeping their order, in place. ``line`` is a
  :class:`CountingLine` (``len``, ``line[i]``, ``line[i] = v`` only) that counts every read and write;
  on every 4-cell row and on rows of length 2 to 64 the answer must be right AND use at most
  ``4 * len(line)`` reads and writes (the C# walkthrough's ``length * length`` passes use far more).

>>> from tilelab.exercises import check
>>> from tilelab.game2048 import slide_row, legal_moves
>>> check("2048.slide_row", lambda row: slide_row(row).row).passed
True
>>> r = check("slide_row", lambda row: sorted(row, reverse=True))
>>> r.passed, r.counterexample
(False, [0, 0, 2, 2])
>>> check("2048.available_moves", legal_moves).passed
True
>>> def two_fingers(line):
...     k = 0
...     for i in range(len(line)):
...         v = line[i]
...         if v:
...             line[i], line[k] = 0, v
...             k += 1
>>> check("2048.compact", two_fingers).passed
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


def _direction_set(got: Any) -> tuple[Direction, ...] | Any:
    """The distinct directions in ``got``, in the fixed order UP, DOWN, LEFT, RIGHT (a stable message)."""
    try:
        found = {Direction.parse(d) for d in got}
    except (TypeError, ValueError):
        return got
    return tuple(d for d in Direction if d in found)


@checker("2048.available_moves")
def check_available_moves(answer: Callable[[Board], Any]) -> Result:
    """``answer(board)`` must list exactly the swipes that change the board (any order)."""
    cases = itertools.chain(_every_small_board(), _game_boards())
    return first_counterexample(
        "2048.available_moves",
        lambda b: _direction_set(answer(b)),
        lambda b: tuple(legal_moves(b)),
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


# ---------------------------------------------------------------------------------- linear compaction
ACCESSES_PER_CELL = 4  #: reads + writes allowed per cell for "2048.compact"


class CountingLine:
    """A row that counts how often it is read and written (``len``, ``line[i]``, ``line[i] = v``).

    >>> line = CountingLine([2, 0, 4]); line[1] = line[0]; line.accesses, line.values
    (2, [2, 2, 4])
    """

    def __init__(self, values: Iterable[int]) -> None:
        self.values = [int(v) for v in values]
        self.accesses = 0

    def __len__(self) -> int:
        return len(self.values)

    def _index(self, i: Any) -> int:
        if isinstance(i, slice) or not isinstance(i, (int, np.integer)) or not -len(self.values) <= i < len(self.values):
            raise IndexError(f"use one index 0..{len(self.values) - 1} at a time (no slices), got {i!r}")
        return int(i)

    def __getitem__(self, i: int) -> int:
        self.accesses += 1
        return self.values[self._index(i)]

    def __setitem__(self, i: int, value: int) -> None:
        self.accesses += 1
        self.values[self._index(i)] = int(value)


def _compacted(row: list[int]) -> list[int]:
    tiles = [v for v in row if v]
    return tiles + [0] * (len(row) - len(tiles))


def _compact_cases() -> Iterator[list[int]]:
    yield from every_row()
    rng = np.random.default_rng(SEED)
    for length in range(2, 65):
        for _ in range(3):
            yield [int(v) for v in rng.choice((0, 0, 2, 4, 8), size=length)]


@checker("2048.compact")
def check_compact(answer: Callable[[CountingLine], Any]) -> Result:
    """``answer(line)`` must push the tiles to index 0 in place, in order, with <= 4 accesses per cell."""
    n = 0
    for row in _compact_cases():
        n += 1
        line = CountingLine(row)
        try:
            answer(line)
        except Exception as exc:  # noqa: BLE001 - report whatever the student's code did
            return Result("2048.compact", False, f"on {row} your code raised {type(exc).__name__}: {exc}", row)
        want = _compacted(row)
        if line.values != want:
            return Result("2048.compact", False, f"on {row} the line became {line.values}, expected {want}", row)
        if line.accesses > ACCESSES_PER_CELL * len(row):
            return Result("2048.compact", False,
                          f"right answer on a row of {len(row)} cells, but it took {line.accesses} reads and writes; "
                          f"a linear pass needs at most {ACCESSES_PER_CELL * len(row)}", row)
    return Result("2048.compact", True, f"passed on all {n} rows, in linear time")
