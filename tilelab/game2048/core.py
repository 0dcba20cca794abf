"""The 2048 engine: slide, merge, spawn, win and game over, as pure functions on immutable boards.

Rules follow the original game (gabrielecirulli/2048):

- a swipe slides every tile as far as it goes toward one side;
- two equal tiles that meet merge into one tile of twice the value; a tile merges at most once
  per move, and pairs form from the side the tiles move toward (``2 2 2 .`` left gives ``4 2 . .``);
- the score grows by the value of every tile a merge creates;
- a move that changes nothing is not a move: nothing spawns;
- after a move that changed the board one tile spawns on a uniformly random empty cell:
  a 2 with probability 0.9, a 4 with probability 0.1 (``p_four``);
- a game starts with two spawned tiles; making the target tile (2048) wins, and play may go on;
- the game is over when no direction changes the board.

Beyond the original: any square size from 2 to 8, a configurable target and ``p_four``, seeded
randomness, undo to any depth and JSON save/load that restores the random state exactly.

Chance is data: :func:`spawn_outcomes` lists every possible spawn with its probability and
:func:`spawn` samples from that very list, so an expectimax player and the game agree by
construction.
"""

from __future__ import annotations

import enum
import json
import numbers
from functools import lru_cache
from typing import Any, Iterable, NamedTuple, Sequence, Union

import numpy as np

from tilelab._checks import _short
from tilelab._protocol import Turn
from tilelab._random import as_generator
from tilelab.game2048.palette import BOARD_COLOR, tile_style

__all__ = [
    "BLANK",
    "MAX_SIZE",
    "MIN_SIZE",
    "Board",
    "Cell",
    "Direction",
    "Game",
    "MoveResult",
    "SlideResult",
    "Spawn",
    "TileMove",
    "Turn",
    "is_over",
    "legal_moves",
    "line_cells",
    "move",
    "slide_row",
    "spawn",
    "spawn_outcomes",
]

BLANK = 0  #: the value of an empty cell
MIN_SIZE = 2  #: smallest board side
MAX_SIZE = 8  #: largest board side
DEFAULT_SIZE = 4
DEFAULT_TARGET = 2048
DEFAULT_P_FOUR = 0.1  #: the original game spawns a 4 one time in ten
SMALL_TILE, BIG_TILE = 2, 4  #: the two tiles a spawn can place
MAX_TILE = 2**62  #: the largest tile a board accepts (to_array and the bitboard engines work in 64-bit integers)
START_TILES = 2  #: tiles spawned when a game starts
JSON_FORMAT = "tilelab.game2048"
JSON_VERSION = 1

Cell = tuple[int, int]  #: (row, col), row 0 at the top, col 0 at the left


# --------------------------------------------------------------------------------------------
# Directions
# --------------------------------------------------------------------------------------------
_DIRECTION_WORDS = {
    "up": "UP", "u": "UP", "↑": "UP", "north": "UP",
    "down": "DOWN", "d": "DOWN", "↓": "DOWN", "south": "DOWN",
    "left": "LEFT", "l": "LEFT", "←": "LEFT", "west": "LEFT",
    "right": "RIGHT", "r": "RIGHT", "→": "RIGHT", "east": "RIGHT",
}


class Direction(enum.Enum):
    """The four swipes. ``Direction("L")``, ``Direction("left")`` and ``Direction.LEFT`` agree.

    >>> Direction("l"), Direction("Up"), Direction.parse("→")
    (Direction.LEFT, Direction.UP, Direction.RIGHT)
    >>> Direction.LEFT.delta, Direction.UP.opposite
    ((0, -1), Direction.DOWN)
    """

    UP = "up"
    DOWN = "down"
    LEFT = "left"
    RIGHT = "right"

    def __repr__(self) -> str:
        return f"Direction.{self.name}"

    @classmethod
    def _missing_(cls, value: object) -> "Direction | None":
        if isinstance(value, str):
            name = _DIRECTION_WORDS.get(value.strip().lower())
            if name is not None:
                return cls[name]
        return None

    @classmethod
    def parse(cls, value: "Direction | str") -> "Direction":
        """Return the direction named by ``value`` (a Direction, or a word such as "left" or "L")."""
        if isinstance(value, cls):
            return value
        if not isinstance(value, str):
            raise TypeError(
                f"a direction must be a Direction or a string, got {type(value).__name__}; "
                "use e.g. Direction.LEFT or 'left'"
            )
        try:
            return cls(value)
        except ValueError:
            raise ValueError(
                f"unknown direction {value!r}; use one of up/down/left/right "
                "(or u/d/l/r, arrows ↑↓←→, north/south/west/east, or Direction.UP ...); "
                "single compass letters are refused because WASD keys read them differently"
            ) from None

    @property
    def delta(self) -> Cell:
        """The (row, col) step a tile takes in this direction."""
        return _DELTAS[self]

    @property
    def opposite(self) -> "Direction":
        """The direction pointing the other way."""
        return _OPPOSITES[self]


_DELTAS = {Direction.UP: (-1, 0), Direction.DOWN: (1, 0), Direction.LEFT: (0, -1), Direction.RIGHT: (0, 1)}
_OPPOSITES = {
    Direction.UP: Direction.DOWN, Direction.DOWN: Direction.UP,
    Direction.LEFT: Direction.RIGHT, Direction.RIGHT: Direction.LEFT,
}

DirectionLike = Union[Direction, str]


