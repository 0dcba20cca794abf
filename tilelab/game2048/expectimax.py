"""Fast expectimax on the bitboard: per-row heuristic tables and a search with chance nodes.

The board evaluation is a sum over the four rows and the four columns of a per-row score, and a
16-bit row has only 65,536 values, so the whole heuristic is precomputed into one table (the idea that
makes nneonneo's 2048 AI fast); evaluating a board is eight lookups. The terms, per row or column,
with exponents ``e`` (0 = empty, 1 = tile 2, 11 = tile 2048):

- **empty**: number of empty cells (room to move), rewarded;
- **merges**: number of merges a slide of this line would make (work waiting to be done), rewarded;
- **monotonicity**: how far the line is from running one way, the smaller of
  ``sum(max(0, e[i]**P - e[i+1]**P))`` and the same the other way (``P = mono_power``), penalised --
  a sorted line keeps big tiles at one end, ready to merge in order;
- **smoothness**: ``sum |e[i] - e[j]|`` over neighbouring tiles once the gaps are closed, penalised --
  neighbours of equal size will merge soon;
- **big tiles** (``sum``): ``sum e**sum_power``, penalised, so a board holding its value in fewer,
  bigger tiles scores higher.

``alive`` is a constant given to every board where the game goes on, so a lost board (value 0) is
worse than a living one. It must outweigh the penalties: with ``alive = 100_000`` late-game boards
score below zero, dying then *looks better* than living, and depth-2 games stalled at 512; with
``1_000_000`` the same searches reach 2048 and beyond. :data:`DEFAULT_WEIGHTS` were chosen by short
seeded runs (see the lesson and ``benchmarks/bench_2048_ai.py``); they are in the spirit of the
published nneonneo/ovolve heuristics but not tuned as far.

The search (:func:`tilelab.game2048.fast.kernels.chance_value`, shared with the learned-value player) works on *afterstates* (the board right after our move, before the
spawn). A chance node averages over every spawn (each empty cell with 1/empty, a 2 with 1 - p_four,
a 4 with p_four); under each spawn a max node picks our best next move. ``depth`` counts our moves.
A branch whose cumulative probability falls below ``cutoff`` is not expanded (its board is
evaluated instead), and a transposition table keyed by (afterstate, depth) reuses values of boards
reached by different move orders. With ``cutoff=0`` the table never changes a value: it returns
exactly what the plain recursion would compute.

**Budgets** (:class:`Budget`, :func:`deepen`): a search deepens one level at a time (iterative
deepening) until its budget is spent. Two honest kinds:

- ``nodes_per_move`` -- a *node* budget: deepen while the next level is predicted to fit. It never
  reads the clock, so a decision depends on the board only: same seed, same game on any machine.
- ``ms_per_move`` -- a *wall-clock* budget: deepen until the deadline. A level predicted (from the
  node rate measured so far) not to finish in the time left is not started; the compiled search reads
  the clock itself every :data:`CHECK_EVERY` nodes (libc's ``clock_gettime`` called from numba, about
  40 ns), so a level the deadline catches stops there, also when the machine is busy and the search
  runs slower than predicted; its unfinished values are thrown away and the move comes from the
  deepest *finished* level. On a busy machine the process also waits for a core, and a wait that
  straddles the deadline makes the move late however often the search looks at the clock; so the budget
  learns how long recent waits were (the compiled search measures the gaps between its looks at the
  clock) and stops that much earlier (:meth:`Budget.stop_early_ms`). It spends at most about the time
  it says, and different machines (or a busy one) make different moves.

Every single search is also capped by ``max_nodes``, a fixed ``depth`` included, so every call ends in
bounded time. The transposition table keeps each entry (board, tag, value) in one 32-byte slot: a probe
costs one cache line instead of three.
"""

from __future__ import annotations

import inspect
import time
from dataclasses import asdict, dataclass
from typing import Any, Callable

import numpy as np
import numpy.typing as npt

