"""Special candies: hand-drawn boards with their exact clearing, creation rules, scoring, errors."""

from __future__ import annotations

import pytest

from tilelab.match3 import Board, SpecialBoard, swap_specials, legal_moves_specials
from tilelab.match3.special_board import ACTIVATION_BONUS, BLAST_POINTS, SCORE_TABLE, specials_count
from tilelab.match3.board import NO_COLOUR
from tilelab.match3.special_rules import Created, combo_of, find_groups, is_dead_specials
from tilelab.match3.special_reshuffle import reshuffle_specials
from tilelab.match3.fast.specials import swap_specials_fast, legal_moves_specials_fast

# Every kind once per row and once per column (no run, and no single swap can make one):
# kind(r, c) = (2r + c) % 6
BASE = [[(2 * r + c) % 6 for c in range(6)] for r in range(6)]
SYMBOL = "0123456789"


def board_with(marks: dict) -> SpecialBoard:
    """BASE with some cells replaced by tokens like '0-', '1+', '*'."""
    rows = [[SYMBOL[k] for k in row] for row in BASE]
    for (r, c), token in marks.items():
        rows[r][c] = token
    return SpecialBoard.parse("\n".join(" ".join(row) for row in rows), kinds=6)


def mask(picture: str) -> set:
    """The cells marked 'x' in a hand-drawn picture."""
    lines = [line.replace(" ", "") for line in picture.strip().splitlines()]
    return {(r, c) for r, line in enumerate(lines) for c, ch in enumerate(line) if ch == "x"}


def first_step(board: SpecialBoard, a, b):
    result = swap_specials(board, a, b, rng=0)
    assert result.legal
    fast = swap_specials_fast(board, a, b, rng=0)
    assert fast == (result.legal, result.board, result.score, result.cascades)
    return result, result.steps[0]


A, B = (2, 2), (2, 3)  # every combination test swaps these two; B is the centre


def test_base_board_has_no_run_and_the_kinds_are_where_the_formula_says():
    board = board_with({})
    assert find_groups(board) == [] and board[2, 3] == 1
    assert sorted(c for c in board.cells() if board[c] == 1) == [(0, 1), (1, 5), (2, 3), (3, 1), (4, 5), (5, 3)]


def test_striped_plus_striped_clears_a_cross_centred_on_b():
    result, step = first_step(board_with({A: "0-", B: "1|"}), A, B)
    assert result.combo == "striped+striped"
    assert step.cleared_cells == mask("""
        . . . x . .
        . . . x . .
        x x x x x x
        . . . x . .
        . . . x . .
        . . . x . .""")
    assert step.groups == () and step.created == ()


def test_striped_plus_wrapped_clears_three_rows_and_three_columns():
    result, step = first_step(board_with({A: "0-", B: "1+"}), A, B)
    assert result.combo == "striped+wrapped"
    assert step.cleared_cells == mask("""
        . . x x x .
        x x x x x x
        x x x x x x
        x x x x x x
        . . x x x .
        . . x x x .""")
    assert step.score == ACTIVATION_BONUS["striped+wrapped"] + BLAST_POINTS * 27


def test_wrapped_plus_wrapped_clears_the_5x5_block():
    _, step = first_step(board_with({A: "0+", B: "1+"}), A, B)
    assert step.cleared_cells == mask("""
        . x x x x x
        . x x x x x
        . x x x x x
        . x x x x x
        . x x x x x
        . . . . . .""")
    assert step.survivors == frozenset()  # the swapped pair is used up: no second blast


def test_colour_bomb_plus_plain_candy_clears_that_colour():
    result, step = first_step(board_with({A: "*"}), A, B)  # the bomb moves to B, the 1 to A
    assert result.combo == "bomb+plain"
    assert step.cleared_cells == mask("""
        . x . . . .
        . . . . . x
        . . x x . .
        . x . . . .
        . . . . . x
        . . . x . .""")
    assert step.score == ACTIVATION_BONUS["bomb+plain"] + BLAST_POINTS * 7


def test_colour_bomb_plus_striped_turns_that_colour_striped_with_alternating_stripes_and_fires_them():
    # Candy Crush Saga: every candy of the striped candy's colour turns striped, each with its own
    # direction (alternating across / up-down; the swapped striped candy keeps its own), then all fire
    result, step = first_step(board_with({A: "*", B: "1|"}), A, B)
    assert result.combo == "bomb+striped"
    assert step.turned == {(0, 1), (1, 5), (3, 1), (4, 5), (5, 3)}  # the plain 1s, not the striped one
    fired = sorted((a.cell, a.special) for a in step.activations if a.special.startswith("striped-"))
    assert fired == [((0, 1), "striped-row"), ((1, 5), "striped-col"), ((2, 2), "striped-col"),
                     ((3, 1), "striped-row"), ((4, 5), "striped-col"), ((5, 3), "striped-row")]
    assert step.cleared_cells == mask("""
        x x x x x x
        . . x . . x
        . . x x . x
        x x x x x x
        . . x . . x
        x x x x x x""")  # rows 0, 3, 5, columns 2 and 5, and the bomb's own cell


