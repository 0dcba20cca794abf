"""The AI board, driven headless: buttons, toggle, speed, ticks, thinking panel."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest

from tilelab.game2048 import Board, CornerPlayer, Direction, Expectimax, Game, legal_moves
from tilelab.widgets import game2048_ai
from tilelab.widgets.game2048_ai import Game2048AIWidget, thinking_html
from tilelab.widgets.testing import FakeMultiCanvas, click_button, press_key, tick
from tilelab.widgets.testing import fresh_kernel


class Clock:
    """The clock the AI widget reads, moved on by hand: ``clock.wait()`` is a second going by."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = 1000.0
        monkeypatch.setattr(game2048_ai, "time", SimpleNamespace(monotonic=lambda: self.now, perf_counter=time.perf_counter))

    def wait(self, seconds: float = 1.0) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(monkeypatch)

@pytest.fixture(autouse=True)
def _fresh_kernel():
    fresh_kernel()  # best scores and live boards from other tests do not leak in
    yield
    fresh_kernel()



def make(**kwargs) -> Game2048AIWidget:
    kwargs.setdefault("player", Expectimax(depth=1))
    return Game2048AIWidget(rng=1, canvas=FakeMultiCanvas(3, 400, 400), raise_errors=True, **kwargs)


def test_ai_move_button_plays_one_move_and_shows_the_thinking():
    w = make()
    before = w.game.board
    click_button(w.board_widget, "AI move")
    assert w.game.moves_played == 1 and w.ai_moves == 1
    chosen = w.player.last.direction
    assert chosen in legal_moves(before)
    assert f"{w.player.last.values[chosen]:,.0f}" in w.thinking.value
    assert "depth 1" in w.thinking.value


def test_hint_thinks_without_moving():
    w = make()
    click_button(w.board_widget, "Hint")
    assert w.game.moves_played == 0
    assert w.player.last is not None and "nodes" in w.thinking.value


def test_autoplay_moves_once_per_tick_and_never_piles_up(clock):
    w = make()
    w.ai_toggle.value = True
    assert w.playing
    tick(w.ticker)
    assert w.game.moves_played == 1
    tick(w.ticker)  # arrives right after the move: the AI was "still thinking", so it is dropped
    assert w.game.moves_played == 1 and w.dropped_ticks == 1
    clock.wait()  # time passes
    tick(w.ticker)
    assert w.game.moves_played == 2
    w.ai_toggle.value = False
    clock.wait()
    tick(w.ticker)
    assert not w.playing and w.game.moves_played == 2


def test_speed_slider_sets_the_tick_interval():
    w = make()
    w.speed.value = 10
    assert w.ticker.interval == 100
    with pytest.raises(ValueError, match="speed"):
        make(speed=0)


def test_autoplay_stops_at_game_over(clock):
    board = Board.parse("2 4 8 16\n4 8 16 32\n8 16 32 64\n16 32 64 .")
    w = make(game=Game(board=board, rng=0))
    w.set_autoplay(True)
    while w.playing:
        clock.wait()
        tick(w.ticker)
    assert w.game.over and not w.ai_toggle.value
    assert w.board_widget.banner == "over"
    assert w.ai_move() is False and "game over" in w.thinking.value


def test_keys_still_play_while_the_ai_is_on_and_players_without_think_work(clock):
    w = make(player=CornerPlayer())
    w.set_autoplay(True)
    press_key(w.board_widget, "ArrowUp")
    moved_by_hand = w.game.moves_played
    clock.wait()
    tick(w.ticker)
    assert w.game.moves_played == moved_by_hand + 1
    assert "chose" in w.thinking.value


def test_the_ai_keeps_playing_after_a_win():
    board = Board.parse("1024 1024 . .\n. . . .\n. . . .\n. . . 2")
    w = make(game=Game(board=board, rng=0), player=lambda b: Direction.LEFT if Direction.LEFT in legal_moves(b) else legal_moves(b)[0])
    assert w.ai_move() and w.game.won and w.board_widget.banner == "won"
    assert w.ai_move()  # dismisses the banner itself
    assert w.board_widget.banner is None


def test_thinking_html_marks_the_best_move_and_dashes_illegal_ones():
    text = thinking_html({Direction.LEFT: 5.0, Direction.UP: 1.0}, Direction.LEFT)
    assert text.count("&mdash;") == 2 and "#1b7f3b" in text


def test_new_game_stops_autoplay():
    w = make()
    w.set_autoplay(True)
    w.new_game()
    assert not w.playing and w.game.moves_played == 0


def test_stored_output_has_a_picture_and_a_run_line():
    ai = Game2048AIWidget(rng=3, canvas=FakeMultiCanvas(3, 400, 400), raise_errors=True)
    data = ai._repr_mimebundle_()
    data = data[0] if isinstance(data, tuple) else data
    assert data["image/png"] and "run this cell to play" in data["text/html"] and "HBox" not in data["text/plain"]
