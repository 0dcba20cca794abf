"""The sliding-tile puzzle: an immutable board and its moves in both metrics.

What a board *is* lives here; moves as data (:func:`~tilelab.sliding.moves.play`, :class:`~tilelab.sliding.moves.Slide`)
live in :mod:`tilelab.sliding.moves`, parity and solvability in :mod:`tilelab.sliding.parity`, the SVG
picture in :mod:`tilelab.sliding.svg` (imported only when a board is drawn); :mod:`tilelab.sliding` is their
public face.

Glossary (the code uses these words):

- *tile*: a number 1..N-1 printed on a piece; ``0`` is the *blank* (the hole).
- *cell*: a place on the board, ``(row, col)`` counted from the top-left, 0-based.
- *slide*: tiles move into the blank. A *single-tile move* slides one tile next to the blank;
  a *multi-tile move* (as in the Swift PuzzleProject) slides one or more tiles of one row or
  column one cell in one direction: touch any tile in the blank's row or column and the whole
  segment between it and the blank moves. The multi-tile metric counts such moves; two slides
  in a row in the same direction (necessarily along the same line) are one multi-tile move,
  since touching the farther tile at once does the same.
- *goal*: ``1, 2, ..., N-1`` in reading order with the blank bottom-right.
- *inversion*: a pair of tiles (blank ignored) that appear in the wrong order when the board is
  read row by row.

Directions name the way the *tiles* move, like arrow keys in most apps: ``"up"`` moves the tile
*below* the blank up into it (so the blank goes down).

>>> p = Board.parse('''
... 1 2 3
... 4 . 6
... 7 5 8''')
>>> print(p.slide(5))
1 2 3
4 5 6
7 . 8
>>> p.slide(5).slide(8) == Board.goal(3, 3)
True
"""

from __future__ import annotations

import itertools
import numbers
from functools import lru_cache
from typing import Iterable, Iterator, Sequence

from tilelab.inputs import as_int, is_int, short_repr

__all__ = ["DIRECTIONS", "Board"]

Tile = int
Cell = tuple[int, int]

BLANK: Tile = 0
MIN_SIDE = 2
MAX_SIDE = 250  #: longest side a Board accepts
MAX_CELLS = 250 * 250  #: most cells a Board accepts: building, moving, shuffling and parity stay well under a second
BLANK_SYMBOLS = (".", "_", "0")
SVG_CELL_PX = 40

# Direction the tiles move -> (row step, col step) from the blank to the tile that moves.
# "up": the tile below the blank (row + 1) moves up.
DIRECTIONS: dict[str, Cell] = {
    "up": (1, 0),
    "down": (-1, 0),
    "left": (0, 1),
    "right": (0, -1),
}


def check_shape(rows: object, cols: object) -> tuple[int, int]:
    """``(rows, cols)`` as ints of a board tilelab accepts, or an error naming the side and the limit."""
    sides = [as_int(rows, "rows"), as_int(cols, "cols")]
    if min(sides) < MIN_SIDE:
        raise ValueError(
            f"a sliding puzzle needs at least {MIN_SIDE}x{MIN_SIDE} cells, got {rows}x{cols}; "
            "smaller boards cannot move anything interesting"
        )
    if max(sides) > MAX_SIDE or sides[0] * sides[1] > MAX_CELLS:
        raise ValueError(
            f"a {rows}x{cols} puzzle is past tilelab's limits: at most MAX_SIDE={MAX_SIDE} per side and "
            f"MAX_CELLS={MAX_CELLS:,} cells (250x250), so that every call ends within seconds"
        )
    return sides[0], sides[1]


@lru_cache(maxsize=64)
def _all_tiles(n: int) -> frozenset[int]:
    return frozenset(range(n))


