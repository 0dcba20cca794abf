"""Special candies, property tests: settled boards, honest step data, no specials from nothing,
and the compiled path agreeing with the readable reference on thousands of seeded swaps."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tilelab.match3 import EMPTY, Board, SpecialBoard, new_special_board, swap_specials, legal_moves_specials
from tilelab.match3.special_board import BOMB, COL, NONE, PRIMED, ROW, WRAPPED
from tilelab.match3.board import NO_COLOUR
from tilelab.match3.special_rules import combo_of, find_groups, is_dead_specials
from tilelab.match3.special_reshuffle import reshuffle_specials
from tilelab.match3.fast.specials import swap_specials_fast, legal_moves_specials_fast

TOKENS = ["-", "|", "+"]


@st.composite
def special_boards(draw):
    """A stable random board with a few specials sprinkled on (specials never make a run)."""
    rows, cols = draw(st.integers(3, 7)), draw(st.integers(3, 7))
    kinds = draw(st.integers(3, 6))
    board = new_special_board(rows, cols, kinds, rng=draw(st.integers(0, 2**32)))
    changes = {}
    for _ in range(draw(st.integers(0, 5))):
        cell = (draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1)))
        code = draw(st.sampled_from([1, 2, 3, BOMB]))
        changes[cell] = ((-2, BOMB) if code == BOMB else (board[cell], code))
    return board.with_cells(changes)


def pick_move(board: SpecialBoard, rng: np.random.Generator, moves=None):
    """A legal move, preferring special swaps (so combinations get tested often)."""
    moves = legal_moves_specials(board) if moves is None else moves
    if not moves:
        return None
    special = [m for m in moves if combo_of(board, *m) != "none"]
    pool = special if special and rng.random() < 0.7 else moves
    return pool[int(rng.integers(len(pool)))]


@settings(max_examples=150, deadline=None)
@given(special_boards(), st.integers(0, 1000))
def test_swap_resolves_to_a_settled_board_and_the_steps_tell_the_truth(board, seed):
    move = pick_move(board, np.random.default_rng(seed))
    if move is None:
        assert is_dead_specials(board)
        return
    result = swap_specials(board, *move, rng=seed)
    assert result.legal
    assert find_groups(result.board) == []  # no run left
    assert all(s != PRIMED for row in result.board.specials for s in row)  # nothing left to go off
    assert result.score == sum(step.score for step in result.steps)
    for step in result.steps:
        matched = set().union(*(g.cells for g in step.groups)) if step.groups else set()
        blasted = set().union(*(a.cells for a in step.activations)) if step.activations else set()
        created = {c.cell for c in step.created}
        assert step.cleared_cells == (matched | blasted) - set(step.survivors) - created
        assert len(step.refills) == len(step.cleared_cells)  # every hole refilled once
        assert all(step.board.special_code(cell) == NONE for cell, _ in step.refills)
        # specials never from nothing: each special after clearing was there, primed, or created
        for cell in step.cleared.cells():
            code = step.cleared.special_code(cell)
            if code == NONE:
                continue
            before = step.before.special_code(cell)
            assert cell in created or code == before or (code == PRIMED and (before == WRAPPED or cell in step.turned)), \
                (cell, code, before)
        moved = {c: step.fallen.special_code(c) for c in step.fallen.cells() if step.fallen.special_code(c) != NONE}
        assert sorted(moved.values()) == sorted(s for row in step.cleared.specials for s in row if s != NONE)


def play_both(seed: int, moves: int, rows: int = 6, cols: int = 6, kinds: int = 4) -> int:
    """Play seeded games with the reference and the fast path in lockstep; return swaps compared."""
    rng = np.random.default_rng(seed)
    board = new_special_board(rows, cols, kinds, rng=seed)
    compared = 0
    for i in range(moves):
        moves = legal_moves_specials(board)
        assert moves == legal_moves_specials_fast(board)
        move = pick_move(board, rng, moves)
        if move is None:
            board = reshuffle_specials(board, rng=rng)
            continue
        slow = swap_specials(board, *move, rng=seed * 1000 + i)
        fast = swap_specials_fast(board, *move, rng=seed * 1000 + i)
        assert fast == (slow.legal, slow.board, slow.score, slow.cascades), (board, move)
        compared += 1
        board = slow.board
    return compared


def test_fast_path_agrees_with_the_reference_on_thousands_of_seeded_swaps():
    compared = sum(play_both(seed, 25) for seed in range(80))
    assert compared >= 1900


def test_fast_path_agrees_on_full_size_boards_too():
    assert sum(play_both(seed, 10, 8, 8, 6) for seed in range(30)) >= 290


def test_invalid_swaps_agree_and_change_nothing():
    board = SpecialBoard.parse("0 1 2\n1| 2 0\n2 0 1")
    fast = swap_specials_fast(board, (0, 0), (0, 1), rng=0)
    slow = swap_specials(board, (0, 0), (0, 1), rng=0)
    assert fast == (False, board, 0, 0) and (slow.legal, slow.board) == (False, board)
    assert all(k != EMPTY for row in slow.board.grid for k in row)


@settings(max_examples=60, deadline=None)
@given(special_boards(), st.integers(0, 2**32 - 1))
def test_systematic_reshuffle_keeps_every_piece(board, seed):
    """With no random tries left, the systematic fallback still keeps each (colour, special) piece."""
    if not board.is_full:
        return
    pieces = sorted((board[c], board.special_code(c)) for c in board.cells())
    try:
        shuffled = reshuffle_specials(board, rng=np.random.default_rng(seed), tries=0)
    except ValueError:
        return  # the plain reshuffle refuses a board it cannot rearrange
    if list(Board(tuple(tuple(max(k, 0) for k in row) for row in shuffled.grid), board.kinds).counts()) != \
            list(Board(tuple(tuple(max(k, 0) for k in row) for row in board.grid), board.kinds).counts()):
        return  # no arrangement of these colours exists: a new deal (the plain reshuffle warned)
    assert sorted((shuffled[c], shuffled.special_code(c)) for c in shuffled.cells()) == pieces
    assert find_groups(shuffled) == [] and not is_dead_specials(shuffled)


@settings(max_examples=120, deadline=None)
@given(special_boards(), st.integers(0, 1000))
def test_a_swap_s_special_appears_where_the_candy_that_completed_its_group_landed(board, seed):
    """On the swap's own match each new special sits on the swapped cell its group holds (never both:
    the two swapped candies differ in kind), in either order of the two cells; the fast path agrees."""
    moves = [m for m in legal_moves_specials(board) if combo_of(board, *m) == "none"]
    if not moves:
        return
    a, b = moves[seed % len(moves)]
    for first, second in ((a, b), (b, a)):
        result = swap_specials(board, first, second, rng=seed)
        step = result.steps[0]
        for made in step.created:
            group = next(g for g in step.groups if made.cell in g.cells)
            assert (first in group.cells) != (second in group.cells)
            assert made.cell == (first if first in group.cells else second)
            assert made.kind == (NO_COLOUR if made.special == "colour-bomb" else step.before[made.cell])
        fast = swap_specials_fast(board, first, second, rng=seed)
        assert fast == (True, result.board, result.score, result.cascades)


@st.composite
def bomb_beside_striped(draw):
    """A stable random board with a colour bomb swapped against a striped candy next to it."""
    rows, cols = draw(st.integers(2, 7)), draw(st.integers(3, 7))
    board = new_special_board(rows, cols, draw(st.integers(3, 6)), rng=draw(st.integers(0, 2**32)))
    bomb = (draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 2)))
    other = (bomb[0], bomb[1] + 1)
    if draw(st.booleans()):
        bomb, other = other, bomb
    code = draw(st.sampled_from([ROW, COL]))
    changes = {bomb: (-2, BOMB), other: (board[other], code)}
    for _ in range(draw(st.integers(0, 3))):  # a few more specials, some maybe of the striped colour
        cell = (draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1)))
        if cell not in changes:
            changes[cell] = (board[cell], draw(st.sampled_from([ROW, COL, WRAPPED])))
    board = board.with_cells(changes)
    return board, (bomb, other) if draw(st.booleans()) else (other, bomb)


@settings(max_examples=120, deadline=None)
@given(bomb_beside_striped(), st.integers(0, 1000))
def test_bomb_plus_striped_turns_each_plain_candy_of_that_colour_striped_alternating_and_fires_all(case, seed):
    """Candy Crush's rule: every plain candy of the striped candy's colour turns striped, the stripes
    alternating ROW, COL, ... in reading order; specials of that colour keep theirs; all go off in
    step 1. The compiled path reaches the same board and score."""
    board, (a, b) = case
    striped = a if board.special_code(a) in (ROW, COL) else b
    colour = board[striped]
    result = swap_specials(board, a, b, rng=seed)
    assert result.legal and result.combo == "bomb+striped"
    step = result.steps[0]
    swapped = board.swapped(a, b)
    plain = [c for c in swapped.cells() if swapped[c] == colour and swapped.special_code(c) == NONE]
    assert step.turned == frozenset(plain)
    fired = {act.cell: act.special for act in step.activations}
    for i, cell in enumerate(plain):  # reading order
        assert fired[cell] == ("striped-row", "striped-col")[i % 2]
    for cell in swapped.cells():  # every candy of that colour went off, the old specials as they were
        if swapped[cell] == colour and swapped.special_code(cell) != NONE:
            assert cell in fired
    fast = swap_specials_fast(board, a, b, rng=seed)
    assert fast == (True, result.board, result.score, result.cascades)