from tilelab.inputs import as_float, as_int
from tilelab.jit import njit
from tilelab.game2048.fast.bitrows import CELL_BITS, CELL_MASK, ROW_BITS, ROW_VALUES, SIZE, Bits, row_tables
from tilelab.game2048.board import DEFAULT_P_FOUR
from tilelab.game2048.stopping import check_deadline, check_node_limit
from tilelab.game2048.fast.kernels import NO_MOVE, F64Array, make_search, new_counters, search_rows, transposition_table
from tilelab.game2048.fast.bitrows import ROW_MASK_U64, U64, transpose_bits

__all__ = ["HeuristicWeights", "DEFAULT_WEIGHTS", "heuristic_table", "evaluate_bits", "SearchTables", "search_bits",
           "SearchResult", "row_terms", "Budget", "deepen", "NODES_PER_MS", "check_search_settings",
           "TranspositionTable", "heuristic_leaf", "heuristic_leaf_prepare", "heuristic_leaf_spawned",
           "HEURISTIC_SEARCH"]


@dataclass(frozen=True)
class HeuristicWeights:
    """Weights of the board evaluation terms (per row and per column; see the module docstring)."""

    alive: float = 1_000_000.0
    empty: float = 250.0
    merges: float = 600.0
    monotonicity: float = 40.0
    mono_power: float = 4.0
    smoothness: float = 20.0
    sum: float = 10.0
    sum_power: float = 3.5

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if not np.isfinite(value) or value < 0:
                raise ValueError(f"heuristic weight {name}={value!r} must be a finite number >= 0")

    def only(self, *terms: str) -> "HeuristicWeights":
        """These weights with every term not named set to 0 (``alive`` and the powers are kept)."""
        known = {"empty", "merges", "monotonicity", "smoothness", "sum"}
        unknown = set(terms) - known
        if unknown:
            raise ValueError(f"unknown heuristic terms {sorted(unknown)}; choose from {sorted(known)}")
        return HeuristicWeights(**{k: (v if k not in known or k in terms else 0.0) for k, v in asdict(self).items()})


DEFAULT_WEIGHTS = HeuristicWeights()


def row_terms(line: tuple[int, ...] | list[int], mono_power: float = 4.0, sum_power: float = 3.5) -> dict[str, float]:
    """The raw heuristic terms of one line of exponents (readable version of the table entries).

    >>> t = row_terms([3, 2, 2, 0])   # 8 4 4 . : one empty cell, one merge, sorted
    >>> t["empty"], t["merges"], t["monotonicity"], t["smoothness"]
    (1, 1, 0.0, 1)
    """
    tiles = [e for e in line if e]
    merges, i = 0, 0
    while i + 1 < len(tiles):
        if tiles[i] == tiles[i + 1]:
            merges += 1
            i += 2
        else:
            i += 1
    down = sum(max(0.0, line[i] ** mono_power - line[i + 1] ** mono_power) for i in range(len(line) - 1))
    up = sum(max(0.0, line[i + 1] ** mono_power - line[i] ** mono_power) for i in range(len(line) - 1))
    return {
        "empty": len(line) - len(tiles),
        "merges": merges,
        "monotonicity": float(min(down, up)),
        "smoothness": sum(abs(tiles[i] - tiles[i + 1]) for i in range(len(tiles) - 1)),
        "sum": float(sum(e ** sum_power for e in tiles)),
    }


def _row_value(line: list[int], w: HeuristicWeights) -> float:
    t = row_terms(line, w.mono_power, w.sum_power)
    return (
        w.alive / (2 * SIZE)
        + w.empty * t["empty"]
        + w.merges * t["merges"]
        - w.monotonicity * t["monotonicity"]
        - w.smoothness * t["smoothness"]
        - w.sum * t["sum"]
    )


_HEURISTIC_CACHE: dict[HeuristicWeights, npt.NDArray[Any]] = {}


