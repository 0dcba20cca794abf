"""Checkers for lesson 6 (learning to play 2048: n-tuple networks and TD learning).

- ``"2048learn.td_update"``: ``answer(net, after, target, alpha)`` changes ``net.weights`` in place so
  that ``V(after)`` moves toward ``target``: each of the board's looked-up weights (see
  :func:`~tilelab.game2048.learning.ntuple_ref.feature_indices_ref`) by ``alpha * (target - V(after)) / F``.
  Checked on boards from seeded games, random weights and three learning rates, to 1e-4. An answer
  that calls :func:`~tilelab.game2048.learning.ntuple_ref.td_update_ref` (or the trainer's compiled update) is refused.
- ``"2048learn.tuple_shape"`` (the open task): ``answer`` is a list of tuples (cells 0..15, at most 4
  cells each). Tuples that repeat another one up to rotation, mirror and cell order are dropped first:
  each tuple is read in all 8 placements anyway, so a copy adds no information. Your net and the given
  two-line net ``[(0, 1, 2, 3), (4, 5, 6, 7)]`` each learn for ``games`` seeded TD games, then play
  ``test_games`` fresh seeded games frozen, both on the same seeds. You pass when the paired 95%
  confidence interval of the score difference (yours - given) lies above zero, on at least
  ``MIN_TEST_GAMES`` games.

>>> from tilelab.exercises import check
>>> from tilelab.game2048.learning.ntuple_ref import td_update_ref
>>> check("2048learn.td_update", td_update_ref).reason
'delegated'
>>> check("2048learn.td_update", lambda net, after, target, alpha: None).passed
False
>>> distinct_tuples([(0, 1, 2, 3), (3, 2, 1, 0), (12, 13, 14, 15), (0, 1, 4, 5)])
[(0, 1, 2, 3), (0, 1, 4, 5)]
"""

from __future__ import annotations

from typing import Any, Iterator, Sequence

import numpy as np

from tilelab import IN_BROWSER
from tilelab.randomness import RngLike
from tilelab.exercises import Result, case_seed, checker
from tilelab.exercises.allow import NUMPY, Kit
from tilelab.exercises.game2048_ai import mean_ci
from tilelab.game2048.fast.bitboard import exponents, play_random_batch
from tilelab.game2048.learning.ntuple_net import SYMMETRIES, NTupleNetwork
from tilelab.game2048.learning.ntuple_ref import feature_indices_ref, td_update_ref, value_ref

SEED = 6
GIVEN_TUPLES = ((0, 1, 2, 3), (4, 5, 6, 7))
MAX_CELLS = 4
#: The browser kernel (no compiler, Python 5-30x slower) trains and tests each net on at most this many games:
#: 400 training and 200 test games per net take an hour or more there, 10 and 10 about 20-60 s per check.
BROWSER_GAMES = 10
MIN_TEST_GAMES = BROWSER_GAMES if IN_BROWSER else 200  #: the fewest frozen test games a verdict rests on
TEST_SEED = 60_000  #: frozen test games play seeds TEST_SEED, TEST_SEED + 1, ... (never a training seed)
__all__ = ["sample_afterstates", "GIVEN_TUPLES", "distinct_tuples", "MIN_TEST_GAMES"]

#: What a TD update may use: the net (its tuples and weights, its value), the board's looked-up weights and
#: value (the lesson's readable ``feature_indices_ref``, ``value_ref``), numpy. Not ``td_update_ref`` nor
#: the trainer (``train``, the compiled updates).
ALLOW_TD = (Kit("the net (its tuples, weights and value)",
                ("tilelab.game2048.learning.ntuple_net:NTupleNetwork[features memory_bytes value value_bits]",)),
            "tilelab.game2048.learning.ntuple_ref:feature_indices_ref", "tilelab.game2048.learning.ntuple_ref:value_ref",
            Kit("reading the board",
                ("tilelab.game2048.learning.ntuple_ref:grid_exponents", "tilelab.game2048:Board[grid size cells]")),
            NUMPY)


def sample_afterstates(n: int = 12, *, rng: RngLike = None) -> list[list[list[int]]]:
    """``n`` boards (4x4 grids of exponents) from random games; ``rng``: a seed (``SEED`` if none) or a Generator."""
    result = play_random_batch(n, rng=SEED if rng is None else rng, max_moves=60)
    return [[list(row) for row in exponents(int(b))] for b in result.boards]


def _td_cases() -> Iterator[tuple[NTupleNetwork, list[list[int]], float, float]]:
    """(net, board of exponents, target, alpha): the smallest first.

    First a net of one 2-cell tuple with zero weights on the empty board, where all 8 placements look up
    the same weight (a numpy ``w[idx] += step`` adds the step once, not 8 times), and on a board with one
    tile; then a two-tuple net with random weights on boards from seeded games.
    """
    empty = [[0] * 4 for _ in range(4)]
    corner = [[1, 0, 0, 0]] + [[0] * 4 for _ in range(3)]
    for board in (empty, corner):
        yield NTupleNetwork(((0, 1),)), board, 40.0, 0.1
    rng = np.random.default_rng(case_seed(SEED))
    for alpha in (0.1, 0.5, 0.0025):
        for board in sample_afterstates():
            net = NTupleNetwork(((0, 1, 2, 3), (0, 1, 4, 5)))
            net.weights[:] = rng.normal(0, 50, net.weights.size).astype(np.float32)
            yield net, board, float(rng.normal(500, 300)), alpha


