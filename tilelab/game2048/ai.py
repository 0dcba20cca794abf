"""Players for 2048, all of one shape: ``player(board) -> Direction``; and seeded, recorded games.

- :class:`RandomPlayer` -- a uniformly random legal move (seeded);
- :class:`GreedyPlayer` -- the move with the best immediate score;
- :class:`CornerPlayer` -- the classic human strategy: keep the big tile in a corner;
- :class:`MonteCarloPlayer` -- random games played out after each move, the best average wins (seeded);
- :class:`Expectimax` -- a search over our moves and the game's spawns (chance nodes weighted by
  their probabilities) with a heuristic evaluation, a probability cutoff and a transposition table.

The readable expectimax (:func:`chance_value`, :func:`best_value`, :func:`expectimax_values`) works on
``Board`` values with the readable engine, for any board size: it is the one the lesson builds by hand.
:class:`Expectimax` runs the same recursion on the bitboard (``tilelab.game2048.expectimax``).

:func:`~tilelab.game2048.records.play_game` plays one seeded game and returns a
:class:`~tilelab.game2048.records.GameRecord` (score, max tile, moves, each move's thinking time, the directions
and spawns), which saves to JSON and replays exactly; they live in :mod:`tilelab.game2048.records`.

>>> from tilelab.game2048.records import GameRecord, play_game, replay
>>> record = play_game(CornerPlayer(), rng=1)
>>> record.score, record.max_tile, record.moves_played
(3560, 256, 304)
>>> replay(GameRecord.from_json(record.to_json()))[-1] == record.final_board
True
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable, Protocol, Sequence

import numpy as np

from tilelab.inputs import as_float
from tilelab.jit import njit
from tilelab.randomness import RngLike, as_generator
from tilelab.game2048.fast.bitrows import DIRECTION_NAMES, OVERFLOW, SIZE, Bits, I64Array, U64Array, row_tables
from tilelab.game2048.fast.bitboard import to_bitboard
from tilelab.game2048.fast.bitrows import MAX_TILE as BITBOARD_MAX_TILE
from tilelab.game2048.fast.kernels import LOST, NO_MOVE, F64Array
from tilelab.game2048.fast.bitrows import U64, apply_move
from tilelab.game2048.fast.bitboard import random_playout, seed_state, spawn_xorshift
from tilelab.game2048.board import DEFAULT_P_FOUR, Board, Direction
from tilelab.game2048.rules import legal_moves, play
from tilelab.game2048.chance import spawn_outcomes
from tilelab.game2048.stopping import check_deadline, over_node_limit, past_deadline
from tilelab.game2048.expectimax import (
    DEFAULT_WEIGHTS, MAX_NODES, NODES_PER_MS, Budget, HeuristicWeights, SearchResult, SearchTables,
    check_search_settings, deepen, row_terms, search_bits,
)

__all__ = [
    "RandomPlayer", "GreedyPlayer", "CornerPlayer", "MonteCarloPlayer", "Expectimax", "Thought",
    "evaluate", "chance_value", "best_value", "expectimax_values", "readable_search", "SearchObserver",
]


_CODE_TO_DIRECTION = tuple(Direction[name] for name in DIRECTION_NAMES)  # bitboard code -> Direction


def _legal_or_raise(board: Board) -> list[Direction]:
    legal = legal_moves(board)
    if not legal:
        raise ValueError("the game is over: no move changes this board, so there is nothing to choose")
    return legal


# ---------------------------------------------------------------------------------- simple players
class RandomPlayer:
    """A uniformly random legal move; seeded (``rng``), so the same seed plays the same game.

    >>> b = Board.parse("2 4\\n. 8")
    >>> RandomPlayer(rng=0)(b) in legal_moves(b)
    True
    """

    name = "random"

    def __init__(self, *, rng: RngLike = None) -> None:
        self.rng = as_generator(rng)

    def __call__(self, board: Board) -> Direction:
        legal = _legal_or_raise(board)
        return legal[int(self.rng.integers(len(legal)))]


class GreedyPlayer:
    """The move with the best immediate merge score; ties go to the first of ``prefer``.

    >>> GreedyPlayer()(Board.parse("2 2 4 4\\n. . . .\\n. . . 8\\n. . . 8"))   # 16 up or down, 12 left
    Direction.DOWN
    """

    name = "greedy"

    def __init__(self, prefer: Sequence[Direction | str] = ("left", "down", "right", "up")) -> None:
        self.prefer = tuple(Direction.parse(d) for d in prefer)
        if sorted(d.name for d in self.prefer) != sorted(d.name for d in Direction):
            raise ValueError(f"prefer must list each of the four directions once, got {list(prefer)!r}")

    def __call__(self, board: Board) -> Direction:
        legal = set(_legal_or_raise(board))
        options = [d for d in self.prefer if d in legal]
        return max(options, key=lambda d: (play(board, d).score, -options.index(d)))


_CORNER_ORDERS = {
    "bottom-left": ("down", "left", "right", "up"),
    "bottom-right": ("down", "right", "left", "up"),
    "top-left": ("up", "left", "right", "down"),
    "top-right": ("up", "right", "left", "down"),
}


class CornerPlayer:
    """The corner strategy: always the first legal move of a fixed order that pins one corner.

    For the bottom-left corner: down if it moves anything, else left, else right, and up only when
    nothing else moves (up pulls the big tile out of its corner).

    >>> CornerPlayer()(Board.parse("2 . . .\\n. . . .\\n. . . .\\n. . . ."))
    Direction.DOWN
    """

    name = "corner"

    def __init__(self, corner: str = "bottom-left") -> None:
        if corner not in _CORNER_ORDERS:
            raise ValueError(f"unknown corner {corner!r}; choose one of {sorted(_CORNER_ORDERS)}")
        self.corner = corner
        self.order = tuple(Direction.parse(d) for d in _CORNER_ORDERS[corner])

    def __call__(self, board: Board) -> Direction:
        legal = set(_legal_or_raise(board))
        return next(d for d in self.order if d in legal)


# ---------------------------------------------------------------------------------- Monte-Carlo
@njit
def _rollout_means(bits: Bits, rollouts: int, max_moves: int, state: Bits, p_four: float, left: U64Array,
                   right: U64Array, score_table: I64Array, means: F64Array) -> Bits:
    """For each move: its score plus the mean score of random playouts after it (NaN if illegal)."""
    bits = U64(bits)
    state = U64(state)
    for code in range(4):
        moved, gained = apply_move(bits, code, left, right, score_table)
        if gained == OVERFLOW or moved == bits:
            means[code] = np.nan
            continue
        total = 0.0
        for _ in range(rollouts):
            child, state = spawn_xorshift(moved, state, p_four)
            final, score, played, state = random_playout(child, state, p_four, max_moves, left, right, score_table)
            total += score
        means[code] = gained + total / rollouts
    return state


MAX_ROLLOUTS = 10_000  # per legal move: about a second a move on 4x4


class MonteCarloPlayer:
    """Try each move, play ``rollouts`` random games after it, pick the best average final score.

    Pure Monte-Carlo: no evaluation function at all, only random play (in the fast engine), so its
    strength comes from the number of rollouts. Seeded (``rng``): same seed,
    same choices. 4x4 boards only.
    """

    name = "monte-carlo"

    def __init__(self, rollouts: int = 40, max_rollout_moves: int = 10_000, p_four: float = DEFAULT_P_FOUR, *,
                 rng: RngLike = None) -> None:
        from tilelab.inputs import as_float, as_int

        self.rollouts = as_int(rollouts, "rollouts", minimum=1, maximum=MAX_ROLLOUTS)
        self.max_rollout_moves = as_int(max_rollout_moves, "max_rollout_moves", minimum=1, maximum=100_000)
        self.p_four = as_float(p_four, "p_four", minimum=0.0, maximum=1.0)
        self.rng = as_generator(rng)
        self.last_values: dict[Direction, float] = {}

    def __call__(self, board: Board) -> Direction:
        _legal_or_raise(board)
        bits = to_bitboard(board)
        t = row_tables()
        means = np.full(4, np.nan)
        _rollout_means(U64(bits), self.rollouts, self.max_rollout_moves, seed_state(self.rng), self.p_four,
                       t.left, t.right, t.score, means)
        self.last_values = {_CODE_TO_DIRECTION[c]: float(v) for c, v in enumerate(means) if not math.isnan(v)}
        return max(self.last_values, key=self.last_values.__getitem__)


# ---------------------------------------------------------------------------------- readable expectimax
def evaluate(board: Board, weights: HeuristicWeights = DEFAULT_WEIGHTS) -> float:
    """The heuristic value of a board of any size: the line score summed over rows and columns.

    >>> evaluate(Board.parse("16 8 4 2\\n. . . .\\n. . . .\\n. . . .")) > evaluate(Board.parse("2 16 4 8\\n. . . .\\n. . . .\\n. . . ."))
    True
    """
    rows = board.grid
    known = _LINE_VALUES.setdefault(weights, {})
    total = 0.0
    for line in rows + tuple(zip(*rows)):  # rows, then columns
        value = known.get(line)
        if value is None:
            if len(known) > 1 << 18:  # a long game on a big board: start the memo afresh
                known.clear()
            value = known[line] = _line_value(tuple(v.bit_length() - 1 if v else 0 for v in line), weights)
        total += value
    return total


_LINE_VALUES: dict[HeuristicWeights, dict[tuple[int, ...], float]] = {}  # line of tiles -> its share, per weights


def _line_value(exponents: tuple[int, ...], weights: HeuristicWeights) -> float:
    """One row's or column's share of :func:`evaluate`, from its tile exponents (0 = empty)."""
    t = row_terms(exponents, weights.mono_power, weights.sum_power)
    return (weights.alive / (2 * len(exponents)) + weights.empty * t["empty"] + weights.merges * t["merges"]
            - weights.monotonicity * t["monotonicity"] - weights.smoothness * t["smoothness"]
            - weights.sum * t["sum"])


Evaluate = Callable[[Board], float]


class SearchObserver(Protocol):
    """Watches the readable expectimax: each node as the search enters it, and its value as it leaves it.

    ``kind`` is ``"chance"`` (the board after one of our moves; ``label`` the direction, probability 1),
    ``"max"`` (a spawned board where we move next) or ``"leaf"`` (a spawned board the evaluation scores);
    a spawn's ``label`` reads ``"2 at (0, 1)"``. Calls nest: every ``enter`` is closed by one ``leave``,
    children before their parent. :func:`tilelab.game2048.tree.expectimax_tree` records the whole tree
    this way. Observing changes no value.
    """

    def enter(self, kind: str, board: Board, label: str, probability: float) -> None: ...

    def leave(self, value: float) -> None: ...


def chance_value(afterstate: Board, depth: int, evaluate: Evaluate = evaluate, p_four: float = DEFAULT_P_FOUR, *,
                 observer: SearchObserver | None = None) -> float:
    """Expected value of the board right after our move: average over every spawn, by its probability.

    With ``depth == 1`` each spawned board is scored by ``evaluate``; deeper, by :func:`best_value`.
    An ``observer`` (:class:`SearchObserver`) is told every node entered and every value found.

    >>> after = Board.parse("2 .\\n4 8")          # one empty cell: a 2 (p 0.9) or a 4 (p 0.1)
    >>> chance_value(after, 1, evaluate=lambda b: b[0, 1], p_four=0.1)   # 0.9 * 2 + 0.1 * 4
    2.2
    """
    total = 0.0
    for spawned, p in spawn_outcomes(afterstate, p_four):
        child = afterstate.with_tile(spawned.cell, spawned.value)
        if observer is not None:
            observer.enter("leaf" if depth <= 1 else "max", child, f"{spawned.value} at {spawned.cell}", p)
        value = evaluate(child) if depth <= 1 else best_value(child, depth - 1, evaluate, p_four, observer=observer)
        if observer is not None:
            observer.leave(value)
        total += p * value
    return total


def _move_value(board: Board, direction: Direction, depth: int, evaluate: Evaluate, p_four: float,
                observer: SearchObserver | None) -> float:
    """:func:`chance_value` of the board one move leaves, the observer told of that chance node."""
    after = play(board, direction).board
    if observer is None:
        return chance_value(after, depth, evaluate, p_four)
    observer.enter("chance", after, direction.value, 1.0)
    value = chance_value(after, depth, evaluate, p_four, observer=observer)
    observer.leave(value)
    return value


def best_value(board: Board, depth: int, evaluate: Evaluate = evaluate, p_four: float = DEFAULT_P_FOUR, *,
               observer: SearchObserver | None = None) -> float:
    """Value of a board where we move next: the best move's chance value (0 if the game is over)."""
    values = [_move_value(board, d, depth, evaluate, p_four, observer) for d in legal_moves(board)]
    return max(values, default=LOST)


