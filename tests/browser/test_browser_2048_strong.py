"""Watching the strong learned player in JupyterLab: the shipped net loads, "AI plays" plays legal moves by
itself with the 3-deep search on that net, and the canvas follows the engine."""

from __future__ import annotations

import pytest

from browserlab import BoardView, board_on_tab
from test_browser_2048_ai import ai_setup, assert_pixels_match, state

pytestmark = pytest.mark.browser

SEED = 2048
SETUP = ai_setup(f"Game2048TDWidget.strong(rng={SEED}, speed=8)", """
from tilelab.game2048.learning.ntuple_players import TDExpectimax
from tilelab.widgets.game2048_td import Game2048TDWidget
""") + """
def strong_facts():
    return {"note": ai.last_note, "trained": ai.net.training["games"],
            "searcher": isinstance(ai.player, TDExpectimax) and ai.player.budget.depth == 3}
"""


@pytest.fixture
def strong(board_lab: dict, notebook_dir) -> BoardView:
    return board_on_tab(board_lab, notebook_dir, "game2048_strong.ipynb", [SETUP, "ai"])


def test_strong_player_plays_its_own_moves_and_the_canvas_follows(strong: BoardView) -> None:
    lab = strong.lab
    strong.click_button("AI plays")
    lab.wait_for(lambda: state(strong)["ai_moves"] >= 8, 90, "the strong player to play eight moves by itself")
    strong.click_button("AI plays")
    final = lab.wait_for(lambda: (lambda s: s if not s["playing"] else None)(state(strong)), 15, "autoplay to stop")
    facts = lab.kernel_json("strong_facts()")
    assert facts["searcher"], "the strong board does not search 3 moves deep on its net"
    replays = lab.kernel_json("replay_choices()")
    assert replays and all(r["legal"] for r in replays if r["moved"])
    played = [r for r in replays if r["moved"]]
    assert len(played) == final["ai_moves"] == final["moves"]
    assert played[-1]["rows"] == final["rows"], "the board is not the engine's result of the last move"
    assert f"{facts['trained']:,} training games" in facts["note"], facts["note"]
    assert_pixels_match(strong, final)
