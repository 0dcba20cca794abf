"""2048 boards: directions, input checks and the immutable :class:`Board` (pure engine).

Part of the readable engine (:mod:`tilelab.game2048` is its public face). The tile
palette is imported only when a board draws itself (``_repr_html_``).
"""

from __future__ import annotations

import enum
import numbers
from collections import abc
from itertools import islice
from typing import Any, Iterable, Iterator, Sequence, Union

import numpy as np
import numpy.typing as npt

from tilelab.inputs import is_int, short_repr

__all__ = [
    "BLANK",
    "MIN_SIZE",
    "MAX_SIZE",
    "DEFAULT_SIZE",
    "DEFAULT_TARGET",
    "DEFAULT_P_FOUR",
    "SMALL_TILE",
    "BIG_TILE",
    "MAX_TILE",
    "START_TILES",
    "JSON_FORMAT",
    "JSON_VERSION",
    "Cell",
    "Direction",
    "DirectionLike",
    "Board",
    "BoardLike",
    "as_board",
    "check_p_four",
    "check_size",
    "check_tile",
]


BLANK = 0  #: the value of an empty cell
MIN_SIZE = 2  #: smallest board side
MAX_SIZE = 8  #: largest board side
DEFAULT_SIZE = 4
DEFAULT_TARGET = 2048
DEFAULT_P_FOUR = 0.1  #: the original game spawns a 4 one time in ten
SMALL_TILE, BIG_TILE = 2, 4  #: the two tiles a spawn can place
#: The largest tile a board holds: two of them do not merge (their sum would not fit the 64-bit integers of
#: ``to_array`` and numpy). Far past play: the largest tile a board can reach is 2**(cells + 1), 131072 on 4x4.
MAX_TILE = 2**62
START_TILES = 2  #: tiles spawned when a game starts
JSON_FORMAT = "tilelab.game2048"
JSON_VERSION = 1

Cell = tuple[int, int]  #: (row, col), row 0 at the top, col 0 at the left


# --------------------------------------------------------------------------------------------
# Directions
# --------------------------------------------------------------------------------------------
_DIRECTION_WORDS = {
    "up": "UP", "↑": "UP", "north": "UP",
    "down": "DOWN", "↓": "DOWN", "south": "DOWN",
    "left": "LEFT", "←": "LEFT", "west": "LEFT",
    "right": "RIGHT", "→": "RIGHT", "east": "RIGHT",
}