# --------------------------------------------------------------------------------------------
# Validation helpers
# --------------------------------------------------------------------------------------------
def _is_int(value: object) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _check_tile(value: object, where: str) -> int:
    if not _is_int(value):
        raise TypeError(
            f"tile {value!r} at {where} is a {type(value).__name__}, not an int; "
            "tiles are 0 (blank) or powers of two such as 2, 4, 8"
        )
    tile = int(value)  # type: ignore[call-overload]
    if tile != BLANK and (tile < SMALL_TILE or tile & (tile - 1)):
        raise ValueError(
            f"tile {_short(tile)} at {where} is not a 2048 tile; use 0 for a blank or a power of two >= 2"
        )
    if tile > MAX_TILE:
        raise ValueError(f"tile 2**{tile.bit_length() - 1} at {where} is past MAX_TILE = 2**62, the largest tile a board holds")
    return tile


def _check_p_four(p_four: object) -> float:
    if not isinstance(p_four, numbers.Real) or isinstance(p_four, bool):
        raise TypeError(f"p_four must be a number between 0 and 1, got {type(p_four).__name__}")
    p = float(p_four)
    if not 0.0 <= p <= 1.0:  # also rejects NaN
        raise ValueError(f"p_four={p_four!r} is not a probability; pass a number in [0, 1], e.g. 0.1")
    return p


def _check_size(size: object) -> int:
    if not _is_int(size):
        raise TypeError(f"size must be an int from {MIN_SIZE} to {MAX_SIZE}, got {type(size).__name__}")
    if not MIN_SIZE <= int(size) <= MAX_SIZE:  # type: ignore[call-overload]
        raise ValueError(f"size={size} is out of range; pick a board side from {MIN_SIZE} to {MAX_SIZE}")
    return int(size)  # type: ignore[call-overload]


