"""Lessons 05a/05b contracts: 'dead' needs a stable board, the two deals differ, RemoveCandys' assumption."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import tilelab.match3.stats as stats
from tilelab.match3 import Board, fall, find_runs, is_dead, is_dead_fast, legal_moves, stable_board
from tilelab.match3.dispel import (
    check_dispel_article,
    clear_cells,
    is_dead_by_rule,
    is_dead_by_templates,
    remove_candys_article,
)
from tilelab.match3.generate import banned_kinds
from tilelab.match3.stats import (
    dead_fraction,
    dead_table,
    exact_dead_rates,
    moves_until_dead,
    wilson_interval,
)

UNSTABLE = Board.parse("0201\n1100\n2221", kinds=3)
DEAD_FUNCTIONS = (is_dead, is_dead_fast, is_dead_by_rule, is_dead_by_templates)


# ----------------------------------------------------------------------------- dead = stable AND no move


@pytest.mark.parametrize("dead", DEAD_FUNCTIONS)
def test_dead_is_refused_on_a_board_that_still_holds_a_run(dead):
    with pytest.raises(ValueError, match=r"run at \(2, 0\), \(2, 1\), \(2, 2\).*stable.*resolve"):
        dead(UNSTABLE)


@pytest.mark.parametrize("dead", DEAD_FUNCTIONS)
def test_dead_functions_agree_on_stable_boards(dead):
    rng = np.random.default_rng(3)
    seen = set()
    for i in range(300):
        board = stable_board(4 + i % 3, 4 + i % 3, 6, rng=rng)
        truth = not legal_moves(board)
        seen.add(truth)
        assert dead(board) == truth
    assert seen == {True, False}


# ----------------------------------------------------------------------------- exact rates, tiny boards


def _python_exact(rows: int, cols: int, kinds: int) -> tuple[int, int, float, float]:
    """Plain enumeration: stable boards, dead ones, and P(dead) under the exclude deal."""
    stable = dead = 0
    p_dead = p_total = 0.0
    for cells in itertools.product(range(kinds), repeat=rows * cols):
        grid = [list(cells[r * cols:(r + 1) * cols]) for r in range(rows)]
        board = Board(tuple(map(tuple, grid)), kinds)
        if find_runs(board):
            continue
        stable += 1
        p = 1.0
        partial = [[-1] * cols for _ in range(rows)]
        for r in range(rows):
            for c in range(cols):
                p /= kinds - len(banned_kinds(partial, r, c))
                partial[r][c] = grid[r][c]
        p_total += p
        if not legal_moves(board):
            dead += 1
            p_dead += p
    assert p_total == pytest.approx(1.0)  # the exclude deal only ever makes stable boards
    return stable, dead, p_dead, p_total


def test_exact_dead_rates_match_a_plain_enumeration():
    stable, dead, p_dead, _ = _python_exact(3, 3, 3)
    exact = exact_dead_rates(3, 3, 3)
    assert (exact.boards, exact.stable, exact.dead) == (3**9, stable, dead)
    assert exact.uniform == pytest.approx(dead / stable)
    assert exact.exclude == pytest.approx(p_dead)
    assert exact.p_max / exact.p_min > 10  # the exclude deal is far from uniform


def test_the_saved_exact_rates_are_what_the_enumeration_gives():
    from tilelab.match3.stats import SAVED_EXACT_DEAD_RATES

    for (rows, cols, kinds), saved in SAVED_EXACT_DEAD_RATES.items():
        assert exact_dead_rates(rows, cols, kinds, saved=True) is saved
        assert exact_dead_rates(rows, cols, kinds) == saved


def test_exact_dead_rates_refuses_huge_enumerations():
    with pytest.raises(ValueError, match="too many"):
        exact_dead_rates(6, 6, 6)


@pytest.mark.parametrize("method", ["exclude", "reject"])
def test_sampled_rates_cover_the_exact_rates(method):
    exact = exact_dead_rates(3, 4, 3)  # uniform 0.0140, exclude 0.0203
    samples = 40_000
    dead = round(dead_fraction(3, 4, 3, samples, rng=11, method=method) * samples)
    lo, hi = wilson_interval(dead, samples, z=3.3)
    target = exact.uniform if method == "reject" else exact.exclude
    other = exact.exclude if method == "reject" else exact.uniform
    assert lo <= target <= hi
    assert not lo <= other <= hi  # the two deals are told apart


def test_on_5x5_with_6_kinds_the_exclude_deal_is_less_often_dead_than_uniform():
    n = 100_000
    ex = round(dead_fraction(5, 5, 6, n, rng=5, method="exclude") * n)
    rj = round(dead_fraction(5, 5, 6, n, rng=5, method="reject") * n)
    assert wilson_interval(ex, n)[1] < wilson_interval(rj, n)[0]
    assert 0.024 < ex / n < 0.030 and 0.028 < rj / n < 0.033


def test_dead_fraction_methods_are_deterministic_and_checked():
    for method in ("exclude", "reject"):
        assert dead_fraction(5, 5, 7, 3000, rng=1, method=method) == dead_fraction(5, 5, 7, 3000, rng=1, method=method)
    assert dead_table([4, 5], [6, 7], 500, rng=0, method="reject").shape == (2, 2)
    with pytest.raises(ValueError, match="unknown method"):
        dead_fraction(5, 5, 6, 10, rng=0, method="uniform")
    with pytest.raises(TypeError, match="samples"):
        dead_fraction(5, 5, 6, 10.0, rng=0)


def test_rejection_gives_up_with_advice_when_stable_boards_are_too_rare(monkeypatch):
    monkeypatch.setattr(stats, "MAX_REJECT_TRIES", 10_000)
    with pytest.raises(ValueError, match="method='exclude'"):
        dead_fraction(12, 12, 3, 5, rng=0, method="reject")


def test_wilson_interval():
    lo, hi = wilson_interval(0, 100)
    assert lo == 0 and 0.03 < hi < 0.04
    assert wilson_interval(50, 100)[0] < 0.5 < wilson_interval(50, 100)[1]
    with pytest.raises(ValueError):
        wilson_interval(5, 3)


# ----------------------------------------------------------------------------- playing until dead


def test_moves_until_dead_is_seeded_and_bounded():
    a = moves_until_dead(6, 6, 7, 30, 40, rng=2)
    assert (a == moves_until_dead(6, 6, 7, 30, 40, rng=2)).all()
    assert ((a >= 1) & (a <= 41)).all() and (a <= 40).any()


# ----------------------------------------------------------------------------- RemoveCandys


def test_remove_candys_agrees_with_clear_and_fall_on_the_articles_own_groups():
    rng = np.random.default_rng(8)
    checked = 0
    for _ in range(400):
        grid = rng.integers(0, 4, (6, 6))
        board = Board.from_array(grid, 4)
        for cell in board.cells():
            group = next(check_dispel_article([list(row) for row in board.grid], *cell), None)
            if group is None:
                continue
            expected = fall(clear_cells(board, group))[0]
            assert remove_candys_article(board, group) == expected
            checked += 1
    assert checked > 500


def test_remove_candys_goes_wrong_when_a_column_holds_two_stretches():
    board = Board.parse("012\n111\n201\n222", kinds=3)
    cells = sorted({(1, 0), (1, 1), (1, 2), (3, 0), (3, 1), (3, 2)}, key=lambda x: (x[1], x[0]))
    article = remove_candys_article(board, cells)
    right = fall(clear_cells(board, cells))[0]
    assert article != right
    assert article.counts()[1] > right.counts()[1]  # a cleared 1 survived
    assert article.counts()[2] < right.counts()[2]  # a kept 2 was destroyed