def heuristic_table(weights: HeuristicWeights = DEFAULT_WEIGHTS) -> npt.NDArray[Any]:
    """The 65,536-entry table of one line's evaluation (each row and column adds one entry).

    Built once per set of weights with numpy over all rows at once.

    >>> from tilelab.game2048.fast.bitboard import bits_from_exponents
    >>> t = heuristic_table()
    >>> abs(float(t[bits_from_exponents([[3, 2, 1, 0]])]) - _row_value([3, 2, 1, 0], DEFAULT_WEIGHTS)) < 1e-6
    True
    """
    if not isinstance(weights, HeuristicWeights):
        raise TypeError(f"weights must be HeuristicWeights, got {type(weights).__name__}")
    if weights not in _HEURISTIC_CACHE:
        _HEURISTIC_CACHE[weights] = _build_heuristic_table(weights)
    return _HEURISTIC_CACHE[weights]


def _build_heuristic_table(w: HeuristicWeights) -> npt.NDArray[Any]:
    rows = np.arange(ROW_VALUES)
    e = np.stack([(rows >> (CELL_BITS * c)) & CELL_MASK for c in range(SIZE)], axis=1).astype(np.float64)
    occupied = e > 0
    empty = (~occupied).sum(axis=1)
    powered = e**w.mono_power
    step = powered[:, 1:] - powered[:, :-1]
    monotonicity = np.minimum(np.maximum(-step, 0).sum(axis=1), np.maximum(step, 0).sum(axis=1))
    big = np.where(occupied, e**w.sum_power, 0.0).sum(axis=1)
    merges = np.zeros(ROW_VALUES)
    smooth = np.zeros(ROW_VALUES)
    # close the gaps: the k-th tile of each row, then walk pairs the way a slide merges them
    order = np.argsort(~occupied, axis=1, kind="stable")
    packed = np.take_along_axis(np.where(occupied, e, 0), order, axis=1)
    count = occupied.sum(axis=1)
    pending = np.zeros(ROW_VALUES, dtype=bool)  # the previous tile is still free to merge
    for i in range(1, SIZE):
        both = i < count
        same = both & (packed[:, i] == packed[:, i - 1])
        merges += same & ~pending
        pending = same & ~pending
        smooth += np.where(both, np.abs(packed[:, i] - packed[:, i - 1]), 0)
    table: F64Array = (
        w.alive / (2 * SIZE) + w.empty * empty + w.merges * merges
        - w.monotonicity * monotonicity - w.smoothness * smooth - w.sum * big
    )
    table.setflags(write=False)
    return table


# ---------------------------------------------------------------------------------- the search kernel
@njit(inline="always")
def heuristic_leaf(bits: Bits, htable: F64Array) -> float:
    """Sum of the line table over the four rows and the four columns."""
    bits = U64(bits)
    flipped = transpose_bits(bits)
    total = 0.0
    for r in range(SIZE):
        shift = U64(ROW_BITS * r)
        total += htable[(bits >> shift) & ROW_MASK_U64] + htable[(flipped >> shift) & ROW_MASK_U64]
    return total


@njit(inline="always")
def heuristic_leaf_prepare(after: Bits, htable: F64Array) -> tuple[Bits, float, float, float, float, float, float,
                                                                    float, float]:
    """Once per chance node: the afterstate's transpose and the table entry of each of its rows and columns."""
    after = U64(after)
    flipped = transpose_bits(after)
    return (flipped, htable[after & ROW_MASK_U64], htable[(after >> U64(16)) & ROW_MASK_U64],
            htable[(after >> U64(32)) & ROW_MASK_U64], htable[(after >> U64(48)) & ROW_MASK_U64],
            htable[flipped & ROW_MASK_U64], htable[(flipped >> U64(16)) & ROW_MASK_U64],
            htable[(flipped >> U64(32)) & ROW_MASK_U64], htable[(flipped >> U64(48)) & ROW_MASK_U64])


