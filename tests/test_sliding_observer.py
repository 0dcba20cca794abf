"""Observer hooks on the reference searches: observing never changes a search, and the steps are what it did."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilelab.sliding import Board, linear_conflict, manhattan, misplaced, shuffle
from tilelab.sliding.search import SearchStep, astar_reference, bfs_reference, idastar_reference
from tilelab.sliding.trace import astar_trace, bfs_trace, idastar_trace

HEURISTICS = [manhattan, misplaced, linear_conflict]


def _fields(out):
    return out.moves, out.nodes, out.found, out.stopped_early, out.bound


def _run(method, board, h, weight, max_nodes, observer=None):
    if method == "bfs":
        return bfs_reference(board, max_nodes, observer=observer)
    if method == "astar":
        return astar_reference(board, h, weight, max_nodes, observer=observer)
    return idastar_reference(board, h, max_nodes, observer=observer)


boards = st.builds(
    lambda shape, seed, steps: shuffle(*shape, rng=seed, method="walk", steps=steps),
    st.sampled_from([(2, 2), (2, 3), (3, 2), (3, 3)]), st.integers(0, 10**6), st.integers(0, 24),
)


@settings(max_examples=120, deadline=None)
@given(board=boards, method=st.sampled_from(["bfs", "astar", "idastar"]), h=st.sampled_from(HEURISTICS),
       weight=st.sampled_from([1.0, 1.5, 3.0]), max_nodes=st.none() | st.integers(1, 400))
def test_observed_and_unobserved_searches_agree(board, method, h, weight, max_nodes):
    steps: list[SearchStep] = []
    observed = _run(method, board, h, weight, max_nodes, steps.append)
    assert _fields(observed) == _fields(_run(method, board, h, weight, max_nodes))
    # one step per board taken: A* also shows the goal it takes, or the board it took when its budget ran out
    # (neither counted as a node); BFS tests children as it makes them, so it never takes the goal
    uncounted = method == "astar" and (observed.found or observed.stopped_early)
    assert len(steps) == observed.nodes + uncounted
    for i, step in enumerate(steps):
        assert step.expanded == i and step.frontier[0].board == step.board
        assert step.path[0] == board and step.path[-1] == step.board and len(step.path) == step.g + 1
        assert step.f == step.g + step.h == step.frontier[0].f
        assert step.h == (0 if method == "bfs" else h(step.board))
        assert all(w.h == (0 if method == "bfs" else h(w.board)) for w in step.frontier)
    if observed.found and steps and method != "bfs":  # the last step is the goal, reached along the moves found
        replay = [board]
        for tile in observed.moves:
            replay.append(replay[-1].slide(tile))
        assert steps[-1].board.is_goal() and list(steps[-1].path) == replay


@settings(max_examples=40, deadline=None)
@given(board=boards, method=st.sampled_from(["bfs", "astar", "idastar"]), stop_at=st.integers(0, 30))
def test_an_observer_returning_true_stops_the_search(board, method, stop_at):
    seen: list[SearchStep] = []

    def observer(step: SearchStep) -> bool:
        seen.append(step)
        return len(seen) > stop_at

    out = _run(method, board, manhattan, 1.0, None, observer)
    full = _run(method, board, manhattan, 1.0, None)
    if out.stopped_early:
        assert len(seen) == stop_at + 1 and out.nodes == stop_at and not out.found and out.moves == ()
    else:
        assert _fields(out) == _fields(full) and len(seen) <= stop_at + 1


def test_closed_sets_are_the_boards_expanded_before():
    board = shuffle(3, 3, rng=4, method="walk", steps=16)
    for method in ("bfs", "astar"):
        snapshots: list[tuple[Board, frozenset]] = []
        _run(method, board, manhattan, 1.0, None, lambda s: snapshots.append((s.board, frozenset(s.closed))))
        for i, (_, closed) in enumerate(snapshots):
            assert closed == {b for b, _ in snapshots[:i]}
    idastar_reference(board, manhattan, observer=lambda s: s.closed and pytest.fail("IDA* keeps no closed set"))


def test_idastar_reports_its_bound_and_rounds():
    board = shuffle(3, 3, rng=2, method="walk", steps=30)
    steps: list[SearchStep] = []
    out = idastar_reference(board, manhattan, observer=steps.append)
    assert steps[0].bound == manhattan(board) and steps[-1].bound == out.bound
    assert [s.round for s in steps] == sorted(s.round for s in steps)
    assert all(s.f <= s.bound for s in steps)  # a child over the bound is never entered
    starts = [s for s in steps if s.g == 0]
    assert [s.round for s in starts] == list(range(len(starts)))  # each round restarts at the start


def test_traces_are_the_observed_reference_searches_on_a_15_puzzle():
    board = shuffle(4, 4, rng=9, method="walk", steps=20)
    assert astar_trace(board, manhattan).moves == astar_reference(board, manhattan, max_nodes=3000).moves
    assert idastar_trace(board, manhattan).moves == idastar_reference(board, manhattan, max_nodes=3000).moves
    t = bfs_trace(board, max_steps=200)
    assert t.truncated and len(t.steps) == 200


def test_a_trace_full_when_astar_takes_the_goal_is_truncated():
    board = shuffle(3, 3, rng=3, method="walk", steps=12)
    n = len(astar_trace(board, manhattan).steps)
    assert astar_trace(board, manhattan, max_steps=n).found
    assert astar_trace(board, manhattan, max_steps=n - 1).truncated


def test_bad_observer_and_unsolvable_idastar_are_answered():
    board = Board.goal(3, 3)
    with pytest.raises(TypeError, match="observer"):
        bfs_reference(board, observer="print")
    unsolvable = board.swap_tiles(1, 2)
    out = idastar_reference(unsolvable, manhattan)  # used to raise its bound forever
    assert not out.found and out.nodes == 0
