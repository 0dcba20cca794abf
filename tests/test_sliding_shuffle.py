"""Shuffles: always solvable, seeded, and (for uniform and reject) uniform over solvable boards."""

from __future__ import annotations

import itertools
from math import factorial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilelab.sliding import (
    METHODS,
    Board,
    default_walk_steps,
    distance,
    is_solvable,
    random_board,
    random_walk,
    shuffle,
)


@given(st.integers(2, 6), st.integers(2, 6), st.sampled_from(METHODS), st.integers(0, 2**32))
@settings(max_examples=80, deadline=None)
def test_every_shuffle_is_solvable_and_seeded(rows, cols, method, seed):
    steps = 50 if method.startswith("walk") else None
    p = shuffle(rows, cols, rng=seed, method=method, steps=steps)
    assert p.shape == (rows, cols)
    assert is_solvable(p)
    assert shuffle(rows, cols, rng=seed, method=method, steps=steps) == p
    assert shuffle(rows, cols, rng=np.random.default_rng(seed), method=method, steps=steps) == p


def test_different_seeds_differ():
    assert len({shuffle(4, 4, rng=s) for s in range(50)}) == 50


def _chi_square(counts: dict, cells: int) -> float:
    total = sum(counts.values())
    expected = total / cells
    observed = list(counts.values()) + [0] * (cells - len(counts))
    return sum((o - expected) ** 2 / expected for o in observed)


# 99.9% quantiles of chi-square with k-1 degrees of freedom (k = 12 and 360 boards)
CHI2_999 = {11: 31.26, 359: 452.0}


@pytest.mark.parametrize("method", ["uniform", "reject"])
@pytest.mark.parametrize("rows, cols, draws", [(2, 2, 6000), (2, 3, 36000)])
def test_uniform_methods_are_uniform(method, rows, cols, draws):
    rng = np.random.default_rng(2024)
    counts: dict = {}
    for _ in range(draws):
        p = shuffle(rows, cols, rng=rng, method=method)
        counts[p] = counts.get(p, 0) + 1
    solvable = factorial(rows * cols) // 2
    assert len(counts) == solvable
    assert _chi_square(counts, solvable) < CHI2_999[solvable - 1]


def test_the_chi_square_test_can_fail():
    # a short walk is far from uniform: the same test must reject it
    rng = np.random.default_rng(1)
    counts: dict = {}
    for _ in range(6000):
        p = shuffle(2, 3, rng=rng, method="walk", steps=6)
        counts[p] = counts.get(p, 0) + 1
    assert _chi_square(counts, 360) > CHI2_999[359]


def test_random_board_is_unsolvable_about_half_the_time():
    boards = [random_board(3, 3, rng=s) for s in range(4000)]
    share = np.mean([is_solvable(b) for b in boards])
    assert 0.46 < share < 0.54


def test_walk_never_steps_straight_back():
    tiles = random_walk(Board.goal(4, 4), 500, rng=3)
    assert all(a != b for a, b in zip(tiles, tiles[1:]))
    board = Board.goal(4, 4)
    for t in tiles:
        assert t in board.neighbour_tiles()
        board = board.slide(t)


def test_balanced_walk_spreads_the_moves_more_evenly():
    cells = 16
    spread = {}
    for balanced in (False, True):
        counts = np.zeros(cells)
        board = Board.goal(4, 4)
        for t in random_walk(board, 400, rng=5, balanced=balanced):
            board = board.slide(t)
            counts[board.blank_index] += 1
        spread[balanced] = counts.std()
    assert spread[True] < spread[False] / 2


def test_walk_length_matters_and_defaults_to_cells_squared():
    assert default_walk_steps(3, 3) == 81
    assert shuffle(3, 3, rng=9, method="walk") == shuffle(3, 3, rng=9, method="walk", steps=81)
    assert shuffle(3, 3, rng=9, method="walk", steps=0) == Board.goal(3, 3)
    short = np.mean([distance(shuffle(3, 3, rng=s, method="walk", steps=10)) for s in range(200)])
    uniform = np.mean([distance(shuffle(3, 3, rng=s)) for s in range(200)])
    assert short < 10 < 20 < uniform


