"""A fast 4x4 2048 engine: the whole board in one 64-bit integer.

Each of the 16 cells holds the tile's *exponent* in 4 bits (0 = empty, 1 = 2, 2 = 4, ... 11 = 2048).
Cell ``(row, col)`` lives at bits ``4 * (4 * row + col)``, so row ``r`` is the 16-bit number
``(bits >> 16 * r) & 0xFFFF`` with column 0 in its lowest nibble. A 16-bit row has only 65,536 possible
values, so sliding a row left or right is one lookup in a precomputed table (new row and score gained);
a whole move is four lookups. Up and down are left and right on the *transposed* board.

The 4-bit exponent caps tiles at ``2**15 = 32768``. Two 32768 tiles merging would make a 65536 tile
that does not fit: the tables mark such a row, :func:`move_bits` raises ``ValueError`` instead of
wrapping round, and the search in :mod:`tilelab.game2048.ai` treats that move as unavailable. Boards
that already hold a tile above 32768 are refused by :func:`to_bitboard` (use the readable engine).

Only 4x4 boards have a bitboard; other sizes keep using the readable engine in ``core``.

>>> bits = to_bitboard([[2, 2, 4, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]])
>>> new, gained = move_bits(bits, "LEFT")
>>> print(picture(new)); gained
4 4 . .
. . . .
. . . .
2 . . .
4
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from tilelab._jit import njit, py_func
from tilelab._random import RngLike, as_generator
from tilelab.game2048.board import DEFAULT_P_FOUR

__all__ = [
    "Bitboard", "SIZE", "MAX_EXPONENT", "MAX_TILE", "UP", "DOWN", "LEFT", "RIGHT", "DIRECTION_CODES",
    "to_bitboard", "from_bitboard", "bits_from_exponents", "exponents", "picture", "parse_bits",
    "move_bits", "legal_codes", "empty_cells", "max_tile_bits", "spawn_outcomes_bits", "spawn_bits",
    "transpose", "row_tables", "RowTables", "BatchResult", "play_random_batch", "random_game_bits",
]

Bitboard = int  # 64 bits: 16 cells x 4-bit tile exponents

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

SPAWN_TWO, SPAWN_FOUR = 1, 2  # exponents of the two tiles a spawn can place


def _cell_mask(keep) -> int:
    """A 64-bit mask of the nibbles whose (row, col) satisfy ``keep``."""
    mask = 0
    for index in range(CELLS):
        if keep(index // SIZE, index % SIZE):
            mask |= CELL_MASK << (CELL_BITS * index)
    return mask


# Transposition swaps (r, c) <-> (c, r) in two rounds of 2x2 block swaps: first single cells inside
# each 2x2 block (the low bits of r and c trade places), then whole 2x2 blocks (the high bits trade).
# A cell moving from (r, c) to (r + k, c - k) moves by 3k nibbles.
_U = np.uint64
_KEEP_1 = _U(_cell_mask(lambda r, c: (r & 1) == (c & 1)))
_RISE_1 = _U(_cell_mask(lambda r, c: (r & 1) == 0 and (c & 1) == 1))
_FALL_1 = _U(_cell_mask(lambda r, c: (r & 1) == 1 and (c & 1) == 0))
_KEEP_2 = _U(_cell_mask(lambda r, c: (r & 2) == (c & 2)))
_RISE_2 = _U(_cell_mask(lambda r, c: (r & 2) == 0 and (c & 2) == 2))
_FALL_2 = _U(_cell_mask(lambda r, c: (r & 2) == 2 and (c & 2) == 0))
_SHIFT_1 = _U(3 * CELL_BITS)
_SHIFT_2 = _U(6 * CELL_BITS)
_ROW_MASK = _U(ROW_MASK)
_CELL_MASK = _U(CELL_MASK)


def transpose(bits: Bitboard) -> Bitboard:
    """Mirror the board in its main diagonal: cell (r, c) goes to (c, r).

    >>> b = to_bitboard([[2, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 8]])
    >>> print(picture(transpose(b)))
    2 . . .
    4 . . .
    . . . .
    . . . 8
    """
    return int(_transpose(_U(_check_bits(bits))))


@njit
def _transpose(bits):
    """Kernel of :func:`transpose` (works on numpy uint64 scalars and arrays alike)."""
    bits = _U(bits)
    bits = (bits & _KEEP_1) | ((bits & _RISE_1) << _SHIFT_1) | ((bits & _FALL_1) >> _SHIFT_1)
    return (bits & _KEEP_2) | ((bits & _RISE_2) << _SHIFT_2) | ((bits & _FALL_2) >> _SHIFT_2)


# ---------------------------------------------------------------------------------- row tables
@njit
def _slide_row_left(row):
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
def _reverse_row(row):
    """The row read from the other end (column 3 becomes column 0)."""
    out = 0
    for col in range(SIZE):
        out |= ((row >> (CELL_BITS * col)) & CELL_MASK) << (CELL_BITS * (SIZE - 1 - col))
    return out


@njit
def _build_row_tables(left, right, score):
    for row in range(ROW_VALUES):
        new, gained = _slide_row_left(row)
        left[row] = new
        score[row] = gained
        mirrored, _ = _slide_row_left(_reverse_row(row))
        right[row] = _reverse_row(mirrored) if gained != OVERFLOW else row


@dataclass(frozen=True)
class RowTables:
    """The 65,536-entry lookup tables: each row's result sliding left / right and the score gained.

    A row slides right exactly as its mirror image slides left, so both directions gain the same
    score. ``score[row] == -1`` marks a row whose slide would merge two 32768 tiles.
    """

    left: np.ndarray  # uint64[65536]
    right: np.ndarray  # uint64[65536]
    score: np.ndarray  # int64[65536]


_TABLES: RowTables | None = None


def row_tables() -> RowTables:
    """Build (once) and return the row tables.

    >>> t = row_tables()
    >>> row = bits_from_exponents([[1, 1, 1, 0]]) # the row [2, 2, 2, .]
    >>> int(t.left[row]) == bits_from_exponents([[2, 1, 0, 0]]), int(t.score[row])
    (True, 4)
    """
    global _TABLES
    if _TABLES is None:
        left = np.zeros(ROW_VALUES, dtype=np.uint64)
        right = np.zeros(ROW_VALUES, dtype=np.uint64)
        score = np.zeros(ROW_VALUES, dtype=np.int64)
        _build_row_tables(left, right, score)
        for table in (left, right, score):
            table.setflags(write=False)
        _TABLES = RowTables(left, right, score)
    return _TABLES


# ---------------------------------------------------------------------------------- moves
@njit
def _slide_rows(bits, table, score_table):
    """Apply a row table to all four rows; return (new bits, score) with score OVERFLOW if any overflows."""
    bits = _U(bits)
    out = _U(0)
    score = 0
    for r in range(SIZE):
        shift = _U(ROW_BITS * r)
        row = (bits >> shift) & _ROW_MASK
        gained = score_table[row]
        if gained == OVERFLOW:
            return bits, OVERFLOW
        score += gained
        out |= table[row] << shift
    return out, score


@njit
def _move(bits, code, left, right, score_table):
    """One move on a bitboard: (new bits, score gained); score OVERFLOW when a 65536 tile would form."""
    bits = _U(bits)
    if code == LEFT:
        return _slide_rows(bits, left, score_table)
    if code == RIGHT:
        return _slide_rows(bits, right, score_table)
    flipped = _transpose(bits)
    if code == UP:
        moved, gained = _slide_rows(flipped, left, score_table)
    else:
        moved, gained = _slide_rows(flipped, right, score_table)
    if gained == OVERFLOW:
        return bits, OVERFLOW
    return _transpose(moved), gained


@njit
def _count_empty(bits):
    bits = _U(bits)
    count = 0
    for index in range(CELLS):
        if ((bits >> _U(CELL_BITS * index)) & _CELL_MASK) == 0:
            count += 1
    return count


@njit
def _max_exponent(bits):
    bits = _U(bits)
    best = 0
    for index in range(CELLS):
        exponent = (bits >> _U(CELL_BITS * index)) & _CELL_MASK
        if exponent > best:
            best = exponent
    return int(best)


def _code(direction: Any) -> int:
    """Direction enum member, its name, or a code 0..3 -> code 0..3."""
    name = getattr(direction, "name", direction)
    if isinstance(name, str) and name.upper() in DIRECTION_CODES:
        return DIRECTION_CODES[name.upper()]
    if isinstance(direction, (int, np.integer)) and not isinstance(direction, bool) and 0 <= direction < 4:
        return int(direction)
    raise ValueError(f"unknown direction {direction!r}; use Direction.UP/DOWN/LEFT/RIGHT or their names")


def _check_bits(bits: Any) -> int:
    if isinstance(bits, bool) or not isinstance(bits, (int, np.integer)):
        raise TypeError(f"a bitboard is a 64-bit int, got {type(bits).__name__}; use to_bitboard(board)")
    if not 0 <= int(bits) < 1 << 64:
        raise ValueError(f"a bitboard must fit in 64 bits, got {int(bits)}")
    return int(bits)


def move_bits(bits: Bitboard, direction: Any) -> tuple[Bitboard, int]:
    """Slide the board: ``(new bits, score gained)``; raises ValueError if a 65536 tile would form.

    >>> b = parse_bits('''
    ... 2 . 2 .
    ... 4 . . .
    ... 4 . . .
    ... . . . 8''')
    >>> new, gained = move_bits(b, "UP")
    >>> print(picture(new)); gained
    2 . 2 8
    8 . . .
    . . . .
    . . . .
    8
    """
    t = row_tables()
    new, gained = _move(_U(_check_bits(bits)), _code(direction), t.left, t.right, t.score)
    if gained == OVERFLOW:
        raise ValueError(
            "this move would merge two 32768 tiles into 65536, which does not fit in a 4-bit cell "
            "of the bitboard; play on with the readable engine (tilelab.game2048.move)"
        )
    return int(new), int(gained)


def legal_codes(bits: Bitboard) -> list[int]:
    """Direction codes (UP, DOWN, LEFT, RIGHT order) whose move changes the board."""
    t = row_tables()
    bits = _check_bits(bits)
    out = []
    for code in (UP, DOWN, LEFT, RIGHT):
        new, gained = _move(_U(bits), code, t.left, t.right, t.score)
        if gained != OVERFLOW and int(new) != bits:
            out.append(code)
    return out


# ---------------------------------------------------------------------------------- conversion
def bits_from_exponents(rows: Sequence[Sequence[int]]) -> Bitboard:
    """Pack rows of exponents (0 = empty) into a bitboard; fewer than 4 rows fill from row 0."""
    bits = 0
    for r, row in enumerate(rows):
        for c, exponent in enumerate(row):
            if not 0 <= exponent <= MAX_EXPONENT:
                raise ValueError(f"exponent {exponent} at ({r}, {c}) is outside 0..{MAX_EXPONENT}")
            bits |= int(exponent) << (CELL_BITS * (SIZE * r + c))
    return bits


def exponents(bits: Bitboard) -> tuple[tuple[int, ...], ...]:
    """The 4x4 grid of exponents stored in ``bits`` (0 = empty)."""
    bits = _check_bits(bits)
    return tuple(
        tuple((bits >> (CELL_BITS * (SIZE * r + c))) & CELL_MASK for c in range(SIZE)) for r in range(SIZE)
    )


def _tile_exponent(value: Any, r: int, c: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"tile at ({r}, {c}) must be an int, got {type(value).__name__}")
    value = int(value)
    if value == 0:
        return 0
    if value < 2 or value & (value - 1):
        raise ValueError(f"tile {value} at ({r}, {c}) is not 0 or a power of two >= 2")
    exponent = value.bit_length() - 1
    if exponent > MAX_EXPONENT:
        raise ValueError(
            f"tile {value} at ({r}, {c}) is above {MAX_TILE}, the largest tile a 4-bit bitboard cell holds; "
            "use the readable engine (tilelab.game2048.move) for this board"
        )
    return exponent


def to_bitboard(board: Any) -> Bitboard:
    """Pack a 4x4 board (a ``Board`` or rows of tile values) into a bitboard.

    >>> hex(to_bitboard([[2, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 32768]]))
    '0xf000000000000021'
    """
    rows = getattr(board, "rows", board)
    if isinstance(rows, (str, bytes)):
        raise TypeError("expected a Board or rows of tiles, got text; use parse_bits(text) for a picture")
    try:
        rows = [list(row) for row in rows]
    except TypeError:
        raise TypeError(f"expected a Board or rows of tiles, got {type(board).__name__}") from None
    if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
        shape = f"{len(rows)} rows of lengths {[len(row) for row in rows]}"
        raise ValueError(f"the bitboard engine plays 4x4 boards only, got {shape}; use the readable engine")
    return bits_from_exponents([[_tile_exponent(v, r, c) for c, v in enumerate(row)] for r, row in enumerate(rows)])


def _tile_rows(bits: Bitboard) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(1 << e if e else 0 for e in row) for row in exponents(bits))


def from_bitboard(bits: Bitboard):
    """The readable engine's ``Board`` for a bitboard (inverse of :func:`to_bitboard`)."""
    from tilelab.game2048.core import Board

    return Board(_tile_rows(bits))


