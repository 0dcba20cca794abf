"""The one expectimax search kernel of the 2048 engine and the compiled pieces it is made of.

Every module that runs the search (``expectimax``, ``ai``, the n-tuple modules) imports it from here.
Each piece works on a bitboard (16 cells of 4 bits, see :mod:`tilelab.game2048.fast.bitboard`) and runs
compiled with numba, or as the same plain Python without it:

- the bitboard primitives themselves have one home each: :mod:`~tilelab.game2048.fast.bitrows`
  (``apply_move``, ``count_empty``, ``max_exponent``, ``transpose_bits``) and
  :mod:`~tilelab.game2048.fast.bitboard` (``spawn_xorshift``, ``seed_state``, ``random_playout``);
- :func:`table_slot` -- the transposition-table slot of (afterstate, depth);
- :func:`count_node` -- count one searched node; True once the node limit or the deadline is passed;
- :func:`chance_value` -- **the** expectimax chance node, with a pluggable leaf evaluation (its last level,
  :func:`leaf_chance`, where every spawn is a leaf, is inlined into the max node above: no call);
- :func:`root_values` -- every root move's value through :func:`chance_value`, and the best move;
- :func:`make_search` -- both compiled for one leaf evaluation.

**One search, two evaluations.** The heuristic player (:class:`tilelab.game2048.Expectimax`) and the
learned-value player (:class:`tilelab.game2048.learning.ntuple_players.TDExpectimax`) run the same :func:`chance_value`,
compiled once for each by :func:`make_search`: only the ``leaf`` function (and its ``leaf_data``) and
``with_points`` differ. ``leaf(board, leaf_data)``
scores a *spawned* board where the search stops (depth used up, or the branch less likely than
``cutoff``): the heuristic scores the board itself; a learned ``V`` of afterstates scores it as its best
move's points plus ``V`` of the afterstate. ``with_points`` says whether a move's points count toward
the value (``V`` predicts points to come, the heuristic does not count points). Each copy has its
leaf built in, so neither player pays for the other's evaluation.
"""

from __future__ import annotations

import hashlib
import sys
import time
import types
from typing import Any, Callable, NamedTuple

import numpy as np
import numpy.typing as npt

from tilelab.jit import monotonic, njit
from tilelab.game2048.stopping import over_node_limit, past_deadline
from tilelab.game2048.fast.bitrows import (
    OVERFLOW, ROW_BITS, ROW_MASK, SIZE, SPAWN_FOUR, spawn_probability, SPAWN_TWO, U64, Bits, I64Array, U64Array,
    row_tables, transpose_bits,
)

__all__ = [
    "table_slot", "count_node", "chance_value", "root_values", "make_search", "Search",
    "transposition_table", "NO_MOVE",
    "LOST", "CHECK_EVERY", "COUNTERS", "STOPPED_BY_LIMIT", "STOPPED_BY_CLOCK", "FREE_TAG", "new_counters",
    "SearchRows", "search_rows", "move_pair", "no_prepare", "might_overflow", "leaf_chance", "empty_cells_bits",
    "count_cells", "cell_index", "code_digest", "NO_REFCOUNTS",
]


NO_MOVE = -1  #: the best-move code when no move changes the board
LOST = 0.0  #: value of a board where the game is over
CHECK_EVERY = 1024  #: searched nodes between two looks at the clock (about 0.05 ms of search; a look costs about 40 ns)
STOPPED_BY_LIMIT, STOPPED_BY_CLOCK = 1, 2  #: counters[2] after a search that did not finish
COUNTERS = 7  #: nodes, table hits, stopped, two words for the clock to write into, last look (ns), longest gap (ns)
FREE_TAG = 0  #: the tag of a transposition-table slot never written (a search's tags start at 256)
# numba's runtime counts references to every array a compiled function passes to another, with an atomic add
# and an atomic subtract each: the recursive chance_value passes seven arrays (and the learned player seven more in
# its leaf_data), and perf put 15-17% of a depth-3 search's time on those two instructions. The search allocates
# nothing (the caller owns every array for the whole search), so its copies are compiled without that counting
# (see tilelab.jit.njit): the same tree and values, 1.2-1.34x faster (interleaved in one process).
NO_REFCOUNTS = {"refcounts": False}
_SLOT_WORDS = 4  # board, tag, value, spare: 32 bytes, two slots to a 64-byte cache line
ROW_MASK_U64 = U64(ROW_MASK)
_NIBBLE_LOW_BITS = U64(0x1111111111111111)
F64Array = npt.NDArray[np.float64]  #: float64 arrays: move values, the table's values as float64


