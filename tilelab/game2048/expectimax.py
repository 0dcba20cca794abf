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

The search (``_chance_value``) works on *afterstates* (the board right after our move, before the
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
- ``ms_per_move`` -- a *wall-clock* budget: deepen until the deadline; the level that is running when
  the deadline comes is stopped (a node cap computed from the node rate measured so far) and its
  unfinished values are thrown away, so the move comes from the deepest *finished* level. It spends
  about the time it says, and different machines (or a busy one) make different moves.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Callable

import numpy as np

from tilelab._jit import njit
from tilelab.game2048.bitboard import (
    CELL_BITS, CELL_MASK, CELLS, OVERFLOW, ROW_BITS, ROW_MASK, ROW_VALUES, SIZE, SPAWN_FOUR, SPAWN_TWO,
    _count_empty, _move, _transpose, row_tables,
)

__all__ = ["HeuristicWeights", "DEFAULT_WEIGHTS", "heuristic_table", "evaluate_bits", "SearchTables", "search_bits",
           "SearchResult", "row_terms", "Budget", "deepen", "NODES_PER_MS"]

_U = np.uint64
_ROW_MASK = _U(ROW_MASK)
_CELL_MASK = _U(CELL_MASK)
NO_MOVE = -1
LOST = 0.0  # value of a board where the game is over


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


_HEURISTIC_CACHE: dict[HeuristicWeights, np.ndarray] = {}


def heuristic_table(weights: HeuristicWeights = DEFAULT_WEIGHTS) -> np.ndarray:
    """The 65,536-entry table of one line's evaluation (each row and column adds one entry).

    Built once per set of weights with numpy over all rows at once.

    >>> from tilelab.game2048.bitboard import bits_from_exponents
    >>> t = heuristic_table()
    >>> abs(float(t[bits_from_exponents([[3, 2, 1, 0]])]) - _row_value([3, 2, 1, 0], DEFAULT_WEIGHTS)) < 1e-6
    True
    """
    if not isinstance(weights, HeuristicWeights):
        raise TypeError(f"weights must be HeuristicWeights, got {type(weights).__name__}")
    if weights not in _HEURISTIC_CACHE:
        _HEURISTIC_CACHE[weights] = _build_heuristic_table(weights)
    return _HEURISTIC_CACHE[weights]


def _build_heuristic_table(w: HeuristicWeights) -> np.ndarray:
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
    table = (
        w.alive / (2 * SIZE) + w.empty * empty + w.merges * merges
        - w.monotonicity * monotonicity - w.smoothness * smooth - w.sum * big
    )
    table.setflags(write=False)
    return table


# ---------------------------------------------------------------------------------- the search kernel
@njit
def _evaluate(bits, htable):
    """Sum of the line table over the four rows and the four columns."""
    bits = _U(bits)
    flipped = _transpose(bits)
    total = 0.0
    for r in range(SIZE):
        shift = _U(ROW_BITS * r)
        total += htable[(bits >> shift) & _ROW_MASK] + htable[(flipped >> shift) & _ROW_MASK]
    return total


@njit
def _slot(after, depth, mask):
    """Transposition-table slot of (afterstate, depth): xor-folding only (same in numba and Python)."""
    h = _U(after) ^ (_U(depth) << _U(58))
    h ^= h >> _U(29)
    h ^= h >> _U(17)
    h ^= h >> _U(37)
    return int(h & _U(mask))


@njit
def _chance_value(after, depth, prob, p_four, cutoff, left, right, score_table, htable,
                  tt_board, tt_tag, tt_value, tag_base, counters, limit):
    """Expected value of an afterstate: average over spawns of the best continuation (depth = our moves left).

    ``counters`` = [nodes, table hits, stopped]; with ``limit > 0`` the search stops once ``nodes``
    passes ``limit`` (``stopped`` is set and every value from then on is meaningless).
    """
    after = _U(after)
    tag = tag_base + depth  # generation and depth in one number
    slot = _slot(after, depth, tt_board.size - 1)
    if tt_tag[slot] == tag and tt_board[slot] == after:
        counters[1] += 1
        return tt_value[slot]
    empty = _count_empty(after)
    cell_p = 1.0 / empty
    total = 0.0
    for index in range(CELLS):
        shift = _U(CELL_BITS * index)
        if ((after >> shift) & _CELL_MASK) != 0:
            continue
        for kind in range(2):
            tile_p = 1.0 - p_four if kind == 0 else p_four
            if tile_p <= 0.0:
                continue
            exponent = _U(SPAWN_TWO) if kind == 0 else _U(SPAWN_FOUR)
            child = after | (exponent << shift)
            branch_p = prob * cell_p * tile_p
            counters[0] += 1
            if limit > 0 and counters[0] > limit:
                counters[2] = 1
                return 0.0
            if depth <= 1 or branch_p < cutoff:
                value = _evaluate(child, htable)
            else:
                value = -np.inf
                for code in range(4):
                    moved, gained = _move(child, code, left, right, score_table)
                    if gained == OVERFLOW or moved == child:
                        continue
                    v = _chance_value(moved, depth - 1, branch_p, p_four, cutoff, left, right, score_table,
                                      htable, tt_board, tt_tag, tt_value, tag_base, counters, limit)
                    if v > value:
                        value = v
                if value == -np.inf:  # no move changes the board: the game is lost
                    value = LOST
            total += cell_p * tile_p * value
    tt_board[slot] = after
    tt_tag[slot] = tag
    tt_value[slot] = total
    return total


@njit
def _root(bits, depth, p_four, cutoff, left, right, score_table, htable, tt_board, tt_tag, tt_value,
          tag_base, counters, values, limit):
    """Fill ``values[code]`` with each move's expected value (NaN if illegal); return the best code."""
    bits = _U(bits)
    best = NO_MOVE
    for code in range(4):
        moved, gained = _move(bits, code, left, right, score_table)
        if gained == OVERFLOW or moved == bits:
            values[code] = np.nan
            continue
        values[code] = _chance_value(moved, depth, 1.0, p_four, cutoff, left, right, score_table, htable,
                                     tt_board, tt_tag, tt_value, tag_base, counters, limit)
        if counters[2]:
            return NO_MOVE
        if best == NO_MOVE or values[code] > values[best]:
            best = code
    return best


# ---------------------------------------------------------------------------------- Python side
@dataclass(frozen=True)
class SearchResult:
    """One decision: best direction code (-1 if none), each direction's expected value, effort."""

    best: int
    values: tuple[float, ...]  # UP, DOWN, LEFT, RIGHT; NaN for a move that changes nothing
    depth: int
    nodes: int
    table_hits: int
    complete: bool = True  # False: stopped by a node limit, values meaningless


class SearchTables:
    """The tables one searcher needs: row moves, heuristic, and a reusable transposition table.

    Entries are tagged with a generation number, so starting a new decision never has to clear the
    table and no value leaks from one decision into the next (a decision depends on the board only).
    """

    def __init__(self, weights: HeuristicWeights = DEFAULT_WEIGHTS, table_bits: int = 20) -> None:
        if isinstance(table_bits, bool) or not isinstance(table_bits, int) or not 4 <= table_bits <= 26:
            raise ValueError(f"table_bits must be an int in 4..26 (table of 2**bits entries), got {table_bits!r}")
        self.weights = weights
        self.rows = row_tables()
        self.htable = heuristic_table(weights)
        size = 1 << table_bits
        self.tt_board = np.zeros(size, dtype=np.uint64)
        self.tt_tag = np.full(size, -1, dtype=np.int64)
        self.tt_value = np.zeros(size, dtype=np.float64)
        self._generation = 0

    def next_tag_base(self) -> int:
        """A fresh tag range for one search (depth is added to it, so leave room for 256 depths)."""
        self._generation += 1
        return self._generation << 8


def evaluate_bits(bits: int, weights: HeuristicWeights = DEFAULT_WEIGHTS) -> float:
    """The heuristic value of a bitboard (rows plus columns from the table).

    >>> from tilelab.game2048.bitboard import parse_bits
    >>> sorted_board = parse_bits("16 8 4 2\\n. . . .\\n. . . .\\n. . . .")
    >>> evaluate_bits(sorted_board) > evaluate_bits(parse_bits("2 16 4 8\\n. . . .\\n. . . .\\n. . . ."))
    True
    """
    return float(_evaluate(_U(bits), heuristic_table(weights)))


def search_bits(bits: int, depth: int, tables: SearchTables, *, p_four: float = 0.1, cutoff: float = 1e-4,
                node_limit: int = 0) -> SearchResult:
    """Run one fixed-depth expectimax from ``bits``; returns the best move code and every move's value.

    With ``node_limit > 0`` the search stops after that many nodes and says so (``complete=False``).

    >>> from tilelab.game2048.bitboard import parse_bits
    >>> r = search_bits(parse_bits("2 2 . .\\n. . . .\\n. . . .\\n. . . 4"), 2, SearchTables(table_bits=10))
    >>> r.complete, r.best in (0, 1, 2, 3), search_bits(parse_bits("2 2 . .\\n. . . .\\n. . . .\\n. . . 4"), 2,
    ...     SearchTables(table_bits=10), node_limit=5).complete
    (True, True, False)
    """
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= 64:
        raise ValueError(f"depth must be an int in 1..64 (our moves to look ahead), got {depth!r}")
    if not 0.0 <= cutoff < 1.0:
        raise ValueError(f"cutoff must be a probability in [0, 1), got {cutoff!r}")
    if not 0.0 <= p_four <= 1.0:
        raise ValueError(f"p_four must be a probability in [0, 1], got {p_four!r}")
    _check_limit(node_limit)
    counters = np.zeros(3, dtype=np.int64)
    values = np.full(4, np.nan)
    r = tables.rows
    best = _root(_U(bits), depth, float(p_four), float(cutoff), r.left, r.right, r.score, tables.htable,
                 tables.tt_board, tables.tt_tag, tables.tt_value, tables.next_tag_base(), counters, values,
                 int(node_limit))
    return SearchResult(int(best), tuple(float(v) for v in values), depth, int(counters[0]), int(counters[1]),
                        not counters[2])


def _check_limit(node_limit: int) -> None:
    if isinstance(node_limit, bool) or not isinstance(node_limit, (int, np.integer)) or node_limit < 0:
        raise ValueError(f"node_limit must be an int >= 0 (0 = no limit), got {node_limit!r}")


# ---------------------------------------------------------------------------------- budgets
NODES_PER_MS = 3000  # chance-node children searched per millisecond on the 2-core reference machine


@dataclass
class Budget:
    """How long one decision may search: a fixed ``depth``, ``nodes_per_move`` or ``ms_per_move``.

    Exactly one must be given. ``nodes_per_move`` is deterministic; ``ms_per_move`` reads the clock.
    ``nodes_per_ms`` is the wall-clock mode's running estimate of the machine's speed (updated after
    every search), used to stop the level that is running at the deadline.

    >>> Budget(nodes_per_move=150_000).deterministic, Budget(ms_per_move=50).deterministic
    (True, False)
    """

    depth: int | None = None
    nodes_per_move: int | None = None
    ms_per_move: float | None = None
    max_depth: int = 8
    nodes_per_ms: float = float(NODES_PER_MS)

    def __post_init__(self) -> None:
        given = [k for k in ("depth", "nodes_per_move", "ms_per_move") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(f"give exactly one of depth=, nodes_per_move=, ms_per_move= (got {given or 'none'})")
        if self.depth is not None and (isinstance(self.depth, bool) or not isinstance(self.depth, int)
                                       or not 1 <= self.depth <= 64):
            raise ValueError(f"depth must be None or an int in 1..64, got {self.depth!r}")
        n = self.nodes_per_move
        if n is not None and (isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1):
            raise ValueError(f"nodes_per_move must be a positive int, got {n!r}")
        ms = self.ms_per_move
        if ms is not None and (isinstance(ms, bool) or not isinstance(ms, (int, float)) or not 0 < ms < 3.6e6):
            raise ValueError(f"ms_per_move must be a positive number of milliseconds, got {ms!r}")
        if isinstance(self.max_depth, bool) or not isinstance(self.max_depth, int) or not 1 <= self.max_depth <= 64:
            raise ValueError(f"max_depth must be an int in 1..64, got {self.max_depth!r}")

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


Search = Callable[[int, int], SearchResult]  # (depth, node_limit) -> result


def deepen(search: Search, budget: Budget) -> SearchResult:
    """Iterative deepening under ``budget``: the deepest finished search's result (``search(depth, limit)``).

    >>> from tilelab.game2048.bitboard import parse_bits
    >>> tables, bits = SearchTables(table_bits=12), parse_bits("2 4 8 16\\n. 2 . 4\\n. . . 2\\n. . . .")
    >>> run = lambda depth, limit: search_bits(bits, depth, tables, node_limit=limit)
    >>> deepen(run, Budget(nodes_per_move=1000)).depth < deepen(run, Budget(nodes_per_move=300_000)).depth
    True
    """
    if budget.depth is not None:
        return search(budget.depth, 0)
    if budget.nodes_per_move is not None:
        return _deepen_nodes(search, int(budget.nodes_per_move), budget.max_depth)
    return _deepen_clock(search, budget)


def _deepen_nodes(search: Search, node_budget: int, max_depth: int) -> SearchResult:
    spent, previous_nodes, result = 0, 0, None
    for depth in range(1, max_depth + 1):
        result = search(depth, 0)
        spent += result.nodes
        if result.best == NO_MOVE:
            break
        growth = max(2.0, result.nodes / max(previous_nodes, 1))
        previous_nodes = result.nodes
        if spent + result.nodes * growth > node_budget:
            break
    return result


_MIN_RATE_NODES = 2000  # searches smaller than this say more about call overhead than about speed


def _deepen_clock(search: Search, budget: Budget) -> SearchResult:
    start = time.perf_counter()
    deadline = start + budget.ms_per_move / 1e3
    result = search(1, 0)  # depth 1 always finishes: a move is always available
    previous_nodes = result.nodes
    for depth in range(2, budget.max_depth + 1):
        if result.best == NO_MOVE:
            break
        tick = time.perf_counter()
        remaining_ms = 1e3 * (deadline - tick)
        if remaining_ms <= 0:
            break
        limit = max(1, int(remaining_ms * budget.nodes_per_ms))
        attempt = search(depth, limit)
        took_ms = 1e3 * (time.perf_counter() - tick)
        if attempt.nodes >= _MIN_RATE_NODES and took_ms > 0:  # running estimate of the node rate
            budget.nodes_per_ms = 0.7 * budget.nodes_per_ms + 0.3 * attempt.nodes / took_ms
        if not attempt.complete:
            break
        if attempt.nodes == previous_nodes:  # the cutoff stops every branch: deeper is the same search
            result = attempt
            break
        result, previous_nodes = attempt, attempt.nodes
    return result
