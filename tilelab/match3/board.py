"""Match-3 board (readable reference): cells, kinds, limits, the immutable :class:`Board` and its input checks.

Part of the readable match-3 engine; :mod:`tilelab.match3` is its public face (its docstring has the
glossary).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import islice
from typing import Any, Iterable, Iterator, Sequence, Sized

import numpy as np
import numpy.typing as npt

from tilelab.inputs import as_int, is_int, short_repr

__all__ = [
    "Cell",
    "Move",
    "EMPTY",
    "MIN_KINDS",
    "RUN",
    "SYMBOLS",
    "EMPTY_SYMBOL",
    "MAX_KINDS",
    "MAX_SIDE",
    "MAX_CELLS",
    "SHAPE_POINTS",
    "SHAPES",
    "BoardBase",
    "Board",
    "SPECIAL_MARKS",
    "BOMB_SYMBOL",
    "NO_COLOUR",
    "draw_picture",
    "read_picture",
    "check_cell",
    "check_full",
    "check_grid",
    "check_kinds",
    "check_limits",
    "check_rectangle",
    "check_shape",
    "default_kinds",
    "neighbours",
]


Cell = tuple[int, int]
Move = tuple[Cell, Cell]

EMPTY = -1
MIN_KINDS = 3
RUN = 3  # candies in a row that make a match
SYMBOLS = "0123456789abcdefghijklmnopqrstuvwxyz"
EMPTY_SYMBOL = "."
MAX_KINDS = len(SYMBOLS)
#: The picture's marks for special candies, by special code (:mod:`tilelab.match3.special_board`
#: names them: 1 striped-row, 2 striped-col, 3 wrapped, 4 wrapped-primed, 5 colour bomb).
SPECIAL_MARKS = {1: "-", 2: "|", 3: "+", 4: "@"}
BOMB_SYMBOL = "*"
BOMB_CODE = 5
NO_COLOUR = -2  #: the kind under a colour bomb: it never matches
MAX_SIDE = 40  #: longest side a board accepts
MAX_CELLS = 40 * 40  #: most cells a board accepts: every public function ends within seconds here (tested)

# Candy Crush points per group, before the cascade multiplier.
SHAPE_POINTS = {"line3": 60, "line4": 120, "line5": 200, "L": 200, "T": 200, "cross": 200}
SHAPES = tuple(SHAPE_POINTS)


# ----------------------------------------------------------------------------- board


class BoardBase:
    """What a plain :class:`Board` and a :class:`~tilelab.match3.special_board.SpecialBoard` share: a
    rectangle of kinds (``grid``, ``kinds``), its cells, and one text picture read and written by
    :func:`read_picture` / :func:`draw_picture`. The checks and accessors live here once."""

    grid: tuple[tuple[int, ...], ...]
    kinds: int

    @property
    def rows(self) -> int:
        return len(self.grid)

    @property
    def cols(self) -> int:
        return len(self.grid[0])

    def __getitem__(self, cell: Cell) -> int:
        try:
            r, c = cell
        except (TypeError, ValueError):
            raise TypeError(f"index a board with a cell (row, col), e.g. board[0, 1], not {short_repr(cell)}; "
                            "board.grid[r][c] reads the same cell from the rows") from None
        return self.grid[r][c]

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        """The rows of kinds, top first: ``for row in board`` reads the board as its grid does."""
        return iter(self.grid)

    def __array__(self, dtype: Any = None, copy: Any = None) -> npt.NDArray[Any]:
        """``np.asarray(board)``: the kinds as a fresh 2-D array (EMPTY stays EMPTY)."""
        return np.array(self.grid, dtype=np.int64 if dtype is None else dtype)

    def cells(self) -> Iterator[Cell]:
        """Every cell in reading order (top row first, left to right)."""
        return ((r, c) for r in range(self.rows) for c in range(self.cols))

    def on_board(self, cell: Cell) -> bool:
        r, c = cell
        return 0 <= r < self.rows and 0 <= c < self.cols

    @property
    def is_full(self) -> bool:
        """True when no cell is EMPTY."""
        return all(k != EMPTY for row in self.grid for k in row)

    def _special_rows(self) -> tuple[tuple[int, ...], ...] | None:
        return None  # a plain board has no special candies

    def picture(self) -> str:
        """Text picture: one character per cell (0-9 a-z, '.' a hole), a special's mark after its kind."""
        return draw_picture(self.grid, self._special_rows())

    def __str__(self) -> str:
        return self.picture()

    def __repr__(self) -> str:
        return f"{type(self).__name__}.parse({self.picture()!r}, kinds={self.kinds})"


