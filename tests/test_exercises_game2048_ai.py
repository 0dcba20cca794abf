"""Lesson 2 checkers: right answers pass, wrong ones fail with a counterexample, crashes are reported."""

from __future__ import annotations

import pytest

from tilelab.exercises import allow_package_calls, check, list_exercises
from tilelab.game2048 import Board, Direction, ai, legal_moves, play, spawn_outcomes
from tilelab.game2048 import Expectimax, slide_row
from tilelab.game2048.expectimax import row_terms


def test_the_lesson_two_exercises_are_registered():
    assert {"2048ai.chance_value", "2048ai.monotonicity", "2048ai.merges", "2048ai.best_move",
            "2048ai.expectimax"} <= set(list_exercises())


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
    with allow_package_calls():
        assert check("2048ai.merges", lambda line: row_terms(line)["merges"])
    pairs = check("2048ai.merges", lambda line: sum(line[i] == line[i + 1] != 0 for i in range(3)))
    assert not pairs  # counting equal neighbours misses gaps and triple runs


def test_the_line_checks_draw_the_line_they_fail_on():
    # the course's rule: the smallest counterexample shown as a picture, here the line as tiles and exponents
    wrong = check("2048ai.monotonicity", lambda line, power: 0.0)
    line, power = wrong.counterexample
    assert not wrong and wrong.picture is not None
    tiles, exponents = wrong.picture.splitlines()[:2]
    assert tiles.split()[1:] == ["." if e == 0 else str(2 ** e) for e in line]
    assert exponents.split()[1:] == [str(e) for e in line]

    def right_for_power_1(line, power):
        down = sum(max(0, line[i] - line[i + 1]) for i in range(len(line) - 1))
        return min(down, sum(max(0, line[i + 1] - line[i]) for i in range(len(line) - 1))) if power == 1 else 0.0

    fourth = check("2048ai.monotonicity", right_for_power_1)  # wrong first at power 4: the 4th powers are drawn too
    assert not fourth and fourth.counterexample[1] == 4
    assert fourth.picture.splitlines()[2].split()[3:] == [f"{e ** 4:.4g}" for e in fourth.counterexample[0]]
    crash = check("2048ai.merges", lambda line: 1 / 0)
    assert not crash and crash.picture.splitlines()[1].split()[1:] == [str(e) for e in crash.counterexample]


def test_best_move():
    def best(board, depth):
        values = ai.expectimax_values(board, depth)
        return max(values, key=values.get)

    with allow_package_calls():
        assert check("2048ai.best_move", best)

    def my_best(board, depth):  # a plain expectimax written here, not the package's
        def chance(after, d):
            total = 0.0
            for s, p in spawn_outcomes(after):
                child = after.with_tile(s.cell, s.value)
                total += p * (ai.evaluate(child) if d == 1 else
                              max((chance(play(child, m).board, d - 1) for m in legal_moves(child)), default=0.0))
            return total

        return max(legal_moves(board), key=lambda m: chance(play(board, m).board, depth))

    assert check("2048ai.best_move", my_best)
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


def _chance(after, depth, evaluate, best):
    return sum(p * (evaluate(after.with_tile(s.cell, s.value)) if depth == 1
                    else best(after.with_tile(s.cell, s.value), depth - 1, evaluate))
               for s, p in spawn_outcomes(after))


def _best(board, depth, evaluate):
    """The lesson's solution, in one expression."""
    return max((_chance(play(board, d).board, depth, evaluate, _best) for d in legal_moves(board)), default=0.0)


def _best_depth_zero(board, depth, evaluate):
    """An honest variant: the leaf test sits in the max node (depth 0 scores the board), moves tried by hand."""
    if depth == 0:
        return evaluate(board)
    values = []
    for d in Direction:
        result = play(board, d)
        if result.changed:
            after = result.board
            total = 0.0
            for spawn, p in spawn_outcomes(after):
                total += p * _best_depth_zero(after.with_tile(spawn.cell, spawn.value), depth - 1, evaluate)
            values.append(total)
    if not values:
        return 0.0
    return max(values)


def test_expectimax_accepts_the_solution_and_honest_variants():
    assert check("2048ai.expectimax", _best)
    assert check("2048ai.expectimax", _best_depth_zero)


def test_expectimax_refuses_the_usual_mistakes_on_the_smallest_board_with_a_picture():
    def uniform(board, depth, evaluate):  # a plain average, forgetting the probabilities
        def chance(after, depth):
            outcomes = spawn_outcomes(after)
            return sum((evaluate(after.with_tile(s.cell, s.value)) if depth == 1
                        else uniform(after.with_tile(s.cell, s.value), depth - 1, evaluate)) for s, _ in outcomes) / len(outcomes)
        return max((chance(play(board, d).board, depth) for d in legal_moves(board)), default=0.0)

    def no_recursion(board, depth, evaluate):  # always scores the spawns, whatever the depth
        return max((_chance(play(board, d).board, 1, evaluate, None) for d in legal_moves(board)), default=0.0)

    def mean_of_moves(board, depth, evaluate):  # averages the moves instead of taking the best
        values = [_chance(play(board, d).board, depth, evaluate, mean_of_moves) for d in legal_moves(board)]
        return sum(values) / len(values) if values else 0.0

    def lost_is_minus_one(board, depth, evaluate):  # a lost board worth -1, not 0
        return max((_chance(play(board, d).board, depth, evaluate, lost_is_minus_one) for d in legal_moves(board)),
                   default=-1.0)

    for wrong in (uniform, no_recursion, mean_of_moves, lost_is_minus_one, lambda b, d, f: 0.0):
        result = check("2048ai.expectimax", wrong)
        assert not result and result.picture, wrong
        board = result.counterexample[0]
        assert board.size == 2, (wrong, result)  # the smallest boards come first
    first = check("2048ai.expectimax", lambda b, d, f: 0.0).counterexample
    assert first[0] == Board.parse("8 4\n2 .") and first[1] == 1  # the lesson's own board, depth 1