class Direction(enum.Enum):
    """The four swipes. ``Direction("left")``, ``Direction("Left")`` and ``Direction.LEFT`` agree.

    >>> Direction("left"), Direction("Up"), Direction.parse("→")
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
            word = value.strip().lower()
            name = _DIRECTION_WORDS.get(word)
            if name is not None:
                return cls[name]
        return None

    @classmethod
    def parse(cls, value: "Direction | str") -> "Direction":
        """Return the direction named by ``value`` (a Direction, or a word such as "left" or an arrow "←")."""
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
                "(or arrows ↑↓←→, north/south/west/east, or Direction.UP ...); "
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
def check_tile(value: object, where: str) -> int:
    """``value`` as a tile (0 or a power of two >= 2, at most MAX_TILE), or an error naming ``where``."""
    if not is_int(value):
        raise TypeError(
            f"tile {value!r} at {where} is a {type(value).__name__}, not an int; "
            "tiles are 0 (blank) or powers of two such as 2, 4, 8"
        )
    tile: int = int(value)
    if tile != BLANK and (tile < SMALL_TILE or tile & (tile - 1)):
        raise ValueError(
            f"tile {short_repr(tile)} at {where} is not a 2048 tile; use 0 for a blank or a power of two >= 2"
        )
    if tile > MAX_TILE:
        raise ValueError(f"tile 2**{tile.bit_length() - 1} at {where} is past MAX_TILE = 2**62, the largest tile a board holds")
    return tile


_TILES = frozenset([BLANK] + [1 << k for k in range(1, MAX_TILE.bit_length())])  #: every value a cell may hold


def check_p_four(p_four: object) -> float:
    """``p_four`` as a probability in [0, 1]; the one check every 2048 engine (readable or bitboard) uses."""
    if not isinstance(p_four, numbers.Real) or isinstance(p_four, bool):
        raise TypeError(f"p_four must be a number between 0 and 1, got {type(p_four).__name__}")
    p = float(p_four)
    if not 0.0 <= p <= 1.0:  # also rejects NaN
        raise ValueError(f"p_four={p_four!r} is not a probability; pass a number in [0, 1], e.g. 0.1")
    return p


def check_size(size: object) -> int:
    """``size`` as a board side from MIN_SIZE to MAX_SIZE, or an error saying which sides exist."""
    if not is_int(size):
        raise TypeError(f"size must be an int from {MIN_SIZE} to {MAX_SIZE}, got {type(size).__name__}")
    if not MIN_SIZE <= int(size) <= MAX_SIZE:
        raise ValueError(f"size={size} is out of range; pick a board side from {MIN_SIZE} to {MAX_SIZE}")
    checked: int = int(size)
    return checked


# --------------------------------------------------------------------------------------------
# Board
# --------------------------------------------------------------------------------------------
class Board:
    """An immutable, hashable square 2048 board made from its ``grid``, rows of tiles (0 = blank).

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

    def __init__(self, grid: "Board | Iterable[Iterable[int]] | None" = None) -> None:
        if grid is None:
            raise TypeError("Board expects a sequence of rows (lists of ints) as its grid, got None; "
                            "Board.empty(4) makes a blank board")
        rows = grid
        if isinstance(rows, Board):
            self._rows: tuple[tuple[int, ...], ...] = rows._rows
            self._hash: int | None = rows._hash
            return
        if isinstance(rows, np.ndarray):
            rows = rows[:MAX_SIZE + 1].tolist()  # never copy more than one row too many
        if type(rows) not in (list, tuple) and (isinstance(rows, (str, bytes)) or not isinstance(rows, abc.Iterable)):
            raise TypeError(
                f"Board expects a sequence of rows (lists of ints), got {type(rows).__name__}; "
                "to read a text picture use Board.parse(text)"
            )
        lines = list(islice(rows, MAX_SIZE + 1))  # an endless iterable: read no further
        size = len(lines)
        if not MIN_SIZE <= size <= MAX_SIZE:
            got = f"more than {MAX_SIZE}" if size > MAX_SIZE else size
            raise ValueError(
                f"a board needs {MIN_SIZE} to {MAX_SIZE} rows, got {got}; pass a square grid such as 4 rows of 4"
            )
        checked = []
        for r, row in enumerate(lines):
            if type(row) not in (list, tuple) and (isinstance(row, (str, bytes)) or not isinstance(row, abc.Iterable)):
                raise TypeError(f"row {r} is a {type(row).__name__}, not a sequence of ints")
            cells = list(islice(row, size + 1))
            if len(cells) != size:
                raise ValueError(
                    f"row {r} has {'more' if len(cells) > size else len(cells)} cells but the board has {size} rows; "
                    "boards are square: give every row exactly as many cells as there are rows"
                )
            if all(type(v) is int and v in _TILES for v in cells):  # the common case, at C speed
                checked.append(tuple(cells))
            else:
                checked.append(tuple(check_tile(v, f"row {r}, col {c}") for c, v in enumerate(cells)))
        self._rows = tuple(checked)
        self._hash = None

    @classmethod
    def trusted(cls, rows: tuple[tuple[int, ...], ...]) -> "Board":
        """A board around rows already known to be valid (a square of tuples of tiles), checked no further: the
        engines' fast way in. For anything a person typed, use ``Board(rows)``.

        >>> Board.trusted(((2, 0), (0, 4))) == Board([[2, 0], [0, 4]])
        True
        """
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
        size = check_size(size)
        return cls.trusted(((BLANK,) * size,) * size)

    @classmethod
    def parse(cls, text: str) -> "Board":
        """Read a text picture: one line per row, tiles separated by spaces, ``.`` (or 0, _) blank.

        Bars (``|2| |4|``-style) are ignored as separators, blank lines are skipped.

        >>> Board.parse('''
        ...     . 2
        ...     4 .
        ... ''').grid
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
                        f"cannot read {short_repr(token)} in line {short_repr(line.strip())}; write tiles as numbers with the "
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
        a = a[:MAX_SIZE + 1, :MAX_SIZE + 1]  # a larger array is refused by its first rows and columns
        if a.dtype.kind not in "iu":
            if a.dtype.kind == "f" and np.all(np.mod(a, 1) == 0):  # whole numbers (NaN and inf are not)
                return cls([[int(v) for v in row] for row in a.tolist()])  # exact: 2.0**70 is 2**70, not wrapped
            raise TypeError(f"expected an integer array, got dtype {a.dtype}")
        return cls(a.tolist())

    @property
    def grid(self) -> tuple[tuple[int, ...], ...]:
        """The board's contents as a tuple of rows (0 = blank): the word all three games use.

        >>> Board.parse("2 .\\n. 4").grid
        ((2, 0), (0, 4))
        """
        return self._rows

    @property
    def size(self) -> int:
        """The side of the square board."""
        return len(self._rows)

    def __getitem__(self, cell: Cell) -> int:
        try:
            r, c = cell
        except (TypeError, ValueError):
            raise TypeError(f"index a board with a cell (row, col), e.g. board[0, 1], not {short_repr(cell)}") from None
        n = len(self._rows)
        if not (is_int(r) and is_int(c)):
            raise TypeError(f"a cell is two ints (row, col), got {short_repr(cell)}")
        if not (0 <= r < n and 0 <= c < n):  # no wrapping: board[-1, 0] is off the board like board[n, 0]
            raise IndexError(f"cell {(int(r), int(c))} is off the {n}x{n} board: rows and columns are 0..{n - 1}")
        return self._rows[r][c]

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        """The rows, top first: ``for row in board`` reads the board as its grid does."""
        return iter(self._rows)

    def __array__(self, dtype: Any = None, copy: Any = None) -> npt.NDArray[Any]:
        """``np.asarray(board)``: the tiles as a fresh array (``int64`` unless ``dtype`` says otherwise)."""
        return np.array(self._rows, dtype=np.int64 if dtype is None else dtype)

    def to_array(self) -> npt.NDArray[Any]:
        """The tiles as a fresh ``int64`` numpy array (a copy: the board stays immutable)."""
        return np.array(self._rows, dtype=np.int64)

    def cells(self) -> list[Cell]:
        """Every cell, row by row."""
        n = self.size
        return [(r, c) for r in range(n) for c in range(n)]

    def empty_cells(self) -> list[Cell]:
        """The blank cells, row by row (where a spawn may land)."""
        return [(r, c) for r, row in enumerate(self._rows) for c, v in enumerate(row) if v == BLANK]

    def tile_map(self) -> dict[Cell, int]:
        """``{cell: value}`` for every tile (every non-blank cell), as python-chess's ``piece_map()``.

        >>> Board.parse("2 .\\n. 4").tile_map()
        {(0, 0): 2, (1, 1): 4}
        """
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
            raise TypeError(f"cell must be a (row, col) pair, got {short_repr(cell)}") from None
        if not (is_int(r) and is_int(c)):
            raise TypeError(f"cell must be a (row, col) pair of ints, got {short_repr(cell)}")
        if not (0 <= r < self.size and 0 <= c < self.size):
            raise ValueError(f"cell {cell} is off the {self.size}x{self.size} board")
        value = check_tile(value, f"cell {cell}")
        rows = list(self._rows)
        row = list(rows[r])
        row[c] = value
        rows[r] = tuple(row)
        return Board.trusted(tuple(rows))

    def transpose(self) -> "Board":
        """Rows become columns (swaps UP with LEFT and DOWN with RIGHT)."""
        return Board.trusted(tuple(zip(*self._rows)))

    def mirror(self) -> "Board":
        """Left and right swapped (swaps LEFT with RIGHT)."""
        return Board.trusted(tuple(row[::-1] for row in self._rows))

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

    def __reduce__(self) -> tuple[type[Board], tuple[tuple[tuple[int, ...], ...]]]:
        return (Board, (self._rows,))

    def _repr_html_(self) -> str:
        """A notebook shows a bare ``board`` as a small grid in the classic colours."""
        from tilelab.game2048.palette import BOARD_COLOR, tile_style  # only when a board is drawn

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


BoardLike = Union[Board, Sequence[Sequence[int]], npt.NDArray[Any]]


def as_board(board: BoardLike) -> Board:
    """``board`` itself if it is a Board, else a Board built (and checked) from its rows."""
    return board if isinstance(board, Board) else Board(board)
