"""The state-space tables: the fast numpy BFS agrees with the readable one; the 8-puzzle's numbers."""

from __future__ import annotations

import itertools
from math import factorial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilelab.sliding import (
    Board,
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
    reference = bfs_distances(Board.goal(rows, cols), metric)
    table = distance_table(rows, cols, metric)
    assert int((table >= 0).sum()) == len(reference) == factorial(rows * cols) // 2
    for board, d in reference.items():
        assert table[rank(board.tiles)] == d
    if rows * cols <= 6:
        for tiles in itertools.permutations(range(rows * cols)):
            p = Board(tiles, rows, cols)
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
    p = shuffle(3, 3, rng=seed)
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


# ------------------------------------------------------------------ exact walk distributions

from tilelab.sliding import WALK_RULES, PUZZLE8_ORDER, total_variation, walk_distribution  # noqa: E402


def _enumerate_walk(rows, cols, steps, rule):
    """Probability of each end board by following every random choice (tiny cases only)."""
    out: dict[tuple, float] = {}

    def legal(blank):
        r, c = divmod(blank, cols)
        return [d for d, (dr, dc) in enumerate(PUZZLE8_ORDER) if 0 <= r + dr < rows and 0 <= c + dc < cols]

    def go(tiles, blank, last, left, prob):
        if left == 0:
            out[tiles] = out.get(tiles, 0) + prob
            return
        moves = legal(blank)
        if rule == "puzzle8":
            choices = []
            for d in range(4):
                while d not in moves:
                    d = (d + 1) % 4
                choices.append((d, 0.25))
        elif rule == "simple":
            choices = [(d, 1 / len(moves)) for d in moves]
        elif rule == "lazy":
            choices = [(d, 0.25) for d in moves] + [(None, 1 - 0.25 * len(moves))]
        else:  # no-return
            ok = [d for d in moves if last is None or d != (1, 0, 3, 2)[last]]
            choices = [(d, 1 / len(ok)) for d in ok]
        for d, p in choices:
            if d is None:
                go(tiles, blank, last, left - 1, prob * p)
                continue
            r, c = divmod(blank, cols)
            cell = (r + PUZZLE8_ORDER[d][0]) * cols + c + PUZZLE8_ORDER[d][1]
            t = list(tiles)
            t[blank], t[cell] = t[cell], 0
            go(tuple(t), cell, d, left - 1, prob * p)

    goal = Board.goal(rows, cols)
    go(goal.tiles, goal.blank_index, None, steps, 1.0)
    return out


@pytest.mark.parametrize("rule", WALK_RULES)
@pytest.mark.parametrize("rows, cols, steps", [(2, 2, 5), (2, 3, 6), (3, 3, 5)])
def test_walk_distribution_matches_following_every_choice(rule, rows, cols, steps):
    exact = walk_distribution(rows, cols, steps, rule)
    solvable = np.flatnonzero(distance_table(rows, cols) >= 0)
    expected = np.zeros(len(solvable))
    for tiles, p in _enumerate_walk(rows, cols, steps, rule).items():
        expected[np.searchsorted(solvable, rank(tiles))] += p
    assert np.allclose(exact, expected) and abs(exact.sum() - 1) < 1e-9


def test_walk_distribution_facts_the_lesson_states():
    table = distance_table(3, 3)
    odd = table[table >= 0] % 2 == 1
    p81 = walk_distribution(3, 3, 81)
    assert p81[~odd].sum() == 0  # 81 moves: odd distances only
    assert abs(total_variation(p81) - 5 / 9) < 1e-9
    mixed = (p81 + walk_distribution(3, 3, 82)) / 2  # random parity: still 1/9 from uniform
    assert abs(total_variation(mixed) - 1 / 9) < 1e-6
    assert total_variation(walk_distribution(3, 3, 1000, "lazy")) < 1e-3  # the lazy walk does mix
    with pytest.raises(ValueError, match="rule"):
        walk_distribution(3, 3, 5, "drunk")
    with pytest.raises(ValueError, match="steps"):
        walk_distribution(3, 3, -1)


def test_walk_distribution_agrees_with_the_sampled_puzzle8_walk():
    from tilelab.sliding import puzzle8_walk

    rng = np.random.default_rng(3)
    goal = Board.goal(2, 3)
    exact = walk_distribution(2, 3, 7, "puzzle8")
    solvable = np.flatnonzero(distance_table(2, 3) >= 0)
    counts = np.zeros(len(solvable))
    draws = 20_000
    for _ in range(draws):
        counts[np.searchsorted(solvable, rank(goal.play_all(puzzle8_walk(goal, 7, rng=rng)).tiles))] += 1
    assert total_variation(counts / draws, exact) < 0.05


def test_total_variation():
    assert total_variation(np.array([0.25] * 4)) == 0
    assert total_variation(np.array([1.0, 0]), np.array([0, 1.0])) == 1
    with pytest.raises(ValueError, match="shape"):
        total_variation(np.ones(3) / 3, np.ones(2) / 2)
