"""The board base: input routing, drag vs click, animation batching, errors shown, Escape."""

from __future__ import annotations

import pytest

from tilelab.widgets.base import BoardWidget, fit_font_size
from tilelab.widgets.testing import (FakeMultiCanvas, click, click_button, client_ready, drag, press_key,
                                     tick, touch_swipe)
from tilelab.widgets.testing import fresh_kernel

@pytest.fixture(autouse=True)
def _fresh_kernel():
    fresh_kernel()  # best scores and live boards from other tests do not leak in
    yield
    fresh_kernel()



class Recorder(BoardWidget):
    def __init__(self, **kw):
        self.events: list[tuple] = []
        super().__init__(100, 100, canvas=FakeMultiCanvas(3, 100, 100), **kw)

    def on_key(self, key):
        self.events.append(("key", key))

    def on_click(self, x, y):
        self.events.append(("click", x, y))

    def on_drag(self, x0, y0, x1, y1):
        self.events.append(("drag", x0, y0, x1, y1))

    def redraw(self):
        self.events.append(("redraw",))


def test_keys_reach_on_key_but_shortcuts_with_ctrl_or_meta_do_not():
    board = Recorder(raise_errors=True)
    press_key(board, "ArrowUp")
    press_key(board, "s", ctrl=True)
    press_key(board, "z", meta=True)
    assert board.events == [("key", "ArrowUp")]


def test_escape_releases_the_keyboard_instead_of_reaching_the_game(monkeypatch):
    board = Recorder(raise_errors=True)
    board.add_button("Undo", lambda: None)
    focused = []
    monkeypatch.setattr(type(board.keyboard_park), "focus", lambda self: focused.append(self))
    press_key(board, "Escape")
    # an inert button, not a toolbar one: Enter (as in Shift-Enter) must not press anything on the board
    assert board.events == [] and focused == [board.keyboard_park]
    assert not board.keyboard_park._click_handlers.callbacks


def test_short_press_is_a_click_long_one_a_drag_and_touch_swipes_too():
    board = Recorder(raise_errors=True)
    click(board, 10, 10)
    drag(board, 10, 10, 60, 12)
    touch_swipe(board, 50, 50, 50, 5)
    assert board.events == [("click", 10.0, 10.0), ("drag", 10.0, 10.0, 60.0, 12.0), ("drag", 50.0, 50.0, 50.0, 5.0)]


def test_mouse_leaving_the_canvas_cancels_the_press():
    board = Recorder(raise_errors=True)
    board.canvas.fire("on_mouse_down", 10, 10)
    board.canvas.fire("on_mouse_out", 99, 10)
    board.canvas.fire("on_mouse_up", 40, 40)
    assert board.events == []


def test_client_ready_redraws():
    board = Recorder(raise_errors=True)
    client_ready(board)
    assert board.events == [("redraw",)]


def test_animation_is_one_batch_with_pauses_and_a_busy_board_skips_to_the_last_frame():
    board = Recorder(raise_errors=True)
    drawn = []
    frames = [lambda i=i: drawn.append(i) for i in range(4)]
    assert board.animate(frames, 20) is True
    assert drawn == [0, 1, 2, 3] and board.canvas.sleeps() == [20.0, 20.0, 20.0]
    assert board.animating()
    assert board.animate(frames, 20) is False  # input outran the animation: draw the end state only
    assert drawn[-1] == 3 and len(drawn) == 5 and board.animation_ms(100) == 0.0


def test_callback_errors_are_shown_not_raised_unless_asked():
    shown = Recorder()
    shown.on_key = lambda key: 1 / 0
    press_key(shown, "x")  # no exception escapes into ipycanvas' event loop
    strict = Recorder(raise_errors=True)
    strict.on_key = lambda key: 1 / 0
    with pytest.raises(ZeroDivisionError):
        press_key(strict, "x")


def test_buttons_and_tickers_run_their_callbacks():
    board = Recorder(raise_errors=True)
    hits = []
    board.add_button("Go", lambda: hits.append("go"))
    ticker = board.add_ticker(100, lambda: hits.append("tick"))
    click_button(board, "Go")
    tick(ticker, 2)
    assert hits == ["go", "tick", "tick"]
    board.close()
    assert ticker.playing is False


def test_banner_draws_title_and_subtitle_on_the_overlay():
    board = Recorder(raise_errors=True)
    board.draw_banner("You win!", "keep playing?")
    assert board.canvas[2].texts() == ["You win!", "keep playing?"]
    board.clear_banner()
    assert board.canvas[2].texts() == []


def test_fit_font_size_shrinks_with_longer_text_and_never_vanishes():
    sizes = [fit_font_size("8" * n, 80, 80) for n in range(1, 12)]
    assert sizes == sorted(sizes, reverse=True) and min(sizes) >= 6


# ------------------------------------------------------------------ page helpers and asking once (issue 20)


def test_every_board_carries_the_page_script_and_the_focus_ring():
    from tilelab.widgets import base, page

    board = base.BoardWidget(40, 40, canvas=FakeMultiCanvas(3, 40, 40))
    style, script = board.page_helper.children
    assert "canvas:focus" in style.value and page.FOCUS_RING in style.value
    (output,) = script.outputs
    js = output["data"]["application/javascript"]
    # the wheel: a capturing listener that stops the event before ipycanvas cancels it, never cancelling it itself
    assert "addEventListener('wheel'" in js and "capture: true, passive: true" in js and "preventDefault" not in js.split("keydown")[0]
    assert "'Escape'" in js and "cell.focus()" in js and ".jp-Cell" in js
    assert board.page_helper in board.widget.children
    assert board.status.layout.min_height == base.STATUS_HEIGHT and board.status.layout.overflow == "visible"


def test_confirm_drop_asks_once_for_a_long_game_only():
    from tilelab.widgets import base, page

    board = base.BoardWidget(40, 40, canvas=FakeMultiCanvas(3, 40, 40))
    assert board.confirm_drop(base.CONFIRM_MOVES - 1)  # a short game just goes
    assert not board.confirm_drop(base.CONFIRM_MOVES) and board.confirm_drop(base.CONFIRM_MOVES)
    assert not board.confirm_drop(30)
    board.cancel_confirm()  # a move in between: ask again
    assert not board.confirm_drop(30) and not board.confirm_drop(31) and board.confirm_drop(31)