# --------------------------------------------------------------------------------------------
# Board
# --------------------------------------------------------------------------------------------
class Board:
    """An immutable, hashable square 2048 board; ``rows`` is a tuple of tuples, 0 = blank.

    ``str(board)`` draws it as text and :meth:`Board.parse` reads that text back.

    >>> b = Board([[0, 2, 0, 0], [0, 0, 0, 0], [4, 0, 0, 2], [0, 0, 0, 0]])
    >>> print(b)
    . 2 . .
    . . . .
    4 . . 2
    . . . .
    >>> Board.parse(str(b)) == b, b.size, b[2, 0], len(b.empty_cells())
    (True, 4, 4, 13)
    """

    __slots__ = ("_rows", "_hash")

    def __init__(self, rows: "Board | Iterable[Iterable[int]]") -> None:
        if isinstance(rows, Board):
            self._rows: tuple[tuple[int, ...], ...] = rows._rows
            self._hash: int | None = rows._hash
            return
        if isinstance(rows, np.ndarray):
            rows = rows.tolist()
        if isinstance(rows, (str, bytes)) or not isinstance(rows, Iterable):
            raise TypeError(
                f"Board expects a sequence of rows (lists of ints), got {type(rows).__name__}; "
                "to read a text picture use Board.parse(text)"
            )
        checked = []
        for r, row in enumerate(rows):
            if isinstance(row, (str, bytes)) or not isinstance(row, Iterable):
                raise TypeError(f"row {r} is a {type(row).__name__}, not a sequence of ints")
            checked.append(tuple(_check_tile(v, f"row {r}, col {c}") for c, v in enumerate(row)))
        size = len(checked)
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ValueError(
                f"a board needs {MIN_SIZE} to {MAX_SIZE} rows, got {size}; pass a square grid such as 4 rows of 4"
            )
        for r, row in enumerate(checked):
            if len(row) != size:
                raise ValueError(
                    f"row {r} has {len(row)} cells but the board has {size} rows; "
                    "boards are square: give every row exactly as many cells as there are rows"
                )
        self._rows = tuple(checked)
        self._hash = None

    @classmethod
    def _trusted(cls, rows: tuple[tuple[int, ...], ...]) -> "Board":
        board = object.__new__(cls)
        board._rows = rows
        board._hash = None
        return board

    # -- constructors ----------------------------------------------------------------------
    @classmethod
    def empty(cls, size: int = DEFAULT_SIZE) -> "Board":
        """A board of blanks.

        >>> print(Board.empty(2))
        . .
        . .
        """
        size = _check_size(size)
        return cls._trusted(((BLANK,) * size,) * size)

    @classmethod
    def parse(cls, text: str) -> "Board":
        """Read a text picture: one line per row, tiles separated by spaces, ``.`` (or 0, _) blank.

        Bars (``|2| |4|``-style) are ignored as separators, blank lines are skipped.

        >>> Board.parse('''
        ...     . 2
        ...     4 .
        ... ''').rows
        ((0, 2), (4, 0))
        """
        if not isinstance(text, str):
            raise TypeError(f"Board.parse expects a str picture, got {type(text).__name__}")
        rows = []
        for line in text.splitlines():
            tokens = line.replace("|", " ").split()
            if not tokens:
                continue
            row = []
            for token in tokens:
                if token in (".", "_", "-", "0"):
                    row.append(BLANK)
                elif token.isascii() and token.isdigit() and len(token) <= 20:
                    row.append(int(token))
                else:
                    raise ValueError(
                        f"cannot read {_short(token)} in line {_short(line.strip())}; write tiles as numbers with the "
                        "digits 0-9 and blanks as '.'"
                    )
            rows.append(row)
            if len(rows) > MAX_SIZE:
                raise ValueError(f"the picture has more than {MAX_SIZE} rows; boards are {MIN_SIZE}x{MIN_SIZE} to "
                                 f"{MAX_SIZE}x{MAX_SIZE}")
        return cls(rows)

    @classmethod
    def from_array(cls, array: Any) -> "Board":
        """A board from a 2-D numpy array (or anything ``numpy.asarray`` accepts)."""
        a = np.asarray(array)
        if a.ndim != 2:
            raise ValueError(f"expected a 2-D array, got {a.ndim} dimensions with shape {a.shape}")
        if a.dtype.kind not in "iu":
            if a.dtype.kind == "f" and np.all(np.mod(a, 1) == 0):
                a = a.astype(np.int64)
            else:
                raise TypeError(f"expected an integer array, got dtype {a.dtype}")
        return cls(a.tolist())

    # -- views -----------------------------------------------------------------------------
    @property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        """The tiles, row by row (0 = blank)."""
        return self._rows

    @property
    def size(self) -> int:
        """The side of the square board."""
        return len(self._rows)

    def __getitem__(self, cell: Cell) -> int:
        try:
            r, c = cell
        except (TypeError, ValueError):
            raise TypeError(f"index a board with a cell (row, col), e.g. board[0, 1], not {_short(cell)}") from None
        n = len(self._rows)
        if not (_is_int(r) and _is_int(c)):
            raise TypeError(f"a cell is two ints (row, col), got {_short(cell)}")
        if not (0 <= r < n and 0 <= c < n):  # no wrapping: board[-1, 0] is off the board like board[n, 0]
            raise IndexError(f"cell {(int(r), int(c))} is off the {n}x{n} board: rows and columns are 0..{n - 1}")
        return self._rows[r][c]

    def to_array(self) -> np.ndarray:
        """The tiles as a fresh ``int64`` numpy array (a copy: the board stays immutable)."""
        return np.array(self._rows, dtype=np.int64)

    def cells(self) -> list[Cell]:
        """Every cell, row by row."""
        n = self.size
        return [(r, c) for r in range(n) for c in range(n)]

    def empty_cells(self) -> list[Cell]:
        """The blank cells, row by row (where a spawn may land)."""
        return [(r, c) for r, row in enumerate(self._rows) for c, v in enumerate(row) if v == BLANK]

    def tiles(self) -> dict[Cell, int]:
        """``{cell: value}`` for every non-blank cell."""
        return {(r, c): v for r, row in enumerate(self._rows) for c, v in enumerate(row) if v != BLANK}

    @property
    def max_tile(self) -> int:
        """The largest tile (0 on an empty board)."""
        return max(max(row) for row in self._rows)

    @property
    def tile_sum(self) -> int:
        """The sum of all tiles: a slide keeps it, a spawn adds 2 or 4."""
        return sum(sum(row) for row in self._rows)

    def with_tile(self, cell: Cell, value: int) -> "Board":
        """A copy with ``value`` placed at ``cell``.

        >>> print(Board.empty(2).with_tile((1, 0), 4))
        . .
        4 .
        """
        try:
            r, c = cell
        except (TypeError, ValueError):
            raise TypeError(f"cell must be a (row, col) pair, got {_short(cell)}") from None
        if not (_is_int(r) and _is_int(c)):
            raise TypeError(f"cell must be a (row, col) pair of ints, got {_short(cell)}")
        if not (0 <= r < self.size and 0 <= c < self.size):
            raise ValueError(f"cell {cell} is off the {self.size}x{self.size} board")
        value = _check_tile(value, f"cell {cell}")
        rows = list(self._rows)
        row = list(rows[r])
        row[c] = value
        rows[r] = tuple(row)
        return Board._trusted(tuple(rows))

    def transpose(self) -> "Board":
        """Rows become columns (swaps UP with LEFT and DOWN with RIGHT)."""
        return Board._trusted(tuple(zip(*self._rows)))

    def mirror(self) -> "Board":
        """Left and right swapped (swaps LEFT with RIGHT)."""
        return Board._trusted(tuple(row[::-1] for row in self._rows))

    # -- value semantics -------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self._rows == other._rows

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._rows)
        return self._hash

    def __repr__(self) -> str:
        return f"Board({[list(row) for row in self._rows]!r})"

    def __str__(self) -> str:
        width = max(len(str(v)) for row in self._rows for v in row)
        return "\n".join(
            " ".join(("." if v == BLANK else str(v)).rjust(width) for v in row) for row in self._rows
        )

    def __reduce__(self) -> tuple:
        return (Board, (self._rows,))

    def _repr_html_(self) -> str:
        """A notebook shows a bare ``board`` as a small grid in the classic colours."""
        cells = []
        for row in self._rows:
            tds = []
            for v in row:
                background, colour = tile_style(v)
                tds.append(
                    f'<td style="background:{background};color:{colour};width:2.6em;height:2.6em;'
                    f'text-align:center;font:bold 1em sans-serif;border-radius:4px">{v or ""}</td>'
                )
            cells.append("<tr>" + "".join(tds) + "</tr>")
        return (f'<table style="background:{BOARD_COLOR};border-spacing:4px;border-radius:6px">'
                + "".join(cells) + "</table>")


BoardLike = Union[Board, Sequence[Sequence[int]], np.ndarray]


