"""A special board's colours are checked once (issue 36): ``find_groups`` gets a plain board through
``Board.trusted`` instead of a second check of every cell, and it finds exactly the groups that the checked
way, ``find_matches(Board(...))``, finds. The checks themselves stay where input comes in: ``Board(...)`` and
``SpecialBoard(...)`` refuse a bad grid, and ``SpecialBoard.with_cells`` a bad candy."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tilelab.match3.board as board_module
from tilelab.match3 import EMPTY, Board, SpecialBoard, new_special_board
from tilelab.match3.board import NO_COLOUR, check_cell
from tilelab.match3.game import Game
from tilelab.match3.matches import find_matches
from tilelab.match3.special_board import BOMB, COL, NONE, PRIMED, ROW, WRAPPED
from tilelab.match3.special_rules import find_groups, is_dead_specials, swap_specials, legal_moves_specials


@st.composite
def any_special_boards(draw):
    """Any valid special board, settled or not: few kinds (so runs are common), every special, bombs and holes."""
    rows, cols, kinds = draw(st.integers(1, 9)), draw(st.integers(1, 9)), draw(st.integers(3, 5))
    candy = st.one_of(
        st.tuples(st.integers(0, kinds - 1), st.sampled_from([NONE, NONE, NONE, ROW, COL, WRAPPED, PRIMED])),
        st.just((NO_COLOUR, BOMB)),
        st.just((EMPTY, NONE)),
    )
    cells = draw(st.lists(st.lists(candy, min_size=cols, max_size=cols), min_size=rows, max_size=rows))
    grid = [[k for k, _ in row] for row in cells]
    specials = [[s for _, s in row] for row in cells]
    return SpecialBoard(grid, specials, kinds)  # the checked constructor


def colours_checked(board: SpecialBoard) -> Board:
    """The colours the checked way: bombs and primed candies become holes, and ``Board(...)`` checks every cell."""
    grid = [[EMPTY if s in (BOMB, PRIMED) else k for k, s in zip(kr, sr)] for kr, sr in zip(board.grid, board.specials)]
    return Board(grid, board.kinds)


def groups_as_data(groups):
    return [(g.kind, g.shape, sorted(g.cells), [(r.direction, r.cells) for r in g.runs]) for g in groups]


@settings(max_examples=400, deadline=None)
@given(any_special_boards())
def test_find_groups_finds_what_the_checked_board_finds(board):
    colours = board.colours()
    assert type(colours) is Board and colours == colours_checked(board)
    assert groups_as_data(find_groups(board)) == groups_as_data(find_matches(colours_checked(board)))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(3, 8), st.integers(3, 8), st.integers(3, 6))
def test_every_board_a_swap_passes_through_is_valid(seed, rows, cols, kinds):
    """The engine makes its boards without a full check; each one passes the full check, and its groups agree."""
    rng = np.random.default_rng(seed)
    board = new_special_board(rows, cols, kinds, rng=rng)
    for _ in range(6):
        moves = legal_moves_specials(board)
        if not moves:
            return
        result = swap_specials(board, *moves[int(rng.integers(len(moves)))], rng=rng)
        seen = [result.swapped] + [b for s in result.steps for b in (s.before, s.cleared, s.fallen, s.board)]
        for b in seen:
            assert SpecialBoard(b.grid, b.specials, b.kinds) == b
            assert groups_as_data(find_groups(b)) == groups_as_data(find_matches(colours_checked(b)))
        board = result.board


def test_a_swap_never_checks_a_whole_plain_board(monkeypatch):
    """Measured before the change: 2.4 full checks per special swap, 3.5 per ``Game.play``; now none."""
    game = Game(8, 8, 6, rules="specials", rng=7)  # dealing checks its new board once, before the count
    checks = []
    real = board_module.check_grid
    monkeypatch.setattr(board_module, "check_grid", lambda *args: checks.append(1) or real(*args))
    rng = np.random.default_rng(7)
    cascades = 0
    for _ in range(20):
        moves = game.legal_moves()
        cascades += len(game.play(moves[int(rng.integers(len(moves)))]).events.steps)
        is_dead_specials(game.board)
    assert cascades >= 20  # every swap found groups at least once
    assert checks == []
    Board(((0, 1, 2),), 3)  # the counter counts: the public constructor still checks
    assert checks == [1]


@pytest.mark.parametrize("grid, kinds", [
    (((0, 1, 3),), 3),             # a kind past kinds - 1
    (((0, NO_COLOUR, 1),), 3),     # a bomb's "no colour" on a plain board
    (((0, True, 1),), 3),          # a bool is not a kind
    (((0, 1.0, 2),), 3),           # nor a float
    (((0, 1), (2,)), 3),           # ragged
    ((), 3),                       # empty
])
def test_the_public_constructor_still_refuses_a_bad_grid(grid, kinds):
    with pytest.raises(ValueError):
        Board(grid, kinds)


@pytest.mark.parametrize("changes, words", [
    ({(0, 0): (3, NONE)}, "outside 0..2"),
    ({(0, 0): (NO_COLOUR, NONE)}, "colour bomb"),
    ({(0, 0): (1, BOMB)}, "colour bomb"),
    ({(0, 0): (1, 9)}, "special code 9"),
    ({(0, 0): (EMPTY, ROW)}, "hole"),
    ({(0, 0): (0.5, NONE)}, "pair of ints"),
    ({(0, 0): (True, NONE)}, "pair of ints"),
    ({(0, 0): 1}, "pair of ints"),
    ({(0, 0): ([1], NONE)}, "pair of ints"),  # unhashable inside: refused, not a TypeError from a cache
    ({(0, 5): (1, NONE)}, "off the board"),
    ({(0, 0): (1, NONE), (1, 1): (7, NONE)}, "(1, 1)"),  # the second change is checked too (not only new candies)
])
def test_special_with_cells_refuses_a_bad_candy(changes, words):
    """So every special board is valid, and its colours need no second check."""
    board = SpecialBoard.parse("012\n120")
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        board.with_cells(changes)


def test_special_with_cells_takes_numpy_ints_and_lists_as_plain_ints():
    board = SpecialBoard.parse("012\n120").with_cells({(np.int64(0), 0): (np.int8(2), np.int64(ROW)), (1, 1): [0, WRAPPED]})
    assert board == SpecialBoard.parse("2-12\n10+0") and all(type(k) is int for row in board.grid for k in row)


@settings(max_examples=200, deadline=None)
@given(any_special_boards(), st.data())
def test_swapped_exchanges_two_candies_as_with_cells_would(board, data):
    a = (data.draw(st.integers(0, board.rows - 1)), data.draw(st.integers(0, board.cols - 1)))
    b = (data.draw(st.integers(0, board.rows - 1)), data.draw(st.integers(0, board.cols - 1)))
    expected = board.with_cells({a: (board[b], board.special_code(b)), b: (board[a], board.special_code(a))})
    assert board.swapped(a, b) == expected


@pytest.mark.parametrize("cell", [(0, 3), (-1, 0), (True, 0), (0.0, 1), (0, 1, 2), "01"])
def test_swapped_and_check_cell_refuse_a_cell_off_the_board(cell):
    with pytest.raises(ValueError):
        SpecialBoard.parse("012\n120").swapped(cell, (0, 0))
    with pytest.raises(ValueError):
        check_cell(Board.parse("012\n120"), cell)


@pytest.mark.parametrize("cell", [(1, 2), [1, 2], (np.int64(1), np.int8(2))])
def test_check_cell_gives_a_pair_of_ints(cell):
    checked = check_cell(Board.parse("012\n120"), cell)
    assert checked == (1, 2) and type(checked) is tuple and all(type(v) is int for v in checked)
