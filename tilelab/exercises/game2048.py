"""Checkers for lessons 1a and 1b (2048's slide and merge; chance, moves and bugs).

Each exercise's answer may use what :data:`ALLOW` lists for it (a Board built and read, numpy, the
helpers the exercise offers); calling any other tilelab function (``slide_row``, ``legal_moves``,
``spawn_outcomes``, their bitboard twins, a ``Game``'s methods) is delegation and does not pass.

- ``"2048.slide_row"`` (also ``"slide_row"``): ``answer(row) -> row``, one row slid toward index 0;
  checked on every row of 2, then 3, then 4 cells with tiles 0, 2, 4, 8, 16, 32 (the smallest failing row is
  shown), every row of 4 cells with tiles 0, 256, 1024, 2048, then on random rows of length 2 to 8.
  The answer may return a list, a tuple or anything with a ``.row``, of ints (text such as ``'4'`` is not a
  tile). It gets a fresh list each time, so mutating it is fine.
- ``"2048.row_score"``: ``answer(row) -> int``, the points one left slide of the row scores.
- ``"2048.available_moves"``: ``answer(board) -> directions``, the swipes that change the board
  (the fixed ``GetNextAvailableMoves``); order does not matter, strings such as "left" are fine.
- ``"2048.spawn_outcomes"``: ``answer(board, p_four) -> {(cell, value): probability}``, a dict (any
  mapping; anything else, a list of pairs too, is refused by a message naming its type), checked to 1e-9,
  smallest boards first.
- ``"2048.one_legal_move"``: ``answer`` is a board (a :class:`Board` or its text) with an empty cell,
  at least two tiles and fewer than two legal moves: a counterexample to the C# walkthrough's claim
  that an empty cell guarantees two legal moves.
- ``"2048.compact"``: ``answer(line) -> None``, phase 2 of the merge-first design done in *linear*
  time: push every tile of ``line`` toward index 0, keeping their order, in place. ``line`` is a
  :class:`CountingLine` (``len``, ``line[i]``, ``line[i] = v`` only) that counts every read and write;
  on every 4-cell row and on rows of length 2 to 64 the answer must be right AND use at most
  ``4 * len(line)`` reads and writes (the C# walkthrough's ``length * length`` passes use far more).
  The result is rebuilt from the counted writes alone, so writing the line's storage directly
  does not help.

>>> from tilelab.exercises import allow_package_calls, check
>>> from tilelab.game2048 import Board, slide_row, legal_moves
>>> check("2048.slide_row", lambda row: slide_row(row).row).reason
'delegated'
>>> with allow_package_calls():
...     check("2048.slide_row", lambda row: slide_row(row).row).passed
True
>>> r = check("slide_row", lambda row: sorted(row, reverse=True))
>>> r.passed, r.counterexample
(False, [2, 2])
>>> check("2048.available_moves", lambda b: [d for d in "up down left right".split()]).counterexample
Board([[0, 0], [2, 2]])
>>> check("2048.one_legal_move", Board([[0, 0], [2, 4]])).passed
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
import operator
import types
from collections.abc import Mapping
from typing import Any, Callable, Iterable, Iterator

import numpy as np

from tilelab.exercises import Result, case_seed, checker, first_counterexample
from tilelab.exercises.allow import BOARD_2048, NUMPY, Kit
from tilelab.game2048 import Board, Direction, Game, legal_moves, slide_row, spawn_outcomes
from tilelab.exercises.raised import raised_text

SEED = 2048
ROW_TILES = (0, 2, 4, 8, 16, 32)  #: every 4-cell row over these tiles is checked
BIG_TILES = (0, 256, 1024, 2048)  #: and every 4-cell row over these: the merges the game is named after
ROW_LENGTH = 4
LONGER_ROWS = 300  #: random rows of length 2..8 after the exhaustive part
GAME_BOARDS = 400  #: boards taken from seeded random games
PROBABILITY_TOLERANCE = 1e-9

_BOARD = "tilelab.game2048:"
#: A board's queries: no 01 exercise asks for them (00's do, and 00's checkers leave them out).
_QUERIES = Kit("a Board's queries (empty_cells, tile_map, max_tile, tile_sum)",
               (_BOARD + "Board[empty_cells tile_map max_tile tile_sum]",))
#: What each exercise's answer may call (see :mod:`tilelab.exercises.allow`).
ALLOW = {
    "slide": (BOARD_2048, NUMPY),
    # the fixed GetNextAvailableMoves: try each swipe on the board (play) and see whether it changed anything
    "moves": (BOARD_2048, Kit("play, slide_row", (_BOARD + "play", _BOARD + "slide_row", _BOARD + "MoveResult[*]",
                                                   _BOARD + "SlideResult[*]", _BOARD + "TileMove[*]")),
              _QUERIES, NUMPY),
    "spawns": (BOARD_2048, _QUERIES, NUMPY),
    "compact": (Kit("the line's len, line[i] and line[i] = v", ("tilelab.exercises.game2048:CountingLine[*]",)),),
    "board": (BOARD_2048, _QUERIES),
}


def every_row(length: int = ROW_LENGTH, tiles: Iterable[int] = ROW_TILES) -> Iterator[list[int]]:
    """Every row of ``length`` cells over ``tiles`` (6**4 = 1296 rows by default)."""
    for row in itertools.product(tuple(tiles), repeat=length):
        yield list(row)


def _longer_rows() -> Iterator[list[int]]:
    rng = np.random.default_rng(case_seed(SEED))
    for _ in range(LONGER_ROWS):
        length = int(rng.integers(2, 9))
        yield [int(v) for v in rng.choice(ROW_TILES + (64, 128, 1024, 4096), size=length)]


def _row_cases() -> Iterator[list[int]]:
    """Every row of 2, 3, then 4 cells (the smallest first), the big tiles' 4-cell rows, then longer random rows."""
    return itertools.chain(every_row(2), every_row(3), every_row(), every_row(tiles=BIG_TILES), _longer_rows())