def _as_board(board: BoardLike) -> Board:
    return board if isinstance(board, Board) else Board(board)


# --------------------------------------------------------------------------------------------
# One row: slide and merge
# --------------------------------------------------------------------------------------------
class TileMove(NamedTuple):
    """One tile's part in a move: where it was, where it ends, the value there, merged or not.

    In a merge both tiles get a TileMove with the same destination, ``merged=True`` and the
    merged value; ``start_value`` is the value the tile had before the move.
    """

    source: Any  #: int index in a row (slide_row) or (row, col) cell (move)
    destination: Any
    value: int
    merged: bool

    @property
    def start_value(self) -> int:
        """The tile's value before the move."""
        return self.value // 2 if self.merged else self.value

    @property
    def moved(self) -> bool:
        """True when the tile changed place."""
        return self.source != self.destination


class SlideResult(NamedTuple):
    """What :func:`slide_row` did: the new row (slid toward index 0), the score and the move orders."""

    row: tuple[int, ...]
    score: int
    moves: tuple[TileMove, ...]

    @property
    def changed(self) -> bool:
        """True when some tile moved or merged."""
        return any(m.merged or m.source != m.destination for m in self.moves)


def _slide(row: tuple[int, ...]) -> SlideResult:
    """Slide a validated row toward index 0 (the reference algorithm, one pass)."""
    values: list[int] = []  # the new row, tile by tile
    orders: list[list] = []  # [source, destination, value, merged] per tile
    score = 0
    can_merge = False  # may the next tile merge into values[-1]?
    last = None  # the order of the tile now at values[-1]
    for source, value in enumerate(row):
        if value == BLANK:
            continue
        if can_merge and values[-1] == value:
            values[-1] = 2 * value
            score += 2 * value
            last[2], last[3] = 2 * value, True  # type: ignore[index]
            orders.append([source, len(values) - 1, 2 * value, True])
            can_merge = False  # a tile merges at most once per move
        else:
            values.append(value)
            last = [source, len(values) - 1, value, False]
            orders.append(last)
            can_merge = True
    new_row = tuple(values) + (BLANK,) * (len(row) - len(values))
    return SlideResult(new_row, score, tuple(TileMove(*o) for o in orders))


_slide_cached = lru_cache(maxsize=1 << 16)(_slide)


def slide_row(row: Sequence[int]) -> SlideResult:
    """Slide one row toward index 0, merging equal pairs once, nearest pair first.

    >>> r = slide_row([2, 2, 2, 0])
    >>> r.row, r.score
    ((4, 2, 0, 0), 4)
    >>> slide_row([2, 2, 2, 2]).row, slide_row([0, 4, 0, 4]).row, slide_row([4, 4, 8, 0]).row
    ((4, 4, 0, 0), (8, 0, 0, 0), (8, 8, 0, 0))
    >>> for m in slide_row([0, 2, 0, 2]).moves: print(m)
    TileMove(source=1, destination=0, value=4, merged=True)
    TileMove(source=3, destination=0, value=4, merged=True)
    """
    if isinstance(row, (str, bytes)) or not isinstance(row, Iterable):
        raise TypeError(f"slide_row expects a sequence of ints, got {type(row).__name__}")
    checked = tuple(_check_tile(v, f"index {i}") for i, v in enumerate(row))
    if not checked:
        raise ValueError("slide_row needs at least one cell; pass e.g. [2, 2, 0, 0]")
    return _slide_cached(checked)


# --------------------------------------------------------------------------------------------
# The whole board: four directions from one
# --------------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def _line_cells(size: int, direction: Direction) -> tuple[tuple[Cell, ...], ...]:
    idx = range(size)
    back = range(size - 1, -1, -1)
    if direction is Direction.LEFT:
        return tuple(tuple((r, c) for c in idx) for r in idx)
    if direction is Direction.RIGHT:
        return tuple(tuple((r, c) for c in back) for r in idx)
    if direction is Direction.UP:
        return tuple(tuple((r, c) for r in idx) for c in idx)
    return tuple(tuple((r, c) for r in back) for c in idx)


def line_cells(size: int, direction: DirectionLike) -> tuple[tuple[Cell, ...], ...]:
    """The board's lines for a swipe, each listed from the side the tiles move toward.

    Every direction becomes "slide toward index 0" on these lines: four directions from one.

    >>> line_cells(2, "right")
    (((0, 1), (0, 0)), ((1, 1), (1, 0)))
    >>> line_cells(2, "up")
    (((0, 0), (1, 0)), ((0, 1), (1, 1)))
    """
    return _line_cells(_check_size(size), Direction.parse(direction))


class MoveResult(NamedTuple):
    """What :func:`move` did: new board, score gained, every tile's move (board cells), changed."""

    board: Board
    score: int
    moves: tuple[TileMove, ...]
    changed: bool
    direction: Direction


