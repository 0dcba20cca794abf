"""Lessons 6a and 6b checkers: the TD update and the tuple-shape contest (6a), the learner's loop (6b)."""

from __future__ import annotations

import numpy as np
import pytest

from tilelab.exercises import allow_package_calls, check
from tilelab.exercises.game2048_learning import TrainerSpawn
from tilelab.game2048 import Board, legal_moves, play
from tilelab.game2048.learning.ntuple_net import CLASSROOM_TUPLES, NTupleNetwork
from tilelab.game2048.learning.ntuple_ref import feature_indices_ref, learn_game_ref, td_update_ref, value_ref


def my_td_update(net, after, target, alpha):  # written here, not the package's
    indices = feature_indices_ref(net, after)
    error = target - value_ref(net, after)
    for i in indices:
        net.weights[i] += alpha * error / len(indices)
    return error


def test_td_update_checker_accepts_a_right_answer_and_refuses_near_misses():
    assert check("2048learn.td_update", my_td_update).passed
    with allow_package_calls():
        assert check("2048learn.td_update", td_update_ref).passed
    assert not check("2048learn.td_update", lambda net, after, target, alpha: None).passed

    def no_split(net, after, target, alpha):  # forgets to share the step among the F weights
        error = target - value_ref(net, after)
        for i in feature_indices_ref(net, after):
            net.weights[i] += alpha * error

    wrong = check("2048learn.td_update", no_split)
    assert not wrong and wrong.picture is not None and len(wrong.picture.splitlines()) == 4


def test_td_update_must_change_the_array_the_net_has():
    """The brief says "change the numbers inside net.weights": a new array (the trainer and players would never see
    it) does not pass, even with the right numbers in it."""

    def new_array(net, after, target, alpha):
        weights = net.weights.copy()
        indices = feature_indices_ref(net, after)
        error = target - value_ref(net, after)
        for i in indices:
            weights[i] += alpha * error / len(indices)
        net.weights = weights

    result = check("2048learn.td_update", new_array)
    assert not result and "new weights array" in result.message and len(result.picture.splitlines()) == 4

    def slice_assign(net, after, target, alpha):  # writes into the same array: fine
        weights = net.weights.copy()
        my_td_update(NTupleNetwork(net.tuples, weights), after, target, alpha)
        net.weights[:] = weights

    assert check("2048learn.td_update", slice_assign).passed


def test_td_update_refuses_the_package_update():
    delegate = check("2048learn.td_update", td_update_ref)
    assert not delegate and delegate.reason == "delegated" and delegate.counterexample.endswith("td_update_ref")

    def wrapped(net, after, target, alpha):
        return td_update_ref(net, after, target, alpha)

    assert check("2048learn.td_update", wrapped).counterexample.endswith("td_update_ref")


def test_tuple_shape_contest_needs_an_interval_above_zero():
    squares = [(0, 1, 4, 5), (1, 2, 5, 6)]  # two 2x2 squares: the two lines' 131,072 weights, a better shape
    better = check("2048learn.tuple_shape", squares, games=300)
    assert better.passed and "95% CI" in better.message
    assert not check("2048learn.tuple_shape", [(0,)], games=300).passed
    assert not check("2048learn.tuple_shape", [(0, 1, 2, 3, 4)]).passed  # too many cells
    assert not check("2048learn.tuple_shape", 5).passed
    few = check("2048learn.tuple_shape", squares, games=300, test_games=20)
    assert not few and "at least 200" in few.message


def test_tuple_shape_compares_nets_of_equal_size():
    """The review's loophole: any superset of the given net won by its size (given + (0, 4): +1,320 ± 345)."""
    from tilelab.game2048.learning.ntuple_net import NTupleNetwork

    for bigger in ([(0, 1, 2, 3), (4, 5, 6, 7), (0, 4)], CLASSROOM_TUPLES):
        result = check("2048learn.tuple_shape", bigger, games=300)
        assert not result and NTupleNetwork(result.counterexample).weights.size > 2 * 16**4
        assert f"{2 * 16**4:,}" in result.message