@njit(inline="always")
def table_slot(after: Bits, depth: int, mask: int) -> int:
    """Transposition-table slot of (afterstate, depth): xor-folding only (same in numba and Python)."""
    h = U64(after) ^ (U64(depth) << U64(58))
    h ^= h >> U64(29)
    h ^= h >> U64(17)
    h ^= h >> U64(37)
    return int(h & U64(mask))


#: The readable stopping rule (:mod:`tilelab.game2048.stopping`), compiled as it is.
node_limit_passed = njit(inline="always")(over_node_limit)
deadline_passed = njit(inline="always")(past_deadline)


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
    if node_limit_passed(n, limit):
        counters[2] = STOPPED_BY_LIMIT
        return True
    if deadline > 0.0 and (n & (CHECK_EVERY - 1)) == 0:
        now = monotonic(counters[3:])
        now_ns = int(now * 1e9)
        if counters[5] > 0 and now_ns - counters[5] > counters[6]:  # the longest wait between two looks
            counters[6] = now_ns - counters[5]
        counters[5] = now_ns
        if deadline_passed(now, deadline):
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

    Each row starts on a 32-byte boundary, so a probe reads one cache line, not three. A free slot is all
    zeros (:data:`FREE_TAG` is 0): the table is not written when it is made, so the system gives it memory
    only page by page as searches store entries (a 2**20-slot table is 32 MiB; a short search uses a few).

    >>> tt, tt_f = transposition_table(16)
    >>> tt.shape, tt.ctypes.data % 32, bool((tt[:, 1] == FREE_TAG).all()), tt_f.shape
    ((16, 4), 0, True, (16, 4))
    """
    raw = np.zeros(size * _SLOT_WORDS * 8 + 64, dtype=np.uint8)
    offset = (-raw.ctypes.data) % 64
    tt = raw[offset: offset + size * _SLOT_WORDS * 8].view(np.uint64).reshape(size, _SLOT_WORDS)
    return tt, tt.view(np.float64)


class SearchRows(NamedTuple):
    """The row tables the search kernels take: the same slides as :func:`tilelab.game2048.fast.bitboard.row_tables`,
    in 16 bits a row (``left``, ``right``: 128 KiB each) and 32-bit points (``score``), so that they and the
    heuristic's line table fit in the core's 1 MiB L2 cache together (the uint64 tables are 512 KiB each)."""

    left: npt.NDArray[np.uint16]
    right: npt.NDArray[np.uint16]
    score: npt.NDArray[np.int32]


_SEARCH_ROWS: list[SearchRows] = []


def search_rows() -> SearchRows:
    """The compact row tables (built once from :func:`row_tables`; read-only).

    >>> rows, full = search_rows(), row_tables()
    >>> bool((rows.left == full.left).all() and (rows.score == full.score).all()), rows.left.nbytes
    (True, 131072)
    """
    if not _SEARCH_ROWS:
        full = row_tables()
        tables = SearchRows(full.left.astype(np.uint16), full.right.astype(np.uint16), full.score.astype(np.int32))
        for table in tables:
            table.setflags(write=False)
        _SEARCH_ROWS.append(tables)
    return _SEARCH_ROWS[0]


@njit(inline="always")
def _slide_all(bits: Bits, table: Any, score_table: Any, scored: bool) -> tuple[Bits, int]:
    """A row table on all four rows: (new bits, points); points OVERFLOW if a row would overflow.

    Points (and the overflow check) are looked up only when ``scored``: a board without a 32768 tile
    cannot overflow, and the heuristic search does not count points.
    """
    out = U64(0)
    points = 0
    for r in range(SIZE):
        shift = U64(ROW_BITS * r)
        row = (bits >> shift) & ROW_MASK_U64
        if scored:
            gained = score_table[row]
            if gained == OVERFLOW:
                return bits, OVERFLOW
            points += gained
        out |= U64(table[row]) << shift
    return out, points


@njit(inline="always")
def might_overflow(bits: Bits) -> bool:
    """True if some cell holds exponent 15 (the 32768 tile): only then can a move overflow."""
    bits = U64(bits)
    fifteen: bool = (bits & (bits >> U64(1)) & (bits >> U64(2)) & (bits >> U64(3)) & _NIBBLE_LOW_BITS) != U64(0)
    return fifteen


@njit(inline="always")
def empty_cells_bits(bits: Bits) -> Bits:
    """The lowest bit of each empty cell's nibble (bit ``4 * index``), all others clear.

    >>> hex(int(empty_cells_bits(U64(0x0000_0000_0000_1230))))
    '0x1111111111110001'
    """
    bits = U64(bits)
    free: Bits = ~(bits | (bits >> U64(1)) | (bits >> U64(2)) | (bits >> U64(3))) & _NIBBLE_LOW_BITS
    return free


@njit(inline="always")
def count_cells(free: Bits) -> int:
    """How many cells :func:`empty_cells_bits` marked: a popcount of one bit per nibble, by shifts and adds
    (no branch per cell, no multiply that could overflow).

    >>> count_cells(empty_cells_bits(U64(0x0000_0000_0000_1230))), count_cells(empty_cells_bits(U64(0)))
    (13, 16)
    """
    x = U64(free)
    x = (x + (x >> U64(4))) & U64(0x0F0F0F0F0F0F0F0F)  # each byte: its two cells
    x += x >> U64(8)
    x += x >> U64(16)
    x += x >> U64(32)
    return int(x & U64(0xFF))


@njit(inline="always")
def cell_index(low: Bits) -> int:
    """The cell whose nibble's lowest bit is the one bit set in ``low`` (a loop over the empty cells of
    :func:`empty_cells_bits` takes them lowest first, without a branch per cell).

    >>> [cell_index(U64(1) << U64(4 * i)) for i in (0, 1, 7, 8, 15)]
    [0, 1, 7, 8, 15]
    """
    low = U64(low)
    return (8 * int((low & U64(0xFFFFFFFF00000000)) != U64(0)) + 4 * int((low & U64(0xFFFF0000FFFF0000)) != U64(0))
            + 2 * int((low & U64(0xFF00FF00FF00FF00)) != U64(0)) + int((low & U64(0xF0F0F0F0F0F0F0F0)) != U64(0)))


@njit(inline="always")
def move_pair(bits: Bits, flipped: Bits, code: int, left: Any, right: Any, score_table: Any,
              scored: bool) -> tuple[Bits, int]:
    """:func:`apply_move` given the board and its transpose (computed once for the four moves).

    Same result as ``apply_move(bits, code, ...)`` whenever ``scored`` or the board cannot overflow
    (:func:`might_overflow`); the points are 0 when not ``scored``.
    """
    bits, flipped = U64(bits), U64(flipped)
    if code == 2:  # LEFT
        return _slide_all(bits, left, score_table, scored)
    if code == 3:  # RIGHT
        return _slide_all(bits, right, score_table, scored)
    moved, gained = _slide_all(flipped, left if code == 0 else right, score_table, scored)  # UP, DOWN
    if gained == OVERFLOW:
        return bits, OVERFLOW
    return transpose_bits(moved), gained


@njit(inline="always")
def no_prepare(after: Bits, leaf_data: Any) -> int:
    """The default per-chance-node preparation of a leaf evaluation: nothing."""
    return 0


# The search kernel is written once, below, as plain Python. make_search() compiles one copy per leaf
# evaluation, with ``leaf``, ``WITH_POINTS`` and ``chance`` (the copy itself, for the recursion) bound as
# that copy's globals: numba freezes them as constants, so the leaf is inlined as if written in place,
# and each copy caches on disk under its own name (a jitted function passed as an *argument* would make
# numba compile the search again in every new process).
WITH_POINTS = False  # the template's globals; make_search binds each copy's own
leaf_prepare = no_prepare


def leaf(board: Bits, leaf_data: Any) -> float:  # pragma: no cover - the template's; make_search binds each copy's own
    """The template's leaf evaluation: compile a copy with :func:`make_search` (``leaf_data``: whatever that leaf takes)."""
    raise NotImplementedError("chance_value is the template: compile a copy with make_search(name, leaf, ...)")


