"""The learned-player board, driven headless."""

from __future__ import annotations

import numpy as np
import pytest

from tilelab.game2048 import legal_moves
from tilelab.game2048.ntuple import NTupleNetwork, TDPlayer, lesson_network
from tilelab.widgets.game2048_td import Game2048TDWidget
from tilelab.widgets.testing import FakeMultiCanvas, click_button, fresh_kernel, tick


@pytest.fixture(autouse=True)
def _fresh_kernel():
    fresh_kernel()
    yield
    fresh_kernel()


def make(**kwargs) -> Game2048TDWidget:
    return Game2048TDWidget(seed=3, canvas=FakeMultiCanvas(3, 400, 400), raise_errors=True, **kwargs)


def test_ai_move_plays_the_learned_choice_and_shows_its_value():
    w = make()
    before = w.game.board
    expected = TDPlayer(w.net)(before)
    click_button(w.board, "AI move")
    assert w.game.moves_played == 1 and w.game.history[-1].direction == expected if hasattr(w.game, "history") else True
    assert expected in legal_moves(before)
    assert "V(afterstate)" in w.thinking.value and expected.name.lower() in w.last_note
    assert "training games" in w.thinking.value


def test_hint_does_not_move_and_autoplay_ticks():
    w = make()
    click_button(w.board, "Hint")
    assert w.game.moves_played == 0 and "reward" in w.thinking.value
    w.ai_toggle.value = True
    tick(w.ticker)
    assert w.game.moves_played == 1


def test_search_mode_and_a_custom_net():
    net = NTupleNetwork([(0, 1, 2, 3)])
    net.weights[:] = np.float32(1)
    w = make(net=net, search_ms=5)
    click_button(w.board, "AI move")
    assert w.game.moves_played == 1 and "depth" in w.thinking.value


def test_lesson_net_is_shipped_and_checked():
    net = lesson_network()
    assert net.name == "classroom" and net.memory_bytes == 5 * 16**4 * 4
