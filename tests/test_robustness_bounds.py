"""Every call ends in bounded time or refuses: the largest accepted sizes, with default budgets, timed.

Stated times (2-core development machine, generous for a loaded CI): each call below ends within its
``LIMIT_*``; past the stated size limits each function refuses with a ValueError naming the limit.
"""

from __future__ import annotations

import math
import time
import warnings

import pytest

import tilelab.match3 as m3
from tilelab.match3 import board as m3board
from tilelab.match3 import generate as m3gen
import tilelab.match3 as m3sp
from tilelab.sliding import Board, is_solvable, shuffle, solve
from tilelab.sliding import core as sc
from tilelab.sliding import shuffle as sh
from tilelab.sliding import solvers as so
from tilelab.sliding.search import astar_reference, bfs_reference
from tilelab.sliding.heuristics import manhattan

LIMIT_SEARCH = so.DEFAULT_SOLVE_SECONDS + 15  # the default budget, then the human strategy's moves
LIMIT_CALL = 15.0  # any other single call on the largest board it accepts


def _timed(call, *args, **kwargs):
    """The call's result and the CPU time it used: a busy machine (a process waiting for a core) does not change it."""
    start = time.process_time()
    out = call(*args, **kwargs)
    return out, time.process_time() - start


@pytest.mark.parametrize("rows, cols, method", [(2, 8, "idastar"), (8, 2, "astar")])
def test_sixteen_cell_boards_without_a_database_end_with_the_human_strategy(rows, cols, method):
    board = shuffle(rows, cols, rng=0)
    result, seconds = _timed(solve, board, method)
    assert seconds < LIMIT_SEARCH, seconds
    assert result.complete and result.final.is_goal() and result.stopped_early and not result.optimal
    assert f"no optimal answer within {so.DEFAULT_SOLVE_SECONDS:g} s" in result.message and "human" in result.message


def test_sliding_limits_are_stated_and_refused():
    for rows, cols in ((10**6, 10**6), (sc.MAX_SIDE + 1, 2), (2, sc.MAX_SIDE + 1)):
        with pytest.raises(ValueError, match="MAX_SIDE"):
            Board.goal(rows, cols)
        with pytest.raises(ValueError, match="MAX_SIDE"):
            shuffle(rows, cols, rng=0)
    with pytest.raises(ValueError, match="MAX_WALK_STEPS"):
        shuffle(3, 3, rng=0, method="walk", steps=10**12)
    with pytest.raises(ValueError, match="MAX_WALK_STEPS"):
        shuffle(300 if sc.MAX_SIDE >= 300 else sc.MAX_SIDE, 40, rng=0, method="walk")
    with pytest.raises(ValueError, match="MAX_HUMAN_CELLS"):
        solve(shuffle(33, 32, rng=0), "human")
    with pytest.raises(ValueError, match="UNBUDGETED_MAX_CELLS"):
        bfs_reference(shuffle(3, 4, rng=0))
    for weight in (math.nan, math.inf):
        with pytest.raises(ValueError, match="weight"):
            solve(shuffle(3, 3, rng=0), "weighted-astar", "manhattan", weight=weight)
        with pytest.raises(ValueError, match="weight"):
            astar_reference(shuffle(3, 3, rng=0), manhattan, weight=weight)


def test_the_largest_sliding_boards_are_quick():
    big, seconds = _timed(shuffle, sc.MAX_SIDE, sc.MAX_CELLS // sc.MAX_SIDE, rng=0)
    assert seconds < LIMIT_CALL
    _, seconds = _timed(is_solvable, big)
    assert seconds < LIMIT_CALL
    _, seconds = _timed(shuffle, 32, 32, rng=0, method="walk-balanced")  # default walk: 1024**2 steps
    assert seconds < 2 * LIMIT_CALL, seconds
    human = shuffle(8, so.MAX_HUMAN_CELLS // 8, rng=0)
    result, seconds = _timed(solve, human, "human")
    assert seconds < LIMIT_CALL and result.final.is_goal()
    _, seconds = _timed(so.hint, shuffle(32, 32, rng=1))
    assert seconds < LIMIT_CALL


def test_match3_limits_are_stated_and_refused():
    with pytest.raises(ValueError, match="MAX_SIDE"):
        m3gen.new_board(10**6, 10**6, 5, rng=0)
    with pytest.raises(ValueError, match="MAX_SIDE"):
        m3gen.new_board(m3board.MAX_SIDE + 1, 3, 5, rng=0)
    with pytest.raises(ValueError, match="MAX_SIDE"):
        m3.Board(((0, 1, 2),) * (m3board.MAX_SIDE + 1), 3)
    with pytest.raises(ValueError, match="tries"):
        m3sp.reshuffle_specials(m3sp.new_special_board(4, 4, 3, rng=0), rng=0, tries=-1)


def test_the_largest_match3_board_with_default_budgets():
    n = m3board.MAX_SIDE
    board, seconds = _timed(m3gen.new_board, n, n, 3, rng=0)
    assert seconds < LIMIT_CALL
    from tilelab.match3 import is_dead, legal_moves

    for call in (legal_moves, is_dead, m3.legal_moves_fast, m3.is_dead_fast, m3.hint):
        _, seconds = _timed(call, board)
        assert seconds < LIMIT_CALL, (call.__name__, seconds)
    move = legal_moves(board)[0]
    _, seconds = _timed(m3.swap, board, *move, rng=0)
    assert seconds < LIMIT_CALL
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", m3gen.ReshuffleWarning)
        _, seconds = _timed(m3gen.reshuffle, board, rng=1)
        assert seconds < 2 * LIMIT_CALL, seconds
        special = m3sp.SpecialBoard.from_board(board)
        for call in (m3sp.legal_moves_specials, m3sp.is_dead_specials):
            _, seconds = _timed(call, special)
            assert seconds < LIMIT_CALL, (call.__name__, seconds)
        _, seconds = _timed(m3sp.reshuffle_specials, special, rng=2)
        assert seconds < 4 * LIMIT_CALL, seconds


def test_hint_scores_in_a_window_exactly_as_the_full_board_does():
    from tilelab.match3.moves import immediate_score_near_swap, immediate_score, legal_moves

    for seed in range(30):
        for rows, cols, kinds in ((5, 5, 3), (6, 7, 4), (3, 9, 3), (8, 8, 5)):
            board = m3gen.new_board(rows, cols, kinds, rng=seed)
            for move in legal_moves(board):
                assert immediate_score_near_swap(board, move) == immediate_score(board, move)


def test_monte_carlo_default_move_is_quick():
    from tilelab.game2048 import Game
    from tilelab.game2048.ai import MonteCarloPlayer

    _, seconds = _timed(MonteCarloPlayer(rng=0), Game(rng=0).board)
    assert seconds < LIMIT_CALL
