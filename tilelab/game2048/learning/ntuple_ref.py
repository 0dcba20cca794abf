"""The n-tuple network in readable Python: which weights a board looks up, its value, one TD(0) update, one
learning game. Part of :mod:`tilelab.game2048.learning`; the compiled kernels
(:mod:`tilelab.game2048.learning.ntuple_kernels`) are tested to agree with these exactly.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from tilelab.game2048.fast.bitrows import CELL_BITS, CELL_MASK, CELLS, OVERFLOW, SIZE, row_tables
from tilelab.game2048.board import DEFAULT_P_FOUR, Board
from tilelab.game2048.fast.bitrows import Bits
from tilelab.game2048.fast.bitrows import U64, apply_move, max_exponent
from tilelab.game2048.fast.bitboard import spawn_xorshift
from tilelab.game2048.learning.ntuple_net import NTupleNetwork, symmetric_tuples

__all__ = ["feature_indices_ref", "value_ref", "td_update_ref", "learn_game_ref", "grid_exponents"]


def grid_exponents(board: Board | int | Sequence[Sequence[int]]) -> list[int]:
    """The 16 exponents, row by row, from a Board, a bitboard or a 4x4 grid of exponents."""
    if isinstance(board, Board):
        if board.size != SIZE:
            raise ValueError(f"n-tuple networks play 4x4 boards, got {board.size}x{board.size}")
        return [v.bit_length() - 1 if v else 0 for row in board.grid for v in row]
    if isinstance(board, bool):
        raise TypeError("a board must be a Board, a bitboard (int) or a 4x4 grid of exponents, not a bool")
    if isinstance(board, (int, np.integer)):
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
    grid = grid_exponents(board)
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


def learn_game_ref(net: "NTupleNetwork", state: Bits, alpha: float = 0.1,
                   p_four: float = DEFAULT_P_FOUR) -> tuple[int, int, int]:
    """Play one game greedily on ``V`` and learn from it by TD(0) (readable); returns (score, max exponent, state).

    Spawns use the fast engine's seeded xorshift ``state``, so this game matches the fast trainer's.
    """
    t = row_tables()
    state = U64(state)
    bits, state = spawn_xorshift(U64(0), state, p_four)
    bits, state = spawn_xorshift(U64(bits), U64(state), p_four)
    previous, score = None, 0
    while True:
        best, best_value, best_reward = None, -math.inf, 0
        for code in range(4):
            moved, reward = apply_move(U64(bits), code, t.left, t.right, t.score)
            if reward == OVERFLOW or moved == bits:
                continue
            v = reward + value_ref(net, int(moved))
            if v > best_value:
                best, best_value, best_reward = int(moved), v, int(reward)
        if best is None:  # game over: the last afterstate led nowhere, its value is 0
            if previous is not None:
                td_update_ref(net, previous, 0.0, alpha)
            return score, int(max_exponent(U64(bits))), int(state)
        if previous is not None:
            td_update_ref(net, previous, best_value, alpha)
        previous, score = best, score + best_reward
        bits, state = spawn_xorshift(U64(best), U64(state), p_four)