@njit(inline="always")
def heuristic_leaf_spawned(child: Bits, index: int, exponent: Bits,
                           prep: tuple[Bits, float, float, float, float, float, float, float, float],
                           htable: F64Array) -> float:
    """:func:`heuristic_leaf` of the afterstate with one tile spawned at ``index``: only its row and its column change,
    so two lookups instead of eight, summed in the same order (the very same float)."""
    flipped, r0, r1, r2, r3, c0, c1, c2, c3 = prep
    row, col = index >> 2, index & 3
    new_row = htable[(U64(child) >> U64(ROW_BITS * row)) & ROW_MASK_U64]
    new_flipped = flipped | (U64(exponent) << U64(CELL_BITS * (SIZE * col + row)))
    new_col = htable[(new_flipped >> U64(ROW_BITS * col)) & ROW_MASK_U64]
    total = 0.0
    total += (new_row if row == 0 else r0) + (new_col if col == 0 else c0)
    total += (new_row if row == 1 else r1) + (new_col if col == 1 else c1)
    total += (new_row if row == 2 else r2) + (new_col if col == 2 else c2)
    total += (new_row if row == 3 else r3) + (new_col if col == 3 else c3)
    return total


# the one kernel, the line table at the leaves (two lookups a leaf: see heuristic_leaf_spawned)
HEURISTIC_SEARCH = make_search("heuristic", heuristic_leaf, with_points=False, prepare=heuristic_leaf_prepare,
                               spawned=heuristic_leaf_spawned)
_search = HEURISTIC_SEARCH.root_values


# ---------------------------------------------------------------------------------- Python side
@dataclass(frozen=True)
class SearchResult:
    """One decision: best direction code (-1 if none), each direction's expected value, effort."""

    best: int
    values: tuple[float, ...]  # UP, DOWN, LEFT, RIGHT; NaN for a move that changes nothing
    depth: int
    nodes: int
    table_hits: int
    complete: bool = True  # False: stopped by a node limit or a deadline, values meaningless
    seconds: float = 0.0  # wall-clock time this search took
    longest_gap: float = 0.0  # longest wall time (s) between two looks at the clock: a wait for a core shows here


class TranspositionTable:
    """A reusable transposition table of ``2**table_bits`` 32-byte slots (board, tag, value), tagged per search.

    Entries are tagged with a generation number, so starting a new decision never has to clear the
    table and no value leaks from one decision into the next (a decision depends on the board only).
    Each entry is one 32-byte slot: a probe reads one cache line, not three. Shared by
    :class:`SearchTables` (the heuristic player) and :class:`tilelab.game2048.learning.ntuple_players.TDExpectimax`.

    >>> t = TranspositionTable(8)
    >>> t.tt.shape, t.next_tag_base(), t.next_tag_base(), int(t.tt_tag[0])
    ((256, 4), 256, 512, 0)
    """

    def __init__(self, table_bits: int = 20) -> None:
        table_bits = as_int(table_bits, "table_bits (the table has 2**table_bits entries)", minimum=4, maximum=26)
        self.tt, self.tt_f = transposition_table(1 << table_bits)  # tt_f: the same memory read as float64
        self._generation = 0
        self.counters = new_counters()  # reused by every search (the kernel resets them): less per-call overhead
        self.values = np.full(4, np.nan)

    @property
    def tt_board(self) -> npt.NDArray[Any]:
        """The board stored in each slot (a view)."""
        return self.tt[:, 0]

    @property
    def tt_tag(self) -> npt.NDArray[Any]:
        """Each slot's tag, generation * 256 + depth (0: never written; a view)."""
        return self.tt[:, 1].view(np.int64)

    @property
    def tt_value(self) -> npt.NDArray[Any]:
        """Each slot's value (a view)."""
        return self.tt_f[:, 2]

    def next_tag_base(self) -> int:
        """A fresh tag range for one search (depth is added to it, so leave room for 256 depths)."""
        self._generation += 1
        return self._generation << 8


class SearchTables(TranspositionTable):
    """The tables one searcher needs: row moves, heuristic, and a reusable :class:`TranspositionTable`.

    Making one also loads the compiled search (a tiny search), so a player's first move is not the one
    that waits for numba.
    """

    def __init__(self, weights: HeuristicWeights = DEFAULT_WEIGHTS, table_bits: int = 20) -> None:
        super().__init__(table_bits)
        self.weights = weights
        self.rows = row_tables()
        self.search_rows = search_rows()  # the same slides in 16 bits a row: the search's tables fit in L2
        self.htable = heuristic_table(weights)
        search_bits(_WARM_UP_BOARD, 1, self)  # load the compiled search now, not in the first move


