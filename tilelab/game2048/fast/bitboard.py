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

The layout constants, transpose, row tables and compiled moves live in :mod:`tilelab.game2048.fast.bitrows`
(import them from there); this module is the checked Python API on top of them (conversion, pictures,
:func:`move_bits`, spawns) and plays whole games in numba and numpy batches.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
import numpy.typing as npt

from tilelab.jit import njit, py_func
from tilelab.randomness import RngLike, as_generator
from tilelab.game2048.board import DEFAULT_P_FOUR, Board, check_p_four
from tilelab.game2048.chance import sample_outcome, SPAWN_TILES, tile_probability
from tilelab.game2048.fast.bitrows import (
    apply_move, Bitboard, check_bits, Bits, CELL_BITS, CELL_MASK, CELL_MASK_U64, CELLS, count_empty, DIRECTION_CODES,
    DOWN, I64Array, LEFT, max_exponent, MAX_EXPONENT, MAX_TILE, OVERFLOW, Points, RIGHT, ROW_BITS,
    ROW_MASK_U64, row_tables, RowTables, SIZE, SPAWN_FOUR, spawn_probability, SPAWN_TWO, transpose_bits, U64, U64Array, UP,
)

__all__ = [
    "to_bitboard", "from_bitboard", "bits_from_exponents", "exponents", "picture", "parse_bits",
    "move_bits", "legal_codes", "direction_code", "empty_cells", "max_tile_bits", "spawn_outcomes_bits",
    "spawn_bits", "spawn_xorshift", "seed_state", "random_playout", "BatchResult", "play_random_batch",
    "random_game_bits", "ENGINES",
]


def direction_code(direction: Any) -> int:
    """Direction enum member, its name, or a code 0..3 -> code 0..3."""
    name = getattr(direction, "name", direction)
    if isinstance(name, str) and name.upper() in DIRECTION_CODES:
        return DIRECTION_CODES[name.upper()]
    if isinstance(direction, (int, np.integer)) and not isinstance(direction, bool) and 0 <= direction < 4:
        return int(direction)
    raise ValueError(f"unknown direction {direction!r}; use Direction.UP/DOWN/LEFT/RIGHT or their names")


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
    new, gained = apply_move(U64(check_bits(bits)), direction_code(direction), t.left, t.right, t.score)
    if gained == OVERFLOW:
        raise ValueError(
            "this move would merge two 32768 tiles into 65536, which does not fit in a 4-bit cell "
            "of the bitboard; play on with the readable engine (tilelab.game2048.play)"
        )
    return int(new), int(gained)


def legal_codes(bits: Bitboard) -> list[int]:
    """Direction codes (UP, DOWN, LEFT, RIGHT order) whose move changes the board."""
    t = row_tables()
    bits = check_bits(bits)
    out = []
    for code in (UP, DOWN, LEFT, RIGHT):
        new, gained = apply_move(U64(bits), code, t.left, t.right, t.score)
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
    bits = check_bits(bits)
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
    exponent: int = value.bit_length() - 1
    if exponent > MAX_EXPONENT:
        raise ValueError(
            f"tile {value} at ({r}, {c}) is above {MAX_TILE}, the largest tile a 4-bit bitboard cell holds; "
            "use the readable engine (tilelab.game2048.play) for this board"
        )
    return exponent


def to_bitboard(board: Any) -> Bitboard:
    """Pack a 4x4 board (a ``Board`` or rows of tile values) into a bitboard.

    >>> hex(to_bitboard([[2, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 32768]]))
    '0xf000000000000021'
    """
    rows = getattr(board, "grid", board)
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


def from_bitboard(bits: Bitboard) -> Board:
    """The readable engine's ``Board`` for a bitboard (inverse of :func:`to_bitboard`)."""
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
    exponent = max_exponent(U64(check_bits(bits)))
    return 1 << exponent if exponent else 0