@checker("2048learn.td_update", allow=ALLOW_TD, job=("tilelab.game2048.learning.ntuple_ref:td_update_ref",))
def _check_td_update(answer: Any) -> Result:
    name = "2048learn.td_update"
    for mine, board, target, alpha in _td_cases():
        ref = NTupleNetwork(mine.tuples, mine.weights.copy())
        before = value_ref(ref, board)
        answer(mine, board, target, alpha)
        td_update_ref(ref, board, target, alpha)
        if not np.allclose(mine.weights, ref.weights, atol=1e-4):
            picture = "\n".join(" ".join(f"{e:2d}" for e in row) for row in board)
            shape = [tuple(t) for t in mine.tuples]
            looked = len(feature_indices_ref(ref, board))
            distinct = len(set(feature_indices_ref(ref, board)))
            repeat = f", {looked} look-ups of {distinct} distinct weight{'s' if distinct != 1 else ''}"
            return Result(name, False, f"net {shape}, alpha={alpha}, target={target:g}, on the exponents below "
                          f"(V before {before:.3f}{repeat}): after your update V = {value_ref(mine, board):.3f}, "
                          f"expected {value_ref(ref, board):.3f}", board, picture)
    return Result(name, True, "passed: each look-up adds alpha * error / F to its weight, so a weight looked up "
                  "k times moves k times (and V moves by more than alpha * error when weights repeat)")


def _shape(cells: Sequence[int]) -> tuple[int, ...]:
    """One key per tuple up to rotation, mirror and cell order (its smallest image, sorted)."""
    return min(tuple(sorted(sym[c] for c in cells)) for sym in SYMMETRIES)


def distinct_tuples(tuples: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """``tuples`` without the ones that repeat an earlier tuple up to rotation, mirror and cell order."""
    seen: set[tuple[int, ...]] = set()
    out = []
    for t in tuples:
        key = _shape(t)
        if key not in seen:
            seen.add(key)
            out.append(tuple(t))
    return out


def _frozen_scores(net: NTupleNetwork, games: int) -> np.ndarray:
    """Scores of ``games`` frozen 1-ply games on seeds TEST_SEED, TEST_SEED + 1, ... (one game a seed)."""
    return np.array([net.evaluate(1, rng=TEST_SEED + i).mean_score for i in range(games)])


@checker("2048learn.tuple_shape", seconds=None)
def _check_tuple_shape(answer: Any, games: int = 600, test_games: int = MIN_TEST_GAMES, seed: int = SEED) -> Result:
    name = "2048learn.tuple_shape"
    try:
        tuples = [tuple(int(c) for c in t) for t in answer]
    except (TypeError, ValueError):
        return Result(name, False, "give a list of tuples of cells, e.g. [(0, 1, 2, 3), (0, 1, 4, 5)]")
    if not tuples or any(len(t) > MAX_CELLS for t in tuples):
        return Result(name, False, f"give at least one tuple, each of at most {MAX_CELLS} cells")
    if isinstance(test_games, bool) or not isinstance(test_games, int) or test_games < MIN_TEST_GAMES:
        return Result(name, False, f"a verdict needs at least {MIN_TEST_GAMES} test games: pass "
                      f"test_games={MIN_TEST_GAMES} or more")
    note = ""
    if IN_BROWSER and (games > BROWSER_GAMES or test_games > BROWSER_GAMES):
        games, test_games = min(games, BROWSER_GAMES), min(test_games, BROWSER_GAMES)
        note = (f"In the browser kernel each net learns for {games} games and is tested on {test_games} (JupyterLab on "
                "a laptop plays the numbers you asked for). ")
    kept = distinct_tuples(tuples)
    try:
        mine = NTupleNetwork(kept)
    except ValueError as exc:
        return Result(name, False, str(exc))
    given = NTupleNetwork(GIVEN_TUPLES)
    if mine.weights.size > given.weights.size:
        return Result(name, False, f"your net has {mine.weights.size:,} weights, the two-line net "
                      f"{given.weights.size:,}: a bigger net would win by its size, not its shape. Choose tuples "
                      f"worth at most {given.weights.size:,} weights (a 4-cell tuple has 65,536, a 3-cell one 4,096)",
                      kept)
    for net in (mine, given):
        net.train(games, rng=seed, block=max(1, games))
    diff, half = mean_ci(_frozen_scores(mine, test_games) - _frozen_scores(given, test_games))
    passed = diff - half > 0
    dropped = len(tuples) - len(kept)
    note += f"{dropped} tuple(s) dropped: a rotation or mirror of another adds nothing. " if dropped else ""
    return Result(name, passed, f"{note}After {games} training games each, on {test_games} fresh games: yours − "
                  f"the two-line net {diff:+,.0f} ± {half:,.0f} points (paired 95% CI)"
                  + ("" if passed else "; to pass, the whole interval must lie above zero") + ".")