_WARM_UP_BOARD = 0x1  # one tile of 2: a level-1 search is a few dozen nodes


def evaluate_bits(bits: int, weights: HeuristicWeights = DEFAULT_WEIGHTS) -> float:
    """The heuristic value of a bitboard (rows plus columns from the table).

    >>> from tilelab.game2048.fast.bitboard import parse_bits
    >>> sorted_board = parse_bits("16 8 4 2\\n. . . .\\n. . . .\\n. . . .")
    >>> evaluate_bits(sorted_board) > evaluate_bits(parse_bits("2 16 4 8\\n. . . .\\n. . . .\\n. . . ."))
    True
    """
    return float(heuristic_leaf(U64(bits), heuristic_table(weights)))


def check_search_settings(depth: int, cutoff: float, p_four: float) -> tuple[int, float, float]:
    """``depth`` (1..64), ``cutoff`` in [0, 1) and ``p_four`` in [0, 1], or a TypeError/ValueError naming them."""
    if (type(depth) is int and type(cutoff) is float and type(p_four) is float and 1 <= depth <= 64
            and 0.0 <= cutoff < 1.0 and 0.0 <= p_four <= 1.0):
        return depth, cutoff, p_four  # the common case, checked fast (a search is called thousands of times)
    depth = as_int(depth, "depth (our moves to look ahead)", minimum=1, maximum=64)
    cutoff = as_float(cutoff, "cutoff (a probability)", minimum=0.0)
    if cutoff >= 1.0:
        raise ValueError(f"cutoff (a probability) must be below 1, not {cutoff}: 1 would cut every branch")
    return depth, cutoff, as_float(p_four, "p_four (a probability)", minimum=0.0, maximum=1.0)


def search_bits(bits: int, depth: int, tables: SearchTables, *, p_four: float = DEFAULT_P_FOUR, cutoff: float = 1e-4,
                node_limit: int = 0, deadline: float | None = None) -> SearchResult:
    """Run one fixed-depth expectimax from ``bits``; returns the best move code and every move's value.

    With ``node_limit > 0`` the search stops after that many nodes and says so (``complete=False``);
    with ``deadline`` (a :func:`time.perf_counter` time) it stops once the clock passes it, looking at
    the clock every :data:`CHECK_EVERY` nodes.

    >>> from tilelab.game2048.fast.bitboard import parse_bits
    >>> r = search_bits(parse_bits("2 2 . .\\n. . . .\\n. . . .\\n. . . 4"), 2, SearchTables(table_bits=10))
    >>> r.complete, r.best in (0, 1, 2, 3), search_bits(parse_bits("2 2 . .\\n. . . .\\n. . . .\\n. . . 4"), 2,
    ...     SearchTables(table_bits=10), node_limit=5).complete
    (True, True, False)
    """
    depth, cutoff, p_four = check_search_settings(depth, cutoff, p_four)
    node_limit = check_node_limit(node_limit)
    deadline = check_deadline(deadline)
    tick = time.perf_counter()
    counters, values = tables.counters, tables.values
    r = tables.search_rows
    best = _search(U64(bits), depth, p_four, cutoff, r.left, r.right, r.score, tables.htable, tables.tt, tables.tt_f,
                   tables.next_tag_base(), counters, values, node_limit, deadline)
    return result_of(best, values, depth, counters, tick)


def result_of(best: int, values: F64Array, depth: int, counters: npt.NDArray[Any], tick: float) -> SearchResult:
    """A :class:`SearchResult` from a compiled search's outputs (``tick``: the perf_counter time it started).

    Built without the frozen dataclass's ``__init__`` (eight ``object.__setattr__`` calls cost about 2 us, a
    fiftieth of a depth-3 search); the fields are the same.

    >>> c = new_counters(); c[:3] = (40, 2, 0)
    >>> r = result_of(1, np.array([0.5, 1.5, 2.0, 0.25]), 2, c, time.perf_counter())
    >>> r == SearchResult(1, (0.5, 1.5, 2.0, 0.25), 2, 40, 2, True, r.seconds, 0.0), type(r.nodes)
    (True, <class 'int'>)
    """
    c = counters.tolist()
    result = _NEW(SearchResult)
    result.__dict__.update(best=int(best), values=tuple(values.tolist()), depth=depth, nodes=c[0], table_hits=c[1],
                           complete=not c[2], seconds=time.perf_counter() - tick, longest_gap=1e-9 * c[6])
    return result