def _as_row(got: Any) -> list[int] | Any:
    got = getattr(got, "row", got)
    try:
        # a list, as the exercise asks (a message shows [4, 4, 0, 0]); operator.index takes ints, numpy's included,
        # and refuses the text '4' that int() would read as a tile
        return [operator.index(v) for v in got]
    except TypeError:
        return got


def _fresh(answer: Callable[[list[int]], Any]) -> Callable[[list[int]], Any]:
    return lambda row: answer(list(row))


@checker("slide_row", allow=ALLOW["slide"], job=("tilelab.game2048:slide_row",))
@checker("2048.slide_row", allow=ALLOW["slide"], job=("tilelab.game2048:slide_row",))
def check_slide_row(answer: Callable[[list[int]], Any]) -> Result:
    """``answer(row)`` must slide and merge one row toward index 0 exactly like the game."""
    return first_counterexample("2048.slide_row", lambda row: _as_row(_fresh(answer)(row)),
                                lambda row: list(slide_row(row).row), _row_cases())


@checker("2048.row_score", allow=ALLOW["slide"], job=("tilelab.game2048:slide_row",))
def check_row_score(answer: Callable[[list[int]], Any]) -> Result:
    """``answer(row)`` must return the score of sliding ``row`` toward index 0."""
    return first_counterexample("2048.row_score", _fresh(answer), lambda row: slide_row(row).score, _row_cases())


def _every_small_board(tiles: tuple[int, ...] = (0, 2, 4, 8)) -> Iterator[Board]:
    """Every 2x2 board over ``tiles``; boards with two or more tiles (every board a game shows) first."""
    boards = [Board([cells[:2], cells[2:]]) for cells in itertools.product(tiles, repeat=4)]
    yield from sorted(boards, key=lambda b: sum(1 for row in b.grid for v in row if v) < 2)


