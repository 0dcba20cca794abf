"""The n-tuple network's compiled kernels: ``V`` lookups, TD(0) and temporal-coherence updates, seeded
self-play training, greedy values, and the learned-value leaf of the one expectimax search.

Part of the n-tuple player (:mod:`tilelab.game2048.learning` is the lessons' face of it). Every
kernel works on a bitboard and the network's flattened tables: ``weights`` (float32), ``cells`` (one row
of cells per tuple placement), ``lens`` (each placement's length) and ``offs`` (where its table starts).
The readable versions, tested to agree exactly, are in :mod:`tilelab.game2048.learning.ntuple_ref`.

The kernels that only *read* weights (:func:`net_value` and all that call it: greedy values, the search's
leaf) also take a compact net's tables instead of ``weights``: the tuple ``(blocks, values, scales)`` of
:class:`~tilelab.game2048.learning.ntuple_compact.CompactNetwork` (:func:`weight_at` reads either kind; numba
compiles each kind once).
"""

from __future__ import annotations

from typing import Any, Union

import numpy as np
import numpy.typing as npt

from tilelab.jit import compile_by_kind, njit, popcount, prefetch
from tilelab.game2048.fast.bitrows import CELL_BITS, CELL_MASK, Bits, I64Array, Points, U64Array
from tilelab.game2048.fast.bitrows import OVERFLOW, U64, apply_move, max_exponent
from tilelab.game2048.fast.kernels import F64Array, make_search
from tilelab.game2048.fast.bitboard import spawn_xorshift

__all__ = ["tuple_index", "kept_rank", "compact_weight", "weight_at", "net_value", "update_weights",
           "update_weights_tc", "learn_step", "train_games_plain", "train_games", "learn_indices", "greedy_values",
           "batch_values", "td_leaf", "TD_SEARCH"]

F32Array = npt.NDArray[np.float32]  #: the weights and the temporal-coherence accumulators
#: A compact net's tables: (blocks, values, scales); see :func:`compact_weight`.
CompactTables = tuple[U64Array, npt.NDArray[Any], F64Array]
Weights = Union[F32Array, CompactTables]  #: what the reading kernels take: float32 weights or a compact net's tables
#: What td_leaf takes: (weights, cells, lens, offs, left, right, score_table).
TDLeafData = tuple[Weights, I64Array, I64Array, I64Array, U64Array, U64Array, I64Array]


@njit
def tuple_index(bits: Bits, cells: I64Array, lens: I64Array, f: int) -> int:
    bits = U64(bits)
    index = 0
    for k in range(lens[f]):
        exponent = int((bits >> U64(CELL_BITS * cells[f, k])) & U64(CELL_MASK))
        index |= exponent << (CELL_BITS * k)
    return index


@njit(inline="always")
def compact_weight(blocks: U64Array, values: npt.NDArray[Any], scale: float, i: int) -> float:
    """Weight ``i`` of a compact net: 0 unless bit ``i`` of the mask is set, else its kept value times ``scale``.

    ``blocks`` covers 64 weights with two words: ``blocks[2 w]`` is the mask of weights ``64 w .. 64 w + 63``
    (weight ``64 w + j`` at bit ``63 - j``, the order of ``np.packbits``), ``blocks[2 w + 1]`` how many weights
    before ``64 w`` are kept. The kept values are in weight order, so weight ``i`` is ``values[blocks[2 w + 1] +
    (set bits before it)]``, rounded to float32 as the float32 table it stands for holds it.

    >>> blocks = np.array([0b101 << 61, 0], dtype=np.uint64)   # weights 0 and 2 kept
    >>> [compact_weight(blocks, np.array([3, -2], dtype=np.int16), 0.5, i) for i in range(4)]
    [1.5, 0.0, -1.0, 0.0]
    """
    rank = kept_rank(blocks, i)
    if rank < 0:
        return 0.0
    return float(np.float32(values[rank] * scale))


@njit(inline="always")
def kept_rank(blocks: U64Array, i: int) -> int:
    """Where weight ``i`` of a compact net is among its kept values (-1: not kept, its weight is 0)."""
    w = 2 * (i >> 6)
    here = blocks[w] >> (U64(63) - U64(i & 63))  # weight i's bit lowest, the bits of the weights before it above
    if here & U64(1) == U64(0):
        return -1
    return int(np.int64(blocks[w + 1])) + popcount(here >> U64(1))


def weight_at(weights: Weights, f: int, i: int) -> float:
    """Weight ``i`` (feature ``f`` looks it up) of float32 ``weights`` or of a compact net's ``(blocks, values,
    scales)``, where ``scales[f]`` is the scale of feature ``f``'s table. Compiled: one of the two, by type.

    >>> weight_at(np.array([0.0, 2.5], dtype=np.float32), 0, 1)
    2.5
    """
    if isinstance(weights, tuple):
        blocks, values, scales = weights
        return compact_weight(blocks, values, float(scales[f]), i)
    return float(weights[i])