def expectimax_values(board: Board, depth: int, evaluate: Evaluate = evaluate, p_four: float = DEFAULT_P_FOUR, *,
                      observer: SearchObserver | None = None) -> dict[Direction, float]:
    """Each legal move's expected value, looking ``depth`` of our moves ahead (plain recursion)."""
    return {d: _move_value(board, d, depth, evaluate, p_four, observer) for d in legal_moves(board)}


# ---------------------------------------------------------------------------------- fast expectimax player
# NODES_PER_MS (nodes searched per ms on the 2-core reference machine) lives with the budgets in expectimax.py


@dataclass(frozen=True)
class Thought:
    """What the search saw for one decision (for a "thinking" panel)."""

    direction: Direction | None
    values: dict[Direction, float]  # expected value of each legal move
    depth: int
    nodes: int
    table_hits: int
    ms: float


class Expectimax:
    """Expectimax player: our move (max), then the spawn (chance), ``depth`` of our moves deep.

    Give one budget (see :class:`tilelab.game2048.expectimax.Budget`):

    - ``nodes_per_move=N`` (the default, 150,000): deepen one level at a time while the next level is
      predicted to fit in ``N`` searched nodes. Deterministic: a decision depends on the board only,
      so the same seed plays the same game on any machine. (On a quiet 2-core machine 150,000 nodes
      take about 4-6 ms, *not* 50 ms.)
    - ``ms_per_move=T``: a real wall-clock budget -- iterative deepening until ``T`` milliseconds
      have passed. A level predicted not to finish is not started; the compiled search looks at the
      clock every few thousand nodes and drops a level the deadline stops, so the move comes from the
      deepest finished level and the call returns within about ``T`` even on a busy machine. Not
      reproducible.
    - ``depth=D``: exactly ``D`` of our moves deep (unless that needs more than ``max_nodes`` nodes:
      then the deepest level that fits, so every call ends in bounded time).

    ``cutoff`` stops expanding branches less likely than that (cumulative probability); the
    transposition table has ``2**table_bits`` entries. ``nodes_per_ms`` is the wall-clock mode's first
    guess of the machine's speed.

    Boards other than 4x4 use the readable search (plain Python, about 1,000 times slower), under the
    same kind of budget, strictly: every level, the first included, stops at the node budget or the
    deadline, and if not even one move ahead fits, each move is judged by the evaluation of the board it
    leaves (depth 0). Its nodes are evaluated boards. With no budget given it gets
    :attr:`READABLE_NODES` (a few tens of ms a move on 8x8); ``max_nodes`` for it defaults to
    :attr:`READABLE_MAX_NODES`.

    >>> ai = Expectimax(depth=2)
    >>> ai(Board.parse("2 2 . .\\n. . . .\\n. . . .\\n. . . 4"))
    Direction.DOWN
    >>> sorted(d.name for d in ai.last.values)
    ['DOWN', 'LEFT', 'RIGHT', 'UP']
    >>> Expectimax(nodes_per_move=150_000)
    Expectimax(nodes_per_move=150000, cutoff=0.0001)
    """

    name = "expectimax"
    DEFAULT_NODES = 150_000
    READABLE_NODES = 1_500  # default node budget of the readable search (boards other than 4x4)
    READABLE_MAX_NODES = 30_000  # most boards the readable search evaluates for one move (about a second)

    def __init__(self, ms_per_move: float | None = None, *, nodes_per_move: int | None = None,
                 depth: int | None = None, max_depth: int = 8, cutoff: float = 1e-4,
                 weights: HeuristicWeights = DEFAULT_WEIGHTS, p_four: float = DEFAULT_P_FOUR,
                 nodes_per_ms: float = NODES_PER_MS, table_bits: int = 20, max_nodes: int | None = None) -> None:
        no_budget = ms_per_move is None and nodes_per_move is None and depth is None
        if no_budget:
            nodes_per_move = self.DEFAULT_NODES
        _, cutoff, p_four = check_search_settings(1, cutoff, p_four)
        if not isinstance(weights, HeuristicWeights):
            raise TypeError(f"weights must be HeuristicWeights, not {type(weights).__name__}")
        nodes_per_ms = as_float(nodes_per_ms, "nodes_per_ms", minimum=1e-3)
        self.budget = Budget(depth=depth, nodes_per_move=nodes_per_move, ms_per_move=ms_per_move,
                             max_depth=max_depth, nodes_per_ms=nodes_per_ms,
                             max_nodes=MAX_NODES if max_nodes is None else max_nodes)
        self.readable_budget = Budget(
            depth=depth, nodes_per_move=self.READABLE_NODES if no_budget else nodes_per_move,
            ms_per_move=ms_per_move, max_depth=max_depth,
            max_nodes=self.READABLE_MAX_NODES if max_nodes is None else max_nodes)
        self.ms_per_move = self.budget.ms_per_move
        self.nodes_per_move = self.budget.nodes_per_move
        self.depth = self.budget.depth
        self.max_depth = self.budget.max_depth
        self.cutoff = cutoff
        self.weights = weights
        self.p_four = p_four
        self.tables = SearchTables(weights, table_bits)
        self.last: Thought | None = None

    def __repr__(self) -> str:
        return f"Expectimax({self.budget.describe()}, cutoff={self.cutoff:g})"

    def __call__(self, board: Board) -> Direction:
        thought = self.think(board)
        if thought.direction is None:
            raise ValueError("the game is over: no move changes this board, so there is nothing to choose")
        return thought.direction

    def think(self, board: Board) -> Thought:
        """Search ``board``; return the chosen direction and every legal move's expected value."""
        start = time.perf_counter()
        if board.size != SIZE or not _bitboard_plays(board):
            result = self._deepen_readable(board, start)
        else:
            result = self._deepen(to_bitboard(board), start)
        values = {_CODE_TO_DIRECTION[c]: v for c, v in enumerate(result.values) if not math.isnan(v)}
        direction = None if result.best == NO_MOVE else _CODE_TO_DIRECTION[result.best]
        self.last = Thought(direction, values, result.depth, result.nodes, result.table_hits,
                            1e3 * (time.perf_counter() - start))
        return self.last

    def _deepen(self, bits: int, start: float | None = None) -> SearchResult:
        def run(depth: int, limit: int, deadline: float | None = None) -> SearchResult:
            return search_bits(bits, depth, self.tables, p_four=self.p_four, cutoff=self.cutoff, node_limit=limit,
                               deadline=deadline)
        return deepen(run, self.budget, start=start)

    def _deepen_readable(self, board: Board, start: float) -> SearchResult:
        def run(depth: int, limit: int, deadline: float | None = None) -> SearchResult:
            return readable_search(board, depth, self.weights, self.p_four, node_limit=limit, deadline=deadline)
        result = deepen(run, self.readable_budget, start=start, strict=True)
        return result if result.complete else readable_search(board, 0, self.weights, self.p_four)


