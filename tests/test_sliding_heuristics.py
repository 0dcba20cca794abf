"""Heuristics: admissible and consistent against the exact 8-puzzle distances, blank never counted."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilelab.sliding import Board, shuffle
from tilelab.sliding.fast.idastar import board_heuristic, heuristic_values
from tilelab.sliding.heuristics import (
    HEURISTICS,
    heuristic_function,
    line_conflicts,
    linear_conflict,
    manhattan,
    misplaced,
)
from tilelab.sliding.pdb import pattern_database
from tilelab.sliding.space import distance_table, unrank

SAMPLE = 4000  # boards of the 8-puzzle checked against the table (of 181,440)


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("TILELAB_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "pdb-cache"))


def _sample_boards(rows, cols, count, seed=0):
    table = distance_table(rows, cols)
    ranks = np.flatnonzero(table >= 0)
    chosen = np.random.default_rng(seed).choice(ranks, size=min(count, len(ranks)), replace=False)
    n = rows * cols
    return [(Board(unrank(int(r), n), rows, cols), int(table[r])) for r in chosen]


def test_misplaced_never_counts_the_blank():
    one_move = Board.goal(3, 3).slide(8)  # blank and tile 8 swapped: one move from the goal
    assert misplaced(one_move) == 1
    assert misplaced(Board.goal(4, 4)) == 0


@pytest.mark.parametrize("name", list(HEURISTICS))
@pytest.mark.parametrize("shape", [(3, 3), (2, 4), (3, 2)])
def test_heuristics_are_admissible_on_exact_distances(name, shape):
    h = HEURISTICS[name]
    for board, dist in _sample_boards(*shape, SAMPLE):
        assert h(board) <= dist, (name, board, dist)


def test_every_board_of_the_8_puzzle_all_heuristics_admissible():
    """The whole BFS table: permutations come out in rank (lexicographic) order."""
    table = distance_table(3, 3)
    boards = np.array(list(itertools.permutations(range(9))), np.int8)
    solvable = table >= 0
    db = pattern_database(3, 3, progress=False)
    truth = table[solvable]
    values = {}
    for name in ("misplaced", "manhattan", "linear-conflict", "pdb"):
        values[name] = heuristic_values(boards[solvable], 3, 3, name, db if name == "pdb" else None)
        assert (values[name] <= truth).all(), name
        assert ((values[name] == 0) == (truth == 0)).all(), name  # zero exactly at the goal
    assert (values["misplaced"] <= values["manhattan"]).all()
    assert (values["manhattan"] <= values["linear-conflict"]).all()
    assert (values["manhattan"] <= values["pdb"]).all()  # (pdb and linear conflict do not compare)
    assert values["pdb"].mean() > values["linear-conflict"].mean()


def test_every_8_puzzle_board_linear_conflict_admissible_and_zero_only_at_goal():
    table = distance_table(3, 3)
    for r in np.flatnonzero(table >= 0)[::7]:  # every 7th of all 181,440 boards
        board = Board(unrank(int(r), 9), 3, 3)
        value = linear_conflict(board)
        assert value <= table[r]
        assert (value == 0) == (table[r] == 0)


@pytest.mark.parametrize("name", list(HEURISTICS))
def test_heuristics_are_consistent(name):
    """|h(a) - h(b)| <= 1 for neighbours: A* never needs to reopen a board."""
    h = HEURISTICS[name]
    for board, _ in _sample_boards(3, 3, 1500, seed=1):
        for tile in board.neighbour_tiles():
            assert abs(h(board) - h(board.slide(tile))) <= 1


def test_heuristic_order_weakest_to_strongest():
    for board, _ in _sample_boards(3, 3, 500, seed=2):
        assert misplaced(board) <= manhattan(board) <= linear_conflict(board)


def test_line_conflicts_counts_removals_not_pairs():
    assert line_conflicts([2, 1, 0]) == 2  # three pairs in conflict, but two tiles leaving suffice
    assert line_conflicts([]) == 0
    assert line_conflicts([0, 3, 1, 2]) == 1


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([(3, 3), (4, 4), (3, 5), (5, 4)]))
def test_kernel_heuristics_match_the_reference(seed, shape):
    board = shuffle(*shape, rng=seed)
    for name, h in HEURISTICS.items():
        assert board_heuristic(board, name) == h(board)
        assert board_heuristic(board, name, jit=False) == h(board)


def test_pdb_3x3_admissible_and_matches_kernel():
    db = pattern_database(3, 3, progress=False)
    for board, dist in _sample_boards(3, 3, 2000, seed=3):
        assert manhattan(board) <= db.value(board) <= dist
        assert board_heuristic(board, "pdb", db) == db.value(board)


def test_unknown_heuristic_is_named():
    with pytest.raises(ValueError, match="manhattan"):
        heuristic_function("euclid")