def _game_boards(count: int = GAME_BOARDS) -> Iterator[Board]:
    """Boards met in seeded random games (early, middle, full and lost positions)."""
    rng = np.random.default_rng(case_seed(SEED))
    directions = list(Direction)
    made = 0
    while made < count:
        game = Game(size=4, rng=int(rng.integers(1 << 30)))
        while not game.over and made < count:
            game.play(directions[int(rng.integers(4))])
            if rng.random() < 0.2 or game.over:
                made += 1
                yield game.board


def _show_board(board: Board) -> str:
    return f"{board}\n"


def _direction_set(got: Any) -> tuple[str, ...] | Any:
    """The directions in ``got`` as names, in the fixed order up, down, left, right; as given if one is named twice."""
    try:
        found = [Direction.parse(d) for d in got]
    except (TypeError, ValueError):
        return got
    if len(set(found)) < len(found):  # a list that names a move twice is not the list of moves
        return tuple(d.value for d in found)
    return tuple(d.value for d in Direction if d in found)


@checker("2048.available_moves", allow=ALLOW["moves"], job=("tilelab.game2048:legal_moves",))
def check_available_moves(answer: Callable[[Board], Any]) -> Result:
    """``answer(board)`` must list exactly the swipes that change the board (any order)."""
    cases = itertools.chain(_every_small_board(), _game_boards())
    return first_counterexample(
        "2048.available_moves",
        lambda b: _direction_set(answer(b)),
        lambda b: tuple(d.value for d in legal_moves(b)),
        cases,
        show=_show_board,
    )


def _outcome_map(got: Any, board: Board) -> dict | str:
    """``got`` as ``{(cell, value): probability}`` with its zero entries dropped, or what is wrong with it, in words."""
    try:  # a dict (the answer), or pairs (key, probability) as the package's spawn_outcomes gives them
        pairs = list(got.items() if hasattr(got, "items") else got)
        if not all(isinstance(pair, tuple) and len(pair) == 2 for pair in pairs):
            raise TypeError
    except TypeError:
        return f"you returned {type(got).__name__} {str(got)[:60]}; return a dict {{(cell, value): probability}}"
    out = {}
    for key, p in pairs:
        try:
            cell, value = key
            if isinstance(value, (str, bytes)) or any(isinstance(v, (str, bytes)) for v in cell):
                raise TypeError  # "2" is text, not the tile 2
            key = (tuple(int(v) for v in cell), int(value))
            p = float(p)
        except (TypeError, ValueError):
            return f"a key {str(key)[:30]} is not (cell, value), for example ((0, 1), 2) for a 2 at row 0, column 1"
        if p == 0 and (key[0] not in board.empty_cells() or key[1] not in (2, 4)):
            return f"you listed {'an' if str(key[1])[0] == '8' else 'a'} {key[1]} at {key[0]}, which cannot happen"
        out[key] = p
    return {k: p for k, p in out.items() if p > 0}


def _not_a_dict(got: Any) -> str:
    """What to say when an answer returns something other than the dict the exercise asks for."""
    name = type(got).__name__
    kind = "None" if got is None else f"{'an' if name[0] in 'aeiou' else 'a'} {name}"
    hint = {"NoneType": " (did the function forget its return?)",
            "list": " (dict(pairs) turns a list of pairs into one)"}.get(name, "")
    return f"you returned {kind}; return a dict {{(cell, value): probability}}{hint}"


def _spawn_boards() -> Iterator[Board]:
    """Every 2x2 board over 0, 2, 4 with a blank (fewest blanks first), the full ones (no spawn), then boards from games."""
    small = sorted(_every_small_board((0, 2, 4)), key=lambda b: len(b.empty_cells()))
    yield from (b for b in small if b.empty_cells())
    yield from (b for b in small if not b.empty_cells())
    yield from (b for b in itertools.islice(_game_boards(), 120) if b.empty_cells())