_NEW = object.__new__




# ---------------------------------------------------------------------------------- budgets
NODES_PER_MS = 10_000  # first guess of nodes searched per ms (the clock budget measures the machine as it goes)
MAX_NODES = 5_000_000  # no single search of the fast engine goes past this (about half a second)
CLOCK_MARGIN_MS = 1.0  # a clock budget stops its search this long before the deadline (return, bookkeeping)
STALL_DECAY = 0.99  # per move: how fast a remembered wait for a core fades (half of it after about 70 moves)


@dataclass
class Budget:
    """How long one decision may search: a fixed ``depth``, ``nodes_per_move`` or ``ms_per_move``.

    Exactly one must be given. ``nodes_per_move`` is deterministic; ``ms_per_move`` reads the clock.
    ``nodes_per_ms`` is the wall-clock mode's running estimate of the machine's speed (updated after
    every search), used to predict whether the next level can finish before the deadline; ``late_ms``
    is how late recent moves came back past their deadline (a busy machine, on average) and ``stall_ms``
    the longest recent wait for a core (a fading maximum of the gaps the compiled search saw between two
    looks at the clock, and of the lateness): later deadlines move up by enough that a move which waits
    that long still ends by ``1.1 * ms_per_move`` (:meth:`stop_early_ms`).
    ``max_nodes`` bounds every single search, also a fixed ``depth``: a depth that needs more nodes
    falls back to the deepest level that fits (so every call ends in bounded time).

    >>> Budget(nodes_per_move=150_000).deterministic, Budget(ms_per_move=50).deterministic
    (True, False)
    """

    depth: int | None = None
    nodes_per_move: int | None = None
    ms_per_move: float | None = None
    max_depth: int = 8
    nodes_per_ms: float = float(NODES_PER_MS)
    max_nodes: int = MAX_NODES
    late_ms: float = 0.0  # how late recent clock-budget moves came back (learned; the deadline moves up by it)
    stall_ms: float = 0.0  # the longest recent wait for a core (learned, fading; the deadline moves up for it)

    def __post_init__(self) -> None:
        given = [k for k in ("depth", "nodes_per_move", "ms_per_move") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(f"give exactly one of depth=, nodes_per_move=, ms_per_move= (got {given or 'none'})")
        if self.depth is not None:
            self.depth = as_int(self.depth, "depth", minimum=1, maximum=64)
        if self.nodes_per_move is not None:
            self.nodes_per_move = as_int(self.nodes_per_move, "nodes_per_move", minimum=1)
        if self.ms_per_move is not None:
            self.ms_per_move = as_float(self.ms_per_move, "ms_per_move (milliseconds)", maximum=3.6e6)
            if self.ms_per_move <= 0:
                raise ValueError(f"ms_per_move must be a positive number of milliseconds, not {self.ms_per_move}")
        self.max_depth = as_int(self.max_depth, "max_depth", minimum=1, maximum=64)
        self.nodes_per_ms = as_float(self.nodes_per_ms, "nodes_per_ms", minimum=1e-3)
        self.max_nodes = as_int(self.max_nodes, "max_nodes", minimum=1)

    def stop_early_ms(self) -> float:
        """How long before ``ms_per_move`` a clock budget stops searching (at most 90% of it).

        The largest of: a small fixed margin, ``late_ms`` (so a move ends at about ``T`` on average) and
        ``stall_ms - 0.1 T`` (so a move that waits as long as the longest recent wait still ends by ``1.1 T``,
        inside the ``1.2 T`` the issue allows 95% of moves).

        >>> Budget(ms_per_move=50).stop_early_ms(), Budget(ms_per_move=50, stall_ms=30.0).stop_early_ms()
        (1.0, 25.0)
        >>> Budget(ms_per_move=50, late_ms=500.0).stop_early_ms()
        45.0
        """
        total = float(self.ms_per_move or 0.0)
        return min(0.9 * total, max(min(CLOCK_MARGIN_MS, 0.05 * total), self.late_ms, self.stall_ms - 0.1 * total))

    def learn_lateness(self, late_ms: float, gap_ms: float) -> None:
        """After a clock-budget move: it came back ``late_ms`` past its deadline; ``gap_ms``: its longest wait.

        A wait longer than ``T`` counts as ``T`` (it already moves the deadline up as far as it goes).
        """
        total = float(self.ms_per_move or 0.0)
        self.late_ms = 0.8 * self.late_ms + 0.2 * late_ms if late_ms > 0 else 0.95 * self.late_ms
        self.stall_ms = max(STALL_DECAY * self.stall_ms, min(max(late_ms, gap_ms), total))

    @property
    def deterministic(self) -> bool:
        """True unless the budget reads the clock."""
        return self.ms_per_move is None

    def describe(self) -> str:
        """``depth=3``, ``nodes_per_move=150000`` or ``ms_per_move=50``."""
        for key in ("depth", "nodes_per_move", "ms_per_move"):
            if getattr(self, key) is not None:
                return f"{key}={getattr(self, key):g}"
        return ""  # pragma: no cover


Search = Callable[..., SearchResult]  # (depth, node_limit[, deadline]) -> result


def deepen(search: Search, budget: Budget, *, start: float | None = None, strict: bool = False,
           clock: Callable[[], float] | None = None) -> SearchResult:
    """Iterative deepening under ``budget``: the deepest finished search's result.

    ``search(depth, node_limit, deadline)`` runs one level (``deadline``: a perf_counter time or None);
    a search taking only ``(depth, node_limit)`` gets no deadline and is stopped by a node cap instead.
    ``start`` is when the decision began (the clock budget counts from there); ``clock`` is the clock the budget
    reads (seconds; default :func:`time.perf_counter`, the compiled search's clock; tests give a simulated one).
    Level 1 is always run to its end unless ``strict``: then every level obeys the budget and, if not even
    level 1 fits, the unfinished level-1 result comes back (``complete=False``) for the caller to replace.

    >>> from tilelab.game2048.fast.bitboard import parse_bits
    >>> tables, bits = SearchTables(table_bits=12), parse_bits("2 4 8 16\\n. 2 . 4\\n. . . 2\\n. . . .")
    >>> run = lambda depth, limit, deadline=None: search_bits(bits, depth, tables, node_limit=limit, deadline=deadline)
    >>> deepen(run, Budget(nodes_per_move=1000)).depth < deepen(run, Budget(nodes_per_move=300_000)).depth
    True
    """
    clock = time.perf_counter if clock is None else clock
    start = clock() if start is None else start
    run = _with_deadline(search)
    if budget.depth is not None:
        return _deepen_fixed(run, budget, strict)
    if budget.nodes_per_move is not None:
        return _deepen_nodes(run, int(budget.nodes_per_move), budget.max_depth, budget.max_nodes, strict)
    return _deepen_clock(run, budget, start, strict, clock)


def _finished(result: SearchResult | None) -> SearchResult:
    """The result of a deepening loop (every loop runs level 1, so there is one)."""
    if result is None:  # pragma: no cover - max_depth >= 1 always runs a level
        raise RuntimeError("iterative deepening ran no level")
    return result


def _with_deadline(search: Search) -> Callable[[int, int, float | None], SearchResult]:
    """``search`` as a three-argument function; a two-argument one is stopped by nodes only."""
    try:
        params = inspect.signature(search).parameters.values()
    except (TypeError, ValueError):  # pragma: no cover - builtins without a signature
        return search
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)]
    if len(positional) >= 3 or any(p.kind == p.VAR_POSITIONAL for p in positional):
        return search

    def run(depth: int, limit: int, deadline: float | None) -> SearchResult:
        return search(depth, limit)

    run.takes_deadline = False  # type: ignore[attr-defined]
    return run


