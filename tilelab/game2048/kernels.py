"""The compiled primitives of the 2048 engine under public names, and the one expectimax search kernel.

Every module that runs compiled code (``expectimax``, ``ai``, the n-tuple modules) imports its
primitives from here instead of reaching for another module's private names. Each primitive works on
a bitboard (16 cells of 4 bits, see :mod:`tilelab.game2048.bitboard`) and runs compiled with numba,
or as the same plain Python without it:

- :func:`apply_move` -- one move by direction code: ``(moved, points)``; ``points == OVERFLOW`` when a 65536 would form;
- :func:`count_empty` -- how many cells of a bitboard are empty;
- :func:`max_exponent` -- the largest exponent on a bitboard (11 = the 2048 tile);
- :func:`transpose_bits` -- the board mirrored in its main diagonal (works on arrays too);
- :func:`spawn_xorshift` -- one spawn drawn from a xorshift ``state``: ``(bits, new state)``;
- :func:`seed_state` -- a xorshift state drawn from a numpy Generator (plain Python);
- :func:`random_playout` -- random legal moves until the game ends: ``(bits, points, moves, state)``;
- :func:`table_slot` -- the transposition-table slot of (afterstate, depth);
- :func:`count_node` -- count one searched node; True once the node limit or the deadline is passed;
- :func:`chance_value` -- **the** expectimax chance node, with a pluggable leaf evaluation;
- :func:`root_values` -- every root move's value through :func:`chance_value`, and the best move;
- :func:`make_search` -- both compiled for one leaf evaluation.

**One search, two evaluations.** The heuristic player (:class:`tilelab.game2048.Expectimax`) and the
learned-value player (:class:`tilelab.game2048.ntuple.TDExpectimax`) run the same :func:`chance_value`,
compiled once for each by :func:`make_search`: only the ``leaf`` function (and its ``leaf_data``) and
``with_points`` differ. ``leaf(board, leaf_data)``
scores a *spawned* board where the search stops (depth used up, or the branch less likely than
``cutoff``): the heuristic scores the board itself; a learned ``V`` of afterstates scores it as its best
move's points plus ``V`` of the afterstate. ``with_points`` says whether a move's points count toward
the value (``V`` predicts points to come, the heuristic does not count points). Each copy has its
leaf built in, so neither player pays for the other's evaluation.
"""

from __future__ import annotations

import sys
import time
import types
from typing import Any, Callable, NamedTuple

import numpy as np
import numpy.typing as npt

from tilelab._jit import monotonic, njit
from tilelab.game2048.bitboard import (
    CELL_BITS, CELL_MASK, CELLS, OVERFLOW, SPAWN_FOUR, SPAWN_TWO, Bits, I64Array, U64Array, _count_empty,
    _max_exponent, _move,
    _random_playout, _seed_state, _spawn_random, _transpose,
)

__all__ = [
    "U64", "OVERFLOW", "apply_move", "count_empty", "max_exponent", "transpose_bits", "spawn_xorshift", "seed_state",
    "random_playout", "table_slot", "count_node", "chance_value", "root_values", "make_search", "Search",
    "transposition_table", "NO_MOVE",
    "LOST", "CHECK_EVERY", "COUNTERS", "STOPPED_BY_LIMIT", "STOPPED_BY_CLOCK", "FREE_TAG", "new_counters",
]

U64 = np.uint64  #: the bitboard's integer type (call it on a Python int before passing it to a kernel)
apply_move = _move  #: one move by direction code: (moved, points); points == OVERFLOW when a 65536 would form
count_empty = _count_empty  #: how many cells of a bitboard are empty
max_exponent = _max_exponent  #: the largest exponent on a bitboard (11 = the 2048 tile)
transpose_bits = _transpose  #: the bitboard mirrored in its main diagonal (numpy uint64 scalars or arrays)
spawn_xorshift = _spawn_random  #: one spawn from a xorshift state: (bits, new state); a 4 with probability p_four
seed_state = _seed_state  #: a non-zero xorshift state drawn from a numpy Generator (plain Python)
random_playout = _random_playout  #: random legal moves until the end or max_moves: (bits, points, moves, state)

NO_MOVE = -1  #: the best-move code when no move changes the board
LOST = 0.0  #: value of a board where the game is over
CHECK_EVERY = 1024  #: searched nodes between two looks at the clock (about 0.05 ms of search; a look costs about 40 ns)
STOPPED_BY_LIMIT, STOPPED_BY_CLOCK = 1, 2  #: counters[2] after a search that did not finish
COUNTERS = 7  #: nodes, table hits, stopped, two words for the clock to write into, last look (ns), longest gap (ns)
FREE_TAG = np.iinfo(np.uint64).max  #: the tag of a transposition-table slot never written
_SLOT_WORDS = 4  # board, tag, value, spare: 32 bytes, two slots to a 64-byte cache line
_CELL_MASK = U64(CELL_MASK)
F64Array = npt.NDArray[np.float64]  #: float64 arrays: move values, the table's values as float64


