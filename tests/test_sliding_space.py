"""The state-space tables: the fast numpy BFS agrees with the readable one; the 8-puzzle's numbers."""

from __future__ import annotations

import itertools
from math import factorial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilelab.sliding import (
    Puzzle,
    bfs_distances,
    distance,
    distance_histogram,
    distance_table,
    is_solvable,
    rank,
    rank_many,
    shuffle,
    states_at_distance,
    unrank,
)


@given(st.integers(1, 9).flatmap(lambda n: st.permutations(range(n))))
@settings(deadline=None)
def test_rank_and_unrank_are_inverse(perm):
    perm = tuple(perm)
    r = rank(perm)
    assert 0 <= r < factorial(len(perm))
    assert unrank(r, len(perm)) == perm
    assert rank_many(np.array([perm]))[0] == r


def test_rank_is_lexicographic_order():
    perms = list(itertools.permutations(range(5)))
    assert [rank(p) for p in perms] == list(range(120))
    assert rank_many(np.array(perms)).tolist() == list(range(120))
    with pytest.raises(ValueError, match="outside"):
        unrank(120, 5)


@pytest.mark.parametrize("metric", ["single", "multi"])
@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 3), (3, 2), (2, 4)])
def test_fast_table_agrees_with_readable_bfs(rows, cols, metric):
    reference = bfs_distances(Puzzle.goal(rows, cols), metric)
    table = distance_table(rows, cols, metric)
    assert int((table >= 0).sum()) == len(reference) == factorial(rows * cols) // 2
    for board, d in reference.items():
        assert table[rank(board.tiles)] == d
    if rows * cols <= 6:
        for tiles in itertools.permutations(range(rows * cols)):
            p = Puzzle(tiles, rows, cols)
            assert (table[rank(tiles)] >= 0) == is_solvable(p)


def test_eight_puzzle_numbers():
    table = distance_table(3, 3)
    solvable = table[table >= 0]
    assert solvable.size == 181_440 and (table < 0).sum() == 181_440
    assert int(solvable.max()) == 31
    assert round(float(solvable.mean()), 2) == 21.97
    hist = distance_histogram(3, 3)
    assert hist.sum() == 181_440 and hist[0] == 1 and hist[31] == 2 and len(hist) == 32
    far = states_at_distance(3, 3, 31)
    assert [str(p).split() for p in far] == [
        ["6", "4", "7", "8", "5", ".", "3", "2", "1"],
        ["8", "6", "7", "2", "5", "4", "3", ".", "1"],
    ]
    # the multi-tile metric shortens the worst case to 24 moves
    assert int(distance_table(3, 3, "multi").max()) == 24


@given(st.integers(0, 10_000))
@settings(deadline=None)
def test_distance_agrees_with_is_solvable_and_moves(seed):
    p = shuffle(3, 3, seed)
    d = distance(p)
    assert d >= 0
    assert {distance(q) for _, q in p.neighbours()} <= {d - 1, d + 1}
    if d > 0:
        assert d - 1 in {distance(q) for _, q in p.neighbours()}
    unsolvable = p.swap_tiles(*[t for t in p.tiles if t][:2])
    assert distance(unsolvable) == -1


def test_table_is_cached_and_read_only():
    t = distance_table(2, 3)
    assert distance_table(2, 3) is t
    with pytest.raises(ValueError):
        t[0] = 5


def test_too_big_and_bad_metric():
    with pytest.raises(ValueError, match="too many for a table"):
        distance_table(4, 4)
    with pytest.raises(ValueError, match="metric"):
        distance_table(2, 2, "diagonal")
    with pytest.raises(ValueError, match="at least 2x2"):
        distance_table(1, 4)