def picture(bits: Bitboard) -> str:
    """A text picture: one line per row, tile values, ``.`` for empty cells."""
    rows = _tile_rows(bits)
    width = max(len(str(v)) for row in rows for v in row)
    return "\n".join(" ".join((str(v) if v else ".").rjust(width) for v in row).rstrip() for row in rows)


def parse_bits(text: str) -> Bitboard:
    """Read a text picture (4 lines of 4 tiles, ``.`` or ``0`` for empty) back into a bitboard."""
    lines = [line.split() for line in text.strip().splitlines() if line.strip()]
    rows = [[0 if tok in (".", "0") else int(tok) for tok in line] for line in lines]
    return to_bitboard(rows)


def max_tile_bits(bits: Bitboard) -> int:
    """The value of the largest tile (0 for an empty board)."""
    exponent = _max_exponent(_U(_check_bits(bits)))
    return 1 << exponent if exponent else 0


def empty_cells(bits: Bitboard) -> list[tuple[int, int]]:
    """(row, col) of every empty cell, row by row."""
    grid = exponents(bits)
    return [(r, c) for r in range(SIZE) for c in range(SIZE) if grid[r][c] == 0]


def _check_p_four(p_four: float) -> float:
    if not 0.0 <= float(p_four) <= 1.0:
        raise ValueError(f"p_four must be a probability in [0, 1], got {p_four}")
    return float(p_four)


