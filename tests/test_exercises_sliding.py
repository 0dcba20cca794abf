"""Lesson 3's checkers pass the package's answers and catch the usual wrong ones."""

from __future__ import annotations

import numpy as np
import pytest

from tilelab.exercises import check, list_exercises
from tilelab.sliding import (
    Puzzle,
    inversions,
    is_solvable,
    random_board,
    shuffle,
    solvable_by_invariant,
)


def test_registered():
    assert {"sliding.inversions", "sliding.is_solvable", "sliding.shuffle"} <= set(list_exercises())


def test_inversions_checker():
    assert check("sliding.inversions", inversions).passed
    counting_blank = lambda p: sum(
        1 for i, a in enumerate(p.tiles) for b in p.tiles[i + 1 :] if a > b
    )
    result = check("sliding.inversions", counting_blank)
    assert not result.passed and "expected" in result.message
    assert isinstance(result.counterexample, Puzzle)


def test_is_solvable_checker_accepts_both_correct_rules():
    assert check("sliding.is_solvable", is_solvable).passed
    assert check("sliding.is_solvable", solvable_by_invariant).passed


def test_is_solvable_checker_catches_the_odd_width_only_rule():
    odd_only = lambda p: inversions(p) % 2 == 0  # right for 3x3, wrong for even widths
    result = check("sliding.is_solvable", odd_only)
    assert not result.passed
    assert result.counterexample.cols % 2 == 0
    assert "breadth-first search" in result.message


def test_is_solvable_checker_catches_a_rule_that_fails_only_on_big_boards():
    wrong_big = lambda p: is_solvable(p) if p.size <= 9 else not is_solvable(p)
    result = check("sliding.is_solvable", wrong_big)
    assert not result.passed and result.counterexample.size > 9


def test_crashing_answer_is_reported_not_raised():
    result = check("sliding.is_solvable", lambda p: 1 / 0)
    assert not result.passed and "ZeroDivisionError" in result.message


def test_shuffle_checker():
    assert check("sliding.shuffle", lambda r, c, rng: shuffle(r, c, rng)).passed
    assert check("sliding.shuffle", lambda r, c, rng: shuffle(r, c, rng, method="reject")).passed
    naive = check("sliding.shuffle", random_board)
    assert not naive.passed and "cannot be solved" in naive.message
    short_walk = check("sliding.shuffle", lambda r, c, rng: shuffle(r, c, rng, method="walk", steps=8))
    assert not short_walk.passed and "2x3" in short_walk.message
    wrong_type = check("sliding.shuffle", lambda r, c, rng: shuffle(r, c, rng).tiles)
    assert not wrong_type.passed and "return a Puzzle" in wrong_type.message
    wrong_shape = check("sliding.shuffle", lambda r, c, rng: shuffle(c, r, rng))
    assert not wrong_shape.passed and "asked for 2x3" in wrong_shape.message


def test_biased_but_complete_shuffle_fails_the_uniformity_test():
    def biased(rows, cols, rng):
        board = shuffle(rows, cols, rng)
        # deal the goal's neighbours far too often
        return Puzzle.goal(rows, cols).slide(rows * cols - 1) if rng.random() < 0.2 else board

    result = check("sliding.shuffle", biased)
    assert not result.passed and "chi-square" in result.message


def test_an_answer_that_returns_nothing_is_told_so():
    # a stub that forgot `return` used to be reported as "you returned False"
    result = check("sliding.is_solvable", lambda p: None)
    assert not result.passed and "you returned None" in result.message
    assert check("sliding.is_solvable", lambda p: np.bool_(is_solvable(p))).passed


def test_critical_value_is_computed_and_matches_simulation():
    from tilelab.exercises.sliding import CHI2_2X3_999, chi_square_critical

    draws = np.random.default_rng(0).chisquare(359, 1_000_000)
    assert abs(np.quantile(draws, 0.999) - CHI2_2X3_999) < 1.0
    assert abs(CHI2_2X3_999 - 447.6) < 0.1
    assert abs(chi_square_critical(10, 0.95) - 18.307) < 0.05  # a table value, small df
    with pytest.raises(ValueError):
        chi_square_critical(0)


def test_unsolvable_shuffle_message_is_spaced():
    result = check("sliding.shuffle", lambda rows, cols, rng: Puzzle.goal(rows, cols).swap_tiles(1, 2))
    assert not result.passed and "cannot be solved: the 2x2 board" in result.message


def test_multi_moves_checker_wants_merged_runs():
    from tilelab.sliding import count_moves

    assert check("sliding.multi_moves", lambda p, tiles: count_moves(p, tiles).multi).passed
    per_touch = check("sliding.multi_moves", lambda p, tiles: len(tiles))  # one per slide: no merging
    assert not per_touch.passed and "[13, 9, 10, 11]" in per_touch.message
    assert not check("sliding.multi_moves", lambda p, tiles: 0).passed
    assert not check("sliding.multi_moves", lambda p, tiles: count_moves(p, tiles).single).passed


def test_even_share_checker():
    def colouring(rows, cols):
        return sum((r + c) % 2 == (rows + cols) % 2 for r in range(rows) for c in range(cols)) / (rows * cols)

    assert check("sliding.even_share", colouring).passed
    half = check("sliding.even_share", lambda rows, cols: 0.5)
    assert not half.passed and "3x3" in half.message
    assert not check("sliding.even_share", lambda rows, cols: 1 / 0).passed