@dataclass(frozen=True, repr=False)
class Board(BoardBase):
    """An immutable match-3 board: ``grid[row][col]`` is a kind in ``0..kinds-1`` (or EMPTY).

    >>> b = Board.parse('''
    ... 012
    ... 120
    ... 201''')
    >>> b.rows, b.cols, b.kinds, b[1, 2]
    (3, 3, 3, 0)
    >>> print(b)
    012
    120
    201
    >>> Board.parse(str(b)) == b
    True
    """

    grid: tuple[tuple[int, ...], ...]
    kinds: int

    def __post_init__(self) -> None:
        kinds = check_kinds(self.kinds)
        object.__setattr__(self, "kinds", kinds)
        object.__setattr__(self, "grid", check_grid(self.grid, kinds))

    def counts(self) -> tuple[int, ...]:
        """How many candies of each kind: ``counts()[k]``."""
        flat = [k for row in self.grid for k in row]
        return tuple(flat.count(k) for k in range(self.kinds))

    def with_cells(self, changes: dict[Cell, int]) -> "Board":
        """A new board with some cells set to new kinds (or EMPTY); only the changed cells are checked."""
        rows = list(self.grid)
        for cell, kind in changes.items():
            r, c = check_cell(self, cell)
            if not is_int(kind) or not (0 <= kind < self.kinds or kind == EMPTY):
                raise ValueError(f"cell {(r, c)} cannot hold {short_repr(kind)}: kinds are ints 0..{self.kinds - 1} or EMPTY")
            row = list(rows[r])
            row[c] = int(kind)
            rows[r] = tuple(row)
        return Board.trusted(tuple(rows), self.kinds)

    def swapped(self, a: Cell, b: Cell) -> "Board":
        """The board with the candies at ``a`` and ``b`` exchanged (no rules applied)."""
        return self.with_cells({a: self[b], b: self[a]})

    @classmethod
    def parse(cls, picture: str, kinds: int | None = None) -> "Board":
        """Read a text picture (spaces ignored); ``kinds`` defaults to max(3, largest kind + 1).

        The same format :class:`~tilelab.match3.special_board.SpecialBoard` reads; a special candy's
        mark is refused here (a plain board has none).

        >>> Board.parse("0 1 2\\n2 . 1").grid
        ((0, 1, 2), (2, -1, 1))
        """
        grid, specials = read_picture(picture, "Board.parse")
        for r, row in enumerate(specials):
            if any(row):
                c = next(c for c, s in enumerate(row) if s)
                mark = SPECIAL_MARKS.get(row[c], BOMB_SYMBOL)
                raise ValueError(f"cell {(r, c)} holds a special candy (mark {mark!r}): a plain Board has none; "
                                 "read this picture with SpecialBoard.parse")
        return cls(grid, default_kinds(grid) if kinds is None else kinds)

    def to_array(self) -> npt.NDArray[Any]:
        """The grid as an ``int8`` numpy array (EMPTY stays -1)."""
        return np.array(self.grid, dtype=np.int8)

    @classmethod
    def trusted(cls, grid: tuple[tuple[int, ...], ...], kinds: int) -> "Board":
        """A board around a grid already known to be valid, checked no further: the engines' fast way in.

        ``Board(grid, kinds)`` checks every cell and refuses a bad one; ``Board.trusted`` checks nothing, so
        give it only a rectangle of tuples of ints ``0..kinds-1`` (or EMPTY) that a checked board or a tested
        kernel produced -- a :meth:`SpecialBoard.colours <tilelab.match3.special_board.SpecialBoard.colours>`,
        a window of a board, a compiled swap's result. For anything a person typed, use ``Board(...)``.

        >>> Board.trusted(((0, 1, 2), (1, 2, 0)), 3) == Board(((0, 1, 2), (1, 2, 0)), 3)
        True
        """
        board = object.__new__(cls)
        object.__setattr__(board, "grid", grid)
        object.__setattr__(board, "kinds", kinds)
        return board

    @classmethod
    def from_array(cls, array: npt.NDArray[Any], kinds: int) -> "Board":
        """A board from a 2-D integer array."""
        array = np.asarray(array)
        if array.ndim != 2:
            raise ValueError(f"expected a 2-D array of kinds, got {array.ndim} dimensions")
        if array.dtype.kind not in "iu":  # 0.5 is not kind 0: refuse, never truncate
            raise TypeError(f"array must hold integer kinds, got dtype {array.dtype}")
        return cls(tuple(map(tuple, array.tolist())), kinds)