def test_colour_bomb_plus_striped_stripes_alternate_in_reading_order_whatever_the_swap():
    from tilelab.match3.special_board import COL, ROW
    from tilelab.match3.special_rules import combo_cells

    board = SpecialBoard.parse("* 0- 1\n0 1 0\n1 0 2")
    for a, b in (((0, 0), (0, 1)), ((0, 1), (0, 0))):
        cells, turned = combo_cells(board.swapped(a, b), "bomb+striped", a, b)
        assert turned == {(1, 0): ROW, (1, 2): COL, (2, 1): ROW}
        assert cells == {(0, 0), (0, 1), (1, 0), (1, 2), (2, 1)}
    # the fast path turns the same candies the same way: same board, score and cascades
    for a, b in (((0, 0), (0, 1)), ((0, 1), (0, 0))):
        slow = swap_specials(board, a, b, rng=3)
        assert swap_specials_fast(board, a, b, rng=3) == (True, slow.board, slow.score, slow.cascades)


def test_colour_bomb_plus_wrapped_turns_that_colour_wrapped_and_they_go_off_twice():
    result, step = first_step(board_with({A: "*", B: "1+"}), A, B)
    assert result.combo == "bomb+wrapped"
    ones = {(0, 1), (1, 5), (2, 2), (3, 1), (4, 5), (5, 3)}
    assert step.survivors == ones
    assert step.cleared_cells == mask("""
        x . x . x x
        x x x x x .
        x x . x x x
        x . x x x x
        x x x x x .
        . . x . x x""")
    second = result.steps[1]
    assert sorted(a.special for a in second.activations if a.cause is None) == ["wrapped-again"] * 6


def test_colour_bomb_plus_colour_bomb_clears_the_board():
    _, step = first_step(board_with({A: "*", B: "*"}), A, B)
    assert step.cleared_cells == set(step.before.cells())
    assert step.score == ACTIVATION_BONUS["bomb+bomb"] + BLAST_POINTS * 36


# ----------------------------------------------------------------------------- single specials

SINGLE = """
1 2 3 4 5
2 0{} 0 3 4
3 4 5 0 1
4 5 1 2 3
"""  # swapping (1, 3) and (2, 3) makes 0 0 0 in row 1, through the special at (1, 1)


def test_matched_striped_row_clears_its_row():
    _, step = first_step(SpecialBoard.parse(SINGLE.format("-"), kinds=6), (2, 3), (1, 3))
    assert step.cleared_cells == mask("""
        . . . . .
        x x x x x""")
    assert step.score == 60 + BLAST_POINTS * 2


def test_matched_striped_column_clears_its_column():
    _, step = first_step(SpecialBoard.parse(SINGLE.format("|"), kinds=6), (2, 3), (1, 3))
    assert step.cleared_cells == mask("""
        . x . . .
        . x x x .
        . x . . .
        . x . . .""")


def test_matched_wrapped_clears_3x3_stays_primed_falls_and_goes_off_again():
    result, step = first_step(SpecialBoard.parse(SINGLE.format("+"), kinds=6), (2, 3), (1, 3))
    assert step.cleared_cells == mask("""
        x x x . .
        x . x x .
        x x x . .""")
    assert step.survivors == {(1, 1)}
    assert step.fallen.special((2, 1)) == "wrapped-primed"  # fell one row into the hole below it
    again = result.steps[1].activations[0]
    assert (again.special, again.cell) == ("wrapped-again", (2, 1))
    assert again.cells == mask("""
        . . . . .
        x x x . .
        x x x . .
        x x x . .""")
    assert step.score == 60 + ACTIVATION_BONUS["wrapped"] + BLAST_POINTS * 7  # 9 minus 2 matched


def test_chain_reaction_a_striped_row_catches_a_striped_column():
    board = SpecialBoard.parse("""
        1 2 3 4 5
        2 0- 0 3 4|
        3 4 5 0 1
        4 5 1 2 3""", kinds=6)
    _, step = first_step(board, (2, 3), (1, 3))
    assert [(a.special, a.cell, a.cause, a.wave) for a in step.activations] == [
        ("striped-row", (1, 1), None, 0), ("striped-col", (1, 4), (1, 1), 1)]
    assert step.cleared_cells == mask("""
        . . . . x
        x x x x x
        . . . . x
        . . . . x""")