@njit(inline="always")
def table_slot(after: Bits, depth: int, mask: int) -> int:
    """Transposition-table slot of (afterstate, depth): xor-folding only (same in numba and Python)."""
    h = U64(after) ^ (U64(depth) << U64(58))
    h ^= h >> U64(29)
    h ^= h >> U64(17)
    h ^= h >> U64(37)
    return int(h & U64(mask))


@njit(inline="always")
def count_node(counters: I64Array, limit: int, deadline: float) -> bool:
    """Count one searched node; True (and ``counters[2]`` set) once the node limit or the deadline is passed.

    The clock (libc's clock_gettime, about 40 ns) is read every :data:`CHECK_EVERY` nodes only; each look
    also records the longest wall time between two looks in ``counters[6]`` (ns, from ``counters[5]``, the
    last look): a process that waited for a core shows a long gap there.
    """
    if counters[2]:  # stopped already: every caller up the recursion returns at its next node
        return True
    n = counters[0] + 1
    counters[0] = n
    if limit > 0 and n > limit:
        counters[2] = STOPPED_BY_LIMIT
        return True
    if deadline > 0.0 and (n & (CHECK_EVERY - 1)) == 0:
        now = monotonic(counters[3:])
        now_ns = int(now * 1e9)
        if counters[5] > 0 and now_ns - counters[5] > counters[6]:  # the longest wait between two looks
            counters[6] = now_ns - counters[5]
        counters[5] = now_ns
        if now > deadline:
            counters[2] = STOPPED_BY_CLOCK
            return True
    return False


def new_counters() -> I64Array:
    """Fresh search counters; the clock's last look is now, so the first wait is measured too (see :func:`count_node`).

    >>> c = new_counters()
    >>> c.shape == (COUNTERS,) and int(c[0]) == 0 and int(c[5]) > 0
    True
    """
    counters = np.zeros(COUNTERS, dtype=np.int64)
    counters[5] = int(time.perf_counter() * 1e9)
    return counters


def transposition_table(size: int) -> tuple[U64Array, F64Array]:
    """``(tt, tt_f)``: ``size`` free 32-byte slots (board, tag, value, spare) and the same memory as float64.

    Each row starts on a 32-byte boundary, so a probe reads one cache line, not three.

    >>> tt, tt_f = transposition_table(16)
    >>> tt.shape, tt.ctypes.data % 32, bool((tt[:, 1] == FREE_TAG).all()), tt_f.shape
    ((16, 4), 0, True, (16, 4))
    """
    raw = np.zeros(size * _SLOT_WORDS * 8 + 64, dtype=np.uint8)
    offset = (-raw.ctypes.data) % 64
    tt = raw[offset: offset + size * _SLOT_WORDS * 8].view(np.uint64).reshape(size, _SLOT_WORDS)
    tt[:, 1] = FREE_TAG
    return tt, tt.view(np.float64)


# The search kernel is written once, below, as plain Python. make_search() compiles one copy per leaf
# evaluation, with ``leaf``, ``WITH_POINTS`` and ``chance`` (the copy itself, for the recursion) bound as
# that copy's globals: numba freezes them as constants, so the leaf is inlined as if written in place,
# and each copy caches on disk under its own name (a jitted function passed as an *argument* would make
# numba compile the search again in every new process).
WITH_POINTS = False  # the template's globals; make_search binds each copy's own


def leaf(board: Bits, leaf_data: Any) -> float:  # pragma: no cover - the template's; make_search binds each copy's own
    """The template's leaf evaluation: compile a copy with :func:`make_search` (``leaf_data``: whatever that leaf takes)."""
    raise NotImplementedError("chance_value is the template: compile a copy with make_search(name, leaf, ...)")