def test_tuple_shape_gains_nothing_from_a_mirror_copy_of_a_given_tuple():
    # (8, 9, 10, 11) is (4, 5, 6, 7) flipped top to bottom; (3, 2, 1, 0) is (0, 1, 2, 3) mirrored
    for copy in ([(0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11)], [(0, 1, 2, 3), (3, 2, 1, 0), (4, 5, 6, 7)]):
        result = check("2048learn.tuple_shape", copy, games=300)
        assert not result and "dropped" in result.message and "+0 ± 0" in result.message


# ------------------------------------------------------------------------------ 6b: the learner's loop
def my_learn_game(net, spawn, alpha=0.1):  # the lesson's solution
    board = spawn(spawn(Board.empty(4)))
    score = 0
    previous = None
    while True:
        moves = [play(board, d) for d in legal_moves(board)]
        if not moves:
            if previous is not None:
                td_update_ref(net, previous, 0.0, alpha)
            return score
        best = None
        best_value = 0.0
        for m in moves:
            value = m.score + value_ref(net, m.board)
            if best is None or value > best_value:
                best = m
                best_value = value
        if previous is not None:
            td_update_ref(net, previous, best_value, alpha)
        previous = best.board
        score = score + best.score
        board = spawn(best.board)


def learner(*, choose="value", update="previous", target="full", final=True, ties="first", spawn_first=False,
            own_update=False, fixed_alpha=None, other_net=False):
    """A learner with one slip (or one honest variation) switched on."""
    mine = NTupleNetwork.classroom()  # other_net: the net the student made in an earlier cell

    def td(net, after, aim, alpha):
        alpha = alpha if fixed_alpha is None else fixed_alpha
        if not own_update:
            return td_update_ref(net, after, aim, alpha)
        indices = feature_indices_ref(net, after)
        error = aim - value_ref(net, after)
        for i in indices:
            net.weights[i] += alpha * error / len(indices)

    def game(net, spawn, alpha=0.1):
        net = mine if other_net else net
        board = spawn(spawn(Board.empty(4)))
        score, previous = 0, None
        while True:
            moves = [play(board, d) for d in legal_moves(board)]
            if not moves:
                if previous is not None and final:
                    td(net, previous, 0.0, alpha)
                return score
            best = None
            for m in moves:
                key = m.score if choose == "reward" else m.score + value_ref(net, m.board)
                best_key = None if best is None else (
                    best.score if choose == "reward" else best.score + value_ref(net, best.board))
                if best is None or key > best_key or (ties == "last" and key == best_key):
                    best = m
            aim = {"full": best.score + value_ref(net, best.board), "no reward": value_ref(net, best.board),
                   "reward only": float(best.score)}[target]
            if spawn_first:
                board = spawn(best.board)
            if previous is not None:
                td(net, previous if update == "previous" else best.board, aim, alpha)
            previous, score = best.board, score + best.score
            if not spawn_first:
                board = spawn(best.board)

    return game


@pytest.mark.parametrize("honest", [
    my_learn_game, learner(), learner(ties="last"), learner(spawn_first=True), learner(own_update=True),
], ids=["solution", "max-key", "ties-last", "update-after-spawn", "own-update"])
def test_learn_game_accepts_honest_learners(honest):
    result = check("2048learn.learn_game", honest)
    assert result.passed, result


@pytest.mark.parametrize("slip, words", [
    (dict(choose="reward"), "largest reward + V"),
    (dict(final=False), "game over"),
    (dict(update="new"), "new afterstate"),
    (dict(target="no reward"), "leaves out the move's reward"),
    (dict(target="reward only"), "leaves out V(new afterstate)"),
    (dict(final=False, spawn_first=True), "game over"),
    (dict(other_net=True), "the net your function receives"),
], ids=["reward-only", "no-final-update", "wrong-afterstate", "target-without-reward", "target-without-V",
        "no-final-update-after-spawn", "another-net"])
def test_learn_game_refuses_near_misses_with_a_picture(slip, words):
    result = check("2048learn.learn_game", learner(**slip))
    assert not result and words in result.message and result.picture, result
    assert "a net of one 2-cell tuple" in result.message  # the smallest net shows it already


def test_learn_game_names_a_typed_alpha():
    result = check("2048learn.learn_game", learner(fixed_alpha=0.1))  # right on the alpha=0.1 game, not on 0.5
    assert not result and "alpha = 0.1" in result.message and "alpha = 0.5" in result.message, result


