"""Moves as data: :func:`play` one move and get a :class:`Slide`; count moves in both metrics.

``play(board, move)`` is the engine-level name for a slide in tilelab's one vocabulary (as
``game2048.play`` and ``match3.play``): ``move`` is a tile number (that tile and the tiles
between it and the blank slide) or a direction (``"up"`` moves the tile below the blank up).
The result says what happened: the touched tile, the direction, every tile that moved, from
which cell to which, and the boards before and after. :mod:`tilelab.sliding` is the public
face (``tilelab.sliding.play is tilelab.sliding.moves.play``).

(``Board.play_all(tiles)`` is another thing: it slides a whole list of tiles, e.g. a solver's
answer, and returns only the final board.)

>>> from tilelab.sliding.core import Board
>>> before = Board.parse('''
... 1 2 3
... 4 . 6
... 7 5 8''')
>>> step = play(before, 5)            # a tile number ...
>>> print(step.after)
1 2 3
4 5 6
7 . 8
>>> step.direction, step.tiles, step.cells_from, step.cells_to
('up', (5,), ((2, 1),), ((1, 1),))
>>> print(play(step.after, "left").after)   # ... or a direction
1 2 3
4 5 6
7 8 .
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Iterable, TypeAlias, Union

from tilelab.inputs import short_repr
from tilelab.sliding.core import DIRECTIONS, Cell, Board, require_board

__all__ = ["Move", "MoveCount", "Slide", "count_moves", "legal_moves", "parse_move", "play"]

#: A move: a tile number (int) or a direction ("up", "down", "left", "right": the way the tiles move).
Move: TypeAlias = Union[int, str]


@dataclass(frozen=True)
class Slide:
    """What one slide did: the touched tile, the direction, and every tile that moved.

    ``tiles`` lists the moved tiles nearest the blank first, which is also the order of the
    equivalent single-tile moves; ``single_moves`` counts them (the multi-tile metric counts 1).
    """

    tile: int
    direction: str
    tiles: tuple[int, ...]
    cells_from: tuple[Cell, ...]
    cells_to: tuple[Cell, ...]
    before: Board
    after: Board

    @property
    def single_moves(self) -> int:
        return len(self.tiles)

    @property
    def multi_moves(self) -> int:
        return 1


@dataclass(frozen=True)
class MoveCount:
    """A move count in both metrics."""

    single: int  # one tile by one cell
    multi: int  # one line, one direction: consecutive slides that way count once (see count_moves)

    def after(self, tiles_moved: int, direction: str, last: str | None) -> MoveCount:
        """The count after one more slide: its tiles add to ``single``; a slide in a new direction (not ``last``'s)
        starts a new multi-tile move. The one place the rule is written (count_moves and every Game use it).

        >>> MoveCount(2, 1).after(1, "left", "left"), MoveCount(2, 1).after(3, "up", "left")
        (MoveCount(single=3, multi=1), MoveCount(single=5, multi=2))
        """
        return MoveCount(self.single + tiles_moved, self.multi + (direction != last))


def legal_moves(board: Board) -> tuple[int, ...]:
    """The tiles that may slide on ``board`` (the name all three engines share; also ``Board.legal_moves``).

    >>> legal_moves(Board.parse('1 2 3\\n4 . 5\\n6 7 8'))
    (2, 4, 5, 7)
    """
    if not isinstance(board, Board):
        raise TypeError(f"legal_moves needs a Board, got {type(board).__name__}; use Board.parse(...) or Board(...)")
    return board.legal_moves()


def count_moves(board: Board, tiles: Iterable[int]) -> MoveCount:
    """Count the slides ``tiles`` (played from ``board``) in both metrics.

    ``single``: tiles moved one cell each. ``multi``: multi-tile moves, where one move slides one
    or more tiles of one line in one direction. Consecutive slides in the same direction lie on
    the same line (the blank keeps going the opposite way), so they merge into one multi-tile
    move: touching the farther tile at once does the same. ``multi`` is therefore the number of
    runs of equal direction, the fewest multi-tile moves that play these single moves.

    >>> count_moves(Board.goal(3, 3), [6, 3, 2, 1])
    MoveCount(single=4, multi=2)
    >>> count_moves(Board.goal(3, 3), [3])
    MoveCount(single=2, multi=1)

    On 4x4: 13 (three tiles right), 9 (down), then 10 and 11 one after the other (both left, in
    row 2: the same as touching 11 at once) -- three multi-tile moves, six single ones:

    >>> count_moves(Board.goal(4, 4), [13, 9, 10, 11])
    MoveCount(single=6, multi=3)
    """
    board = require_board(board)
    if isinstance(tiles, (str, bytes)) or not isinstance(tiles, Iterable):
        raise TypeError(f"tiles must be a sequence of tile numbers, got {type(tiles).__name__}")
    count, last = MoveCount(0, 0), None
    for tile in tiles:
        event = play(board, tile)
        count, last, board = count.after(event.single_moves, event.direction, last), event.direction, event.after
    return count



def parse_move(board: Board, move: object) -> int | None:
    """The tile ``move`` slides: the tile itself, or the blank's neighbour that way (None at the edge).

    The one place a sliding move is read: :func:`play`, ``Game.play`` and the widget's keys all go
    through it. A word that is no direction, or a move of another type, is refused.

    >>> parse_move(Board.goal(3, 3), "down"), parse_move(Board.goal(3, 3), "up"), parse_move(Board.goal(3, 3), 6)
    (6, None, 6)
    """
    if isinstance(move, str):
        if move not in DIRECTIONS:
            raise ValueError(f"direction must be one of {list(DIRECTIONS)}, got {short_repr(move)}; or play a tile number")
        return board.tile_for(move)
    if isinstance(move, numbers.Integral) and not isinstance(move, bool):
        return int(move)
    raise TypeError(f"a move is a tile number (int) or a direction ('up', 'down', 'left', 'right'), "
                    f"got {short_repr(move)} ({type(move).__name__})")


def play(board: Board, move: Move) -> Slide:
    """Play one move and return what happened: a :class:`Slide` with the board before and after.

    ``move`` is a tile in the blank's row or column (it slides with the tiles between it and
    the blank: one multi-tile move) or a direction (the blank's neighbour that way slides, as
    an arrow key does). An illegal move is refused with a ValueError naming the legal ones.

    >>> before = Board.goal(3, 3)
    >>> print(before)
    1 2 3
    4 5 6
    7 8 .
    >>> s = play(before, 3)             # 3 and 6 slide down together
    >>> print(s.after)
    1 2 .
    4 5 3
    7 8 6
    >>> s.direction, s.tiles, s.single_moves, play(before, "right").tiles
    ('down', (6, 3), 2, (8,))
    """
    board = require_board(board)
    tile = parse_move(board, move)
    if tile is None:
        raise ValueError(
            f"no tile can move {move}: the blank at {board.blank} has no neighbour on that "
            f"side; legal directions are {list(board.legal_directions())}"
        )
    direction, cells = board.slide_line(tile)
    after = board.slide(tile)
    cols = board.cols
    moved = tuple(board.tiles[cell] for cell in cells)
    frm = tuple(divmod(cell, cols) for cell in cells)
    dr, dc = DIRECTIONS[direction]
    to = tuple((r - dr, c - dc) for r, c in frm)
    return Slide(tile, direction, moved, frm, to, board, after)