def move(board: BoardLike, direction: DirectionLike) -> MoveResult:
    """Swipe the whole board (no spawn: that is a separate chance step).

    >>> b = Board.parse('''
    ...     2 2 2 .
    ...     . 4 . 4
    ...     . . . .
    ...     8 . 8 2
    ... ''')
    >>> r = move(b, "left")
    >>> print(r.board)
     4  2  .  .
     8  .  .  .
     .  .  .  .
    16  2  .  .
    >>> r.score, r.changed
    (28, True)
    >>> move(r.board, "left").changed
    False
    """
    board = _as_board(board)
    direction = Direction.parse(direction)
    rows = board._rows
    n = len(rows)
    code = _DIRECTION_CODE[direction]
    lines = _lines_toward(rows, code)
    results = [_line_result(n, code, i, line) for i, line in enumerate(lines)]
    slid = [r.values for r in results]
    if code == _RIGHT or code == _DOWN:
        slid = [v[::-1] for v in slid]
    new_rows = tuple(zip(*slid)) if code == _UP or code == _DOWN else tuple(slid)
    moves = tuple(m for r in results for m in r.moves)
    score = sum(r.score for r in results)
    changed = any(r.changed for r in results)
    return MoveResult(Board._trusted(new_rows), score, moves, changed, direction)


_LEFT, _RIGHT, _UP, _DOWN = range(4)
_DIRECTION_CODE = {Direction.LEFT: _LEFT, Direction.RIGHT: _RIGHT, Direction.UP: _UP, Direction.DOWN: _DOWN}
_DIRECTION_OF_CODE = {code: d for d, code in _DIRECTION_CODE.items()}


def _lines_toward(rows: tuple[tuple[int, ...], ...], code: int) -> list[tuple[int, ...]]:
    """The board's lines, each read from the side the tiles move toward (as :func:`line_cells`)."""
    if code == _LEFT:
        return list(rows)
    if code == _RIGHT:
        return [row[::-1] for row in rows]
    columns = list(zip(*rows))
    return columns if code == _UP else [col[::-1] for col in columns]


class _LineResult(NamedTuple):
    values: tuple[int, ...]
    score: int
    moves: tuple[TileMove, ...]
    changed: bool


@lru_cache(maxsize=1 << 18)
def _line_result(size: int, code: int, index: int, values: tuple[int, ...]) -> _LineResult:
    """slide_row on one line of the board, with its move orders translated to board cells (memoised)."""
    cells = _line_cells(size, _DIRECTION_OF_CODE[code])[index]
    result = _slide(values)
    moves = tuple(TileMove(cells[m.source], cells[m.destination], m.value, m.merged) for m in result.moves)
    return _LineResult(result.row, result.score, moves, result.changed)


def _line_can_slide(line: tuple[int, ...]) -> bool:
    seen_blank = False
    prev = BLANK
    for v in line:
        if v == BLANK:
            seen_blank = True
            continue
        if seen_blank or v == prev:
            return True
        prev = v
    return False


def legal_moves(board: BoardLike) -> list[Direction]:
    """The directions that change the board, in the order UP, DOWN, LEFT, RIGHT.

    >>> legal_moves(Board.parse('''
    ...     2 4
    ...     . 8
    ... '''))
    [Direction.DOWN, Direction.LEFT]
    """
    rows = _as_board(board)._rows
    return [d for d in Direction if any(map(_line_can_slide, _lines_toward(rows, _DIRECTION_CODE[d])))]


def is_over(board: BoardLike) -> bool:
    """True when no swipe changes the board (full with no equal neighbours; or empty).

    >>> is_over(Board.parse('''
    ...     2 4
    ...     4 2
    ... ''')), is_over(Board.parse('''
    ...     2 2
    ...     4 8
    ... '''))
    (True, False)
    """
    rows = _as_board(board)._rows
    n = len(rows)
    if any(BLANK in row for row in rows):
        # some tile can slide into a blank -- unless there is no tile at all
        return all(v == BLANK for row in rows for v in row)
    for r in range(n):
        for c in range(n):
            v = rows[r][c]
            if (c + 1 < n and rows[r][c + 1] == v) or (r + 1 < n and rows[r + 1][c] == v):
                return False
    return True


# --------------------------------------------------------------------------------------------
# Spawns: chance as data
# --------------------------------------------------------------------------------------------
class Spawn(NamedTuple):
    """A new tile: ``value`` (2 or 4) appearing at ``cell`` (row, col)."""

    cell: Cell
    value: int


def spawn_outcomes(board: BoardLike, p_four: float = DEFAULT_P_FOUR) -> list[tuple[Spawn, float]]:
    """Every possible spawn with its probability: a uniform empty cell, then 2 (1 - p_four) or 4.

    Outcomes with probability 0 are left out; a full board has no outcomes.

    >>> for s, p in spawn_outcomes(Board.parse('''
    ...     2 .
    ...     4 .
    ... ''')): print(s, round(p, 3))
    Spawn(cell=(0, 1), value=2) 0.45
    Spawn(cell=(0, 1), value=4) 0.05
    Spawn(cell=(1, 1), value=2) 0.45
    Spawn(cell=(1, 1), value=4) 0.05
    """
    board = _as_board(board)
    p_four = _check_p_four(p_four)
    empty = board.empty_cells()
    if not empty:
        return []
    share = 1.0 / len(empty)
    outcomes = []
    for cell in empty:
        for value, p in ((SMALL_TILE, 1.0 - p_four), (BIG_TILE, p_four)):
            if p > 0:
                outcomes.append((Spawn(cell, value), p * share))
    return outcomes


def sample_outcome(outcomes: Sequence[tuple[Any, float]], rng: np.random.Generator) -> Any:
    """Pick one outcome from ``[(outcome, p)]`` with one uniform draw (walk the cumulative sum)."""
    if not outcomes:
        raise ValueError("there is no outcome to sample from (is the board full?)")
    u = rng.random()
    total = 0.0
    for outcome, p in outcomes:
        total += p
        if u < total:
            return outcome
    return outcomes[-1][0]  # u landed in the rounding gap just below 1.0