def spawn_outcomes_bits(bits: Bitboard, p_four: float = DEFAULT_P_FOUR) -> list[tuple[tuple[int, int], int, float]]:
    """Every spawn as data: ``[((row, col), tile value, probability)]`` (cells row by row, 2 before 4).

    >>> spawn_outcomes_bits(parse_bits("2 4 8 16\\n2 4 8 16\\n2 4 8 16\\n2 4 8 ."))
    [((3, 3), 2, 0.9), ((3, 3), 4, 0.1)]
    """
    p_four = _check_p_four(p_four)
    cells = empty_cells(bits)
    out = []
    for cell in cells:
        for value, p in ((2, 1.0 - p_four), (4, p_four)):
            if p > 0:
                out.append((cell, value, p / len(cells)))
    return out


def spawn_bits(bits: Bitboard, rng: RngLike = None, p_four: float = DEFAULT_P_FOUR) -> Bitboard:
    """Place a random tile (2 with p = 1 - p_four, else 4) on a uniformly random empty cell.

    One sampler for chance: this draws from :func:`spawn_outcomes_bits` exactly as
    :func:`tilelab.game2048.core.spawn` draws from ``spawn_outcomes`` (one ``rng.random()``, the
    outcomes in the same order), so the same seed spawns the same tile whichever engine runs.

    >>> from tilelab.game2048.core import Board, spawn
    >>> board = Board.parse("2 4 . 8\\n. . . .\\n16 . . .\\n. . . 2")
    >>> picture(spawn_bits(to_bitboard(board.rows), rng=5)) == str(spawn(board, rng=5)[0])
    True

    The whole-game kernels (``play_random``, ``play_random_batch``) keep their own xorshift stream
    for speed: the same distribution (tested), not the same draws.
    """
    from tilelab.game2048.core import sample_outcome

    p_four = _check_p_four(p_four)
    outcomes = [((cell, value), p) for cell, value, p in spawn_outcomes_bits(bits, p_four)]
    if not outcomes:
        raise ValueError("no empty cell to spawn a tile on")
    (r, c), value = sample_outcome(outcomes, as_generator(rng))
    exponent = SPAWN_FOUR if value == 4 else SPAWN_TWO
    return _check_bits(bits) | exponent << (CELL_BITS * (SIZE * r + c))


