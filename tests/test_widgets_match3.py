"""The playable match-3 board, driven headless through the same handlers ipycanvas calls."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tilelab.match3 import Board, find_matches, hint, is_dead, legal_moves
from tilelab.match3.candies import candy_style
from tilelab.widgets import base
from tilelab.widgets import match3 as wm
from tilelab.widgets import match3_draw as wd
from tilelab.widgets.match3 import Match3Widget
from tilelab.widgets.match3_draw import cell_at, drag_target
from tilelab.widgets.testing import FakeMultiCanvas, click, click_button, drag, find_button, press_key, tick
from tilelab.widgets.testing import fresh_kernel

@pytest.fixture(autouse=True)
def _fresh_kernel():
    fresh_kernel()  # best scores and live boards from other tests do not leak in
    yield
    fresh_kernel()


PX = 50


def make(rows=6, cols=6, kinds=5, seed=3, frame_ms=0, **kw):
    return Match3Widget(rows, cols, kinds, rng=seed, cell_px=PX, frame_ms=frame_ms,
                        canvas=FakeMultiCanvas(3, cols * PX, rows * PX), raise_errors=True, **kw)


def centre(cell):
    return cell[1] * PX + PX / 2, cell[0] * PX + PX / 2


def pick(widget, cell):
    click(widget, *centre(cell))


def invalid_move(board: Board):
    legal = set(legal_moves(board))
    for a in board.cells():
        b = (a[0], a[1] + 1)
        if board.on_board(b) and (a, b) not in legal:
            return a, b
    raise AssertionError("no invalid move found")


# ----------------------------------------------------------------------------- geometry


@given(st.integers(1, 12), st.integers(1, 12), st.integers(10, 80), st.floats(-100, 1200), st.floats(-100, 1200))
def test_cell_at_inverts_the_cell_centres(rows, cols, px, x, y):
    cell = cell_at(x, y, rows, cols, px)
    inside = 0 <= x < cols * px and 0 <= y < rows * px
    assert (cell is not None) == inside
    if cell is not None:
        r, c = cell
        assert c * px <= x < (c + 1) * px and r * px <= y < (r + 1) * px
        assert cell_at((c + 0.5) * px, (r + 0.5) * px, rows, cols, px) == cell


def test_cell_at_rejects_a_bad_cell_size():
    with pytest.raises(ValueError, match="positive"):
        cell_at(1, 1, 3, 3, 0)


def test_drag_target_follows_the_main_direction():
    assert drag_target((3, 3), 0, 0, 40, 10) == (3, 4)
    assert drag_target((3, 3), 0, 0, -40, 10) == (3, 2)
    assert drag_target((3, 3), 0, 0, 5, 40) == (4, 3)
    assert drag_target((3, 3), 0, 0, 5, -40) == (2, 3)


# ----------------------------------------------------------------------------- playing


def test_click_a_candy_then_a_neighbour_swaps_and_scores():
    w = make()
    a, b = legal_moves(w.board)[0]
    before = w.board
    pick(w, a)
    assert w.selected == a
    pick(w, b)
    assert w.moves_played == 1 and w.score == w.last_result.score > 0 and w.selected is None
    assert w.last_result.legal and w.last_result.swapped == before.swapped(a, b)
    assert not find_matches(w.board) and not is_dead(w.board)
    assert "Score</b> %d" % w.score in w.status.value and "Moves</b> 1" in w.status.value


def test_click_selection_rules_follow_the_article():
    w = make()
    pick(w, (0, 0))
    pick(w, (0, 0))
    assert w.selected is None  # same candy: deselect
    pick(w, (0, 0))
    pick(w, (3, 3))
    assert w.selected == (3, 3) and w.moves_played == 0  # not a neighbour: select the new one
    click(w, 10_000, 10)
    assert w.selected == (3, 3)  # off the board: ignored


def test_drag_onto_a_neighbour_swaps():
    w = make()
    a, b = legal_moves(w.board)[-1]
    (x0, y0), (x1, y1) = centre(a), centre(b)
    drag(w, x0, y0, x1, y1)
    assert w.moves_played == 1 and w.last_result.legal and {w.last_result.a, w.last_result.b} == {a, b}


def test_an_invalid_swap_animates_there_and_back_and_changes_nothing():
    w = make(frame_ms=30)
    a, b = invalid_move(w.board)
    before = w.board
    w.canvas.reset()
    w.play(a, b)
    assert w.board == before and w.moves_played == 0 and w.score == 0 and "swapped back" in w.status.value
    sleeps = w.canvas.sleeps()
    assert len(sleeps) == 2 * wd.SWAP_FRAMES and set(sleeps) == {30.0}


def test_a_cascade_animates_flash_fall_and_refill_in_one_batch():
    w = make(frame_ms=25)
    w.canvas.reset()
    result = w.play(*legal_moves(w.board)[0]).events  # play gives the game's Turn
    per_step = wd.FLASH_FRAMES + 1 + wd.FALL_FRAMES
    frames = wd.SWAP_FRAMES + per_step * result.cascades + 1
    assert len(w.canvas.sleeps()) == frames - 1
    # the flash frames cover exactly the matched cells
    flashes = [args for name, args in w.layer(1).calls if name == "fill_rect"]
    matched = sum(len(g.cells) for g in result.steps[0].groups)
    assert len(flashes) >= matched * wd.FLASH_FRAMES // 2


def test_input_during_an_animation_is_ignored_and_never_corrupts_the_board(monkeypatch):
    w = make(frame_ms=200)
    first = w.play(*legal_moves(w.board)[0])
    board = w.board
    assert w.busy()
    for a, b in legal_moves(board)[:3]:
        pick(w, a)
        pick(w, b)
    assert w.play(*legal_moves(board)[0]) is None
    assert w.board == board and w.moves_played == 1 and w.score == first.score
    later = time.monotonic() + 3600.0  # an hour later: the browser finished playing
    monkeypatch.setattr(base, "time", SimpleNamespace(monotonic=lambda: later))
    assert w.play(*legal_moves(board)[0]) is not None and w.moves_played == 2


def test_candies_are_drawn_with_their_colour_and_shape():
    w = make(kinds=6)
    calls = w.layer(1).calls
    colours = {args[0] for name, args in calls if name == "fill_style"}
    assert {candy_style(k).colour for k in range(6)} <= colours
    assert sum(1 for name, _ in calls if name == "fill_polygon") == 36


def test_hint_button_and_idle_hint():
    w = make(idle_hint_s=3)
    click_button(w, "Hint")
    assert w.hint_move == hint(w.board) and w.hint_move in legal_moves(w.board)
    w2 = make(idle_hint_s=3)
    tick(w2.ticker, 2)
    assert w2.hint_move is None
    tick(w2.ticker, 1)
    assert w2.hint_move == hint(w2.board)
    assert w2.layer(2).count("stroke_rect") == 2
    pick(w2, (0, 0))  # input resets the idle clock
    assert w2.idle_s == 0


def test_step_mode_walks_the_cascade_one_stage_at_a_time():
    w = make()
    w.step_mode = True
    result = w.play(*legal_moves(w.board)[0]).events  # play gives the game's Turn
    stages = 4 * result.cascades  # swapped was shown already
    assert len(w.stages) == stages and not find_button(w, "Next step").disabled
    assert "swapped" in w.status.value
    pick(w, (0, 0))
    assert w.selected is None  # board input waits for the cascade
    seen = []
    for _ in range(stages):
        click_button(w, "Next step")
        seen.append(w.message)
    assert seen[:4] == [
        f"step 1: matched {', '.join(g.shape for g in result.steps[0].groups)} (+{result.steps[0].score})",
        "step 1: cleared", "step 1: candies fell", "step 1: refilled from the top",
    ]
    assert not w.stages and find_button(w, "Next step").disabled
    assert w.play(*legal_moves(w.board)[0]) is not None


def test_step_mode_adds_points_as_each_match_is_shown_in_its_own_colour():
    w = make()
    w.step_mode = True
    result = w.play(*legal_moves(w.board)[0]).events  # play gives the game's Turn
    assert w.score == 0, "no points before the match is shown"
    w.layer(2).reset()
    click_button(w, "Next step")  # step 1: matched
    assert w.score == result.steps[0].score and f"Score</b> {w.score}" in w.status.value
    colours = [args[0] for name, args in w.layer(2).calls if name == "stroke_style"]
    assert colours and set(colours) == {wd.MATCH_COLOUR} and wd.MATCH_COLOUR != wd.HINT_COLOUR
    while w.stages:
        click_button(w, "Next step")
    assert w.score == result.score and w.pending_score == 0


def test_leaving_step_mode_adds_the_points_still_waiting():
    w = make()
    w.step_mode = True
    result = w.play(*legal_moves(w.board)[0]).events  # play gives the game's Turn
    w.step_mode = False
    assert w.score == result.score


def test_rerun_cell_resumes_the_game_and_keeps_the_best():
    w = make(key="cell")
    w.play(*legal_moves(w.board)[0])
    again = make(key="cell")
    assert again.resumed and again.board == w.board and again.score == w.score and again.moves_played == 1
    fresh = make(key="cell", new_game=True)
    assert not fresh.resumed and fresh.score == 0 and fresh.best == w.score > 0


def test_stored_output_has_a_picture_of_the_board():
    w = make()
    data = w._repr_mimebundle_()
    data = data[0] if isinstance(data, tuple) else data
    assert data["image/png"] and "run this cell to play" in data["text/html"]
    assert "VBox" not in data["text/plain"]
    assert w.picture().size == (w.width, w.height)


def test_dead_board_is_reshuffled_with_a_message(monkeypatch):
    w = make(frame_ms=10)
    calls = {"n": 0}

    def dead_once(board):
        calls["n"] += 1
        return calls["n"] == 1

    monkeypatch.setattr(w.game.rules, "is_dead", dead_once)  # the game's rules decide, not the widget
    result = w.play(*legal_moves(w.board)[0]).events  # play gives the game's Turn
    assert "no moves left, shuffling" in w.status.value
    assert w.board.counts() == result.board.counts() and not find_matches(w.board)
    assert legal_moves(w.board)
    assert any("no moves left" in t for name, args in w.layer(2).calls if name == "fill_text" for t in [args[0]])


def test_new_game_resets_the_counters():
    w = make()
    w.play(*legal_moves(w.board)[0])
    old = w.board
    click_button(w, "New game")
    assert (w.score, w.moves_played, w.last_cascades) == (0, 0, 0) and w.board != old
    assert not find_matches(w.board) and legal_moves(w.board)


def test_same_seed_same_game():
    a, b = make(seed=9), make(seed=9)
    for w in (a, b):
        for _ in range(5):
            w.play(*legal_moves(w.board)[0])
    assert a.board == b.board and a.score == b.score


def test_errors_in_callbacks_are_raised_in_tests():
    w = make()
    with pytest.raises(ValueError, match="not neighbours"):
        w.play((0, 0), (2, 2))


def test_pressing_a_candy_rings_it_before_the_release():
    w = make()
    w.layer(2).reset()
    w.canvas.fire("on_mouse_down", 25, 25)
    assert w.layer(2).count("stroke_rect") == 1 and w.selected is None  # feedback, not yet a selection
    w.canvas.fire("on_mouse_up", 25, 25)
    assert w.selected == (0, 0)
    w.canvas.fire("on_mouse_down", 75, 125)
    w.layer(2).reset()
    w.canvas.fire("on_mouse_out", 300, 125)  # left the board: the preview ring goes, the selection stays
    assert w.layer(2).count("clear") == 1 and w.layer(2).count("stroke_rect") == 1 and w.selected == (0, 0)


# ----------------------------------------------------------------------------- one game protocol (issue 20)


def test_undo_by_key_and_button_reaches_the_match3_board():
    w = make()
    start = w.board
    w.play(*legal_moves(w.board)[0])
    w.play(*invalid_move(w.board))  # swapped back: nothing to undo for it
    assert w.moves_played == 1 and w.score > 0
    press_key(w, "u")
    assert (w.board, w.score, w.moves_played) == (start, 0, 0)
    w.play(*legal_moves(w.board)[0])
    click_button(w, "Undo")
    assert w.board == start and w.game.undo_depth == 0
    press_key(w, "Backspace")
    assert "nothing to undo" in w.status.value


def test_undo_replays_the_same_refills():
    w = make()
    move = legal_moves(w.board)[0]
    w.play(*move)
    after = w.board
    press_key(w, "u")
    w.play(*move)
    assert w.board == after  # the random state came back with the board


def test_save_and_load_reach_the_match3_board():
    from tilelab.match3 import Game

    w = make(seed=4)
    w.play(*legal_moves(w.board)[0])
    other = make(seed=8)
    other.set_game(Game.from_json(w.game.to_json()))
    assert (other.board, other.score, other.moves_played) == (w.board, w.score, w.moves_played) and other.game.can_undo
    with pytest.raises(ValueError, match="6x6"):
        other.set_game(Game(4, 4, 3, rng=0))


def test_a_hint_clicked_during_a_cascade_is_answered_after_its_last_frame():
    w = make(frame_ms=40)
    w.play(*legal_moves(w.board)[0])
    assert w.busy()
    w.canvas.reset()
    assert w.show_hint() == hint(w.board) == w.hint_move and "hint coming" in w.status.value
    # one batch: wait out the cascade still playing in the browser, then the outline
    sleeps = w.canvas.sleeps()
    assert len(sleeps) == 1 and 0 < sleeps[0] <= w.animation_left_ms() + w.frame_ms + 50
    assert w.layer(2).count("stroke_rect") == 2


def test_a_hint_clicked_during_step_mode_is_shown_after_the_last_step():
    w = make()
    w.step_mode = True
    w.play(*legal_moves(w.board)[0])
    click_button(w, "Hint")
    assert w.hint_move is None
    while w.stages:
        click_button(w, "Next step")
    assert w.hint_move == hint(w.board)


def test_new_game_on_a_long_game_asks_once():
    from tilelab.widgets.base import CONFIRM_MOVES

    w = make()
    for _ in range(CONFIRM_MOVES):
        w.play(*legal_moves(w.board)[0])
    board = w.board
    click_button(w, "New game")
    assert w.board == board and "press New game again" in w.status.value
    click_button(w, "New game")
    assert w.moves_played == 0 and w.board != board


def test_px_gives_the_board_width_and_cell_px_stays():
    a = Match3Widget(4, 5, 3, rng=1, px=250, canvas=FakeMultiCanvas(3, 250, 200))
    b = Match3Widget(4, 5, 3, rng=1, cell_px=50, canvas=FakeMultiCanvas(3, 250, 200))
    assert a.cell_px == b.cell_px == 50 and a.width == b.width == 250
    with pytest.raises(ValueError, match="disagree"):
        Match3Widget(4, 5, 3, px=250, cell_px=40, canvas=FakeMultiCanvas(3, 250, 200))


def test_the_rules_object_replaces_the_specials_branches():
    import inspect
    import re

    from tilelab.match3 import PLAIN, WITH_SPECIALS

    source = inspect.getsource(Match3Widget)
    assert not re.search(r"if (not )?self\.specials\b(?!_)", source)
    for rule in ("swap", "swap_specials", "is_dead", "reshuffle_report", "reshuffle_specials", "hint"):
        assert not re.search(rf"(?<![\w.]){rule}\(", source), rule
    assert make().game.rules is PLAIN and make(rules=WITH_SPECIALS).specials