def test_a_colour_bomb_caught_in_a_blast_clears_the_most_common_colour():
    board = SpecialBoard.parse("""
        1 2 3 4 5
        2 0- 0 3 *
        3 4 5 0 1
        4 5 1 2 3""", kinds=6)
    _, step = first_step(board, (2, 3), (1, 3))
    bomb = [a for a in step.activations if a.special == "colour-bomb"]
    assert len(bomb) == 1 and bomb[0].cause == (1, 1)
    # the colour it clears is the most common one on the board as the step starts (ties: lowest)
    colours = [board.swapped((2, 3), (1, 3))[c] for c in board.cells()]
    top = max(range(6), key=lambda k: (colours.count(k), -k))
    assert {c for c in board.cells() if board.swapped((2, 3), (1, 3))[c] == top} <= step.cleared_cells


# ----------------------------------------------------------------------------- where specials come from


def test_line_of_four_sideways_swipe_gives_a_row_striped_at_the_moved_cell():
    board = SpecialBoard.parse("""
        0 0 1 0 2
        1 2 0 1 1
        2 1 2 2 0""")
    result = swap_specials(board, (1, 2), (0, 2), rng=0)  # up/down swipe: the 0 moves up into (0, 2)
    assert result.steps[0].created == (Created((0, 2), 0, "striped-col"),)
    board = SpecialBoard.parse("""
        1 0 2
        2 0 1
        0 1 2
        1 0 2""")
    result = swap_specials(board, (2, 0), (2, 1), rng=0)  # sideways: the 0 moves right, column 1 reads 0000
    assert result.steps[0].created == (Created((2, 1), 0, "striped-row"),)


def test_l_shape_gives_a_wrapped_candy_and_a_line_of_five_a_colour_bomb():
    board = SpecialBoard.parse("""
        0 1 2 1
        0 2 1 2
        1 0 0 2
        2 1 2 1""")
    result = swap_specials(board, (2, 0), (3, 0), rng=0)  # wrong: no 0 comes in -> check validity
    assert not result.legal
    board = SpecialBoard.parse("""
        0 1 2 1
        0 2 1 2
        1 0 0 2
        0 1 2 1""")
    result = swap_specials(board, (3, 0), (2, 0), rng=0)  # 0 up into (2, 0): L of five
    assert [g.shape for g in result.steps[0].groups] == ["L"]
    assert result.steps[0].created == (Created((2, 0), 0, "wrapped"),)
    board = SpecialBoard.parse("""
        0 0 1 0 0
        1 2 0 1 2""")
    result = swap_specials(board, (1, 2), (0, 2), rng=0)
    assert result.steps[0].created == (Created((0, 2), NO_COLOUR, "colour-bomb"),)


@pytest.mark.parametrize("a, b", [((0, 1), (1, 1)), ((1, 1), (0, 1))])
def test_the_special_appears_where_the_candy_that_completed_the_match_landed(a, b):
    # the 1 moving up from (1, 1) completes 1 1 1 1 in row 0, whichever of the two cells the player
    # picked first; the 0 going down completes nothing. So the striped candy appears at (0, 1)
    board = SpecialBoard.parse("""
        1 0 1 1 2
        2 1 0 3 3
        3 2 3 0 1""")
    result, step = first_step(board, a, b)
    assert step.created == (Created((0, 1), 1, "striped-col"),)  # an up/down swipe: vertical stripes
    assert result.board.special_code((0, 1)) == 2  # COL, still there after the cascade (nothing fell on row 0)


@pytest.mark.parametrize("a, b", [((0, 2), (1, 2)), ((1, 2), (0, 2))])
def test_each_swapped_candy_that_completes_a_match_makes_its_own_special_where_it_landed(a, b):
    # the 0 going down makes 0 0 0 0 in row 1, the 1 going up makes 1 1 1 1 in row 0: two stripes
    board = SpecialBoard.parse("""
        1 1 0 1 2
        0 0 1 0 3
        2 3 2 3 2""")
    result, step = first_step(board, a, b)
    assert set(step.created) == {Created((0, 2), 1, "striped-col"), Created((1, 2), 0, "striped-col")}