def _check_tiles(tiles: Iterable[int], rows: int, cols: int) -> tuple[int, ...]:
    if isinstance(tiles, (str, bytes)) or not isinstance(tiles, Iterable):
        raise TypeError(f"tiles must be a sequence of integers 0..N-1 in reading order, got {type(tiles).__name__}")
    n = rows * cols
    values = tuple(itertools.islice(tiles, n + 1))  # never read more than one tile too many
    bad = next((t for t in values if not is_int(t)), None)
    if bad is not None:
        raise TypeError(f"tiles must be integers 0..N-1 in reading order, 0 for the blank; got {short_repr(bad)} "
                        f"({type(bad).__name__})")
    values = tuple(map(int, values))
    if len(values) == n and set(values) == _all_tiles(n):
        return values
    if len(values) != n:
        raise ValueError(
            f"a {rows}x{cols} puzzle has {n} cells but {'more' if len(values) > n else len(values)} tiles were given; "
            "list every cell row by row, 0 for the blank"
        )
    if sorted(values) != list(range(n)):
        seen: set[int] = set()
        duplicates = sorted({v for v in values if v in seen or seen.add(v)})  # type: ignore[func-returns-value]
        missing = sorted(set(range(n)) - set(values))
        outside = sorted(v for v in set(values) if not 0 <= v < n)
        parts = []
        if duplicates:
            parts.append(f"repeated {duplicates}")
        if missing:
            parts.append(f"missing {missing}")
        if outside:
            parts.append(f"out of range {outside}")
        raise ValueError(
            f"tiles must be a permutation of 0..{n - 1} (0 is the blank): " + ", ".join(parts)
        )
    return values