# ---------------------------------------------------------------------------------- whole games in numba
@njit
def _xorshift(state):
    """Next state of a 64-bit xorshift generator (shifts and xors only: identical in numba and Python)."""
    state = _U(state)
    state ^= state << _U(13)
    state ^= state >> _U(7)
    state ^= state << _U(17)
    return state


@njit
def _spawn_random(bits, state, p_four):
    """Spawn on a uniformly random empty cell using the xorshift ``state``: (bits, new state)."""
    bits = _U(bits)
    empty = _count_empty(bits)
    state = _xorshift(state)
    pick = int(state % _U(empty))
    state = _xorshift(state)
    exponent = _U(SPAWN_FOUR) if (state >> _U(11)) * (1.0 / 9007199254740992.0) < p_four else _U(SPAWN_TWO)
    for index in range(CELLS):
        shift = _U(CELL_BITS * index)
        if ((bits >> shift) & _CELL_MASK) == 0:
            if pick == 0:
                return bits | (exponent << shift), state
            pick -= 1
    return bits, state


@njit
def _random_playout(bits, state, p_four, max_moves, left, right, score_table):
    """Play uniformly random legal moves (spawning after each) until no move is left or max_moves.

    Returns (final bits, score gained, moves played, xorshift state).
    """
    bits = _U(bits)
    score = 0
    moves = 0
    options = np.empty(4, dtype=np.uint64)
    gains = np.empty(4, dtype=np.int64)
    while moves < max_moves:
        count = 0
        for code in range(4):
            new, gained = _move(bits, code, left, right, score_table)
            if gained != OVERFLOW and new != bits:
                options[count] = new
                gains[count] = gained
                count += 1
        if count == 0:
            break
        state = _xorshift(state)
        pick = int(state % _U(count))
        bits = options[pick]
        score += gains[pick]
        moves += 1
        bits, state = _spawn_random(bits, state, p_four)
    return bits, score, moves, state