def spawn(
    board: BoardLike, rng: "int | np.random.Generator | None" = None, p_four: float = DEFAULT_P_FOUR
) -> tuple[Board, Spawn]:
    """Sample one spawn from :func:`spawn_outcomes` and place it; returns (new board, spawn).

    >>> b, s = spawn(Board.parse('''
    ...     2 4
    ...     8 .
    ... '''), rng=0, p_four=0.0)
    >>> s
    Spawn(cell=(1, 1), value=2)
    >>> print(b)
    2 4
    8 2
    """
    board = _as_board(board)
    outcomes = spawn_outcomes(board, p_four)
    if not outcomes:
        raise ValueError("the board is full: a spawn needs an empty cell (spawn only after a move that changed it)")
    chosen: Spawn = sample_outcome(outcomes, as_generator(rng))
    return board.with_tile(chosen.cell, chosen.value), chosen


# --------------------------------------------------------------------------------------------
# Game: a session with score, win, undo and save/load
# --------------------------------------------------------------------------------------------
class _Snapshot(NamedTuple):
    board: Board
    score: int
    won: bool
    moves_played: int
    rng_state: dict


def _check_target(target: object) -> int:
    if not _is_int(target):
        raise TypeError(f"target must be an int power of two such as 2048, got {type(target).__name__}")
    t = int(target)  # type: ignore[call-overload]
    if t < BIG_TILE or t & (t - 1):
        raise ValueError(f"target={target} is not reachable; pick a power of two >= 4, e.g. 2048")
    return t


def _as_spawn(outcome: object) -> Spawn:
    """``outcome`` as a Spawn, from a Spawn or a pair ``((row, col), value)``; TypeError naming it otherwise."""
    try:
        cell, value = outcome  # type: ignore[misc]
        r, c = cell
    except (TypeError, ValueError):
        raise TypeError(f"outcome must be a Spawn((row, col), value), e.g. Spawn((0, 1), 2), not {_short(outcome)}") from None
    if not all(_is_int(v) for v in (r, c, value)):
        raise TypeError(f"outcome must be a Spawn((row, col), value) of ints, not {_short(outcome)}")
    return Spawn((int(r), int(c)), int(value))


def _jsonable(state: Any) -> Any:
    if isinstance(state, dict):
        return {k: _jsonable(v) for k, v in state.items()}
    if isinstance(state, np.ndarray):
        return state.tolist()
    if isinstance(state, np.integer):
        return int(state)
    return state


def _generator_from_state(state: dict, field: str = "rng") -> np.random.Generator:
    name = state.get("bit_generator") if isinstance(state, dict) else None
    bit_generator_class = getattr(np.random, name, None) if isinstance(name, str) and name.isidentifier() else None
    if not (isinstance(bit_generator_class, type) and issubclass(bit_generator_class, np.random.BitGenerator)):
        raise ValueError(f"saved random state {field!r} names an unknown bit generator {_short(name)}")
    bit_generator = bit_generator_class()
    try:
        bit_generator.state = state
        np.random.Generator(bit_generator).random()  # a state numpy took but cannot draw from fails here, not later
    except (TypeError, ValueError, KeyError, IndexError, OverflowError, NotImplementedError, RecursionError) as exc:
        raise ValueError(f"saved random state {field!r} is damaged ({type(exc).__name__}: {_short(str(exc), 120)})") from None
    bit_generator.state = state
    return np.random.Generator(bit_generator)


def _saved(data: dict, key: str, where: str = "") -> Any:
    if key not in data:
        raise ValueError(f"saved game is missing the field {where}{key!r}")
    return data[key]


def _saved_count(data: dict, key: str, where: str = "") -> int:
    """A saved score or move count: an int >= 0 (3.7, -1, True and "3" are refused, not rounded)."""
    value = _saved(data, key, where)
    if not _is_int(value) or value < 0:
        raise ValueError(f"saved game field {where}{key!r} must be a whole number >= 0, not {_short(value)}")
    return int(value)


def _saved_bool(data: dict, key: str, where: str = "") -> bool:
    value = _saved(data, key, where)
    if not isinstance(value, bool):  # "false" is a non-empty string: bool("false") would be True
        raise ValueError(f"saved game field {where}{key!r} must be true or false, not {_short(value)}")
    return value


def _saved_board(data: dict, key: str, size: int, where: str = "") -> Board:
    try:
        board = Board(_saved(data, key, where))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"saved game field {where}{key!r} is not a board: {exc}") from None
    if board.size != size:
        raise ValueError(f"saved game field {where}{key!r} is {board.size}x{board.size} but the game's size is {size}")
    return board