def test_cascade_line_of_four_gets_perpendicular_stripes_at_its_middle_cell():
    from tilelab.match3.special_rules import creation_cell, special_for

    g, = find_groups(SpecialBoard.parse("0 0 0 0\n1 2 1 2"))
    assert creation_cell(g, None) == (0, 1) and special_for(g, None) == 3 - 1  # COL == 2
    g, = find_groups(SpecialBoard.parse("0 1\n0 2\n0 1\n0 2"))
    assert creation_cell(g, None) == (1, 0) and special_for(g, None) == 1  # ROW == 1


def test_every_run_clears_in_the_same_step_whatever_its_height():
    # the swap makes 0 0 0 in row 0 (cols 1-3) and 1 1 1 in row 1 (cols 0-2): a lowest-first engine
    # would clear row 1 alone and tear row 0's run apart; here both go in step 1
    board = SpecialBoard.parse("""
        2 1 0 0
        1 0 1 3
        0 2 3 1
        3 3 2 2""")
    step = swap_specials(board, (0, 1), (1, 1), rng=0).steps[0]
    assert step.cleared_cells == mask("""
        . x x x
        x x x .""")
    assert sorted(g.shape for g in step.groups) == ["line3", "line3"]


# ----------------------------------------------------------------------------- moves, dead boards, reshuffle


def test_valid_moves_include_special_pairs_and_bomb_swaps():
    board = board_with({A: "0-", B: "1+", (5, 5): "*"})
    moves = legal_moves_specials(board)
    assert (A, B) in moves and ((4, 5), (5, 5)) in moves and ((5, 4), (5, 5)) in moves
    assert moves == legal_moves_specials_fast(board)
    assert not is_dead_specials(board) and is_dead_specials(board_with({}))


def test_reshuffle_keeps_specials():
    board = board_with({A: "0-", (4, 4): "1+", (5, 5): "*"})
    shuffled = reshuffle_specials(board, rng=3)
    assert sorted(shuffled.special_cells().values()) == sorted(board.special_cells().values())
    assert find_groups(shuffled) == [] and not is_dead_specials(shuffled)
    assert specials_count(shuffled) == 3


def test_score_table_and_combo_names():
    assert SCORE_TABLE[0][1] == 60 and SCORE_TABLE[0][2] is True
    assert combo_of(board_with({A: "*", B: "*"}), A, B) == "bomb+bomb"
    assert combo_of(board_with({A: "0-"}), A, B) == "none"


@pytest.mark.parametrize("picture, words", [
    ("-0", "must follow"), ("0 ?", "unknown symbol"), ("", "empty picture")])
def test_bad_pictures_raise_value_error(picture, words):
    with pytest.raises(ValueError, match=words):
        SpecialBoard.parse(picture)


def test_bad_swaps_raise():
    board = board_with({})
    with pytest.raises(ValueError, match="not neighbours"):
        swap_specials(board, (0, 0), (2, 2), rng=0)
    with pytest.raises(TypeError, match="SpecialBoard"):
        swap_specials(Board.parse("012\n120\n201"), (0, 0), (0, 1), rng=0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="colour bomb"):
        SpecialBoard(((0, 1, 2),), ((5, 0, 0),), 3)


# ----------------------------------------------------------------------------- lesson helpers


def test_exercise_checkers_accept_the_rule_and_reject_trivial_answers():
    from tilelab.exercises import allow_package_calls, check
    from tilelab.exercises.match3_specials import reference_made_by, reference_striped_wrapped

    with allow_package_calls():  # the references are package code: allowed here, refused in a lesson
        assert check("match3_specials.striped_wrapped", reference_striped_wrapped).passed
        assert not check("match3_specials.striped_wrapped", lambda rows, cols, centre: set()).passed
        cross_only = lambda rows, cols, centre: {(centre[0], c) for c in range(cols)} | {(r, centre[1]) for r in range(rows)}  # noqa: E731
        assert not check("match3_specials.striped_wrapped", cross_only).passed
        assert check("match3_specials.made_by", reference_made_by).passed
        assert not check("match3_specials.made_by", lambda shape, swipe: "plain").passed
        always_perpendicular = lambda shape, swipe: reference_made_by(shape, None)  # noqa: E731
        assert not check("match3_specials.made_by", always_perpendicular).passed


def test_play_random_is_seeded_and_specials_raise_the_score_per_move():
    from tilelab.match3.fast.specials import play_random

    plain = play_random(8, 8, 6, 400, rng=5, specials=False)
    again = play_random(8, 8, 6, 400, rng=5, specials=False)
    assert (plain[0] == again[0]).all() and (plain[1] == again[1]).all()
    on = play_random(8, 8, 6, 400, rng=5, specials=True)
    assert on[1].mean() > plain[1].mean()
    assert plain[0].min() >= 1 and on[0].min() >= 1