def _seed_state(gen: np.random.Generator) -> np.uint64:
    """A non-zero xorshift state drawn from a numpy Generator."""
    return _U(int(gen.integers(1, 1 << 63)) | 1)


def random_game_bits(seed: Any = None, p_four: float = DEFAULT_P_FOUR, max_moves: int = 1 << 30) -> tuple[int, int, int]:
    """One whole random game run inside the fast engine: ``(final bits, score, moves)``.

    >>> random_game_bits(1) == random_game_bits(1)
    True
    """
    gen = as_generator(seed)
    p_four = _check_p_four(p_four)
    state = _seed_state(gen)
    bits = _U(0)
    for _ in range(2):  # numba hands uint64 back as Python ints: wrap them again before the next call
        bits, state = _spawn_random(_U(bits), _U(state), p_four)
    t = row_tables()
    final, score, moves, _ = _random_playout(_U(bits), _U(state), p_four, int(max_moves), t.left, t.right, t.score)
    return int(final), int(score), int(moves)


# ---------------------------------------------------------------------------------- batch mode (numpy)
_SHIFTS = (np.arange(CELLS, dtype=np.uint64) * _U(CELL_BITS))[None, :]


def _batch_slide(boards: np.ndarray, table: np.ndarray, score_table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    out = np.zeros_like(boards)
    score = np.zeros(boards.shape, dtype=np.int64)
    for r in range(SIZE):
        shift = _U(ROW_BITS * r)
        rows = (boards >> shift) & _ROW_MASK
        score += score_table[rows]
        out |= table[rows] << shift
    return out, score


def _batch_move(boards: np.ndarray, code: int, t: RowTables) -> tuple[np.ndarray, np.ndarray]:
    table = t.left if code in (LEFT, UP) else t.right
    if code in (LEFT, RIGHT):
        return _batch_slide(boards, table, t.score)
    moved, score = _batch_slide(py_func(_transpose)(boards), table, t.score)
    return py_func(_transpose)(moved), score


def _batch_spawn(boards: np.ndarray, gen: np.random.Generator, p_four: float) -> np.ndarray:
    empty = ((boards[:, None] >> _SHIFTS) & _CELL_MASK) == 0
    count = empty.sum(axis=1)
    u = gen.random((2, boards.size))
    pick = (u[0] * count).astype(np.int64)
    cell = np.argmax(np.cumsum(empty, axis=1) > pick[:, None], axis=1).astype(np.uint64)
    exponent = np.where(u[1] < p_four, _U(SPAWN_FOUR), _U(SPAWN_TWO)).astype(np.uint64)
    return boards | (exponent << (cell * _U(CELL_BITS)))


@dataclass(frozen=True, eq=False)
class BatchResult:
    """Outcome of many random games: per game final board, score, moves and largest tile."""

    boards: np.ndarray  # uint64 bitboards
    scores: np.ndarray
    moves: np.ndarray
    max_tiles: np.ndarray

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BatchResult):
            return NotImplemented
        fields = ("boards", "scores", "moves", "max_tiles")
        return all(np.array_equal(getattr(self, f), getattr(other, f)) for f in fields)

    __hash__ = None  # type: ignore[assignment]

    @property
    def total_moves(self) -> int:
        return int(self.moves.sum())


