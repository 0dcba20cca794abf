"""Lesson 5 checkers accept the reference answers and catch typical mistakes."""

from __future__ import annotations

import numpy as np

from tilelab.exercises import check, list_exercises
from tilelab.match3 import Board, EMPTY, fall, find_runs, is_dead, new_board, stable_board
from tilelab.match3.dispel import is_dead_by_rule


def test_all_match3_exercises_are_registered():
    assert {"match3.find_runs", "match3.fall", "match3.is_dead", "match3.deal",
            "match3.deal_probability"} <= set(list_exercises())


def test_find_runs_checker():
    right = lambda b: {c for run in find_runs(b) for c in run.cells}  # noqa: E731
    assert check("match3.find_runs", right).passed
    rows_only = lambda b: {c for run in find_runs(b) if run.direction == "row" for c in run.cells}  # noqa: E731
    result = check("match3.find_runs", rows_only)
    assert not result.passed and result.counterexample is not None
    crash = check("match3.find_runs", lambda b: 1 / 0)
    assert not crash.passed and "ZeroDivisionError" in crash.message


def test_fall_checker():
    assert check("match3.fall", lambda b: fall(b)[0]).passed
    one_step = lambda b: Board(  # noqa: E731 - drops each candy by at most one cell
        tuple(tuple(b[r - 1, c] if r and b[r, c] == EMPTY else (EMPTY if r + 1 < b.rows and b[r + 1, c] == EMPTY
              else b[r, c]) for c in range(b.cols)) for r in range(b.rows)), b.kinds)
    assert not check("match3.fall", one_step).passed


def test_is_dead_checker_accepts_the_article_rule_on_stable_boards_only():
    assert check("match3.is_dead", is_dead).passed
    assert check("match3.is_dead", is_dead_by_rule).passed  # right on stable boards
    assert not check("match3.is_dead", lambda b: False).passed
    assert not check("match3.is_dead", lambda b: True).passed


def test_deal_checker():
    assert check("match3.deal", stable_board).passed
    assert check("match3.deal", new_board).passed
    uniform = lambda r, c, k, rng: Board.from_array(rng.integers(0, k, (r, c)), k)  # noqa: E731
    assert "ready run" in check("match3.deal", uniform).message
    fixed = lambda r, c, k, rng: stable_board(r, c, k, 0)  # noqa: E731
    assert "different seeds" in check("match3.deal", fixed).message
    assert not check("match3.deal", lambda r, c, k, rng: np.zeros((r, c))).passed


def test_an_answer_that_returns_nothing_is_told_so():
    # a stub that forgot `return` used to be reported as "you returned False"
    result = check("match3.is_dead", lambda b: None)
    assert not result.passed and "you returned None" in result.message
    assert check("match3.is_dead", lambda b: np.bool_(is_dead(b))).passed


def test_deal_probability_checker_wants_the_exclude_deals_chance():
    from tilelab.match3.generate import exclude_probability

    assert check("match3.deal_probability", exclude_probability).passed
    uniform = lambda b: 0.0 if find_runs(b) else b.kinds ** -(b.rows * b.cols)  # noqa: E731 - ignores the bans
    assert not check("match3.deal_probability", uniform).passed
    assert not check("match3.deal_probability", lambda b: 0).passed
    no_zero = lambda b: exclude_probability(b) or 1e-9  # noqa: E731 - forgets that runs are never dealt
    assert not check("match3.deal_probability", no_zero).passed
    assert not check("match3.deal_probability", lambda b: True).passed
