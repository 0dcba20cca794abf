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