compile_by_kind(weight_at, lambda weights, f, i: float(weights[i]),
                lambda weights, f, i: compact_weight(weights[0], weights[1], weights[2][f], i))


@njit
def net_value(bits: Bits, weights: Weights, cells: I64Array, lens: I64Array, offs: I64Array) -> float:
    total = 0.0
    for f in range(cells.shape[0]):
        total += weight_at(weights, f, offs[f] + tuple_index(bits, cells, lens, f))
    return total


@njit
def update_weights(bits: Bits, step: float, weights: F32Array, cells: I64Array, lens: I64Array, offs: I64Array) -> None:
    for f in range(cells.shape[0]):
        i = offs[f] + tuple_index(bits, cells, lens, f)
        weights[i] = float(weights[i]) + step


@njit
def update_weights_tc(bits: Bits, error: float, alpha: float, weights: F32Array, e_sum: F32Array, a_sum: F32Array,
                      cells: I64Array, lens: I64Array, offs: I64Array) -> None:
    n = cells.shape[0]
    for f in range(n):
        i = offs[f] + tuple_index(bits, cells, lens, f)
        rate = 1.0 if a_sum[i] == 0.0 else float(abs(e_sum[i]) / a_sum[i])  # a float32 quotient, as compiled
        weights[i] = float(weights[i]) + alpha * rate * error / n
        e_sum[i] = float(e_sum[i]) + error
        a_sum[i] = float(a_sum[i]) + abs(error)


@njit
def learn_step(previous: Bits, target: float, alpha: float, tc: bool, weights: F32Array, e_sum: F32Array,
               a_sum: F32Array, cells: I64Array, lens: I64Array, offs: I64Array) -> None:
    error = target - net_value(previous, weights, cells, lens, offs)
    if tc:
        update_weights_tc(previous, error, alpha, weights, e_sum, a_sum, cells, lens, offs)
    else:
        update_weights(previous, alpha * error / cells.shape[0], weights, cells, lens, offs)


@njit
def train_games_plain(games: int, state: Bits, alpha: float, tc: bool, p_four: float, weights: F32Array,
                      e_sum: F32Array, a_sum: F32Array, cells: I64Array, lens: I64Array, offs: I64Array,
                      left: U64Array, right: U64Array, score_table: I64Array, scores: I64Array, max_exps: I64Array,
                      moves: I64Array) -> Bits:
    """TD(0) (or TC) self-play for ``games`` games, written with the small kernels above (what
    :func:`train_games` does faster); per-game results into the arrays; returns the state."""
    state = U64(state)
    for g in range(games):
        bits, state = spawn_xorshift(U64(0), state, p_four)
        bits, state = spawn_xorshift(bits, state, p_four)
        previous = U64(0)
        have_previous = False
        score = 0  # an int to the type checker (numba makes it int64); numpy 2.5's stubs widen int64 sums
        played = 0
        while True:
            best = U64(0)
            best_value = -np.inf
            best_reward: Points = 0
            for code in range(4):
                moved, reward = apply_move(bits, code, left, right, score_table)
                if reward == OVERFLOW or moved == bits:
                    continue
                v = reward + net_value(moved, weights, cells, lens, offs)
                if v > best_value:
                    best, best_value, best_reward = U64(moved), v, reward
            if best_value == -np.inf:
                if have_previous:
                    learn_step(previous, 0.0, alpha, tc, weights, e_sum, a_sum, cells, lens, offs)
                break
            if have_previous:
                learn_step(previous, best_value, alpha, tc, weights, e_sum, a_sum, cells, lens, offs)
            previous = best
            have_previous = True
            score += int(best_reward)
            played += 1
            bits, state = spawn_xorshift(best, state, p_four)
        scores[g] = score
        max_exps[g] = max_exponent(bits)
        moves[g] = played
    return state


@njit
def learn_indices(features: I64Array, target: float, alpha: float, tc: bool, weights: F32Array, e_sum: F32Array,
                  a_sum: F32Array) -> None:
    """:func:`learn_step` on an afterstate given by its feature indices (``offs[f] + tuple_index``)."""
    n = features.shape[0]
    total = 0.0
    for f in range(n):
        total += float(weights[features[f]])
    error = target - total
    if tc:
        for f in range(n):
            i = features[f]
            rate = 1.0 if a_sum[i] == 0.0 else float(abs(e_sum[i]) / a_sum[i])  # a float32 quotient, as compiled
            weights[i] = float(weights[i]) + alpha * rate * error / n
            e_sum[i] = float(e_sum[i]) + error
            a_sum[i] = float(a_sum[i]) + abs(error)
    else:
        step = alpha * error / n
        for f in range(n):
            weights[features[f]] = float(weights[features[f]]) + step


