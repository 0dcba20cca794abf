"""Lessons 3a/3b's checkers pass correct answers, refuse delegation, and catch the usual wrong ones.

Correct answers are written here (as a student would); package answers run inside
``allow_package_calls()`` only.
"""

from __future__ import annotations

import numpy as np
import pytest

from tilelab.exercises import allow_package_calls, check, list_exercises
from tilelab.sliding import (
    Board,
    count_moves,
    distance_table,
    inversion_pairs,
    inversions,
    is_solvable,
    play,
    random_board,
    shuffle,
    solvable_by_invariant,
)

NAMES = ("sliding.inversions", "sliding.is_solvable", "sliding.shuffle", "sliding.multi_moves", "sliding.even_share")


# --- answers a student might write (no forbidden package calls) ---

def my_inversions(board):
    seq = [t for t in board.tiles if t != 0]
    return sum(1 for i, a in enumerate(seq) for b in seq[i + 1:] if a > b)


def my_is_solvable(board):
    count = inversions(board)  # allowed: exercise 1 wrote it
    if board.cols % 2 == 1:
        return count % 2 == 0
    return (count + board.rows - board.blank[0]) % 2 == 1


def my_shuffle(rows, cols, rng):
    board = Board(rng.permutation(rows * cols), rows, cols)
    if is_solvable(board):
        return board
    a, b = [t for t in board.tiles if t != 0][:2]
    return board.swap_tiles(a, b)


def my_multi_moves(board, tiles):
    moves, last = 0, None
    for tile in tiles:
        event = play(board, tile)
        moves += event.direction != last
        last, board = event.direction, event.after
    return moves


def my_even_share(rows, cols):
    return sum((rows - 1 - r + cols - 1 - c) % 2 == 0 for r in range(rows) for c in range(cols)) / (rows * cols)


def test_registered():
    assert set(NAMES) <= set(list_exercises())


def test_students_answers_pass():
    assert check("sliding.inversions", my_inversions).passed
    assert check("sliding.is_solvable", my_is_solvable).passed
    assert check("sliding.multi_moves", my_multi_moves).passed
    assert check("sliding.even_share", my_even_share).passed


@pytest.mark.parametrize("name, answer, package_name", [
    ("sliding.inversions", inversions, "inversions"),
    ("sliding.inversions", lambda p: len(inversion_pairs(p)), "inversion_pairs"),
    ("sliding.is_solvable", is_solvable, "is_solvable"),
    ("sliding.is_solvable", lambda p: solvable_by_invariant(p), "solvable_by_invariant"),
    ("sliding.is_solvable", lambda p: distance_table(p.rows, p.cols)[0] >= 0, "distance_table"),
    ("sliding.shuffle", lambda r, c, rng: shuffle(r, c, rng=rng), "shuffle"),
    ("sliding.multi_moves", lambda p, tiles: count_moves(p, tiles).multi, "count_moves"),
    ("sliding.even_share", lambda r, c: float(np.mean(distance_table(r, c) % 2 == 0)), "distance_table"),
])
def test_delegating_answers_are_refused_kindly(name, answer, package_name):
    result = check(name, answer)
    assert not result.passed and result.reason == "delegated" and result.counterexample.endswith(package_name)
    assert package_name in result.message


def test_delegation_through_a_helper_is_refused():
    def helper(p):
        return inversions(p)

    def answer(p):
        return helper(p)

    assert check("sliding.inversions", answer).counterexample.endswith("inversions")


def test_package_answers_pass_inside_allow_package_calls():
    with allow_package_calls():
        assert check("sliding.inversions", inversions).passed
        assert check("sliding.is_solvable", is_solvable).passed
        assert check("sliding.is_solvable", solvable_by_invariant).passed
        assert check("sliding.multi_moves", lambda p, tiles: count_moves(p, tiles).multi).passed


