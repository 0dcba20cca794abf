"""The candy board with special candies on: drawing, the toggle, blasts animated, step mode."""

from __future__ import annotations

import pytest

from tilelab.match3 import Board, SpecialBoard
from tilelab.widgets.match3_draw import BLAST_COLOUR
from tilelab.widgets.match3 import Match3Widget
from tilelab.widgets.testing import FakeMultiCanvas, click, find_button

PICTURE = """
0 1 2 3 4 5
2 3 4 5 0 1
4 5 0- 1 2 3
0 1 2| 3 4 5
2 3 4+ 5 0 1
4 5 * 1 2 3
"""


def make(**kw) -> Match3Widget:
    return Match3Widget(6, 6, 6, rng=1, canvas=FakeMultiCanvas(3, 300, 300), raise_errors=True,
                        frame_ms=0, new_game=True, key=("specials-test", id(kw)), **kw)


def test_specials_on_deals_a_special_board_and_the_toggle_switches_rules():
    board = make(specials=True)
    assert isinstance(board.board, SpecialBoard) and board.specials_toggle.value
    board.specials_toggle.value = False
    assert isinstance(board.board, Board) and not board.specials and "specials off" in board.message
    board.specials_toggle.value = True
    assert isinstance(board.board, SpecialBoard)
    board.close()


def test_each_special_is_drawn_with_its_own_pattern():
    board = make(specials=True)
    board.board = SpecialBoard.parse(PICTURE, kinds=6)
    pieces = board.canvas[1]
    pieces.reset()
    board.redraw()
    calls = pieces.calls
    assert sum(1 for name, _ in calls if name == "stroke_line") == 12  # two striped x 3 stripes x (edge + white)
    assert sum(1 for name, args in calls if name == "set_line_dash" and args == ([5, 3],)) == 1  # one wrapper
    assert sum(1 for name, _ in calls if name == "fill_circle") == 1 + 9  # the bomb's disc and sprinkles
    # plain candies still get their kind's polygon: 36 cells minus the bomb
    assert sum(1 for name, _ in calls if name == "fill_polygon") == 35
    board.close()


def test_clicking_a_colour_bomb_and_a_neighbour_clears_that_colour():
    board = make(specials=True)
    board.board = SpecialBoard.parse(PICTURE, kinds=6)
    click(board, 2 * 50 + 25, 5 * 50 + 25)  # the bomb at (5, 2)
    click(board, 3 * 50 + 25, 5 * 50 + 25)  # then the 1 at (5, 3)
    result = board.last_result
    assert result.legal and result.combo == "bomb+plain" and board.score == result.score > 1200
    assert board.moves_played == 1
    board.close()


def test_blasts_are_animated_wave_by_wave():
    board = make(specials=True)
    board.board = SpecialBoard.parse(PICTURE, kinds=6)
    result = board.play(((2, 2), (3, 2))).events  # striped + striped: a cross, catching the wrapped below
    assert result.combo == "striped+striped"
    step = result.steps[0]
    waves = {a.wave for a in step.activations}
    assert waves == {0, 1}
    frames = board.step_frames(step)
    plain = [f for f in frames]
    pieces = board.canvas[1]
    pieces.reset()
    for frame in plain:
        frame()
    blasts = [args for name, args in pieces.calls if name == "fill_style" and args == (BLAST_COLOUR,)]
    assert len(blasts) == 2 * len(waves)  # each wave lit for two frames
    board.close()


def test_step_mode_shows_each_special_going_off():
    board = make(specials=True)
    board.board = SpecialBoard.parse(PICTURE, kinds=6)
    board.step_mode = True
    board.play((2, 2), (3, 2))
    titles = [title for title, _, _ in board.stages]
    assert any("striped+striped at (3, 2) goes off" in t for t in titles)
    assert any("wrapped at (4, 2) goes off" in t for t in titles)
    while board.stages:
        find_button(board, "Next step").click()
    assert board.score == board.last_result.score
    board.close()


def test_hint_prefers_a_special_swap_and_a_dead_board_is_reshuffled_keeping_specials():
    board = make(specials=True)
    board.board = SpecialBoard.parse(PICTURE, kinds=6)
    move = board.show_hint()
    from tilelab.match3.special_rules import combo_of, is_dead_specials

    assert move is not None and combo_of(board.board, *move) != "none"
    dead = SpecialBoard.parse(PICTURE.replace("*", "3").replace("0-", "0").replace("2|", "2").replace("4+", "4"),
                              kinds=6).with_cells({(0, 0): (0, 1)})
    assert is_dead_specials(dead)
    assert board.game.rules.is_dead(dead)  # the game's rules object answers, not the widget
    shuffled = board.game.rules.reshuffle(dead, rng=board.game.rng).board
    assert not is_dead_specials(shuffled) and list(shuffled.special_cells().values()) == ["striped-row"]
    board.close()


def test_stored_picture_shows_the_specials():
    """The still picture (shown before the cell runs) draws stripes, wrappers and the bomb's sprinkles."""
    from tilelab.match3.special_board import SpecialBoard
    from tilelab.widgets.match3_draw import board_picture

    cell = 40
    plain = board_picture(SpecialBoard.parse("0 1 2\n1 2 0"), cell)
    marked = board_picture(SpecialBoard.parse("0- 1| 2+\n1 2 *"), cell)

    def crop(image, r, c):
        return image.crop((c * cell, r * cell, (c + 1) * cell, (r + 1) * cell)).tobytes()

    for r, c in [(0, 0), (0, 1), (0, 2), (1, 2)]:
        assert crop(plain, r, c) != crop(marked, r, c), f"the special at {(r, c)} is drawn as a plain candy"
    assert crop(plain, 1, 0) == crop(marked, 1, 0)  # plain candies are drawn the same
