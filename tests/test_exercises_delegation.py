"""Every exercise that asks students to write something the package has refuses the package's version."""

from __future__ import annotations

import pytest

from tilelab.exercises import list_exercises, package_calls

# Exercises whose answer is not a re-implementation of a package function, so there is nothing to refuse.
NOTHING_TO_REFUSE = {
    "2048.compact": "the answer works on a CountingLine; every access is counted and the result rebuilt from them",
    "2048.one_legal_move": "the answer is a board (a counterexample), not a function",
    "2048ai.heuristic_contest": "the answer is a set of weights for the package's own evaluation",
    "2048ai.worst_spawn": "no package function takes the minimum over spawns",
    "2048learn.tuple_shape": "the answer is a tuple shape; mirrors of given tuples are dropped before training",
}


@pytest.mark.parametrize("name", list_exercises())
def test_every_exercise_names_what_it_refuses(name: str) -> None:
    if name in NOTHING_TO_REFUSE:
        assert not package_calls(name), f"{name} refuses something after all: drop it from NOTHING_TO_REFUSE"
    else:
        assert package_calls(name), f"{name}: register forbid=(...) with the package functions that do its job"