def empty_cells(bits: Bitboard) -> list[tuple[int, int]]:
    """(row, col) of every empty cell, row by row."""
    grid = exponents(bits)
    return [(r, c) for r in range(SIZE) for c in range(SIZE) if grid[r][c] == 0]


def spawn_outcomes_bits(bits: Bitboard, p_four: float = DEFAULT_P_FOUR) -> list[tuple[tuple[int, int], int, float]]:
    """Every spawn as data: ``[((row, col), tile value, probability)]`` (cells row by row, 2 before 4).

    >>> spawn_outcomes_bits(parse_bits("2 4 8 16\\n2 4 8 16\\n2 4 8 16\\n2 4 8 ."))
    [((3, 3), 2, 0.9), ((3, 3), 4, 0.1)]
    """
    p_four = check_p_four(p_four)
    cells = empty_cells(bits)
    tiles = [(value, tile_probability(kind, p_four)) for kind, value in enumerate(SPAWN_TILES)]
    return [(cell, value, p / len(cells)) for cell in cells for value, p in tiles if p > 0]


def spawn_bits(bits: Bitboard, *, rng: RngLike = None, p_four: float = DEFAULT_P_FOUR) -> Bitboard:
    """Place a random tile (2 with p = 1 - p_four, else 4) on a uniformly random empty cell.

    One sampler for chance: this draws from :func:`spawn_outcomes_bits` exactly as
    :func:`tilelab.game2048.chance.spawn` draws from ``spawn_outcomes`` (one ``rng.random()``, the
    outcomes in the same order), so the same seed spawns the same tile whichever engine runs.

    >>> from tilelab.game2048 import Board, spawn
    >>> board = Board.parse("2 4 . 8\\n. . . .\\n16 . . .\\n. . . 2")
    >>> picture(spawn_bits(to_bitboard(board.grid), rng=5)) == str(spawn(board, rng=5)[0])
    True

    The whole-game kernels (``play_random``, ``play_random_batch``) keep their own xorshift stream
    for speed: the same distribution (tested), not the same draws.
    """
    p_four = check_p_four(p_four)
    outcomes = [((cell, value), p) for cell, value, p in spawn_outcomes_bits(bits, p_four)]
    if not outcomes:
        raise ValueError("no empty cell to spawn a tile on")
    r: int
    c: int
    (r, c), value = sample_outcome(outcomes, as_generator(rng))
    exponent = value.bit_length() - 1
    return int(check_bits(bits) | exponent << (CELL_BITS * (SIZE * r + c)))


# ---------------------------------------------------------------------------------- whole games in numba
@njit
def _xorshift(state: Bits) -> Bits:
    """Next state of a 64-bit xorshift generator (shifts and xors only: identical in numba and Python)."""
    state = U64(state)
    state ^= state << U64(13)
    state ^= state >> U64(7)
    state ^= state << U64(17)
    return state


@njit
def spawn_xorshift(bits: Bits, state: Bits, p_four: float) -> tuple[Bits, Bits]:
    """Spawn on a uniformly random empty cell using the xorshift ``state``: (bits, new state)."""
    bits = U64(bits)
    empty = count_empty(bits)
    state = _xorshift(state)
    pick = int(state % U64(empty))
    state = _xorshift(state)
    exponent = U64(SPAWN_FOUR) if (state >> U64(11)) * (1.0 / 9007199254740992.0) < spawn_probability(1, p_four) else U64(SPAWN_TWO)
    for index in range(CELLS):
        shift = U64(CELL_BITS * index)
        if ((bits >> shift) & CELL_MASK_U64) == 0:
            if pick == 0:
                return bits | (exponent << shift), state
            pick -= 1
    return bits, state