# ----------------------------------------------------------------------------- the text picture


def _token(kind: int, special: int) -> str:
    if special == BOMB_CODE:
        return BOMB_SYMBOL
    if kind == EMPTY:
        return EMPTY_SYMBOL
    return SYMBOLS[kind] + SPECIAL_MARKS.get(special, "")


def draw_picture(grid: tuple[tuple[int, ...], ...], specials: tuple[tuple[int, ...], ...] | None = None) -> str:
    """The one text picture of a match-3 board: a row per line, a character per cell (0-9 a-z,
    ``.`` a hole), a special candy's mark right after its kind, ``*`` a colour bomb.

    >>> print(draw_picture(((0, 1, 2), (2, -1, 1))))
    012
    2.1
    >>> print(draw_picture(((0, 1, -2),), ((1, 0, 5),)))
    0-1*
    """
    if specials is None:
        return "\n".join("".join(EMPTY_SYMBOL if k == EMPTY else SYMBOLS[k] for k in row) for row in grid)
    return "\n".join("".join(_token(k, s) for k, s in zip(kr, sr)) for kr, sr in zip(grid, specials))


def read_picture(picture: object, who: str = "parse") -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Read a picture drawn by :func:`draw_picture` (spaces and tabs ignored): ``(grid, specials)``.

    >>> read_picture("0- 1\\n* .")
    (((0, 1), (-2, -1)), ((1, 0), (5, 0)))
    """
    if not isinstance(picture, str):
        raise TypeError(f"{who} expects a str picture, got {type(picture).__name__}")
    marks = {mark: code for code, mark in SPECIAL_MARKS.items()}
    grid, specials = [], []
    for line in picture.strip().splitlines():
        kinds: list[int] = []
        codes: list[int] = []
        for ch in line.replace(" ", "").replace("\t", ""):
            if ch in marks:
                if not kinds or kinds[-1] < 0 or codes[-1] != 0:
                    raise ValueError(f"picture mark {ch!r} must follow a plain candy's kind, e.g. '3{ch}'")
                codes[-1] = marks[ch]
            elif ch == BOMB_SYMBOL:
                kinds.append(NO_COLOUR)
                codes.append(BOMB_CODE)
            elif ch == EMPTY_SYMBOL:
                kinds.append(EMPTY)
                codes.append(0)
            elif ch.isascii() and ch.lower() in SYMBOLS:
                kinds.append(SYMBOLS.index(ch.lower()))
                codes.append(0)
            else:
                raise ValueError(f"unknown symbol {ch!r} in picture: use 0-9, a-z or '.' (special candies: "
                                 "a mark - | + @ after the kind, '*' a colour bomb)")
        if kinds:
            grid.append(tuple(kinds))
            specials.append(tuple(codes))
    if not grid:
        raise ValueError("empty picture: give one line of kinds per row, e.g. '012\\n120'")
    return tuple(grid), tuple(specials)


def default_kinds(grid: tuple[tuple[int, ...], ...]) -> int:
    """max(3, largest kind + 1): the kinds a picture shows."""
    return max(MIN_KINDS, max(max(row) for row in grid) + 1)


def check_kinds(kinds: object) -> int:
    """``kinds`` as an int from MIN_KINDS to MAX_KINDS, or an error saying what a kind count is."""
    if isinstance(kinds, bool) or not isinstance(kinds, (int, np.integer)):
        raise TypeError(f"kinds must be an int, got {type(kinds).__name__}")
    kinds = int(kinds)
    if not MIN_KINDS <= kinds <= MAX_KINDS:
        raise ValueError(
            f"kinds={kinds}: match-3 needs at least {MIN_KINDS} kinds (with fewer, some run is "
            f"unavoidable) and at most {MAX_KINDS}"
        )
    return kinds


def check_grid(grid: object, kinds: int) -> tuple[tuple[int, ...], ...]:
    """``grid`` as a rectangle of kinds ``0..kinds-1`` (or EMPTY), or an error naming the first bad cell."""
    if isinstance(grid, np.ndarray):
        grid = grid[:MAX_SIDE + 1].tolist()  # never copy more than one row too many
    try:  # read one row, and one cell a row, past the limits at most: an endless iterable is refused too
        rows = [list(islice(row, MAX_SIDE + 1)) for row in islice(grid, MAX_SIDE + 1)]  # type: ignore[call-overload]
    except TypeError:
        raise ValueError("grid must be a sequence of rows, e.g. ((0, 1, 2), (1, 2, 0))") from None
    check_rectangle(rows)
    for r, row in enumerate(rows):
        for c, k in enumerate(row):
            if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
                raise ValueError(f"cell {(r, c)} holds {k!r}: kinds are ints 0..{kinds - 1}")
            if not (0 <= k < kinds or k == EMPTY):
                raise ValueError(
                    f"cell {(r, c)} holds kind {k}, outside 0..{kinds - 1} (EMPTY is {EMPTY})"
                )
    return tuple(tuple(int(k) for k in row) for row in rows)


def check_rectangle(rows: Sequence[Sized]) -> None:
    """ValueError unless ``rows`` is a non-empty rectangle within the limits (both boards check this)."""
    if not rows or not len(rows[0]):
        raise ValueError("grid is empty: a board needs at least one row and one column")
    width = len(rows[0])
    check_limits(len(rows), width)
    for r, row in enumerate(rows):
        if len(row) != width:
            raise ValueError(f"ragged grid: row 0 has {width} cells but row {r} has {len(row)}")


def check_limits(rows: int, cols: int) -> None:
    """ValueError naming the limit when a board would be larger than MAX_SIDE / MAX_CELLS."""
    if max(rows, cols) > MAX_SIDE or rows * cols > MAX_CELLS:
        shown = "x".join(str(n) if n <= MAX_SIDE else f"(over {MAX_SIDE})" for n in (rows, cols))  # read no further
        raise ValueError(f"a {shown} board is past tilelab's limits: at most MAX_SIDE={MAX_SIDE} per side and "
                         f"MAX_CELLS={MAX_CELLS} cells, so that every call ends within seconds")


def check_shape(rows: object, cols: object) -> tuple[int, int]:
    """``(rows, cols)`` as ints of a board tilelab accepts, or an error naming the side and the limit."""
    sides = []
    for name, value in (("rows", rows), ("cols", cols)):
        value = as_int(value, name)
        if value < 1:
            raise ValueError(f"{name}={value}: a board needs at least one row and one column")
        sides.append(value)
    check_limits(*sides)
    return sides[0], sides[1]


def check_cell(board: BoardBase, cell: object, name: str = "cell") -> Cell:
    """Return ``cell`` as ``(row, col)`` or raise ValueError naming the problem."""
    if type(cell) is tuple and len(cell) == 2 and type(cell[0]) is int and type(cell[1]) is int \
            and 0 <= cell[0] < len(board.grid) and 0 <= cell[1] < len(board.grid[0]):
        return cell  # the engines' own cells: a pair of ints on the board, known in one test
    pair = tuple(islice(cell, 3)) if isinstance(cell, Iterable) else ()  # 3: enough to refuse a triple
    if len(pair) != 2:
        raise ValueError(f"{name} must be a (row, col) pair, got {cell!r}")
    row, col = pair
    if isinstance(row, bool) or not isinstance(row, (int, np.integer)) \
            or isinstance(col, bool) or not isinstance(col, (int, np.integer)):
        raise ValueError(f"{name} must be a (row, col) pair of ints, got {cell!r}")
    r, c = int(row), int(col)
    if not board.on_board((r, c)):
        raise ValueError(
            f"{name} {(r, c)} is off the board: rows 0..{board.rows - 1}, cols 0..{board.cols - 1}"
        )
    return (r, c)


def check_full(board: Board) -> None:
    if not isinstance(board, Board):
        raise TypeError(f"expected a match3 Board, got {type(board).__name__}")
    if not board.is_full:
        raise ValueError("the board has EMPTY cells: refill it first (a move needs a full board)")


def neighbours(a: Cell, b: Cell) -> bool:
    """True when two cells share a side."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
