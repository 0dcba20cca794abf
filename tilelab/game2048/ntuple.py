"""Learning to play 2048: n-tuple networks trained by temporal-difference (TD) learning on afterstates.

**Afterstate**: the board right after our move and *before* the random spawn. Its value ``V(after)`` is
"how many more points will come from here", and it is all a player needs: pick the move with the
best ``reward + V(afterstate)``. No model of the spawn is needed to choose (Szubert & Jaskowski 2014).

**n-tuple network**: ``V`` is a sum of table lookups. A *tuple* is a fixed list of cells (e.g. the
bottom row); the exponents found in those cells form an index into that tuple's weight table
(``16**len`` entries, one per possible content). Every tuple is also read in the 8 symmetric positions
of the board (4 rotations x mirror) sharing one table, so the net learns "a 2x2 square in a corner"
once, for every corner. Cell ``i`` is ``(row, col) = divmod(i, 4)``, as in the bitboard.

**TD(0) on afterstates**: play greedily on the current ``V``; after each move, nudge the previous
afterstate's value toward ``reward + V(this afterstate)`` (the value one move later):
``V(prev) += alpha * (reward + V(after) - V(prev))``; at game over, toward 0. Each of the network's
``F`` looked-up weights moves by ``alpha * error / F``. **Temporal coherence** (TC, Jaskowski 2018)
gives every weight its own step: ``alpha * |E| / A`` where ``E`` sums the weight's past errors and
``A`` their sizes -- weights whose errors keep the same sign learn fast, noisy ones slow down.

Two implementations, tested to agree exactly: the readable reference (:func:`value_ref`,
:func:`td_update_ref`, :func:`learn_game_ref`) and the numba fast path on the bitboard
(:meth:`NTupleNetwork.value_bits`, :meth:`NTupleNetwork.train`). Training is seeded, deterministic
and resumable (the random state is saved with the weights): same seed, same weights.

Weights are saved as ``.npz`` (never pickled) with a JSON header: format version, tuple shapes,
training state and a SHA-256 of the weights; a damaged file raises ``ValueError``. The pure engine
imports only the standard library and numpy; the progress bar (tqdm) is loaded only when asked for.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import math
import os
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from tilelab._checks import _short, as_int, is_int
from tilelab._files import DamagedFileError, header_field, one_line, read_npz
from tilelab._jit import njit
from tilelab._random import as_generator
from tilelab.game2048.bitboard import (
    CELL_BITS, CELL_MASK, CELLS, DIRECTION_NAMES, OVERFLOW, SIZE, SPAWN_FOUR, SPAWN_TWO, _count_empty,
    _max_exponent, _move, _seed_state, _spawn_random, _U, row_tables, to_bitboard,
)
from tilelab.game2048.ai import Thought
from tilelab.game2048.core import Board, Direction
from tilelab.game2048.expectimax import (
    COUNTERS, NO_MOVE, Budget, SearchResult, _check_deadline, _check_limit, _count_node, _slot, check_search_settings,
    deepen,
)

__all__ = [
    "NTupleNetwork", "CLASSROOM_TUPLES", "WU_YEH_TUPLES", "SYMMETRIES", "symmetric_tuples", "value_ref",
    "feature_indices_ref", "td_update_ref", "learn_game_ref", "CurvePoint", "Evaluation", "TDPlayer", "TDExpectimax",
    "cache_dir", "cached_network", "FORMAT", "FORMAT_VERSION", "lesson_network", "LESSON_NET",
]

FORMAT = "tilelab.game2048.ntuple"
FORMAT_VERSION = 1

# Szubert & Jaskowski's classroom net: outer line, inner line, corner / edge / centre 2x2 squares.
CLASSROOM_TUPLES = ((0, 1, 2, 3), (4, 5, 6, 7), (0, 1, 4, 5), (1, 2, 5, 6), (5, 6, 9, 10))
# Wu, Yeh et al.: four 6-tuples (two L-shaped lines, two 2x3 rectangles).
WU_YEH_TUPLES = ((0, 1, 2, 3, 4, 5), (4, 5, 6, 7, 8, 9), (0, 1, 2, 4, 5, 6), (4, 5, 6, 8, 9, 10))
MAX_TUPLE = 8  # 16**8 weights = 16 GiB in float32: longer tuples cannot fit in memory anyway


def _rotate(cell: int) -> int:
    r, c = divmod(cell, SIZE)
    return c * SIZE + (SIZE - 1 - r)


def _mirror(cell: int) -> int:
    r, c = divmod(cell, SIZE)
    return r * SIZE + (SIZE - 1 - c)


def _symmetries() -> tuple[tuple[int, ...], ...]:
    maps = []
    perm = tuple(range(CELLS))
    for _ in range(4):
        maps.append(perm)
        maps.append(tuple(_mirror(p) for p in perm))
        perm = tuple(_rotate(p) for p in perm)
    return tuple(maps)


SYMMETRIES = _symmetries()  # 8 maps cell -> cell: the rotations and reflections of the square


def symmetric_tuples(cells: Sequence[int]) -> list[tuple[int, ...]]:
    """The 8 placements of one tuple under the board's symmetries (duplicates kept, order fixed).

    >>> symmetric_tuples((0, 1, 2, 3))[:3]   # top row, its mirror, then the right column
    [(0, 1, 2, 3), (3, 2, 1, 0), (3, 7, 11, 15)]
    """
    return [tuple(sym[c] for c in cells) for sym in SYMMETRIES]


def _check_tuples(tuples: Any) -> tuple[tuple[int, ...], ...]:
    try:
        out = tuple(tuple(as_int(c, "a tuple's cell") for c in t) for t in tuples)
    except TypeError:
        raise TypeError("tuples must be a list of cell lists of ints, e.g. [(0, 1, 2, 3), (4, 5, 6, 7)]") from None
    if not out:
        raise ValueError("an n-tuple network needs at least one tuple")
    for t in out:
        if not 1 <= len(t) <= MAX_TUPLE:
            raise ValueError(f"tuple {t} has {len(t)} cells; use 1..{MAX_TUPLE} (each adds a factor 16 of memory)")
        if len(set(t)) != len(t) or not all(0 <= c < CELLS for c in t):
            raise ValueError(f"tuple {t} must list distinct cells 0..15 (cell = 4 * row + col)")
    return out


# ---------------------------------------------------------------------------------- readable reference
def _grid(board: Board | int | Sequence[Sequence[int]]) -> list[int]:
    """16 exponents, row by row, from a Board, a bitboard or a 4x4 grid of exponents."""
    if isinstance(board, Board):
        if board.size != SIZE:
            raise ValueError(f"n-tuple networks play 4x4 boards, got {board.size}x{board.size}")
        return [v.bit_length() - 1 if v else 0 for row in board.rows for v in row]
    if isinstance(board, (int, np.integer)) and not isinstance(board, bool):
        return [(int(board) >> (CELL_BITS * i)) & CELL_MASK for i in range(CELLS)]
    cells = [int(e) for row in board for e in row]
    if len(cells) != CELLS:
        raise ValueError("a grid of exponents must be 4x4")
    return cells


def feature_indices_ref(net: "NTupleNetwork", board: Any) -> list[int]:
    """Which weights the board looks up: one per tuple and symmetry (index into ``net.weights``).

    >>> net = NTupleNetwork([(0, 1)])
    >>> feature_indices_ref(net, [[1, 2, 0, 0], [0] * 4, [0] * 4, [0] * 4])   # (0, 1) reads 1 + 2*16 = 33
    [33, 0, 0, 1, 0, 0, 0, 0]
    """
    grid = _grid(board)
    out = []
    for t, cells in enumerate(net.tuples):
        for placed in symmetric_tuples(cells):
            index = sum(grid[c] << (CELL_BITS * k) for k, c in enumerate(placed))
            out.append(int(net.offsets[t]) + index)
    return out


def value_ref(net: "NTupleNetwork", board: Any) -> float:
    """The learned value of a board: the sum of its looked-up weights (readable version).

    >>> net = NTupleNetwork([(0, 1)]); net.weights[:] = 1.0
    >>> value_ref(net, Board.parse("2 . . .\\n. . . .\\n. . . .\\n. . . ."))   # 8 placements
    8.0
    """
    total = 0.0
    for i in feature_indices_ref(net, board):
        total += float(net.weights[i])
    return total


def td_update_ref(net: "NTupleNetwork", after: Any, target: float, alpha: float) -> float:
    """Move ``V(after)`` toward ``target``: each looked-up weight by ``alpha * error / F``; returns the error.

    When the ``F`` lookups hit ``F`` different weights, ``V`` moves exactly ``alpha`` of the way; a
    weight looked up twice (e.g. two empty placements) moves twice.

    >>> net = NTupleNetwork([(0, 1)])          # corner + neighbour, in its 8 placements
    >>> board = [[1, 2, 3, 4], [5, 0, 0, 6], [7, 0, 0, 8], [9, 10, 11, 12]]   # 8 different pairs
    >>> td_update_ref(net, board, 8.0, alpha=0.5)   # V was 0: error 8
    8.0
    >>> value_ref(net, board)                        # halfway to the target
    4.0
    """
    indices = feature_indices_ref(net, after)
    error = target - value_ref(net, after)
    step = alpha * error / len(indices)
    for i in indices:
        net.weights[i] = np.float32(float(net.weights[i]) + step)
    return error


def learn_game_ref(net: "NTupleNetwork", state: int, alpha: float = 0.1, p_four: float = 0.1) -> tuple[int, int, int]:
    """Play one game greedily on ``V`` and learn from it by TD(0) (readable); returns (score, max exponent, state).

    Spawns use the fast engine's seeded xorshift ``state``, so this game matches the fast trainer's.
    """
    t = row_tables()
    state = _U(state)
    bits, state = _spawn_random(_U(0), state, p_four)
    bits, state = _spawn_random(_U(bits), _U(state), p_four)
    previous, score = None, 0
    while True:
        best, best_value, best_reward = None, -math.inf, 0
        for code in range(4):
            moved, reward = _move(_U(bits), code, t.left, t.right, t.score)
            if reward == OVERFLOW or moved == bits:
                continue
            v = reward + value_ref(net, int(moved))
            if v > best_value:
                best, best_value, best_reward = int(moved), v, int(reward)
        if best is None:  # game over: the last afterstate led nowhere, its value is 0
            if previous is not None:
                td_update_ref(net, previous, 0.0, alpha)
            return score, int(_max_exponent(_U(bits))), int(state)
        if previous is not None:
            td_update_ref(net, previous, best_value, alpha)
        previous, score = best, score + best_reward
        bits, state = _spawn_random(_U(best), _U(state), p_four)


# ---------------------------------------------------------------------------------- fast path (numba)
@njit
def _index(bits, cells, lens, f):
    bits = _U(bits)
    index = 0
    for k in range(lens[f]):
        exponent = int((bits >> _U(CELL_BITS * cells[f, k])) & _U(CELL_MASK))
        index |= exponent << (CELL_BITS * k)
    return index


@njit
def _value(bits, weights, cells, lens, offs):
    total = 0.0
    for f in range(cells.shape[0]):
        total += weights[offs[f] + _index(bits, cells, lens, f)]
    return total


@njit
def _update(bits, step, weights, cells, lens, offs):
    for f in range(cells.shape[0]):
        i = offs[f] + _index(bits, cells, lens, f)
        weights[i] = weights[i] + step


@njit
def _update_tc(bits, error, alpha, weights, e_sum, a_sum, cells, lens, offs):
    n = cells.shape[0]
    for f in range(n):
        i = offs[f] + _index(bits, cells, lens, f)
        rate = 1.0 if a_sum[i] == 0.0 else abs(e_sum[i]) / a_sum[i]
        weights[i] = weights[i] + alpha * rate * error / n
        e_sum[i] = e_sum[i] + error
        a_sum[i] = a_sum[i] + abs(error)


@njit
def _learn(previous, target, alpha, tc, weights, e_sum, a_sum, cells, lens, offs):
    error = target - _value(previous, weights, cells, lens, offs)
    if tc:
        _update_tc(previous, error, alpha, weights, e_sum, a_sum, cells, lens, offs)
    else:
        _update(previous, alpha * error / cells.shape[0], weights, cells, lens, offs)


@njit
def _train_games(games, state, alpha, tc, p_four, weights, e_sum, a_sum, cells, lens, offs, left, right,
                 score_table, scores, max_exps, moves):
    """TD(0) (or TC) self-play for ``games`` games; per-game results into the arrays; returns the state."""
    state = _U(state)
    for g in range(games):
        bits, state = _spawn_random(_U(0), state, p_four)
        bits, state = _spawn_random(bits, state, p_four)
        previous = _U(0)
        have_previous = False
        score = 0
        played = 0
        while True:
            best = _U(0)
            best_value = -np.inf
            best_reward = 0
            for code in range(4):
                moved, reward = _move(bits, code, left, right, score_table)
                if reward == OVERFLOW or moved == bits:
                    continue
                v = reward + _value(moved, weights, cells, lens, offs)
                if v > best_value:
                    best, best_value, best_reward = moved, v, reward
            if best_value == -np.inf:
                if have_previous:
                    _learn(previous, 0.0, alpha, tc, weights, e_sum, a_sum, cells, lens, offs)
                break
            if have_previous:
                _learn(previous, best_value, alpha, tc, weights, e_sum, a_sum, cells, lens, offs)
            previous = best
            have_previous = True
            score += best_reward
            played += 1
            bits, state = _spawn_random(best, state, p_four)
        scores[g] = score
        max_exps[g] = _max_exponent(bits)
        moves[g] = played
    return state


@njit
def _greedy_values(bits, weights, cells, lens, offs, left, right, score_table, values):
    bits = _U(bits)
    best = -1
    for code in range(4):
        moved, reward = _move(bits, code, left, right, score_table)
        if reward == OVERFLOW or moved == bits:
            values[code] = np.nan
            continue
        values[code] = reward + _value(moved, weights, cells, lens, offs)
        if best == -1 or values[code] > values[best]:
            best = code
    return best


@njit
def _batch_values(boards, weights, cells, lens, offs, out):
    for i in range(boards.size):
        out[i] = _value(boards[i], weights, cells, lens, offs)


# ---------------------------------------------------------------------------------- the network
@dataclass(frozen=True)
class CurvePoint:
    """Learning-curve data for one block of training games."""

    games: int  # games trained when this block ended
    block: int  # games in this block
    mean_score: float
    reach_2048: float  # fraction of the block's games that made 2048
    max_tile: int
    seconds: float


@dataclass(frozen=True)
class Evaluation:
    """Frozen-weight 1-ply games (:meth:`NTupleNetwork.evaluate`): scores and how often each tile was reached."""

    games: int
    mean_score: float
    median_score: float
    reach: dict[int, float]  # tile (2 .. 32768) -> fraction of games that made it
    moves: int
    seconds: float


class NTupleNetwork:
    """An n-tuple network: ``V(board) = sum of weights[tuple, symmetry, contents]`` (float32 weights).

    >>> net = NTupleNetwork.classroom()
    >>> net.tuples[0], len(net.weights), net.memory_bytes // 1024   # 5 tables of 16**4 weights
    ((0, 1, 2, 3), 327680, 1280)
    >>> net.value(Board.parse("2 . . .\\n. . . .\\n. . . .\\n. . . 2"))   # untrained: every weight 0
    0.0
    """

    def __init__(self, tuples: Iterable[Sequence[int]], weights: np.ndarray | None = None, *, name: str = "") -> None:
        self.tuples = _check_tuples(tuples)
        self.name = name or "custom"
        sizes = [16 ** len(t) for t in self.tuples]
        self.offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        total = int(sum(sizes))
        if weights is None:
            weights = np.zeros(total, dtype=np.float32)
        weights = np.asarray(weights)
        if weights.dtype != np.float32 or weights.shape != (total,):
            raise ValueError(f"weights must be float32 of shape ({total},) for these tuples, "
                             f"got {weights.dtype} {weights.shape}")
        self.weights = weights
        placements = [p for cells in self.tuples for p in symmetric_tuples(cells)]
        width = max(len(t) for t in self.tuples)
        self._cells = np.zeros((len(placements), width), dtype=np.int64)
        for f, p in enumerate(placements):
            self._cells[f, :len(p)] = p
        self._lens = np.array([len(p) for p in placements], dtype=np.int64)
        self._offs = np.repeat(self.offsets, 8)
        self.e_sum: np.ndarray | None = None  # temporal-coherence accumulators (created on first TC use)
        self.a_sum: np.ndarray | None = None
        self.training: dict[str, Any] = {"games": 0, "state": None, "seed": None, "alpha": None, "method": None,
                                         "seconds": 0.0, "curve": []}

    # -------------------------------------------------------------- construction
    @classmethod
    def classroom(cls) -> "NTupleNetwork":
        """Szubert & Jaskowski's 4-tuple net (2 lines + 3 squares, 8 symmetries): 1.25 MiB."""
        return cls(CLASSROOM_TUPLES, name="classroom")

    @classmethod
    def wu_yeh(cls) -> "NTupleNetwork":
        """The 4 x 6-tuple net of Wu, Yeh et al. (67 million weights: 256 MiB in float32)."""
        return cls(WU_YEH_TUPLES, name="wu-yeh-4x6")

    def __repr__(self) -> str:
        return (f"NTupleNetwork({self.name!r}, tuples={len(self.tuples)}, weights={len(self.weights):,}, "
                f"memory={self.memory_bytes / 2**20:.2f} MiB, trained games={self.training['games']:,})")

    @property
    def memory_bytes(self) -> int:
        """Bytes taken by the weights (temporal-coherence training adds two float32 arrays the same size)."""
        return int(self.weights.nbytes)

    @property
    def features(self) -> int:
        """Weights looked up per evaluation: tuples x 8 symmetries."""
        return int(self._cells.shape[0])

    # -------------------------------------------------------------- values
    def value_bits(self, bits: int) -> float:
        """``V`` of a bitboard (fast path)."""
        return float(_value(_U(bits), self.weights, self._cells, self._lens, self._offs))

    def value(self, board: Board | int) -> float:
        """``V`` of a board (a :class:`Board` or a bitboard), via the fast path."""
        return self.value_bits(board if isinstance(board, (int, np.integer)) else to_bitboard(board))

    def values_bits(self, boards: np.ndarray) -> np.ndarray:
        """``V`` of many bitboards at once."""
        boards = np.ascontiguousarray(boards, dtype=np.uint64)
        out = np.zeros(boards.size, dtype=np.float64)
        _batch_values(boards.ravel(), self.weights, self._cells, self._lens, self._offs, out)
        return out

    # -------------------------------------------------------------- training
    def train(self, games: int, *, seed: int | np.random.Generator | None = None, alpha: float = 0.1,
              method: str = "td0", p_four: float = 0.1, block: int = 1000, progress: bool = False,
              on_block: Callable[[CurvePoint], None] | None = None,
              restart_coherence: bool = False) -> list[CurvePoint]:
        """Learn from ``games`` self-play games (TD(0) or ``method="tc"``); returns the new curve points.

        A fresh net takes its random state from ``seed``; a trained net goes on from its saved state
        (``seed`` must then be None), so training 2 x 500 games equals training 1000 at once. Temporal
        coherence also keeps two accumulators per weight (its learning rates); a net loaded without them
        resumes TC only with ``restart_coherence=True`` (every rate back at 1).

        >>> net = NTupleNetwork([(0, 1, 2, 3)])
        >>> points = net.train(20, seed=1, block=10)
        >>> [p.games for p in points], net.training["games"]
        ([10, 20], 20)
        """
        if isinstance(games, bool) or not isinstance(games, int) or games < 0:
            raise ValueError(f"games must be an int >= 0, got {games!r}")
        if isinstance(block, bool) or not isinstance(block, int) or block < 1:
            raise ValueError(f"block must be a positive int, got {block!r}")
        if not (isinstance(alpha, (int, float)) and 0 < alpha <= 1):
            raise ValueError(f"alpha must be a learning rate in (0, 1], got {alpha!r}")
        if method not in ("td0", "tc"):
            raise ValueError(f"method must be 'td0' (plain TD(0)) or 'tc' (temporal coherence), got {method!r}")
        tr = self.training
        if tr["state"] is None:
            tr["state"] = int(_seed_state(as_generator(seed)))
            tr["seed"] = seed if isinstance(seed, int) else None
        elif seed is not None:
            raise ValueError("this net has trained already and resumes from its saved random state; pass seed=None")
        if tr["method"] not in (None, method) or (tr["alpha"] not in (None, alpha)):
            raise ValueError(f"this net was trained with method={tr['method']!r}, alpha={tr['alpha']!r}; "
                             "resume with the same settings")
        tr["method"], tr["alpha"] = method, float(alpha)
        tc = method == "tc"
        if tc and self.e_sum is None and tr["games"] and not restart_coherence:
            raise ValueError("this net was trained by temporal coherence but its accumulators were not saved with "
                             "it, so its per-weight learning rates are lost; save with training_state=True to "
                             "resume exactly, or pass restart_coherence=True to restart every rate at 1")
        if tc and self.e_sum is None:
            self.e_sum = np.zeros_like(self.weights)
            self.a_sum = np.zeros_like(self.weights)
        e_sum = self.e_sum if tc else np.zeros(1, dtype=np.float32)
        a_sum = self.a_sum if tc else np.zeros(1, dtype=np.float32)
        t = row_tables()
        bar = _progress_bar(games, progress)
        points, done = [], 0
        while done < games:
            n = min(block, games - done)
            scores = np.zeros(n, dtype=np.int64)
            max_exps = np.zeros(n, dtype=np.int64)
            moves = np.zeros(n, dtype=np.int64)
            tick = time.perf_counter()
            state = _train_games(n, _U(tr["state"]), float(alpha), tc, float(p_four), self.weights, e_sum, a_sum,
                                 self._cells, self._lens, self._offs, t.left, t.right, t.score, scores, max_exps, moves)
            seconds = time.perf_counter() - tick
            tr["state"] = int(state)
            tr["games"] += n
            tr["seconds"] += seconds
            done += n
            point = CurvePoint(tr["games"], n, float(scores.mean()), float((max_exps >= 11).mean()),
                               int(1 << int(max_exps.max())), seconds)
            tr["curve"].append(point.__dict__.copy())
            points.append(point)
            if bar is not None:
                bar.update(n)
                bar.set_postfix(mean_score=f"{point.mean_score:,.0f}", p2048=f"{point.reach_2048:.0%}")
            if on_block is not None:
                on_block(point)
        if bar is not None:
            bar.close()
        return points

    def evaluate(self, games: int, *, seed: int | np.random.Generator | None, p_four: float = 0.1) -> "Evaluation":
        """Play ``games`` seeded 1-ply greedy games with the weights frozen (nothing is learned).

        The same compiled loop as :meth:`train` with a learning rate of zero, so it is fast enough for
        hundreds of games in a lesson; the net and its training record are left as they were.

        >>> net = NTupleNetwork([(0, 1, 2, 3)])
        >>> before = net.weights.copy()
        >>> result = net.evaluate(20, seed=1)
        >>> result.games, 0 <= result.reach[2048] <= 1, bool((net.weights == before).all()), net.training["games"]
        (20, True, True, 0)
        """
        if isinstance(games, bool) or not isinstance(games, int) or games < 1:
            raise ValueError(f"games must be an int >= 1, got {games!r}")
        if not (isinstance(p_four, (int, float)) and 0 <= p_four <= 1):
            raise ValueError(f"p_four must be a probability in [0, 1], got {p_four!r}")
        t = row_tables()
        scores = np.zeros(games, dtype=np.int64)
        max_exps = np.zeros(games, dtype=np.int64)
        moves = np.zeros(games, dtype=np.int64)
        unused = np.zeros(1, dtype=np.float32)
        tick = time.perf_counter()
        _train_games(games, _U(int(_seed_state(as_generator(seed)))), 0.0, False, float(p_four), self.weights,
                     unused, unused, self._cells, self._lens, self._offs, t.left, t.right, t.score,
                     scores, max_exps, moves)
        seconds = time.perf_counter() - tick
        reach = {1 << e: float((max_exps >= e).mean()) for e in range(1, 16)}
        return Evaluation(games, float(scores.mean()), float(np.median(scores)), reach, int(moves.sum()), seconds)

    @property
    def curve(self) -> list[CurvePoint]:
        """The learning curve so far (one point per training block)."""
        return [CurvePoint(**p) for p in self.training["curve"]]

    # -------------------------------------------------------------- saving
    def header(self) -> dict:
        """The JSON header saved with the weights."""
        return {"format": FORMAT, "version": FORMAT_VERSION, "name": self.name,
                "tuples": [list(t) for t in self.tuples], "dtype": "float32", "size": int(self.weights.size),
                "sha256": _sha256(self.weights), "training": self.training}

    def save(self, path: str | os.PathLike, *, compress: bool = True, training_state: bool | None = None) -> Path:
        """Write weights + header atomically as ``.npz`` (no pickle); returns the path.

        ``training_state`` (default: whenever the net has them) also writes the temporal-coherence
        accumulators, so TC training resumes exactly; ``False`` writes only what a player needs.
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        header = self.header()
        arrays = {"weights": self.weights}
        keep = self.e_sum is not None if training_state is None else training_state
        if keep:
            if self.e_sum is None or self.a_sum is None:
                raise ValueError("this net has no temporal-coherence accumulators to save (it was not trained "
                                 "with method='tc' in this session); save with training_state=False")
            arrays["e_sum"], arrays["a_sum"] = self.e_sum, self.a_sum
            header["tc_sha256"] = _sha256(self.e_sum, self.a_sum)
        arrays["header"] = np.frombuffer(json.dumps(header).encode(), np.uint8)
        tmp = path.with_name(path.name + f".tmp{os.getpid()}")
        with open(tmp, "wb") as handle:
            (np.savez_compressed if compress else np.savez)(handle, **arrays)
        os.replace(tmp, path)
        return path

    @classmethod
    def load(cls, path: str | os.PathLike) -> "NTupleNetwork":
        """Read a saved net; ``ValueError`` if the file is damaged, of another format or fails its SHA-256."""
        path = Path(path)
        header, arrays = read_npz(path, "n-tuple network", _weight_sizes, optional=("e_sum", "a_sum"))
        where = f"n-tuple network {path}"
        fix = "delete it and train again"
        try:
            if header.get("format") != FORMAT or header.get("version") != FORMAT_VERSION or isinstance(
                header.get("version"), bool
            ):
                raise DamagedFileError(f"it is not a {FORMAT} file of version {FORMAT_VERSION} (found "
                                       f"{_short(header.get('format'))} version {_short(header.get('version'))})")
            weights = arrays["weights"]
            if _sha256(weights) != header_field(header, "sha256", str):
                raise DamagedFileError("the weights fail their SHA-256 checksum")
            name = header_field(header, "name", str) if "name" in header else ""
            training = header_field(header, "training", dict) if "training" in header else None
            if training is not None:
                training = _check_training(training)
            net = cls(header["tuples"], weights, name=name)
            if "tc_sha256" in header:
                tc_state = (arrays.get("e_sum"), arrays.get("a_sum"))
                if any(a is None or a.dtype != np.float32 or a.shape != weights.shape for a in tc_state) or \
                        _sha256(*tc_state) != header_field(header, "tc_sha256", str):
                    raise DamagedFileError("the temporal-coherence accumulators fail their SHA-256 checksum")
                net.e_sum, net.a_sum = tc_state
        except DamagedFileError as exc:
            raise DamagedFileError(f"{where} is damaged or not a tilelab file: {one_line(exc)}; {fix}") from None
        except (TypeError, ValueError, KeyError) as exc:
            raise DamagedFileError(f"{where} has a damaged header ({type(exc).__name__}: {one_line(exc)}); {fix}") from None
        if training is not None:
            net.training = training
        return net


def _weight_sizes(header: dict) -> dict[str, int]:
    """The arrays a weight file holds and the most bytes each may take (from the header's tuples)."""
    tuples = _check_tuples(header_field(header, "tuples", list))
    size = 4 * sum(16 ** len(t) for t in tuples)
    return {"weights": size, "e_sum": size, "a_sum": size}


def _check_training(training: dict) -> dict:
    """A loaded header's training record, checked field by field (a learning curve is replotted from it)."""
    games = training.get("games", 0)
    if not is_int(games) or games < 0:
        raise DamagedFileError(f"its training 'games' is {_short(games)}, not a whole number >= 0")
    curve = training.get("curve", [])
    if not isinstance(curve, list) or not all(isinstance(p, dict) for p in curve):
        raise DamagedFileError("its training 'curve' is not a list of points")
    fields = set(CurvePoint.__dataclass_fields__)
    for point in curve:
        if set(point) != fields:
            raise DamagedFileError(f"a learning-curve point has the fields {sorted(point)}, expected {sorted(fields)}")
    return training


def _sha256(*arrays: np.ndarray) -> str:
    """One SHA-256 over the bytes of one or more arrays (the weights; the two TC accumulators together)."""
    digest = hashlib.sha256()
    for array in arrays:
        digest.update(array.tobytes())
    return digest.hexdigest()


def _progress_bar(total: int, wanted: bool):
    """A tqdm bar if asked for and installed (imported lazily: the engine does not depend on it)."""
    if not wanted:
        return None
    try:
        tqdm = importlib.import_module("tqdm.auto").tqdm
    except ImportError:  # pragma: no cover
        return None
    return tqdm(total=total, unit="game", desc="TD training")


# ---------------------------------------------------------------------------------- cache
def cache_dir() -> Path:
    """Where trained nets are kept: ``$TILELAB_CACHE_DIR``, else ``$XDG_CACHE_HOME/tilelab``, else ``~/.cache/tilelab``."""
    explicit = os.environ.get("TILELAB_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg).expanduser() if xdg else Path.home() / ".cache") / "tilelab"


def cached_network(tuples: Sequence[Sequence[int]] = CLASSROOM_TUPLES, games: int = 10_000, *, seed: int = 0,
                   alpha: float = 0.1, method: str = "td0", progress: bool = False) -> NTupleNetwork:
    """A net trained for ``games`` games, from the user's cache if there, else trained and cached.

    A damaged cache file is detected (checksum) and trained again.
    """
    tuples = _check_tuples(tuples)
    key = hashlib.sha256(json.dumps([tuples, games, seed, alpha, method]).encode()).hexdigest()[:16]
    path = cache_dir() / f"ntuple-{len(tuples)}x{max(len(t) for t in tuples)}-{games}g-{key}-v{FORMAT_VERSION}.npz"
    if path.exists():
        try:
            return NTupleNetwork.load(path)
        except ValueError as exc:  # damaged: say so in one line, train again below
            warnings.warn(f"training the cached n-tuple network again: {one_line(exc)}", RuntimeWarning, stacklevel=2)
            path.unlink(missing_ok=True)
    net = NTupleNetwork(tuples, name="classroom" if tuples == CLASSROOM_TUPLES else "")
    net.train(games, seed=seed, alpha=alpha, method=method, progress=progress)
    net.save(path)
    return net


# ---------------------------------------------------------------------------------- players
_CODE_TO_DIRECTION = tuple(Direction[name] for name in DIRECTION_NAMES)


class TDPlayer:
    """1-ply greedy player on a learned value: the move with the best ``reward + V(afterstate)``.

    ``last_values`` holds each legal move's ``reward + V(afterstate)`` (points expected from here).

    >>> player = TDPlayer(NTupleNetwork([(0, 1, 2, 3)]))
    >>> player(Board.parse("2 2 . .\\n. . . .\\n. . . .\\n. . . 4")) in (Direction.LEFT, Direction.RIGHT)
    True
    """

    name = "td-1ply"

    def __init__(self, net: NTupleNetwork) -> None:
        if not isinstance(net, NTupleNetwork):
            raise TypeError(f"TDPlayer needs an NTupleNetwork, got {type(net).__name__}")
        self.net = net
        self.last_values: dict[Direction, float] = {}

    def think(self, board: Board) -> Thought:
        """Every legal move's ``reward + V(afterstate)`` and the choice, as a :class:`Thought` (depth 1)."""
        start = time.perf_counter()
        t = row_tables()
        values = np.full(4, np.nan)
        best = _greedy_values(_U(to_bitboard(board)), self.net.weights, self.net._cells, self.net._lens,
                              self.net._offs, t.left, t.right, t.score, values)
        self.last_values = {_CODE_TO_DIRECTION[c]: float(v) for c, v in enumerate(values) if not math.isnan(v)}
        direction = None if best < 0 else _CODE_TO_DIRECTION[best]
        return Thought(direction, dict(self.last_values), 1, len(self.last_values), 0,
                       1e3 * (time.perf_counter() - start))

    def __call__(self, board: Board) -> Direction:
        thought = self.think(board)
        if thought.direction is None:
            raise ValueError("the game is over: no move changes this board, so there is nothing to choose")
        return thought.direction


@njit
def _td_chance(after, depth, prob, p_four, cutoff, weights, cells, lens, offs, left, right, score_table,
               tt_board, tt_tag, tt_value, tag_base, counters, limit, deadline):
    """Expected future points from an afterstate: spawns averaged, our best reply maximised, V at the leaves."""
    after = _U(after)
    if depth <= 0 or prob < cutoff:
        return _value(after, weights, cells, lens, offs)
    tag = tag_base + depth
    slot = _slot(after, depth, tt_board.size - 1)
    if tt_tag[slot] == tag and tt_board[slot] == after:
        counters[1] += 1
        return tt_value[slot]
    empty = _count_empty(after)
    cell_p = 1.0 / empty
    total = 0.0
    for index in range(CELLS):
        shift = _U(CELL_BITS * index)
        if ((after >> shift) & _U(CELL_MASK)) != 0:
            continue
        for kind in range(2):
            tile_p = 1.0 - p_four if kind == 0 else p_four
            if tile_p <= 0.0:
                continue
            child = after | ((_U(SPAWN_TWO) if kind == 0 else _U(SPAWN_FOUR)) << shift)
            if _count_node(counters, limit, deadline):  # node limit or deadline passed
                return 0.0
            best = -np.inf
            for code in range(4):
                moved, reward = _move(child, code, left, right, score_table)
                if reward == OVERFLOW or moved == child:
                    continue
                v = reward + _td_chance(moved, depth - 1, prob * cell_p * tile_p, p_four, cutoff, weights, cells,
                                        lens, offs, left, right, score_table, tt_board, tt_tag, tt_value, tag_base,
                                        counters, limit, deadline)
                if v > best:
                    best = v
            if best == -np.inf:
                best = 0.0  # game over: no more points
            total += cell_p * tile_p * best
    tt_board[slot] = after
    tt_tag[slot] = tag
    tt_value[slot] = total
    return total


@njit
def _td_root(bits, depth, p_four, cutoff, weights, cells, lens, offs, left, right, score_table, tt_board, tt_tag,
             tt_value, tag_base, counters, values, limit, deadline):
    bits = _U(bits)
    best = NO_MOVE
    for code in range(4):
        moved, reward = _move(bits, code, left, right, score_table)
        if reward == OVERFLOW or moved == bits:
            values[code] = np.nan
            continue
        values[code] = reward + _td_chance(moved, depth - 1, 1.0, p_four, cutoff, weights, cells, lens, offs, left,
                                           right, score_table, tt_board, tt_tag, tt_value, tag_base, counters, limit,
                                           deadline)
        if counters[2]:
            return NO_MOVE
        if best == NO_MOVE or values[code] > values[best]:
            best = code
    return best


MAX_TD_NODES = 250_000  # no single TDExpectimax search goes past this (about a second: a node is 4 lookups of V)


class TDExpectimax:
    """Expectimax whose evaluation is a learned n-tuple value: search ``depth`` of our moves, then ``V``.

    Depth 1 is exactly :class:`TDPlayer`. Budgets as in :class:`tilelab.game2048.Expectimax`:
    ``nodes_per_move`` (deterministic, default), ``ms_per_move`` (wall clock: the compiled search
    reads the clock and drops a level the deadline stops, so a move takes about ``T`` also on a busy
    machine) or ``depth`` (bounded by ``max_nodes`` like every search). 4x4 boards only.

    >>> ai = TDExpectimax(NTupleNetwork([(0, 1, 2, 3)]), depth=2)
    >>> ai(Board.parse("2 2 . .\\n. . . .\\n. . . .\\n. . . 4")) in (Direction.LEFT, Direction.RIGHT)
    True
    """

    name = "td-expectimax"

    def __init__(self, net: NTupleNetwork, ms_per_move: float | None = None, *, nodes_per_move: int | None = None,
                 depth: int | None = None, max_depth: int = 8, cutoff: float = 1e-3, p_four: float = 0.1,
                 table_bits: int = 20, max_nodes: int = MAX_TD_NODES) -> None:
        if not isinstance(net, NTupleNetwork):
            raise TypeError(f"TDExpectimax needs an NTupleNetwork, got {type(net).__name__}")
        if ms_per_move is None and nodes_per_move is None and depth is None:
            nodes_per_move = 20_000
        _, cutoff, p_four = check_search_settings(1, cutoff, p_four)
        table_bits = as_int(table_bits, "table_bits (the table has 2**table_bits entries)", minimum=4, maximum=26)
        self.net = net
        self.budget = Budget(depth=depth, nodes_per_move=nodes_per_move, ms_per_move=ms_per_move,
                             max_depth=max_depth, nodes_per_ms=500.0, max_nodes=max_nodes)
        self.cutoff, self.p_four = cutoff, p_four
        size = 1 << table_bits
        self.tt_board = np.zeros(size, dtype=np.uint64)
        self.tt_tag = np.full(size, -1, dtype=np.int64)
        self.tt_value = np.zeros(size, dtype=np.float64)
        self._generation = 0
        self.last: Any = None
        self.last_values: dict[Direction, float] = {}

    def __repr__(self) -> str:
        return f"TDExpectimax({self.net.name!r}, {self.budget.describe()}, cutoff={self.cutoff:g})"

    def search(self, bits: int, depth: int, node_limit: int = 0, deadline: float | None = None) -> SearchResult:
        """One fixed-depth search from a bitboard (``depth`` = our moves, 1 = greedy on ``V``).

        Stops (``complete=False``) past ``node_limit`` nodes or the ``deadline`` (a perf_counter time).
        """
        node_limit = _check_limit(node_limit)
        deadline = _check_deadline(deadline)
        tick = time.perf_counter()
        t = row_tables()
        self._generation += 1
        counters = np.zeros(COUNTERS, dtype=np.int64)
        values = np.full(4, np.nan)
        n = self.net
        best = _td_root(_U(bits), depth, self.p_four, self.cutoff, n.weights, n._cells, n._lens, n._offs, t.left,
                        t.right, t.score, self.tt_board, self.tt_tag, self.tt_value, self._generation << 8, counters,
                        values, node_limit, deadline)
        return SearchResult(int(best), tuple(float(v) for v in values), depth, int(counters[0]), int(counters[1]),
                            not counters[2], time.perf_counter() - tick)

    def think(self, board: Board) -> Thought:
        """Search ``board`` under the budget: the choice and each legal move's value, as a :class:`Thought`."""
        start = time.perf_counter()
        bits = to_bitboard(board)
        result = deepen(lambda depth, limit, deadline=None: self.search(bits, depth, limit, deadline), self.budget,
                        start=start)
        self.last_values = {_CODE_TO_DIRECTION[c]: v for c, v in enumerate(result.values) if not math.isnan(v)}
        direction = None if result.best == NO_MOVE else _CODE_TO_DIRECTION[result.best]
        self.last = Thought(direction, dict(self.last_values), result.depth, result.nodes, result.table_hits,
                            1e3 * (time.perf_counter() - start))
        return self.last

    def __call__(self, board: Board) -> Direction:
        thought = self.think(board)
        if thought.direction is None:
            raise ValueError("the game is over: no move changes this board, so there is nothing to choose")
        return thought.direction


# ---------------------------------------------------------------------------------- the lesson's net
LESSON_NET = Path(__file__).resolve().parents[1] / "data" / "ntuple-classroom.npz"


def lesson_network() -> NTupleNetwork:
    """The classroom net shipped with tilelab (trained by ``benchmarks/train_2048_td.py``; checked on load).

    >>> net = lesson_network()
    >>> net.tuples == CLASSROOM_TUPLES and net.training["games"] > 0
    True
    """
    try:
        return NTupleNetwork.load(LESSON_NET)
    except FileNotFoundError:
        raise ValueError(f"the shipped net {LESSON_NET} is missing: reinstall tilelab (pip install --force-reinstall "
                         "tilelab) or rebuild it with benchmarks/train_2048_td.py --net classroom --ship "
                         f"{LESSON_NET}") from None
    except ValueError as exc:
        raise ValueError(f"the shipped net is damaged ({one_line(exc)}): reinstall tilelab (pip install "
                         "--force-reinstall tilelab, or git checkout tilelab/data/ntuple-classroom.npz in a clone) "
                         f"or rebuild it with benchmarks/train_2048_td.py --net classroom --ship {LESSON_NET}") from None