def _first_difference(got: dict, want: dict) -> str:
    """The first spawn whose probability differs, in words (short, whatever the board size)."""
    for key in sorted(set(want) | set(got)):
        if key not in got or key not in want or abs(got[key] - want[key]) > PROBABILITY_TOLERANCE:
            (cell, value) = key
            digits = 4 if key not in got or key not in want or f"{got[key]:.4g}" != f"{want[key]:.4g}" else 10
            gave = f"{got[key]:.{digits}g}" if key in got else "0 (or left it out)"  # zero entries are dropped
            wanted = f"{want[key]:.{digits}g}" if key in want else "nothing (it cannot happen)"
            return f"for a {value} at {cell} you gave {gave}, expected {wanted}"
    return "the outcomes differ"


@checker("2048.spawn_outcomes", allow=ALLOW["spawns"], job=("tilelab.game2048:spawn_outcomes",))
def check_spawn_outcomes(answer: Callable[[Board, float], Any]) -> Result:
    """``answer(board, p_four)`` must give every spawn with its probability (smallest boards first)."""
    n = 0
    for board in _spawn_boards():
        for p_four in (0.1, 0.25, 0.0, 1.0):
            n += 1
            want = _outcome_map(spawn_outcomes(board, p_four), board)
            try:
                given = answer(board, p_four)
                got = _outcome_map(given, board) if isinstance(given, Mapping) else _not_a_dict(given)
            except Exception as exc:
                error = raised_text(exc)
                full = " (a full board: no tile can spawn)" if not board.empty_cells() else ""
                return Result("2048.spawn_outcomes", False, f"with p_four={p_four} on the board below{full} your "
                              f"code raised {error}", (board, p_four), str(board), "raised")
            if isinstance(got, str):
                return Result("2048.spawn_outcomes", False, f"with p_four={p_four} on the board below: {got}",
                              (board, p_four), str(board))
            assert isinstance(want, dict)
            if set(got) != set(want) or any(abs(got[k] - want[k]) > PROBABILITY_TOLERANCE for k in want):
                return Result("2048.spawn_outcomes", False,
                              f"with p_four={p_four} on the board below: {_first_difference(got, want)}",
                              (board, p_four), str(board))
    return Result("2048.spawn_outcomes", True, f"passed on all {n} cases")


# ---------------------------------------------------------------------------------- the two-moves claim
def _as_board(answer: Any) -> Board | None:
    if isinstance(answer, Board):
        return answer
    try:
        return Board.parse(answer) if isinstance(answer, str) else Board(answer)
    except (TypeError, ValueError):
        return None


@checker("2048.one_legal_move", allow=ALLOW["board"])
def check_one_legal_move(answer: Any) -> Result:
    """``answer`` must be a board with a blank, two or more tiles and fewer than two legal moves."""
    name = "2048.one_legal_move"
    board = _as_board(answer)
    if board is None:
        return Result(name, False, "give a board, for example Board.parse('2 .\\n. 4')")
    picture = str(board)
    if not board.empty_cells():
        return Result(name, False, "this board has no empty cell; the claim is about boards that have one",
                      board, picture)
    if len(board.tile_map()) < 2:
        return Result(name, False, "put at least two tiles on it: every board in a game has two or more",
                      board, picture)
    moves = [d.value for d in legal_moves(board)]
    if len(moves) >= 2:
        return Result(name, False, f"this board has {len(moves)} legal moves ({', '.join(moves)}), "
                      "so it agrees with the claim; look for one with fewer", board, picture)
    return Result(name, True, f"an empty cell and only {len(moves)} legal move ({', '.join(moves) or 'none'}): "
                  "the claim is false", board, picture)


# ---------------------------------------------------------------------------------- linear compaction
ACCESSES_PER_CELL = 4  #: reads + writes allowed per cell for "2048.compact"
_HIDDEN = ("_cells", "_start", "_writes", "_reads")  #: a CountingLine's storage: answers may not name it