@njit
def train_games(games: int, state: Bits, alpha: float, tc: bool, p_four: float, weights: F32Array, e_sum: F32Array,
                a_sum: F32Array, cells: I64Array, lens: I64Array, offs: I64Array, left: U64Array, right: U64Array,
                score_table: I64Array, scores: I64Array, max_exps: I64Array, moves: I64Array) -> Bits:
    """TD(0) (or TC) self-play for ``games`` games; per-game results into the arrays; returns the state.

    The same games, weights and state as :func:`train_games_plain`, about twice as fast on a large net: each
    afterstate's feature indices are worked out once (not three times), and every weight and learning-rate
    sum a move will read is asked for (:func:`~tilelab.jit.prefetch`) before the first is used.
    """
    n = cells.shape[0]
    features = np.empty((4, n), dtype=np.int64)  # each move's afterstate: where its n weights are
    previous = np.empty(n, dtype=np.int64)  # the afterstate the next update is for
    state = U64(state)
    for g in range(games):
        bits, state = spawn_xorshift(U64(0), state, p_four)
        bits, state = spawn_xorshift(bits, state, p_four)
        have_previous = False
        score = 0  # an int to the type checker (numba makes it int64); numpy 2.5's stubs widen int64 sums
        played = 0
        while True:
            for code in range(4):  # first ask for every weight the four afterstates need...
                moved, reward = apply_move(bits, code, left, right, score_table)
                if reward == OVERFLOW or moved == bits:
                    continue
                for f in range(n):
                    i = offs[f] + tuple_index(moved, cells, lens, f)
                    features[code, f] = i
                    prefetch(weights, i)
            best = U64(0)
            best_code = -1
            best_value = -np.inf
            best_reward: Points = 0
            for code in range(4):  # ...then add them up
                moved, reward = apply_move(bits, code, left, right, score_table)
                if reward == OVERFLOW or moved == bits:
                    continue
                total = 0.0
                for f in range(n):
                    total += float(weights[features[code, f]])
                v = reward + total
                if v > best_value:
                    best, best_code, best_value, best_reward = U64(moved), code, v, reward
            if best_value == -np.inf:
                if have_previous:
                    learn_indices(previous, 0.0, alpha, tc, weights, e_sum, a_sum)
                break
            if tc:  # the sums this afterstate's update will read, one move from now
                for f in range(n):
                    prefetch(e_sum, features[best_code, f])
                    prefetch(a_sum, features[best_code, f])
            if have_previous:
                learn_indices(previous, best_value, alpha, tc, weights, e_sum, a_sum)
            previous[:] = features[best_code]
            have_previous = True
            score += int(best_reward)
            played += 1
            bits, state = spawn_xorshift(best, state, p_four)
        scores[g] = score
        max_exps[g] = max_exponent(bits)
        moves[g] = played
    return state


@njit
def greedy_values(bits: Bits, weights: Weights, cells: I64Array, lens: I64Array, offs: I64Array, left: U64Array,
                  right: U64Array, score_table: I64Array, values: F64Array) -> int:
    bits = U64(bits)
    best = -1
    for code in range(4):
        moved, reward = apply_move(bits, code, left, right, score_table)
        if reward == OVERFLOW or moved == bits:
            values[code] = np.nan
            continue
        values[code] = reward + net_value(moved, weights, cells, lens, offs)
        if best == -1 or values[code] > values[best]:
            best = code
    return best


@njit
def batch_values(boards: U64Array, weights: Weights, cells: I64Array, lens: I64Array, offs: I64Array,
                 out: F64Array) -> None:
    for i in range(boards.size):
        out[i] = net_value(boards[i], weights, cells, lens, offs)



@njit(inline="always")
def td_leaf(board: Bits, leaf_data: TDLeafData) -> float:
    """A spawned board where the search stops, scored by a learned ``V`` of afterstates: the best move's points plus
    ``V`` of its afterstate (0 when no move is left). ``leaf_data`` = (weights, cells, lens, offs, left, right, score),
    ``weights`` float32 or a compact net's tables (each compiles its own copy of the search).
    """
    weights, cells, lens, offs, left, right, score_table = leaf_data
    best = -np.inf
    for code in range(4):
        moved, reward = apply_move(board, code, left, right, score_table)
        if reward == OVERFLOW or moved == board:
            continue
        v = reward + net_value(moved, weights, cells, lens, offs)
        if v > best:
            best = v
    if best == -np.inf:
        return 0.0  # game over: no more points
    return best


TD_SEARCH = make_search("td", td_leaf, with_points=True)  # the one expectimax kernel, V at the leaves