def _deepen_fixed(run: Callable[..., SearchResult], budget: Budget, strict: bool) -> SearchResult:
    """Exactly ``budget.depth``, unless that needs more than ``max_nodes``: then the deepest level that fits."""
    depth = int(budget.depth or 1)
    if not strict:
        result = run(depth, budget.max_nodes, None)
        if result.complete or depth == 1:
            return result
    return _deepen_nodes(run, budget.max_nodes, depth, budget.max_nodes, True, predict=False)


def _deepen_nodes(run: Callable[..., SearchResult], node_budget: int, max_depth: int, max_nodes: int = MAX_NODES,
                  strict: bool = False, predict: bool = True) -> SearchResult:
    """Deepen while the next level is predicted to fit in ``node_budget`` (deterministic: no clock).

    Each level is also capped (``max_nodes``, or what is left of the budget when ``strict``); a capped
    level is dropped and the previous one kept.
    """
    spent, previous_nodes = 0, 0
    result: SearchResult | None = None
    for depth in range(1, max_depth + 1):
        free = depth == 1 and not strict
        cap = max_nodes if not strict else max(1, (node_budget if predict else max_nodes) - spent)
        attempt = run(depth, 0 if free else cap, None)
        spent += attempt.nodes
        if not attempt.complete:
            result = result or attempt
            break
        result = attempt
        if result.best == NO_MOVE:
            break
        growth = max(2.0, result.nodes / max(previous_nodes, 1))
        previous_nodes = result.nodes
        if predict and spent + result.nodes * growth > node_budget:
            break
    return _finished(result)