@njit
def random_playout(bits: Bits, state: Bits, p_four: float, max_moves: int, left: U64Array, right: U64Array,
                    score_table: I64Array) -> tuple[Bits, Points, int, Bits]:
    """Play uniformly random legal moves (spawning after each) until no move is left or max_moves.

    Returns (final bits, score gained, moves played, xorshift state).
    """
    bits = U64(bits)
    score: Points = 0
    moves = 0
    options = np.empty(4, dtype=np.uint64)
    gains = np.empty(4, dtype=np.int64)
    while moves < max_moves:
        count = 0
        for code in range(4):
            new, gained = apply_move(bits, code, left, right, score_table)
            if gained != OVERFLOW and new != bits:
                options[count] = new
                gains[count] = gained
                count += 1
        if count == 0:
            break
        state = _xorshift(state)
        pick = int(state % U64(count))
        bits = options[pick]
        score += gains[pick]
        moves += 1
        bits, state = spawn_xorshift(bits, state, p_four)
    return bits, score, moves, state


def seed_state(gen: np.random.Generator) -> np.uint64:
    """A non-zero xorshift state drawn from a numpy Generator."""
    state: np.uint64 = U64(int(gen.integers(1, 1 << 63)) | 1)  # numpy's stubs type uint64(...) as Any
    return state


def random_game_bits(*, rng: RngLike = None, p_four: float = DEFAULT_P_FOUR,
                     max_moves: int = 1 << 30) -> tuple[int, int, int]:
    """One whole random game run inside the fast engine: ``(final bits, score, moves)``.

    ``rng`` is a seed or a numpy Generator.

    >>> random_game_bits(rng=1) == random_game_bits(rng=1)
    True
    """
    gen = as_generator(rng)
    p_four = check_p_four(p_four)
    state: Bits = seed_state(gen)
    bits: Bits = U64(0)
    for _ in range(2):  # numba hands uint64 back as Python ints: wrap them again before the next call
        bits, state = spawn_xorshift(U64(bits), U64(state), p_four)
    t = row_tables()
    final, score, moves, _ = random_playout(U64(bits), U64(state), p_four, int(max_moves), t.left, t.right, t.score)
    return int(final), int(score), int(moves)


# ---------------------------------------------------------------------------------- batch mode (numpy)
_SHIFTS = (np.arange(CELLS, dtype=np.uint64) * U64(CELL_BITS))[None, :]


def _batch_slide(boards: U64Array, table: U64Array, score_table: I64Array) -> tuple[U64Array, I64Array]:
    out = np.zeros_like(boards)
    score = np.zeros(boards.shape, dtype=np.int64)
    for r in range(SIZE):
        shift = U64(ROW_BITS * r)
        rows = (boards >> shift) & ROW_MASK_U64
        score += score_table[rows]
        out |= table[rows] << shift
    return out, score


def _batch_move(boards: U64Array, code: int, t: RowTables) -> tuple[U64Array, I64Array]:
    table = t.left if code in (LEFT, UP) else t.right
    if code in (LEFT, RIGHT):
        return _batch_slide(boards, table, t.score)
    moved, score = _batch_slide(py_func(transpose_bits)(boards), table, t.score)
    return py_func(transpose_bits)(moved), score


def _batch_spawn(boards: U64Array, gen: np.random.Generator, p_four: float) -> U64Array:
    empty = ((boards[:, None] >> _SHIFTS) & CELL_MASK_U64) == 0
    count = empty.sum(axis=1)
    u = gen.random((2, boards.size))
    pick = (u[0] * count).astype(np.int64)
    cell = np.argmax(np.cumsum(empty, axis=1) > pick[:, None], axis=1).astype(np.uint64)
    exponent = np.where(u[1] < tile_probability(1, p_four), U64(SPAWN_FOUR), U64(SPAWN_TWO)).astype(np.uint64)
    spawned: U64Array = boards | (exponent << (cell * U64(CELL_BITS)))
    return spawned


