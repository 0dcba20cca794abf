"""2048 rules: one row slides and merges, the whole board moves, legal moves and game over.

Part of the readable engine (:mod:`tilelab.game2048` is its public face).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import islice
from typing import Any, Iterable, NamedTuple, Sequence

from tilelab.game2048.board import (
    BLANK, MAX_SIZE, MAX_TILE, Board, BoardLike, Cell, Direction, DirectionLike, as_board, check_size, check_tile,
)

__all__ = [
    "TileMove",
    "SlideResult",
    "slide_row",
    "line_cells",
    "MoveResult",
    "play",
    "play_parsed",
    "legal_moves",
    "is_over",
]


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
        moved: bool = self.source != self.destination  # source and destination are typed Any
        return moved


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
    orders: list[list[Any]] = []  # [source, destination, value, merged] per tile
    score = 0
    can_merge = False  # may the next tile merge into values[-1]?
    last = None  # the order of the tile now at values[-1]
    for source, value in enumerate(row):
        if value == BLANK:
            continue
        if can_merge and values[-1] == value and value < MAX_TILE:  # two MAX_TILE tiles stay apart
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


#: The memos below hold board lines only (at most MAX_SIZE cells), so a line costs at most about 3 KB in
#: both memos together (8 cells of the largest tiles, each with its move: 2.9 KB measured on Python 3.10,
#: less on newer Pythons); CACHED_LINES of them stay under 64 MB.
CACHED_LINES = 1 << 14
#: The longest row :func:`slide_row` slides (a board's rows have at most MAX_SIZE cells); an endless
#: iterable is refused after reading one cell more.
MAX_ROW = 1 << 16

#: slide_row's memo of board lines: the one-pass slide of a checked row (``slide_memo.__wrapped__``), remembered
slide_memo = lru_cache(maxsize=CACHED_LINES)(_slide)


def slide_row(row: Sequence[int]) -> SlideResult:
    """Slide one row toward index 0, merging equal pairs once, nearest pair first (two MAX_TILE tiles do not merge).

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
    checked = tuple(check_tile(v, f"index {i}") for i, v in enumerate(islice(row, MAX_ROW + 1)))
    if not checked:
        raise ValueError("slide_row needs at least one cell; pass e.g. [2, 2, 0, 0]")
    if len(checked) > MAX_ROW:
        raise ValueError(f"slide_row slides rows of at most MAX_ROW={MAX_ROW:,} cells (a board's have at most "
                         f"{MAX_SIZE}); this one is longer")
    return slide_memo(checked) if len(checked) <= MAX_SIZE else _slide(checked)  # long rows are not memoised


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
    return _line_cells(check_size(size), Direction.parse(direction))


class MoveResult(NamedTuple):
    """What :func:`play` did: new board, score gained, every tile's move (board cells), changed."""

    board: Board
    score: int
    moves: tuple[TileMove, ...]
    changed: bool
    direction: Direction


def play(board: BoardLike, direction: DirectionLike) -> MoveResult:
    """Play one swipe on a board: every tile slides, pairs merge (no spawn: that is a separate chance step).

    The engine-level move of 2048, the same shape as ``tilelab.sliding.play`` and ``tilelab.match3.play``.

    >>> b = Board.parse('''
    ...     2 2 2 .
    ...     . 4 . 4
    ...     . . . .
    ...     8 . 8 2
    ... ''')
    >>> r = play(b, "left")
    >>> print(r.board)
     4  2  .  .
     8  .  .  .
     .  .  .  .
    16  2  .  .
    >>> r.score, r.changed
    (28, True)
    >>> play(r.board, "left").changed
    False
    """
    return play_parsed(as_board(board), Direction.parse(direction))


def play_parsed(board: Board, direction: Direction) -> MoveResult:
    """:func:`play` on input already checked where it came in: a :class:`Board` and a :class:`Direction`.

    ``play`` checks and parses, then calls this; a :class:`~tilelab.game2048.game.Game` calls it on its own board
    with the direction it parsed once. Nothing is checked again here.
    """
    rows = board.grid
    n = len(rows)
    code = _DIRECTION_CODE[direction]
    lines = _lines_toward(rows, code)
    results = [line_result(n, code, i, line) for i, line in enumerate(lines)]
    slid = [r.values for r in results]
    if code == _RIGHT or code == _DOWN:
        slid = [v[::-1] for v in slid]
    new_rows = tuple(zip(*slid)) if code == _UP or code == _DOWN else tuple(slid)
    moves = tuple(m for r in results for m in r.moves)
    score = sum(r.score for r in results)
    changed = any(r.changed for r in results)
    return MoveResult(Board.trusted(new_rows), score, moves, changed, direction)


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


@lru_cache(maxsize=CACHED_LINES)
def line_result(size: int, code: int, index: int, values: tuple[int, ...]) -> _LineResult:
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
        if seen_blank or (v == prev and v < MAX_TILE):
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
    rows = as_board(board).grid
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
    rows = as_board(board).grid
    n = len(rows)
    if any(BLANK in row for row in rows):
        # some tile can slide into a blank -- unless there is no tile at all
        return all(v == BLANK for row in rows for v in row)
    for r in range(n):
        for c in range(n):
            v = rows[r][c]
            if v < MAX_TILE and ((c + 1 < n and rows[r][c + 1] == v) or (r + 1 < n and rows[r + 1][c] == v)):
                return False
    return True
