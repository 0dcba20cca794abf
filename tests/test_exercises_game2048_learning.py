"""Lesson 6 checkers: the TD update and the tuple-shape contest."""

from __future__ import annotations

from tilelab.exercises import allow_package_calls, check
from tilelab.game2048.learning.ntuple_net import CLASSROOM_TUPLES
from tilelab.game2048.learning.ntuple_ref import feature_indices_ref, td_update_ref, value_ref


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
