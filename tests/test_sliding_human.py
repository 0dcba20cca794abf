"""The human strategy: legal, always finishes, inside Parberry's bound, quick on big boards."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilelab.sliding import Board, shuffle, solve
from tilelab.sliding.human import human_moves, human_stages, parberry_bound
from tilelab.sliding.space import distance_table, unrank


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 12), st.integers(2, 12), st.integers(0, 10**9))
def test_legal_and_within_parberry_bound(rows, cols, seed):
    board = shuffle(rows, cols, rng=seed)
    moves = human_moves(board)
    assert board.play_all(moves).is_goal()  # play() raises on an illegal move
    assert all(isinstance(t, int) and t > 0 for t in moves)
    assert len(moves) <= parberry_bound(rows, cols)


@pytest.mark.parametrize("shape", [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2)])
def test_every_board_of_small_shapes(shape):
    rows, cols = shape
    table = distance_table(rows, cols)
    for r in np.flatnonzero(table >= 0)[:: 1 if table.size < 1000 else 7]:
        board = Board(unrank(int(r), rows * cols), rows, cols)
        moves = human_moves(board)
        assert board.play_all(moves).is_goal()
        assert len(moves) >= table[r]


def test_many_8_puzzles_including_the_awkward_pairs():
    table = distance_table(3, 3)
    ranks = np.flatnonzero(table >= 0)[::97]
    for r in ranks:
        board = Board(unrank(int(r), 9), 3, 3)
        assert board.play_all(human_moves(board)).is_goal()


def test_the_last_tile_of_a_row_trapped_in_the_corner():
    # tile 3 sits where 2 must go, with 2 elsewhere: the article's first special case
    board = Board.parse("1 3 .\n4 5 6\n7 8 2")
    assert board.play_all(human_moves(board)).is_goal()
    # and the column version: tile 7 where 4 must go
    board = Board.parse("1 2 3\n7 5 6\n. 8 4")
    assert board.play_all(human_moves(board)).is_goal()


def test_stages_are_rows_then_columns():
    stages = human_stages(shuffle(4, 4, rng=3))
    assert [name for name, _ in stages] == ["row 1", "column 1", "row 2", "column 2", "last 2x2 block"]
    counts = [n for _, n in stages]
    assert counts == sorted(counts)
    wide = [name for name, _ in human_stages(shuffle(3, 6, rng=1))]
    assert wide[:3] == ["column 1", "column 2", "column 3"]


def test_20x20_in_bounded_time():
    board = shuffle(20, 20, rng=7)
    start = time.process_time()
    moves = human_moves(board)
    assert time.process_time() - start < 5.0  # about 0.45 s of CPU: CPU time does not grow on a busy machine
    assert board.play_all(moves).is_goal()
    assert len(moves) <= parberry_bound(20, 20)


def test_solve_human_result():
    board = shuffle(5, 5, rng=2)
    r = solve(board, "human")
    assert r.complete and not r.optimal and r.heuristic is None and r.final.is_goal()


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 9), st.integers(2, 9), st.integers(0, 10**9))
def test_the_first_move_alone_is_the_strategys_first_move(rows, cols, seed):
    from tilelab.sliding.human import human_first_move

    board = shuffle(rows, cols, rng=seed)
    moves = human_moves(board)
    assert human_first_move(board) == (moves[0] if moves else None)


@pytest.mark.parametrize("side", [12, 33, 120, 250])
def test_a_game_gives_a_legal_hint_on_every_size_it_accepts(side):
    """(The hunt's L7.) Boards past MAX_HUMAN_CELLS get the strategy's first move, found alone."""
    from tilelab.sliding import Game

    game = Game(side, rng=side)
    hint = game.hint()
    assert hint in game.legal_moves()
    assert game.play(hint)