def test_inversions_checker_shows_the_smallest_board_as_a_picture():
    counting_blank = lambda p: sum(1 for i, a in enumerate(p.tiles) for b in p.tiles[i + 1:] if a > b)
    result = check("sliding.inversions", counting_blank)
    assert not result.passed and "expected" in result.message
    assert isinstance(result.counterexample, Board) and result.counterexample.shape == (2, 2)
    assert result.message.startswith("on the 2x2 board below")
    assert result.picture == str(result.counterexample)  # an aligned picture, nothing stray above it
    assert "\n" not in result.message


def test_is_solvable_checker_catches_the_odd_width_only_rule():
    odd_only = lambda p: inversions(p) % 2 == 0  # right for 3x3, wrong for even widths
    result = check("sliding.is_solvable", odd_only)
    assert not result.passed
    assert result.counterexample.cols % 2 == 0
    assert result.message.startswith("on the 2x2 board below")


def test_is_solvable_checker_catches_a_rule_that_fails_only_on_big_boards():
    wrong_big = lambda p: my_is_solvable(p) if p.cell_count <= 9 else not my_is_solvable(p)
    result = check("sliding.is_solvable", wrong_big)
    assert not result.passed and result.counterexample.cell_count > 9


def test_crashing_answer_is_reported_not_raised():
    result = check("sliding.is_solvable", lambda p: 1 / 0)
    assert not result.passed and "ZeroDivisionError" in result.message


def test_shuffle_checker_passes_a_fair_shuffle_and_names_plain_faults():
    assert check("sliding.shuffle", my_shuffle).passed
    naive = check("sliding.shuffle", lambda r, c, rng: Board(rng.permutation(r * c), r, c))
    assert not naive.passed and "cannot be solved" in naive.message
    assert naive.picture == str(naive.counterexample)
    wrong_type = check("sliding.shuffle", lambda r, c, rng: my_shuffle(r, c, rng).tiles)
    assert not wrong_type.passed and "return a Board" in wrong_type.message
    wrong_shape = check("sliding.shuffle", lambda r, c, rng: my_shuffle(c, r, rng))
    assert not wrong_shape.passed and "asked for 2x3" in wrong_shape.message


def test_shuffle_checker_wants_the_given_rng():
    own = np.random.default_rng(5)
    result = check("sliding.shuffle", lambda r, c, rng: my_shuffle(r, c, own))
    assert not result.passed and "same seeded rng" in result.message


def test_walks_fail_the_uniformity_tests():
    with allow_package_calls():
        short_walk = check("sliding.shuffle", lambda r, c, rng: shuffle(r, c, rng=rng, method="walk", steps=8))
        assert not short_walk.passed and "2x3" in short_walk.message
        # 36 or 37 moves on 2x3: every parity, every board; still unfair on 2x3
        coin = check("sliding.shuffle", lambda r, c, rng: shuffle(
            r, c, rng=rng, method="walk", steps=(r * c) ** 2 + int(rng.integers(2))))
        assert not coin.passed and "2x3" in coin.message


def test_shuffle_uniformity_is_checked_beyond_2x3():
    def fair_only_on_small(rows, cols, rng):
        if rows * cols <= 6:
            return my_shuffle(rows, cols, rng)
        with allow_package_calls():  # a long coin-flip walk: solvable, every board, but unfair
            return shuffle(rows, cols, rng=rng, method="walk", steps=(rows * cols) ** 2 + int(rng.integers(2)))

    with allow_package_calls():
        result = check("sliding.shuffle", fair_only_on_small)
    assert not result.passed and "on 3x3" in result.message

    def fair_up_to_3x3(rows, cols, rng):
        if rows * cols <= 9:
            return my_shuffle(rows, cols, rng)
        return shuffle(rows, cols, rng=rng, method="walk", steps=(rows * cols) ** 2 + int(rng.integers(2)))

    with allow_package_calls():
        result = check("sliding.shuffle", fair_up_to_3x3)
    assert not result.passed and "on 4x4" in result.message