def chance_value(after: Bits, depth: int, prob: float, p_four: float, cutoff: float, left: U64Array, right: U64Array,
                 score_table: I64Array, leaf_data: Any, tt: U64Array, tt_f: F64Array, tag_base: int,
                 counters: I64Array, limit: int, deadline: float) -> float:
    """Expected value of an afterstate: every spawn by its probability, then our best move (depth = our moves left).

    Each spawned board is one node. Where ``depth <= 1`` or the branch's probability falls below
    ``cutoff``, ``leaf(board, leaf_data)`` scores it; deeper, the best move's value (plus its points when
    ``WITH_POINTS``) from the chance node below, or :data:`LOST` when no move is left.

    ``tt`` holds one 32-byte slot per entry (board, tag, value bits; ``tt_f`` is the same memory read
    as float64), keyed by (afterstate, depth) and tagged ``tag_base + depth``. ``counters`` = [nodes,
    table hits, stopped, clock, clock, last look, longest gap] (:func:`new_counters`): the search stops once
    ``nodes`` passes ``limit`` (``limit > 0``) or the clock passes ``deadline`` (``deadline > 0``); then every
    value from there on is meaningless.
    """
    after = U64(after)
    tag = U64(tag_base + depth)  # generation and depth in one number
    slot = table_slot(after, depth, tt.shape[0] - 1)
    if tt[slot, 1] == tag and tt[slot, 0] == after:
        counters[1] += 1
        stored: float = tt_f[slot, 2]  # numpy's stubs type an element as Any
        return stored
    cell_p = 1.0 / _count_empty(after)
    total = 0.0
    for index in range(CELLS):
        shift = U64(CELL_BITS * index)
        if ((after >> shift) & _CELL_MASK) != 0:
            continue
        for kind in range(2):
            tile_p = 1.0 - p_four if kind == 0 else p_four
            if tile_p <= 0.0:
                continue
            exponent = U64(SPAWN_TWO) if kind == 0 else U64(SPAWN_FOUR)
            child = after | (exponent << shift)
            branch_p = prob * cell_p * tile_p
            if count_node(counters, limit, deadline):
                return 0.0
            if depth <= 1 or branch_p < cutoff:
                value = leaf(child, leaf_data)
            else:
                value = -np.inf
                for code in range(4):
                    moved, gained = _move(child, code, left, right, score_table)
                    if gained == OVERFLOW or moved == child:
                        continue
                    v = chance(moved, depth - 1, branch_p, p_four, cutoff, left, right, score_table, leaf_data, tt,
                               tt_f, tag_base, counters, limit, deadline)
                    if WITH_POINTS:
                        v += gained
                    if v > value:
                        value = v
                if value == -np.inf:  # no move changes the board: the game is lost
                    value = LOST
            total += cell_p * tile_p * value
    tt[slot, 0] = after
    tt[slot, 1] = tag
    tt_f[slot, 2] = total
    return total


def root_values(bits: Bits, depth: int, p_four: float, cutoff: float, left: U64Array, right: U64Array,
                score_table: I64Array, leaf_data: Any, tt: U64Array, tt_f: F64Array, tag_base: int,
                counters: I64Array, values: F64Array, limit: int, deadline: float) -> int:
    """Fill ``values[code]`` with each move's value, :func:`chance_value` of depth ``depth`` (NaN if illegal).

    Returns the best move's code (:data:`NO_MOVE` if none, or if the search was stopped).
    """
    bits = U64(bits)
    best = NO_MOVE
    for code in range(4):
        moved, gained = _move(bits, code, left, right, score_table)
        if gained == OVERFLOW or moved == bits:
            values[code] = np.nan
            continue
        value = chance(moved, depth, 1.0, p_four, cutoff, left, right, score_table, leaf_data, tt, tt_f, tag_base,
                       counters, limit, deadline)
        if WITH_POINTS:
            value += gained
        values[code] = value
        if counters[2]:
            return NO_MOVE
        if best == NO_MOVE or values[code] > values[best]:
            best = code
    return best


chance = chance_value  # the template's recursion (make_search binds each copy's own)


class Search(NamedTuple):
    """One compiled copy of the search: :func:`chance_value` and :func:`root_values` for one leaf evaluation."""

    chance_value: Callable[..., float]
    root_values: Callable[..., int]


def make_search(name: str, leaf: Callable[[Bits, Any], float], with_points: bool) -> Search:
    """Compile the search kernel for one leaf evaluation ``leaf(board, leaf_data) -> float``.

    ``name`` names the compiled copy (its disk cache); ``with_points``: a move's points count toward
    the value. Without numba the copy runs as plain Python, with the same results.
    """
    namespace = dict(globals())
    namespace.update(leaf=leaf, WITH_POINTS=bool(with_points))
    compiled = []
    for template in (chance_value, root_values):
        copy_name = f"{template.__name__}_{name}"
        if sys.version_info >= (3, 11):  # co_qualname is new in 3.11
            code = template.__code__.replace(co_name=copy_name, co_qualname=copy_name)
        else:
            code = template.__code__.replace(co_name=copy_name)
        copy = types.FunctionType(code, namespace, code.co_name)
        copy.__doc__, copy.__qualname__ = template.__doc__, copy_name
        compiled.append(njit(copy))
    namespace["chance"] = compiled[0]  # the recursion calls this copy
    return Search(*compiled)
