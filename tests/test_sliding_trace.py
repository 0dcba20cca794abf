"""Search traces are the package's searches, step by step: same moves, same node counts."""

from __future__ import annotations

import pytest

from tilelab.sliding import Board, distance, linear_conflict, manhattan, misplaced, shuffle, solve
from tilelab.sliding.search import astar_reference, bfs_reference, idastar_reference
from tilelab.sliding.trace import astar_trace, bfs_trace, idastar_trace, trace

BOARDS = [shuffle(3, 3, rng=s, method="walk", steps=14) for s in range(8)] + [shuffle(2, 3, rng=1)]


@pytest.mark.parametrize("board", BOARDS, ids=str)
def test_bfs_trace_is_bfs_reference(board):
    t, ref = bfs_trace(board), bfs_reference(board)
    assert t.moves == ref.moves and t.nodes == ref.nodes and t.found
    assert len(t.moves) == distance(board)
    # layer by layer: g never decreases, and the open set is in queue order
    gs = [s.g for s in t.steps]
    assert gs == sorted(gs)
    assert all(s.open[0].board == s.board for s in t.steps)


@pytest.mark.parametrize("h", [misplaced, manhattan, linear_conflict])
@pytest.mark.parametrize("board", BOARDS, ids=str)
def test_astar_trace_is_astar_reference(board, h):
    t, ref = astar_trace(board, h), astar_reference(board, h)
    assert t.moves == ref.moves and t.nodes == ref.nodes
    assert len(t.moves) == solve(board, heuristic="manhattan").length
    last = t.steps[-1]
    assert last.board.is_goal() and last.f == len(t.moves)
    # every step takes a board with the smallest f of the open set (consistent h: f never drops)
    for s in t.steps:
        assert s.f == min(w.f for w in s.open)
        assert s.closed_count == s.index
    assert all(s.board not in s.closed for s in t.steps[-5:])
    assert t.steps[-1].closed == {s.board for s in t.steps[:-1]}
    fs = [s.f for s in t.steps]
    assert fs == sorted(fs)


@pytest.mark.parametrize("h", [manhattan, linear_conflict])
@pytest.mark.parametrize("board", BOARDS, ids=str)
def test_idastar_trace_is_idastar_reference(board, h):
    t, ref = idastar_trace(board, h), idastar_reference(board, h)
    assert t.moves == ref.moves and t.nodes == ref.nodes
    assert t.steps[-1].bound == ref.bound == len(t.moves)
    assert all(not s.closed and s.f <= s.bound for s in t.steps)
    assert all(len(s.path) == s.g + 1 and s.path[-1] == s.board for s in t.steps)
    bounds = [s.bound for s in t.steps]
    assert bounds == sorted(bounds)
    assert [s.round for s in t.steps][-1] == len(set(bounds)) - 1


def test_weighted_astar_trace_matches_the_reference():
    board = BOARDS[2]
    t, ref = astar_trace(board, manhattan, weight=2.0), astar_reference(board, manhattan, weight=2.0)
    assert t.method == "weighted-astar" and t.moves == ref.moves and t.nodes == ref.nodes


def test_max_steps_truncates_and_bad_input_is_named():
    board = shuffle(3, 3, rng=0)
    t = bfs_trace(board, max_steps=50)
    assert t.truncated and not t.found and len(t.steps) == 50 and t.moves == ()
    assert idastar_trace(board, manhattan, max_steps=10).truncated
    with pytest.raises(ValueError, match="max_steps"):
        bfs_trace(board, max_steps=0)
    with pytest.raises(TypeError, match="Board"):
        astar_trace("1 2 3", manhattan)
    with pytest.raises(ValueError, match="unknown method"):
        trace(board, "dfs")


def test_goal_start_is_an_empty_solution():
    goal = Board.goal(3, 3)
    assert bfs_trace(goal).moves == () and bfs_trace(goal).found
    assert astar_trace(goal, manhattan).nodes == 0
    assert idastar_trace(goal, manhattan).nodes == 1 == idastar_reference(goal, manhattan).nodes
