"""Lesson 4 checkers: right answers pass, the classic mistakes fail with a counterexample."""

from __future__ import annotations

from tilelab.exercises import check
from tilelab.sliding import Puzzle, manhattan, misplaced, solve


def test_reference_answers_pass():
    assert check("solvers.misplaced", misplaced).passed
    assert check("solvers.manhattan", manhattan).passed
    assert check("solvers.admissible", manhattan).passed
    assert check("solvers.search", lambda p: solve(p, heuristic="manhattan").moves).passed


def test_counting_the_blank_is_caught():
    def counts_blank(p: Puzzle) -> int:
        return sum(1 for i, t in enumerate(p.tiles) if t != (i + 1) % p.size)

    result = check("solvers.misplaced", counts_blank)
    assert not result.passed and result.counterexample == Puzzle.goal(3, 3).slide(8)


def test_wrong_manhattan_is_caught():
    result = check("solvers.manhattan", lambda p: manhattan(p) + (p.tiles[0] == 0))
    assert not result.passed and result.counterexample.tiles[0] == 0


def test_overestimating_heuristic_is_not_admissible():
    result = check("solvers.admissible", lambda p: manhattan(p) + 1)
    assert not result.passed and "not admissible" in result.message
    assert "Manhattan" in check("solvers.admissible", lambda p: 0).message  # admissible but weak


def test_a_crashing_or_suboptimal_search_fails_politely():
    assert not check("solvers.search", lambda p: solve(p, "human").moves).passed
    assert not check("solvers.search", lambda p: [99]).passed
    assert "raised" in check("solvers.search", lambda p: 1 / 0).message