def test_walk_on_2x2_goes_round_the_cycle():
    # with no straight-back step the blank can only circle, so 12 steps return to the goal
    assert shuffle(2, 2, rng=0, method="walk", steps=12) == Board.goal(2, 2)
    seen = {Board.goal(2, 2).play_all(random_walk(Board.goal(2, 2), k, rng=0)) for k in range(12)}
    assert len(seen) == 12


def test_bad_arguments():
    with pytest.raises(ValueError, match="method must be one of"):
        shuffle(3, 3, rng=0, method="riffle")
    with pytest.raises(ValueError, match="steps is only for the walk"):
        shuffle(3, 3, rng=0, method="uniform", steps=5)
    with pytest.raises(ValueError, match="non-negative"):
        shuffle(3, 3, rng=0, method="walk", steps=-1)
    with pytest.raises(ValueError, match="at least 2x2"):
        shuffle(1, 5, rng=0)
    with pytest.raises(TypeError):
        shuffle(3, 3, rng="seed")  # type: ignore[arg-type]


@given(st.integers(0, 120), st.integers(0, 10**6), st.sampled_from(["walk", "walk-balanced"]))
@settings(deadline=None, max_examples=60)
def test_a_fixed_length_walk_only_reaches_distances_of_its_parity(steps, seed, method):
    board = shuffle(3, 3, rng=seed, method=method, steps=steps)
    assert distance(board) % 2 == steps % 2 and distance(board) <= steps


# ------------------------------------------------------------------ the iOS Puzzle8 walk

from tilelab.sliding import PUZZLE8_ORDER, puzzle8_walk  # noqa: E402


def test_puzzle8_walk_is_seeded_legal_and_may_step_back():
    goal = Board.goal(3, 3)
    tiles = puzzle8_walk(goal, 400, rng=5)
    assert tiles == puzzle8_walk(goal, 400, rng=5) and len(tiles) == 400
    board = goal.play_all(tiles)  # play() raises if a slide were illegal
    assert is_solvable(board)
    assert any(a == b for a, b in zip(tiles, tiles[1:]))  # unlike random_walk it can undo a move
    with pytest.raises(ValueError, match="steps"):
        puzzle8_walk(goal, -1, rng=0)


def test_puzzle8_walk_turns_a_blocked_direction_into_the_next_one():
    # blank in the top-right corner of 3x3: up is blocked -> down; right is blocked -> up -> down.
    corner = Board.parse("1 2 .\n3 4 5\n6 7 8")
    rng = np.random.default_rng(11)
    downs = sum(corner.play_all(puzzle8_walk(corner, 1, rng=rng)).blank == (1, 2) for _ in range(4000))
    assert 0.72 < downs / 4000 < 0.78  # 3 of the 4 draws end as "down"
    assert PUZZLE8_ORDER == ((-1, 0), (1, 0), (0, -1), (0, 1))


@pytest.mark.parametrize("call", [
    lambda: shuffle(3, 3, 0),
    lambda: random_board(3, 3, 0),
    lambda: random_walk(Board.goal(3, 3), 5, 0),
    lambda: puzzle8_walk(Board.goal(3, 3), 5, 0),
])
def test_rng_is_keyword_only(call):
    with pytest.raises(TypeError, match="positional"):
        call()


@pytest.mark.parametrize("function", [shuffle, random_board, random_walk, puzzle8_walk])
def test_rng_is_required_and_typed(function):
    import inspect

    rng = inspect.signature(function).parameters["rng"]
    assert rng.kind is inspect.Parameter.KEYWORD_ONLY and rng.default is inspect.Parameter.empty
    assert "RngLike" in str(rng.annotation)