def _bitboard_plays(board: Board) -> bool:
    """True when the bitboard search plays ``board`` by the game's rules: 4-bit cells hold tiles up to 32768,
    and two 32768 tiles (which would merge into 65536) are past it; such boards, reachable on 4x4, go to the
    readable search."""
    tiles = [v for row in board.grid for v in row]
    return max(tiles) <= BITBOARD_MAX_TILE and tiles.count(BITBOARD_MAX_TILE) < 2


class _OutOfBudget(Exception):
    """Raised inside the readable search when its node limit or deadline is passed."""


def readable_search(board: Board, depth: int, weights: HeuristicWeights = DEFAULT_WEIGHTS, p_four: float = DEFAULT_P_FOUR, *,
                    node_limit: int = 0, deadline: float | None = None) -> SearchResult:
    """:func:`expectimax_values` as a :class:`SearchResult`, stopped by a node limit or a deadline.

    Its nodes are evaluated boards: past ``node_limit`` of them, or once the clock passes ``deadline``
    (a perf_counter time, read at every evaluation), it stops and says so (``complete=False``).
    ``depth=0`` scores each move by the evaluation of the board it leaves (at most four evaluations).

    >>> board = Board.parse("2 2 .\\n. . .\\n. . 4")
    >>> r = readable_search(board, 1)
    >>> r.complete, r.depth, r.nodes, readable_search(board, 2, node_limit=10).complete
    (True, 1, 52, False)
    """
    tick = time.perf_counter()
    count = [0]
    stop_at = check_deadline(deadline)

    def metered(b: Board) -> float:
        count[0] += 1
        if over_node_limit(count[0], node_limit) or past_deadline(time.perf_counter(), stop_at):
            raise _OutOfBudget
        return evaluate(b, weights)

    try:
        if depth == 0:
            values = {d: evaluate(play(board, d).board, weights) for d in legal_moves(board)}
            count[0] = len(values)
        else:
            values = expectimax_values(board, depth, metered, p_four)
    except _OutOfBudget:
        return SearchResult(NO_MOVE, (math.nan,) * 4, depth, count[0] - 1, 0, False, time.perf_counter() - tick)
    by_code = tuple(values.get(d, math.nan) for d in _CODE_TO_DIRECTION)
    best = max(values, key=values.__getitem__) if values else None
    code = NO_MOVE if best is None else _CODE_TO_DIRECTION.index(best)
    return SearchResult(code, by_code, depth, count[0], 0, True, time.perf_counter() - tick)
