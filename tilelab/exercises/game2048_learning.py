"""Checkers for lesson 6 (learning to play 2048: n-tuple networks and TD learning).

- ``"2048learn.td_update"``: ``answer(net, after, target, alpha)`` changes ``net.weights`` in place so
  that ``V(after)`` moves toward ``target``: each of the board's looked-up weights (see
  :func:`~tilelab.game2048.ntuple.feature_indices_ref`) by ``alpha * (target - V(after)) / F``.
  Checked against :func:`~tilelab.game2048.ntuple.td_update_ref` on boards from seeded games, random
  weights and three learning rates, to 1e-4.
- ``"2048learn.tuple_shape"`` (the open task): ``answer`` is a list of tuples (cells 0..15, at most 4
  cells each). A net with your tuples and the given two-line net ``[(0, 1, 2, 3), (4, 5, 6, 7)]`` both
  learn for ``games`` seeded TD games; you pass when your net's mean score over the last half beats
  the given net's.

>>> from tilelab.exercises import check
>>> from tilelab.game2048.ntuple import td_update_ref
>>> check("2048learn.td_update", td_update_ref).passed
True
>>> check("2048learn.td_update", lambda net, after, target, alpha: None).passed
False
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tilelab.exercises import Result, checker
from tilelab.game2048.bitboard import exponents, play_random_batch
from tilelab.game2048.ntuple import NTupleNetwork, td_update_ref, value_ref

SEED = 6
GIVEN_TUPLES = ((0, 1, 2, 3), (4, 5, 6, 7))
MAX_CELLS = 4
__all__ = ["sample_afterstates", "GIVEN_TUPLES"]


def sample_afterstates(n: int = 12, seed: int = SEED) -> list[list[list[int]]]:
    """``n`` boards (4x4 grids of exponents) from seeded random games."""
    result = play_random_batch(n, seed=seed, max_moves=60)
    return [[list(row) for row in exponents(int(b))] for b in result.boards]


@checker("2048learn.td_update")
def _check_td_update(answer: Any) -> Result:
    name = "2048learn.td_update"
    rng = np.random.default_rng(SEED)
    for alpha in (0.1, 0.5, 0.0025):
        for board in sample_afterstates():
            mine = NTupleNetwork(((0, 1, 2, 3), (0, 1, 4, 5)))
            mine.weights[:] = rng.normal(0, 50, mine.weights.size).astype(np.float32)
            ref = NTupleNetwork(mine.tuples, mine.weights.copy())
            target = float(rng.normal(500, 300))
            answer(mine, board, target, alpha)
            td_update_ref(ref, board, target, alpha)
            if not np.allclose(mine.weights, ref.weights, atol=1e-4):
                return Result(name, False, f"not yet: after your update V = {value_ref(mine, board):.3f}, expected "
                              f"{value_ref(ref, board):.3f} (alpha={alpha}, target={target:.1f}, V before was "
                              f"{value_ref(NTupleNetwork(mine.tuples, ref.weights * 0 + mine.weights), board):.3f})",
                              board)
    return Result(name, True, "passed: V(after) moves alpha of the error, shared by every looked-up weight")


@checker("2048learn.tuple_shape")
def _check_tuple_shape(answer: Any, games: int = 600, seed: int = SEED) -> Result:
    name = "2048learn.tuple_shape"
    try:
        tuples = [tuple(int(c) for c in t) for t in answer]
    except TypeError:
        return Result(name, False, "not yet: give a list of tuples of cells, e.g. [(0, 1, 2, 3), (0, 1, 4, 5)]")
    if not tuples or any(len(t) > MAX_CELLS for t in tuples):
        return Result(name, False, f"not yet: give at least one tuple, each of at most {MAX_CELLS} cells")
    try:
        mine = NTupleNetwork(tuples)
    except ValueError as exc:
        return Result(name, False, f"not yet: {exc}")
    given = NTupleNetwork(GIVEN_TUPLES)
    half = max(1, games // 2)
    score = {}
    for label, net in (("yours", mine), ("given", given)):
        points = net.train(games, seed=seed, block=half)
        score[label] = points[-1].mean_score
    passed = score["yours"] > score["given"]
    verdict = "passed" if passed else "not yet"
    return Result(name, passed, f"{verdict}: mean score over the last {half} training games: yours "
                  f"{score['yours']:,.0f}, the two-line net {score['given']:,.0f} "
                  f"({mine.memory_bytes / 2**20:.2f} MiB vs {given.memory_bytes / 2**20:.2f} MiB)")