@njit
def _playout_each(boards, states, p_four, max_moves, left, right, score_table, scores, moves):
    """Play every game of a batch to its end in turn (the compiled batch engine)."""
    for i in range(boards.size):
        bits, state = _spawn_random(_U(0), states[i], p_four)
        bits, state = _spawn_random(bits, state, p_four)
        final, score, played, state = _random_playout(bits, state, p_four, max_moves, left, right, score_table)
        boards[i] = final
        scores[i] = score
        moves[i] = played


def _max_tiles(boards: np.ndarray) -> np.ndarray:
    max_tiles = np.zeros(boards.size, dtype=np.int64)
    for index in range(CELLS):
        exponent = ((boards >> _U(CELL_BITS * index)) & _CELL_MASK).astype(np.int64)
        max_tiles = np.maximum(max_tiles, np.where(exponent > 0, 1 << exponent, 0))
    return max_tiles


ENGINES = ("numpy", "numba")


def play_random_batch(n_games: int, seed: Any = None, *, p_four: float = DEFAULT_P_FOUR, max_moves: int | None = None,
                      engine: str = "numpy") -> BatchResult:
    """Play ``n_games`` uniformly random games at once.

    ``engine="numpy"``: every step is vectorised over the live games -- all four directions by table
    lookups on whole arrays, one legal move picked per game at random, one spawn per game.
    ``engine="numba"``: each game runs to its end in a compiled loop with its own xorshift stream
    (faster; different random streams, so different games from the numpy engine). Both seeded.

    >>> r = play_random_batch(200, seed=1)
    >>> r.scores.shape, bool((r.max_tiles >= 16).all()), r == play_random_batch(200, seed=1)
    ((200,), True, True)
    >>> play_random_batch(50, seed=2, engine="numba") == play_random_batch(50, seed=2, engine="numba")
    True
    """
    if isinstance(n_games, bool) or not isinstance(n_games, (int, np.integer)) or n_games < 1:
        raise ValueError(f"n_games must be a positive int, got {n_games!r}")
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; choose one of {ENGINES}")
    p_four = _check_p_four(p_four)
    gen = as_generator(seed)
    limit = np.iinfo(np.int64).max if max_moves is None else int(max_moves)
    if engine == "numba":
        t = row_tables()
        states = gen.integers(1, 1 << 63, size=n_games, dtype=np.int64).astype(np.uint64) | _U(1)
        boards = np.zeros(n_games, dtype=np.uint64)
        scores = np.zeros(n_games, dtype=np.int64)
        moves = np.zeros(n_games, dtype=np.int64)
        _playout_each(boards, states, p_four, limit, t.left, t.right, t.score, scores, moves)
        return BatchResult(boards, scores, moves, _max_tiles(boards))
    t = row_tables()
    boards = _batch_spawn(_batch_spawn(np.zeros(n_games, dtype=np.uint64), gen, p_four), gen, p_four)
    final = boards.copy()
    scores = np.zeros(n_games, dtype=np.int64)
    moves = np.zeros(n_games, dtype=np.int64)
    live = np.arange(n_games)
    step = 0
    while live.size and step < limit:
        current = boards
        options = np.empty((4, current.size), dtype=np.uint64)
        gains = np.empty((4, current.size), dtype=np.int64)
        for code in range(4):
            options[code], gains[code] = _batch_move(current, code, t)
        if (gains == OVERFLOW).any():
            raise ValueError("a random game reached two 32768 tiles; the bitboard cannot hold 65536")
        legal = options != current[None, :]
        n_legal = legal.sum(axis=0)
        alive = n_legal > 0
        final[live[~alive]] = current[~alive]
        live, current, options, gains, legal, n_legal = (
            live[alive], current[alive], options[:, alive], gains[:, alive], legal[:, alive], n_legal[alive]
        )
        if not live.size:
            boards = current
            break
        pick = (gen.random(live.size) * n_legal).astype(np.int64)
        choice = np.argmax(np.cumsum(legal, axis=0) > pick[None, :], axis=0)
        columns = np.arange(live.size)
        scores[live] += gains[choice, columns]
        moves[live] += 1
        boards = _batch_spawn(options[choice, columns], gen, p_four)
        step += 1
    final[live] = boards
    return BatchResult(final, scores, moves, _max_tiles(final))