def test_confidence_intervals():
    from tilelab.exercises.game2048_ai import mean_ci, rate_ci

    mean, half = mean_ci([10.0, 12.0, 14.0])
    assert mean == 12.0 and 4.9 < half < 5.0  # t with 2 degrees of freedom: 4.303 standard errors
    assert abs(rate_ci(0, 10)[1]) < 1e-12 and abs(rate_ci(10, 10)[2] - 1.0) < 1e-12
    p, low, high = rate_ci(30, 100)
    assert low < p < high and 0.21 < low < 0.22 and 0.39 < high < 0.40


@pytest.mark.parametrize("name, answer, called", [
    ("2048ai.chance_value", lambda a, f, p: ai.chance_value(a, 1, f, p), "chance_value"),
    ("2048ai.chance_value", lambda a, f, p: ai.expectimax_values(a, 1, f, p), "expectimax_values"),
    ("2048ai.monotonicity", lambda line, p: row_terms(line, mono_power=p)["monotonicity"], "row_terms"),
    ("2048ai.merges", lambda line: row_terms(line)["merges"], "row_terms"),
    ("2048ai.merges", lambda line: sum(m.merged for m in slide_row([2**e if e else 0 for e in line]).moves), "slide_row"),
    ("2048ai.expectimax", lambda board, depth, f: ai.best_value(board, depth, f), "best_value"),
    ("2048ai.expectimax", lambda b, depth, f: max(ai.expectimax_values(b, depth, f).values(), default=0.0),
     "expectimax_values"),
    ("2048ai.expectimax", lambda b, depth, f: max((ai.chance_value(play(b, d).board, depth, f) for d in legal_moves(b)),
                                                  default=0.0), "chance_value"),
    ("2048ai.best_move", lambda board, depth: Expectimax(depth=depth).think(board).direction, "Expectimax"),
    ("2048ai.best_move", lambda b, d: max((v, m) for m, v in ai.expectimax_values(b, d).items())[1], "expectimax_values"),
])
def test_answers_that_call_the_package_are_refused(name, answer, called):
    result = check(name, answer)
    assert not result and result.reason == "delegated" and called in result.counterexample


def test_heuristic_contest_practice_never_passes_and_final_plays_fresh_seeds(monkeypatch):
    import tilelab.exercises.game2048_ai as lesson
    from tilelab.game2048.expectimax import DEFAULT_WEIGHTS, HeuristicWeights

    monkeypatch.setattr(lesson, "CONTEST_DEPTH", 1)  # depth 1 keeps the test quick; the rules are the same
    seen = []
    real = lesson.contest
    monkeypatch.setattr(lesson, "contest", lambda w, games, *, first_seed: seen.append(first_seed) or real(w, games, first_seed=first_seed))
    with allow_package_calls():  # the spy is this test's code calling tilelab
        strong = HeuristicWeights(monotonicity=60.0)
        practice = check("2048ai.heuristic_contest", strong, games=3)
        assert not practice and "practice" in practice.message and "final=True" in practice.message
        assert seen == [lesson.CONTEST_SEED] * 2
        too_few = check("2048ai.heuristic_contest", strong, games=lesson.FINAL_GAMES - 1, final=True)
        assert not too_few and f"at least {lesson.FINAL_GAMES}" in too_few.message
        same = check("2048ai.heuristic_contest", DEFAULT_WEIGHTS, games=lesson.FINAL_GAMES, final=True)
        assert not same and "fresh seeds" in same.message  # identical weights: difference 0, never above zero
        assert seen[-1] == lesson.final_seed(DEFAULT_WEIGHTS) >= lesson.FINAL_SEED_BASE > lesson.CONTEST_SEED + 10_000
        assert lesson.final_seed(strong) != lesson.final_seed(DEFAULT_WEIGHTS)  # a fresh block for every answer
        weak = check("2048ai.heuristic_contest", DEFAULT_WEIGHTS.only("sum"), games=lesson.FINAL_GAMES, final=True)
        assert not weak and "does not lie above zero" in weak.message
        assert all(len(r.message) <= 300 for r in (practice, too_few, same, weak))


def test_heuristic_contest_refuses_bad_input():
    bad = check("2048ai.heuristic_contest", "strong", games=3)
    assert not bad and "HeuristicWeights" in bad.message
    assert not check("2048ai.heuristic_contest", {"monotonicity": 60.0}, games=1)