class CountingLine:
    """A row that counts how often it is read and written (``len``, ``line[i]``, ``line[i] = v``).

    ``values`` is the row rebuilt from the starting values and the counted writes only, so a write
    that goes around ``line[i] = v`` is not part of the result.

    >>> line = CountingLine([2, 0, 4]); line[1] = line[0]; line.accesses, line.values
    (2, [2, 2, 4])
    """

    __slots__ = _HIDDEN

    def __init__(self, values: Iterable[int]) -> None:
        self._start = tuple(int(v) for v in values)
        self._cells = list(self._start)
        self._writes: list[tuple[int, int]] = []
        self._reads = 0

    def __len__(self) -> int:
        return len(self._start)

    def _index(self, i: Any) -> int:
        n = len(self._start)
        if isinstance(i, (bool, slice)) or not isinstance(i, (int, np.integer)) or not -n <= i < n:
            raise IndexError(f"use one index 0..{n - 1} at a time (no slices), got {i!r}")
        return int(i) % n

    def __getitem__(self, i: int) -> int:
        self._reads += 1
        return self._cells[self._index(i)]

    def __setitem__(self, i: int, value: int) -> None:
        i = self._index(i)
        self._writes.append((i, int(value)))
        self._cells[i] = int(value)

    def __iter__(self) -> Iterator[int]:
        return (self[i] for i in range(len(self)))  # each value read counts

    @property
    def accesses(self) -> int:
        """Reads plus writes so far."""
        return self._reads + len(self._writes)

    @property
    def values(self) -> list[int]:
        """The row as the counted writes left it."""
        out = list(self._start)
        for i, v in self._writes:
            out[i] = v
        return out

    def tampered(self) -> bool:
        """True when the storage no longer matches the counted writes (it was changed around them)."""
        return self._cells != self.values

    def __repr__(self) -> str:
        return f"CountingLine({self.values})"


def _compacted(row: list[int]) -> list[int]:
    tiles = [v for v in row if v]
    return tiles + [0] * (len(row) - len(tiles))


def _compact_cases() -> Iterator[list[int]]:
    yield from every_row()
    rng = np.random.default_rng(case_seed(SEED))
    for length in range(2, 65):
        for _ in range(3):
            yield [int(v) for v in rng.choice((0, 0, 2, 4, 8), size=length)]


def _names_storage(answer: Any) -> str | None:
    """The hidden storage name the answer's code mentions (``line._cells``), if any."""
    function = getattr(answer, "__func__", answer)
    code = getattr(function, "__code__", None)
    stack = [code] if isinstance(code, types.CodeType) else []
    while stack:
        code = stack.pop()
        for word in code.co_names + code.co_consts:
            if isinstance(word, str) and (word in _HIDDEN or word in ("__dict__", "__slots__")):
                return word
        stack.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
    return None


@checker("2048.compact", allow=ALLOW["compact"])
def check_compact(answer: Callable[[CountingLine], Any]) -> Result:
    """``answer(line)`` must push the tiles to index 0 in place, in order, with <= 4 accesses per cell."""
    name = "2048.compact"
    if (word := _names_storage(answer)) is not None:
        return Result(name, False, f"your code reaches into the line's storage ({word}): use only len(line), "
                      "line[i] and line[i] = v")
    n = 0
    for row in _compact_cases():
        n += 1
        line = CountingLine(row)
        try:
            answer(line)
        except Exception as exc:  # noqa: BLE001 - report whatever the student's code did
            return Result(name, False, f"on {row} your code raised {type(exc).__name__}: {exc}", row)
        want = _compacted(row)
        if line.tampered():
            return Result(name, False, f"on {row} the line was changed without line[i] = v; only counted "
                          "reads and writes count", row)
        if line.values != want:
            return Result(name, False, f"on {row} the line became {line.values}, expected {want}", row)
        if line.accesses > ACCESSES_PER_CELL * len(row):
            return Result(name, False,
                          f"right answer on {row}, but it took {line.accesses} reads and writes for {len(row)} cells; "
                          f"the check allows {ACCESSES_PER_CELL} per cell ({ACCESSES_PER_CELL * len(row)}), enough for "
                          "one pass that reads each cell once and writes each tile once", row)
    return Result(name, True, f"passed on all {n} rows, in linear time")
