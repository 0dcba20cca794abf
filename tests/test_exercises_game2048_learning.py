"""Lesson 6 checkers: the TD update and the tuple-shape contest."""

from __future__ import annotations

from tilelab.exercises import check
from tilelab.game2048.ntuple import CLASSROOM_TUPLES, feature_indices_ref, td_update_ref, value_ref


def test_td_update_checker_accepts_the_reference_and_refuses_near_misses():
    assert check("2048learn.td_update", td_update_ref).passed
    assert not check("2048learn.td_update", lambda net, after, target, alpha: None).passed

    def no_split(net, after, target, alpha):  # forgets to share the step among the F weights
        error = target - value_ref(net, after)
        for i in feature_indices_ref(net, after):
            net.weights[i] += alpha * error

    assert not check("2048learn.td_update", no_split).passed


def test_tuple_shape_contest():
    assert check("2048learn.tuple_shape", CLASSROOM_TUPLES, games=300).passed
    assert not check("2048learn.tuple_shape", [(0,)], games=300).passed
    assert not check("2048learn.tuple_shape", [(0, 1, 2, 3, 4)]).passed  # too many cells
    assert not check("2048learn.tuple_shape", 5).passed
