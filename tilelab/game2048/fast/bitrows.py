"""The 64-bit 2048 board's layout and compiled moves: constants, transpose, the row tables, apply_move.

Part of the fast engine: :mod:`tilelab.game2048.fast.bitboard` (whose docstring explains the layout)
builds the checked Python API on these compiled primitives; :mod:`tilelab.game2048.fast.kernels` searches with them.

>>> t = row_tables()
>>> new, gained = apply_move(U64(0x211), LEFT, t.left, t.right, t.score)  # row 0: exponents 1 1 2 0, tiles 2 2 4 .
>>> hex(int(new)), int(gained)                                           # 4 4 . .: exponents 2 2 0 0
('0x22', 4)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Union, overload

import numpy as np
import numpy.typing as npt

from tilelab.jit import njit
from tilelab.game2048.chance import SPAWN_TILES, tile_probability

__all__ = [
    "Bitboard",
    "SIZE",
    "CELLS",
    "CELL_BITS",
    "ROW_BITS",
    "ROW_VALUES",
    "CELL_MASK",
    "ROW_MASK",
    "MAX_EXPONENT",
    "MAX_TILE",
    "OVERFLOW",
    "UP",
    "DOWN",
    "LEFT",
    "RIGHT",
    "DIRECTION_CODES",
    "DIRECTION_NAMES",
    "SPAWN_TWO",
    "SPAWN_FOUR",
    "spawn_probability",
    "check_bits",
    "transpose",
    "RowTables",
    "row_tables",
    "U64",
    "apply_move",
    "count_empty",
    "max_exponent",
    "transpose_bits",
]


Bitboard = int  # 64 bits: 16 cells x 4-bit tile exponents
#: A bitboard as the kernels take and give it: numpy uint64, or a Python int (what numba hands back).
Bits = Union[int, np.uint64]
#: Points as a kernel gives them: an int, or a numpy int64 read from a score table (run as plain Python).
Points = Union[int, np.int64]
U64Array = npt.NDArray[np.uint64]  #: bitboards, or a row table (uint64[65536])
I64Array = npt.NDArray[np.int64]  #: a score table (int64[65536]), or per-game counts

SIZE = 4
CELLS = SIZE * SIZE
CELL_BITS = 4
ROW_BITS = SIZE * CELL_BITS
ROW_VALUES = 1 << ROW_BITS  # 65,536 possible rows
CELL_MASK = (1 << CELL_BITS) - 1
ROW_MASK = ROW_VALUES - 1
MAX_EXPONENT = CELL_MASK  # 15
MAX_TILE = 1 << MAX_EXPONENT  # 32768
OVERFLOW = -1  # score-table marker: this slide would merge two 32768 tiles into a 65536

# Direction codes used inside the fast engine (the readable engine uses the Direction enum).
UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3
DIRECTION_CODES = {"UP": UP, "DOWN": DOWN, "LEFT": LEFT, "RIGHT": RIGHT}
DIRECTION_NAMES = ("UP", "DOWN", "LEFT", "RIGHT")

SPAWN_TWO, SPAWN_FOUR = (tile.bit_length() - 1 for tile in SPAWN_TILES)  # the spawn rule's two tiles as exponents
#: The spawn rule's odds (:func:`tilelab.game2048.chance.tile_probability`), compiled: ``spawn_probability(kind, p_four)``.
spawn_probability = njit(tile_probability)


def cell_mask(keep: Callable[[int, int], bool]) -> int:
    """A 64-bit mask of the nibbles whose (row, col) satisfy ``keep``."""
    mask = 0
    for index in range(CELLS):
        if keep(index // SIZE, index % SIZE):
            mask |= CELL_MASK << (CELL_BITS * index)
    return mask


# Transposition swaps (r, c) <-> (c, r) in two rounds of 2x2 block swaps: first single cells inside
# each 2x2 block (the low bits of r and c trade places), then whole 2x2 blocks (the high bits trade).
# A cell moving from (r, c) to (r + k, c - k) moves by 3k nibbles.
U64 = np.uint64
KEEP_1 = U64(cell_mask(lambda r, c: (r & 1) == (c & 1)))
RISE_1 = U64(cell_mask(lambda r, c: (r & 1) == 0 and (c & 1) == 1))
FALL_1 = U64(cell_mask(lambda r, c: (r & 1) == 1 and (c & 1) == 0))
KEEP_2 = U64(cell_mask(lambda r, c: (r & 2) == (c & 2)))
RISE_2 = U64(cell_mask(lambda r, c: (r & 2) == 0 and (c & 2) == 2))
FALL_2 = U64(cell_mask(lambda r, c: (r & 2) == 2 and (c & 2) == 0))
SHIFT_1 = U64(3 * CELL_BITS)
SHIFT_2 = U64(6 * CELL_BITS)
ROW_MASK_U64 = U64(ROW_MASK)
CELL_MASK_U64 = U64(CELL_MASK)


def check_bits(bits: Any) -> int:
    """``bits`` as a Python int that fits in 64 bits, or an error saying how to make a bitboard."""
    if isinstance(bits, bool) or not isinstance(bits, (int, np.integer)):
        raise TypeError(f"a bitboard is a 64-bit int, got {type(bits).__name__}; use to_bitboard(board)")
    if not 0 <= int(bits) < 1 << 64:
        raise ValueError(f"a bitboard must fit in 64 bits, got {int(bits)}")
    return int(bits)


def transpose(bits: Bitboard) -> Bitboard:
    """Mirror the board in its main diagonal: cell (r, c) goes to (c, r).

    >>> from tilelab.game2048.fast.bitboard import picture, to_bitboard
    >>> b = to_bitboard([[2, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 8]])
    >>> print(picture(transpose(b)))
    2 . . .
    4 . . .
    . . . .
    . . . 8
    """
    return int(transpose_bits(U64(check_bits(bits))))


@overload
def transpose_bits(bits: Bits) -> np.uint64: ...
@overload
def transpose_bits(bits: U64Array) -> U64Array: ...
@njit
def transpose_bits(bits: Bits | U64Array) -> np.uint64 | U64Array:
    """Kernel of :func:`transpose` (works on numpy uint64 scalars and arrays alike)."""
    value: Any = U64(bits)  # a scalar or an array (numpy's stubs type uint64(array) differently by version)
    value = (value & KEEP_1) | ((value & RISE_1) << SHIFT_1) | ((value & FALL_1) >> SHIFT_1)
    result: np.uint64 | U64Array = (value & KEEP_2) | ((value & RISE_2) << SHIFT_2) | ((value & FALL_2) >> SHIFT_2)
    return result


# ---------------------------------------------------------------------------------- row tables
@njit
def slide_row_left(row: int) -> tuple[int, int]:
    """Slide one 16-bit row toward column 0: (new row, score gained), score OVERFLOW for 32768+32768."""
    result = 0
    placed = 0  # how many tiles are already in the result
    open_exponent = 0  # exponent of the last placed tile if it may still merge, else 0
    score = 0
    for col in range(SIZE):
        exponent = (row >> (CELL_BITS * col)) & CELL_MASK
        if exponent == 0:
            continue
        if exponent == open_exponent:
            if exponent == MAX_EXPONENT:
                return row, OVERFLOW
            result += 1 << (CELL_BITS * (placed - 1))  # the tile already placed doubles
            score += 1 << (exponent + 1)
            open_exponent = 0
        else:
            result |= exponent << (CELL_BITS * placed)
            placed += 1
            open_exponent = exponent
    return result, score


@njit
def reverse_row(row: int) -> int:
    """The row read from the other end (column 3 becomes column 0)."""
    out = 0
    for col in range(SIZE):
        out |= ((row >> (CELL_BITS * col)) & CELL_MASK) << (CELL_BITS * (SIZE - 1 - col))
    return out


@njit
def build_row_tables(left: U64Array, right: U64Array, score: I64Array) -> None:
    for row in range(ROW_VALUES):
        new, gained = slide_row_left(row)
        left[row] = new
        score[row] = gained
        mirrored, _ = slide_row_left(reverse_row(row))
        right[row] = reverse_row(mirrored) if gained != OVERFLOW else row


@dataclass(frozen=True)
class RowTables:
    """The 65,536-entry lookup tables: each row's result sliding left / right and the score gained.

    A row slides right exactly as its mirror image slides left, so both directions gain the same
    score. ``score[row] == -1`` marks a row whose slide would merge two 32768 tiles.
    """

    left: U64Array  # uint64[65536]
    right: U64Array  # uint64[65536]
    score: I64Array  # int64[65536]


_TABLES: RowTables | None = None


def row_tables() -> RowTables:
    """Build (once) and return the row tables.

    >>> t = row_tables()
    >>> from tilelab.game2048.fast.bitboard import bits_from_exponents
    >>> row = bits_from_exponents([[1, 1, 1, 0]]) # the row [2, 2, 2, .]
    >>> int(t.left[row]) == bits_from_exponents([[2, 1, 0, 0]]), int(t.score[row])
    (True, 4)
    """
    global _TABLES
    if _TABLES is None:
        left = np.zeros(ROW_VALUES, dtype=np.uint64)
        right = np.zeros(ROW_VALUES, dtype=np.uint64)
        score = np.zeros(ROW_VALUES, dtype=np.int64)
        build_row_tables(left, right, score)
        for table in (left, right, score):
            table.setflags(write=False)
        _TABLES = RowTables(left, right, score)
    return _TABLES


# ---------------------------------------------------------------------------------- moves
@njit
def slide_rows(bits: Bits, table: U64Array, score_table: I64Array) -> tuple[Bits, Points]:
    """Apply a row table to all four rows; return (new bits, score) with score OVERFLOW if any overflows."""
    bits = U64(bits)
    out = U64(0)
    score = 0
    for r in range(SIZE):
        shift = U64(ROW_BITS * r)
        row = (bits >> shift) & ROW_MASK_U64
        gained = score_table[row]
        if gained == OVERFLOW:
            return bits, OVERFLOW
        score += gained
        out |= table[row] << shift
    return out, score


@njit
def apply_move(bits: Bits, code: int, left: U64Array, right: U64Array, score_table: I64Array) -> tuple[Bits, Points]:
    """One move on a bitboard: (new bits, score gained); score OVERFLOW when a 65536 tile would form."""
    bits = U64(bits)
    if code == LEFT:
        return slide_rows(bits, left, score_table)
    if code == RIGHT:
        return slide_rows(bits, right, score_table)
    flipped = transpose_bits(bits)
    if code == UP:
        moved, gained = slide_rows(flipped, left, score_table)
    else:
        moved, gained = slide_rows(flipped, right, score_table)
    if gained == OVERFLOW:
        return bits, OVERFLOW
    return transpose_bits(moved), gained


@njit
def count_empty(bits: Bits) -> int:
    bits = U64(bits)
    count = 0
    for index in range(CELLS):
        if ((bits >> U64(CELL_BITS * index)) & CELL_MASK_U64) == 0:
            count += 1
    return count


@njit
def max_exponent(bits: Bits) -> int:
    bits = U64(bits)
    best = U64(0)
    for index in range(CELLS):
        exponent = (bits >> U64(CELL_BITS * index)) & CELL_MASK_U64
        if exponent > best:
            best = exponent
    return int(best)