def test_learn_game_names_updates_of_another_net():
    def updates_its_own(net, spawn, alpha=0.1):  # chooses with the net it receives, updates a copy
        other = NTupleNetwork(net.tuples, net.weights.copy())
        board = spawn(spawn(Board.empty(4)))
        score, previous = 0, None
        while True:
            moves = [play(board, d) for d in legal_moves(board)]
            if not moves:
                return score
            best = max(moves, key=lambda m: m.score + value_ref(net, m.board))
            if previous is not None:
                td_update_ref(other, previous, best.score + value_ref(net, best.board), alpha)
            previous, score = best.board, score + best.score
            board = spawn(best.board)

    result = check("2048learn.learn_game", updates_its_own)
    assert not result and "weights never changed" in result.message, result


def test_learn_game_refuses_what_is_no_game():
    def stops_early(net, spawn, alpha=0.1):
        spawn(spawn(Board.empty(4)))
        return 0

    assert "still had a move" in check("2048learn.learn_game", stops_early).message
    assert "never got going" in check("2048learn.learn_game", lambda net, spawn, alpha=0.1: 0).message

    def wrong_score(net, spawn, alpha=0.1):
        return my_learn_game(net, spawn, alpha) + 2

    assert "return the score" in check("2048learn.learn_game", wrong_score).message

    def no_moves_chosen(net, spawn, alpha=0.1):  # hands spawn a board no move makes
        board = spawn(spawn(Board.empty(4)))
        return spawn(board)

    assert "no move makes" in check("2048learn.learn_game", no_moves_chosen).message


def test_learn_game_names_the_missing_first_move_guard():
    def no_guard(net, spawn, alpha=0.1):  # updates V(previous) while previous is still None
        board = spawn(spawn(Board.empty(4)))
        previous = None
        while True:
            moves = [play(board, d) for d in legal_moves(board)]
            best = max(moves, key=lambda m: m.score + value_ref(net, m.board))
            td_update_ref(net, previous, best.score + value_ref(net, best.board), alpha)
            previous = best.board
            board = spawn(best.board)

    result = check("2048learn.learn_game", no_guard)
    assert not result and "first move" in result.message and "previous is not None" in result.message, result


def test_learn_game_refuses_the_package_learner():
    def trains(net, spawn, alpha=0.1):
        net.train(1, rng=1)
        return 0

    result = check("2048learn.learn_game", trains)
    assert not result and result.reason == "delegated"

    def readable(net, spawn, alpha=0.1):
        return learn_game_ref(net, 12345, alpha)[0]

    result = check("2048learn.learn_game", readable)
    assert not result and result.reason == "delegated" and result.counterexample.endswith("learn_game_ref")


def test_trainer_spawn_hands_a_learner_the_trainers_games():
    """The loop the lesson asks for is the package's learner: with the trainer's tiles, the same weights exactly."""
    mine, package = NTupleNetwork.classroom(), NTupleNetwork.classroom()
    spawn = TrainerSpawn(2048)
    scores = [my_learn_game(mine, spawn) for _ in range(3)]
    package.train(3, rng=2048, block=3)
    assert np.array_equal(mine.weights, package.weights)
    assert package.curve[0].mean_score == sum(scores) / 3


def test_tuple_shape_in_the_browser_says_where_its_verdict_is_given(monkeypatch):
    """The browser kernel plays 10 games a net, too few to tell two nets apart: a refusal there says the verdict
    comes in JupyterLab, not that the shape is worse; JupyterLab's own refusal does not say so."""
    import tilelab.exercises.game2048_learning as learning

    squares = [(0, 1, 4, 5), (1, 2, 5, 6)]
    at_home = check("2048learn.tuple_shape", [(0,)], games=300)
    monkeypatch.setattr(learning, "IN_BROWSER", True)
    monkeypatch.setattr(learning, "MIN_TEST_GAMES", learning.BROWSER_GAMES)
    browser = check("2048learn.tuple_shape", squares)
    assert not at_home.passed and "JupyterLab" not in at_home.message
    if not browser.passed:
        assert "verdict in JupyterLab" in browser.message and "interval must lie above zero" not in browser.message
