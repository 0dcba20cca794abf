"""The learned-player board, driven headless."""

from __future__ import annotations

import numpy as np
import pytest

from tilelab.game2048 import legal_moves
from tilelab.game2048.learning.ntuple_net import NTupleNetwork
from tilelab.game2048.learning.ntuple_players import TDPlayer, lesson_network
from tilelab.widgets.game2048_td import Game2048TDWidget
from tilelab.widgets.testing import FakeMultiCanvas, click_button, fresh_kernel, tick


@pytest.fixture(autouse=True)
def _fresh_kernel():
    fresh_kernel()
    yield
    fresh_kernel()


def make(**kwargs) -> Game2048TDWidget:
    return Game2048TDWidget(rng=3, canvas=FakeMultiCanvas(3, 400, 400), raise_errors=True, **kwargs)


def test_ai_move_plays_the_learned_choice_and_shows_its_value():
    w = make()
    before = w.game.board
    expected = TDPlayer(w.net)(before)
    click_button(w.board_widget, "AI move")
    assert w.game.moves_played == 1 and w.game.history[-1].direction == expected if hasattr(w.game, "history") else True
    assert expected in legal_moves(before)
    assert "V(afterstate)" in w.thinking.value and expected.name.lower() in w.last_note
    assert "training games" in w.thinking.value


def test_hint_does_not_move_and_autoplay_ticks():
    w = make()
    click_button(w.board_widget, "Hint")
    assert w.game.moves_played == 0 and "reward" in w.thinking.value
    w.ai_toggle.value = True
    tick(w.ticker)
    assert w.game.moves_played == 1


def test_search_mode_and_a_custom_net():
    net = NTupleNetwork([(0, 1, 2, 3)])
    net.weights[:] = np.float32(1)
    w = make(net=net, search_ms=5)
    click_button(w.board_widget, "AI move")
    assert w.game.moves_played == 1 and "depth" in w.thinking.value


def test_lesson_net_is_shipped_and_checked():
    net = lesson_network()
    assert net.name == "classroom" and net.memory_bytes == 5 * 16**4 * 4


# ------------------------------------------------------------------------------ watching the strong player
@pytest.fixture()
def strong_file(tmp_path, monkeypatch):
    """A small compact net standing in for the shipped strong net (not in the repository until trained)."""
    from tilelab.game2048.learning import ntuple_compact
    net = NTupleNetwork([(0, 1, 2, 3), (0, 1, 4, 5)], name="stand-in")
    net.train(100, rng=5, block=100)
    path = ntuple_compact.save_compact(net, tmp_path / "ntuple-strong.npz")
    monkeypatch.setattr(ntuple_compact, "STRONG_NET", path)
    return path


def test_strong_board_plays_the_strong_players_move(strong_file):
    from tilelab.game2048.learning.ntuple_players import TDExpectimax
    from tilelab.game2048.learning.ntuple_players import strong_player
    w = Game2048TDWidget.strong(rng=3, canvas=FakeMultiCanvas(3, 400, 400), raise_errors=True)
    assert w.net.name == "stand-in" and isinstance(w.player, TDExpectimax) and w.player.budget.depth == 3
    before = w.game.board
    expected = strong_player()(before)
    click_button(w.board_widget, "AI move")
    assert w.game.moves_played == 1 and expected.name.lower() in w.last_note
    assert "depth 3" in w.thinking.value and "100 training games" in w.thinking.value


def test_strong_board_by_name_with_a_depth_or_a_budget(strong_file):
    w = make(net="strong", depth=2)
    assert w.player.budget.depth == 2 and w.net.name == "stand-in"
    assert make(net="strong", search_ms=5).player.budget.ms_per_move == 5


def test_strong_board_without_its_file_says_how_to_get_it(tmp_path, monkeypatch):
    from tilelab.game2048.learning import ntuple_compact
    monkeypatch.setattr(ntuple_compact, "STRONG_NET", tmp_path / "missing.npz")
    with pytest.raises(ValueError, match="cannot watch the strong player.*missing.*make_strong_net.py"):
        Game2048TDWidget.strong(rng=1, canvas=FakeMultiCanvas(3, 400, 400))


@pytest.mark.parametrize("kwargs, message", [({"net": "best"}, "one of"), ({"search_ms": 5, "depth": 2}, "not both")])
def test_bad_board_settings(kwargs, message):
    with pytest.raises(ValueError, match=message):
        make(**kwargs)


def test_lesson_board_by_name_and_fixed_depth():
    w = make(net="lesson", depth=2)
    assert w.net.name == "classroom" and w.player.budget.depth == 2