_MIN_RATE_NODES = 500  # searches smaller than this say more about call overhead than about speed


def _deepen_clock(run: Callable[..., SearchResult], budget: Budget, start: float, strict: bool,
                  clock: Callable[[], float]) -> SearchResult:
    """Deepen until the deadline; never start a level predicted not to finish; drop a level the clock stops.

    The deadline is ``ms_per_move`` after ``start``, moved up by :meth:`Budget.stop_early_ms` (what recent
    moves taught about waiting for a core); afterwards the budget learns from this move's lateness and
    from the longest gap its compiled searches saw between two looks at the clock.
    """
    total_ms = float(budget.ms_per_move or 0.0)
    deadline = start + (total_ms - budget.stop_early_ms()) / 1e3
    takes_deadline = getattr(run, "takes_deadline", True)
    result: SearchResult | None = None
    previous_nodes, longest_gap = 0, 0.0
    for depth in range(1, budget.max_depth + 1):
        free = depth == 1 and not strict
        limit = budget.max_nodes
        if result is not None:
            remaining_ms = 1e3 * (deadline - clock())
            growth = max(2.0, result.nodes / max(previous_nodes, 1))
            # two predictions of the next level's time: from the running node rate, and from this move's
            # own last level (a stall that slowed earlier moves must not keep every later move shallow)
            predicted_ms = min(result.nodes * growth / budget.nodes_per_ms, 1e3 * result.seconds * growth)
            if remaining_ms <= 0 or predicted_ms > remaining_ms:
                break  # this level would not finish in time: do not start it
            if not takes_deadline:
                limit = min(limit, max(1, int(remaining_ms * budget.nodes_per_ms)))
        attempt = run(depth, 0 if free else limit, None if free else deadline)
        longest_gap = max(longest_gap, attempt.longest_gap)
        if attempt.nodes >= _MIN_RATE_NODES and attempt.seconds > 0:  # running estimate of the node rate
            budget.nodes_per_ms = 0.7 * budget.nodes_per_ms + 0.3 * attempt.nodes / (1e3 * attempt.seconds)
        if not attempt.complete:
            result = result or attempt
            break
        done_before = result is not None and attempt.nodes == result.nodes
        previous_nodes = 0 if result is None else result.nodes
        result = attempt
        if result.best == NO_MOVE or done_before:  # game over, or the cutoff stops every branch already
            break
    budget.learn_lateness(max(0.0, 1e3 * (clock() - deadline)), 1e3 * longest_gap)
    return _finished(result)
