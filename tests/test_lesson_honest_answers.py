"""Honest answers the lessons invite are accepted (issue 41): reading a board the way Python reads a grid
(``for row in board``, ``np.asarray(board)``), reading its largest tile, and 05c's own ``blast()`` on a
SpecialBoard; and a match-3 board indexed like a list of lists says how to index it."""

from __future__ import annotations

import numpy as np
import pytest

from tilelab.exercises import check
from tilelab.game2048 import Board, play
from tilelab.match3 import Board as Match3Board


def test_a_2048_board_iterates_by_rows_and_converts_to_an_array():
    b = Board.parse("2 . 4\n. 8 .\n. . 2")
    assert [tuple(row) for row in b] == list(b.grid)
    a = np.asarray(b)
    assert a.shape == (3, 3) and a.tolist() == [list(r) for r in b.grid]
    assert np.asarray(b, dtype=float).dtype == np.float64
    assert Board(list(b)) == b  # rows read back build the same board


def test_available_moves_reading_rows_and_max_tile_passes():
    def moves_by_rows(board):
        if board.max_tile == 0:  # reading the largest tile is not the exercise's job
            return []
        grid = [list(row) for row in board]  # for row in board
        return [d for d in ("up", "down", "left", "right") if [list(r) for r in play(board, d).board] != grid]

    assert check("2048.available_moves", moves_by_rows).passed


def test_spawn_outcomes_through_numpy_passes():
    def spawn_outcomes(board, p_four):
        a = np.asarray(board)
        blanks = [(int(r), int(c)) for r, c in zip(*np.nonzero(a == 0))]
        out = {}
        for cell in blanks:
            out[(cell, 2)] = (1 - p_four) / len(blanks)
            out[(cell, 4)] = p_four / len(blanks)
        return out

    assert check("2048.spawn_outcomes", spawn_outcomes).passed


def test_a_match3_board_iterates_by_rows_and_says_how_to_index_it():
    b = Match3Board.parse("012\n120")
    assert [tuple(r) for r in b] == list(b.grid) and np.asarray(b).tolist() == [[0, 1, 2], [1, 2, 0]]
    with pytest.raises(TypeError, match=r"board\[0, 1\]"):
        b[0][1]  # noqa: B018 - the list-of-lists habit
    assert b[1, 2] == 0


def test_05c_own_blast_on_a_special_board_passes_the_striped_wrapped_check():
    from tilelab.match3 import SpecialBoard
    from tilelab.match3.special_board import COL, ROW

    def blast(board, cell, special):  # lesson 05c, section 2 (rows and columns only)
        r0, c0 = cell
        if special == ROW:
            return {(r0, c) for c in range(board.cols)}
        return {(r, c0) for r in range(board.rows)}

    def striped_wrapped(rows, cols, centre):
        board = SpecialBoard.parse("\n".join("0" * cols for _ in range(rows)), kinds=3)
        r0, c0 = centre
        cells = set()
        for d in (-1, 0, 1):
            if 0 <= r0 + d < rows:
                cells |= blast(board, (r0 + d, c0), ROW)
            if 0 <= c0 + d < cols:
                cells |= blast(board, (r0, c0 + d), COL)
        return cells

    assert check("match3_specials.striped_wrapped", striped_wrapped).passed


def test_the_striped_wrapped_message_names_the_at_only_when_it_is_drawn():
    for answer in (lambda rows, cols, centre: set(), lambda rows, cols, centre: {centre}):
        r = check("match3_specials.striped_wrapped", answer)
        assert not r and r.picture is not None
        assert ("(the @)" in r.message) == ("@" in r.picture)
