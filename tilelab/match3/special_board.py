"""Special candies: their codes, names, score table and the immutable :class:`SpecialBoard`.

Part of the readable special-candy engine (:mod:`tilelab.match3.special_rules` states the rules;
:mod:`tilelab.match3` is its public face).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import islice
from typing import Any, Iterable

import numpy as np
import numpy.typing as npt

from tilelab.inputs import short_repr, is_int
from tilelab.match3.board import (
    check_kinds, check_rectangle, default_kinds, BOMB_CODE, Board, BoardBase, Cell, check_cell, EMPTY, MAX_SIDE,
    Move, neighbours, NO_COLOUR, read_picture, SHAPE_POINTS, SPECIAL_MARKS,
)

__all__ = [
    "check_special_swap",
    "NONE",
    "ROW",
    "COL",
    "WRAPPED",
    "PRIMED",
    "BOMB",
    "SPECIAL_NAMES",
    "SUFFIX",
    "BLAST_POINTS",
    "COMBOS",
    "ACTIVATION_BONUS",
    "SCORE_TABLE",
    "SpecialBoard",
    "specials_count",
]


# special codes (the fast path uses the same numbers)
NONE, ROW, COL, WRAPPED, PRIMED, BOMB = range(6)
SPECIAL_NAMES = {NONE: "plain", ROW: "striped-row", COL: "striped-col", WRAPPED: "wrapped",
                 PRIMED: "wrapped-primed", BOMB: "colour-bomb"}
SUFFIX = SPECIAL_MARKS  # the picture's mark after a kind, by special code (NO_COLOUR, BOMB_SYMBOL: the bomb's)
assert BOMB == BOMB_CODE and SUFFIX == {ROW: "-", COL: "|", WRAPPED: "+", PRIMED: "@"}
BLAST_POINTS = 60  # per candy a blast clears that no group cleared

# combination codes (index 1 only): what swapping two specials does
COMBOS = ("none", "striped+striped", "striped+wrapped", "wrapped+wrapped",
          "bomb+plain", "bomb+striped", "bomb+wrapped", "bomb+bomb")
ACTIVATION_BONUS = {
    "striped-row": 0, "striped-col": 0, "wrapped": 540, "wrapped-again": 0, "colour-bomb": 1200,
    "striped+striped": 0, "striped+wrapped": 540, "wrapped+wrapped": 1080,
    "bomb+plain": 1200, "bomb+striped": 1200, "bomb+wrapped": 1200, "bomb+bomb": 2400,
}
#: The whole scoring in one table: (what, points, multiplied by the cascade number?).
SCORE_TABLE = (
    ("match of three (line3)", SHAPE_POINTS["line3"], True),
    ("match of four (line4): makes a striped candy", SHAPE_POINTS["line4"], True),
    ("L, T or cross of five: makes a wrapped candy", SHAPE_POINTS["L"], True),
    ("line of five: makes a colour bomb", SHAPE_POINTS["line5"], True),
    ("each candy a blast clears (not already in a match)", BLAST_POINTS, False),
    ("wrapped candy goes off (first blast)", ACTIVATION_BONUS["wrapped"], False),
    ("colour bomb goes off (alone or with a plain candy)", ACTIVATION_BONUS["colour-bomb"], False),
    ("striped + wrapped swapped", ACTIVATION_BONUS["striped+wrapped"], False),
    ("wrapped + wrapped swapped", ACTIVATION_BONUS["wrapped+wrapped"], False),
    ("colour bomb + striped or wrapped swapped", ACTIVATION_BONUS["bomb+striped"], False),
    ("colour bomb + colour bomb swapped", ACTIVATION_BONUS["bomb+bomb"], False),
)


# ----------------------------------------------------------------------------- board


@dataclass(frozen=True, repr=False)
class SpecialBoard(BoardBase):
    """A match-3 board whose candies may be special: ``grid`` of kinds, ``specials`` of codes.

    Picture: the plain :class:`~tilelab.match3.board.Board`'s (one character per kind, 0-9 a-z),
    with an optional mark after a kind: ``-`` striped that clears its row, ``|`` striped that
    clears its column, ``+`` wrapped, ``@`` wrapped that went off once (primed); ``*`` is a colour
    bomb, ``.`` a hole. Spaces are ignored. Shape, cells and the picture come from
    :class:`~tilelab.match3.board.BoardBase`, shared with the plain board.

    >>> b = SpecialBoard.parse('''
    ... 0 1- 2
    ... 1| * 0+''')
    >>> b.special((0, 1)), b.special((1, 1)), b[1, 1], b[1, 2]
    ('striped-row', 'colour-bomb', -2, 0)
    >>> print(b)
    01-2
    1|*0+
    >>> SpecialBoard.parse(str(b)) == b, SpecialBoard.parse("012\\n120").special_cells()
    (True, {})
    """

    grid: tuple[tuple[int, ...], ...]
    specials: tuple[tuple[int, ...], ...]
    kinds: int

    def __post_init__(self) -> None:
        kinds = check_kinds(self.kinds)
        object.__setattr__(self, "kinds", kinds)
        grid = _int_rows(self.grid, "grid")
        specials = _int_rows(self.specials, "specials")
        check_rectangle(grid)
        if [len(r) for r in specials] != [len(r) for r in grid]:
            raise ValueError("grid and specials must be rectangles of the same size")
        for r, (krow, srow) in enumerate(zip(grid, specials)):
            for c, (k, s) in enumerate(zip(krow, srow)):
                _check_candy((r, c), (k, s), kinds)
        object.__setattr__(self, "grid", grid)
        object.__setattr__(self, "specials", specials)

    def _special_rows(self) -> tuple[tuple[int, ...], ...]:
        return self.specials

    def special_code(self, cell: Cell) -> int:
        return self.specials[cell[0]][cell[1]]

    def special(self, cell: Cell) -> str:
        """The special at ``cell`` by name ("plain" for none)."""
        return SPECIAL_NAMES[self.special_code(cell)]

    def special_cells(self) -> dict[Cell, str]:
        """Every special on the board: ``{cell: name}``."""
        return {cell: self.special(cell) for cell in self.cells() if self.special_code(cell) != NONE}

    def colours(self) -> Board:
        """The colours alone as a plain :class:`Board`; bombs and primed candies become holes.

        Every special board is checked when it is made (``SpecialBoard(...)`` checks each cell, ``with_cells``
        each changed one), so its colours are a valid plain grid: they go to :meth:`Board.trusted
        <tilelab.match3.board.Board.trusted>` rather than through a second check of every cell (``find_groups``
        asks for them at each cascade step).

        >>> print(SpecialBoard.parse("0 1- *\\n1@ 2 0").colours())
        01.
        .20
        """
        grid = tuple(tuple(k if s != BOMB and s != PRIMED else EMPTY for k, s in zip(kr, sr))
                     for kr, sr in zip(self.grid, self.specials))
        return Board.trusted(grid, self.kinds)

    def with_cells(self, changes: dict[Cell, tuple[int, int]]) -> "SpecialBoard":
        """A new board with some cells set to ``(kind, special)``; only the changed cells are checked.

        >>> print(SpecialBoard.parse("0 1 2\\n1 2 0").with_cells({(0, 0): (-2, BOMB), (1, 2): (0, WRAPPED)}))
        *12
        120+
        """
        grid = [list(row) for row in self.grid]
        spec = [list(row) for row in self.specials]
        checked: dict[tuple[int, int], tuple[int, int]] = {}  # a cascade sets many cells to the same few candies
        for cell, candy in changes.items():
            r, c = check_cell(self, cell)
            plain = type(candy) is tuple and all(type(v) is int for v in candy)  # hashable: checked once
            known = checked.get(candy) if plain else None
            if known is None:
                known = _check_candy((r, c), candy, self.kinds)
                if plain:
                    checked[candy] = known
            grid[r][c], spec[r][c] = known
        return SpecialBoard.trusted(tuple(map(tuple, grid)), tuple(map(tuple, spec)), self.kinds)

    @classmethod
    def trusted(cls, grid: tuple[tuple[int, ...], ...], specials: tuple[tuple[int, ...], ...],
                kinds: int) -> "SpecialBoard":
        """A special board around rows already known to be valid, checked no further (as :meth:`Board.trusted
        <tilelab.match3.board.Board.trusted>`): only for what a checked board or a tested kernel produced.

        >>> b = SpecialBoard.parse("0- 1 *\\n1 2 0")
        >>> SpecialBoard.trusted(b.grid, b.specials, b.kinds) == b
        True
        """
        board = object.__new__(cls)
        object.__setattr__(board, "grid", grid)
        object.__setattr__(board, "specials", specials)
        object.__setattr__(board, "kinds", kinds)
        return board

    def swapped(self, a: Cell, b: Cell) -> "SpecialBoard":
        """The board with the candies at ``a`` and ``b`` exchanged, specials and all (no rules applied).

        >>> print(SpecialBoard.parse("0- 1 *").swapped((0, 0), (0, 1)))
        10-*
        """
        (ra, ca), (rb, cb) = check_cell(self, a, "cell a"), check_cell(self, b, "cell b")
        grid, spec = [list(row) for row in self.grid], [list(row) for row in self.specials]
        grid[ra][ca], grid[rb][cb] = grid[rb][cb], grid[ra][ca]  # two candies of this board: nothing new to check
        spec[ra][ca], spec[rb][cb] = spec[rb][cb], spec[ra][ca]
        return SpecialBoard.trusted(tuple(map(tuple, grid)), tuple(map(tuple, spec)), self.kinds)

    @classmethod
    def parse(cls, picture: str, kinds: int | None = None) -> "SpecialBoard":
        """Read a picture (the plain board's format, marks allowed); ``kinds`` defaults to max(3, largest + 1)."""
        grid, specials = read_picture(picture, "SpecialBoard.parse")
        return cls(grid, specials, default_kinds(grid) if kinds is None else kinds)

    @classmethod
    def from_board(cls, board: Board) -> "SpecialBoard":
        """A plain board with no specials yet."""
        if not isinstance(board, Board):
            raise TypeError(f"expected a match3 Board, got {type(board).__name__}")
        return cls(board.grid, tuple((NONE,) * board.cols for _ in range(board.rows)), board.kinds)

    def to_arrays(self) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
        """``(kinds, specials)`` as two ``int8`` arrays (the fast path's representation)."""
        return np.array(self.grid, np.int8), np.array(self.specials, np.int8)

    @classmethod
    def from_arrays(cls, grid: npt.NDArray[Any], specials: npt.NDArray[Any], kinds: int) -> "SpecialBoard":
        return cls(tuple(map(tuple, np.asarray(grid).tolist())), tuple(map(tuple, np.asarray(specials).tolist())), kinds)


def _int_rows(rows: object, name: str) -> tuple[tuple[int, ...], ...]:
    """``rows`` as a tuple of tuples of ints; 0.7, "1", True and inf are refused (TypeError naming ``name``)."""
    if isinstance(rows, np.ndarray):
        rows = rows[:MAX_SIDE + 1].tolist()
    if isinstance(rows, (str, bytes)) or not isinstance(rows, Iterable):
        raise TypeError(f"{name} must be a sequence of rows of ints, got {type(rows).__name__}")
    out = []
    for r, row in enumerate(rows):
        if isinstance(row, (str, bytes)) or not isinstance(row, Iterable):
            raise TypeError(f"{name} row {r} must be a sequence of ints, got {type(row).__name__}")
        values = tuple(islice(row, MAX_SIDE + 1))  # an endless row is read no further: the size check refuses it
        for c, v in enumerate(values):
            if not is_int(v):
                raise TypeError(f"{name} cell {(r, c)} holds {short_repr(v)} ({type(v).__name__}): use ints")
        out.append(tuple(int(v) for v in values))
        if len(out) > MAX_SIDE:
            break  # the size check names the limit
    return tuple(out)


def _check_candy(cell: Cell, candy: object, kinds: int) -> tuple[int, int]:
    """``candy`` as the ``(kind, special code)`` pair a special board's ``cell`` may hold, or a ValueError."""
    if not (isinstance(candy, (tuple, list)) and len(candy) == 2 and is_int(candy[0]) and is_int(candy[1])):
        raise ValueError(f"cell {cell} cannot hold {short_repr(candy)}: give a (kind, special code) pair of ints")
    kind, special = int(candy[0]), int(candy[1])
    if special not in SPECIAL_NAMES:
        raise ValueError(f"cell {cell} has special code {special}: use 0..5 (NONE..BOMB)")
    if (special == BOMB) != (kind == NO_COLOUR):
        raise ValueError(f"cell {cell}: a colour bomb (special {BOMB}) and only it has kind {NO_COLOUR}")
    if kind != NO_COLOUR and not (0 <= kind < kinds or kind == EMPTY):
        raise ValueError(f"cell {cell} holds kind {kind}, outside 0..{kinds - 1}")
    if kind == EMPTY and special != NONE:
        raise ValueError(f"cell {cell} is a hole but has a special")
    return kind, special


def check_special_swap(board: SpecialBoard, a: object, b: object) -> Move:
    """``(a, b)`` as two neighbouring cells of a special board, or an error naming the problem."""
    if not isinstance(board, SpecialBoard):
        raise TypeError(f"expected a SpecialBoard, got {type(board).__name__}; wrap a Board with SpecialBoard.from_board")
    if not board.is_full:
        raise ValueError("the board has EMPTY cells: refill it first (a move needs a full board)")
    a, b = check_cell(board, a, "cell a"), check_cell(board, b, "cell b")
    if not neighbours(a, b):
        raise ValueError(f"cells {a} and {b} are not neighbours: swap two cells that share a side")
    return a, b



def specials_count(board: SpecialBoard) -> int:
    """How many special candies are on the board."""
    return sum(1 for row in board.specials for s in row if s != NONE)