@dataclass(frozen=True, eq=False)
class BatchResult:
    """Outcome of many random games: per game final board, score, moves played and largest tile."""

    boards: npt.NDArray[Any]  # uint64 bitboards
    scores: npt.NDArray[Any]
    moves_played: npt.NDArray[Any]
    max_tiles: npt.NDArray[Any]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BatchResult):
            return NotImplemented
        fields = ("boards", "scores", "moves_played", "max_tiles")
        return all(np.array_equal(getattr(self, f), getattr(other, f)) for f in fields)

    __hash__ = None  # type: ignore[assignment]

    @property
    def total_moves(self) -> int:
        return int(self.moves_played.sum())


@njit
def _playout_each(boards: U64Array, states: U64Array, p_four: float, max_moves: int, left: U64Array,
                  right: U64Array, score_table: I64Array, scores: I64Array, moves: I64Array) -> None:
    """Play every game of a batch to its end in turn (the compiled batch engine)."""
    for i in range(boards.size):
        bits, state = spawn_xorshift(U64(0), states[i], p_four)
        bits, state = spawn_xorshift(bits, state, p_four)
        final, score, played, state = random_playout(bits, state, p_four, max_moves, left, right, score_table)
        boards[i] = final
        scores[i] = score
        moves[i] = played


def _max_tiles(boards: U64Array) -> I64Array:
    max_tiles = np.zeros(boards.size, dtype=np.int64)
    for index in range(CELLS):
        exponent = ((boards >> U64(CELL_BITS * index)) & CELL_MASK_U64).astype(np.int64)
        max_tiles = np.maximum(max_tiles, np.where(exponent > 0, 1 << exponent, 0))
    return max_tiles


ENGINES = ("numpy", "numba")


def play_random_batch(n_games: int, *, rng: RngLike = None, p_four: float = DEFAULT_P_FOUR,
                      max_moves: int | None = None, engine: str = "numpy") -> BatchResult:
    """Play ``n_games`` uniformly random games at once.

    ``engine="numpy"``: every step is vectorised over the live games -- all four directions by table
    lookups on whole arrays, one legal move picked per game at random, one spawn per game.
    ``engine="numba"``: each game runs to its end in a compiled loop with its own xorshift stream
    (faster; different random streams, so different games from the numpy engine). Both seeded by
    ``rng`` (a seed or a numpy Generator).

    >>> r = play_random_batch(200, rng=1)
    >>> r.scores.shape, bool((r.max_tiles >= 16).all()), r == play_random_batch(200, rng=1)
    ((200,), True, True)
    >>> play_random_batch(50, rng=2, engine="numba") == play_random_batch(50, rng=2, engine="numba")
    True
    """
    if isinstance(n_games, bool) or not isinstance(n_games, (int, np.integer)) or n_games < 1:
        raise ValueError(f"n_games must be a positive int, got {n_games!r}")
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; choose one of {ENGINES}")
    p_four = check_p_four(p_four)
    gen = as_generator(rng)
    limit = np.iinfo(np.int64).max if max_moves is None else int(max_moves)
    if engine == "numba":
        t = row_tables()
        states = gen.integers(1, 1 << 63, size=n_games, dtype=np.int64).astype(np.uint64) | U64(1)
        boards: U64Array = np.zeros(n_games, dtype=np.uint64)  # any shape: numpy's stubs differ by version
        scores = np.zeros(n_games, dtype=np.int64)
        moves = np.zeros(n_games, dtype=np.int64)
        _playout_each(boards, states, p_four, limit, t.left, t.right, t.score, scores, moves)
        return BatchResult(boards, scores, moves, _max_tiles(boards))
    t = row_tables()
    boards = _batch_spawn(_batch_spawn(np.zeros(n_games, dtype=np.uint64), gen, p_four), gen, p_four)
    final = boards.copy()
    scores = np.zeros(n_games, dtype=np.int64)
    moves = np.zeros(n_games, dtype=np.int64)
    live: I64Array = np.arange(n_games, dtype=np.int64)
    step = 0
    while live.size and step < limit:
        current = boards
        options: U64Array = np.empty((4, current.size), dtype=np.uint64)
        gains: I64Array = np.empty((4, current.size), dtype=np.int64)
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