def test_a_shuffle_that_skews_3x3_distances_fails():
    far = [p for p in (random_board(3, 3, rng=s) for s in range(400)) if is_solvable(p)]

    def skewed(rows, cols, rng):
        board = my_shuffle(rows, cols, rng)
        if (rows, cols) == (3, 3) and rng.random() < 0.3:  # deal a board from a fixed small pool
            return far[int(rng.integers(len(far)))]
        return board

    result = check("sliding.shuffle", skewed)
    assert not result.passed and "3x3" in result.message


def test_biased_but_complete_shuffle_fails_the_uniformity_test():
    def biased(rows, cols, rng):
        board = my_shuffle(rows, cols, rng)
        # deal the goal's neighbours far too often
        return Board.goal(rows, cols).slide(rows * cols - 1) if rng.random() < 0.2 else board

    result = check("sliding.shuffle", biased)
    assert not result.passed and result.counterexample == Board.goal(2, 3).slide(5)  # the board dealt too often
    assert result.picture == str(result.counterexample) and "chi" not in result.message.lower()


def test_an_answer_that_returns_nothing_is_told_so():
    # a stub that forgot `return` used to be reported as "you returned False"
    result = check("sliding.is_solvable", lambda p: None)
    assert not result.passed and "you returned None" in result.message
    assert check("sliding.is_solvable", lambda p: np.bool_(my_is_solvable(p))).passed


def test_critical_value_is_computed_and_matches_simulation():
    from tilelab.exercises.sliding import CHI2_2X3_999, chi_square_critical

    draws = np.random.default_rng(0).chisquare(359, 1_000_000)
    assert abs(np.quantile(draws, 0.999) - CHI2_2X3_999) < 1.0
    assert abs(CHI2_2X3_999 - 447.6) < 0.1
    assert abs(chi_square_critical(10, 0.95) - 18.307) < 0.05  # a table value, small df
    with pytest.raises(ValueError):
        chi_square_critical(0)


def test_unsolvable_shuffle_shows_the_board():
    result = check("sliding.shuffle", lambda rows, cols, rng: Board.goal(rows, cols).swap_tiles(1, 2))
    assert not result.passed and result.message == "this 2x2 board cannot be solved:"
    assert result.picture == "2 1\n3 ."


def test_multi_moves_checker_wants_merged_runs():
    per_touch = check("sliding.multi_moves", lambda p, tiles: len(tiles))  # one per slide: no merging
    assert not per_touch.passed and "[15, 15]" not in per_touch.message
    assert "the slides [13, 9, 10, 11] from the board below" in per_touch.message
    assert per_touch.picture == str(Board.goal(4, 4))
    assert not check("sliding.multi_moves", lambda p, tiles: 0).passed
    single = lambda p, tiles: sum(len(play(p.play_all(tiles[:k]), t).tiles) for k, t in enumerate(tiles))
    assert not check("sliding.multi_moves", single).passed


def test_even_share_checker():
    def colouring(rows, cols):
        return sum((r + c) % 2 == (rows + cols) % 2 for r in range(rows) for c in range(cols)) / (rows * cols)

    assert check("sliding.even_share", colouring).passed
    half = check("sliding.even_share", lambda rows, cols: 0.5)
    assert not half.passed and "3x3" in half.message
    assert not check("sliding.even_share", lambda rows, cols: 1 / 0).passed
    # right up to 3x3 only (a table lookup of the small cases): caught on the bigger shapes
    small = {(2, 2): 0.5, (2, 3): 0.5, (3, 2): 0.5, (2, 4): 0.5, (4, 2): 0.5, (3, 3): 5 / 9}
    assert not check("sliding.even_share", lambda r, c: small.get((r, c), 0.5)).passed


def test_every_message_is_short():
    from tilelab.exercises import MESSAGE_LIMIT

    for name, answer in [("sliding.inversions", lambda p: 0), ("sliding.is_solvable", lambda p: True),
                         ("sliding.multi_moves", lambda p, t: 0), ("sliding.even_share", lambda r, c: 0.5),
                         ("sliding.shuffle", lambda r, c, rng: Board.goal(r, c))]:
        result = check(name, answer)
        assert not result.passed and len(result.message) <= MESSAGE_LIMIT - 1