class Game:
    """A game of 2048: board, score, win, game over, undo and JSON save/load.

    Randomness comes only from the game's own numpy Generator (``seed``): same seed, same game.
    :meth:`undo` restores the random state too, so replaying the same swipe brings the same
    spawn -- undo cannot be used to fish for a better tile.

    >>> g = Game(size=4, seed=19)
    >>> print(g.board)
    . . . .
    . . 2 .
    . . . .
    . . 2 .
    >>> turn = g.play("up")
    >>> bool(turn), turn.score, g.score, turn.chance
    (True, 4, 4, ((Spawn(cell=(1, 1), value=2), 0.06),))
    >>> print(g.board)
    . . 4 .
    . 2 . .
    . . . .
    . . . .
    >>> g.undo(), bool(g.play("up"))   # the same spawn again
    (True, True)
    >>> print(g.board)
    . . 4 .
    . 2 . .
    . . . .
    . . . .
    >>> Game.from_json(g.to_json()).board == g.board
    True
    """

    def __init__(
        self,
        size: int = DEFAULT_SIZE,
        target: int = DEFAULT_TARGET,
        p_four: float = DEFAULT_P_FOUR,
        seed: "int | np.random.Generator | None" = None,
        *,
        board: BoardLike | None = None,
    ) -> None:
        self.target = _check_target(target)
        self.p_four = _check_p_four(p_four)
        self.seed = int(seed) if _is_int(seed) else None  # type: ignore[call-overload]
        self._rng = as_generator(seed)
        if board is not None:
            start = _as_board(board)
            if size != DEFAULT_SIZE and size != start.size:
                raise ValueError(f"size={size} but the given board is {start.size}x{start.size}; drop size or match it")
            self.size = start.size
        else:
            self.size = _check_size(size)
        self._history: list[_Snapshot] = []
        self.last_move: MoveResult | None = None  #: what the last play() did (for animation)
        self.last_spawn: Spawn | None = None  #: the tile the last play() spawned
        self._start(None if board is None else _as_board(board))

    def _start(self, board: Board | None) -> None:
        self.score = 0
        self.moves_played = 0
        self._history.clear()
        self.last_move = None
        self.last_spawn = None
        if board is None:
            self.board = Board.empty(self.size)
            for _ in range(START_TILES):
                self.spawn()
            self.last_spawn = None
        else:
            self.board = board
        self.won = self.board.max_tile >= self.target

    def restart(self) -> None:
        """A new game with the same settings; the random generator carries on (no re-seeding)."""
        self._start(None)

    # -- state -----------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """True when no swipe changes the board."""
        return is_over(self.board)

    @property
    def rng(self) -> np.random.Generator:
        """The game's random generator (spawns draw from it)."""
        return self._rng

    def legal_moves(self) -> list[Direction]:
        """Directions that would change the board now."""
        return legal_moves(self.board)

    def spawn_outcomes(self) -> list[tuple[Spawn, float]]:
        """Every spawn that may follow, with its probability, for the current board."""
        return spawn_outcomes(self.board, self.p_four)

    @property
    def can_undo(self) -> bool:
        """True when there is a move to take back."""
        return bool(self._history)

    @property
    def undo_depth(self) -> int:
        """How many moves :meth:`undo` can take back."""
        return len(self._history)

    # -- actions ---------------------------------------------------------------------------
    def spawn(self, outcome: Spawn | None = None) -> Spawn:
        """The chance step: place ``outcome`` or, by default, sample one from :meth:`spawn_outcomes`.

        :meth:`play` calls this after every move that changed the board; call it yourself after
        ``play(direction, spawn=False)`` to choose the spawn (e.g. to replay a recorded game).
        """
        if outcome is not None:
            outcome = _as_spawn(outcome)
        outcomes = self.spawn_outcomes()
        if not outcomes:
            raise ValueError("the board is full: nothing can spawn")
        if outcome is None:
            chosen: Spawn = sample_outcome(outcomes, self._rng)
        else:
            chosen = outcome
            if chosen not in {s for s, _ in outcomes}:
                raise ValueError(
                    f"{outcome!r} cannot happen here; pick one of game.spawn_outcomes() (an empty cell, value 2 or 4)"
                )
        self.board = self.board.with_tile(chosen.cell, chosen.value)
        self.last_spawn = chosen
        return chosen

    def _snapshot(self) -> _Snapshot:
        return _Snapshot(self.board, self.score, self.won, self.moves_played, self._rng.bit_generator.state)

    def play(self, direction: DirectionLike, *, spawn: bool = True) -> Turn:
        """Swipe; when the board changed add the score, spawn a tile; returns the :class:`Turn`.

        The Turn holds the move's events (``turn.events``: every tile's move), the score gained,
        the spawn with its probability (``turn.chance``) and ``over``/``won``; it counts as True
        when the board changed. A swipe that changes nothing returns a Turn that counts as False
        and leaves everything (random state too) as is.
        """
        result = move(self.board, direction)
        if not result.changed:
            return Turn(result.direction, False, result, 0, (), self.over, self.won)
        self._history.append(self._snapshot())
        self.board = result.board
        self.score += result.score
        self.moves_played += 1
        self.last_move = result
        self.last_spawn = None
        if any(m.merged and m.value >= self.target for m in result.moves):
            self.won = True
        chance: tuple[tuple[Spawn, float], ...] = ()
        if spawn:
            outcomes = dict(self.spawn_outcomes())
            chosen = self.spawn()
            chance = ((chosen, outcomes[chosen]),)
        return Turn(result.direction, True, result, result.score, chance, self.over, self.won)

    def hint(self, nodes: int | None = None) -> Direction | None:
        """A good swipe for the current board: expectimax with a node budget (same board, same hint).

        ``nodes`` defaults to the AI's own budget; None when the game is over. Compiles the AI on
        its first call (a few seconds on a fresh machine).
        """
        if self.over:
            return None
        from tilelab.game2048.ai import Expectimax

        return Expectimax(nodes_per_move=nodes, p_four=self.p_four)(self.board)

    def undo(self) -> bool:
        """Take back the last move (and its spawn, and the random draws); False if none is left."""
        if not self._history:
            return False
        snap = self._history.pop()
        self.board, self.score, self.won, self.moves_played = snap.board, snap.score, snap.won, snap.moves_played
        self._rng.bit_generator.state = snap.rng_state
        self.last_move = None
        self.last_spawn = None
        return True

    # -- save / load -----------------------------------------------------------------------
    def to_dict(self) -> dict:
        """Everything needed to continue exactly: settings, board, score, random state, undo history."""
        return {
            "format": JSON_FORMAT,
            "version": JSON_VERSION,
            "size": self.size,
            "target": self.target,
            "p_four": self.p_four,
            "seed": self.seed,
            "board": [list(row) for row in self.board.rows],
            "score": self.score,
            "won": self.won,
            "moves_played": self.moves_played,
            "rng": _jsonable(self._rng.bit_generator.state),
            "history": [
                {
                    "board": [list(row) for row in s.board.rows],
                    "score": s.score,
                    "won": s.won,
                    "moves_played": s.moves_played,
                    "rng": _jsonable(s.rng_state),
                }
                for s in self._history
            ],
        }

    def to_json(self) -> str:
        """The game as a JSON string; :meth:`from_json` restores it, random state included."""
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: dict) -> "Game":
        """Rebuild a game saved by :meth:`to_dict`; every field is checked, alone and against the others."""
        if not isinstance(data, dict) or data.get("format") != JSON_FORMAT:
            raise ValueError(f"not a saved 2048 game: expected a JSON object with format={JSON_FORMAT!r}")
        version = data.get("version")
        if type(version) is not int or version != JSON_VERSION:  # True and 1.0 are not the version 1
            raise ValueError(f"saved game version {_short(version)} is not supported (expected {JSON_VERSION})")
        size = _saved(data, "size")
        if not _is_int(size) or not MIN_SIZE <= size <= MAX_SIZE:
            raise ValueError(f"saved game field 'size' must be an int from {MIN_SIZE} to {MAX_SIZE}, not {_short(size)}")
        board = _saved_board(data, "board", size)
        try:
            game = cls(size=size, target=_saved(data, "target"), p_four=_saved(data, "p_four"), seed=0, board=board)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"saved game settings are invalid: {exc}") from None
        seed = _saved(data, "seed")
        if seed is not None and (not _is_int(seed) or seed < 0):
            raise ValueError(f"saved game field 'seed' must be null or a whole number >= 0, not {_short(seed)}")
        game.seed = seed
        game._rng = _generator_from_state(_saved(data, "rng"))
        game.score = _saved_count(data, "score")
        game.won = _saved_bool(data, "won")
        game.moves_played = _saved_count(data, "moves_played")
        if game.won and board.max_tile < game.target:
            raise ValueError(f"saved game says won but no tile reaches the target {game.target}")
        history = _saved(data, "history")
        if not isinstance(history, list):
            raise ValueError(f"saved game field 'history' must be a list, not {type(history).__name__}")
        if len(history) > game.moves_played:
            raise ValueError(f"saved game has {len(history)} undo steps but only {game.moves_played} moves played")
        for i, snap in enumerate(history):
            where = f"history[{i}]."
            if not isinstance(snap, dict):
                raise ValueError(f"saved game field 'history[{i}]' must be an object, not {type(snap).__name__}")
            moves = _saved_count(snap, "moves_played", where)
            if moves != game.moves_played - len(history) + i:
                raise ValueError(f"saved game field {where}'moves_played' is {moves}, expected "
                                 f"{game.moves_played - len(history) + i} (one move per undo step)")
            game._history.append(_Snapshot(
                _saved_board(snap, "board", size, where), _saved_count(snap, "score", where),
                _saved_bool(snap, "won", where), moves,
                _generator_from_state(_saved(snap, "rng", where), f"{where}rng").bit_generator.state,
            ))
        later = [*game._history[1:], _Snapshot(game.board, game.score, game.won, game.moves_played, {})]
        for i, (snap, after) in enumerate(zip(game._history, later)):
            if snap.score > after.score or (snap.won and not after.won):
                raise ValueError(f"saved game history[{i}] has score {snap.score} (won {snap.won}) but the next "
                                 f"position has {after.score} (won {after.won}): score and won never go back")
        return game

    @classmethod
    def from_json(cls, text: str) -> "Game":
        """Rebuild a game saved by :meth:`to_json`; it continues with exactly the same spawns."""
        if not isinstance(text, (str, bytes, bytearray)):
            raise TypeError(f"Game.from_json expects a JSON string, got {type(text).__name__}")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"not valid JSON ({exc.msg} at position {exc.pos}); pass the text from game.to_json()") from None
        except (RecursionError, UnicodeDecodeError) as exc:
            raise ValueError(f"not a saved game ({type(exc).__name__}); pass the text from game.to_json()") from None
        try:
            return cls.from_dict(data)
        except RecursionError:
            raise ValueError("saved game is nested too deeply to be a game; pass the text from game.to_json()") from None

    def __repr__(self) -> str:
        state = "over" if self.over else ("won" if self.won else "playing")
        return f"<Game {self.size}x{self.size} score={self.score} moves={self.moves_played} {state}>"

    def __str__(self) -> str:
        return f"{self.board}\nscore {self.score}" + ("  (won)" if self.won else "") + ("  (game over)" if self.over else "")