class Board:
    """An immutable, hashable sliding-puzzle board: ``tiles`` row by row, ``0`` is the blank.

    >>> p = Board((1, 2, 3, 0), 2, 2)
    >>> p.blank, p.legal_moves()
    ((1, 1), (2, 3))
    >>> print(p.slide(3))
    1 2
    . 3
    """

    __slots__ = ("_tiles", "_rows", "_cols", "_blank_index", "_hash")
    _tiles: tuple[int, ...]
    _rows: int
    _cols: int
    _blank_index: int
    _hash: int

    def __init__(self, tiles: Iterable[int], rows: int, cols: int) -> None:
        rows, cols = check_shape(rows, cols)
        values = _check_tiles(tiles, rows, cols)
        self._set(values, rows, cols, values.index(BLANK))

    def _set(self, tiles: tuple[int, ...], rows: int, cols: int, blank_index: int) -> None:
        object.__setattr__(self, "_tiles", tiles)
        object.__setattr__(self, "_rows", rows)
        object.__setattr__(self, "_cols", cols)
        object.__setattr__(self, "_blank_index", blank_index)
        object.__setattr__(self, "_hash", hash((tiles, rows, cols)))

    @classmethod
    def trusted(cls, tiles: tuple[int, ...], rows: int, cols: int, blank_index: int) -> Board:
        """A board around tiles already known to be a permutation with the blank at ``blank_index``, checked no
        further: the engines' fast way in. For anything a person typed, use ``Board(tiles, rows, cols)``.

        >>> Board.trusted((1, 2, 3, 0), 2, 2, 3) == Board.goal(2, 2)
        True
        """
        board = cls.__new__(cls)
        board._set(tiles, rows, cols, blank_index)
        return board

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Board is immutable: slide() returns a new board")

    # ----------------------------------------------------------------- construction
    @classmethod
    def goal(cls, rows: int, cols: int) -> Board:
        """The solved board: ``1..N-1`` in reading order, blank bottom-right.

        >>> print(Board.goal(2, 3))
        1 2 3
        4 5 .
        """
        rows, cols = check_shape(rows, cols)
        n = rows * cols
        return cls.trusted(tuple(range(1, n)) + (BLANK,), rows, cols, n - 1)

    @classmethod
    def parse(cls, text: str) -> Board:
        """Read a text picture: one line per row, tiles separated by spaces, ``.`` for the blank.

        ``_`` and ``0`` are accepted for the blank too; blank lines around the picture are ignored.

        >>> Board.parse('''
        ...  1  2
        ...  3  .''') == Board((1, 2, 3, 0), 2, 2)
        True
        """
        if not isinstance(text, str):
            raise TypeError(f"Board.parse expects a str picture (text), got {type(text).__name__}")
        lines = [line.split() for line in text.strip().splitlines() if line.strip()]
        if len(lines) > MAX_SIDE or any(len(line) > MAX_SIDE for line in lines):
            raise ValueError(f"the picture is larger than MAX_SIDE={MAX_SIDE} rows or columns")
        if not lines:
            raise ValueError("empty picture: write one line per row, e.g. '1 2\\n3 .'")
        widths = {len(line) for line in lines}
        if len(widths) != 1:
            raise ValueError(
                f"every row of the picture needs the same number of cells, got {sorted(widths)}"
            )
        tiles = []
        for token in (t for line in lines for t in line):
            if token in BLANK_SYMBOLS:
                tiles.append(BLANK)
            elif token.isascii() and token.isdigit():
                tiles.append(int(token))
            else:
                raise ValueError(f"cannot read {short_repr(token)}: use numbers written with 0-9 and '.' for the blank")
        return cls(tiles, len(lines), widths.pop())

    @classmethod
    def from_grid(cls, grid: Sequence[Sequence[int]]) -> Board:
        """Build from a list of rows, e.g. ``[[1, 2], [3, 0]]``.

        >>> Board.from_grid([[1, 2], [3, 0]]) == Board.goal(2, 2)
        True
        """
        if isinstance(grid, (str, bytes)) or not isinstance(grid, Sequence) or not all(
            isinstance(r, Sequence) and not isinstance(r, (str, bytes)) for r in grid
        ):
            raise TypeError(f"grid must be a list of rows of ints, e.g. [[1, 2], [3, 0]], got {short_repr(grid)}")
        rows = len(grid)
        widths = {len(r) for r in grid}
        if not widths:
            raise ValueError("grid is empty: give a list of rows, e.g. [[1, 2], [3, 0]]")
        if len(widths) != 1:
            raise ValueError(f"every row needs the same length, got {sorted(widths)}")
        return cls([t for r in grid for t in r], rows, widths.pop())

    # ----------------------------------------------------------------- plain values
    @property
    def tiles(self) -> tuple[int, ...]:
        """The tiles row by row (``0`` is the blank)."""
        return self._tiles

    @property
    def rows(self) -> int:
        return self._rows

    @property
    def cols(self) -> int:
        return self._cols

    @property
    def shape(self) -> tuple[int, int]:
        return (self._rows, self._cols)

    @property
    def cell_count(self) -> int:
        """Number of cells, ``rows * cols`` (the tiles and the blank).

        >>> Board.goal(3, 4).cell_count
        12
        """
        return self._rows * self._cols

    @property
    def blank(self) -> Cell:
        """The blank's cell ``(row, col)``."""
        return divmod(self._blank_index, self._cols)

    @property
    def blank_index(self) -> int:
        """The blank's position in ``tiles``."""
        return self._blank_index

    def at(self, row: int, col: int) -> int:
        """The tile in cell ``(row, col)`` (``0`` for the blank)."""
        if not (0 <= row < self._rows and 0 <= col < self._cols):
            raise ValueError(f"cell ({row}, {col}) is off the {self._rows}x{self._cols} board")
        return self._tiles[row * self._cols + col]

    def position(self, tile: int) -> Cell:
        """The cell ``(row, col)`` where ``tile`` is.

        >>> Board.goal(3, 3).position(6)
        (1, 2)
        """
        if isinstance(tile, bool) or not isinstance(tile, numbers.Integral):
            raise TypeError(f"a tile is an int 1..{self.cell_count - 1}, got {tile!r} ({type(tile).__name__})")
        try:
            return divmod(self._tiles.index(tile), self._cols)
        except ValueError:
            raise ValueError(f"there is no tile {tile!r} on a {self._rows}x{self._cols} board") from None

    @property
    def grid(self) -> tuple[tuple[int, ...], ...]:
        """The tiles as a tuple of rows (0 = blank), as ``grid`` is in every game.

        >>> Board.goal(2, 3).grid
        ((1, 2, 3), (4, 5, 0))
        """
        c = self._cols
        return tuple(self._tiles[r * c : (r + 1) * c] for r in range(self._rows))

    def is_goal(self) -> bool:
        """True when the board is solved."""
        n = self.cell_count
        return self._blank_index == n - 1 and all(t == i + 1 for i, t in enumerate(self._tiles[:-1]))

    # ----------------------------------------------------------------- moves
    def legal_moves(self) -> tuple[int, ...]:
        """Tiles that may slide (multi-tile metric): every tile in the blank's row or column.

        Listed in reading order. (The one name for legal moves across the three engines.)

        >>> Board.parse('1 2 3\\n4 . 5\\n6 7 8').legal_moves()
        (2, 4, 5, 7)
        >>> Board.goal(3, 3).legal_moves()
        (3, 6, 7, 8)
        """
        br, bc = self.blank
        c = self._cols
        return tuple(
            t
            for i, t in enumerate(self._tiles)
            if t != BLANK and (i // c == br or i % c == bc)
        )

    def neighbour_tiles(self) -> tuple[int, ...]:
        """Tiles next to the blank (the single-tile moves), in reading order.

        >>> Board.goal(3, 3).neighbour_tiles()
        (6, 8)
        """
        return tuple(t for t, _ in self.neighbours())

    def neighbours(self) -> Iterator[tuple[int, Board]]:
        """Yield ``(tile, board after sliding it)`` for every single-tile move, reading order.

        >>> [t for t, _ in Board.parse('1 2 3\\n4 . 5\\n6 7 8').neighbours()]
        [2, 4, 5, 7]
        """
        b = self._blank_index
        r, c = divmod(b, self._cols)
        tiles = self._tiles
        for cell, ok in (
            (b - self._cols, r > 0),
            (b - 1, c > 0),
            (b + 1, c < self._cols - 1),
            (b + self._cols, r < self._rows - 1),
        ):
            if ok:
                moved = list(tiles)
                moved[b], moved[cell] = moved[cell], BLANK
                yield tiles[cell], Board.trusted(tuple(moved), self._rows, self._cols, cell)

    def successors(self, metric: str = "single") -> Iterator[tuple[int, Board]]:
        """Yield ``(tile, board)`` for each move in the ``"single"`` or ``"multi"`` tile metric."""
        if metric == "single":
            yield from self.neighbours()
        elif metric == "multi":
            for tile in self.legal_moves():
                yield tile, self.slide(tile)
        else:
            raise ValueError(f"metric must be 'single' or 'multi', got {metric!r}")

    def slide_line(self, tile: int) -> tuple[str, tuple[int, ...]]:
        """The direction touching ``tile`` moves tiles, and their cells (indices in reading order) from the blank's
        neighbour to ``tile``.

        >>> Board.parse("1 2 3\\n4 5 6\\n7 8 .").slide_line(3)
        ('down', (5, 2))
        """
        if tile == BLANK:
            raise ValueError("the blank cannot slide; pick a tile in the blank's row or column")
        tr, tc = self.position(tile)
        br, bc = self.blank
        if tr != br and tc != bc:
            raise ValueError(
                f"tile {tile} at {(tr, tc)} is not in the blank's row or column (blank at "
                f"{(br, bc)}); legal tiles are {list(self.legal_moves())}"
            )
        if tr == br:
            step = 1 if tc > bc else -1
            direction = "left" if step == 1 else "right"
            cells = tuple(br * self._cols + bc + k * step for k in range(1, abs(tc - bc) + 1))
        else:
            step = 1 if tr > br else -1
            direction = "up" if step == 1 else "down"
            cells = tuple((br + k * step) * self._cols + bc for k in range(1, abs(tr - br) + 1))
        return direction, cells

    def slide(self, tile: int) -> Board:
        """Slide ``tile`` (in the blank's row or column) and the tiles between it and the blank.

        >>> p = Board.goal(3, 3)
        >>> print(p.slide(7))
        1 2 3
        4 5 6
        . 7 8
        """
        direction, cells = self.slide_line(tile)
        moved = list(self._tiles)
        previous = self._blank_index
        for cell in cells:
            moved[previous] = moved[cell]
            previous = cell
        moved[previous] = BLANK
        return Board.trusted(tuple(moved), self._rows, self._cols, previous)

    def tile_for(self, direction: str) -> int | None:
        """The tile that ``play(board, direction)`` would slide, or ``None`` at the edge.

        >>> Board.goal(3, 3).tile_for("right"), Board.goal(3, 3).tile_for("left")
        (8, None)
        """
        if direction not in DIRECTIONS:
            raise ValueError(f"direction must be one of {list(DIRECTIONS)}, got {direction!r}")
        dr, dc = DIRECTIONS[direction]
        br, bc = self.blank
        r, c = br + dr, bc + dc
        if 0 <= r < self._rows and 0 <= c < self._cols:
            return self._tiles[r * self._cols + c]
        return None

    def legal_directions(self) -> tuple[str, ...]:
        """Directions in which some tile can move (arrow-key moves)."""
        return tuple(d for d in DIRECTIONS if self.tile_for(d) is not None)

    def swap_tiles(self, a: int, b: int) -> Board:
        """Swap two tiles by hand (not a legal move: it flips the parity, as apps with a bug do).

        >>> print(Board.goal(2, 2).swap_tiles(1, 2))
        2 1
        3 .
        """
        if a == b:
            raise ValueError("swap two different tiles")
        if BLANK in (a, b):
            raise ValueError("swap_tiles swaps two numbered tiles, not the blank")
        (ra, ca), (rb, cb) = self.position(a), self.position(b)
        ia, ib = ra * self._cols + ca, rb * self._cols + cb
        moved = list(self._tiles)
        moved[ia], moved[ib] = moved[ib], moved[ia]
        return Board.trusted(tuple(moved), self._rows, self._cols, moved.index(BLANK))

    def play_all(self, tiles: Iterable[int]) -> Board:
        """Slide each tile of ``tiles`` in turn (e.g. a solver's answer) and return the board.

        (``play`` is one move everywhere in tilelab; ``play_all`` a sequence.)

        >>> Board.goal(2, 2).play_all([3, 1]) == Board.parse(". 2\\n1 3")
        True
        """
        board = self
        for tile in tiles:
            board = board.slide(tile)
        return board

    # ----------------------------------------------------------------- dunder
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (
            self._hash == other._hash
            and self._tiles == other._tiles
            and self._rows == other._rows
            and self._cols == other._cols
        )

    def __hash__(self) -> int:
        return self._hash

    def __lt__(self, other: Board) -> bool:  # so heaps of (cost, board) never fail on ties
        return (self._rows, self._cols, self._tiles) < (other._rows, other._cols, other._tiles)

    def __repr__(self) -> str:
        return f"Board({self._tiles!r}, {self._rows}, {self._cols})"

    def __str__(self) -> str:
        width = len(str(self.cell_count - 1))
        return "\n".join(
            " ".join(("." if t == BLANK else str(t)).rjust(width) for t in row) for row in self.grid
        )

    def to_svg(self, cell: int = SVG_CELL_PX) -> str:
        """The board as a small SVG picture (a bare board in a notebook cell draws itself with it).

        >>> Board.goal(2, 2).to_svg().count("<text")
        3
        """
        from tilelab.sliding.svg import board_svg  # rendering is loaded only when a board is drawn

        return board_svg(self._tiles, self._rows, self._cols, cell)

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def __reduce__(self) -> tuple[type[Board], tuple[tuple[int, ...], int, int]]:
        return (Board, (self._tiles, self._rows, self._cols))


def require_board(board: object) -> Board:
    """``board`` itself if it is a Board, else a TypeError saying how to build one."""
    if not isinstance(board, Board):
        raise TypeError(f"expected a Board, got {type(board).__name__}; build one with Board(tiles, rows, cols)")
    return board
