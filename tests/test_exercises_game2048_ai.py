"""Lesson 2 checkers: right answers pass, wrong ones fail with a counterexample, crashes are reported."""

from __future__ import annotations

from tilelab.exercises import check, list_exercises
from tilelab.game2048 import ai, legal_moves, spawn_outcomes
from tilelab.game2048.expectimax import row_terms


def test_the_lesson_two_exercises_are_registered():
    assert {"2048ai.chance_value", "2048ai.monotonicity", "2048ai.merges", "2048ai.best_move"} <= set(list_exercises())


def test_chance_value_right_wrong_and_crashing():
    def mine(after, evaluate, p_four):
        return sum(p * evaluate(after.with_tile(s.cell, s.value)) for s, p in spawn_outcomes(after, p_four))

    assert check("2048ai.chance_value", mine)
    uniform = check("2048ai.chance_value", lambda a, f, p: sum(f(a.with_tile(s.cell, s.value))
                                                              for s, _ in spawn_outcomes(a, p)) / len(spawn_outcomes(a, p)))
    assert not uniform and uniform.counterexample is not None  # forgetting the probabilities is caught
    crash = check("2048ai.chance_value", lambda a, f, p: 1 / 0)
    assert not crash and "ZeroDivisionError" in crash.message


def test_monotonicity_and_merges():
    def mono(line, power):
        down = sum(max(0, line[i] ** power - line[i + 1] ** power) for i in range(len(line) - 1))
        up = sum(max(0, line[i + 1] ** power - line[i] ** power) for i in range(len(line) - 1))
        return min(down, up)

    assert check("2048ai.monotonicity", mono)
    assert not check("2048ai.monotonicity", lambda line, power: sum(line))
    one_way = check("2048ai.monotonicity", lambda line, p: sum(max(0, line[i] ** p - line[i + 1] ** p) for i in range(3)))
    assert not one_way
    assert check("2048ai.merges", lambda line: row_terms(line)["merges"])
    pairs = check("2048ai.merges", lambda line: sum(line[i] == line[i + 1] != 0 for i in range(3)))
    assert not pairs  # counting equal neighbours misses gaps and triple runs


def test_best_move():
    def best(board, depth):
        values = ai.expectimax_values(board, depth)
        return max(values, key=values.get)

    assert check("2048ai.best_move", best)
    first_legal = check("2048ai.best_move", lambda board, depth: legal_moves(board)[0])
    assert not first_legal and "values" in first_legal.message
    assert not check("2048ai.best_move", lambda board, depth: "sideways")


def test_worst_spawn():
    def worst(after, evaluate):
        return min(evaluate(after.with_tile(s.cell, s.value)) for s, _ in spawn_outcomes(after))

    assert check("2048ai.worst_spawn", worst)
    average = check("2048ai.worst_spawn", lambda a, f: sum(p * f(a.with_tile(s.cell, s.value)) for s, p in spawn_outcomes(a)))
    assert not average and average.counterexample is not None  # the expectimax average is not the minimum
    only_twos = check("2048ai.worst_spawn", lambda a, f: min(f(a.with_tile(s.cell, 2)) for s, _ in spawn_outcomes(a)))
    assert not only_twos  # forgetting that a 4 can spawn is caught
    assert not check("2048ai.worst_spawn", lambda a, f: 0)


def test_confidence_intervals():
    from tilelab.exercises.game2048_ai import mean_ci, rate_ci

    mean, half = mean_ci([10.0, 12.0, 14.0])
    assert mean == 12.0 and 4.9 < half < 5.0  # t with 2 degrees of freedom: 4.303 standard errors
    assert abs(rate_ci(0, 10)[1]) < 1e-12 and abs(rate_ci(10, 10)[2] - 1.0) < 1e-12
    p, low, high = rate_ci(30, 100)
    assert low < p < high and 0.21 < low < 0.22 and 0.39 < high < 0.40


def test_heuristic_contest_reports_and_judges():
    from tilelab.game2048.expectimax import DEFAULT_WEIGHTS

    same = check("2048ai.heuristic_contest", DEFAULT_WEIGHTS, games=3)
    assert not same  # identical weights: difference exactly 0, so the interval cannot lie above zero
    assert "yours" in same.message and "default" in same.message and "95% CI" in same.message
    weak = check("2048ai.heuristic_contest", DEFAULT_WEIGHTS.only("sum"), games=4)
    assert not weak and "paired difference" in weak.message
    bad = check("2048ai.heuristic_contest", "strong", games=3)
    assert not bad and "HeuristicWeights" in bad.message