def spawned_leaf(child: Bits, index: int, exponent: Bits, prep: Any, leaf_data: Any) -> float:
    """The template's leaf of a spawned board (``exponent`` at cell ``index`` of the afterstate ``prep`` was made
    from): ``leaf(child, leaf_data)`` unless :func:`make_search` was given a faster one."""
    return leaf(child, leaf_data)


def leaf_chance(after: Bits, depth: int, p_four: float, leaf_data: Any, tt: U64Array, tt_f: F64Array, tag_base: int,
                counters: I64Array, limit: int, deadline: float) -> float:
    """:func:`chance_value` where every spawn is a leaf (``depth <= 1``): not recursive, so compiled copies
    inline it into the max node above (the most frequent call of the search costs no call).

    Its leaves are counted in one step, unless the node limit, a look at the clock or a stop falls among
    them: then one by one through :func:`count_node`, so the counts and the stopping point are the same.
    The empty cells are visited lowest first through :func:`empty_cells_bits` (no branch per cell)."""
    after = U64(after)
    tag = U64(tag_base + depth)
    slot = table_slot(after, depth, tt.shape[0] - 1)
    if tt[slot, 1] == tag and tt[slot, 0] == after:
        counters[1] += 1
        stored: float = tt_f[slot, 2]
        return stored
    free = U64(empty_cells_bits(after))
    empty = count_cells(free)
    cell_p = 1.0 / empty
    prep = leaf_prepare(after, leaf_data)
    total = 0.0
    # every spawn here is one leaf node: count them all at once, unless the node limit, a look at the clock or
    # a stop falls among them (then one by one, as count_node does: the same counts and the same stopping point)
    leaves = empty * ((1 if spawn_probability(0, p_four) > 0.0 else 0) + (1 if spawn_probability(1, p_four) > 0.0 else 0))
    before = counters[0]
    one_by_one = (counters[2] != 0 or node_limit_passed(before + leaves, limit)
                  or (deadline > 0.0 and before // CHECK_EVERY != (before + leaves) // CHECK_EVERY))
    if not one_by_one:
        counters[0] = before + leaves
    while free:  # the empty cells, lowest first
        low = free & (~free + U64(1))
        free ^= low
        index = cell_index(low)
        for kind in range(2):
            tile_p = spawn_probability(kind, p_four)
            if tile_p <= 0.0:
                continue
            exponent = U64(SPAWN_TWO) if kind == 0 else U64(SPAWN_FOUR)
            if one_by_one and count_node(counters, limit, deadline):
                return 0.0
            total += cell_p * tile_p * spawned_leaf(after | (low * exponent), index, exponent, prep, leaf_data)
    tt[slot, 0] = after
    tt[slot, 1] = tag
    tt_f[slot, 2] = total
    return total


def chance_value(after: Bits, depth: int, prob: float, p_four: float, cutoff: float, left: Any, right: Any,
                 score_table: Any, leaf_data: Any, tt: U64Array, tt_f: F64Array, tag_base: int,
                 counters: I64Array, limit: int, deadline: float) -> float:
    """Expected value of an afterstate: every spawn by its probability, then our best move (depth = our moves left).

    Each spawned board is one node. Where ``depth <= 1`` or the branch's probability falls below
    ``cutoff``, ``leaf(board, leaf_data)`` scores it; deeper, the best move's value (plus its points when
    ``WITH_POINTS``) from the chance node below, or :data:`LOST` when no move is left.

    ``left``, ``right``, ``score_table``: :func:`search_rows` (or the uint64 :func:`row_tables`).
    ``leaf_prepare(after, leaf_data)`` runs once per chance node; each leaf below it is
    ``spawned_leaf(child, index, exponent, prep, leaf_data)`` (by default just ``leaf``).
    A max node transposes its board once for its four moves, and looks up points only when they count
    (``WITH_POINTS``) or a 32768 tile could overflow.

    ``tt`` holds one 32-byte slot per entry (board, tag, value bits; ``tt_f`` is the same memory read
    as float64), keyed by (afterstate, depth) and tagged ``tag_base + depth``. ``counters`` = [nodes,
    table hits, stopped, clock, clock, last look, longest gap] (:func:`new_counters`): the search stops once
    ``nodes`` passes ``limit`` (``limit > 0``) or the clock passes ``deadline`` (``deadline > 0``); then every
    value from there on is meaningless.
    """
    if depth <= 1:
        return one_level(after, depth, p_four, leaf_data, tt, tt_f, tag_base, counters, limit, deadline)
    after = U64(after)
    tag = U64(tag_base + depth)  # generation and depth in one number
    slot = table_slot(after, depth, tt.shape[0] - 1)
    if tt[slot, 1] == tag and tt[slot, 0] == after:
        counters[1] += 1
        stored: float = tt_f[slot, 2]  # numpy's stubs type an element as Any
        return stored
    free = U64(empty_cells_bits(after))
    cell_p = 1.0 / count_cells(free)
    prep = leaf_prepare(after, leaf_data)
    total = 0.0
    while free:  # the empty cells, lowest first
        low = free & (~free + U64(1))
        free ^= low
        index = cell_index(low)
        for kind in range(2):
            tile_p = spawn_probability(kind, p_four)
            if tile_p <= 0.0:
                continue
            exponent = U64(SPAWN_TWO) if kind == 0 else U64(SPAWN_FOUR)
            child = after | (low * exponent)
            branch_p = prob * cell_p * tile_p
            if count_node(counters, limit, deadline):
                return 0.0
            if depth <= 1 or branch_p < cutoff:
                value = spawned_leaf(child, index, exponent, prep, leaf_data)
            else:
                value = -np.inf
                flipped = transpose_bits(child)
                scored = WITH_POINTS or might_overflow(child)
                up, up_points = move_pair(child, flipped, 0, left, right, score_table, scored)
                down, down_points = move_pair(child, flipped, 1, left, right, score_table, scored)
                go_left, left_points = move_pair(child, flipped, 2, left, right, score_table, scored)
                go_right, right_points = move_pair(child, flipped, 3, left, right, score_table, scored)
                # read the four table slots now, so that their cache misses overlap instead of coming one
                # after another (the comparison is a use the compiler cannot drop; it is never true)
                mask = tt.shape[0] - 1
                seen = (tt[table_slot(up, depth - 1, mask), 0] ^ tt[table_slot(down, depth - 1, mask), 0]
                        ^ tt[table_slot(go_left, depth - 1, mask), 0] ^ tt[table_slot(go_right, depth - 1, mask), 0])
                if seen == child:
                    counters[4] = 0  # (a word the clock overwrites anyway)
                for code in range(4):
                    if code == 0:
                        moved, gained = up, up_points
                    elif code == 1:
                        moved, gained = down, down_points
                    elif code == 2:
                        moved, gained = go_left, left_points
                    else:
                        moved, gained = go_right, right_points
                    if gained == OVERFLOW or moved == child:
                        continue
                    if depth - 1 <= 1:  # all leaves below: no call
                        v = one_level(moved, depth - 1, p_four, leaf_data, tt, tt_f, tag_base, counters, limit,
                                      deadline)
                    else:
                        v = chance(moved, depth - 1, branch_p, p_four, cutoff, left, right, score_table, leaf_data,
                                   tt, tt_f, tag_base, counters, limit, deadline)
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


def root_values(bits: Bits, depth: int, p_four: float, cutoff: float, left: Any, right: Any,
                score_table: Any, leaf_data: Any, tt: U64Array, tt_f: F64Array, tag_base: int,
                counters: I64Array, values: F64Array, limit: int, deadline: float) -> int:
    """Fill ``values[code]`` with each move's value, :func:`chance_value` of depth ``depth`` (NaN if illegal).

    Returns the best move's code (:data:`NO_MOVE` if none, or if the search was stopped). ``counters``
    and ``values`` are reset here (so a caller may reuse them from one search to the next).
    """
    counters[0] = 0
    counters[1] = 0
    counters[2] = 0
    counters[6] = 0
    counters[5] = int(monotonic(counters[3:]) * 1e9) if deadline > 0.0 else 0  # the first gap counts too
    for code in range(4):
        values[code] = np.nan
    bits = U64(bits)
    best = NO_MOVE
    flipped = transpose_bits(bits)
    for code in range(4):
        moved, gained = move_pair(bits, flipped, code, left, right, score_table, True)
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
one_level = leaf_chance  # the template's last level (make_search binds each copy's own, inlined)


class Search(NamedTuple):
    """One compiled copy of the search: :func:`chance_value` and :func:`root_values` for one leaf evaluation."""

    chance_value: Callable[..., float]
    root_values: Callable[..., int]


def make_search(name: str, leaf: Callable[[Bits, Any], float], with_points: bool, *,
                prepare: Callable[[Bits, Any], Any] | None = None,
                spawned: Callable[[Bits, int, Bits, Any, Any], float] | None = None) -> Search:
    """Compile the search kernel for one leaf evaluation ``leaf(board, leaf_data) -> float``.

    ``name`` names the compiled copy (its disk cache); ``with_points``: a move's points count toward
    the value. Optionally a faster leaf that reuses work per chance node: ``prepare(after, leaf_data)``
    once per afterstate, then ``spawned(child, index, exponent, prep, leaf_data)`` for each spawned
    board (it must equal ``leaf(child, leaf_data)`` exactly). Without numba the copy runs as plain
    Python, with the same results.
    """
    if (prepare is None) != (spawned is None):
        raise ValueError("give both prepare= and spawned= (a faster leaf), or neither")
    # numba checks only this file's time stamp before it reuses a disk-cached copy, but the leaf is compiled
    # into the copy: name the copy after the leaf's code too, so that a changed leaf compiles afresh
    name = f"{name}_{code_digest(leaf, prepare, spawned)}"
    namespace = dict(globals())
    namespace.update(leaf=leaf, WITH_POINTS=bool(with_points))
    if spawned is not None:
        namespace.update(leaf_prepare=prepare, spawned_leaf=spawned)
    else:
        namespace.update(spawned_leaf=_copy(spawned_leaf, f"spawned_leaf_{name}", namespace, inline="always"))
    namespace["one_level"] = _copy(leaf_chance, f"leaf_chance_{name}", namespace, inline="always")
    compiled = [_copy(template, f"{template.__name__}_{name}", namespace, **NO_REFCOUNTS)
                for template in (chance_value, root_values)]
    namespace["chance"] = compiled[0]  # the recursion calls this copy
    return Search(*compiled)


def code_digest(*functions: Callable[..., Any] | None) -> str:
    """A short hash of these functions' code, of the plain constants they read (numba freezes those into the
    compiled code) and of every tilelab function they call by a global name, however deep.

    The same code gives the same digest in every process; any change to the code gives another.

    >>> def a(x): return x + 1
    >>> def b(x): return x + 2
    >>> code_digest(a) == code_digest(a), code_digest(a) == code_digest(b), len(code_digest(a))
    (True, False, 12)
    """
    digest = hashlib.sha256()
    seen: set[int] = set()
    stack = [f for f in functions if f is not None]
    while stack:
        item = stack.pop()
        function = getattr(item, "py_func", item)
        code = getattr(function, "__code__", None)
        if code is None or id(function) in seen:
            continue
        seen.add(id(function))
        digest.update(_code_bytes(code))
        for global_name in sorted(_names(code)):
            called = function.__globals__.get(global_name)
            if isinstance(called, (bool, int, float, str, np.generic)):
                digest.update(f"{global_name}={called!r}".encode())
                continue
            module = getattr(getattr(called, "py_func", called), "__module__", "") or ""
            if callable(called) and module.startswith("tilelab"):
                stack.append(called)
    return digest.hexdigest()[:12]


def _code_bytes(code: types.CodeType) -> bytes:
    """The bytecode, names and constants of a code object and of the code objects nested in it."""
    parts = [code.co_code, repr(code.co_names).encode(), repr(code.co_varnames).encode()]
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            parts.append(_code_bytes(const))
        elif isinstance(const, frozenset):  # a set's order changes with the process's hash seed
            parts.append(repr(sorted(repr(item) for item in const)).encode())
        else:
            parts.append(repr(const).encode())
    return b"\0".join(parts)


def _names(code: types.CodeType) -> set[str]:
    """Every global name a code object (or one nested in it) may load."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names(const)
    return names


def _copy(template: Callable[..., Any], copy_name: str, namespace: dict[str, Any], **options: Any) -> Any:
    """``template`` compiled with ``namespace`` as its globals, under its own name (and disk cache)."""
    if sys.version_info >= (3, 11):  # co_qualname is new in 3.11
        code = template.__code__.replace(co_name=copy_name, co_qualname=copy_name)
    else:
        code = template.__code__.replace(co_name=copy_name)
    copy = types.FunctionType(code, namespace, code.co_name)
    copy.__doc__, copy.__qualname__ = template.__doc__, copy_name
    return njit(**options)(copy)
